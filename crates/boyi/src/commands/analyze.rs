//! `boyi analyze`: one search of a built-in player on a position, printing its thinking and
//! last the `score … bestmove …` line of positions.md. Works for every game whose rules type
//! implements `GamePlayers`.

use super::rules::{PositionArgs, load};
use anyhow::{Context, Result, anyhow};
use boyi_engines::{BuildContext, GameHistory, GamePlayers, Info, Limits, Score, StopFlag, build};
use boyi_games::with_game;
use clap::Args;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Search to this depth.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search for this many milliseconds. With no --depth, --nodes or --movetime the player
    /// searches to its own default depth, stopped after 10 s.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// The player (default: the game's strongest built-in player), e.g. `boyi:strong`.
    #[arg(long)]
    pub player: Option<String>,
}

/// The longest an analysis given no limit may take.
const DEFAULT_CAP: Duration = Duration::from_secs(10);

pub fn analyze(args: &AnalyzeArgs) -> Result<()> {
    with_game!(args.position.game, G => run::<G>(args))?
}

/// The part of a player spec after `boyi:`; other kinds of players are not analysed here.
pub fn builtin_spec<'a>(spec: Option<&'a str>, default: &'a str) -> Result<&'a str> {
    match spec {
        None => Ok(default),
        Some(s) => s.strip_prefix("boyi:").ok_or_else(|| {
            anyhow!("player {s:?}: only built-in players (boyi:…) can be used here")
        }),
    }
}

/// One thinking line: `info depth D score S nodes N nps X time MS pv …`.
pub fn info_line(i: &Info) -> String {
    let mut s = String::from("info");
    if let Some(d) = i.depth {
        s.push_str(&format!(" depth {d}"));
    }
    if let Some(v) = i.score {
        s.push_str(&format!(" score {v}"));
    }
    if let Some(n) = i.nodes {
        s.push_str(&format!(" nodes {n}"));
    }
    if let Some(n) = i.nps {
        s.push_str(&format!(" nps {n}"));
    }
    if let Some(t) = i.time {
        s.push_str(&format!(" time {}", t.as_millis()));
    }
    if !i.pv.is_empty() {
        s.push_str(&format!(" pv {}", i.pv.join(",")));
    }
    if let Some(t) = &i.text {
        s.push_str(&format!(" string {t}"));
    }
    s
}

fn run<G: GamePlayers>(args: &AnalyzeArgs) -> Result<()> {
    let pos: G = load(&args.position)?;
    if let Some(o) = pos.outcome() {
        anyhow::bail!("the game is over ({o})");
    }
    let spec = builtin_spec(args.player.as_deref(), G::default_player())?;
    let mut player = build::<G>(spec, BuildContext::default()).context("--player")?;
    let unlimited = args.depth.is_none() && args.nodes.is_none() && args.movetime.is_none();
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        max_time: unlimited.then_some(DEFAULT_CAP),
        ..Limits::default()
    };
    let stop = StopFlag::new();
    let _cap = limits.cap().map(|d| stop.stop_after(d));
    let mut score = None;
    let mv = player
        .choose(
            &GameHistory::new(pos.clone()),
            &limits,
            &stop,
            &mut |i: Info| {
                outln!("{}", info_line(&i));
                if i.score.is_some() {
                    score = i.score;
                }
            },
        )
        .map_err(|e| anyhow!("{}: {e}", player.name()))?;
    outln!(
        "score {} bestmove {}",
        score.unwrap_or(Score::Units(0)),
        pos.format_move(&mv)
    );
    Ok(())
}
