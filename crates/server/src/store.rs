//! Where the server keeps its games: the shared game database (crate `boyi-store`, an SQLite
//! file in WAL mode or PostgreSQL), so every game played here is an ordinary stored game that `boyi record search`
//! finds, read and written in the one record model (`boyi_records::GameRecord`, each move a
//! `RecordedMove` with its thinking time and the mover's clock). What only a live table
//! needs (its id, options, seats with their tokens) lives in the store's live tables
//! (`boyi_store::live`). Every change of a
//! table (a move, an undo, a seat taken, the result) is written before it is shown to anyone,
//! so a restart loses nothing and every unfinished game resumes.
//!
//! Writes go to one writer thread that commits whatever has queued up in one transaction
//! (many tables moving at once cost one commit, not one each) and then acknowledges each
//! write; a write that fails is refused to its table and logged on standard error. Reads go
//! to a reader thread with its own connection. Each connection lives on its own thread
//! because the PostgreSQL client blocks on a runtime of its own, which must never run on
//! one of the server's async threads.
//!
//! The file is checked when the server starts (`boyi_store::Store::open_checked`): a damaged
//! database, or an empty file where one should be, is refused with a message naming the
//! file and how to recover, before anything is written to it.

use boyi_records::{GameRecord, GameResult, Player, RecordedMove};
use boyi_store::Db;
use boyi_store::cluster::Owner;
use boyi_store::live::{LiveGame, LiveStart, LiveSummary, LiveWrite};
use serde_json::{Value, json};
use std::sync::mpsc::{Receiver, Sender, channel};
use tokio::sync::oneshot;

/// A new table as it is stored: the game's header (game, variant, start position text,
/// players, date, event) and the table's options and seats as JSON.
pub struct NewRow {
    pub id: String,
    pub header: GameRecord,
    pub start_hash: u64,
    pub options: Value,
    pub seats: Value,
    pub created_ms: i64,
}

type Ack = oneshot::Sender<Result<(), String>>;

/// A read, run on the reader thread.
type Read = Box<dyn FnOnce(&boyi_store::Store) + Send>;

/// The game store. Cheap to clone.
#[derive(Clone)]
pub struct Store {
    writes: Sender<(LiveWrite, Ack)>,
    reads: Sender<Read>,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Store(#[from] boyi_store::StoreError),
    #[error("database write failed: {0}")]
    Write(String),
}

impl Store {
    /// Opens the database (creating a missing SQLite file; refusing a damaged or empty one)
    /// and starts the writer and reader threads. `owner` is this instance's name in a
    /// cluster: every write of a live game is then fenced by the game's lease.
    pub fn open(db: &Db, owner: Option<String>) -> Result<Store, StoreError> {
        let writes = on_thread(
            "boyi-store",
            boyi_store::Store::connect_checked,
            db,
            move |store, rx| write_loop(store, rx, owner.as_deref()),
        )?;
        let reads = on_thread("boyi-store-read", boyi_store::Store::connect, db, read_loop)?;
        Ok(Store { writes, reads })
    }

    async fn write(&self, w: LiveWrite) -> Result<(), StoreError> {
        let (ack, done) = oneshot::channel();
        self.writes
            .send((w, ack))
            .map_err(|_| StoreError::Write("the writer has stopped".into()))?;
        done.await
            .map_err(|_| StoreError::Write("the writer has stopped".into()))?
            .map_err(StoreError::Write)
    }

    /// Stores a new game (no moves yet).
    pub async fn create(&self, row: NewRow) -> Result<(), StoreError> {
        self.write(LiveWrite::Begin(Box::new(LiveStart {
            table: row.id,
            header: row.header,
            start_hash: row.start_hash,
            options: row.options.to_string(),
            seats: row.seats.to_string(),
            created_ms: row.created_ms,
        })))
        .await
    }

    /// Stores move `ply` (from 1) and the hash of the position it leads to.
    pub async fn append_move(
        &self,
        id: &str,
        ply: usize,
        mv: RecordedMove,
        hash_after: u64,
    ) -> Result<(), StoreError> {
        self.write(LiveWrite::Move {
            table: id.into(),
            ply,
            mv,
            hash_after,
        })
        .await
    }

    /// Keeps the first `keep` moves (undo); `removed` are the `(ply, hash after)` of the
    /// moves taken back.
    pub async fn truncate(
        &self,
        id: &str,
        keep: usize,
        removed: Vec<(usize, u64)>,
    ) -> Result<(), StoreError> {
        self.write(LiveWrite::TakeBack {
            table: id.into(),
            keep,
            removed,
        })
        .await
    }

    /// New seats (JSON) and the players they name.
    pub async fn set_seats(
        &self,
        id: &str,
        seats: Value,
        players: [Player; 2],
    ) -> Result<(), StoreError> {
        self.write(LiveWrite::Seats {
            table: id.into(),
            seats: seats.to_string(),
            players,
        })
        .await
    }

    /// Records the result.
    pub async fn finish(&self, id: &str, result: GameResult) -> Result<(), StoreError> {
        self.write(LiveWrite::Finish {
            table: id.into(),
            result,
            at_ms: now_ms(),
        })
        .await
    }

    fn with_reader<T: Send + 'static>(
        &self,
        f: impl FnOnce(&boyi_store::Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = channel();
        let stopped = || StoreError::Write("the reader has stopped".into());
        self.reads
            .send(Box::new(move |s| {
                let _ = tx.send(f(s));
            }))
            .map_err(|_| stopped())?;
        rx.recv().map_err(|_| stopped())?
    }

    /// One game with its moves.
    pub fn load(&self, id: &str) -> Result<Option<LiveGame>, StoreError> {
        let id = id.to_string();
        self.with_reader(move |s| Ok(s.live_game(&id)?))
    }

    /// Every game without a result, oldest first.
    pub fn unfinished(&self) -> Result<Vec<LiveGame>, StoreError> {
        self.with_reader(|s| Ok(s.live_unfinished()?))
    }

    /// The id in the game database of the table `id`.
    pub fn game_id(&self, id: &str) -> Result<Option<boyi_store::GameId>, StoreError> {
        let id = id.to_string();
        self.with_reader(move |s| Ok(s.live_id(&id)?))
    }

    /// Claims the unfinished game `id` for instance `me` of a cluster, or names its owner.
    pub fn claim(&self, id: &str, me: &str) -> Result<Owner, StoreError> {
        let (id, me) = (id.to_string(), me.to_string());
        self.with_reader(move |s| Ok(s.claim(&id, &me)?))
    }

    /// The instance of a cluster that runs game `id` now, if one does.
    pub fn owner(&self, id: &str) -> Result<Option<String>, StoreError> {
        let id = id.to_string();
        self.with_reader(move |s| Ok(s.owner(&id)?))
    }

    /// The lobby lines of the games every instance of a cluster runs.
    pub fn live_lobby(&self) -> Result<Vec<String>, StoreError> {
        self.with_reader(|s| Ok(s.live_lobby()?))
    }

    /// The most recently finished games, newest first, as the lobby lists them.
    pub fn finished(&self, limit: u32) -> Result<Vec<Value>, StoreError> {
        self.with_reader(move |s| {
            Ok(s.live_finished(limit as usize)?
                .iter()
                .map(finished_json)
                .collect())
        })
    }
}

fn finished_json(g: &LiveSummary) -> Value {
    let seats: Value = serde_json::from_str(&g.seats).unwrap_or_default();
    json!({
        "id": g.table,
        "game": g.game.name(),
        "variant": g.variant,
        "seats": public_seats(&seats),
        "winner": g.result.as_ref().map(GameResult::winner_word),
        "reason": g.result.as_ref().map(GameResult::text),
        "moves": g.plies,
        "finished_ms": g.finished_ms,
    })
}

/// Seats without their secret tokens: the held one, the invitation, spent and revoked ones.
pub fn public_seats(seats: &Value) -> Value {
    let mut seats = seats.clone();
    if let Some(a) = seats.as_array_mut() {
        for s in a {
            if let Some(o) = s.as_object_mut() {
                for secret in ["token", "used", "revoked"] {
                    o.remove(secret);
                }
            }
        }
    }
    seats
}

/// Starts thread `name`, which opens `db` with `open` and then serves what arrives on the
/// channel returned with `serve`; an error opening the database comes back from here.
fn on_thread<T: Send + 'static>(
    name: &str,
    open: fn(&Db) -> boyi_store::Result<boyi_store::Store>,
    db: &Db,
    serve: impl FnOnce(boyi_store::Store, Receiver<T>) + Send + 'static,
) -> Result<Sender<T>, StoreError> {
    let (tx, rx) = channel();
    let (opened_tx, opened) = channel();
    let db = db.clone();
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || match open(&db) {
            Ok(store) => {
                let _ = opened_tx.send(Ok(()));
                serve(store, rx)
            }
            Err(e) => {
                let _ = opened_tx.send(Err(e));
            }
        })
        .map_err(|e| StoreError::Write(e.to_string()))?;
    opened
        .recv()
        .map_err(|_| StoreError::Write(format!("the thread {name} stopped")))??;
    Ok(tx)
}

fn read_loop(store: boyi_store::Store, rx: Receiver<Read>) {
    while let Ok(read) = rx.recv() {
        read(&store);
    }
}

fn write_loop(mut store: boyi_store::Store, rx: Receiver<(LiveWrite, Ack)>, owner: Option<&str>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let (writes, acks): (Vec<LiveWrite>, Vec<Ack>) = batch.into_iter().unzip();
        let results: Vec<Result<(), String>> = match store.apply_live_as(&writes, owner) {
            Ok(rs) => rs
                .into_iter()
                .map(|r| r.map_err(|e| e.to_string()))
                .collect(),
            Err(e) => writes.iter().map(|_| Err(e.to_string())).collect(),
        };
        for ((ack, result), write) in acks.into_iter().zip(results).zip(&writes) {
            if let Err(e) = &result {
                eprintln!(
                    "boyi serve: database write failed ({}): {e}",
                    describe(write)
                );
            }
            let _ = ack.send(result);
        }
    }
}

/// Which write of which table, for the log.
fn describe(w: &LiveWrite) -> String {
    match w {
        LiveWrite::Begin(start) => format!("new table {}", start.table),
        LiveWrite::Move { table, ply, .. } => format!("move {ply} of table {table}"),
        LiveWrite::TakeBack { table, keep, .. } => {
            format!("taking table {table} back to move {keep}")
        }
        LiveWrite::Seats { table, .. } => format!("seats of table {table}"),
        LiveWrite::Finish { table, .. } => format!("result of table {table}"),
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::{Reason, Side};
    use boyi_games::GameKind;

    fn row(id: &str) -> NewRow {
        let mut header = GameRecord::new(GameKind::Gomoku);
        header.variant = Some("freestyle".into());
        header.start = Some("5/5/5/5/5 b".into());
        header.set_name(Side::Black, "Ann");
        header.set_name(Side::White, "Bo");
        NewRow {
            id: id.into(),
            header,
            start_hash: 7,
            options: json!({}),
            seats: json!([{"name": "Ann", "token": "secret"}, {"name": "Bo"}]),
            created_ms: 1,
        }
    }

    fn mv(i: u64, text: &str) -> RecordedMove {
        RecordedMove {
            time_ms: Some(5),
            clock_ms: Some(1000 - i),
            ..RecordedMove::new(text)
        }
    }

    #[tokio::test]
    async fn games_survive_reopening_and_undo_truncates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        {
            let store = Store::open(&Db::Sqlite(path.clone()), None).unwrap();
            store.create(row("a")).await.unwrap();
            store.create(row("b")).await.unwrap();
            // A table id is unique.
            assert!(store.create(row("a")).await.is_err());
            for (i, t) in ["c3", "d4", "e5"].iter().enumerate() {
                let ply = i + 1;
                store
                    .append_move("a", ply, mv(i as u64, t), 100 + i as u64)
                    .await
                    .unwrap();
            }
            // A second move with the same ply is refused, and changes nothing.
            assert!(store.append_move("a", 2, mv(9, "a1"), 0).await.is_err());
            assert!(store.append_move("zz", 1, mv(9, "a1"), 0).await.is_err());
            store.truncate("a", 2, vec![(3, 102)]).await.unwrap();
            let draw = GameResult::draw(Reason::Agreement);
            store.finish("b", draw.clone()).await.unwrap();
            assert!(store.finish("b", draw).await.is_err(), "over already");
            assert!(store.append_move("b", 1, mv(0, "a1"), 0).await.is_err());
        }
        let store = Store::open(&Db::Sqlite(path.clone()), None).unwrap();
        let a = store.load("a").unwrap().unwrap();
        assert_eq!(a.record.moves, vec![mv(0, "c3"), mv(1, "d4")]);
        assert_eq!(a.record.name(Side::White), "Bo");
        let open: Vec<String> = store
            .unfinished()
            .unwrap()
            .into_iter()
            .map(|g| g.table)
            .collect();
        assert_eq!(open, vec!["a"]);
        let done = store.finished(10).unwrap();
        assert_eq!(done[0]["winner"], "draw");
        assert_eq!(done[0]["reason"], "agreement");
        assert!(
            done[0]["seats"][0].get("token").is_none(),
            "tokens stay secret"
        );
        assert!(store.load("zz").unwrap().is_none());
        // The same games, seen as the game database sees them.
        let db = boyi_store::Store::open(&path).unwrap();
        let q = boyi_store::Query {
            player: Some("Ann".into()),
            ..Default::default()
        };
        assert_eq!(db.search(&q).unwrap().len(), 2);
        let id = store.game_id("a").unwrap().unwrap();
        assert_eq!(db.load(id).unwrap().moves.len(), 2);
        let hits = db.search_position(100, &Default::default()).unwrap();
        assert_eq!(hits[0].next.as_deref(), Some("d4"));
        let hits = db.search_position(101, &Default::default()).unwrap();
        assert_eq!((hits.len(), hits[0].next.as_deref()), (1, None));
        assert!(
            db.search_position(102, &Default::default())
                .unwrap()
                .is_empty()
        );
    }
}
