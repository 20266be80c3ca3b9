//! The selective search's VCF quiescence: forced blocks, standing pat, fours near the last
//! stone.

use super::*;

/// The quiescence's delta margin below alpha.
pub(super) fn delta_margin(d: Depth) -> i32 {
    (2086 + 60 * d as i32).max(768)
}

impl Engine {
    /// The VCF quiescence at a node of the side to move: a forced block is played; else the
    /// side stands pat on its static value or plays a four near its last stone (any four on
    /// the first two fours, then only fours that also make a two or three, unless the last
    /// two were such fours), each answered by its forced block. `depth` counts the fours
    /// played, down from 0.
    pub(super) fn quiescence(
        &mut self,
        b: &mut EngineBoard,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        pv: bool,
    ) -> i32 {
        if let Some(v) = self.enter_node(b, ply, pv).or_else(|| self.settled(b, ply)) {
            return v;
        }
        let p = ply as i32;
        let me = b.side();
        if b.count(!me, Threat::Five) > 0 {
            return self.forced_block(b, ply, alpha, beta, depth, pv);
        }
        alpha = alpha.max(-(MATE - p));
        beta = beta.min(MATE - p - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = b.hash();
        let hit = self.probe(key, p);
        let (tt_value, tt_eval, tt_bound, tt_move, tt_depth, _) =
            hit.unwrap_or((0, i32::MIN, 0, NONE, -128, false));
        if hit.is_some() && tt_depth >= depth && tt_bound != 0 && !pv {
            if tt_bound != UPPER {
                alpha = alpha.max(tt_value);
            }
            if tt_bound != LOWER {
                beta = beta.min(tt_value);
            }
            if alpha >= beta {
                return tt_value;
            }
        }
        let stat = if tt_eval != i32::MIN {
            tt_eval
        } else if self.before(ply, 1).mv == NONE && ply > 0 {
            -self.before(ply, 1).eval
        } else {
            self.static_value(b)
        };
        self.frame(ply).eval = stat;
        let mut best = stat;
        if hit.is_some() && tt_refines(tt_bound, tt_value, stat) {
            best = tt_value;
        }
        if best >= beta {
            if hit.is_none() {
                self.store(key, best, stat, LOWER, NONE, -128, false, p);
            }
            return best;
        }
        if pv && best > alpha {
            alpha = best;
        }
        if !pv && best + self.unit(delta_margin(depth as Depth)) < alpha {
            if hit.is_none() {
                self.store(key, alpha, stat, UPPER, NONE, -128, false, p);
            }
            return alpha;
        }
        let alpha0 = alpha;
        let mut fours = [0usize; 16];
        let n = self.quiet_fours(b, ply, depth, tt_move, &mut fours);
        let mut best_move = NONE;
        for &m in &fours[..n] {
            let shapes = self.shapes(b, m);
            self.set_move(ply, m, shapes);
            b.play(m);
            let v = -self.forced_block(b, ply + 1, -beta, -alpha, depth - 1, pv);
            b.undo();
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv {
                        self.pv_table.update(ply, m);
                    }
                    if pv && v < beta {
                        alpha = v;
                    } else {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if pv && best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        self.store(key, best, stat, bound, best_move, depth.max(-2), pv, p);
        best
    }

    /// The fours the quiescence plays at `ply` (see `quiescence`), the table move first,
    /// then by their shape; how many of `out` it filled.
    pub(super) fn quiet_fours(
        &mut self,
        b: &mut EngineBoard,
        ply: usize,
        depth: i32,
        tt_move: usize,
        out: &mut [usize; 16],
    ) -> usize {
        let me = b.side();
        if b.count_at_least(me, Threat::Four) == 0 {
            return 0;
        }
        let centre = self.before(ply, 2).mv;
        if centre == NONE {
            return 0;
        }
        let plain = depth >= -1
            || (self.before(ply, 2).shape[me.index()] >= shape::BLOCK4_PLUS
                && self.before(ply, 4).shape[me.index()] >= shape::BLOCK4_PLUS);
        let mut scored = [(0usize, 0u8); 16];
        let mut n = 0;
        for &o in b.around() {
            let i = (centre as isize + o) as usize;
            if !b.is_empty(i) || b.threat(i, me) < Threat::Four {
                continue;
            }
            let s = self.shape(b, i, me);
            if s < shape::BLOCK4 || (!plain && s < shape::BLOCK4_PLUS) {
                continue;
            }
            let key = if i == tt_move { u8::MAX } else { s };
            scored[n] = (i, key);
            n += 1;
            if n == scored.len() {
                break;
            }
        }
        scored[..n].sort_unstable_by_key(|&(i, s)| (std::cmp::Reverse(s), i));
        let mut kept = 0;
        for &(i, _) in &scored[..n] {
            if b.is_legal_for(i, me) {
                out[kept] = i;
                kept += 1;
            }
        }
        kept
    }

    /// The defender's node of the quiescence: the one block of the attacker's five point,
    /// not counted as a four (a forbidden block loses in renju); without a five to stop, the
    /// static value.
    pub(super) fn forced_block(
        &mut self,
        b: &mut EngineBoard,
        ply: usize,
        alpha: i32,
        beta: i32,
        depth: i32,
        pv: bool,
    ) -> i32 {
        if let Some(v) = self.enter_node(b, ply, pv) {
            return v;
        }
        let p = ply as i32;
        let me = b.side();
        let mut f = std::mem::take(&mut self.scratch);
        fives(b, !me, &mut f);
        let block = f.first().copied();
        let many = f.len() >= 2;
        self.scratch = f;
        let Some(m) = block else {
            return self.static_value(b);
        };
        if many || !b.is_legal_for(m, me) {
            return -(MATE - p - 2);
        }
        if ply >= MAX_PLY - 2 {
            return self.static_value(b);
        }
        let shapes = self.shapes(b, m);
        self.set_move(ply, m, shapes);
        b.play(m);
        let v = -self.quiescence(b, ply + 1, -beta, -alpha, depth, pv);
        b.undo();
        if pv && !self.aborted {
            self.pv_table.update(ply, m);
        }
        v
    }
}
