//! Load test of `boyi serve` (not a unit test): many concurrent games of random moves from
//! this one client process, two WebSocket connections per game (one per seat). Reports
//! moves per second and the p50/p99 move latency (from sending a move to receiving the state
//! that contains it), then checks every game in the server's SQLite file: present, finished,
//! with exactly the moves played, each legal when replayed, and the stored result the rules'.
//!
//! `cargo run --release -p boyi-server --example load_test -- <addr> <db> [games] [gomoku,xiangqi]`
//! (scripts/load-test.sh starts the server and runs it).

use boyi_core::Game;
use boyi_games::{GameKind, with_game};
use futures_util::{SinkExt, StreamExt};
use rand::seq::IndexedRandom;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

struct SeatResult {
    latencies: Vec<Duration>,
    plies: usize,
}

/// Plays one seat: whenever it is this side's turn, a random legal move from the hints.
async fn seat(
    addr: String,
    table: String,
    token: String,
    side: &'static str,
) -> anyhow::Result<SeatResult> {
    let (mut ws, _) = connect_async(format!("ws://{addr}/ws")).await?;
    let join = json!({"v": 1, "type": "join", "table": table, "token": token});
    ws.send(Message::text(join.to_string())).await?;
    let mut latencies = Vec::new();
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
        if v["type"] != "state" {
            continue;
        }
        let plies = v["moves"].as_array().map_or(0, |m| m.len());
        if let Some((n, at)) = sent
            && plies > n
        {
            latencies.push(at.elapsed());
            sent = None;
        }
        if v["status"] == "finished" {
            return Ok(SeatResult { latencies, plies });
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
        let m = json!({"v": 1, "type": "move", "table": table, "token": token, "move": mv});
        sent = Some((plies, Instant::now()));
        ws.send(Message::text(m.to_string())).await?;
    }
}

async fn create(addr: &str, game: &str) -> anyhow::Result<(String, String, String)> {
    let (mut ws, _) = connect_async(format!("ws://{addr}/ws")).await?;
    let req = json!({"v": 1, "type": "create", "game": game,
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

/// Replays a stored game with the rules; the number of moves and the final outcome.
fn check_stored<G: Game>(
    row: &boyi_server::store::GameRow,
) -> Result<(usize, Option<String>), String> {
    let variant: G::Variant = row.variant.parse().map_err(|e| format!("{e}"))?;
    let mut pos = G::from_text(&variant, &row.start).map_err(|e| e.to_string())?;
    for m in &row.moves {
        let mv = pos
            .parse_move(&m.text)
            .map_err(|e| format!("ply {}: {e}", m.ply))?;
        pos.play(&mv);
    }
    let winner = pos.outcome().map(|o| match o.winner {
        Some(boyi_core::Side::Black) => "black".to_string(),
        Some(boyi_core::Side::White) => "white".to_string(),
        None => "draw".to_string(),
    });
    Ok((row.moves.len(), winner))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let addr = args.get(1).cloned().unwrap_or("127.0.0.1:8080".into());
    let db = args.get(2).cloned().unwrap_or("boyi.sqlite".into());
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
    let mut client_plies = Vec::new();
    let mut failures = 0;
    for (i, task) in tasks.into_iter().enumerate() {
        match task.await? {
            Ok(r) => {
                latencies.extend(r.latencies);
                if i % 2 == 0 {
                    client_plies.push(r.plies);
                }
            }
            Err(e) => {
                failures += 1;
                eprintln!("seat {i}: {e}");
                if i % 2 == 0 {
                    client_plies.push(usize::MAX);
                }
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p) as usize];
    let total: usize = latencies.len();
    println!(
        "games {games} moves {total} time {secs:.1}s moves/s {:.0} latency p50 {:.2}ms p99 {:.2}ms max {:.2}ms seat failures {failures}",
        total as f64 / secs,
        pct(0.5).as_secs_f64() * 1000.0,
        pct(0.99).as_secs_f64() * 1000.0,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1000.0,
    );
    // Every game, from the database.
    let store = boyi_server::store::Store::open(std::path::Path::new(&db))?;
    let mut bad = 0;
    for ((t, _, _, game), plies) in tables.iter().zip(&client_plies) {
        let verdict = match store.load(t) {
            Ok(Some(row)) => {
                let kind: GameKind = game.parse()?;
                match with_game!(kind, G => check_stored::<G>(&row))? {
                    Ok((n, _)) if n != *plies => Err(format!("{n} moves stored, {plies} played")),
                    Ok((_, outcome)) if outcome != row.winner => Err(format!(
                        "stored result {:?}, rules say {outcome:?}",
                        row.winner
                    )),
                    Ok(_) => Ok(()),
                    Err(e) => Err(e),
                }
            }
            Ok(None) => Err("missing".into()),
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = verdict {
            bad += 1;
            eprintln!("game {t}: {e}");
        }
    }
    println!(
        "database check: {} games, {bad} lost or corrupted",
        tables.len()
    );
    anyhow::ensure!(bad == 0 && failures == 0, "load test failed");
    Ok(())
}
