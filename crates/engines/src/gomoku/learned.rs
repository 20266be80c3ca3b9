//! The fitted part of the strong engine's evaluation: a value for each combination of a
//! point's four line patterns, once as the side to move's point and once as its opponent's.
//!
//! A combination is the multiset of the four patterns (the order of the directions does not
//! matter), with an overline counted as dead: 10 classes taken 4 at a time with repetition,
//! 715 combinations. The values are fitted to game results by `examples/gomoku_tune.rs`,
//! starting from the hand-set line values (`hand_value`), and written into `table.rs`.
//!
//! The fitted move order built on the same combinations is in `move_policy`.

use super::pattern::{PATTERN_VALUE, PATTERNS, Pattern};
use std::sync::OnceLock;

/// Pattern classes of a combination: every pattern but the overline, which counts as dead.
pub const CLASSES: usize = 10;
/// Multisets of four classes.
pub const COMBOS: usize = 715;

#[path = "table.rs"]
mod table;
pub use table::{FITTED, TEMPO, THREAT_WEIGHTS};

/// The class of a pattern.
#[inline]
pub(super) fn class(p: Pattern) -> usize {
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
pub(super) fn index_table() -> &'static [u16] {
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

/// A combination's patterns, the dead ones left out.
pub fn combo_name(classes: &[usize; 4]) -> String {
    const NAMES: [&str; 10] = ["", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "five"];
    let names: Vec<&str> = classes
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| NAMES[c])
        .collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(" ")
    }
}

/// The text of a table of two values per combination, `pub const NAME: [[i16; 2];
/// super::COMBOS]` after the doc comment `doc`, a line each with the combination's name: the
/// tuners write `table.rs` and `policy.rs` with it.
pub fn combo_table(name: &str, doc: &str, values: impl Fn(usize) -> [i16; 2]) -> String {
    let mut out = String::new();
    for line in doc.lines() {
        out += &format!("/// {line}\n");
    }
    out += &format!("pub const {name}: [[i16; 2]; super::COMBOS] = [\n");
    for (n, c) in combos().iter().enumerate() {
        let [a, b] = values(n);
        out += &format!("    [{a}, {b}], // {}\n", combo_name(c));
    }
    out + "];"
}

/// Keys of the fitted-value table: every `fit_key`, padded to a power of two.
const FIT_KEYS: usize = 1 << 14;
const _: () = assert!(KEYS <= FIT_KEYS);

/// The fitted values of every key (`fit_key`), `[as the side to move's, as the opponent's]`:
/// the board reads a point's values with one look-up. Padded to `FIT_KEYS` entries, so a key
/// masked to 14 bits needs no bounds check.
pub struct FitTable(Box<[[i16; 2]; FIT_KEYS]>);

impl FitTable {
    /// The values of `key`.
    #[inline]
    pub fn at(&self, key: u16) -> [i16; 2] {
        self.0[usize::from(key) & (FIT_KEYS - 1)]
    }
}

/// The fitted-value table, built on first use.
pub fn fit_table() -> &'static FitTable {
    static TABLE: OnceLock<FitTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[0; 2]; FIT_KEYS]);
        for (v, &c) in t.iter_mut().zip(index_table()) {
            *v = FITTED[c as usize];
        }
        FitTable(t)
    })
}

/// A point's shape for one side: what a stone there makes on its four lines, from the two
/// strongest patterns, weakest first (`shape_of`). Finer than the threat classes below a
/// four: the selective search prunes, reduces and extends by it.
pub mod shape {
    pub const NONE: u8 = 0;
    /// An open two.
    pub const FLEX2: u8 = 1;
    /// A closed three.
    pub const BLOCK3: u8 = 2;
    /// Two open twos.
    pub const FLEX2X2: u8 = 3;
    /// A closed three with an open two or another closed three.
    pub const BLOCK3_PLUS: u8 = 4;
    /// An open three.
    pub const FLEX3: u8 = 5;
    /// An open three with an open two or a closed three.
    pub const FLEX3_PLUS: u8 = 6;
    /// Two open threes.
    pub const FLEX3X2: u8 = 7;
    /// A four.
    pub const BLOCK4: u8 = 8;
    /// A four with an open two or a closed three.
    pub const BLOCK4_PLUS: u8 = 9;
    /// A four with an open three.
    pub const BLOCK4_FLEX3: u8 = 10;
    /// A straight four or two fours.
    pub const FLEX4: u8 = 11;
    pub const FIVE: u8 = 12;
}

/// The shape of a combination (classes in ascending order; see `combo_name`).
fn shape_of(c: [usize; 4]) -> u8 {
    use shape::*;
    const F2: usize = 4;
    const B3: usize = 5;
    const F3: usize = 6;
    const B4: usize = 7;
    let (top, second) = (c[3], c[2]);
    match top {
        9 => FIVE,
        8 => FLEX4,
        B4 if second == B4 => FLEX4,
        B4 if second == F3 => BLOCK4_FLEX3,
        B4 if second >= F2 => BLOCK4_PLUS,
        B4 => BLOCK4,
        F3 if second == F3 => FLEX3X2,
        F3 if second >= F2 => FLEX3_PLUS,
        F3 => FLEX3,
        B3 if second >= F2 => BLOCK3_PLUS,
        B3 => BLOCK3,
        F2 if second == F2 => FLEX2X2,
        F2 => FLEX2,
        _ => NONE,
    }
}

/// The shape of every key (`fit_key`; `shape`), padded like the fitted values so a key
/// masked to 14 bits needs no bounds check.
pub struct ShapeTable(Box<[u8; FIT_KEYS]>);

impl ShapeTable {
    #[inline]
    pub fn at(&self, key: u16) -> u8 {
        self.0[usize::from(key) & (FIT_KEYS - 1)]
    }
}

pub fn shape_table() -> &'static ShapeTable {
    static TABLE: OnceLock<ShapeTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([0; FIT_KEYS]);
        let all = combos();
        for (v, &c) in t.iter_mut().zip(index_table()) {
            *v = shape_of(all[c as usize]);
        }
        ShapeTable(t)
    })
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
    fn shapes_follow_the_two_strongest_patterns() {
        // Classes: 4 an open two, 5 a closed three, 6 an open three, 7 a four, 8 a straight four.
        assert_eq!(shape_of([0, 0, 0, 0]), shape::NONE);
        assert_eq!(shape_of([0, 0, 3, 4]), shape::FLEX2);
        assert_eq!(shape_of([0, 0, 4, 4]), shape::FLEX2X2);
        assert_eq!(shape_of([0, 0, 4, 5]), shape::BLOCK3_PLUS);
        assert_eq!(shape_of([0, 0, 0, 6]), shape::FLEX3);
        assert_eq!(shape_of([0, 0, 5, 6]), shape::FLEX3_PLUS);
        assert_eq!(shape_of([0, 0, 6, 6]), shape::FLEX3X2);
        assert_eq!(shape_of([0, 0, 3, 7]), shape::BLOCK4);
        assert_eq!(shape_of([0, 0, 4, 7]), shape::BLOCK4_PLUS);
        assert_eq!(shape_of([0, 0, 6, 7]), shape::BLOCK4_FLEX3);
        assert_eq!(shape_of([0, 0, 7, 7]), shape::FLEX4);
        assert_eq!(shape_of([0, 0, 0, 8]), shape::FLEX4);
        assert_eq!(shape_of([0, 0, 0, 9]), shape::FIVE);
    }

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
        assert_eq!(fit_table().at(fit_key(q)), FITTED[combo(p)]);
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
