//! The renju VCF suite (`data/renju_vcf.txt`, one `position | line` per line): each stored
//! line is checked by the rules alone to be a real VCF — every attacking move legal (black
//! never on a forbidden point) and a four, every defence the only point that stops the five,
//! the defender never having a five of its own, and the line ending in a five, in two five
//! points, or in a five point black may not block because it is forbidden. The solver must
//! find a VCF in each position within 1 s (the budget stops it otherwise).

use boyi_core::{Game, Point, Side};
use boyi_engines::gomoku::solve;
use boyi_games::gomoku::{Gomoku, Move, Variant};
use boyi_games::grid;
use std::time::{Duration, Instant};

const SUITE: &str = include_str!("data/renju_vcf.txt");

fn suite() -> Vec<(Gomoku, Vec<String>)> {
    SUITE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (pos, line) = l.split_once('|').expect("position | line");
            let pos = Gomoku::from_text(&Variant::Renju, pos.trim()).expect("renju position");
            let line = line
                .trim()
                .split(',')
                .map(|m| m.trim().to_string())
                .collect();
            (pos, line)
        })
        .collect()
}

/// The points where a stone of `side` would win now (by the rules, whoever is to move).
fn five_points(pos: &Gomoku, side: Side) -> Vec<Point> {
    let mut board = pos.board().clone();
    let cell = grid::stone(side);
    let empties: Vec<Point> = board.empty_points().collect();
    empties
        .into_iter()
        .filter(|&p| {
            board.set(p, cell);
            let wins = grid::DIRECTIONS
                .iter()
                .any(|&d| Variant::Renju.wins(side, board.run(p, d, cell)));
            board.set(p, grid::EMPTY);
            wins
        })
        .collect()
}

/// Checks `line` as a VCF for the side to move in `pos`; the error says where it fails.
fn check_vcf(pos: &Gomoku, line: &[String]) -> Result<(), String> {
    let attacker = pos.side_to_move();
    let mut g = pos.clone();
    let mut moves = line.iter();
    loop {
        let Some(text) = moves.next() else {
            return Err("the line ends before the win".into());
        };
        let mv = g
            .parse_move(text)
            .map_err(|e| format!("attacking move {text}: {e}"))?;
        g.play(&mv);
        if let Some(o) = g.outcome() {
            return match (o.winner == Some(attacker), moves.next()) {
                (true, None) => Ok(()),
                (true, Some(_)) => Err(format!("moves after the five {text}")),
                (false, _) => Err(format!("{text} ends the game without a win")),
            };
        }
        if five_points(&g, !attacker)
            .iter()
            .any(|&p| g.is_legal(&Move::Stone(p)))
        {
            return Err(format!("after {text}: the defender can make five"));
        }
        let fives = five_points(&g, attacker);
        let forced = match fives.as_slice() {
            [] => return Err(format!("{text} is not a four")),
            [_, _, ..] => None,
            [f] if !g.is_legal(&Move::Stone(*f)) => None,
            [f] => Some(*f),
        };
        let Some(block) = forced else {
            // Two five points, or one black may not take: the attacker wins next move.
            return match moves.next() {
                None => Ok(()),
                Some(m) => Err(format!(
                    "after the winning four {text} the line goes on with {m}"
                )),
            };
        };
        match moves.next() {
            Some(d) if *d == block.to_string() => g.play(&Move::Stone(block)),
            Some(d) => return Err(format!("after {text} the defence must be {block}, not {d}")),
            None => {
                return Err(format!(
                    "the line stops after {text} with the defence {block} open"
                ));
            }
        }
    }
}

#[test]
fn suite_lines_are_real_vcfs() {
    let all = suite();
    assert!(all.len() >= 30, "{} positions", all.len());
    assert!(all.iter().any(|(p, _)| p.side_to_move() == Side::White));
    for (n, (pos, line)) in all.iter().enumerate() {
        if let Err(e) = check_vcf(pos, line) {
            panic!("position {} ({}): {e}", n + 1, pos.to_text());
        }
    }
}

fn solved(n: usize, pos: &Gomoku) -> Duration {
    let t = Instant::now();
    let found = solve(pos, Duration::from_millis(1000));
    let spent = t.elapsed();
    let s = found.unwrap_or_else(|| panic!("position {}: no win found", n + 1));
    assert_eq!(s.kind, "vcf", "position {}", n + 1);
    if let Err(e) = check_vcf(pos, &s.line) {
        panic!("position {}: the solver's line fails: {e}", n + 1);
    }
    spent
}

#[test]
fn solver_finds_the_first_positions() {
    for (n, (pos, _)) in suite().iter().enumerate().take(6) {
        solved(n, pos);
    }
}

#[test]
#[ignore = "slow tier"]
fn solver_finds_every_position_within_a_second() {
    let mut total = Duration::ZERO;
    let mut worst = Duration::ZERO;
    for (n, (pos, line)) in suite().iter().enumerate() {
        let t = solved(n, pos);
        println!(
            "position {:2}: {:4} plies, {:.1} ms",
            n + 1,
            line.len(),
            t.as_secs_f64() * 1e3
        );
        total += t;
        worst = worst.max(t);
    }
    println!(
        "total {:.1} ms, worst {:.1} ms",
        total.as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3
    );
}
