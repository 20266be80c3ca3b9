//! `boyi solve <game>`: a game's threat solver on a position (Gomoku: VCF, then VCT). Prints
//! `win <kind> <moves>` (the winning line, comma-separated) or `none`, then the
//! `score … bestmove …` line of `boyi analyze`: `mate <n>` for a VCF; for a VCT, whose length
//! is not measured, the engines' win bound 999000; with no win, the default player's search
//! over a quarter of the budget.

use super::analyze::builtin_spec;
use super::rules::{PositionArgs, load};
use anyhow::{Context, Result, anyhow};
use boyi_engines::{BuildContext, GameHistory, GamePlayers, Info, Limits, Score, StopFlag, build};
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
        Some(s) => {
            outln!("win {} {}", s.kind, s.line.join(","));
            let score = match s.moves {
                Some(n) => Score::Mate(n as i32),
                None => Score::Units(WIN_BOUND),
            };
            outln!("score {score} bestmove {}", s.line[0]);
        }
        None => {
            outln!("none");
            let (score, mv) = search(&pos, Duration::from_millis(args.budget_ms / 4 + 1))?;
            outln!("score {score} bestmove {mv}");
        }
    }
    Ok(())
}

/// The value of a forced win whose length is not known, in the engines' units.
const WIN_BOUND: i32 = boyi_engines::alphabeta::MATE - 1000;

/// The default player's score and move after `time`.
fn search<G: GamePlayers>(pos: &G, time: Duration) -> Result<(Score, String)> {
    let spec = builtin_spec(None, G::default_player())?;
    let mut player = build::<G>(spec, BuildContext::default()).context("default player")?;
    let limits = Limits {
        movetime: Some(time),
        ..Limits::default()
    };
    let mut score = Score::Units(0);
    let mv = player
        .choose(
            &GameHistory::new(pos.clone()),
            &limits,
            &StopFlag::new(),
            &mut |i: Info| score = i.score.unwrap_or(score),
        )
        .map_err(|e| anyhow!("{}: {e}", player.name()))?;
    Ok((score, pos.format_move(&mv)))
}
