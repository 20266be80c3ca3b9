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

/// A win at the root itself; a win `n` plies away is `MATE - n`.
pub const MATE: i32 = 30000;
/// Beyond every value: the open window of a search.
pub const INF: i32 = 31000;
/// The deepest ply a search reaches (its stacks are this long).
pub const MAX_PLY: usize = 120;
/// Values at or beyond this are decided games and carry a distance in plies.
pub const MATE_BOUND: i32 = MATE - 1000;

/// Whether `v` is a decided game (either side's win).
#[inline(always)]
pub fn is_decided(v: i32) -> bool {
    v.abs() >= MATE_BOUND
}

/// A root-relative value made relative to the node at `ply`, for storing.
#[inline(always)]
pub fn to_tt(v: i32, ply: i32) -> i32 {
    if v >= MATE_BOUND {
        v + ply
    } else if v <= -MATE_BOUND {
        v - ply
    } else {
        v
    }
}

/// A stored node-relative value made relative to the root again, probed at `ply`.
#[inline(always)]
pub fn from_tt(v: i32, ply: i32) -> i32 {
    if v >= MATE_BOUND {
        v - ply
    } else if v <= -MATE_BOUND {
        v + ply
    } else {
        v
    }
}

/// The side-relative mate distance of a value, if it is a decided game within the search's
/// reach: moves (not plies) to mate, negative when the side to move loses. A loss by a rule
/// can come with the loser's own move (an odd ply): that is a loss in one move too.
pub fn mate_moves(v: i32) -> Option<i32> {
    if v >= MATE - MAX_PLY as i32 {
        Some((MATE - v + 1) / 2)
    } else if v <= -MATE + MAX_PLY as i32 {
        Some(-((MATE + v + 1) / 2))
    } else {
        None
    }
}

/// A value as players report it.
pub fn report(v: i32) -> Score {
    match mate_moves(v) {
        Some(n) => Score::Mate(n),
        None => Score::Units(v),
    }
}

/// The older, wider scale of the engines not yet on [`MATE`] — Gomoku, Connect6 and the
/// generic alpha-beta player: a win is worth 1,000,000 less its plies, and values beyond
/// ±[`wide::WIN_BOUND`] are decided. Their evaluations are not yet checked to fit the narrow
/// scale's 16-bit table entries; until they move, this is their one copy.
pub mod wide {
    use boyi_core::Score;

    pub const MATE: i32 = 1_000_000;
    pub const WIN_BOUND: i32 = MATE - 1000;

    /// A root-relative value made relative to the node at `ply`, for storing.
    #[inline(always)]
    pub fn to_tt(v: i32, ply: i32) -> i32 {
        if v > WIN_BOUND {
            v + ply
        } else if v < -WIN_BOUND {
            v - ply
        } else {
            v
        }
    }

    /// A stored node-relative value made relative to the root again, probed at `ply`.
    #[inline(always)]
    pub fn from_tt(v: i32, ply: i32) -> i32 {
        if v > WIN_BOUND {
            v - ply
        } else if v < -WIN_BOUND {
            v + ply
        } else {
            v
        }
    }

    /// A value as players report it, mate distances in moves of the mover.
    pub fn report(v: i32) -> Score {
        if v.abs() > WIN_BOUND {
            let plies = MATE - v.abs();
            let moves = (plies + 1) / 2;
            Score::Mate(if v > 0 { moves } else { -moves })
        } else {
            Score::Units(v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::Score;

    #[test]
    fn mate_distances() {
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
        // A win five plies from the root, seen at ply 3: two plies from that node.
        assert_eq!(to_tt(MATE - 5, 3), MATE - 2);
        assert_eq!(from_tt(MATE - 2, 1), MATE - 3);
        assert_eq!(to_tt(-(MATE - 6), 2), -(MATE - 4));
        assert_eq!(from_tt(-(MATE - 4), 2), -(MATE - 6));
        for v in [0, 250, -MATE_BOUND + 1, MATE_BOUND - 1] {
            assert_eq!((to_tt(v, 7), from_tt(v, 7)), (v, v));
        }
        assert!(is_decided(MATE_BOUND) && is_decided(-MATE + 3) && !is_decided(MATE_BOUND - 1));
    }

    #[test]
    fn the_wide_scale_stores_and_reports_its_wins_the_same_way() {
        use super::wide;
        assert_eq!(wide::to_tt(wide::MATE - 5, 3), wide::MATE - 2);
        assert_eq!(wide::from_tt(-(wide::MATE - 4), 2), -(wide::MATE - 6));
        assert_eq!(wide::to_tt(wide::WIN_BOUND, 9), wide::WIN_BOUND);
        assert_eq!(wide::report(wide::MATE - 3), Score::Mate(2));
        assert_eq!(wide::report(-(wide::MATE - 2)), Score::Mate(-1));
        assert_eq!(wide::report(1234), Score::Units(1234));
    }
}
