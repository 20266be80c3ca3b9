//! Reading grid board positions (Go, Gomoku, Connect6 and Jiu boards) from photos, and a
//! synthetic board-photo generator to measure how well that works.
//!
//! The reader ([`read_board`]) runs: lighting-independent thin-line response → the likely
//! board region (where lines run two ways) → Hough lines → two combs of evenly spaced lines
//! (RANSAC over neighbouring triples) → homography from all comb lines → grid extent from
//! line evidence → least-squares refinement, with a radial lens term, over points found
//! along every grid line → stone classification against the nearby bare wood. Pure Rust.

pub mod classify;
pub mod extent;
pub mod homography;
pub mod hough;
pub mod lattice;
pub mod locate;
pub mod orient;
pub mod pencil;
pub mod plane;
pub mod probe;
pub mod refine;
pub mod region;
pub mod sequence;
pub mod stone_lattice;
pub mod synth;
pub mod watch;
pub mod work;

use homography::GridMap;
use image::RgbImage;
use std::path::Path;

/// What stands on an intersection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stone {
    Empty,
    Black,
    White,
}

impl Stone {
    /// `.` empty, `x` black, `o` white.
    pub fn symbol(self) -> char {
        match self {
            Stone::Empty => '.',
            Stone::Black => 'x',
            Stone::White => 'o',
        }
    }

    pub fn from_symbol(c: char) -> Option<Stone> {
        match c {
            '.' => Some(Stone::Empty),
            'x' | 'X' => Some(Stone::Black),
            'o' | 'O' => Some(Stone::White),
            _ => None,
        }
    }
}

/// Why a photo could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VisionError {
    #[error("cannot read image {path}: {reason}")]
    Image { path: String, reason: String },
    #[error("no board found: {0}")]
    NoBoard(String),
    #[error("{0}")]
    BadInput(String),
    #[error(
        "the image is {width}×{height} pixels ({:.1} megapixels), more than the {:.1} megapixels allowed",
        (*width as f64) * (*height as f64) / 1e6,
        *max_pixels as f64 / 1e6
    )]
    TooLarge {
        width: u32,
        height: u32,
        max_pixels: u64,
    },
}

/// How to read a photo.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// Lines each way, if known (otherwise found from the photo).
    pub size: Option<usize>,
    /// The four outer grid corners in photo pixels, any order, when automatic location fails.
    pub corners: Option<[(f64, f64); 4]>,
}

/// One intersection as read.
#[derive(Debug, Clone, Copy)]
pub struct PointRead {
    pub stone: Stone,
    /// 0.5 is a guess, 1.0 certain.
    pub confidence: f64,
    /// Where the intersection is in the photo (pixels).
    pub x: f64,
    pub y: f64,
    pub features: classify::Features,
}

/// A board read from a photo, in reading orientation: row 0 is the top row.
#[derive(Debug, Clone)]
pub struct BoardRead {
    pub size: usize,
    /// Reading coordinates (column from the left, row from the top) → photo pixels: the
    /// board plane's homography seen through the fitted lens distortion.
    pub map: GridMap,
    /// Row-major, top row first.
    pub points: Vec<PointRead>,
}

impl BoardRead {
    pub fn at(&self, col: usize, row: usize) -> &PointRead {
        &self.points[row * self.size + col]
    }

    /// The outer grid corners in photo pixels: top-left, top-right, bottom-right, bottom-left.
    pub fn corners(&self) -> [(f64, f64); 4] {
        let m = (self.size - 1) as f64;
        [(0.0, 0.0), (m, 0.0), (m, m), (0.0, m)].map(|(c, r)| self.map.apply(c, r))
    }

    /// The rows of the position text (rules/positions.md): top row first, `/`-separated,
    /// runs of empty points as numbers.
    pub fn position_rows(&self) -> String {
        position_rows(self.size, &self.stones())
    }

    /// One string per row, top row first: `.` empty, `x` black, `o` white.
    pub fn rows(&self) -> Vec<String> {
        self.points
            .chunks(self.size)
            .map(|row| row.iter().map(|p| p.stone.symbol()).collect())
            .collect()
    }

    pub fn stones(&self) -> Vec<Stone> {
        self.points.iter().map(|p| p.stone).collect()
    }
}

/// The rows of the position text (rules/positions.md) of `stones` on an `n`-line board in
/// reading order: top row first, `/`-separated, runs of empty points as numbers.
pub fn position_rows(n: usize, stones: &[Stone]) -> String {
    let rows: Vec<String> = stones
        .chunks(n.max(1))
        .map(|row| {
            let mut s = String::new();
            let mut run = 0;
            for &p in row {
                if p == Stone::Empty {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    s += &run.to_string();
                    run = 0;
                }
                s.push(p.symbol());
            }
            if run > 0 {
                s += &run.to_string();
            }
            s
        })
        .collect();
    rows.join("/")
}

/// A grid found a line short on a side where the crossing lines run on past its outer line
/// grows over that line when the line is seen, or when stones of both colours stand on it
/// (what hides a line all along; a table, a bowl or a board's rim may read as stones of one
/// colour, and printed coordinate labels as none). `full` maps the located grid into `img`.
fn over_missed_edges(
    img: &RgbImage,
    work: &work::Work,
    found: work::Located,
    full: impl Fn(&GridMap) -> GridMap,
) -> Result<work::Located, VisionError> {
    let past = extent::lines_past_edges(work, &found);
    if past.iter().all(Option::is_none) {
        return Ok(found);
    }
    let stones = classify::stones_past_edges(img, &full(&found.map), found.size);
    let grow = std::array::from_fn(|side| match past[side] {
        Some(seen) => seen || stones[side].iter().all(|&k| k >= 2),
        None => false,
    });
    extent::grown(found, grow)
}

/// The most pixels an image may have to be decoded at all, by default (40 megapixels: a
/// phone's largest photos fit; a small file claiming a huge image is refused before any
/// memory is taken for it).
pub const MAX_PIXELS: u64 = 40_000_000;

/// Decodes an image file (PNG or JPEG) into RGB, refusing one of more than [`MAX_PIXELS`].
pub fn load_image(path: &Path) -> Result<RgbImage, VisionError> {
    load_image_within(path, MAX_PIXELS)
}

/// Decodes an image file (PNG or JPEG) into RGB, refusing one of more than `max_pixels`
/// before decoding it.
pub fn load_image_within(path: &Path, max_pixels: u64) -> Result<RgbImage, VisionError> {
    let bytes = std::fs::read(path).map_err(|e| VisionError::Image {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    decode_image(&bytes, max_pixels).map_err(|e| match e {
        VisionError::Image { reason, .. } => VisionError::Image {
            path: path.display().to_string(),
            reason,
        },
        other => other,
    })
}

/// Decodes a PNG or JPEG held in memory into RGB. The image's size is read from its header
/// first: one of more than `max_pixels` is refused before any pixel is decoded, and the
/// decoder may allocate no more than such an image needs.
pub fn decode_image(bytes: &[u8], max_pixels: u64) -> Result<RgbImage, VisionError> {
    let err = |reason: String| VisionError::Image {
        path: "(upload)".into(),
        reason,
    };
    let reader = || {
        let r = image::ImageReader::new(std::io::Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| err(e.to_string()))?;
        match r.format() {
            Some(image::ImageFormat::Png | image::ImageFormat::Jpeg) => Ok(r),
            Some(f) => Err(err(format!("{f:?} images are not read (JPEG or PNG only)"))),
            None => Err(err("not a JPEG or PNG image".into())),
        }
    };
    let (w, h) = reader()?
        .into_dimensions()
        .map_err(|e| err(e.to_string()))?;
    let pixels = w as u64 * h as u64;
    if pixels > max_pixels {
        return Err(VisionError::TooLarge {
            width: w,
            height: h,
            max_pixels,
        });
    }
    let mut r = reader()?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(w);
    limits.max_image_height = Some(h);
    // Room for the decoded image at up to 16 bits a channel with alpha, and the RGB copy.
    limits.max_alloc = Some(pixels * 11 + (16 << 20));
    r.limits(limits);
    let img = r.decode().map_err(|e| err(e.to_string()))?;
    Ok(img.into_rgb8())
}

/// Finds the board in a photo and reads every intersection.
pub fn read_board(img: &RgbImage, opts: &ReadOptions) -> Result<BoardRead, VisionError> {
    if img.width() < 64 || img.height() < 64 {
        return Err(VisionError::BadInput(format!(
            "the image is {}×{} pixels, too small to hold a readable board",
            img.width(),
            img.height()
        )));
    }
    if let Some(n) = opts.size
        && !(5..=26).contains(&n)
    {
        return Err(VisionError::BadInput(format!(
            "board size {n} is not in 5..=26"
        )));
    }
    let work = work::Work::new(img);
    let located = match &opts.corners {
        Some(c) => {
            let to_work = work.to_full().inverse().expect("scaling is invertible");
            locate::from_corners(&work, &c.map(|(x, y)| to_work.apply(x, y)), opts.size)?
        }
        None => locate::locate(&work, opts.size)?,
    };
    let to_full = work.to_full();
    let full = |map: &GridMap| GridMap {
        h: map.h.then(&to_full),
        lens: map.lens.scaled(&to_full),
    };
    let located = match (&opts.corners, opts.size) {
        (None, None) => over_missed_edges(img, &work, located, full)?,
        _ => located,
    };
    let h = full(&located.map);
    let n = located.size;
    let features = classify::measure(img, &h, n);
    let calls = classify::decide_all(&features);
    let points = features
        .iter()
        .zip(calls)
        .enumerate()
        .map(|(k, (f, (stone, confidence)))| {
            let (x, y) = h.apply((k % n) as f64, (k / n) as f64);
            PointRead {
                stone,
                confidence,
                x,
                y,
                features: *f,
            }
        })
        .collect();
    Ok(BoardRead {
        size: n,
        map: h,
        points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jpeg(img: &RgbImage) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
        out.into_inner()
    }

    #[test]
    fn images_are_measured_before_they_are_decoded() {
        let img = RgbImage::from_pixel(300, 200, image::Rgb([200, 170, 120]));
        let bytes = jpeg(&img);
        assert_eq!(
            decode_image(&bytes, 60_000).unwrap().dimensions(),
            (300, 200)
        );
        assert_eq!(
            decode_image(&bytes, 59_999).unwrap_err(),
            VisionError::TooLarge {
                width: 300,
                height: 200,
                max_pixels: 59_999
            }
        );
        // A header claiming 20000×20000 pixels in a file of a few hundred bytes.
        let mut huge = jpeg(&RgbImage::new(16, 16));
        let sof = huge.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        huge[sof + 5..sof + 9].copy_from_slice(&[0x4E, 0x20, 0x4E, 0x20]);
        let err = decode_image(&huge, MAX_PIXELS).unwrap_err().to_string();
        assert!(
            err.contains("20000×20000 pixels (400.0 megapixels)"),
            "{err}"
        );
        assert!(decode_image(b"GIF89a....", MAX_PIXELS).is_err());
    }
}
