//! Move ordering: the hash move first, then winning and even captures by MVV/LVA, the two
//! killer moves, the counter move (the quiet move that last refuted the opponent's previous
//! move), quiet moves by history, and last the captures that lose material.
//!
//! All legal moves are generated at once into a fixed array and picked best first by a
//! selection step, so an early cut-off leaves the rest unsorted. Nothing allocates.

use super::eval::ORDER_VALUE;
use boyi_games::xiangqi::board::{EMPTY, index90, kind_of};
use boyi_games::xiangqi::{Board, Move, MoveList};

const HASH_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER_1: i32 = 1_000_002;
const KILLER_2: i32 = 1_000_001;
const COUNTER: i32 = 1_000_000;
const BAD_CAPTURE: i32 = -2_000_000;

/// History scores of quiet moves: by piece code (side and slot) and target square.
pub struct History(pub [[i32; 90]; 32]);

/// What the search learns about quiet moves, kept from move to move of a game (a piece's good
/// targets change slowly): the history scores and the counter moves, by the moved piece and
/// its target.
pub struct Memory {
    pub history: History,
    pub counters: [[Move; 90]; 32],
}

impl Memory {
    pub fn new() -> Box<Memory> {
        Box::new(Memory {
            history: History::new(),
            counters: [[Move::default(); 90]; 32],
        })
    }
}

impl Default for History {
    fn default() -> Self {
        History([[0; 90]; 32])
    }
}

impl History {
    pub fn new() -> History {
        History::default()
    }

    #[inline(always)]
    pub fn get(&self, board: &Board, m: Move) -> i32 {
        self.0[(board.cells()[m.from as usize] & 31) as usize][index90(m.to)]
    }

    /// Moves the entry towards `bonus` (positive for a cut-off move, negative for the quiet
    /// moves tried before it), keeping it within ±16384.
    #[inline(always)]
    pub fn update(&mut self, board: &Board, m: Move, bonus: i32) {
        let e = &mut self.0[(board.cells()[m.from as usize] & 31) as usize][index90(m.to)];
        *e += bonus - *e * bonus.abs() / 16384;
    }

    pub fn age(&mut self) {
        for row in self.0.iter_mut() {
            for e in row.iter_mut() {
                *e /= 2;
            }
        }
    }
}

/// The legal moves of a node with their ordering scores.
pub struct Picker {
    moves: [Move; 128],
    scores: [i32; 128],
    len: usize,
    next: usize,
}

impl Picker {
    /// Orders every legal move of `board`.
    pub fn new(
        board: &mut Board,
        hash_move: Move,
        refutations: [Move; 3],
        history: &History,
    ) -> Picker {
        let [killer_1, killer_2, counter] = refutations;
        let mut list = MoveList::new();
        board.gen_legal(&mut list);
        let mut p = Picker::empty();
        for &m in list.iter() {
            let score = if m == hash_move {
                HASH_MOVE
            } else if board.cells()[m.to as usize] != EMPTY {
                capture_score(board, m)
            } else if m == killer_1 {
                KILLER_1
            } else if m == killer_2 {
                KILLER_2
            } else if m == counter {
                COUNTER
            } else {
                history.get(board, m)
            };
            p.push(m, score);
        }
        p
    }

    /// Only the captures of `board` (every legal move when `all`), best first by MVV/LVA;
    /// captures that lose material are dropped unless `all`.
    pub fn captures(board: &mut Board, all: bool) -> Picker {
        let mut list = MoveList::new();
        board.gen_legal(&mut list);
        let mut p = Picker::empty();
        for &m in list.iter() {
            if board.cells()[m.to as usize] == EMPTY {
                if all {
                    p.push(m, 0);
                }
                continue;
            }
            let score = capture_score(board, m);
            if all || score >= 0 {
                p.push(m, score);
            }
        }
        p
    }

    fn empty() -> Picker {
        Picker {
            moves: [Move::default(); 128],
            scores: [0; 128],
            len: 0,
            next: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move, score: i32) {
        self.moves[self.len] = m;
        self.scores[self.len] = score;
        self.len += 1;
    }

    /// The best move not yet picked, with its ordering score.
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.scores.swap(best, self.next);
        self.moves.swap(best, self.next);
        let picked = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(picked)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Whether an ordering score is that of a capture that does not lose material.
pub fn is_good_capture(score: i32) -> bool {
    (GOOD_CAPTURE..HASH_MOVE).contains(&score)
}

/// MVV/LVA, and captures of a defended piece worth less than the capturer sorted last.
#[inline]
fn capture_score(board: &mut Board, m: Move) -> i32 {
    let cells = board.cells();
    let victim = ORDER_VALUE[kind_of(cells[m.to as usize]) as usize];
    let attacker = ORDER_VALUE[kind_of(cells[m.from as usize]) as usize];
    let mvv_lva = victim * 16 - attacker / 16;
    if victim >= attacker || !defended(board, m) {
        GOOD_CAPTURE + mvv_lva
    } else {
        BAD_CAPTURE + mvv_lva
    }
}

/// Whether the opponent could recapture on the target square after `m`.
fn defended(board: &mut Board, m: Move) -> bool {
    let them = !board.side_to_move();
    let cap = board.make(m);
    let defended = board.is_attacked(m.to, them);
    board.unmake(m, cap);
    defended
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::{Game, NoVariant};
    use boyi_games::xiangqi::Xiangqi;

    fn mv(game: &Xiangqi, text: &str) -> Move {
        game.parse_move(text).unwrap()
    }

    /// From the start position (whose only captures, a cannon taking a defended horse, lose
    /// material): the hash move, the two killers, the counter move, then the quiet moves by
    /// history.
    #[test]
    fn refutations_come_in_their_order_before_the_history_moves() {
        let game = Xiangqi::start(&NoVariant, None).unwrap();
        let mut board = game.board().clone();
        let [hash, killer_1, killer_2, counter, best_quiet] =
            ["h0g2", "b0c2", "a3a4", "c3c4", "h2e2"].map(|t| mv(&game, t));
        let mut history = History::new();
        history.update(&board, best_quiet, 4000);
        let mut picker = Picker::new(&mut board, hash, [killer_1, killer_2, counter], &history);
        let order: Vec<Move> = std::iter::from_fn(|| picker.pick().map(|(m, _)| m))
            .take(5)
            .collect();
        assert_eq!(order, [hash, killer_1, killer_2, counter, best_quiet]);
    }
}
