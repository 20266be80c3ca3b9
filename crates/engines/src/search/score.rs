//! Search values: the integers a search compares, and their one outward form,
//! [`boyi_core::Score`].
//!
//! A value is in the game's evaluation units from the side to move's view, well inside
//! ±[`MATE_BOUND`]. A decided game — checkmate, stalemate, or a win or loss by a game's
//! rules (Xiangqi's perpetual check) — is worth [`MATE`] less the plies from the root to the
//! ply where the game ends, so a shorter win is worth more and a longer loss less. Every
//! value at or beyond ±[`MATE_BOUND`] is such a decided game: the transposition table stores
//! it relative to its node ([`to_tt`], [`from_tt`]) and reports give it as moves to mate.

use boyi_core::Score;

/// A scale of search values: a win at the root is worth `mate`, a win `n` plies away
/// `mate - n`, and every value within 1,000 of `±mate` ([`Scale::bound`]) is a decided game.
/// Two scales exist because the games' evaluations differ in range, not in meaning:
/// [`NARROW`] for Xiangqi and Jiu, whose values fit 16 bits, and [`WIDE`] for Gomoku, Connect6
/// and the generic alpha-beta player, whose line and window values run to hundreds of
/// thousands. Everything else — storing, reporting, mate distances — is the same for both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scale {
    pub mate: i32,
}

/// Xiangqi's and Jiu's scale (a win at the root is 30,000).
pub const NARROW: Scale = Scale { mate: 30_000 };
/// Gomoku's, Connect6's and the generic alpha-beta player's (a win at the root is 1,000,000).
pub const WIDE: Scale = Scale { mate: 1_000_000 };

/// A win at the root on [`NARROW`]; a win `n` plies away is `MATE - n`.
pub const MATE: i32 = NARROW.mate;
/// Beyond every value on [`NARROW`]: the open window of a search.
pub const INF: i32 = 31000;
/// The deepest ply a search reaches (its stacks are this long).
pub const MAX_PLY: usize = 120;
/// Values at or beyond this on [`NARROW`] are decided games and carry a distance in plies.
pub const MATE_BOUND: i32 = NARROW.bound();

impl Scale {
    /// Values at or beyond this, of either sign, are decided games.
    pub const fn bound(self) -> i32 {
        self.mate - 1000
    }

    /// The bits a value takes stored: its sign and every magnitude up to `mate`.
    pub const fn bits(self) -> u32 {
        33 - (self.mate as u32).leading_zeros()
    }

    /// Whether `v` is a decided game (either side's win).
    #[inline(always)]
    pub const fn is_decided(self, v: i32) -> bool {
        v.abs() >= self.bound()
    }

    /// A root-relative value made relative to the node at `ply`, for storing.
    #[inline(always)]
    pub const fn to_tt(self, v: i32, ply: i32) -> i32 {
        if v >= self.bound() {
            v + ply
        } else if v <= -self.bound() {
            v - ply
        } else {
            v
        }
    }

    /// A stored node-relative value made relative to the root again, probed at `ply`.
    #[inline(always)]
    pub const fn from_tt(self, v: i32, ply: i32) -> i32 {
        if v >= self.bound() {
            v - ply
        } else if v <= -self.bound() {
            v + ply
        } else {
            v
        }
    }

    /// The side-relative mate distance of a value, if it is a decided game within the
    /// search's reach: moves (not plies) to mate, negative when the side to move loses. A
    /// loss by a rule can come with the loser's own move (an odd ply): that is a loss in one
    /// move too.
    pub const fn mate_moves(self, v: i32) -> Option<i32> {
        if v >= self.mate - MAX_PLY as i32 {
            Some((self.mate - v + 1) / 2)
        } else if v <= -self.mate + MAX_PLY as i32 {
            Some(-((self.mate + v + 1) / 2))
        } else {
            None
        }
    }

    /// A value as players report it.
    pub fn report(self, v: i32) -> Score {
        match self.mate_moves(v) {
            Some(n) => Score::Mate(n),
            None => Score::Units(v),
        }
    }
}

/// A value on [`NARROW`] as players report it.
pub fn report(v: i32) -> Score {
    NARROW.report(v)
}

/// [`WIDE`]'s two constants under the names its engines use.
pub mod wide {
    use super::WIDE;

    pub const MATE: i32 = WIDE.mate;
    pub const WIN_BOUND: i32 = WIDE.bound();

    /// A value on [`WIDE`] as players report it.
    pub fn report(v: i32) -> boyi_core::Score {
        WIDE.report(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::Score;

    #[test]
    fn mate_distances() {
        let mate_moves = |v| NARROW.mate_moves(v);
        assert_eq!(mate_moves(MATE - 1), Some(1));
        assert_eq!(mate_moves(MATE - 3), Some(2));
        assert_eq!(mate_moves(-MATE + 2), Some(-1));
        assert_eq!(mate_moves(-MATE + 1), Some(-1));
        assert_eq!(mate_moves(-MATE + 4), Some(-2));
        assert_eq!(mate_moves(500), None);
        assert_eq!(report(-MATE + 4), Score::Mate(-2));
        assert_eq!(report(-35), Score::Units(-35));
    }

    #[test]
    fn decided_values_are_stored_relative_to_their_node() {
        let (to_tt, from_tt) = (|v, p| NARROW.to_tt(v, p), |v, p| NARROW.from_tt(v, p));
        // A win five plies from the root, seen at ply 3: two plies from that node.
        assert_eq!(to_tt(MATE - 5, 3), MATE - 2);
        assert_eq!(from_tt(MATE - 2, 1), MATE - 3);
        assert_eq!(to_tt(-(MATE - 6), 2), -(MATE - 4));
        assert_eq!(from_tt(-(MATE - 4), 2), -(MATE - 6));
        for v in [0, 250, -MATE_BOUND + 1, MATE_BOUND - 1] {
            assert_eq!((to_tt(v, 7), from_tt(v, 7)), (v, v));
        }
        let is_decided = |v| NARROW.is_decided(v);
        assert!(is_decided(MATE_BOUND) && is_decided(-MATE + 3) && !is_decided(MATE_BOUND - 1));
    }

    #[test]
    fn the_wide_scale_stores_and_reports_its_wins_the_same_way() {
        let mate = WIDE.mate;
        assert_eq!(WIDE.to_tt(mate - 5, 3), mate - 2);
        assert_eq!(WIDE.from_tt(-(mate - 4), 2), -(mate - 6));
        assert_eq!(WIDE.to_tt(WIDE.bound() - 1, 9), WIDE.bound() - 1);
        assert_eq!(WIDE.report(mate - 3), Score::Mate(2));
        assert_eq!(WIDE.report(-(mate - 2)), Score::Mate(-1));
        assert_eq!(WIDE.report(1234), Score::Units(1234));
        assert!(WIDE.is_decided(-WIDE.bound()) && !WIDE.is_decided(WIDE.bound() - 1));
    }

    #[test]
    fn each_scale_knows_the_bits_its_values_take() {
        // A sign and 15 bits hold ±30,000; a sign and 20 bits ±1,000,000.
        assert_eq!((NARROW.bits(), WIDE.bits()), (16, 21));
        for scale in [NARROW, WIDE] {
            let top = 1i64 << (scale.bits() - 1);
            assert!(i64::from(scale.mate) < top && i64::from(scale.mate) >= top / 2);
        }
    }
}
