//! The server over real HTTP and WebSocket on loopback: full games of every game between two
//! seats, watchers that cannot move, reconnecting, restarting mid-game, and bad input of
//! every kind rejected with nothing changed.

mod common;

use boyi_core::Game;
use boyi_core::rng::SplitMix64;
use boyi_games::{connect6::Connect6, gomoku::Gomoku, jiu::Jiu, xiangqi::Xiangqi};
use common::{Client, TestServer, http_get, http_post, start_with_engines};
use serde_json::{Value, json};

fn human() -> Value {
    json!({"kind": "human"})
}

/// Creates a table whose white seat is open, takes it with a second client through its
/// invitation (which gives that client a token of its own), and plays random legal moves from
/// both seats to the end, checking each state against a local copy of the rules.
async fn full_game<G: Game>(server: &TestServer, mut req: Value, seed: u64) -> (String, G) {
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    req["black"] = human();
    req["white"] = json!({"kind": "human", "hold": false, "name": "Invitee"});
    let (table, tokens) = a.create(req.clone()).await;
    let tok = |s: &str| tokens[s].as_str().unwrap().to_string();
    let (black, invitation) = (tok("black"), tok("white"));
    a.send(json!({"v": 1, "type": "join", "table": table, "token": black}))
        .await;
    let s = a.state_at(&table, 0).await;
    b.send(json!({"v": 3, "type": "join", "table": table, "token": invitation, "name": "Bo"}))
        .await;
    let joined = b.recv_type("joined").await;
    let white = joined["token"].as_str().unwrap().to_string();
    assert_ne!(white, invitation, "the joiner gets a token of their own");
    let s2 = b.state_at(&table, 0).await;
    // Back to version 1: full states after every move, as this test compares them.
    b.send(json!({"v": 1, "type": "watch", "table": table}))
        .await;
    assert_eq!(s2["seats"][1]["name"], "Bo");
    assert_eq!(s2["seats"][1]["open"], false);
    let variant = req["variant"]
        .as_str()
        .map(|v| v.parse().ok().unwrap())
        .unwrap_or_default();
    let mut local = G::from_text(&variant, s["start"].as_str().unwrap()).unwrap();
    let mut rng = SplitMix64::new(seed);
    let mut plies = 0;
    while local.outcome().is_none() {
        let moves = local.legal_moves();
        let mv = &moves[rng.below(moves.len())];
        let text = local.format_move(mv);
        let white_moves = local.side_to_move() == boyi_core::Side::White;
        let (mover, token) = if white_moves {
            (&mut b, &white)
        } else {
            (&mut a, &black)
        };
        mover.play(&table, token, &text).await;
        local.play(mv);
        plies += 1;
        let sa = a.state_at(&table, plies).await;
        let sb = b.state_at(&table, plies).await;
        assert_eq!(sa["position"], local.to_text(), "after {text}");
        assert_eq!(sa, sb);
    }
    let last = a.fresh_state(&table).await;
    let o = local.outcome().unwrap();
    assert_eq!(last["status"], "finished");
    assert_eq!(last["result"]["reason"], o.reason.words());
    let winner = o.winner.map(|s| {
        if s == boyi_core::Side::Black {
            "black"
        } else {
            "white"
        }
    });
    assert_eq!(last["result"]["winner"], json!(winner));
    // Stored, replayable and downloadable.
    let (status, body) = http_get(server.addr, &format!("/api/games/{table}")).await;
    assert_eq!(status, 200);
    let stored: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(stored["moves"].as_array().unwrap().len(), plies);
    assert_eq!(stored["positions"].as_array().unwrap().len(), plies + 1);
    assert_eq!(stored["positions"][plies], local.to_text());
    assert!(
        !body.contains(&black) && !body.contains(&white) && !body.contains(&invitation),
        "tokens stay secret"
    );
    assert!(
        !body.contains("creator"),
        "so does the creator's token hash"
    );
    let (status, record) = http_get(server.addr, &format!("/api/games/{table}/record")).await;
    assert_eq!(status, 200);
    assert!(record.contains(&format!("[Game \"{}\"]", G::NAME)));
    // Every format the page offers reads back to the same game, or is refused with the
    // reason (a 9x9 board in RenLib, a 15x15 Connect6 game in the championship text).
    let variant = local.variant().to_string();
    for f in stored["formats"].as_array().unwrap() {
        let name = f["name"].as_str().unwrap();
        let path = format!("/api/games/{table}/record?format={name}");
        let (status, bytes) = common::http_get_bytes(server.addr, &path).await;
        if status == 422 {
            let why = String::from_utf8_lossy(&bytes).to_string();
            assert!(why.contains("cannot be written as"), "{name}: {why}");
            continue;
        }
        assert_eq!(status, 200, "{name}");
        let format = boyi_records::Format::parse(name).unwrap();
        let opts = boyi_records::ReadOptions {
            variant: Some(variant.clone()),
        };
        let back = boyi_records::read(&bytes, format, &opts)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .remove(0);
        assert_eq!(back.record.moves.len(), plies, "{name}");
        assert_eq!(back.final_text, local.to_text(), "{name}");
        let winner = back.record.result.map(|r| r.winner());
        assert_eq!(winner, local.outcome().map(|o| o.winner), "{name}");
    }
    assert!(stored["formats"].as_array().unwrap().len() >= 2);
    let (status, _) = http_get(
        server.addr,
        &format!("/api/games/{table}/record?format=xyz"),
    )
    .await;
    assert_eq!(status, 400);
    (table, local)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_seats_play_every_game_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    full_game::<Gomoku>(&server, json!({"game": "gomoku", "size": 9}), 1).await;
    full_game::<Gomoku>(&server, json!({"game": "gomoku", "variant": "renju"}), 2).await;
    full_game::<Connect6>(&server, json!({"game": "connect6", "size": 15}), 3).await;
    full_game::<Xiangqi>(&server, json!({"game": "xiangqi"}), 4).await;
    full_game::<Jiu>(&server, json!({"game": "jiu"}), 5).await;
    let (_, lobby) = http_get(server.addr, "/api/lobby").await;
    let lobby: Value = serde_json::from_str(&lobby).unwrap();
    assert_eq!(lobby["finished"].as_array().unwrap().len(), 5);
}

/// Plays `text` with `token` and expects an error naming `expect`; then checks the table
/// still has `plies` moves.
async fn rejected(
    c: &mut Client,
    table: &str,
    token: &str,
    text: &str,
    expect: &str,
    plies: usize,
) {
    c.play(table, token, text).await;
    let e = c.error().await;
    assert!(e.contains(expect), "{text}: {e}");
    let s = c.fresh_state(table).await;
    assert_eq!(s["moves"].as_array().unwrap().len(), plies);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    let mut a = Client::connect(server.addr).await;
    let (table, tokens) = a
        .create(json!({"game": "gomoku", "black": human(), "white": human(), "undo": false}))
        .await;
    let black = tokens["black"].as_str().unwrap();
    let white = tokens["white"].as_str().unwrap();
    a.play(&table, black, "h8").await;
    a.state_at(&table, 1).await;
    // A watcher without a token cannot move; nor can a made-up token.
    let mut watcher = Client::connect(server.addr).await;
    watcher.fresh_state(&table).await;
    rejected(&mut watcher, &table, "", "i9", "holds no seat", 1).await;
    rejected(
        &mut watcher,
        &table,
        &"0".repeat(32),
        "i9",
        "holds no seat",
        1,
    )
    .await;
    // Out of turn, occupied, off the board, malformed.
    rejected(&mut a, &table, black, "i9", "not your turn", 1).await;
    rejected(&mut a, &table, white, "h8", "h8", 1).await;
    rejected(&mut a, &table, white, "z99", "z99", 1).await;
    rejected(&mut a, &table, white, "", "move", 1).await;
    rejected(&mut a, &table, white, &"x".repeat(600), "too long", 1).await;
    // Undo is off at this table.
    a.send(json!({"v": 1, "type": "request_undo", "table": table, "token": black}))
        .await;
    assert!(a.error().await.contains("does not allow"));
    a.send(json!({"v": 1, "type": "answer_draw", "table": table, "token": white, "accept": true}))
        .await;
    assert!(a.error().await.contains("no draw offer"));
    // Malformed and unknown messages.
    for (text, expect) in [
        ("not json", "malformed"),
        ("[]", "JSON object"),
        (r#"{"type":"ping"}"#, "\"v\""),
        (r#"{"v":9,"type":"ping"}"#, "version"),
        (r#"{"v":1,"type":"teleport"}"#, "unknown variant"),
        (r#"{"v":1,"type":"move","table":"x"}"#, "missing field"),
        (
            r#"{"v":1,"type":"watch","table":"nosuchtable"}"#,
            "unknown table",
        ),
        (
            r#"{"v":1,"type":"watch","table":"../../etc"}"#,
            "unknown table",
        ),
    ] {
        a.send_text(text).await;
        let e = a.error().await;
        assert!(e.contains(expect), "{text}: {e}");
    }
    a.send_text(&format!(
        r#"{{"v":1,"type":"ping","pad":"{}"}}"#,
        "x".repeat(20_000)
    ))
    .await;
    assert!(a.error().await.contains("too large"));
    a.send_binary(vec![1, 2, 3]).await;
    assert!(a.error().await.contains("binary"));
    // Invalid options when creating a table.
    for (req, expect) in [
        (json!({"game": "chess"}), "unknown game"),
        (json!({"game": "gomoku", "variant": "blitz"}), "variant"),
        (json!({"game": "gomoku", "size": 40}), "size"),
        (json!({"game": "xiangqi", "size": 15}), "size"),
        (
            json!({"game": "gomoku", "clock": {"base_ms": 0}}),
            "base_ms",
        ),
        (json!({"game": "gomoku", "position": "15/15 b"}), "position"),
        (
            json!({"game": "gomoku", "white": {"kind": "computer", "player": "boyi:genius"}}),
            "unknown player",
        ),
        (
            json!({"game": "gomoku", "white": {"kind": "computer", "player": "cmd:/bin/sh"}}),
            "built-in",
        ),
        (
            json!({"game": "gomoku", "white": {"kind": "computer", "think_ms": 999999}}),
            "think_ms",
        ),
        (
            json!({"game": "gomoku", "white": {"kind": "robot"}}),
            "seat kind",
        ),
        (
            json!({"game": "gomoku", "white": {"kind": "human", "name": "n".repeat(40)}}),
            "longer",
        ),
    ] {
        let mut req = req;
        req["v"] = 1.into();
        req["type"] = "create".into();
        if req.get("black").is_none() {
            req["black"] = human();
        }
        if req.get("white").is_none() {
            req["white"] = human();
        }
        a.send(req.clone()).await;
        let e = a.error().await;
        assert!(e.contains(expect), "{req}: {e}");
    }
    // The watcher saw nothing of all this: its next message is the state it asks for, unchanged.
    let s = watcher.fresh_state(&table).await;
    assert_eq!(s["moves"].as_array().unwrap().len(), 1);
    let (status, _) = http_get(server.addr, "/api/games/nosuch").await;
    assert_eq!(status, 404);
    // A name with markup is kept as text and comes back as JSON text, never as HTML.
    let (t2, tok2) = a
        .create(json!({"game": "gomoku", "black": {"kind": "human", "name": "<script>alert(1)</script>"}, "white": human()}))
        .await;
    let s = a.fresh_state(&t2).await;
    assert_eq!(s["seats"][0]["name"], "<script>alert(1)</script>");
    assert!(tok2["black"].is_string());
    let (_, page) = http_get(server.addr, "/").await;
    assert!(!page.contains("alert(1)"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_gets_the_full_state_and_a_restart_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    restart_loses_nothing(boyi_store::Db::Sqlite(dir.path().join("db.sqlite"))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier: needs a PostgreSQL server (BOYI_TEST_POSTGRES)"]
async fn on_postgresql_reconnecting_gets_the_full_state_and_a_restart_loses_nothing() {
    let db = tokio::task::spawn_blocking(boyi_store::testing::fresh_postgres_schema)
        .await
        .unwrap();
    restart_loses_nothing(db).await;
}

/// A Xiangqi game with a clock: moves, a reconnect, the server killed mid-game and started
/// again, an undo, a resignation, another restart, and the record downloaded in every format.
async fn restart_loses_nothing(db: boyi_store::Db) {
    let server = TestServer::start_on(db.clone());
    let mut a = Client::connect(server.addr).await;
    let clock = json!({"base_ms": 600_000, "inc_ms": 1000});
    let (table, tokens) = a
        .create(json!({"game": "xiangqi", "black": human(), "white": human(), "clock": clock, "undo": true}))
        .await;
    let red = tokens["white"].as_str().unwrap().to_string();
    let black = tokens["black"].as_str().unwrap().to_string();
    let line = ["h2e2", "h9g7", "h0g2", "i9h9"];
    for (i, mv) in line.iter().take(2).enumerate() {
        let token = if i % 2 == 0 { &red } else { &black };
        a.play(&table, token, mv).await;
        a.state_at(&table, i + 1).await;
    }
    // Reconnect: a new connection joining with its token sees everything.
    drop(a);
    let mut a = Client::connect(server.addr).await;
    a.send(json!({"v": 1, "type": "join", "table": table, "token": red}))
        .await;
    let s = a.state_at(&table, 2).await;
    assert_eq!(s["moves"][0]["wxf"], "C2.5");
    assert_eq!(s["moves"][0]["chinese"], "炮二平五");
    assert_eq!(s["clocks"]["running"], "white");
    // Restart in the middle of the game (the server is killed, not shut down).
    a.play(&table, &red, line[2]).await;
    a.state_at(&table, 3).await;
    server.kill();
    let server = TestServer::start_on(db.clone());
    let mut a = Client::connect(server.addr).await;
    a.send(json!({"v": 1, "type": "join", "table": table, "token": black}))
        .await;
    let s = a.state_at(&table, 3).await;
    assert_eq!(s["status"], "playing");
    assert!(s["clocks"]["white"].as_u64().unwrap() > 0);
    a.play(&table, &black, line[3]).await;
    a.state_at(&table, 4).await;
    // Undo: black asks, red accepts; then red resigns. The result survives another restart.
    a.send(json!({"v": 1, "type": "request_undo", "table": table, "token": black}))
        .await;
    let s = a.recv_type("state").await;
    assert_eq!(s["offers"]["undo"], "black");
    a.send(json!({"v": 1, "type": "answer_undo", "table": table, "token": red, "accept": true}))
        .await;
    a.state_at(&table, 3).await;
    a.send(json!({"v": 1, "type": "resign", "table": table, "token": red}))
        .await;
    let s = a.recv_type("state").await;
    assert_eq!(s["result"]["winner"], "black");
    server.kill();
    let server = TestServer::start_on(db.clone());
    let mut c = Client::connect(server.addr).await;
    let s = c.fresh_state(&table).await;
    assert_eq!(s["status"], "finished");
    assert_eq!(s["moves"].as_array().unwrap().len(), 3);
    // The resigned game's download, in every format offered, reads back with its result.
    let (_, body) = http_get(server.addr, &format!("/api/games/{table}")).await;
    let stored: Value = serde_json::from_str(&body).unwrap();
    for f in stored["formats"].as_array().unwrap() {
        let name = f["name"].as_str().unwrap();
        let path = format!("/api/games/{table}/record?format={name}");
        let (status, bytes) = common::http_get_bytes(server.addr, &path).await;
        assert_eq!(status, 200, "{name}");
        let format = boyi_records::Format::parse(name).unwrap();
        let back = boyi_records::read(&bytes, format, &Default::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .remove(0);
        assert_eq!(back.record.moves.len(), 3, "{name}");
        let result = back.record.result.expect("a result");
        assert_eq!(result.winner(), Some(boyi_core::Side::Black), "{name}");
        if name != "xqf" {
            assert_eq!(result.reason(), boyi_core::Reason::Resignation, "{name}");
        }
    }
    c.play(&table, &black, "h7h0").await;
    assert!(c.error().await.contains("over"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_answers_thinks_aloud_and_resumes_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let server = TestServer::start(&db);
    let mut a = Client::connect(server.addr).await;
    let computer = json!({"kind": "computer", "player": "boyi:alphabeta?depth=2", "think_ms": 200});
    let (table, tokens) = a
        .create(
            json!({"game": "gomoku", "size": 9, "black": human(), "white": computer, "undo": true}),
        )
        .await;
    let black = tokens["black"].as_str().unwrap().to_string();
    a.play(&table, &black, "e5").await;
    a.recv_type("thinking").await;
    let s = a.state_at(&table, 2).await;
    assert_eq!(s["moves"][1]["side"], "white");
    // Undo against the computer is immediate and takes back its reply too.
    a.send(json!({"v": 1, "type": "request_undo", "table": table, "token": black}))
        .await;
    a.state_at(&table, 0).await;
    a.play(&table, &black, "d4").await;
    a.state_at(&table, 2).await;
    server.kill();
    let server = TestServer::start(&db);
    let mut a = Client::connect(server.addr).await;
    a.send(json!({"v": 1, "type": "join", "table": table, "token": black}))
        .await;
    let s = a.state_at(&table, 2).await;
    let mut local =
        Gomoku::from_text(&Default::default(), s["position"].as_str().unwrap()).unwrap();
    let mut plies = 2;
    let mut rng = SplitMix64::new(9);
    // Play random moves until the game ends; the computer answers each.
    loop {
        let s = a.fresh_state(&table).await;
        if s["status"] == "finished" {
            break;
        }
        if s["to_move"] != "black" {
            a.state_at(&table, plies + 1).await;
            plies += 1;
            continue;
        }
        local = Gomoku::from_text(&Default::default(), s["position"].as_str().unwrap()).unwrap();
        let moves: Vec<_> = local
            .legal_moves()
            .into_iter()
            .filter(|m| local.format_move(m) != "pass")
            .collect();
        let text = local.format_move(&moves[rng.below(moves.len())]);
        a.play(&table, &black, &text).await;
        let s = a.state_at(&table, plies + 1).await;
        plies += 1;
        if s["status"] == "playing" {
            a.state_at(&table, plies + 1).await;
            plies += 1;
        }
    }
    let _ = local;
    let (_, body) = http_get(server.addr, &format!("/api/games/{table}")).await;
    let stored: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(stored["moves"].as_array().unwrap().len(), plies);
    assert!(stored["result"].is_object());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_and_messages_are_bounded_per_client() {
    let dir = tempfile::tempdir().unwrap();
    let limits = boyi_server::limits::Limits {
        connections_per_ip: 2,
        messages_per_second: 0.001,
        message_burst: 5.0,
        ..Default::default()
    };
    let server = TestServer::start_with(&dir.path().join("db.sqlite"), limits);
    let mut a = Client::connect(server.addr).await;
    let _b = Client::connect(server.addr).await;
    let third = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr)).await;
    assert!(
        third.is_err(),
        "a third connection from one address is refused"
    );
    for _ in 0..5 {
        a.send(json!({"v": 1, "type": "ping"})).await;
        assert_eq!(a.recv().await["type"], "pong");
    }
    a.send(json!({"v": 1, "type": "ping"})).await;
    assert!(a.error().await.contains("too many messages"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_seats_draws_and_the_analysis_board() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    let mut a = Client::connect(server.addr).await;
    let (table, tokens) = a
        .create(json!({"game": "connect6", "black": human(), "white": {"kind": "human", "hold": false}}))
        .await;
    let (_, lobby) = http_get(server.addr, "/api/lobby").await;
    let lobby: Value = serde_json::from_str(&lobby).unwrap();
    assert_eq!(lobby["live"][0]["table"], table.as_str());
    assert_eq!(lobby["live"][0]["seats"][1]["open"], true);
    // Someone from the lobby sits down; the seat is no longer open.
    let mut b = Client::connect(server.addr).await;
    b.send(json!({"v": 1, "type": "sit", "table": table, "name": "Lobby"}))
        .await;
    let seated = b.recv_type("seated").await;
    let white = seated["token"].as_str().unwrap().to_string();
    assert_ne!(white, tokens["white"].as_str().unwrap());
    b.send(json!({"v": 1, "type": "sit", "table": table})).await;
    assert!(b.error().await.contains("no open seat"));
    let black = tokens["black"].as_str().unwrap();
    a.play(&table, black, "j10").await;
    a.state_at(&table, 1).await;
    a.play(&table, &white, "k11 j9").await;
    let s = a.state_at(&table, 2).await;
    assert_eq!(s["moves"][1]["text"], "j9 k11");
    assert_eq!(s["hints"]["stones"], 2);
    // Draw: offered by black, accepted by white.
    a.send(json!({"v": 1, "type": "offer_draw", "table": table, "token": black}))
        .await;
    let s = a.recv_type("state").await;
    assert_eq!(s["offers"]["draw"], "black");
    b.send(json!({"v": 1, "type": "answer_draw", "table": table, "token": white, "accept": true}))
        .await;
    let s = loop {
        let s = b.recv_type("state").await;
        if s["status"] == "finished" {
            break s;
        }
    };
    assert_eq!(s["result"]["winner"], Value::Null);
    assert_eq!(s["result"]["reason"], "agreement");
    // The analysis board: inspect a line, then let an engine think about it.
    a.send(
        json!({"v": 1, "type": "inspect", "id": 7, "game": "xiangqi", "moves": ["h2e2", "h9g7"]}),
    )
    .await;
    let i = a.recv_type("inspection").await;
    assert_eq!(i["id"], 7);
    assert_eq!(i["moves"][1]["chinese"], "马８进７");
    a.send(
        json!({"v": 1, "type": "inspect", "id": 8, "game": "xiangqi", "moves": ["h2e2", "h2e2"]}),
    )
    .await;
    let e = a.recv_type("error").await;
    assert_eq!(e["id"], 8);
    assert!(e["message"].as_str().unwrap().contains("move 2"));
    a.send(
        json!({"v": 1, "type": "analyze", "id": 9, "game": "gomoku", "size": 9,
                  "moves": ["e5", "e6"], "player": "boyi:alphabeta?depth=2", "think_ms": 300}),
    )
    .await;
    let info = a.recv_type("analysis").await;
    assert_eq!(info["id"], 9);
    let done = a.recv_type("analysis_done").await;
    assert!(done["bestmove"].is_string(), "{done}");
    let (_, meta) = http_get(server.addr, "/api/meta").await;
    let meta: Value = serde_json::from_str(&meta).unwrap();
    assert_eq!(meta["games"].as_array().unwrap().len(), 4);
}

/// Games played here are ordinary games of the shared game database: found by player, result
/// and position search like imported ones. Version 2 clients get updates, not the whole state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_games_are_in_the_game_database_and_updates_stay_small() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let server = TestServer::start(&db);
    let mut a = Client::connect(server.addr).await;
    let (table, tokens) = a
        .create(
            json!({"game": "gomoku", "black": {"kind": "human", "name": "Ann"},
                       "white": {"kind": "human", "name": "Bo"}}),
        )
        .await;
    let tok = |s: &str| tokens[s].as_str().unwrap().to_string();
    a.send(json!({"v": 2, "type": "watch", "table": table}))
        .await;
    let full = a.recv_type("state").await;
    assert_eq!(full["v"], boyi_server::protocol::VERSION);
    let line = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];
    let mut sizes = Vec::new();
    for (i, mv) in line.iter().enumerate() {
        a.send(json!({"v": 2, "type": "move", "table": table,
                       "token": tok(if i % 2 == 0 { "black" } else { "white" }), "move": mv}))
            .await;
        let u = a.recv_type("update").await;
        assert_eq!(
            (u["plies"].as_u64(), u["move"]["text"].as_str()),
            (Some(i as u64 + 1), Some(*mv))
        );
        assert!(u.get("moves").is_none() && u.get("seats").is_none(), "{u}");
        sizes.push(u.to_string().len());
        let over = if i + 1 == line.len() {
            "finished"
        } else {
            "playing"
        };
        assert_eq!(u["status"], over);
    }
    // The update after move 9 is no bigger than after move 1 but for the shorter hint list.
    assert!(sizes[8] <= sizes[0] + 16, "{sizes:?}");
    // A reconnecting client gets the full state.
    let mut b = Client::connect(server.addr).await;
    b.send(json!({"v": 2, "type": "watch", "table": table}))
        .await;
    let s = b.recv_type("state").await;
    assert_eq!(s["moves"].as_array().unwrap().len(), 9);
    assert_eq!(s["result"]["winner"], "black");
    // The game database (as `boyi record search` opens it) has the game.
    let store = boyi_store::Store::open(&db).unwrap();
    let q = boyi_store::Query {
        player: Some("Ann".into()),
        ..Default::default()
    };
    let found = store.search(&q).unwrap();
    assert_eq!(found.len(), 1);
    let g = &found[0];
    assert_eq!(g.players, ["Ann", "Bo"]);
    let winner = g.result.as_ref().map(|r| r.winner_word());
    assert_eq!((winner, g.plies), (Some("black"), 9));
    let rec = store.load(g.id).unwrap();
    let texts: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, line);
    assert!(rec.moves.iter().all(|m| m.time_ms.is_some()));
    let mut pos = Gomoku::start(&Default::default(), None).unwrap();
    pos.play_list("h8,a1").unwrap();
    let hits = store
        .search_position(pos.hash(), &Default::default())
        .unwrap();
    assert_eq!((hits.len(), hits[0].next.as_deref()), (1, Some("i8")));
}

/// A photo of a real board, read over HTTP: the position comes back as the game's text; bad
/// photos get errors that say what is wrong.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn photos_of_boards_are_read_over_http() {
    use boyi_vision::Stone;
    use boyi_vision::synth::{Level, SynthOptions, render};
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    // Black on h8 and i9, white on h9 (rows from the top: rank 15 first).
    let mut stones = vec![Stone::Empty; 15 * 15];
    let at = |col: usize, rank: usize| (15 - rank) * 15 + col;
    stones[at(7, 8)] = Stone::Black;
    stones[at(8, 9)] = Stone::Black;
    stones[at(7, 9)] = Stone::White;
    let photo = render(&SynthOptions {
        seed: 3,
        level: Level::Easy,
        width: 640,
        height: 480,
        size: Some(15),
        position: Some(stones),
        distortion: None,
    })
    .unwrap();
    let (status, body) = http_post(
        server.addr,
        "/api/photo?game=gomoku",
        "image/jpeg",
        &photo.jpeg,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let mut want = Gomoku::start(&Default::default(), None).unwrap();
    want.play_list("h8,h9,i9").unwrap();
    let got = Gomoku::from_text(&Default::default(), v["position"].as_str().unwrap()).unwrap();
    assert_eq!(got.to_text(), want.to_text());
    assert_eq!(
        (v["size"].as_u64(), v["stones"]["black"].as_u64()),
        (Some(15), Some(2))
    );
    // What the page then does with it: a game from that position.
    let mut a = Client::connect(server.addr).await;
    let (table, _) = a
        .create(json!({"game": "gomoku", "position": v["position"], "black": human(), "white": human()}))
        .await;
    assert_eq!(a.fresh_state(&table).await["to_move"], "white");
    // Bad photos.
    let blank = {
        let img = image::RgbImage::from_pixel(320, 240, image::Rgb([200, 170, 120]));
        let mut png = std::io::Cursor::new(Vec::new());
        img.write_to(&mut png, image::ImageFormat::Png).unwrap();
        png.into_inner()
    };
    // A few hundred bytes whose header claims 12000×12000 pixels.
    let huge = {
        let img = image::RgbImage::from_pixel(16, 16, image::Rgb([200, 170, 120]));
        let mut jpeg = std::io::Cursor::new(Vec::new());
        img.write_to(&mut jpeg, image::ImageFormat::Jpeg).unwrap();
        let mut bytes = jpeg.into_inner();
        let sof = bytes.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        bytes[sof + 5..sof + 9].copy_from_slice(&[0x2E, 0xE0, 0x2E, 0xE0]);
        bytes
    };
    for (path, bytes, status, words) in [
        (
            "/api/photo?game=gomoku",
            b"hello, not a photo".to_vec(),
            422,
            "not a JPEG or PNG",
        ),
        (
            "/api/photo?game=gomoku",
            huge,
            422,
            "12000×12000 pixels (144.0 megapixels), more than the 40.0",
        ),
        (
            "/api/photo?game=gomoku",
            blank,
            422,
            "could not read a board",
        ),
        ("/api/photo?game=gomoku", Vec::new(), 422, "empty"),
        (
            "/api/photo?game=xiangqi",
            photo.jpeg.clone(),
            422,
            "not xiangqi",
        ),
        ("/api/photo?game=chess", photo.jpeg.clone(), 422, "chess"),
        ("/api/photo", photo.jpeg.clone(), 400, "which game"),
        (
            "/api/photo?game=gomoku",
            vec![0u8; 9 << 20],
            413,
            "larger than 8 MiB",
        ),
    ] {
        let (got, body) = http_post(server.addr, path, "image/jpeg", &bytes).await;
        assert_eq!(got, status, "{path}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap_or_else(|_| panic!("{path}: {body}"));
        assert!(
            v["error"].as_str().unwrap().contains(words),
            "{path}: {body}"
        );
    }
}

/// External engines configured on the server sit at tables as `engine:NAME`; a client can
/// choose among them but never name a command of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configured_external_engines_play_and_clients_cannot_run_commands() {
    let dir = tempfile::tempdir().unwrap();
    let engine = "cmd:\"sh -c 'while read l; do case $l in uci) echo uciok;; isready) echo readyok;; go*) echo bestmove a1;; esac; done'\"@uci";
    let server = start_with_engines(
        &dir.path().join("db.sqlite"),
        &[&format!("corner={engine}")],
    );
    let (_, meta) = http_get(server.addr, "/api/meta").await;
    let meta: Value = serde_json::from_str(&meta).unwrap();
    let gomoku = meta["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "gomoku")
        .unwrap();
    assert!(
        gomoku["players"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "engine:corner")
    );
    assert!(
        !meta.to_string().contains("sh -c"),
        "command lines are never shown"
    );
    let mut a = Client::connect(server.addr).await;
    let (table, tokens) = a
        .create(json!({"game": "gomoku", "size": 9, "black": human(),
                       "white": {"kind": "computer", "player": "engine:corner", "think_ms": 500}}))
        .await;
    a.send(json!({"v": 1, "type": "watch", "table": table}))
        .await;
    a.play(&table, tokens["black"].as_str().unwrap(), "e5")
        .await;
    let s = a.state_at(&table, 2).await;
    assert_eq!(s["moves"][1]["text"], "a1");
    for player in [engine, "engine:nobody", "cmd:ls@uci"] {
        a.send(
            json!({"v": 1, "type": "create", "game": "gomoku", "black": human(),
                       "white": {"kind": "computer", "player": player}}),
        )
        .await;
        let e = a.error().await;
        assert!(e.contains("engine"), "{player}: {e}");
    }
}
