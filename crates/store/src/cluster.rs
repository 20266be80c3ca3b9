//! Several `boyi serve` instances on one PostgreSQL database. Each unfinished live game is run
//! by exactly one instance, its *owner*, which holds a lease on it in `live_owners` and renews
//! it with a heartbeat; a game whose lease has run out (its owner died) is claimed by another
//! instance. Every write of a live game is fenced by its lease (`Store::apply_live_as`), so an
//! instance that lost a game can no longer change it. Instances talk through PostgreSQL's
//! `LISTEN/NOTIFY` ([`Listener`], [`Notifier`]): each listens on its own channel
//! ([`channel_of`]) and on [`OWNERS`], where every claim is announced.
//!
//! Times are the database's clock (`clock_timestamp()`), so the instances' own clocks need
//! not agree. All of this is PostgreSQL only: an SQLite file has one server.

use crate::sql::{Conn, Pg, args};
use crate::{Result, Store, StoreError};
use postgres::fallible_iterator::FallibleIterator;
use std::time::Duration;

/// How long a lease lasts unless renewed. Heartbeats renew it every [`HEARTBEAT`]; an
/// instance that stops is replaced once its leases run out.
pub const LEASE_MS: i64 = 3000;

/// How often an instance renews its leases and looks for games without an owner.
pub const HEARTBEAT: Duration = Duration::from_millis(1000);

/// The channel on which claims are announced: the payload is `TABLE OWNER`.
pub const OWNERS: &str = "boyi_owners";

/// The database's clock in milliseconds since the Unix epoch.
const NOW: &str = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT";

/// The channel an instance listens on.
pub fn channel_of(instance: &str) -> String {
    format!("boyi_{instance}")
}

/// Who runs a live game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// The asking instance, which has just claimed it (or held it already).
    Me,
    /// Another instance, whose lease has not run out.
    Other(String),
}

/// What an instance holds, as its heartbeat reports it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Load {
    pub connections: i64,
    pub computer_seats: i64,
}

/// Another instance that is alive, with what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    pub id: String,
    pub load: Load,
}

impl Store {
    fn postgres(&self) -> Result<&Conn> {
        if self.conn.is_postgres() {
            Ok(&self.conn)
        } else {
            Err(StoreError::Invalid(
                "several instances need a PostgreSQL database".into(),
            ))
        }
    }

    /// Instance `me` is alive and holds `load`: stores the lobby lines (`summaries`, JSON)
    /// of the games it runs that changed, gives up the leases of its games that are over,
    /// and renews the others. Returns the games it still owns (one missing from the list is
    /// over, or was claimed by another instance after its lease ran out).
    ///
    /// The heartbeat and the writer both lock leases in the order of their tables' ids, so
    /// neither can wait for the other in a circle.
    pub fn heartbeat(
        &self,
        me: &str,
        load: Load,
        summaries: &[(String, String)],
    ) -> Result<Vec<String>> {
        let c = self.postgres()?;
        c.exec(
            &format!(
                "INSERT INTO instances (id, seen_ms, connections, computer_seats)
                 VALUES (?1, {NOW}, ?2, ?3) ON CONFLICT (id) DO UPDATE
                 SET seen_ms = {NOW}, connections = ?2, computer_seats = ?3"
            ),
            args![me, load.connections, load.computer_seats],
        )?;
        c.transaction(|c| {
            // The leases first, in the order the writer locks them.
            c.exec(
                "SELECT table_id FROM live_owners WHERE owner = ?1 ORDER BY table_id FOR UPDATE",
                args![me],
            )?;
            if !summaries.is_empty() {
                let lines: serde_json::Map<String, serde_json::Value> = summaries
                    .iter()
                    .map(|(t, s)| (t.clone(), s.clone().into()))
                    .collect();
                c.exec(
                    "UPDATE live_owners o SET summary = j.value
                     FROM json_each_text(?1::json) j WHERE o.table_id = j.key AND o.owner = ?2",
                    args![serde_json::Value::Object(lines).to_string(), me],
                )?;
            }
            c.exec(
                "DELETE FROM live_owners o USING live_games l
                 WHERE l.table_id = o.table_id AND l.finished_ms IS NOT NULL AND o.owner = ?1",
                args![me],
            )?;
            c.rows(
                &format!(
                    "UPDATE live_owners SET expires_ms = {NOW} + {LEASE_MS}
                     WHERE owner = ?1 RETURNING table_id"
                ),
                args![me],
            )?
            .iter()
            .map(|r| r.text(0))
            .collect()
        })
    }

    /// The other instances seen within two leases, with what they hold.
    pub fn instances(&self, me: &str) -> Result<Vec<Instance>> {
        let c = self.postgres()?;
        c.rows(
            &format!(
                "SELECT id, connections, computer_seats FROM instances
                 WHERE id != ?1 AND seen_ms > {NOW} - 2 * {LEASE_MS} ORDER BY id"
            ),
            args![me],
        )?
        .iter()
        .map(|r| {
            Ok(Instance {
                id: r.text(0)?,
                load: Load {
                    connections: r.int(1)?,
                    computer_seats: r.int(2)?,
                },
            })
        })
        .collect()
    }

    /// Claims the unfinished game `table` for `me` if nobody holds it (or its lease ran
    /// out), announcing the claim on [`OWNERS`]; otherwise names its owner.
    pub fn claim(&self, table: &str, me: &str) -> Result<Owner> {
        let c = self.postgres()?;
        c.transaction(|c| {
            let taken = c.rows(
                &format!(
                    "INSERT INTO live_owners (table_id, owner, expires_ms)
                     VALUES (?1, ?2, {NOW} + {LEASE_MS})
                     ON CONFLICT (table_id) DO UPDATE
                     SET owner = ?2, expires_ms = {NOW} + {LEASE_MS}
                     WHERE live_owners.expires_ms < {NOW} OR live_owners.owner = ?2
                     RETURNING (SELECT owner FROM live_owners WHERE table_id = ?1)"
                ),
                args![table, me],
            )?;
            if let Some(before) = taken.first() {
                if before.opt_text(0)?.as_deref() != Some(me) {
                    announce(c, table, me)?;
                }
                return Ok(Owner::Me);
            }
            let owner = c.row(
                "SELECT owner FROM live_owners WHERE table_id = ?1",
                args![table],
            )?;
            match owner {
                Some(r) => Ok(Owner::Other(r.text(0)?)),
                None => Err(StoreError::Invalid(format!("no live game {table:?}"))),
            }
        })
    }

    /// Claims for `me` every unfinished game whose lease has run out (or that never had
    /// one: games from before the cluster), announcing each claim; returns them.
    pub fn claim_orphans(&self, me: &str) -> Result<Vec<String>> {
        let c = self.postgres()?;
        c.transaction(|c| {
            c.exec(
                "INSERT INTO live_owners (table_id, owner, expires_ms)
                 SELECT table_id, '', 0 FROM live_games WHERE finished_ms IS NULL
                 ON CONFLICT DO NOTHING",
                &[],
            )?;
            let claimed: Vec<String> = c
                .rows(
                    &format!(
                        "UPDATE live_owners SET owner = ?1, expires_ms = {NOW} + {LEASE_MS}
                         WHERE table_id IN (
                             SELECT o.table_id FROM live_owners o
                             JOIN live_games l ON l.table_id = o.table_id
                             WHERE o.expires_ms < {NOW} AND l.finished_ms IS NULL
                             FOR UPDATE OF o SKIP LOCKED)
                         RETURNING table_id"
                    ),
                    args![me],
                )?
                .iter()
                .map(|r| r.text(0))
                .collect::<Result<_>>()?;
            for table in &claimed {
                announce(c, table, me)?;
            }
            Ok(claimed)
        })
    }

    /// Who runs `table` now (`None`: nobody, or it is over).
    pub fn owner(&self, table: &str) -> Result<Option<String>> {
        let c = self.postgres()?;
        c.row(
            &format!("SELECT owner FROM live_owners WHERE table_id = ?1 AND expires_ms >= {NOW}"),
            args![table],
        )?
        .map(|r| r.text(0))
        .transpose()
    }

    /// Who runs each of `tables` now (those somebody runs).
    pub fn owners(&self, tables: &[String]) -> Result<Vec<(String, String)>> {
        let c = self.postgres()?;
        if tables.is_empty() {
            return Ok(Vec::new());
        }
        c.rows(
            &format!(
                "SELECT table_id, owner FROM live_owners
                 WHERE table_id = ANY (string_to_array(?1, ',')) AND expires_ms >= {NOW}"
            ),
            args![tables.join(",")],
        )?
        .iter()
        .map(|r| Ok((r.text(0)?, r.text(1)?)))
        .collect()
    }

    /// The lobby lines of every game an instance runs.
    pub fn live_lobby(&self) -> Result<Vec<String>> {
        let c = self.postgres()?;
        c.rows(
            "SELECT summary FROM live_owners WHERE summary IS NOT NULL",
            &[],
        )?
        .iter()
        .map(|r| r.text(0))
        .collect()
    }

    /// Instance `me` stops: its games are left to the others at once.
    pub fn leave(&self, me: &str) -> Result<()> {
        let c = self.postgres()?;
        c.exec(
            "UPDATE live_owners SET expires_ms = 0 WHERE owner = ?1",
            args![me],
        )?;
        c.exec("DELETE FROM instances WHERE id = ?1", args![me])?;
        Ok(())
    }
}

fn announce(c: &Conn, table: &str, me: &str) -> Result<()> {
    c.exec(
        "SELECT pg_notify(?1, ?2)",
        args![OWNERS, format!("{table} {me}")],
    )?;
    Ok(())
}

/// Locks (shared) the leases of the games `tables` until the transaction ends, in the order
/// of their ids (as the heartbeat locks its own): a claim by another instance then waits
/// for the writes in flight and reads the game with them, so a move, a seat or an invitation
/// is never changed by two owners.
pub(crate) fn lock_leases(c: &Conn, tables: &[&str]) -> Result<()> {
    if tables.is_empty() {
        return Ok(());
    }
    c.exec(
        "SELECT table_id FROM live_owners WHERE table_id = ANY (string_to_array(?1, ','))
         ORDER BY table_id FOR SHARE",
        args![tables.join(",")],
    )?;
    Ok(())
}

/// Fences a write of live game `table` (its lease locked by [`lock_leases`]): `me` must hold
/// the lease.
pub(crate) fn fence(c: &Conn, table: &str, me: &str) -> Result<()> {
    let owner = c.row(
        "SELECT owner FROM live_owners WHERE table_id = ?1",
        args![table],
    )?;
    match owner {
        Some(r) if r.text(0)? == me => Ok(()),
        _ => Err(StoreError::Invalid(format!(
            "table {table} is now run by another instance; try again"
        ))),
    }
}

/// Gives the lease of a new game to `me`.
pub(crate) fn lease_new(c: &Conn, table: &str, me: &str) -> Result<()> {
    c.exec(
        &format!(
            "INSERT INTO live_owners (table_id, owner, expires_ms)
             VALUES (?1, ?2, {NOW} + {LEASE_MS})"
        ),
        args![table, me],
    )?;
    Ok(())
}

/// A connection that receives the notifications of some channels.
pub struct Listener {
    client: postgres::Client,
}

impl Listener {
    /// Connects to the PostgreSQL database `url` and listens on `channels` (names of
    /// letters, digits and `_`).
    pub fn connect(url: &str, channels: &[String]) -> Result<Listener> {
        let mut client = Pg::connect(url)?.into_client();
        for ch in channels {
            if !ch.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(StoreError::Invalid(format!("bad channel name {ch:?}")));
            }
            client.batch_execute(&format!("LISTEN {ch}"))?;
        }
        Ok(Listener { client })
    }

    /// The notifications that arrive within `timeout` (waiting for the first only), as
    /// `(channel, payload)` in the order sent.
    pub fn wait(&mut self, timeout: Duration) -> Result<Vec<(String, String)>> {
        let mut notes = self.client.notifications();
        let mut out = Vec::new();
        let first = notes.timeout_iter(timeout).next()?;
        if let Some(n) = first {
            out.push((n.channel().to_string(), n.payload().to_string()));
            let mut more = notes.iter();
            while let Some(n) = more.next()? {
                out.push((n.channel().to_string(), n.payload().to_string()));
            }
        }
        Ok(out)
    }
}

/// A connection that sends notifications.
pub struct Notifier {
    client: postgres::Client,
    statement: postgres::Statement,
}

/// The longest payload PostgreSQL takes, less room for a header.
pub const MAX_PAYLOAD: usize = 7900;

impl Notifier {
    pub fn connect(url: &str) -> Result<Notifier> {
        let mut client = Pg::connect(url)?.into_client();
        let statement = client.prepare(
            "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(c, p, i) ORDER BY i",
        )?;
        Ok(Notifier { client, statement })
    }

    /// Sends `(channel, payload)` notifications, in order, in one round trip. Payloads must
    /// be at most [`MAX_PAYLOAD`] bytes, and two identical ones to one channel are sent
    /// once (PostgreSQL folds them), so a sender numbers its messages.
    pub fn send(&mut self, notes: &[(String, String)]) -> Result<()> {
        let (channels, payloads): (Vec<&str>, Vec<&str>) =
            notes.iter().map(|(c, p)| (c.as_str(), p.as_str())).unzip();
        self.client
            .execute(&self.statement, &[&channels, &payloads])?;
        Ok(())
    }
}
