//! A small deterministic random generator (SplitMix64), for Zobrist keys, random games and
//! random openings. Fast, seedable and identical on every platform, which reproducible test
//! failures and match openings need.

#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits; `const` so key tables can be built at compile time.
    pub const fn step(state: u64) -> (u64, u64) {
        let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (state, z ^ (z >> 31))
    }

    pub fn next_u64(&mut self) -> u64 {
        let (s, v) = Self::step(self.0);
        self.0 = s;
        v
    }

    /// A uniform integer in `0..n` (n > 0), without modulo bias worth caring about for n < 2^32.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
