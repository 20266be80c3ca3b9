//! Hand-built Jiu positions, each with its complete list of legal moves, and the end-of-game
//! rules.
//!
//! Most battle positions share a "filler": black on `a10:c14` and white on `d10:f14`, 15
//! pieces each, so that both sides have more than 14 pieces (no flying, no stronger-side
//! rule) unless a test says otherwise. With the white filler present, black's filler can only
//! step down from row 10; without it, black's column c may also step right.

mod jiu_common;

use boyi_core::{Game, NoVariant, Point, Side};
use boyi_games::jiu::{Jiu, Phase};
use jiu_common::*;

const FILL_B: &str = "a10:c14";
const FILL_W: &str = "d10:f14";

fn filler_moves_walled() -> Vec<String> {
    texts(&["a10-a9", "b10-b9", "c10-c9"])
}

fn filler_moves_open() -> Vec<String> {
    let mut v = filler_moves_walled();
    v.extend(texts(&[
        "c10-d10", "c11-d11", "c12-d12", "c13-d13", "c14-d14",
    ]));
    v
}

fn join(parts: &[Vec<String>]) -> Vec<String> {
    parts.concat()
}

#[test]
fn single_jump() {
    let pos = battle(
        &format!("{FILL_B} g4 h4"),
        &format!("{FILL_W} h5 i4 j4"),
        'b',
    );
    // h4 jumps h5 onto h6; i4 cannot be jumped (j4 is occupied), g4 is black's own.
    assert_moves(
        &pos,
        &join(&[
            filler_moves_walled(),
            texts(&["g4-f4", "g4-g3", "g4-g5", "h4-h3", "h4-h6"]),
        ]),
    );
    let mv = pos.parse_move("h4-h6").unwrap();
    assert_eq!(
        mv.jumped().map(|p| p.to_string()).collect::<Vec<_>>(),
        ["h5"]
    );
    let mut after = pos.clone();
    after.play(&mv);
    assert_eq!(after.piece_at(Point::parse("h5", 14).unwrap()), None);
    assert_eq!(after.pieces(Side::White), 17);
    assert_eq!(after.moves_without_capture(), 0);
}

#[test]
fn chained_jump_that_turns_and_may_stop_at_any_landing() {
    let pos = battle(&format!("{FILL_B} d2"), &format!("{FILL_W} d3 e4 f5"), 'b');
    // d2 → d4 (up) → f4 (right) → f6 (up); each landing is also a place to stop.
    assert_moves(
        &pos,
        &join(&[
            filler_moves_walled(),
            texts(&[
                "d2-c2",
                "d2-e2",
                "d2-d1",
                "d2-d4",
                "d2-d4-f4",
                "d2-d4-f4-f6",
            ]),
        ]),
    );
    let mut after = pos.clone();
    after.play(&pos.parse_move("d2-d4-f4").unwrap());
    assert_eq!(after.pieces(Side::White), 16);
    assert_eq!(
        after.piece_at(Point::parse("f5", 14).unwrap()),
        Some(Side::White)
    );
}

#[test]
fn chain_stopping_early_looping_back_and_one_move_per_jumped_set() {
    // A ring of four white pieces around the landings d6, f6, f4 and the origin d4: the chain
    // can go either way round, stop anywhere, or come back to its own origin. The full loop
    // both ways is one move (same landing, same jumped set), written with the smaller path.
    let pos = battle(
        &format!("{FILL_B} d4"),
        &format!("{FILL_W} d5 e6 f5 e4"),
        'b',
    );
    assert_moves(
        &pos,
        &join(&[
            filler_moves_walled(),
            texts(&[
                "d4-c4",
                "d4-d3",
                "d4-d6",
                "d4-d6-f6",
                "d4-d6-f6-f4",
                "d4-d6-f6-f4-d4",
                "d4-f4",
                "d4-f4-f6",
                "d4-f4-f6-d6",
            ]),
        ]),
    );
    let a = pos.parse_move("d4-f4-f6-d6-d4").unwrap();
    let b = pos.parse_move("d4-d6-f6-f4-d4").unwrap();
    assert_eq!(a, b);
    assert_eq!(pos.format_move(&a), "d4-d6-f6-f4-d4");
    assert_eq!(a.jumped().count(), 4);
    // Same landing f6, different jumped sets: two moves.
    assert_ne!(
        pos.parse_move("d4-d6-f6").unwrap(),
        pos.parse_move("d4-f4-f6").unwrap()
    );
    let mut after = pos.clone();
    after.play(&a);
    assert_eq!(
        after.piece_at(Point::parse("d4", 14).unwrap()),
        Some(Side::Black)
    );
    assert_eq!(after.pieces(Side::White), 15);
    // A jumped piece cannot be jumped again.
    assert!(pos.parse_move("d4-d6-d4").is_err());
}

#[test]
fn jump_ending_in_a_square() {
    // d2 jumps d3 onto d4, completing the block c4 c5 d5 d4: one more white piece goes.
    let pos = battle(
        &format!("{FILL_B} d2 c4 c5 d5"),
        &format!("{FILL_W} d3"),
        'b',
    );
    assert_moves(
        &pos,
        &join(&[
            filler_moves_walled(),
            texts(&["d2-c2", "d2-e2", "d2-d1"]),
            with_one_capture("d2-d4", FILL_W),
            texts(&["c4-b4", "c4-c3", "c4-d4", "c5-b5", "c5-c6"]),
            texts(&["d5-d6", "d5-e5", "d5-d4"]),
        ]),
    );
    assert!(
        pos.parse_move("d2-d4").is_err(),
        "the square capture is part of the move"
    );
    let mut after = pos.clone();
    after.play(&pos.parse_move("d2-d4 x e12").unwrap());
    assert_eq!(after.pieces(Side::White), 14);
}

#[test]
fn step_completing_two_squares_takes_two_pieces() {
    // d5-d4 completes c3 d3 c4 and d3 e3 e4; c4-d4 and e4-d4 complete one block each.
    let white = "k1 m1 k3 m3 m5";
    let pos = battle(&format!("{FILL_B} c3 d3 e3 c4 e4 d5"), white, 'b');
    assert_moves(
        &pos,
        &join(&[
            filler_moves_open(),
            with_two_captures("d5-d4", white),
            texts(&["d5-d6", "d5-c5", "d5-e5"]),
            texts(&["c3-c2", "c3-b3", "d3-d2", "d3-d4", "e3-e2", "e3-f3"]),
            with_one_capture("c4-d4", white),
            texts(&["c4-b4", "c4-c5"]),
            with_one_capture("e4-d4", white),
            texts(&["e4-f4", "e4-e5"]),
        ]),
    );
    // Captures may be written in any order; the canonical text lists them in point order.
    let a = pos.parse_move("d5-d4 x m5 x k1").unwrap();
    assert_eq!(a, pos.parse_move("d5-d4 x k1 x m5").unwrap());
    assert_eq!(pos.format_move(&a), "d5-d4 x k1 x m5");
    for bad in [
        "d5-d4 x k1",
        "d5-d4",
        "d5-d4 x k1 x k1",
        "d5-d4 x k1 x m5 x k3",
        "d5-d4 x k1 x c3",
        "d5-d6 x k1",
    ] {
        assert!(pos.parse_move(bad).is_err(), "{bad}");
    }
    let mut after = pos.clone();
    after.play(&a);
    assert_eq!(after.pieces(Side::White), 3);
}

#[test]
fn square_captures_when_fewer_enemy_pieces_are_left_than_squares() {
    // White has 4 pieces; black (21 pieces) is the stronger side, so its jumps need two
    // pieces or more. h2-h4-j4-j6 jumps three and completes two blocks at j6; only n1 is left
    // to take, so the move takes it alone.
    let white = "h3 i4 j5 n1";
    let pos = battle(&format!("{FILL_B} h2 i6 i7 j7 k6 k7"), white, 'b');
    assert_moves(
        &pos,
        &join(&[
            filler_moves_open(),
            texts(&["h2-g2", "h2-i2", "h2-h1", "h2-h4-j4", "h2-h4-j4-j6 x n1"]),
            texts(&["i6-h6", "i6-i5"]),
            with_one_capture("i6-j6", white),
            texts(&["i7-h7", "i7-i8", "j7-j8", "j7-j6", "k6-l6", "k6-k5"]),
            with_one_capture("k6-j6", white),
            texts(&["k7-l7", "k7-k8"]),
        ]),
    );
    let mut after = pos.clone();
    after.play(&pos.parse_move("h2-h4-j4-j6 x n1").unwrap());
    assert_eq!(after.pieces(Side::White), 0);
    let outcome = after.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
}

#[test]
fn all_enemy_pieces_jumped_leaves_nothing_for_squares() {
    // f2-h2-h4-j4-j6 jumps all four white pieces and lands in two blocks: nothing is left
    // for the squares, so the move has no captures and white is left with no piece.
    let pos = battle(&format!("{FILL_B} f2 i6 i7 j7 k6 k7"), "g2 h3 i4 j5", 'b');
    let moves = move_texts(&pos);
    for m in ["f2-h2-h4", "f2-h2-h4-j4", "f2-h2-h4-j4-j6"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
    assert!(
        !moves.contains(&"f2-h2".to_string()),
        "single jump of the stronger side"
    );
    assert!(!moves.iter().any(|m| m.starts_with("f2-h2-h4-j4-j6 x")));
    let mut after = pos.clone();
    play(&mut after, "f2-h2-h4-j4-j6");
    assert_eq!(after.pieces(Side::White), 0);
    assert_eq!(after.outcome().unwrap().winner, Some(Side::Black));
}

#[test]
fn flying_for_the_weaker_side() {
    // Black has 4 pieces (may fly), white 16. a7 can also jump a8; the jump a7-a9 and the
    // flight a7*a9 are different moves. a7*c3 completes the block b2 c2 b3 c3.
    let black = "b2 c2 b3 a7";
    let white = format!("{FILL_W} a8");
    let pos = battle(black, &white, 'b');
    let occupied: Vec<Point> = points(&format!("{black} {white}"));
    let mut expected = Vec::new();
    for from in points(black) {
        for col in 0..14u8 {
            for row in 0..14u8 {
                let to = Point::new(col, row);
                if occupied.contains(&to) {
                    continue;
                }
                let neighbour = from.col.abs_diff(col) + from.row.abs_diff(row) == 1;
                let text = format!("{from}{}{to}", if neighbour { "-" } else { "*" });
                if text == "a7*c3" {
                    expected.extend(with_one_capture("a7*c3", &white));
                } else {
                    expected.push(text);
                }
            }
        }
    }
    expected.push("a7-a9".to_string());
    assert_eq!(expected.len(), 720);
    assert_moves(&pos, &expected);
    let jump = pos.parse_move("a7-a9").unwrap();
    let flight = pos.parse_move("a7*a9").unwrap();
    assert_ne!(jump, flight);
    assert!(flight.is_flying() && !jump.is_flying());
    assert!(
        pos.parse_move("a7*a6").is_err(),
        "a move to a neighbour is a step"
    );
    // White (16 pieces) may not fly.
    let white_to_move = battle(black, &white, 'w');
    assert!(white_to_move.parse_move("a8*h1").is_err());
    assert!(move_texts(&white_to_move).iter().all(|m| !m.contains('*')));
}

#[test]
fn stronger_side_may_not_make_a_single_jump() {
    // Black has 20 pieces, white 5: black's single jumps are gone, even d2-d4 which would
    // complete a square; k2-k4-k6 (two pieces) stays.
    let black = format!("{FILL_B} d2 c4 c5 d5 k2");
    let white = "d3 k3 k5 n14 n12";
    let pos = battle(&black, white, 'b');
    assert_moves(
        &pos,
        &join(&[
            filler_moves_open(),
            texts(&["d2-c2", "d2-e2", "d2-d1"]),
            texts(&["c4-b4", "c4-c3", "c4-d4", "c5-b5", "c5-c6"]),
            texts(&["d5-d6", "d5-e5", "d5-d4"]),
            texts(&["k2-j2", "k2-l2", "k2-k1", "k2-k4-k6"]),
        ]),
    );
    assert!(pos.parse_move("k2-k4").is_err());
    // With white above 14 pieces the rule is off: single jumps are back.
    let pos = battle(&black, &format!("{white} {FILL_W}"), 'b');
    let moves = move_texts(&pos);
    for m in ["k2-k4", "k2-k4-k6", "d2-d4 x n14", "d2-d4 x k5"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
    // With both sides at 14 or fewer the rule is off too (and both may fly).
    let pos = battle("d2 c4 c5 d5 k2", white, 'b');
    let moves = move_texts(&pos);
    assert!(moves.contains(&"k2-k4".to_string()));
    assert!(moves.contains(&"d2-d4 x k5".to_string()));
}

/// The placements of a full board: white on columns a, c, e, g, i, k, m; black on the rest;
/// white first on g7, black on h8, then each side in point order.
fn striped_placements() -> Vec<String> {
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for col in 0..14u8 {
        for row in 0..14u8 {
            let p = Point::new(col, row);
            let text = p.to_string();
            if text == "g7" || text == "h8" {
                continue;
            }
            if col % 2 == 0 {
                white.push(text);
            } else {
                black.push(text);
            }
        }
    }
    let mut out = vec!["g7".to_string(), "h8".to_string()];
    for (w, b) in white.into_iter().zip(black) {
        out.push(w);
        out.push(b);
    }
    out
}

#[test]
fn first_battle_move_after_the_centre_pieces_leave() {
    let mut pos = Jiu::start(&NoVariant, None).unwrap();
    let placements = striped_placements();
    assert_eq!(placements.len(), 196);
    play(&mut pos, &placements[..195].join(","));
    assert_eq!(pos.phase(), Phase::Place);
    assert_eq!(pos.side_to_move(), Side::Black);
    play(&mut pos, &placements[195]);
    // The 196th placement (black's) fills the board; g7 and h8 leave; black moves again.
    assert_eq!(pos.phase(), Phase::Battle);
    assert_eq!(pos.side_to_move(), Side::Black);
    assert_eq!(pos.pieces(Side::Black), 97);
    assert_eq!(pos.pieces(Side::White), 97);
    for p in ["g7", "h8"] {
        assert_eq!(pos.piece_at(Point::parse(p, 14).unwrap()), None);
    }
    // Steps into g7 and h8, and jumps over g8 and i8 (white) onto h8.
    assert_moves(
        &pos,
        &texts(&["f7-g7", "f8-h8", "h7-g7", "h7-h8", "h9-h8", "j8-h8"]),
    );
    let text = pos.to_text();
    assert!(text.ends_with(" b battle 196 0"), "{text}");
    // Undo restores the full board and the placement phase.
    assert!(pos.undo());
    assert_eq!(pos.phase(), Phase::Place);
    assert_eq!(pos.pieces(Side::Black) + pos.pieces(Side::White), 195);
    assert_eq!(move_texts(&pos), [placements[195].clone()]);
}

#[test]
fn placement_opening() {
    let mut pos = Jiu::start(&NoVariant, None).unwrap();
    assert_eq!(pos.side_to_move(), Side::White);
    assert_moves(&pos, &texts(&["g7", "h8"]));
    assert!(pos.parse_move("a1").is_err());
    play(&mut pos, "h8");
    assert_eq!(pos.side_to_move(), Side::Black);
    assert_moves(&pos, &texts(&["g7"]));
    assert!(pos.parse_move("h8").is_err());
    assert!(pos.parse_move("a1").is_err());
    play(&mut pos, "g7");
    assert_eq!(pos.side_to_move(), Side::White);
    assert_eq!(pos.legal_moves().len(), 194);
    assert!(pos.parse_move("g7").is_err(), "occupied");
    assert!(
        pos.parse_move("g6-g7").is_err(),
        "nothing moves while placing"
    );
    let mut other = Jiu::start(&NoVariant, None).unwrap();
    play(&mut other, "g7");
    assert_moves(&other, &texts(&["h8"]));
    assert!(Jiu::start(&NoVariant, Some(15)).is_err());
    assert!(Jiu::start(&NoVariant, Some(14)).is_ok());
}

#[test]
fn dropping_below_four_pieces_loses() {
    let mut pos = battle("d2 a1 a3 a5", "d3 n14 n12 n10", 'b');
    assert!(pos.outcome().is_none());
    play(&mut pos, "d2-d4");
    assert_eq!(pos.pieces(Side::White), 3);
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.reason, boyi_core::Reason::TooFewPieces);
    assert!(pos.legal_moves().is_empty());
    // Checked first: even with white to move and moves available, three pieces lose.
    let pos = battle("d2 a1 a3 a5", "n14 n12 n10", 'w');
    assert_eq!(pos.outcome().unwrap().winner, Some(Side::Black));
    assert!(pos.legal_moves().is_empty());
    // Four pieces are enough to play on.
    assert!(
        battle("d2 a1 a3 a5", "n14 n12 n10 n8", 'w')
            .outcome()
            .is_none()
    );
}

#[test]
fn no_legal_move_loses() {
    // Black fills rows 1-2, white rows 3-4: black has no empty neighbour and no jump (row 4
    // backs row 3), and with 28 pieces it may not fly.
    let pos = battle("a1:n2", "a3:n4", 'b');
    assert!(pos.legal_moves().is_empty());
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::White));
    assert_eq!(outcome.reason, boyi_core::Reason::NoLegalMove);
    let pos = battle("a1:n2", "a3:n4", 'w');
    assert!(pos.outcome().is_none());
    assert_eq!(pos.legal_moves().len(), 14);
}

#[test]
fn hundred_plies_without_capture_draw() {
    let black = "a1 c1 e1 g1";
    let white = "a14 c14 e14 g14 g2";
    let mut pos = battle_quiet(black, white, 'b', 99);
    assert!(pos.outcome().is_none());
    play(&mut pos, "a1-a2");
    assert_eq!(pos.moves_without_capture(), 100);
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, boyi_core::Reason::MoveCountRule);
    assert!(pos.legal_moves().is_empty());
    // A capture on the 100th ply resets the count instead.
    let mut pos = battle_quiet(black, white, 'b', 99);
    play(&mut pos, "g1-g3");
    assert_eq!(pos.moves_without_capture(), 0);
    assert!(pos.outcome().is_none());
    // Read from text: 100 is a finished game, 101 is not a position.
    let drawn = battle_quiet(black, white, 'w', 100);
    assert!(drawn.legal_moves().is_empty());
    assert_eq!(drawn.outcome().unwrap().winner, None);
    let text = format!("{} b battle 196 101", rows(black, white));
    assert!(Jiu::from_text(&NoVariant, &text).is_err());
}

#[test]
fn third_repetition_draws() {
    let mut pos = battle("a1 c1 e1 g1", "a14 c14 e14 g14", 'b');
    let start = pos.hash();
    play(&mut pos, "a1-a2,a14-a13,a2-a1,a13-a14");
    assert_eq!(pos.hash(), start);
    assert!(pos.outcome().is_none(), "second occurrence");
    play(&mut pos, "a1-a2,a14-a13,a2-a1");
    assert!(pos.outcome().is_none());
    play(&mut pos, "a13-a14");
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, boyi_core::Reason::Repetition);
    assert!(pos.legal_moves().is_empty());
    assert!(pos.undo());
    assert!(pos.outcome().is_none());
    // A position read from text starts a fresh history.
    let reread = Jiu::from_text(&NoVariant, &pos.to_text()).unwrap();
    assert_eq!(reread.history_len(), 0);
}

#[test]
fn position_text_round_trip_and_errors() {
    let start = Jiu::start(&NoVariant, None).unwrap();
    assert_eq!(
        start.to_text(),
        "14/14/14/14/14/14/14/14/14/14/14/14/14/14 w place 0 0"
    );
    let mut pos = start.clone();
    play(&mut pos, "g7,h8,a1");
    let text = pos.to_text();
    assert_eq!(
        text,
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o13 b place 3 0"
    );
    let back = Jiu::from_text(&NoVariant, &text).unwrap();
    assert_eq!(back.to_text(), text);
    assert_eq!(back.hash(), pos.hash());
    for bad in [
        "",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o13 b place 3",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o13 w place 3 0",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o13 b place 4 0",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o13 b place 3 1",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o13 b fight 3 0",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o13 b battle 3 0",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o13  b place 3 0",
        "14/14/14/14/14/14/14/7o6/14/14/14/14/14/14 b place 1 0",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o12 b place 3 0",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o14 b place 3 0",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14 b place 3 0",
        "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o13 b place 03 0",
    ] {
        assert!(Jiu::from_text(&NoVariant, bad).is_err(), "{bad:?}");
    }
}
