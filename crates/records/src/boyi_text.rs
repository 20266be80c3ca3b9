//! Boyi's own record text (`.boyi`), for every game and the documented record format of Jiu.
//! It keeps everything the record model holds.
//!
//! ```text
//! [Game "jiu"]
//! [Black "alice"]
//! [White "boyi:strong"]
//! [WhiteSpec "boyi:strong"]
//! [Result "black"]
//! [Reason "too-few-pieces"]
//! [Date "2024-05-01"]
//!
//! 1. g7
//! 2. h8 {1.250} {eval 35 depth 12} ; a comment
//! ```
//! Tag lines `[Name "value"]` (value escapes `\"`, `\\`, `\n`), then one move per line:
//! ply number and dot, the move's canonical text, an optional thinking time in seconds in
//! braces, the mover's clock after it `{clock 83.500}`, an optional evaluation
//! `{eval SCORE [depth N]}` (SCORE as `35` or `mate 3`, the
//! mover's view), an optional comment after `;` (escapes `\\`, `\n`). Known tags: Game
//! (first, required), Variant, Size, Start, Black, White, BlackSpec, WhiteSpec, Result
//! (`black`, `white`, `draw`, `*`), Reason (a reason's code or words), ReasonText (what the
//! reason does not say), Date (`2024-05-01`, partial `2024-05`, `2024`), Event, Round, Site;
//! any other tag is kept. A file may hold several games, each from its `[Game` line.
//!
//! The records the server offered for download before this format was used there
//! (`[Result "black (red resigned)"]`, the moves on one line separated by commas) are read
//! too.

use crate::date::Date;
use crate::record::{GameRecord, GameResult, RecordedMove, parse_winner};
use boyi_core::{Reason, Score, Side, TextError, text_err};
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
            if !line.contains('.') && line.contains(',') {
                // The server's old download: every move on one line.
                rec.moves
                    .extend(line.split(',').map(|m| RecordedMove::new(m.trim())));
                continue;
            }
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
    Ok((name.to_string(), unescape(body, true)?))
}

/// Undoes [`escape`] (a tag value: `\"` and every other escape are required) or
/// [`escape_comment`] (a comment: an unknown escape keeps its backslash, as comments written
/// before escapes existed do).
fn unescape(s: &str, tag: bool) -> Result<String, TextError> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('\\') => out.push('\\'),
                Some('"') if tag => out.push('"'),
                other if tag => return Err(text_err!("bad escape \\{}", other.unwrap_or(' '))),
                Some(c) => {
                    out.push('\\');
                    out.push(c);
                }
                None => out.push('\\'),
            },
            '"' if tag => return Err(text_err!("unescaped \" inside a tag value")),
            c => out.push(c),
        }
    }
    Ok(out)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
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
        "Black" => rec.set_name(Side::Black, value),
        "White" => rec.set_name(Side::White, value),
        "BlackSpec" => rec.player_mut(Side::Black).spec = Some(value),
        "WhiteSpec" => rec.player_mut(Side::White).spec = Some(value),
        "Result" => {
            let (word, old_reason) = match value.split_once(" (") {
                Some((w, r)) => (w, r.strip_suffix(')').map(str::to_string)),
                None => (value.as_str(), None),
            };
            rec.result = match word {
                "*" | "unfinished" => None,
                w => {
                    let winner = parse_winner(w).map_err(|_| {
                        text_err!("Result {value:?} must be black, white, draw or *")
                    })?;
                    let mut r = GameResult::new(winner, Reason::Unknown);
                    if let Some(text) = old_reason {
                        r = GameResult::parse_text(winner, &text);
                    }
                    Some(r)
                }
            };
            apply_pending_reason(rec)?;
        }
        "Reason" | "ReasonText" => {
            rec.tags.insert(name.to_string(), value);
            apply_pending_reason(rec)?;
        }
        "Date" => rec.date = Some(Date::parse(&value)?),
        "Event" => rec.event = value,
        "Round" => rec.round = value,
        "Site" => rec.site = value,
        // The old download's table id.
        "Table" => {
            rec.tags.insert("Table".into(), value);
        }
        other => {
            rec.tags.insert(other.to_string(), value);
        }
    }
    Ok(())
}

/// Moves the Reason and ReasonText tags into the result once there is one.
fn apply_pending_reason(rec: &mut GameRecord) -> Result<(), TextError> {
    let Some(result) = &mut rec.result else {
        return Ok(());
    };
    if let Some(reason) = rec.tags.remove("Reason") {
        match Reason::parse(&reason) {
            Some(r) => result.outcome.reason = r,
            None => {
                let words = GameResult::parse_text(result.winner(), &reason);
                result.outcome.reason = words.reason();
                result.detail = words.detail;
            }
        }
    }
    if let Some(text) = rec.tags.remove("ReasonText") {
        result.detail = text;
    }
    Ok(())
}

fn parse_move_line(line: &str, ply: usize) -> Result<RecordedMove, TextError> {
    let (main, comment) = match line.split_once(';') {
        Some((m, c)) => (m, Some(unescape(c.trim(), false)?)),
        None => (line, None),
    };
    let (number, rest) = main
        .split_once('.')
        .ok_or_else(|| text_err!("move line {line:?} must start with its ply number and a dot"))?;
    if number.trim().parse::<usize>().ok() != Some(ply) {
        return Err(text_err!("move line {line:?}: expected ply {ply}"));
    }
    let (text, mut notes) = rest.split_once('{').unwrap_or((rest, ""));
    let text = text.trim();
    if text.is_empty() {
        return Err(text_err!("move line {line:?} has no move"));
    }
    let mut mv = RecordedMove::new(text);
    while !notes.trim().is_empty() {
        let (note, after) = notes
            .split_once('}')
            .ok_or_else(|| text_err!("{{ in {line:?} must end with }}"))?;
        let note = note.trim();
        if let Some(c) = note.strip_prefix("clock") {
            mv.clock_ms = Some(parse_seconds(c.trim())?);
        } else if let Some(d) = note.strip_prefix("depth") {
            mv.depth = Some(
                d.trim()
                    .parse()
                    .map_err(|_| text_err!("{line:?}: depth {d:?} is not a number"))?,
            );
        } else if let Some(eval) = note.strip_prefix("eval") {
            let (score, depth) = match eval.split_once("depth") {
                Some((s, d)) => (s, Some(d)),
                None => (eval, None),
            };
            mv.eval = Some(score.parse::<Score>().map_err(|e| e.context(line))?);
            mv.depth = depth
                .map(|d| {
                    d.trim()
                        .parse::<u32>()
                        .map_err(|_| text_err!("{line:?}: depth {d:?} is not a number"))
                })
                .transpose()?;
        } else {
            mv.time_ms = Some(parse_seconds(note)?);
        }
        notes = after.trim_start();
        if !notes.is_empty() {
            notes = notes
                .strip_prefix('{')
                .ok_or_else(|| text_err!("{line:?}: {notes:?} after the move's notes"))?;
        }
    }
    mv.comment = comment.filter(|c| !c.is_empty());
    Ok(mv)
}

fn escape_comment(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
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
    for side in Side::BOTH {
        let p = rec.player(side);
        let name = if side == Side::Black {
            "Black"
        } else {
            "White"
        };
        if !p.name.is_empty() {
            tag(name, &p.name);
        }
        if let Some(spec) = &p.spec {
            tag(&format!("{name}Spec"), spec);
        }
    }
    if let Some(d) = &rec.date {
        tag("Date", &d.to_string());
    }
    for (name, value) in [
        ("Event", &rec.event),
        ("Round", &rec.round),
        ("Site", &rec.site),
    ] {
        if !value.is_empty() {
            tag(name, value);
        }
    }
    match &rec.result {
        Some(r) => {
            tag("Result", r.winner_word());
            if r.reason() != Reason::Unknown {
                tag("Reason", r.reason().code());
            }
            if !r.detail.is_empty() {
                tag("ReasonText", &r.detail);
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
        if let Some(ms) = m.clock_ms {
            let _ = write!(out, " {{clock {}}}", format_seconds(ms));
        }
        if let Some(e) = m.eval {
            let _ = write!(out, " {{eval {e}");
            if let Some(d) = m.depth {
                let _ = write!(out, " depth {d}");
            }
            out.push('}');
        } else if let Some(d) = m.depth {
            let _ = write!(out, " {{depth {d}}}");
        }
        if let Some(c) = &m.comment {
            let _ = write!(out, " ; {}", escape_comment(c));
        }
        out.push('\n');
    }
}
