//! A table's computer seats: each runs its player on a thread of its own; its thinking and
//! its move come back to the table task as events.

use super::{Table, log, score_text};
use crate::games::{ServerGame, black_expected};
use crate::protocol::VERSION;
use crate::seat::{SeatKind, side_name};
use boyi_core::{Reason, Side};
use boyi_engines::{BuildContext, Clock, Info, Limits, PlayerThread, SearchEvent};
use boyi_records::GameResult;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

pub(super) struct Engine<G: ServerGame> {
    pub(super) thread: PlayerThread<G>,
    /// Jobs sent to the thread so far; the result of job `sent` is the one awaited.
    pub(super) sent: u64,
}

pub(super) struct EngineEvent<G: ServerGame> {
    pub(super) side: Side,
    pub(super) job: u64,
    pub(super) event: SearchEvent<G>,
}

impl<G: ServerGame> Table<G> {
    /// Forgets the awaited engine move (after an undo or the end of the game).
    pub(super) fn cancel_engine(&mut self) {
        if let Some((side, _)) = self.awaiting.take()
            && let Some(e) = &self.engines[side.index()]
        {
            e.thread.stop();
        }
        self.thinking = None;
        self.engine_deadline = None;
    }

    /// A level's search ran past its bound (a very slow machine, or a clock running low):
    /// it is told to move now.
    pub(super) fn on_overrun(&mut self) {
        self.engine_deadline = None;
        if let Some((side, _)) = self.awaiting
            && let Some(e) = &self.engines[side.index()]
        {
            e.thread.stop();
        }
    }

    /// Starts the computer's search if a computer seat is to move and none is running.
    pub(super) async fn start_engine_if_due(&mut self) {
        let side = self.to_move();
        let SeatKind::Computer {
            player,
            think_ms,
            level,
        } = &self.seats[side.index()].kind
        else {
            return;
        };
        if !self.playing() || self.awaiting.is_some() {
            return;
        }
        let (player, think_ms, level) = (player.clone(), *think_ms, level.is_some());
        if self.engines[side.index()].is_none() {
            match self.spawn_engine(side, &player) {
                Ok(e) => self.engines[side.index()] = Some(e),
                Err(e) => {
                    let result = GameResult::win(side.opponent(), Reason::Crash)
                        .with_detail(format!("{player} could not start: {e}"));
                    if let Err(e) = self.finish(result).await {
                        log(&self.id, &e);
                    }
                    self.broadcast_state();
                    return;
                }
            }
        }
        let clock = self.clocks.map(|c| Clock {
            time_left: c,
            increment: [Duration::from_millis(self.options.clock.map_or(0, |c| c.inc_ms)); 2],
            moves_to_go: None,
        });
        // A level searches its spec's own depth, with no time limit, so it plays alike on
        // any machine; `think_ms` and most of its clock only bound it.
        let limits = if level {
            let cap = Duration::from_millis(think_ms);
            let left = clock.map(|c| c.time_left[side.index()] * 4 / 5);
            self.engine_deadline = Some(Instant::now() + left.map_or(cap, |l| l.min(cap)));
            Limits::default()
        } else {
            Limits {
                movetime: Some(Duration::from_millis(think_ms)),
                clock,
                ..Limits::default()
            }
        };
        let engine = self.engines[side.index()].as_mut().expect("spawned above");
        engine.sent += 1;
        engine
            .thread
            .search(self.history.clone(), limits, engine.sent == 1);
        self.awaiting = Some((side, engine.sent));
    }

    pub(super) fn spawn_engine(&self, side: Side, spec: &str) -> Result<Engine<G>, String> {
        let player = if spec.starts_with(crate::external::PREFIX) {
            self.external.start::<G>(spec)?
        } else {
            let body = spec.strip_prefix("boyi:").unwrap_or(spec);
            let ctx = BuildContext {
                seed: self.history.current().hash() ^ self.log.len() as u64,
            };
            boyi_engines::build::<G>(body, ctx).map_err(|e| e.to_string())?
        };
        let tx = self.engine_tx.clone();
        let mut job = 1u64;
        let thread = PlayerThread::spawn(player, move |event: SearchEvent<G>| {
            let done = matches!(event, SearchEvent::Done(_));
            let _ = tx.send(EngineEvent { side, job, event });
            if done {
                job += 1;
            }
        });
        Ok(Engine { thread, sent: 0 })
    }

    pub(super) async fn on_engine(&mut self, ev: EngineEvent<G>) {
        if self.awaiting != Some((ev.side, ev.job)) {
            return;
        }
        match ev.event {
            SearchEvent::Info(info) => {
                let msg = thinking_json(&self.id, self.history.current(), ev.side, &info);
                self.broadcast(&msg);
                self.thinking = Some(msg);
            }
            SearchEvent::Done(result) => {
                self.awaiting = None;
                self.engine_deadline = None;
                let outcome = match result {
                    Ok(mv) if self.history.current().is_legal(&mv) => self.play(mv).await,
                    Ok(mv) => {
                        let result = GameResult::win(ev.side.opponent(), Reason::IllegalMove)
                            .with_detail(format!("{mv:?}"));
                        self.finish(result).await
                    }
                    Err(e) => {
                        let result = GameResult::win(ev.side.opponent(), Reason::Crash)
                            .with_detail(e.to_string());
                        self.finish(result).await
                    }
                };
                if let Err(e) = outcome {
                    log(&self.id, &e);
                }
                self.broadcast_state();
                self.start_engine_if_due().await;
            }
            // A table asks its seats for no swap decision.
            SearchEvent::Swap(_) => {}
        }
    }
}

/// A computer seat's thinking; `pos` is the position it thinks about.
pub(super) fn thinking_json<G: ServerGame>(table: &str, pos: &G, side: Side, info: &Info) -> Value {
    let mut v = json!({
        "v": VERSION,
        "type": "thinking",
        "table": table,
        "side": side_name(side),
        "depth": info.depth,
        "score": info.score.map(score_text),
        "pv": info.pv,
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": info.time.map(|t| t.as_millis() as u64),
        "text": info.text,
    });
    if let Some(s) = info.score {
        v["black"] = black_expected::<G>(s, side).into();
    }
    if let Some(c) = pos.line_chinese(&info.pv) {
        v["pv_chinese"] = c.into();
    }
    v
}
