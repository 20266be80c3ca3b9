//! One module per group of subcommands.

pub mod engine;
pub mod matches;
pub mod rules;
