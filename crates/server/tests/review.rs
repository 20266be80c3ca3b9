//! Levels for people, the signals of each game (check, renju's forbidden points), the
//! analysis board's strongest engine, and the review of a finished game.

mod common;

use common::{Client, TestServer, http_get};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn levels_are_offered_and_play_at_their_own_budget() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    let (_, meta) = http_get(server.addr, "/api/meta").await;
    let meta: Value = serde_json::from_str(&meta).unwrap();
    for g in meta["games"].as_array().unwrap() {
        let levels = g["levels"].as_array().unwrap();
        assert!((4..=5).contains(&levels.len()), "{g}");
        let default = g["default_level"].as_str().unwrap();
        assert_eq!(
            levels[levels.len() / 2]["id"],
            default,
            "a middle level first"
        );
    }
    let mut a = Client::connect(server.addr).await;
    a.send(json!({"v": 3, "type": "create", "game": "jiu",
                  "black": {"kind": "human"}, "white": {"kind": "computer", "level": "beginner"}}))
        .await;
    let c = a.recv_type("created").await;
    let table = c["table"].as_str().unwrap().to_string();
    let s = a.fresh_state(&table).await;
    assert_eq!(s["seats"][1]["level"], "beginner");
    assert_eq!(s["seats"][1]["kind"], "computer");
    // White places first: the level moves by itself.
    let s = a.state_at(&table, 1).await;
    assert!(["g7", "h8"].contains(&s["moves"][0]["text"].as_str().unwrap()));
    for bad in [
        json!({"kind": "computer", "level": "grandmaster"}),
        json!({"kind": "computer", "level": "club", "think_ms": 100}),
        json!({"kind": "human", "level": "club"}),
    ] {
        a.send(json!({"v": 3, "type": "create", "game": "jiu", "black": {"kind": "human"}, "white": bad}))
            .await;
        let e = a.error().await;
        assert!(e.contains("level"), "{e}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_and_forbidden_points_are_signalled() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    let mut a = Client::connect(server.addr).await;
    let (table, tokens) = a
        .create(
            json!({"game": "xiangqi", "position": "4k4/9/9/9/9/9/9/9/3R5/3K5 w - - 0 1",
                        "black": {"kind": "human"}, "white": {"kind": "human"}}),
        )
        .await;
    let s = a.fresh_state(&table).await;
    assert_eq!(s["check"], Value::Null);
    a.play(&table, tokens["white"].as_str().unwrap(), "d1e1")
        .await;
    let s = a.state_at(&table, 1).await;
    assert_eq!(s["check"], "e9", "the black king on e9 is in check");
    // Renju: black's forbidden points with their shapes; white has none.
    let (table, tokens) = a
        .create(json!({"game": "gomoku", "variant": "renju",
                        "black": {"kind": "human"}, "white": {"kind": "human"}}))
        .await;
    let (b, w) = (
        tokens["black"].as_str().unwrap(),
        tokens["white"].as_str().unwrap(),
    );
    for (i, mv) in ["f7", "a1", "g7", "a2", "h9", "a3", "h8", "b1"]
        .iter()
        .enumerate()
    {
        a.play(&table, if i % 2 == 0 { b } else { w }, mv).await;
        a.state_at(&table, i + 1).await;
    }
    let s = a.fresh_state(&table).await;
    let forbidden = s["hints"]["forbidden"].as_array().unwrap();
    assert!(
        forbidden.contains(&json!({"point": "h7", "reason": "double-three"})),
        "{forbidden:?}"
    );
    a.play(&table, b, "h7").await;
    assert!(a.error().await.contains("h7"));
    a.play(&table, b, "m13").await;
    let s = a.state_at(&table, 9).await;
    assert!(s["hints"].get("forbidden").is_none(), "white to move");
}

/// Every message of a review until it is done: positions, verdicts.
async fn review(c: &mut Client, req: Value) -> (Vec<Value>, Vec<Value>) {
    c.send(req).await;
    let (mut positions, mut verdicts) = (Vec::new(), Vec::new());
    loop {
        let v = c.recv().await;
        match v["type"].as_str().unwrap() {
            "review_position" => positions.push(v),
            "review_move" => verdicts.push(v),
            "review_done" => {
                assert!(v.get("error").is_none(), "{v}");
                return (positions, verdicts);
            }
            "error" => panic!("{v}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_judges_every_move_and_the_analysis_board_uses_the_strongest_engine() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    let mut a = Client::connect(server.addr).await;
    // White lets black's open three become an open four: a lost game from there.
    let moves = ["e5", "a1", "e6", "a2", "e7", "a3", "e8", "a4", "e9"];
    let (positions, verdicts) = review(
        &mut a,
        json!({"v": 3, "type": "review", "id": 5, "game": "gomoku", "size": 9, "moves": moves, "think_ms": 100}),
    )
    .await;
    assert_eq!(positions.len(), moves.len() + 1);
    assert_eq!(verdicts.len(), moves.len());
    for (k, p) in positions.iter().enumerate() {
        assert_eq!(p["ply"], k);
        assert_eq!(p["id"], 5);
        let black = p["black"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&black));
    }
    let last = positions.last().unwrap();
    assert_eq!(last["result"]["winner"], "black");
    assert_eq!(last["black"], 1.0);
    assert!(positions[0]["bestmove"].is_string() && positions[0]["pv"].is_array());
    let white_blunders: Vec<&Value> = verdicts
        .iter()
        .filter(|v| v["side"] == "white" && v["judgement"] == "blunder")
        .collect();
    assert!(!white_blunders.is_empty(), "{verdicts:?}");
    for v in white_blunders {
        assert_ne!(v["best"], v["move"]);
        assert!(v["loss"].as_f64().unwrap() >= 0.3);
        assert_eq!(v["line"][0], v["best"]);
    }
    assert_eq!(verdicts[8]["move"], "e9");
    assert_eq!(verdicts[8]["judgement"], Value::Null, "the winning move");
    // Bad requests say what is wrong.
    a.send(json!({"v": 3, "type": "review", "id": 6, "game": "gomoku", "moves": ["h8", "h8"]}))
        .await;
    let e = a.recv_type("error").await;
    assert_eq!(e["id"], 6);
    assert!(e["message"].as_str().unwrap().contains("move 2"));
    a.send(
        json!({"v": 3, "type": "review", "id": 7, "game": "gomoku", "moves": [], "think_ms": 5}),
    )
    .await;
    assert!(a.error().await.contains("think_ms"));
    // The analysis board: the strongest engine unless asked otherwise, scores with black's
    // expected result, Xiangqi lines in Chinese too.
    a.send(json!({"v": 3, "type": "analyze", "id": 8, "game": "xiangqi", "moves": ["h2e2"], "think_ms": 300}))
        .await;
    let info = a.recv_type("analysis").await;
    assert!(info["black"].is_number(), "{info}");
    assert_eq!(
        info["pv_chinese"].as_array().unwrap().len(),
        info["pv"].as_array().unwrap().len()
    );
    let done = a.recv_type("analysis_done").await;
    assert!(done["bestmove_chinese"].is_string(), "{done}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_reviewed() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    let mut a = Client::connect(server.addr).await;
    let games = [
        ("connect6", vec!["j10", "k9 k11", "i9 i11"]),
        ("jiu", vec!["g7", "h8", "d4"]),
        ("xiangqi", vec!["h2e2", "h9g7", "h0g2"]),
    ];
    for (id, (game, moves)) in games.into_iter().enumerate() {
        let (positions, verdicts) = review(
            &mut a,
            json!({"v": 3, "type": "review", "id": id, "game": game, "moves": moves, "think_ms": 100}),
        )
        .await;
        assert_eq!(positions.len(), moves.len() + 1, "{game}");
        assert_eq!(verdicts.len(), moves.len(), "{game}");
        for p in &positions {
            let black = p["black"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&black), "{game}: {p}");
            assert!(p["bestmove"].is_string(), "{game}: {p}");
        }
        for (v, m) in verdicts.iter().zip(&moves) {
            assert_eq!(v["move"], *m, "{game}");
            assert!(v["loss"].as_f64().is_some(), "{game}: {v}");
        }
    }
}
