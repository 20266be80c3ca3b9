//! One module per group of subcommands.

/// `print!` for command output: a reader that has gone away (`boyi … | head -1`) ends the
/// program quietly instead of panicking (see [`emit`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::commands::emit(format_args!($($arg)*))
    };
}

/// `println!` for command output, as [`out!`].
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::commands::emit(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub mod analyze;
pub mod bench;
pub mod book;
#[cfg(all(feature = "v4l2", target_os = "linux"))]
mod camera;
pub mod engine;
pub mod frames;
pub mod matches;
pub mod play;
pub mod players;
pub mod record;
mod record_json;
pub mod recording;
pub mod rules;
pub mod sequence;
pub mod serve;
pub mod solve;
pub mod vision;
pub mod watch;

/// Writes command output to standard output and flushes it. Once the reader has closed the
/// pipe nothing more can be shown, so the program ends at once with success (as `head`
/// expects of the programs it reads); any other write error ends it with a message.
pub fn emit(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to standard output: {e}");
        std::process::exit(1);
    }
}

/// Whether an error is a write into a pipe whose reader has gone away.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
