//! Levels for people: a few named strengths of each game's engine, weakest first. Each is a
//! built-in player spec whose budget is a search depth or a node count (no time), so a level
//! plays the same on a fast machine and a slow one, and is searched with no time limit
//! ([`Limits`] with neither time, depth nor nodes, which the engines read as "use the spec's
//! own budget").
//! Adjacent levels are meant to be at least 100 Elo apart; `scripts/levels-elo.sh` measures
//! it with `boyi match` at these specs (docs/server.md, "Levels"). The papers' players are
//! separate: `boyi:seedNNN`.
//!
//! [`Limits`]: crate::Limits

/// One level: its id (`beginner` … `master`) and the player spec it plays with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    pub id: &'static str,
    pub spec: &'static str,
}

const fn level(id: &'static str, spec: &'static str) -> Level {
    Level { id, spec }
}

// Depths 4 and 6 stood only 35 Elo above depth 2 (100 games each): the selective search's
// depth buys little strength a step, so the levels are far apart in depth. Depth 24 stood
// too little above depth 16 for 26 times its time a move (docs/server.md, "Levels"), so Gomoku
// has no master level.
const GOMOKU: &[Level] = &[
    level("beginner", "boyi:strong?depth=1,vct=0"),
    level("casual", "boyi:strong?depth=2"),
    level("club", "boyi:strong?depth=10"),
    level("expert", "boyi:strong?depth=16"),
];

// Depth 3 stood only 35 Elo above depth 2 (100 games), so the levels skip the odd depths.
const CONNECT6: &[Level] = &[
    level("beginner", "boyi:strong?depth=1"),
    level("casual", "boyi:strong?depth=2"),
    level("club", "boyi:strong?depth=4"),
    level("expert", "boyi:strong?depth=6"),
];

// Jiu's strength barely follows its search depth (depth 2, 3 and 4 stood no 100 Elo above
// depth 1), so its levels differ in how far its battle moves look past the depth and how
// many of them it weighs: the beginner plays its first-ordered battle move (one node) and
// places by each point's own value; the casual player searches every battle move one ply
// without captures beyond and checks its placements against the best answer; the club player
// gives 60 nodes to a battle move with one ply of captures beyond; the expert searches every
// battle move one ply with it (docs/server.md, "Levels").
const JIU: &[Level] = &[
    level("beginner", "boyi:strong?nodes=1,lookahead=0"),
    level("casual", "boyi:strong?depth=1,quiescence=0"),
    level("club", "boyi:strong?nodes=60,quiescence=1,lookahead=0"),
    level("expert", "boyi:strong?depth=1,quiescence=1,lookahead=0"),
];

const XIANGQI: &[Level] = &[
    level("beginner", "boyi:strong?depth=1"),
    level("casual", "boyi:strong?depth=3"),
    level("club", "boyi:strong?depth=5"),
    level("expert", "boyi:strong?depth=7"),
    level("master", "boyi:strong?depth=9"),
];

/// The levels of game `game` (`gomoku`, `connect6`, `jiu`, `xiangqi`), weakest first; empty
/// for a game without levels.
pub fn levels(game: &str) -> &'static [Level] {
    match game {
        "gomoku" => GOMOKU,
        "connect6" => CONNECT6,
        "jiu" => JIU,
        "xiangqi" => XIANGQI,
        _ => &[],
    }
}

/// The level offered first: the middle one.
pub fn default_level(game: &str) -> Option<&'static Level> {
    let all = levels(game);
    all.get(all.len() / 2)
}

/// The level `id` of `game`, or an error listing the levels.
pub fn find(game: &str, id: &str) -> Result<&'static Level, String> {
    let all = levels(game);
    all.iter().find(|l| l.id == id).ok_or_else(|| {
        let ids: Vec<&str> = all.iter().map(|l| l.id).collect();
        format!(
            "unknown level {id:?} for {game} (levels: {})",
            ids.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BuildContext, GamePlayers, build};
    use boyi_games::{connect6::Connect6, gomoku::Gomoku, jiu::Jiu, xiangqi::Xiangqi};

    fn builds<G: GamePlayers>() {
        let all = levels(G::NAME);
        assert!((4..=5).contains(&all.len()), "{}: 4 or 5 levels", G::NAME);
        for l in all {
            let body = l.spec.strip_prefix("boyi:").expect("a built-in player");
            build::<G>(body, BuildContext::default())
                .unwrap_or_else(|e| panic!("{} {}: {e}", G::NAME, l.id));
        }
        assert_eq!(default_level(G::NAME), all.get(all.len() / 2));
    }

    #[test]
    fn every_level_is_a_built_in_player() {
        builds::<Gomoku>();
        builds::<Connect6>();
        builds::<Jiu>();
        builds::<Xiangqi>();
        assert!(find("jiu", "grandmaster").unwrap_err().contains("beginner"));
        assert!(levels("chess").is_empty());
    }
}
