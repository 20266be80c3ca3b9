//! Where the board probably is, before any line is fitted: a grid is the one texture with
//! thin lines running in two directions at once. Table grain, cloth streaks and shelf edges
//! run one way; stone rims run every way. Blocks of the line response are scored by the
//! strength of their second line direction, and the best connected group of such blocks,
//! closed to its convex hull (a board is convex), is the region where lines are looked for.

use crate::plane::Plane;

/// Side of a scoring block in working-image pixels.
const BLOCK: usize = 16;
/// Orientation bins over 180°.
const BINS: usize = 12;

/// A per-block mask of the photo.
#[derive(Debug, Clone)]
pub struct Region {
    bw: usize,
    bh: usize,
    inside: Vec<bool>,
}

impl Region {
    pub fn contains(&self, x: usize, y: usize) -> bool {
        let (bx, by) = ((x / BLOCK).min(self.bw - 1), (y / BLOCK).min(self.bh - 1));
        self.inside[by * self.bw + bx]
    }

    /// The fraction of the photo inside the region.
    pub fn share(&self) -> f64 {
        self.inside.iter().filter(|&&b| b).count() as f64 / self.inside.len() as f64
    }
}

/// Finds the region; `orient` gives, per pixel, the line weight and its direction (radians,
/// modulo π). `None` when no part of the photo looks like a grid.
pub fn grid_region(
    r: &Plane,
    threshold: f32,
    orient: impl Fn(usize, usize) -> (f32, f32),
) -> Option<Region> {
    let (bw, bh) = (r.w.div_ceil(BLOCK), r.h.div_ceil(BLOCK));
    if bw < 3 || bh < 3 {
        return None;
    }
    let mut hist = vec![[0.0f32; BINS]; bw * bh];
    for y in 0..r.h {
        for x in 0..r.w {
            if r.get(x, y) <= threshold {
                continue;
            }
            let (weight, angle) = orient(x, y);
            let bin = ((angle / std::f32::consts::PI * BINS as f32) as usize).min(BINS - 1);
            hist[(y / BLOCK) * bw + x / BLOCK][bin] += weight;
        }
    }
    let score: Vec<f32> = hist.iter().map(second_direction).collect();
    let score = smooth(&score, bw, bh);
    let mut sorted: Vec<f32> = score.iter().copied().filter(|&s| s > 0.0).collect();
    if sorted.len() < 4 {
        return None;
    }
    sorted.sort_by(f32::total_cmp);
    let level = 0.3 * sorted[sorted.len() * 19 / 20];
    let strong: Vec<bool> = score.iter().map(|&s| s >= level && s > 0.0).collect();
    let best = best_component(&strong, &score, bw, bh)?;
    let mut inside = convex_fill(&best, bw, bh);
    grow(&mut inside, bw, bh);
    Some(Region { bw, bh, inside })
}

/// The strength of the second line direction of a block: the largest three-bin sum at least
/// 45° away from the strongest, less the block's mean per three bins (all-way texture).
fn second_direction(h: &[f32; BINS]) -> f32 {
    let tri = |b: usize| (0..3).map(|o| h[(b + BINS - 1 + o) % BINS]).sum::<f32>();
    let first = (0..BINS)
        .max_by(|&a, &b| tri(a).total_cmp(&tri(b)))
        .unwrap_or(0);
    let far = |b: usize| {
        let d = b.abs_diff(first);
        d.min(BINS - d) >= 3
    };
    let second = (0..BINS)
        .filter(|&b| far(b))
        .map(tri)
        .fold(0.0f32, f32::max);
    let mean = 3.0 * h.iter().sum::<f32>() / BINS as f32;
    (second - 0.7 * mean).max(0.0)
}

fn smooth(s: &[f32], bw: usize, bh: usize) -> Vec<f32> {
    let mut out = vec![0.0; s.len()];
    for y in 0..bh {
        for x in 0..bw {
            let mut sum = 0.0;
            for yy in y.saturating_sub(1)..(y + 2).min(bh) {
                for xx in x.saturating_sub(1)..(x + 2).min(bw) {
                    sum += s[yy * bw + xx];
                }
            }
            out[y * bw + x] = sum / 9.0;
        }
    }
    out
}

/// The 8-connected group of strong blocks with the largest total score.
fn best_component(strong: &[bool], score: &[f32], bw: usize, bh: usize) -> Option<Vec<usize>> {
    let mut label = vec![usize::MAX; strong.len()];
    let mut best: Option<(f32, Vec<usize>)> = None;
    for start in 0..strong.len() {
        if !strong[start] || label[start] != usize::MAX {
            continue;
        }
        let mut members = vec![start];
        label[start] = start;
        let mut k = 0;
        while k < members.len() {
            let (x, y) = (members[k] % bw, members[k] / bw);
            for yy in y.saturating_sub(1)..(y + 2).min(bh) {
                for xx in x.saturating_sub(1)..(x + 2).min(bw) {
                    let i = yy * bw + xx;
                    if strong[i] && label[i] == usize::MAX {
                        label[i] = start;
                        members.push(i);
                    }
                }
            }
            k += 1;
        }
        let total: f32 = members.iter().map(|&i| score[i]).sum();
        if best.as_ref().is_none_or(|b| total > b.0) {
            best = Some((total, members));
        }
    }
    best.map(|b| b.1)
}

/// Every block whose centre lies in the convex hull of the member blocks' corners.
fn convex_fill(members: &[usize], bw: usize, bh: usize) -> Vec<bool> {
    let mut pts: Vec<(i64, i64)> = members
        .iter()
        .flat_map(|&i| {
            let (x, y) = ((i % bw) as i64, (i / bw) as i64);
            [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
        })
        .collect();
    let hull = convex_hull(&mut pts);
    let mut inside = vec![false; bw * bh];
    for (i, v) in inside.iter_mut().enumerate() {
        let (x, y) = ((i % bw) as f64 + 0.5, (i / bw) as f64 + 0.5);
        *v = hull.len() >= 3
            && (0..hull.len()).all(|k| {
                let (a, b) = (hull[k], hull[(k + 1) % hull.len()]);
                let cross =
                    (b.0 - a.0) as f64 * (y - a.1 as f64) - (b.1 - a.1) as f64 * (x - a.0 as f64);
                cross >= 0.0
            });
    }
    inside
}

/// Andrew's monotone chain; counter-clockwise in image coordinates (y down: clockwise on
/// screen), so inside points have a non-negative cross product with every edge.
fn convex_hull(pts: &mut [(i64, i64)]) -> Vec<(i64, i64)> {
    pts.sort_unstable();
    let cross = |o: (i64, i64), a: (i64, i64), b: (i64, i64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(i64, i64)> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &(i64, i64)>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// One block of margin all round: the outer grid lines lie at the region's edge.
fn grow(inside: &mut [bool], bw: usize, bh: usize) {
    let old = inside.to_vec();
    for y in 0..bh {
        for x in 0..bw {
            if (y.saturating_sub(1)..(y + 2).min(bh))
                .any(|yy| (x.saturating_sub(1)..(x + 2).min(bw)).any(|xx| old[yy * bw + xx]))
            {
                inside[y * bw + x] = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Streaks everywhere (one direction), a grid (two directions) in one part: the region
    /// is the grid.
    #[test]
    fn grid_stands_out_of_streaks() {
        let (w, h) = (320, 240);
        let mut r = Plane::new(w, h);
        let mut angle = vec![0.0f32; w * h];
        for y in 0..h {
            for x in 0..w {
                let in_grid = (100..220).contains(&x) && (60..180).contains(&y);
                if x % 6 == 0 {
                    r.data[y * w + x] = 1.0;
                } else if in_grid && y % 12 == 0 {
                    r.data[y * w + x] = 1.0;
                    angle[y * w + x] = std::f32::consts::FRAC_PI_2;
                }
            }
        }
        let region = grid_region(&r, 0.5, |x, y| (1.0, angle[y * w + x])).expect("a region");
        assert!(region.contains(160, 120));
        assert!(!region.contains(10, 10));
        assert!(!region.contains(300, 220));
        assert!(region.share() < 0.5);
    }
}
