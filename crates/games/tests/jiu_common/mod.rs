//! Helpers shared by the Jiu tests: building positions from point lists and comparing move
//! lists.

#![allow(dead_code)]

use boyi_core::{Game, NoVariant, Point, Side};
use boyi_games::jiu::Jiu;
use std::collections::BTreeSet;

/// Points from a space-separated list; `a10:c14` is the rectangle between two corners.
pub fn points(list: &str) -> Vec<Point> {
    let mut out = Vec::new();
    for item in list.split_whitespace() {
        match item.split_once(':') {
            Some((a, b)) => {
                let (a, b) = (Point::parse(a, 14).unwrap(), Point::parse(b, 14).unwrap());
                for col in a.col..=b.col {
                    for row in a.row..=b.row {
                        out.push(Point::new(col, row));
                    }
                }
            }
            None => out.push(Point::parse(item, 14).unwrap()),
        }
    }
    out
}

/// The rows field of position text for the given black and white points.
pub fn rows(black: &str, white: &str) -> String {
    let mut grid = [['.'; 14]; 14];
    for p in points(black) {
        grid[p.row as usize][p.col as usize] = 'x';
    }
    for p in points(white) {
        assert_eq!(
            grid[p.row as usize][p.col as usize], '.',
            "{p} listed twice"
        );
        grid[p.row as usize][p.col as usize] = 'o';
    }
    let mut out = Vec::new();
    for row in grid.iter().rev() {
        let mut s = String::new();
        let mut empty = 0;
        for &c in row {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                s.push(c);
            }
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        out.push(s);
    }
    out.join("/")
}

/// A battle position with `side` (`'b'` or `'w'`) to move.
pub fn battle(black: &str, white: &str, side: char) -> Jiu {
    battle_quiet(black, white, side, 0)
}

pub fn battle_quiet(black: &str, white: &str, side: char, quiet: u32) -> Jiu {
    let text = format!("{} {side} battle 196 {quiet}", rows(black, white));
    Jiu::from_text(&NoVariant, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves as sorted canonical text.
pub fn move_texts(pos: &Jiu) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| pos.format_move(m))
        .collect();
    v.sort();
    v
}

/// Asserts the legal moves are exactly `expected` (any order; duplicates in `expected` are
/// an error of the test), naming what is missing and what is extra.
pub fn assert_moves(pos: &Jiu, expected: &[String]) {
    let mut want = expected.to_vec();
    want.sort();
    let set: BTreeSet<&String> = want.iter().collect();
    assert_eq!(set.len(), want.len(), "expected list has duplicates");
    let got = move_texts(pos);
    let got_set: BTreeSet<&String> = got.iter().collect();
    let missing: Vec<_> = set.difference(&got_set).collect();
    let extra: Vec<_> = got_set.difference(&set).collect();
    assert!(
        missing.is_empty() && extra.is_empty() && got.len() == want.len(),
        "position {}\nmissing {missing:?}\nextra {extra:?}",
        pos.to_text()
    );
}

/// Owned strings from literals.
pub fn texts(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// `base x p` for every point of `victims`.
pub fn with_one_capture(base: &str, victims: &str) -> Vec<String> {
    let mut v: Vec<Point> = points(victims);
    v.sort();
    v.iter().map(|p| format!("{base} x {p}")).collect()
}

/// `base x p x q` for every pair of points of `victims` (in point order).
pub fn with_two_captures(base: &str, victims: &str) -> Vec<String> {
    let mut v: Vec<Point> = points(victims);
    v.sort();
    let mut out = Vec::new();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            out.push(format!("{base} x {} x {}", v[i], v[j]));
        }
    }
    out
}

/// Plays a comma-separated move list, panicking with the error.
pub fn play(pos: &mut Jiu, list: &str) {
    pos.play_list(list)
        .unwrap_or_else(|e| panic!("{list}: {e}"));
}

/// The side letter's side.
pub fn side(c: char) -> Side {
    Side::from_letter(&c.to_string()).unwrap()
}
