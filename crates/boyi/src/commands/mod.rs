//! One module per group of subcommands.

pub mod analyze;
pub mod bench;
pub mod engine;
pub mod matches;
pub mod rules;
pub mod solve;
