//! Synthetic board photos with known positions: a wooden board with grid lines and star
//! points on a table, shaded 3-D stones offset by their height and casting shadows, seen by a
//! pinhole camera with tilt, rotation and a little barrel distortion, then lighting gradients,
//! a glare spot, blur, sensor noise and JPEG compression. Deterministic for a seed.

mod paint;

use crate::homography::Homography;
use crate::orient::{self, Orientation};
use crate::plane::Plane;
use crate::{Stone, VisionError};
use boyi_core::rng::SplitMix64;
use image::RgbImage;
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};
use std::f64::consts::PI;
use std::fmt;
use std::str::FromStr;

/// Largest side of a synthetic photo, in pixels (a 32-megapixel photo at most).
pub const MAX_SIDE: u32 = 8192;

/// How hard the photo is to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    /// The variety of physical boards rather than difficulty: light (near white) to dark
    /// woods, painted and printed boards, cloth and felt tables, flash glare on glassy
    /// stones, ringed star points, bluish stones. Measured apart from the difficulty ladder
    /// (`bench --levels variety`), not in [`Level::ALL`].
    Variety,
}

impl Level {
    /// The benchmark levels.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Variety => "variety",
        }
    }

    fn params(self) -> Params {
        match self {
            Level::Easy => Params {
                tilt: 12.0,
                rotation: 8.0,
                quarter_turns: false,
                fill: (0.75, 0.95),
                gradient: 0.2,
                glare: 25.0,
                blur: 0.6,
                noise: 3.0,
                jpeg: (88, 95),
                distortion: 0.0,
                density: 0.4,
            },
            Level::Medium => Params {
                tilt: 25.0,
                rotation: 20.0,
                quarter_turns: true,
                fill: (0.6, 1.0),
                gradient: 0.35,
                glare: 70.0,
                blur: 1.0,
                noise: 6.0,
                jpeg: (75, 90),
                distortion: 0.01,
                density: 0.5,
            },
            Level::Hard => Params {
                tilt: 35.0,
                rotation: 180.0,
                quarter_turns: true,
                fill: (0.5, 1.02),
                gradient: 0.5,
                glare: 120.0,
                blur: 1.5,
                noise: 10.0,
                jpeg: (55, 80),
                distortion: 0.02,
                density: 0.6,
            },
            Level::Variety => Params {
                tilt: 30.0,
                rotation: 180.0,
                quarter_turns: true,
                fill: (0.45, 1.0),
                gradient: 0.45,
                glare: 170.0,
                blur: 1.2,
                noise: 8.0,
                jpeg: (60, 92),
                distortion: 0.015,
                density: 0.6,
            },
        }
    }
}

impl FromStr for Level {
    type Err = VisionError;
    fn from_str(s: &str) -> Result<Level, VisionError> {
        Level::ALL
            .into_iter()
            .chain([Level::Variety])
            .find(|l| l.name() == s)
            .ok_or_else(|| {
                VisionError::BadInput(format!(
                    "unknown level {s:?} (easy, medium, hard or variety)"
                ))
            })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The ranges a level draws its photo parameters from.
struct Params {
    /// Largest camera tilt from straight above, degrees.
    tilt: f64,
    /// Largest in-plane rotation either way, degrees.
    rotation: f64,
    /// Whether the photo may also be turned by quarter turns.
    quarter_turns: bool,
    /// Board width as a fraction of the shorter photo side.
    fill: (f64, f64),
    gradient: f64,
    glare: f64,
    /// Largest blur sigma, in pixels of a 640-pixel-wide photo.
    blur: f64,
    /// Largest sensor-noise sigma (8-bit levels).
    noise: f64,
    jpeg: (u8, u8),
    distortion: f64,
    /// Largest fraction of points holding stones.
    density: f64,
}

/// What to render.
#[derive(Debug, Clone)]
pub struct SynthOptions {
    pub seed: u64,
    pub level: Level,
    pub width: u32,
    pub height: u32,
    /// Lines each way; default drawn from 9, 13, 14, 15, 19.
    pub size: Option<usize>,
    /// The position to show, in reading order (top row first); default random.
    pub position: Option<Vec<Stone>>,
    /// Barrel distortion `k1` of the lens (see [`crate::homography::Lens`]); default drawn
    /// up to the level's limit.
    pub distortion: Option<f64>,
}

/// A rendered photo and the truth about it.
pub struct Synth {
    /// The photo after JPEG compression and decoding, as the reader will see it.
    pub image: RgbImage,
    /// The JPEG file.
    pub jpeg: Vec<u8>,
    pub size: usize,
    /// The position in reading order (top row first).
    pub truth: Vec<Stone>,
    /// Outer grid corners in the photo: top-left, top-right, bottom-right, bottom-left.
    pub corners: [(f64, f64); 4],
    /// The lens distortion `k1` the photo was taken with.
    pub distortion: f64,
}

impl Synth {
    /// One line per row, top row first: `.` empty, `x` black, `o` white.
    pub fn truth_rows(&self) -> Vec<String> {
        self.truth
            .chunks(self.size)
            .map(|r| r.iter().map(|s| s.symbol()).collect())
            .collect()
    }
}

#[derive(Clone)]
struct Rng(SplitMix64);

impl Rng {
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.0.unit()
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
    fn chance(&mut self, p: f64) -> bool {
        self.0.unit() < p
    }
    fn gauss(&mut self) -> f64 {
        let u = self.0.unit().max(1e-12);
        let v = self.0.unit();
        (-2.0 * u.ln()).sqrt() * (2.0 * PI * v).cos()
    }
}

/// The camera: board-plane point `(u, v, height)` (grid steps, board centre at 0) → ideal
/// pixel, plus barrel distortion from ideal to rendered pixels.
#[derive(Clone)]
struct Camera {
    rot: Matrix3<f64>,
    t: Vector3<f64>,
    f: f64,
    cx: f64,
    cy: f64,
    k1: f64,
    diag: f64,
}

impl Camera {
    fn project(&self, u: f64, v: f64, height: f64) -> (f64, f64) {
        let p = self.rot * Vector3::new(u, v, -height) + self.t;
        (self.f * p.x / p.z + self.cx, self.f * p.y / p.z + self.cy)
    }

    fn plane(&self) -> Homography {
        let k = Matrix3::new(self.f, 0.0, self.cx, 0.0, self.f, self.cy, 0.0, 0.0, 1.0);
        let m =
            Matrix3::from_columns(&[self.rot.column(0).into(), self.rot.column(1).into(), self.t]);
        Homography(k * m)
    }

    /// Rendered pixel → ideal pixel.
    fn undistort(&self, x: f64, y: f64) -> (f64, f64) {
        let (dx, dy) = (x - self.cx, y - self.cy);
        let r2 = (dx * dx + dy * dy) / (self.diag * self.diag);
        let s = 1.0 + self.k1 * r2;
        (self.cx + dx * s, self.cy + dy * s)
    }

    /// Ideal pixel → rendered pixel (fixed-point inverse of [`Camera::undistort`]).
    fn distort(&self, x: f64, y: f64) -> (f64, f64) {
        let (mut px, mut py) = (x, y);
        for _ in 0..8 {
            let (dx, dy) = (px - self.cx, py - self.cy);
            let s = 1.0 + self.k1 * (dx * dx + dy * dy) / (self.diag * self.diag);
            px = self.cx + (x - self.cx) / s;
            py = self.cy + (y - self.cy) / s;
        }
        (px, py)
    }
}

/// Board look: wood, lines, stones.
struct Look {
    wood: [f64; 3],
    grain_freq: f64,
    grain_across: bool,
    table: [f64; 3],
    table_grain: bool,
    line_width: f64,
    line_colour: [f64; 3],
    margin: f64,
    stone_radius: f64,
    white_tint: [f64; 3],
    light: Vector3<f64>,
    shadow: (f64, f64, f64),
    noise_seed: u64,
    /// Star points drawn as a ring about a dot (printed boards).
    star_ring: bool,
    /// How glassy the stones are: 0 matte, 1 a sharp bright highlight (flash).
    gloss: f64,
}

/// Renders a synthetic photo.
pub fn render(opts: &SynthOptions) -> Result<Synth, VisionError> {
    Scene::new(opts)?.photo(opts.position.as_deref(), &Tweak::default())
}

/// What changes between the photos of one scene: the camera shaken by a few pixels, the
/// light a little brighter or darker, and something drawn over the board (a hand).
#[derive(Default)]
pub struct Tweak<'a> {
    /// Photo shift, pixels.
    pub shake: (f64, f64),
    /// Added to the light's gain (0: as drawn).
    pub drift: f64,
    /// Drawn over the painted photo before lighting, blur and noise: the three colour planes
    /// (0–255) and the scene.
    #[allow(clippy::type_complexity)]
    pub overlay: Option<&'a dyn Fn(&mut [Plane; 3], &Scene)>,
}

/// A board, its look and the camera, drawn once for a seed: its photos differ only in the
/// stones on the board and in what a [`Tweak`] changes.
pub struct Scene {
    opts: SynthOptions,
    params: Params,
    look: Look,
    cam: Camera,
    orientation: Orientation,
    size: usize,
    rng: Rng,
}

impl Scene {
    pub fn new(opts: &SynthOptions) -> Result<Scene, VisionError> {
        if opts.width < 64 || opts.height < 64 {
            return Err(VisionError::BadInput(
                "synthetic photos need at least 64×64 pixels".into(),
            ));
        }
        if opts.width > MAX_SIDE || opts.height > MAX_SIDE {
            return Err(VisionError::BadInput(format!(
                "synthetic photos are at most {MAX_SIDE} pixels a side, not {}×{}",
                opts.width, opts.height
            )));
        }
        let mut rng = Rng(SplitMix64::new(opts.seed ^ 0x05EE_D0FB_0A2D));
        let n = match opts.size {
            Some(n) if (5..=26).contains(&n) => n,
            Some(n) => {
                return Err(VisionError::BadInput(format!(
                    "board size {n} is not in 5..=26"
                )));
            }
            None => [9, 13, 14, 15, 19][rng.below(5)],
        };
        let params = opts.level.params();
        let look = draw_look(&mut rng, opts.level);
        let (cam, orientation) = draw_camera(&mut rng, &params, &look, n, opts)?;
        Ok(Scene {
            opts: opts.clone(),
            params,
            look,
            cam,
            orientation,
            size: n,
            rng,
        })
    }

    /// Lines each way.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Where intersection `(col, row)` (reading coordinates) is in the photo, unshaken.
    pub fn pixel(&self, col: f64, row: f64) -> (f64, f64) {
        let half = (self.size as f64 - 1.0) / 2.0;
        let (i, j) = self.orientation.map_f(col, row);
        let (x, y) = self.cam.project(i - half, j - half, 0.0);
        self.cam.distort(x, y)
    }

    /// Length of a grid step in the photo near the board's middle, pixels.
    pub fn step(&self) -> f64 {
        let m = (self.size as f64 - 1.0) / 2.0;
        let (a, b) = (self.pixel(m, m), self.pixel(m + 1.0, m));
        (a.0 - b.0).hypot(a.1 - b.1)
    }

    /// A photo of the scene with `position` (reading order, top row first) on the board, or
    /// a random one.
    pub fn photo(&self, position: Option<&[Stone]>, tweak: &Tweak) -> Result<Synth, VisionError> {
        let n = self.size;
        if let Some(p) = position
            && p.len() != n * n
        {
            return Err(VisionError::BadInput(format!(
                "the position has {} points, a {n}×{n} board has {}",
                p.len(),
                n * n
            )));
        }
        let (opts, params, orientation) = (&self.opts, &self.params, &self.orientation);
        let mut rng = self.rng.clone();
        let mut cam = self.cam.clone();
        cam.cx += tweak.shake.0;
        cam.cy += tweak.shake.1;
        let board = place_stones(&mut rng, params, n, orientation, position);
        let mut planes = paint::paint(&cam, &self.look, n, &board, opts);
        if let Some(overlay) = tweak.overlay {
            overlay(&mut planes, self);
        }
        if tweak.drift != 0.0 {
            for pl in planes.iter_mut() {
                pl.data
                    .iter_mut()
                    .for_each(|v| *v *= 1.0 + tweak.drift as f32);
            }
        }
        post_process(&mut planes, params, opts, &mut rng);
        let quality = params.jpeg.0 + rng.below((params.jpeg.1 - params.jpeg.0) as usize + 1) as u8;
        let (jpeg, image) = jpeg_round_trip(&planes, opts.width, opts.height, quality)?;
        let half = (n as f64 - 1.0) / 2.0;
        let m = n - 1;
        let corners = [(0, 0), (m, 0), (m, m), (0, m)].map(|(c, r)| {
            let (i, j) = orientation.map(c, r);
            let (x, y) = cam.project(i as f64 - half, j as f64 - half, 0.0);
            cam.distort(x, y)
        });
        let truth = (0..n * n)
            .map(|k| {
                let (i, j) = orientation.map(k % n, k / n);
                board[j as usize * n + i as usize]
            })
            .collect();
        Ok(Synth {
            image,
            jpeg,
            size: n,
            truth,
            corners,
            distortion: cam.k1,
        })
    }
}

fn draw_look(rng: &mut Rng, level: Level) -> Look {
    let tone = rng.range(0.0, 1.0);
    let wood = [
        rng.range(190.0, 230.0) - 20.0 * tone,
        rng.range(145.0, 180.0) - 25.0 * tone,
        rng.range(70.0, 115.0) - 20.0 * tone,
    ];
    let tables = [
        [55.0, 55.0, 60.0],
        [40.0, 85.0, 50.0],
        [95.0, 60.0, 38.0],
        [165.0, 165.0, 160.0],
        [205.0, 205.0, 198.0],
        [50.0, 62.0, 110.0],
        [120.0, 80.0, 55.0],
    ];
    let table = tables[rng.below(tables.len())];
    let elevation = rng.range(50.0, 75.0f64).to_radians();
    let azimuth = rng.range(0.0, 2.0 * PI);
    let light = Vector3::new(
        elevation.cos() * azimuth.cos(),
        elevation.cos() * azimuth.sin(),
        elevation.sin(),
    );
    let shadow_len = match level {
        Level::Easy => rng.range(0.03, 0.08),
        _ => rng.range(0.05, 0.15),
    };
    let mut look = Look {
        wood,
        grain_freq: rng.range(1.5, 4.0),
        grain_across: rng.chance(0.5),
        table,
        table_grain: rng.chance(0.4),
        line_width: rng.range(0.035, 0.06),
        line_colour: [
            rng.range(20.0, 50.0),
            rng.range(15.0, 40.0),
            rng.range(10.0, 30.0),
        ],
        margin: rng.range(0.6, 0.95),
        stone_radius: rng.range(0.45, 0.48),
        white_tint: [
            rng.range(-6.0, 4.0),
            rng.range(-4.0, 4.0),
            rng.range(-2.0, 8.0),
        ],
        light,
        shadow: (
            -light.x * shadow_len,
            -light.y * shadow_len,
            rng.range(0.25, 0.45),
        ),
        noise_seed: rng.0.next_u64(),
        star_ring: false,
        gloss: 0.0,
    };
    if level == Level::Variety {
        real_look(rng, &mut look);
    }
    look
}

/// The wider variety of [`Level::Variety`], drawn after everything the other levels draw (so
/// their photos stay the same for a seed).
fn real_look(rng: &mut Rng, look: &mut Look) {
    const WOODS: [[f64; 3]; 7] = [
        [238.0, 222.0, 185.0], // near-white pale wood
        [228.0, 196.0, 140.0], // light
        [214.0, 170.0, 105.0], // honey
        [190.0, 135.0, 70.0],  // amber
        [150.0, 100.0, 55.0],  // dark
        [232.0, 205.0, 85.0],  // painted yellow
        [205.0, 190.0, 165.0], // grey card
    ];
    let base = WOODS[rng.below(WOODS.len())];
    look.wood = base.map(|c| c * rng.range(0.9, 1.08));
    const TABLES: [[f64; 3]; 6] = [
        [45.0, 70.0, 140.0], // blue cloth
        [35.0, 95.0, 55.0],  // green felt
        [150.0, 40.0, 40.0], // red cloth
        [225.0, 225.0, 220.0],
        [25.0, 25.0, 28.0],
        [110.0, 75.0, 50.0],
    ];
    if rng.chance(0.6) {
        look.table = TABLES[rng.below(TABLES.len())];
    }
    look.star_ring = rng.chance(0.3);
    look.gloss = rng.range(0.0, 1.0);
    look.white_tint = [
        rng.range(-12.0, 4.0),
        rng.range(-6.0, 6.0),
        rng.range(-2.0, 18.0),
    ];
    look.line_width = rng.range(0.03, 0.09);
}

/// Draws a camera pose that keeps the whole grid inside the photo and whose reading
/// orientation is unambiguous.
fn draw_camera(
    rng: &mut Rng,
    p: &Params,
    look: &Look,
    n: usize,
    opts: &SynthOptions,
) -> Result<(Camera, Orientation), VisionError> {
    let (w, h) = (opts.width as f64, opts.height as f64);
    let half = (n as f64 - 1.0) / 2.0;
    let extent = half + look.margin;
    for _ in 0..200 {
        let fov = rng.range(45.0, 65.0f64).to_radians();
        let f = (w / 2.0) / (fov / 2.0).tan();
        let tilt = rng.range(0.0, p.tilt).to_radians();
        let axis_angle = rng.range(0.0, 2.0 * PI);
        let mut spin = rng.range(-p.rotation, p.rotation);
        if p.quarter_turns && rng.chance(0.3) {
            spin += 90.0 * (1 + rng.below(3)) as f64;
        }
        let axis = Unit::new_normalize(Vector3::new(axis_angle.cos(), axis_angle.sin(), 0.0));
        let rot = Rotation3::from_axis_angle(&axis, tilt)
            * Rotation3::from_axis_angle(&Vector3::z_axis(), spin.to_radians());
        let fill = rng.range(p.fill.0, p.fill.1);
        let dist = f * 2.0 * extent / (fill * w.min(h));
        let shift = (1.0 - fill).max(0.0) * 0.4;
        let t = Vector3::new(
            rng.range(-shift, shift) * dist * w / f,
            rng.range(-shift, shift) * dist * h / f,
            dist,
        );
        let drawn_k1 = rng.range(0.0, p.distortion);
        let cam = Camera {
            rot: *rot.matrix(),
            t,
            f,
            cx: w / 2.0,
            cy: h / 2.0,
            k1: opts.distortion.unwrap_or(drawn_k1),
            diag: (w * w + h * h).sqrt() / 2.0,
        };
        let cell = cam.plane();
        let grid = |i: f64, j: f64| cell.apply(i - half, j - half);
        let step_px = {
            let (a, b) = (grid(half, half), grid(half + 1.0, half));
            (a.0 - b.0).hypot(a.1 - b.1)
        };
        let fits = [
            (-0.6, -0.6),
            (n as f64 - 0.4, -0.6),
            (-0.6, n as f64 - 0.4),
            (n as f64 - 0.4, n as f64 - 0.4),
        ]
        .iter()
        .all(|&(i, j)| {
            let (x, y) = cam.distort(grid(i, j).0, grid(i, j).1);
            x > 2.0 && y > 2.0 && x < w - 3.0 && y < h - 3.0
        });
        let (o, margin) = orient::orientation(n, grid);
        if fits && step_px >= 6.0 && margin > 0.08 * h {
            return Ok((cam, o));
        }
    }
    Err(VisionError::BadInput(format!(
        "cannot frame a {n}-line board in a {}×{} photo",
        opts.width, opts.height
    )))
}

/// The stones per grid index `(i, j)` (row-major in `j`): the given position mapped through
/// the orientation, or a random one with as many black stones as white or one more.
fn place_stones(
    rng: &mut Rng,
    p: &Params,
    n: usize,
    o: &Orientation,
    given: Option<&[Stone]>,
) -> Vec<Stone> {
    let mut reading = match given {
        Some(g) => g.to_vec(),
        None => {
            let count = (rng.range(0.0, p.density) * (n * n) as f64) as usize;
            let mut v = vec![Stone::Empty; n * n];
            let mut order: Vec<usize> = (0..n * n).collect();
            for k in (1..order.len()).rev() {
                order.swap(k, rng.below(k + 1));
            }
            for (k, &idx) in order.iter().take(count).enumerate() {
                v[idx] = if k % 2 == 0 {
                    Stone::Black
                } else {
                    Stone::White
                };
            }
            v
        }
    };
    let mut board = vec![Stone::Empty; n * n];
    for (k, s) in reading.drain(..).enumerate() {
        let (i, j) = o.map(k % n, k / n);
        board[j as usize * n + i as usize] = s;
    }
    board
}

/// Lighting gradient, glare, blur and sensor noise.
fn post_process(planes: &mut [Plane; 3], p: &Params, opts: &SynthOptions, rng: &mut Rng) {
    let (w, h) = (opts.width as usize, opts.height as usize);
    let scale = w as f64 / 640.0;
    let grad = rng.range(0.0, p.gradient);
    let dir = rng.range(0.0, 2.0 * PI);
    let glare = rng.range(0.0, p.glare);
    let (gx, gy) = (
        rng.range(0.2, 0.8) * w as f64,
        rng.range(0.2, 0.8) * h as f64,
    );
    let gs = rng.range(0.04, 0.1) * w as f64;
    let diag = ((w * w + h * h) as f64).sqrt();
    for y in 0..h {
        for x in 0..w {
            let t = ((x as f64 - w as f64 / 2.0) * dir.cos()
                + (y as f64 - h as f64 / 2.0) * dir.sin())
                / diag;
            let gain = 1.0 + grad * 2.0 * t;
            let d2 = (x as f64 - gx).powi(2) + (y as f64 - gy).powi(2);
            let add = glare * (-d2 / (2.0 * gs * gs)).exp();
            for pl in planes.iter_mut() {
                let v = &mut pl.data[y * w + x];
                *v = (*v as f64 * gain + add) as f32;
            }
        }
    }
    let sigma = rng.range(0.0, p.blur) * scale;
    if sigma > 0.3 {
        for pl in planes.iter_mut() {
            *pl = pl.blurred(sigma as f32);
        }
    }
    let noise = rng.range(0.0, p.noise);
    for pl in planes.iter_mut() {
        for v in pl.data.iter_mut() {
            *v += (noise * rng.gauss()) as f32;
        }
    }
}

fn jpeg_round_trip(
    planes: &[Plane; 3],
    w: u32,
    h: u32,
    quality: u8,
) -> Result<(Vec<u8>, RgbImage), VisionError> {
    let mut raw = Vec::with_capacity((w * h * 3) as usize);
    for k in 0..(w * h) as usize {
        for pl in planes {
            raw.push(pl.data[k].round().clamp(0.0, 255.0) as u8);
        }
    }
    let img = RgbImage::from_raw(w, h, raw).expect("buffer matches size");
    let mut jpeg = Vec::new();
    let enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, quality);
    img.write_with_encoder(enc)
        .map_err(|e| VisionError::BadInput(format!("JPEG encoding failed: {e}")))?;
    let decoded = image::load_from_memory_with_format(&jpeg, image::ImageFormat::Jpeg)
        .map_err(|e| VisionError::BadInput(format!("JPEG decoding failed: {e}")))?
        .into_rgb8();
    Ok((jpeg, decoded))
}
