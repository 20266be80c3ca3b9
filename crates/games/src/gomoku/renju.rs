//! Renju forbidden points for black (RIF definitions): overline, double-four, double-three.
//!
//! A black move is judged with the stone placed:
//! 1. it makes exactly five in some line → allowed, it wins ("five beats forbidden");
//! 2. it makes six or more in a line → forbidden (overline);
//! 3. it makes two or more fours → forbidden (double-four; one line can hold two fours, as in
//!    `x.xxx.x`, `xx.xx.xx`, `xxx.x.xxx`);
//! 4. it makes two or more real threes → forbidden (double-three). A three is real when one
//!    more black stone turns it into a straight four and that stone is itself not forbidden —
//!    a recursive test, since the four-point may be a double-three or double-four in turn.
//!
//! Fours and threes count only lines through the new stone, and only fives of exactly five
//! stones (an overline is no five for black).

use crate::grid::{BLACK, Board, DIRECTIONS, EMPTY};
use boyi_core::Point;

/// Why black may not play on a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forbidden {
    /// Six or more in a line.
    Overline,
    /// Two or more fours at once.
    DoubleFour,
    /// Two or more real threes at once.
    DoubleThree,
}

impl Forbidden {
    /// `overline`, `double-four` or `double-three`.
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double-four",
            Forbidden::DoubleThree => "double-three",
        }
    }
}

/// Whether black placing a stone on the empty point `p` is forbidden. `board` is scratch:
/// it is changed during the test and restored before returning.
pub fn is_forbidden(board: &mut Board, p: Point) -> bool {
    forbidden(board, p).is_some()
}

/// Why black placing a stone on the empty point `p` is forbidden, if it is; `board` as in
/// [`is_forbidden`].
pub fn forbidden(board: &mut Board, p: Point) -> Option<Forbidden> {
    debug_assert_eq!(board.get(p), EMPTY);
    if !could_be_forbidden(board, p) {
        return None;
    }
    board.set(p, BLACK);
    let forbidden = judge_placed(board, p);
    board.set(p, EMPTY);
    forbidden
}

/// A cheap filter: every forbidden shape needs at least four other black stones within four
/// points of `p` along its lines (two twos for a double-three, more for the others).
fn could_be_forbidden(board: &Board, p: Point) -> bool {
    let mut near = 0;
    for (dc, dr) in DIRECTIONS {
        for k in (-4..=4).filter(|&k| k != 0) {
            if board.at(p, dc, dr, k) == Some(BLACK) {
                near += 1;
            }
        }
    }
    near >= 4
}

/// The verdict for black's stone already on `p`.
fn judge_placed(board: &mut Board, p: Point) -> Option<Forbidden> {
    let lines = DIRECTIONS.map(|d| read_line(board, p, d));
    let runs = lines.map(|l| 1 + black_from(&l, 1, 1) + black_from(&l, -1, -1));
    if runs.contains(&5) {
        return None;
    }
    if runs.iter().any(|&n| n > 5) {
        return Some(Forbidden::Overline);
    }
    let fours = lines.map(|l| fours_in(&l));
    if fours.iter().sum::<usize>() >= 2 {
        return Some(Forbidden::DoubleFour);
    }
    // Threes: lines without a four that one more stone turns into a straight four. A straight
    // four through `p` holds it and three more stones within three points of it, so a line
    // with fewer than two black stones there has none. Whether the stone that makes the
    // straight four is itself allowed (the recursive test) is asked only while two real
    // threes are still possible.
    let may_hold_three = [0, 1, 2, 3].map(|d| {
        fours[d] == 0
            && (-3..=3)
                .filter(|&k| k != 0 && cell(&lines[d], k) == BLACK)
                .count()
                >= 2
    });
    if may_hold_three.iter().filter(|&&m| m).count() < 2 {
        return None;
    }
    let mut straight = [[None; 2]; 4];
    for d in 0..4 {
        if may_hold_three[d] {
            straight[d] = straight_four_points(&lines[d]);
        }
    }
    let mut left = straight.iter().filter(|s| s[0].is_some()).count();
    let mut real = 0;
    for (d, points) in DIRECTIONS.iter().zip(straight) {
        if real + left < 2 {
            return None;
        }
        if points[0].is_none() {
            continue;
        }
        left -= 1;
        let (dc, dr) = *d;
        if points
            .into_iter()
            .flatten()
            .any(|k| !is_forbidden(board, offset(p, dc, dr, k)))
        {
            real += 1;
        }
    }
    (real >= 2).then_some(Forbidden::DoubleThree)
}

/// How far a line is read each way from the judged stone: a five point lies within four
/// points of it, and the run through that point is followed to a sixth stone.
const REACH: i32 = 9;
/// An off-board point in a line read.
const OFF: u8 = u8::MAX;

/// The cells of the line through `p` along `d`, from `-REACH` to `REACH` points away.
type Line = [u8; (2 * REACH + 1) as usize];

fn read_line(board: &Board, p: Point, (dc, dr): (i8, i8)) -> Line {
    let mut line = [OFF; (2 * REACH + 1) as usize];
    for (cell, k) in line.iter_mut().zip(-REACH..=REACH) {
        *cell = board.at(p, dc, dr, k).unwrap_or(OFF);
    }
    line
}

/// The cell `k` points from the centre of a line read.
fn cell(line: &Line, k: i32) -> u8 {
    line[(k + REACH) as usize]
}

/// Black stones in a row from `k` outwards by `step` (up to six).
fn black_from(line: &Line, k: i32, step: i32) -> i32 {
    let mut n = 0;
    while n < 6 && (k + n * step).abs() <= REACH && cell(line, k + n * step) == BLACK {
        n += 1;
    }
    n
}

/// Offsets (within four points of the black centre) where one more black stone makes exactly
/// five together with the centre, read without placing anything.
fn five_points_in(line: &Line) -> [Option<i32>; 2] {
    let mut found = [None, None];
    let mut n = 0;
    for k in (-4i32..=4).filter(|&k| k != 0) {
        let between = (1..k.abs()).all(|i| cell(line, i * k.signum()) == BLACK);
        if cell(line, k) != EMPTY || !between {
            continue;
        }
        let (lo, hi) = (k.min(0), k.max(0));
        let run = black_from(line, lo - 1, -1) + (hi - lo + 1) + black_from(line, hi + 1, 1);
        if run == 5 && n < 2 {
            found[n] = Some(k);
            n += 1;
        }
    }
    found
}

/// The number of fours through the centre of a line: a straight four (`.xxxx.`, two
/// five-points five apart) is one four; two five-points closer together are two fours in one
/// line.
fn fours_in(line: &Line) -> usize {
    match five_points_in(line) {
        [None, _] => 0,
        [Some(_), None] => 1,
        [Some(a), Some(b)] if (a - b).abs() == 5 => 1,
        _ => 2,
    }
}

/// The empty points of a line (within four points of its centre) where one more black stone
/// makes a straight four through the centre; a line holds at most two.
fn straight_four_points(line: &Line) -> [Option<i32>; 2] {
    let mut found = [None, None];
    let mut n = 0;
    for k in (-4..=4).filter(|&k| k != 0) {
        if cell(line, k) != EMPTY {
            continue;
        }
        let mut with_q = *line;
        with_q[(k + REACH) as usize] = BLACK;
        let straight = matches!(five_points_in(&with_q), [Some(a), Some(b)] if (a - b).abs() == 5);
        if straight && n < 2 {
            found[n] = Some(k);
            n += 1;
        }
    }
    found
}

fn offset(p: Point, dc: i8, dr: i8, k: i32) -> Point {
    Point::new(
        (p.col as i32 + dc as i32 * k) as u8,
        (p.row as i32 + dr as i32 * k) as u8,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::rng::SplitMix64;

    /// The definitions read straight off the board, stone by stone: the line reads above
    /// must agree with them everywhere.
    mod reference {
        use super::super::{DIRECTIONS, could_be_forbidden, offset};
        use crate::grid::{BLACK, Board, EMPTY};
        use boyi_core::Point;

        pub fn is_forbidden(board: &mut Board, p: Point) -> bool {
            if !could_be_forbidden(board, p) {
                return false;
            }
            board.set(p, BLACK);
            let runs = DIRECTIONS.map(|d| board.run(p, d, BLACK));
            let verdict = if runs.contains(&5) {
                false
            } else if runs.iter().any(|&n| n > 5) {
                true
            } else {
                let fours = DIRECTIONS.map(|d| match five_points(board, p, d) {
                    [None, _] => 0,
                    [Some(_), None] => 1,
                    [Some(a), Some(b)] if (a - b).abs() == 5 => 1,
                    _ => 2,
                });
                fours.iter().sum::<usize>() >= 2
                    || DIRECTIONS
                        .iter()
                        .zip(fours)
                        .filter(|&(&d, f)| f == 0 && real_three(board, p, d))
                        .count()
                        >= 2
            };
            board.set(p, EMPTY);
            verdict
        }

        fn five_points(board: &mut Board, p: Point, (dc, dr): (i8, i8)) -> [Option<i32>; 2] {
            let mut found = [None, None];
            let mut n = 0;
            for k in (-4i32..=4).filter(|&k| k != 0) {
                let between =
                    (1..k.abs()).all(|i| board.at(p, dc, dr, i * k.signum()) == Some(BLACK));
                if board.at(p, dc, dr, k) != Some(EMPTY) || !between {
                    continue;
                }
                let q = offset(p, dc, dr, k);
                board.set(q, BLACK);
                let five = board.run(q, (dc, dr), BLACK) == 5;
                board.set(q, EMPTY);
                if five && n < 2 {
                    found[n] = Some(k);
                    n += 1;
                }
            }
            found
        }

        fn real_three(board: &mut Board, p: Point, (dc, dr): (i8, i8)) -> bool {
            (-4..=4).filter(|&k| k != 0).any(|k| {
                if board.at(p, dc, dr, k) != Some(EMPTY) {
                    return false;
                }
                let q = offset(p, dc, dr, k);
                board.set(q, BLACK);
                let straight = matches!(
                    five_points(board, p, (dc, dr)),
                    [Some(a), Some(b)] if (a - b).abs() == 5
                );
                board.set(q, EMPTY);
                straight && !is_forbidden(board, q)
            })
        }
    }

    #[test]
    fn line_reads_agree_with_the_stone_by_stone_definitions() {
        let mut rng = SplitMix64::new(11);
        let mut forbidden = 0;
        for _ in 0..400 {
            // Dense black-heavy boards, so that overlines, fours and threes are common, on
            // the whole 15x15 board so that edges take part.
            let mut board = Board::new(15);
            for p in board.all_points().collect::<Vec<_>>() {
                match rng.below(10) {
                    0..=2 => board.set(p, BLACK),
                    3 => board.set(p, crate::grid::WHITE),
                    _ => {}
                }
            }
            for p in board.all_points().collect::<Vec<_>>() {
                if board.get(p) == EMPTY {
                    let fast = is_forbidden(&mut board, p);
                    assert_eq!(fast, reference::is_forbidden(&mut board, p), "{p}");
                    forbidden += usize::from(fast);
                }
            }
        }
        assert!(forbidden > 1000, "{forbidden} forbidden points seen");
    }
}
