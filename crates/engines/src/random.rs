//! The random player: a uniformly random legal move, reproducible from its seed.

use crate::player::{GameHistory, Info, Limits, Player, PlayerError, StopFlag};
use boyi_core::Game;
use boyi_core::rng::SplitMix64;

pub struct RandomPlayer {
    rng: SplitMix64,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> Self {
        RandomPlayer {
            rng: SplitMix64::new(seed),
        }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn name(&self) -> String {
        "boyi:random".into()
    }

    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        _: &StopFlag,
        _: &mut dyn FnMut(Info),
    ) -> Result<G::Move, PlayerError> {
        let moves = limits.root_moves(game.current());
        if moves.is_empty() {
            return Err(PlayerError::GameOver);
        }
        Ok(moves[self.rng.below(moves.len())].clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::TicTacToe;
    use boyi_core::NoVariant;

    #[test]
    fn same_seed_same_moves() {
        let game = GameHistory::new(TicTacToe::start(&NoVariant, None).unwrap());
        let picks = |seed| {
            let mut p = RandomPlayer::new(seed);
            (0..20)
                .map(|_| {
                    Player::<TicTacToe>::choose(
                        &mut p,
                        &game,
                        &Limits::default(),
                        &StopFlag::new(),
                        &mut |_| {},
                    )
                    .unwrap()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(7), picks(7));
        assert_ne!(picks(7), picks(8));
    }
}
