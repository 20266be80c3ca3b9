//! One module per group of subcommands.

pub mod book;
pub mod record;
pub mod rules;
