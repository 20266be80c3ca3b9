//! What clients may make the server compute: computer seats in games in progress and running
//! analyses, per connection and in all, a cap on thinking time, and no built-in player that
//! asks for more than its share (threads, hash memory). Every refusal says which bound was
//! reached and what to do.

use crate::limits::Limits;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Threads a built-in player at a table or on the analysis board may use.
pub const MAX_THREADS: u64 = 1;
/// Hash memory a built-in player at a table or on the analysis board may use, in MB.
pub const MAX_HASH_MB: u64 = 256;

/// Refuses a built-in player spec that asks for more than one seat's share of the machine.
pub fn check_player_options(spec: &str) -> Result<(), String> {
    let body = spec.strip_prefix("boyi:").unwrap_or(spec);
    let parsed = boyi_engines::BuiltinSpec::parse(body).map_err(|e| e.to_string())?;
    for (key, max, unit) in [("threads", MAX_THREADS, ""), ("hash", MAX_HASH_MB, " MB")] {
        if let Some(v) = parsed.text(key) {
            match v.parse::<u64>() {
                Ok(n) if n <= max => {}
                _ => {
                    return Err(format!(
                        "player option {key}={v} is more than this server gives a player (at most {max}{unit})"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Checks a thinking time against the server's cap.
pub fn check_think_ms(think_ms: u64, limits: &Limits) -> Result<(), String> {
    let max = limits.max_think_ms;
    if (10..=max).contains(&think_ms) {
        Ok(())
    } else {
        Err(format!(
            "think_ms must be between 10 and {max} on this server (got {think_ms})"
        ))
    }
}

/// A bounded count of things running at once.
#[derive(Debug)]
pub struct Pool {
    used: Arc<AtomicUsize>,
    max: usize,
}

/// One unit of a [`Pool`], given back when released or dropped (whichever comes first).
#[derive(Debug)]
pub struct Slot {
    used: Arc<AtomicUsize>,
    released: AtomicBool,
}

impl Pool {
    pub fn new(max: usize) -> Pool {
        Pool {
            used: Arc::new(AtomicUsize::new(0)),
            max,
        }
    }

    pub fn max(&self) -> usize {
        self.max
    }

    pub fn in_use(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }

    /// Takes a unit, or `None` when all are in use.
    pub fn take(&self) -> Option<Arc<Slot>> {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()?;
        Some(Arc::new(Slot {
            used: self.used.clone(),
            released: AtomicBool::new(false),
        }))
    }
}

impl Slot {
    pub fn release(&self) {
        if !self.released.swap(true, Ordering::SeqCst) {
            self.used.fetch_sub(1, Ordering::SeqCst);
        }
    }

    pub fn is_released(&self) -> bool {
        self.released.load(Ordering::SeqCst)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.release();
    }
}

/// A slot released when this is dropped (a search thread's every way out).
pub struct Held(pub Arc<Slot>);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// The computer seats of a table, as its lobby summary shows them, while its game is in
/// progress.
pub fn computer_seats(summary: &serde_json::Value) -> usize {
    if summary["status"] != "playing" {
        return 0;
    }
    summary["seats"].as_array().map_or(0, |seats| {
        seats.iter().filter(|s| s["kind"] == "computer").count()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pools_count_slots_until_released_or_dropped() {
        let pool = Pool::new(2);
        let a = pool.take().unwrap();
        let b = pool.take().unwrap();
        assert!(pool.take().is_none());
        a.release();
        a.release();
        assert_eq!(pool.in_use(), 1);
        drop(a);
        assert_eq!(pool.in_use(), 1);
        drop(b);
        assert_eq!(pool.in_use(), 0);
        assert!(pool.take().is_some());
    }

    #[test]
    fn players_asking_for_more_than_a_share_are_refused() {
        assert!(check_player_options("boyi:strong").is_ok());
        assert!(check_player_options("boyi:strong?threads=1,hash=256").is_ok());
        let e = check_player_options("boyi:strong?threads=8").unwrap_err();
        assert!(e.contains("threads=8") && e.contains("at most 1"), "{e}");
        let e = check_player_options("strong?hash=16384").unwrap_err();
        assert!(e.contains("at most 256 MB"), "{e}");
        assert!(check_player_options("boyi:strong?hash=99999999999999999999999").is_err());
        let limits = Limits::default();
        assert!(check_think_ms(30_000, &limits).is_ok());
        let e = check_think_ms(60_000, &limits).unwrap_err();
        assert!(e.contains("between 10 and 30000"), "{e}");
    }

    #[test]
    fn computer_seats_count_while_the_game_is_in_progress() {
        let seats = json!([{"kind": "computer"}, {"kind": "human"}]);
        assert_eq!(
            computer_seats(&json!({"status": "playing", "seats": seats})),
            1
        );
        assert_eq!(
            computer_seats(&json!({"status": "finished", "seats": seats})),
            0
        );
    }
}
