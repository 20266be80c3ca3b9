//! `boyi analyze`: one search of a player — built in, or an external engine driven over its
//! protocol — on a position, printing its thinking and last the `score … bestmove …` line of
//! positions.md. Works for every game whose rules type implements `GamePlayers`.

use super::rules::{PositionArgs, load, variant};
use anyhow::{Context, Result, anyhow};
use boyi_engines::{GameHistory, GamePlayers, Info, Limits, Player, StopFlag};
use boyi_games::with_game;
use boyi_protocol::PlayerSpec;
use boyi_protocol::driver::ExternalOptions;
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
    /// The player (default: the game's strongest built-in player): `boyi:<name>[?options]`
    /// (`boyi players` lists names and options),
    /// or an external engine `cmd:"<command line>"@<protocol>` (its own score and move).
    #[arg(long)]
    pub player: Option<String>,
    /// Analyse every position of this file instead (position text, one a line; empty lines
    /// and lines starting with `#` skipped), printing one `score … bestmove …` line each, or
    /// `error line N: …` for a position that cannot be analysed.
    #[arg(long, conflicts_with_all = ["position", "moves", "size"])]
    pub positions: Option<std::path::PathBuf>,
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

/// The player `spec` names (built in, or an external engine started here), or the game's
/// default built-in player.
pub fn any_player<G: GamePlayers>(spec: Option<&str>) -> Result<Box<dyn Player<G>>> {
    let spec = match spec {
        Some(s) => PlayerSpec::parse(s)?,
        None => PlayerSpec::Builtin(G::default_player().to_string()),
    };
    Ok(spec.build::<G>(0, ExternalOptions::default())?)
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
    let mut player = any_player::<G>(args.player.as_deref()).context("--player")?;
    let unlimited = args.depth.is_none() && args.nodes.is_none() && args.movetime.is_none();
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        max_time: unlimited.then_some(DEFAULT_CAP),
        ..Limits::default()
    };
    let Some(path) = &args.positions else {
        let pos: G = load(&args.position)?;
        let line = search(player.as_mut(), pos, &limits, &mut |i| {
            outln!("{}", info_line(&i))
        })?;
        outln!("{line}");
        return Ok(());
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("--positions {}", path.display()))?;
    let variant = variant::<G>(&args.position)?;
    let mut failed = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let result = G::from_text(&variant, line)
            .map_err(anyhow::Error::from)
            .and_then(|pos| {
                player.new_game();
                search(player.as_mut(), pos, &limits, &mut |_| {})
            });
        match result {
            Ok(result) => outln!("{result}"),
            Err(e) => {
                failed += 1;
                outln!("error line {}: {e:#}", n + 1);
            }
        }
    }
    if failed > 0 {
        anyhow::bail!(
            "{failed} position(s) of {} could not be analysed",
            path.display()
        );
    }
    Ok(())
}

/// One search of `pos`: the `score … bestmove …` line (`score none` when the player reported
/// no value), thinking given to `each`.
fn search<G: GamePlayers>(
    player: &mut dyn Player<G>,
    pos: G,
    limits: &Limits,
    each: &mut dyn FnMut(Info),
) -> Result<String> {
    if let Some(o) = pos.outcome() {
        anyhow::bail!("the game is over ({o})");
    }
    let stop = StopFlag::new();
    let _cap = limits.cap().map(|d| stop.stop_after(d));
    let mut score = None;
    let mv = player
        .choose(
            &GameHistory::new(pos.clone()),
            limits,
            &stop,
            &mut |i: Info| {
                if i.score.is_some() {
                    score = i.score;
                }
                each(i);
            },
        )
        .map_err(|e| anyhow!("{}: {e}", player.name()))?;
    // A player that reports no value (a seed player; Rapfi when it answers a found win at
    // once) says so rather than seeming to call the position even.
    let score = score.map_or("none".to_string(), |s| s.to_string());
    Ok(format!("score {score} bestmove {}", pos.format_move(&mv)))
}
