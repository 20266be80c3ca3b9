//! WXF notation: `C2.5`, `H8+7`, `R+.3`, `P-+1`, `++.4`, `3+.4`.
//!
//! Piece letters K A E H R C P; the file is counted from the mover's right; `+` forward,
//! `-` backward, `.` sideways; last the destination file or the ranks moved. Several like
//! pieces on one file (WXF rules): two: `+`/`-` replace the file (`R+.3`); three pawns:
//! `P+`, `P<file>` (middle), `P-`; four: `++`, `P+`, `P-`, `--`; five: `++`, `P+`,
//! `P<file>`, `P-`, `--`; pawns doubled on two files: the file then `+`, the file again
//! (middle) or `-` (`3+.4`, `33.4`, `3-.4`).
//!
//! Input also takes lower case, `N`/`B`/`G`/`S` for horse, elephant, king and pawn, `=` for
//! `.`, the sign before the letter (`+R.3`, `-C-1`), and the plain file form of a tandem
//! piece when only one legal move matches it (`C3.5` where the rear cannon is meant).

use super::super::board::{Board, Kind, Move};
use super::super::movegen::MoveList;
use super::{Description, Direction, describe};
use boyi_core::{TextError, text_err};

fn letter(kind: Kind) -> char {
    match kind {
        Kind::King => 'K',
        Kind::Advisor => 'A',
        Kind::Elephant => 'E',
        Kind::Horse => 'H',
        Kind::Chariot => 'R',
        Kind::Cannon => 'C',
        Kind::Pawn => 'P',
    }
}

fn digit(n: u8) -> char {
    char::from(b'0' + n)
}

/// The WXF text of a legal move of the side to move.
pub fn format(board: &Board, m: Move) -> String {
    spell(&describe(board, m), true)
}

/// Spells a description; `tandem: false` gives the plain file form.
fn spell(d: &Description, tandem: bool) -> String {
    let l = letter(d.kind);
    let f = digit(d.file);
    let mut s = String::with_capacity(4);
    match d.tandem.filter(|_| tandem) {
        None => {
            s.push(l);
            s.push(f);
        }
        Some(t) if t.multi_file => {
            s.push(f);
            s.push(match t.index {
                0 => '+',
                i if i + 1 == t.count => '-',
                _ => f,
            });
        }
        Some(t) => {
            let (a, b) = match (t.count, t.index) {
                (2 | 3, 0) | (4 | 5, 1) => (l, '+'),
                (2, 1) | (3, 2) | (4, 2) | (5, 3) => (l, '-'),
                (3, 1) | (5, 2) => (l, f),
                (_, 0) => ('+', '+'),
                _ => ('-', '-'),
            };
            s.push(a);
            s.push(b);
        }
    }
    s.push(match d.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '.',
    });
    s.push(digit(d.target));
    s
}

/// Normalises accepted input to the canonical spelling.
fn normalise(text: &str) -> Result<String, TextError> {
    if !text.is_ascii() || text.len() != 4 {
        return Err(text_err!(
            "WXF move {text:?} must be four characters like C2.5 or H8+7"
        ));
    }
    let mut b: Vec<u8> = text
        .bytes()
        .map(|c| match c.to_ascii_uppercase() {
            b'N' => b'H',
            b'B' => b'E',
            b'G' => b'K',
            b'S' => b'P',
            b'=' => b'.',
            c => c,
        })
        .collect();
    if matches!(b[0], b'+' | b'-') && b[1].is_ascii_alphabetic() {
        b.swap(0, 1);
    }
    if !matches!(b[2], b'+' | b'-' | b'.') || !(b'1'..=b'9').contains(&b[3]) {
        return Err(text_err!(
            "WXF move {text:?}: the third character must be + - or . and the fourth a digit 1-9"
        ));
    }
    Ok(String::from_utf8(b).expect("ASCII"))
}

/// Parses WXF text against the legal moves.
pub fn parse(board: &Board, legal: &MoveList, text: &str) -> Result<Move, TextError> {
    let want = normalise(text)?;
    let descs: Vec<(Move, Description)> = legal.iter().map(|&m| (m, describe(board, m))).collect();
    if let Some((m, _)) = descs.iter().find(|(_, d)| spell(d, true) == want) {
        return Ok(*m);
    }
    let plain: Vec<Move> = descs
        .iter()
        .filter(|(_, d)| d.tandem.is_some() && spell(d, false) == want)
        .map(|(m, _)| *m)
        .collect();
    match plain.as_slice() {
        [m] => Ok(*m),
        [] => Err(text_err!("WXF move {text:?} is not a legal move here")),
        _ => Err(text_err!(
            "WXF move {text:?} is ambiguous: name the front or rear piece"
        )),
    }
}
