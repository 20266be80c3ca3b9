//! `boyi analyze`, `boyi bench` and `boyi solve` for Gomoku and Connect6 through the real
//! binary: the last line formats of positions.md and clear errors for bad positions.

mod common;

use common::{ok, stderr_of_failure};

/// The last line `score <value> bestmove <move>`: returns (value, move).
fn score_line(text: &str) -> (String, String) {
    let last = text.lines().last().expect("output");
    let rest = last
        .strip_prefix("score ")
        .unwrap_or_else(|| panic!("{last}"));
    let (value, mv) = rest
        .split_once(" bestmove ")
        .unwrap_or_else(|| panic!("{last}"));
    let ok = value.parse::<i64>().is_ok()
        || value
            .strip_prefix("mate ")
            .is_some_and(|n| n.parse::<i64>().is_ok());
    assert!(ok, "score value {value:?} in {last}");
    (value.to_string(), mv.to_string())
}

/// Black x on a row of 15 with four in a row from a to d: `xxxx11`.
const GOMOKU_FOUR: &str = "15/15/15/15/15/15/15/15/15/15/15/xxxx11/oooo11/15/15 b";
/// The first position of the renju VCF suite (white to move wins by fours from l5).
const RENJU_VCF: &str =
    "15/15/8o6/4x3o6/5xxo7/4o1xx7/7o7/7x1oxxx2/7oxo1x3/8o1oxo2/15/15/15/15/15 w";

#[test]
fn analyze_gomoku_ends_with_the_score_line() {
    let out = ok(&[
        "analyze",
        "gomoku",
        "--position",
        GOMOKU_FOUR,
        "--depth",
        "3",
    ]);
    assert!(out.lines().any(|l| l.starts_with("info depth")), "{out}");
    assert_eq!(score_line(&out), ("mate 1".to_string(), "e4".to_string()));
    let out = ok(&[
        "analyze",
        "gomoku",
        "--variant",
        "renju",
        "--position",
        "15/15/15/15/15/15/6ox7/7x7/6o8/15/15/15/15/15/15 b",
        "--movetime",
        "200",
    ]);
    score_line(&out);
}

#[test]
fn analyze_connect6_ends_with_the_score_line() {
    let pos = "o17o/19/19/19/19/19/19/19/8xxxx7/19/8oooo7/19/19/19/19/19/19/19/x18 b";
    let out = ok(&["analyze", "connect6", "--position", pos, "--depth", "2"]);
    let (value, mv) = score_line(&out);
    assert!(value.starts_with("mate "), "{out}");
    // Two stones that complete six on the black row.
    let stones: Vec<&str> = mv.split(' ').collect();
    assert!(
        stones.len() <= 2 && stones.iter().all(|s| s.ends_with("11")),
        "{mv}"
    );
    let out = ok(&[
        "analyze",
        "connect6",
        "--position",
        "19/19/19/19/19/19/19/19/19/9x9/19/19/19/19/19/19/19/19/19 w",
        "--movetime",
        "200",
    ]);
    let (_, mv) = score_line(&out);
    assert_eq!(mv.split(' ').count(), 2, "{mv}");
}

#[test]
fn analyze_rejects_bad_positions() {
    for (game, pos, part) in [
        ("gomoku", "15/15/15 b", "rows"),
        (
            "gomoku",
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 q",
            "side",
        ),
        ("connect6", "19/19 b", "rows"),
    ] {
        let err = stderr_of_failure(&["analyze", game, "--position", pos, "--depth", "1"]);
        assert!(err.contains(part), "{game} {pos}: {err}");
    }
    let err = stderr_of_failure(&[
        "analyze",
        "gomoku",
        "--position",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        "--variant",
        "caro",
    ]);
    assert!(err.contains("caro"), "{err}");
}

#[test]
fn bench_prints_a_signature_and_speed() {
    for game in ["gomoku", "connect6"] {
        let out = ok(&["bench", game, "--depth-offset", "-4"]);
        let last = out.lines().last().unwrap();
        let f: Vec<&str> = last.split(' ').collect();
        assert_eq!((f[0], f[2], f[4]), ("nodes", "time", "nps"), "{last}");
        assert!(f[1].parse::<u64>().unwrap() > 0, "{last}");
        f[5].parse::<u64>().expect("integer nps");
        // The node count is a signature: the same on every run.
        let again = ok(&["bench", game, "--depth-offset", "-4"]);
        assert_eq!(again.lines().last().unwrap().split(' ').nth(1), Some(f[1]));
        assert!(out.lines().filter(|l| l.starts_with("position ")).count() >= 3);
    }
}

#[test]
fn solve_gomoku_reports_the_vcf_and_the_score_line() {
    let out = ok(&[
        "solve",
        "gomoku",
        "--variant",
        "renju",
        "--position",
        RENJU_VCF,
        "--budget-ms",
        "1000",
    ]);
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("win vcf "), "{out}");
    let (value, mv) = score_line(&out);
    assert!(value.starts_with("mate "), "{out}");
    assert!(first["win vcf ".len()..].starts_with(&mv), "{out}");
    let quiet = "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w";
    let out = ok(&["solve", "gomoku", "--position", quiet, "--budget-ms", "200"]);
    assert_eq!(out.lines().next(), Some("none"), "{out}");
    score_line(&out);
}

#[test]
fn solve_rejects_bad_and_finished_positions() {
    let err = stderr_of_failure(&["solve", "gomoku", "--position", "15/15/x b"]);
    assert!(err.contains("row"), "{err}");
    let five = "15/15/15/15/15/15/15/xxxxx10/oooo11/15/15/15/15/15/15 w";
    let err = stderr_of_failure(&["solve", "gomoku", "--position", five]);
    assert!(err.contains("over"), "{err}");
}

#[test]
fn analyze_without_a_limit_stops_at_its_cap() {
    // The strong Jiu player's own default depth (64) is no bound in a battle: with no
    // --depth, --nodes or --movetime the analysis is stopped at its cap, short of that depth.
    let battle = "oxxxxxoxxxooxx/oxoooxoooooooo/oxxoxooxxxoxox/xxo2ooxoxxxox/2o1o3o1oooo/xoox4xxoxxx/ooo3xxoooxox/1xxx1xxxxxoxox/1oooo4ooooo/x1xx3ooxxoxx/xo5xooxooo/xx2o1xoxooxxx/x7xxxxoo/xoxx1ooooxooox b battle 196 0";
    let out = ok(&["analyze", "jiu", "--position", battle]);
    score_line(&out);
    let deepest = out
        .lines()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|rest| rest.split_whitespace().next()?.parse::<u32>().ok())
        .max()
        .expect("thinking output");
    assert!(deepest < 64, "{out}");
}

#[test]
fn analyze_takes_a_file_of_positions_and_an_external_engine() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("positions.txt");
    let text = format!(
        "# a four, then a bad line, then a renju VCF\n{GOMOKU_FOUR}\n\n15/15/15 b\n{RENJU_VCF}\n"
    );
    std::fs::write(&file, text).unwrap();
    let boyi = env!("CARGO_BIN_EXE_boyi");
    for player in [
        "boyi:strong".to_string(),
        format!("cmd:\"{boyi} engine gomoku --protocol gomocup\"@gomocup"),
    ] {
        let out = std::process::Command::new(boyi)
            .args(["analyze", "gomoku", "--variant", "renju", "--depth", "3"])
            .args(["--player", &player, "--positions"])
            .arg(&file)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 3, "{player}: {stdout}");
        // The external engine's own score comes through its thinking.
        assert_eq!(
            score_line(lines[0]),
            ("mate 1".into(), "e4".into()),
            "{player}"
        );
        assert!(
            lines[1].starts_with("error line 4:") && lines[1].contains("rows"),
            "{stdout}"
        );
        assert!(
            score_line(lines[2]).0.starts_with("mate "),
            "{player}: {stdout}"
        );
        assert!(!out.status.success(), "a bad line fails the run");
        assert!(String::from_utf8_lossy(&out.stderr).contains("1 position(s)"));
    }
}
