//! Serving a Boyi player over a protocol: one loop that reads input lines on a reader
//! thread, searches on the player's own thread, and hands both to the protocol's
//! [`Frontend`]. Every output line is flushed at once.
//!
//! While a search runs, lines the protocol marks urgent (`stop`, `quit`, `isready`) are
//! handled at once and the others wait until the move is out, as if the controller had waited
//! for it; an urgent line behind a waiting one waits too, so input order is kept and a scripted
//! input gives the same transcript however fast the search is.

use boyi_core::Game;
use boyi_engines::{GameHistory, Info, Limits, Player, PlayerError, PlayerThread, SearchEvent};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::channel;

/// Whether the loop goes on after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The protocol side of a server.
pub trait Frontend<G: Game> {
    /// Lines handled even while a search runs; the others wait for the move.
    fn urgent(&self, line: &str) -> bool;
    fn line(&mut self, line: &str, s: &mut Session<G>) -> Flow;
    fn info(&mut self, _info: &Info, _s: &mut Session<G>) {}
    /// The search finished (or was stopped) with this result.
    fn done(&mut self, result: Result<G::Move, PlayerError>, s: &mut Session<G>) -> Flow;
    /// The input ended. The loop then lets a running search finish and exits.
    fn eof(&mut self, _s: &mut Session<G>) {}
}

/// What a front-end drives: the output and the searching player.
pub struct Session<G: Game> {
    out: Box<dyn Write>,
    searcher: PlayerThread<G>,
    searching: bool,
    abandoned: usize,
    new_game: bool,
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
        self.searcher
            .search(game, limits, std::mem::take(&mut self.new_game));
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
        }
    }

    /// The next search belongs to a new game.
    pub fn new_game(&mut self) {
        self.new_game = true;
    }
}

enum Event<G: Game> {
    Line(String),
    Eof,
    Search(SearchEvent<G>),
}

/// Serves `player` through `frontend`, reading `input` and writing `output` until the
/// protocol quits or the input ends.
pub fn run<G: Game, F: Frontend<G>>(
    mut frontend: F,
    player: Box<dyn Player<G>>,
    default_limits: Limits,
    input: impl BufRead + Send + 'static,
    output: impl Write + 'static,
) {
    let (tx, rx) = channel::<Event<G>>();
    let reader = tx.clone();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if reader.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::Eof);
    });
    let searcher = PlayerThread::spawn(player, move |ev| {
        let _ = tx.send(Event::Search(ev));
    });
    let mut s = Session {
        out: Box::new(output),
        searcher,
        searching: false,
        abandoned: 0,
        new_game: true,
        default_limits,
    };
    let mut pending: VecDeque<String> = VecDeque::new();
    let mut eof = false;
    loop {
        // Waiting lines go first, in order; while searching only an urgent one at the front.
        let ready = pending
            .front()
            .is_some_and(|l| !s.searching || frontend.urgent(l));
        let (event, queued) = if ready {
            (
                Event::Line(pending.pop_front().expect("a waiting line")),
                true,
            )
        } else if eof && pending.is_empty() && !s.searching {
            break;
        } else {
            match rx.recv() {
                Ok(ev) => (ev, false),
                Err(_) => break,
            }
        };
        let flow = match event {
            Event::Line(line) => {
                let line = line.trim();
                if line.is_empty() {
                    Flow::Continue
                } else if !queued && s.searching && (!pending.is_empty() || !frontend.urgent(line))
                {
                    pending.push_back(line.to_string());
                    Flow::Continue
                } else {
                    frontend.line(line, &mut s)
                }
            }
            Event::Eof => {
                eof = true;
                frontend.eof(&mut s);
                Flow::Continue
            }
            Event::Search(SearchEvent::Info(info)) => {
                if s.abandoned == 0 {
                    frontend.info(&info, &mut s);
                }
                Flow::Continue
            }
            Event::Search(SearchEvent::Done(result)) => {
                if s.abandoned > 0 {
                    s.abandoned -= 1;
                    Flow::Continue
                } else {
                    s.searching = false;
                    frontend.done(result, &mut s)
                }
            }
        };
        if flow == Flow::Quit {
            s.abandon();
            break;
        }
    }
}

/// The first word of a line and the rest, trimmed.
pub fn split_word(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((w, rest)) => (w, rest.trim()),
        None => (line, ""),
    }
}
