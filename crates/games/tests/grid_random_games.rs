//! The random-game consistency check (boyi_core::testing) for Gomoku and Connect6: 1000+
//! complete random games per variant over several board sizes.

use boyi_core::testing::{check_random_games, uniform};
use boyi_core::{Game, rng::SplitMix64};
use boyi_games::connect6::{self, Connect6};
use boyi_games::gomoku::{self, Gomoku, Move};

/// Random stones; a pass one time in fifty, so pass rules are exercised without making every
/// game a two-pass draw.
fn rarely_pass(_: &Gomoku, moves: &[Move], rng: &mut SplitMix64) -> usize {
    let pass = moves.len() - 1;
    if moves.len() > 1 && rng.below(50) != 0 {
        rng.below(pass)
    } else {
        rng.below(moves.len())
    }
}

fn gomoku_games(variant: gomoku::Variant) {
    let mut games = 0;
    for (size, n) in [(5, 300), (7, 300), (9, 250), (11, 100), (15, 60)] {
        let start = Gomoku::start(&variant, Some(size)).unwrap();
        let stats = check_random_games(&start, n, usize::MAX, size as u64 * 7919, rarely_pass);
        assert_eq!(stats.unfinished, 0);
        assert!(
            stats.finished_by(boyi_core::Reason::Five) > 0,
            "{variant} {size}: {stats:?}"
        );
        games += stats.games;
    }
    assert!(games >= 1000);
}

#[test]
fn gomoku_freestyle_random_games() {
    gomoku_games(gomoku::Variant::Freestyle);
}

#[test]
fn gomoku_standard_random_games() {
    gomoku_games(gomoku::Variant::Standard);
}

#[test]
fn gomoku_renju_random_games() {
    gomoku_games(gomoku::Variant::Renju);
}

fn connect6_games(variant: connect6::Variant) {
    let mut games = 0;
    for (size, n) in [(6, 400), (7, 300), (8, 200), (10, 80), (12, 30), (19, 3)] {
        let start = Connect6::start(&variant, Some(size)).unwrap();
        let stats = check_random_games(&start, n, usize::MAX, size as u64 * 104_729, uniform);
        assert_eq!(stats.unfinished, 0);
        games += stats.games;
        if size <= 8 {
            assert!(
                stats.finished_by(boyi_core::Reason::Six) > 0,
                "{variant} {size}: {stats:?}"
            );
            let full = stats.finished_by(boyi_core::Reason::FullBoard);
            assert!(full > 0, "{variant} {size}: {stats:?}");
        }
    }
    assert!(games >= 1000);
}

#[test]
fn connect6_fives_random_games() {
    connect6_games(connect6::Variant::Fives);
}

#[test]
fn connect6_icga_random_games() {
    connect6_games(connect6::Variant::Icga);
}
