//! Fits the strong Gomoku engine's move-ordering values (`gomoku::move_policy::POLICY`) to the
//! moves a player made in recorded games.
//!
//! `cargo run --release -p boyi-engines --example gomoku_policy -- [--mover TEXT]
//!  [--lambda L] [--steps N] RECORD_DIR... > crates/engines/src/gomoku/policy.rs`
//!
//! Every position of every freestyle game on an empty 15×15 board, after the record's opening
//! stones, where the mover (the player whose spec in the record contains `--mover`; anyone
//! without it) chose among the engine's candidates is a sample: the candidates are those of
//! the search (`Engine::generate`: the neighbourhood, or against an open three only the
//! blocks and fours), and a position with a five to make or to block is left out, as the
//! search settles it without ordering. A candidate's score is the sum of its weights
//! (`move_policy::policy_features`): its combination of patterns as the mover's point and as the
//! opponent's, the pair of their highest pattern classes, the count of stones within the 5×5
//! square around it, and its place relative to the last move and to the mover's own last
//! move; a softmax over the scores is the predicted choice. The values minimise the mean
//! cross-entropy of the moves made plus `lambda · Σ w²`, by Adam. Games whose number is a multiple of five are held out. The
//! report compares, on the held-out positions, how often the move made is the first and
//! among the first 18 (the search's width) under the present order (the point values) and
//! under the fitted one. The table is printed, in hundredths of the softmax's units, as the
//! text of `gomoku/policy.rs`.

use boyi_engines::gomoku::board::EngineBoard;
use boyi_engines::gomoku::learned::{COMBOS, combo_table};
use boyi_engines::gomoku::move_policy::{
    POLICY_BEFORE_AT, POLICY_CROSS_AT, POLICY_LAST_AT, POLICY_NEAR_AT, POLICY_WEIGHTS as N,
    policy_features,
};
use boyi_engines::gomoku::search::{defends, value_order};
use boyi_engines::gomoku::threat::{fives, has_open_three};
use boyi_engines::tune::{Adam, freestyle_game, load_dirs};
use boyi_records::GameRecord;
use clap::Parser;

/// Moves searched per inner node by default (`width`).
const WIDTH: usize = 18;

/// One candidate: its weights and its score under the present order.
#[derive(Clone, Copy)]
struct Candidate {
    features: [u16; 6],
    present: i32,
}

/// A position: its candidates (a range of `Data::candidates`), the move made among them.
struct Sample {
    start: u32,
    len: u16,
    made: u16,
    held_out: bool,
}

#[derive(Default)]
struct Data {
    candidates: Vec<Candidate>,
    samples: Vec<Sample>,
    /// Moves of the mover that were not among the candidates.
    outside: usize,
}

#[derive(Parser)]
struct Options {
    /// Learn the moves of the player whose spec contains this text (all moves without it).
    #[arg(long)]
    mover: Option<String>,
    /// L2 pull of the values towards zero.
    #[arg(long, default_value_t = 0.0001)]
    lambda: f64,
    /// Gradient steps.
    #[arg(long, default_value_t = 400)]
    steps: usize,
    /// Directories of game records.
    dirs: Vec<String>,
}

fn main() {
    let opts = Options::parse();
    let mut data = Data::default();
    let games = load_dirs(&opts.dirs, |rec, held_out| {
        load_record(rec, opts.mover.as_deref(), held_out, &mut data)
    });
    eprintln!(
        "{games} games, {} positions, {} moves outside the candidates",
        data.samples.len(),
        data.outside
    );
    if data.samples.is_empty() {
        std::process::exit(1);
    }
    let present = |c: &Candidate| f64::from(c.present);
    report("present order", &data, present);
    let w = descend(&data, &opts);
    report("fitted order", &data, |c| score(c, &w));
    print_table(&w, &opts);
}

/// Reads one record; false when it is not a freestyle game on an empty 15×15 board.
fn load_record(rec: &GameRecord, mover: Option<&str>, held_out: bool, data: &mut Data) -> bool {
    let Some(game) = freestyle_game(rec) else {
        return false;
    };
    let learned = game
        .players
        .each_ref()
        .map(|spec| mover.is_none_or(|m| spec.as_ref().is_some_and(|spec| spec.contains(m))));
    game.replay(|b, ply, i| {
        if ply >= game.opening && learned[b.side().index()] {
            add_sample(b, i, held_out, data);
        }
    });
    true
}

/// Adds the position before move `made` when the search would order its candidates.
fn add_sample(b: &mut EngineBoard, made: usize, held_out: bool, data: &mut Data) {
    let me = b.side();
    let mut f = Vec::new();
    fives(b, me, &mut f);
    fives(b, !me, &mut f);
    if !f.is_empty() {
        return;
    }
    let defend = has_open_three(b, !me);
    let start = data.candidates.len();
    let mut index = None;
    for i in b.zone() {
        if defend && !defends(b, i) {
            continue;
        }
        if i == made {
            index = Some(data.candidates.len() - start);
        }
        data.candidates.push(Candidate {
            features: policy_features(b, i).map(|f| f as u16),
            present: value_order(b, i),
        });
    }
    let len = data.candidates.len() - start;
    match index {
        Some(made) if len > 1 => data.samples.push(Sample {
            start: start as u32,
            len: len as u16,
            made: made as u16,
            held_out,
        }),
        Some(_) => data.candidates.truncate(start),
        None => {
            data.outside += 1;
            data.candidates.truncate(start);
        }
    }
}

fn score(c: &Candidate, w: &[f64]) -> f64 {
    c.features.iter().map(|&f| w[f as usize]).sum()
}

fn candidates<'a>(data: &'a Data, s: &Sample) -> &'a [Candidate] {
    &data.candidates[s.start as usize..s.start as usize + s.len as usize]
}

/// Softmax probabilities of `cands` under `w`, into `p`; the cross-entropy of the move made.
fn softmax(cands: &[Candidate], made: usize, w: &[f64], p: &mut Vec<f64>) -> f64 {
    p.clear();
    p.extend(cands.iter().map(|c| score(c, w)));
    let top = p.iter().cloned().fold(f64::MIN, f64::max);
    let mut sum = 0.0;
    for x in p.iter_mut() {
        *x = (*x - top).exp();
        sum += *x;
    }
    p.iter_mut().for_each(|x| *x /= sum);
    -p[made].max(1e-12).ln()
}

/// Adam on the regularised mean cross-entropy of the training positions.
fn descend(data: &Data, opts: &Options) -> Vec<f64> {
    let mut w = vec![0.0; N];
    let mut adam = Adam::new(N, 0.05);
    let mut grad = vec![0.0; N];
    let mut p = Vec::new();
    let train: Vec<&Sample> = data.samples.iter().filter(|s| !s.held_out).collect();
    for t in 1..=opts.steps {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut loss = 0.0;
        for s in &train {
            let cands = candidates(data, s);
            loss += softmax(cands, s.made as usize, &w, &mut p);
            for (n, c) in cands.iter().enumerate() {
                let g = p[n] - if n == s.made as usize { 1.0 } else { 0.0 };
                for &f in &c.features {
                    grad[f as usize] += g;
                }
            }
        }
        adam.next();
        for i in 0..N {
            let g = grad[i] / train.len() as f64 + 2.0 * opts.lambda * w[i];
            w[i] += adam.delta(i, g);
        }
        if t % 50 == 0 {
            eprintln!(
                "step {t}: loss train {:.4} held out {:.4}",
                loss / train.len() as f64,
                held_out_loss(data, &w)
            );
        }
    }
    w
}

fn held_out_loss(data: &Data, w: &[f64]) -> f64 {
    let mut p = Vec::new();
    let held: Vec<&Sample> = data.samples.iter().filter(|s| s.held_out).collect();
    let sum: f64 = held
        .iter()
        .map(|s| softmax(candidates(data, s), s.made as usize, w, &mut p))
        .sum();
    sum / held.len().max(1) as f64
}

/// How often, on the held-out positions, the move made ranks first and within the width
/// under `order` (ties broken by the candidate's place, as points are in the search).
fn report(name: &str, data: &Data, order: impl Fn(&Candidate) -> f64) {
    let (mut n, mut first, mut within) = (0usize, 0usize, 0usize);
    for s in data.samples.iter().filter(|s| s.held_out) {
        let cands = candidates(data, s);
        let made = s.made as usize;
        let v = order(&cands[made]);
        let rank = cands
            .iter()
            .enumerate()
            .filter(|&(k, c)| order(c) > v || (order(c) == v && k < made))
            .count();
        n += 1;
        first += usize::from(rank == 0);
        within += usize::from(rank < WIDTH);
    }
    let pct = |x: usize| 100.0 * x as f64 / n.max(1) as f64;
    eprintln!(
        "{name}: {n} held-out positions, the move made first {:.1}%, within {WIDTH} {:.1}%",
        pct(first),
        pct(within)
    );
}

fn print_table(w: &[f64], opts: &Options) {
    println!(
        "// Written by examples/gomoku_policy.rs (mover {}, lambda {}, {} steps).",
        opts.mover.as_deref().unwrap_or("any"),
        opts.lambda,
        opts.steps
    );
    println!();
    println!(
        "{}",
        combo_table(
            "POLICY",
            "The ordering value of each combination (`super::combos`), in hundredths: `[as the\nmover's point, as the opponent's]`.",
            |n| [round(w[n]), round(w[COMBOS + n])],
        )
    );
    print_part(
        "CROSS",
        "each pair of the mover's and the opponent's highest pattern classes",
        "CLASSES * super::CLASSES",
        &w[POLICY_CROSS_AT..POLICY_NEAR_AT],
    );
    print_part(
        "NEAR",
        "each count of stones within the 5×5 square",
        "NEAR",
        &w[POLICY_NEAR_AT..POLICY_LAST_AT],
    );
    print_part(
        "LAST",
        "each place relative to the last move",
        "RELATIONS",
        &w[POLICY_LAST_AT..POLICY_BEFORE_AT],
    );
    print_part(
        "BEFORE",
        "each place relative to the move before",
        "RELATIONS",
        &w[POLICY_BEFORE_AT..],
    );
}

fn round(x: f64) -> i16 {
    (x * 100.0).round().clamp(-30000.0, 30000.0) as i16
}

/// One table of the ordering values, `POLICY_<name>`.
fn print_part(name: &str, what: &str, len: &str, w: &[f64]) {
    let v: Vec<String> = w.iter().map(|&x| round(x).to_string()).collect();
    println!();
    println!("/// The ordering value of {what}, in hundredths.");
    println!(
        "pub const POLICY_{name}: [i16; super::{len}] = [{}];",
        v.join(", ")
    );
}
