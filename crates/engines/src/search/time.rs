//! Time: when a search must end, for every form of limit — fixed depth, nodes, move time, a
//! clock (with or without increment and moves to go), Gomocup's per-move cap (`max_time`),
//! infinite, and the stop flag.
//!
//! - [`TimeManager`] serves iterative deepening: it gives two times, the optimum (no new
//!   iteration starts after about half of it is spent, since the next iteration usually takes
//!   longer than all before it) and the maximum (the search stops wherever it is). The
//!   maximum never exceeds a share of the time left minus a fixed overhead for the transport
//!   of the move, nor the per-move cap, so the engine never loses on time.
//!   For engines that share their time out themselves (Gomoku's threat checks and first
//!   iterations, Connect6's threat screen), it also gives the budget of the move
//!   ([`Limits::time_budget`]), the hard limit no share may pass ([`Limits::hard_limit`]),
//!   and [`Deadline`]s for the parts.
//! - [`Deadline`] serves searches without iteration control (the seed baselines and the parts
//!   of a shared-out search): one budget that ends the search wherever it is.

use crate::player::{Limits, StopFlag, earliest};
use boyi_core::Side;
use std::time::{Duration, Instant};

/// Time kept back on every move for process and transport delays.
const OVERHEAD: Duration = Duration::from_millis(30);

#[derive(Debug, Clone)]
pub struct TimeManager {
    pub started: Instant,
    /// Do not start a new iteration after this (`None`: no time limit).
    optimum: Option<Duration>,
    /// Stop searching at once after this.
    maximum: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Nothing but the per-move cap bounds the search: the player's own defaults apply.
    unbounded: bool,
    /// The move's budget and hard limit, for engines that share the time out themselves.
    budget: Option<Duration>,
    hard: Option<Duration>,
    stop: StopFlag,
}

impl TimeManager {
    /// The limits of one search by `side`; `default_depth` applies when nothing bounds it.
    pub fn new(limits: &Limits, side: Side, stop: &StopFlag, default_depth: u32) -> TimeManager {
        let (optimum, maximum) = if limits.infinite {
            (None, None)
        } else {
            budget(limits, side)
        };
        let unbounded = !limits.infinite
            && maximum.is_none()
            && limits.depth.is_none()
            && limits.nodes.is_none();
        // The per-move cap bounds a search, but is no budget: without other limits the
        // default depth still applies.
        let cap = limits.cap().map(|m| m.saturating_sub(OVERHEAD));
        let (optimum, maximum) = (earliest(optimum, cap), earliest(maximum, cap));
        TimeManager {
            started: Instant::now(),
            optimum,
            maximum,
            nodes: limits.nodes,
            depth: if unbounded {
                Some(default_depth)
            } else {
                limits.depth
            },
            unbounded,
            budget: limits.time_budget(side),
            hard: limits.hard_limit(side),
            stop: stop.clone(),
        }
    }

    /// The same limits with the player's own node budget when nothing bounds the search.
    pub fn with_default_nodes(mut self, nodes: Option<u64>) -> TimeManager {
        if self.unbounded {
            self.nodes = nodes;
        }
        self
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Whether the search must stop now (called every few thousand nodes).
    pub fn must_stop(&self, nodes: u64) -> bool {
        self.stop.is_stopped()
            || self.nodes.is_some_and(|n| nodes >= n)
            || self.maximum.is_some_and(|m| self.elapsed() >= m)
    }

    /// The depth the limits give (not the player's default).
    pub fn given_depth(&self) -> Option<u32> {
        if self.unbounded { None } else { self.depth }
    }

    /// The time the move may take, for a search that shares it out itself:
    /// [`Limits::time_budget`].
    pub fn budget(&self) -> Option<Duration> {
        self.budget
    }

    /// When no part of the search may run past: [`Limits::hard_limit`] from the start.
    pub fn hard_until(&self) -> Option<Instant> {
        self.hard.map(|h| self.started + h)
    }

    /// A deadline `within` from now (none: only the stop flag and the node limit), for one
    /// part of a search.
    pub fn deadline(&self, within: Option<Duration>) -> Deadline {
        let started = Instant::now();
        Deadline {
            stop: self.stop.clone(),
            started,
            until: within.map(|d| started + d),
            nodes: self.nodes,
            every_node: false,
        }
    }

    /// Whether the stop flag alone is raised.
    pub fn stopped(&self) -> bool {
        self.stop.is_stopped()
    }

    /// Whether the optimum is not spent yet: for a search that cannot tell how long its next
    /// iteration takes, and lets the maximum end one cut short.
    pub fn within_optimum(&self) -> bool {
        self.optimum.is_none_or(|o| self.elapsed() < o)
    }

    /// Whether another iteration may start, given how unstable the best move has been
    /// (1.0 steady; larger when it keeps changing).
    pub fn may_continue(&self, instability: f64) -> bool {
        match self.optimum {
            None => true,
            Some(opt) => self.elapsed().as_secs_f64() < opt.as_secs_f64() * 0.5 * instability,
        }
    }
}

/// Whether a position with a single move to play answers at once: when the search is bounded
/// by time alone, thinking cannot change the move and only spends the clock.
pub fn forced_at_once(limits: &Limits, moves: usize) -> bool {
    moves == 1
        && !limits.infinite
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && (limits.clock.is_some() || limits.movetime.is_some())
}

/// Optimum and maximum time for the move, if the limits give any time.
fn budget(limits: &Limits, side: Side) -> (Option<Duration>, Option<Duration>) {
    let from_clock = limits.clock.map(|c| {
        let left = c.time_left[side.index()];
        let inc = c.increment[side.index()];
        let spare = left.saturating_sub(OVERHEAD);
        let togo = c.moves_to_go.unwrap_or(28).clamp(1, 28);
        let optimum = if togo == 1 {
            spare * 7 / 10
        } else {
            (spare / togo + inc * 3 / 4).min(spare / 2)
        };
        let maximum = (optimum * 4).min(spare * 7 / 10).max(optimum.min(spare));
        (optimum, maximum)
    });
    let fixed = limits.movetime.map(|m| {
        // A tenth at most, so a very short move keeps most of its time.
        let m = m.saturating_sub((OVERHEAD / 3).min(m / 10));
        (m, m)
    });
    match (fixed, from_clock) {
        (Some(a), Some(b)) => (Some(a.0.min(b.0)), Some(a.1.min(b.1))),
        (Some(a), None) => (Some(a.0), Some(a.1)),
        (None, Some(b)) => (Some(b.0), Some(b.1)),
        (None, None) => (None, None),
    }
}

/// When a search without iteration control must end: the stop flag, a time budget and a node
/// budget, checked together.
#[derive(Debug, Clone)]
pub struct Deadline {
    stop: StopFlag,
    pub started: Instant,
    until: Option<Instant>,
    nodes: Option<u64>,
    /// Read the clock at every node rather than every 16th.
    every_node: bool,
}

impl Deadline {
    pub fn new(limits: &Limits, side: Side, stop: &StopFlag) -> Deadline {
        let started = Instant::now();
        Deadline {
            stop: stop.clone(),
            started,
            until: limits.time_budget(side).map(|d| started + d),
            nodes: limits.nodes,
            every_node: false,
        }
    }

    /// The same deadline for a search whose nodes cost far more than reading the clock
    /// (Connect6's, with threat analysis at each): the clock is read at every node, and the
    /// budget ends a sixteenth early (4 ms at least, half at most) for the move's transfer and
    /// a loaded machine.
    pub fn for_slow_nodes(mut self) -> Deadline {
        if let Some(until) = self.until {
            let t = until - self.started;
            let margin = (t / 16).max(Duration::from_millis(4)).min(t / 2);
            self.until = Some(until - margin);
        }
        self.every_node = true;
        self
    }

    /// The same deadline, ending no later than `at`.
    pub fn capped(mut self, at: Option<Instant>) -> Deadline {
        self.until = earliest(self.until, at);
        self
    }

    /// Whether the search must stop after `nodes` nodes (the clock is read every 16 nodes).
    pub fn reached(&self, nodes: u64) -> bool {
        self.stop.is_stopped()
            || self.nodes.is_some_and(|n| nodes >= n)
            || ((self.every_node || nodes.is_multiple_of(16))
                && self.until.is_some_and(|t| Instant::now() >= t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Clock;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn clock_budget_stays_well_inside_the_time_left() {
        for (left, inc, togo) in [
            (10_000, 100, None),
            (300, 0, None),
            (50, 0, None),
            (20, 0, None),
            (5_000, 0, Some(1)),
            (60_000, 0, Some(40)),
        ] {
            let limits = Limits {
                clock: Some(Clock {
                    time_left: [ms(left), ms(left)],
                    increment: [ms(inc), ms(inc)],
                    moves_to_go: togo,
                }),
                ..Limits::default()
            };
            let (opt, max) = budget(&limits, Side::White);
            let (opt, max) = (opt.unwrap(), max.unwrap());
            assert!(opt <= max, "{left} {inc} {togo:?}");
            assert!(max <= ms(left).saturating_sub(OVERHEAD), "{left}");
        }
    }

    #[test]
    fn the_per_move_cap_bounds_every_budget() {
        let limits = Limits {
            clock: Some(Clock {
                time_left: [ms(600_000); 2],
                ..Clock::default()
            }),
            max_time: Some(ms(1000)),
            ..Limits::default()
        };
        let stop = StopFlag::new();
        let tm = TimeManager::new(&limits, Side::Black, &stop, 9);
        let cap = ms(1000) - OVERHEAD;
        assert!(tm.optimum.unwrap() <= cap && tm.maximum.unwrap() <= cap);
        let alone = Limits {
            max_time: Some(ms(500)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&alone, Side::Black, &stop, 9);
        assert_eq!(tm.maximum, Some(ms(500) - OVERHEAD));
        assert_eq!(
            tm.depth,
            Some(9),
            "a cap alone is no budget: the default depth holds"
        );
    }

    #[test]
    fn fixed_limits_and_defaults() {
        let stop = StopFlag::new();
        let tm = TimeManager::new(&Limits::default(), Side::White, &stop, 9);
        assert_eq!((tm.depth, tm.maximum), (Some(9), None));
        let inf = Limits {
            infinite: true,
            ..Limits::default()
        };
        let tm = TimeManager::new(&inf, Side::White, &stop, 9);
        assert_eq!((tm.depth, tm.maximum), (None, None));
        let mt = Limits {
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&mt, Side::White, &stop, 9);
        assert_eq!(tm.depth, None);
        assert!(tm.maximum.unwrap() <= ms(100));
        let nodes = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        let tm = TimeManager::new(&nodes, Side::White, &stop, 9);
        assert!(tm.must_stop(1000) && !tm.must_stop(999));
    }

    #[test]
    fn a_single_move_is_played_at_once_only_under_time_limits() {
        let mt = Limits {
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        assert!(forced_at_once(&mt, 1));
        assert!(!forced_at_once(&mt, 2));
        assert!(
            !forced_at_once(&Limits::depth(5), 1),
            "a fixed depth is searched"
        );
        let analysis = Limits {
            infinite: true,
            ..mt
        };
        assert!(!forced_at_once(&analysis, 1));
    }

    #[test]
    fn a_player_s_own_nodes_apply_only_when_nothing_bounds_the_search() {
        let stop = StopFlag::new();
        let own = Some(60);
        let free = TimeManager::new(&Limits::default(), Side::Black, &stop, 5);
        let free = free.with_default_nodes(own);
        assert_eq!((free.depth, free.nodes), (Some(5), Some(60)));
        let timed = Limits {
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        let timed = TimeManager::new(&timed, Side::Black, &stop, 5).with_default_nodes(own);
        assert_eq!((timed.depth, timed.nodes), (None, None));
        let deep = TimeManager::new(&Limits::depth(3), Side::Black, &stop, 5);
        assert_eq!(deep.with_default_nodes(own).nodes, None);
    }

    #[test]
    fn a_short_move_time_keeps_nine_tenths() {
        let stop = StopFlag::new();
        for (given, kept) in [(20, 18), (100, 90), (2000, 1990)] {
            let limits = Limits {
                movetime: Some(ms(given)),
                ..Limits::default()
            };
            let tm = TimeManager::new(&limits, Side::Black, &stop, 5);
            assert_eq!((tm.optimum, tm.maximum), (Some(ms(kept)), Some(ms(kept))));
        }
    }

    #[test]
    fn the_optimum_ends_iterations_that_cannot_be_judged() {
        let stop = StopFlag::new();
        let now = Limits {
            movetime: Some(Duration::ZERO),
            ..Limits::default()
        };
        let tm = TimeManager::new(&now, Side::Black, &stop, 4);
        assert_eq!(tm.optimum, Some(Duration::ZERO));
        assert!(!tm.within_optimum());
        let tm = TimeManager::new(&Limits::depth(3), Side::Black, &stop, 4);
        assert!(tm.optimum.is_none() && tm.within_optimum());
    }

    #[test]
    fn a_deadline_for_slow_nodes_ends_early_and_reads_the_clock_at_every_node() {
        let stop = StopFlag::new();
        let second = Limits {
            movetime: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        let d = Deadline::new(&second, Side::Black, &stop);
        let slow = d.clone().for_slow_nodes();
        assert_eq!(d.until.unwrap() - slow.until.unwrap(), ms(1000) / 16);
        let tiny = Limits {
            movetime: Some(ms(6)),
            ..Limits::default()
        };
        let d = Deadline::new(&tiny, Side::Black, &stop);
        let slow = d.clone().for_slow_nodes();
        assert_eq!(
            d.until.unwrap() - slow.until.unwrap(),
            ms(3),
            "half at most"
        );
        let now = Limits {
            movetime: Some(Duration::ZERO),
            ..Limits::default()
        };
        let d = Deadline::new(&now, Side::Black, &stop);
        assert!(!d.reached(1) && d.clone().for_slow_nodes().reached(1));
        let unlimited = Deadline::new(&Limits::default(), Side::Black, &stop).for_slow_nodes();
        assert!(unlimited.until.is_none() && !unlimited.reached(1));
    }

    #[test]
    fn a_capped_deadline_ends_at_the_cap() {
        let stop = StopFlag::new();
        let unlimited = Deadline::new(&Limits::default(), Side::Black, &stop);
        assert!(!unlimited.clone().capped(None).reached(16));
        let past = Instant::now();
        assert!(unlimited.capped(Some(past)).reached(16));
        // A cap later than the budget leaves the budget.
        let hour = Duration::from_secs(3600);
        let soon = Limits {
            movetime: Some(Duration::ZERO),
            ..Limits::default()
        };
        let d = Deadline::new(&soon, Side::Black, &stop).capped(Some(past + hour));
        assert!(d.reached(16));
    }
}
