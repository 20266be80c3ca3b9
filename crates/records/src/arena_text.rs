//! The game files `boyi match --out` wrote before it wrote Boyi's record formats (read only):
//!
//! ```text
//! # boyi game record
//! game gomoku
//! variant freestyle
//! start 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b
//! black boyi:random
//! white boyi:alphabeta?depth=2
//! opening 2
//! result white
//! reason five in a row
//! moves h8,i9,h9,j10
//! ```
//! Keys are one word, the value is the rest of the line. The side keys and the result are
//! the game's own side names (`red` is Xiangqi's white); the players are player specs;
//! `opening` (the moves that came from the opening) becomes the tag `OpeningPlies`.

use crate::record::{GameRecord, GameResult, Player, RecordedMove};
use boyi_core::{Side, TextError, text_err};
use boyi_games::GameKind;

/// The first line of such a file.
pub const HEADER: &str = "# boyi game record";

/// Reads one arena game file.
pub fn read(text: &str) -> Result<GameRecord, TextError> {
    let mut rec: Option<GameRecord> = None;
    let mut result: Option<String> = None;
    let mut reason = String::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: TextError| e.context(format!("line {}", i + 1));
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        if key == "game" {
            let kind: GameKind = value.trim().parse().map_err(at)?;
            rec = Some(GameRecord::new(kind));
            continue;
        }
        let r = rec
            .as_mut()
            .ok_or_else(|| at(text_err!("the record must begin with its game line")))?;
        match key {
            "variant" => r.variant = Some(value.to_string()),
            "start" => r.start = Some(value.to_string()),
            "black" => r.players[Side::Black.index()] = Player::program(value),
            "white" | "red" => r.players[Side::White.index()] = Player::program(value),
            "opening" => {
                let n: usize = value
                    .parse()
                    .map_err(|_| at(text_err!("opening {value:?} is not a number")))?;
                r.tags.insert("OpeningPlies".into(), n.to_string());
            }
            "result" => result = Some(value.to_string()),
            "reason" => reason = value.to_string(),
            "moves" => {
                r.moves = value
                    .split(',')
                    .map(str::trim)
                    .filter(|m| !m.is_empty())
                    .map(RecordedMove::new)
                    .collect()
            }
            other => return Err(at(text_err!("unknown key {other:?}"))),
        }
    }
    let mut rec = rec.ok_or_else(|| text_err!("no game line: not an arena record"))?;
    let winner = match result.as_deref() {
        Some("draw") => None,
        Some("black") => Some(Side::Black),
        Some("white" | "red") => Some(Side::White),
        Some(other) => return Err(text_err!("result {other:?} must be a side or draw")),
        None => return Err(text_err!("the record has no result")),
    };
    rec.result = Some(GameResult::from_old_words(winner, &reason));
    Ok(rec)
}
