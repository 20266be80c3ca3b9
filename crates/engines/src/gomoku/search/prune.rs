//! What the principal-variation search prunes and reduces (late moves, futility, null
//! moves, the policy's gaps), how it orders moves (point values, killers, history), and its
//! leaves and move generation.

use super::*;

impl Engine {
    /// Plies the `n`th move (counted from 0) of a null-window search at `depth` is reduced by.
    pub(super) fn reduction(&self, forced: bool, depth: i32, n: usize) -> i32 {
        let c = &self.config;
        if forced || depth < c.lmr_depth || n < c.lmr_from {
            0
        } else if n >= c.lmr_deep && depth >= 4 {
            2
        } else {
            1
        }
    }

    /// Extra plies of reduction for a move `gap` hundredths below the node's best ordering
    /// score (`policy_reduce`).
    pub(super) fn policy_reduction(&self, forced: bool, depth: i32, gap: i32) -> i32 {
        let c = &self.config;
        if forced || !c.policy || c.policy_reduce <= 0 || depth < 2 {
            0
        } else {
            (gap / c.policy_reduce).min(3)
        }
    }

    /// Whether a quiet null-window move far below the node's best ordering score is skipped
    /// near the leaves (`policy_prune`).
    pub(super) fn policy_pruned(
        &self,
        b: &EngineBoard,
        m: usize,
        n: usize,
        depth: i32,
        pv: bool,
        gap: i32,
    ) -> bool {
        let c = &self.config;
        c.policy
            && c.policy_prune > 0
            && !pv
            && n > 0
            && (1..=3).contains(&depth)
            && gap > c.policy_prune
            && quiet_move(b, m)
    }

    /// Move-count pruning: near the leaves of a null-window search, the `n`th move (counted
    /// from 0) is skipped once `move_count` times the depth moves are searched if it makes no
    /// three or four for either side. The static order ranks such moves well below every
    /// threat and block, and a depth-1 or depth-2 search of them seldom changes the value.
    pub(super) fn late_quiet(
        &self,
        b: &EngineBoard,
        m: usize,
        n: usize,
        depth: i32,
        pv: bool,
    ) -> bool {
        let mc = self.config.move_count;
        mc > 0 && !pv && (1..=2).contains(&depth) && n >= mc * depth as usize && quiet_move(b, m)
    }

    /// Futility at a null-window node where the opponent makes no double three, four-three,
    /// straight four or five next move (so the static value is not about to collapse). Near
    /// the leaves a static value `rfp` per ply above beta cuts the node, and at depth 1 or 2
    /// one `razor` per ply below alpha returns it when the side to move has no four to make
    /// (`Break`). One `futility` per ply below alpha leaves only the moves that make or stop a
    /// three worth searching after the first; at any depth, one `fail_high` per ply above beta
    /// has every move but the side to move's fours searched a ply shallower (`Continue`).
    pub(super) fn futility(
        &self,
        b: &mut EngineBoard,
        depth: i32,
        alpha: i32,
        beta: i32,
        threatened: bool,
    ) -> ControlFlow<i32, Narrow> {
        let c = &self.config;
        let near = (c.rfp > 0 && depth <= c.rfp_depth)
            || (c.futility > 0 && depth <= c.futility_depth)
            || (c.razor > 0 && depth <= 2)
            || c.fail_high > 0;
        if !near
            || threatened
            || beta - alpha > 1
            || beta.abs() >= WIN_BOUND
            || b.count(!b.side(), Threat::DoubleThree) > 0
        {
            return ControlFlow::Continue(Narrow::default());
        }
        let v = self.static_value(b);
        if c.rfp > 0 && depth <= c.rfp_depth && v - c.rfp * depth >= beta {
            return ControlFlow::Break(v);
        }
        if c.razor > 0
            && depth <= 2
            && v + c.razor * depth < alpha
            && b.count_at_least(b.side(), Threat::Four) == 0
        {
            return ControlFlow::Break(v);
        }
        ControlFlow::Continue(Narrow {
            futile: c.futility > 0 && depth <= c.futility_depth && v + c.futility * depth <= alpha,
            shallower: c.fail_high > 0 && v >= beta + c.fail_high * depth,
        })
    }

    /// Null-move pruning: a side that stands above beta and would still stand above it after
    /// passing (searched `null_r` plies shallower) is cut off. Gomoku knows no zugzwang: a
    /// stone never hurts its side, so a pass bounds the value from below. Not tried when
    /// the opponent has a winning threat to make or a double three, in the principal
    /// variation, near mate scores or right after a pass.
    pub(super) fn null_move(
        &mut self,
        b: &mut EngineBoard,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        threatened: bool,
    ) -> Option<i32> {
        let r = self.config.null_r;
        if r == 0
            || depth < 2
            || threatened
            || beta - alpha > 1
            || beta.abs() >= WIN_BOUND
            || b.passed()
            || b.count(!b.side(), Threat::DoubleThree) > 0
            || self.static_value(b) < beta
        {
            return None;
        }
        b.pass();
        let v = -self.negamax(b, depth - 1 - r, ply + 1, -beta, -beta + 1);
        b.undo();
        (v >= beta && !self.aborted).then_some(beta)
    }

    /// Re-orders the moves kept after the width cut by their cut-offs elsewhere in the tree:
    /// the static order chose which moves are searched, the history which come first. The
    /// transposition-table move stays first.
    pub(super) fn order_by_history(&self, moves: &mut [(usize, i32)], me: Side) {
        for mv in moves.iter_mut() {
            if mv.1 != i32::MAX {
                let h = self.history.get(mv.0).map_or(0, |h| h[me.index()]);
                mv.1 = mv.1.saturating_add((h / HISTORY_SCALE).min(HISTORY_BONUS));
            }
        }
        moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    }

    /// Values decided by the threats on the board alone: a five to make, two fives to stop,
    /// a straight four to make.
    pub(super) fn immediate(&mut self, b: &mut EngineBoard, p: i32) -> Option<i32> {
        let me = b.side();
        let mut f = std::mem::take(&mut self.scratch);
        fives(b, me, &mut f);
        let mut out = (!f.is_empty()).then_some(MATE - p - 1);
        if out.is_none() {
            fives(b, !me, &mut f);
            if f.len() >= 2 || (f.len() == 1 && !b.is_legal_for(f[0], me)) {
                out = Some(-(MATE - p - 2));
            } else if f.is_empty() && b.count(me, Threat::FlexFour) > 0 {
                collect(b, me, Threat::FlexFour, &mut f);
                if !f.is_empty() && !self.flex_is_fake(b, &f) {
                    out = Some(MATE - p - 3);
                }
            }
        }
        self.scratch = f;
        out
    }

    /// Under exact-five rules the window tables may see a five point that is an overline
    /// point; a claimed straight four is checked on the board.
    pub(super) fn flex_is_fake(&mut self, b: &mut EngineBoard, cands: &[usize]) -> bool {
        if b.rule().wins(b.side(), 6) {
            return false;
        }
        let me = b.side();
        let mut f = Vec::new();
        for &c in cands {
            b.play(c);
            fives(b, me, &mut f);
            b.undo();
            if f.len() >= 2 {
                return false;
            }
        }
        true
    }

    /// A quiet position's value: the static evaluation, or a short VCF for the side to move.
    pub(super) fn leaf(&mut self, b: &mut EngineBoard) -> i32 {
        let me = b.side();
        let fours = leaf_vcf(self.config.leaf_vcf, b.rule());
        if fours > 0 && b.count_at_least(me, Threat::Four) > 0 {
            self.threats.reset(60, None);
            let won = self.threats.vcf(b, fours);
            self.nodes += self.threats.nodes;
            if won {
                return MATE - b.ply() as i32 - 8;
            }
        }
        self.static_value(b)
    }

    /// The static evaluation for the side to move.
    pub(super) fn static_value(&self, b: &mut EngineBoard) -> i32 {
        let me = b.side();
        if self.config.eval == 3 {
            // The opponent's points have values of their own: no `defence` factor.
            let (mine, theirs) = (b.fit_sums(me)[0], b.fit_sums(!me)[1]);
            return mine - theirs + weigh(&threat_terms(b, me), &THREAT_WEIGHTS) + TEMPO;
        }
        let sums = b.sums();
        let (mine, theirs) = (sums[me.index()], sums[(!me).index()]);
        if self.config.eval >= 2 {
            let (mine, theirs) = (line_sum(b, me), line_sum(b, !me));
            return mine - theirs * self.config.defence / 100 + threat_balance(b, me) + 40;
        }
        let opp_threat = b.count_at_least(!me, Threat::FlexFour) > 0;
        let own = if b.count_at_least(me, Threat::FourThree) > 0 {
            400
        } else {
            0
        };
        let tempo = if self.config.eval == 1 {
            initiative(b, me)
        } else {
            0
        };
        mine - theirs * self.config.defence / 100 + own - if opp_threat { 150 } else { 0 }
            + 40
            + tempo
    }

    /// Candidate moves with ordering scores, unordered (`keep_legal` orders them): the
    /// answer to a five; against a threat of a straight four, the blocking points and own
    /// fours; else the neighbourhood. Only the answer to a five is checked against renju's
    /// forbidden points here; the rest are checked by `keep_legal` as far as they are
    /// searched.
    pub(super) fn generate(
        &mut self,
        b: &mut EngineBoard,
        out: &mut Vec<(usize, i32)>,
        _ply: usize,
    ) {
        out.clear();
        let me = b.side();
        let mut f = std::mem::take(&mut self.scratch);
        fives(b, !me, &mut f);
        if let Some(&c) = f.first() {
            if b.is_legal_for(c, me) {
                out.push((c, 0));
            }
            self.scratch = f;
            return;
        }
        self.scratch = f;
        let defend = has_open_three(b, !me);
        let policy = self.config.policy.then(|| PolicyScorer::new(b));
        for i in b.zone() {
            if defend && !defends(b, i) {
                continue;
            }
            let score = if let Some(policy) = &policy {
                policy.score(b, i)
            } else {
                value_order(b, i)
            };
            out.push((i, score));
        }
    }
}

/// Whether point `i` blocks the opponent's threatened straight four or makes a four: the
/// only candidates against an open three.
pub fn defends(b: &EngineBoard, i: usize) -> bool {
    let me = b.side();
    b.threat(i, me) >= Threat::Four || b.threat(i, !me) >= Threat::Four
}

/// The ordering score of point `i` by its point values, the own counted 5/4.
pub fn value_order(b: &EngineBoard, i: usize) -> i32 {
    let me = b.side();
    b.value(i, me) * 5 / 4 + b.value(i, !me) + i32::from(b.near(i))
}

/// The ordering bonus of a killer move.
pub(super) const KILLER_BONUS: i32 = 50_000;

/// Whether `m` makes no three or four for either side.
pub(super) fn quiet_move(b: &EngineBoard, m: usize) -> bool {
    let me = b.side();
    b.threat(m, me) < Threat::Three && b.threat(m, !me) < Threat::Three
}

/// Orders `moves` best first (by score, then by point) and keeps the first `limit` that the
/// side to move may play (black's forbidden points are dropped in renju); whether every move
/// was looked at. Only the moves that will be searched are sorted and judged: the rest are
/// only partitioned off, and the forbidden-point test is the dearest part of a renju node.
pub(super) fn keep_legal(b: &mut EngineBoard, moves: &mut Vec<(usize, i32)>, limit: usize) -> bool {
    let me = b.side();
    let order = |&(i, s): &(usize, i32)| (std::cmp::Reverse(s), i);
    let (mut kept, mut seen, mut sorted) = (0, 0, 0);
    while seen < moves.len() && kept < limit {
        if seen == sorted {
            // The best `want` of the moves not yet sorted, in order.
            let rest = &mut moves[sorted..];
            let want = (limit - kept).min(rest.len());
            if want < rest.len() {
                rest.select_nth_unstable_by_key(want - 1, order);
            }
            rest[..want].sort_unstable_by_key(order);
            sorted += want;
        }
        if b.is_legal_for(moves[seen].0, me) {
            moves[kept] = moves[seen];
            kept += 1;
        }
        seen += 1;
    }
    let all = seen == moves.len();
    moves.truncate(kept);
    all
}
