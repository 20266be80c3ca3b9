//! Jiu opening books: the position book folds the four symmetries that keep the central
//! diagonal, and the seed's sequence book is built from Jiu records.

use boyi_core::{Game, NoVariant, Point};
use boyi_games::jiu::Jiu;
use boyi_records::book::Book;
use boyi_records::seqbook::SequenceBook;
use boyi_records::symmetry::{symmetries, transform_move, transform_position};
use boyi_records::{Checked, Format, ReadOptions, read, read_file};
use std::path::Path;

fn sample() -> Checked {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jiu_random.boyi");
    read_file(&path, &ReadOptions::default()).unwrap().remove(0)
}

/// The position before ply `ply` (from 1) of the record and the move played there.
fn at_ply(c: &Checked, ply: usize) -> (Jiu, String) {
    let mut pos = Jiu::new();
    for m in &c.record.moves[..ply - 1] {
        let mv = pos.parse_move(&m.text).unwrap();
        pos.play(&mv);
    }
    (pos, c.record.moves[ply - 1].text.clone())
}

#[test]
fn symmetries_keep_the_central_diagonal() {
    assert_eq!(symmetries("jiu"), &[0, 2, 6, 7]);
    let diagonal = |s| transform_move("jiu", s, "g7 h8", 14, 14);
    assert_eq!(diagonal(2), "h8 g7");
    assert_eq!(diagonal(6), "g7 h8");
    assert_eq!(diagonal(7), "h8 g7");
}

#[test]
fn book_returns_the_continuation_in_symmetric_positions() {
    let game = sample();
    let book = Book::build(std::slice::from_ref(&game), 1000).unwrap();
    assert_eq!(book.game, "jiu");
    // Placement, the first battle move, and later battle moves (jumps, flights, squares).
    let plies = [3, 6, 120, 197, 199, 260, game.record.moves.len()];
    for ply in plies {
        let (pos, played) = at_ply(&game, ply);
        let text = pos.to_text();
        for &s in symmetries("jiu") {
            let image =
                Jiu::from_text(&NoVariant, &transform_position("jiu", s, &text).unwrap()).unwrap();
            // The played move seen in the image; a position symmetric in itself (after g7 h8)
            // has several images of it, and the book gives one of them.
            let expected: Vec<String> = symmetries("jiu")
                .iter()
                .filter(|&&t| transform_position("jiu", t, &text).unwrap() == image.to_text())
                .map(|&t| {
                    let moved = transform_move("jiu", t, &played, 14, 14);
                    image.format_move(&image.parse_move(&moved).unwrap())
                })
                .collect();
            let found = book.probe(&image).unwrap();
            assert_eq!(found.len(), 1, "ply {ply}, symmetry {s}: {found:?}");
            assert!(
                expected.contains(&found[0].text),
                "ply {ply}, symmetry {s}: {found:?} not in {expected:?}"
            );
            assert_eq!(found[0].stats.games, 1);
            assert_eq!(book.choose(&image), Some(found[0].mv));
        }
    }
    // A quarter turn is no symmetry of the rules: it moves the diagonal's ends off g7 and h8,
    // and the placement position it gives is not one the rules reach.
    let (pos, _) = at_ply(&game, 120);
    let turned = transform_position("jiu", 1, &pos.to_text()).unwrap();
    assert!(Jiu::from_text(&NoVariant, &turned).is_err());
    // The book file keeps it all.
    assert_eq!(Book::from_text(&book.to_text()).unwrap(), book);
}

fn points(list: &str) -> Vec<Point> {
    list.split_whitespace()
        .map(|p| Point::parse(p, 14).unwrap())
        .collect()
}

#[test]
fn sequence_book_from_jiu_records() {
    let text = "Stage[1]:W(G,7);B(H,8);W(A,1);B(B,1);W(C,1);B(D,1)\n\
                (;GM[Jiu]PB[b]PW[w])\nStage[1]:W(G,7);B(H,8);W(A,1);B(B,1);W(N,14)\n\
                Stage[1]:W(H,8);B(G,7);W(A,1);B(B,1);W(C,1)\n";
    let mut records = read(text.as_bytes(), Format::Jiu, &ReadOptions::default()).unwrap();
    records.push(sample());
    let book = SequenceBook::build(&records, 40).unwrap();
    assert_eq!(book.len(), 4);
    // Unanchored: a1 b1 is found at the third placement of the first three games.
    assert_eq!(
        book.continuations(&points("a1 b1"), false),
        vec![
            (Point::parse("c1", 14).unwrap(), 2),
            (Point::parse("n14", 14).unwrap(), 1)
        ]
    );
    // Anchored: only games that opened g7 h8 a1 b1.
    let opening = points("g7 h8 a1 b1");
    assert_eq!(book.continuations(&opening, true).len(), 2);
    // Colours count: b1 placed by white matches nothing.
    assert!(book.continuations(&points("b1"), false).is_empty());
    // The sample game continues its own opening, and the choice is legal there.
    let sample = sample();
    let first: Vec<Point> = sample.record.moves[..10]
        .iter()
        .map(|m| Point::parse(&m.text, 14).unwrap())
        .collect();
    let next = Point::parse(&sample.record.moves[10].text, 14).unwrap();
    assert_eq!(book.continuations(&first, true), vec![(next, 1)]);
    let (pos, _) = at_ply(&sample, 11);
    let choice = book.choose(&pos, &first, true).unwrap();
    assert_eq!(pos.format_move(&choice), next.to_string());
    // Depth: only the first `depth` placements are stored.
    let shallow = SequenceBook::build(&records, 4).unwrap();
    assert!(shallow.continuations(&points("a1 b1"), false).is_empty());
    assert_eq!(SequenceBook::from_text(&book.to_text()).unwrap(), book);
}
