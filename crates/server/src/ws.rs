//! One WebSocket connection: reads client messages (size, rate and syntax checked), hands them
//! to the tables, and writes back what the tables and analyses send to it.

use crate::analysis::{self, Running};
use crate::budget::Slot;
use crate::protocol::{self, ClientMsg};
use crate::seat::parse_side;
use crate::table::{Act, Ask, Cmd, OUTBOX, Outbox, next_conn_id};
use crate::{AppState, limits::Bucket};
use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Rate-limit violations after which the connection is closed.
const MAX_VIOLATIONS: u32 = 200;

struct Conn {
    id: u64,
    app: Arc<AppState>,
    out: Outbox,
    watching: HashSet<String>,
    /// Analyses started here.
    analyses: Vec<Analysis>,
}

/// A running analysis and its unit of the server's analyses, released when the search is
/// done or, at the latest, when it is stopped (dropped).
struct Analysis {
    slot: Arc<Slot>,
    _search: Running,
}

impl Drop for Analysis {
    fn drop(&mut self) {
        self.slot.release();
    }
}

pub async fn run(socket: WebSocket, app: Arc<AppState>, ip: IpAddr) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Arc<str>>(OUTBOX);
    let out = Outbox::new(tx);
    let writer = tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            if sink
                .send(Message::Text(Utf8Bytes::from(&*text)))
                .await
                .is_err()
            {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let limits = app.limits;
    let mut conn = Conn {
        id: next_conn_id(),
        app: app.clone(),
        out: out.clone(),
        watching: HashSet::new(),
        analyses: Vec::new(),
    };
    let mut bucket = Bucket::new(limits.messages_per_second, limits.message_burst);
    let mut violations = 0u32;
    while let Some(Ok(msg)) = stream.next().await {
        let text = match msg {
            Message::Text(t) => t,
            Message::Binary(_) => {
                conn.error(None, "binary messages are not supported; send JSON text");
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if !bucket.take() {
            violations += 1;
            if violations > MAX_VIOLATIONS {
                break;
            }
            conn.error(
                None,
                &format!(
                    "too many messages: at most {} per second",
                    limits.messages_per_second
                ),
            );
            continue;
        }
        if text.len() > limits.max_message_bytes {
            conn.error(
                None,
                &format!(
                    "message too large ({} bytes; the limit is {})",
                    text.len(),
                    limits.max_message_bytes
                ),
            );
            continue;
        }
        match protocol::parse_versioned(text.as_str()) {
            Ok((v, m)) => {
                conn.out.set_version(v);
                conn.handle(m).await
            }
            Err(e) => conn.error(None, &e),
        }
    }
    for table in std::mem::take(&mut conn.watching) {
        if let Ok(h) = app.hub.get(&table) {
            let _ = h.tx.send(Cmd {
                conn: conn.id,
                out: out.clone(),
                ask: Ask::Unwatch,
            });
        }
    }
    app.hub.forget_connection(conn.id);
    drop(conn);
    drop(out);
    let _ = writer.await;
    app.connections.release(ip);
}

impl Conn {
    fn send(&self, msg: Value) {
        let _ = self.out.try_send(msg.to_string().into());
    }

    fn error(&self, table: Option<&str>, message: &str) {
        self.send(json!({"v": crate::protocol::VERSION, "type": "error", "table": table, "message": message}));
    }

    /// Sends `cmd` to table `id`; an unknown table is an error to this client.
    fn send_to_table(&mut self, id: &str, ask: Ask) {
        let cmd = Cmd {
            conn: self.id,
            out: self.out.clone(),
            ask,
        };
        match self.app.hub.get(id) {
            Ok(h) => {
                if h.tx.send(cmd).is_ok() {
                    self.watching.insert(id.to_string());
                } else {
                    self.error(Some(id), "this table has closed");
                }
            }
            Err(e) if e.starts_with("unknown table") => {
                self.send(
                    json!({"v": crate::protocol::VERSION, "type": "error", "table": id,
                                 "code": "unknown_table", "message": e}),
                );
            }
            Err(e) => self.error(Some(id), &e),
        }
    }

    fn act(&mut self, table: String, token: String, act: Act) {
        self.send_to_table(&table, Ask::Act { token, act });
    }

    /// Starts an analysis (or a review) if this connection and the server have room for it.
    fn start_analysis(
        &mut self,
        start: impl FnOnce(&crate::limits::Limits, Arc<Slot>) -> Result<Running, String>,
    ) -> Result<(), String> {
        self.analyses.retain(|a| !a.slot.is_released());
        let limits = &self.app.limits;
        if self.analyses.len() >= limits.analyses_per_connection {
            return Err(format!(
                "an analysis is running on this connection (at most {} at once): send stop_analysis first, or wait for analysis_done",
                limits.analyses_per_connection
            ));
        }
        let pool = &self.app.analyses;
        let slot = pool.take().ok_or_else(|| {
            format!(
                "the server is busy: {} analyses are running (at most {}); try again in a moment",
                pool.in_use(),
                pool.max()
            )
        })?;
        let search = start(limits, slot.clone())?;
        self.analyses.push(Analysis {
            slot,
            _search: search,
        });
        Ok(())
    }

    async fn handle(&mut self, msg: ClientMsg) {
        let (id, out) = (self.id, self.out.clone());
        match msg {
            ClientMsg::Ping {} => self.send(json!({"v": crate::protocol::VERSION, "type": "pong"})),
            ClientMsg::Create(req) => match self.app.hub.create(req, id).await {
                Ok(c) => self
                    .send(json!({"v": crate::protocol::VERSION, "type": "created", "table": c.table, "tokens": c.tokens, "creator": c.creator})),
                Err(e) => self.error(None, &e),
            },
            ClientMsg::Watch { table } => self.send_to_table(&table, Ask::Watch),
            ClientMsg::Unwatch { table } => {
                if self.watching.remove(&table)
                    && let Ok(h) = self.app.hub.get(&table)
                {
                    let _ = h.tx.send(Cmd {
                        conn: id,
                        out,
                        ask: Ask::Unwatch,
                    });
                }
            }
            ClientMsg::Join { table, token, name } => {
                self.send_to_table(&table, Ask::Join { token, name })
            }
            ClientMsg::Sit { table, side, name } => {
                let side = match side.as_deref().map(parse_side).transpose() {
                    Ok(s) => s,
                    Err(e) => return self.error(Some(&table), &e),
                };
                self.send_to_table(&table, Ask::Sit { side, name })
            }
            ClientMsg::Move { table, token, mv } => self.act(table, token, Act::Move(mv)),
            ClientMsg::Resign { table, token } => self.act(table, token, Act::Resign),
            ClientMsg::OfferDraw { table, token } => self.act(table, token, Act::OfferDraw),
            ClientMsg::AnswerDraw {
                table,
                token,
                accept,
            } => self.act(table, token, Act::AnswerDraw(accept)),
            ClientMsg::RequestUndo { table, token } => self.act(table, token, Act::RequestUndo),
            ClientMsg::AnswerUndo {
                table,
                token,
                accept,
            } => self.act(table, token, Act::AnswerUndo(accept)),
            ClientMsg::Inspect(req) => match analysis::inspect(&req) {
                Ok(v) => self.send(v),
                Err(e) => self.send(json!({"v": crate::protocol::VERSION, "type": "error", "id": req.id, "message": e})),
            },
            ClientMsg::Analyze(req) => {
                let out = self.out.clone();
                let started = self.start_analysis(|limits, slot| {
                    analysis::analyze(&req, out, limits, slot)
                });
                if let Err(e) = started {
                    self.send(json!({"v": crate::protocol::VERSION, "type": "error", "id": req.id, "message": e}))
                }
            }
            ClientMsg::Review(req) => {
                let out = self.out.clone();
                let started = self.start_analysis(|limits, slot| {
                    crate::review::review(&req, out, limits, slot)
                });
                if let Err(e) = started {
                    self.send(json!({"v": crate::protocol::VERSION, "type": "error", "id": req.id, "message": e}))
                }
            }
            ClientMsg::Invite { table, token, side } => {
                let side = match parse_side(&side) {
                    Ok(s) => s,
                    Err(e) => return self.error(Some(&table), &e),
                };
                self.send_to_table(&table, Ask::Invite { token, side })
            }
            ClientMsg::StopAnalysis {} => self.analyses.clear(),
        }
    }
}
