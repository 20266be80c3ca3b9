//! Protocol conformance on tic-tac-toe: every protocol's commands, errors, takebacks,
//! restarts, and stop/quit during a search, with exact expected answers. Tic-tac-toe
//! moves are points (`a1`), so they travel over every protocol's point coordinates.
//!
//! Transcripts stay independent of timing: a line the server handles during a search
//! (`stop`, `quit`, `end`) follows a search-starting line only when the player is
//! [`UntilStopped`], which is certainly still searching then. A search running at `quit`
//! (or `END`) is stopped and its move written before the server leaves.

mod support;

use boyi_core::{Game, NoVariant};
use boyi_engines::Limits;
use boyi_engines::testing::{FirstMove, UntilStopped};
use boyi_engines::tictactoe::TicTacToe;
use boyi_protocol::Protocol;
use support::{check, transcript};

fn start() -> TicTacToe {
    TicTacToe::start(&NoVariant, None).unwrap()
}

#[test]
fn gomocup_commands_and_errors() {
    let input = "
        ABOUT
        BEGIN
        START 4
        START 3
        BEGIN
        TURN 1,1
        TAKEBACK 2,2
        TAKEBACK 0,1
        TAKEBACK 1,1
        TURN 2,2
        TURN 9,9
        TURN x
        TURN 2,2
        INFO timeout_turn abc
        INFO timeout_turn 1000
        INFO max_memory 0
        FOO 1
        RESTART
        BOARD
        1,1,2
        DONE
        BOARD
        1,1,1
        DONE
        BOARD
        1,1,7
        DONE
        BEGIN
    ";
    check(
        &transcript(
            Protocol::Gomocup,
            FirstMove,
            start(),
            Limits::default(),
            input,
        ),
        r#"
        name="Boyi", version="test", author="the Boyi developers", country="CN"
        ERROR no game: send START first
        ERROR unsupported board size 4: tic-tac-toe is played on 3x3, not 4x4
        OK
        0,2
        0,1
        ERROR TAKEBACK 2,2: not the last move
        OK
        OK
        0,1
        ERROR TURN 9,9: coordinates 9,9 are off the 3x3 board
        ERROR TURN x: "x" is not x,y
        ERROR TURN 2,2: c1 is occupied
        ERROR INFO timeout_turn abc: invalid digit found in string
        UNKNOWN FOO 1
        OK
        0,2
        0,2
        ERROR BOARD: "1,1,7": field must be 1 or 2
        ERROR BEGIN: the board is not empty
        "#,
    );
}

#[test]
fn gomocup_stop_and_end_during_search() {
    let stop = "START 3\nBEGIN\nYXSTOP\nTURN 1,1\nYXSTOP\n";
    check(
        &transcript(
            Protocol::Gomocup,
            UntilStopped,
            start(),
            Limits::default(),
            stop,
        ),
        "OK\n0,2\n0,1\n",
    );
    let end = "START 3\nBEGIN\nEND\nABOUT\n";
    check(
        &transcript(
            Protocol::Gomocup,
            UntilStopped,
            start(),
            Limits::default(),
            end,
        ),
        "OK\n0,2\n",
    );
}

#[test]
fn sau_commands_and_errors() {
    let input = "
        name?
        move BB
        new black
        move BB
        move BB
        move AC
        move
        move B
        bogus
        error
        end
        new white
        move BB
        error
        end black
        quit
        name?
    ";
    check(
        &transcript(Protocol::Sau, FirstMove, start(), Limits::default(), input),
        "
        name Boyi test
        error
        move AC
        move AB
        error
        error
        error
        error
        error
        move AC
        ",
    );
}

#[test]
fn sau_end_and_quit_during_search() {
    let input = "new black\nend\nnew white\nmove BB\nquit\nname?\n";
    check(
        &transcript(
            Protocol::Sau,
            UntilStopped,
            start(),
            Limits::default(),
            input,
        ),
        "move AC\n",
    );
}

#[test]
fn uci_commands_and_errors() {
    let input = "
        uci
        isready
        go depth 1
        position startpos moves a1 b2
        go depth 1
        position startpos moves a1 a1
        go depth 1
        position fen 3/1x1/3 w
        go wtime x
        go depth 1 frobnicate
        go depth 1 wtime 100 btime 100 winc 0 binc 0 movestogo 3 nodes 10 movetime 5
        setoption name Hash value 16
        setoption Hash
        position fen 3/3/3 q
        position sideways
        position startpos moves a1 a2 b1 b2 c1
        go depth 2
        ucinewgame
        hello
        quit
        isready
    ";
    check(
        &transcript(Protocol::Uci, FirstMove, start(), Limits::default(), input),
        r#"
        id name Boyi test
        id author the Boyi developers
        uciok
        readyok
        info string error: go without a position
        bestmove a2
        info string error: move 2 (a1): a1 is occupied
        info string error: go without a position
        info string error: go: wtime "x" is not a number
        info string error: go: unknown parameter "frobnicate"
        bestmove a1
        info string error: no such option "Hash"
        info string error: setoption "Hash": expected name <id> [value <x>]
        info string error: bad side "q"
        info string error: position "sideways": expected startpos or fen <position>
        bestmove (none)
        info string error: unknown command "hello"
        "#,
    );
}

#[test]
fn uci_stop_ponderhit_and_quit_during_search() {
    let stop = "position startpos\ngo infinite\nisready\nstop\nposition startpos moves a1\ngo ponder\nponderhit\ngo depth 3\nquit\n";
    check(
        &transcript(
            Protocol::Uci,
            UntilStopped,
            start(),
            Limits::default(),
            stop,
        ),
        "readyok\nbestmove a1\nbestmove a2\nbestmove a2\n",
    );
    // An infinite search that finishes early holds its move until `stop`.
    let held = "position startpos moves a1,b2\nposition startpos moves a1 b2\ngo infinite\nisready\nstop\n";
    check(
        &transcript(Protocol::Uci, FirstMove, start(), Limits::default(), held),
        "info string error: move 1 (a1,b2): point \"a1,b2\" must be a column letter and a row number\nreadyok\nbestmove a2\n",
    );
}

#[test]
fn ucci_commands_and_errors() {
    let input = "
        uci
        ucci
        setoption usebook false
        setoption
        position startpos moves a1
        banmoves a2 a3
        go depth 1
        go depth 1
        go time 1000 increment 0 opptime 1000 oppincrement 0
        go draw depth 1
        go time
        position startpos moves a1 a2 b1 b2 c1
        go depth 1
        quit
        isready
    ";
    check(
        &transcript(Protocol::Ucci, FirstMove, start(), Limits::default(), input),
        r#"
        info string error: unknown command "uci"
        id name Boyi test
        id author the Boyi developers
        ucciok
        info string error: setoption without a name
        bestmove b1
        bestmove a2
        bestmove a2
        bestmove a2
        info string error: go: time needs a value
        nobestmove
        bye
        "#,
    );
}

#[test]
fn ucci_quit_during_search_answers_then_says_bye() {
    let input = "ucci\nposition startpos\ngo depth 5\nquit\nisready\n";
    check(
        &transcript(
            Protocol::Ucci,
            UntilStopped,
            start(),
            Limits::default(),
            input,
        ),
        "id name Boyi test\nid author the Boyi developers\nucciok\nbestmove a1\nbye\n",
    );
}

#[test]
fn go_numbers_out_of_range_are_held_and_the_search_answered() {
    // A manager sends a clock that ran out as a negative time; a number too long for its
    // field means "no bound". Each `go` is answered with a move.
    let input = "
        uci
        position startpos
        go wtime -120 btime 1000 winc -5 binc 0
        go depth 99999999999999999999999 nodes 99999999999999999999999 movetime 5
        go movestogo -3 wtime 100 btime 100
        go depth 1-
    ";
    check(
        &transcript(Protocol::Uci, FirstMove, start(), Limits::default(), input),
        r#"
        id name Boyi test
        id author the Boyi developers
        uciok
        bestmove a1
        bestmove a1
        bestmove a1
        info string error: go: depth "1-" is not a number
        "#,
    );
    let input = "ucci\nposition startpos\ngo time -40 increment 0 opptime -1\n";
    check(
        &transcript(Protocol::Ucci, FirstMove, start(), Limits::default(), input),
        "id name Boyi test\nid author the Boyi developers\nucciok\nbestmove a1\n",
    );
}
