//! `boyi record …` and `boyi book …` through the real binary.

mod common;

use common::{fails_in, ok_in, workdir};
use std::path::Path;

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../records/tests/data")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn convert_between_formats() {
    let dir = workdir("convert");
    ok_in(
        &dir,
        &["record", "convert", &sample("gomoku_five.psq"), "game.sgf"],
    );
    let sgf = std::fs::read_to_string(dir.join("game.sgf")).unwrap();
    assert!(
        sgf.starts_with("(;GM[4]FF[4]CA[UTF-8]SZ[15]RU[freestyle]PB[alice]PW[bob]RE[B+]"),
        "{sgf}"
    );
    ok_in(
        &dir,
        &["record", "convert", "game.sgf", "game.out", "--to", "boyi"],
    );
    let text = std::fs::read_to_string(dir.join("game.out")).unwrap();
    assert!(text.contains("1. h8 {1.250}"), "{text}");
    ok_in(
        &dir,
        &["record", "convert", &sample("connect6_six.sgf"), "c6.c6"],
    );
    let c6 = std::fs::read_to_string(dir.join("c6.c6")).unwrap();
    assert!(
        c6.starts_with("{[C6][alice B][bob W][后手胜][][];B(J,10);W(K,10);W(K,11);"),
        "{c6}"
    );
    let err = fails_in(
        &dir,
        &["record", "convert", &sample("connect6_six.c6"), "x.psq"],
    );
    assert!(err.contains("gomoku"), "{err}");
    let err = fails_in(
        &dir,
        &["record", "convert", &sample("connect6_six.c6"), "x.what"],
    );
    assert!(err.contains("--to"), "{err}");
}

#[test]
fn validate_reports_the_illegal_ply() {
    let dir = workdir("validate");
    let out = ok_in(
        &dir,
        &[
            "record",
            "validate",
            &sample("gomoku_five.sgf"),
            &sample("connect6_six.c6"),
        ],
    );
    assert_eq!(out.lines().count(), 2);
    assert!(out.lines().all(|l| l.starts_with("ok ")), "{out}");
    let out = fails_in(
        &dir,
        &[
            "record",
            "validate",
            &sample("gomoku_five.sgf"),
            &sample("gomoku_illegal.sgf"),
        ],
    );
    assert!(out.contains("ply 3 (\"h8\"): h8 is occupied"), "{out}");
    assert!(out.contains("1 of 2 files are invalid"), "{out}");
}

#[test]
fn show_replays_and_prints_the_final_position() {
    let dir = workdir("show");
    let fen = ok_in(
        &dir,
        &["record", "show", &sample("gomoku_five.boyi"), "--fen"],
    );
    assert_eq!(
        fen.trim(),
        "15/15/15/7xo6/7xo6/7xo6/7xo6/7x7/15/15/15/15/15/15/15 w"
    );
    let out = ok_in(&dir, &["record", "show", &sample("connect6_six.c6")]);
    assert!(out.contains("   6. white k9 k14"), "{out}");
    assert!(out.contains("result: white six in a row"), "{out}");
    let all = ok_in(
        &dir,
        &["record", "show", &sample("gomoku_five.sgf"), "--all"],
    );
    assert!(all.lines().count() > 9 * 15, "a board per move");
    assert!(
        fails_in(
            &dir,
            &["record", "show", &sample("gomoku_five.sgf"), "--game", "2"]
        )
        .contains("holds 1 games")
    );
}

#[test]
fn import_and_search_the_default_database() {
    let dir = workdir("import");
    let out = ok_in(
        &dir,
        &[
            "record",
            "import",
            &sample("gomoku_five.sgf"),
            &sample("gomoku_five.psq"),
            &sample("connect6_six.c6"),
        ],
    );
    assert!(
        out.starts_with("imported 3 games from 3 files into boyi.sqlite"),
        "{out}"
    );
    assert!(dir.join("boyi.sqlite").exists());
    let all = ok_in(&dir, &["record", "search"]);
    assert_eq!(all.lines().count(), 3, "{all}");
    let white = ok_in(&dir, &["record", "search", "--result", "white"]);
    assert_eq!(white.lines().count(), 1);
    assert!(white.contains("connect6"), "{white}");
    let by_date = ok_in(
        &dir,
        &["record", "search", "--date", "2024-05", "--player", "bob"],
    );
    // The championship text's date (2024.05.02) is stored as 2024-05-02.
    assert_eq!(by_date.lines().count(), 2, "{by_date}");
    let pos = ok_in(
        &dir,
        &[
            "record", "search", "--game", "gomoku", "--moves", "h8,i9,h9",
        ],
    );
    assert!(pos.contains("2 games reached the position"), "{pos}");
    assert!(pos.contains("next i10: 2"), "{pos}");
    let end = ok_in(
        &dir,
        &[
            "record",
            "search",
            "--game",
            "connect6",
            "--moves",
            "j10,k10 k11",
        ],
    );
    assert!(end.contains("next j11 j12: 1"), "{end}");
    let err = fails_in(&dir, &["record", "search", "--moves", "h8"]);
    assert!(err.contains("--game"), "{err}");
    let other = workdir("import-db");
    ok_in(
        &dir,
        &[
            "record",
            "import",
            &sample("gomoku_five.boyi"),
            "--db",
            other.join("x.sqlite").to_str().unwrap(),
        ],
    );
    assert!(other.join("x.sqlite").exists());
}

#[test]
fn book_build_and_probe() {
    let dir = workdir("book");
    std::fs::write(
        dir.join("games.boyi"),
        "[Game \"gomoku\"]\n[Result \"white\"]\n1. h8\n2. i9\n3. j10\n4. k11\n\n\
         [Game \"gomoku\"]\n[Result \"black\"]\n1. j10\n2. i9\n3. h8\n4. g7\n\n\
         [Game \"gomoku\"]\n[Result \"white\"]\n1. h8\n2. g9\n3. f10\n4. e11\n",
    )
    .unwrap();
    let out = ok_in(
        &dir,
        &["book", "build", "gomoku", "games.boyi", "-o", "g.book"],
    );
    assert!(out.contains("3 games"), "{out}");
    let probe = ok_in(
        &dir,
        &["book", "probe", "gomoku", "g.book", "--moves", "h8,i9,j10"],
    );
    let lines: Vec<&str> = probe.lines().collect();
    assert_eq!(
        lines[0],
        "k11\tgames 2\twins 2\tdraws 0\tlosses 0\tscore 1.000"
    );
    assert_eq!(
        lines[1],
        "g7\tgames 1\twins 0\tdraws 0\tlosses 1\tscore 0.000"
    );
    assert!(
        ok_in(
            &dir,
            &["book", "probe", "gomoku", "g.book", "--moves", "a1"]
        )
        .is_empty()
    );
    let err = fails_in(&dir, &["book", "probe", "connect6", "g.book"]);
    assert!(err.contains("for gomoku"), "{err}");
}

#[test]
fn jiu_records_validate_show_and_convert() {
    let dir = workdir("jiu");
    let out = ok_in(
        &dir,
        &[
            "record",
            "validate",
            &sample("jiu_random.jiu"),
            &sample("jiu_random.boyi"),
        ],
    );
    let plies = sample_plies();
    assert_eq!(out.lines().count(), 2, "{out}");
    for line in out.lines() {
        assert!(
            line.starts_with("ok ") && line.ends_with(&format!(": 1 games, {plies} plies")),
            "{out}"
        );
    }
    // Dataset text to Boyi text and back gives the sample again.
    ok_in(
        &dir,
        &["record", "convert", &sample("jiu_random.jiu"), "game.boyi"],
    );
    let boyi = std::fs::read_to_string(dir.join("game.boyi")).unwrap();
    assert!(boyi.starts_with("[Game \"jiu\"]"), "{boyi}");
    assert!(boyi.contains("\n197. "), "{boyi}");
    ok_in(
        &dir,
        &["record", "convert", "game.boyi", "game.txt", "--to", "jiu"],
    );
    let jiu = std::fs::read_to_string(dir.join("game.txt")).unwrap();
    assert_eq!(
        jiu,
        std::fs::read_to_string(sample("jiu_random.jiu")).unwrap()
    );
    // show: the moves, the result and the final position.
    let out = ok_in(&dir, &["record", "show", "game.txt"]);
    assert!(out.contains("   1. white h8"), "{out}");
    assert!(out.contains("result: white fewer than 4 pieces"), "{out}");
    let fen = ok_in(
        &dir,
        &["record", "show", &sample("jiu_random.boyi"), "--fen"],
    );
    assert!(fen.contains(" battle 196 "), "{fen}");
    // A battle move that breaks the rules is named by its ply.
    let (head, battle) = jiu.split_once("Stage[2]:").unwrap();
    std::fs::write(
        dir.join("bad.jiu"),
        format!("{head}Stage[2]:B(A,1)-O(A,2);{battle}"),
    )
    .unwrap();
    let out = fails_in(&dir, &["record", "validate", "bad.jiu"]);
    assert!(
        out.contains("invalid") && out.contains("ply 197 (B(A,1)-O(A,2))"),
        "{out}"
    );
}

/// Plies of the Jiu sample: the last numbered move of its Boyi text.
fn sample_plies() -> usize {
    let text = std::fs::read_to_string(sample("jiu_random.boyi")).unwrap();
    let last = text.lines().rev().find(|l| l.contains(". ")).unwrap();
    last.split('.').next().unwrap().parse().unwrap()
}
