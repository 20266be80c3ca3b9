//! The grid from the stones. On a crowded board stones hide most of the grid lines, but the
//! stones themselves sit on the intersections: their centres, found as grey blobs on the
//! coloured wood (and dark blobs, for a board that is not coloured), are many points of the
//! lattice. A lattice grown from one stone and its neighbours, refitted as a homography as it
//! grows, gives a first grid that the line evidence then checks and refines.

use crate::homography::{Homography, PointPair};
use crate::plane::Plane;

/// A stone centre candidate in working-image pixels.
#[derive(Debug, Clone, Copy)]
pub struct Blob {
    pub x: f64,
    pub y: f64,
}

/// Blob scales tried (Gaussian σ in pixels of the half-size working image): stones of about
/// 9 to 30 working-image pixels across, the cells of crowded boards that fill a fair part of
/// the photo. Each scale's outer Gaussian is the next one's inner.
pub const SCALES: [f32; 3] = [1.4, 1.4 * DOG_RATIO, 1.4 * DOG_RATIO * DOG_RATIO];

/// Ratio of the outer to the inner Gaussian of the difference of Gaussians.
const DOG_RATIO: f32 = 1.6;

/// Blobs weaker than this fraction of the strong ones (their 90th percentile) are not stones.
const WEAK: f32 = 0.3;

/// The strongest blobs kept per scale and channel: more than a 19×19 board's points, while
/// the grain of a table seen large cannot make the lattice search slow.
const MOST_BLOBS: usize = 600;

/// Most lines a lattice may span each way: boards have at most 26, and a lattice spread
/// wider is table texture.
const MOST_LINES: i32 = 30;

/// Centres of stone-sized blobs (in working-image pixels) at each of [`SCALES`]: local minima
/// of a difference of Gaussians on chroma (stones of both colours are grey on coloured wood)
/// and on luma (black stones), found on the half-size image (stones are large enough).
pub fn blobs(luma: &Plane, chroma: &Plane) -> Vec<Vec<Blob>> {
    let mut out = vec![Vec::new(); SCALES.len()];
    for plane in [chroma.halved(), luma.halved()] {
        let mut inner = plane.blurred(SCALES[0]);
        for (k, &sigma) in SCALES.iter().enumerate() {
            let outer = plane.blurred(sigma * DOG_RATIO);
            let mut dog = inner;
            for (v, o) in dog.data.iter_mut().zip(&outer.data) {
                *v -= o;
            }
            for b in minima(&dog, sigma) {
                let b = Blob {
                    x: 2.0 * b.x + 0.5,
                    y: 2.0 * b.y + 0.5,
                };
                let near = 3.0 * sigma as f64;
                if !out[k]
                    .iter()
                    .any(|o: &Blob| (o.x - b.x).hypot(o.y - b.y) < near)
                {
                    out[k].push(b);
                }
            }
            inner = outer;
        }
    }
    out
}

/// Strong local minima of `d`, at least about `sigma` pixels apart.
fn minima(d: &Plane, sigma: f32) -> Vec<Blob> {
    let r = sigma.round().max(1.0) as usize;
    let mut found: Vec<(usize, usize, f32)> = Vec::new();
    for y in r..d.h.saturating_sub(r) {
        for x in r..d.w.saturating_sub(r) {
            let v = d.get(x, y);
            if v >= 0.0 {
                continue;
            }
            let lowest = (y - r..=y + r)
                .all(|yy| (x - r..=x + r).all(|xx| d.get(xx, yy) >= v || (xx, yy) == (x, y)));
            if lowest {
                found.push((x, y, -v));
            }
        }
    }
    if found.is_empty() {
        return Vec::new();
    }
    let mut strengths: Vec<f32> = found.iter().map(|f| f.2).collect();
    let k = strengths.len() * 9 / 10;
    let strong = *strengths.select_nth_unstable_by(k, f32::total_cmp).1;
    found.retain(|f| f.2 >= WEAK * strong);
    found.sort_by(|a, b| b.2.total_cmp(&a.2));
    found.truncate(MOST_BLOBS);
    found
        .into_iter()
        .map(|(x, y, _)| Blob {
            x: x as f64,
            y: y as f64,
        })
        .collect()
}

/// A lattice fitted to blobs: the grid → image homography, the index range of the labelled
/// blobs per direction, and how many blobs it labels.
pub struct Lattice {
    pub h: Homography,
    pub spans: [(i32, i32); 2],
    pub count: usize,
}

/// How far from a lattice point (in grid steps, each coordinate) a blob may lie and still be
/// labelled with it: stones are drawn a little off their point by their height.
const LABEL_TOLERANCE: f64 = 0.25;

/// Seeds tried: the blobs nearest the middle of all blobs.
const SEEDS: usize = 16;

/// The lattice that labels the most blobs, grown from each of several seed blobs.
pub fn fit(blobs: &[Blob]) -> Option<Lattice> {
    if blobs.len() < 12 {
        return None;
    }
    let n = blobs.len() as f64;
    let (mx, my) = blobs
        .iter()
        .fold((0.0, 0.0), |a, b| (a.0 + b.x / n, a.1 + b.y / n));
    let mut order: Vec<usize> = (0..blobs.len()).collect();
    order.sort_by(|&a, &b| {
        let da = (blobs[a].x - mx).hypot(blobs[a].y - my);
        let db = (blobs[b].x - mx).hypot(blobs[b].y - my);
        da.total_cmp(&db)
    });
    order
        .iter()
        .take(SEEDS)
        .filter_map(|&s| grow(blobs, s))
        .filter(|l| l.spans.iter().all(|s| s.1 - s.0 < MOST_LINES))
        .max_by_key(|l| l.count)
}

/// Grows a lattice from blob `seed`: its nearest neighbour and the nearest one across give an
/// affine cell; blobs within a growing radius are labelled with their nearest lattice point
/// and the map is refitted to all labels, affine while few, then projective.
fn grow(blobs: &[Blob], seed: usize) -> Option<Lattice> {
    let p = blobs[seed];
    let (a, b) = basis(blobs, seed)?;
    let cell = a.0.hypot(a.1);
    let affine = Homography(nalgebra::Matrix3::new(
        a.0, b.0, p.x, a.1, b.1, p.y, 0.0, 0.0, 1.0,
    ));
    let mut h = affine;
    let mut radius = 2.5 * cell;
    let mut labels;
    loop {
        let g = h.inverse()?;
        labels = label(blobs, &g, |q| (q.x - p.x).hypot(q.y - p.y) <= radius);
        h = fit_labels(blobs, &labels).unwrap_or(h);
        if blobs.iter().all(|q| (q.x - p.x).hypot(q.y - p.y) <= radius) {
            break;
        }
        radius *= 1.5;
    }
    let g = h.inverse()?;
    let labels_final = label(blobs, &g, |_| true);
    if labels_final.len() >= labels.len() {
        labels = labels_final;
        h = fit_labels(blobs, &labels).unwrap_or(h);
    }
    let spans = [core(&labels, 0)?, core(&labels, 1)?];
    Some(Lattice {
        h,
        spans,
        count: labels.len(),
    })
}

/// The index range of direction `f` (0: `i`, 1: `j`) where the labels crowd: the longest
/// run of indices each holding at least a fifth as many labels as the fullest one. Stray
/// blobs off the board (table texture) label a few far indices, which are left out.
fn core(labels: &[(usize, i32, i32)], f: usize) -> Option<(i32, i32)> {
    let index = |l: &(usize, i32, i32)| if f == 0 { l.1 } else { l.2 };
    let lo = labels.iter().map(index).min()?;
    let hi = labels.iter().map(index).max()?;
    let mut counts = vec![0usize; (hi - lo + 1) as usize];
    for l in labels {
        counts[(index(l) - lo) as usize] += 1;
    }
    let full = *counts.iter().max()?;
    let dense: Vec<bool> = counts.iter().map(|&c| c >= 2 && 5 * c >= full).collect();
    let mut best: Option<(usize, usize)> = None;
    let mut k = 0;
    while k < dense.len() {
        if !dense[k] {
            k += 1;
            continue;
        }
        let start = k;
        while k + 1 < dense.len() && dense[k + 1] {
            k += 1;
        }
        if best.is_none_or(|(a, b)| k - start > b - a) {
            best = Some((start, k));
        }
        k += 1;
    }
    let (a, b) = best?;
    Some((lo + a as i32, lo + b as i32))
}

/// The seed's cell vectors: to its nearest neighbour, and to the nearest neighbour at least
/// 50° away from that direction, no more than 1.6 times as far.
fn basis(blobs: &[Blob], seed: usize) -> Option<((f64, f64), (f64, f64))> {
    let p = blobs[seed];
    let mut near: Vec<(f64, f64, f64)> = blobs
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != seed)
        .map(|(_, q)| {
            let d = (q.x - p.x, q.y - p.y);
            (d.0.hypot(d.1), d.0, d.1)
        })
        .collect();
    near.sort_by(|x, y| x.0.total_cmp(&y.0));
    let &(da, ax, ay) = near.first()?;
    if da < 1.0 {
        return None;
    }
    let across = near
        .iter()
        .skip(1)
        .take_while(|q| q.0 <= 1.6 * da)
        .find(|q| {
            let cos = (q.1 * ax + q.2 * ay) / (q.0 * da);
            cos.abs() < 50f64.to_radians().cos()
        })?;
    Some(((ax, ay), (across.1, across.2)))
}

/// Labels the blobs passing `within` with their nearest lattice point under the image → grid
/// map `g`, when near enough; of blobs claiming the same point, the nearest keeps it. Returns
/// `(blob, i, j)`.
fn label(blobs: &[Blob], g: &Homography, within: impl Fn(&Blob) -> bool) -> Vec<(usize, i32, i32)> {
    let mut best: std::collections::HashMap<(i32, i32), (usize, f64)> =
        std::collections::HashMap::new();
    for (k, q) in blobs.iter().enumerate() {
        if !within(q) {
            continue;
        }
        let (u, v) = g.apply(q.x, q.y);
        if !u.is_finite() || !v.is_finite() || u.abs() > 100.0 || v.abs() > 100.0 {
            continue;
        }
        let (i, j) = (u.round(), v.round());
        let off = (u - i).abs().max((v - j).abs());
        if off > LABEL_TOLERANCE {
            continue;
        }
        let key = (i as i32, j as i32);
        if best.get(&key).is_none_or(|&(_, o)| off < o) {
            best.insert(key, (k, off));
        }
    }
    let mut out: Vec<(usize, i32, i32)> =
        best.into_iter().map(|((i, j), (k, _))| (k, i, j)).collect();
    out.sort_unstable();
    out
}

/// The grid → image map through the labelled blobs: projective from eight labels on, affine
/// below that.
fn fit_labels(blobs: &[Blob], labels: &[(usize, i32, i32)]) -> Option<Homography> {
    let pairs: Vec<PointPair> = labels
        .iter()
        .map(|&(k, i, j)| ((i as f64, j as f64), (blobs[k].x, blobs[k].y)))
        .collect();
    if pairs.len() >= 8 {
        Homography::fit_points(&pairs)
    } else if pairs.len() >= 3 {
        Homography::fit_affine(&pairs)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tilted, rotated 13×13 lattice with every other point taken, some noise and stray
    /// blobs around it: the fitted lattice puts every taken point on a lattice point.
    #[test]
    fn lattice_of_scattered_stones() {
        let truth = Homography(nalgebra::Matrix3::new(
            14.0, -4.0, 200.0, 3.0, 12.0, 90.0, 0.0004, 0.006, 1.0,
        ));
        let mut blobs = Vec::new();
        let mut taken = Vec::new();
        for j in 0..13 {
            for i in 0..13 {
                if (i * 7 + j * 3) % 5 < 3 {
                    let (x, y) = truth.apply(i as f64, j as f64);
                    let jitter = ((i * 31 + j * 17) % 7) as f64 / 7.0 - 0.5;
                    blobs.push(Blob {
                        x: x + jitter,
                        y: y - 0.7 * jitter,
                    });
                    taken.push((i, j));
                }
            }
        }
        for k in 0..20 {
            blobs.push(Blob {
                x: 20.0 + 29.0 * k as f64,
                y: 15.0 + (k % 3) as f64 * 7.0,
            });
        }
        let lattice = fit(&blobs).expect("a lattice");
        let g = lattice.h.inverse().expect("invertible");
        // The lattice's coordinates are the true ones up to a symmetry of the grid and a shift.
        let coords: Vec<(f64, f64)> = taken
            .iter()
            .map(|&(i, j)| {
                let (x, y) = truth.apply(i as f64, j as f64);
                g.apply(x, y)
            })
            .collect();
        for &(u, v) in &coords {
            assert!((u - u.round()).abs() < 0.1 && (v - v.round()).abs() < 0.1);
        }
        let (u0, v0) = coords[0];
        let (u1, v1) = coords[coords.len() - 1];
        assert!(((u1 - u0).abs() - 12.0).abs() < 0.2 || ((v1 - v0).abs() - 12.0).abs() < 0.2);
        assert!(lattice.count >= taken.len() - 2);
    }

    #[test]
    fn homography_through_point_pairs() {
        let truth = Homography(nalgebra::Matrix3::new(
            9.0, 2.0, 40.0, -1.0, 11.0, 30.0, 0.001, 0.003, 1.0,
        ));
        let pairs: Vec<PointPair> = (0..5)
            .flat_map(|i| (0..4).map(move |j| (i as f64, j as f64)))
            .map(|p| (p, truth.apply(p.0, p.1)))
            .collect();
        let h = Homography::fit_points(&pairs).expect("a fit");
        for &(p, q) in &pairs {
            let r = h.apply(p.0, p.1);
            assert!((r.0 - q.0).abs() < 1e-6 && (r.1 - q.1).abs() < 1e-6);
        }
    }
}
