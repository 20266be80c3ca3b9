//! Jiu position text, move text and the text board (positions.md).
//!
//! Position: `<rows> <side> <phase> <placements-made> <moves-without-capture>`, e.g. the
//! start `14/14/14/14/14/14/14/14/14/14/14/14/14/14 w place 0 0`. The phase cannot be read
//! off the board (a battle position may hold as many pieces as a placement one), and neither
//! can the side to move in battle, so both are written. Placements made is the number of
//! pieces in the placement phase and 196 in battle; reading checks it. A position read from
//! text has no history: repetitions count from there.
//!
//! Moves: placement `g7`; battle `g6-g7` (step), `g6-g8` (jump), `f5-h5-h3` (chain),
//! `c3*k9` (flying), followed by ` x e6` per square capture in point order.

use super::board::{EMPTY, G7, H8, POINTS, SIZE, colour, index_of, point_of};
use super::moves::{self, JiuMove, Written};
use super::{Jiu, Phase, QUIET_DRAW};
use boyi_core::point::column_letter;
use boyi_core::{Game, Point, Side, TextError, text_err};
use std::fmt::Write;

pub fn write_position(pos: &Jiu) -> String {
    let mut rows = Vec::with_capacity(SIZE);
    for row in (0..SIZE as u8).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for col in 0..SIZE as u8 {
            let cell = pos.cells[index_of(Point::new(col, row)) as usize];
            if cell == EMPTY {
                empty += 1;
                continue;
            }
            if empty > 0 {
                write!(s, "{empty}").expect("writing to a String");
                empty = 0;
            }
            s.push(if cell == colour(Side::Black) {
                'x'
            } else {
                'o'
            });
        }
        if empty > 0 {
            write!(s, "{empty}").expect("writing to a String");
        }
        rows.push(s);
    }
    let phase = match pos.phase {
        Phase::Place => "place",
        Phase::Battle => "battle",
    };
    format!(
        "{} {} {phase} {} {}",
        rows.join("/"),
        pos.side.letter(),
        pos.placements,
        pos.quiet
    )
}

pub fn parse_position(text: &str) -> Result<Jiu, TextError> {
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 5 {
        return Err(text_err!(
            "jiu position text has {} fields separated by single spaces, expected 5: \
             <rows> <side> <place|battle> <placements-made> <moves-without-capture>",
            fields.len()
        ));
    }
    let mut pos = Jiu::new();
    parse_rows(&mut pos, fields[0])?;
    let side = Side::from_letter(fields[1])
        .ok_or_else(|| text_err!("side to move {:?} must be b or w", fields[1]))?;
    pos.set_side(side);
    match fields[2] {
        "place" => {}
        "battle" => pos.set_phase(Phase::Battle),
        other => return Err(text_err!("phase {other:?} must be place or battle")),
    }
    pos.placements = parse_number(fields[3], "placements made", POINTS)? as u8;
    pos.quiet = parse_number(fields[4], "moves without capture", QUIET_DRAW as usize)? as u8;
    match pos.phase {
        Phase::Place => check_placement_position(&pos)?,
        Phase::Battle => check_battle_position(&pos)?,
    }
    Ok(pos)
}

fn parse_number(s: &str, what: &str, max: usize) -> Result<usize, TextError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || (s.len() > 1 && s.starts_with('0'))
    {
        return Err(text_err!("{what} {s:?} must be a decimal number"));
    }
    match s.parse::<usize>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(text_err!("{what} {s} is more than {max}")),
    }
}

fn parse_rows(pos: &mut Jiu, text: &str) -> Result<(), TextError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIZE {
        return Err(text_err!(
            "the board has {} rows, expected {SIZE}",
            rows.len()
        ));
    }
    for (i, row_text) in rows.iter().enumerate() {
        let row = (SIZE - 1 - i) as u8;
        parse_row(pos, row, row_text).map_err(|e| e.context(format!("row {}", row + 1)))?;
    }
    Ok(())
}

fn parse_row(pos: &mut Jiu, row: u8, text: &str) -> Result<(), TextError> {
    let bytes = text.as_bytes();
    let mut col = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &text[start..i];
            if digits.starts_with('0') || digits.len() > 2 {
                return Err(text_err!("malformed count of empty points {digits:?}"));
            }
            col += digits.parse::<usize>().expect("one or two digits");
        } else {
            let side = match b {
                b'x' => Side::Black,
                b'o' => Side::White,
                _ => {
                    let c = text[i..].chars().next().expect("a character at i");
                    return Err(text_err!("unexpected {c:?} (expected x, o or a number)"));
                }
            };
            if col >= SIZE {
                return Err(text_err!("more than {SIZE} points"));
            }
            pos.put(index_of(Point::new(col as u8, row)), colour(side));
            col += 1;
            i += 1;
        }
        if col > SIZE {
            return Err(text_err!("more than {SIZE} points"));
        }
    }
    if col != SIZE {
        return Err(text_err!("has {col} points, expected {SIZE}"));
    }
    Ok(())
}

fn check_placement_position(pos: &Jiu) -> Result<(), TextError> {
    let n = pos.placements as usize;
    let (black, white) = (
        pos.pieces(Side::Black) as usize,
        pos.pieces(Side::White) as usize,
    );
    if black + white != n {
        return Err(text_err!(
            "the placement phase has {n} placements made but {} pieces on the board",
            black + white
        ));
    }
    if n == POINTS {
        return Err(text_err!(
            "a full board is in the battle phase (the 196th placement begins it)"
        ));
    }
    if white != n.div_ceil(2) || black != n / 2 {
        return Err(text_err!(
            "after {n} placements white has {} pieces and black {}, not {white} and {black}",
            n.div_ceil(2),
            n / 2
        ));
    }
    let to_move = if n.is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    };
    if pos.side != to_move {
        return Err(text_err!(
            "after {n} placements it is {}'s turn to place",
            Jiu::side_name(to_move)
        ));
    }
    if pos.quiet != 0 {
        return Err(text_err!(
            "moves without capture must be 0 in the placement phase"
        ));
    }
    let centre = [pos.cells[G7 as usize], pos.cells[H8 as usize]];
    let (w, b) = (colour(Side::White), colour(Side::Black));
    let centre_ok = match n {
        0 => true,
        1 => centre.contains(&w),
        _ => centre == [w, b] || centre == [b, w],
    };
    if !centre_ok {
        return Err(text_err!(
            "the first two placements are g7 and h8: white on one, then black on the other"
        ));
    }
    Ok(())
}

fn check_battle_position(pos: &Jiu) -> Result<(), TextError> {
    if pos.placements as usize != POINTS {
        return Err(text_err!(
            "the battle phase begins after all {POINTS} placements, not {}",
            pos.placements
        ));
    }
    for side in Side::BOTH {
        if pos.pieces(side) as usize > POINTS / 2 - 1 {
            return Err(text_err!(
                "{} has {} pieces; at most {} remain after the centre pieces leave",
                Jiu::side_name(side),
                pos.pieces(side),
                POINTS / 2 - 1
            ));
        }
    }
    if Side::BOTH
        .iter()
        .all(|&s| pos.pieces(s) < super::MIN_PIECES)
    {
        return Err(text_err!("both sides have fewer than 4 pieces"));
    }
    Ok(())
}

/// Splits move text into its points (strict syntax; legality is checked afterwards).
fn parse_written(text: &str) -> Result<Written, TextError> {
    let point = |s: &str| Point::parse(s, SIZE).map(index_of);
    // `<path>` then ` x <point>` per capture, single spaces.
    let mut tokens = text.split(' ');
    let body = tokens.next().unwrap_or_default();
    let mut captures = Vec::new();
    while let Some(sep) = tokens.next() {
        if sep != "x" {
            return Err(text_err!("expected \" x \" before each square capture"));
        }
        let p = tokens
            .next()
            .ok_or_else(|| text_err!("\" x \" must be followed by a point"))?;
        captures.push(point(p).map_err(|e| e.context("square capture"))?);
    }
    let (path, flying) = match body.split_once('*') {
        Some((a, b)) => (vec![point(a)?, point(b)?], true),
        None => (
            body.split('-').map(point).collect::<Result<Vec<_>, _>>()?,
            false,
        ),
    };
    Ok(Written {
        path,
        flying,
        captures,
    })
}

pub fn parse_move(pos: &Jiu, text: &str) -> Result<JiuMove, TextError> {
    let written = parse_written(text).map_err(|e| e.context(format!("move {text:?}")))?;
    moves::legal(pos, &written).map_err(|e| e.context(format!("illegal move {text:?}")))
}

pub fn format_move(pos: &Jiu, mv: &JiuMove) -> String {
    let mut s = String::with_capacity(16);
    if mv.is_placement() {
        push_point(&mut s, mv.to());
        return s;
    }
    let from = mv.from().expect("a battle move has an origin");
    if mv.jumped().next().is_none() {
        push_point(&mut s, from);
        s.push(if mv.is_flying() { '*' } else { '-' });
        push_point(&mut s, mv.to());
    } else {
        for (i, &p) in moves::canonical_path(pos, mv).iter().enumerate() {
            if i > 0 {
                s.push('-');
            }
            push_point(&mut s, point_of(p));
        }
    }
    for p in mv.captures() {
        s.push_str(" x ");
        push_point(&mut s, p);
    }
    s
}

/// Appends `h8` (as `Point`'s Display, without the formatting machinery: move text is
/// written for every legal move in tests and listings).
fn push_point(s: &mut String, p: Point) {
    s.push(column_letter(p.col as usize));
    let row = p.row + 1;
    if row >= 10 {
        s.push('1');
    }
    s.push((b'0' + row % 10) as char);
}

/// The board with coordinates (`x` black, `o` white, `.` empty), then the phase, the side to
/// move, the piece counts and the outcome.
pub fn render(pos: &Jiu) -> String {
    let mut s = String::new();
    for row in (0..SIZE as u8).rev() {
        write!(s, "{:>2} ", row + 1).expect("writing to a String");
        let cells: Vec<&str> = (0..SIZE as u8)
            .map(
                |col| match pos.cells[index_of(Point::new(col, row)) as usize] {
                    EMPTY => ".",
                    c if c == colour(Side::Black) => "x",
                    _ => "o",
                },
            )
            .collect();
        s.push_str(&cells.join(" "));
        s.push('\n');
    }
    let letters: Vec<String> = (0..SIZE).map(|c| column_letter(c).to_string()).collect();
    writeln!(s, "   {}", letters.join(" ")).expect("writing to a String");
    let phase = match pos.phase {
        Phase::Place => format!("placement ({} of {POINTS} made)", pos.placements),
        Phase::Battle => format!("battle ({} moves without capture)", pos.quiet),
    };
    writeln!(s, "phase: {phase}").expect("writing to a String");
    writeln!(
        s,
        "pieces: black {}, white {}",
        pos.pieces(Side::Black),
        pos.pieces(Side::White)
    )
    .expect("writing to a String");
    match pos.outcome() {
        Some(outcome) => writeln!(s, "game over: {outcome}"),
        None => writeln!(s, "{} to move", Jiu::side_name(pos.side)),
    }
    .expect("writing to a String");
    s
}
