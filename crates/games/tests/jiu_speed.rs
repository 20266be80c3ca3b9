//! Speed of complete random Jiu games and of perft, printed for the record (never asserted):
//! `cargo test --release -p boyi-games --test jiu_speed -- --ignored --nocapture`.

use boyi_core::rng::SplitMix64;
use boyi_core::{Game, NoVariant};
use boyi_games::jiu::Jiu;
use std::time::Instant;

/// Plays one game from the empty board to its end, preferring captures in battle (as the
/// random-game test does) so that it ends; returns the number of plies.
fn random_game(rng: &mut SplitMix64, moves: &mut Vec<<Jiu as Game>::Move>) -> usize {
    let mut pos = Jiu::start(&NoVariant, None).expect("start");
    let mut plies = 0;
    loop {
        moves.clear();
        pos.generate_moves(moves);
        if moves.is_empty() {
            return plies;
        }
        let mut i = rng.below(moves.len());
        if rng.below(10) != 0 {
            let captures = moves.iter().filter(|m| m.captures_anything()).count();
            if captures > 0 {
                let k = rng.below(captures);
                i = (0..moves.len())
                    .filter(|&j| moves[j].captures_anything())
                    .nth(k)
                    .expect("k < captures");
            }
        }
        let mv = moves[i];
        pos.play(&mv);
        plies += 1;
    }
}

#[test]
#[ignore = "measurement"]
fn random_game_speed() {
    let mut rng = SplitMix64::new(11);
    let mut moves = Vec::new();
    for round in 0..3 {
        let started = Instant::now();
        let (games, mut plies) = (200, 0);
        for _ in 0..games {
            plies += random_game(&mut rng, &mut moves);
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "round {round}: {games} games, {plies} plies in {secs:.3} s: {:.0} games/s, {:.0} plies/s",
            games as f64 / secs,
            plies as f64 / secs
        );
    }
}
