//! The strong Xiangqi engine and the repetition rules, on positions of games the rules ended
//! (`data/xiangqi_repetition_games.txt`): it does not complete a cycle that loses by its own
//! perpetual check while another move holds out longer, it scores such a cycle as the loss
//! the rules make it, and it completes a cycle that the opponent's perpetual check loses.

use boyi_core::{Game, NoVariant};
use boyi_engines::{BuildContext, GameHistory, Info, Limits, Score, StopFlag, build};
use boyi_games::xiangqi::Xiangqi;

const GAMES: &str = include_str!("data/xiangqi_repetition_games.txt");

/// Game `name` of the data file after its first `plies` moves.
fn position(name: &str, plies: usize) -> GameHistory<Xiangqi> {
    let line = GAMES
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(';'))
        .unwrap_or_else(|| panic!("no game {name}"));
    let mut game = GameHistory::new(Xiangqi::start(&NoVariant, None).unwrap());
    let moves: Vec<&str> = line.trim().split(',').collect();
    assert!(plies < moves.len(), "{name} has {} moves", moves.len());
    for m in &moves[..plies] {
        game.push_text(m).unwrap();
    }
    game
}

/// The strong engine's move and last reported score at `depth`; with `only`, every other
/// root move is banned.
fn search(game: &GameHistory<Xiangqi>, depth: u32, only: Option<&str>) -> (String, Score) {
    let pos = game.current();
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    let banned = match only {
        Some(keep) => legal
            .iter()
            .map(|m| pos.format_move(m))
            .filter(|m| m != keep)
            .collect(),
        None => Vec::new(),
    };
    let limits = Limits {
        depth: Some(depth),
        banned,
        ..Limits::default()
    };
    let mut player = build::<Xiangqi>("strong?hash=16", BuildContext::default()).unwrap();
    let mut score = None;
    let mv = player
        .choose(game, &limits, &StopFlag::new(), &mut |i: Info| {
            score = i.score.or(score)
        })
        .unwrap();
    (pos.format_move(&mv), score.expect("a score"))
}

/// At game `name` after `plies` moves, `cycle_move` loses by the side's own perpetual check
/// within a move (the move itself or the reply makes the third occurrence); the search plays
/// another move and is mated `-mate` moves later.
fn holds_out(name: &str, plies: usize, cycle_move: &str, mate: i32) {
    let game = position(name, plies);
    assert_eq!(
        search(&game, 10, Some(cycle_move)).1,
        Score::Mate(-1),
        "{name}"
    );
    let (mv, score) = search(&game, 10, None);
    assert_ne!(mv, cycle_move, "{name}");
    assert_eq!(score, Score::Mate(mate), "{name}");
}

#[test]
fn black_does_not_complete_its_own_perpetual_check() {
    // Black's horse has checked from f2 and d3 against the king on e0/e1; after f2d3 red's
    // e1e0 makes the third occurrence: black loses by the rule at once. Black holds out
    // longer with i4i1 (mated in three moves, as Fairy-Stockfish also sees it).
    holds_out("black-horse", 139, "f2d3", -3);
}

#[test]
fn red_does_not_complete_its_own_perpetual_check() {
    // Red's chariot has checked from g8 and g9; g9g8 would be the third occurrence with red
    // to blame, a loss with red's own move. g9f9 is mated a move later.
    holds_out("red-chariot", 106, "g9g8", -2);
    // Before, checking on holds out longest (the third occurrence is not yet due): the same
    // moves and mate distances as Fairy-Stockfish's.
    for (plies, best, mate) in [(102, "g9g8", -4), (104, "g8g9", -3)] {
        let game = position("red-chariot", plies);
        assert_eq!(
            search(&game, 10, None),
            (best.to_string(), Score::Mate(mate))
        );
    }
}

#[test]
fn a_second_occurrence_of_an_earlier_position_does_not_end_the_game() {
    // After 137 plies black's d3f2 repeats a position of the game for the second time only:
    // the game goes on, and black, rather than check again into the third occurrence, is
    // mated in four moves in all (as Fairy-Stockfish also sees it).
    let game = position("black-horse", 137);
    assert_eq!(search(&game, 10, Some("d3f2")).1, Score::Mate(-4));
}

#[test]
fn the_opponents_perpetual_check_is_completed() {
    // Red's horse has checked black's king from d0, e1 and d2; f9e8 makes the third
    // occurrence with red to blame: black wins at once.
    let game = position("red-checks", 277);
    assert_eq!(
        search(&game, 10, None),
        ("f9e8".to_string(), Score::Mate(1))
    );
    // The same from the checked side of the first game: red's e1e0 ends it.
    let game = position("black-horse", 140);
    assert_eq!(
        search(&game, 10, None),
        ("e1e0".to_string(), Score::Mate(1))
    );
}
