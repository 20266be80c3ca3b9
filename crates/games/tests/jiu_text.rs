//! Jiu text: the dataset record reader (round trip of random games, the published example,
//! rejections with ply and reason) and property tests that no input makes a parser panic.

mod jiu_common;

use boyi_core::rng::SplitMix64;
use boyi_core::{Game, NoVariant, Point};
use boyi_games::jiu::dataset::read_record;
use boyi_games::jiu::{Jiu, JiuMove, Phase};
use jiu_common::*;
use proptest::prelude::*;

/// `g7` → `G,7`.
fn dataset_point(text: &str) -> String {
    let p = Point::parse(text, 14).unwrap();
    format!("{},{}", (b'A' + p.col) as char, p.row + 1)
}

/// Writes a game in the dataset's record format (jumps always with their `TC` group).
fn to_record(moves: &[JiuMove]) -> String {
    let mut pos = Jiu::start(&NoVariant, None).unwrap();
    let (mut placements, mut battle) = (Vec::new(), Vec::new());
    for mv in moves {
        let me = if pos.side_to_move() == boyi_core::Side::White {
            'W'
        } else {
            'B'
        };
        let enemy = if me == 'W' { 'B' } else { 'W' };
        let text = pos.format_move(mv);
        let body = text.split(" x ").next().unwrap();
        if pos.phase() == Phase::Place {
            placements.push(format!("{me}({})", dataset_point(body)));
        } else {
            let path: Vec<String> = body
                .split(['-', '*'])
                .enumerate()
                .map(|(i, p)| format!("{}({})", if i == 0 { me } else { 'O' }, dataset_point(p)))
                .collect();
            let mut entry = path.join("-");
            for p in mv.jumped() {
                entry += &format!(",TC:{enemy}({})", dataset_point(&p.to_string()));
            }
            for p in mv.captures() {
                entry += &format!(",FC:{enemy}({})", dataset_point(&p.to_string()));
            }
            battle.push(entry);
        }
        pos.play(mv);
    }
    let mut out = format!("Stage[1]:{}", placements.join(";"));
    if !battle.is_empty() {
        out += &format!(";\nStage[2]:{};", battle.join(";"));
    }
    out
}

fn random_game(seed: u64) -> Vec<JiuMove> {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Jiu::start(&NoVariant, None).unwrap();
    let mut played = Vec::new();
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return played;
        }
        let captures: Vec<_> = moves.iter().filter(|m| m.captures_anything()).collect();
        let mv = if !captures.is_empty() && rng.below(5) != 0 {
            *captures[rng.below(captures.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.play(&mv);
        played.push(mv);
    }
}

#[test]
fn dataset_records_of_random_games_read_back() {
    for seed in 0..20 {
        let moves = random_game(seed);
        let record = to_record(&moves);
        let game = read_record(&record).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(game.moves, moves, "seed {seed}");
        assert!(game.position.outcome().is_some());
    }
}

/// Stripes (white on even columns) with g6 black and n14 white, so that black's first battle
/// move h7-g7 completes the block f6 g6 f7 g7, as in the dataset's published example.
fn example_placements() -> String {
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for col in 0..14u8 {
        for row in 0..14u8 {
            let text = Point::new(col, row).to_string();
            match text.as_str() {
                "g7" | "h8" => continue,
                "g6" => black.push(text),
                "n14" => white.push(text),
                _ if col % 2 == 0 => white.push(text),
                _ => black.push(text),
            }
        }
    }
    let mut entries = vec!["W(G,7)".to_string(), "B(H,8)".to_string()];
    for (w, b) in white.iter().zip(&black) {
        entries.push(format!("W({})", dataset_point(w)));
        entries.push(format!("B({})", dataset_point(b)));
    }
    format!("Stage[1]:{};", entries.join(";"))
}

#[test]
fn dataset_example_first_battle_move() {
    let record = format!(
        "{}\nStage[2]:B(H,7)-O(G,7),FC:W(I,9);",
        example_placements()
    );
    let game = read_record(&record).unwrap();
    assert_eq!(game.moves.len(), 197);
    let mut pos = game.position.clone();
    assert!(pos.undo());
    assert_eq!(pos.format_move(&game.moves[196]), "h7-g7 x i9");
    // h9 is black's own piece; the square capture is missing; the colour is wrong.
    for (battle, reason) in [
        ("B(H,7)-O(G,7),FC:W(H,9)", "not an enemy piece"),
        ("B(H,7)-O(G,7)", "must remove 1"),
        ("W(H,7)-O(G,7),FC:W(I,9)", "expected B"),
        ("B(H,7)-O(G,7),FC:B(I,9)", "expected W"),
        ("B(H,7)-O(G,7),XC:W(I,9)", "TC: or FC:"),
    ] {
        let record = format!("{}Stage[2]:{battle}", example_placements());
        let err = read_record(&record).unwrap_err().to_string();
        assert!(err.starts_with("ply 197 ("), "{battle}: {err}");
        assert!(err.contains(reason), "{battle}: {err}");
    }
}

#[test]
fn dataset_rejections_name_ply_and_reason() {
    for (record, ply, reason) in [
        ("Stage[1]:W(A,1)", 1, "g7 and h8"),
        ("Stage[1]:B(G,7)", 1, "expected W"),
        ("Stage[1]:W(G,7);B(H,8);W(G,7)", 3, "not empty"),
        ("Stage[1]:W(G,7);B(H,8);W(O,1)", 3, "off the 14x14 board"),
        ("Stage[1]:W(G,7);B(H,8);W(G7)", 3, "not a point"),
    ] {
        let err = read_record(record).unwrap_err().to_string();
        assert!(err.starts_with(&format!("ply {ply} (")), "{record}: {err}");
        assert!(err.contains(reason), "{record}: {err}");
    }
    let err = read_record("Stage[1]:W(G,7);B(H,8);Stage[2]:B(H,7)-O(G,7)").unwrap_err();
    assert!(err.to_string().contains("after 2 placements"), "{err}");
    assert!(read_record("W(G,7)").is_err());
    // Whitespace is ignored and a record may stop during the placement.
    let game = read_record(" Stage[1]: W(G,7) ;\n B(H,8) ; ").unwrap();
    assert_eq!(game.moves.len(), 2);
    assert_eq!(read_record("Stage[1]:").unwrap().moves.len(), 0);
}

#[test]
fn dataset_jump_groups_must_match_the_path() {
    let moves = random_game(3);
    let record = to_record(&moves);
    // Find the first battle move that jumps, and give it a wrong TC group.
    let (head, tail) = record.split_once("Stage[2]:").unwrap();
    let entries: Vec<&str> = tail.trim_end_matches(';').split(';').collect();
    let i = entries
        .iter()
        .position(|e| e.contains("TC:"))
        .expect("a jump");
    let mut broken: Vec<String> = entries.iter().map(|e| e.to_string()).collect();
    let (path, _) = broken[i].split_once(",TC:").unwrap();
    broken[i] = format!("{path},TC:W(A,1)");
    let record = format!("{head}Stage[2]:{}", broken.join(";"));
    let err = read_record(&record).unwrap_err().to_string();
    assert!(err.starts_with(&format!("ply {} (", 197 + i)), "{err}");
}

fn sample_positions() -> Vec<Jiu> {
    let mut placing = Jiu::start(&NoVariant, None).unwrap();
    play(&mut placing, "g7,h8,a1");
    vec![
        Jiu::start(&NoVariant, None).unwrap(),
        placing,
        battle("a10:c14 c3 d3 e3 c4 e4 d5", "k1 m1 k3 m3 m5", 'b'),
        battle("a10:c14 d4", "d10:f14 d5 e6 f5 e4", 'b'),
        battle("b2 c2 b3 a7", "d10:f14 a8", 'b'),
    ]
}

proptest! {
    #[test]
    fn position_text_never_panics(s in "\\PC{0,80}") {
        let _ = Jiu::from_text(&NoVariant, &s);
    }

    #[test]
    fn position_text_like_strings_never_panic(
        s in "([0-9]{1,2}|[xo]){1,12}(/([0-9]{1,2}|[xo]){1,12}){0,14} [bwz] (place|battle|x) [0-9]{1,3} [0-9]{1,3}"
    ) {
        let _ = Jiu::from_text(&NoVariant, &s);
    }

    #[test]
    fn move_text_never_panics(s in "\\PC{0,24}", which in 0usize..5) {
        let pos = &sample_positions()[which];
        let _ = pos.parse_move(&s);
    }

    #[test]
    fn move_like_text_never_panics(
        s in "[a-p][0-9]{1,2}([-*][a-p][0-9]{1,2}){0,4}( x [a-p][0-9]{1,2}){0,3}",
        which in 0usize..5,
    ) {
        let pos = &sample_positions()[which];
        if let Ok(mv) = pos.parse_move(&s) {
            // Whatever parses is legal and has a canonical text that parses back to it.
            prop_assert!(pos.legal_moves().contains(&mv));
            prop_assert_eq!(pos.parse_move(&pos.format_move(&mv)).unwrap(), mv);
        }
    }

    #[test]
    fn dataset_text_never_panics(s in "\\PC{0,80}") {
        let _ = read_record(&s);
    }

    #[test]
    fn dataset_like_text_never_panics(
        s in "Stage\\[[12]\\]:([WBO]\\([A-P],[0-9]{1,2}\\)[-,;]?(TC:|FC:)?){0,8}"
    ) {
        let _ = read_record(&s);
    }
}
