//! What the machine was doing during a match. On a loaded machine every process gets a
//! changing share of the cores and waits to be scheduled, so a match's result measures the
//! machine as much as the players: the report gives the load average with the score.

/// The 1-minute load average of the machine (Linux `/proc/loadavg`); `None` where the system
/// does not tell.
pub fn load_average() -> Option<f64> {
    parse_loadavg(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

/// The first field of `/proc/loadavg`: `0.52 0.58 0.59 1/467 12345`.
fn parse_loadavg(text: &str) -> Option<f64> {
    text.split_whitespace()
        .next()?
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
}

/// The load average over a match: at its start, after each game, at its end.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LoadWatch {
    pub start: Option<f64>,
    pub end: Option<f64>,
    /// The highest reading after a game.
    pub highest: Option<f64>,
}

impl LoadWatch {
    /// Starts watching with the load now.
    pub fn begin() -> LoadWatch {
        LoadWatch {
            start: load_average(),
            ..LoadWatch::default()
        }
    }

    /// Takes a reading after a game.
    pub fn sample(&mut self) {
        self.note(load_average());
    }

    /// Takes the last reading, at the end of the match.
    pub fn finish(&mut self) {
        self.end = load_average();
        self.note(self.end);
    }

    fn note(&mut self, reading: Option<f64>) {
        if let Some(v) = reading {
            self.highest = Some(self.highest.map_or(v, |h| h.max(v)));
        }
    }

    /// The report's line: `load average: 0.52 at the start, 1.10 at the end, 1.31 at most`.
    pub fn line(&self) -> String {
        let show = |v: Option<f64>| v.map_or_else(|| "unknown".to_string(), |v| format!("{v:.2}"));
        let mut line = format!(
            "load average: {} at the start, {} at the end",
            show(self.start),
            show(self.end)
        );
        if self.highest.is_some() {
            line += &format!(", {} at most", show(self.highest));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loadavg_text_is_read_and_bad_text_is_none() {
        assert_eq!(parse_loadavg("0.52 0.58 0.59 1/467 12345\n"), Some(0.52));
        assert_eq!(parse_loadavg("13.75 12.01 9.40 14/900 1"), Some(13.75));
        for bad in ["", "  ", "x 1 2", "-1 0 0", "NaN 0 0", "inf 0 0"] {
            assert_eq!(parse_loadavg(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_watch_keeps_the_highest_reading() {
        let mut w = LoadWatch {
            start: Some(0.5),
            ..LoadWatch::default()
        };
        w.note(Some(3.25));
        w.note(None);
        w.note(Some(1.0));
        w.end = Some(0.75);
        assert_eq!(w.highest, Some(3.25));
        assert_eq!(
            w.line(),
            "load average: 0.50 at the start, 0.75 at the end, 3.25 at most"
        );
        assert_eq!(
            LoadWatch::default().line(),
            "load average: unknown at the start, unknown at the end"
        );
    }
}
