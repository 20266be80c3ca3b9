//! Round trips and replay checks of the grid games' record formats, on the committed samples.

use boyi_core::Side;
use boyi_games::GameKind;
use boyi_records::{Checked, Format, GameRecord, ReadOptions, read, write};
use std::path::Path;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .unwrap()
}

fn read_sample(name: &str) -> Vec<Checked> {
    let bytes = data(name);
    let format = Format::detect(Path::new(name), &bytes).unwrap();
    read(&bytes, format, &ReadOptions::default()).unwrap()
}

fn round_trip(records: &[GameRecord], format: Format) -> Vec<GameRecord> {
    let bytes = write(records, format).unwrap();
    let again = read(&bytes, format, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{format:?}: {e}\n{}", String::from_utf8_lossy(&bytes)));
    let twice = write(
        &again.iter().map(|c| c.record.clone()).collect::<Vec<_>>(),
        format,
    )
    .unwrap();
    assert_eq!(bytes, twice, "{format:?} output is stable");
    again.into_iter().map(|c| c.record).collect()
}

#[test]
fn gomoku_formats_agree_and_round_trip() {
    let boyi = read_sample("gomoku_five.boyi");
    let sgf = read_sample("gomoku_five.sgf");
    let psq = read_sample("gomoku_five.psq");
    let rec = &boyi[0].record;
    assert_eq!(rec.moves.len(), 9);
    assert_eq!(rec.result.as_ref().unwrap().winner(), Some(Side::Black));
    assert_eq!(rec.moves[1].time_ms, Some(800));
    assert_eq!(
        rec.moves[1].comment.as_deref(),
        Some("white takes the diagonal")
    );
    // SGF holds everything Boyi text does.
    assert_eq!(sgf[0].record, *rec);
    // .psq holds moves, times and players only.
    let moves = |r: &GameRecord| r.moves.iter().map(|m| m.text.clone()).collect::<Vec<_>>();
    assert_eq!(moves(&psq[0].record), moves(rec));
    assert_eq!(psq[0].record.name(Side::Black), "alice");
    assert_eq!(psq[0].record.moves[0].time_ms, Some(1250));
    assert_eq!(boyi[0].hashes, psq[0].hashes);
    for f in [Format::Boyi, Format::Sgf] {
        assert_eq!(round_trip(std::slice::from_ref(rec), f)[0], *rec, "{f:?}");
    }
    assert_eq!(
        round_trip(&[psq[0].record.clone()], Format::Psq)[0],
        psq[0].record
    );
}

#[test]
fn connect6_formats_agree_and_round_trip() {
    let c6 = read_sample("connect6_six.c6");
    let sgf = read_sample("connect6_six.sgf");
    let rec = &c6[0].record;
    assert_eq!(rec.game, GameKind::Connect6);
    assert_eq!(rec.moves[1].text, "k10 k11");
    assert_eq!(rec.moves[5].text, "k9 k14");
    assert_eq!(rec.result.as_ref().unwrap().winner(), Some(Side::White));
    assert_eq!(
        rec.result.as_ref().unwrap().reason().words(),
        "six in a row"
    );
    assert_eq!(
        (rec.date.unwrap().to_string().as_str(), rec.site.as_str()),
        ("2024-05-02", "Chongqing")
    );
    assert_eq!(sgf[0].hashes, c6[0].hashes);
    for f in [Format::Boyi, Format::Sgf, Format::C6] {
        assert_eq!(round_trip(std::slice::from_ref(rec), f)[0], *rec, "{f:?}");
    }
}

#[test]
fn illegal_moves_are_reported_with_their_ply() {
    let bytes = data("gomoku_illegal.sgf");
    let err = read(&bytes, Format::Sgf, &ReadOptions::default()).unwrap_err();
    assert!(err.0.contains("ply 3"), "{err}");
    assert!(err.0.contains("occupied"), "{err}");
    // A move after the game ended.
    let text = String::from_utf8(data("gomoku_five.boyi")).unwrap() + "10. a1\n";
    let err = read(text.as_bytes(), Format::Boyi, &ReadOptions::default()).unwrap_err();
    assert!(err.0.contains("ply 10"), "{err}");
    // A result the final position contradicts.
    let text = String::from_utf8(data("gomoku_five.boyi"))
        .unwrap()
        .replace("[Result \"black\"]", "[Result \"white\"]");
    let err = read(text.as_bytes(), Format::Boyi, &ReadOptions::default()).unwrap_err();
    assert!(err.0.contains("final position"), "{err}");
}

#[test]
fn renju_forbidden_move_is_rejected_in_a_record() {
    // Black's double-three at h8 (stones g8, h9 ... arranged so h8 makes two open threes).
    let sgf = "(;GM[4]SZ[15]RU[renju];B[gh];W[aa];B[hg];W[ab];B[ih];W[ac];B[hi];W[ad];B[hh])";
    let err = read(sgf.as_bytes(), Format::Sgf, &ReadOptions::default()).unwrap_err();
    assert!(err.0.contains("ply 9"), "{err}");
    let free = sgf.replace("RU[renju]", "RU[freestyle]");
    assert!(read(free.as_bytes(), Format::Sgf, &ReadOptions::default()).is_ok());
}

#[test]
fn set_up_start_positions_round_trip() {
    let start = "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w";
    let mut rec = GameRecord::new(GameKind::Gomoku);
    rec.start = Some(start.to_string());
    rec.push("i9");
    rec.push("h9");
    for f in [Format::Boyi, Format::Sgf] {
        let back = round_trip(std::slice::from_ref(&rec), f);
        assert_eq!(back[0].start.as_deref(), Some(start), "{f:?}");
        assert_eq!(back[0].moves.len(), 2);
    }
    assert!(write(&[rec], Format::Psq).is_err(), ".psq has no set-up");
}

#[test]
fn detection_by_extension_and_content() {
    for (name, f) in [
        ("gomoku_five.boyi", Format::Boyi),
        ("gomoku_five.sgf", Format::Sgf),
        ("gomoku_five.psq", Format::Psq),
        ("connect6_six.c6", Format::C6),
    ] {
        assert_eq!(Format::sniff(&data(name)), Some(f), "{name}");
        assert_eq!(
            Format::detect(Path::new("x.unknown"), &data(name)).unwrap(),
            f
        );
    }
    assert!(Format::detect(Path::new("x.txt"), b"hello").is_err());
}

#[test]
fn several_games_in_one_file() {
    let one = String::from_utf8(data("gomoku_five.sgf")).unwrap();
    let two = format!("{one}\n{one}");
    assert_eq!(
        read(two.as_bytes(), Format::Sgf, &ReadOptions::default())
            .unwrap()
            .len(),
        2
    );
    let one = String::from_utf8(data("connect6_six.c6")).unwrap();
    let two = format!("{one}{one}");
    assert_eq!(
        read(two.as_bytes(), Format::C6, &ReadOptions::default())
            .unwrap()
            .len(),
        2
    );
}

/// The record the server offered for download before it wrote Boyi text, and the arena's
/// old game files, read as they were written.
#[test]
fn old_downloads_and_arena_files_are_read() {
    let download = "[Game \"xiangqi\"]\n[Variant \"standard\"]\n[Table \"T1\"]\n\
                    [Black \"Bo\"]\n[White \"Ann\"]\n[Result \"black (red resigned)\"]\n\
                    [Start \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\
                    \nh2e2,h9g7\n";
    let rec = &read(download.as_bytes(), Format::Boyi, &ReadOptions::default()).unwrap()[0];
    let result = rec.record.result.as_ref().unwrap();
    assert_eq!(result.winner(), Some(Side::Black));
    assert_eq!(result.detail, "red resigned");
    assert_eq!(rec.record.moves.len(), 2);
    assert_eq!(rec.record.start, None, "the rules' start is no set-up");
    let arena = "# boyi game record\ngame gomoku\nvariant freestyle\n\
                 start 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b\n\
                 black boyi:random\nwhite boyi:alphabeta?depth=2\nopening 1\nresult white\n\
                 reason loss on time (no answer)\nmoves h8,i9\n";
    assert_eq!(Format::sniff(arena.as_bytes()), Some(Format::Arena));
    let rec = &read(arena.as_bytes(), Format::Arena, &ReadOptions::default()).unwrap()[0].record;
    let result = rec.result.as_ref().unwrap();
    assert_eq!(result.reason(), boyi_core::Reason::Time);
    assert_eq!(result.detail, "no answer");
    assert_eq!(
        rec.player(Side::White).spec.as_deref(),
        Some("boyi:alphabeta?depth=2")
    );
    assert_eq!(rec.tags["OpeningPlies"], "1");
    assert!(
        write(std::slice::from_ref(rec), Format::Arena).is_err(),
        "read, not written"
    );
}
