//! What clients may make the server compute: computer seats and analyses per connection and
//! in all, thinking time, and players' threads and memory. Each bound, once reached, is a
//! clear error, and room comes back when a game ends, an analysis stops or its connection
//! leaves.

mod common;

use boyi_server::limits::Limits;
use common::{Client, TestServer};
use serde_json::{Value, json};

fn limits() -> Limits {
    Limits {
        messages_per_second: 100_000.0,
        message_burst: 100_000.0,
        ..Limits::default()
    }
}

/// A person (black, to move: the computer waits) against the computer.
fn against_computer(think_ms: u64) -> Value {
    json!({"game": "gomoku", "black": {"kind": "human"},
           "white": {"kind": "computer", "player": "boyi:random", "think_ms": think_ms}})
}

/// Creates the table once the server has made room (it frees seats as it notices a game end
/// or a connection leave, a moment after the client does it).
async fn create_when_room(c: &mut Client, req: &Value) {
    let mut req = req.clone();
    req["v"] = 1.into();
    req["type"] = "create".into();
    for _ in 0..1000 {
        c.send(req.clone()).await;
        let v = loop {
            let v = c.recv().await;
            if v["type"] == "created" || v["type"] == "error" {
                break v;
            }
        };
        if v["type"] == "created" {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("no room came back");
}

async fn create_error(c: &mut Client, mut req: Value) -> String {
    req["v"] = 1.into();
    req["type"] = "create".into();
    c.send(req).await;
    c.error().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computer_seats_are_bounded_per_connection_and_in_all() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(
        &dir.path().join("db.sqlite"),
        Limits {
            computer_seats_per_connection: 4,
            computer_seats: 6,
            ..limits()
        },
    );
    let mut a = Client::connect(server.addr).await;
    let mut tables = Vec::new();
    for _ in 0..4 {
        tables.push(a.create(against_computer(1000)).await);
    }
    let e = create_error(&mut a, against_computer(1000)).await;
    assert!(
        e.contains("too many computer seats") && e.contains("at most 4"),
        "{e}"
    );
    // People's games take no computer seat.
    a.create(json!({"game": "gomoku", "black": {"kind": "human"}, "white": {"kind": "human"}}))
        .await;
    // A finished game gives its seat back.
    let (table, tokens) = &tables[0];
    a.send(json!({"v": 1, "type": "resign", "table": table, "token": tokens["black"]}))
        .await;
    create_when_room(&mut a, &against_computer(1000)).await;

    // Another connection: the server's bound (6) is reached after two more seats.
    let mut b = Client::connect(server.addr).await;
    b.create(against_computer(1000)).await;
    b.create(against_computer(1000)).await;
    let e = create_error(&mut b, against_computer(1000)).await;
    assert!(
        e.contains("the server is busy") && e.contains("at most 6"),
        "{e}"
    );
    // When the first connection leaves, its games against the computer (waiting for a person
    // who is gone) no longer count.
    drop(a);
    create_when_room(&mut b, &against_computer(1000)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thinking_time_and_players_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(&dir.path().join("db.sqlite"), limits());
    let mut a = Client::connect(server.addr).await;
    let e = create_error(&mut a, against_computer(30_001)).await;
    assert!(e.contains("between 10 and 30000"), "{e}");
    let mut many_threads = against_computer(1000);
    many_threads["white"]["player"] = "boyi:strong?threads=8".into();
    let e = create_error(&mut a, many_threads).await;
    assert!(e.contains("threads=8") && e.contains("at most 1"), "{e}");
    let mut big_hash = against_computer(1000);
    big_hash["game"] = "xiangqi".into();
    big_hash["white"]["player"] = "boyi:strong?hash=16384".into();
    let e = create_error(&mut a, big_hash).await;
    assert!(e.contains("at most 256 MB"), "{e}");
    a.send(json!({"v": 1, "type": "analyze", "id": 1, "game": "gomoku", "think_ms": 60_000}))
        .await;
    let e = a.error().await;
    assert!(e.contains("between 10 and 30000"), "{e}");
}

/// Waits for analysis `id` to be done (a stopped analysis still reports its move).
async fn done(c: &mut Client, id: u64) {
    while c.recv_type("analysis_done").await["id"] != id {}
}

fn long_analysis(id: u64) -> Value {
    json!({"v": 1, "type": "analyze", "id": id, "game": "gomoku", "size": 9,
           "moves": ["e5"], "player": "boyi:alphabeta?depth=60", "think_ms": 30_000})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_are_bounded_per_connection_and_in_all() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(
        &dir.path().join("db.sqlite"),
        Limits {
            analyses_per_connection: 1,
            analyses: 1,
            ..limits()
        },
    );
    let mut a = Client::connect(server.addr).await;
    a.send(long_analysis(1)).await;
    assert_eq!(a.recv_type("analysis").await["id"], 1);
    a.send(long_analysis(2)).await;
    let e = a.recv_type("error").await;
    assert_eq!(e["id"], 2);
    let msg = e["message"].as_str().unwrap();
    assert!(msg.contains("send stop_analysis first"), "{msg}");
    // The server's only analysis is taken.
    let mut b = Client::connect(server.addr).await;
    b.send(long_analysis(3)).await;
    let msg = b.error().await;
    assert!(
        msg.contains("the server is busy") && msg.contains("at most 1"),
        "{msg}"
    );
    // Stopping gives both back.
    a.send(json!({"v": 1, "type": "stop_analysis"})).await;
    b.send(long_analysis(4)).await;
    assert_eq!(b.recv_type("analysis").await["id"], 4);
    b.send(json!({"v": 1, "type": "stop_analysis"})).await;
    // Its slot is free once its move is out.
    done(&mut b, 4).await;
    // A finished analysis holds nothing.
    a.send(
        json!({"v": 1, "type": "analyze", "id": 5, "game": "gomoku", "size": 9,
                  "moves": ["e5"], "player": "boyi:alphabeta?depth=1", "think_ms": 50}),
    )
    .await;
    done(&mut a, 5).await;
    a.send(
        json!({"v": 1, "type": "analyze", "id": 6, "game": "gomoku", "size": 9,
                  "moves": ["e5"], "player": "boyi:alphabeta?depth=1", "think_ms": 50}),
    )
    .await;
    done(&mut a, 6).await;
}
