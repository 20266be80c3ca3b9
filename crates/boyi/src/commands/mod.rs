//! One module per group of subcommands.

pub mod book;
pub mod play;
pub mod record;
pub mod analyze;
pub mod bench;
pub mod engine;
pub mod matches;
pub mod rules;
pub mod solve;
pub mod serve;
