//! One module per group of subcommands.

pub mod rules;
pub mod vision;
