//! The transposition table, one layout for every game, shared by all search threads without
//! locks.
//!
//! Each entry is two atomic words: the packed data and the key XOR the data. A reader accepts
//! an entry only if the two agree with its key, so an entry torn by two writers at once reads
//! as a miss rather than as wrong data. Keys are the games' 64-bit Zobrist hashes; a move is
//! kept in 16 bits by its game ([`TtMove`]).
//!
//! Buckets hold two entries. A store goes to the entry of the same position if there is one,
//! else replaces the entry that is worth least: shallow entries and entries of earlier
//! searches go first.
//!
//! Decided values (mates, rule wins) are stored relative to the node and turned back into
//! distance from the root on probing ([`super::score`]).

use super::score::{from_tt, to_tt};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// A game's move as the table keeps it: 16 bits, with `Default` as "no move".
pub trait TtMove: Copy + Default + Eq {
    fn to_bits(self) -> u16;
    fn from_bits(bits: u16) -> Self;
}

/// The bound kind of a stored value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The value is at most this (all moves failed low).
    Upper = 1,
    /// The value is at least this (a move failed high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// Whether a stored `value` of this kind settles a window `alpha..beta`.
    #[inline(always)]
    pub fn cuts(self, value: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        }
    }
}

/// What a probe finds.
#[derive(Debug, Clone, Copy)]
pub struct Entry<M> {
    pub mv: M,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 2;

pub struct Table<M: TtMove> {
    words: Vec<AtomicU64>,
    buckets: usize,
    age: AtomicU8,
    moves: PhantomData<M>,
}

impl<M: TtMove> Table<M> {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Table<M> {
        let bytes = mb.max(1) << 20;
        let buckets = (bytes / (16 * ENTRIES_PER_BUCKET)).max(1);
        let words = (0..buckets * ENTRIES_PER_BUCKET * 2)
            .map(|_| AtomicU64::new(0))
            .collect();
        Table {
            words,
            buckets,
            age: AtomicU8::new(0),
            moves: PhantomData,
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

    /// The entry stored for `key`, with decided values made relative to the root at `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry<M>> {
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

    /// Stores a search result; `score` is relative to the root at `ply`. A store without a
    /// move keeps the move of an earlier search of the position.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: i32,
        mv: M,
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
                if data != 0
                    && mv == M::default()
                    && let Some(old) = unpack::<M>(data, ply)
                {
                    if old.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                    let data = pack(old.mv, score, eval, depth, bound, age, ply);
                    self.write(b + 2 * e, key, data);
                    return;
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

/// Layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | age 6.
#[inline(always)]
fn pack<M: TtMove>(
    mv: M,
    score: i32,
    eval: i32,
    depth: i32,
    bound: Bound,
    age: u8,
    ply: i32,
) -> u64 {
    let score = to_tt(score, ply) as i16 as u16 as u64;
    let eval = eval.clamp(-32000, 32000) as i16 as u16 as u64;
    mv.to_bits() as u64
        | score << 16
        | eval << 32
        | (depth.clamp(0, 255) as u64) << 48
        | (bound as u64) << 56
        | ((age & 63) as u64) << 58
}

#[inline(always)]
fn unpack<M: TtMove>(data: u64, ply: i32) -> Option<Entry<M>> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(Entry {
        mv: M::from_bits(data as u16),
        score: from_tt((data >> 16) as u16 as i16 as i32, ply),
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32,
        bound,
    })
}

#[cfg(test)]
mod tests {
    use super::super::score::MATE;
    use super::*;

    /// A move of some game: any 16 bits, 0 being none.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    struct Mv(u16);

    impl TtMove for Mv {
        fn to_bits(self) -> u16 {
            self.0
        }
        fn from_bits(bits: u16) -> Self {
            Mv(bits)
        }
    }

    #[test]
    fn stores_probes_and_adjusts_mate_scores() {
        let tt = Table::<Mv>::new(1);
        let mv = Mv(0x1234);
        tt.store(42, 3, mv, 100, 50, 7, Bound::Lower);
        let e = tt.probe(42, 3).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth), (mv, 100, 50, 7));
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(43, 3).is_none());
        // Mate in 5 plies from the root, found at ply 3: two plies from the node.
        tt.store(99, 3, mv, MATE - 5, 0, 4, Bound::Exact);
        assert_eq!(tt.probe(99, 1).unwrap().score, MATE - 3);
        assert_eq!(tt.probe(99, 3).unwrap().score, MATE - 5);
        tt.store(98, 2, mv, -(MATE - 6), 0, 4, Bound::Upper);
        assert_eq!(tt.probe(98, 4).unwrap().score, -(MATE - 8));
    }

    #[test]
    fn a_store_without_move_keeps_the_old_move() {
        let tt = Table::<Mv>::new(1);
        let mv = Mv(77);
        tt.store(7, 0, mv, 10, 0, 5, Bound::Exact);
        tt.store(7, 0, Mv::default(), -20, 0, 6, Bound::Upper);
        let e = tt.probe(7, 0).unwrap();
        assert_eq!((e.mv, e.score, e.depth), (mv, -20, 6));
    }

    #[test]
    fn bounds_cut_their_side_of_the_window() {
        assert!(Bound::Exact.cuts(0, 10, 20));
        assert!(Bound::Lower.cuts(20, 10, 20) && !Bound::Lower.cuts(19, 10, 20));
        assert!(Bound::Upper.cuts(10, 10, 20) && !Bound::Upper.cuts(11, 10, 20));
    }
}
