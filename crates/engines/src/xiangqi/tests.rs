//! Tests of the Xiangqi players through the Player interface.

use super::*;
use crate::registry::build;
use boyi_core::NoVariant;

fn history(fen: &str) -> GameHistory<Xiangqi> {
    GameHistory::new(Xiangqi::from_text(&NoVariant, fen).unwrap())
}

fn best(spec: &str, fen: &str, limits: Limits) -> (String, Option<Score>) {
    let mut player = build::<Xiangqi>(spec, BuildContext::default()).unwrap();
    let game = history(fen);
    let mut score = None;
    let mv = player
        .choose(&game, &limits, &StopFlag::new(), &mut |i: Info| {
            if i.score.is_some() {
                score = i.score;
            }
        })
        .unwrap();
    (game.current().format_move(&mv), score)
}

#[test]
fn strong_takes_a_hanging_chariot() {
    let fen = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1PrP/1C5C1/9/RNBAKABNR w - - 0 1";
    let (mv, _) = best("strong", fen, Limits::depth(4));
    assert_eq!(mv, "i0i3");
}
