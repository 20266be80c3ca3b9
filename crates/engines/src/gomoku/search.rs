//! The strong Gomoku engine: threat-space search first (VCF, then VCT within a budget), then
//! principal-variation search with iterative deepening and a transposition table over
//! candidate moves chosen by threats (forced answers to fives and threes) and the neighbourhood
//! of the stones, ordered by the incremental point values (or, as an option, by values fitted
//! to a strong player's moves: `move_policy::policy_score`).

use super::board::EngineBoard;
use super::learned::{TEMPO, THREAT_WEIGHTS};
use super::move_policy::PolicyScorer;
use super::pattern::{PATTERN_VALUE, Pattern, THREAT_VALUE, Threat};
use super::threat::{ThreatSearch, collect, fives, has_open_three, playable, threat_points};
use crate::player::{Info, Limits, StopFlag};
use crate::search::Deadline;
use crate::search::score::wide::{MATE, WIN_BOUND, from_tt, report as to_score, to_tt};
use boyi_core::{Point, Side};
use boyi_games::gomoku::Variant;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

mod avoid;
mod prune;
mod selective;
mod threats;

use prune::{KILLER_BONUS, keep_legal, quiet_move};
pub use prune::{defends, value_order};
use threats::*;
pub use threats::{HAND_THREAT_WEIGHTS, THREAT_TERMS, threat_terms};

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
    /// (`move_policy::policy_score`) rather than by their point values.
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
}

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
mod tests;
