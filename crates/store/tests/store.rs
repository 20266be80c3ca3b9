//! The game database: import, search by player/result/date/position, live games, schema.

use boyi_core::{Game, Side};
use boyi_games::GameKind;
use boyi_games::gomoku::Gomoku;
use boyi_records::{GameRecord, GameResult, RecordedMove, check};
use boyi_store::{Query, Store};

fn game(black: &str, white: &str, date: &str, moves: &[&str], winner: Option<Side>) -> GameRecord {
    let mut rec = GameRecord::new(GameKind::Gomoku);
    rec.black = black.into();
    rec.white = white.into();
    rec.date = date.into();
    for m in moves {
        rec.push(*m);
    }
    rec.result = winner.map(|s| GameResult::win(s, "resignation"));
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
            result: Some("white".into()),
            ..Query::default()
        }),
        vec![2]
    );
    assert_eq!(
        ids(Query {
            result: Some("unfinished".into()),
            ..Query::default()
        }),
        vec![3]
    );
    assert_eq!(
        ids(Query {
            date: Some("2024".into()),
            ..Query::default()
        }),
        vec![2, 1]
    );
    assert_eq!(
        ids(Query {
            date: Some("2024-05-15..2024-12".into()),
            ..Query::default()
        }),
        vec![2]
    );
    assert_eq!(
        ids(Query {
            player: Some("bob".into()),
            date: Some("2024-06".into()),
            ..Query::default()
        }),
        vec![2]
    );
    assert!(
        store
            .search(&Query {
                result: Some("won".into()),
                ..Query::default()
            })
            .is_err()
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
    header.black = "engine".into();
    header.white = "human".into();
    header.variant = Some("freestyle".into());
    header.tags.insert("TimeControl".into(), "60+1".into());
    let mut pos = Gomoku::start(&Default::default(), None).unwrap();
    let id = store.begin_game(&header, pos.hash(), "serve").unwrap();
    for (i, text) in ["h8", "i9"].iter().enumerate() {
        let mv = pos.parse_move(text).unwrap();
        pos.play(&mv);
        let rm = RecordedMove {
            text: text.to_string(),
            time_ms: Some(100 * i as u64),
            comment: None,
        };
        assert_eq!(store.append_move(id, &rm, pos.hash()).unwrap(), i + 1);
    }
    let unfinished = Query {
        result: Some("unfinished".into()),
        ..Query::default()
    };
    assert_eq!(store.search(&unfinished).unwrap().len(), 1);
    let hits = store
        .search_position(hash_after("h8"), &Query::default())
        .unwrap();
    assert_eq!(hits[0].next.as_deref(), Some("i9"));
    store
        .finish_game(id, &GameResult::win(Side::Black, "resignation"))
        .unwrap();
    assert!(store.search(&unfinished).unwrap().is_empty());
    let rec = store.load(id).unwrap();
    assert_eq!(rec.moves.len(), 2);
    assert_eq!(rec.tags["TimeControl"], "60+1");
    assert_eq!(rec.result.unwrap().reason, "resignation");
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
    let mode: String = store
        .connection()
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    store
        .connection()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    drop(store);
    assert!(Store::open(&path).is_err(), "a newer schema is refused");
    let _ = std::fs::remove_dir_all(&dir);
}
