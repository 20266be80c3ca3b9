//! `boyi watch SOURCE`: watches a Gomoku or Connect6 game on a real board through a camera,
//! and answers each of the opponent's turns with the player's move, where a robot arm (or a
//! person) places it. The loop itself is `boyi_vision::watch`, with the rules and the player
//! of `boyi_server::camera::referee` (the camera page's too); this command feeds it frames.
//! Output: one JSON object a line.

use super::frames::{self, Frame};
use super::vision::{DEFAULT_MAX_MEGAPIXELS, DEFAULT_MOVETIME_MS, max_pixels};
use anyhow::{Context, Result, bail};
use boyi_engines::{GamePlayers, Limits};
use boyi_games::GameKind;
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::Gomoku;
use boyi_server::camera::referee::GameReferee;
use boyi_vision::Stone;
use boyi_vision::watch::{Event, WatchOptions, Watcher};
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
        "gomoku" => watch::<Gomoku>(args, GameKind::Gomoku),
        "connect6" => watch::<Connect6>(args, GameKind::Connect6),
        "jiu" | "xiangqi" => bail!(
            "boyi watch follows games played by placing stones (gomoku, connect6); {} is not one",
            args.game
        ),
        g => bail!("unknown game {g:?}: boyi watch follows gomoku or connect6"),
    }
}

fn watch<G: GamePlayers>(args: &WatchArgs, kind: GameKind) -> Result<()> {
    if let Some(n) = args.size
        && !(5..=26).contains(&n)
    {
        bail!("--size {n} is not in 5..=26");
    }
    if args.settle == 0 || args.settle > 100 {
        bail!("--settle {} must be 1 to 100 frames", args.settle);
    }
    let max_pixels = max_pixels(args.max_megapixels)?;
    let player = super::analyze::any_player::<G>(args.player.as_deref()).context("--player")?;
    let me = match args.me {
        Colour::Black => Stone::Black,
        Colour::White => Stone::White,
    };
    let limits = Limits {
        movetime: Some(Duration::from_millis(args.movetime.max(1))),
        ..Limits::default()
    };
    let referee = GameReferee::<G>::new(kind, player, limits, None);
    let opts = WatchOptions {
        size: args.size,
        me,
        settle: args.settle,
        place_reply: true,
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

fn event_json(e: &Event, frame: &str) -> Value {
    let mut v = boyi_server::camera::referee::event_json(e);
    v["frame"] = frame.into();
    v
}
