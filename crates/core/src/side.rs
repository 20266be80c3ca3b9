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

/// How a game ended: a winner (or none, for a draw) and the rule or event that decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: Reason,
}

impl Outcome {
    pub fn win(side: Side, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(side),
            reason,
        }
    }

    pub fn draw(reason: Reason) -> Outcome {
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

/// Why a game ended: the rules of a game (checkmate ... too few pieces), or the players and
/// the referee (resignation ... forfeit). `Unknown` is a result whose reason is not known or
/// not one of these (a record read from a file may say more in words beside it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// Xiangqi: the side to move is in check and has no legal move.
    Checkmate,
    /// Xiangqi: the side to move has no legal move and is not in check (it loses).
    Stalemate,
    /// Xiangqi: a repetition in which one side checked throughout (it loses).
    PerpetualCheck,
    /// The same position for the third time (Xiangqi without perpetual check, Jiu).
    Repetition,
    /// Too many moves without capture (Xiangqi's 60-move rule, Jiu's 100 moves).
    MoveCountRule,
    /// Gomoku: five in a row.
    Five,
    /// Connect6: six in a row.
    Six,
    /// Tic-tac-toe (the test game): three in a row.
    Three,
    /// The board is full (a draw, or Connect6's count of fives).
    FullBoard,
    /// Gomoku: both sides passed in a row.
    TwoPasses,
    /// Jiu: a side has fewer than 4 pieces.
    TooFewPieces,
    /// Jiu: the side to move has no legal move (it loses).
    NoLegalMove,
    Resignation,
    /// A side ran out of time, or did not answer in time.
    Time,
    /// A draw agreed by the players.
    Agreement,
    /// Decided by the referee or the arena (a move limit, an adjudication rule).
    Adjudication,
    /// A player's program crashed or could not play on.
    Crash,
    /// A player made an illegal move.
    IllegalMove,
    /// A player broke the protocol or the rules of the event (e.g. a bad opening choice).
    Forfeit,
    Unknown,
}

impl Reason {
    pub const ALL: [Reason; 20] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::PerpetualCheck,
        Reason::Repetition,
        Reason::MoveCountRule,
        Reason::Five,
        Reason::Six,
        Reason::Three,
        Reason::FullBoard,
        Reason::TwoPasses,
        Reason::TooFewPieces,
        Reason::NoLegalMove,
        Reason::Resignation,
        Reason::Time,
        Reason::Agreement,
        Reason::Adjudication,
        Reason::Crash,
        Reason::IllegalMove,
        Reason::Forfeit,
        Reason::Unknown,
    ];

    /// The stable one-word name records and databases store (`perpetual-check`).
    pub fn code(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::Repetition => "repetition",
            Reason::MoveCountRule => "move-count",
            Reason::Five => "five",
            Reason::Six => "six",
            Reason::Three => "three",
            Reason::FullBoard => "full-board",
            Reason::TwoPasses => "two-passes",
            Reason::TooFewPieces => "too-few-pieces",
            Reason::NoLegalMove => "no-legal-move",
            Reason::Resignation => "resignation",
            Reason::Time => "time",
            Reason::Agreement => "agreement",
            Reason::Adjudication => "adjudication",
            Reason::Crash => "crash",
            Reason::IllegalMove => "illegal-move",
            Reason::Forfeit => "forfeit",
            Reason::Unknown => "unknown",
        }
    }

    /// The reason in words (`perpetual check`); empty for [`Reason::Unknown`].
    pub fn words(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual check",
            Reason::Repetition => "threefold repetition",
            Reason::MoveCountRule => "move-count rule",
            Reason::Five => "five in a row",
            Reason::Six => "six in a row",
            Reason::Three => "three in a row",
            Reason::FullBoard => "board full",
            Reason::TwoPasses => "two passes",
            Reason::TooFewPieces => "fewer than 4 pieces",
            Reason::NoLegalMove => "no legal move",
            Reason::Resignation => "resignation",
            Reason::Time => "time",
            Reason::Agreement => "agreement",
            Reason::Adjudication => "adjudication",
            Reason::Crash => "crash",
            Reason::IllegalMove => "illegal move",
            Reason::Forfeit => "forfeit",
            Reason::Unknown => "",
        }
    }

    /// Whether the rules of a game decide it (as opposed to the players or a referee).
    pub fn is_rule(self) -> bool {
        self < Reason::Resignation
    }

    /// The reason a code or words name, case-insensitively; `None` for anything else.
    pub fn parse(text: &str) -> Option<Reason> {
        let t = text.trim().to_ascii_lowercase();
        Reason::ALL
            .into_iter()
            .find(|r| r.code() == t || (!r.words().is_empty() && r.words() == t))
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Unknown => "unknown",
            r => r.words(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_have_distinct_codes_and_words_that_parse_back() {
        for r in Reason::ALL {
            assert_eq!(Reason::parse(r.code()), Some(r), "{r:?}");
            if r != Reason::Unknown {
                assert_eq!(Reason::parse(r.words()), Some(r), "{r:?}");
                assert_eq!(Reason::parse(&r.words().to_uppercase()), Some(r));
            }
        }
        assert_eq!(Reason::parse("red resigned"), None);
        assert!(Reason::Checkmate.is_rule() && Reason::NoLegalMove.is_rule());
        assert!(!Reason::Resignation.is_rule() && !Reason::Unknown.is_rule());
    }
}
