//! Attack detection: whether a square is attacked, whether the side to move is in check, and
//! the same question on the board as it would be after a move (for legality tests without
//! touching the board).

use super::board::{
    Board, EMPTY, Kind, OFF, PALACE, Square, forward, kind_of, own_half, step, tag,
};
use boyi_core::Side;

/// The four orthogonal steps; the first two are vertical (along a file).
pub(crate) const ORTHO: [i32; 4] = [16, -16, 1, -1];
/// The four diagonal steps.
pub(crate) const DIAG: [i32; 4] = [17, 15, -15, -17];

/// The board seen through a pending move: `from` empty, `to` holding a piece of the mover.
/// With `from == to == 0` (a padding square never looked at) it is the board itself.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub sq: &'a [u8; 256],
    pub from: Square,
    pub to: Square,
    /// A code of the mover's side: never an attacker of the mover.
    pub mover: u8,
}

impl View<'_> {
    #[inline(always)]
    fn at(&self, s: Square) -> u8 {
        if s == self.from {
            EMPTY
        } else if s == self.to {
            self.mover
        } else {
            self.sq[s as usize]
        }
    }

    /// Whether `s` is attacked by side `them`. With `KING`, `s` holds a king, so the enemy
    /// king attacks it along an open file at any distance (the flying general).
    #[inline(always)]
    pub fn attacked<const KING: bool>(&self, s: Square, them: usize) -> bool {
        let t_them = tag(them);
        let is = |c: u8, k: Kind| c & 0xF0 == t_them && kind_of(c) == k;
        for (i, &d) in ORTHO.iter().enumerate() {
            let mut t = step(s, d);
            let mut c = self.at(t);
            while c == EMPTY {
                t = step(t, d);
                c = self.at(t);
            }
            if c == OFF {
                continue;
            }
            if c & 0xF0 == t_them {
                match kind_of(c) {
                    Kind::Chariot => return true,
                    Kind::King if KING && i < 2 => return true,
                    Kind::King if t == step(s, d) && PALACE[them][s as usize] => return true,
                    _ => {}
                }
            }
            t = step(t, d);
            c = self.at(t);
            while c == EMPTY {
                t = step(t, d);
                c = self.at(t);
            }
            if is(c, Kind::Cannon) {
                return true;
            }
        }
        for &d in &DIAG {
            let leg = step(s, d);
            if self.at(leg) == EMPTY {
                let horizontal = if d == 17 || d == -15 { 1 } else { -1 };
                let vertical = d - horizontal;
                if is(self.at(step(leg, horizontal)), Kind::Horse)
                    || is(self.at(step(leg, vertical)), Kind::Horse)
                {
                    return true;
                }
            }
        }
        if is(self.at(step(s, -forward(them))), Kind::Pawn) {
            return true;
        }
        !own_half(them, s)
            && (is(self.at(step(s, 1)), Kind::Pawn) || is(self.at(step(s, -1)), Kind::Pawn))
    }
}

impl Board {
    #[inline(always)]
    pub(crate) fn view(&self) -> View<'_> {
        View {
            sq: &self.sq,
            from: 0,
            to: 0,
            mover: 0,
        }
    }

    /// Whether the side to move is in check (the flying general included).
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side.index();
        self.view().attacked::<true>(self.king(us), us ^ 1)
    }

    /// Whether `side`'s king is attacked.
    pub fn king_attacked(&self, side: Side) -> bool {
        let us = side.index();
        self.view().attacked::<true>(self.king(us), us ^ 1)
    }

    /// Whether a piece of `by`'s opponent standing on `s` could be captured by `by` (the
    /// kings' facing counts only when `s` holds a king).
    pub fn is_attacked(&self, s: Square, by: Side) -> bool {
        let v = self.view();
        if self.piece_at(s).is_some_and(|(_, k)| k == Kind::King) {
            v.attacked::<true>(s, by.index())
        } else {
            v.attacked::<false>(s, by.index())
        }
    }
}
