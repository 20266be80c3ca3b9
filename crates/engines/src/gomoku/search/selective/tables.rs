//! The selective search's memory: its transposition table entries and the history
//! statistics of moves (main, continuation and killers) that order them.

use super::*;
use crate::search::tt::{Bound, Entry};

impl Engine {
    /// The table entry of `key`, if it holds one: (value, eval, bound, move, depth, pv).
    #[inline]
    pub(super) fn probe(&self, key: u64, ply: i32) -> Option<(i32, i32, u8, usize, i32, bool)> {
        let e = self.tt.probe(key, ply)?;
        let bound = match e.bound {
            Bound::None => 0,
            Bound::Exact => EXACT,
            Bound::Lower => LOWER,
            Bound::Upper => UPPER,
        };
        Some((e.score, e.eval, bound, e.mv.index(), e.depth, e.pv))
    }

    /// Stores a result (`eval` `i32::MIN` when there is none); an entry of the same position
    /// keeps its move when the new one has none.
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
        let bound = match bound {
            EXACT => Bound::Exact,
            LOWER => Bound::Lower,
            UPPER => Bound::Upper,
            _ => Bound::None,
        };
        let entry = Entry {
            mv: Cell::of(best),
            score: value,
            eval,
            depth,
            bound,
            pv,
        };
        self.tt.store(key, ply, entry);
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
