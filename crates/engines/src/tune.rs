//! Pieces shared by the tuners (`examples/*_tune.rs`, `examples/gomoku_policy.rs`), which
//! fit evaluation weights to game results or to the moves played: reading directories of
//! records (any format Boyi reads, through `boyi-records`) and a freestyle Gomoku record, the
//! logistic loss, the fit of its scale, Adam's
//! steps, and the descent of a linear evaluation over sparse features to game results.

use crate::gomoku::board::EngineBoard;
use boyi_core::{Point, Side};
use boyi_games::GameKind;
use boyi_games::gomoku::Variant;
use boyi_records::{GameRecord, GameResult, ReadOptions};
use std::path::Path;

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of a predicted score `p` against the result `y`.
pub fn logistic_loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Mean loss of the training and the held-out samples.
pub fn mean_losses<S>(
    samples: &[S],
    held_out: impl Fn(&S) -> bool,
    loss: impl Fn(&S) -> f64,
) -> (f64, f64) {
    let mut sum = [0.0; 2];
    let mut count = [0usize; 2];
    for s in samples {
        let i = usize::from(held_out(s));
        sum[i] += loss(s);
        count[i] += 1;
    }
    (
        sum[0] / count[0].max(1) as f64,
        sum[1] / count[1].max(1) as f64,
    )
}

/// Gives every game of the record files of `dir`, in name order, to `load` with whether it
/// is held out (every fifth game read, counting from 0); `load` tells whether it took the
/// game, and `games` counts those taken. Files that are no records are passed over; a record
/// that does not replay is reported and passed over.
pub fn load_dir(dir: &Path, games: &mut usize, mut load: impl FnMut(&GameRecord, bool) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("cannot read {}", dir.display());
        return;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        if boyi_records::Format::detect(&path, &bytes).is_err() {
            continue;
        }
        match boyi_records::read_file(&path, &ReadOptions::default()) {
            Ok(records) => {
                for c in records {
                    if load(&c.record, games.is_multiple_of(5)) {
                        *games += 1;
                    }
                }
            }
            Err(e) => eprintln!("{e}"),
        }
    }
}

/// `load_dir` over each of `dirs`; the number of games taken.
pub fn load_dirs(dirs: &[String], mut load: impl FnMut(&GameRecord, bool) -> bool) -> usize {
    let mut games = 0;
    for dir in dirs {
        load_dir(Path::new(dir), &mut games, &mut load);
    }
    games
}

/// The scale among `unit`, 2·`unit` … 200·`unit` with the least `loss`.
pub fn fit_k(unit: f64, loss: impl Fn(f64) -> f64) -> f64 {
    let mut best = (f64::MAX, 0.0);
    for step in 1..=200 {
        let k = step as f64 * unit;
        let l = loss(k);
        if l < best.0 {
            best = (l, k);
        }
    }
    best.1
}

/// Adam's moment estimates for `n` weights.
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
    rate: f64,
}

impl Adam {
    const B1: f64 = 0.9;
    const B2: f64 = 0.999;

    pub fn new(n: usize, rate: f64) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
            rate,
        }
    }

    /// Starts the next step.
    pub fn next(&mut self) {
        self.t += 1;
    }

    /// The change of weight `i` this step for its gradient `g`.
    pub fn delta(&mut self, i: usize, g: f64) -> f64 {
        self.m[i] = Self::B1 * self.m[i] + (1.0 - Self::B1) * g;
        self.v[i] = Self::B2 * self.v[i] + (1.0 - Self::B2) * g * g;
        let mh = self.m[i] / (1.0 - Self::B1.powi(self.t));
        let vh = self.v[i] / (1.0 - Self::B2.powi(self.t));
        -self.rate * mh / (vh.sqrt() + 1e-12)
    }
}

/// A labelled position for a linear evaluation: its nonzero features (index, count), the
/// result for the side to move (1, ½ or 0, or an expected score) and whether it is held out.
pub struct Sample {
    pub features: Vec<(u16, f32)>,
    pub result: f64,
    pub held_out: bool,
}

/// A linear evaluation to fit: the weights it is pulled towards, each weight's step size,
/// the scale of each weight's pull, and the unit the weighted sum is divided by.
pub struct LinearFit {
    pub w0: Vec<f64>,
    pub rate: Vec<f64>,
    pub scale: Vec<f64>,
    pub unit: f64,
}

impl LinearFit {
    /// The evaluation of `s` under `w`.
    pub fn value(&self, s: &Sample, w: &[f64]) -> f64 {
        s.features
            .iter()
            .map(|&(i, x)| w[i as usize] * f64::from(x))
            .sum::<f64>()
            / self.unit
    }

    /// Mean loss of the training and the held-out samples under `w` and the scale `k`.
    pub fn losses(&self, samples: &[Sample], w: &[f64], k: f64) -> (f64, f64) {
        mean_losses(
            samples,
            |s| s.held_out,
            |s| logistic_loss(sigmoid(k * self.value(s, w)), s.result),
        )
    }

    /// The scale of `w` with the least training loss.
    pub fn fit_k(&self, samples: &[Sample], w: &[f64]) -> f64 {
        fit_k(0.00005, |k| self.losses(samples, w, k).0)
    }

    /// Fits the scale of `start`, descends from it (`descend`) and reports the losses
    /// before and after; the weights found.
    pub fn run(&self, samples: &[Sample], start: &[f64], steps: usize, lambda: f64) -> Vec<f64> {
        let k = self.fit_k(samples, start);
        let (tr, va) = self.losses(samples, start, k);
        eprintln!("start: K {k:.5} loss train {tr:.6} held out {va:.6}");
        let (w, k) = self.descend(samples, start, k, steps, lambda);
        let (tr, va) = self.losses(samples, &w, k);
        eprintln!("end: K {k:.5} loss train {tr:.6} held out {va:.6}");
        w
    }

    /// `steps` of Adam from `start` on the training loss plus `lambda` times the squared
    /// distance from `w0` in units of `scale`; the scale is refitted and the losses reported
    /// every 250 steps. Returns the weights and the scale.
    pub fn descend(
        &self,
        samples: &[Sample],
        start: &[f64],
        mut k: f64,
        steps: usize,
        lambda: f64,
    ) -> (Vec<f64>, f64) {
        let n = self.w0.len();
        let mut w = start.to_vec();
        let mut adam = Adam::new(n, 1.0);
        let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
        let mut grad = vec![0.0; n];
        for t in 1..=steps {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for s in &train {
                let err = (sigmoid(k * self.value(s, &w)) - s.result) * k / self.unit;
                for &(i, x) in &s.features {
                    grad[i as usize] += err * f64::from(x);
                }
            }
            adam.next();
            for i in 0..n {
                let g = grad[i] / train.len() as f64
                    + 2.0 * lambda * (w[i] - self.w0[i]) / (self.scale[i] * self.scale[i]);
                w[i] += self.rate[i] * adam.delta(i, g);
            }
            if t % 250 == 0 {
                k = self.fit_k(samples, &w);
                let (tr, va) = self.losses(samples, &w, k);
                eprintln!("step {t}: K {k:.5} loss train {tr:.6} held out {va:.6}");
            }
        }
        (w, k)
    }
}

/// What the Gomoku tuners read of a record of a freestyle game from the empty 15×15 board.
pub struct FreestyleGame {
    /// The comma-separated moves.
    pub moves: String,
    /// How the game ended, when it did.
    pub result: Option<GameResult>,
    /// Stones placed by the opening before the players chose.
    pub opening: usize,
    /// The players' specs (else their names): black's, then white's.
    pub players: [Option<String>; 2],
}

impl FreestyleGame {
    /// Plays the moves on an empty engine board (`play_moves`) and returns the board after the
    /// last move played.
    pub fn replay(&self, visit: impl FnMut(&mut EngineBoard, usize, usize)) -> EngineBoard {
        let mut b = EngineBoard::new(15, Variant::Freestyle);
        play_moves(&mut b, &self.moves, visit);
        b
    }
}

/// Plays comma-separated moves on `b`, calling `visit` with the board, the ply and the point
/// of the move before each move is played; stops, returning false, at a point that does not
/// read or is taken, or at a move after a five.
pub fn play_moves(
    b: &mut EngineBoard,
    moves: &str,
    mut visit: impl FnMut(&mut EngineBoard, usize, usize),
) -> bool {
    for (ply, text) in moves.split(',').enumerate() {
        let Ok(p) = Point::parse(text, b.size()) else {
            return false;
        };
        let i = b.index(p);
        if !b.is_empty(i) || b.winner().is_some() {
            return false;
        }
        visit(b, ply, i);
        b.play(i);
    }
    true
}

/// The winner of a finished record (`None` inside: a draw); `None` for an unfinished one.
pub fn winner(rec: &GameRecord) -> Option<Option<Side>> {
    rec.result.as_ref().map(GameResult::winner)
}

/// The plies of a record that came from its opening (the arena's tag `OpeningPlies`).
pub fn opening_plies(rec: &GameRecord) -> usize {
    rec.tags
        .get("OpeningPlies")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// A record of a freestyle game from the empty 15×15 board; `None` for any other record or
/// one without moves.
pub fn freestyle_game(rec: &GameRecord) -> Option<FreestyleGame> {
    let freestyle = rec.variant.as_deref().is_none_or(|v| v == "freestyle");
    if rec.game != GameKind::Gomoku
        || !freestyle
        || rec.start.is_some()
        || rec.size.is_some_and(|n| n != 15)
        || rec.moves.is_empty()
    {
        return None;
    }
    let player = |side: Side| {
        let p = rec.player(side);
        p.spec
            .clone()
            .or_else(|| (!p.name.is_empty()).then(|| p.name.clone()))
    };
    Some(FreestyleGame {
        moves: rec
            .moves
            .iter()
            .map(|m| m.text.as_str())
            .collect::<Vec<_>>()
            .join(","),
        result: rec.result.clone(),
        opening: opening_plies(rec),
        players: [player(Side::Black), player(Side::White)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_linear_fit_learns_which_feature_wins() {
        // Feature 0 is +1 for a side that wins three games in four and −1 for one that wins
        // one in four; feature 1 (−1, 0 or 1) is noise.
        let samples: Vec<Sample> = (0..480)
            .map(|n| Sample {
                features: vec![
                    (0, if n % 2 == 0 { 1.0 } else { -1.0 }),
                    (1, (n % 3) as f32 - 1.0),
                ],
                result: if (n % 2 == 0) != (n % 8 < 2) {
                    1.0
                } else {
                    0.0
                },
                held_out: n % 5 == 0,
            })
            .collect();
        let fit = LinearFit {
            w0: vec![0.0, 0.0],
            rate: vec![1.0, 1.0],
            scale: vec![100.0, 100.0],
            unit: 1.0,
        };
        let before = fit.losses(&samples, &fit.w0, 0.01);
        let (w, k) = fit.descend(&samples, &fit.w0, 0.01, 500, 0.0);
        let after = fit.losses(&samples, &w, k);
        assert!(w[0] > 5.0 * w[1].abs(), "{w:?}");
        assert!(
            after.0 < before.0 && after.1 < before.1,
            "{before:?} {after:?}"
        );
    }

    #[test]
    fn adam_descends_a_parabola() {
        // Minimise (w − 3)².
        let mut adam = Adam::new(1, 0.1);
        let mut w = 0.0;
        for _ in 0..500 {
            adam.next();
            w += adam.delta(0, 2.0 * (w - 3.0));
        }
        assert!((w - 3.0).abs() < 0.05, "{w}");
    }

    #[test]
    fn the_scale_is_the_least_loss() {
        assert!((fit_k(0.01, |k| (k - 0.5).powi(2)) - 0.5).abs() < 1e-9);
        assert!(logistic_loss(sigmoid(0.0), 1.0) > logistic_loss(sigmoid(2.0), 1.0));
    }
}
