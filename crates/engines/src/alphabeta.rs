//! A plain fixed-depth alpha-beta (negamax) player over any game, with a pluggable
//! [`Evaluator`]. Iterative deepening up to the depth gives thinking output per depth and a
//! move to return when time, nodes or a stop request end the search early.
//!
//! A turn is whatever the game calls a move (a Connect6 pair, a Jiu jump chain); the search
//! never looks inside one. When a move leaves the same side to move (Jiu's double move at the
//! end of placement), the child's value is not negated.

use crate::eval::Evaluator;
use crate::player::{GameHistory, Info, Limits, Player, PlayerError, StopFlag};
use crate::search::Deadline;
use crate::search::pv::thinking;
use boyi_core::{Game, Outcome, Side};
use std::marker::PhantomData;

/// Larger than any evaluation: a won position is worth `MATE - plies to the win`.
pub use crate::search::score::wide::MATE;
pub use crate::search::score::wide::report as to_score;
const INF: i32 = MATE + 1;
/// The deepest iteration of an unbounded (infinite) search.
const MAX_DEPTH: u32 = 64;

/// The value of a finished game for the side to move, `ply` plies from the root.
fn terminal_value(outcome: Outcome, to_move: Side, ply: i32) -> i32 {
    match outcome.winner {
        None => 0,
        Some(w) if w == to_move => MATE - ply,
        Some(_) => -(MATE - ply),
    }
}

pub struct AlphaBeta<G: Game, E: Evaluator<G>> {
    eval: E,
    /// Depth searched when the limits give none.
    pub depth: u32,
    /// Moves searched per node after ordering (`None`: all).
    pub width: Option<usize>,
    name: String,
    _game: PhantomData<fn() -> G>,
}

struct Search<'a, G: Game, E: Evaluator<G>> {
    eval: &'a mut E,
    width: Option<usize>,
    deadline: Deadline,
    nodes: u64,
    aborted: bool,
    banned: &'a [String],
    buffers: Vec<Vec<G::Move>>,
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    pub fn new(name: impl Into<String>, eval: E, depth: u32, width: Option<usize>) -> Self {
        AlphaBeta {
            width: width.or(eval.default_width()),
            eval,
            depth: depth.max(1),
            name: name.into(),
            _game: PhantomData,
        }
    }
}

impl<G: Game, E: Evaluator<G>> Search<'_, G, E> {
    /// Negamax with alpha-beta; returns the value and fills `pv` with the best line.
    fn negamax(
        &mut self,
        pos: &mut G,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<G::Move>,
    ) -> i32 {
        self.nodes += 1;
        if self.deadline.reached(self.nodes) {
            self.aborted = true;
        }
        if let Some(outcome) = pos.outcome() {
            return terminal_value(outcome, pos.side_to_move(), ply);
        }
        if depth == 0 || self.aborted {
            return self.eval.evaluate(pos);
        }
        let mut moves = self.buffers.pop().unwrap_or_default();
        moves.clear();
        pos.generate_moves(&mut moves);
        if ply == 0 && !self.banned.is_empty() {
            moves.retain(|m| !self.banned.contains(&pos.format_move(m)));
        }
        self.eval.order(pos, &mut moves);
        if let Some(w) = self.width {
            moves.truncate(w.max(1));
        }
        let me = pos.side_to_move();
        let mut best = -INF;
        let mut line = Vec::new();
        for mv in &moves {
            pos.play(mv);
            line.clear();
            let v = if pos.side_to_move() == me {
                self.negamax(pos, depth - 1, ply + 1, alpha, beta, &mut line)
            } else {
                -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha, &mut line)
            };
            pos.undo();
            if self.aborted && ply > 0 {
                break;
            }
            if v > best {
                best = v;
                pv.clear();
                pv.push(mv.clone());
                pv.append(&mut line);
            }
            alpha = alpha.max(v);
            if alpha >= beta || self.aborted {
                break;
            }
        }
        self.buffers.push(moves);
        best
    }
}

impl<G: Game, E: Evaluator<G>> Player<G> for AlphaBeta<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<G::Move, PlayerError> {
        let mut pos = game.current().clone();
        let first = limits
            .root_moves(&pos)
            .into_iter()
            .next()
            .ok_or(PlayerError::GameOver)?;
        let max_depth = if limits.infinite {
            limits.depth.unwrap_or(MAX_DEPTH)
        } else {
            limits.depth.unwrap_or(self.depth)
        };
        let mut search = Search {
            eval: &mut self.eval,
            width: self.width,
            deadline: Deadline::new(limits, pos.side_to_move(), stop),
            nodes: 0,
            aborted: false,
            banned: &limits.banned,
            buffers: Vec::new(),
        };
        let mut best = first;
        for depth in 1..=max_depth {
            let mut pv = Vec::new();
            let v = search.negamax(&mut pos, depth, 0, -INF, INF, &mut pv);
            // A partial iteration still searched its first moves fully: keep its best move
            // only if it improved on nothing yet (depth 1) — otherwise trust the last full one.
            if search.aborted && depth > 1 {
                break;
            }
            if let Some(mv) = pv.first() {
                best = mv.clone();
            }
            let elapsed = search.deadline.started.elapsed();
            info(thinking(
                &pos,
                depth,
                to_score(v),
                &pv,
                |_, m| Some(m.clone()),
                search.nodes,
                elapsed,
            ));
            if search.aborted || v.abs() > MATE - 1000 {
                break;
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::NoEval;
    use crate::tictactoe::TicTacToe;
    use boyi_core::{NoVariant, Point, Score};

    fn play(list: &str) -> GameHistory<TicTacToe> {
        let mut h = GameHistory::new(TicTacToe::start(&NoVariant, None).unwrap());
        for m in list.split(',') {
            h.push_text(m).unwrap();
        }
        h
    }

    #[test]
    fn finds_the_win_and_the_only_defence() {
        let mut p = AlphaBeta::<TicTacToe, _>::new("ab", NoEval, 3, None);
        let stop = StopFlag::new();
        let mut infos = Vec::new();
        // x: a1 b1, o: a2 b2, x to move wins at c1.
        let win = p.choose(&play("a1,a2,b1,b2"), &Limits::default(), &stop, &mut |i| {
            infos.push(i)
        });
        assert_eq!(win, Ok(Point::parse("c1", 3).unwrap()));
        assert_eq!(infos.last().unwrap().score, Some(Score::Mate(1)));
        // x: a1 b1, o: b2 — o must block at c1.
        let block = p.choose(&play("a1,b2,b1"), &Limits::default(), &stop, &mut |_| {});
        assert_eq!(block, Ok(Point::parse("c1", 3).unwrap()));
    }

    #[test]
    fn full_depth_search_draws_from_the_start() {
        let mut p = AlphaBeta::<TicTacToe, _>::new("ab", NoEval, 9, None);
        let mut last = None;
        let h = GameHistory::new(TicTacToe::start(&NoVariant, None).unwrap());
        p.choose(&h, &Limits::default(), &StopFlag::new(), &mut |i| {
            last = i.score
        })
        .unwrap();
        assert_eq!(last, Some(Score::Units(0)));
    }

    #[test]
    fn a_stopped_search_still_answers_legally() {
        let mut p = AlphaBeta::<TicTacToe, _>::new("ab", NoEval, 9, None);
        let stop = StopFlag::new();
        stop.stop();
        let h = play("a1");
        let mv = p
            .choose(&h, &Limits::default(), &stop, &mut |_| {})
            .unwrap();
        assert!(h.current().is_legal(&mv));
    }

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(MATE - 3), Score::Mate(2));
        assert_eq!(to_score(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(to_score(35), Score::Units(35));
    }
}
