//! Tests of the principal-variation search.

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
        tt_entries: 1 << 10,
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
    assert_eq!(table_entries(1 << 22, None), 1 << 22);
    assert_eq!(table_entries(3 << 20, None), 1 << 21);
    // 80 MB: half of it holds 2.5 million entries of 16 bytes; a power of two fewer.
    assert_eq!(table_entries(1 << 22, Some(80 << 20)), 1 << 21);
    assert_eq!(table_entries(1 << 22, Some(1)), 1 << 10);
    let mut e = Engine::new(Config {
        tt_entries: 1 << 20,
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
    assert_eq!(e.tt.len(), 1 << 18);
    e.search(&mut b, &limits(None), &stop, &mut |_, _| {});
    assert_eq!(e.tt.len(), 1 << 20);
}

#[test]
fn a_narrow_root_widens_when_every_move_it_searched_loses() {
    // Black to move in a renju game; its best-ordered candidate loses to white's attack.
    let moves = "e7,h10,e9,e8,d8,f10,f6,c9,g10,g5,g7,d7,f5,f8,h8,i9,g11,f7,f11,g9,e12,h9";
    let mut b = board(Variant::Renju, moves);
    // The earlier search's narrow root (`algo=1`; the selective search sees the loss
    // only deeper).
    let mut e = Engine::new(Config {
        tt_entries: 1 << 16,
        root_width: 1,
        algo: 1,
        ..Config::default()
    });
    let first = e.root_moves(&mut b)[0];
    let found = e
        .search(&mut b, &Limits::depth(3), &StopFlag::new(), &mut |_, _| {})
        .unwrap();
    assert!(e.lost.contains(&first));
    assert_ne!(found.best, first);
    assert!(found.value > -WIN_BOUND, "{}", found.value);
}

fn at(b: &EngineBoard, p: &str) -> usize {
    b.index(Point::parse(p, b.size()).unwrap())
}

#[test]
fn a_null_move_cuts_only_a_quiet_null_window_node_above_beta() {
    // With the evaluation symmetric in the two sides, a pass in a quiet position keeps
    // its value, so the cut below is the null move's alone.
    let mut e = Engine::new(Config {
        tt_entries: 1 << 10,
        null_r: 2,
        eval: 2,
        defence: 100,
        ..Config::default()
    });
    // Black to move, one stone each, far apart: no threat anywhere.
    let mut b = board(Variant::Freestyle, "h8,a1");
    let beta = e.static_value(&mut b) - 500;
    assert_eq!(e.null_move(&mut b, 3, 1, beta - 1, beta, false), Some(beta));
    // Not in a principal variation, not below depth 2, not above the static value, not
    // when the opponent threatens a win, not twice in a row.
    assert_eq!(e.null_move(&mut b, 3, 1, beta - 10, beta, false), None);
    assert_eq!(e.null_move(&mut b, 1, 1, beta - 1, beta, false), None);
    let high = e.static_value(&mut b) + 1;
    assert_eq!(e.null_move(&mut b, 3, 1, high - 1, high, false), None);
    assert_eq!(e.null_move(&mut b, 3, 1, beta - 1, beta, true), None);
    b.pass();
    let beta = e.static_value(&mut b) - 500;
    assert_eq!(e.null_move(&mut b, 3, 1, beta - 1, beta, false), None);
    // White could make two open threes at i8 were black to pass: no null move, however
    // far below the static value beta lies.
    let mut b = board(Variant::Freestyle, "a1,g8,a15,h8,o1,i6,o15,i7");
    assert_eq!(b.threat(at(&b, "i8"), Side::White), Threat::DoubleThree);
    let beta = e.static_value(&mut b) - 5000;
    assert_eq!(e.null_move(&mut b, 3, 1, beta - 1, beta, false), None);
    // With the option off nothing is cut.
    let mut b = board(Variant::Freestyle, "h8,a1");
    e.config.null_r = 0;
    let beta = e.static_value(&mut b) - 500;
    assert_eq!(e.null_move(&mut b, 3, 1, beta - 1, beta, false), None);
}

#[test]
fn late_quiet_moves_are_pruned_near_the_leaves_only() {
    let mut e = Engine::new(Config {
        tt_entries: 1 << 10,
        move_count: 4,
        ..Config::default()
    });
    // Black to move with two stones in a row: g8 makes an open three, a15 nothing.
    let b = board(Variant::Freestyle, "h8,a1,i8,a2");
    let (three, quiet) = (at(&b, "g8"), at(&b, "a15"));
    assert!(e.late_quiet(&b, quiet, 4, 1, false));
    assert!(e.late_quiet(&b, quiet, 8, 2, false));
    assert!(!e.late_quiet(&b, quiet, 7, 2, false));
    assert!(!e.late_quiet(&b, quiet, 3, 1, false));
    assert!(!e.late_quiet(&b, quiet, 10, 3, false));
    assert!(!e.late_quiet(&b, quiet, 10, 1, true));
    assert!(!e.late_quiet(&b, three, 10, 1, false));
    // Blocking the opponent's three point is no quiet move either: white to move.
    let b = board(Variant::Freestyle, "h8,a1,i8");
    assert!(!e.late_quiet(&b, at(&b, "g8"), 10, 1, false));
    e.config.move_count = 0;
    let b = board(Variant::Freestyle, "h8,a1,i8,a2");
    assert!(!e.late_quiet(&b, quiet, 10, 1, false));
}

#[test]
fn the_policy_reduces_and_prunes_only_when_ordering_and_asked_to() {
    let mut e = Engine::new(Config {
        tt_entries: 1 << 10,
        policy: false,
        policy_reduce: 200,
        policy_prune: 500,
        ..Config::default()
    });
    let b = board(Variant::Freestyle, "h8,a1,i8,a2");
    let (three, quiet) = (at(&b, "g8"), at(&b, "a15"));
    // Without the fitted order the gaps mean nothing.
    assert_eq!(e.policy_reduction(false, 5, 1000), 0);
    assert!(!e.policy_pruned(&b, quiet, 3, 2, false, 1000));
    e.config.policy = true;
    assert_eq!(e.policy_reduction(false, 5, 199), 0);
    assert_eq!(e.policy_reduction(false, 5, 399), 1);
    assert_eq!(e.policy_reduction(false, 5, 5000), 3);
    assert_eq!(e.policy_reduction(true, 5, 5000), 0);
    assert_eq!(e.policy_reduction(false, 1, 5000), 0);
    assert!(e.policy_pruned(&b, quiet, 3, 2, false, 501));
    assert!(!e.policy_pruned(&b, quiet, 3, 2, false, 500));
    assert!(!e.policy_pruned(&b, quiet, 3, 4, false, 501));
    assert!(!e.policy_pruned(&b, quiet, 3, 2, true, 501));
    assert!(!e.policy_pruned(&b, quiet, 0, 2, false, 501));
    assert!(!e.policy_pruned(&b, three, 3, 2, false, 501));
    e.config.policy_prune = 0;
    assert!(!e.policy_pruned(&b, quiet, 3, 2, false, 5000));
}

#[test]
fn futility_cuts_or_narrows_only_quiet_null_window_nodes_near_the_leaves() {
    let mut e = Engine::new(Config {
        tt_entries: 1 << 10,
        rfp: 40,
        rfp_depth: 5,
        futility: 40,
        futility_depth: 3,
        razor: 0,
        fail_high: 0,
        ..Config::default()
    });
    let cut = ControlFlow::Break;
    let futile = Narrow {
        futile: true,
        shallower: false,
    };
    let (narrow, full) = (
        ControlFlow::Continue(futile),
        ControlFlow::Continue(Narrow::default()),
    );
    // Black to move, one stone each, far apart: no threat anywhere.
    let mut b = board(Variant::Freestyle, "h8,a1");
    let s = e.static_value(&mut b);
    // Reverse futility: 40 a ply above beta cuts, from depth 1 to 5.
    assert_eq!(e.futility(&mut b, 3, s - 121, s - 120, false), cut(s));
    assert_eq!(e.futility(&mut b, 3, s - 120, s - 119, false), full);
    assert_eq!(e.futility(&mut b, 5, s - 201, s - 200, false), cut(s));
    assert_eq!(e.futility(&mut b, 6, s - 1001, s - 1000, false), full);
    // Futility: 40 a ply below alpha leaves the threats only, from depth 1 to 3.
    assert_eq!(e.futility(&mut b, 2, s + 80, s + 81, false), narrow);
    assert_eq!(e.futility(&mut b, 2, s + 79, s + 80, false), full);
    assert_eq!(e.futility(&mut b, 4, s + 1000, s + 1001, false), full);
    // Neither in a principal variation, near mate scores, nor when the opponent threatens
    // a four-three or better.
    assert_eq!(e.futility(&mut b, 3, s - 500, s - 120, false), full);
    assert_eq!(e.futility(&mut b, 2, s + 80, s + 500, false), full);
    assert_eq!(e.futility(&mut b, 3, s - 121, s - 120, true), full);
    let mate = WIN_BOUND + 1;
    assert_eq!(e.futility(&mut b, 2, -mate - 1, -mate, false), full);
    // Nor when white could make two open threes at i8 were black to pass.
    let mut b = board(Variant::Freestyle, "a1,g8,a15,h8,o1,i6,o15,i7");
    assert_eq!(b.threat(at(&b, "i8"), Side::White), Threat::DoubleThree);
    let s = e.static_value(&mut b);
    assert_eq!(e.futility(&mut b, 1, s - 1001, s - 1000, false), full);
    // With the options off nothing changes.
    let mut b = board(Variant::Freestyle, "h8,a1");
    let s = e.static_value(&mut b);
    (e.config.rfp, e.config.futility) = (0, 0);
    assert_eq!(e.futility(&mut b, 1, s - 1001, s - 1000, false), full);
    assert_eq!(e.futility(&mut b, 1, s + 1000, s + 1001, false), full);
}

#[test]
fn razoring_and_the_fail_high_reduction_need_a_quiet_null_window_node() {
    let mut e = Engine::new(Config {
        tt_entries: 1 << 10,
        rfp: 0,
        futility: 0,
        razor: 40,
        fail_high: 15,
        ..Config::default()
    });
    let full = ControlFlow::Continue(Narrow::default());
    let shallower = ControlFlow::Continue(Narrow {
        futile: false,
        shallower: true,
    });
    let mut b = board(Variant::Freestyle, "h8,a1");
    let s = e.static_value(&mut b);
    // Razoring: 40 a ply below alpha returns the static value, at depth 1 and 2 only.
    assert_eq!(
        e.futility(&mut b, 2, s + 81, s + 82, false),
        ControlFlow::Break(s)
    );
    assert_eq!(e.futility(&mut b, 2, s + 80, s + 81, false), full);
    assert_eq!(
        e.futility(&mut b, 1, s + 41, s + 42, false),
        ControlFlow::Break(s)
    );
    assert_eq!(e.futility(&mut b, 3, s + 1000, s + 1001, false), full);
    // The fail-high reduction: 15 a ply above beta, at any depth.
    assert_eq!(e.futility(&mut b, 6, s - 91, s - 90, false), shallower);
    assert_eq!(e.futility(&mut b, 6, s - 90, s - 89, false), full);
    assert_eq!(e.futility(&mut b, 1, s - 16, s - 15, false), shallower);
    // Neither in a principal variation nor against a threatened four-three.
    assert_eq!(e.futility(&mut b, 2, s + 81, s + 500, false), full);
    assert_eq!(e.futility(&mut b, 6, s - 500, s - 90, false), full);
    assert_eq!(e.futility(&mut b, 6, s - 91, s - 90, true), full);
    // No razoring for a side with a four to make: black's open three h8-j8.
    let mut b = board(Variant::Freestyle, "h8,a1,i8,a3,j8,a5");
    assert!(b.count_at_least(Side::Black, Threat::Four) > 0);
    let s = e.static_value(&mut b);
    assert_eq!(e.futility(&mut b, 2, s + 500, s + 501, false), full);
    // With the options off nothing changes.
    let mut b = board(Variant::Freestyle, "h8,a1");
    let s = e.static_value(&mut b);
    (e.config.razor, e.config.fail_high) = (0, 0);
    assert_eq!(e.futility(&mut b, 1, s + 1000, s + 1001, false), full);
    assert_eq!(e.futility(&mut b, 6, s - 1001, s - 1000, false), full);
}

#[test]
fn history_orders_the_kept_moves_but_the_table_move_stays_first() {
    let mut e = Engine::new(Config {
        tt_entries: 1 << 10,
        ..Config::default()
    });
    e.history = vec![[0; 2]; 8];
    e.history[3][Side::Black.index()] = 4000;
    let mut moves = vec![(5, i32::MAX), (2, 300), (3, 100), (4, 50)];
    e.order_by_history(&mut moves, Side::Black);
    let order: Vec<usize> = moves.iter().map(|m| m.0).collect();
    assert_eq!(order, [5, 3, 2, 4]);
    // White's history is its own.
    let mut moves = vec![(2, 300), (3, 100)];
    e.order_by_history(&mut moves, Side::White);
    assert_eq!(moves[0].0, 2);
}
