//! The camera page's path over real HTTP: frames of a game being played on a board (hands
//! over it, camera shake, drifting light) sent one by one; the server follows the game,
//! suggests or plays its moves, and keeps its bounds.

mod common;

use boyi_core::Game;
use boyi_games::gomoku::Gomoku;
use boyi_server::limits::Limits;
use boyi_vision::Stone;
use boyi_vision::sequence::{self, Placement};
use boyi_vision::synth::{Level, SynthOptions};
use common::{TestServer, http_post, http_send};
use serde_json::Value;
use std::net::SocketAddr;

const N: usize = 15;

fn synth(seed: u64) -> SynthOptions {
    SynthOptions {
        seed,
        level: Level::Easy,
        width: 640,
        height: 480,
        size: Some(N),
        position: None,
        distortion: None,
    }
}

/// A point by name (`h8`) in reading coordinates (row from the top).
fn at(name: &str) -> (usize, usize) {
    let c = (name.as_bytes()[0] - b'a') as usize;
    let rank: usize = name[1..].parse().unwrap();
    (c, N - rank)
}

fn place(name: &str, stone: Stone) -> Vec<Placement> {
    let (c, r) = at(name);
    vec![(c, r, stone)]
}

/// The JPEG frames of `turns` played from `start`.
fn frames(seed: u64, start: &[Stone], turns: &[Vec<Placement>]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    sequence::frames(&synth(seed), start, turns, |s, _| {
        out.push(s.jpeg);
        Ok(())
    })
    .unwrap();
    out
}

async fn start(addr: SocketAddr, query: &str) -> (u16, Value) {
    let (status, body) = http_post(addr, &format!("/api/camera?{query}"), "text/plain", b"").await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

async fn session(addr: SocketAddr, query: &str) -> String {
    let (status, v) = start(addr, query).await;
    assert_eq!(status, 200, "{v}");
    v["session"].as_str().unwrap().to_string()
}

async fn send(addr: SocketAddr, id: &str, frame: &[u8]) -> (u16, Value) {
    let (status, body) = http_post(addr, &format!("/api/camera/{id}"), "image/jpeg", frame).await;
    let v = serde_json::from_str(&body).unwrap_or_else(|_| panic!("{status}: {body}"));
    (status, v)
}

/// Sends every frame, each answered, and returns the answers.
async fn follow(addr: SocketAddr, id: &str, frames: &[Vec<u8>]) -> Vec<Value> {
    let mut answers = Vec::new();
    for f in frames {
        let (status, v) = send(addr, id, f).await;
        assert_eq!(status, 200, "{v}");
        answers.push(v);
    }
    answers
}

fn all_events(answers: &[Value]) -> Vec<Value> {
    answers
        .iter()
        .flat_map(|a| a["events"].as_array().unwrap().clone())
        .collect()
}

fn moves(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["event"] == "move")
        .map(|e| {
            format!(
                "{} {}",
                e["side"].as_str().unwrap(),
                e["move"].as_str().unwrap()
            )
        })
        .collect()
}

fn fast_server(dir: &tempfile::TempDir) -> TestServer {
    TestServer::start_with(
        &dir.path().join("db.sqlite"),
        Limits {
            camera_frames_per_second: 1000.0,
            camera_frame_burst: 1000.0,
            ..Limits::default()
        },
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_front_of_the_camera_is_followed_with_suggestions() {
    let dir = tempfile::tempdir().unwrap();
    let server = fast_server(&dir);
    let id = session(server.addr, "game=gomoku&as=white").await;
    // White does not have to play the suggested moves.
    let turns = [
        place("h8", Stone::Black),
        place("j9", Stone::White),
        place("h9", Stone::Black),
    ];
    let answers = follow(server.addr, &id, &frames(5, &[Stone::Empty; N * N], &turns)).await;
    let events = all_events(&answers);
    assert_eq!(events[0]["event"], "position", "{events:#?}");
    assert_eq!(moves(&events), ["black h8", "white j9", "black h9"]);
    assert!(
        !events.iter().any(|e| e["event"] == "warning"),
        "{events:#?}"
    );
    let replies: Vec<&Value> = events.iter().filter(|e| e["event"] == "reply").collect();
    assert_eq!(replies.len(), 2, "a suggestion each time white is to move");
    let last = answers.last().unwrap();
    let mut want = Gomoku::start(&Default::default(), None).unwrap();
    want.play_list("h8,j9,h9").unwrap();
    assert_eq!(last["position"], want.to_text());
    assert_eq!(last["to_move"], "white");
    assert_eq!(last["state"], "placing");
    assert_eq!(last["moves"].as_array().unwrap().len(), 3);
    // The suggestion, drawn over the frame: its stone's pixel inside the 640×480 frame, near
    // where the read grid puts that point.
    let reply = &last["reply"];
    let point = reply["points"][0].as_str().unwrap();
    assert_eq!(reply["move"], point);
    let px = reply["pixel"][0].as_array().unwrap();
    let (x, y) = (px[0].as_f64().unwrap(), px[1].as_f64().unwrap());
    assert!(
        (0.0..640.0).contains(&x) && (0.0..480.0).contains(&y),
        "{reply}"
    );
    let read = &last["read"];
    assert_eq!(read["size"], 15);
    assert_eq!(read["position"], want.to_text().split(' ').next().unwrap());
    let corners = read["corners"].as_array().unwrap();
    assert_eq!(corners.len(), 4);
    let (left, right) = (
        corners[0][0].as_f64().unwrap(),
        corners[1][0].as_f64().unwrap(),
    );
    assert!(left < x && x < right, "{reply} inside {corners:?}");
    // A frame with no board in it: answered, the game kept.
    let blank = {
        let img = image::RgbImage::from_pixel(320, 240, image::Rgb([40, 90, 160]));
        let mut png = std::io::Cursor::new(Vec::new());
        img.write_to(&mut png, image::ImageFormat::Png).unwrap();
        png.into_inner()
    };
    let (status, v) = send(server.addr, &id, &blank).await;
    assert_eq!(status, 200, "{v}");
    assert!(v["unread"].as_str().unwrap().contains("no board"), "{v}");
    assert_eq!(v["read"], Value::Null);
    assert_eq!(v["position"], want.to_text());
    // Stopped: the session is gone.
    let (status, _) = http_send(
        server.addr,
        "DELETE",
        &format!("/api/camera/{id}"),
        "text/plain",
        b"",
    )
    .await;
    assert_eq!(status, 200);
    let (status, v) = send(server.addr, &id, &blank).await;
    assert_eq!(status, 404, "{v}");
    assert!(v["error"].as_str().unwrap().contains("start again"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_and_its_moves_must_be_placed_as_shown() {
    let dir = tempfile::tempdir().unwrap();
    let server = fast_server(&dir);
    let id = session(
        server.addr,
        "game=gomoku&as=black&mode=play&size=15&level=beginner",
    )
    .await;
    let empty = [Stone::Empty; N * N];
    // The empty board settles: black (the computer) to move, its move shown.
    let answers = follow(server.addr, &id, &frames(7, &empty, &[])).await;
    let events = all_events(&answers);
    let reply = events
        .iter()
        .find(|e| e["event"] == "reply")
        .expect("a reply");
    let (c, r) = (
        reply["points"][0][0].as_u64().unwrap() as usize,
        reply["points"][0][1].as_u64().unwrap() as usize,
    );
    let name = format!("{}{}", (b'a' + c as u8) as char, N - r);
    assert_eq!(reply["move"], name.as_str());
    // A black stone elsewhere is warned of and not taken; taken off again, then the shown
    // move placed, and a white answer: both are followed.
    let elsewhere = if name == "a1" { "o15" } else { "a1" };
    let turns = [
        place(elsewhere, Stone::Black),
        place(elsewhere, Stone::Empty),
        place(&name, Stone::Black),
        place(if name == "b2" { "c3" } else { "b2" }, Stone::White),
    ];
    let answers = follow(server.addr, &id, &frames(8, &empty, &turns)).await;
    let events = all_events(&answers);
    let warnings: Vec<&str> = events
        .iter()
        .filter(|e| e["event"] == "warning")
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert_eq!(warnings.len(), 1, "{events:#?}");
    assert!(
        warnings[0].contains(&format!(
            "black placed at {elsewhere}, but the reply {name}"
        )),
        "{warnings:?}"
    );
    assert_eq!(moves(&events).len(), 2, "{events:#?}");
    assert_eq!(moves(&events)[0], format!("black {name}"));
    assert_eq!(answers.last().unwrap()["state"], "placing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn camera_sessions_keep_their_bounds_and_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(
        &dir.path().join("db.sqlite"),
        Limits {
            camera_frames_per_second: 0.001,
            camera_frame_burst: 2.0,
            camera_sessions_per_ip: 2,
            photo_max_pixels: 1_000_000,
            ..Limits::default()
        },
    );
    let addr = server.addr;
    for (query, status, words) in [
        ("game=xiangqi&as=black", 422, "placing stones"),
        ("game=jiu&as=black", 422, "placing stones"),
        ("game=chess&as=black", 422, "chess"),
        ("game=gomoku&as=red", 422, "black or white"),
        ("game=gomoku&as=black&size=40", 422, "5 to 25"),
        (
            "game=gomoku&as=black&level=grandmaster",
            422,
            "unknown level",
        ),
        ("game=gomoku&as=black&mode=watch", 422, "suggest or play"),
        ("game=gomoku&as=black&settle=0", 422, "1 to 20"),
        ("as=black", 400, "say what the camera watches"),
        (
            "game=gomoku&as=black&colour=x",
            400,
            "say what the camera watches",
        ),
    ] {
        let (got, v) = start(addr, query).await;
        assert_eq!(got, status, "{query}: {v}");
        assert!(v["error"].as_str().unwrap().contains(words), "{query}: {v}");
    }
    let a = session(addr, "game=gomoku&as=black").await;
    let b = session(addr, "game=connect6&as=white").await;
    let (got, v) = start(addr, "game=gomoku&as=white").await;
    assert_eq!(got, 429, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("2 camera session"),
        "{v}"
    );
    // Bad frames, each counted against the session's rate.
    let huge = {
        let img = image::RgbImage::from_pixel(16, 16, image::Rgb([200, 170, 120]));
        let mut jpeg = std::io::Cursor::new(Vec::new());
        img.write_to(&mut jpeg, image::ImageFormat::Jpeg).unwrap();
        let mut bytes = jpeg.into_inner();
        let sof = bytes.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        bytes[sof + 5..sof + 9].copy_from_slice(&[0x07, 0xD0, 0x07, 0xD0]);
        bytes
    };
    let (got, v) = send(addr, &a, b"not a frame").await;
    assert_eq!(got, 422, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("not a JPEG or PNG"),
        "{v}"
    );
    let (got, v) = send(addr, &a, &huge).await;
    assert_eq!(got, 422, "{v}");
    assert!(v["error"].as_str().unwrap().contains("megapixels"), "{v}");
    // The burst of two is spent: the next frame is refused, whatever it is.
    let (got, v) = send(addr, &a, &huge).await;
    assert_eq!(got, 429, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("frames a second"),
        "{v}"
    );
    // Each session has a rate of its own.
    let (got, v) = send(addr, &b, b"").await;
    assert_eq!(got, 422, "{v}");
    assert!(v["error"].as_str().unwrap().contains("empty"), "{v}");
    let (got, v) = send(addr, &b, &vec![0u8; 5 << 20]).await;
    assert_eq!(got, 413, "{v}");
    let (got, v) = send(addr, "0123", b"x").await;
    assert_eq!(got, 404, "{v}");
    // Stopping one makes room for another.
    let (got, _) = http_send(
        addr,
        "DELETE",
        &format!("/api/camera/{a}"),
        "text/plain",
        b"",
    )
    .await;
    assert_eq!(got, 200);
    session(addr, "game=gomoku&as=white").await;
}
