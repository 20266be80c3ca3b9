//! Match statistics as cutechess and fastchess compute them.
//!
//! - Score `s = (W + D/2) / N`; Elo difference from the logistic model
//!   `elo(s) = -400 · log10(1/s − 1)`.
//! - 95% interval from the trinomial variance of the per-game score,
//!   `σ² = (W(1−s)² + D(½−s)² + L·s²) / N`: with `m = 1.959964 · σ/√N`, the margin is
//!   `(elo(s+m) − elo(s−m)) / 2`, infinite when `s ± m` leaves (0, 1).
//! - SPRT: the generalised SPRT log-likelihood ratio under the same normal approximation,
//!   `LLR = N · (s₁ − s₀)(2s − s₀ − s₁) / (2σ²)` with `sᵢ = 1/(1 + 10^(−eloᵢ/400))`, against the
//!   bounds `ln(β/(1−α))` and `ln((1−β)/α)`.

/// Wins, draws and losses of the first player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference of a score in (0, 1).
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The mean score, 0 without games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
    }

    /// The trinomial variance of one game's score.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference: `±inf` at 100% / 0%.
    pub fn elo(&self) -> f64 {
        match self.score() {
            s if s >= 1.0 => f64::INFINITY,
            s if s <= 0.0 => f64::NEG_INFINITY,
            s => elo(s),
        }
    }

    /// Half the width of the 95% Elo interval; infinite when the score interval reaches 0 or 1.
    pub fn ci95(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return f64::INFINITY;
        }
        let m = Z95 * (self.variance() / n).sqrt();
        let s = self.score();
        if s - m <= 0.0 || s + m >= 1.0 {
            return f64::INFINITY;
        }
        (elo(s + m) - elo(s - m)) / 2.0
    }

    /// The summary line: `W 3 D 1 L 0 score 87.5 elo +338.0 ci95 inf`.
    pub fn summary(&self) -> String {
        let elo = match self.elo() {
            e if e == f64::INFINITY => "+inf".to_string(),
            e if e == f64::NEG_INFINITY => "-inf".to_string(),
            e => format!("{:+.1}", e + 0.0),
        };
        let ci = match self.ci95() {
            c if c.is_infinite() => "inf".to_string(),
            c => format!("{c:.1}"),
        };
        format!(
            "W {} D {} L {} score {:.1} elo {} ci95 {}",
            self.wins,
            self.draws,
            self.losses,
            self.score() * 100.0,
            elo,
            ci
        )
    }
}

/// A sequential probability ratio test of `elo0` against `elo1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// H1 (elo ≥ elo1) accepted.
    H1,
    /// H0 (elo ≤ elo0) accepted.
    H0,
    Continue,
}

/// Where a sequential test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub verdict: Verdict,
    /// The results when the verdict was reached (the latest results while it is
    /// [`Verdict::Continue`]).
    pub at: Wdl,
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(text: &str) -> Result<Sprt, boyi_core::TextError> {
        let v: Vec<f64> = text
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| text_err!("--sprt {text:?}: expected elo0,elo1,alpha,beta"))?;
        let [elo0, elo1, alpha, beta] = v[..] else {
            return Err(text_err!(
                "--sprt {text:?}: expected four numbers elo0,elo1,alpha,beta"
            ));
        };
        let valid = elo0 < elo1 && 0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5;
        if !valid {
            return Err(text_err!(
                "--sprt {text:?}: needs elo0 < elo1 and 0 < alpha, beta < 0.5"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// `(lower, upper)`: accept H0 at or below, H1 at or above.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results so far (0 while their variance is 0).
    pub fn llr(&self, r: &Wdl) -> f64 {
        let var = r.variance();
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        r.games() as f64 * (s1 - s0) * (2.0 * r.score() - s0 - s1) / (2.0 * var)
    }

    /// The decision after one more result: a verdict once reached stays, so games that were
    /// in progress when the test stopped count in the totals but cannot take it back.
    pub fn follow(&self, previous: Option<Decision>, r: &Wdl) -> Decision {
        match previous {
            Some(d) if d.verdict != Verdict::Continue => d,
            _ => Decision {
                verdict: self.verdict(r),
                at: *r,
            },
        }
    }

    pub fn verdict(&self, r: &Wdl) -> Verdict {
        let (lo, hi) = self.bounds();
        let llr = self.llr(r);
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} vs {b}");
    }

    // Reference values computed independently from the formulas in the module docs
    // (Python, double precision).
    #[test]
    fn elo_and_interval_match_reference_values() {
        let r = wdl(60, 30, 10);
        close(r.score(), 0.75);
        close(r.variance(), 0.1125);
        close(r.elo(), 190.848_501_887_865);
        close(r.ci95(), 62.045_035_471_518_19);
        assert_eq!(
            r.summary(),
            "W 60 D 30 L 10 score 75.0 elo +190.8 ci95 62.0"
        );
        close(wdl(45, 10, 45).ci95(), 65.361_984_403_702_17);
        close(wdl(30, 40, 30).ci95(), 53.157_979_780_053_25);
        let r = wdl(10, 20, 70);
        close(r.elo(), -240.823_996_531_184_95);
        close(r.ci95(), 72.733_708_839_857_68);
        assert_eq!(
            r.summary(),
            "W 10 D 20 L 70 score 20.0 elo -240.8 ci95 72.7"
        );
    }

    #[test]
    fn extreme_scores_print_infinities() {
        assert_eq!(
            wdl(4, 0, 0).summary(),
            "W 4 D 0 L 0 score 100.0 elo +inf ci95 inf"
        );
        assert_eq!(
            wdl(0, 0, 4).summary(),
            "W 0 D 0 L 4 score 0.0 elo -inf ci95 inf"
        );
        assert_eq!(
            wdl(0, 2, 0).summary(),
            "W 0 D 2 L 0 score 50.0 elo +0.0 ci95 0.0"
        );
        // 3.5/4: the score interval reaches past 1, so the Elo interval is unbounded.
        assert_eq!(
            wdl(3, 1, 0).summary(),
            "W 3 D 1 L 0 score 87.5 elo +338.0 ci95 inf"
        );
        assert_eq!(
            wdl(1, 0, 1).summary(),
            "W 1 D 0 L 1 score 50.0 elo +0.0 ci95 inf"
        );
    }

    #[test]
    fn sprt_matches_reference_values() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        let (lo, hi) = sprt.bounds();
        close(lo, -2.944_438_979_166_440_3);
        close(hi, 2.944_438_979_166_440_3);
        close(sprt.llr(&wdl(600, 300, 100)), 31.051_560_065_657_74);
        assert_eq!(sprt.verdict(&wdl(600, 300, 100)), Verdict::H1);
        let sprt5 = Sprt::parse("0,5,0.05,0.05").unwrap();
        close(sprt5.llr(&wdl(460, 100, 440)), 0.204_829_776_303_027_82);
        close(sprt5.llr(&wdl(400, 200, 400)), -0.129_423_001_999_813_77);
        assert_eq!(sprt5.verdict(&wdl(400, 200, 400)), Verdict::Continue);
        let sym = Sprt::parse("-5,5,0.05,0.05").unwrap();
        close(sym.llr(&wdl(1200, 1000, 1100)), 4.134_798_934_647_456);
        assert_eq!(sym.verdict(&wdl(100, 0, 900)), Verdict::H0);
        assert_eq!(sym.llr(&wdl(0, 5, 0)), 0.0);
        for bad in ["0,10,0.05", "10,0,0.05,0.05", "0,10,0.7,0.05", "a,b,c,d"] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_reached_verdict_stays() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        let crossed = wdl(189, 86, 108);
        let after = wdl(189, 86, 109);
        assert_eq!(sprt.verdict(&crossed), Verdict::H1);
        assert_eq!(sprt.verdict(&after), Verdict::Continue);
        let d = sprt.follow(None, &crossed);
        assert_eq!(sprt.follow(Some(d), &after), d);
        assert_eq!(d.at, crossed);
        let open = sprt.follow(None, &wdl(10, 5, 9));
        assert_eq!(open.verdict, Verdict::Continue);
        assert_eq!(sprt.follow(Some(open), &after).verdict, Verdict::Continue);
        assert_eq!(sprt.follow(Some(open), &crossed).verdict, Verdict::H1);
    }
}
