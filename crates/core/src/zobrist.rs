//! Zobrist key tables, built at compile time from a fixed seed so that a position's hash is
//! the same in every build and on every machine (opening books and the game database store
//! hashes).

use crate::rng::SplitMix64;

/// `N` pseudo-random keys from `seed`, none of them zero.
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, v) = SplitMix64::step(state);
        state = s;
        if v != 0 {
            out[i] = v;
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_distinct_and_nonzero() {
        static K: [u64; 4096] = super::keys(42);
        let mut v = K.to_vec();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), 4096);
        assert!(!K.contains(&0));
    }
}
