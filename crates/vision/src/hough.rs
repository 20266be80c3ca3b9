//! Straight-line candidates from a line-response image by a weighted Hough transform.

use crate::plane::Plane;

/// A line `x cos θ + y sin θ = ρ` with the Hough votes it collected.
#[derive(Debug, Clone, Copy)]
pub struct Line {
    pub theta: f64,
    pub rho: f64,
    pub votes: f64,
}

impl Line {
    /// The point of the line nearest to `(cx, cy)`.
    pub fn foot(&self, cx: f64, cy: f64) -> (f64, f64) {
        let (c, s) = (self.theta.cos(), self.theta.sin());
        let d = cx * c + cy * s - self.rho;
        (cx - d * c, cy - d * s)
    }

    /// Whether this line and `other` cross within `limit` of `(cx, cy)`.
    pub fn crosses_within(&self, other: &Line, cx: f64, cy: f64, limit: f64) -> bool {
        let (ca, sa) = (self.theta.cos(), self.theta.sin());
        let (cb, sb) = (other.theta.cos(), other.theta.sin());
        let det = ca * sb - sa * cb;
        if det.abs() < 1e-9 {
            return false;
        }
        let x = (self.rho * sb - other.rho * sa) / det;
        let y = (ca * other.rho - cb * self.rho) / det;
        (x - cx).hypot(y - cy) < limit
    }

    /// Whether this line is a spoke of the stronger line `strong`: turned by a few degrees
    /// about a point of it inside the photo (within `limit` of `(cx, cy)`). A strong line
    /// gathers a fan of such weaker Hough lines; no two lines of a grid cross in the photo.
    pub fn is_spoke_of(&self, strong: &Line, cx: f64, cy: f64, limit: f64) -> bool {
        let turn = (self.theta - strong.theta).rem_euclid(std::f64::consts::PI);
        let turn = turn.min(std::f64::consts::PI - turn);
        turn < SPOKE_TURN && self.crosses_within(strong, cx, cy, limit)
    }

    /// Unit direction along the line.
    pub fn direction(&self) -> (f64, f64) {
        (-self.theta.sin(), self.theta.cos())
    }
}

const THETA_BINS: usize = 360;
/// Largest turn of a spoke from its line: the spread of each pixel's votes (see [`SPREAD`])
/// and a little more.
const SPOKE_TURN: f64 = 10.0 * std::f64::consts::PI / 180.0;
/// Each pixel votes only for angles within this many bins (0.5° each) of its own ridge angle.
const SPREAD: isize = 12;

/// The strongest lines of `response`: every pixel above `threshold` votes with its response
/// for the lines through it whose angle is near its local ridge direction (from the
/// structure tensor), which keeps texture and noise from piling up votes. A pixel's response
/// counts up to `cap`. With `in_region`, only pixels of the likely board region
/// ([`crate::region`]) vote.
pub fn detect_lines(
    response: &Plane,
    threshold: f32,
    cap: f32,
    max_lines: usize,
    in_region: bool,
) -> Vec<Line> {
    let diag = ((response.w * response.w + response.h * response.h) as f64).sqrt();
    let rho_bins = 2 * diag.ceil() as usize + 1;
    let offset = diag.ceil();
    let trig: Vec<(f32, f32)> = (0..THETA_BINS)
        .map(|t| {
            let th = t as f64 * std::f64::consts::PI / THETA_BINS as f64;
            (th.cos() as f32, th.sin() as f32)
        })
        .collect();
    let tensor = structure_tensor(response);
    let ridge = |x: usize, y: usize| {
        let (jxx, jxy, jyy) = tensor[y * response.w + x];
        let angle = 0.5 * (2.0 * jxy).atan2(jxx - jyy);
        // Lines have one clear direction; noise and grain speckle do not.
        let coherence = ((jxx - jyy).powi(2) + 4.0 * jxy * jxy).sqrt() / (jxx + jyy + 1e-6);
        (
            coherence * coherence,
            angle.rem_euclid(std::f32::consts::PI),
        )
    };
    let region = if in_region {
        crate::region::grid_region(response, threshold, |x, y| {
            let (w, a) = ridge(x, y);
            (w * response.get(x, y), a)
        })
    } else {
        None
    };
    let mut acc = vec![0.0f32; THETA_BINS * rho_bins];
    for y in 0..response.h {
        for x in 0..response.w {
            let v = response.get(x, y);
            if v <= threshold {
                continue;
            }
            if region.as_ref().is_some_and(|r| !r.contains(x, y)) {
                continue;
            }
            let (weight, angle) = ridge(x, y);
            let v = v.min(cap) * weight;
            let centre = (angle / std::f32::consts::PI * THETA_BINS as f32).round() as isize;
            let (xf, yf) = (x as f32, y as f32);
            for o in -SPREAD..=SPREAD {
                let t = (centre + o).rem_euclid(THETA_BINS as isize) as usize;
                let (c, s) = trig[t];
                let r = (xf * c + yf * s + offset as f32 + 0.5) as usize;
                acc[t * rho_bins + r] += v;
            }
        }
    }
    let centre = (response.w as f64 / 2.0, response.h as f64 / 2.0);
    peaks(&acc, rho_bins, offset, max_lines, centre)
}

/// Per pixel, the gradient structure tensor `(Jxx, Jxy, Jyy)` averaged over a 5×5 window.
fn structure_tensor(p: &Plane) -> Vec<(f32, f32, f32)> {
    let (w, h) = (p.w, p.h);
    let mut g = vec![(0.0f32, 0.0f32, 0.0f32); w * h];
    for y in 1..h.saturating_sub(1) {
        for x in 1..w.saturating_sub(1) {
            let gx = p.get(x + 1, y) - p.get(x - 1, y);
            let gy = p.get(x, y + 1) - p.get(x, y - 1);
            g[y * w + x] = (gx * gx, gx * gy, gy * gy);
        }
    }
    let add = |a: (f32, f32, f32), b: (f32, f32, f32)| (a.0 + b.0, a.1 + b.1, a.2 + b.2);
    let mut tmp = vec![(0.0f32, 0.0f32, 0.0f32); w * h];
    for y in 0..h {
        for x in 0..w {
            let mut s = (0.0, 0.0, 0.0);
            for xx in x.saturating_sub(2)..(x + 3).min(w) {
                s = add(s, g[y * w + xx]);
            }
            tmp[y * w + x] = s;
        }
    }
    for y in 0..h {
        for x in 0..w {
            let mut s = (0.0, 0.0, 0.0);
            for yy in y.saturating_sub(2)..(y + 3).min(h) {
                s = add(s, tmp[yy * w + x]);
            }
            g[y * w + x] = s;
        }
    }
    g
}

/// Local maxima of the accumulator, strongest first, above a fraction of the strong lines.
fn peaks(
    acc: &[f32],
    rho_bins: usize,
    offset: f64,
    max_lines: usize,
    centre: (f64, f64),
) -> Vec<Line> {
    let (dt, dr) = (3isize, 3isize);
    let mut found = Vec::new();
    let floor = {
        let mut top: Vec<f32> = acc.iter().copied().filter(|&v| v > 0.0).collect();
        if top.is_empty() {
            return found;
        }
        let k = top.len().saturating_sub(1).min(top.len() / 2000);
        let at = top.len() - 1 - k;
        top.select_nth_unstable_by(at, f32::total_cmp);
        top[at] * 0.12
    };
    for t in 0..THETA_BINS as isize {
        for r in 0..rho_bins as isize {
            let v = acc[t as usize * rho_bins + r as usize];
            if v < floor {
                continue;
            }
            let mut is_max = true;
            'win: for ot in -dt..=dt {
                let tt = t + ot;
                if !(0..THETA_BINS as isize).contains(&tt) {
                    continue;
                }
                for or in -dr..=dr {
                    let rr = r + or;
                    if (ot, or) == (0, 0) || !(0..rho_bins as isize).contains(&rr) {
                        continue;
                    }
                    let u = acc[tt as usize * rho_bins + rr as usize];
                    if u > v || (u == v && (ot, or) < (0, 0)) {
                        is_max = false;
                        break 'win;
                    }
                }
            }
            if is_max {
                found.push(Line {
                    theta: t as f64 * std::f64::consts::PI / THETA_BINS as f64,
                    rho: r as f64 - offset,
                    votes: v as f64,
                });
            }
        }
    }
    found.sort_by(|a, b| b.votes.total_cmp(&a.votes));
    // Grid lines are long; keep lines with a fair share of the votes of the strong ones: the
    // twelfth strongest that is no spoke of a stronger line (a board's frame, often doubled,
    // can be several times as strong as its grid lines, and each strong line brings a fan of
    // spokes; counted as lines of their own, they would put every grid line under the floor).
    let limit = centre.0.hypot(centre.1);
    let strong = own_lines(&found, centre.0, centre.1, limit, 12);
    if let Some(strong) = strong.last().map(|l| l.votes) {
        found.retain(|l| l.votes >= 0.3 * strong);
    }
    found.truncate(max_lines);
    found
}

/// Up to `most` of the strongest lines, strongest first, leaving out every spoke of a
/// stronger line kept (see [`Line::is_spoke_of`]).
pub fn own_lines(lines: &[Line], cx: f64, cy: f64, limit: f64, most: usize) -> Vec<Line> {
    let mut order: Vec<&Line> = lines.iter().collect();
    order.sort_by(|a, b| b.votes.total_cmp(&a.votes));
    let mut own: Vec<Line> = Vec::new();
    for l in order {
        if own.len() == most {
            break;
        }
        if !own.iter().any(|s| l.is_spoke_of(s, cx, cy, limit)) {
            own.push(*l);
        }
    }
    own
}
