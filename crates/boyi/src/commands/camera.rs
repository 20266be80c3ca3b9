//! A V4L2 camera (`/dev/video0`, a USB webcam) as a source of frames for `boyi watch`: the
//! cargo feature `v4l2`, Linux only. The camera is asked for its largest frames in Motion
//! JPEG (what most webcams send at high resolutions, passed on as they come), or else in
//! YUYV (converted here).

use anyhow::{Context, Result, bail};
use image::ImageEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use linuxvideo::format::{PixFormat, PixelFormat};
use linuxvideo::stream::ReadStream;
use linuxvideo::{BufType, Device};

/// The formats taken, preferred first.
const FORMATS: [PixelFormat; 3] = [PixelFormat::MJPG, PixelFormat::JPEG, PixelFormat::YUYV];

/// A capturing camera.
pub struct Camera {
    path: String,
    stream: ReadStream,
    shape: Shape,
    count: usize,
}

/// What the camera's frames hold.
#[derive(Clone, Copy)]
struct Shape {
    pixels: PixelFormat,
    width: u32,
    height: u32,
    /// Bytes a row.
    stride: u32,
}

fn fourcc(f: PixelFormat) -> String {
    String::from_utf8_lossy(&f.as_fourcc()).trim().to_string()
}

impl Camera {
    /// Opens the device at `path` and starts capturing.
    pub fn open(path: &str) -> Result<Camera> {
        let device = Device::open(path).with_context(|| format!("opening the camera {path}"))?;
        let offered = device
            .formats(BufType::VIDEO_CAPTURE)
            .map(|f| f.map(|f| f.pixel_format()))
            .collect::<std::io::Result<Vec<_>>>()
            .with_context(|| format!("{path}: listing its formats (is it a camera?)"))?;
        let Some(want) = FORMATS.into_iter().find(|f| offered.contains(f)) else {
            let names: Vec<String> = offered.into_iter().map(fourcc).collect();
            bail!(
                "{path} offers none of MJPG, JPEG or YUYV frames (it offers {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            );
        };
        // The driver picks its largest size for an impossible request.
        let capture = device
            .video_capture(PixFormat::new(u32::MAX, u32::MAX, want))
            .with_context(|| format!("{path}: setting the capture format"))?;
        let format = capture.format();
        let shape = Shape {
            pixels: format.pixel_format(),
            width: format.width(),
            height: format.height(),
            stride: format.bytes_per_line(),
        };
        if shape.pixels != want {
            bail!(
                "{path} was asked for {} frames and gives {}",
                fourcc(want),
                fourcc(shape.pixels)
            );
        }
        let stream = capture
            .into_stream()
            .with_context(|| format!("{path}: starting the capture"))?;
        Ok(Camera {
            path: path.to_string(),
            stream,
            shape,
            count: 0,
        })
    }

    /// Waits for the camera's next frame: its number (from 1) and its image.
    pub fn next_frame(&mut self) -> Result<(usize, Vec<u8>)> {
        let shape = self.shape;
        let bytes = self
            .stream
            .dequeue(|buf| {
                Ok(match shape.pixels {
                    PixelFormat::YUYV => yuyv_png(&buf, shape),
                    _ => Ok(buf.to_vec()),
                })
            })
            .with_context(|| format!("{}: reading a frame", self.path))??;
        self.count += 1;
        Ok((self.count, bytes))
    }
}

/// A YUYV frame (two pixels in four bytes: Y0 U Y1 V, BT.601 studio range) as a PNG, the
/// quickest to write of the formats the reader takes.
fn yuyv_png(data: &[u8], shape: Shape) -> Result<Vec<u8>> {
    let rgb = yuyv_to_rgb(
        data,
        shape.width as usize,
        shape.height as usize,
        shape.stride as usize,
    )?;
    let mut png = Vec::new();
    PngEncoder::new_with_quality(&mut png, CompressionType::Fast, FilterType::NoFilter)
        .write_image(
            &rgb,
            shape.width,
            shape.height,
            image::ExtendedColorType::Rgb8,
        )
        .context("encoding a camera frame")?;
    Ok(png)
}

/// RGB bytes of a YUYV frame of `width` × `height` pixels, `stride` bytes a row.
fn yuyv_to_rgb(data: &[u8], width: usize, height: usize, stride: usize) -> Result<Vec<u8>> {
    let stride = stride.max(2 * width);
    if !width.is_multiple_of(2) || data.len() < stride * height.saturating_sub(1) + 2 * width {
        bail!(
            "a YUYV frame of {} bytes does not hold {width}×{height} pixels",
            data.len()
        );
    }
    let mut rgb = Vec::with_capacity(3 * width * height);
    for row in 0..height {
        for q in data[row * stride..row * stride + 2 * width].chunks_exact(4) {
            let (d, e) = (i32::from(q[1]) - 128, i32::from(q[3]) - 128);
            for y in [q[0], q[2]] {
                let c = 298 * (i32::from(y) - 16) + 128;
                let clamp = |v: i32| (v >> 8).clamp(0, 255) as u8;
                rgb.extend([
                    clamp(c + 409 * e),
                    clamp(c - 100 * d - 208 * e),
                    clamp(c + 516 * d),
                ]);
            }
        }
    }
    Ok(rgb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yuyv_is_converted_and_short_frames_are_refused() {
        // Black, white, then a pure red pair (Y 82, U 90, V 240).
        let frame = [16, 128, 235, 128, 82, 90, 82, 240];
        let rgb = yuyv_to_rgb(&frame, 4, 1, 8).unwrap();
        assert_eq!(&rgb[..6], &[0, 0, 0, 255, 255, 255]);
        assert!(rgb[6] > 250 && rgb[7] < 5 && rgb[8] < 5, "{rgb:?}");
        assert!(yuyv_to_rgb(&frame, 4, 2, 8).is_err());
        assert!(yuyv_to_rgb(&frame, 3, 1, 8).is_err());
    }
}
