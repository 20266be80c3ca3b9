//! The Connect6 championship record text:
//! `{[C6][black B][white W][先手胜][2018.08.04 14:00 place][event];B(J,10);W(K,10);W(L,11)…}`.
//!
//! Six bracketed header fields: the game tag `C6`, the black and white players (a trailing
//! ` B` / ` W` is the colour mark and not part of the name), the result (`先手胜` black wins,
//! `后手胜` white wins, `平局` or `和棋` draw, anything else or empty: unknown), the date and
//! place separated by the last space, and the event. Then one entry per stone, `B(J,10)`:
//! colour, column letter from `A`, row number from 1 at the bottom (as Boyi writes points);
//! a turn's two stones are two entries of one colour. A mark suffix (`MARK[1]`) is ignored.
//! A file may hold several records one after another.

use crate::date::Date;
use crate::record::{GameRecord, GameResult, RecordedMove};
use crate::sgf::group_turns;
use boyi_core::Game;
use boyi_core::{Point, Reason, Side, TextError, text_err};
use boyi_games::GameKind;
use boyi_games::connect6::Connect6;
use std::fmt::Write;

/// Reads every record of a championship text file.
pub fn read(text: &str) -> Result<Vec<GameRecord>, TextError> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let body = rest
            .strip_prefix('{')
            .ok_or_else(|| text_err!("a Connect6 record starts with '{{'"))?;
        let end = body
            .find('}')
            .ok_or_else(|| text_err!("a Connect6 record ends with '}}'"))?;
        let rec =
            read_one(&body[..end]).map_err(|e| e.context(format!("record {}", out.len() + 1)))?;
        out.push(rec);
        rest = body[end + 1..].trim_start();
    }
    if out.is_empty() {
        return Err(text_err!("no Connect6 record"));
    }
    Ok(out)
}

fn read_one(body: &str) -> Result<GameRecord, TextError> {
    let mut entries = body.split(';');
    let header = entries.next().unwrap_or("");
    let fields = header_fields(header)?;
    if fields.len() != 6 || !fields[0].eq_ignore_ascii_case("c6") {
        return Err(text_err!(
            "header {header:?} must be six fields [C6][black][white][result][date place][event]"
        ));
    }
    let mut rec = GameRecord::new(GameKind::Connect6);
    rec.set_name(Side::Black, strip_mark(&fields[1], " B"));
    rec.set_name(Side::White, strip_mark(&fields[2], " W"));
    rec.result = match fields[3].trim() {
        "先手胜" => Some(GameResult::win(Side::Black, Reason::Unknown)),
        "后手胜" => Some(GameResult::win(Side::White, Reason::Unknown)),
        "平局" | "和棋" => Some(GameResult::draw(Reason::Unknown)),
        _ => None,
    };
    read_when(&mut rec, &fields[4]);
    rec.event = fields[5].trim().to_string();
    let mut stones = Vec::new();
    for (i, e) in entries.map(str::trim).filter(|e| !e.is_empty()).enumerate() {
        let (side, p) = read_stone(e).map_err(|err| err.context(format!("stone {}", i + 1)))?;
        stones.push((side, Some(p), RecordedMove::default()));
    }
    rec.moves = group_turns(GameKind::Connect6, stones)?;
    Ok(rec)
}

/// `2018.08.04 14:00 place`: the date (else the tag `DateText`), an optional time of day
/// (the tag `Time`) and the place, each part optional.
fn read_when(rec: &mut GameRecord, field: &str) {
    let mut rest = field.trim();
    let next = |rest: &mut &str| -> String {
        let (head, tail) = rest.split_once(' ').unwrap_or((rest, ""));
        let head = head.to_string();
        *rest = tail.trim_start();
        head
    };
    if rest.is_empty() {
        return;
    }
    let first = rest.split(' ').next().unwrap_or("");
    if first.starts_with(|c: char| c.is_ascii_digit() || c == '?') {
        let date = next(&mut rest);
        match Date::parse(&date) {
            Ok(d) => rec.date = Some(d),
            Err(_) => {
                rec.tags.insert("DateText".into(), date);
            }
        }
        let time = rest.split(' ').next().unwrap_or("");
        if time.len() == 5 && time.as_bytes()[2] == b':' {
            let time = next(&mut rest);
            rec.tags.insert("Time".into(), time);
        }
    }
    rec.site = rest.to_string();
}

fn header_fields(header: &str) -> Result<Vec<String>, TextError> {
    let mut fields = Vec::new();
    let mut rest = header.trim();
    while let Some(r) = rest.strip_prefix('[') {
        let end = r
            .find(']')
            .ok_or_else(|| text_err!("header field without ']'"))?;
        fields.push(r[..end].to_string());
        rest = r[end + 1..].trim_start();
    }
    if !rest.is_empty() {
        return Err(text_err!("unexpected {rest:?} in the header"));
    }
    Ok(fields)
}

/// A player field without its colour mark (`alice B`, or `B` alone for no name).
fn strip_mark(field: &str, mark: &str) -> String {
    let f = field.trim();
    if f == mark.trim() {
        return String::new();
    }
    f.strip_suffix(mark).unwrap_or(f).trim().to_string()
}

fn read_stone(e: &str) -> Result<(Side, Point), TextError> {
    let side = match e.chars().next() {
        Some('B') => Side::Black,
        Some('W') => Side::White,
        _ => return Err(text_err!("{e:?} must start with B or W")),
    };
    let inner = e[1..]
        .strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .filter(|(_, tail)| tail.is_empty() || tail.starts_with("MARK["))
        .map(|(inside, _)| inside)
        .ok_or_else(|| text_err!("{e:?} must be like B(J,10)"))?;
    let (col, row) = inner
        .split_once(',')
        .ok_or_else(|| text_err!("{e:?} must be like B(J,10)"))?;
    let p =
        Point::parse(&format!("{}{}", col.trim(), row.trim()), 19).map_err(|err| err.context(e))?;
    Ok((side, p))
}

/// Writes checked Connect6 records (19×19) as championship text, one per line.
pub fn write(records: &[GameRecord]) -> Result<String, TextError> {
    let mut out = String::new();
    for rec in records {
        write_one(&mut out, rec)?;
        out.push('\n');
    }
    Ok(out)
}

fn clean(s: &str) -> String {
    s.replace(['[', ']', '{', '}', ';', '\n'], " ")
}

fn write_one(out: &mut String, rec: &GameRecord) -> Result<(), TextError> {
    if rec.game != GameKind::Connect6 {
        return Err(text_err!(
            "the championship text holds connect6 games, not {}",
            rec.game
        ));
    }
    if rec.start.is_some() || rec.size.is_some_and(|s| s != 19) {
        return Err(text_err!(
            "the championship text holds games from the empty 19x19 board"
        ));
    }
    let default = <Connect6 as Game>::VARIANTS[0];
    if let Some(v) = rec.variant.as_deref().filter(|v| *v != default) {
        return Err(text_err!(
            "the championship text holds games of the {default} rules, not {v}"
        ));
    }
    let result = match rec.result.as_ref().map(GameResult::winner) {
        Some(Some(Side::Black)) => "先手胜",
        Some(Some(Side::White)) => "后手胜",
        Some(None) => "平局",
        None => "",
    };
    let date = rec.date.map(|d| d.pgn()).unwrap_or_default();
    let time = rec.tags.get("Time").map(|t| clean(t)).unwrap_or_default();
    let when = [date, time, clean(&rec.site)]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let _ = write!(
        out,
        "{{[C6][{} B][{} W][{result}][{when}][{}]",
        clean(rec.name(Side::Black)),
        clean(rec.name(Side::White)),
        clean(&rec.event)
    );
    let mut side = Side::Black;
    for m in &rec.moves {
        for s in m.text.split_whitespace() {
            let p = Point::parse(s, 19)?;
            let colour = if side == Side::Black { 'B' } else { 'W' };
            let col = (b'A' + p.col) as char;
            let _ = write!(out, ";{colour}({col},{})", p.row + 1);
        }
        side = !side;
    }
    out.push('}');
    Ok(())
}
