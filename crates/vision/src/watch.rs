//! Watching a game played on a real board: frames from a camera go in, events come out.
//!
//! Each frame is read as a photo ([`crate::read_board`]). A board counts as *settled* when
//! several frames in a row read the same stones: a hand over the board, a stone being put
//! down or a passing shadow changes the read from frame to frame, and is never acted on. Each
//! new settled board is compared with the board the game is at:
//! - the stones the side to move places in one turn (one in Gomoku, two in a Connect6 turn
//!   after the first): their move, after which the player's reply is announced; the reply
//!   must be placed as announced, or with [`WatchOptions::place_reply`] off is only a
//!   suggestion and any turn of the player's colour is taken;
//! - part of a turn (the first stone of a Connect6 pair): wait for the rest;
//! - anything else (a stone too many, of the wrong colour, moved or removed): a warning,
//!   and the game stays where it was until the board shows a legal continuation again.
//!
//! The rules and the player are the caller's ([`Referee`]), so the loop serves any game
//! played by placing stones.

use crate::{BoardRead, ReadOptions, Stone};
use image::RgbImage;
use std::collections::VecDeque;

/// A point in reading coordinates: column from the left, row from the top.
pub type Point = (usize, usize);

/// The game's rules and the player that answers, as the watch loop needs them.
pub trait Referee {
    /// Starts the game from the first settled board (reading order, top row first); the
    /// side to move comes from the stones. `Err` says why the board is not a position of
    /// the game.
    fn start(&mut self, size: usize, stones: &[Stone]) -> Result<(), String>;
    /// The game's position text.
    fn position(&self) -> String;
    /// The colour to move.
    fn to_move(&self) -> Stone;
    /// Stones the side to move places this turn.
    fn stones_this_turn(&self) -> usize;
    /// Plays the side to move's stones; the move's text, or why it is not legal.
    fn play(&mut self, points: &[Point]) -> Result<String, String>;
    /// The result, once the game is over.
    fn result(&self) -> Option<String>;
    /// The player's move for the side to move (not played yet): its text and its points.
    fn reply(&mut self) -> Result<(String, Vec<Point>), String>;
}

/// What the loop reports.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The first settled board: the game's position text and the colour to move.
    Position { text: String, to_move: Stone },
    /// A turn seen played on the board.
    Move {
        side: Stone,
        text: String,
        points: Vec<Point>,
    },
    /// The player's move, to be placed on the board: where, in reading coordinates and in
    /// the frame's pixels.
    Reply {
        text: String,
        points: Vec<Point>,
        pixels: Vec<(f64, f64)>,
    },
    /// A change on the board that is not the expected turn; nothing is done about it.
    Warning { message: String },
    /// The game is over.
    Result { text: String },
}

/// Where the loop stands.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    /// No settled board yet (or none that is a position of the game).
    Settling,
    /// Waiting for the opponent's turn to appear on the board.
    Opponent,
    /// The reply was announced; waiting for its stones to appear on the board.
    Placing { text: String, points: Vec<Point> },
    /// The game is over.
    Over,
}

/// How to watch.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// Lines each way, if known.
    pub size: Option<usize>,
    /// The colour the player plays.
    pub me: Stone,
    /// Frames in a row that must read the same stones for a board to count as settled.
    pub settle: usize,
    /// Whether the player's reply must be placed where it was announced (a robot arm, or a
    /// person playing the computer's moves). When not, the reply is only a suggestion: any
    /// turn of the player's colour is taken as played.
    pub place_reply: bool,
}

/// The watch loop.
pub struct Watcher<R: Referee> {
    opts: WatchOptions,
    referee: R,
    state: State,
    /// The last frames' reads (`None`: no board seen).
    recent: VecDeque<Option<Vec<Stone>>>,
    /// The last settled board acted on (or warned about), so each is handled once.
    settled: Option<Vec<Stone>>,
    /// The board the game is at.
    board: Vec<Stone>,
    /// The last warning given since the game last moved: a settled board that differs from
    /// the previous one elsewhere (a misread point) but shows the same fault is not warned
    /// of again.
    warned: Option<String>,
    size: Option<usize>,
}

impl<R: Referee> Watcher<R> {
    pub fn new(opts: WatchOptions, referee: R) -> Watcher<R> {
        let size = opts.size;
        Watcher {
            opts,
            referee,
            state: State::Settling,
            recent: VecDeque::new(),
            settled: None,
            board: Vec::new(),
            warned: None,
            size,
        }
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn referee(&self) -> &R {
        &self.referee
    }

    /// Reads one frame and reports what it settles.
    pub fn frame(&mut self, img: &RgbImage) -> Vec<Event> {
        match crate::read_board(img, &self.read_options()) {
            Ok(read) => self.read(&read),
            Err(_) => {
                self.no_board();
                Vec::new()
            }
        }
    }

    /// How a frame is read: with the board's size once it is known.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            size: self.size,
            corners: None,
        }
    }

    /// A frame in which no board was read (a hand over most of it, the camera turned away):
    /// it breaks the run of agreeing frames.
    pub fn no_board(&mut self) {
        self.push(None);
    }

    /// Takes one frame's read and reports what it settles.
    pub fn read(&mut self, read: &BoardRead) -> Vec<Event> {
        let stones = read.stones();
        self.push(Some(stones.clone()));
        let settled = self.recent.len() >= self.opts.settle.max(1)
            && self.recent.iter().all(|r| r.as_ref() == Some(&stones));
        if !settled || self.settled.as_ref() == Some(&stones) || self.state == State::Over {
            return Vec::new();
        }
        self.settled = Some(stones.clone());
        let mut events = self.settle(read, stones);
        events.retain(|e| match e {
            Event::Warning { message } => {
                let again = self.warned.as_ref() == Some(message);
                self.warned = Some(message.clone());
                !again
            }
            Event::Move { .. } | Event::Position { .. } => {
                self.warned = None;
                true
            }
            _ => true,
        });
        events
    }

    fn push(&mut self, read: Option<Vec<Stone>>) {
        self.recent.push_back(read);
        while self.recent.len() > self.opts.settle.max(1) {
            self.recent.pop_front();
        }
    }

    /// A new settled board.
    fn settle(&mut self, read: &BoardRead, stones: Vec<Stone>) -> Vec<Event> {
        let mut out = Vec::new();
        match self.state.clone() {
            State::Settling => {
                if let Err(why) = self.referee.start(read.size, &stones) {
                    out.push(warning(format!(
                        "the board is not a position of the game: {why}"
                    )));
                    return out;
                }
                self.size = Some(read.size);
                self.board = stones;
                out.push(Event::Position {
                    text: self.referee.position(),
                    to_move: self.referee.to_move(),
                });
                self.next_turn(read, &mut out);
            }
            State::Opponent => {
                let side = self.referee.to_move();
                match self.turn(&stones, side, self.referee.stones_this_turn()) {
                    Change::None | Change::Partial => {}
                    Change::Bad(message) => out.push(warning(message)),
                    Change::Turn(points) => match self.referee.play(&points) {
                        Ok(text) => {
                            self.board = stones;
                            out.push(Event::Move { side, text, points });
                            self.next_turn(read, &mut out);
                        }
                        Err(why) => out.push(warning(format!("not a legal move: {why}"))),
                    },
                }
            }
            State::Placing { text, points } => {
                let side = self.opts.me;
                let n = read.size;
                match self.turn(&stones, side, points.len()) {
                    Change::None | Change::Partial => {}
                    Change::Turn(seen) if same_points(&seen, &points) || !self.opts.place_reply => {
                        match self.referee.play(&seen) {
                            Ok(text) => {
                                self.board = stones;
                                out.push(Event::Move {
                                    side,
                                    text,
                                    points: seen,
                                });
                                self.next_turn(read, &mut out);
                            }
                            Err(why) => out.push(warning(format!("not a legal move: {why}"))),
                        }
                    }
                    Change::Turn(seen) => out.push(warning(format!(
                        "{} placed at {}, but the reply {text} goes at {}",
                        colour(side),
                        names(n, &seen),
                        names(n, &points)
                    ))),
                    Change::Bad(message) => out.push(warning(message)),
                }
            }
            State::Over => {}
        }
        out
    }

    /// After a turn: the result, or the reply when it is the player's turn.
    fn next_turn(&mut self, read: &BoardRead, out: &mut Vec<Event>) {
        if let Some(text) = self.referee.result() {
            out.push(Event::Result { text });
            self.state = State::Over;
            return;
        }
        if self.referee.to_move() != self.opts.me {
            self.state = State::Opponent;
            return;
        }
        match self.referee.reply() {
            Ok((text, points)) => {
                let pixels = points
                    .iter()
                    .map(|&(c, r)| {
                        let p = read.at(c, r);
                        (p.x, p.y)
                    })
                    .collect();
                out.push(Event::Reply {
                    text: text.clone(),
                    points: points.clone(),
                    pixels,
                });
                self.state = State::Placing { text, points };
            }
            Err(why) => {
                out.push(warning(format!("no reply: {why}")));
                self.state = State::Opponent;
            }
        }
    }

    /// How `stones` differs from the game's board, for a turn of `count` stones of `side`.
    fn turn(&self, stones: &[Stone], side: Stone, count: usize) -> Change {
        let n = self.size.unwrap_or(0);
        if stones.len() != self.board.len() {
            return Change::Bad(format!(
                "the board now reads as {} lines each way, not {n}",
                (stones.len() as f64).sqrt().round()
            ));
        }
        let mut added = Vec::new();
        let mut wrong = Vec::new();
        let mut gone = Vec::new();
        for (k, (&was, &now)) in self.board.iter().zip(stones).enumerate() {
            let p = (k % n, k / n);
            match (was, now) {
                (a, b) if a == b => {}
                (Stone::Empty, s) if s == side => added.push(p),
                (Stone::Empty, _) => wrong.push(p),
                _ => gone.push(p),
            }
        }
        if !gone.is_empty() {
            return Change::Bad(format!(
                "stones moved or removed at {} (the game's board is kept)",
                names(n, &gone)
            ));
        }
        if !wrong.is_empty() {
            return Change::Bad(format!(
                "{} stone at {}, but {} is to move",
                colour(other(side)),
                names(n, &wrong),
                colour(side)
            ));
        }
        match added.len() {
            0 => Change::None,
            k if k < count => Change::Partial,
            k if k == count => Change::Turn(added),
            k => Change::Bad(format!(
                "{k} {} stones placed at {}, a turn places {count}",
                colour(side),
                names(n, &added)
            )),
        }
    }
}

enum Change {
    None,
    /// Some of the turn's stones.
    Partial,
    Turn(Vec<Point>),
    Bad(String),
}

fn warning(message: String) -> Event {
    Event::Warning { message }
}

fn same_points(a: &[Point], b: &[Point]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

fn other(s: Stone) -> Stone {
    match s {
        Stone::Black => Stone::White,
        _ => Stone::Black,
    }
}

/// `black` or `white`.
pub fn colour(s: Stone) -> &'static str {
    match s {
        Stone::Black => "black",
        Stone::White => "white",
        Stone::Empty => "empty",
    }
}

/// Points in board notation for messages: column letter, row counted from the bottom of
/// an `n`-line board.
fn names(n: usize, points: &[Point]) -> String {
    let v: Vec<String> = points
        .iter()
        .map(|&(c, r)| format!("{}{}", (b'a' + c as u8) as char, n - r))
        .collect();
    v.join(" ")
}
