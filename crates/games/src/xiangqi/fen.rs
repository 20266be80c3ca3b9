//! FEN as Pikafish and Fairy-Stockfish write it:
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Six fields (placement, side, `-`, `-`, halfmove clock, move number); the last four may be
//! left out together. Placement letters: `k a b n r c p` (`e` and `h` are read as elephant
//! and horse), upper case red. Reading is strict: a side has at most the pieces of the game,
//! each on a square it can reach (king and advisors in the palace points, elephants on their
//! seven points, pawns not behind their start), and the side not to move is not in check.
//!
//! The halfmove clock counts plies since the last capture (pawn moves do not reset it, as
//! the 60-move rule of Xiangqi only looks at captures); it is at most 120.

use super::board::{Board, Kind, file_of, rank_of, square};
use boyi_core::{Side, TextError, text_err};

/// The start position.
pub const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The most plies without capture a position can carry (the game is then drawn).
pub const MAX_CLOCK: u32 = 120;

/// A parsed FEN: board, halfmove clock, move number.
pub struct Fen {
    pub board: Board,
    pub halfmove: u32,
    pub fullmove: u32,
}

pub fn parse(text: &str) -> Result<Fen, TextError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 2 && fields.len() != 6 {
        return Err(text_err!(
            "FEN has {} fields, expected 6 (placement, side, -, -, halfmove clock, move number) or the first 2",
            fields.len()
        ));
    }
    let side = match fields[1] {
        "w" => Side::White,
        "b" => Side::Black,
        other => {
            return Err(text_err!(
                "FEN side to move {other:?} must be w (red) or b (black)"
            ));
        }
    };
    let mut board = Board::empty(side);
    parse_placement(fields[0], &mut board)?;
    let (mut halfmove, mut fullmove) = (0, 1);
    if fields.len() == 6 {
        for (i, name) in [(2, "castling"), (3, "en passant")] {
            if fields[i] != "-" {
                return Err(text_err!("FEN {name} field {:?} must be -", fields[i]));
            }
        }
        halfmove = number(fields[4], "halfmove clock")?;
        if halfmove > MAX_CLOCK {
            return Err(text_err!(
                "FEN halfmove clock {halfmove} exceeds {MAX_CLOCK}"
            ));
        }
        fullmove = number(fields[5], "move number")?;
        if fullmove == 0 {
            return Err(text_err!("FEN move number must be at least 1"));
        }
    }
    if board.king_attacked(!side) {
        return Err(text_err!(
            "FEN placement: the side not to move ({}) is in check",
            if side == Side::White { "black" } else { "red" }
        ));
    }
    Ok(Fen {
        board,
        halfmove,
        fullmove,
    })
}

fn number(s: &str, name: &str) -> Result<u32, TextError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 6 {
        return Err(text_err!("FEN {name} {s:?} is not a number"));
    }
    Ok(s.parse().expect("at most six ASCII digits"))
}

fn parse_placement(text: &str, board: &mut Board) -> Result<(), TextError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 10 {
        return Err(text_err!(
            "FEN placement has {} ranks, expected 10",
            rows.len()
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = 9 - i;
        let mut file = 0;
        for ch in row.chars() {
            if let Some(n) = ch.to_digit(10).filter(|&n| n >= 1) {
                file += n as usize;
                continue;
            }
            let (side, kind) = piece_of_letter(ch).ok_or_else(|| {
                text_err!("FEN placement rank {rank} ({row:?}): {ch:?} is not a piece letter")
            })?;
            if file >= 9 {
                return Err(text_err!(
                    "FEN placement rank {rank} ({row:?}) has more than 9 files"
                ));
            }
            let s = square(file, rank);
            check_square(side, kind, file, rank)
                .map_err(|e| e.context(format!("FEN placement rank {rank} ({row:?})")))?;
            if !board.put(side, kind, s) {
                return Err(text_err!(
                    "FEN placement: {} has too many {kind:?} pieces",
                    side_word(side)
                ));
            }
            file += 1;
        }
        if file != 9 {
            return Err(text_err!(
                "FEN placement rank {rank} ({row:?}) has {file} files, expected 9"
            ));
        }
    }
    for side in [Side::White, Side::Black] {
        if board.squares_of(side, Kind::King).next().is_none() {
            return Err(text_err!("FEN placement: {} has no king", side_word(side)));
        }
    }
    Ok(())
}

fn side_word(side: Side) -> &'static str {
    if side == Side::White { "red" } else { "black" }
}

fn piece_of_letter(ch: char) -> Option<(Side, Kind)> {
    let side = if ch.is_ascii_uppercase() {
        Side::White
    } else {
        Side::Black
    };
    let kind = match ch.to_ascii_lowercase() {
        'k' => Kind::King,
        'a' => Kind::Advisor,
        'b' | 'e' => Kind::Elephant,
        'n' | 'h' => Kind::Horse,
        'r' => Kind::Chariot,
        'c' => Kind::Cannon,
        'p' => Kind::Pawn,
        _ => return None,
    };
    Some((side, kind))
}

/// Whether a piece of `kind` of `side` can ever stand on (file, rank).
fn check_square(side: Side, kind: Kind, file: usize, rank: usize) -> Result<(), TextError> {
    // Ranks seen from the piece's own side: 0 is its back rank.
    let r = if side == Side::White { rank } else { 9 - rank };
    let ok = match kind {
        Kind::King => r <= 2 && (3..=5).contains(&file),
        Kind::Advisor => matches!((file, r), (3 | 5, 0 | 2) | (4, 1)),
        Kind::Elephant => matches!((file, r), (2 | 6, 0 | 4) | (0 | 4 | 8, 2)),
        Kind::Pawn => r >= 5 || (r >= 3 && file.is_multiple_of(2)),
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        Err(text_err!(
            "a {} {kind:?} cannot stand on {}{rank}",
            side_word(side),
            (b'a' + file as u8) as char
        ))
    }
}

/// The FEN of a board with its clocks.
pub fn write(board: &Board, halfmove: u32, fullmove: u32) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match board.piece_at(square(file, rank)) {
                Some((side, kind)) => {
                    if empty > 0 {
                        out.push(char::from_digit(empty, 10).expect("at most 9"));
                        empty = 0;
                    }
                    out.push(kind.letter(side));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from_digit(empty, 10).expect("at most 9"));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = board.side_to_move().letter();
    out.push_str(&format!(" {side} - - {halfmove} {fullmove}"));
    out
}

/// The square named by a file letter and rank index (for tests and tools).
pub fn square_name(s: super::board::Square) -> String {
    format!("{}{}", (b'a' + file_of(s) as u8) as char, rank_of(s))
}
