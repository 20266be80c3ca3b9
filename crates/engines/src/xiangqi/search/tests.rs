//! Tests of the Xiangqi search.

use super::*;

use crate::player::Limits;
use crate::xiangqi::eval::DEFAULT_WEIGHTS;
use boyi_core::{Game, NoVariant};
use boyi_games::xiangqi::Xiangqi;

/// The repetition verdict at the last position of `record` (each position's hash, as a
/// small number, and whether the move into it gave check; red to move at the last one),
/// `ply` plies after the root.
fn verdict(record: &[(u64, bool)], ply: usize) -> Option<i32> {
    let game = Xiangqi::start(&NoVariant, None).unwrap();
    let marks = record
        .iter()
        .map(|&(hash, check)| PlyMark { hash, check })
        .collect();
    let root = Root {
        board: game.board().clone(),
        marks,
        clock: record.len() as u32,
        moves: MoveList::new(),
    };
    let tt = Tt::new(1);
    let tm = TimeManager::new(&Limits::depth(1), Side::White, &crate::StopFlag::new(), 1);
    let shared = Shared {
        tt: &tt,
        tm: &tm,
        halt: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
    };
    let style = Style {
        weights: DEFAULT_WEIGHTS,
        noise: 0,
        seed: 0,
        max_depth: 10,
        contempt: 7,
    };
    let s = Searcher::new(&root, &shared, style, true, Memory::new());
    s.repetition(root.clock, ply)
}

/// Positions 1 2 3 4 1 (…): red made the moves into 1 and 3, black into 2 and 4.
fn cycle(laps: usize, red_checks: bool, black_checks: bool) -> Vec<(u64, bool)> {
    let mut record = vec![(1, false)];
    for _ in 0..laps {
        record.extend([
            (2, red_checks),
            (3, black_checks),
            (4, red_checks),
            (1, black_checks),
        ]);
    }
    record
}

#[test]
fn a_second_occurrence_on_the_search_line_is_judged_a_lap_later() {
    // The cycle began at the root (ply 4) or later: judged, ending at ply 4 + 4.
    assert_eq!(verdict(&cycle(1, true, false), 4), Some(-(MATE - 8)));
    assert_eq!(verdict(&cycle(1, false, true), 4), Some(MATE - 8));
    assert_eq!(verdict(&cycle(1, true, false), 6), Some(-(MATE - 10)));
    // Root at this position's side to move: a draw is worth less than nothing.
    assert_eq!(verdict(&cycle(1, true, true), 4), Some(-7));
    assert_eq!(verdict(&cycle(1, false, false), 4), Some(-7));
}

#[test]
fn a_second_occurrence_of_a_position_before_the_root_ends_nothing() {
    assert_eq!(verdict(&cycle(1, true, false), 3), None);
    assert_eq!(verdict(&cycle(1, false, true), 1), None);
    assert_eq!(verdict(&[(1, false), (2, true)], 1), None);
}

#[test]
fn a_third_occurrence_is_judged_at_once_from_the_first() {
    assert_eq!(verdict(&cycle(2, true, false), 1), Some(-(MATE - 1)));
    assert_eq!(verdict(&cycle(2, false, true), 2), Some(MATE - 2));
    assert_eq!(verdict(&cycle(2, true, true), 1), Some(-7));
    // Red checked with every move of the second lap only: the game's cycle runs from the
    // first occurrence, so it is a draw.
    let mut record = cycle(1, false, false);
    record.extend_from_slice(&cycle(1, true, false)[1..]);
    assert_eq!(verdict(&record, 1), Some(-7));
}
