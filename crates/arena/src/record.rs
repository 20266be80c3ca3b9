//! The record of an arena game, in the one record model (`boyi_records::GameRecord`): the
//! players as their specs, the game's start and moves with each player's thinking time, the
//! result with its reason, the date, `boyi match` as the event and the game's number as the
//! round, the opening's plies in the tag `OpeningPlies` and the time control in `TimeControl`.

use crate::time_control::TimeControl;
use boyi_core::{Game, TextError};
use boyi_engines::GameHistory;
use boyi_records::{Date, GameRecord, GameResult, Player, RecordedMove, header_for};

/// What [`build_record`] needs of a finished game.
pub struct RecordParts<'a, G: Game> {
    pub game: &'a GameHistory<G>,
    /// Black's and white's specs.
    pub specs: &'a [String; 2],
    /// Moves of the game that came from the opening, not from the players.
    pub opening: usize,
    /// The players' thinking time for each move after the opening, in milliseconds.
    pub times: &'a [u64],
    pub result: GameResult,
    /// The game's index in the match (from 0).
    pub index: usize,
    pub tc: Option<TimeControl>,
}

/// The record of a finished arena game.
pub fn build_record<G: Game>(parts: RecordParts<'_, G>) -> Result<GameRecord, TextError> {
    let mut rec = header_for(parts.game.start())
        .map_err(|e| e.context("the arena records games of Boyi's four games"))?;
    rec.players = parts.specs.clone().map(Player::program);
    rec.date = Some(Date::today());
    rec.event = "boyi match".into();
    rec.round = (parts.index + 1).to_string();
    rec.tags
        .insert("OpeningPlies".into(), parts.opening.to_string());
    if let Some(tc) = parts.tc {
        rec.tags.insert("TimeControl".into(), tc.to_string());
    }
    rec.moves = parts
        .game
        .move_texts()
        .into_iter()
        .enumerate()
        .map(|(i, text)| RecordedMove {
            time_ms: i
                .checked_sub(parts.opening)
                .and_then(|k| parts.times.get(k))
                .copied(),
            ..RecordedMove::new(text)
        })
        .collect();
    rec.result = Some(parts.result);
    Ok(rec)
}

/// The number of opening plies a record of [`build_record`] names (0 when it names none).
pub fn opening_plies(rec: &GameRecord) -> usize {
    rec.tags
        .get("OpeningPlies")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}
