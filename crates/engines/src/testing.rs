//! Deterministic players for tests of protocols and the arena: their answers do not depend on
//! timing, so transcripts can be compared line by line.

use crate::player::{
    GameHistory, Info, InfoSink, Limits, Player, PlayerError, StopFlag, Swap2Reply,
};
use crate::search::{Search, TimeManager};
use boyi_core::Game;
use std::time::Duration;

/// Plays the first legal move (in generation order) at once, with no thinking output.
#[derive(Debug, Default, Clone)]
pub struct FirstMove;

impl<G: Game> Player<G> for FirstMove {
    fn name(&self) -> String {
        "first-move".into()
    }

    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        _: &StopFlag,
        _: &mut dyn FnMut(Info),
    ) -> Result<G::Move, PlayerError> {
        limits
            .root_moves(game.current())
            .into_iter()
            .next()
            .ok_or(PlayerError::GameOver)
    }
}

/// Thinks until stopped, whatever the limits, then plays the first legal move: a search that
/// is certainly still running when `stop` or `quit` arrives.
#[derive(Debug, Default, Clone)]
pub struct UntilStopped;

impl<G: Game> Player<G> for UntilStopped {
    fn name(&self) -> String {
        "until-stopped".into()
    }

    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        stop: &StopFlag,
        _: &mut dyn FnMut(Info),
    ) -> Result<G::Move, PlayerError> {
        while !stop.is_stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        limits
            .root_moves(game.current())
            .into_iter()
            .next()
            .ok_or(PlayerError::GameOver)
    }
}

/// Plays the first legal move and answers every swap decision with fixed stones on the
/// empty board and a swap after that: a player whose swap answers a wrapper must pass on.
#[derive(Debug, Default, Clone)]
pub struct Swapper;

impl Swapper {
    /// Its opening stones on the empty board (swap1 and swap2 alike).
    pub const STONES: [&'static str; 3] = ["h8", "h9", "i9"];

    /// Checks that `player`, a wrapper around a [`Swapper`], gives its swap1 and swap2 answers
    /// on the empty board of `game` and a swap after its three stones, which stay in `game`.
    pub fn check_wrapped<G: Game>(player: &mut dyn Player<G>, game: &mut GameHistory<G>) {
        let stones = Swap2Reply::Stones(Self::STONES.map(String::from).to_vec());
        assert_eq!(player.swap1(game, &Limits::default()).unwrap(), stones);
        assert_eq!(player.swap2(game, &Limits::default()).unwrap(), stones);
        for s in Self::STONES {
            game.push_text(s).unwrap();
        }
        assert_eq!(
            player.swap2(game, &Limits::default()).unwrap(),
            Swap2Reply::Swap
        );
    }

    fn reply<G: Game>(game: &GameHistory<G>) -> Swap2Reply {
        if game.moves().is_empty() {
            Swap2Reply::Stones(Self::STONES.iter().map(|s| s.to_string()).collect())
        } else {
            Swap2Reply::Swap
        }
    }
}

impl<G: Game> Player<G> for Swapper {
    fn name(&self) -> String {
        "swapper".into()
    }

    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        stop: &StopFlag,
        info: &mut dyn FnMut(Info),
    ) -> Result<G::Move, PlayerError> {
        FirstMove.choose(game, limits, stop, info)
    }

    fn swap1(&mut self, game: &GameHistory<G>, _: &Limits) -> Result<Swap2Reply, PlayerError> {
        Ok(Self::reply(game))
    }

    fn swap2(&mut self, game: &GameHistory<G>, _: &Limits) -> Result<Swap2Reply, PlayerError> {
        Ok(Self::reply(game))
    }
}

/// The same as a search, for the wrapper that makes searches players.
impl<G: Game> Search<G> for Swapper {
    fn name(&self) -> String {
        "swapper".into()
    }

    fn default_depth(&self) -> u32 {
        1
    }

    fn swap1(&mut self, game: &GameHistory<G>, _: &Limits) -> Result<Swap2Reply, PlayerError> {
        Ok(Self::reply(game))
    }

    fn swap2(&mut self, game: &GameHistory<G>, _: &Limits) -> Result<Swap2Reply, PlayerError> {
        Ok(Self::reply(game))
    }

    fn search(
        &mut self,
        _game: &GameHistory<G>,
        moves: &[G::Move],
        _time: &TimeManager,
        _info: InfoSink<'_>,
    ) -> Option<G::Move> {
        moves.first().cloned()
    }
}
