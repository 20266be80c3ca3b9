//! Lines that must be acted on at once during a search (`stop`, `isready`, `quit`, `YXSTOP`,
//! `END`), whatever waits before them, and the end of the input acting as `quit`: every
//! protocol answers a search whose own limit is ten minutes away, while the input is still
//! open, and a finite search stops at the end of the input with its move written.
//!
//! The player is [`UntilStopped`]: only a stop ends its search, so an answer proves the
//! server stopped it; no test measures how soon.

mod support;

use boyi_core::{Game, NoVariant};
use boyi_engines::Limits;
use boyi_engines::testing::UntilStopped;
use boyi_engines::tictactoe::TicTacToe;
use boyi_games::xiangqi::Xiangqi;
use boyi_protocol::Protocol;
use support::{check, guarded, held_transcript, transcript};

fn xiangqi() -> Xiangqi {
    Xiangqi::start(&Default::default(), None).unwrap()
}

fn tictactoe() -> TicTacToe {
    TicTacToe::start(&NoVariant, None).unwrap()
}

fn lines_starting(out: &str, prefix: &str) -> usize {
    out.lines().filter(|l| l.starts_with(prefix)).count()
}

#[test]
fn stop_and_isready_overtake_waiting_lines_in_uci_dialects() {
    let cases = [
        (
            Protocol::Uci,
            "uci\nposition startpos\ngo movetime 600000\nposition startpos moves h2e2\nucinewgame\nstop\nisready\n",
        ),
        (
            Protocol::UciFsf,
            "uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo wtime 600000 btime 600000\nposition startpos moves h3e3\nstop\nisready\n",
        ),
        (
            Protocol::Ucci,
            "ucci\nposition startpos\ngo depth 1000\nposition startpos moves h2e2\nbanmoves h0g2\nstop\nisready\n",
        ),
    ];
    for (protocol, input) in cases {
        let held = held_transcript(
            protocol,
            Box::new(UntilStopped),
            xiangqi(),
            Limits::default(),
            input.as_bytes(),
            |out| out.contains("readyok") && out.contains("bestmove"),
        );
        assert!(held.answered, "{protocol}: {}", held.out);
        assert_eq!(lines_starting(&held.out, "bestmove"), 1, "{}", held.out);
    }
}

#[test]
fn quit_overtakes_waiting_lines_and_answers_the_running_search() {
    // `ucinewgame` waits for the search; `quit` does not wait for it, and the stopped
    // search's move is still written before the server leaves.
    let held = held_transcript(
        Protocol::Uci,
        Box::new(UntilStopped),
        xiangqi(),
        Limits::default(),
        b"position startpos\ngo infinite\nucinewgame\nquit\n",
        |_| false,
    );
    assert!(
        !held.input_ended,
        "the server waited for the end of the input"
    );
    assert_eq!(lines_starting(&held.out, "bestmove"), 1, "{}", held.out);
    // UCCI says `bye` last.
    let held = held_transcript(
        Protocol::Ucci,
        Box::new(UntilStopped),
        xiangqi(),
        Limits::default(),
        b"ucci\nposition startpos\ngo depth 1000\nposition startpos moves h2e2\nquit\n",
        |_| false,
    );
    assert!(!held.input_ended);
    let lines: Vec<&str> = held.out.lines().collect();
    assert_eq!(lines.last(), Some(&"bye"), "{}", held.out);
    assert!(
        lines[lines.len() - 2].starts_with("bestmove "),
        "{}",
        held.out
    );
}

#[test]
fn gomocup_yxstop_and_end_during_a_search() {
    let about = "name=\"Boyi\", version=\"test\", author=\"the Boyi developers\", country=\"CN\"";
    // YXSTOP overtakes the INFO and ABOUT that wait; those are handled after the move.
    let held = held_transcript(
        Protocol::Gomocup,
        Box::new(UntilStopped),
        tictactoe(),
        Limits::default(),
        b"START 3\nINFO time_left 100000\nBEGIN\nINFO time_left 90000\nABOUT\nYXSTOP\n",
        |out| out.contains("name="),
    );
    assert!(held.answered, "{}", held.out);
    check(&held.out, &format!("OK\n0,2\n{about}\n"));
    // END ends the session without waiting for the input's end.
    let held = held_transcript(
        Protocol::Gomocup,
        Box::new(UntilStopped),
        tictactoe(),
        Limits::default(),
        b"START 3\nINFO timeout_turn 600000\nBEGIN\nEND\n",
        |_| false,
    );
    assert!(!held.input_ended);
    check(&held.out, "OK\n0,2\n");
}

#[test]
fn sau_quit_during_a_search() {
    let held = held_transcript(
        Protocol::Sau,
        Box::new(UntilStopped),
        tictactoe(),
        Limits::default(),
        b"new black\nname?\nquit\n",
        |_| false,
    );
    assert!(!held.input_ended);
    // The move of the stopped search, then the line that waited for it.
    check(&held.out, "move AC\nname Boyi test\n");
}

#[test]
fn the_end_of_the_input_stops_a_finite_search_in_every_protocol() {
    let xiangqi_cases = [
        (Protocol::Uci, "position startpos\ngo movetime 600000\n"),
        (Protocol::UciFsf, "position startpos\ngo movetime 600000\n"),
        (Protocol::Ucci, "position startpos\ngo depth 1000\n"),
    ];
    for (protocol, input) in xiangqi_cases {
        let out = guarded(move || {
            transcript(protocol, UntilStopped, xiangqi(), Limits::default(), input)
        });
        assert_eq!(lines_starting(&out, "bestmove "), 1, "{protocol}: {out}");
    }
    // Gomocup's turn time and SAU's default limit (from the command line) are ten minutes.
    let ten_minutes = Limits {
        movetime: Some(std::time::Duration::from_secs(600)),
        ..Limits::default()
    };
    let gomocup = guarded(move || {
        let input = "START 3\nINFO timeout_turn 600000\nBEGIN\n";
        transcript(
            Protocol::Gomocup,
            UntilStopped,
            tictactoe(),
            Limits::default(),
            input,
        )
    });
    check(&gomocup, "OK\n0,2\n");
    let sau = guarded(move || {
        transcript(
            Protocol::Sau,
            UntilStopped,
            tictactoe(),
            ten_minutes,
            "new black\n",
        )
    });
    check(&sau, "move AC\n");
}

#[test]
fn a_search_given_no_limit_is_stopped_at_the_cap() {
    // The command line's cap (`max_time` of the default limits) stops a search the protocol
    // does not bound (SAU has no time in it), while the input is still open.
    let capped = Limits {
        max_time: Some(std::time::Duration::from_millis(10)),
        ..Limits::default()
    };
    let held = held_transcript(
        Protocol::Sau,
        Box::new(UntilStopped),
        tictactoe(),
        capped.clone(),
        b"new black\n",
        |out| out.contains("move "),
    );
    assert!(held.answered, "{}", held.out);
    check(&held.out, "move AC\n");
    // A bare UCI `go` takes the default limits too.
    let held = held_transcript(
        Protocol::Uci,
        Box::new(UntilStopped),
        tictactoe(),
        capped,
        b"position startpos\ngo\n",
        |out| out.contains("bestmove"),
    );
    assert!(held.answered, "{}", held.out);
}

#[test]
fn a_move_held_for_stop_is_still_written() {
    // An infinite search that ends on its own holds its move for `stop`; a new `go` without
    // that `stop`, or the end of the session, writes it rather than losing it.
    use boyi_engines::testing::FirstMove;
    let again = "position startpos\ngo infinite\nposition startpos moves a1\ngo depth 1\n";
    check(
        &transcript(
            Protocol::Uci,
            FirstMove,
            tictactoe(),
            Limits::default(),
            again,
        ),
        "bestmove a1\nbestmove a2\n",
    );
    let held = held_transcript(
        Protocol::Uci,
        Box::new(FirstMove),
        tictactoe(),
        Limits::default(),
        b"position startpos\ngo infinite\nisready\nquit\n",
        |_| false,
    );
    check(&held.out, "readyok\nbestmove a1\n");
}
