//! One table: a game between two seats, run by its own task. Every request about the table
//! (watch, move, resign, draw, undo, take a seat) comes in as a [`Cmd`]; the task checks it,
//! writes the change to the store, and then sends the full state to everyone watching.
//! Errors go to the asking connection only and change nothing.
//!
//! Computer seats think on their own threads ([`engine`]); their thinking and moves come back
//! to the task as events, so the runtime never waits for a search. [`seats`] holds seats by
//! their tokens and invitations; [`view`] writes what the table sends; [`played`] keeps the
//! moves played.

mod engine;
mod played;
mod seats;
mod view;

use crate::external::Engines;
use crate::games::ServerGame;
use crate::protocol::VERSION;
use crate::seat::{Seat, SeatKind, TableOptions, side_name};
use crate::store::{NewRow, Store};
use boyi_core::{Game, Reason, Side};
use boyi_engines::{GameHistory, Score};
use boyi_games::GameKind;
use boyi_records::{Date, GameRecord, GameResult, Player, RecordedMove};
use boyi_store::live::LiveGame;
use engine::{Engine, EngineEvent};
use played::{Played, clocks_after};
use seats::Refusal;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// A number for a new connection, unique in this process (the tables know watchers by it).
pub fn next_conn_id() -> u64 {
    NEXT_CONN.fetch_add(1, Ordering::Relaxed)
}

/// Messages queued for a slow client before new ones are dropped (a later `state` repairs it).
pub const OUTBOX: usize = 256;

/// Messages to one connection (JSON text), and the protocol version the connection speaks.
#[derive(Clone, Debug)]
pub struct Outbox {
    tx: mpsc::Sender<Arc<str>>,
    version: Arc<AtomicU64>,
}

impl Outbox {
    pub fn new(tx: mpsc::Sender<Arc<str>>) -> Outbox {
        Outbox {
            tx,
            version: Arc::new(AtomicU64::new(1)),
        }
    }

    pub fn try_send(&self, text: Arc<str>) -> Result<(), mpsc::error::TrySendError<Arc<str>>> {
        self.tx.try_send(text)
    }

    /// The version of the client's latest message.
    pub fn set_version(&self, v: u64) {
        self.version.store(v, Ordering::Relaxed);
    }

    /// The protocol version of the client's latest message.
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Relaxed)
    }

    /// Version 2 clients take `update` messages (no move list) after a move, version 1
    /// clients the full state.
    pub fn takes_updates(&self) -> bool {
        self.version.load(Ordering::Relaxed) >= 2
    }
}

/// What connection `conn` (whose messages go to `out`) asks of a table.
pub struct Cmd {
    pub conn: u64,
    pub out: Outbox,
    pub ask: Ask,
}

/// A request about a table. Every one but `Unwatch` makes the asker a watcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    Watch,
    Unwatch,
    /// Hold the seat of `token` under `name`.
    Join {
        token: String,
        name: Option<String>,
    },
    /// Take an open seat (`side`, or any): answered with a `seated` message holding a token.
    Sit {
        side: Option<Side>,
        name: Option<String>,
    },
    Act {
        token: String,
        act: Act,
    },
    /// A new invitation link for the human seat `side` (answered with `invited`).
    Invite {
        token: String,
        side: Side,
    },
}

/// What a seat holder does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    Move(String),
    Resign,
    OfferDraw,
    AnswerDraw(bool),
    RequestUndo,
    AnswerUndo(bool),
}

/// The handle the rest of the server keeps of a running table.
#[derive(Clone)]
pub struct TableHandle {
    pub tx: mpsc::UnboundedSender<Cmd>,
    /// The table's line in the lobby, kept current by the task.
    pub summary: Arc<Mutex<Value>>,
    /// Stops the table (its game now runs on another instance of a cluster), which answers
    /// with its watchers so they can follow the game there.
    pub handover: mpsc::UnboundedSender<Handover>,
}

/// The watchers of a table that stops, by connection.
pub type Handover = tokio::sync::oneshot::Sender<Vec<(u64, Outbox)>>;

impl TableHandle {
    /// A handle whose commands go to `tx` and that nothing can stop (a table run elsewhere).
    pub fn forwarding(tx: mpsc::UnboundedSender<Cmd>) -> TableHandle {
        TableHandle {
            tx,
            summary: Arc::new(Mutex::new(Value::Null)),
            handover: mpsc::unbounded_channel().0,
        }
    }
}

/// The players the seats name: a computer seat's player spec beside its name.
fn players(seats: &[Seat; 2]) -> [Player; 2] {
    seats.clone().map(|s| Player {
        spec: match &s.kind {
            SeatKind::Computer { player, .. } => Some(player.clone()),
            SeatKind::Human { .. } => None,
        },
        name: s.name,
    })
}

pub struct Table<G: ServerGame> {
    id: String,
    options: TableOptions,
    seats: [Seat; 2],
    history: GameHistory<G>,
    log: Vec<Played>,
    clocks: Option<[Duration; 2]>,
    turn_started: Instant,
    result: Option<GameResult>,
    draw_offer: Option<Side>,
    undo_request: Option<Side>,
    watchers: HashMap<u64, Outbox>,
    engines: [Option<Engine<G>>; 2],
    /// The engine side whose move is awaited, with its job number.
    awaiting: Option<(Side, u64)>,
    /// When a level's search is told to stop (levels search with no time limit).
    engine_deadline: Option<Instant>,
    engine_tx: mpsc::UnboundedSender<EngineEvent<G>>,
    thinking: Option<Value>,
    store: Store,
    /// The server's configured external engines.
    external: Arc<Engines>,
    summary: Arc<Mutex<Value>>,
    hints: Value,
    /// Moves in the last state sent to everyone, and whether the next must be a full state
    /// (seats changed, moves taken back) rather than an update.
    sent_plies: usize,
    full_due: bool,
}

/// A new table's setup, checked.
pub struct NewTable<G: Game> {
    pub id: String,
    pub start: G,
    pub options: TableOptions,
    pub seats: [Seat; 2],
}

impl<G: ServerGame> Table<G> {
    /// Stores a new table and starts its task.
    pub async fn create(
        new: NewTable<G>,
        store: Store,
        external: Arc<Engines>,
    ) -> Result<TableHandle, String> {
        let kind: GameKind = G::NAME.parse().map_err(|e| format!("{e}"))?;
        let created_ms = crate::store::now_ms();
        let mut header = GameRecord::new(kind);
        header.variant = Some(new.start.variant().to_string());
        header.start = Some(new.start.to_text());
        header.players = players(&new.seats);
        header.date = Some(Date::of_unix_ms(created_ms));
        header.event = "boyi serve".into();
        let row = NewRow {
            id: new.id.clone(),
            header,
            start_hash: new.start.hash(),
            options: serde_json::to_value(&new.options).map_err(|e| e.to_string())?,
            seats: serde_json::to_value(&new.seats).map_err(|e| e.to_string())?,
            created_ms,
        };
        store.create(row).await.map_err(|e| e.to_string())?;
        Ok(Self::spawn(new, Vec::new(), None, store, external))
    }

    /// Rebuilds a stored table (unfinished: it resumes; finished: it can be watched).
    pub fn resume(
        row: &LiveGame,
        store: Store,
        external: Arc<Engines>,
    ) -> Result<TableHandle, String> {
        let rec = &row.record;
        let start: G = boyi_records::start_position(rec).map_err(|e| e.to_string())?;
        let options: TableOptions =
            serde_json::from_str(&row.options).map_err(|e| format!("options: {e}"))?;
        let seats: [Seat; 2] =
            serde_json::from_str(&row.seats).map_err(|e| format!("seats: {e}"))?;
        let new = NewTable {
            id: row.table.clone(),
            start,
            options,
            seats,
        };
        Ok(Self::spawn(
            new,
            rec.moves.clone(),
            rec.result.clone(),
            store,
            external,
        ))
    }

    fn spawn(
        new: NewTable<G>,
        moves: Vec<RecordedMove>,
        result: Option<GameResult>,
        store: Store,
        external: Arc<Engines>,
    ) -> TableHandle {
        let (tx, rx) = mpsc::unbounded_channel();
        let (handover, handover_rx) = mpsc::unbounded_channel();
        let (engine_tx, engine_rx) = mpsc::unbounded_channel();
        let summary = Arc::new(Mutex::new(Value::Null));
        let mut table = Table {
            id: new.id,
            clocks: new
                .options
                .clock
                .map(|c| [Duration::from_millis(c.base_ms); 2]),
            options: new.options,
            seats: new.seats,
            history: GameHistory::new(new.start),
            log: Vec::new(),
            turn_started: Instant::now(),
            result,
            draw_offer: None,
            undo_request: None,
            watchers: HashMap::new(),
            engines: [None, None],
            awaiting: None,
            engine_deadline: None,
            engine_tx,
            thinking: None,
            store,
            external,
            summary: summary.clone(),
            hints: Value::Null,
            sent_plies: 0,
            full_due: false,
        };
        table.replay(moves);
        // Whoever watches from now on gets the full state first.
        table.sent_plies = table.log.len();
        // The lobby line exists before the table's task first runs: the hub counts a new
        // table's computer seats from it, so the next create (perhaps sooner than the task
        // starts on a loaded machine) sees them.
        table.refresh();
        tokio::spawn(table.run(rx, engine_rx, handover_rx));
        TableHandle {
            tx,
            summary,
            handover,
        }
    }

    /// Plays stored moves (canonical texts, so each must parse and be legal).
    fn replay(&mut self, moves: Vec<RecordedMove>) {
        for (i, m) in moves.into_iter().enumerate() {
            let side = self.history.current().side_to_move();
            let Ok(mv) = self.history.current().parse_move(&m.text) else {
                let what = format!("stored move {} ({}) is illegal", i + 1, m.text);
                self.result = Some(GameResult::draw(Reason::Unknown).with_detail(what));
                break;
            };
            let notations = self.history.current().notations(&mv);
            self.history.push(mv);
            let hash = self.history.current().hash();
            self.log.push(Played {
                mv: m,
                side,
                notations,
                hash,
            });
        }
        if let (Some(c), Some(spec)) = (&mut self.clocks, self.options.clock) {
            *c = clocks_after(&self.log, Duration::from_millis(spec.base_ms));
        }
        if self.result.is_none()
            && let Some(o) = self.history.current().outcome()
        {
            self.result = Some(o.into());
        }
    }

    async fn run(
        mut self,
        mut rx: mpsc::UnboundedReceiver<Cmd>,
        mut engine_rx: mpsc::UnboundedReceiver<EngineEvent<G>>,
        mut handover: mpsc::UnboundedReceiver<Handover>,
    ) {
        self.start_engine_if_due().await;
        loop {
            let flag = self.flag_deadline();
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                Some(ev) = engine_rx.recv() => self.on_engine(ev).await,
                Some(reply) = handover.recv() => {
                    self.cancel_engine();
                    // Whoever asked something not yet answered watches the next owner too.
                    while let Ok(cmd) = rx.try_recv() {
                        if cmd.ask != Ask::Unwatch {
                            self.watchers.insert(cmd.conn, cmd.out);
                        }
                    }
                    let _ = reply.send(self.watchers.drain().collect());
                    break;
                }
                _ = sleep_until(flag) => self.on_flag().await,
                _ = sleep_until(self.engine_deadline) => self.on_overrun(),
            }
        }
    }

    fn to_move(&self) -> Side {
        self.history.current().side_to_move()
    }

    fn playing(&self) -> bool {
        self.result.is_none()
    }

    /// When the side to move runs out of time (clocks run from the second move on).
    fn flag_deadline(&self) -> Option<Instant> {
        let clocks = self.clocks?;
        if !self.playing() || self.log.is_empty() {
            return None;
        }
        Some(self.turn_started + clocks[self.to_move().index()])
    }

    async fn handle(&mut self, Cmd { conn, out, ask }: Cmd) {
        if ask == Ask::Unwatch {
            self.watchers.remove(&conn);
            return;
        }
        self.watchers.insert(conn, out.clone());
        match ask {
            Ask::Unwatch => {}
            Ask::Watch => {
                send(&out, &self.state_json());
                if let Some(t) = &self.thinking {
                    send(&out, t);
                }
            }
            Ask::Join { token, name } => {
                match self.join(&token, name.as_deref(), out.version()).await {
                    Ok(j) => {
                        let msg = json!({"v": VERSION, "type": "joined", "table": self.id,
                                         "side": side_name(j.side), "token": j.token});
                        send(&out, &msg);
                        if j.changed {
                            self.broadcast_state();
                        } else {
                            send(&out, &self.state_json());
                        }
                    }
                    Err(r) => {
                        send(&out, &self.state_json());
                        self.refuse(&out, &r, &token);
                    }
                }
            }
            Ask::Sit { side, name } => match self.sit(side, name.as_deref()).await {
                Ok((side, token)) => {
                    let msg = json!({"v": VERSION, "type": "seated", "table": self.id,
                                     "side": side_name(side), "token": token});
                    send(&out, &msg);
                    self.broadcast_state();
                }
                Err(e) => self.error(&out, &e),
            },
            Ask::Act { token, act } => {
                let side = match self.seat_of(&token) {
                    Ok(side) => side,
                    Err(r) => return self.refuse(&out, &r, &token),
                };
                match self.act(side, act).await {
                    Ok(()) => {
                        self.broadcast_state();
                        self.start_engine_if_due().await;
                    }
                    Err(e) => self.error(&out, &e),
                }
            }
            Ask::Invite { token, side } => match self.invite(&token, side).await {
                Ok(invitation) => {
                    let msg = json!({"v": VERSION, "type": "invited", "table": self.id,
                                     "side": side_name(side), "token": invitation});
                    send(&out, &msg);
                    self.broadcast_state();
                }
                Err(r) => self.refuse(&out, &r, &token),
            },
        }
    }

    fn error(&self, out: &Outbox, message: &str) {
        send(
            out,
            &json!({"v": VERSION, "type": "error", "table": self.id, "message": message}),
        );
    }

    /// An error about `token`'s seat; the code (`invitation_used`, `no_seat`, …) and the
    /// token sent let the page forget a token that no longer holds anything.
    fn refuse(&self, out: &Outbox, r: &Refusal, token: &str) {
        let mut msg =
            json!({"v": VERSION, "type": "error", "table": self.id, "message": r.message});
        if let Some(code) = r.code {
            msg["code"] = code.into();
            msg["token"] = token.into();
        }
        send(out, &msg);
    }

    async fn act(&mut self, side: Side, act: Act) -> Result<(), String> {
        if !self.playing() {
            return Err("the game is over".into());
        }
        let opponent_is_computer = self.seats[side.opponent().index()].is_computer();
        match act {
            Act::Move(text) => self.human_move(side, &text).await,
            Act::Resign => {
                self.finish(GameResult::win(side.opponent(), Reason::Resignation))
                    .await
            }
            Act::OfferDraw => {
                if opponent_is_computer {
                    return Err("the computer does not accept draw offers".into());
                }
                if self.options.local || self.draw_offer == Some(side.opponent()) {
                    return self.finish(GameResult::draw(Reason::Agreement)).await;
                }
                self.draw_offer = Some(side);
                Ok(())
            }
            Act::AnswerDraw(accept) => {
                if self.draw_offer != Some(side.opponent()) {
                    return Err("there is no draw offer to answer".into());
                }
                self.draw_offer = None;
                if accept {
                    self.finish(GameResult::draw(Reason::Agreement)).await
                } else {
                    Ok(())
                }
            }
            Act::RequestUndo => {
                if !self.options.undo {
                    return Err("this table does not allow taking moves back".into());
                }
                if !self.log.iter().any(|m| m.side == side) {
                    return Err("you have no move to take back".into());
                }
                if opponent_is_computer || self.options.local {
                    return self.undo_for(side).await;
                }
                self.undo_request = Some(side);
                Ok(())
            }
            Act::AnswerUndo(accept) => {
                let Some(asker) = self.undo_request.filter(|s| *s == side.opponent()) else {
                    return Err("there is no undo request to answer".into());
                };
                self.undo_request = None;
                if accept {
                    self.undo_for(asker).await
                } else {
                    Ok(())
                }
            }
        }
    }

    async fn human_move(&mut self, side: Side, text: &str) -> Result<(), String> {
        if self.to_move() != side {
            return Err(format!(
                "it is not your turn ({} to move)",
                G::side_name(self.to_move())
            ));
        }
        if text.len() > 512 {
            return Err("move text is too long".into());
        }
        let mv = self
            .history
            .current()
            .parse_move(text)
            .map_err(|e| format!("move {text:?}: {e}"))?;
        self.play(mv).await
    }

    /// Plays a legal move of the side to move: clock, store, then the table's state.
    async fn play(&mut self, mv: G::Move) -> Result<(), String> {
        let side = self.to_move();
        let elapsed = self.turn_started.elapsed();
        let mut clocks = self.clocks;
        if let (Some(c), Some(spec)) = (&mut clocks, self.options.clock) {
            if !self.log.is_empty() {
                let left = &mut c[side.index()];
                *left = left.saturating_sub(elapsed);
                if left.is_zero() {
                    self.on_flag().await;
                    return Err("your time is up".into());
                }
            }
            c[side.index()] += Duration::from_millis(spec.inc_ms);
        }
        let pos = self.history.current();
        let mut after = pos.clone();
        after.play(&mv);
        let played = Played {
            mv: RecordedMove {
                time_ms: Some(elapsed.as_millis() as u64),
                clock_ms: clocks.map(|c| c[side.index()].as_millis() as u64),
                ..RecordedMove::new(pos.format_move(&mv))
            },
            side,
            notations: pos.notations(&mv),
            hash: after.hash(),
        };
        self.store
            .append_move(&self.id, self.log.len() + 1, played.mv.clone(), played.hash)
            .await
            .map_err(|e| e.to_string())?;
        self.history.push(mv);
        self.log.push(played);
        self.clocks = clocks;
        self.turn_started = Instant::now();
        self.draw_offer = None;
        self.undo_request = None;
        self.thinking = None;
        if let Some(o) = self.history.current().outcome() {
            self.finish(o.into()).await?;
        }
        Ok(())
    }

    /// Takes moves back until the last move of `side` is gone.
    async fn undo_for(&mut self, side: Side) -> Result<(), String> {
        let Some(last) = self.log.iter().rposition(|m| m.side == side) else {
            return Err("you have no move to take back".into());
        };
        let removed: Vec<(usize, u64)> = (last..self.log.len())
            .map(|i| (i + 1, self.log[i].hash))
            .collect();
        self.store
            .truncate(&self.id, last, removed)
            .await
            .map_err(|e| e.to_string())?;
        self.cancel_engine();
        while self.log.len() > last {
            self.log.pop();
            self.history.pop();
        }
        if let (Some(c), Some(spec)) = (&mut self.clocks, self.options.clock) {
            *c = clocks_after(&self.log, Duration::from_millis(spec.base_ms));
        }
        self.turn_started = Instant::now();
        self.undo_request = None;
        self.draw_offer = None;
        self.full_due = true;
        Ok(())
    }

    async fn finish(&mut self, result: GameResult) -> Result<(), String> {
        self.store
            .finish(&self.id, result.clone())
            .await
            .map_err(|e| e.to_string())?;
        if let (Some(c), false) = (&mut self.clocks, self.log.is_empty()) {
            let left = &mut c[self.history.current().side_to_move().index()];
            *left = left.saturating_sub(self.turn_started.elapsed());
        }
        self.result = Some(result);
        self.cancel_engine();
        self.engines = [None, None];
        self.draw_offer = None;
        self.undo_request = None;
        Ok(())
    }

    async fn on_flag(&mut self) {
        if !self.playing() {
            return;
        }
        let loser = self.to_move();
        let result = GameResult::win(loser.opponent(), Reason::Time);
        if self.finish(result).await.is_ok() {
            self.broadcast_state();
        }
    }
}

/// A score as text: `35` or `mate 3`.
pub fn score_text(s: Score) -> String {
    s.to_string()
}

fn send(out: &Outbox, msg: &Value) {
    let _ = out.try_send(msg.to_string().into());
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// Server-side problems nobody is waiting for go to the standard error of the server.
fn log(table: &str, what: &str) {
    eprintln!("boyi serve: table {table}: {what}");
}
