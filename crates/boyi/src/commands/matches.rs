//! `boyi match <game> --a SPEC --b SPEC --games N ...`: an engine match in the arena.

use anyhow::{Context, Result, bail};
use boyi_arena::{MatchConfig, PlayerSpec, Sprt, TimeControl, openings};
use boyi_engines::{GameHistory, Limits};
use boyi_games::{GameKind, with_game};
use boyi_protocol::driver::ExternalOptions;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// gomoku, connect6, jiu or xiangqi.
    pub game: GameKind,
    /// Player A: boyi:<name>[?key=value,...] or cmd:"<command line>"@<protocol>.
    #[arg(long)]
    pub a: String,
    /// Player B, as --a.
    #[arg(long)]
    pub b: String,
    /// Number of games.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Clock per player: [moves/]base[+increment] in seconds, e.g. 10+0.1.
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Openings file: one position text or comma-separated move list per line.
    #[arg(long, conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
    /// Random legal plies played before the players take over (same for both colour orders).
    #[arg(long)]
    pub random_plies: Option<usize>,
    /// Rule set within the game.
    #[arg(long)]
    pub variant: Option<String>,
    /// Board size (grid games).
    #[arg(long)]
    pub size: Option<usize>,
    /// Directory for the game records (one file per game).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Stop when decided: elo0,elo1,alpha,beta.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Seed of the openings and of the built-in players' randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Draw a game after this many plies.
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Opening rule: `swap2` (Gomoku) lets the players place and choose the opening stones:
    /// A opens in even games, B in odd ones.
    #[arg(long, value_parser = ["none", "swap2"], conflicts_with_all = ["openings", "random_plies"])]
    pub opening_rule: Option<String>,
    /// Milliseconds an engine may overrun its time before it loses on time.
    #[arg(long, default_value_t = 1000)]
    pub margin: u64,
}

pub fn run(args: &MatchArgs) -> Result<()> {
    with_game!(args.game, G => run_game::<G>(args))?
}

fn run_game<G: boyi_engines::GamePlayers>(args: &MatchArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let variant: G::Variant = match &args.variant {
        Some(v) => v.parse().context("--variant")?,
        None => G::Variant::default(),
    };
    let start = G::start(&variant, args.size).context("--size")?;
    let pairs = args.games.div_ceil(2);
    let openings = match (&args.openings, args.random_plies) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("--openings {}", path.display()))?;
            openings::parse_openings(&start, &text).context("--openings")?
        }
        (None, Some(p)) if p > 0 => openings::random_openings(&start, p, pairs, args.seed),
        _ => vec![GameHistory::new(start)],
    };
    let margin = Duration::from_millis(args.margin);
    let cfg = MatchConfig {
        players: [
            PlayerSpec::parse(&args.a).context("--a")?,
            PlayerSpec::parse(&args.b).context("--b")?,
        ],
        games: args.games,
        concurrency: args.concurrency,
        limits: Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: args.movetime.map(Duration::from_millis),
            ..Limits::default()
        },
        tc: args.tc.as_deref().map(TimeControl::parse).transpose()?,
        openings,
        seed: args.seed,
        external: ExternalOptions {
            margin,
            ..ExternalOptions::default()
        },
        time_margin: margin,
        max_plies: args.max_plies,
        sprt: args.sprt.as_deref().map(Sprt::parse).transpose()?,
        swap2: args.opening_rule.as_deref() == Some("swap2"),
    };
    let mut out = std::io::stdout().lock();
    boyi_arena::report::run_and_report(&cfg, args.out.as_deref(), &mut out)?;
    Ok(())
}
