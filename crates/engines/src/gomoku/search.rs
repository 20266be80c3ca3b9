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
use crate::player::{Limits, StopFlag};
use crate::search::pv::PvTable;
use crate::search::score::wide::{MATE, WIN_BOUND};
use crate::search::score::{Scale, WIDE};
use crate::search::tt::{Table, TtMove};
use crate::search::{Deadline, TimeManager};
use boyi_core::{Point, Side};
use boyi_games::gomoku::Variant;
use std::time::{Duration, Instant};

mod avoid;
mod eval;
mod selective;
mod threats;

use eval::keep_legal;
pub use eval::{defends, value_order};
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

/// A point as the table keeps it: its board index (below 1,024 on the largest board, and
/// never 0, which is padding), 0 for none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Cell(u16);

impl Cell {
    fn of(i: usize) -> Cell {
        Cell(if i == selective::NONE { 0 } else { i as u16 })
    }

    fn index(self) -> usize {
        if self.0 == 0 {
            selective::NONE
        } else {
            self.0 as usize
        }
    }
}

impl TtMove for Cell {
    const BITS: u32 = 10;
    const SCALE: Scale = WIDE;
    /// Quiescence entries have negative depths, and entries of the static value alone -128.
    const DEPTH_MIN: i32 = -128;
    const PV_MARK: bool = true;

    #[inline(always)]
    fn to_bits(self) -> u32 {
        self.0 as u32
    }

    #[inline(always)]
    fn from_bits(bits: u32) -> Cell {
        Cell(bits as u16)
    }
}

/// Options of the strong player.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Megabytes of the transposition table (kept within half of a search's memory limit).
    pub hash: usize,
    /// Whether to try VCT at the root.
    pub vct: bool,
    /// Default depth when the limits give neither depth, nodes nor time.
    pub depth: u32,
    /// Weight of the opponent's potential in the static value of evaluations 0–2, in percent
    /// of the side to move's (below 100: the side to move's next stone counts for something).
    /// 70 beat 100 by about 240 elo in self-play (docs/gomoku-experiments.md).
    pub defence: i32,
    /// Node budget of each VCT check of a root move against the opponent's threats.
    pub avoid_vct_nodes: u64,
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
    /// Whether candidates are ordered by the values fitted to a strong player's choices
    /// (`move_policy::policy_score`) rather than by their point values.
    pub policy: bool,
    /// The root VCT may take the time budget over this.
    pub vct_share: u32,
    /// Root moves searched after ordering (0: all candidates).
    pub root_width: usize,
    /// Threats of the root VCT (the check of the opponent's threats uses one fewer).
    pub vct_depth: u32,
    /// The check of the opponent's threats after a pass may take the budget over this.
    pub pass_check_share: u32,
    /// The selective search's margins (razoring, futility, null move, singular extension,
    /// aspiration window ...) in percent of values set on a reference scale where 200 is
    /// one logit of winning chance; the fitted evaluation is steeper, so wider margins
    /// prune less rashly.
    pub margin_scale: i32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            hash: 16,
            vct: true,
            depth: 8,
            defence: 70,
            avoid_vct_nodes: AVOID_VCT_NODES,
            eval: 3,
            time_use: true,
            iter_start: 95,
            policy: true,
            vct_share: 3,
            root_width: 30,
            vct_depth: 7,
            pass_check_share: 4,
            margin_scale: 300,
        }
    }
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
    tt: Table<Cell>,
    nodes: u64,
    aborted: bool,
    deadline: Option<Deadline>,
    threats: ThreatSearch,
    pool: Vec<Vec<(usize, i32)>>,
    pv_table: PvTable<usize>,
    scratch: Vec<usize>,
    /// Root moves some iteration of this search found lost.
    lost: Vec<usize>,
    /// The selective search's state.
    sel: selective::State,
}

impl Engine {
    pub fn new(config: Config) -> Engine {
        let mut engine = Engine {
            tt: Table::with_bytes(0),
            config,
            nodes: 0,
            aborted: false,
            deadline: None,
            threats: ThreatSearch::default(),
            pool: Vec::new(),
            pv_table: PvTable::new(MAX_PLY),
            scratch: Vec::with_capacity(64),
            lost: Vec::new(),
            sel: selective::State::new(),
        };
        engine.fit_memory(None);
        engine
    }

    /// Keeps the table within half of `memory` (the rest is left to the tables every search
    /// reads and to the process), or at its configured size when there is no limit. A table
    /// of another size starts empty.
    pub fn fit_memory(&mut self, memory: Option<u64>) {
        let bytes = table_bytes(self.config.hash, memory);
        if bytes != self.tt.bytes() {
            // The old table goes first, so the two are never held at once.
            self.tt = Table::with_bytes(0);
            self.tt = Table::with_bytes(bytes);
        }
    }

    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches the position of `b` within `limits`, reporting each finished iteration (the
    /// swap decisions' short searches and tests; players go through [`TimeManager`]).
    pub fn search(
        &mut self,
        b: &mut EngineBoard,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(&EngineBoard, &Found),
    ) -> Option<Found> {
        self.fit_memory(limits.memory);
        let time = TimeManager::new(limits, b.side(), stop, self.config.depth);
        self.search_within(b, &time, info)
    }

    /// Searches the position of `b` within `time`, reporting each finished iteration.
    pub fn search_within(
        &mut self,
        b: &mut EngineBoard,
        time: &TimeManager,
        info: &mut dyn FnMut(&EngineBoard, &Found),
    ) -> Option<Found> {
        self.tt.new_search();
        let budget = time.budget();
        let started = time.started;
        // Every deadline below stops here: the main search's (counted from after the threat
        // checks that come first), the early iterations' and the threat check's.
        let hard = time.hard_until();
        self.nodes = 0;
        self.aborted = false;
        self.lost.clear();
        self.selective_start(b);
        let mut root = self.root_moves(b);
        // The main search looks at the best-ordered moves only (all of them once those are
        // all lost); the threat check below may still pick a defence from all of them.
        let mut width = match self.config.root_width {
            0 => root.len(),
            w => w.min(root.len()),
        };
        let first = *root.first()?;
        if let Some(found) = self.threat_first(b, budget, time.given_depth(), started) {
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
        let budget = match budget {
            Some(t) if threatened => Some(t * share / 8),
            _ => budget,
        };
        let deadline = time.deadline(budget).capped(hard);
        // The limits' depth, else the player's default without a time or node limit.
        let max_depth = time.depth.unwrap_or(60);
        let mut best = Found {
            best: first,
            value: 0,
            depth: 0,
            pv: vec![first],
            nodes: 0,
        };
        self.pv_table.clear(0);
        for depth in 1..=max_depth {
            // The first iterations get up to three times the time: they are short (a few
            // thousand nodes), and a shallower search misjudges threes, so a loaded machine
            // does not make the engine play a move it has hardly searched. Three times the
            // time in all, counted from the start of the search, not per iteration, and never
            // past the hard limit.
            self.deadline = Some(if depth <= MIN_DEPTH {
                let first = budget.map(|t| (t * 3).saturating_sub(started.elapsed()));
                time.deadline(first).capped(hard)
            } else {
                deadline.clone()
            });
            let mut done = self.selective_root(b, &mut root[..width], depth as i32);
            if !self.aborted && done.0 < -WIN_BOUND && width < root.len() {
                // Every move searched loses: the rest of the candidates may not.
                width = root.len();
                done = self.selective_root(b, &mut root, depth as i32);
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
            let pv = self.pv_table.root_line().to_vec();
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
        self.generate(b, &mut scored);
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
}

/// The table's bytes: `mb` megabytes, within half of `memory` if one is given, whole
/// buckets of two entries, 16 KB at least.
fn table_bytes(mb: usize, memory: Option<u64>) -> usize {
    let cap = memory.map_or(usize::MAX, |m| usize::try_from(m / 2).unwrap_or(usize::MAX));
    let bytes = (mb << 20).min(cap).max(16 << 10);
    bytes / 32 * 32
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
