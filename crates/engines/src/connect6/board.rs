//! The engine's Connect6 board: every six-point window of every line, with its count of
//! black and white stones. A stone updates only the (at most 24) windows through it, and with
//! them the running evaluation sums and the number of threat windows (four or five stones of
//! one side and none of the other: the opponent must put a stone there).

use boyi_core::{Point, Side};
use boyi_games::connect6::{Connect6, Move};
use boyi_games::grid;

/// Value of a window holding `n` stones of one side and none of the other (the default of
/// the `values` option).
pub const WINDOW_VALUE: [i32; 7] = [0, 1, 8, 40, 260, 520, 100_000];

#[derive(Clone)]
pub struct Board6 {
    size: usize,
    cells: Vec<u8>,
    counts: Vec<[u8; 2]>,
    window_cells: Vec<[u16; 6]>,
    /// Windows through each point: `point_windows[start[p]..start[p + 1]]`.
    start: Vec<u32>,
    point_windows: Vec<u32>,
    /// Points within two of each point: `neighbours[p * 25..][..near_len[p]]`.
    neighbours: Vec<u16>,
    near_len: Vec<u8>,
    /// Stones within two points of each point (kept per stone, so `is_near` is one read).
    near: Vec<u16>,
    sums: [i32; 2],
    /// What a one-sided window of `n` stones is worth (`WINDOW_VALUE` unless set).
    values: [i32; 7],
    threats: [u32; 2],
    /// Per side, the windows with two or more of its stones and none of the other side's
    /// (the only ones threats grow from), and each window's place in those lists.
    live: [Vec<u32>; 2],
    live_at: Vec<[u32; 2]>,
    side: Side,
    hash: u64,
    stones: usize,
    winner: Option<Side>,
    history: Vec<(u16, u16, Option<Side>)>,
}

const NONE: u16 = u16::MAX;
/// Not in a live-window list.
const ABSENT: u32 = u32::MAX;

impl Board6 {
    pub fn new(size: usize) -> Board6 {
        let mut window_cells = Vec::new();
        for row in 0..size as i32 {
            for col in 0..size as i32 {
                for (dc, dr) in grid::DIRECTIONS {
                    let (dc, dr) = (dc as i32, dr as i32);
                    let (ec, er) = (col + 5 * dc, row + 5 * dr);
                    if ec < 0 || er < 0 || ec >= size as i32 || er >= size as i32 {
                        continue;
                    }
                    let cells = std::array::from_fn(|k| {
                        ((row + k as i32 * dr) * size as i32 + col + k as i32 * dc) as u16
                    });
                    window_cells.push(cells);
                }
            }
        }
        let mut per_point = vec![Vec::new(); size * size];
        for (w, cells) in window_cells.iter().enumerate() {
            for &c in cells {
                per_point[c as usize].push(w as u32);
            }
        }
        let mut start = Vec::with_capacity(size * size + 1);
        let mut point_windows = Vec::new();
        for list in &per_point {
            start.push(point_windows.len() as u32);
            point_windows.extend_from_slice(list);
        }
        start.push(point_windows.len() as u32);
        let (neighbours, near_len) = neighbourhoods(size);
        let window_count = window_cells.len();
        Board6 {
            size,
            cells: vec![grid::EMPTY; size * size],
            counts: vec![[0; 2]; window_cells.len()],
            window_cells,
            start,
            point_windows,
            neighbours,
            near_len,
            near: vec![0; size * size],
            sums: [0; 2],
            values: WINDOW_VALUE,
            threats: [0; 2],
            live: [Vec::new(), Vec::new()],
            live_at: vec![[ABSENT; 2]; window_count],
            side: Side::Black,
            hash: 0,
            stones: 0,
            winner: None,
            history: Vec::new(),
        }
    }

    pub fn from_game(pos: &Connect6) -> Board6 {
        let board = pos.board();
        let mut b = Board6::new(board.size());
        for p in board.all_points() {
            let c = board.get(p);
            if c != grid::EMPTY {
                let side = if c == grid::BLACK {
                    Side::Black
                } else {
                    Side::White
                };
                b.place(p.index(b.size), side);
            }
        }
        b.side = boyi_core::Game::side_to_move(pos);
        b.winner = boyi_core::Game::outcome(pos).and_then(|o| o.winner);
        b
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn side(&self) -> Side {
        self.side
    }

    /// Sets the side to move (for probes that place a stone without passing the turn).
    pub fn set_side(&mut self, s: Side) {
        self.side = s;
    }

    pub fn hash(&self) -> u64 {
        self.hash ^ grid::side_key(self.side)
    }

    pub fn winner(&self) -> Option<Side> {
        self.winner
    }

    pub fn stones(&self) -> usize {
        self.stones
    }

    pub fn points(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self, p: usize) -> bool {
        self.cells[p] == grid::EMPTY
    }

    pub fn point(&self, p: usize) -> Point {
        Point::from_index(p, self.size)
    }

    pub fn windows_of(&self, p: usize) -> &[u32] {
        &self.point_windows[self.start[p] as usize..self.start[p + 1] as usize]
    }

    pub fn count(&self, w: u32, s: Side) -> u8 {
        self.counts[w as usize][s.index()]
    }

    /// Black and white stones in window `w`, indexed by `Side::index`.
    pub fn counts(&self, w: u32) -> [u8; 2] {
        self.counts[w as usize]
    }

    pub fn window_cells(&self, w: u32) -> &[u16; 6] {
        &self.window_cells[w as usize]
    }

    pub fn window_count(&self) -> usize {
        self.counts.len()
    }

    /// The windows with two or more stones of `s` and none of the other side's, in no
    /// particular order.
    pub fn live(&self, s: Side) -> &[u32] {
        &self.live[s.index()]
    }

    /// Windows with four or five stones of `s` and none of the other side.
    pub fn threats(&self, s: Side) -> u32 {
        self.threats[s.index()]
    }

    /// What a one-sided window of `n` stones is worth.
    #[inline]
    pub fn value(&self, n: usize) -> i32 {
        self.values[n]
    }

    /// Values the windows with `values` from now on (the sums are recomputed).
    pub fn set_values(&mut self, values: [i32; 7]) {
        if self.values == values {
            return;
        }
        self.values = values;
        self.sums = [0; 2];
        for c in &self.counts {
            for s in 0..2 {
                if c[1 - s] == 0 {
                    self.sums[s] += values[c[s] as usize];
                }
            }
        }
    }

    pub fn sums(&self) -> [i32; 2] {
        self.sums
    }

    /// The static value for the side to move.
    pub fn evaluate(&self) -> i32 {
        let me = self.side.index();
        self.sums[me] - self.sums[1 - me]
    }

    fn place(&mut self, p: usize, side: Side) {
        self.set(p, side, true);
    }

    /// Adds (or removes) a stone of `side` on `p`, updating the windows through it.
    fn set(&mut self, p: usize, side: Side, add: bool) {
        let s = side.index();
        self.cells[p] = if add { grid::stone(side) } else { grid::EMPTY };
        self.hash ^= grid::stone_key(self.point(p), side);
        if add {
            self.stones += 1;
        } else {
            self.stones -= 1;
        }
        for k in 0..self.near_len[p] as usize {
            let q = self.neighbours[p * 25 + k] as usize;
            if add {
                self.near[q] += 1;
            } else {
                self.near[q] -= 1;
            }
        }
        let t = 1 - s;
        for k in self.start[p]..self.start[p + 1] {
            let w = self.point_windows[k as usize] as usize;
            let c = self.counts[w];
            let (mine, theirs) = (c[s] as usize, c[t] as usize);
            let now = if add { mine + 1 } else { mine - 1 };
            self.counts[w][s] = now as u8;
            if (mine.max(now) >= 2 && theirs == 0) || mine.min(now) == 0 && theirs >= 2 {
                self.update_live(w);
            }
            if now == 6 {
                self.winner = Some(side);
            }
            if theirs == 0 {
                // The window stays (or was) one-sided for `side`.
                self.sums[s] += self.values[now] - self.values[mine];
                self.threats[s] = self.threats[s] + u32::from(now >= 4) - u32::from(mine >= 4);
            } else if mine.min(now) == 0 {
                // The first stone of `side` spoils the other side's window (or its removal
                // restores it).
                let (v, th) = (self.values[theirs], u32::from(theirs >= 4));
                if add {
                    self.sums[t] -= v;
                    self.threats[t] -= th;
                } else {
                    self.sums[t] += v;
                    self.threats[t] += th;
                }
            }
        }
    }

    /// Puts window `w` in or out of each side's live list after its counts changed.
    fn update_live(&mut self, w: usize) {
        let c = self.counts[w];
        for s in 0..2 {
            let live = c[s] >= 2 && c[1 - s] == 0;
            let at = self.live_at[w][s];
            if live && at == ABSENT {
                self.live_at[w][s] = self.live[s].len() as u32;
                self.live[s].push(w as u32);
            } else if !live && at != ABSENT {
                let list = &mut self.live[s];
                list.swap_remove(at as usize);
                if let Some(&moved) = list.get(at as usize) {
                    self.live_at[moved as usize][s] = at;
                }
                self.live_at[w][s] = ABSENT;
            }
        }
    }

    /// Plays a turn of one or two stones for the side to move.
    pub fn play(&mut self, a: usize, b: Option<usize>) {
        let side = self.side;
        let winner = self.winner;
        self.set(a, side, true);
        let b = b.filter(|_| self.winner.is_none());
        if let Some(b) = b {
            self.set(b, side, true);
        }
        self.history
            .push((a as u16, b.map_or(NONE, |b| b as u16), winner));
        self.side = !side;
    }

    pub fn undo(&mut self) {
        let Some((a, b, winner)) = self.history.pop() else {
            return;
        };
        self.side = !self.side;
        if b != NONE {
            self.set(b as usize, self.side, false);
        }
        self.set(a as usize, self.side, false);
        self.winner = winner;
    }

    /// The points within two of `p` (itself included).
    pub fn neighbours(&self, p: usize) -> &[u16] {
        &self.neighbours[p * 25..p * 25 + self.near_len[p] as usize]
    }

    /// How many stones lie within two points of `p`.
    pub fn near_count(&self, p: usize) -> u16 {
        self.near[p]
    }

    /// Whether the empty point `p` has a stone within two points.
    pub fn is_near(&self, p: usize) -> bool {
        self.near[p] != 0
    }

    /// Checks the incremental state against a rebuild (tests).
    pub fn consistent(&self) -> bool {
        let mut fresh = Board6::new(self.size);
        fresh.values = self.values;
        for p in 0..self.cells.len() {
            match self.cells[p] {
                grid::BLACK => fresh.place(p, Side::Black),
                grid::WHITE => fresh.place(p, Side::White),
                _ => {}
            }
        }
        let sorted = |l: &[u32]| {
            let mut l = l.to_vec();
            l.sort_unstable();
            l
        };
        let live_ok = (0..2).all(|s| {
            sorted(&fresh.live[s]) == sorted(&self.live[s])
                && self.live[s]
                    .iter()
                    .enumerate()
                    .all(|(i, &w)| self.live_at[w as usize][s] == i as u32)
        });
        live_ok
            && fresh.counts == self.counts
            && fresh.near == self.near
            && fresh.sums == self.sums
            && fresh.threats == self.threats
            && fresh.hash == self.hash
    }
}

/// For every point, the points within two (itself included), 25 slots per point.
fn neighbourhoods(size: usize) -> (Vec<u16>, Vec<u8>) {
    let mut list = vec![0u16; size * size * 25];
    let mut len = vec![0u8; size * size];
    for p in 0..size * size {
        let q = Point::from_index(p, size);
        for dc in -2..=2i8 {
            for dr in -2..=2i8 {
                if let Some(r) = q.offset(dc, dr, size) {
                    list[p * 25 + len[p] as usize] = r.index(size) as u16;
                    len[p] += 1;
                }
            }
        }
    }
    (list, len)
}

/// The game move of a turn of points `a` and `b` (board indices on a board of `size` lines)
/// in `pos`: a winning single stone is a one-stone move.
pub fn to_move(size: usize, a: usize, b: Option<usize>, pos: &Connect6) -> Move {
    let point = |i: usize| Point::from_index(i, size);
    let (pa, pb) = (point(a), b.map(point));
    match pb {
        Some(pb) if !pos.wins_alone(pa) && !pos.wins_alone(pb) => Move::two(pa, pb),
        Some(pb) if pos.wins_alone(pb) => Move::One(pb),
        _ => Move::One(pa),
    }
}
