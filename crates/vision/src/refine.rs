//! Least-squares refinement of the grid map over points found along every grid line, with
//! a one-term radial lens model.

use crate::homography::{self, GridMap, Lens, LinePoint};
use crate::plane::Plane;
use crate::probe::{MIN_PEAK, WINDOW, probe_within};

/// Least squares over points found along every chosen grid line, twice: the lens term
/// first (see [`fit_lens`]), then the homography again without the outlying points (stones
/// hide parts of lines, and their rims look like lines).
pub(crate) fn refine(r: &Plane, map: &GridMap, ranges: [(i32, i32); 2]) -> Option<GridMap> {
    let mut map = *map;
    for _ in 0..2 {
        let mut pts = Vec::new();
        for f in 0..2 {
            let other = ranges[1 - f];
            for k in ranges[f].0..=ranges[f].1 {
                let along = (other.0 as f64, other.1 as f64);
                // The outer lines are not looked for far outwards (see [`EDGE_REACH`]).
                let window = (
                    if k == ranges[f].0 {
                        -EDGE_REACH
                    } else {
                        -WINDOW
                    },
                    if k == ranges[f].1 { EDGE_REACH } else { WINDOW },
                );
                let found = probe_within(r, &map, f, k as f64, along, MIN_PEAK, window).found;
                pts.extend(found);
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

/// How far outwards, in grid steps, an outer grid line is looked for (inwards as far as any
/// line, [`WINDOW`]). Many boards have a frame line, often heavier than the grid's, a quarter
/// of a step or so past the outer lines; a full window finds it as the stronger peak, and its
/// points pull the edge outwards onto the margin between the two, where the outer points then
/// see neither line and the frame passes for a stone's outline.
const EDGE_REACH: f64 = 0.2;

pub(crate) fn undistorted(p: &LinePoint, lens: &Lens) -> LinePoint {
    let (x, y) = lens.undistort(p.x, p.y);
    LinePoint { x, y, ..*p }
}

/// Residuals above three times the median (at least 0.75 pixels) are outliers.
pub(crate) fn outlier_cut(res: &[f64]) -> f64 {
    let mut sorted = res.to_vec();
    sorted.sort_by(f64::total_cmp);
    (3.0 * sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)).max(0.75)
}

/// The largest lens term tried, as `k1` (a point at the photo corner moves by `k1` of the
/// half-diagonal): ample for phone and webcam lenses.
pub(crate) const MAX_K1: f64 = 0.1;

/// The radial term that makes the points found along the grid lines most nearly straight
/// lines of one plane grid: a scan of `k1`, then a parabola through the best three. The
/// residuals are truncated (robust to stray points); the lens is kept without distortion
/// unless the term clearly helps, so boards seen head-on near the centre stay plain.
pub(crate) fn fit_lens(pts: &[LinePoint], lens: Lens) -> Lens {
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
