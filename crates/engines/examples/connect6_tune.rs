//! Fits the weights of the Connect6 evaluation `eval=1` (`connect6/learned.rs`) to game
//! results, and prints `connect6/weights.rs`:
//!
//! ```text
//! cargo run --release -p boyi-engines --example connect6_tune -- [--steps N] [--lambda L] DIR...
//! ```
//!
//! Every quiet position of the records (after the opening's turns; neither side has a window
//! of four or five stones) is labelled with the result for the side to move; Adam minimises
//! the logistic loss with a pull towards the hand-set evaluation (window sums, own less the
//! opponent's, and a bonus for the side to move). Every fifth game is held out.

use boyi_core::Game;
use boyi_engines::connect6::board::Board6;
use boyi_engines::connect6::learned::{FEATURES, Scratch, feature_name, features, hand_weights};
use boyi_engines::connect6::weights::WEIGHTS;
use boyi_engines::tune::{LinearFit, Sample, load_dirs, opening_plies, winner};
use boyi_games::GameKind;
use boyi_games::connect6::{Connect6, Move, Variant};
use boyi_records::GameRecord;
use clap::Parser;

#[derive(Parser)]
struct Options {
    /// Directories of Connect6 records (`boyi match connect6 --out DIR`).
    #[arg(required = true)]
    dirs: Vec<String>,
    /// Adam steps over the whole training set.
    #[arg(long, default_value_t = 2000)]
    steps: usize,
    /// Strength of the pull towards the hand-set weights.
    #[arg(long, default_value_t = 0.0001)]
    lambda: f64,
    /// Start from the engine's present weights (`--steps 0`: only report their losses).
    #[arg(long)]
    from_table: bool,
}

/// Weights are in hundredths of a window-sum unit: the sums' own weight is near 100.
const UNIT: f64 = 100.0;

fn main() {
    let opts = Options::parse();
    let mut samples = Vec::new();
    let mut scratch = Scratch::default();
    let games = load_dirs(&opts.dirs, |rec, held_out| {
        load_record(rec, held_out, &mut scratch, &mut samples)
    });
    eprintln!("{games} games, {} positions", samples.len());
    if samples.is_empty() {
        std::process::exit(1);
    }
    let hand = hand_weights();
    let w0: Vec<f64> = hand.iter().map(|&x| f64::from(x)).collect();
    let w1: Vec<f64> = if opts.from_table {
        WEIGHTS.iter().map(|&x| f64::from(x)).collect()
    } else {
        w0.clone()
    };
    // A step moves a window sums' weight about half a hundredth, any other about half a unit.
    let fit = LinearFit {
        rate: hand
            .iter()
            .map(|x| if x.abs() == 100 { 0.5 } else { 50.0 })
            .collect(),
        scale: w0.iter().map(|v| v.abs().max(16.0 * UNIT)).collect(),
        w0,
        unit: UNIT,
    };
    let w = fit.run(&samples, &w1, opts.steps, opts.lambda);
    for (i, x) in w.iter().enumerate() {
        eprintln!("{:>24} {:>9.1}", feature_name(i), x / UNIT);
    }
    print_weights(&w, &opts);
}

/// Reads one record of a Connect6 game from the empty 19×19 board into quiet samples;
/// whether it was taken.
fn load_record(
    rec: &GameRecord,
    held_out: bool,
    scratch: &mut Scratch,
    out: &mut Vec<Sample>,
) -> bool {
    if rec.game != GameKind::Connect6 || rec.start.is_some() || rec.size.is_some_and(|n| n != 19) {
        return false;
    }
    let Some(winner) = winner(rec) else {
        return false;
    };
    let opening = opening_plies(rec);
    let Ok(mut pos) = Connect6::start(&Variant::default(), Some(19)) else {
        return false;
    };
    let mut b = Board6::new(19);
    let mut f = [0; FEATURES];
    // A game is taken whole or not at all: a bad turn drops the samples before it.
    let mut game = Vec::new();
    for (turn, m) in rec.moves.iter().enumerate() {
        let Ok(mv) = pos.parse_move(&m.text) else {
            return false;
        };
        let me = b.side();
        if turn >= opening && b.threats(me) == 0 && b.threats(!me) == 0 {
            features(&b, me, scratch, &mut f);
            game.push(Sample {
                features: f
                    .iter()
                    .enumerate()
                    .filter(|&(_, &x)| x != 0)
                    .map(|(i, &x)| (i as u16, x as f32))
                    .collect(),
                result: winner.map_or(0.5, |w| if w == me { 1.0 } else { 0.0 }),
                held_out,
            });
        }
        match mv {
            Move::One(a) => b.play(a.index(19), None),
            Move::Two(a, c) => b.play(a.index(19), Some(c.index(19))),
        }
        pos.play(&mv);
    }
    out.append(&mut game);
    true
}

fn print_weights(w: &[f64], opts: &Options) {
    println!(
        "//! Weights of the fitted Connect6 evaluation (`learned.rs`), in hundredths, printed by\n\
         //! `examples/connect6_tune.rs` (lambda {}, {} steps).\n",
        opts.lambda, opts.steps
    );
    let list: Vec<String> = w.iter().map(|x| format!("{}", x.round() as i32)).collect();
    println!(
        "/// One weight a feature of `learned::features` (learned.rs checks the count).\n\
         pub const WEIGHTS: [i32; {}] = [{}];",
        list.len(),
        list.join(", ")
    );
}
