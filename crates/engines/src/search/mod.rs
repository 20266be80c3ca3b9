//! The search layer under the games' engines: what every strong engine needs and no game
//! owns. Each game keeps only what is its own (move generation for search, evaluation, threat
//! search, move ordering).
//!
//! - [`score`]: search values, the band of decided games (mates and rule wins), and their
//!   outward form, [`boyi_core::Score`];
//! - [`tt`]: the transposition table, one lock-free layout for every game;
//! - [`time`]: when a search ends, for every form of limit;
//! - [`pv`]: the principal variation and the thinking line a player reports;
//! - [`engine`]: the wrapper that makes a game's search a [`crate::Player`]: game over,
//!   banned and forced moves, never an illegal move.
//!
//! Files here depend on [`crate::player`] and on each other in this order only: `tt` on
//! `score`, `engine` on `time`; `pv` on neither.

pub mod engine;
pub mod pv;
pub mod score;
pub mod time;
pub mod tt;

pub use engine::{Engine, Search};
pub use time::{Deadline, TimeManager};
