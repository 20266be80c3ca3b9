//! `boyi moves`, `boyi perft`, `boyi show`: the rules of every game from the command line.

use anyhow::{Context, Result};
use boyi_core::{Game, RenderOptions, perft};
use boyi_games::{GameKind, with_game};
use clap::Args;
use std::io::Write;
use std::time::Instant;

/// A position: a game, its variant, a start (default or text) and moves played from it.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// gomoku, connect6, jiu or xiangqi.
    pub game: GameKind,
    /// Rule set within the game (gomoku: freestyle, standard, renju; connect6: fives, icga).
    #[arg(long)]
    pub variant: Option<String>,
    /// Board size for the start position (grid games).
    #[arg(long)]
    pub size: Option<usize>,
    /// Position text (positions.md); default: the start position.
    #[arg(long)]
    pub position: Option<String>,
    /// Comma-separated moves played from the position.
    #[arg(long)]
    pub moves: Option<String>,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[arg(long)]
    pub depth: u32,
    /// One line per legal move with its count.
    #[arg(long)]
    pub divide: bool,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Chinese piece names (xiangqi).
    #[arg(long)]
    pub chinese: bool,
}

/// Builds the position the arguments describe.
/// The rule set `--variant` names, or the game's default.
pub fn variant<G: Game>(args: &PositionArgs) -> Result<G::Variant> {
    match &args.variant {
        Some(v) => v
            .parse()
            .with_context(|| format!("--variant for {}", G::NAME)),
        None => Ok(G::Variant::default()),
    }
}

pub fn load<G: Game>(args: &PositionArgs) -> Result<G> {
    let variant = variant::<G>(args)?;
    let mut pos = match &args.position {
        Some(text) => {
            if args.size.is_some() {
                anyhow::bail!(
                    "--size applies to the start position; --position gives its own size"
                );
            }
            G::from_text(&variant, text).context("--position")?
        }
        None => G::start(&variant, args.size).context("--size")?,
    };
    if let Some(list) = &args.moves {
        pos.play_list(list).context("--moves")?;
    }
    Ok(pos)
}

pub fn moves(args: &PositionArgs) -> Result<()> {
    with_game!(args.game, G => {
        let pos: G = load(args)?;
        let mut lines: Vec<String> = pos.legal_moves().iter().map(|m| pos.format_move(m)).collect();
        lines.sort();
        let mut out = std::io::stdout().lock();
        for line in lines {
            writeln!(out, "{line}")?;
        }
        Ok::<(), anyhow::Error>(())
    })?
}

pub fn perft(args: &PerftArgs) -> Result<()> {
    with_game!(args.position.game, G => {
        let mut pos: G = load(&args.position)?;
        let started = Instant::now();
        let mut out = std::io::stdout().lock();
        let nodes = if args.divide {
            let lines = perft::divide(&mut pos, args.depth);
            for (mv, n) in &lines {
                writeln!(out, "{mv}: {n}")?;
            }
            if args.depth == 0 { 1 } else { lines.iter().map(|(_, n)| n).sum() }
        } else {
            pos.perft(args.depth)
        };
        let secs = started.elapsed().as_secs_f64();
        let nps = if secs > 0.0 { (nodes as f64 / secs) as u64 } else { 0 };
        writeln!(out, "nodes {nodes} time {secs:.3} nps {nps}")?;
        Ok::<(), anyhow::Error>(())
    })?
}

pub fn show(args: &ShowArgs) -> Result<()> {
    with_game!(args.position.game, G => {
        let pos: G = load(&args.position)?;
        out!("{}", pos.render(&RenderOptions { chinese: args.chinese }));
        Ok::<(), anyhow::Error>(())
    })?
}
