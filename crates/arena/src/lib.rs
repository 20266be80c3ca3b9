//! The arena: matches between Players, with openings, clocks, adjudication, records, and the
//! statistics that say which player is stronger (Elo with a 95% interval, SPRT).
//!
//! - [`openings`]: random-ply and file openings;
//! - [`runner`]: playing the games, concurrently;
//! - [`record`]: each game's record, in the one record model of `boyi-records`;
//! - [`stats`]: Elo, interval, SPRT;
//! - [`time_control`]: clocks of a match (`10+0.1`, `40/60`);
//! - [`report`]: the progress bar and the printed summary;
//! - [`machine`]: the machine's load average during a match.

#[macro_use]
extern crate boyi_core;

pub mod machine;
pub mod openings;
pub mod record;
pub mod report;
pub mod runner;
pub mod stats;
pub mod time_control;

pub use record::opening_plies;
pub use runner::{
    GameResult, MatchConfig, OpeningRule, Thinking, TimeControl, play_game, run_match,
};
pub use stats::{Decision, Sprt, Verdict, Wdl};
