//! Input that is not clean UTF-8 text, in both directions: a served engine answers lines with
//! bytes that are not UTF-8 (and lines far too long) with the protocol's error and reads on;
//! a driven engine that prints such lines (GBK text from a Chinese engine) is still heard.

mod support;

use boyi_core::{Game, NoVariant};
use boyi_engines::testing::FirstMove;
use boyi_engines::tictactoe::TicTacToe;
use boyi_engines::{GameHistory, Limits, StopFlag};
use boyi_games::xiangqi::Xiangqi;
use boyi_protocol::driver::ExternalOptions;
use boyi_protocol::lines::MAX_LINE;
use boyi_protocol::{Protocol, external};
use support::{check, transcript_bytes};

fn tictactoe() -> TicTacToe {
    TicTacToe::start(&NoVariant, None).unwrap()
}

#[test]
fn served_engines_answer_bytes_that_are_not_utf8_and_read_on() {
    let about = "name=\"Boyi\", version=\"test\", author=\"the Boyi developers\", country=\"CN\"";
    let out = transcript_bytes(
        Protocol::Gomocup,
        FirstMove,
        tictactoe(),
        b"ABOUT\n\xff\nABOUT\n",
    );
    check(&out, &format!("{about}\nUNKNOWN \u{FFFD}\n{about}\n"));
    let out = transcript_bytes(
        Protocol::Uci,
        FirstMove,
        tictactoe(),
        b"\xc0\xafgo\nisready\n",
    );
    check(
        &out,
        "info string error: unknown command \"\u{FFFD}\u{FFFD}go\"\nreadyok\n",
    );
    let out = transcript_bytes(Protocol::Sau, FirstMove, tictactoe(), b"name\xff?\nname?\n");
    check(&out, "error\nname Boyi test\n");
}

#[test]
fn served_engines_refuse_overlong_lines_and_read_on() {
    let mut input = b"position startpos moves ".to_vec();
    input.extend(std::iter::repeat_n(b'a', 2 * MAX_LINE));
    input.extend_from_slice(b"\nisready\n");
    let out = transcript_bytes(Protocol::Uci, FirstMove, tictactoe(), &input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{}", &out[..out.len().min(300)]);
    assert!(
        lines[0].starts_with(&format!(
            "info string error: a line of {} bytes (position startpos moves aaa",
            2 * MAX_LINE + 24
        )),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "readyok");
}

/// A UCCI engine written in shell that prints GBK text and an overlong line before its move.
const NOISY_UCCI: &str = r#"
while IFS= read -r line; do
  case "$line" in
    ucci) printf 'id name \272\354\267\275\nucciok\n' ;;
    isready) echo readyok ;;
    go*)
      printf 'info string \272\354\267\275\265\304\306\345\n'
      head -c 3000000 /dev/zero | tr '\0' x; echo
      echo 'bestmove h2e2' ;;
    quit) echo bye; exit 0 ;;
  esac
done
"#;

#[test]
fn driven_engines_printing_gbk_and_overlong_lines_are_still_heard() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("noisy-ucci.sh");
    std::fs::write(&script, NOISY_UCCI).unwrap();
    let command = format!("sh {}", script.display());
    let mut player =
        external::<Xiangqi>(&command, Protocol::Ucci, ExternalOptions::default()).unwrap();
    let game = GameHistory::new(Xiangqi::start(&Default::default(), None).unwrap());
    let mut texts = Vec::new();
    let mv = player
        .choose(&game, &Limits::depth(1), &StopFlag::new(), &mut |i| {
            texts.extend(i.text)
        })
        .unwrap_or_else(|e| panic!("the driver lost the engine: {e}"));
    assert_eq!(game.current().format_move(&mv), "h2e2");
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].contains('\u{FFFD}'), "{texts:?}");
}
