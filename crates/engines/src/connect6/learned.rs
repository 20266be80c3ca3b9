//! A quiet-position evaluation with weights fitted to game results
//! (`examples/connect6_tune.rs`, `eval=1`). The window sums weigh each window alone; these
//! features also see where lines meet: for every empty point and each side, on how many of
//! the four lines through it a live window of that side's with three stones runs through
//! it, and on how many others one with two stones (a point on two threes' lines makes two
//! threats with one stone; one on several twos' lines is where threes will join).

use super::board::Board6;
use super::weights::WEIGHTS;
use boyi_core::Side;

/// Lines through a point with a live three-stone window through it, capped.
pub const CAP3: usize = 3;
/// Other lines through it with a live two-stone window through it.
pub const CAP2: usize = 4;
/// Combinations of the two capped counts (the first, no window, is not a feature).
pub const COMBOS: usize = (CAP3 + 1) * (CAP2 + 1);
/// Per role (the side to move, then the opponent): the points per combination, the window
/// sums, and the live windows of two and of three stones.
const ROLE: usize = COMBOS + 3;
/// Both roles' features and a constant (the side to move's bonus).
pub const FEATURES: usize = 2 * ROLE + 1;

// The fitted weights are printed with their own count: it must be the features'.
const _: () = assert!(WEIGHTS.len() == FEATURES);

/// Reused buffers of the feature count (no allocation per position).
#[derive(Clone, Default)]
pub struct Scratch {
    /// Per point, the lines of live windows through it: bit `d` a three's on direction `d`,
    /// bit `4 + d` a two's.
    through: Vec<u8>,
    touched: Vec<u16>,
}

/// Counts the features of `b` for the side to move `me` into `out` (zeroed first).
pub fn features(b: &Board6, me: Side, scratch: &mut Scratch, out: &mut [i32; FEATURES]) {
    out.fill(0);
    if scratch.through.len() != b.points() {
        scratch.through = vec![0; b.points()];
    }
    for (role, side) in [me, !me].into_iter().enumerate() {
        let base = role * ROLE;
        for &w in b.live(side) {
            let slot = match b.count(w, side) {
                3 => 0,
                2 => 1,
                _ => continue,
            };
            out[base + COMBOS + 1 + slot] += 1;
            let cells = b.window_cells(w);
            let bit = 1 << (4 * slot + direction(cells, b.size()));
            for &c in cells {
                let c = c as usize;
                if b.is_empty(c) {
                    let t = &mut scratch.through[c];
                    if *t == 0 {
                        scratch.touched.push(c as u16);
                    }
                    *t |= bit;
                }
            }
        }
        for &c in &scratch.touched {
            let lines = std::mem::take(&mut scratch.through[c as usize]);
            let threes = lines & 15;
            let twos = (lines >> 4) & !threes;
            out[base + combo(threes.count_ones(), twos.count_ones())] += 1;
        }
        scratch.touched.clear();
        out[base + COMBOS] = b.sums()[side.index()];
    }
    out[FEATURES - 1] = 1;
}

/// The feature index of a point on `threes` lines of live threes and `twos` other lines of
/// live twos.
fn combo(threes: u32, twos: u32) -> usize {
    (threes as usize).min(CAP3) * (CAP2 + 1) + (twos as usize).min(CAP2)
}

/// The direction (0 to 3) of a window's line, from the step between its first two points
/// (the fourth direction's rows fall, so its step is negative).
fn direction(cells: &[u16; 6], size: usize) -> usize {
    let step = cells[1] as isize - cells[0] as isize;
    match step {
        1 => 0,
        s if s == size as isize => 1,
        s if s == size as isize + 1 => 2,
        _ => 3,
    }
}

/// The weights before any fit, in hundredths: the window sums, own less the opponent's, and
/// a bonus of 30 for the side to move (the hand-set evaluation).
pub fn hand_weights() -> [i32; FEATURES] {
    let mut w = [0; FEATURES];
    w[COMBOS] = 100;
    w[ROLE + COMBOS] = -100;
    w[FEATURES - 1] = 3000;
    w
}

/// The fitted value of `b` for the side to move.
pub fn value(b: &Board6, scratch: &mut Scratch) -> i32 {
    value_with(b, scratch, &WEIGHTS)
}

/// The value of `b` for the side to move under `weights`, in hundredths.
pub fn value_with(b: &Board6, scratch: &mut Scratch, weights: &[i32; FEATURES]) -> i32 {
    let mut f = [0; FEATURES];
    features(b, b.side(), scratch, &mut f);
    f.iter().zip(weights).map(|(x, w)| x * w).sum::<i32>() / 100
}

/// A feature's name, for the tuner's report.
pub fn feature_name(i: usize) -> String {
    if i == FEATURES - 1 {
        return "tempo".into();
    }
    let role = if i < ROLE { "own" } else { "opp" };
    match i % ROLE {
        k if k < COMBOS => format!("{role} point 3:{} 2:{}", k / (CAP2 + 1), k % (CAP2 + 1)),
        k if k == COMBOS => format!("{role} window sums"),
        k if k == COMBOS + 1 => format!("{role} live threes"),
        _ => format!("{role} live twos"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::Point;

    fn board(turns: &[&[&str]]) -> Board6 {
        let mut b = Board6::new(19);
        for turn in turns {
            let p: Vec<usize> = turn
                .iter()
                .map(|t| Point::parse(t, 19).unwrap().index(19))
                .collect();
            b.play(p[0], p.get(1).copied());
        }
        b
    }

    #[test]
    fn the_hand_weights_give_the_window_sums_and_the_tempo() {
        let mut s = Scratch::default();
        let b = board(&[&["j10"], &["k11", "h9"], &["k10", "l10"], &["g7", "m12"]]);
        assert_eq!(value_with(&b, &mut s, &hand_weights()), b.evaluate() + 30);
    }

    #[test]
    fn points_count_the_lines_of_live_windows_through_them() {
        // Black j10 k10, white's stones apart; black to move.
        let b = board(&[&["j10"], &["c3", "q17"], &["k10", "a19"], &["d15", "p4"]]);
        let mut f = [0; FEATURES];
        features(&b, Side::Black, &mut Scratch::default(), &mut f);
        // Five windows of the row hold j10 and k10: f10 to i10 and l10 to o10 lie in some.
        assert_eq!(f[combo(0, 1)], 8);
        assert_eq!(f.iter().take(COMBOS).sum::<i32>(), 8);
        assert_eq!(f[COMBOS + 2], 5);
        assert_eq!(f[COMBOS + 1], 0);
        assert_eq!(f[ROLE + COMBOS + 2], 0);
        assert_eq!(f[COMBOS], b.sums()[Side::Black.index()]);
        assert_eq!(f[FEATURES - 1], 1);
    }

    #[test]
    fn windows_tell_their_four_directions() {
        let b = Board6::new(19);
        let mut seen = [0; 4];
        for w in 0..b.window_count() as u32 {
            seen[direction(b.window_cells(w), 19)] += 1;
        }
        // 14 starts along a line of 19, 19 lines each way; 14 × 14 for each diagonal.
        assert_eq!(seen, [14 * 19, 14 * 19, 14 * 14, 14 * 14]);
    }

    #[test]
    fn a_point_on_two_lines_of_threes_is_told_from_one_on_one() {
        // Black h10 i10 j10 and k7 k8 k9, white to move: k10 closes both lines.
        let b = board(&[
            &["h10"],
            &["a1", "a3"],
            &["i10", "j10"],
            &["s19", "s17"],
            &["k7", "k8"],
            &["a19", "c19"],
            &["k9", "c1"],
        ]);
        let mut f = [0; FEATURES];
        features(&b, Side::White, &mut Scratch::default(), &mut f);
        let black = &f[ROLE..];
        // The row's threes pass through e10 to m10 (but not h10 to j10), the column's
        // through k4 to k12 (not k7 to k9): 6 + 6 points, k10 on both.
        let on = |threes| {
            (0..=CAP2 as u32)
                .map(|t| black[combo(threes, t)])
                .sum::<i32>()
        };
        assert_eq!(on(2), 1);
        assert_eq!(on(1), 10);
        assert_eq!(black[COMBOS + 1], 8);
    }
}
