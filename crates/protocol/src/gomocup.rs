//! The Gomocup (Piskvork) protocol for Gomoku: `START`, `BEGIN`, `TURN x,y`, `BOARD … DONE`,
//! `INFO`, `RESTART`, `TAKEBACK x,y`, `ABOUT`, `END`, and Yixin's `YXSTOP` to stop a search.
//! Coordinates are `x,y` from the top-left corner. Unsupported commands get `UNKNOWN`,
//! bad ones `ERROR`; thinking goes out as `MESSAGE` lines.
//!
//! Swap2 openings come as `SWAP2BOARD`, the stones placed so far (`x,y` lines, black first,
//! colours alternating), `DONE`. With no stones the engine answers three stones
//! (`x,y x,y x,y`); with three or five it answers `SWAP` to take black (the opponent then
//! plays on as white), one stone to play on as white, or — after three — two stones (white,
//! black) that leave the choice of colour to the opponent.
//!
//! `INFO rule` bits map to variants: 0 `freestyle`, 1 `standard` (exactly five), 4 `renju`;
//! continuous play (2) and Caro (8) are not supported.

mod thinking;
use thinking::message_info;

use crate::codec::{board_size, from_gomocup, gomocup_point, grid_stones, grid_text, to_gomocup};
use crate::driver::{Driver, engine_move, expect_line};
use crate::process::EngineProcess;
use crate::server::{Flow, Frontend, Session, Urgency, split_word};
use boyi_core::{Game, Point, Side, TextError};
use boyi_engines::{Clock, GameHistory, Info, Limits, PlayerError, Swap2Reply};
use std::time::{Duration, Instant};

/// The variant name of a Gomocup rule number.
pub fn rule_variant(rule: u32) -> Result<&'static str, TextError> {
    match rule {
        0 => Ok("freestyle"),
        1 => Ok("standard"),
        4 | 5 => Ok("renju"),
        _ if rule & 2 != 0 => Err(text_err!("rule {rule}: continuous play is not supported")),
        _ => Err(text_err!(
            "rule {rule} is not supported (0 freestyle, 1 standard, 4 renju)"
        )),
    }
}

/// The Gomocup rule number of a variant name.
pub fn variant_rule(variant: &str) -> Option<u32> {
    match variant {
        "freestyle" => Some(0),
        "standard" => Some(1),
        "renju" => Some(4),
        _ => None,
    }
}

/// The Gomocup server.
pub struct GomocupServer<G: Game> {
    game: Option<GameHistory<G>>,
    variant: G::Variant,
    size: usize,
    /// Stones of a `BOARD` being read: point and field (1 own, 2 opponent).
    board: Option<Result<Vec<(Point, u8)>, TextError>>,
    /// Stones of a `SWAP2BOARD` being read.
    swap_board: Option<Result<Vec<Point>, TextError>>,
    timeout_turn: Option<Duration>,
    time_left: Option<Duration>,
    /// `INFO max_memory` in bytes (0, no limit, is kept as none).
    max_memory: Option<u64>,
    about: String,
}

impl<G: Game> GomocupServer<G> {
    pub fn new(variant: G::Variant, about: String) -> Self {
        GomocupServer {
            game: None,
            variant,
            size: 0,
            board: None,
            swap_board: None,
            timeout_turn: None,
            time_left: None,
            max_memory: None,
            about,
        }
    }

    fn swap_board_line(&mut self, line: &str, s: &mut Session<G>) {
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.swap_board.take().expect("reading a swap board");
            match stones.and_then(|st| self.swap_game(&st)) {
                Ok(game) => {
                    let limits = self.limits(s, game.current().side_to_move());
                    s.swap2(game, limits);
                }
                Err(e) => s.send(&format!("ERROR SWAP2BOARD: {e}")),
            }
            return;
        }
        let size = self.size;
        if let Some(Ok(stones)) = &mut self.swap_board {
            match gomocup_point(line, size) {
                Ok(p) => stones.push(p),
                Err(e) => self.swap_board = Some(Err(e)),
            }
        }
    }

    /// The game of a swap2 board: `stones` played in turn (black, white, black, ...).
    fn swap_game(&self, stones: &[Point]) -> Result<GameHistory<G>, TextError> {
        let mut game = GameHistory::new(G::start(&self.variant, Some(self.size))?);
        for p in stones {
            game.push_text(&p.to_string()).map_err(|e| {
                e.context(format!(
                    "stone {}",
                    to_gomocup(&p.to_string(), self.size).unwrap_or_default()
                ))
            })?;
        }
        Ok(game)
    }

    /// The line answering `SWAP2BOARD` with the player's decision.
    fn swap_reply(&self, decision: Result<Swap2Reply, PlayerError>) -> String {
        match decision {
            Ok(Swap2Reply::Swap) => "SWAP".to_string(),
            Ok(Swap2Reply::Stones(points)) => {
                let xy: Result<Vec<String>, TextError> =
                    points.iter().map(|p| to_gomocup(p, self.size)).collect();
                match xy {
                    Ok(xy) => xy.join(" "),
                    Err(e) => format!("ERROR SWAP2BOARD: {e}"),
                }
            }
            Err(e) => format!("ERROR SWAP2BOARD: {e}"),
        }
    }

    fn started(&mut self, s: &mut Session<G>) -> Option<&mut GameHistory<G>> {
        if self.game.is_none() {
            s.send("ERROR no game: send START first");
        }
        self.game.as_mut()
    }

    fn start(&mut self, size: usize, s: &mut Session<G>) {
        match G::start(&self.variant, Some(size)) {
            Ok(pos) => {
                self.size = size;
                self.game = Some(GameHistory::new(pos));
                s.new_game();
                s.send("OK");
            }
            Err(e) => s.send(&format!("ERROR unsupported board size {size}: {e}")),
        }
    }

    fn limits(&self, s: &Session<G>, side: Side) -> Limits {
        let mut limits = s.default_limits.clone();
        // Leave room for the manager's own overhead.
        let safe = |d: Duration| d.saturating_sub((d / 10).min(Duration::from_millis(200)));
        if let Some(t) = self.timeout_turn.filter(|t| !t.is_zero()) {
            limits.movetime = Some(safe(t));
            // The manager forfeits a move over the turn's time.
            limits.max_time = Some(safe(t));
        }
        if let Some(left) = self.time_left {
            let mut clock = Clock::default();
            clock.time_left[side.index()] = safe(left);
            limits.clock = Some(clock);
        }
        limits.memory = self.max_memory;
        limits
    }

    fn think(&mut self, s: &mut Session<G>) {
        let Some(game) = &self.game else { return };
        if game.current().outcome().is_some() {
            s.send("ERROR the game is over");
            return;
        }
        let limits = self.limits(s, game.current().side_to_move());
        s.search(game.clone(), limits);
    }

    fn turn(&mut self, arg: &str, s: &mut Session<G>) {
        let size = self.size;
        let Some(game) = self.started(s) else { return };
        let played = from_gomocup(arg, size).and_then(|t| game.push_text(&t));
        match played {
            Ok(_) => self.think(s),
            Err(e) => s.send(&format!("ERROR TURN {arg}: {e}")),
        }
    }

    fn info_command(&mut self, arg: &str, s: &mut Session<G>) {
        let (key, value) = split_word(arg);
        let ms = || value.parse::<u64>().map(Duration::from_millis);
        let result = match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => ms()
                .map(|d| self.timeout_turn = Some(d))
                .map_err(|e| e.to_string()),
            "time_left" => ms()
                .map(|d| self.time_left = Some(d))
                .map_err(|e| e.to_string()),
            "max_memory" => value
                .parse::<u64>()
                .map(|m| self.max_memory = (m > 0).then_some(m))
                .map_err(|e| e.to_string()),
            "timeout_match" | "game_type" | "folder" | "evaluate" => Ok(()),
            "rule" => self.set_rule(value),
            // The served player's own options (`INFO hash 64`); other keys are ignored, as
            // the protocol asks.
            _ if s.option(key).is_some() => s.set_option(key, value),
            _ => Ok(()),
        };
        if let Err(e) = result {
            s.send(&format!("ERROR INFO {key} {value}: {e}"));
        }
    }

    fn set_rule(&mut self, value: &str) -> Result<(), String> {
        let rule: u32 = value
            .parse()
            .map_err(|_| format!("{value:?} is not a number"))?;
        let name = rule_variant(rule).map_err(|e| e.to_string())?;
        self.variant = name.parse().map_err(|e: TextError| e.to_string())?;
        // A new rule applies to the game in progress only while its board is empty.
        if let Some(game) = &self.game
            && game.moves().is_empty()
        {
            let pos = G::start(&self.variant, Some(self.size)).map_err(|e| e.to_string())?;
            self.game = Some(GameHistory::new(pos));
        }
        Ok(())
    }

    fn takeback(&mut self, arg: &str, s: &mut Session<G>) {
        let size = self.size;
        let Some(game) = self.started(s) else { return };
        let last = game.moves().last().map(|m| {
            let mut before = game.clone();
            before.pop();
            before.current().format_move(m)
        });
        match (from_gomocup(arg, size), last) {
            (Ok(text), Some(last)) if text == last => {
                game.pop();
                s.send("OK");
            }
            // A position set up as it stands has no moves: its stones are taken off the board.
            (Ok(text), None) => match self.lift_stone(&text) {
                Ok(()) => s.send("OK"),
                Err(e) => s.send(&format!("ERROR TAKEBACK {arg}: {e}")),
            },
            (Ok(_), _) => s.send(&format!("ERROR TAKEBACK {arg}: not the last move")),
            (Err(e), _) => s.send(&format!("ERROR TAKEBACK {arg}: {e}")),
        }
    }

    /// Takes the stone on `point` off a position without moves; its owner is then to move.
    fn lift_stone(&mut self, point: &str) -> Result<(), TextError> {
        let game = self.game.as_ref().expect("a started game");
        let p = Point::parse(point, self.size)?;
        let mut stones = grid_stones(&game.current().to_text());
        let i = stones
            .iter()
            .position(|s| s.0 == p)
            .ok_or_else(|| text_err!("no stone on {point}"))?;
        let (_, letter) = stones.remove(i);
        let side = if letter == b'x' {
            Side::Black
        } else {
            Side::White
        };
        let text = grid_text(self.size, &stones, side);
        self.game = Some(GameHistory::new(G::from_text(&self.variant, &text)?));
        Ok(())
    }

    fn board_line(&mut self, line: &str, s: &mut Session<G>) {
        if line.eq_ignore_ascii_case("DONE") {
            let board = self.board.take().expect("reading a board");
            match board.and_then(|stones| self.set_board(&stones)) {
                Ok(()) => self.think(s),
                Err(e) => s.send(&format!("ERROR BOARD: {e}")),
            }
            return;
        }
        let size = self.size;
        if let Some(Ok(stones)) = &mut self.board {
            let parsed = line
                .rsplit_once(',')
                .ok_or_else(|| text_err!("{line:?} is not x,y,field"));
            let stone = parsed.and_then(|(xy, f)| {
                let p = gomocup_point(xy, size)?;
                match f.trim() {
                    "1" => Ok((p, 1)),
                    "2" => Ok((p, 2)),
                    "3" => Err(text_err!(
                        "{line:?}: continuous play (field 3) is not supported"
                    )),
                    _ => Err(text_err!("{line:?}: field must be 1 or 2")),
                }
            });
            match stone {
                Ok(st) => stones.push(st),
                Err(e) => self.board = Some(Err(e)),
            }
        }
    }

    /// Sets up a `BOARD`: any stones on distinct points, the own side (field 1) to move.
    /// Stones that could have been played in turn, the side with more stones (or the own
    /// side, on equal counts) first and each side's in the order given, are replayed as a
    /// game, so `TAKEBACK` can undo them; any other position (a puzzle, a renju position
    /// with a stone on what would have been a forbidden point) is set up as it stands, and
    /// the rules constrain only the moves from there on.
    fn set_board(&mut self, stones: &[(Point, u8)]) -> Result<(), TextError> {
        let mut seen = std::collections::HashSet::new();
        for &(p, _) in stones {
            if !seen.insert(p) {
                let (x, y) = p.to_gomocup(self.size);
                return Err(text_err!("two stones on {x},{y}"));
            }
        }
        let game = match self.replay_board(stones) {
            Ok(game) => game,
            Err(_) => self.board_position(stones)?,
        };
        self.game = Some(game);
        Ok(())
    }

    fn replay_board(&self, stones: &[(Point, u8)]) -> Result<GameHistory<G>, TextError> {
        let own: Vec<Point> = stones.iter().filter(|s| s.1 == 1).map(|s| s.0).collect();
        let opp: Vec<Point> = stones.iter().filter(|s| s.1 == 2).map(|s| s.0).collect();
        let (first, second) = if own.len() == opp.len() {
            (own, opp)
        } else if opp.len() == own.len() + 1 {
            (opp, own)
        } else {
            return Err(text_err!("the stones were not played in turn"));
        };
        let mut game = GameHistory::new(G::start(&self.variant, Some(self.size))?);
        for i in 0..first.len() {
            for p in [first.get(i), second.get(i)].into_iter().flatten() {
                game.push_text(&p.to_string())?;
            }
        }
        Ok(game)
    }

    /// The position of `stones` as it stands: the own side is black when it has at least as
    /// many stones as the opponent (black moves first), white otherwise.
    fn board_position(&self, stones: &[(Point, u8)]) -> Result<GameHistory<G>, TextError> {
        let own = stones.iter().filter(|s| s.1 == 1).count();
        let me = if own * 2 >= stones.len() {
            Side::Black
        } else {
            Side::White
        };
        let letter = |side: Side| if side == Side::Black { b'x' } else { b'o' };
        let coloured: Vec<(Point, u8)> = stones
            .iter()
            .map(|&(p, f)| (p, letter(if f == 1 { me } else { me.opponent() })))
            .collect();
        let text = grid_text(self.size, &coloured, me);
        let pos = G::from_text(&self.variant, &text).map_err(|e| e.context("position"))?;
        Ok(GameHistory::new(pos))
    }
}

impl<G: Game> Frontend<G> for GomocupServer<G> {
    fn urgency(&self, line: &str) -> Urgency {
        let (cmd, _) = split_word(line);
        if ["END", "YXSTOP", "STOP"]
            .iter()
            .any(|c| cmd.eq_ignore_ascii_case(c))
        {
            Urgency::AtOnce
        } else {
            Urgency::Waits
        }
    }

    fn line(&mut self, line: &str, s: &mut Session<G>) -> Flow {
        if line.eq_ignore_ascii_case("END") {
            return Flow::Quit;
        }
        if self.board.is_some() {
            self.board_line(line, s);
            return Flow::Continue;
        }
        if self.swap_board.is_some() {
            self.swap_board_line(line, s);
            return Flow::Continue;
        }
        let (cmd, arg) = split_word(line);
        match cmd.to_ascii_uppercase().as_str() {
            "START" => match arg.parse::<usize>() {
                Ok(n) => self.start(n, s),
                Err(_) => s.send(&format!("ERROR START {arg}: not a board size")),
            },
            "RECTSTART" => match arg
                .split_once(',')
                .map(|(w, h)| (w.trim().parse::<usize>(), h.trim().parse::<usize>()))
            {
                Some((Ok(w), Ok(h))) if w == h => self.start(w, s),
                _ => s.send(&format!(
                    "ERROR RECTSTART {arg}: only square boards are supported"
                )),
            },
            "RESTART" => {
                if self.started(s).is_some() {
                    let size = self.size;
                    self.start(size, s);
                }
            }
            "BEGIN" => match self.started(s) {
                Some(g) if !g.moves().is_empty() => s.send("ERROR BEGIN: the board is not empty"),
                Some(_) => self.think(s),
                None => {}
            },
            "TURN" => self.turn(arg, s),
            "BOARD" => {
                if self.started(s).is_some() {
                    self.board = Some(Ok(Vec::new()));
                }
            }
            "SWAP2BOARD" => {
                if self.started(s).is_some() {
                    self.swap_board = Some(Ok(Vec::new()));
                }
            }
            "INFO" => self.info_command(arg, s),
            "TAKEBACK" => self.takeback(arg, s),
            "ABOUT" => s.send(&self.about.clone()),
            "END" => return Flow::Quit,
            "YXSTOP" | "STOP" => s.stop(),
            _ => s.send(&format!("UNKNOWN {line}")),
        }
        Flow::Continue
    }

    fn unreadable(&mut self, what: &str, s: &mut Session<G>) {
        s.send(&format!("ERROR {what}"));
    }

    fn info(&mut self, info: &Info, s: &mut Session<G>) {
        let mut line = String::from("MESSAGE");
        if let Some(d) = info.depth {
            line += &format!(" depth {d}");
        }
        if let Some(sc) = info.score {
            line += &format!(" score {sc}");
        }
        if let Some(n) = info.nodes {
            line += &format!(" nodes {n}");
        }
        if let Some(n) = info.nps {
            line += &format!(" nps {n}");
        }
        if !info.pv.is_empty() {
            let pv: Vec<String> = info
                .pv
                .iter()
                .map(|m| to_gomocup(m, self.size).unwrap_or_else(|_| m.clone()))
                .collect();
            line += &format!(" pv {}", pv.join(" "));
        }
        s.send(&line);
    }

    fn swapped(&mut self, decision: Result<Swap2Reply, PlayerError>, s: &mut Session<G>) {
        let reply = self.swap_reply(decision);
        s.send(&reply);
    }

    fn done(&mut self, result: Result<G::Move, PlayerError>, s: &mut Session<G>) -> Flow {
        let Some(game) = &mut self.game else {
            return Flow::Continue;
        };
        match result {
            Ok(mv) => {
                let text = game.current().format_move(&mv);
                match to_gomocup(&text, self.size) {
                    Ok(xy) => {
                        game.push(mv);
                        s.send(&xy);
                    }
                    Err(e) => s.send(&format!("ERROR {e}")),
                }
            }
            Err(e) => s.send(&format!("ERROR {e}")),
        }
        Flow::Continue
    }
}

/// Drives a Gomocup engine: `START`, `INFO` for the rule and the time, then `BEGIN` or
/// `TURN` when the engine knows the game so far, `BOARD` otherwise.
pub struct GomocupDriver {
    /// Canonical texts of the moves the engine knows, from an empty board.
    known: Option<Vec<String>>,
    size: usize,
    /// The `timeout_turn` last sent, so it is sent again only when it changes.
    turn_time: Option<u128>,
    /// When the engine's last move arrived.
    moved_at: Option<Instant>,
}

/// How long after an engine's move the driver waits before sending it anything. Some engines
/// (Rapfi among them) write their move a moment before they stop counting as thinking, and
/// drop words that arrive in between.
const SETTLE: Duration = Duration::from_millis(20);

impl GomocupDriver {
    pub fn new() -> Self {
        GomocupDriver {
            known: None,
            size: 0,
            turn_time: None,
            moved_at: None,
        }
    }

    /// Waits until the engine has had [`SETTLE`] since its last move.
    fn settle(&self) {
        if let Some(wait) = self
            .moved_at
            .and_then(|at| SETTLE.checked_sub(at.elapsed()))
        {
            std::thread::sleep(wait);
        }
    }

    fn handshake<G: Game>(
        &mut self,
        p: &mut EngineProcess,
        game: &GameHistory<G>,
        until: Instant,
    ) -> Result<(), PlayerError> {
        let size = board_size(game.start());
        let variant = game.start().variant().to_string();
        let rule = variant_rule(&variant).ok_or_else(|| {
            PlayerError::Unsupported(format!("Gomocup has no rule for variant {variant}"))
        })?;
        p.send(&format!("START {size}"));
        let answer = expect_line(p, until, "answer to START", |l| {
            !l.starts_with("MESSAGE") && !l.starts_with("DEBUG")
        })?;
        if answer.trim() != "OK" {
            return Err(PlayerError::Unsupported(format!("START {size}: {answer}")));
        }
        p.send(&format!("INFO rule {rule}"));
        self.size = size;
        self.known = Some(Vec::new());
        self.turn_time = None;
        Ok(())
    }
}

impl Default for GomocupDriver {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Driver<G> for GomocupDriver {
    fn quit_line(&self) -> &'static str {
        "END"
    }

    fn stop_line(&self) -> Option<&'static str> {
        Some("YXSTOP")
    }

    fn new_game(&mut self) {
        self.known = None;
    }

    fn ask(
        &mut self,
        p: &mut EngineProcess,
        game: &GameHistory<G>,
        limits: &Limits,
        until: Instant,
    ) -> Result<(), PlayerError> {
        self.settle();
        if self.known.is_none() {
            self.handshake(p, game, until)?;
        }
        let side = game.current().side_to_move();
        if let Some(t) = limits.movetime.map(|t| t.as_millis())
            && self.turn_time != Some(t)
        {
            p.send(&format!("INFO timeout_turn {t}"));
            self.turn_time = Some(t);
        }
        if let Some(c) = limits.clock {
            p.send(&format!(
                "INFO time_left {}",
                c.time_left[side.index()].as_millis()
            ));
        }
        let texts = game.move_texts();
        let known = self.known.as_ref().expect("handshake done");
        let empty_start = grid_stones(&game.start().to_text()).is_empty();
        let xy = |t: &str| to_gomocup(t, self.size).ok();
        let command = if empty_start && texts.is_empty() {
            "BEGIN".to_string()
        } else if empty_start
            && texts.len() == known.len() + 1
            && texts[..known.len()] == known[..]
            && let Some(last) = xy(&texts[known.len()])
        {
            format!("TURN {last}")
        } else {
            p.send("BOARD");
            let mut stones: Vec<(Point, Side)> = grid_stones(&game.start().to_text())
                .into_iter()
                .map(|(pt, c)| (pt, if c == b'x' { Side::Black } else { Side::White }))
                .collect();
            let mut pos = game.start().clone();
            for mv in game.moves() {
                let mover = pos.side_to_move();
                if let Ok(pt) = Point::parse(&pos.format_move(mv), self.size) {
                    stones.push((pt, mover));
                }
                pos.play(mv);
            }
            for (pt, owner) in stones {
                let (x, y) = pt.to_gomocup(self.size);
                p.send(&format!("{x},{y},{}", if owner == side { 1 } else { 2 }));
            }
            "DONE".to_string()
        };
        p.send(&command);
        self.known = Some(texts);
        Ok(())
    }

    fn answer(
        &mut self,
        line: &str,
        game: &GameHistory<G>,
        info: &mut dyn FnMut(Info),
    ) -> Option<Result<G::Move, PlayerError>> {
        let (word, rest) = split_word(line);
        match word.to_ascii_uppercase().as_str() {
            "MESSAGE" => {
                info(message_info(rest, self.size));
                None
            }
            "DEBUG" | "OK" => None,
            // A complaint about some command (an INFO key it lacks, say) is not an answer:
            // the move may still come, and the move's deadline bounds the wait.
            "ERROR" | "UNKNOWN" => {
                info(Info {
                    text: Some(format!("engine: {line}")),
                    ..Info::default()
                });
                None
            }
            _ => {
                let result = engine_move(game, line, from_gomocup(line, self.size));
                self.moved_at = Some(Instant::now());
                if let (Ok(mv), Some(known)) = (&result, &mut self.known) {
                    known.push(game.current().format_move(mv));
                }
                Some(result)
            }
        }
    }
}
