//! Running a served player on a scripted input and collecting what it answers.

use boyi_core::Game;
use boyi_engines::registry::{build_spec, player_def};
use boyi_engines::{BuildContext, BuiltinSpec, GamePlayers, Limits, Player, build};
use boyi_protocol::{Configure, Protocol, ServeOptions, serve};
use std::io::{BufReader, Cursor, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
#[allow(dead_code)]
pub fn transcript<G: Game>(
    protocol: Protocol,
    player: impl Player<G> + 'static,
    start: G,
    limits: Limits,
    input: &str,
) -> String {
    serve_on(
        protocol,
        Box::new(player),
        start,
        limits,
        Cursor::new(input.as_bytes().to_vec()),
    )
}

/// As [`transcript`], for a player built at run time whose searches take a while: the input
/// ends only once the output has `until` lines starting with `marker`, so the end of the
/// input (which stops a running search) cannot cut a search short.
#[allow(dead_code)]
pub fn transcript_boxed<G: Game>(
    protocol: Protocol,
    player: Box<dyn Player<G>>,
    start: G,
    input: &str,
    marker: &str,
    until: usize,
) -> String {
    let marker = marker.to_string();
    held_transcript(
        protocol,
        player,
        start,
        Limits::default(),
        input.as_bytes(),
        move |out| out.lines().filter(|l| l.starts_with(&marker)).count() >= until,
    )
    .out
}

/// What a held transcript gave.
#[allow(dead_code)]
pub struct Held {
    pub out: String,
    /// The output answered the script while the input was still open.
    pub answered: bool,
    /// The input ended (it ends once answered, or after the hang guard).
    pub input_ended: bool,
}

/// How long a held input waits for its answer: not a bound on any speed, only a guard that
/// turns a broken server into a failed test instead of a hung one.
const HANG_GUARD: Duration = Duration::from_secs(600);

/// Serves `player` on `input`, holding the input open until `answered` holds of the output
/// (or the hang guard runs out).
#[allow(dead_code)]
pub fn held_transcript<G: Game>(
    protocol: Protocol,
    player: Box<dyn Player<G>>,
    start: G,
    limits: Limits,
    input: &[u8],
    answered: impl Fn(&str) -> bool + Send + 'static,
) -> Held {
    let out = Shared::default();
    let flags = Arc::new([AtomicBool::new(false), AtomicBool::new(false)]);
    let held = HeldInput {
        script: Cursor::new(input.to_vec()),
        out: out.clone(),
        answered: Box::new(answered),
        flags: flags.clone(),
    };
    let out = serve_to(protocol, player, None, start, limits, held, out);
    Held {
        out,
        answered: flags[0].load(Ordering::SeqCst),
        input_ended: flags[1].load(Ordering::SeqCst),
    }
}

/// As [`held_transcript`], for the built-in player `spec` with its options offered to the
/// manager (as `boyi engine` serves it), holding the input until `answered`.
#[allow(dead_code)]
pub fn held_configured<G: GamePlayers>(
    protocol: Protocol,
    spec: &str,
    start: G,
    input: &str,
    answered: impl Fn(&str) -> bool + Send + 'static,
) -> String {
    let ctx = BuildContext::default();
    let player = build::<G>(spec, ctx).unwrap();
    let base = BuiltinSpec::parse(spec).unwrap();
    let configure = Configure {
        options: player_def::<G>(&base.name).unwrap().options,
        rebuild: Box::new(move |set: &[(String, String)]| {
            let mut spec = base.clone();
            spec.options.extend(set.iter().cloned());
            build_spec::<G>(&spec, ctx)
        }),
    };
    let out = Shared::default();
    let held = HeldInput {
        script: Cursor::new(input.as_bytes().to_vec()),
        out: out.clone(),
        answered: Box::new(answered),
        flags: Arc::new([AtomicBool::new(false), AtomicBool::new(false)]),
    };
    serve_to(
        protocol,
        player,
        Some(configure),
        start,
        Limits::default(),
        held,
        out,
    )
}

/// A script, then an end of input held back until the output answers it.
struct HeldInput {
    script: Cursor<Vec<u8>>,
    out: Shared,
    answered: Box<dyn Fn(&str) -> bool + Send>,
    /// Answered in time; input ended.
    flags: Arc<[AtomicBool; 2]>,
}

impl Read for HeldInput {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.script.read(buf)?;
        if n > 0 {
            return Ok(n);
        }
        let guard = Instant::now() + HANG_GUARD;
        while Instant::now() < guard {
            if (self.answered)(&self.out.text()) {
                self.flags[0].store(true, Ordering::SeqCst);
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        self.flags[1].store(true, Ordering::SeqCst);
        Ok(0)
    }
}

/// Runs `f`, failing instead of hanging when it has not returned within the hang guard.
#[allow(dead_code)]
pub fn guarded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(HANG_GUARD)
        .expect("no answer: the server hangs (or panicked)")
}

impl Shared {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// As [`transcript`], for raw bytes.
#[allow(dead_code)]
pub fn transcript_bytes<G: Game>(
    protocol: Protocol,
    player: impl Player<G> + 'static,
    start: G,
    input: &[u8],
) -> String {
    serve_on(
        protocol,
        Box::new(player),
        start,
        Limits::default(),
        Cursor::new(input.to_vec()),
    )
}

fn serve_on<G: Game>(
    protocol: Protocol,
    player: Box<dyn Player<G>>,
    start: G,
    limits: Limits,
    input: impl Read + Send + 'static,
) -> String {
    serve_to(
        protocol,
        player,
        None,
        start,
        limits,
        input,
        Shared::default(),
    )
}

fn serve_to<G: Game>(
    protocol: Protocol,
    player: Box<dyn Player<G>>,
    configure: Option<Configure<G>>,
    start: G,
    limits: Limits,
    input: impl Read + Send + 'static,
    out: Shared,
) -> String {
    let opts = ServeOptions {
        start,
        default_limits: limits,
        name: "Boyi".into(),
        version: "test".into(),
        configure,
    };
    serve(protocol, player, opts, BufReader::new(input), out.clone()).unwrap();
    out.text()
}

/// Compares line by line, showing both transcripts on failure.
#[allow(dead_code)]
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
