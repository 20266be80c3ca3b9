//! A small convolutional network that reads one intersection as empty, black or white from
//! the look of the board about it: a rectified patch 1.5 grid steps across, its colour taken
//! relative to the nearby bare wood. It sees what a stone is (a round, shaded disc with a
//! rim, a highlight and a shadow, hiding the lines) where the hand-made measures of
//! [`crate::classify`] see brightness and colour at a few places.
//!
//! Trained on CPU by `scripts/vision-train.py` from patches that `examples/patches.rs`
//! cuts from synthetic photos (every level, [`crate::synth::Level::Real`] among them) and
//! from labelled real photos outside the held-out set; the weights are embedded
//! (`stone_net.bin`, little-endian `f32` in the order [`Net::from_bytes`] reads them).

use crate::classify::wood;
use crate::homography::GridMap;
use crate::plane::sample_rgb;
use image::RgbImage;
use std::sync::OnceLock;

/// Samples a patch side: `PATCH` × `PATCH` samples, [`SPACING`] steps apart.
pub const PATCH: usize = 16;
/// Grid steps between samples: the patch spans ±0.75 steps about the point.
pub const SPACING: f64 = 0.1;
/// Input channels: luma, the two opponent-colour components, each less the wood's and over
/// the wood's luma; and luma less the wood's over the board's typical wood luma.
pub const CHANNELS: usize = 4;
/// One patch, channel-major.
pub type Patch = [f32; CHANNELS * PATCH * PATCH];

const C1: usize = 12;
const C2: usize = 24;
const HIDDEN: usize = 32;
/// Side after the first 3×3 convolution (valid) and 2×2 max-pooling.
const S1: usize = (PATCH - 2) / 2;
/// Side after the second 3×3 convolution (valid).
const S2: usize = S1 - 2;

/// Cuts the patch of every intersection of an `n`-line grid (row-major, top row first).
pub fn patches(img: &RgbImage, h: &GridMap, n: usize) -> Vec<Patch> {
    let (woods, typical) = wood(img, h, n);
    let mut out = Vec::with_capacity(n * n);
    for k in 0..n * n {
        let (c, r) = ((k % n) as f64, (k / n) as f64);
        // The map is close to affine over a patch: its value and derivatives at the point.
        let (x0, y0) = h.apply(c, r);
        let (xc, yc) = h.apply(c + 0.5, r);
        let (xr, yr) = h.apply(c, r + 0.5);
        let (xcm, ycm) = h.apply(c - 0.5, r);
        let (xrm, yrm) = h.apply(c, r - 0.5);
        let dc = (xc - xcm, yc - ycm);
        let dr = (xr - xrm, yr - yrm);
        let (wl, [wa, wb]) = woods[k];
        let wl = wl.max(1.0);
        let mut p = [0.0f32; CHANNELS * PATCH * PATCH];
        for j in 0..PATCH {
            for i in 0..PATCH {
                let (mut l, mut a, mut b) = (0.0, 0.0, 0.0);
                // 2×2 samples per cell, against aliasing where a step spans many pixels.
                for (si, sj) in [(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)] {
                    let u = (i as f64 - (PATCH as f64 - 1.0) / 2.0 + si) * SPACING;
                    let v = (j as f64 - (PATCH as f64 - 1.0) / 2.0 + sj) * SPACING;
                    let (x, y) = (x0 + u * dc.0 + v * dr.0, y0 + u * dc.1 + v * dr.1);
                    let (sl, [sa, sb]) = sample_rgb(img, x, y);
                    l += sl / 4.0;
                    a += sa / 4.0;
                    b += sb / 4.0;
                }
                let at = j * PATCH + i;
                let plane = PATCH * PATCH;
                p[at] = ((l - wl) / wl).clamp(-3.0, 3.0);
                p[plane + at] = ((a - wa) / wl).clamp(-3.0, 3.0);
                p[2 * plane + at] = ((b - wb) / wl).clamp(-3.0, 3.0);
                p[3 * plane + at] = ((l - wl) / typical).clamp(-3.0, 3.0);
            }
        }
        out.push(p);
    }
    out
}

/// The network's weights.
pub struct Net {
    conv1: Vec<f32>,
    bias1: Vec<f32>,
    conv2: Vec<f32>,
    bias2: Vec<f32>,
    fc1: Vec<f32>,
    bias_fc1: Vec<f32>,
    fc2: Vec<f32>,
    bias_fc2: Vec<f32>,
}

/// Floats in the weight file, in the order read.
const WEIGHTS: usize =
    C1 * CHANNELS * 9 + C1 + C2 * C1 * 9 + C2 + HIDDEN * C2 * S2 * S2 + HIDDEN + 3 * HIDDEN + 3;

impl Net {
    /// Weights as written by `scripts/vision-train.py`: conv1 `[C1][CHANNELS][3][3]`, its
    /// bias, conv2 `[C2][C1][3][3]`, its bias, fc1 `[HIDDEN][C2·S2·S2]` (inputs
    /// channel-major), its bias, fc2 `[3][HIDDEN]`, its bias; little-endian `f32`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, String> {
        if bytes.len() != WEIGHTS * 4 {
            return Err(format!(
                "weight file has {} bytes, {} expected",
                bytes.len(),
                WEIGHTS * 4
            ));
        }
        let mut floats = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let mut take = |k: usize| -> Vec<f32> { floats.by_ref().take(k).collect() };
        Ok(Net {
            conv1: take(C1 * CHANNELS * 9),
            bias1: take(C1),
            conv2: take(C2 * C1 * 9),
            bias2: take(C2),
            fc1: take(HIDDEN * C2 * S2 * S2),
            bias_fc1: take(HIDDEN),
            fc2: take(3 * HIDDEN),
            bias_fc2: take(3),
        })
    }

    /// The embedded network.
    pub fn embedded() -> &'static Net {
        static NET: OnceLock<Net> = OnceLock::new();
        NET.get_or_init(|| {
            Net::from_bytes(include_bytes!("stone_net.bin")).expect("embedded weights fit")
        })
    }

    /// Probabilities of empty, black and white.
    pub fn classify(&self, x: &Patch) -> [f32; 3] {
        // conv1 (valid) + ReLU, then 2×2 max-pooling.
        let s0 = PATCH - 2;
        let mut a1 = vec![0.0f32; C1 * s0 * s0];
        for o in 0..C1 {
            let out = &mut a1[o * s0 * s0..(o + 1) * s0 * s0];
            out.fill(self.bias1[o]);
            for i in 0..CHANNELS {
                let inp = &x[i * PATCH * PATCH..(i + 1) * PATCH * PATCH];
                let w = &self.conv1[(o * CHANNELS + i) * 9..(o * CHANNELS + i + 1) * 9];
                conv3(inp, PATCH, w, out, s0);
            }
        }
        let mut p1 = vec![0.0f32; C1 * S1 * S1];
        for o in 0..C1 {
            for y in 0..S1 {
                for xx in 0..S1 {
                    let at =
                        |dy: usize, dx: usize| a1[o * s0 * s0 + (2 * y + dy) * s0 + 2 * xx + dx];
                    p1[o * S1 * S1 + y * S1 + xx] =
                        at(0, 0).max(at(0, 1)).max(at(1, 0)).max(at(1, 1)).max(0.0);
                }
            }
        }
        // conv2 (valid) + ReLU.
        let mut a2 = vec![0.0f32; C2 * S2 * S2];
        for o in 0..C2 {
            let out = &mut a2[o * S2 * S2..(o + 1) * S2 * S2];
            out.fill(self.bias2[o]);
            for i in 0..C1 {
                let w = &self.conv2[(o * C1 + i) * 9..(o * C1 + i + 1) * 9];
                conv3(&p1[i * S1 * S1..(i + 1) * S1 * S1], S1, w, out, S2);
            }
            out.iter_mut().for_each(|v| *v = v.max(0.0));
        }
        // Two dense layers.
        let hidden: Vec<f32> = (0..HIDDEN)
            .map(|j| {
                let w = &self.fc1[j * a2.len()..(j + 1) * a2.len()];
                (self.bias_fc1[j] + dot(w, &a2)).max(0.0)
            })
            .collect();
        let logits: [f32; 3] = std::array::from_fn(|k| {
            self.bias_fc2[k] + dot(&self.fc2[k * HIDDEN..(k + 1) * HIDDEN], &hidden)
        });
        let m = logits.iter().copied().fold(f32::MIN, f32::max);
        let e = logits.map(|l| (l - m).exp());
        let sum: f32 = e.iter().sum();
        e.map(|v| v / sum)
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Adds the valid 3×3 correlation of the `side`² plane `inp` with `w` to the `out_side`²
/// plane `out`.
fn conv3(inp: &[f32], side: usize, w: &[f32], out: &mut [f32], out_side: usize) {
    for y in 0..out_side {
        let row = &mut out[y * out_side..(y + 1) * out_side];
        for (ky, wrow) in w.chunks_exact(3).enumerate() {
            let src = &inp[(y + ky) * side..(y + ky) * side + side];
            for (x, o) in row.iter_mut().enumerate() {
                *o += wrow[0] * src[x] + wrow[1] * src[x + 1] + wrow[2] * src[x + 2];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_weights_load_and_give_probabilities() {
        let net = Net::embedded();
        let p = net.classify(&[0.0; CHANNELS * PATCH * PATCH]);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(Net::from_bytes(&[0u8; 12]).is_err());
    }
}
