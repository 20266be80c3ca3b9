//! The engine's Gomoku board: a padded array of cells with, for every point and direction,
//! the 16-bit window key of its line, the pattern a stone there would make for each side, the
//! point's threat class and value, and running sums of those values. Playing a stone updates
//! only the 32 points whose windows contain it, so evaluation is never recomputed from scratch:
//! each of those points changes one 2-bit field of one key, reads both sides' patterns from one
//! packed table (a byte per key) and, only when a pattern changed, adjusts its value by the
//! difference and re-reads its threat class from a small table by a threat code kept up to
//! date by addition. An occupied point's keys and patterns stay as they were when its stone
//! was played. Taking a stone back puts back the cells, sums and bit sets saved when it was
//! played, rather than updating again. Bit sets of the empty points with a four (or a three)
//! per side and of the candidate zone let the searches visit those points alone instead of
//! scanning the board.

use super::learned::{FitTable, KEY_STEP, fit_key, fit_table};
use super::pattern::{
    CODE_OF, PATTERN_VALUE, PairTable, Pattern, THREAT_VALUE, Threat, pair_table, shift,
    threat_code, threat_of_code, unpack,
};
use boyi_core::{Point, Side};
use boyi_games::gomoku::{Gomoku, Variant, renju};
use boyi_games::grid::{self, Board};

const PAD: usize = 4;
/// The points of a stone's row whose keys it changes: its own and four each side.
const ROW: usize = 9;
/// The points off a stone's row whose keys it changes: four each way on three lines.
const LINES: usize = 24;
const WALL: u8 = 3;
/// The history entry of a pass (`EngineBoard::pass`).
const PASS: usize = usize::MAX;

/// Per-point state, kept in one struct so an update touches one cache line.
#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    stone: u8,
    /// Window keys per direction.
    keys: [u16; 4],
    /// Patterns per side and direction (current on empty points only).
    pats: [[Pattern; 4]; 2],
    /// Threat code of `pats` per side (see [`CODE_OF`]).
    code: [u16; 2],
    threat: [Threat; 2],
    /// Line values plus the threat bonus per side, in 16 bits so a cell fits in 32 bytes.
    value: [i16; 2],
    /// Key of the patterns per side into the fitted values (`learned::fit_key`).
    fit_key: [u16; 2],
    /// Stones within the 5×5 square around the point.
    near: u8,
}

// A stone saves and restores 33 cells, so a cell is kept to 32 bytes; a point's value (four
// line values and a threat bonus) fits its 16 bits.
const _: () = assert!(std::mem::size_of::<Cell>() == 32);
const _: () = assert!(
    4 * PATTERN_VALUE[Pattern::Five as usize] + THREAT_VALUE[Threat::Five as usize]
        <= i16::MAX as i32
);

/// The sets of `Sets`: empty points where black (white) has at least a four, at least a
/// three, and the candidate zone.
const FOURS: usize = 0;
const THREES: usize = 2;
const ZONE: usize = 4;

/// Five sets of board indices (`FOURS`, `THREES` and `ZONE`) in one buffer, so a stone saves
/// and restores them with one copy.
#[derive(Clone, PartialEq, Eq)]
struct Sets {
    words: usize,
    bits: Vec<u64>,
}

impl Sets {
    fn new(len: usize) -> Sets {
        let words = len.div_ceil(64);
        Sets {
            words,
            bits: vec![0; 5 * words],
        }
    }

    #[inline]
    fn put(&mut self, set: usize, i: usize, on: bool) {
        let (w, b) = (set * self.words + i / 64, i % 64);
        self.bits[w] = (self.bits[w] & !(1 << b)) | (u64::from(on) << b);
    }

    /// The indices of one set in increasing order (the board's point order).
    fn iter(&self, set: usize) -> impl Iterator<Item = usize> + '_ {
        let words = &self.bits[set * self.words..(set + 1) * self.words];
        words.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + b
                })
            })
        })
    }
}

/// The running sums and counts a stone changes: the point values', the fitted values' and
/// the threat counts.
type Sums = ([i32; 2], [[i32; 2]; 2], [[u16; 7]; 2]);

#[derive(Clone)]
pub struct EngineBoard {
    size: usize,
    width: usize,
    steps: [isize; 4],
    cells: Vec<Cell>,
    rule: Variant,
    pairs: &'static PairTable,
    /// The fitted values by pattern key (`learned::fit_table`).
    fit: &'static FitTable,
    /// Σ of point values over empty points, per side.
    sums: [i32; 2],
    /// Σ of the fitted values over empty points, per side: `[as the side to move's, as the
    /// opponent's]`.
    fit_sums: [[i32; 2]; 2],
    /// Empty points per side and threat class.
    threat_counts: [[u16; 7]; 2],
    /// Empty points where each side has a threat of at least a four, of at least a three,
    /// and empty points with a stone within two points.
    sets: Sets,
    side: Side,
    hash: u64,
    history: Vec<usize>,
    /// The last two moves before `history` began, newest first (`PASS` when none or a pass),
    /// from the game the board was built from.
    root_recent: [usize; 2],
    winner: Option<Side>,
    /// The rules board, kept in step for exact renju forbidden-point tests.
    grid: Board,
    /// Every on-board index, for scans.
    pub points: Vec<usize>,
    /// The point of every on-board index (`point` without a division: the move order asks
    /// for it of every candidate).
    coords: Vec<Point>,
    /// Offsets of the points off a stone's row whose keys it changes: the 24 on its other
    /// three lines up to four away. The nine of its row, its own among them, lie in one run
    /// (`ROW`) and are saved and restored as one.
    lines: [isize; LINES],
    /// Offsets of the points of the 5×5 square around a stone off its lines, whose `near`
    /// count alone it changes.
    knights: Vec<isize>,
    /// Offsets of the points within the 5×5 square around a point or on its lines three or
    /// four away (`around`).
    around: Vec<isize>,
    /// Per stone played, the state it changed, so `undo` restores it instead of updating
    /// again: the cells of its row and at `lines`, the bit sets' words, the sums and the
    /// threat counts (the `knights` counts are taken back by one).
    saved_cells: Vec<Cell>,
    saved_bits: Vec<u64>,
    saved_sums: Vec<Sums>,
}

impl EngineBoard {
    pub fn new(size: usize, rule: Variant) -> EngineBoard {
        let width = size + 2 * PAD;
        let exact = |s: Side| match rule {
            Variant::Freestyle => false,
            Variant::Standard => true,
            Variant::Renju => s == Side::Black,
        };
        let mut b = EngineBoard {
            size,
            width,
            steps: [1, width as isize, width as isize + 1, 1 - width as isize],
            cells: vec![
                Cell {
                    stone: WALL,
                    ..Cell::default()
                };
                width * width
            ],
            rule,
            pairs: pair_table(exact(Side::Black), exact(Side::White)),
            fit: fit_table(),
            sums: [0; 2],
            fit_sums: [[0; 2]; 2],
            threat_counts: [[0; 7]; 2],
            sets: Sets::new(width * width),
            side: Side::Black,
            hash: 0,
            history: Vec::with_capacity(size * size),
            root_recent: [PASS; 2],
            winner: None,
            grid: Board::new(size),
            points: Vec::with_capacity(size * size),
            coords: vec![Point::new(0, 0); width * width],
            lines: [0; LINES],
            knights: Vec::new(),
            around: Vec::new(),
            saved_cells: Vec::new(),
            saved_bits: Vec::new(),
            saved_sums: Vec::with_capacity(size * size),
        };
        let w = width as isize;
        let line = |s: isize| [-4, -3, -2, -1, 1, 2, 3, 4].map(|k| k * s);
        b.lines = std::array::from_fn(|n| line(b.steps[1 + n / 8])[n % 8]);
        let square = (-2..=2isize).flat_map(|dr| (-2..=2isize).map(move |dc| (dr, dc)));
        let off_lines = |&(dr, dc): &(isize, isize)| dr != 0 && dc != 0 && dr.abs() != dc.abs();
        b.knights = square
            .filter(off_lines)
            .map(|(dr, dc)| dr * w + dc)
            .collect();
        let far = b.steps.iter().flat_map(|&s| [-4, -3, 3, 4].map(|k| k * s));
        b.around = (-2..=2isize)
            .flat_map(|dr| (-2..=2isize).map(move |dc| dr * w + dc))
            .filter(|&o| o != 0)
            .chain(far)
            .collect();
        b.saved_cells.reserve(size * size * (ROW + LINES));
        b.saved_bits.reserve(size * size * b.sets.bits.len());
        for row in 0..size {
            for col in 0..size {
                let p = Point::new(col as u8, row as u8);
                let i = b.index(p);
                b.coords[i] = p;
                b.cells[i].stone = grid::EMPTY;
                b.points.push(i);
            }
        }
        b.rebuild();
        b
    }

    /// The engine board of a game position (stones, side to move, rule).
    pub fn from_game(pos: &Gomoku) -> EngineBoard {
        let board = pos.board();
        let mut b = EngineBoard::new(board.size(), *boyi_core::Game::variant(pos));
        for p in board.all_points() {
            let s = board.get(p);
            if s != grid::EMPTY {
                let i = b.index(p);
                b.cells[i].stone = s;
                b.grid.set(p, s);
                b.hash ^= grid::stone_key(p, side_of(s));
            }
        }
        b.side = boyi_core::Game::side_to_move(pos);
        b.root_recent = [0, 1].map(|back| pos.recent_stone(back).map_or(PASS, |p| b.index(p)));
        b.rebuild();
        b
    }

    /// Recomputes every key, pattern, value and sum from the stones alone.
    fn rebuild(&mut self) {
        self.sums = [0; 2];
        self.fit_sums = [[0; 2]; 2];
        self.threat_counts = [[0; 7]; 2];
        for n in 0..self.points.len() {
            let i = self.points[n];
            let mut near = 0;
            for dr in -2..=2isize {
                for dc in -2..=2isize {
                    let j = (i as isize + dr * self.width as isize + dc) as usize;
                    near += u8::from(matches!(self.cells[j].stone, grid::BLACK | grid::WHITE));
                }
            }
            self.cells[i].near = near;
            for d in 0..4 {
                let mut key = 0u32;
                for k in (-4..=4).filter(|&k| k != 0) {
                    let j = (i as isize + k * self.steps[d]) as usize;
                    key |= (self.cells[j].stone as u32) << shift(k as i32);
                }
                self.cells[i].keys[d] = key as u16;
            }
            self.read_patterns(i);
            self.compute(i);
            let c = &mut self.cells[i];
            for s in 0..2 {
                if c.stone == grid::EMPTY {
                    self.sums[s] += i32::from(c.value[s]);
                    let fit = self.fit.at(c.fit_key[s]);
                    self.fit_sums[s][0] += i32::from(fit[0]);
                    self.fit_sums[s][1] += i32::from(fit[1]);
                    self.threat_counts[s][c.threat[s] as usize] += 1;
                }
            }
            self.mark(i);
        }
    }

    /// Puts point `i` into the threat and zone sets it belongs to (none when occupied).
    fn mark(&mut self, i: usize) {
        let c = &self.cells[i];
        let empty = c.stone == grid::EMPTY;
        for s in 0..2 {
            self.sets
                .put(FOURS + s, i, empty && c.threat[s] >= Threat::Four);
            self.sets
                .put(THREES + s, i, empty && c.threat[s] >= Threat::Three);
        }
        self.sets.put(ZONE, i, empty && c.near > 0);
    }

    /// Empty points where `s` has at least a four, in point order.
    pub fn fours(&self, s: Side) -> impl Iterator<Item = usize> + '_ {
        self.sets.iter(FOURS + s.index())
    }

    /// Empty points where `s` has at least a three, in point order.
    pub fn threes(&self, s: Side) -> impl Iterator<Item = usize> + '_ {
        self.sets.iter(THREES + s.index())
    }

    /// The offsets from a point of the points within the 5×5 square around it or on its
    /// lines three or four away (off-board points among them are walls, never empty).
    pub fn around(&self) -> &[isize] {
        &self.around
    }

    /// Empty points with a stone within two points, in point order.
    pub fn zone(&self) -> impl Iterator<Item = usize> + '_ {
        self.sets.iter(ZONE)
    }

    /// Reads the patterns of point `i` from its keys, with their threat codes.
    fn read_patterns(&mut self, i: usize) {
        let c = &mut self.cells[i];
        for d in 0..4 {
            let pair = self.pairs[c.keys[d] as usize];
            c.pats[0][d] = unpack(pair, 0);
            c.pats[1][d] = unpack(pair, 1);
        }
        for s in 0..2 {
            c.code[s] = threat_code(c.pats[s]);
        }
    }

    /// Sets the threat and value of point `i` from its patterns and threat codes.
    fn compute(&mut self, i: usize) {
        let c = &mut self.cells[i];
        for s in 0..2 {
            let t = threat_of_code(c.code[s]);
            let lines: i32 = c.pats[s].iter().map(|&p| PATTERN_VALUE[p as usize]).sum();
            c.threat[s] = t;
            c.value[s] = (lines + THREAT_VALUE[t as usize]) as i16;
            c.fit_key[s] = fit_key(c.pats[s]);
        }
    }

    pub fn index(&self, p: Point) -> usize {
        (p.row as usize + PAD) * self.width + p.col as usize + PAD
    }

    #[inline]
    pub fn point(&self, i: usize) -> Point {
        self.coords[i]
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn rule(&self) -> Variant {
        self.rule
    }

    pub fn side(&self) -> Side {
        self.side
    }

    pub fn hash(&self) -> u64 {
        self.hash ^ grid::side_key(self.side)
    }

    /// The hash after the side to move plays on `i` (`hash` once `play(i)` is done).
    pub fn hash_after(&self, i: usize) -> u64 {
        self.hash ^ grid::stone_key(self.point(i), self.side) ^ grid::side_key(!self.side)
    }

    pub fn winner(&self) -> Option<Side> {
        self.winner
    }

    pub fn ply(&self) -> usize {
        self.history.len()
    }

    pub fn stones(&self) -> usize {
        self.grid.stones()
    }

    pub fn is_full(&self) -> bool {
        self.grid.is_full()
    }

    pub fn is_empty(&self, i: usize) -> bool {
        self.cells[i].stone == grid::EMPTY
    }

    /// Whether an empty point has a stone within two points (the candidate zone).
    pub fn is_near(&self, i: usize) -> bool {
        self.cells[i].near > 0
    }

    pub fn near(&self, i: usize) -> u8 {
        self.cells[i].near
    }

    pub fn threat(&self, i: usize, s: Side) -> Threat {
        self.cells[i].threat[s.index()]
    }

    pub fn patterns(&self, i: usize, s: Side) -> [Pattern; 4] {
        self.cells[i].pats[s.index()]
    }

    pub fn value(&self, i: usize, s: Side) -> i32 {
        i32::from(self.cells[i].value[s.index()])
    }

    /// The key of point `i`'s four patterns for `s` (`learned::fit_key`).
    pub fn fit_key(&self, i: usize, s: Side) -> u16 {
        self.cells[i].fit_key[s.index()]
    }

    /// Empty points where `s` has a threat of class `t`.
    pub fn count(&self, s: Side, t: Threat) -> u16 {
        self.threat_counts[s.index()][t as usize]
    }

    /// Empty points where `s` has a threat of the class numbered `t`.
    pub fn count_class(&self, s: Side, t: usize) -> u16 {
        self.threat_counts[s.index()][t]
    }

    /// Empty points where `s` has a threat of class at least `t`.
    pub fn count_at_least(&self, s: Side, t: Threat) -> u16 {
        self.threat_counts[s.index()][t as usize..].iter().sum()
    }

    /// The static value for the side to move.
    pub fn evaluate(&self) -> i32 {
        let me = self.side.index();
        self.sums[me] - self.sums[1 - me]
    }

    pub fn sums(&self) -> [i32; 2] {
        self.sums
    }

    /// Σ of the fitted values over the empty points of `s`: `[as the side to move's, as the
    /// opponent's]` (`learned`).
    pub fn fit_sums(&self, s: Side) -> [i32; 2] {
        self.fit_sums[s.index()]
    }

    pub fn last(&self) -> Option<usize> {
        self.recent(0)
    }

    /// The stone played `back` moves before the last (0: the last), if that move was a stone;
    /// the moves before the board was built count too, as far as `root_recent` holds them.
    pub fn recent(&self, back: usize) -> Option<usize> {
        let n = self.history.len();
        let i = if back < n {
            self.history[n - 1 - back]
        } else {
            *self.root_recent.get(back - n)?
        };
        (i != PASS).then_some(i)
    }

    /// Whether the last turn was a pass.
    pub fn passed(&self) -> bool {
        self.history.last() == Some(&PASS)
    }

    /// Gives the turn to the other side without a stone, to ask what the opponent could do
    /// if it moved now; `undo` takes it back.
    pub fn pass(&mut self) {
        self.history.push(PASS);
        self.side = !self.side;
    }

    /// Places a stone of the side to move on the empty point `i`.
    pub fn play(&mut self, i: usize) {
        debug_assert!(self.is_empty(i));
        self.save(i);
        let s = self.side;
        let wins = self.cells[i].threat[s.index()] == Threat::Five && self.is_real_five(i, s);
        for t in 0..2 {
            self.sums[t] -= i32::from(self.cells[i].value[t]);
            let fit = self.fit.at(self.cells[i].fit_key[t]);
            self.fit_sums[t][0] -= i32::from(fit[0]);
            self.fit_sums[t][1] -= i32::from(fit[1]);
            self.threat_counts[t][self.cells[i].threat[t] as usize] -= 1;
        }
        let stone = grid::stone(s);
        self.cells[i].stone = stone;
        let p = self.point(i);
        self.grid.set(p, stone);
        self.hash ^= grid::stone_key(p, s);
        self.update_around(i, stone as u32);
        self.mark(i);
        self.history.push(i);
        if wins {
            self.winner = Some(s);
        }
        self.side = !s;
    }

    /// Takes back the last stone.
    pub fn undo(&mut self) {
        let Some(i) = self.history.pop() else {
            return;
        };
        self.side = !self.side;
        if i == PASS {
            return;
        }
        self.winner = None;
        let p = self.point(i);
        self.grid.set(p, grid::EMPTY);
        self.hash ^= grid::stone_key(p, self.side);
        self.restore(i);
    }

    /// Saves what a stone on `i` will change (see `saved_cells`).
    fn save(&mut self, i: usize) {
        let cells = &self.cells;
        self.saved_cells
            .extend_from_slice(&cells[i - ROW / 2..=i + ROW / 2]);
        let at = |o: &isize| cells[(i as isize + o) as usize];
        // Gathered into an array first: one copy of known length, not a push per cell.
        let lines: [Cell; LINES] = std::array::from_fn(|n| at(&self.lines[n]));
        self.saved_cells.extend_from_slice(&lines);
        self.saved_bits.extend_from_slice(&self.sets.bits);
        self.saved_sums
            .push((self.sums, self.fit_sums, self.threat_counts));
    }

    /// Puts back what the stone on `i` changed, in the reverse order of `save`.
    fn restore(&mut self, i: usize) {
        let bits = self.saved_bits.len() - self.sets.bits.len();
        self.sets.bits.copy_from_slice(&self.saved_bits[bits..]);
        self.saved_bits.truncate(bits);
        let cells = self.saved_cells.len() - ROW - LINES;
        let (row, rest) = self.saved_cells[cells..].split_at(ROW);
        self.cells[i - ROW / 2..=i + ROW / 2].copy_from_slice(row);
        for (&o, &c) in self.lines.iter().zip(rest) {
            self.cells[(i as isize + o) as usize] = c;
        }
        self.saved_cells.truncate(cells);
        for &o in &self.knights {
            self.cells[(i as isize + o) as usize].near -= 1;
        }
        (self.sums, self.fit_sums, self.threat_counts) =
            self.saved_sums.pop().expect("a saved stone");
    }

    /// Writes the stone `code` into the windows of the 32 points around `i`.
    fn update_around(&mut self, i: usize, code: u32) {
        let w = self.width;
        // A point enters the zone when its count goes from zero to one (the point `i` itself
        // is marked by the caller).
        for row in [i - 2 * w - 2, i - w - 2, i - 2, i + w - 2, i + 2 * w - 2] {
            for j in row..row + 5 {
                let c = &mut self.cells[j];
                c.near += 1;
                if c.near == 1 && c.stone == grid::EMPTY {
                    self.sets.put(ZONE, j, true);
                }
            }
        }
        for d in 0..4 {
            let step = self.steps[d];
            for k in [-4isize, -3, -2, -1, 1, 2, 3, 4] {
                let j = (i as isize - k * step) as usize;
                // In j's window, i sits at offset k.
                self.update_key(j, d, shift(k as i32), code);
            }
        }
    }

    /// On an empty point `j`, sets the 2-bit field at `sh` of its key in direction `d` to
    /// `code`, and the patterns, threats and values that follow from it.
    #[inline]
    fn update_key(&mut self, j: usize, d: usize, sh: u32, code: u32) {
        let c = &mut self.cells[j];
        // Walls never change. An occupied point's keys are read again only once the stone
        // on it is taken back, and that puts back its cell as it was when the stone was
        // played, before every later stone.
        if c.stone != grid::EMPTY {
            return;
        }
        // In 16 bits, so the pair table's index needs no bounds check.
        let key = (c.keys[d] & !(3 << sh)) | ((code as u16) << sh);
        c.keys[d] = key;
        let pair = self.pairs[usize::from(key)];
        for s in 0..2 {
            let (old, pat) = (c.pats[s][d], unpack(pair, s));
            if old == pat {
                continue;
            }
            c.pats[s][d] = pat;
            c.code[s] = c.code[s] + CODE_OF[pat as usize] - CODE_OF[old as usize];
            let (was, now) = (c.threat[s], threat_of_code(c.code[s]));
            let dv = PATTERN_VALUE[pat as usize] - PATTERN_VALUE[old as usize]
                + THREAT_VALUE[now as usize]
                - THREAT_VALUE[was as usize];
            c.value[s] += dv as i16;
            self.sums[s] += dv;
            let key = c.fit_key[s] + KEY_STEP[d] * pat as u16 - KEY_STEP[d] * old as u16;
            let (was_fit, now_fit) = (self.fit.at(c.fit_key[s]), self.fit.at(key));
            c.fit_key[s] = key;
            for r in 0..2 {
                self.fit_sums[s][r] += i32::from(now_fit[r]) - i32::from(was_fit[r]);
            }
            if now != was {
                c.threat[s] = now;
                self.threat_counts[s][was as usize] -= 1;
                self.threat_counts[s][now as usize] += 1;
                self.sets.put(FOURS + s, j, now >= Threat::Four);
                self.sets.put(THREES + s, j, now >= Threat::Three);
            }
        }
    }

    /// Whether a stone of `s` on `i` makes a winning line under the rule (the pattern
    /// windows see four points each way, so exact fives are confirmed on the board).
    pub fn is_real_five(&self, i: usize, s: Side) -> bool {
        let pats = self.cells[i].pats[s.index()];
        if self.rule.wins(s, 6) {
            return pats.contains(&Pattern::Five);
        }
        let p = self.point(i);
        let cell = grid::stone(s);
        grid::DIRECTIONS.iter().enumerate().any(|(d, &(dc, dr))| {
            pats[d] == Pattern::Five && {
                let mut n = 1;
                for sign in [1i8, -1] {
                    let mut k = 1;
                    while self.grid.at(p, dc * sign, dr * sign, k) == Some(cell) {
                        n += 1;
                        k += 1;
                    }
                }
                self.rule.wins(s, n)
            }
        })
    }

    /// Whether `s` may play on the empty point `i` (renju forbids black some points).
    pub fn is_legal_for(&mut self, i: usize, s: Side) -> bool {
        !(s == Side::Black && self.rule == Variant::Renju && self.forbidden(i))
    }

    /// Whether the empty point `i` is forbidden for black (renju). Only points whose
    /// patterns could form a forbidden shape are given to the exact rules test.
    pub fn forbidden(&mut self, i: usize) -> bool {
        if self.rule != Variant::Renju {
            return false;
        }
        let pats = self.cells[i].pats[0];
        if pats.contains(&Pattern::Five) && self.is_real_five(i, Side::Black) {
            return false;
        }
        let strong = pats
            .iter()
            .filter(|&&p| matches!(p, Pattern::F3 | Pattern::B4 | Pattern::F4))
            .count();
        let suspect = strong >= 2
            || pats
                .iter()
                .any(|&p| matches!(p, Pattern::F4 | Pattern::Overline | Pattern::Five));
        let p = self.point(i);
        suspect && renju::is_forbidden(&mut self.grid, p)
    }

    /// Checks the incremental state against a rebuild from the stones (tests).
    pub fn consistent(&self) -> bool {
        let mut fresh = self.clone();
        fresh.rebuild();
        fresh.sums == self.sums
            && fresh.fit_sums == self.fit_sums
            && fresh.threat_counts == self.threat_counts
            && fresh.sets == self.sets
            && self.points.iter().all(|&i| {
                let (a, b) = (&fresh.cells[i], &self.cells[i]);
                a.near == b.near
                    && (b.stone != grid::EMPTY
                        || (a.keys == b.keys
                            && a.pats == b.pats
                            && a.code == b.code
                            && a.value == b.value
                            && a.fit_key == b.fit_key
                            && a.threat == b.threat))
            })
    }
}

fn side_of(stone: u8) -> Side {
    if stone == grid::BLACK {
        Side::Black
    } else {
        Side::White
    }
}
