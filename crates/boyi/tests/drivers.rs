//! The protocol drivers against the protocol servers: the built `boyi engine` binary serves a
//! Boyi player over each protocol, the match runner drives it as an external engine against
//! a built-in player, and every record must replay legally to the recorded result.

use boyi_arena::{MatchConfig, openings, run_match};
use boyi_core::Game;
use boyi_engines::{GameHistory, Limits};
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::Gomoku;
use boyi_games::jiu::Jiu;
use boyi_games::xiangqi::Xiangqi;
use boyi_protocol::PlayerSpec;
use boyi_protocol::driver::ExternalOptions;
use boyi_records::{Format, ReadOptions, read, replay, write};
use std::time::Duration;

/// Plays `games` games of the served `player` over `protocol` against `opponent` and checks
/// the records.
fn driven_match<G: boyi_engines::GamePlayers>(
    protocol: &str,
    player: &str,
    opponent: &str,
    games: usize,
    random_plies: usize,
    size: Option<usize>,
) {
    let bin = env!("CARGO_BIN_EXE_boyi");
    let size_arg = size.map(|s| format!(" --size {s}")).unwrap_or_default();
    let served = format!(
        "cmd:\"{bin} engine {} --protocol {protocol} --player {player}{size_arg}\"@{protocol}",
        G::NAME
    );
    let start = G::start(&G::Variant::default(), size).unwrap();
    let openings = if random_plies > 0 {
        openings::random_openings(&start, random_plies, games.div_ceil(2), 3)
    } else {
        vec![GameHistory::new(start)]
    };
    let cfg = MatchConfig {
        players: [
            PlayerSpec::parse(&served).unwrap(),
            PlayerSpec::parse(opponent).unwrap(),
        ],
        games,
        concurrency: 2,
        limits: Limits::depth(1),
        player_limits: [None, None],
        tc: None,
        openings,
        seed: 7,
        external: ExternalOptions {
            hang: Duration::from_secs(60),
            ..ExternalOptions::default()
        },
        time_margin: Duration::from_secs(1),
        max_plies: None,
        sprt: None,
        books: [None, None],
        opening_rule: boyi_arena::OpeningRule::Given,
    };
    let mut records = Vec::new();
    let (wdl, _) = run_match(&cfg, |g, _| records.push(g.record.clone())).unwrap();
    assert_eq!(wdl.games() as usize, games);
    for rec in records {
        let bytes = write(std::slice::from_ref(&rec), Format::Boyi).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let back = read(&bytes, Format::Boyi, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{protocol}: {e}\n{text}"))
            .remove(0)
            .record;
        let game = replay::<G>(&back).unwrap();
        let outcome = game
            .end
            .outcome()
            .unwrap_or_else(|| panic!("{protocol}: adjudicated game\n{text}"));
        let result = rec.result.as_ref().unwrap();
        assert_eq!(outcome.winner, result.winner(), "{text}");
        assert_eq!(outcome.reason, result.reason(), "{text}");
    }
}

#[test]
fn gomocup_serves_gomoku() {
    driven_match::<Gomoku>(
        "gomocup",
        "boyi:alphabeta?depth=1",
        "boyi:random",
        4,
        2,
        None,
    );
}

#[test]
fn sau_serves_gomoku_and_connect6() {
    driven_match::<Gomoku>("sau", "boyi:alphabeta?depth=1", "boyi:random", 2, 0, None);
    driven_match::<Connect6>("sau", "boyi:random", "boyi:alphabeta?depth=1", 2, 0, None);
}

#[test]
fn sau_serves_jiu() {
    // White places first, so the served engine told `new black` waits for white's placement;
    // battle moves carry jump paths, `ZZ` flights and `XX` square captures.
    driven_match::<Jiu>("sau", "boyi:random", "boyi:alphabeta?depth=1", 2, 0, None);
}

#[test]
fn uci_and_ucci_serve_any_one_word_game() {
    driven_match::<Gomoku>(
        "uci",
        "boyi:alphabeta?depth=1",
        "boyi:random",
        2,
        2,
        Some(9),
    );
    driven_match::<Gomoku>(
        "ucci",
        "boyi:alphabeta?depth=1",
        "boyi:random",
        2,
        2,
        Some(9),
    );
}

#[test]
fn uci_dialects_and_ucci_serve_xiangqi() {
    for protocol in ["uci", "uci-fsf", "ucci"] {
        driven_match::<Xiangqi>(
            protocol,
            "boyi:alphabeta?depth=1",
            "boyi:random",
            2,
            2,
            None,
        );
    }
}

/// Fairy-Stockfish, if installed, as the external engine (`uci-fsf`).
#[test]
#[ignore = "slow tier: needs fairy-stockfish installed"]
fn fairy_stockfish_plays_xiangqi() {
    let fsf = ["/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("fairy-stockfish is installed");
    let start = Xiangqi::start(&Default::default(), None).unwrap();
    let cfg = MatchConfig {
        players: [
            PlayerSpec::parse("boyi:alphabeta?depth=2").unwrap(),
            PlayerSpec::parse(&format!("cmd:\"{fsf}\"@uci-fsf")).unwrap(),
        ],
        games: 2,
        concurrency: 2,
        limits: Limits::depth(2),
        player_limits: [None, None],
        tc: None,
        openings: vec![GameHistory::new(start)],
        seed: 1,
        external: ExternalOptions::default(),
        time_margin: Duration::from_secs(1),
        max_plies: None,
        sprt: None,
        books: [None, None],
        opening_rule: boyi_arena::OpeningRule::Given,
    };
    let mut records = Vec::new();
    run_match(&cfg, |g, _| records.push(g.record.clone())).unwrap();
    for rec in records {
        let game = replay::<Xiangqi>(&rec).unwrap();
        let reason = rec.result.as_ref().unwrap().reason();
        assert!(
            game.end.outcome().is_some() || reason == boyi_core::Reason::Adjudication,
            "{rec:?}"
        );
    }
}
