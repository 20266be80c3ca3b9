//! The rules and the player of a game played by placing stones (Gomoku, Connect6), as the
//! watch loop ([`boyi_vision::watch`]) needs them, and the loop's events as JSON. `boyi watch`
//! and the camera page both follow games through these, so a move is detected one way only.

use crate::photo::implied_side;
use boyi_core::{Point as BoardPoint, Side};
use boyi_engines::{GameHistory, GamePlayers, Info, Limits, Player, StopFlag};
use boyi_games::GameKind;
use boyi_vision::Stone;
use boyi_vision::watch::{Event, Point, Referee, colour};
use serde_json::{Value, json};
use std::sync::mpsc;
use std::time::Duration;

/// The game's rules and the player, for the watch loop.
pub struct GameReferee<G: GamePlayers> {
    kind: GameKind,
    history: Option<GameHistory<G>>,
    player: Box<dyn Player<G>>,
    limits: Limits,
    /// The longest a reply may take, whatever `limits` say: the search is stopped then.
    cap: Option<Duration>,
    /// Lines each way, once started.
    size: usize,
}

impl<G: GamePlayers> GameReferee<G> {
    /// A referee for `kind` (gomoku or connect6, the game `G`) whose replies come from
    /// `player` searching within `limits`, stopped after `cap` if one is given.
    pub fn new(
        kind: GameKind,
        player: Box<dyn Player<G>>,
        limits: Limits,
        cap: Option<Duration>,
    ) -> GameReferee<G> {
        GameReferee {
            kind,
            history: None,
            player,
            limits,
            cap,
            size: 0,
        }
    }

    /// The game so far, once the first settled board started it.
    pub fn history(&self) -> Option<&GameHistory<G>> {
        self.history.as_ref()
    }

    /// Lines each way (0 before the game starts).
    pub fn size(&self) -> usize {
        self.size
    }

    fn pos(&self) -> &G {
        self.history
            .as_ref()
            .expect("the game starts before it is played")
            .current()
    }

    /// Reading coordinates (row from the top) → the game's point (row from the bottom).
    fn board_point(&self, (c, r): Point) -> BoardPoint {
        let n = self.size;
        BoardPoint {
            col: c as u8,
            row: (n - 1 - r) as u8,
        }
    }

    /// Runs the player, raising its stop flag once `cap` has passed.
    fn choose(&mut self) -> Result<G::Move, String> {
        let stop = StopFlag::new();
        let (done, finished) = mpsc::channel::<()>();
        let timer = self.cap.map(|cap| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                if finished.recv_timeout(cap) == Err(mpsc::RecvTimeoutError::Timeout) {
                    stop.stop();
                }
            })
        });
        let history = self.history.as_ref().expect("started");
        let chosen = self
            .player
            .choose(history, &self.limits, &stop, &mut |_: Info| {})
            .map_err(|e| format!("{}: {e}", self.player.name()));
        drop(done);
        if let Some(t) = timer {
            let _ = t.join();
        }
        chosen
    }
}

impl<G: GamePlayers> Referee for GameReferee<G> {
    fn start(&mut self, size: usize, stones: &[Stone]) -> Result<(), String> {
        let count = |s: Stone| stones.iter().filter(|p| **p == s).count();
        let (side, _) = implied_side(self.kind, count(Stone::Black), count(Stone::White), size)?;
        let text = format!(
            "{} {}",
            boyi_vision::position_rows(size, stones),
            side.letter()
        );
        let pos = G::from_text(&Default::default(), &text).map_err(|e| e.to_string())?;
        self.history = Some(GameHistory::new(pos));
        self.size = size;
        self.player.new_game();
        Ok(())
    }

    fn position(&self) -> String {
        self.pos().to_text()
    }

    fn to_move(&self) -> Stone {
        stone(self.pos().side_to_move())
    }

    fn stones_this_turn(&self) -> usize {
        // Connect6's first move (black's, on an empty board) is one stone.
        let empty = self
            .pos()
            .to_text()
            .split(' ')
            .next()
            .is_some_and(|rows| !rows.contains(['x', 'o']));
        if self.kind == GameKind::Connect6 && !empty {
            2
        } else {
            1
        }
    }

    fn play(&mut self, points: &[Point]) -> Result<String, String> {
        let names: Vec<String> = points
            .iter()
            .map(|&p| self.board_point(p).to_string())
            .collect();
        let pos = self.pos();
        let mv = pos
            .parse_move(&names.join(" "))
            .map_err(|e| e.to_string())?;
        if !pos.is_legal(&mv) {
            return Err(format!("{} is not legal here", names.join(" ")));
        }
        let text = pos.format_move(&mv);
        self.history.as_mut().expect("started").push(mv);
        Ok(text)
    }

    fn result(&self) -> Option<String> {
        self.pos().outcome().map(|o| o.to_string())
    }

    fn reply(&mut self) -> Result<(String, Vec<Point>), String> {
        let mv = self.choose()?;
        let n = self.size;
        let text = self.pos().format_move(&mv);
        let points = text
            .split_whitespace()
            .filter_map(|t| BoardPoint::parse(t, n).ok())
            .map(|p| (p.col as usize, n - 1 - p.row as usize))
            .collect();
        Ok((text, points))
    }
}

/// The watch loop's colour of a side.
pub fn stone(side: Side) -> Stone {
    match side {
        Side::Black => Stone::Black,
        Side::White => Stone::White,
    }
}

/// Pixels to a tenth, as JSON pairs.
pub fn pixel_json(pixels: &[(f64, f64)]) -> Vec<[f64; 2]> {
    pixels
        .iter()
        .map(|&(x, y)| [(x * 10.0).round() / 10.0, (y * 10.0).round() / 10.0])
        .collect()
}

/// One event as JSON (`{"event":"move","side":"black","move":"h8","points":[[7,7]]}`):
/// points in reading coordinates (column from the left, row from the top), pixels in the
/// frame's.
pub fn event_json(e: &Event) -> Value {
    let pairs =
        |points: &[Point]| -> Vec<[usize; 2]> { points.iter().map(|&(c, r)| [c, r]).collect() };
    match e {
        Event::Position { text, to_move } => {
            json!({"event": "position", "position": text, "to_move": colour(*to_move)})
        }
        Event::Move { side, text, points } => json!({
            "event": "move", "side": colour(*side), "move": text, "points": pairs(points)
        }),
        Event::Reply {
            text,
            points,
            pixels,
        } => {
            json!({"event": "reply", "move": text, "points": pairs(points), "pixel": pixel_json(pixels)})
        }
        Event::Warning { message } => json!({"event": "warning", "message": message}),
        Event::Result { text } => json!({"event": "result", "result": text}),
    }
}
