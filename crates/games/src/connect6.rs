//! Connect6 (六子棋) as rules/connect6.md defines it: black places one stone, then each side
//! two per turn; six or more in a line wins at once; a full board is decided by the variant.
//!
//! Move identity: a turn is the unordered set of its stones. A stone that wins on its own is
//! a one-stone move, and no two-stone move contains such a stone; so is the last empty point
//! when a turn needs two.

use crate::grid::{self, Board, EMPTY};
use boyi_core::{Game, Outcome, Point, Reason, RenderOptions, Side, TextError};
use std::fmt;
use std::str::FromStr;

pub const DEFAULT_SIZE: usize = 19;
pub const MIN_SIZE: usize = 6;

/// What a full board without a six means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Seed 003: more lines of exactly five wins; equal counts, white wins.
    #[default]
    Fives,
    /// ICGA: a draw.
    Icga,
}

impl FromStr for Variant {
    type Err = TextError;
    fn from_str(s: &str) -> Result<Variant, TextError> {
        match s {
            "fives" => Ok(Variant::Fives),
            "icga" => Ok(Variant::Icga),
            _ => Err(text_err!(
                "unknown connect6 variant {s:?} (expected fives or icga)"
            )),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Fives => "fives",
            Variant::Icga => "icga",
        })
    }
}

/// A Connect6 turn: one stone, or two distinct stones kept in point order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    One(Point),
    Two(Point, Point),
}

impl Move {
    /// A two-stone move with its stones in point order.
    pub fn two(a: Point, b: Point) -> Move {
        if a < b {
            Move::Two(a, b)
        } else {
            Move::Two(b, a)
        }
    }

    pub fn stones(&self) -> impl Iterator<Item = Point> {
        let (a, b) = match *self {
            Move::One(p) => (p, None),
            Move::Two(p, q) => (p, Some(q)),
        };
        std::iter::once(a).chain(b)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Undo {
    mv: Move,
    outcome: Option<Outcome>,
}

/// A Connect6 position with its history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connect6 {
    variant: Variant,
    board: Board,
    side: Side,
    hash: u64,
    outcome: Option<Outcome>,
    history: Vec<Undo>,
}

impl Connect6 {
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The last turn played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// Stones the side to move places this turn: 1 on the empty board, else 2.
    pub fn stones_this_turn(&self) -> usize {
        if self.board.is_empty_board() { 1 } else { 2 }
    }

    /// Whether a stone of the side to move on the empty point `p` makes six or more.
    pub fn wins_alone(&self, p: Point) -> bool {
        let cell = grid::stone(self.side);
        grid::DIRECTIONS
            .iter()
            .any(|&d| 1 + self.side_run(p, d, cell) >= 6)
    }

    /// Stones of `cell` next to the empty point `p` along `d` in both directions.
    fn side_run(&self, p: Point, (dc, dr): (i8, i8), cell: u8) -> usize {
        let mut n = 0;
        for sign in [1i8, -1] {
            let mut k = 1;
            while self.board.at(p, dc * sign, dr * sign, k) == Some(cell) {
                n += 1;
                k += 1;
            }
        }
        n
    }

    fn makes_six(&self, p: Point, side: Side) -> bool {
        self.board.longest_run(p, grid::stone(side)) >= 6
    }

    /// Lines of exactly five stones of `side` on the board.
    pub fn fives(&self, side: Side) -> usize {
        self.board
            .maximal_runs(grid::stone(side))
            .filter(|&n| n == 5)
            .count()
    }

    fn full_board_outcome(&self) -> Outcome {
        match self.variant {
            Variant::Icga => Outcome::draw(Reason::FullBoard),
            Variant::Fives => {
                let (b, w) = (self.fives(Side::Black), self.fives(Side::White));
                if b > w {
                    Outcome::win(Side::Black, Reason::FullBoard)
                } else {
                    Outcome::win(Side::White, Reason::FullBoard)
                }
            }
        }
    }

    fn outcome_after(&self, mv: &Move, side: Side) -> Option<Outcome> {
        if mv.stones().any(|p| self.makes_six(p, side)) {
            Some(Outcome::win(side, Reason::Six))
        } else if self.board.is_full() {
            Some(self.full_board_outcome())
        } else {
            None
        }
    }

    fn outcome_of_board(&self) -> Result<Option<Outcome>, TextError> {
        let mut winner = None;
        for side in Side::BOTH {
            if self.board.maximal_runs(grid::stone(side)).any(|n| n >= 6) {
                if side == self.side {
                    return Err(text_err!(
                        "{} already has six in a row but is to move",
                        Self::side_name(side)
                    ));
                }
                winner = Some(side);
            }
        }
        Ok(match winner {
            Some(side) => Some(Outcome::win(side, Reason::Six)),
            None if self.board.is_full() => Some(self.full_board_outcome()),
            None => None,
        })
    }

    /// The legality of a move, with the reason when it is not legal.
    fn check(&self, mv: &Move) -> Result<(), TextError> {
        if let Some(o) = self.outcome {
            return Err(text_err!("the game is over ({o})"));
        }
        for p in mv.stones() {
            if !p.on_board(self.size()) {
                return Err(text_err!("{p} is off the board"));
            }
            if self.board.get(p) != EMPTY {
                return Err(text_err!("{p} is occupied"));
            }
        }
        let empties = self.board.points() - self.board.stones();
        match *mv {
            Move::One(p) => {
                if self.stones_this_turn() == 2 && empties > 1 && !self.wins_alone(p) {
                    return Err(text_err!(
                        "this turn places two stones ({p} alone does not win)"
                    ));
                }
            }
            Move::Two(a, b) => {
                if self.stones_this_turn() == 1 {
                    return Err(TextError::new("black's first turn places one stone"));
                }
                if a == b {
                    return Err(text_err!("{a} is given twice"));
                }
                if let Some(p) = [a, b].into_iter().find(|&p| self.wins_alone(p)) {
                    return Err(text_err!(
                        "{p} wins on its own: play it as a one-stone move"
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Game for Connect6 {
    type Move = Move;
    type Variant = Variant;
    const NAME: &'static str = "connect6";
    const VARIANTS: &'static [&'static str] = &["fives", "icga"];

    fn start(variant: &Variant, size: Option<usize>) -> Result<Connect6, TextError> {
        let size = size.unwrap_or(DEFAULT_SIZE);
        if !(MIN_SIZE..=boyi_core::point::MAX_SIZE).contains(&size) {
            return Err(text_err!("connect6 board size {size} is not in 6..=26"));
        }
        Ok(Connect6 {
            variant: *variant,
            board: Board::new(size),
            side: Side::Black,
            hash: 0,
            outcome: None,
            history: Vec::new(),
        })
    }

    fn from_text(variant: &Variant, text: &str) -> Result<Connect6, TextError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 2 {
            return Err(text_err!(
                "connect6 position needs `<rows> <side>`, got {} fields",
                fields.len()
            ));
        }
        let board = Board::parse_rows(fields[0], MIN_SIZE..=boyi_core::point::MAX_SIZE)?;
        let side = Side::from_letter(fields[1])
            .ok_or_else(|| text_err!("side to move {:?} must be b or w", fields[1]))?;
        if board.is_empty_board() && side == Side::White {
            return Err(TextError::new(
                "black places the first stone on the empty board",
            ));
        }
        let mut pos = Connect6 {
            variant: *variant,
            board,
            side,
            hash: 0,
            outcome: None,
            history: Vec::new(),
        };
        pos.outcome = pos.outcome_of_board()?;
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    fn to_text(&self) -> String {
        format!("{} {}", self.board.format_rows(), self.side.letter())
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
        let empties: Vec<Point> = self.board.empty_points().collect();
        if self.stones_this_turn() == 1 || empties.len() == 1 {
            out.extend(empties.into_iter().map(Move::One));
            return;
        }
        let (winners, mut others): (Vec<Point>, Vec<Point>) =
            empties.into_iter().partition(|&p| self.wins_alone(p));
        // Pairs keep their stones in point order (column first), not board index order.
        others.sort_unstable();
        out.extend(winners.into_iter().map(Move::One));
        out.reserve(others.len() * others.len().saturating_sub(1) / 2);
        for (i, &a) in others.iter().enumerate() {
            out.extend(others[i + 1..].iter().map(|&b| Move::Two(a, b)));
        }
    }

    fn is_legal(&self, mv: &Move) -> bool {
        let ordered = match *mv {
            Move::Two(a, b) => a < b,
            Move::One(_) => true,
        };
        ordered && self.check(mv).is_ok()
    }

    fn play(&mut self, mv: &Move) {
        debug_assert!(self.is_legal(mv), "illegal connect6 move {mv:?}");
        self.history.push(Undo {
            mv: *mv,
            outcome: self.outcome,
        });
        let cell = grid::stone(self.side);
        for p in mv.stones() {
            self.board.set(p, cell);
            self.hash ^= grid::stone_key(p, self.side);
        }
        self.outcome = self.outcome_after(mv, self.side);
        self.hash ^= grid::side_key(self.side) ^ grid::side_key(!self.side);
        self.side = !self.side;
    }

    fn undo(&mut self) -> bool {
        let Some(u) = self.history.pop() else {
            return false;
        };
        self.side = !self.side;
        self.hash ^= grid::side_key(self.side) ^ grid::side_key(!self.side);
        for p in u.mv.stones() {
            self.board.set(p, EMPTY);
            self.hash ^= grid::stone_key(p, self.side);
        }
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
        self.board.stones_hash() ^ grid::side_key(self.side)
    }

    /// One point (`j10`) or two points separated by white space, in either order.
    fn parse_move(&self, text: &str) -> Result<Move, TextError> {
        let points = text
            .split_whitespace()
            .map(|p| Point::parse(p, self.size()))
            .collect::<Result<Vec<_>, _>>()?;
        let mv = match points[..] {
            [p] => Move::One(p),
            [a, b] => Move::two(a, b),
            _ => {
                return Err(text_err!(
                    "a connect6 move is one or two points, got {:?}",
                    text
                ));
            }
        };
        self.check(&mv)?;
        Ok(mv)
    }

    fn format_move(&self, mv: &Move) -> String {
        match mv {
            Move::One(p) => p.to_string(),
            Move::Two(a, b) => format!("{a} {b}"),
        }
    }

    fn render(&self, _: &RenderOptions) -> String {
        let marked: Vec<Point> = self.last_move().iter().flat_map(Move::stones).collect();
        let mut s = self.board.render(&marked);
        s.push_str(&format!(
            "connect6 {} {}x{}, {} to move, {} stone{} this turn\n",
            self.variant,
            self.size(),
            self.size(),
            Self::side_name(self.side),
            self.stones_this_turn(),
            if self.stones_this_turn() == 1 {
                ""
            } else {
                "s"
            }
        ));
        if let Some(o) = self.outcome {
            s.push_str(&format!("game over: {o}\n"));
        }
        s
    }
}
