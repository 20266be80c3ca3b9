//! `boyi book build` and `boyi book probe`: opening books from records.

use super::record::{InputArgs, read_records};
use anyhow::{Context, Result, bail};
use boyi_core::{Game, Point};
use boyi_games::{GameKind, with_game};
use boyi_records::book::Book;
use boyi_records::seqbook::{SEED_DEPTH, SequenceBook};
use clap::{Args, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book from record files.
    Build(BuildArgs),
    /// List the book moves of a position.
    Probe(ProbeArgs),
}

/// The kind of book.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Keyed by position: transpositions merged, symmetries folded.
    Position,
    /// Seed 002's Jiu placement sequences, matched with Boyer–Moore.
    Sequence,
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    pub game: GameKind,
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// The book file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    #[arg(long, value_enum, default_value = "position")]
    pub kind: Kind,
    /// How many moves of each game go into the book (default: 30; sequence books: 40).
    #[arg(long)]
    pub plies: Option<usize>,
    #[command(flatten)]
    pub input_opts: InputArgs,
}

#[derive(Args, Debug)]
pub struct ProbeArgs {
    pub game: GameKind,
    pub book: PathBuf,
    #[arg(long, value_enum, default_value = "position")]
    pub kind: Kind,
    /// Rule set of the probed position.
    #[arg(long)]
    pub variant: Option<String>,
    /// Board size of the start position.
    #[arg(long)]
    pub size: Option<usize>,
    /// Position text (default: the start position).
    #[arg(long)]
    pub position: Option<String>,
    /// Comma-separated moves played from the position.
    #[arg(long)]
    pub moves: Option<String>,
    /// Sequence books: match only from the start of stored games.
    #[arg(long)]
    pub anchored: bool,
}

pub fn run(cmd: &BookCommand) -> Result<()> {
    match cmd {
        BookCommand::Build(a) => build(a),
        BookCommand::Probe(a) => probe(a),
    }
}

fn build(a: &BuildArgs) -> Result<()> {
    let mut records = Vec::new();
    for f in &a.records {
        records.extend(
            read_records(f, &a.input_opts)?
                .into_iter()
                .filter(|c| c.record.game == a.game),
        );
    }
    if records.is_empty() {
        bail!("no {} games in the given records", a.game);
    }
    let (text, entries) = match a.kind {
        Kind::Position => {
            let book = Book::build(&records, a.plies.unwrap_or(30))?;
            (book.to_text(), book.len())
        }
        Kind::Sequence => {
            if a.game != GameKind::Jiu {
                bail!("sequence books are for jiu placements");
            }
            let book = SequenceBook::build(&records, a.plies.unwrap_or(SEED_DEPTH))?;
            (book.to_text(), book.len())
        }
    };
    std::fs::write(&a.output, text).with_context(|| a.output.display().to_string())?;
    outln!(
        "book {}: {} games, {entries} {}",
        a.output.display(),
        records.len(),
        if a.kind == Kind::Position {
            "positions"
        } else {
            "sequences"
        }
    );
    Ok(())
}

fn probe(a: &ProbeArgs) -> Result<()> {
    let text = std::fs::read_to_string(&a.book).with_context(|| a.book.display().to_string())?;
    with_game!(a.game, G => probe_in::<G>(a, &text))?
}

fn probe_in<G: Game>(a: &ProbeArgs, text: &str) -> Result<()> {
    let args = super::rules::PositionArgs {
        game: a.game,
        variant: a.variant.clone(),
        size: a.size,
        position: a.position.clone(),
        moves: a.moves.clone(),
    };
    let pos: G = super::rules::load(&args)?;
    let mut out = std::io::stdout().lock();
    match a.kind {
        Kind::Position => {
            let book = Book::from_text(text).context("reading the book")?;
            if book.game != G::NAME {
                bail!("the book is for {}, not {}", book.game, G::NAME);
            }
            for m in book.probe(&pos)? {
                let s = &m.stats;
                writeln!(
                    out,
                    "{}\tgames {}\twins {}\tdraws {}\tlosses {}\tscore {:.3}",
                    m.text,
                    s.games,
                    s.wins,
                    s.draws,
                    s.losses,
                    s.score()
                )?;
            }
        }
        Kind::Sequence => {
            let book = SequenceBook::from_text(text).context("reading the book")?;
            let played = placements(a.moves.as_deref().unwrap_or(""))?;
            for (p, n) in book.continuations(&played, a.anchored) {
                if pos.parse_move(&p.to_string()).is_ok() {
                    writeln!(out, "{p}\tgames {n}")?;
                }
            }
        }
    }
    Ok(())
}

fn placements(list: &str) -> Result<Vec<Point>> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| Point::parse(s, 14).with_context(|| format!("placement {s:?}")))
        .collect()
}
