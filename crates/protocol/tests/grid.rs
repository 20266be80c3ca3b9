//! Gomocup on Gomoku (rule numbers, coordinates, the turn time) and SAU on Connect6
//! (one-stone `@@` turns, pairs) with the real rules.

mod support;

use boyi_core::{Game, Point, Side};
use boyi_engines::testing::FirstMove;
use boyi_engines::{GameHistory, Info, Limits, Player, PlayerError, StopFlag};
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::Gomoku;
use boyi_protocol::Protocol;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use support::{check, transcript};

fn first<G: Game>(start: &G, moves: &str) -> String {
    let mut pos = start.clone();
    pos.play_list(moves).unwrap();
    pos.format_move(&pos.legal_moves()[0])
}

#[test]
fn gomocup_rules_and_coordinates() {
    let start = Gomoku::start(&Default::default(), None).unwrap();
    let input = "START 15\nINFO rule 2\nINFO rule 9\nINFO rule x\nINFO rule 4\nTURN 7,7\n";
    let reply = first(
        &Gomoku::start(&"renju".parse().unwrap(), None).unwrap(),
        "h8",
    );
    let (x, y) = Point::parse(&reply, 15).unwrap().to_gomocup(15);
    check(
        &transcript(
            Protocol::Gomocup,
            FirstMove,
            start,
            Limits::default(),
            input,
        ),
        &format!(
            "OK\nERROR INFO rule 2: rule 2: continuous play is not supported\n\
             ERROR INFO rule 9: rule 9 is not supported (0 freestyle, 1 standard, 4 renju)\n\
             ERROR INFO rule x: \"x\" is not a number\n{x},{y}\n"
        ),
    );
}

#[test]
fn sau_connect6_one_stone_and_pairs() {
    let start = Connect6::start(&Default::default(), None).unwrap();
    let first_stone = boyi_protocol::codec::to_sau("connect6", &first(&start, ""), 19).unwrap();
    assert!(first_stone.ends_with("@@"), "{first_stone}");
    let after = |m: &str| boyi_protocol::codec::to_sau("connect6", &first(&start, m), 19).unwrap();
    let black_first = boyi_protocol::codec::from_sau("connect6", &first_stone, 19).unwrap();
    let input = "name?\nnew black\nmove KKKJ\nname?\nend\nnew white\nmove JJ@@\nmove JJKK\n";
    check(
        &transcript(
            Protocol::Sau,
            FirstMove,
            start.clone(),
            Limits::default(),
            input,
        ),
        &format!(
            "name Boyi test\nmove {first_stone}\nmove {}\nname Boyi test\nmove {}\nerror\n",
            after(&format!("{black_first},k9 k10")),
            after("j10"),
        ),
    );
}

/// Plays the first legal move and keeps the limits of every search.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Limits>>>);

impl Player<Gomoku> for Recorder {
    fn name(&self) -> String {
        "recorder".into()
    }

    fn choose(
        &mut self,
        game: &GameHistory<Gomoku>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<<Gomoku as Game>::Move, PlayerError> {
        self.0.lock().unwrap().push(limits.clone());
        FirstMove.choose(game, limits, stop, info)
    }
}

/// The limits of every search a Gomocup session on a 15×15 board asks of the player.
fn gomocup_limits(input: &str) -> Vec<Limits> {
    let start = Gomoku::start(&Default::default(), None).unwrap();
    let seen = Recorder::default();
    transcript(
        Protocol::Gomocup,
        seen.clone(),
        start,
        Limits::default(),
        input,
    );
    seen.0.lock().unwrap().clone()
}

#[test]
fn gomocup_turn_time_is_a_hard_limit() {
    // The manager forfeits a move over `timeout_turn`: the engine gets it (less a safety
    // margin) as its move time and as the cap no stretched budget may pass.
    let input =
        "START 15\nINFO timeout_turn 1000\nINFO timeout_match 0\nINFO time_left 50000\nBEGIN\n";
    let limits = gomocup_limits(input)[0].clone();
    let ms = Duration::from_millis;
    assert_eq!(limits.movetime, Some(ms(900)));
    assert_eq!(limits.max_time, Some(ms(900)));
    assert_eq!(limits.hard_limit(Side::Black), Some(ms(900)));
    assert_eq!(limits.memory, None);
}

#[test]
fn gomocup_memory_limit_reaches_the_player() {
    // `INFO max_memory` is in bytes; 0 means no limit.
    let input = "START 15\nINFO max_memory 83886080\nBEGIN\nINFO max_memory 0\nTURN 10,10\n";
    let seen = gomocup_limits(input);
    assert_eq!(seen[0].memory, Some(83_886_080));
    assert_eq!(seen[1].memory, None);
}

/// Plays `h8` whenever the rules allow it, else the first legal move.
struct WantsH8;

impl Player<Gomoku> for WantsH8 {
    fn name(&self) -> String {
        "wants-h8".into()
    }

    fn choose(
        &mut self,
        game: &GameHistory<Gomoku>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<<Gomoku as Game>::Move, PlayerError> {
        match game.current().parse_move("h8") {
            Ok(mv) => Ok(mv),
            Err(_) => FirstMove.choose(game, limits, stop, info),
        }
    }
}

#[test]
fn gomocup_board_takes_any_position_and_renju_rules_the_moves_from_there() {
    let xy = |p: &str| {
        let (x, y) = Point::parse(p, 15).unwrap().to_gomocup(15);
        format!("{x},{y}")
    };
    // Black (the engine, field 1, to move on equal counts) has f8 g8 h6 h7, so h8 would be a
    // double three; and c12 d12 e10 e11 e12, where e12 — given last — would have been a
    // double three had it been played last. White's stones are scattered.
    let black = ["f8", "g8", "h6", "h7", "c12", "d12", "e10", "e11", "e12"];
    let white = ["a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1", "a3"];
    let mut board = String::from("BOARD\n");
    for p in black {
        board += &format!("{},1\n", xy(p));
    }
    for p in white {
        board += &format!("{},2\n", xy(p));
    }
    board += "DONE\n";
    let play = |rule: u32| {
        let start = Gomoku::start(&Default::default(), None).unwrap();
        let input = format!("START 15\nINFO rule {rule}\n{board}");
        transcript(Protocol::Gomocup, WantsH8, start, Limits::default(), &input)
    };
    let renju = play(4);
    let lines: Vec<&str> = renju.lines().collect();
    assert_eq!(lines.len(), 2, "{renju}");
    assert_eq!(lines[0], "OK");
    // Answered with a move, and not the forbidden h8.
    let reply =
        boyi_protocol::codec::from_gomocup(lines[1], 15).unwrap_or_else(|e| panic!("{renju}: {e}"));
    assert_ne!(reply, "h8", "{renju}");
    // Freestyle has no forbidden points: the same position is answered with h8.
    check(&play(0), &format!("OK\n{}\n", xy("h8")));
    // Stones must be on distinct points; counts need not alternate.
    let start = Gomoku::start(&Default::default(), None).unwrap();
    let twice = format!("START 15\nBOARD\n{0},1\n{0},2\nDONE\n", xy("a1"));
    check(
        &transcript(
            Protocol::Gomocup,
            WantsH8,
            start.clone(),
            Limits::default(),
            &twice,
        ),
        "OK\nERROR BOARD: two stones on 0,14\n",
    );
    // Three white stones, white (the engine) to move; the stones of a position set up as
    // it stands are taken back one by one.
    let (a1, c1, e1, h8) = (xy("a1"), xy("c1"), xy("e1"), xy("h8"));
    let lopsided = format!(
        "START 15\nBOARD\n{a1},2\n{c1},2\n{e1},2\nDONE\nTAKEBACK {h8}\nTAKEBACK {a1}\nTAKEBACK {a1}\n"
    );
    check(
        &transcript(
            Protocol::Gomocup,
            WantsH8,
            start,
            Limits::default(),
            &lopsided,
        ),
        &format!("OK\n{h8}\nOK\nOK\nERROR TAKEBACK {a1}: no stone on a1\n"),
    );
}
