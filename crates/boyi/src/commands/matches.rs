//! `boyi match <game> --a SPEC --b SPEC --games N ...`: an engine match in the arena.

use super::recording::store_match_game;
use anyhow::{Context, Result, bail};
use boyi_arena::{MatchConfig, OpeningRule, Sprt, TimeControl, openings};
use boyi_core::{Game, TextError};
use boyi_engines::{BookChoice, GameHistory, Limits, OpeningBook};
use boyi_games::{GameKind, with_game};
use boyi_protocol::PlayerSpec;
use boyi_protocol::driver::ExternalOptions;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// gomoku, connect6, jiu or xiangqi.
    pub game: GameKind,
    /// Player A: boyi:<name>[?key=value,...] (`boyi players` lists names and options) or
    /// cmd:"<command line>"@<protocol>.
    #[arg(long)]
    pub a: String,
    /// Player B, as --a.
    #[arg(long)]
    pub b: String,
    /// Number of games.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Games played at the same time (at most 256: each game runs two players, each with
    /// its threads or processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: u16,
    /// Clock per player: [moves/]base[+increment] in seconds, e.g. 10+0.1.
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move in milliseconds. With no --tc, --movetime, --nodes or --depth, each
    /// player searches by its own defaults, stopped after 30 s a move.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Player A's own per-move limits instead of the match's: depth=D, nodes=N, movetime=MS
    /// (comma-separated), e.g. to give an engine that only knows depth its own limit.
    #[arg(long, value_name = "LIMITS")]
    pub a_limits: Option<String>,
    /// Player B's own per-move limits, as --a-limits.
    #[arg(long, value_name = "LIMITS")]
    pub b_limits: Option<String>,
    /// Openings file: one position text or comma-separated move list per line.
    #[arg(long, conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
    /// Random legal plies played before the players take over (same for both colour orders).
    #[arg(long)]
    pub random_plies: Option<usize>,
    /// Rule set within the game.
    #[arg(long)]
    pub variant: Option<String>,
    /// Board size (grid games).
    #[arg(long)]
    pub size: Option<usize>,
    /// Directory for the game records (one file per game, game-0001.<extension>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Format of the records in --out: boyi (default), sgf, psq, renlib (gomoku), c6
    /// (connect6), jiu, pgn, pgn-wxf, pgn-chinese, xqf (xiangqi).
    #[arg(long, default_value = "boyi", requires = "out")]
    pub format: String,
    /// Stop when decided: elo0,elo1,alpha,beta.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Seed of the openings and of the built-in players' randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Draw a game after this many plies.
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Opening rule: `swap1` or `swap2` (Gomoku) lets the players place and choose the opening
    /// stones: A opens in even games, B in odd ones; `none` (the default) plays the given
    /// openings.
    #[arg(long, value_parser = str::parse::<OpeningRule>, conflicts_with_all = ["openings", "random_plies"])]
    pub opening_rule: Option<OpeningRule>,
    /// Milliseconds an engine may overrun its time before it loses on time.
    #[arg(long, default_value_t = 1000)]
    pub margin: u64,
    /// Opening book (boyi book build) for both players.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Opening book for player A only (overrides --book for A).
    #[arg(long)]
    pub book_a: Option<PathBuf>,
    /// Opening book for player B only (overrides --book for B).
    #[arg(long)]
    pub book_b: Option<PathBuf>,
    /// How a book move is picked: weighted (at random by games and score) or best (most played).
    #[arg(long, default_value = "weighted")]
    pub book_choice: BookChoice,
    #[command(flatten)]
    pub db: DbArgs,
}

/// Where finished games are stored.
#[derive(Args, Debug)]
pub struct DbArgs {
    /// Game database every game is stored in (the one `boyi serve` uses by default): an
    /// SQLite file or a postgres:// URL.
    #[arg(long, default_value = boyi_store::DEFAULT_PATH)]
    pub db: boyi_store::Db,
    /// Do not store the games.
    #[arg(long)]
    pub no_record: bool,
}

pub fn run(args: &MatchArgs) -> Result<()> {
    with_game!(args.game, G => run_game::<G>(args))?
}

fn run_game<G: boyi_engines::GamePlayers>(args: &MatchArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    // Engines run in process groups of their own, out of reach of the terminal's Ctrl-C:
    // an interrupted match ends them itself.
    ctrlc::set_handler(|| {
        boyi_protocol::process::end_all();
        std::process::exit(130);
    })
    .context("installing the interrupt handler")?;
    let variant: G::Variant = match &args.variant {
        Some(v) => v.parse().context("--variant")?,
        None => G::Variant::default(),
    };
    let start = G::start(&variant, args.size).context("--size")?;
    let pairs = args.games.div_ceil(2);
    let openings = match (&args.openings, args.random_plies) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("--openings {}", path.display()))?;
            openings::parse_openings(&start, &text).context("--openings")?
        }
        (None, Some(p)) if p > 0 => openings::random_openings(&start, p, pairs, args.seed),
        _ => vec![GameHistory::new(start)],
    };
    let margin = Duration::from_millis(args.margin);
    let unlimited = args.tc.is_none()
        && args.movetime.is_none()
        && args.nodes.is_none()
        && args.depth.is_none();
    let cfg = MatchConfig {
        players: [
            PlayerSpec::parse(&args.a).context("--a")?,
            PlayerSpec::parse(&args.b).context("--b")?,
        ],
        games: args.games,
        concurrency: args.concurrency.into(),
        limits: Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: args.movetime.map(Duration::from_millis),
            max_time: unlimited.then_some(Duration::from_secs(30)),
            ..Limits::default()
        },
        player_limits: [
            args.a_limits
                .as_deref()
                .map(parse_limits)
                .transpose()
                .context("--a-limits")?,
            args.b_limits
                .as_deref()
                .map(parse_limits)
                .transpose()
                .context("--b-limits")?,
        ],
        tc: args.tc.as_deref().map(TimeControl::parse).transpose()?,
        openings,
        seed: args.seed,
        external: ExternalOptions {
            margin,
            ..ExternalOptions::default()
        },
        time_margin: margin,
        max_plies: args.max_plies,
        sprt: args.sprt.as_deref().map(Sprt::parse).transpose()?,
        books: [
            load_book::<G>(args.book_a.as_ref().or(args.book.as_ref()), args, &variant)?,
            load_book::<G>(args.book_b.as_ref().or(args.book.as_ref()), args, &variant)?,
        ],
        opening_rule: args.opening_rule.unwrap_or_default(),
    };
    let mut store = if args.db.no_record {
        None
    } else {
        Some(
            boyi_store::Store::connect(&args.db.db)
                .with_context(|| format!("--db {}", args.db.db))?,
        )
    };
    let keep = |g: &boyi_arena::runner::GameResult| -> Result<(), TextError> {
        match store.as_mut() {
            Some(s) => store_match_game(s, &g.record)
                .map(|_| ())
                .map_err(|e| TextError::new(format!("storing game {}: {e:#}", g.index + 1))),
            None => Ok(()),
        }
    };
    let format = boyi_records::Format::parse(&args.format).context("--format")?;
    let records = args
        .out
        .as_deref()
        .map(|dir| boyi_arena::report::RecordsOut { dir, format });
    let mut out = std::io::stdout().lock();
    boyi_arena::report::run_and_report_with(&cfg, records, &mut out, keep)?;
    Ok(())
}

/// The opening book at `path`, checked against the game and rules.
fn load_book<G: Game>(
    path: Option<&PathBuf>,
    args: &MatchArgs,
    variant: &G::Variant,
) -> Result<Option<OpeningBook>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let book = OpeningBook::load(path, args.book_choice)?;
    book.check::<G>(variant)
        .with_context(|| format!("book {}", path.display()))?;
    Ok(Some(book))
}

/// Parses per-player limits: `depth=4`, `movetime=900,nodes=100000`.
fn parse_limits(text: &str) -> Result<Limits> {
    let mut limits = Limits::default();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .with_context(|| format!("{item:?}: expected key=value"))?;
        let number: u64 = value
            .trim()
            .parse()
            .with_context(|| format!("{item:?}: {value:?} is not a whole number"))?;
        match key.trim() {
            "depth" => {
                limits.depth = Some(u32::try_from(number).context("depth is too large")?);
            }
            "nodes" => limits.nodes = Some(number),
            "movetime" => limits.movetime = Some(Duration::from_millis(number)),
            other => bail!("unknown limit {other:?} (expected depth, nodes or movetime)"),
        }
    }
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        bail!("{text:?} sets no limit (expected depth=D, nodes=N or movetime=MS)");
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::parse_limits;
    use std::time::Duration;

    #[test]
    fn player_limits_parse_and_bad_ones_are_named() {
        let l = parse_limits("depth=4, movetime=900").unwrap();
        assert_eq!(l.depth, Some(4));
        assert_eq!(l.movetime, Some(Duration::from_millis(900)));
        assert_eq!(parse_limits("nodes=5000").unwrap().nodes, Some(5000));
        for bad in ["", "depth", "depth=x", "speed=3", "depth=-1"] {
            assert!(parse_limits(bad).is_err(), "{bad:?} should be refused");
        }
        assert!(format!("{:#}", parse_limits("speed=3").unwrap_err()).contains("speed"));
    }
}
