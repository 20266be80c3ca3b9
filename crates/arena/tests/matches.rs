//! Matches on small boards and real engines: colours alternate, records replay, statistics
//! add up, and misbehaving engines (illegal move, crash, hang) lose by adjudication.

use boyi_arena::{MatchConfig, Sprt, Thinking, Verdict, opening_plies, openings, run_match};
use boyi_core::{Game, Reason, Side};
use boyi_engines::{GameHistory, GamePlayers, Limits};
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::Gomoku;
use boyi_games::xiangqi::Xiangqi;
use boyi_protocol::PlayerSpec;
use boyi_protocol::driver::ExternalOptions;
use boyi_records::check;
use std::time::Duration;

fn config<G: GamePlayers>(start: G, a: &str, b: &str, games: usize) -> MatchConfig<G> {
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

/// Gomoku on a 9×9 board: a two-ply search against random moves.
fn small_gomoku(a: &str, b: &str, games: usize) -> MatchConfig<Gomoku> {
    let start = Gomoku::start(&Default::default(), Some(9)).unwrap();
    config(start, a, b, games)
}

#[test]
fn perfect_play_never_loses_and_colours_alternate() {
    let mut cfg = small_gomoku("boyi:alphabeta?depth=2", "boyi:random", 8);
    let start = cfg.openings[0].start().clone();
    cfg.openings = openings::random_openings(&start, 1, 4, 5);
    let mut seen = Vec::new();
    let (wdl, decision) = run_match(&cfg, |g, _| seen.push(g.clone())).unwrap();
    assert_eq!(wdl.games(), 8);
    assert_eq!(wdl.losses, 0, "{wdl:?}");
    assert_eq!(decision, None);
    seen.sort_by_key(|g| g.index);
    for pair in seen.chunks(2) {
        assert_ne!(pair[0].a_side, pair[1].a_side);
        assert_eq!(
            pair[0].record.moves[0], pair[1].record.moves[0],
            "same opening"
        );
        assert_eq!(opening_plies(&pair[0].record), 1);
    }
    for g in &seen {
        // The record replays through the rules, and its result is theirs.
        let checked = check(&g.record).unwrap();
        let result = checked.record.result.unwrap();
        assert_eq!(result.reason(), Reason::Five, "{result}");
        let a = g.record.player(g.a_side);
        assert_eq!(a.spec.as_deref(), Some("boyi:alphabeta?depth=2"));
        assert_eq!(
            (g.record.size, &g.record.start),
            (Some(9), &None),
            "a rules' start of another size is said by its size"
        );
        let players_moves = g.record.moves.len() - 1;
        let timed = g
            .record
            .moves
            .iter()
            .filter(|m| m.time_ms.is_some())
            .count();
        assert_eq!(
            timed, players_moves,
            "every move of the players has its time"
        );
        assert_eq!(
            g.record.moves[0].time_ms, None,
            "the opening's move has none"
        );
    }
}

#[test]
fn sprt_stops_a_decided_match() {
    // Equal players: "A is 100 to 200 Elo stronger" is soon rejected. (A search that wins
    // every game gives the test no variance to decide on.)
    let mut cfg = small_gomoku("boyi:random", "boyi:random", 400);
    cfg.concurrency = 1;
    cfg.sprt = Some(Sprt::parse("100,200,0.05,0.05").unwrap());
    let (wdl, decision) = run_match(&cfg, |_, _| {}).unwrap();
    let decision = decision.unwrap();
    assert_eq!(decision.verdict, Verdict::H0);
    // Games a worker began before the verdict reached it may finish after it: they count in
    // the totals, but the verdict is the one reached at `at`.
    let sprt = cfg.sprt.as_ref().unwrap();
    assert_eq!(sprt.verdict(&decision.at), Verdict::H0);
    assert!(decision.at.games() <= wdl.games(), "{wdl:?} {decision:?}");
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
        ("echo bestmove z9", Reason::IllegalMove),
        ("exit 3", Reason::Crash),
        ("sleep 5", Reason::Time),
    ] {
        let start = Xiangqi::start(&Default::default(), None).unwrap();
        let cfg = config(start, &fake_uci(on_go), "boyi:random", 2);
        let mut games = Vec::new();
        let (wdl, _) = run_match(&cfg, |g, _| games.push(g.clone())).unwrap();
        assert_eq!(wdl.losses, 2, "{on_go}: {wdl:?}");
        for g in games {
            let result = g.record.result.as_ref().unwrap();
            assert_eq!(result.reason(), reason, "{on_go}: {result}");
            assert_eq!(result.winner(), Some(g.a_side.opponent()));
            assert!(matches!(g.a_side, Side::Black | Side::White));
        }
    }
}

#[test]
fn an_engine_that_cannot_start_fails_the_match() {
    let start = Xiangqi::start(&Default::default(), None).unwrap();
    let cfg = config(start, "cmd:\"/nonexistent/engine\"@uci", "boyi:random", 2);
    let err = run_match(&cfg, |_, _| {}).unwrap_err().to_string();
    assert!(err.contains("cannot start"), "{err}");
    // SAU cannot set up positions: an opening makes the match fail before any game counts.
    let start = Connect6::start(&Default::default(), None).unwrap();
    let mut cfg = config(
        start,
        "cmd:\"sh -c 'cat > /dev/null'\"@sau",
        "boyi:random",
        2,
    );
    let start = cfg.openings[0].start().clone();
    cfg.openings = openings::random_openings(&start, 2, 1, 5);
    let err = run_match(&cfg, |_, _| {}).unwrap_err().to_string();
    assert!(err.contains("no openings"), "{err}");
}

#[test]
fn the_report_gives_time_and_depth_per_move_and_the_load() {
    // A's thinking line names depth 7 before its (illegal) move; boyi:random names none.
    let on_go = "echo info depth 7 score cp 0 nodes 10; echo bestmove z9";
    let start = Xiangqi::start(&Default::default(), None).unwrap();
    let cfg = config(start, &fake_uci(on_go), "boyi:random", 2);
    let mut out = Vec::new();
    boyi_arena::report::run_and_report(&cfg, None, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    let line = |start: &str| {
        out.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no {start:?} line in {out}"))
            .to_string()
    };
    assert!(line("time per move: A ").ends_with(" ms"));
    assert_eq!(
        line("depth per move: "),
        "depth per move: A 7.0 (median 7), B -"
    );
    assert!(line("load average: ").contains(" at the start, "));
    assert!(
        out.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("W 0 D 0 L 2 ")
    );
}

#[test]
fn a_move_capped_by_max_time_is_stopped_whatever_the_player_makes_of_its_limits() {
    // An engine that answers only `stop`; the match has no limit but the cap.
    let waits = "cmd:\"sh -c 'while read l; do case $l in uci) echo uciok;; isready) echo readyok;; stop) echo bestmove b2;; esac; done'\"@uci";
    let start = Gomoku::start(&Default::default(), Some(9)).unwrap();
    let mut cfg = config(start, waits, "boyi:random", 1);
    cfg.limits = Limits {
        max_time: Some(Duration::from_millis(10)),
        ..Limits::default()
    };
    // Nothing but the cap ends the engine's search in time: it counts as hung only after
    // ten minutes.
    cfg.external.hang = Duration::from_secs(600);
    cfg.max_plies = Some(1);
    let mut games = Vec::new();
    run_match(&cfg, |g, _| games.push(g.clone())).unwrap();
    let record = &games[0].record;
    let result = record.result.as_ref().unwrap();
    let moves: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["b2"], "{result}");
    assert_eq!(result.reason(), Reason::Adjudication, "{result}");
    assert_eq!(result.winner(), None);
}

/// The median depth stands where a few moves lift the mean (an engine reporting its depth
/// limit once it sees a mate), takes the lower middle of an even count, and is absent when
/// no move reported a depth.
#[test]
fn median_depth_resists_outliers() {
    let ms = Duration::from_millis(5);
    let mut t = Thinking::default();
    assert_eq!((t.average_depth(), t.median_depth()), (None, None));
    for d in [10, 11, 245] {
        t.add(Thinking::one(ms, Some(d)));
    }
    t.add(Thinking::one(ms, None));
    assert_eq!(t.median_depth(), Some(11));
    assert!((t.average_depth().unwrap() - 88.67).abs() < 0.01);
    t.add(Thinking::one(ms, Some(300)));
    assert_eq!(t.median_depth(), Some(11));
    t.add(Thinking::one(ms, Some(3)));
    t.add(Thinking::one(ms, Some(4)));
    assert_eq!(t.median_depth(), Some(10));
}
