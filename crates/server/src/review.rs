//! The review of a game (`review`): the game's strongest engine looks at every position in
//! turn for a fixed time (300 ms by default, within the analysis bounds), and each move is
//! judged by how much of the mover's expected result it gave away — an inaccuracy, a mistake
//! or a blunder — with the engine's better move and its line.

use crate::analysis::{Running, build, strongest_or};
use crate::budget::{self, Slot};
use crate::games::{ServerGame, black_expected};
use crate::limits::Limits as ServerLimits;
use crate::protocol::{AnalyzeRequest, VERSION};
use crate::seat::side_name;
use crate::table::{Outbox, score_text};
use boyi_core::Side;
use boyi_engines::{GameHistory, Info, Limits, StopFlag};
use boyi_games::{GameKind, with_game};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Thinking time per position unless the request gives one.
pub const DEFAULT_THINK_MS: u64 = 300;

/// Expected result lost by a move (0 to 1) from which it is an inaccuracy, a mistake, a
/// blunder (as lichess judges chess moves by winning chances).
pub const JUDGEMENTS: [(f64, &str); 3] = [(0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy")];

/// The judgement of a move that lost `loss` of the mover's expected result.
pub fn judge(loss: f64) -> Option<&'static str> {
    JUDGEMENTS
        .iter()
        .find(|(at, _)| loss >= *at - 1e-9)
        .map(|(_, name)| *name)
}

/// A running review: dropping it stops the search and the positions left.
struct Review {
    stop: StopFlag,
    cancelled: Arc<AtomicBool>,
}

impl Drop for Review {
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::Relaxed);
        self.stop.stop();
    }
}

/// What the engine said about one position: black's expected result, and (when searched)
/// the score in the mover's view, the best move and its line.
struct Look {
    black: f64,
    best: Option<String>,
    line: Vec<String>,
}

fn review_game<G: ServerGame>(
    req: &AnalyzeRequest,
    out: Outbox,
    server: &ServerLimits,
    slot: Arc<Slot>,
) -> Result<Running, String> {
    let history = build::<G>(&req.position())?;
    let think = req.think_ms.unwrap_or(DEFAULT_THINK_MS);
    budget::check_think_ms(think, server)?;
    let mut player = strongest_or::<G>(req.player.as_deref())?;
    let id = req.id;
    let stop = StopFlag::new();
    let cancelled = Arc::new(AtomicBool::new(false));
    let (flag, done) = (stop.clone(), cancelled.clone());
    let send = move |v: Value| {
        let _ = out.try_send(v.to_string().into());
    };
    std::thread::spawn(move || {
        // The review stops counting against the server when it ends, however it ends (and
        // before `review_done`, so a client may start the next at once).
        let held = budget::Held(slot);
        let limits = Limits {
            movetime: Some(Duration::from_millis(think)),
            ..Limits::default()
        };
        let moves = history.moves().to_vec();
        let mut game = GameHistory::new(history.start().clone());
        let mut before: Option<(G, Look)> = None;
        player.new_game();
        for ply in 0..=moves.len() {
            if done.load(Ordering::Relaxed) {
                return;
            }
            let pos = game.current().clone();
            let mover = pos.side_to_move();
            let mut msg = json!({"v": VERSION, "type": "review_position", "id": id, "ply": ply,
                                 "to_move": side_name(mover)});
            let look = if let Some(o) = pos.outcome() {
                msg["result"] =
                    json!({"winner": o.winner.map(side_name), "reason": o.reason.words()});
                let black = match o.winner {
                    Some(Side::Black) => 1.0,
                    Some(Side::White) => 0.0,
                    None => 0.5,
                };
                Look {
                    black,
                    best: None,
                    line: Vec::new(),
                }
            } else {
                let mut last = Info::default();
                let chosen = player.choose(&game, &limits, &flag, &mut |i: Info| {
                    if i.score.is_some() {
                        last = i;
                    }
                });
                if done.load(Ordering::Relaxed) {
                    return;
                }
                let best = match chosen {
                    Ok(mv) => pos.format_move(&mv),
                    Err(e) => {
                        held.0.release();
                        send(json!({"v": VERSION, "type": "review_done", "id": id,
                                    "error": format!("position {ply}: {e}")}));
                        return;
                    }
                };
                let mut line = last.pv;
                if line.first() != Some(&best) {
                    line = vec![best.clone()];
                }
                let black = last.score.map_or(0.5, |s| black_expected::<G>(s, mover));
                msg["score"] = last.score.map(score_text).into();
                msg["depth"] = last.depth.into();
                msg["bestmove"] = best.clone().into();
                msg["pv"] = line.clone().into();
                if let Some(c) = pos.line_chinese(&line) {
                    msg["pv_chinese"] = c.into();
                }
                Look {
                    black,
                    best: Some(best),
                    line,
                }
            };
            msg["black"] = look.black.into();
            send(msg);
            if let Some((prev_pos, prev)) = &before {
                send(verdict::<G>(
                    id,
                    ply - 1,
                    prev_pos,
                    &moves[ply - 1],
                    prev,
                    &look,
                ));
            }
            if ply < moves.len() {
                game.push(moves[ply].clone());
            }
            before = Some((pos, look));
        }
        held.0.release();
        send(json!({"v": VERSION, "type": "review_done", "id": id}));
    });
    Ok(Box::new(Review { stop, cancelled }))
}

/// The judgement of move `k` (played in `pos`): the mover's expected result before it
/// (`prev`, the engine's look at `pos`) against after it (`after`).
fn verdict<G: ServerGame>(
    id: Option<u64>,
    k: usize,
    pos: &G,
    mv: &G::Move,
    prev: &Look,
    after: &Look,
) -> Value {
    let mover = pos.side_to_move();
    let played = pos.format_move(mv);
    let view = |black: f64| {
        if mover == Side::Black {
            black
        } else {
            1.0 - black
        }
    };
    let loss = (view(prev.black) - view(after.black)).max(0.0);
    // The engine's own move loses nothing: what seems lost is the search seeing further.
    let best_played = prev.best.as_deref() == Some(played.as_str());
    let judgement = if best_played { None } else { judge(loss) };
    let mut v = json!({
        "v": VERSION, "type": "review_move", "id": id, "ply": k, "move": played,
        "side": side_name(mover), "loss": (loss * 1000.0).round() / 1000.0,
        "judgement": judgement, "best": prev.best, "line": prev.line,
    });
    if let Some(c) = pos.line_chinese(&prev.line) {
        v["line_chinese"] = c.into();
    }
    v
}

/// Starts a `review`; its messages go to `out`.
pub fn review(
    req: &AnalyzeRequest,
    out: Outbox,
    limits: &ServerLimits,
    slot: Arc<Slot>,
) -> Result<Running, String> {
    let kind: GameKind = req.game.parse().map_err(|e| format!("{e}"))?;
    with_game!(kind, G => review_game::<G>(req, out, limits, slot)).map_err(|e| e.to_string())?
}

#[cfg(test)]
mod tests {
    use super::judge;

    #[test]
    fn losses_are_judged_by_thresholds() {
        assert_eq!(judge(0.05), None);
        assert_eq!(judge(0.1), Some("inaccuracy"));
        assert_eq!(judge(0.25), Some("mistake"));
        assert_eq!(judge(0.3), Some("blunder"));
        assert_eq!(judge(0.9), Some("blunder"));
    }
}
