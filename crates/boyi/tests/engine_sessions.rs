//! `boyi engine` as a real process under a strict manager: `stop`/`isready` answered during a
//! search whatever waits before them, the end of the input stopping a search (its move still
//! written) and ending the process, bytes that are not UTF-8 answered rather than fatal. And
//! the arena: no process an engine starts outlives its match.
//!
//! Every search here has a limit minutes away, so an answer proves the server acted on the
//! line; no test measures how soon. Waits are bounded only by a hang guard.

use boyi_arena::{MatchConfig, run_match};
use boyi_core::Game;
use boyi_engines::{GameHistory, Limits};
use boyi_games::gomoku::Gomoku;
use boyi_protocol::PlayerSpec;
use boyi_protocol::driver::ExternalOptions;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Not a bound on any speed: what turns a hung process into a failed test.
const HANG_GUARD: Duration = Duration::from_secs(600);

/// A running `boyi engine`, its output read line by line on a thread.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boyi"))
            .arg("engine")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("boyi runs");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Reads until `done` holds of the lines seen so far; fails if the output ends first.
    fn wait_for(&mut self, what: &str, done: impl Fn(&[String]) -> bool) {
        let guard = Instant::now() + HANG_GUARD;
        while !done(&self.seen) {
            let left = guard.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.seen.push(line),
                Err(_) => panic!("no {what}; output so far: {:?}", self.seen),
            }
        }
    }

    fn close_input(&mut self) {
        self.stdin.take();
    }

    /// Waits for the process to exit; returns whether it succeeded.
    fn wait_exit(&mut self) -> bool {
        let guard = Instant::now() + HANG_GUARD;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // The rest of the output.
                while let Ok(line) = self.lines.recv_timeout(HANG_GUARD) {
                    self.seen.push(line);
                }
                return status.success();
            }
            assert!(Instant::now() < guard, "the engine did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn count(&self, prefix: &str) -> usize {
        self.seen.iter().filter(|l| l.starts_with(prefix)).count()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Gomocup move: `x,y`.
fn is_gomocup_move(line: &str) -> bool {
    line.split_once(',').is_some_and(|(x, y)| {
        [x, y]
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

fn has(prefix: &'static str) -> impl Fn(&[String]) -> bool {
    move |seen| seen.iter().any(|l| l.starts_with(prefix))
}

#[test]
fn stop_and_isready_during_a_search_are_answered_whatever_waits() {
    for protocol in ["uci", "ucci"] {
        let mut e = Engine::start(&["xiangqi", "--protocol", protocol]);
        let hello = if protocol == "uci" { "uci" } else { "ucci" };
        e.send(format!("{hello}\nposition startpos\ngo infinite\n").as_bytes());
        e.wait_for("thinking", has("info depth"));
        // The position and (UCI) ucinewgame wait for the move; stop and isready do not.
        let waiting = if protocol == "uci" {
            "position startpos moves h2e2\nucinewgame\n"
        } else {
            "position startpos moves h2e2\n"
        };
        e.send(format!("{waiting}stop\nisready\n").as_bytes());
        e.wait_for("bestmove and readyok", |seen| {
            has("bestmove ")(seen) && has("readyok")(seen)
        });
        assert_eq!(e.count("bestmove "), 1, "{:?}", e.seen);
        e.send(b"quit\n");
        assert!(e.wait_exit(), "{protocol}");
    }
}

#[test]
fn quit_after_waiting_lines_ends_the_process() {
    let mut e = Engine::start(&["xiangqi", "--protocol", "uci"]);
    e.send(b"uci\nposition startpos\ngo infinite\n");
    e.wait_for("thinking", has("info depth"));
    e.send(b"ucinewgame\nquit\n");
    // The input stays open: quit alone ends the process.
    assert!(e.wait_exit());
    assert_eq!(e.count("bestmove "), 1, "{:?}", e.seen);
}

#[test]
fn gomocup_yxstop_during_a_long_turn_is_answered() {
    let mut e = Engine::start(&["gomoku", "--protocol", "gomocup"]);
    e.send(b"START 15\nINFO timeout_turn 600000\nINFO time_left 600000\nBOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\n");
    e.wait_for("thinking", has("MESSAGE depth"));
    e.send(b"INFO time_left 590000\nYXSTOP\n");
    e.wait_for("a move", |seen| seen.iter().any(|l| is_gomocup_move(l)));
    e.send(b"END\n");
    assert!(e.wait_exit());
}

#[test]
fn the_end_of_the_input_stops_a_finite_search_and_ends_the_process() {
    let cases: [(&[&str], &str, &str); 5] = [
        (
            &["xiangqi", "--protocol", "uci"],
            "uci\nposition startpos\ngo movetime 600000\n",
            "bestmove ",
        ),
        (
            &["xiangqi", "--protocol", "uci-fsf"],
            "uci\nposition startpos\ngo wtime 600000 btime 600000 movestogo 1\n",
            "bestmove ",
        ),
        (
            &["xiangqi", "--protocol", "ucci"],
            "ucci\nposition startpos\ngo depth 1000\n",
            "bestmove ",
        ),
        (
            &["gomoku", "--protocol", "gomocup"],
            "START 15\nINFO timeout_turn 600000\nBOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\n",
            "",
        ),
        (
            &["connect6", "--protocol", "sau", "--movetime", "600000"],
            "new white\nmove JJ@@\n",
            "move ",
        ),
    ];
    for (args, input, answer) in cases {
        let mut e = Engine::start(args);
        e.send(input.as_bytes());
        e.close_input();
        assert!(e.wait_exit(), "{args:?}");
        let answered = if answer.is_empty() {
            e.seen.iter().filter(|l| is_gomocup_move(l)).count()
        } else {
            e.count(answer)
        };
        assert_eq!(answered, 1, "{args:?}: {:?}", e.seen);
    }
}

#[test]
fn bytes_that_are_not_utf8_are_answered_not_fatal() {
    let mut e = Engine::start(&["gomoku", "--protocol", "gomocup"]);
    e.send(b"ABOUT\n\xff\nABOUT\n");
    e.close_input();
    assert!(e.wait_exit());
    assert_eq!(e.count("name="), 2, "{:?}", e.seen);
    assert_eq!(e.count("UNKNOWN"), 1, "{:?}", e.seen);
}

/// The state letter of process `pid` (`R`, `S`, `Z`, ...), `None` once it is gone.
fn process_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The state follows the command name, which is in parentheses.
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

#[test]
fn no_process_of_an_engine_outlives_its_match() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let wrapper = dir.path().join("engine.sh");
    // A wrapper that leaves a helper running and starts the engine as its child (not exec).
    std::fs::write(
        &wrapper,
        format!(
            "sleep 100000 &\necho $! >> '{pids}'\n'{boyi}' engine gomoku --protocol gomocup --player boyi:random <&0 &\necho $! >> '{pids}'\nwait\n",
            pids = pids.display(),
            boyi = env!("CARGO_BIN_EXE_boyi"),
        ),
    )
    .unwrap();
    let start = Gomoku::start(&Default::default(), Some(9)).unwrap();
    let cfg = MatchConfig {
        players: [
            PlayerSpec::parse(&format!("cmd:\"sh {}\"@gomocup", wrapper.display())).unwrap(),
            PlayerSpec::parse("boyi:random").unwrap(),
        ],
        games: 2,
        concurrency: 1,
        limits: Limits::depth(1),
        player_limits: [None, None],
        tc: None,
        openings: vec![GameHistory::new(start)],
        seed: 3,
        external: ExternalOptions::default(),
        time_margin: Duration::from_secs(1),
        max_plies: None,
        sprt: None,
        books: [None, None],
        opening_rule: boyi_arena::OpeningRule::Given,
    };
    let (wdl, _) = run_match(&cfg, |_, _| {}).unwrap();
    assert_eq!(wdl.games(), 2);
    let started: Vec<u32> = std::fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    // A helper and an engine per game.
    assert_eq!(started.len(), 4, "{started:?}");
    // The group was killed when each game ended; a killed process may take a moment to die,
    // and one whose parent died stays a zombie until reaped: neither runs.
    let guard = Instant::now() + HANG_GUARD;
    for pid in started {
        while process_state(pid).is_some_and(|s| s != 'Z' && s != 'X') {
            assert!(Instant::now() < guard, "process {pid} outlived the match");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
