//! Connect6 players beyond the generic ones: the strong engine (`boyi:strong`) and the seed
//! 003 baseline (`boyi:seed003`).

pub mod board;
pub mod gaps;
pub mod learned;
pub mod search;
pub mod seed003;
pub mod threats;
pub mod weights;

use crate::player::{GameHistory, Info, Limits, Player, PlayerError, StopFlag};
use crate::registry::{BenchPosition, BuildContext, BuiltinSpec, GamePlayers};
use board::Board6;
use boyi_core::{Game, TextError};
use boyi_games::connect6::{Connect6, Move};
use search::{Config, Engine6};
use std::time::Instant;

impl GamePlayers for Connect6 {
    fn players() -> &'static [(&'static str, &'static str)] {
        &[
            (
                "strong",
                "six-window threats, blocking/threat/positional pairs, PVS over turns with a transposition table; options: width, singles, depth, quiet (turns past the depth), qthreats (threat turns per quiescence node), qtrust (1: a quiescence loss against the best few blocks of a single threat counts), tss (own turns of the root's threat-space search, 0: none), leaf (its turns at quiescence leaves), tslots (places kept for threat-making turns, 0: none), pending (what a quiet leaf loses when the opponent would win by threats, 0: not checked), pturns (own turns of that check), values (what windows of one to five stones of one side are worth, e.g. 1/8/60/260/520), tempo (the side to move's bonus at quiet leaves with eval=0), eval (1 (default) quiet leaves valued by weights fitted to game results, 0 by the window sums)",
            ),
            (
                "seed003",
                "seed 003: shape values with the revaluation F = a·own − (1−a)·opponent, two turns of alpha-beta",
            ),
        ]
    }

    fn build_player(
        spec: &BuiltinSpec,
        _ctx: BuildContext,
    ) -> Option<Result<Box<dyn Player<Connect6>>, TextError>> {
        match spec.name.as_str() {
            "strong" => Some(strong(spec)),
            "seed003" => Some(
                spec.allow(&[])
                    .map(|()| Box::new(seed003::Seed003::default()) as Box<dyn Player<Connect6>>),
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

fn strong(spec: &BuiltinSpec) -> Result<Box<dyn Player<Connect6>>, TextError> {
    spec.allow(&[
        "width", "singles", "depth", "quiet", "qthreats", "qtrust", "tss", "leaf", "tslots",
        "pending", "pturns", "values", "tempo", "eval",
    ])?;
    let mut config = Config::default();
    if let Some(v) = spec.text("values") {
        config.values = window_values(v)?;
    }
    if let Some(t) = spec.number::<i32>("tempo")? {
        config.tempo = t;
    }
    if let Some(e) = spec.number::<u8>("eval")? {
        config.eval = e.min(1);
    }
    if let Some(w) = spec.number::<usize>("width")? {
        config.width = w.max(1);
    }
    if let Some(s) = spec.number::<usize>("singles")? {
        config.singles = s.max(1);
    }
    if let Some(q) = spec.number::<i32>("quiet")? {
        config.quiet_turns = q.max(0);
    }
    if let Some(q) = spec.number::<usize>("qthreats")? {
        config.quiet_threats = q;
    }
    if let Some(t) = spec.number::<u8>("qtrust")? {
        config.quiet_trust = t != 0;
    }
    if let Some(t) = spec.number::<u32>("leaf")? {
        config.leaf_tss = t;
    }
    if let Some(t) = spec.number::<u32>("tss")? {
        config.tss_turns = t;
    }
    if let Some(t) = spec.number::<i32>("pending")? {
        config.pending = t.max(0);
    }
    if let Some(t) = spec.number::<u32>("pturns")? {
        config.pending_turns = t.max(1);
    }
    if let Some(t) = spec.number::<usize>("tslots")? {
        config.threat_slots = t;
    }
    if let Some(d) = spec.number::<u32>("depth")? {
        config.depth = d.max(1);
    }
    Ok(Box::new(Strong6 {
        engine: Engine6::new(config),
    }))
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

impl Player<Connect6> for Strong6 {
    fn name(&self) -> String {
        "boyi:strong".to_string()
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn choose(
        &mut self,
        game: &GameHistory<Connect6>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<Move, PlayerError> {
        let pos = game.current();
        if pos.outcome().is_some() {
            return Err(PlayerError::GameOver);
        }
        let mut b = Board6::from_game(pos);
        let size = b.size();
        let started = Instant::now();
        let found = self.engine.search(&mut b, limits, stop, &mut |f| {
            info(search::info(size, f, started))
        });
        let mv = found.map(|f| b.to_move(f.best.a as usize, f.best.second(), pos));
        match mv {
            Some(mv) if pos.is_legal(&mv) => Ok(mv),
            // Never answer with an illegal move.
            _ => pos
                .legal_moves()
                .into_iter()
                .next()
                .ok_or(PlayerError::GameOver),
        }
    }
}

#[cfg(test)]
mod tests;
