//! Battle evaluation for `boyi:strong`: material, doors, dalians, mobility, safety.

use super::board::{Board, EMPTY, other};
use boyi_games::jiu::FLY_LIMIT;
use boyi_games::jiu::board::{BEYOND, BLOCKS, NEXT, NONE, POINTS};

pub const PIECE: i32 = 100;
/// A door (three own pieces and a hole) that an own piece can close next move.
const READY_DOOR: i32 = 45;
/// A door nobody of ours can close yet.
const DOOR: i32 = 10;
/// A complete own square (it reopens and closes again).
const SQUARE: i32 = 12;
/// A piece that completes a square both by leaving and by coming back (褡裢).
const DALIAN: i32 = 70;
const MOBILE: i32 = 2;
const HANGING: i32 = 12;
/// The side to move cashes one ready threat first.
const TEMPO: i32 = 30;

/// The value of the battle position for the side to move.
pub fn battle(b: &Board) -> i32 {
    let me = b.side;
    let (mine, my_ready) = side_value(b, me);
    let (theirs, _) = side_value(b, other(me));
    mine - theirs + if my_ready > 0 { TEMPO } else { 0 }
}

/// Value of colour `c` and its number of ready doors.
fn side_value(b: &Board, c: u8) -> (i32, i32) {
    let flying = b.pieces(c) <= FLY_LIMIT && b.pieces(c) > 4;
    let mut v = b.pieces(c) as i32 * PIECE;
    let mut ready = 0;
    let mut in_square = [false; POINTS];
    // Each block once: as the block whose lower-left corner is the point.
    for blocks in &BLOCKS {
        let block = blocks[3];
        if block[0] == NONE {
            continue;
        }
        let own = block.iter().filter(|&&q| b.cells[q as usize] == c).count();
        let empty = block
            .iter()
            .filter(|&&q| b.cells[q as usize] == EMPTY)
            .count();
        if own == 4 {
            v += SQUARE;
            for &q in &block {
                in_square[q as usize] = true;
            }
        } else if own == 3 && empty == 1 {
            let hole = *block
                .iter()
                .find(|&&q| b.cells[q as usize] == EMPTY)
                .unwrap_or(&block[0]);
            let closer = flying
                || NEXT[hole as usize]
                    .iter()
                    .any(|&n| n != NONE && !block.contains(&n) && b.cells[n as usize] == c);
            if closer {
                v += READY_DOOR;
                ready += 1;
            } else {
                v += DOOR;
            }
        }
    }
    let enemy = other(c);
    for p in 0..POINTS {
        if b.cells[p] != c {
            continue;
        }
        let mut free = false;
        for (d, &n) in NEXT[p].iter().enumerate() {
            if n == NONE {
                continue;
            }
            if b.cells[n as usize] == EMPTY {
                free = true;
                if in_square[p] && closes_square(b, c, p as u8, n) {
                    v += DALIAN;
                }
            } else if b.cells[n as usize] == enemy {
                // Hanging: the enemy piece on one side can jump to the empty other side.
                let back = opposite(d);
                let beyond = NEXT[p][back];
                if beyond != NONE && b.cells[beyond as usize] == EMPTY {
                    v -= HANGING;
                }
            }
        }
        if free {
            v += MOBILE;
        }
    }
    (v, ready)
}

fn opposite(d: usize) -> usize {
    3 - d
}

/// Whether the piece of colour `c` on `from` completes a square by stepping to `to`.
fn closes_square(b: &Board, c: u8, from: u8, to: u8) -> bool {
    BLOCKS[to as usize].iter().any(|block| {
        block[0] != NONE
            && !block.contains(&from)
            && block.iter().all(|&q| q == to || b.cells[q as usize] == c)
    })
}

/// How much removing enemy piece `p` helps the side to move: pieces in the enemy's doors and
/// squares, pieces that can jump ours, mobile pieces.
pub fn capture_value(b: &Board, p: u8) -> i32 {
    let enemy = b.cells[p as usize];
    let me = other(enemy);
    let mut v = 0;
    for block in &BLOCKS[p as usize] {
        if block[0] == NONE {
            continue;
        }
        let theirs = block
            .iter()
            .filter(|&&q| b.cells[q as usize] == enemy)
            .count();
        let mine = block.iter().filter(|&&q| b.cells[q as usize] == me).count();
        if mine == 0 {
            v += [0, 1, 6, 40, 30][theirs];
        }
        if theirs == 1 && mine == 3 {
            // It plugs one of our doors.
            v += 35;
        }
    }
    for d in 0..4 {
        let n = NEXT[p as usize][d];
        if n == NONE {
            continue;
        }
        match b.cells[n as usize] {
            EMPTY => v += 4,
            c if c == me => {
                let land = BEYOND[p as usize][d];
                if land != NONE && b.cells[land as usize] == EMPTY {
                    v += 25;
                }
            }
            _ => {}
        }
    }
    v
}
