//! Gomoku players beyond the generic ones: the strong engine (`boyi:strong`), the seed
//! baselines (`boyi:seed000`, `boyi:seed001`), and the swap-opening decisions.

pub mod board;
pub mod learned;
pub mod move_policy;
pub mod pattern;
pub mod search;
pub mod seed000;
pub mod seed001;
pub mod swap;
pub mod threat;

use crate::options::{self, OptionDef, Options, PlayerDef};
use crate::player::Swap2Reply;
use crate::player::{GameHistory, InfoSink, Limits, Player, PlayerError, StopFlag};
use crate::registry::{BenchPosition, BuildContext, BuiltinSpec, GamePlayers, Solution};
use crate::search::pv::thinking;
use crate::search::score::WIDE;
use crate::search::{Search, TimeManager};
use board::EngineBoard;
use boyi_core::{Game, TextError};
use boyi_games::gomoku::{Gomoku, Move};
use search::{Config, Engine};
use std::time::{Duration, Instant};
use threat::ThreatSearch;

impl GamePlayers for Gomoku {
    fn players() -> &'static [PlayerDef] {
        PLAYERS
    }

    fn build_player(
        spec: &BuiltinSpec,
        ctx: BuildContext,
    ) -> Option<Result<Box<dyn Player<Gomoku>>, TextError>> {
        match spec.name.as_str() {
            "strong" => Some(strong(spec, ctx.seed)),
            "seed000" => Some(seed000::build(&PLAYERS[1], spec)),
            "seed001" => Some(PLAYERS[2].parse(spec).map(|_| {
                Box::new(crate::search::Engine(seed001::Seed001)) as Box<dyn Player<Gomoku>>
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
            .map(|&(variant, position, depth)| BenchPosition {
                variant: Some(variant),
                position: position.to_string(),
                depth,
            })
            .collect()
    }

    fn solve(pos: &Gomoku, budget: Duration) -> Option<Option<Solution>> {
        Some(solve(pos, budget))
    }
}

/// Positions of `boyi bench gomoku`: openings and middle games of each rule, 15×15 and 20×20,
/// at depths of the selective search's fractional plies.
const BENCH: &[(&str, &str, u32)] = &[
    (
        "freestyle",
        "15/15/15/15/15/15/7o7/6xx7/7x7/15/15/15/15/15/15 w",
        13,
    ),
    (
        "freestyle",
        "15/15/15/15/15/6o8/5oxx7/6xox6/5x1x7/7o7/15/15/15/15/15 b",
        13,
    ),
    (
        "renju",
        "15/15/15/15/15/15/6ox7/7x7/6o8/15/15/15/15/15/15 b",
        13,
    ),
    (
        "standard",
        "15/15/15/15/15/7x7/6xo7/5ox1o6/7x7/15/15/15/15/15/15 w",
        13,
    ),
    (
        "freestyle",
        "20/20/20/20/20/20/20/20/9o10/8xx10/9x10/20/20/20/20/20/20/20/20/20 w",
        12,
    ),
];

const PLAYERS: &[PlayerDef] = &[
    PlayerDef {
        name: "strong",
        summary: "pattern tables, VCF/VCT threat search, a selective PVS in fractional plies with a transposition table and a VCF quiescence",
        options: STRONG,
        retired: RETIRED,
    },
    PlayerDef::new(
        "seed000",
        "seed 000: 8-direction model table with attack/defence weights",
        &[
            OptionDef::int("attack", 0, 1000, 100, "weight of own shapes, in percent"),
            OptionDef::int(
                "defence",
                0,
                1000,
                100,
                "weight of the opponent's shapes, in percent",
            ),
        ],
    ),
    PlayerDef::new(
        "seed001",
        "seed 001: shape values + S2², top-3 candidates, 4-ply alpha-beta",
        &[],
    ),
];

/// Options of the strong player; the earlier short names are aliases.
const STRONG: &[OptionDef] = &[
    options::hash(16, 4096),
    options::threads(1),
    OptionDef::int("depth", 1, 100, 8, "fractional plies searched when no limit is given"),
    OptionDef::switch("vct", true, "VCT search at the root"),
    OptionDef::int(
        "eval",
        0,
        3,
        3,
        "0 point values, 1 with initiative, 2 line values and threats by who moves, 3 the same with values fitted to game results",
    )
    .tuning(),
    OptionDef::int(
        "defence",
        0,
        400,
        70,
        "the opponent's potential in percent of the own (evaluations 0-2)",
    )
    .tuning(),
    OptionDef::int(
        "margin_scale",
        10,
        1000,
        300,
        "the selective search's pruning and extension margins, in percent",
    )
    .alias(&["scale"])
    .tuning(),
    OptionDef::switch("time_use", true, "the main search takes more of the time")
        .alias(&["tm"])
        .tuning(),
    OptionDef::int(
        "iteration_start",
        10,
        100,
        95,
        "percent of the time budget after which no iteration starts",
    )
    .alias(&["iter"])
    .tuning(),
    OptionDef::switch(
        "policy",
        true,
        "candidates ordered by values fitted to a strong player's moves",
    )
    .alias(&["ord"])
    .tuning(),
    OptionDef::int("vct_share", 2, 20, 3, "the root VCT takes the time budget over this")
        .alias(&["vcts"])
        .tuning(),
    OptionDef::int("vct_depth", 2, 30, 7, "threats of the root VCT")
        .alias(&["vctd"])
        .tuning(),
    OptionDef::int("root_width", 0, 1000, 30, "root moves searched (0: all)")
        .alias(&["rw"])
        .tuning(),
    OptionDef::int(
        "threat_check_nodes",
        1,
        100_000,
        100,
        "thousands of nodes of the VCT that checks a root move against the opponent's threats",
    )
    .alias(&["avn"])
    .tuning(),
    OptionDef::int(
        "pass_check_share",
        2,
        100,
        4,
        "the check of the opponent's threats after a pass takes the time budget over this",
    )
    .alias(&["pcs"])
    .tuning(),
];

/// Options of the earlier principal variation search (`algo=1`), retired with it
/// (docs/gomoku-experiments.md): accepted and ignored, so specs stored in game databases and
/// older scripts still build the player.
const RETIRED: &[&str] = &[
    "algo", "width", "lmr", "hist", "pr", "pp", "lvcf", "null", "mc", "lmrd", "lmrx", "rfp",
    "rfpd", "fut", "futd", "raz", "fhr",
];

/// The strong engine's configuration from its options.
fn config(o: &Options) -> Config {
    Config {
        hash: o.get("hash"),
        vct: o.on("vct"),
        depth: o.get("depth"),
        defence: o.get("defence"),
        avoid_vct_nodes: o.get::<u64>("threat_check_nodes") * 1000,
        eval: o.get("eval"),
        time_use: o.on("time_use"),
        iter_start: o.get("iteration_start"),
        policy: o.on("policy"),
        vct_share: o.get("vct_share"),
        root_width: o.get("root_width"),
        vct_depth: o.get("vct_depth"),
        pass_check_share: o.get("pass_check_share"),
        margin_scale: o.get("margin_scale"),
    }
}

fn strong(spec: &BuiltinSpec, seed: u64) -> Result<Box<dyn Player<Gomoku>>, TextError> {
    let mut player = Strong::new(config(&PLAYERS[0].parse(spec)?));
    player.seed = seed;
    Ok(Box::new(crate::search::Engine(player)))
}

/// Builds the tables every search reads (the patterns of each five rule, the fitted values,
/// the ordering weights) when the player is made. Built on first use, they took about 10 ms
/// of the first turn, which then ran past Gomocup's turn time.
fn warm_tables() {
    for (black_exact, white_exact) in [(false, false), (true, true), (true, false), (false, true)] {
        pattern::pair_table(black_exact, white_exact);
    }
    learned::fit_table();
    move_policy::policy_weights();
}

/// `boyi:strong` for Gomoku.
pub struct Strong {
    engine: Engine,
    /// Picks the shape of swap openings.
    seed: u64,
}

impl Strong {
    pub fn new(config: Config) -> Strong {
        warm_tables();
        Strong {
            engine: Engine::new(config),
            seed: 0,
        }
    }

    /// The engine's move and value for a position (the value from the mover's view), within
    /// `limits` (the swap decisions' short searches; a player goes through [`Search`]).
    pub fn think(
        &mut self,
        pos: &Gomoku,
        limits: &Limits,
        stop: &StopFlag,
        info: InfoSink<'_>,
    ) -> Result<(Move, i32), PlayerError> {
        if pos.outcome().is_some() {
            return Err(PlayerError::GameOver);
        }
        self.engine.fit_memory(limits.memory);
        let time = TimeManager::new(limits, pos.side_to_move(), stop, self.engine.config.depth);
        let found = self.think_within(pos, &time, info);
        let any = || pos.legal_moves().into_iter().next();
        match found {
            Some((mv, v)) if pos.is_legal(&mv) => Ok((mv, v)),
            // Never answer with an illegal move: any legal stone (or pass) instead.
            _ => any().map(|m| (m, 0)).ok_or(PlayerError::GameOver),
        }
    }

    /// The move the search chooses within `time`, and its value; `None` without a candidate.
    fn think_within(
        &mut self,
        pos: &Gomoku,
        time: &TimeManager,
        info: InfoSink<'_>,
    ) -> Option<(Move, i32)> {
        let mut b = EngineBoard::from_game(pos);
        if let Some(p) = search::opening(&b) {
            let mv = Move::Stone(p);
            if pos.is_legal(&mv) {
                return Some((mv, 0));
            }
        }
        let found = self.engine.search_within(&mut b, time, &mut |b, f| {
            let stone = |_: &Gomoku, &i: &usize| Some(Move::Stone(b.point(i)));
            let score = WIDE.report(f.value);
            let line = thinking(pos, f.depth, score, &f.pv, stone, f.nodes, time.elapsed());
            info(line);
        });
        found.map(|f| (Move::Stone(b.point(f.best)), f.value))
    }
}

impl Search<Gomoku> for Strong {
    fn name(&self) -> String {
        "boyi:strong".to_string()
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn default_depth(&self) -> u32 {
        self.engine.config.depth
    }

    fn fit_memory(&mut self, memory: Option<u64>) {
        self.engine.fit_memory(memory);
    }

    fn search(
        &mut self,
        game: &GameHistory<Gomoku>,
        _moves: &[Move],
        time: &TimeManager,
        info: InfoSink<'_>,
    ) -> Option<Move> {
        self.think_within(game.current(), time, info)
            .map(|(m, _)| m)
    }

    fn swap1(
        &mut self,
        game: &GameHistory<Gomoku>,
        limits: &Limits,
    ) -> Result<Swap2Reply, PlayerError> {
        let (pos, think) = swap_think(game, limits);
        swap::swap1_decision(pos, think, self.seed)
            .map_err(|e| PlayerError::Unsupported(e.to_string()))
    }

    fn swap2(
        &mut self,
        game: &GameHistory<Gomoku>,
        limits: &Limits,
    ) -> Result<Swap2Reply, PlayerError> {
        let (pos, think) = swap_think(game, limits);
        swap::swap2_decision(pos, think, self.seed)
            .map_err(|e| PlayerError::Unsupported(e.to_string()))
    }
}

/// The position of a swap decision and the time to think about it.
fn swap_think<'a>(game: &'a GameHistory<Gomoku>, limits: &Limits) -> (&'a Gomoku, Duration) {
    let pos = game.current();
    let think = limits
        .time_budget(pos.side_to_move())
        .unwrap_or(Duration::from_millis(300));
    (pos, think)
}

/// A VCF for the side to move (searched first), else a VCT, within `budget`.
pub fn solve(pos: &Gomoku, budget: Duration) -> Option<Solution> {
    if pos.outcome().is_some() {
        return None;
    }
    let mut b = EngineBoard::from_game(pos);
    let started = Instant::now();
    let mut ts = ThreatSearch::new(u64::MAX, Some(started + budget / 2));
    let text = |b: &EngineBoard, line: &[usize]| -> Vec<String> {
        line.iter().map(|&i| b.point(i).to_string()).collect()
    };
    if ts.vcf(&mut b, 60) {
        return Some(Solution {
            kind: "vcf",
            line: text(&b, &ts.line),
            moves: Some(vcf_moves(&mut b, &ts.line)),
        });
    }
    ts.reset(u64::MAX, Some(started + budget));
    if ts.vct(&mut b, 12, 12) {
        return Some(Solution {
            kind: "vct",
            line: text(&b, &ts.line),
            moves: None,
        });
    }
    None
}

/// The attacker's moves to the win along a VCF line: its moves in the line, and one more
/// when the line ends in a four the defender cannot stop (two five points, or a forbidden
/// one) rather than in the five itself.
fn vcf_moves(b: &mut EngineBoard, line: &[usize]) -> u32 {
    let attacker_moves = line.len().div_ceil(2) as u32;
    for &i in line {
        b.play(i);
    }
    let ends_in_five = b.winner().is_some();
    for _ in line {
        b.undo();
    }
    attacker_moves + u32::from(!ends_in_five || line.len().is_multiple_of(2))
}

#[cfg(test)]
mod tests;
