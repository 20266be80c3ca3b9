//! Where `boyi watch` gets its frames: a directory whose image files are read in name order
//! as they appear, an MJPEG stream over HTTP (IP cameras, phone camera apps), or a V4L2
//! camera (`/dev/video0`; the cargo feature `v4l2`, Linux only).

use anyhow::{Context, Result, bail};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// A frame's encoded bytes (JPEG or PNG) and a name for messages.
#[derive(Debug)]
pub struct Frame {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Largest frame accepted from a stream, bytes.
const MAX_FRAME_BYTES: usize = 32 << 20;
/// How often a directory is looked at for new files.
const POLL: Duration = Duration::from_millis(100);

/// A source of frames; `next` blocks until a frame comes, `None` when there are no more.
pub trait Frames {
    fn next(&mut self) -> Result<Option<Frame>>;
}

/// Opens `source`: an `http://` URL of an MJPEG stream, a V4L2 device under `/dev/`, or a
/// directory. `every` reads every frame of a stream in order (a recording); otherwise a slow
/// reader skips to the newest. `follow` waits for more files in a directory; otherwise those
/// present are read.
pub fn open(source: &str, follow: bool, every: bool) -> Result<Box<dyn Frames>> {
    if source.starts_with("/dev/") {
        return camera(source, every);
    }
    if source.starts_with("https://") {
        bail!("{source}: streams are read over plain http:// (cameras on the local network)");
    }
    if source.starts_with("http://") {
        return Ok(Box::new(Mjpeg::open(source, every)?));
    }
    let dir = PathBuf::from(source);
    if !dir.is_dir() {
        bail!("{source} is neither a directory of frames nor an http:// MJPEG stream");
    }
    Ok(Box::new(Directory {
        dir,
        follow,
        done: Default::default(),
        sizes: HashMap::new(),
    }))
}

/// Image files of a directory in name order, each once, as they appear. A file is taken once
/// its size has stayed the same between two looks (a camera program may still be writing
/// it).
struct Directory {
    dir: PathBuf,
    /// Keep looking for new files (otherwise end after those present).
    follow: bool,
    done: std::collections::HashSet<PathBuf>,
    sizes: HashMap<PathBuf, u64>,
}

fn is_image(p: &Path) -> bool {
    let ext = p
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    matches!(ext.as_deref(), Some("jpg" | "jpeg" | "png"))
}

impl Frames for Directory {
    fn next(&mut self) -> Result<Option<Frame>> {
        loop {
            let mut files: Vec<(PathBuf, u64)> = std::fs::read_dir(&self.dir)
                .with_context(|| format!("reading {}", self.dir.display()))?
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| is_image(p) && !self.done.contains(p))
                .filter_map(|p| std::fs::metadata(&p).ok().map(|m| (p, m.len())))
                .collect();
            files.sort();
            if let Some((path, size)) = files.first() {
                // Without following, the files are complete: no second look.
                let steady = !self.follow || self.sizes.get(path) == Some(size);
                if steady && *size > 0 {
                    self.done.insert(path.clone());
                    let bytes = std::fs::read(path)
                        .with_context(|| format!("reading {}", path.display()))?;
                    let name = path.file_name().map_or_else(
                        || path.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    );
                    return Ok(Some(Frame { name, bytes }));
                }
                self.sizes.insert(path.clone(), *size);
            } else if !self.follow {
                return Ok(None);
            }
            std::thread::sleep(POLL);
        }
    }
}

#[cfg(all(feature = "v4l2", target_os = "linux"))]
fn camera(path: &str, every: bool) -> Result<Box<dyn Frames>> {
    let mut camera = super::camera::Camera::open(path)?;
    if every {
        return Ok(Box::new(camera));
    }
    Ok(Box::new(Newest::spawn(move || {
        camera_frame(&mut camera).map(Some)
    })))
}

#[cfg(all(feature = "v4l2", target_os = "linux"))]
fn camera_frame(camera: &mut super::camera::Camera) -> Result<Frame> {
    let (n, bytes) = camera.next_frame()?;
    Ok(Frame {
        name: format!("frame {n}"),
        bytes,
    })
}

#[cfg(all(feature = "v4l2", target_os = "linux"))]
impl Frames for super::camera::Camera {
    fn next(&mut self) -> Result<Option<Frame>> {
        camera_frame(self).map(Some)
    }
}

#[cfg(not(all(feature = "v4l2", target_os = "linux")))]
fn camera(path: &str, _every: bool) -> Result<Box<dyn Frames>> {
    if cfg!(target_os = "linux") {
        bail!(
            "{path}: reading a camera device needs boyi built with the cargo feature v4l2 \
             (cargo build --release -p boyi --features v4l2); an MJPEG stream or a directory \
             of frames works without it"
        )
    }
    bail!("{path}: camera devices are read on Linux only (V4L2)")
}

/// The newest frame of a live source, read by a thread of its own: a slow reader skips
/// frames rather than falling behind.
struct Newest(Arc<(Mutex<Slot>, Condvar)>);

impl Newest {
    /// Reads `source` on a new thread until it ends (`None`) or fails.
    fn spawn(mut source: impl FnMut() -> Result<Option<Frame>> + Send + 'static) -> Newest {
        let latest: Arc<(Mutex<Slot>, Condvar)> = Arc::default();
        let shared = latest.clone();
        std::thread::spawn(move || {
            let ended = loop {
                match source() {
                    Ok(Some(frame)) => {
                        let (slot, ready) = &*shared;
                        slot.lock().expect("frame slot").frame = Some(frame);
                        ready.notify_one();
                    }
                    Ok(None) => break None,
                    Err(e) => break Some(format!("{e:#}")),
                }
            };
            let (slot, ready) = &*shared;
            slot.lock().expect("frame slot").ended = Some(ended);
            ready.notify_one();
        });
        Newest(latest)
    }
}

impl Frames for Newest {
    fn next(&mut self) -> Result<Option<Frame>> {
        let (slot, ready) = &*self.0;
        let mut s = slot.lock().expect("frame slot");
        loop {
            if let Some(f) = s.frame.take() {
                return Ok(Some(f));
            }
            match &s.ended {
                Some(None) => return Ok(None),
                Some(Some(e)) => bail!("the stream broke: {e}"),
                None => s = ready.wait(s).expect("frame slot"),
            }
        }
    }
}

/// An MJPEG stream: `multipart/x-mixed-replace` parts, each a JPEG. Live, only the newest
/// frame is kept ([`Newest`]).
enum Mjpeg {
    Every(Parts<ureq::BodyReader<'static>>),
    Newest(Newest),
}

#[derive(Default)]
struct Slot {
    frame: Option<Frame>,
    /// The stream ended (with the error, if any).
    ended: Option<Option<String>>,
}

impl Mjpeg {
    fn open(url: &str, every: bool) -> Result<Mjpeg> {
        let response = ureq::get(url)
            .call()
            .with_context(|| format!("opening the stream {url}"))?;
        let kind = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let boundary = boundary(&kind).with_context(|| {
            format!("{url} is not an MJPEG stream (content type {kind:?}, expected multipart/x-mixed-replace)")
        })?;
        let reader = response.into_body().into_reader();
        if every {
            return Ok(Mjpeg::Every(Parts::new(reader, boundary)));
        }
        let mut parts = Parts::new(reader, boundary);
        Ok(Mjpeg::Newest(Newest::spawn(move || parts.next_part())))
    }
}

impl Frames for Mjpeg {
    fn next(&mut self) -> Result<Option<Frame>> {
        match self {
            Mjpeg::Every(parts) => parts.next_part(),
            Mjpeg::Newest(newest) => newest.next(),
        }
    }
}

/// The multipart boundary named in a `Content-Type` header.
fn boundary(content_type: &str) -> Option<String> {
    if !content_type
        .to_ascii_lowercase()
        .starts_with("multipart/x-mixed-replace")
    {
        return None;
    }
    let b = content_type.split(';').find_map(|p| {
        let (k, v) = p.trim().split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("boundary")
            .then(|| v.trim().trim_matches('"'))
    })?;
    // Some cameras name the boundary with its leading dashes.
    Some(b.trim_start_matches("--").to_string()).filter(|b| !b.is_empty())
}

/// The parts of a multipart stream, read through a buffer of its own.
struct Parts<R: Read> {
    reader: R,
    buf: Vec<u8>,
    boundary: String,
    count: usize,
}

impl<R: Read> Parts<R> {
    fn new(reader: R, boundary: String) -> Parts<R> {
        Parts {
            reader,
            buf: Vec::new(),
            boundary,
            count: 0,
        }
    }

    /// Reads more of the stream into the buffer; false at its end.
    fn fill(&mut self) -> Result<bool> {
        let mut chunk = [0u8; 16 * 1024];
        let n = self.reader.read(&mut chunk).context("reading the stream")?;
        self.buf.extend_from_slice(&chunk[..n]);
        Ok(n > 0)
    }

    /// The first `n` buffered bytes, reading until there are that many.
    fn take(&mut self, n: usize) -> Result<Option<Vec<u8>>> {
        while self.buf.len() < n {
            if !self.fill()? {
                return Ok(None);
            }
        }
        let rest = self.buf.split_off(n);
        Ok(Some(std::mem::replace(&mut self.buf, rest)))
    }

    /// Everything before `marker` (which is left in the buffer), searched for in at most
    /// `limit` bytes; at the stream's end, everything left.
    fn until(&mut self, marker: &[u8], limit: usize) -> Result<Option<Vec<u8>>> {
        let mut from = 0;
        loop {
            if let Some(at) = self.buf[from..]
                .windows(marker.len())
                .position(|w| w == marker)
            {
                return self.take(from + at);
            }
            from = self.buf.len().saturating_sub(marker.len() - 1);
            if self.buf.len() > limit {
                bail!(
                    "no {:?} within {limit} bytes of the stream",
                    String::from_utf8_lossy(marker)
                );
            }
            if !self.fill()? {
                let rest = std::mem::take(&mut self.buf);
                return Ok((!rest.is_empty()).then_some(rest));
            }
        }
    }

    /// One line without its end, at most a few kilobytes (headers are short).
    fn line(&mut self) -> Result<Option<String>> {
        let Some(line) = self.until(b"\n", 8192)? else {
            return Ok(None);
        };
        self.take(1.min(self.buf.len()))?;
        Ok(Some(String::from_utf8_lossy(&line).trim().to_string()))
    }

    /// The next part's body; `None` at the end of the stream.
    fn next_part(&mut self) -> Result<Option<Frame>> {
        // Up to and over the boundary line, then the part's headers.
        loop {
            let Some(t) = self.line()? else {
                return Ok(None);
            };
            if t == format!("--{}--", self.boundary) {
                return Ok(None);
            }
            if t.trim_start_matches("--") == self.boundary {
                break;
            }
        }
        let mut length = None;
        loop {
            let Some(t) = self.line()? else {
                return Ok(None);
            };
            if t.is_empty() {
                break;
            }
            if let Some((k, v)) = t.split_once(':')
                && k.trim().eq_ignore_ascii_case("content-length")
            {
                length = Some(v.trim().parse::<usize>().with_context(|| {
                    format!("a frame's Content-Length {:?} is not a number", v.trim())
                })?);
            }
        }
        let bytes = match length {
            Some(n) if n > MAX_FRAME_BYTES => {
                bail!("a frame of {n} bytes is larger than {MAX_FRAME_BYTES}")
            }
            Some(n) => self.take(n)?.context("the stream ended inside a frame")?,
            None => {
                let marker = format!("\r\n--{}", self.boundary).into_bytes();
                match self.until(&marker, MAX_FRAME_BYTES)? {
                    Some(b) => b,
                    None => return Ok(None),
                }
            }
        };
        self.count += 1;
        Ok(Some(Frame {
            name: format!("frame {}", self.count),
            bytes,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multipart_parts_with_and_without_lengths() {
        let stream = b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: 5\r\n\r\nABCDE\r\n\
--frame\r\nContent-Type: image/jpeg\r\n\r\nxy\r\nz\r\n--frame\r\n\r\nlast\r\n--frame--\r\n";
        let mut parts = Parts::new(&stream[..], "frame".into());
        let mut got = Vec::new();
        while let Some(f) = parts.next_part().unwrap() {
            got.push(f.bytes);
        }
        assert_eq!(
            got,
            [b"ABCDE".to_vec(), b"xy\r\nz".to_vec(), b"last".to_vec()]
        );
        assert_eq!(
            boundary("multipart/x-mixed-replace; boundary=\"--myboundary\"").as_deref(),
            Some("myboundary")
        );
        assert_eq!(boundary("image/jpeg"), None);
        let mut bad = Parts::new(
            &b"--frame\r\nContent-Length: lots\r\n\r\n"[..],
            "frame".into(),
        );
        assert!(
            bad.next_part()
                .unwrap_err()
                .to_string()
                .contains("not a number")
        );
    }

    #[test]
    fn a_camera_device_that_cannot_be_opened_is_named() {
        let Err(e) = open("/dev/no-such-camera", true, false) else {
            panic!("opened a camera that does not exist");
        };
        let message = e.to_string();
        assert!(message.contains("/dev/no-such-camera"), "{message}");
        if cfg!(not(feature = "v4l2")) {
            assert!(message.contains("feature v4l2"), "{message}");
        }
    }
}
