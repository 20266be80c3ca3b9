//! RenLib `.lib` libraries: a hand-built tree read into its lines, Boyi's writer read back,
//! strict errors, books from a library, and no input that panics.

use boyi_core::Game;
use boyi_games::gomoku::Gomoku;
use boyi_records::book::Book;
use boyi_records::renlib::MAGIC;
use boyi_records::{Format, GameRecord, ReadOptions, read, read_raw, write};
use proptest::prelude::*;
use std::path::Path;

/// Header of version 3.4.
fn header() -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    b.extend([3, 4]);
    b.extend([0xFF; 10]);
    b
}

/// h8, then i9 j10 (with a variation h9 for i9); comments on h8 (GBK) and h9 (two lines).
fn sample() -> Vec<u8> {
    let mut b = header();
    b.extend([0x00, 0x00]); // root
    b.extend([0x78, 0x08]); // h8, comment
    b.extend([0xD6, 0xD0, 0x00, 0x00]); // "中" in GBK, NUL, padding
    b.extend([0x69, 0x80]); // i9, a sibling follows later
    b.extend([0x5A, 0x40]); // j10, end of line
    b.extend([0x68, 0x48]); // h9, end of line, comment
    b.extend(b"ok\x08more\0");
    b
}

fn lines(records: &[GameRecord]) -> Vec<Vec<String>> {
    records
        .iter()
        .map(|r| r.moves.iter().map(|m| m.text.clone()).collect())
        .collect()
}

fn err(bytes: &[u8]) -> String {
    read(bytes, Format::RenLib, &ReadOptions::default())
        .expect_err("an error")
        .to_string()
}

#[test]
fn hand_built_library_reads_into_its_lines() {
    let bytes = sample();
    assert_eq!(
        Format::detect(Path::new("x.bin"), &bytes).unwrap(),
        Format::RenLib
    );
    assert_eq!(
        Format::detect(Path::new("x.lib"), b"").unwrap(),
        Format::RenLib
    );
    let checked = read(&bytes, Format::RenLib, &ReadOptions::default()).unwrap();
    let recs: Vec<GameRecord> = checked.iter().map(|c| c.record.clone()).collect();
    assert_eq!(lines(&recs), [vec!["h8", "i9", "j10"], vec!["h8", "h9"]]);
    assert_eq!(recs[0].variant.as_deref(), Some("renju"));
    assert_eq!(recs[0].moves[0].comment.as_deref(), Some("中"));
    assert_eq!(recs[1].moves[1].comment.as_deref(), Some("ok\nmore"));
    assert_eq!(recs[0].result, None);
    // The caller may name the rules.
    let opts = ReadOptions {
        variant: Some("freestyle".into()),
    };
    let free = read_raw(&bytes, Format::RenLib, &opts).unwrap();
    assert_eq!(free[0].variant.as_deref(), Some("freestyle"));
}

#[test]
fn oldest_files_without_header_read() {
    // h8 then i9 ending the line, no header, no root node.
    let recs = read_raw(
        &[0x78, 0x00, 0x69, 0x40],
        Format::RenLib,
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(lines(&recs), [vec!["h8", "i9"]]);
    // Old-style comment: 7-bit text ending at the byte with its high bit set.
    let recs = read_raw(
        &[0x78, 0x60, b'g', b'o', b'o', b'd' | 0x80],
        Format::RenLib,
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(recs[0].moves[0].comment.as_deref(), Some("good"));
}

#[test]
fn boyi_writer_round_trips() {
    let recs: Vec<GameRecord> = read(&sample(), Format::RenLib, &ReadOptions::default())
        .unwrap()
        .into_iter()
        .map(|c| c.record)
        .collect();
    let bytes = write(&recs, Format::RenLib).unwrap();
    assert_eq!(
        bytes.len(),
        20 + 2 + (2 + 4) + 2 + 2 + (2 + 8),
        "comments are UTF-8"
    );
    let again: Vec<GameRecord> = read(&bytes, Format::RenLib, &ReadOptions::default())
        .unwrap()
        .into_iter()
        .map(|c| c.record)
        .collect();
    assert_eq!(again, recs);
    assert_eq!(
        write(&again, Format::RenLib).unwrap(),
        bytes,
        "stable output"
    );
    // A game's line shared with another is stored once; other games are refused.
    let mut jiu = GameRecord::new(boyi_games::GameKind::Jiu);
    jiu.push("g7");
    assert!(write(&[jiu], Format::RenLib).is_err());
}

#[test]
fn malformed_libraries_are_refused_with_reasons() {
    let good = sample();
    assert!(
        err(&good[..good.len() - 1]).contains("ends inside"),
        "{}",
        err(&good[..good.len() - 1])
    );
    assert!(err(&good[..20 + 2 + 6 + 2 + 2]).contains("1 variations still to come"));
    let mut after = good.clone();
    after.extend([0x77, 0x40]);
    assert!(err(&after).contains("after the end of the tree"));
    let mut off_board = header();
    off_board.extend([0x00, 0x00, 0x10, 0x40]);
    assert!(err(&off_board).contains("0x10 is not a point"));
    let mut low = header();
    low.extend([0x00, 0x00, 0xF1, 0x40]);
    assert!(err(&low).contains("0xf1 is not a point"));
    let mut not_move = header();
    not_move.extend([0x00, 0x00, 0x78, 0x42]);
    assert!(err(&not_move).contains("not a move"));
    let mut newer = header();
    newer[8] = 4;
    assert!(err(&newer).contains("version 4.4 is newer"));
    assert!(err(&MAGIC[..]).contains("header of 8 bytes"));
    assert!(err(b"\x11\x00").contains("not a RenLib library"));
    // A line replayed through the rules: the same point twice.
    let mut twice = header();
    twice.extend([0x00, 0x00, 0x78, 0x00, 0x78, 0x40]);
    let e = err(&twice);
    assert!(e.contains("ply 2"), "{e}");
}

#[test]
fn a_book_from_a_library_gives_its_variations() {
    let checked = read(&sample(), Format::RenLib, &ReadOptions::default()).unwrap();
    let book = Book::build(&checked, 30).unwrap();
    let variant = "renju".parse().unwrap();
    let mut pos = Gomoku::start(&variant, None).unwrap();
    for m in ["h8", "i9"] {
        pos.play(&pos.parse_move(m).unwrap());
    }
    let moves: Vec<(String, u32)> = book
        .probe(&pos)
        .unwrap()
        .into_iter()
        .map(|b| (b.text, b.stats.games))
        .collect();
    assert_eq!(moves, [("j10".to_string(), 1)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn no_input_panics(body in proptest::collection::vec(any::<u8>(), 0..200)) {
        let mut bytes = header();
        bytes.extend(&body);
        let _ = read(&bytes, Format::RenLib, &ReadOptions::default());
        let _ = read(&body, Format::RenLib, &ReadOptions::default());
    }

    #[test]
    fn changed_samples_do_not_panic(at in 0usize..40, byte in any::<u8>(), cut in 0usize..40) {
        let mut bytes = sample();
        let i = at % bytes.len();
        bytes[i] = byte;
        bytes.truncate(bytes.len() - cut.min(bytes.len()));
        let _ = read(&bytes, Format::RenLib, &ReadOptions::default());
    }
}
