//! Records as JSON for scripts (`boyi record dump`): one object per game, with the whole
//! record model and what replaying it gives (the start position's text, the one before each
//! move, the final one).

use boyi_core::Side;
use boyi_games::with_game;
use boyi_records::{Checked, GameRecord, Player, RecordedMove, start_position};
use serde_json::{Value, json};
use std::path::Path;

fn player(p: &Player) -> Value {
    json!({"name": p.name, "spec": p.spec})
}

fn mv(m: &RecordedMove, before: Option<&String>) -> Value {
    json!({
        "position": before,
        "text": m.text,
        "time_ms": m.time_ms,
        "clock_ms": m.clock_ms,
        "comment": m.comment,
        "eval": m.eval.map(|e| e.to_string()),
        "depth": m.depth,
    })
}

/// The position text a record starts from (its own, or its rules' start).
fn start_text(rec: &GameRecord) -> Option<String> {
    with_game!(rec.game, G => start_position::<G>(rec).ok().map(|p| boyi_core::Game::to_text(&p)))
        .ok()
        .flatten()
}

/// The position text before each move of a record (as far as it replays).
fn positions(rec: &GameRecord) -> Vec<String> {
    with_game!(rec.game, G => {
        let mut texts = Vec::with_capacity(rec.moves.len());
        if let Ok(mut pos) = start_position::<G>(rec) {
            for m in &rec.moves {
                let Ok(mv) = boyi_core::Game::parse_move(&pos, &m.text) else { break };
                texts.push(boyi_core::Game::to_text(&pos));
                boyi_core::Game::play(&mut pos, &mv);
            }
        }
        texts
    })
    .unwrap_or_default()
}

/// One game of `file` as a JSON object.
pub fn game_json(file: &Path, c: &Checked) -> Value {
    let rec = &c.record;
    json!({
        "file": file.display().to_string(),
        "game": rec.game.name(),
        "variant": rec.variant,
        "size": rec.size,
        "start": start_text(rec),
        "set_up": rec.start.is_some(),
        "black": player(rec.player(Side::Black)),
        "white": player(rec.player(Side::White)),
        "result": rec.result.as_ref().map(|r| json!({
            "winner": r.winner().map(|s| boyi_records::winner_word(Some(s))),
            "reason": r.reason().code(),
            "detail": r.detail,
            "text": r.text(),
        })),
        "date": rec.date.map(|d| d.to_string()),
        "event": rec.event,
        "round": rec.round,
        "site": rec.site,
        "tags": rec.tags,
        "moves": rec
            .moves
            .iter()
            .zip(positions(rec).iter().map(Some).chain(std::iter::repeat(None)))
            .map(|(m, before)| mv(m, before))
            .collect::<Vec<_>>(),
        "final": c.final_text,
    })
}
