//! Line patterns of Gomoku, precomputed once for every window of a line.
//!
//! A point's window in one direction is the 8 points around it (4 on each side), each empty,
//! own, other (an opponent stone or off the board) — 2 bits each, a 16-bit key. For every key
//! the table holds what a stone of the own side on the centre makes in that line: a five, a
//! straight four, a four, a three, ... The table is filled by dynamic programming over keys with
//! more own stones first, so a shape is defined by what one more own stone makes of it:
//! a four has one point that makes a five, a straight four two; a three can become a straight
//! four, a "blocked" three only a four; and so on down to ones.

use std::sync::OnceLock;

/// What a stone on the centre of a window makes in that line, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Pattern {
    #[default]
    Dead = 0,
    /// Six or more where only exactly five counts (an overline).
    Overline,
    B1,
    F1,
    B2,
    F2,
    B3,
    F3,
    B4,
    F4,
    Five,
}

pub const PATTERNS: usize = 11;

impl Pattern {
    const ALL: [Pattern; PATTERNS] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::Five,
    ];

    /// `ALL` padded to sixteen entries, so a pattern read from a four-bit field of a packed
    /// pair needs no bounds check; the padding is never stored in a table.
    const BY_NIBBLE: [Pattern; 16] = {
        let mut t = [Pattern::Dead; 16];
        let mut i = 0;
        while i < PATTERNS {
            t[i] = Pattern::ALL[i];
            i += 1;
        }
        t
    };

    #[inline]
    pub fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[v as usize]
    }
}

/// A point's threat class for one side, combining its four line patterns, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Threat {
    #[default]
    None = 0,
    /// Makes a three (one straight-four point).
    Three,
    /// Makes two threes at once.
    DoubleThree,
    /// Makes a four (one five point): the opponent must answer.
    Four,
    /// Makes a four and a three: wins unless the four's answer stops the three.
    FourThree,
    /// Makes a straight four or two fours: wins next move.
    FlexFour,
    /// Makes five.
    Five,
}

/// Cell codes inside a window key.
pub const EMPTY: u32 = 0;
pub const OWN_BLACK: u32 = 1;
pub const OWN_WHITE: u32 = 2;
pub const WALL: u32 = 3;

/// Bit position of the neighbour at signed offset `k` (−4..=4, not 0) in a window key.
pub const fn shift(k: i32) -> u32 {
    let slot = if k < 0 { k + 4 } else { k + 3 };
    (slot * 2) as u32
}

/// Pattern tables for one five rule: `[black, white]` × 65536 keys.
pub struct Tables {
    pub by_side: [Vec<u8>; 2],
}

/// The tables for `exact` five (standard; renju for black) or five-or-more.
pub fn tables(exact: bool) -> &'static Tables {
    static EXACT: OnceLock<Tables> = OnceLock::new();
    static OPEN: OnceLock<Tables> = OnceLock::new();
    let cell = if exact { &EXACT } else { &OPEN };
    cell.get_or_init(|| {
        let black = build(OWN_BLACK, exact);
        let white = colours_swapped(&black);
        Tables {
            by_side: [black, white],
        }
    })
}

/// White's table from black's: a window reads the same to white as the window with every
/// black and white stone swapped reads to black (walls and the opponent's stones alike
/// block), so white's pattern of a key is black's of the swapped key.
fn colours_swapped(black: &[u8]) -> Vec<u8> {
    let swap = |key: u32| {
        (0..8).fold(0, |out, i| {
            let v = match (key >> (2 * i)) & 3 {
                OWN_BLACK => OWN_WHITE,
                OWN_WHITE => OWN_BLACK,
                v => v,
            };
            out | (v << (2 * i))
        })
    };
    (0..1u32 << 16)
        .map(|key| black[swap(key) as usize])
        .collect()
}

/// The window as 9 cells (centre = own) for a key, own stones marked 1, others 2, walls 3.
fn cells(key: u32, own: u32) -> [u32; 9] {
    let mut c = [0u32; 9];
    for (i, k) in (-4..=4).enumerate() {
        c[i] = if k == 0 {
            1
        } else {
            match (key >> shift(k)) & 3 {
                EMPTY => 0,
                v if v == own => 1,
                _ => 2,
            }
        };
    }
    c
}

/// The length of the own run through the centre.
fn centre_run(c: &[u32; 9]) -> usize {
    let mut n = 1;
    let mut i = 3;
    while i < 9 && c[i] == 1 {
        n += 1;
        if i == 0 {
            break;
        }
        i -= 1;
    }
    let mut j = 5;
    while j < 9 && c[j] == 1 {
        n += 1;
        j += 1;
    }
    n
}

fn build(own: u32, exact: bool) -> Vec<u8> {
    let mut table = vec![0u8; 1 << 16];
    // Keys with more own stones first: a key's pattern reads keys with one more own stone.
    let own_count = |key: u32| (0..8).filter(|i| (key >> (2 * i)) & 3 == own).count();
    let mut by_count: [Vec<u32>; 9] = Default::default();
    for key in 0..1u32 << 16 {
        by_count[own_count(key)].push(key);
    }
    for &key in by_count.iter().rev().flatten() {
        table[key as usize] = classify(key, own, exact, &table) as u8;
    }
    table
}

fn classify(key: u32, own: u32, exact: bool, table: &[u8]) -> Pattern {
    let run = centre_run(&cells(key, own));
    if run == 5 || (run > 5 && !exact) {
        return Pattern::Five;
    }
    if run > 5 {
        return Pattern::Overline;
    }
    let mut fives = 0;
    let mut best = Pattern::Dead;
    for k in (-4..=4).filter(|&k| k != 0) {
        if (key >> shift(k)) & 3 != EMPTY {
            continue;
        }
        let next = Pattern::from_u8(table[(key | (own << shift(k))) as usize]);
        if next == Pattern::Five {
            fives += 1;
        }
        best = best.max(next);
    }
    match fives {
        0 => match best {
            Pattern::F4 => Pattern::F3,
            Pattern::B4 => Pattern::B3,
            Pattern::F3 => Pattern::F2,
            Pattern::B3 => Pattern::B2,
            Pattern::F2 => Pattern::F1,
            Pattern::B2 => Pattern::B1,
            _ => Pattern::Dead,
        },
        1 => Pattern::B4,
        _ => Pattern::F4,
    }
}

/// The threat class of four line patterns.
pub fn threat(p: [Pattern; 4]) -> Threat {
    let count = |x: Pattern| p.iter().filter(|&&q| q == x).count();
    class_of_counts(
        count(Pattern::F3),
        count(Pattern::B4),
        count(Pattern::F4),
        count(Pattern::Five),
    )
}

/// The threat class of a point with these numbers of threes, fours, straight fours and
/// fives among its lines.
const fn class_of_counts(threes: usize, fours: usize, flex: usize, five: usize) -> Threat {
    if five > 0 {
        Threat::Five
    } else if flex > 0 || fours >= 2 {
        Threat::FlexFour
    } else if fours == 1 && threes >= 1 {
        Threat::FourThree
    } else if fours == 1 {
        Threat::Four
    } else if threes >= 2 {
        Threat::DoubleThree
    } else if threes == 1 {
        Threat::Three
    } else {
        Threat::None
    }
}

/// Attack value of a point for one side, per pattern of a line.
pub const PATTERN_VALUE: [i32; PATTERNS] = [0, 0, 1, 3, 6, 16, 18, 48, 56, 160, 1000];

/// Extra value per threat class (combinations the line values underrate).
pub const THREAT_VALUE: [i32; 7] = [0, 0, 120, 20, 400, 800, 5000];

/// A point's value for one side from its four patterns.
pub fn point_value(p: [Pattern; 4]) -> i32 {
    p.iter().map(|&x| PATTERN_VALUE[x as usize]).sum::<i32>() + THREAT_VALUE[threat(p) as usize]
}

/// A point's threat class depends only on how many of its four lines are fives, straight
/// fours, fours and threes. Each pattern adds its count to a 3-bit field of a small code, so
/// the per-move update adjusts a point's code by the difference of one line's pattern and
/// reads the class from a 4 KB table (which stays in the first-level cache, unlike a table
/// of every combination of four patterns).
pub const CODE_OF: [u16; PATTERNS] = {
    let mut c = [0u16; PATTERNS];
    c[Pattern::F3 as usize] = 1;
    c[Pattern::B4 as usize] = 1 << 3;
    c[Pattern::F4 as usize] = 1 << 6;
    c[Pattern::Five as usize] = 1 << 9;
    c
};

/// The threat class of a code (see [`CODE_OF`]). Four lines fill each 3-bit field to at
/// most 4, so a code has 12 bits; the mask only lets the index go unchecked.
#[inline]
pub fn threat_of_code(code: u16) -> Threat {
    THREAT_OF_CODE[usize::from(code) & 0xfff]
}

/// The threat class of every code (see [`CODE_OF`]); the same rules as [`threat`].
pub const THREAT_OF_CODE: [Threat; 1 << 12] = {
    let mut t = [Threat::None; 1 << 12];
    let mut code = 0;
    while code < 1 << 12 {
        let (threes, fours, flex, five) = (code & 7, (code >> 3) & 7, (code >> 6) & 7, code >> 9);
        t[code] = class_of_counts(threes, fours, flex, five);
        code += 1;
    }
    t
};

/// The threat code of four line patterns.
pub fn threat_code(p: [Pattern; 4]) -> u16 {
    p.iter().map(|&x| CODE_OF[x as usize]).sum()
}

/// A byte for every 16-bit window key, so a key indexes it without a bounds check.
pub type PairTable = [u8; 1 << 16];

/// Both sides' patterns for every window key under one rule, black in the low four bits and
/// white in the high four, so a window change is one byte read from a 64 KB table.
pub fn pair_table(black_exact: bool, white_exact: bool) -> &'static PairTable {
    static TABLES: [OnceLock<Box<PairTable>>; 4] = [const { OnceLock::new() }; 4];
    let slot = usize::from(black_exact) * 2 + usize::from(white_exact);
    TABLES[slot].get_or_init(|| {
        let (b, w) = (
            &tables(black_exact).by_side[0],
            &tables(white_exact).by_side[1],
        );
        let mut t = Box::new([0; 1 << 16]);
        for (cell, (&x, &y)) in t.iter_mut().zip(b.iter().zip(w)) {
            *cell = x | (y << 4);
        }
        t
    })
}

/// The pattern of side `s` (0 black, 1 white) in a packed pair.
#[inline]
pub fn unpack(pair: u8, s: usize) -> Pattern {
    Pattern::BY_NIBBLE[usize::from((pair >> (4 * s)) & 15)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key from a 9-character line: `x` own (black), `o` white, `#` wall, `.` empty; the
    /// centre character is ignored.
    fn key(line: &str) -> u32 {
        let b = line.as_bytes();
        let mut key = 0;
        for (i, k) in (-4..=4).enumerate() {
            if k == 0 {
                continue;
            }
            let v = match b[i] {
                b'x' => OWN_BLACK,
                b'o' => OWN_WHITE,
                b'#' => WALL,
                _ => EMPTY,
            };
            key |= v << shift(k);
        }
        key
    }

    fn pat(line: &str, exact: bool) -> Pattern {
        Pattern::from_u8(tables(exact).by_side[0][key(line) as usize])
    }

    #[test]
    fn shapes_are_classified() {
        for (line, want) in [
            ("..xx_xx..", Pattern::Five),
            ("xxxx_....", Pattern::Five),
            ("..xx_x...", Pattern::F4),
            ("o.xx_x...", Pattern::F4),
            ("oxxx_....", Pattern::B4),
            ("..x._xx..", Pattern::B4),
            ("..x._.xx.", Pattern::F3),
            ("...x_x...", Pattern::F3),
            ("..x._x...", Pattern::F3),
            ("ox.x_....", Pattern::B3),
            ("#xx._....", Pattern::B3),
            ("...._x...", Pattern::F2),
            ("o..x_o...", Pattern::Dead),
            ("...._....", Pattern::F1),
            ("#.x._xo..", Pattern::B3),
            ("#.x._o...", Pattern::Dead),
        ] {
            assert_eq!(pat(line, false), want, "{line}");
        }
        assert_eq!(pat("xxxx_x...", false), Pattern::Five);
        assert_eq!(pat("xxxx_x...", true), Pattern::Overline);
        // x.xxx.x: two five-points in one line, a flex four (a double four in renju).
        assert_eq!(pat("x.xx_.x..", false), Pattern::F4);
    }

    #[test]
    fn threats_combine_lines() {
        use Pattern::*;
        assert_eq!(threat([B4, B4, Dead, Dead]), Threat::FlexFour);
        assert_eq!(threat([B4, F3, Dead, Dead]), Threat::FourThree);
        assert_eq!(threat([F3, F3, B1, Dead]), Threat::DoubleThree);
        assert_eq!(threat([F2, F2, B3, Dead]), Threat::None);
        assert_eq!(threat([Five, Dead, Dead, Dead]), Threat::Five);
    }

    #[test]
    fn threat_codes_agree_with_the_pattern_rules() {
        for i in 0..PATTERNS.pow(4) {
            let p: [Pattern; 4] = std::array::from_fn(|d| {
                Pattern::from_u8((i / PATTERNS.pow(d as u32) % PATTERNS) as u8)
            });
            assert_eq!(THREAT_OF_CODE[threat_code(p) as usize], threat(p), "{p:?}");
        }
    }

    #[test]
    fn white_tables_are_black_ones_with_the_colours_swapped() {
        for exact in [false, true] {
            assert!(
                tables(exact).by_side[1] == build(OWN_WHITE, exact),
                "exact {exact}"
            );
        }
    }

    #[test]
    fn pairs_pack_both_sides() {
        let pairs = pair_table(true, false);
        for key in [0usize, 1234, 40000, 65535] {
            assert_eq!(unpack(pairs[key], 0) as u8, tables(true).by_side[0][key]);
            assert_eq!(unpack(pairs[key], 1) as u8, tables(false).by_side[1][key]);
        }
    }
}
