//! Everything Boyi writes, Boyi reads: `match --out` in every format of each game,
//! `record import DIR` and `record search`, the arena's old game files, `engine --record`
//! sessions through `record export`, `record convert` to standard output and `record dump`.

mod common;

use common::{fails_in, ok_in, workdir};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// A short random match of `game` whose records go to `dir/out` as `format`.
fn short_match(dir: &Path, game: &str, format: &str, out: &str) -> String {
    ok_in(
        dir,
        &[
            "match",
            game,
            "--a",
            "boyi:random",
            "--b",
            "boyi:random",
            "--games",
            "2",
            "--max-plies",
            "24",
            "--out",
            out,
            "--format",
            format,
            "--no-record",
        ],
    )
}

#[test]
fn match_records_of_every_format_read_back() {
    let dir = workdir("match-formats");
    for (game, formats) in [
        ("gomoku", &["boyi", "sgf", "psq", "renlib"][..]),
        ("connect6", &["boyi", "sgf", "c6"]),
        ("jiu", &["boyi", "jiu"]),
        ("xiangqi", &["boyi", "pgn", "pgn-wxf", "pgn-chinese", "xqf"]),
    ] {
        for format in formats {
            let out = format!("{game}-{format}");
            short_match(&dir, game, format, &out);
            let files: Vec<_> = std::fs::read_dir(dir.join(&out))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            assert_eq!(files.len(), 2, "{game} {format}: {files:?}");
            let mut args = vec!["record", "validate"];
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            args.extend(names.iter().map(String::as_str));
            if *format == "renlib" {
                args.extend(["--variant", "freestyle"]);
            }
            let said = ok_in(&dir, &args);
            assert_eq!(said.lines().count(), 2, "{game} {format}: {said}");
        }
    }
    // A format the game is not written in is refused before the match.
    let err = fails_in(
        &dir,
        &[
            "match",
            "jiu",
            "--a",
            "boyi:random",
            "--b",
            "boyi:random",
            "--out",
            "x",
            "--format",
            "sgf",
        ],
    );
    assert!(err.contains("--format sgf"), "{err}");
}

#[test]
fn a_match_directory_is_imported_and_found() {
    let dir = workdir("import-dir");
    short_match(&dir, "xiangqi", "boyi", "games");
    // The arena's old files are read too, and a file that is no record is left out.
    std::fs::write(
        dir.join("games/old-game.txt"),
        "# boyi game record\ngame xiangqi\nvariant standard\n\
         start rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
         red boyi:random\nblack boyi:strong\nopening 0\nresult black\nreason loss on time (no answer)\n\
         moves h2e2,h9g7\n",
    )
    .unwrap();
    std::fs::write(dir.join("games/notes.md"), "not a record\n").unwrap();
    let said = ok_in(&dir, &["record", "import", "games", "--db", "g.sqlite"]);
    assert!(said.contains("imported 3 games from 3 files"), "{said}");
    assert!(said.contains("1 files in the directories"), "{said}");
    let again = ok_in(&dir, &["record", "import", "games", "--db", "g.sqlite"]);
    assert!(again.contains("imported 0 games"), "{again}");
    assert!(again.contains("3 games were stored already"), "{again}");
    let found = ok_in(
        &dir,
        &[
            "record",
            "search",
            "--db",
            "g.sqlite",
            "--player",
            "boyi:strong",
        ],
    );
    assert_eq!(found.lines().count(), 1, "{found}");
    assert!(found.contains(" black "), "{found}");
    let year = ok_in(
        &dir,
        &[
            "record",
            "search",
            "--db",
            "g.sqlite",
            "--date",
            "2000..2999",
        ],
    );
    assert_eq!(
        year.lines().count(),
        2,
        "the match's games are dated: {year}"
    );
    for bad in ["2024-13", "2024-02-30", "yesterday"] {
        let err = fails_in(
            &dir,
            &["record", "search", "--db", "g.sqlite", "--date", bad],
        );
        assert!(err.contains("--date"), "{bad}: {err}");
    }
    let err = fails_in(
        &dir,
        &["record", "search", "--db", "g.sqlite", "--result", "won"],
    );
    assert!(err.contains("black, white, draw or unfinished"), "{err}");
    // A bad record stores nothing.
    std::fs::write(dir.join("games/bad.boyi"), "[Game \"xiangqi\"]\n1. a1a9\n").unwrap();
    let err = fails_in(&dir, &["record", "import", "games", "--db", "h.sqlite"]);
    assert!(err.contains("bad.boyi") && err.contains("ply 1"), "{err}");
}

#[test]
fn engine_sessions_export_and_read_back() {
    let dir = workdir("engine-export");
    let mut child = Command::new(env!("CARGO_BIN_EXE_boyi"))
        .current_dir(&*dir)
        .args([
            "engine",
            "xiangqi",
            "--protocol",
            "ucci",
            "--player",
            "boyi:random",
            "--db",
            "e.sqlite",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"ucci\nposition startpos moves h2e2\ngo depth 1\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let answered = lines.any(|l| l.unwrap().starts_with("bestmove"));
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(answered, "{}", String::from_utf8_lossy(&out.stderr));
    for (file, format) in [("all.boyi", "boyi"), ("all.pgn", "pgn-chinese")] {
        let said = ok_in(
            &dir,
            &["record", "export", file, "--db", "e.sqlite", "--to", format],
        );
        assert!(said.contains("exported 1 games"), "{said}");
        let valid = ok_in(&dir, &["record", "validate", file]);
        assert!(valid.contains("1 games, 2 plies"), "{valid}");
    }
    let text = std::fs::read_to_string(dir.join("all.boyi")).unwrap();
    assert!(text.contains("[BlackSpec \"boyi:random\"]"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    // One game a file: a directory.
    ok_in(
        &dir,
        &["record", "export", "xqf", "--db", "e.sqlite", "--to", "xqf"],
    );
    let valid = ok_in(&dir, &["record", "validate", "xqf/game-000001.xqf"]);
    assert!(valid.starts_with("ok "), "{valid}");
}

#[test]
fn convert_to_standard_output_and_dump_as_json() {
    let dir = workdir("convert-dump");
    short_match(&dir, "gomoku", "sgf", "g");
    let sgf = ok_in(&dir, &["record", "convert", "g", "-", "--to", "sgf"]);
    assert_eq!(sgf.matches("(;GM[4]").count(), 2, "{sgf}");
    let err = fails_in(&dir, &["record", "convert", "g", "-"]);
    assert!(err.contains("--to"), "{err}");
    let json = ok_in(&dir, &["record", "dump", "g"]);
    let lines: Vec<&str> = json.lines().collect();
    assert_eq!(lines.len(), 2, "{json}");
    for l in lines {
        assert!(
            l.starts_with('{') && l.contains("\"game\":\"gomoku\""),
            "{l}"
        );
        assert!(l.contains("\"reason\":"), "{l}");
        assert!(l.contains("\"start\":\"15/15/"), "{l}");
        // Each move carries the position before it: the start, then one stone more a move.
        let game: serde_json::Value = serde_json::from_str(l).unwrap();
        let moves = game["moves"].as_array().unwrap();
        assert_eq!(moves[0]["position"], game["start"], "{l}");
        for (n, m) in moves.iter().enumerate() {
            let position = m["position"].as_str().unwrap();
            let board = position.split(' ').next().unwrap();
            let stones = board.chars().filter(|c| matches!(c, 'x' | 'o')).count();
            assert_eq!(stones, n, "{position}");
        }
    }
}
