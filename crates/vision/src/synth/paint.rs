//! Painting a synthetic photo: the wooden board with its grain, lines and star points, the
//! table and the board's drop shadow, and stones as lit domes with their shadows.

use super::{Camera, Look, SynthOptions};
use crate::Stone;
use crate::plane::Plane;
use boyi_core::rng::SplitMix64;
use nalgebra::Vector3;
use std::f64::consts::PI;

/// Smooth value noise in [-1, 1].
fn vnoise(seed: u64, x: f64, y: f64) -> f64 {
    let hash = |i: i64, j: i64| {
        let (_, v) = SplitMix64::step(
            seed ^ (i as u64).wrapping_mul(0x9E37_79B9)
                ^ (j as u64).wrapping_mul(0x85EB_CA6B_0000_0001),
        );
        (v >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let (sx, sy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
    let (i, j) = (x0 as i64, y0 as i64);
    let top = hash(i, j) * (1.0 - sx) + hash(i + 1, j) * sx;
    let bottom = hash(i, j + 1) * (1.0 - sx) + hash(i + 1, j + 1) * sx;
    top * (1.0 - sy) + bottom * sy
}

fn star_points(n: usize) -> Vec<(usize, usize)> {
    let (edge, mid) = match n {
        19 => (3, true),
        15 | 13 => (3, true),
        9 => (2, true),
        _ => return Vec::new(),
    };
    let far = n - 1 - edge;
    let mut v = vec![(edge, edge), (edge, far), (far, edge), (far, far)];
    if mid {
        v.push((n / 2, n / 2));
    }
    if n == 19 {
        v.extend([(3, 9), (9, 3), (15, 9), (9, 15)]);
    }
    v
}

/// A stone as it appears on the board plane: centre shifted by its height.
struct StoneDisc {
    u: f64,
    v: f64,
    white: bool,
}

pub(super) fn paint(
    cam: &Camera,
    look: &Look,
    n: usize,
    board: &[Stone],
    opts: &SynthOptions,
) -> [Plane; 3] {
    let (w, h) = (opts.width as usize, opts.height as usize);
    let half = (n as f64 - 1.0) / 2.0;
    let extent = half + look.margin;
    let to_board = cam
        .plane()
        .inverse()
        .expect("camera homography is invertible");
    let rs = look.stone_radius;
    // Height offset: where the middle of a stone's height appears, mapped back to the plane.
    let discs: Vec<Option<StoneDisc>> = (0..n * n)
        .map(|k| {
            let (u, v) = ((k % n) as f64 - half, (k / n) as f64 - half);
            let white = match board[k] {
                Stone::Empty => return None,
                Stone::Black => false,
                Stone::White => true,
            };
            let (x, y) = cam.project(u, v, 0.2);
            let (bu, bv) = to_board.apply(x, y);
            Some(StoneDisc {
                u: bu,
                v: bv,
                white,
            })
        })
        .collect();
    let stars = star_points(n);
    let mut planes = [Plane::new(w, h), Plane::new(w, h), Plane::new(w, h)];
    let hl = (look.light + Vector3::z()).normalize();
    for y in 0..h {
        for x in 0..w {
            let (ix, iy) = cam.undistort(x as f64 + 0.5, y as f64 + 0.5);
            let (u, v) = to_board.apply(ix, iy);
            let (u2, v2) = to_board.apply(ix + 1.0, iy);
            let px = (u2 - u).hypot(v2 - v).max(1e-6);
            let colour = if u.abs() > extent || v.abs() > extent {
                table_colour(look, u, v, extent)
            } else {
                board_colour(look, n, half, u, v, px, &stars, &discs, hl, rs)
            };
            for c in 0..3 {
                planes[c].data[y * w + x] = colour[c] as f32;
            }
        }
    }
    planes
}

fn table_colour(look: &Look, u: f64, v: f64, extent: f64) -> [f64; 3] {
    let s = look.noise_seed;
    let tex = if look.table_grain {
        0.05 * (u * 1.7 + 2.5 * vnoise(s ^ 7, u * 0.2, v * 0.2)).sin()
            + 0.05 * vnoise(s ^ 9, u * 6.0, v * 0.6)
    } else {
        0.06 * vnoise(s ^ 3, u * 3.0, v * 3.0)
    };
    // The board's drop shadow on the table.
    let d = (u.abs() - extent).max(v.abs() - extent);
    let shade = 1.0 - 0.35 * (-d / 0.25).exp();
    look.table.map(|c| c * (1.0 + tex) * shade)
}

#[allow(clippy::too_many_arguments)]
fn board_colour(
    look: &Look,
    n: usize,
    half: f64,
    u: f64,
    v: f64,
    px: f64,
    stars: &[(usize, usize)],
    discs: &[Option<StoneDisc>],
    hl: Vector3<f64>,
    rs: f64,
) -> [f64; 3] {
    let s = look.noise_seed;
    let (along, across) = if look.grain_across { (u, v) } else { (v, u) };
    let grain =
        (look.grain_freq * (across + 0.6 * vnoise(s, along * 0.15, across * 0.4)) * PI).sin();
    let fine = vnoise(s ^ 1, along * 0.4, across * 9.0);
    let mut c = look.wood.map(|w| w * (1.0 + 0.05 * grain + 0.04 * fine));
    let cov = |d: f64, r: f64| ((r - d) / px + 0.5).clamp(0.0, 1.0);
    // Grid lines, only between the outer lines.
    let (gi, gj) = (u + half, v + half);
    let inside = |g: f64| (-0.01..=n as f64 - 0.99).contains(&g);
    let mut ink: f64 = 0.0;
    if inside(gj) {
        ink = ink.max(cov(
            (gi - gi.round().clamp(0.0, n as f64 - 1.0)).abs(),
            look.line_width / 2.0,
        ));
    }
    if inside(gi) {
        ink = ink.max(cov(
            (gj - gj.round().clamp(0.0, n as f64 - 1.0)).abs(),
            look.line_width / 2.0,
        ));
    }
    for &(si, sj) in stars {
        let d = (gi - si as f64).hypot(gj - sj as f64);
        if look.star_ring {
            ink = ink.max(cov(d, 0.05)).max(cov((d - 0.13).abs(), 0.02));
        } else {
            ink = ink.max(cov(d, 0.085));
        }
    }
    c = mix(c, look.line_colour, ink);
    // Shadows, then stones, from the nearby intersections.
    let (ci, cj) = (gi.round() as i64, gj.round() as i64);
    let near = |f: &mut dyn FnMut(&StoneDisc)| {
        for dj in -1..=1 {
            for di in -1..=1 {
                let (i, j) = (ci + di, cj + dj);
                if (0..n as i64).contains(&i)
                    && (0..n as i64).contains(&j)
                    && let Some(d) = &discs[j as usize * n + i as usize]
                {
                    f(d);
                }
            }
        }
    };
    let mut shadow: f64 = 0.0;
    near(&mut |d| {
        let dist = (u - d.u - look.shadow.0).hypot(v - d.v - look.shadow.1);
        shadow = shadow.max(((rs + 0.06 - dist) / 0.12).clamp(0.0, 1.0));
    });
    c = c.map(|x| x * (1.0 - look.shadow.2 * shadow));
    near(&mut |d| {
        let (dx, dy) = (u - d.u, v - d.v);
        let dist = dx.hypot(dy);
        let a = cov(dist, rs);
        if a > 0.0 {
            c = mix(c, stone_colour(look, d.white, dx / rs, dy / rs, hl), a);
        }
    });
    c
}

/// A stone as a flattened dome lit by `look.light`: diffuse shading and a specular highlight.
fn stone_colour(look: &Look, white: bool, x: f64, y: f64, hl: Vector3<f64>) -> [f64; 3] {
    let r2 = (x * x + y * y).min(1.0);
    let normal = Vector3::new(0.75 * x, 0.75 * y, (1.0 - 0.5625 * r2).sqrt()).normalize();
    let diffuse = normal.dot(&look.light).max(0.0);
    let spec = normal
        .dot(&hl)
        .max(0.0)
        .powf(if white { 18.0 } else { 40.0 } * (1.0 + 4.0 * look.gloss));
    // A glassy stone under a flash: a small highlight near the full white.
    let spec = spec * (1.0 + 0.6 * look.gloss);
    if white {
        let base = 170.0 + 70.0 * diffuse + 25.0 * spec;
        [
            base + look.white_tint[0],
            base + look.white_tint[1],
            base + look.white_tint[2],
        ]
    } else {
        let base = 18.0 + 25.0 * diffuse + 150.0 * spec;
        [base, base, base + 3.0]
    }
}

fn mix(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    [0, 1, 2].map(|k| a[k] * (1.0 - t) + b[k] * t)
}
