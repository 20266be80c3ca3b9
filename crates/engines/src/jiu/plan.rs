//! The placement plan of `boyi:strong`: a point score with its parameters as a vector, searched
//! two plies deep.
//!
//! A placement on `p` is worth, over the 2×2 blocks around `p`: `own[k]` for a block with `k`
//! own pieces and no enemy piece (building doors), `block[k]` for a block with `k` enemy
//! pieces and no own piece (blocking the opponent's doors), plus `neighbour` per own piece
//! next to `p` (dalian shapes), all weighted towards the centre, where the battle opens
//! (`centre` per ring step, in percent). The eight best points are checked against the
//! opponent's best answer: value minus `answer` percent of the answer's.
//!
//! [`HAND`] holds the first, hand-set values; [`TUNED`] the values tuned from them by
//! self-play results (SPSA, `examples/jiu_tune.rs`; docs/jiu-engine.md gives the run).

use super::board::{EMPTY, other};
use boyi_games::jiu::board::{BLOCKS, NEXT, NONE, POINTS, SIZE};

/// Indices into [`Params`].
pub mod p {
    /// `own[k]` for `k` = 0..=3 own pieces already in an enemy-free block.
    pub const OWN: usize = 0;
    /// `block[k]` for `k` = 1..=3 enemy pieces in a block without own pieces (at `BLOCK + k - 1`).
    pub const BLOCK: usize = 4;
    pub const NEIGHBOUR: usize = 7;
    pub const CENTRE: usize = 8;
    pub const ANSWER: usize = 9;
    pub const COUNT: usize = 10;
}

/// Parameters of the placement plan, indexed by [`p`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params(pub [i32; p::COUNT]);

/// The hand-set values (`placement=hand`).
pub const HAND: Params = Params([2, 6, 16, 60, 4, 12, 50, 2, 10, 50]);

/// Tuned from [`HAND`] by `examples/jiu_tune.rs`, 135 iterations (docs/jiu-engine.md).
pub const TUNED: Params = Params([5, 6, 10, 38, 4, 12, 42, 5, 15, 66]);

/// Ring of point `p` around the centre: 0 on the four central points, 6 on the edge.
fn ring(p: usize) -> i32 {
    let (col, row) = ((p / SIZE) as i32, (p % SIZE) as i32);
    (2 * col - 13).abs().max((2 * row - 13).abs()) / 2
}

/// Value of placing colour `c` on the empty point `p`.
pub fn score(w: &Params, cells: &[u8; POINTS], c: u8, p: usize) -> i32 {
    let enemy = other(c);
    let mut v = 0;
    for block in &BLOCKS[p] {
        if block[0] == NONE {
            continue;
        }
        let own = block.iter().filter(|&&q| cells[q as usize] == c).count();
        let theirs = block
            .iter()
            .filter(|&&q| cells[q as usize] == enemy)
            .count();
        if theirs == 0 {
            v += w.0[p::OWN + own.min(3)];
        }
        if own == 0 && theirs > 0 {
            v += w.0[p::BLOCK + theirs.min(3) - 1];
        }
    }
    let own_next = NEXT[p]
        .iter()
        .filter(|&&n| n != NONE && cells[n as usize] == c)
        .count() as i32;
    v += own_next * w.0[p::NEIGHBOUR];
    v * (100 + w.0[p::CENTRE] * (10 - ring(p))) / 100
}

/// How many of the best-scored placements get the two-ply check by default.
pub const CANDIDATES: usize = 8;

/// Candidate placements of colour `me` among `legal`, best first: the `candidates`
/// best-scored points, each valued at its score minus `answer` percent of the opponent's best
/// answer. With no candidates, the points by their own score alone (one ply).
pub fn ranked(
    w: &Params,
    cells: &[u8; POINTS],
    me: u8,
    legal: &[usize],
    candidates: usize,
) -> Vec<(i32, usize)> {
    let mut cells = *cells;
    let mut scored: Vec<(i32, usize)> = legal
        .iter()
        .map(|&q| (score(w, &cells, me, q), q))
        .collect();
    scored.sort_by_key(|&(s, q)| (-s, q));
    if candidates == 0 {
        return scored;
    }
    scored.truncate(candidates);
    let empties: Vec<usize> = (0..POINTS).filter(|&q| cells[q] == EMPTY).collect();
    let mut out: Vec<(i32, usize)> = scored
        .iter()
        .map(|&(s, q)| {
            cells[q] = me;
            let reply = empties
                .iter()
                .filter(|&&r| r != q)
                .map(|&r| score(w, &cells, other(me), r))
                .max()
                .unwrap_or(0);
            cells[q] = EMPTY;
            (s - reply * w.0[p::ANSWER] / 100, q)
        })
        .collect();
    // Stable: equal values keep the order of the first scores.
    out.sort_by_key(|&(v, _)| -v);
    out
}
