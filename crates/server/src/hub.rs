//! All tables of the server: creating them (checking every option and the computer seats a
//! connection and the server may have), finding them by id (bringing a stored game back if it
//! is not running), resuming unfinished games at start-up, and the lobby list.

use crate::budget;
use crate::cluster::Cluster;
use crate::cluster::remote::RemoteTables;
use crate::external::{self, Engines};
use crate::games::ServerGame;
use crate::limits::Limits;
use crate::protocol::{CreateRequest, MAX_POSITION};
use crate::seat::{
    LEVEL_CAP_MS, Seat, SeatKind, SeatRequest, TableOptions, check_name, new_table_id, new_token,
    normalise_spec, side_name, token_hash,
};
use crate::store::Store;
use crate::table::{Cmd, NewTable, Table, TableHandle};
use boyi_core::Side;
use boyi_engines::{BuildContext, levels};
use boyi_games::{GameKind, with_game};
use boyi_store::cluster::Owner;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a table nobody has moved at stays in the lobby after its last change, unless
/// the server is told otherwise (it can still be opened by its link).
pub const LOBBY_IDLE: Duration = Duration::from_secs(15 * 60);

/// A new table: its id, the tokens of the seats its creator holds or hands out, and the
/// creator's own token (for new invitation links).
pub struct Created {
    pub table: String,
    pub tokens: Value,
    pub creator: String,
}

pub struct Hub {
    tables: Mutex<HashMap<String, TableHandle>>,
    /// The connection that created each table with a computer seat, while it is open.
    creators: Mutex<HashMap<String, u64>>,
    /// Creations one at a time, so two cannot both take the last computer seats.
    creating: tokio::sync::Mutex<()>,
    pub store: Store,
    pub engines: Arc<Engines>,
    pub limits: Limits,
    /// How long a table with no move stays in the lobby.
    lobby_idle: Duration,
    /// This instance's part in a cluster (PostgreSQL), and the tables run elsewhere.
    cluster: Option<Arc<Cluster>>,
    remote: Arc<RemoteTables>,
}

impl Hub {
    pub fn new(
        store: Store,
        engines: Arc<Engines>,
        limits: Limits,
        lobby_idle: Duration,
        cluster: Option<Arc<Cluster>>,
    ) -> Hub {
        Hub {
            cluster,
            remote: Arc::default(),
            tables: Mutex::new(HashMap::new()),
            creators: Mutex::new(HashMap::new()),
            creating: tokio::sync::Mutex::new(()),
            store,
            engines,
            limits,
            lobby_idle,
        }
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, HashMap<String, TableHandle>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts every unfinished stored game again; returns how many.
    pub fn resume_all(&self) -> Result<usize, String> {
        let rows = self.store.unfinished().map_err(|e| e.to_string())?;
        let mut n = 0;
        for row in rows {
            match self.spawn_stored(&row) {
                Ok(h) => {
                    self.tables().insert(row.table.clone(), h);
                    n += 1;
                }
                Err(e) => eprintln!("boyi serve: cannot resume game {}: {e}", row.table),
            }
        }
        Ok(n)
    }

    fn spawn_stored(&self, row: &boyi_store::live::LiveGame) -> Result<TableHandle, String> {
        let kind: GameKind = row.record.game;
        with_game!(kind, G => Table::<G>::resume(row, self.store.clone(), self.engines.clone()))
            .map_err(|e| e.to_string())?
    }

    /// The running table `id`, or the stored game brought back; in a cluster, a game that
    /// another instance runs is reached through it, and one nobody runs is claimed.
    pub fn get(&self, id: &str) -> Result<TableHandle, String> {
        if let Some(h) = self.tables().get(id) {
            return Ok(h.clone());
        }
        if let Some(h) = self.remote.get(id) {
            return Ok(h);
        }
        let unknown = || format!("unknown table {id:?}");
        if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(unknown());
        }
        let load = || {
            self.store
                .load(id)
                .map_err(|e| e.to_string())?
                .ok_or_else(unknown)
        };
        let mut row = load()?;
        if let Some(cluster) = &self.cluster
            && row.finished_ms.is_none()
        {
            match self
                .store
                .claim(id, &cluster.me)
                .map_err(|e| e.to_string())?
            {
                // Read again: the last owner may have moved before its lease ran out.
                Owner::Me => row = load()?,
                Owner::Other(owner) => return Ok(self.remote.handle(id, &owner, cluster)),
            }
        }
        let handle = self.spawn_stored(&row)?;
        Ok(self
            .tables()
            .entry(id.to_string())
            .or_insert(handle)
            .clone())
    }

    /// A game of the cluster changed hands: `owner` runs `table` now. This instance's
    /// connections watching it elsewhere follow it. (A game run here is given up only when
    /// the heartbeat finds its lease gone: an announcement may be older than the lease.)
    pub fn on_owner(&self, table: &str, owner: &str) {
        let Some(cluster) = &self.cluster else { return };
        if owner != cluster.me {
            self.remote.moved(table, owner, cluster);
        }
    }

    /// Stops the table `table` run here (`owner` runs it now, if known), and lets its
    /// watchers follow it there.
    pub fn hand_over(&self, table: &str, owner: &str) {
        let Some(cluster) = &self.cluster else { return };
        let Some(h) = self.tables().remove(table) else {
            return;
        };
        let (reply, watchers) = tokio::sync::oneshot::channel();
        if h.handover.send(reply).is_err() {
            return;
        }
        let (remote, cluster) = (self.remote.clone(), cluster.clone());
        let (table, owner) = (table.to_string(), owner.to_string());
        tokio::spawn(async move {
            if let Ok(w) = watchers.await {
                remote.follow(&table, &owner, w, &cluster);
            }
        });
    }

    /// A request from connection `conn` of instance `origin` about `table`, which that
    /// instance believes runs here.
    pub fn from_elsewhere(&self, table: &str, cmd: Cmd, origin: &str, conn: u64) {
        let Some(cluster) = &self.cluster else { return };
        if let Some(h) = self.tables().get(table).cloned() {
            let _ = h.tx.send(cmd);
            return;
        }
        match self.get(table) {
            Ok(_) if self.remote.get(table).is_some() => match self.store.owner(table) {
                // Claimed here a moment ago: run it now rather than wait for the heartbeat.
                Ok(Some(owner)) if owner == cluster.me => {
                    self.adopt(&[table.to_string()]);
                    if let Some(h) = self.tables().get(table) {
                        let _ = h.tx.send(cmd);
                    }
                }
                Ok(Some(owner)) => cluster.pass_on(&owner, table, &cmd, origin, conn),
                // Nobody runs it this instant: the next claim's announcement brings the
                // asker, a watcher of the table by then, its state.
                _ => {}
            },
            Ok(h) => {
                let _ = h.tx.send(cmd);
            }
            Err(e) => {
                let msg = json!({"v": crate::protocol::VERSION, "type": "error", "table": table,
                                 "code": "unknown_table", "message": e});
                let _ = cmd.out.try_send(msg.to_string().into());
            }
        }
    }

    /// The tables run elsewhere that connections here watch, with their owners as last known.
    pub fn followed(&self) -> Vec<(String, String)> {
        self.remote.followed()
    }

    /// The lobby lines of the games in progress run here.
    pub fn lobby_lines(&self) -> Vec<(String, String)> {
        self.tables()
            .iter()
            .filter(|(_, h)| playing(h))
            .map(|(id, h)| {
                let line = h
                    .summary
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .to_string();
                (id.clone(), line)
            })
            .collect()
    }

    /// The games this instance holds the leases of (`owned`) but does not run (a take-over
    /// that could not load the game; a game handed over whose lease came back): run them.
    pub fn not_running(&self, owned: &[String]) -> Vec<String> {
        let tables = self.tables();
        owned
            .iter()
            .filter(|id| !tables.contains_key(id.as_str()))
            .cloned()
            .collect()
    }

    /// The games in progress here whose leases are not among `owned` (the heartbeat's
    /// renewals): another instance took them.
    pub fn lost(&self, owned: &[String]) -> Vec<String> {
        let owned: std::collections::HashSet<&str> = owned.iter().map(String::as_str).collect();
        self.tables()
            .iter()
            .filter(|(id, h)| playing(h) && !owned.contains(id.as_str()))
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Runs the games this instance has just claimed (their owner stopped); the watchers
    /// here that followed them elsewhere watch them here. Returns how many run.
    pub fn adopt(&self, tables: &[String]) -> usize {
        let mut n = 0;
        for id in tables {
            if self.tables().contains_key(id) {
                // Its own lease, run out and claimed again: the table runs on.
                continue;
            }
            let row = match self.store.load(id) {
                Ok(Some(row)) => row,
                Ok(None) => continue,
                Err(e) => {
                    eprintln!("boyi serve: cannot take over game {id}: {e}");
                    continue;
                }
            };
            let handle = match self.spawn_stored(&row) {
                Ok(h) => h,
                Err(e) => {
                    eprintln!("boyi serve: cannot take over game {id}: {e}");
                    continue;
                }
            };
            // A request from elsewhere may have brought the game up meanwhile: one table.
            let handle = self.tables().entry(id.clone()).or_insert(handle).clone();
            for (conn, out) in self.remote.take(id, &handle) {
                let _ = handle.tx.send(Cmd {
                    conn,
                    out,
                    ask: crate::table::Ask::Watch,
                });
            }
            n += 1;
        }
        n
    }

    /// Creates a table for connection `conn`, if the computer seats it asks for are within
    /// the connection's and the server's bounds.
    pub async fn create(&self, req: CreateRequest, conn: u64) -> Result<Created, String> {
        let kind: GameKind = req.game.parse().map_err(|e| format!("{e}"))?;
        let asked = [&req.black, &req.white]
            .iter()
            .filter(|s| s.kind == "computer")
            .count();
        let _one_at_a_time = self.creating.lock().await;
        if asked > 0 {
            self.check_computer_seats(asked, conn)?;
        }
        let creator = new_token();
        let (table, tokens, handle) =
            with_game!(kind, G => self.create_game::<G>(&req, &creator).await)
                .map_err(|e| e.to_string())??;
        // The heartbeat may have found the new lease first and brought the game up: one table.
        self.tables().entry(table.clone()).or_insert(handle);
        if asked > 0 {
            self.creators().insert(table.clone(), conn);
        }
        Ok(Created {
            table,
            tokens,
            creator,
        })
    }

    fn creators(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        self.creators.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Computer seats in games in progress: those of connection `conn`, and those that count
    /// against the server (engine-only games, and games whose creator is still connected: a
    /// person's game against the computer left behind thinks only when someone plays it).
    fn computer_seats_in_use(&self, conn: u64) -> (usize, usize) {
        let creators = self.creators().clone();
        let (mut mine, mut all) = (0, 0);
        for (id, handle) in self.tables().iter() {
            let summary = handle.summary.lock().unwrap_or_else(|e| e.into_inner());
            let n = budget::computer_seats(&summary);
            let creator = creators.get(id);
            if creator == Some(&conn) {
                mine += n;
            }
            if n == 2 || creator.is_some() {
                all += n;
            }
        }
        (mine, all)
    }

    /// Connections open on the other instances of the cluster.
    pub fn connections_elsewhere(&self) -> usize {
        self.cluster
            .as_ref()
            .map_or(0, |c| c.others_load().connections as usize)
    }

    /// Computer seats in games in progress that count against this instance.
    pub fn computer_seats_here(&self) -> usize {
        self.computer_seats_in_use(0).1
    }

    fn check_computer_seats(&self, asked: usize, conn: u64) -> Result<(), String> {
        let (mine, all) = self.computer_seats_in_use(conn);
        let l = &self.limits;
        if let Some(cluster) = &self.cluster {
            let everywhere = all + cluster.others_load().computer_seats as usize;
            if everywhere + asked > l.total_computer_seats {
                return Err(format!(
                    "the site is busy: {everywhere} computer seats are in games in progress on all its servers (at most {}); try again when a game ends",
                    l.total_computer_seats
                ));
            }
        }
        if mine + asked > l.computer_seats_per_connection {
            return Err(format!(
                "too many computer seats: this connection has {mine} in games in progress and asks for {asked} more (at most {}); finish or resign a game first",
                l.computer_seats_per_connection
            ));
        }
        if all + asked > l.computer_seats {
            return Err(format!(
                "the server is busy: {all} computer seats are in games in progress (at most {}); try again when a game ends",
                l.computer_seats
            ));
        }
        Ok(())
    }

    /// Connection `conn` closed: its games against the computer no longer count against the
    /// server (engine-only games go on counting while they run).
    pub fn forget_connection(&self, conn: u64) {
        self.creators().retain(|_, c| *c != conn);
        if let Some(cluster) = &self.cluster {
            cluster.gone(conn);
        }
    }

    async fn create_game<G: ServerGame>(
        &self,
        req: &CreateRequest,
        creator: &str,
    ) -> Result<(String, Value, TableHandle), String> {
        let mut new = check_request::<G>(req, &self.engines, &self.limits)?;
        new.options.creator = Some(token_hash(creator));
        let mut tokens = serde_json::Map::new();
        for side in Side::BOTH {
            let seat = &new.seats[side.index()];
            if let Some(t) = seat.holder().or(seat.invitation()) {
                tokens.insert(side_name(side).into(), t.into());
            }
        }
        let id = new.id.clone();
        let handle = Table::create(new, self.store.clone(), self.engines.clone()).await?;
        Ok((id, Value::Object(tokens), handle))
    }

    /// The lobby: running tables (open ones first; tables with no move left alone for the
    /// server's lobby idle time are not listed) and recently finished games.
    pub fn lobby(&self) -> Value {
        let now = crate::store::now_ms();
        let idle = self.lobby_idle.as_millis() as i64;
        let lines: Vec<Value> = match &self.cluster {
            // Every instance's games, as their heartbeats published them.
            Some(_) => self
                .store
                .live_lobby()
                .unwrap_or_default()
                .iter()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect(),
            None => self
                .tables()
                .values()
                .map(|h| h.summary.lock().unwrap_or_else(|e| e.into_inner()).clone())
                .collect(),
        };
        let mut live: Vec<Value> = lines
            .into_iter()
            .filter(|s| s["status"] == "playing" && !abandoned(s, now, idle))
            .collect();
        let open = |s: &Value| {
            s["seats"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x["open"] == true))
        };
        live.sort_by_key(|s| (!open(s), std::cmp::Reverse(s["moves"].as_u64())));
        live.truncate(200);
        let finished = self.store.finished(30).unwrap_or_default();
        json!({ "v": crate::protocol::VERSION, "live": live, "finished": finished })
    }
}

/// Whether a table's game is in progress (not over: over, it needs no owner).
fn playing(h: &TableHandle) -> bool {
    h.summary.lock().unwrap_or_else(|e| e.into_inner())["status"] == "playing"
}

/// Whether a table's lobby line (`summary`) is of a table nobody has moved at, left alone
/// for longer than `idle` milliseconds at time `now`.
fn abandoned(summary: &Value, now: i64, idle: i64) -> bool {
    summary["moves"] == 0 && now - summary["changed_ms"].as_i64().unwrap_or(now) > idle
}

/// Checks every option of a request and builds the table's setup.
fn check_request<G: ServerGame>(
    req: &CreateRequest,
    engines: &Engines,
    limits: &Limits,
) -> Result<NewTable<G>, String> {
    let variant: G::Variant = match &req.variant {
        Some(v) => v.parse().map_err(|e| format!("variant: {e}"))?,
        None => G::Variant::default(),
    };
    let start = match &req.position {
        Some(p) if p.len() > MAX_POSITION => return Err("position text is too long".into()),
        Some(p) => {
            if req.size.is_some() {
                return Err("give either a size or a position, not both".into());
            }
            G::from_text(&variant, p).map_err(|e| format!("position: {e}"))?
        }
        None => G::start(&variant, req.size).map_err(|e| format!("size: {e}"))?,
    };
    if start.outcome().is_some() {
        return Err("the position is already decided".into());
    }
    if let Some(c) = &req.clock {
        c.check()?;
    }
    let seats = [
        check_seat::<G>(&req.black, Side::Black, engines, limits)?,
        check_seat::<G>(&req.white, Side::White, engines, limits)?,
    ];
    Ok(NewTable {
        id: new_table_id(),
        start,
        options: TableOptions {
            clock: req.clock,
            undo: req.undo.unwrap_or(false),
            local: req.local.unwrap_or(false),
            creator: None,
        },
        seats,
    })
}

fn check_seat<G: ServerGame>(
    req: &SeatRequest,
    side: Side,
    engines: &Engines,
    limits: &Limits,
) -> Result<Seat, String> {
    let label = G::side_name(side);
    let what = |e: String| format!("{label} seat: {e}");
    match req.kind.as_str() {
        "human" => {
            if req.player.is_some() || req.think_ms.is_some() || req.level.is_some() {
                return Err(what(
                    "a human seat takes no player, level or think_ms".into(),
                ));
            }
            let mut default = label.to_string();
            default[..1].make_ascii_uppercase();
            let token = new_token();
            Ok(Seat {
                name: check_name(req.name.as_deref(), &default).map_err(what)?,
                kind: if req.hold.unwrap_or(true) {
                    SeatKind::held(token)
                } else {
                    SeatKind::invitation(token)
                },
            })
        }
        "computer" if req.level.is_some() => {
            if req.player.is_some() || req.think_ms.is_some() || req.hold.is_some() {
                return Err(what(
                    "a computer seat with a level takes no player, think_ms or hold".into(),
                ));
            }
            let level =
                levels::find(G::NAME, req.level.as_deref().unwrap_or_default()).map_err(what)?;
            Ok(Seat {
                name: check_name(req.name.as_deref(), level.spec).map_err(what)?,
                kind: SeatKind::Computer {
                    player: level.spec.to_string(),
                    think_ms: LEVEL_CAP_MS,
                    level: Some(level.id.to_string()),
                },
            })
        }
        "computer" => {
            let spec = req.player.as_deref().unwrap_or("boyi:random");
            let spec = if spec.starts_with(external::PREFIX) {
                engines.get::<G>(spec).map_err(what)?;
                spec.to_string()
            } else {
                let spec = normalise_spec(spec).map_err(what)?;
                budget::check_player_options(&spec).map_err(what)?;
                let body = spec.trim_start_matches("boyi:");
                boyi_engines::build::<G>(body, BuildContext::default())
                    .map_err(|e| what(e.to_string()))?;
                spec
            };
            let think_ms = req.think_ms.unwrap_or(1000);
            budget::check_think_ms(think_ms, limits).map_err(what)?;
            if req.hold.is_some() {
                return Err(what("a computer seat cannot be held".into()));
            }
            Ok(Seat {
                name: check_name(req.name.as_deref(), &spec).map_err(what)?,
                kind: SeatKind::Computer {
                    player: spec,
                    think_ms,
                    level: None,
                },
            })
        }
        other => Err(what(format!(
            "unknown seat kind {other:?} (expected human or computer)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::{LOBBY_IDLE, abandoned};
    use serde_json::json;

    #[test]
    fn tables_nobody_moved_at_leave_the_lobby() {
        let idle = LOBBY_IDLE.as_millis() as i64;
        let now = 10 * idle;
        let line = |moves: u64, changed: i64| json!({"moves": moves, "changed_ms": changed});
        assert!(!abandoned(&line(0, now - idle / 2), now, idle));
        assert!(abandoned(&line(0, now - idle - 1), now, idle));
        assert!(!abandoned(&line(3, 0), now, idle), "a game under way stays");
    }
}
