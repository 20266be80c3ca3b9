//! SGF (FF[4]) for Gomoku (`GM[4]`) and Connect6 (`GM[C6]`: SGF assigns Connect6 no game
//! number; Boyi names it as the championship text does).
//!
//! Root properties: `SZ` size, `RU` rule set (Boyi's variant names, read case-insensitively),
//! `PB`/`PW` players, `RE` result (`B+`, `W+`, `B+R` resignation, `B+T` time, `B+F` forfeit,
//! `Draw`/`0`), `DT` date (one date; any other text is kept in the tag `DateText`), `EV`
//! event, `RO` round, `PC` place, `AB`/`AW`/`PL` a set-up start, and private properties:
//! `XR` the result's reason in words ([`crate::GameResult::text`]) and, on move nodes, `XT`
//! the thinking time in seconds, `BL`/`WL` (standard) the mover's clock after the move in
//! seconds, `XE` the mover's evaluation (`35`, `mate 3`) and `XD` its
//! depth. One node per stone (`;B[hh]`), so a Connect6 turn of two stones
//! is two nodes of one colour; `B[]` (or `B[tt]` up to 19×19) is a Gomoku pass. Comments are
//! `C`. Only the main line is read: at a branch, the first variation.

use crate::boyi_text::{format_seconds, parse_seconds};
use crate::date::Date;
use crate::grid::{self, Setup};
use crate::record::{GameRecord, GameResult, RecordedMove};
use boyi_core::{Point, Reason, Score, Side, TextError, text_err};
use boyi_games::GameKind;
use std::fmt::Write;

/// One node: its properties in file order, each with its values.
pub type Node = Vec<(String, Vec<String>)>;

/// Parses an SGF collection into the main line of each game tree.
pub fn parse_collection(text: &str) -> Result<Vec<Vec<Node>>, TextError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let mut games = Vec::new();
    p.skip_ws();
    while p.i < p.s.len() {
        let mut nodes = Vec::new();
        p.game_tree(&mut nodes, 0)?;
        games.push(nodes);
        p.skip_ws();
    }
    if games.is_empty() {
        return Err(text_err!("no SGF game tree"));
    }
    Ok(games)
}

/// Parses the one game tree at the start of `text` (after white space): its main line and the
/// number of bytes up to the end of the tree. Other formats use it for SGF-like headers.
pub fn parse_tree_prefix(text: &str) -> Result<(Vec<Node>, usize), TextError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let mut nodes = Vec::new();
    p.game_tree(&mut nodes, 0)?;
    Ok((nodes, p.i))
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

const MAX_DEPTH: usize = 256;

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.i).copied()
    }

    fn expect(&mut self, c: u8) -> Result<(), TextError> {
        match self.peek() {
            Some(b) if b == c => {
                self.i += 1;
                Ok(())
            }
            other => Err(text_err!(
                "SGF: expected {:?} at byte {}, found {}",
                c as char,
                self.i,
                other.map_or("the end".to_string(), |b| format!("{:?}", b as char))
            )),
        }
    }

    /// `( node+ tree* )`; the first sub-tree continues `nodes`, the others are skipped.
    fn game_tree(&mut self, nodes: &mut Vec<Node>, depth: usize) -> Result<(), TextError> {
        if depth > MAX_DEPTH {
            return Err(text_err!("SGF: variations nested deeper than {MAX_DEPTH}"));
        }
        self.expect(b'(')?;
        if self.peek() != Some(b';') {
            return Err(text_err!("SGF: a game tree must start with a node (';')"));
        }
        while self.peek() == Some(b';') {
            self.i += 1;
            nodes.push(self.node()?);
        }
        let mut first = true;
        while self.peek() == Some(b'(') {
            if first {
                self.game_tree(nodes, depth + 1)?;
                first = false;
            } else {
                self.game_tree(&mut Vec::new(), depth + 1)?;
            }
        }
        self.expect(b')')
    }

    fn node(&mut self) -> Result<Node, TextError> {
        let mut props = Vec::new();
        while let Some(c) = self.peek() {
            if !c.is_ascii_uppercase() {
                break;
            }
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_alphabetic() {
                self.i += 1;
            }
            let name = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                self.i += 1;
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(text_err!("SGF: property {name} has no value"));
            }
            props.push((name, values));
        }
        Ok(props)
    }

    fn value(&mut self) -> Result<String, TextError> {
        let mut out = Vec::new();
        while self.i < self.s.len() {
            let c = self.s[self.i];
            self.i += 1;
            match c {
                b']' => {
                    return String::from_utf8(out)
                        .map_err(|_| text_err!("SGF: a property value is not UTF-8"));
                }
                b'\\' => {
                    let Some(&n) = self.s.get(self.i) else { break };
                    self.i += 1;
                    match n {
                        b'\n' => {}
                        b'\r' => {
                            if self.s.get(self.i) == Some(&b'\n') {
                                self.i += 1;
                            }
                        }
                        other => out.push(other),
                    }
                }
                c => out.push(c),
            }
        }
        Err(text_err!("SGF: a property value has no closing ']'"))
    }
}

pub(crate) fn prop<'a>(node: &'a Node, name: &str) -> Option<&'a str> {
    node.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v[0].as_str())
}

fn props<'a>(node: &'a Node, name: &str) -> impl Iterator<Item = &'a str> {
    node.iter()
        .filter(move |(n, _)| n == name)
        .flat_map(|(_, v)| v.iter().map(String::as_str))
}

/// Reads every game of an SGF collection (Gomoku or Connect6).
pub fn read(text: &str) -> Result<Vec<GameRecord>, TextError> {
    parse_collection(text)?
        .iter()
        .enumerate()
        .map(|(i, nodes)| read_game(nodes).map_err(|e| e.context(format!("SGF game {}", i + 1))))
        .collect()
}

fn read_game(nodes: &[Node]) -> Result<GameRecord, TextError> {
    let root = &nodes[0];
    let kind = match prop(root, "GM").map(str::trim) {
        Some("4") | None => GameKind::Gomoku,
        Some(g) if g.eq_ignore_ascii_case("c6") => GameKind::Connect6,
        Some(g) if g.eq_ignore_ascii_case("jiu") => {
            return Err(text_err!(
                "GM[Jiu]: Jiu records with an SGF header are the jiu format (.jiu)"
            ));
        }
        Some(g) => return Err(text_err!("GM[{g}] is not Gomoku (4) or Connect6 (C6)")),
    };
    let default = if kind == GameKind::Gomoku { 15 } else { 19 };
    let size = match prop(root, "SZ") {
        Some(s) => s
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (5..=26).contains(n))
            .ok_or_else(|| text_err!("SZ[{s}] must be a board size from 5 to 26"))?,
        None => default,
    };
    let mut rec = GameRecord::new(kind);
    rec.size = (size != default).then_some(size);
    read_root(&mut rec, root, size)?;
    let mut stones: Vec<(Side, Option<Point>, RecordedMove)> = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        for (name, side) in [("B", Side::Black), ("W", Side::White)] {
            if let Some(v) = prop(node, name) {
                let p = grid::parse_sgf_point(v, size)
                    .map_err(|e| e.context(format!("node {}", i + 1)))?;
                let extra = RecordedMove {
                    text: String::new(),
                    time_ms: prop(node, "XT").map(parse_seconds).transpose()?,
                    clock_ms: prop(node, if side == Side::Black { "BL" } else { "WL" })
                        .map(parse_seconds)
                        .transpose()?,
                    comment: prop(node, "C").map(str::to_string),
                    eval: prop(node, "XE").map(str::parse::<Score>).transpose()?,
                    depth: prop(node, "XD")
                        .map(|d| {
                            d.trim()
                                .parse::<u32>()
                                .map_err(|_| text_err!("XD[{d}] must be a depth"))
                        })
                        .transpose()?,
                };
                stones.push((side, p, extra));
            }
        }
    }
    rec.moves = group_turns(kind, stones)?;
    Ok(rec)
}

fn read_root(rec: &mut GameRecord, root: &Node, size: usize) -> Result<(), TextError> {
    if let Some(ru) = prop(root, "RU") {
        rec.variant = Some(variant_name(rec.game, ru));
    }
    rec.set_name(Side::Black, prop(root, "PB").unwrap_or(""));
    rec.set_name(Side::White, prop(root, "PW").unwrap_or(""));
    if let Some(dt) = prop(root, "DT") {
        read_date(rec, dt);
    }
    rec.event = prop(root, "EV").unwrap_or("").to_string();
    rec.round = prop(root, "RO").unwrap_or("").to_string();
    rec.site = prop(root, "PC").unwrap_or("").to_string();
    rec.result = prop(root, "RE").map(read_result).transpose()?.flatten();
    if let (Some(r), Some(reason)) = (&mut rec.result, prop(root, "XR")) {
        *r = GameResult::parse_text(r.winner(), reason);
    }
    let (ab, aw): (Vec<_>, Vec<_>) = (props(root, "AB").collect(), props(root, "AW").collect());
    if !ab.is_empty() || !aw.is_empty() {
        let pts = |v: Vec<&str>| -> Result<Vec<Point>, TextError> {
            v.into_iter()
                .filter_map(|s| grid::parse_sgf_point(s, size).transpose())
                .collect()
        };
        let to_move = match prop(root, "PL") {
            Some("W") => Side::White,
            Some("B") | None => Side::Black,
            Some(other) => return Err(text_err!("PL[{other}] must be B or W")),
        };
        let setup = Setup {
            size,
            black: pts(ab)?,
            white: pts(aw)?,
            to_move,
        };
        rec.start = Some(grid::write_setup(&setup));
        rec.size = None;
    }
    Ok(())
}

/// Boyi's variant name for an `RU` value.
fn variant_name(kind: GameKind, ru: &str) -> String {
    let ru = ru.trim().to_ascii_lowercase();
    match (kind, ru.as_str()) {
        (GameKind::Gomoku, "gomoku" | "free" | "freestyle") => "freestyle".into(),
        (GameKind::Gomoku, "exact" | "exactfive" | "standard") => "standard".into(),
        _ => ru,
    }
}

/// A date property: a date, or else its text in the tag `DateText`.
pub(crate) fn read_date(rec: &mut GameRecord, text: &str) {
    match Date::parse(text) {
        Ok(d) => rec.date = Some(d),
        Err(_) if text.trim().is_empty() => {}
        Err(_) => {
            rec.tags.insert("DateText".into(), text.to_string());
        }
    }
}

pub(crate) fn read_result(re: &str) -> Result<Option<GameResult>, TextError> {
    let re = re.trim();
    let upper = re.to_ascii_uppercase();
    if matches!(upper.as_str(), "0" | "DRAW" | "JIGO") {
        return Ok(Some(GameResult::draw(Reason::Unknown)));
    }
    if matches!(upper.as_str(), "" | "?" | "VOID" | "*") {
        return Ok(None);
    }
    let side = match upper.get(..2) {
        Some("B+") => Side::Black,
        Some("W+") => Side::White,
        _ => return Err(text_err!("RE[{re}] must be B+…, W+…, Draw, 0, Void or ?")),
    };
    let reason = match &upper[2..] {
        "R" | "RESIGN" => Reason::Resignation,
        "T" | "TIME" => Reason::Time,
        "F" | "FORFEIT" => Reason::Forfeit,
        _ => Reason::Unknown,
    };
    Ok(Some(GameResult::win(side, reason)))
}

/// Groups stones into turns: one stone per Gomoku turn; in Connect6, consecutive stones of
/// one colour form one turn.
pub fn group_turns(
    kind: GameKind,
    stones: Vec<(Side, Option<Point>, RecordedMove)>,
) -> Result<Vec<RecordedMove>, TextError> {
    let mut turns: Vec<(Side, Vec<Point>, RecordedMove)> = Vec::new();
    for (n, (side, p, extra)) in stones.into_iter().enumerate() {
        let joins = kind == GameKind::Connect6 && turns.last().is_some_and(|t| t.0 == side);
        match (joins, p) {
            (true, Some(p)) => {
                let last = turns.last_mut().expect("joins implies a last turn");
                if last.1.len() == 2 {
                    return Err(text_err!(
                        "stone {}: a third stone of one colour in a row",
                        n + 1
                    ));
                }
                last.1.push(p);
                last.2.time_ms = sum_times(last.2.time_ms, extra.time_ms);
                last.2.comment = last.2.comment.take().or(extra.comment);
                last.2.eval = last.2.eval.or(extra.eval);
                last.2.clock_ms = extra.clock_ms.or(last.2.clock_ms);
                last.2.depth = last.2.depth.or(extra.depth);
            }
            (_, p) => {
                if p.is_none() && kind == GameKind::Connect6 {
                    return Err(text_err!("stone {}: Connect6 has no pass", n + 1));
                }
                turns.push((side, p.into_iter().collect(), extra));
            }
        }
    }
    Ok(turns
        .into_iter()
        .map(|(_, pts, extra)| RecordedMove {
            text: if pts.is_empty() {
                "pass".to_string()
            } else {
                pts.iter()
                    .map(Point::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            },
            ..extra
        })
        .collect())
}

fn sum_times(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
    }
}

/// The side of each turn of a checked grid record, from its start's side to move.
pub fn turn_sides(rec: &GameRecord, first: Side) -> Vec<Side> {
    let mut side = first;
    rec.moves
        .iter()
        .map(|_| {
            let s = side;
            side = !side;
            s
        })
        .collect()
}

/// Writes checked Gomoku or Connect6 records as an SGF collection.
pub fn write(records: &[GameRecord], sizes: &[(usize, Side)]) -> Result<String, TextError> {
    let mut out = String::new();
    for (rec, &(size, first)) in records.iter().zip(sizes) {
        write_one(&mut out, rec, size, first)?;
        out.push('\n');
    }
    Ok(out)
}

pub(crate) fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

fn write_one(
    out: &mut String,
    rec: &GameRecord,
    size: usize,
    first: Side,
) -> Result<(), TextError> {
    let gm = match rec.game {
        GameKind::Gomoku => "4",
        GameKind::Connect6 => "C6",
        other => {
            return Err(text_err!(
                "SGF is written for gomoku and connect6, not {other}"
            ));
        }
    };
    let _ = write!(out, "(;GM[{gm}]FF[4]CA[UTF-8]SZ[{size}]");
    if let Some(v) = &rec.variant {
        let _ = write!(out, "RU[{}]", esc(v));
    }
    write_header(out, rec);
    if let Some(start) = &rec.start {
        if let Some(more) = start.split_whitespace().nth(2) {
            return Err(text_err!(
                "SGF holds a set-up start's stones and side to move, not its {more:?} (passes in a row)"
            ));
        }
        let setup = grid::read_setup(start)?;
        write_list(out, "AB", &setup.black, size);
        write_list(out, "AW", &setup.white, size);
        let _ = write!(
            out,
            "PL[{}]",
            if setup.to_move == Side::Black {
                'B'
            } else {
                'W'
            }
        );
    }
    for (m, side) in rec.moves.iter().zip(turn_sides(rec, first)) {
        let colour = if side == Side::Black { 'B' } else { 'W' };
        let stones: Vec<&str> = m.text.split_whitespace().collect();
        for (k, s) in stones.iter().enumerate() {
            let value = match *s {
                "pass" => String::new(),
                s => grid::sgf_point(Point::parse(s, size)?, size),
            };
            let _ = write!(out, ";{colour}[{value}]");
            if k + 1 == stones.len() {
                if let Some(ms) = m.time_ms {
                    let _ = write!(out, "XT[{}]", format_seconds(ms));
                }
                if let Some(ms) = m.clock_ms {
                    let left = if side == Side::Black { "BL" } else { "WL" };
                    let _ = write!(out, "{left}[{}]", format_seconds(ms));
                }
                if let Some(e) = m.eval {
                    let _ = write!(out, "XE[{e}]");
                }
                if let Some(d) = m.depth {
                    let _ = write!(out, "XD[{d}]");
                }
                if let Some(c) = &m.comment {
                    let _ = write!(out, "C[{}]", esc(c));
                }
            }
        }
    }
    out.push(')');
    Ok(())
}

/// The players, date, event, round, place and result properties of a root node.
pub(crate) fn write_header(out: &mut String, rec: &GameRecord) {
    let date = rec.date.map(|d| d.to_string()).unwrap_or_default();
    for (name, value) in [
        ("PB", rec.name(Side::Black)),
        ("PW", rec.name(Side::White)),
        ("DT", &date),
        ("EV", &rec.event),
        ("RO", &rec.round),
        ("PC", &rec.site),
    ] {
        if !value.is_empty() {
            let _ = write!(out, "{name}[{}]", esc(value));
        }
    }
    write_result(out, rec.result.as_ref());
}

/// `RE` and, when the reason is known, `XR`.
pub(crate) fn write_result(out: &mut String, result: Option<&GameResult>) {
    let Some(r) = result else { return };
    let re = match r.winner() {
        None => "Draw".to_string(),
        Some(s) => {
            let code = match r.reason() {
                Reason::Resignation => "R",
                Reason::Time => "T",
                Reason::Forfeit => "F",
                _ => "",
            };
            format!("{}+{code}", if s == Side::Black { 'B' } else { 'W' })
        }
    };
    let _ = write!(out, "RE[{re}]");
    let text = r.text();
    if !text.is_empty() {
        let _ = write!(out, "XR[{}]", esc(&text));
    }
}

fn write_list(out: &mut String, name: &str, points: &[Point], size: usize) {
    if points.is_empty() {
        return;
    }
    out.push_str(name);
    for p in points {
        let _ = write!(out, "[{}]", grid::sgf_point(*p, size));
    }
}
