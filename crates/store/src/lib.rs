//! The game database of Boyi (SQLite, WAL mode): finished games imported from records or
//! played by `boyi match`, and live games that `boyi serve` writes move by move (a game
//! without a result is unfinished). Every position of every game is indexed by its Zobrist
//! hash, so "which stored games reached this position, and what was played next" is one
//! indexed query. The schema is documented in docs/store.md; [`MIGRATIONS`] bring any older
//! file up to date when it is opened.

use boyi_games::GameKind;
use boyi_records::{Checked, GameRecord, GameResult, RecordedMove};
use rusqlite::{Connection, OptionalExtension, Transaction, params};
use std::path::Path;

pub mod live;

pub use rusqlite;

/// The database file the command line and the server use unless told otherwise.
pub const DEFAULT_PATH: &str = "boyi.sqlite";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("{0}")]
    Invalid(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// Schema versions: `MIGRATIONS[i]` takes a database from version `i` to `i + 1`
/// (`PRAGMA user_version`).
pub const MIGRATIONS: &[&str] = &[r#"
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    game       TEXT    NOT NULL,
    variant    TEXT    NOT NULL,
    size       INTEGER,
    start      TEXT,
    black      TEXT    NOT NULL DEFAULT '',
    white      TEXT    NOT NULL DEFAULT '',
    result     TEXT CHECK (result IN ('black', 'white', 'draw')),
    reason     TEXT    NOT NULL DEFAULT '',
    date       TEXT    NOT NULL DEFAULT '',
    event      TEXT    NOT NULL DEFAULT '',
    site       TEXT    NOT NULL DEFAULT '',
    source     TEXT    NOT NULL DEFAULT '',
    plies      INTEGER NOT NULL DEFAULT 0,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX games_black  ON games (black);
CREATE INDEX games_white  ON games (white);
CREATE INDEX games_date   ON games (date);
CREATE INDEX games_game   ON games (game, variant);
CREATE TABLE game_tags (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID;
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL,
    move    TEXT    NOT NULL,
    time_ms INTEGER,
    comment TEXT,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE positions (
    hash    INTEGER NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL,
    PRIMARY KEY (hash, game_id, ply)
) WITHOUT ROWID;
"#];

/// A game's row id.
pub type GameId = i64;

/// An open database.
pub struct Store {
    conn: Connection,
}

/// What to look for; empty fields match everything.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pub game: Option<GameKind>,
    /// Either side's name (exact match).
    pub player: Option<String>,
    /// `black`, `white`, `draw`, or `unfinished`.
    pub result: Option<String>,
    /// A date prefix (`2024`, `2024-05`) or an inclusive range `FROM..TO`.
    pub date: Option<String>,
    pub limit: Option<usize>,
}

/// One row of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    pub id: GameId,
    pub game: String,
    pub variant: String,
    pub black: String,
    pub white: String,
    pub result: Option<String>,
    pub date: String,
    pub event: String,
    pub plies: usize,
}

/// A stored game that reached a searched position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionHit {
    pub game: GameSummary,
    /// Moves played before the position (0: the start).
    pub ply: usize,
    /// The move played from it, if the game went on.
    pub next: Option<String>,
}

const SUMMARY_COLUMNS: &str =
    "g.id, g.game, g.variant, g.black, g.white, g.result, g.date, g.event, g.plies";

fn summary(row: &rusqlite::Row<'_>) -> rusqlite::Result<GameSummary> {
    Ok(GameSummary {
        id: row.get(0)?,
        game: row.get(1)?,
        variant: row.get(2)?,
        black: row.get(3)?,
        white: row.get(4)?,
        result: row.get(5)?,
        date: row.get(6)?,
        event: row.get(7)?,
        plies: row.get::<_, i64>(8)? as usize,
    })
}

/// Hashes are stored as SQLite's signed 64-bit integers, bit for bit.
fn key(hash: u64) -> i64 {
    hash as i64
}

impl Store {
    /// Opens (creating if needed) the database at `path`, in WAL mode, migrated.
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        Store::setup(Connection::open(path)?)
    }

    /// A private database in memory (tests).
    pub fn open_in_memory() -> Result<Store> {
        Store::setup(Connection::open_in_memory()?)
    }

    fn setup(conn: Connection) -> Result<Store> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Position inserts land at random places of the hash index: a larger page cache
        // keeps bulk imports from re-reading it.
        conn.pragma_update(None, "cache_size", -65536)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let mut store = Store { conn };
        store.migrate()?;
        Ok(store)
    }

    fn migrate(&mut self) -> Result<()> {
        let version: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?;
        if version as usize > MIGRATIONS.len() {
            return Err(StoreError::Invalid(format!(
                "database schema version {version} is newer than this boyi ({})",
                MIGRATIONS.len()
            )));
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = self.conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// The underlying connection, for callers with their own queries.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Stores a checked game with all its positions; `source` says where it came from
    /// (`import`, `match`, `serve`, `engine`).
    pub fn insert(&mut self, game: &Checked, source: &str) -> Result<GameId> {
        let tx = self.conn.transaction()?;
        let id = insert_in(&tx, game, source)?;
        tx.commit()?;
        Ok(id)
    }

    /// Stores many games in one transaction (much faster than one by one).
    pub fn insert_many<'a>(
        &mut self,
        games: impl IntoIterator<Item = &'a Checked>,
        source: &str,
    ) -> Result<Vec<GameId>> {
        let tx = self.conn.transaction()?;
        let ids = games
            .into_iter()
            .map(|g| insert_in(&tx, g, source))
            .collect::<Result<Vec<_>>>()?;
        tx.commit()?;
        Ok(ids)
    }

    /// Starts a live game: its header (moves and result of `header` are ignored) and the
    /// hash of its start position. Moves follow with [`Store::append_move`].
    pub fn begin_game(
        &mut self,
        header: &GameRecord,
        start_hash: u64,
        source: &str,
    ) -> Result<GameId> {
        let tx = self.conn.transaction()?;
        let id = insert_header(&tx, header, None, source)?;
        tx.execute(
            "INSERT INTO positions (hash, game_id, ply) VALUES (?1, ?2, 0)",
            params![key(start_hash), id],
        )?;
        tx.commit()?;
        Ok(id)
    }

    /// Adds the next move of a live game and the hash of the position it leads to; returns
    /// the move's ply number.
    pub fn append_move(&mut self, id: GameId, mv: &RecordedMove, hash_after: u64) -> Result<usize> {
        let tx = self.conn.transaction()?;
        let (plies, result): (i64, Option<String>) = tx
            .query_row("SELECT plies, result FROM games WHERE id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?
            .ok_or_else(|| StoreError::Invalid(format!("no game {id}")))?;
        if result.is_some() {
            return Err(StoreError::Invalid(format!(
                "game {id} is already finished"
            )));
        }
        let ply = plies + 1;
        insert_move(&tx, id, ply, mv)?;
        tx.execute(
            "INSERT OR IGNORE INTO positions (hash, game_id, ply) VALUES (?1, ?2, ?3)",
            params![key(hash_after), id, ply],
        )?;
        tx.execute(
            "UPDATE games SET plies = ?1 WHERE id = ?2",
            params![ply, id],
        )?;
        tx.commit()?;
        Ok(ply as usize)
    }

    /// Records the end of a live game.
    pub fn finish_game(&mut self, id: GameId, result: &GameResult) -> Result<()> {
        let n = self.conn.execute(
            "UPDATE games SET result = ?1, reason = ?2 WHERE id = ?3",
            params![result.word(), result.reason, id],
        )?;
        if n == 0 {
            return Err(StoreError::Invalid(format!("no game {id}")));
        }
        Ok(())
    }

    /// The record of a stored game (finished or not).
    pub fn load(&self, id: GameId) -> Result<GameRecord> {
        let mut rec = self
            .conn
            .query_row(
                "SELECT game, variant, size, start, black, white, result, reason, date, event, site
                 FROM games WHERE id = ?1",
                [id],
                |r| {
                    let game: String = r.get(0)?;
                    Ok((game, header_from_row(r)?))
                },
            )
            .optional()?
            .ok_or_else(|| StoreError::Invalid(format!("no game {id}")))
            .and_then(|(game, mut rec)| {
                rec.game = game
                    .parse()
                    .map_err(|e| StoreError::Invalid(format!("game {id}: {e}")))?;
                Ok(rec)
            })?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT move, time_ms, comment FROM moves WHERE game_id = ?1 ORDER BY ply",
        )?;
        rec.moves = stmt
            .query_map([id], |r| {
                Ok(RecordedMove {
                    text: r.get(0)?,
                    time_ms: r.get::<_, Option<i64>>(1)?.map(|t| t as u64),
                    comment: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let mut stmt = self
            .conn
            .prepare_cached("SELECT key, value FROM game_tags WHERE game_id = ?1")?;
        rec.tags = stmt
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rec)
    }

    /// Games matching `q`, newest id first.
    pub fn search(&self, q: &Query) -> Result<Vec<GameSummary>> {
        let mut sql = format!("SELECT {SUMMARY_COLUMNS} FROM games g WHERE 1 = 1");
        let mut args: Vec<String> = Vec::new();
        filters(q, &mut sql, &mut args)?;
        sql.push_str(" ORDER BY g.id DESC");
        if let Some(n) = q.limit {
            sql.push_str(&format!(" LIMIT {n}"));
        }
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map(rusqlite::params_from_iter(args.iter()), summary)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Stored games (matching `q`) that reached the position with `hash`, with the move each
    /// played next.
    pub fn search_position(&self, hash: u64, q: &Query) -> Result<Vec<PositionHit>> {
        let mut sql = format!(
            "SELECT {SUMMARY_COLUMNS}, p.ply, m.move FROM positions p
             JOIN games g ON g.id = p.game_id
             LEFT JOIN moves m ON m.game_id = p.game_id AND m.ply = p.ply + 1
             WHERE p.hash = ?1"
        );
        let mut args: Vec<String> = Vec::new();
        filters(q, &mut sql, &mut args)?;
        sql.push_str(" ORDER BY g.id DESC, p.ply");
        if let Some(n) = q.limit {
            sql.push_str(&format!(" LIMIT {n}"));
        }
        let mut stmt = self.conn.prepare(&sql)?;
        let mut values: Vec<rusqlite::types::Value> = vec![key(hash).into()];
        values.extend(args.into_iter().map(Into::into));
        let rows = stmt.query_map(rusqlite::params_from_iter(values), |r| {
            Ok(PositionHit {
                game: summary(r)?,
                ply: r.get::<_, i64>(9)? as usize,
                next: r.get(10)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Number of stored games.
    pub fn count(&self) -> Result<usize> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))?
            as usize)
    }
}

/// Adds the WHERE clauses of `q`; parameters are numbered after any already in `sql`.
fn filters(q: &Query, sql: &mut String, args: &mut Vec<String>) -> Result<()> {
    let base = sql.matches('?').count();
    let mut arg = |sql: &mut String, clause: &str, value: String| {
        args.push(value);
        sql.push_str(&clause.replace('#', &format!("?{}", base + args.len())));
    };
    if let Some(g) = q.game {
        arg(sql, " AND g.game = #", g.name().to_string());
    }
    if let Some(p) = &q.player {
        arg(sql, " AND (g.black = # OR g.white = #)", p.clone());
    }
    match q.result.as_deref() {
        None => {}
        Some("unfinished") => sql.push_str(" AND g.result IS NULL"),
        Some(r @ ("black" | "white" | "draw")) => arg(sql, " AND g.result = #", r.to_string()),
        Some(other) => {
            return Err(StoreError::Invalid(format!(
                "result {other:?} must be black, white, draw or unfinished"
            )));
        }
    }
    if let Some(d) = &q.date {
        match d.split_once("..") {
            Some((from, to)) => {
                if !from.is_empty() {
                    arg(sql, " AND g.date >= #", from.to_string());
                }
                if !to.is_empty() {
                    arg(sql, " AND g.date <= #", format!("{to}\u{10ffff}"));
                }
            }
            None => arg(sql, " AND substr(g.date, 1, length(#)) = #", d.clone()),
        }
    }
    Ok(())
}

fn header_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRecord> {
    let mut rec = GameRecord::new(GameKind::Gomoku);
    rec.variant = Some(r.get(1)?);
    rec.size = r.get::<_, Option<i64>>(2)?.map(|n| n as usize);
    rec.start = r.get(3)?;
    rec.black = r.get(4)?;
    rec.white = r.get(5)?;
    let result: Option<String> = r.get(6)?;
    let reason: String = r.get(7)?;
    rec.result = result
        .as_deref()
        .and_then(GameResult::from_word)
        .map(|res| GameResult { reason, ..res });
    rec.date = r.get(8)?;
    rec.event = r.get(9)?;
    rec.site = r.get(10)?;
    Ok(rec)
}

fn insert_header(
    tx: &Transaction<'_>,
    rec: &GameRecord,
    result: Option<&GameResult>,
    source: &str,
) -> Result<GameId> {
    tx.prepare_cached(
        "INSERT INTO games (game, variant, size, start, black, white, result, reason, date, event, site, source)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        rec.game.name(),
        rec.variant.as_deref().unwrap_or(""),
        rec.size.map(|n| n as i64),
        rec.start,
        rec.black,
        rec.white,
        result.map(GameResult::word),
        result.map(|r| r.reason.as_str()).unwrap_or(""),
        rec.date,
        rec.event,
        rec.site,
        source,
    ])?;
    let id = tx.last_insert_rowid();
    let mut tags =
        tx.prepare_cached("INSERT INTO game_tags (game_id, key, value) VALUES (?1, ?2, ?3)")?;
    for (k, v) in &rec.tags {
        tags.execute(params![id, k, v])?;
    }
    Ok(id)
}

fn insert_move(tx: &Transaction<'_>, id: GameId, ply: i64, mv: &RecordedMove) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO moves (game_id, ply, move, time_ms, comment) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        id,
        ply,
        mv.text,
        mv.time_ms.map(|t| t as i64),
        mv.comment
    ])?;
    Ok(())
}

fn insert_in(tx: &Transaction<'_>, game: &Checked, source: &str) -> Result<GameId> {
    let rec = &game.record;
    if game.hashes.len() != rec.moves.len() + 1 {
        return Err(StoreError::Invalid(format!(
            "{} moves need {} position hashes, got {}",
            rec.moves.len(),
            rec.moves.len() + 1,
            game.hashes.len()
        )));
    }
    let id = insert_header(tx, rec, rec.result.as_ref(), source)?;
    for (i, mv) in rec.moves.iter().enumerate() {
        insert_move(tx, id, i as i64 + 1, mv)?;
    }
    let mut pos = tx.prepare_cached(
        "INSERT OR IGNORE INTO positions (hash, game_id, ply) VALUES (?1, ?2, ?3)",
    )?;
    for (ply, h) in game.hashes.iter().enumerate() {
        pos.execute(params![key(*h), id, ply as i64])?;
    }
    tx.execute(
        "UPDATE games SET plies = ?1 WHERE id = ?2",
        params![rec.moves.len() as i64, id],
    )?;
    Ok(id)
}
