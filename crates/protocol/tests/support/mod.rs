//! Running a served player on a scripted input and collecting what it answers.

use boyi_core::Game;
use boyi_engines::{Limits, Player};
use boyi_protocol::{Protocol, ServeOptions, serve};
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
pub struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Serves `player` on `input` (one command per line) and returns the output.
pub fn transcript<G: Game>(
    protocol: Protocol,
    player: impl Player<G> + 'static,
    start: G,
    limits: Limits,
    input: &str,
) -> String {
    serve_with(protocol, Box::new(player), start, limits, input)
}

/// As [`transcript`], for a player built at run time.
#[allow(dead_code)]
pub fn transcript_boxed<G: Game>(
    protocol: Protocol,
    player: Box<dyn Player<G>>,
    start: G,
    input: &str,
) -> String {
    serve_with(protocol, player, start, Limits::default(), input)
}

fn serve_with<G: Game>(
    protocol: Protocol,
    player: Box<dyn Player<G>>,
    start: G,
    limits: Limits,
    input: &str,
) -> String {
    let out = Shared::default();
    let opts = ServeOptions {
        start,
        default_limits: limits,
        name: "Boyi".into(),
        version: "test".into(),
        swap2: None,
    };
    serve(
        protocol,
        player,
        opts,
        Cursor::new(input.to_string()),
        out.clone(),
    )
    .unwrap();
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
}

/// Compares line by line, showing both transcripts on failure.
#[track_caller]
pub fn check(got: &str, expected: &str) {
    let want: Vec<&str> = expected
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let have: Vec<&str> = got.lines().collect();
    assert_eq!(
        have, want,
        "\n--- got ---\n{got}--- expected ---\n{expected}"
    );
}
