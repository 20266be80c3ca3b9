//! The working image every locating step reads (downscaled luma and chroma, and the
//! thin-dark-line response), and the grid located in it.

use crate::homography::{GridMap, Homography};
use crate::plane::Plane;
use image::RgbImage;

/// The working image: downscaled luma and chroma, and the thin-dark-line response.
pub struct Work {
    pub factor: usize,
    pub response: Plane,
    pub luma: Plane,
    pub chroma: Plane,
}

/// Longest side of the working image; larger photos are box-downscaled by an integer factor.
const WORK_SIDE: usize = 800;

impl Work {
    pub fn new(img: &RgbImage) -> Work {
        let side = img.width().max(img.height()) as usize;
        let factor = side.div_ceil(WORK_SIDE).max(1);
        let (luma, chroma) = Plane::luma_chroma_downscaled(img, factor);
        let luma = luma.blurred(0.7);
        Work {
            factor,
            response: luma.relative_black_hat(3),
            luma,
            chroma,
        }
    }

    /// Working-image pixel → full-resolution pixel, as a homography.
    pub fn to_full(&self) -> Homography {
        let f = self.factor as f64;
        let o = (f - 1.0) / 2.0;
        Homography(nalgebra::Matrix3::new(f, 0.0, o, 0.0, f, o, 0.0, 0.0, 1.0))
    }
}

/// A located grid: `size` lines each way; `map` takes reading coordinates (column from the
/// left, row from the top, in grid steps) to working-image pixels.
#[derive(Debug, Clone)]
pub struct Located {
    pub size: usize,
    pub map: GridMap,
    /// How clearly the chosen grid lines are seen: their mean line evidence, 0 to 1.
    pub quality: f64,
}
