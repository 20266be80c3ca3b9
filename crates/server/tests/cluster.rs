//! Two servers on one PostgreSQL database (slow tier: it needs a PostgreSQL server,
//! `BOYI_TEST_POSTGRES`): a game created on one is joined and played from the other, its
//! invitation is spent for both, the lobby shows it on both, and when the server that runs
//! it stops, the other takes it over with nothing lost and the clock not charged for the
//! time nobody ran it.

mod common;

use common::{Client, TestServer};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

async fn fresh_db() -> boyi_store::Db {
    tokio::task::spawn_blocking(boyi_store::testing::fresh_postgres_schema)
        .await
        .unwrap()
}

/// Waits until `c` has seen move `plies` of `table` (as an update or in a whole state).
async fn sees(c: &mut Client, table: &str, plies: usize) {
    loop {
        let v = c.recv().await;
        assert_ne!(v["type"], "error", "waiting for ply {plies}: {v}");
        let n = match v["type"].as_str() {
            Some("update") => v["plies"].as_u64().unwrap() as usize,
            Some("state") if v["table"] == table => v["moves"].as_array().unwrap().len(),
            _ => continue,
        };
        if n == plies {
            return;
        }
    }
}

/// Whether the lobby of the server at `addr` lists `table` within five seconds.
async fn listed(addr: std::net::SocketAddr, table: &str) -> bool {
    for _ in 0..50 {
        let (_, lobby) = common::http_get(addr, "/api/lobby").await;
        let v: Value = serde_json::from_str(&lobby).unwrap();
        if v["live"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["table"] == table)
        {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: needs a PostgreSQL server (BOYI_TEST_POSTGRES)"]
async fn two_servers_share_games_invitations_and_take_over_from_each_other() {
    let db = fresh_db().await;
    let one = TestServer::start_on(db.clone());
    let two = TestServer::start_on(db.clone());
    // Ann creates a game with a clock on server one; white's seat is an invitation.
    let mut ann = Client::connect(one.addr).await;
    ann.send(
        json!({"v": 3, "type": "create", "game": "gomoku", "size": 9,
                    "black": {"kind": "human", "name": "Ann"},
                    "white": {"kind": "human", "hold": false},
                    "clock": {"base_ms": 60_000, "inc_ms": 0}}),
    )
    .await;
    let c = ann.recv_type("created").await;
    let table = c["table"].as_str().unwrap().to_string();
    let black = c["tokens"]["black"].as_str().unwrap().to_string();
    let link = c["tokens"]["white"].as_str().unwrap().to_string();
    // Bob joins through server two; Eve, with the same link, on server one, only watches.
    let mut bob = Client::connect(two.addr).await;
    let joined = bob.join_as(&table, &link, "Bob").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    let white = joined["token"].as_str().unwrap().to_string();
    let mut eve = Client::connect(one.addr).await;
    let refused = eve.join_as(&table, &link, "Eve").await;
    assert_eq!(refused["code"], "invitation_used", "{refused}");
    // Moves cross between the servers.
    ann.play(&table, &black, "e5").await;
    sees(&mut bob, &table, 1).await;
    bob.play(&table, &white, "e6").await;
    sees(&mut ann, &table, 2).await;
    sees(&mut eve, &table, 2).await;
    // Both lobbies list the game (each heartbeat publishes its games' lines).
    assert!(listed(one.addr, &table).await && listed(two.addr, &table).await);
    // Server one, which runs the game, stops; server two takes it over.
    drop((ann, eve));
    let stopped = Instant::now();
    one.kill();
    let mut ann = Client::connect(two.addr).await;
    ann.send(json!({"v": 3, "type": "join", "table": table, "token": black, "name": "Ann"}))
        .await;
    let s = ann.state_at(&table, 2).await;
    let clock_after = s["clocks"]["black"].as_u64().unwrap();
    ann.play(&table, &black, "d4").await;
    sees(&mut bob, &table, 3).await;
    let took = stopped.elapsed();
    assert!(took < Duration::from_secs(8), "taken over after {took:?}");
    // Black's clock lost no more than the moments spent here, not the time nobody ran it.
    assert!(
        clock_after > 60_000 - 1_000,
        "black's clock {clock_after} ms after a take-over of {took:?}"
    );
    let record = tokio::task::spawn_blocking(move || {
        let store = boyi_store::Store::connect(&db).unwrap();
        store.live_game(&table).unwrap().unwrap().record
    })
    .await
    .unwrap();
    let moves: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["e5", "e6", "d4"]);
}
