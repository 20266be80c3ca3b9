//! Xiangqi perft: the start position, public suite positions, and positions whose counts
//! come from Fairy-Stockfish (tests/data/xiangqi_perft.txt).

use boyi_core::{Game, NoVariant, perft::perft_generic};
use boyi_games::xiangqi::Xiangqi;

fn pos(fen: &str) -> Xiangqi {
    Xiangqi::from_text(&NoVariant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn start() -> Xiangqi {
    Xiangqi::start(&NoVariant, None).unwrap()
}

#[test]
fn start_position_depth_1_to_4() {
    let mut p = start();
    for (depth, n) in [(1, 44), (2, 1_920), (3, 79_666), (4, 3_290_240)] {
        assert_eq!(p.perft(depth), n, "depth {depth}");
    }
}

#[test]
#[ignore = "slow tier"]
fn start_position_depth_5() {
    assert_eq!(start().perft(5), 133_312_995);
}

const PUBLIC: [(&str, u64); 4] = [
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        1_339_047,
    ),
    (
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        2_605_437,
    ),
    (
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        4_485_547,
    ),
    ("4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", 92_741),
];

#[test]
fn public_positions_depth_4() {
    for (fen, n) in PUBLIC {
        assert_eq!(pos(fen).perft(4), n, "{fen}");
    }
}

#[test]
fn fairy_stockfish_positions() {
    let data = include_str!("data/xiangqi_perft.txt");
    let mut seen = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split(';').collect();
        let (fen, depth, n) = (f[0], f[1].parse().unwrap(), f[2].parse::<u64>().unwrap());
        assert_eq!(pos(fen).perft(depth), n, "{fen} depth {depth}");
        seen += 1;
    }
    assert!(seen >= 20);
}

/// The bulk-counting perft and the plain count over the Game API agree.
#[test]
fn fast_perft_equals_generic() {
    for (fen, _) in PUBLIC {
        let mut p = pos(fen);
        assert_eq!(p.perft(3), perft_generic(&mut p, 3), "{fen}");
    }
    let mut p = start();
    assert_eq!(perft_generic(&mut p, 3), 79_666);
}

/// Mated and stalemated sides have no moves: perft 1 is 0 and the side to move loses.
#[test]
fn mate_and_stalemate() {
    for (fen, reason) in [
        (
            "3k5/4R4/9/9/9/9/9/9/9/3RK4 b - - 0 1",
            boyi_core::Reason::Checkmate,
        ),
        (
            "3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1",
            boyi_core::Reason::Stalemate,
        ),
    ] {
        let mut p = pos(fen);
        assert_eq!(p.perft(1), 0);
        let o = p.outcome().unwrap();
        assert_eq!((o.winner, o.reason), (Some(boyi_core::Side::White), reason));
    }
}
