//! What the server needs from each game beyond [`boyi_core::Game`]: the hints the page uses to
//! let a person pick a move by clicking (which points, paths or moves are legal now), the
//! signals it shows (check, forbidden points), the extra notations shown in the move list,
//! and how its engines' scores turn into an expected result. Everything else is generic.

use boyi_core::{Game, Point, Side};
use boyi_engines::{GamePlayers, Score};
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::{Gomoku, Variant as GomokuVariant};
use boyi_games::jiu::Jiu;
use boyi_games::xiangqi::Xiangqi;
use boyi_games::xiangqi::fen::square_name;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A game the server can host.
pub trait ServerGame: Game + GamePlayers {
    /// Board sizes the new-game form offers, default first (empty: the board is fixed).
    const SIZES: &'static [usize] = &[];

    /// The engine score (in the game's units, from the mover's view) at which the mover's
    /// expected result is 73% (1/(1+e⁻¹)): each game's typical margin of a clear advantage,
    /// set by hand from its engines' scores (not fitted to game results).
    const SCORE_SCALE: f64;

    /// What the page needs to offer the legal moves of this position by clicking.
    fn hints(&self) -> Value;

    /// The square of the side to move's king when it is in check.
    fn check(&self) -> Option<String> {
        None
    }

    /// Notations shown beside the canonical move text, as `(name, text)`.
    fn notations(&self, _mv: &Self::Move) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// A line of moves from this position (canonical texts) in Chinese notation, where the
    /// game has one; `None` otherwise or when a move does not parse.
    fn line_chinese(&self, _line: &[String]) -> Option<Vec<String>> {
        None
    }
}

/// The mover's expected result (0 to 1) from an engine score in its view.
pub fn expected<G: ServerGame>(score: Score) -> f64 {
    match score {
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
        Score::Units(v) => 1.0 / (1.0 + (-(v as f64) / G::SCORE_SCALE).exp()),
    }
}

/// Black's expected result from a score in the view of `mover`, to three decimals.
pub fn black_expected<G: ServerGame>(score: Score, mover: Side) -> f64 {
    let p = expected::<G>(score);
    let p = if mover == Side::Black { p } else { 1.0 - p };
    (p * 1000.0).round() / 1000.0
}

/// The canonical texts of every legal move.
fn legal_texts<G: Game>(pos: &G) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .map(|m| pos.format_move(m))
        .collect()
}

impl ServerGame for Gomoku {
    const SIZES: &'static [usize] = &[15, 19, 20, 13, 9];
    const SCORE_SCALE: f64 = 400.0;

    /// `points`: the points a stone may go on (renju's forbidden points left out); `pass`;
    /// in renju with black to move, `forbidden`: each forbidden point with its shape.
    fn hints(&self) -> Value {
        let texts = legal_texts(self);
        let pass = texts.iter().any(|t| t == "pass");
        let points: Vec<&String> = texts.iter().filter(|t| *t != "pass").collect();
        let mut v = json!({ "points": points, "pass": pass });
        if self.variant() == &GomokuVariant::Renju && self.side_to_move() == Side::Black {
            let forbidden: Vec<Value> = self
                .board()
                .empty_points()
                .filter_map(|p| {
                    self.forbidden(p)
                        .map(|f| json!({"point": p.to_string(), "reason": f.name()}))
                })
                .collect();
            v["forbidden"] = forbidden.into();
        }
        v
    }
}

impl ServerGame for Connect6 {
    const SIZES: &'static [usize] = &[19, 15];
    const SCORE_SCALE: f64 = 300.0;

    /// `stones`: stones this turn (1 or 2); `single`: empty points whose stone wins alone and
    /// so is a whole turn by itself. Any empty point is otherwise playable.
    fn hints(&self) -> Value {
        if self.outcome().is_some() {
            return json!({ "stones": 0, "single": [] });
        }
        let empties: Vec<Point> = self.board().empty_points().collect();
        let stones = if empties.len() == 1 {
            1
        } else {
            self.stones_this_turn()
        };
        let single: Vec<String> = if stones == 2 {
            empties
                .iter()
                .filter(|&&p| self.wins_alone(p))
                .map(|p| p.to_string())
                .collect()
        } else {
            Vec::new()
        };
        json!({ "stones": stones, "single": single })
    }
}

impl ServerGame for Jiu {
    /// Five pieces' worth (a piece is 100).
    const SCORE_SCALE: f64 = 500.0;

    /// Placement: `points`. Battle: `paths`, each a move's path (`g6-g8`, `c3*k9`) with the
    /// number of enemy pieces its squares remove (`captures`), chosen by the mover.
    fn hints(&self) -> Value {
        let texts = legal_texts(self);
        if texts.iter().all(|t| !t.contains('-') && !t.contains('*')) {
            return json!({ "points": texts });
        }
        let mut paths: BTreeMap<String, usize> = BTreeMap::new();
        for t in &texts {
            let mut parts = t.split(" x ");
            let path = parts.next().unwrap_or_default().to_string();
            let n = parts.count();
            let e = paths.entry(path).or_insert(0);
            *e = (*e).max(n);
        }
        let paths: Vec<Value> = paths
            .into_iter()
            .map(|(path, captures)| json!({ "path": path, "captures": captures }))
            .collect();
        json!({ "paths": paths })
    }
}

impl ServerGame for Xiangqi {
    /// Centipawns: three pawns' worth.
    const SCORE_SCALE: f64 = 300.0;

    /// `moves`: every legal move in ICCS coordinates (`h2e2`).
    fn hints(&self) -> Value {
        json!({ "moves": legal_texts(self) })
    }

    fn check(&self) -> Option<String> {
        let b = self.board();
        b.in_check()
            .then(|| square_name(b.king(self.side_to_move().index())))
    }

    fn line_chinese(&self, line: &[String]) -> Option<Vec<String>> {
        let mut pos = self.clone();
        line.iter()
            .map(|text| {
                let mv = pos.parse_move(text).ok()?;
                let chinese = pos.format_chinese(&mv);
                pos.play(&mv);
                Some(chinese)
            })
            .collect()
    }

    fn notations(&self, mv: &Self::Move) -> Vec<(&'static str, String)> {
        vec![
            ("wxf", self.format_wxf(mv)),
            ("chinese", self.format_chinese(mv)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect6_hints_follow_the_turn() {
        let v = Default::default();
        let mut pos = Connect6::start(&v, None).unwrap();
        assert_eq!(pos.hints()["stones"], 1);
        pos.play_list("j10").unwrap();
        assert_eq!(pos.hints()["stones"], 2);
        assert_eq!(pos.hints()["single"].as_array().unwrap().len(), 0);
    }

    #[test]
    fn renju_hints_name_forbidden_points_and_xiangqi_names_the_king_in_check() {
        let renju: GomokuVariant = "renju".parse().unwrap();
        // Black f7 g7 across and h8 h9 down: h7 would make two open threes.
        let mut pos = Gomoku::start(&renju, None).unwrap();
        pos.play_list("f7,a1,g7,a2,h9,a3,h8,b1").unwrap();
        let h = pos.hints();
        let forbidden = h["forbidden"].as_array().unwrap();
        assert!(
            forbidden
                .iter()
                .any(|f| f["point"] == "h7" && f["reason"] == "double-three"),
            "{h}"
        );
        assert!(!h["points"].as_array().unwrap().iter().any(|p| p == "h7"));
        let free = Gomoku::start(&Default::default(), None).unwrap();
        assert!(free.hints().get("forbidden").is_none());
        let mut xq = Xiangqi::start(&Default::default(), None).unwrap();
        assert_eq!(xq.check(), None);
        xq.play_list("h2e2,a9a8,e2e6,a8a9").unwrap();
        assert_eq!(xq.check(), None, "red's cannon screened by the pawn");
        let xq =
            Xiangqi::from_text(&Default::default(), "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1").unwrap();
        assert_eq!(xq.check().as_deref(), Some("e9"));
        let line = ["e9f9".to_string(), "e1e2".to_string()];
        assert_eq!(xq.line_chinese(&line).unwrap().len(), 2);
        assert!(xq.line_chinese(&["a0a1".to_string()]).is_none());
    }

    #[test]
    fn scores_become_expected_results() {
        assert_eq!(expected::<Xiangqi>(Score::Mate(3)), 1.0);
        assert_eq!(expected::<Xiangqi>(Score::Mate(-1)), 0.0);
        assert!((expected::<Xiangqi>(Score::Units(0)) - 0.5).abs() < 1e-9);
        let p = expected::<Jiu>(Score::Units(500));
        assert!((p - 0.731).abs() < 0.001, "{p}");
    }

    #[test]
    fn xiangqi_moves_carry_wxf_and_chinese() {
        let pos = Xiangqi::start(&Default::default(), None).unwrap();
        assert_eq!(pos.hints()["moves"].as_array().unwrap().len(), 44);
        let mv = pos.parse_move("h2e2").unwrap();
        let n = pos.notations(&mv);
        assert_eq!(n[0], ("wxf", "C2.5".to_string()));
        assert_eq!(n[1].1, "炮二平五");
    }
}
