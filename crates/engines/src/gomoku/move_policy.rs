//! The fitted move order of the strong engine (`policy_score`, an option of its search):
//! weights per combination of a candidate's patterns, per place near the stones and per place
//! relative to the last two moves, fitted to a strong player's moves by
//! `examples/gomoku_policy.rs` and written into `policy.rs`.

use super::board::EngineBoard;
use super::learned::{CLASSES, COMBOS, combos, index_table};
use boyi_core::{Point, Side};
use std::sync::OnceLock;

#[path = "policy.rs"]
mod policy;
pub use policy::{POLICY, POLICY_BEFORE, POLICY_CROSS, POLICY_LAST, POLICY_NEAR};

/// Counts of stones within the 5×5 square around a point (the point itself is empty).
pub const NEAR: usize = 25;
/// Places relative to an earlier move (`relation`).
pub const RELATIONS: usize = 11;
/// The ordering weights (`policy_features`), in order: the mover's combinations, the
/// opponent's, the pair of their highest classes, the nearby-stone counts, the place relative
/// to the last move and to the one before.
pub const POLICY_CROSS_AT: usize = 2 * COMBOS;
pub const POLICY_NEAR_AT: usize = POLICY_CROSS_AT + CLASSES * CLASSES;
pub const POLICY_LAST_AT: usize = POLICY_NEAR_AT + NEAR;
pub const POLICY_BEFORE_AT: usize = POLICY_LAST_AT + RELATIONS;
pub const POLICY_WEIGHTS: usize = POLICY_BEFORE_AT + RELATIONS;

/// The ordering weights of a candidate `i` for the side to move (`POLICY_WEIGHTS`): its
/// score is the sum of theirs. The values are fitted to a strong player's choices by
/// `examples/gomoku_policy.rs`.
pub fn policy_features(b: &EngineBoard, i: usize) -> [usize; 6] {
    PolicyScorer::new(b).features(b, i)
}

/// Point `p` relative to an earlier move at `m`: its distance (1 to 5, farther counted as 5),
/// less one, plus 5 when it is not on one of `m`'s lines; 10 without `m`.
#[inline]
pub(super) fn relation(p: Point, m: Option<Point>) -> usize {
    let Some(q) = m else {
        return RELATIONS - 1;
    };
    let dx = p.col.abs_diff(q.col);
    let dy = p.row.abs_diff(q.row);
    let lined = dx == 0 || dy == 0 || dx == dy;
    usize::from(dx.max(dy).clamp(1, 5)) - 1 + if lined { 0 } else { 5 }
}

/// The ordering scores of one position's candidates (`policy_score`): what they share (the
/// side to move, the tables, the last two moves) is looked up once, not per candidate.
pub struct PolicyScorer {
    me: Side,
    weights: &'static [i32; POLICY_WEIGHTS],
    index: &'static [u16],
    combos: &'static [[usize; 4]],
    last: Option<Point>,
    before: Option<Point>,
}

impl PolicyScorer {
    pub fn new(b: &EngineBoard) -> PolicyScorer {
        let at = |back: usize| b.recent(back).map(|m| b.point(m));
        PolicyScorer {
            me: b.side(),
            weights: policy_weights(),
            index: index_table(),
            combos: combos(),
            last: at(0),
            before: at(1),
        }
    }

    /// The weights of candidate `i` (`policy_features`). Always inlined: the candidate loop
    /// of every node calls it, and left to the compiler it was not inlined there (2% more
    /// instructions in a search).
    #[inline(always)]
    pub fn features(&self, b: &EngineBoard, i: usize) -> [usize; 6] {
        let own = self.index[b.fit_key(i, self.me) as usize] as usize;
        let other = self.index[b.fit_key(i, !self.me) as usize] as usize;
        let p = b.point(i);
        [
            own,
            COMBOS + other,
            POLICY_CROSS_AT + self.combos[own][3] * CLASSES + self.combos[other][3],
            POLICY_NEAR_AT + usize::from(b.near(i)).min(NEAR - 1),
            POLICY_LAST_AT + relation(p, self.last),
            POLICY_BEFORE_AT + relation(p, self.before),
        ]
    }

    /// The score of candidate `i`: the sum of its weights.
    #[inline]
    pub fn score(&self, b: &EngineBoard, i: usize) -> i32 {
        self.features(b, i).iter().map(|&f| self.weights[f]).sum()
    }
}

/// The fitted ordering values as one array by weight (`policy_features`).
pub fn policy_weights() -> &'static [i32; POLICY_WEIGHTS] {
    static W: OnceLock<[i32; POLICY_WEIGHTS]> = OnceLock::new();
    W.get_or_init(|| {
        let mut w = [0; POLICY_WEIGHTS];
        for (n, v) in POLICY.iter().enumerate() {
            w[n] = i32::from(v[0]);
            w[COMBOS + n] = i32::from(v[1]);
        }
        let parts: [(usize, &[i16]); 4] = [
            (POLICY_CROSS_AT, &POLICY_CROSS),
            (POLICY_NEAR_AT, &POLICY_NEAR),
            (POLICY_LAST_AT, &POLICY_LAST),
            (POLICY_BEFORE_AT, &POLICY_BEFORE),
        ];
        for (at, values) in parts {
            for (n, &v) in values.iter().enumerate() {
                w[at + n] = i32::from(v);
            }
        }
        w
    })
}

/// A candidate's fitted ordering score for the side to move.
#[inline]
pub fn policy_score(b: &EngineBoard, i: usize) -> i32 {
    PolicyScorer::new(b).score(b, i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::learned::{class, combo};
    use crate::gomoku::pattern::Pattern;
    use boyi_core::Game;
    use boyi_games::gomoku::{Gomoku, Variant};

    #[test]
    fn the_policy_reads_the_patterns_at_a_point_and_its_place_from_the_last_moves() {
        let moves = "h8,a1,h9,a2,h10";
        let mut game = Gomoku::start(&Variant::Freestyle, Some(15)).unwrap();
        game.play_list(moves).unwrap();
        let mut played = EngineBoard::new(15, Variant::Freestyle);
        for m in moves.split(',') {
            played.play(played.index(Point::parse(m, 15).unwrap()));
        }
        // White to move; h11 would give black's open three a straight four.
        let i = played.index(Point::parse("h11", 15).unwrap());
        let f = policy_features(&played, i);
        let (own, other) = (f[0], f[1] - COMBOS);
        assert_eq!(own, combo(played.patterns(i, Side::White)));
        assert_eq!(other, combo(played.patterns(i, Side::Black)));
        assert_eq!(combos()[other][3], class(Pattern::F4));
        assert_eq!(
            f[2],
            POLICY_CROSS_AT + combos()[own][3] * CLASSES + class(Pattern::F4)
        );
        // Next to the last move (h10) on its line; five columns or more from white's a2 and
        // off its lines.
        assert_eq!(f[4], POLICY_LAST_AT);
        assert_eq!(f[5], POLICY_BEFORE_AT + 4 + 5);
        let w = policy_weights();
        assert_eq!(
            policy_score(&played, i),
            f.iter().map(|&k| w[k]).sum::<i32>()
        );
        // A board built from the game knows its last moves too.
        let built = EngineBoard::from_game(&game);
        assert_eq!(policy_features(&built, i), f);
        // Without moves the place is its own weight.
        let empty = EngineBoard::new(15, Variant::Freestyle);
        let f = policy_features(&empty, i);
        assert_eq!(f[4..], [POLICY_LAST_AT + 10, POLICY_BEFORE_AT + 10]);
    }

    #[test]
    fn the_scorer_gives_every_candidate_the_sum_of_its_weights() {
        let w = policy_weights();
        for moves in [
            "h8,i9,j8,g8,i7,h7,j9,j7",
            "a1,o15,b2,n14,c3,m13,d4",
            "h8,h9,h10,i8,g9,a15",
        ] {
            let mut b = EngineBoard::new(15, Variant::Freestyle);
            for m in moves.split(',') {
                let p = Point::parse(m, 15).unwrap();
                assert_eq!(b.point(b.index(p)), p);
                b.play(b.index(p));
                let scorer = PolicyScorer::new(&b);
                for i in b.zone().collect::<Vec<_>>() {
                    let sum: i32 = policy_features(&b, i).iter().map(|&k| w[k]).sum();
                    assert_eq!(scorer.score(&b, i), sum, "{moves}: {}", b.point(i));
                }
            }
        }
    }
}
