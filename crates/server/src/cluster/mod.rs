//! Several `boyi serve` instances on one PostgreSQL database, behind a load balancer that
//! sends any connection to any instance (docs/server.md, "Several instances").
//!
//! Each unfinished game is run by one instance, its owner, under a lease in the database
//! (`boyi_store::cluster`): the owner's table task keeps the clock, thinks for computer
//! seats and writes every change, fenced by the lease. A connection on another instance
//! reaches the table through a [`remote`] handle there, which passes its requests to the
//! owner; the owner's messages for it come back the same way. Instances talk over
//! PostgreSQL's `LISTEN/NOTIFY` ([`wire`] is the text): no broker beside the database.
//!
//! Three threads of their own (the PostgreSQL client blocks): one sends notifications, one
//! listens, and the heartbeat renews this instance's leases every second, publishes what it
//! holds (connections, computer seats, lobby lines), and claims the games whose owner
//! stopped renewing — within a lease (`boyi_store::cluster::LEASE_MS`) and a heartbeat of
//! that owner's death. A game taken over resumes from the database: its computer seats
//! think again, and its clocks start from the last stored move, so the time nobody ran it is
//! charged to neither side.

pub mod remote;
pub mod wire;

use crate::AppState;
use crate::table::{Cmd, Outbox};
use boyi_store::cluster::channel_of;
use boyi_store::cluster::{HEARTBEAT, Instance, Listener, Load, Notifier, OWNERS};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};
use tokio::runtime::Handle;
use tokio::sync::mpsc;
use wire::{Pieces, Request, Wire};

/// This instance's part in a cluster.
pub struct Cluster {
    /// This instance's name (random at each start).
    pub me: String,
    url: String,
    notes: Sender<(String, String)>,
    seq: AtomicU64,
    /// This instance's connections that asked tables run elsewhere: their outbox, and the
    /// instances they asked (told when the connection closes).
    locals: Mutex<HashMap<u64, (Outbox, HashSet<String>)>>,
    /// Connections of other instances watching tables run here, by (instance, their number):
    /// the number the tables here know them by, and their outbox.
    remotes: Mutex<HashMap<(String, u64), (u64, Outbox)>>,
    /// The other instances alive, with what they hold (as of the latest heartbeat).
    others: Mutex<Vec<Instance>>,
}

fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Cluster {
    /// Joins the cluster of the PostgreSQL database `url`: a new instance name and the
    /// thread that sends notifications.
    pub fn new(url: &str) -> Result<Arc<Cluster>, String> {
        let me = crate::seat::new_table_id();
        let (notes, rx) = channel::<(String, String)>();
        let (connected_tx, connected) = channel();
        let db = url.to_string();
        std::thread::Builder::new()
            .name("boyi-notify".into())
            .spawn(move || {
                let mut notifier = match Notifier::connect(&db) {
                    Ok(n) => {
                        let _ = connected_tx.send(Ok(()));
                        n
                    }
                    Err(e) => {
                        let _ = connected_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    batch.extend(rx.try_iter().take(1023));
                    if let Err(e) = notifier.send(&batch) {
                        eprintln!("boyi serve: cannot notify the other instances: {e}");
                    }
                }
            })
            .map_err(|e| e.to_string())?;
        connected
            .recv()
            .map_err(|_| "the notifying thread stopped".to_string())??;
        Ok(Arc::new(Cluster {
            me,
            url: url.to_string(),
            notes,
            seq: AtomicU64::new(0),
            locals: Mutex::default(),
            remotes: Mutex::default(),
            others: Mutex::default(),
        }))
    }

    fn send(&self, instance: &str, wire: &Wire) {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let channel = channel_of(instance);
        for p in wire::pieces(&self.me, seq, &wire.encode()) {
            let _ = self.notes.send((channel.clone(), p));
        }
    }

    /// Passes a local connection's request about `table` to the instance that runs it.
    pub fn forward(&self, owner: &str, table: &str, cmd: &Cmd) {
        {
            let mut locals = locked(&self.locals);
            let entry = locals
                .entry(cmd.conn)
                .or_insert_with(|| (cmd.out.clone(), HashSet::new()));
            entry.1.insert(owner.to_string());
        }
        self.pass_on(owner, table, cmd, &self.me, cmd.conn);
    }

    /// A local connection closed: the instances it asked forget it.
    pub fn gone(&self, conn: u64) {
        if let Some((_, asked)) = locked(&self.locals).remove(&conn) {
            for instance in asked {
                self.send(&instance, &Wire::Gone { conn });
            }
        }
    }

    /// What the other instances hold together.
    pub fn others_load(&self) -> Load {
        locked(&self.others)
            .iter()
            .fold(Load::default(), |a, i| Load {
                connections: a.connections + i.load.connections,
                computer_seats: a.computer_seats + i.load.computer_seats,
            })
    }

    /// The outbox of connection `conn` of instance `origin`, made on its first request: a
    /// task passes what the tables send it to that instance.
    fn remote_out(self: &Arc<Self>, origin: &str, conn: u64, rt: &Handle) -> (u64, Outbox) {
        let mut remotes = locked(&self.remotes);
        if let Some(r) = remotes.get(&(origin.to_string(), conn)) {
            return r.clone();
        }
        let (tx, mut rx) = mpsc::channel::<Arc<str>>(crate::table::OUTBOX);
        let out = Outbox::new(tx);
        let id = crate::table::next_conn_id();
        remotes.insert((origin.to_string(), conn), (id, out.clone()));
        let (cluster, origin) = (self.clone(), origin.to_string());
        rt.spawn(async move {
            while let Some(text) = rx.recv().await {
                let text = text.to_string();
                cluster.send(&origin, &Wire::Out { conn, text });
            }
        });
        (id, out)
    }

    /// Starts listening to the other instances and the heartbeat; the first heartbeat runs
    /// before this returns, and the games it takes over are counted. (The PostgreSQL client
    /// blocks on a runtime of its own, so its connections live on threads outside this
    /// runtime, which they enter only to start tasks.)
    pub fn start(self: &Arc<Self>, app: Arc<AppState>) -> Result<usize, String> {
        let rt = Handle::current();
        let (first_tx, first) = channel();
        // The threads hold the server weakly: when its runtime stops (the process ends, or a
        // test stops a server), they stop too, and its leases run out.
        let app = Arc::downgrade(&app);
        let (cluster, app2, rt2) = (self.clone(), app.clone(), rt.clone());
        std::thread::Builder::new()
            .name("boyi-listen".into())
            .spawn(move || {
                let channels = [channel_of(&cluster.me), OWNERS.to_string()];
                match Listener::connect(&cluster.url, &channels) {
                    Ok(l) => cluster.listen(l, app2, rt2),
                    Err(e) => eprintln!("boyi serve: cannot listen to the other instances: {e}"),
                }
            })
            .map_err(|e| e.to_string())?;
        let cluster = self.clone();
        std::thread::Builder::new()
            .name("boyi-heartbeat".into())
            .spawn(move || {
                let db = boyi_store::Db::Postgres(cluster.url.clone());
                let store = match boyi_store::Store::connect(&db) {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = first_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                let mut beat = Heartbeat {
                    cluster,
                    app,
                    store,
                    sent: HashMap::new(),
                    rt,
                };
                let _ = first_tx.send(beat.once());
                beat.run();
            })
            .map_err(|e| e.to_string())?;
        first
            .recv()
            .map_err(|_| "the heartbeat stopped".to_string())?
    }

    fn listen(self: Arc<Self>, mut listener: Listener, app: Weak<AppState>, rt: Handle) {
        let mut pieces = Pieces::default();
        loop {
            let notes = match listener.wait(Duration::from_secs(1)) {
                Ok(n) => n,
                Err(e) => {
                    eprintln!("boyi serve: lost the other instances ({e}); listening again");
                    std::thread::sleep(Duration::from_millis(500));
                    let channels = [channel_of(&self.me), OWNERS.to_string()];
                    match Listener::connect(&self.url, &channels) {
                        Ok(l) => listener = l,
                        Err(e) => eprintln!("boyi serve: cannot listen: {e}"),
                    }
                    continue;
                }
            };
            let Some(app) = app.upgrade() else { return };
            let _in_runtime = rt.enter();
            for (channel, payload) in notes {
                if channel == OWNERS {
                    if let Some((table, owner)) = payload.split_once(' ') {
                        app.hub.on_owner(table, owner);
                    }
                    continue;
                }
                match pieces.take(&payload) {
                    Ok(Some((from, body))) => match Wire::decode(&body) {
                        Ok(w) => self.receive(&from, w, &app, &rt),
                        Err(e) => eprintln!("boyi serve: a bad message from {from}: {e}"),
                    },
                    Ok(None) => {}
                    Err(e) => eprintln!("boyi serve: a bad notification: {e}"),
                }
            }
        }
    }

    fn receive(self: &Arc<Self>, from: &str, w: Wire, app: &AppState, rt: &Handle) {
        match w {
            Wire::Ask(r) => {
                let (id, out) = self.remote_out(&r.origin, r.conn, rt);
                out.set_version(r.version);
                let cmd = Cmd {
                    conn: id,
                    out,
                    ask: r.ask,
                };
                app.hub.from_elsewhere(&r.table, cmd, &r.origin, r.conn);
            }
            Wire::Out { conn, text } => {
                if let Some((out, _)) = locked(&self.locals).get(&conn) {
                    let _ = out.try_send(text.into());
                }
            }
            Wire::Gone { conn } => {
                locked(&self.remotes).remove(&(from.to_string(), conn));
            }
        }
    }

    /// Passes the request `cmd` of connection `conn` of instance `origin` to the instance
    /// `owner`, which runs `table`.
    pub fn pass_on(&self, owner: &str, table: &str, cmd: &Cmd, origin: &str, conn: u64) {
        let request = Request {
            origin: origin.to_string(),
            conn,
            version: cmd.out.version(),
            table: table.to_string(),
            ask: cmd.ask.clone(),
        };
        self.send(owner, &Wire::Ask(request));
    }

    /// Forgets the connections of instances that are no longer alive.
    fn forget_dead(&self, alive: &[Instance]) {
        let alive: HashSet<&str> = alive.iter().map(|i| i.id.as_str()).collect();
        locked(&self.remotes).retain(|(i, _), _| alive.contains(i.as_str()));
    }
}

/// The heartbeat's state: its own database connection and the lobby lines last published.
struct Heartbeat {
    cluster: Arc<Cluster>,
    app: Weak<AppState>,
    store: boyi_store::Store,
    sent: HashMap<String, String>,
    rt: Handle,
}

impl Heartbeat {
    fn run(mut self) {
        let mut next = Instant::now();
        loop {
            next += HEARTBEAT;
            std::thread::sleep(next.saturating_duration_since(Instant::now()));
            if self.app.strong_count() == 0 {
                return;
            }
            if let Err(e) = self.once() {
                eprintln!("boyi serve: heartbeat: {e}");
                if let Ok(s) =
                    boyi_store::Store::connect(&boyi_store::Db::Postgres(self.cluster.url.clone()))
                {
                    self.store = s;
                }
                next = Instant::now();
            }
        }
    }

    /// Renews the leases, publishes this instance's load and lobby lines, gives up the
    /// games another instance took, and takes the games nobody runs; how many it took.
    fn once(&mut self) -> Result<usize, String> {
        let app = self.app.upgrade().ok_or("the server has stopped")?;
        let (me, hub) = (self.cluster.me.clone(), &app.hub);
        let load = Load {
            connections: app.connections.open() as i64,
            computer_seats: hub.computer_seats_here() as i64,
        };
        let lines = hub.lobby_lines();
        let changed: Vec<(String, String)> = lines
            .iter()
            .filter(|(t, l)| self.sent.get(t) != Some(l))
            .cloned()
            .collect();
        let owned = self
            .store
            .heartbeat(&me, load, &changed)
            .map_err(|e| e.to_string())?;
        self.sent = lines.into_iter().collect();
        let lost = hub.lost(&owned);
        let owners = self.store.owners(&lost).map_err(|e| e.to_string())?;
        {
            // A lease that is gone is a game just finished (the task has not yet said so):
            // only a game another instance holds now is handed over.
            let _in_runtime = self.rt.enter();
            for (table, owner) in &owners {
                if *owner != me {
                    hub.hand_over(table, owner);
                }
            }
        }
        let others = self.store.instances(&me).map_err(|e| e.to_string())?;
        self.cluster.forget_dead(&others);
        *locked(&self.cluster.others) = others;
        let mut orphans = self.store.claim_orphans(&me).map_err(|e| e.to_string())?;
        orphans.extend(hub.not_running(&owned));
        let adopted = {
            let _in_runtime = self.rt.enter();
            hub.adopt(&orphans)
        };
        // A claim announced while a table was first followed here may have been missed.
        let followed = hub.followed();
        let tables: Vec<String> = followed.iter().map(|(t, _)| t.clone()).collect();
        let owners = self.store.owners(&tables).map_err(|e| e.to_string())?;
        let _in_runtime = self.rt.enter();
        for (table, owner) in owners {
            if followed.iter().any(|(t, o)| *t == table && *o != owner) {
                hub.on_owner(&table, &owner);
            }
        }
        Ok(adopted)
    }
}
