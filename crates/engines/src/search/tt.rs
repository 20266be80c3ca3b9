//! The transposition table, one layout for every game, shared by all search threads without
//! locks.
//!
//! Each entry is two atomic words: the packed data and the key XOR the data. A reader accepts
//! an entry only if the two agree with its key, so an entry torn by two writers at once reads
//! as a miss rather than as wrong data. Keys are the games' 64-bit Zobrist hashes. The data
//! word holds the move, the value, the static evaluation and (for a game that asks) a mark of
//! principal-variation nodes in 48 bits — the game says how many bits its move takes, on
//! which scale its values are and from which depth its entries count ([`TtMove`]) — then
//! depth, bound and age.
//!
//! Buckets hold two entries. A store goes to the entry of the same position if there is one,
//! else replaces the entry that is worth least: shallow entries and entries of earlier
//! searches go first.
//!
//! Decided values (mates, rule wins) are stored relative to the node and turned back into
//! distance from the root on probing ([`super::score`]).

use super::score::{self, Scale};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// A game's move as the table keeps it, with `Default` as "no move", and how the game's
/// entries are laid out.
pub trait TtMove: Copy + Default + Eq {
    /// Bits the move takes; the value takes its scale's, the mark one if asked for, the static
    /// evaluation the rest of 48.
    const BITS: u32 = 16;
    const SCALE: Scale = score::NARROW;
    /// The shallowest depth kept: the depth field holds the 256 depths from here (below 0 for
    /// a search that stores quiescence and evaluation-only entries).
    const DEPTH_MIN: i32 = 0;
    /// Whether entries carry [`Entry::pv`].
    const PV_MARK: bool = false;
    /// The move in its low [`Self::BITS`] bits; `Default` must give 0.
    fn to_bits(self) -> u32;
    fn from_bits(bits: u32) -> Self;
}

/// The bound kind of a stored value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// No value: the entry holds the static evaluation only.
    None = 0,
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
            Bound::None => false,
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
    /// The node was on a principal variation (kept only with [`TtMove::PV_MARK`]).
    pub pv: bool,
}

/// The evaluation of an entry that has none.
pub const NO_EVAL: i32 = i32::MIN;

const ENTRIES_PER_BUCKET: usize = 2;

pub struct Table<M: TtMove> {
    words: Vec<AtomicU64>,
    buckets: usize,
    age: AtomicU8,
    moves: PhantomData<M>,
}

impl<M: TtMove> Table<M> {
    /// A table of about `mb` megabytes (at least one).
    pub fn new(mb: usize) -> Table<M> {
        Table::with_bytes(mb.max(1) << 20)
    }

    /// A table of at most `bytes` bytes (at least one bucket).
    pub fn with_bytes(bytes: usize) -> Table<M> {
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

    /// The bytes the table takes.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Starts loading the bucket of `key` into the cache, to be probed soon (while the move
    /// that leads to it is played): the table is far larger than the caches.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let at = self.bucket(key);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint that reads nothing into the program and cannot fault,
        // whatever the address; this one is an element of the table besides. SSE, which the
        // instruction needs, is part of every x86-64 target.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(self.words.as_ptr().add(at).cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = at;
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
                return Some(unpack(data, ply));
            }
        }
        None
    }

    /// Stores `new` at `key`, its score relative to the root at `ply`. A store without a move
    /// keeps the move of an earlier search of the position.
    #[inline]
    pub fn store(&self, key: u64, ply: i32, new: Entry<M>) {
        let b = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed);
        let mut target = 0;
        let mut worst = i32::MAX;
        for e in 0..ENTRIES_PER_BUCKET {
            let data = self.words[b + 2 * e].load(Ordering::Relaxed);
            let check = self.words[b + 2 * e + 1].load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                target = e;
                if data != 0 && new.mv == M::default() {
                    let old = unpack::<M>(data, ply);
                    if old.depth > new.depth + 2
                        && new.bound != Bound::Exact
                        && old.bound != Bound::None
                    {
                        return;
                    }
                    let data = pack(Entry { mv: old.mv, ..new }, age, ply);
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
        self.write(b + 2 * target, key, pack(new, age, ply));
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

/// Layout: move `M::BITS` | value (the scale's bits) | evaluation (the rest) | the mark (bit
/// 47, if kept) | depth 8 | bound 2 | age 6. Value and evaluation are held within their
/// fields' range; the evaluation field's lowest value stands for [`NO_EVAL`].
#[inline(always)]
fn pack<M: TtMove>(e: Entry<M>, age: u8, ply: i32) -> u64 {
    let (value_at, eval_at, eval_bits) = fields::<M>();
    let value = field(M::SCALE.to_tt(e.score, ply), eval_at - value_at);
    let eval = if e.eval == NO_EVAL {
        1 << (eval_bits - 1)
    } else {
        field(e.eval.clamp(-32000, 32000), eval_bits)
    };
    (e.mv.to_bits() as u64 & ((1 << M::BITS) - 1))
        | value << value_at
        | eval << eval_at
        | ((M::PV_MARK && e.pv) as u64) << 47
        | ((e.depth - M::DEPTH_MIN).clamp(0, 255) as u64) << 48
        | (e.bound as u64) << 56
        | ((age & 63) as u64) << 58
}

#[inline(always)]
fn unpack<M: TtMove>(data: u64, ply: i32) -> Entry<M> {
    let bound = match (data >> 56) & 3 {
        0 => Bound::None,
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let (value_at, eval_at, eval_bits) = fields::<M>();
    let eval = signed(data, eval_at, eval_bits);
    Entry {
        mv: M::from_bits((data & ((1 << M::BITS) - 1)) as u32),
        score: M::SCALE.from_tt(signed(data, value_at, eval_at - value_at), ply),
        eval: if eval == -(1 << (eval_bits - 1)) {
            NO_EVAL
        } else {
            eval
        },
        depth: ((data >> 48) & 0xFF) as i32 + M::DEPTH_MIN,
        bound,
        pv: M::PV_MARK && data >> 47 & 1 != 0,
    }
}

/// Where the value and the evaluation start in the data word, and the evaluation's bits.
#[inline(always)]
const fn fields<M: TtMove>() -> (u32, u32, u32) {
    const {
        assert!(
            M::BITS + M::SCALE.bits() + M::PV_MARK as u32 <= 46,
            "a table entry has 48 bits for move, value, mark and evaluation (2 at least)"
        )
    };
    let eval_at = M::BITS + M::SCALE.bits();
    (M::BITS, eval_at, 48 - eval_at - M::PV_MARK as u32)
}

/// `v` in a field of `bits` bits (two's complement), held within the field's range but for
/// its lowest value.
#[inline(always)]
fn field(v: i32, bits: u32) -> u64 {
    let max = (1i64 << (bits - 1)) - 1;
    (v as i64).clamp(-max, max) as u64 & ((1 << bits) - 1)
}

/// The signed field of `bits` bits at `at`.
#[inline(always)]
fn signed(data: u64, at: u32, bits: u32) -> i32 {
    ((data << (64 - at - bits)) as i64 >> (64 - bits)) as i32
}

#[cfg(test)]
mod tests {
    use super::super::score::MATE;
    use super::*;

    fn entry<M>(mv: M, score: i32, eval: i32, depth: i32, bound: Bound) -> Entry<M> {
        Entry {
            mv,
            score,
            eval,
            depth,
            bound,
            pv: false,
        }
    }

    /// A move of some game: any 16 bits, 0 being none.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    struct Mv(u16);

    impl TtMove for Mv {
        fn to_bits(self) -> u32 {
            self.0 as u32
        }
        fn from_bits(bits: u32) -> Self {
            Mv(bits as u16)
        }
    }

    #[test]
    fn stores_probes_and_adjusts_mate_scores() {
        let tt = Table::<Mv>::new(1);
        let mv = Mv(0x1234);
        tt.store(42, 3, entry(mv, 100, 50, 7, Bound::Lower));
        let e = tt.probe(42, 3).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth), (mv, 100, 50, 7));
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(43, 3).is_none());
        // Mate in 5 plies from the root, found at ply 3: two plies from the node.
        tt.store(99, 3, entry(mv, MATE - 5, 0, 4, Bound::Exact));
        assert_eq!(tt.probe(99, 1).unwrap().score, MATE - 3);
        assert_eq!(tt.probe(99, 3).unwrap().score, MATE - 5);
        tt.store(98, 2, entry(mv, -(MATE - 6), 0, 4, Bound::Upper));
        assert_eq!(tt.probe(98, 4).unwrap().score, -(MATE - 8));
    }

    #[test]
    fn a_store_without_move_keeps_the_old_move() {
        let tt = Table::<Mv>::new(1);
        let mv = Mv(77);
        tt.store(7, 0, entry(mv, 10, 0, 5, Bound::Exact));
        tt.store(7, 0, entry(Mv::default(), -20, 0, 6, Bound::Upper));
        let e = tt.probe(7, 0).unwrap();
        assert_eq!((e.mv, e.score, e.depth), (mv, -20, 6));
    }

    /// A move of 20 bits on the wide scale, as Connect6 keeps its turns.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    struct Long(u32);

    impl TtMove for Long {
        const BITS: u32 = 20;
        const SCALE: Scale = score::WIDE;
        fn to_bits(self) -> u32 {
            self.0
        }
        fn from_bits(bits: u32) -> Self {
            Long(bits)
        }
    }

    #[test]
    fn long_moves_and_wide_values_keep_their_bits() {
        use super::super::score::wide;
        let tt = Table::<Long>::new(1);
        let mv = Long(0xF_FFFE);
        tt.store(5, 2, entry(mv, -987_654, -3, 9, Bound::Lower));
        let e = tt.probe(5, 2).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth), (mv, -987_654, -3, 9));
        // A win seven plies from the root, stored at ply 3, probed at ply 1.
        tt.store(6, 3, entry(mv, wide::MATE - 7, 0, 4, Bound::Exact));
        assert_eq!(tt.probe(6, 1).unwrap().score, wide::MATE - 5);
        tt.store(8, 1, entry(mv, -(wide::MATE - 3), 0, 4, Bound::Upper));
        assert_eq!(tt.probe(8, 2).unwrap().score, -(wide::MATE - 4));
        // The evaluation keeps the 7 bits left: held at its bounds, not wrapped.
        tt.store(7, 0, entry(mv, 0, 1000, 1, Bound::Exact));
        assert_eq!(tt.probe(7, 0).unwrap().eval, 63);
        tt.store(7, 0, entry(mv, 0, -1000, 1, Bound::Exact));
        assert_eq!(tt.probe(7, 0).unwrap().eval, -63);
        tt.store(7, 0, entry(mv, 0, NO_EVAL, 1, Bound::Exact));
        assert_eq!(tt.probe(7, 0).unwrap().eval, NO_EVAL);
    }

    /// A move of 10 bits with depths from -128 and the mark, as Gomoku keeps its entries.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    struct Marked(u16);

    impl TtMove for Marked {
        const BITS: u32 = 10;
        const SCALE: Scale = score::WIDE;
        const DEPTH_MIN: i32 = -128;
        const PV_MARK: bool = true;
        fn to_bits(self) -> u32 {
            self.0 as u32
        }
        fn from_bits(bits: u32) -> Self {
            Marked(bits as u16)
        }
    }

    #[test]
    fn a_deeper_entry_stays_against_a_shallower_store_without_a_move() {
        let tt = Table::<Mv>::new(1);
        tt.store(3, 0, entry(Mv(5), 10, 0, 9, Bound::Lower));
        tt.store(3, 0, entry(Mv::default(), 20, 0, 2, Bound::Upper));
        assert_eq!(tt.probe(3, 0).unwrap().depth, 9);
        tt.store(3, 0, entry(Mv(6), 30, 0, 2, Bound::Upper));
        assert_eq!(tt.probe(3, 0).unwrap().depth, 2);
        // An entry of the evaluation alone keeps nothing back.
        tt.store(4, 0, entry(Mv::default(), 0, 7, 9, Bound::None));
        tt.store(4, 0, entry(Mv::default(), 20, 7, 2, Bound::Upper));
        assert_eq!(tt.probe(4, 0).unwrap().bound, Bound::Upper);
    }

    #[test]
    fn marks_negative_depths_and_evaluation_only_entries_are_kept() {
        let tt = Table::<Marked>::new(1);
        let mv = Marked(1015);
        let e = Entry {
            pv: true,
            ..entry(mv, -5000, -32000, -7, Bound::Upper)
        };
        tt.store(11, 0, e);
        let got = tt.probe(11, 0).unwrap();
        assert_eq!(
            (got.mv, got.score, got.eval, got.depth, got.pv),
            (mv, -5000, -32000, -7, true)
        );
        tt.store(12, 0, entry(Marked::default(), 0, 321, -128, Bound::None));
        let got = tt.probe(12, 0).unwrap();
        assert_eq!(
            (got.eval, got.depth, got.bound, got.pv),
            (321, -128, Bound::None, false)
        );
        assert!(!got.bound.cuts(0, -1, 1));
    }

    #[test]
    fn bounds_cut_their_side_of_the_window() {
        assert!(Bound::Exact.cuts(0, 10, 20));
        assert!(Bound::Lower.cuts(20, 10, 20) && !Bound::Lower.cuts(19, 10, 20));
        assert!(Bound::Upper.cuts(10, 10, 20) && !Bound::Upper.cuts(11, 10, 20));
    }
}
