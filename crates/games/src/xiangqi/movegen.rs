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
    Board, EMPTY, Kind, Move, OFF, PALACE, Square, code, forward, own_half, step, tag,
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
    file: u8,
    rank: u8,
    check: bool,
    them: usize,
    /// Per direction of [`ORTHO`]: an enemy chariot, cannon or (along the file) king stands
    /// somewhere on the king's ray, so a piece leaving or entering the ray may matter.
    ray: [bool; 4],
    /// Per direction of [`DIAG`]: an enemy horse is held back by the piece on that leg.
    leg: [bool; 4],
}

impl<'a> Guard<'a> {
    fn new(board: &'a Board, us: usize) -> Guard<'a> {
        let them = us ^ 1;
        let king = board.king(us);
        let sq = &board.sq;
        let enemy = tag(them);
        let mut ray = [false; 4];
        for (i, &d) in ORTHO.iter().enumerate() {
            let mut t = step(king, d);
            while sq[t as usize] != OFF {
                let c = sq[t as usize];
                if c & 0xF0 == enemy {
                    let slot = c & 15;
                    if (7..11).contains(&slot) || (slot == 0 && i < 2) {
                        ray[i] = true;
                        break;
                    }
                }
                t = step(t, d);
            }
        }
        let mut leg = [false; 4];
        let horse = |s: Square| {
            let c = sq[s as usize];
            c & 0xF0 == enemy && (5..7).contains(&(c & 15))
        };
        for (i, &d) in DIAG.iter().enumerate() {
            let l = step(king, d);
            let h = if d == 17 || d == -15 { 1 } else { -1 };
            leg[i] = horse(step(l, h)) || horse(step(l, d - h));
        }
        Guard {
            view: View {
                sq,
                from: 0,
                to: 0,
                mover: code(us, 0),
            },
            king,
            file: king & 15,
            rank: king >> 4,
            check: board.view().attacked::<true>(king, them),
            them,
            ray,
            leg,
        }
    }

    /// Whether a piece leaving or entering `s` may change an attack along the king's lines.
    #[inline(always)]
    fn on_live_ray(&self, s: Square) -> bool {
        (s & 15 == self.file && self.ray[if s > self.king { 0 } else { 1 }])
            || (s >> 4 == self.rank && self.ray[if s > self.king { 2 } else { 3 }])
    }

    /// Whether the non-king move `from`→`to` leaves the king safe.
    #[inline(always)]
    fn safe(&self, from: Square, to: Square) -> bool {
        let near = from as i32 - self.king as i32;
        let leg = match near {
            17 => self.leg[0],
            15 => self.leg[1],
            -15 => self.leg[2],
            -17 => self.leg[3],
            _ => false,
        };
        if !(self.check || leg || self.on_live_ray(from) || self.on_live_ray(to)) {
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
