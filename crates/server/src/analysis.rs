//! The analysis board's server side: checking a position and moves played from it
//! (`inspect`), and running a built-in player on it with live thinking (`analyze`; the
//! game's strongest engine unless another is named).

use crate::budget::{self, Slot};
use crate::games::{ServerGame, black_expected};
use crate::limits::Limits as ServerLimits;
use crate::protocol::MAX_POSITION;
use crate::protocol::{AnalyzeRequest, PositionRequest};
use crate::seat::{normalise_spec, side_name};
use crate::table::{Outbox, score_text};
use boyi_engines::{BuildContext, GameHistory, Limits, PlayerThread, SearchEvent};
use boyi_games::{GameKind, with_game};
use serde_json::{Value, json};
use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

/// Most moves a position request may carry.
pub const MAX_MOVES: usize = 1000;

/// A running analysis; dropping it stops the search.
pub type Running = Box<dyn Any + Send>;

pub(crate) fn build<G: ServerGame>(req: &PositionRequest) -> Result<GameHistory<G>, String> {
    if req.moves.len() > MAX_MOVES {
        return Err(format!("at most {MAX_MOVES} moves"));
    }
    let variant: G::Variant = match &req.variant {
        Some(v) => v.parse().map_err(|e| format!("variant: {e}"))?,
        None => G::Variant::default(),
    };
    let start = match &req.position {
        Some(p) if p.len() > MAX_POSITION => return Err("position text is too long".into()),
        Some(p) => G::from_text(&variant, p).map_err(|e| format!("position: {e}"))?,
        None => G::start(&variant, req.size).map_err(|e| format!("size: {e}"))?,
    };
    let mut history = GameHistory::new(start);
    for (i, text) in req.moves.iter().enumerate() {
        history
            .push_text(text)
            .map_err(|e| format!("move {} ({text:?}): {e}", i + 1))?;
    }
    Ok(history)
}

fn inspect_game<G: ServerGame>(req: &PositionRequest) -> Result<Value, String> {
    let history = build::<G>(req)?;
    let mut pos = history.start().clone();
    let moves: Vec<Value> = history
        .moves()
        .iter()
        .map(|mv| {
            let mut v = json!({"text": pos.format_move(mv), "side": side_name(pos.side_to_move())});
            for (k, t) in pos.notations(mv) {
                v[k] = t.into();
            }
            pos.play(mv);
            v
        })
        .collect();
    let cur = history.current();
    Ok(json!({
        "v": crate::protocol::VERSION,
        "type": "inspection",
        "id": req.id,
        "game": G::NAME,
        "variant": cur.variant().to_string(),
        "start": history.start().to_text(),
        "position": cur.to_text(),
        "to_move": side_name(cur.side_to_move()),
        "moves": moves,
        "result": cur.outcome().map(|o| json!({"winner": o.winner.map(side_name), "reason": o.reason.words()})),
        "check": cur.check(),
        "hints": if cur.outcome().is_none() { cur.hints() } else { Value::Null },
    }))
}

/// Answers an `inspect` request.
pub fn inspect(req: &PositionRequest) -> Result<Value, String> {
    let kind: GameKind = req.game.parse().map_err(|e| format!("{e}"))?;
    with_game!(kind, G => inspect_game::<G>(req)).map_err(|e| e.to_string())?
}

fn analyze_game<G: ServerGame>(
    req: &AnalyzeRequest,
    out: Outbox,
    limits: &ServerLimits,
    slot: Arc<Slot>,
) -> Result<Running, String> {
    let history = build::<G>(&req.position())?;
    if history.current().outcome().is_some() {
        return Err("the game is over in this position".into());
    }
    let player = strongest_or::<G>(req.player.as_deref())?;
    let think_ms = req.think_ms.unwrap_or(3000);
    budget::check_think_ms(think_ms, limits)?;
    let id = req.id;
    let pos = history.current().clone();
    let mut thread = PlayerThread::spawn(player, move |ev: SearchEvent<G>| {
        // The analysis stops counting against the server once its move is found.
        if matches!(ev, SearchEvent::Done(_)) {
            slot.release();
        }
        let msg = match ev {
            SearchEvent::Info(i) => {
                let mut v = json!({
                    "v": crate::protocol::VERSION, "type": "analysis", "id": id, "depth": i.depth,
                    "score": i.score.map(score_text), "pv": i.pv, "nodes": i.nodes,
                    "time_ms": i.time.map(|t| t.as_millis() as u64),
                });
                if let Some(s) = i.score {
                    v["black"] = black_expected::<G>(s, pos.side_to_move()).into();
                }
                if let Some(c) = pos.line_chinese(&i.pv) {
                    v["pv_chinese"] = c.into();
                }
                v
            }
            SearchEvent::Done(Ok(mv)) => {
                let best = pos.format_move(&mv);
                let mut v = json!({
                    "v": crate::protocol::VERSION, "type": "analysis_done", "id": id, "bestmove": best,
                });
                if let Some(c) = pos.line_chinese(std::slice::from_ref(&best)) {
                    v["bestmove_chinese"] = c.into_iter().next().into();
                }
                v
            }
            SearchEvent::Done(Err(e)) => json!({
                "v": crate::protocol::VERSION, "type": "analysis_done", "id": id, "error": e.to_string(),
            }),
            // An analysis asks for no swap decision.
            SearchEvent::Swap(_) => return,
        };
        let text: Arc<str> = msg.to_string().into();
        let _ = out.try_send(text);
    });
    let limits = Limits {
        movetime: Some(Duration::from_millis(think_ms)),
        ..Limits::default()
    };
    thread.search(history, limits, true);
    Ok(Box::new(thread))
}

/// The player `spec` names, or the game's strongest engine (`boyi:strong`), within the
/// options a client may ask for.
pub(crate) fn strongest_or<G: ServerGame>(
    spec: Option<&str>,
) -> Result<Box<dyn boyi_engines::Player<G>>, String> {
    let spec = normalise_spec(spec.unwrap_or(G::default_player()))?;
    budget::check_player_options(&spec)?;
    boyi_engines::build::<G>(spec.trim_start_matches("boyi:"), BuildContext::default())
        .map_err(|e| e.to_string())
}

/// Starts an `analyze` request holding `slot` of the server's analyses until it is done; its
/// messages go to `out`.
pub fn analyze(
    req: &AnalyzeRequest,
    out: Outbox,
    limits: &ServerLimits,
    slot: Arc<Slot>,
) -> Result<Running, String> {
    let kind: GameKind = req.game.parse().map_err(|e| format!("{e}"))?;
    with_game!(kind, G => analyze_game::<G>(req, out, limits, slot)).map_err(|e| e.to_string())?
}
