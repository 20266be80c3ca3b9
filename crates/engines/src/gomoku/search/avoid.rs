//! Guarding the chosen move against an opponent's threat win (VCF or VCT) that a shallow
//! search can miss, and answering a threat win found before the main search.

use super::*;

impl Engine {
    /// A shallow search can miss an opponent's win by fours and threes (a VCF or VCT). When
    /// the opponent has one were we to pass, the chosen move is checked, and if it does not
    /// stop the attack other root moves are tried (`defence_order`) until one does; the
    /// replacement keeps the search's value. Moves the main search found lost are not tried:
    /// the opponent's win after them may need quiet moves, which the threat search does not
    /// look at, so its check would pass them. Without a threat after a pass, no stone of ours
    /// can give the opponent one, so nothing is checked.
    pub(super) fn avoid_threat_loss(
        &mut self,
        b: &mut EngineBoard,
        root: &[usize],
        attack: Option<usize>,
        best: &mut Found,
        until: Option<Instant>,
    ) {
        let order = self.defence_order(b, root, attack, best.best);
        // A move whose check ran out of budget is not known to lose: kept when nothing is
        // known to hold, rather than a move known to lose.
        let mut pick = None;
        let order: Vec<usize> = order
            .into_iter()
            .filter(|m| !self.lost.contains(m))
            .collect();
        for (n, m) in order.into_iter().take(AVOID_TRIES).enumerate() {
            if until.is_some_and(|t| Instant::now() >= t) {
                break;
            }
            if self.opponent_wins_after(b, Some(m), until) {
                continue;
            }
            if !self.threats.aborted {
                pick = Some(m);
                break;
            }
            if n == 0 {
                return;
            }
            pick.get_or_insert(m);
        }
        if let Some(m) = pick
            && m != best.best
        {
            best.best = m;
            best.pv = vec![m];
        }
    }

    /// Root moves in the order they are tried as defences: the chosen move, the first move
    /// of the opponent's attack, the opponent's three and four points (its best first), then
    /// the other root moves.
    pub(super) fn defence_order(
        &mut self,
        b: &mut EngineBoard,
        root: &[usize],
        attack: Option<usize>,
        chosen: usize,
    ) -> Vec<usize> {
        let opp = !b.side();
        let mut points = Vec::new();
        threat_points(b, opp, Threat::Three, &mut points);
        points.sort_by_key(|&i| std::cmp::Reverse(b.value(i, opp)));
        let mut order = Vec::with_capacity(root.len());
        let first = [chosen].into_iter().chain(attack).chain(points);
        for m in first.chain(root.iter().copied()) {
            if root.contains(&m) && !order.contains(&m) {
                order.push(m);
            }
        }
        order
    }

    /// Whether the opponent wins by VCF or VCT after our move `m` (`None`: a pass).
    /// An interrupted search counts as no win (see `threats.aborted`).
    pub(super) fn opponent_wins_after(
        &mut self,
        b: &mut EngineBoard,
        m: Option<usize>,
        until: Option<Instant>,
    ) -> bool {
        match m {
            Some(m) => b.play(m),
            None => b.pass(),
        }
        self.threats.reset(AVOID_VCF_NODES, until);
        let mut lost = self.threats.vcf(b, 20);
        if !lost && !self.threats.aborted {
            self.threats.reset(self.config.avoid_vct_nodes, until);
            lost = self.threats.vct(b, self.config.vct_depth - 1, 10);
        }
        self.nodes += self.threats.nodes;
        b.undo();
        lost
    }

    /// Forced wins by threats before the main search: VCF always, VCT within a share of the
    /// time (or a node budget when searching to a fixed depth).
    pub(super) fn threat_first(
        &mut self,
        b: &mut EngineBoard,
        budget: Option<Duration>,
        depth: Option<u32>,
        started: Instant,
    ) -> Option<Found> {
        let share = |f: u32| budget.map(|t| started + t / f);
        self.threats.reset(400_000, share(4));
        let vcf = self.threats.vcf(b, 30);
        self.nodes += self.threats.nodes;
        if vcf {
            return Some(self.threat_found(true));
        }
        if !self.config.vct || depth.is_some_and(|d| d < 4) {
            return None;
        }
        self.threats.reset(150_000, share(self.config.vct_share));
        let vct = self.threats.vct(b, self.config.vct_depth, 10);
        self.nodes += self.threats.nodes;
        vct.then(|| self.threat_found(false))
    }

    /// The win the threat search found; `complete` when its line runs to the five (VCF).
    pub(super) fn threat_found(&self, complete: bool) -> Found {
        let pv = self.threats.line.clone();
        // Plies to the five: the line's length when complete, else an estimate.
        let plies = if complete { pv.len() as i32 } else { 9 };
        Found {
            best: pv[0],
            value: MATE - plies,
            depth: 0,
            pv,
            nodes: self.nodes,
        }
    }
}
