//! Tunes the placement plan of `boyi:strong` for Jiu (`jiu::plan::Params`) by self-play
//! results, with SPSA starting from the hand-set values.
//!
//! `cargo run --release -p boyi-engines --example jiu_tune -- [ITERATIONS] [NODES] [SEED]`
//! (defaults 200 iterations, 600 nodes per battle move, seed 1).
//!
//! Each iteration draws a random sign `Δᵢ = ±1` per parameter and plays a pair of games from a
//! random opening of `data/jiu_openings.txt`, colours swapped, between the plans `θ + c·s·Δ`
//! and `θ − c·s·Δ` (`s` a fixed scale per parameter: 15% of its hand value, at least 1). The
//! battle is played by the strong engine at a fixed node count, so a run is reproducible by
//! its seed. With `r` the `+` plan's pair score minus the `−` plan's, halved (in −1..=1), the
//! step is `θᵢ += a·r·Δᵢ·sᵢ`. The rounded vector is printed as the text of `plan::TUNED`.

use boyi_core::Game;
use boyi_engines::jiu::placement_candidates;
use boyi_engines::jiu::plan::{HAND, Params, p};
use boyi_engines::{BuildContext, GameHistory, Limits, StopFlag, build};
use boyi_games::jiu::{Jiu, Phase};

/// Battle plies after which a game is scored a draw.
const MAX_BATTLE: usize = 400;
/// Perturbation, in units of each parameter's scale.
const C: f64 = 1.0;
/// Step, in units of each parameter's scale per unit of result.
const A: f64 = 0.2;
const OPENINGS: &str = include_str!("../data/jiu_openings.txt");

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: ITERATIONS NODES SEED"))
        .collect();
    let iterations = args.first().copied().unwrap_or(200) as usize;
    let nodes = args.get(1).copied().unwrap_or(600);
    let mut rng = Rng(args.get(2).copied().unwrap_or(1) | 1);
    let openings: Vec<Vec<&str>> = OPENINGS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().split(',').collect())
        .collect();
    let scale: [f64; p::COUNT] = HAND.0.map(|v| (0.15 * f64::from(v.abs())).max(1.0));
    let mut theta: [f64; p::COUNT] = HAND.0.map(f64::from);
    let mut total = 0.0;
    for k in 0..iterations {
        let delta: [f64; p::COUNT] =
            std::array::from_fn(|_| if rng.below(2) == 0 { -1.0 } else { 1.0 });
        let shifted = |sign: f64| {
            Params(std::array::from_fn(|i| {
                (theta[i] + sign * C * scale[i] * delta[i]).round() as i32
            }))
        };
        let (plus, minus) = (shifted(1.0), shifted(-1.0));
        let opening = &openings[rng.below(openings.len())];
        let first = play(opening, [plus, minus], nodes);
        let second = 1.0 - play(opening, [minus, plus], nodes);
        let r = first + second - 1.0;
        total += r;
        for i in 0..p::COUNT {
            theta[i] += A * r * delta[i] * scale[i];
        }
        eprintln!(
            "iteration {}: r {r:+} (sum {total:+}) theta {:?}",
            k + 1,
            rounded(&theta).0
        );
    }
    let tuned = rounded(&theta);
    println!("pub const TUNED: Params = Params({:?});", tuned.0);
}

fn rounded(theta: &[f64; p::COUNT]) -> Params {
    Params(theta.map(|x| x.round() as i32))
}

/// One game from `opening`: the first mover places by `plans[0]`, the other by `plans[1]`;
/// both battle as `boyi:strong` at `nodes` per move. The first mover's score (1, ½, 0).
fn play(opening: &[&str], plans: [Params; 2], nodes: u64) -> f64 {
    let mut game = GameHistory::new(Jiu::new());
    let first = game.current().side_to_move();
    for text in opening {
        let mv = game.current().parse_move(text).expect("an opening move");
        game.push(mv);
    }
    while game.current().phase() == Phase::Place {
        let pos = game.current();
        let params = plans[(pos.side_to_move() != first) as usize];
        let ranked = placement_candidates(pos, &params, boyi_engines::jiu::plan::CANDIDATES);
        let mv = boyi_engines::jiu::board::placement(pos, ranked[0].1 as u8).expect("a placement");
        game.push(mv);
    }
    let ctx = BuildContext { seed: 1 };
    let mut players = [
        build::<Jiu>("strong", ctx).expect("strong"),
        build::<Jiu>("strong", ctx).expect("strong"),
    ];
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    for _ in 0..MAX_BATTLE {
        let pos = game.current();
        if pos.outcome().is_some() {
            break;
        }
        let side = (pos.side_to_move() != first) as usize;
        let Ok(mv) = players[side].choose(&game, &limits, &StopFlag::new(), &mut |_| {}) else {
            break;
        };
        game.push(mv);
    }
    match game.current().outcome().and_then(|o| o.winner) {
        Some(w) if w == first => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}
