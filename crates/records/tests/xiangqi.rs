//! Xiangqi records: PGN in ICCS, WXF and Chinese; XQF files, plain and obfuscated.

use boyi_core::Side;
use boyi_games::GameKind;
use boyi_records::{Checked, Format, GameRecord, ReadOptions, read, write};
use std::path::Path;

fn sample() -> Checked {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/xiangqi_opening.pgn");
    let bytes = std::fs::read(path).unwrap();
    read(&bytes, Format::Pgn, &ReadOptions::default())
        .unwrap()
        .remove(0)
}

#[test]
fn pgn_reads_and_round_trips_in_every_notation() {
    let c = sample();
    let rec = &c.record;
    assert_eq!(rec.game, GameKind::Xiangqi);
    assert_eq!(rec.name(Side::White), "red player");
    assert_eq!(rec.moves[0].text, "h2e2");
    assert_eq!(rec.moves[0].time_ms, Some(2500));
    assert_eq!(rec.moves[0].comment.as_deref(), Some("central cannon"));
    assert_eq!(rec.result.as_ref().unwrap().winner(), Some(Side::White));
    assert_eq!(rec.result.as_ref().unwrap().reason().words(), "resignation");
    for (f, first) in [
        (Format::Pgn, "H2-E2"),
        (Format::PgnWxf, "C2.5"),
        (Format::PgnChinese, "炮二平五"),
    ] {
        let bytes = write(std::slice::from_ref(rec), f).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.contains(&format!("1. {first} ")), "{text}");
        let back = read(&bytes, f, &ReadOptions::default()).unwrap();
        assert_eq!(back[0].record, *rec, "{f:?}");
        assert_eq!(back[0].hashes, c.hashes);
    }
    {
        let f = Format::Boyi;
        let bytes = write(std::slice::from_ref(rec), f).unwrap();
        assert_eq!(
            read(&bytes, f, &ReadOptions::default()).unwrap()[0].record,
            *rec
        );
    }
}

#[test]
fn pgn_with_fen_black_to_move_and_illegal_moves() {
    let pgn = "[Game \"Chinese Chess\"]\n[FEN \"4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1\"]\n\n1... e9f9 2. d0d1 *\n";
    let c = read(pgn.as_bytes(), Format::Pgn, &ReadOptions::default())
        .unwrap()
        .remove(0);
    assert_eq!(c.record.moves.len(), 2);
    let out =
        String::from_utf8(write(std::slice::from_ref(&c.record), Format::PgnWxf).unwrap()).unwrap();
    assert!(out.contains("1... K5.6 2. K6+1 *"), "{out}");
    let bad = pgn.replace("d0d1", "d0d3");
    let err = read(bad.as_bytes(), Format::Pgn, &ReadOptions::default()).unwrap_err();
    assert!(err.0.contains("ply 2"), "{err}");
    // Variations, NAGs and ; comments are skipped; the result token ends the game.
    let text =
        "[Red \"a\"]\n1. h2e2 (1. b2e2) $1 h9g7 ; black develops\n 1/2-1/2\n[Red \"b\"]\n1. h2e2 *";
    let games = read(text.as_bytes(), Format::Pgn, &ReadOptions::default()).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].record.moves[1].comment.as_deref(),
        Some("black develops")
    );
    assert_eq!(games[0].record.result.as_ref().unwrap().winner(), None);
}

/// Writes an XQF file (the layout of xqf.rs) so that the reader can be checked on files of
/// both kinds: version 10 (plain) and version 18 (obfuscated with the given key bytes).
fn encode_xqf(rec: &GameRecord, version: u8, raw: [u8; 3], mask: u8, or: [u8; 4]) -> Vec<u8> {
    let mut b = vec![0u8; 1024];
    b[0] = b'X';
    b[1] = b'Q';
    b[2] = version;
    let scramble = |k: u64| ((((k * k) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8;
    let (mut xy, mut kf, mut kt, mut kc) = (0u8, 0u8, 0u8, 0u32);
    let mut stream = [0u8; 32];
    if version > 10 {
        let sum = 0u8
            .wrapping_sub(raw[0])
            .wrapping_sub(raw[1])
            .wrapping_sub(raw[2]);
        b[3] = mask;
        b[8..12].copy_from_slice(&or);
        b[12] = sum;
        b[13..16].copy_from_slice(&raw);
        xy = (scramble(raw[0] as u64) * raw[0] as u64) as u8;
        kf = (scramble(raw[1] as u64) * xy as u64) as u8;
        kt = (scramble(raw[2] as u64) * kf as u64) as u8;
        kc = ((sum as u32 * 256 + raw[0] as u32) % 32000) + 767;
        let k = [sum, raw[0], raw[1], raw[2]];
        let text = b"[(C) Copyright Mr. Dong Shiwei.]";
        for j in 0..32 {
            stream[j] = text[j] & ((k[j % 4] & mask) | or[j % 4]);
        }
    }
    // The start position: standard squares of the 32 slots.
    let red = [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (6, 0),
        (7, 0),
        (8, 0),
        (1, 2),
        (7, 2),
        (0, 3),
        (2, 3),
        (4, 3),
        (6, 3),
        (8, 3),
    ];
    let mut slots = [0u8; 32];
    for (i, (f, r)) in red.iter().enumerate() {
        slots[i] = f * 10 + r;
        slots[16 + i] = f * 10 + (9 - r);
    }
    for (j, &sq) in slots.iter().enumerate() {
        let byte = if version >= 12 {
            (j + 64 - 1 - (xy as usize % 32)) % 32
        } else {
            j
        };
        b[16 + byte] = sq.wrapping_add(xy);
    }
    b[51] = 1;
    let pascal = |b: &mut Vec<u8>, at: usize, s: &[u8]| {
        b[at] = s.len() as u8;
        b[at + 1..at + 1 + s.len()].copy_from_slice(s);
    };
    pascal(&mut b, 0xD0, b"Boyi sample");
    pascal(&mut b, 0x130, &[0xBA, 0xEC, 0xB7, 0xBD]); // 红方 in GBK
    pascal(&mut b, 0x140, b"black");
    let mut body = Vec::new();
    let squares = |t: &str| {
        let t = t.as_bytes();
        (
            (t[0] - b'a') * 10 + (t[1] - b'0'),
            (t[2] - b'a') * 10 + (t[3] - b'0'),
        )
    };
    let n = rec.moves.len();
    for i in 0..=n {
        let (from, to) = if i == 0 {
            (0, 0)
        } else {
            squares(&rec.moves[i - 1].text)
        };
        let comment: &[u8] = if i == 1 { b"first move" } else { b"" };
        let mut tag = 0u8;
        if i < n {
            tag |= if version <= 10 { 0xF0 } else { 0x80 };
        }
        if i == 2 {
            tag |= if version <= 10 { 0x0F } else { 0x40 };
        }
        if !comment.is_empty() && version > 10 {
            tag |= 0x20;
        }
        body.extend([
            from.wrapping_add(0x18).wrapping_add(kf),
            to.wrapping_add(0x20).wrapping_add(kt),
            tag,
            0,
        ]);
        if version <= 10 || !comment.is_empty() {
            body.extend((comment.len() as u32).wrapping_add(kc).to_le_bytes());
            body.extend(comment);
        }
    }
    // An alternative to ply 2 (a sibling subtree after the main line): one move, no child.
    let (from, to) = squares("h9i7");
    body.extend([
        from.wrapping_add(0x18).wrapping_add(kf),
        to.wrapping_add(0x20).wrapping_add(kt),
        0,
        0,
    ]);
    if version <= 10 {
        body.extend(kc.to_le_bytes());
    }
    for (i, x) in body.iter().enumerate() {
        b.push(x.wrapping_add(stream[i % 32]));
    }
    b
}

#[test]
fn xqf_files_plain_and_obfuscated() {
    let rec = sample().record;
    for (version, raw, mask, or) in [
        (10, [0, 0, 0], 0, [0; 4]),
        (11, [37, 201, 9], 0xFF, [0; 4]),
        (18, [37, 201, 9], 0xFF, [0; 4]),
        (18, [250, 3, 77], 0x5A, [1, 2, 3, 4]),
    ] {
        let bytes = encode_xqf(&rec, version, raw, mask, or);
        assert_eq!(Format::sniff(&bytes), Some(Format::Xqf));
        let got = read(&bytes, Format::Xqf, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("version {version}: {e}"))
            .remove(0)
            .record;
        let moves: Vec<&str> = got.moves.iter().map(|m| m.text.as_str()).collect();
        let want: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, want, "version {version}");
        assert_eq!(got.start, None);
        assert_eq!(got.name(Side::White), "红方");
        assert_eq!(got.name(Side::Black), "black");
        assert_eq!(got.event, "Boyi sample");
        assert_eq!(got.moves[0].comment.as_deref(), Some("first move"));
        assert_eq!(got.tags["Variations"], "1");
        assert_eq!(got.result.unwrap().winner(), Some(Side::White));
    }
    let mut damaged = encode_xqf(&rec, 18, [37, 201, 9], 0xFF, [0; 4]);
    damaged[12] ^= 1;
    assert!(read(&damaged, Format::Xqf, &ReadOptions::default()).is_err());
    let truncated = &encode_xqf(&rec, 10, [0; 3], 0, [0; 4])[..1030];
    assert!(read(truncated, Format::Xqf, &ReadOptions::default()).is_err());
    // Boyi's own writer (version 10) reads back to the same game.
    let written = write(std::slice::from_ref(&rec), Format::Xqf).unwrap();
    assert_eq!(&written[..3], b"XQ\x0a");
    let back = read(&written, Format::Xqf, &ReadOptions::default())
        .unwrap()
        .remove(0)
        .record;
    let moves = |r: &GameRecord| r.moves.iter().map(|m| m.text.clone()).collect::<Vec<_>>();
    assert_eq!(moves(&back), moves(&rec));
    assert_eq!(back.name(Side::White), "red player");
    assert_eq!(back.moves[0].comment, rec.moves[0].comment);
    assert!(
        write(&[rec.clone(), rec], Format::Xqf).is_err(),
        "one game a file"
    );
}

#[test]
fn xiangqi_book_folds_the_mirror() {
    use boyi_core::Game;
    use boyi_games::xiangqi::Xiangqi;
    use boyi_records::book::Book;
    let game = |moves: &[&str]| {
        let mut r = GameRecord::new(GameKind::Xiangqi);
        for m in moves {
            r.push(*m);
        }
        boyi_records::check(&r).unwrap()
    };
    let book = Book::build(&[game(&["h2e2", "h9g7"]), game(&["b2e2", "b9c7"])], 10).unwrap();
    let mut pos = Xiangqi::start(&Default::default(), None).unwrap();
    let first = book.probe(&pos).unwrap();
    assert_eq!(
        first.len(),
        1,
        "h2e2 and b2e2 are one move up to the mirror"
    );
    assert_eq!(first[0].stats.games, 2);
    pos.play_list("h2e2").unwrap();
    let replies: Vec<_> = book
        .probe(&pos)
        .unwrap()
        .into_iter()
        .map(|m| (m.text, m.stats.games))
        .collect();
    assert_eq!(replies, vec![("h9g7".to_string(), 2)]);
}
