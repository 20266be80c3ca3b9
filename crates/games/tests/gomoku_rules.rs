//! Hand-built Gomoku rule cases: fives and overlines per variant, renju forbidden points,
//! passes, full board, position text.

use boyi_core::{Game, Point, Side};
use boyi_games::gomoku::{Gomoku, Move, Variant};
use boyi_games::grid::{BLACK, Board, WHITE};

fn pt(s: &str) -> Point {
    Point::parse(s, 15).unwrap()
}

/// A 15×15 position with the given stones and side to move.
fn pos(variant: Variant, black: &str, white: &str, side: Side) -> Gomoku {
    let mut b = Board::new(15);
    for p in black.split_whitespace() {
        b.set(pt(p), BLACK);
    }
    for p in white.split_whitespace() {
        b.set(pt(p), WHITE);
    }
    let text = format!("{} {}", b.format_rows(), side.letter());
    Gomoku::from_text(&variant, &text).unwrap()
}

fn renju(black: &str, white: &str) -> Gomoku {
    pos(Variant::Renju, black, white, Side::Black)
}

fn forbidden(black: &str, white: &str, at: &str) -> bool {
    let g = renju(black, white);
    let f = g.is_forbidden(pt(at));
    // The move list and the move parser agree with the point test.
    assert_eq!(
        !f,
        g.legal_moves().contains(&Move::Stone(pt(at))),
        "move list at {at}"
    );
    assert_eq!(!f, g.parse_move(at).is_ok(), "parser at {at}");
    f
}

fn play(g: &mut Gomoku, at: &str) {
    let mv = g.parse_move(at).unwrap();
    g.play(&mv);
}

#[test]
fn five_wins_in_every_variant() {
    for v in [Variant::Freestyle, Variant::Standard, Variant::Renju] {
        for side in Side::BOTH {
            let (mine, theirs) = ("d8 e8 f8 g8", "d2 e2 f2 g2");
            let (b, w) = if side == Side::Black {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let mut g = pos(v, b, w, side);
            play(&mut g, "h8");
            let o = g.outcome().expect("five ends the game");
            assert_eq!(o.winner, Some(side), "{v} {side:?}");
            assert!(g.legal_moves().is_empty());
        }
    }
}

#[test]
fn overline_by_variant() {
    // Six in a row made by h8: d8 e8 f8 g8 + h8 + i8.
    let line = "d8 e8 f8 g8 i8";
    let other = "d2 e2 f2 a2 b2";
    for (v, side, wins) in [
        (Variant::Freestyle, Side::Black, true),
        (Variant::Freestyle, Side::White, true),
        (Variant::Standard, Side::Black, false),
        (Variant::Standard, Side::White, false),
        (Variant::Renju, Side::White, true),
    ] {
        let (b, w) = if side == Side::Black {
            (line, other)
        } else {
            (other, line)
        };
        let mut g = pos(v, b, w, side);
        play(&mut g, "h8");
        assert_eq!(g.outcome().is_some(), wins, "{v} {side:?}");
    }
    // Renju black: the overline point is forbidden.
    assert!(forbidden(line, "", "h8"));
}

#[test]
fn renju_double_three_is_forbidden() {
    assert!(forbidden("f8 g8 h6 h7", "", "h8"));
    // Diagonal threes.
    assert!(forbidden("g7 f6 i7 j6", "", "h8"));
    // A split three `x.xx` counts.
    assert!(forbidden("e8 g8 h6 h7", "", "h8"));
    // The same shape is fine for white and in freestyle.
    let mut w = pos(Variant::Renju, "a1 a3 c1", "f8 g8 h6 h7", Side::White);
    assert!(w.parse_move("h8").is_ok());
    play(&mut w, "h8");
    let fs = pos(Variant::Freestyle, "f8 g8 h6 h7", "", Side::Black);
    assert!(fs.parse_move("h8").is_ok());
}

#[test]
fn renju_double_four_is_forbidden() {
    assert!(forbidden("e8 f8 g8 h5 h6 h7", "", "h8"));
    // Blocked fours count as fours too.
    assert!(forbidden("e8 f8 g8 h5 h6 h7", "d8 h4", "h8"));
}

#[test]
fn renju_one_line_double_fours() {
    // x.xxx.x with the new stone in the middle of xxx.
    assert!(forbidden("d8 f8 h8 j8", "", "g8"));
    // xx.xx.xx
    assert!(forbidden("c8 d8 g8 i8 j8", "", "f8"));
    // xxx.x.xxx
    assert!(forbidden("b8 c8 d8 h8 i8 j8", "", "f8"));
    // A straight four .xxxx. is one four, not two.
    assert!(!forbidden("e8 f8 g8", "", "h8"));
}

#[test]
fn renju_four_three_is_allowed() {
    assert!(!forbidden("e8 f8 g8 h6 h7", "", "h8"));
}

#[test]
fn renju_blocked_three_is_not_a_three() {
    // White on e8 blocks the horizontal three: only one real three.
    assert!(!forbidden("f8 g8 h6 h7", "e8", "h8"));
    // The board edge blocks a three as well.
    assert!(!forbidden("a8 b8 c6 c7", "", "c8"));
}

#[test]
fn renju_three_whose_straight_fours_would_be_overlines_is_fake() {
    // x..xxx..x: each straight four would end next to a stone that makes six.
    assert!(!forbidden("c8 f8 g8 k8 h6 h7", "", "h8"));
    // Without the outer stones it is a double-three.
    assert!(forbidden("f8 g8 h6 h7", "", "h8"));
}

#[test]
fn renju_three_whose_four_point_is_forbidden_is_fake() {
    // Horizontal f8 g8 h8 can only become a straight four at e8 (white j8 spoils i8), and e8
    // is an overline point for black: the horizontal three is fake, so h8 is allowed.
    let column_e = "e6 e7 e9 e10 e11";
    assert!(!forbidden(&format!("f8 g8 h6 h7 {column_e}"), "j8", "h8"));
    // Without the e column, both threes are real.
    assert!(forbidden("f8 g8 h6 h7", "j8", "h8"));
}

#[test]
fn renju_recursive_fake_three_through_double_three() {
    // As above, but e8 is forbidden as a four-three-three (a double-three) once h8 stands.
    let around_e8 = "e9 e10 f9 g10";
    assert!(!forbidden(&format!("f8 g8 h6 h7 {around_e8}"), "j8", "h8"));
    let mut g = renju(&format!("f8 g8 h6 h7 {around_e8}"), "j8");
    play(&mut g, "h8");
    play(&mut g, "a1");
    assert!(
        g.is_forbidden(pt("e8")),
        "e8 is a double-three once h8 stands"
    );
}

#[test]
fn renju_five_beats_forbidden() {
    // h8 makes five horizontally and fours in two other lines: a double-four that wins.
    let mut g = renju("e8 f8 g8 i8 h5 h6 h7 e5 f6 g7", "a1 a2 a3");
    assert!(!g.is_forbidden(pt("h8")));
    play(&mut g, "h8");
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Black));
    // Five in one line and six in another: still a win.
    let mut g = renju("e8 f8 g8 i8 h4 h5 h6 h7 h9", "a1 a2 a3");
    play(&mut g, "h8");
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Black));
}

#[test]
fn renju_forbidden_points_are_not_listed() {
    let g = renju("f8 g8 h6 h7", "");
    let moves = g.legal_moves();
    assert!(!moves.contains(&Move::Stone(pt("h8"))));
    assert_eq!(
        moves.len(),
        225 - 4 - 1 + 1,
        "every other empty point and pass"
    );
    let err = g.parse_move("h8").unwrap_err();
    assert!(err.0.contains("forbidden"), "{err}");
}

#[test]
fn the_recent_stones_are_read_back_from_the_last_move() {
    let mut g = Gomoku::start(&Variant::Freestyle, None).unwrap();
    assert_eq!(g.recent_stone(0), None);
    play(&mut g, "h8");
    play(&mut g, "pass");
    play(&mut g, "i9");
    assert_eq!(g.last_stone(), Some(pt("i9")));
    assert_eq!(g.recent_stone(0), Some(pt("i9")));
    assert_eq!(g.recent_stone(1), None, "a pass is no stone");
    assert_eq!(g.recent_stone(2), Some(pt("h8")));
    assert_eq!(g.recent_stone(3), None);
    g.undo();
    assert_eq!(g.recent_stone(1), Some(pt("h8")));
}

#[test]
fn pass_twice_is_a_draw() {
    let mut g = Gomoku::start(&Variant::Freestyle, None).unwrap();
    play(&mut g, "pass");
    assert_eq!(
        g.to_text(),
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 w 1"
    );
    assert!(g.outcome().is_none());
    play(&mut g, "h8");
    assert!(
        g.to_text().ends_with(" b"),
        "a stone clears the pending pass"
    );
    play(&mut g, "pass");
    play(&mut g, "pass");
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, None);
    assert!(g.legal_moves().is_empty());
}

#[test]
fn full_board_is_a_draw() {
    // 5×5 filled in a pattern without five in a row, last point left for black.
    let rows = "xxoox/ooxxo/xxoox/ooxxo/xxoo1";
    let mut g = Gomoku::from_text(&Variant::Freestyle, &format!("{rows} b")).unwrap();
    assert_eq!(g.legal_moves().len(), 2);
    play(&mut g, "e1");
    assert_eq!(g.outcome().unwrap().reason, boyi_core::Reason::FullBoard);
    assert_eq!(g.outcome().unwrap().winner, None);
}

#[test]
fn text_examples_and_errors() {
    let mut g = Gomoku::start(&Variant::Freestyle, None).unwrap();
    assert_eq!(
        g.to_text(),
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b"
    );
    play(&mut g, "H8");
    assert_eq!(
        g.to_text(),
        "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w"
    );
    for (bad, says) in [
        ("15/15 b", "rows"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x", "side"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/14 b", "row 1"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b 2", "passes"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15", "fields"),
        ("5/5/5/5/xxxxx b", "five"),
        ("5/5/5/5/07 b", "start at 1"),
        ("5/5/5/5/4X b", "unexpected"),
    ] {
        let err = Gomoku::from_text(&Variant::Freestyle, bad).unwrap_err();
        assert!(err.0.contains(says), "{bad}: {err}");
    }
    // The side that just moved may hold a five: the game is over.
    let done = Gomoku::from_text(&Variant::Freestyle, "5/5/5/5/xxxxx w").unwrap();
    assert_eq!(done.outcome().unwrap().winner, Some(Side::Black));
    for (bad, says) in [
        ("h8 ", "row"),
        ("z1", "column"),
        ("h16", "row"),
        ("", "empty"),
    ] {
        let err = g.parse_move(bad).unwrap_err();
        assert!(err.0.contains(says), "{bad:?}: {err}");
    }
    assert!(g.parse_move("h8").unwrap_err().0.contains("occupied"));
    assert!(Gomoku::start(&Variant::Freestyle, Some(4)).is_err());
    assert!(Gomoku::start(&Variant::Freestyle, Some(27)).is_err());
    assert!("swap".parse::<Variant>().is_err());
}

#[test]
fn perft_from_the_empty_board() {
    let mut g = Gomoku::start(&Variant::Freestyle, None).unwrap();
    assert_eq!(g.perft(1), 226);
    // 225 stones then 224 + pass, plus pass then 225 + pass.
    assert_eq!(g.perft(2), 225 * 225 + 226);
    assert_eq!(g.perft(3), 11_390_850);
    let mut r = Gomoku::start(&Variant::Renju, None).unwrap();
    assert_eq!(
        r.perft(3),
        11_390_850,
        "no forbidden point within three plies"
    );
}

#[test]
fn renju_forbidden_points_say_why() {
    use boyi_games::gomoku::renju::Forbidden;
    let why = |black: &str, at: &str| renju(black, "").forbidden(pt(at));
    assert_eq!(why("f8 g8 h6 h7", "h8"), Some(Forbidden::DoubleThree));
    assert_eq!(why("e8 f8 g8 h5 h6 h7", "h8"), Some(Forbidden::DoubleFour));
    assert_eq!(why("c8 d8 e8 g8 h8", "f8"), Some(Forbidden::Overline));
    assert_eq!(why("e8 f8 g8", "h8"), None);
    // A five beats a forbidden shape; occupied points and other rules have no reason.
    assert_eq!(why("d8 e8 f8 g8 h6 h7 h5", "h8"), None);
    assert_eq!(renju("h8", "").forbidden(pt("h8")), None);
    let fs = pos(Variant::Freestyle, "f8 g8 h6 h7", "", Side::Black);
    assert_eq!(fs.forbidden(pt("h8")), None);
    assert_eq!(Forbidden::DoubleThree.name(), "double-three");
}
