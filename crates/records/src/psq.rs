//! Gomocup / Piskvork `.psq` records (Gomoku only).
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0
//! 8,8,1250
//! 9,9,830
//! alice
//! bob
//! ```
//! The first line names the board (`WxH`, square boards only); then one line per stone
//! `x,y,ms`: column from the left and row from the top, both from 1, and the thinking time
//! in milliseconds (the time may be missing). Black moves first. The moves end at the first
//! other line; what follows is read as the players (black, then white) when it is two lines
//! of names, and otherwise ignored (Gomocup's trailers vary by tool). No pass, no rule name:
//! the variant is `freestyle` unless the caller says otherwise.

use crate::record::{GameRecord, RecordedMove};
use boyi_core::{Point, Side, TextError, text_err};
use boyi_games::GameKind;
use std::fmt::Write;

/// Reads one `.psq` game.
pub fn read(text: &str) -> Result<GameRecord, TextError> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let header = lines.next().ok_or_else(|| text_err!("empty .psq file"))?;
    let size = read_header(header)?;
    let mut rec = GameRecord::new(GameKind::Gomoku);
    rec.size = (size != 15).then_some(size);
    let mut trailer = Vec::new();
    for (i, line) in lines.enumerate() {
        let is_move = line.contains(',')
            && line
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b',' || b == b' ');
        if !trailer.is_empty() || !is_move {
            trailer.push(line);
            continue;
        }
        let mv = read_move(line, size).map_err(|e| e.context(format!("move {}", i + 1)))?;
        rec.moves.push(mv);
    }
    let names: Vec<&str> = trailer
        .iter()
        .copied()
        .filter(|l| l.parse::<i64>().is_err())
        .collect();
    if names.len() == 2 {
        // An unknown player is written as `?`.
        let name = |n: &str| {
            if n == "?" {
                String::new()
            } else {
                n.to_string()
            }
        };
        rec.set_name(Side::Black, name(names[0]));
        rec.set_name(Side::White, name(names[1]));
    }
    Ok(rec)
}

fn read_header(line: &str) -> Result<usize, TextError> {
    let bad = || text_err!("first line {line:?} must be like \"Piskvorky 15x15, 11:11, 0\"");
    let rest = line.strip_prefix("Piskvorky").ok_or_else(bad)?.trim_start();
    let dims = rest.split(',').next().ok_or_else(bad)?.trim();
    let (w, h) = dims.split_once('x').ok_or_else(bad)?;
    let (w, h): (usize, usize) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if w != h {
        return Err(text_err!("board {w}x{h} is not square"));
    }
    if !(5..=26).contains(&w) {
        return Err(text_err!("board size {w} is outside 5..=26"));
    }
    Ok(w)
}

fn read_move(line: &str, size: usize) -> Result<RecordedMove, TextError> {
    let parts: Vec<&str> = line.split(',').map(str::trim).collect();
    let num = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| text_err!("{line:?}: {s:?} is not a number"))
    };
    let (x, y, time_ms) = match parts[..] {
        [x, y] => (num(x)?, num(y)?, None),
        [x, y, t] => (num(x)?, num(y)?, Some(num(t)? as u64)),
        _ => return Err(text_err!("{line:?} must be x,y,milliseconds")),
    };
    if x == 0 || y == 0 {
        return Err(text_err!("{line:?}: coordinates count from 1"));
    }
    let p = Point::from_gomocup(x - 1, y - 1, size)?;
    Ok(RecordedMove {
        time_ms,
        ..RecordedMove::new(p.to_string())
    })
}

/// Writes a checked Gomoku record of a `size` board as `.psq`.
pub fn write(rec: &GameRecord, size: usize) -> Result<String, TextError> {
    if rec.game != GameKind::Gomoku {
        return Err(text_err!(".psq holds gomoku games, not {}", rec.game));
    }
    if rec.start.is_some() {
        return Err(text_err!(".psq cannot hold a set-up start position"));
    }
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for (i, m) in rec.moves.iter().enumerate() {
        if m.text == "pass" {
            return Err(text_err!("ply {}: .psq has no pass", i + 1));
        }
        let (x, y) = Point::parse(&m.text, size)?.to_gomocup(size);
        let _ = writeln!(out, "{},{},{}", x + 1, y + 1, m.time_ms.unwrap_or(0));
    }
    let (black, white) = (rec.name(Side::Black), rec.name(Side::White));
    if !black.is_empty() || !white.is_empty() {
        let name = |s: &str| {
            if s.is_empty() {
                "?".to_string()
            } else {
                s.replace('\n', " ")
            }
        };
        let _ = writeln!(out, "{}\n{}", name(black), name(white));
    }
    Ok(out)
}
