//! `boyi match` and `boyi engine` with opening books, and their games in the database.

use std::io::Write;
mod common;

use common::{ok_in, workdir};
use std::path::Path;
use std::process::{Command, Stdio};

/// Whether a line of a Gomocup session's output is a move (`x,y`), not a `MESSAGE`.
fn is_move_line(line: &str) -> bool {
    line.contains(',') && !line.starts_with("MESSAGE")
}

/// The move lines of a Gomocup session's output.
fn move_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| is_move_line(l)).collect()
}

/// `boyi engine …` fed `input` on standard input; `END` is sent once a move line came back.
fn engine(dir: &Path, args: &[&str], input: &str) -> String {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_boyi"))
        .current_dir(dir)
        .arg("engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boyi runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        text.push_str(&line);
        if is_move_line(&line) {
            break;
        }
    }
    stdin.write_all(b"END\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "boyi engine {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// A book of one line, h8 i9 j10 k11, in `dir/g.book`.
fn book(dir: &Path) {
    std::fs::write(
        dir.join("games.boyi"),
        "[Game \"gomoku\"]\n[Result \"white\"]\n1. h8\n2. i9\n3. j10\n4. k11\n",
    )
    .unwrap();
    ok_in(
        dir,
        &["book", "build", "gomoku", "games.boyi", "-o", "g.book"],
    );
}

#[test]
fn match_with_a_book_plays_its_line_and_stores_every_game() {
    let dir = workdir("match-book");
    book(&dir);
    let out = ok_in(
        &dir,
        &[
            "match",
            "gomoku",
            "--a",
            "boyi:random",
            "--b",
            "boyi:random",
            "--games",
            "2",
            "--max-plies",
            "12",
            "--book",
            "g.book",
            "--book-choice",
            "best",
            "--out",
            "games",
            "--db",
            "m.sqlite",
        ],
    );
    assert!(out.contains("game 2:"), "{out}");
    // The book folds symmetries: after h8 its line may come back in any orientation.
    let heads: Vec<String> = (1..=2)
        .map(|n| {
            let rec = std::fs::read_to_string(dir.join(format!("games/game-000{n}.boyi"))).unwrap();
            (1..=4)
                .map(|ply| {
                    let head = format!("{ply}. ");
                    let line = rec.lines().find_map(|l| l.strip_prefix(head.as_str()));
                    line.unwrap().split_whitespace().next().unwrap().to_string()
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    assert!(heads[0].starts_with("h8,"), "{heads:?}");
    assert_eq!(heads[0], heads[1], "best choice plays the same line");
    let all = ok_in(&dir, &["record", "search", "--db", "m.sqlite"]);
    assert_eq!(all.lines().count(), 2, "{all}");
    let first = ok_in(
        &dir,
        &[
            "record",
            "search",
            "--db",
            "m.sqlite",
            "--game",
            "gomoku",
            "--variant",
            "freestyle",
            "--moves",
            "h8",
        ],
    );
    assert!(first.contains("2 games reached the position"), "{first}");
    // Per side: only A has the book, and A plays black in game 1.
    let out = ok_in(
        &dir,
        &[
            "match",
            "gomoku",
            "--a",
            "boyi:random",
            "--b",
            "boyi:random",
            "--games",
            "1",
            "--max-plies",
            "4",
            "--book-a",
            "g.book",
            "--book-choice",
            "best",
            "--out",
            "a",
            "--no-record",
        ],
    );
    assert!(out.contains("game 1:"), "{out}");
    let rec = std::fs::read_to_string(dir.join("a/game-0001.boyi")).unwrap();
    assert!(rec.lines().any(|l| l.starts_with("1. h8 ")), "{rec}");
    assert!(
        !dir.join("boyi.sqlite").exists(),
        "--no-record stores nothing"
    );
}

#[test]
fn match_games_go_to_the_default_database() {
    let dir = workdir("match-default-db");
    ok_in(
        &dir,
        &[
            "match",
            "gomoku",
            "--a",
            "boyi:random",
            "--b",
            "boyi:random",
            "--games",
            "2",
            "--max-plies",
            "6",
        ],
    );
    let all = ok_in(&dir, &["record", "search"]);
    assert_eq!(all.lines().count(), 2, "{all}");
    assert!(all.contains("boyi:random"), "{all}");
    let draws = ok_in(&dir, &["record", "search", "--result", "draw"]);
    assert_eq!(draws.lines().count(), 2, "move-limit draws: {draws}");
}

#[test]
fn engine_session_plays_the_book_and_records_with_the_flag() {
    let dir = workdir("engine-book");
    book(&dir);
    // Gomocup: h8 is 7,7.
    let input = "START 15\nBEGIN\n";
    let args = [
        "gomoku",
        "--protocol",
        "gomocup",
        "--player",
        "boyi:random",
        "--book",
        "g.book",
        "--book-choice",
        "best",
    ];
    let out = engine(&dir, &args, input);
    let moves = move_lines(&out);
    assert_eq!(moves, ["7,7"], "{out}");
    assert!(!dir.join("boyi.sqlite").exists(), "no flag, no record");
    let mut with_db = args.to_vec();
    with_db.extend(["--db", "e.sqlite"]);
    engine(&dir, &with_db, input);
    let all = ok_in(&dir, &["record", "search", "--db", "e.sqlite"]);
    assert_eq!(all.lines().count(), 1, "{all}");
    let pos = ok_in(
        &dir,
        &[
            "record",
            "search",
            "--db",
            "e.sqlite",
            "--game",
            "gomoku",
            "--variant",
            "freestyle",
            "--moves",
            "h8",
        ],
    );
    assert!(pos.contains("reached the position"), "{pos}");
    with_db.truncate(args.len());
    with_db.push("--record");
    engine(&dir, &with_db, input);
    assert!(
        dir.join("boyi.sqlite").exists(),
        "--record uses the default database"
    );
}

#[test]
fn engine_serves_the_strong_player_by_default() {
    let dir = workdir("engine-default");
    // The strong engine opens in the centre (7,7); the shallow alpha-beta player, the default
    // before, opened off it.
    let out = engine(
        &dir,
        &["gomoku", "--protocol", "gomocup"],
        "START 15\nINFO timeout_turn 200\nBEGIN\n",
    );
    let moves = move_lines(&out);
    assert_eq!(moves, ["7,7"], "{out}");
}
