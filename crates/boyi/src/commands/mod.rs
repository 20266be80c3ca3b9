//! One module per group of subcommands.

pub mod analyze;
pub mod bench;
pub mod book;
pub mod engine;
pub mod matches;
pub mod play;
pub mod record;
pub mod recording;
pub mod rules;
pub mod serve;
pub mod solve;
pub mod vision;
