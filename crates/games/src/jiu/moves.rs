//! Jiu moves: the move type, move generation and the legality check of parsed moves.
//!
//! A move's identity (jiu.md) is its origin, its landing point, the set of pieces it jumps
//! and the set of pieces it removes for squares; [`JiuMove`] holds exactly that, so equal
//! moves compare equal however they were reached or written. Generation builds each
//! "base" (origin, landing, jumped set) once, then adds every choice of square captures.

use super::board::{
    BEYOND, BLOCKS, EMPTY, G7, H8, NEXT, NONE, POINTS, Points, adjacent, colour, point_of,
};
use super::{FLY_LIMIT, Jiu, Phase};
use boyi_core::{Point, TextError, text_err};
use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};

/// One turn of Jiu: a placement, or a battle move with its jumped and square-captured pieces.
///
/// Fixed size and `Copy`: no heap storage, so search can keep many of them cheaply.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct JiuMove {
    /// Origin index, or [`NONE`] for a placement.
    from: u8,
    to: u8,
    /// Number of square captures (at most 4: a point lies in at most four 2×2 blocks).
    ncaps: u8,
    /// Square-captured points in ascending point order; unused slots are [`NONE`].
    caps: [u8; 4],
    jumped: Points,
}

impl JiuMove {
    pub(super) fn placement(to: u8) -> JiuMove {
        JiuMove {
            from: NONE,
            to,
            ncaps: 0,
            caps: [NONE; 4],
            jumped: Points::EMPTY,
        }
    }

    /// A battle move; `caps` in any order.
    pub(super) fn battle(from: u8, to: u8, jumped: Points, caps: &[u8]) -> JiuMove {
        let mut sorted = caps.to_vec();
        sorted.sort_unstable();
        JiuMove::battle_sorted(from, to, jumped, &sorted)
    }

    /// A battle move; `caps` (at most 4) already in ascending point order.
    pub(super) fn battle_sorted(from: u8, to: u8, jumped: Points, caps: &[u8]) -> JiuMove {
        debug_assert!(caps.len() <= 4 && caps.is_sorted());
        let mut c = [NONE; 4];
        c[..caps.len()].copy_from_slice(caps);
        JiuMove {
            from,
            to,
            ncaps: caps.len() as u8,
            caps: c,
            jumped,
        }
    }

    pub fn is_placement(&self) -> bool {
        self.from == NONE
    }

    /// A battle move to a point that is neither a neighbour nor reached by jumps.
    pub fn is_flying(&self) -> bool {
        !self.is_placement() && self.jumped.is_empty() && !adjacent(self.from, self.to)
    }

    /// The moving piece's origin (`None` for a placement).
    pub fn from(&self) -> Option<Point> {
        (!self.is_placement()).then(|| point_of(self.from))
    }

    /// The placed piece's point, or the moving piece's landing point.
    pub fn to(&self) -> Point {
        point_of(self.to)
    }

    /// The jumped pieces, in point order.
    pub fn jumped(&self) -> impl Iterator<Item = Point> + '_ {
        self.jumped.iter().map(point_of)
    }

    /// The pieces removed for squares, in point order.
    pub fn captures(&self) -> impl Iterator<Item = Point> + '_ {
        self.capture_indices().map(point_of)
    }

    /// Whether the move removes any enemy piece.
    pub fn captures_anything(&self) -> bool {
        self.ncaps > 0 || !self.jumped.is_empty()
    }

    pub(super) fn origin_index(&self) -> u8 {
        self.from
    }

    pub(super) fn landing_index(&self) -> u8 {
        self.to
    }

    pub(super) fn jumped_set(&self) -> &Points {
        &self.jumped
    }

    pub(super) fn jumped_indices(&self) -> impl Iterator<Item = u8> + '_ {
        self.jumped.iter()
    }

    pub(super) fn capture_indices(&self) -> impl Iterator<Item = u8> + '_ {
        self.caps[..self.ncaps as usize].iter().copied()
    }
}

/// Hashes two words instead of the whole move: sets of moves are built for every position
/// in the tests and engines, and equal moves still hash equal.
impl Hash for JiuMove {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let [a, b, c, d] = self.jumped.words();
        let head = u64::from(self.from)
            | u64::from(self.to) << 8
            | u64::from(u32::from_le_bytes(self.caps)) << 16;
        state.write_u64(head ^ c.rotate_left(29) ^ d.rotate_left(47));
        state.write_u64(a ^ b.rotate_left(17));
    }
}

impl fmt::Debug for JiuMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.from() {
            None => write!(f, "place {}", self.to()),
            Some(from) => {
                write!(f, "{from}->{} jumped {:?}", self.to(), self.jumped)?;
                let caps: Vec<String> = self.captures().map(|p| p.to_string()).collect();
                write!(f, " captures [{}]", caps.join(","))
            }
        }
    }
}

/// The rules that apply to the side to move in battle.
struct Mover {
    me: u8,
    enemy: u8,
    can_fly: bool,
    /// 2 for the stronger side while only the opponent can fly (no single jump), else 1.
    min_jumps: usize,
}

fn mover(pos: &Jiu) -> Mover {
    let mine = pos.count[pos.side.index()];
    let theirs = pos.count[pos.side.opponent().index()];
    Mover {
        me: colour(pos.side),
        enemy: colour(pos.side.opponent()),
        can_fly: mine <= FLY_LIMIT,
        min_jumps: if mine > FLY_LIMIT && theirs <= FLY_LIMIT {
            2
        } else {
            1
        },
    }
}

/// Appends every legal move (the caller has checked the game is not over by rule).
pub(super) fn generate(pos: &Jiu, out: &mut Vec<JiuMove>) {
    match pos.phase {
        Phase::Place => placements(pos, |to| out.push(JiuMove::placement(to))),
        Phase::Battle => {
            let rules = mover(pos);
            let enemies: Vec<u8> = (0..POINTS as u8)
                .filter(|&p| pos.cells[p as usize] == rules.enemy)
                .collect();
            let mut left = Vec::new();
            for_each_base(pos, &rules, &mut |from, to, jumped| {
                let k = squares(pos, rules.me, from, to);
                if k == 0 {
                    out.push(JiuMove::battle_sorted(from, to, *jumped, &[]));
                } else if jumped.is_empty() {
                    add_square_choices(from, to, jumped, k, &enemies, out);
                } else {
                    left.clear();
                    left.extend(enemies.iter().filter(|&&p| !jumped.contains(p)));
                    add_square_choices(from, to, jumped, k, &left, out);
                }
                true
            });
        }
    }
}

/// Whether the side to move has a legal move (ignoring the end-of-game rules).
pub(super) fn has_move(pos: &Jiu) -> bool {
    match pos.phase {
        Phase::Place => (pos.placements as usize) < POINTS,
        Phase::Battle => !for_each_base(pos, &mover(pos), &mut |_, _, _| false),
    }
}

fn placements(pos: &Jiu, f: impl FnMut(u8)) {
    match pos.placements {
        // White chooses an end of the central diagonal, black takes the other.
        0 => [G7, H8].into_iter().for_each(f),
        1 => [G7, H8]
            .into_iter()
            .filter(|&p| pos.cells[p as usize] == EMPTY)
            .for_each(f),
        _ => (0..POINTS as u8)
            .filter(|&p| pos.cells[p as usize] == EMPTY)
            .for_each(f),
    }
}

/// Calls `f(origin, landing, jumped)` once per distinct base of a battle move: steps, jump
/// chains (one call per landing and jumped set, however many paths reach them) and flying
/// moves. Stops and returns `false` as soon as `f` does.
fn for_each_base(pos: &Jiu, rules: &Mover, f: &mut impl FnMut(u8, u8, &Points) -> bool) -> bool {
    let mut cells = pos.cells;
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    for from in 0..POINTS as u8 {
        if cells[from as usize] != rules.me {
            continue;
        }
        for &n in &NEXT[from as usize] {
            if n != NONE && cells[n as usize] == EMPTY && !f(from, n, &Points::EMPTY) {
                return false;
            }
        }
        // The moving piece is lifted off its origin: a chain may end there.
        cells[from as usize] = EMPTY;
        seen.clear();
        found.clear();
        let mut jumped = Points::EMPTY;
        let mut chain = Chain {
            cells: &mut cells,
            enemy: rules.enemy,
            min_jumps: rules.min_jumps,
            seen: &mut seen,
            found: &mut found,
        };
        chain.extend(from, &mut jumped);
        cells[from as usize] = rules.me;
        for (to, jumped) in &found {
            if !f(from, *to, jumped) {
                return false;
            }
        }
        if rules.can_fly {
            for to in 0..POINTS as u8 {
                if cells[to as usize] == EMPTY
                    && !adjacent(from, to)
                    && !f(from, to, &Points::EMPTY)
                {
                    return false;
                }
            }
        }
    }
    true
}

/// The search for jump chains from one origin.
struct Chain<'a> {
    /// The board with the moving piece lifted and the pieces jumped so far removed.
    cells: &'a mut [u8; POINTS],
    enemy: u8,
    min_jumps: usize,
    /// (landing, jumped set) states reached: what can follow depends only on them, so each
    /// is explored once and recorded once.
    seen: &'a mut HashSet<(u8, Points)>,
    found: &'a mut Vec<(u8, Points)>,
}

impl Chain<'_> {
    fn extend(&mut self, at: u8, jumped: &mut Points) {
        for d in 0..4 {
            let over = NEXT[at as usize][d];
            let land = BEYOND[at as usize][d];
            if land == NONE
                || self.cells[over as usize] != self.enemy
                || self.cells[land as usize] != EMPTY
            {
                continue;
            }
            self.cells[over as usize] = EMPTY;
            jumped.insert(over);
            if self.seen.insert((land, *jumped)) {
                if jumped.len() >= self.min_jumps {
                    self.found.push((land, *jumped));
                }
                self.extend(land, jumped);
            }
            jumped.remove(over);
            self.cells[over as usize] = self.enemy;
        }
    }
}

/// The number of 2×2 blocks of the mover's colour containing `to` after the piece on `from`
/// moved there (jumped pieces are enemy pieces, so they never count).
fn squares(pos: &Jiu, me: u8, from: u8, to: u8) -> usize {
    let own = |p: u8| p == to || (p != from && pos.cells[p as usize] == me);
    BLOCKS[to as usize]
        .iter()
        .filter(|b| b[0] != NONE && b.iter().all(|&p| own(p)))
        .count()
}

/// Pushes the move for every choice of `k` square captures among the enemy pieces left
/// (`enemies`, in point order): all of them when there are no more than `k`.
fn add_square_choices(
    from: u8,
    to: u8,
    jumped: &Points,
    k: usize,
    enemies: &[u8],
    out: &mut Vec<JiuMove>,
) {
    let n = enemies.len();
    if n <= k {
        out.push(JiuMove::battle_sorted(from, to, *jumped, enemies));
        return;
    }
    // Every k-subset, as ascending index tuples into `enemies`.
    let mut idx = [0, 1, 2, 3];
    let mut caps = [NONE; 4];
    loop {
        for (c, &i) in caps.iter_mut().zip(&idx[..k]) {
            *c = enemies[i];
        }
        out.push(JiuMove::battle_sorted(from, to, *jumped, &caps[..k]));
        let Some(i) = (0..k).rev().find(|&i| idx[i] < n - k + i) else {
            return;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// A move as written, before its legality is known: placement `[to]`, or a battle path with
/// its square captures (indices, as text order gave them).
#[derive(Debug, Clone)]
pub(super) struct Written {
    pub path: Vec<u8>,
    pub flying: bool,
    pub captures: Vec<u8>,
}

/// Checks a written move against the rules and returns the move it is, or why it is illegal.
pub(super) fn legal(pos: &Jiu, w: &Written) -> Result<JiuMove, TextError> {
    use boyi_core::Game;
    // A move that passes the checks below is itself proof that the side to move is not
    // without moves, so only the other end-of-game rules need checking here.
    if pos.ended_by_rule() {
        let outcome = pos.outcome().expect("ended by rule");
        return Err(text_err!("the game is over: {outcome}"));
    }
    match pos.phase {
        Phase::Place => legal_placement(pos, w),
        Phase::Battle => legal_battle(pos, w),
    }
}

fn legal_placement(pos: &Jiu, w: &Written) -> Result<JiuMove, TextError> {
    if w.path.len() != 1 || w.flying || !w.captures.is_empty() {
        return Err(text_err!(
            "in the placement phase a move is a single point, like g7"
        ));
    }
    let to = w.path[0];
    if pos.cells[to as usize] != EMPTY {
        return Err(text_err!("{} is not empty", point_of(to)));
    }
    if pos.placements < 2 && to != G7 && to != H8 {
        return Err(text_err!(
            "the first two placements are g7 and h8, the ends of the central diagonal"
        ));
    }
    Ok(JiuMove::placement(to))
}

fn legal_battle(pos: &Jiu, w: &Written) -> Result<JiuMove, TextError> {
    if w.path.len() < 2 {
        return Err(text_err!(
            "in the battle phase a move is a path like g6-g7, g6-g8 or c3*k9"
        ));
    }
    let rules = mover(pos);
    let side = boyi_core::Game::side_to_move(pos);
    let from = w.path[0];
    let to = *w.path.last().expect("two points or more");
    if pos.cells[from as usize] != rules.me {
        return Err(text_err!(
            "{} holds no {} piece",
            point_of(from),
            <Jiu as boyi_core::Game>::side_name(side)
        ));
    }
    let jumped = if w.flying {
        check_flight(pos, &rules, from, to)?;
        Points::EMPTY
    } else if w.path.len() == 2 && adjacent(from, to) {
        if pos.cells[to as usize] != EMPTY {
            return Err(text_err!("{} is not empty", point_of(to)));
        }
        Points::EMPTY
    } else {
        check_jumps(pos, &rules, &w.path)?
    };
    let captures = check_captures(pos, &rules, from, to, &jumped, &w.captures)?;
    Ok(JiuMove::battle(from, to, jumped, &captures))
}

fn check_flight(pos: &Jiu, rules: &Mover, from: u8, to: u8) -> Result<(), TextError> {
    if !rules.can_fly {
        return Err(text_err!(
            "only a side with {FLY_LIMIT} or fewer pieces may fly; this side has {}",
            pos.count[pos.side.index()]
        ));
    }
    if adjacent(from, to) {
        return Err(text_err!(
            "a move to a neighbour is a step: write {}-{}",
            point_of(from),
            point_of(to)
        ));
    }
    if pos.cells[to as usize] != EMPTY {
        return Err(text_err!("{} is not empty", point_of(to)));
    }
    Ok(())
}

/// Follows a jump path and returns the jumped set.
fn check_jumps(pos: &Jiu, rules: &Mover, path: &[u8]) -> Result<Points, TextError> {
    let mut cells = pos.cells;
    cells[path[0] as usize] = EMPTY;
    let mut jumped = Points::EMPTY;
    for seg in path.windows(2) {
        let (a, b) = (seg[0], seg[1]);
        let Some(d) = (0..4).find(|&d| BEYOND[a as usize][d] == b) else {
            return Err(text_err!(
                "{}-{} is neither a step nor a jump (flying moves are written with *)",
                point_of(a),
                point_of(b)
            ));
        };
        let over = NEXT[a as usize][d];
        if cells[over as usize] != rules.enemy {
            return Err(text_err!(
                "{}-{} jumps no enemy piece on {}",
                point_of(a),
                point_of(b),
                point_of(over)
            ));
        }
        if cells[b as usize] != EMPTY {
            return Err(text_err!("{} is not empty", point_of(b)));
        }
        cells[over as usize] = EMPTY;
        jumped.insert(over);
    }
    if jumped.len() < rules.min_jumps {
        return Err(text_err!(
            "a side with more than {FLY_LIMIT} pieces must take at least two pieces per jump \
             while only its opponent can fly"
        ));
    }
    Ok(jumped)
}

/// Checks the written square captures and returns them.
fn check_captures(
    pos: &Jiu,
    rules: &Mover,
    from: u8,
    to: u8,
    jumped: &Points,
    written: &[u8],
) -> Result<Vec<u8>, TextError> {
    let k = squares(pos, rules.me, from, to);
    let left = pos.count[pos.side.opponent().index()] as usize - jumped.len();
    let due = k.min(left);
    for (i, &p) in written.iter().enumerate() {
        if pos.cells[p as usize] != rules.enemy || jumped.contains(p) {
            return Err(text_err!(
                "square capture {} is not an enemy piece left after the jumps",
                point_of(p)
            ));
        }
        if written[..i].contains(&p) {
            return Err(text_err!("square capture {} is listed twice", point_of(p)));
        }
    }
    if written.len() != due {
        return Err(text_err!(
            "the move completes {k} square(s) and must remove {due} enemy piece(s), not {}",
            written.len()
        ));
    }
    Ok(written.to_vec())
}

/// The canonical path of a battle move: origin and landing for steps and flying moves; for
/// jumps, of all the paths taking exactly the jumped set to the landing, the smallest point
/// by point in point order.
pub(super) fn canonical_path(pos: &Jiu, mv: &JiuMove) -> Vec<u8> {
    let (from, to) = (mv.origin_index(), mv.landing_index());
    if mv.jumped_set().is_empty() {
        return vec![from, to];
    }
    let mut cells = pos.cells;
    cells[from as usize] = EMPTY;
    let mut search = PathSearch {
        cells,
        to,
        dead: HashSet::new(),
        path: vec![from],
    };
    let found = search.find(*mv.jumped_set());
    debug_assert!(found, "a legal jump move has a path");
    search.path
}

/// Depth-first search for the smallest path: every path of a move has one point per jumped
/// piece plus the origin, so trying landings in ascending order finds the smallest first.
struct PathSearch {
    cells: [u8; POINTS],
    to: u8,
    /// (point, pieces still to jump) states known to lead nowhere.
    dead: HashSet<(u8, Points)>,
    path: Vec<u8>,
}

impl PathSearch {
    fn find(&mut self, left: Points) -> bool {
        let at = *self.path.last().expect("the path starts at the origin");
        if left.is_empty() {
            return at == self.to;
        }
        if self.dead.contains(&(at, left)) {
            return false;
        }
        // DIRS are ordered so that the landings come in ascending point order.
        for d in 0..4 {
            let over = NEXT[at as usize][d];
            let land = BEYOND[at as usize][d];
            if land == NONE || !left.contains(over) || self.cells[land as usize] != EMPTY {
                continue;
            }
            let mut rest = left;
            rest.remove(over);
            self.path.push(land);
            if self.find(rest) {
                return true;
            }
            self.path.pop();
        }
        self.dead.insert((at, left));
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_small_and_inline() {
        // Search keeps many moves: no heap storage, at most 40 bytes.
        assert!(std::mem::size_of::<JiuMove>() <= 40);
        let a = JiuMove::battle(3, 5, Points::EMPTY, &[9, 7]);
        let b = JiuMove::battle_sorted(3, 5, Points::EMPTY, &[7, 9]);
        assert_eq!(a, b);
        assert_eq!(a.capture_indices().collect::<Vec<_>>(), [7, 9]);
    }
}
