//! What both the selective search and the root share: values decided by the threats on the
//! board, the static evaluation, the root's candidates and their order.

use super::*;

impl Engine {
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
    pub(super) fn generate(&mut self, b: &mut EngineBoard, out: &mut Vec<(usize, i32)>) {
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
