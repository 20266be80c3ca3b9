//! Fits the placement evaluation of `boyi:strong` for Jiu (`jiu::plan`) to battle results.
//!
//! `cargo run --release -p boyi-engines --example jiu_tune -- [GAMES] [NODES] [SEED]`
//! (defaults 200 games, 2000 nodes per battle move, seed 1).
//!
//! Self-play: each side places by the hand scorer or the current fitted one (chosen at random
//! per game and side), taking a random one of the four best candidates a quarter of the time
//! so the games cover many placements; the battle is played by the strong engine at a fixed
//! node count, so a run is reproducible. Every placement-phase position from the tenth
//! placement on is labelled with the game's result for white (1, ½, 0). A logistic
//! regression `P(white wins) = σ(bias + Σ wᵢ·fᵢ)` over the block features of `jiu::plan` is
//! fitted by gradient descent; the weights, scaled to integers, are printed as the text of
//! `plan::TUNED`, with the log-loss of the fit.

use boyi_core::{Game, Side};
use boyi_engines::jiu::board::{Board, placement};
use boyi_engines::jiu::placement_candidates;
use boyi_engines::jiu::plan::{self, FEATURES, Scorer};
use boyi_engines::{BuildContext, GameHistory, Limits, StopFlag, build};
use boyi_games::jiu::{Jiu, Phase};

/// Battle plies after which a game is scored a draw.
const MAX_BATTLE: usize = 400;
/// Placements before the first labelled position.
const FIRST_SAMPLE: usize = 10;

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

struct Sample {
    f: [f64; FEATURES],
    result: f64,
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: GAMES NODES SEED"))
        .collect();
    let games = args.first().copied().unwrap_or(200) as usize;
    let nodes = args.get(1).copied().unwrap_or(2000);
    let mut rng = Rng(args.get(2).copied().unwrap_or(1) | 1);
    let mut samples = Vec::new();
    let mut score = [0.0f64; 3];
    for g in 0..games {
        let scorers = [pick_scorer(&mut rng), pick_scorer(&mut rng)];
        let (features, result) = play(&mut rng, scorers, nodes);
        score[(result * 2.0) as usize] += 1.0;
        samples.extend(features.into_iter().map(|f| Sample { f, result }));
        let name = |s: &Scorer| match s {
            Scorer::Hand => "hand",
            Scorer::Tuned(_) => "tuned",
        };
        eprintln!(
            "game {}: white {result} (white {}, black {})",
            g + 1,
            name(&scorers[0]),
            name(&scorers[1])
        );
    }
    eprintln!(
        "{} positions; white wins {} draws {} losses {}",
        samples.len(),
        score[2],
        score[1],
        score[0]
    );
    let (bias, w) = fit(&samples);
    eprintln!(
        "log-loss: constant {:.5}, fitted {:.5}",
        constant_loss(&samples),
        loss(&samples, bias, &w)
    );
    eprintln!("bias {bias:.4}");
    let top = w.iter().fold(0.0f64, |m, x| m.max(x.abs())).max(1e-9);
    let ints: Vec<i32> = w.iter().map(|x| (x * 100.0 / top).round() as i32).collect();
    println!("pub const TUNED: Weights = Weights([");
    for row in ints.chunks(plan::CLASSES.len()) {
        let text: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        println!("    {},", text.join(", "));
    }
    println!("]);");
}

fn pick_scorer(rng: &mut Rng) -> Scorer {
    if rng.below(2) == 0 {
        Scorer::Hand
    } else {
        Scorer::Tuned(plan::TUNED)
    }
}

/// One self-play game: the features of its labelled placement positions and white's result.
fn play(rng: &mut Rng, scorers: [Scorer; 2], nodes: u64) -> (Vec<[f64; FEATURES]>, f64) {
    let mut game = GameHistory::new(Jiu::new());
    let mut features = Vec::new();
    while game.current().phase() == Phase::Place {
        let pos = game.current();
        let scorer = &scorers[(pos.side_to_move() == Side::Black) as usize];
        let ranked = placement_candidates(pos, scorer);
        let pick = if rng.below(4) == 0 {
            rng.below(ranked.len().min(4))
        } else {
            0
        };
        let mv = placement(pos, ranked[pick].1 as u8).expect("a legal placement");
        game.push(mv);
        if game.moves().len() >= FIRST_SAMPLE {
            let cells = Board::from_game(game.current()).cells;
            features.push(plan::features(&cells).map(f64::from));
        }
    }
    let ctx = BuildContext { seed: rng.next() };
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
        let side = (pos.side_to_move() == Side::Black) as usize;
        let Ok(mv) = players[side].choose(&game, &limits, &StopFlag::new(), &mut |_| {}) else {
            break;
        };
        game.push(mv);
    }
    let result = match game.current().outcome().and_then(|o| o.winner) {
        Some(Side::White) => 1.0,
        Some(Side::Black) => 0.0,
        None => 0.5,
    };
    (features, result)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn predict(s: &Sample, bias: f64, w: &[f64; FEATURES]) -> f64 {
    sigmoid(bias + s.f.iter().zip(w).map(|(x, w)| x * w).sum::<f64>())
}

fn loss(samples: &[Sample], bias: f64, w: &[f64; FEATURES]) -> f64 {
    let eps = 1e-9;
    samples
        .iter()
        .map(|s| {
            let p = predict(s, bias, w).clamp(eps, 1.0 - eps);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / samples.len().max(1) as f64
}

fn constant_loss(samples: &[Sample]) -> f64 {
    let mean = samples.iter().map(|s| s.result).sum::<f64>() / samples.len().max(1) as f64;
    let p = mean.clamp(1e-9, 1.0 - 1e-9);
    loss(samples, (p / (1.0 - p)).ln(), &[0.0; FEATURES])
}

/// Full-batch gradient descent with Adam steps and a little L2 regularisation (the samples
/// of one game are strongly correlated).
fn fit(samples: &[Sample]) -> (f64, [f64; FEATURES]) {
    let n = samples.len().max(1) as f64;
    let mut params = [0.0f64; FEATURES + 1];
    let (mut m, mut v) = ([0.0f64; FEATURES + 1], [0.0f64; FEATURES + 1]);
    let (lr, b1, b2, l2) = (0.01, 0.9, 0.999, 1e-4);
    for t in 1..=3000 {
        let mut grad = [0.0f64; FEATURES + 1];
        let w: [f64; FEATURES] = params[1..].try_into().expect("feature count");
        for s in samples {
            let e = predict(s, params[0], &w) - s.result;
            grad[0] += e;
            for (g, x) in grad[1..].iter_mut().zip(&s.f) {
                *g += e * x;
            }
        }
        for i in 0..=FEATURES {
            let g = grad[i] / n + if i > 0 { l2 * params[i] } else { 0.0 };
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t));
            let vh = v[i] / (1.0 - b2.powi(t));
            params[i] -= lr * mh / (vh.sqrt() + 1e-8);
        }
    }
    let w: [f64; FEATURES] = params[1..].try_into().expect("feature count");
    (params[0], w)
}
