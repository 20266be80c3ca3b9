//! `boyi serve`: the web server with its embedded page and SQLite database.

use anyhow::{Context, Result};
use boyi_server::{Config, external::Engines, limits::Limits, tls::TlsFiles};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (`0.0.0.0:8080` lets people on the network join).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Game database, every game written to it as played: an SQLite file (created if
    /// missing) or a postgres:// URL (docs/server.md, "Several instances").
    #[arg(long, default_value = boyi_store::DEFAULT_PATH)]
    pub db: boyi_store::Db,
    /// WebSocket connections one address may hold at once.
    #[arg(long, default_value_t = Limits::default().connections_per_ip)]
    pub max_connections_per_ip: usize,
    /// New connections one address may open per minute.
    #[arg(long, default_value_t = Limits::default().connects_per_minute)]
    pub connects_per_minute: f64,
    /// Messages per second one connection may send on average.
    #[arg(long, default_value_t = Limits::default().messages_per_second)]
    pub messages_per_second: f64,
    /// Messages one connection may send in a burst.
    #[arg(long, default_value_t = Limits::default().message_burst)]
    pub message_burst: f64,
    /// Largest photo `/api/photo` reads, in megapixels: a larger one is refused from its
    /// header, before it is decoded.
    #[arg(long, default_value_t = super::vision::DEFAULT_MAX_MEGAPIXELS)]
    pub photo_max_megapixels: f64,
    /// Computer seats one connection may have in games in progress.
    #[arg(long, default_value_t = Limits::default().computer_seats_per_connection)]
    pub computer_seats_per_connection: usize,
    /// Computer seats in games in progress on the whole server (default: 4 per core).
    #[arg(long, default_value_t = Limits::default().computer_seats)]
    pub computer_seats: usize,
    /// On PostgreSQL with several instances: connections on all of them together (default:
    /// no bound beyond each instance's own).
    #[arg(long)]
    pub total_connections: Option<usize>,
    /// On PostgreSQL with several instances: computer seats in games in progress on all of
    /// them together (default: no bound beyond each instance's --computer-seats).
    #[arg(long)]
    pub total_computer_seats: Option<usize>,
    /// A load balancer in front of this server (repeatable): the per-address limits count
    /// the client address its X-Forwarded-For header gives, not the balancer's.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Analyses one connection may run at once.
    #[arg(long, default_value_t = Limits::default().analyses_per_connection)]
    pub analyses_per_connection: usize,
    /// Analyses running at once on the whole server (default: 1 per core).
    #[arg(long, default_value_t = Limits::default().analyses)]
    pub analyses: usize,
    /// Longest thinking time per move of a computer seat or an analysis, in milliseconds.
    #[arg(long, default_value_t = Limits::default().max_think_ms)]
    pub max_think_ms: u64,
    /// Frames per second one Camera page session may send to /api/camera, on average.
    #[arg(long, default_value_t = Limits::default().camera_frames_per_second)]
    pub camera_frames_per_second: f64,
    /// Camera page sessions one address may hold at once.
    #[arg(long, default_value_t = Limits::default().camera_sessions_per_ip)]
    pub camera_sessions_per_ip: usize,
    /// An external engine tables may seat as the computer player `engine:NAME`, e.g.
    /// `--engine pbrain=cmd:"./pbrain-x"@gomocup` (repeatable). Only these command lines are
    /// ever run; clients can choose among them but never give their own.
    #[arg(long = "engine", value_name = "NAME=cmd:\"COMMAND\"@PROTOCOL")]
    pub engines: Vec<String>,
    /// Seconds a table nobody has moved at stays in the lobby after its last change (its
    /// link still works afterwards).
    #[arg(long, default_value_t = boyi_server::hub::LOBBY_IDLE.as_secs())]
    pub lobby_idle_seconds: u64,
    /// Serve HTTPS with this certificate chain (PEM, the server's certificate first), e.g. so
    /// a phone on the network may use its camera on the Camera page; with --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM: PKCS#8, PKCS#1 or SEC1).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
}

pub fn run(args: &ServeArgs) -> Result<()> {
    if args.max_think_ms < 10 {
        anyhow::bail!("--max-think-ms must be at least 10");
    }
    if !(args.camera_frames_per_second > 0.0 && args.camera_frames_per_second <= 60.0) {
        anyhow::bail!(
            "--camera-frames-per-second {} must be above 0 and at most 60",
            args.camera_frames_per_second
        );
    }
    let engines = Engines::parse(&args.engines).map_err(anyhow::Error::msg)?;
    let config = Config {
        addr: args.addr,
        db: args.db.clone(),
        limits: Limits {
            connections_per_ip: args.max_connections_per_ip,
            connects_per_minute: args.connects_per_minute,
            messages_per_second: args.messages_per_second,
            message_burst: args.message_burst,
            photo_max_pixels: super::vision::max_pixels(args.photo_max_megapixels)
                .context("--photo-max-megapixels")?,
            computer_seats_per_connection: args.computer_seats_per_connection,
            computer_seats: args.computer_seats,
            analyses_per_connection: args.analyses_per_connection,
            analyses: args.analyses,
            max_think_ms: args.max_think_ms,
            camera_frames_per_second: args.camera_frames_per_second,
            camera_frame_burst: 2.0 * args.camera_frames_per_second,
            camera_sessions_per_ip: args.camera_sessions_per_ip,
            total_connections: args.total_connections.unwrap_or(usize::MAX),
            total_computer_seats: args.total_computer_seats.unwrap_or(usize::MAX),
            ..Limits::default()
        },
        trusted_proxies: args.trusted_proxies.clone(),
        engines,
        lobby_idle: std::time::Duration::from_secs(args.lobby_idle_seconds),
        tls: match (&args.tls_cert, &args.tls_key) {
            (Some(cert), Some(key)) => Some(TlsFiles {
                cert: cert.clone(),
                key: key.clone(),
            }),
            _ => None,
        },
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let running = boyi_server::start(config.clone())
            .await
            .with_context(|| format!("starting the server on {}", config.addr))?;
        // One write: whoever waits for this line (a script, a test) reads it whole.
        let ready = format!(
            "boyi serve: {}://{} (database {}, {} unfinished game(s) resumed)\n",
            if running.tls { "https" } else { "http" },
            running.addr,
            config.db,
            running.resumed
        );
        eprint!("{ready}");
        let result = tokio::select! {
            r = running.wait() => r,
            _ = tokio::signal::ctrl_c() => Ok(()),
        };
        // External engines of computer seats run in process groups of their own.
        boyi_protocol::process::end_all();
        result
    })
}
