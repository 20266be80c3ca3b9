//! The game database on SQLite: the shared checks (`suite`) on a database in memory, then
//! what only files have: migration of old files, reopening, refusing damaged ones.

mod suite;

use boyi_core::{Reason, Side};
use boyi_records::date::parse_date_query;
use boyi_records::{GameRecord, check};
use boyi_store::{Query, Store};
use suite::game;

fn memory() -> Store {
    Store::open_in_memory().unwrap()
}

#[test]
fn searches_by_player_result_and_date() {
    suite::searches_by_player_result_and_date(memory);
}

#[test]
fn position_search_finds_transpositions_and_next_moves() {
    suite::position_search_finds_transpositions_and_next_moves(memory);
}

#[test]
fn stored_games_load_back() {
    suite::stored_games_load_back(memory);
}

#[test]
fn live_games_are_written_move_by_move() {
    suite::live_games_are_written_move_by_move(memory);
}

#[test]
fn imports_leave_out_games_already_stored() {
    suite::imports_leave_out_games_already_stored(memory);
}

#[test]
fn live_batches_refuse_writes_one_by_one() {
    suite::live_batches_refuse_writes_one_by_one(memory);
}

#[test]
fn database_files_are_migrated_and_reopened() {
    let dir = std::env::temp_dir().join(format!("boyi-store-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.sqlite");
    let _ = std::fs::remove_file(&path);
    {
        let mut store = Store::open(&path).unwrap();
        assert_eq!(
            store.schema_version().unwrap(),
            boyi_store::MIGRATIONS.len() as i64
        );
        let rec = check(&game("a", "b", "", &["h8"], None)).unwrap();
        store.insert(&rec, "import").unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.count().unwrap(), 1);
    assert_eq!(store.journal_mode().unwrap(), "wal");
    drop(store);
    rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    assert!(Store::open(&path).is_err(), "a newer schema is refused");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of schema version 1, as the previous Boyi left it: reasons in words, dates as the
/// files said them, the server's clocks in `live_moves`.
#[test]
fn version_1_files_are_migrated() {
    let dir = std::env::temp_dir().join(format!("boyi-store-v1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old.sqlite");
    let _ = std::fs::remove_file(&path);
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(boyi_store::MIGRATIONS[0].sql).unwrap();
        c.execute_batch(
            "CREATE TABLE live_games (game_id INTEGER PRIMARY KEY, table_id TEXT NOT NULL UNIQUE,
                 options TEXT NOT NULL, seats TEXT NOT NULL, created_ms INTEGER NOT NULL,
                 finished_ms INTEGER);
             CREATE TABLE live_moves (game_id INTEGER NOT NULL, ply INTEGER NOT NULL,
                 side TEXT NOT NULL, clock_black_ms INTEGER, clock_white_ms INTEGER,
                 PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
             INSERT INTO games (id, game, variant, black, white, result, reason, date, plies)
                 VALUES (1, 'xiangqi', 'standard', 'a', 'b', 'black', 'red resigned',
                         '2024.05.02', 1),
                        (2, 'gomoku', 'freestyle', 'c', 'd', 'draw', 'move limit', 'soon', 0),
                        (3, 'jiu', 'standard', 'e', 'f', 'white', 'fewer than 4 pieces', '', 0);
             INSERT INTO moves (game_id, ply, move, time_ms) VALUES (1, 1, 'h2e2', 900);
             INSERT INTO live_games VALUES (1, 'T1', '{}', '[]', 5, 6);
             INSERT INTO live_moves VALUES (1, 1, 'white', 59000, 61000);
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store.schema_version().unwrap(),
        boyi_store::MIGRATIONS.len() as i64
    );
    let one = store.load(1).unwrap();
    assert_eq!(one.result.as_ref().unwrap().reason(), Reason::Resignation);
    assert_eq!(one.date.unwrap().to_string(), "2024-05-02");
    assert_eq!(one.moves[0].clock_ms, Some(61000), "the mover's clock");
    let two = store.load(2).unwrap();
    assert_eq!(two.result.unwrap().reason(), Reason::Adjudication);
    assert_eq!((two.date, two.tags["DateText"].as_str()), (None, "soon"));
    let three = store.load(3).unwrap();
    assert_eq!(three.result.unwrap().reason(), Reason::TooFewPieces);
    let q = Query {
        date: Some(parse_date_query("2024-05").unwrap()),
        ..Query::default()
    };
    assert_eq!(store.search(&q).unwrap().len(), 1);
    assert_eq!(
        store.live_game("T1").unwrap().unwrap().record.moves.len(),
        1
    );
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file database holding `n` games, closed (its write-ahead log folded in).
fn filled_file(path: &std::path::Path, n: usize) {
    let mut store = Store::open(path).unwrap();
    let games: Vec<GameRecord> = (0..n)
        .map(|i| {
            let line = ["h8", "i9", "j10", "k11", "a1", "b2", "c3"];
            let name = format!("player{i}");
            game(
                &name,
                "bob",
                "2024-05-01",
                &line[..2 + i % 5],
                Some(Side::Black),
            )
        })
        .collect();
    let checked: Vec<_> = games.iter().map(|g| check(g).unwrap()).collect();
    store.insert_many(&checked, "import").unwrap();
}

#[test]
fn a_checked_open_refuses_damaged_and_empty_files_and_creates_missing_ones() {
    let dir = tempfile::tempdir().unwrap();
    // Missing: created, and sound.
    let fresh = dir.path().join("fresh.sqlite");
    Store::open_checked(&fresh).unwrap();
    filled_file(&fresh, 400);
    assert_eq!(Store::open_checked(&fresh).unwrap().count().unwrap(), 400);
    // Empty: refused, naming the file.
    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    let e = Store::open_checked(&empty).err().unwrap().to_string();
    assert!(
        e.contains("empty.sqlite") && e.contains("empty file"),
        "{e}"
    );
    assert_eq!(
        std::fs::metadata(&empty).unwrap().len(),
        0,
        "left as it was"
    );
    // Not a database at all.
    let text = dir.path().join("text.sqlite");
    std::fs::write(&text, "not a database, only text\n".repeat(200)).unwrap();
    let e = Store::open_checked(&text).err().unwrap().to_string();
    assert!(e.contains("text.sqlite") && e.contains("damaged"), "{e}");
    // One page in the middle zeroed: the quick check finds it, and the message says how
    // to recover.
    let bytes = std::fs::read(&fresh).unwrap();
    let page = 4096;
    let pages = bytes.len() / page;
    assert!(pages > 8, "{pages} pages");
    let mut broken = bytes.clone();
    let at = page * (pages / 2);
    broken[at..at + page].fill(0);
    let damaged = dir.path().join("damaged.sqlite");
    std::fs::write(&damaged, &broken).unwrap();
    let e = Store::open_checked(&damaged).err().unwrap().to_string();
    assert!(
        e.contains("damaged.sqlite") && e.contains("damaged ("),
        "{e}"
    );
    assert!(e.contains(".recover"), "{e}");
    // The unchecked open still opens it (the command line's readers may try their luck).
    assert!(Store::open(&damaged).is_ok());
}
