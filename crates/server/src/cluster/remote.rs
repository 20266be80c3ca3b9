//! Tables run by another instance, as this one sees them: a handle like a local table's whose
//! requests go to the owner, and the local connections watching through it, which are sent
//! to the new owner's table (a `watch`, answered with the full state) whenever the game
//! changes hands.

use super::Cluster;
use crate::table::{Ask, Cmd, Outbox, TableHandle};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

struct Remote {
    owner: String,
    watchers: HashMap<u64, Outbox>,
    /// The table once it runs here: requests still on their way go to it.
    local: Option<TableHandle>,
}

/// A table followed: what the forwarding task shares, and the handle it serves.
type Followed = (Arc<Mutex<Remote>>, TableHandle);

/// The tables run elsewhere that local connections use, by table id.
#[derive(Default)]
pub struct RemoteTables {
    tables: Mutex<HashMap<String, Followed>>,
}

impl RemoteTables {
    fn tables(&self) -> std::sync::MutexGuard<'_, HashMap<String, Followed>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, table: &str) -> Option<TableHandle> {
        self.tables().get(table).map(|(_, h)| h.clone())
    }

    /// The handle of `table`, run by `owner`; made (with the task that forwards its
    /// requests) the first time.
    pub fn handle(&self, table: &str, owner: &str, cluster: &Arc<Cluster>) -> TableHandle {
        let mut tables = self.tables();
        if let Some((_, h)) = tables.get(table) {
            return h.clone();
        }
        let state = Arc::new(Mutex::new(Remote {
            owner: owner.to_string(),
            watchers: HashMap::new(),
            local: None,
        }));
        let (tx, mut rx) = mpsc::unbounded_channel::<Cmd>();
        let handle = TableHandle::forwarding(tx);
        tables.insert(table.to_string(), (state.clone(), handle.clone()));
        let (cluster, table) = (cluster.clone(), table.to_string());
        tokio::spawn(async move {
            while let Some(cmd) = rx.recv().await {
                let owner = {
                    let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(local) = &s.local {
                        let _ = local.tx.send(cmd);
                        continue;
                    }
                    if cmd.ask == Ask::Unwatch {
                        s.watchers.remove(&cmd.conn);
                    } else {
                        s.watchers.insert(cmd.conn, cmd.out.clone());
                    }
                    s.owner.clone()
                };
                // A request that reaches an owner just dying is lost; whoever sent it is a
                // watcher by now, and gets the whole state from the next owner.
                cluster.forward(&owner, &table, &cmd);
            }
        });
        handle
    }

    /// `table` is run by `owner` now: its watchers here watch it there.
    pub fn moved(&self, table: &str, owner: &str, cluster: &Cluster) {
        let Some((state, _)) = self.tables().get(table).cloned() else {
            return;
        };
        let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
        if s.owner == owner {
            return;
        }
        s.owner = owner.to_string();
        for (conn, out) in &s.watchers {
            let cmd = Cmd {
                conn: *conn,
                out: out.clone(),
                ask: Ask::Watch,
            };
            cluster.forward(owner, table, &cmd);
        }
    }

    /// The tables followed, and their owners as last known; tables nobody here watches any
    /// more are forgotten.
    pub fn followed(&self) -> Vec<(String, String)> {
        let mut tables = self.tables();
        tables.retain(|_, (s, _)| {
            !s.lock()
                .unwrap_or_else(|e| e.into_inner())
                .watchers
                .is_empty()
        });
        tables
            .iter()
            .map(|(t, (s, _))| {
                (
                    t.clone(),
                    s.lock().unwrap_or_else(|e| e.into_inner()).owner.clone(),
                )
            })
            .collect()
    }

    /// Forgets `table`, which runs here now (`local`); requests still on their way go to
    /// it. Returns its watchers.
    pub fn take(&self, table: &str, local: &TableHandle) -> Vec<(u64, Outbox)> {
        match self.tables().remove(table) {
            Some((state, _)) => {
                let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
                s.local = Some(local.clone());
                s.watchers.drain().collect()
            }
            None => Vec::new(),
        }
    }

    /// Follows `table`, now run by `owner`, for the connections that watched it here.
    pub fn follow(
        &self,
        table: &str,
        owner: &str,
        watchers: Vec<(u64, Outbox)>,
        cluster: &Arc<Cluster>,
    ) {
        let handle = self.handle(table, owner, cluster);
        for (conn, out) in watchers {
            let _ = handle.tx.send(Cmd {
                conn,
                out,
                ask: Ask::Watch,
            });
        }
    }
}
