//! Reading each intersection as empty, black or white.
//!
//! Every measure is taken relative to the bare wood around the point (sampled at the centres
//! of the neighbouring cells, which no stone covers), so lighting gradients, glare and wood
//! colour cancel out. Three measures decide: brightness relative to the wood (black stones are
//! far darker), colourfulness relative to the wood (stones are grey, wood is yellow-brown),
//! and whether the two grid lines are visible crossing at the point (stones hide them).

use crate::Stone;
use crate::homography::GridMap;
use crate::plane::sample_rgb;
use image::RgbImage;

/// What was measured at one intersection.
#[derive(Debug, Clone, Copy)]
pub struct Features {
    /// Luma of the point over luma of the nearby wood.
    pub brightness: f64,
    /// How much darker the point is than the nearby wood, over the board's typical wood
    /// luma: a glare spot adds light to stone and wood alike, so a black stone under it
    /// stays far darker than its wood while its ratio to the wood drifts up.
    pub contrast: f64,
    /// Chroma of the point over chroma of the nearby wood.
    pub colour: f64,
    /// How much darker the grid lines are than the wood beside them, relative to the wood.
    pub lines: f64,
}

fn median(v: &mut [f32]) -> f32 {
    let k = v.len() / 2;
    *v.select_nth_unstable_by(k, f32::total_cmp).1
}

/// Median luma and chroma over grid-coordinate offsets around `(c, r)`.
fn patch(img: &RgbImage, h: &GridMap, c: f64, r: f64, offsets: &[(f64, f64)]) -> (f32, f32) {
    let (mut l, mut ch): (Vec<f32>, Vec<f32>) = offsets
        .iter()
        .map(|&(dx, dy)| {
            let (x, y) = h.apply(c + dx, r + dy);
            sample_rgb(img, x, y)
        })
        .unzip();
    (median(&mut l), median(&mut ch))
}

fn disc(radius: f64, step: f64) -> Vec<(f64, f64)> {
    let n = (radius / step).floor() as i32;
    let mut v = Vec::new();
    for i in -n..=n {
        for j in -n..=n {
            let (x, y) = (i as f64 * step, j as f64 * step);
            if x * x + y * y <= radius * radius + 1e-9 {
                v.push((x, y));
            }
        }
    }
    v
}

/// Measures every intersection of an `n`-line grid; `h` maps reading coordinates to pixels.
pub fn measure(img: &RgbImage, h: &GridMap, n: usize) -> Vec<Features> {
    let body = disc(0.26, 0.065);
    let spot = disc(0.08, 0.04);
    // Bare wood at every cell centre.
    let cells: Vec<(f32, f32)> = (0..(n - 1) * (n - 1))
        .map(|k| {
            let (c, r) = ((k % (n - 1)) as f64 + 0.5, (k / (n - 1)) as f64 + 0.5);
            patch(img, h, c, r, &spot)
        })
        .collect();
    let on: Vec<(f64, f64)> = [0.14, 0.2, 0.26]
        .iter()
        .flat_map(|&d| [(d, 0.0), (-d, 0.0), (0.0, d), (0.0, -d)])
        .collect();
    let off: Vec<(f64, f64)> = [0.14, 0.2, 0.26]
        .iter()
        .flat_map(|&d| {
            [
                (d, 0.1),
                (-d, 0.1),
                (d, -0.1),
                (-d, -0.1),
                (0.1, d),
                (-0.1, d),
                (0.1, -d),
                (-0.1, -d),
            ]
        })
        .collect();
    let mut all_wood: Vec<f32> = cells.iter().map(|c| c.0).collect();
    let typical = median(&mut all_wood).max(1.0);
    let mut out = Vec::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            let (wl, wc) = wood_near(&cells, n, c, r);
            let (cf, rf) = (c as f64, r as f64);
            let (l, ch) = patch(img, h, cf, rf, &body);
            let (l_on, _) = patch(img, h, cf, rf, &on);
            let (l_off, _) = patch(img, h, cf, rf, &off);
            out.push(Features {
                brightness: (l / wl.max(1.0)) as f64,
                contrast: ((wl - l) / typical) as f64,
                colour: (ch / wc.max(6.0)) as f64,
                lines: ((l_off - l_on) / wl.max(1.0)) as f64,
            });
        }
    }
    out
}

/// Median wood luma and chroma of the cell centres within 1.6 steps of intersection `(c, r)`.
fn wood_near(cells: &[(f32, f32)], n: usize, c: usize, r: usize) -> (f32, f32) {
    let mut l = Vec::with_capacity(12);
    let mut ch = Vec::with_capacity(12);
    for cr in r.saturating_sub(2)..(r + 2).min(n - 1) {
        for cc in c.saturating_sub(2)..(c + 2).min(n - 1) {
            let dx = cc as f64 + 0.5 - c as f64;
            let dy = cr as f64 + 0.5 - r as f64;
            if dx * dx + dy * dy <= 1.6 * 1.6 {
                let v = cells[cr * (n - 1) + cc];
                l.push(v.0);
                ch.push(v.1);
            }
        }
    }
    (median(&mut l), median(&mut ch))
}

/// Whether a point holds a stone: a signed margin, positive for a stone. Stones are grey
/// (wood is coloured) and hide the grid lines; very dark points are stones whatever the wood.
fn stone_margin(f: &Features) -> f64 {
    let grey = (0.5 - f.colour) / 0.1;
    let hidden = (0.06 - f.lines) / 0.04;
    let dark = (0.5 - f.brightness) / 0.05;
    (grey + hidden).max(dark)
}

/// Contrast to the wood (see [`Features::contrast`]) separating black from white stones:
/// the widest gap in the sorted contrasts of the stones, if there is a clear one between
/// 0.1 and 0.55; otherwise a fixed split.
fn colour_split(stones: &[f64]) -> f64 {
    let mut v = stones.to_vec();
    v.sort_by(f64::total_cmp);
    let (lo, hi) = (0.1, 0.55);
    let best = v
        .windows(2)
        .filter(|w| w[1] > lo && w[0] < hi)
        .map(|w| (w[1] - w[0], (w[0].max(lo) + w[1].min(hi)) / 2.0))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match best {
        Some((gap, mid)) if gap > 0.12 => mid,
        _ => 0.3,
    }
}

/// Logistic squashing of a margin into a confidence in (0.5, 1).
fn confidence(margin: f64) -> f64 {
    1.0 / (1.0 + (-margin.abs()).exp())
}

/// Reads every point: the stone there and the confidence of that call (0.5 = a coin toss).
pub fn decide_all(features: &[Features]) -> Vec<(Stone, f64)> {
    let margins: Vec<f64> = features.iter().map(stone_margin).collect();
    let stones: Vec<f64> = features
        .iter()
        .zip(&margins)
        .filter(|(_, m)| **m > 0.0)
        .map(|(f, _)| f.contrast)
        .collect();
    let split = colour_split(&stones);
    features
        .iter()
        .zip(&margins)
        .map(|(f, &m)| {
            if m <= 0.0 {
                return (Stone::Empty, confidence(m));
            }
            let c = (f.contrast - split) / 0.05;
            let stone = if c > 0.0 { Stone::Black } else { Stone::White };
            (stone, confidence(m.min(c.abs())))
        })
        .collect()
}
