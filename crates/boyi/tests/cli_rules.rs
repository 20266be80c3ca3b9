//! `boyi moves`, `boyi perft` and `boyi show` through the real binary: output formats of
//! positions.md and clear errors for bad input.

mod common;

use common::{ok, stderr_of_failure};

/// Checks the last perft line `nodes N time S.SSS nps N` and returns N.
fn perft_nodes(text: &str) -> u64 {
    let last = text.lines().last().unwrap();
    let f: Vec<&str> = last.split(' ').collect();
    assert_eq!(f.len(), 6, "{last}");
    assert_eq!((f[0], f[2], f[4]), ("nodes", "time", "nps"), "{last}");
    let (secs, frac) = f[3].split_once('.').expect("seconds with decimals");
    assert!(secs.parse::<u64>().is_ok() && frac.len() == 3, "{last}");
    f[5].parse::<u64>().expect("integer nps");
    f[1].parse().unwrap()
}

#[test]
fn moves_are_canonical_and_byte_sorted() {
    let out = ok(&["moves", "gomoku", "--size", "9", "--moves", "E5,d4"]);
    let lines: Vec<&str> = out.lines().collect();
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert_eq!(lines.len(), 81 - 2 + 1);
    assert!(lines.contains(&"pass") && !lines.contains(&"e5"));
    assert_eq!(lines[..3], ["a1", "a2", "a3"]);
    let c6 = ok(&["moves", "connect6", "--size", "6", "--moves", "c3"]);
    assert_eq!(c6.lines().count(), 35 * 34 / 2);
    assert!(c6.lines().all(|l| l.split(' ').count() == 2));
}

#[test]
fn perft_prints_divide_and_the_summary_line() {
    assert_eq!(
        perft_nodes(&ok(&["perft", "gomoku", "--depth", "2"])),
        50_851
    );
    let out = ok(&[
        "perft", "connect6", "--size", "7", "--depth", "2", "--divide",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 49 + 1);
    assert!(
        lines[..49].iter().all(|l| l.ends_with(": 1128")),
        "{}",
        lines[0]
    );
    assert_eq!(perft_nodes(&out), 49 * 1128);
    let renju = ok(&[
        "perft",
        "gomoku",
        "--variant",
        "renju",
        "--depth",
        "1",
        "--position",
        "15/15/15/15/15/15/15/5xx8/7x7/7x7/15/15/15/15/15 b",
    ]);
    assert_eq!(perft_nodes(&renju), 225 - 4 - 1 + 1, "h8 is a double-three");
}

#[test]
fn show_draws_the_board() {
    let out = ok(&["show", "gomoku", "--size", "9", "--moves", "e5,f6"]);
    assert!(out.contains(" 9  . . . . . . . . ."), "{out}");
    assert!(out.contains(" 5  . . . . x . . . ."), "{out}");
    assert!(
        out.contains(" 6  . . . . . O . . ."),
        "last move in capitals: {out}"
    );
    assert!(out.contains("    a b c d e f g h i"), "{out}");
    assert!(out.contains("black to move"), "{out}");
    let won = ok(&[
        "show",
        "gomoku",
        "--size",
        "9",
        "--moves",
        "a1,b1,a2,b2,a3,b3,a4,b4,a5",
    ]);
    assert!(
        won.contains("game over: black wins (five in a row)"),
        "{won}"
    );
    let c6 = ok(&["show", "connect6", "--moves", "j10,k10 k11"]);
    assert!(c6.contains("black to move, 2 stones this turn"), "{c6}");
}

#[test]
fn bad_input_is_named() {
    for (args, says) in [
        (vec!["moves", "chess"], "unknown game"),
        (
            vec!["moves", "gomoku", "--variant", "swap9"],
            "unknown gomoku variant",
        ),
        (vec!["moves", "gomoku", "--size", "30"], "size 30"),
        (
            vec!["moves", "gomoku", "--position", "15/15 b"],
            "--position",
        ),
        (
            vec!["moves", "gomoku", "--moves", "h8,h8"],
            "move 2 (\"h8\"): h8 is occupied",
        ),
        (vec!["moves", "gomoku", "--moves", "h8,zz"], "move 2"),
        (
            vec!["moves", "connect6", "--moves", "j10,k10"],
            "two stones",
        ),
    ] {
        let err = stderr_of_failure(&args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `boyi … | head -1`: once the reader has gone, the rest of the output has nowhere to go,
/// and the program ends quietly with success (it used to panic on the next line printed).
#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let commands: [&[&str]; 2] = [
        // A line per finished depth, then the result: the first is read, the rest are not.
        &["analyze", "gomoku", "--moves", "h8,i9,h10", "--depth", "7"],
        // The divide lines and the summary come at once, into a pipe already closed.
        &["perft", "xiangqi", "--depth", "2", "--divide"],
    ];
    for (n, args) in commands.into_iter().enumerate() {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boyi"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("boyi runs");
        let stdout = child.stdout.take().unwrap();
        if n == 0 {
            let mut first = String::new();
            BufReader::new(stdout).read_line(&mut first).unwrap();
            assert!(first.starts_with("info depth 1"), "{first}");
        } else {
            drop(stdout);
        }
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {err}", out.status);
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}
