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

/// Whether black placing a stone on the empty point `p` is forbidden. `board` is scratch:
/// it is changed during the test and restored before returning.
pub fn is_forbidden(board: &mut Board, p: Point) -> bool {
    debug_assert_eq!(board.get(p), EMPTY);
    if !could_be_forbidden(board, p) {
        return false;
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
fn judge_placed(board: &mut Board, p: Point) -> bool {
    let runs = DIRECTIONS.map(|d| board.run(p, d, BLACK));
    if runs.contains(&5) {
        return false;
    }
    if runs.iter().any(|&n| n > 5) {
        return true;
    }
    let fours = DIRECTIONS.map(|d| fours_in_line(board, p, d));
    if fours.iter().sum::<usize>() >= 2 {
        return true;
    }
    let threes = DIRECTIONS
        .iter()
        .zip(fours)
        .filter(|&(&d, f)| f == 0 && has_real_three(board, p, d))
        .count();
    threes >= 2
}

/// Points on the line through `p` along `d` (within four points) where one more black stone
/// makes exactly five together with `p`.
fn five_points(board: &mut Board, p: Point, (dc, dr): (i8, i8)) -> [Option<i32>; 2] {
    let mut found = [None, None];
    let mut n = 0;
    for k in (-4..=4).filter(|&k| k != 0) {
        if board.at(p, dc, dr, k) != Some(EMPTY) || !black_between(board, p, (dc, dr), k) {
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

/// The number of fours through `p` along `d`: a straight four (`.xxxx.`, two five-points five
/// apart) is one four; two five-points closer together are two fours in one line.
fn fours_in_line(board: &mut Board, p: Point, d: (i8, i8)) -> usize {
    match five_points(board, p, d) {
        [None, _] => 0,
        [Some(_), None] => 1,
        [Some(a), Some(b)] if (a - b).abs() == 5 => 1,
        _ => 2,
    }
}

/// Whether the line through `p` along `d` holds a real three: a point `q` whose black stone
/// makes a straight four through `p`, while `q` itself is not forbidden.
fn has_real_three(board: &mut Board, p: Point, (dc, dr): (i8, i8)) -> bool {
    for k in (-4..=4).filter(|&k| k != 0) {
        if board.at(p, dc, dr, k) != Some(EMPTY) {
            continue;
        }
        let q = offset(p, dc, dr, k);
        board.set(q, BLACK);
        let straight = is_straight_four(board, p, (dc, dr));
        board.set(q, EMPTY);
        if straight && !is_forbidden(board, q) {
            return true;
        }
    }
    false
}

/// Whether the stones through `p` along `d` form a straight four: two five-points five apart.
fn is_straight_four(board: &mut Board, p: Point, d: (i8, i8)) -> bool {
    matches!(five_points(board, p, d), [Some(a), Some(b)] if (a - b).abs() == 5)
}

/// Whether every point strictly between `p` and `p + k·d` is black.
fn black_between(board: &Board, p: Point, (dc, dr): (i8, i8), k: i32) -> bool {
    let step = k.signum();
    (1..k.abs()).all(|i| board.at(p, dc, dr, i * step) == Some(BLACK))
}

fn offset(p: Point, dc: i8, dr: i8, k: i32) -> Point {
    Point::new(
        (p.col as i32 + dc as i32 * k) as u8,
        (p.row as i32 + dr as i32 * k) as u8,
    )
}
