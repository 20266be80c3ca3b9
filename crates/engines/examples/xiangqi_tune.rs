//! Texel tuning of the Xiangqi evaluation weights on positions from Boyi's game records.
//!
//! `cargo run --release -p boyi-engines --example xiangqi_tune -- RECORD_DIR...`
//!
//! Every position of every decided or drawn game (after the first ten plies, not in check,
//! and quiet: no capture that wins material) is labelled with the game's
//! result from red's view (1, ½, 0). The tuner fits the logistic scale K first, then moves
//! each weight up and down by a step while the mean squared error of
//! `sigmoid(K · eval)` against the labels falls, halving the step when no weight improves.
//! It prints each weight's name and value, for `DEFAULT_WEIGHTS`.

use boyi_core::{Game, NoVariant, Side};
use boyi_engines::xiangqi::eval::{DEFAULT_WEIGHTS, Weights, evaluate, w};
use boyi_engines::xiangqi::movepick::Picker;
use boyi_games::xiangqi::{Board, Xiangqi};
use std::path::Path;

struct Sample {
    board: Board,
    result: f64,
}

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: xiangqi_tune RECORD_DIR...");
        std::process::exit(2);
    }
    let mut samples = Vec::new();
    for d in &dirs {
        load_dir(Path::new(d), &mut samples);
    }
    eprintln!("{} positions", samples.len());
    let mut weights = DEFAULT_WEIGHTS;
    let k = fit_k(&samples, &weights);
    eprintln!("K = {k:.5}, error {:.6}", error(&samples, &weights, k));
    let mut step = 8;
    while step >= 1 {
        let mut improved = false;
        for i in 0..w::COUNT {
            improved |= improve(&samples, &mut weights, k, i, step);
        }
        eprintln!("step {step}: error {:.6}", error(&samples, &weights, k));
        if !improved {
            step /= 2;
        }
    }
    for (name, v) in w::NAMES.iter().zip(weights.0) {
        println!("{name} {v}");
    }
}

/// Tries the weight `i` one step up, then down; keeps the better if it lowers the error.
/// Weights stay between half and twice their defaults: the few thousand positions of a
/// short run of games are too correlated to fit them freely (an unbounded fit drove piece
/// values negative).
fn improve(samples: &[Sample], weights: &mut Weights, k: f64, i: usize, step: i32) -> bool {
    let base = error(samples, weights, k);
    let default = DEFAULT_WEIGHTS.0[i];
    let (lo, hi) = (default / 2, default * 2 + 10);
    for delta in [step, -step] {
        let mut t = *weights;
        t.0[i] += delta;
        if !(lo..=hi).contains(&t.0[i]) {
            continue;
        }
        if error(samples, &t, k) < base {
            *weights = t;
            return true;
        }
    }
    false
}

fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    let mut best = (f64::MAX, 0.0);
    let mut k = 0.0005;
    while k < 0.02 {
        let e = error(samples, weights, k);
        if e < best.0 {
            best = (e, k);
        }
        k += 0.0005;
    }
    best.1
}

fn error(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let v = evaluate(&s.board, weights);
            let red = if s.board.side_to_move() == Side::White {
                v
            } else {
                -v
            };
            let p = 1.0 / (1.0 + (-k * red as f64).exp());
            (s.result - p).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

fn load_dir(dir: &Path, out: &mut Vec<Sample>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("cannot read {}", dir.display());
        return;
    };
    for e in entries.flatten() {
        if let Ok(text) = std::fs::read_to_string(e.path()) {
            load_record(&text, out);
        }
    }
}

fn load_record(text: &str, out: &mut Vec<Sample>) {
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_string()))
    };
    let (Some(start), Some(moves), Some(result)) =
        (field("start "), field("moves "), field("result "))
    else {
        return;
    };
    let result = match result.as_str() {
        "red" => 1.0,
        "black" => 0.0,
        "draw" => 0.5,
        _ => return,
    };
    let Ok(mut pos) = Xiangqi::from_text(&NoVariant, &start) else {
        return;
    };
    for (ply, text) in moves.split(',').enumerate() {
        let Ok(mv) = pos.parse_move(text) else {
            return;
        };
        pos.play(&mv);
        if ply >= 10 && quiet(pos.board()) {
            out.push(Sample {
                board: pos.board().clone(),
                result,
            });
        }
    }
}

/// Not in check and no capture that wins material: the static evaluation is about the
/// position's value.
fn quiet(board: &Board) -> bool {
    !board.in_check() && Picker::captures(&mut board.clone(), false).is_empty()
}
