//! Legal move generation and perft.
//!
//! Moves are generated pseudo-legally piece by piece and tested only when they could expose
//! the own king: when in check, for king moves, and for moves that leave or enter the king's
//! file or rank (chariots, cannons and the facing kings attack along them, and a piece
//! arriving there may become a cannon screen) or leave a square diagonally next to the king
//! (a horse's leg). Any other move cannot change an attack on the king, so it is legal
//! without a test. The test looks at the board through the move ([`View`]), so generation
//! needs only `&self`.

use super::attacks::{DIAG, ORTHO, View};
use super::board::{
    Board, EMPTY, Kind, Move, OFF, PALACE, Square, code, forward, index90, own_half, step, tag,
};

/// The legal moves of a position, in a fixed array: no allocation. Xiangqi positions have
/// at most 116 pseudo-legal moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 128],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::default(); 128],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

/// What the legality filter needs to know about the mover's king.
struct Guard<'a> {
    view: View<'a>,
    king: Square,
    check: bool,
    /// In check: the squares a non-king move must leave or reach to answer some check
    /// (checkers, the squares between them and the king, cannon screens, horse legs).
    evade: u128,
    /// Not in check: squares whose piece may not leave without a test (the only blocker of
    /// a chariot or the king, one of the two pieces before a cannon, a horse's leg) ...
    risk_from: u128,
    /// ... and squares a piece may not enter without a test (between the king and a cannon
    /// with nothing in between: the piece would become its screen).
    risk_to: u128,
    them: usize,
}

impl<'a> Guard<'a> {
    /// Looks at everything around the king once: checks and the squares that can answer
    /// them, and the few squares where a move can expose the king.
    fn new(board: &'a Board, us: usize) -> Guard<'a> {
        let them = us ^ 1;
        let king = board.king(us);
        let sq = &board.sq;
        let enemy = tag(them);
        let is_enemy =
            |c: u8, slots: std::ops::Range<u8>| c & 0xF0 == enemy && slots.contains(&(c & 15));
        let mut g = Guard {
            view: View {
                sq,
                from: 0,
                to: 0,
                mover: code(us, 0),
            },
            king,
            check: false,
            evade: 0,
            risk_from: 0,
            risk_to: 0,
            them,
        };
        for (i, &d) in ORTHO.iter().enumerate() {
            // The first three pieces along the ray and the empty squares before the first
            // two; a fourth piece can never matter (it stays behind two blockers).
            let mut pieces = [(0u8, 0u8); 3];
            let mut gaps = [0u128; 2];
            let mut t = king;
            let mut found = 0;
            while found < 3 {
                t = step(t, d);
                let c = sq[t as usize];
                if c == EMPTY {
                    if found < 2 {
                        gaps[found] |= bit(t);
                    }
                    continue;
                }
                if c == OFF {
                    break;
                }
                pieces[found] = (t, c);
                found += 1;
            }
            let flying = |c: u8| c & 0xF0 == enemy && (is_enemy(c, 7..9) || (i < 2 && c & 15 == 0));
            let [(t1, c1), (t2, c2), (_, c3)] = pieces;
            if flying(c1) {
                g.check = true;
                g.evade |= gaps[0] | bit(t1);
            }
            if is_enemy(c1, 9..11) {
                g.risk_to |= gaps[0];
            }
            if is_enemy(c2, 9..11) {
                g.check = true;
                g.evade |= gaps[0] | bit(t1) | gaps[1] | bit(t2);
            }
            if flying(c2) {
                g.risk_from |= bit(t1);
            }
            if is_enemy(c3, 9..11) {
                g.risk_from |= bit(t1) | bit(t2);
            }
        }
        for &d in &DIAG {
            let l = step(king, d);
            let h = if d == 17 || d == -15 { 1 } else { -1 };
            for horse in [step(l, h), step(l, d - h)] {
                if is_enemy(sq[horse as usize], 5..7) {
                    if sq[l as usize] == EMPTY {
                        g.check = true;
                        g.evade |= bit(l) | bit(horse);
                    } else {
                        g.risk_from |= bit(l);
                    }
                }
            }
        }
        for pawn in [step(king, forward(us)), step(king, 1), step(king, -1)] {
            if is_enemy(sq[pawn as usize], 11..16) {
                g.check = true;
                g.evade |= bit(pawn);
            }
        }
        g
    }

    /// Whether the non-king move `from`→`to` leaves the king safe.
    #[inline(always)]
    fn safe(&self, from: Square, to: Square) -> bool {
        if self.check {
            if self.evade & (bit(from) | bit(to)) == 0 {
                return false;
            }
        } else if (self.risk_from | self.risk_to) == 0
            || (self.risk_from & bit(from)) | (self.risk_to & bit(to)) == 0
        {
            return true;
        }
        let v = View {
            from,
            to,
            ..self.view
        };
        !v.attacked::<true>(self.king, self.them)
    }

    /// Whether the king may step from `from` to `to`.
    #[inline(always)]
    fn king_safe(&self, from: Square, to: Square) -> bool {
        let v = View {
            from,
            to,
            ..self.view
        };
        !v.attacked::<true>(to, self.them)
    }
}

/// The bit of a board square in a 90-bit set.
#[inline(always)]
fn bit(s: Square) -> u128 {
    1u128 << index90(s)
}

impl Board {
    /// Appends every legal move of the side to move to `list` (cleared first).
    pub fn gen_legal(&self, list: &mut MoveList) {
        list.clear();
        let us = self.side.index();
        let them = us ^ 1;
        let king = self.king(us);
        let g = Guard::new(self, us);
        let enemy = tag(them);
        let alive = self.alive[us];
        let pos = &self.pos[us];
        let sq = &self.sq;
        let target_ok = |c: u8| c == EMPTY || c & 0xF0 == enemy;

        let mut bits = alive & Kind::Chariot.mask();
        while bits != 0 {
            let from = pos[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            for &d in &ORTHO {
                let mut to = step(from, d);
                loop {
                    let c = sq[to as usize];
                    if c == EMPTY {
                        if g.safe(from, to) {
                            list.push(Move::new(from, to));
                        }
                        to = step(to, d);
                        continue;
                    }
                    if c & 0xF0 == enemy && g.safe(from, to) {
                        list.push(Move::new(from, to));
                    }
                    break;
                }
            }
        }

        let mut bits = alive & Kind::Cannon.mask();
        while bits != 0 {
            let from = pos[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            for &d in &ORTHO {
                let mut to = step(from, d);
                while sq[to as usize] == EMPTY {
                    if g.safe(from, to) {
                        list.push(Move::new(from, to));
                    }
                    to = step(to, d);
                }
                if sq[to as usize] == OFF {
                    continue;
                }
                to = step(to, d);
                while sq[to as usize] == EMPTY {
                    to = step(to, d);
                }
                if sq[to as usize] & 0xF0 == enemy && g.safe(from, to) {
                    list.push(Move::new(from, to));
                }
            }
        }

        let mut bits = alive & Kind::Horse.mask();
        while bits != 0 {
            let from = pos[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            for &d in &ORTHO {
                if sq[step(from, d) as usize] != EMPTY {
                    continue;
                }
                let side_step = if d == 16 || d == -16 { 1 } else { 16 };
                for to in [step(from, 2 * d + side_step), step(from, 2 * d - side_step)] {
                    if target_ok(sq[to as usize]) && g.safe(from, to) {
                        list.push(Move::new(from, to));
                    }
                }
            }
        }

        let mut bits = alive & Kind::Pawn.mask();
        let fwd = forward(us);
        while bits != 0 {
            let from = pos[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            let to = step(from, fwd);
            if target_ok(sq[to as usize]) && g.safe(from, to) {
                list.push(Move::new(from, to));
            }
            if !own_half(us, from) {
                for to in [step(from, 1), step(from, -1)] {
                    if target_ok(sq[to as usize]) && g.safe(from, to) {
                        list.push(Move::new(from, to));
                    }
                }
            }
        }

        let mut bits = alive & Kind::Elephant.mask();
        while bits != 0 {
            let from = pos[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            for &d in &DIAG {
                let eye = step(from, d);
                if sq[eye as usize] != EMPTY {
                    continue;
                }
                let to = step(eye, d);
                let c = sq[to as usize];
                if c != OFF && own_half(us, to) && target_ok(c) && g.safe(from, to) {
                    list.push(Move::new(from, to));
                }
            }
        }

        let mut bits = alive & Kind::Advisor.mask();
        while bits != 0 {
            let from = pos[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            for &d in &DIAG {
                let to = step(from, d);
                if PALACE[us][to as usize] && target_ok(sq[to as usize]) && g.safe(from, to) {
                    list.push(Move::new(from, to));
                }
            }
        }

        for &d in &ORTHO {
            let to = step(king, d);
            if PALACE[us][to as usize] && target_ok(sq[to as usize]) && g.king_safe(king, to) {
                list.push(Move::new(king, to));
            }
        }
    }

    /// Perft with bulk counting at the last ply: the number of legal move paths of length
    /// `depth`, with no history rules (see [`super::Xiangqi`] for the game-level count).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        self.gen_legal(&mut list);
        if depth == 1 {
            return list.len() as u64;
        }
        let mut total = 0;
        for &m in list.iter() {
            let cap = self.make(m);
            total += self.perft(depth - 1);
            self.unmake(m, cap);
        }
        total
    }
}
