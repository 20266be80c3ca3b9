//! Matches on tic-tac-toe: colours alternate, records replay, statistics add up, and misbehaving
//! engines (illegal move, crash, hang) lose by adjudication.

use boyi_arena::{MatchConfig, PlayerSpec, Record, Sprt, Verdict, openings, run_match};
use boyi_core::{Game, NoVariant};
use boyi_engines::tictactoe::TicTacToe;
use boyi_engines::{GameHistory, Limits};
use boyi_protocol::driver::ExternalOptions;
use std::time::Duration;

fn config(a: &str, b: &str, games: usize) -> MatchConfig<TicTacToe> {
    let start = TicTacToe::start(&NoVariant, None).unwrap();
    MatchConfig {
        players: [PlayerSpec::parse(a).unwrap(), PlayerSpec::parse(b).unwrap()],
        games,
        concurrency: 2,
        limits: Limits::default(),
        player_limits: [None, None],
        tc: None,
        openings: vec![GameHistory::new(start)],
        seed: 1,
        external: ExternalOptions {
            hang: Duration::from_millis(300),
            handshake: Duration::from_secs(2),
            ..ExternalOptions::default()
        },
        time_margin: Duration::from_millis(100),
        max_plies: None,
        sprt: None,
        books: [None, None],
        opening_rule: boyi_arena::OpeningRule::Given,
    }
}

#[test]
fn perfect_play_never_loses_and_colours_alternate() {
    let mut cfg = config("boyi:alphabeta?depth=9", "boyi:random", 8);
    let start = cfg.openings[0].start().clone();
    cfg.openings = openings::random_openings(&start, 1, 4, 5);
    let mut seen = Vec::new();
    let (wdl, verdict) = run_match(&cfg, |g, _| seen.push(g.clone())).unwrap();
    assert_eq!(wdl.games(), 8);
    assert_eq!(wdl.losses, 0, "{wdl:?}");
    assert_eq!(verdict, None);
    seen.sort_by_key(|g| g.index);
    for pair in seen.chunks(2) {
        assert_ne!(pair[0].a_side, pair[1].a_side);
        assert_eq!(
            pair[0].record.moves[0], pair[1].record.moves[0],
            "same opening"
        );
        assert_eq!(pair[0].record.opening, 1);
    }
    for g in &seen {
        let text = g.record.to_text::<TicTacToe>();
        let replayed = Record::parse::<TicTacToe>(&text)
            .unwrap()
            .replay::<TicTacToe>()
            .unwrap();
        assert_eq!(
            replayed.current().outcome().map(|o| o.winner),
            Some(g.record.winner)
        );
        let a = &g.record.players[g.a_side.index()];
        assert_eq!(a, "boyi:alphabeta?depth=9");
    }
}

#[test]
fn sprt_stops_a_decided_match() {
    let mut cfg = config("boyi:alphabeta?depth=9", "boyi:random", 400);
    cfg.concurrency = 1;
    cfg.sprt = Some(Sprt::parse("0,50,0.05,0.05").unwrap());
    let (wdl, verdict) = run_match(&cfg, |_, _| {}).unwrap();
    assert_eq!(verdict, Some(Verdict::H1));
    assert!(wdl.games() < 400, "{wdl:?}");
}

fn fake_uci(on_go: &str) -> String {
    format!(
        "cmd:\"sh -c 'while read l; do case $l in uci) echo uciok;; isready) echo readyok;; go*) {on_go};; esac; done'\"@uci"
    )
}

#[test]
fn misbehaving_engines_lose_by_adjudication() {
    for (on_go, reason) in [
        ("echo bestmove z9", "illegal move \"z9\""),
        ("exit 3", "crash"),
        ("sleep 5", "loss on time (no answer)"),
    ] {
        let cfg = config(&fake_uci(on_go), "boyi:random", 2);
        let mut games = Vec::new();
        let (wdl, _) = run_match(&cfg, |g, _| games.push(g.clone())).unwrap();
        assert_eq!(wdl.losses, 2, "{on_go}: {wdl:?}");
        for g in games {
            assert!(
                g.record.reason.starts_with(reason),
                "{on_go}: {}",
                g.record.reason
            );
            assert_eq!(g.record.winner, Some(g.a_side.opponent()));
        }
    }
}

#[test]
fn an_engine_that_cannot_start_fails_the_match() {
    let cfg = config("cmd:\"/nonexistent/engine\"@uci", "boyi:random", 2);
    let err = run_match(&cfg, |_, _| {}).unwrap_err().to_string();
    assert!(err.contains("cannot start"), "{err}");
    // SAU cannot set up positions: an opening makes the match fail before any game counts.
    let mut cfg = config("cmd:\"sh -c 'cat > /dev/null'\"@sau", "boyi:random", 2);
    let start = cfg.openings[0].start().clone();
    cfg.openings = openings::random_openings(&start, 2, 1, 5);
    let err = run_match(&cfg, |_, _| {}).unwrap_err().to_string();
    assert!(err.contains("no openings"), "{err}");
}
