//! The strong Gomoku engine: threat-space search first (VCF, then VCT within a budget), then
//! principal-variation search with iterative deepening and a transposition table over
//! candidate moves chosen by threats (forced answers to fives and threes) and the neighbourhood
//! of the stones, ordered by the incremental point values (or, as an option, by values fitted
//! to a strong player's moves: `learned::policy_score`).

use super::board::EngineBoard;
use super::learned::{PolicyScorer, TEMPO, THREAT_WEIGHTS};
use super::pattern::{PATTERN_VALUE, Pattern, THREAT_VALUE, Threat};
use super::threat::{ThreatSearch, collect, fives, has_open_three, playable, threat_points};
use crate::player::{Info, Limits, StopFlag};
use crate::search::Deadline;
use crate::search::score::wide::{MATE, WIN_BOUND, from_tt, report as to_score, to_tt};
use boyi_core::{Point, Side};
use boyi_games::gomoku::Variant;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

mod selective;

const INF: i32 = MATE + 1;
const MAX_PLY: usize = 128;
/// Iterations searched even past the time budget (within three times it).
const MIN_DEPTH: u32 = 3;
/// Root moves checked against the opponent's threat win after the search.
const AVOID_TRIES: usize = 12;
/// Node budgets of each VCF and VCT check of a root move against the opponent's threats (the
/// VCT's by default: `Config::avoid_vct_nodes`). A VCT of two threes against a defender with
/// many counter-fours can take 40,000 nodes (test `the_threat_check_affords_a_short_vct`).
const AVOID_VCF_NODES: u64 = 20_000;
pub(super) const AVOID_VCT_NODES: u64 = 100_000;
/// History counts are capped; their ordering bonus is the count over the scale, capped.
const HISTORY_MAX: i32 = 1 << 20;
const HISTORY_SCALE: i32 = 4;
const HISTORY_BONUS: i32 = 400;

#[derive(Debug, Clone, Copy, Default)]
struct TtEntry {
    /// The key's upper half (its lower bits choose the slot).
    key: u32,
    value: i32,
    /// The static value (`EVAL_NONE` when not stored).
    eval: i16,
    best: u16,
    depth: i8,
    /// `OCCUPIED`, `TT_PV` and the bound: 0 none (the static value only), 1 exact, 2 lower,
    /// 3 upper.
    flag: u8,
}

const OCCUPIED: u8 = 8;
const TT_PV: u8 = 4;
const BOUND: u8 = 3;
const EVAL_NONE: i16 = i16::MIN;

/// The part of a key an entry keeps.
#[inline]
fn tt_check(key: u64) -> u32 {
    (key >> 32) as u32
}

/// Bytes a table entry takes.
pub const TT_ENTRY_BYTES: usize = std::mem::size_of::<TtEntry>();

/// Options of the strong player.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Transposition-table entries (rounded down to a power of two, and kept within half of
    /// a search's memory limit).
    pub tt_entries: usize,
    /// Moves searched per inner node after ordering.
    pub width: usize,
    /// Whether to try VCT at the root.
    pub vct: bool,
    /// Default depth when the limits give neither depth, nodes nor time.
    pub depth: u32,
    /// Weight of the opponent's potential in the static value of evaluations 0–2, in percent
    /// of the side to move's (below 100: the side to move's next stone counts for something).
    /// 70 beat 100 by about 240 elo in self-play (docs/gomoku-experiments.md).
    pub defence: i32,
    /// Moves searched at full depth before the late ones are reduced.
    pub lmr_from: usize,
    /// Node budget of each VCT check of a root move against the opponent's threats.
    pub avoid_vct_nodes: u64,
    /// Fours of the quiet leaves' VCF (0: none; `None`: by rule, see `leaf_vcf`).
    pub leaf_vcf: Option<u32>,
    /// The quiet leaf's evaluation: 0 the point values summed (threat bonuses included) with
    /// fixed bonuses for threes and four-threes; 1 the same with the side to move's
    /// initiative (`initiative`); 2 line values summed and the threats judged by who moves
    /// (`threat_balance`); 3 (the default) the same shape with fitted values: per combination
    /// of a point's four line patterns, for the side to move and for the opponent, and for
    /// the threat terms (`learned`).
    pub eval: u8,
    /// Whether the main search uses more of the time (see `out_of_time`).
    pub time_use: bool,
    /// With `time_use`, the percentage of the budget after which no iteration starts.
    pub iter_start: u32,
    /// Whether moves are ordered by their cut-offs (`order_by_history`).
    pub history: bool,
    /// Whether candidates are ordered by the values fitted to a strong player's choices
    /// (`learned::policy_score`) rather than by their point values.
    pub policy: bool,
    /// The root VCT may take the time budget over this.
    pub vct_share: u32,
    /// Root moves searched after ordering (0: all candidates).
    pub root_width: usize,
    /// Threats of the root VCT (the check of the opponent's threats uses one fewer).
    pub vct_depth: u32,
    /// Depth reduction of the null-move search (0: none).
    pub null_r: i32,
    /// Least depth of a late move reduction.
    pub lmr_depth: i32,
    /// Moves after which a late move is reduced by two plies (from depth 4).
    pub lmr_deep: usize,
    /// With `policy`: from depth 2, a null-window move's reduction grows by a ply per this
    /// many hundredths its ordering score lies below the node's best, up to three (0: off).
    pub policy_reduce: i32,
    /// With `policy`: up to depth 3, a quiet null-window move this many hundredths below the
    /// node's best is skipped (0: off).
    pub policy_prune: i32,
    /// Late quiet moves pruned at non-PV nodes of depth 1 and 2: moves past this many
    /// times the depth that make no three or four for either side (0: none).
    pub move_count: usize,
    /// The check of the opponent's threats after a pass may take the budget over this.
    pub pass_check_share: u32,
    /// Reverse futility: a quiet null-window node whose static value stands this much per
    /// ply of depth above beta is cut (0: never).
    pub rfp: i32,
    /// The deepest node the reverse futility cut applies to.
    pub rfp_depth: i32,
    /// Futility: at a quiet null-window node whose static value stands this much per ply of
    /// depth below alpha, only moves that make or stop a three are searched after the first
    /// (0: all are).
    pub futility: i32,
    /// The deepest node futility applies to.
    pub futility_depth: i32,
    /// Razoring: a quiet null-window node of depth 1 or 2 whose static value stands this much
    /// per ply below alpha, with no four to make, returns it (0: never).
    pub razor: i32,
    /// Fail-high reduction: at a quiet null-window node whose static value stands this much
    /// per ply of depth above beta, every move but the side to move's fours is searched a
    /// ply shallower (0: never).
    pub fail_high: i32,
    /// The search below the root: 1 the principal variation search of this file (`negamax`),
    /// 2 the selective search (`selective`): fractional plies, reductions by move count and
    /// history, extensions, and a VCF quiescence at the leaves.
    pub algo: u8,
    /// The selective search's margins (razoring, futility, null move, singular extension,
    /// aspiration window ...) in percent of values set on a reference scale where 200 is
    /// one logit of winning chance; the fitted evaluation is steeper, so wider margins
    /// prune less rashly.
    pub margin_scale: i32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            tt_entries: 1 << 20,
            width: 18,
            vct: true,
            depth: 8,
            defence: 70,
            lmr_from: 6,
            leaf_vcf: None,
            avoid_vct_nodes: AVOID_VCT_NODES,
            eval: 3,
            time_use: true,
            iter_start: 95,
            history: false,
            policy: true,
            vct_share: 3,
            root_width: 30,
            vct_depth: 7,
            null_r: 2,
            lmr_depth: 3,
            lmr_deep: 18,
            policy_reduce: 200,
            policy_prune: 500,
            move_count: 3,
            pass_check_share: 4,
            rfp: 40,
            rfp_depth: 5,
            futility: 40,
            futility_depth: 3,
            razor: 40,
            fail_high: 15,
            algo: 2,
            margin_scale: 300,
        }
    }
}

/// How `futility` narrows a node it does not cut.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Narrow {
    /// Only the first move and those that make or stop a three are searched.
    futile: bool,
    /// Every move but the side to move's fours is searched a ply shallower.
    shallower: bool,
}

/// What one search found.
#[derive(Debug, Clone)]
pub struct Found {
    pub best: usize,
    pub value: i32,
    pub depth: u32,
    pub pv: Vec<usize>,
    pub nodes: u64,
}

pub struct Engine {
    pub config: Config,
    tt: Vec<TtEntry>,
    nodes: u64,
    aborted: bool,
    deadline: Option<Deadline>,
    threats: ThreatSearch,
    pool: Vec<Vec<(usize, i32)>>,
    killers: [[usize; 2]; MAX_PLY],
    pv_table: Vec<Vec<usize>>,
    scratch: Vec<usize>,
    /// Cut-off counts per side and point (weighted by depth²), halved at each search.
    history: Vec<[i32; 2]>,
    /// Root moves some iteration of this search found lost.
    lost: Vec<usize>,
    /// The selective search's state (`algo=2`).
    sel: selective::State,
}

impl Engine {
    pub fn new(config: Config) -> Engine {
        let mut engine = Engine {
            tt: Vec::new(),
            config,
            nodes: 0,
            aborted: false,
            deadline: None,
            threats: ThreatSearch::default(),
            pool: Vec::new(),
            killers: [[0; 2]; MAX_PLY],
            pv_table: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            scratch: Vec::with_capacity(64),
            history: Vec::new(),
            lost: Vec::new(),
            sel: selective::State::new(),
        };
        engine.fit_memory(None);
        engine
    }

    /// Keeps the table within half of `memory` (the rest is left to the tables every search
    /// reads and to the process), or at its configured size when there is no limit. A table
    /// of another size starts empty.
    fn fit_memory(&mut self, memory: Option<u64>) {
        let entries = table_entries(self.config.tt_entries, memory);
        if entries != self.tt.len() {
            // The old table goes first, so the two are never held at once.
            self.tt = Vec::new();
            self.tt = vec![TtEntry::default(); entries];
        }
    }

    pub fn clear(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = TtEntry::default());
        self.history.clear();
    }

    /// Searches the position of `b` within `limits`, reporting each finished iteration.
    pub fn search(
        &mut self,
        b: &mut EngineBoard,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(&EngineBoard, &Found),
    ) -> Option<Found> {
        self.fit_memory(limits.memory);
        let me = b.side();
        let budget = limits.time_budget(me);
        let started = Instant::now();
        // Every deadline below stops here: the main search's (counted from after the threat
        // checks that come first), the early iterations' and the threat check's.
        let hard = limits.hard_limit(me).map(|h| started + h);
        self.nodes = 0;
        self.aborted = false;
        self.killers = [[0; 2]; MAX_PLY];
        self.lost.clear();
        if self.config.algo == 2 {
            self.selective_start(b);
        }
        let cells = b.points.last().map_or(0, |&i| i + 1);
        self.history.resize(cells, [0; 2]);
        self.history.iter_mut().flatten().for_each(|h| *h /= 2);
        let mut root = self.root_moves(b);
        // The main search looks at the best-ordered moves only (all of them once those are
        // all lost); the threat check below may still pick a defence from all of them.
        let mut width = match self.config.root_width {
            0 => root.len(),
            w => w.min(root.len()),
        };
        let first = *root.first()?;
        if let Some(found) = self.threat_first(b, budget, limits, started) {
            info(b, &found);
            return Some(found);
        }
        // Whether the opponent would win by threats were we to pass: then the chosen move
        // must be checked against that attack (`avoid_threat_loss`), and the main search
        // leaves part of the time for it (a quarter, half with `tm=0`), so a loaded machine
        // does not skip the check.
        let pass_check = budget.map(|t| Instant::now() + t / self.config.pass_check_share);
        let threatened = self.opponent_wins_after(b, None, pass_check);
        let attack = self.threats.line.first().copied();
        let full = budget;
        // The main search's share of the budget when the check must follow it (in eighths).
        let share = if self.config.time_use { 6 } else { 4 };
        let (limits, budget) = match budget {
            Some(t) if threatened => {
                let mut part = limits.clone();
                part.clock = None;
                part.movetime = Some(t * share / 8);
                (part, Some(t * share / 8))
            }
            _ => (limits.clone(), budget),
        };
        let limits = &limits;
        let deadline = Deadline::new(limits, me, stop).capped(hard);
        let max_depth = match (limits.depth, limits.infinite, budget, limits.nodes) {
            (Some(d), _, _, _) => d,
            (None, true, _, _) | (None, _, Some(_), _) | (None, _, _, Some(_)) => 60,
            _ => self.config.depth,
        };
        let mut best = Found {
            best: first,
            value: 0,
            depth: 0,
            pv: vec![first],
            nodes: 0,
        };
        self.pv_table[0].clear();
        for depth in 1..=max_depth {
            // The first iterations get up to three times the time: they are short (a few
            // thousand nodes), and a shallower search misjudges threes, so a loaded machine
            // does not make the engine play a move it has hardly searched. Three times the
            // time in all, counted from the start of the search, not per iteration, and never
            // past the hard limit.
            self.deadline = Some(if depth <= MIN_DEPTH {
                let mut first = limits.clone();
                if let Some(t) = budget {
                    first.clock = None;
                    first.movetime = Some((t * 3).saturating_sub(started.elapsed()));
                }
                Deadline::new(&first, me, stop).capped(hard)
            } else {
                deadline.clone()
            });
            let mut done = self.root_iteration(b, &mut root[..width], depth as i32);
            if !self.aborted && done.0 < -WIN_BOUND && width < root.len() {
                // Every move searched loses: the rest of the candidates may not.
                width = root.len();
                done = self.root_iteration(b, &mut root, depth as i32);
            }
            let (v, searched) = done;
            // An interrupted iteration still counts once its first move (the previous best)
            // is searched, unless every move it searched loses: then the first move not yet
            // searched at this depth is played (and checked against threats below).
            if self.aborted && depth > 1 && (searched == 0 || v < -WIN_BOUND) {
                if searched > 0 {
                    best.best = root[0];
                    best.pv = vec![root[0]];
                }
                break;
            }
            let pv = self.pv_table[0].clone();
            if let Some(&m) = pv.first() {
                best = Found {
                    best: m,
                    value: v,
                    depth,
                    pv,
                    nodes: self.nodes,
                };
            }
            best.nodes = self.nodes;
            info(b, &best);
            let spent = started.elapsed();
            let out_of_time = self.out_of_time(spent, budget, full) && depth >= MIN_DEPTH;
            if self.aborted || v.abs() > WIN_BOUND || out_of_time {
                break;
            }
        }
        self.deadline = None;
        if threatened && best.value.abs() <= WIN_BOUND {
            // Up to the whole budget (twice the main search's) and half as much again, and
            // at least the main search's share from now, never past the hard limit.
            let until = budget.map(|t| {
                let until = (started + t * 3).max(Instant::now() + t);
                hard.map_or(until, |h| until.min(h))
            });
            let searched = best.best;
            self.avoid_threat_loss(b, &root, attack, &mut best, until);
            if best.best != searched {
                // The last line reported names the move played.
                info(b, &best);
            }
        }
        Some(best)
    }

    /// Whether no further iteration is started after `spent`: with `time_use`, once
    /// `iter_start` percent (95 by default) of the full budget is gone (an iteration cut
    /// short still counts once its first move is searched, so a late start is not wasted),
    /// and by the main search's deadline; otherwise once half of the main search's share is
    /// gone.
    fn out_of_time(
        &self,
        spent: Duration,
        budget: Option<Duration>,
        full: Option<Duration>,
    ) -> bool {
        if self.config.time_use {
            full.is_some_and(|t| spent * 100 > t * self.config.iter_start)
                || budget.is_some_and(|t| spent > t)
        } else {
            budget.is_some_and(|t| spent * 2 > t)
        }
    }

    /// A shallow search can miss an opponent's win by fours and threes (a VCF or VCT). When
    /// the opponent has one were we to pass, the chosen move is checked, and if it does not
    /// stop the attack other root moves are tried (`defence_order`) until one does; the
    /// replacement keeps the search's value. Moves the main search found lost are not tried:
    /// the opponent's win after them may need quiet moves, which the threat search does not
    /// look at, so its check would pass them. Without a threat after a pass, no stone of ours
    /// can give the opponent one, so nothing is checked.
    fn avoid_threat_loss(
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
    fn defence_order(
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
    fn opponent_wins_after(
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
    fn threat_first(
        &mut self,
        b: &mut EngineBoard,
        budget: Option<Duration>,
        limits: &Limits,
        started: Instant,
    ) -> Option<Found> {
        let share = |f: u32| budget.map(|t| started + t / f);
        self.threats.reset(400_000, share(4));
        let vcf = self.threats.vcf(b, 30);
        self.nodes += self.threats.nodes;
        if vcf {
            return Some(self.threat_found(true));
        }
        if !self.config.vct || limits.depth.is_some_and(|d| d < 4) {
            return None;
        }
        self.threats.reset(150_000, share(self.config.vct_share));
        let vct = self.threats.vct(b, self.config.vct_depth, 10);
        self.nodes += self.threats.nodes;
        vct.then(|| self.threat_found(false))
    }

    /// The win the threat search found; `complete` when its line runs to the five (VCF).
    fn threat_found(&self, complete: bool) -> Found {
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

    /// Root candidates: every point a good search would consider, best first.
    fn root_moves(&mut self, b: &mut EngineBoard) -> Vec<usize> {
        let mut scored = Vec::new();
        self.generate(b, &mut scored, 0);
        keep_legal(b, &mut scored, usize::MAX);
        if scored.is_empty() {
            // No candidate from threats or neighbourhood: any legal empty point.
            let me = b.side();
            for n in 0..b.points.len() {
                let i = b.points[n];
                if b.is_empty(i) && b.is_legal_for(i, me) {
                    scored.push((i, 0));
                }
            }
        }
        scored.into_iter().map(|(i, _)| i).collect()
    }

    /// One iteration over the root moves by the configured search (`Config::algo`).
    fn root_iteration(
        &mut self,
        b: &mut EngineBoard,
        moves: &mut [usize],
        depth: i32,
    ) -> (i32, usize) {
        if self.config.algo == 2 {
            self.selective_root(b, moves, depth)
        } else {
            self.root(b, moves, depth)
        }
    }

    /// One iteration over the root moves, the previous best first; moves found lost are moved
    /// to the end of `moves`. Returns the best value and how many moves were searched to the
    /// end.
    fn root(&mut self, b: &mut EngineBoard, moves: &mut [usize], depth: i32) -> (i32, usize) {
        let mut alpha = -INF;
        let beta = INF;
        if let Some(&pv) = self.pv_table[0].first()
            && let Some(k) = moves.iter().position(|&m| m == pv)
        {
            moves[..=k].rotate_right(1);
        }
        let mut best = -INF;
        let mut values = Vec::with_capacity(moves.len());
        for (n, &m) in moves.iter().enumerate() {
            self.prefetch(b.hash_after(m));
            b.play(m);
            let v = if n == 0 {
                -self.negamax(b, depth - 1, 1, -beta, -alpha)
            } else {
                let mut v = -self.negamax(b, depth - 1, 1, -alpha - 1, -alpha);
                if v > alpha && !self.aborted {
                    v = -self.negamax(b, depth - 1, 1, -beta, -alpha);
                }
                v
            };
            b.undo();
            if self.aborted {
                break;
            }
            values.push(v);
            if v > best {
                best = v;
                self.set_pv(0, m);
            }
            alpha = alpha.max(v);
        }
        let searched = values.len();
        // Moves found lost go last (for the next iteration and the threat check); the sort is
        // stable, so the rest keep their order.
        let lost: Vec<usize> = (0..searched)
            .filter(|&n| values[n] < -WIN_BOUND)
            .map(|n| moves[n])
            .collect();
        moves.sort_by_key(|m| lost.contains(m));
        for m in lost {
            if !self.lost.contains(&m) {
                self.lost.push(m);
            }
        }
        (best, searched)
    }

    /// The transposition-table slot of `key`.
    #[inline]
    fn tt_slot(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    /// Starts loading the transposition-table entry of `key` while the move is played: the
    /// table is far larger than the caches, and its entry would otherwise be waited for.
    #[inline]
    fn prefetch(&self, key: u64) {
        let slot = self.tt_slot(key);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint that reads nothing into the program and cannot fault,
        // whatever the address; this one is an element of the table besides. SSE, which the
        // instruction needs, is part of every x86-64 target.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>((&raw const self.tt[slot]).cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    fn set_pv(&mut self, ply: usize, m: usize) {
        let (head, tail) = self.pv_table.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    fn negamax(
        &mut self,
        b: &mut EngineBoard,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.pv_table[ply].clear();
        if self
            .deadline
            .as_ref()
            .is_some_and(|d| d.reached(self.nodes))
        {
            self.aborted = true;
        }
        let p = ply as i32;
        if b.winner().is_some() {
            return -(MATE - p);
        }
        if b.is_full() || self.aborted || ply >= MAX_PLY - 1 {
            return 0;
        }
        let me = b.side();
        if let Some(v) = self.immediate(b, p) {
            return v;
        }
        let key = b.hash();
        let slot = self.tt_slot(key);
        let e = self.tt[slot];
        let mut tt_move = usize::MAX;
        if e.flag & BOUND != 0 && e.key == tt_check(key) {
            tt_move = e.best as usize;
            if e.depth as i32 >= depth {
                let v = from_tt(e.value, p);
                let cut = match e.flag & BOUND {
                    1 => true,
                    2 => v >= beta,
                    _ => v <= alpha,
                };
                if cut {
                    return v;
                }
            }
        }
        // Threat extension: a quiet leaf only when the opponent threatens no straight four
        // or four-three next move.
        let threatened = b.count_at_least(!me, Threat::FourThree) > 0;
        if depth <= 0 && (!threatened || depth <= -4) {
            return self.leaf(b);
        }
        if let Some(v) = self.null_move(b, depth, ply, alpha, beta, threatened) {
            return v;
        }
        let Narrow { futile, shallower } = match self.futility(b, depth, alpha, beta, threatened) {
            ControlFlow::Break(v) => return v,
            ControlFlow::Continue(narrow) => narrow,
        };
        let mut moves = self.pool.pop().unwrap_or_else(|| Vec::with_capacity(64));
        self.generate(b, &mut moves, ply);
        if moves.is_empty() {
            self.pool.push(moves);
            return self.leaf(b);
        }
        // The best ordering score, from which the policy's reductions and pruning count.
        let top = if self.config.policy {
            moves.iter().map(|m| m.1).max().unwrap_or(0)
        } else {
            0
        };
        for mv in moves.iter_mut() {
            if mv.0 == tt_move {
                mv.1 = i32::MAX;
            } else if self.killers[ply].contains(&mv.0) {
                mv.1 = mv.1.saturating_add(KILLER_BONUS);
            }
        }
        let all = keep_legal(
            b,
            &mut moves,
            if depth <= 0 { 8 } else { self.config.width },
        );
        if moves.is_empty() {
            self.pool.push(moves);
            return self.leaf(b);
        }
        // A single forced answer does not use up depth.
        let forced = all && moves.len() == 1;
        if self.config.history && depth > 0 {
            self.order_by_history(&mut moves, me);
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = moves[0].0;
        for (n, &(m, score)) in moves.iter().enumerate() {
            let mut child = if forced && depth > 0 {
                depth
            } else {
                depth - 1
            };
            if shallower && b.threat(m, me) < Threat::Four {
                child -= 1;
            }
            let gap = if score >= KILLER_BONUS / 2 {
                0
            } else {
                top - score
            };
            let pv = beta - alpha0 > 1;
            if self.late_quiet(b, m, n, depth, pv)
                || (futile && n > 0 && quiet_move(b, m))
                || self.policy_pruned(b, m, n, depth, pv, gap)
            {
                continue;
            }
            self.prefetch(b.hash_after(m));
            b.play(m);
            let v = if n == 0 {
                -self.negamax(b, child, ply + 1, -beta, -alpha)
            } else {
                let reduce =
                    self.reduction(forced, depth, n) + self.policy_reduction(forced, depth, gap);
                let mut v = -self.negamax(b, child - reduce, ply + 1, -alpha - 1, -alpha);
                if v > alpha && !self.aborted {
                    v = -self.negamax(b, child, ply + 1, -beta, -alpha);
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
                    self.set_pv(ply, m);
                }
            }
            if alpha >= beta {
                if !self.killers[ply].contains(&m) {
                    self.killers[ply] = [m, self.killers[ply][0]];
                }
                if depth > 0 && m < self.history.len() {
                    let h = &mut self.history[m][me.index()];
                    *h = (*h + depth * depth).min(HISTORY_MAX);
                }
                break;
            }
        }
        self.pool.push(moves);
        if !self.aborted {
            let flag = if best <= alpha0 {
                3
            } else if best >= beta {
                2
            } else {
                1
            };
            self.tt[slot] = TtEntry {
                key: tt_check(key),
                value: to_tt(best, p),
                eval: EVAL_NONE,
                best: best_move as u16,
                depth: depth.clamp(-100, 100) as i8,
                flag: OCCUPIED | flag,
            };
        }
        best
    }

    /// Plies the `n`th move (counted from 0) of a null-window search at `depth` is reduced by.
    fn reduction(&self, forced: bool, depth: i32, n: usize) -> i32 {
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
    fn policy_reduction(&self, forced: bool, depth: i32, gap: i32) -> i32 {
        let c = &self.config;
        if forced || !c.policy || c.policy_reduce <= 0 || depth < 2 {
            0
        } else {
            (gap / c.policy_reduce).min(3)
        }
    }

    /// Whether a quiet null-window move far below the node's best ordering score is skipped
    /// near the leaves (`policy_prune`).
    fn policy_pruned(
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
    fn late_quiet(&self, b: &EngineBoard, m: usize, n: usize, depth: i32, pv: bool) -> bool {
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
    fn futility(
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
    fn null_move(
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
    fn order_by_history(&self, moves: &mut [(usize, i32)], me: Side) {
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
    fn immediate(&mut self, b: &mut EngineBoard, p: i32) -> Option<i32> {
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
    fn flex_is_fake(&mut self, b: &mut EngineBoard, cands: &[usize]) -> bool {
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
    fn leaf(&mut self, b: &mut EngineBoard) -> i32 {
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
    fn static_value(&self, b: &mut EngineBoard) -> i32 {
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
    fn generate(&mut self, b: &mut EngineBoard, out: &mut Vec<(usize, i32)>, _ply: usize) {
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
const KILLER_BONUS: i32 = 50_000;

/// Whether `m` makes no three or four for either side.
fn quiet_move(b: &EngineBoard, m: usize) -> bool {
    let me = b.side();
    b.threat(m, me) < Threat::Three && b.threat(m, !me) < Threat::Three
}

/// Orders `moves` best first (by score, then by point) and keeps the first `limit` that the
/// side to move may play (black's forbidden points are dropped in renju); whether every move
/// was looked at. Only the moves that will be searched are sorted and judged: the rest are
/// only partitioned off, and the forbidden-point test is the dearest part of a renju node.
fn keep_legal(b: &mut EngineBoard, moves: &mut Vec<(usize, i32)>, limit: usize) -> bool {
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

/// Fours of the quiet leaves' VCF: as configured, else none in freestyle and four under the
/// exact-five rules. Without it a freestyle search reaches a given depth in about half the
/// time and plays stronger for it; under the exact-five rules its leaves misjudged more (see
/// docs/gomoku-experiments.md).
fn leaf_vcf(configured: Option<u32>, rule: Variant) -> u32 {
    configured.unwrap_or(match rule {
        Variant::Freestyle => 0,
        Variant::Standard | Variant::Renju => 4,
    })
}

/// Bonus of a quiet leaf for the side to move's initiative, from the threat classes alone.
/// Moving first, a double three wins unless the opponent has a four to interrupt with (or
/// must be answered: its own three); the opponent's double three only costs a tempo to stop.
/// Black's double threes are forbidden in renju and not counted.
fn initiative(b: &EngineBoard, me: Side) -> i32 {
    let opp = !me;
    let counts = |s: Side| {
        let can_33 = !(s == Side::Black && b.rule() == Variant::Renju);
        let d3 = can_33 && b.count(s, Threat::DoubleThree) > 0;
        (d3, b.count_at_least(s, Threat::Four) > 0)
    };
    let (my_d3, my_four) = counts(me);
    let (opp_d3, opp_four) = counts(opp);
    let mut v = 0;
    if my_d3 {
        v += if opp_four { INIT_D3_CONTESTED } else { INIT_D3 };
    }
    if opp_d3 && !my_four {
        v -= INIT_OPP_D3;
    }
    v
}

/// Σ of the line values of the empty points for `s`, without the threat-class bonuses (and
/// without the five value of a point that completes a four on the board): what the threats
/// are worth depends on who moves, which `threat_balance` judges.
fn line_sum(b: &EngineBoard, s: Side) -> i32 {
    let bonus: i32 = (Threat::DoubleThree as usize..=Threat::Five as usize)
        .map(|t| i32::from(b.count_class(s, t)) * THREAT_VALUE[t])
        .sum();
    let fives = i32::from(b.count(s, Threat::Five)) * PATTERN_VALUE[Pattern::Five as usize];
    b.sums()[s.index()] - bonus - fives
}

/// The threats on the board judged for the side to move `me` (no five to make, at most one
/// to stop, no open three to make a straight four of unanswered: the search settles those),
/// valued with the hand-set weights.
fn threat_balance(b: &mut EngineBoard, me: Side) -> i32 {
    weigh(&threat_terms(b, me), &HAND_THREAT_WEIGHTS)
}

/// Σ of the threat terms times their weights.
fn weigh(terms: &[i32; THREAT_TERMS], weights: &[i32; THREAT_TERMS]) -> i32 {
    terms.iter().zip(weights).map(|(t, w)| t * w).sum()
}

/// Terms of the threat balance (`threat_terms`).
pub const THREAT_TERMS: usize = 11;

/// The hand-set weights of the threat terms. Moving first, a four-three or a double three
/// wins unless the opponent can interrupt with fours; the opponent's threats cost a tempo to
/// answer, and two of them one more.
pub const HAND_THREAT_WEIGHTS: [i32; THREAT_TERMS] =
    [-100, 2500, 400, 1200, 200, 30, -300, -150, -150, -500, -30];

/// The threat terms for the side to move `me`, each a count or 0/1: an opponent's five to
/// block (then nothing else counts: the block is forced); an own four-three, uncontested and
/// contested (the opponent has a four to interrupt with); else an own double three, the same
/// two ways; own four points (up to six); an opponent's open three, unanswerable and
/// answerable by an own four; one opponent's four-three or double three, and two or more;
/// the opponent's four points (up to six).
pub fn threat_terms(b: &mut EngineBoard, me: Side) -> [i32; THREAT_TERMS] {
    let mut t = [0; THREAT_TERMS];
    let opp = !me;
    if b.count(opp, Threat::Five) > 0 {
        t[0] = 1;
        return t;
    }
    let renju = b.rule() == Variant::Renju;
    let can_33 = |s: Side| !(s == Side::Black && renju);
    let my_fours = b.count_at_least(me, Threat::Four) > 0;
    let opp_fours = b.count_at_least(opp, Threat::Four) > 0;
    // Black's four-threes and straight fours may be forbidden in renju (`playable`).
    let four_three = Threat::FourThree..=Threat::FourThree;
    if playable(b, me, four_three.clone(), 1) > 0 {
        t[1 + usize::from(opp_fours)] = 1;
    } else if can_33(me) && b.count(me, Threat::DoubleThree) > 0 {
        t[3 + usize::from(opp_fours)] = 1;
    }
    t[5] = i32::from(b.count(me, Threat::Four)).min(6);
    if playable(b, opp, Threat::FlexFour..=Threat::FlexFour, 1) > 0 {
        t[6 + usize::from(my_fours)] = 1;
    }
    let opp_43 = playable(b, opp, four_three, 2);
    let opp_33 = if can_33(opp) {
        b.count(opp, Threat::DoubleThree)
    } else {
        0
    };
    match opp_43 + opp_33 {
        0 => {}
        1 => t[8] = 1,
        _ => t[9] = 1,
    }
    t[10] = i32::from(b.count(opp, Threat::Four)).min(6);
    t
}

/// Leaf bonuses of `initiative`.
const INIT_D3: i32 = 600;
const INIT_D3_CONTESTED: i32 = 150;
const INIT_OPP_D3: i32 = 100;

/// The table's entries: the configured number, within half of `memory` if one is given,
/// rounded down to a power of two (at least 1,024).
fn table_entries(configured: usize, memory: Option<u64>) -> usize {
    let cap = memory.map_or(usize::MAX, |m| {
        usize::try_from(m / 2 / TT_ENTRY_BYTES as u64).unwrap_or(usize::MAX)
    });
    let n = configured.min(cap).max(1 << 10);
    1 << n.ilog2()
}

/// Thinking output of one iteration.
pub fn info(b: &EngineBoard, f: &Found, started: Instant) -> Info {
    let time = started.elapsed();
    Info {
        depth: Some(f.depth),
        score: Some(to_score(f.value)),
        pv: f.pv.iter().map(|&i| b.point(i).to_string()).collect(),
        nodes: Some(f.nodes),
        nps: Some((f.nodes as f64 / time.as_secs_f64().max(1e-6)) as u64),
        time: Some(time),
        text: None,
    }
}

/// A sensible first stone on an empty board: the centre; the second, diagonal to the first
/// towards the centre.
pub fn opening(b: &EngineBoard) -> Option<Point> {
    let n = b.size() as u8;
    let centre = Point::new(n / 2, n / 2);
    match b.stones() {
        0 => Some(centre),
        1 if b.side() == Side::White => {
            let first = b.points.iter().copied().find(|&i| !b.is_empty(i))?;
            let p = b.point(first);
            let step = |v: u8| if v < n / 2 { 1 } else { -1 };
            p.offset(step(p.col), step(p.row), b.size())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::Game;
    use boyi_games::gomoku::{Gomoku, Variant};

    pub(super) fn board(variant: Variant, moves: &str) -> EngineBoard {
        let mut p = Gomoku::start(&variant, Some(15)).unwrap();
        p.play_list(moves).unwrap();
        EngineBoard::from_game(&p)
    }

    #[test]
    fn keep_legal_keeps_the_best_legal_moves_in_full_sort_order() {
        // Black to move in renju, with e8 and i8 (two fours) among its forbidden points.
        let moves = "f8,a1,g8,a3,h8,a5,e9,o1,e10,o3,e11,e12,i9,i12,i10,o5,i11,a7";
        let mut b = board(Variant::Renju, moves);
        let zone: Vec<usize> = b.zone().collect();
        for p in ["e8", "i8"] {
            let i = b.index(Point::parse(p, 15).unwrap());
            assert!(zone.contains(&i) && !b.is_legal_for(i, Side::Black), "{p}");
        }
        let mut rng = boyi_core::rng::SplitMix64::new(3);
        for round in 0..200 {
            // Few distinct scores, so ties are common; the forbidden points often rank high.
            let scored: Vec<(usize, i32)> = zone
                .iter()
                .map(|&i| (i, rng.below(4 + round % 8) as i32))
                .collect();
            let mut sorted = scored.clone();
            sorted.sort_by_key(|&(i, s)| (std::cmp::Reverse(s), i));
            for limit in [1, 2, 3, 8, 18, zone.len() - 1, zone.len(), usize::MAX] {
                let mut expected = Vec::new();
                let mut seen = 0;
                for &mv in &sorted {
                    if expected.len() == limit {
                        break;
                    }
                    seen += 1;
                    if b.is_legal_for(mv.0, Side::Black) {
                        expected.push(mv);
                    }
                }
                let mut got = scored.clone();
                let all = keep_legal(&mut b, &mut got, limit);
                assert_eq!(got, expected, "limit {limit}");
                assert_eq!(all, seen == sorted.len(), "limit {limit}");
            }
        }
    }

    #[test]
    fn a_double_three_to_move_is_initiative() {
        // White to move can make two open threes at h8; black has no four to interrupt.
        let mut b = board(Variant::Freestyle, "k13,f8,a1,g8,o1,h6,a15,h7,o15");
        assert_eq!(initiative(&b, Side::White), INIT_D3);
        // With black to move the double three is only a tempo to spend on stopping it.
        b.pass();
        assert_eq!(initiative(&b, Side::Black), -INIT_OPP_D3);
    }

    #[test]
    fn black_threats_on_forbidden_points_cost_white_nothing_in_renju() {
        // Black's f8-g8-h8 would become a straight four on e8 or i8, but each also makes a
        // four in its column: two fours, forbidden in renju, so white owes no answer. In
        // freestyle both points win for black.
        let moves = "f8,a1,g8,a3,h8,a5,e9,o1,e10,o3,e11,e12,i9,i12,i10,o5,i11";
        let mut renju = board(Variant::Renju, moves);
        assert!(renju.count(Side::Black, Threat::FlexFour) > 0);
        assert_eq!(threat_balance(&mut renju, Side::White), 0);
        let mut freestyle = board(Variant::Freestyle, moves);
        assert!(threat_balance(&mut freestyle, Side::White) <= HAND_THREAT_WEIGHTS[6]);
    }

    #[test]
    fn black_double_threes_are_no_initiative_in_renju() {
        let moves = "f8,k13,g8,a1,h6,o1,h7,a15";
        assert_eq!(
            initiative(&board(Variant::Freestyle, moves), Side::Black),
            INIT_D3
        );
        assert_eq!(initiative(&board(Variant::Renju, moves), Side::Black), 0);
    }

    #[test]
    fn threats_are_judged_by_who_moves() {
        // White to move can make a four-free double three at h8: nearly a win. With black to
        // move the same double three costs black a tempo to stop.
        let mut b = board(Variant::Freestyle, "k13,f8,a1,g8,o1,h6,a15,h7,o15");
        assert_eq!(threat_balance(&mut b, Side::White), HAND_THREAT_WEIGHTS[3]);
        b.pass();
        assert_eq!(threat_balance(&mut b, Side::Black), HAND_THREAT_WEIGHTS[8]);
        // The line sums leave the threat bonuses out.
        assert!(line_sum(&b, Side::White) < b.sums()[Side::White.index()]);
        // Black's double three is forbidden in renju: worth nothing.
        let moves = "f8,k13,g8,a1,h6,o1,h7,a15";
        assert_eq!(
            threat_balance(&mut board(Variant::Renju, moves), Side::Black),
            0
        );
    }

    #[test]
    fn a_new_iteration_starts_until_most_of_the_time_is_spent() {
        let ms = Duration::from_millis;
        let mut e = Engine::new(Config {
            tt_entries: 1 << 10,
            ..Config::default()
        });
        let full = Some(ms(100));
        // Not threatened: the main search has the whole budget.
        assert!(!e.out_of_time(ms(90), full, full));
        assert!(e.out_of_time(ms(96), full, full));
        e.config.iter_start = 55;
        assert!(!e.out_of_time(ms(50), full, full));
        assert!(e.out_of_time(ms(60), full, full));
        // Threatened: the main search has three quarters of it.
        assert!(!e.out_of_time(ms(50), Some(ms(75)), full));
        assert!(e.out_of_time(ms(76), Some(ms(75)), full));
        // The old rule stopped at half of the main search's share.
        e.config.time_use = false;
        assert!(e.out_of_time(ms(50), Some(ms(75)), full));
        assert!(!e.out_of_time(ms(30), Some(ms(75)), full));
    }

    #[test]
    fn the_table_keeps_within_half_of_a_memory_limit() {
        assert_eq!(table_entries(1 << 22, None), 1 << 22);
        assert_eq!(table_entries(3 << 20, None), 1 << 21);
        // 80 MB: half of it holds 2.5 million entries of 16 bytes; a power of two fewer.
        assert_eq!(table_entries(1 << 22, Some(80 << 20)), 1 << 21);
        assert_eq!(table_entries(1 << 22, Some(1)), 1 << 10);
        let mut e = Engine::new(Config {
            tt_entries: 1 << 20,
            ..Config::default()
        });
        let mut b = board(Variant::Freestyle, "h8,h9");
        let limits = |memory| Limits {
            depth: Some(2),
            memory,
            ..Limits::default()
        };
        let stop = StopFlag::new();
        e.search(&mut b, &limits(Some(8 << 20)), &stop, &mut |_, _| {});
        assert_eq!(e.tt.len(), 1 << 18);
        e.search(&mut b, &limits(None), &stop, &mut |_, _| {});
        assert_eq!(e.tt.len(), 1 << 20);
    }

    #[test]
    fn a_narrow_root_widens_when_every_move_it_searched_loses() {
        // Black to move in a renju game; its best-ordered candidate loses to white's attack.
        let moves = "e7,h10,e9,e8,d8,f10,f6,c9,g10,g5,g7,d7,f5,f8,h8,i9,g11,f7,f11,g9,e12,h9";
        let mut b = board(Variant::Renju, moves);
        // The earlier search's narrow root (`algo=1`; the selective search sees the loss
        // only deeper).
        let mut e = Engine::new(Config {
            tt_entries: 1 << 16,
            root_width: 1,
            algo: 1,
            ..Config::default()
        });
        let first = e.root_moves(&mut b)[0];
        let found = e
            .search(&mut b, &Limits::depth(3), &StopFlag::new(), &mut |_, _| {})
            .unwrap();
        assert!(e.lost.contains(&first));
        assert_ne!(found.best, first);
        assert!(found.value > -WIN_BOUND, "{}", found.value);
    }

    fn at(b: &EngineBoard, p: &str) -> usize {
        b.index(Point::parse(p, b.size()).unwrap())
    }

    #[test]
    fn a_null_move_cuts_only_a_quiet_null_window_node_above_beta() {
        // With the evaluation symmetric in the two sides, a pass in a quiet position keeps
        // its value, so the cut below is the null move's alone.
        let mut e = Engine::new(Config {
            tt_entries: 1 << 10,
            null_r: 2,
            eval: 2,
            defence: 100,
            ..Config::default()
        });
        // Black to move, one stone each, far apart: no threat anywhere.
        let mut b = board(Variant::Freestyle, "h8,a1");
        let beta = e.static_value(&mut b) - 500;
        assert_eq!(e.null_move(&mut b, 3, 1, beta - 1, beta, false), Some(beta));
        // Not in a principal variation, not below depth 2, not above the static value, not
        // when the opponent threatens a win, not twice in a row.
        assert_eq!(e.null_move(&mut b, 3, 1, beta - 10, beta, false), None);
        assert_eq!(e.null_move(&mut b, 1, 1, beta - 1, beta, false), None);
        let high = e.static_value(&mut b) + 1;
        assert_eq!(e.null_move(&mut b, 3, 1, high - 1, high, false), None);
        assert_eq!(e.null_move(&mut b, 3, 1, beta - 1, beta, true), None);
        b.pass();
        let beta = e.static_value(&mut b) - 500;
        assert_eq!(e.null_move(&mut b, 3, 1, beta - 1, beta, false), None);
        // White could make two open threes at i8 were black to pass: no null move, however
        // far below the static value beta lies.
        let mut b = board(Variant::Freestyle, "a1,g8,a15,h8,o1,i6,o15,i7");
        assert_eq!(b.threat(at(&b, "i8"), Side::White), Threat::DoubleThree);
        let beta = e.static_value(&mut b) - 5000;
        assert_eq!(e.null_move(&mut b, 3, 1, beta - 1, beta, false), None);
        // With the option off nothing is cut.
        let mut b = board(Variant::Freestyle, "h8,a1");
        e.config.null_r = 0;
        let beta = e.static_value(&mut b) - 500;
        assert_eq!(e.null_move(&mut b, 3, 1, beta - 1, beta, false), None);
    }

    #[test]
    fn late_quiet_moves_are_pruned_near_the_leaves_only() {
        let mut e = Engine::new(Config {
            tt_entries: 1 << 10,
            move_count: 4,
            ..Config::default()
        });
        // Black to move with two stones in a row: g8 makes an open three, a15 nothing.
        let b = board(Variant::Freestyle, "h8,a1,i8,a2");
        let (three, quiet) = (at(&b, "g8"), at(&b, "a15"));
        assert!(e.late_quiet(&b, quiet, 4, 1, false));
        assert!(e.late_quiet(&b, quiet, 8, 2, false));
        assert!(!e.late_quiet(&b, quiet, 7, 2, false));
        assert!(!e.late_quiet(&b, quiet, 3, 1, false));
        assert!(!e.late_quiet(&b, quiet, 10, 3, false));
        assert!(!e.late_quiet(&b, quiet, 10, 1, true));
        assert!(!e.late_quiet(&b, three, 10, 1, false));
        // Blocking the opponent's three point is no quiet move either: white to move.
        let b = board(Variant::Freestyle, "h8,a1,i8");
        assert!(!e.late_quiet(&b, at(&b, "g8"), 10, 1, false));
        e.config.move_count = 0;
        let b = board(Variant::Freestyle, "h8,a1,i8,a2");
        assert!(!e.late_quiet(&b, quiet, 10, 1, false));
    }

    #[test]
    fn the_policy_reduces_and_prunes_only_when_ordering_and_asked_to() {
        let mut e = Engine::new(Config {
            tt_entries: 1 << 10,
            policy: false,
            policy_reduce: 200,
            policy_prune: 500,
            ..Config::default()
        });
        let b = board(Variant::Freestyle, "h8,a1,i8,a2");
        let (three, quiet) = (at(&b, "g8"), at(&b, "a15"));
        // Without the fitted order the gaps mean nothing.
        assert_eq!(e.policy_reduction(false, 5, 1000), 0);
        assert!(!e.policy_pruned(&b, quiet, 3, 2, false, 1000));
        e.config.policy = true;
        assert_eq!(e.policy_reduction(false, 5, 199), 0);
        assert_eq!(e.policy_reduction(false, 5, 399), 1);
        assert_eq!(e.policy_reduction(false, 5, 5000), 3);
        assert_eq!(e.policy_reduction(true, 5, 5000), 0);
        assert_eq!(e.policy_reduction(false, 1, 5000), 0);
        assert!(e.policy_pruned(&b, quiet, 3, 2, false, 501));
        assert!(!e.policy_pruned(&b, quiet, 3, 2, false, 500));
        assert!(!e.policy_pruned(&b, quiet, 3, 4, false, 501));
        assert!(!e.policy_pruned(&b, quiet, 3, 2, true, 501));
        assert!(!e.policy_pruned(&b, quiet, 0, 2, false, 501));
        assert!(!e.policy_pruned(&b, three, 3, 2, false, 501));
        e.config.policy_prune = 0;
        assert!(!e.policy_pruned(&b, quiet, 3, 2, false, 5000));
    }

    #[test]
    fn futility_cuts_or_narrows_only_quiet_null_window_nodes_near_the_leaves() {
        let mut e = Engine::new(Config {
            tt_entries: 1 << 10,
            rfp: 40,
            rfp_depth: 5,
            futility: 40,
            futility_depth: 3,
            razor: 0,
            fail_high: 0,
            ..Config::default()
        });
        let cut = ControlFlow::Break;
        let futile = Narrow {
            futile: true,
            shallower: false,
        };
        let (narrow, full) = (
            ControlFlow::Continue(futile),
            ControlFlow::Continue(Narrow::default()),
        );
        // Black to move, one stone each, far apart: no threat anywhere.
        let mut b = board(Variant::Freestyle, "h8,a1");
        let s = e.static_value(&mut b);
        // Reverse futility: 40 a ply above beta cuts, from depth 1 to 5.
        assert_eq!(e.futility(&mut b, 3, s - 121, s - 120, false), cut(s));
        assert_eq!(e.futility(&mut b, 3, s - 120, s - 119, false), full);
        assert_eq!(e.futility(&mut b, 5, s - 201, s - 200, false), cut(s));
        assert_eq!(e.futility(&mut b, 6, s - 1001, s - 1000, false), full);
        // Futility: 40 a ply below alpha leaves the threats only, from depth 1 to 3.
        assert_eq!(e.futility(&mut b, 2, s + 80, s + 81, false), narrow);
        assert_eq!(e.futility(&mut b, 2, s + 79, s + 80, false), full);
        assert_eq!(e.futility(&mut b, 4, s + 1000, s + 1001, false), full);
        // Neither in a principal variation, near mate scores, nor when the opponent threatens
        // a four-three or better.
        assert_eq!(e.futility(&mut b, 3, s - 500, s - 120, false), full);
        assert_eq!(e.futility(&mut b, 2, s + 80, s + 500, false), full);
        assert_eq!(e.futility(&mut b, 3, s - 121, s - 120, true), full);
        let mate = WIN_BOUND + 1;
        assert_eq!(e.futility(&mut b, 2, -mate - 1, -mate, false), full);
        // Nor when white could make two open threes at i8 were black to pass.
        let mut b = board(Variant::Freestyle, "a1,g8,a15,h8,o1,i6,o15,i7");
        assert_eq!(b.threat(at(&b, "i8"), Side::White), Threat::DoubleThree);
        let s = e.static_value(&mut b);
        assert_eq!(e.futility(&mut b, 1, s - 1001, s - 1000, false), full);
        // With the options off nothing changes.
        let mut b = board(Variant::Freestyle, "h8,a1");
        let s = e.static_value(&mut b);
        (e.config.rfp, e.config.futility) = (0, 0);
        assert_eq!(e.futility(&mut b, 1, s - 1001, s - 1000, false), full);
        assert_eq!(e.futility(&mut b, 1, s + 1000, s + 1001, false), full);
    }

    #[test]
    fn razoring_and_the_fail_high_reduction_need_a_quiet_null_window_node() {
        let mut e = Engine::new(Config {
            tt_entries: 1 << 10,
            rfp: 0,
            futility: 0,
            razor: 40,
            fail_high: 15,
            ..Config::default()
        });
        let full = ControlFlow::Continue(Narrow::default());
        let shallower = ControlFlow::Continue(Narrow {
            futile: false,
            shallower: true,
        });
        let mut b = board(Variant::Freestyle, "h8,a1");
        let s = e.static_value(&mut b);
        // Razoring: 40 a ply below alpha returns the static value, at depth 1 and 2 only.
        assert_eq!(
            e.futility(&mut b, 2, s + 81, s + 82, false),
            ControlFlow::Break(s)
        );
        assert_eq!(e.futility(&mut b, 2, s + 80, s + 81, false), full);
        assert_eq!(
            e.futility(&mut b, 1, s + 41, s + 42, false),
            ControlFlow::Break(s)
        );
        assert_eq!(e.futility(&mut b, 3, s + 1000, s + 1001, false), full);
        // The fail-high reduction: 15 a ply above beta, at any depth.
        assert_eq!(e.futility(&mut b, 6, s - 91, s - 90, false), shallower);
        assert_eq!(e.futility(&mut b, 6, s - 90, s - 89, false), full);
        assert_eq!(e.futility(&mut b, 1, s - 16, s - 15, false), shallower);
        // Neither in a principal variation nor against a threatened four-three.
        assert_eq!(e.futility(&mut b, 2, s + 81, s + 500, false), full);
        assert_eq!(e.futility(&mut b, 6, s - 500, s - 90, false), full);
        assert_eq!(e.futility(&mut b, 6, s - 91, s - 90, true), full);
        // No razoring for a side with a four to make: black's open three h8-j8.
        let mut b = board(Variant::Freestyle, "h8,a1,i8,a3,j8,a5");
        assert!(b.count_at_least(Side::Black, Threat::Four) > 0);
        let s = e.static_value(&mut b);
        assert_eq!(e.futility(&mut b, 2, s + 500, s + 501, false), full);
        // With the options off nothing changes.
        let mut b = board(Variant::Freestyle, "h8,a1");
        let s = e.static_value(&mut b);
        (e.config.razor, e.config.fail_high) = (0, 0);
        assert_eq!(e.futility(&mut b, 1, s + 1000, s + 1001, false), full);
        assert_eq!(e.futility(&mut b, 6, s - 1001, s - 1000, false), full);
    }

    #[test]
    fn history_orders_the_kept_moves_but_the_table_move_stays_first() {
        let mut e = Engine::new(Config {
            tt_entries: 1 << 10,
            ..Config::default()
        });
        e.history = vec![[0; 2]; 8];
        e.history[3][Side::Black.index()] = 4000;
        let mut moves = vec![(5, i32::MAX), (2, 300), (3, 100), (4, 50)];
        e.order_by_history(&mut moves, Side::Black);
        let order: Vec<usize> = moves.iter().map(|m| m.0).collect();
        assert_eq!(order, [5, 3, 2, 4]);
        // White's history is its own.
        let mut moves = vec![(2, 300), (3, 100)];
        e.order_by_history(&mut moves, Side::White);
        assert_eq!(moves[0].0, 2);
    }
}
