//! Texel tuning of the Xiangqi evaluation's scalar weights on positions from Boyi's game
//! records.
//!
//! `cargo run --release -p boyi-engines --example xiangqi_tune -- [--lambda L] [--steps N]
//!  [--only name,name…] [--start name=value,…] RECORD_DIR...`
//!
//! Every position of every finished game (after the first ten plies, not in check, and quiet:
//! no capture that wins material) is labelled with the game's result from red's view (1, ½,
//! 0). The evaluation is linear in its weights, so each position is reduced once to its
//! feature vector (the evaluation with one weight at a time). The tuner fits the logistic
//! scale K on the current weights (the defaults, or `--start`'s), then minimises the mean logistic loss (cross-entropy of
//! `sigmoid(K · eval)` against the result) plus `lambda · Σ ((w − w₀) / max(|w₀|, 20))²`,
//! which pulls every weight toward its current value, by gradient descent (Adam). Games
//! whose number is a multiple of five are held out: their loss is reported before and after,
//! so an overfit shows. The middle-game chariot is the anchor of the scale (K and a common
//! factor of all weights trade off; K is refitted as the weights move), and the tempo weight
//! is left alone (static positions say little about it). Prints each weight, the held-out loss of the rounded weights through the real
//! evaluation, and the `boyi:strong` options that play the tuned set.

use boyi_core::{Game, Side};
use boyi_engines::tune::{self, Adam, load_dir, logistic_loss, sigmoid, winner};
use boyi_engines::xiangqi::eval::{DEFAULT_WEIGHTS, Weights, evaluate, w};
use boyi_engines::xiangqi::movepick::Picker;
use boyi_games::xiangqi::{Board, Xiangqi};
use boyi_records::GameRecord;
use clap::Parser;
use std::path::Path;

const N: usize = w::COUNT;

struct Sample {
    board: Board,
    /// The game's result from red's view.
    result: f64,
    /// The red-view evaluation per unit of each weight.
    features: [f64; N],
    held_out: bool,
}

#[derive(Parser)]
struct Options {
    /// Pull towards the current weights.
    #[arg(long, default_value_t = 0.01)]
    lambda: f64,
    /// Gradient steps.
    #[arg(long, default_value_t = 3000)]
    steps: usize,
    /// The weights to tune, by name (default: all but the tempo and the chariot).
    #[arg(long, value_name = "NAME,NAME…", value_parser = weight_set)]
    only: Option<[bool; N]>,
    /// Start from these weights instead of the defaults (`name=value,…`, as the
    /// `boyi:strong?…` spec the tuner prints); the pull and the bounds are around them.
    #[arg(long, value_name = "NAME=VALUE,…", value_parser = start_weights)]
    start: Option<Weights>,
    /// Directories of game records.
    #[arg(required = true)]
    dirs: Vec<String>,
}

impl Options {
    /// The weights to tune: `--only`'s, else all but the tempo and the chariot.
    fn tuned(&self) -> [bool; N] {
        self.only
            .unwrap_or(std::array::from_fn(|i| i != w::TEMPO && i != w::CHARIOT))
    }
}

/// The weights of a `name=value,…` list (as the `boyi:strong?…` spec the tuner prints).
fn start_weights(spec: &str) -> Result<Weights, String> {
    boyi_engines::xiangqi::spec_weights(spec).map_err(|e| e.to_string())
}

/// The weights named in a comma-separated list.
fn weight_set(names: &str) -> Result<[bool; N], String> {
    let mut tuned = [false; N];
    for n in names.split(',') {
        tuned[w::index(n).ok_or_else(|| format!("no weight {n:?}"))?] = true;
    }
    Ok(tuned)
}

fn main() {
    let opts = Options::parse();
    let mut samples = Vec::new();
    let mut games = 0;
    for d in &opts.dirs {
        load_dir(Path::new(d), &mut games, |rec, held_out| {
            load_record(rec, &mut samples, held_out)
        });
    }
    let held = samples.iter().filter(|s| s.held_out).count();
    eprintln!(
        "{games} games, {} positions ({held} held out)",
        samples.len()
    );
    if samples.is_empty() {
        std::process::exit(1);
    }
    let initial = opts.start.unwrap_or(DEFAULT_WEIGHTS);
    let start = to_f64(&initial);
    let k0 = fit_k(&samples, &start);
    let (train0, valid0) = losses(&samples, &start, k0);
    eprintln!("K = {k0:.5}; loss train {train0:.6} held out {valid0:.6}");
    let (tuned, k) = descend(&samples, &opts, &initial, k0);
    let rounded = Weights(std::array::from_fn(|i| tuned[i].round() as i32));
    let (train1, valid1) = losses(&samples, &to_f64(&rounded), k);
    let (exact0, exact1) = (
        exact_loss(&samples, &initial, k0),
        exact_loss(&samples, &rounded, k),
    );
    eprintln!("tuned: loss train {train1:.6} held out {valid1:.6}");
    eprintln!("held out through the evaluation: {exact0:.6} -> {exact1:.6}");
    let mut changed = Vec::new();
    for (i, name) in w::NAMES.iter().enumerate() {
        println!("{name} {} -> {}", initial.0[i], rounded.0[i]);
        if rounded.0[i] != DEFAULT_WEIGHTS.0[i] {
            changed.push(format!("{name}={}", rounded.0[i]));
        }
    }
    println!("boyi:strong?{}", changed.join(","));
}

fn to_f64(weights: &Weights) -> [f64; N] {
    std::array::from_fn(|i| weights.0[i] as f64)
}

fn dot(f: &[f64; N], w: &[f64; N]) -> f64 {
    f.iter().zip(w).map(|(a, b)| a * b).sum()
}

/// Mean loss of the training and the held-out positions under the linear model.
fn losses(samples: &[Sample], weights: &[f64; N], k: f64) -> (f64, f64) {
    tune::mean_losses(
        samples,
        |s| s.held_out,
        |s| logistic_loss(sigmoid(k * dot(&s.features, weights)), s.result),
    )
}

/// Held-out loss through the real (integer) evaluation.
fn exact_loss(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    let held: Vec<&Sample> = samples.iter().filter(|s| s.held_out).collect();
    let total: f64 = held
        .iter()
        .map(|s| logistic_loss(sigmoid(k * red_eval(&s.board, weights) as f64), s.result))
        .sum();
    total / held.len().max(1) as f64
}

fn fit_k(samples: &[Sample], weights: &[f64; N]) -> f64 {
    tune::fit_k(0.0001, |k| losses(samples, weights, k).0)
}

/// Adam on the regularised training loss; weights stay between half and twice (+10) their
/// current values.
fn descend(samples: &[Sample], opts: &Options, initial: &Weights, mut k: f64) -> ([f64; N], f64) {
    let tuned = opts.tuned();
    let w0 = to_f64(initial);
    let scale: [f64; N] = std::array::from_fn(|i| w0[i].abs().max(20.0));
    let mut wt = w0;
    let mut adam = Adam::new(N, 0.5);
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    for t in 1..=opts.steps {
        let mut grad = [0.0; N];
        for s in &train {
            let err = sigmoid(k * dot(&s.features, &wt)) - s.result;
            for (g, f) in grad.iter_mut().zip(&s.features) {
                *g += err * k * f;
            }
        }
        adam.next();
        for i in 0..N {
            if !tuned[i] {
                continue;
            }
            let g = grad[i] / train.len() as f64
                + 2.0 * opts.lambda * (wt[i] - w0[i]) / (scale[i] * scale[i]);
            wt[i] += adam.delta(i, g);
            wt[i] = wt[i].clamp(w0[i] / 2.0, w0[i] * 2.0 + 10.0);
        }
        if t % 500 == 0 {
            // K and the weights' overall scale trade off; the anchored chariot keeps the
            // scale, K follows the weights.
            k = fit_k(samples, &wt);
            let (tr, va) = losses(samples, &wt, k);
            eprintln!("step {t}: K {k:.5} loss train {tr:.6} held out {va:.6}");
        }
    }
    (wt, k)
}

/// The evaluation from red's view.
fn red_eval(board: &Board, weights: &Weights) -> i32 {
    let v = evaluate(board, weights);
    if board.side_to_move() == Side::White {
        v
    } else {
        -v
    }
}

/// The evaluation per unit of each weight (exact up to the evaluation's integer rounding,
/// made small by measuring with a large weight).
fn features(board: &Board) -> [f64; N] {
    const UNIT: i32 = 1000;
    std::array::from_fn(|i| {
        let mut one = Weights([0; N]);
        one.0[i] = UNIT;
        red_eval(board, &one) as f64 / UNIT as f64
    })
}

fn load_record(rec: &GameRecord, out: &mut Vec<Sample>, held_out: bool) -> bool {
    let Some(winner) = winner(rec).filter(|_| rec.game == boyi_games::GameKind::Xiangqi) else {
        return false;
    };
    // Red is the white side.
    let result = match winner {
        Some(Side::White) => 1.0,
        Some(Side::Black) => 0.0,
        None => 0.5,
    };
    let Ok(mut pos) = boyi_records::start_position::<Xiangqi>(rec) else {
        return false;
    };
    for (ply, m) in rec.moves.iter().enumerate() {
        let Ok(mv) = pos.parse_move(&m.text) else {
            return true;
        };
        pos.play(&mv);
        if ply >= 10 && quiet(pos.board()) {
            out.push(Sample {
                board: pos.board().clone(),
                result,
                features: features(pos.board()),
                held_out,
            });
        }
    }
    true
}

/// Not in check and no capture that wins material: the static evaluation is about the
/// position's value.
fn quiet(board: &Board) -> bool {
    !board.in_check() && Picker::captures(&mut board.clone(), false).is_empty()
}
