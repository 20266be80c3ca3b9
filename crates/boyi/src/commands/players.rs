//! `boyi players [GAME] [NAME]`: the built-in players of each game with every option's values,
//! default and help, from the players' own option tables.

use anyhow::{Result, bail};
use boyi_engines::GamePlayers;
use boyi_engines::registry::{player_def, player_names, players_of};
use boyi_games::{GameKind, with_game};
use clap::Args;

#[derive(Args, Debug)]
pub struct PlayersArgs {
    /// gomoku, connect6, jiu or xiangqi (default: all four).
    pub game: Option<GameKind>,
    /// One player's name (e.g. strong): only its help.
    pub name: Option<String>,
}

pub fn run(args: &PlayersArgs) -> Result<()> {
    let games = match args.game {
        Some(g) => vec![g],
        None => GameKind::ALL.to_vec(),
    };
    for game in games {
        with_game!(game, G => list::<G>(args.name.as_deref()))??;
    }
    Ok(())
}

fn list<G: GamePlayers>(name: Option<&str>) -> Result<()> {
    match name {
        Some(name) => match player_def::<G>(name) {
            Some(def) => out!("{}: {}", G::NAME, def.help()),
            None => bail!(
                "{} has no player boyi:{name} (players: {})",
                G::NAME,
                player_names::<G>()
            ),
        },
        None => {
            outln!("{} (default boyi:{})", G::NAME, G::default_player());
            for def in players_of::<G>() {
                out!("{}", def.help());
            }
            outln!("");
        }
    }
    Ok(())
}
