//! The engines' Jiu board: a flat cell array with make/unmake, its own Zobrist hash and a
//! battle move generator that yields move *bases* (origin, landing, jumped set, squares
//! completed). Square captures are chosen by the engine ([`Board::capture_choice`]) instead
//! of enumerating every subset of enemy pieces, which keeps the search narrow.

use boyi_core::Game;
use boyi_core::{Side, zobrist};
use boyi_games::jiu::board::{BEYOND, BLOCKS, NEXT, NONE, POINTS, Points, adjacent, point_of};
use boyi_games::jiu::{FLY_LIMIT, Jiu, JiuMove, MIN_PIECES, Phase, QUIET_DRAW};

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;

/// The colour of `side` on this board.
pub fn colour(side: Side) -> u8 {
    match side {
        Side::Black => BLACK,
        Side::White => WHITE,
    }
}

/// The other colour.
pub fn other(c: u8) -> u8 {
    3 - c
}

const KEYS: [u64; 2 * POINTS + 1] = zobrist::keys(0x6A69_7545_6E67_696E);

fn key(c: u8, p: u8) -> u64 {
    KEYS[(c as usize - 1) * POINTS + p as usize]
}

/// A battle move as the engines handle it: the rules' move identity.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub jumped: Points,
    pub ncaps: u8,
    pub caps: [u8; 4],
}

impl Move {
    pub const NULL: Move = Move {
        from: NONE,
        to: NONE,
        jumped: Points::EMPTY,
        ncaps: 0,
        caps: [NONE; 4],
    };

    /// Pieces this move removes.
    pub fn taken(&self) -> usize {
        self.jumped.len() + self.ncaps as usize
    }

    pub fn captures(&self) -> &[u8] {
        &self.caps[..self.ncaps as usize]
    }

    /// Whether `m` (a rules move) is this move.
    pub fn matches(&self, m: &JiuMove) -> bool {
        let idx = |p: boyi_core::Point| boyi_games::jiu::board::index_of(p);
        m.from().map(idx) == Some(self.from)
            && idx(m.to()) == self.to
            && m.jumped().map(idx).eq(self.jumped.iter())
            && m.captures().map(idx).eq(self.captures().iter().copied())
    }
}

/// Origin, landing, jumped set and the number of squares the landing completes.
#[derive(Clone, Copy, Debug)]
pub struct Base {
    pub from: u8,
    pub to: u8,
    pub jumped: Points,
    pub squares: u8,
}

#[derive(Clone, Debug)]
pub struct Board {
    pub cells: [u8; POINTS],
    pub count: [u8; 3],
    /// Colour to move.
    pub side: u8,
    pub hash: u64,
    pub quiet: u8,
    /// Hashes of earlier positions since the last capture (repetition), oldest first.
    pub past: Vec<u64>,
}

impl Board {
    /// The board of a rules position (battle or placement).
    pub fn from_game(pos: &Jiu) -> Board {
        let mut b = Board {
            cells: [EMPTY; POINTS],
            count: [0; 3],
            side: colour(pos.side_to_move()),
            hash: 0,
            quiet: pos.moves_without_capture(),
            past: Vec::new(),
        };
        for i in 0..POINTS as u8 {
            if let Some(s) = pos.piece_at(point_of(i)) {
                b.put(i, colour(s));
            }
        }
        if b.side == WHITE {
            b.hash ^= KEYS[2 * POINTS];
        }
        b
    }

    /// Whether the rules position is in battle (the board only models battle search).
    pub fn in_battle(pos: &Jiu) -> bool {
        pos.phase() == Phase::Battle
    }

    pub fn put(&mut self, p: u8, c: u8) {
        self.cells[p as usize] = c;
        self.count[c as usize] += 1;
        self.hash ^= key(c, p);
    }

    pub fn take(&mut self, p: u8) -> u8 {
        let c = self.cells[p as usize];
        self.cells[p as usize] = EMPTY;
        self.count[c as usize] -= 1;
        self.hash ^= key(c, p);
        c
    }

    fn flip(&mut self) {
        self.side = other(self.side);
        self.hash ^= KEYS[2 * POINTS];
    }

    pub fn pieces(&self, c: u8) -> u8 {
        self.count[c as usize]
    }

    /// Squares of colour `c` containing `p`, counted as if `p` held `c`.
    pub fn squares_at(&self, c: u8, p: u8) -> u8 {
        let mut n = 0;
        for block in &BLOCKS[p as usize] {
            if block[0] != NONE && block.iter().all(|&q| q == p || self.cells[q as usize] == c) {
                n += 1;
            }
        }
        n
    }

    /// Every move base of the side to move.
    pub fn bases(&mut self, out: &mut Vec<Base>) {
        let me = self.side;
        let enemy = other(me);
        let can_fly = self.pieces(me) <= FLY_LIMIT;
        let min_jumps = if self.pieces(me) > FLY_LIMIT && self.pieces(enemy) <= FLY_LIMIT {
            2
        } else {
            1
        };
        let mut seen: Vec<(u8, Points)> = Vec::new();
        for from in 0..POINTS as u8 {
            if self.cells[from as usize] != me {
                continue;
            }
            self.take(from);
            for &n in &NEXT[from as usize] {
                if n != NONE && self.cells[n as usize] == EMPTY {
                    let squares = self.squares_at(me, n);
                    out.push(Base {
                        from,
                        to: n,
                        jumped: Points::EMPTY,
                        squares,
                    });
                }
            }
            seen.clear();
            let mut jumped = Points::EMPTY;
            self.chain(from, from, enemy, min_jumps, &mut jumped, &mut seen, out);
            if can_fly {
                for to in 0..POINTS as u8 {
                    if self.cells[to as usize] == EMPTY && to != from && !adjacent(from, to) {
                        let squares = self.squares_at(me, to);
                        out.push(Base {
                            from,
                            to,
                            jumped: Points::EMPTY,
                            squares,
                        });
                    }
                }
            }
            self.put(from, me);
        }
    }

    /// The move bases that take pieces (jumps, and steps or flights completing squares),
    /// for quiescence: a flying side's flights are tried only into the holes of its doors
    /// instead of every empty point.
    pub fn capture_bases(&mut self, out: &mut Vec<Base>) {
        let me = self.side;
        let enemy = other(me);
        let can_fly = self.pieces(me) <= FLY_LIMIT;
        let min_jumps = if self.pieces(me) > FLY_LIMIT && self.pieces(enemy) <= FLY_LIMIT {
            2
        } else {
            1
        };
        let mut holes = [0u8; POINTS];
        let mut nholes = 0;
        if can_fly {
            for p in 0..POINTS as u8 {
                if self.cells[p as usize] == EMPTY && self.squares_at(me, p) > 0 {
                    holes[nholes] = p;
                    nholes += 1;
                }
            }
        }
        let mut seen: Vec<(u8, Points)> = Vec::new();
        for from in 0..POINTS as u8 {
            if self.cells[from as usize] != me {
                continue;
            }
            self.take(from);
            for &n in &NEXT[from as usize] {
                if n != NONE && self.cells[n as usize] == EMPTY {
                    let squares = self.squares_at(me, n);
                    if squares > 0 {
                        out.push(Base {
                            from,
                            to: n,
                            jumped: Points::EMPTY,
                            squares,
                        });
                    }
                }
            }
            seen.clear();
            let mut jumped = Points::EMPTY;
            self.chain(from, from, enemy, min_jumps, &mut jumped, &mut seen, out);
            for &to in &holes[..nholes] {
                if to != from && !adjacent(from, to) {
                    let squares = self.squares_at(me, to);
                    if squares > 0 {
                        out.push(Base {
                            from,
                            to,
                            jumped: Points::EMPTY,
                            squares,
                        });
                    }
                }
            }
            self.put(from, me);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn chain(
        &mut self,
        from: u8,
        at: u8,
        enemy: u8,
        min_jumps: usize,
        jumped: &mut Points,
        seen: &mut Vec<(u8, Points)>,
        out: &mut Vec<Base>,
    ) {
        for d in 0..4 {
            let over = NEXT[at as usize][d];
            let land = BEYOND[at as usize][d];
            if land == NONE
                || self.cells[over as usize] != enemy
                || self.cells[land as usize] != EMPTY
            {
                continue;
            }
            self.take(over);
            jumped.insert(over);
            if !seen.contains(&(land, *jumped)) {
                seen.push((land, *jumped));
                if jumped.len() >= min_jumps {
                    let squares = self.squares_at(other(enemy), land);
                    out.push(Base {
                        from,
                        to: land,
                        jumped: *jumped,
                        squares,
                    });
                }
                self.chain(from, land, enemy, min_jumps, jumped, seen, out);
            }
            jumped.remove(over);
            self.put(over, enemy);
        }
    }

    /// The move of `base` with square captures chosen by `value` (highest first) among the
    /// enemy pieces left after the jumps.
    pub fn with_captures(&self, base: &Base, value: impl Fn(&Board, u8) -> i32) -> Move {
        let mut order = CaptureOrder::default();
        if base.squares > 0 {
            order.fill(self, value);
        }
        order.apply(base)
    }

    pub fn make(&mut self, mv: &Move) {
        self.past.push(self.hash);
        let me = self.side;
        self.take(mv.from);
        self.put(mv.to, me);
        for p in mv.jumped.iter() {
            self.take(p);
        }
        for &p in mv.captures() {
            self.take(p);
        }
        self.quiet = if mv.taken() > 0 { 0 } else { self.quiet + 1 };
        self.flip();
    }

    /// Takes back `mv`, restoring the quiet counter `quiet` it had before.
    pub fn unmake(&mut self, mv: &Move, quiet: u8) {
        self.flip();
        let me = self.side;
        let enemy = other(me);
        for &p in mv.captures() {
            self.put(p, enemy);
        }
        for p in mv.jumped.iter() {
            self.put(p, enemy);
        }
        self.take(mv.to);
        self.put(mv.from, me);
        self.quiet = quiet;
        self.past.pop();
    }

    /// Whether the game is over by a rule other than "no move": the loser's colour for too
    /// few pieces, `Some(EMPTY)` for a draw.
    pub fn ended(&self) -> Option<u8> {
        for c in [BLACK, WHITE] {
            if self.pieces(c) < MIN_PIECES {
                return Some(c);
            }
        }
        if self.quiet >= QUIET_DRAW {
            return Some(EMPTY);
        }
        let reach = (self.quiet as usize).min(self.past.len());
        let seen = (2..=reach)
            .step_by(2)
            .filter(|&d| self.past[self.past.len() - d] == self.hash)
            .count();
        (seen >= 2).then_some(EMPTY)
    }

    /// Whether the current position occurred before since the last capture (same side).
    pub fn repeated(&self) -> bool {
        let reach = (self.quiet as usize).min(self.past.len());
        (2..=reach)
            .step_by(2)
            .any(|d| self.past[self.past.len() - d] == self.hash)
    }
}

/// The enemy pieces of a node ranked for square captures, computed once for all its moves:
/// a move takes the first ones its jumps left on the board.
#[derive(Clone, Default)]
pub struct CaptureOrder {
    ranked: Vec<(i32, u8)>,
}

impl CaptureOrder {
    /// Ranks the pieces of the side not to move by `value`, highest first (ties: higher
    /// point first).
    pub fn fill(&mut self, b: &Board, value: impl Fn(&Board, u8) -> i32) {
        let enemy = other(b.side);
        self.ranked.clear();
        self.ranked.extend(
            (0..POINTS as u8)
                .filter(|&p| b.cells[p as usize] == enemy)
                .map(|p| (value(b, p), p)),
        );
        self.ranked.sort_unstable_by(|a, b| b.cmp(a));
    }

    /// The move of `base`, its square captures from this order.
    pub fn apply(&self, base: &Base) -> Move {
        let mut mv = Move {
            from: base.from,
            to: base.to,
            jumped: base.jumped,
            ncaps: 0,
            caps: [NONE; 4],
        };
        let k = base.squares as usize;
        if k == 0 {
            return mv;
        }
        let mut n = 0;
        for &(_, p) in &self.ranked {
            if n == k {
                break;
            }
            if !base.jumped.contains(p) {
                mv.caps[n] = p;
                n += 1;
            }
        }
        mv.caps[..n].sort_unstable();
        mv.ncaps = n as u8;
        mv
    }
}

/// The rules move equal to `mv` among the legal moves of `pos`.
pub fn to_rules_move(pos: &Jiu, mv: &Move) -> Option<JiuMove> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves.into_iter().find(|m| mv.matches(m))
}

/// The placement of point index `p` among the legal moves of `pos`.
pub fn placement(pos: &Jiu, p: u8) -> Option<JiuMove> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .find(|m| m.is_placement() && boyi_games::jiu::board::index_of(m.to()) == p)
}
