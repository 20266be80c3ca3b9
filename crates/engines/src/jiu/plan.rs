//! The placement plans of `boyi:strong`: the hand-set point score (the default) and a linear
//! evaluation of the placement board fitted to battle results (`placement=tuned`, weaker so
//! far: docs/jiu-engine.md), both searched two plies deep.
//!
//! The evaluation counts 2×2 blocks by what they hold: a block with `a` pieces of one colour
//! and `b < a` of the other is worth `w[region][class]` to the first colour and the negative to
//! the second (mixed blocks with equal counts are worth nothing). Regions are rings around the
//! centre, where the battle opens: the first holes are `g7` and `h8`, so doors there are
//! playable at once and doors at the edge only once the battle reaches them. The weights in
//! [`TUNED`] come from `examples/jiu_tune.rs`: self-play games whose placement-phase positions
//! are labelled with the battle's result, fitted by logistic regression.

use super::board::{BLACK, EMPTY, WHITE, other};
use super::eval;
use boyi_games::jiu::board::{BLOCKS, NONE, POINTS, SIZE};

/// Block classes `(more, fewer)` of the two colours' counts.
pub const CLASSES: [(usize, usize); 6] = [(1, 0), (2, 0), (3, 0), (4, 0), (2, 1), (3, 1)];
pub const REGIONS: usize = 3;
pub const FEATURES: usize = CLASSES.len() * REGIONS;

/// Weights by region, then class (in [`CLASSES`] order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights(pub [i32; FEATURES]);

/// Fitted by `examples/jiu_tune.rs` (docs/jiu-engine.md gives the run).
pub const TUNED: Weights = Weights([
    49, 100, 24, -42, 50, 20, //
    -3, 26, 40, 33, -15, -18, //
    -1, -3, 4, -6, 4, 2,
]);

/// Region of a block by its lower-left corner: the ring of its centre around the board's.
pub fn region(corner: u8) -> usize {
    let (col, row) = (
        (corner as usize / SIZE) as i32,
        (corner as usize % SIZE) as i32,
    );
    let d = (col - 6).abs().max((row - 6).abs());
    match d {
        0..=1 => 0,
        2..=3 => 1,
        _ => 2,
    }
}

/// Feature index of a block with `a` pieces of one colour and `b` of the other, with the sign
/// for the first colour; `None` when the block is even.
fn feature(corner: u8, a: usize, b: usize) -> Option<(usize, i32)> {
    let (hi, lo, sign) = if a > b { (a, b, 1) } else { (b, a, -1) };
    let class = CLASSES.iter().position(|&c| c == (hi, lo))?;
    Some((region(corner) * CLASSES.len() + class, sign))
}

/// Value of one block for colour `c` on `cells`.
fn block_value(w: &Weights, cells: &[u8; POINTS], block: &[u8; 4], c: u8) -> i32 {
    let own = block.iter().filter(|&&q| cells[q as usize] == c).count();
    let theirs = block
        .iter()
        .filter(|&&q| cells[q as usize] == other(c))
        .count();
    let corner = *block.iter().min().unwrap_or(&block[0]);
    feature(corner, own, theirs).map_or(0, |(i, s)| s * w.0[i])
}

/// The features of a board from white's view: per region and class, white's blocks minus
/// black's.
pub fn features(cells: &[u8; POINTS]) -> [i32; FEATURES] {
    let mut f = [0; FEATURES];
    for blocks in &BLOCKS {
        let block = blocks[3];
        if block[0] == NONE {
            continue;
        }
        let white = block
            .iter()
            .filter(|&&q| cells[q as usize] == WHITE)
            .count();
        let black = block
            .iter()
            .filter(|&&q| cells[q as usize] == BLACK)
            .count();
        let corner = *block.iter().min().unwrap_or(&block[0]);
        if let Some((i, s)) = feature(corner, white, black) {
            f[i] += s;
        }
    }
    f
}

/// The evaluation for colour `c`.
pub fn evaluate(w: &Weights, cells: &[u8; POINTS], c: u8) -> i32 {
    let f = features(cells);
    let v: i32 = f.iter().zip(w.0).map(|(x, w)| x * w).sum();
    if c == WHITE { v } else { -v }
}

/// What colour `c` gains by placing on the empty point `p`: the change of its evaluation,
/// which only the blocks around `p` see.
pub fn gain(w: &Weights, cells: &mut [u8; POINTS], c: u8, p: usize) -> i32 {
    let blocks = BLOCKS[p].iter().filter(|b| b[0] != NONE);
    let before: i32 = blocks.clone().map(|b| block_value(w, cells, b, c)).sum();
    cells[p] = c;
    let after: i32 = blocks.map(|b| block_value(w, cells, b, c)).sum();
    cells[p] = EMPTY;
    after - before
}

/// How the plan scores a placement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scorer {
    /// The fitted block evaluation.
    Tuned(Weights),
    /// The first, hand-set point score ([`eval::placement`]).
    Hand,
}

impl Scorer {
    fn score(&self, cells: &mut [u8; POINTS], c: u8, p: usize) -> i32 {
        match self {
            Scorer::Tuned(w) => gain(w, cells, c, p),
            Scorer::Hand => eval::placement(cells, c, p),
        }
    }
}

/// How many of the best-scored placements get the two-ply check.
const CANDIDATES: usize = 8;

/// Candidate placements of colour `me` among `legal`, best first: each candidate's score
/// minus the opponent's best answer (halved for the hand scorer, whose scores are not
/// differences of one evaluation).
pub fn ranked(scorer: &Scorer, cells: &[u8; POINTS], me: u8, legal: &[usize]) -> Vec<(i32, usize)> {
    let mut cells = *cells;
    let mut scored: Vec<(i32, usize)> = legal
        .iter()
        .map(|&p| (scorer.score(&mut cells, me, p), p))
        .collect();
    scored.sort_by_key(|&(s, p)| (-s, p));
    scored.truncate(CANDIDATES);
    let empties: Vec<usize> = (0..POINTS).filter(|&p| cells[p] == EMPTY).collect();
    let mut out: Vec<(i32, usize)> = scored
        .iter()
        .map(|&(s, p)| {
            cells[p] = me;
            let reply = empties
                .iter()
                .filter(|&&q| q != p)
                .map(|&q| scorer.score(&mut cells, other(me), q))
                .max()
                .unwrap_or(0);
            cells[p] = EMPTY;
            let v = match scorer {
                Scorer::Tuned(_) => s - reply,
                Scorer::Hand => s - reply / 2,
            };
            (v, p)
        })
        .collect();
    // Stable: equal values keep the order of the first scores.
    out.sort_by_key(|&(v, _)| -v);
    out
}
