//! All tables of the server: creating them (checking every option), finding them by id
//! (bringing a stored game back if it is not running), resuming unfinished games at start-up,
//! and the lobby list.

use crate::external::{self, Engines};
use crate::games::ServerGame;
use crate::seat::{
    ClockSpec, LEVEL_CAP_MS, MAX_THINK_MS, Seat, SeatKind, SeatRequest, TableOptions, check_name,
    new_table_id, new_token, normalise_spec, side_name, token_hash,
};
use crate::store::Store;
use crate::table::{NewTable, Table, TableHandle};
use boyi_core::Side;
use boyi_engines::{BuildContext, levels};
use boyi_games::{GameKind, with_game};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a table nobody has moved at stays in the lobby after its last change, unless
/// the server is told otherwise (it can still be opened by its link).
pub const LOBBY_IDLE: Duration = Duration::from_secs(15 * 60);

/// Longest position text accepted.
pub const MAX_POSITION: usize = 2000;

/// A request for a new table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub game: String,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub size: Option<usize>,
    /// Start from this position text instead of the start position.
    #[serde(default)]
    pub position: Option<String>,
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    #[serde(default)]
    pub undo: Option<bool>,
    #[serde(default)]
    pub local: Option<bool>,
    pub black: SeatRequest,
    pub white: SeatRequest,
}

/// A new table: its id, the tokens of the seats its creator holds or hands out, and the
/// creator's own token (for new invitation links).
pub struct Created {
    pub table: String,
    pub tokens: Value,
    pub creator: String,
}

pub struct Hub {
    tables: Mutex<HashMap<String, TableHandle>>,
    pub store: Store,
    pub engines: Arc<Engines>,
    /// How long a table with no move stays in the lobby.
    lobby_idle: Duration,
}

impl Hub {
    pub fn new(store: Store, engines: Arc<Engines>, lobby_idle: Duration) -> Hub {
        Hub {
            tables: Mutex::new(HashMap::new()),
            store,
            engines,
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

    /// The running table `id`, or the stored game brought back.
    pub fn get(&self, id: &str) -> Result<TableHandle, String> {
        if let Some(h) = self.tables().get(id) {
            return Ok(h.clone());
        }
        let unknown = || format!("unknown table {id:?}");
        if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(unknown());
        }
        let row = self
            .store
            .load(id)
            .map_err(|e| e.to_string())?
            .ok_or_else(unknown)?;
        let handle = self.spawn_stored(&row)?;
        Ok(self
            .tables()
            .entry(id.to_string())
            .or_insert(handle)
            .clone())
    }

    pub async fn create(&self, req: CreateRequest) -> Result<Created, String> {
        let kind: GameKind = req.game.parse().map_err(|e| format!("{e}"))?;
        let creator = new_token();
        let (table, tokens, handle) =
            with_game!(kind, G => self.create_game::<G>(&req, &creator).await)
                .map_err(|e| e.to_string())??;
        self.tables().insert(table.clone(), handle);
        Ok(Created {
            table,
            tokens,
            creator,
        })
    }

    async fn create_game<G: ServerGame>(
        &self,
        req: &CreateRequest,
        creator: &str,
    ) -> Result<(String, Value, TableHandle), String> {
        let mut new = check_request::<G>(req, &self.engines)?;
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
        let mut live: Vec<Value> = self
            .tables()
            .values()
            .map(|h| h.summary.lock().unwrap_or_else(|e| e.into_inner()).clone())
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

/// Whether a table's lobby line (`summary`) is of a table nobody has moved at, left alone
/// for longer than `idle` milliseconds at time `now`.
fn abandoned(summary: &Value, now: i64, idle: i64) -> bool {
    summary["moves"] == 0 && now - summary["changed_ms"].as_i64().unwrap_or(now) > idle
}

/// Checks every option of a request and builds the table's setup.
fn check_request<G: ServerGame>(
    req: &CreateRequest,
    engines: &Engines,
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
        check_seat::<G>(&req.black, Side::Black, engines)?,
        check_seat::<G>(&req.white, Side::White, engines)?,
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
                let body = spec.trim_start_matches("boyi:");
                boyi_engines::build::<G>(body, BuildContext::default())
                    .map_err(|e| what(e.to_string()))?;
                spec
            };
            let think_ms = req.think_ms.unwrap_or(1000);
            if !(10..=MAX_THINK_MS).contains(&think_ms) {
                return Err(what(format!(
                    "think_ms must be between 10 and {MAX_THINK_MS} (got {think_ms})"
                )));
            }
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
