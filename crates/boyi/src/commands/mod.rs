//! One module per group of subcommands.

pub mod rules;
pub mod play;
pub mod serve;
