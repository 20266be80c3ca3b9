//! Finding the grid: line response, Hough lines, combs of evenly spaced lines, a first
//! homography from those lines, then the grid's extent and a least-squares refinement over
//! points sampled along every grid line.

use crate::VisionError;
use crate::homography::{self, GridMap, Homography, Lens, LinePoint};
use crate::hough::{self, Line};
use crate::lattice::{self, Family};
use crate::orient;
use crate::pencil::{self, Pencil};
use crate::plane::Plane;
use crate::stone_lattice;
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

/// One way of looking for the grid's lines: only in the likely board region (which keeps
/// streaky tables out) or anywhere, and whether the line response is capped for the Hough
/// votes (at a multiple of the response threshold).
struct Attempt {
    in_region: bool,
    cap: Option<f32>,
}

/// The ways tried, in order, until one sees its grid clearly. The capped response comes
/// last: on a crowded board the rims of white stones answer far more strongly than the thin
/// grid lines, and rows of stones then outvote the lines themselves; capped, each pixel of a
/// line counts as much as a pixel of a rim.
const ATTEMPTS: [Attempt; 4] = [
    Attempt {
        in_region: true,
        cap: None,
    },
    Attempt {
        in_region: false,
        cap: None,
    },
    Attempt {
        in_region: true,
        cap: Some(2.0),
    },
    Attempt {
        in_region: false,
        cap: Some(2.0),
    },
];

/// Quality (see [`Located::quality`]) at which a located grid is taken without trying the
/// other ways.
const CLEAR: f64 = 0.45;

/// Quality under which a located grid is not trusted: its lines are hardly there, so it is
/// texture or a misfit, and reading stones through it would report a wrong position.
const FAINT: f64 = 0.3;

/// Finds the grid automatically: each way of [`ATTEMPTS`] in turn, until one sees its grid
/// clearly; otherwise the grid seen most clearly.
pub fn locate(work: &Work, size: Option<usize>) -> Result<Located, VisionError> {
    let mut best: Option<Located> = None;
    let mut first_error = None;
    for attempt in &ATTEMPTS {
        match locate_with(work, size, attempt) {
            Ok(found) => {
                if best.as_ref().is_none_or(|b| found.quality > b.quality) {
                    best = Some(found);
                }
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
        if best.as_ref().is_some_and(|b| b.quality >= CLEAR) {
            break;
        }
    }
    // Stones may hide so much of every line that no way of finding lines sees the grid; the
    // stones themselves then mark it.
    if best.as_ref().is_none_or(|b| b.quality < CLEAR)
        && let Ok(found) = locate_by_stones(work, size)
        && best.as_ref().is_none_or(|b| found.quality > b.quality)
    {
        best = Some(found);
    }
    match (best, first_error) {
        (Some(found), _) if found.quality < FAINT => Err(VisionError::NoBoard(format!(
            "the best grid found is too faintly seen to trust (line evidence {:.2})",
            found.quality
        ))),
        (Some(found), _) => Ok(found),
        (None, Some(e)) => Err(e),
        (None, None) => Err(VisionError::NoBoard("nothing tried".into())),
    }
}

fn locate_with(
    work: &Work,
    size: Option<usize>,
    attempt: &Attempt,
) -> Result<Located, VisionError> {
    let r = &work.response;
    let threshold = percentile(&r.data, 0.96).max(0.035) * 0.6;
    let cap = attempt.cap.map_or(f32::INFINITY, |c| c * threshold);
    let lines = hough::detect_lines(r, threshold, cap, 400, attempt.in_region);
    let no_board = |why: &str| VisionError::NoBoard(why.to_string());
    let fams = lattice::split_families(&lines).ok_or_else(|| no_board("no straight lines"))?;
    let (cx, cy) = (r.w as f64 / 2.0, r.h as f64 / 2.0);
    let limit = (cx * cx + cy * cy).sqrt();
    let fit = |ls: &[Line]| lattice::fit_family(ls, cx, cy, limit, 4.0);
    let combs = [fit(&fams[0]), fit(&fams[1])];
    let mut best: Option<Extent> = None;
    let mut err = no_board("no evenly spaced grid lines");
    let mut consider = |start: Option<Start>, best: &mut Option<Extent>| {
        let Some((h, spans)) = start else { return };
        let map = GridMap {
            h,
            lens: Lens::none(r.w as f64, r.h as f64),
        };
        let (map, spans) = densify(r, map, spans);
        match extent(work, &map, spans, size) {
            Ok(e) if best.as_ref().is_none_or(|b| e.2 > b.2) => *best = Some(e),
            Ok(_) => {}
            Err(e) => err = e,
        }
    };
    if let (Some(fa), Some(fb)) = (&combs[0], &combs[1]) {
        let start = initial_homography(fa, fb, (cx, cy), limit).map(|h| (h, [span(fa), span(fb)]));
        consider(start, &mut best);
    }
    // When the two combs do not make a clear grid, one of them is often still right (stones
    // break up the lines of the other direction): each comb in turn finds the other direction.
    for (f, comb) in combs.iter().enumerate() {
        if best.as_ref().is_some_and(|b| b.2 >= CLEAR) {
            break;
        }
        if let Some(fam) = comb {
            let cap = PENCIL_CAP * threshold;
            consider(cross_start(r, fam, f, (cx, cy), limit, cap), &mut best);
        }
    }
    let (map, ranges, quality) = best.ok_or(err)?;
    finish(r, map, ranges, quality)
}

/// Cap on the line response when one direction's lines are found from the other's pencil, as
/// a multiple of the response threshold (see [`pencil::find_other`]).
const PENCIL_CAP: f32 = 2.0;

/// The grid from a lattice of stone centres (see [`stone_lattice`]), at each blob scale in
/// turn; the grid whose lines are seen most clearly.
fn locate_by_stones(work: &Work, size: Option<usize>) -> Result<Located, VisionError> {
    let r = &work.response;
    let mut best: Option<Extent> = None;
    let mut err = VisionError::NoBoard("no lattice of stones".into());
    for blobs in stone_lattice::blobs(&work.luma, &work.chroma) {
        let Some(found) = stone_lattice::fit(&blobs) else {
            continue;
        };
        let map = GridMap {
            h: found.h,
            lens: Lens::none(r.w as f64, r.h as f64),
        };
        // Stones stand a little off their points (by their height, towards the camera's
        // up), so the lattice is first snapped to the lines found near it.
        let map = refine(r, &map, found.spans).unwrap_or(map);
        let (map, spans) = densify(r, map, found.spans);
        match extent(work, &map, spans, size) {
            Ok(e) if best.as_ref().is_none_or(|b| e.2 > b.2) => best = Some(e),
            Ok(_) => {}
            Err(e) => err = e,
        }
    }
    let (map, ranges, quality) = best.ok_or(err)?;
    finish(r, map, ranges, quality)
}

/// A first homography and the index range it found per family.
type Start = (Homography, [(i32, i32); 2]);

/// A grid from one direction's comb alone: the other direction found from it (see
/// [`pencil`]), then the first found again from the second.
fn cross_start(
    r: &Plane,
    fam: &Family,
    f: usize,
    centre: (f64, f64),
    limit: f64,
    cap: f32,
) -> Option<Start> {
    let pts = family_points(fam, f, centre, limit);
    let p0 = Pencil::fit(&pts)?;
    let first = pencil::find_other(r, p0, f, span(fam), cap)?;
    // The first pencil may rest on a few Hough lines, some of them wrong, and its horizon is
    // then off: the second search uses the new lines' own pencil, fitted to the points found
    // along them.
    let p1 = Pencil::fit(&first.points).unwrap_or(Pencil::of(&first.g, 1 - f));
    let again = pencil::find_other(r, p1, 1 - f, first.span, cap)?;
    let mut spans = [(0, 0); 2];
    spans[f] = again.span;
    spans[1 - f] = first.span;
    let g2 = again.g;
    Some((Homography(g2.try_inverse()?), spans))
}

/// Two points of each comb line (a quarter of `limit` either side of its point nearest
/// `centre`), on grid line `index` of family `family`.
fn family_points(fam: &Family, family: usize, centre: (f64, f64), limit: f64) -> Vec<LinePoint> {
    let mut pts = Vec::new();
    for &(line, index) in &fam.lines {
        let (fx, fy) = line.foot(centre.0, centre.1);
        let (dx, dy) = line.direction();
        for s in [-0.25, 0.25] {
            pts.push(LinePoint {
                x: fx + s * limit * dx,
                y: fy + s * limit * dy,
                family,
                index: index as f64,
                weight: 1.0,
            });
        }
    }
    pts
}

/// Uses four hand-given corners (working-image pixels, any order around the board).
pub fn from_corners(
    work: &Work,
    corners: &[(f64, f64); 4],
    size: Option<usize>,
) -> Result<Located, VisionError> {
    let r = &work.response;
    let sizes: Vec<usize> = match size {
        Some(n) => vec![n],
        None => (5..=26).collect(),
    };
    let corners = &cyclic(corners);
    let mut best: Option<(f64, usize, GridMap, f64)> = None;
    for n in sizes {
        let m = (n - 1) as f64;
        let Some(h) = Homography::from_four(&[(0.0, 0.0), (m, 0.0), (m, m), (0.0, m)], corners)
        else {
            return Err(VisionError::BadInput(
                "the four corners are degenerate".into(),
            ));
        };
        let h = GridMap {
            h,
            lens: Lens::none(r.w as f64, r.h as f64),
        };
        let on = (0..n)
            .flat_map(|k| [0, 1].map(|f| probe(r, &h, f, k as f64, (0.0, m), MIN_PEAK).fraction()))
            .sum::<f64>()
            / (2 * n) as f64;
        let mid = (0..n - 1)
            .flat_map(|k| {
                [0, 1].map(|f| probe(r, &h, f, k as f64 + 0.5, (0.0, m), MIN_PEAK).fraction())
            })
            .sum::<f64>()
            / (2 * n - 2) as f64;
        let s = on - mid;
        if best.as_ref().is_none_or(|b| s > b.0) {
            best = Some((s, n, h, on));
        }
    }
    let (_, n, h, on) = best.ok_or_else(|| VisionError::BadInput("no board size to try".into()))?;
    let m = n as i32 - 1;
    finish(r, h, [(0, m), (0, m)], on)
}

/// The corners sorted by angle around their centroid, so consecutive ones share an edge.
fn cyclic(corners: &[(f64, f64); 4]) -> [(f64, f64); 4] {
    let cx = corners.iter().map(|c| c.0).sum::<f64>() / 4.0;
    let cy = corners.iter().map(|c| c.1).sum::<f64>() / 4.0;
    let mut out = *corners;
    out.sort_by(|a, b| {
        (a.1 - cy)
            .atan2(a.0 - cx)
            .total_cmp(&(b.1 - cy).atan2(b.0 - cx))
    });
    out
}

fn span(f: &Family) -> (i32, i32) {
    let lo = f.lines.iter().map(|l| l.1).min().unwrap_or(0);
    let hi = f.lines.iter().map(|l| l.1).max().unwrap_or(0);
    (lo, hi)
}

/// The homography from the Hough lines of both combs (see [`family_points`]).
fn initial_homography(
    fa: &Family,
    fb: &Family,
    centre: (f64, f64),
    limit: f64,
) -> Option<Homography> {
    let mut pts = family_points(fa, 0, centre, limit);
    pts.extend(family_points(fb, 1, centre, limit));
    homography::fit_from_line_points(&pts)
}

/// A comb can lock onto every other grid line when stones hide many lines. If the half-way
/// lines are about as well supported as the comb's own, and the comb with half the step is
/// as well supported as before, the step is halved.
fn densify(r: &Plane, mut h: GridMap, mut spans: [(i32, i32); 2]) -> (GridMap, [(i32, i32); 2]) {
    let support = |h: &GridMap, spans: &[(i32, i32); 2], f: usize, offset: f64| {
        let other = spans[1 - f];
        let (lo, hi) = spans[f];
        (lo..hi)
            .map(|k| {
                let along = (other.0 as f64, other.1 as f64);
                probe(r, h, f, k as f64 + offset, along, MIN_PEAK).fraction()
            })
            .sum::<f64>()
            / (hi - lo).max(1) as f64
    };
    for f in 0..2 {
        for _ in 0..2 {
            let on = support(&h, &spans, f, 0.0);
            if on <= 0.0 || support(&h, &spans, f, 0.5) < 0.6 * on {
                break;
            }
            let mut half = nalgebra::Matrix3::identity();
            half[(f, f)] = 0.5;
            let h2 = h.after(&half);
            let mut spans2 = spans;
            spans2[f] = (2 * spans[f].0, 2 * spans[f].1);
            if support(&h2, &spans2, f, 0.0) < 0.8 * on {
                break;
            }
            (h, spans) = (h2, spans2);
        }
    }
    (h, spans)
}

/// What probing across a candidate grid line found.
pub struct Probed {
    /// Probes made (inside the photo).
    pub tries: usize,
    /// Probes that found a thin dark line within [`NEAR`] grid steps of the prediction.
    pub hits: usize,
    /// The image points of every line found within [`WINDOW`] steps.
    pub found: Vec<LinePoint>,
}

/// Half-width of the window searched across a candidate line, in grid steps.
const WINDOW: f64 = 0.3;
/// How near the prediction a found line counts as a hit, in grid steps.
const NEAR: f64 = 0.12;

impl Probed {
    /// The fraction of probes that hit.
    pub fn fraction(&self) -> f64 {
        if self.tries == 0 {
            0.0
        } else {
            self.hits as f64 / self.tries as f64
        }
    }

    /// Hits beyond chance, scaled so that a line found by every probe scores 1: texture or
    /// noise puts its strongest dark speck anywhere in the window, so it hits the middle
    /// `NEAR / WINDOW` of the time; a grid line hits every time it is seen.
    pub fn excess(&self) -> f64 {
        let chance = NEAR / WINDOW;
        let misses = (self.found.len() - self.hits) as f64;
        let excess = self.hits as f64 - chance / (1.0 - chance) * misses;
        (excess / self.tries.max(1) as f64).max(0.0)
    }
}

/// Looks for grid line `family`/`k` (`x = k` or `y = k`) between `s_lo` and `s_hi` along it,
/// three probes per cell across the line.
pub fn probe(
    r: &Plane,
    h: &GridMap,
    family: usize,
    k: f64,
    (s_lo, s_hi): (f64, f64),
    min_peak: f32,
) -> Probed {
    let at = |u: f64, s: f64| {
        if family == 0 {
            h.apply(u, s)
        } else {
            h.apply(s, u)
        }
    };
    let mut found = Vec::new();
    let (mut tries, mut hits) = (0usize, 0usize);
    let cells = (s_hi - s_lo).round().max(1.0) as usize;
    for c in 0..cells {
        for frac in [0.25, 0.5, 0.75] {
            let s = s_lo + c as f64 + frac;
            let p0 = at(k - WINDOW, s);
            let p1 = at(k + WINDOW, s);
            if !inside(r, p0) || !inside(r, p1) {
                continue;
            }
            tries += 1;
            let len = (p1.0 - p0.0).hypot(p1.1 - p0.1);
            let n = ((len / 0.5) as usize).clamp(6, 120);
            let vals: Vec<f32> = (0..=n)
                .map(|j| {
                    let t = j as f64 / n as f64;
                    r.sample(p0.0 + t * (p1.0 - p0.0), p0.1 + t * (p1.1 - p0.1))
                })
                .collect();
            let Some(j) = (0..=n).max_by(|&a, &b| vals[a].total_cmp(&vals[b])) else {
                continue;
            };
            let peak = vals[j];
            let ends = (vals[0] + vals[n]) / 2.0;
            if peak < min_peak || peak < 2.0 * ends + 0.01 || j == 0 || j == n {
                continue;
            }
            let (a, b, c2) = (vals[j - 1] as f64, peak as f64, vals[j + 1] as f64);
            let den = a - 2.0 * b + c2;
            let sub = if den < -1e-9 {
                0.5 * (a - c2) / den
            } else {
                0.0
            };
            let t = (j as f64 + sub) / n as f64;
            let u = WINDOW * (2.0 * t - 1.0);
            if u.abs() < NEAR {
                hits += 1;
            }
            found.push(LinePoint {
                x: p0.0 + t * (p1.0 - p0.0),
                y: p0.1 + t * (p1.1 - p0.1),
                family,
                index: k,
                weight: peak as f64,
            });
        }
    }
    Probed { tries, hits, found }
}

fn inside(r: &Plane, p: (f64, f64)) -> bool {
    p.0 >= 1.0 && p.1 >= 1.0 && p.0 <= r.w as f64 - 2.0 && p.1 <= r.h as f64 - 2.0
}

/// The median luma and chroma at the centres of the cells along the strip `u` (a half-integer
/// index of family `f`, so no stone lies there: stones are centred on the points, and drawn
/// only a little off them by their height); `None` when most of the strip is outside the photo.
fn strip_colour(
    work: &Work,
    h: &GridMap,
    f: usize,
    u: f64,
    other: (i32, i32),
) -> Option<(f32, f32)> {
    let at = |s: f64| if f == 0 { h.apply(u, s) } else { h.apply(s, u) };
    let cells = (other.1 - other.0).max(0) as usize;
    let (mut l, mut c): (Vec<f32>, Vec<f32>) = (other.0..other.1)
        .map(|j| at(j as f64 + 0.5))
        .filter(|&p| inside(&work.luma, p))
        .map(|p| (work.luma.sample(p.0, p.1), work.chroma.sample(p.0, p.1)))
        .unzip();
    if l.is_empty() || 2 * l.len() < cells {
        return None;
    }
    Some((median(&mut l), median(&mut c)))
}

/// How unlike two strips' colours are: the log-ratios of their luma and of their chroma.
fn colour_distance(a: (f32, f32), b: (f32, f32)) -> f64 {
    ((a.0.max(1.0) / b.0.max(1.0)).ln().abs() + ((a.1 + 8.0) / (b.1 + 8.0)).ln().abs()) as f64
}

/// How far either side of a candidate line its sides are sampled, in grid steps. Real boards
/// may leave a margin of under half a step beyond the edge lines, so the outer side of an
/// edge line is sampled nearer than half a step, to fall on the board. 0.4 steps across and
/// half a step along the line keeps the samples 0.64 steps from the nearest points, clear of
/// stones (under half a step across) even when drawn a little off their points.
const SIDE: f64 = 0.4;

/// How unlike the two sides of candidate line `k` are (see [`strip_colour`]). Both sides of a
/// grid line are the board; a board edge has the table on one side.
fn sides_differ(work: &Work, h: &GridMap, f: usize, k: i32, other: (i32, i32)) -> f64 {
    let side = |u: f64| strip_colour(work, h, f, u, other);
    match (side(k as f64 - SIDE), side(k as f64 + SIDE)) {
        (Some(a), Some(b)) => colour_distance(a, b),
        _ => 0.0,
    }
}

/// For each outer line of the chosen grid (low and high index of family 0, then of family 1),
/// how unlike its inner cells are the cells a step and a half beyond it: past the board's
/// margin (under a step wide), so on the table when the line is the board's edge. `None` when
/// those cells are outside the photo.
fn beyond_edges(work: &Work, h: &GridMap, ranges: [(i32, i32); 2]) -> [Option<f64>; 4] {
    let mut out = [None; 4];
    for f in 0..2 {
        let other = ranges[1 - f];
        let (lo, hi) = (ranges[f].0 as f64, ranges[f].1 as f64);
        for (s, (inner, outer)) in [(lo + 0.5, lo - 1.5), (hi - 0.5, hi + 1.5)]
            .into_iter()
            .enumerate()
        {
            let a = strip_colour(work, h, f, inner, other);
            let b = strip_colour(work, h, f, outer, other);
            out[2 * f + s] = a.zip(b).map(|(a, b)| colour_distance(a, b));
        }
    }
    out
}

/// Whether candidate line `k` has the board on both sides (1) or looks like the board's edge
/// (0), from [`sides_differ`]: grid lines stay under about 0.4, edges of a board on a table
/// of another colour or brightness are over 1. (On a table much like the board the test does
/// not tell, and the other evidence decides.)
fn board_both_sides(work: &Work, h: &GridMap, f: usize, k: i32, other: (i32, i32)) -> f64 {
    ((1.0 - sides_differ(work, h, f, k, other)) / 0.4).clamp(0.0, 1.0)
}

/// Line evidence (see [`crossing_run`]) past an outer line over which the grid runs on,
/// absolute and relative to the same evidence a step inside. Past a board's true edge lines
/// the crossing lines stop (under 0.11 on the photos tried); stone rims on a crowded edge
/// line can mimic them up to about 0.26, 0.4 of the evidence inside; where a line was
/// missed they run on to it at 0.35 or more, three quarters of the evidence inside or more.
/// Coordinate labels printed a step past the edge of a diagram mimic them too, but no line
/// runs along them.
const RUNS_ON: f64 = 0.2;
const RUNS_ON_SHARE: f64 = 0.6;

/// Line evidence of the line past an outer line itself, over which it is seen.
const SEEN: f64 = 0.2;

/// An outer line can be missed where stones hide it, or where the margin beyond it is too
/// narrow for the test of the board on both sides of a line (the far edge of a thick board
/// seen from above it). The crossing lines still run on to it. For each side (left, right,
/// top, bottom): `None` where they stop at the outer line, else whether the line past it is
/// seen itself (when it is not, only stones on it tell it from printed labels).
pub fn lines_past_edges(work: &Work, found: &Located) -> [Option<bool>; 4] {
    let n = found.size;
    let (r, h) = (&work.response, &found.map);
    let all = (0, n as i32 - 1);
    let runs = crossing_runs_past(r, h, [all, all]);
    let min_peak = typical_peak(r, h, [all, all]) * 0.4;
    std::array::from_fn(|side| {
        let (beyond, inside) = runs[side];
        let k = if side % 2 == 0 { -1.0 } else { n as f64 };
        (beyond >= RUNS_ON && beyond >= RUNS_ON_SHARE * inside)
            .then(|| probe(r, h, side / 2, k, (0.0, (n - 1) as f64), min_peak).excess() >= SEEN)
    })
}

/// The grid grown by a line on each side (left, right, top, bottom) marked in `grow`. A
/// board is square, so a growth one way only is refused.
pub fn grown(found: Located, grow: [bool; 4]) -> Result<Located, VisionError> {
    let n = found.size;
    let cols = n + grow[0] as usize + grow[1] as usize;
    let rows = n + grow[2] as usize + grow[3] as usize;
    if cols != rows {
        return Err(VisionError::NoBoard(format!(
            "the grid lines run on past the {n}-line grid's edge one way only ({cols} columns, \
             {rows} rows): an edge line is hidden"
        )));
    }
    if cols > 26 {
        return Err(VisionError::NoBoard(format!(
            "the grid lines run on past all of {n} lines: no board edge is seen"
        )));
    }
    Ok(Located {
        size: cols,
        map: found
            .map
            .shifted(-(grow[0] as u8 as f64), -(grow[2] as u8 as f64)),
        quality: found.quality,
    })
}

/// How clearly the lines across family `f` (those of family `1 - f` with indices in `other`)
/// run over the step from index `a` to `a + 1` of family `f`: the mean excess of their probes
/// there (`min_peak`, see [`probe`]).
fn crossing_run(r: &Plane, h: &GridMap, other: (i32, i32), min_peak: f32, f: usize, a: f64) -> f64 {
    let total: f64 = (other.0..=other.1)
        .map(|j| probe(r, h, 1 - f, j as f64, (a, a + 1.0), min_peak).excess())
        .sum();
    total / (other.1 - other.0 + 1).max(1) as f64
}

fn median(v: &mut [f32]) -> f32 {
    let k = v.len() / 2;
    *v.select_nth_unstable_by(k, f32::total_cmp).1
}

/// Line evidence at which a candidate index counts as a grid line, as a fraction of the
/// median evidence of the lines inside the combs (dense positions hide many lines).
const EVIDENCE: f64 = 0.4;

/// The grid map, the chosen index range per family, and their mean line evidence.
type Extent = (GridMap, [(i32, i32); 2], f64);

/// Decides which comb indices are the board's lines, from line evidence along each candidate,
/// then refits on the chosen lines. Returns the homography, the index range per family and
/// the mean evidence of the chosen lines.
fn extent(
    work: &Work,
    h: &GridMap,
    spans: [(i32, i32); 2],
    size: Option<usize>,
) -> Result<Extent, VisionError> {
    let r = &work.response;
    let mut h = *h;
    let mut ranges = spans;
    let mut quality = 0.0;
    let min_peak = typical_peak(r, &h, ranges) * 0.4;
    // Candidates are probed up to four lines beyond the current ranges; a board found only
    // in part at first (crowded, strongly tilted) grows over further rounds.
    for round in 0..ROUNDS {
        let mut evidence: [Vec<(i32, f64)>; 2] = [Vec::new(), Vec::new()];
        let mut unsided: [Vec<(i32, f64)>; 2] = [Vec::new(), Vec::new()];
        for f in 0..2 {
            let other = ranges[1 - f];
            for k in ranges[f].0 - 4..=ranges[f].1 + 4 {
                let e = probe(
                    r,
                    &h,
                    f,
                    k as f64,
                    (other.0 as f64, other.1 as f64),
                    min_peak,
                )
                .excess();
                let (c, sides) = if e >= 0.02 {
                    (
                        crossing_evidence(r, &h, f, k, other, min_peak),
                        board_both_sides(work, &h, f, k, other),
                    )
                } else {
                    (0.0, 0.0)
                };
                evidence[f].push((k, e.min(c * sides)));
                unsided[f].push((k, e.min(c)));
            }
        }
        let mut new = [(0, 0); 2];
        for f in 0..2 {
            new[f] = choose_window(&evidence[f], size).ok_or_else(|| {
                VisionError::NoBoard("too few grid lines with clear evidence".into())
            })?;
        }
        if size.is_none() {
            equalise(&mut new, &evidence, &unsided);
        }
        let settled = new == ranges;
        quality = mean_within(&evidence, new);
        ranges = new;
        h = refine(r, &h, ranges).unwrap_or(h);
        if settled && round >= 1 {
            break;
        }
    }
    let (w, ht) = (r.w as f64, r.h as f64);
    let skew = h.h.cell_skew((w / 2.0, ht / 2.0), w.hypot(ht));
    if skew > MAX_SKEW {
        return Err(VisionError::NoBoard(format!(
            "the grid's cells are not square from any camera (skew {skew:.2}): lines were \
             missed or taken for others"
        )));
    }
    if runs_on(work, &h, ranges) {
        return grown_to_edges(work, &h, ranges)
            .map(|(h, ranges)| (h, ranges, quality))
            .ok_or_else(|| {
                VisionError::NoBoard(
                    "the grid runs on past the lines seen (stones hide its edge lines)".into(),
                )
            });
    }
    Ok((h, ranges, quality))
}

/// Largest [`Homography::cell_skew`] of a board grid. Board cells are square or nearly so (a
/// Go board's are about 7% longer one way); a grid that took every other line one way, or
/// the board's edge for a line, is far off (about ln 2 for a doubled step).
const MAX_SKEW: f64 = 0.3;

/// Colour distance (see [`beyond_edges`]) under which the cells past an outer line look like
/// the board's own wood, and over which they look like the table.
const OPEN: f64 = 0.3;
const CLOSED: f64 = 0.6;

/// Whether the grid seems to go on past one of its outer lines: the cells beyond it look
/// like the wood inside, while beyond another outer line they look like the table. Edge
/// lines that stones hide are then missing, and the read would shift every stone. (On a table
/// much like the board no side looks closed, and the test does not tell.)
fn runs_on(work: &Work, h: &GridMap, ranges: [(i32, i32); 2]) -> bool {
    let beyond = beyond_edges(work, h, ranges);
    let seen = beyond.iter().flatten();
    seen.clone().any(|&d| d < OPEN) && seen.clone().any(|&d| d > CLOSED)
}

/// A grid that [`runs_on`] past some of its outer lines may have been found on part of the
/// board only: stones hide the lines of the rest (a crowded corner nearest the camera, where
/// the lines between large stones are short). It grows by a line on each side where the cells
/// beyond are not clearly the table and the crossing lines run on into the next step (as in
/// [`lines_past_edges`]), refitting after each round, until no side grows. It is kept only
/// when it ends square with every side closed: the cells past the outer line unlike the
/// board's wood, or the crossing lines stopping at it (a diagram's wide margin); or, on a
/// side that did not grow, outside the photo (a side grown out of it may run on there).
fn grown_to_edges(
    work: &Work,
    h: &GridMap,
    start: [(i32, i32); 2],
) -> Option<(GridMap, [(i32, i32); 2])> {
    let r = &work.response;
    let (mut h, mut ranges) = (*h, start);
    // The measures of the round in which no side grew describe the final grid.
    let (runs, beyond) = loop {
        let runs = crossing_runs_past(r, &h, ranges);
        let beyond = beyond_edges(work, &h, ranges);
        let before = ranges;
        for side in 0..4 {
            let (out, inside) = runs[side];
            let wood_on = beyond[side].is_some_and(|d| d < CLOSED);
            if wood_on && out >= RUNS_ON && out >= RUNS_ON_SHARE * inside {
                let (lo, hi) = &mut ranges[side / 2];
                if side % 2 == 1 { *hi += 1 } else { *lo -= 1 }
            }
        }
        if ranges == before {
            break (runs, beyond);
        }
        if ranges.iter().any(|(lo, hi)| hi - lo >= 26) {
            return None;
        }
        h = refine(r, &h, ranges).unwrap_or(h);
    };
    let end = |rs: [(i32, i32); 2], side: usize| {
        let (lo, hi) = rs[side / 2];
        if side % 2 == 1 { hi } else { lo }
    };
    let closed = (0..4).all(|side| match beyond[side] {
        Some(d) => d >= OPEN || runs[side].0 < STOPS,
        None => end(ranges, side) == end(start, side),
    });
    let square = ranges[0].1 - ranges[0].0 == ranges[1].1 - ranges[1].0;
    (closed && square).then_some((h, ranges))
}

/// Line evidence (see [`crossing_run`]) past an outer line under which the crossing lines
/// stop there: under 0.11 past true edge lines on the photos tried.
const STOPS: f64 = 0.11;

/// For each outer line of `ranges` (low and high index of family 0, then of family 1), how
/// clearly the crossing lines run over the step past it, and over the step inside it.
fn crossing_runs_past(r: &Plane, h: &GridMap, ranges: [(i32, i32); 2]) -> [(f64, f64); 4] {
    let min_peak = typical_peak(r, h, ranges) * 0.4;
    std::array::from_fn(|side| {
        let (f, (lo, hi)) = (side / 2, ranges[side / 2]);
        let run = |a: i32| crossing_run(r, h, ranges[1 - f], min_peak, f, a as f64);
        if side % 2 == 1 {
            (run(hi), run(hi - 1))
        } else {
            (run(lo - 1), run(lo))
        }
    })
}

/// The mean evidence of the candidates inside `ranges`, over both directions.
fn mean_within(evidence: &[Vec<(i32, f64)>; 2], ranges: [(i32, i32); 2]) -> f64 {
    let inside: Vec<f64> = (0..2)
        .flat_map(|f| {
            let (lo, hi) = ranges[f];
            evidence[f]
                .iter()
                .filter(move |e| (lo..=hi).contains(&e.0))
                .map(|e| e.1)
        })
        .collect();
    inside.iter().sum::<f64>() / inside.len().max(1) as f64
}

/// Most rounds of choosing the extent and refitting.
const ROUNDS: usize = 6;

/// The weakest response a probe accepts as a line (relative black-hat).
const MIN_PEAK: f32 = 0.03;

/// The median response of the lines inside the combs' spans: how dark this board's lines are.
fn typical_peak(r: &Plane, h: &GridMap, ranges: [(i32, i32); 2]) -> f32 {
    let mut peaks: Vec<f32> = (0..2)
        .flat_map(|f| {
            let other = ranges[1 - f];
            (ranges[f].0..=ranges[f].1).flat_map(move |k| {
                probe(
                    r,
                    h,
                    f,
                    k as f64,
                    (other.0 as f64, other.1 as f64),
                    MIN_PEAK,
                )
                .found
            })
        })
        .map(|p| p.weight as f32)
        .collect();
    if peaks.is_empty() {
        return MIN_PEAK;
    }
    let k = peaks.len() / 2;
    peaks.select_nth_unstable_by(k, f32::total_cmp);
    peaks[k].max(MIN_PEAK)
}

/// Whether the other family's lines reach candidate line `k` from one side: a board edge or
/// its shadow can look like one more grid line, but the grid does not run up to it.
fn crossing_evidence(
    r: &Plane,
    h: &GridMap,
    f: usize,
    k: i32,
    other: (i32, i32),
    min_peak: f32,
) -> f64 {
    let strip = |a: i32| crossing_run(r, h, other, min_peak, f, a as f64);
    strip(k - 1).max(strip(k))
}

/// The window of `size` consecutive indices with the most evidence, or (no size given) the
/// longest run of indices with evidence, allowing single weak lines inside it.
fn choose_window(ev: &[(i32, f64)], size: Option<usize>) -> Option<(i32, i32)> {
    if let Some(n) = size {
        if ev.len() < n {
            return None;
        }
        let best = (0..=ev.len() - n).max_by(|&a, &b| {
            let sa: f64 = ev[a..a + n].iter().map(|e| e.1).sum();
            let sb: f64 = ev[b..b + n].iter().map(|e| e.1).sum();
            sa.total_cmp(&sb)
        })?;
        return Some((ev[best].0, ev[best + n - 1].0));
    }
    let level = evidence_level(ev);
    let strong: Vec<bool> = ev.iter().map(|e| e.1 >= level).collect();
    let mut best: Option<(usize, usize)> = None;
    let mut k = 0;
    while k < ev.len() {
        if !strong[k] {
            k += 1;
            continue;
        }
        let mut end = k;
        while end + 1 < ev.len()
            && (strong[end + 1]
                || (end + 2 < ev.len() && strong[end + 2] && ev[end + 1].1 >= level / 3.0))
        {
            end += 1;
        }
        if best.is_none_or(|(a, b)| end - k > b - a) {
            best = Some((k, end));
        }
        k = end + 1;
    }
    let (a, b) = best?;
    (b - a + 1 >= 5).then_some((ev[a].0, ev[b].0))
}

/// A board is square: when the two directions disagree on the line count, every count
/// between the two is tried, each direction taking its best window of that many lines, and
/// the count whose windows hold the most evidence above each direction's own level wins. A
/// direction whose lines stones mostly hide then follows the clearer one, rather than the
/// clearer one growing onto the board's margin. Windows of one count that hold the same
/// evidence (both take a line with none, say) are told apart by the evidence without the
/// test of the board on both sides (`unsided`): an edge line whose margin is too narrow for
/// that test still has the crossing lines running up to it, the board's edge does not.
fn equalise(
    ranges: &mut [(i32, i32); 2],
    ev: &[Vec<(i32, f64)>; 2],
    unsided: &[Vec<(i32, f64)>; 2],
) {
    let len = |r: (i32, i32)| (r.1 - r.0 + 1) as usize;
    let (la, lb) = (len(ranges[0]), len(ranges[1]));
    if la == lb {
        return;
    }
    let levels = [evidence_level(&ev[0]), evidence_level(&ev[1])];
    let best = |f: usize, n: usize| -> Option<(f64, (i32, i32))> {
        let e = &ev[f];
        let tie = |a: usize| 0.01 * unsided[f][a..a + n].iter().map(|x| x.1).sum::<f64>();
        (0..=e.len().checked_sub(n)?)
            .map(|a| {
                let s: f64 = e[a..a + n].iter().map(|x| x.1 - levels[f]).sum();
                (s, tie(a), (e[a].0, e[a + n - 1].0))
            })
            .max_by(|x, y| (x.0 + x.1).total_cmp(&(y.0 + y.1)))
            .map(|(s, _, r)| (s, r))
    };
    let mut choice: Option<(f64, [(i32, i32); 2])> = None;
    for n in la.min(lb)..=la.max(lb) {
        let (Some(a), Some(b)) = (best(0, n), best(1, n)) else {
            continue;
        };
        if choice.is_none_or(|c| a.0 + b.0 > c.0) {
            choice = Some((a.0 + b.0, [a.1, b.1]));
        }
    }
    if let Some((_, r)) = choice {
        *ranges = r;
    }
}

/// The evidence at which a candidate index counts as a grid line: a fraction of the upper
/// evidence of this direction's candidates (dense positions hide many lines).
fn evidence_level(ev: &[(i32, f64)]) -> f64 {
    let mut sorted: Vec<f64> = ev.iter().map(|e| e.1).filter(|&e| e > 0.05).collect();
    sorted.sort_by(f64::total_cmp);
    (sorted.get(sorted.len() * 2 / 3).copied().unwrap_or(0.0) * EVIDENCE).max(0.04)
}

/// Least squares over points found along every chosen grid line, twice: the lens term
/// first (see [`fit_lens`]), then the homography again without the outlying points (stones
/// hide parts of lines, and their rims look like lines).
fn refine(r: &Plane, map: &GridMap, ranges: [(i32, i32); 2]) -> Option<GridMap> {
    let mut map = *map;
    for _ in 0..2 {
        let mut pts = Vec::new();
        for f in 0..2 {
            let other = ranges[1 - f];
            for k in ranges[f].0..=ranges[f].1 {
                let along = (other.0 as f64, other.1 as f64);
                pts.extend(probe(r, &map, f, k as f64, along, MIN_PEAK).found);
            }
        }
        let lens = fit_lens(&pts, map.lens);
        let pts: Vec<LinePoint> = pts.iter().map(|p| undistorted(p, &lens)).collect();
        let first = homography::fit_from_line_points(&pts)?;
        let g = first.inverse()?;
        let res: Vec<f64> = pts
            .iter()
            .map(|p| homography::line_residual(&g, p))
            .collect();
        let cut = outlier_cut(&res);
        let kept: Vec<LinePoint> = pts
            .iter()
            .zip(&res)
            .filter(|(_, e)| **e <= cut)
            .map(|(p, _)| *p)
            .collect();
        map = GridMap {
            h: homography::fit_from_line_points(&kept)?,
            lens,
        };
    }
    Some(map)
}

fn undistorted(p: &LinePoint, lens: &Lens) -> LinePoint {
    let (x, y) = lens.undistort(p.x, p.y);
    LinePoint { x, y, ..*p }
}

/// Residuals above three times the median (at least 0.75 pixels) are outliers.
fn outlier_cut(res: &[f64]) -> f64 {
    let mut sorted = res.to_vec();
    sorted.sort_by(f64::total_cmp);
    (3.0 * sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)).max(0.75)
}

/// The largest lens term tried, as `k1` (a point at the photo corner moves by `k1` of the
/// half-diagonal): ample for phone and webcam lenses.
const MAX_K1: f64 = 0.1;

/// The radial term that makes the points found along the grid lines most nearly straight
/// lines of one plane grid: a scan of `k1`, then a parabola through the best three. The
/// residuals are truncated (robust to stray points); the lens is kept without distortion
/// unless the term clearly helps, so boards seen head-on near the centre stay plain.
fn fit_lens(pts: &[LinePoint], lens: Lens) -> Lens {
    let with = |k1: f64| Lens { k1, ..lens };
    let cost = |k1: f64, cut: f64| -> Option<f64> {
        let l = with(k1);
        let u: Vec<LinePoint> = pts.iter().map(|p| undistorted(p, &l)).collect();
        let g = homography::fit_from_line_points(&u)?.inverse()?;
        Some(
            u.iter()
                .map(|p| homography::line_residual(&g, p).min(cut).powi(2))
                .sum(),
        )
    };
    let Some(cut) = (|| {
        let u: Vec<LinePoint> = pts.iter().map(|p| undistorted(p, &with(0.0))).collect();
        let g = homography::fit_from_line_points(&u)?.inverse()?;
        let res: Vec<f64> = u.iter().map(|p| homography::line_residual(&g, p)).collect();
        Some(outlier_cut(&res))
    })() else {
        return lens;
    };
    const STEPS: i32 = 10;
    let step = MAX_K1 / STEPS as f64;
    let costs: Vec<(f64, f64)> = (-STEPS..=STEPS)
        .filter_map(|i| {
            let k1 = i as f64 * step;
            cost(k1, cut).map(|c| (k1, c))
        })
        .collect();
    let Some(&(_, plain)) = costs.iter().find(|c| c.0 == 0.0) else {
        return lens;
    };
    let Some(best) = (0..costs.len()).min_by(|&a, &b| costs[a].1.total_cmp(&costs[b].1)) else {
        return lens;
    };
    let mut k1 = costs[best].0;
    if best > 0 && best + 1 < costs.len() {
        let (a, b, c) = (costs[best - 1].1, costs[best].1, costs[best + 1].1);
        let den = a - 2.0 * b + c;
        if den > 1e-12 {
            k1 += 0.5 * step * (a - c) / den;
        }
    }
    let refined = cost(k1, cut).unwrap_or(f64::MAX);
    if refined.min(costs[best].1) > 0.9 * plain {
        return with(0.0);
    }
    if refined > costs[best].1 {
        k1 = costs[best].0;
    }
    with(k1)
}

/// Renumbers the chosen lines from 0, checks the grid is square, and turns the map into
/// reading coordinates (top row = edge nearest the top of the photo).
fn finish(
    r: &Plane,
    map: GridMap,
    ranges: [(i32, i32); 2],
    quality: f64,
) -> Result<Located, VisionError> {
    let n = (ranges[0].1 - ranges[0].0 + 1) as usize;
    let nb = (ranges[1].1 - ranges[1].0 + 1) as usize;
    if n != nb {
        return Err(VisionError::NoBoard(format!(
            "found a {n}×{nb} grid, not a square board"
        )));
    }
    if !(5..=26).contains(&n) {
        return Err(VisionError::NoBoard(format!(
            "found {n} grid lines each way"
        )));
    }
    let shift = nalgebra::Matrix3::new(
        1.0,
        0.0,
        ranges[0].0 as f64,
        0.0,
        1.0,
        ranges[1].0 as f64,
        0.0,
        0.0,
        1.0,
    );
    let map = map.after(&shift);
    let m = (n - 1) as f64;
    let corners = [(0.0, 0.0), (m, 0.0), (m, m), (0.0, m)];
    let signs: Vec<f64> = corners.iter().map(|&(i, j)| map.h.depth(i, j)).collect();
    if signs.iter().any(|s| s.signum() != signs[0].signum()) {
        return Err(VisionError::NoBoard(
            "the grid fit is not a view of a plane board".into(),
        ));
    }
    for &(i, j) in &corners {
        let (x, y) = map.apply(i, j);
        if !(x.is_finite() && y.is_finite())
            || x < -0.5 * r.w as f64
            || y < -0.5 * r.h as f64
            || x > 1.5 * r.w as f64
            || y > 1.5 * r.h as f64
        {
            return Err(VisionError::NoBoard(
                "the grid fit runs far outside the photo".into(),
            ));
        }
    }
    let (o, _) = orient::orientation(n, |i, j| map.apply(i, j));
    Ok(Located {
        size: n,
        map: map.after(&o.matrix()),
        quality,
    })
}

fn percentile(data: &[f32], q: f64) -> f32 {
    if data.is_empty() {
        return 0.0;
    }
    let mut v: Vec<f32> = data.iter().step_by(7).copied().collect();
    let k = ((v.len() - 1) as f64 * q) as usize;
    v.select_nth_unstable_by(k, f32::total_cmp);
    v[k]
}
