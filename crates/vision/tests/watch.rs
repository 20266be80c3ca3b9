//! The watch loop driven by synthetic frames of games being played: hands over the board,
//! camera shake and drifting light between still frames.

use boyi_vision::Stone;
use boyi_vision::sequence::{self, Placement, Shot};
use boyi_vision::synth::{Level, SynthOptions};
use boyi_vision::watch::{Event, Point, Referee, State, WatchOptions, Watcher};

/// Five in a row wins; stones alternate, black first; the player's replies are scripted.
struct Script {
    n: usize,
    board: Vec<Stone>,
    to_move: Stone,
    replies: Vec<Point>,
}

impl Script {
    fn new(replies: &[Point]) -> Script {
        Script {
            n: 0,
            board: Vec::new(),
            to_move: Stone::Black,
            replies: replies.iter().rev().copied().collect(),
        }
    }

    fn five(&self) -> Option<Stone> {
        let n = self.n as i32;
        let at = |c: i32, r: i32| {
            ((0..n).contains(&c) && (0..n).contains(&r)).then(|| self.board[(r * n + c) as usize])
        };
        for r in 0..n {
            for c in 0..n {
                let s = self.board[(r * n + c) as usize];
                if s == Stone::Empty {
                    continue;
                }
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..5).all(|k| at(c + k * dc, r + k * dr) == Some(s)) {
                        return Some(s);
                    }
                }
            }
        }
        None
    }
}

fn name(n: usize, (c, r): Point) -> String {
    format!("{}{}", (b'a' + c as u8) as char, n - r)
}

impl Referee for Script {
    fn start(&mut self, size: usize, stones: &[Stone]) -> Result<(), String> {
        let b = stones.iter().filter(|s| **s == Stone::Black).count();
        let w = stones.iter().filter(|s| **s == Stone::White).count();
        self.to_move = match b as i64 - w as i64 {
            0 => Stone::Black,
            1 => Stone::White,
            _ => return Err(format!("{b} black and {w} white")),
        };
        self.n = size;
        self.board = stones.to_vec();
        Ok(())
    }
    fn position(&self) -> String {
        boyi_vision::position_rows(self.n, &self.board)
    }
    fn to_move(&self) -> Stone {
        self.to_move
    }
    fn stones_this_turn(&self) -> usize {
        1
    }
    fn play(&mut self, points: &[Point]) -> Result<String, String> {
        let &[(c, r)] = points else {
            return Err("one stone a turn".into());
        };
        self.board[r * self.n + c] = self.to_move;
        self.to_move = if self.to_move == Stone::Black {
            Stone::White
        } else {
            Stone::Black
        };
        Ok(name(self.n, (c, r)))
    }
    fn result(&self) -> Option<String> {
        self.five().map(|s| format!("{s:?} wins"))
    }
    fn reply(&mut self) -> Result<(String, Vec<Point>), String> {
        let p = self.replies.pop().ok_or("no more replies")?;
        Ok((name(self.n, p), vec![p]))
    }
}

/// A 9×9 point by name (`c3`) in reading coordinates.
fn at(text: &str) -> Point {
    let c = (text.as_bytes()[0] - b'a') as usize;
    let rank: usize = text[1..].parse().unwrap();
    (c, 9 - rank)
}

fn turn(text: &str, stone: Stone) -> Vec<Placement> {
    let (c, r) = at(text);
    vec![(c, r, stone)]
}

/// Runs the watcher over the frames of `turns` and returns its events with the frame each
/// came on.
fn watch(seed: u64, turns: &[Vec<Placement>], replies: &[&str]) -> (Vec<(Shot, Event)>, State) {
    watch_with(seed, turns, replies, true)
}

fn watch_with(
    seed: u64,
    turns: &[Vec<Placement>],
    replies: &[&str],
    place_reply: bool,
) -> (Vec<(Shot, Event)>, State) {
    let opts = SynthOptions {
        seed,
        level: Level::Easy,
        width: 640,
        height: 480,
        size: Some(9),
        position: None,
        distortion: None,
    };
    let replies: Vec<Point> = replies.iter().map(|t| at(t)).collect();
    let mut watcher = Watcher::new(
        WatchOptions {
            size: None,
            me: Stone::White,
            settle: 3,
            place_reply,
        },
        Script::new(&replies),
    );
    let mut events = Vec::new();
    sequence::frames(&opts, &[Stone::Empty; 81], turns, |synth, shot| {
        for e in watcher.frame(&synth.image) {
            events.push((shot, e));
        }
        Ok(())
    })
    .unwrap();
    (events, watcher.state().clone())
}

fn summary(events: &[(Shot, Event)]) -> Vec<String> {
    events
        .iter()
        .map(|(_, e)| match e {
            Event::Position { text, .. } => format!("position {text}"),
            Event::Move { side, text, .. } => format!("move {side:?} {text}"),
            Event::Reply { text, .. } => format!("reply {text}"),
            Event::Warning { message } => format!("warning {message}"),
            Event::Result { text } => format!("result {text}"),
        })
        .collect()
}

#[test]
fn a_game_is_followed_move_by_move_and_answered() {
    let script = [
        ("c3", Stone::Black),
        ("c5", Stone::White),
        ("d3", Stone::Black),
        ("d5", Stone::White),
        ("e3", Stone::Black),
        ("e5", Stone::White),
        ("f3", Stone::Black),
        ("f5", Stone::White),
        ("g3", Stone::Black),
    ];
    let turns: Vec<Vec<Placement>> = script.iter().map(|&(p, s)| turn(p, s)).collect();
    let (events, state) = watch(21, &turns, &["c5", "d5", "e5", "f5"]);
    let mut want = vec!["position 9/9/9/9/9/9/9/9/9".to_string()];
    for pair in script.chunks(2) {
        want.push(format!("move Black {}", pair[0].0));
        if let Some((w, _)) = pair.get(1) {
            want.push(format!("reply {w}"));
            want.push(format!("move White {w}"));
        }
    }
    want.push("result Black wins".into());
    assert_eq!(summary(&events), want);
    assert_eq!(state, State::Over);
    // Each turn is seen on a still frame after the hand has gone, never while it is there.
    for (shot, e) in &events {
        if matches!(e, Event::Move { .. }) {
            assert!(matches!(shot, Shot::Still { .. }), "{e:?} on {shot:?}");
        }
    }
    // The reply's pixel is the point's place in the photo.
    let Some((_, Event::Reply { pixels, .. })) = events
        .iter()
        .find(|(_, e)| matches!(e, Event::Reply { .. }))
    else {
        panic!("a reply");
    };
    assert_eq!(pixels.len(), 1);
    assert!(pixels[0].0 > 0.0 && pixels[0].0 < 640.0 && pixels[0].1 > 0.0 && pixels[0].1 < 480.0);
}

#[test]
fn changes_that_are_not_one_move_are_warned_of_and_ignored() {
    let turns = vec![
        turn("c3", Stone::Black),
        turn("c5", Stone::White),
        // The black stone taken off, then put back: a warning, then nothing.
        turn("c3", Stone::Empty),
        turn("c3", Stone::Black),
        // Two black stones at once.
        [turn("d3", Stone::Black), turn("e3", Stone::Black)].concat(),
        // One taken back: now one black move.
        turn("e3", Stone::Empty),
        // The reply was e5; white plays f5 instead.
        turn("f5", Stone::White),
    ];
    let (events, state) = watch(22, &turns, &["c5", "e5"]);
    let s = summary(&events);
    let warnings: Vec<&String> = s.iter().filter(|l| l.starts_with("warning")).collect();
    assert_eq!(warnings.len(), 3, "{s:#?}");
    assert!(warnings[0].contains("removed at c3"), "{s:#?}");
    assert!(warnings[1].contains("2 black stones placed"), "{s:#?}");
    assert!(
        warnings[2].contains("white placed at f5, but the reply e5 goes at e5"),
        "{s:#?}"
    );
    let moves: Vec<&String> = s.iter().filter(|l| l.starts_with("move")).collect();
    assert_eq!(
        moves,
        ["move Black c3", "move White c5", "move Black d3"],
        "{s:#?}"
    );
    assert_eq!(
        state,
        State::Placing {
            text: "e5".into(),
            points: vec![at("e5")]
        }
    );
}

#[test]
fn a_suggested_reply_need_not_be_placed() {
    // White is told c5 and e5 but plays d5 and f5: each is taken as white's move.
    let turns = vec![
        turn("c3", Stone::Black),
        turn("d5", Stone::White),
        turn("d3", Stone::Black),
        turn("f5", Stone::White),
    ];
    let (events, state) = watch_with(23, &turns, &["c5", "e5", "g5"], false);
    let s = summary(&events);
    assert_eq!(
        s,
        [
            "position 9/9/9/9/9/9/9/9/9",
            "move Black c3",
            "reply c5",
            "move White d5",
            "move Black d3",
            "reply e5",
            "move White f5",
        ],
        "{s:#?}"
    );
    assert_eq!(state, State::Opponent);
}
