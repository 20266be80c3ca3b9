//! Running a match: games between two players on worker threads, colours alternating and
//! each opening played twice with colours swapped, clocks kept by the arena, illegal moves,
//! crashes and time losses adjudicated, every game recorded.

use crate::record::{RecordParts, build_record};
use crate::stats::{Decision, Sprt, Verdict, Wdl};
pub use crate::time_control::TimeControl;
use boyi_core::{Reason, Side, TextError};
use boyi_engines::{
    BookPlayer, Clock, GameHistory, Info, Limits, OpeningBook, Player, PlayerError, StopFlag,
    Swap2Reply,
};
use boyi_protocol::PlayerSpec;
use boyi_protocol::driver::ExternalOptions;
use boyi_records::{GameRecord, GameResult as Result_};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// Everything a match needs.
#[derive(Debug, Clone)]
pub struct MatchConfig<G: boyi_engines::GamePlayers> {
    /// Player A and player B.
    pub players: [PlayerSpec; 2],
    /// Number of games (rounded up to whole opening pairs only by the openings' cycling).
    pub games: usize,
    pub concurrency: usize,
    /// Fixed per-move limits (depth, nodes, movetime).
    pub limits: Limits,
    /// Per-player fixed limits (A, B) replacing `limits` for that player: an engine that
    /// only knows depth (Cloudict) can meet one that plays on time.
    pub player_limits: [Option<Limits>; 2],
    pub tc: Option<TimeControl>,
    /// Openings, cycled; game `2k` and `2k+1` play opening `k mod len` with colours swapped.
    pub openings: Vec<GameHistory<G>>,
    /// Seed of the built-in players' randomness (each game gets its own).
    pub seed: u64,
    pub external: ExternalOptions,
    /// Time a player may overrun its clock before it loses on time.
    pub time_margin: Duration,
    /// Plies after which a game is drawn (`None`: the rules decide alone).
    pub max_plies: Option<usize>,
    pub sprt: Option<Sprt>,
    /// Opening books of player A and player B (`None`: no book).
    pub books: [Option<OpeningBook>; 2],
    /// How the opening is made: from `openings`, or by the players with a swap rule
    /// (Gomoku; in game `2k` A opens, in `2k+1` B, and the players' choices decide the colours).
    pub opening_rule: OpeningRule,
}

/// Who makes a game's opening.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OpeningRule {
    /// The match's openings (`MatchConfig::openings`).
    #[default]
    Given,
    /// The opener places three stones (black, white, black); the other player takes black,
    /// or stays white and plays the fourth stone.
    Swap1,
    /// Swap1's three stones, then the other player may also add two stones (white, black)
    /// and leave the choice of colour to the opener.
    Swap2,
}

impl OpeningRule {
    pub const ALL: [OpeningRule; 3] = [OpeningRule::Given, OpeningRule::Swap1, OpeningRule::Swap2];

    /// The rule's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OpeningRule::Given => "none",
            OpeningRule::Swap1 => "swap1",
            OpeningRule::Swap2 => "swap2",
        }
    }
}

impl std::fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for OpeningRule {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OpeningRule::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = OpeningRule::ALL.iter().map(|r| r.name()).collect();
                format!(
                    "unknown opening rule {s:?}: expected one of {}",
                    names.join(", ")
                )
            })
    }
}

/// One finished game.
#[derive(Debug, Clone)]
pub struct GameResult {
    pub index: usize,
    /// The side player A played.
    pub a_side: Side,
    /// A's score: 1, 0.5 or 0.
    pub a_score: f64,
    /// The game's record: players with their specs, every move with its thinking time, the
    /// result and its reason, the opening's plies in the tag `OpeningPlies`.
    pub record: GameRecord,
    /// Thinking time and moves made by player A and player B.
    pub thinking: [Thinking; 2],
}

/// Time a player spent choosing its moves in one game, and how deep it searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thinking {
    pub time: Duration,
    pub moves: u32,
    /// The sum of the last depth each move's thinking lines reported ...
    pub depth_total: u64,
    /// ... over this many moves (a book move or a player without thinking lines reports none).
    pub depth_moves: u32,
    /// How many moves last reported each depth (255 and over counted at 255): the median
    /// needs them, as a few moves can lift the mean far (an engine that goes on iterating
    /// once it sees a mate reports its depth limit).
    pub depth_counts: [u32; 256],
}

impl Default for Thinking {
    fn default() -> Thinking {
        Thinking {
            time: Duration::ZERO,
            moves: 0,
            depth_total: 0,
            depth_moves: 0,
            depth_counts: [0; 256],
        }
    }
}

impl Thinking {
    /// One move that took `time`, its thinking lines having last reported `depth`.
    pub fn one(time: Duration, depth: Option<u32>) -> Thinking {
        let mut t = Thinking {
            time,
            moves: 1,
            depth_total: depth.map_or(0, u64::from),
            depth_moves: u32::from(depth.is_some()),
            ..Thinking::default()
        };
        if let Some(d) = depth {
            t.depth_counts[d.min(255) as usize] = 1;
        }
        t
    }

    pub fn add(&mut self, other: Thinking) {
        self.time += other.time;
        self.moves += other.moves;
        self.depth_total += other.depth_total;
        self.depth_moves += other.depth_moves;
        for (c, o) in self.depth_counts.iter_mut().zip(other.depth_counts) {
            *c += o;
        }
    }

    /// Average time per move, in milliseconds.
    pub fn average_ms(&self) -> f64 {
        self.time.as_secs_f64() * 1000.0 / f64::from(self.moves.max(1))
    }

    /// Average depth over the moves that reported one; `None` if none did.
    pub fn average_depth(&self) -> Option<f64> {
        (self.depth_moves > 0).then(|| self.depth_total as f64 / f64::from(self.depth_moves))
    }

    /// The median depth (the lower one of an even count) over the moves that reported one;
    /// `None` if none did.
    pub fn median_depth(&self) -> Option<u32> {
        let half = self.depth_counts.iter().sum::<u32>().div_ceil(2);
        let mut seen = 0;
        (half > 0).then(|| {
            self.depth_counts
                .iter()
                .position(|&c| {
                    seen += c;
                    seen >= half
                })
                .map_or(255, |d| d as u32)
        })
    }
}

/// Whole matches fail only on setup errors (a player that cannot be built or cannot play
/// this game at all); everything a player does wrong in a game is adjudicated.
pub fn run_match<G: boyi_engines::GamePlayers>(
    cfg: &MatchConfig<G>,
    mut on_game: impl FnMut(&GameResult, &Wdl),
) -> Result<(Wdl, Option<Decision>), TextError> {
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let (tx, rx) = channel::<Result<GameResult, TextError>>();
    let mut wdl = Wdl::default();
    let mut decision = None;
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.clamp(1, cfg.games.max(1)) {
            let tx = tx.clone();
            let (next, halt) = (&next, &halt);
            scope.spawn(move || {
                while !halt.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= cfg.games {
                        break;
                    }
                    if tx.send(play_game(cfg, index)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            match result {
                Ok(game) => {
                    wdl.add(game.a_score);
                    on_game(&game, &wdl);
                    if let Some(sprt) = &cfg.sprt {
                        let d = sprt.follow(decision, &wdl);
                        decision = Some(d);
                        if d.verdict != Verdict::Continue {
                            halt.store(true, Ordering::Relaxed);
                        }
                    }
                }
                Err(e) => {
                    failure.get_or_insert(e);
                    halt.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok((wdl, decision)),
    }
}

/// Plays game `index` of the match.
pub fn play_game<G: boyi_engines::GamePlayers>(
    cfg: &MatchConfig<G>,
    index: usize,
) -> Result<GameResult, TextError> {
    if cfg.opening_rule != OpeningRule::Given {
        return play_swap_game(cfg, index);
    }
    let opening = &cfg.openings[(index / 2) % cfg.openings.len()];
    let first = opening.current().side_to_move();
    // A plays the side to move after the opening in even games, the other side in odd ones.
    let a_side = if index.is_multiple_of(2) {
        first
    } else {
        first.opponent()
    };
    let seed = cfg
        .seed
        .wrapping_add(index as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut players: Vec<Box<dyn Player<G>>> = Vec::with_capacity(2);
    let mut names = [String::new(), String::new()];
    for side in [Side::Black, Side::White] {
        let who = if side == a_side { 0 } else { 1 };
        let spec = &cfg.players[who];
        let player_seed = seed ^ side.index() as u64;
        let mut p = spec
            .build::<G>(player_seed, cfg.external)
            .map_err(|e| e.context(format!("player {spec}")))?;
        if let Some(book) = &cfg.books[who] {
            p = Box::new(BookPlayer::new(p, book.clone(), player_seed));
        }
        p.new_game();
        names[side.index()] = spec.to_string();
        players.push(p);
    }
    // Limits and thinking time by side (Black, White).
    let player_of = |side: Side| usize::from(side != a_side);
    let limits = [Side::Black, Side::White].map(|side| {
        cfg.player_limits[player_of(side)]
            .clone()
            .unwrap_or_else(|| cfg.limits.clone())
    });
    let mut by_side = [Thinking::default(); 2];
    let mut times = Vec::new();
    let (result, game) = play(
        cfg,
        opening.clone(),
        &mut players,
        &limits,
        &mut by_side,
        &mut times,
    )
    .map_err(|(side, e)| text_err!("player {} cannot play this game: {e}", names[side.index()]))?;
    let thinking = [a_side, a_side.opponent()].map(|side| by_side[side.index()]);
    let a_score = result.score_for(a_side);
    let record = build_record(RecordParts {
        game: &game,
        specs: &names,
        opening: opening.moves().len(),
        times: &times,
        result,
        index,
        tc: cfg.tc,
    })?;
    Ok(GameResult {
        index,
        a_side,
        a_score,
        record,
        thinking,
    })
}

fn game_seed<G: boyi_engines::GamePlayers>(cfg: &MatchConfig<G>, index: usize) -> u64 {
    cfg.seed
        .wrapping_add(index as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Plays game `index` with a swap opening decided by the players, then on as usual.
fn play_swap_game<G: boyi_engines::GamePlayers>(
    cfg: &MatchConfig<G>,
    index: usize,
) -> Result<GameResult, TextError> {
    let seed = game_seed(cfg, index);
    let mut by_player: Vec<Box<dyn Player<G>>> = Vec::with_capacity(2);
    for (n, spec) in cfg.players.iter().enumerate() {
        let mut p = spec
            .build::<G>(seed ^ n as u64, cfg.external)
            .map_err(|e| e.context(format!("player {spec}")))?;
        p.new_game();
        by_player.push(p);
    }
    let opener = index % 2;
    let start = cfg.openings[0].clone();
    let (black, game, lost) = match swap_opening(cfg, start.clone(), &mut by_player, opener) {
        Ok((black, game)) => (black, game, None),
        Err((n, PlayerError::Unsupported(e))) => {
            return Err(text_err!(
                "player {} cannot play this game: {e}",
                cfg.players[n]
            ));
        }
        // A bad opening decision loses; the opener is taken as black for the record.
        Err((n, e)) => (opener, start, Some((n, e))),
    };
    let a_side = if black == 0 { Side::Black } else { Side::White };
    if black == 1 {
        by_player.swap(0, 1);
    }
    let names = if black == 0 {
        [cfg.players[0].to_string(), cfg.players[1].to_string()]
    } else {
        [cfg.players[1].to_string(), cfg.players[0].to_string()]
    };
    let opening_moves = game.moves().len();
    // Player indices (A 0, B 1) of Black and White.
    let seats = [black, 1 - black];
    let limits = seats.map(|n| {
        cfg.player_limits[n]
            .clone()
            .unwrap_or_else(|| cfg.limits.clone())
    });
    let mut by_side = [Thinking::default(); 2];
    let mut times = Vec::new();
    let (result, game) = match lost {
        Some((n, e)) => {
            let loser = if n == black { Side::Black } else { Side::White };
            let rule = cfg.opening_rule;
            let result = Result_::win(loser.opponent(), Reason::Forfeit)
                .with_detail(format!("{rule} opening: {e}"));
            (result, game)
        }
        None => play(cfg, game, &mut by_player, &limits, &mut by_side, &mut times).map_err(
            |(side, e)| text_err!("player {} cannot play this game: {e}", names[side.index()]),
        )?,
    };
    let thinking = [a_side, a_side.opponent()].map(|side| by_side[side.index()]);
    let a_score = result.score_for(a_side);
    let record = build_record(RecordParts {
        game: &game,
        specs: &names,
        opening: opening_moves,
        times: &times,
        result,
        index,
        tc: cfg.tc,
    })?;
    Ok(GameResult {
        index,
        a_side,
        a_score,
        record,
        thinking,
    })
}

/// The swap opening of `cfg.opening_rule`. Swap1: the opener places three stones (black,
/// white, black); the other player takes black or plays the fourth stone as white. Swap2: the
/// other player may instead add two stones (white, black), and the opener then takes black or
/// plays the sixth stone as white. Returns the index of the player who plays black and the
/// game so far; errors name the player at fault.
fn swap_opening<G: boyi_engines::GamePlayers>(
    cfg: &MatchConfig<G>,
    mut game: GameHistory<G>,
    players: &mut [Box<dyn Player<G>>],
    opener: usize,
) -> Result<(usize, GameHistory<G>), (usize, PlayerError)> {
    let other = 1 - opener;
    let limits = cfg.limits.clone();
    let swap2 = cfg.opening_rule == OpeningRule::Swap2;
    let mut ask = |n: usize, game: &mut GameHistory<G>, allowed: &[usize]| {
        let reply = if swap2 {
            players[n].swap2(game, &limits)
        } else {
            players[n].swap1(game, &limits)
        };
        match reply.map_err(|e| (n, e))? {
            Swap2Reply::Swap if !allowed.contains(&0) => Err((
                n,
                PlayerError::Protocol("SWAP is not an option here".into()),
            )),
            Swap2Reply::Swap => Ok(0),
            Swap2Reply::Stones(stones) if !allowed.contains(&stones.len()) => Err((
                n,
                PlayerError::Protocol(format!("{} stones are not an option here", stones.len())),
            )),
            Swap2Reply::Stones(stones) => {
                for st in &stones {
                    game.push_text(st)
                        .map_err(|e| (n, PlayerError::Illegal(e.to_string())))?;
                }
                Ok(stones.len())
            }
        }
    };
    ask(opener, &mut game, &[3])?;
    let options: &[usize] = if swap2 { &[0, 1, 2] } else { &[0, 1] };
    match ask(other, &mut game, options)? {
        0 => Ok((other, game)),
        1 => Ok((opener, game)),
        _ => match ask(opener, &mut game, &[0, 1])? {
            0 => Ok((opener, game)),
            _ => Ok((other, game)),
        },
    }
}

/// How the game ended, and the game.
type Played<G> = (Result_, GameHistory<G>);

/// Plays one game to its end; `Err` only for a player that cannot play it at all. `times`
/// gets the thinking time of every move the players made, in milliseconds.
fn play<G: boyi_engines::GamePlayers>(
    cfg: &MatchConfig<G>,
    mut game: GameHistory<G>,
    players: &mut [Box<dyn Player<G>>],
    side_limits: &[Limits; 2],
    thinking: &mut [Thinking; 2],
    times: &mut Vec<u64>,
) -> Result<Played<G>, (Side, PlayerError)> {
    let mut clock = cfg.tc.map(|tc| Clock {
        time_left: [tc.base; 2],
        increment: [tc.increment; 2],
        moves_to_go: tc.moves,
    });
    let mut moves_made = [0u32; 2];
    loop {
        if let Some(outcome) = game.current().outcome() {
            return Ok((outcome.into(), game));
        }
        if let Some(m) = cfg.max_plies.filter(|&m| game.moves().len() >= m) {
            let draw = Result_::draw(Reason::Adjudication).with_detail(format!("move limit {m}"));
            return Ok((draw, game));
        }
        let side = game.current().side_to_move();
        if let (Some(c), Some(m)) = (&mut clock, cfg.tc.and_then(|tc| tc.moves)) {
            c.moves_to_go = Some(m - moves_made[side.index()] % m);
        }
        let limits = Limits {
            clock,
            ..side_limits[side.index()].clone()
        };
        // A move capped by `max_time` is stopped then, whatever the player makes of its limits.
        let stop = StopFlag::new();
        let _cap = limits.cap().map(|d| stop.stop_after(d));
        let started = Instant::now();
        // The depth a move reached is the last one its thinking lines named.
        let mut depth = None;
        let mut on_info = |info: Info| depth = info.depth.or(depth);
        let result = players[side.index()].choose(&game, &limits, &stop, &mut on_info);
        let spent = started.elapsed();
        thinking[side.index()].add(Thinking::one(spent, depth));
        let loss = |reason: Reason, detail: String| {
            let result = Result_::win(side.opponent(), reason).with_detail(detail);
            Ok((result, game.clone()))
        };
        let mv = match result {
            Ok(mv) => mv,
            Err(e @ PlayerError::Unsupported(_)) => return Err((side, e)),
            Err(PlayerError::Illegal(m)) => return loss(Reason::IllegalMove, m),
            Err(PlayerError::Timeout(_)) => return loss(Reason::Time, "no answer".into()),
            Err(PlayerError::Crashed(e)) => return loss(Reason::Crash, e),
            Err(PlayerError::Resigned) => return loss(Reason::Resignation, String::new()),
            Err(e) => return loss(Reason::Forfeit, e.to_string()),
        };
        if let (Some(c), Some(tc)) = (&mut clock, cfg.tc) {
            let left = &mut c.time_left[side.index()];
            if spent > *left + cfg.time_margin {
                return loss(Reason::Time, String::new());
            }
            *left = left.saturating_sub(spent) + tc.increment;
            moves_made[side.index()] += 1;
            // Every `moves` moves a new period adds the base time again.
            if tc
                .moves
                .is_some_and(|m| moves_made[side.index()].is_multiple_of(m))
            {
                *left += tc.base;
            }
        }
        if !game.current().is_legal(&mv) {
            return loss(Reason::IllegalMove, format!("{mv:?}"));
        }
        game.push(mv);
        times.push(spent.as_millis() as u64);
    }
}
