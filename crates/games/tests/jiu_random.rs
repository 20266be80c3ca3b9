//! Random complete Jiu games (placement and battle, to the end) through the consistency check
//! every game must pass: clone, undo, hash, text round-trip, move text round-trip, distinct
//! moves, terminal iff no moves.

mod jiu_common;

use boyi_core::rng::SplitMix64;
use boyi_core::testing::{RandomGameStats, check_random_games};
use boyi_core::{Game, NoVariant, Side};
use boyi_games::jiu::{FLY_LIMIT, Jiu, JiuMove, Phase};

/// In battle, prefers captures (nine times in ten when there is one) so that games end by
/// the loss of pieces, through the flying endgame; elsewhere uniform.
fn capture_first(
    flying_plies: &mut usize,
) -> impl FnMut(&Jiu, &[JiuMove], &mut SplitMix64) -> usize + '_ {
    move |pos, moves, rng| {
        if pos.phase() == Phase::Battle && Side::BOTH.iter().any(|&s| pos.pieces(s) <= FLY_LIMIT) {
            *flying_plies += 1;
        }
        if pos.phase() == Phase::Battle && rng.below(10) != 0 {
            let captures: Vec<usize> = (0..moves.len())
                .filter(|&i| moves[i].captures_anything())
                .collect();
            if !captures.is_empty() {
                return captures[rng.below(captures.len())];
            }
        }
        rng.below(moves.len())
    }
}

fn run(games: usize, seed: u64) -> (RandomGameStats, usize) {
    let start = Jiu::start(&NoVariant, None).unwrap();
    let mut flying = 0;
    let stats = check_random_games(&start, games, 10_000, seed, capture_first(&mut flying));
    (stats, flying)
}

fn check(stats: &RandomGameStats, flying: usize, games: usize) {
    assert_eq!(stats.games, games);
    assert_eq!(stats.unfinished, 0, "{stats:?}");
    // Games end by the loss of pieces, and reach the flying endgame on the way.
    assert!(
        stats.finished_by(boyi_core::Reason::TooFewPieces) > games / 2,
        "{stats:?}"
    );
    assert!(
        flying > games,
        "only {flying} plies with a side that may fly"
    );
}

// 500 games in two halves, so that the test harness runs them on two threads.
#[test]
fn random_games_are_consistent_first_half() {
    let (stats, flying) = run(250, 1);
    check(&stats, flying, 250);
    eprintln!("{stats:?}, {flying} flying plies");
}

#[test]
fn random_games_are_consistent_second_half() {
    let (stats, flying) = run(250, 2);
    check(&stats, flying, 250);
    eprintln!("{stats:?}, {flying} flying plies");
}

#[test]
#[ignore = "slow tier"]
fn many_random_games_are_consistent() {
    let (stats, flying) = run(5_000, 3);
    check(&stats, flying, 5_000);
    eprintln!("{stats:?}, {flying} flying plies");
}
