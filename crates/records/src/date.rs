//! Dates of games: validated, and partial where the source knows only part of it (PGN's
//! `2019.??.??`). The one date helper of Boyi: today's date and the date of a Unix time too.

use boyi_core::{TextError, text_err};
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A calendar date (proleptic Gregorian) whose parts may be unknown. A known day needs a
/// known month; every known part is valid (month 1–12, the day within its month, 29
/// February only in leap years when the year is known).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    pub year: Option<u16>,
    pub month: Option<u8>,
    pub day: Option<u8>,
}

impl Date {
    /// A full date, checked.
    pub fn new(year: u16, month: u8, day: u8) -> Result<Date, TextError> {
        Date::from_parts(Some(year), Some(month), Some(day))
    }

    /// A date of known and unknown parts, checked.
    pub fn from_parts(
        year: Option<u16>,
        month: Option<u8>,
        day: Option<u8>,
    ) -> Result<Date, TextError> {
        if let Some(m) = month
            && !(1..=12).contains(&m)
        {
            return Err(text_err!("month {m} is not 1 to 12"));
        }
        if let Some(d) = day {
            let Some(m) = month else {
                return Err(text_err!("a day needs its month"));
            };
            let last = days_in_month(year, m);
            if !(1..=last).contains(&d) {
                return Err(text_err!("day {d} is not in month {m} (1 to {last})"));
            }
        }
        if year.is_none() && month.is_none() {
            return Err(text_err!("a date needs a year or a month"));
        }
        Ok(Date { year, month, day })
    }

    /// Parses `2024-05-01`, `2024.05.01`, `2024/05/01`, `2024-05`, `2024`, and PGN's unknown
    /// parts `2019.??.??` (`?`, `??` or `????` for a part).
    pub fn parse(text: &str) -> Result<Date, TextError> {
        let t = text.trim();
        let bad = |why: TextError| text_err!("date {t:?}: {why}");
        let parts: Vec<&str> = t.split(['-', '.', '/']).collect();
        if parts.len() > 3 || t.is_empty() {
            return Err(bad(text_err!("expected YYYY-MM-DD (parts may be ??)")));
        }
        let field = |i: usize, digits: usize| -> Result<Option<u32>, TextError> {
            let Some(p) = parts.get(i) else {
                return Ok(None);
            };
            if !p.is_empty() && p.chars().all(|c| c == '?') {
                return Ok(None);
            }
            if p.is_empty() || p.len() > digits || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(text_err!(
                    "{p:?} is not a number of up to {digits} digits or ??"
                ));
            }
            Ok(Some(
                p.parse().map_err(|_| text_err!("{p:?} is too large"))?,
            ))
        };
        if parts[0].len() != 4 {
            return Err(bad(text_err!(
                "the year must have four digits (or be ????)"
            )));
        }
        let year = field(0, 4).map_err(bad)?.map(|y| y as u16);
        let month = field(1, 2).map_err(bad)?.map(|m| m as u8);
        let day = field(2, 2).map_err(bad)?.map(|d| d as u8);
        if year.is_none() && month.is_none() && day.is_none() {
            return Err(bad(text_err!("no part of it is known")));
        }
        Date::from_parts(year, month, day).map_err(bad)
    }

    /// The date in PGN's form: `2019.05.01`, unknown parts as `????` / `??`.
    pub fn pgn(&self) -> String {
        format!(
            "{}.{}.{}",
            self.year.map_or("????".into(), |y| format!("{y:04}")),
            self.month.map_or("??".into(), |m| format!("{m:02}")),
            self.day.map_or("??".into(), |d| format!("{d:02}"))
        )
    }

    /// Whether every part is known.
    pub fn is_full(&self) -> bool {
        self.year.is_some() && self.month.is_some() && self.day.is_some()
    }

    /// Today in UTC.
    pub fn today() -> Date {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        Date::of_unix_ms(ms)
    }

    /// The UTC date of a time in milliseconds since the Unix epoch.
    pub fn of_unix_ms(unix_ms: i64) -> Date {
        // Days to civil date (the proleptic Gregorian calendar), after Howard Hinnant's method.
        let z = unix_ms.div_euclid(86_400_000) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date {
            year: Some(year.clamp(0, 9999) as u16),
            month: Some(month as u8),
            day: Some(day as u8),
        }
    }
}

/// Boyi's form, which databases store and searches match by prefix: `2024-05-01`, a partial
/// date cut after its last known part (`2019`, `2019-05`), `????` / `??` only for unknown
/// parts before a known one (`????-05-01`).
impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.year {
            Some(y) => write!(f, "{y:04}")?,
            None => f.write_str("????")?,
        }
        if self.month.is_some() || self.day.is_some() {
            match self.month {
                Some(m) => write!(f, "-{m:02}")?,
                None => f.write_str("-??")?,
            }
        }
        if let Some(d) = self.day {
            write!(f, "-{d:02}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Date {
    type Err = TextError;
    fn from_str(s: &str) -> Result<Date, TextError> {
        Date::parse(s)
    }
}

fn days_in_month(year: Option<u16>, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 => match year {
            Some(y) if !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) => 28,
            _ => 29,
        },
        _ => 31,
    }
}

/// Checks a date search: a date prefix (`2024`, `2024-05`, `2024-05-01`) or a range
/// `FROM..TO` of such prefixes (either end may be left out). Returns the canonical
/// prefixes, for a database to compare with its stored dates.
pub fn parse_date_query(text: &str) -> Result<DateQuery, TextError> {
    let one = |t: &str| -> Result<String, TextError> {
        let d = Date::parse(t).map_err(|e| e.context("--date"))?;
        if d.year.is_none() {
            return Err(text_err!("--date {t:?}: a search needs the year"));
        }
        Ok(d.to_string())
    };
    match text.split_once("..") {
        Some((from, to)) => {
            if from.trim().is_empty() && to.trim().is_empty() {
                return Err(text_err!("--date {text:?}: a range needs FROM or TO"));
            }
            let from = (!from.trim().is_empty()).then(|| one(from)).transpose()?;
            let to = (!to.trim().is_empty()).then(|| one(to)).transpose()?;
            if let (Some(a), Some(b)) = (&from, &to)
                && a > b
            {
                return Err(text_err!("--date {text:?}: {a} is after {b}"));
            }
            Ok(DateQuery::Range(from, to))
        }
        None => Ok(DateQuery::Prefix(one(text)?)),
    }
}

/// A checked date search (see [`parse_date_query`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DateQuery {
    /// Dates that begin with this canonical prefix.
    Prefix(String),
    /// Dates from the first (inclusive) to the second (inclusive, as a prefix).
    Range(Option<String>, Option<String>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_validate_and_keep_unknown_parts() {
        let d = Date::parse("2024.02.29").unwrap();
        assert_eq!(d.to_string(), "2024-02-29");
        assert_eq!(d.pgn(), "2024.02.29");
        assert!(Date::parse("2023-02-29").is_err());
        assert!(Date::parse("2024-13").is_err());
        assert!(Date::parse("2024-04-31").is_err());
        assert!(Date::parse("2024-00-01").is_err());
        assert!(Date::parse("24-01-01").is_err());
        assert!(Date::parse("2024-1x").is_err());
        assert!(Date::parse("").is_err());
        assert!(Date::parse("????.??.??").is_err());
        let p = Date::parse("2019.??.??").unwrap();
        assert_eq!((p.year, p.month, p.day), (Some(2019), None, None));
        assert_eq!(p.to_string(), "2019");
        assert_eq!(p.pgn(), "2019.??.??");
        assert_eq!(Date::parse("2019-05").unwrap().to_string(), "2019-05");
        let q = Date::parse("????.05.01").unwrap();
        assert_eq!(q.to_string(), "????-05-01");
        assert_eq!(Date::parse(&q.to_string()).unwrap(), q);
        assert!(Date::parse("2019.??.05").is_err(), "a day needs its month");
        for text in ["2024", "2024-05", "2024-05-01", "????-05", "????-02-29"] {
            assert_eq!(Date::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn dates_from_unix_time() {
        let at = |ms| Date::of_unix_ms(ms).to_string();
        assert_eq!(at(0), "1970-01-01");
        assert_eq!(at(951_782_400_000), "2000-02-29");
        assert_eq!(at(1_709_251_199_000), "2024-02-29");
        assert_eq!(at(1_709_251_200_000), "2024-03-01");
        assert_eq!(at(-86_400_000), "1969-12-31");
        assert!(Date::today().is_full());
    }

    #[test]
    fn date_queries_are_checked() {
        assert_eq!(
            parse_date_query("2024.05").unwrap(),
            DateQuery::Prefix("2024-05".into())
        );
        assert_eq!(
            parse_date_query("2024-01..2024-06-30").unwrap(),
            DateQuery::Range(Some("2024-01".into()), Some("2024-06-30".into()))
        );
        assert_eq!(
            parse_date_query("..2020").unwrap(),
            DateQuery::Range(None, Some("2020".into()))
        );
        for bad in ["2024-13", "..", "2024-06..2024-01", "????-05", "soon"] {
            assert!(parse_date_query(bad).is_err(), "{bad}");
        }
        let e = parse_date_query("2024-13").unwrap_err().to_string();
        assert!(e.contains("month 13"), "{e}");
    }
}
