//! `boyi play <game>`: a game in the terminal — a text board, moves typed in the game's
//! notation, against the computer or between two people at one keyboard.

use crate::commands::analyze::any_player;
use crate::commands::rules::{PositionArgs, load};
use anyhow::{Context, Result, bail};
use boyi_core::{Game, RenderOptions, Side};
use boyi_engines::{GameHistory, GamePlayers, Info, Limits, Player, StopFlag};
use boyi_games::with_game;
use clap::Args;
use std::io::BufRead;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The side the computer plays: the side that moves second (default), `first`, `second`,
    /// `black`, `white`, `red`, or `none` for two people at one keyboard.
    #[arg(long, default_value = "second")]
    pub computer: String,
    /// The computer's player (default: the game's strongest, boyi:strong): a built-in spec
    /// `boyi:…` (`boyi players` lists them) or an external engine `cmd:"<command line>"@<protocol>`.
    #[arg(long)]
    pub player: Option<String>,
    /// The computer's thinking time per move, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub think_ms: u64,
    /// Chinese piece names on the board (xiangqi).
    #[arg(long)]
    pub chinese: bool,
}

pub fn run(args: &PlayArgs) -> Result<()> {
    with_game!(args.position.game, G => play::<G>(args))?
}

/// Which side the computer plays, from `--computer`.
fn computer_side<G: Game>(text: &str, first: Side) -> Result<Option<Side>> {
    Ok(match text {
        "none" => None,
        "first" => Some(first),
        "second" => Some(first.opponent()),
        "black" => Some(Side::Black),
        "white" => Some(Side::White),
        other if other == G::side_name(Side::White) => Some(Side::White),
        other if other == G::side_name(Side::Black) => Some(Side::Black),
        other => bail!("--computer {other:?}: expected none, first, second or a side name"),
    })
}

fn play<G: GamePlayers>(args: &PlayArgs) -> Result<()> {
    let start: G = load(&args.position)?;
    let computer = computer_side::<G>(&args.computer, start.side_to_move())?;
    let mut engine: Box<dyn Player<G>> =
        any_player::<G>(args.player.as_deref()).context("--player")?;
    let mut game = GameHistory::new(start);
    let opts = RenderOptions {
        chinese: args.chinese,
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    outln!("Type a move, or: undo, moves, help, quit.");
    loop {
        outln!("\n{}", game.current().render(&opts));
        if let Some(o) = game.current().outcome() {
            outln!("Game over: {o}");
            outln!("Moves: {}", game.move_texts().join(","));
            return Ok(());
        }
        let side = game.current().side_to_move();
        if computer == Some(side) {
            let limits = Limits {
                movetime: Some(Duration::from_millis(args.think_ms)),
                ..Limits::default()
            };
            let mut show = |i: Info| {
                if let (Some(d), Some(s)) = (i.depth, i.score) {
                    outln!("  depth {d} score {s} pv {}", i.pv.join(" "));
                }
            };
            let mv = engine.choose(&game, &limits, &StopFlag::new(), &mut show)?;
            outln!(
                "{} plays {}",
                engine.name(),
                game.current().format_move(&mv)
            );
            game.push(mv);
            continue;
        }
        // `out!` flushes, so the prompt shows before the input is read.
        out!("{} to move> ", G::side_name(side));
        let Some(line) = lines.next() else {
            return Ok(());
        };
        let line = line?;
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" => outln!(
                "Moves are written as `boyi moves {}` lists them. undo takes back your last move (and the computer's reply).",
                G::NAME
            ),
            "moves" => {
                let pos = game.current();
                let mut list: Vec<String> = pos
                    .legal_moves()
                    .iter()
                    .map(|m| pos.format_move(m))
                    .collect();
                list.sort();
                outln!("{}", list.join(" "));
            }
            "undo" => {
                if game.pop().is_none() {
                    outln!("nothing to take back");
                }
                while computer.is_some() && computer == Some(game.current().side_to_move()) {
                    if game.pop().is_none() {
                        break;
                    }
                }
            }
            text => match game.push_text(text) {
                Ok(_) => {}
                Err(e) => outln!("not played: {e}"),
            },
        }
    }
}
