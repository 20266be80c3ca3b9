//! `boyi engine <game> --protocol P [--player SPEC]`: a Boyi player served over an engine
//! protocol on standard input and output, for engine managers and tournament platforms.

use super::analyze::builtin_spec;
use super::recording::RecordingPlayer;
use anyhow::{Context, Result};
use boyi_core::TextError;
use boyi_engines::registry::{build_spec, player_def};
use boyi_engines::{
    BookChoice, BookPlayer, BuildContext, BuiltinSpec, Limits, OpeningBook, Player,
};
use boyi_games::{GameKind, with_game};
use boyi_protocol::{Configure, Protocol, ServeOptions, serve};
use clap::Args;
use std::io::BufReader;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct EngineArgs {
    /// gomoku, connect6, jiu or xiangqi.
    pub game: GameKind,
    /// gomocup (gomoku), sau (connect6, jiu, gomoku), uci, uci-fsf or ucci (xiangqi).
    #[arg(long)]
    pub protocol: Protocol,
    /// The player served: a built-in spec (default: the game's strongest built-in player,
    /// boyi:strong; or boyi:random, boyi:alphabeta?depth=3, ...; `boyi players` lists them).
    /// Its options are offered to the manager (UCI `option`, Gomocup `INFO <option> <value>`).
    #[arg(long)]
    pub player: Option<String>,
    /// Rule set (e.g. renju); protocols that set the rules themselves may change it.
    #[arg(long)]
    pub variant: Option<String>,
    /// Board size of new games (grid games).
    #[arg(long)]
    pub size: Option<usize>,
    /// Time per move when the protocol gives no limit, in milliseconds. With neither this nor
    /// --depth, such a search goes to the player's own default depth, stopped after 30 s.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Depth when the protocol gives no limit.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Opening book (boyi book build): its moves are played while the position is in it.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// How a book move is picked: weighted (at random by games and score) or best (most played).
    #[arg(long, default_value = "weighted")]
    pub book_choice: BookChoice,
    /// Seed of the weighted book choice.
    #[arg(long, default_value_t = 1)]
    pub book_seed: u64,
    /// Store the session's games in the game database (--db, default boyi.sqlite).
    #[arg(long)]
    pub record: bool,
    /// Game database to store the session's games in (implies --record): an SQLite file or
    /// a postgres:// URL.
    #[arg(long)]
    pub db: Option<boyi_store::Db>,
}

/// The longest a served search given no limit by the protocol or the command line may take.
const DEFAULT_CAP: Duration = Duration::from_secs(30);

pub fn engine(args: &EngineArgs) -> Result<()> {
    with_game!(args.game, G => serve_game::<G>(args))?
}

fn serve_game<G: boyi_engines::GamePlayers>(args: &EngineArgs) -> Result<()> {
    let variant: G::Variant = match &args.variant {
        Some(v) => v.parse().context("--variant")?,
        None => G::Variant::default(),
    };
    let start = G::start(&variant, args.size).context("--size")?;
    let spec = builtin_spec(args.player.as_deref(), G::default_player()).context("--player")?;
    let book = match &args.book {
        Some(path) => {
            let book = OpeningBook::load(path, args.book_choice)?;
            book.check::<G>(&variant).context("--book")?;
            Some(book)
        }
        None => None,
    };
    let db = (args.record || args.db.is_some()).then(|| {
        args.db
            .clone()
            .unwrap_or_else(|| boyi_store::Db::Sqlite(boyi_store::DEFAULT_PATH.into()))
    });
    let book_seed = args.book_seed;
    // The served player with its book and recording; built again when the manager sets one
    // of its options.
    let make = move |spec: &BuiltinSpec| -> Result<Box<dyn Player<G>>> {
        let mut player = build_spec::<G>(spec, BuildContext::default())?;
        if let Some(book) = &book {
            player = Box::new(BookPlayer::new(player, book.clone(), book_seed));
        }
        if let Some(db) = &db {
            let store = boyi_store::Store::connect(db).with_context(|| format!("--db {db}"))?;
            player = Box::new(RecordingPlayer::new(player, &format!("boyi:{spec}"), store));
        }
        Ok(player)
    };
    let base = BuiltinSpec::parse(spec).context("--player")?;
    let player = make(&base).context("--player")?;
    let configure = player_def::<G>(&base.name).map(|def| Configure {
        options: def.options,
        rebuild: Box::new(move |set: &[(String, String)]| {
            let mut spec = base.clone();
            spec.options.extend(set.iter().cloned());
            make(&spec).map_err(|e| TextError::new(format!("{e:#}")))
        }),
    });
    let opts = ServeOptions {
        start,
        default_limits: Limits {
            depth: args.depth,
            movetime: args.movetime.map(Duration::from_millis),
            max_time: (args.depth.is_none() && args.movetime.is_none()).then_some(DEFAULT_CAP),
            ..Limits::default()
        },
        name: "Boyi".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        configure,
    };
    let input = BufReader::new(std::io::stdin());
    serve(args.protocol, player, opts, input, std::io::stdout())?;
    Ok(())
}
