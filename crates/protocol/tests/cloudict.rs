//! Driving a Cloudict engine: a scripted stand-in that answers like the program (help text
//! first, `move JJ` when started as Black, answers only to `next`) and logs what it was sent.

use boyi_core::Game;
use boyi_engines::{GameHistory, Limits, Player, StopFlag};
use boyi_games::connect6::Connect6;
use boyi_protocol::Protocol;
use boyi_protocol::driver::ExternalOptions;
use std::path::Path;

/// A stand-in engine: prints help, answers `name`, `new black` and `next` (with `reply`), and
/// appends every line it reads to `log`.
fn fake_engine(log: &Path, reply: &str) -> Box<dyn Player<Connect6>> {
    let script = format!(
        "echo 'Cloudict help text'; while read l; do echo \"$l\" >> {log}; case \"$l\" in \
         name) echo 'name Fake.Connect6';; 'new black') echo 'move JJ';; \
         next) echo 'Searching...'; echo 'move {reply}';; quit) exit 0;; esac; done",
        log = log.display()
    );
    let command = format!("sh -c \"{}\"", script.replace('"', "\\\""));
    boyi_protocol::external::<Connect6>(&command, Protocol::Cloudict, ExternalOptions::default())
        .unwrap()
}

fn start() -> Connect6 {
    Connect6::start(&Default::default(), None).unwrap()
}

fn sent(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn choose(p: &mut Box<dyn Player<Connect6>>, game: &GameHistory<Connect6>, depth: u32) -> String {
    let mv = p
        .choose(game, &Limits::depth(depth), &StopFlag::new(), &mut |_| {})
        .unwrap();
    game.current().format_move(&mv)
}

#[test]
fn black_on_the_empty_board_is_started_as_black() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("sent");
    let mut p = fake_engine(&log, "AAAB");
    let mut game = GameHistory::new(start());
    assert_eq!(choose(&mut p, &game, 4), "j10");
    game.push_text("j10").unwrap();
    game.push_text("k11 k9").unwrap();
    // Its next turn: the opponent's stones are placed as White, then it searches.
    assert_eq!(choose(&mut p, &game, 4), "a18 a19");
    drop(p);
    assert_eq!(
        sent(&log),
        ["name", "depth 4", "new black", "white KKKI", "next", "quit"]
    );
}

#[test]
fn openings_are_set_up_stone_by_stone() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("sent");
    let mut p = fake_engine(&log, "ABAC");
    let mut game = GameHistory::new(start());
    for mv in ["j10", "k11 k9", "h8 h12"] {
        game.push_text(mv).unwrap();
    }
    assert_eq!(choose(&mut p, &game, 3), "a17 a18");
    drop(p);
    assert_eq!(
        sent(&log),
        [
            "name",
            "depth 3",
            "new white",
            "black JJ",
            "white KKKI",
            "black HLHH",
            "next",
            "quit"
        ]
    );
}

#[test]
fn a_pair_whose_first_stone_wins_is_that_stone() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("sent");
    // Black has five on row 10 (b10..f10); Cloudict would answer the winning stone plus one.
    let mut p = fake_engine(&log, "AJSA");
    let mut game = GameHistory::new(start());
    for mv in ["c10", "r1 s1", "d10 e10", "r3 s3", "b10 f10", "r5 s5"] {
        game.push_text(mv).unwrap();
    }
    assert_eq!(choose(&mut p, &game, 2), "a10");
}

#[test]
fn illegal_answers_and_bad_depths_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = fake_engine(&dir.path().join("a"), "JJJJ");
    let mut game = GameHistory::new(start());
    game.push_text("j10").unwrap();
    let err = p
        .choose(&game, &Limits::depth(2), &StopFlag::new(), &mut |_| {})
        .unwrap_err();
    assert!(err.to_string().contains("JJJJ"), "{err}");
    let mut p = fake_engine(&dir.path().join("b"), "AAAB");
    let err = p
        .choose(&game, &Limits::depth(12), &StopFlag::new(), &mut |_| {})
        .unwrap_err();
    assert!(err.to_string().contains("depth 1 to 9"), "{err}");
}

#[test]
fn only_connect6_from_the_empty_board() {
    assert!(Protocol::Cloudict.supports("connect6"));
    assert!(!Protocol::Cloudict.supports("gomoku"));
    let dir = tempfile::tempdir().unwrap();
    let mut p = fake_engine(&dir.path().join("a"), "AAAB");
    let small = Connect6::start(&Default::default(), Some(15)).unwrap();
    let err = p
        .choose(
            &GameHistory::new(small),
            &Limits::depth(2),
            &StopFlag::new(),
            &mut |_| {},
        )
        .unwrap_err();
    assert!(err.to_string().contains("19×19"), "{err}");
}
