//! Serving a Boyi player over a protocol: one loop that reads input lines on a reader
//! thread, searches on the player's own thread, and hands both to the protocol's
//! [`Frontend`]. Every output line is flushed at once.
//!
//! While a search runs, the lines the protocol marks urgent (`stop`, `isready`, `quit`,
//! `YXSTOP`, `END`) are acted on at once, whatever else waits; the others wait until the move
//! is out, in order, as if the controller had waited for it. A few lines (SAU's `end`) are
//! acted on at once only when nothing waits before them, so they never overtake a move.
//!
//! `quit` (and the end of the input, which acts as `quit`) ends the session without losing
//! anything already read: the running search stops at once and its move is written (as
//! Stockfish does, so a piped script still gets its answer), every waiting line is then
//! handled with each search it starts stopped at once, nothing more is read, and the loop
//! ends.

use crate::lines::{LineReader, ReadLine};
use boyi_core::{Game, TextError};
use boyi_engines::options::{Kind, OptionDef};
use boyi_engines::{
    GameHistory, Info, Limits, Player, PlayerError, PlayerThread, SearchEvent, Swap2Reply,
};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long a closing server waits for a stopped search's move before it leaves without it
/// (a player that ignores its stop flag must not keep the process alive).
const QUIT_GRACE: Duration = Duration::from_secs(5);

/// When a line read during a search is acted on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Urgency {
    /// After the move, in input order.
    Waits,
    /// At once, ahead of any waiting line.
    AtOnce,
    /// At once if no line waits, else in input order.
    InTurn,
}

/// Whether the loop goes on after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The protocol side of a server.
pub trait Frontend<G: Game> {
    /// When a line that arrives during a search is acted on.
    fn urgency(&self, line: &str) -> Urgency;
    fn line(&mut self, line: &str, s: &mut Session<G>) -> Flow;
    /// A line that cannot be read as a command (longer than the bound): `what` says why.
    fn unreadable(&mut self, what: &str, s: &mut Session<G>);
    fn info(&mut self, _info: &Info, _s: &mut Session<G>) {}
    /// The search finished (or was stopped) with this result.
    fn done(&mut self, result: Result<G::Move, PlayerError>, s: &mut Session<G>) -> Flow;
    /// The player's swap2 decision asked for by [`Session::swap2`].
    fn swapped(&mut self, _decision: Result<Swap2Reply, PlayerError>, _s: &mut Session<G>) {}
    /// The session is ending (the input ended, or quit): the running search must answer
    /// now, and its move (or one held for `stop`) be written. Called again while the session
    /// closes, so it must be idempotent.
    fn answer_now(&mut self, s: &mut Session<G>) {
        s.stop();
    }
    /// The last thing the loop does before it returns.
    fn finish(&mut self, _s: &mut Session<G>) {}
}

/// The served player's options, and how to build the player again with some of them set (an
/// engine manager's UCI `setoption` or Gomocup `INFO`).
pub struct Configure<G: Game> {
    pub options: &'static [OptionDef],
    /// Builds the player (with whatever wraps it) with these options set, each checked and
    /// named as declared.
    pub rebuild: Rebuild<G>,
}

/// How a served player is built again with options set.
pub type Rebuild<G> = Box<dyn FnMut(&[(String, String)]) -> Result<Box<dyn Player<G>>, TextError>>;

/// Starts a player on its own thread, reporting to the session.
type Spawn<G> = Box<dyn Fn(Box<dyn Player<G>>) -> PlayerThread<G>>;

/// What a front-end drives: the output and the searching player.
pub struct Session<G: Game> {
    out: Box<dyn Write>,
    searcher: PlayerThread<G>,
    respawn: Spawn<G>,
    configure: Option<Configure<G>>,
    /// Options set so far, in the order set.
    set: Vec<(String, String)>,
    searching: bool,
    abandoned: usize,
    new_game: bool,
    /// When the running search is stopped whatever it makes of its limits ([`Limits::cap`]).
    cap: Option<Instant>,
    /// Limits used when the protocol gives none (from the command line).
    pub default_limits: Limits,
}

impl<G: Game> Session<G> {
    /// Writes one line and flushes it. Output errors (a closed pipe) end nothing: the input
    /// side notices the controller is gone.
    pub fn send(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}").and_then(|_| self.out.flush());
    }

    pub fn searching(&self) -> bool {
        self.searching
    }

    /// Starts searching `game`; the result comes to [`Frontend::done`].
    pub fn search(&mut self, game: GameHistory<G>, limits: Limits) {
        self.cap = limits.cap().and_then(|d| Instant::now().checked_add(d));
        self.searcher
            .search(game, limits, std::mem::take(&mut self.new_game));
        self.searching = true;
    }

    /// Asks the player for its swap2 decision in `game.current()`; the answer comes to
    /// [`Frontend::swapped`]. Lines wait meanwhile, as during a search.
    pub fn swap2(&mut self, game: GameHistory<G>, limits: Limits) {
        self.cap = None;
        self.searcher
            .swap2(game, limits, std::mem::take(&mut self.new_game));
        self.searching = true;
    }

    /// Asks the running search for its move now.
    pub fn stop(&mut self) {
        self.searcher.stop();
    }

    /// Stops the running search and drops its result.
    pub fn abandon(&mut self) {
        if self.searching {
            self.searcher.stop();
            self.abandoned += 1;
            self.searching = false;
            self.cap = None;
        }
    }

    /// The next search belongs to a new game.
    pub fn new_game(&mut self) {
        self.new_game = true;
    }

    /// The options the served player offers (none when it cannot be built again).
    pub fn options(&self) -> &'static [OptionDef] {
        self.configure.as_ref().map_or(&[], |c| c.options)
    }

    /// The option a protocol names (in any case, by name or earlier name).
    pub fn option(&self, name: &str) -> Option<&'static OptionDef> {
        let find = |f: &dyn Fn(&OptionDef) -> bool| self.options().iter().find(|o| f(o));
        find(&|o| o.answers_to(name)).or_else(|| {
            find(&|o| {
                o.name.eq_ignore_ascii_case(name)
                    || o.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
            })
        })
    }

    /// Sets one of the player's options: the value is checked, then the player is built
    /// again with every option set so far (its next search starts a new game). Refused while
    /// a search runs. Rebuilding a recording player starts a new stored game.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let Some(def) = self.option(name) else {
            let names: Vec<&str> = self.options().iter().map(|o| o.name).collect();
            return Err(format!(
                "no such option {name:?} (options: {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ));
        };
        // A search still running (or abandoned and not yet answered) reports on the channel
        // a new player would share: the change waits for it to end.
        if self.searching || self.abandoned > 0 {
            return Err(format!("option {} cannot change during a search", def.name));
        }
        let mut set = self.set.clone();
        set.retain(|(n, _)| n != def.name);
        // UCI's empty value (`<empty>`, as managers echo a string option's default) unsets a
        // text or seed option: the player's own default again.
        let unset = matches!(def.kind, Kind::Text { .. } | Kind::Seed)
            && (value.is_empty() || value == "<empty>");
        if !unset {
            set.push((
                def.name.to_string(),
                def.check(value).map_err(|e| e.to_string())?,
            ));
        }
        let Some(configure) = &mut self.configure else {
            return Err("the served player has no options".into());
        };
        let player = (configure.rebuild)(&set).map_err(|e| e.to_string())?;
        self.searcher = (self.respawn)(player);
        self.set = set;
        self.new_game = true;
        Ok(())
    }
}

enum Event<G: Game> {
    Input(ReadLine),
    Search(SearchEvent<G>),
}

/// Serves `player` through `frontend`, reading `input` and writing `output` until the
/// protocol quits or the input ends.
pub fn run<G: Game, F: Frontend<G>>(
    mut frontend: F,
    player: Box<dyn Player<G>>,
    configure: Option<Configure<G>>,
    default_limits: Limits,
    input: impl BufRead + Send + 'static,
    output: impl Write + 'static,
) {
    let (tx, rx) = channel::<Event<G>>();
    let reader = tx.clone();
    std::thread::spawn(move || {
        for read in LineReader::new(input) {
            if reader.send(Event::Input(read)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::Input(ReadLine::Eof));
    });
    // Every player this session builds (a manager's option builds it again) reports here.
    let respawn = move |player| {
        let tx = tx.clone();
        PlayerThread::spawn(player, move |ev| {
            let _ = tx.send(Event::Search(ev));
        })
    };
    let mut s = Session {
        out: Box::new(output),
        searcher: respawn(player),
        respawn: Box::new(respawn),
        configure,
        set: Vec::new(),
        searching: false,
        abandoned: 0,
        new_game: true,
        cap: None,
        default_limits,
    };
    let mut waiting: VecDeque<String> = VecDeque::new();
    // Quit or the end of the input: no more input is read, every search answers at once.
    let mut closing = false;
    loop {
        // Waiting lines go first, in order, once no search runs.
        if !s.searching
            && let Some(line) = waiting.pop_front()
        {
            closing |= frontend.line(&line, &mut s) == Flow::Quit;
            if closing {
                frontend.answer_now(&mut s);
            }
            continue;
        }
        if closing && !s.searching {
            break;
        }
        let event = if closing {
            match rx.recv_timeout(QUIT_GRACE) {
                Ok(ev) => ev,
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        } else if let Some(cap) = s.cap.filter(|_| s.searching) {
            match rx.recv_timeout(cap.saturating_duration_since(Instant::now())) {
                Ok(ev) => ev,
                Err(RecvTimeoutError::Timeout) => {
                    s.cap = None;
                    s.stop();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match rx.recv() {
                Ok(ev) => ev,
                Err(_) => break,
            }
        };
        match event {
            Event::Input(_) if closing => {}
            Event::Input(ReadLine::Line(line)) => {
                let line = line.trim();
                let waits = match frontend.urgency(line) {
                    Urgency::Waits => true,
                    Urgency::AtOnce => false,
                    Urgency::InTurn => !waiting.is_empty(),
                };
                if s.searching && waits {
                    if !line.is_empty() {
                        waiting.push_back(line.to_string());
                    }
                } else if !line.is_empty() && frontend.line(line, &mut s) == Flow::Quit {
                    closing = true;
                }
            }
            Event::Input(ReadLine::TooLong { bytes, head }) => frontend.unreadable(
                &format!("a line of {bytes} bytes ({head}…) is longer than the protocol allows"),
                &mut s,
            ),
            Event::Input(ReadLine::Eof) => closing = true,
            Event::Search(SearchEvent::Info(info)) => {
                if s.abandoned == 0 {
                    frontend.info(&info, &mut s);
                }
            }
            Event::Search(SearchEvent::Done(result)) => {
                if s.abandoned > 0 {
                    s.abandoned -= 1;
                } else {
                    s.searching = false;
                    s.cap = None;
                    // A move may start the next search at once (SAU, several turns in a row).
                    closing |= frontend.done(result, &mut s) == Flow::Quit;
                }
            }
            Event::Search(SearchEvent::Swap(decision)) => {
                if s.abandoned > 0 {
                    s.abandoned -= 1;
                } else {
                    s.searching = false;
                    frontend.swapped(decision, &mut s);
                }
            }
        }
        // Also when no search runs: a move held for `stop` is owed too.
        if closing {
            frontend.answer_now(&mut s);
        }
    }
    frontend.finish(&mut s);
}

/// The first word of a line and the rest, trimmed.
pub fn split_word(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((w, rest)) => (w, rest.trim()),
        None => (line, ""),
    }
}
