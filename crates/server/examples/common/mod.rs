//! What the load test and the cluster test share: checking every game in the database
//! against the moves its clients saw.

use boyi_core::Game;
use boyi_games::{GameKind, with_game};
use serde_json::Value;

/// The moves a client knows after server message `v`: a `state` gives them all, an `update`
/// the next one. `Ok(false)`: another message; an error: an update that does not follow (a
/// message was missed).
pub fn follow(moves: &mut Vec<String>, v: &Value) -> anyhow::Result<bool> {
    match v["type"].as_str() {
        Some("state") => {
            *moves = v["moves"].as_array().map_or(Vec::new(), |a| {
                a.iter()
                    .map(|m| m["text"].as_str().unwrap_or_default().to_string())
                    .collect()
            });
            Ok(true)
        }
        Some("update") => {
            let plies = v["plies"].as_u64().unwrap_or(0) as usize;
            if plies == moves.len() + 1 {
                moves.push(v["move"]["text"].as_str().unwrap_or_default().to_string());
            } else if plies != moves.len() {
                anyhow::bail!("update to {plies} moves after {} moves", moves.len());
            }
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Replays a stored game with the rules; the number of moves and the final outcome.
fn check_stored<G: Game>(
    row: &boyi_store::live::LiveGame,
) -> Result<(usize, Option<String>), String> {
    let mut pos: G = boyi_records::start_position(&row.record).map_err(|e| e.to_string())?;
    for (i, m) in row.record.moves.iter().enumerate() {
        let mv = pos
            .parse_move(&m.text)
            .map_err(|e| format!("ply {}: {e}", i + 1))?;
        pos.play(&mv);
    }
    let winner = pos.outcome().map(|o| match o.winner {
        Some(boyi_core::Side::Black) => "black".to_string(),
        Some(boyi_core::Side::White) => "white".to_string(),
        None => "draw".to_string(),
    });
    Ok((row.record.moves.len(), winner))
}

/// One game as stored, against the moves its client saw.
pub fn check_game(
    store: &boyi_server::store::Store,
    records: &boyi_store::Store,
    table: &str,
    game: &str,
    played: Option<&[String]>,
) -> Result<(), String> {
    let played = played.ok_or("its seat failed")?;
    let row = store
        .load(table)
        .map_err(|e| e.to_string())?
        .ok_or("missing")?;
    let kind: GameKind = game.parse().map_err(|e| format!("{e}"))?;
    let (n, outcome) =
        with_game!(kind, G => check_stored::<G>(&row)).map_err(|e| e.to_string())??;
    let stored: Vec<&str> = row.record.moves.iter().map(|m| m.text.as_str()).collect();
    let winner = row
        .record
        .result
        .as_ref()
        .map(|r| r.winner_word().to_string());
    if n != played.len() || stored != played {
        return Err(format!("{n} moves stored, {} played", played.len()));
    }
    if outcome.is_none() || outcome != winner {
        return Err(format!("stored result {winner:?}, rules say {outcome:?}"));
    }
    let id = store
        .game_id(table)
        .map_err(|e| e.to_string())?
        .ok_or("not in the game database")?;
    let rec = records.load(id).map_err(|e| e.to_string())?;
    let texts: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
    if texts != stored || rec.result.map(|r| r.winner_word().to_string()) != winner {
        return Err("the game database's record differs".into());
    }
    Ok(())
}
