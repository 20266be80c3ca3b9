//! A player on its own thread, so that the caller (a protocol front-end reading its input, a
//! server seat) is never blocked by a search and can stop it at any time.

use crate::player::{GameHistory, Info, Limits, Player, PlayerError, StopFlag};
use boyi_core::Game;
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

/// What the search thread reports.
#[derive(Debug, Clone)]
pub enum SearchEvent<G: Game> {
    Info(Info),
    Done(Result<G::Move, PlayerError>),
}

struct Job<G: Game> {
    game: GameHistory<G>,
    limits: Limits,
    new_game: bool,
    /// This search's own flag: stopping (or abandoning) one search never reaches a later
    /// one, and starting a later one never clears an earlier one's stop.
    stop: StopFlag,
}

/// A player running on a worker thread. Jobs are searched one after another; each search
/// reports its thinking and then exactly one `Done` through the sink given at spawn.
pub struct PlayerThread<G: Game> {
    jobs: Option<Sender<Job<G>>>,
    stop: StopFlag,
    worker: Option<JoinHandle<()>>,
}

impl<G: Game> PlayerThread<G> {
    pub fn spawn(
        mut player: Box<dyn Player<G>>,
        mut sink: impl FnMut(SearchEvent<G>) + Send + 'static,
    ) -> Self {
        let (jobs, rx) = channel::<Job<G>>();
        let worker = std::thread::spawn(move || {
            for job in rx {
                if job.new_game {
                    player.new_game();
                }
                let mut info = |i: Info| sink(SearchEvent::Info(i));
                let result = player.choose(&job.game, &job.limits, &job.stop, &mut info);
                sink(SearchEvent::Done(result));
            }
        });
        PlayerThread {
            jobs: Some(jobs),
            stop: StopFlag::new(),
            worker: Some(worker),
        }
    }

    /// Starts a search (queued behind a running one). `new_game` first tells the player a
    /// new game begins.
    pub fn search(&mut self, game: GameHistory<G>, limits: Limits, new_game: bool) {
        self.stop = StopFlag::new();
        if let Some(jobs) = &self.jobs {
            // The worker only ends when this handle is dropped, so sending cannot fail.
            let _ = jobs.send(Job {
                game,
                limits,
                new_game,
                stop: self.stop.clone(),
            });
        }
    }

    /// Asks the latest search to return its best move now (earlier ones were answered or
    /// stopped already).
    pub fn stop(&self) {
        self.stop.stop();
    }
}

impl<G: Game> Drop for PlayerThread<G> {
    fn drop(&mut self) {
        self.stop.stop();
        self.jobs.take();
        // A search that ignores the stop flag must not hang the caller: detach it.
        if let Some(worker) = self.worker.take()
            && worker.is_finished()
        {
            let _ = worker.join();
        }
    }
}
