//! The error every parser in Boyi returns: a message a person can act on.

use std::fmt;

/// Malformed or illegal text: a position, a move, a variant name, a protocol line.
///
/// The message names the offending part (`"row 3 has 16 points, expected 15"`), so it can be
/// shown to a user as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TextError(pub String);

impl TextError {
    pub fn new(msg: impl fmt::Display) -> Self {
        TextError(msg.to_string())
    }

    /// Prefixes the message with where the error happened (`"move 3: ..."`).
    pub fn context(self, what: impl fmt::Display) -> Self {
        TextError(format!("{what}: {}", self.0))
    }
}

/// `Err(TextError)` from a format string: `bail!("bad side {s:?}")`.
#[macro_export]
macro_rules! text_err {
    ($($arg:tt)*) => { $crate::TextError(format!($($arg)*)) };
}
