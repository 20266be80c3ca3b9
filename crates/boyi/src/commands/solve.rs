//! `boyi solve <game>`: a game's threat solver on a position (Gomoku: VCF, then VCT). Prints
//! `win <kind> <moves>` (the winning line, comma-separated) or `none`.

use super::rules::{PositionArgs, load};
use anyhow::{Result, anyhow};
use boyi_engines::GamePlayers;
use boyi_games::with_game;
use clap::Args;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Time for the search in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub budget_ms: u64,
}

pub fn solve(args: &SolveArgs) -> Result<()> {
    with_game!(args.position.game, G => run::<G>(args))?
}

fn run<G: GamePlayers>(args: &SolveArgs) -> Result<()> {
    let pos: G = load(&args.position)?;
    if let Some(o) = pos.outcome() {
        anyhow::bail!("the game is over ({o})");
    }
    let found = G::solve(&pos, Duration::from_millis(args.budget_ms))
        .ok_or_else(|| anyhow!("{} has no threat solver", G::NAME))?;
    match found {
        Some(s) => println!("win {} {}", s.kind, s.line.join(",")),
        None => println!("none"),
    }
    Ok(())
}
