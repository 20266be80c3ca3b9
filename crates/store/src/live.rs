//! Live games of `boyi serve`: what a table needs beyond the game record to be played on and
//! resumed after a restart — its id in links, its options and seats (with their secret
//! tokens) as the server's JSON, when it began and ended — kept in the table `live_games`
//! beside `games`, `moves` and `positions`. The game itself (players, every move with its
//! thinking time and the mover's clock, every position's hash, the result) is an ordinary
//! stored game with source `serve`, read and written as a [`GameRecord`], so `boyi record
//! search` finds served games like any other.
//!
//! Writes come as batches of [`LiveWrite`]s committed in one transaction, each in its own
//! savepoint: many tables moving at once cost one commit, and one refused write (a move out
//! of order, a move after the end) fails alone and changes nothing.

use crate::cluster;
use crate::rows::{self, insert_header, insert_position};
use crate::sql::{Conn, Row, args};
use crate::{GameId, Result, Store, StoreError};
use boyi_games::GameKind;
use boyi_records::{GameRecord, GameResult, Player, RecordedMove};

/// A new live game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveStart {
    /// The table's id (letters and digits), unique among live games.
    pub table: String,
    /// The game's header: game, variant, start position text, players, date, event (its
    /// moves and result are ignored).
    pub header: GameRecord,
    pub start_hash: u64,
    /// The table's options and seats, as the server's JSON (opaque here).
    pub options: String,
    pub seats: String,
    pub created_ms: i64,
}

/// A change to a live game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveWrite {
    Begin(Box<LiveStart>),
    /// The next move (`ply` from 1, which must be the next one) and the hash of the
    /// position it leads to.
    Move {
        table: String,
        ply: usize,
        mv: RecordedMove,
        hash_after: u64,
    },
    /// Keeps the first `keep` moves; `removed` are the `(ply, hash after)` of the moves
    /// taken back, so their positions leave the hash index.
    TakeBack {
        table: String,
        keep: usize,
        removed: Vec<(usize, u64)>,
    },
    /// New seats (the server's JSON) and the players they name.
    Seats {
        table: String,
        seats: String,
        players: [Player; 2],
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
    /// The game: header, moves (with times and clocks) and result.
    pub record: GameRecord,
    pub options: String,
    pub seats: String,
    pub created_ms: i64,
    pub finished_ms: Option<i64>,
}

/// A finished live game, for a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveSummary {
    pub table: String,
    pub game: GameKind,
    pub variant: String,
    pub seats: String,
    pub result: Option<GameResult>,
    pub plies: usize,
    pub finished_ms: Option<i64>,
}

impl Store {
    /// Commits `writes` in one transaction; one result per write (a failed write changes
    /// nothing). The outer error is a failed commit, which loses the whole batch.
    pub fn apply_live(&mut self, writes: &[LiveWrite]) -> Result<Vec<Result<()>>> {
        self.apply_live_as(writes, None)
    }

    /// As [`Store::apply_live`], for the instance `owner` of a cluster (PostgreSQL): a new
    /// game is leased to it, a write of a game it does not hold is refused, and the lease of a game that ends
    /// is given up by the owner's next heartbeat (crate::cluster).
    pub fn apply_live_as(
        &mut self,
        writes: &[LiveWrite],
        owner: Option<&str>,
    ) -> Result<Vec<Result<()>>> {
        self.conn.transaction(|c| {
            if owner.is_some() {
                let mut tables: Vec<&str> = writes.iter().filter_map(fenced_table).collect();
                tables.sort_unstable();
                tables.dedup();
                cluster::lock_leases(c, &tables)?;
            }
            let mut results = Vec::with_capacity(writes.len());
            for w in writes {
                results.push(c.savepoint(|c| fenced(c, w, owner)));
            }
            Ok(results)
        })
    }

    /// The live game of table `table`, with its moves.
    pub fn live_game(&self, table: &str) -> Result<Option<LiveGame>> {
        let head = self
            .conn
            .row(&format!("{LIVE_HEAD} WHERE l.table_id = ?1"), args![table])?;
        head.map(|h| with_record(&self.conn, live_head(&h)?))
            .transpose()
    }

    /// Every unfinished live game, oldest first.
    pub fn live_unfinished(&self) -> Result<Vec<LiveGame>> {
        self.conn
            .rows(
                &format!(
                    "{LIVE_HEAD} JOIN games g ON g.id = l.game_id
                     WHERE l.finished_ms IS NULL AND g.result IS NULL ORDER BY l.created_ms"
                ),
                &[],
            )?
            .iter()
            .map(|h| with_record(&self.conn, live_head(h)?))
            .collect()
    }

    /// The most recently finished live games, newest first.
    pub fn live_finished(&self, limit: usize) -> Result<Vec<LiveSummary>> {
        let rows = self.conn.rows(
            "SELECT l.game_id, l.table_id, l.seats, l.finished_ms
             FROM live_games l WHERE l.finished_ms IS NOT NULL
             ORDER BY l.finished_ms DESC LIMIT ?1",
            args![limit],
        )?;
        rows.iter()
            .map(|r| {
                let rec = rows::load(&self.conn, r.int(0)?)?;
                Ok(LiveSummary {
                    table: r.text(1)?,
                    game: rec.game,
                    variant: rec.variant.unwrap_or_default(),
                    seats: r.text(2)?,
                    result: rec.result,
                    plies: rec.moves.len(),
                    finished_ms: r.opt_int(3)?,
                })
            })
            .collect()
    }

    /// The stored game id of table `table`.
    pub fn live_id(&self, table: &str) -> Result<Option<GameId>> {
        game_id(&self.conn, table)
    }
}

const LIVE_HEAD: &str = "SELECT l.game_id, l.table_id, l.options, l.seats, l.created_ms,
        l.finished_ms FROM live_games l";

/// A live game's own columns; the record follows in [`with_record`].
fn live_head(r: &Row) -> Result<LiveGame> {
    Ok(LiveGame {
        id: r.int(0)?,
        table: r.text(1)?,
        record: GameRecord::new(GameKind::Gomoku),
        options: r.text(2)?,
        seats: r.text(3)?,
        created_ms: r.int(4)?,
        finished_ms: r.opt_int(5)?,
    })
}

fn with_record(c: &Conn, mut g: LiveGame) -> Result<LiveGame> {
    g.record = rows::load(c, g.id)?;
    Ok(g)
}

fn game_id(c: &Conn, table: &str) -> Result<Option<GameId>> {
    c.int(
        "SELECT game_id FROM live_games WHERE table_id = ?1",
        args![table],
    )
}

fn known(c: &Conn, table: &str) -> Result<GameId> {
    game_id(c, table)?.ok_or_else(|| StoreError::Invalid(format!("no live game {table:?}")))
}

/// The game whose lease a write needs (a new game has none yet).
fn fenced_table(w: &LiveWrite) -> Option<&str> {
    match w {
        LiveWrite::Begin(_) => None,
        LiveWrite::Move { table, .. }
        | LiveWrite::TakeBack { table, .. }
        | LiveWrite::Seats { table, .. }
        | LiveWrite::Finish { table, .. } => Some(table),
    }
}

fn fenced(c: &Conn, w: &LiveWrite, owner: Option<&str>) -> Result<()> {
    let Some(me) = owner else {
        return apply(c, w);
    };
    match w {
        LiveWrite::Begin(s) => {
            apply(c, w)?;
            cluster::lease_new(c, &s.table, me)
        }
        LiveWrite::Move { table, .. }
        | LiveWrite::Finish { table, .. }
        | LiveWrite::TakeBack { table, .. }
        | LiveWrite::Seats { table, .. } => {
            cluster::fence(c, table, me)?;
            apply(c, w)
        }
    }
}

fn apply(c: &Conn, w: &LiveWrite) -> Result<()> {
    match w {
        LiveWrite::Begin(s) => begin(c, s),
        LiveWrite::Move {
            table,
            ply,
            mv,
            hash_after,
        } => rows::append_move(c, known(c, table)?, Some(*ply), mv, *hash_after).map(|_| ()),
        LiveWrite::TakeBack {
            table,
            keep,
            removed,
        } => rows::take_back(c, known(c, table)?, *keep, removed),
        LiveWrite::Seats {
            table,
            seats,
            players,
        } => {
            let id = known(c, table)?;
            c.exec(
                "UPDATE live_games SET seats = ?2 WHERE game_id = ?1",
                args![id, seats],
            )?;
            let [black, white] = players;
            c.exec(
                "UPDATE games SET black = ?2, white = ?3, black_spec = ?4, white_spec = ?5
                 WHERE id = ?1",
                args![
                    id,
                    &black.name,
                    &white.name,
                    black.spec.as_ref(),
                    white.spec.as_ref()
                ],
            )?;
            Ok(())
        }
        LiveWrite::Finish {
            table,
            result,
            at_ms,
        } => {
            let id = known(c, table)?;
            rows::finish(c, id, result).map_err(|e| match e {
                StoreError::Invalid(_) => {
                    StoreError::Invalid(format!("game {table} is already over"))
                }
                e => e,
            })?;
            c.exec(
                "UPDATE live_games SET finished_ms = ?2 WHERE game_id = ?1",
                args![id, *at_ms],
            )?;
            Ok(())
        }
    }
}

fn begin(c: &Conn, s: &LiveStart) -> Result<()> {
    if s.header.start.is_none() {
        return Err(StoreError::Invalid(format!(
            "live game {}: the start position is needed",
            s.table
        )));
    }
    let id = insert_header(c, &s.header, "serve")?;
    c.exec(
        "INSERT INTO live_games (game_id, table_id, options, seats, created_ms)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        args![id, &s.table, &s.options, &s.seats, s.created_ms],
    )?;
    insert_position(c, id, 0, s.start_hash)?;
    Ok(())
}
