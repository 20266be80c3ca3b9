//! `boyi engine <game> --protocol P [--player SPEC]`: a Boyi player served over an engine
//! protocol on standard input and output, for engine managers and tournament platforms.

use anyhow::{Context, Result};
use boyi_engines::{BuildContext, Limits};
use boyi_games::{GameKind, with_game};
use boyi_protocol::{Protocol, ServeOptions, serve};
use clap::Args;
use std::io::BufReader;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct EngineArgs {
    /// gomoku, connect6, jiu or xiangqi.
    pub game: GameKind,
    /// gomocup (gomoku), sau (connect6, jiu, gomoku), uci, uci-fsf or ucci (xiangqi).
    #[arg(long)]
    pub protocol: Protocol,
    /// The player served: a built-in spec (boyi:random, boyi:alphabeta?depth=3, ...).
    #[arg(long, default_value = "boyi:alphabeta")]
    pub player: String,
    /// Rule set (e.g. renju); protocols that set the rules themselves may change it.
    #[arg(long)]
    pub variant: Option<String>,
    /// Board size of new games (grid games).
    #[arg(long)]
    pub size: Option<usize>,
    /// Time per move when the protocol gives no limit, in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Depth when the protocol gives no limit.
    #[arg(long)]
    pub depth: Option<u32>,
}

pub fn engine(args: &EngineArgs) -> Result<()> {
    with_game!(args.game, G => serve_game::<G>(args))?
}

fn serve_game<G: boyi_engines::GamePlayers>(args: &EngineArgs) -> Result<()> {
    let variant: G::Variant = match &args.variant {
        Some(v) => v.parse().context("--variant")?,
        None => G::Variant::default(),
    };
    let start = G::start(&variant, args.size).context("--size")?;
    let spec = args
        .player
        .strip_prefix("boyi:")
        .context("--player must be a built-in player, boyi:<name>")?;
    let player = boyi_engines::build::<G>(spec, BuildContext::default()).context("--player")?;
    let opts = ServeOptions {
        start,
        default_limits: Limits {
            depth: args.depth,
            movetime: args.movetime.map(Duration::from_millis),
            ..Limits::default()
        },
        name: "Boyi".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        swap2: G::swap2_hook(),
    };
    let input = BufReader::new(std::io::stdin());
    serve(args.protocol, player, opts, input, std::io::stdout())?;
    Ok(())
}
