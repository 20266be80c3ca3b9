//! `boyi watch` through the real binary, on frames made by `boyi vision synth --sequence`:
//! from a directory and from an MJPEG stream over HTTP.

mod common;

use common::{ok, stderr_of_failure, workdir};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::Path;

fn events(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn frames(dir: &Path, game: &str, moves: &str, seed: &str) -> String {
    let d = dir.display().to_string();
    ok(&[
        "vision",
        "synth",
        "--sequence",
        moves,
        "--out-dir",
        &d,
        "--game",
        game,
        "--seed",
        seed,
    ]);
    d
}

/// The (deterministic) seed001 player answers.
const PLAYER: &str = "boyi:seed001";

/// `boyi watch` over the frames in `dir` as white, then stop.
fn watch_dir(dir: &str, game: &str, extra: &[&str]) -> String {
    let mut args = vec!["watch", dir, "--game", game, "--as", "white", "--no-follow"];
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn a_gomoku_game_is_followed_and_answered() {
    let dir = workdir("watch-gomoku");
    let first = frames(&dir.join("a"), "gomoku", "h8", "5");
    let out = watch_dir(&first, "gomoku", &["--player", PLAYER]);
    let ev = events(&out);
    assert_eq!(ev.len(), 3, "{out}");
    assert_eq!(ev[0]["event"], "position");
    assert_eq!(
        ev[0]["position"],
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b"
    );
    assert_eq!(ev[1]["event"], "move");
    assert_eq!(
        (&ev[1]["side"], &ev[1]["move"]),
        (&"black".into(), &"h8".into())
    );
    assert_eq!(ev[1]["points"], serde_json::json!([[7, 7]]));
    assert_eq!(ev[2]["event"], "reply");
    let reply = ev[2]["move"].as_str().unwrap().to_string();
    let px = &ev[2]["pixel"][0];
    assert!(
        px[0].as_f64().unwrap() > 0.0 && px[1].as_f64().unwrap() < 480.0,
        "{out}"
    );

    // The reply placed, then black's next stone: both seen, and answered again.
    let black = if reply == "i9" { "g7" } else { "i9" };
    let moves = format!("h8,{reply},{black}");
    let second = frames(&dir.join("b"), "gomoku", &moves, "5");
    let out = watch_dir(&second, "gomoku", &["--player", PLAYER]);
    let seen: Vec<String> = events(&out)
        .iter()
        .map(|e| {
            format!(
                "{} {}",
                e["event"].as_str().unwrap(),
                e["move"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(
        seen[..5],
        [
            "position ".to_string(),
            "move h8".into(),
            format!("reply {reply}"),
            format!("move {reply}"),
            format!("move {black}")
        ],
        "{out}"
    );
    assert_eq!(seen.get(5).map(|s| &s[..6]), Some("reply "), "{out}");
}

#[test]
fn connect6_replies_place_two_stones_and_other_games_are_refused() {
    let dir = workdir("watch-connect6");
    let f = frames(&dir.join("a"), "connect6", "j10", "6");
    let out = watch_dir(&f, "connect6", &["--movetime", "300"]);
    let ev = events(&out);
    let reply = ev.iter().find(|e| e["event"] == "reply").expect("a reply");
    assert_eq!(reply["points"].as_array().unwrap().len(), 2, "{out}");
    assert_eq!(reply["pixel"].as_array().unwrap().len(), 2, "{out}");
    for game in ["jiu", "xiangqi"] {
        let err = stderr_of_failure(&["watch", &f, "--game", game, "--as", "white"]);
        assert!(err.contains("placing stones (gomoku, connect6)"), "{err}");
    }
    let err = stderr_of_failure(&["watch", "no-such-dir", "--game", "gomoku", "--as", "white"]);
    assert!(
        err.contains("neither a directory of frames nor an http:// MJPEG"),
        "{err}"
    );
}

/// Serves the JPEG files of `dir`, in name order, as one MJPEG stream to one client.
fn serve_mjpeg(dir: &Path) -> String {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jpg"))
        .collect();
    files.sort();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let mut request = [0u8; 1024];
        let _ = conn.read(&mut request);
        let _ = conn.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n\
              Connection: close\r\n\r\n",
        );
        for (k, f) in files.iter().enumerate() {
            let jpeg = std::fs::read(f).unwrap();
            // Every other part without its length, as some cameras send them.
            let head = if k % 2 == 0 {
                format!(
                    "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: {}\r\n\r\n",
                    jpeg.len()
                )
            } else {
                "--frame\r\nContent-Type: image/jpeg\r\n\r\n".to_string()
            };
            if conn.write_all(head.as_bytes()).is_err()
                || conn.write_all(&jpeg).is_err()
                || conn.write_all(b"\r\n").is_err()
            {
                return;
            }
        }
        let _ = conn.write_all(b"--frame--\r\n");
    });
    format!("http://{addr}/stream.mjpg")
}

#[test]
fn an_mjpeg_stream_is_watched() {
    let dir = workdir("watch-mjpeg");
    let f = frames(&dir.join("a"), "gomoku", "h8", "5");
    let url = serve_mjpeg(Path::new(&f));
    let out = ok(&[
        "watch",
        &url,
        "--game",
        "gomoku",
        "--as",
        "white",
        "--every-frame",
        "--player",
        PLAYER,
    ]);
    let kinds: Vec<&str> = events(&out)
        .iter()
        .map(|e| match e["event"].as_str().unwrap() {
            "position" => "position",
            "move" => "move",
            "reply" => "reply",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["position", "move", "reply"], "{out}");
}
