//! Boyi's own record text (`.boyi`), for every game and the documented record format of Jiu.
//!
//! ```text
//! [Game "jiu"]
//! [Black "alice"]
//! [White "bob"]
//! [Result "black"]
//! [Reason "fewer than 4 pieces"]
//!
//! 1. g7
//! 2. h8 {1.250} ; a comment
//! ```
//! Tag lines `[Name "value"]` (value escapes `\"`, `\\`, `\n`), then one move per line:
//! ply number and dot, the move's canonical text, an optional thinking time in seconds in
//! braces, an optional comment after `;`. Known tags: Game (first, required), Variant, Size,
//! Start, Black, White, Result (`black`, `white`, `draw`, `*`), Reason, Date, Event, Site;
//! any other tag is kept. A file may hold several games, each from its `[Game` line.

use crate::record::{GameRecord, GameResult, RecordedMove};
use boyi_core::{TextError, text_err};
use boyi_games::GameKind;
use std::fmt::Write;

/// Reads every game of a Boyi text file.
pub fn read(text: &str) -> Result<Vec<GameRecord>, TextError> {
    let mut games: Vec<GameRecord> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: TextError| e.context(format!("line {}", i + 1));
        if line.starts_with('[') {
            let (name, value) = parse_tag(line).map_err(at)?;
            if name == "Game" {
                let kind: GameKind = value.parse().map_err(at)?;
                games.push(GameRecord::new(kind));
                continue;
            }
            let rec = games
                .last_mut()
                .ok_or_else(|| at(text_err!("a record begins with its [Game \"...\"] tag")))?;
            if !rec.moves.is_empty() {
                return Err(at(text_err!("tag {name} after the moves")));
            }
            set_tag(rec, &name, value).map_err(at)?;
        } else {
            let rec = games
                .last_mut()
                .ok_or_else(|| at(text_err!("a record begins with its [Game \"...\"] tag")))?;
            let mv = parse_move_line(line, rec.moves.len() + 1).map_err(at)?;
            rec.moves.push(mv);
        }
    }
    if games.is_empty() {
        return Err(text_err!("no [Game \"...\"] tag: not a Boyi record"));
    }
    Ok(games)
}

fn parse_tag(line: &str) -> Result<(String, String), TextError> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| text_err!("tag line {line:?} must be [Name \"value\"]"))?;
    let (name, quoted) = inner
        .split_once(' ')
        .ok_or_else(|| text_err!("tag line {line:?} must be [Name \"value\"]"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(text_err!("tag name {name:?} must be letters, digits or _"));
    }
    let quoted = quoted.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or_else(|| text_err!("value of tag {name} must be in double quotes"))?;
    Ok((name.to_string(), unescape(body)?))
}

fn unescape(s: &str) -> Result<String, TextError> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some(c @ ('"' | '\\')) => out.push(c),
                other => return Err(text_err!("bad escape \\{}", other.unwrap_or(' '))),
            },
            '"' => return Err(text_err!("unescaped \" inside a tag value")),
            c => out.push(c),
        }
    }
    Ok(out)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

fn set_tag(rec: &mut GameRecord, name: &str, value: String) -> Result<(), TextError> {
    match name {
        "Variant" => rec.variant = Some(value),
        "Size" => {
            rec.size = Some(
                value
                    .parse()
                    .map_err(|_| text_err!("Size {value:?} is not a number"))?,
            )
        }
        "Start" => rec.start = Some(value),
        "Black" => rec.black = value,
        "White" => rec.white = value,
        "Result" => {
            let reason = rec
                .result
                .take()
                .map(|r| r.reason)
                .or_else(|| rec.tags.remove("Reason"))
                .unwrap_or_default();
            rec.result = match value.as_str() {
                "*" => None,
                w => Some(GameResult {
                    reason,
                    ..GameResult::from_word(w)
                        .ok_or_else(|| text_err!("Result {w:?} must be black, white, draw or *"))?
                }),
            };
        }
        "Reason" => match &mut rec.result {
            Some(r) => r.reason = value,
            None => {
                rec.tags.insert("Reason".into(), value);
            }
        },
        "Date" => rec.date = value,
        "Event" => rec.event = value,
        "Site" => rec.site = value,
        other => {
            rec.tags.insert(other.to_string(), value);
        }
    }
    Ok(())
}

fn parse_move_line(line: &str, ply: usize) -> Result<RecordedMove, TextError> {
    let (main, comment) = match line.split_once(';') {
        Some((m, c)) => (m, Some(c.trim().to_string())),
        None => (line, None),
    };
    let (number, rest) = main
        .split_once('.')
        .ok_or_else(|| text_err!("move line {line:?} must start with its ply number and a dot"))?;
    if number.trim().parse::<usize>().ok() != Some(ply) {
        return Err(text_err!("move line {line:?}: expected ply {ply}"));
    }
    let (text, time_ms) = match rest.split_once('{') {
        Some((t, time)) => {
            let secs = time
                .trim()
                .strip_suffix('}')
                .ok_or_else(|| text_err!("time in {line:?} must end with }}"))?;
            (t, Some(parse_seconds(secs.trim())?))
        }
        None => (rest, None),
    };
    let text = text.trim();
    if text.is_empty() {
        return Err(text_err!("move line {line:?} has no move"));
    }
    Ok(RecordedMove {
        text: text.to_string(),
        time_ms,
        comment: comment.filter(|c| !c.is_empty()),
    })
}

/// Seconds with up to three decimals (`1.25`) as milliseconds.
pub fn parse_seconds(s: &str) -> Result<u64, TextError> {
    let bad = || text_err!("time {s:?} must be seconds such as 1.250");
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() || whole.len() > 9 || frac.len() > 3 {
        return Err(bad());
    }
    if !whole
        .bytes()
        .chain(frac.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let whole: u64 = whole.parse().map_err(|_| bad())?;
    let frac: u64 = format!("{frac:0<3}").parse().map_err(|_| bad())?;
    Ok(whole * 1000 + frac)
}

/// Milliseconds as seconds with three decimals.
pub fn format_seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// Writes games as Boyi text.
pub fn write(records: &[GameRecord]) -> String {
    let mut out = String::new();
    for (i, rec) in records.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_one(&mut out, rec);
    }
    out
}

fn write_one(out: &mut String, rec: &GameRecord) {
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Game", rec.game.name());
    if let Some(v) = &rec.variant {
        tag("Variant", v);
    }
    if let Some(n) = rec.size {
        tag("Size", &n.to_string());
    }
    if let Some(s) = &rec.start {
        tag("Start", s);
    }
    for (name, value) in [
        ("Black", &rec.black),
        ("White", &rec.white),
        ("Date", &rec.date),
        ("Event", &rec.event),
        ("Site", &rec.site),
    ] {
        if !value.is_empty() {
            tag(name, value);
        }
    }
    match &rec.result {
        Some(r) => {
            tag("Result", r.word());
            if !r.reason.is_empty() {
                tag("Reason", &r.reason);
            }
        }
        None => tag("Result", "*"),
    }
    for (name, value) in &rec.tags {
        tag(name, value);
    }
    out.push('\n');
    for (i, m) in rec.moves.iter().enumerate() {
        let _ = write!(out, "{}. {}", i + 1, m.text);
        if let Some(ms) = m.time_ms {
            let _ = write!(out, " {{{}}}", format_seconds(ms));
        }
        if let Some(c) = &m.comment {
            let _ = write!(out, " ; {}", c.replace(['\n', '\r'], " "));
        }
        out.push('\n');
    }
}
