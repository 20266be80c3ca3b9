//! Opening books for every player: [`BookPlayer`] plays a move of a position book
//! (`boyi book build`) while the position is in it, and hands the turn to the player it wraps
//! once it is not. The book is probed on every move, so a game that transposes back into the
//! book plays book moves again.

use crate::player::{
    GameHistory, Info, InfoSink, Limits, Player, PlayerError, StopFlag, Swap2Reply,
};
use boyi_core::rng::SplitMix64;
use boyi_core::{Game, TextError, text_err};
use boyi_records::book::{Book, BookMove, MoveStats};
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

/// How a book move is picked among those of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BookChoice {
    /// At random, in proportion to games × smoothed score ([`weight`]).
    #[default]
    Weighted,
    /// The most played move (ties: the better score, then the move text).
    Best,
}

impl FromStr for BookChoice {
    type Err = TextError;

    fn from_str(s: &str) -> Result<BookChoice, TextError> {
        match s {
            "weighted" => Ok(BookChoice::Weighted),
            "best" => Ok(BookChoice::Best),
            _ => Err(text_err!("book choice {s:?} must be weighted or best")),
        }
    }
}

/// A loaded book and how to pick from it; cheap to clone (the book is shared).
#[derive(Debug, Clone)]
pub struct OpeningBook {
    pub book: Arc<Book>,
    pub choice: BookChoice,
}

/// The weight of a move in [`BookChoice::Weighted`]: its games times its score smoothed
/// towards one half, `(wins + draws/2 + 1) / (decided + 2)`, so a move never played to a
/// result counts by its games alone and a move that always lost still has a small chance.
pub fn weight(s: &MoveStats) -> f64 {
    let decided = (s.wins + s.draws + s.losses) as f64;
    let score = (s.wins as f64 + 0.5 * s.draws as f64 + 1.0) / (decided + 2.0);
    s.games as f64 * score
}

impl OpeningBook {
    /// Reads a book file (`boyi-book 1`).
    pub fn load(path: &Path, choice: BookChoice) -> Result<OpeningBook, TextError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| text_err!("book {}: {e}", path.display()))?;
        let book = Book::from_text(&text).map_err(|e| e.context(path.display()))?;
        Ok(OpeningBook {
            book: Arc::new(book),
            choice,
        })
    }

    /// Checks the book is one of game `G` and rule set `variant` (a book that names no rule
    /// set fits every one).
    pub fn check<G: Game>(&self, variant: &G::Variant) -> Result<(), TextError> {
        if self.book.game != G::NAME {
            return Err(text_err!(
                "the book is for {}, not {}",
                self.book.game,
                G::NAME
            ));
        }
        let v = variant.to_string();
        if !self.book.variant.is_empty() && self.book.variant != v {
            return Err(text_err!(
                "the book is for {} rules, not {v}",
                self.book.variant
            ));
        }
        Ok(())
    }

    /// The book move to play in `pos` (legal and not banned), if the position is in the book.
    pub fn pick<G: Game>(
        &self,
        pos: &G,
        banned: &[String],
        rng: &mut SplitMix64,
    ) -> Option<BookMove<G::Move>> {
        let mut moves = self.book.probe(pos).ok()?;
        moves.retain(|m| pos.is_legal(&m.mv) && !banned.contains(&m.text));
        if moves.is_empty() {
            return None;
        }
        let index = match self.choice {
            BookChoice::Best => 0,
            BookChoice::Weighted => {
                let total: f64 = moves.iter().map(|m| weight(&m.stats)).sum();
                let mut x = rng.unit() * total;
                moves
                    .iter()
                    .position(|m| {
                        x -= weight(&m.stats);
                        x < 0.0
                    })
                    .unwrap_or(moves.len() - 1)
            }
        };
        Some(moves.swap_remove(index))
    }
}

/// A player with an opening book: a book move while the position is in the book, the wrapped
/// player's move otherwise.
pub struct BookPlayer<G: Game> {
    inner: Box<dyn Player<G>>,
    book: OpeningBook,
    rng: SplitMix64,
}

impl<G: Game> BookPlayer<G> {
    /// Wraps `inner`; `seed` drives the weighted choice.
    pub fn new(inner: Box<dyn Player<G>>, book: OpeningBook, seed: u64) -> BookPlayer<G> {
        BookPlayer {
            inner,
            book,
            rng: SplitMix64::new(seed),
        }
    }
}

impl<G: Game> Player<G> for BookPlayer<G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn new_game(&mut self) {
        self.inner.new_game();
    }

    fn choose(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        stop: &StopFlag,
        info: InfoSink<'_>,
    ) -> Result<G::Move, PlayerError> {
        let pos = game.current();
        if pos.outcome().is_none()
            && let Some(m) = self.book.pick(pos, &limits.banned, &mut self.rng)
        {
            let s = &m.stats;
            info(Info {
                depth: Some(0),
                pv: vec![m.text.clone()],
                text: Some(format!(
                    "book move {}: {} games, +{} ={} -{}",
                    m.text, s.games, s.wins, s.draws, s.losses
                )),
                ..Info::default()
            });
            return Ok(m.mv);
        }
        self.inner.choose(game, limits, stop, info)
    }

    // The book holds moves, not swap decisions: those are the wrapped player's.
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
    use crate::random::RandomPlayer;
    use boyi_core::Side;
    use boyi_games::gomoku::Gomoku;

    /// A book of two first moves: h8 in 3 games (2 won), i9 in 1 (lost).
    fn book() -> OpeningBook {
        let start = Gomoku::start(&Default::default(), None).unwrap();
        let mut b = Book::new("gomoku", "");
        for (mv, won) in [("h8", true), ("h8", true), ("h8", false), ("i9", false)] {
            let winner = if won { Side::Black } else { Side::White };
            b.add(&start, mv, Side::Black, Some(Some(winner))).unwrap();
        }
        OpeningBook {
            book: Arc::new(b),
            choice: BookChoice::Best,
        }
    }

    fn play(player: &mut BookPlayer<Gomoku>, game: &GameHistory<Gomoku>) -> (String, Vec<Info>) {
        let mut infos = Vec::new();
        let mv = player
            .choose(game, &Limits::default(), &StopFlag::new(), &mut |i| {
                infos.push(i)
            })
            .unwrap();
        (game.current().format_move(&mv), infos)
    }

    #[test]
    fn plays_the_book_move_then_hands_over() {
        let mut game = GameHistory::new(Gomoku::start(&Default::default(), None).unwrap());
        let mut p = BookPlayer::new(Box::new(RandomPlayer::new(3)), book(), 1);
        let (mv, infos) = play(&mut p, &game);
        assert_eq!(mv, "h8");
        assert!(
            infos[0]
                .text
                .as_deref()
                .unwrap()
                .starts_with("book move h8: 3 games")
        );
        game.push_text("h8").unwrap();
        // Out of the book: the wrapped player's move, no book output.
        let (mv, infos) = play(&mut p, &game);
        assert_ne!(mv, "h8");
        assert!(infos.is_empty());
        // A banned book move is not played.
        let start = GameHistory::new(Gomoku::start(&Default::default(), None).unwrap());
        let limits = Limits {
            banned: vec!["h8".into()],
            ..Limits::default()
        };
        let mv = p
            .choose(&start, &limits, &StopFlag::new(), &mut |_| {})
            .unwrap();
        // The book folds the board's symmetries: i9 may come back as any of its images.
        let mv = start.current().format_move(&mv);
        assert!(["g7", "g9", "i7", "i9"].contains(&mv.as_str()), "{mv}");
    }

    #[test]
    fn swap_decisions_are_the_wrapped_players() {
        use crate::testing::Swapper;
        let mut game = GameHistory::new(Gomoku::start(&Default::default(), None).unwrap());
        let mut p = BookPlayer::new(Box::new(Swapper), book(), 1);
        Swapper::check_wrapped(&mut p, &mut game);
        // A player without swap openings stays without them behind a book.
        let mut plain = BookPlayer::new(Box::new(RandomPlayer::new(3)), book(), 1);
        let err = plain.swap2(&game, &Limits::default()).unwrap_err();
        assert!(matches!(err, PlayerError::Unsupported(_)), "{err:?}");
        // And the game goes on: a move off the book from the wrapped player.
        let (mv, _) = play(&mut p, &game);
        assert!(!Swapper::STONES.contains(&mv.as_str()));
    }

    #[test]
    fn weighted_choice_follows_games_and_scores() {
        // h8: 3 × (2 + 1) / (3 + 2) = 1.8; i9: 1 × 1 / 3 ≈ 0.33, so h8 about 84% of picks.
        let mut b = book();
        b.choice = BookChoice::Weighted;
        let pos = Gomoku::start(&Default::default(), None).unwrap();
        let mut rng = SplitMix64::new(9);
        let h8 = (0..1000)
            .filter(|_| b.pick(&pos, &[], &mut rng).unwrap().text == "h8")
            .count();
        assert!((780..=900).contains(&h8), "{h8}");
        assert!(b.check::<Gomoku>(&"renju".parse().unwrap()).is_ok());
        let mut named = (*b.book).clone();
        named.variant = "freestyle".into();
        b.book = Arc::new(named);
        let err = b.check::<Gomoku>(&"renju".parse().unwrap()).unwrap_err();
        assert!(err.to_string().contains("for freestyle rules"), "{err}");
        assert_eq!("best".parse::<BookChoice>().unwrap(), BookChoice::Best);
        assert!("first".parse::<BookChoice>().is_err());
    }
}
