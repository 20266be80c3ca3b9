//! Pieces shared by the tuners (`examples/*_tune.rs`, `examples/gomoku_policy.rs`), which
//! fit evaluation weights to game results or to the moves played: reading a directory of
//! records and a freestyle Gomoku record, the logistic loss, the fit of its scale and Adam's
//! steps.

use crate::gomoku::board::EngineBoard;
use boyi_core::Point;
use boyi_games::gomoku::Variant;
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

/// Gives the text of every file of `dir`, in name order, to `load` with whether its game is
/// held out (every fifth game read, counting from 0); `load` tells whether it took the game,
/// and `games` counts those taken.
pub fn load_dir(dir: &Path, games: &mut usize, mut load: impl FnMut(&str, bool) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("cannot read {}", dir.display());
        return;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if let Ok(text) = std::fs::read_to_string(&path)
            && load(&text, games.is_multiple_of(5))
        {
            *games += 1;
        }
    }
}

/// `load_dir` over each of `dirs`; the number of games taken.
pub fn load_dirs(dirs: &[String], mut load: impl FnMut(&str, bool) -> bool) -> usize {
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

/// The fields of a Boyi record of a freestyle Gomoku game from the empty 15×15 board that the
/// Gomoku tuners read.
pub struct FreestyleGame {
    /// The comma-separated moves.
    pub moves: String,
    /// `black`, `white` or `draw` when the game ended.
    pub result: Option<String>,
    /// Stones placed by the opening before the players chose.
    pub opening: usize,
    /// The players' specs: black's, then white's.
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

/// Reads a record of a freestyle game from the empty 15×15 board; `None` for any other record
/// or one without moves.
pub fn freestyle_game(text: &str) -> Option<FreestyleGame> {
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_string()))
    };
    let empty = ["15"; 15].join("/") + " b";
    if field("game ").as_deref() != Some("gomoku")
        || field("variant ").as_deref() != Some("freestyle")
        || field("start ").as_deref() != Some(empty.as_str())
    {
        return None;
    }
    Some(FreestyleGame {
        moves: field("moves ")?,
        result: field("result "),
        opening: field("opening ").and_then(|v| v.parse().ok()).unwrap_or(0),
        players: [field("black "), field("white ")],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
