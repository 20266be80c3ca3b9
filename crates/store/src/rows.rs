//! The SQL of stored games: a [`GameRecord`] to rows of `games`, `game_tags`, `moves` and
//! `positions` and back, and the searches. The one place that knows the columns.

use crate::sql::{Conn, Row, Value, args};
use crate::{GameId, GameSummary, PositionHit, Query, Result, ResultFilter, StoreError};
use boyi_core::{Reason, Score, Side};
use boyi_games::GameKind;
use boyi_records::date::DateQuery;
use boyi_records::{Checked, Date, GameRecord, GameResult, Player, RecordedMove};

/// Hashes are stored as signed 64-bit integers, bit for bit.
pub(crate) fn key(hash: u64) -> i64 {
    hash as i64
}

pub(crate) fn insert_position(c: &Conn, id: GameId, ply: usize, hash: u64) -> Result<()> {
    c.exec(
        "INSERT INTO positions (hash, game_id, ply) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        args![key(hash), id, ply],
    )?;
    Ok(())
}

/// The `games` and `game_tags` rows of a record's header (not its moves or result).
pub(crate) fn insert_header(c: &Conn, rec: &GameRecord, source: &str) -> Result<GameId> {
    let id = c
        .int(
            "INSERT INTO games (game, variant, size, start, black, white, black_spec, white_spec,
                                date, event, round, site, source)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) RETURNING id",
            args![
                rec.game.name(),
                rec.variant.as_deref().unwrap_or(""),
                rec.size,
                rec.start.as_ref(),
                rec.name(Side::Black),
                rec.name(Side::White),
                rec.player(Side::Black).spec.as_ref(),
                rec.player(Side::White).spec.as_ref(),
                rec.date.map(|d| d.to_string()).unwrap_or_default(),
                &rec.event,
                &rec.round,
                &rec.site,
                source,
            ],
        )?
        .ok_or_else(|| StoreError::Invalid("a new game got no id".into()))?;
    for (k, v) in &rec.tags {
        c.exec(
            "INSERT INTO game_tags (game_id, key, value) VALUES (?1, ?2, ?3)",
            args![id, k, v],
        )?;
    }
    Ok(id)
}

fn insert_move(c: &Conn, id: GameId, ply: usize, mv: &RecordedMove) -> Result<()> {
    c.exec(
        "INSERT INTO moves (game_id, ply, move, time_ms, clock_ms, comment, eval, depth)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        args![
            id,
            ply,
            &mv.text,
            mv.time_ms.map(|t| t as i64),
            mv.clock_ms.map(|t| t as i64),
            mv.comment.as_ref(),
            mv.eval.map(|e| e.to_string()),
            mv.depth,
        ],
    )?;
    Ok(())
}

/// Adds the next move of an unfinished game (`ply`, when given, must be that next ply);
/// returns its ply.
pub(crate) fn append_move(
    c: &Conn,
    id: GameId,
    ply: Option<usize>,
    mv: &RecordedMove,
    hash_after: u64,
) -> Result<usize> {
    let row = c
        .row(
            "SELECT plies, CASE WHEN result IS NULL THEN 0 ELSE 1 END FROM games WHERE id = ?1",
            args![id],
        )?
        .ok_or_else(|| StoreError::Invalid(format!("no game {id}")))?;
    let (plies, finished) = (row.int(0)?, row.int(1)? != 0);
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
    c.exec("UPDATE games SET plies = ?2 WHERE id = ?1", args![id, next])?;
    Ok(next)
}

/// Keeps the first `keep` moves of an unfinished game; `removed` are the `(ply, hash
/// after)` of the moves taken back, so their positions leave the hash index.
pub(crate) fn take_back(c: &Conn, id: GameId, keep: usize, removed: &[(usize, u64)]) -> Result<()> {
    let n = c.exec(
        "UPDATE games SET plies = ?2 WHERE id = ?1 AND plies >= ?2 AND result IS NULL",
        args![id, keep],
    )?;
    if n == 0 {
        return Err(StoreError::Invalid(format!(
            "game {id} cannot go back to move {keep}"
        )));
    }
    c.exec(
        "DELETE FROM moves WHERE game_id = ?1 AND ply > ?2",
        args![id, keep],
    )?;
    // The hash index is keyed by hash first: delete by the known keys, never by scanning.
    for (ply, hash) in removed {
        c.exec(
            "DELETE FROM positions WHERE hash = ?1 AND game_id = ?2 AND ply = ?3 AND ply > ?4",
            args![key(*hash), id, *ply, keep],
        )?;
    }
    Ok(())
}

/// Records the result of an unfinished game (and its fingerprint, now that it is whole).
pub(crate) fn finish(c: &Conn, id: GameId, result: &GameResult) -> Result<()> {
    let n = c.exec(
        "UPDATE games SET result = ?2, reason = ?3, reason_detail = ?4
         WHERE id = ?1 AND result IS NULL",
        args![
            id,
            result.winner_word(),
            result.reason().code(),
            &result.detail
        ],
    )?;
    if n == 0 {
        return Err(match exists(c, id)? {
            true => StoreError::Invalid(format!("game {id} is already over")),
            false => StoreError::Invalid(format!("no game {id}")),
        });
    }
    let fingerprint = load(c, id)?.fingerprint();
    c.exec(
        "UPDATE games SET fingerprint = ?2 WHERE id = ?1",
        args![id, fingerprint as i64],
    )?;
    Ok(())
}

fn exists(c: &Conn, id: GameId) -> Result<bool> {
    Ok(c.row("SELECT 1 FROM games WHERE id = ?1", args![id])?
        .is_some())
}

pub(crate) fn has_fingerprint(c: &Conn, fingerprint: u64) -> Result<bool> {
    Ok(c.row(
        "SELECT 1 FROM games WHERE fingerprint = ?1 LIMIT 1",
        args![fingerprint as i64],
    )?
    .is_some())
}

/// Stores a whole checked game.
pub(crate) fn insert_game(c: &Conn, game: &Checked, source: &str) -> Result<GameId> {
    let rec = &game.record;
    if game.hashes.len() != rec.moves.len() + 1 {
        return Err(StoreError::Invalid(format!(
            "{} moves need {} position hashes, got {}",
            rec.moves.len(),
            rec.moves.len() + 1,
            game.hashes.len()
        )));
    }
    let id = insert_header(c, rec, source)?;
    for (i, mv) in rec.moves.iter().enumerate() {
        insert_move(c, id, i + 1, mv)?;
    }
    for (ply, h) in game.hashes.iter().enumerate() {
        insert_position(c, id, ply, *h)?;
    }
    let fingerprint = rec.result.is_some().then(|| rec.fingerprint() as i64);
    c.exec(
        "UPDATE games SET plies = ?2, fingerprint = ?3 WHERE id = ?1",
        args![id, rec.moves.len(), fingerprint],
    )?;
    if let Some(r) = &rec.result {
        c.exec(
            "UPDATE games SET result = ?2, reason = ?3, reason_detail = ?4 WHERE id = ?1",
            args![id, r.winner_word(), r.reason().code(), &r.detail],
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
pub(crate) fn load(c: &Conn, id: GameId) -> Result<GameRecord> {
    let r = c
        .row(
            "SELECT game, variant, size, start, black, white, black_spec, white_spec, result,
                    reason, reason_detail, date, event, round, site
             FROM games WHERE id = ?1",
            args![id],
        )?
        .ok_or_else(|| StoreError::Invalid(format!("no game {id}")))?;
    let kind: GameKind = r.text(0)?.parse().map_err(|e| invalid(id, e))?;
    let mut rec = GameRecord::new(kind);
    let variant = r.text(1)?;
    rec.variant = (!variant.is_empty()).then_some(variant);
    rec.size = r.opt_int(2)?.map(|n| n as usize);
    rec.start = r.opt_text(3)?;
    rec.players = [
        Player {
            name: r.text(4)?,
            spec: r.opt_text(6)?,
        },
        Player {
            name: r.text(5)?,
            spec: r.opt_text(7)?,
        },
    ];
    rec.result = result_of(id, r.opt_text(8)?, &r.text(9)?, r.text(10)?)?;
    rec.date = date_of(id, &r.text(11)?)?;
    (rec.event, rec.round, rec.site) = (r.text(12)?, r.text(13)?, r.text(14)?);
    rec.moves = c
        .rows(
            "SELECT move, time_ms, clock_ms, comment, eval, depth FROM moves
             WHERE game_id = ?1 ORDER BY ply",
            args![id],
        )?
        .iter()
        .map(|r| {
            Ok(RecordedMove {
                text: r.text(0)?,
                time_ms: r.opt_int(1)?.map(|t| t as u64),
                clock_ms: r.opt_int(2)?.map(|t| t as u64),
                comment: r.opt_text(3)?,
                eval: r
                    .opt_text(4)?
                    .map(|e| e.parse::<Score>().map_err(|e| invalid(id, e)))
                    .transpose()?,
                depth: r
                    .opt_int(5)?
                    .map(|d| u32::try_from(d).map_err(|_| invalid(id, format!("depth {d}"))))
                    .transpose()?,
            })
        })
        .collect::<Result<_>>()?;
    rec.tags = c
        .rows(
            "SELECT key, value FROM game_tags WHERE game_id = ?1",
            args![id],
        )?
        .iter()
        .map(|r| Ok((r.text(0)?, r.text(1)?)))
        .collect::<Result<_>>()?;
    Ok(rec)
}

const SUMMARY_COLUMNS: &str = "g.id, g.game, g.variant, g.black, g.white, g.result, g.reason, \
     g.reason_detail, g.date, g.event, g.plies, g.source";

/// A summary from the first columns of a row ([`SUMMARY_COLUMNS`]).
fn summary(r: &Row) -> Result<GameSummary> {
    let id = r.int(0)?;
    Ok(GameSummary {
        id,
        game: r.text(1)?.parse().map_err(|e| invalid(id, e))?,
        variant: r.text(2)?,
        players: [r.text(3)?, r.text(4)?],
        result: result_of(id, r.opt_text(5)?, &r.text(6)?, r.text(7)?)?,
        date: r.text(8)?,
        event: r.text(9)?,
        plies: r.int(10)? as usize,
        source: r.text(11)?,
    })
}

/// Games matching `q`, newest id first.
pub(crate) fn search(c: &Conn, q: &Query) -> Result<Vec<GameSummary>> {
    let mut sql = format!("SELECT {SUMMARY_COLUMNS} FROM games g WHERE 1 = 1");
    let mut values: Vec<Value> = Vec::new();
    filters(q, &mut sql, &mut values);
    sql.push_str(" ORDER BY g.id DESC");
    if let Some(n) = q.limit {
        sql.push_str(&format!(" LIMIT {n}"));
    }
    c.rows(&sql, &values)?.iter().map(summary).collect()
}

/// Stored games (matching `q`) that reached the position with `hash`, with the move each
/// played next.
pub(crate) fn search_position(c: &Conn, hash: u64, q: &Query) -> Result<Vec<PositionHit>> {
    let mut sql = format!(
        "SELECT {SUMMARY_COLUMNS}, p.ply, m.move FROM positions p
         JOIN games g ON g.id = p.game_id
         LEFT JOIN moves m ON m.game_id = p.game_id AND m.ply = p.ply + 1
         WHERE p.hash = ?1"
    );
    let mut values: Vec<Value> = vec![key(hash).into()];
    filters(q, &mut sql, &mut values);
    sql.push_str(" ORDER BY g.id DESC, p.ply");
    if let Some(n) = q.limit {
        sql.push_str(&format!(" LIMIT {n}"));
    }
    c.rows(&sql, &values)?
        .iter()
        .map(|r| {
            Ok(PositionHit {
                game: summary(r)?,
                ply: r.int(12)? as usize,
                next: r.opt_text(13)?,
            })
        })
        .collect()
}

pub(crate) fn count(c: &Conn) -> Result<usize> {
    Ok(c.int("SELECT count(*) FROM games", &[])?.unwrap_or(0) as usize)
}

/// Adds the WHERE clauses of `q`; parameters are numbered after those already in `values`.
fn filters(q: &Query, sql: &mut String, values: &mut Vec<Value>) {
    let mut arg = |sql: &mut String, clause: &str, value: String| {
        values.push(value.into());
        sql.push_str(&clause.replace('#', &format!("?{}", values.len())));
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
