//! The rules of the games Boyi plays. Pure: no I/O, no threads, no clocks; deterministic.
//!
//! Each game is one module holding its rules, position text and move text together, and one
//! type implementing [`boyi_core::Game`]. [`GameKind`] names them for callers that choose a
//! game at run time, and [`with_game!`] turns that choice into a monomorphized call.

#[macro_use]
extern crate boyi_core;

use boyi_core::TextError;
use std::fmt;
use std::str::FromStr;

/// The games, by their command-line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    Gomoku,
    Connect6,
    Jiu,
    Xiangqi,
}

impl GameKind {
    pub const ALL: [GameKind; 4] = [
        GameKind::Gomoku,
        GameKind::Connect6,
        GameKind::Jiu,
        GameKind::Xiangqi,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GameKind::Gomoku => "gomoku",
            GameKind::Connect6 => "connect6",
            GameKind::Jiu => "jiu",
            GameKind::Xiangqi => "xiangqi",
        }
    }
}

impl FromStr for GameKind {
    type Err = TextError;
    fn from_str(s: &str) -> Result<Self, TextError> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name() == s.to_ascii_lowercase())
            .ok_or_else(|| {
                TextError(format!(
                    "unknown game {s:?} (expected gomoku, connect6, jiu or xiangqi)"
                ))
            })
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `$body` with `$G` bound to the rules type of the game `$kind`:
/// `with_game!(kind, G => run::<G>(args))`. The value is `Ok::<_, TextError>(body)`, so
/// callers can chain `?` whatever their body returns.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {{
        match $kind {
            $crate::GameKind::Gomoku => {
                type $G = $crate::gomoku::Gomoku;
                Ok::<_, ::boyi_core::TextError>($body)
            }
            $crate::GameKind::Connect6 => {
                type $G = $crate::connect6::Connect6;
                Ok($body)
            }
            $crate::GameKind::Jiu => {
                type $G = $crate::jiu::Jiu;
                Ok($body)
            }
            $crate::GameKind::Xiangqi => {
                type $G = $crate::xiangqi::Xiangqi;
                Ok($body)
            }
        }
    }};
}

pub mod connect6;
pub mod gomoku;
pub mod grid;
pub mod jiu;
pub mod xiangqi;
