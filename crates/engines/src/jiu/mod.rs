//! Jiu players beyond the generic ones: the strong engine (`boyi:strong`) and the seed 002
//! baseline (`boyi:seed002`).
//!
//! - [`board`]: the engines' board, battle move bases and chosen square captures;
//! - [`eval`]: battle evaluation (material, doors, dalians, mobility, safety);
//! - [`plan`]: the placement plan, its parameters hand-set or tuned by self-play results;
//! - [`search`]: PVS with iterative deepening, transposition table and quiescence;
//! - [`seed002`]: the pattern strategies and Eva move choice of seed 002.

pub mod board;
pub mod eval;
pub mod plan;
pub mod search;
pub mod seed002;

use crate::options::{self, OptionDef, PlayerDef};
use crate::player::{GameHistory, Info, InfoSink, Player};
use crate::registry::{BenchPosition, BuildContext, BuiltinSpec, GamePlayers};
use crate::search::pv::thinking;
use crate::search::{Search, TimeManager, score};
use board::Board;
use boyi_core::{Game, TextError};
use boyi_games::jiu::{Jiu, JiuMove, Phase};
use plan::Params;
use search::Engine;

impl GamePlayers for Jiu {
    fn players() -> &'static [PlayerDef] {
        PLAYERS
    }

    fn build_player(
        spec: &BuiltinSpec,
        ctx: BuildContext,
    ) -> Option<Result<Box<dyn Player<Jiu>>, TextError>> {
        match spec.name.as_str() {
            "strong" => Some(strong(spec)),
            "seed002" => Some(seed002::build(&PLAYERS[1], spec, ctx)),
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

/// Bench positions with their depths: one game of the strong engine against itself at
/// depth 2 (placement by the hand plan, after the opening g7, h8, d4) at the start of the
/// battle, 34 and 104 battle plies later, then a flying endgame (both sides 14 pieces or
/// fewer). Fixed texts, so the node signature depends on the search alone.
const BENCH: [(&str, u32); 4] = [
    (
        "oxxxxxoxxxooxx/oxoooxoooooooo/oxxoxooxxxoxox/xxooxxoxoxxxox/oxoxoooxoxoooo/xooxxxxxxxoxxx/ooooxoo1oooxox/xxxxxx1xxxoxox/ooooooxxoooooo/xoxxxxxooxxoxx/xoooxoxxooxooo/xoxoooxoxooxxx/xxxxoxxoxxxxoo/xoxxoooooxooox b battle 196 0",
        6,
    ),
    (
        "oxxxxxoxxxooxx/oxoooxoooooooo/oxxoxooxxxoxox/xxo2ooxoxxxox/2o1o3o1oooo/xoox4xxoxxx/ooo3xxoooxox/1xxx1xxxxxoxox/1oooo4ooooo/x1xx3ooxxoxx/xo5xooxooo/xx2o1xoxooxxx/x7xxxxoo/xoxx1ooooxooox b battle 196 0",
        4,
    ),
    (
        "oxx1xxoxxxoo1x/1x1x2o3oooo/5o2oo1o1x/o4o1ooo2xx/4o8o/ooo7x1xx/o1o3xxo4x/2x3xxx4x/1o2o3o2o2/3x3oox1o2/x1o4ooooo2/x3oo2ooo1xx/x8x2o1/x2x1ooo1x1oo1 b battle 196 0",
        4,
    ),
    (
        "14/14/3xx9/3xxo8/4oo8/5o8/14/7x6/6xxo5/7oo5/14/2o11/14/14 b battle 196 10",
        3,
    ),
];

const PLAYERS: &[PlayerDef] = &[
    PlayerDef::new(
        "strong",
        "battle PVS with transposition table and quiescence over jumps and squares, door/dalian evaluation; placement by a door plan two plies deep",
        STRONG,
    ),
    PlayerDef::new(
        "seed002",
        "seed 002: opening book of 40 placements (Boyer–Moore sequence matching), placement by defence/attack/chain patterns, battle by Eva = move + kill + triple + square",
        &[
            OptionDef::seed("seed of the choices among equal moves"),
            OptionDef::text(
                "book",
                "builtin",
                "the opening book: builtin (the 40 placements of the paper), none, or the path of a book file",
            ),
        ],
    ),
];

const STRONG: &[OptionDef] = &[
    options::hash(16, 1024),
    options::threads(1),
    OptionDef::int(
        "depth",
        1,
        64,
        64,
        "plies of a battle move when no limit is given",
    ),
    OptionDef::int(
        "nodes",
        0,
        1_000_000_000_000,
        0,
        "nodes of a battle move when no limit is given (0: no bound; 1: the first ordered move)",
    ),
    OptionDef::int(
        "quiescence",
        0,
        search::MAX_QS as i64,
        search::MAX_QS as i64,
        "plies of captures beyond the depth",
    ),
    OptionDef::int(
        "lookahead",
        0,
        64,
        plan::CANDIDATES as i64,
        "placements checked against the opponent's best answer (0: each by its own value)",
    ),
    OptionDef::choice(
        "placement",
        &["tuned", "hand"],
        "tuned",
        "the placement plan's values: tuned by self-play results, or hand-set",
    )
    .tuning(),
];

fn strong(spec: &BuiltinSpec) -> Result<Box<dyn Player<Jiu>>, TextError> {
    let o = PLAYERS[0].parse(spec)?;
    // The layer's wrapper around the strong player (not this game's own search engine).
    Ok(Box::new(crate::search::Engine(Strong {
        engine: Engine::with_quiescence(o.get("hash"), o.get("quiescence")),
        depth: o.get("depth"),
        nodes: Some(o.get::<u64>("nodes")).filter(|&n| n > 0),
        placement: if o.text("placement") == "hand" {
            plan::HAND
        } else {
            plan::TUNED
        },
        lookahead: o.get("lookahead"),
    })))
}

/// `boyi:strong` for Jiu.
pub struct Strong {
    engine: Engine,
    /// Depth and nodes of a battle move when the limits set neither depth, nodes nor time.
    depth: u32,
    nodes: Option<u64>,
    placement: Params,
    /// Placements checked against the opponent's best answer.
    lookahead: usize,
}

impl Strong {
    fn battle(
        &mut self,
        game: &GameHistory<Jiu>,
        time: &TimeManager,
        info: InfoSink<'_>,
    ) -> Option<JiuMove> {
        let pos = game.current();
        let mut b = board_with_history(game);
        let max_depth = time.depth.unwrap_or(64);
        let found = self
            .engine
            .search(&mut b, max_depth, time, &mut |f, nodes| {
                let score = score::report(f.value);
                let line = [f.best];
                let as_move = |at: &Jiu, m: &_| board::to_rules_move(at, m);
                info(thinking(
                    pos,
                    f.depth,
                    score,
                    &line,
                    as_move,
                    nodes,
                    time.elapsed(),
                ))
            });
        found.and_then(|f| board::to_rules_move(pos, &f.best))
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

/// The placement of `boyi:strong` by the plan `params`: the best of `lookahead` candidates
/// after the opponent's best answer ([`plan::ranked`]).
pub fn plan_placement(pos: &Jiu, params: &Params, lookahead: usize) -> Option<JiuMove> {
    let (_, p) = *placement_candidates(pos, params, lookahead).first()?;
    board::placement(pos, p as u8)
}

/// The ranked candidate placements of the side to move (the first two placements are the
/// ends of the central diagonal, which the legal moves already say).
pub fn placement_candidates(pos: &Jiu, params: &Params, lookahead: usize) -> Vec<(i32, usize)> {
    let b = Board::from_game(pos);
    let legal: Vec<usize> = pos
        .legal_moves()
        .iter()
        .map(|m| boyi_games::jiu::board::index_of(m.to()) as usize)
        .collect();
    plan::ranked(params, &b.cells, b.side, &legal, lookahead)
}

impl Search<Jiu> for Strong {
    fn name(&self) -> String {
        "boyi:strong".to_string()
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn default_depth(&self) -> u32 {
        self.depth
    }

    fn default_nodes(&self) -> Option<u64> {
        self.nodes
    }

    fn search(
        &mut self,
        game: &GameHistory<Jiu>,
        moves: &[JiuMove],
        time: &TimeManager,
        info: InfoSink<'_>,
    ) -> Option<JiuMove> {
        let pos = game.current();
        match pos.phase() {
            Phase::Place => {
                let mv = plan_placement(pos, &self.placement, self.lookahead)
                    .filter(|m| moves.contains(m))?;
                info(Info {
                    depth: Some(1),
                    score: Some(score::report(0)),
                    pv: vec![pos.format_move(&mv)],
                    nodes: Some(1),
                    ..Info::default()
                });
                Some(mv)
            }
            Phase::Battle => self.battle(game, time, info),
        }
    }
}

#[cfg(test)]
mod tests;
