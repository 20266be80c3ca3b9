//! What the selective search skips: razoring, reverse futility and null moves with their
//! margins, the move-count limit near the leaves, and the moves a node generates.

use super::*;

/// Razoring's margin: a node this far below alpha asks the quiescence only.
pub(super) fn razor_margin(d: Depth) -> i32 {
    if d < 2.6 {
        (0.17 * d * d + 14.0 * d) as i32 + 19
    } else {
        INF
    }
}

/// Reverse futility's margin.
pub(super) fn futility_margin(d: Depth, no_tt_cut: bool, improving: bool) -> i32 {
    let scale = 63 - 12 * i32::from(no_tt_cut);
    ((scale as f32 * (d - f32::from(u8::from(improving)))) as i32).max(0)
}

/// The null move's margin above beta: tried only at high depths.
pub(super) fn null_margin(d: Depth) -> i32 {
    if d >= 10.0 {
        585 - (28 * d as i32).min(315)
    } else {
        INF
    }
}

/// Moves searched before the rest are skipped near the leaves.
pub(super) fn move_count_limit(d: Depth, improving: bool) -> u32 {
    let mc = 3 + (d.max(0.0) as i32 as f32).powf(1.32) as u32;
    mc / (2 - u32::from(improving))
}

impl Engine {
    /// Razoring (a node far below alpha asks its quiescence) and reverse futility (one far
    /// above beta returns its value), at null-window nodes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prune_node(
        &mut self,
        b: &mut EngineBoard,
        ply: usize,
        alpha: i32,
        beta: i32,
        depth: Depth,
        cut: bool,
        pv: bool,
        eval: i32,
        tt_hit: bool,
        improvement: i32,
    ) -> Option<i32> {
        if pv {
            return None;
        }
        if (alpha < WIN_BOUND || !tt_hit) && eval + self.unit(razor_margin(depth)) < alpha {
            return Some(self.quiescence(b, ply, alpha, alpha + 1, 0, false));
        }
        let me = b.side().index();
        let attacking = self.before(ply, 2).shape[me] >= shape::BLOCK4
            && self.before(ply, 4).shape[me] >= shape::BLOCK4;
        (eval < WIN_BOUND
            && beta > -WIN_BOUND
            && eval
                - self.unit(futility_margin(
                    depth - 1.0,
                    cut && !tt_hit,
                    improvement > 0,
                ))
                >= beta
            && !attacking)
            .then_some(eval)
    }

    /// The null move: a side standing far above beta that still stands above it after
    /// passing is cut off (a stone never hurts its side in Gomoku).
    pub(super) fn selective_null(
        &mut self,
        b: &mut EngineBoard,
        ply: usize,
        beta: i32,
        depth: Depth,
        cut: bool,
    ) -> Option<i32> {
        let r = 3.67 + 0.135 * depth;
        let f = self.frame(ply);
        f.mv = NONE;
        f.shape = [0; 2];
        b.pass();
        let v = -self.pvs(b, ply + 1, -beta, -beta + 1, depth - r, !cut, false);
        b.undo();
        // An unproven mate is not returned.
        (!self.aborted && v >= beta && beta.abs() < WIN_BOUND).then_some(if v >= WIN_BOUND {
            beta
        } else {
            v
        })
    }

    /// The candidates of a node, scored for picking: the answer to a five; against an open
    /// three its blocks and the own fours; else the candidate zone. Scores are the fitted
    /// order plus the history and the counter move; the table move goes first.
    pub(super) fn sel_moves(
        &mut self,
        b: &mut EngineBoard,
        out: &mut Vec<(usize, i32)>,
        tt_move: usize,
    ) {
        out.clear();
        let me = b.side();
        let opp = !me;
        let mut f = std::mem::take(&mut self.scratch);
        fives(b, opp, &mut f);
        if let Some(&c) = f.first() {
            out.push((c, 0));
            self.scratch = f;
            return;
        }
        self.scratch = f;
        let defend = has_open_three(b, opp);
        let scorer = PolicyScorer::new(b);
        let counter = b
            .last()
            .and_then(|l| self.sel.counter.get(l))
            .map_or((NONE, 0), |c| c[opp.index()]);
        for i in b.zone() {
            if defend && !defends(b, i) {
                continue;
            }
            let s = if i == tt_move {
                i32::MAX
            } else {
                let own = self.shape(b, i, me);
                let h = self.sel.hist[i][me.index()];
                let mut s = scorer.score(b, i);
                s += if own >= shape::FLEX3 {
                    i32::from(h[0]) / 128
                } else {
                    i32::from(h[1]) / 256
                };
                if counter.0 == i && counter.1 <= own {
                    s += 21;
                }
                s
            };
            out.push((i, s));
        }
    }
}
