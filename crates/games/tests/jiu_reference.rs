//! Move generation against a second, deliberately naive reading of jiu.md, on positions of
//! random games: every jump path enumerated without pruning, squares counted on a copy of the
//! board after the move, captures as explicit combinations. The two must agree on the set of
//! move identities (origin, landing, jumped set, square-capture set).

mod jiu_common;

use boyi_core::rng::SplitMix64;
use boyi_core::{Game, NoVariant, Point, Side};
use boyi_games::jiu::{Jiu, Phase};
use std::collections::BTreeSet;

type Identity = (Option<Point>, Point, Vec<Point>, Vec<Point>);
type Board = [[Option<Side>; 14]; 14];

fn board_of(pos: &Jiu) -> Board {
    let mut b = [[None; 14]; 14];
    for (col, column) in b.iter_mut().enumerate() {
        for (row, cell) in column.iter_mut().enumerate() {
            *cell = pos.piece_at(Point::new(col as u8, row as u8));
        }
    }
    b
}

fn at(b: &Board, p: Point) -> Option<Side> {
    b[p.col as usize][p.row as usize]
}

fn set(b: &mut Board, p: Point, v: Option<Side>) {
    b[p.col as usize][p.row as usize] = v;
}

fn all_points() -> impl Iterator<Item = Point> {
    (0..14u8).flat_map(|c| (0..14u8).map(move |r| Point::new(c, r)))
}

fn step(p: Point, d: (i8, i8), n: i8) -> Option<Point> {
    p.offset(d.0 * n, d.1 * n, 14)
}

const DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn reference(pos: &Jiu) -> BTreeSet<Identity> {
    let mut out = BTreeSet::new();
    let board = board_of(pos);
    if pos.phase() == Phase::Place {
        let centre = [Point::new(6, 6), Point::new(7, 7)];
        for p in all_points() {
            let allowed = pos.placements() >= 2 || centre.contains(&p);
            if at(&board, p).is_none() && allowed {
                out.insert((None, p, vec![], vec![]));
            }
        }
        return out;
    }
    let me = pos.side_to_move();
    let mine = pos.pieces(me);
    let theirs = pos.pieces(!me);
    let min_jumps = if mine > 14 && theirs <= 14 { 2 } else { 1 };
    for from in all_points().filter(|&p| at(&board, p) == Some(me)) {
        let mut bases: Vec<(Point, Vec<Point>)> = Vec::new();
        for to in all_points().filter(|&q| at(&board, q).is_none()) {
            let distance = from.col.abs_diff(to.col) + from.row.abs_diff(to.row);
            if distance == 1 || mine <= 14 {
                bases.push((to, vec![]));
            }
        }
        let mut lifted = board;
        set(&mut lifted, from, None);
        jump_paths(
            &mut lifted,
            me,
            from,
            &mut Vec::new(),
            min_jumps,
            &mut bases,
        );
        for (to, mut jumped) in bases {
            jumped.sort();
            let mut after = lifted;
            for &j in &jumped {
                set(&mut after, j, None);
            }
            set(&mut after, to, Some(me));
            let squares = count_squares(&after, to, me);
            let enemies: Vec<Point> = all_points()
                .filter(|&p| at(&after, p) == Some(!me))
                .collect();
            for caps in capture_choices(&enemies, squares) {
                out.insert((Some(from), to, jumped.clone(), caps));
            }
        }
    }
    out
}

/// Every jump path, each landing recorded (duplicates collapse in the caller's set).
fn jump_paths(
    b: &mut Board,
    me: Side,
    at_point: Point,
    jumped: &mut Vec<Point>,
    min_jumps: usize,
    out: &mut Vec<(Point, Vec<Point>)>,
) {
    for d in DIRS {
        let (Some(over), Some(land)) = (step(at_point, d, 1), step(at_point, d, 2)) else {
            continue;
        };
        if at(b, over) != Some(!me) || at(b, land).is_some() {
            continue;
        }
        set(b, over, None);
        jumped.push(over);
        if jumped.len() >= min_jumps {
            out.push((land, jumped.clone()));
        }
        jump_paths(b, me, land, jumped, min_jumps, out);
        jumped.pop();
        set(b, over, Some(!me));
    }
}

fn count_squares(b: &Board, p: Point, me: Side) -> usize {
    let mut n = 0;
    for (dc, dr) in [(-1, -1), (-1, 0), (0, -1), (0, 0)] {
        let Some(corner) = p.offset(dc, dr, 14) else {
            continue;
        };
        let block = [(0, 0), (0, 1), (1, 0), (1, 1)].map(|(c, r)| corner.offset(c, r, 14));
        if block
            .iter()
            .all(|q| q.is_some_and(|q| at(b, q) == Some(me)))
        {
            n += 1;
        }
    }
    n
}

fn capture_choices(enemies: &[Point], k: usize) -> Vec<Vec<Point>> {
    if enemies.len() <= k {
        return vec![enemies.to_vec()];
    }
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for (i, &first) in enemies.iter().enumerate() {
        for mut rest in capture_choices_exact(&enemies[i + 1..], k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

fn capture_choices_exact(enemies: &[Point], k: usize) -> Vec<Vec<Point>> {
    if k == 0 {
        return vec![vec![]];
    }
    if enemies.len() < k {
        return vec![];
    }
    capture_choices(enemies, k)
}

fn identities(pos: &Jiu) -> BTreeSet<Identity> {
    let moves = pos.legal_moves();
    let set: BTreeSet<Identity> = moves
        .iter()
        .map(|m| {
            (
                m.from(),
                m.to(),
                m.jumped().collect(),
                m.captures().collect(),
            )
        })
        .collect();
    assert_eq!(
        set.len(),
        moves.len(),
        "duplicate moves in {}",
        pos.to_text()
    );
    set
}

fn compare(pos: &Jiu) {
    if pos
        .outcome()
        .is_some_and(|o| o.reason != boyi_core::Reason::NoLegalMove)
    {
        return;
    }
    let want = reference(pos);
    let got = identities(pos);
    let missing: Vec<_> = want.difference(&got).take(5).collect();
    let extra: Vec<_> = got.difference(&want).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{}\nmissing {missing:?}\nextra {extra:?}",
        pos.to_text()
    );
}

/// Random games preferring captures; every position of the battle is compared.
fn run(games: usize, seed: u64) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut compared = 0;
    for _ in 0..games {
        let mut pos = Jiu::start(&NoVariant, None).unwrap();
        loop {
            if pos.phase() == Phase::Battle || pos.placements() < 3 || rng.below(20) == 0 {
                compare(&pos);
                compared += 1;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves.iter().filter(|m| m.captures_anything()).collect();
            let mv = if !captures.is_empty() && rng.below(4) != 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play(&mv);
        }
    }
    compared
}

#[test]
fn generation_matches_the_naive_reading() {
    assert!(run(20, 7) > 2000);
}

#[test]
fn hand_built_positions_match_the_naive_reading() {
    use jiu_common::battle;
    for (black, white, side) in [
        ("a10:c14 d4", "d10:f14 d5 e6 f5 e4", 'b'),
        ("a10:c14 h2 i6 i7 j7 k6 k7", "h3 i4 j5 n1", 'b'),
        ("b2 c2 b3 a7", "d10:f14 a8", 'b'),
        ("a10:c14 c3 d3 e3 c4 e4 d5", "k1 m1 k3 m3 m5", 'b'),
        // Flying into a hole surrounded by eight own pieces: four squares at once.
        ("c3 d3 e3 c4 e4 c5 d5 e5 k9", "a1 a3 a5 a7 n1 n3 n5 n7", 'b'),
    ] {
        compare(&battle(black, white, side));
    }
}

#[test]
#[ignore = "slow tier"]
fn generation_matches_the_naive_reading_in_many_games() {
    assert!(run(200, 8) > 20_000);
}
