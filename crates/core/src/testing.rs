//! The random-game consistency check every game must pass (after OpenSpiel's): play random
//! games and, after every move, check the invariants of [`crate::Game`].
//!
//! It panics with the game, ply and position text of the first violation, so a failing test
//! names a position to reproduce.

use crate::rng::SplitMix64;
use crate::{Game, Outcome, Reason};
use std::collections::HashSet;

/// What a run saw, for tests that want to check their games reached interesting places.
#[derive(Debug, Default, Clone)]
pub struct RandomGameStats {
    pub games: usize,
    pub plies: usize,
    /// Finished games by outcome reason.
    pub reasons: Vec<(Reason, usize)>,
    /// Games stopped by `max_plies` before they ended.
    pub unfinished: usize,
}

impl RandomGameStats {
    fn count(&mut self, outcome: Option<Outcome>) {
        match outcome {
            None => self.unfinished += 1,
            Some(o) => match self.reasons.iter_mut().find(|(r, _)| *r == o.reason) {
                Some((_, n)) => *n += 1,
                None => self.reasons.push((o.reason, 1)),
            },
        }
    }

    pub fn finished_by(&self, reason: Reason) -> usize {
        self.reasons
            .iter()
            .filter(|(r, _)| *r == reason)
            .map(|(_, n)| n)
            .sum()
    }
}

/// Plays `games` random games from `start` (at most `max_plies` plies each) and checks after
/// every move:
/// - clone equals original; undo restores an equal position, hash and text;
/// - the incremental hash equals the hash computed from scratch;
/// - the position text round-trips (text and hash);
/// - legal moves are distinct and each move's text parses back to the same move;
/// - the game is over iff there are no legal moves;
/// - replaying the move list from the start gives the same position and outcome.
///
/// `pick` chooses the index of the move to play among `n` legal moves; `uniform` is the
/// plain choice, games with long random games may prefer captures or progress.
pub fn check_random_games<G: Game>(
    start: &G,
    games: usize,
    max_plies: usize,
    seed: u64,
    mut pick: impl FnMut(&G, &[G::Move], &mut SplitMix64) -> usize,
) -> RandomGameStats {
    let mut rng = SplitMix64::new(seed);
    let mut stats = RandomGameStats::default();
    let mut moves = Vec::new();
    for game in 0..games {
        let mut pos = start.clone();
        let mut played: Vec<G::Move> = Vec::new();
        check_position(&pos, &mut moves, game);
        while !moves.is_empty() && played.len() < max_plies {
            let mv = moves[pick(&pos, &moves, &mut rng)].clone();
            let before = pos.clone();
            pos.play(&mv);
            assert!(pos.undo(), "game {game}: undo failed after {mv:?}");
            assert_eq!(
                pos, before,
                "game {game}: undo of {mv:?} changed the position"
            );
            assert_eq!(pos.hash(), before.hash());
            pos.play(&mv);
            played.push(mv);
            stats.plies += 1;
            check_position(&pos, &mut moves, game);
        }
        stats.games += 1;
        stats.count(pos.outcome());
        let mut replay = start.clone();
        for mv in &played {
            replay.play(mv);
        }
        assert_eq!(replay, pos, "game {game}: replay differs");
        assert_eq!(
            replay.outcome(),
            pos.outcome(),
            "game {game}: replay outcome differs"
        );
        let mut undone = pos.clone();
        for _ in 0..played.len() {
            assert!(undone.undo(), "game {game}: undo ran out");
        }
        assert_eq!(
            &undone, start,
            "game {game}: undoing every move does not give the start"
        );
    }
    stats
}

/// Uniform random choice, for [`check_random_games`].
pub fn uniform<G: Game>(_: &G, moves: &[G::Move], rng: &mut SplitMix64) -> usize {
    rng.below(moves.len())
}

/// At most this many moves per position have their text round-trip checked.
const TEXT_CHECKS_PER_POSITION: usize = 1024;

fn check_position<G: Game>(pos: &G, moves: &mut Vec<G::Move>, game: usize) {
    let text = pos.to_text();
    let at = || format!("game {game}, ply {}, position {text}", pos.history_len());
    assert_eq!(&pos.clone(), pos, "{}: clone differs", at());
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "{}: incremental hash differs",
        at()
    );
    let reread = G::from_text(pos.variant(), &text)
        .unwrap_or_else(|e| panic!("{}: own text does not parse: {e}", at()));
    assert_eq!(reread.to_text(), text, "{}: text does not round-trip", at());
    assert_eq!(reread.hash(), pos.hash(), "{}: re-read hash differs", at());
    moves.clear();
    pos.generate_moves(moves);
    assert_eq!(
        moves.is_empty(),
        pos.outcome().is_some(),
        "{}: outcome {:?} with {} legal moves",
        at(),
        pos.outcome(),
        moves.len()
    );
    let mut seen = HashSet::with_capacity(moves.len());
    for mv in moves.iter() {
        assert!(seen.insert(mv), "{}: duplicate move {mv:?}", at());
    }
    // Text round-trips of every move, or of an even sample where there are very many
    // (a Connect6 turn has tens of thousands of pairs).
    let stride = moves.len().div_ceil(TEXT_CHECKS_PER_POSITION).max(1);
    for mv in moves.iter().step_by(stride) {
        let s = pos.format_move(mv);
        match pos.parse_move(&s) {
            Ok(back) => assert_eq!(&back, mv, "{}: {s:?} parses to another move", at()),
            Err(e) => panic!("{}: move text {s:?} does not parse: {e}", at()),
        }
    }
}
