//! Tests of the selective search.

use super::super::Config;
use super::super::tests::board;
use super::*;
use crate::player::{Limits, StopFlag};
use boyi_core::{Game, Point};
use boyi_games::gomoku::Gomoku;

fn engine() -> Engine {
    Engine::new(Config {
        hash: 1,
        ..Config::default()
    })
}

fn at(b: &EngineBoard, p: &str) -> usize {
    b.index(Point::parse(p, b.size()).unwrap())
}

/// Black to move: h5 makes a four (e5–h5, d5 white) and an open three (h5–h7).
const FOUR_THREE: &str = "e5,d5,f5,a1,g5,o15,h6,a15,h7,o1";

#[test]
fn an_unanswerable_four_three_is_a_win() {
    let mut b = board(Variant::Freestyle, FOUR_THREE);
    let h5 = at(&b, "h5");
    assert_eq!(b.threat(h5, Side::Black), Threat::FourThree);
    let mut e = engine();
    assert_eq!(e.quick_win(&mut b, 0), Some(MATE - 5));
    // Under the exact-five rule the threat counts are not trusted with it.
    let mut b = board(Variant::Standard, FOUR_THREE);
    assert_eq!(e.quick_win(&mut b, 0), None);
}

#[test]
fn a_four_three_whose_block_makes_a_four_is_no_quick_win() {
    // White's i6–i8 (i9 black) becomes a four when white blocks h5's four on i5.
    let moves = "e5,d5,f5,i6,g5,i7,h6,i8,h7,o1,i9,a1";
    let mut b = board(Variant::Freestyle, moves);
    assert_eq!(b.side(), Side::Black);
    assert_eq!(b.threat(at(&b, "h5"), Side::Black), Threat::FourThree);
    assert!(b.threat(at(&b, "i5"), Side::White) >= Threat::Four);
    assert_eq!(engine().quick_win(&mut b, 0), None);
    // With the same four point of white's elsewhere, the block makes nothing: a win.
    let moves = "e5,d5,f5,m12,g5,m13,h6,m14,h7,o1,m15,a1";
    let mut b = board(Variant::Freestyle, moves);
    assert!(b.count_at_least(Side::White, Threat::Four) > 0);
    assert_eq!(engine().quick_win(&mut b, 2), Some(MATE - 7));
}

#[test]
fn a_double_three_wins_only_against_no_four() {
    // Black to move: j8 makes h8–j8 and j6–j8, both open.
    let moves = "h8,a1,i8,o15,j6,a15,j7,o1";
    let mut b = board(Variant::Freestyle, moves);
    assert_eq!(b.threat(at(&b, "j8"), Side::Black), Threat::DoubleThree);
    let mut e = engine();
    assert_eq!(e.quick_win(&mut b, 0), Some(MATE - 5));
    // Forbidden to black in renju.
    let mut b = board(Variant::Renju, moves);
    assert_eq!(e.quick_win(&mut b, 0), None);
    // A white four to interrupt with (m11 or m15, by the open three m12–m14): no quick win.
    let moves = "h8,m12,i8,m13,j6,m14,j7,o1";
    let mut b = board(Variant::Freestyle, moves);
    assert_eq!(b.side(), Side::Black);
    assert!(b.count_at_least(Side::White, Threat::Four) > 0);
    assert_eq!(e.quick_win(&mut b, 0), None);
}

#[test]
fn the_selective_search_finds_wins_blocks_and_keeps_the_board() {
    let stop = StopFlag::new();
    for (variant, moves, best) in [
        // Black makes five (g8 is white's).
        (Variant::Freestyle, "h8,g8,i8,a3,j8,a5,k8,a7", "l8"),
        // White must block black's four (g8 is white's: the four is closed).
        (Variant::Freestyle, "h8,g8,i8,a1,j8,a3,k8", "l8"),
        // Black's four-three.
        (Variant::Freestyle, FOUR_THREE, "h5"),
        (Variant::Renju, FOUR_THREE, "h5"),
    ] {
        let mut b = board(variant, moves);
        let key = b.hash();
        let mut e = engine();
        let found = e
            .search(&mut b, &Limits::depth(6), &stop, &mut |_, _| {})
            .unwrap();
        assert_eq!(b.point(found.best).to_string(), best, "{variant} {moves}");
        assert_eq!(b.hash(), key);
        assert!(b.consistent());
    }
}

#[test]
fn the_selective_search_keeps_to_the_rules_over_random_positions() {
    let stop = StopFlag::new();
    let mut rng = boyi_core::rng::SplitMix64::new(11);
    for variant in [Variant::Freestyle, Variant::Standard, Variant::Renju] {
        let mut p = Gomoku::start(&variant, Some(15)).unwrap();
        let mut e = engine();
        for _ in 0..40 {
            if p.outcome().is_some() {
                break;
            }
            let mut b = EngineBoard::from_game(&p);
            let key = b.hash();
            let limits = Limits {
                nodes: Some(3_000),
                ..Limits::default()
            };
            let found = e.search(&mut b, &limits, &stop, &mut |_, _| {}).unwrap();
            assert_eq!(b.hash(), key);
            let m = b.point(found.best);
            let legal = p.legal_moves();
            let chosen = p.parse_move(&m.to_string()).unwrap();
            assert!(legal.contains(&chosen), "{variant}: {m} is not legal");
            // Half the moves random, so the positions vary.
            let mv = if rng.below(2) == 0 {
                legal[rng.below(legal.len())]
            } else {
                chosen
            };
            p.play(&mv);
        }
    }
}
