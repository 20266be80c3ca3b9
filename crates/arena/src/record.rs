//! The arena's game record: a small line-based text format, one file per game.
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
//! Keys are one word, the value is the rest of the line. `start` is the position text the
//! moves are played from; the side names are the game's own (`red`/`black` in Xiangqi);
//! `opening` counts the moves of `moves` that came from the opening, not from the players;
//! `result` is a side name or `draw`; `moves` is the comma-separated canonical move list.

use boyi_core::{Game, Side, TextError};
use boyi_engines::GameHistory;
use std::fmt::Write as _;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub game: String,
    pub variant: String,
    pub start: String,
    /// Player names, indexed by [`Side::index`].
    pub players: [String; 2],
    pub opening: usize,
    pub winner: Option<Side>,
    pub reason: String,
    pub moves: Vec<String>,
}

impl Record {
    pub fn new<G: Game>(
        game: &GameHistory<G>,
        players: [String; 2],
        opening: usize,
        winner: Option<Side>,
        reason: &str,
    ) -> Record {
        Record {
            game: G::NAME.to_string(),
            variant: game.start().variant().to_string(),
            start: game.start().to_text(),
            players,
            opening,
            winner,
            reason: reason.to_string(),
            moves: game.move_texts(),
        }
    }

    pub fn to_text<G: Game>(&self) -> String {
        let mut s = String::from("# boyi game record\n");
        let result = self.winner.map_or("draw", G::side_name);
        let _ = writeln!(s, "game {}", self.game);
        let _ = writeln!(s, "variant {}", self.variant);
        let _ = writeln!(s, "start {}", self.start);
        for side in [Side::Black, Side::White] {
            let _ = writeln!(s, "{} {}", G::side_name(side), self.players[side.index()]);
        }
        let _ = writeln!(s, "opening {}", self.opening);
        let _ = writeln!(s, "result {result}");
        let _ = writeln!(s, "reason {}", self.reason);
        let _ = writeln!(s, "moves {}", self.moves.join(","));
        s
    }

    pub fn parse<G: Game>(text: &str) -> Result<Record, TextError> {
        let mut r = Record {
            game: String::new(),
            variant: String::new(),
            start: String::new(),
            players: [String::new(), String::new()],
            opening: 0,
            winner: None,
            reason: String::new(),
            moves: Vec::new(),
        };
        let mut result = None;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            let side = [Side::Black, Side::White]
                .into_iter()
                .find(|s| G::side_name(*s) == key);
            match (key, side) {
                ("game", _) => r.game = value.to_string(),
                ("variant", _) => r.variant = value.to_string(),
                ("start", _) => r.start = value.to_string(),
                ("opening", _) => {
                    r.opening = value
                        .parse()
                        .map_err(|_| text_err!("record line {}: bad opening {value:?}", i + 1))?
                }
                ("result", _) => result = Some(value.to_string()),
                ("reason", _) => r.reason = value.to_string(),
                ("moves", _) => {
                    r.moves = value
                        .split(',')
                        .map(|m| m.trim().to_string())
                        .filter(|m| !m.is_empty())
                        .collect()
                }
                (_, Some(s)) => r.players[s.index()] = value.to_string(),
                _ => return Err(text_err!("record line {}: unknown key {key:?}", i + 1)),
            }
        }
        if r.game != G::NAME {
            return Err(text_err!("record of {:?}, not {}", r.game, G::NAME));
        }
        r.winner = match result.as_deref() {
            Some("draw") => None,
            Some(name) => Some(
                [Side::Black, Side::White]
                    .into_iter()
                    .find(|s| G::side_name(*s) == name)
                    .ok_or_else(|| text_err!("record: bad result {name:?}"))?,
            ),
            None => return Err(text_err!("record has no result")),
        };
        Ok(r)
    }

    /// Replays the moves from the start position, checking each is legal.
    pub fn replay<G: Game>(&self) -> Result<GameHistory<G>, TextError> {
        let variant: G::Variant = self.variant.parse()?;
        let mut game = GameHistory::new(G::from_text(&variant, &self.start)?);
        for (i, m) in self.moves.iter().enumerate() {
            game.push_text(m)
                .map_err(|e| e.context(format!("record move {} ({m})", i + 1)))?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::NoVariant;
    use boyi_engines::tictactoe::TicTacToe;

    #[test]
    fn round_trip_and_replay() {
        let mut game = GameHistory::new(TicTacToe::start(&NoVariant, None).unwrap());
        for m in ["a1", "a2", "b1", "b2", "c1"] {
            game.push_text(m).unwrap();
        }
        let rec = Record::new(
            &game,
            ["boyi:random".into(), "x y".into()],
            1,
            Some(Side::Black),
            "three in a row",
        );
        let text = rec.to_text::<TicTacToe>();
        assert_eq!(
            text,
            "# boyi game record\ngame tictactoe\nvariant standard\nstart 3/3/3 b\nblack boyi:random\nwhite x y\nopening 1\nresult black\nreason three in a row\nmoves a1,a2,b1,b2,c1\n"
        );
        let back = Record::parse::<TicTacToe>(&text).unwrap();
        assert_eq!(back, rec);
        assert_eq!(
            back.replay::<TicTacToe>()
                .unwrap()
                .current()
                .outcome()
                .unwrap()
                .winner,
            Some(Side::Black)
        );
        let bad = text.replace("b2,c1", "b2,b2");
        let err = Record::parse::<TicTacToe>(&bad)
            .unwrap()
            .replay::<TicTacToe>()
            .unwrap_err();
        assert!(err.to_string().contains("record move 5 (b2)"), "{err}");
        assert!(Record::parse::<TicTacToe>("game tictactoe\nfoo 1\n").is_err());
        assert!(Record::parse::<TicTacToe>("game chess\nresult draw\n").is_err());
    }
}
