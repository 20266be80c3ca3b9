//! Several instances on one PostgreSQL database (slow tier, but for the SQLite check: it
//! needs a PostgreSQL server): leases, fenced writes, take-overs and the instances'
//! notifications.

use boyi_games::GameKind;
use boyi_records::{GameRecord, GameResult, RecordedMove};
use boyi_store::cluster::{Listener, Load, Notifier, OWNERS, Owner};
use boyi_store::live::{LiveStart, LiveWrite};
use boyi_store::testing::{fresh_postgres_schema, postgres_url};
use boyi_store::{Db, Store};
use std::time::Duration;

fn begin(table: &str) -> LiveWrite {
    let mut header = GameRecord::new(GameKind::Gomoku);
    header.variant = Some("freestyle".into());
    header.start = Some("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b".into());
    LiveWrite::Begin(Box::new(LiveStart {
        table: table.into(),
        header,
        start_hash: 1,
        options: "{}".into(),
        seats: "[]".into(),
        created_ms: 1,
    }))
}

fn mv(table: &str, ply: usize, text: &str) -> LiveWrite {
    LiveWrite::Move {
        table: table.into(),
        ply,
        mv: RecordedMove::new(text),
        hash_after: 100 + ply as u64,
    }
}

#[test]
#[ignore = "slow tier: needs a PostgreSQL server"]
fn a_game_has_one_owner_whose_writes_alone_count_until_it_stops() {
    let db = fresh_postgres_schema();
    let (mut a, mut b) = (Store::connect(&db).unwrap(), Store::connect(&db).unwrap());
    let Db::Postgres(url) = &db else {
        unreachable!()
    };
    let mut owners = Listener::connect(url, &[OWNERS.to_string()]).unwrap();
    let t = format!("lease{}", std::process::id());
    // A new game is leased to the instance that writes it.
    let r = a.apply_live_as(&[begin(&t)], Some("ia")).unwrap();
    assert!(r[0].is_ok());
    assert_eq!(b.claim(&t, "ib").unwrap(), Owner::Other("ia".into()));
    assert_eq!(a.claim(&t, "ia").unwrap(), Owner::Me);
    // Only the owner's writes count.
    let refused = b.apply_live_as(&[mv(&t, 1, "h8")], Some("ib")).unwrap();
    assert!(
        refused[0]
            .as_ref()
            .unwrap_err()
            .to_string()
            .contains("another instance"),
        "{refused:?}"
    );
    assert!(a.apply_live_as(&[mv(&t, 1, "h8")], Some("ia")).unwrap()[0].is_ok());
    // The heartbeat renews the lease and publishes the lobby line.
    let load = Load {
        connections: 3,
        computer_seats: 1,
    };
    let owned = a
        .heartbeat("ia", load, &[(t.clone(), "{\"moves\":1}".into())])
        .unwrap();
    assert_eq!(owned, vec![t.clone()]);
    assert!(
        b.live_lobby()
            .unwrap()
            .contains(&"{\"moves\":1}".to_string())
    );
    assert_eq!(b.instances("ib").unwrap()[0].load, load);
    assert!(b.claim_orphans("ib").unwrap().is_empty(), "the lease holds");
    // The owner stops: another instance takes the game over, and says so.
    a.leave("ia").unwrap();
    assert_eq!(b.claim_orphans("ib").unwrap(), vec![t.clone()]);
    let mut heard = Vec::new();
    for _ in 0..20 {
        heard.extend(owners.wait(Duration::from_millis(100)).unwrap());
        if heard.iter().any(|(_, p)| *p == format!("{t} ib")) {
            break;
        }
    }
    assert!(
        heard
            .iter()
            .any(|(c, p)| c == OWNERS && *p == format!("{t} ib")),
        "{heard:?}"
    );
    assert_eq!(b.owner(&t).unwrap().as_deref(), Some("ib"));
    // The old owner can no longer change the game; the new one goes on from its moves.
    assert!(a.apply_live_as(&[mv(&t, 2, "h9")], Some("ia")).unwrap()[0].is_err());
    assert!(a.heartbeat("ia", load, &[]).unwrap().is_empty());
    assert!(b.apply_live_as(&[mv(&t, 1, "a1")], Some("ib")).unwrap()[0].is_err());
    assert!(b.apply_live_as(&[mv(&t, 2, "h9")], Some("ib")).unwrap()[0].is_ok());
    // A finished game gives up its lease at the next heartbeat.
    let finish = LiveWrite::Finish {
        table: t.clone(),
        result: GameResult::draw(boyi_core::Reason::Agreement),
        at_ms: 2,
    };
    assert!(b.apply_live_as(&[finish], Some("ib")).unwrap()[0].is_ok());
    assert!(b.heartbeat("ib", load, &[]).unwrap().is_empty());
    assert_eq!(b.owner(&t).unwrap(), None);
    assert_eq!(b.live_game(&t).unwrap().unwrap().record.moves.len(), 2);
}

#[test]
#[ignore = "slow tier: needs a PostgreSQL server"]
fn notifications_arrive_in_order_and_whole() {
    let url = postgres_url();
    let channel = format!("boyi_test{}", std::process::id());
    let mut listener = Listener::connect(&url, std::slice::from_ref(&channel)).unwrap();
    let mut notifier = Notifier::connect(&url).unwrap();
    let notes: Vec<(String, String)> = (0..300)
        .map(|i| (channel.clone(), format!("{i} {}", "x".repeat(i * 20))))
        .collect();
    for chunk in notes.chunks(64) {
        notifier.send(chunk).unwrap();
    }
    let mut got = Vec::new();
    while got.len() < notes.len() {
        let more = listener.wait(Duration::from_secs(5)).unwrap();
        assert!(
            !more.is_empty(),
            "only {} of {} arrived",
            got.len(),
            notes.len()
        );
        got.extend(more);
    }
    assert_eq!(got, notes);
}

#[test]
fn an_sqlite_file_has_no_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("one.sqlite")).unwrap();
    let e = store.claim("t", "me").unwrap_err().to_string();
    assert!(e.contains("PostgreSQL"), "{e}");
}
