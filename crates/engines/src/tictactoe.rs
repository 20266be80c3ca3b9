//! Tic-tac-toe as a [`Game`]: a tiny, complete game for fast tests of generic code (players,
//! protocols, the arena) without depending on the real games. Its position text follows the
//! grid-game form of positions.md (`3/1x1/3 w`), moves are points (`b2`), black moves first.

use boyi_core::zobrist::keys;
use boyi_core::{Game, NoVariant, Outcome, Point, Reason, RenderOptions, Side, TextError};

const N: usize = 3;
const KEYS: [u64; 2 * N * N + 1] = keys(0x7777);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicTacToe {
    cells: [Option<Side>; N * N],
    to_move: Side,
    history: Vec<Point>,
    hash: u64,
}

impl TicTacToe {
    fn empty() -> Self {
        TicTacToe {
            cells: [None; N * N],
            to_move: Side::Black,
            history: Vec::new(),
            hash: 0,
        }
    }

    pub fn at(&self, p: Point) -> Option<Side> {
        self.cells[p.index(N)]
    }

    fn key(p: Point, s: Side) -> u64 {
        KEYS[s.index() * N * N + p.index(N)]
    }

    fn line_winner(&self) -> Option<Side> {
        const LINES: [[usize; 3]; 8] = [
            [0, 1, 2],
            [3, 4, 5],
            [6, 7, 8],
            [0, 3, 6],
            [1, 4, 7],
            [2, 5, 8],
            [0, 4, 8],
            [2, 4, 6],
        ];
        LINES.iter().find_map(|l| {
            let s = self.cells[l[0]]?;
            (self.cells[l[1]] == Some(s) && self.cells[l[2]] == Some(s)).then_some(s)
        })
    }
}

impl Game for TicTacToe {
    type Move = Point;
    type Variant = NoVariant;
    const NAME: &'static str = "tictactoe";
    const VARIANTS: &'static [&'static str] = &["standard"];

    fn start(_: &NoVariant, size: Option<usize>) -> Result<Self, TextError> {
        match size {
            None | Some(N) => Ok(TicTacToe::empty()),
            Some(s) => Err(text_err!("tic-tac-toe is played on 3x3, not {s}x{s}")),
        }
    }

    fn from_text(_: &NoVariant, text: &str) -> Result<Self, TextError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [rows, side] = fields[..] else {
            return Err(text_err!("position {text:?} must be rows and side"));
        };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != N {
            return Err(text_err!("{} rows, expected 3", rows.len()));
        }
        let mut pos = TicTacToe::empty();
        for (i, row) in rows.iter().enumerate() {
            let r = N - 1 - i;
            let mut c = 0;
            for ch in row.chars() {
                let stone = match ch {
                    '1'..='3' => {
                        c += ch as usize - '0' as usize;
                        continue;
                    }
                    'x' => Side::Black,
                    'o' => Side::White,
                    _ => return Err(text_err!("row {} has a bad character {ch:?}", r + 1)),
                };
                if c >= N {
                    return Err(text_err!("row {} is too long", r + 1));
                }
                let p = Point::new(c as u8, r as u8);
                pos.cells[p.index(N)] = Some(stone);
                pos.hash ^= Self::key(p, stone);
                c += 1;
            }
            if c != N {
                return Err(text_err!("row {} has {c} points, expected 3", r + 1));
            }
        }
        pos.to_move = Side::from_letter(side).ok_or_else(|| text_err!("bad side {side:?}"))?;
        if pos.to_move == Side::White {
            pos.hash ^= KEYS[2 * N * N];
        }
        Ok(pos)
    }

    fn to_text(&self) -> String {
        let rows: Vec<String> = (0..N)
            .rev()
            .map(|r| {
                let mut s = String::new();
                let mut empty = 0;
                for c in 0..N {
                    match self.at(Point::new(c as u8, r as u8)) {
                        None => empty += 1,
                        Some(side) => {
                            if empty > 0 {
                                s.push_str(&empty.to_string());
                                empty = 0;
                            }
                            s.push(if side == Side::Black { 'x' } else { 'o' });
                        }
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                s
            })
            .collect();
        format!("{} {}", rows.join("/"), self.to_move.letter())
    }

    fn variant(&self) -> &NoVariant {
        &NoVariant
    }

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, out: &mut Vec<Point>) {
        if self.outcome().is_some() {
            return;
        }
        for c in 0..N {
            for r in 0..N {
                let p = Point::new(c as u8, r as u8);
                if self.at(p).is_none() {
                    out.push(p);
                }
            }
        }
    }

    fn play(&mut self, mv: &Point) {
        self.cells[mv.index(N)] = Some(self.to_move);
        self.hash ^= Self::key(*mv, self.to_move) ^ KEYS[2 * N * N];
        self.to_move = !self.to_move;
        self.history.push(*mv);
    }

    fn undo(&mut self) -> bool {
        let Some(mv) = self.history.pop() else {
            return false;
        };
        self.to_move = !self.to_move;
        self.cells[mv.index(N)] = None;
        self.hash ^= Self::key(mv, self.to_move) ^ KEYS[2 * N * N];
        true
    }

    fn history_len(&self) -> usize {
        self.history.len()
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(s) = self.line_winner() {
            return Some(Outcome::win(s, Reason::Three));
        }
        self.cells
            .iter()
            .all(Option::is_some)
            .then(|| Outcome::draw(Reason::FullBoard))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.to_move == Side::White {
            KEYS[2 * N * N]
        } else {
            0
        };
        for (i, c) in self.cells.iter().enumerate() {
            if let Some(s) = c {
                h ^= Self::key(Point::from_index(i, N), *s);
            }
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<Point, TextError> {
        let p = Point::parse(text, N)?;
        if self.outcome().is_some() {
            return Err(text_err!("the game is over"));
        }
        if self.at(p).is_some() {
            return Err(text_err!("{p} is occupied"));
        }
        Ok(p)
    }

    fn format_move(&self, mv: &Point) -> String {
        mv.to_string()
    }

    fn render(&self, _: &RenderOptions) -> String {
        self.to_text()
    }
}

impl crate::registry::GamePlayers for TicTacToe {}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::testing::{check_random_games, uniform};

    #[test]
    fn consistent_and_complete() {
        let start = TicTacToe::start(&NoVariant, None).unwrap();
        let stats = check_random_games(&start, 200, 20, 1, uniform);
        assert_eq!(stats.unfinished, 0);
        assert!(stats.finished_by(Reason::FullBoard) > 0);
        // Games lasting all nine plies: 81,792 won on the last move plus 46,080 draws.
        assert_eq!(start.clone().perft(9), 127_872);
    }
}
