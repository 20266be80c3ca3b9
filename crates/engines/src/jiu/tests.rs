use super::board::{BLACK, Board, EMPTY, WHITE};
use super::seed002::{ATTACK, DEFENCE, strategy_scores};
use super::*;
use boyi_core::{NoVariant, Point};
use boyi_games::jiu::board::{POINTS, index_of};

fn at(s: &str) -> usize {
    index_of(Point::parse(s, 14).unwrap()) as usize
}

fn cells(black: &[&str], white: &[&str]) -> [u8; POINTS] {
    let mut c = [EMPTY; POINTS];
    for p in black {
        c[at(p)] = BLACK;
    }
    for p in white {
        c[at(p)] = WHITE;
    }
    c
}

#[test]
fn triangle_scores_four_on_its_hole() {
    let c = cells(&[], &["e5", "f5", "f6"]);
    let s = strategy_scores(&c, WHITE, &DEFENCE[1..2]);
    assert_eq!(s[at("e6")], 4);
    assert_eq!(s.iter().filter(|&&v| v > 0).count(), 1);
}

#[test]
fn trinity_scores_five_beside_its_middle() {
    let c = cells(&[], &["e5", "f5", "g5"]);
    let s = strategy_scores(&c, WHITE, &DEFENCE[0..1]);
    assert_eq!(s[at("f6")], 5);
    assert_eq!(s[at("f4")], 5);
    assert_eq!(s[at("e6")], 0);
    // A vertical line too.
    let c = cells(&[], &["c3", "c4", "c5"]);
    let s = strategy_scores(&c, WHITE, &DEFENCE[0..1]);
    assert_eq!((s[at("b4")], s[at("d4")]), (5, 5));
}

#[test]
fn contrast_scores_three_on_the_diagonal() {
    // White at e6 and f5 at right angles around black e5: the diagonal f6 scores 3.
    let c = cells(&["e5"], &["e6", "f5"]);
    let s = strategy_scores(&c, WHITE, &DEFENCE[2..3]);
    assert_eq!(s[at("f6")], 3);
    assert_eq!(s.iter().filter(|&&v| v > 0).count(), 1);
}

#[test]
fn twain_scores_five_where_a_triangle_grows() {
    let c = cells(&["e5", "f5"], &[]);
    let s = strategy_scores(&c, BLACK, &ATTACK);
    for p in ["e6", "f6", "e4", "f4"] {
        assert_eq!(s[at(p)], 5, "{p}");
    }
    // Not isolated: a third piece in line makes it no twain.
    let c = cells(&["e5", "f5", "g5"], &[]);
    let s = strategy_scores(&c, BLACK, &ATTACK);
    assert_eq!(s.iter().sum::<i32>(), 0);
}

fn battle(text: &str) -> Jiu {
    Jiu::from_text(&NoVariant, text).unwrap()
}

#[test]
fn board_bases_match_the_rules_generator() {
    let pos = battle("14/14/3xx9/3xxo8/4oo8/5o8/14/7x6/6xxo5/7oo5/14/2o11/14/14 b battle 196 10");
    let mut b = Board::from_game(&pos);
    let mut bases = Vec::new();
    b.bases(&mut bases);
    let legal = pos.legal_moves();
    for base in &bases {
        let mv = b.with_captures(base, eval::capture_value);
        assert!(legal.iter().any(|m| mv.matches(m)), "{mv:?}");
    }
    // Every rules move has its base.
    let distinct: std::collections::HashSet<_> = legal
        .iter()
        .map(|m| (m.from(), m.to(), m.jumped().collect::<Vec<_>>()))
        .collect();
    assert_eq!(distinct.len(), bases.len());
}

#[test]
fn strong_takes_the_square() {
    // Black c9-c10 completes the square c10 d10 c11 d11.
    let pos = battle("14/14/14/2xx10/3x10/2x11/14/14/14/14/5oooo5/14/14/14 b battle 196 0");
    let mut p = build_strong();
    let mv = p
        .choose(
            &GameHistory::new(pos.clone()),
            &Limits::depth(3),
            &StopFlag::new(),
            &mut |_| {},
        )
        .unwrap();
    assert!(mv.captures().count() > 0, "{}", pos.format_move(&mv));
}

fn build_strong() -> Box<dyn Player<Jiu>> {
    crate::registry::build::<Jiu>("strong", BuildContext::default()).unwrap()
}

#[test]
fn seed002_and_strong_play_legal_placements_and_battle_moves() {
    let mut pos = Jiu::new();
    let mut game = GameHistory::new(pos.clone());
    let mut strong = build_strong();
    let mut seed =
        crate::registry::build::<Jiu>("seed002?seed=3", BuildContext::default()).unwrap();
    let limits = Limits::depth(2);
    for ply in 0..206 {
        if pos.outcome().is_some() {
            break;
        }
        let player = if ply % 2 == 0 { &mut strong } else { &mut seed };
        let mv = player
            .choose(&game, &limits, &StopFlag::new(), &mut |_| {})
            .unwrap();
        assert!(pos.is_legal(&mv));
        pos.play(&mv);
        game.push(mv);
    }
    assert_eq!(pos.phase(), Phase::Battle);
}
