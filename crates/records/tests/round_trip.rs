//! Every writer and every game: random complete games — every result reason, set-up starts,
//! variants, sizes, annotated moves — written and read back are the same game in everything
//! the format keeps ([`kept`] says what that is, as docs/records.md does), and a writer
//! refuses, with an error, what its format cannot hold.

use boyi_core::rng::SplitMix64;
use boyi_core::{Game, Reason, Score, Side};
use boyi_games::GameKind;
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::Gomoku;
use boyi_games::jiu::Jiu;
use boyi_games::xiangqi::Xiangqi;
use boyi_records::{
    Date, Format, GameRecord, GameResult, Player, ReadOptions, RecordedMove, check, read, write,
};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "Ann",
    "Bo",
    "Li Ming",
    "李明",
    "Tsering",
    "O'Neil",
    "x-1",
    "Zoë",
    "boyi:strong",
    "Dao",
];
const TEXT: &[&str] = &[
    "a quiet move",
    "threatens four",
    "黑方优势",
    "why not? (risky)",
    "it's 50/50: maybe",
];
const NON_RULE: [Reason; 8] = [
    Reason::Resignation,
    Reason::Time,
    Reason::Agreement,
    Reason::Adjudication,
    Reason::Crash,
    Reason::IllegalMove,
    Reason::Forfeit,
    Reason::Unknown,
];

fn pick<'a>(rng: &mut SplitMix64, from: &[&'a str]) -> &'a str {
    from[rng.below(from.len())]
}

fn chance(rng: &mut SplitMix64, n: usize) -> bool {
    rng.below(n) == 0
}

/// A random game of `G` from its start, or from a position a few random moves in (then a
/// set-up start), to its end or a ply limit, with random annotations and metadata.
fn random_record<G: Game>(kind: GameKind, seed: u64, sizes: &[Option<usize>]) -> GameRecord {
    let mut rng = SplitMix64::new(seed);
    let variant: G::Variant = pick(&mut rng, G::VARIANTS).parse().unwrap();
    let size = sizes[rng.below(sizes.len())];
    let mut pos = G::start(&variant, size).unwrap();
    let mut rec = GameRecord::new(kind);
    rec.variant = Some(variant.to_string());
    rec.size = size;
    let mut moves = Vec::new();
    if chance(&mut rng, 3) {
        for _ in 0..1 + rng.below(6) {
            moves.clear();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(&moves[rng.below(moves.len())]);
        }
        if pos.outcome().is_none() {
            let text = pos.to_text();
            pos = G::from_text(&variant, &text).unwrap();
            rec.start = Some(text);
        } else {
            pos = G::start(&variant, size).unwrap();
        }
    }
    let limit = 1 + rng.below(120);
    while pos.outcome().is_none() && rec.moves.len() < limit {
        moves.clear();
        pos.generate_moves(&mut moves);
        let mv = moves[rng.below(moves.len())].clone();
        let mut m = RecordedMove::new(pos.format_move(&mv));
        if chance(&mut rng, 2) {
            m.time_ms = Some(rng.below(100_000) as u64);
        }
        if chance(&mut rng, 4) {
            m.clock_ms = Some(rng.below(10_000_000) as u64);
        }
        if chance(&mut rng, 5) {
            m.comment = Some(pick(&mut rng, TEXT).to_string());
        }
        if chance(&mut rng, 4) {
            m.eval = Some(if chance(&mut rng, 4) {
                Score::Mate(rng.below(20) as i32 - 10)
            } else {
                Score::Units(rng.below(4000) as i32 - 2000)
            });
            if chance(&mut rng, 2) {
                m.depth = Some(rng.below(40) as u32);
            }
        }
        pos.play(&mv);
        rec.moves.push(m);
    }
    rec.result = match pos.outcome() {
        Some(o) => Some(o.into()),
        None if chance(&mut rng, 4) => None,
        None => {
            let reason = NON_RULE[rng.below(NON_RULE.len())];
            let winner = [None, Some(Side::Black), Some(Side::White)][rng.below(3)];
            let detail = if chance(&mut rng, 2) {
                pick(&mut rng, TEXT)
            } else {
                ""
            };
            Some(GameResult::new(winner, reason).with_detail(detail))
        }
    };
    for side in Side::BOTH {
        if chance(&mut rng, 5) {
            continue;
        }
        let name = pick(&mut rng, WORDS).to_string();
        let spec = chance(&mut rng, 2).then(|| format!("boyi:alphabeta?depth={}", rng.below(9)));
        *rec.player_mut(side) = Player { name, spec };
    }
    rec.date = match rng.below(4) {
        0 => None,
        1 => Some(
            Date::new(
                2000 + rng.below(30) as u16,
                1 + rng.below(12) as u8,
                1 + rng.below(28) as u8,
            )
            .unwrap(),
        ),
        2 => Some(Date::from_parts(Some(1990 + rng.below(40) as u16), None, None).unwrap()),
        _ => Some(Date::from_parts(Some(2019), Some(1 + rng.below(12) as u8), None).unwrap()),
    };
    if chance(&mut rng, 2) {
        rec.event = pick(&mut rng, WORDS).to_string() + " Open";
    }
    if chance(&mut rng, 2) {
        rec.round = (1 + rng.below(9)).to_string();
    }
    if chance(&mut rng, 2) {
        rec.site = pick(&mut rng, WORDS).to_string();
    }
    if chance(&mut rng, 2) {
        rec.tags
            .insert("Opening".into(), pick(&mut rng, TEXT).into());
    }
    if chance(&mut rng, 3) {
        rec.tags.insert("XQ".into(), "12".into());
    }
    rec
}

/// What `format` keeps of a checked record, `None` when its writer must refuse it.
fn kept(rec: &GameRecord, format: Format) -> Option<GameRecord> {
    let mut k = rec.clone();
    let drop_specs = |k: &mut GameRecord| k.players.iter_mut().for_each(|p| p.spec = None);
    let reason_only_by_rules = |k: &mut GameRecord| {
        if let Some(r) = &mut k.result {
            *r = GameResult::new(r.winner(), Reason::Unknown);
        }
    };
    let keep_moves = |k: &mut GameRecord, time: bool, comment: bool| {
        for m in &mut k.moves {
            *m = RecordedMove {
                time_ms: if time { m.time_ms } else { None },
                comment: if comment { m.comment.clone() } else { None },
                ..RecordedMove::new(m.text.clone())
            };
        }
    };
    match format {
        Format::Boyi => {}
        Format::Sgf => {
            // Stones and the side to move; not a pass count.
            if k.start
                .as_ref()
                .is_some_and(|t| t.split_whitespace().count() > 2)
            {
                return None;
            }
            drop_specs(&mut k);
            k.tags.clear();
        }
        Format::Psq => {
            if k.start.is_some() || k.moves.iter().any(|m| m.text == "pass") {
                return None;
            }
            drop_specs(&mut k);
            keep_moves(&mut k, true, false);
            for m in &mut k.moves {
                m.time_ms = Some(m.time_ms.unwrap_or(0));
            }
            k.result = None;
            k.date = None;
            (k.event, k.round, k.site) = Default::default();
            k.tags.clear();
        }
        Format::RenLib => {
            if k.start.is_some() || k.size.is_some() || k.moves.is_empty() {
                return None;
            }
            let moves = k.moves.clone();
            k = GameRecord::new(k.game);
            k.variant = rec.variant.clone();
            k.moves = moves;
            keep_moves(&mut k, false, true);
        }
        Format::C6 => {
            let default = <Connect6 as Game>::VARIANTS[0];
            if k.start.is_some() || k.size.is_some() || k.variant.as_deref() != Some(default) {
                return None;
            }
            drop_specs(&mut k);
            keep_moves(&mut k, false, false);
            reason_only_by_rules(&mut k);
            k.round.clear();
            k.tags.clear();
        }
        Format::Jiu => {
            if k.start.is_some() {
                return None;
            }
            drop_specs(&mut k);
            keep_moves(&mut k, false, false);
            k.tags
                .retain(|name, _| name.bytes().all(|b| b.is_ascii_uppercase()));
        }
        Format::Pgn | Format::PgnWxf | Format::PgnChinese => {
            drop_specs(&mut k);
            for m in &mut k.moves {
                if m.eval.is_none() {
                    m.depth = None;
                }
            }
        }
        Format::Xqf => {
            let start = k.start.clone().unwrap_or_default();
            let fields: Vec<&str> = start.split_whitespace().collect();
            if fields.get(4).is_some_and(|clock| *clock != "0") {
                return None;
            }
            let long = |s: &str, cap: usize| encoding_rs::GB18030.encode(s).0.len() > cap;
            if long(k.name(Side::Black), 15) || long(k.name(Side::White), 15) || long(&k.site, 15) {
                return None;
            }
            if k.start.is_some() {
                k.start = Some(format!("{} {} - - 0 1", fields[0], fields[1]));
            }
            drop_specs(&mut k);
            keep_moves(&mut k, false, true);
            reason_only_by_rules(&mut k);
            k.round.clear();
            k.tags
                .retain(|name, _| name == "Title" || name == "Comment");
        }
        Format::Arena => return None,
    }
    Some(check(&k).expect("what a format keeps is a game").record)
}

fn round_trip(rec: &GameRecord) -> Result<(), TestCaseError> {
    let checked = check(rec)
        .map_err(|e| TestCaseError::fail(e.to_string()))?
        .record;
    for &format in Format::for_game(rec.game) {
        let written = write(std::slice::from_ref(&checked), format);
        match kept(&checked, format) {
            None => prop_assert!(written.is_err(), "{format:?} must refuse {checked:?}"),
            Some(want) => {
                let bytes = written.map_err(|e| {
                    TestCaseError::fail(format!("{format:?} refused {checked:?}: {e}"))
                })?;
                let opts = ReadOptions {
                    variant: checked.variant.clone(),
                };
                let mut back = read(&bytes, format, &opts).map_err(|e| {
                    let shown = String::from_utf8_lossy(&bytes);
                    TestCaseError::fail(format!("{format:?}: {e}\n{shown}"))
                })?;
                prop_assert_eq!(back.len(), 1);
                let got = back.remove(0).record;
                prop_assert_eq!(
                    &got,
                    &want,
                    "{:?}\n{}",
                    format,
                    String::from_utf8_lossy(&bytes)
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn gomoku_games_round_trip(seed in any::<u64>()) {
        round_trip(&random_record::<Gomoku>(GameKind::Gomoku, seed, &[None, Some(9), Some(19)]))?;
    }

    #[test]
    fn connect6_games_round_trip(seed in any::<u64>()) {
        round_trip(&random_record::<Connect6>(GameKind::Connect6, seed, &[None, Some(15)]))?;
    }

    #[test]
    fn jiu_games_round_trip(seed in any::<u64>()) {
        round_trip(&random_record::<Jiu>(GameKind::Jiu, seed, &[None]))?;
    }

    #[test]
    fn xiangqi_games_round_trip(seed in any::<u64>()) {
        round_trip(&random_record::<Xiangqi>(GameKind::Xiangqi, seed, &[None]))?;
    }
}

/// Boyi's own text keeps what other formats cannot: line breaks, quotes and backslashes in
/// any field, comments of several lines.
#[test]
fn boyi_text_keeps_every_character() {
    let mut rec = random_record::<Gomoku>(GameKind::Gomoku, 7, &[None]);
    rec.set_name(Side::Black, "a \"quoted\"\nname \\ with [brackets]");
    rec.event = "line one\r\nline two".into();
    rec.tags.insert("Note".into(), "tab\there".into());
    if let Some(m) = rec.moves.first_mut() {
        m.comment = Some("first line\nsecond \\n literal; semicolon {braces}".into());
    }
    let checked = check(&rec).unwrap().record;
    let bytes = write(std::slice::from_ref(&checked), Format::Boyi).unwrap();
    let back = read(&bytes, Format::Boyi, &ReadOptions::default()).unwrap();
    assert_eq!(back[0].record, checked);
}
