//! Reading each intersection as empty, black or white.
//!
//! Every measure is taken relative to the bare wood around the point (sampled at the centres
//! of the neighbouring cells, which no stone covers), so lighting gradients, glare and wood
//! colour cancel out. Three measures decide: brightness relative to the wood (black stones are
//! far darker), how unlike the wood's colour the point is (stones are grey, or tinted another
//! hue, while wood is yellow-brown), and whether the two grid lines are visible crossing at
//! the point (stones hide them). Brightness and colour are taken over a disc about the point
//! and again over its quadrants between the lines, and a stone must show in both.
//!
//! On a white or pale board a white stone is about as colourless as the wood, so colour
//! cannot tell it; it is then told by its shape: a blob that plainly hides the lines, at
//! least as bright as the wood, with an outline (its shadow, the gap to a neighbour) on at
//! least its shadowed half (see [`Features::faint_rim`]).

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
    /// How unlike the nearby wood's colour the point's is (see [`colour_unlike`]): about 0
    /// on wood, about 1 on a grey stone, more on a stone tinted away from the wood's hue.
    pub colour: f64,
    /// How much darker the grid lines are than the wood beside them, relative to the wood.
    pub lines: f64,
    /// [`Features::brightness`] and [`Features::colour`] of the point's quadrants only (see
    /// [`quadrants`]), without the lines through it or a mark at its centre.
    pub quadrant_brightness: f64,
    pub quadrant_colour: f64,
    /// How much of a stone's outline is seen around the point (see [`rim`]): the share of
    /// directions in which the brightness steps between a quarter and seven tenths of a
    /// step from it. A stone is a bounded disc; a patch of sunlight or glare on the wood,
    /// pale and line-less like a white stone, runs on past it.
    pub rim: f64,
    /// [`Features::rim`] for a step of half [`RIM_STEP`]: the faint shadow of a white stone
    /// on white wood. Its lit side blends into the wood, so only about half of it shows.
    pub faint_rim: f64,
    /// Colourfulness of the point over its luma (opponent-colour vector length over luma):
    /// small on a white or grey stone whatever the wood, large on colourful wood.
    pub tint: f64,
    /// [`Features::tint`] of the board's typical bare wood (the median over all cells).
    pub wood_tint: f64,
}

fn median(v: &mut [f32]) -> f32 {
    let k = v.len() / 2;
    *v.select_nth_unstable_by(k, f32::total_cmp).1
}

/// Luma and opponent-colour vector (see [`sample_rgb`]) of a patch.
type Colour = (f32, [f32; 2]);

/// Colourfulness over luma ([`Features::tint`]) of a colour.
fn tint(&(l, ch): &Colour) -> f32 {
    ch[0].hypot(ch[1]) / l.max(1.0)
}

/// Median luma and colour vector over grid-coordinate offsets around `(c, r)`.
fn patch(img: &RgbImage, h: &GridMap, c: f64, r: f64, offsets: &[(f64, f64)]) -> Colour {
    median_colour(offsets.iter().map(|&(dx, dy)| {
        let (x, y) = h.apply(c + dx, r + dy);
        sample_rgb(img, x, y)
    }))
}

/// Component-wise median of colours.
fn median_colour(samples: impl Iterator<Item = Colour>) -> Colour {
    let (mut l, mut a, mut b) = (Vec::new(), Vec::new(), Vec::new());
    for (luma, [ca, cb]) in samples {
        l.push(luma);
        a.push(ca);
        b.push(cb);
    }
    (median(&mut l), [median(&mut a), median(&mut b)])
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

/// Grid-coordinate offsets `step` apart within `radius` of the point, at least `clear` off
/// both grid lines through it: where a stone covers the point but bare wood shows on an
/// empty one. Where the lines are thick for the step (far from the camera, in a small photo)
/// they make up much of the point's disc, and a mark on an empty point (a diagram's territory
/// square) all of its middle; either can pass for a grey stone there, not here.
fn quadrants(radius: f64, clear: f64, step: f64) -> Vec<(f64, f64)> {
    let n = ((radius - clear) / step).floor() as i32;
    let along: Vec<f64> = (0..=n).map(|i| clear + i as f64 * step).collect();
    let mut v = Vec::new();
    for &x in &along {
        for &y in &along {
            if x.hypot(y) <= radius + 1e-9 {
                v.extend([(x, y), (-x, y), (x, -y), (-x, -y)]);
            }
        }
    }
    v
}

/// Least line measure ([`Features::lines`]) counted on the edge lines. There the board's
/// edge, a frame line just outside the grid, or an outer line bent on a warped board often
/// runs a little beside the fitted line, so the samples off the lines are darker than those
/// on them and the measure is well below zero: a line beside the point, which passed for
/// lines hidden more than a stone hides them. On stones the measure scatters about zero,
/// down to about this.
const EDGE_LINES_FLOOR: f64 = -0.04;

/// Measures every intersection of an `n`-line grid; `h` maps reading coordinates to pixels.
pub fn measure(img: &RgbImage, h: &GridMap, n: usize) -> Vec<Features> {
    let body = disc(0.26, 0.065);
    let quads = quadrants(0.25, 0.09, 0.06);
    let spot = disc(0.08, 0.04);
    // Bare wood at every cell centre.
    let cells: Vec<Colour> = (0..(n - 1) * (n - 1))
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
    let mut tints: Vec<f32> = cells.iter().map(tint).collect();
    let wood_tint = median(&mut tints) as f64;
    let mut out = Vec::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            let (wl, wc) = wood_near(&cells, n, c, r);
            let (cf, rf) = (c as f64, r as f64);
            let (l, ch) = patch(img, h, cf, rf, &body);
            let (lq, chq) = patch(img, h, cf, rf, &quads);
            // On the edge lines, only the samples over the board: beyond the outer lines
            // no line runs, and there the line samples would see bare wood.
            let m = (n - 1) as f64;
            let over_board = |&&(dx, dy): &&(f64, f64)| {
                (-0.15..=m + 0.15).contains(&(cf + dx)) && (-0.15..=m + 0.15).contains(&(rf + dy))
            };
            let on_here: Vec<(f64, f64)> = on.iter().filter(over_board).copied().collect();
            let off_here: Vec<(f64, f64)> = off.iter().filter(over_board).copied().collect();
            let (l_on, _) = patch(img, h, cf, rf, &on_here);
            let (l_off, _) = patch(img, h, cf, rf, &off_here);
            let (rim, faint_rim) = rim(img, h, n, cf, rf, wl.max(1.0));
            out.push(Features {
                brightness: (l / wl.max(1.0)) as f64,
                contrast: ((wl - l) / typical) as f64,
                colour: colour_unlike(ch, wc),
                lines: {
                    let lines = ((l_off - l_on) / wl.max(1.0)) as f64;
                    if c == 0 || r == 0 || c == n - 1 || r == n - 1 {
                        lines.max(EDGE_LINES_FLOOR)
                    } else {
                        lines
                    }
                },
                quadrant_brightness: (lq / wl.max(1.0)) as f64,
                quadrant_colour: colour_unlike(chq, wc),
                rim,
                faint_rim,
                tint: tint(&(l, ch)) as f64,
                wood_tint,
            });
        }
    }
    out
}

/// The share of directions in which a stone's outline must be seen (see [`rim`]).
const RIM_SHARE: f64 = 0.7;

/// Directions in which [`rim`] looks for a stone's outline: none along the grid lines.
const RIM_DIRECTIONS: usize = 16;
/// The step in colour (luma and opponent-colour vector together, relative to the wood's
/// luma) over a tenth of a grid step that counts as an outline.
const RIM_STEP: f32 = 0.08;

/// The shares of directions from intersection `(c, r)` in which the colour steps by
/// [`RIM_STEP`] of `wood` or more, and by half that, somewhere 0.25 to 0.7 grid steps out:
/// a stone's outline (its edge, the gap to a neighbour, its shadow) wherever the stone
/// stands off its point by its height. A white stone about as bright as the wood still
/// differs from it in colour. On bare wood no line crosses there, off the grid lines
/// through the point.
fn rim(img: &RgbImage, h: &GridMap, n: usize, c: f64, r: f64, wood: f32) -> (f64, f64) {
    const RADII: usize = 10;
    let m = (n - 1) as f64;
    let (mut seen, mut faint, mut looked) = (0, 0, 0);
    for d in 0..RIM_DIRECTIONS {
        let a = (d as f64 + 0.5) * std::f64::consts::TAU / RIM_DIRECTIONS as f64;
        let (dx, dy) = (a.cos(), a.sin());
        // Past the outer lines the board's edge would pass for an outline.
        let (ex, ey) = (c + 0.75 * dx, r + 0.75 * dy);
        if !((-0.1..=m + 0.1).contains(&ex) && (-0.1..=m + 0.1).contains(&ey)) {
            continue;
        }
        looked += 1;
        let profile: [Colour; RADII] = std::array::from_fn(|k| {
            let t = 0.2 + 0.06 * k as f64;
            let (x, y) = h.apply(c + t * dx, r + t * dy);
            sample_rgb(img, x, y)
        });
        let step = profile
            .windows(3)
            .map(|w| {
                let (l0, c0) = w[0];
                let (l2, c2) = w[2];
                (l2 - l0).hypot((c2[0] - c0[0]).hypot(c2[1] - c0[1]))
            })
            .fold(0.0f32, f32::max);
        if step >= RIM_STEP * wood {
            seen += 1;
        }
        if step >= 0.5 * RIM_STEP * wood {
            faint += 1;
        }
    }
    let looked = looked.max(1) as f64;
    (seen as f64 / looked, faint as f64 / looked)
}

/// How unlike the wood's colour `wood` a point's colour `point` is (opponent-colour vectors,
/// see [`sample_rgb`]): one less the ratio of their colourfulness while the hues are within
/// a right angle (0 on wood, 1 on a grey stone; a glare spot pales wood and stone alike, so
/// only the ratio counts), and more than 1 when the hue is further off (a bluish glass stone
/// on yellow wood), growing with the point's colourfulness.
fn colour_unlike(point: [f32; 2], wood: [f32; 2]) -> f64 {
    let w = wood[0].hypot(wood[1]).max(6.0);
    let p = point[0].hypot(point[1]);
    let ratio = (p / w) as f64;
    let cos = ((point[0] * wood[0] + point[1] * wood[1]) / (p * w).max(1e-6)) as f64;
    if cos >= 0.0 || p < 6.0 {
        (1.0 - ratio).max(0.0)
    } else {
        1.0 - cos * ratio
    }
}

/// Median wood colour of the cell centres within 1.6 steps of intersection `(c, r)`.
fn wood_near(cells: &[Colour], n: usize, c: usize, r: usize) -> Colour {
    let mut near = Vec::with_capacity(12);
    for cr in r.saturating_sub(2)..(r + 2).min(n - 1) {
        for cc in c.saturating_sub(2)..(c + 2).min(n - 1) {
            let dx = cc as f64 + 0.5 - c as f64;
            let dy = cr as f64 + 0.5 - r as f64;
            if dx * dx + dy * dy <= 1.6 * 1.6 {
                near.push(cells[cr * (n - 1) + cc]);
            }
        }
    }
    median_colour(near.into_iter())
}

/// Whether a point holds a stone: a signed margin, positive for a stone. Stones are unlike
/// the wood in colour and hide the grid lines; very dark points are stones whatever the wood.
/// A stone covers the point's quadrants as well as its middle, so both must look like one.
/// (Its colour is taken from the whole disc: a ring drawn on a black stone to mark the last
/// move would pass for white in the quadrants.)
fn stone_margin(f: &Features) -> f64 {
    let hidden = (0.06 - f.lines) / 0.04;
    let outline = (f.rim - RIM_SHARE) / 0.08;
    let margin = |colour: f64, brightness: f64| {
        let grey = (colour - 0.5) / 0.1;
        let dark = (0.5 - brightness) / 0.05;
        (grey + hidden).min(outline).max(dark)
    };
    let by_colour =
        margin(f.colour, f.brightness).min(margin(f.quadrant_colour, f.quadrant_brightness));
    // By shape alone, on a board whose wood is about as colourless as a stone (white, pale
    // or pink), where colour cannot tell them: the lines plainly hidden, an outline on the
    // shadowed half, and the disc either grey-white and no darker than the wood (a white
    // stone) or far darker than it (a black one). Bare wood beside a stone shows its lines;
    // where they fade, pale wood is no brighter than the wood around it, and coloured wood
    // is not grey. On coloured wood, colour tells the stones, and a colourless patch with
    // the lines washed out is glare.
    let pale_board = (PALE_WOOD_TINT - f.wood_tint) / 0.05;
    let plainly_hidden = (0.02 - f.lines) / 0.02;
    let half_outline = (f.faint_rim - 0.5) / 0.1;
    let (lo, hi) = (
        f.brightness.min(f.quadrant_brightness),
        f.brightness.max(f.quadrant_brightness),
    );
    let white = ((lo - 1.0) / 0.02).min((0.08 - f.tint) / 0.02);
    let tone = white.max((0.6 - hi) / 0.05);
    let by_shape = plainly_hidden.min(half_outline).min(tone).min(pale_board);
    by_colour.max(by_shape)
}

/// Most [`Features::wood_tint`] of a board whose stones are told by shape as well as by
/// colour: above the white, pink and pale boards' (about 0.03 to 0.17), below wooden ones'
/// (0.45 and more).
const PALE_WOOD_TINT: f64 = 0.25;

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

/// Least confidence of a stone counted by [`stones_past_edges`].
const SURE: f64 = 0.8;

/// For each side (left, right, top, bottom) of an `n`-line grid, the black and the white
/// stones read with confidence on the line a step past its outer line, inside the photo.
pub fn stones_past_edges(img: &RgbImage, h: &GridMap, n: usize) -> [[usize; 2]; 4] {
    let wide = h.shifted(-1.0, -1.0);
    let m = n + 2;
    let reads = decide_all(&measure(img, &wide, m));
    let (w, ht) = (img.width() as f64, img.height() as f64);
    let mut out = [[0; 2]; 4];
    for t in 1..m - 1 {
        for (side, i) in [t * m, t * m + m - 1, t, (m - 1) * m + t]
            .into_iter()
            .enumerate()
        {
            let (x, y) = wide.apply((i % m) as f64, (i / m) as f64);
            if !(x >= 0.0 && y >= 0.0 && x < w && y < ht) {
                continue;
            }
            match reads[i] {
                (Stone::Black, c) if c >= SURE => out[side][0] += 1,
                (Stone::White, c) if c >= SURE => out[side][1] += 1,
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::homography::{Homography, Lens};
    use image::Rgb;

    /// A 5×5 grid drawn on yellow-brown wood, 20 pixels a step, with one disc of `stone`'s
    /// colour and `radius` pixels on the middle point.
    fn board_with(stone: [u8; 3], radius: f64) -> (RgbImage, GridMap) {
        let mut img = RgbImage::from_pixel(120, 120, Rgb([200, 160, 100]));
        for (x, y, p) in img.enumerate_pixels_mut() {
            let (gx, gy) = (
                (x as i32 - 20).rem_euclid(20),
                (y as i32 - 20).rem_euclid(20),
            );
            let on_grid = (20..=100).contains(&x) && (20..=100).contains(&y);
            if on_grid && (gx == 0 || gy == 0) {
                *p = Rgb([60, 40, 20]);
            }
            let (dx, dy) = (x as f64 - 60.0, y as f64 - 60.0);
            if dx.hypot(dy) < radius {
                *p = Rgb(stone);
            }
        }
        let h = Homography(nalgebra::Matrix3::new(
            20.0, 0.0, 20.0, 0.0, 20.0, 20.0, 0.0, 0.0, 1.0,
        ));
        let lens = Lens::none(120.0, 120.0);
        (img, GridMap { h, lens })
    }

    fn middle(stone: [u8; 3]) -> (Stone, Stone) {
        middle_with(stone, 9.0)
    }

    fn middle_with(stone: [u8; 3], radius: f64) -> (Stone, Stone) {
        let (img, map) = board_with(stone, radius);
        let read = decide_all(&measure(&img, &map, 5));
        (read[12].0, read[0].0)
    }

    #[test]
    fn grey_and_tinted_stones_are_stones_and_bare_wood_is_empty() {
        // A bluish glass stone is more colourful than the wood, but of another hue.
        assert_eq!(middle([140, 215, 240]), (Stone::White, Stone::Empty));
        assert_eq!(middle([235, 235, 235]), (Stone::White, Stone::Empty));
        assert_eq!(middle([25, 25, 28]), (Stone::Black, Stone::Empty));
    }

    #[test]
    fn a_star_point_is_no_stone() {
        // A dot of the lines' colour a third of a step across fills the middle of the
        // point's disc, but not its quadrants.
        assert_eq!(middle_with([60, 40, 20], 3.4), (Stone::Empty, Stone::Empty));
    }
}
