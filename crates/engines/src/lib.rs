//! Players: everything in Boyi that chooses moves.
//!
//! - [`player`]: the [`Player`] trait, game history, search limits, thinking output, stop flag.
//! - [`search`]: the search layer under the strong engines: transposition table, time,
//!   search values, thinking line, and the wrapper that makes a search a player.
//! - [`thread`]: a player on its own thread, so callers are never blocked by a search.
//! - [`alphabeta`], [`random`]: the first built-in players; [`eval`]: their evaluations.
//! - [`book`]: any player with an opening book.
//! - [`registry`]: built-in players by spec (`boyi:alphabeta?depth=3`).
//! - [`levels`]: named levels for people, each a player spec with a depth budget.
//! - [`tictactoe`], [`testing`]: a tiny complete game and deterministic players for fast
//!   tests of generic code.

#[macro_use]
extern crate boyi_core;

pub mod alphabeta;
pub mod book;
pub mod connect6;
pub mod eval;
pub mod gomoku;
pub mod jiu;
pub mod levels;
pub mod options;
pub mod player;
pub mod random;
pub mod registry;
pub mod search;
pub mod testing;
pub mod thread;
pub mod tictactoe;
pub mod tune;
pub mod xiangqi;

pub use book::{BookChoice, BookPlayer, OpeningBook};
pub use player::{
    Clock, GameHistory, Info, InfoSink, Limits, Player, PlayerError, Score, StopFlag, StopTimer,
    Swap2Reply,
};
pub use registry::{BenchPosition, BuildContext, BuiltinSpec, GamePlayers, Solution, build};
pub use search::Deadline;
pub use thread::{PlayerThread, SearchEvent};
