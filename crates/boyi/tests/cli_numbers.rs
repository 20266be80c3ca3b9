//! Numbers out of range on the command line, through the real binary: each is refused with
//! an error naming the option or field, or held at its largest meaning — never wrapped, and
//! never a panic or an abort. (The vision commands' numbers are tested in cli_vision.rs.)

mod common;

use common::{ok, stderr_of_failure};

const XIANGQI_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// `boyi ARGS` fails and its error contains each of `words`.
fn refused(args: &[&str], words: &[&str]) {
    let err = stderr_of_failure(args);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: {w:?} not in {err}");
    }
}

#[test]
fn numbers_past_their_type_are_refused_naming_the_option() {
    refused(
        &[
            "analyze",
            "xiangqi",
            "--movetime",
            "99999999999999999999999",
        ],
        &["--movetime"],
    );
    refused(&["analyze", "gomoku", "--size", "4294967297"], &["5..=26"]);
    refused(
        &["analyze", "xiangqi", "--depth=-1", "--movetime", "10"],
        &["--depth"],
    );
    let long_fen = XIANGQI_START.replace("0 1", "99999999999999999999 1");
    refused(
        &[
            "analyze",
            "xiangqi",
            "--position",
            &long_fen,
            "--depth",
            "1",
        ],
        &["halfmove clock", "99999999999999999999"],
    );
    refused(
        &["show", "gomoku", "--position", "99999999999999999999/15 b"],
        &["--position"],
    );
}

#[test]
fn match_numbers_out_of_range_are_refused_before_any_game() {
    let players = [
        "match",
        "xiangqi",
        "--a",
        "boyi:random",
        "--b",
        "boyi:random",
    ];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        players.iter().chain(extra).copied().collect()
    };
    refused(
        &with(&["--tc", "1e300"]),
        &["--tc", "longer than a control can be"],
    );
    refused(&with(&["--tc", "nan"]), &["--tc"]);
    refused(&with(&["--tc=-5"]), &["--tc"]);
    refused(
        &with(&["--a-limits", "movetime=99999999999999999999"]),
        &["--a-limits", "not a whole number"],
    );
    // Each game runs two players: thousands at once would exhaust the threads the
    // system gives a process.
    refused(
        &with(&["--concurrency", "18446744073709551615"]),
        &["--concurrency"],
    );
    refused(&with(&["--concurrency", "0"]), &["--concurrency"]);
}

#[test]
fn the_largest_numbers_a_type_holds_are_taken_as_no_bound() {
    // A movetime of u64::MAX milliseconds is no bound; the depth ends the search.
    let out = ok(&[
        "analyze",
        "xiangqi",
        "--movetime",
        "18446744073709551615",
        "--nodes",
        "18446744073709551615",
        "--depth",
        "2",
    ]);
    assert!(out.lines().last().unwrap().contains("bestmove"), "{out}");
    // So is a depth of u32::MAX: the movetime ends the search.
    let out = ok(&[
        "analyze",
        "gomoku",
        "--depth",
        "4294967295",
        "--movetime",
        "100",
    ]);
    assert!(out.lines().last().unwrap().contains("bestmove"), "{out}");
}
