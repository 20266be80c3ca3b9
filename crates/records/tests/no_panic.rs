//! Property tests: no input makes a reader, the detector, a book reader or a symmetry panic.

use boyi_records::book::Book;
use boyi_records::seqbook::SequenceBook;
use boyi_records::symmetry::{transform_move, transform_position};
use boyi_records::{Format, ReadOptions, read};
use proptest::prelude::*;
use std::path::Path;

fn samples() -> Vec<(Format, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        if let (Ok(f), Ok(text)) = (Format::detect(&path, &bytes), String::from_utf8(bytes)) {
            out.push((f, text));
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

fn read_all(bytes: &[u8]) {
    let _ = Format::sniff(bytes);
    for f in Format::ALL {
        let _ = read(bytes, f, &ReadOptions::default());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        read_all(&bytes);
    }

    #[test]
    fn arbitrary_text(text in "[\\[\\](){};:,.+ a-zA-Z0-9\"\\\\\n-]{0,200}") {
        read_all(text.as_bytes());
        let _ = Book::from_text(&text);
        let _ = SequenceBook::from_text(&text);
        for s in 0..8 {
            let _ = transform_position("gomoku", s, &text);
            let _ = transform_position("xiangqi", s, &text);
            let _ = transform_move("jiu", s, &text, 14, 14);
        }
    }

    /// Dataset-like Jiu text: points, paths and capture groups in any order.
    #[test]
    fn jiu_dataset_text(body in "([WBO]\\([A-P],(0|1|7|14|15)\\)|[-;,]|TC:|FC:|Stage\\[[12]\\]:){0,60}") {
        let _ = read(format!("Stage[1]:{body}").as_bytes(), Format::Jiu, &ReadOptions::default());
        let _ = read(format!("(;GM[Jiu]RE[W+])Stage[1]:W(G,7);B(H,8){body}").as_bytes(), Format::Jiu, &ReadOptions::default());
    }

    /// Samples with a few characters changed, removed or duplicated: near-valid input reaches
    /// deep into the readers and the replay.
    #[test]
    fn mutated_samples(which in 0usize..64, edits in proptest::collection::vec((any::<u16>(), 0u8..3, "[\\[\\]();,.0-9a-zA-Z+ \n]"), 1..4)) {
        let samples = samples();
        let (format, text) = &samples[which % samples.len()];
        let mut chars: Vec<char> = text.chars().collect();
        for (at, kind, c) in edits {
            if chars.is_empty() { break; }
            let i = at as usize % chars.len();
            let c = c.chars().next().unwrap();
            match kind {
                0 => chars[i] = c,
                1 => { chars.remove(i); }
                _ => chars.insert(i, c),
            }
        }
        let mutated: String = chars.into_iter().collect();
        let _ = read(mutated.as_bytes(), *format, &ReadOptions::default());
    }
}
