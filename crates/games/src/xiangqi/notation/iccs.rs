//! ICCS / UCI coordinates: `h2e2`, files `a`–`i` from red's left, ranks `0`–`9` from red's
//! side. Output is lower case without separator; input also takes upper case and the
//! `H2-E2` form of ICCS records.

use super::super::board::{Move, Square, file_of, rank_of, square};
use boyi_core::{TextError, text_err};

pub fn format(m: Move) -> String {
    format!("{}{}", name(m.from), name(m.to))
}

/// A move shows as its ICCS text (`h2e2`).
impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format(*self))
    }
}

fn name(s: Square) -> String {
    if s == 0 {
        return "--".to_string();
    }
    format!("{}{}", (b'a' + file_of(s) as u8) as char, rank_of(s))
}

/// Whether `text` has the shape of a coordinate move (so no other notation is tried).
pub fn looks_like(text: &str) -> bool {
    let b: Vec<u8> = text.bytes().filter(|&c| c != b'-').collect();
    b.len() == 4
        && b[0].is_ascii_alphabetic()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_alphabetic()
        && b[3].is_ascii_digit()
}

/// Parses the squares of a coordinate move (legality is the caller's business).
pub fn parse(text: &str) -> Result<Move, TextError> {
    let t = text.to_ascii_lowercase();
    let body = match t.len() {
        4 => t.clone(),
        5 if t.as_bytes()[2] == b'-' => t.replacen('-', "", 1),
        _ => return Err(text_err!("coordinate move {text:?} must look like h2e2")),
    };
    let b = body.as_bytes();
    let sq = |f: u8, r: u8| -> Result<Square, TextError> {
        if !(b'a'..=b'i').contains(&f) || !r.is_ascii_digit() {
            return Err(text_err!(
                "coordinate move {text:?}: {}{} is not a square (files a-i, ranks 0-9)",
                f as char,
                r as char
            ));
        }
        Ok(square((f - b'a') as usize, (r - b'0') as usize))
    };
    Ok(Move::new(sq(b[0], b[1])?, sq(b[2], b[3])?))
}
