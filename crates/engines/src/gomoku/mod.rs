//! Gomoku players beyond the generic ones: the strong engine (`boyi:strong`), the seed
//! baselines (`boyi:seed000`, `boyi:seed001`), and the swap-opening decisions.

pub mod board;
pub mod pattern;
pub mod search;
pub mod seed000;
pub mod seed001;
pub mod swap;
pub mod threat;

use crate::player::{GameHistory, Info, Limits, Player, PlayerError, StopFlag};
use crate::registry::{BenchPosition, BuildContext, BuiltinSpec, GamePlayers, Solution};
use board::EngineBoard;
use boyi_core::{Game, TextError};
use boyi_games::gomoku::{Gomoku, Move};
use search::{Config, Engine};
use std::time::{Duration, Instant};
use threat::ThreatSearch;

impl GamePlayers for Gomoku {
    fn players() -> &'static [(&'static str, &'static str)] {
        &[
            (
                "strong",
                "pattern tables, VCF/VCT threat search, PVS with a transposition table; options: width, vct (0/1), depth, hash (MB)",
            ),
            (
                "seed000",
                "seed 000: 8-direction model table with attack/defence weights; options: attack, defence (percent)",
            ),
            (
                "seed001",
                "seed 001: shape values + S2², top-3 candidates, 4-ply alpha-beta",
            ),
        ]
    }

    fn build_player(
        spec: &BuiltinSpec,
        _ctx: BuildContext,
    ) -> Option<Result<Box<dyn Player<Gomoku>>, TextError>> {
        match spec.name.as_str() {
            "strong" => Some(strong(spec)),
            "seed000" => Some(seed000::build(spec)),
            "seed001" => Some(
                spec.allow(&[])
                    .map(|()| Box::new(seed001::Seed001) as Box<dyn Player<Gomoku>>),
            ),
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

/// Positions of `boyi bench gomoku`: openings and middle games of each rule, 15×15 and 20×20.
const BENCH: &[(&str, &str, u32)] = &[
    (
        "freestyle",
        "15/15/15/15/15/15/7o7/6xx7/7x7/15/15/15/15/15/15 w",
        7,
    ),
    (
        "freestyle",
        "15/15/15/15/15/6o8/5oxx7/6xox6/5x1x7/7o7/15/15/15/15/15 b",
        7,
    ),
    (
        "renju",
        "15/15/15/15/15/15/6ox7/7x7/6o8/15/15/15/15/15/15 b",
        7,
    ),
    (
        "standard",
        "15/15/15/15/15/7x7/6xo7/5ox1o6/7x7/15/15/15/15/15/15 w",
        7,
    ),
    (
        "freestyle",
        "20/20/20/20/20/20/20/20/9o10/8xx10/9x10/20/20/20/20/20/20/20/20/20 w",
        6,
    ),
];

fn strong(spec: &BuiltinSpec) -> Result<Box<dyn Player<Gomoku>>, TextError> {
    spec.allow(&["width", "vct", "depth", "hash"])?;
    let mut config = Config::default();
    if let Some(w) = spec.number::<usize>("width")? {
        config.width = w.max(1);
    }
    if let Some(v) = spec.number::<u8>("vct")? {
        config.vct = v != 0;
    }
    if let Some(d) = spec.number::<u32>("depth")? {
        config.depth = d.max(1);
    }
    if let Some(mb) = spec.number::<usize>("hash")? {
        config.tt_entries = (mb.clamp(1, 4096) << 20) / 24;
    }
    Ok(Box::new(Strong::new(config)))
}

/// `boyi:strong` for Gomoku.
pub struct Strong {
    engine: Engine,
}

impl Strong {
    pub fn new(config: Config) -> Strong {
        Strong {
            engine: Engine::new(config),
        }
    }

    /// The engine's move and value for a position (the value from the mover's view).
    pub fn think(
        &mut self,
        pos: &Gomoku,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<(Move, i32), PlayerError> {
        if pos.outcome().is_some() {
            return Err(PlayerError::GameOver);
        }
        let mut b = EngineBoard::from_game(pos);
        if let Some(p) = search::opening(&b) {
            let mv = Move::Stone(p);
            if pos.is_legal(&mv) {
                return Ok((mv, 0));
            }
        }
        let started = Instant::now();
        let found = self.engine.search(&mut b, limits, stop, &mut |b, f| {
            info(search::info(b, f, started))
        });
        let mv = match found {
            Some(f) => (Move::Stone(b.point(f.best)), f.value),
            None => (Move::Pass, 0),
        };
        if pos.is_legal(&mv.0) {
            Ok(mv)
        } else {
            // Never answer with an illegal move: any legal stone (or pass) instead.
            let any = pos.legal_moves().into_iter().next();
            any.map(|m| (m, 0)).ok_or(PlayerError::GameOver)
        }
    }
}

impl Player<Gomoku> for Strong {
    fn name(&self) -> String {
        "boyi:strong".to_string()
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn choose(
        &mut self,
        game: &GameHistory<Gomoku>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<Move, PlayerError> {
        self.think(game.current(), limits, stop, info)
            .map(|(m, _)| m)
    }
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
        });
    }
    ts.reset(u64::MAX, Some(started + budget));
    if ts.vct(&mut b, 12, 12) {
        return Some(Solution {
            kind: "vct",
            line: text(&b, &ts.line),
        });
    }
    None
}

#[cfg(test)]
mod tests;
