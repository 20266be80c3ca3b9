//! Opening books: transpositions merge, board symmetries fold, counts and scores add up.

use boyi_core::{Game, Side};
use boyi_games::GameKind;
use boyi_games::gomoku::Gomoku;
use boyi_records::book::Book;
use boyi_records::{Checked, GameRecord, GameResult, check};

fn game(moves: &[&str], winner: Option<Side>) -> Checked {
    let mut rec = GameRecord::new(GameKind::Gomoku);
    for m in moves {
        rec.push(*m);
    }
    rec.result = Some(match winner {
        Some(s) => GameResult::win(s, boyi_core::Reason::Resignation),
        None => GameResult::draw(boyi_core::Reason::Agreement),
    });
    check(&rec).unwrap()
}

fn at(moves: &str) -> Gomoku {
    let mut g = Gomoku::start(&Default::default(), None).unwrap();
    g.play_list(moves).unwrap();
    g
}

fn probe(book: &Book, moves: &str) -> Vec<(String, u32, u32)> {
    book.probe(&at(moves))
        .unwrap()
        .into_iter()
        .map(|m| (m.text, m.stats.games, m.stats.wins))
        .collect()
}

#[test]
fn transpositions_and_symmetries_merge() {
    let games = [
        // The position after h8 i9 j10 reached in two orders.
        game(&["h8", "i9", "j10", "k11"], Some(Side::White)),
        game(&["j10", "i9", "h8", "g7"], Some(Side::Black)),
        // The mirror image (left-right) of the first game.
        game(&["h8", "g9", "f10", "e11"], Some(Side::White)),
        // A quarter turn of the first two moves, then something new.
        game(&["h8", "i7", "a1"], None),
    ];
    let book = Book::build(&games, 30).unwrap();
    // White's k11 after h8 i9 j10: from game 1 and (mirrored) game 3, both won by white.
    assert_eq!(
        probe(&book, "h8,i9,j10"),
        vec![("k11".to_string(), 2, 2), ("g7".to_string(), 1, 0)]
    );
    // The same position through the other move order.
    assert_eq!(probe(&book, "j10,i9,h8"), probe(&book, "h8,i9,j10"));
    // Seen in the mirror, the moves come back mirrored.
    assert_eq!(
        probe(&book, "h8,g9,f10"),
        vec![("e11".to_string(), 2, 2), ("i7".to_string(), 1, 0)]
    );
    // After h8 every game's second move is a diagonal neighbour: one folded entry.
    let after_h8 = book.probe(&at("h8")).unwrap();
    assert_eq!(after_h8.len(), 1, "{after_h8:?}");
    assert_eq!(after_h8[0].stats.games, 3);
    assert_eq!(after_h8[0].stats.draws, 1);
    // The start: h8 three times, j10 once (a symmetric position keeps one entry per move).
    let first = book.probe(&at("")).unwrap();
    assert_eq!((first[0].text.as_str(), first[0].stats.games), ("h8", 3));
    assert_eq!(
        book.choose(&at("h8,i9,j10"))
            .map(|m| at("h8,i9,j10").format_move(&m)),
        Some("k11".into())
    );
    // Not in the book.
    assert!(probe(&book, "a1").is_empty());
}

#[test]
fn book_text_round_trips() {
    let games = [game(&["h8", "i9", "j10", "k11"], Some(Side::White))];
    let book = Book::build(&games, 2).unwrap();
    assert_eq!(book.len(), 2);
    let text = book.to_text();
    assert_eq!(Book::from_text(&text).unwrap(), book);
    assert!(Book::from_text("boyi-book 2\n").is_err());
    assert!(
        Book::from_text("boyi-book 1\ngame gomoku\nvariant freestyle\nzz\th8\t1\t1\t0\t0\n")
            .is_err()
    );
}
