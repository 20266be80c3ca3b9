//! CECP, the xboard/WinBoard protocol (version 2), as a driver of external Xiangqi engines
//! such as HoiXiangqi. Boyi drives xboard engines but does not serve this protocol.
//!
//! - Handshake: `xboard`, `protover 2`, then `feature name=value …` lines answered with
//!   `accepted`/`rejected` until `done=1` (an engine that announces nothing is taken as
//!   protocol 1 after two seconds). `san=1` is rejected, so moves stay in coordinates.
//! - Moves: coordinates with ranks 0–9, as HoiXiangqi reads and prints them (`h2e2`), sent
//!   bare or after `usermove` when the engine asks for it; the engine answers `move h7e7`
//!   (or `My move is: h7e7`).
//! - The game: `new`, `variant xiangqi` (when the engine lists variants), `force`, `setboard`
//!   for another start position, then the moves; later turns send `force` and only the new
//!   moves. `setboard` sends standard FEN first; an engine that refuses it (HoiXiangqi) gets
//!   its own form, with `h`/`e` for horses and elephants and only the side and move counters
//!   after the board.
//! - Limits: a clock is `level 0 <base> <inc>` plus `time`/`otim` (centiseconds) every turn;
//!   a move time of whole seconds is `st`, a shorter one is one move in that time
//!   (`level 1 0:01 0`, `time`); a depth is `sd`. There is no node limit in CECP.
//! - `?` asks for the move now; `resign`, or a result that gives the game to the opponent,
//!   resigns; `Illegal move`, `Error` and `tellusererror` are protocol errors.

use crate::codec::shift_ranks;
use crate::driver::{Driver, engine_move};
use crate::process::{EngineProcess, Received};
use boyi_core::{Game, Side, TextError};
use boyi_engines::{GameHistory, Info, Limits, PlayerError, Score};
use std::time::{Duration, Instant};

/// How long an engine that announces no features is waited for.
const PROTOVER1_WAIT: Duration = Duration::from_secs(2);

/// Features the driver understands and honours (or can safely leave unused).
const ACCEPTED: &[&str] = &[
    "done",
    "usermove",
    "setboard",
    "ping",
    "time",
    "variants",
    "myname",
    "colors",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "name",
    "playother",
    "draw",
    "ics",
    "pause",
    "debug",
    "memory",
    "smp",
    "option",
    "nps",
    "egt",
    "exclude",
    "setscore",
    "highlight",
];

/// The features an engine announced, with the protocol's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Features {
    pub usermove: bool,
    pub setboard: bool,
    pub ping: bool,
    pub time: bool,
    /// `None` when the engine did not list its variants.
    pub variants: Option<Vec<String>>,
    pub myname: Option<String>,
    /// `Some(false)` after `done=0`: the engine needs more time to start.
    pub done: Option<bool>,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            usermove: false,
            setboard: false,
            ping: false,
            time: true,
            variants: None,
            myname: None,
            done: None,
        }
    }
}

impl Features {
    /// Records one feature; `true` if the driver accepts it.
    pub fn apply(&mut self, name: &str, value: &str) -> bool {
        let on = value == "1";
        match name {
            "usermove" => self.usermove = on,
            "setboard" => self.setboard = on,
            "ping" => self.ping = on,
            "time" => self.time = on,
            "done" => self.done = Some(on),
            "myname" => self.myname = Some(value.to_string()),
            "variants" => {
                self.variants = Some(value.split(',').map(|v| v.trim().to_string()).collect())
            }
            // Moves in SAN would need a Xiangqi SAN codec; rejecting keeps coordinates.
            "san" => return !on,
            _ => {}
        }
        ACCEPTED.contains(&name)
    }
}

/// Splits the arguments of a `feature` line into name/value pairs; a value may be quoted.
pub fn parse_features(args: &str) -> Result<Vec<(String, String)>, TextError> {
    let mut pairs = Vec::new();
    let mut rest = args.trim_start();
    while !rest.is_empty() {
        let (name, after) = rest
            .split_once('=')
            .ok_or_else(|| text_err!("feature {rest:?} has no =value"))?;
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(text_err!(
                "feature {rest:?}: {name:?} is not a feature name"
            ));
        }
        let (value, after) = if let Some(quoted) = after.strip_prefix('"') {
            let end = quoted
                .find('"')
                .ok_or_else(|| text_err!("feature {name}: the value's quote is not closed"))?;
            (&quoted[..end], &quoted[end + 1..])
        } else {
            after.split_at(after.find(char::is_whitespace).unwrap_or(after.len()))
        };
        pairs.push((name.to_string(), value.to_string()));
        rest = after.trim_start();
    }
    Ok(pairs)
}

/// Standard Xiangqi FEN → HoiXiangqi's form: `h`/`e` for horses and elephants, then the side
/// and the two move counters (no castling or en-passant fields).
pub fn hoi_fen(fen: &str) -> Result<String, TextError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [board, side, rest @ ..] = fields.as_slice() else {
        return Err(text_err!("position {fen:?} has no side to move"));
    };
    let board: String = board
        .chars()
        .map(|c| match c {
            'n' => 'h',
            'N' => 'H',
            'b' => 'e',
            'B' => 'E',
            c => c,
        })
        .collect();
    let halfmove = rest.get(2).copied().unwrap_or("0");
    let fullmove = rest.get(3).copied().unwrap_or("1");
    Ok(format!("{board} {side} {halfmove} {fullmove}"))
}

/// Protocol move text → canonical (the ranks already match; case is forgiven).
pub fn from_wire(text: &str) -> Result<String, TextError> {
    shift_ranks(&text.to_ascii_lowercase(), 0)
}

/// The move an engine line announces: `move X` or `My move is: X`.
pub fn announced_move(line: &str) -> Option<&str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["move", mv] => Some(mv),
        ["My", "move", "is:", mv] | ["My", "move", "is", ":", mv] => Some(mv),
        _ => None,
    }
}

/// A thinking line, `ply score time nodes pv…` (time in centiseconds).
pub fn parse_thinking(line: &str) -> Option<Info> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [ply, score, time, nodes, pv @ ..] = words.as_slice() else {
        return None;
    };
    let ply: u32 = ply.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i32 = score.parse().ok()?;
    let time: u64 = time.parse().ok()?;
    let nodes: u64 = nodes.parse().ok()?;
    let coords: Vec<String> = pv.iter().filter_map(|m| from_wire(m).ok()).collect();
    let mut info = Info {
        depth: Some(ply),
        score: Some(Score::Units(score)),
        nodes: Some(nodes),
        time: Some(Duration::from_millis(time * 10)),
        ..Info::default()
    };
    if !pv.is_empty() && coords.len() == pv.len() {
        info.pv = coords;
    } else if !pv.is_empty() {
        info.text = Some(pv.join(" "));
    }
    Some(info)
}

/// What a result line (`1-0 {…}`, `0-1 {…}`, `1/2-1/2 {…}`) means for the engine moving as
/// `me`: `Some(true)` if it gives the game away.
pub fn concedes(line: &str, me: Side) -> Option<bool> {
    match line.split_whitespace().next()? {
        "1-0" => Some(me == Side::Black),
        "0-1" => Some(me == Side::White),
        "1/2-1/2" => Some(false),
        _ => None,
    }
}

/// `m:ss` for CECP's `level` (whole seconds, at least one).
fn minutes(d: Duration) -> String {
    let s = d.as_secs().max(1);
    format!("{}:{:02}", s / 60, s % 60)
}

/// Seconds with up to three decimals, trailing zeros dropped.
fn seconds(d: Duration) -> String {
    let text = format!("{:.3}", d.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn centis(d: Duration) -> u128 {
    d.as_millis() / 10
}

/// The limit commands (sent once per game while they stay the same) and the clock commands
/// (sent every turn) for a search by `me`.
pub fn limit_commands(limits: &Limits, me: Side) -> Result<(Vec<String>, Vec<String>), TextError> {
    if limits.infinite {
        return Err(text_err!(
            "xboard: an infinite search is not driven (no analyze mode)"
        ));
    }
    if limits.nodes.is_some() {
        return Err(text_err!("xboard has no node limit"));
    }
    let mut fixed = Vec::new();
    let mut clock = Vec::new();
    if let Some(c) = limits.clock {
        let (own, opp) = (me.index(), me.opponent().index());
        fixed.push(format!(
            "level {} {} {}",
            c.moves_to_go.unwrap_or(0),
            minutes(c.time_left[own]),
            seconds(c.increment[own])
        ));
        clock.push(format!("time {}", centis(c.time_left[own])));
        clock.push(format!("otim {}", centis(c.time_left[opp])));
    } else if let Some(t) = limits.movetime {
        if t.as_millis() >= 1000 && t.as_millis() % 1000 == 0 {
            fixed.push(format!("st {}", t.as_secs()));
        } else {
            fixed.push("level 1 0:01 0".to_string());
            clock.push(format!("time {}", centis(t)));
            clock.push(format!("otim {}", centis(t)));
        }
    }
    if let Some(d) = limits.depth {
        fixed.push(format!("sd {d}"));
    }
    Ok((fixed, clock))
}

/// Which `setboard` text the engine takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FenForm {
    Standard,
    Hoi,
}

/// Drives an xboard engine.
pub struct XboardDriver {
    features: Option<Features>,
    /// The start position and moves the engine holds; `None` before a game is set up.
    synced: Option<(String, Vec<String>)>,
    /// The [`limit_key`] of the limit commands last sent in this game.
    fixed_sent: Vec<String>,
    fen_form: FenForm,
    ping: u32,
    /// The side the engine moves for in the running search.
    me: Side,
}

impl Default for XboardDriver {
    fn default() -> Self {
        Self::new()
    }
}

impl XboardDriver {
    pub fn new() -> Self {
        XboardDriver {
            features: None,
            synced: None,
            fixed_sent: Vec::new(),
            fen_form: FenForm::Standard,
            ping: 0,
            me: Side::White,
        }
    }

    /// `xboard`, `protover 2` and the feature exchange.
    fn handshake(p: &mut EngineProcess, until: Instant) -> Result<Features, PlayerError> {
        p.send("xboard");
        p.send("protover 2");
        let mut features = Features::default();
        let mut deadline = until.min(Instant::now() + PROTOVER1_WAIT);
        loop {
            match p.recv(Some(deadline), None) {
                Received::Line(line) => {
                    let Some(args) = line.strip_prefix("feature ") else {
                        continue;
                    };
                    let pairs = parse_features(args)
                        .map_err(|e| PlayerError::Protocol(format!("{e} ({})", p.recent_log())))?;
                    for (name, value) in pairs {
                        let verdict = if features.apply(&name, &value) {
                            "accepted"
                        } else {
                            "rejected"
                        };
                        p.send(&format!("{verdict} {name}"));
                    }
                    match features.done {
                        Some(true) => return Ok(features),
                        Some(false) => deadline = until,
                        None => {}
                    }
                }
                Received::TimedOut | Received::Stopped if features.done != Some(false) => {
                    return Ok(features);
                }
                Received::TimedOut | Received::Stopped => {
                    return Err(PlayerError::Timeout(format!(
                        "no done=1 from the engine ({})",
                        p.recent_log()
                    )));
                }
                Received::Closed => {
                    return Err(PlayerError::Crashed(format!(
                        "the engine exited during the handshake ({})",
                        p.recent_log()
                    )));
                }
            }
        }
    }

    /// Sends `ping` and reads until its `pong`: the first refusal seen on the way, if any.
    fn refusal_before_pong(
        &mut self,
        p: &mut EngineProcess,
        until: Instant,
    ) -> Result<Option<String>, PlayerError> {
        self.ping += 1;
        let pong = format!("pong {}", self.ping);
        p.send(&format!("ping {}", self.ping));
        let mut refusal = None;
        loop {
            match p.recv(Some(until), None) {
                Received::Line(l) if l.trim() == pong => return Ok(refusal),
                Received::Line(l) if refusal.is_none() && is_refusal(&l) => refusal = Some(l),
                Received::Line(_) => {}
                Received::TimedOut | Received::Stopped => {
                    return Err(PlayerError::Timeout(format!(
                        "no {pong} from the engine ({})",
                        p.recent_log()
                    )));
                }
                Received::Closed => {
                    return Err(PlayerError::Crashed(p.recent_log()));
                }
            }
        }
    }

    /// `setboard` in the form the engine takes, trying HoiXiangqi's form after a refusal.
    fn setboard(
        &mut self,
        p: &mut EngineProcess,
        fen: &str,
        until: Instant,
    ) -> Result<(), PlayerError> {
        let f = self.features.clone().unwrap_or_default();
        if !f.setboard {
            return Err(PlayerError::Unsupported(format!(
                "the engine has no setboard feature, so it cannot start from {fen:?}"
            )));
        }
        let text = |form| match form {
            FenForm::Standard => Ok(fen.to_string()),
            FenForm::Hoi => hoi_fen(fen),
        };
        let first = self.fen_form;
        p.send(&format!("setboard {}", text(first).map_err(unsupported)?));
        if !f.ping {
            return Ok(());
        }
        let Some(refusal) = self.refusal_before_pong(p, until)? else {
            return Ok(());
        };
        let other = match first {
            FenForm::Standard => FenForm::Hoi,
            FenForm::Hoi => FenForm::Standard,
        };
        p.send(&format!("setboard {}", text(other).map_err(unsupported)?));
        match self.refusal_before_pong(p, until)? {
            None => {
                self.fen_form = other;
                Ok(())
            }
            Some(again) => Err(PlayerError::Unsupported(format!(
                "the engine refuses the position {fen:?}: {refusal} / {again}"
            ))),
        }
    }

    /// Starts a new game in the engine at `game`'s start position.
    fn setup<G: Game>(
        &mut self,
        p: &mut EngineProcess,
        game: &GameHistory<G>,
        until: Instant,
    ) -> Result<(), PlayerError> {
        let f = self.features.clone().unwrap_or_default();
        p.send("new");
        if let Some(variants) = &f.variants {
            if !variants.iter().any(|v| v == G::NAME) {
                return Err(PlayerError::Unsupported(format!(
                    "the engine plays {} but not {}",
                    variants.join(", "),
                    G::NAME
                )));
            }
            p.send(&format!("variant {}", G::NAME));
        }
        p.send("force");
        p.send("easy");
        p.send("post");
        let start = game.start().to_text();
        let standard = G::start(game.start().variant(), None).map(|s| s.to_text());
        if standard.as_deref() != Ok(start.as_str()) {
            self.setboard(p, &start, until)?;
        }
        self.synced = Some((start, Vec::new()));
        self.fixed_sent.clear();
        Ok(())
    }
}

/// The limit commands without the base time of `level` (which follows the clock each turn
/// while the engine reads its time from `time`): a new key means new commands to send.
fn limit_key(fixed: &[String]) -> Vec<String> {
    fixed
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w.as_slice() {
                ["level", mps, _, inc] => format!("level {mps} {inc}"),
                _ => l.clone(),
            }
        })
        .collect()
}

fn unsupported(e: TextError) -> PlayerError {
    PlayerError::Unsupported(e.to_string())
}

/// An engine's word that it did not take the last command.
fn is_refusal(line: &str) -> bool {
    line.starts_with("Illegal") || line.starts_with("Error") || line.starts_with("tellusererror")
}

impl<G: Game> Driver<G> for XboardDriver {
    fn quit_line(&self) -> &'static str {
        "quit"
    }

    fn stop_line(&self) -> Option<&'static str> {
        Some("?")
    }

    fn new_game(&mut self) {
        self.synced = None;
    }

    fn ask(
        &mut self,
        p: &mut EngineProcess,
        game: &GameHistory<G>,
        limits: &Limits,
        until: Instant,
    ) -> Result<(), PlayerError> {
        if self.features.is_none() {
            self.features = Some(Self::handshake(p, until)?);
        }
        let f = self.features.clone().unwrap_or_default();
        self.me = game.current().side_to_move();
        let (fixed, clock) = limit_commands(limits, self.me).map_err(unsupported)?;
        let start = game.start().to_text();
        let texts = game.move_texts();
        let in_step = matches!(&self.synced,
            Some((s, moves)) if *s == start && texts.starts_with(moves));
        if in_step {
            p.send("force");
        } else {
            self.setup(p, game, until)?;
        }
        let known = self.synced.as_ref().map_or(0, |(_, m)| m.len());
        for text in &texts[known..] {
            if f.usermove {
                p.send(&format!("usermove {text}"));
            } else {
                p.send(text);
            }
        }
        self.synced = Some((start, texts));
        let key = limit_key(&fixed);
        if key != self.fixed_sent {
            for line in &fixed {
                p.send(line);
            }
            self.fixed_sent = key;
        }
        if f.time {
            for line in &clock {
                p.send(line);
            }
        }
        p.send("go");
        Ok(())
    }

    fn answer(
        &mut self,
        line: &str,
        game: &GameHistory<G>,
        info: &mut dyn FnMut(Info),
    ) -> Option<Result<G::Move, PlayerError>> {
        if let Some(sent) = announced_move(line) {
            let result = engine_move(game, sent, from_wire(sent));
            if let (Ok(mv), Some((_, moves))) = (&result, &mut self.synced) {
                moves.push(game.current().format_move(mv));
            }
            return Some(result);
        }
        let first = line.split_whitespace().next().unwrap_or("");
        if first == "resign" || line.trim() == "tellics resign" {
            return Some(Err(PlayerError::Resigned));
        }
        if is_refusal(line) {
            return Some(Err(PlayerError::Protocol(format!(
                "the engine answered {line:?}"
            ))));
        }
        // A result that gives the game away resigns; others are the arena's to judge.
        if concedes(line, self.me) == Some(true) {
            return Some(Err(PlayerError::Resigned));
        }
        if let Some(i) = parse_thinking(line) {
            info(i);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_engines::Clock;

    #[test]
    fn feature_lines_split_into_pairs() {
        let pairs = parse_features(
            r#"myname="HoiXiangqi 0.22" variants="xiangqi" ping=1 setboard=1 option="hash -spin 0 1 9" done=1"#,
        )
        .unwrap();
        let names: Vec<&str> = pairs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["myname", "variants", "ping", "setboard", "option", "done"]
        );
        assert_eq!(pairs[0].1, "HoiXiangqi 0.22");
        assert_eq!(pairs[4].1, "hash -spin 0 1 9");
        for bad in ["ping", "ping=1 x", "=1", r#"myname="open"#] {
            assert!(parse_features(bad).is_err(), "{bad}");
        }
        assert!(parse_features("").unwrap().is_empty());
    }

    #[test]
    fn features_are_recorded_and_answered() {
        let mut f = Features::default();
        assert!(f.time && !f.setboard && !f.usermove && !f.ping);
        assert!(f.apply("setboard", "1") && f.setboard);
        assert!(f.apply("usermove", "1") && f.usermove);
        assert!(f.apply("time", "0") && !f.time);
        assert!(f.apply("variants", "normal,xiangqi"));
        assert_eq!(f.variants.as_deref().unwrap(), ["normal", "xiangqi"]);
        assert!(!f.apply("san", "1"), "SAN is refused");
        assert!(f.apply("san", "0"));
        assert!(!f.apply("frobnicate", "1"));
        assert!(f.apply("done", "0") && f.done == Some(false));
    }

    #[test]
    fn hoixiangqi_positions_use_its_letters_and_fields() {
        assert_eq!(
            hoi_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
                .unwrap(),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1"
        );
        assert_eq!(
            hoi_fen("4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 7 40").unwrap(),
            "4k4/9/9/9/9/9/9/9/4A4/3AK4 b 7 40"
        );
        assert_eq!(
            hoi_fen("4k4/9/9/9/9/9/9/9/9/4K4 b").unwrap(),
            "4k4/9/9/9/9/9/9/9/9/4K4 b 0 1"
        );
        assert!(hoi_fen("4k4/9/9/9/9/9/9/9/9/4K4").is_err());
    }

    #[test]
    fn engine_lines_are_read() {
        assert_eq!(announced_move("move a3a4"), Some("a3a4"));
        assert_eq!(announced_move("My move is: h2e2"), Some("h2e2"));
        assert_eq!(announced_move("move"), None);
        assert_eq!(announced_move("Illegal move: h2e2"), None);
        assert_eq!(from_wire("H2E2").unwrap(), "h2e2");
        assert!(from_wire("Pa3-a4").is_err());
        let i = parse_thinking("3 8 15 2099 2. Pa3-a4 Cb7-e7").unwrap();
        assert_eq!(i.depth, Some(3));
        assert_eq!(i.score, Some(Score::Units(8)));
        assert_eq!(i.time, Some(Duration::from_millis(150)));
        assert_eq!(i.nodes, Some(2099));
        assert!(i.pv.is_empty());
        assert_eq!(i.text.as_deref(), Some("2. Pa3-a4 Cb7-e7"));
        let i = parse_thinking("7& -35 120 99999 a3a4 c6c5").unwrap();
        assert_eq!(i.pv, ["a3a4", "c6c5"]);
        assert_eq!(i.score, Some(Score::Units(-35)));
        assert!(parse_thinking("No time for another iteration.").is_none());
        assert_eq!(concedes("0-1 {Red resigns}", Side::White), Some(true));
        assert_eq!(concedes("0-1 {Black mates}", Side::Black), Some(false));
        assert_eq!(concedes("1/2-1/2 {repetition}", Side::White), Some(false));
        assert_eq!(concedes("move h2e2", Side::White), None);
    }

    #[test]
    fn limits_become_level_st_sd_and_clock_lines() {
        let red = Side::White;
        let mut clock = Clock {
            increment: [Duration::from_millis(100); 2],
            ..Clock::default()
        };
        clock.time_left[red.index()] = Duration::from_millis(9_870);
        clock.time_left[red.opponent().index()] = Duration::from_millis(65_000);
        let limits = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        let (fixed, lines) = limit_commands(&limits, red).unwrap();
        assert_eq!(fixed, ["level 0 0:09 0.1"]);
        assert_eq!(lines, ["time 987", "otim 6500"]);
        let (fixed, lines) = limit_commands(&limits, red.opponent()).unwrap();
        assert_eq!(fixed, ["level 0 1:05 0.1"]);
        assert_eq!(lines, ["time 6500", "otim 987"]);
        let st = |ms| {
            let limits = Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..Limits::default()
            };
            limit_commands(&limits, red).unwrap()
        };
        assert_eq!(st(2000), (vec!["st 2".to_string()], vec![]));
        assert_eq!(
            st(250),
            (
                vec!["level 1 0:01 0".to_string()],
                vec!["time 25".to_string(), "otim 25".to_string()]
            )
        );
        assert_eq!(
            limit_commands(&Limits::depth(5), red).unwrap(),
            (vec!["sd 5".to_string()], vec![])
        );
        let nodes = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        assert!(limit_commands(&nodes, red).is_err());
    }
}
