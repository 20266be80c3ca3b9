//! The selective search's memory: its transposition table entries and the history
//! statistics of moves (main, continuation and killers) that order them.

use super::*;

impl Engine {
    /// The table entry of `key`, if it holds one: (value, eval, bound, move, depth, pv).
    #[inline]
    pub(super) fn probe(&self, key: u64, ply: i32) -> Option<(i32, i32, u8, usize, i32, bool)> {
        let e = self.tt[self.tt_slot(key)];
        (e.flag & OCCUPIED != 0 && e.key == tt_check(key)).then(|| {
            let eval = if e.eval == EVAL_NONE {
                i32::MIN
            } else {
                i32::from(e.eval)
            };
            let best = if e.best == u16::MAX {
                NONE
            } else {
                e.best as usize
            };
            (
                from_tt(e.value, ply),
                eval,
                e.flag & BOUND,
                best,
                i32::from(e.depth),
                e.flag & TT_PV != 0,
            )
        })
    }

    /// Stores a result; an entry of the same position keeps its move when the new one has
    /// none, and a deeper entry of it is kept unless the new one is exact.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        key: u64,
        value: i32,
        eval: i32,
        bound: u8,
        best: usize,
        depth: i32,
        pv: bool,
        ply: i32,
    ) {
        if self.aborted {
            return;
        }
        let slot = self.tt_slot(key);
        let old = self.tt[slot];
        let same = old.flag & OCCUPIED != 0 && old.key == tt_check(key);
        if same && bound != EXACT && i32::from(old.depth) > depth + 3 && old.flag & BOUND != 0 {
            return;
        }
        let best = if best == NONE && same {
            old.best
        } else if best == NONE {
            u16::MAX
        } else {
            best as u16
        };
        let eval = if eval == i32::MIN {
            EVAL_NONE
        } else {
            eval.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
        };
        self.tt[slot] = TtEntry {
            key: tt_check(key),
            value: to_tt(value, ply),
            eval,
            best,
            depth: depth.clamp(-100, 100) as i8,
            flag: OCCUPIED | if pv { TT_PV } else { 0 } | bound,
        };
    }
}

impl Engine {
    /// The history score of a move for `s`.
    pub(super) fn stat_score(&self, s: Side, m: usize) -> i32 {
        let h = self.sel.hist[m][s.index()];
        i32::from(h[0]) + i32::from(h[1]) * 780 / 1024 - 3322
    }

    /// The history after a node's best move: a bonus for it, a malus for the other moves
    /// of its kind searched before it; the counter move of the opponent's last stone.
    pub(super) fn best_move_stats(
        &mut self,
        b: &EngineBoard,
        ply: usize,
        depth: Depth,
        m: usize,
        attacks: &[usize],
        quiets: &[usize],
    ) {
        let me = b.side();
        let opp = !me;
        let opp5 = b.count(opp, Threat::Five) > 0;
        let opp4 = opp5 || b.count(opp, Threat::FlexFour) > 0;
        let own = self.shape(b, m, me);
        let bonus = stat_bonus(depth);
        let s = me.index();
        if own >= shape::FLEX3 {
            gravity(&mut self.sel.hist[m][s][0], bonus);
        } else if !opp4 {
            self.quiet_stats(ply, m, s, bonus);
            for &q in quiets {
                gravity(&mut self.sel.hist[q][s][1], -bonus);
            }
        }
        for &a in attacks {
            gravity(&mut self.sel.hist[a][s][0], -bonus);
        }
        if !opp5 && let Some(l) = b.last() {
            self.sel.counter[l][opp.index()] = (m, own);
        }
    }

    /// The history of a table move that cut the node off without a search.
    pub(super) fn tt_move_stats(
        &mut self,
        b: &mut EngineBoard,
        depth: Depth,
        m: usize,
        failed_high: bool,
    ) {
        if m >= self.sel.hist.len() || !b.is_empty(m) {
            return;
        }
        let me = b.side();
        let opp = !me;
        let opp4 = b.count(opp, Threat::Five) > 0 || b.count(opp, Threat::FlexFour) > 0;
        if opp4 || self.shape(b, m, me) >= shape::FLEX3 {
            return;
        }
        let bonus = stat_bonus(depth);
        let entry = &mut self.sel.hist[m][me.index()][1];
        gravity(entry, if failed_high { bonus } else { -bonus });
    }

    pub(super) fn quiet_stats(&mut self, ply: usize, m: usize, s: usize, bonus: i32) {
        gravity(&mut self.sel.hist[m][s][1], bonus);
        let f = self.frame(ply);
        if f.killers[0] != m {
            f.killers = [m, f.killers[0]];
        }
    }
}

/// Whether a table value with `bound` is a better estimate of a node than its static value
/// `stat` (a lower bound above it, an upper bound below it, or an exact value).
pub(super) fn tt_refines(bound: u8, value: i32, stat: i32) -> bool {
    bound != 0
        && if value > stat {
            bound != UPPER
        } else {
            bound != LOWER
        }
}

/// A move's history bonus at `depth`.
fn stat_bonus(depth: Depth) -> i32 {
    ((25.0 * depth * depth + 105.0 * depth - 157.0) as i32).min(8927)
}

/// Moves a gravity update by `bonus` (|bonus| ≤ `HIST_RANGE`).
fn gravity(entry: &mut i16, bonus: i32) {
    let v = i32::from(*entry);
    *entry = (v + bonus - v * bonus.abs() / HIST_RANGE) as i16;
}
