//! Slow tier: every served protocol loop (Gomocup, SAU, UCI, UCCI, uci-fsf) under random
//! command sequences — well-formed commands in any order, urgent lines during searches,
//! garbage bytes, overlong lines, quitting — checked against a reference model: no panic, no
//! hang, and every line that must be answered (`go`, `TURN`, `BEGIN`, `BOARD`, …) answered.
//!
//! The served player dawdles a little before each move (stopped early by `stop`), so commands
//! arrive during searches as they do from real managers. Run with
//! `cargo test -p boyi-protocol --test state_machines -- --ignored`.

mod support;

use boyi_core::{Game, NoVariant};
use boyi_engines::testing::FirstMove;
use boyi_engines::tictactoe::TicTacToe;
use boyi_engines::{GameHistory, Info, Limits, Player, PlayerError, StopFlag};
use boyi_games::xiangqi::Xiangqi;
use boyi_protocol::codec::{shift_ranks, to_sau};
use boyi_protocol::lines::MAX_LINE;
use boyi_protocol::{Protocol, ServeOptions, serve};
use proptest::prelude::*;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest, prop_state_machine};
use std::io::{BufReader, PipeWriter, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;
use support::Shared;

/// Thinks for up to two milliseconds (less when stopped), then plays the first legal move.
struct Dawdler;

static DAWDLES: AtomicU64 = AtomicU64::new(1);

impl<G: Game> Player<G> for Dawdler {
    fn name(&self) -> String {
        "dawdler".into()
    }

    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<G::Move, PlayerError> {
        let n = DAWDLES.fetch_add(1, Ordering::Relaxed);
        let micros = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 53;
        for _ in 0..micros / 100 {
            if stop.is_stopped() {
                break;
            }
            std::thread::sleep(Duration::from_micros(100));
        }
        FirstMove.choose(game, limits, stop, info)
    }
}

fn start() -> TicTacToe {
    TicTacToe::start(&NoVariant, None).unwrap()
}

/// The first legal move, as the dawdler plays it.
fn first_move(pos: &TicTacToe) -> Option<<TicTacToe as Game>::Move> {
    pos.legal_moves().into_iter().next()
}

/// `(column, row)` from 0 as a point's text (`a1`).
fn point_text((c, r): (u8, u8)) -> String {
    format!("{}{}", char::from(b'a' + c), r + 1)
}

/// What a model has to say about a command line.
#[derive(Debug, Clone, Default)]
pub struct Expect {
    /// Answer lines at least and at most (they differ where timing decides: SAU `end` right
    /// after a move-starting line may abandon the search or come after its move).
    pub min: usize,
    pub max: usize,
    /// The session has ended (quit): nothing more is written.
    pub closed: bool,
}

impl Expect {
    fn add(&mut self, n: usize) {
        self.min += n;
        self.max += n;
    }
}

/// The served loop: input through a pipe, output collected, the loop on its own thread.
pub struct Served {
    /// The input, until the session is quit or ended.
    input: Option<PipeWriter>,
    out: Shared,
    finished: Receiver<()>,
}

impl Served {
    fn start<G: Game>(protocol: Protocol, start: G) -> Served {
        let (reader, writer) = std::io::pipe().unwrap();
        let out = Shared::default();
        let sink = out.clone();
        let (tx, finished) = channel();
        std::thread::spawn(move || {
            let opts = ServeOptions {
                start,
                default_limits: Limits::default(),
                name: "Boyi".into(),
                version: "test".into(),
                configure: None,
            };
            serve(
                protocol,
                Box::new(Dawdler),
                opts,
                BufReader::new(reader),
                sink,
            )
            .unwrap();
            // A panic drops the sender unsent.
            let _ = tx.send(());
        });
        Served {
            input: Some(writer),
            out,
            finished,
        }
    }

    /// Writes a line (or, for no bytes, pauses a moment); `quits` marks the session's end,
    /// after which nobody reads and nothing more is written.
    fn write(&mut self, bytes: &[u8], quits: bool) {
        if bytes.is_empty() {
            std::thread::sleep(Duration::from_millis(4));
            return;
        }
        if let Some(w) = &mut self.input {
            w.write_all(bytes).unwrap();
        }
        if quits {
            self.input.take();
        }
    }

    /// Ends the input and checks the session's answers against the model.
    fn finish(mut self, expect: &Expect, answers: impl Fn(&str) -> bool) {
        // The end of the input (unless quit ended it already).
        self.input.take();
        match self.finished.recv_timeout(Duration::from_secs(120)) {
            Ok(()) => {}
            Err(RecvTimeoutError::Timeout) => panic!("the server hangs"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server panicked"),
        }
        let out = self.out.text();
        let n = out.lines().filter(|l| answers(l)).count();
        assert!(
            (expect.min..=expect.max).contains(&n),
            "{n} answers, expected {}..={}:\n{out}",
            expect.min,
            expect.max
        );
    }
}

/// Bytes that are not UTF-8 and no command: answered as unknown.
fn garbage() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop_oneof![0x80u8..=0xff, Just(b'#'), Just(b'7')], 1..12).prop_map(
        |mut v| {
            v.push(b'\n');
            v
        },
    )
}

fn overlong() -> Vec<u8> {
    let mut v = vec![b'z'; MAX_LINE + 10];
    v.push(b'\n');
    v
}

// ------------------------------------------------------------------------------- Gomocup

#[derive(Debug, Clone)]
pub enum GomocupLine {
    Start(usize),
    Restart,
    Begin,
    Turn(usize, usize),
    Takeback(usize, usize),
    Board(Vec<(usize, usize, u8)>),
    Info(&'static str, u64),
    About,
    Stop,
    Garbage(Vec<u8>),
    Overlong,
    End,
    /// No line: the manager waits a moment (a search may finish meanwhile).
    Pause,
}

#[derive(Debug, Clone, Default)]
pub struct GomocupModel {
    started: bool,
    expect: Expect,
}

pub struct GomocupMachine;

impl ReferenceStateMachine for GomocupMachine {
    type State = GomocupModel;
    type Transition = GomocupLine;

    fn init_state() -> BoxedStrategy<GomocupModel> {
        Just(GomocupModel::default()).boxed()
    }

    fn transitions(_: &GomocupModel) -> BoxedStrategy<GomocupLine> {
        let xy = || (0usize..4, 0usize..4);
        prop_oneof![
            2 => (2usize..5).prop_map(GomocupLine::Start),
            1 => Just(GomocupLine::Restart),
            3 => Just(GomocupLine::Begin),
            6 => xy().prop_map(|(x, y)| GomocupLine::Turn(x, y)),
            1 => xy().prop_map(|(x, y)| GomocupLine::Takeback(x, y)),
            2 => prop::collection::vec((0usize..4, 0usize..4, 1u8..4), 0..6).prop_map(GomocupLine::Board),
            2 => (prop::sample::select(vec!["timeout_turn", "time_left", "max_memory", "timeout_match"]), 0u64..100)
                .prop_map(|(k, v)| GomocupLine::Info(k, v)),
            1 => Just(GomocupLine::About),
            3 => Just(GomocupLine::Stop),
            1 => garbage().prop_map(GomocupLine::Garbage),
            1 => Just(GomocupLine::Overlong),
            1 => Just(GomocupLine::End),
            3 => Just(GomocupLine::Pause),
        ]
        .boxed()
    }

    fn apply(mut state: GomocupModel, line: &GomocupLine) -> GomocupModel {
        if state.expect.closed {
            return state;
        }
        let e = &mut state.expect;
        match line {
            GomocupLine::Start(n) => {
                e.add(1);
                state.started |= *n == 3;
            }
            // Each of these is answered by one line: OK, a move, or an error.
            GomocupLine::Restart
            | GomocupLine::Begin
            | GomocupLine::Turn(..)
            | GomocupLine::Takeback(..)
            | GomocupLine::About
            | GomocupLine::Garbage(_)
            | GomocupLine::Overlong => e.add(1),
            // Without a game, BOARD is an error and every line after it an unknown command.
            GomocupLine::Board(stones) => e.add(if state.started { 1 } else { stones.len() + 2 }),
            GomocupLine::Info(..) | GomocupLine::Stop | GomocupLine::Pause => {}
            GomocupLine::End => e.closed = true,
        }
        state
    }
}

fn gomocup_bytes(line: &GomocupLine) -> Vec<u8> {
    match line {
        GomocupLine::Start(n) => format!("START {n}\n").into_bytes(),
        GomocupLine::Restart => b"RESTART\n".to_vec(),
        GomocupLine::Begin => b"BEGIN\n".to_vec(),
        GomocupLine::Turn(x, y) => format!("TURN {x},{y}\n").into_bytes(),
        GomocupLine::Takeback(x, y) => format!("TAKEBACK {x},{y}\n").into_bytes(),
        GomocupLine::Board(stones) => {
            let mut s = String::from("BOARD\n");
            for (x, y, f) in stones {
                s += &format!("{x},{y},{f}\n");
            }
            (s + "DONE\n").into_bytes()
        }
        GomocupLine::Info(k, v) => format!("INFO {k} {v}\n").into_bytes(),
        GomocupLine::About => b"ABOUT\n".to_vec(),
        GomocupLine::Stop => b"YXSTOP\n".to_vec(),
        GomocupLine::Garbage(b) => b.clone(),
        GomocupLine::Overlong => overlong(),
        GomocupLine::End => b"END\n".to_vec(),
        GomocupLine::Pause => Vec::new(),
    }
}

pub struct GomocupTest;

impl StateMachineTest for GomocupTest {
    type SystemUnderTest = Served;
    type Reference = GomocupMachine;

    fn init_test(_: &GomocupModel) -> Served {
        Served::start(Protocol::Gomocup, start())
    }

    fn apply(mut sut: Served, _: &GomocupModel, line: GomocupLine) -> Served {
        let quits = matches!(line, GomocupLine::End);
        sut.write(&gomocup_bytes(&line), quits);
        sut
    }

    fn teardown(sut: Served, model: GomocupModel) {
        sut.finish(&model.expect, |l| !l.starts_with("MESSAGE"));
    }
}

// ------------------------------------------------------------------------ UCI, UCCI, FSF

#[derive(Debug, Clone)]
pub enum UciLine {
    Hello,
    IsReady,
    NewGame,
    /// `position startpos moves …` with these of the kit's moves (legal or not).
    Position(Vec<usize>),
    /// `position fen …`: a valid position or not.
    Fen(bool),
    Go(usize),
    Stop,
    PonderHit,
    Ban(usize),
    Garbage(Vec<u8>),
    Overlong,
    Quit,
    Pause,
}

/// `go` forms: (UCI text, UCCI text, accepted).
const GOES: [(&str, &str, bool); 8] = [
    ("go depth 2", "go depth 2", true),
    ("go movetime 3", "go time 3 movestogo 1", true),
    ("go infinite", "go depth 9 ponder", true),
    ("go ponder", "go ponder depth 3", true),
    ("go", "go", true),
    ("go nodes 50", "go nodes 50", true),
    (
        "go wtime 100 btime 100 winc 5 binc 5",
        "go time 100 increment 5 opptime 100",
        true,
    ),
    ("go frobnicate", "go time", false),
];

/// What a UCI dialect is tried on: tic-tac-toe for `uci` and `ucci` (any one-word game), the
/// real Xiangqi for `uci-fsf` (the only game it carries).
struct UciKit {
    protocol: Protocol,
    /// Moves as the dialect writes them.
    moves: &'static [&'static str],
    fens: [&'static str; 2],
}

const TICTACTOE_MOVES: [&str; 9] = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"];
const FSF_MOVES: [&str; 8] = [
    "h3e3", "h8e8", "b1c3", "b10c8", "c4c5", "g7g6", "e4e5", "h1h10",
];

fn kit(d: u8) -> UciKit {
    match d {
        0 | 1 => UciKit {
            protocol: if d == 0 {
                Protocol::Uci
            } else {
                Protocol::Ucci
            },
            moves: &TICTACTOE_MOVES,
            fens: ["3/1x1/3 w", "3/1q1/3 w"],
        },
        _ => UciKit {
            protocol: Protocol::UciFsf,
            moves: &FSF_MOVES,
            fens: [
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                "rnbakabnr/9/9 w",
            ],
        },
    }
}

impl UciKit {
    /// Whether the moves are legal in turn from the start (the model's own replay).
    fn legal(&self, line: &[usize]) -> bool {
        let texts = line.iter().map(|&i| self.moves[i]);
        if self.protocol == Protocol::UciFsf {
            let mut game = GameHistory::new(Xiangqi::start(&Default::default(), None).unwrap());
            texts
                .map(|t| shift_ranks(t, -1))
                .all(|t| t.is_ok_and(|t| game.push_text(&t).is_ok()))
        } else {
            let mut game = GameHistory::new(start());
            texts.into_iter().all(|t| game.push_text(t).is_ok())
        }
    }

    fn serve(&self) -> Served {
        if self.protocol == Protocol::UciFsf {
            Served::start(
                self.protocol,
                Xiangqi::start(&Default::default(), None).unwrap(),
            )
        } else {
            Served::start(self.protocol, start())
        }
    }
}

#[derive(Debug, Clone)]
pub struct UciModel {
    dialect: u8,
    /// The position `go` would search: set and legal.
    position: bool,
    expect: Expect,
}

pub struct UciMachine<const D: u8>;

impl<const D: u8> ReferenceStateMachine for UciMachine<D> {
    type State = UciModel;
    type Transition = UciLine;

    fn init_state() -> BoxedStrategy<UciModel> {
        Just(UciModel {
            dialect: D,
            position: false,
            expect: Expect::default(),
        })
        .boxed()
    }

    fn transitions(_: &UciModel) -> BoxedStrategy<UciLine> {
        let moves = kit(D).moves.len();
        prop_oneof![
            1 => Just(UciLine::Hello),
            3 => Just(UciLine::IsReady),
            1 => Just(UciLine::NewGame),
            4 => prop::collection::vec(0..moves, 0..10).prop_map(UciLine::Position),
            1 => any::<bool>().prop_map(UciLine::Fen),
            6 => (0..GOES.len()).prop_map(UciLine::Go),
            4 => Just(UciLine::Stop),
            1 => Just(UciLine::PonderHit),
            1 => (0..moves).prop_map(UciLine::Ban),
            1 => garbage().prop_map(UciLine::Garbage),
            1 => Just(UciLine::Overlong),
            1 => Just(UciLine::Quit),
            3 => Just(UciLine::Pause),
        ]
        .boxed()
    }

    fn apply(mut state: UciModel, line: &UciLine) -> UciModel {
        if state.expect.closed {
            return state;
        }
        let kit = kit(state.dialect);
        let ucci = kit.protocol == Protocol::Ucci;
        match line {
            UciLine::NewGame if !ucci => state.position = false,
            UciLine::Position(moves) => state.position = kit.legal(moves),
            UciLine::Fen(valid) => state.position = *valid,
            // Every accepted `go` on a position is answered once: with a move, or with
            // `bestmove (none)`/`nobestmove` when the game is over or every move banned.
            UciLine::Go(i) if GOES[*i].2 && state.position => state.expect.add(1),
            UciLine::Quit => state.expect.closed = true,
            _ => {}
        }
        state
    }
}

fn uci_bytes(kit: &UciKit, line: &UciLine) -> Vec<u8> {
    let ucci = kit.protocol == Protocol::Ucci;
    let text = match line {
        UciLine::Hello => if ucci { "ucci" } else { "uci" }.to_string(),
        UciLine::IsReady => "isready".into(),
        UciLine::NewGame => "ucinewgame".into(),
        UciLine::Position(moves) => {
            let moves: Vec<&str> = moves.iter().map(|&i| kit.moves[i]).collect();
            if moves.is_empty() {
                "position startpos".into()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            }
        }
        UciLine::Fen(valid) => format!("position fen {}", kit.fens[usize::from(!valid)]),
        UciLine::Go(i) => if ucci { GOES[*i].1 } else { GOES[*i].0 }.to_string(),
        UciLine::Stop => "stop".into(),
        UciLine::PonderHit => "ponderhit".into(),
        UciLine::Ban(i) => format!("banmoves {}", kit.moves[*i]),
        UciLine::Garbage(b) => return b.clone(),
        UciLine::Overlong => return overlong(),
        UciLine::Quit => "quit".into(),
        UciLine::Pause => return Vec::new(),
    };
    (text + "\n").into_bytes()
}

pub struct UciTest<const D: u8>;

impl<const D: u8> StateMachineTest for UciTest<D> {
    type SystemUnderTest = Served;
    type Reference = UciMachine<D>;

    fn init_test(_: &UciModel) -> Served {
        kit(D).serve()
    }

    fn apply(mut sut: Served, _: &UciModel, line: UciLine) -> Served {
        let quits = matches!(line, UciLine::Quit);
        sut.write(&uci_bytes(&kit(D), &line), quits);
        sut
    }

    fn teardown(sut: Served, model: UciModel) {
        sut.finish(&model.expect, |l| {
            l.starts_with("bestmove") || l.starts_with("nobestmove")
        });
    }
}

// ----------------------------------------------------------------------------------- SAU

#[derive(Debug, Clone)]
pub enum SauLine {
    Name,
    New(bool),
    Move(u8, u8),
    End,
    Garbage(Vec<u8>),
    Overlong,
    Quit,
    Pause,
}

#[derive(Debug, Clone, Default)]
pub struct SauModel {
    /// The game and the engine's side (black when true).
    game: Option<(GameHistory<TicTacToe>, bool)>,
    /// The last line started a search whose move `end` may still abandon.
    searching: bool,
    expect: Expect,
}

impl SauModel {
    /// The engine moves while it is its turn (one move a turn in tic-tac-toe).
    fn engine_turns(&mut self) {
        self.searching = false;
        if let Some((game, black)) = &mut self.game {
            let mine = if *black {
                boyi_core::Side::Black
            } else {
                boyi_core::Side::White
            };
            while game.current().outcome().is_none() && game.current().side_to_move() == mine {
                let mv = first_move(game.current()).expect("a legal move");
                game.push(mv);
                self.expect.add(1);
                self.searching = true;
            }
        }
    }
}

pub struct SauMachine;

impl ReferenceStateMachine for SauMachine {
    type State = SauModel;
    type Transition = SauLine;

    fn init_state() -> BoxedStrategy<SauModel> {
        Just(SauModel::default()).boxed()
    }

    fn transitions(_: &SauModel) -> BoxedStrategy<SauLine> {
        prop_oneof![
            1 => Just(SauLine::Name),
            3 => any::<bool>().prop_map(SauLine::New),
            8 => (0u8..3, 0u8..3).prop_map(|(c, r)| SauLine::Move(c, r)),
            2 => Just(SauLine::End),
            1 => garbage().prop_map(SauLine::Garbage),
            1 => Just(SauLine::Overlong),
            1 => Just(SauLine::Quit),
            3 => Just(SauLine::Pause),
        ]
        .boxed()
    }

    fn apply(mut state: SauModel, line: &SauLine) -> SauModel {
        if state.expect.closed {
            return state;
        }
        // An overlong line is answered at once, never waiting, and a pause is no line: both
        // leave `end` abandonable.
        let abandonable = if matches!(line, SauLine::Overlong | SauLine::Pause) {
            state.searching
        } else {
            std::mem::take(&mut state.searching)
        };
        match line {
            SauLine::Name | SauLine::Garbage(_) | SauLine::Overlong => state.expect.add(1),
            SauLine::New(black) => {
                state.game = Some((GameHistory::new(start()), *black));
                state.engine_turns();
            }
            SauLine::Move(c, r) => {
                let played = match &mut state.game {
                    Some((game, black)) => {
                        let theirs = if *black {
                            boyi_core::Side::White
                        } else {
                            boyi_core::Side::Black
                        };
                        game.current().side_to_move() == theirs
                            && game.push_text(&point_text((*c, *r))).is_ok()
                    }
                    None => false,
                };
                if played {
                    state.engine_turns();
                } else {
                    state.expect.add(1);
                }
            }
            SauLine::End => {
                // Right after the move-starting line, `end` may abandon the search (its
                // move then never comes) or come after the move.
                if abandonable {
                    state.expect.min -= 1;
                }
                state.game = None;
            }
            SauLine::Quit => state.expect.closed = true,
            SauLine::Pause => {}
        }
        state
    }
}

fn sau_bytes(line: &SauLine) -> Vec<u8> {
    let text = match line {
        SauLine::Name => "name?".to_string(),
        SauLine::New(true) => "new black".into(),
        SauLine::New(false) => "new white".into(),
        SauLine::Move(c, r) => format!(
            "move {}",
            to_sau("tictactoe", &point_text((*c, *r)), 3).unwrap()
        ),
        SauLine::End => "end".into(),
        SauLine::Garbage(b) => return b.clone(),
        SauLine::Overlong => return overlong(),
        SauLine::Quit => "quit".into(),
        SauLine::Pause => return Vec::new(),
    };
    (text + "\n").into_bytes()
}

pub struct SauTest;

impl StateMachineTest for SauTest {
    type SystemUnderTest = Served;
    type Reference = SauMachine;

    fn init_test(_: &SauModel) -> Served {
        Served::start(Protocol::Sau, start())
    }

    fn apply(mut sut: Served, _: &SauModel, line: SauLine) -> Served {
        let quits = matches!(line, SauLine::Quit);
        sut.write(&sau_bytes(&line), quits);
        sut
    }

    fn teardown(sut: Served, model: SauModel) {
        sut.finish(&model.expect, |_| true);
    }
}

prop_state_machine! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    #[ignore = "slow tier: random sessions of the Gomocup loop"]
    fn gomocup_sessions(sequential 1..40 => GomocupTest);

    #[test]
    #[ignore = "slow tier: random sessions of the UCI loop"]
    fn uci_sessions(sequential 1..40 => UciTest<0>);

    #[test]
    #[ignore = "slow tier: random sessions of the UCCI loop"]
    fn ucci_sessions(sequential 1..40 => UciTest<1>);

    #[test]
    #[ignore = "slow tier: random sessions of the uci-fsf loop"]
    fn uci_fsf_sessions(sequential 1..40 => UciTest<2>);

    #[test]
    #[ignore = "slow tier: random sessions of the SAU loop"]
    fn sau_sessions(sequential 1..40 => SauTest);
}
