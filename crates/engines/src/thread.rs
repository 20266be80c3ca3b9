//! A player on its own thread, so that the caller (a protocol front-end reading its input, a
//! server seat) is never blocked by a search and can stop it at any time.

use crate::player::{GameHistory, Info, Limits, Player, PlayerError, StopFlag, Swap2Reply};
use boyi_core::Game;
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

/// What the search thread reports.
#[derive(Debug, Clone)]
pub enum SearchEvent<G: Game> {
    Info(Info),
    Done(Result<G::Move, PlayerError>),
    /// The player's swap2 decision ([`PlayerThread::swap2`]).
    Swap(Result<Swap2Reply, PlayerError>),
}

/// What a job asks of the player.
enum Task {
    Choose,
    Swap2,
}

struct Job<G: Game> {
    task: Task,
    game: GameHistory<G>,
    limits: Limits,
    new_game: bool,
    /// This search's own flag: stopping (or abandoning) one search never reaches a later
    /// one, and starting a later one never clears an earlier one's stop.
    stop: StopFlag,
}

/// A player running on a worker thread. Jobs are searched one after another; each search
/// reports its thinking and then exactly one `Done` through the sink given at spawn, each
/// swap decision exactly one `Swap`.
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
                match job.task {
                    Task::Choose => {
                        let mut info = |i: Info| sink(SearchEvent::Info(i));
                        let result = player.choose(&job.game, &job.limits, &job.stop, &mut info);
                        sink(SearchEvent::Done(result));
                    }
                    Task::Swap2 => sink(SearchEvent::Swap(player.swap2(&job.game, &job.limits))),
                }
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
        self.send(Task::Choose, game, limits, new_game);
    }

    /// Asks the player for its swap2 decision in `game.current()` (queued like a search); the
    /// answer comes as one [`SearchEvent::Swap`]. The decision keeps to the limits' time and
    /// is not stopped early.
    pub fn swap2(&mut self, game: GameHistory<G>, limits: Limits, new_game: bool) {
        self.send(Task::Swap2, game, limits, new_game);
    }

    fn send(&mut self, task: Task, game: GameHistory<G>, limits: Limits, new_game: bool) {
        self.stop = StopFlag::new();
        if let Some(jobs) = &self.jobs {
            // The worker only ends when this handle is dropped, so sending cannot fail.
            let _ = jobs.send(Job {
                task,
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
