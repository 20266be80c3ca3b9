//! `boyi bench <game>`: the game's fixed bench positions searched to fixed depths by its
//! default player. The total node count is a signature of the search (it changes only when the
//! search does); nodes per second measure speed.

use super::analyze::builtin_spec;
use anyhow::{Context, Result, anyhow};
use boyi_engines::{BuildContext, GameHistory, GamePlayers, Limits, StopFlag, build};
use boyi_games::{GameKind, with_game};
use clap::Args;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// gomoku, connect6, jiu or xiangqi.
    pub game: GameKind,
    /// The player (default: the game's strongest built-in player).
    #[arg(long)]
    pub player: Option<String>,
    /// Add this to every position's depth (negative: shallower).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub depth_offset: i32,
}

pub fn bench(args: &BenchArgs) -> Result<()> {
    with_game!(args.game, G => run::<G>(args))?
}

fn run<G: GamePlayers>(args: &BenchArgs) -> Result<()> {
    let spec = builtin_spec(args.player.as_deref(), G::default_player())?;
    let mut total = 0u64;
    let started = Instant::now();
    for (n, bp) in G::bench_positions().iter().enumerate() {
        let variant: G::Variant = match bp.variant {
            Some(v) => v.parse()?,
            None => G::Variant::default(),
        };
        let pos = G::from_text(&variant, &bp.position)
            .with_context(|| format!("bench position {}", n + 1))?;
        let mut player = build::<G>(spec, BuildContext::default()).context("--player")?;
        let depth = (bp.depth as i32 + args.depth_offset).max(1) as u32;
        let mut nodes = 0;
        let t = Instant::now();
        let mv = player
            .choose(
                &GameHistory::new(pos.clone()),
                &Limits::depth(depth),
                &StopFlag::new(),
                &mut |i| nodes = i.nodes.unwrap_or(nodes),
            )
            .map_err(|e| anyhow!("bench position {}: {e}", n + 1))?;
        outln!(
            "position {} depth {depth} nodes {nodes} time {:.3} bestmove {}",
            n + 1,
            t.elapsed().as_secs_f64(),
            pos.format_move(&mv)
        );
        total += nodes;
    }
    let secs = started.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (total as f64 / secs) as u64
    } else {
        0
    };
    outln!("nodes {total} time {secs:.3} nps {nps}");
    Ok(())
}
