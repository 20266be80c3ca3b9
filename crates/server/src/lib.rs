//! The Boyi web server (`boyi serve`): people play every game in the browser — on one screen,
//! over the network with an invitation link, against the computer — and watch engine games.
//!
//! - [`http`]: the page (embedded at compile time), the lobby, stored games and records;
//! - [`ws`]: one WebSocket connection speaking the JSON protocol of docs/protocol.md;
//! - [`hub`], [`table`], [`seat`]: tables, each a task that owns one game and its seats;
//! - [`games`]: what the page needs from each game beyond the rules;
//! - [`analysis`]: the analysis board's position checks and engine runs;
//! - [`photo`], [`camera`]: boards read from photos, and games followed through a camera;
//! - [`review`]: a game's every position looked at by the strongest engine, moves judged;
//! - [`store`]: the database (SQLite or PostgreSQL) every change is written to before anyone
//!   sees it;
//! - [`cluster`]: several instances on one PostgreSQL database, each game run by one of them;
//! - [`limits`]: connection and message bounds per client;
//! - [`budget`]: the computing clients may ask for (computer seats, analyses, think time).

pub mod analysis;
pub mod budget;
pub mod camera;
pub mod cluster;
pub mod external;
pub mod games;
pub mod http;
pub mod hub;
pub mod limits;
pub mod photo;
pub mod protocol;
mod reply;
pub mod review;
pub mod seat;
pub mod store;
pub mod table;
pub mod tls;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Config {
    pub addr: SocketAddr,
    pub db: boyi_store::Db,
    pub limits: limits::Limits,
    /// External engines tables may seat (`engine:NAME`).
    pub engines: external::Engines,
    /// How long a table nobody has moved at stays in the lobby after its last change.
    pub lobby_idle: std::time::Duration,
    /// HTTPS with these files; plain HTTP without.
    pub tls: Option<tls::TlsFiles>,
    /// Load balancers whose `X-Forwarded-For` names the client (the limits per address
    /// then count the client's address, not the balancer's).
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: boyi_store::Db::Sqlite(boyi_store::DEFAULT_PATH.into()),
            limits: limits::Limits::default(),
            engines: external::Engines::default(),
            lobby_idle: hub::LOBBY_IDLE,
            tls: None,
            trusted_proxies: Vec::new(),
        }
    }
}

/// What every request handler shares.
pub struct AppState {
    pub hub: hub::Hub,
    pub limits: limits::Limits,
    pub connections: limits::Connections,
    /// Photo reads running now (bounded: each is seconds of CPU).
    pub photo_reads: tokio::sync::Semaphore,
    /// Analyses running now, on every connection.
    pub analyses: budget::Pool,
    /// The camera page's sessions.
    pub cameras: camera::Cameras,
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

/// A server that is listening.
pub struct Running {
    pub addr: SocketAddr,
    /// Whether it speaks HTTPS.
    pub tls: bool,
    /// Unfinished games brought back from the database at start.
    pub resumed: usize,
    serve: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// Serves until the listener fails.
    pub async fn wait(self) -> anyhow::Result<()> {
        self.serve.await??;
        Ok(())
    }
}

/// Opens the database, resumes unfinished games and starts listening (inside a tokio runtime).
pub async fn start(config: Config) -> anyhow::Result<Running> {
    // The TLS files are checked before the database is opened.
    let tls = config
        .tls
        .as_ref()
        .map(tls::server_config)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    // SQLite's errors name the file already; a PostgreSQL error is told which database.
    let named = |e: String| match &config.db {
        boyi_store::Db::Postgres(_) => anyhow::anyhow!("{}: {e}", config.db),
        boyi_store::Db::Sqlite(_) => anyhow::anyhow!(e),
    };
    // On PostgreSQL every server is an instance of a cluster, of one or of many.
    let store = store::Store::open(&config.db, None).map_err(|e| named(e.to_string()))?;
    drop(store); // migrated before the cluster's tables are used
    let cluster = match &config.db {
        boyi_store::Db::Postgres(url) => Some(cluster::Cluster::new(url).map_err(named)?),
        boyi_store::Db::Sqlite(_) => None,
    };
    let owner = cluster.as_ref().map(|c| c.me.clone());
    let store = store::Store::open(&config.db, owner).map_err(|e| named(e.to_string()))?;
    let hub = hub::Hub::new(
        store,
        Arc::new(config.engines.clone()),
        config.limits,
        config.lobby_idle,
        cluster.clone(),
    );
    let state = Arc::new(AppState {
        hub,
        limits: config.limits,
        connections: limits::Connections::new(config.limits),
        photo_reads: tokio::sync::Semaphore::new(photo::CONCURRENT_READS),
        analyses: budget::Pool::new(config.limits.analyses),
        cameras: camera::Cameras::default(),
        trusted_proxies: config.trusted_proxies.clone(),
    });
    let resumed = match &cluster {
        Some(c) => c.start(state.clone()).map_err(named)?,
        None => state.hub.resume_all().map_err(anyhow::Error::msg)?,
    };
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    let app = http::router(state).into_make_service_with_connect_info::<SocketAddr>();
    let secure = tls.is_some();
    let serve = match tls {
        None => {
            // Moves are small messages each waited for: sent at once, not gathered.
            let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
                let _ = tcp.set_nodelay(true);
            });
            tokio::spawn(async move { axum::serve(listener, app).await })
        }
        Some(tls) => {
            let listener = listener.into_std()?;
            let server = axum_server::from_tcp_rustls(
                listener,
                axum_server::tls_rustls::RustlsConfig::from_config(tls),
            )?;
            tokio::spawn(async move { server.serve(app).await })
        }
    };
    Ok(Running {
        addr,
        tls: secure,
        resumed,
        serve,
    })
}
