//! Swap1 and swap2 Gomoku games in the arena: the players place and choose the opening
//! stones, the record holds them as the opening, and a player without swap openings stops the
//! match.

use boyi_arena::{MatchConfig, OpeningRule, opening_plies, run_match};
use boyi_core::{Game, Side};
use boyi_engines::{GameHistory, Limits};
use boyi_games::gomoku::{Gomoku, Variant};
use boyi_protocol::PlayerSpec;
use boyi_protocol::driver::ExternalOptions;
use std::time::Duration;

fn config(a: &str, b: &str, games: usize, rule: OpeningRule) -> MatchConfig<Gomoku> {
    let start = Gomoku::start(&Variant::Freestyle, Some(15)).unwrap();
    MatchConfig {
        players: [PlayerSpec::parse(a).unwrap(), PlayerSpec::parse(b).unwrap()],
        games,
        concurrency: 1,
        limits: Limits {
            movetime: Some(Duration::from_millis(40)),
            ..Limits::default()
        },
        tc: None,
        openings: vec![GameHistory::new(start)],
        seed: 3,
        external: ExternalOptions::default(),
        time_margin: Duration::from_millis(1000),
        max_plies: None,
        sprt: None,
        opening_rule: rule,
        player_limits: [None, None],
        books: [None, None],
    }
}

#[test]
fn a_swap2_game_is_played_and_recorded() {
    let g = play_one(OpeningRule::Swap2);
    // Three stones, then the fourth, or two more and perhaps the sixth.
    let n = opening_plies(&g.record);
    assert!((3..=6).contains(&n), "{n}");
}

#[test]
fn a_swap1_game_is_played_and_recorded() {
    let g = play_one(OpeningRule::Swap1);
    // Three stones, then the fourth when the chooser stays white.
    let n = opening_plies(&g.record);
    assert!((3..=4).contains(&n), "{n}");
}

/// One game between two strong players under `rule`, checked for names and a replayable
/// record.
fn play_one(rule: OpeningRule) -> boyi_arena::GameResult {
    let cfg = config("boyi:strong?hash=4", "boyi:strong?hash=4,vct=0", 1, rule);
    let mut games = Vec::new();
    let (wdl, _) = run_match(&cfg, |g, _| games.push(g.clone())).unwrap();
    assert_eq!(wdl.games(), 1);
    let g = &games[0];
    assert!(g.record.moves.len() > opening_plies(&g.record));
    assert_eq!(g.record.name(g.a_side), "boyi:strong?hash=4");
    assert_eq!(g.record.name(!g.a_side), "boyi:strong?hash=4,vct=0");
    let replayed = boyi_records::replay::<Gomoku>(&g.record).unwrap();
    assert_eq!(
        replayed.end.outcome().map(|o| o.winner),
        g.record.result.as_ref().map(|r| r.winner())
    );
    assert!(matches!(g.a_side, Side::Black | Side::White));
    g.clone()
}

#[test]
fn a_player_without_swap_openings_stops_the_match() {
    for (rule, name) in [(OpeningRule::Swap1, "swap1"), (OpeningRule::Swap2, "swap2")] {
        let cfg = config("boyi:strong?hash=4", "boyi:seed001", 2, rule);
        let err = run_match(&cfg, |_, _| {}).unwrap_err().to_string();
        assert!(err.contains(name), "{err}");
    }
}
