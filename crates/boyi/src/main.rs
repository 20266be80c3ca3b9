//! `boyi`: the command line of Boyi. Each subcommand lives in its own module under
//! `commands`; this file only parses arguments and dispatches.

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "boyi",
    version,
    about = "Boyi (博弈): play, analyse and serve board games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the legal moves of a position, one per line, canonical, byte-sorted.
    Moves(commands::rules::PositionArgs),
    /// Count move paths to a depth (move-generation check and speed measure).
    Perft(commands::rules::PerftArgs),
    /// Draw a position as a text board.
    Show(commands::rules::ShowArgs),
    /// Serve the web page: play every game in the browser, watch engine games, analyse.
    Serve(commands::serve::ServeArgs),
    /// Play a game in the terminal, against the computer or at one keyboard.
    Play(commands::play::PlayArgs),
    /// Game records: convert, validate, show, import, search.
    #[command(subcommand)]
    Record(commands::record::RecordCommand),
    /// Opening books: build from records, probe.
    #[command(subcommand)]
    Book(commands::book::BookCommand),
    /// Search a position with a built-in player; last line `score … bestmove …`.
    Analyze(commands::analyze::AnalyzeArgs),
    /// Search the game's bench positions to fixed depths: node signature and speed.
    Bench(commands::bench::BenchArgs),
    /// Look for a forced win by threats (gomoku: VCF, then VCT).
    Solve(commands::solve::SolveArgs),
    /// Serve a Boyi player over an engine protocol on stdin/stdout.
    Engine(commands::engine::EngineArgs),
    /// List the built-in players of each game and their options.
    Players(commands::players::PlayersArgs),
    /// Play a match between two players and report the score, Elo and SPRT.
    Match(Box<commands::matches::MatchArgs>),
    /// Read a board position from a photo (or render a synthetic one: `vision synth`).
    Vision(commands::vision::VisionArgs),
    /// Watch a gomoku or connect6 game on a real board through a camera and answer each turn.
    Watch(commands::watch::WatchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Moves(args) => commands::rules::moves(&args),
        Command::Perft(args) => commands::rules::perft(&args),
        Command::Show(args) => commands::rules::show(&args),
        Command::Serve(args) => commands::serve::run(&args),
        Command::Play(args) => commands::play::run(&args),
        Command::Record(cmd) => commands::record::run(&cmd),
        Command::Book(cmd) => commands::book::run(&cmd),
        Command::Analyze(args) => commands::analyze::analyze(&args),
        Command::Bench(args) => commands::bench::bench(&args),
        Command::Solve(args) => commands::solve::solve(&args),
        Command::Engine(args) => commands::engine::engine(&args),
        Command::Players(args) => commands::players::run(&args),
        Command::Match(args) => commands::matches::run(&args),
        Command::Vision(args) => commands::vision::run(&args),
        Command::Watch(args) => commands::watch::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of the output went away (`boyi … | head`): nothing is left to report.
        Err(e) if commands::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
