//! `boyi watch SOURCE`: watches a Gomoku or Connect6 game on a real board through a camera,
//! and answers each of the opponent's turns with the player's move, where a robot arm (or a
//! person) places it. The loop itself is `boyi_vision::watch`; this command feeds it frames
//! and gives it the game's rules and the player. Output: one JSON object a line.

use super::frames::{self, Frame};
use super::vision::{DEFAULT_MAX_MEGAPIXELS, DEFAULT_MOVETIME_MS, max_pixels};
use anyhow::{Context, Result, bail};
use boyi_core::{Point as BoardPoint, Side};
use boyi_engines::{BuildContext, GameHistory, GamePlayers, Info, Limits, Player, StopFlag, build};
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::Gomoku;
use boyi_vision::Stone;
use boyi_vision::watch::{Event, Point, Referee, WatchOptions, Watcher, colour};
use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use std::time::Duration;

#[derive(Args, Debug)]
pub struct WatchArgs {
    /// A directory whose image files (JPEG, PNG) are read in name order as they appear, the
    /// http:// URL of an MJPEG stream, or a V4L2 camera such as /dev/video0 (with the cargo
    /// feature v4l2).
    pub source: String,
    /// The game on the board: gomoku or connect6.
    #[arg(long)]
    pub game: String,
    /// The colour the player plays: black or white.
    #[arg(long = "as", value_enum)]
    pub me: Colour,
    /// The player that answers (default: the game's default built-in player).
    #[arg(long)]
    pub player: Option<String>,
    /// Lines each way (default: found in the frames).
    #[arg(long)]
    pub size: Option<usize>,
    /// How long each reply's search may take, in milliseconds.
    #[arg(long, default_value_t = DEFAULT_MOVETIME_MS)]
    pub movetime: u64,
    /// Frames in a row that must read the same stones before a board counts as settled.
    #[arg(long, default_value_t = 3)]
    pub settle: usize,
    /// Read the files already in the directory, then stop (instead of waiting for more).
    #[arg(long)]
    pub no_follow: bool,
    /// Read every frame of a stream in order (a recording), instead of skipping to the
    /// newest when reading falls behind (a live camera).
    #[arg(long)]
    pub every_frame: bool,
    /// Largest frame read, in megapixels.
    #[arg(long, default_value_t = DEFAULT_MAX_MEGAPIXELS)]
    pub max_megapixels: f64,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Black,
    White,
}

pub fn run(args: &WatchArgs) -> Result<()> {
    match args.game.as_str() {
        "gomoku" => watch::<Gomoku>(args, 1),
        "connect6" => watch::<Connect6>(args, 2),
        "jiu" | "xiangqi" => bail!(
            "boyi watch follows games played by placing stones (gomoku, connect6); {} is not one",
            args.game
        ),
        g => bail!("unknown game {g:?}: boyi watch follows gomoku or connect6"),
    }
}

fn watch<G: GamePlayers>(args: &WatchArgs, per_turn: usize) -> Result<()> {
    if let Some(n) = args.size
        && !(5..=26).contains(&n)
    {
        bail!("--size {n} is not in 5..=26");
    }
    if args.settle == 0 || args.settle > 100 {
        bail!("--settle {} must be 1 to 100 frames", args.settle);
    }
    let max_pixels = max_pixels(args.max_megapixels)?;
    let spec = super::analyze::builtin_spec(args.player.as_deref(), G::default_player())?;
    let player = build::<G>(spec, BuildContext::default()).context("--player")?;
    let me = match args.me {
        Colour::Black => Stone::Black,
        Colour::White => Stone::White,
    };
    let referee = GameReferee::<G> {
        history: None,
        player,
        per_turn,
        size: 0,
        movetime: Duration::from_millis(args.movetime.max(1)),
    };
    let opts = WatchOptions {
        size: args.size,
        me,
        settle: args.settle,
    };
    let mut watcher = Watcher::new(opts, referee);
    let mut source = frames::open(&args.source, !args.no_follow, args.every_frame)?;
    while let Some(Frame { name, bytes }) = source.next()? {
        let img = match boyi_vision::decode_image(&bytes, max_pixels) {
            Ok(img) => img,
            Err(e) => {
                emit(
                    json!({"event": "warning", "frame": name, "message": format!("frame not read: {e}")}),
                )?;
                continue;
            }
        };
        for event in watcher.frame(&img) {
            let over = matches!(event, Event::Result { .. });
            emit(event_json(&event, &name))?;
            if over {
                return Ok(());
            }
        }
    }
    Ok(())
}

fn emit(v: Value) -> Result<()> {
    outln!("{v}");
    Ok(())
}

fn side_name(s: Stone) -> &'static str {
    colour(s)
}

fn event_json(e: &Event, frame: &str) -> Value {
    let pairs =
        |points: &[Point]| -> Vec<[usize; 2]> { points.iter().map(|&(c, r)| [c, r]).collect() };
    match e {
        Event::Position { text, to_move } => {
            json!({"event": "position", "frame": frame, "position": text, "to_move": side_name(*to_move)})
        }
        Event::Move { side, text, points } => json!({
            "event": "move", "frame": frame, "side": side_name(*side), "move": text, "points": pairs(points)
        }),
        Event::Reply {
            text,
            points,
            pixels,
        } => {
            let pixel: Vec<[f64; 2]> = pixels
                .iter()
                .map(|&(x, y)| [(x * 10.0).round() / 10.0, (y * 10.0).round() / 10.0])
                .collect();
            json!({"event": "reply", "frame": frame, "move": text, "points": pairs(points), "pixel": pixel})
        }
        Event::Warning { message } => {
            json!({"event": "warning", "frame": frame, "message": message})
        }
        Event::Result { text } => json!({"event": "result", "frame": frame, "result": text}),
    }
}

/// The game's rules and the player, for the watch loop.
struct GameReferee<G: GamePlayers> {
    history: Option<GameHistory<G>>,
    player: Box<dyn Player<G>>,
    /// Stones a turn places after the first (Connect6: two).
    per_turn: usize,
    /// Lines each way, once started.
    size: usize,
    movetime: Duration,
}

impl<G: GamePlayers> GameReferee<G> {
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
}

impl<G: GamePlayers> Referee for GameReferee<G> {
    fn start(&mut self, size: usize, stones: &[Stone]) -> Result<(), String> {
        let (b, w) = (
            stones.iter().filter(|s| **s == Stone::Black).count(),
            stones.iter().filter(|s| **s == Stone::White).count(),
        );
        let side = if self.per_turn == 1 {
            super::vision::gomoku_side(b, w)
        } else {
            super::vision::connect6_side(b, w)
        }
        .ok_or_else(|| format!("{b} black and {w} white stones cannot come from play"))?;
        let text = format!(
            "{} {}",
            boyi_vision::position_rows(size, stones),
            side.letter()
        );
        let pos = G::from_text(&Default::default(), &text).map_err(|e| e.to_string())?;
        self.history = Some(GameHistory::new(pos));
        self.size = size;
        Ok(())
    }

    fn position(&self) -> String {
        self.pos().to_text()
    }

    fn to_move(&self) -> Stone {
        match self.pos().side_to_move() {
            Side::Black => Stone::Black,
            Side::White => Stone::White,
        }
    }

    fn stones_this_turn(&self) -> usize {
        // Connect6's first move (black's, on an empty board) is one stone.
        let empty = self
            .pos()
            .to_text()
            .split(' ')
            .next()
            .is_some_and(|rows| !rows.contains(['x', 'o']));
        if empty { 1 } else { self.per_turn }
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
        let limits = Limits {
            movetime: Some(self.movetime),
            ..Limits::default()
        };
        let history = self.history.as_ref().expect("started");
        let mv = self
            .player
            .choose(history, &limits, &StopFlag::new(), &mut |_: Info| {})
            .map_err(|e| format!("{}: {e}", self.player.name()))?;
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
