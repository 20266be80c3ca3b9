use super::board::{Board6, WINDOW_VALUE};
use super::*;
use crate::player::{Limits, StopFlag};
use crate::search::Engine;
use boyi_core::rng::SplitMix64;
use boyi_core::{Game, Point, Side};
use boyi_games::connect6::Variant;

fn pos(moves: &str) -> Connect6 {
    let mut p = Connect6::start(&Variant::Fives, None).unwrap();
    p.play_list(moves).unwrap();
    p
}

fn strong_move(p: &Connect6, depth: u32) -> Move {
    let mut s = Engine(Strong6::new(Config::default()));
    s.choose(
        &GameHistory::new(p.clone()),
        &Limits::depth(depth),
        &StopFlag::new(),
        &mut |_| {},
    )
    .unwrap()
}

#[test]
fn incremental_windows_equal_a_rebuild_over_random_games() {
    let mut rng = SplitMix64::new(3);
    let other = [0, 2, 9, 50, 300, 600, 100_000];
    for size in [19, 6, 10] {
        let mut b = Board6::new(size);
        for round in 0..4 {
            // Values changed mid-game are summed afresh.
            b.set_values(if round % 2 == 0 { WINDOW_VALUE } else { other });
            assert!(b.consistent());
            let n = 10 + rng.below(30);
            for _ in 0..n {
                let empty: Vec<usize> = (0..b.points()).filter(|&p| b.is_empty(p)).collect();
                if empty.len() < 2 || b.winner().is_some() {
                    break;
                }
                let a = empty[rng.below(empty.len())];
                let c = empty[rng.below(empty.len())];
                b.play(a, (c != a).then_some(c));
                assert!(b.consistent());
            }
            for _ in 0..n / 2 {
                b.undo();
            }
            assert!(b.consistent());
        }
    }
}

#[test]
fn window_values_are_an_option() {
    let spec = |text: &str| strong(&BuiltinSpec::parse(text).unwrap());
    assert!(spec("strong?values=1/8/60/260/520,tempo=20").is_ok());
    for bad in [
        "1/8/60/260",
        "1/8/x/260/520",
        "1/8/60/60/520",
        "-1/8/60/260/520",
        "1/8/60/260/100000",
        "",
    ] {
        let err = spec(&format!("strong?values={bad}")).err().unwrap();
        assert!(err.to_string().contains("values="), "{bad}: {err}");
    }
}

#[test]
fn seed003_values_of_the_paper() {
    use seed003::*;
    let line = |s: &str| -> i32 {
        let cells: Vec<u8> = s
            .chars()
            .map(|c| match c {
                '●' => 1,
                '▲' => 2,
                _ => 0,
            })
            .collect();
        line_force(&cells, 1)
    };
    assert_eq!(line("○○●○○○○"), 2);
    assert_eq!(line("○○●●○○"), 40);
    assert_eq!(line("○○●●●○○"), 200);
    assert_eq!(line("▲●●●●○○"), 350);
    assert_eq!(line("○●●●●○○"), 600);
    assert_eq!(line("▲●●●●●○"), 1500);
    assert_eq!(line("○●●●●●○"), 2000);
    assert_eq!(line("●●●●●●"), 5000);
    // Mirror images score the same.
    assert_eq!(line("○○●●●●▲"), 350);
    assert_eq!(line("○○○○●○○"), 2);
    let mut s = Situation::default();
    assert_eq!(s.revalue(100, 100), 0.0);
    s.update(55, 45);
    assert_eq!(s.a, 0.5);
    s.update(90, 10);
    assert_eq!(s.a, 0.7);
    assert!((s.revalue(100, 100) - 40.0).abs() < 1e-9);
}

#[test]
fn strong_wins_at_once_and_blocks() {
    // Black j10..m10 (four) to move: completes six.
    let p = pos("j10,a1 a2,k10 l10,b1 b2,m10 n10,c1 c2");
    let mv = strong_move(&p, 2);
    let mut q = p.clone();
    q.play(&mv);
    assert_eq!(
        q.outcome().and_then(|o| o.winner),
        Some(Side::Black),
        "{mv:?}"
    );
    // White to move must hit black's four j10..m10.
    let p = pos("j10,a1 a2,k10 l10,b1 b2,m10 s19");
    let mv = strong_move(&p, 2);
    let hits = mv.stones().any(|s| {
        [
            Point::parse("h10", 19).unwrap(),
            Point::parse("i10", 19).unwrap(),
            Point::parse("n10", 19).unwrap(),
            Point::parse("o10", 19).unwrap(),
        ]
        .contains(&s)
    });
    assert!(hits, "{mv:?}");
}

fn engine_search(p: &Connect6, limits: &Limits, depths: &mut Vec<(u32, i32)>) -> search::Found {
    search_with(Config::default(), p, limits, depths)
}

fn search_with(
    config: Config,
    p: &Connect6,
    limits: &Limits,
    depths: &mut Vec<(u32, i32)>,
) -> search::Found {
    let mut e = Engine6::new(config);
    let mut b = Board6::from_game(p);
    e.search(&mut b, limits, &StopFlag::new(), &mut |f| {
        depths.push((f.depth, f.value))
    })
    .unwrap()
}

fn node_limit(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

const WON: i32 = crate::alphabeta::MATE - 1000;

#[test]
fn a_threat_chain_past_the_depth_is_seen() {
    // White to move wins by a chain of threats (j10 j12 first) that a depth-1 search sees
    // only if the blocks and threats past the depth are searched.
    let p = pos("l8,j9 l10,k6 n9,j8 k9,j6 m11");
    let f = engine_search(&p, &Limits::depth(1), &mut Vec::new());
    assert!(f.value > WON, "{}", f.value);
    // Black to move wins likewise at depth 2 (g15 i13 first); a quiet turn here loses.
    let p = pos("j12,k14 l12,h14 i14,j14 k13");
    let f = engine_search(&p, &Limits::depth(2), &mut Vec::new());
    assert!(f.value > WON, "{}", f.value);
}

#[test]
fn a_turn_that_allows_a_threat_chain_is_avoided() {
    // Here j6 m11 lost to white's threat chain; black's depth-3 choice must leave white no
    // win a depth-3 search (with threat sequences at its leaves) can find.
    let p = pos("l8,j9 l10,k6 n9,j8 k9");
    let mv = strong_move(&p, 3);
    let mut q = p.clone();
    q.play(&mv);
    let f = engine_search(&q, &Limits::depth(3), &mut Vec::new());
    assert!(f.value <= WON, "{mv:?} loses: {}", f.value);
}

#[test]
fn a_forced_turn_is_played_without_deepening() {
    // Black has two fives with one gap each (f3, f10): white's only turn fills both.
    let p = pos("s19,b3 i3,c3 d3,b10 i10,e3 g3,a17 c17,h3 c10,e17 g17,d10 e10,i17 k17,g10 h10");
    let f = engine_search(&p, &node_limit(200_000), &mut Vec::new());
    assert_eq!(f.depth, 1);
    let mv = strong_move(&p, 3);
    let f3 = Point::parse("f3", 19).unwrap();
    let f10 = Point::parse("f10", 19).unwrap();
    assert!(
        mv.stones().any(|s| s == f3) && mv.stones().any(|s| s == f10),
        "{mv:?}"
    );
}

#[test]
fn a_won_search_stops_and_a_lost_one_keeps_looking() {
    let mut depths = Vec::new();
    let p = pos("j12,k14 l12,h14 i14,j14 k13");
    let f = engine_search(&p, &node_limit(400_000), &mut depths);
    // A win proven at the root, or seen within the depth searched, ends the search long
    // before the node limit.
    assert!(f.value > WON, "{depths:?}");
    assert!(f.nodes < 100_000, "{}", f.nodes);
    let (depth, value) = *depths.last().unwrap();
    assert!(depth == 1 || search::won_within(value, depth), "{depths:?}");
    // White to move here is lost against the best defence found; the search goes on past
    // the depth that first shows the loss (without the root's threat screening, which
    // leaves a single turn here).
    let mut depths = Vec::new();
    let p = pos("a11,a14 k1,j11 p4,g1 q18,i10 i11,h11 i12,g10 h10");
    let config = Config {
        tss_turns: 0,
        ..Config::default()
    };
    let f = search_with(config, &p, &node_limit(60_000), &mut depths);
    let first_loss = depths.iter().find(|d| d.1 < -WON).unwrap().0;
    assert!(f.depth > first_loss, "{depths:?}");
}

#[test]
fn a_lost_position_still_blocks_what_it_can() {
    // Black has three fives with one gap each (f3, f10, f16): white cannot stop them all,
    // but its turn still fills two gaps rather than any legal pair.
    let p = pos(
        "s19,b3 i3,c3 d3,b10 i10,e3 g3,b16 i16,h3 c10,a1 c1,d10 e10,e1 g1,g10 h10,i1 k1,\
         c16 d16,m1 o1,e16 g16,q1 s1,h16 s18",
    );
    let mv = strong_move(&p, 2);
    let gaps = ["f3", "f10", "f16"].map(|g| Point::parse(g, 19).unwrap());
    assert_eq!(
        mv.stones().filter(|s| gaps.contains(s)).count(),
        2,
        "{mv:?}"
    );
}

/// Whether the side to move wins by double threats within `turns` own turns.
fn threat_win(p: &Connect6, turns: u32) -> bool {
    let mut b = Board6::from_game(p);
    threats::Tss::new(0).wins(&mut b, turns, 100_000)
}

/// Whether, after `moves`, the side to move wins by double threats within `turns`.
fn threat_win_after(p: &Connect6, moves: &str, turns: u32) -> bool {
    let mut q = p.clone();
    q.play_list(moves).unwrap();
    threat_win(&q, turns)
}

/// Asserts that after the strong engine's turn (searched to `depth`) the opponent has no
/// double-threat win within `turns`.
fn assert_strong_leaves_no_threat_win(p: &Connect6, depth: u32, turns: u32) {
    let mv = strong_move(p, depth);
    let mut q = p.clone();
    q.play(&mv);
    assert!(!threat_win(&q, turns), "{mv:?}");
}

#[test]
fn two_separate_threes_grown_to_fours_are_a_double_threat() {
    // Black must block white's four; after n7 n10 (as played) white's g11 j8 grows the
    // column-g and row-8 threes into threats no pair of stones answers.
    let p = pos(
        "i10,k8 k12,i9 k11,i11 j10,j9 k9,j7 l9,f9 h9,g8 g9,f8 i6,l11 m10,n9 o12,l8 l10,\
         l7 l12,g10 j13,g7 i14,k10 m8",
    );
    assert!(threat_win_after(&p, "n7 n10", 1));
    assert_strong_leaves_no_threat_win(&p, 2, 2);
}

#[test]
fn a_threat_sequence_after_a_quiet_turn_is_seen_at_the_leaves() {
    // White wins here by a chain of threats (f9 h9 first); a depth-1 search (trusting
    // its quiescence blocks) sees it only through the threat-space search at its leaves.
    let text = "19/19/19/19/19/19/19/8o10/8xo9/9xx8/9oo8/10x8/19/19/19/19/19/19/19 w";
    let p = Connect6::from_text(&Variant::Fives, text).unwrap();
    let trusting = Config {
        quiet_trust: true,
        ..Config::default()
    };
    let f = search_with(trusting, &p, &Limits::depth(1), &mut Vec::new());
    assert!(f.value > WON, "{}", f.value);
    let config = Config {
        leaf_tss: 0,
        ..trusting
    };
    let f = search_with(config, &p, &Limits::depth(1), &mut Vec::new());
    assert!(f.value <= WON, "{}", f.value);
}

#[test]
fn a_threat_turn_crowded_out_of_the_width_is_still_searched() {
    // White to move. i7 j7 loses: black's i11 i13 makes a five with two gaps in column i,
    // and after either block (i9 with i14 or i15) black wins by double threats (f9 h11
    // first). Black's winning h12 j12 two turns later ranks below twelve positional pairs,
    // so without places kept for threat-making turns a depth-4 search misses it and plays
    // i7 j7 as a win. (The root's threat-space search, off here, sees that black's first
    // turn is a block with a threat beside it.)
    let p = pos("i10,k8 k10,g10 k12,k7 k9,h9 k6,j11 l9,i8 i12");
    let losing = p.parse_move("i7 j7").unwrap();
    let unscreened = Config {
        tss_turns: 0,
        ..Config::default()
    };
    let old = Config {
        threat_slots: 0,
        ..unscreened
    };
    let f = search_with(old, &p, &Limits::depth(4), &mut Vec::new());
    let mut e = Engine6::new(Config::default());
    let mut q = p.clone();
    q.play(&losing);
    q.play_list("i11 i13").unwrap();
    let mut b = Board6::from_game(&q);
    let mut blocks = Vec::new();
    e.generate(&mut b, &mut blocks);
    assert_eq!(blocks.len(), 2);
    for m in blocks {
        b.play(m.a as usize, m.second());
        assert!(threats::Tss::new(0).wins(&mut b, 4, 100_000));
        b.undo();
    }
    let stones = |m: &Move| {
        let mut v: Vec<Point> = m.stones().collect();
        v.sort_unstable();
        v
    };
    let pair_stones = |m: &search::Pair| {
        let mut v = vec![Point::from_index(m.a as usize, 19)];
        v.extend(m.second().map(|c| Point::from_index(c, 19)));
        v.sort_unstable();
        v
    };
    assert_eq!(pair_stones(&f.best), stones(&losing));
    for config in [
        unscreened,
        Config {
            threat_slots: 0,
            ..Config::default()
        },
    ] {
        let f = search_with(config, &p, &Limits::depth(4), &mut Vec::new());
        assert_ne!(pair_stones(&f.best), stones(&losing));
    }
}

#[test]
fn threat_pairs_judged_without_playing_equal_playing_them() {
    use super::gaps::{Gaps, gaps_blockable, pair_effect};
    use super::threats::{LiveWindows, threat_candidates};
    let mut rng = SplitMix64::new(11);
    let mut live = LiveWindows::default();
    let (mut gaps, mut listed) = (Gaps::empty(), Gaps::empty());
    let mut cands = Vec::new();
    let mut checked = 0;
    for _ in 0..40 {
        let mut b = Board6::new(19);
        for _ in 0..12 {
            // Stones near the centre, so windows fill up.
            let near: Vec<usize> = (0..b.points())
                .filter(|&p| b.is_empty(p) && (p % 19).abs_diff(9) < 4 && (p / 19).abs_diff(9) < 4)
                .collect();
            let a = near[rng.below(near.len())];
            let c = near[rng.below(near.len())];
            b.play(a, (c != a).then_some(c));
            let me = b.side();
            if b.winner().is_some() || b.threats(me) > 0 || b.threats(!me) > 0 {
                break;
            }
            threat_candidates(&b, me, &mut cands);
            live.fill(&b, me);
            for &(x, y) in &cands {
                let gain = pair_effect(&b, me, x, y, &mut gaps);
                // The threat search's reading, from the live windows listed by point.
                live.after_pair(x, y, &mut listed);
                assert_eq!(listed.iter().count(), gaps.iter().count());
                assert_eq!(gaps_blockable(&listed), gaps_blockable(&gaps));
                let before = b.evaluate();
                b.play(x as usize, Some(y as usize));
                assert_eq!(before + gain, -b.evaluate());
                assert_eq!(gaps.iter().count() as u32, b.threats(me));
                let played = Gaps::through(&b, me, &[x as usize, y as usize]);
                assert_eq!(gaps_blockable(&gaps), gaps_blockable(&played));
                b.undo();
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
}

#[test]
fn a_threat_sequence_may_open_with_a_block() {
    // White's h17 i16 made a four black must block; the block with a free stone (g18 h14
    // as played) starts black's win, so white's turn lost.
    let p = pos("j11,h10 l13,h12 j13,j15 k14,j12 m12,j9 l12,k11 l11,i11 m10,i13 k10,h17 i16");
    let mut b = Board6::from_game(&p);
    assert!(b.threats(Side::White) > 0);
    assert!(threats::Tss::new(0).wins(&mut b, 3, 100_000));
}

#[test]
fn the_free_stone_beside_a_block_breaks_the_next_sequence() {
    // White must block black's four at q10 or r10; only a free stone at n12 leaves black
    // no double-threat win (q10 r10 loses in two turns).
    let p = pos(
        "j10,h12 j11,j8 k11,i9 i10,i8 k12,g8 h9,f7 k9,k10 l10,l8 m8,k8 m7,h7 j9,h13 i12,\
         g14 h11,f12 g12,e12 i14,h14 h15,g6 h17,f5 j7,m10 n9,l11 o9,l7 o10,k6 p11,n10 p10",
    );
    assert!(threat_win_after(&p, "q10 r10", 2));
    assert_strong_leaves_no_threat_win(&p, 2, 4);
}

#[test]
fn when_every_turn_tried_loses_the_refuting_lines_suggest_more() {
    // Black threatens a win no pair of stones answers (l10 m11); the pairs built from its
    // line all lose to longer sequences, and the points those pass through hold a defence.
    let p = pos("j11,h10 l13,h12 j13,j15 k14,j12 m12,j9 l12,k11 l11,i11 m10,i13 k10");
    assert_strong_leaves_no_threat_win(&p, 2, 4);
}

#[test]
fn a_win_the_opponent_threatens_lowers_a_quiet_leaf() {
    // After n7 n10 white's g11 j8 wins: with black to move instead, the quiet leaf sees
    // the win white threatens.
    let mut p = pos(
        "i10,k8 k12,i9 k11,i11 j10,j9 k9,j7 l9,f9 h9,g8 g9,f8 i6,l11 m10,n9 o12,l8 l10,\
         l7 l12,g10 j13,g7 i14,k10 m8",
    );
    p.play_list("n7 n10").unwrap();
    let mut b = Board6::from_game(&p);
    // (Black's own threat sequences at the leaf are left out: it has one.)
    let mut checking = search::Engine6::new(Config {
        pending: 300,
        leaf_tss: 0,
        ..Config::default()
    });
    let mut blind = search::Engine6::new(Config {
        pending: 0,
        leaf_tss: 0,
        ..Config::default()
    });
    b.set_side(Side::Black);
    assert!(checking.opponent_threatens_win(&mut b));
    assert!(!blind.opponent_threatens_win(&mut b));
    // The leaf stands 300 lower for it.
    let bound = crate::alphabeta::MATE + 1;
    let seen = checking.quiesce(&mut b, 1, -bound, bound, 0);
    let unseen = blind.quiesce(&mut b, 1, -bound, bound, 0);
    assert_eq!(unseen - seen, 300, "{unseen} {seen}");
    let mut early = Board6::from_game(&pos("i10,k8 k12,i9 k11"));
    assert!(!checking.opponent_threatens_win(&mut early));
}

#[test]
fn a_shared_line_tells_the_windows_holding_both_points() {
    use super::gaps::Shared;
    let b = Board6::new(19);
    let mut both = 0;
    for p in 0..b.points() as u16 {
        for q in (0..b.points() as u16).filter(|&q| q != p) {
            let shared = Shared::of(&b, p, q);
            let windows = b.windows_of(p as usize);
            let holding = |w: &&u32| b.window_cells(**w).contains(&q);
            // Near a corner a line may be too short for any window to hold both.
            assert!(
                shared.is_some() || !windows.iter().any(|w| holding(&w)),
                "{p} {q}"
            );
            if let Some(s) = shared {
                for w in windows {
                    assert_eq!(s.in_window(&b, *w), holding(&w), "{p} {q} {w}");
                    both += usize::from(holding(&w));
                }
            }
        }
    }
    assert!(both > 10_000);
}

#[test]
fn the_option_table_defaults_are_the_engine_defaults() {
    let defaults = config(&PLAYERS[0].parse_text("strong").unwrap()).unwrap();
    assert_eq!(format!("{defaults:?}"), format!("{:?}", Config::default()));
    let c = config(
        &PLAYERS[0]
            .parse_text("strong?quiet=3,tslots=0,values=1/2/3/4/5")
            .unwrap(),
    )
    .unwrap();
    assert_eq!((c.quiet_turns, c.threat_slots), (3, 0));
    assert_eq!(c.values[1..6], [1, 2, 3, 4, 5]);
    assert!(config(&PLAYERS[0].parse_text("strong?values=5/4/3/2/1").unwrap()).is_err());
}

#[test]
fn the_table_keeps_every_turn_of_the_largest_board() {
    use crate::search::tt::TtMove;
    use search::{NONE, Stored};
    let last = (boyi_core::point::MAX_SIZE * boyi_core::point::MAX_SIZE - 1) as u16;
    for turn in [
        Stored(0, NONE),
        Stored(last, NONE),
        Stored(0, 1),
        Stored(last - 1, last),
    ] {
        assert_ne!(turn.to_bits(), 0, "{turn:?} reads as no turn");
        assert_eq!(Stored::from_bits(turn.to_bits()), turn);
    }
    assert_eq!(Stored::default().to_bits(), 0);
}
