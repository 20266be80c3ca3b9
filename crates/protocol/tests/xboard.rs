//! The xboard driver against a scripted fake engine (a shell loop that logs every line it
//! reads and answers each `go` with the next scripted reply): the handshake, keeping the
//! game in step with `force` and only the new moves, limits, `setboard` in the engine's own
//! form after a refusal, and the ways an engine can fail.

use boyi_core::{Game, Side};
use boyi_engines::{Clock, GameHistory, Limits, Player, PlayerError, StopFlag};
use boyi_games::xiangqi::Xiangqi;
use boyi_protocol::Protocol;
use boyi_protocol::driver::ExternalOptions;
use std::path::PathBuf;
use std::time::Duration;

/// The fake engine: argument 1 is the log file, argument 2 the file of replies to `go`.
/// A `setboard` with standard FEN fields (`- -`) is refused, as HoiXiangqi refuses it.
const FAKE: &str = r#"
exec 3< "$2"
while read -r l; do
  echo "$l" >> "$1"
  case "$l" in
    "protover 2")
      echo 'feature myname="Fake 1" variants="normal,xiangqi" ping=1 setboard=1 san=1'
      echo 'feature usermove=1 frobnicate=1 done=1';;
    ping*) echo "pong ${l#ping }";;
    setboard*" - - "*) echo "tellusererror Illegal position";;
    go) read -r reply <&3; printf '%b\n' "$reply";;
    quit) exit 0;;
  esac
done
"#;

struct Fake {
    dir: PathBuf,
}

impl Fake {
    fn new(name: &str, replies: &[&str]) -> Fake {
        let dir = std::env::temp_dir().join(format!("boyi-xboard-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("fake.sh"), FAKE).unwrap();
        std::fs::write(dir.join("replies"), replies.join("\n") + "\n").unwrap();
        let _ = std::fs::remove_file(dir.join("log"));
        Fake { dir }
    }

    fn player(&self) -> Box<dyn Player<Xiangqi>> {
        let d = self.dir.display();
        let cmd = format!("sh {d}/fake.sh {d}/log {d}/replies");
        let opts = ExternalOptions {
            margin: Duration::from_secs(5),
            ..ExternalOptions::default()
        };
        boyi_protocol::external::<Xiangqi>(&cmd, Protocol::Xboard, opts).unwrap()
    }

    /// The lines the engine read, after the player was dropped.
    fn log(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.dir.join("log")).unwrap_or_default();
        text.lines().map(str::to_string).collect()
    }
}

impl Drop for Fake {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start() -> GameHistory<Xiangqi> {
    GameHistory::new(Xiangqi::start(&Default::default(), None).unwrap())
}

fn ask(
    p: &mut Box<dyn Player<Xiangqi>>,
    game: &GameHistory<Xiangqi>,
    limits: &Limits,
) -> Result<String, PlayerError> {
    p.choose(game, limits, &StopFlag::default(), &mut |_| {})
        .map(|mv| game.current().format_move(&mv))
}

fn clock(red_ms: u64, black_ms: u64) -> Limits {
    let mut c = Clock {
        increment: [Duration::from_millis(50); 2],
        ..Clock::default()
    };
    c.time_left[Side::White.index()] = Duration::from_millis(red_ms);
    c.time_left[Side::Black.index()] = Duration::from_millis(black_ms);
    Limits {
        clock: Some(c),
        ..Limits::default()
    }
}

#[test]
fn a_game_is_kept_in_step_with_force_and_new_moves() {
    let fake = Fake::new(
        "step",
        &[
            "# thinking\\n1 12 5 100 h2e2\\nmove h2e2\\n1-0 {claimed}",
            "telluser hello\\nMy move is: b0c2",
        ],
    );
    let mut p = fake.player();
    let mut game = start();
    let first = ask(&mut p, &game, &clock(10_000, 12_000)).unwrap();
    assert_eq!(first, "h2e2");
    game.push_text(&first).unwrap();
    game.push_text("h9g7").unwrap();
    let second = ask(&mut p, &game, &clock(9_500, 11_000)).unwrap();
    assert_eq!(second, "b0c2");
    drop(p);
    let want = [
        "xboard",
        "protover 2",
        "accepted myname",
        "accepted variants",
        "accepted ping",
        "accepted setboard",
        "rejected san",
        "accepted usermove",
        "rejected frobnicate",
        "accepted done",
        "new",
        "variant xiangqi",
        "force",
        "easy",
        "post",
        "level 0 0:10 0.05",
        "time 1000",
        "otim 1200",
        "go",
        "force",
        "usermove h9g7",
        "time 950",
        "otim 1100",
        "go",
        "quit",
    ];
    assert_eq!(fake.log(), want);
}

#[test]
fn other_start_positions_are_set_in_the_form_the_engine_takes() {
    let fake = Fake::new("setboard", &["move h7e7", "move a6a5"]);
    let mut p = fake.player();
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let game = GameHistory::new(Xiangqi::from_text(&Default::default(), fen).unwrap());
    let depth = Limits::depth(3);
    assert_eq!(ask(&mut p, &game, &depth).unwrap(), "h7e7");
    p.new_game();
    assert_eq!(ask(&mut p, &game, &depth).unwrap(), "a6a5");
    drop(p);
    let log = fake.log();
    let from_new: Vec<&str> = log
        .iter()
        .skip_while(|l| *l != "new")
        .map(String::as_str)
        .collect();
    let hoi = "setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b 1 1";
    let want = [
        "new",
        "variant xiangqi",
        "force",
        "easy",
        "post",
        &format!("setboard {fen}"),
        "ping 1",
        hoi,
        "ping 2",
        "sd 3",
        "go",
        // The second game remembers the form that worked.
        "new",
        "variant xiangqi",
        "force",
        "easy",
        "post",
        hoi,
        "ping 3",
        "sd 3",
        "go",
        "quit",
    ];
    assert_eq!(from_new, want);
}

#[test]
fn failures_are_reported() {
    let game = start();
    let depth = Limits::depth(2);
    type Check = fn(&PlayerError) -> bool;
    let cases: [(&str, Check); 5] = [
        ("resign", |e| *e == PlayerError::Resigned),
        ("0-1 {Red resigns}", |e| *e == PlayerError::Resigned),
        (
            "move a0a9",
            |e| matches!(e, PlayerError::Illegal(m) if m.contains("a0a9")),
        ),
        ("move Pa3-a4", |e| matches!(e, PlayerError::Illegal(_))),
        (
            "Illegal move: h2e2",
            |e| matches!(e, PlayerError::Protocol(m) if m.contains("Illegal move: h2e2")),
        ),
    ];
    for (i, (reply, check)) in cases.iter().enumerate() {
        let fake = Fake::new(&format!("fail{i}"), &[reply]);
        let mut p = fake.player();
        let err = ask(&mut p, &game, &depth).unwrap_err();
        assert!(check(&err), "{reply}: {err:?}");
    }
    let fake = Fake::new("nodes", &[]);
    let mut p = fake.player();
    let nodes = Limits {
        nodes: Some(1000),
        ..Limits::default()
    };
    let err = ask(&mut p, &game, &nodes).unwrap_err();
    assert!(
        matches!(&err, PlayerError::Unsupported(m) if m.contains("node")),
        "{err:?}"
    );
}

#[test]
fn xboard_is_driven_not_served() {
    assert_eq!("xboard".parse::<Protocol>().unwrap(), Protocol::Xboard);
    assert!(!Protocol::Xboard.supports("gomoku"));
    assert!(Protocol::Xboard.supports("xiangqi"));
    let out: Vec<u8> = Vec::new();
    let err = boyi_protocol::serve::<Xiangqi>(
        Protocol::Xboard,
        Box::new(boyi_engines::testing::FirstMove),
        boyi_protocol::ServeOptions {
            start: Xiangqi::start(&Default::default(), None).unwrap(),
            default_limits: Limits::depth(1),
            name: "Boyi".into(),
            version: "test".into(),
            configure: None,
        },
        std::io::Cursor::new(Vec::new()),
        out,
    )
    .unwrap_err();
    assert!(err.to_string().contains("does not serve"), "{err}");
}
