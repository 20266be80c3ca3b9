//! The strong Connect6 engine. A turn is two stones; pairs come from threat analysis: when the
//! opponent has threat windows, only pairs that hit all of them; otherwise pairs that make
//! threats (with double threats — more windows than two stones can block — found at once),
//! then positional pairs built from the best single points. Alpha-beta (PVS) over turns with
//! iterative deepening and the shared transposition table.

use super::board::{Board6, WINDOW_VALUE};
use super::learned;
use super::threats::{Tss, blocking_replies, single_blockable, threat_candidates};
use crate::player::{Limits, StopFlag};
use crate::search::pv::PvTable;
use crate::search::score::wide::{MATE, WIN_BOUND};
use crate::search::score::{Scale, WIDE};
use crate::search::tt::{Bound, Entry, Table, TtMove};
use crate::search::{Deadline, TimeManager};
use boyi_core::Side;
use std::time::Instant;

mod pairs;

pub use super::gaps::{Gap, Gaps, NONE, Pair, blockable};
use super::gaps::{Shared, gaps_blockable, pair, pair_effect, single_score, widest_block};
use pairs::*;

const INF: i32 = MATE + 1;
const MAX_PLY: usize = 64;
/// Iterations of a timed search (each adds one turn).
const MAX_DEPTH: u32 = 40;
/// Points of the opponent's winning lines a second round of defences is built from.
const REFUTING_POINTS: usize = 16;

/// A turn as the table keeps it: its two points in 10 bits each (the largest board has 676
/// points), the second all ones for a one-stone turn. `(0, 0)`, no turn, packs to 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Stored(pub u16, pub u16);

const ONE_STONE: u32 = (1 << 10) - 1;

impl TtMove for Stored {
    const BITS: u32 = 20;
    const SCALE: Scale = WIDE;

    #[inline(always)]
    fn to_bits(self) -> u32 {
        let b = if self.1 == NONE {
            ONE_STONE
        } else {
            self.1 as u32
        };
        self.0 as u32 | b << 10
    }

    #[inline(always)]
    fn from_bits(bits: u32) -> Stored {
        let b = bits >> 10;
        Stored(
            (bits & ONE_STONE) as u16,
            if b == ONE_STONE { NONE } else { b as u16 },
        )
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Megabytes of the transposition table.
    pub hash: usize,
    /// Pairs searched per node.
    pub width: usize,
    /// Single points combined into pairs.
    pub singles: usize,
    pub depth: u32,
    /// Turns searched past the nominal depth (threats and their blocks).
    pub quiet_turns: i32,
    /// Blocking turns tried per quiescence node.
    pub quiet_blocks: usize,
    /// Threat-making turns tried per quiescence node.
    pub quiet_threats: usize,
    /// Whether a quiescence loss against only some of the blocks (a threat one stone
    /// answers) counts as a loss; otherwise the position is judged statically.
    pub quiet_trust: bool,
    /// Own turns of the threat-space search at the root (0: none).
    pub tss_turns: u32,
    /// Attacker turns one threat-space search may try.
    pub tss_budget: u64,
    /// Free stones tried for the defender after a single threat when judging the
    /// opponent's threats.
    pub tss_free: usize,
    /// Own turns of the threat-space search at quiescence leaves (0: none).
    pub leaf_tss: u32,
    /// Attacker turns one leaf search may try.
    pub leaf_tss_budget: u64,
    /// What a quiet leaf loses when the opponent, were it to move, would win by double
    /// threats (0: not checked): the side to move must spend its turn on defence, or has
    /// already lost if no turn stops every such win.
    pub pending: i32,
    /// Own turns of that check's threat-space search (1: a win at once).
    pub pending_turns: u32,
    /// What a one-sided window of `n` stones is worth.
    pub values: [i32; 7],
    /// The side to move's bonus at quiet leaves with `eval=0` (the fitted weights have
    /// their own).
    pub tempo: i32,
    /// The quiet leaves' evaluation: 1 (the default) the weights fitted to game results
    /// (`learned.rs`), 0 the window sums (own less the opponent's, plus `tempo`).
    pub eval: u8,
    /// Places among the `width` turns kept for threat-making pairs (those that need both
    /// of the opponent's stones first), which the positional ranking may otherwise crowd out.
    pub threat_slots: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            hash: 6,
            width: 12,
            singles: 10,
            depth: 4,
            quiet_turns: 6,
            quiet_blocks: 4,
            quiet_threats: 2,
            quiet_trust: false,
            tss_turns: 8,
            tss_budget: 2000,
            tss_free: 2,
            leaf_tss: 2,
            leaf_tss_budget: 24,
            pending: 200,
            pending_turns: 1,
            values: WINDOW_VALUE,
            tempo: 30,
            eval: 1,
            threat_slots: 4,
        }
    }
}

pub struct Found {
    pub best: Pair,
    pub value: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Pair>,
}

pub struct Engine6 {
    pub config: Config,
    tt: Table<Stored>,
    nodes: u64,
    aborted: bool,
    deadline: Option<Deadline>,
    pool: Vec<Vec<Pair>>,
    singles: Vec<Vec<(usize, i32)>>,
    pv: PvTable<Pair>,
    /// Scratch for candidate point pairs of threat moves.
    cands: Vec<(u16, u16)>,
    /// Scratch for the threat-making pairs kept a place in [`Self::generate`].
    forcing: Vec<Pair>,
    /// Scratch for the stones that block every opponent threat.
    replies: Vec<(u16, u16)>,
    tss: Tss,
    /// Scratch of the fitted evaluation.
    eval_scratch: learned::Scratch,
}

impl Engine6 {
    pub fn new(config: Config) -> Engine6 {
        Engine6 {
            tt: Table::new(config.hash),
            config,
            nodes: 0,
            aborted: false,
            deadline: None,
            pool: Vec::new(),
            singles: Vec::new(),
            pv: PvTable::new(MAX_PLY),
            cands: Vec::with_capacity(256),
            forcing: Vec::new(),
            replies: Vec::new(),
            tss: Tss::new(0),
            eval_scratch: learned::Scratch::default(),
        }
    }

    pub fn clear(&mut self) {
        self.tt.clear();
        self.tss.clear();
    }

    /// Searches the position of `b` within `limits` (tests; a player goes through
    /// [`TimeManager`]).
    pub fn search(
        &mut self,
        b: &mut Board6,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(&Found),
    ) -> Option<Found> {
        let time = TimeManager::new(limits, b.side(), stop, self.config.depth);
        self.search_within(b, &time, info)
    }

    /// Searches the position of `b` within `time`, reporting each finished iteration.
    pub fn search_within(
        &mut self,
        b: &mut Board6,
        time: &TimeManager,
        info: &mut dyn FnMut(&Found),
    ) -> Option<Found> {
        self.nodes = 0;
        self.aborted = false;
        b.set_values(self.config.values);
        if b.stones() == 0 {
            let c = b.size() / 2;
            let p = (c * b.size() + c) as u16;
            return Some(Found {
                best: pair(p as usize, None, 0),
                value: 0,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            });
        }
        self.deadline = Some(time.deadline(time.budget()).for_slow_nodes());
        self.tt.new_search();
        let mut root = Vec::new();
        self.generate(b, &mut root);
        if root.len() > 1 && self.config.tss_turns > 0 {
            // A third of the time goes to threat sequences, two thirds once the opponent
            // threatens a win (the search cannot judge turns that lose to it).
            let now = Instant::now();
            let until = time.budget().map(|t| (now + t / 3, now + t * 2 / 3));
            if let Some(won) = self.screen_root(b, &mut root, until) {
                let found = Found {
                    best: won.0,
                    value: won.1,
                    depth: 1,
                    nodes: self.tss.nodes,
                    pv: vec![won.0],
                };
                info(&found);
                self.deadline = None;
                return Some(found);
            }
        }
        let first = *root.first()?;
        // The limits' depth, else the player's default without a time or node limit.
        let max_depth = time.depth.unwrap_or(MAX_DEPTH);
        let mut best = Found {
            best: first,
            value: 0,
            depth: 0,
            nodes: 0,
            pv: vec![first],
        };
        for depth in 1..=max_depth {
            let (v, improved) = self.root(b, &mut root, depth as i32);
            // An unfinished iteration counts only for a turn that beat the previous best
            // with a finished search (the first iteration always counts).
            let keep = !self.aborted || depth == 1 || improved;
            if keep && let Some(&m) = self.pv.root_line().first() {
                best = Found {
                    best: m,
                    value: v,
                    depth,
                    nodes: self.nodes,
                    pv: self.pv.root_line().to_vec(),
                };
            }
            best.nodes = self.nodes;
            if keep {
                info(&best);
            }
            // Stop early only on a win within the nominal depth or a forced turn: a loss is
            // proven only against the turns searched, and a win seen past the depth only
            // against the few blocks tried there, so a deeper search may still find a defence.
            if self.aborted || won_within(v, depth) || root.len() == 1 {
                break;
            }
        }
        self.deadline = None;
        Some(best)
    }

    /// Threat sequences at the root: a proven win by double threats is returned (turn and
    /// value) to be played at once; if the opponent, were it to move, would win by threats,
    /// the turns that break its sequence (stones on the points of its lines, with the best
    /// other points; facing a threat one stone blocks, that stone with a point of the lines
    /// the opponent wins by after it) join the root turns and every root turn after which
    /// the opponent still wins is dropped. If none survives, turns on the points most of the
    /// winning lines pass through are tried too (all are kept if none survives still).
    /// `until`: when the search for wins and the danger test give up, and when checking the
    /// turns does.
    fn screen_root(
        &mut self,
        b: &mut Board6,
        root: &mut Vec<Pair>,
        until: Option<(Instant, Instant)>,
    ) -> Option<(Pair, i32)> {
        let me = b.side();
        let (turns, budget) = (self.config.tss_turns, self.config.tss_budget);
        self.tss.until = until.map(|u| u.0);
        self.tss.nodes = 0;
        self.tss.single_free = 0;
        // The shortest win (a win at the k-th own turn is 2k + 1 plies away); facing
        // threats, its first turn blocks them. It may use four checks' budget.
        if let Some(k) = self.tss.shortest_win(b, turns, 4 * budget)
            && let Some(m) = self.tss.first
        {
            return Some((m, MATE - (2 * k as i32 + 1)));
        }
        let mut cands = root.clone();
        // The opponent's sequences by double threats are proven and drop a turn; those with
        // single threats (tried with a smaller budget) only send it to the back.
        // Facing a threat one stone blocks: those stones.
        let mut blocks = Vec::new();
        let single = if b.threats(!me) == 0 {
            // Our stones never help the opponent's threats: if it has no sequence after a
            // pass, it has none after any turn of ours.
            let (single, zone) = self.opponent_sequence(b, turns, budget)?;
            self.defensive_pairs(b, &zone, &mut cands);
            single
        } else {
            self.free_stone_pairs(b, &mut blocks, &mut cands)
        };
        dedupe_sort(&mut cands);
        // Out of time, only the turns checked are searched: most unchecked ones lose when
        // the opponent threatens a win (a check cut short counts as unchecked).
        let until = until.map(|u| u.1);
        self.tss.until = until;
        let mut kept = Vec::new();
        let mut doubtful = Vec::new();
        let mut refuting = Vec::new();
        self.check_turns(b, &cands, single, &mut kept, &mut doubtful, &mut refuting);
        if kept.is_empty() && doubtful.is_empty() {
            // Every turn tried loses: the points most of the winning lines against them pass
            // through are where a defence may still be.
            let zone = most_common(b, refuting, REFUTING_POINTS);
            let mut more = Vec::new();
            if blocks.is_empty() {
                self.defensive_pairs(b, &zone, &mut more);
            }
            for &x in &blocks {
                paired_with(b, x, &zone, &mut more);
            }
            more.retain(|m| !cands.iter().any(|c| (c.a, c.b) == (m.a, m.b)));
            dedupe_sort(&mut more);
            self.check_turns(b, &more, single, &mut kept, &mut doubtful, &mut Vec::new());
        }
        kept.extend(doubtful);
        kept.truncate(self.config.width);
        if !kept.is_empty() {
            *root = kept;
        }
        None
    }

    /// Facing threats one stone blocks, the turns of such a block with a free stone on the
    /// lines of the opponent's sequence after it; the blocking stones go to `blocks`.
    /// Returns whether that sequence needs single threats.
    fn free_stone_pairs(
        &mut self,
        b: &mut Board6,
        blocks: &mut Vec<u16>,
        cands: &mut Vec<Pair>,
    ) -> bool {
        let me = b.side();
        let (turns, budget) = (self.config.tss_turns, self.config.tss_budget);
        let mut single = false;
        let mut replies = std::mem::take(&mut self.replies);
        if blocking_replies(&Gaps::of(b, !me), &mut replies) {
            for &(x, _) in replies.iter().filter(|&&(x, y)| x == y) {
                blocks.push(x);
                b.play(x as usize, None);
                b.undo_side_only(me);
                let seq = self.opponent_sequence(b, turns, budget);
                b.undo_keep_side(me);
                let Some((s, zone)) = seq else { continue };
                single |= s;
                paired_with(b, x, &zone, cands);
            }
        }
        self.replies = replies;
        single
    }

    /// Checks `cands` in order against the opponent's threat sequences, until `width` pass or
    /// the time for it runs out: turns it still wins against by double threats are dropped,
    /// those it may win against by single threats (when `single`) go to `doubtful`, the rest
    /// to `kept`. The points of the lines that win against dropped turns go to `refuting`.
    fn check_turns(
        &mut self,
        b: &mut Board6,
        cands: &[Pair],
        single: bool,
        kept: &mut Vec<Pair>,
        doubtful: &mut Vec<Pair>,
        refuting: &mut Vec<u16>,
    ) {
        let (turns, budget) = (self.config.tss_turns, self.config.tss_budget);
        let until = self.tss.until;
        let out_of_time = || until.is_some_and(|t| Instant::now() >= t);
        for &m in cands {
            if out_of_time() || kept.len() >= self.config.width {
                break;
            }
            b.play(m.a as usize, m.second());
            self.tss.single_free = 0;
            let lost = self.tss.shortest_win(b, turns, budget).is_some();
            if lost {
                refuting.extend(self.tss.line_points());
            }
            self.tss.single_free = self.config.tss_free;
            let risky = !lost && single && self.tss.shortest_win(b, turns, budget / 4).is_some();
            self.tss.single_free = 0;
            b.undo();
            if out_of_time() {
                break;
            }
            match (lost, risky) {
                (true, _) => {}
                (false, true) => doubtful.push(m),
                (false, false) => kept.push(m),
            }
        }
    }

    /// The opponent's win by threats were it to move (the side to move having none to
    /// answer): whether it needs single threats (not proven), and the empty points of its
    /// lines. None if it has none.
    fn opponent_sequence(
        &mut self,
        b: &mut Board6,
        turns: u32,
        budget: u64,
    ) -> Option<(bool, Vec<u16>)> {
        let me = b.side();
        if b.threats(me) > 0 {
            return None;
        }
        b.set_side(!me);
        self.tss.single_free = 0;
        let mut found = self.tss.shortest_win(b, turns, budget).map(|_| false);
        if found.is_none() && self.config.tss_free > 0 {
            self.tss.single_free = self.config.tss_free;
            found = self.tss.shortest_win(b, turns, budget / 4).map(|_| true);
        }
        self.tss.single_free = 0;
        b.set_side(me);
        let single = found?;
        let mut zone: Vec<u16> = self.tss.line_points().collect();
        zone.sort_unstable();
        zone.dedup();
        zone.retain(|&p| b.is_empty(p as usize));
        Some((single, zone))
    }

    /// Turns with a stone on a point of the opponent's threat lines: two such points, or
    /// one with one of the best other points.
    fn defensive_pairs(&mut self, b: &mut Board6, zone: &[u16], out: &mut Vec<Pair>) {
        let me = b.side();
        let mut ranked = self.singles.pop().unwrap_or_default();
        self.rank_singles(b, &mut ranked);
        for (i, &z) in zone.iter().enumerate() {
            let z = z as usize;
            let sz = single_score(b, z, me);
            for &y in &zone[i + 1..] {
                out.push(pair(
                    z,
                    Some(y as usize),
                    sz + single_score(b, y as usize, me),
                ));
            }
            for &(c, sc) in ranked.iter().filter(|&&(c, _)| c != z).take(4) {
                out.push(pair(z, Some(c), sz + sc));
            }
        }
        self.singles.push(ranked);
    }

    /// One iteration over the root turns: its value, and whether a turn other than the first
    /// became best with a finished search.
    fn root(&mut self, b: &mut Board6, moves: &mut [Pair], depth: i32) -> (i32, bool) {
        if let Some(&pv) = self.pv.root_line().first()
            && let Some(k) = moves.iter().position(|m| (m.a, m.b) == (pv.a, pv.b))
        {
            moves[..=k].rotate_right(1);
        }
        let mut alpha = -INF;
        let mut best = -INF;
        let mut improved = false;
        for (n, &m) in moves.iter().enumerate() {
            b.play(m.a as usize, m.second());
            let v = if n == 0 {
                -self.negamax(b, depth - 1, 1, -INF, -alpha)
            } else {
                let mut v = -self.negamax(b, depth - 1, 1, -alpha - 1, -alpha);
                if v > alpha && !self.aborted {
                    v = -self.negamax(b, depth - 1, 1, -INF, -alpha);
                }
                v
            };
            b.undo();
            if self.aborted && n > 0 {
                break;
            }
            if v > best {
                best = v;
                improved = n > 0;
                self.pv.update(0, m);
            }
            alpha = alpha.max(v);
        }
        (best, improved)
    }

    /// Counts a node and checks the deadline.
    fn enter(&mut self, ply: usize) {
        self.nodes += 1;
        self.pv.clear(ply);
        if self
            .deadline
            .as_ref()
            .is_some_and(|d| d.reached(self.nodes))
        {
            self.aborted = true;
        }
    }

    fn negamax(
        &mut self,
        b: &mut Board6,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.enter(ply);
        let p = ply as i32;
        if b.winner().is_some() {
            return -(MATE - p);
        }
        if self.aborted || b.stones() == b.points() || ply >= MAX_PLY - 1 {
            return 0;
        }
        let me = b.side();
        if b.threats(me) > 0 {
            return MATE - p - 1;
        }
        let key = b.hash();
        let mut tt_move = (NONE, NONE);
        if let Some(e) = self.tt.probe(key, p) {
            tt_move = (e.mv.0, e.mv.1);
            if e.depth >= depth && e.bound.cuts(e.score, alpha, beta) {
                return e.score;
            }
        }
        if depth <= 0 {
            return self.quiesce(b, ply, alpha, beta, self.config.quiet_turns);
        }
        let mut moves = self.pool.pop().unwrap_or_default();
        self.generate(b, &mut moves);
        if moves.is_empty() {
            self.pool.push(moves);
            return -(MATE - p - 2);
        }
        if let Some(k) = moves.iter().position(|m| (m.a, m.b) == tt_move) {
            moves[..=k].rotate_right(1);
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = moves[0];
        for (n, &m) in moves.iter().enumerate() {
            b.play(m.a as usize, m.second());
            let v = if n == 0 {
                -self.negamax(b, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let mut v = -self.negamax(b, depth - 1, ply + 1, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.negamax(b, depth - 1, ply + 1, -beta, -alpha);
                }
                v
            };
            b.undo();
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    self.pv.update(ply, m);
                }
            }
            if alpha >= beta {
                break;
            }
        }
        self.pool.push(moves);
        if !self.aborted {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let entry = Entry {
                mv: Stored(best_move.a, best_move.b),
                score: best,
                eval: 0,
                depth,
                bound,
                pv: false,
            };
            self.tt.store(key, p, entry);
        }
        best
    }

    /// The search past the nominal depth: a side facing threats must block them before the
    /// position is judged, and a side free to move may stand pat or try its best few
    /// threat-making turns (which the opponent must answer). `turns` bounds the extension.
    pub(super) fn quiesce(
        &mut self,
        b: &mut Board6,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        turns: i32,
    ) -> i32 {
        let p = ply as i32;
        if b.winner().is_some() {
            return -(MATE - p);
        }
        if self.aborted || b.stones() == b.points() || ply >= MAX_PLY - 1 {
            return 0;
        }
        let me = b.side();
        if b.threats(me) > 0 {
            return MATE - p - 1;
        }
        let forced = b.threats(!me) > 0;
        if forced && !blockable(b, !me) {
            return -(MATE - p - 2);
        }
        let mut stand = if self.config.eval == 1 {
            learned::value(b, &mut self.eval_scratch)
        } else {
            b.evaluate() + self.config.tempo
        };
        if !forced && stand < beta && self.leaf_threat_win(b) {
            return MATE - p - (2 * self.config.leaf_tss as i32 + 1);
        }
        if !forced && stand > alpha && self.opponent_threatens_win(b) {
            stand -= self.config.pending;
        }
        if turns <= 0 || (!forced && (stand >= beta || turns < 2)) {
            return stand;
        }
        let mut moves = self.pool.pop().unwrap_or_default();
        moves.clear();
        let mut best = -INF;
        // Whether the blocks tried leave out some (a threat one stone answers leaves the
        // other stone free, and only the best few blocks are tried).
        let mut partial = false;
        if forced {
            self.blocking_pairs(b, &mut moves);
            dedupe_sort(&mut moves);
            if single_blockable(&Gaps::of(b, !me)) {
                partial = moves.len() > self.config.quiet_blocks;
                moves.truncate(self.config.quiet_blocks);
            }
        } else {
            best = stand;
            alpha = alpha.max(stand);
            threat_pairs(b, me, &mut moves, &mut self.cands);
            dedupe_sort(&mut moves);
            moves.truncate(self.config.quiet_threats);
        }
        for &m in moves.iter() {
            b.play(m.a as usize, m.second());
            self.enter(ply + 1);
            let v = -self.quiesce(b, ply + 1, -beta, -alpha, turns - 1);
            b.undo();
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.pv.update(ply, m);
                }
            }
            if alpha >= beta {
                break;
            }
        }
        self.pool.push(moves);
        if partial && !self.config.quiet_trust && best < -WIN_BOUND && !self.aborted {
            // A loss against the blocks tried is no proof: judge the position instead.
            return stand.min(beta);
        }
        if best == -INF { stand } else { best }
    }

    /// Whether the side to move, free of threats, wins by double threats within
    /// `leaf_tss` turns (a small search: most leaves have no such win).
    fn leaf_threat_win(&mut self, b: &mut Board6) -> bool {
        self.config.leaf_tss > 0 && self.small_threat_win(b, self.config.leaf_tss)
    }

    /// Whether the opponent of the side to move (neither has a threat window) would win by
    /// double threats within `pending_turns` own turns were it to move: a double-threat point
    /// the window sums do not see.
    pub(super) fn opponent_threatens_win(&mut self, b: &mut Board6) -> bool {
        if self.config.pending == 0 {
            return false;
        }
        let me = b.side();
        b.set_side(!me);
        let won = self.small_threat_win(b, self.config.pending_turns);
        b.set_side(me);
        won
    }

    /// Whether the side to move wins by double threats within `turns`, trying at most the
    /// leaf budget of attacker turns (positions judged before come from the table).
    fn small_threat_win(&mut self, b: &mut Board6, turns: u32) -> bool {
        self.tss.single_free = 0;
        self.tss.until = None;
        self.tss.wins_quick(b, turns, self.config.leaf_tss_budget)
    }
}

/// Whether `v` is a win whose last stone lies within `depth` turns (plus the stone that
/// completes six).
pub fn won_within(v: i32, depth: u32) -> bool {
    v > WIN_BOUND && MATE - v <= depth as i32 + 2
}
