//! Seed 001 (NN idea + α-β gobang): a point is scored per direction by its shape after a
//! stone there (Table 1: 死一 0, 活一 10, 死二 20, 活二 30, 死三 40, 活三 70, 死四 80, 活四 150)
//! plus S2², the square of the own stones joined to it ("0011100" → 79). SSA (attack) and SSD
//! (defence, colours swapped) are summed over the four directions. Candidates are the top 3 by
//! attack, by defence and by SSA+SSD (up to 9) among points with a stone within two; kill
//! points (one direction above 150, or two above 70) end the look-ahead; the move comes from a
//! 4-ply α-β search whose value is decided by the first two moves unless plies 3–4 kill.

use crate::player::{GameHistory, InfoSink};
use crate::search::{Search, TimeManager};
use boyi_core::{Game, Point};
use boyi_games::gomoku::{Gomoku, Move};
use boyi_games::grid::{self, EMPTY};

/// Table 1 values.
pub const DEAD_ONE: i32 = 0;
pub const LIVE_ONE: i32 = 10;
pub const DEAD_TWO: i32 = 20;
pub const LIVE_TWO: i32 = 30;
pub const DEAD_THREE: i32 = 40;
pub const LIVE_THREE: i32 = 70;
pub const DEAD_FOUR: i32 = 80;
pub const LIVE_FOUR: i32 = 150;
/// A five (the immediate win the paper returns first).
pub const FIVE: i32 = 10_000;
const KILL: i32 = 1_000_000;

/// Cells of a shape string: own 1, empty 0 (the segment between opponent stones or edges).
type Segment = Vec<u8>;

/// The Table 1 value of a segment with the point at `at` (own stone there), plus S2².
pub fn shape_score(seg: &[u8], at: usize) -> i32 {
    if seg.len() < 5 {
        return 0;
    }
    let base = shape_value(seg, at);
    let mut run = 1;
    let mut i = at;
    while i > 0 && seg[i - 1] == 1 {
        run += 1;
        i -= 1;
    }
    let mut j = at + 1;
    while j < seg.len() && seg[j] == 1 {
        run += 1;
        j += 1;
    }
    base + run * run
}

/// Parses a shape written as in the paper ("0011100", `1` own, `0` empty) and scores the
/// point `at` (which must hold a 1).
pub fn score_text(shape: &str, at: usize) -> i32 {
    let seg: Segment = shape.bytes().map(|b| u8::from(b == b'1')).collect();
    shape_score(&seg, at)
}

/// Most own stones in a five-window through `at`.
fn window_stones(seg: &[u8], at: usize) -> usize {
    let lo = at.saturating_sub(4);
    (lo..=at)
        .filter(|&s| s + 5 <= seg.len())
        .map(|s| seg[s..s + 5].iter().filter(|&&c| c == 1).count())
        .max()
        .unwrap_or(0)
}

/// Empty points of the segment whose stone makes a five through `at`.
fn five_points(seg: &mut [u8], at: usize) -> usize {
    (0..seg.len())
        .filter(|&i| {
            seg[i] == 0 && {
                seg[i] = 1;
                let five = window_stones(seg, at) == 5;
                seg[i] = 0;
                five
            }
        })
        .count()
}

pub fn shape_value(seg: &[u8], at: usize) -> i32 {
    let n = window_stones(seg, at);
    if n >= 5 {
        return FIVE;
    }
    if n == 4 {
        let mut s = seg.to_vec();
        return if five_points(&mut s, at) >= 2 {
            LIVE_FOUR
        } else {
            DEAD_FOUR
        };
    }
    // Live: both ends of the shape open, with room to grow on (the paper's "two exits").
    let lo = at.saturating_sub(4);
    let start = (lo..=at)
        .filter(|&s| s + 5 <= seg.len())
        .max_by_key(|&s| {
            (
                seg[s..s + 5].iter().filter(|&&c| c == 1).count(),
                std::cmp::Reverse(s),
            )
        })
        .unwrap_or(lo);
    let first = (start..start + 5).find(|&i| seg[i] == 1).unwrap_or(at);
    let last = (start..start + 5)
        .rev()
        .find(|&i| seg[i] == 1)
        .unwrap_or(at);
    let span = last - first + 1;
    let open = first > 0 && seg[first - 1] == 0 && last + 1 < seg.len() && seg[last + 1] == 0;
    let live = open && seg.len() >= span + 3;
    match (n, live) {
        (3, true) => LIVE_THREE,
        (3, false) => DEAD_THREE,
        (2, true) => LIVE_TWO,
        (2, false) => DEAD_TWO,
        (_, true) => LIVE_ONE,
        (_, false) => DEAD_ONE,
    }
}

/// The segment through the empty point `p` for `own` along `d`: up to 5 points each way,
/// stopping at an opponent stone or the edge, or after two empty points.
fn segment(board: &grid::Board, p: Point, (dc, dr): (i8, i8), own: u8) -> (Segment, usize) {
    let side = |sign: i8| {
        let mut out = Vec::with_capacity(5);
        let mut empties = 0;
        for k in 1..=5 {
            match board.at(p, dc * sign, dr * sign, k) {
                Some(EMPTY) => {
                    out.push(0);
                    empties += 1;
                    if empties == 2 {
                        break;
                    }
                }
                Some(c) if c == own => out.push(1),
                _ => break,
            }
        }
        out
    };
    let mut left = side(-1);
    left.reverse();
    let at = left.len();
    left.push(1);
    left.extend(side(1));
    (left, at)
}

/// Per-direction scores of a stone of `own` on `p`.
pub fn direction_scores(board: &grid::Board, p: Point, own: u8) -> [i32; 4] {
    grid::DIRECTIONS.map(|d| {
        let (seg, at) = segment(board, p, d, own);
        shape_score(&seg, at)
    })
}

fn is_kill(scores: &[i32; 4]) -> bool {
    scores.iter().any(|&s| s > LIVE_FOUR) || scores.iter().filter(|&&s| s > LIVE_THREE).count() >= 2
}

#[derive(Debug, Clone, Copy)]
struct Scored {
    p: Point,
    attack: i32,
    defence: i32,
    kill: bool,
    five: bool,
    blocks_kill: bool,
    blocks_five: bool,
}

/// SSA and SSD of every candidate point (a stone within two points) for the side to move.
fn scored_points(pos: &Gomoku) -> Vec<Scored> {
    let board = pos.board();
    let me = grid::stone(pos.side_to_move());
    let them = grid::stone(!pos.side_to_move());
    let near = |p: Point| {
        (-2..=2)
            .any(|dc| (-2..=2).any(|dr| matches!(board.at(p, dc, dr, 1), Some(c) if c != EMPTY)))
    };
    board
        .empty_points()
        .filter(|&p| near(p) && pos.is_legal(&Move::Stone(p)))
        .map(|p| {
            let a = direction_scores(board, p, me);
            let d = direction_scores(board, p, them);
            Scored {
                p,
                attack: a.iter().sum(),
                defence: d.iter().sum(),
                kill: is_kill(&a),
                five: a.iter().any(|&s| s >= FIVE),
                blocks_kill: is_kill(&d),
                blocks_five: d.iter().any(|&s| s >= FIVE),
            }
        })
        .collect()
}

/// Up to 9 candidates: the top 3 by attack, by defence and by the sum; or the single urgent
/// point (own five, opponent five, own kill, opponent kill, in that order).
fn candidates(pos: &Gomoku) -> (Vec<Scored>, bool) {
    let all = scored_points(pos);
    for urgent in [
        |s: &Scored| s.five,
        |s: &Scored| s.blocks_five,
        |s: &Scored| s.kill,
        |s: &Scored| s.blocks_kill,
    ] {
        if let Some(s) = all
            .iter()
            .copied()
            .filter(urgent)
            .max_by_key(|s| s.attack + s.defence)
        {
            return (vec![s], true);
        }
    }
    let mut out: Vec<Scored> = Vec::with_capacity(9);
    let top = |key: fn(&Scored) -> i32, out: &mut Vec<Scored>| {
        let mut v = all.clone();
        v.sort_by_key(|s| (std::cmp::Reverse(key(s)), s.p));
        for s in v.into_iter().take(3) {
            if !out.iter().any(|o| o.p == s.p) {
                out.push(s);
            }
        }
    };
    top(|s| s.attack, &mut out);
    top(|s| s.defence, &mut out);
    top(|s| s.attack + s.defence, &mut out);
    (out, false)
}

#[derive(Default)]
pub struct Seed001;

impl Seed001 {
    /// Negamax over the 9 candidates, 4 plies: the value of a line is the combined score of
    /// the first move minus that of the reply, unless some move of the line is a kill.
    fn search(pos: &mut Gomoku, ply: i32, mut alpha: i32, beta: i32) -> (i32, Option<Point>) {
        if let Some(o) = pos.outcome() {
            return (if o.winner.is_some() { -(KILL - ply) } else { 0 }, None);
        }
        if ply == 4 {
            return (0, None);
        }
        let (cands, _) = candidates(pos);
        let mut best = (-KILL - 1, cands.first().map(|s| s.p));
        for s in cands {
            if s.kill || s.five {
                return (KILL - ply, Some(s.p));
            }
            pos.play(&Move::Stone(s.p));
            let (child, _) = Self::search(pos, ply + 1, -beta, -alpha);
            pos.undo();
            let own = if ply < 2 { s.attack + s.defence } else { 0 };
            let v = own - child;
            if v > best.0 {
                best = (v, Some(s.p));
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    pub fn best(pos: &Gomoku) -> Option<Point> {
        let board = pos.board();
        if board.is_empty_board() {
            let c = (board.size() / 2) as u8;
            return Some(Point::new(c, c));
        }
        let (cands, urgent) = candidates(pos);
        if urgent {
            return cands.first().map(|s| s.p);
        }
        let mut p = pos.clone();
        Self::search(&mut p, 0, -KILL - 1, KILL + 1).1
    }
}

impl Search<Gomoku> for Seed001 {
    fn name(&self) -> String {
        "boyi:seed001".to_string()
    }

    /// The paper's search has its own fixed depth (four plies over three candidates).
    fn default_depth(&self) -> u32 {
        1
    }

    fn search(
        &mut self,
        game: &GameHistory<Gomoku>,
        root: &[Move],
        _time: &TimeManager,
        _info: InfoSink<'_>,
    ) -> Option<Move> {
        // Without a pattern move, the first stone rather than a pass.
        Self::best(game.current())
            .map(Move::Stone)
            .or_else(|| root.iter().find(|m| matches!(m, Move::Stone(_))).copied())
    }
}
