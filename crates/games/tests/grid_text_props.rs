//! Property tests for Gomoku and Connect6 text: arbitrary input never panics, and every
//! position reached by random moves round-trips through its text.

use boyi_core::Game;
use boyi_games::connect6::{self, Connect6};
use boyi_games::gomoku::{self, Gomoku};
use proptest::prelude::*;

proptest! {
    #[test]
    fn gomoku_parsers_never_panic(s in "\\PC{0,40}", m in "\\PC{0,8}") {
        for v in [gomoku::Variant::Freestyle, gomoku::Variant::Renju] {
            let _ = Gomoku::from_text(&v, &s);
            let g = Gomoku::start(&v, None).unwrap();
            let _ = g.parse_move(&m);
            let _ = g.clone().play_list(&s);
        }
        let _ = s.parse::<gomoku::Variant>();
    }

    #[test]
    fn gomoku_like_positions_never_panic(rows in "[xo1-9/]{0,60}", side in "[bwx ]{0,3}", passes in "[0-2]?") {
        let _ = Gomoku::from_text(&gomoku::Variant::Renju, &format!("{rows} {side} {passes}"));
    }

    #[test]
    fn connect6_parsers_never_panic(s in "\\PC{0,40}", m in "[a-z0-9 ]{0,12}") {
        let _ = Connect6::from_text(&connect6::Variant::Fives, &s);
        let g = Connect6::start(&connect6::Variant::Fives, None).unwrap();
        let _ = g.parse_move(&m);
        let mut h = g.clone();
        h.play(&h.parse_move("j10").unwrap());
        let _ = h.parse_move(&m);
    }

    #[test]
    fn gomoku_text_round_trips(size in 5usize..=26, picks in proptest::collection::vec(0usize..1000, 0..60)) {
        let mut g = Gomoku::start(&gomoku::Variant::Freestyle, Some(size)).unwrap();
        for k in picks {
            let moves = g.legal_moves();
            if moves.is_empty() { break; }
            let mv = moves[k % moves.len()];
            let text = g.format_move(&mv);
            prop_assert_eq!(g.parse_move(&text).unwrap(), mv);
            g.play(&mv);
            let back = Gomoku::from_text(g.variant(), &g.to_text()).unwrap();
            prop_assert_eq!(back.to_text(), g.to_text());
            prop_assert_eq!(back.hash(), g.hash());
        }
    }
}
