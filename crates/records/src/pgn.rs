//! Xiangqi PGN: tag pairs, then numbered moves in ICCS (`H2-E2`), WXF (`C2.5`) or Chinese
//! (`炮二平五`) text, as the `[Format "ICCS" | "WXF" | "Chinese"]` tag says. Reading accepts
//! every notation whatever the tag says (the rules' move parser knows them all).
//!
//! Tags read: Red (the white side of Boyi's sides), Black, Result (`1-0` red wins, `0-1`,
//! `1/2-1/2`, `*`), FEN (start position), Date, Event, Site, Termination (the result's reason
//! in words); `Game` and `Format` are recognised and dropped, any other tag is kept.
//! Movetext: move numbers (`1.`, `1...`), comments `{…}` and `;…` (attached to the move
//! before them; `[%emt 1.250]` inside a comment is the move's thinking time in seconds),
//! NAGs (`$1`) and variations `(…)` are skipped; the result token ends the game. Several
//! games may follow one another.

use crate::boyi_text::{format_seconds, parse_seconds};
use crate::record::{GameRecord, GameResult};
use boyi_core::{Game, Side, TextError, text_err};
use boyi_games::GameKind;
use boyi_games::xiangqi::Xiangqi;
use std::fmt::Write;

/// The move notation of written PGN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

impl Notation {
    fn tag(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }
}

/// Reads every game of a PGN file.
pub fn read(text: &str) -> Result<Vec<GameRecord>, TextError> {
    let mut games = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let (rec, used) =
            read_one(rest).map_err(|e| e.context(format!("PGN game {}", games.len() + 1)))?;
        games.push(rec);
        rest = &rest[used..];
    }
    if games.is_empty() {
        return Err(text_err!("no PGN game"));
    }
    Ok(games)
}

/// Reads one game from the start of `text`; returns it and the bytes it used.
fn read_one(text: &str) -> Result<(GameRecord, usize), TextError> {
    let mut rec = GameRecord::new(GameKind::Xiangqi);
    let mut i = 0;
    // Tag pairs.
    loop {
        let line_end = text[i..].find('\n').map_or(text.len(), |n| i + n);
        let line = text[i..line_end].trim();
        if line.starts_with('[') {
            read_tag(&mut rec, line)?;
            i = (line_end + 1).min(text.len());
        } else if line.is_empty() && i < text.len() {
            i = (line_end + 1).min(text.len());
        } else {
            break;
        }
    }
    let used = read_movetext(&mut rec, &text[i..])?;
    Ok((rec, i + used))
}

fn read_tag(rec: &mut GameRecord, line: &str) -> Result<(), TextError> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| text_err!("tag {line:?} must be [Name \"value\"]"))?;
    let (name, value) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| text_err!("tag {line:?} must be [Name \"value\"]"))?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| text_err!("value of tag {name} must be in double quotes"))?
        .replace("\\\"", "\"")
        .replace("\\\\", "\\");
    match name {
        "Red" | "White" => rec.white = value,
        "Black" => rec.black = value,
        "FEN" => rec.start = Some(value),
        "Date" => rec.date = value,
        "Event" => rec.event = value,
        "Site" => rec.site = value,
        "Result" => {
            let reason = rec.result.take().map(|r| r.reason).unwrap_or_default();
            rec.result = result_of(&value)?.map(|r| GameResult { reason, ..r });
        }
        "Termination" => match &mut rec.result {
            Some(r) => r.reason = value,
            None => {
                rec.tags.insert("Termination".into(), value);
            }
        },
        "Game" | "Format" => {}
        other => {
            rec.tags.insert(other.to_string(), value);
        }
    }
    if let (Some(r), Some(t)) = (&mut rec.result, rec.tags.get("Termination")) {
        r.reason = t.clone();
        rec.tags.remove("Termination");
    }
    Ok(())
}

fn result_of(token: &str) -> Result<Option<GameResult>, TextError> {
    match token {
        "1-0" => Ok(Some(GameResult::win(Side::White, ""))),
        "0-1" => Ok(Some(GameResult::win(Side::Black, ""))),
        "1/2-1/2" => Ok(Some(GameResult::draw(""))),
        "*" => Ok(None),
        other => Err(text_err!("result {other:?} must be 1-0, 0-1, 1/2-1/2 or *")),
    }
}

/// Reads moves up to the result token (or the next game's tags, or the end).
fn read_movetext(rec: &mut GameRecord, text: &str) -> Result<usize, TextError> {
    let mut chars = text.char_indices().peekable();
    let mut token = String::new();
    while let Some((at, c)) = chars.next() {
        let ends_token = c.is_whitespace() || matches!(c, '{' | '(' | ';' | '[');
        if ends_token && !token.is_empty() && finish_token(rec, &std::mem::take(&mut token))? {
            return Ok(at);
        }
        match c {
            '{' => {
                let mut body = String::new();
                loop {
                    match chars.next() {
                        Some((_, '}')) => break,
                        Some((_, ch)) => body.push(ch),
                        None => return Err(text_err!("a comment {{ has no closing }}")),
                    }
                }
                attach_comment(rec, &body)?;
            }
            ';' => {
                let mut body = String::new();
                while let Some(&(_, ch)) = chars.peek() {
                    if ch == '\n' {
                        break;
                    }
                    body.push(ch);
                    chars.next();
                }
                attach_comment(rec, &body)?;
            }
            '(' => {
                let mut depth = 1;
                while depth > 0 {
                    match chars.next() {
                        Some((_, '(')) => depth += 1,
                        Some((_, ')')) => depth -= 1,
                        Some(_) => {}
                        None => return Err(text_err!("a variation ( has no closing )")),
                    }
                }
            }
            '[' if token.is_empty() => return Ok(at),
            c if c.is_whitespace() => {}
            c => token.push(c),
        }
    }
    if !token.is_empty() {
        finish_token(rec, &token)?;
    }
    Ok(text.len())
}

/// Handles one movetext token; `true` when it is the result that ends the game.
fn finish_token(rec: &mut GameRecord, token: &str) -> Result<bool, TextError> {
    if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
        if rec.result.is_none() {
            rec.result = result_of(token)?;
        }
        return Ok(true);
    }
    if token.starts_with('$') {
        return Ok(false);
    }
    let mv = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let mv = if mv.len() < token.len() {
        mv.trim_start_matches('.')
    } else {
        mv
    };
    if !mv.is_empty() {
        rec.push(mv.trim_end_matches(['!', '?']));
    }
    Ok(false)
}

fn attach_comment(rec: &mut GameRecord, body: &str) -> Result<(), TextError> {
    let mut text = body.trim().to_string();
    let mut time = None;
    if let Some(start) = text.find("[%emt") {
        let end = text[start..]
            .find(']')
            .ok_or_else(|| text_err!("[%emt has no closing ]"))?;
        time = Some(parse_seconds(text[start + 5..start + end].trim())?);
        text.replace_range(start..start + end + 1, "");
        text = text.trim().to_string();
    }
    if let Some(m) = rec.moves.last_mut() {
        if time.is_some() {
            m.time_ms = time;
        }
        if !text.is_empty() {
            m.comment = Some(match m.comment.take() {
                Some(c) => format!("{c} {text}"),
                None => text,
            });
        }
    } else if !text.is_empty() {
        rec.tags.insert("Comment".into(), text);
    }
    Ok(())
}

/// Writes checked Xiangqi records as PGN in `notation`.
pub fn write(records: &[GameRecord], notation: Notation) -> Result<String, TextError> {
    let mut out = String::new();
    for rec in records {
        write_one(&mut out, rec, notation)?;
        out.push('\n');
    }
    Ok(out)
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', " ")
}

fn write_one(out: &mut String, rec: &GameRecord, notation: Notation) -> Result<(), TextError> {
    if rec.game != GameKind::Xiangqi {
        return Err(text_err!("PGN is written for xiangqi, not {}", rec.game));
    }
    let result = match rec.result.as_ref().map(|r| r.winner) {
        Some(Some(Side::White)) => "1-0",
        Some(Some(Side::Black)) => "0-1",
        Some(None) => "1/2-1/2",
        None => "*",
    };
    let mut tag = |n: &str, v: &str| {
        let _ = writeln!(out, "[{n} \"{}\"]", esc(v));
    };
    tag("Game", "Chinese Chess");
    for (n, v) in [
        ("Event", &rec.event),
        ("Site", &rec.site),
        ("Date", &rec.date),
        ("Red", &rec.white),
        ("Black", &rec.black),
    ] {
        tag(n, v);
    }
    tag("Result", result);
    if let Some(fen) = &rec.start {
        tag("FEN", fen);
    }
    tag("Format", notation.tag());
    if let Some(r) = rec.result.as_ref().filter(|r| !r.reason.is_empty()) {
        tag("Termination", &r.reason);
    }
    for (n, v) in &rec.tags {
        tag(n, v);
    }
    out.push('\n');
    let tokens = movetext(rec, notation)?;
    let mut line = String::new();
    for t in tokens
        .into_iter()
        .chain(std::iter::once(result.to_string()))
    {
        if !line.is_empty() && line.chars().count() + t.chars().count() > 78 {
            let _ = writeln!(out, "{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    let _ = writeln!(out, "{line}");
    Ok(())
}

fn movetext(rec: &GameRecord, notation: Notation) -> Result<Vec<String>, TextError> {
    let mut pos: Xiangqi = crate::replay::start_position(rec)?;
    let mut tokens = Vec::new();
    let mut number = 1;
    for (i, m) in rec.moves.iter().enumerate() {
        let mv = pos
            .parse_move(&m.text)
            .map_err(|e| e.context(format!("ply {}", i + 1)))?;
        let red = pos.side_to_move() == Side::White;
        if red {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(match notation {
            Notation::Iccs => {
                let t = pos.format_move(&mv).to_ascii_uppercase();
                format!("{}-{}", &t[..2], &t[2..])
            }
            Notation::Wxf => pos.format_wxf(&mv),
            Notation::Chinese => pos.format_chinese(&mv),
        });
        let mut comment = Vec::new();
        if let Some(ms) = m.time_ms {
            comment.push(format!("[%emt {}]", format_seconds(ms)));
        }
        if let Some(c) = &m.comment {
            comment.push(c.replace(['{', '}'], ""));
        }
        if !comment.is_empty() {
            tokens.push(format!("{{{}}}", comment.join(" ")));
        }
        if !red {
            number += 1;
        }
        pos.play(&mv);
    }
    Ok(tokens)
}
