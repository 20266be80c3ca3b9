//! Live games of `boyi serve`: what a table needs beyond the game record to be played on and
//! resumed after a restart — its id in links, options and seats (with their secret tokens)
//! as the server's JSON, the clocks after each move, taking moves back — kept in tables of
//! their own beside `games`, `moves` and `positions`. The game itself (players, every move
//! with its thinking time, every position's hash, the result) is an ordinary stored game
//! with source `serve`, so `boyi record search` finds served games like any other.
//!
//! The live tables are created if missing whenever the server opens the file
//! ([`Store::ensure_live_schema`]), independently of the schema version, so files written by
//! other commands gain them on the server's first start and keep their version.
//!
//! Writes come as batches of [`LiveWrite`]s committed in one transaction, each in its own
//! savepoint: many tables moving at once cost one commit, and one refused write (a move out
//! of order, a move after the end) fails alone and changes nothing.

use crate::{GameId, Result, Store, StoreError, key};
use boyi_games::GameKind;
use boyi_records::GameResult;
use rusqlite::{Connection, OptionalExtension, params};

/// The live tables (idempotent).
pub const LIVE_SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS live_games (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    table_id    TEXT    NOT NULL UNIQUE,
    options     TEXT    NOT NULL,
    seats       TEXT    NOT NULL,
    created_ms  INTEGER NOT NULL,
    finished_ms INTEGER
);
CREATE INDEX IF NOT EXISTS live_games_finished ON live_games (finished_ms);
CREATE TABLE IF NOT EXISTS live_moves (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply            INTEGER NOT NULL,
    side           TEXT    NOT NULL,
    clock_black_ms INTEGER,
    clock_white_ms INTEGER,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
"#;

/// A new live game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveStart {
    /// The table's id (letters and digits), unique among live games.
    pub table: String,
    pub game: GameKind,
    pub variant: String,
    /// Position text of the start.
    pub start: String,
    pub start_hash: u64,
    pub black: String,
    pub white: String,
    /// The table's options and seats, as the server's JSON (opaque here).
    pub options: String,
    pub seats: String,
    pub created_ms: i64,
}

/// One move of a live game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveMove {
    /// 1 for the first move.
    pub ply: usize,
    /// Canonical move text.
    pub text: String,
    /// `black` or `white`: who played it.
    pub side: String,
    /// Thinking time.
    pub time_ms: u64,
    /// Both clocks after it (black, white), if the table has a clock.
    pub clocks: Option<[u64; 2]>,
    /// Hash of the position it leads to (written when storing; 0 when loading).
    pub hash_after: u64,
}

/// A change to a live game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveWrite {
    Begin(Box<LiveStart>),
    Move {
        table: String,
        mv: LiveMove,
    },
    /// Keeps the first `keep` moves; `removed` are the `(ply, hash after)` of the moves
    /// taken back, so their positions leave the hash index.
    TakeBack {
        table: String,
        keep: usize,
        removed: Vec<(usize, u64)>,
    },
    Seats {
        table: String,
        seats: String,
        black: String,
        white: String,
    },
    Finish {
        table: String,
        result: GameResult,
        at_ms: i64,
    },
}

/// A stored live game (finished or not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveGame {
    pub id: GameId,
    pub table: String,
    pub game: String,
    pub variant: String,
    pub start: String,
    pub black: String,
    pub white: String,
    pub options: String,
    pub seats: String,
    pub created_ms: i64,
    pub finished_ms: Option<i64>,
    /// `black`, `white` or `draw` once finished.
    pub result: Option<String>,
    pub reason: String,
    pub moves: Vec<LiveMove>,
}

/// A finished live game, for a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveSummary {
    pub table: String,
    pub game: String,
    pub variant: String,
    pub seats: String,
    pub result: Option<String>,
    pub reason: String,
    pub plies: usize,
    pub finished_ms: Option<i64>,
}

impl Store {
    /// Creates the live tables if they are missing.
    pub fn ensure_live_schema(&self) -> Result<()> {
        self.conn.execute_batch(LIVE_SCHEMA)?;
        Ok(())
    }

    /// Commits `writes` in one transaction; one result per write (a failed write changes
    /// nothing). The outer error is a failed commit, which loses the whole batch.
    pub fn apply_live(&mut self, writes: &[LiveWrite]) -> Result<Vec<Result<()>>> {
        let mut tx = self.conn.transaction()?;
        let mut results = Vec::with_capacity(writes.len());
        for w in writes {
            let sp = tx.savepoint()?;
            let r = apply(&sp, w);
            if r.is_ok() {
                sp.commit()?;
            }
            results.push(r);
        }
        tx.commit()?;
        Ok(results)
    }

    /// The live game of table `table`, with its moves.
    pub fn live_game(&self, table: &str) -> Result<Option<LiveGame>> {
        let head = self
            .conn
            .query_row(
                &format!("{LIVE_HEAD} WHERE l.table_id = ?1"),
                [table],
                live_head,
            )
            .optional()?;
        head.map(|g| with_moves(&self.conn, g)).transpose()
    }

    /// Every unfinished live game, oldest first.
    pub fn live_unfinished(&self) -> Result<Vec<LiveGame>> {
        let mut stmt = self.conn.prepare(&format!(
            "{LIVE_HEAD} WHERE l.finished_ms IS NULL AND g.result IS NULL ORDER BY l.created_ms"
        ))?;
        let heads = stmt
            .query_map([], live_head)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        heads
            .into_iter()
            .map(|g| with_moves(&self.conn, g))
            .collect()
    }

    /// The most recently finished live games, newest first.
    pub fn live_finished(&self, limit: usize) -> Result<Vec<LiveSummary>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT l.table_id, g.game, g.variant, l.seats, g.result, g.reason, g.plies,
                    l.finished_ms
             FROM live_games l JOIN games g ON g.id = l.game_id
             WHERE l.finished_ms IS NOT NULL ORDER BY l.finished_ms DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |r| {
            Ok(LiveSummary {
                table: r.get(0)?,
                game: r.get(1)?,
                variant: r.get(2)?,
                seats: r.get(3)?,
                result: r.get(4)?,
                reason: r.get(5)?,
                plies: r.get::<_, i64>(6)? as usize,
                finished_ms: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The stored game id of table `table`.
    pub fn live_id(&self, table: &str) -> Result<Option<GameId>> {
        Ok(game_id(&self.conn, table).optional()?)
    }
}

const LIVE_HEAD: &str = "SELECT g.id, l.table_id, g.game, g.variant, g.start, g.black, g.white,
        l.options, l.seats, l.created_ms, l.finished_ms, g.result, g.reason
 FROM live_games l JOIN games g ON g.id = l.game_id";

fn live_head(r: &rusqlite::Row<'_>) -> rusqlite::Result<LiveGame> {
    Ok(LiveGame {
        id: r.get(0)?,
        table: r.get(1)?,
        game: r.get(2)?,
        variant: r.get(3)?,
        start: r.get::<_, Option<String>>(4)?.unwrap_or_default(),
        black: r.get(5)?,
        white: r.get(6)?,
        options: r.get(7)?,
        seats: r.get(8)?,
        created_ms: r.get(9)?,
        finished_ms: r.get(10)?,
        result: r.get(11)?,
        reason: r.get(12)?,
        moves: Vec::new(),
    })
}

fn with_moves(c: &Connection, mut g: LiveGame) -> Result<LiveGame> {
    let mut stmt = c.prepare_cached(
        "SELECT m.ply, m.move, m.time_ms, l.side, l.clock_black_ms, l.clock_white_ms
         FROM moves m LEFT JOIN live_moves l ON l.game_id = m.game_id AND l.ply = m.ply
         WHERE m.game_id = ?1 ORDER BY m.ply",
    )?;
    g.moves = stmt
        .query_map([g.id], |r| {
            let b: Option<i64> = r.get(4)?;
            let w: Option<i64> = r.get(5)?;
            Ok(LiveMove {
                ply: r.get::<_, i64>(0)? as usize,
                text: r.get(1)?,
                time_ms: r.get::<_, Option<i64>>(2)?.unwrap_or(0) as u64,
                side: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
                clocks: b.zip(w).map(|(b, w)| [b as u64, w as u64]),
                hash_after: 0,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    if let Some((i, m)) = g.moves.iter().enumerate().find(|(i, m)| m.ply != i + 1) {
        return Err(StoreError::Invalid(format!(
            "stored game {} is damaged: move {} is missing (found ply {})",
            g.table,
            i + 1,
            m.ply
        )));
    }
    Ok(g)
}

fn game_id(c: &Connection, table: &str) -> rusqlite::Result<GameId> {
    c.prepare_cached("SELECT game_id FROM live_games WHERE table_id = ?1")?
        .query_row([table], |r| r.get(0))
}

fn known(c: &Connection, table: &str) -> Result<GameId> {
    game_id(c, table)
        .optional()?
        .ok_or_else(|| StoreError::Invalid(format!("no live game {table:?}")))
}

fn apply(c: &Connection, w: &LiveWrite) -> Result<()> {
    match w {
        LiveWrite::Begin(s) => begin(c, s),
        LiveWrite::Move { table, mv } => append(c, known(c, table)?, mv),
        LiveWrite::TakeBack {
            table,
            keep,
            removed,
        } => take_back(c, known(c, table)?, *keep, removed),
        LiveWrite::Seats {
            table,
            seats,
            black,
            white,
        } => {
            let id = known(c, table)?;
            c.execute(
                "UPDATE live_games SET seats = ?2 WHERE game_id = ?1",
                params![id, seats],
            )?;
            c.execute(
                "UPDATE games SET black = ?2, white = ?3 WHERE id = ?1",
                params![id, black, white],
            )?;
            Ok(())
        }
        LiveWrite::Finish {
            table,
            result,
            at_ms,
        } => {
            let id = known(c, table)?;
            let n = c.execute(
                "UPDATE games SET result = ?2, reason = ?3 WHERE id = ?1 AND result IS NULL",
                params![id, result.word(), result.reason],
            )?;
            if n == 0 {
                return Err(StoreError::Invalid(format!("game {table} is already over")));
            }
            c.execute(
                "UPDATE live_games SET finished_ms = ?2 WHERE game_id = ?1",
                params![id, at_ms],
            )?;
            Ok(())
        }
    }
}

fn begin(c: &Connection, s: &LiveStart) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO games (game, variant, start, black, white, date, event, source)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'boyi serve', 'serve')",
    )?
    .execute(params![
        s.game.name(),
        s.variant,
        s.start,
        s.black,
        s.white,
        date_of(s.created_ms),
    ])?;
    let id = c.last_insert_rowid();
    c.prepare_cached(
        "INSERT INTO live_games (game_id, table_id, options, seats, created_ms)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, s.table, s.options, s.seats, s.created_ms])?;
    c.prepare_cached("INSERT INTO positions (hash, game_id, ply) VALUES (?1, ?2, 0)")?
        .execute(params![key(s.start_hash), id])?;
    Ok(())
}

fn append(c: &Connection, id: GameId, mv: &LiveMove) -> Result<()> {
    let ply = mv.ply as i64;
    // The move must be the next one of an unfinished game.
    let n = c
        .prepare_cached(
            "UPDATE games SET plies = ?2 WHERE id = ?1 AND plies = ?2 - 1 AND result IS NULL",
        )?
        .execute(params![id, ply])?;
    if n == 0 {
        return Err(StoreError::Invalid(format!(
            "move {ply} of game {id} is out of order, or the game is over"
        )));
    }
    c.prepare_cached("INSERT INTO moves (game_id, ply, move, time_ms) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![id, ply, mv.text, mv.time_ms as i64])?;
    c.prepare_cached(
        "INSERT INTO live_moves (game_id, ply, side, clock_black_ms, clock_white_ms)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        id,
        ply,
        mv.side,
        mv.clocks.map(|c| c[0] as i64),
        mv.clocks.map(|c| c[1] as i64)
    ])?;
    c.prepare_cached("INSERT OR IGNORE INTO positions (hash, game_id, ply) VALUES (?1, ?2, ?3)")?
        .execute(params![key(mv.hash_after), id, ply])?;
    Ok(())
}

fn take_back(c: &Connection, id: GameId, keep: usize, removed: &[(usize, u64)]) -> Result<()> {
    let keep = keep as i64;
    let n = c.execute(
        "UPDATE games SET plies = ?2 WHERE id = ?1 AND plies >= ?2 AND result IS NULL",
        params![id, keep],
    )?;
    if n == 0 {
        return Err(StoreError::Invalid(format!(
            "game {id} cannot go back to move {keep}"
        )));
    }
    c.execute(
        "DELETE FROM moves WHERE game_id = ?1 AND ply > ?2",
        params![id, keep],
    )?;
    c.execute(
        "DELETE FROM live_moves WHERE game_id = ?1 AND ply > ?2",
        params![id, keep],
    )?;
    // The hash index is keyed by hash first: delete by the known keys, never by scanning.
    let mut del = c.prepare_cached(
        "DELETE FROM positions WHERE hash = ?1 AND game_id = ?2 AND ply = ?3 AND ply > ?4",
    )?;
    for (ply, hash) in removed {
        del.execute(params![key(*hash), id, *ply as i64, keep])?;
    }
    Ok(())
}

/// The UTC date (`YYYY-MM-DD`) of a time in milliseconds since the Unix epoch.
pub fn date_of(unix_ms: i64) -> String {
    // Days to civil date (the proleptic Gregorian calendar), after Howard Hinnant's method.
    let z = unix_ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::date_of;

    #[test]
    fn dates_from_unix_time() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(951_782_400_000), "2000-02-29");
        assert_eq!(date_of(1_709_251_199_000), "2024-02-29");
        assert_eq!(date_of(1_709_251_200_000), "2024-03-01");
        assert_eq!(date_of(-86_400_000), "1969-12-31");
    }
}
