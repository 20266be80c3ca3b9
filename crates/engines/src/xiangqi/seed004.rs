//! Seed 004's player: the evaluation is the difference of the two sides' piece values
//! (king > chariot > horse ≈ cannon > advisor ≈ elephant > pawn), searched by a fixed-depth
//! minimax with alpha-beta pruning, moves tried in generation order — as the paper
//! describes. The only additions are what a player must do: a side without a legal move
//! loses, and the search gives up at its time limit with the best root move so far.

use crate::player::{GameHistory, Info, InfoSink, Score};
use crate::search::{Deadline, Search, TimeManager};
use boyi_core::Game;
use boyi_games::xiangqi::board::{Kind, kind_of};
use boyi_games::xiangqi::{Board, Move, MoveList, Xiangqi};

/// Piece values in the paper's order (units of a tenth of a pawn's tenfold).
const VALUES: [i32; 7] = [
    15000, // king
    200,   // advisor
    200,   // elephant
    500,   // horse
    1000,  // chariot
    500,   // cannon
    100,   // pawn
];
const WIN: i32 = 1_000_000;

pub struct Seed004 {
    depth: u32,
}

impl Seed004 {
    pub fn new(depth: u32) -> Seed004 {
        Seed004 {
            depth: depth.max(1),
        }
    }
}

/// Material of the side to move minus the opponent's.
pub fn material(board: &Board) -> i32 {
    let mut total = 0;
    for si in 0..2 {
        let mut sum = 0;
        let mut bits = board.alive(si);
        while bits != 0 {
            let slot = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            sum += VALUES[kind_of(0x20 | slot) as usize];
        }
        total += if si == board.side_to_move().index() {
            sum
        } else {
            -sum
        };
    }
    total
}

struct Minimax<'a> {
    board: Board,
    deadline: &'a Deadline,
    nodes: u64,
    out_of_time: bool,
}

impl Minimax<'_> {
    /// Negamax form of minimax with alpha-beta.
    fn alphabeta(&mut self, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.deadline.reached(self.nodes) {
            self.out_of_time = true;
            return 0;
        }
        let mut list = MoveList::new();
        self.board.gen_legal(&mut list);
        if list.is_empty() {
            return -WIN;
        }
        if depth == 0 {
            return material(&self.board);
        }
        for &m in list.iter() {
            let cap = self.board.make(m);
            let v = -self.alphabeta(depth - 1, -beta, -alpha);
            self.board.unmake(m, cap);
            if self.out_of_time {
                return 0;
            }
            if v >= beta {
                return v;
            }
            alpha = alpha.max(v);
        }
        alpha
    }
}

impl Search<Xiangqi> for Seed004 {
    fn name(&self) -> String {
        format!("boyi:seed004?depth={}", self.depth)
    }

    fn default_depth(&self) -> u32 {
        self.depth
    }

    fn search(
        &mut self,
        game: &GameHistory<Xiangqi>,
        root: &[Move],
        time: &TimeManager,
        info: InfoSink<'_>,
    ) -> Option<Move> {
        let pos = game.current();
        let first = *root.first()?;
        let deadline = time.deadline(time.budget());
        let depth = time.given_depth().unwrap_or(self.depth).max(1);
        let mut s = Minimax {
            board: pos.board().clone(),
            deadline: &deadline,
            nodes: 0,
            out_of_time: false,
        };
        let (mut best, mut best_score) = (first, -WIN - 1);
        for &m in root {
            let cap = s.board.make(m);
            let v = -s.alphabeta(depth - 1, -WIN - 1, -best_score);
            s.board.unmake(m, cap);
            if s.out_of_time {
                break;
            }
            if v > best_score {
                best_score = v;
                best = m;
            }
        }
        let score = if best_score.abs() >= WIN - 1 {
            Score::Mate(if best_score > 0 { 1 } else { -1 })
        } else {
            Score::Units(best_score.max(-WIN))
        };
        info(Info {
            depth: Some(depth),
            score: Some(score),
            pv: vec![pos.format_move(&best)],
            nodes: Some(s.nodes),
            time: Some(deadline.started.elapsed()),
            ..Info::default()
        });
        Some(best)
    }
}

/// The kind values, for tests and documentation.
pub fn value(kind: Kind) -> i32 {
    VALUES[kind as usize]
}
