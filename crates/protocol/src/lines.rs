//! Reading protocol lines from bytes, in both directions: a line is whatever comes before a
//! newline (a carriage return before it is dropped), bytes that are not UTF-8 are replaced
//! (an engine printing GBK text, a controller sending garbage) and never end the reading,
//! and a line longer than a bound is skipped rather than held in memory.

use std::io::{BufRead, ErrorKind};

/// The longest line read (1 MiB): far beyond any real command (a UCI `position` of a
/// thousand moves is 5 KB) and far below what would strain memory.
pub const MAX_LINE: usize = 1 << 20;

/// One read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadLine {
    Line(String),
    /// A line over the bound: its length in bytes and its first characters, for messages.
    TooLong {
        bytes: usize,
        head: String,
    },
    /// The input ended (or failed: a broken input is an ended one).
    Eof,
}

/// Reads lines of at most `max` bytes from a byte stream.
pub struct LineReader<R> {
    inner: R,
    max: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R) -> Self {
        Self::with_max(inner, MAX_LINE)
    }

    pub fn with_max(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            max,
            buf: Vec::new(),
        }
    }

    /// The next line, without its line ending.
    pub fn read(&mut self) -> ReadLine {
        self.buf.clear();
        let mut bytes = 0usize;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if available.is_empty() {
                return if bytes == 0 {
                    ReadLine::Eof
                } else {
                    self.finish(bytes)
                };
            }
            let (take, newline) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (available.len(), false),
            };
            // Bytes past the bound are counted, not kept.
            let room = (self.max + 1).saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&available[..take.min(room)]);
            bytes = bytes.saturating_add(take);
            self.inner.consume(take + usize::from(newline));
            if newline {
                return self.finish(bytes);
            }
        }
    }

    fn finish(&mut self, bytes: usize) -> ReadLine {
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.buf.len() > self.max {
            let head: String = String::from_utf8_lossy(&self.buf[..self.buf.len().min(60)])
                .chars()
                .take(40)
                .collect();
            return ReadLine::TooLong { bytes, head };
        }
        ReadLine::Line(String::from_utf8_lossy(&self.buf).into_owned())
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = ReadLine;

    /// The lines until the end of the input.
    fn next(&mut self) -> Option<ReadLine> {
        match self.read() {
            ReadLine::Eof => None,
            other => Some(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn read_all(bytes: &[u8], max: usize) -> Vec<ReadLine> {
        LineReader::with_max(Cursor::new(bytes.to_vec()), max).collect()
    }

    fn line(s: &str) -> ReadLine {
        ReadLine::Line(s.to_string())
    }

    #[test]
    fn lines_end_at_newlines_with_or_without_carriage_returns() {
        assert_eq!(
            read_all(b"uci\r\nisready\n\nlast", 100),
            vec![line("uci"), line("isready"), line(""), line("last")]
        );
        assert_eq!(read_all(b"", 100), vec![]);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced_and_reading_goes_on() {
        // GBK for 红方 (a Chinese UCCI engine's info string), then a plain line.
        let got = read_all(b"info string \xba\xec\xb7\xbd\nbestmove h2e2\n\xff\n", 100);
        assert_eq!(got.len(), 3);
        assert!(
            matches!(&got[0], ReadLine::Line(l) if l.starts_with("info string ") && l.contains('\u{FFFD}'))
        );
        assert_eq!(got[1], line("bestmove h2e2"));
        assert_eq!(got[2], line("\u{FFFD}"));
    }

    #[test]
    fn overlong_lines_are_skipped_whole_and_counted() {
        let mut input = vec![b'a'; 50];
        input.extend_from_slice(b"\nok\n");
        input.extend(std::iter::repeat_n(b'b', 30));
        let got = read_all(&input, 20);
        assert_eq!(got.len(), 3);
        assert!(
            matches!(&got[0], ReadLine::TooLong { bytes: 50, head } if head == &"a".repeat(21).chars().take(40).collect::<String>())
        );
        assert_eq!(got[1], line("ok"));
        assert!(matches!(&got[2], ReadLine::TooLong { bytes: 30, .. }));
        // A line of exactly the bound is a line.
        assert_eq!(read_all(&[b'c'; 20], 20), vec![line(&"c".repeat(20))]);
    }
}
