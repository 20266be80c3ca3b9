//! Seed 003 (revaluation for Connect6): shapes on each line are valued as the paper lists
//! (one stone with room 2, open two 40, open three 200 — the lost rule 3 —, blocked four 350,
//! open four 600, blocked five 1500, open five 2000, six 5000; mirror images alike; shapes the
//! paper does not list are worth 0). A side's force is the sum over the board. The revalued
//! score is F = a·Σown − (1−a)·Σopponent with the situation factor a: 0.5 in the first turn;
//! after each turn, if the own share e = own/(own+opponent) has moved by more than 0.1 since
//! a was last set, a = clamp(e, 0.3, 0.7). The player searches two turns with alpha-beta over
//! candidate pairs of the best single points.

use crate::player::{GameHistory, InfoSink};
use crate::search::{Search, TimeManager};
use boyi_core::{Game, Point, Side};
use boyi_games::connect6::{Connect6, Move};
use boyi_games::grid::{self, Board, EMPTY};

pub const ONE: i32 = 2;
pub const OPEN_TWO: i32 = 40;
pub const OPEN_THREE: i32 = 200;
pub const BLOCKED_FOUR: i32 = 350;
pub const OPEN_FOUR: i32 = 600;
pub const BLOCKED_FIVE: i32 = 1500;
pub const OPEN_FIVE: i32 = 2000;
pub const SIX: i32 = 5000;

/// The value of a run of `len` stones with `open_ends` empty ends (0–2) and `room` points
/// (the run plus the empty or own points around it up to the opponent or the edge).
pub fn run_value(len: usize, open_ends: usize, room: usize) -> i32 {
    if len >= 6 {
        return SIX;
    }
    if room < 6 {
        return 0;
    }
    match (len, open_ends) {
        (5, 2) => OPEN_FIVE,
        (5, 1) => BLOCKED_FIVE,
        (4, 2) => OPEN_FOUR,
        (4, 1) => BLOCKED_FOUR,
        (3, 2) => OPEN_THREE,
        (2, 2) => OPEN_TWO,
        (1, 2) => ONE,
        _ => 0,
    }
}

/// The force of `side`: the sum of its run values over every line of the board.
pub fn force(board: &Board, side: Side) -> i32 {
    let me = grid::stone(side);
    let n = board.size() as i32;
    let mut total = 0;
    for (dc, dr) in grid::DIRECTIONS {
        for p in board.all_points() {
            // Start each line at its first point.
            let prev = board.at(p, -dc, -dr, 1);
            if prev.is_some() {
                continue;
            }
            let cells: Vec<u8> = (0..n).map_while(|k| board.at(p, dc, dr, k)).collect();
            total += line_force(&cells, me);
        }
    }
    total
}

/// The force of `me` on one line of cells.
pub fn line_force(cells: &[u8], me: u8) -> i32 {
    let mut total = 0;
    let mut i = 0;
    while i < cells.len() {
        if cells[i] != me {
            i += 1;
            continue;
        }
        let start = i;
        while i < cells.len() && cells[i] == me {
            i += 1;
        }
        let len = i - start;
        let open = usize::from(start > 0 && cells[start - 1] == EMPTY)
            + usize::from(i < cells.len() && cells[i] == EMPTY);
        let mut lo = start;
        while lo > 0 && (cells[lo - 1] == EMPTY || cells[lo - 1] == me) {
            lo -= 1;
        }
        let mut hi = i;
        while hi < cells.len() && (cells[hi] == EMPTY || cells[hi] == me) {
            hi += 1;
        }
        total += run_value(len, open, hi - lo);
    }
    total
}

/// The situation factor and the share it was set at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Situation {
    pub a: f64,
    pub share: f64,
}

impl Default for Situation {
    fn default() -> Self {
        Situation { a: 0.5, share: 0.5 }
    }
}

impl Situation {
    /// After a turn: re-chooses a when the share moved past the threshold.
    pub fn update(&mut self, own: i32, opp: i32) {
        let total = (own + opp).max(1) as f64;
        let e = own as f64 / total;
        if (e - self.share).abs() > 0.1 {
            self.a = e.clamp(0.3, 0.7);
            self.share = e;
        }
    }

    /// F = a·own − (1−a)·opp.
    pub fn revalue(&self, own: i32, opp: i32) -> f64 {
        self.a * own as f64 - (1.0 - self.a) * opp as f64
    }
}

#[derive(Default)]
pub struct Seed003 {
    situation: Situation,
}

const WIN: f64 = 1e9;

impl Seed003 {
    fn value(&self, board: &Board, me: Side) -> f64 {
        self.situation.revalue(force(board, me), force(board, !me))
    }

    /// Single points near the stones ranked by F after a stone of `side` there.
    fn singles(&self, board: &mut Board, side: Side, k: usize) -> Vec<Point> {
        let near: Vec<Point> = board
            .empty_points()
            .filter(|&p| {
                (-2..=2).any(|dc| {
                    (-2..=2).any(|dr| matches!(board.at(p, dc, dr, 1), Some(c) if c != EMPTY))
                })
            })
            .collect();
        let mut scored: Vec<(f64, Point)> = near
            .into_iter()
            .map(|p| {
                board.set(p, grid::stone(side));
                let v = self.value(board, side);
                board.set(p, EMPTY);
                (v, p)
            })
            .collect();
        scored.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        scored.into_iter().take(k).map(|(_, p)| p).collect()
    }

    fn turns(&self, pos: &Connect6, k: usize) -> Vec<Move> {
        let me = pos.side_to_move();
        let mut board = pos.board().clone();
        let mut out = Vec::new();
        for a in self.singles(&mut board, me, k) {
            let one = Move::One(a);
            if pos.is_legal(&one) {
                return vec![one];
            }
            board.set(a, grid::stone(me));
            for b in self.singles(&mut board, me, 3) {
                let mv = Move::two(a, b);
                if !out.contains(&mv) && pos.is_legal(&mv) {
                    out.push(mv);
                }
            }
            board.set(a, EMPTY);
        }
        out
    }

    /// Two turns of alpha-beta (own turn, opponent's reply) over F from `me`'s view.
    fn alphabeta(
        &self,
        pos: &mut Connect6,
        me: Side,
        depth: u32,
        mut alpha: f64,
        beta: f64,
    ) -> f64 {
        if let Some(o) = pos.outcome() {
            let sign = if o.winner == Some(pos.side_to_move()) {
                1.0
            } else {
                -1.0
            };
            return if o.winner.is_some() { sign * WIN } else { 0.0 };
        }
        let mover = pos.side_to_move();
        if depth == 0 {
            let v = self.value(pos.board(), me);
            return if mover == me { v } else { -v };
        }
        let mut best = -2.0 * WIN;
        for mv in self.turns(pos, if depth == 2 { 6 } else { 4 }) {
            pos.play(&mv);
            let v = -self.alphabeta(pos, me, depth - 1, -beta, -alpha);
            pos.undo();
            if v > best {
                best = v;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    pub fn best(&mut self, pos: &Connect6) -> Option<Move> {
        let me = pos.side_to_move();
        let board = pos.board();
        if board.is_empty_board() {
            let c = (board.size() / 2) as u8;
            return Some(Move::One(Point::new(c, c)));
        }
        self.situation.update(force(board, me), force(board, !me));
        let mut p = pos.clone();
        let mut best = None;
        let mut best_v = -3.0 * WIN;
        for mv in self.turns(pos, 6) {
            p.play(&mv);
            let v = -self.alphabeta(&mut p, me, 1, -3.0 * WIN, -best_v);
            p.undo();
            if v > best_v {
                best_v = v;
                best = Some(mv);
            }
        }
        best
    }
}

impl Search<Connect6> for Seed003 {
    fn name(&self) -> String {
        "boyi:seed003".to_string()
    }

    fn new_game(&mut self) {
        self.situation = Situation::default();
    }

    /// The paper's revaluation looks one turn ahead: no depth.
    fn default_depth(&self) -> u32 {
        1
    }

    fn search(
        &mut self,
        game: &GameHistory<Connect6>,
        _root: &[Move],
        _time: &TimeManager,
        _info: InfoSink<'_>,
    ) -> Option<Move> {
        self.best(game.current())
    }
}
