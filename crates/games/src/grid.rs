//! What the square-grid games share: a board of stones, the row text of positions.md, line
//! runs in the four directions, Zobrist keys per point, and the text drawing of a board.

use boyi_core::point::{MAX_SIZE, column_letter};
use boyi_core::{Point, Side, TextError, zobrist};

/// Cell contents: empty, or a stone of a side.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;

pub fn stone(side: Side) -> u8 {
    match side {
        Side::Black => BLACK,
        Side::White => WHITE,
    }
}

/// The four line directions (column step, row step): horizontal, vertical, two diagonals.
pub const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Zobrist keys for a stone of either side on any point of the largest board, indexed by
/// [`key_index`], plus one key for the side to move and spares for game-specific state.
pub static KEYS: [u64; 2 * MAX_SIZE * MAX_SIZE + 8] = zobrist::keys(0x426f_7969_4772_6964);

/// The key of a stone of `side` on `p` (independent of the board size).
pub fn stone_key(p: Point, side: Side) -> u64 {
    KEYS[(p.row as usize * MAX_SIZE + p.col as usize) * 2 + side.index()]
}

/// The key that is xored in while white is to move.
pub const SIDE_KEY_INDEX: usize = 2 * MAX_SIZE * MAX_SIZE;

pub fn side_key(side: Side) -> u64 {
    match side {
        Side::Black => 0,
        Side::White => KEYS[SIDE_KEY_INDEX],
    }
}

/// A square board of stones, row-major from row 1 (bottom).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: usize,
    cells: Vec<u8>,
    stones: usize,
}

impl Board {
    pub fn new(size: usize) -> Board {
        Board {
            size,
            cells: vec![EMPTY; size * size],
            stones: 0,
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn points(&self) -> usize {
        self.cells.len()
    }

    pub fn stones(&self) -> usize {
        self.stones
    }

    pub fn is_full(&self) -> bool {
        self.stones == self.cells.len()
    }

    pub fn is_empty_board(&self) -> bool {
        self.stones == 0
    }

    pub fn get(&self, p: Point) -> u8 {
        self.cells[p.index(self.size)]
    }

    /// The cell `k` steps from `p` along `(dc, dr)`, or `None` off the board.
    pub fn at(&self, p: Point, dc: i8, dr: i8, k: i32) -> Option<u8> {
        let c = p.col as i32 + dc as i32 * k;
        let r = p.row as i32 + dr as i32 * k;
        let n = self.size as i32;
        (c >= 0 && r >= 0 && c < n && r < n).then(|| self.cells[(r * n + c) as usize])
    }

    pub fn set(&mut self, p: Point, cell: u8) {
        let i = p.index(self.size);
        match (self.cells[i] == EMPTY, cell == EMPTY) {
            (true, false) => self.stones += 1,
            (false, true) => self.stones -= 1,
            _ => {}
        }
        self.cells[i] = cell;
    }

    /// Every point, in index order.
    pub fn all_points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.cells.len()).map(|i| Point::from_index(i, self.size))
    }

    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| **c == EMPTY)
            .map(|(i, _)| Point::from_index(i, self.size))
    }

    /// Stones of colour `cell` in the unbroken line through `p` along `(dc, dr)`, counting
    /// `p` itself (which must hold `cell`).
    pub fn run(&self, p: Point, (dc, dr): (i8, i8), cell: u8) -> usize {
        let mut n = 1;
        for sign in [1i8, -1] {
            let mut k = 1;
            while self.at(p, dc * sign, dr * sign, k) == Some(cell) {
                n += 1;
                k += 1;
            }
        }
        n
    }

    /// The longest run through `p` over the four directions.
    pub fn longest_run(&self, p: Point, cell: u8) -> usize {
        DIRECTIONS
            .iter()
            .map(|&d| self.run(p, d, cell))
            .max()
            .unwrap_or(0)
    }

    /// Lengths of every maximal run of `cell` on the board, each counted once.
    pub fn maximal_runs(&self, cell: u8) -> impl Iterator<Item = usize> + '_ {
        self.all_points()
            .filter(move |&p| self.get(p) == cell)
            .flat_map(move |p| {
                DIRECTIONS
                    .iter()
                    // Count a run only from its first stone.
                    .filter(move |&&(dc, dr)| self.at(p, -dc, -dr, 1) != Some(cell))
                    .map(move |&(dc, dr)| {
                        let mut k = 1;
                        while self.at(p, dc, dr, k) == Some(cell) {
                            k += 1;
                        }
                        k as usize
                    })
            })
    }

    /// The Zobrist hash of the stones alone.
    pub fn stones_hash(&self) -> u64 {
        self.all_points()
            .filter_map(|p| match self.get(p) {
                BLACK => Some(stone_key(p, Side::Black)),
                WHITE => Some(stone_key(p, Side::White)),
                _ => None,
            })
            .fold(0, |h, k| h ^ k)
    }

    /// Parses the `<rows>` field of positions.md: rows from the top, `/`-separated, `x`
    /// black, `o` white, decimal numbers for runs of empty points. All rows must have the
    /// same length, equal to the number of rows, within `sizes`.
    pub fn parse_rows(
        text: &str,
        sizes: std::ops::RangeInclusive<usize>,
    ) -> Result<Board, TextError> {
        let rows: Vec<&str> = text.split('/').collect();
        let size = rows.len();
        if !sizes.contains(&size) {
            return Err(text_err!(
                "board has {size} rows; sizes {}..={} are allowed",
                sizes.start(),
                sizes.end()
            ));
        }
        let mut board = Board::new(size);
        for (i, row_text) in rows.iter().enumerate() {
            let row = size - 1 - i;
            let cells = parse_row(row_text, size)
                .map_err(|e| e.context(format!("row {} ({row_text:?})", row + 1)))?;
            for (col, cell) in cells.into_iter().enumerate() {
                board.set(Point::new(col as u8, row as u8), cell);
            }
        }
        Ok(board)
    }

    /// The `<rows>` field of positions.md.
    pub fn format_rows(&self) -> String {
        let mut out = String::new();
        for row in (0..self.size).rev() {
            let mut empty = 0;
            for col in 0..self.size {
                match self.get(Point::new(col as u8, row as u8)) {
                    EMPTY => empty += 1,
                    cell => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(if cell == BLACK { 'x' } else { 'o' });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if row > 0 {
                out.push('/');
            }
        }
        out
    }

    /// A text drawing: row numbers on the left, column letters below, `x`/`o` stones, `.`
    /// empty points; stones in `marked` (the last move) drawn in capitals.
    pub fn render(&self, marked: &[Point]) -> String {
        let mut out = String::new();
        for row in (0..self.size).rev() {
            out.push_str(&format!("{:>2} ", row + 1));
            for col in 0..self.size {
                let p = Point::new(col as u8, row as u8);
                let c = match (self.get(p), marked.contains(&p)) {
                    (BLACK, false) => 'x',
                    (BLACK, true) => 'X',
                    (WHITE, false) => 'o',
                    (WHITE, true) => 'O',
                    _ => '.',
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("   ");
        for col in 0..self.size {
            out.push(' ');
            out.push(column_letter(col));
        }
        out.push('\n');
        out
    }
}

fn parse_row(text: &str, size: usize) -> Result<Vec<u8>, TextError> {
    if text.is_empty() {
        return Err(TextError::new("empty row"));
    }
    let mut cells = Vec::with_capacity(size);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let taken = match c {
            'x' | 'o' => {
                cells.push(if c == 'x' { BLACK } else { WHITE });
                1
            }
            '1'..='9' => {
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                let n: usize = rest[..digits]
                    .parse()
                    .ok()
                    .filter(|&n| n <= size)
                    .ok_or_else(|| text_err!("more than {size} points"))?;
                cells.extend(std::iter::repeat_n(EMPTY, n));
                digits
            }
            '0' => return Err(TextError::new("empty-point counts start at 1")),
            _ => return Err(text_err!("unexpected {c:?} (expected x, o or a number)")),
        };
        if cells.len() > size {
            return Err(text_err!("more than {size} points"));
        }
        rest = &rest[taken..];
    }
    if cells.len() != size {
        return Err(text_err!("{} points, expected {size}", cells.len()));
    }
    Ok(cells)
}
