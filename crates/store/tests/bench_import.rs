//! Benchmark (slow tier): import 10,000 games and search them by position. Prints timings;
//! asserts only on counts. Run with
//! `cargo test -p boyi-store --test bench_import -- --ignored --nocapture`.

use boyi_core::Game;
use boyi_core::rng::SplitMix64;
use boyi_games::GameKind;
use boyi_games::gomoku::Gomoku;
use boyi_records::{GameRecord, check};
use boyi_store::{Query, Store};
use std::time::Instant;

const GAMES: usize = 10_000;
const OPENINGS: [&str; 4] = ["h8,i9", "h8,i8", "h8,j10", "h8,g9"];

/// A random game of up to 60 plies after one of four openings.
fn random_game(rng: &mut SplitMix64, i: usize) -> GameRecord {
    let mut pos = Gomoku::start(&Default::default(), None).unwrap();
    let mut rec = GameRecord::new(GameKind::Gomoku);
    rec.set_name(boyi_core::Side::Black, format!("player{}", i % 50));
    rec.set_name(
        boyi_core::Side::White,
        format!("player{}", (i * 7 + 3) % 50),
    );
    rec.date = Some(boyi_records::Date::new(2024, (i % 12 + 1) as u8, (i % 28 + 1) as u8).unwrap());
    pos.play_list(OPENINGS[i % OPENINGS.len()]).unwrap();
    for m in OPENINGS[i % OPENINGS.len()].split(',') {
        rec.push(m);
    }
    let plies = 10 + rng.below(50);
    while rec.moves.len() < plies && pos.outcome().is_none() {
        let moves: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| pos.format_move(m) != "pass")
            .collect();
        let mv = moves[rng.below(moves.len())];
        rec.push(pos.format_move(&mv));
        pos.play(&mv);
    }
    rec
}

#[test]
#[ignore = "slow tier"]
fn import_ten_thousand_games_and_search_by_position() {
    let mut rng = SplitMix64::new(2024);
    let t = Instant::now();
    let records: Vec<GameRecord> = (0..GAMES).map(|i| random_game(&mut rng, i)).collect();
    let generate = t.elapsed();
    let t = Instant::now();
    let checked: Vec<_> = records.iter().map(|r| check(r).unwrap()).collect();
    let replay = t.elapsed();
    let plies: usize = checked.iter().map(|c| c.record.moves.len()).sum();

    let dir = std::env::temp_dir().join(format!("boyi-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bench.sqlite");
    let mut store = Store::open(&path).unwrap();
    let t = Instant::now();
    store.insert_many(&checked, "import").unwrap();
    let import = t.elapsed();
    assert_eq!(store.count().unwrap(), GAMES);

    let mut opening = Gomoku::start(&Default::default(), None).unwrap();
    opening.play_list(OPENINGS[0]).unwrap();
    let t = Instant::now();
    let hits = store
        .search_position(opening.hash(), &Query::default())
        .unwrap();
    let search_common = t.elapsed();
    assert_eq!(hits.len(), GAMES / OPENINGS.len());

    let deep = &checked[17];
    let t = Instant::now();
    let runs = 1000;
    let mut found = 0;
    for k in 0..runs {
        let c = &checked[k * 7 % GAMES];
        let ply = c.hashes.len() - 1;
        found += store
            .search_position(
                c.hashes[ply],
                &Query {
                    limit: Some(50),
                    ..Query::default()
                },
            )
            .unwrap()
            .len();
    }
    let search_rare = t.elapsed();
    assert!(found >= runs);
    let t = Instant::now();
    let by_player = store
        .search(&Query {
            player: Some("player7".into()),
            ..Query::default()
        })
        .unwrap()
        .len();
    let search_player = t.elapsed();
    let size = std::fs::metadata(&path).unwrap().len()
        + std::fs::metadata(dir.join("bench.sqlite-wal"))
            .map(|m| m.len())
            .unwrap_or(0);
    println!("games {GAMES}, plies {plies}, positions {}", plies + GAMES);
    println!(
        "generate {:.3}s, replay+hash {:.3}s",
        generate.as_secs_f64(),
        replay.as_secs_f64()
    );
    println!(
        "import (one transaction) {:.3}s = {:.0} games/s",
        import.as_secs_f64(),
        GAMES as f64 / import.as_secs_f64()
    );
    println!(
        "position search, {} hits: {:.3} ms",
        hits.len(),
        search_common.as_secs_f64() * 1e3
    );
    println!(
        "position search, final positions, {runs} queries: {:.3} ms each",
        search_rare.as_secs_f64() * 1e3 / runs as f64
    );
    println!(
        "player search, {by_player} hits: {:.3} ms",
        search_player.as_secs_f64() * 1e3
    );
    println!(
        "database size {:.1} MB (game {} has {} plies)",
        size as f64 / 1e6,
        deep.record.moves.len(),
        deep.record.moves.len()
    );
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}
