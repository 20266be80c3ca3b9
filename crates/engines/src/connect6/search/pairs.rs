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

pub(super) fn dedupe_sort(out: &mut Vec<Pair>) {
    out.sort_unstable_by_key(|p| (p.a, p.b, std::cmp::Reverse(p.score)));
    out.dedup_by_key(|p| (p.a, p.b));
    out.sort_by_key(|p| std::cmp::Reverse(p.score));
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
