//! The grid's extent: which comb indices are the board's lines (line evidence, crossing
//! lines, the board on both sides), a grid found in part grown to its edges, and the checks
//! that it ends square and closed.

use crate::VisionError;
use crate::homography::GridMap;
use crate::plane::Plane;

use crate::probe::{
    beyond_edges, board_both_sides, crossing_evidence, crossing_run, probe, typical_peak,
};
use crate::refine::refine;
use crate::work::{Located, Work};

/// Most rounds of choosing the extent and refitting.
pub(crate) const ROUNDS: usize = 6;

/// Line evidence (see [`crossing_run`]) past an outer line over which the grid runs on,
/// absolute and relative to the same evidence a step inside. Past a board's true edge lines
/// the crossing lines stop (under 0.11 on the photos tried); stone rims on a crowded edge
/// line can mimic them up to about 0.26, 0.4 of the evidence inside; where a line was
/// missed they run on to it at 0.35 or more, three quarters of the evidence inside or more.
/// Coordinate labels printed a step past the edge of a diagram mimic them too, but no line
/// runs along them.
pub(crate) const RUNS_ON: f64 = 0.2;
pub(crate) const RUNS_ON_SHARE: f64 = 0.6;

/// Line evidence of the line past an outer line itself, over which it is seen.
pub(crate) const SEEN: f64 = 0.2;

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

/// Line evidence at which a candidate index counts as a grid line, as a fraction of the
/// median evidence of the lines inside the combs (dense positions hide many lines).
pub(crate) const EVIDENCE: f64 = 0.4;

/// The grid map, the chosen index range per family, and their mean line evidence.
pub(crate) type Extent = (GridMap, [(i32, i32); 2], f64);

/// Decides which comb indices are the board's lines, from line evidence along each candidate,
/// then refits on the chosen lines. Returns the homography, the index range per family and
/// the mean evidence of the chosen lines.
pub(crate) fn extent(
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
            new[f] = choose_window(&evidence[f], size, &unsided[f]).ok_or_else(|| {
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
pub(crate) const MAX_SKEW: f64 = 0.3;

/// Colour distance (see [`beyond_edges`]) under which the cells past an outer line look like
/// the board's own wood, and over which they look like the table.
pub(crate) const OPEN: f64 = 0.3;
pub(crate) const CLOSED: f64 = 0.6;

/// Whether the grid seems to go on past one of its outer lines: the cells beyond it look
/// like the wood inside, while beyond another outer line they look like the table. Edge
/// lines that stones hide are then missing, and the read would shift every stone. (On a table
/// much like the board no side looks closed, and the test does not tell.)
pub(crate) fn runs_on(work: &Work, h: &GridMap, ranges: [(i32, i32); 2]) -> bool {
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
pub(crate) fn grown_to_edges(
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
pub(crate) const STOPS: f64 = 0.11;

/// For each outer line of `ranges` (low and high index of family 0, then of family 1), how
/// clearly the crossing lines run over the step past it, and over the step inside it.
pub(crate) fn crossing_runs_past(
    r: &Plane,
    h: &GridMap,
    ranges: [(i32, i32); 2],
) -> [(f64, f64); 4] {
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
pub(crate) fn mean_within(evidence: &[Vec<(i32, f64)>; 2], ranges: [(i32, i32); 2]) -> f64 {
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

/// Weight of the evidence without the both-sides test when it tells apart windows of equal
/// evidence (see [`choose_window`], [`equalise`]): small enough to decide only between windows
/// whose evidence is equal or nearly so.
const TIE: f64 = 0.01;

/// The window of `size` consecutive indices with the most evidence, or (no size given) the
/// longest run of indices with evidence, allowing single weak lines inside it.
///
/// An edge line can show no evidence at all: a near-white board whose margin is unlike its
/// inside fails the test of the board on both sides, and a printed board's thick frame just
/// outside the edge line can draw the probes off it. The window shifted a line outwards, past
/// an edge line onto the margin or out of the photo, then holds as much evidence as the
/// board's, and reading through it shifts every stone. Windows of `size` lines with equal
/// evidence are told apart, first, by the evidence without the both-sides test (`unsided`),
/// as in [`equalise`]: the crossing lines still run up to a true edge line, not past it.
/// Then, when that ties too, the lines without any evidence are put as evenly as they go at
/// the window's two ends: with nothing to tell which edge lines are missed, a board is as
/// likely to lose them on one side as on the other. With one line missed the ends cannot be
/// even, and the window keeps the higher indices, as before. (A board cut by the photo's
/// border by two lines or more, whose table past its other edge shows no line-like
/// evidence at all, is centred wrongly by this; no photo tried is such.)
pub(crate) fn choose_window(
    ev: &[(i32, f64)],
    size: Option<usize>,
    unsided: &[(i32, f64)],
) -> Option<(i32, i32)> {
    if let Some(n) = size {
        if ev.len() < n {
            return None;
        }
        let scores: Vec<f64> = (0..=ev.len() - n)
            .map(|a| {
                let sided: f64 = ev[a..a + n].iter().map(|e| e.1).sum();
                let unsided: f64 = unsided[a..a + n].iter().map(|e| e.1).sum();
                sided + TIE * unsided
            })
            .collect();
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // How unevenly a window's lines without any evidence fall at its two ends (`unsided`
        // has an entry for every line of `ev`).
        let seen = |e: &(i32, f64)| e.1 > 0.0;
        let ends = (
            unsided.iter().position(seen),
            unsided.iter().rposition(seen),
        );
        let lopsided = |a: usize| match ends {
            (Some(first), Some(last)) => {
                let below = first.saturating_sub(a) as i64;
                let above = (a + n - 1).saturating_sub(last) as i64;
                (below - above).abs()
            }
            _ => 0,
        };
        let best = (0..scores.len())
            .filter(|&a| scores[a] >= top - 1e-9 * top.abs().max(1.0))
            .min_by_key(|&a| (lopsided(a), std::cmp::Reverse(a)))?;
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
pub(crate) fn equalise(
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
        let tie = |a: usize| TIE * unsided[f][a..a + n].iter().map(|x| x.1).sum::<f64>();
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
pub(crate) fn evidence_level(ev: &[(i32, f64)]) -> f64 {
    let mut sorted: Vec<f64> = ev.iter().map(|e| e.1).filter(|&e| e > 0.05).collect();
    sorted.sort_by(f64::total_cmp);
    (sorted.get(sorted.len() * 2 / 3).copied().unwrap_or(0.0) * EVIDENCE).max(0.04)
}
