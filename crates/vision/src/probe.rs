//! Line evidence: a candidate grid line probed along its length for a thin dark line, the
//! crossing lines probed over a step, and the board's colour on both sides of a line.

use crate::homography::{GridMap, LinePoint};
use crate::plane::Plane;
use crate::work::Work;

/// What probing across a candidate grid line found.
pub struct Probed {
    /// Probes made (inside the photo).
    pub tries: usize,
    /// Probes that found a thin dark line within [`NEAR`] grid steps of the prediction.
    pub hits: usize,
    /// The image points of every line found within [`WINDOW`] steps.
    pub found: Vec<LinePoint>,
}

/// Half-width of the window searched across a candidate line, in grid steps.
pub(crate) const WINDOW: f64 = 0.3;
/// How near the prediction a found line counts as a hit, in grid steps.
pub(crate) const NEAR: f64 = 0.12;

impl Probed {
    /// The fraction of probes that hit.
    pub fn fraction(&self) -> f64 {
        if self.tries == 0 {
            0.0
        } else {
            self.hits as f64 / self.tries as f64
        }
    }

    /// Hits beyond chance, scaled so that a line found by every probe scores 1: texture or
    /// noise puts its strongest dark speck anywhere in the window, so it hits the middle
    /// `NEAR / WINDOW` of the time; a grid line hits every time it is seen.
    pub fn excess(&self) -> f64 {
        let chance = NEAR / WINDOW;
        let misses = (self.found.len() - self.hits) as f64;
        let excess = self.hits as f64 - chance / (1.0 - chance) * misses;
        (excess / self.tries.max(1) as f64).max(0.0)
    }
}

/// Looks for grid line `family`/`k` (`x = k` or `y = k`) between `along.0` and `along.1`
/// along it, three probes per cell across the line, each over [`WINDOW`] either side.
pub fn probe(
    r: &Plane,
    h: &GridMap,
    family: usize,
    k: f64,
    along: (f64, f64),
    min_peak: f32,
) -> Probed {
    probe_within(r, h, family, k, along, min_peak, (-WINDOW, WINDOW))
}

/// [`probe`] across the window `(w_lo, w_hi)` about the line, in grid steps.
pub(crate) fn probe_within(
    r: &Plane,
    h: &GridMap,
    family: usize,
    k: f64,
    (s_lo, s_hi): (f64, f64),
    min_peak: f32,
    (w_lo, w_hi): (f64, f64),
) -> Probed {
    let at = |u: f64, s: f64| {
        if family == 0 {
            h.apply(u, s)
        } else {
            h.apply(s, u)
        }
    };
    let mut found = Vec::new();
    let (mut tries, mut hits) = (0usize, 0usize);
    let cells = (s_hi - s_lo).round().max(1.0) as usize;
    for c in 0..cells {
        for frac in [0.25, 0.5, 0.75] {
            let s = s_lo + c as f64 + frac;
            let p0 = at(k + w_lo, s);
            let p1 = at(k + w_hi, s);
            if !inside(r, p0) || !inside(r, p1) {
                continue;
            }
            tries += 1;
            let len = (p1.0 - p0.0).hypot(p1.1 - p0.1);
            let n = ((len / 0.5) as usize).clamp(6, 120);
            let vals: Vec<f32> = (0..=n)
                .map(|j| {
                    let t = j as f64 / n as f64;
                    r.sample(p0.0 + t * (p1.0 - p0.0), p0.1 + t * (p1.1 - p0.1))
                })
                .collect();
            let Some(j) = (0..=n).max_by(|&a, &b| vals[a].total_cmp(&vals[b])) else {
                continue;
            };
            let peak = vals[j];
            let ends = (vals[0] + vals[n]) / 2.0;
            if peak < min_peak || peak < 2.0 * ends + 0.01 || j == 0 || j == n {
                continue;
            }
            let (a, b, c2) = (vals[j - 1] as f64, peak as f64, vals[j + 1] as f64);
            let den = a - 2.0 * b + c2;
            let sub = if den < -1e-9 {
                0.5 * (a - c2) / den
            } else {
                0.0
            };
            let t = (j as f64 + sub) / n as f64;
            let u = w_lo + t * (w_hi - w_lo);
            if u.abs() < NEAR {
                hits += 1;
            }
            found.push(LinePoint {
                x: p0.0 + t * (p1.0 - p0.0),
                y: p0.1 + t * (p1.1 - p0.1),
                family,
                index: k,
                weight: peak as f64,
            });
        }
    }
    Probed { tries, hits, found }
}

pub(crate) fn inside(r: &Plane, p: (f64, f64)) -> bool {
    p.0 >= 1.0 && p.1 >= 1.0 && p.0 <= r.w as f64 - 2.0 && p.1 <= r.h as f64 - 2.0
}

/// The median luma and chroma at the centres of the cells along the strip `u` (a half-integer
/// index of family `f`, so no stone lies there: stones are centred on the points, and drawn
/// only a little off them by their height); `None` when most of the strip is outside the photo.
pub(crate) fn strip_colour(
    work: &Work,
    h: &GridMap,
    f: usize,
    u: f64,
    other: (i32, i32),
) -> Option<(f32, f32)> {
    let at = |s: f64| if f == 0 { h.apply(u, s) } else { h.apply(s, u) };
    let cells = (other.1 - other.0).max(0) as usize;
    let (mut l, mut c): (Vec<f32>, Vec<f32>) = (other.0..other.1)
        .map(|j| at(j as f64 + 0.5))
        .filter(|&p| inside(&work.luma, p))
        .map(|p| (work.luma.sample(p.0, p.1), work.chroma.sample(p.0, p.1)))
        .unzip();
    if l.is_empty() || 2 * l.len() < cells {
        return None;
    }
    Some((median(&mut l), median(&mut c)))
}

/// How unlike two strips' colours are: the log-ratios of their luma and of their chroma.
pub(crate) fn colour_distance(a: (f32, f32), b: (f32, f32)) -> f64 {
    ((a.0.max(1.0) / b.0.max(1.0)).ln().abs() + ((a.1 + 8.0) / (b.1 + 8.0)).ln().abs()) as f64
}

/// How far either side of a candidate line its sides are sampled, in grid steps. Real boards
/// may leave a margin of under half a step beyond the edge lines, so the outer side of an
/// edge line is sampled nearer than half a step, to fall on the board. 0.4 steps across and
/// half a step along the line keeps the samples 0.64 steps from the nearest points, clear of
/// stones (under half a step across) even when drawn a little off their points.
pub(crate) const SIDE: f64 = 0.4;

/// How unlike the two sides of candidate line `k` are (see [`strip_colour`]). Both sides of a
/// grid line are the board; a board edge has the table on one side.
pub(crate) fn sides_differ(work: &Work, h: &GridMap, f: usize, k: i32, other: (i32, i32)) -> f64 {
    let side = |u: f64| strip_colour(work, h, f, u, other);
    match (side(k as f64 - SIDE), side(k as f64 + SIDE)) {
        (Some(a), Some(b)) => colour_distance(a, b),
        _ => 0.0,
    }
}

/// For each outer line of the chosen grid (low and high index of family 0, then of family 1),
/// how unlike its inner cells are the cells a step and a half beyond it: past the board's
/// margin (under a step wide), so on the table when the line is the board's edge. `None` when
/// those cells are outside the photo.
pub(crate) fn beyond_edges(work: &Work, h: &GridMap, ranges: [(i32, i32); 2]) -> [Option<f64>; 4] {
    let mut out = [None; 4];
    for f in 0..2 {
        let other = ranges[1 - f];
        let (lo, hi) = (ranges[f].0 as f64, ranges[f].1 as f64);
        for (s, (inner, outer)) in [(lo + 0.5, lo - 1.5), (hi - 0.5, hi + 1.5)]
            .into_iter()
            .enumerate()
        {
            let a = strip_colour(work, h, f, inner, other);
            let b = strip_colour(work, h, f, outer, other);
            out[2 * f + s] = a.zip(b).map(|(a, b)| colour_distance(a, b));
        }
    }
    out
}

/// Whether candidate line `k` has the board on both sides (1) or looks like the board's edge
/// (0), from [`sides_differ`]: grid lines stay under about 0.4, edges of a board on a table
/// of another colour or brightness are over 1. (On a table much like the board the test does
/// not tell, and the other evidence decides.)
pub(crate) fn board_both_sides(
    work: &Work,
    h: &GridMap,
    f: usize,
    k: i32,
    other: (i32, i32),
) -> f64 {
    ((1.0 - sides_differ(work, h, f, k, other)) / 0.4).clamp(0.0, 1.0)
}

/// How clearly the lines across family `f` (those of family `1 - f` with indices in `other`)
/// run over the step from index `a` to `a + 1` of family `f`: the mean excess of their probes
/// there (`min_peak`, see [`probe`]).
pub(crate) fn crossing_run(
    r: &Plane,
    h: &GridMap,
    other: (i32, i32),
    min_peak: f32,
    f: usize,
    a: f64,
) -> f64 {
    let total: f64 = (other.0..=other.1)
        .map(|j| probe(r, h, 1 - f, j as f64, (a, a + 1.0), min_peak).excess())
        .sum();
    total / (other.1 - other.0 + 1).max(1) as f64
}

pub(crate) fn median(v: &mut [f32]) -> f32 {
    let k = v.len() / 2;
    *v.select_nth_unstable_by(k, f32::total_cmp).1
}

/// The weakest response a probe accepts as a line (relative black-hat).
pub(crate) const MIN_PEAK: f32 = 0.03;

/// The median response of the lines inside the combs' spans: how dark this board's lines are.
pub(crate) fn typical_peak(r: &Plane, h: &GridMap, ranges: [(i32, i32); 2]) -> f32 {
    let mut peaks: Vec<f32> = (0..2)
        .flat_map(|f| {
            let other = ranges[1 - f];
            (ranges[f].0..=ranges[f].1).flat_map(move |k| {
                probe(
                    r,
                    h,
                    f,
                    k as f64,
                    (other.0 as f64, other.1 as f64),
                    MIN_PEAK,
                )
                .found
            })
        })
        .map(|p| p.weight as f32)
        .collect();
    if peaks.is_empty() {
        return MIN_PEAK;
    }
    let k = peaks.len() / 2;
    peaks.select_nth_unstable_by(k, f32::total_cmp);
    peaks[k].max(MIN_PEAK)
}

/// Whether the other family's lines reach candidate line `k` from one side: a board edge or
/// its shadow can look like one more grid line, but the grid does not run up to it.
pub(crate) fn crossing_evidence(
    r: &Plane,
    h: &GridMap,
    f: usize,
    k: i32,
    other: (i32, i32),
    min_peak: f32,
) -> f64 {
    let strip = |a: i32| crossing_run(r, h, other, min_peak, f, a as f64);
    strip(k - 1).max(strip(k))
}
