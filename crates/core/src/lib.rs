//! The ground floor of Boyi: the one game abstraction every rule set implements and every
//! other layer (engines, protocols, arena, server, records) is written against.
//!
//! - [`Game`]: a position with its history — legal moves, play and undo, outcome, Zobrist
//!   hash, canonical text of positions and moves.
//! - [`Side`], [`Outcome`], [`Reason`]: who moves, how a game ended and why.
//! - [`Score`]: a search evaluation, as engines give it and records keep it.
//! - [`Point`]: an intersection of a square grid, with the text and protocol coordinates
//!   the grid games share.
//! - [`zobrist`], [`rng`]: deterministic keys and randomness without dependencies.
//! - [`perft`]: move-path counting for every game; [`testing`]: the random-game consistency
//!   check every game must pass.

#[macro_use]
pub mod error;
pub mod game;
pub mod perft;
pub mod point;
pub mod rng;
pub mod score;
pub mod side;
pub mod testing;
pub mod zobrist;

pub use error::TextError;
pub use game::{Game, NoVariant, RenderOptions};
pub use point::Point;
pub use score::Score;
pub use side::{Outcome, Reason, Side};
