//! Seed 000 (LabVIEW gobang robot): every empty point is scanned in 8 directions; each scan
//! yields a model (空, 边界冲, 边界空冲, 活, 冲, 空活, 空冲 with 1–4 stones of one side); the two
//! scans of a line are combined into one model when both meet the same side's stones directly;
//! the point's score is Σ attack weight × own-model value + defence weight × opponent-model
//! value from the paper's Table 2. The player takes the best point; its first stone goes to the
//! centre (天元).

use crate::options::PlayerDef;
use crate::player::{GameHistory, InfoSink, Player};
use crate::registry::BuiltinSpec;
use crate::search::{Engine, Search, TimeManager};
use boyi_core::{Game, Point, TextError};
use boyi_games::gomoku::{Gomoku, Move};
use boyi_games::grid::{self, Board, EMPTY};

/// Table 2, rows 己活, 己冲, 己空活, 己空冲, 对活, 对冲, 对空活, 对空冲; columns 1–4 stones.
pub const TABLE2: [[i32; 4]; 8] = [
    [40, 400, 300, 10000],
    [6, 10, 600, 10000],
    [20, 120, 200, 0],
    [6, 10, 500, 0],
    [30, 300, 2500, 5000],
    [2, 8, 300, 8000],
    [26, 160, 0, 0],
    [4, 20, 300, 0],
];

/// The model one directional scan finds (Table 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// Two empty points first.
    Empty,
    /// The board edge at once.
    Edge,
    /// One empty point, then the edge.
    EdgeAfterEmpty,
    /// A run of `n` stones of `own` side: `gap` when one empty point comes first, `open` when
    /// the run ends on an empty point (else on an opponent stone or the edge).
    Run {
        own: bool,
        n: usize,
        gap: bool,
        open: bool,
    },
}

impl Model {
    /// The Table 2 value of the model (0 for the empty and edge models).
    pub fn value(self) -> i32 {
        match self {
            Model::Run { own, n, gap, open } => {
                let kind = match (gap, open) {
                    (false, true) => 0,
                    (false, false) => 1,
                    (true, true) => 2,
                    (true, false) => 3,
                };
                TABLE2[kind + if own { 0 } else { 4 }][n.clamp(1, 4) - 1]
            }
            _ => 0,
        }
    }
}

/// Scans from the empty point `p` along `(dc, dr)`; `me` is the cell of the side to move.
pub fn scan(board: &Board, p: Point, (dc, dr): (i8, i8), me: u8) -> Model {
    let mut k = 1;
    let mut gap = false;
    let first = loop {
        match board.at(p, dc, dr, k) {
            None => {
                return if gap {
                    Model::EdgeAfterEmpty
                } else {
                    Model::Edge
                };
            }
            Some(EMPTY) if gap => return Model::Empty,
            Some(EMPTY) => {
                gap = true;
                k += 1;
            }
            Some(c) => break c,
        }
    };
    let mut n = 0;
    while board.at(p, dc, dr, k) == Some(first) {
        n += 1;
        k += 1;
    }
    Model::Run {
        own: first == me,
        n,
        gap,
        open: board.at(p, dc, dr, k) == Some(EMPTY),
    }
}

/// The models of the line through `p` along `d`: one merged model when both scans meet the
/// same side's stones directly, else the two scans.
pub fn line_models(board: &Board, p: Point, d: (i8, i8), me: u8) -> [Option<Model>; 2] {
    let a = scan(board, p, d, me);
    let b = scan(board, p, (-d.0, -d.1), me);
    match (a, b) {
        (
            Model::Run {
                own,
                n,
                gap: false,
                open,
            },
            Model::Run {
                own: own2,
                n: n2,
                gap: false,
                open: open2,
            },
        ) if own == own2 => [
            Some(Model::Run {
                own,
                n: (n + n2).min(4),
                gap: false,
                open: open && open2,
            }),
            None,
        ],
        _ => [Some(a), Some(b)],
    }
}

/// Formula (2): Σ over the point's models of attack × own value + defence × opponent value
/// (weights in percent).
pub fn score(board: &Board, p: Point, me: u8, attack: i32, defence: i32) -> i32 {
    let mut total = 0;
    for d in grid::DIRECTIONS {
        for m in line_models(board, p, d, me).into_iter().flatten() {
            let w = match m {
                Model::Run { own: true, .. } => attack,
                _ => defence,
            };
            total += w * m.value();
        }
    }
    total / 100
}

pub struct Seed000 {
    pub attack: i32,
    pub defence: i32,
}

impl Default for Seed000 {
    fn default() -> Self {
        Seed000 {
            attack: 100,
            defence: 100,
        }
    }
}

pub fn build(def: &PlayerDef, spec: &BuiltinSpec) -> Result<Box<dyn Player<Gomoku>>, TextError> {
    let o = def.parse(spec)?;
    Ok(Box::new(Engine(Seed000 {
        attack: o.get("attack"),
        defence: o.get("defence"),
    })))
}

impl Seed000 {
    /// The highest-scoring legal point (the first in point order among equals).
    pub fn best(&self, pos: &Gomoku) -> Option<Point> {
        let board = pos.board();
        if board.is_empty_board() {
            let c = (board.size() / 2) as u8;
            return Some(Point::new(c, c));
        }
        let me = grid::stone(pos.side_to_move());
        let mut best: Option<(i32, Point)> = None;
        for p in board.empty_points() {
            let s = score(board, p, me, self.attack, self.defence);
            if best.is_none_or(|(b, _)| s > b) && pos.is_legal(&Move::Stone(p)) {
                best = Some((s, p));
            }
        }
        best.map(|(_, p)| p)
    }
}

impl Search<Gomoku> for Seed000 {
    fn name(&self) -> String {
        "boyi:seed000".to_string()
    }

    /// The paper's table looks at the board as it is: no depth.
    fn default_depth(&self) -> u32 {
        1
    }

    fn search(
        &mut self,
        game: &GameHistory<Gomoku>,
        _root: &[Move],
        _time: &TimeManager,
        _info: InfoSink<'_>,
    ) -> Option<Move> {
        self.best(game.current()).map(Move::Stone)
    }
}
