//! Test of several `boyi serve` instances behind a load balancer (not a unit test;
//! scripts/cluster-test.sh starts PostgreSQL, HAProxy and the instances and runs it).
//!
//! Creates GAMES games of all four games through the balancer, each seat its own WebSocket
//! connection (so the two seats of a game usually sit on different instances); most games
//! have scripted people on both seats (a random legal move after up to THINK_MS of
//! thought), every fifth has the computer (`boyi:random`) on white. A seat whose connection breaks connects again through the balancer and joins again
//! with its token; a move it sent that no update confirmed is sent again only if the state
//! it gets back still awaits it. After KILL_AFTER seconds the process KILL_PID (an instance)
//! is killed with SIGKILL. Reports moves/s, the latency from sending a move to each seat
//! receiving it (p50/p99; the other seat is usually on another instance), and the takeover
//! time (from the kill to the first update of each game that stalled), then checks every
//! game in the database against what its seats saw: all moves legal on replay, the result
//! the rules', nothing lost or doubled.
//!
//! `cluster_test <balancer addr> <db> <games> <think ms> [KILL_PID KILL_AFTER_SECONDS]`

mod common;

use boyi_core::Game;
use boyi_games::{GameKind, with_game};
use common::{check_game, follow};
use futures_util::{SinkExt, StreamExt};
use rand::seq::IndexedRandom;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::connect_async_with_config;
use tokio_tungstenite::tungstenite::Message;

const KINDS: [&str; 4] = ["gomoku", "connect6", "jiu", "xiangqi"];

/// What every seat shares: when each move was sent, the latencies seen, the kill time and
/// the first update of each game after it.
#[derive(Default)]
struct Shared {
    sent: HashMap<(String, usize), Instant>,
    latencies: Vec<Duration>,
    killed: Option<Instant>,
    /// Per game: when its latest move was seen, and the longest pause between two moves.
    last: HashMap<String, Instant>,
    pause: HashMap<String, Duration>,
    reconnects: usize,
}

type Board = Arc<Mutex<Shared>>;

fn lock(b: &Board) -> std::sync::MutexGuard<'_, Shared> {
    b.lock().unwrap_or_else(|e| e.into_inner())
}

/// A random legal move in the position after `moves`.
fn random_move<G: Game>(moves: &[String]) -> anyhow::Result<Option<String>> {
    let mut pos = G::start(&G::Variant::default(), None)?;
    for m in moves {
        let mv = pos.parse_move(m)?;
        pos.play(&mv);
    }
    let legal = pos.legal_moves();
    Ok(legal.choose(&mut rand::rng()).map(|m| pos.format_move(m)))
}

/// One scripted person: where they play, and how long they think (up to `think` ms).
struct Seat {
    addr: String,
    table: String,
    token: String,
    side: &'static str,
    kind: GameKind,
    think: u64,
}

/// Plays one seat to the end of its game, connecting again whenever the connection breaks.
async fn seat(s: Seat, board: Board) -> anyhow::Result<Vec<String>> {
    let mut moves: Vec<String> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(900);
    let (table, side) = (&s.table, s.side);
    loop {
        anyhow::ensure!(
            Instant::now() < deadline,
            "the game did not end in 15 minutes"
        );
        match play(&s, &board, &mut moves).await {
            Ok(true) => return Ok(moves),
            Ok(false) | Err(_) if false => unreachable!(),
            r => {
                if let (Err(e), Some(_)) = (&r, std::env::var_os("CLUSTER_TEST_VERBOSE")) {
                    eprintln!(
                        "table {table} {side}: {e} (after {} moves); connecting again",
                        moves.len()
                    );
                }
                lock(&board).reconnects += 1;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// One connection of a seat; `true` once the game is over.
async fn play(s: &Seat, board: &Board, moves: &mut Vec<String>) -> anyhow::Result<bool> {
    let (addr, table, token, side, kind) = (&s.addr, s.table.as_str(), &s.token, s.side, s.kind);
    let (mut ws, _) = connect_async_with_config(format!("ws://{addr}/ws"), None, true).await?;
    let join = json!({"v": 2, "type": "join", "table": table, "token": token});
    ws.send(Message::text(join.to_string())).await?;
    let mut pending: Option<usize> = None;
    let mut recent: Vec<String> = Vec::new();
    loop {
        let msg = match tokio::time::timeout(Duration::from_secs(20), ws.next()).await {
            Ok(m) => m.ok_or_else(|| anyhow::anyhow!("connection closed"))??,
            Err(_) => anyhow::bail!("nothing for 20 s; last messages: {recent:?}"),
        };
        let Message::Text(text) = msg else { continue };
        let v: Value = serde_json::from_str(&text)?;
        recent.push(format!(
            "{} plies {} to_move {} pending {pending:?}",
            v["type"], v["plies"], v["to_move"]
        ));
        if recent.len() > 6 {
            recent.remove(0);
        }
        let before = moves.len();
        if v["type"] == "error" {
            // A move sent twice across a reconnection, or refused while the game was
            // changing hands ("try again"): as a person would, look at the board again.
            if std::env::var_os("CLUSTER_TEST_VERBOSE").is_some() {
                eprintln!("table {table} {side}: {}", v["message"]);
            }
            pending = None;
            let watch = json!({"v": 2, "type": "watch", "table": table});
            ws.send(Message::text(watch.to_string())).await?;
            continue;
        }
        if v["type"] == "state" {
            // The whole game: a move sent before it that it lacks was lost with an
            // instance, and is sent again.
            pending = None;
        }
        if !follow(moves, &v)? {
            continue;
        }
        {
            let mut b = lock(board);
            for ply in before + 1..=moves.len() {
                if let Some(at) = b.sent.get(&(table.to_string(), ply)).copied() {
                    b.latencies.push(at.elapsed());
                }
            }
            if moves.len() > before {
                let now = Instant::now();
                if let Some(prev) = b.last.insert(table.to_string(), now) {
                    let p = b.pause.entry(table.to_string()).or_default();
                    *p = (*p).max(now - prev);
                }
            }
        }
        if v["status"] == "finished" {
            return Ok(true);
        }
        if pending.is_some_and(|p| moves.len() > p) {
            pending = None;
        }
        if v["to_move"] != side || pending.is_some() {
            continue;
        }
        if s.think > 0 {
            let ms = rand::random_range(0..=s.think);
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        let Some(mv) = with_game!(kind, G => random_move::<G>(moves))
            .map_err(|e| anyhow::anyhow!("{e}"))??
        else {
            continue;
        };
        lock(board)
            .sent
            .insert((table.to_string(), moves.len() + 1), Instant::now());
        pending = Some(moves.len());
        let m = json!({"v": 2, "type": "move", "table": table, "token": token, "move": mv});
        ws.send(Message::text(m.to_string())).await?;
    }
}

/// Creates a game; its id and the tokens of its human seats.
async fn create(addr: &str, game: &str, computer: bool) -> anyhow::Result<(String, Value)> {
    let (mut ws, _) = connect_async_with_config(format!("ws://{addr}/ws"), None, true).await?;
    let white = if computer {
        json!({"kind": "computer", "player": "boyi:random", "think_ms": 100})
    } else {
        json!({"kind": "human"})
    };
    let req = json!({"v": 2, "type": "create", "game": game,
                     "black": {"kind": "human"}, "white": white});
    ws.send(Message::text(req.to_string())).await?;
    while let Some(msg) = ws.next().await {
        if let Message::Text(t) = msg? {
            let v: Value = serde_json::from_str(&t)?;
            anyhow::ensure!(v["type"] == "created", "create failed: {v}");
            return Ok((
                v["table"].as_str().unwrap_or_default().into(),
                v["tokens"].clone(),
            ));
        }
    }
    anyhow::bail!("no answer to create")
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Prints moves/s, latencies and pauses.
fn report(
    b: &Shared,
    total: usize,
    games: usize,
    secs: f64,
    failures: usize,
) -> anyhow::Result<()> {
    let mut lat = b.latencies.clone();
    lat.sort();
    anyhow::ensure!(!lat.is_empty(), "no move was seen");
    let pct = |p: f64| ms(lat[((lat.len() as f64 - 1.0) * p) as usize]);
    println!(
        "games {games} moves {total} time {secs:.1}s moves/s {:.0} latency p50 {:.2}ms p99 {:.2}ms max {:.2}ms reconnects {} seat failures {failures}",
        total as f64 / secs,
        pct(0.5),
        pct(0.99),
        ms(*lat.last().unwrap_or(&Duration::ZERO)),
        b.reconnects,
    );
    let mut pauses: Vec<Duration> = b.pause.values().copied().collect();
    pauses.sort();
    if std::env::var_os("CLUSTER_TEST_VERBOSE").is_some() {
        eprintln!("longest pause per game: {pauses:?}");
    }
    println!(
        "pauses: {} of {} games paused over 1 s between two moves, the longest {:.0} ms{}",
        pauses.iter().filter(|d| d.as_millis() > 1000).count(),
        pauses.len(),
        pauses.last().map_or(0.0, |d| ms(*d)),
        if b.killed.is_some() {
            " (the games of the instance killed wait for their takeover)"
        } else {
            ""
        }
    );
    Ok(())
}

fn total_moves(seen: &HashMap<String, Vec<String>>) -> usize {
    seen.values().map(Vec::len).sum()
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    anyhow::ensure!(
        args.len() == 5 || args.len() == 7,
        "usage: cluster_test ADDR DB GAMES THINK_MS [KILL_PID KILL_AFTER_SECONDS]"
    );
    let addr = args[1].clone();
    let db: boyi_store::Db = args[2].parse().map_err(anyhow::Error::msg)?;
    let games: usize = args[3].parse()?;
    let think: u64 = args[4].parse()?;
    let kill: Option<(u32, f64)> = match args.get(5) {
        Some(pid) => Some((pid.parse()?, args[6].parse()?)),
        None => None,
    };
    let board: Board = Arc::default();
    let mut tables = Vec::new();
    for i in 0..games {
        let game = KINDS[i % KINDS.len()];
        let computer = i % 5 == 4;
        let (t, tokens) = create(&addr, game, computer).await?;
        tables.push((t, tokens, game.to_string(), computer));
    }
    eprintln!("{games} tables created; playing");
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (t, tokens, game, _) in &tables {
        let kind: GameKind = game.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
        for side in ["black", "white"] {
            if let Some(token) = tokens[side].as_str() {
                let seat = seat(
                    Seat {
                        addr: addr.clone(),
                        table: t.clone(),
                        token: token.to_string(),
                        side,
                        kind,
                        think,
                    },
                    board.clone(),
                );
                tasks.push((t.clone(), side, tokio::spawn(seat)));
            }
        }
    }
    if let Some((pid, after)) = kill {
        let board = board.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs_f64(after)).await;
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
            lock(&board).killed = Some(Instant::now());
            eprintln!("killed instance {pid} at {after} s");
        });
    }
    let mut seen: HashMap<String, Vec<String>> = HashMap::new();
    let mut failures = 0;
    for (t, side, task) in tasks {
        match task.await? {
            Ok(moves) => {
                if side == "black" {
                    seen.insert(t, moves);
                }
            }
            Err(e) => {
                failures += 1;
                eprintln!("table {t} {side}: {e}");
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    report(&lock(&board), total_moves(&seen), games, secs, failures)?;
    let checked = tables.len();
    let bad = tokio::task::spawn_blocking(move || {
        let store = boyi_server::store::Store::open(&db, None)?;
        let records = boyi_store::Store::connect(&db)?;
        let mut bad = 0;
        for (t, _, game, _) in &tables {
            if let Err(e) = check_game(&store, &records, t, game, seen.get(t).map(Vec::as_slice)) {
                bad += 1;
                eprintln!("game {t}: {e}");
            }
        }
        anyhow::Ok(bad)
    })
    .await??;
    println!("database check: {checked} games, {bad} lost, doubled or corrupted");
    anyhow::ensure!(bad == 0 && failures == 0, "cluster test failed");
    Ok(())
}
