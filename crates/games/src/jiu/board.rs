//! The 14×14 Jiu board: point indices, neighbour tables and point sets.
//!
//! A point's index is `col * 14 + row`, so that comparing indices is comparing points in the
//! project's point order (column first, then row: `a1 < a2 < … < a14 < b1`). Sorting indices
//! therefore sorts moves, captures and paths the way the text forms need.

use boyi_core::{Point, Side};

/// Lines on each side of the board.
pub const SIZE: usize = 14;
/// Intersections on the board.
pub const POINTS: usize = SIZE * SIZE;
/// "No point": the origin of a placement, an off-board neighbour.
pub const NONE: u8 = u8::MAX;

/// A point's content.
pub const EMPTY: u8 = 0;

/// The content of a point holding a piece of `side`.
pub const fn colour(side: Side) -> u8 {
    match side {
        Side::Black => 1,
        Side::White => 2,
    }
}

pub fn index_of(p: Point) -> u8 {
    p.col * SIZE as u8 + p.row
}

pub fn point_of(index: u8) -> Point {
    Point::new(index / SIZE as u8, index % SIZE as u8)
}

/// `g7` and `h8`, the ends of the central diagonal (the first two placements).
pub const G7: u8 = 6 * SIZE as u8 + 6;
pub const H8: u8 = 7 * SIZE as u8 + 7;

/// The four directions as `(columns, rows)`, ordered so that the neighbours they reach are in
/// ascending point order: left, down, up, right.
pub const DIRS: [(i8, i8); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

const fn offset(index: usize, dc: i8, dr: i8) -> u8 {
    let col = (index / SIZE) as i32 + dc as i32;
    let row = (index % SIZE) as i32 + dr as i32;
    if col < 0 || row < 0 || col >= SIZE as i32 || row >= SIZE as i32 {
        NONE
    } else {
        (col * SIZE as i32 + row) as u8
    }
}

const fn neighbour_table(steps: i8) -> [[u8; 4]; POINTS] {
    let mut t = [[NONE; 4]; POINTS];
    let mut i = 0;
    while i < POINTS {
        let mut d = 0;
        while d < 4 {
            t[i][d] = offset(i, DIRS[d].0 * steps, DIRS[d].1 * steps);
            d += 1;
        }
        i += 1;
    }
    t
}

/// `NEXT[p][d]`: the neighbour of `p` in direction `d`, or [`NONE`].
pub const NEXT: [[u8; 4]; POINTS] = neighbour_table(1);
/// `BEYOND[p][d]`: the point two steps away in direction `d` (a jump's landing), or [`NONE`].
pub const BEYOND: [[u8; 4]; POINTS] = neighbour_table(2);

/// The lower-left corners of the (up to four) 2×2 blocks that contain a point, as offsets.
const BLOCK_CORNERS: [(i8, i8); 4] = [(-1, -1), (-1, 0), (0, -1), (0, 0)];

const fn block_table() -> [[[u8; 4]; 4]; POINTS] {
    let mut t = [[[NONE; 4]; 4]; POINTS];
    let mut i = 0;
    while i < POINTS {
        let mut b = 0;
        while b < 4 {
            let corner = offset(i, BLOCK_CORNERS[b].0, BLOCK_CORNERS[b].1);
            if corner != NONE && offset(corner as usize, 1, 1) != NONE {
                let c = corner as usize;
                t[i][b] = [c as u8, offset(c, 0, 1), offset(c, 1, 0), offset(c, 1, 1)];
            }
            b += 1;
        }
        i += 1;
    }
    t
}

/// `BLOCKS[p]`: the 2×2 blocks containing `p`, each as its four points; a block that would
/// leave the board is all [`NONE`].
pub const BLOCKS: [[[u8; 4]; 4]; POINTS] = block_table();

/// Whether `a` and `b` are orthogonal neighbours.
pub fn adjacent(a: u8, b: u8) -> bool {
    NEXT[a as usize].contains(&b)
}

/// A set of points (196 bits), the jumped pieces of a move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Points([u64; 4]);

impl Points {
    pub const EMPTY: Points = Points([0; 4]);

    pub fn contains(&self, p: u8) -> bool {
        self.0[p as usize >> 6] >> (p & 63) & 1 != 0
    }

    pub fn insert(&mut self, p: u8) {
        self.0[p as usize >> 6] |= 1 << (p & 63);
    }

    pub fn remove(&mut self, p: u8) {
        self.0[p as usize >> 6] &= !(1 << (p & 63));
    }

    /// The four 64-bit words of the set (bit `p % 64` of word `p / 64`).
    pub fn words(&self) -> [u64; 4] {
        self.0
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The points in ascending point order.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros();
                    rest &= rest - 1;
                    (w as u32 * 64 + b) as u8
                })
            })
        })
    }
}

impl std::fmt::Debug for Points {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter().map(point_of)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_point_order() {
        let a14 = index_of(Point::parse("a14", 14).unwrap());
        let b1 = index_of(Point::parse("b1", 14).unwrap());
        assert!(a14 < b1);
        assert_eq!(point_of(G7).to_string(), "g7");
        assert_eq!(point_of(H8).to_string(), "h8");
        for i in 0..POINTS as u8 {
            assert_eq!(index_of(point_of(i)), i);
        }
    }

    #[test]
    fn neighbours_and_blocks() {
        let a1 = index_of(Point::new(0, 0));
        assert_eq!(NEXT[a1 as usize].iter().filter(|&&n| n != NONE).count(), 2);
        assert_eq!(
            BLOCKS[a1 as usize].iter().filter(|b| b[0] != NONE).count(),
            1
        );
        assert_eq!(
            BLOCKS[G7 as usize].iter().filter(|b| b[0] != NONE).count(),
            4
        );
        for block in BLOCKS[G7 as usize] {
            assert!(block.contains(&G7));
        }
        let mut set = Points::EMPTY;
        set.insert(195);
        set.insert(3);
        set.insert(64);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![3, 64, 195]);
        assert_eq!(set.len(), 3);
        set.remove(64);
        assert!(!set.contains(64) && set.contains(195));
    }
}
