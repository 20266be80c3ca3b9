//! What the server needs from each game beyond [`boyi_core::Game`]: the hints the page uses to
//! let a person pick a move by clicking (which points, paths or moves are legal now), and the
//! extra notations shown in the move list. Everything else is generic.

use boyi_core::{Game, Point};
use boyi_engines::GamePlayers;
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::Gomoku;
use boyi_games::jiu::Jiu;
use boyi_games::xiangqi::Xiangqi;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A game the server can host.
pub trait ServerGame: Game + GamePlayers {
    /// Board sizes the new-game form offers, default first (empty: the board is fixed).
    const SIZES: &'static [usize] = &[];

    /// What the page needs to offer the legal moves of this position by clicking.
    fn hints(&self) -> Value;

    /// Notations shown beside the canonical move text, as `(name, text)`.
    fn notations(&self, _mv: &Self::Move) -> Vec<(&'static str, String)> {
        Vec::new()
    }
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

    /// `points`: the points a stone may go on (renju's forbidden points left out); `pass`.
    fn hints(&self) -> Value {
        let texts = legal_texts(self);
        let pass = texts.iter().any(|t| t == "pass");
        let points: Vec<&String> = texts.iter().filter(|t| *t != "pass").collect();
        json!({ "points": points, "pass": pass })
    }
}

impl ServerGame for Connect6 {
    const SIZES: &'static [usize] = &[19, 15];

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
    /// `moves`: every legal move in ICCS coordinates (`h2e2`).
    fn hints(&self) -> Value {
        json!({ "moves": legal_texts(self) })
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
    fn xiangqi_moves_carry_wxf_and_chinese() {
        let pos = Xiangqi::start(&Default::default(), None).unwrap();
        assert_eq!(pos.hints()["moves"].as_array().unwrap().len(), 44);
        let mv = pos.parse_move("h2e2").unwrap();
        let n = pos.notations(&mv);
        assert_eq!(n[0], ("wxf", "C2.5".to_string()));
        assert_eq!(n[1].1, "炮二平五");
    }
}
