//! Xiangqi PGN: tag pairs, then numbered moves in ICCS (`H2-E2`), WXF (`C2.5`) or Chinese
//! (`炮二平五`) text, as the `[Format "ICCS" | "WXF" | "Chinese"]` tag says. Reading accepts
//! every notation whatever the tag says (the rules' move parser knows them all).
//!
//! Tags read: Red (the white side of Boyi's sides), Black, Result (`1-0` red wins, `0-1`,
//! `1/2-1/2`, `*`), FEN (start position), Date (`2019.05.01`, `2019.??.??`; a date that does
//! not read is kept in the tag `DateText`), Event, Round, Site, Termination (the result's
//! reason in words, [`crate::GameResult::text`]); `Game` and `Format` are recognised and
//! dropped, any other tag is kept. Movetext: move numbers (`1.`, `1...`), comments `{…}` and
//! `;…` (attached to the move before them; inside a comment `[%emt 1.250]` is the move's
//! thinking time in seconds, `[%clk 0:01:23.5]` the mover's clock after it, and `[%eval 0.35,12]` its evaluation in hundreds of the engine's
//! units, `#3` for a mate, with the depth after the comma), NAGs (`$1`) and variations `(…)`
//! are skipped; the result token ends the game. Several games may follow one another.

use crate::boyi_text::{format_seconds, parse_seconds};
use crate::date::Date;
use crate::record::{GameRecord, GameResult};
use boyi_core::{Game, Reason, Score, Side, TextError, text_err};
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
        "Red" | "White" => rec.set_name(Side::White, value),
        "Black" => rec.set_name(Side::Black, value),
        "FEN" => rec.start = Some(value),
        "Date" => match Date::parse(&value) {
            Ok(d) => rec.date = Some(d),
            Err(_) if value.trim().is_empty() || value.trim() == "????.??.??" => {}
            Err(_) => {
                rec.tags.insert("DateText".into(), value);
            }
        },
        "Event" => rec.event = value,
        "Round" => rec.round = value,
        "Site" => rec.site = value,
        "Result" => {
            let old = rec.result.take();
            rec.result = result_of(&value)?.map(|r| match old {
                Some(o) => GameResult::parse_text(r.winner(), &o.text()),
                None => r,
            });
        }
        "Termination" => match &mut rec.result {
            Some(r) => *r = GameResult::parse_text(r.winner(), &value),
            None => {
                rec.tags.insert("Termination".into(), value);
            }
        },
        "Game" | "Format" => {}
        other => {
            rec.tags.insert(other.to_string(), value);
        }
    }
    if let (Some(r), Some(t)) = (&mut rec.result, rec.tags.remove("Termination")) {
        *r = GameResult::parse_text(r.winner(), &t);
    }
    Ok(())
}

fn result_of(token: &str) -> Result<Option<GameResult>, TextError> {
    match token {
        "1-0" => Ok(Some(GameResult::win(Side::White, Reason::Unknown))),
        "0-1" => Ok(Some(GameResult::win(Side::Black, Reason::Unknown))),
        "1/2-1/2" => Ok(Some(GameResult::draw(Reason::Unknown))),
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
    // A move number is digits and dots (`12.`, `12...`), maybe with the move glued on
    // (`12.h2e2`). WXF moves of pawns doubled on a file also start with a digit (`5++1`,
    // `33.4`): a number is taken off only where dots follow the digits and what remains is
    // empty or a whole move (every notation's moves are four characters or more).
    let after_digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = after_digits.trim_start_matches('.');
    let numbered = after_digits.len() < token.len() && rest.len() < after_digits.len();
    let mv = if numbered && (rest.is_empty() || rest.chars().count() >= 4) {
        rest
    } else {
        token
    };
    if !mv.is_empty() {
        rec.push(mv.trim_end_matches(['!', '?']));
    }
    Ok(false)
}

/// Removes the command `[%name …]` from `text`; its arguments, if it was there.
fn take_command(text: &mut String, name: &str) -> Result<Option<String>, TextError> {
    let open = format!("[%{name}");
    let Some(start) = text.find(&open) else {
        return Ok(None);
    };
    let end = text[start..]
        .find(']')
        .ok_or_else(|| text_err!("{open} has no closing ]"))?;
    let args = text[start + open.len()..start + end].trim().to_string();
    text.replace_range(start..start + end + 1, "");
    *text = text.trim().to_string();
    Ok(Some(args))
}

/// `0.35` (hundreds of units) or `#3` (a mate), then optionally `,depth`.
fn parse_eval(args: &str) -> Result<(Score, Option<u32>), TextError> {
    let bad = || text_err!("[%eval {args}] must be like 0.35,12 or #3");
    let (value, depth) = match args.split_once(',') {
        Some((v, d)) => (v.trim(), Some(d.trim().parse::<u32>().map_err(|_| bad())?)),
        None => (args.trim(), None),
    };
    if let Some(m) = value.strip_prefix('#') {
        return Ok((Score::Mate(m.parse().map_err(|_| bad())?), depth));
    }
    let (neg, digits) = match value.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, value.strip_prefix('+').unwrap_or(value)),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty()
        || frac.len() > 2
        || !whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let units = whole.parse::<i64>().map_err(|_| bad())? * 100
        + format!("{frac:0<2}").parse::<i64>().map_err(|_| bad())?;
    let units = i32::try_from(if neg { -units } else { units }).map_err(|_| bad())?;
    Ok((Score::Units(units), depth))
}

/// `h:mm:ss` with an optional fraction of a second, as milliseconds.
fn parse_clock(text: &str) -> Result<u64, TextError> {
    let bad = || text_err!("[%clk {text}] must be like 0:01:23.5");
    let parts: Vec<&str> = text.trim().split(':').collect();
    let [h, m, s] = parts[..] else {
        return Err(bad());
    };
    let whole = |t: &str| {
        if t.is_empty() || t.len() > 6 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        t.parse::<u64>().map_err(|_| bad())
    };
    let (h, m) = (whole(h)?, whole(m)?);
    let s = parse_seconds(s).map_err(|_| bad())?;
    Ok((h * 3600 + m * 60) * 1000 + s)
}

fn format_clock(ms: u64) -> String {
    let secs = ms / 1000;
    let mut t = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if !ms.is_multiple_of(1000) {
        let _ = write!(t, ".{:03}", ms % 1000);
    }
    t
}

fn format_eval(score: Score, depth: Option<u32>) -> String {
    let value = match score {
        Score::Mate(n) => format!("#{n}"),
        Score::Units(u) => {
            let sign = if u < 0 { "-" } else { "" };
            let a = u.unsigned_abs();
            format!("{sign}{}.{:02}", a / 100, a % 100)
        }
    };
    match depth {
        Some(d) => format!("[%eval {value},{d}]"),
        None => format!("[%eval {value}]"),
    }
}

fn attach_comment(rec: &mut GameRecord, body: &str) -> Result<(), TextError> {
    let mut text = body.trim().to_string();
    let time = take_command(&mut text, "emt")?
        .map(|t| parse_seconds(&t))
        .transpose()?;
    let clock = take_command(&mut text, "clk")?
        .map(|c| parse_clock(&c))
        .transpose()?;
    let eval = take_command(&mut text, "eval")?
        .map(|e| parse_eval(&e))
        .transpose()?;
    if let Some(m) = rec.moves.last_mut() {
        if time.is_some() {
            m.time_ms = time;
        }
        if clock.is_some() {
            m.clock_ms = clock;
        }
        if let Some((score, depth)) = eval {
            m.eval = Some(score);
            m.depth = depth;
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
    let result = match rec.result.as_ref().map(GameResult::winner) {
        Some(Some(Side::White)) => "1-0",
        Some(Some(Side::Black)) => "0-1",
        Some(None) => "1/2-1/2",
        None => "*",
    };
    let mut tag = |n: &str, v: &str| {
        let _ = writeln!(out, "[{n} \"{}\"]", esc(v));
    };
    tag("Game", "Chinese Chess");
    tag("Event", &rec.event);
    tag("Site", &rec.site);
    if let Some(d) = &rec.date {
        tag("Date", &d.pgn());
    }
    if !rec.round.is_empty() {
        tag("Round", &rec.round);
    }
    tag("Red", rec.name(Side::White));
    tag("Black", rec.name(Side::Black));
    tag("Result", result);
    if let Some(fen) = &rec.start {
        tag("FEN", fen);
    }
    tag("Format", notation.tag());
    if let Some(text) = rec.result.as_ref().map(GameResult::text)
        && !text.is_empty()
    {
        tag("Termination", &text);
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
        if let Some(ms) = m.clock_ms {
            comment.push(format!("[%clk {}]", format_clock(ms)));
        }
        if let Some(score) = m.eval {
            comment.push(format_eval(score, m.depth));
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

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_games::GameKind;

    #[test]
    fn move_numbers_come_off_and_wxf_moves_that_start_with_a_digit_stay() {
        let mut rec = GameRecord::new(GameKind::Xiangqi);
        for token in [
            "12.",
            "h2e2",
            "12...",
            "5++1",
            "33.4",
            "3-.4",
            "13.3+.4",
            "14.C2.5",
            "15.炮二平五",
        ] {
            assert!(!finish_token(&mut rec, token).unwrap());
        }
        let moves: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(
            moves,
            ["h2e2", "5++1", "33.4", "3-.4", "3+.4", "C2.5", "炮二平五"]
        );
    }
}
