//! Jiu players beyond the generic ones: the strong engine (`boyi:strong`) and the seed 002
//! baseline (`boyi:seed002`).
//!
//! - [`board`]: the engines' board, battle move bases and chosen square captures;
//! - [`eval`]: battle evaluation (material, doors, dalians, mobility, safety) and the
//!   placement plan;
//! - [`search`]: PVS with iterative deepening, transposition table and quiescence;
//! - [`seed002`]: the pattern strategies and Eva move choice of seed 002.

pub mod board;
pub mod eval;
pub mod search;
pub mod seed002;

use crate::alphabeta::to_score;
use crate::player::{Deadline, GameHistory, Info, Limits, Player, PlayerError, StopFlag};
use crate::registry::{BenchPosition, BuildContext, BuiltinSpec, GamePlayers};
use board::{Board, EMPTY};
use boyi_core::{Game, TextError};
use boyi_games::jiu::board::POINTS;
use boyi_games::jiu::{Jiu, JiuMove, Phase};
use search::Engine;

impl GamePlayers for Jiu {
    fn players() -> &'static [(&'static str, &'static str)] {
        &[
            (
                "strong",
                "battle PVS with transposition table and quiescence over jumps and squares, door/dalian evaluation; placement by a door plan; options: depth, hash (MB)",
            ),
            (
                "seed002",
                "seed 002: placement by defence/attack/chain patterns, battle by Eva = move + kill + triple + square; options: seed",
            ),
        ]
    }

    fn build_player(
        spec: &BuiltinSpec,
        ctx: BuildContext,
    ) -> Option<Result<Box<dyn Player<Jiu>>, TextError>> {
        match spec.name.as_str() {
            "strong" => Some(strong(spec)),
            "seed002" => Some(seed002::build(spec, ctx)),
            _ => None,
        }
    }

    fn default_player() -> &'static str {
        "strong"
    }

    fn bench_positions() -> Vec<BenchPosition> {
        let opening = bench_line(0);
        let middle = bench_line(24);
        [
            (opening.to_text(), 6),
            (middle.to_text(), 6),
            (ENDGAME.to_string(), 4),
        ]
        .into_iter()
        .map(|(position, depth)| BenchPosition {
            variant: None,
            position,
            depth,
        })
        .collect()
    }
}

/// A flying endgame: both sides have 14 pieces or fewer.
const ENDGAME: &str = "14/14/3xx9/3xxo8/4oo8/5o8/14/7x6/6xxo5/7oo5/14/2o11/14/14 b battle 196 10";

/// A deterministic game: the placement plan for both sides, then `plies` battle moves of a
/// depth-2 search.
fn bench_line(plies: usize) -> Jiu {
    let mut pos = Jiu::new();
    while pos.phase() == Phase::Place {
        match plan_placement(&pos) {
            Some(mv) => pos.play(&mv),
            None => break,
        }
    }
    let mut engine = Engine::new(1 << 12);
    let stop = StopFlag::new();
    for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        let mut b = Board::from_game(&pos);
        let deadline = Deadline::new(&Limits::depth(2), pos.side_to_move(), &stop);
        let found = engine.search(&mut b, 2, &deadline, &mut |_, _| {});
        match found.and_then(|f| board::to_rules_move(&pos, &f.best)) {
            Some(mv) => pos.play(&mv),
            None => break,
        }
    }
    pos
}

fn strong(spec: &BuiltinSpec) -> Result<Box<dyn Player<Jiu>>, TextError> {
    spec.allow(&["depth", "hash"])?;
    let depth = spec.number::<u32>("depth")?.unwrap_or(64).max(1);
    let mb = spec.number::<usize>("hash")?.unwrap_or(16).clamp(1, 1024);
    Ok(Box::new(Strong {
        engine: Engine::new((mb << 20) / 64),
        depth,
    }))
}

/// `boyi:strong` for Jiu.
pub struct Strong {
    engine: Engine,
    /// Depth when the limits set neither depth nor time.
    depth: u32,
}

impl Strong {
    fn battle(
        &mut self,
        game: &GameHistory<Jiu>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<JiuMove, PlayerError> {
        let pos = game.current();
        let mut b = board_with_history(game);
        let deadline = Deadline::new(limits, pos.side_to_move(), stop);
        let timed = limits.time_budget(pos.side_to_move()).is_some() || limits.nodes.is_some();
        let max_depth = limits.depth.unwrap_or(if timed || limits.infinite {
            64
        } else {
            self.depth
        });
        let started = deadline.started;
        let found = self
            .engine
            .search(&mut b, max_depth, &deadline, &mut |f, nodes| {
                let time = started.elapsed();
                let pv = board::to_rules_move(pos, &f.best)
                    .map(|m| vec![pos.format_move(&m)])
                    .unwrap_or_default();
                info(Info {
                    depth: Some(f.depth),
                    score: Some(to_score(f.value)),
                    pv,
                    nodes: Some(nodes),
                    nps: Some((nodes as f64 / time.as_secs_f64().max(1e-6)) as u64),
                    time: Some(time),
                    text: None,
                })
            });
        let chosen = found.and_then(|f| board::to_rules_move(pos, &f.best));
        chosen
            .or_else(|| limits.root_moves(pos).into_iter().next())
            .ok_or(PlayerError::GameOver)
    }
}

/// The engine board of the current position, with the hashes of the battle positions
/// before it (for repetitions).
fn board_with_history(game: &GameHistory<Jiu>) -> Board {
    let mut b = Board::from_game(game.current());
    let mut pos = game.start().clone();
    let mut past = Vec::new();
    for mv in game.moves() {
        if pos.phase() == Phase::Battle {
            past.push(Board::from_game(&pos).hash);
        }
        pos.play(mv);
    }
    let keep = (b.quiet as usize).min(past.len());
    b.past = past.split_off(past.len() - keep);
    b
}

/// The placement of `boyi:strong`: the point of highest plan value (own doors near the centre
/// plus the opponent's doors taken away), after looking at the opponent's best answer.
pub fn plan_placement(pos: &Jiu) -> Option<JiuMove> {
    let b = Board::from_game(pos);
    let me = b.side;
    let empties: Vec<usize> = (0..POINTS).filter(|&p| b.cells[p] == EMPTY).collect();
    // The first two placements are the ends of the central diagonal.
    let legal: Vec<usize> = pos
        .legal_moves()
        .iter()
        .map(|m| boyi_games::jiu::board::index_of(m.to()) as usize)
        .collect();
    let mut scored: Vec<(i32, usize)> = legal
        .iter()
        .map(|&p| (eval::placement(&b.cells, me, p), p))
        .collect();
    scored.sort_by_key(|&(s, p)| (-s, p));
    // Two-ply check of the leading candidates: our gain minus the opponent's best reply.
    let mut best = None;
    let mut cells = b.cells;
    for &(s, p) in scored.iter().take(8) {
        cells[p] = me;
        let reply = empties
            .iter()
            .filter(|&&q| q != p)
            .map(|&q| eval::placement(&cells, board::other(me), q))
            .max()
            .unwrap_or(0);
        cells[p] = EMPTY;
        let v = s - reply / 2;
        if best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, p));
        }
    }
    let (_, p) = best?;
    board::placement(pos, p as u8)
}

impl Player<Jiu> for Strong {
    fn name(&self) -> String {
        "boyi:strong".to_string()
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn choose(
        &mut self,
        game: &GameHistory<Jiu>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<JiuMove, PlayerError> {
        let pos = game.current();
        if pos.outcome().is_some() {
            return Err(PlayerError::GameOver);
        }
        match pos.phase() {
            Phase::Place => {
                let mv = plan_placement(pos)
                    .filter(|m| !limits.banned.contains(&pos.format_move(m)))
                    .or_else(|| limits.root_moves(pos).into_iter().next())
                    .ok_or(PlayerError::GameOver)?;
                info(Info {
                    depth: Some(1),
                    score: Some(to_score(0)),
                    pv: vec![pos.format_move(&mv)],
                    nodes: Some(1),
                    ..Info::default()
                });
                Ok(mv)
            }
            Phase::Battle => self.battle(game, limits, stop, info),
        }
    }
}

#[cfg(test)]
mod tests;
