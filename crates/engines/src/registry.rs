//! Built-in players by name. A spec is `boyi:<name>` with optional options after `?`,
//! comma-separated `key=value` pairs: `boyi:alphabeta?depth=3,width=8`, `boyi:random?seed=7`.
//! Unknown names and options are errors that list what exists.
//!
//! New players (the strong engines, the seed baselines) are added as one entry of
//! [`PLAYERS`] and one arm of [`build`].

use crate::alphabeta::AlphaBeta;
use crate::eval::{LinePatterns, Material, NoEval};
pub use crate::options::BuiltinSpec;
use crate::options::{OptionDef, PlayerDef};
use crate::player::Player;
use crate::random::RandomPlayer;
use boyi_core::{Game, TextError};

/// The built-in players of every game.
pub const PLAYERS: &[PlayerDef] = &[
    PlayerDef::new(
        "random",
        "a uniformly random legal move",
        &[OptionDef::seed("seed of the choices")],
    ),
    PlayerDef::new(
        "alphabeta",
        "fixed-depth alpha-beta with material (xiangqi, jiu) or line patterns (gomoku, connect6)",
        &[
            OptionDef::int("depth", 1, 100, 2, "plies searched"),
            OptionDef::int("width", 0, 1000, 0, "moves searched per node (0: all)"),
        ],
    ),
];

/// What the caller knows when it builds a player.
#[derive(Debug, Clone, Copy, Default)]
pub struct BuildContext {
    /// Seed for players that use randomness, unless the spec sets its own (the arena gives each
    /// game its own, so random players do not repeat themselves).
    pub seed: u64,
}

/// One position of `boyi bench`: a variant (`None`: the default), a position text, and the
/// depth it is searched to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchPosition {
    pub variant: Option<&'static str>,
    pub position: String,
    pub depth: u32,
}

/// A forced win found by a game's threat solver (`boyi solve`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The kind of win, e.g. `vcf` or `vct`.
    pub kind: &'static str,
    /// The winning line as canonical move texts (at least the first move).
    pub line: Vec<String>,
    /// The winner's moves to the win, when the line is complete (a VCF).
    pub moves: Option<u32>,
}

/// The players a game has beyond the generic ones: its strong engine, the seed baselines.
/// Each game implements this beside its engine (`crate::gomoku`, ...).
pub trait GamePlayers: Game {
    /// The player `boyi analyze` and `boyi bench` use when none is named.
    fn default_player() -> &'static str {
        "alphabeta?depth=3"
    }

    /// The fixed positions of `boyi bench`: by default the start position at depth 3.
    fn bench_positions() -> Vec<BenchPosition> {
        Self::start(&Self::Variant::default(), None)
            .map(|p| {
                vec![BenchPosition {
                    variant: None,
                    position: p.to_text(),
                    depth: 3,
                }]
            })
            .unwrap_or_default()
    }

    /// Searches for a forced win of the side to move within `budget`: `None` if the game has
    /// no threat solver, `Some(None)` if no win was found.
    fn solve(_pos: &Self, _budget: std::time::Duration) -> Option<Option<Solution>> {
        None
    }

    /// The players of this game beyond [`PLAYERS`], with their options.
    fn players() -> &'static [PlayerDef] {
        &[]
    }

    /// Builds the player `spec.name`; `None` if this game has no player of that name.
    fn build_player(
        _spec: &BuiltinSpec,
        _ctx: BuildContext,
    ) -> Option<Result<Box<dyn Player<Self>>, TextError>> {
        None
    }
}

/// The built-in players of game `G`: its own first, as [`build`] looks them up, then those of
/// every game.
pub fn players_of<G: GamePlayers>() -> impl Iterator<Item = &'static PlayerDef> {
    G::players().iter().chain(PLAYERS)
}

/// Their names, comma-separated (for messages).
pub fn player_names<G: GamePlayers>() -> String {
    players_of::<G>()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The built-in player `name` of game `G`.
pub fn player_def<G: GamePlayers>(name: &str) -> Option<&'static PlayerDef> {
    players_of::<G>().find(|p| p.name == name)
}

/// Builds the built-in player named by `spec` (the text after `boyi:`) for game `G`.
pub fn build<G: GamePlayers>(
    spec: &str,
    ctx: BuildContext,
) -> Result<Box<dyn Player<G>>, TextError> {
    build_spec(&BuiltinSpec::parse(spec)?, ctx)
}

/// [`build`] from a parsed spec (option values are kept as given, commas and all).
pub fn build_spec<G: GamePlayers>(
    spec: &BuiltinSpec,
    ctx: BuildContext,
) -> Result<Box<dyn Player<G>>, TextError> {
    if let Some(built) = G::build_player(spec, ctx) {
        return built;
    }
    match spec.name.as_str() {
        "random" => {
            let o = PLAYERS[0].parse(spec)?;
            Ok(Box::new(RandomPlayer::new(o.seed("seed", ctx.seed))))
        }
        "alphabeta" => {
            let o = PLAYERS[1].parse(spec)?;
            let depth = o.get("depth");
            let width = Some(o.get::<usize>("width")).filter(|&w| w > 0);
            Ok(alphabeta::<G>(format!("boyi:{spec}"), depth, width))
        }
        other => Err(text_err!(
            "unknown player boyi:{other} (built-in players: {})",
            player_names::<G>()
        )),
    }
}

/// The alpha-beta player with the evaluation of the game named `G::NAME`.
fn alphabeta<G: Game>(name: String, depth: u32, width: Option<usize>) -> Box<dyn Player<G>> {
    match G::NAME {
        "gomoku" => Box::new(AlphaBeta::<G, _>::new(
            name,
            LinePatterns::gomoku(),
            depth,
            width,
        )),
        "connect6" => Box::new(AlphaBeta::<G, _>::new(
            name,
            LinePatterns::connect6(),
            depth,
            width,
        )),
        "xiangqi" => Box::new(AlphaBeta::<G, _>::new(
            name,
            Material::xiangqi(),
            depth,
            width,
        )),
        "jiu" => Box::new(AlphaBeta::<G, _>::new(
            name,
            Material::stones(),
            depth,
            width,
        )),
        _ => Box::new(AlphaBeta::<G, _>::new(name, NoEval, depth, width)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::TicTacToe;

    #[test]
    fn specs_parse_and_errors_name_the_problem() {
        let s = BuiltinSpec::parse("alphabeta?depth=3,width=8").unwrap();
        assert_eq!(s.name, "alphabeta");
        assert_eq!(
            s.options,
            vec![("depth".into(), "3".into()), ("width".into(), "8".into())]
        );
        let ctx = BuildContext::default();
        assert!(build::<TicTacToe>("alphabeta?depth=3", ctx).is_ok());
        assert!(build::<TicTacToe>("random?seed=4", ctx).is_ok());
        let err = |s| build::<TicTacToe>(s, ctx).err().unwrap().to_string();
        assert!(err("strongest").contains("unknown player boyi:strongest"));
        assert!(err("alphabeta?depht=3").contains("no option \"depht\""));
        assert!(err("alphabeta?depth=x").contains("not a valid number"));
        assert!(err("random?seed").contains("key=value"));
    }

    /// Every player of every game builds with its defaults and with each option set to its
    /// default (so every option a builder reads is declared), and names in errors are the
    /// declared ones.
    #[test]
    fn every_player_builds_from_its_table() {
        fn all<G: GamePlayers>() {
            let ctx = BuildContext::default();
            for p in players_of::<G>() {
                build::<G>(p.name, ctx).unwrap_or_else(|e| panic!("{} {}: {e}", G::NAME, p.name));
                let set: Vec<String> = p
                    .options
                    .iter()
                    .map(|o| format!("{}={}", o.name, o.default_text().unwrap_or("7".into())))
                    .collect();
                let spec = format!("{}?{}", p.name, set.join(","));
                build::<G>(&spec, ctx).unwrap_or_else(|e| panic!("{} {spec}: {e}", G::NAME));
                let err = build::<G>(&format!("{}?no_such_option=1", p.name), ctx)
                    .err()
                    .unwrap()
                    .to_string();
                for o in p.options {
                    assert!(err.contains(o.name), "{err}");
                }
            }
        }
        all::<boyi_games::gomoku::Gomoku>();
        all::<boyi_games::connect6::Connect6>();
        all::<boyi_games::jiu::Jiu>();
        all::<boyi_games::xiangqi::Xiangqi>();
        all::<TicTacToe>();
    }
}
