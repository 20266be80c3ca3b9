//! The turns a Connect6 node searches: pairs that block every threat window, pairs that
//! make threats, positional pairs from the best single points, and the gaps of the
//! opponent's lines that a pair must fill.

use super::*;

impl Engine6 {
    /// The turns worth searching, best first (at most `width`).
    pub fn generate(&mut self, b: &mut Board6, out: &mut Vec<Pair>) {
        out.clear();
        let me = b.side();
        if let Some(win) = winning_turn(b, me) {
            out.push(win);
            return;
        }
        if b.threats(!me) > 0 {
            self.blocking_pairs(b, out);
            if out.is_empty() {
                // Lost against correct play: still block as many windows as two stones can.
                out.extend(widest_block(b, !me));
            }
        } else {
            threat_pairs(b, me, out, &mut self.cands);
            if let Some(w) = out.iter().copied().find(|p| p.score >= MATE) {
                out.clear();
                out.push(w);
                return;
            }
            self.forcing.clear();
            if self.config.threat_slots > 0 {
                self.forcing.extend_from_slice(out);
                forcing_first(b, me, &mut self.forcing);
                self.forcing.truncate(self.config.threat_slots);
            }
            self.positional_pairs(b, out);
        }
        dedupe_sort(out);
        keep_places(out, &self.forcing, self.config.width);
        out.truncate(self.config.width);
    }

    /// Single points by attack (own windows grown) plus defence (opponent windows spoiled).
    pub(super) fn rank_singles(&mut self, b: &Board6, out: &mut Vec<(usize, i32)>) {
        out.clear();
        let me = b.side();
        for p in 0..b.points() {
            if !b.is_empty(p) || !b.is_near(p) {
                continue;
            }
            out.push((p, single_score(b, p, me)));
        }
        out.sort_unstable_by_key(|&(_, s)| std::cmp::Reverse(s));
    }

    pub(super) fn positional_pairs(&mut self, b: &mut Board6, out: &mut Vec<Pair>) {
        let mut first = self.singles.pop().unwrap_or_default();
        let mut second = self.singles.pop().unwrap_or_default();
        self.rank_singles(b, &mut first);
        let k1 = self.config.singles.min(first.len());
        let me = b.side();
        for &(a, sa) in &first[..k1] {
            // The second stone is ranked with the first already placed (same side to move):
            // only points sharing a line window with it, or newly near, change.
            b.play(a, None);
            b.undo_side_only(me);
            second.clear();
            for &(c, sc) in first.iter().filter(|&&(c, _)| c != a) {
                let sc = if Shared::of(b, a as u16, c as u16).is_some() {
                    single_score(b, c, me)
                } else {
                    sc
                };
                second.push((c, sc));
            }
            for q in b.neighbours(a).iter().map(|&q| q as usize) {
                if b.is_empty(q) && b.near_count(q) == 1 {
                    second.push((q, single_score(b, q, me)));
                }
            }
            b.undo_keep_side(me);
            let top = 4.min(second.len());
            if top > 0 {
                second.select_nth_unstable_by_key(top - 1, |&(_, s)| std::cmp::Reverse(s));
            }
            for &(c, sc) in &second[..top] {
                out.push(pair(a, Some(c), sa + sc));
            }
        }
        if out.is_empty()
            && let Some(&(a, s)) = first.first()
        {
            out.push(pair(a, None, s));
        }
        self.singles.push(first);
        self.singles.push(second);
    }

    /// Pairs that hit every threat window of the opponent.
    pub(super) fn blocking_pairs(&mut self, b: &mut Board6, out: &mut Vec<Pair>) {
        let me = b.side();
        let mut replies = std::mem::take(&mut self.replies);
        let single = blocking_replies(&Gaps::of(b, !me), &mut replies);
        let mut ranked = self.singles.pop().unwrap_or_default();
        ranked.clear();
        if single {
            self.rank_singles(b, &mut ranked);
        }
        for &(a, c) in &replies {
            let (a, c) = (a as usize, c as usize);
            let sa = single_score(b, a, me);
            if a == c {
                // One stone hits every window: its partner is a free stone.
                for &(d, sd) in ranked.iter().filter(|&&(d, _)| d != a).take(6) {
                    out.push(pair(a, Some(d), sa + sd));
                }
            } else {
                out.push(pair(a, Some(c), sa + single_score(b, c, me)));
            }
        }
        self.singles.push(ranked);
        self.replies = replies;
    }
}

/// The turns of stone `x` with each point of `zone`.
pub(super) fn paired_with(b: &Board6, x: u16, zone: &[u16], out: &mut Vec<Pair>) {
    let me = b.side();
    let sx = single_score(b, x as usize, me);
    for &z in zone.iter().filter(|&&z| z != x) {
        let sz = single_score(b, z as usize, me);
        out.push(pair(x as usize, Some(z as usize), sx + sz));
    }
}

/// The `k` empty points that occur most often in `points` (ties by point).
pub(super) fn most_common(b: &Board6, mut points: Vec<u16>, k: usize) -> Vec<u16> {
    points.sort_unstable();
    let mut counted: Vec<(u16, usize)> = Vec::new();
    for p in points {
        match counted.last_mut() {
            Some((q, n)) if *q == p => *n += 1,
            _ => counted.push((p, 1)),
        }
    }
    counted.sort_by_key(|&(p, n)| (std::cmp::Reverse(n), p));
    counted
        .into_iter()
        .map(|(p, _)| p)
        .filter(|&p| b.is_empty(p as usize))
        .take(k)
        .collect()
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

pub(super) fn dedupe_sort(out: &mut Vec<Pair>) {
    out.sort_unstable_by_key(|p| (p.a, p.b, std::cmp::Reverse(p.score)));
    out.dedup_by_key(|p| (p.a, p.b));
    out.sort_by_key(|p| std::cmp::Reverse(p.score));
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
    len: u8,
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

/// A turn that makes six now, if `me` has a threat window.
pub(super) fn winning_turn(b: &Board6, me: Side) -> Option<Pair> {
    let gaps = Gaps::of(b, me);
    let w = gaps.iter().filter(|g| g.len > 0).min_by_key(|g| g.len)?;
    let cells = w.cells();
    Some(pair(
        cells[0] as usize,
        cells.get(1).map(|&c| c as usize),
        MATE,
    ))
}

/// Pairs that make threats ([`threat_candidates`]). A pair after which the opponent cannot
/// block every threat scores `MATE`. `me` (to move) has no threat window, nor has the
/// opponent.
pub(super) fn threat_pairs(b: &Board6, me: Side, out: &mut Vec<Pair>, cands: &mut Vec<(u16, u16)>) {
    threat_candidates(b, me, cands);
    let before = b.evaluate();
    let mut gaps = Gaps::empty();
    for &(a, c) in cands.iter() {
        let gain = pair_effect(b, me, a, c, &mut gaps);
        let threats = gaps.iter().count() as i32;
        // Every threat runs through the pair, and the opponent still has none.
        let score = if threats > 0 && !gaps_blockable(&gaps) {
            MATE
        } else {
            // A forcing turn: worth its threats and the position it leaves.
            before + gain + 200 * threats
        };
        out.push(pair(a as usize, Some(c as usize), score));
    }
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

/// Orders threat-making pairs of `me` (to move): those one stone cannot answer (the
/// opponent must spend its whole turn) first, then by their score.
pub(super) fn forcing_first(b: &Board6, me: Side, pairs: &mut [Pair]) {
    let mut gaps = Gaps::empty();
    for m in pairs.iter_mut() {
        pair_effect(b, me, m.a, m.b, &mut gaps);
        let two = !gaps.is_empty() && !single_blockable(&gaps);
        // Kept apart from the score's range: only the order matters here.
        m.score = m.score.clamp(-MATE / 4, MATE / 4) + if two { MATE / 2 } else { 0 };
    }
    pairs.sort_by_key(|p| std::cmp::Reverse(p.score));
}

/// Makes sure every pair of `keep` lies among the first `width` of `out` (sorted best first,
/// holding them all): missing ones take the places of the last others.
pub(super) fn keep_places(out: &mut [Pair], keep: &[Pair], width: usize) {
    if out.len() <= width || keep.is_empty() {
        return;
    }
    let same = |x: &Pair, y: &Pair| (x.a, x.b) == (y.a, y.b);
    let missing: Vec<Pair> = keep
        .iter()
        .filter(|k| !out[..width].iter().any(|m| same(m, k)))
        .filter_map(|k| out.iter().find(|m| same(m, k)).copied())
        .collect();
    let mut slot = width;
    for m in missing {
        // The last place in the head not held by a kept pair.
        while slot > 0 && keep.iter().any(|k| same(k, &out[slot - 1])) {
            slot -= 1;
        }
        if slot == 0 {
            break;
        }
        out[slot - 1] = m;
        slot -= 1;
    }
}

impl Board6 {
    /// Undoes only the side change of a one-stone probe (the stone stays).
    pub(super) fn undo_side_only(&mut self, me: Side) {
        self.set_side(me);
    }

    /// Takes back a probe stone played with [`Self::undo_side_only`].
    pub(super) fn undo_keep_side(&mut self, me: Side) {
        self.set_side(!me);
        self.undo();
    }
}
