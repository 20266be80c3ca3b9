//! The game database: import, search by player/result/date/position, live games, schema.

use boyi_core::{Game, Reason, Side};
use boyi_games::GameKind;
use boyi_games::gomoku::Gomoku;
use boyi_records::date::parse_date_query;
use boyi_records::{GameRecord, GameResult, RecordedMove, check};
use boyi_store::{Query, ResultFilter, Store};

fn game(black: &str, white: &str, date: &str, moves: &[&str], winner: Option<Side>) -> GameRecord {
    let mut rec = GameRecord::new(GameKind::Gomoku);
    rec.set_name(Side::Black, black);
    rec.set_name(Side::White, white);
    rec.date = (!date.is_empty()).then(|| date.parse().unwrap());
    for m in moves {
        rec.push(*m);
    }
    rec.result = winner.map(|s| GameResult::win(s, Reason::Resignation));
    rec
}

fn hash_after(moves: &str) -> u64 {
    let mut g = Gomoku::start(&Default::default(), None).unwrap();
    g.play_list(moves).unwrap();
    g.hash()
}

fn sample_store() -> Store {
    let mut store = Store::open_in_memory().unwrap();
    let games = [
        game(
            "alice",
            "bob",
            "2024-05-01",
            &["h8", "i9", "j10", "k11"],
            Some(Side::Black),
        ),
        game(
            "bob",
            "carol",
            "2024-06-02",
            &["j10", "i9", "h8", "g7"],
            Some(Side::White),
        ),
        game("carol", "alice", "2023-01-03", &["a1", "b2"], None),
    ];
    let checked: Vec<_> = games.iter().map(|g| check(g).unwrap()).collect();
    store.insert_many(&checked, "import").unwrap();
    store
}

#[test]
fn searches_by_player_result_and_date() {
    let store = sample_store();
    let ids = |q: Query| {
        store
            .search(&q)
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(Query::default()), vec![3, 2, 1]);
    assert_eq!(
        ids(Query {
            player: Some("alice".into()),
            ..Query::default()
        }),
        vec![3, 1]
    );
    assert_eq!(
        ids(Query {
            result: Some(ResultFilter::Finished(Some(Side::White))),
            ..Query::default()
        }),
        vec![2]
    );
    assert_eq!(
        ids(Query {
            result: Some(ResultFilter::Unfinished),
            ..Query::default()
        }),
        vec![3]
    );
    assert_eq!(
        ids(Query {
            date: Some(parse_date_query("2024").unwrap()),
            ..Query::default()
        }),
        vec![2, 1]
    );
    assert_eq!(
        ids(Query {
            date: Some(parse_date_query("2024-05-15..2024-12").unwrap()),
            ..Query::default()
        }),
        vec![2]
    );
    assert_eq!(
        ids(Query {
            player: Some("bob".into()),
            date: Some(parse_date_query("2024-06").unwrap()),
            ..Query::default()
        }),
        vec![2]
    );
    assert!("won".parse::<ResultFilter>().is_err());
    assert_eq!(
        ids(Query {
            result: Some("draw".parse().unwrap()),
            ..Query::default()
        }),
        Vec::<i64>::new()
    );
}

#[test]
fn position_search_finds_transpositions_and_next_moves() {
    let store = sample_store();
    let hits = store
        .search_position(hash_after("h8,i9,j10"), &Query::default())
        .unwrap();
    let found: Vec<_> = hits
        .iter()
        .map(|h| (h.game.id, h.ply, h.next.clone()))
        .collect();
    assert_eq!(
        found,
        vec![(2, 3, Some("g7".into())), (1, 3, Some("k11".into()))]
    );
    // The final position of a game has no next move.
    let end = store
        .search_position(hash_after("a1,b2"), &Query::default())
        .unwrap();
    assert_eq!(end.len(), 1);
    assert_eq!(end[0].next, None);
    // The start position: every game, at ply 0.
    assert_eq!(
        store
            .search_position(hash_after(""), &Query::default())
            .unwrap()
            .len(),
        3
    );
    let q = Query {
        player: Some("carol".into()),
        ..Query::default()
    };
    assert_eq!(store.search_position(hash_after(""), &q).unwrap().len(), 2);
}

#[test]
fn stored_games_load_back() {
    let store = sample_store();
    let rec = store.load(1).unwrap();
    let original = check(&game(
        "alice",
        "bob",
        "2024-05-01",
        &["h8", "i9", "j10", "k11"],
        Some(Side::Black),
    ))
    .unwrap()
    .record;
    assert_eq!(rec, original);
    assert!(store.load(99).is_err());
}

#[test]
fn live_games_are_written_move_by_move() {
    let mut store = Store::open_in_memory().unwrap();
    let mut header = GameRecord::new(GameKind::Gomoku);
    header.players[0] = boyi_records::Player::program("boyi:strong");
    header.set_name(Side::White, "human");
    header.variant = Some("freestyle".into());
    header.tags.insert("TimeControl".into(), "60+1".into());
    let mut pos = Gomoku::start(&Default::default(), None).unwrap();
    let id = store.begin_game(&header, pos.hash(), "serve").unwrap();
    for (i, text) in ["h8", "i9"].iter().enumerate() {
        let mv = pos.parse_move(text).unwrap();
        pos.play(&mv);
        let rm = RecordedMove {
            time_ms: Some(100 * i as u64),
            clock_ms: Some(5000 - i as u64),
            eval: Some(boyi_core::Score::Mate(-3)),
            depth: Some(7),
            comment: Some("a\nb".into()),
            ..RecordedMove::new(*text)
        };
        assert_eq!(store.append_move(id, &rm, pos.hash()).unwrap(), i + 1);
    }
    let unfinished = Query {
        result: Some(ResultFilter::Unfinished),
        ..Query::default()
    };
    assert_eq!(store.search(&unfinished).unwrap().len(), 1);
    let hits = store
        .search_position(hash_after("h8"), &Query::default())
        .unwrap();
    assert_eq!(hits[0].next.as_deref(), Some("i9"));
    store
        .finish_game(
            id,
            &GameResult::win(Side::Black, Reason::Time).with_detail("no answer"),
        )
        .unwrap();
    assert!(store.search(&unfinished).unwrap().is_empty());
    let rec = store.load(id).unwrap();
    assert_eq!(rec.moves.len(), 2);
    assert_eq!(rec.tags["TimeControl"], "60+1");
    let result = rec.result.unwrap();
    assert_eq!(
        (result.reason(), result.detail.as_str()),
        (Reason::Time, "no answer")
    );
    assert_eq!(rec.players[0].spec.as_deref(), Some("boyi:strong"));
    assert_eq!(rec.moves[1].clock_ms, Some(4999));
    assert_eq!(rec.moves[1].eval, Some(boyi_core::Score::Mate(-3)));
    assert_eq!(rec.moves[1].comment.as_deref(), Some("a\nb"));
    assert!(
        store
            .finish_game(id, &GameResult::draw(Reason::Agreement))
            .is_err()
    );
    // A finished game takes no more moves.
    let rm = RecordedMove {
        text: "j10".into(),
        ..RecordedMove::default()
    };
    assert!(store.append_move(id, &rm, 0).is_err());
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
    assert_eq!(store.schema_version().unwrap(), 2);
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

#[test]
fn imports_leave_out_games_already_stored() {
    let mut store = sample_store();
    let again = check(&game(
        "alice",
        "bob",
        "2024-05-01",
        &["h8", "i9", "j10", "k11"],
        Some(Side::Black),
    ))
    .unwrap();
    let other = check(&game("x", "y", "", &["h8"], Some(Side::White))).unwrap();
    let got = store.import([&again, &other, &other], "import").unwrap();
    assert_eq!((got.ids.len(), got.duplicates), (1, 2));
    assert_eq!(store.count().unwrap(), 4);
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
