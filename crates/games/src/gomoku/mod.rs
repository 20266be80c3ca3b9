//! Gomoku (五子棋) as rules/gomoku.md defines it: boards of 5..=26 lines, variants
//! `freestyle`, `standard` and `renju`, pass (two in a row draw), full board draw.

pub mod renju;

use crate::grid::{self, BLACK, Board, EMPTY, WHITE};
use boyi_core::{Game, Outcome, Point, Reason, RenderOptions, Side, TextError};
use std::fmt;
use std::str::FromStr;

pub const DEFAULT_SIZE: usize = 15;
pub const MIN_SIZE: usize = 5;

/// The rule sets of rules/gomoku.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Five or more wins, for both sides.
    #[default]
    Freestyle,
    /// Exactly five wins; an overline wins nothing.
    Standard,
    /// Black: exactly five wins; overline, double-four and double-three are forbidden.
    /// White: five or more wins.
    Renju,
}

impl Variant {
    /// Whether a line of `len` stones of `side` wins.
    pub fn wins(self, side: Side, len: usize) -> bool {
        match (self, side) {
            (Variant::Freestyle, _) | (Variant::Renju, Side::White) => len >= 5,
            (Variant::Standard, _) | (Variant::Renju, Side::Black) => len == 5,
        }
    }
}

impl FromStr for Variant {
    type Err = TextError;
    fn from_str(s: &str) -> Result<Variant, TextError> {
        match s {
            "freestyle" => Ok(Variant::Freestyle),
            "standard" => Ok(Variant::Standard),
            "renju" => Ok(Variant::Renju),
            _ => Err(text_err!(
                "unknown gomoku variant {s:?} (expected freestyle, standard or renju)"
            )),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Freestyle => "freestyle",
            Variant::Standard => "standard",
            Variant::Renju => "renju",
        })
    }
}

/// A Gomoku turn: one stone, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    Stone(Point),
    Pass,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Undo {
    mv: Move,
    passes: u8,
    outcome: Option<Outcome>,
}

/// A Gomoku position with its history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gomoku {
    variant: Variant,
    board: Board,
    side: Side,
    /// 1 when the previous move was a pass.
    passes: u8,
    hash: u64,
    outcome: Option<Outcome>,
    history: Vec<Undo>,
}

const PASS_KEY_INDEX: usize = grid::SIDE_KEY_INDEX + 1;

impl Gomoku {
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The stone played last, if the last move was a stone.
    pub fn last_stone(&self) -> Option<Point> {
        self.recent_stone(0)
    }

    /// The stone played `back` moves before the last (0: the last), if that move was a stone.
    pub fn recent_stone(&self, back: usize) -> Option<Point> {
        let n = self.history.len();
        match self.history.get(n.checked_sub(back + 1)?)?.mv {
            Move::Stone(p) => Some(p),
            Move::Pass => None,
        }
    }

    /// Whether black may not play on the empty point `p` (renju only).
    pub fn is_forbidden(&self, p: Point) -> bool {
        self.forbidden(p).is_some()
    }

    /// Why black may not play on the empty point `p` (renju only), if it may not.
    pub fn forbidden(&self, p: Point) -> Option<renju::Forbidden> {
        if self.variant != Variant::Renju || self.board.get(p) != EMPTY {
            return None;
        }
        renju::forbidden(&mut self.board.clone(), p)
    }

    fn pass_key(passes: u8) -> u64 {
        if passes == 1 {
            grid::KEYS[PASS_KEY_INDEX]
        } else {
            0
        }
    }

    /// The outcome decided by a stone of `side` just placed on `p`, or a full board.
    fn outcome_after_stone(&self, p: Point, side: Side) -> Option<Outcome> {
        let cell = grid::stone(side);
        let wins = grid::DIRECTIONS
            .iter()
            .any(|&d| self.variant.wins(side, self.board.run(p, d, cell)));
        if wins {
            Some(Outcome::win(side, Reason::Five))
        } else if self.board.is_full() {
            Some(Outcome::draw(Reason::FullBoard))
        } else {
            None
        }
    }

    /// The outcome of a position read from text: a winning line of the side that moved last,
    /// or a full board. Winning lines of the side to move are contradictions.
    fn outcome_of_board(&self) -> Result<Option<Outcome>, TextError> {
        let mut winner = None;
        for side in Side::BOTH {
            let cell = grid::stone(side);
            if self
                .board
                .maximal_runs(cell)
                .any(|len| self.variant.wins(side, len))
            {
                if side == self.side {
                    return Err(text_err!(
                        "{} already has five in a row but is to move",
                        Self::side_name(side)
                    ));
                }
                winner = Some(side);
            }
        }
        Ok(match winner {
            Some(side) => Some(Outcome::win(side, Reason::Five)),
            None if self.board.is_full() => Some(Outcome::draw(Reason::FullBoard)),
            None => None,
        })
    }
}

impl Game for Gomoku {
    type Move = Move;
    type Variant = Variant;
    const NAME: &'static str = "gomoku";
    const VARIANTS: &'static [&'static str] = &["freestyle", "standard", "renju"];

    fn start(variant: &Variant, size: Option<usize>) -> Result<Gomoku, TextError> {
        let size = size.unwrap_or(DEFAULT_SIZE);
        if !(MIN_SIZE..=boyi_core::point::MAX_SIZE).contains(&size) {
            return Err(text_err!("gomoku board size {size} is not in 5..=26"));
        }
        Ok(Gomoku {
            variant: *variant,
            board: Board::new(size),
            side: Side::Black,
            passes: 0,
            hash: 0,
            outcome: None,
            history: Vec::new(),
        })
    }

    fn from_text(variant: &Variant, text: &str) -> Result<Gomoku, TextError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(2..=3).contains(&fields.len()) {
            return Err(text_err!(
                "gomoku position needs `<rows> <side> [<passes>]`, got {} fields",
                fields.len()
            ));
        }
        let board = Board::parse_rows(fields[0], MIN_SIZE..=boyi_core::point::MAX_SIZE)?;
        let side = Side::from_letter(fields[1])
            .ok_or_else(|| text_err!("side to move {:?} must be b or w", fields[1]))?;
        let passes = match fields.get(2) {
            None | Some(&"0") => 0,
            Some(&"1") => 1,
            Some(other) => return Err(text_err!("passes field {other:?} must be 0 or 1")),
        };
        let mut pos = Gomoku {
            variant: *variant,
            board,
            side,
            passes,
            hash: 0,
            outcome: None,
            history: Vec::new(),
        };
        pos.outcome = pos.outcome_of_board()?;
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    fn to_text(&self) -> String {
        let mut s = format!("{} {}", self.board.format_rows(), self.side.letter());
        if self.passes == 1 {
            s.push_str(" 1");
        }
        s
    }

    fn variant(&self) -> &Variant {
        &self.variant
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, out: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        if self.variant == Variant::Renju && self.side == Side::Black {
            let mut scratch = self.board.clone();
            out.extend(
                self.board
                    .empty_points()
                    .filter(|&p| !renju::is_forbidden(&mut scratch, p))
                    .map(Move::Stone),
            );
        } else {
            out.extend(self.board.empty_points().map(Move::Stone));
        }
        out.push(Move::Pass);
    }

    fn is_legal(&self, mv: &Move) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        match *mv {
            Move::Pass => true,
            Move::Stone(p) => {
                p.on_board(self.size())
                    && self.board.get(p) == EMPTY
                    && !(self.side == Side::Black && self.is_forbidden(p))
            }
        }
    }

    fn play(&mut self, mv: &Move) {
        debug_assert!(self.is_legal(mv), "illegal gomoku move {mv:?}");
        self.history.push(Undo {
            mv: *mv,
            passes: self.passes,
            outcome: self.outcome,
        });
        self.hash ^= Self::pass_key(self.passes);
        match *mv {
            Move::Pass => {
                self.passes += 1;
                if self.passes == 2 {
                    self.outcome = Some(Outcome::draw(Reason::TwoPasses));
                }
            }
            Move::Stone(p) => {
                self.passes = 0;
                self.board.set(p, grid::stone(self.side));
                self.hash ^= grid::stone_key(p, self.side);
                self.outcome = self.outcome_after_stone(p, self.side);
            }
        }
        self.hash ^= Self::pass_key(self.passes);
        self.hash ^= grid::side_key(self.side) ^ grid::side_key(!self.side);
        self.side = !self.side;
    }

    fn undo(&mut self) -> bool {
        let Some(u) = self.history.pop() else {
            return false;
        };
        self.side = !self.side;
        self.hash ^= grid::side_key(self.side) ^ grid::side_key(!self.side);
        self.hash ^= Self::pass_key(self.passes) ^ Self::pass_key(u.passes);
        if let Move::Stone(p) = u.mv {
            self.board.set(p, EMPTY);
            self.hash ^= grid::stone_key(p, self.side);
        }
        self.passes = u.passes;
        self.outcome = u.outcome;
        true
    }

    fn history_len(&self) -> usize {
        self.history.len()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        self.board.stones_hash() ^ grid::side_key(self.side) ^ Self::pass_key(self.passes)
    }

    fn parse_move(&self, text: &str) -> Result<Move, TextError> {
        let mv = if text.eq_ignore_ascii_case("pass") {
            Move::Pass
        } else {
            Move::Stone(Point::parse(text, self.size())?)
        };
        if let Some(o) = self.outcome {
            return Err(text_err!("the game is over ({o})"));
        }
        if let Move::Stone(p) = mv {
            if self.board.get(p) != EMPTY {
                return Err(text_err!("{p} is occupied"));
            }
            if self.side == Side::Black && self.is_forbidden(p) {
                return Err(text_err!("{p} is a forbidden point for black (renju)"));
            }
        }
        Ok(mv)
    }

    fn format_move(&self, mv: &Move) -> String {
        match mv {
            Move::Stone(p) => p.to_string(),
            Move::Pass => "pass".to_string(),
        }
    }

    fn render(&self, _: &RenderOptions) -> String {
        let marked: Vec<Point> = self.last_stone().into_iter().collect();
        let mut s = self.board.render(&marked);
        s.push_str(&format!(
            "gomoku {} {}x{}, {} to move{}\n",
            self.variant,
            self.size(),
            self.size(),
            Self::side_name(self.side),
            if self.passes == 1 {
                " (after a pass)"
            } else {
                ""
            }
        ));
        if let Some(o) = self.outcome {
            s.push_str(&format!("game over: {o}\n"));
        }
        s
    }
}

/// Cells for tests and engines that build boards by hand.
pub const STONES: [u8; 2] = [BLACK, WHITE];
