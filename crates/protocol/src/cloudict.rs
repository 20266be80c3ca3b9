//! Driving Cloudict (a Connect6 program, Computer Olympiad gold 2011) over its own line
//! protocol: `name`, `new black|white`, `black <stones>` / `white <stones>` to place stones
//! of a colour, `next` to search for the colour after the last one placed, `move <stones>`
//! for the opponent's turn, `depth d`, `quit`. Stones are two capital letters A–S, column
//! then row (the SAU form of [`crate::codec`]). Cloudict prints help and search reports too,
//! so only lines starting `move ` are moves.
//!
//! The driver sets every position up with `black`/`white` and asks with `next`, so games may
//! start from any opening. Two quirks of the program are handled here: as Black on an empty
//! board it must be started with `new black` (it then plays the centre, `move JJ`, without
//! searching), and it writes a one-stone move with its two letters swapped (row, column).
//! It has no clock: the search depth comes from the move's depth limit (1–9), so matches
//! give it `depth=D` as its own limits and the opponent a matching time per move.

use crate::codec::{board_size, from_sau, to_sau};
use crate::driver::{Driver, engine_move, expect_line};
use crate::process::EngineProcess;
use boyi_core::{Game, Side, TextError};
use boyi_engines::{GameHistory, Info, Limits, PlayerError};
use std::time::Instant;

/// The only board Cloudict plays.
const SIZE: usize = 19;

/// Drives a Cloudict process.
#[derive(Debug, Default)]
pub struct CloudictDriver {
    /// How many moves of the game the engine knows (`None` before the game is set up).
    told: Option<usize>,
    /// The depth last sent.
    depth: Option<u32>,
}

impl CloudictDriver {
    pub fn new() -> Self {
        Self::default()
    }
}

/// The colour word Cloudict uses for `side`.
fn colour(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

/// Canonical move text → Cloudict stones (`j10 k11` → `JJKI`, one stone `j10` → `JJ`).
pub fn to_cloudict(canonical: &str) -> Result<String, TextError> {
    let sau = to_sau("connect6", canonical, SIZE)?;
    Ok(sau.trim_end_matches("@@").to_string())
}

/// Cloudict stones → canonical move text. A one-stone answer has its letters swapped.
pub fn from_cloudict(text: &str) -> Result<String, TextError> {
    let b = text.as_bytes();
    if b.len() == 2 && text.is_ascii() {
        let swapped: String = [b[1] as char, b[0] as char].iter().collect();
        return from_sau("connect6", &swapped, SIZE);
    }
    from_sau("connect6", text, SIZE)
}

/// The move Cloudict sent, as a legal move. Cloudict always plays two stones after the first
/// turn, even when the first of them already wins; under Boyi's rules that turn is the one
/// winning stone, so a pair that is illegal only for that reason is read as its winning stone.
fn answer_move<G: Game>(game: &GameHistory<G>, sent: &str) -> Result<G::Move, PlayerError> {
    let canonical = from_cloudict(sent);
    let refused = match engine_move(game, sent, canonical.clone()) {
        Ok(mv) => return Ok(mv),
        Err(e) => e,
    };
    let pos = game.current();
    let winning_stone = canonical.ok().and_then(|text| {
        text.split_whitespace()
            .filter_map(|stone| pos.parse_move(stone).ok())
            .find(|mv| {
                let mut after = pos.clone();
                after.play(mv);
                after.outcome().and_then(|o| o.winner) == Some(pos.side_to_move())
            })
    });
    winning_stone.ok_or(refused)
}

impl CloudictDriver {
    /// Sets the engine's depth from the move's limits when it changed.
    fn set_depth(&mut self, p: &mut EngineProcess, limits: &Limits) -> Result<(), PlayerError> {
        let Some(depth) = limits.depth else {
            return Ok(());
        };
        if !(1..=9).contains(&depth) {
            return Err(PlayerError::Unsupported(format!(
                "Cloudict searches to depth 1 to 9, not {depth}"
            )));
        }
        if self.depth != Some(depth) {
            p.send(&format!("depth {depth}"));
            self.depth = Some(depth);
        }
        Ok(())
    }

    /// The lines that place the moves from ply `from` on, each as its mover's colour.
    fn placements<G: Game>(game: &GameHistory<G>, from: usize) -> Result<Vec<String>, PlayerError> {
        let mut pos = game.start().clone();
        let mut lines = Vec::new();
        for (i, mv) in game.moves().iter().enumerate() {
            if i >= from {
                let stones = to_cloudict(&pos.format_move(mv))
                    .map_err(|e| PlayerError::Unsupported(e.to_string()))?;
                lines.push(format!("{} {stones}", colour(pos.side_to_move())));
            }
            pos.play(mv);
        }
        Ok(lines)
    }
}

impl<G: Game> Driver<G> for CloudictDriver {
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
        limits: &Limits,
        until: Instant,
    ) -> Result<(), PlayerError> {
        let start = game.start();
        let standard = G::start(start.variant(), Some(SIZE)).map(|s| s.to_text());
        if board_size(start) != SIZE || standard.as_deref() != Ok(start.to_text().as_str()) {
            return Err(PlayerError::Unsupported(
                "Cloudict plays Connect6 on the 19×19 board from the empty start only".into(),
            ));
        }
        let told = match self.told {
            Some(told) => told,
            None => {
                p.send("name");
                expect_line(p, until, "name", |l| l.starts_with("name "))?;
                0
            }
        };
        let lines = Self::placements(game, told)?;
        self.set_depth(p, limits)?;
        if self.told.is_none() && game.moves().is_empty() {
            // Black's first stone: Cloudict only plays it when started as Black.
            p.send("new black");
        } else {
            if self.told.is_none() {
                p.send("new white");
            }
            for line in &lines {
                p.send(line);
            }
            p.send("next");
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
        let stones = line.strip_prefix("move ")?.trim();
        let result = answer_move(game, stones);
        if result.is_ok() {
            self.told = self.told.map(|t| t + 1);
        }
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_convert_both_ways() {
        assert_eq!(to_cloudict("j10 k11").unwrap(), "JJKI");
        assert_eq!(to_cloudict("j10").unwrap(), "JJ");
        assert_eq!(from_cloudict("JJKI").unwrap(), "j10 k11");
        // One stone comes back row first.
        assert_eq!(from_cloudict("IA").unwrap(), to_canonical_one("AI"));
        assert!(from_cloudict("J").is_err());
        assert!(from_cloudict("JJK").is_err());
        assert!(from_cloudict("ZZZZ").is_err());
    }

    fn to_canonical_one(sau: &str) -> String {
        from_sau("connect6", sau, SIZE).unwrap()
    }
}
