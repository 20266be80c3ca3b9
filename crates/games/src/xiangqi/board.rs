//! The board: a padded 16×16 mailbox of piece codes, with a fixed slot per piece so that
//! every side's pieces can be walked without scanning the board, and make/unmake that
//! restore every byte exactly (no allocation, no reordering).
//!
//! Squares are `u8` indices `(rank + 3) * 16 + file + 3`: three rings of off-board squares
//! around the 9×10 board let horse and elephant jumps and ray walks stop on an `OFF` code
//! instead of testing coordinates.

use super::zobrist;
use boyi_core::Side;

/// A square of the padded board.
pub type Square = u8;

pub const EMPTY: u8 = 0;
/// Off-board marker. Never equal to a piece code, never empty.
pub const OFF: u8 = 0x80;
/// Set in every piece code.
pub const PIECE: u8 = 0x20;

/// The kinds of pieces, in slot order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    King,
    Advisor,
    Elephant,
    Horse,
    Chariot,
    Cannon,
    Pawn,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// The slots a side has for this kind (a side holds at most this many).
    pub const fn slots(self) -> std::ops::Range<usize> {
        match self {
            Kind::King => 0..1,
            Kind::Advisor => 1..3,
            Kind::Elephant => 3..5,
            Kind::Horse => 5..7,
            Kind::Chariot => 7..9,
            Kind::Cannon => 9..11,
            Kind::Pawn => 11..16,
        }
    }

    /// The slot bits of this kind in a side's alive mask.
    pub const fn mask(self) -> u16 {
        let r = self.slots();
        (((1u32 << r.end) - (1u32 << r.start)) & 0xFFFF) as u16
    }

    /// FEN letter (upper case for red).
    pub fn letter(self, side: Side) -> char {
        let c = match self {
            Kind::King => 'k',
            Kind::Advisor => 'a',
            Kind::Elephant => 'b',
            Kind::Horse => 'n',
            Kind::Chariot => 'r',
            Kind::Cannon => 'c',
            Kind::Pawn => 'p',
        };
        if side == Side::White {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }
}

const SLOT_KIND: [Kind; 16] = [
    Kind::King,
    Kind::Advisor,
    Kind::Advisor,
    Kind::Elephant,
    Kind::Elephant,
    Kind::Horse,
    Kind::Horse,
    Kind::Chariot,
    Kind::Chariot,
    Kind::Cannon,
    Kind::Cannon,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
];

/// The piece code of `side`'s piece in `slot`.
#[inline(always)]
pub const fn code(side: usize, slot: usize) -> u8 {
    PIECE | ((side as u8) << 4) | slot as u8
}

/// The high nibble every piece code of `side` has: `c & 0xF0 == tag(side)`.
#[inline(always)]
pub const fn tag(side: usize) -> u8 {
    PIECE | ((side as u8) << 4)
}

#[inline(always)]
pub fn kind_of(code: u8) -> Kind {
    SLOT_KIND[(code & 15) as usize]
}

#[inline(always)]
pub fn side_of(code: u8) -> usize {
    ((code >> 4) & 1) as usize
}

pub const fn square(file: usize, rank: usize) -> Square {
    ((rank + 3) * 16 + file + 3) as Square
}

#[inline(always)]
pub const fn file_of(s: Square) -> usize {
    (s & 15) as usize - 3
}

#[inline(always)]
pub const fn rank_of(s: Square) -> usize {
    (s >> 4) as usize - 3
}

/// Index 0..90 of a board square (rank-major from a0), for compact tables.
#[inline(always)]
pub const fn index90(s: Square) -> usize {
    rank_of(s) * 9 + file_of(s)
}

pub const fn on_board(s: usize) -> bool {
    let (f, r) = (s & 15, s >> 4);
    f >= 3 && f < 12 && r >= 3 && r < 13
}

/// Whether `s` lies in `side`'s palace (side index: 0 black, 1 red).
pub const fn in_palace(side: usize, s: usize) -> bool {
    if !on_board(s) {
        return false;
    }
    let (f, r) = (s & 15, s >> 4);
    let r = r - 3;
    let f = f - 3;
    let ranks_ok = if side == 1 { r <= 2 } else { r >= 7 };
    ranks_ok && f >= 3 && f <= 5
}

/// Whether `s` is on `side`'s own half (before the river).
#[inline(always)]
pub const fn own_half(side: usize, s: Square) -> bool {
    let r = rank_of(s);
    if side == 1 { r <= 4 } else { r >= 5 }
}

/// The step a pawn of `side` moves forward (red up the ranks, black down).
#[inline(always)]
pub const fn forward(side: usize) -> i32 {
    if side == 1 { 16 } else { -16 }
}

const fn palace_table() -> [[bool; 256]; 2] {
    let mut t = [[false; 256]; 2];
    let mut s = 0;
    while s < 256 {
        t[0][s] = in_palace(0, s);
        t[1][s] = in_palace(1, s);
        s += 1;
    }
    t
}

/// `PALACE[side][square]`.
pub static PALACE: [[bool; 256]; 2] = palace_table();

/// `s + d` on the padded board. Callers only step from board squares by at most two ranks
/// or files, which the padding keeps inside `0..256`.
#[inline(always)]
pub fn step(s: Square, d: i32) -> Square {
    (s as i32 + d) as Square
}

/// One move: from and to squares of the padded board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

/// Placement, side to move and hash. Clocks and history live in [`super::Xiangqi`].
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    pub(crate) sq: [u8; 256],
    /// Square of each slot, by side index (0 black, 1 red); meaningful for alive slots.
    pub(crate) pos: [[Square; 16]; 2],
    /// Alive slots, by side index.
    pub(crate) alive: [u16; 2],
    pub(crate) side: Side,
    pub(crate) hash: u64,
}

impl Board {
    /// The board with no pieces and `side` to move.
    pub fn empty(side: Side) -> Board {
        let mut sq = [OFF; 256];
        for (s, v) in sq.iter_mut().enumerate() {
            if on_board(s) {
                *v = EMPTY;
            }
        }
        let mut b = Board {
            sq,
            pos: [[0; 16]; 2],
            alive: [0; 2],
            side,
            hash: 0,
        };
        b.hash = b.compute_hash();
        b
    }

    /// Puts a piece on an empty square, in the first free slot of its kind; `false` if the
    /// side already has as many of that kind as the game has.
    pub fn put(&mut self, side: Side, kind: Kind, s: Square) -> bool {
        let si = side.index();
        let Some(slot) = kind.slots().find(|&k| self.alive[si] & (1 << k) == 0) else {
            return false;
        };
        let c = code(si, slot);
        self.sq[s as usize] = c;
        self.pos[si][slot] = s;
        self.alive[si] |= 1 << slot;
        self.hash ^= zobrist::piece(c, index90(s));
        true
    }

    pub fn side_to_move(&self) -> Side {
        self.side
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The piece on a board square, if any.
    pub fn piece_at(&self, s: Square) -> Option<(Side, Kind)> {
        let c = self.sq[s as usize];
        (c & PIECE != 0 && c != OFF).then(|| {
            let side = if side_of(c) == 1 {
                Side::White
            } else {
                Side::Black
            };
            (side, kind_of(c))
        })
    }

    /// The square of `side`'s king.
    #[inline(always)]
    pub fn king(&self, side: usize) -> Square {
        self.pos[side][0]
    }

    /// The squares of `side`'s pieces of `kind`.
    pub fn squares_of(&self, side: Side, kind: Kind) -> impl Iterator<Item = Square> + '_ {
        let si = side.index();
        kind.slots()
            .filter(move |&k| self.alive[si] & (1 << k) != 0)
            .map(move |k| self.pos[si][k])
    }

    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Side::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for (s, &c) in self.sq.iter().enumerate() {
            if c != EMPTY && c != OFF {
                h ^= zobrist::piece(c, index90(s as Square));
            }
        }
        h
    }

    /// The padded board of piece codes (`EMPTY`, `OFF` or a piece code), for engines.
    #[inline(always)]
    pub fn cells(&self) -> &[u8; 256] {
        &self.sq
    }

    /// The alive slot mask of `side` (side index: 0 black, 1 red).
    #[inline(always)]
    pub fn alive(&self, side: usize) -> u16 {
        self.alive[side]
    }

    /// The squares of `side`'s slots; meaningful for alive slots only.
    #[inline(always)]
    pub fn slot_squares(&self, side: usize) -> &[Square; 16] {
        &self.pos[side]
    }

    /// Passes the move to the other side (a null move, for search pruning); undone by
    /// calling it again.
    #[inline(always)]
    pub fn toggle_side(&mut self) {
        self.side = !self.side;
        self.hash ^= zobrist::BLACK_TO_MOVE;
    }

    /// Plays a pseudo-legal move and returns the captured code (`EMPTY` if none), which
    /// [`Board::unmake`] needs.
    #[inline(always)]
    pub fn make(&mut self, m: Move) -> u8 {
        let (from, to) = (m.from as usize, m.to as usize);
        let c = self.sq[from];
        let cap = self.sq[to];
        let us = side_of(c);
        self.sq[to] = c;
        self.sq[from] = EMPTY;
        self.pos[us][(c & 15) as usize] = m.to;
        let mut h =
            self.hash ^ zobrist::piece(c, index90(m.from)) ^ zobrist::piece(c, index90(m.to));
        if cap != EMPTY {
            self.alive[us ^ 1] &= !(1 << (cap & 15));
            h ^= zobrist::piece(cap, index90(m.to));
        }
        self.hash = h ^ zobrist::BLACK_TO_MOVE;
        self.side = !self.side;
        cap
    }

    /// Takes back `m`, which captured `cap`.
    #[inline(always)]
    pub fn unmake(&mut self, m: Move, cap: u8) {
        let (from, to) = (m.from as usize, m.to as usize);
        let c = self.sq[to];
        let us = side_of(c);
        self.sq[from] = c;
        self.sq[to] = cap;
        self.pos[us][(c & 15) as usize] = m.from;
        let mut h =
            self.hash ^ zobrist::piece(c, index90(m.from)) ^ zobrist::piece(c, index90(m.to));
        if cap != EMPTY {
            self.alive[us ^ 1] |= 1 << (cap & 15);
            h ^= zobrist::piece(cap, index90(m.to));
        }
        self.hash = h ^ zobrist::BLACK_TO_MOVE;
        self.side = !self.side;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        let s = square(4, 0);
        assert_eq!((file_of(s), rank_of(s)), (4, 0));
        assert_eq!(index90(square(8, 9)), 89);
        assert!(PALACE[1][square(3, 2) as usize] && !PALACE[1][square(3, 3) as usize]);
        assert!(PALACE[0][square(5, 7) as usize] && !PALACE[0][square(6, 9) as usize]);
        assert_eq!(Kind::Pawn.mask(), 0xF800);
        assert_eq!(Kind::King.mask(), 1);
    }
}
