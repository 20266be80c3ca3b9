//! The frames of a game played in front of a fixed camera, for testing the watch loop
//! ([`crate::watch`]): still frames of each position, and between them a hand reaching over
//! the board to place each stone, with a little camera shake and a slow drift of the light.

use crate::plane::Plane;
use crate::synth::{Scene, Synth, SynthOptions, Tweak};
use crate::{Stone, VisionError};
use boyi_core::rng::SplitMix64;

/// One stone placed: column from the left, row from the top (reading coordinates), colour.
pub type Placement = (usize, usize, Stone);

/// What a frame shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shot {
    /// The board alone, after `turns` turns.
    Still { turns: usize },
    /// A hand over the board, placing a stone of turn `turn` (counted from 0).
    Hand { turn: usize },
}

/// Still frames of each position (the camera reads a board as settled after a few).
pub const STILL_FRAMES: usize = 4;

/// Renders the frames of a game: `start` (reading order), then each turn's stones placed one
/// by one. Each frame goes to `each` in order, with what it shows.
pub fn frames(
    opts: &SynthOptions,
    start: &[Stone],
    turns: &[Vec<Placement>],
    mut each: impl FnMut(Synth, Shot) -> Result<(), VisionError>,
) -> Result<(), VisionError> {
    let scene = Scene::new(opts)?;
    let n = scene.size();
    if start.len() != n * n {
        return Err(VisionError::BadInput(format!(
            "the start position has {} points, a {n}×{n} board has {}",
            start.len(),
            n * n
        )));
    }
    let mut rng = SplitMix64::new(opts.seed ^ 0x5E0_0E4CE);
    let mut board = start.to_vec();
    let mut index = 0usize;
    let shot = |board: &[Stone], hand: Option<Hand>, rng: &mut SplitMix64, index: &mut usize| {
        let shake = (rng.unit() * 2.0 - 1.0, rng.unit() * 2.0 - 1.0);
        let drift = 0.04 * (*index as f64 * 0.3).sin();
        *index += 1;
        let draw = |planes: &mut [Plane; 3], scene: &Scene| {
            if let Some(h) = &hand {
                h.draw(planes, scene);
            }
        };
        let tweak = Tweak {
            shake,
            drift,
            overlay: Some(&draw),
        };
        scene.photo(Some(board), &tweak)
    };
    for _ in 0..STILL_FRAMES {
        each(
            shot(&board, None, &mut rng, &mut index)?,
            Shot::Still { turns: 0 },
        )?;
    }
    for (t, turn) in turns.iter().enumerate() {
        for &(col, row, stone) in turn {
            if col >= n || row >= n {
                return Err(VisionError::BadInput(format!(
                    "turn {}: point ({col}, {row}) is off the {n}×{n} board",
                    t + 1
                )));
            }
            let from = rng.below(4);
            let target = (col as f64, row as f64);
            // Reaching in, then over the stone just placed.
            for (reach, placed) in [(1.6, false), (0.3, true)] {
                if placed {
                    board[row * n + col] = stone;
                }
                let hand = Hand {
                    target,
                    from,
                    reach,
                };
                let photo = shot(&board, Some(hand), &mut rng, &mut index)?;
                each(photo, Shot::Hand { turn: t })?;
            }
        }
        for _ in 0..STILL_FRAMES {
            each(
                shot(&board, None, &mut rng, &mut index)?,
                Shot::Still { turns: t + 1 },
            )?;
        }
    }
    Ok(())
}

/// A hand and forearm reaching from one side of the photo towards an intersection.
struct Hand {
    /// The intersection, reading coordinates.
    target: (f64, f64),
    /// The side of the photo the arm comes from: left, right, top, bottom.
    from: usize,
    /// How far short of the target the palm's centre stops, in grid steps.
    reach: f64,
}

impl Hand {
    fn draw(&self, planes: &mut [Plane; 3], scene: &Scene) {
        let (w, h) = (planes[0].w, planes[0].h);
        let step = scene.step();
        let (tx, ty) = scene.pixel(self.target.0, self.target.1);
        let edge = match self.from {
            0 => (-step, ty),
            1 => (w as f64 + step, ty),
            2 => (tx, -step),
            _ => (tx, h as f64 + step),
        };
        let (dx, dy) = (edge.0 - tx, edge.1 - ty);
        let len = dx.hypot(dy).max(1.0);
        let (ux, uy) = (dx / len, dy / len);
        let palm = (tx + ux * self.reach * step, ty + uy * self.reach * step);
        let (palm_r, arm_r) = (2.0 * step, 1.3 * step);
        // Distance from the hand's outline (negative inside) and the depth across it (0 on
        // its middle line, 1 at its rim) for shading.
        let shape = |x: f64, y: f64| -> (f64, f64) {
            let (px, py) = (x - palm.0, y - palm.1);
            let d_palm = px.hypot(py);
            let along = (px * ux + py * uy).max(0.0);
            let across = (px * uy - py * ux).abs();
            let d_arm = if along > 0.0 { across } else { d_palm };
            let palm_d = d_palm - palm_r;
            let arm_d = d_arm - arm_r;
            if palm_d < arm_d {
                (palm_d, d_palm / palm_r)
            } else {
                (arm_d, across / arm_r)
            }
        };
        let skin = [214.0f32, 164.0, 136.0];
        let shadow = (0.35 * step, 0.45 * step);
        for y in 0..h {
            for x in 0..w {
                let (fx, fy) = (x as f64 + 0.5, y as f64 + 0.5);
                let (d, depth) = shape(fx, fy);
                let k = y * w + x;
                if d < 0.5 {
                    let cover = (0.5 - d).clamp(0.0, 1.0) as f32;
                    let shade = (1.0 - 0.35 * depth.clamp(0.0, 1.0).powi(2)) as f32;
                    for c in 0..3 {
                        let v = &mut planes[c].data[k];
                        *v = *v * (1.0 - cover) + skin[c] * shade * cover;
                    }
                } else if shape(fx - shadow.0, fy - shadow.1).0 < 0.0 {
                    for pl in planes.iter_mut() {
                        pl.data[k] *= 0.7;
                    }
                }
            }
        }
    }
}
