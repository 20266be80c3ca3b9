//! External engines as Players: the protocol-independent half of driving an engine (time
//! limits with a margin, stop requests, killing a hung engine); each protocol supplies a
//! [`Driver`] that says what to send and how to read the answers.

use crate::process::{EngineProcess, Received};
use boyi_core::Game;
use boyi_engines::{GameHistory, Info, Limits, Player, PlayerError, StopFlag};
use std::time::{Duration, Instant};

/// How patient the driver is.
#[derive(Debug, Clone, Copy)]
pub struct ExternalOptions {
    /// Extra time over the move's time budget before the engine counts as hung.
    pub margin: Duration,
    /// How long a move without a time limit (depth, nodes) may take before it counts as hung.
    pub hang: Duration,
    /// How long the start-up handshake may take.
    pub handshake: Duration,
}

impl Default for ExternalOptions {
    fn default() -> Self {
        ExternalOptions {
            margin: Duration::from_millis(1000),
            hang: Duration::from_secs(60),
            handshake: Duration::from_secs(10),
        }
    }
}

/// One protocol's way of asking for a move.
pub trait Driver<G: Game>: Send {
    /// The line that makes the engine exit.
    fn quit_line(&self) -> &'static str;
    /// The line that makes the engine answer at once, if the protocol has one.
    fn stop_line(&self) -> Option<&'static str>;
    /// Sends what makes the engine search the current position of `game` (doing the
    /// handshake first when needed, waiting for its answers until `handshake_until`).
    fn ask(
        &mut self,
        p: &mut EngineProcess,
        game: &GameHistory<G>,
        limits: &Limits,
        handshake_until: Instant,
    ) -> Result<(), PlayerError>;
    /// Reads one line the engine wrote while searching: `Some` once the move (or a failure)
    /// is known.
    fn answer(
        &mut self,
        line: &str,
        game: &GameHistory<G>,
        info: &mut dyn FnMut(Info),
    ) -> Option<Result<G::Move, PlayerError>>;
    /// A new game begins in the same process.
    fn new_game(&mut self) {}
}

/// Reads lines until one satisfies `wanted`, skipping the others.
pub fn expect_line(
    p: &mut EngineProcess,
    until: Instant,
    what: &str,
    wanted: impl Fn(&str) -> bool,
) -> Result<String, PlayerError> {
    loop {
        match p.recv(Some(until), None) {
            Received::Line(l) if wanted(&l) => return Ok(l),
            Received::Line(_) => {}
            Received::TimedOut | Received::Stopped => {
                return Err(PlayerError::Timeout(format!(
                    "no {what} from the engine ({})",
                    p.recent_log()
                )));
            }
            Received::Closed => {
                return Err(PlayerError::Crashed(format!(
                    "the engine exited before {what} ({})",
                    p.recent_log()
                )));
            }
        }
    }
}

/// An external engine playing through a [`Driver`].
pub struct ExternalPlayer<G: Game> {
    process: EngineProcess,
    driver: Box<dyn Driver<G>>,
    name: String,
    opts: ExternalOptions,
    /// After a timeout or a broken exchange the engine is out of step: it plays no more.
    broken: Option<PlayerError>,
}

impl<G: Game> ExternalPlayer<G> {
    pub fn new(
        process: EngineProcess,
        driver: Box<dyn Driver<G>>,
        name: String,
        opts: ExternalOptions,
    ) -> Self {
        let mut process = process;
        process.set_quit(driver.quit_line());
        ExternalPlayer {
            process,
            driver,
            name,
            opts,
            broken: None,
        }
    }

    /// The hard deadline of a move: its time (fixed, or all the clock has left) plus the margin.
    fn hard_deadline(
        &self,
        limits: &Limits,
        game: &GameHistory<G>,
        now: Instant,
    ) -> Option<Instant> {
        if limits.infinite {
            return None;
        }
        let side = game.current().side_to_move();
        let clock = limits.clock.map(|c| c.time_left[side.index()]);
        let allowed = match (limits.movetime, clock) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => return Some(now + self.opts.hang),
        };
        Some(now + allowed + self.opts.margin)
    }

    fn search(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<G::Move, PlayerError> {
        let now = Instant::now();
        self.driver
            .ask(&mut self.process, game, limits, now + self.opts.handshake)?;
        let mut hard = self.hard_deadline(limits, game, Instant::now());
        let mut stopped = false;
        loop {
            let flag = (!stopped).then_some(stop);
            match self.process.recv(hard, flag) {
                Received::Line(line) => {
                    if let Some(result) = self.driver.answer(&line, game, info) {
                        return result;
                    }
                }
                Received::Stopped => {
                    stopped = true;
                    if let Some(line) = self.driver.stop_line() {
                        self.process.send(line);
                    }
                    let grace = Instant::now() + self.opts.margin;
                    hard = Some(hard.map_or(grace, |h| h.min(grace)));
                }
                Received::TimedOut => {
                    self.process.kill();
                    return Err(PlayerError::Timeout(format!(
                        "killed after {:.1}s ({})",
                        now.elapsed().as_secs_f64(),
                        self.process.recent_log()
                    )));
                }
                Received::Closed => {
                    return Err(PlayerError::Crashed(self.process.recent_log()));
                }
            }
        }
    }
}

impl<G: Game> Player<G> for ExternalPlayer<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        self.driver.new_game();
    }

    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<G::Move, PlayerError> {
        if let Some(e) = &self.broken {
            return Err(e.clone());
        }
        if game.current().outcome().is_some() {
            return Err(PlayerError::GameOver);
        }
        let result = self.search(game, limits, stop, info);
        if let Err(e) = &result
            && !matches!(e, PlayerError::Resigned)
        {
            self.broken = Some(e.clone());
        }
        result
    }
}

/// Parses a move the engine sent (already in canonical text) as a legal move.
pub fn engine_move<G: Game>(
    game: &GameHistory<G>,
    sent: &str,
    canonical: Result<String, boyi_core::TextError>,
) -> Result<G::Move, PlayerError> {
    let text = canonical.map_err(|e| PlayerError::Illegal(format!("{sent:?} ({e})")))?;
    game.current()
        .parse_move(&text)
        .map_err(|e| PlayerError::Illegal(format!("{sent:?} ({e})")))
}
