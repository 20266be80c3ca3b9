//! Hand-built Connect6 rule cases: one then two stones, six at once (even on the first stone
//! of a turn), the move-identity rule, full board under both variants, position text.

use boyi_core::{Game, Point, Side};
use boyi_games::connect6::{Connect6, Move, Variant};
use boyi_games::grid::{BLACK, Board, WHITE};

fn pt(s: &str) -> Point {
    Point::parse(s, 19).unwrap()
}

fn pos(variant: Variant, size: usize, black: &str, white: &str, side: Side) -> Connect6 {
    let mut b = Board::new(size);
    for p in black.split_whitespace() {
        b.set(Point::parse(p, size).unwrap(), BLACK);
    }
    for p in white.split_whitespace() {
        b.set(Point::parse(p, size).unwrap(), WHITE);
    }
    Connect6::from_text(&variant, &format!("{} {}", b.format_rows(), side.letter())).unwrap()
}

fn play(g: &mut Connect6, text: &str) {
    let mv = g.parse_move(text).unwrap();
    g.play(&mv);
}

#[test]
fn one_stone_then_two() {
    let mut g = Connect6::start(&Variant::Fives, None).unwrap();
    assert_eq!(g.stones_this_turn(), 1);
    assert_eq!(g.legal_moves().len(), 361);
    assert!(g.parse_move("j10 k10").unwrap_err().0.contains("one stone"));
    play(&mut g, "j10");
    assert_eq!(g.side_to_move(), Side::White);
    assert!(g.parse_move("k10").unwrap_err().0.contains("two stones"));
    assert_eq!(g.legal_moves().len(), 360 * 359 / 2);
    // Either order, one canonical text.
    let mv = g.parse_move("k11 j11").unwrap();
    assert_eq!(g.format_move(&mv), "j11 k11");
    g.play(&mv);
    assert_eq!(g.side_to_move(), Side::Black);
    assert_eq!(g.stones_this_turn(), 2);
    assert!(g.parse_move("a1 a1").unwrap_err().0.contains("twice"));
    assert!(g.parse_move("j10 a1").unwrap_err().0.contains("occupied"));
    assert!(g.parse_move("a1 a2 a3").is_err());
}

#[test]
fn six_on_the_first_stone_of_a_turn_is_a_one_stone_move() {
    // Black has five in a row with both ends open; white has stones elsewhere.
    let g = pos(
        Variant::Fives,
        19,
        "c5 d5 e5 f5 g5",
        "a19 b19 c19 d19 s1 s2",
        Side::Black,
    );
    let moves = g.legal_moves();
    let ones: Vec<&Move> = moves.iter().filter(|m| matches!(m, Move::One(_))).collect();
    assert_eq!(ones, [&Move::One(pt("b5")), &Move::One(pt("h5"))]);
    // No pair contains a stone that wins on its own.
    assert!(moves.iter().all(|m| match m {
        Move::Two(a, b) => ![*a, *b].contains(&pt("b5")) && ![*a, *b].contains(&pt("h5")),
        Move::One(_) => true,
    }));
    let empties = 361 - 11 - 2;
    assert_eq!(moves.len(), 2 + empties * (empties - 1) / 2);
    assert!(
        g.parse_move("h5 a1")
            .unwrap_err()
            .0
            .contains("wins on its own")
    );
    let mut g2 = g.clone();
    play(&mut g2, "h5");
    assert_eq!(g2.outcome().unwrap().winner, Some(Side::Black));
    assert!(g2.legal_moves().is_empty());
}

#[test]
fn six_made_by_two_stones_and_overlines_win() {
    let mut g = pos(
        Variant::Fives,
        19,
        "c5 d5 e5 f5",
        "a19 b19 c19 d19 s1",
        Side::Black,
    );
    play(&mut g, "g5 h5");
    assert_eq!(g.outcome().unwrap().reason, boyi_core::Reason::Six);
    // Seven in a row wins too (for white here).
    let mut g = pos(
        Variant::Icga,
        19,
        "a1 a3 a5 a7 a9 a11 a13",
        "c5 d5 e5 g5 h5 i5",
        Side::White,
    );
    assert!(g.parse_move("f5").is_ok(), "f5 makes seven on its own");
    play(&mut g, "f5");
    assert_eq!(g.outcome().unwrap().winner, Some(Side::White));
}

#[test]
fn full_board_fives_and_icga() {
    // 6×6, all full but f1. Rows (top first) avoid any six.
    let rows = "xxxxxo/oooooo/xxxxxo/oxoxox/xoxoxo/ooxxx1";
    // White's six on row 5 has already won; black to move cannot play.
    let over = Connect6::from_text(&Variant::Fives, &format!("{rows} b")).unwrap();
    assert_eq!(over.outcome().unwrap().winner, Some(Side::White));
    assert!(over.legal_moves().is_empty());
    let err = Connect6::from_text(&Variant::Fives, &format!("{rows} w")).unwrap_err();
    assert!(err.0.contains("already has six"), "{err}");
    // Black's lines of exactly five: rows 6 and 4; white's: row 5. f1 makes row 1 `ooxxxx`.
    let rows = "xxxxxo/ooooox/xxxxxo/oxoxox/xoxoxo/ooxxx1";
    let mut g = Connect6::from_text(&Variant::Fives, &format!("{rows} b")).unwrap();
    assert_eq!(g.legal_moves(), [Move::One(Point::parse("f1", 6).unwrap())]);
    play(&mut g, "f1");
    assert_eq!((g.fives(Side::Black), g.fives(Side::White)), (2, 1));
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Black));
    let mut g = Connect6::from_text(&Variant::Icga, &format!("{rows} b")).unwrap();
    play(&mut g, "f1");
    assert_eq!(g.outcome().unwrap().winner, None);
    // Equal fives: white wins under `fives`.
    let rows = "xxxxxo/ooooox/xxooxx/ooxxoo/xxooxx/ooxxo1";
    let mut g = Connect6::from_text(&Variant::Fives, &format!("{rows} w")).unwrap();
    play(&mut g, "f1");
    assert_eq!((g.fives(Side::Black), g.fives(Side::White)), (1, 1));
    assert_eq!(g.outcome().unwrap().winner, Some(Side::White));
}

#[test]
fn text_examples_and_errors() {
    let mut g = Connect6::start(&Variant::Fives, None).unwrap();
    assert_eq!(g.to_text(), ["19"; 19].join("/") + " b");
    play(&mut g, "j10");
    assert_eq!(g.to_text().split('/').nth(9), Some("9x9"));
    assert!(g.to_text().ends_with(" w"));
    let empty = ["19"; 19].join("/");
    for (bad, says) in [
        (format!("{empty} w"), "first stone"),
        (format!("{empty} b 1"), "fields"),
        ("5/5/5/5/5 b".to_string(), "rows"),
    ] {
        let err = Connect6::from_text(&Variant::Fives, &bad).unwrap_err();
        assert!(err.0.contains(says), "{bad}: {err}");
    }
    assert!("gomoku".parse::<Variant>().is_err());
}

#[test]
fn perft_from_the_empty_board() {
    let mut g = Connect6::start(&Variant::Fives, None).unwrap();
    assert_eq!(g.perft(1), 361);
    assert_eq!(g.perft(2), 361 * (360 * 359 / 2));
}
