//! Where the server keeps its games: a SQLite file in WAL mode. Every change of a table (a
//! move, an undo, a seat taken, the result) is written before it is shown to anyone, so a
//! restart loses nothing and every unfinished game resumes.
//!
//! Writes go to one writer thread that commits whatever has queued up in one transaction
//! (many tables moving at once cost one fsync, not one each) and then acknowledges each
//! write. Reads use their own connection.

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS server_games (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    variant     TEXT NOT NULL,
    start       TEXT NOT NULL,
    options     TEXT NOT NULL,
    seats       TEXT NOT NULL,
    created_ms  INTEGER NOT NULL,
    winner      TEXT,
    reason      TEXT,
    finished_ms INTEGER
);
CREATE TABLE IF NOT EXISTS server_moves (
    game_id        TEXT NOT NULL REFERENCES server_games(id),
    ply            INTEGER NOT NULL,
    text           TEXT NOT NULL,
    side           TEXT NOT NULL,
    elapsed_ms     INTEGER NOT NULL,
    clock_black_ms INTEGER,
    clock_white_ms INTEGER,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS server_games_open ON server_games(finished_ms);
";

/// A stored game: its setup as the table created it, its moves and its result.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GameRow {
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

enum Write {
    Create(Box<GameRow>),
    Move(String, MoveRow),
    Truncate(String, u32),
    Seats(String, serde_json::Value),
    Finish {
        id: String,
        winner: String,
        reason: String,
        at_ms: i64,
    },
}

type Ack = oneshot::Sender<Result<(), String>>;

/// The game store. Cheap to clone.
#[derive(Clone)]
pub struct Store {
    writes: Sender<(Write, Ack)>,
    reader: Arc<Mutex<Connection>>,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("database write failed: {0}")]
    Write(String),
    #[error("stored game {id} is damaged: {what}")]
    Damaged { id: String, what: String },
}

fn open_connection(path: &Path) -> Result<Connection, rusqlite::Error> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

impl Store {
    /// Opens (creating if needed) the database file and starts the writer thread.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let writer = open_connection(path)?;
        writer.execute_batch(SCHEMA)?;
        let reader = open_connection(path)?;
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

    async fn write(&self, w: Write) -> Result<(), StoreError> {
        let (ack, done) = oneshot::channel();
        self.writes
            .send((w, ack))
            .map_err(|_| StoreError::Write("the writer has stopped".into()))?;
        done.await
            .map_err(|_| StoreError::Write("the writer has stopped".into()))?
            .map_err(StoreError::Write)
    }

    pub async fn create(&self, row: GameRow) -> Result<(), StoreError> {
        self.write(Write::Create(Box::new(row))).await
    }

    pub async fn append_move(&self, id: &str, mv: MoveRow) -> Result<(), StoreError> {
        self.write(Write::Move(id.into(), mv)).await
    }

    /// Keeps the first `plies` moves (undo).
    pub async fn truncate(&self, id: &str, plies: u32) -> Result<(), StoreError> {
        self.write(Write::Truncate(id.into(), plies)).await
    }

    pub async fn set_seats(&self, id: &str, seats: serde_json::Value) -> Result<(), StoreError> {
        self.write(Write::Seats(id.into(), seats)).await
    }

    pub async fn finish(&self, id: &str, winner: &str, reason: &str) -> Result<(), StoreError> {
        self.write(Write::Finish {
            id: id.into(),
            winner: winner.into(),
            reason: reason.into(),
            at_ms: now_ms(),
        })
        .await
    }

    fn with_reader<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        f(&conn)
    }

    /// One game with its moves.
    pub fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        self.with_reader(|c| load_game(c, id))
    }

    /// Every game without a result, oldest first.
    pub fn unfinished(&self) -> Result<Vec<GameRow>, StoreError> {
        self.with_reader(|c| {
            let ids: Vec<String> = c
                .prepare("SELECT id FROM server_games WHERE winner IS NULL ORDER BY created_ms")?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            let mut games = Vec::with_capacity(ids.len());
            for id in ids {
                games.extend(load_game(c, &id)?);
            }
            Ok(games)
        })
    }

    /// The ids of every stored game.
    pub fn all_ids(&self) -> Result<Vec<String>, StoreError> {
        self.with_reader(|c| {
            Ok(
                c.prepare("SELECT id FROM server_games ORDER BY created_ms")?
                    .query_map([], |r| r.get(0))?
                    .collect::<Result<_, _>>()?,
            )
        })
    }

    /// The most recently finished games, newest first.
    pub fn finished(&self, limit: u32) -> Result<Vec<FinishedGame>, StoreError> {
        self.with_reader(|c| {
            let mut stmt = c.prepare(
                "SELECT g.id, g.game, g.variant, g.seats, g.winner, g.reason, g.finished_ms,
                        (SELECT COUNT(*) FROM server_moves m WHERE m.game_id = g.id)
                 FROM server_games g WHERE g.winner IS NOT NULL
                 ORDER BY g.finished_ms DESC LIMIT ?1",
            )?;
            let rows = stmt.query_map([limit], |r| {
                let seats: String = r.get(3)?;
                Ok(FinishedGame {
                    id: r.get(0)?,
                    game: r.get(1)?,
                    variant: r.get(2)?,
                    seats: serde_json::from_str(&seats).unwrap_or_default(),
                    winner: r.get(4)?,
                    reason: r.get(5)?,
                    finished_ms: r.get(6)?,
                    moves: r.get(7)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }
}

fn load_game(c: &Connection, id: &str) -> Result<Option<GameRow>, StoreError> {
    let head = c
        .query_row(
            "SELECT id, game, variant, start, options, seats, created_ms, winner, reason, finished_ms
             FROM server_games WHERE id = ?1",
            [id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, i64>(6)?,
                    r.get::<_, Option<String>>(7)?,
                    r.get::<_, Option<String>>(8)?,
                    r.get::<_, Option<i64>>(9)?,
                ))
            },
        )
        .optional()?;
    let Some((id, game, variant, start, options, seats, created_ms, winner, reason, finished_ms)) =
        head
    else {
        return Ok(None);
    };
    let damaged = |what: String| StoreError::Damaged {
        id: id.clone(),
        what,
    };
    let options = serde_json::from_str(&options).map_err(|e| damaged(format!("options: {e}")))?;
    let seats = serde_json::from_str(&seats).map_err(|e| damaged(format!("seats: {e}")))?;
    let mut stmt = c.prepare(
        "SELECT ply, text, side, elapsed_ms, clock_black_ms, clock_white_ms
         FROM server_moves WHERE game_id = ?1 ORDER BY ply",
    )?;
    let moves: Vec<MoveRow> = stmt
        .query_map([&id], |r| {
            let b: Option<i64> = r.get(4)?;
            let w: Option<i64> = r.get(5)?;
            Ok(MoveRow {
                ply: r.get(0)?,
                text: r.get(1)?,
                side: r.get(2)?,
                elapsed_ms: r.get::<_, i64>(3)? as u64,
                clocks: b.zip(w).map(|(b, w)| [b as u64, w as u64]),
            })
        })?
        .collect::<Result<_, _>>()?;
    if let Some(gap) = moves.iter().enumerate().find(|(i, m)| m.ply as usize != *i) {
        return Err(damaged(format!("move {} is missing", gap.0 + 1)));
    }
    Ok(Some(GameRow {
        id,
        game,
        variant,
        start,
        options,
        seats,
        created_ms,
        winner,
        reason,
        finished_ms,
        moves,
    }))
}

fn write_loop(mut conn: Connection, rx: Receiver<(Write, Ack)>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let results = commit_batch(&mut conn, &batch);
        for ((_, ack), result) in batch.into_iter().zip(results) {
            let _ = ack.send(result);
        }
    }
}

/// Commits a batch in one transaction; each write is its own savepoint, so one failed write
/// (say a duplicate move) fails alone.
fn commit_batch(conn: &mut Connection, batch: &[(Write, Ack)]) -> Vec<Result<(), String>> {
    let tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => return batch.iter().map(|_| Err(e.to_string())).collect(),
    };
    let mut results = Vec::with_capacity(batch.len());
    let mut tx = tx;
    for (w, _) in batch {
        let result = (|| -> Result<(), rusqlite::Error> {
            let sp = tx.savepoint()?;
            apply(&sp, w)?;
            sp.commit()
        })();
        results.push(result.map_err(|e| e.to_string()));
    }
    if let Err(e) = tx.commit() {
        return batch.iter().map(|_| Err(e.to_string())).collect();
    }
    results
}

fn apply(c: &Connection, w: &Write) -> Result<(), rusqlite::Error> {
    match w {
        Write::Create(g) => {
            c.execute(
                "INSERT INTO server_games (id, game, variant, start, options, seats, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    g.id,
                    g.game,
                    g.variant,
                    g.start,
                    g.options.to_string(),
                    g.seats.to_string(),
                    g.created_ms
                ],
            )?;
        }
        Write::Move(id, m) => {
            c.execute(
                "INSERT INTO server_moves
                 (game_id, ply, text, side, elapsed_ms, clock_black_ms, clock_white_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    id,
                    m.ply,
                    m.text,
                    m.side,
                    m.elapsed_ms as i64,
                    m.clocks.map(|c| c[0] as i64),
                    m.clocks.map(|c| c[1] as i64)
                ],
            )?;
        }
        Write::Truncate(id, plies) => {
            c.execute(
                "DELETE FROM server_moves WHERE game_id = ?1 AND ply >= ?2",
                params![id, plies],
            )?;
        }
        Write::Seats(id, seats) => {
            c.execute(
                "UPDATE server_games SET seats = ?2 WHERE id = ?1",
                params![id, seats.to_string()],
            )?;
        }
        Write::Finish {
            id,
            winner,
            reason,
            at_ms,
        } => {
            c.execute(
                "UPDATE server_games SET winner = ?2, reason = ?3, finished_ms = ?4 WHERE id = ?1",
                params![id, winner, reason, at_ms],
            )?;
        }
    }
    Ok(())
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
            seats: serde_json::json!([]),
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
        }
    }

    #[tokio::test]
    async fn games_survive_reopening_and_undo_truncates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        {
            let store = Store::open(&path).unwrap();
            store.create(row("a")).await.unwrap();
            store.create(row("b")).await.unwrap();
            for (i, t) in ["c3", "d4", "e5"].iter().enumerate() {
                store.append_move("a", mv(i as u32, t)).await.unwrap();
            }
            // A second move with the same ply is refused, and changes nothing.
            assert!(store.append_move("a", mv(1, "a1")).await.is_err());
            store.truncate("a", 2).await.unwrap();
            store.finish("b", "draw", "agreed").await.unwrap();
        }
        let store = Store::open(&path).unwrap();
        let a = store.load("a").unwrap().unwrap();
        assert_eq!(a.moves, vec![mv(0, "c3"), mv(1, "d4")]);
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
    }
}
