//! The game database of Boyi (SQLite in WAL mode by default, or PostgreSQL): finished games imported from records or
//! played by `boyi match`, games that `boyi engine --record` and `boyi serve` write move by
//! move (a game without a result is unfinished), and the live tables of the server. Every
//! position of every game is indexed by its Zobrist hash, so "which stored games reached
//! this position, and what was played next" is one indexed query.
//!
//! The interface speaks the record model of `boyi-records` alone: a game goes in and comes
//! out as a [`GameRecord`] (moves as [`boyi_records::RecordedMove`], the result as a
//! [`boyi_records::GameResult`]); searches take a [`Query`] and give [`GameSummary`] rows;
//! the server's tables go through [`live`]. No SQL or driver type leaves the crate: the SQL
//! lives in [`rows`] (games, moves, positions), [`live`] (the server's tables) and
//! [`schema`] (the versions and their migrations), written once for both databases
//! ([`sql`] runs it on either). The schema is documented in docs/store.md.

use boyi_core::Side;
use boyi_games::GameKind;
use boyi_records::date::DateQuery;
use boyi_records::{Checked, GameRecord, GameResult, RecordedMove};
use rusqlite::Connection;
use sql::{Conn, Pg, args};
use std::cell::RefCell;
use std::path::Path;

pub mod cluster;
pub mod live;
mod rows;
pub mod schema;
mod sql;
#[doc(hidden)]
pub mod testing;

pub use schema::MIGRATIONS;
pub use sql::Db;

/// The database file the command line and the server use unless told otherwise.
pub const DEFAULT_PATH: &str = "boyi.sqlite";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("database: {}", postgres_message(.0))]
    Postgres(#[from] postgres::Error),
    #[error("{0}")]
    Invalid(String),
    /// An existing file that is not a sound database (see [`Store::open_checked`]).
    #[error("{}", damaged_message(.path, .detail))]
    Damaged { path: String, detail: String },
    /// An existing empty file where a database should be (see [`Store::open_checked`]).
    #[error(
        "database {path} is an empty file, not a database; nothing was written to it. If it \
         held games, restore it from a copy; to start afresh, remove it (a path that does \
         not exist is created as a new database)"
    )]
    Empty { path: String },
}

/// What a damaged database's error says: the file, what is wrong, and how to recover.
fn damaged_message(path: &str, detail: &str) -> String {
    format!(
        "database {path} is damaged ({detail}); nothing was written to it. To recover what \
         SQLite can still read, keep a copy of the file (and any {path}-wal beside it), run \
         `sqlite3 {path} .recover | sqlite3 recovered.sqlite` and start with --db \
         recovered.sqlite; to start afresh, move the file aside"
    )
}

/// A PostgreSQL error with the server's own words when it sent any (the client's display
/// alone says only "db error").
fn postgres_message(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None => e.to_string(),
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// A game's row id.
pub type GameId = i64;

/// An open database.
pub struct Store {
    conn: Conn,
}

/// Which results a search wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultFilter {
    /// Games won by this side, or drawn (`None`).
    Finished(Option<Side>),
    Unfinished,
}

impl std::str::FromStr for ResultFilter {
    type Err = String;

    /// `black`, `white` (or `red`), `draw` or `unfinished`.
    fn from_str(s: &str) -> std::result::Result<ResultFilter, String> {
        match s {
            "unfinished" => Ok(ResultFilter::Unfinished),
            w => boyi_records::parse_winner(w)
                .map(ResultFilter::Finished)
                .map_err(|_| format!("result {s:?} must be black, white, draw or unfinished")),
        }
    }
}

/// What to look for; empty fields match everything.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pub game: Option<GameKind>,
    /// Either side's name (exact match).
    pub player: Option<String>,
    pub result: Option<ResultFilter>,
    /// A date prefix or range, checked ([`boyi_records::date::parse_date_query`]).
    pub date: Option<DateQuery>,
    pub limit: Option<usize>,
}

/// One row of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    pub id: GameId,
    pub game: GameKind,
    pub variant: String,
    /// The players' names by [`Side::index`].
    pub players: [String; 2],
    pub result: Option<GameResult>,
    /// The date in Boyi's form (`2024-05-01`, `2024-05`), empty when unknown.
    pub date: String,
    pub event: String,
    pub plies: usize,
    /// Where the game came from: `import`, `match`, `serve`, `engine`.
    pub source: String,
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

/// What an import stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    pub ids: Vec<GameId>,
    /// Games left out because the database already held them (same fingerprint).
    pub duplicates: usize,
}

impl Store {
    /// Opens `db`: an SQLite file as [`Store::open`], or a PostgreSQL database (which must
    /// exist; its tables are created or migrated).
    pub fn connect(db: &Db) -> Result<Store> {
        match db {
            Db::Sqlite(path) => Store::open(path),
            Db::Postgres(url) => Store::setup_postgres(Pg::connect(url)?),
        }
    }

    /// As [`Store::connect`], an SQLite file checked as [`Store::open_checked`] does.
    pub fn connect_checked(db: &Db) -> Result<Store> {
        match db {
            Db::Sqlite(path) => Store::open_checked(path),
            Db::Postgres(_) => Store::connect(db),
        }
    }

    /// Opens (creating if needed) the SQLite database at `path`, in WAL mode, migrated.
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        Store::setup(Connection::open(path)?)
    }

    /// Opens the database at `path` for a program that will write to it for long (the
    /// server): an existing file must pass SQLite's quick check, and an empty existing file is
    /// refused too (it is not a database, and taking it for a new one would hide whatever
    /// emptied it); a missing file is created as a new database. A refusal
    /// ([`StoreError::Damaged`], [`StoreError::Empty`]) names the file and how to recover.
    pub fn open_checked(path: impl AsRef<Path>) -> Result<Store> {
        let path = path.as_ref();
        let damaged = |detail: String| StoreError::Damaged {
            path: path.display().to_string(),
            detail,
        };
        match std::fs::metadata(path) {
            Ok(m) if m.is_file() && m.len() == 0 => Err(StoreError::Empty {
                path: path.display().to_string(),
            }),
            Ok(_) => {
                let conn = Connection::open(path)?;
                let problems = quick_check(&conn).map_err(|e| damaged(e.to_string()))?;
                if !problems.is_empty() {
                    return Err(damaged(problems));
                }
                Store::setup(conn).map_err(|e| match e {
                    StoreError::Sql(e) => damaged(e.to_string()),
                    other => other,
                })
            }
            Err(_) => Store::open(path),
        }
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
        let store = Store {
            conn: Conn::Sqlite(conn),
        };
        store.migrate()?;
        Ok(store)
    }

    fn setup_postgres(pg: Pg) -> Result<Store> {
        let store = Store {
            conn: Conn::Postgres(Box::new(RefCell::new(pg))),
        };
        store.migrate()?;
        Ok(store)
    }

    /// Brings the schema to the newest version, one migration a transaction. On PostgreSQL
    /// an advisory lock holds back every other instance while one migrates, so instances
    /// started together migrate once.
    fn migrate(&self) -> Result<()> {
        loop {
            let done = self.conn.transaction(|c| {
                if c.is_postgres() {
                    c.exec("SELECT pg_advisory_xact_lock(?1)", args![MIGRATION_LOCK])?;
                    c.batch(
                        "CREATE TABLE IF NOT EXISTS boyi_schema (version BIGINT NOT NULL);
                         INSERT INTO boyi_schema (version)
                             SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM boyi_schema)",
                    )?;
                }
                let version = self.schema_version()? as usize;
                if version > MIGRATIONS.len() {
                    return Err(StoreError::Invalid(format!(
                        "database schema version {version} is newer than this boyi ({})",
                        MIGRATIONS.len()
                    )));
                }
                let Some(m) = MIGRATIONS.get(version) else {
                    return Ok(true);
                };
                match c {
                    Conn::Sqlite(_) => c.batch(m.sql)?,
                    Conn::Postgres(_) => c.batch(m.postgres)?,
                }
                if let Some(data) = m.data {
                    data(c)?;
                }
                match c {
                    Conn::Sqlite(_) => {
                        c.batch(&format!("PRAGMA user_version = {}", version + 1))?
                    }
                    Conn::Postgres(_) => {
                        c.exec("UPDATE boyi_schema SET version = ?1", args![version + 1])?;
                    }
                }
                Ok(false)
            })?;
            if done {
                return Ok(());
            }
        }
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64> {
        let sql = match &self.conn {
            Conn::Sqlite(_) => "PRAGMA user_version",
            Conn::Postgres(_) => "SELECT version FROM boyi_schema",
        };
        Ok(self.conn.int(sql, &[])?.unwrap_or(0))
    }

    /// The journal mode (`wal`) of an SQLite database, for checks of the setup; empty on
    /// PostgreSQL, which has none.
    pub fn journal_mode(&self) -> Result<String> {
        match &self.conn {
            Conn::Sqlite(c) => Ok(c.pragma_query_value(None, "journal_mode", |r| r.get(0))?),
            Conn::Postgres(_) => Ok(String::new()),
        }
    }
    /// Stores a checked game with all its positions; `source` says where it came from
    /// (`import`, `match`, `serve`, `engine`).
    pub fn insert(&mut self, game: &Checked, source: &str) -> Result<GameId> {
        self.conn
            .transaction(|c| rows::insert_game(c, game, source))
    }

    /// Stores many games in one transaction (much faster than one by one).
    pub fn insert_many<'a>(
        &mut self,
        games: impl IntoIterator<Item = &'a Checked>,
        source: &str,
    ) -> Result<Vec<GameId>> {
        self.conn.transaction(|c| {
            games
                .into_iter()
                .map(|g| rows::insert_game(c, g, source))
                .collect()
        })
    }

    /// As [`Store::insert_many`], leaving out the finished games the database already
    /// holds (by [`GameRecord::fingerprint`]), and repeats within `games`.
    pub fn import<'a>(
        &mut self,
        games: impl IntoIterator<Item = &'a Checked>,
        source: &str,
    ) -> Result<Imported> {
        self.conn.transaction(|c| {
            let mut out = Imported::default();
            for g in games {
                if g.record.result.is_some() && rows::has_fingerprint(c, g.record.fingerprint())? {
                    out.duplicates += 1;
                    continue;
                }
                out.ids.push(rows::insert_game(c, g, source)?);
            }
            Ok(out)
        })
    }

    /// Starts a game stored move by move: its header (moves and result of `header` are
    /// ignored) and the hash of its start position. Moves follow with
    /// [`Store::append_move`], the end with [`Store::finish_game`].
    pub fn begin_game(
        &mut self,
        header: &GameRecord,
        start_hash: u64,
        source: &str,
    ) -> Result<GameId> {
        self.conn.transaction(|c| {
            let id = rows::insert_header(c, header, source)?;
            rows::insert_position(c, id, 0, start_hash)?;
            Ok(id)
        })
    }

    /// Adds the next move of an unfinished game and the hash of the position it leads to;
    /// returns the move's ply number (from 1).
    pub fn append_move(&mut self, id: GameId, mv: &RecordedMove, hash_after: u64) -> Result<usize> {
        self.conn
            .transaction(|c| rows::append_move(c, id, None, mv, hash_after))
    }

    /// Records the end of a game stored move by move.
    pub fn finish_game(&mut self, id: GameId, result: &GameResult) -> Result<()> {
        self.conn.transaction(|c| rows::finish(c, id, result))
    }

    /// The record of a stored game (finished or not).
    pub fn load(&self, id: GameId) -> Result<GameRecord> {
        rows::load(&self.conn, id)
    }

    /// Games matching `q`, newest id first.
    pub fn search(&self, q: &Query) -> Result<Vec<GameSummary>> {
        rows::search(&self.conn, q)
    }

    /// Stored games (matching `q`) that reached the position with `hash`, with the move each
    /// played next.
    pub fn search_position(&self, hash: u64, q: &Query) -> Result<Vec<PositionHit>> {
        rows::search_position(&self.conn, hash, q)
    }

    /// Number of stored games.
    pub fn count(&self) -> Result<usize> {
        rows::count(&self.conn)
    }

    /// The ids of the games matching `q`, oldest first (for an export).
    pub fn ids(&self, q: &Query) -> Result<Vec<GameId>> {
        let mut ids: Vec<GameId> = self.search(q)?.into_iter().map(|g| g.id).collect();
        ids.reverse();
        Ok(ids)
    }
}

/// The key of the advisory lock that instances migrating one PostgreSQL database take.
const MIGRATION_LOCK: i64 = 0x626f_7969_5f6d_6967; // "boyi_mig"

/// `PRAGMA quick_check`: empty when the database is sound, else its first few findings.
fn quick_check(conn: &Connection) -> rusqlite::Result<String> {
    let mut stmt = conn.prepare("PRAGMA quick_check(5)")?;
    let rows: Vec<String> = stmt
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(if rows == ["ok"] {
        String::new()
    } else {
        rows.join("; ")
    })
}
