//! The public Jiu dataset's record text as a record format (`.jiu`), with an SGF-like header.
//!
//! ```text
//! (;GM[Jiu]PB[alice]PW[bob]RE[B+]XR[fewer than 4 pieces]DT[2024-05-01])
//! Stage[1]:W(G,7);B(H,8);…;
//! Stage[2]:B(H,7)-O(G,7);B(F,5)-O(H,5)-O(H,3),TC:W(G,5),W(H,4),FC:W(J,9);…;
//! ```
//! The moves are the dataset's own text, read by the Jiu rules module's reader
//! (`boyi_games::jiu::dataset`, which documents the notation and replays every move); a
//! record without a header is just that text. The optional header before it is one SGF game
//! tree with a root node: `GM[Jiu]`, `PB`/`PW` players, `RE` result (`B+`, `W+`, `B+R`,
//! `Draw`, `Void`…, as in SGF), `XR` the result's reason in words, `DT` date, `EV` event,
//! `PC` place; other properties are kept as tags. Records follow one another; each ends where
//! the next header `(;` or the next `Stage[1]:` begins. The text holds no thinking times,
//! comments or set-up positions: games start from the empty board.
//!
//! Written battle moves give the mover's piece, every point of the canonical path marked `O`,
//! then `TC:` with the pieces taken by jumps and `FC:` with those taken for squares, so the
//! reader never has to guess between a jump and a flight.

use crate::record::GameRecord;
use crate::sgf::{self, Node};
use boyi_core::{Game, Point, Side, TextError, text_err};
use boyi_games::GameKind;
use boyi_games::jiu::{Jiu, JiuMove, dataset};
use std::fmt::Write;

const STAGE1: &str = "Stage[1]:";
const STAGE2: &str = "Stage[2]:";

/// Reads every record of a dataset text file.
pub fn read(text: &str) -> Result<Vec<GameRecord>, TextError> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (rec, used) =
            read_one(rest).map_err(|e| e.context(format!("record {}", out.len() + 1)))?;
        out.push(rec);
        rest = rest[used..].trim_start();
    }
    if out.is_empty() {
        return Err(text_err!("no Jiu record (Stage[1]:…)"));
    }
    Ok(out)
}

/// One record at the start of `text` and the bytes it spans.
fn read_one(text: &str) -> Result<(GameRecord, usize), TextError> {
    let mut rec = GameRecord::new(GameKind::Jiu);
    let mut at = 0;
    if text.starts_with('(') {
        let (nodes, used) = sgf::parse_tree_prefix(text).map_err(|e| e.context("header"))?;
        read_header(&mut rec, &nodes[0])?;
        at = used;
    }
    let body = text[at..].trim_start();
    at = text.len() - body.len();
    if !body.starts_with(STAGE1) {
        return Err(text_err!("the moves must begin with {STAGE1}"));
    }
    let end = [body[1..].find("(;"), body[1..].find(STAGE1)]
        .into_iter()
        .flatten()
        .min()
        .map_or(body.len(), |i| i + 1);
    let game = dataset::read_record(&body[..end])?;
    let mut pos = Jiu::new();
    for mv in &game.moves {
        rec.push(pos.format_move(mv));
        pos.play(mv);
    }
    Ok((rec, at + end))
}

fn read_header(rec: &mut GameRecord, root: &Node) -> Result<(), TextError> {
    if let Some(gm) = sgf::prop(root, "GM")
        && !gm.trim().eq_ignore_ascii_case("jiu")
    {
        return Err(text_err!("GM[{gm}] in a Jiu record must be GM[Jiu]"));
    }
    rec.result = sgf::prop(root, "RE")
        .map(sgf::read_result)
        .transpose()?
        .flatten();
    for (name, values) in root {
        let value = values[0].clone();
        match name.as_str() {
            "GM" | "FF" | "CA" | "RE" => {}
            "PB" => rec.set_name(Side::Black, value),
            "PW" => rec.set_name(Side::White, value),
            "DT" => sgf::read_date(rec, &value),
            "EV" => rec.event = value,
            "RO" => rec.round = value,
            "PC" => rec.site = value,
            "XR" => match &mut rec.result {
                Some(r) => *r = crate::GameResult::parse_text(r.winner(), &value),
                None => return Err(text_err!("XR[{value}] (the reason) needs a result RE")),
            },
            other => {
                rec.tags.insert(other.to_string(), value);
            }
        }
    }
    Ok(())
}

/// Writes checked Jiu records as dataset text, each with its header.
pub fn write(records: &[GameRecord]) -> Result<String, TextError> {
    let mut out = String::new();
    for (i, rec) in records.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_one(&mut out, rec)?;
    }
    Ok(out)
}

fn write_one(out: &mut String, rec: &GameRecord) -> Result<(), TextError> {
    if rec.game != GameKind::Jiu {
        return Err(text_err!(
            "the Jiu dataset text holds jiu games, not {}",
            rec.game
        ));
    }
    if rec.start.is_some() {
        return Err(text_err!(
            "the Jiu dataset text holds games from the empty board, not from a set-up position"
        ));
    }
    write_header(out, rec);
    let mut pos = Jiu::new();
    out.push_str(STAGE1);
    let mut in_battle = false;
    for (i, m) in rec.moves.iter().enumerate() {
        let mv = pos
            .parse_move(&m.text)
            .map_err(|e| e.context(format!("ply {} ({:?})", i + 1, m.text)))?;
        if !mv.is_placement() && !in_battle {
            in_battle = true;
            out.push('\n');
            out.push_str(STAGE2);
        }
        write_move(out, &pos, &mv);
        out.push(';');
        pos.play(&mv);
    }
    out.push('\n');
    Ok(())
}

fn write_header(out: &mut String, rec: &GameRecord) {
    out.push_str("(;GM[Jiu]");
    sgf::write_header(out, rec);
    // SGF property names are upper-case letters; other tags have no place here.
    for (name, value) in &rec.tags {
        if name.bytes().all(|b| b.is_ascii_uppercase()) && !is_header_property(name) {
            let _ = write!(out, "{name}[{}]", sgf::esc(value));
        }
    }
    out.push_str(")\n");
}

fn is_header_property(name: &str) -> bool {
    matches!(
        name,
        "GM" | "FF" | "CA" | "RE" | "XR" | "PB" | "PW" | "DT" | "EV" | "RO" | "PC"
    )
}

fn colour(side: Side) -> char {
    match side {
        Side::Black => 'B',
        Side::White => 'W',
    }
}

/// `W(G,7)`: a colour (or `O`, empty) and a point.
fn write_point(out: &mut String, marker: char, p: Point) {
    let _ = write!(out, "{marker}({},{})", (b'A' + p.col) as char, p.row + 1);
}

fn write_move(out: &mut String, pos: &Jiu, mv: &JiuMove) {
    let me = colour(pos.side_to_move());
    let enemy = colour(pos.side_to_move().opponent());
    if mv.is_placement() {
        write_point(out, me, mv.to());
        return;
    }
    for (i, p) in canonical_path(pos, mv).into_iter().enumerate() {
        if i > 0 {
            out.push('-');
        }
        write_point(out, if i == 0 { me } else { 'O' }, p);
    }
    for (tag, taken) in [
        ("TC:", mv.jumped().collect::<Vec<_>>()),
        ("FC:", mv.captures().collect()),
    ] {
        for (i, p) in taken.into_iter().enumerate() {
            out.push(',');
            if i == 0 {
                out.push_str(tag);
            }
            write_point(out, enemy, p);
        }
    }
}

/// The points of the move's canonical path, from its text (`f5-h5-h3 x e6`, `c3*k9`): the
/// move itself keeps only its origin, landing and jumped set.
fn canonical_path(pos: &Jiu, mv: &JiuMove) -> Vec<Point> {
    let text = pos.format_move(mv);
    let path = text.split(" x ").next().unwrap_or_default();
    path.split(['-', '*'])
        .filter_map(|p| Point::parse(p, 14).ok())
        .collect()
}
