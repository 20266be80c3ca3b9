//! The sequence book of seed 002 for the Jiu placement phase: every stored game's placement
//! sequence is a string (the seed's DFA over the move sequence: each placement is one
//! transition labelled by colour and point), and the current game's sequence is searched in
//! each of them with Boyer–Moore; the placement that follows each match is a candidate.
//!
//! A placement is written as three bytes: `W` or `B`, then the column and the row as letters
//! from `a` (the seed's `W[gg]` without brackets, rows from the bottom as Boyi counts them).
//! Matches count only at placement boundaries. `anchored` searches match only at the start
//! of a game (the current game's opening equals the stored one's); unanchored searches also
//! find the sequence later in a stored game, as the seed's matcher does.
//!
//! File: one game per line, its placements as canonical points separated by spaces
//! (`g7 h8 g8 …`); colours alternate from white. Lines starting with `#` are comments.

use crate::replay::Checked;
use boyi_core::{Game, Point, TextError, text_err};
use boyi_games::GameKind;
use std::collections::BTreeMap;

/// How many placements of each game the seed's book covers.
pub const SEED_DEPTH: usize = 40;

/// Stored placement sequences.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SequenceBook {
    games: Vec<Vec<u8>>,
}

/// Placements of points alternate from white, as in Jiu.
fn encode(points: &[Point]) -> Vec<u8> {
    let mut out = Vec::with_capacity(points.len() * 3);
    for (i, p) in points.iter().enumerate() {
        out.push(if i % 2 == 0 { b'W' } else { b'B' });
        out.push(b'a' + p.col);
        out.push(b'a' + p.row);
    }
    out
}

fn decode_token(t: &[u8]) -> Point {
    Point::new(t[1] - b'a', t[2] - b'a')
}

impl SequenceBook {
    pub fn new() -> SequenceBook {
        SequenceBook::default()
    }

    /// Stores the first `depth` placements of a game.
    pub fn add(&mut self, placements: &[Point], depth: usize) {
        let n = placements.len().min(depth);
        if n > 0 {
            self.games.push(encode(&placements[..n]));
        }
    }

    /// Builds a book from checked Jiu records: the leading placements of each game.
    pub fn build(records: &[Checked], depth: usize) -> Result<SequenceBook, TextError> {
        let mut book = SequenceBook::new();
        for (i, c) in records.iter().enumerate() {
            if c.record.game != GameKind::Jiu {
                return Err(text_err!(
                    "record {}: a {} game in a jiu book",
                    i + 1,
                    c.record.game
                ));
            }
            if c.record.start.is_some() {
                continue;
            }
            let points: Vec<Point> = c
                .record
                .moves
                .iter()
                .map_while(|m| Point::parse(&m.text, 14).ok())
                .collect();
            book.add(&points, depth);
        }
        Ok(book)
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Candidate next placements after the sequence `played`, with how many stored games
    /// continue with each, most frequent first (ties in point order).
    pub fn continuations(&self, played: &[Point], anchored: bool) -> Vec<(Point, u32)> {
        let pattern = encode(played);
        let matcher = BoyerMoore::new(&pattern);
        let mut counts: BTreeMap<Point, u32> = BTreeMap::new();
        for game in &self.games {
            for at in matcher.find_all(game) {
                if at % 3 != 0 || (anchored && at != 0) {
                    continue;
                }
                if let Some(next) = game.get(at + pattern.len()..at + pattern.len() + 3) {
                    *counts.entry(decode_token(next)).or_default() += 1;
                }
            }
        }
        let mut out: Vec<(Point, u32)> = counts.into_iter().collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }

    /// The seed player's book move: the most frequent continuation that is legal in `pos`
    /// (the position after `played`).
    pub fn choose<G: Game>(&self, pos: &G, played: &[Point], anchored: bool) -> Option<G::Move> {
        self.continuations(played, anchored)
            .into_iter()
            .find_map(|(p, _)| pos.parse_move(&p.to_string()).ok())
    }

    pub fn to_text(&self) -> String {
        let mut out = String::from("# boyi jiu sequence book\n");
        for g in &self.games {
            let pts: Vec<String> = g.chunks(3).map(|t| decode_token(t).to_string()).collect();
            out.push_str(&pts.join(" "));
            out.push('\n');
        }
        out
    }

    pub fn from_text(text: &str) -> Result<SequenceBook, TextError> {
        let mut book = SequenceBook::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let points = line
                .split_whitespace()
                .map(|p| Point::parse(p, 14))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.context(format!("line {}", i + 1)))?;
            book.add(&points, usize::MAX);
        }
        Ok(book)
    }
}

/// Boyer–Moore search with the bad-character and good-suffix rules.
pub struct BoyerMoore<'p> {
    pattern: &'p [u8],
    bad_char: [usize; 256],
    good_suffix: Vec<usize>,
}

impl<'p> BoyerMoore<'p> {
    pub fn new(pattern: &'p [u8]) -> BoyerMoore<'p> {
        let m = pattern.len();
        let mut bad_char = [m; 256];
        for (i, &c) in pattern.iter().enumerate().take(m.saturating_sub(1)) {
            bad_char[c as usize] = m - 1 - i;
        }
        BoyerMoore {
            pattern,
            bad_char,
            good_suffix: good_suffix_shifts(pattern),
        }
    }

    /// Every start of the pattern in `text` (overlapping matches included); an empty
    /// pattern matches at every position.
    pub fn find_all(&self, text: &[u8]) -> Vec<usize> {
        let (p, m, n) = (self.pattern, self.pattern.len(), text.len());
        if m == 0 {
            return (0..=n).collect();
        }
        let mut out = Vec::new();
        let mut s = 0;
        while s + m <= n {
            let mut j = m;
            while j > 0 && p[j - 1] == text[s + j - 1] {
                j -= 1;
            }
            if j == 0 {
                out.push(s);
                s += self.good_suffix[0];
            } else {
                let bc = self.bad_char[text[s + m - 1] as usize];
                s += self.good_suffix[j].max(bc.min(m)).max(1);
            }
        }
        out
    }
}

/// `shift[j]`: how far to move when `pattern[j..]` matched and `pattern[j - 1]` did not
/// (`shift[0]`: after a full match).
fn good_suffix_shifts(p: &[u8]) -> Vec<usize> {
    let m = p.len();
    let mut shift = vec![0usize; m + 1];
    let mut border = vec![0usize; m + 1];
    let (mut i, mut j) = (m, m + 1);
    border[i] = j;
    while i > 0 {
        while j <= m && p[i - 1] != p[j - 1] {
            if shift[j] == 0 {
                shift[j] = j - i;
            }
            j = border[j];
        }
        i -= 1;
        j -= 1;
        border[i] = j;
    }
    j = border[0];
    for (k, s) in shift.iter_mut().enumerate() {
        if *s == 0 {
            *s = j;
        }
        if k == j {
            j = border[j];
        }
    }
    shift
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive(p: &[u8], t: &[u8]) -> Vec<usize> {
        if p.len() > t.len() {
            return Vec::new();
        }
        (0..=t.len() - p.len())
            .filter(|&i| &t[i..i + p.len()] == p)
            .collect()
    }

    #[test]
    fn finds_overlapping_matches() {
        assert_eq!(BoyerMoore::new(b"aa").find_all(b"aaaa"), vec![0, 1, 2]);
        assert_eq!(BoyerMoore::new(b"abab").find_all(b"xababab"), vec![1, 3]);
        assert!(BoyerMoore::new(b"abc").find_all(b"ab").is_empty());
    }

    proptest! {
        #[test]
        fn agrees_with_naive_search(p in "[ab]{1,5}", t in "[abc]{0,40}") {
            prop_assert_eq!(BoyerMoore::new(p.as_bytes()).find_all(t.as_bytes()), naive(p.as_bytes(), t.as_bytes()));
        }
    }
}
