//! Swap openings as engine decisions. Swap1: one player places three stones (black, white,
//! black), the other chooses a colour. Swap2: the first player places three stones; the
//! second takes black, takes white, or adds two stones (white, black) and leaves the choice
//! of colour to the first player. Each decision is a short search of the strong engine.

use super::Strong;
use super::search::Config;
use crate::player::{Limits, StopFlag, Swap2Reply};
use boyi_core::{Game, Point, Side, TextError};
use boyi_games::gomoku::{Gomoku, Move, Variant};
use std::time::Duration;

/// What the second player of a swap2 opening does with the three stones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Swap2Answer {
    TakeBlack,
    TakeWhite,
    /// Place these two stones (white, then black); the opponent chooses the colour.
    AddTwo(Point, Point),
}

/// Balanced three-stone openings (black, white, black) as offsets from the centre: shapes
/// near even for both sides at engine level (indirect and direct openings).
const OPENINGS: [[(i8, i8); 3]; 4] = [
    [(0, 0), (1, 1), (3, 0)],
    [(0, 0), (1, 0), (-2, 2)],
    [(0, 0), (1, 1), (-2, -1)],
    [(0, 0), (0, 1), (3, 2)],
];

/// The value of `pos` for the side to move, by two short fixed-depth searches (so the
/// decision does not depend on the machine's load): the mean of depths 3 and 4, since an odd
/// depth flatters the side to move and an even one the other side. `millis` bounds each.
fn value(pos: &Gomoku, millis: u64) -> i32 {
    let mut s = Strong::new(Config {
        hash: 1,
        vct: false,
        ..Config::default()
    });
    let mut total = 0;
    for depth in [3, 4] {
        let limits = Limits {
            depth: Some(depth),
            movetime: Some(Duration::from_millis(millis.max(1000))),
            ..Limits::default()
        };
        total += s
            .think(pos, &limits, &StopFlag::new(), &mut |_| {})
            .map(|(_, v)| v.clamp(-5000, 5000))
            .unwrap_or(0);
    }
    total / 2
}

/// Three opening stones (black, white, black) for swap1 or swap2 on a board of `size` lines;
/// `seed` picks among the balanced shapes.
pub fn propose(size: usize, seed: u64) -> Result<[Point; 3], TextError> {
    if size < 7 {
        return Err(text_err!("swap openings need a board of at least 7 lines"));
    }
    let c = (size / 2) as u8;
    let centre = Point::new(c, c);
    let shape = OPENINGS[(seed % OPENINGS.len() as u64) as usize];
    let mut out = [centre; 3];
    for (o, &(dc, dr)) in out.iter_mut().zip(&shape) {
        *o = centre
            .offset(dc, dr, size)
            .ok_or_else(|| text_err!("opening stone off the {size}x{size} board"))?;
    }
    Ok(out)
}

/// The colour to take in `pos` (the player choosing then plays that side): black if black
/// stands at least as well, judged for the side to move.
pub fn choose_colour(pos: &Gomoku, millis: u64) -> Side {
    let v = value(pos, millis);
    let mover = pos.side_to_move();
    if v >= 0 { mover } else { !mover }
}

/// The swap2 answer to three stones: a colour when one side is clearly better, else two more
/// stones chosen so that the position stays close to even.
pub fn swap2_answer(pos: &Gomoku, millis: u64) -> Swap2Answer {
    let v = value(pos, millis / 3);
    let mover = pos.side_to_move();
    let black_better = if mover == Side::Black { v } else { -v };
    if black_better > 300 {
        return Swap2Answer::TakeBlack;
    }
    if black_better < -300 {
        return Swap2Answer::TakeWhite;
    }
    match balancing_pair(pos, millis / 3) {
        Some((w, b)) => Swap2Answer::AddTwo(w, b),
        None if black_better >= 0 => Swap2Answer::TakeBlack,
        None => Swap2Answer::TakeWhite,
    }
}

/// A white stone and a black stone near the centre whose position is closest to even.
fn balancing_pair(pos: &Gomoku, millis: u64) -> Option<(Point, Point)> {
    let size = pos.size();
    let c = (size / 2) as u8;
    let centre = Point::new(c, c);
    let near: Vec<Point> = (-2..=2i8)
        .flat_map(|dc| (-2..=2i8).map(move |dr| (dc, dr)))
        .filter_map(|(dc, dr)| centre.offset(dc, dr, size))
        .filter(|&p| pos.board().get(p) == boyi_games::grid::EMPTY)
        .collect();
    let mut best: Option<(i32, Point, Point)> = None;
    let tries = [(0usize, 5usize), (3, 9), (7, 12), (11, 2)];
    for (a, b) in tries {
        let (Some(&w), Some(&bl)) = (
            near.get(a % near.len().max(1)),
            near.get(b % near.len().max(1)),
        ) else {
            continue;
        };
        if w == bl {
            continue;
        }
        let mut p = pos.clone();
        if pos.side_to_move() != Side::White {
            continue;
        }
        p.play(&Move::Stone(w));
        if !p.is_legal(&Move::Stone(bl)) {
            continue;
        }
        p.play(&Move::Stone(bl));
        let v = value(&p, millis / 4).abs();
        if best.is_none_or(|(bv, _, _)| v < bv) {
            best = Some((v, w, bl));
        }
    }
    best.map(|(_, w, b)| (w, b))
}

/// The position after an opening of stones placed black, white, black, ... on an empty board.
pub fn position(variant: Variant, size: usize, stones: &[Point]) -> Result<Gomoku, TextError> {
    let mut pos = Gomoku::start(&variant, Some(size))?;
    for &p in stones {
        let mv = pos
            .parse_move(&p.to_string())
            .map_err(|e| e.context("opening stone"))?;
        pos.play(&mv);
    }
    Ok(pos)
}

/// The engine's move in `pos` after `millis` of thought.
fn best_move(pos: &Gomoku, millis: u64) -> Result<Point, TextError> {
    let mut s = Strong::new(Config {
        hash: 4,
        ..Config::default()
    });
    let limits = Limits {
        movetime: Some(Duration::from_millis(millis)),
        ..Limits::default()
    };
    match s.think(pos, &limits, &StopFlag::new(), &mut |_| {}) {
        Ok((Move::Stone(p), _)) => Ok(p),
        _ => Err(text_err!("no stone to place in this opening")),
    }
}

/// The swap1 decision for the player to decide in `pos`, thinking about `think` in all:
/// three opening stones on the empty board; after three stones take black (`Swap`) or stay
/// white with the fourth stone. `seed` picks the opening shape.
pub fn swap1_decision(pos: &Gomoku, think: Duration, seed: u64) -> Result<Swap2Reply, TextError> {
    let millis = (think.as_millis() as u64).max(30);
    match pos.board().stones() {
        0 => Ok(stones(&propose(pos.size(), seed)?)),
        3 if choose_colour(pos, millis / 2) == Side::Black => Ok(Swap2Reply::Swap),
        3 => Ok(stones(&[best_move(pos, millis / 2)?])),
        n => Err(text_err!(
            "a swap1 decision comes after 0 or 3 stones, not {n}"
        )),
    }
}

/// A swap reply placing `ps`.
fn stones(ps: &[Point]) -> Swap2Reply {
    Swap2Reply::Stones(ps.iter().map(|p| p.to_string()).collect())
}

/// The swap2 decision for the player to decide in `pos`, thinking about `think` in all:
/// three opening stones on the empty board; after three stones take black (`Swap`), stay
/// white with the fourth stone, or add two; after five stones take black or play the sixth
/// stone as white. `seed` picks the opening shape.
pub fn swap2_decision(pos: &Gomoku, think: Duration, seed: u64) -> Result<Swap2Reply, TextError> {
    let millis = (think.as_millis() as u64).max(30);
    match pos.board().stones() {
        0 => Ok(stones(&propose(pos.size(), seed)?)),
        3 => Ok(match swap2_answer(pos, millis * 2 / 3) {
            Swap2Answer::TakeBlack => Swap2Reply::Swap,
            Swap2Answer::TakeWhite => stones(&[best_move(pos, millis / 3)?]),
            Swap2Answer::AddTwo(w, b) => stones(&[w, b]),
        }),
        5 => {
            if choose_colour(pos, millis / 2) == Side::Black {
                Ok(Swap2Reply::Swap)
            } else {
                Ok(stones(&[best_move(pos, millis / 2)?]))
            }
        }
        n => Err(text_err!(
            "a swap2 decision comes after 0, 3 or 5 stones, not {n}"
        )),
    }
}
