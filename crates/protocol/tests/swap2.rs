//! The Gomocup `SWAP2BOARD` command answered by the served player's own swap2 decisions, on
//! scripted input.

use boyi_core::Game;
use boyi_engines::{BuildContext, Limits, build};
use boyi_games::gomoku::{Gomoku, Variant};
use boyi_protocol::{Protocol, ServeOptions, serve};
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn answers(input: &str) -> Vec<String> {
    answers_of("strong", input)
}

fn answers_of(spec: &str, input: &str) -> Vec<String> {
    let start = Gomoku::start(&Variant::Freestyle, Some(15)).unwrap();
    let out = Shared::default();
    let opts = ServeOptions {
        start,
        default_limits: Limits::default(),
        name: "Boyi".into(),
        version: "test".into(),
        configure: None,
    };
    let player = build::<Gomoku>(spec, BuildContext::default()).unwrap();
    serve(
        Protocol::Gomocup,
        player,
        opts,
        Cursor::new(input.to_string()),
        out.clone(),
    )
    .unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    text.lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .map(str::to_string)
        .collect()
}

/// Gomocup points `x,y` of an answer, checked to be on a 15×15 board.
fn points(answer: &str) -> Vec<(u32, u32)> {
    answer
        .split(' ')
        .map(|xy| {
            let (x, y) = xy.split_once(',').unwrap_or_else(|| panic!("{answer}"));
            let p = (x.parse().unwrap(), y.parse().unwrap());
            assert!(p.0 < 15 && p.1 < 15, "{answer}");
            p
        })
        .collect()
}

#[test]
fn the_opener_places_three_stones() {
    let a = answers("START 15\nINFO timeout_turn 300\nSWAP2BOARD\nDONE\nEND\n");
    assert_eq!(a[0], "OK");
    let stones = points(&a[1]);
    assert_eq!(stones.len(), 3, "{a:?}");
    assert!(stones[0] != stones[1] && stones[1] != stones[2] && stones[0] != stones[2]);
}

#[test]
fn a_clearly_better_black_is_taken() {
    // Black has two stones together in the centre, white's one is in a corner.
    let a = answers("START 15\nINFO timeout_turn 1500\nSWAP2BOARD\n7,7\n0,0\n8,7\nDONE\nEND\n");
    assert_eq!(a[1], "SWAP", "{a:?}");
}

#[test]
fn a_clearly_better_white_plays_on() {
    // After five stones white has two together in the centre and black three scattered.
    let input =
        "START 15\nINFO timeout_turn 300\nSWAP2BOARD\n0,0\n7,7\n14,14\n8,8\n0,14\nDONE\nEND\n";
    let a = answers(input);
    let stones = points(&a[1]);
    assert_eq!(stones.len(), 1, "{a:?}");
    assert!(![(0, 0), (7, 7), (14, 14), (8, 8), (0, 14)].contains(&stones[0]));
}

#[test]
fn the_second_player_answers_one_of_the_three_options() {
    let a = answers("START 15\nINFO timeout_turn 300\nSWAP2BOARD\n7,7\n8,8\n9,7\nDONE\nEND\n");
    if a[1] != "SWAP" {
        let n = points(&a[1]).len();
        assert!(n == 1 || n == 2, "{a:?}");
    }
}

#[test]
fn bad_swap_boards_are_errors() {
    let a = answers(
        "START 15\nSWAP2BOARD\n7,7\n8,8\nDONE\nSWAP2BOARD\n7,7\n7,7\n8,8\nDONE\nSWAP2BOARD\nx,y\nDONE\nEND\n",
    );
    assert_eq!(a.len(), 4, "{a:?}");
    assert!(
        a[1].starts_with("ERROR SWAP2BOARD") && a[1].contains("not 2"),
        "{a:?}"
    );
    assert!(
        a[2].starts_with("ERROR SWAP2BOARD") && a[2].contains("stone"),
        "{a:?}"
    );
    assert!(a[3].starts_with("ERROR SWAP2BOARD"), "{a:?}");
}

#[test]
fn a_player_without_swap_openings_says_so_and_plays_on() {
    let a = answers_of("seed001", "START 15\nSWAP2BOARD\nDONE\nBEGIN\nEND\n");
    assert_eq!(a[0], "OK");
    assert!(
        a[1].starts_with("ERROR SWAP2BOARD") && a[1].contains("does not play swap2"),
        "{a:?}"
    );
    assert_eq!(points(&a[2]).len(), 1, "{a:?}");
}
