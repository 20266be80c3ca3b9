//! The fitted part of the strong engine's evaluation: a value for each combination of a
//! point's four line patterns, once as the side to move's point and once as its opponent's.
//!
//! A combination is the multiset of the four patterns (the order of the directions does not
//! matter), with an overline counted as dead: 10 classes taken 4 at a time with repetition,
//! 715 combinations. The values are fitted to game results by `examples/gomoku_tune.rs`,
//! starting from the hand-set line values (`hand_value`), and written into `table.rs`.

use super::pattern::{PATTERN_VALUE, PATTERNS, Pattern};
use std::sync::OnceLock;

/// Pattern classes of a combination: every pattern but the overline, which counts as dead.
const CLASSES: usize = 10;
/// Multisets of four classes.
pub const COMBOS: usize = 715;

#[path = "table.rs"]
mod table;
pub use table::{FITTED, TEMPO, THREAT_WEIGHTS};

/// The class of a pattern.
#[inline]
fn class(p: Pattern) -> usize {
    match p {
        Pattern::Dead | Pattern::Overline => 0,
        p => p as usize - 1,
    }
}

/// A pattern of class `c`.
fn pattern_of(c: usize) -> Pattern {
    if c == 0 {
        Pattern::Dead
    } else {
        Pattern::from_u8(c as u8 + 1)
    }
}

/// Every combination as its four classes in ascending order, in index order.
pub fn combos() -> &'static [[usize; 4]] {
    static ALL: OnceLock<Vec<[usize; 4]>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::with_capacity(COMBOS);
        for a in 0..CLASSES {
            for b in a..CLASSES {
                for c in b..CLASSES {
                    for d in c..CLASSES {
                        all.push([a, b, c, d]);
                    }
                }
            }
        }
        all
    })
}

/// A point's four patterns as one number, `Σ pᵈ · 11ᵈ` over the directions `d`, so a change
/// of one direction's pattern changes it by a multiple of `KEY_STEP[d]`.
#[inline]
pub fn fit_key(p: [Pattern; 4]) -> u16 {
    p.iter()
        .zip(KEY_STEP)
        .map(|(&x, step)| x as u16 * step)
        .sum()
}

/// The weight of each direction's pattern in `fit_key`.
pub const KEY_STEP: [u16; 4] = [1, 11, 121, 1331];

/// Keys of every ordered four patterns.
const KEYS: usize = PATTERNS.pow(4);

/// The combination index of every key (`fit_key`).
fn index_table() -> &'static [u16] {
    static INDEX: OnceLock<Vec<u16>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let all = combos();
        (0..KEYS)
            .map(|key| {
                let mut k = key;
                let mut cls = [0usize; 4];
                for c in cls.iter_mut() {
                    *c = class(Pattern::from_u8((k % PATTERNS) as u8));
                    k /= PATTERNS;
                }
                cls.sort_unstable();
                all.binary_search(&cls).expect("every multiset listed") as u16
            })
            .collect()
    })
}

/// The combination index of a point's four patterns.
#[inline]
pub fn combo(p: [Pattern; 4]) -> usize {
    index_table()[fit_key(p) as usize] as usize
}

/// The fitted values of every key (`fit_key`), `[as the side to move's, as the opponent's]`:
/// the board reads a point's values with one look-up.
pub fn fit_table() -> &'static [[i16; 2]] {
    static TABLE: OnceLock<Vec<[i16; 2]>> = OnceLock::new();
    TABLE.get_or_init(|| index_table().iter().map(|&c| FITTED[c as usize]).collect())
}

/// The hand-set evaluation's value of a combination for the side to move: its line values
/// (the threat-class bonuses are left to the threat terms, and so is the five's line value:
/// see `search::line_sum`).
pub fn hand_value(classes: [usize; 4]) -> i32 {
    classes
        .map(pattern_of)
        .iter()
        .filter(|&&p| p != Pattern::Five)
        .map(|&p| PATTERN_VALUE[p as usize])
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_ignore_the_order_of_the_directions() {
        assert_eq!(combos().len(), COMBOS);
        let p = [Pattern::F3, Pattern::Dead, Pattern::B2, Pattern::F3];
        let q = [Pattern::B2, Pattern::F3, Pattern::F3, Pattern::Overline];
        assert_eq!(combo(p), combo(q));
        assert_ne!(
            combo(p),
            combo([Pattern::B2, Pattern::F3, Pattern::F2, Pattern::Dead])
        );
        assert_eq!(combos()[combo(p)], [0, 3, 6, 6]);
        // The table by key gives the combination's values.
        assert_eq!(fit_table()[fit_key(q) as usize], FITTED[combo(p)]);
        // A key changes by the step of the direction whose pattern changes.
        let mut r = q;
        r[2] = Pattern::B4;
        let step = KEY_STEP[2] * Pattern::B4 as u16 - KEY_STEP[2] * Pattern::F3 as u16;
        assert_eq!(fit_key(r), fit_key(q) + step);
    }

    #[test]
    fn the_hand_values_are_the_line_values_but_a_fives() {
        // An open three and a blocked two.
        assert_eq!(hand_value([0, 0, 3, 6]), 48 + 6);
        // A four and a three: no bonus (the threat terms judge a four-three).
        assert_eq!(hand_value([0, 0, 6, 7]), 48 + 56);
        // A five's own line is left out.
        assert_eq!(hand_value([0, 0, 1, 9]), 1);
    }
}
