//! Turns and the gaps they fill: a turn as a pair of points, the empty points of each threat
//! window (its gap), what two stones would do to the windows, and whether one turn can
//! block them all. The searches and the threat analysis both build on these.

use super::board::Board6;
use boyi_core::Side;

/// The second point of a one-stone turn.
pub const NONE: u16 = u16::MAX;

/// A turn: one or two points (`b == NONE` for one) and an ordering score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    pub a: u16,
    pub b: u16,
    pub score: i32,
}

/// No turn (the filler of an empty principal-variation table).
impl Default for Pair {
    fn default() -> Pair {
        Pair {
            a: NONE,
            b: NONE,
            score: 0,
        }
    }
}

impl Pair {
    pub fn second(&self) -> Option<usize> {
        (self.b != NONE).then_some(self.b as usize)
    }
}

pub(in crate::connect6) fn pair(a: usize, b: Option<usize>, score: i32) -> Pair {
    let (a, b) = match b {
        Some(b) if b < a => (b, Some(a)),
        _ => (a, b),
    };
    Pair {
        a: a as u16,
        b: b.map_or(NONE, |b| b as u16),
        score,
    }
}

/// Two distinct points on one line at most five points apart (so a six-point window may
/// hold both), with that line: whether a window through one of them holds the other is
/// then told from its ends, not its cells.
#[derive(Clone, Copy)]
pub(in crate::connect6) struct Shared {
    /// The index step of their line.
    step: u16,
    lo: u16,
    hi: u16,
}

impl Shared {
    pub(in crate::connect6) fn of(b: &Board6, p: u16, q: u16) -> Option<Shared> {
        let size = b.size() as i32;
        let (dx, dy) = (
            q as i32 % size - p as i32 % size,
            q as i32 / size - p as i32 / size,
        );
        let step = match (dx, dy) {
            (0, 0) => return None,
            _ if dx.abs() > 5 || dy.abs() > 5 => return None,
            (_, 0) => 1,
            (0, _) => size,
            _ if dx == dy => size + 1,
            _ if dx == -dy => size - 1,
            _ => return None,
        };
        Some(Shared {
            step: step as u16,
            lo: p.min(q),
            hi: p.max(q),
        })
    }

    /// Whether window `w`, which holds one of the two points, holds both: it runs along
    /// their line and spans them.
    pub(in crate::connect6) fn in_window(&self, b: &Board6, w: u32) -> bool {
        let c = b.window_cells(w);
        let (first, last) = (c[0].min(c[5]), c[0].max(c[5]));
        c[0].abs_diff(c[1]) == self.step && first <= self.lo && self.hi <= last
    }
}

/// Attack and defence value of one stone of `me` on `p`.
pub(in crate::connect6) fn single_score(b: &Board6, p: usize, me: Side) -> i32 {
    let m = me.index();
    let mut s = 0;
    for &w in b.windows_of(p) {
        let c = b.counts(w);
        let (mine, theirs) = (c[m], c[1 - m]);
        if theirs == 0 {
            s += b.value(mine as usize + 1) - b.value(mine as usize);
        }
        if mine == 0 && theirs > 0 {
            s += b.value(theirs as usize + 1) - b.value(theirs as usize);
        }
    }
    s
}

/// The empty points of one threat window (four or five stones of one side and none of the
/// other leave at most two).
#[derive(Debug, Clone, Copy, Default)]
pub struct Gap {
    cells: [u16; 2],
    pub(super) len: u8,
}

impl Gap {
    /// The first two of `points` (fewer if there are fewer).
    fn first_two(points: impl Iterator<Item = u16>) -> Gap {
        let mut gap = Gap::default();
        for p in points.take(2) {
            gap.cells[gap.len as usize] = p;
            gap.len += 1;
        }
        gap
    }

    /// The empty points of window `w` other than `a` and `c` (at most two are kept).
    pub(in crate::connect6) fn of_window(b: &Board6, w: u32, a: u16, c: u16) -> Gap {
        let empty = b.window_cells(w).iter().copied();
        Gap::without(empty.filter(|&p| b.is_empty(p as usize)), a, c)
    }

    /// The points of `empty` (a window's empty points) other than `a` and `c` (at most two
    /// are kept).
    pub(in crate::connect6) fn without(empty: impl Iterator<Item = u16>, a: u16, c: u16) -> Gap {
        Gap::first_two(empty.filter(|&p| p != a && p != c))
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells[..self.len as usize]
    }

    pub fn contains(&self, p: u16) -> bool {
        self.cells().contains(&p)
    }
}

/// The gaps of every threat window of one side, without allocating in the usual case (the
/// rare position with more windows spills into a vector).
pub struct Gaps {
    fixed: [Gap; Gaps::FIXED],
    len: usize,
    spill: Vec<Gap>,
}

impl Gaps {
    const FIXED: usize = 48;

    pub fn of(b: &Board6, s: Side) -> Gaps {
        if b.threats(s) == 0 {
            return Gaps::from_windows(b, s, std::iter::empty());
        }
        // The threat windows in board order (ties elsewhere break by it).
        let m = s.index();
        let mut buf = [0u32; Gaps::FIXED];
        let mut n = 0;
        for &w in b.live(s) {
            if b.counts(w)[m] >= 4 {
                if n == Gaps::FIXED {
                    return Gaps::from_windows(b, s, 0..b.window_count() as u32);
                }
                buf[n] = w;
                n += 1;
            }
        }
        buf[..n].sort_unstable();
        Gaps::from_windows(b, s, buf[..n].iter().copied())
    }

    /// The gaps of the threat windows of `s` through the given points (a window through
    /// two of them comes twice, which no use of the gaps minds).
    pub fn through(b: &Board6, s: Side, points: &[usize]) -> Gaps {
        let windows = points.iter().flat_map(|&p| b.windows_of(p).iter().copied());
        Gaps::from_windows(b, s, windows)
    }

    pub(in crate::connect6) fn empty() -> Gaps {
        Gaps {
            fixed: [Gap::default(); Gaps::FIXED],
            len: 0,
            spill: Vec::new(),
        }
    }

    pub(in crate::connect6) fn push(&mut self, gap: Gap) {
        if self.len < Gaps::FIXED {
            self.fixed[self.len] = gap;
            self.len += 1;
        } else {
            self.spill.push(gap);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(in crate::connect6) fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    fn from_windows(b: &Board6, s: Side, windows: impl Iterator<Item = u32>) -> Gaps {
        let mut g = Gaps::empty();
        let m = s.index();
        for w in windows {
            let c = b.counts(w);
            if c[m] < 4 || c[1 - m] != 0 {
                continue;
            }
            let empty = b.window_cells(w).iter().copied();
            g.push(Gap::first_two(empty.filter(|&p| b.is_empty(p as usize))));
        }
        g
    }

    pub fn iter(&self) -> impl Iterator<Item = &Gap> + Clone {
        self.fixed[..self.len].iter().chain(&self.spill)
    }
}

/// The pair of gap points of the threat windows of `s` that hits the most of them (the
/// second point chosen for the windows the first one leaves).
pub(super) fn widest_block(b: &Board6, s: Side) -> Option<Pair> {
    let gaps = Gaps::of(b, s);
    let best = |skip: Option<u16>| {
        gaps.iter()
            .filter(|g| skip.is_none_or(|a| !g.contains(a)))
            .flat_map(|g| g.cells().iter().copied())
            .max_by_key(|&c| {
                gaps.iter()
                    .filter(|g| g.contains(c) && skip.is_none_or(|a| !g.contains(a)))
                    .count()
            })
    };
    let a = best(None)?;
    let c = best(Some(a)).filter(|&c| c != a);
    Some(pair(a as usize, c.map(|c| c as usize), 0))
}

/// Whether two stones of the other side can hit every threat window of `s`.
pub fn blockable(b: &Board6, s: Side) -> bool {
    gaps_blockable(&Gaps::of(b, s))
}

/// Whether two stones can hit every window of `gaps`.
pub(in crate::connect6) fn gaps_blockable(gaps: &Gaps) -> bool {
    let Some(first) = gaps.iter().next() else {
        return true;
    };
    first.cells().iter().any(|&a| {
        let mut rest = gaps.iter().filter(|w| !w.contains(a));
        match rest.next() {
            None => true,
            Some(w0) => w0
                .cells()
                .iter()
                .any(|&c| rest.clone().all(|w| w.contains(c))),
        }
    })
}

/// What stones of `me` on `a` and `c` would do, without playing them: the change of the
/// evaluation for `me`, returned, and the gaps of the threat windows they would make,
/// written into `gaps` (`me` has none before).
pub(in crate::connect6) fn pair_effect(
    b: &Board6,
    me: Side,
    a: u16,
    c: u16,
    gaps: &mut Gaps,
) -> i32 {
    let m = me.index();
    let shared = Shared::of(b, a, c);
    let mut gain = 0;
    gaps.clear();
    let windows = b.windows_of(a as usize).iter().map(|&w| (w, true));
    let others = b.windows_of(c as usize).iter().map(|&w| (w, false));
    for (w, from_a) in windows.chain(others) {
        let both = shared.is_some_and(|s| s.in_window(b, w));
        if both && !from_a {
            // Seen from `a`.
            continue;
        }
        let n = b.counts(w);
        let (mine, theirs) = (n[m] as usize, n[1 - m] as usize);
        if theirs == 0 {
            let now = mine + 1 + usize::from(both);
            gain += b.value(now) - b.value(mine);
            if now >= 4 {
                gaps.push(Gap::of_window(b, w, a, c));
            }
        } else if mine == 0 {
            gain += b.value(theirs);
        }
    }
    gain
}
