//! The strong engine's static evaluation, in centipawns (a pawn before the river is about
//! 100) from the side to move's view.
//!
//! Terms, each with a middle-game and an end-game weight blended by the phase (how much
//! attacking material — chariots, horses, cannons — is left):
//! - material and piece-square tables per kind;
//! - mobility of chariots, horses and cannons (a horse with its legs blocked is a poor piece);
//! - king safety: missing advisors against enemy chariots and horses, missing elephants
//!   against enemy cannons, an enemy cannon aiming at the king down its file (with or without
//!   a screen), an enemy chariot on an open file into the palace, enemy pieces in or next to
//!   the palace, and the square of the attack units (attackers near the king by kind, missing
//!   advisors, the king off its back rank) once two attackers are near;
//! - pawn structure across the river: connected crossed pawns.
//!
//! The scalar weights live in [`Weights`], so a tuner can vary them; the defaults were
//! fitted by the Texel method (see `docs/xiangqi-engine.md`).

use boyi_games::xiangqi::Board;
use boyi_games::xiangqi::board::{EMPTY, Kind, OFF, Square, file_of, kind_of, rank_of, tag};

/// Indices into [`Weights`]: middle game then end game for each paired term.
pub mod w {
    pub const ADVISOR: usize = 0;
    pub const ELEPHANT: usize = 2;
    pub const HORSE: usize = 4;
    pub const CHARIOT: usize = 6;
    pub const CANNON: usize = 8;
    pub const PAWN: usize = 10;
    pub const MOB_CHARIOT: usize = 12;
    pub const MOB_HORSE: usize = 14;
    pub const MOB_CANNON: usize = 16;
    pub const CONNECTED_PAWNS: usize = 18;
    pub const PST_SCALE: usize = 20;
    /// Single weights (middle-game only: king danger fades with the attackers anyway).
    pub const MISSING_ADVISOR: usize = 22;
    pub const MISSING_ELEPHANT: usize = 23;
    pub const CANNON_SCREEN: usize = 24;
    pub const CANNON_EMPTY: usize = 25;
    pub const CHARIOT_OPEN_FILE: usize = 26;
    pub const PALACE_INTRUDER: usize = 27;
    pub const TEMPO: usize = 28;
    /// Weight of the squared attack units on a king (see `king_danger`), in sixteenths.
    pub const KING_ATTACK: usize = 29;
    pub const COUNT: usize = 30;
    pub const NAMES: [&str; COUNT] = [
        "advisor_mg",
        "advisor_eg",
        "elephant_mg",
        "elephant_eg",
        "horse_mg",
        "horse_eg",
        "chariot_mg",
        "chariot_eg",
        "cannon_mg",
        "cannon_eg",
        "pawn_mg",
        "pawn_eg",
        "mob_chariot_mg",
        "mob_chariot_eg",
        "mob_horse_mg",
        "mob_horse_eg",
        "mob_cannon_mg",
        "mob_cannon_eg",
        "connected_pawns_mg",
        "connected_pawns_eg",
        "pst_scale_mg",
        "pst_scale_eg",
        "missing_advisor",
        "missing_elephant",
        "cannon_screen",
        "cannon_empty",
        "chariot_open_file",
        "palace_intruder",
        "tempo",
        "king_attack",
    ];

    /// The index of the weight called `name`.
    pub fn index(name: &str) -> Option<usize> {
        NAMES.iter().position(|n| *n == name)
    }
}

/// The evaluation's scalar weights (percent for the PST scales).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights(pub [i32; w::COUNT]);

/// The defaults: fitted by the Texel tuner (`examples/xiangqi_tune.rs`, no pull toward the
/// earlier values) on 600 self-play games of the build with the king-safety terms counted for
/// the attacker, and kept after an SPRT against the earlier set (docs/xiangqi-engine.md).
pub const DEFAULT_WEIGHTS: Weights = Weights([
    127, 65, // advisor
    252, 51, // elephant
    596, 378, // horse
    950, 1304, // chariot
    711, 353, // cannon
    98, 133, // pawn
    16, 3, // chariot mobility per square
    32, 5, // horse mobility per jump
    4, 1, // cannon mobility per square
    8, 15, // connected crossed pawns
    218, 107, // pst scale (percent)
    46, 54, // missing advisor (per enemy chariot/horse), missing elephant (per cannon)
    25, 130, // cannon on the king's file with one screen / with none
    15,  // chariot on an open file into the palace
    34,  // enemy piece in or next to the palace
    10,  // tempo
    58,  // squared king attack units, in sixteenths
]);

/// Piece-square tables from red's side, written as seen on the board: the first row is the
/// far rank 9, the last row red's back rank 0. Black reads them mirrored by rank.
#[rustfmt::skip]
const PST_PAWN: [i16; 90] = [
     0,  0,  0,  2,  4,  2,  0,  0,  0,
    10, 20, 35, 50, 55, 50, 35, 20, 10,
    10, 25, 40, 55, 60, 55, 40, 25, 10,
    10, 20, 30, 40, 45, 40, 30, 20, 10,
     5, 12, 18, 25, 28, 25, 18, 12,  5,
     0,  0,  5,  0, 10,  0,  5,  0,  0,
    -2,  0, -2,  0,  6,  0, -2,  0, -2,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const PST_HORSE: [i16; 90] = [
      0,  -5,   5,   5,   0,   5,   5,  -5,   0,
      0,  10,  20,  30,   5,  30,  20,  10,   0,
      5,  20,  25,  30,  30,  30,  25,  20,   5,
      5,  15,  25,  30,  30,  30,  25,  15,   5,
      0,  10,  20,  25,  25,  25,  20,  10,   0,
      0,   5,  15,  15,  20,  15,  15,   5,   0,
     -5,   5,  10,  10,  15,  10,  10,   5,  -5,
     -5,   0,  10,   5,   5,   5,  10,   0,  -5,
    -10,  -5,   0,  -5, -15,  -5,   0,  -5, -10,
    -15, -10,  -5, -10, -20, -10,  -5, -10, -15,
];

#[rustfmt::skip]
const PST_CHARIOT: [i16; 90] = [
      5,  10,   5,  15,  15,  15,   5,  10,   5,
      5,  15,  10,  20,  25,  20,  10,  15,   5,
      5,  10,   5,  15,  15,  15,   5,  10,   5,
      5,  15,  10,  15,  15,  15,  10,  15,   5,
      5,  15,  10,  15,  15,  15,  10,  15,   5,
      5,  15,  10,  15,  15,  15,  10,  15,   5,
      0,   5,   5,  10,  10,  10,   5,   5,   0,
     -5,   5,   0,  10,   0,  10,   0,   5,  -5,
      0,   5,   0,  10,   0,  10,   0,   5,   0,
    -10,   5,   0,  10,   0,  10,   0,   5, -10,
];

#[rustfmt::skip]
const PST_CANNON: [i16; 90] = [
     10,  10,   0,  -5,  -5,  -5,   0,  10,  10,
      5,   5,   0,  -5, -10,  -5,   0,   5,   5,
      5,   5,   0,  -5,   0,  -5,   0,   5,   5,
      0,   0,   0,   0,   5,   0,   0,   0,   0,
      0,   0,   0,   0,   5,   0,   0,   0,   0,
      0,   5,   0,   5,  10,   5,   0,   5,   0,
      0,   0,   0,   0,   5,   0,   0,   0,   0,
      5,   5,   5,  10,  15,  10,   5,   5,   5,
      0,   5,   5,   5,   5,   5,   5,   5,   0,
      0,   0,   5,  10,   5,  10,   5,   0,   0,
];

#[rustfmt::skip]
const PST_DEFENDER: [i16; 90] = [
    // Advisors, elephants and the king share one table: their squares never overlap except
    // the palace centre, which suits all three.
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0,-3, 0, 0, 0,-3, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
   -5, 0, 0,-8, 8,-8, 0, 0,-5,
    0, 0, 0,-5, 4,-5, 0, 0, 0,
    0, 0, 0, 2, 6, 2, 0, 0, 0,
];

/// The table index of square `s` for a piece of side `si` (1 red, 0 black).
#[inline(always)]
fn pst_index(si: usize, s: Square) -> usize {
    let rel = if si == 1 { rank_of(s) } else { 9 - rank_of(s) };
    (9 - rel) * 9 + file_of(s)
}

const ORTHO: [i32; 4] = [16, -16, 1, -1];

/// Middle-game and end-game sums from red's view.
#[derive(Default, Clone, Copy)]
struct Acc {
    mg: i32,
    eg: i32,
}

impl Acc {
    #[inline(always)]
    fn add(&mut self, sign: i32, weights: &Weights, at: usize, times: i32) {
        self.mg += sign * weights.0[at] * times;
        self.eg += sign * weights.0[at + 1] * times;
    }
}

/// Phase weight of the attacking pieces: all of them on the board is [`FULL_PHASE`].
const FULL_PHASE: i32 = 2 * (2 * 6 + 2 * 3 + 2 * 3);

/// Evaluates `board` for the side to move with `weights`.
pub fn evaluate(board: &Board, weights: &Weights) -> i32 {
    let mut acc = Acc::default();
    let mut pst_mg = 0;
    let mut pst_eg = 0;
    let mut phase = 0;
    for si in 0..2 {
        let sign = if si == 1 { 1 } else { -1 };
        let s = side_terms(board, si, weights, &mut phase);
        acc.mg += sign * s.acc.mg;
        acc.eg += sign * s.acc.eg;
        pst_mg += sign * s.pst_mg;
        pst_eg += sign * s.pst_eg;
    }
    acc.mg += pst_mg * weights.0[w::PST_SCALE] / 100;
    acc.eg += pst_eg * weights.0[w::PST_SCALE + 1] / 100;
    let phase = phase.min(FULL_PHASE);
    let red = (acc.mg * phase + acc.eg * (FULL_PHASE - phase)) / FULL_PHASE;
    let stm = if board.side_to_move().index() == 1 {
        red
    } else {
        -red
    };
    stm + weights.0[w::TEMPO]
}

struct SideTerms {
    acc: Acc,
    pst_mg: i32,
    pst_eg: i32,
}

/// Everything about side `si`'s pieces (positive is good for `si`).
fn side_terms(board: &Board, si: usize, weights: &Weights, phase: &mut i32) -> SideTerms {
    let cells = board.cells();
    let alive = board.alive(si);
    let squares = board.slot_squares(si);
    let own = tag(si);
    let mut acc = Acc::default();
    let mut pst = 0i32;
    let mut pawn_eg_extra = 0i32;
    let mut bits = alive;
    while bits != 0 {
        let slot = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let s = squares[slot];
        let i = pst_index(si, s);
        match kind_of(own | slot as u8) {
            Kind::King => pst += PST_DEFENDER[i] as i32,
            Kind::Advisor => {
                acc.add(1, weights, w::ADVISOR, 1);
                pst += PST_DEFENDER[i] as i32;
            }
            Kind::Elephant => {
                acc.add(1, weights, w::ELEPHANT, 1);
                pst += PST_DEFENDER[i] as i32;
            }
            Kind::Horse => {
                *phase += 3;
                acc.add(1, weights, w::HORSE, 1);
                pst += PST_HORSE[i] as i32;
                acc.add(1, weights, w::MOB_HORSE, horse_mobility(cells, s, own) - 4);
            }
            Kind::Chariot => {
                *phase += 6;
                acc.add(1, weights, w::CHARIOT, 1);
                pst += PST_CHARIOT[i] as i32;
                acc.add(
                    1,
                    weights,
                    w::MOB_CHARIOT,
                    chariot_mobility(cells, s, own) - 8,
                );
            }
            Kind::Cannon => {
                *phase += 3;
                acc.add(1, weights, w::CANNON, 1);
                pst += PST_CANNON[i] as i32;
                acc.add(1, weights, w::MOB_CANNON, cannon_mobility(cells, s) - 6);
            }
            Kind::Pawn => {
                acc.add(1, weights, w::PAWN, 1);
                let v = PST_PAWN[i] as i32;
                pst += v;
                // Crossed pawns gain in the end game, when few pieces can stop them.
                pawn_eg_extra += v / 2;
                if crossed(si, s) && connected(cells, s, own) {
                    acc.add(1, weights, w::CONNECTED_PAWNS, 1);
                }
            }
        }
    }
    acc.mg += king_danger(board, si, weights);
    SideTerms {
        acc,
        pst_mg: pst,
        pst_eg: pst + pawn_eg_extra,
    }
}

#[inline(always)]
fn crossed(si: usize, s: Square) -> bool {
    let r = rank_of(s);
    if si == 1 { r >= 5 } else { r <= 4 }
}

/// A crossed pawn with a friendly pawn beside it on the same rank.
#[inline(always)]
fn connected(cells: &[u8; 256], s: Square, own: u8) -> bool {
    let pawn = |c: u8| c & 0xF0 == own && c != OFF && kind_of(c) == Kind::Pawn;
    pawn(cells[s as usize + 1]) || pawn(cells[s as usize - 1])
}

fn horse_mobility(cells: &[u8; 256], s: Square, own: u8) -> i32 {
    let mut n = 0;
    for d in ORTHO {
        if cells[(s as i32 + d) as usize] != EMPTY {
            continue;
        }
        let side = if d == 16 || d == -16 { 1 } else { 16 };
        for t in [s as i32 + 2 * d + side, s as i32 + 2 * d - side] {
            let c = cells[t as usize];
            if c == EMPTY || (c != OFF && c & 0xF0 != own) {
                n += 1;
            }
        }
    }
    n
}

fn chariot_mobility(cells: &[u8; 256], s: Square, own: u8) -> i32 {
    let mut n = 0;
    for d in ORTHO {
        let mut t = s as i32 + d;
        loop {
            let c = cells[t as usize];
            if c == EMPTY {
                n += 1;
                t += d;
                continue;
            }
            if c != OFF && c & 0xF0 != own {
                n += 1;
            }
            break;
        }
    }
    n
}

fn cannon_mobility(cells: &[u8; 256], s: Square) -> i32 {
    let mut n = 0;
    for d in ORTHO {
        let mut t = s as i32 + d;
        while cells[t as usize] == EMPTY {
            n += 1;
            t += d;
        }
    }
    n
}

/// How much side `att` threatens the other side's king (positive: good for `att`).
fn king_danger(board: &Board, att: usize, weights: &Weights) -> i32 {
    let def = att ^ 1;
    let cells = board.cells();
    let king = board.king(def);
    let count = |side: usize, k: Kind| (board.alive(side) & k.mask()).count_ones() as i32;
    let (chariots, horses, cannons) = (
        count(att, Kind::Chariot),
        count(att, Kind::Horse),
        count(att, Kind::Cannon),
    );
    let missing_advisors = 2 - count(def, Kind::Advisor);
    let missing_elephants = 2 - count(def, Kind::Elephant);
    let mut danger = weights.0[w::MISSING_ADVISOR] * missing_advisors * (chariots + horses)
        + weights.0[w::MISSING_ELEPHANT] * missing_elephants * cannons;
    let enemy = tag(att);
    // Down the king's file towards the enemy: count screens before an enemy cannon/chariot.
    let toward = if def == 1 { 16 } else { -16 };
    let mut t = king as i32 + toward;
    let mut screens = 0;
    loop {
        let c = cells[t as usize];
        if c == OFF {
            break;
        }
        if c != EMPTY {
            if c & 0xF0 == enemy && kind_of(c) == Kind::Cannon {
                danger += match screens {
                    0 => weights.0[w::CANNON_EMPTY],
                    1 => weights.0[w::CANNON_SCREEN],
                    _ => 0,
                };
            }
            screens += 1;
            if screens > 2 {
                break;
            }
        }
        t += toward;
    }
    let squares = board.slot_squares(att);
    let mut bits = board.alive(att)
        & (Kind::Chariot.mask() | Kind::Horse.mask() | Kind::Pawn.mask() | Kind::Cannon.mask());
    let kf = file_of(king) as i32;
    let kr = rank_of(king) as i32;
    // Attack units: the pieces near the king by how much they threaten, the advisors it
    // lacks and how far it has left its back rank. The danger grows with their square, so a
    // lone attacker counts little and a gathered attack on a bare king a great deal.
    let home = if def == 1 { 0 } else { 9 };
    let mut units = missing_advisors + (kr - home).abs();
    let mut attackers = 0;
    while bits != 0 {
        let slot = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let s = squares[slot];
        let (f, r) = (file_of(s) as i32, rank_of(s) as i32);
        let kind = kind_of(enemy | slot as u8);
        let near = (f - kf).abs() <= 2 && (r - kr).abs() <= 2;
        if near {
            attackers += 1;
            units += match kind {
                Kind::Chariot => 3,
                Kind::Horse | Kind::Cannon => 2,
                _ => 1,
            };
        }
        if kind == Kind::Cannon {
            continue;
        }
        if near {
            danger += weights.0[w::PALACE_INTRUDER];
        }
        if kind == Kind::Chariot && (3..=5).contains(&f) && open_to_palace(cells, s, def) {
            danger += weights.0[w::CHARIOT_OPEN_FILE];
        }
    }
    if attackers >= 2 {
        danger += weights.0[w::KING_ATTACK] * units * units / 16;
    }
    danger
}

/// Whether a chariot on `s` has an open run down its file into `def`'s palace.
fn open_to_palace(cells: &[u8; 256], s: Square, def: usize) -> bool {
    let toward = if def == 1 { -16 } else { 16 };
    let palace_edge = if def == 1 { 2 } else { 7 };
    let mut t = s as i32;
    loop {
        let r = rank_of(t as Square) as i32;
        if (def == 1 && r <= palace_edge) || (def == 0 && r >= palace_edge) {
            return true;
        }
        t += toward;
        let c = cells[t as usize];
        if c == OFF {
            return false;
        }
        if c != EMPTY {
            let r = rank_of(t as Square) as i32;
            return (def == 1 && r <= palace_edge) || (def == 0 && r >= palace_edge);
        }
    }
}

/// Material values by kind for move ordering and pruning margins (middle game).
pub const ORDER_VALUE: [i32; 7] = [10000, 200, 200, 400, 950, 450, 100];

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::{Game, NoVariant};
    use boyi_games::xiangqi::Xiangqi;

    fn eval(fen: &str) -> i32 {
        let g = Xiangqi::from_text(&NoVariant, fen).unwrap();
        evaluate(g.board(), &DEFAULT_WEIGHTS)
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        let red = eval(&format!("{start} w - - 0 1"));
        let black = eval(&format!("{start} b - - 0 1"));
        assert_eq!(red, black);
        assert_eq!(red, DEFAULT_WEIGHTS.0[w::TEMPO]);
    }

    #[test]
    fn extra_chariot_is_worth_a_lot() {
        let v = eval("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        assert!(v > 800, "{v}");
    }

    /// The evaluation with and without its king-safety terms, from red's view.
    fn king_safety_share(fen: &str) -> i32 {
        let g = Xiangqi::from_text(&NoVariant, fen).unwrap();
        let red = |w: &Weights| {
            let v = evaluate(g.board(), w);
            if g.board().side_to_move().index() == 1 {
                v
            } else {
                -v
            }
        };
        let mut none = DEFAULT_WEIGHTS;
        for k in [
            w::MISSING_ADVISOR,
            w::MISSING_ELEPHANT,
            w::CANNON_SCREEN,
            w::CANNON_EMPTY,
            w::CHARIOT_OPEN_FILE,
            w::PALACE_INTRUDER,
        ] {
            none.0[k] = 0;
        }
        red(&DEFAULT_WEIGHTS) - red(&none)
    }

    #[test]
    fn king_safety_counts_for_the_attacker() {
        // Black's king without advisors, red's chariots and horse about: good for red,
        // whichever side is to move.
        for stm in ["w", "b"] {
            let bare =
                king_safety_share(&format!("4k4/9/3R5/4p4/9/9/9/3N5/9/R2AKAB2 {stm} - - 0 1"));
            assert!(bare > 0, "{stm}: {bare}");
            // The same with colours and sides swapped: good for black.
            let mirrored =
                king_safety_share(&format!("r2akab2/9/3n5/9/9/9/4P4/9/3r5/4K4 {stm} - - 0 1"));
            assert!(mirrored < 0, "{stm}: {mirrored}");
        }
        // A red cannon on the black king's open file: good for red.
        let aimed = king_safety_share("3akab2/9/9/9/9/9/9/4C4/9/3K1AB2 b - - 0 1");
        assert!(aimed > 0, "{aimed}");
    }

    #[test]
    fn crossed_pawn_beats_home_pawn_and_central_cannon_threatens() {
        let home = eval("4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1");
        let crossed = eval("4k4/9/9/4P4/9/9/9/9/9/4K4 w - - 0 1");
        assert!(crossed > home + 20, "{crossed} {home}");
        let aimed = eval("3akab2/9/9/9/9/9/9/4C4/9/3K1AB2 b - - 0 1");
        let aside = eval("3akab2/9/9/9/9/9/9/C8/9/3K1AB2 b - - 0 1");
        assert!(aimed < aside, "{aimed} {aside}");
    }
}
