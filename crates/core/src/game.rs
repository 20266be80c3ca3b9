//! The game abstraction. Every rule set (Gomoku, Connect6, Jiu, Xiangqi) is one type
//! implementing [`Game`]; every caller — engines, protocols, arena, server, records, the
//! command line — is written against this trait alone.
//!
//! A move is whatever one turn is in that game: a stone, a pair of Connect6 stones, a Jiu
//! jump chain with its square captures, a Xiangqi move. Callers never look inside it: they
//! list, play, undo, format and parse moves, so no game needs special cases elsewhere.

use crate::{Outcome, Side, TextError};
use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

/// A position of one game, with the history needed to undo moves and to apply history rules
/// (repetition, pass counting, move limits).
///
/// Invariants every implementation keeps (checked for every game by
/// [`crate::testing::check_random_games`]):
/// - the game is over ([`Game::outcome`] is `Some`) if and only if there are no legal moves;
/// - [`Game::play`] then [`Game::undo`] restores an equal position with an equal hash;
/// - [`Game::hash`] (incremental) equals [`Game::compute_hash`] (from scratch);
/// - [`Game::from_text`] of [`Game::to_text`] gives back the same text and hash, and every legal
///   move's [`Game::format_move`] parses back to the same move;
/// - legal moves are distinct: one entry per move identity as the rules define it.
pub trait Game: Clone + PartialEq + Eq + fmt::Debug + Send + Sync + Sized + 'static {
    /// One turn of the game.
    type Move: Clone + PartialEq + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// The rule set within the game (`renju`, `icga`, ...); travels beside the position text.
    type Variant: Clone
        + PartialEq
        + Eq
        + fmt::Debug
        + fmt::Display
        + FromStr<Err = TextError>
        + Default
        + Send
        + Sync
        + 'static;

    /// The game's name on the command line: `gomoku`, `connect6`, `jiu`, `xiangqi`.
    const NAME: &'static str;
    /// The names [`Game::Variant`] parses, default first.
    const VARIANTS: &'static [&'static str];

    /// The start position of `variant` on a board of `size` lines (`None`: the game's default
    /// size). Games with a fixed board reject any other size.
    fn start(variant: &Self::Variant, size: Option<usize>) -> Result<Self, TextError>;

    /// Parses canonical position text (positions.md). Strict: errors name the bad part.
    fn from_text(variant: &Self::Variant, text: &str) -> Result<Self, TextError>;

    /// The canonical position text.
    fn to_text(&self) -> String;

    fn variant(&self) -> &Self::Variant;

    fn side_to_move(&self) -> Side;

    /// How the game names a side in words (`"black"`, `"white"`, `"red"`).
    fn side_name(side: Side) -> &'static str {
        match side {
            Side::Black => "black",
            Side::White => "white",
        }
    }

    /// Appends every legal move to `out` (which callers clear). Empty iff the game is over.
    fn generate_moves(&self, out: &mut Vec<Self::Move>);

    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut v = Vec::new();
        self.generate_moves(&mut v);
        v
    }

    fn is_legal(&self, mv: &Self::Move) -> bool {
        self.legal_moves().contains(mv)
    }

    /// Plays a legal move. Playing an illegal move is a logic error: callers get moves from
    /// [`Game::generate_moves`] or [`Game::parse_move`], which only yield legal ones.
    fn play(&mut self, mv: &Self::Move);

    /// Takes back the last move played; `false` if there is none (e.g. a position just read
    /// from text).
    fn undo(&mut self) -> bool;

    /// How many moves can be taken back.
    fn history_len(&self) -> usize;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The incrementally maintained Zobrist hash of the position (placement, side to move and
    /// whatever else the position text holds).
    fn hash(&self) -> u64;

    /// The same hash computed from scratch (tests compare the two).
    fn compute_hash(&self) -> u64;

    /// Parses move text and checks it is legal here: errors say whether the text is
    /// malformed or the move illegal, and why.
    fn parse_move(&self, text: &str) -> Result<Self::Move, TextError>;

    /// The canonical text of a legal move in this position.
    fn format_move(&self, mv: &Self::Move) -> String;

    /// The position drawn as a text board with coordinates, side to move and outcome.
    fn render(&self, opts: &RenderOptions) -> String;

    /// The number of move paths of length `depth`. Games may override it with a faster count
    /// (bulk counting at the last ply); the result must stay the same.
    fn perft(&mut self, depth: u32) -> u64 {
        crate::perft::perft_generic(self, depth)
    }

    /// Plays a comma-separated move list (positions.md); errors name the move that failed.
    fn play_list(&mut self, list: &str) -> Result<(), TextError> {
        if list.trim().is_empty() {
            return Ok(());
        }
        for (i, text) in list.split(',').enumerate() {
            let mv = self
                .parse_move(text.trim())
                .map_err(|e| e.context(format!("move {} ({:?})", i + 1, text.trim())))?;
            self.play(&mv);
        }
        Ok(())
    }
}

/// How [`Game::render`] draws a board.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Chinese piece names (Xiangqi) instead of Latin letters.
    pub chinese: bool,
}

/// The variant type of games with a single rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NoVariant;

impl FromStr for NoVariant {
    type Err = TextError;
    fn from_str(s: &str) -> Result<Self, TextError> {
        match s {
            "standard" => Ok(NoVariant),
            _ => Err(text_err!(
                "unknown variant {s:?} (this game has only \"standard\")"
            )),
        }
    }
}

impl fmt::Display for NoVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("standard")
    }
}
