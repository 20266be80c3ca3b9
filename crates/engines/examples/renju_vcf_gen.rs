//! Finds renju positions with a VCF for the side to move, for the renju VCF suite
//! (`tests/data/renju_vcf.txt`): random games with stones near the others, kept when the
//! side to move has a VCF of at least `min` fours and neither side can make five at once.
//! Prints `position | line` lines; the suite's test checks every line by the rules alone.
//!
//! `cargo run --release -p boyi-engines --example renju_vcf_gen -- [count] [seed] [min]`

use boyi_core::rng::SplitMix64;
use boyi_core::{Game, Side};
use boyi_engines::gomoku::board::EngineBoard;
use boyi_engines::gomoku::pattern::Threat;
use boyi_engines::gomoku::threat::ThreatSearch;
use boyi_games::gomoku::{Gomoku, Move, Variant};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let count = args.first().copied().unwrap_or(36) as usize;
    let mut rng = SplitMix64::new(args.get(1).copied().unwrap_or(1));
    let min = args.get(2).copied().unwrap_or(4) as usize;
    let mut found = 0;
    let mut white = 0;
    while found < count {
        let mut pos = Gomoku::start(&Variant::Renju, Some(15)).expect("renju board");
        pos.play(&Move::Stone(boyi_core::Point::new(7, 7)));
        for ply in 1..60 {
            if pos.outcome().is_some() {
                break;
            }
            if ply >= 10
                && let Some(line) = vcf(&pos, min)
            {
                let to_move = pos.side_to_move();
                // Keep the suite mixed: at least a third with white to move.
                if to_move == Side::White || white * 3 >= found {
                    found += 1;
                    white += usize::from(to_move == Side::White);
                    println!("{} | {}", pos.to_text(), line.join(","));
                    break;
                }
            }
            let Some(mv) = random_near(&pos, &mut rng) else {
                break;
            };
            pos.play(&mv);
        }
    }
}

/// The VCF of the side to move when it has one of at least `min` fours and no five is
/// on the board for either side.
fn vcf(pos: &Gomoku, min: usize) -> Option<Vec<String>> {
    let mut b = EngineBoard::from_game(pos);
    let me = b.side();
    if b.count(me, Threat::Five) > 0 || b.count(!me, Threat::Five) > 0 {
        return None;
    }
    let mut ts = ThreatSearch::new(2_000_000, None);
    if !ts.vcf(&mut b, 40) || ts.line.len() < 2 * min - 1 {
        return None;
    }
    Some(ts.line.iter().map(|&i| b.point(i).to_string()).collect())
}

/// A random legal stone next to a stone already on the board.
fn random_near(pos: &Gomoku, rng: &mut SplitMix64) -> Option<Move> {
    let moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| match m {
            Move::Stone(p) => (-1..=1i8).any(|dc| {
                (-1..=1i8).any(|dr| {
                    p.offset(dc, dr, pos.size())
                        .is_some_and(|q| pos.board().get(q) != boyi_games::grid::EMPTY)
                })
            }),
            Move::Pass => false,
        })
        .collect();
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
}
