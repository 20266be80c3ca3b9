//! Openings: the positions games start from, each played twice with colours swapped.
//! `--random-plies P` plays P random legal plies from the start position; `--openings FILE`
//! reads one opening per line, either a position text or a comma-separated move list from
//! the start position (blank lines and lines starting with `#` are skipped).

use boyi_core::rng::SplitMix64;
use boyi_core::{Game, TextError};
use boyi_engines::GameHistory;

/// `count` openings of `plies` random plies each (fewer if every try ends the game).
pub fn random_openings<G: Game>(
    start: &G,
    plies: usize,
    count: usize,
    seed: u64,
) -> Vec<GameHistory<G>> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| random_opening(start, plies, &mut rng))
        .collect()
}

fn random_opening<G: Game>(start: &G, plies: usize, rng: &mut SplitMix64) -> GameHistory<G> {
    let mut longest = GameHistory::new(start.clone());
    for _ in 0..100 {
        let mut game = GameHistory::new(start.clone());
        while game.moves().len() < plies {
            let moves = game.current().legal_moves();
            if moves.is_empty() {
                break;
            }
            game.push(moves[rng.below(moves.len())].clone());
        }
        if game.current().outcome().is_none() {
            if game.moves().len() == plies {
                return game;
            }
            if game.moves().len() > longest.moves().len() {
                longest = game;
            }
        }
    }
    longest
}

/// Reads an openings file's text.
pub fn parse_openings<G: Game>(start: &G, text: &str) -> Result<Vec<GameHistory<G>>, TextError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let game =
            opening_line(start, line).map_err(|e| e.context(format!("openings line {}", i + 1)))?;
        if game.current().outcome().is_some() {
            return Err(text_err!(
                "openings line {}: the game is already over",
                i + 1
            ));
        }
        out.push(game);
    }
    if out.is_empty() {
        return Err(text_err!("the openings file has no opening"));
    }
    Ok(out)
}

fn opening_line<G: Game>(start: &G, line: &str) -> Result<GameHistory<G>, TextError> {
    if let Ok(pos) = G::from_text(start.variant(), line) {
        return Ok(GameHistory::new(pos));
    }
    let mut game = GameHistory::new(start.clone());
    for (i, m) in line.split(',').enumerate() {
        game.push_text(m.trim()).map_err(|e| {
            e.context(format!(
                "not a position, and move {} ({:?})",
                i + 1,
                m.trim()
            ))
        })?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::NoVariant;
    use boyi_engines::tictactoe::TicTacToe;

    #[test]
    fn random_openings_are_reproducible_and_unfinished() {
        let start = TicTacToe::start(&NoVariant, None).unwrap();
        let a = random_openings(&start, 3, 5, 9);
        let b = random_openings(&start, 3, 5, 9);
        assert_eq!(
            a.iter().map(|g| g.move_texts()).collect::<Vec<_>>(),
            b.iter().map(|g| g.move_texts()).collect::<Vec<_>>()
        );
        assert!(
            a.iter()
                .all(|g| g.moves().len() == 3 && g.current().outcome().is_none())
        );
        // Seven plies always leave a game unfinished somewhere; nine never do.
        assert!(
            random_openings(&start, 9, 3, 1)
                .iter()
                .all(|g| g.current().outcome().is_none())
        );
    }

    #[test]
    fn openings_file_lines() {
        let start = TicTacToe::start(&NoVariant, None).unwrap();
        let ok = parse_openings(&start, "# comment\n\na1,b2\n3/1x1/3 w\n").unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(ok[0].move_texts(), vec!["a1", "b2"]);
        assert_eq!(ok[1].current().to_text(), "3/1x1/3 w");
        let err = parse_openings(&start, "a1,a1\n").unwrap_err().to_string();
        assert!(
            err.contains("openings line 1") && err.contains("move 2"),
            "{err}"
        );
        assert!(
            parse_openings(&start, "a1,a2,b1,b2,c1\n")
                .unwrap_err()
                .to_string()
                .contains("already over")
        );
        assert!(parse_openings(&start, "# nothing\n").is_err());
    }
}
