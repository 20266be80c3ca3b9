//! Connect6 players beyond the generic ones: the strong engine (`boyi:strong`) and the seed
//! 003 baseline (`boyi:seed003`).

pub mod board;
pub mod gaps;
pub mod learned;
pub mod search;
pub mod seed003;
pub mod threats;
pub mod weights;

use crate::options::{self, OptionDef, Options, PlayerDef};
use crate::player::{GameHistory, InfoSink, Player};
use crate::registry::{BenchPosition, BuildContext, BuiltinSpec, GamePlayers};
use crate::search::pv::thinking;
use crate::search::score::WIDE;
use crate::search::{Search, TimeManager};
use board::Board6;
use boyi_core::TextError;
use boyi_games::connect6::{Connect6, Move};
use search::{Config, Engine6};

impl GamePlayers for Connect6 {
    fn players() -> &'static [PlayerDef] {
        PLAYERS
    }

    fn build_player(
        spec: &BuiltinSpec,
        _ctx: BuildContext,
    ) -> Option<Result<Box<dyn Player<Connect6>>, TextError>> {
        match spec.name.as_str() {
            "strong" => Some(strong(spec)),
            "seed003" => Some(PLAYERS[1].parse(spec).map(|_| {
                Box::new(crate::search::Engine(seed003::Seed003::default()))
                    as Box<dyn Player<Connect6>>
            })),
            _ => None,
        }
    }

    fn default_player() -> &'static str {
        "strong"
    }

    fn bench_positions() -> Vec<BenchPosition> {
        BENCH
            .iter()
            .map(|&(position, depth)| BenchPosition {
                variant: None,
                position: position.to_string(),
                depth,
            })
            .collect()
    }
}

const BENCH: &[(&str, u32)] = &[
    (
        "19/19/19/19/19/19/19/19/10o8/9x9/9o9/19/19/19/19/19/19/19/19 b",
        4,
    ),
    (
        "19/19/19/19/19/19/19/8o10/8xo9/9xx8/9oo8/10x8/19/19/19/19/19/19/19 w",
        4,
    ),
    // A middle game with no quick win, so the bench measures a search.
    (
        "11o7/19/19/14o4/4o8oxx1x1/11o2x4/13x5/12x6/14x4/19/19/9o9/19/19/19/19/19/19/19 w",
        3,
    ),
];

const PLAYERS: &[PlayerDef] = &[
    PlayerDef::new(
        "strong",
        "six-window threats, blocking/threat/positional pairs, PVS over turns with a transposition table",
        STRONG,
    ),
    PlayerDef::new(
        "seed003",
        "seed 003: shape values with the revaluation F = a·own − (1−a)·opponent, two turns of alpha-beta",
        &[],
    ),
];

/// What windows of one to five stones are worth unless `values` is set.
const WINDOW_VALUES: &str = "1/8/40/260/520";

/// Options of the strong player; the earlier short names are aliases.
const STRONG: &[OptionDef] = &[
    options::hash(6, 1024),
    options::threads(1),
    OptionDef::int("depth", 1, 40, 4, "turns searched when no limit is given"),
    OptionDef::int("width", 1, 200, 12, "pairs searched per node").tuning(),
    OptionDef::int("singles", 1, 200, 10, "single points combined into pairs").tuning(),
    OptionDef::int(
        "quiet_turns",
        0,
        20,
        6,
        "turns past the depth (threats and their blocks)",
    )
    .alias(&["quiet"])
    .tuning(),
    OptionDef::int(
        "quiet_threats",
        0,
        50,
        2,
        "threat turns tried per quiescence node",
    )
    .alias(&["qthreats"])
    .tuning(),
    OptionDef::switch(
        "quiet_trust",
        false,
        "a quiescence loss against the best few blocks of a single threat counts",
    )
    .alias(&["qtrust"])
    .tuning(),
    OptionDef::int(
        "tss_turns",
        0,
        30,
        8,
        "own turns of the root's threat-space search (0: none)",
    )
    .alias(&["tss"])
    .tuning(),
    OptionDef::int(
        "leaf_tss",
        0,
        20,
        2,
        "own turns of the threat-space search at quiescence leaves",
    )
    .alias(&["leaf"])
    .tuning(),
    OptionDef::int(
        "threat_slots",
        0,
        50,
        4,
        "places kept for threat-making turns (0: none)",
    )
    .alias(&["tslots"])
    .tuning(),
    OptionDef::int(
        "pending",
        0,
        100_000,
        200,
        "what a quiet leaf loses when the opponent would win by threats (0: not checked)",
    )
    .tuning(),
    OptionDef::int("pending_turns", 1, 10, 1, "own turns of that check")
        .alias(&["pturns"])
        .tuning(),
    OptionDef::text(
        "values",
        WINDOW_VALUES,
        "what windows of one to five stones of one side are worth, five increasing numbers separated by '/'",
    )
    .tuning(),
    OptionDef::int(
        "tempo",
        -10_000,
        10_000,
        30,
        "the side to move's bonus at quiet leaves with eval=0",
    )
    .tuning(),
    OptionDef::int(
        "eval",
        0,
        1,
        1,
        "quiet leaves valued by 1 weights fitted to game results, 0 the window sums",
    )
    .tuning(),
];

/// The strong engine's configuration from its options.
fn config(o: &Options) -> Result<Config, TextError> {
    Ok(Config {
        hash: o.get("hash"),
        width: o.get("width"),
        singles: o.get("singles"),
        depth: o.get("depth"),
        quiet_turns: o.get("quiet_turns"),
        quiet_threats: o.get("quiet_threats"),
        quiet_trust: o.on("quiet_trust"),
        tss_turns: o.get("tss_turns"),
        leaf_tss: o.get("leaf_tss"),
        threat_slots: o.get("threat_slots"),
        pending: o.get("pending"),
        pending_turns: o.get("pending_turns"),
        values: window_values(o.text("values"))?,
        tempo: o.get("tempo"),
        eval: o.get("eval"),
        ..Config::default()
    })
}

fn strong(spec: &BuiltinSpec) -> Result<Box<dyn Player<Connect6>>, TextError> {
    let config = config(&PLAYERS[0].parse(spec)?)?;
    Ok(Box::new(crate::search::Engine(Strong6::new(config))))
}

/// The `values` option: what windows of one to five stones of one side are worth, five
/// numbers separated by `/`, each above the one before and all below a six's value.
fn window_values(text: &str) -> Result<[i32; 7], TextError> {
    let six = board::WINDOW_VALUE[6];
    let bad = || {
        text_err!(
            "player option values={text:?} must be five increasing numbers from 0 to {} separated by '/', like 1/8/60/260/520",
            six - 1
        )
    };
    let numbers: Vec<i32> = text
        .split('/')
        .map(|n| n.trim().parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if numbers.len() != 5
        || numbers[0] < 0
        || numbers[4] >= six
        || numbers.windows(2).any(|w| w[0] >= w[1])
    {
        return Err(bad());
    }
    let mut values = board::WINDOW_VALUE;
    values[1..6].copy_from_slice(&numbers);
    Ok(values)
}

/// `boyi:strong` for Connect6.
pub struct Strong6 {
    engine: Engine6,
}

impl Strong6 {
    pub fn new(config: Config) -> Strong6 {
        Strong6 {
            engine: Engine6::new(config),
        }
    }
}

impl Search<Connect6> for Strong6 {
    fn name(&self) -> String {
        "boyi:strong".to_string()
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn default_depth(&self) -> u32 {
        self.engine.config.depth
    }

    fn search(
        &mut self,
        game: &GameHistory<Connect6>,
        _moves: &[Move],
        time: &TimeManager,
        info: InfoSink<'_>,
    ) -> Option<Move> {
        let pos = game.current();
        let mut b = Board6::from_game(pos);
        let size = b.size();
        let found = self.engine.search_within(&mut b, time, &mut |f| {
            let turn = |at: &Connect6, t: &search::Pair| {
                Some(board::to_move(size, t.a as usize, t.second(), at))
            };
            let score = WIDE.report(f.value);
            let line = thinking(pos, f.depth, score, &f.pv, turn, f.nodes, time.elapsed());
            info(line);
        });
        found.map(|f| board::to_move(size, f.best.a as usize, f.best.second(), pos))
    }
}

#[cfg(test)]
mod tests;
