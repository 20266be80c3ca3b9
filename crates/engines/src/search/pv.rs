//! The thinking line: the principal variation a search builds as it goes (a triangular
//! table, one line per ply) and the [`Info`] a player reports for a finished iteration.

use crate::player::Info;
use boyi_core::{Game, Score};
use std::time::Duration;

/// The best line from every ply of the current search path: row `ply` holds the line from
/// that ply on, at columns `ply..len(ply)`.
pub struct PvTable<M> {
    moves: Vec<M>,
    len: Vec<usize>,
    width: usize,
}

impl<M: Copy + Default> PvTable<M> {
    /// A table for lines of up to `max_ply` plies.
    pub fn new(max_ply: usize) -> PvTable<M> {
        let width = max_ply + 1;
        PvTable {
            moves: vec![M::default(); width * width],
            len: vec![0; width],
            width,
        }
    }

    /// A node at `ply` starts with an empty line.
    #[inline(always)]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    /// `m` is the best move at `ply`: its line is `m` then the line of the child.
    #[inline]
    pub fn update(&mut self, ply: usize, m: M) {
        let w = self.width;
        self.moves[ply * w + ply] = m;
        let child = self.len[ply + 1].max(ply + 1);
        let (row, below) = self.moves.split_at_mut((ply + 1) * w);
        row[ply * w + ply + 1..ply * w + child].copy_from_slice(&below[ply + 1..child]);
        self.len[ply] = child;
    }

    /// The line from the root.
    pub fn root_line(&self) -> &[M] {
        &self.moves[..self.len[0]]
    }
}

/// The report of one finished iteration: depth, score, the line as canonical move texts,
/// nodes, speed and time. The line is in the engine's own moves, each made a move of the
/// game by `as_move` in the position it is played in and formatted there; it ends early at
/// a move that has no game move there or is not legal there, so a report never plays an
/// illegal move.
pub fn thinking<G: Game, L>(
    pos: &G,
    depth: u32,
    score: Score,
    line: &[L],
    as_move: impl Fn(&G, &L) -> Option<G::Move>,
    nodes: u64,
    elapsed: Duration,
) -> Info {
    let mut at = pos.clone();
    let mut pv = Vec::with_capacity(line.len());
    for m in line {
        let Some(m) = as_move(&at, m).filter(|m| at.is_legal(m)) else {
            break;
        };
        pv.push(at.format_move(&m));
        at.play(&m);
    }
    Info {
        depth: Some(depth),
        score: Some(score),
        pv,
        nodes: Some(nodes),
        nps: Some((nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64),
        time: Some(elapsed),
        text: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::TicTacToe;
    use boyi_core::NoVariant;

    #[test]
    fn a_line_is_the_move_then_the_childs_line() {
        let mut pv = PvTable::<u8>::new(8);
        pv.clear(0);
        pv.clear(1);
        pv.clear(2);
        pv.update(2, 30);
        pv.update(1, 20);
        pv.update(0, 10);
        assert_eq!(pv.root_line(), &[10, 20, 30]);
        // A new best move at ply 1 whose child has no line cuts the line there.
        pv.clear(2);
        pv.update(1, 21);
        pv.update(0, 11);
        assert_eq!(pv.root_line(), &[11, 21]);
    }

    #[test]
    fn the_report_formats_each_move_in_its_position() {
        let pos = TicTacToe::start(&NoVariant, None).unwrap();
        let moves = pos.legal_moves();
        let mut after = pos.clone();
        after.play(&moves[0]);
        let second = after.legal_moves()[0];
        let mate = Score::Mate(2);
        let line = [moves[0], second];
        let info = thinking(&pos, 3, mate, &line, |_, m| Some(*m), 500, Duration::ZERO);
        assert_eq!(
            info.pv,
            vec![pos.format_move(&moves[0]), after.format_move(&second)]
        );
        assert_eq!(info.score, Some(mate));
        assert_eq!((info.depth, info.nodes), (Some(3), Some(500)));
    }

    #[test]
    fn the_line_ends_at_a_move_that_is_not_legal_in_its_position() {
        let pos = TicTacToe::start(&NoVariant, None).unwrap();
        let first = pos.legal_moves()[0];
        // The same square twice: the second is taken.
        let info = thinking(
            &pos,
            2,
            Score::Units(0),
            &[first, first],
            |_, m| Some(*m),
            9,
            Duration::ZERO,
        );
        assert_eq!(info.pv, vec![pos.format_move(&first)]);
    }
}
