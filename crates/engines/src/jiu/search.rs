//! Battle search of `boyi:strong`: PVS with iterative deepening, the shared transposition
//! table (a move kept as its place in the node's move generation), captures ordered by value
//! and a quiescence search over jumps and squares.
//!
//! Square captures are chosen by [`eval::capture_value`] (the best pieces to remove), not
//! enumerated as every subset, and inside the tree a flying side only considers flights that
//! complete a square or build on its doors (the root considers all of them).

use super::board::{Base, Board, CaptureOrder, EMPTY, Move};
use super::eval;
use crate::search::TimeManager;
use crate::search::score::{INF, MATE, MATE_BOUND};
use crate::search::tt::{Bound, Entry, Table, TtMove};
use boyi_games::jiu::FLY_LIMIT;
use boyi_games::jiu::board::{BLOCKS, NONE, POINTS, adjacent};
/// Quiescence plies by default, and the most a spec may ask for.
pub const MAX_QS: u32 = 6;
/// Captures searched per quiescence node, most pieces taken first.
const QS_WIDTH: usize = 6;
/// Flights kept per node inside the tree (besides those completing squares).
const FLIGHTS: usize = 12;

/// A move as the table keeps it: its place in the node's move generation (the same position
/// always generates the same moves in the same order), counted from 1; 0 is no move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Generated(u16);

impl TtMove for Generated {
    fn to_bits(self) -> u32 {
        self.0 as u32
    }

    fn from_bits(bits: u32) -> Generated {
        Generated(bits as u16)
    }
}

impl Generated {
    fn of(index: usize) -> Generated {
        Generated(u16::try_from(index + 1).unwrap_or(0))
    }

    fn index(self) -> Option<usize> {
        (self.0 as usize).checked_sub(1)
    }
}

pub struct Engine {
    tt: Table<Generated>,
    pub nodes: u64,
    aborted: bool,
    /// Plies of captures searched beyond the depth.
    max_qs: i32,
}

/// The result of one finished iteration.
#[derive(Clone, Copy, Debug)]
pub struct Found {
    pub best: Move,
    pub value: i32,
    pub depth: u32,
}

impl Engine {
    /// An engine with a table of about `mb` megabytes.
    pub fn new(mb: usize) -> Engine {
        Engine::with_quiescence(mb, MAX_QS)
    }

    /// An engine that searches at most `plies` of captures beyond its depth (0: none, so
    /// a capture just out of sight is missed).
    pub fn with_quiescence(mb: usize, plies: u32) -> Engine {
        Engine {
            tt: Table::new(mb),
            nodes: 0,
            aborted: false,
            max_qs: plies.min(MAX_QS) as i32,
        }
    }

    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Iterative deepening to `max_depth`, calling `report` after each finished iteration.
    pub fn search(
        &mut self,
        b: &mut Board,
        max_depth: u32,
        time: &TimeManager,
        report: &mut dyn FnMut(&Found, u64),
    ) -> Option<Found> {
        self.nodes = 0;
        self.aborted = false;
        self.tt.new_search();
        let mut root = self.moves(b, true, None);
        if root.is_empty() {
            return None;
        }
        let mut best: Option<Found> = None;
        for depth in 1..=max_depth {
            let (value, idx) = self.root(b, &root, depth as i32, time);
            if self.aborted {
                // A partial iteration whose first (previous best) move was searched still
                // improves on nothing; keep the last finished result.
                if best.is_none() {
                    best = Some(Found {
                        best: root[idx],
                        value,
                        depth,
                    });
                }
                break;
            }
            let mv = root.remove(idx);
            root.insert(0, mv);
            let found = Found {
                best: mv,
                value,
                depth,
            };
            report(&found, self.nodes);
            best = Some(found);
            if value.abs() >= MATE_BOUND || !time.within_optimum() {
                break;
            }
        }
        best
    }

    fn root(
        &mut self,
        b: &mut Board,
        moves: &[Move],
        depth: i32,
        dl: &TimeManager,
    ) -> (i32, usize) {
        let mut alpha = -INF;
        let mut best = 0;
        for (i, mv) in moves.iter().enumerate() {
            let quiet = b.quiet;
            b.make(mv);
            let v = if i == 0 {
                -self.pvs(b, depth - 1, 1, -INF, -alpha, dl)
            } else {
                let mut v = -self.pvs(b, depth - 1, 1, -alpha - 1, -alpha, dl);
                if v > alpha && !self.aborted {
                    v = -self.pvs(b, depth - 1, 1, -INF, -alpha, dl);
                }
                v
            };
            b.unmake(mv, quiet);
            if self.aborted {
                break;
            }
            if v > alpha {
                alpha = v;
                best = i;
            }
        }
        (alpha, best)
    }

    fn pvs(
        &mut self,
        b: &mut Board,
        depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        dl: &TimeManager,
    ) -> i32 {
        self.nodes += 1;
        if dl.must_stop(self.nodes) {
            self.aborted = true;
            return 0;
        }
        if let Some(v) = terminal(b, ply) {
            return v;
        }
        if b.repeated() {
            return 0;
        }
        if depth <= 0 {
            return self.quiesce(b, ply, 0, alpha, beta, dl);
        }
        let mut hint = None;
        if let Some(e) = self.tt.probe(b.hash, ply) {
            hint = e.mv.index();
            if e.depth >= depth && e.bound.cuts(e.score, alpha, beta) {
                return e.score;
            }
        }
        let moves = self.generated(b, false, hint);
        if moves.is_empty() {
            return -(MATE - ply);
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_mv = moves[0].0;
        for (i, (index, mv)) in moves.iter().enumerate() {
            let quiet = b.quiet;
            b.make(mv);
            let v = if i == 0 {
                -self.pvs(b, depth - 1, ply + 1, -beta, -alpha, dl)
            } else {
                let mut v = -self.pvs(b, depth - 1, ply + 1, -alpha - 1, -alpha, dl);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.pvs(b, depth - 1, ply + 1, -beta, -alpha, dl);
                }
                v
            };
            b.unmake(mv, quiet);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_mv = *index;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let key = b.hash;
        let entry = Entry {
            mv: Generated::of(best_mv),
            score: best,
            eval: 0,
            depth,
            bound,
            pv: false,
        };
        self.tt.store(key, ply, entry);
        best
    }

    fn quiesce(
        &mut self,
        b: &mut Board,
        ply: i32,
        qply: i32,
        mut alpha: i32,
        beta: i32,
        dl: &TimeManager,
    ) -> i32 {
        self.nodes += 1;
        if dl.must_stop(self.nodes) {
            self.aborted = true;
            return 0;
        }
        if let Some(v) = terminal(b, ply) {
            return v;
        }
        let stand = eval::battle(b);
        if stand >= beta || qply >= self.max_qs {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut all = Vec::new();
        b.capture_bases(&mut all);
        // Most pieces taken first; square captures are chosen only for the moves kept.
        all.sort_by_key(|base| -((base.jumped.len() + base.squares as usize) as i32));
        all.truncate(QS_WIDTH);
        let mut order = CaptureOrder::default();
        if all.iter().any(|base| base.squares > 0) {
            order.fill(b, eval::capture_value);
        }
        let caps: Vec<Move> = all.iter().map(|base| order.apply(base)).collect();
        for mv in &caps {
            let quiet = b.quiet;
            b.make(mv);
            let v = -self.quiesce(b, ply + 1, qply + 1, -beta, -alpha, dl);
            b.unmake(mv, quiet);
            if self.aborted {
                return 0;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }

    /// The moves searched at a node, best first: the hint (a place in the generation order),
    /// then by pieces taken, then quiet moves that build doors.
    pub fn moves(&self, b: &mut Board, root: bool, hint: Option<usize>) -> Vec<Move> {
        let moves = self.generated(b, root, hint);
        moves.into_iter().map(|(_, m)| m).collect()
    }

    /// [`Engine::moves`], each with its place in the generation order.
    fn generated(&self, b: &mut Board, root: bool, hint: Option<usize>) -> Vec<(usize, Move)> {
        let mut bases = Vec::new();
        b.bases(&mut bases);
        let flying = b.pieces(b.side) <= FLY_LIMIT;
        if flying && !root {
            prune_flights(b, &mut bases);
        }
        let mut order = CaptureOrder::default();
        if bases.iter().any(|base| base.squares > 0) {
            order.fill(b, eval::capture_value);
        }
        let mut scored: Vec<(i32, usize, Move)> = bases
            .iter()
            .enumerate()
            .map(|(i, base)| {
                let mv = order.apply(base);
                let mut s = mv.taken() as i32 * 1000 + quiet_score(b, base);
                if hint == Some(i) {
                    s += 1_000_000;
                }
                (s, i, mv)
            })
            .collect();
        scored.sort_by_key(|(s, _, _)| -s);
        scored.into_iter().map(|(_, i, m)| (i, m)).collect()
    }
}

/// Keeps the flights that complete squares and the few best other flights. A flight's
/// score is [`quiet_score`] read from a table of [`around`] values made once per node, and
/// only the best [`FLIGHTS`] are sorted (ties in generation order, as a stable sort).
fn prune_flights(b: &Board, bases: &mut Vec<Base>) {
    let is_flight = |x: &Base| x.jumped.is_empty() && !adjacent(x.from, x.to);
    let mut table = [0i32; POINTS];
    for (p, t) in table.iter_mut().enumerate() {
        *t = around(b, p as u8);
    }
    let mut flights: Vec<(i32, usize, Base)> = bases
        .iter()
        .filter(|x| is_flight(x) && x.squares == 0)
        .enumerate()
        .map(|(i, x)| (-(table[x.to as usize] - table[x.from as usize] / 2), i, *x))
        .collect();
    if flights.len() > FLIGHTS {
        flights.select_nth_unstable_by_key(FLIGHTS, |&(s, i, _)| (s, i));
        flights.truncate(FLIGHTS);
    }
    flights.sort_unstable_by_key(|&(s, i, _)| (s, i));
    bases.retain(|x| !is_flight(x) || x.squares > 0);
    bases.extend(flights.into_iter().map(|(_, _, x)| x));
}

/// Own pieces around `p`'s blocks that hold no enemy piece (`p` itself not counted):
/// 1, 4, 20 for one, two, three of them.
fn around(b: &Board, p: u8) -> i32 {
    let me = b.side;
    BLOCKS[p as usize]
        .iter()
        .filter(|bl| bl[0] != NONE)
        .map(|bl| {
            let own = bl
                .iter()
                .filter(|&&q| q != p && b.cells[q as usize] == me)
                .count();
            let foe = bl
                .iter()
                .filter(|&&q| b.cells[q as usize] != me && b.cells[q as usize] != EMPTY)
                .count();
            if foe == 0 { [0, 1, 4, 20][own] } else { 0 }
        })
        .sum()
}

/// How much a move without captures builds: own pieces around the landing's blocks, minus
/// those it leaves at the origin.
fn quiet_score(b: &Board, base: &Base) -> i32 {
    base.squares as i32 * 500 + around(b, base.to) - around(b, base.from) / 2
}

/// The value of a position ended by rule, from the side to move.
fn terminal(b: &Board, ply: i32) -> Option<i32> {
    match b.ended()? {
        EMPTY => Some(0),
        loser if loser == b.side => Some(-(MATE - ply)),
        _ => Some(MATE - ply),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{Limits, StopFlag};
    use boyi_core::{Game, NoVariant, Side};
    use boyi_games::jiu::Jiu;

    #[test]
    fn a_win_stored_at_one_ply_keeps_its_distance_when_met_at_another() {
        // Black to move completes the square c10 d10 c11 d11, and white, left with three
        // pieces, loses: a win one ply from this position.
        let text = "14/14/14/2xx10/3x10/2x11/14/14/14/14/5oooo5/14/14/14 b battle 196 0";
        let pos = Jiu::from_text(&NoVariant, text).unwrap();
        let mut b = Board::from_game(&pos);
        let dl = TimeManager::new(&Limits::default(), Side::Black, &StopFlag::new(), 1);
        let mut engine = Engine::new(1);
        // Reached three plies below the root, the win comes at ply 4.
        assert_eq!(engine.pvs(&mut b, 1, 3, -INF, INF, &dl), MATE - 4);
        // Reached one ply below the root, the stored result must say ply 2, not 4.
        assert_eq!(engine.pvs(&mut b, 1, 1, -INF, INF, &dl), MATE - 2);
        let nodes = engine.nodes;
        assert_eq!(engine.pvs(&mut b, 1, 1, -INF, INF, &dl), MATE - 2);
        assert_eq!(
            engine.nodes,
            nodes + 1,
            "the second answer came from the table"
        );
    }
}
