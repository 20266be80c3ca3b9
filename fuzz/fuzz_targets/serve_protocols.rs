//! The served protocol loops on arbitrary input: the first byte picks the protocol (Gomocup,
//! SAU, UCI, UCCI on tic-tac-toe; uci-fsf on Xiangqi), the rest is the controller's bytes.
//! The loop must return at the end of the input without panicking, whatever it read.

#![no_main]

use boyi_core::{Game, NoVariant};
use boyi_engines::testing::FirstMove;
use boyi_engines::tictactoe::TicTacToe;
use boyi_engines::Limits;
use boyi_games::xiangqi::Xiangqi;
use boyi_protocol::{Protocol, ServeOptions, serve};
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

fn run<G: Game>(protocol: Protocol, start: G, input: &[u8]) {
    let opts = ServeOptions {
        start,
        default_limits: Limits::default(),
        name: "Boyi".into(),
        version: "fuzz".into(),
    };
    let input = Cursor::new(input.to_vec());
    serve(protocol, Box::new(FirstMove), opts, input, std::io::sink())
        .expect("the protocol carries the game");
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    let tictactoe = || TicTacToe::start(&NoVariant, None).unwrap();
    match pick % 5 {
        0 => run(Protocol::Gomocup, tictactoe(), input),
        1 => run(Protocol::Sau, tictactoe(), input),
        2 => run(Protocol::Uci, tictactoe(), input),
        3 => run(Protocol::Ucci, tictactoe(), input),
        _ => run(
            Protocol::UciFsf,
            Xiangqi::start(&Default::default(), None).unwrap(),
            input,
        ),
    }
});
