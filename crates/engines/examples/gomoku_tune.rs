//! Fits the strong Gomoku engine's combination values (`gomoku::learned`) to game results.
//!
//! `cargo run --release -p boyi-engines --example gomoku_tune -- [--lambda L] [--steps N]
//!  [--defence P] [--from-table] [--positions FILE]... [RECORD_DIR...]
//!  > crates/engines/src/gomoku/table.rs`
//!
//! Every quiet position of every finished freestyle game on 15×15 (after the record's opening
//! stones: no five to make for either side, no straight four for the side to move, no
//! four-three or stronger threat of the opponent's) is labelled with the game's result from
//! the side to move's view (1, ½, 0). The evaluation is linear in the values: for each side
//! the count of its empty points per combination, the side to move's counted with the first
//! table and the opponent's subtracted with the second, plus the tempo and the threat terms
//! (`search::threat_terms`; those a quiet position never shows keep their weights). The tuner
//! fits the logistic scale K on the starting values (the hand-set line values, the
//! opponent's at `--defence` percent, 70 by default, and the hand-set threat weights), then
//! minimises the mean logistic loss plus `lambda · Σ ((w − w₀) / max(|w₀|, 16))²` by
//! gradient descent (Adam), K refitted as it goes. Games whose number is a multiple of five
//! are held out: their loss is reported before and after. The table is printed as the text
//! of `gomoku/table.rs` (then `cargo fmt` aligns its comments).
//!
//! `--positions` adds positions labelled with an expected score instead of a result, for
//! example a stronger engine's judgement (`scripts/gomoku-label-positions.py`); the quiet ones
//! are fitted like the records' (cross-entropy with the score). `--from-table` starts the
//! descent from the engine's present table; `--steps 0` then only reports its losses.

use boyi_engines::gomoku::board::EngineBoard;
use boyi_engines::gomoku::learned::{
    COMBOS, FITTED, TEMPO as FITTED_TEMPO, THREAT_WEIGHTS, combo, combo_table, combos, hand_value,
};
use boyi_engines::gomoku::pattern::Threat;
use boyi_engines::gomoku::search::{HAND_THREAT_WEIGHTS, THREAT_TERMS, threat_terms};
use boyi_engines::tune::{self, LinearFit, Sample, load_dirs, play_moves};
use boyi_games::gomoku::Variant;
use boyi_records::GameRecord;
use clap::Parser;

/// Weights: the side to move's combinations, the opponent's, the tempo, the threat terms.
const N: usize = 2 * COMBOS + 1 + THREAT_TERMS;
const TEMPO: usize = 2 * COMBOS;
const THREATS: usize = TEMPO + 1;

#[derive(Parser)]
struct Options {
    /// Pull towards the hand-set values.
    #[arg(long, default_value_t = 0.0005)]
    lambda: f64,
    /// Gradient steps.
    #[arg(long, default_value_t = 3000)]
    steps: usize,
    /// The opponent's hand-set line values, in percent of the side to move's.
    #[arg(long, default_value_t = 70.0)]
    defence: f64,
    /// Start from the engine's table (`gomoku::learned`) rather than the hand-set values
    /// (the pull still goes towards the hand-set values).
    #[arg(long)]
    from_table: bool,
    /// Files of labelled positions: a line each, the moves from the empty 15×15 board
    /// (comma-separated) and the side to move's expected score (0 to 1), for example a
    /// deeper search's judgement; every fifth line is held out.
    #[arg(long)]
    positions: Vec<String>,
    /// Directories of game records.
    dirs: Vec<String>,
}

fn main() {
    let opts = Options::parse();
    let mut samples = Vec::new();
    let games = load_dirs(&opts.dirs, |rec, held_out| {
        load_record(rec, &mut samples, held_out)
    });
    for file in &opts.positions {
        load_positions(file, &mut samples);
    }
    eprintln!("{games} games, {} positions", samples.len());
    if samples.is_empty() {
        std::process::exit(1);
    }
    let w0 = start_weights(opts.defence);
    let w1 = if opts.from_table {
        table_weights()
    } else {
        w0.clone()
    };
    let fit = LinearFit {
        rate: vec![0.5; N],
        scale: w0.iter().map(|v| v.abs().max(16.0)).collect(),
        w0,
        unit: 1.0,
    };
    let w = fit.run(&samples, &w1, opts.steps, opts.lambda);
    print_table(&w, &opts);
}

/// The hand-set evaluation as weights.
fn start_weights(defence: f64) -> Vec<f64> {
    let mut w = vec![0.0; N];
    for (n, &c) in combos().iter().enumerate() {
        let v = f64::from(hand_value(c));
        w[n] = v;
        w[COMBOS + n] = v * defence / 100.0;
    }
    w[TEMPO] = 40.0;
    for (n, &x) in HAND_THREAT_WEIGHTS.iter().enumerate() {
        w[THREATS + n] = f64::from(x);
    }
    w
}

/// The engine's present table as weights.
fn table_weights() -> Vec<f64> {
    let mut w = vec![0.0; N];
    for (n, v) in FITTED.iter().enumerate() {
        w[n] = f64::from(v[0]);
        w[COMBOS + n] = f64::from(v[1]);
    }
    w[TEMPO] = f64::from(FITTED_TEMPO);
    for (n, &x) in THREAT_WEIGHTS.iter().enumerate() {
        w[THREATS + n] = f64::from(x);
    }
    w
}

fn print_table(w: &[f64], opts: &Options) {
    let round = |x: f64| x.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
    println!(
        "// Written by examples/gomoku_tune.rs (lambda {}, {} steps).",
        opts.lambda, opts.steps
    );
    println!();
    println!(
        "{}",
        combo_table(
            "FITTED",
            "The fitted value of each combination (`super::combos`): `[as the side to move's point, as\nthe opponent's]`.",
            |n| [round(w[n]), round(w[COMBOS + n])],
        )
    );
    println!();
    println!("/// The side to move's bonus.");
    println!("pub const TEMPO: i32 = {};", round(w[TEMPO]));
    println!();
    println!("/// The weights of the threat terms (`search::threat_terms`).");
    let threats: Vec<String> = (0..THREAT_TERMS)
        .map(|n| round(w[THREATS + n]).to_string())
        .collect();
    println!("pub const THREAT_WEIGHTS: [i32; crate::gomoku::search::THREAT_TERMS] =");
    println!("    [{}];", threats.join(", "));
}

/// Reads one record; false when it is not a finished freestyle game on an empty 15×15 board.
fn load_record(rec: &GameRecord, out: &mut Vec<Sample>, held_out: bool) -> bool {
    let Some(game) = tune::freestyle_game(rec) else {
        return false;
    };
    let Some(winner) = game.result.as_ref().map(|r| r.winner()) else {
        return false;
    };
    let mut visit = |b: &mut EngineBoard| {
        if b.ply() >= game.opening.max(4) && b.winner().is_none() && quiet(b) {
            let result = match winner {
                Some(s) if s == b.side() => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            out.push(sample(b, result, held_out));
        }
    };
    let mut last = game.replay(|b, _, _| visit(b));
    visit(&mut last);
    true
}

/// Reads a file of labelled positions (`Options::positions`); the quiet ones become samples.
/// A line that does not read is reported and skipped.
fn load_positions(file: &str, out: &mut Vec<Sample>) {
    let Ok(text) = std::fs::read_to_string(file) else {
        eprintln!("cannot read {file}");
        return;
    };
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split_whitespace();
        let moves = fields.next().unwrap_or_default();
        let score = fields.next().and_then(|s| s.parse::<f64>().ok());
        let Some(score) = score.filter(|s| (0.0..=1.0).contains(s)) else {
            eprintln!("{file}:{}: no score from 0 to 1 after the moves", n + 1);
            continue;
        };
        let mut b = EngineBoard::new(15, Variant::Freestyle);
        if !play_moves(&mut b, moves, |_, _, _| {}) || b.winner().is_some() {
            eprintln!("{file}:{}: the moves do not play out", n + 1);
            continue;
        }
        if quiet(&b) {
            out.push(sample(&mut b, score, n % 5 == 0));
        }
    }
}

/// No five to make for either side, no straight four for the side to move, no four-three or
/// stronger for the opponent: the search would settle those before evaluating.
fn quiet(b: &EngineBoard) -> bool {
    let me = b.side();
    b.count(me, Threat::Five) == 0
        && b.count(!me, Threat::Five) == 0
        && b.count_at_least(me, Threat::FlexFour) == 0
        && b.count_at_least(!me, Threat::FourThree) == 0
}

fn sample(b: &mut EngineBoard, result: f64, held_out: bool) -> Sample {
    let me = b.side();
    let mut counts = vec![0f32; N];
    for n in 0..b.points.len() {
        let i = b.points[n];
        if !b.is_empty(i) {
            continue;
        }
        counts[combo(b.patterns(i, me))] += 1.0;
        counts[COMBOS + combo(b.patterns(i, !me))] -= 1.0;
    }
    counts[TEMPO] = 1.0;
    for (n, &t) in threat_terms(b, me).iter().enumerate() {
        counts[THREATS + n] = t as f32;
    }
    // The empty combination (no pattern at all) is worth nothing.
    counts[0] = 0.0;
    counts[COMBOS] = 0.0;
    let features = counts
        .iter()
        .enumerate()
        .filter(|&(_, &x)| x != 0.0)
        .map(|(n, &x)| (n as u16, x))
        .collect();
    Sample {
        features,
        result,
        held_out,
    }
}
