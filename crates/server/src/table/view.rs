//! What the watchers of a table see: the full state, the update after one move, the lobby
//! line — and their sending.

use super::{Played, Table};
use crate::games::ServerGame;
use crate::protocol::VERSION;
use crate::seat::side_name;
use boyi_core::Side;
use serde_json::{Value, json};
use std::sync::Arc;
use tokio::sync::mpsc;

impl<G: ServerGame> Table<G> {
    pub(super) fn broadcast(&mut self, msg: &Value) {
        let text: Arc<str> = msg.to_string().into();
        self.watchers
            .retain(|_, out| match out.try_send(text.clone()) {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Full(_)) => true,
                Err(mpsc::error::TrySendError::Closed(_)) => false,
            });
    }

    /// Sends the table's change to every watcher: after one new move (or none), an `update`
    /// to version 2 clients — the state without the move list, plus the new move — so
    /// messages do not grow with the game; otherwise, and to version 1 clients, the full state.
    pub(super) fn broadcast_state(&mut self) {
        self.refresh();
        let plies = self.log.len();
        let updates = !self.full_due && (plies == self.sent_plies || plies == self.sent_plies + 1);
        let wants = |update: bool| {
            self.watchers
                .values()
                .any(|o| updates && o.takes_updates() == update)
        };
        let update: Option<Arc<str>> = wants(true).then(|| self.update_json().to_string().into());
        let full: Option<Arc<str>> =
            (!updates || wants(false)).then(|| self.state_json().to_string().into());
        self.watchers.retain(|_, out| {
            let text = match (&update, &full) {
                (Some(u), _) if out.takes_updates() => u.clone(),
                (_, Some(f)) => f.clone(),
                (Some(u), None) => u.clone(),
                (None, None) => return true,
            };
            !matches!(
                out.try_send(text),
                Err(mpsc::error::TrySendError::Closed(_))
            )
        });
        self.sent_plies = plies;
        self.full_due = false;
    }

    /// Recomputes what every state message shares: the hints and the lobby line.
    pub(super) fn refresh(&mut self) {
        self.hints = if self.playing() {
            self.history.current().hints()
        } else {
            Value::Null
        };
        let summary = json!({
            "table": self.id,
            "game": G::NAME,
            "variant": self.history.current().variant().to_string(),
            "seats": self.public_seats(),
            "moves": self.log.len(),
            "to_move": side_name(self.to_move()),
            "status": if self.playing() { "playing" } else { "finished" },
            "result": self.result_json(),
            "clock": self.options.clock,
            "changed_ms": crate::store::now_ms(),
        });
        *self.summary.lock().unwrap_or_else(|e| e.into_inner()) = summary;
    }

    pub(super) fn public_seats(&self) -> Value {
        Value::Array(
            Side::BOTH
                .into_iter()
                .map(|s| self.seats[s.index()].public(s, G::side_name(s)))
                .collect(),
        )
    }

    pub(super) fn result_json(&self) -> Value {
        match &self.result {
            None => Value::Null,
            Some(r) => json!({
                "winner": r.winner().map(side_name),
                "reason": r.text(),
            }),
        }
    }

    pub(super) fn state_json(&self) -> Value {
        let mut v = self.live_json();
        v["type"] = "state".into();
        v["options"] = self.options.public();
        v["seats"] = self.public_seats();
        v["start"] = self.history.start().to_text().into();
        v["moves"] = self.log.iter().map(Played::json).collect();
        v
    }

    /// What changed with the last move: the state without its move list, with the number
    /// of moves and the newest one.
    pub(super) fn update_json(&self) -> Value {
        let mut v = self.live_json();
        v["type"] = "update".into();
        v["plies"] = self.log.len().into();
        v["move"] = self.log.last().map_or(Value::Null, Played::json);
        v
    }

    /// The fields every state and update carries.
    pub(super) fn live_json(&self) -> Value {
        let clocks = self.clocks.map(|c| {
            let running = self.flag_deadline().is_some().then(|| self.to_move());
            let mut left = c.map(|d| d.as_millis() as u64);
            if let Some(s) = running {
                left[s.index()] =
                    left[s.index()].saturating_sub(self.turn_started.elapsed().as_millis() as u64);
            }
            json!({"black": left[0], "white": left[1], "running": running.map(side_name)})
        });
        let pos = self.history.current();
        json!({
            "v": VERSION,
            "table": self.id,
            "game": G::NAME,
            "variant": pos.variant().to_string(),
            "position": pos.to_text(),
            "to_move": side_name(pos.side_to_move()),
            "clocks": clocks,
            "status": if self.playing() { "playing" } else { "finished" },
            "result": self.result_json(),
            "offers": {
                "draw": self.draw_offer.map(side_name),
                "undo": self.undo_request.map(side_name),
            },
            "thinking": self.awaiting.map(|(s, _)| side_name(s)),
            "check": pos.check(),
            "hints": self.hints,
        })
    }
}
