//! Automatic recording into the game database: `boyi match` games as they finish, and the
//! games of an engine-protocol session move by move (`boyi engine --record`). Both use the
//! store's live-game API (begin, append each move with the hash it leads to, finish).

use boyi_core::Game;
use boyi_engines::{GameHistory, InfoSink, Limits, Player, PlayerError, StopFlag, Swap2Reply};
use boyi_records::{Date, GameRecord, GameResult, RecordedMove, check, header_for};
use boyi_store::{GameId, Store};
use std::time::Instant;

/// The header of a game played from `start`: game, rules, start, today's date.
pub fn header<G: Game>(start: &G) -> GameRecord {
    let mut rec = header_for(start).expect("a game registered in boyi-games");
    rec.date = Some(Date::today());
    rec
}

/// Stores one finished match game (its record replayed, so every position is indexed).
pub fn store_match_game(store: &mut Store, record: &GameRecord) -> anyhow::Result<GameId> {
    let checked = check(record)?;
    Ok(store.insert(&checked, "match")?)
}

/// The game being recorded by a [`RecordingPlayer`].
struct Live {
    id: GameId,
    start: String,
    /// Moves stored so far, as canonical text.
    moves: Vec<String>,
}

/// A player whose games are stored as they are played: the moves it is told and the moves
/// it plays, each with the hash of the position it leads to. A game begins in the store at
/// the player's first turn (its side is known then); when a move of the player ends the
/// game the result is stored too, otherwise (the opponent's winning move is never sent to
/// an engine) the game stays unfinished. A database error is reported once on standard
/// error and recording stops; the engine plays on.
pub struct RecordingPlayer<G: Game> {
    inner: Box<dyn Player<G>>,
    /// The player's spec, kept in the record beside its name.
    spec: String,
    store: Option<Store>,
    live: Option<Live>,
}

impl<G: Game> RecordingPlayer<G> {
    pub fn new(inner: Box<dyn Player<G>>, spec: &str, store: Store) -> RecordingPlayer<G> {
        RecordingPlayer {
            inner,
            spec: spec.to_string(),
            store: Some(store),
            live: None,
        }
    }

    /// Brings the stored game up to `game` (a new game when it is not a continuation).
    fn sync(&mut self, game: &GameHistory<G>) -> Result<(), boyi_store::StoreError> {
        let Some(store) = self.store.as_mut() else {
            return Ok(());
        };
        let start = game.start().to_text();
        let texts = game.move_texts();
        let continues = self
            .live
            .as_ref()
            .is_some_and(|l| l.start == start && texts.starts_with(&l.moves));
        if !continues {
            let mut head = header(game.start());
            let side = game.current().side_to_move();
            *head.player_mut(side) = boyi_records::Player {
                name: self.inner.name(),
                spec: Some(self.spec.clone()),
            };
            head.event = "boyi engine".into();
            let id = store.begin_game(&head, game.start().hash(), "engine")?;
            self.live = Some(Live {
                id,
                start,
                moves: Vec::new(),
            });
        }
        let live = self.live.as_mut().expect("a live game");
        let mut pos = game.start().clone();
        for (i, mv) in game.moves().iter().enumerate() {
            pos.play(mv);
            if i >= live.moves.len() {
                let m = RecordedMove::new(texts[i].clone());
                store.append_move(live.id, &m, pos.hash())?;
                live.moves.push(texts[i].clone());
            }
        }
        Ok(())
    }

    /// Stores the player's own move and, if it ended the game, the result.
    fn played(
        &mut self,
        game: &GameHistory<G>,
        mv: &G::Move,
        ms: u64,
    ) -> Result<(), boyi_store::StoreError> {
        let (Some(store), Some(live)) = (self.store.as_mut(), self.live.as_mut()) else {
            return Ok(());
        };
        let mut pos = game.current().clone();
        let text = pos.format_move(mv);
        pos.play(mv);
        let m = RecordedMove {
            time_ms: Some(ms),
            ..RecordedMove::new(text.clone())
        };
        store.append_move(live.id, &m, pos.hash())?;
        live.moves.push(text);
        if let Some(outcome) = pos.outcome() {
            store.finish_game(live.id, &GameResult::from(outcome))?;
            self.live = None;
        }
        Ok(())
    }

    fn give_up(&mut self, e: boyi_store::StoreError) {
        eprintln!("recording stopped: {e}");
        self.store = None;
        self.live = None;
    }
}

impl<G: Game> Player<G> for RecordingPlayer<G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn new_game(&mut self) {
        self.live = None;
        self.inner.new_game();
    }

    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        stop: &StopFlag,
        info: InfoSink<'_>,
    ) -> Result<G::Move, PlayerError> {
        if let Err(e) = self.sync(game) {
            self.give_up(e);
        }
        let started = Instant::now();
        let mv = self.inner.choose(game, limits, stop, info)?;
        let ms = started.elapsed().as_millis() as u64;
        if let Err(e) = self.played(game, &mv, ms) {
            self.give_up(e);
        }
        Ok(mv)
    }

    // A swap decision's stones reach the store as the moves of the game at the next turn.
    fn swap1(&mut self, game: &GameHistory<G>, limits: &Limits) -> Result<Swap2Reply, PlayerError> {
        self.inner.swap1(game, limits)
    }

    fn swap2(&mut self, game: &GameHistory<G>, limits: &Limits) -> Result<Swap2Reply, PlayerError> {
        self.inner.swap2(game, limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_engines::testing::Swapper;
    use boyi_games::gomoku::Gomoku;

    #[test]
    fn swap_decisions_pass_through_and_the_game_is_recorded() {
        let store = Store::open_in_memory().unwrap();
        let mut p: RecordingPlayer<Gomoku> =
            RecordingPlayer::new(Box::new(Swapper), "swapper", store);
        let mut game = GameHistory::new(Gomoku::start(&Default::default(), None).unwrap());
        Swapper::check_wrapped(&mut p, &mut game);
        // The opponent plays on as white; the wrapped player's next move is stored with the
        // opening stones before it.
        game.push_text("j10").unwrap();
        let mv = p
            .choose(&game, &Limits::default(), &StopFlag::new(), &mut |_| {})
            .unwrap();
        let live = p.live.as_ref().expect("a game being recorded");
        assert_eq!(live.moves.len(), 5);
        assert_eq!(live.moves[..3], Swapper::STONES.map(String::from));
        assert_eq!(live.moves[4], game.current().format_move(&mv));
    }
}
