//! One direction of grid lines found from the other, with the whole board as evidence.
//!
//! The lines of one direction, indexed `i`, form a pencil through their vanishing point: the
//! points `p` on line `i` are those with `P·p − i W·p = 0`, for two fixed lines `P` and `W`
//! (`W` is the horizon of the board plane). In the rectified frame `x' = P·p / W·p`,
//! `y' = Q·p / W·p` (any third line `Q`), the given lines are `x' = i` and the other
//! direction's lines are straight, parallel and evenly spaced whatever the perspective:
//! `y' = α x' + β j + γ`. So the line response, sampled along the strips between the given
//! lines and summed along each slope `α`, shows the other lines as one sharp comb of step `β`
//! and phase `γ`, with every visible piece of every line of the board adding to it. Lines
//! that stones break into short pieces are too weak to be found one by one, but not as a comb.

use crate::homography::{LinePoint, normaliser, null_vector};
use crate::plane::Plane;
use nalgebra::{Matrix3, RowVector3, Vector3};

/// A pencil of grid lines: line `i` is `p ↦ (P − i W)·p = 0`.
#[derive(Debug, Clone, Copy)]
pub struct Pencil {
    pub p: RowVector3<f64>,
    pub w: RowVector3<f64>,
}

impl Pencil {
    /// The pencil of family `f` of an image → grid map.
    pub fn of(g: &Matrix3<f64>, f: usize) -> Pencil {
        Pencil {
            p: g.row(f).into_owned(),
            w: g.row(2).into_owned(),
        }
    }

    /// Least-squares pencil through points known to lie on its lines (any `family` field).
    pub fn fit(points: &[LinePoint]) -> Option<Pencil> {
        if points.len() < 4 {
            return None;
        }
        let t = normaliser(points.iter().map(|p| (p.x, p.y)));
        let (lo, hi) = points.iter().fold((f64::MAX, f64::MIN), |a, p| {
            (a.0.min(p.index), a.1.max(p.index))
        });
        if hi - lo < 1.0 {
            return None;
        }
        let (gm, gs) = ((lo + hi) / 2.0, 2.0 / (hi - lo));
        let rows = points.iter().map(|p| {
            let q = t * Vector3::new(p.x, p.y, 1.0);
            let k = (p.index - gm) * gs;
            ([q.x, q.y, q.z, -k * q.x, -k * q.y, -k * q.z], p.weight)
        });
        let v = null_vector(rows)?;
        let pn = RowVector3::new(v[0], v[1], v[2]);
        let wn = RowVector3::new(v[3], v[4], v[5]);
        // Undo the normalisations: P' − k' W' with k' = (k − gm)·gs, on normalised points.
        let p = (pn + gm * gs * wn) * t;
        let w = gs * wn * t;
        (p.iter().chain(w.iter()).all(|x| x.is_finite())).then_some(Pencil { p, w })
    }
}

/// Steps of the other direction tried, relative to the given direction's step at the board:
/// perspective and oblong cells make them differ, and the given comb may hold every other line.
const STEP_RANGE: (f64, f64) = (0.25, 2.5);
/// Largest slope of the other direction's lines in the rectified frame (55° off square).
const MAX_SLOPE: f64 = 1.45;
/// Slopes whose summed profiles are sharpest and are searched for a comb.
const SLOPE_CANDIDATES: usize = 6;

/// The rectified frame of a pencil: `x'` its index, `y'` along its lines, scaled so that near
/// the board `y'` runs at the same rate as `x'` (one unit per step of the pencil).
struct Frame {
    pencil: Pencil,
    q: RowVector3<f64>,
    /// Rectified → image.
    to_image: Matrix3<f64>,
    /// Image pixels per unit of `y'` near the board.
    scale: f64,
}

impl Frame {
    /// The frame about the pencil's middle line `mid`, at its point nearest the photo centre.
    fn new(pencil: Pencil, mid: f64, centre: (f64, f64)) -> Option<Frame> {
        let Pencil { mut p, mut w } = pencil;
        let line = p - mid * w;
        let norm = line[0].hypot(line[1]);
        if norm < 1e-12 {
            return None;
        }
        let d = (line[0] * centre.0 + line[1] * centre.1 + line[2]) / norm;
        let c0 = Vector3::new(
            centre.0 - d * line[0] / norm,
            centre.1 - d * line[1] / norm,
            1.0,
        );
        let mut wc = w.dot(&c0.transpose());
        if wc < 0.0 {
            (p, w, wc) = (-p, -w, -wc);
        }
        if wc < 1e-12 {
            return None;
        }
        let pc = p.dot(&c0.transpose());
        let grad = (
            (p[0] * wc - pc * w[0]) / (wc * wc),
            (p[1] * wc - pc * w[1]) / (wc * wc),
        );
        let g = grad.0.hypot(grad.1);
        if !(g.is_finite() && g > 1e-9) {
            return None;
        }
        let scale = 1.0 / g;
        let dir = (-grad.1 / g, grad.0 / g);
        let q = RowVector3::new(dir.0, dir.1, -(dir.0 * c0.x + dir.1 * c0.y)) * (wc / scale);
        let m = Matrix3::from_rows(&[p, q, w]);
        Some(Frame {
            pencil: Pencil { p, w },
            q,
            to_image: m.try_inverse()?,
            scale,
        })
    }

    /// The image point of rectified `(x', y')`, if it is on the board's side of the horizon.
    fn image(&self, x: f64, y: f64) -> Option<(f64, f64)> {
        let v = self.to_image * Vector3::new(x, y, 1.0);
        (v.z > 1e-12).then(|| (v.x / v.z, v.y / v.z))
    }

    /// The range of `y'` over the photo (its border, on the board's side of the horizon).
    fn y_range(&self, w: usize, h: usize) -> Option<(f64, f64)> {
        let (wf, hf) = (w as f64, h as f64);
        let mut border = Vec::new();
        for k in 0..=32 {
            let s = k as f64 / 32.0;
            border.extend([(s * wf, 0.0), (s * wf, hf), (0.0, s * hf), (wf, s * hf)]);
        }
        let limit = 3.0 * wf.hypot(hf) / self.scale;
        let ys: Vec<f64> = border
            .iter()
            .filter_map(|&(x, y)| {
                let p = Vector3::new(x, y, 1.0);
                let wp = self.pencil.w.dot(&p.transpose());
                (wp > 1e-12).then(|| (self.q.dot(&p.transpose()) / wp).clamp(-limit, limit))
            })
            .collect();
        let lo = ys.iter().copied().fold(f64::MAX, f64::min);
        let hi = ys.iter().copied().fold(f64::MIN, f64::max);
        (hi > lo).then_some((lo, hi))
    }
}

/// The line response along the strips between the given lines: `cols[c][t]` at
/// `x' = xs[c]`, `y' = y0 + t·dt`; `None` outside the photo.
struct Profiles {
    xs: Vec<f64>,
    cols: Vec<Vec<Option<f32>>>,
    y0: f64,
    dt: f64,
}

/// How far either side of a sample the line response is also required along the expected
/// line direction, in pixels: lines crossing at another angle (the given lines, the rims of
/// stones, the diagonals of a lattice) are not counted.
const ALONG: f64 = 2.5;

/// Samples the strips between the given lines, each sample capped at `cap`; with `slope`, each
/// sample is the least response of three points along a line of that slope (see [`ALONG`]).
fn profiles(
    r: &Plane,
    frame: &Frame,
    span: (i32, i32),
    cap: f32,
    slope: Option<f64>,
) -> Option<Profiles> {
    let (y_lo, y_hi) = frame.y_range(r.w, r.h)?;
    let dt = 1.0 / frame.scale;
    let len = ((y_hi - y_lo) / dt).ceil() as usize + 1;
    if !(8..=20_000).contains(&len) {
        return None;
    }
    let xs: Vec<f64> = (span.0..span.1).map(|i| i as f64 + 0.5).collect();
    let inside = |p: (f64, f64)| {
        p.0 >= 1.0 && p.1 >= 1.0 && p.0 <= r.w as f64 - 2.0 && p.1 <= r.h as f64 - 2.0
    };
    let at = |x: f64, y: f64| {
        let p = frame.image(x, y)?;
        inside(p).then(|| r.sample(p.0, p.1).min(cap))
    };
    let d = ALONG / frame.scale;
    let cols = xs
        .iter()
        .map(|&x| {
            (0..len)
                .map(|t| {
                    let y = y_lo + t as f64 * dt;
                    let v = at(x, y)?;
                    match slope {
                        None => Some(v),
                        Some(a) => Some(v.min(at(x - d, y - a * d)?).min(at(x + d, y + a * d)?)),
                    }
                })
                .collect()
        })
        .collect();
    Some(Profiles {
        xs,
        cols,
        y0: y_lo,
        dt,
    })
}

impl Profiles {
    fn mid(&self) -> f64 {
        (self.xs[0] + self.xs[self.xs.len() - 1]) / 2.0
    }

    /// The profiles summed along slope `α` (sample shift per column), with the number of
    /// columns seen at each sample.
    fn sheared(&self, alpha: f64) -> (Vec<f32>, Vec<u16>) {
        let len = self.cols[0].len();
        let mut sum = vec![0.0f32; len];
        let mut seen = vec![0u16; len];
        let mid = self.mid();
        for (x, col) in self.xs.iter().zip(&self.cols) {
            let shift = (alpha * (x - mid) / self.dt).round() as isize;
            for t in 0..len {
                let s = t as isize + shift;
                if s < 0 || s >= len as isize {
                    continue;
                }
                if let Some(v) = col[s as usize] {
                    sum[t] += v;
                    seen[t] += 1;
                }
            }
        }
        (sum, seen)
    }
}

/// A comb found in a summed profile: sample positions `phase + j·step`.
#[derive(Debug, Clone, Copy)]
struct Comb {
    score: f64,
    alpha: f64,
    step: f64,
    phase: f64,
}

/// The best comb of a summed profile: the mean response on its teeth less the mean half-way
/// between them. A comb of half the step scores half as much (half its teeth hit nothing) and
/// one of twice the step about nothing (its half-way points are lines too), so the true step
/// stands out. Each step is scored for every phase at once by folding the profile over it.
fn best_comb(sum: &[f32], seen: &[u16], alpha: f64, dt: f64) -> Option<Comb> {
    let full = seen.iter().copied().max()?;
    if full == 0 {
        return None;
    }
    let valid: Vec<usize> = (0..sum.len()).filter(|&t| 2 * seen[t] >= full).collect();
    let (t0, t1) = (*valid.first()?, *valid.last()?);
    // Mean per column, lightly smoothed so a tooth may fall a sample off its line.
    let mean: Vec<f64> = (0..sum.len())
        .map(|t| {
            if seen[t] == 0 {
                0.0
            } else {
                sum[t] as f64 / seen[t] as f64
            }
        })
        .collect();
    let s: Vec<f64> = (t0..=t1)
        .map(|t| {
            let a = mean[t.saturating_sub(1)];
            let b = mean[(t + 1).min(mean.len() - 1)];
            (a + 2.0 * mean[t] + b) / 4.0
        })
        .collect();
    let mut best: Option<Comb> = None;
    let mut step = (STEP_RANGE.0 / dt).max(3.0);
    let (mut bins, mut counts) = (Vec::new(), Vec::new());
    while step <= STEP_RANGE.1 / dt && 4.0 * step <= s.len() as f64 {
        let nb = step.round() as usize;
        bins.clear();
        bins.resize(nb, 0.0);
        counts.clear();
        counts.resize(nb, 0u32);
        let mut ph = 0.0;
        for &v in &s {
            let b = ((ph / step * nb as f64) as usize).min(nb - 1);
            bins[b] += v;
            counts[b] += 1;
            ph += 1.0;
            if ph >= step {
                ph -= step;
            }
        }
        let m = |b: usize| bins[b % nb] / counts[b % nb].max(1) as f64;
        for b in 0..nb {
            let score = m(b) - m(b + nb / 2);
            if best.is_none_or(|c| score > c.score) {
                best = Some(Comb {
                    score,
                    alpha,
                    step,
                    phase: t0 as f64 + (b as f64 + 0.5) * step / nb as f64,
                });
            }
        }
        step *= 1.006;
    }
    best
}

/// The sharpness of a summed profile: lines stacked along the right slope pile up into peaks.
fn sharpness(sum: &[f32]) -> f64 {
    sum.iter().map(|&v| (v as f64) * (v as f64)).sum()
}

/// The other direction's lines, as found.
pub struct Found {
    /// Image → grid map with both directions (the given one unchanged).
    pub g: Matrix3<f64>,
    /// Index range of the new lines.
    pub span: (i32, i32),
    /// Image points found on the new lines (their family and index set).
    pub points: Vec<LinePoint>,
}

/// Finds the other direction's lines from a pencil of the given lines (`given` is their
/// family: 0 for `x = i`, 1 for `y = j`) over the index range `span`. The response counts up
/// to `cap`, so that one strong edge (of the board, of a shadow) cannot outweigh a comb of
/// lines that stones break up.
pub fn find_other(
    r: &Plane,
    pencil: Pencil,
    given: usize,
    span: (i32, i32),
    cap: f32,
) -> Option<Found> {
    if span.1 - span.0 < 2 {
        return None;
    }
    let mid = (span.0 + span.1) as f64 / 2.0;
    let frame = Frame::new(pencil, mid, (r.w as f64 / 2.0, r.h as f64 / 2.0))?;
    let prof = profiles(r, &frame, span, cap, None)?;
    let reach = prof
        .xs
        .iter()
        .map(|x| (x - prof.mid()).abs())
        .fold(0.5, f64::max);
    let d_alpha = prof.dt / reach;
    let steps = (MAX_SLOPE / d_alpha).ceil() as i32;
    let sharp: Vec<(f64, f64)> = (-steps..=steps)
        .map(|k| {
            let a = k as f64 * d_alpha;
            (a, sharpness(&prof.sheared(a).0))
        })
        .collect();
    let mut peaks: Vec<(f64, f64)> = (0..sharp.len())
        .filter(|&k| {
            (k == 0 || sharp[k - 1].1 <= sharp[k].1)
                && (k + 1 == sharp.len() || sharp[k + 1].1 < sharp[k].1)
        })
        .map(|k| sharp[k])
        .collect();
    peaks.sort_by(|a, b| b.1.total_cmp(&a.1));
    peaks.truncate(SLOPE_CANDIDATES);
    // The strips are one sample wide, so slopes that differ by a step per column look alike
    // here; the response along each candidate's own direction tells them apart.
    let (comb, prof) = peaks
        .iter()
        .filter_map(|&(a, _)| {
            let prof = profiles(r, &frame, span, cap, Some(a))?;
            let (sum, seen) = prof.sheared(a);
            Some((best_comb(&sum, &seen, a, prof.dt)?, prof))
        })
        .max_by(|a, b| a.0.score.total_cmp(&b.0.score))?;
    let (sum, seen) = prof.sheared(comb.alpha);
    let teeth = strong_teeth(&sum, &seen, &comb)?;
    let (fitted, peaks) = refit(&prof, &comb, teeth)?;
    // Row j of the grid: y' = α x' + β j + γ.
    let (alpha, beta, gamma) = fitted;
    let Pencil { p, w } = frame.pencil;
    let row = (frame.q - alpha * p - gamma * w) / beta;
    let mut g = Matrix3::zeros();
    g.set_row(given, &p);
    g.set_row(1 - given, &row);
    g.set_row(2, &w);
    let points = peaks
        .iter()
        .filter_map(|&(x, j, y, weight)| {
            let (px, py) = frame.image(x, y)?;
            Some(LinePoint {
                x: px,
                y: py,
                family: 1 - given,
                index: j,
                weight,
            })
        })
        .collect();
    Some(Found {
        g,
        span: teeth,
        points,
    })
}

/// The longest run of teeth whose contrast (on the tooth less half-way) is a fair share of the
/// strong teeth's, allowing single weak teeth inside it: where the other lines are.
fn strong_teeth(sum: &[f32], seen: &[u16], comb: &Comb) -> Option<(i32, i32)> {
    let mean = |t: f64| {
        let k = (t.round().max(0.0) as usize).min(sum.len() - 1);
        if seen[k] == 0 {
            None
        } else {
            Some(sum[k] as f64 / seen[k] as f64)
        }
    };
    let lo = -((comb.phase / comb.step).floor() as i32);
    let hi = ((sum.len() as f64 - comb.phase) / comb.step).floor() as i32;
    let contrast: Vec<(i32, f64)> = (lo..=hi)
        .filter_map(|j| {
            let t = comb.phase + j as f64 * comb.step;
            let on = mean(t)?;
            let off = 0.5 * (mean(t - comb.step / 2.0)? + mean(t + comb.step / 2.0)?);
            Some((j, on - off))
        })
        .collect();
    let mut sorted: Vec<f64> = contrast.iter().map(|c| c.1).collect();
    sorted.sort_by(f64::total_cmp);
    let level = 0.3 * sorted.get(sorted.len() * 9 / 10)?;
    if level <= 0.0 {
        return None;
    }
    let strong: Vec<bool> = contrast.iter().map(|c| c.1 >= level).collect();
    let mut best: Option<(usize, usize)> = None;
    let mut k = 0;
    while k < strong.len() {
        if !strong[k] {
            k += 1;
            continue;
        }
        let mut end = k;
        while end + 1 < strong.len()
            && (strong[end + 1] || (end + 2 < strong.len() && strong[end + 2]))
        {
            end += 1;
        }
        if best.is_none_or(|(a, b)| end - k > b - a) {
            best = Some((k, end));
        }
        k = end + 1;
    }
    let (a, b) = best?;
    (b - a >= 2).then(|| (contrast[a].0, contrast[b].0))
}

/// The peaks found near the teeth: `(x', j, y', response)`.
type Peaks = Vec<(f64, f64, f64, f64)>;

/// Least squares for `y' = α x' + β j + γ` over the peaks found near each tooth in every
/// column, then twice more without the outlying peaks. Returns the fit and the peaks kept.
fn refit(prof: &Profiles, comb: &Comb, teeth: (i32, i32)) -> Option<((f64, f64, f64), Peaks)> {
    let mid = prof.mid();
    let mut found: Vec<(f64, f64, f64, f64)> = Vec::new();
    for (x, col) in prof.xs.iter().zip(&prof.cols) {
        let shift = comb.alpha * (x - mid) / prof.dt;
        for j in teeth.0..=teeth.1 {
            let t = comb.phase + j as f64 * comb.step + shift;
            let half = 0.3 * comb.step;
            let (a, b) = ((t - half).ceil() as isize, (t + half).floor() as isize);
            if a < 1 || b + 1 >= col.len() as isize {
                continue;
            }
            let Some(k) = (a..=b).max_by(|&u, &v| {
                col[u as usize]
                    .unwrap_or(0.0)
                    .total_cmp(&col[v as usize].unwrap_or(0.0))
            }) else {
                continue;
            };
            let (Some(l), Some(c), Some(rr)) =
                (col[k as usize - 1], col[k as usize], col[k as usize + 1])
            else {
                continue;
            };
            if k == a || k == b || c <= 0.0 {
                continue;
            }
            let den = (l - 2.0 * c + rr) as f64;
            let sub = if den < -1e-9 {
                0.5 * (l - rr) as f64 / den
            } else {
                0.0
            };
            let y = prof.y0 + (k as f64 + sub) * prof.dt;
            found.push((*x, j as f64, y, c as f64));
        }
    }
    let mut params = fit_lines(&found)?;
    let mut kept = found.clone();
    for _ in 0..2 {
        let res: Vec<f64> = found
            .iter()
            .map(|&(x, j, y, _)| (y - (params.0 * x + params.1 * j + params.2)).abs())
            .collect();
        let mut sorted = res.clone();
        sorted.sort_by(f64::total_cmp);
        let cut = (3.0 * sorted[sorted.len() / 2]).max(prof.dt);
        kept = found
            .iter()
            .zip(&res)
            .filter(|(_, r)| **r <= cut)
            .map(|(f, _)| *f)
            .collect();
        params = fit_lines(&kept)?;
    }
    Some((params, kept))
}

/// Weighted least squares of `y = α x + β j + γ` (rectified frame, `x` measured as given).
fn fit_lines(found: &[(f64, f64, f64, f64)]) -> Option<(f64, f64, f64)> {
    if found.len() < 6 {
        return None;
    }
    let mut m = Matrix3::<f64>::zeros();
    let mut v = Vector3::<f64>::zeros();
    for &(x, j, y, w) in found {
        let row = Vector3::new(x, j, 1.0);
        m += w * row * row.transpose();
        v += w * row * y;
    }
    let s = m.try_inverse()? * v;
    (s.iter().all(|x| x.is_finite()) && s.y.abs() > 1e-9).then_some((s.x, s.y, s.z))
}
