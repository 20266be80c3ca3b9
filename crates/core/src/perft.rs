//! Perft: the number of move paths of a given length, the standard check of move generation.

use crate::Game;

/// Plain perft over [`Game::generate_moves`], with one move buffer per depth allocated once.
pub fn perft_generic<G: Game>(pos: &mut G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::new()).collect();
    walk(pos, depth, &mut buffers)
}

fn walk<G: Game>(pos: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per depth");
    moves.clear();
    pos.generate_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves.iter() {
        pos.play(mv);
        total += walk(pos, depth - 1, rest);
        pos.undo();
    }
    total
}

/// Perft split by first move: `(canonical move text, count)` sorted by byte order of the text.
pub fn divide<G: Game>(pos: &mut G, depth: u32) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let text = pos.format_move(&mv);
            pos.play(&mv);
            let n = if depth <= 1 { 1 } else { pos.perft(depth - 1) };
            pos.undo();
            (text, n)
        })
        .collect();
    out.sort();
    out
}
