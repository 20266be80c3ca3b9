//! Xiangqi players beyond the generic ones: the strong engine (`boyi:strong`) and the seed
//! 004 baseline (`boyi:seed004`).
//!
//! - [`eval`]: the strong engine's evaluation and its tunable weights;
//! - [`search`]: iterative deepening PVS with the pruning, the history rules and Lazy SMP;
//! - [`movepick`]: move ordering;
//! - [`seed004`]: the paper's material-only fixed-depth alpha-beta.

pub mod eval;
pub mod movepick;
pub mod search;
pub mod seed004;

#[cfg(test)]
mod tests;

use crate::options::{self, OptionDef, Options, PlayerDef};
use crate::player::{GameHistory, InfoSink, Player};
use crate::registry::{BenchPosition, BuildContext, BuiltinSpec, GamePlayers};
use crate::search::pv::thinking;
use crate::search::score;
use crate::search::{Engine, Search, TimeManager};
use boyi_core::TextError;
use boyi_games::xiangqi::{Move, MoveList, Xiangqi};
use movepick::Memory;
use search::{Report, Root, Searcher, Shared, Style, Tt};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

impl GamePlayers for Xiangqi {
    fn players() -> &'static [PlayerDef] {
        PLAYERS
    }

    fn build_player(
        spec: &BuiltinSpec,
        _ctx: BuildContext,
    ) -> Option<Result<Box<dyn Player<Xiangqi>>, TextError>> {
        match spec.name.as_str() {
            "strong" => Some(strong(spec)),
            "seed004" => Some(seed004(spec)),
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

/// Positions of `boyi bench xiangqi`: openings, middle games and end games.
const BENCH: &[(&str, u32)] = &[
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        10,
    ),
    (
        "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/1RBAKAB1R w - - 0 1",
        9,
    ),
    (
        "r2akab1r/9/1cn1b1n2/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 1",
        9,
    ),
    (
        "2bakab2/9/2n1c1n2/p3p3p/2p6/6P2/P3P3P/2N1C4/4A4/2BAK1B2 w - - 0 1",
        10,
    ),
    ("3k5/4a4/4ba3/9/2b6/9/9/4B4/4A4/2BAK1R2 w - - 0 1", 12),
    ("4k4/9/4b4/9/9/6P2/9/9/4A4/2B1K4 w - - 0 1", 14),
];

/// The options of `boyi:strong`.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    pub hash_mb: usize,
    pub threads: usize,
    /// 0 (weakest) to 20 (full strength).
    pub level: u32,
    /// Depth searched when the limits give no bound at all.
    pub default_depth: u32,
    /// Centipawns a draw is worth less than a level position to the engine.
    pub contempt: i32,
    pub weights: eval::Weights,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            hash_mb: 64,
            threads: 1,
            level: 20,
            default_depth: 12,
            contempt: 20,
            weights: eval::DEFAULT_WEIGHTS,
        }
    }
}

const PLAYERS: &[PlayerDef] = &[
    PlayerDef::new(
        "strong",
        "PVS with a shared hash table, quiescence, null move, LMR and a tuned evaluation",
        &STRONG,
    ),
    PlayerDef::new(
        "seed004",
        "seed 004: piece values only, fixed-depth minimax with alpha-beta",
        &[OptionDef::int("depth", 1, 20, 4, "plies searched")],
    ),
];

/// Options of the strong player, then its evaluation weights by name (for matches between
/// weight sets: tuning checks).
const STRONG: [OptionDef; 5 + eval::w::COUNT] = {
    let mut all = [options::hash(64, 16384); 5 + eval::w::COUNT];
    all[1] = options::threads(256);
    all[2] = OptionDef::int("level", 0, 20, 20, "strength, 0 (weakest) to 20 (full)");
    all[3] = OptionDef::int("depth", 1, 100, 12, "plies searched when no limit is given");
    all[4] = OptionDef::int(
        "contempt",
        -500,
        500,
        20,
        "centipawns a draw is worth less than a level position",
    );
    let mut i = 0;
    while i < eval::w::COUNT {
        let default = eval::DEFAULT_WEIGHTS.0[i] as i64;
        all[5 + i] = OptionDef::int(
            eval::w::NAMES[i],
            -100_000,
            100_000,
            default,
            "evaluation weight",
        )
        .tuning();
        i += 1;
    }
    all
};

/// The strong engine's configuration from its options.
fn config(o: &Options) -> Config {
    let mut weights = eval::DEFAULT_WEIGHTS;
    for (w, name) in weights.0.iter_mut().zip(eval::w::NAMES) {
        *w = o.get(name);
    }
    Config {
        hash_mb: o.get("hash"),
        threads: o.get("threads"),
        level: o.get("level"),
        default_depth: o.get("depth"),
        contempt: o.get("contempt"),
        weights,
    }
}

/// The evaluation weights a `boyi:strong?name=value,…` spec plays (the `boyi:strong?` prefix
/// may be left out): the defaults with the named weights replaced, every name and value checked
/// as the player checks its options.
pub fn spec_weights(spec: &str) -> Result<eval::Weights, TextError> {
    let text = spec.strip_prefix("boyi:").unwrap_or(spec);
    let options = match text {
        "strong" => "",
        _ => text.strip_prefix("strong?").unwrap_or(text),
    };
    Ok(config(&PLAYERS[0].parse_text(&format!("strong?{options}"))?).weights)
}

fn strong(spec: &BuiltinSpec) -> Result<Box<dyn Player<Xiangqi>>, TextError> {
    let config = config(&PLAYERS[0].parse(spec)?);
    Ok(Box::new(Engine(Strong::new(config))))
}

fn seed004(spec: &BuiltinSpec) -> Result<Box<dyn Player<Xiangqi>>, TextError> {
    let o = PLAYERS[1].parse(spec)?;
    Ok(Box::new(Engine(seed004::Seed004::new(o.get("depth")))))
}

/// The strong engine's search; [`Engine`] makes it a player.
pub struct Strong {
    config: Config,
    tt: Arc<Tt>,
    games: u64,
    /// Each thread's history and counter moves, kept from move to move of a game.
    memory: Vec<Box<Memory>>,
}

impl Strong {
    pub fn new(config: Config) -> Strong {
        Strong {
            tt: Arc::new(Tt::new(config.hash_mb)),
            config,
            games: 0,
            memory: Vec::new(),
        }
    }

    /// The strength settings of the configured level.
    fn style(&self) -> Style {
        let level = self.config.level.min(20);
        Style {
            weights: self.config.weights,
            noise: (20 - level) as i32 * 12,
            seed: self.games.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x5851_F42D,
            max_depth: if level >= 20 { 200 } else { 1 + level / 2 },
            contempt: self.config.contempt,
        }
    }

    /// Runs the search on `root` with the configured threads; the main thread's result.
    /// What each thread learned about quiet moves carries over, halved, to the next move.
    pub fn run(
        &mut self,
        root: &Root,
        tm: &TimeManager,
        report: &mut dyn FnMut(&Report),
    ) -> Option<Report> {
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            tm,
            halt: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        };
        let style = self.style();
        let mut memory = std::mem::take(&mut self.memory);
        memory.resize_with(self.config.threads.max(1), Memory::new);
        for m in memory.iter_mut() {
            m.history.age();
        }
        let mut memory = memory.into_iter();
        let main_memory = memory.next().unwrap_or_else(Memory::new);
        let (result, learned) = std::thread::scope(|scope| {
            let helpers: Vec<_> = memory
                .enumerate()
                .map(|(i, mem)| {
                    let shared = &shared;
                    scope.spawn(move || {
                        let mut helper = Searcher::new(root, shared, style, false, mem);
                        helper.iterate(1 + ((i as u32 + 1) & 1), &mut |_| {});
                        helper.into_memory()
                    })
                })
                .collect();
            let mut main = Searcher::new(root, &shared, style, true, main_memory);
            let result = main.iterate(1, report);
            shared.halt.store(true, Ordering::Relaxed);
            let mut learned = vec![main.into_memory()];
            // A helper that failed leaves its thread's memory empty.
            learned.extend(
                helpers
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|_| Memory::new())),
            );
            (result, learned)
        });
        self.memory = learned;
        result
    }
}

/// The search's root for the game's current position: its record since the last capture
/// and the moves it may play.
pub fn root_of(game: &Xiangqi, moves: &[Move]) -> Root {
    let marks = game.marks();
    let keep = (game.halfmove_clock() as usize).min(marks.len() - 1) + 1;
    let mut list = MoveList::new();
    for &m in moves {
        list.push(m);
    }
    Root {
        board: game.board().clone(),
        marks: marks[marks.len() - keep..].to_vec(),
        clock: game.halfmove_clock(),
        moves: list,
    }
}

impl Search<Xiangqi> for Strong {
    fn name(&self) -> String {
        "boyi:strong".to_string()
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.memory.clear();
        self.games += 1;
    }

    fn default_depth(&self) -> u32 {
        self.config.default_depth
    }

    fn search(
        &mut self,
        game: &GameHistory<Xiangqi>,
        moves: &[Move],
        time: &TimeManager,
        info: InfoSink<'_>,
    ) -> Option<Move> {
        let pos = game.current();
        let root = root_of(pos, moves);
        let mut report = |r: &Report| {
            info(thinking(
                pos,
                r.depth,
                score::report(r.score),
                &r.pv,
                |_, m| Some(*m),
                r.nodes,
                time.elapsed(),
            ))
        };
        let result = self.run(&root, time, &mut report);
        result.and_then(|r| r.pv.first().copied())
    }
}
