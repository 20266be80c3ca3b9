use super::board::Board6;
use super::*;
use boyi_core::rng::SplitMix64;
use boyi_core::{Point, Side};
use boyi_games::connect6::Variant;

fn pos(moves: &str) -> Connect6 {
    let mut p = Connect6::start(&Variant::Fives, None).unwrap();
    p.play_list(moves).unwrap();
    p
}

fn strong_move(p: &Connect6, depth: u32) -> Move {
    let mut s = Strong6::new(Config::default());
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
    for size in [19, 6, 10] {
        let mut b = Board6::new(size);
        for _ in 0..4 {
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
