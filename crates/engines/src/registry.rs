//! Built-in players by name. A spec is `boyi:<name>` with optional options after `?`,
//! comma-separated `key=value` pairs: `boyi:alphabeta?depth=3,width=8`, `boyi:random?seed=7`.
//! Unknown names and options are errors that list what exists.
//!
//! New players (the strong engines, the seed baselines) are added as one entry of
//! [`PLAYERS`] and one arm of [`build`].

use crate::alphabeta::AlphaBeta;
use crate::eval::{LinePatterns, Material, NoEval};
use crate::player::Player;
use crate::random::RandomPlayer;
use boyi_core::{Game, TextError};

/// The built-in players: name and one line of help.
pub const PLAYERS: &[(&str, &str)] = &[
    ("random", "a uniformly random legal move; options: seed"),
    (
        "alphabeta",
        "fixed-depth alpha-beta with material (xiangqi, jiu) or line patterns (gomoku, connect6); options: depth (default 2), width (moves per node)",
    ),
];

/// A parsed `boyi:` spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltinSpec {
    pub name: String,
    pub options: Vec<(String, String)>,
}

impl BuiltinSpec {
    /// Parses the part after `boyi:`.
    pub fn parse(text: &str) -> Result<BuiltinSpec, TextError> {
        let (name, opts) = text.split_once('?').unwrap_or((text, ""));
        if name.is_empty() {
            return Err(text_err!("player spec {text:?} has no name"));
        }
        let mut options = Vec::new();
        for pair in opts.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| text_err!("player option {pair:?} must be key=value"))?;
            options.push((k.trim().to_string(), v.trim().to_string()));
        }
        Ok(BuiltinSpec {
            name: name.to_string(),
            options,
        })
    }

    /// Checks every option is one of `known`.
    pub fn allow(&self, known: &[&str]) -> Result<(), TextError> {
        match self
            .options
            .iter()
            .find(|(k, _)| !known.contains(&k.as_str()))
        {
            Some((k, _)) => Err(text_err!(
                "player {} has no option {k:?} (options: {})",
                self.name,
                known.join(", ")
            )),
            None => Ok(()),
        }
    }

    /// The text of option `key`, if given.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of option `key` as a number, if given.
    pub fn number<T: std::str::FromStr>(&self, key: &str) -> Result<Option<T>, TextError> {
        match self.text(key) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| text_err!("player option {key}={v:?} is not a valid number")),
        }
    }
}

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

    /// Name and one line of help of each player of this game.
    fn players() -> &'static [(&'static str, &'static str)] {
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

/// Builds the built-in player named by `spec` (the text after `boyi:`) for game `G`.
pub fn build<G: GamePlayers>(
    spec: &str,
    ctx: BuildContext,
) -> Result<Box<dyn Player<G>>, TextError> {
    let spec = BuiltinSpec::parse(spec)?;
    if let Some(built) = G::build_player(&spec, ctx) {
        return built;
    }
    match spec.name.as_str() {
        "random" => {
            spec.allow(&["seed"])?;
            let seed = spec.number("seed")?.unwrap_or(ctx.seed);
            Ok(Box::new(RandomPlayer::new(seed)))
        }
        "alphabeta" => {
            spec.allow(&["depth", "width"])?;
            let depth = spec.number("depth")?.unwrap_or(2);
            let width = spec.number("width")?;
            Ok(alphabeta::<G>(
                format!("boyi:{}", spec_text(&spec)),
                depth,
                width,
            ))
        }
        other => Err(text_err!(
            "unknown player boyi:{other} (built-in players: {})",
            PLAYERS
                .iter()
                .chain(G::players())
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn spec_text(spec: &BuiltinSpec) -> String {
    if spec.options.is_empty() {
        return spec.name.clone();
    }
    let opts: Vec<String> = spec
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    format!("{}?{}", spec.name, opts.join(","))
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
}
