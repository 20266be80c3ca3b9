//! Tests of the search's root, table, time and evaluation.

use super::*;
use boyi_core::Game;
use boyi_games::gomoku::{Gomoku, Variant};

pub(super) fn board(variant: Variant, moves: &str) -> EngineBoard {
    let mut p = Gomoku::start(&variant, Some(15)).unwrap();
    p.play_list(moves).unwrap();
    EngineBoard::from_game(&p)
}

#[test]
fn keep_legal_keeps_the_best_legal_moves_in_full_sort_order() {
    // Black to move in renju, with e8 and i8 (two fours) among its forbidden points.
    let moves = "f8,a1,g8,a3,h8,a5,e9,o1,e10,o3,e11,e12,i9,i12,i10,o5,i11,a7";
    let mut b = board(Variant::Renju, moves);
    let zone: Vec<usize> = b.zone().collect();
    for p in ["e8", "i8"] {
        let i = b.index(Point::parse(p, 15).unwrap());
        assert!(zone.contains(&i) && !b.is_legal_for(i, Side::Black), "{p}");
    }
    let mut rng = boyi_core::rng::SplitMix64::new(3);
    for round in 0..200 {
        // Few distinct scores, so ties are common; the forbidden points often rank high.
        let scored: Vec<(usize, i32)> = zone
            .iter()
            .map(|&i| (i, rng.below(4 + round % 8) as i32))
            .collect();
        let mut sorted = scored.clone();
        sorted.sort_by_key(|&(i, s)| (std::cmp::Reverse(s), i));
        for limit in [1, 2, 3, 8, 18, zone.len() - 1, zone.len(), usize::MAX] {
            let mut expected = Vec::new();
            let mut seen = 0;
            for &mv in &sorted {
                if expected.len() == limit {
                    break;
                }
                seen += 1;
                if b.is_legal_for(mv.0, Side::Black) {
                    expected.push(mv);
                }
            }
            let mut got = scored.clone();
            let all = keep_legal(&mut b, &mut got, limit);
            assert_eq!(got, expected, "limit {limit}");
            assert_eq!(all, seen == sorted.len(), "limit {limit}");
        }
    }
}

#[test]
fn a_double_three_to_move_is_initiative() {
    // White to move can make two open threes at h8; black has no four to interrupt.
    let mut b = board(Variant::Freestyle, "k13,f8,a1,g8,o1,h6,a15,h7,o15");
    assert_eq!(initiative(&b, Side::White), INIT_D3);
    // With black to move the double three is only a tempo to spend on stopping it.
    b.pass();
    assert_eq!(initiative(&b, Side::Black), -INIT_OPP_D3);
}

#[test]
fn black_threats_on_forbidden_points_cost_white_nothing_in_renju() {
    // Black's f8-g8-h8 would become a straight four on e8 or i8, but each also makes a
    // four in its column: two fours, forbidden in renju, so white owes no answer. In
    // freestyle both points win for black.
    let moves = "f8,a1,g8,a3,h8,a5,e9,o1,e10,o3,e11,e12,i9,i12,i10,o5,i11";
    let mut renju = board(Variant::Renju, moves);
    assert!(renju.count(Side::Black, Threat::FlexFour) > 0);
    assert_eq!(threat_balance(&mut renju, Side::White), 0);
    let mut freestyle = board(Variant::Freestyle, moves);
    assert!(threat_balance(&mut freestyle, Side::White) <= HAND_THREAT_WEIGHTS[6]);
}

#[test]
fn black_double_threes_are_no_initiative_in_renju() {
    let moves = "f8,k13,g8,a1,h6,o1,h7,a15";
    assert_eq!(
        initiative(&board(Variant::Freestyle, moves), Side::Black),
        INIT_D3
    );
    assert_eq!(initiative(&board(Variant::Renju, moves), Side::Black), 0);
}

#[test]
fn threats_are_judged_by_who_moves() {
    // White to move can make a four-free double three at h8: nearly a win. With black to
    // move the same double three costs black a tempo to stop.
    let mut b = board(Variant::Freestyle, "k13,f8,a1,g8,o1,h6,a15,h7,o15");
    assert_eq!(threat_balance(&mut b, Side::White), HAND_THREAT_WEIGHTS[3]);
    b.pass();
    assert_eq!(threat_balance(&mut b, Side::Black), HAND_THREAT_WEIGHTS[8]);
    // The line sums leave the threat bonuses out.
    assert!(line_sum(&b, Side::White) < b.sums()[Side::White.index()]);
    // Black's double three is forbidden in renju: worth nothing.
    let moves = "f8,k13,g8,a1,h6,o1,h7,a15";
    assert_eq!(
        threat_balance(&mut board(Variant::Renju, moves), Side::Black),
        0
    );
}

#[test]
fn a_new_iteration_starts_until_most_of_the_time_is_spent() {
    let ms = Duration::from_millis;
    let mut e = Engine::new(Config {
        hash: 1,
        ..Config::default()
    });
    let full = Some(ms(100));
    // Not threatened: the main search has the whole budget.
    assert!(!e.out_of_time(ms(90), full, full));
    assert!(e.out_of_time(ms(96), full, full));
    e.config.iter_start = 55;
    assert!(!e.out_of_time(ms(50), full, full));
    assert!(e.out_of_time(ms(60), full, full));
    // Threatened: the main search has three quarters of it.
    assert!(!e.out_of_time(ms(50), Some(ms(75)), full));
    assert!(e.out_of_time(ms(76), Some(ms(75)), full));
    // The old rule stopped at half of the main search's share.
    e.config.time_use = false;
    assert!(e.out_of_time(ms(50), Some(ms(75)), full));
    assert!(!e.out_of_time(ms(30), Some(ms(75)), full));
}

#[test]
fn the_table_keeps_within_half_of_a_memory_limit() {
    assert_eq!(table_bytes(64, None), 64 << 20);
    // 80 MB: half of it.
    assert_eq!(table_bytes(64, Some(80 << 20)), 40 << 20);
    assert_eq!(table_bytes(64, Some(1001)), 16 << 10);
    let mut e = Engine::new(Config {
        hash: 16,
        ..Config::default()
    });
    let mut b = board(Variant::Freestyle, "h8,h9");
    let limits = |memory| Limits {
        depth: Some(2),
        memory,
        ..Limits::default()
    };
    let stop = StopFlag::new();
    e.search(&mut b, &limits(Some(8 << 20)), &stop, &mut |_, _| {});
    assert_eq!(e.tt.bytes(), 4 << 20);
    e.search(&mut b, &limits(None), &stop, &mut |_, _| {});
    assert_eq!(e.tt.bytes(), 16 << 20);
}

#[test]
fn a_narrow_root_widens_when_every_move_it_searched_loses() {
    // Black to move in a renju game; its best-ordered candidate loses to white's attack, and
    // from depth 7 the search finds every move lost (a mate in twelve plies).
    let moves = "e7,h10,e9,e8,d8,f10,f6,c9,g10,g5,g7,d7,f5,f8,h8,i9,g11,f7,f11,g9,e12,h9";
    let mut b = board(Variant::Renju, moves);
    let mut e = Engine::new(Config {
        hash: 1,
        root_width: 1,
        ..Config::default()
    });
    let first = e.root_moves(&mut b)[0];
    let found = e
        .search(&mut b, &Limits::depth(7), &StopFlag::new(), &mut |_, _| {})
        .unwrap();
    assert!(found.value < -WIN_BOUND, "{}", found.value);
    assert!(e.lost.contains(&first));
    // The moves past the root's width of one were searched too, and found lost.
    assert!(e.lost.len() > 1, "{:?}", e.lost);
}
