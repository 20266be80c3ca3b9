//! UCI, the Fairy-Stockfish dialect and UCCI on Xiangqi: coordinates (ranks 0–9 against
//! 1–10), the variant option, FEN positions, thinking output.

mod support;

use boyi_core::Game;
use boyi_engines::Limits;
use boyi_engines::testing::{FirstMove, UntilStopped};
use boyi_games::xiangqi::Xiangqi;
use boyi_protocol::Protocol;
use support::{check, transcript};

fn start() -> Xiangqi {
    Xiangqi::start(&Default::default(), None).unwrap()
}

fn first_move(moves: &str) -> String {
    let mut pos = start();
    pos.play_list(moves).unwrap();
    pos.format_move(&pos.legal_moves()[0])
}

#[test]
fn fsf_dialect_counts_ranks_from_one() {
    let input = "
        uci
        setoption name UCI_Variant value chess
        setoption name UCI_Variant value xiangqi
        position startpos moves h3e3
        go depth 1
        position startpos moves h2e2
        position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1 moves h8e8
        go movetime 10
    ";
    let shift = |m: String| boyi_protocol::codec::shift_ranks(&m, 1).unwrap();
    let got = transcript(
        Protocol::UciFsf,
        FirstMove,
        start(),
        Limits::default(),
        input,
    );
    let expected = format!(
        "id name Boyi test\nid author the Boyi developers\noption name UCI_Variant type combo default xiangqi var xiangqi\nuciok\n\
         info string error: variant \"chess\" is not supported (only xiangqi)\nbestmove {}\n{}\nbestmove {}\n",
        shift(first_move("h2e2")),
        got.lines().nth(6).unwrap_or("missing"),
        shift(first_move_from_black("h7e7")),
    );
    check(&got, &expected);
    assert!(
        got.lines()
            .nth(6)
            .unwrap()
            .starts_with("info string error: move 1 (h2e2)"),
        "{got}"
    );
}

fn first_move_from_black(moves: &str) -> String {
    let text = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    let mut pos = Xiangqi::from_text(&Default::default(), text).unwrap();
    pos.play_list(moves).unwrap();
    pos.format_move(&pos.legal_moves()[0])
}

#[test]
fn uci_and_ucci_speak_iccs_ranks() {
    let input = "position startpos moves h2e2 h9g7\ngo depth 1\n";
    let want = format!("bestmove {}\n", first_move("h2e2,h9g7"));
    check(
        &transcript(Protocol::Uci, FirstMove, start(), Limits::default(), input),
        &want,
    );
    let input = "ucci\nposition startpos moves h2e2 h9g7\ngo time 1000 increment 0\n";
    let want = format!(
        "id name Boyi test\nid author the Boyi developers\nucciok\nbestmove {}\n",
        first_move("h2e2,h9g7")
    );
    check(
        &transcript(Protocol::Ucci, FirstMove, start(), Limits::default(), input),
        &want,
    );
}

#[test]
fn stop_during_an_infinite_fsf_search() {
    let input = "position startpos\ngo infinite\nstop\n";
    let want = format!(
        "bestmove {}\n",
        boyi_protocol::codec::shift_ranks(&first_move(""), 1).unwrap()
    );
    check(
        &transcript(
            Protocol::UciFsf,
            UntilStopped,
            start(),
            Limits::default(),
            input,
        ),
        &want,
    );
}

#[test]
fn thinking_output_of_a_real_search() {
    let player = boyi_engines::build::<Xiangqi>("alphabeta?depth=2", Default::default()).unwrap();
    let out = support::transcript_boxed(
        Protocol::UciFsf,
        player,
        start(),
        "position startpos\ngo depth 2\n",
        "bestmove",
        1,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("info depth 1 score cp "), "{out}");
    assert!(
        lines[1].starts_with("info depth 2 score cp ") && lines[1].contains(" pv "),
        "{out}"
    );
    let best = lines[2].strip_prefix("bestmove ").unwrap();
    assert!(lines[1].contains(&format!(" pv {best}")), "{out}");
    let canonical = boyi_protocol::codec::shift_ranks(best, -1).unwrap();
    assert!(start().parse_move(&canonical).is_ok(), "{out}");
}
