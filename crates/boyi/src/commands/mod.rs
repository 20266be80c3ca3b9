//! One module per group of subcommands.

pub mod play;
pub mod rules;
pub mod serve;
