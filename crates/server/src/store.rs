//! Where the server keeps its games: the shared game database (crate `boyi-store`, SQLite in
//! WAL mode), so every game played here is an ordinary stored game that `boyi record search`
//! finds. What only a live table needs (its id, options, seats with their tokens, the clocks
//! after each move) lives in the store's live tables (`boyi_store::live`). Every change of a
//! table (a move, an undo, a seat taken, the result) is written before it is shown to anyone,
//! so a restart loses nothing and every unfinished game resumes.
//!
//! Writes go to one writer thread that commits whatever has queued up in one transaction
//! (many tables moving at once cost one commit, not one each) and then acknowledges each
//! write. Reads use their own connection.

use boyi_games::GameKind;
use boyi_records::GameResult;
use boyi_store::live::{LiveGame, LiveMove, LiveStart, LiveWrite};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// A stored game: its setup as the table created it, its moves and its result.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GameRow {
    /// The table id (in links).
    pub id: String,
    pub game: String,
    pub variant: String,
    /// Position text of the start position.
    pub start: String,
    /// Table options (clock, undo, same screen) as JSON.
    pub options: serde_json::Value,
    /// The two seats as JSON.
    pub seats: serde_json::Value,
    pub created_ms: i64,
    /// `black`, `white` or `draw` once finished.
    pub winner: Option<String>,
    pub reason: Option<String>,
    pub finished_ms: Option<i64>,
    pub moves: Vec<MoveRow>,
}

/// One stored move.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MoveRow {
    /// 0 for the first move.
    pub ply: u32,
    /// Canonical move text.
    pub text: String,
    /// `black` or `white`: who played it.
    pub side: String,
    /// Thinking time spent on it.
    pub elapsed_ms: u64,
    /// Both clocks after it (black, white), if the table has a clock.
    pub clocks: Option<[u64; 2]>,
    /// Hash of the position after it (for the store's position index; not sent).
    #[serde(skip)]
    pub hash: u64,
}

/// A short line for the list of finished games.
#[derive(Debug, Clone, Serialize)]
pub struct FinishedGame {
    pub id: String,
    pub game: String,
    pub variant: String,
    pub seats: serde_json::Value,
    pub winner: Option<String>,
    pub reason: Option<String>,
    pub moves: u32,
    pub finished_ms: Option<i64>,
}

type Ack = oneshot::Sender<Result<(), String>>;

/// The game store. Cheap to clone.
#[derive(Clone)]
pub struct Store {
    writes: Sender<(LiveWrite, Ack)>,
    reader: Arc<Mutex<boyi_store::Store>>,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0}")]
    Store(#[from] boyi_store::StoreError),
    #[error("database write failed: {0}")]
    Write(String),
    #[error("stored game {id} is damaged: {what}")]
    Damaged { id: String, what: String },
}

fn open_store(path: &Path) -> Result<boyi_store::Store, StoreError> {
    let store = boyi_store::Store::open(path)?;
    store.ensure_live_schema()?;
    Ok(store)
}

fn seat_name(seats: &serde_json::Value, i: usize) -> String {
    seats[i]["name"].as_str().unwrap_or_default().to_string()
}

impl Store {
    /// Opens (creating if needed) the database file and starts the writer thread.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let writer = open_store(path)?;
        let reader = open_store(path)?;
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name("boyi-store".into())
            .spawn(move || write_loop(writer, rx))
            .map_err(|e| StoreError::Write(e.to_string()))?;
        Ok(Store {
            writes: tx,
            reader: Arc::new(Mutex::new(reader)),
        })
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

    /// Stores a new game (no moves yet); `start_hash` is its start position's hash.
    pub async fn create(&self, row: GameRow, start_hash: u64) -> Result<(), StoreError> {
        let game: GameKind = row.game.parse().map_err(|e| StoreError::Damaged {
            id: row.id.clone(),
            what: format!("{e}"),
        })?;
        self.write(LiveWrite::Begin(Box::new(LiveStart {
            table: row.id,
            game,
            variant: row.variant,
            start: row.start,
            start_hash,
            black: seat_name(&row.seats, 0),
            white: seat_name(&row.seats, 1),
            options: row.options.to_string(),
            seats: row.seats.to_string(),
            created_ms: row.created_ms,
        })))
        .await
    }

    pub async fn append_move(&self, id: &str, mv: MoveRow) -> Result<(), StoreError> {
        self.write(LiveWrite::Move {
            table: id.into(),
            mv: LiveMove {
                ply: mv.ply as usize + 1,
                text: mv.text,
                side: mv.side,
                time_ms: mv.elapsed_ms,
                clocks: mv.clocks,
                hash_after: mv.hash,
            },
        })
        .await
    }

    /// Keeps the first `plies` moves (undo); `removed` are the moves taken back.
    pub async fn truncate(
        &self,
        id: &str,
        plies: u32,
        removed: &[MoveRow],
    ) -> Result<(), StoreError> {
        self.write(LiveWrite::TakeBack {
            table: id.into(),
            keep: plies as usize,
            removed: removed
                .iter()
                .map(|m| (m.ply as usize + 1, m.hash))
                .collect(),
        })
        .await
    }

    pub async fn set_seats(&self, id: &str, seats: serde_json::Value) -> Result<(), StoreError> {
        self.write(LiveWrite::Seats {
            table: id.into(),
            black: seat_name(&seats, 0),
            white: seat_name(&seats, 1),
            seats: seats.to_string(),
        })
        .await
    }

    /// Records the result: `winner` is `black`, `white` or `draw`.
    pub async fn finish(&self, id: &str, winner: &str, reason: &str) -> Result<(), StoreError> {
        let result = GameResult::from_word(winner)
            .map(|r| GameResult {
                reason: reason.into(),
                ..r
            })
            .ok_or_else(|| StoreError::Write(format!("unknown result {winner:?}")))?;
        self.write(LiveWrite::Finish {
            table: id.into(),
            result,
            at_ms: now_ms(),
        })
        .await
    }

    fn with_reader<T>(
        &self,
        f: impl FnOnce(&boyi_store::Store) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let store = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        f(&store)
    }

    /// One game with its moves.
    pub fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        self.with_reader(|s| s.live_game(id)?.map(row_of).transpose())
    }

    /// Every game without a result, oldest first.
    pub fn unfinished(&self) -> Result<Vec<GameRow>, StoreError> {
        self.with_reader(|s| s.live_unfinished()?.into_iter().map(row_of).collect())
    }

    /// The id in the game database of the table `id`.
    pub fn game_id(&self, id: &str) -> Result<Option<boyi_store::GameId>, StoreError> {
        self.with_reader(|s| Ok(s.live_id(id)?))
    }

    /// The most recently finished games, newest first.
    pub fn finished(&self, limit: u32) -> Result<Vec<FinishedGame>, StoreError> {
        self.with_reader(|s| {
            Ok(s.live_finished(limit as usize)?
                .into_iter()
                .map(|g| FinishedGame {
                    id: g.table,
                    game: g.game,
                    variant: g.variant,
                    seats: serde_json::from_str(&g.seats).unwrap_or_default(),
                    winner: g.result,
                    reason: Some(g.reason),
                    moves: g.plies as u32,
                    finished_ms: g.finished_ms,
                })
                .collect())
        })
    }
}

fn row_of(g: LiveGame) -> Result<GameRow, StoreError> {
    let damaged = |what: String| StoreError::Damaged {
        id: g.table.clone(),
        what,
    };
    let options = serde_json::from_str(&g.options).map_err(|e| damaged(format!("options: {e}")))?;
    let seats = serde_json::from_str(&g.seats).map_err(|e| damaged(format!("seats: {e}")))?;
    let moves = g
        .moves
        .iter()
        .map(|m| MoveRow {
            ply: m.ply as u32 - 1,
            text: m.text.clone(),
            side: m.side.clone(),
            elapsed_ms: m.time_ms,
            clocks: m.clocks,
            hash: 0,
        })
        .collect();
    Ok(GameRow {
        id: g.table,
        game: g.game,
        variant: g.variant,
        start: g.start,
        options,
        seats,
        created_ms: g.created_ms,
        reason: g.result.as_ref().map(|_| g.reason.clone()),
        winner: g.result,
        finished_ms: g.finished_ms,
        moves,
    })
}

fn write_loop(mut store: boyi_store::Store, rx: Receiver<(LiveWrite, Ack)>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let (writes, acks): (Vec<LiveWrite>, Vec<Ack>) = batch.into_iter().unzip();
        let results: Vec<Result<(), String>> = match store.apply_live(&writes) {
            Ok(rs) => rs
                .into_iter()
                .map(|r| r.map_err(|e| e.to_string()))
                .collect(),
            Err(e) => writes.iter().map(|_| Err(e.to_string())).collect(),
        };
        for (ack, result) in acks.into_iter().zip(results) {
            let _ = ack.send(result);
        }
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

    fn row(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            game: "gomoku".into(),
            variant: "freestyle".into(),
            start: "5/5/5/5/5 b".into(),
            options: serde_json::json!({}),
            seats: serde_json::json!([{"name": "Ann"}, {"name": "Bo"}]),
            created_ms: 1,
            winner: None,
            reason: None,
            finished_ms: None,
            moves: vec![],
        }
    }

    fn mv(ply: u32, text: &str) -> MoveRow {
        MoveRow {
            ply,
            text: text.into(),
            side: "black".into(),
            elapsed_ms: 5,
            clocks: Some([1000, 2000]),
            hash: 100 + ply as u64,
        }
    }

    #[tokio::test]
    async fn games_survive_reopening_and_undo_truncates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        {
            let store = Store::open(&path).unwrap();
            store.create(row("a"), 7).await.unwrap();
            store.create(row("b"), 7).await.unwrap();
            // A table id is unique.
            assert!(store.create(row("a"), 7).await.is_err());
            let moves: Vec<MoveRow> = ["c3", "d4", "e5"]
                .iter()
                .enumerate()
                .map(|(i, t)| mv(i as u32, t))
                .collect();
            for m in &moves {
                store.append_move("a", m.clone()).await.unwrap();
            }
            // A second move with the same ply is refused, and changes nothing.
            assert!(store.append_move("a", mv(1, "a1")).await.is_err());
            assert!(store.append_move("zz", mv(0, "a1")).await.is_err());
            store.truncate("a", 2, &moves[2..]).await.unwrap();
            store.finish("b", "draw", "agreed").await.unwrap();
            assert!(store.append_move("b", mv(0, "a1")).await.is_err());
        }
        let store = Store::open(&path).unwrap();
        let a = store.load("a").unwrap().unwrap();
        let plain = |m: MoveRow| MoveRow { hash: 0, ..m };
        assert_eq!(a.moves, vec![plain(mv(0, "c3")), plain(mv(1, "d4"))]);
        let open: Vec<String> = store
            .unfinished()
            .unwrap()
            .into_iter()
            .map(|g| g.id)
            .collect();
        assert_eq!(open, vec!["a"]);
        let done = store.finished(10).unwrap();
        assert_eq!(done[0].winner.as_deref(), Some("draw"));
        assert!(store.load("zz").unwrap().is_none());
        // The same games, seen as the game database sees them.
        let db = boyi_store::Store::open(&path).unwrap();
        let q = boyi_store::Query {
            player: Some("Ann".into()),
            ..Default::default()
        };
        let found = db.search(&q).unwrap();
        assert_eq!(found.len(), 2);
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
