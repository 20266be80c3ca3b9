//! Replaying a record through the rules: every move is parsed and checked in its position;
//! the first illegal one is reported with its ply number (counted from 1) and the reason.

use crate::record::{GameRecord, GameResult};
use boyi_core::{Game, Reason, TextError, text_err};
use boyi_games::with_game;

/// A record replayed in one game's rules.
#[derive(Debug, Clone)]
pub struct Replay<G: Game> {
    pub start: G,
    pub moves: Vec<G::Move>,
    /// The position after the last move (with its history).
    pub end: G,
}

/// The start position a record describes.
pub fn start_position<G: Game>(rec: &GameRecord) -> Result<G, TextError> {
    let variant: G::Variant = match &rec.variant {
        Some(v) => v.parse().map_err(|e: TextError| e.context("variant"))?,
        None => G::Variant::default(),
    };
    let pos = match &rec.start {
        Some(text) => G::from_text(&variant, text).map_err(|e| e.context("start position"))?,
        None => G::start(&variant, rec.size).map_err(|e| e.context("board size"))?,
    };
    Ok(pos)
}

/// Replays every move of `rec`.
pub fn replay<G: Game>(rec: &GameRecord) -> Result<Replay<G>, TextError> {
    let start: G = start_position(rec)?;
    let mut end = start.clone();
    let mut moves = Vec::with_capacity(rec.moves.len());
    for (i, m) in rec.moves.iter().enumerate() {
        let mv = end
            .parse_move(&m.text)
            .map_err(|e| e.context(format!("ply {} ({:?})", i + 1, m.text)))?;
        end.play(&mv);
        moves.push(mv);
    }
    Ok(Replay { start, moves, end })
}

/// A record that passed replay, with what the database and books need.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The record with canonical move text, variant name and (if the rules ended the game
    /// and the record said nothing) the rules' result.
    pub record: GameRecord,
    /// The hash of every position: before the first move, then after each move.
    pub hashes: Vec<u64>,
    /// The position text after the last move.
    pub final_text: String,
}

/// Replays `rec`, rewrites its moves canonically and checks its result against the rules.
pub fn check(rec: &GameRecord) -> Result<Checked, TextError> {
    with_game!(rec.game, G => check_in::<G>(rec))?
}

fn check_in<G: Game>(rec: &GameRecord) -> Result<Checked, TextError> {
    let start: G = start_position(rec)?;
    let mut pos = start.clone();
    let mut out = rec.clone();
    let mut hashes = Vec::with_capacity(rec.moves.len() + 1);
    hashes.push(pos.hash());
    for (i, m) in out.moves.iter_mut().enumerate() {
        let mv = pos
            .parse_move(&m.text)
            .map_err(|e| e.context(format!("ply {} ({:?})", i + 1, m.text)))?;
        m.text = pos.format_move(&mv);
        pos.play(&mv);
        hashes.push(pos.hash());
    }
    out.variant = Some(pos.variant().to_string());
    if out.start.is_some() {
        out.start = Some(start.to_text());
        (out.start, out.size) = plain_start(&start);
    }
    match (pos.outcome(), &mut out.result) {
        (Some(o), None) => out.result = Some(GameResult::from(o)),
        (Some(o), Some(r)) if r.winner() != o.winner => {
            return Err(text_err!(
                "the record says {} but the final position is {o}",
                describe(r)
            ));
        }
        (Some(o), Some(r)) if r.reason() == Reason::Unknown && r.detail.is_empty() => {
            r.outcome.reason = o.reason;
        }
        _ => {}
    }
    Ok(Checked {
        record: out,
        hashes,
        final_text: pos.to_text(),
    })
}

/// The header of a game played from `start`: the game, its rules, and the start as a record
/// says it (no set-up for a rules' start of any size).
pub fn header_for<G: Game>(start: &G) -> Result<GameRecord, TextError> {
    let kind: boyi_games::GameKind = G::NAME.parse()?;
    let mut rec = GameRecord::new(kind);
    rec.variant = Some(start.variant().to_string());
    (rec.start, rec.size) = plain_start(start);
    Ok(rec)
}

/// A start position text that is the rules' own start on some board size is no set-up: it
/// is said as that size instead (`None`: the default), which every format can hold. A set-up
/// start says its board size itself.
fn plain_start<G: Game>(start: &G) -> (Option<String>, Option<usize>) {
    let text = start.to_text();
    let same = |n: Option<usize>| G::start(start.variant(), n).is_ok_and(|p| p.to_text() == text);
    if same(None) {
        return (None, None);
    }
    match crate::grid::read_setup(&text).map(|s| s.size) {
        Ok(n) if same(Some(n)) => (None, Some(n)),
        _ => (Some(text), None),
    }
}

fn describe(r: &GameResult) -> String {
    match r.winner() {
        Some(_) => format!("{} wins", r.winner_word()),
        None => "a draw".to_string(),
    }
}
