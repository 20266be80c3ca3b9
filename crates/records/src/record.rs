//! The record of one game — which game and rules, how it started, who played (and with which
//! program), the moves with their times, comments and evaluations, how it ended and why,
//! when and where. The one record model of Boyi: files of every format, the arena's games,
//! the server's live and finished tables, the game database and `boyi engine --record` all
//! read and write it.

use crate::date::Date;
use boyi_core::{Outcome, Reason, Score, Side, TextError, text_err};
use boyi_games::GameKind;
use std::collections::BTreeMap;

/// One game, finished or not. Move texts are canonical once the record has been checked
/// ([`crate::check`]); readers of other notations fill them with what the file says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub game: GameKind,
    /// The rule set by name (`renju`, `icga`, ...); `None`: the game's default.
    pub variant: Option<String>,
    /// Board size of a grid game; `None`: the game's default (or the start text's own).
    pub size: Option<usize>,
    /// Position text of the start when it is not the game's start position.
    pub start: Option<String>,
    /// The players by [`Side::index`]: black, then white (Xiangqi: red is white, as in the
    /// core's side convention).
    pub players: [Player; 2],
    /// `None` while the game is unfinished or its end is unknown.
    pub result: Option<GameResult>,
    pub date: Option<Date>,
    pub event: String,
    pub round: String,
    pub site: String,
    pub moves: Vec<RecordedMove>,
    /// Further facts from the source or the table (time control, opening plies, ...).
    pub tags: BTreeMap<String, String>,
}

/// Who played a side: a name, and the program that played when it was one (a player spec
/// such as `boyi:strong?depth=8` or `cmd:"…"@ucci`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Player {
    pub name: String,
    pub spec: Option<String>,
}

impl Player {
    pub fn named(name: impl Into<String>) -> Player {
        Player {
            name: name.into(),
            spec: None,
        }
    }

    /// A program: its spec is its name too.
    pub fn program(spec: impl Into<String>) -> Player {
        let spec = spec.into();
        Player {
            name: spec.clone(),
            spec: Some(spec),
        }
    }
}

/// One move (one turn) with what the record adds to it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordedMove {
    pub text: String,
    /// Thinking time of the move in milliseconds.
    pub time_ms: Option<u64>,
    /// The mover's clock after the move (increment included), in milliseconds.
    pub clock_ms: Option<u64>,
    pub comment: Option<String>,
    /// The mover's evaluation when it chose the move, from its own view.
    pub eval: Option<Score>,
    /// The depth of that evaluation.
    pub depth: Option<u32>,
}

impl RecordedMove {
    pub fn new(text: impl Into<String>) -> RecordedMove {
        RecordedMove {
            text: text.into(),
            ..RecordedMove::default()
        }
    }
}

/// How a game ended: the outcome (winner or draw, and the typed reason) and, where the
/// reason says less than the source did, its words (`no answer in 5000 ms`, or an imported
/// file's own text when it is none of [`Reason`]'s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    pub outcome: Outcome,
    pub detail: String,
}

impl GameResult {
    pub fn new(winner: Option<Side>, reason: Reason) -> GameResult {
        GameResult {
            outcome: Outcome { winner, reason },
            detail: String::new(),
        }
    }

    pub fn win(side: Side, reason: Reason) -> GameResult {
        GameResult::new(Some(side), reason)
    }

    pub fn draw(reason: Reason) -> GameResult {
        GameResult::new(None, reason)
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> GameResult {
        self.detail = detail.into();
        self
    }

    pub fn winner(&self) -> Option<Side> {
        self.outcome.winner
    }

    pub fn reason(&self) -> Reason {
        self.outcome.reason
    }

    /// The score of `side`: 1 win, 0.5 draw, 0 loss.
    pub fn score_for(&self, side: Side) -> f64 {
        self.outcome.score_for(side)
    }

    /// `black`, `white` or `draw`: how Boyi's text and the database store the winner.
    pub fn winner_word(&self) -> &'static str {
        winner_word(self.winner())
    }

    /// The reason and detail as one text, which [`GameResult::parse_text`] reads back:
    /// the reason's words, `words: detail`, or the detail alone for an unknown reason.
    pub fn text(&self) -> String {
        let reason = self.reason();
        match (reason, self.detail.as_str()) {
            (r, "") => r.words().to_string(),
            (Reason::Unknown, d) if parse_reason_text(d) == (Reason::Unknown, d.to_string()) => {
                d.to_string()
            }
            (r, d) => format!("{}: {d}", r.code_or_words()),
        }
    }

    /// The typed result of the reasons in words that the rules, the arena and the server
    /// gave before reasons were typed (`60-move rule`, `loss on time (no answer)`, `red
    /// resigned`, `agreed draw`, ...); other words as [`GameResult::parse_text`] reads them.
    pub fn from_old_words(winner: Option<Side>, words: &str) -> GameResult {
        let w = words.trim();
        let (reason, detail) = if let Some(rest) = w.strip_prefix("loss on time") {
            (Reason::Time, rest.trim().trim_matches(['(', ')']))
        } else if w.ends_with("ran out of time") {
            (Reason::Time, "")
        } else if let Some(rest) = w.strip_prefix("illegal move") {
            (Reason::IllegalMove, rest.trim())
        } else if w.starts_with("the computer played an illegal move") {
            (Reason::IllegalMove, w)
        } else if w.ends_with(" resigned") {
            (Reason::Resignation, "")
        } else if w == "agreed draw" {
            (Reason::Agreement, "")
        } else if w == "move limit" {
            (Reason::Adjudication, w)
        } else if w == "60-move rule" || w == "100 moves without capture" {
            (Reason::MoveCountRule, "")
        } else if w.starts_with("board full") {
            (Reason::FullBoard, "")
        } else if w.starts_with("swap1 opening") || w.starts_with("swap2 opening") {
            (Reason::Forfeit, w)
        } else if w.starts_with("the computer gave up") || w.contains(" could not start") {
            (Reason::Crash, w)
        } else {
            return GameResult::parse_text(winner, w);
        };
        GameResult::new(winner, reason).with_detail(detail)
    }

    /// Reads [`GameResult::text`] (or any file's reason in words) for a result of `winner`.
    pub fn parse_text(winner: Option<Side>, text: &str) -> GameResult {
        let (reason, detail) = parse_reason_text(text);
        GameResult::new(winner, reason).with_detail(detail)
    }
}

/// Reason words as the formats with one field for them write them.
trait ReasonText {
    fn code_or_words(self) -> &'static str;
}

impl ReasonText for Reason {
    fn code_or_words(self) -> &'static str {
        match self {
            Reason::Unknown => "unknown",
            r => r.words(),
        }
    }
}

/// A reason in words: a known reason alone, `reason: detail`, or free text.
fn parse_reason_text(text: &str) -> (Reason, String) {
    if text.is_empty() {
        return (Reason::Unknown, String::new());
    }
    if let Some(r) = Reason::parse(text) {
        return (r, String::new());
    }
    if let Some((head, rest)) = text.split_once(": ")
        && let Some(r) = Reason::parse(head)
    {
        return (r, rest.to_string());
    }
    (Reason::Unknown, text.to_string())
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.winner() {
            Some(s) => write!(f, "{} wins", winner_word(Some(s)))?,
            None => f.write_str("draw")?,
        }
        let text = self.text();
        if !text.is_empty() {
            write!(f, " ({text})")?;
        }
        Ok(())
    }
}

impl From<Outcome> for GameResult {
    fn from(outcome: Outcome) -> GameResult {
        GameResult {
            outcome,
            detail: String::new(),
        }
    }
}

/// `black`, `white` or `draw`.
pub fn winner_word(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::Black) => "black",
        Some(Side::White) => "white",
        None => "draw",
    }
}

/// Reads [`winner_word`]'s words (`red` too, Xiangqi's white).
pub fn parse_winner(word: &str) -> Result<Option<Side>, TextError> {
    match word.trim() {
        "black" => Ok(Some(Side::Black)),
        "white" | "red" => Ok(Some(Side::White)),
        "draw" => Ok(None),
        other => Err(text_err!("result {other:?} must be black, white or draw")),
    }
}

impl GameRecord {
    /// An empty record of `game` with default rules and start.
    pub fn new(game: GameKind) -> GameRecord {
        GameRecord {
            game,
            variant: None,
            size: None,
            start: None,
            players: Default::default(),
            result: None,
            date: None,
            event: String::new(),
            round: String::new(),
            site: String::new(),
            moves: Vec::new(),
            tags: BTreeMap::new(),
        }
    }

    /// Appends a move given as text.
    pub fn push(&mut self, text: impl Into<String>) {
        self.moves.push(RecordedMove::new(text));
    }

    /// The player of `side`.
    pub fn player(&self, side: Side) -> &Player {
        &self.players[side.index()]
    }

    pub fn player_mut(&mut self, side: Side) -> &mut Player {
        &mut self.players[side.index()]
    }

    /// The name of the player of `side`.
    pub fn name(&self, side: Side) -> &str {
        &self.players[side.index()].name
    }

    /// A 64-bit fingerprint of what makes the game this game — game, rules, start, players'
    /// names, date, moves and winner — the same for every copy however it was stored or
    /// annotated, so a database can tell a game it already holds (FNV-1a, stable across
    /// versions and machines).
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |s: &str| {
            for b in s.bytes().chain(std::iter::once(0xFF)) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(self.game.name());
        eat(self.variant.as_deref().unwrap_or(""));
        eat(&self.size.map(|n| n.to_string()).unwrap_or_default());
        eat(self.start.as_deref().unwrap_or(""));
        eat(&self.players[0].name);
        eat(&self.players[1].name);
        eat(&self.date.map(|d| d.to_string()).unwrap_or_default());
        for m in &self.moves {
            eat(&m.text);
        }
        eat(self.result.as_ref().map_or("*", GameResult::winner_word));
        h
    }

    /// Sets the name of the player of `side`.
    pub fn set_name(&mut self, side: Side, name: impl Into<String>) {
        self.players[side.index()].name = name.into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_text_reads_back() {
        let cases = [
            GameResult::win(Side::Black, Reason::Five),
            GameResult::win(Side::White, Reason::Time).with_detail("no answer"),
            GameResult::draw(Reason::Unknown).with_detail("rain"),
            GameResult::draw(Reason::Unknown).with_detail("time: odd"),
            GameResult::draw(Reason::Unknown).with_detail("unknown"),
            GameResult::draw(Reason::Unknown),
            GameResult::draw(Reason::Agreement).with_detail("time: odd"),
        ];
        for r in cases {
            let back = GameResult::parse_text(r.winner(), &r.text());
            assert_eq!(back, r, "{:?}", r.text());
        }
        assert_eq!(
            GameResult::win(Side::White, Reason::Time)
                .with_detail("no answer")
                .to_string(),
            "white wins (time: no answer)"
        );
        assert_eq!(
            GameResult::parse_text(None, "red resigned").reason(),
            Reason::Unknown
        );
        assert_eq!(parse_winner("red").unwrap(), Some(Side::White));
        let old = |w| GameResult::from_old_words(Some(Side::Black), w);
        assert_eq!(old("red resigned").reason(), Reason::Resignation);
        assert_eq!(old("60-move rule").reason(), Reason::MoveCountRule);
        assert_eq!(old("five in a row").reason(), Reason::Five);
        let t = old("loss on time (no answer)");
        assert_eq!((t.reason(), t.detail.as_str()), (Reason::Time, "no answer"));
        assert_eq!(old("rain").detail, "rain");
        assert!(parse_winner("black (red resigned)").is_err());
    }
}
