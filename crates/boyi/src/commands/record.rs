//! `boyi record …`: convert, validate, show, import and search game records.

use anyhow::{Context, Result, bail};
use boyi_core::{Game, RenderOptions};
use boyi_games::{GameKind, with_game};
use boyi_records::{Checked, Format, ReadOptions, replay};
use boyi_store::{DEFAULT_PATH, Query, Store};
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Subcommand, Debug)]
pub enum RecordCommand {
    /// Convert a record file to another format (by the output's extension or --to).
    Convert(ConvertArgs),
    /// Replay record files through the rules and report the first illegal move.
    Validate(ValidateArgs),
    /// Replay a record in the terminal.
    Show(ShowArgs),
    /// Import record files into the game database.
    Import(ImportArgs),
    /// Search the game database by player, result, date or position.
    Search(SearchArgs),
}

#[derive(Args, Debug)]
pub struct InputArgs {
    /// Variant of games whose files do not name one (e.g. .psq).
    #[arg(long)]
    pub variant: Option<String>,
    /// Input format when neither the extension nor the content tells.
    #[arg(long)]
    pub from: Option<String>,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    pub input: PathBuf,
    pub output: PathBuf,
    #[command(flatten)]
    pub input_opts: InputArgs,
    /// Output format (default: from the output's extension).
    #[arg(long)]
    pub to: Option<String>,
}

#[derive(Args, Debug)]
pub struct ValidateArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub input_opts: InputArgs,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    pub file: PathBuf,
    /// Print only the final position text.
    #[arg(long)]
    pub fen: bool,
    /// Draw the board after every move, not only at the end.
    #[arg(long)]
    pub all: bool,
    /// Which game of a file holding several (from 1).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Chinese piece names (xiangqi).
    #[arg(long)]
    pub chinese: bool,
    #[command(flatten)]
    pub input_opts: InputArgs,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Database file.
    #[arg(long, default_value = DEFAULT_PATH)]
    pub db: PathBuf,
    #[command(flatten)]
    pub input_opts: InputArgs,
}

#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Database file.
    #[arg(long, default_value = DEFAULT_PATH)]
    pub db: PathBuf,
    /// gomoku, connect6, jiu or xiangqi (needed with --position or --moves).
    #[arg(long)]
    pub game: Option<GameKind>,
    /// Variant of the searched position (with --position or --moves).
    #[arg(long)]
    pub variant: Option<String>,
    /// Board size of the start position (with --moves).
    #[arg(long)]
    pub size: Option<usize>,
    /// Either side's name.
    #[arg(long)]
    pub player: Option<String>,
    /// black, white, draw or unfinished.
    #[arg(long)]
    pub result: Option<String>,
    /// Date prefix (2024, 2024-05) or range FROM..TO.
    #[arg(long)]
    pub date: Option<String>,
    /// Position text: list the games that reached it and the move each played next.
    #[arg(long)]
    pub position: Option<String>,
    /// Comma-separated moves from the start (or from --position).
    #[arg(long)]
    pub moves: Option<String>,
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
}

pub fn run(cmd: &RecordCommand) -> Result<()> {
    match cmd {
        RecordCommand::Convert(a) => convert(a),
        RecordCommand::Validate(a) => validate(a),
        RecordCommand::Show(a) => show(a),
        RecordCommand::Import(a) => import(a),
        RecordCommand::Search(a) => search(a),
    }
}

/// Reads and replays a record file.
pub fn read_records(path: &Path, opts: &InputArgs) -> Result<Vec<Checked>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let format = match &opts.from {
        Some(f) => Format::parse(f)?,
        None => Format::detect(path, &bytes)?,
    };
    let ro = ReadOptions {
        variant: opts.variant.clone(),
    };
    boyi_records::read(&bytes, format, &ro).with_context(|| path.display().to_string())
}

fn convert(a: &ConvertArgs) -> Result<()> {
    let records: Vec<_> = read_records(&a.input, &a.input_opts)?
        .into_iter()
        .map(|c| c.record)
        .collect();
    let format = match &a.to {
        Some(f) => Format::parse(f)?,
        None => a
            .output
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
            .with_context(|| format!("{}: say the output format with --to", a.output.display()))?,
    };
    let bytes = boyi_records::write(&records, format)?;
    std::fs::write(&a.output, bytes).with_context(|| format!("writing {}", a.output.display()))
}

fn validate(a: &ValidateArgs) -> Result<()> {
    let mut failed = 0;
    let mut out = std::io::stdout().lock();
    for f in &a.files {
        match read_records(f, &a.input_opts) {
            Ok(games) => {
                let plies: usize = games.iter().map(|g| g.record.moves.len()).sum();
                writeln!(
                    out,
                    "ok {}: {} games, {plies} plies",
                    f.display(),
                    games.len()
                )?;
            }
            Err(e) => {
                failed += 1;
                writeln!(out, "invalid {e:#}")?;
            }
        }
    }
    if failed > 0 {
        bail!("{failed} of {} files are invalid", a.files.len());
    }
    Ok(())
}

fn show(a: &ShowArgs) -> Result<()> {
    let games = read_records(&a.file, &a.input_opts)?;
    let c = games
        .get(a.game.wrapping_sub(1))
        .with_context(|| format!("the file holds {} games, not game {}", games.len(), a.game))?;
    if a.fen {
        outln!("{}", c.final_text);
        return Ok(());
    }
    with_game!(c.record.game, G => show_game::<G>(c, a))?
}

fn show_game<G: Game>(c: &Checked, a: &ShowArgs) -> Result<()> {
    let rec = &c.record;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{} {}", rec.game, rec.variant.as_deref().unwrap_or(""))?;
    for (label, value) in [
        (G::side_name(boyi_core::Side::Black), &rec.black),
        (G::side_name(boyi_core::Side::White), &rec.white),
        ("date", &rec.date),
        ("event", &rec.event),
        ("site", &rec.site),
    ] {
        if !value.is_empty() {
            writeln!(out, "{label}: {value}")?;
        }
    }
    let opts = RenderOptions { chinese: a.chinese };
    let rp = replay::<G>(rec)?;
    let mut pos = rp.start;
    if a.all {
        write!(out, "{}", pos.render(&opts))?;
    }
    for (i, (mv, m)) in rp.moves.iter().zip(&rec.moves).enumerate() {
        let side = G::side_name(pos.side_to_move());
        write!(out, "{:>4}. {side} {}", i + 1, m.text)?;
        if let Some(ms) = m.time_ms {
            write!(out, "  ({})", boyi_records::boyi_text::format_seconds(ms))?;
        }
        if let Some(cm) = &m.comment {
            write!(out, "  ; {cm}")?;
        }
        writeln!(out)?;
        pos.play(mv);
        if a.all {
            write!(out, "{}", pos.render(&opts))?;
        }
    }
    if !a.all {
        write!(out, "{}", pos.render(&opts))?;
    }
    match &rec.result {
        Some(r) => {
            let who = r.winner.map_or("draw", G::side_name);
            writeln!(out, "result: {who} {}", r.reason.trim())?
        }
        None => writeln!(out, "result: unfinished")?,
    }
    Ok(())
}

fn import(a: &ImportArgs) -> Result<()> {
    let started = Instant::now();
    let mut store = Store::open(&a.db).with_context(|| a.db.display().to_string())?;
    let mut games = 0;
    for f in &a.files {
        let checked = read_records(f, &a.input_opts)?;
        store.insert_many(&checked, "import")?;
        games += checked.len();
    }
    outln!(
        "imported {games} games from {} files into {} in {:.3}s",
        a.files.len(),
        a.db.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn search(a: &SearchArgs) -> Result<()> {
    let store = Store::open(&a.db).with_context(|| a.db.display().to_string())?;
    let q = Query {
        game: a.game,
        player: a.player.clone(),
        result: a.result.clone(),
        date: a.date.clone(),
        limit: Some(a.limit),
    };
    let mut out = std::io::stdout().lock();
    if a.position.is_none() && a.moves.is_none() {
        for g in store.search(&q)? {
            writeln!(out, "{}", summary_line(&g))?;
        }
        return Ok(());
    }
    let game = a.game.context("--position and --moves need --game")?;
    let hash = with_game!(game, G => position_hash::<G>(a))??;
    let hits = store.search_position(hash, &q)?;
    let mut next: std::collections::BTreeMap<String, usize> = Default::default();
    for h in &hits {
        let mv = h.next.clone().unwrap_or_else(|| "(end)".into());
        writeln!(out, "{} ply {} next {mv}", summary_line(&h.game), h.ply)?;
        *next.entry(mv).or_default() += 1;
    }
    writeln!(out, "{} games reached the position", hits.len())?;
    for (mv, n) in next {
        writeln!(out, "next {mv}: {n}")?;
    }
    Ok(())
}

fn position_hash<G: Game>(a: &SearchArgs) -> Result<u64> {
    let args = super::rules::PositionArgs {
        game: GameKind::Gomoku,
        variant: a.variant.clone(),
        size: a.size,
        position: a.position.clone(),
        moves: a.moves.clone(),
    };
    let pos: G = super::rules::load(&args)?;
    Ok(pos.hash())
}

fn summary_line(g: &boyi_store::GameSummary) -> String {
    format!(
        "#{} {} {} {} vs {} {} {} {} plies {}",
        g.id,
        g.game,
        g.variant,
        show_name(&g.black),
        show_name(&g.white),
        g.result.as_deref().unwrap_or("unfinished"),
        show_name(&g.date),
        g.plies,
        g.event
    )
    .trim_end()
    .to_string()
}

fn show_name(s: &str) -> &str {
    if s.is_empty() { "?" } else { s }
}
