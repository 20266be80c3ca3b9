//! Single-channel float images and the few filters the reader needs: box downscaling,
//! Gaussian blur, grey-level opening/closing and bilinear sampling.

use image::RgbImage;

/// A single-channel image of `f32` values, row-major.
#[derive(Debug, Clone)]
pub struct Plane {
    pub w: usize,
    pub h: usize,
    pub data: Vec<f32>,
}

impl Plane {
    pub fn new(w: usize, h: usize) -> Plane {
        Plane {
            w,
            h,
            data: vec![0.0; w * h],
        }
    }

    pub fn get(&self, x: usize, y: usize) -> f32 {
        self.data[y * self.w + x]
    }

    /// Bilinear sample at a sub-pixel position; positions outside are clamped to the border.
    pub fn sample(&self, x: f64, y: f64) -> f32 {
        let x = x.clamp(0.0, (self.w - 1) as f64);
        let y = y.clamp(0.0, (self.h - 1) as f64);
        let x0 = (x.floor() as usize).min(self.w.saturating_sub(2));
        let y0 = (y.floor() as usize).min(self.h.saturating_sub(2));
        let fx = (x - x0 as f64) as f32;
        let fy = (y - y0 as f64) as f32;
        let x1 = (x0 + 1).min(self.w - 1);
        let y1 = (y0 + 1).min(self.h - 1);
        let top = self.get(x0, y0) * (1.0 - fx) + self.get(x1, y0) * fx;
        let bottom = self.get(x0, y1) * (1.0 - fx) + self.get(x1, y1) * fx;
        top * (1.0 - fy) + bottom * fy
    }

    /// Luma (Rec. 601) and chroma (max − min of R, G, B) of an RGB image, averaged over
    /// `factor`×`factor` blocks.
    pub fn luma_chroma_downscaled(img: &RgbImage, factor: usize) -> (Plane, Plane) {
        let factor = factor.max(1);
        let (w, h) = (
            img.width() as usize / factor,
            img.height() as usize / factor,
        );
        let (mut luma, mut chroma) = (Plane::new(w, h), Plane::new(w, h));
        let raw = img.as_raw();
        let stride = img.width() as usize * 3;
        let norm = 1.0 / (factor * factor) as f32;
        for y in 0..h {
            for x in 0..w {
                let (mut l, mut c) = (0.0f32, 0.0f32);
                for dy in 0..factor {
                    let row = (y * factor + dy) * stride;
                    for dx in 0..factor {
                        let i = row + (x * factor + dx) * 3;
                        let [r, g, b] = [raw[i], raw[i + 1], raw[i + 2]].map(f32::from);
                        l += 0.299 * r + 0.587 * g + 0.114 * b;
                        c += r.max(g).max(b) - r.min(g).min(b);
                    }
                }
                luma.data[y * w + x] = l * norm;
                chroma.data[y * w + x] = c * norm;
            }
        }
        (luma, chroma)
    }

    /// Half the size each way, each pixel the mean of a 2×2 block.
    pub fn halved(&self) -> Plane {
        let (w, h) = (self.w / 2, self.h / 2);
        let mut out = Plane::new(w, h);
        for y in 0..h {
            for x in 0..w {
                let s = self.get(2 * x, 2 * y)
                    + self.get(2 * x + 1, 2 * y)
                    + self.get(2 * x, 2 * y + 1)
                    + self.get(2 * x + 1, 2 * y + 1);
                out.data[y * w + x] = s / 4.0;
            }
        }
        out
    }

    /// Separable Gaussian blur with standard deviation `sigma` pixels (borders clamped).
    pub fn blurred(&self, sigma: f32) -> Plane {
        if sigma < 0.3 {
            return self.clone();
        }
        let r = (sigma * 3.0).ceil() as isize;
        let kernel: Vec<f32> = (-r..=r)
            .map(|i| (-(i * i) as f32 / (2.0 * sigma * sigma)).exp())
            .collect();
        let total: f32 = kernel.iter().sum();
        let kernel: Vec<f32> = kernel.iter().map(|k| k / total).collect();
        let pass = |src: &Plane, horizontal: bool| {
            let mut out = Plane::new(src.w, src.h);
            let (w, h) = (src.w as isize, src.h as isize);
            for y in 0..h {
                for x in 0..w {
                    let mut acc = 0.0;
                    for (k, &kv) in kernel.iter().enumerate() {
                        let o = k as isize - r;
                        let (sx, sy) = if horizontal {
                            ((x + o).clamp(0, w - 1), y)
                        } else {
                            (x, (y + o).clamp(0, h - 1))
                        };
                        acc += kv * src.data[(sy * w + sx) as usize];
                    }
                    out.data[(y * w + x) as usize] = acc;
                }
            }
            out
        };
        pass(&pass(self, true), false)
    }

    /// Running maximum (`max = true`) or minimum over a `(2r+1)`-square window.
    fn rank_filter(&self, r: usize, max: bool) -> Plane {
        let pick = |a: f32, b: f32| if max { a.max(b) } else { a.min(b) };
        let mut tmp = Plane::new(self.w, self.h);
        for y in 0..self.h {
            let row = &self.data[y * self.w..(y + 1) * self.w];
            for x in 0..self.w {
                let lo = x.saturating_sub(r);
                let hi = (x + r).min(self.w - 1);
                tmp.data[y * self.w + x] = row[lo..=hi].iter().copied().reduce(pick).unwrap_or(0.0);
            }
        }
        let mut out = Plane::new(self.w, self.h);
        for y in 0..self.h {
            let lo = y.saturating_sub(r);
            let hi = (y + r).min(self.h - 1);
            for x in 0..self.w {
                let mut v = tmp.data[lo * self.w + x];
                for yy in lo + 1..=hi {
                    v = pick(v, tmp.data[yy * self.w + x]);
                }
                out.data[y * self.w + x] = v;
            }
        }
        out
    }

    /// Relative black-hat: how much darker each pixel is than its grey-level closing with a
    /// `(2r+1)`-square, divided by the closing. Thin dark lines answer strongly, while broad
    /// dark areas (black stones, shadows) and slow lighting changes do not.
    pub fn relative_black_hat(&self, r: usize) -> Plane {
        let closed = self.rank_filter(r, true).rank_filter(r, false);
        let mut out = Plane::new(self.w, self.h);
        for (o, (&c, &v)) in out.data.iter_mut().zip(closed.data.iter().zip(&self.data)) {
            *o = ((c - v) / (c + 12.0)).max(0.0);
        }
        out
    }
}

/// Luma and an opponent-colour vector (red − green, yellow − blue) of an RGB image at a
/// sub-pixel position. The vector's length is the colourfulness, its direction the hue.
pub fn sample_rgb(img: &RgbImage, x: f64, y: f64) -> (f32, [f32; 2]) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let x = x.clamp(0.0, (w - 1) as f64);
    let y = y.clamp(0.0, (h - 1) as f64);
    let x0 = (x.floor() as usize).min(w.saturating_sub(2));
    let y0 = (y.floor() as usize).min(h.saturating_sub(2));
    let fx = (x - x0 as f64) as f32;
    let fy = (y - y0 as f64) as f32;
    let raw = img.as_raw();
    let mut rgb = [0.0f32; 3];
    for (dy, wy) in [(0usize, 1.0 - fy), (1, fy)] {
        for (dx, wx) in [(0usize, 1.0 - fx), (1, fx)] {
            let xx = (x0 + dx).min(w - 1);
            let yy = (y0 + dy).min(h - 1);
            let i = (yy * w + xx) * 3;
            for c in 0..3 {
                rgb[c] += wx * wy * raw[i + c] as f32;
            }
        }
    }
    let luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
    let [r, g, b] = rgb;
    (luma, [r - g, (r + g) / 2.0 - b])
}
