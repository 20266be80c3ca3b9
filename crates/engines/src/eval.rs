//! Simple evaluations for the first built-in players: material for Xiangqi and Jiu, a
//! line-pattern score for Gomoku and Connect6. They read the canonical position text and
//! move text only, so they work for any rules implementation and depend on no game's
//! internals; the strong engines replace them with incremental, game-specific code.

use boyi_core::{Game, Point, Side};

/// A static evaluation plugged into the generic search.
pub trait Evaluator<G: Game>: Send + 'static {
    /// The position's value for the side to move, in the game's units.
    fn evaluate(&mut self, pos: &G) -> i32;

    /// Orders the moves of a node best first. The search may then keep only the first few.
    fn order(&mut self, _pos: &G, _moves: &mut Vec<G::Move>) {}

    /// How many ordered moves a node searches by default (`None`: all of them).
    fn default_width(&self) -> Option<usize> {
        None
    }
}

/// No knowledge: every unfinished position is worth 0 (the search still finds forced wins).
#[derive(Debug, Default, Clone)]
pub struct NoEval;

impl<G: Game> Evaluator<G> for NoEval {
    fn evaluate(&mut self, _: &G) -> i32 {
        0
    }
}

/// The board part of a grid or FEN position text: rows from the top, letters for pieces,
/// decimal numbers (possibly of several digits) for runs of empty points.
#[derive(Debug, Clone)]
pub struct TextBoard {
    pub width: usize,
    pub height: usize,
    /// Row-major from the bottom row, as [`Point::index`] counts.
    pub cells: Vec<Option<u8>>,
}

impl TextBoard {
    /// Reads the first field of a position text; `None` if it is not a board.
    pub fn parse(text: &str) -> Option<TextBoard> {
        let rows: Vec<&str> = text.split_whitespace().next()?.split('/').collect();
        let mut grid: Vec<Vec<Option<u8>>> = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut cells = Vec::new();
            let mut run = 0usize;
            for b in row.bytes() {
                if b.is_ascii_digit() {
                    run = run * 10 + (b - b'0') as usize;
                } else {
                    cells.extend(std::iter::repeat_n(None, run));
                    run = 0;
                    cells.push(Some(b));
                }
            }
            cells.extend(std::iter::repeat_n(None, run));
            grid.push(cells);
        }
        let width = grid.first()?.len();
        if grid.iter().any(|r| r.len() != width) {
            return None;
        }
        let height = grid.len();
        let cells = grid.into_iter().rev().flatten().collect();
        Some(TextBoard {
            width,
            height,
            cells,
        })
    }

    pub fn at(&self, col: usize, row: usize) -> Option<u8> {
        self.cells[row * self.width + col]
    }
}

/// The board size of a grid game's position (its number of rows).
pub fn grid_size<G: Game>(pos: &G) -> usize {
    TextBoard::parse(&pos.to_text()).map_or(0, |b| b.height)
}

/// The points of a grid-game move text (`h8`, `j10 k11`, `g6-g8 x e6` gives g6, g8, e6).
pub fn move_points(text: &str, size: usize) -> Vec<Point> {
    text.split([' ', '-', '*'])
        .filter_map(|t| Point::parse(t, size).ok())
        .collect()
}

/// Material: the sum of piece values, own minus opponent's. Pieces are the letters of the
/// position text; `side_of` says whose a letter is and `value` what it is worth.
#[derive(Debug, Clone)]
pub struct Material {
    pub side_of: fn(u8) -> Option<Side>,
    pub value: fn(u8) -> i32,
}

impl Material {
    /// Xiangqi FEN: upper case is red ([`Side::White`]); chariot 900, cannon 450, horse 400,
    /// advisor and elephant 200, pawn 100, king 0 (it is never captured).
    pub fn xiangqi() -> Material {
        Material {
            side_of: |c| match c {
                b'A'..=b'Z' => Some(Side::White),
                b'a'..=b'z' => Some(Side::Black),
                _ => None,
            },
            value: |c| match c.to_ascii_lowercase() {
                b'r' => 900,
                b'c' => 450,
                b'n' => 400,
                b'a' | b'b' => 200,
                b'p' => 100,
                _ => 0,
            },
        }
    }

    /// Stones of a grid game: `x` black, `o` white, 100 each.
    pub fn stones() -> Material {
        Material {
            side_of: |c| match c {
                b'x' => Some(Side::Black),
                b'o' => Some(Side::White),
                _ => None,
            },
            value: |_| 100,
        }
    }
}

impl<G: Game> Evaluator<G> for Material {
    fn evaluate(&mut self, pos: &G) -> i32 {
        let me = pos.side_to_move();
        let text = pos.to_text();
        let board = text.split_whitespace().next().unwrap_or("");
        board
            .bytes()
            .filter_map(|c| {
                let side = (self.side_of)(c)?;
                let v = (self.value)(c);
                Some(if side == me { v } else { -v })
            })
            .sum()
    }
}

/// Line patterns of a connection game: every window of `k` consecutive points (in the four
/// directions) holding stones of one colour only scores `weights[n]` for that colour, where
/// `n` is its number of stones. Moves are ordered by how much their points gain for either
/// side in the windows through them (attack and defence alike).
#[derive(Debug, Clone)]
pub struct LinePatterns {
    pub k: usize,
    pub weights: Vec<i32>,
    pub width: usize,
}

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl LinePatterns {
    /// Five in a row.
    pub fn gomoku() -> LinePatterns {
        LinePatterns {
            k: 5,
            weights: vec![0, 1, 12, 120, 1_500, 100_000],
            width: 12,
        }
    }

    /// Six in a row, two stones a turn (a window with four stones is one turn from six).
    pub fn connect6() -> LinePatterns {
        LinePatterns {
            k: 6,
            weights: vec![0, 1, 10, 80, 2_000, 5_000, 100_000],
            width: 12,
        }
    }

    /// Calls `f(stones, colour, points)` for every window holding stones of one colour only
    /// (`colour` is `None` for an empty window).
    fn windows(&self, b: &TextBoard, mut f: impl FnMut(usize, Option<u8>, &[(usize, usize)])) {
        let mut pts = Vec::with_capacity(self.k);
        for row in 0..b.height as i32 {
            for col in 0..b.width as i32 {
                'dir: for (dc, dr) in DIRS {
                    let (ec, er) = (
                        col + dc * (self.k as i32 - 1),
                        row + dr * (self.k as i32 - 1),
                    );
                    if ec < 0 || er < 0 || ec >= b.width as i32 || er >= b.height as i32 {
                        continue;
                    }
                    pts.clear();
                    let (mut n, mut colour) = (0, None);
                    for i in 0..self.k as i32 {
                        let (c, r) = ((col + dc * i) as usize, (row + dr * i) as usize);
                        if let Some(s) = b.at(c, r) {
                            if colour.is_some_and(|x| x != s) {
                                continue 'dir;
                            }
                            colour = Some(s);
                            n += 1;
                        }
                        pts.push((c, r));
                    }
                    f(n, colour, &pts);
                }
            }
        }
    }
}

fn stone_side(c: u8) -> Side {
    if c == b'x' { Side::Black } else { Side::White }
}

impl<G: Game> Evaluator<G> for LinePatterns {
    fn evaluate(&mut self, pos: &G) -> i32 {
        let Some(b) = TextBoard::parse(&pos.to_text()) else {
            return 0;
        };
        let me = pos.side_to_move();
        let mut score = [0i32; 2];
        self.windows(&b, |n, colour, _| {
            if let Some(c) = colour {
                score[stone_side(c).index()] += self.weights[n.min(self.k)];
            }
        });
        score[me.index()] - score[me.opponent().index()]
    }

    fn order(&mut self, pos: &G, moves: &mut Vec<G::Move>) {
        let Some(b) = TextBoard::parse(&pos.to_text()) else {
            return;
        };
        let mut gain = vec![0i32; b.width * b.height];
        self.windows(&b, |n, _, pts| {
            if n < self.k {
                let g = self.weights[n + 1] - self.weights[n];
                for &(c, r) in pts {
                    gain[r * b.width + c] += g;
                }
            }
        });
        let mut scored: Vec<(i32, usize)> = moves
            .iter()
            .enumerate()
            .map(|(i, mv)| {
                let pts = move_points(&pos.format_move(mv), b.width);
                let s = pts.iter().map(|p| gain[p.index(b.width)]).sum::<i32>();
                (-s, i)
            })
            .collect();
        scored.sort_unstable();
        let mut old: Vec<Option<G::Move>> = moves.drain(..).map(Some).collect();
        moves.extend(scored.into_iter().filter_map(|(_, i)| old[i].take()));
    }

    fn default_width(&self) -> Option<usize> {
        Some(self.width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_board_reads_multi_digit_runs() {
        let b = TextBoard::parse("15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w").unwrap();
        assert_eq!((b.width, b.height), (15, 15));
        assert_eq!(b.at(7, 7), Some(b'x'));
        assert_eq!(b.cells.iter().flatten().count(), 1);
        let fen = TextBoard::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
            .unwrap();
        assert_eq!((b.width, fen.width, fen.height), (15, 9, 10));
        assert_eq!(fen.at(0, 0), Some(b'R'));
        assert!(TextBoard::parse("3/2/3 b").is_none());
    }

    #[test]
    fn move_points_of_every_grid_notation() {
        let p = |s| Point::parse(s, 19).unwrap();
        assert_eq!(move_points("j10 k11", 19), vec![p("j10"), p("k11")]);
        assert_eq!(
            move_points("g6-g8 x e6", 19),
            vec![p("g6"), p("g8"), p("e6")]
        );
        assert_eq!(move_points("c3*k9", 19), vec![p("c3"), p("k9")]);
        assert!(move_points("pass", 19).is_empty());
    }
}
