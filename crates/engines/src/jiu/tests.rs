use super::board::{BLACK, Board, EMPTY, WHITE};
use super::seed002::{ATTACK, DEFENCE, strategy_scores};
use super::*;
use crate::player::{Limits, StopFlag};
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

fn choose_text(p: &mut dyn Player<Jiu>, game: &GameHistory<Jiu>) -> String {
    let mv = p
        .choose(game, &Limits::default(), &StopFlag::new(), &mut |_| {})
        .unwrap();
    game.current().format_move(&mv)
}

#[test]
fn seed002_follows_the_book_then_its_strategies() {
    use boyi_records::seqbook::SequenceBook;
    use seed002::Seed002;
    use std::sync::Arc;
    let book = SequenceBook::from_text("g7 h8 a1 n14 a14\ng7 h8 a1 n14 n1\n").unwrap();
    let mut booked = crate::search::Engine(Seed002::new(5, Some(Arc::new(book))));
    let mut plain = crate::search::Engine(Seed002::new(5, None));
    let mut game = GameHistory::new(Jiu::new());
    assert_eq!(choose_text(&mut booked, &game), "g7");
    game.push_text("g7").unwrap();
    game.push_text("h8").unwrap();
    // In the book: its corner, which no strategy plays.
    assert_eq!(choose_text(&mut booked, &game), "a1");
    game.push_text("a1").unwrap();
    assert_eq!(choose_text(&mut booked, &game), "n14");
    // Out of the book: the strategies, as without a book (same seed, no random draw yet).
    let mut game = GameHistory::new(Jiu::new());
    for p in ["g7", "h8", "b2"] {
        game.push_text(p).unwrap();
    }
    let out = choose_text(&mut booked, &game);
    assert_eq!(out, choose_text(&mut plain, &game));
    assert_ne!(out, "n14");
}

#[test]
fn seed002_default_book_is_embedded_and_played() {
    let book = seed002::default_book().unwrap();
    assert!(book.len() >= 100, "{} games", book.len());
    let mut p = crate::registry::build::<Jiu>("seed002?seed=9", BuildContext::default()).unwrap();
    let mut game = GameHistory::new(Jiu::new());
    for _ in 0..6 {
        let played: Vec<_> = game.moves().iter().map(|m| m.to()).collect();
        let cont = book.continuations(&played, false);
        let mv = choose_text(p.as_mut(), &game);
        assert_eq!(mv, cont[0].0.to_string());
        game.push_text(&mv).unwrap();
    }
}

#[test]
fn seed002_book_option_reads_files_and_reports_errors() {
    let ctx = BuildContext::default();
    assert!(crate::registry::build::<Jiu>("seed002?book=none", ctx).is_ok());
    let err = crate::registry::build::<Jiu>("seed002?book=/nonexistent/jiu.book", ctx)
        .err()
        .unwrap();
    assert!(err.to_string().contains("book="), "{err}");
    let path = std::env::temp_dir().join(format!("boyi-jiu-book-{}.txt", std::process::id()));
    std::fs::write(&path, "g7 h8 zz\n").unwrap();
    let err = crate::registry::build::<Jiu>(&format!("seed002?book={}", path.display()), ctx)
        .err()
        .unwrap();
    assert!(err.to_string().contains("line 1"), "{err}");
    std::fs::remove_file(&path).unwrap();
}

/// The plan's first choice for `me` on `c` (any legal empty point).
fn plan_choice(params: &plan::Params, c: &[u8; POINTS], me: u8) -> usize {
    let legal: Vec<usize> = (0..POINTS).filter(|&q| c[q] == EMPTY).collect();
    plan::ranked(params, c, me, &legal, plan::CANDIDATES)[0].1
}

#[test]
fn plan_blocks_the_opponents_three_piece_door() {
    // White has three of the block e5 f5 e6 f6; black to place far from its own pieces.
    let c = cells(&["k11", "l12"], &["e5", "f5", "e6", "c10"]);
    for params in [plan::HAND, plan::TUNED] {
        assert_eq!(plan_choice(&params, &c, BLACK), at("f6"), "{params:?}");
    }
}

#[test]
fn plan_completes_its_own_door_when_free() {
    let c = cells(&["g6", "g5", "h5", "b2"], &["k11", "l12"]);
    for params in [plan::HAND, plan::TUNED] {
        assert_eq!(plan_choice(&params, &c, BLACK), at("h6"), "{params:?}");
    }
}

#[test]
fn plan_score_follows_its_parameters() {
    use plan::{HAND, p, score};
    let c = cells(&["g6", "g5", "h5"], &["a1"]);
    // h6 closes black's door: one block with three own pieces, the others partly own.
    let base = score(&HAND, &c, BLACK, at("h6"));
    let mut more = HAND;
    more.0[p::OWN + 3] += 10;
    assert!(score(&more, &c, BLACK, at("h6")) > base);
    // For white, h6 blocks that door.
    let mut block = HAND;
    block.0[p::BLOCK + 2] += 10;
    assert!(score(&block, &c, WHITE, at("h6")) > score(&HAND, &c, WHITE, at("h6")));
    // The centre weighs more than the edge for the same shape.
    let empty = [EMPTY; POINTS];
    assert!(score(&HAND, &empty, BLACK, at("g7")) > score(&HAND, &empty, BLACK, at("a1")));
}

#[test]
fn capture_bases_are_the_bases_that_take() {
    let key = |x: &board::Base| (x.from, x.to, x.jumped, x.squares);
    for (text, _) in BENCH {
        for side in [" b ", " w "] {
            let pos = battle(&text.replacen(" b ", side, 1));
            let mut b = Board::from_game(&pos);
            let (mut all, mut caps) = (Vec::new(), Vec::new());
            b.bases(&mut all);
            b.capture_bases(&mut caps);
            let mut want: Vec<_> = all
                .iter()
                .filter(|x| x.squares > 0 || !x.jumped.is_empty())
                .map(key)
                .collect();
            let mut got: Vec<_> = caps.iter().map(key).collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "{text} {side}");
        }
    }
}

#[test]
fn lookahead_zero_ranks_every_point_by_its_own_value() {
    let c = cells(&["g6", "g5", "h5", "b2"], &["k11", "l12", "e5"]);
    let legal: Vec<usize> = (0..POINTS).filter(|&q| c[q] == EMPTY).collect();
    let all = plan::ranked(&plan::TUNED, &c, BLACK, &legal, 0);
    assert_eq!(all.len(), legal.len(), "every legal point, unchecked");
    let best = legal
        .iter()
        .map(|&q| plan::score(&plan::TUNED, &c, BLACK, q))
        .max()
        .unwrap();
    assert_eq!(all[0].0, best);
    assert_eq!(plan::ranked(&plan::TUNED, &c, BLACK, &legal, 3).len(), 3);
}

#[test]
fn the_quiescence_budget_bounds_the_captures_searched() {
    let pos = battle(BENCH[0].0);
    let nodes = |plies: u32| {
        let mut b = Board::from_game(&pos);
        let stop = StopFlag::new();
        let dl = TimeManager::new(&Limits::default(), pos.side_to_move(), &stop, 1);
        let mut engine = Engine::with_quiescence(1, plies);
        engine.search(&mut b, 1, &dl, &mut |_, _| {});
        engine.nodes
    };
    let root_moves = Engine::new(1)
        .moves(&mut Board::from_game(&pos), true, None)
        .len() as u64;
    // Each root move is one node and its stand-pat one more, with no captures beyond.
    assert!(nodes(0) <= 2 * root_moves, "{} nodes", nodes(0));
    assert!(nodes(2) > 2 * root_moves);
    assert!(nodes(6) >= nodes(2));
}

#[test]
fn level_budgets_out_of_range_are_refused() {
    let ctx = crate::registry::BuildContext::default();
    for (spec, want) in [
        ("strong?quiescence=7", "quiescence=7: expected 0 to 6"),
        ("strong?lookahead=65", "lookahead=65: expected 0 to 64"),
        ("strong?lookahead=x", "lookahead"),
    ] {
        let err = crate::registry::build::<Jiu>(spec, ctx).err().unwrap();
        assert!(err.to_string().contains(want), "{spec}: {err}");
    }
    assert!(crate::registry::build::<Jiu>("strong?depth=1,lookahead=0,quiescence=0", ctx).is_ok());
}

#[test]
fn a_node_budget_from_the_spec_bounds_an_unlimited_battle_move() {
    let pos = battle(BENCH[1].0);
    let game = GameHistory::new(pos.clone());
    let first = Engine::new(1).moves(&mut Board::from_game(&pos), true, None)[0];
    let first = board::to_rules_move(&pos, &first).unwrap();
    let searched = |spec: &str, limits: &Limits| {
        let mut p = crate::registry::build::<Jiu>(spec, BuildContext::default()).unwrap();
        let mut nodes = 0;
        let mv = p
            .choose(&game, limits, &StopFlag::new(), &mut |i| {
                nodes = i.nodes.unwrap_or(0)
            })
            .unwrap();
        (pos.format_move(&mv), nodes)
    };
    // One node: the first move of the engine's order, with no iteration finished.
    let (mv, nodes) = searched("strong?nodes=1", &Limits::default());
    assert_eq!((mv, nodes), (pos.format_move(&first), 0));
    // A caller's own limit overrides the spec's budget.
    let (_, nodes) = searched("strong?nodes=1", &Limits::depth(1));
    assert!(nodes > 1, "{nodes}");
}
