//! A move played at a table, as the table keeps it.

use crate::seat::side_name;
use boyi_core::Side;
use boyi_records::RecordedMove;
use serde_json::{Value, json};
use std::time::Duration;

/// A move played at the table: the move as the record keeps it (text, thinking time, the
/// mover's clock after it), and what the table derives from the position it was played in.
pub(super) struct Played {
    pub(super) mv: RecordedMove,
    pub(super) side: Side,
    pub(super) notations: Vec<(&'static str, String)>,
    /// Hash of the position after the move (the store indexes it).
    pub(super) hash: u64,
}

impl Played {
    pub(super) fn json(&self) -> Value {
        let mut v = json!({"text": self.mv.text, "side": side_name(self.side),
                           "ms": self.mv.time_ms.unwrap_or(0)});
        for (k, t) in &self.notations {
            v[*k] = t.as_str().into();
        }
        v
    }
}

/// Both clocks after the moves of `log`: each side's clock after its last move, `base`
/// before its first.
pub(super) fn clocks_after(log: &[Played], base: Duration) -> [Duration; 2] {
    let mut clocks = [base; 2];
    for p in log {
        if let Some(ms) = p.mv.clock_ms {
            clocks[p.side.index()] = Duration::from_millis(ms);
        }
    }
    clocks
}
