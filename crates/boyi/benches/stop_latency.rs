//! How soon a served engine answers `stop`, `isready`, `YXSTOP` and `quit` during a search.
//!
//! For each case a `boyi engine` process starts a search far longer than the run (`go
//! infinite`, a ten-minute Gomocup turn, a SAU search capped by a long `--movetime`), waits
//! until the search is under way (its first thinking line, then `--settle` ms), sends lines
//! that must wait for the move (a `position`, `ucinewgame`, `INFO`) and then the urgent line,
//! and times the answer: `readyok`, `bestmove`, the Gomocup move, or the process's exit. The
//! goal is under 50 ms.
//!
//!     cargo bench -p boyi --bench stop_latency -- [--boyi PATH] [--runs 20] [--settle 300]
//!
//! Without `--boyi` it times the `boyi` this bench was built with (the bench profile: release
//! with LTO). Figures need a quiet machine: the load average is printed before and after.

use anyhow::{Context, Result, bail};
use clap::Parser;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

/// What answers the urgent line.
#[derive(Clone, Copy)]
enum Answer {
    /// A line starting so.
    Prefix(&'static str),
    /// A Gomocup move, `x,y`.
    GomocupMove,
    /// The process's exit.
    Exit,
}

struct Case {
    name: &'static str,
    args: &'static [&'static str],
    setup: &'static str,
    waiting: &'static str,
    urgent: &'static str,
    answer: Answer,
    /// Whether the engine prints thinking lines (SAU does not: its search is under way once
    /// the set-up is read).
    thinks: bool,
}

const GOMOCUP_SETUP: &str =
    "START 15\nINFO timeout_turn 600000\nINFO time_left 600000\nBOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\n";

const CASES: &[Case] = &[
    Case {
        name: "uci stop",
        args: &["xiangqi", "--protocol", "uci"],
        setup: "uci\nposition startpos\ngo infinite\n",
        waiting: "position startpos moves h2e2\nucinewgame\n",
        urgent: "stop\n",
        answer: Answer::Prefix("bestmove"),
        thinks: true,
    },
    Case {
        name: "uci isready",
        args: &["xiangqi", "--protocol", "uci"],
        setup: "uci\nposition startpos\ngo infinite\n",
        waiting: "position startpos moves h2e2\n",
        urgent: "isready\n",
        answer: Answer::Prefix("readyok"),
        thinks: true,
    },
    Case {
        name: "uci quit",
        args: &["xiangqi", "--protocol", "uci"],
        setup: "uci\nposition startpos\ngo infinite\n",
        waiting: "ucinewgame\n",
        urgent: "quit\n",
        answer: Answer::Exit,
        thinks: true,
    },
    Case {
        name: "ucci stop",
        args: &["xiangqi", "--protocol", "ucci"],
        setup: "ucci\nposition startpos\ngo depth 1000\n",
        waiting: "position startpos moves h2e2\n",
        urgent: "stop\n",
        answer: Answer::Prefix("bestmove"),
        thinks: true,
    },
    Case {
        name: "gomocup YXSTOP",
        args: &["gomoku", "--protocol", "gomocup"],
        setup: GOMOCUP_SETUP,
        waiting: "INFO time_left 590000\n",
        urgent: "YXSTOP\n",
        answer: Answer::GomocupMove,
        thinks: true,
    },
    Case {
        name: "gomocup END",
        args: &["gomoku", "--protocol", "gomocup"],
        setup: GOMOCUP_SETUP,
        waiting: "INFO time_left 590000\n",
        urgent: "END\n",
        answer: Answer::Exit,
        thinks: true,
    },
    Case {
        name: "sau quit",
        args: &["connect6", "--protocol", "sau", "--movetime", "600000"],
        setup: "new white\nmove JJ@@\n",
        waiting: "name?\n",
        urgent: "quit\n",
        answer: Answer::Exit,
        thinks: false,
    },
];

/// The engine's output lines as they arrive, with their time; `None` once it closes.
type Lines = Receiver<(Instant, Option<String>)>;

const WAIT: Duration = Duration::from_secs(60);

#[derive(Parser)]
#[command(about = "How soon a served engine answers stop, isready, YXSTOP and quit")]
struct Args {
    /// The boyi binary to time (default: the one built with this bench).
    #[arg(long)]
    boyi: Option<String>,
    /// Runs of each case.
    #[arg(long, default_value_t = 20)]
    runs: usize,
    /// Milliseconds of search before the urgent line.
    #[arg(long, default_value_t = 300)]
    settle: u64,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let boyi = args
        .boyi
        .clone()
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_boyi").to_string());
    println!("load average before: {}", load_average());
    println!(
        "{:16} {:>4} {:>10} {:>8} {:>8}",
        "case", "runs", "median ms", "p95 ms", "max ms"
    );
    let mut worst: f64 = 0.0;
    for case in CASES {
        let mut times = (0..args.runs.max(1))
            .map(|_| one_run(&boyi, case, args.settle))
            .collect::<Result<Vec<f64>>>()?;
        times.sort_by(f64::total_cmp);
        let last = times.len() - 1;
        let p95 = times[((0.95 * last as f64).round() as usize).min(last)];
        worst = worst.max(times[last]);
        println!(
            "{:16} {:>4} {:>10.1} {:>8.1} {:>8.1}",
            case.name,
            times.len(),
            median(&times),
            p95,
            times[last]
        );
    }
    println!("load average after: {}", load_average());
    if worst < 50.0 {
        println!("goal < 50 ms: met");
    } else {
        println!("goal < 50 ms: missed (worst {worst:.1} ms)");
    }
    Ok(())
}

/// One run of `case`: milliseconds from the urgent line to its answer.
fn one_run(boyi: &str, case: &Case, settle: u64) -> Result<f64> {
    let mut child = Command::new(boyi)
        .arg("engine")
        .args(case.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {boyi}"))?;
    let lines = read_lines(&mut child)?;
    let result = time_answer(&mut child, &lines, case, settle);
    drop(child.stdin.take());
    if wait_exit(&mut child, Duration::from_secs(10)).is_none() {
        child.kill().ok();
        child.wait().ok();
    }
    result.with_context(|| case.name)
}

fn time_answer(child: &mut Child, lines: &Lines, case: &Case, settle: u64) -> Result<f64> {
    let mut stdin = child.stdin.take().context("no input pipe")?;
    stdin.write_all(case.setup.as_bytes())?;
    stdin.flush()?;
    if case.thinks {
        loop {
            match lines.recv_timeout(WAIT)? {
                (_, None) => bail!("the engine exited during set-up"),
                (_, Some(l)) if l.starts_with("info depth") || l.starts_with("MESSAGE") => break,
                _ => {}
            }
        }
    }
    thread::sleep(Duration::from_millis(settle));
    stdin.write_all(case.waiting.as_bytes())?;
    stdin.flush()?;
    let sent = Instant::now();
    stdin.write_all(case.urgent.as_bytes())?;
    stdin.flush()?;
    child.stdin = Some(stdin);
    let got = match case.answer {
        Answer::Exit => {
            wait_exit(child, WAIT).context("the engine did not exit")?;
            Instant::now()
        }
        answer => loop {
            match lines.recv_timeout(WAIT)? {
                (_, None) => bail!("the engine exited before answering"),
                (at, Some(l)) if answers(&l, answer) => break at,
                _ => {}
            }
        },
    };
    Ok((got - sent).as_secs_f64() * 1000.0)
}

fn answers(line: &str, answer: Answer) -> bool {
    match answer {
        Answer::Prefix(p) => line.starts_with(p),
        Answer::GomocupMove => {
            let parts: Vec<&str> = line.split(',').collect();
            parts.len() == 2
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        }
        Answer::Exit => false,
    }
}

/// A thread that passes the engine's output lines on as they arrive, timed.
fn read_lines(child: &mut Child) -> Result<Lines> {
    let out = child.stdout.take().context("no output pipe")?;
    let (tx, rx) = channel();
    thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx
                .send((Instant::now(), Some(line.trim().to_string())))
                .is_err()
            {
                return;
            }
        }
        tx.send((Instant::now(), None)).ok();
    });
    Ok(rx)
}

/// Waits up to `limit` for the process to exit, polling every 0.2 ms.
fn wait_exit(child: &mut Child, limit: Duration) -> Option<()> {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if let Ok(Some(_)) = child.try_wait() {
            return Some(());
        }
        thread::sleep(Duration::from_micros(200));
    }
    None
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}
