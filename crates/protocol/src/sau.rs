//! The SAU computer-games platform protocol (Chinese computer games championship) for
//! Connect6, Jiu and Gomoku: `name?` → `name <engine>`, `new black|white`, `move <points>` in
//! both directions, `error`, `end [black|white]`, `quit`. Points are two capital letters
//! (column, then row from the top); the move encodings are those of the rules files
//! (see [`crate::codec::to_sau`]).
//!
//! The game's rules decide who moves: after `new` or an opponent's move the engine moves
//! whenever it is its side's turn, again and again if the rules give it several turns in a
//! row (Jiu's last placement). The protocol cannot set up a position, so a driven SAU engine
//! plays games from the start position only.

use crate::codec::{board_size, from_sau, to_sau};
use crate::driver::{Driver, engine_move, expect_line};
use crate::process::EngineProcess;
use crate::server::{Flow, Frontend, Session, Urgency, split_word};
use boyi_core::{Game, Side};
use boyi_engines::{GameHistory, Info, Limits, PlayerError};
use std::time::Instant;

/// The SAU server.
pub struct SauServer<G: Game> {
    game: Option<GameHistory<G>>,
    side: Side,
    start: G,
    name: String,
}

impl<G: Game> SauServer<G> {
    /// Serves games that begin at `start` (the default start of the chosen variant and size).
    pub fn new(start: G, name: String) -> Self {
        SauServer {
            game: None,
            side: Side::Black,
            start,
            name,
        }
    }

    /// Searches if it is the engine's turn.
    fn maybe_think(&mut self, s: &mut Session<G>) {
        if let Some(game) = &self.game
            && game.current().outcome().is_none()
            && game.current().side_to_move() == self.side
        {
            let limits = s.default_limits.clone();
            s.search(game.clone(), limits);
        }
    }

    fn opponent_move(&mut self, arg: &str, s: &mut Session<G>) {
        let size = board_size(&self.start);
        let Some(game) = &mut self.game else {
            s.send("error");
            return;
        };
        if game.current().side_to_move() == self.side {
            s.send("error");
            return;
        }
        match from_sau(G::NAME, arg, size).and_then(|t| game.push_text(&t)) {
            Ok(_) => self.maybe_think(s),
            Err(_) => s.send("error"),
        }
    }
}

impl<G: Game> Frontend<G> for SauServer<G> {
    /// `end` stops the game's search, but never ahead of a move that came before it.
    fn urgency(&self, line: &str) -> Urgency {
        match split_word(line).0 {
            "quit" => Urgency::AtOnce,
            "end" => Urgency::InTurn,
            _ => Urgency::Waits,
        }
    }

    fn line(&mut self, line: &str, s: &mut Session<G>) -> Flow {
        let (cmd, arg) = split_word(line);
        match (cmd, arg) {
            ("name?", "") => s.send(&format!("name {}", self.name)),
            ("new", "black" | "white") => {
                s.abandon();
                self.side = if arg == "black" {
                    Side::Black
                } else {
                    Side::White
                };
                self.game = Some(GameHistory::new(self.start.clone()));
                s.new_game();
                self.maybe_think(s);
            }
            ("move", points) if !points.is_empty() => self.opponent_move(points, s),
            ("end", "" | "black" | "white") => {
                s.abandon();
                self.game = None;
            }
            ("quit", "") => return Flow::Quit,
            // The platform rejected something: nothing to answer.
            ("error", _) => {}
            _ => s.send("error"),
        }
        Flow::Continue
    }

    /// SAU has one error word for everything.
    fn unreadable(&mut self, _what: &str, s: &mut Session<G>) {
        s.send("error");
    }

    fn done(&mut self, result: Result<G::Move, PlayerError>, s: &mut Session<G>) -> Flow {
        let size = board_size(&self.start);
        let Some(game) = &mut self.game else {
            return Flow::Continue;
        };
        let Ok(mv) = result else {
            s.send("error");
            return Flow::Continue;
        };
        match to_sau(G::NAME, &game.current().format_move(&mv), size) {
            Ok(text) => {
                game.push(mv);
                s.send(&format!("move {text}"));
                self.maybe_think(s);
            }
            Err(_) => s.send("error"),
        }
        Flow::Continue
    }
}

/// Drives a SAU engine: `name?`, `new <side>`, then the opponent's moves; the engine
/// answers with its own.
pub struct SauDriver {
    /// How many moves of the game the engine knows (`None` before `new`).
    told: Option<usize>,
}

impl SauDriver {
    pub fn new() -> Self {
        SauDriver { told: None }
    }
}

impl Default for SauDriver {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Driver<G> for SauDriver {
    fn quit_line(&self) -> &'static str {
        "quit"
    }

    fn stop_line(&self) -> Option<&'static str> {
        None
    }

    fn new_game(&mut self) {
        self.told = None;
    }

    fn ask(
        &mut self,
        p: &mut EngineProcess,
        game: &GameHistory<G>,
        _: &Limits,
        until: Instant,
    ) -> Result<(), PlayerError> {
        let me = game.current().side_to_move();
        let size = board_size(game.start());
        let told = self.told.unwrap_or(0);
        // Check everything before talking: the engine must be able to follow this game.
        let mut untold = Vec::new();
        let mut pos = game.start().clone();
        for (i, mv) in game.moves().iter().enumerate() {
            if i >= told {
                if pos.side_to_move() == me {
                    return Err(PlayerError::Unsupported(
                        "the SAU protocol cannot tell an engine moves of its own side (no openings)".into(),
                    ));
                }
                let text = to_sau(G::NAME, &pos.format_move(mv), size)
                    .map_err(|e| PlayerError::Unsupported(e.to_string()))?;
                untold.push(text);
            }
            pos.play(mv);
        }
        if self.told.is_none() {
            let standard = G::start(game.start().variant(), Some(size)).map(|s| s.to_text());
            if standard.as_deref() != Ok(game.start().to_text().as_str()) {
                return Err(PlayerError::Unsupported(
                    "the SAU protocol cannot set up a position".into(),
                ));
            }
            p.send("name?");
            expect_line(p, until, "name", |l| l.starts_with("name"))?;
            p.send(&format!(
                "new {}",
                if me == Side::Black { "black" } else { "white" }
            ));
        }
        for text in untold {
            p.send(&format!("move {text}"));
        }
        self.told = Some(game.moves().len());
        Ok(())
    }

    fn answer(
        &mut self,
        line: &str,
        game: &GameHistory<G>,
        _: &mut dyn FnMut(Info),
    ) -> Option<Result<G::Move, PlayerError>> {
        let (cmd, arg) = split_word(line);
        match cmd {
            "move" => {
                let size = board_size(game.start());
                let result = engine_move(game, line, from_sau(G::NAME, arg, size));
                if result.is_ok() {
                    self.told = self.told.map(|t| t + 1);
                }
                Some(result)
            }
            "error" => Some(Err(PlayerError::Protocol(line.to_string()))),
            _ => None,
        }
    }
}
