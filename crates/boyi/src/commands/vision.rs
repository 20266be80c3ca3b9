//! `boyi vision PHOTO`: reads a board position from a photo; `boyi vision synth`: renders a
//! synthetic board photo with its true position beside it.
//!
//! Game modes check the read against the rules (stone counts, side to move, the game's own
//! position parser); an implausible read exits with status 2 and names the doubtful points.

use anyhow::{Context, Result, bail};
use boyi_core::{Game, Side};
use boyi_engines::{GameHistory, GamePlayers, Info, Limits, StopFlag};
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::Gomoku;
use boyi_games::jiu::Jiu;
use boyi_vision::synth::{Level, SynthOptions};
use boyi_vision::{BoardRead, ReadOptions, Stone};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct VisionArgs {
    #[command(subcommand)]
    pub command: Option<VisionCommand>,
    #[command(flatten)]
    pub read: ReadArgs,
}

#[derive(Subcommand, Debug)]
pub enum VisionCommand {
    /// Render a synthetic board photo (JPEG) and write its true position beside it (.txt),
    /// or the frames of a game being played (`--sequence`).
    Synth(SynthArgs),
}

#[derive(Args, Debug)]
pub struct ReadArgs {
    /// The photo (JPEG or PNG).
    #[arg(required = true)]
    pub photo: Option<PathBuf>,
    /// What the board is: a game (checked against its rules) or any square grid.
    #[arg(long, value_enum, default_value_t = VisionGame::Grid)]
    pub game: VisionGame,
    /// Lines each way (default: found in the photo; jiu: 14).
    #[arg(long)]
    pub size: Option<usize>,
    /// Side to move, b or w (default: inferred from the stone counts).
    #[arg(long)]
    pub to_move: Option<String>,
    /// rows: one line per row, top first (. x o); text: the game's position text.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Print JSON: grid corners and every intersection's pixel position and confidence.
    #[arg(long)]
    pub json: bool,
    /// The four outer grid corners in pixels, `x1,y1,x2,y2,x3,y3,x4,y4`, any order.
    #[arg(long)]
    pub corners: Option<String>,
    /// Also suggest a move (board notation and pixel position).
    #[arg(long)]
    pub suggest: bool,
    /// The player that suggests the move (default: the game's default built-in player).
    #[arg(long)]
    pub player: Option<String>,
    /// How long the suggestion's search may take, in milliseconds.
    #[arg(long, default_value_t = DEFAULT_MOVETIME_MS)]
    pub movetime: u64,
    /// A read with any point less sure than this (0.5 a guess, 1 certain) is printed, its
    /// unsure points listed on stderr, and exits with status 2; 0 turns the check off.
    #[arg(long, default_value_t = UNSURE)]
    pub unsure_below: f64,
    /// Largest image read, in megapixels: a larger one is refused before it is decoded.
    #[arg(long, default_value_t = DEFAULT_MAX_MEGAPIXELS)]
    pub max_megapixels: f64,
}

/// Default of `--unsure-below`.
pub const UNSURE: f64 = 0.7;

/// Default search time of `--suggest` (and of `boyi watch`'s replies).
pub const DEFAULT_MOVETIME_MS: u64 = 2000;
/// Default of `--max-megapixels`.
pub const DEFAULT_MAX_MEGAPIXELS: f64 = boyi_vision::MAX_PIXELS as f64 / 1e6;

/// `--max-megapixels` as a pixel count.
pub fn max_pixels(megapixels: f64) -> Result<u64> {
    if !(megapixels.is_finite() && megapixels > 0.0 && megapixels <= 1e4) {
        bail!("--max-megapixels {megapixels} must be a number above 0 and at most 10000");
    }
    Ok((megapixels * 1e6) as u64)
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum VisionGame {
    Gomoku,
    Connect6,
    Jiu,
    Grid,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Rows,
    Text,
}

#[derive(Args, Debug)]
pub struct SynthArgs {
    /// Where to write the JPEG; the true position goes to the same name with `.txt`.
    #[arg(long, short, required_unless_present = "sequence")]
    pub out: Option<PathBuf>,
    /// Render the frames of a game instead, from the empty board: its moves in the game's
    /// move text, comma-separated (gomoku `h8,h9,i9`; connect6 `j10,k10 k11,…`). Between
    /// still frames of each position a hand places each stone; the camera shakes a little
    /// and the light drifts.
    #[arg(long, requires = "out_dir", conflicts_with_all = ["out", "position"])]
    pub sequence: Option<String>,
    /// Where `--sequence` writes its frames (`frame-0000.jpg`, …) and `frames.txt` (what
    /// each frame shows).
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// The game of `--sequence`: gomoku or connect6.
    #[arg(long, default_value = "gomoku")]
    pub game: String,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// easy, medium, hard, or variety (the range of physical boards: light to dark woods,
    /// cloth tables, flash glare).
    #[arg(long, default_value = "easy")]
    pub level: String,
    /// Lines each way (default: drawn from 9, 13, 14, 15, 19).
    #[arg(long)]
    pub size: Option<usize>,
    #[arg(long, default_value_t = 640)]
    pub width: u32,
    #[arg(long, default_value_t = 480)]
    pub height: u32,
    /// The position to show: rows top first separated by `/`, each of `.`, `x`, `o` or
    /// run-length digits for empty points (the rows of positions.md). Default: random.
    #[arg(long)]
    pub position: Option<String>,
    /// Barrel distortion k1 of the lens: a point at the photo corner is drawn k1 of the
    /// half-diagonal nearer the centre (default: drawn up to the level's limit).
    #[arg(long)]
    pub distortion: Option<f64>,
}

/// Exit status of an implausible read.
const IMPLAUSIBLE: i32 = 2;

pub fn run(args: &VisionArgs) -> Result<()> {
    match &args.command {
        Some(VisionCommand::Synth(s)) => synth(s),
        None => read(&args.read),
    }
}

fn synth(args: &SynthArgs) -> Result<()> {
    let look = SynthOptions {
        seed: args.seed,
        level: args.level.parse::<Level>()?,
        width: args.width,
        height: args.height,
        size: args.size,
        position: None,
        distortion: args.distortion,
    };
    if let (Some(moves), Some(dir)) = (&args.sequence, &args.out_dir) {
        return super::sequence::frames(&args.game, look, moves, dir);
    }
    let out = args
        .out
        .as_ref()
        .context("--out names the photo to write")?;
    let position = match &args.position {
        Some(text) => {
            let (n, stones) = parse_rows(text)?;
            if args.size.is_some_and(|s| s != n) {
                bail!(
                    "--position has {n} lines each way but --size says {}",
                    args.size.unwrap_or(0)
                );
            }
            Some((n, stones))
        }
        None => None,
    };
    let opts = SynthOptions {
        size: position.as_ref().map(|p| p.0).or(args.size),
        position: position.map(|p| p.1),
        ..look
    };
    let s = boyi_vision::synth::render(&opts)?;
    std::fs::write(out, &s.jpeg).with_context(|| format!("writing {}", out.display()))?;
    let truth = out.with_extension("txt");
    std::fs::write(&truth, s.truth_rows().join("\n") + "\n")
        .with_context(|| format!("writing {}", truth.display()))?;
    let corners: Vec<String> = s
        .corners
        .iter()
        .map(|c| format!("{:.1},{:.1}", c.0, c.1))
        .collect();
    outln!(
        "{} {}x{} lines, corners {}",
        out.display(),
        s.size,
        s.size,
        corners.join(",")
    );
    Ok(())
}

/// The most lines a board read or drawn may have each way.
const MAX_LINES: usize = 26;

/// Parses rows separated by `/`: `.` `x` `o`, or digits for runs of empty points.
fn parse_rows(text: &str) -> Result<(usize, Vec<Stone>)> {
    let mut rows: Vec<Vec<Stone>> = Vec::new();
    for (r, row) in text.trim().split('/').enumerate() {
        let mut v = Vec::new();
        let mut run = 0usize;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                if run > MAX_LINES {
                    bail!(
                        "row {}: a run of {run}+ empty points is longer than any board",
                        r + 1
                    );
                }
                continue;
            }
            if v.len() + run >= MAX_LINES {
                bail!("row {}: more than {MAX_LINES} points", r + 1);
            }
            v.extend(std::iter::repeat_n(Stone::Empty, run));
            run = 0;
            v.push(
                Stone::from_symbol(ch)
                    .with_context(|| format!("row {}: unexpected {ch:?}", r + 1))?,
            );
        }
        v.extend(std::iter::repeat_n(Stone::Empty, run));
        if v.len() > MAX_LINES {
            bail!("row {}: more than {MAX_LINES} points", r + 1);
        }
        rows.push(v);
        if rows.len() > MAX_LINES {
            bail!("more than {MAX_LINES} rows: boards have 5 to {MAX_LINES} lines");
        }
    }
    let n = rows.len();
    if let Some((r, row)) = rows.iter().enumerate().find(|(_, row)| row.len() != n) {
        bail!(
            "row {} has {} points, expected {n} (a square board)",
            r + 1,
            row.len()
        );
    }
    Ok((n, rows.into_iter().flatten().collect()))
}

fn read(args: &ReadArgs) -> Result<()> {
    let photo = args.photo.as_ref().context("a photo is required")?;
    let size = match (args.game, args.size) {
        (VisionGame::Jiu, Some(n)) if n != 14 => bail!("the jiu board has 14 lines, not {n}"),
        (VisionGame::Jiu, _) => Some(14),
        (_, s) => s,
    };
    let to_move = match args.to_move.as_deref() {
        None => None,
        Some(s) => {
            Some(Side::from_letter(s).with_context(|| format!("--to-move {s:?} must be b or w"))?)
        }
    };
    if !(0.0..=1.0).contains(&args.unsure_below) {
        bail!("--unsure-below {} must be from 0 to 1", args.unsure_below);
    }
    let corners = args.corners.as_deref().map(parse_corners).transpose()?;
    let img = boyi_vision::load_image_within(photo, max_pixels(args.max_megapixels)?)?;
    let board = boyi_vision::read_board(&img, &ReadOptions { size, corners })?;
    warn_doubtful(&board);
    let text = match position_text(args.game, &board, to_move) {
        Ok(t) => t,
        Err(why) => implausible(args.game, &board, &why),
    };
    let format = args.format.unwrap_or(match args.game {
        VisionGame::Grid => Format::Rows,
        _ => Format::Text,
    });
    let mut out = match format {
        Format::Rows => board.rows().join("\n") + "\n",
        Format::Text => format!("{text}\n"),
    };
    if args.suggest {
        let how = Suggest {
            player: args.player.as_deref(),
            movetime: args.movetime,
        };
        out.push_str(&suggestion(args.game, &board, &text, &how)?);
    } else if args.player.is_some() {
        bail!("--player chooses who suggests a move: give --suggest too");
    }
    if args.json {
        out = json(&board, out.trim_end());
    }
    out!("{out}");
    let unsure: Vec<(String, f64)> = doubtful_points(&board)
        .into_iter()
        .filter(|p| p.1 < args.unsure_below)
        .collect();
    if !unsure.is_empty() {
        let count = board
            .points
            .iter()
            .filter(|p| p.confidence < args.unsure_below)
            .count();
        let names: Vec<String> = unsure
            .iter()
            .map(|(name, c)| format!("{name} ({c:.2})"))
            .collect();
        eprintln!(
            "error: unsure read: {count} point(s) under confidence {}, least sure first: {} \
             (check them, or read a clearer photo)",
            args.unsure_below,
            names.join(", ")
        );
        std::process::exit(IMPLAUSIBLE);
    }
    Ok(())
}

fn parse_corners(text: &str) -> Result<[(f64, f64); 4]> {
    let v: Vec<f64> = text
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<f64>()
                .with_context(|| format!("--corners: {s:?} is not a number"))
        })
        .collect::<Result<_>>()?;
    if v.len() != 8 {
        bail!(
            "--corners needs 8 numbers (x,y of four corners), got {}",
            v.len()
        );
    }
    Ok([(v[0], v[1]), (v[2], v[3]), (v[4], v[5]), (v[6], v[7])])
}

/// A point's name in board notation: column letter, row number counted from the bottom.
fn point_name(n: usize, col: usize, row_from_top: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, n - row_from_top)
}

/// Points read with less confidence than this are doubtful.
const DOUBTFUL: f64 = 0.75;

fn doubtful_points(board: &BoardRead) -> Vec<(String, f64)> {
    let n = board.size;
    let mut v: Vec<(String, f64)> = board
        .points
        .iter()
        .enumerate()
        .map(|(k, p)| (point_name(n, k % n, k / n), p.confidence))
        .collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    let low = v.iter().filter(|p| p.1 < DOUBTFUL).count();
    v.truncate(low.clamp(3, 12));
    v
}

fn warn_doubtful(board: &BoardRead) {
    let low: Vec<String> = doubtful_points(board)
        .into_iter()
        .filter(|p| p.1 < DOUBTFUL)
        .map(|(name, c)| format!("{name} ({c:.2})"))
        .collect();
    if !low.is_empty() {
        eprintln!("warning: low confidence at {}", low.join(", "));
    }
}

fn implausible(game: VisionGame, board: &BoardRead, why: &str) -> ! {
    let names: Vec<String> = doubtful_points(board)
        .into_iter()
        .map(|(name, c)| format!("{name} ({c:.2})"))
        .collect();
    eprintln!("error: implausible {} read: {why}", game_name(game));
    eprintln!("read:\n{}", board.rows().join("\n"));
    eprintln!(
        "doubtful points (least confident first): {}",
        names.join(", ")
    );
    std::process::exit(IMPLAUSIBLE);
}

fn game_name(g: VisionGame) -> &'static str {
    match g {
        VisionGame::Gomoku => "gomoku",
        VisionGame::Connect6 => "connect6",
        VisionGame::Jiu => "jiu",
        VisionGame::Grid => "grid",
    }
}
fn counts(board: &BoardRead) -> (usize, usize) {
    let b = board
        .points
        .iter()
        .filter(|p| p.stone == Stone::Black)
        .count();
    let w = board
        .points
        .iter()
        .filter(|p| p.stone == Stone::White)
        .count();
    (b, w)
}

/// The position text for the game, or why the read cannot be a position of that game.
fn position_text(
    game: VisionGame,
    board: &BoardRead,
    to_move: Option<Side>,
) -> Result<String, String> {
    let rows = board.position_rows();
    let (b, w) = counts(board);
    let side = |expected: Option<Side>, rule: &str| -> Result<Side, String> {
        match (expected, to_move) {
            (Some(e), Some(t)) if e != t => Err(format!(
                "{b} black and {w} white stones mean {} to move ({rule}), but --to-move says {}",
                Gomoku::side_name(e),
                Gomoku::side_name(t)
            )),
            (Some(e), _) => Ok(e),
            (None, _) => Err(format!(
                "{b} black and {w} white stones are impossible ({rule})"
            )),
        }
    };
    match game {
        VisionGame::Grid => Ok(match to_move {
            Some(s) => format!("{rows} {}", s.letter()),
            None => rows,
        }),
        VisionGame::Gomoku => {
            let rule = "black moves first, one stone a turn";
            let s = side(gomoku_side(b, w), rule)?;
            let text = format!("{rows} {}", s.letter());
            Gomoku::from_text(&Default::default(), &text).map_err(|e| e.to_string())?;
            Ok(text)
        }
        VisionGame::Connect6 => {
            let rule = "black places one stone, then two a turn";
            let s = side(connect6_side(b, w), rule)?;
            let text = format!("{rows} {}", s.letter());
            Connect6::from_text(&Default::default(), &text).map_err(|e| e.to_string())?;
            Ok(text)
        }
        VisionGame::Jiu => jiu_text(board, &rows, b, w, to_move),
    }
}

pub fn gomoku_side(b: usize, w: usize) -> Option<Side> {
    if b == w {
        Some(Side::Black)
    } else if b == w + 1 {
        Some(Side::White)
    } else {
        None
    }
}

pub fn connect6_side(b: usize, w: usize) -> Option<Side> {
    if b == 0 && w == 0 || w == b + 1 {
        Some(Side::Black)
    } else if b == w + 1 {
        Some(Side::White)
    } else {
        None
    }
}

/// Jiu (rules/jiu.md), then the jiu position parser: while placing, white places first and the first two placements are
/// the two ends of the central diagonal (g7, h8); in battle the centre pieces are gone, so
/// each side has at most 97 pieces on the board.
fn jiu_text(
    board: &BoardRead,
    rows: &str,
    b: usize,
    w: usize,
    to_move: Option<Side>,
) -> Result<String, String> {
    let n = board.size;
    let at = |name_col: usize, name_row: usize| board.at(name_col, n - name_row).stone;
    let (g7, h8) = (at(6, 7), at(7, 8));
    let placing = b + w < n * n && (w == b || w == b + 1);
    if placing {
        let next = if w == b { Side::White } else { Side::Black };
        if to_move.is_some_and(|t| t != next) {
            return Err(format!(
                "{w} white and {b} black pieces placed mean {} places next",
                Gomoku::side_name(next)
            ));
        }
        let centre_ok = match b + w {
            0 => g7 == Stone::Empty && h8 == Stone::Empty,
            1 => (g7 == Stone::White) != (h8 == Stone::White),
            _ => g7 != Stone::Empty && h8 != Stone::Empty && g7 != h8,
        };
        if !centre_ok {
            return Err("the first two placements must be white and black on g7 and h8".into());
        }
        let text = format!("{rows} {} place {} 0", next.letter(), b + w);
        Jiu::from_text(&Default::default(), &text).map_err(|e| e.to_string())?;
        return Ok(text);
    }
    if b.max(w) > 97 {
        return Err(format!(
            "{b} black and {w} white pieces: neither side can have more than 97 in battle"
        ));
    }
    let side = to_move.unwrap_or_else(|| {
        eprintln!("warning: battle position; side to move not given, assuming black");
        Side::Black
    });
    eprintln!("warning: battle position; moves without capture unknown, written as 0");
    let text = format!("{rows} {} battle {} 0", side.letter(), n * n);
    Jiu::from_text(&Default::default(), &text).map_err(|e| e.to_string())?;
    Ok(text)
}

/// A move from the game's default built-in player (the player registry's
/// `GamePlayers::default_player`, as `boyi analyze` uses) for the read position, in board
/// notation and as the photo pixels of every point the move names.
fn suggestion(game: VisionGame, board: &BoardRead, text: &str, how: &Suggest) -> Result<String> {
    let (mv, name) = match game {
        VisionGame::Gomoku => engine_move::<Gomoku>(text, how)?,
        VisionGame::Connect6 => engine_move::<Connect6>(text, how)?,
        VisionGame::Jiu => engine_move::<Jiu>(text, how)?,
        VisionGame::Grid => bail!("--suggest needs --game gomoku, connect6 or jiu"),
    };
    let n = board.size;
    let pixels: Vec<String> = mv
        .split([' ', '-', '*'])
        .filter_map(|tok| boyi_core::Point::parse(tok, n).ok())
        .map(|p| {
            let at = board.at(p.col as usize, n - 1 - p.row as usize);
            format!("{:.1},{:.1}", at.x, at.y)
        })
        .collect();
    Ok(format!(
        "suggest {mv} pixels {} player {name}\n",
        pixels.join(" ")
    ))
}

/// Who suggests a move, and how long it may search.
pub struct Suggest<'a> {
    pub player: Option<&'a str>,
    pub movetime: u64,
}

fn engine_move<G: GamePlayers>(text: &str, how: &Suggest) -> Result<(String, String)> {
    let pos = G::from_text(&Default::default(), text)?;
    if let Some(o) = pos.outcome() {
        bail!("nothing to suggest: the game is over ({o})");
    }
    let mut player = super::analyze::any_player::<G>(how.player).context("--player")?;
    let limits = Limits {
        movetime: Some(std::time::Duration::from_millis(how.movetime.max(1))),
        ..Limits::default()
    };
    let mv = player
        .choose(
            &GameHistory::new(pos.clone()),
            &limits,
            &StopFlag::new(),
            &mut |_: Info| {},
        )
        .map_err(|e| anyhow::anyhow!("{}: {e}", player.name()))?;
    Ok((pos.format_move(&mv), player.name()))
}

/// The read as JSON: size, corners (top-left, top-right, bottom-right, bottom-left), the
/// output text, and every intersection top row first.
fn json(board: &BoardRead, output: &str) -> String {
    let n = board.size;
    let corners: Vec<String> = board
        .corners()
        .iter()
        .map(|c| format!("[{:.2},{:.2}]", c.0, c.1))
        .collect();
    let points: Vec<String> = board
        .points
        .iter()
        .enumerate()
        .map(|(k, p)| {
            format!(
                "{{\"point\":\"{}\",\"col\":{},\"row\":{},\"stone\":\"{}\",\"x\":{:.2},\"y\":{:.2},\"confidence\":{:.3}}}",
                point_name(n, k % n, k / n),
                k % n,
                k / n,
                p.stone.symbol(),
                p.x,
                p.y,
                p.confidence
            )
        })
        .collect();
    format!(
        "{{\"size\":{n},\"corners\":[{}],\"output\":\"{}\",\"points\":[{}]}}\n",
        corners.join(","),
        output
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n"),
        points.join(",")
    )
}
