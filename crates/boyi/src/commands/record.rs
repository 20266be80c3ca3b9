//! `boyi record …`: convert, validate, show, dump, import, search and export game records.

use anyhow::{Context, Result, bail};
use boyi_core::{Game, RenderOptions, Side};
use boyi_games::{GameKind, with_game};
use boyi_records::date::parse_date_query;
use boyi_records::{Checked, Format, GameRecord, ReadOptions, replay};
use boyi_store::{DEFAULT_PATH, Db, Query, ResultFilter, Store};
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
    /// Print records as JSON, one game per line, for scripts.
    Dump(DumpArgs),
    /// Import record files (or directories of them, such as `boyi match --out`) into the
    /// game database; games it already holds are left out.
    Import(ImportArgs),
    /// Search the game database by player, result, date or position.
    Search(SearchArgs),
    /// Write games of the database to a record file (or a directory, for formats of one
    /// game a file).
    Export(ExportArgs),
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
    /// A record file, or a directory of them.
    pub input: PathBuf,
    /// The output file; `-` for standard output (then --to is needed).
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
pub struct DumpArgs {
    /// Record files or directories of them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub input_opts: InputArgs,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// Record files or directories of them.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Game database: an SQLite file or a postgres:// URL.
    #[arg(long, default_value = DEFAULT_PATH)]
    pub db: Db,
    #[command(flatten)]
    pub input_opts: InputArgs,
}

/// Which stored games: the filters `search` and `export` share.
#[derive(Args, Debug)]
pub struct FilterArgs {
    /// gomoku, connect6, jiu or xiangqi (needed with --position or --moves).
    #[arg(long)]
    pub game: Option<GameKind>,
    /// Either side's name.
    #[arg(long)]
    pub player: Option<String>,
    /// black, white (red), draw or unfinished.
    #[arg(long)]
    pub result: Option<String>,
    /// Date prefix (2024, 2024-05, 2024-05-01) or range FROM..TO (either end may be left out).
    #[arg(long)]
    pub date: Option<String>,
}

#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Game database: an SQLite file or a postgres:// URL.
    #[arg(long, default_value = DEFAULT_PATH)]
    pub db: Db,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Variant of the searched position (with --position or --moves).
    #[arg(long)]
    pub variant: Option<String>,
    /// Board size of the start position (with --moves).
    #[arg(long)]
    pub size: Option<usize>,
    /// Position text: list the games that reached it and the move each played next.
    #[arg(long)]
    pub position: Option<String>,
    /// Comma-separated moves from the start (or from --position).
    #[arg(long)]
    pub moves: Option<String>,
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The output file, or a directory for formats of one game a file (psq, xqf).
    pub output: PathBuf,
    /// Game database: an SQLite file or a postgres:// URL.
    #[arg(long, default_value = DEFAULT_PATH)]
    pub db: Db,
    /// Output format (default: from the output's extension, else boyi).
    #[arg(long)]
    pub to: Option<String>,
    #[command(flatten)]
    pub filter: FilterArgs,
    #[arg(long)]
    pub limit: Option<usize>,
}

pub fn run(cmd: &RecordCommand) -> Result<()> {
    match cmd {
        RecordCommand::Convert(a) => convert(a),
        RecordCommand::Validate(a) => validate(a),
        RecordCommand::Show(a) => show(a),
        RecordCommand::Dump(a) => dump(a),
        RecordCommand::Import(a) => import(a),
        RecordCommand::Search(a) => search(a),
        RecordCommand::Export(a) => export(a),
    }
}

/// The record files a path names: the file itself, or the files of a directory in name
/// order whose format is known by extension or content (hidden files and others are left
/// out and counted).
pub fn record_files(path: &Path) -> Result<(Vec<PathBuf>, usize)> {
    if !path.is_dir() {
        return Ok((vec![path.to_path_buf()], 0));
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("reading {}", path.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("reading {}", path.display()))?;
    files.sort();
    let mut skipped = 0;
    files.retain(|f| {
        let hidden = f
            .file_name()
            .and_then(|n| n.to_str())
            .is_none_or(|n| n.starts_with('.'));
        let known = !hidden
            && f.is_file()
            && std::fs::read(f).is_ok_and(|bytes| Format::detect(f, &bytes).is_ok());
        skipped += usize::from(!known);
        known
    });
    Ok((files, skipped))
}

/// Reads and replays the records of files and directories.
fn read_paths(paths: &[PathBuf], opts: &InputArgs) -> Result<(Vec<Checked>, usize, usize)> {
    let (mut games, mut files, mut skipped) = (Vec::new(), 0, 0);
    for p in paths {
        let (found, left_out) = record_files(p)?;
        skipped += left_out;
        for f in found {
            games.extend(read_records(&f, opts)?);
            files += 1;
        }
    }
    Ok((games, files, skipped))
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
    let (checked, _, _) = read_paths(std::slice::from_ref(&a.input), &a.input_opts)?;
    let records: Vec<_> = checked.into_iter().map(|c| c.record).collect();
    let to_stdout = a.output.as_os_str() == "-";
    let format = match &a.to {
        Some(f) => Format::parse(f)?,
        None if to_stdout => bail!("writing to standard output: say the format with --to"),
        None => a
            .output
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
            .with_context(|| format!("{}: say the output format with --to", a.output.display()))?,
    };
    let bytes = boyi_records::write(&records, format)?;
    if to_stdout {
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        return match out.write_all(&bytes).and_then(|()| out.flush()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            r => r.context("writing to standard output"),
        };
    }
    std::fs::write(&a.output, bytes).with_context(|| format!("writing {}", a.output.display()))
}

fn dump(a: &DumpArgs) -> Result<()> {
    for p in &a.paths {
        let (files, _) = record_files(p)?;
        for f in files {
            for c in read_records(&f, &a.input_opts)? {
                outln!("{}", super::record_json::game_json(&f, &c));
            }
        }
    }
    Ok(())
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
    let date = rec.date.map(|d| d.to_string()).unwrap_or_default();
    for (label, value) in [
        (G::side_name(Side::Black), rec.name(Side::Black)),
        (G::side_name(Side::White), rec.name(Side::White)),
        ("date", &date),
        ("event", &rec.event),
        ("round", &rec.round),
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
        if let Some(e) = m.eval {
            write!(out, "  [{e}]")?;
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
            let who = r.winner().map_or("draw", G::side_name);
            writeln!(out, "result: {who} {}", r.text())?
        }
        None => writeln!(out, "result: unfinished")?,
    }
    Ok(())
}

fn import(a: &ImportArgs) -> Result<()> {
    let started = Instant::now();
    // Every file is read and checked before anything is stored: a bad file stores nothing.
    let (games, files, skipped) = read_paths(&a.files, &a.input_opts)?;
    let mut store = Store::connect(&a.db).with_context(|| a.db.to_string())?;
    let done = store.import(&games, "import")?;
    outln!(
        "imported {} games from {files} files into {} in {:.3}s",
        done.ids.len(),
        a.db,
        started.elapsed().as_secs_f64()
    );
    if done.duplicates > 0 {
        outln!("{} games were stored already and left out", done.duplicates);
    }
    if skipped > 0 {
        outln!("{skipped} files in the directories are not records and were left out");
    }
    Ok(())
}

/// The search filters shared by `search` and `export`, checked.
fn query(f: &FilterArgs, limit: Option<usize>) -> Result<Query> {
    Ok(Query {
        game: f.game,
        player: f.player.clone(),
        result: f
            .result
            .as_deref()
            .map(str::parse::<ResultFilter>)
            .transpose()
            .map_err(anyhow::Error::msg)?,
        date: f.date.as_deref().map(parse_date_query).transpose()?,
        limit,
    })
}

fn search(a: &SearchArgs) -> Result<()> {
    let q = query(&a.filter, Some(a.limit))?;
    let store = Store::connect(&a.db).with_context(|| a.db.to_string())?;
    let mut out = std::io::stdout().lock();
    if a.position.is_none() && a.moves.is_none() {
        for g in store.search(&q)? {
            writeln!(out, "{}", summary_line(&g))?;
        }
        return Ok(());
    }
    let game = a
        .filter
        .game
        .context("--position and --moves need --game")?;
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

fn export(a: &ExportArgs) -> Result<()> {
    let q = query(&a.filter, a.limit)?;
    if let Db::Sqlite(path) = &a.db
        && !path.exists()
    {
        bail!("{}: no such database", path.display());
    }
    let store = Store::connect(&a.db).with_context(|| a.db.to_string())?;
    let format = match &a.to {
        Some(f) => Format::parse(f)?,
        None => a
            .output
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
            .unwrap_or(Format::Boyi),
    };
    let records: Vec<(i64, GameRecord)> = store
        .ids(&q)?
        .into_iter()
        .map(|id| store.load(id).map(|r| (id, r)))
        .collect::<Result<_, _>>()?;
    if format.games_per_file() == Some(1) {
        std::fs::create_dir_all(&a.output)
            .with_context(|| format!("creating {}", a.output.display()))?;
        for (id, rec) in &records {
            let path = a
                .output
                .join(format!("game-{id:06}.{}", format.extension()));
            let bytes = boyi_records::write(std::slice::from_ref(rec), format)
                .with_context(|| format!("game #{id}"))?;
            std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        }
    } else {
        let games: Vec<GameRecord> = records.iter().map(|(_, r)| r.clone()).collect();
        let bytes = boyi_records::write(&games, format)?;
        std::fs::write(&a.output, bytes)
            .with_context(|| format!("writing {}", a.output.display()))?;
    }
    outln!(
        "exported {} games to {} ({})",
        records.len(),
        a.output.display(),
        format.name()
    );
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
    let result = g
        .result
        .as_ref()
        .map_or("unfinished", boyi_records::GameResult::winner_word);
    format!(
        "#{} {} {} {} vs {} {result} {} {} plies {}",
        g.id,
        g.game,
        g.variant,
        show_name(&g.players[0]),
        show_name(&g.players[1]),
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
