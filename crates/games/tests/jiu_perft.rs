//! Perft figures of Jiu positions in each phase: placement, the transition to battle, the
//! first battle moves, battle with square captures, the flying endgame.
//!
//! The placement figures follow from the rules by hand (2, 2, then 194, 193, …); the others
//! are this implementation's figures, pinned here so that any change in move generation
//! shows; their first-ply move lists are checked point by point in `jiu_rules.rs`. Captures
//! make these trees wide: after `d2-d4 x e12` white drops to 14 pieces and may fly into the
//! hole at e12, completing four squares at once (C(19,4) = 3876 moves).

mod jiu_common;

use boyi_core::{Game, NoVariant, Point};
use boyi_games::jiu::Jiu;
use jiu_common::*;

/// Full-board placements: white on columns a, c, …, m, black on b, d, …, n; g7 and h8 first.
fn striped_placements() -> Vec<String> {
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for col in 0..14u8 {
        for row in 0..14u8 {
            let text = Point::new(col, row).to_string();
            if text == "g7" || text == "h8" {
                continue;
            }
            if col % 2 == 0 {
                white.push(text);
            } else {
                black.push(text);
            }
        }
    }
    let mut out = vec!["g7".to_string(), "h8".to_string()];
    for (w, b) in white.into_iter().zip(black) {
        out.push(w);
        out.push(b);
    }
    out
}

fn after_placements(n: usize) -> Jiu {
    let mut pos = Jiu::start(&NoVariant, None).unwrap();
    play(&mut pos, &striped_placements()[..n].join(","));
    pos
}

fn check(pos: &Jiu, figures: &[u64]) {
    for (depth, &want) in figures.iter().enumerate() {
        let depth = depth as u32 + 1;
        assert_eq!(
            pos.clone().perft(depth),
            want,
            "perft {depth} of {}",
            pos.to_text()
        );
    }
}

#[test]
fn placement() {
    check(&Jiu::start(&NoVariant, None).unwrap(), &[2, 2, 388, 74_884]);
    check(&after_placements(2), &[194, 194 * 193, 194 * 193 * 192]);
    check(&after_placements(101), &[95, 95 * 94, 95 * 94 * 93]);
}

#[test]
fn transition_to_battle() {
    // 193 placements made: white, black, white fill the last three points, then the centre
    // pieces leave and black moves.
    check(&after_placements(193), &[3, 6, PERFT_193_3, PERFT_193_4]);
}

#[test]
fn first_battle_moves() {
    check(&after_placements(196), &[6, PERFT_BATTLE_2, PERFT_BATTLE_3]);
}

#[test]
fn battle_with_square_captures() {
    // One step completes two squares (two captures), two complete one.
    let pos = battle("a10:c14 c3 d3 e3 c4 e4 d5", "k1 m1 k3 m3 m5", 'b');
    check(&pos, &[41, PERFT_SQUARES_2, PERFT_SQUARES_3]);
    // A jump completing a square against 15 remaining pieces.
    let pos = battle("a10:c14 d2 c4 c5 d5", "d10:f14 d3", 'b');
    check(&pos, &[29, PERFT_JUMP_SQUARE_2]);
}

#[test]
fn flying_endgame() {
    let pos = battle("b2 c2 b3 a7", "d10:f14 a8", 'b');
    check(&pos, &[720, PERFT_FLYING_2]);
}

const PERFT_193_3: u64 = 6;
const PERFT_193_4: u64 = 36;
const PERFT_BATTLE_2: u64 = 30;
const PERFT_BATTLE_3: u64 = 187;
const PERFT_SQUARES_2: u64 = 24_690;
const PERFT_SQUARES_3: u64 = 864_390;
const PERFT_JUMP_SQUARE_2: u64 = 131_415;
const PERFT_FLYING_2: u64 = 11_071;
