//! The schema's versions. `MIGRATIONS[i]` takes a database from version `i` to `i + 1`
//! (`PRAGMA user_version`): its SQL, then its data changes in Rust where SQL cannot make
//! them (old reasons in words become typed reasons, dates become Boyi's canonical form).
//! Changing the schema means appending a migration, never editing an old one.

use boyi_core::Side;
use boyi_records::{Date, GameResult};
use rusqlite::{Transaction, params};

/// One step of the schema.
pub struct Migration {
    pub sql: &'static str,
    pub data: Option<fn(&Transaction<'_>) -> rusqlite::Result<()>>,
}

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        sql: V1,
        data: None,
    },
    Migration {
        sql: V2,
        data: Some(typed_reasons_and_dates),
    },
];

const V1: &str = r#"
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
"#;

/// Version 2: the record model's fields (round, the players' specs, the reason typed with
/// its detail, each move's clock and evaluation), the server's live tables under version
/// control (before, the server created them itself), the clocks moved from `live_moves`
/// to `moves.clock_ms` (the mover's clock), and `fingerprint`, which finds a game stored
/// twice.
const V2: &str = r#"
ALTER TABLE games ADD COLUMN round TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN black_spec TEXT;
ALTER TABLE games ADD COLUMN white_spec TEXT;
ALTER TABLE games ADD COLUMN reason_detail TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN fingerprint INTEGER;
CREATE INDEX games_fingerprint ON games (fingerprint);
ALTER TABLE moves ADD COLUMN clock_ms INTEGER;
ALTER TABLE moves ADD COLUMN eval TEXT;
ALTER TABLE moves ADD COLUMN depth INTEGER;
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
UPDATE moves SET clock_ms = (
    SELECT CASE l.side WHEN 'black' THEN l.clock_black_ms ELSE l.clock_white_ms END
    FROM live_moves l WHERE l.game_id = moves.game_id AND l.ply = moves.ply);
DROP TABLE live_moves;
"#;

/// Reasons in words become a reason's code and its detail; dates become `2024-05-01`
/// (partial `2024-05`), a date that does not read moves to the tag `DateText`.
fn typed_reasons_and_dates(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    let rows: Vec<(i64, Option<String>, String)> = tx
        .prepare("SELECT id, result, reason FROM games")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut set = tx.prepare("UPDATE games SET reason = ?2, reason_detail = ?3 WHERE id = ?1")?;
    for (id, result, words) in rows {
        let winner = match result.as_deref() {
            Some("black") => Some(Side::Black),
            Some("white") => Some(Side::White),
            _ => None,
        };
        let r = GameResult::from_old_words(winner, &words);
        set.execute(params![id, r.reason().code(), r.detail])?;
    }
    let dates: Vec<(i64, String)> = tx
        .prepare("SELECT id, date FROM games WHERE date != ''")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, text) in dates {
        match Date::parse(&text) {
            Ok(d) => {
                tx.execute(
                    "UPDATE games SET date = ?2 WHERE id = ?1",
                    params![id, d.to_string()],
                )?;
            }
            Err(_) => {
                tx.execute(
                    "INSERT OR IGNORE INTO game_tags (game_id, key, value) VALUES (?1, 'DateText', ?2)",
                    params![id, text],
                )?;
                tx.execute("UPDATE games SET date = '' WHERE id = ?1", [id])?;
            }
        }
    }
    Ok(())
}
