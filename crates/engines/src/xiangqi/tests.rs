//! Tests of the Xiangqi players through the Player interface.

use super::*;
use crate::player::{Info, Limits, Score, StopFlag};
use crate::registry::build;
use boyi_core::{Game, NoVariant};

fn history(fen: &str) -> GameHistory<Xiangqi> {
    GameHistory::new(Xiangqi::from_text(&NoVariant, fen).unwrap())
}

fn best(spec: &str, fen: &str, limits: Limits) -> (String, Option<Score>) {
    let mut player = build::<Xiangqi>(spec, BuildContext::default()).unwrap();
    let game = history(fen);
    let mut score = None;
    let mv = player
        .choose(&game, &limits, &StopFlag::new(), &mut |i: Info| {
            if i.score.is_some() {
                score = i.score;
            }
        })
        .unwrap();
    (game.current().format_move(&mv), score)
}

const HANGING: &str = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8r/RNBAKABNR w - - 0 1";

#[test]
fn both_players_take_a_hanging_chariot() {
    // The black chariot on i1 can be taken by the red chariot on i0.
    for spec in [
        "strong",
        "seed004?depth=2",
        "strong?level=20,threads=2,hash=8",
    ] {
        let (mv, _) = best(spec, HANGING, Limits::depth(4));
        assert_eq!(mv, "i0i1", "{spec}");
    }
}

#[test]
fn both_players_mate_in_one() {
    // The chariot a1 checks on rank 9 (mate), or the chariot b8 shuts the king in on c8
    // (no legal move: a loss too).
    let fen = "3k5/1R7/9/9/9/9/9/9/R8/4K4 w - - 0 1";
    for (spec, limits) in [
        ("strong", Limits::depth(3)),
        ("seed004?depth=1", Limits::default()),
    ] {
        let (mv, score) = best(spec, fen, limits);
        assert!(["a1a9", "b8c8"].contains(&mv.as_str()), "{spec} {mv}");
        if spec == "strong" {
            assert_eq!(score, Some(Score::Mate(1)));
        }
    }
}

#[test]
fn weak_levels_and_limits_still_play_legal_moves() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let pos = Xiangqi::from_text(&NoVariant, start).unwrap();
    let nodes = Limits {
        nodes: Some(2000),
        ..Limits::default()
    };
    for (spec, limits) in [
        ("strong?level=0", Limits::depth(3)),
        ("strong?level=7", nodes.clone()),
        ("strong?depth=2", Limits::default()),
    ] {
        let (mv, _) = best(spec, start, limits);
        assert!(pos.is_legal(&pos.parse_move(&mv).unwrap()), "{spec}");
    }
}

#[test]
fn banned_moves_are_not_played() {
    let limits = Limits {
        depth: Some(3),
        banned: vec!["i0i1".to_string()],
        ..Limits::default()
    };
    let (mv, _) = best("strong", HANGING, limits);
    assert_ne!(mv, "i0i1");
}

#[test]
fn options_are_checked() {
    let err = |s| {
        build::<Xiangqi>(s, BuildContext::default())
            .err()
            .unwrap()
            .to_string()
    };
    assert!(err("strong?level=21").contains("0 to 20"));
    assert!(err("strong?hsah=2").contains("no option"));
    assert!(err("seed004?depth=x").contains("not a valid number"));
    assert!(err("strong?chariot_mg=big").contains("not a valid number"));
    assert!(build::<Xiangqi>("strong?chariot_mg=990,tempo=8", BuildContext::default()).is_ok());
}

#[test]
fn the_option_table_defaults_are_the_engine_defaults() {
    let defaults = config(&PLAYERS[0].parse_text("strong").unwrap());
    assert_eq!(format!("{defaults:?}"), format!("{:?}", Config::default()));
    let c = config(
        &PLAYERS[0]
            .parse_text("strong?chariot_mg=1234,threads=2")
            .unwrap(),
    );
    assert_eq!(c.threads, 2);
    assert_eq!(c.weights.0[eval::w::index("chariot_mg").unwrap()], 1234);
}

#[test]
fn spec_weights_reads_the_named_weights_and_refuses_bad_ones() {
    let chariot = eval::w::index("chariot_mg").unwrap();
    let king_attack = eval::w::index("king_attack").unwrap();
    for spec in [
        "boyi:strong?chariot_mg=1234,king_attack=0",
        "strong?chariot_mg=1234,king_attack=0",
        "chariot_mg=1234,king_attack=0",
    ] {
        let w = spec_weights(spec).unwrap();
        assert_eq!((w.0[chariot], w.0[king_attack]), (1234, 0), "{spec}");
    }
    assert_eq!(spec_weights("strong").unwrap().0, eval::DEFAULT_WEIGHTS.0);
    for bad in ["no_such_weight=3", "chariot_mg=many", "chariot_mg"] {
        assert!(spec_weights(bad).is_err(), "{bad}");
    }
}

#[test]
fn quiet_move_memory_carries_over_halved_between_moves_not_between_games() {
    let mut engine = Strong::new(Config {
        threads: 2,
        hash_mb: 4,
        ..Config::default()
    });
    let game = Xiangqi::start(&NoVariant, None).unwrap();
    let root = root_of(&game, &game.legal_moves());
    let tm = |d| {
        TimeManager::new(
            &Limits::depth(d),
            boyi_core::Side::White,
            &StopFlag::new(),
            d,
        )
    };
    engine.run(&root, &tm(6), &mut |_| {});
    assert_eq!(engine.memory.len(), 2, "one memory a thread");
    for m in engine.memory.iter_mut() {
        assert!(
            m.history.0.iter().flatten().any(|&v| v != 0),
            "quiet cut-offs scored"
        );
        // Slot 0 is the red king, which never reaches a corner: no search writes this entry.
        m.history.0[0][0] = 1000;
    }
    engine.run(&root, &tm(2), &mut |_| {});
    for m in &engine.memory {
        assert_eq!(m.history.0[0][0], 500, "kept, and halved at the next move");
    }
    engine.new_game();
    assert!(
        engine.memory.is_empty(),
        "a new game starts with nothing learned"
    );
}
