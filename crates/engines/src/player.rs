//! The Player abstraction: everything that chooses moves (a built-in search, a seed baseline,
//! an external engine driven over its protocol) answers the same question — given a game with
//! its history and the limits of this turn, which move? — and may report its thinking.

use boyi_core::{Game, Side, TextError};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A game as players see it: the start position, the moves played from it, and the current
/// position. External engines need all three (`position startpos moves …`).
#[derive(Debug, Clone)]
pub struct GameHistory<G: Game> {
    start: G,
    moves: Vec<G::Move>,
    current: G,
}

impl<G: Game> GameHistory<G> {
    pub fn new(start: G) -> Self {
        GameHistory {
            current: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    pub fn start(&self) -> &G {
        &self.start
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    pub fn current(&self) -> &G {
        &self.current
    }

    /// Plays a legal move.
    pub fn push(&mut self, mv: G::Move) {
        self.current.play(&mv);
        self.moves.push(mv);
    }

    /// Parses move text in the current position and plays it.
    pub fn push_text(&mut self, text: &str) -> Result<G::Move, TextError> {
        let mv = self.current.parse_move(text)?;
        self.push(mv.clone());
        Ok(mv)
    }

    /// Takes back the last move; `None` if no move was played.
    pub fn pop(&mut self) -> Option<G::Move> {
        let mv = self.moves.pop()?;
        if !self.current.undo() {
            // The position cannot undo (it was read from text): replay from the start.
            self.current = self.replayed();
        }
        Some(mv)
    }

    /// The canonical text of every move played, each formatted in the position it was played in.
    pub fn move_texts(&self) -> Vec<String> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|mv| {
                let text = pos.format_move(mv);
                pos.play(mv);
                text
            })
            .collect()
    }

    fn replayed(&self) -> G {
        let mut pos = self.start.clone();
        for mv in &self.moves {
            pos.play(mv);
        }
        pos
    }
}

/// One side's clock at the start of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left, indexed by [`Side::index`].
    pub time_left: [Duration; 2],
    /// Increment per move, indexed by [`Side::index`].
    pub increment: [Duration; 2],
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

/// What bounds a search. Several limits may be set; the first one reached ends the search.
/// No limit at all means the player's own default (e.g. its fixed depth).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// A hard cap on this move's time, from managers that forfeit an engine that overruns
    /// (Gomocup's `timeout_turn`), or the command line's cap on a search given no other
    /// limit. A player may think past its budget (`time_budget`), as the Gomoku engine does
    /// for its first iterations and its threat check, but not past this; callers that run
    /// players (the protocol servers, the arena, `boyi analyze`) also raise the stop flag
    /// then, so the cap holds for every player.
    pub max_time: Option<Duration>,
    /// The most memory the player may take, in bytes (Gomocup's `max_memory`): a player
    /// with large tables keeps them within it.
    pub memory: Option<u64>,
    /// Search until stopped (analysis, pondering).
    pub infinite: bool,
    /// Canonical texts of moves not to play here (UCCI `banmoves`).
    pub banned: Vec<String>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// The cap a caller holds the search to with its stop flag: `max_time`, unless the
    /// search is infinite (analysis and pondering end only when stopped).
    pub fn cap(&self) -> Option<Duration> {
        if self.infinite { None } else { self.max_time }
    }

    /// The legal moves of `pos` that are not banned.
    pub fn root_moves<G: Game>(&self, pos: &G) -> Vec<G::Move> {
        let mut moves = pos.legal_moves();
        if !self.banned.is_empty() {
            moves.retain(|m| !self.banned.contains(&pos.format_move(m)));
        }
        moves
    }

    /// The time `side` may spend on this move: the fixed move time, or a share of its clock
    /// (time left over the moves to go, 30 when unknown, plus most of the increment), never
    /// more than 80% of what is left so a slow move cannot lose on time.
    pub fn time_budget(&self, side: Side) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        let from_clock = self.clock.map(|c| {
            let left = c.time_left[side.index()];
            let togo = c.moves_to_go.unwrap_or(30).clamp(1, 30);
            let share = left / togo + c.increment[side.index()] * 3 / 4;
            share.min(left * 4 / 5)
        });
        earliest(self.movetime, from_clock)
    }

    /// The time `side` must never exceed on this move, however its budget is stretched:
    /// `max_time`, and with a clock 80% of what is left.
    pub fn hard_limit(&self, side: Side) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        let from_clock = self.clock.map(|c| c.time_left[side.index()] * 4 / 5);
        earliest(self.max_time, from_clock)
    }
}

/// The smaller of two optional bounds; a missing one does not bound.
pub(crate) fn earliest<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

pub use boyi_core::Score;

/// One line of thinking output.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Info {
    pub depth: Option<u32>,
    pub score: Option<Score>,
    /// Principal variation as canonical move texts.
    pub pv: Vec<String>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time: Option<Duration>,
    /// Free text (e.g. an external engine's `info string`).
    pub text: Option<String>,
}

/// Why a player produced no move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The player answered with a move that is malformed or illegal here.
    #[error("illegal move {0}")]
    Illegal(String),
    /// The player died or closed its output.
    #[error("crashed: {0}")]
    Crashed(String),
    /// The player did not answer within its time (plus margin).
    #[error("no move in time: {0}")]
    Timeout(String),
    /// The player resigned.
    #[error("resigned")]
    Resigned,
    /// The player broke its protocol (unexpected or malformed answer).
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The player cannot play this game or position at all (a setup error, not a loss).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The position has no legal move (the game is over).
    #[error("the game is over")]
    GameOver,
}

impl PlayerError {
    /// `player` has no decisions for the `rule` opening (`swap1`, `swap2`).
    pub fn no_swap(player: &str, rule: &str) -> PlayerError {
        PlayerError::Unsupported(format!("{player} does not play {rule} openings"))
    }
}

/// The shared flag that asks a running search to stop as soon as it can.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn new() -> Self {
        StopFlag::default()
    }

    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Raises the flag once `after` has passed, unless the returned timer is dropped first:
    /// the caller's cap on a search, whatever the player makes of its limits.
    pub fn stop_after(&self, after: Duration) -> StopTimer {
        let (cancel, wait) = std::sync::mpsc::channel::<()>();
        let flag = self.clone();
        std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(after) {
                flag.stop();
            }
        });
        StopTimer { _cancel: cancel }
    }
}

/// A pending [`StopFlag::stop_after`]; dropping it cancels the stop.
#[derive(Debug)]
pub struct StopTimer {
    _cancel: std::sync::mpsc::Sender<()>,
}

/// Where thinking output goes.
pub type InfoSink<'a> = &'a mut dyn FnMut(Info);

/// Something that chooses moves in game `G`.
pub trait Player<G: Game>: Send {
    /// A short name for records and thinking output.
    fn name(&self) -> String;

    /// A new game starts (clears anything kept between moves of one game).
    fn new_game(&mut self) {}

    /// Chooses a move in `game.current()`, within `limits`, returning early (with the best
    /// move found so far) once `stop` is raised. The move must be legal.
    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        stop: &StopFlag,
        info: InfoSink<'_>,
    ) -> Result<G::Move, PlayerError>;

    /// A decision of the swap1 opening (Gomoku) in `game.current()`: on the empty board the
    /// three opening stones; after three stones swap (take black) or play the fourth stone
    /// as white. Players without swap openings say so.
    fn swap1(&mut self, game: &GameHistory<G>, limits: &Limits) -> Result<Swap2Reply, PlayerError> {
        let _ = (game, limits);
        Err(PlayerError::no_swap(&self.name(), "swap1"))
    }

    /// A decision of the swap2 opening (Gomoku) in `game.current()`: on the empty board the
    /// three opening stones; after three stones swap, play the next stone, or add two; after
    /// five, swap or play the next stone. Players without swap openings say so.
    fn swap2(&mut self, game: &GameHistory<G>, limits: &Limits) -> Result<Swap2Reply, PlayerError> {
        let _ = (game, limits);
        Err(PlayerError::no_swap(&self.name(), "swap2"))
    }
}

/// A swap1 or swap2 opening decision: take black and let the opponent play on as white, or
/// the stones to place (canonical point texts, in order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Swap2Reply {
    Swap,
    Stones(Vec<String>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_timer_raises_the_flag_unless_dropped_first() {
        let stop = StopFlag::new();
        let _timer = stop.stop_after(Duration::ZERO);
        while !stop.is_stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let kept = StopFlag::new();
        drop(kept.stop_after(Duration::from_secs(3600)));
        // The cancelled timer's thread has nothing left to raise (and no time passes here
        // that could tell): the flag stays down.
        assert!(!kept.is_stopped());
        let capped = Limits {
            max_time: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        assert_eq!(capped.cap(), Some(Duration::from_secs(1)));
        let infinite = Limits {
            infinite: true,
            ..capped
        };
        assert_eq!(infinite.cap(), None);
    }

    #[test]
    fn time_budget_takes_a_share_of_the_clock() {
        let ms = Duration::from_millis;
        let mut limits = Limits {
            clock: Some(Clock {
                time_left: [ms(3000), ms(600)],
                increment: [ms(100), ms(0)],
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        assert_eq!(limits.time_budget(Side::Black), Some(ms(100 + 75)));
        assert_eq!(limits.time_budget(Side::White), Some(ms(20)));
        limits.movetime = Some(ms(50));
        assert_eq!(limits.time_budget(Side::Black), Some(ms(50)));
        limits.infinite = true;
        assert_eq!(limits.time_budget(Side::Black), None);
        assert_eq!(Limits::depth(3).time_budget(Side::White), None);
    }

    #[test]
    fn hard_limit_is_max_time_and_most_of_the_clock() {
        let ms = Duration::from_millis;
        let mut limits = Limits {
            movetime: Some(ms(50)),
            ..Limits::default()
        };
        assert_eq!(
            limits.hard_limit(Side::Black),
            None,
            "a move time alone is no cap"
        );
        limits.clock = Some(Clock {
            time_left: [ms(3000), ms(600)],
            ..Clock::default()
        });
        assert_eq!(limits.hard_limit(Side::Black), Some(ms(2400)));
        limits.max_time = Some(ms(300));
        assert_eq!(limits.hard_limit(Side::Black), Some(ms(300)));
        assert_eq!(limits.hard_limit(Side::White), Some(ms(300)));
        limits.max_time = Some(ms(3000));
        assert_eq!(limits.hard_limit(Side::White), Some(ms(480)));
        limits.infinite = true;
        assert_eq!(limits.hard_limit(Side::Black), None);
    }
}
