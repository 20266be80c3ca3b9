//! The SQL of stored games: a [`GameRecord`] to rows of `games`, `game_tags`, `moves` and
//! `positions` and back, and the searches. The one place that knows the columns.

use crate::{GameId, GameSummary, PositionHit, Query, Result, ResultFilter, StoreError};
use boyi_core::{Reason, Score, Side};
use boyi_games::GameKind;
use boyi_records::date::DateQuery;
use boyi_records::{Checked, Date, GameRecord, GameResult, Player, RecordedMove};
use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

/// Hashes are stored as SQLite's signed 64-bit integers, bit for bit.
pub(crate) fn key(hash: u64) -> i64 {
    hash as i64
}

pub(crate) fn insert_position(c: &Connection, id: GameId, ply: usize, hash: u64) -> Result<()> {
    c.prepare_cached("INSERT OR IGNORE INTO positions (hash, game_id, ply) VALUES (?1, ?2, ?3)")?
        .execute(params![key(hash), id, ply as i64])?;
    Ok(())
}

/// The `games` and `game_tags` rows of a record's header (not its moves or result).
pub(crate) fn insert_header(c: &Connection, rec: &GameRecord, source: &str) -> Result<GameId> {
    c.prepare_cached(
        "INSERT INTO games (game, variant, size, start, black, white, black_spec, white_spec,
                            date, event, round, site, source)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(params![
        rec.game.name(),
        rec.variant.as_deref().unwrap_or(""),
        rec.size.map(|n| n as i64),
        rec.start,
        rec.name(Side::Black),
        rec.name(Side::White),
        rec.player(Side::Black).spec,
        rec.player(Side::White).spec,
        rec.date.map(|d| d.to_string()).unwrap_or_default(),
        rec.event,
        rec.round,
        rec.site,
        source,
    ])?;
    let id = c.last_insert_rowid();
    let mut tags =
        c.prepare_cached("INSERT INTO game_tags (game_id, key, value) VALUES (?1, ?2, ?3)")?;
    for (k, v) in &rec.tags {
        tags.execute(params![id, k, v])?;
    }
    Ok(id)
}

fn insert_move(c: &Connection, id: GameId, ply: usize, mv: &RecordedMove) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO moves (game_id, ply, move, time_ms, clock_ms, comment, eval, depth)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        id,
        ply as i64,
        mv.text,
        mv.time_ms.map(|t| t as i64),
        mv.clock_ms.map(|t| t as i64),
        mv.comment,
        mv.eval.map(|e| e.to_string()),
        mv.depth,
    ])?;
    Ok(())
}

/// Adds the next move of an unfinished game (`ply`, when given, must be that next ply);
/// returns its ply.
pub(crate) fn append_move(
    c: &Connection,
    id: GameId,
    ply: Option<usize>,
    mv: &RecordedMove,
    hash_after: u64,
) -> Result<usize> {
    let (plies, finished): (i64, bool) = c
        .prepare_cached("SELECT plies, result IS NOT NULL FROM games WHERE id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?
        .ok_or_else(|| StoreError::Invalid(format!("no game {id}")))?;
    let next = plies as usize + 1;
    if finished {
        return Err(StoreError::Invalid(format!(
            "game {id} is already finished"
        )));
    }
    if let Some(p) = ply
        && p != next
    {
        return Err(StoreError::Invalid(format!(
            "move {p} of game {id} is out of order (the next is {next})"
        )));
    }
    insert_move(c, id, next, mv)?;
    insert_position(c, id, next, hash_after)?;
    c.prepare_cached("UPDATE games SET plies = ?2 WHERE id = ?1")?
        .execute(params![id, next as i64])?;
    Ok(next)
}

/// Keeps the first `keep` moves of an unfinished game; `removed` are the `(ply, hash
/// after)` of the moves taken back, so their positions leave the hash index.
pub(crate) fn take_back(
    c: &Connection,
    id: GameId,
    keep: usize,
    removed: &[(usize, u64)],
) -> Result<()> {
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
    // The hash index is keyed by hash first: delete by the known keys, never by scanning.
    let mut del = c.prepare_cached(
        "DELETE FROM positions WHERE hash = ?1 AND game_id = ?2 AND ply = ?3 AND ply > ?4",
    )?;
    for (ply, hash) in removed {
        del.execute(params![key(*hash), id, *ply as i64, keep])?;
    }
    Ok(())
}

/// Records the result of an unfinished game (and its fingerprint, now that it is whole).
pub(crate) fn finish(c: &Connection, id: GameId, result: &GameResult) -> Result<()> {
    let n = c.execute(
        "UPDATE games SET result = ?2, reason = ?3, reason_detail = ?4
         WHERE id = ?1 AND result IS NULL",
        params![
            id,
            result.winner_word(),
            result.reason().code(),
            result.detail
        ],
    )?;
    if n == 0 {
        return Err(match exists(c, id)? {
            true => StoreError::Invalid(format!("game {id} is already over")),
            false => StoreError::Invalid(format!("no game {id}")),
        });
    }
    let fingerprint = load(c, id)?.fingerprint();
    c.execute(
        "UPDATE games SET fingerprint = ?2 WHERE id = ?1",
        params![id, fingerprint as i64],
    )?;
    Ok(())
}

fn exists(c: &Connection, id: GameId) -> Result<bool> {
    Ok(
        c.query_row("SELECT 1 FROM games WHERE id = ?1", [id], |_| Ok(()))
            .optional()?
            .is_some(),
    )
}

pub(crate) fn has_fingerprint(c: &Connection, fingerprint: u64) -> Result<bool> {
    Ok(
        c.prepare_cached("SELECT 1 FROM games WHERE fingerprint = ?1 LIMIT 1")?
            .query_row([fingerprint as i64], |_| Ok(()))
            .optional()?
            .is_some(),
    )
}

/// Stores a whole checked game.
pub(crate) fn insert_game(tx: &Transaction<'_>, game: &Checked, source: &str) -> Result<GameId> {
    let rec = &game.record;
    if game.hashes.len() != rec.moves.len() + 1 {
        return Err(StoreError::Invalid(format!(
            "{} moves need {} position hashes, got {}",
            rec.moves.len(),
            rec.moves.len() + 1,
            game.hashes.len()
        )));
    }
    let id = insert_header(tx, rec, source)?;
    for (i, mv) in rec.moves.iter().enumerate() {
        insert_move(tx, id, i + 1, mv)?;
    }
    for (ply, h) in game.hashes.iter().enumerate() {
        insert_position(tx, id, ply, *h)?;
    }
    let fingerprint = rec.result.is_some().then(|| rec.fingerprint() as i64);
    tx.execute(
        "UPDATE games SET plies = ?2, fingerprint = ?3 WHERE id = ?1",
        params![id, rec.moves.len() as i64, fingerprint],
    )?;
    if let Some(r) = &rec.result {
        tx.execute(
            "UPDATE games SET result = ?2, reason = ?3, reason_detail = ?4 WHERE id = ?1",
            params![id, r.winner_word(), r.reason().code(), r.detail],
        )?;
    }
    Ok(id)
}

fn invalid(id: GameId, what: impl std::fmt::Display) -> StoreError {
    StoreError::Invalid(format!("stored game {id} is damaged: {what}"))
}

/// The result of a row's `result`, `reason` and `reason_detail`.
fn result_of(
    id: GameId,
    word: Option<String>,
    code: &str,
    detail: String,
) -> Result<Option<GameResult>> {
    let Some(word) = word else {
        return Ok(None);
    };
    let winner = boyi_records::parse_winner(&word).map_err(|e| invalid(id, e))?;
    let reason = match code {
        "" => Reason::Unknown,
        c => Reason::parse(c).ok_or_else(|| invalid(id, format!("reason {c:?}")))?,
    };
    Ok(Some(GameResult::new(winner, reason).with_detail(detail)))
}

fn date_of(id: GameId, text: &str) -> Result<Option<Date>> {
    if text.is_empty() {
        return Ok(None);
    }
    Date::parse(text).map(Some).map_err(|e| invalid(id, e))
}

/// The record of a stored game (finished or not).
pub(crate) fn load(c: &Connection, id: GameId) -> Result<GameRecord> {
    let mut rec = c
        .prepare_cached(
            "SELECT game, variant, size, start, black, white, black_spec, white_spec, result,
                    reason, reason_detail, date, event, round, site
             FROM games WHERE id = ?1",
        )?
        .query_row([id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<i64>>(2)?,
                r.get::<_, Option<String>>(3)?,
                [
                    Player {
                        name: r.get(4)?,
                        spec: r.get(6)?,
                    },
                    Player {
                        name: r.get(5)?,
                        spec: r.get(7)?,
                    },
                ],
                (
                    r.get::<_, Option<String>>(8)?,
                    r.get::<_, String>(9)?,
                    r.get::<_, String>(10)?,
                ),
                (
                    r.get::<_, String>(11)?,
                    r.get::<_, String>(12)?,
                    r.get::<_, String>(13)?,
                    r.get::<_, String>(14)?,
                ),
            ))
        })
        .optional()?
        .ok_or_else(|| StoreError::Invalid(format!("no game {id}")))
        .and_then(|(game, variant, size, start, players, result, place)| {
            let kind: GameKind = game.parse().map_err(|e| invalid(id, e))?;
            let mut rec = GameRecord::new(kind);
            rec.variant = (!variant.is_empty()).then_some(variant);
            rec.size = size.map(|n| n as usize);
            rec.start = start;
            rec.players = players;
            rec.result = result_of(id, result.0, &result.1, result.2)?;
            rec.date = date_of(id, &place.0)?;
            (rec.event, rec.round, rec.site) = (place.1, place.2, place.3);
            Ok(rec)
        })?;
    rec.moves = c
        .prepare_cached(
            "SELECT move, time_ms, clock_ms, comment, eval, depth FROM moves
             WHERE game_id = ?1 ORDER BY ply",
        )?
        .query_map([id], |r| {
            Ok((
                RecordedMove {
                    text: r.get(0)?,
                    time_ms: r.get::<_, Option<i64>>(1)?.map(|t| t as u64),
                    clock_ms: r.get::<_, Option<i64>>(2)?.map(|t| t as u64),
                    comment: r.get(3)?,
                    eval: None,
                    depth: r.get(5)?,
                },
                r.get::<_, Option<String>>(4)?,
            ))
        })?
        .map(|row| {
            let (mut mv, eval) = row?;
            mv.eval = eval
                .map(|e| e.parse::<Score>().map_err(|e| invalid(id, e)))
                .transpose()?;
            Ok(mv)
        })
        .collect::<Result<_>>()?;
    rec.tags = c
        .prepare_cached("SELECT key, value FROM game_tags WHERE game_id = ?1")?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rec)
}

const SUMMARY_COLUMNS: &str = "g.id, g.game, g.variant, g.black, g.white, g.result, g.reason, \
     g.reason_detail, g.date, g.event, g.plies, g.source";

/// The raw columns of a summary; checked in [`summary`].
type SummaryRow = (
    GameId,
    String,
    String,
    [String; 2],
    (Option<String>, String, String),
    String,
    String,
    i64,
    String,
);

fn summary_row(r: &Row<'_>) -> rusqlite::Result<SummaryRow> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        [r.get(3)?, r.get(4)?],
        (r.get(5)?, r.get(6)?, r.get(7)?),
        r.get(8)?,
        r.get(9)?,
        r.get(10)?,
        r.get(11)?,
    ))
}

fn summary(row: SummaryRow) -> Result<GameSummary> {
    let (id, game, variant, players, result, date, event, plies, source) = row;
    Ok(GameSummary {
        id,
        game: game.parse().map_err(|e| invalid(id, e))?,
        variant,
        players,
        result: result_of(id, result.0, &result.1, result.2)?,
        date,
        event,
        plies: plies as usize,
        source,
    })
}

/// Games matching `q`, newest id first.
pub(crate) fn search(c: &Connection, q: &Query) -> Result<Vec<GameSummary>> {
    let mut sql = format!("SELECT {SUMMARY_COLUMNS} FROM games g WHERE 1 = 1");
    let mut args: Vec<String> = Vec::new();
    filters(q, &mut sql, &mut args);
    sql.push_str(" ORDER BY g.id DESC");
    if let Some(n) = q.limit {
        sql.push_str(&format!(" LIMIT {n}"));
    }
    let mut stmt = c.prepare(&sql)?;
    let rows = stmt
        .query_map(rusqlite::params_from_iter(args.iter()), summary_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter().map(summary).collect()
}

/// Stored games (matching `q`) that reached the position with `hash`, with the move each
/// played next.
pub(crate) fn search_position(c: &Connection, hash: u64, q: &Query) -> Result<Vec<PositionHit>> {
    let mut sql = format!(
        "SELECT {SUMMARY_COLUMNS}, p.ply, m.move FROM positions p
         JOIN games g ON g.id = p.game_id
         LEFT JOIN moves m ON m.game_id = p.game_id AND m.ply = p.ply + 1
         WHERE p.hash = ?1"
    );
    let mut args: Vec<String> = Vec::new();
    filters(q, &mut sql, &mut args);
    sql.push_str(" ORDER BY g.id DESC, p.ply");
    if let Some(n) = q.limit {
        sql.push_str(&format!(" LIMIT {n}"));
    }
    let mut stmt = c.prepare(&sql)?;
    let mut values: Vec<rusqlite::types::Value> = vec![key(hash).into()];
    values.extend(args.into_iter().map(Into::into));
    let rows = stmt
        .query_map(rusqlite::params_from_iter(values), |r| {
            Ok((
                summary_row(r)?,
                r.get::<_, i64>(12)?,
                r.get::<_, Option<String>>(13)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter()
        .map(|(s, ply, next)| {
            Ok(PositionHit {
                game: summary(s)?,
                ply: ply as usize,
                next,
            })
        })
        .collect()
}

pub(crate) fn count(c: &Connection) -> Result<usize> {
    Ok(c.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))? as usize)
}

/// Adds the WHERE clauses of `q`; parameters are numbered after any already in `sql`.
fn filters(q: &Query, sql: &mut String, args: &mut Vec<String>) {
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
    match q.result {
        None => {}
        Some(ResultFilter::Unfinished) => sql.push_str(" AND g.result IS NULL"),
        Some(ResultFilter::Finished(w)) => arg(
            sql,
            " AND g.result = #",
            boyi_records::winner_word(w).to_string(),
        ),
    }
    match &q.date {
        None => {}
        Some(DateQuery::Prefix(p)) => arg(sql, " AND substr(g.date, 1, length(#)) = #", p.clone()),
        Some(DateQuery::Range(from, to)) => {
            if let Some(from) = from {
                arg(sql, " AND g.date >= #", from.clone());
            }
            if let Some(to) = to {
                // Up to the end of the prefix `to`: every date that begins with it.
                arg(sql, " AND g.date <= #", format!("{to}\u{10ffff}"));
            }
        }
    }
}
