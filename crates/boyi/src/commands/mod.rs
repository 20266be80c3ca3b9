//! One module per group of subcommands.

pub mod book;
pub mod play;
pub mod record;
pub mod rules;
pub mod serve;
