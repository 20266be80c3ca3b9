//! Jiu records: Boyi text and the public dataset text, round trips of complete random games,
//! replay errors, detection, and the committed samples.

use boyi_core::rng::SplitMix64;
use boyi_core::{Game, Side};
use boyi_games::GameKind;
use boyi_games::jiu::{Jiu, JiuMove};
use boyi_records::{Checked, Format, GameRecord, ReadOptions, read, write};
use std::path::{Path, PathBuf};

/// What a random game went through.
#[derive(Debug, Default)]
struct Seen {
    jumps: usize,
    flights: usize,
    squares: usize,
}

fn captured(mv: &JiuMove) -> usize {
    mv.jumped().count() + mv.captures().count()
}

/// A complete random game: uniform placements; in battle, half the time the move taking
/// most, else a uniform one, so that games end within a few hundred plies.
fn random_game(seed: u64) -> (GameRecord, Seen) {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Jiu::new();
    let mut rec = GameRecord::new(GameKind::Jiu);
    rec.variant = Some("standard".into());
    rec.set_name(Side::Black, "random black");
    rec.set_name(Side::White, "random white");
    rec.date = Some("2025-01-01".parse().unwrap());
    rec.event = format!("random game {seed}");
    let mut seen = Seen::default();
    let mut moves = Vec::new();
    while pos.outcome().is_none() && rec.moves.len() < 3000 {
        moves.clear();
        pos.generate_moves(&mut moves);
        let most = moves.iter().map(captured).max().unwrap_or(0);
        let mv = if most > 0 && rng.below(2) == 0 {
            let best: Vec<&JiuMove> = moves.iter().filter(|m| captured(m) == most).collect();
            *best[rng.below(best.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        seen.jumps += usize::from(mv.jumped().next().is_some());
        seen.flights += usize::from(mv.is_flying());
        seen.squares += usize::from(mv.captures().next().is_some());
        rec.push(pos.format_move(&mv));
        pos.play(&mv);
    }
    rec.result = pos.outcome().map(Into::into);
    (rec, seen)
}

/// The first seed from `from` whose game ends and has jumps, flights and square captures.
fn varied_game(from: u64) -> GameRecord {
    for seed in from..from + 64 {
        let (rec, seen) = random_game(seed);
        if rec.result.is_some() && seen.jumps > 0 && seen.flights > 0 && seen.squares > 0 {
            return rec;
        }
    }
    panic!("no varied random game among 64 seeds");
}

fn round_trip(records: &[GameRecord], format: Format) -> (Vec<Checked>, Vec<u8>) {
    let bytes = write(records, format).unwrap();
    let again = read(&bytes, format, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{format:?}: {e}\n{}", String::from_utf8_lossy(&bytes)));
    let records: Vec<GameRecord> = again.iter().map(|c| c.record.clone()).collect();
    assert_eq!(
        write(&records, format).unwrap(),
        bytes,
        "{format:?} is stable"
    );
    (again, bytes)
}

#[test]
fn complete_random_games_round_trip_in_both_formats() {
    let games = [varied_game(1), varied_game(100)];
    let checked: Vec<Checked> = games
        .iter()
        .map(|r| boyi_records::check(r).unwrap())
        .collect();
    for (rec, c) in games.iter().zip(&checked) {
        assert_eq!(c.record, *rec, "a generated record is already canonical");
        assert!(rec.moves.len() > 196 && rec.moves[196].text.contains('-'));
    }
    let (boyi, _) = round_trip(&games, Format::Boyi);
    let (jiu, bytes) = round_trip(&games, Format::Jiu);
    for i in 0..games.len() {
        assert_eq!(boyi[i].record, games[i]);
        assert_eq!(jiu[i].record, games[i]);
        assert_eq!(jiu[i].hashes, checked[i].hashes);
        assert_eq!(jiu[i].final_text, checked[i].final_text);
    }
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with("(;GM[Jiu]PB[random black]PW[random white]DT[2025-01-01]"));
    for part in ["Stage[1]:W(", "Stage[2]:B(", ",TC:", ",FC:", "-O("] {
        assert!(text.contains(part), "{part} missing");
    }
}

#[test]
fn boyi_text_keeps_times_and_comments() {
    let mut rec = varied_game(1);
    rec.moves[0].time_ms = Some(1250);
    rec.moves[200].comment = Some("the battle goes on".into());
    rec.round = "3".into();
    let (again, _) = round_trip(std::slice::from_ref(&rec), Format::Boyi);
    assert_eq!(again[0].record, rec);
}

#[test]
fn dataset_text_with_and_without_header() {
    let text = "(;GM[Jiu]PB[Tsering]PW[Dorje]RE[W+R]DT[2019-08-12]PC[Lhasa]RO[2])\n\
                Stage[1]:W(G,7);B(H,8);W(G,8);B(H,7);\n\
                Stage[1]: W(H,8); B(G,7)\n";
    let recs = read(text.as_bytes(), Format::Jiu, &ReadOptions::default()).unwrap();
    assert_eq!(recs.len(), 2);
    let first = &recs[0].record;
    assert_eq!(
        (first.name(Side::Black), first.name(Side::White)),
        ("Tsering", "Dorje")
    );
    assert_eq!(first.date.unwrap().to_string(), "2019-08-12");
    assert_eq!(first.site, "Lhasa");
    let result = first.result.as_ref().unwrap();
    assert_eq!(
        (result.winner(), result.text().as_str()),
        (Some(Side::White), "resignation")
    );
    assert_eq!(first.round, "2");
    let moves: Vec<&str> = first.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["g7", "h8", "g8", "h7"]);
    assert_eq!(recs[1].record.moves.len(), 2);
    assert_eq!(recs[1].record.name(Side::Black), "");
    let (again, _) = round_trip(
        &recs.iter().map(|c| c.record.clone()).collect::<Vec<_>>(),
        Format::Jiu,
    );
    assert_eq!(again[0].record, *first);
}

fn error(text: &str) -> String {
    read(text.as_bytes(), Format::Jiu, &ReadOptions::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn replay_errors_name_the_ply_and_the_reason() {
    let e = error("Stage[1]:W(G,7);B(H,8);W(G,7)");
    assert!(e.contains("ply 3") && e.contains("W(G,7)"), "{e}");
    let e = error("Stage[1]:W(G,7);W(H,8)");
    assert!(e.contains("ply 2") && e.contains("expected B"), "{e}");
    let e = error("Stage[1]:W(G,7);Stage[2]:B(H,7)-O(G,7)");
    assert!(e.contains("Stage[2]"), "{e}");
    let e = error("(;GM[4])Stage[1]:W(G,7)");
    assert!(e.contains("GM[Jiu]"), "{e}");
    let e = error("(;PB[x]\nW(G,7)");
    assert!(e.contains("header"), "{e}");
    let e = error("(;PB[x])W(G,7)");
    assert!(e.contains("Stage[1]:"), "{e}");
    // A battle move that breaks the rules, in a complete game's text.
    let rec = varied_game(1);
    let text = String::from_utf8(write(std::slice::from_ref(&rec), Format::Jiu).unwrap()).unwrap();
    let (head, battle) = text.split_once("Stage[2]:").unwrap();
    let bad = format!("{head}Stage[2]:B(A,1)-O(A,2);{battle}");
    let e = error(&bad);
    assert!(e.contains("ply 197"), "{e}");
    // Boyi text reports the same way, with the move text.
    let mut broken = rec.clone();
    broken.moves[198].text = "a1-a2".into();
    let bytes = boyi_records::boyi_text::write(&[broken]);
    let e = read(bytes.as_bytes(), Format::Boyi, &ReadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("ply 199 (\"a1-a2\")"), "{e}");
}

#[test]
fn other_games_and_set_up_starts_are_not_written_as_dataset_text() {
    let mut gomoku = GameRecord::new(GameKind::Gomoku);
    gomoku.push("h8");
    let e = write(&[gomoku], Format::Jiu).unwrap_err().to_string();
    assert!(e.contains("jiu games"), "{e}");
    let mut set_up = GameRecord::new(GameKind::Jiu);
    let mut placed = Jiu::new();
    placed.play_list("h8").unwrap();
    set_up.start = Some(placed.to_text());
    let e = write(&[set_up], Format::Jiu).unwrap_err().to_string();
    assert!(e.contains("empty board"), "{e}");
}

#[test]
fn detection_by_extension_and_content() {
    let detect = |name: &str, text: &str| Format::detect(Path::new(name), text.as_bytes()).ok();
    assert_eq!(detect("a.jiu", ""), Some(Format::Jiu));
    assert_eq!(detect("a.txt", "Stage[1]:W(G,7)"), Some(Format::Jiu));
    assert_eq!(
        detect("a", "(;GM[Jiu]PB[x])\nStage[1]:W(G,7)"),
        Some(Format::Jiu)
    );
    assert_eq!(
        detect("a", "# notes\n(;PW[y]) Stage[1]:"),
        Some(Format::Jiu)
    );
    assert_eq!(detect("a", "(;GM[4]SZ[15];B[hh])"), Some(Format::Sgf));
    assert_eq!(detect("a", "[Game \"jiu\"]\n\n1. g7\n"), Some(Format::Boyi));
    assert_eq!(Format::parse("jiu").unwrap(), Format::Jiu);
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The committed samples: one complete random game of Boyi's in each Jiu format.
#[test]
fn samples_agree() {
    let read_sample = |name: &str| {
        boyi_records::read_file(&data_dir().join(name), &ReadOptions::default()).unwrap()
    };
    let boyi = read_sample("jiu_random.boyi");
    let jiu = read_sample("jiu_random.jiu");
    assert_eq!((boyi.len(), jiu.len()), (1, 1));
    for (b, j) in boyi.iter().zip(&jiu) {
        assert_eq!(b.record, j.record);
        assert_eq!(b.hashes, j.hashes);
        assert!(b.record.result.is_some());
    }
}

/// Writes the samples (`cargo test -p boyi-records --test jiu -- --ignored write_samples`).
#[test]
#[ignore = "writes the committed samples"]
fn write_samples() {
    let games = [varied_game(1)];
    for format in [Format::Boyi, Format::Jiu] {
        let name = format!("jiu_random.{}", format.name());
        std::fs::write(data_dir().join(name), write(&games, format).unwrap()).unwrap();
    }
}
