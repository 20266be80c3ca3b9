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
    /// Read a board position from a photo (or render a synthetic one: `vision synth`).
    Vision(commands::vision::VisionArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Moves(args) => commands::rules::moves(&args),
        Command::Perft(args) => commands::rules::perft(&args),
        Command::Show(args) => commands::rules::show(&args),
        Command::Vision(args) => commands::vision::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
