//! Zobrist keys: one per piece type (side and kind, not slot: two red chariots are the same
//! piece) and board square, and one for black to move. Fixed at compile time.

const SEED: u64 = 0x5869_616E_6771_6921;
const TYPES: [u64; 14 * 90 + 1] = boyi_core::zobrist::keys(SEED);

/// Maps a piece code's low five bits (side, slot) to its piece type (side * 7 + kind).
const TYPE_OF_CODE: [usize; 32] = {
    let slot_kind = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6, 6, 6];
    let mut t = [0; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = (i >> 4) * 7 + slot_kind[i & 15];
        i += 1;
    }
    t
};

/// The keys laid out by code (32 codes × 90 squares) so a lookup is one index.
static BY_CODE: [u64; 32 * 90] = {
    let mut t = [0; 32 * 90];
    let mut c = 0;
    while c < 32 {
        let mut s = 0;
        while s < 90 {
            t[c * 90 + s] = TYPES[TYPE_OF_CODE[c] * 90 + s];
            s += 1;
        }
        c += 1;
    }
    t
};

pub const BLACK_TO_MOVE: u64 = TYPES[14 * 90];

/// The key of piece `code` on the square of index `at` (0..90, `board::index90`).
#[inline(always)]
pub fn piece(code: u8, at: usize) -> u64 {
    BY_CODE[(code & 31) as usize * 90 + at]
}
