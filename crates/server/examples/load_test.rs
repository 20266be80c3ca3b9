//! Load test of `boyi serve` (not a unit test): many concurrent games of random moves from
//! this one client process, two WebSocket connections per game (one per seat), speaking
//! protocol version 2 (an `update` after each move, not the whole state). Reports moves per
//! second, the p50/p99 move latency (from sending a move to receiving the update that
//! contains it) and the size of the updates, then checks every game in the server's database
//! (an SQLite file or a postgres:// URL): present, finished, with exactly the moves played, each legal when replayed, and the
//! stored result the rules'; and the same game as the game database's record.
//!
//! `cargo run --release -p boyi-server --example load_test -- <addr> <db> [games] [gomoku,xiangqi]`
//! (scripts/load-test.sh starts the server and runs it).

mod common;

use common::check_game;
use futures_util::{SinkExt, StreamExt};
use rand::seq::IndexedRandom;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio_tungstenite::connect_async_with_config;
use tokio_tungstenite::tungstenite::Message;

struct SeatResult {
    latencies: Vec<Duration>,
    /// Sizes of the updates received: (bytes, moves in the game then).
    updates: Vec<(usize, usize)>,
    moves: Vec<String>,
}

/// Plays one seat: whenever it is this side's turn, a random legal move from the hints.
async fn seat(
    addr: String,
    table: String,
    token: String,
    side: &'static str,
) -> anyhow::Result<SeatResult> {
    let (mut ws, _) = connect_async_with_config(format!("ws://{addr}/ws"), None, true).await?;
    let join = json!({"v": 2, "type": "join", "table": table, "token": token});
    ws.send(Message::text(join.to_string())).await?;
    let mut latencies = Vec::new();
    let mut updates = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut sent: Option<(usize, Instant)> = None;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(120), ws.next())
            .await?
            .ok_or_else(|| anyhow::anyhow!("connection closed"))??;
        let Message::Text(text) = msg else { continue };
        let v: Value = serde_json::from_str(&text)?;
        if v["type"] == "error" {
            anyhow::bail!("server error: {}", v["message"]);
        }
        if !common::follow(&mut moves, &v)? {
            continue;
        }
        if v["type"] == "update" {
            updates.push((text.len(), moves.len()));
        }
        let plies = moves.len();
        if let Some((n, at)) = sent
            && plies > n
        {
            latencies.push(at.elapsed());
            sent = None;
        }
        if v["status"] == "finished" {
            return Ok(SeatResult {
                latencies,
                updates,
                moves,
            });
        }
        if v["to_move"] != side || sent.is_some() {
            continue;
        }
        let hints = &v["hints"];
        let choices: Vec<&Value> = hints["points"]
            .as_array()
            .or(hints["moves"].as_array())
            .map(|a| a.iter().collect())
            .unwrap_or_default();
        let Some(mv) = choices.choose(&mut rand::rng()) else {
            anyhow::bail!("no legal move offered")
        };
        let m = json!({"v": 2, "type": "move", "table": table, "token": token, "move": mv});
        sent = Some((plies, Instant::now()));
        ws.send(Message::text(m.to_string())).await?;
    }
}

async fn create(addr: &str, game: &str) -> anyhow::Result<(String, String, String)> {
    let (mut ws, _) = connect_async_with_config(format!("ws://{addr}/ws"), None, true).await?;
    let req = json!({"v": 2, "type": "create", "game": game,
                     "black": {"kind": "human"}, "white": {"kind": "human"}});
    ws.send(Message::text(req.to_string())).await?;
    while let Some(msg) = ws.next().await {
        if let Message::Text(t) = msg? {
            let v: Value = serde_json::from_str(&t)?;
            anyhow::ensure!(v["type"] == "created", "create failed: {v}");
            let s = |k: &str| v["tokens"][k].as_str().unwrap_or_default().to_string();
            return Ok((
                v["table"].as_str().unwrap_or_default().into(),
                s("black"),
                s("white"),
            ));
        }
    }
    anyhow::bail!("no answer to create")
}

/// Update sizes by game length: they must not grow with the number of moves.
fn update_sizes(updates: &[(usize, usize)]) {
    let band = |lo: usize, hi: usize| {
        let v: Vec<usize> = updates
            .iter()
            .filter(|u| (lo..hi).contains(&u.1))
            .map(|u| u.0)
            .collect();
        let mean = v.iter().sum::<usize>() as f64 / v.len().max(1) as f64;
        format!(
            "moves {lo}-{hi}: {} updates, mean {mean:.0} B, max {} B",
            v.len(),
            v.iter().max().unwrap_or(&0)
        )
    };
    println!(
        "update sizes: {}; {}; {}",
        band(1, 20),
        band(20, 100),
        band(100, 100_000)
    );
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let addr = args.get(1).cloned().unwrap_or("127.0.0.1:8080".into());
    let db: boyi_store::Db = args
        .get(2)
        .map_or("boyi.sqlite", |s| s.as_str())
        .parse()
        .map_err(anyhow::Error::msg)?;
    let games: usize = args.get(3).map_or(Ok(200), |s| s.parse())?;
    let kinds: Vec<String> = args
        .get(4)
        .map_or("gomoku,xiangqi", |s| s.as_str())
        .split(',')
        .map(String::from)
        .collect();
    let mut tables = Vec::new();
    for i in 0..games {
        let game = kinds[i % kinds.len()].clone();
        let (t, b, w) = create(&addr, &game).await?;
        tables.push((t, b, w, game));
    }
    eprintln!("{games} tables created; playing");
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (t, b, w, _) in &tables {
        tasks.push(tokio::spawn(seat(
            addr.clone(),
            t.clone(),
            b.clone(),
            "black",
        )));
        tasks.push(tokio::spawn(seat(
            addr.clone(),
            t.clone(),
            w.clone(),
            "white",
        )));
    }
    let mut latencies = Vec::new();
    let mut updates: Vec<(usize, usize)> = Vec::new();
    let mut client_moves: Vec<Option<Vec<String>>> = Vec::new();
    let mut failures = 0;
    for (i, task) in tasks.into_iter().enumerate() {
        match task.await? {
            Ok(r) => {
                latencies.extend(r.latencies);
                updates.extend(r.updates);
                if i % 2 == 0 {
                    client_moves.push(Some(r.moves));
                }
            }
            Err(e) => {
                failures += 1;
                eprintln!("seat {i}: {e}");
                if i % 2 == 0 {
                    client_moves.push(None);
                }
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p) as usize];
    let total: usize = latencies.len();
    println!(
        "games {games} ({}) moves {total} time {secs:.1}s moves/s {:.0} latency p50 {:.2}ms p99 {:.2}ms max {:.2}ms seat failures {failures}",
        kinds.join(","),
        total as f64 / secs,
        pct(0.5).as_secs_f64() * 1000.0,
        pct(0.99).as_secs_f64() * 1000.0,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1000.0,
    );
    update_sizes(&updates);
    // Every game, from the database: the server's view and the game database's record,
    // read on a thread of its own (the PostgreSQL client must not block this runtime).
    let checked = tables.len();
    let bad = tokio::task::spawn_blocking(move || {
        let store = boyi_server::store::Store::open(&db, None)?;
        let records = boyi_store::Store::connect(&db)?;
        let mut bad = 0;
        for ((t, _, _, game), played) in tables.iter().zip(&client_moves) {
            if let Err(e) = check_game(&store, &records, t, game, played.as_deref()) {
                bad += 1;
                eprintln!("game {t}: {e}");
            }
        }
        anyhow::Ok(bad)
    })
    .await??;
    println!("database check: {checked} games, {bad} lost or corrupted");
    anyhow::ensure!(bad == 0 && failures == 0, "load test failed");
    Ok(())
}
