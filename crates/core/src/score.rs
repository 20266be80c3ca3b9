//! A search evaluation, shared by the engines (which produce it) and the records (which keep
//! it beside a move).

use crate::TextError;
use std::fmt;
use std::str::FromStr;

/// A search evaluation: in the game's units from the mover's view, or a forced win/loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    Units(i32),
    /// Mate in this many moves of the mover (negative: the mover is mated).
    Mate(i32),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Units(v) => write!(f, "{v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

impl FromStr for Score {
    type Err = TextError;

    /// Reads what [`Score`]'s `Display` writes: `35`, `-120`, `mate 3`, `mate -2`.
    fn from_str(s: &str) -> Result<Score, TextError> {
        let t = s.trim();
        let (mate, number) = match t.strip_prefix("mate") {
            Some(n) => (true, n.trim()),
            None => (false, t),
        };
        let v: i32 = number
            .parse()
            .map_err(|_| text_err!("score {s:?} must be a whole number or \"mate N\""))?;
        Ok(if mate {
            Score::Mate(v)
        } else {
            Score::Units(v)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Score;

    #[test]
    fn scores_read_back_what_they_write() {
        for s in [
            Score::Units(35),
            Score::Units(-120),
            Score::Mate(3),
            Score::Mate(-2),
        ] {
            assert_eq!(s.to_string().parse::<Score>().unwrap(), s);
        }
        assert!("mate".parse::<Score>().is_err());
        assert!("1.5".parse::<Score>().is_err());
    }
}
