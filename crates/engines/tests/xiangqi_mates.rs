//! The strong Xiangqi engine solves every position of the mate suite (mate in 1 to 4,
//! verified by Fairy-Stockfish) within a node budget: it reports a mate no longer than the
//! suite's, and its move is legal.

use boyi_core::{Game, NoVariant};
use boyi_engines::{BuildContext, GameHistory, Info, Limits, Score, StopFlag, build};
use boyi_games::xiangqi::Xiangqi;

const SUITE: &str = include_str!("data/xiangqi_mates.txt");
const NODES: u64 = 1_000_000;

#[test]
fn strong_solves_the_mate_suite() {
    let mut failures = Vec::new();
    let mut count = 0;
    for line in SUITE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let parts: Vec<&str> = line.split(';').collect();
        let (fen, n): (&str, i32) = (parts[0], parts[1].parse().unwrap());
        let pos = Xiangqi::from_text(&NoVariant, fen).unwrap();
        let mut player = build::<Xiangqi>("strong?hash=16", BuildContext::default()).unwrap();
        let limits = Limits {
            nodes: Some(NODES),
            ..Limits::default()
        };
        let mut score = None;
        let mv = player
            .choose(
                &GameHistory::new(pos.clone()),
                &limits,
                &StopFlag::new(),
                &mut |i: Info| score = i.score.or(score),
            )
            .unwrap();
        assert!(pos.is_legal(&mv));
        count += 1;
        match score {
            Some(Score::Mate(k)) if (1..=n).contains(&k) => {}
            other => failures.push(format!("{fen}: mate {n} expected, got {other:?}")),
        }
    }
    assert!(count >= 30, "the suite has {count} positions");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
