//! Time controls of a match: `[moves/]base[+increment]` in seconds, read from the command
//! line, written into each game's record.

use boyi_core::TextError;
use std::time::Duration;

/// The longest base time or increment of a time control: about eleven days, far beyond
/// any real match, and far from where clock arithmetic could overflow.
const LONGEST_TC_SECONDS: f64 = 1e6;

/// A time control: `base` for the game, `increment` per move, optionally `moves` per period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
    pub moves: Option<u32>,
}

impl std::fmt::Display for TimeControl {
    /// `[moves/]base[+increment]` in seconds, as [`TimeControl::parse`] reads it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

impl TimeControl {
    /// Parses `[moves/]base[+increment]`, seconds (fractions allowed): `10+0.1`, `40/60`.
    pub fn parse(text: &str) -> Result<TimeControl, TextError> {
        let bad = || {
            text_err!("--tc {text:?}: expected [moves/]base[+increment] in seconds, e.g. 10+0.1")
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (Some(m.parse::<u32>().map_err(|_| bad())?.max(1)), r),
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let secs = |s: &str| {
            let v: f64 = s.parse().map_err(|_| bad())?;
            if !(v.is_finite() && v >= 0.0) {
                return Err(bad());
            }
            if v > LONGEST_TC_SECONDS {
                return Err(text_err!(
                    "--tc {text:?}: {s} s is longer than a control can be ({LONGEST_TC_SECONDS} s)"
                ));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let tc = TimeControl {
            base: secs(base)?,
            increment: secs(inc)?,
            moves,
        };
        if tc.base.is_zero() {
            return Err(text_err!("--tc {text:?}: the base time must be positive"));
        }
        Ok(tc)
    }
}

#[cfg(test)]
mod tests {
    use super::TimeControl;
    use std::time::Duration;

    #[test]
    fn time_controls_parse_and_absurd_ones_are_refused() {
        let tc = TimeControl::parse("40/60+0.5").unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.base, Duration::from_secs(60));
        assert_eq!(tc.increment, Duration::from_millis(500));
        assert_eq!(TimeControl::parse("10").unwrap().increment, Duration::ZERO);
        for bad in [
            "",
            "0",
            "x+1",
            "-5",
            "nan",
            "inf",
            "1e300",
            "10/18446744073709551615",
            "4294967296/10",
            "10+1e20",
        ] {
            assert!(
                TimeControl::parse(bad).is_err(),
                "{bad:?} should be refused"
            );
        }
        let long = TimeControl::parse("1e300").unwrap_err().to_string();
        assert!(long.contains("longer than a control can be"), "{long}");
    }
}
