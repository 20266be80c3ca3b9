//! `boyi:seed002`: the pattern-based Jiu player of seed 002.
//!
//! Placement follows the seed's prioritised strategies. Each pattern is a small matrix of
//! cell codes matched in all eight orientations over the board; a match scores its response
//! points, and the best-scored point of the first strategy that has any is played:
//! - defence (patterns of the opponent): trinity (三子, three in a line) 5, triangle (三角,
//!   a square with one hole) 4, contrast (对角, two pieces at right angles around one of ours)
//!   3;
//! - attack (own patterns): twain (二子, two isolated pieces side by side) 5;
//! - chain: a random empty point next to the latest own piece (any empty point if none).
//!
//! Battle: every move base is scored by Eva = move + kill + triple + square (a move, the
//! pieces it jumps, the enemy triangles whose hole it fills, the squares it completes), ties
//! broken at random; square captures take pieces of enemy triangles first.
//!
//! Opening book: the seed plays its first ~40 placements from about 300 recorded games,
//! matching the current placement sequence against each of them with Boyer–Moore
//! ([`SequenceBook`]); the most frequent continuation that is legal is played, and the
//! strategies take over once the sequence is found nowhere. The seed's records are not
//! public, so the default book ([`DEFAULT_BOOK`], embedded) holds the first 40 placements of
//! games Boyi's strong engine played against itself; docs/jiu-engine.md says how it was
//! built. Option `book=PATH` reads another book file, `book=none` plays without one.

use super::board::{self, Board, EMPTY, colour, other};
use crate::options::PlayerDef;
use crate::player::{GameHistory, InfoSink, Player};
use crate::registry::{BuildContext, BuiltinSpec};
use crate::search::{Engine, Search, TimeManager};
use boyi_core::{Game, TextError};
use boyi_games::jiu::board::{BLOCKS, NONE, POINTS, SIZE, index_of};
use boyi_games::jiu::{Jiu, JiuMove, Phase};
use boyi_records::seqbook::{SEED_DEPTH, SequenceBook};
use std::sync::{Arc, OnceLock};

/// The embedded default book, in the text of [`SequenceBook::from_text`].
pub const DEFAULT_BOOK: &str = include_str!("../../data/jiu_seed002.book");

/// Matrix codes: a piece of the pattern's colour, of the other colour, an empty point, an
/// empty point that is a response, anything, anything but the pattern's colour.
const P: u8 = 1;
const O: u8 = 2;
const E: u8 = 0;
const R: u8 = 3;
const ANY: u8 = 9;
const NOT_P: u8 = 8;

/// A pattern matrix with the score of its responses.
pub struct Pattern {
    pub name: &'static str,
    pub rows: &'static [&'static [u8]],
    pub score: i32,
}

/// Defence patterns, matched with the opponent as pattern colour.
pub const DEFENCE: [Pattern; 3] = [
    Pattern {
        name: "trinity",
        rows: &[&[ANY, R, ANY], &[P, P, P]],
        score: 5,
    },
    Pattern {
        name: "triangle",
        rows: &[&[R, P], &[P, P]],
        score: 4,
    },
    Pattern {
        name: "contrast",
        rows: &[&[O, P], &[P, R]],
        score: 3,
    },
];

/// Attack patterns, matched with the own colour as pattern colour.
pub const ATTACK: [Pattern; 1] = [Pattern {
    name: "twain",
    rows: &[&[ANY, R, R, ANY], &[NOT_P, P, P, NOT_P], &[ANY, R, R, ANY]],
    score: 5,
}];

/// The pattern's matrix in one of eight orientations: `(row, col)` offsets with codes.
fn oriented(p: &Pattern, o: u8) -> Vec<(i32, i32, u8)> {
    let mut out = Vec::new();
    for (r, row) in p.rows.iter().enumerate() {
        for (c, &code) in row.iter().enumerate() {
            let (mut x, mut y) = (c as i32, r as i32);
            if o & 1 != 0 {
                x = -x;
            }
            if o & 2 != 0 {
                y = -y;
            }
            if o & 4 != 0 {
                std::mem::swap(&mut x, &mut y);
            }
            out.push((x, y, code));
        }
    }
    out
}

/// Adds `pattern.score` to `scores` at every response point of every match of `pattern`
/// (pattern colour `pc`) on `cells`. The matrix is slid over every origin and orientation.
pub fn score_pattern(cells: &[u8; POINTS], pc: u8, pattern: &Pattern, scores: &mut [i32; POINTS]) {
    let mut seen = std::collections::HashSet::new();
    for o in 0..8 {
        let m = oriented(pattern, o);
        for col in 0..SIZE as i32 {
            for row in 0..SIZE as i32 {
                let at = |dx: i32, dy: i32| -> Option<usize> {
                    let (c, r) = (col + dx, row + dy);
                    (0..SIZE as i32)
                        .contains(&c)
                        .then_some(())
                        .filter(|_| (0..SIZE as i32).contains(&r))
                        .map(|_| (c * SIZE as i32 + r) as usize)
                };
                let fits = m.iter().all(|&(dx, dy, code)| match at(dx, dy) {
                    None => code == ANY || code == NOT_P,
                    Some(i) => match code {
                        P => cells[i] == pc,
                        O => cells[i] == other(pc),
                        E | R => cells[i] == EMPTY,
                        NOT_P => cells[i] != pc,
                        _ => true,
                    },
                });
                if !fits {
                    continue;
                }
                // One match counted once, whatever orientation finds it again.
                let mut key: Vec<usize> = m.iter().filter_map(|&(dx, dy, _)| at(dx, dy)).collect();
                key.sort_unstable();
                if !seen.insert(key) {
                    continue;
                }
                for &(dx, dy, code) in &m {
                    if let (R, Some(i)) = (code, at(dx, dy)) {
                        scores[i] += pattern.score;
                    }
                }
            }
        }
    }
}

/// Scores of a strategy's patterns over the board.
pub fn strategy_scores(cells: &[u8; POINTS], pc: u8, patterns: &[Pattern]) -> [i32; POINTS] {
    let mut scores = [0; POINTS];
    for p in patterns {
        score_pattern(cells, pc, p, &mut scores);
    }
    scores
}

pub fn build(
    def: &PlayerDef,
    spec: &BuiltinSpec,
    ctx: BuildContext,
) -> Result<Box<dyn Player<Jiu>>, TextError> {
    let o = def.parse(spec)?;
    let seed = o.seed("seed", ctx.seed);
    let book = match o.text("book") {
        "builtin" => Some(default_book()?),
        "none" => None,
        path => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| text_err!("player option book={path:?}: {e}"))?;
            let book = SequenceBook::from_text(&text)
                .map_err(|e| e.context(format!("player option book={path:?}")))?;
            Some(Arc::new(book))
        }
    };
    Ok(Box::new(Engine(Seed002::new(seed, book))))
}

/// The embedded book, read once.
pub fn default_book() -> Result<Arc<SequenceBook>, TextError> {
    static BOOK: OnceLock<Result<Arc<SequenceBook>, TextError>> = OnceLock::new();
    BOOK.get_or_init(|| SequenceBook::from_text(DEFAULT_BOOK).map(Arc::new))
        .clone()
}

pub struct Seed002 {
    rng: u64,
    book: Option<Arc<SequenceBook>>,
}

impl Seed002 {
    pub fn new(seed: u64, book: Option<Arc<SequenceBook>>) -> Seed002 {
        Seed002 {
            rng: seed | 1,
            book,
        }
    }

    /// The book's placement after the game's placement sequence, within the first
    /// [`SEED_DEPTH`] placements of a game from the empty board.
    pub fn book_move(&self, game: &GameHistory<Jiu>) -> Option<JiuMove> {
        let book = self.book.as_ref()?;
        if game.start().placements() != 0 || game.moves().len() >= SEED_DEPTH {
            return None;
        }
        let played: Vec<_> = game.moves().iter().map(|m| m.to()).collect();
        book.choose(game.current(), &played, false)
    }

    fn next(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// One of the highest-scored points, at random; `None` if every score is zero.
    fn pick_best(&mut self, scores: &[i32; POINTS]) -> Option<u8> {
        let top = *scores.iter().max()?;
        if top <= 0 {
            return None;
        }
        let best: Vec<u8> = (0..POINTS as u8)
            .filter(|&p| scores[p as usize] == top)
            .collect();
        Some(best[(self.next() % best.len() as u64) as usize])
    }

    fn place(&mut self, game: &GameHistory<Jiu>) -> Option<u8> {
        let pos = game.current();
        let b = Board::from_game(pos);
        let me = b.side;
        let defence = strategy_scores(&b.cells, other(me), &DEFENCE);
        if let Some(p) = self.pick_best(&defence) {
            return Some(p);
        }
        let attack = strategy_scores(&b.cells, me, &ATTACK);
        if let Some(p) = self.pick_best(&attack) {
            return Some(p);
        }
        self.chain(game, &b)
    }

    /// A random empty point next to the latest own placement.
    fn chain(&mut self, game: &GameHistory<Jiu>, b: &Board) -> Option<u8> {
        let me = b.side;
        let mut pos = game.start().clone();
        let mut latest = None;
        for mv in game.moves() {
            if colour(pos.side_to_move()) == me && mv.is_placement() {
                latest = Some(index_of(mv.to()));
            }
            pos.play(mv);
        }
        let mut near: Vec<u8> = Vec::new();
        if let Some(l) = latest {
            let (c, r) = ((l as usize / SIZE) as i32, (l as usize % SIZE) as i32);
            for dc in -1..=1 {
                for dr in -1..=1 {
                    let (x, y) = (c + dc, r + dr);
                    if (0..SIZE as i32).contains(&x) && (0..SIZE as i32).contains(&y) {
                        let p = (x * SIZE as i32 + y) as u8;
                        if b.cells[p as usize] == EMPTY {
                            near.push(p);
                        }
                    }
                }
            }
        }
        if near.is_empty() {
            near = (0..POINTS as u8)
                .filter(|&p| b.cells[p as usize] == EMPTY)
                .collect();
        }
        (!near.is_empty()).then(|| near[(self.next() % near.len() as u64) as usize])
    }

    fn battle(&mut self, pos: &Jiu) -> Option<JiuMove> {
        let mut b = Board::from_game(pos);
        let mut bases = Vec::new();
        b.bases(&mut bases);
        let mut order = board::CaptureOrder::default();
        order.fill(&b, triangle_member);
        let mut best: Vec<(i32, board::Move)> = Vec::new();
        for base in &bases {
            let mv = order.apply(base);
            let v = eva(&b, &mv, base.squares);
            if best.first().is_none_or(|(bv, _)| v > *bv) {
                best.clear();
            }
            if best.first().is_none_or(|(bv, _)| v == *bv) {
                best.push((v, mv));
            }
        }
        if best.is_empty() {
            return None;
        }
        let (_, mv) = best[(self.next() % best.len() as u64) as usize];
        board::to_rules_move(pos, &mv)
    }
}

/// Eva = move + kill + triple + square.
pub fn eva(b: &Board, mv: &board::Move, squares: u8) -> i32 {
    let movement = 1;
    let kill = 10 * mv.jumped.len() as i32;
    let triple = 6 * enemy_triangles_with_hole(b, mv.to) as i32;
    let square = 10 * squares as i32;
    movement + kill + triple + square
}

/// Enemy 2×2 blocks with three enemy pieces whose hole is `p`.
fn enemy_triangles_with_hole(b: &Board, p: u8) -> usize {
    let enemy = other(b.side);
    BLOCKS[p as usize]
        .iter()
        .filter(|bl| bl[0] != NONE)
        .filter(|bl| bl.iter().filter(|&&q| b.cells[q as usize] == enemy).count() == 3)
        .count()
}

/// Capture preference: enemy pieces in enemy triangles or squares.
fn triangle_member(b: &Board, p: u8) -> i32 {
    let enemy = b.cells[p as usize];
    BLOCKS[p as usize]
        .iter()
        .filter(|bl| bl[0] != NONE)
        .filter(|bl| bl.iter().filter(|&&q| b.cells[q as usize] == enemy).count() >= 3)
        .count() as i32
}

impl Search<Jiu> for Seed002 {
    fn name(&self) -> String {
        "boyi:seed002".to_string()
    }

    /// The paper's player has no depth: its strategies look one move ahead.
    fn default_depth(&self) -> u32 {
        1
    }

    fn search(
        &mut self,
        game: &GameHistory<Jiu>,
        root: &[JiuMove],
        _time: &TimeManager,
        _info: InfoSink<'_>,
    ) -> Option<JiuMove> {
        let pos = game.current();
        match pos.phase() {
            Phase::Place => self
                .book_move(game)
                .filter(|m| root.contains(m))
                .or_else(|| self.place(game).and_then(|p| board::placement(pos, p))),
            Phase::Battle => self.battle(pos),
        }
    }
}
