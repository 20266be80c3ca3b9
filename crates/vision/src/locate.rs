//! Finding the grid: line response, Hough lines, combs of evenly spaced lines, a first
//! homography from those lines, then the grid's extent and a least-squares refinement over
//! points sampled along every grid line.

use crate::VisionError;
use crate::extent::{Extent, extent};
use crate::homography::{self, GridMap, Homography, Lens, LinePoint};
use crate::hough::{self, Line};
use crate::lattice::{self, Family};
use crate::orient;
use crate::pencil::{self, Pencil};
use crate::plane::Plane;
use crate::stone_lattice;

use crate::probe::{MIN_PEAK, probe};
use crate::refine::refine;
use crate::work::{Located, Work};

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
/// clearly; otherwise the grid seen most clearly. Stones may hide so much of every line that
/// no way of finding lines sees the grid; the stones themselves then mark it. That is tried
/// last, or second when the first way finds no grid at all: the board region then shows no
/// lattice of lines, most often because stones cover it, and the stones' lattice is the
/// next best evidence (and costs less than the other ways of finding lines together).
pub fn locate(work: &Work, size: Option<usize>) -> Result<Located, VisionError> {
    let mut best: Option<Located> = None;
    let mut first_error = None;
    let mut by_stones_tried = false;
    let clear = |best: &Option<Located>| best.as_ref().is_some_and(|b| b.quality >= CLEAR);
    for (i, attempt) in ATTEMPTS.iter().enumerate() {
        let found = locate_with(work, size, attempt);
        let nothing = found.is_err();
        match found {
            Ok(found) => keep_clearer(&mut best, found),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
        if i == 0 && nothing {
            by_stones_tried = true;
            if let Ok(found) = locate_by_stones(work, size) {
                keep_clearer(&mut best, found);
            }
        }
        if clear(&best) {
            break;
        }
    }
    if !by_stones_tried
        && !clear(&best)
        && let Ok(found) = locate_by_stones(work, size)
    {
        keep_clearer(&mut best, found);
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

/// Keeps `found` if its lines are seen more clearly than those of `best`.
fn keep_clearer(best: &mut Option<Located>, found: Located) {
    if best.as_ref().is_none_or(|b| found.quality > b.quality) {
        *best = Some(found);
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
    // Each family's combs, one per strength floor (see [`lattice::strength_floors`]): the
    // usual floor's first, then a lower floor's where strong frame lines set the usual one
    // above the grid lines. Pairs of the same floor make a grid first.
    let fit = |ls: &[Line]| lattice::fit_family_floors(ls, cx, cy, limit, 4.0);
    let combs = [fit(&fams[0]), fit(&fams[1])];
    let floors = combs[0].len().max(combs[1].len());
    let comb = |f: usize, k: usize| combs[f].get(k).or(combs[f].last()).and_then(Option::as_ref);
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
    for k in 0..floors {
        if best.as_ref().is_some_and(|b| b.2 >= CLEAR) {
            break;
        }
        if let (Some(fa), Some(fb)) = (comb(0, k), comb(1, k)) {
            let start =
                initial_homography(fa, fb, (cx, cy), limit).map(|h| (h, [span(fa), span(fb)]));
            consider(start, &mut best);
        }
    }
    // When the two combs do not make a clear grid, one of them is often still right (stones
    // break up the lines of the other direction): each comb in turn finds the other direction.
    let singles = (0..floors).flat_map(|k| (0..2).map(move |f| (k, f)));
    for (f, fam) in singles.filter_map(|(k, f)| combs[f].get(k)?.as_ref().map(|fam| (f, fam))) {
        if best.as_ref().is_some_and(|b| b.2 >= CLEAR) {
            break;
        }
        let cap = PENCIL_CAP * threshold;
        consider(cross_start(r, fam, f, (cx, cy), limit, cap), &mut best);
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
