//! The record of one game: which game and rules, how it started, who played, the moves with
//! their times and comments, and how it ended. One type for files, the arena and the server.

use boyi_core::{Outcome, Side};
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
    /// The player of [`Side::Black`] (Xiangqi: black).
    pub black: String,
    /// The player of [`Side::White`] (Xiangqi: red, as in the core's side convention).
    pub white: String,
    /// `None` while the game is unfinished or its end is unknown.
    pub result: Option<GameResult>,
    /// Date as written by the source, ideally `YYYY-MM-DD` (or `YYYY.MM.DD`).
    pub date: String,
    pub event: String,
    pub site: String,
    pub moves: Vec<RecordedMove>,
    /// Further facts from the source or the table (time control, round, opening name, ...).
    pub tags: BTreeMap<String, String>,
}

/// One move (one turn) with what the record adds to it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordedMove {
    pub text: String,
    /// Thinking time of the move in milliseconds.
    pub time_ms: Option<u64>,
    pub comment: Option<String>,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// `None`: a draw.
    pub winner: Option<Side>,
    /// Why, in words (`five in a row`, `resignation`, `time`); may be empty.
    pub reason: String,
}

impl GameResult {
    pub fn win(side: Side, reason: impl Into<String>) -> GameResult {
        GameResult {
            winner: Some(side),
            reason: reason.into(),
        }
    }

    pub fn draw(reason: impl Into<String>) -> GameResult {
        GameResult {
            winner: None,
            reason: reason.into(),
        }
    }

    /// The short word stored in databases and Boyi text: `black`, `white` or `draw`.
    pub fn word(&self) -> &'static str {
        match self.winner {
            Some(Side::Black) => "black",
            Some(Side::White) => "white",
            None => "draw",
        }
    }

    /// Parses [`GameResult::word`] (reason left empty).
    pub fn from_word(word: &str) -> Option<GameResult> {
        match word {
            "black" => Some(GameResult::win(Side::Black, "")),
            "white" => Some(GameResult::win(Side::White, "")),
            "draw" => Some(GameResult::draw("")),
            _ => None,
        }
    }

    /// The score of `side`: 1 win, 0.5 draw, 0 loss.
    pub fn score_for(&self, side: Side) -> f64 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl From<Outcome> for GameResult {
    fn from(o: Outcome) -> GameResult {
        GameResult {
            winner: o.winner,
            reason: o.reason.to_string(),
        }
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
            black: String::new(),
            white: String::new(),
            result: None,
            date: String::new(),
            event: String::new(),
            site: String::new(),
            moves: Vec::new(),
            tags: BTreeMap::new(),
        }
    }

    /// Appends a move given as text.
    pub fn push(&mut self, text: impl Into<String>) {
        self.moves.push(RecordedMove {
            text: text.into(),
            ..RecordedMove::default()
        });
    }

    /// The player of `side`.
    pub fn player(&self, side: Side) -> &str {
        match side {
            Side::Black => &self.black,
            Side::White => &self.white,
        }
    }
}
