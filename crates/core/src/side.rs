//! Sides and outcomes.

use std::fmt;

/// One of the two sides of a game.
///
/// Every game names its sides by colour as its position text does (`b`/`w`). In Xiangqi, red
/// is [`Side::White`], as FEN (`w` = red to move) and UCI (`wtime` is red's clock) have it.
/// Which side moves first is the game's business ([`crate::Game::side_to_move`] of the start
/// position): black in Gomoku and Connect6, white in Jiu, red in Xiangqi.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Black,
    White,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Black, Side::White];

    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-side arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter of position text: `b` or `w`.
    pub fn letter(self) -> char {
        match self {
            Side::Black => 'b',
            Side::White => 'w',
        }
    }

    pub fn from_letter(s: &str) -> Option<Side> {
        match s {
            "b" => Some(Side::Black),
            "w" => Some(Side::White),
            _ => None,
        }
    }
}

impl std::ops::Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        self.opponent()
    }
}

/// How a game ended: a winner (or none, for a draw) and the rule that decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Side>,
    /// Short reason in words, e.g. `"five in a row"`, `"perpetual check"`.
    pub reason: &'static str,
}

impl Outcome {
    pub fn win(side: Side, reason: &'static str) -> Outcome {
        Outcome {
            winner: Some(side),
            reason,
        }
    }

    pub fn draw(reason: &'static str) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The result from `side`'s point of view: 1 win, 0.5 draw, 0 loss.
    pub fn score_for(&self, side: Side) -> f64 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(Side::Black) => write!(f, "black wins ({})", self.reason),
            Some(Side::White) => write!(f, "white wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}
