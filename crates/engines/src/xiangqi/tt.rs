//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two atomic words: the packed data and the key XOR the data. A reader accepts
//! an entry only if the two agree with its key, so an entry torn by two writers at once reads
//! as a miss rather than as wrong data.
//!
//! Buckets hold two entries. A store goes to the entry of the same position if there is one,
//! else replaces the entry that is worth least: shallow entries and entries of earlier
//! searches go first.
//!
//! Mate scores are stored relative to the node (distance from the node to the mate), and
//! turned back into distance from the root on probing.

use boyi_games::xiangqi::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// The bound kind of a stored score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The score is at most this (all moves failed low).
    Upper = 1,
    /// The score is at least this (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// What a probe finds.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 2;
/// Scores at or beyond this are mates (or rule wins) and carry a distance.
pub const MATE_BOUND: i32 = 29000;

pub struct Tt {
    words: Vec<AtomicU64>,
    buckets: usize,
    age: AtomicU8,
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1) << 20;
        let buckets = (bytes / (16 * ENTRIES_PER_BUCKET)).max(1);
        let words = (0..buckets * ENTRIES_PER_BUCKET * 2)
            .map(|_| AtomicU64::new(0))
            .collect();
        Tt {
            words,
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for w in &self.words {
            w.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.buckets as u128) >> 64) as usize * ENTRIES_PER_BUCKET * 2
    }

    /// The entry stored for `key`, with mate scores made relative to the root at `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        let b = self.bucket(key);
        for e in 0..ENTRIES_PER_BUCKET {
            let data = self.words[b + 2 * e].load(Ordering::Relaxed);
            let check = self.words[b + 2 * e + 1].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return unpack(data, ply);
            }
        }
        None
    }

    /// Stores a search result; `score` is relative to the root at `ply`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: i32,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let b = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed);
        let mut target = 0;
        let mut worst = i32::MAX;
        for e in 0..ENTRIES_PER_BUCKET {
            let data = self.words[b + 2 * e].load(Ordering::Relaxed);
            let check = self.words[b + 2 * e + 1].load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                target = e;
                if data != 0 && mv == Move::default() {
                    // Keep the move of an earlier search of this position.
                    let old = unpack(data, ply);
                    if let Some(old) = old {
                        if old.depth > depth + 2 && bound != Bound::Exact {
                            return;
                        }
                        let data = pack(old.mv, score, eval, depth, bound, age, ply);
                        self.write(b + 2 * e, key, data);
                        return;
                    }
                }
                break;
            }
            let old_depth = ((data >> 48) & 0xFF) as i32;
            let old_age = ((data >> 58) & 63) as u8;
            let stale = (age.wrapping_sub(old_age) & 63) as i32;
            let worth = old_depth - 8 * stale;
            if worth < worst {
                worst = worth;
                target = e;
            }
        }
        let data = pack(mv, score, eval, depth, bound, age, ply);
        self.write(b + 2 * target, key, data);
    }

    #[inline(always)]
    fn write(&self, at: usize, key: u64, data: u64) {
        self.words[at].store(data, Ordering::Relaxed);
        self.words[at + 1].store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used by this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) as u64;
        let n = (self.words.len() / 2).min(1000);
        let used = (0..n)
            .filter(|&i| {
                let d = self.words[2 * i].load(Ordering::Relaxed);
                d != 0 && (d >> 58) & 63 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// Layout: from 8 | to 8 | score 16 | eval 16 | depth 8 | bound 2 | age 6.
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8, ply: i32) -> u64 {
    let score = to_tt(score, ply) as i16 as u16 as u64;
    let eval = eval.clamp(-32000, 32000) as i16 as u16 as u64;
    mv.from as u64
        | (mv.to as u64) << 8
        | score << 16
        | eval << 32
        | (depth.clamp(0, 255) as u64) << 48
        | (bound as u64) << 56
        | ((age & 63) as u64) << 58
}

fn unpack(data: u64, ply: i32) -> Option<Entry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(Entry {
        mv: Move::new(data as u8, (data >> 8) as u8),
        score: from_tt((data >> 16) as u16 as i16 as i32, ply),
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32,
        bound,
    })
}

/// A root-relative mate score made relative to the node at `ply`.
fn to_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_games::xiangqi::square;

    #[test]
    fn stores_probes_and_adjusts_mate_scores() {
        let tt = Tt::new(1);
        let mv = Move::new(square(7, 2), square(4, 2));
        tt.store(42, 3, mv, 100, 50, 7, Bound::Lower);
        let e = tt.probe(42, 3).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth), (mv, 100, 50, 7));
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(43, 3).is_none());
        // Mate in 5 plies from the root, found at ply 3: two plies from the node.
        tt.store(99, 3, mv, 30000 - 5, 0, 4, Bound::Exact);
        assert_eq!(tt.probe(99, 1).unwrap().score, 30000 - 3);
        assert_eq!(tt.probe(99, 3).unwrap().score, 30000 - 5);
    }

    #[test]
    fn a_store_without_move_keeps_the_old_move() {
        let tt = Tt::new(1);
        let mv = Move::new(square(7, 2), square(4, 2));
        tt.store(7, 0, mv, 10, 0, 5, Bound::Exact);
        tt.store(7, 0, Move::default(), -20, 0, 6, Bound::Upper);
        let e = tt.probe(7, 0).unwrap();
        assert_eq!((e.mv, e.score, e.depth), (mv, -20, 6));
    }
}
