//! UCI and UCCI, the chess-engine protocols, for Xiangqi (and any game whose moves are
//! single words and whose position text serves as FEN). Three dialects:
//! - `uci`: as Pikafish speaks it, coordinates with ranks 0–9 (the canonical ICCS text);
//! - `uci-fsf`: as Fairy-Stockfish speaks it, ranks 1–10, the game chosen with
//!   `setoption name UCI_Variant value xiangqi`;
//! - `ucci`: as ElephantEye speaks it: `ucci`/`ucciok`, `setoption <name> <value>`,
//!   `go [ponder|draw] depth D | nodes N | time T [movestogo M | increment I] [opptime T …]`
//!   (times in milliseconds), `banmoves`, `bestmove … [draw|resign]`, `nobestmove`,
//!   `quit` → `bye`.
//!
//! Neither protocol has an error message; malformed input is answered with
//! `info string error: <what is wrong>` and otherwise ignored.

use crate::codec::shift_ranks;
use crate::driver::{Driver, engine_move, expect_line};
use crate::process::EngineProcess;
use crate::server::{Flow, Frontend, Session, Urgency, split_word};
use boyi_core::{Game, Side, TextError};
use boyi_engines::options::{Kind, OptionDef};
use boyi_engines::{Clock, GameHistory, Info, Limits, PlayerError, Score};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Fsf,
    Ucci,
}

impl Dialect {
    /// Protocol move text → canonical.
    pub fn from_wire(self, text: &str) -> Result<String, TextError> {
        match self {
            Dialect::Fsf => shift_ranks(text, -1),
            _ => Ok(text.to_string()),
        }
    }

    /// Canonical move text → protocol.
    pub fn to_wire(self, text: &str) -> Result<String, TextError> {
        match self {
            Dialect::Fsf => shift_ranks(text, 1),
            _ if text.contains(char::is_whitespace) => {
                Err(text_err!("move {text:?} is not one word"))
            }
            _ => Ok(text.to_string()),
        }
    }

    fn hello(self) -> (&'static str, &'static str) {
        match self {
            Dialect::Ucci => ("ucci", "ucciok"),
            _ => ("uci", "uciok"),
        }
    }
}

/// How an engine announces one of its options: UCI `option name N type …`, or UCCI
/// `option N type …` (UCCI names have no spaces and come first). UCI's usual names for the
/// table size and the threads are capitalised, as managers expect them.
fn option_line(o: &OptionDef, ucci: bool) -> String {
    let name = match (o.name, ucci) {
        ("hash", false) => "Hash",
        ("threads", false) => "Threads",
        (n, _) => n,
    };
    let kind = match o.kind {
        Kind::Int { min, max, default } => format!("spin default {default} min {min} max {max}"),
        Kind::Switch { default } => format!("check default {default}"),
        Kind::Choice { choices, default } => {
            let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
            format!("combo default {default} {}", vars.join(" "))
        }
        Kind::Text { default } => format!("string default {default}"),
        // The default seed is the caller's: none to show.
        Kind::Seed => "string default <empty>".to_string(),
    };
    if ucci {
        format!("option {name} type {kind}")
    } else {
        format!("option name {name} type {kind}")
    }
}

/// Parses the arguments of `position`: `startpos | fen <text>` then optional `moves …`.
pub fn parse_position<G: Game>(
    args: &str,
    variant: &G::Variant,
    dialect: Dialect,
) -> Result<GameHistory<G>, TextError> {
    let (head, moves) = match args.split_once(" moves") {
        Some((h, m)) if m.is_empty() || m.starts_with(' ') => (h.trim(), m.trim()),
        _ => (args.trim(), ""),
    };
    let (kind, rest) = split_word(head);
    let start = match (kind, rest) {
        ("startpos", "") => G::start(variant, None)?,
        ("fen", fen) if !fen.is_empty() => G::from_text(variant, fen)?,
        _ => {
            return Err(text_err!(
                "position {args:?}: expected startpos or fen <position>"
            ));
        }
    };
    let mut game = GameHistory::new(start);
    for (i, m) in moves.split_whitespace().enumerate() {
        dialect
            .from_wire(m)
            .and_then(|t| game.push_text(&t))
            .map_err(|e| e.context(format!("move {} ({m})", i + 1)))?;
    }
    Ok(game)
}

/// A count from the wire, as large as the field holds.
fn saturate(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// A count or a time in milliseconds from a `go` line: a whole number, held at 0 when
/// negative (managers send a clock that ran out as `wtime -120`) and at `u64::MAX` when
/// longer than that; `None` when it is no whole number.
fn wire_count(v: &str) -> Option<u64> {
    let (negative, digits) = match v.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, v.strip_prefix('+').unwrap_or(v)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(if negative {
        0
    } else {
        digits.parse().unwrap_or(u64::MAX)
    })
}

/// Parses the arguments of `go` for the side `me` to move.
pub fn parse_go(args: &str, me: Side, dialect: Dialect) -> Result<(Limits, bool), TextError> {
    let mut limits = Limits::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut ponder = false;
    let words: Vec<&str> = args.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let mut value = || -> Result<u64, TextError> {
            i += 1;
            let v = words
                .get(i)
                .ok_or_else(|| text_err!("go: {w} needs a value"))?;
            wire_count(v).ok_or_else(|| text_err!("go: {w} {v:?} is not a number"))
        };
        let ms = Duration::from_millis;
        let (own, opp) = (me.index(), me.opponent().index());
        let (white, black) = (Side::White.index(), Side::Black.index());
        match (dialect, w) {
            (_, "infinite") => limits.infinite = true,
            (_, "ponder") => ponder = true,
            (_, "depth") => limits.depth = Some(saturate(value()?)),
            (_, "nodes") => limits.nodes = Some(value()?),
            (_, "movestogo") => clock.moves_to_go = Some(saturate(value()?)),
            (Dialect::Ucci, "draw") => {}
            (Dialect::Ucci, "time") => (clock.time_left[own], has_clock) = (ms(value()?), true),
            (Dialect::Ucci, "increment") => clock.increment[own] = ms(value()?),
            (Dialect::Ucci, "opptime") => clock.time_left[opp] = ms(value()?),
            (Dialect::Ucci, "oppincrement" | "oppmovestogo") => {
                let v = value()?;
                if w == "oppincrement" {
                    clock.increment[opp] = ms(v);
                }
            }
            (Dialect::Uci | Dialect::Fsf, "movetime") => limits.movetime = Some(ms(value()?)),
            (Dialect::Uci | Dialect::Fsf, "wtime") => {
                (clock.time_left[white], has_clock) = (ms(value()?), true)
            }
            (Dialect::Uci | Dialect::Fsf, "btime") => {
                (clock.time_left[black], has_clock) = (ms(value()?), true)
            }
            (Dialect::Uci | Dialect::Fsf, "winc") => clock.increment[white] = ms(value()?),
            (Dialect::Uci | Dialect::Fsf, "binc") => clock.increment[black] = ms(value()?),
            _ => return Err(text_err!("go: unknown parameter {w:?}")),
        }
        i += 1;
    }
    if has_clock {
        limits.clock = Some(clock);
    }
    limits.infinite |= ponder;
    Ok((limits, ponder))
}

/// The UCI/UCCI server.
pub struct UciServer<G: Game> {
    dialect: Dialect,
    variant: G::Variant,
    game: Option<GameHistory<G>>,
    banned: Vec<String>,
    /// The running search waits for `stop` (infinite or ponder).
    infinite: bool,
    stop_requested: bool,
    /// A move found by an infinite search before `stop`.
    held: Option<String>,
    name: String,
    quitting: bool,
}

impl<G: Game> UciServer<G> {
    pub fn new(dialect: Dialect, variant: G::Variant, name: String) -> Self {
        UciServer {
            dialect,
            variant,
            game: None,
            banned: Vec::new(),
            infinite: false,
            stop_requested: false,
            held: None,
            name,
            quitting: false,
        }
    }

    fn error(s: &mut Session<G>, msg: impl std::fmt::Display) {
        s.send(&format!("info string error: {msg}"));
    }

    fn hello(&mut self, s: &mut Session<G>) {
        s.send(&format!("id name {}", self.name));
        s.send("id author the Boyi developers");
        if self.dialect == Dialect::Fsf {
            s.send(&format!(
                "option name UCI_Variant type combo default {0} var {0}",
                G::NAME
            ));
        }
        let ucci = self.dialect == Dialect::Ucci;
        for o in s.options().iter().filter(|o| !o.tuning) {
            s.send(&option_line(o, ucci));
        }
        s.send(self.dialect.hello().1);
    }

    fn setoption(&mut self, args: &str, s: &mut Session<G>) {
        let (name, value) = if self.dialect == Dialect::Ucci {
            split_word(args)
        } else {
            match args
                .strip_prefix("name ")
                .map(|r| r.split_once(" value ").unwrap_or((r, "")))
            {
                Some((n, v)) => (n.trim(), v.trim()),
                None => {
                    return Self::error(
                        s,
                        format!("setoption {args:?}: expected name <id> [value <x>]"),
                    );
                }
            }
        };
        match name {
            "" => Self::error(s, "setoption without a name"),
            "UCI_Variant" if self.dialect == Dialect::Fsf => {
                if value != G::NAME {
                    Self::error(
                        s,
                        format!("variant {value:?} is not supported (only {})", G::NAME),
                    );
                }
            }
            // UCCI's name for the table size; 0 leaves it to the engine.
            "hashsize" if self.dialect == Dialect::Ucci && s.option("hash").is_some() => {
                if value != "0"
                    && let Err(e) = s.set_option("hash", value)
                {
                    Self::error(s, e);
                }
            }
            _ if s.option(name).is_some() => {
                if let Err(e) = s.set_option(name, value) {
                    Self::error(s, e);
                }
            }
            // UCCI engines ignore options they do not have; so does this one.
            _ if self.dialect == Dialect::Ucci => {}
            _ => Self::error(s, format!("no such option {name:?}")),
        }
    }

    fn go(&mut self, args: &str, s: &mut Session<G>) {
        let Some(game) = &self.game else {
            return Self::error(s, "go without a position");
        };
        let me = game.current().side_to_move();
        let (mut limits, _) = match parse_go(args, me, self.dialect) {
            Ok(l) => l,
            Err(e) => return Self::error(s, e),
        };
        if game.current().outcome().is_some() {
            s.send(if self.dialect == Dialect::Ucci {
                "nobestmove"
            } else {
                "bestmove (none)"
            });
            return;
        }
        let bounded = limits.clock.is_some()
            || limits.movetime.is_some()
            || limits.depth.is_some()
            || limits.nodes.is_some();
        if !bounded {
            limits = Limits {
                infinite: limits.infinite,
                ..s.default_limits.clone()
            };
        }
        limits.banned = std::mem::take(&mut self.banned);
        // An infinite search that ended on its own still owes its move: a new `go` (without
        // the `stop` the protocol asks for) gets it out first, so every `go` is answered.
        if let Some(mv) = self.held.take() {
            s.send(&mv);
        }
        self.infinite = limits.infinite;
        self.stop_requested = false;
        s.search(game.clone(), limits);
    }

    fn stop(&mut self, s: &mut Session<G>) {
        self.stop_requested = true;
        if s.searching() {
            s.stop();
        } else if let Some(mv) = self.held.take() {
            s.send(&mv);
        }
    }

    fn wire_pv(&self, pv: &[String]) -> String {
        let moves: Vec<String> = pv
            .iter()
            .filter_map(|m| self.dialect.to_wire(m).ok())
            .collect();
        moves.join(" ")
    }
}

impl<G: Game> Frontend<G> for UciServer<G> {
    fn urgency(&self, line: &str) -> Urgency {
        match split_word(line).0 {
            "stop" | "quit" | "isready" | "ponderhit" => Urgency::AtOnce,
            _ => Urgency::Waits,
        }
    }

    fn line(&mut self, line: &str, s: &mut Session<G>) -> Flow {
        let (cmd, args) = split_word(line);
        match cmd {
            "uci" if self.dialect != Dialect::Ucci => self.hello(s),
            "ucci" if self.dialect == Dialect::Ucci => self.hello(s),
            "isready" => s.send("readyok"),
            "setoption" => self.setoption(args, s),
            "ucinewgame" if self.dialect != Dialect::Ucci => {
                self.game = None;
                s.new_game();
            }
            "position" => match parse_position::<G>(args, &self.variant, self.dialect) {
                Ok(g) => self.game = Some(g),
                Err(e) => {
                    self.game = None;
                    Self::error(s, e);
                }
            },
            "banmoves" if self.dialect == Dialect::Ucci => {
                let moves: Result<Vec<String>, TextError> = args
                    .split_whitespace()
                    .map(|m| self.dialect.from_wire(m))
                    .collect();
                match moves {
                    Ok(m) => self.banned = m,
                    Err(e) => Self::error(s, e),
                }
            }
            "go" => self.go(args, s),
            // Pondering is searched as an infinite search: a hit or a stop asks for the move.
            "stop" | "ponderhit" => self.stop(s),
            "debug" | "register" if self.dialect != Dialect::Ucci => {}
            // UCCI's `bye` is the last line, after the move of a search stopped by the quit.
            "quit" => {
                self.quitting = true;
                return Flow::Quit;
            }
            _ => Self::error(s, format!("unknown command {line:?}")),
        }
        Flow::Continue
    }

    fn info(&mut self, info: &Info, s: &mut Session<G>) {
        let mut line = String::from("info");
        if let Some(d) = info.depth {
            line += &format!(" depth {d}");
        }
        match (info.score, self.dialect) {
            (Some(Score::Units(v)), Dialect::Ucci) => line += &format!(" score {v}"),
            (Some(Score::Units(v)), _) => line += &format!(" score cp {v}"),
            (Some(Score::Mate(n)), Dialect::Ucci) => {
                line += &format!(" score {}", if n > 0 { 30000 - n } else { -30000 - n })
            }
            (Some(Score::Mate(n)), _) => line += &format!(" score mate {n}"),
            (None, _) => {}
        }
        if let Some(n) = info.nodes {
            line += &format!(" nodes {n}");
        }
        if let Some(n) = info.nps {
            line += &format!(" nps {n}");
        }
        if let Some(t) = info.time {
            line += &format!(" time {}", t.as_millis());
        }
        if !info.pv.is_empty() {
            line += &format!(" pv {}", self.wire_pv(&info.pv));
        }
        s.send(&line);
    }

    fn done(&mut self, result: Result<G::Move, PlayerError>, s: &mut Session<G>) -> Flow {
        let none = if self.dialect == Dialect::Ucci {
            "nobestmove"
        } else {
            "bestmove (none)"
        };
        let answer = match (&self.game, result) {
            (Some(game), Ok(mv)) => match self.dialect.to_wire(&game.current().format_move(&mv)) {
                Ok(m) => format!("bestmove {m}"),
                Err(_) => none.to_string(),
            },
            _ => none.to_string(),
        };
        if self.infinite && !self.stop_requested {
            self.held = Some(answer);
        } else {
            s.send(&answer);
        }
        Flow::Continue
    }

    fn unreadable(&mut self, what: &str, s: &mut Session<G>) {
        Self::error(s, what);
    }

    fn answer_now(&mut self, s: &mut Session<G>) {
        self.stop(s);
    }

    fn finish(&mut self, s: &mut Session<G>) {
        if self.quitting && self.dialect == Dialect::Ucci {
            s.send("bye");
        }
    }
}

/// Drives a UCI, Fairy-Stockfish or UCCI engine.
pub struct UciDriver {
    dialect: Dialect,
    ready: bool,
    new_game: bool,
}

impl UciDriver {
    pub fn new(dialect: Dialect) -> Self {
        UciDriver {
            dialect,
            ready: false,
            new_game: true,
        }
    }

    fn go_command(&self, limits: &Limits, me: Side) -> String {
        let mut go = String::from("go");
        let ms = |d: Duration| d.as_millis();
        if let Some(d) = limits.depth {
            go += &format!(" depth {d}");
        }
        if let Some(n) = limits.nodes {
            go += &format!(" nodes {n}");
        }
        match self.dialect {
            Dialect::Ucci => {
                if let Some(c) = limits.clock {
                    let (own, opp) = (me.index(), me.opponent().index());
                    go += &format!(" time {}", ms(c.time_left[own]));
                    match c.moves_to_go {
                        Some(m) => go += &format!(" movestogo {m}"),
                        None => go += &format!(" increment {}", ms(c.increment[own])),
                    }
                    go += &format!(" opptime {}", ms(c.time_left[opp]));
                } else if let Some(t) = limits.movetime {
                    go += &format!(" time {} movestogo 1", ms(t));
                }
            }
            _ => {
                if let Some(t) = limits.movetime {
                    go += &format!(" movetime {}", ms(t));
                }
                if let Some(c) = limits.clock {
                    let (w, b) = (Side::White.index(), Side::Black.index());
                    go += &format!(
                        " wtime {} btime {} winc {} binc {}",
                        ms(c.time_left[w]),
                        ms(c.time_left[b]),
                        ms(c.increment[w]),
                        ms(c.increment[b])
                    );
                    if let Some(m) = c.moves_to_go {
                        go += &format!(" movestogo {m}");
                    }
                }
            }
        }
        if limits.infinite {
            go += " infinite";
        }
        go
    }

    fn parse_info(&self, words: &[&str]) -> Info {
        let mut info = Info::default();
        let mut i = 0;
        // Numbers out of their field's range are dropped, not wrapped.
        fn num<T: std::str::FromStr>(words: &[&str], j: usize) -> Option<T> {
            words.get(j).and_then(|w| w.parse().ok())
        }
        while i < words.len() {
            match words[i] {
                "depth" => info.depth = num(words, i + 1),
                "nodes" => info.nodes = num(words, i + 1),
                "nps" => info.nps = num(words, i + 1),
                "time" => info.time = num(words, i + 1).map(Duration::from_millis),
                "score" => match words.get(i + 1) {
                    Some(&"cp") => info.score = num(words, i + 2).map(Score::Units),
                    Some(&"mate") => info.score = num(words, i + 2).map(Score::Mate),
                    _ => info.score = num(words, i + 1).map(Score::Units),
                },
                "pv" => {
                    info.pv = words[i + 1..]
                        .iter()
                        .filter_map(|m| self.dialect.from_wire(m).ok())
                        .collect();
                    break;
                }
                "string" => {
                    info.text = Some(words[i + 1..].join(" "));
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        info
    }
}

impl<G: Game> Driver<G> for UciDriver {
    fn quit_line(&self) -> &'static str {
        "quit"
    }

    fn stop_line(&self) -> Option<&'static str> {
        Some("stop")
    }

    fn new_game(&mut self) {
        self.new_game = true;
    }

    fn ask(
        &mut self,
        p: &mut EngineProcess,
        game: &GameHistory<G>,
        limits: &Limits,
        until: Instant,
    ) -> Result<(), PlayerError> {
        let (hello, ok) = self.dialect.hello();
        if !self.ready {
            p.send(hello);
            expect_line(p, until, ok, |l| l.trim() == ok)?;
            if self.dialect == Dialect::Fsf {
                p.send(&format!("setoption name UCI_Variant value {}", G::NAME));
            }
            self.ready = true;
        }
        if self.new_game {
            if self.dialect != Dialect::Ucci {
                p.send("ucinewgame");
            }
            p.send("isready");
            expect_line(p, until, "readyok", |l| l.trim() == "readyok")?;
            self.new_game = false;
        }
        let start = game.start();
        let standard = G::start(start.variant(), None).map(|s| s.to_text());
        let mut cmd = if standard.as_deref() == Ok(start.to_text().as_str()) {
            "position startpos".to_string()
        } else {
            format!("position fen {}", start.to_text())
        };
        let texts = game.move_texts();
        if !texts.is_empty() {
            let wire: Result<Vec<String>, TextError> =
                texts.iter().map(|t| self.dialect.to_wire(t)).collect();
            let wire = wire.map_err(|e| PlayerError::Unsupported(e.to_string()))?;
            cmd += &format!(" moves {}", wire.join(" "));
        }
        p.send(&cmd);
        if self.dialect == Dialect::Ucci && !limits.banned.is_empty() {
            let wire: Vec<String> = limits
                .banned
                .iter()
                .filter_map(|m| self.dialect.to_wire(m).ok())
                .collect();
            p.send(&format!("banmoves {}", wire.join(" ")));
        }
        p.send(&self.go_command(limits, game.current().side_to_move()));
        Ok(())
    }

    fn answer(
        &mut self,
        line: &str,
        game: &GameHistory<G>,
        info: &mut dyn FnMut(Info),
    ) -> Option<Result<G::Move, PlayerError>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            Some(&"info") => {
                info(self.parse_info(&words[1..]));
                None
            }
            Some(&"nobestmove") => Some(Err(PlayerError::Protocol("nobestmove".into()))),
            Some(&"bestmove") => {
                let Some(mv) = words.get(1) else {
                    return Some(Err(PlayerError::Protocol(format!(
                        "{line:?} names no move"
                    ))));
                };
                if words.contains(&"resign") {
                    return Some(Err(PlayerError::Resigned));
                }
                Some(engine_move(game, mv, self.dialect.from_wire(mv)))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_numbers_are_held_within_their_fields() {
        let (limits, _) = parse_go(
            "wtime -120 btime 99999999999999999999999 depth 4294967296 movestogo -1",
            Side::White,
            Dialect::Uci,
        )
        .unwrap();
        let clock = limits.clock.unwrap();
        assert_eq!(clock.time_left[Side::White.index()], Duration::ZERO);
        assert_eq!(
            clock.time_left[Side::Black.index()],
            Duration::from_millis(u64::MAX)
        );
        assert_eq!(clock.moves_to_go, Some(0));
        assert_eq!(limits.depth, Some(u32::MAX));
        for bad in [
            "depth",
            "depth x",
            "nodes -",
            "movetime +",
            "movetime 1.5",
            "wtime 0x10",
        ] {
            assert!(parse_go(bad, Side::White, Dialect::Uci).is_err(), "{bad}");
        }
    }
}
