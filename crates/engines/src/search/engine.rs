//! The engine wrapper: what every search-based player does around its search, done once.
//!
//! [`Engine`] turns a [`Search`] into a [`Player`]: it refuses a finished game, keeps banned
//! moves out of the root, plays a forced reply at once under time limits, sets up the
//! [`TimeManager`], and returns only a legal move — the search's choice if it is one of the
//! root moves, else the first root move. Swap-opening decisions go to the search too.

use super::time::{TimeManager, forced_at_once};
use crate::player::{GameHistory, InfoSink, Limits, Player, PlayerError, StopFlag, Swap2Reply};
use boyi_core::Game;

/// A game's search, as [`Engine`] drives it.
pub trait Search<G: Game>: Send {
    /// A short name for records and thinking output.
    fn name(&self) -> String;

    /// A new game starts (clear tables kept between moves).
    fn new_game(&mut self) {}

    /// The depth searched when the limits give no bound at all.
    fn default_depth(&self) -> u32;

    /// The nodes searched when the limits give no bound at all (`None`: the depth alone).
    fn default_nodes(&self) -> Option<u64> {
        None
    }

    /// The memory a search may take (Gomocup's `max_memory`), before each search: tables
    /// beyond it shrink.
    fn fit_memory(&mut self, memory: Option<u64>) {
        let _ = memory;
    }

    /// A swap1 opening decision ([`Player::swap1`]).
    fn swap1(&mut self, game: &GameHistory<G>, limits: &Limits) -> Result<Swap2Reply, PlayerError> {
        let _ = (game, limits);
        Err(PlayerError::no_swap(&self.name(), "swap1"))
    }

    /// A swap2 opening decision ([`Player::swap2`]).
    fn swap2(&mut self, game: &GameHistory<G>, limits: &Limits) -> Result<Swap2Reply, PlayerError> {
        let _ = (game, limits);
        Err(PlayerError::no_swap(&self.name(), "swap2"))
    }

    /// The best move in `game.current()` among `moves` (legal, not banned, never empty),
    /// within `time`; `None` if the search found nothing better than a guess.
    fn search(
        &mut self,
        game: &GameHistory<G>,
        moves: &[G::Move],
        time: &TimeManager,
        info: InfoSink<'_>,
    ) -> Option<G::Move>;
}

/// A [`Search`] as a [`Player`].
pub struct Engine<S>(pub S);

impl<G: Game, S: Search<G>> Player<G> for Engine<S> {
    fn name(&self) -> String {
        self.0.name()
    }

    fn new_game(&mut self) {
        self.0.new_game();
    }

    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        stop: &StopFlag,
        info: InfoSink<'_>,
    ) -> Result<G::Move, PlayerError> {
        let pos = game.current();
        if pos.outcome().is_some() {
            return Err(PlayerError::GameOver);
        }
        let moves = limits.root_moves(pos);
        let Some(first) = moves.first().cloned() else {
            return Err(if pos.legal_moves().is_empty() {
                PlayerError::GameOver
            } else {
                PlayerError::Unsupported("every legal move is banned".to_string())
            });
        };
        if forced_at_once(limits, moves.len()) {
            return Ok(first);
        }
        self.0.fit_memory(limits.memory);
        let time = TimeManager::new(limits, pos.side_to_move(), stop, self.0.default_depth())
            .with_default_nodes(self.0.default_nodes());
        let chosen = self.0.search(game, &moves, &time, info);
        Ok(chosen.filter(|m| moves.contains(m)).unwrap_or(first))
    }

    fn swap1(&mut self, game: &GameHistory<G>, limits: &Limits) -> Result<Swap2Reply, PlayerError> {
        self.0.swap1(game, limits)
    }

    fn swap2(&mut self, game: &GameHistory<G>, limits: &Limits) -> Result<Swap2Reply, PlayerError> {
        self.0.swap2(game, limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Info;
    use crate::tictactoe::TicTacToe;
    use boyi_core::NoVariant;

    /// A search that answers with a fixed move text, legal or not.
    struct Fixed(Option<String>);

    impl Search<TicTacToe> for Fixed {
        fn name(&self) -> String {
            "fixed".to_string()
        }
        fn default_depth(&self) -> u32 {
            1
        }
        fn search(
            &mut self,
            game: &GameHistory<TicTacToe>,
            _moves: &[<TicTacToe as Game>::Move],
            _time: &TimeManager,
            _info: InfoSink<'_>,
        ) -> Option<<TicTacToe as Game>::Move> {
            game.current().parse_move(self.0.as_deref()?).ok()
        }
    }

    fn choose(
        engine: &mut Engine<Fixed>,
        game: &GameHistory<TicTacToe>,
        limits: &Limits,
    ) -> Result<String, PlayerError> {
        let mv = engine.choose(game, limits, &StopFlag::new(), &mut |_: Info| {})?;
        Ok(game.current().format_move(&mv))
    }

    #[test]
    fn only_root_moves_are_returned() {
        let game = GameHistory::new(TicTacToe::start(&NoVariant, None).unwrap());
        let first = game.current().format_move(&game.current().legal_moves()[0]);
        let last = game
            .current()
            .format_move(game.current().legal_moves().last().unwrap());
        let limits = Limits::depth(1);
        assert_eq!(
            choose(&mut Engine(Fixed(Some(last.clone()))), &game, &limits),
            Ok(last.clone())
        );
        // Nothing found, or a banned move: the first root move instead.
        assert_eq!(
            choose(&mut Engine(Fixed(None)), &game, &limits),
            Ok(first.clone())
        );
        let banned = Limits {
            banned: vec![last.clone()],
            ..Limits::depth(1)
        };
        let answer = choose(&mut Engine(Fixed(Some(last.clone()))), &game, &banned).unwrap();
        assert_ne!(answer, last);
    }

    #[test]
    fn swap_decisions_and_moves_go_through_to_the_search() {
        use crate::testing::Swapper;
        use boyi_games::gomoku::{Gomoku, Variant};
        let mut game = GameHistory::new(Gomoku::start(&Variant::Freestyle, None).unwrap());
        let mut engine = Engine(Swapper);
        Swapper::check_wrapped(&mut engine, &mut game);
        let mv = engine
            .choose(
                &game,
                &Limits::depth(1),
                &StopFlag::new(),
                &mut |_: Info| {},
            )
            .unwrap();
        assert_eq!(mv, game.current().legal_moves()[0]);
    }

    #[test]
    fn a_finished_game_is_refused() {
        let mut game = GameHistory::new(TicTacToe::start(&NoVariant, None).unwrap());
        for text in ["a1", "b1", "a2", "b2", "a3"] {
            game.push_text(text).unwrap();
        }
        assert!(game.current().outcome().is_some());
        let mut engine = Engine(Fixed(Some("c3".to_string())));
        assert_eq!(
            choose(&mut engine, &game, &Limits::depth(1)),
            Err(PlayerError::GameOver)
        );
    }
}
