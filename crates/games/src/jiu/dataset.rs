//! Reader of the public Jiu dataset's record text.
//!
//! The format, as read here (from the dataset's published examples
//! `Stage[1]:W(G,7);B(H,8);…` and `Stage[2]:B(H,7)-O(G,7),FC:W(H,9);…`):
//!
//! - A record is `Stage[1]:` followed by the placements, then optionally `Stage[2]:` followed
//!   by the battle moves. Entries are separated by `;` (a trailing `;` is allowed).
//!   Whitespace carries no meaning and is ignored everywhere.
//! - A piece or point is `C(L,N)`: `C` is `W` (white), `B` (black) or `O` (an empty point),
//!   `L` the column letter `A`–`N` and `N` the row `1`–`14` counted from the bottom, exactly
//!   as in Boyi's notation. Evidence for the row direction: the first battle move of the
//!   example, `B(H,7)-O(G,7)`, moves a black piece from `h7` onto `g7`, emptied by the
//!   removal of the centre pieces; read with rows from the top it would start from the
//!   emptied `h8` instead.
//! - A placement is `W(G,7)`: the colour of the side placing and the point.
//! - A battle move is the mover's piece followed by the points it visits, each marked `O`:
//!   `B(H,7)-O(G,7)` (a step), `B(F,5)-O(H,5)-O(H,3)` (a jump chain), then optional
//!   comma-separated groups `TC:` (pieces taken by jumps) and `FC:` (pieces taken for
//!   squares), each listing enemy pieces separated by commas (`FC:W(H,9),W(K,3)`) or
//!   repeating the tag (`FC:W(H,9),FC:W(K,3)`).
//!
//! Ambiguity: the examples show no flying move and no jump without its `TC` group. A move of
//! two points that are not neighbours is read as a jump when `TC` lists the jumped piece or
//! the path has more than two points; otherwise as a flying move, unless the mover may not
//! fly and the points are a jump apart, in which case it is the jump. When `TC` is given it
//! must name exactly the pieces the path jumps.
//!
//! Every move is checked against the rules; the first one that breaks them is reported with
//! its ply (counted from 1 over both stages) and the reason.

use super::board::{BEYOND, SIZE, adjacent, index_of, point_of};
use super::moves::{self, JiuMove, Written};
use super::{Jiu, Phase};
use boyi_core::{Game, Point, Side, TextError, text_err};

/// A game read from a dataset record: its moves and the position they lead to.
#[derive(Debug, Clone)]
pub struct DatasetGame {
    pub moves: Vec<JiuMove>,
    pub position: Jiu,
}

/// Reads one record (both stages) and replays it from the empty board.
pub fn read_record(text: &str) -> Result<DatasetGame, TextError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let rest = compact
        .strip_prefix("Stage[1]:")
        .ok_or_else(|| text_err!("a record begins with Stage[1]:"))?;
    let (placements, battle) = match rest.split_once("Stage[2]:") {
        Some((p, b)) => (p, Some(b)),
        None => (rest, None),
    };
    let mut game = DatasetGame {
        moves: Vec::new(),
        position: Jiu::new(),
    };
    for entry in entries(placements) {
        let ply = game.moves.len() + 1;
        let mv = read_placement(&game.position, entry).map_err(|e| at(e, ply, entry))?;
        game.play(mv);
    }
    if let Some(battle) = battle {
        if game.position.phase() != Phase::Battle {
            return Err(text_err!(
                "Stage[2] begins after {} placements; the battle begins after all 196",
                game.position.placements()
            ));
        }
        for entry in entries(battle) {
            let ply = game.moves.len() + 1;
            let mv = read_battle(&game.position, entry).map_err(|e| at(e, ply, entry))?;
            game.play(mv);
        }
    }
    Ok(game)
}

impl DatasetGame {
    fn play(&mut self, mv: JiuMove) {
        self.position.play(&mv);
        self.moves.push(mv);
    }
}

fn at(e: TextError, ply: usize, entry: &str) -> TextError {
    e.context(format!("ply {ply} ({entry})"))
}

fn entries(stage: &str) -> impl Iterator<Item = &str> {
    let stage = stage.strip_suffix(';').unwrap_or(stage);
    stage.split(';').filter(|_| !stage.is_empty())
}

/// `W(G,7)` → (colour letter, point index).
fn read_point(text: &str) -> Result<(char, u8), TextError> {
    let bad = || text_err!("{text:?} is not a point like W(G,7)");
    let mut chars = text.chars();
    let marker = chars.next().ok_or_else(bad)?;
    let inner = chars
        .as_str()
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .ok_or_else(bad)?;
    let (col, row) = inner.split_once(',').ok_or_else(bad)?;
    if col.len() != 1 || !col.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(bad());
    }
    let p = Point::parse(&format!("{}{row}", col.to_ascii_lowercase()), SIZE)
        .map_err(|e| e.context(text))?;
    Ok((marker, index_of(p)))
}

fn side_letter(side: Side) -> char {
    match side {
        Side::Black => 'B',
        Side::White => 'W',
    }
}

fn check_marker(found: char, expected: char, what: &str) -> Result<(), TextError> {
    if found != expected {
        return Err(text_err!("{what} is marked {found}, expected {expected}"));
    }
    Ok(())
}

fn read_placement(pos: &Jiu, entry: &str) -> Result<JiuMove, TextError> {
    if pos.phase() != Phase::Place {
        return Err(text_err!(
            "all 196 placements are made; Stage[2] must follow"
        ));
    }
    let (marker, p) = read_point(entry)?;
    check_marker(marker, side_letter(pos.side_to_move()), "the placing side")?;
    moves::legal(
        pos,
        &Written {
            path: vec![p],
            flying: false,
            captures: Vec::new(),
        },
    )
}

fn read_battle(pos: &Jiu, entry: &str) -> Result<JiuMove, TextError> {
    let mut groups = split_outside_parentheses(entry, ',').into_iter();
    let path_text = groups.next().unwrap_or_default();
    let me = side_letter(pos.side_to_move());
    let enemy = side_letter(pos.side_to_move().opponent());
    let mut path = Vec::new();
    for (i, part) in path_text.split('-').enumerate() {
        let (marker, p) = read_point(part)?;
        check_marker(marker, if i == 0 { me } else { 'O' }, part)?;
        path.push(p);
    }
    let (mut taken, mut squares) = (Vec::new(), Vec::new());
    let mut current: Option<&mut Vec<u8>> = None;
    for group in groups {
        let piece = if let Some(p) = group.strip_prefix("TC:") {
            current = Some(&mut taken);
            p
        } else if let Some(p) = group.strip_prefix("FC:") {
            current = Some(&mut squares);
            p
        } else {
            group
        };
        let list = current
            .as_deref_mut()
            .ok_or_else(|| text_err!("{group:?} must follow TC: or FC:"))?;
        let (marker, p) = read_point(piece)?;
        check_marker(marker, enemy, piece)?;
        list.push(p);
    }
    if path.len() < 2 {
        return Err(text_err!("a battle move is a path of two points or more"));
    }
    let flying = path.len() == 2
        && taken.is_empty()
        && !adjacent(path[0], path[1])
        && (pos.pieces(pos.side_to_move()) <= super::FLY_LIMIT || !jump_apart(path[0], path[1]));
    let mv = moves::legal(
        pos,
        &Written {
            path,
            flying,
            captures: squares,
        },
    )?;
    check_taken(&mv, &mut taken)?;
    Ok(mv)
}

/// Splits on `sep` where it is not inside `( )`: the points `W(H,9)` hold commas themselves.
fn split_outside_parentheses(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

fn jump_apart(a: u8, b: u8) -> bool {
    BEYOND[a as usize].contains(&b)
}

/// The `TC` group, when present, must list exactly the jumped pieces.
fn check_taken(mv: &JiuMove, taken: &mut Vec<u8>) -> Result<(), TextError> {
    if taken.is_empty() {
        return Ok(());
    }
    taken.sort_unstable();
    let jumped: Vec<u8> = mv.jumped().map(index_of).collect();
    if *taken != jumped {
        let names = |v: &[u8]| {
            v.iter()
                .map(|&p| point_of(p).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        return Err(text_err!(
            "TC lists {} but the path jumps {}",
            names(taken),
            names(&jumped)
        ));
    }
    Ok(())
}
