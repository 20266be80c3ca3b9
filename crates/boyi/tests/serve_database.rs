//! `boyi serve` and its database file: a damaged or empty file is refused at start with a
//! message naming it and how to recover; a write that fails during play is logged.

use boyi_core::Game;
use boyi_games::GameKind;
use boyi_games::gomoku::Gomoku;
use boyi_records::GameRecord;
use boyi_store::live::{LiveStart, LiveWrite};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

fn serve(db: &std::path::Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_boyi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boyi runs")
}

#[test]
fn damaged_and_empty_databases_are_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    let out = serve(&empty).wait_with_output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("empty.sqlite") && err.contains("empty file"),
        "{err}"
    );
    let text = dir.path().join("notes.sqlite");
    std::fs::write(&text, "these are notes, not a database\n".repeat(100)).unwrap();
    let out = serve(&text).wait_with_output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("notes.sqlite") && err.contains("damaged") && err.contains(".recover"),
        "{err}"
    );
}

#[test]
fn a_write_that_fails_during_play_is_logged() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    // An unfinished game whose computer (black) is to move: it resumes at start and moves.
    {
        let mut store = boyi_store::Store::open(&db).unwrap();
        let start = Gomoku::start(&Default::default(), None).unwrap();
        let mut header = GameRecord::new(GameKind::Gomoku);
        header.variant = Some(start.variant().to_string());
        header.start = Some(start.to_text());
        let begin = LiveWrite::Begin(Box::new(LiveStart {
            table: "resumed1".into(),
            header,
            start_hash: start.hash(),
            options: r#"{"clock":null,"undo":false,"local":false}"#.into(),
            seats: r#"[{"name":"Computer","kind":"computer","player":"boyi:random","think_ms":10},
                       {"name":"Ann","kind":"human","token":"secret","claimed":true}]"#
                .into(),
            created_ms: 1,
        }));
        for r in store.apply_live(&[begin]).unwrap() {
            r.unwrap();
        }
    }
    // Every move write now fails, as on a full disk; the file itself stays sound.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TRIGGER no_room BEFORE INSERT ON moves BEGIN SELECT RAISE(ABORT, 'no room left on the disk'); END;",
    )
    .unwrap();
    drop(conn);
    let mut server = serve(&db);
    let stderr = server.stderr.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    // The guard only turns a server that never logs into a failed test.
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(120)) {
        let found = line.contains("database write failed") && line.contains("resumed1");
        seen.push(line);
        if found {
            break;
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    let last = seen.last().cloned().unwrap_or_default();
    assert!(
        last.contains("move 1 of table resumed1") && last.contains("no room left on the disk"),
        "{seen:?}"
    );
}
