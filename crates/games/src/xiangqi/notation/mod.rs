//! Move text: ICCS coordinates (canonical), WXF and Chinese notation.
//!
//! WXF and Chinese describe a move relative to the mover: the piece, the file it stands on
//! (counted 1–9 from the mover's right), the direction (forward, backward, sideways) and the
//! destination file or the number of ranks moved. [`describe`] computes that description
//! once; [`wxf`] and [`chinese`] spell it. Parsing spells every legal move and picks the one
//! whose text matches, so every accepted form round-trips by construction. The forms are
//! documented in `docs/notation-xiangqi.md`.

pub mod chinese;
pub mod iccs;
pub mod wxf;

use super::board::{Board, Kind, Move, file_of, rank_of};
use boyi_core::Side;

/// Forward, backward or sideways, from the mover's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Backward,
    Sideways,
}

/// Which of several like pieces on one file moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tandem {
    /// 0 for the front piece (nearest the opponent).
    pub index: usize,
    /// How many like pieces stand on the file (2–5).
    pub count: usize,
    /// Pawns only: another file also holds two or more of the mover's pawns, so the file
    /// must be named too.
    pub multi_file: bool,
}

/// A move as the relative notations see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Description {
    pub side: Side,
    pub kind: Kind,
    /// The file the piece leaves, 1–9 from the mover's right.
    pub file: u8,
    pub direction: Direction,
    /// The destination file (sideways moves and the diagonal movers: advisor, elephant,
    /// horse) or the number of ranks moved.
    pub target: u8,
    pub tandem: Option<Tandem>,
}

/// The file of board file `f` (0 = `a`) counted from `side`'s right, 1–9.
pub fn relative_file(side: Side, f: usize) -> u8 {
    if side == Side::White {
        9 - f as u8
    } else {
        f as u8 + 1
    }
}

/// Describes a move of the side to move (the move must be of one of its pieces).
pub fn describe(board: &Board, m: Move) -> Description {
    let (side, kind) = board.piece_at(m.from).expect("a move starts on a piece");
    let (ff, fr) = (file_of(m.from), rank_of(m.from));
    let (tf, tr) = (file_of(m.to), rank_of(m.to));
    let up = if side == Side::White {
        tr > fr
    } else {
        tr < fr
    };
    let direction = if tr == fr {
        Direction::Sideways
    } else if up {
        Direction::Forward
    } else {
        Direction::Backward
    };
    let straight = matches!(kind, Kind::King | Kind::Chariot | Kind::Cannon | Kind::Pawn);
    let target = if direction == Direction::Sideways || !straight {
        relative_file(side, tf)
    } else {
        fr.abs_diff(tr) as u8
    };
    Description {
        side,
        kind,
        file: relative_file(side, ff),
        direction,
        target,
        tandem: tandem(board, side, kind, m),
    }
}

fn tandem(board: &Board, side: Side, kind: Kind, m: Move) -> Option<Tandem> {
    let ff = file_of(m.from);
    // Front first: the piece nearest the opponent.
    let advance = |s| {
        if side == Side::White {
            9 - rank_of(s)
        } else {
            rank_of(s)
        }
    };
    let mut on_file: Vec<_> = board
        .squares_of(side, kind)
        .filter(|&s| file_of(s) == ff)
        .collect();
    if on_file.len() < 2 {
        return None;
    }
    on_file.sort_by_key(|&s| advance(s));
    let index = on_file
        .iter()
        .position(|&s| s == m.from)
        .expect("the mover is on its file");
    let multi_file = kind == Kind::Pawn && {
        let mut per_file = [0u8; 9];
        for s in board.squares_of(side, kind) {
            per_file[file_of(s)] += 1;
        }
        per_file.iter().enumerate().any(|(f, &n)| f != ff && n >= 2)
    };
    Some(Tandem {
        index,
        count: on_file.len(),
        multi_file,
    })
}
