//! From loose line candidates to the grid: split the lines into the two directions of the grid,
//! then find in each direction the evenly spaced (in perspective) comb of lines and give each
//! line its index. A RANSAC over triples of neighbouring lines proposes combs; the comb that
//! explains the most line evidence with the fewest gaps wins.

use crate::hough::{Line, own_lines};
use std::f64::consts::PI;

/// One direction of the grid: its lines with their comb indices.
#[derive(Debug, Clone)]
pub struct Family {
    pub lines: Vec<(Line, i32)>,
}

/// Splits lines into the two dominant directions (angles taken modulo 180°).
pub fn split_families(lines: &[Line]) -> Option<[Vec<Line>; 2]> {
    const BINS: usize = 180;
    let mut hist = [0.0f64; BINS];
    for l in lines {
        let b = ((l.theta / PI * BINS as f64) as usize).min(BINS - 1);
        hist[b] += l.votes;
    }
    let smooth: Vec<f64> = (0..BINS)
        .map(|b| {
            (-6i32..=6)
                .map(|o| hist[(b as i32 + o).rem_euclid(BINS as i32) as usize])
                .sum()
        })
        .collect();
    let circ = |a: usize, b: usize| {
        let d = a.abs_diff(b);
        d.min(BINS - d)
    };
    let p1 = argmax(smooth.iter().copied().enumerate())?;
    let p2 = argmax(
        smooth
            .iter()
            .copied()
            .enumerate()
            .filter(|&(b, _)| circ(b, p1) >= 35),
    )?;
    let mut fams = [Vec::new(), Vec::new()];
    for l in lines {
        let b = ((l.theta / PI * BINS as f64) as usize).min(BINS - 1);
        let (d1, d2) = (circ(b, p1), circ(b, p2));
        if d1.min(d2) > 40 {
            continue;
        }
        fams[usize::from(d2 < d1)].push(*l);
    }
    Some(fams)
}

fn argmax(it: impl Iterator<Item = (usize, f64)>) -> Option<usize> {
    it.max_by(|a, b| a.1.total_cmp(&b.1)).map(|(i, _)| i)
}

/// A 1-D projective map from comb index to position along a transversal:
/// `t(i) = (a i + b) / (c i + 1)`, the image of evenly spaced lines under perspective.
#[derive(Debug, Clone, Copy)]
struct Comb {
    a: f64,
    b: f64,
    c: f64,
}

impl Comb {
    fn at(&self, i: f64) -> f64 {
        (self.a * i + self.b) / (self.c * i + 1.0)
    }

    /// Least-squares fit of `t (c i + 1) = a i + b` to `(index, position, weight)` triples.
    fn fit(samples: &[(f64, f64, f64)]) -> Option<Comb> {
        let mut m = nalgebra::Matrix3::<f64>::zeros();
        let mut v = nalgebra::Vector3::<f64>::zeros();
        for &(i, t, w) in samples {
            let row = nalgebra::Vector3::new(i, 1.0, -i * t);
            m += w * row * row.transpose();
            v += w * row * t;
        }
        let s = m.try_inverse()? * v;
        let comb = Comb {
            a: s.x,
            b: s.y,
            c: s.z,
        };
        comb.is_finite().then_some(comb)
    }

    fn is_finite(&self) -> bool {
        self.a.is_finite() && self.b.is_finite() && self.c.is_finite()
    }

    /// The indices around 0 (within ±SPAN) that the map sends to finite positions, stopping
    /// short of the horizon of the board plane.
    fn valid_range(&self) -> (i32, i32) {
        let ok = |i: i32| self.c * i as f64 + 1.0 > 0.1;
        let mut lo = 0;
        while lo > -SPAN && ok(lo - 1) {
            lo -= 1;
        }
        let mut hi = 0;
        while hi < SPAN && ok(hi + 1) {
            hi += 1;
        }
        (lo, hi)
    }
}

/// Where each line crosses two transversals (perpendicular to the family's mean direction,
/// through `(cx, cy)` shifted by ±`offset` along that direction). Two crossings pin a line
/// down, so a comb fitted to both checks positions and angles together.
fn crossings(lines: &[Line], theta0: f64, cx: f64, cy: f64, offset: f64) -> Vec<(f64, f64)> {
    let (dx, dy) = (-theta0.sin(), theta0.cos());
    let at = |l: &Line, ox: f64, oy: f64| {
        let den = (l.theta - theta0).cos();
        let den = if den.abs() < 0.2 {
            0.2f64.copysign(den)
        } else {
            den
        };
        (l.rho - (ox * l.theta.cos() + oy * l.theta.sin())) / den
    };
    lines
        .iter()
        .map(|l| {
            (
                at(l, cx - offset * dx, cy - offset * dy),
                at(l, cx + offset * dx, cy + offset * dy),
            )
        })
        .collect()
}

/// The mean normal angle of a family, averaged on doubled angles so 0° and 180° agree.
fn mean_theta(lines: &[Line]) -> f64 {
    let (s, c) = lines.iter().fold((0.0, 0.0), |a, l| {
        (
            a.0 + l.votes * (2.0 * l.theta).sin(),
            a.1 + l.votes * (2.0 * l.theta).cos(),
        )
    });
    s.atan2(c) / 2.0
}

const SPAN: i32 = 30;
/// How many of a family's strongest lines seed combs.
const SEEDS: usize = 40;

/// A comb on both transversals.
#[derive(Debug, Clone, Copy)]
struct Comb2([Comb; 2]);

impl Comb2 {
    fn fit(samples: &[(f64, (f64, f64))]) -> Option<Comb2> {
        let a: Vec<(f64, f64, f64)> = samples.iter().map(|&(i, t)| (i, t.0, 1.0)).collect();
        let b: Vec<(f64, f64, f64)> = samples.iter().map(|&(i, t)| (i, t.1, 1.0)).collect();
        Some(Comb2([Comb::fit(&a)?, Comb::fit(&b)?]))
    }
}

/// What a comb explains: the score and the matched `(line, index)` pairs.
type Matched = (f64, Vec<(usize, i32)>);

/// Scores a comb: the votes of the lines it explains, less a penalty for each index inside
/// its explained span that has no line. A comb that matches a line inside the image
/// (`|t| < limit`) where its spacing falls under `min_step` scores 0.
fn score(
    comb: &Comb2,
    t: &[(f64, f64)],
    lines: &[Line],
    typical: f64,
    limit: f64,
    min_step: f64,
) -> Matched {
    let mut matched: Vec<(usize, i32)> = Vec::new();
    let (lo0, hi0) = comb.0[0].valid_range();
    let (lo1, hi1) = comb.0[1].valid_range();
    let (lo, hi) = (lo0.max(lo1), hi0.min(hi1));
    if lo > -2 || hi < 2 {
        return (0.0, matched);
    }
    for i in lo..=hi {
        let p = [comb.0[0].at(i as f64), comb.0[1].at(i as f64)];
        if p[0].abs().min(p[1].abs()) > limit {
            continue;
        }
        let step =
            [0, 1].map(|k| (comb.0[k].at(i as f64 + 0.5) - comb.0[k].at(i as f64 - 0.5)).abs());
        let best = t
            .iter()
            .enumerate()
            .filter(|(_, tk)| {
                (tk.0 - p[0]).abs() < 0.2 * step[0] && (tk.1 - p[1]).abs() < 0.2 * step[1]
            })
            .max_by(|a, b| lines[a.0].votes.total_cmp(&lines[b.0].votes));
        // Lines closer than `min_step` cannot be told apart: a comb that claims such lines
        // is texture, but towards the horizon of a strongly tilted board a true comb's
        // unclaimed indices also crowd together, and are merely not looked at.
        if step[0].min(step[1]) < min_step {
            if best.is_some() {
                return (0.0, Vec::new());
            }
            continue;
        }
        if let Some((k, _)) = best {
            matched.push((k, i));
        }
    }
    // Keep the longest run of indices with gaps of at most two.
    let mut best_run: (usize, usize) = (0, 0);
    let mut start = 0;
    for k in 1..=matched.len() {
        if k == matched.len() || matched[k].1 - matched[k - 1].1 > 3 {
            if k - start > best_run.1 - best_run.0 {
                best_run = (start, k);
            }
            start = k;
        }
    }
    let run = matched[best_run.0..best_run.1].to_vec();
    if run.len() < 3 || meet_inside(comb, run[0].1, run[run.len() - 1].1, limit) {
        return (0.0, run);
    }
    let span = (run[run.len() - 1].1 - run[0].1 + 1) as usize;
    let gaps = span - run.len();
    let votes: f64 = run
        .iter()
        .map(|&(k, _)| lines[k].votes.min(2.0 * typical))
        .sum();
    (votes - 0.8 * typical * gaps as f64, run)
}

/// Whether comb lines `a` and `b` cross inside the photo (within `limit` of its centre). A
/// board's lines meet at their vanishing point, far outside the board; a fan of lines meeting
/// in the photo is the spokes of a bright or dark spot (a stone, a glare), not a grid.
fn meet_inside(comb: &Comb2, a: i32, b: i32, limit: f64) -> bool {
    let off = TRANSVERSAL * limit;
    let (a, b) = (a as f64, b as f64);
    let (pa, pb) = (
        (comb.0[0].at(a), comb.0[1].at(a)),
        (comb.0[0].at(b), comb.0[1].at(b)),
    );
    // Each line as t(w) = t0 + (t1 - t0) w, w = 0 on the first transversal and 1 on the second.
    let den = (pa.1 - pa.0) - (pb.1 - pb.0);
    if den.abs() < 1e-9 {
        return false;
    }
    let w = (pb.0 - pa.0) / den;
    let along = -off + 2.0 * off * w;
    let across = pa.0 + (pa.1 - pa.0) * w;
    along.abs() < limit && across.abs() < limit
}

/// Where the two transversals cross the family, as a fraction of `limit` either side of the
/// centre.
const TRANSVERSAL: f64 = 0.4;

/// The combs of one family (see [`fit_family`]) over the lines above each of its
/// [`strength_floors`]: one comb, or two when strong lines with fans of spokes set the usual
/// floor above the thin grid lines. Which comb is the grid is told later, by the evidence of
/// the grid each makes.
pub fn fit_family_floors(
    lines: &[Line],
    cx: f64,
    cy: f64,
    limit: f64,
    min_step: f64,
) -> Vec<Option<Family>> {
    let mut combs: Vec<Option<Family>> = Vec::new();
    for floor in strength_floors(lines, cx, cy, limit) {
        let comb = fit_family(lines, floor, cx, cy, limit, min_step);
        if !combs.iter().any(|c| same(c, &comb)) {
            combs.push(comb);
        }
    }
    combs
}

/// Whether two combs hold the same lines with the same indices.
fn same(a: &Option<Family>, b: &Option<Family>) -> bool {
    let key = |f: &Option<Family>| {
        f.as_ref().map(|f| {
            f.lines
                .iter()
                .map(|(l, i)| (l.theta.to_bits(), l.rho.to_bits(), *i))
                .collect::<Vec<_>>()
        })
    };
    key(a) == key(b)
}

/// Finds the comb of one family among its lines with at least `floor` votes and indexes its
/// lines (smallest index 0).
pub fn fit_family(
    lines: &[Line],
    floor: f64,
    cx: f64,
    cy: f64,
    limit: f64,
    min_step: f64,
) -> Option<Family> {
    let lines: Vec<Line> = lines.iter().filter(|l| l.votes >= floor).copied().collect();
    let lines = &lines[..];
    if lines.len() < 3 {
        return None;
    }
    let theta0 = mean_theta(lines);
    let t = crossings(lines, theta0, cx, cy, limit * TRANSVERSAL);
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| (t[a].0 + t[a].1).total_cmp(&(t[b].0 + t[b].1)));
    // A grid line's typical strength, from the lines that are no spokes of stronger ones (a
    // strong frame's fans would otherwise make it a frame line's).
    let mut votes: Vec<f64> = own_lines(lines, cx, cy, limit, usize::MAX)
        .iter()
        .map(|l| l.votes)
        .collect();
    votes.sort_by(f64::total_cmp);
    let typical = votes[votes.len() * 3 / 4];

    // Seeds come from the strongest lines only: on a crowded board, stone rims and texture
    // add many weak lines between the grid lines, and neighbouring grid lines must stay
    // neighbours in the seed order.
    let mut seeds: Vec<usize> = (0..lines.len()).collect();
    seeds.sort_by(|&a, &b| lines[b].votes.total_cmp(&lines[a].votes));
    seeds.truncate(SEEDS);
    let order: Vec<usize> = order.into_iter().filter(|k| seeds.contains(k)).collect();
    let mut best: Option<Matched> = None;
    for a in 0..order.len() {
        for b in a + 1..(a + 4).min(order.len()) {
            for c in b + 1..(b + 4).min(order.len()) {
                let (ta, tb, tc) = (t[order[a]], t[order[b]], t[order[c]]);
                // Evenly spaced on both transversals, so the three angles agree too.
                let even = |x: f64, y: f64, z: f64| (0.75..=1.33).contains(&((z - y) / (y - x)));
                if !even(ta.0, tb.0, tc.0) || !even(ta.1, tb.1, tc.1) {
                    continue;
                }
                let Some(comb) = Comb2::fit(&[(0.0, ta), (1.0, tb), (2.0, tc)]) else {
                    continue;
                };
                let found = improve(score(&comb, &t, lines, typical, limit, min_step), |run| {
                    let samples: Vec<(f64, (f64, f64))> =
                        run.iter().map(|&(k, i)| (i as f64, t[k])).collect();
                    Comb2::fit(&samples).map(|c| score(&c, &t, lines, typical, limit, min_step))
                });
                if best.as_ref().is_none_or(|(bs, _)| found.0 > *bs) {
                    best = Some(found);
                }
            }
        }
    }
    let (_, run) = best?;
    let i0 = run.iter().map(|&(_, i)| i).min()?;
    Some(Family {
        lines: run.iter().map(|&(k, i)| (lines[k], i - i0)).collect(),
    })
}

/// The votes under which a line of a family is a weak straggler (texture: within a family,
/// grid lines are of like strength): 0.3 of its fifth strongest line. A board's frame (often
/// doubled) or a thick middle line can be several times as strong as the thin grid lines,
/// and each strong line also gathers a fan of weaker Hough lines turned a degree or two about
/// a point of it, so the five strongest may all be frame lines and that floor then lies
/// above every grid line. A spoke of the fan crosses its line inside the photo (within
/// `limit` of the centre), which no two lines of a grid do: when spokes are among the five
/// strongest, 0.3 of the fifth strongest line that is no spoke of a stronger one is a
/// second, lower floor.
pub fn strength_floors(lines: &[Line], cx: f64, cy: f64, limit: f64) -> Vec<f64> {
    let mut order: Vec<&Line> = lines.iter().collect();
    order.sort_by(|a, b| b.votes.total_cmp(&a.votes));
    let usual = order.get(4).map_or(0.0, |l| 0.3 * l.votes);
    let own = own_lines(lines, cx, cy, limit, 5);
    let spoke_free = own.get(4).map_or(0.0, |l| 0.3 * l.votes);
    if spoke_free < usual {
        vec![usual, spoke_free]
    } else {
        vec![usual]
    }
}

/// Local optimisation: refit on everything matched while the score grows, so that a comb
/// seeded by three close lines reaches the far side of the board.
fn improve(mut m: Matched, refit: impl Fn(&[(usize, i32)]) -> Option<Matched>) -> Matched {
    for _ in 0..4 {
        if m.1.len() < 4 {
            break;
        }
        match refit(&m.1) {
            Some(m2) if m2.0 > m.0 => m = m2,
            _ => break,
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(theta_deg: f64, through: (f64, f64), votes: f64) -> Line {
        let theta = theta_deg.to_radians().rem_euclid(PI);
        let rho = through.0 * theta.cos() + through.1 * theta.sin();
        Line { theta, rho, votes }
    }

    /// A 19-line family of thin grid lines (x = 50, 80, …, 590 in a 640×640 photo) inside a
    /// strong frame (x = 35 and 605) with a strong middle line, each strong line with a fan
    /// of spokes: the five strongest lines are all frame lines or spokes.
    fn framed_family() -> Vec<Line> {
        let mut lines: Vec<Line> = (0..19)
            .map(|i| {
                let x = 50.0 + 30.0 * i as f64;
                line(0.0, (x, 320.0), if i == 9 { 300.0 } else { 40.0 })
            })
            .collect();
        for x in [35.0, 605.0] {
            lines.push(line(0.0, (x, 320.0), 300.0));
            for (turn, votes) in [(1.0, 200.0), (-1.5, 190.0)] {
                lines.push(line(turn, (x, 300.0), votes));
            }
        }
        lines
    }

    #[test]
    fn strong_frame_lines_do_not_hide_the_grid() {
        let lines = framed_family();
        let (cx, cy) = (320.0, 320.0);
        let limit = cx * std::f64::consts::SQRT_2;
        let floors = strength_floors(&lines, cx, cy, limit);
        // The usual floor (0.3 of the fifth strongest line, a spoke) is above every grid line.
        assert_eq!(floors.len(), 2, "{floors:?}");
        assert!(floors[0] > 40.0 && floors[1] <= 40.0, "{floors:?}");
        let combs = fit_family_floors(&lines, cx, cy, limit, 4.0);
        let grid = combs.iter().flatten().find(|f| f.lines.len() == 19);
        let grid = grid.unwrap_or_else(|| panic!("no comb of all 19 grid lines: {combs:?}"));
        for &(l, i) in &grid.lines {
            assert!(l.theta.abs() < 1e-9, "{l:?}");
            assert!(
                (l.rho - (50.0 + 30.0 * i as f64)).abs() < 1e-6,
                "{l:?} at {i}"
            );
        }
    }

    #[test]
    fn without_strong_lines_one_floor_is_tried() {
        let lines: Vec<Line> = (0..19)
            .map(|i| line(0.0, (50.0 + 30.0 * i as f64, 320.0), 40.0 + i as f64))
            .collect();
        let floors = strength_floors(&lines, 320.0, 320.0, 452.0);
        assert_eq!(floors.len(), 1);
        let combs = fit_family_floors(&lines, 320.0, 320.0, 452.0, 4.0);
        assert_eq!(combs.len(), 1);
        assert_eq!(combs[0].as_ref().map(|f| f.lines.len()), Some(19));
    }
}
