//! An external engine process: spawned from a command line, talked to line by line, read
//! with deadlines (a reader thread feeds a channel), killed when it hangs or is dropped.
//!
//! Each engine runs in a process group of its own, and ending an engine ends its whole group:
//! an engine started through a wrapper script, or one that starts helpers, leaves nothing
//! running behind it. Being outside the caller's group also keeps a terminal's Ctrl-C from
//! reaching the engines directly; [`end_all`] is for the caller's own signal handler.

use crate::lines::{LineReader, ReadLine};
use boyi_core::TextError;
use boyi_engines::StopFlag;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Splits a command line into words: whitespace separates, single or double quotes group,
/// a backslash outside single quotes escapes the next character.
pub fn split_command(line: &str) -> Result<Vec<String>, TextError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '\\') => match chars.next() {
                Some(n) => {
                    word.push(n);
                    in_word = true;
                }
                None => return Err(text_err!("command {line:?} ends with a backslash")),
            },
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(text_err!("command {line:?} has an unclosed quote"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(text_err!("empty command"));
    }
    Ok(words)
}

/// What waiting for a line gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    Line(String),
    /// The stop flag was raised while waiting.
    Stopped,
    TimedOut,
    /// The engine closed its output (it exited or crashed).
    Closed,
}

pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<ReadLine>,
    /// The engine and its group are gone (killed and reaped).
    ended: bool,
    /// The line that asks the engine to exit, sent when dropped.
    quit: Option<String>,
    /// Every line sent (`> `) and received (`< `), for error messages and debugging.
    pub log: Vec<String>,
}

impl EngineProcess {
    pub fn spawn(command: &str) -> Result<EngineProcess, TextError> {
        let words = split_command(command)?;
        let mut cmd = Command::new(&words[0]);
        cmd.args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let child =
            groups::spawn(&mut cmd).map_err(|e| text_err!("cannot start {:?}: {e}", words[0]))?;
        let mut process = EngineProcess {
            child,
            stdin: None,
            lines: channel().1,
            ended: false,
            quit: None,
            log: Vec::new(),
        };
        let stdout = process.child.stdout.take().expect("stdout is piped");
        process.stdin = process.child.stdin.take();
        let (tx, lines) = channel();
        process.lines = lines;
        std::thread::spawn(move || {
            for read in LineReader::new(BufReader::new(stdout)) {
                if tx.send(read).is_err() {
                    break;
                }
            }
        });
        Ok(process)
    }

    /// Sets the line sent to ask the engine to exit (`quit`, `END`).
    pub fn set_quit(&mut self, line: &str) {
        self.quit = Some(line.to_string());
    }

    /// Sends one line; `false` if the engine no longer reads.
    pub fn send(&mut self, line: &str) -> bool {
        self.log.push(format!("> {line}"));
        match &mut self.stdin {
            Some(stdin) => writeln!(stdin, "{line}")
                .and_then(|_| stdin.flush())
                .is_ok(),
            None => false,
        }
    }

    /// Waits for the next line until `deadline` (if any), returning early when `stop` is
    /// raised.
    pub fn recv(&mut self, deadline: Option<Instant>, stop: Option<&StopFlag>) -> Received {
        const SLICE: Duration = Duration::from_millis(10);
        loop {
            if stop.is_some_and(StopFlag::is_stopped) {
                return Received::Stopped;
            }
            let wait = match deadline {
                Some(d) => match d.checked_duration_since(Instant::now()) {
                    Some(left) => left.min(SLICE),
                    None => return Received::TimedOut,
                },
                None => SLICE,
            };
            match self.lines.recv_timeout(wait) {
                Ok(ReadLine::Line(line)) => {
                    let line = line.trim_end().to_string();
                    self.log.push(format!("< {line}"));
                    return Received::Line(line);
                }
                Ok(ReadLine::TooLong { bytes, head }) => {
                    self.log
                        .push(format!("< [a line of {bytes} bytes, skipped: {head}…]"));
                }
                Ok(ReadLine::Eof) => return Received::Closed,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Received::Closed,
            }
        }
    }

    /// The last lines exchanged, for error messages.
    pub fn recent_log(&self) -> String {
        let start = self.log.len().saturating_sub(6);
        self.log[start..].join(" | ")
    }

    /// Ends the engine and every process of its group at once.
    pub fn kill(&mut self) {
        if !std::mem::replace(&mut self.ended, true) {
            groups::end(&mut self.child);
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        if let Some(q) = self.quit.take() {
            self.send(&q);
        }
        self.stdin.take();
        // Give the engine a moment to exit on its own, then end whatever is left of its group
        // (helpers it started, a wrapper's children).
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until && !groups::exited(&self.child) {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

/// Ends every engine process group still running: for a signal handler of the caller, whose
/// terminal's Ctrl-C no longer reaches the engines. Engines are not reaped.
pub fn end_all() {
    groups::end_all();
}

#[cfg(unix)]
mod groups {
    //! Process groups: an engine leads a group of its own, and the group is signalled before
    //! the leader is reaped, so the group's id cannot have been reused by then.

    use rustix::process::{Pid, Signal, WaitId, WaitIdOptions};
    use std::collections::BTreeSet;
    use std::os::unix::process::CommandExt;
    use std::process::{Child, Command};
    use std::sync::Mutex;

    /// The groups of live engines, for [`end_all`].
    static LIVE: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

    fn live() -> std::sync::MutexGuard<'static, BTreeSet<i32>> {
        LIVE.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn spawn(cmd: &mut Command) -> std::io::Result<Child> {
        let child = cmd.process_group(0).spawn()?;
        live().insert(child.id() as i32);
        Ok(child)
    }

    /// Whether the group's leader has exited; it is left unreaped.
    pub fn exited(child: &Child) -> bool {
        let Some(pid) = Pid::from_raw(child.id() as i32) else {
            return true;
        };
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        !matches!(rustix::process::waitid(WaitId::Pid(pid), options), Ok(None))
    }

    fn kill_group(id: i32) {
        if let Some(pid) = Pid::from_raw(id) {
            // An empty group (everyone exited) is no error worth reporting.
            let _ = rustix::process::kill_process_group(pid, Signal::KILL);
        }
    }

    /// Kills the whole group, then reaps the leader.
    pub fn end(child: &mut Child) {
        let id = child.id() as i32;
        {
            let mut live = live();
            kill_group(id);
            live.remove(&id);
        }
        let _ = child.kill();
        let _ = child.wait();
    }

    pub fn end_all() {
        for &id in live().iter() {
            kill_group(id);
        }
    }
}

#[cfg(not(unix))]
mod groups {
    //! Without process groups only the engine itself can be ended.

    use std::process::{Child, Command};

    pub fn spawn(cmd: &mut Command) -> std::io::Result<Child> {
        cmd.spawn()
    }

    pub fn exited(_child: &Child) -> bool {
        false
    }

    pub fn end(child: &mut Child) {
        let _ = child.kill();
        let _ = child.wait();
    }

    pub fn end_all() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        let w = |s| split_command(s).unwrap();
        assert_eq!(w("fairy-stockfish"), vec!["fairy-stockfish"]);
        assert_eq!(
            w("  boyi engine  gomoku "),
            vec!["boyi", "engine", "gomoku"]
        );
        assert_eq!(
            w(r#"boyi engine jiu --player "boyi:alphabeta?depth=1" 'a b' c\ d """#),
            vec![
                "boyi",
                "engine",
                "jiu",
                "--player",
                "boyi:alphabeta?depth=1",
                "a b",
                "c d",
                ""
            ]
        );
        assert!(split_command("a \"b").is_err());
        assert!(split_command("   ").is_err());
        assert!(split_command("a\\").is_err());
    }

    #[test]
    fn missing_programs_are_errors() {
        let err = EngineProcess::spawn("/nonexistent/engine").err().unwrap();
        assert!(err.to_string().contains("cannot start"));
    }
}
