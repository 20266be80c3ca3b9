//! A server on loopback in its own runtime (stopping it drops every task, as a crash would)
//! and a WebSocket client speaking the JSON protocol.

#![allow(dead_code)]

use boyi_server::{Config, limits::Limits};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// A server whose per-connection message rate is high: tests send moves as fast as the
    /// machine allows, far faster than people (the rate limit has a test of its own).
    pub fn start(db: &Path) -> TestServer {
        Self::start_on(boyi_store::Db::Sqlite(db.to_path_buf()))
    }

    /// As [`TestServer::start`], on any database.
    pub fn start_on(db: boyi_store::Db) -> TestServer {
        let limits = Limits {
            messages_per_second: 100_000.0,
            message_burst: 100_000.0,
            ..Limits::default()
        };
        Self::start_config(Config {
            addr: "127.0.0.1:0".parse().unwrap(),
            db,
            limits,
            ..Config::default()
        })
    }

    /// Runs the server in a runtime of its own on its own thread.
    pub fn start_with(db: &Path, limits: Limits) -> TestServer {
        Self::start_config(Config {
            addr: "127.0.0.1:0".parse().unwrap(),
            db: boyi_store::Db::Sqlite(db.to_path_buf()),
            limits,
            ..Config::default()
        })
    }

    pub fn start_config(config: Config) -> TestServer {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stop_rx) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            let running = runtime.block_on(boyi_server::start(config)).unwrap();
            addr_tx.send(running.addr).unwrap();
            let _ = stop_rx.recv();
            // Every task (tables, connections) is dropped where it stands, as in a crash.
            runtime.shutdown_background();
        });
        TestServer {
            addr: addr_rx.recv().unwrap(),
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Stops the server at once.
    pub fn kill(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop_now();
    }
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .unwrap();
        Client { ws }
    }

    pub async fn send(&mut self, v: Value) {
        self.send_text(&v.to_string()).await;
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws.send(Message::binary(bytes)).await.unwrap();
    }

    /// The next JSON message (generous timeout so a stuck test fails instead of hanging).
    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(60), self.ws.next())
                .await
                .expect("no message within 60 s")
                .expect("connection closed")
                .unwrap();
            if let Message::Text(t) = msg {
                return serde_json::from_str(&t).unwrap();
            }
        }
    }

    /// The next message of type `ty`, skipping others (thinking lines, states).
    pub async fn recv_type(&mut self, ty: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["type"] == ty {
                return v;
            }
        }
    }

    /// The next error message (skipping states and thinking).
    pub async fn error(&mut self) -> String {
        let v = self.recv_type("error").await;
        v["message"].as_str().unwrap().to_string()
    }

    /// The next state of `table` that has `plies` moves; an error on the way fails the test
    /// at once, naming it (waiting for a state that will never come hides the cause).
    pub async fn state_at(&mut self, table: &str, plies: usize) -> Value {
        loop {
            let v = self.recv().await;
            assert_ne!(
                v["type"], "error",
                "waiting for ply {plies} of {table}: {v}"
            );
            if v["type"] == "state"
                && v["table"] == table
                && v["moves"].as_array().unwrap().len() == plies
            {
                return v;
            }
        }
    }

    /// The table's current state, asked for afresh.
    pub async fn fresh_state(&mut self, table: &str) -> Value {
        self.send(json!({"v": 1, "type": "watch", "table": table}))
            .await;
        loop {
            let v = self.recv().await;
            if v["type"] == "state" && v["table"] == table {
                return v;
            }
            assert_ne!(v["type"], "error", "{v}");
        }
    }

    pub async fn create(&mut self, req: Value) -> (String, Value) {
        let mut req = req;
        req["v"] = 1.into();
        req["type"] = "create".into();
        self.send(req).await;
        let v = self.recv().await;
        assert_eq!(v["type"], "created", "{v}");
        (
            v["table"].as_str().unwrap().to_string(),
            v["tokens"].clone(),
        )
    }

    /// Joins `table` with `token` under `name` (protocol 3); the `joined` answer or the
    /// error.
    pub async fn join_as(&mut self, table: &str, token: &str, name: &str) -> Value {
        self.send(json!({"v": 3, "type": "join", "table": table, "token": token, "name": name}))
            .await;
        loop {
            let v = self.recv().await;
            if v["type"] == "joined" || v["type"] == "error" {
                return v;
            }
        }
    }

    pub async fn play(&mut self, table: &str, token: &str, mv: &str) {
        self.send(json!({"v": 1, "type": "move", "table": table, "token": token, "move": mv}))
            .await;
    }
}

/// A plain HTTP GET on loopback (status, body).
/// A GET whose body is bytes (binary record formats); the reply must not be chunked.
pub async fn http_get_bytes(addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let end = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header");
    let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
    assert!(!head.contains("transfer-encoding: chunked"), "{head}");
    (head[9..12].parse().unwrap(), buf[end + 4..].to_vec())
}

pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).to_string();
    let status: u16 = text[9..12].parse().unwrap();
    let body = text
        .split_once("\r\n\r\n")
        .map(|x| x.1)
        .unwrap_or("")
        .to_string();
    let body = if text
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(&body)
    } else {
        body
    };
    (status, body)
}

fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&after[..n]);
        rest = &after[n + 2..];
    }
    out
}

/// A plain HTTP POST of `body` on loopback (status, body).
pub async fn http_post(addr: SocketAddr, path: &str, kind: &str, body: &[u8]) -> (u16, String) {
    http_send(addr, "POST", path, kind, body).await
}

/// A plain HTTP request of `method` with `body` on loopback (status, body).
pub async fn http_send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    kind: &str,
    body: &[u8],
) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    // The server may answer (and close) before taking a body it refuses: write and read at
    // once.
    let (mut rd, mut wr) = s.into_split();
    let body = body.to_vec();
    let writer = tokio::spawn(async move {
        let _ = wr.write_all(&body).await;
        wr
    });
    let mut buf = Vec::new();
    let _ = rd.read_to_end(&mut buf).await;
    let _ = writer.await;
    let text = String::from_utf8_lossy(&buf).to_string();
    let status: u16 = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|x| x.1)
        .unwrap_or("")
        .to_string();
    let body = if text
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(&body)
    } else {
        body
    };
    (status, body)
}

/// A server with external engines configured.
pub fn start_with_engines(db: &Path, engines: &[&str]) -> TestServer {
    TestServer::start_config(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: boyi_store::Db::Sqlite(db.to_path_buf()),
        limits: Limits::default(),
        engines: boyi_server::external::Engines::parse(engines).unwrap(),
        ..Config::default()
    })
}
