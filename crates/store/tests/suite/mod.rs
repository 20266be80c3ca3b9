//! The store's behaviour on any database: each check takes a function that opens a fresh,
//! empty store. `store.rs` runs them on SQLite, `postgres.rs` on PostgreSQL.

use boyi_core::{Game, Reason, Side};
use boyi_games::GameKind;
use boyi_games::gomoku::Gomoku;
use boyi_records::date::parse_date_query;
use boyi_records::{GameRecord, GameResult, RecordedMove, check};
use boyi_store::{Query, ResultFilter, Store};

pub fn game(
    black: &str,
    white: &str,
    date: &str,
    moves: &[&str],
    winner: Option<Side>,
) -> GameRecord {
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

pub fn hash_after(moves: &str) -> u64 {
    let mut g = Gomoku::start(&Default::default(), None).unwrap();
    g.play_list(moves).unwrap();
    g.hash()
}

pub fn sample_store(new: fn() -> Store) -> Store {
    let mut store = new();
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

pub fn searches_by_player_result_and_date(new: fn() -> Store) {
    let store = sample_store(new);
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

pub fn position_search_finds_transpositions_and_next_moves(new: fn() -> Store) {
    let store = sample_store(new);
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

pub fn stored_games_load_back(new: fn() -> Store) {
    let store = sample_store(new);
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

pub fn live_games_are_written_move_by_move(new: fn() -> Store) {
    let mut store = new();
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

pub fn imports_leave_out_games_already_stored(new: fn() -> Store) {
    let mut store = sample_store(new);
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

/// A batch of live writes commits together, and each refused write (out of order, a table id
/// already taken, a move after the end) changes nothing while the others stand.
pub fn live_batches_refuse_writes_one_by_one(new: fn() -> Store) {
    use boyi_store::live::{LiveStart, LiveWrite};
    let mut store = new();
    let mut header = GameRecord::new(GameKind::Gomoku);
    header.variant = Some("freestyle".into());
    header.start = Some("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b".into());
    let begin = LiveWrite::Begin(Box::new(LiveStart {
        table: "T1".into(),
        header,
        start_hash: hash_after(""),
        options: "{}".into(),
        seats: "[]".into(),
        created_ms: 1,
    }));
    let mv = |ply: usize, text: &str, after: &str| LiveWrite::Move {
        table: "T1".into(),
        ply,
        mv: RecordedMove::new(text),
        hash_after: hash_after(after),
    };
    let results = store
        .apply_live(&[
            begin.clone(),
            mv(1, "h8", "h8"),
            mv(3, "j10", "h8,i9,j10"),
            begin,
            mv(2, "i9", "h8,i9"),
            LiveWrite::Finish {
                table: "T1".into(),
                result: GameResult::win(Side::White, Reason::Resignation),
                at_ms: 9,
            },
            mv(3, "j10", "h8,i9,j10"),
        ])
        .unwrap();
    let ok: Vec<bool> = results.iter().map(Result::is_ok).collect();
    assert_eq!(ok, [true, true, false, false, true, true, false]);
    let live = store.live_game("T1").unwrap().unwrap();
    let moves: Vec<&str> = live.record.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["h8", "i9"]);
    assert_eq!(live.finished_ms, Some(9));
    assert_eq!(store.live_finished(5).unwrap().len(), 1);
    assert!(store.live_unfinished().unwrap().is_empty());
    assert_eq!(store.live_id("T1").unwrap(), Some(live.id));
    assert_eq!(store.live_id("T2").unwrap(), None);
    let hits = store
        .search_position(hash_after("h8,i9"), &Query::default())
        .unwrap();
    assert_eq!(
        hits.len(),
        1,
        "the refused third move left no position behind"
    );
    let taken_back = store
        .apply_live(&[LiveWrite::TakeBack {
            table: "T1".into(),
            keep: 1,
            removed: vec![(2, hash_after("h8,i9"))],
        }])
        .unwrap();
    assert!(taken_back[0].is_err(), "a finished game is not taken back");
}
