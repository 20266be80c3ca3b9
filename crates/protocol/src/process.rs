//! An external engine process: spawned from a command line, talked to line by line, read
//! with deadlines (a reader thread feeds a channel), killed when it hangs or is dropped.

use boyi_core::TextError;
use boyi_engines::StopFlag;
use std::io::{BufRead, BufReader, Write};
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
    lines: Receiver<String>,
    /// The line that asks the engine to exit, sent when dropped.
    quit: Option<String>,
    /// Every line sent (`> `) and received (`< `), for error messages and debugging.
    pub log: Vec<String>,
}

impl EngineProcess {
    pub fn spawn(command: &str) -> Result<EngineProcess, TextError> {
        let words = split_command(command)?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| text_err!("cannot start {:?}: {e}", words[0]))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line.trim_end().to_string()).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            quit: None,
            log: Vec::new(),
        })
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
                Ok(line) => {
                    self.log.push(format!("< {line}"));
                    return Received::Line(line);
                }
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

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Some(q) = self.quit.take() {
            self.send(&q);
        }
        self.stdin.take();
        // Give the engine a moment to exit on its own, then make sure it is gone.
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
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
