//! The selective search (`algo=2`): principal variation search in fractional plies, in the
//! manner of the strongest alpha-beta Gomoku programs. Depth falls by a ply a move, and by
//! more for a late move (log depth × log move count, less for a good history, more at a
//! node expected to fail high); a forced answer to a four and the only good move (a singular
//! extension) are searched deeper. Near the leaves, moves past a count growing with the
//! depth are skipped, and so are moves that make no shape for either side. At the leaves a
//! VCF quiescence plays on the side to move's fours near its last stone, each answered by
//! its forced block, and stands pat on the static value otherwise. Wins the threat counts
//! show (a five, a straight four, an unanswerable four-three or double three) end a node at
//! once.

use super::{Cell, Engine, INF, MAX_PLY, WIN_BOUND, defends};
use crate::alphabeta::MATE;
use crate::gomoku::board::EngineBoard;
use crate::gomoku::learned::{ShapeTable, shape, shape_table};
use crate::gomoku::move_policy::PolicyScorer;
use crate::gomoku::pattern::Threat;
use crate::gomoku::threat::{fives, has_open_three};
use boyi_core::Side;
use boyi_games::gomoku::Variant;

/// Plies, in fractions.
type Depth = f32;

/// No move; in a frame also a pass.
mod prune;
mod quiescence;
mod tables;

use prune::*;
use tables::tt_refines;

pub(super) const NONE: usize = usize::MAX;
/// Frames before the root's, so that a node may look four plies back.
const BACK: usize = 4;
/// Entries of the reduction table (by depth and by move count).
const LMR_SIZE: usize = 256;
/// The history's bound (the gravity of each update is its bonus over this).
const HIST_RANGE: i32 = 10_692;

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// Per ply of the search: what the node at that ply knows of itself and of the move it is
/// searching.
#[derive(Debug, Clone, Copy)]
struct Frame {
    /// The node's static value (for the side to move there).
    eval: i32,
    /// The move being searched from the node (`NONE`: none, or a pass).
    mv: usize,
    /// That move's shape for each side (by side index).
    shape: [u8; 2],
    killers: [usize; 2],
    /// Whether the node is or was on the principal variation.
    tt_pv: bool,
    /// Extensions beyond one ply a move along the path to the node.
    extra: f32,
    /// The history score of the move being searched.
    stat: i32,
    /// The move a singular-extension test leaves out.
    skip: usize,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            eval: 0,
            mv: NONE,
            shape: [0; 2],
            killers: [NONE; 2],
            tt_pv: false,
            extra: 0.0,
            stat: 0,
            skip: NONE,
        }
    }
}

/// The selective search's state between nodes and between searches.
pub(super) struct State {
    stack: Vec<Frame>,
    /// Per point and side: how often a move there was best (attacks and quiet moves kept
    /// apart), with gravity.
    hist: Vec<[[i16; 2]; 2]>,
    /// Per point and side of a move: the answer that was best after it, and its shape.
    counter: Vec<[(usize, u8); 2]>,
    /// `ln n` scaled by the rule's factor, for late move reductions.
    lmr: [f32; LMR_SIZE],
    /// The root's window width, and its alpha, of the present pass.
    root_delta: i32,
    root_alpha: i32,
    /// The value of the last finished iteration (for the aspiration window).
    last: Option<i32>,
    shapes: &'static ShapeTable,
}

impl State {
    pub(super) fn new() -> State {
        State {
            stack: vec![Frame::default(); MAX_PLY + BACK + 2],
            hist: Vec::new(),
            counter: Vec::new(),
            lmr: [0.0; LMR_SIZE],
            root_delta: 1,
            root_alpha: -INF,
            last: None,
            shapes: shape_table(),
        }
    }
}

/// The key of a node searched without move `m` (a singular-extension test), so its result
/// does not take the place of the node's own.
fn skip_key(m: usize) -> u64 {
    (m as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The king-move distance of two points (`None`: no such point, counted far).
fn distance(b: &EngineBoard, a: usize, c: usize) -> i32 {
    if a == NONE || c == NONE {
        return i32::MAX;
    }
    let (p, q) = (b.point(a), b.point(c));
    i32::from(p.col.abs_diff(q.col).max(p.row.abs_diff(q.row)))
}

impl Engine {
    /// Prepares the selective search for a new search of `b`: the frames, the history (halved)
    /// and the reduction table of the rule.
    pub(super) fn selective_start(&mut self, b: &mut EngineBoard) {
        let cells = b.points.last().map_or(0, |&i| i + 1);
        let s = &mut self.sel;
        s.stack.iter_mut().for_each(|f| *f = Frame::default());
        s.hist.resize(cells, [[0; 2]; 2]);
        s.hist.iter_mut().flatten().flatten().for_each(|h| *h /= 2);
        s.counter.resize(cells, [(NONE, 0); 2]);
        s.last = None;
        let factor = match b.rule() {
            Variant::Freestyle => 1.0,
            Variant::Standard => 0.78,
            Variant::Renju => 0.75,
        };
        for (n, r) in s.lmr.iter_mut().enumerate().skip(1) {
            *r = factor * (n as f32).ln();
        }
        // The root's frame, and the two moves before it for the distances.
        let eval = self.static_value(b);
        let s = &mut self.sel;
        s.stack[BACK].eval = eval;
        s.stack[BACK - 1].eval = -eval;
        s.stack[BACK - 1].mv = b.recent(0).unwrap_or(NONE);
        s.stack[BACK - 2].mv = b.recent(1).unwrap_or(NONE);
        s.stack[BACK - 2].eval = eval;
    }

    /// The extension of a late move that failed high on its reduced search, `above` alpha
    /// and `over` the node's best so far.
    fn lmr_extension(&self, new_depth: Depth, searched: Depth, above: i32, over: i32) -> f32 {
        let gap = new_depth - searched;
        let deeper = above > self.unit(34 + (11.0 * gap) as i32);
        let even_deeper = above > self.unit(349 + (26.0 * gap) as i32);
        let shallower = over < self.unit(new_depth as i32);
        f32::from(u8::from(deeper)) + f32::from(u8::from(even_deeper))
            - f32::from(u8::from(shallower))
    }

    /// A margin given on the reference scale (200 a logit) on the evaluation's
    /// (`Config::margin_scale`).
    #[inline]
    fn unit(&self, v: i32) -> i32 {
        v * self.config.margin_scale / 100
    }

    #[inline]
    fn frame(&mut self, ply: usize) -> &mut Frame {
        &mut self.sel.stack[ply + BACK]
    }

    /// The frame `back` plies before `ply`'s.
    #[inline]
    fn before(&self, ply: usize, back: usize) -> &Frame {
        &self.sel.stack[ply + BACK - back]
    }

    #[inline]
    fn shape(&self, b: &EngineBoard, i: usize, s: Side) -> u8 {
        self.sel.shapes.at(b.fit_key(i, s))
    }

    /// Both sides' shapes at point `m`, by side index.
    #[inline]
    fn shapes(&self, b: &EngineBoard, m: usize) -> [u8; 2] {
        [self.shape(b, m, Side::Black), self.shape(b, m, Side::White)]
    }

    /// Records in `ply`'s frame the move searched from it and its shapes.
    #[inline]
    fn set_move(&mut self, ply: usize, m: usize, shapes: [u8; 2]) {
        let f = self.frame(ply);
        f.mv = m;
        f.shape = shapes;
    }

    /// What every node does first: clears its principal variation, counts itself, and
    /// ends on a stop (0) or a game already won (the side to move lost).
    #[inline]
    fn enter_node(&mut self, b: &EngineBoard, ply: usize, pv: bool) -> Option<i32> {
        if pv {
            self.pv_table.clear(ply);
        }
        if self.tick() {
            return Some(0);
        }
        b.winner().is_some().then(|| -(MATE - ply as i32))
    }

    /// A node's value when nothing is left to search: a full board, the ply limit, or a
    /// win the threat counts show.
    #[inline]
    fn settled(&mut self, b: &mut EngineBoard, ply: usize) -> Option<i32> {
        if b.is_full() {
            return Some(0);
        }
        if ply >= MAX_PLY - 2 {
            return Some(self.static_value(b));
        }
        self.quick_win(b, ply)
    }

    /// Counts a node; whether the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if !self.aborted
            && self
                .deadline
                .as_ref()
                .is_some_and(|d| d.reached(self.nodes))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// One iteration of the selective search over the root moves (the previous best first),
    /// inside an aspiration window around the last iteration's value from depth 5. Moves
    /// found lost go to the end. Returns the best value and how many moves were searched.
    pub(super) fn selective_root(
        &mut self,
        b: &mut EngineBoard,
        moves: &mut [usize],
        depth: i32,
    ) -> (i32, usize) {
        if let Some(&pv) = self.pv_table.root_line().first()
            && let Some(k) = moves.iter().position(|&m| m == pv)
        {
            moves[..=k].rotate_right(1);
        }
        let depth = depth as Depth;
        let mut delta = self.unit(16);
        let (mut alpha, mut beta) = match self.sel.last {
            Some(v) if depth >= 5.0 && v.abs() < WIN_BOUND => (v - delta, v + delta),
            _ => (-INF, INF),
        };
        let mut fail_highs = 0;
        loop {
            let d = (depth - (fail_highs / 3) as f32).max(1.0);
            let (v, searched, lost) = self.root_pass(b, moves, d, alpha, beta);
            if self.aborted || (alpha == -INF && beta == INF) {
                self.finish_root(moves, &lost, v);
                return (v, searched);
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INF);
                fail_highs = 0;
            } else if v >= beta {
                beta = (v + delta).min(INF);
                fail_highs += 1;
            } else {
                self.finish_root(moves, &lost, v);
                return (v, searched);
            }
            delta = delta * (3 + v.abs().min(WIN_BOUND) / self.unit(1024)) / 4 + self.unit(6);
            if delta > 4000 {
                (alpha, beta) = (-INF, INF);
            }
        }
    }

    /// Moves found lost go last (stably), and are remembered; the value is kept for the next
    /// iteration's window.
    fn finish_root(&mut self, moves: &mut [usize], lost: &[usize], v: i32) {
        moves.sort_by_key(|m| lost.contains(m));
        for &m in lost {
            if !self.lost.contains(&m) {
                self.lost.push(m);
            }
        }
        if !self.aborted {
            self.sel.last = Some(v);
        }
    }

    /// One pass over the root moves within (`alpha`, `beta`): the best value, the moves
    /// searched to the end, and those of them found lost. The best move comes first.
    fn root_pass(
        &mut self,
        b: &mut EngineBoard,
        moves: &mut [usize],
        depth: Depth,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, usize, Vec<usize>) {
        let me = b.side();
        self.sel.root_delta = (beta - alpha).max(1);
        self.sel.root_alpha = alpha;
        self.frame(0).tt_pv = true;
        let mut best = -INF;
        let mut best_at = 0;
        let mut searched = 0;
        let mut lost = Vec::new();
        for (n, &m) in moves.iter().enumerate() {
            let shapes = self.shapes(b, m);
            self.set_move(0, m, shapes);
            let new_depth = depth - 1.0;
            self.tt.prefetch(b.hash_after(m));
            b.play(m);
            let v = if n == 0 {
                -self.pvs(b, 1, -beta, -alpha, new_depth, false, true)
            } else {
                let mut r = 0.0;
                if depth >= 2.0 && n > 1 {
                    r = self.sel.lmr[(depth as usize).min(LMR_SIZE - 1)]
                        * self.sel.lmr[(n + 1).min(LMR_SIZE - 1)];
                    r = (r - (beta - alpha) as f32 / self.sel.root_delta as f32).max(0.0);
                    r -= 0.97;
                    if shapes[me.index()] >= shape::FLEX3 {
                        r -= 0.5;
                    }
                }
                let d = (new_depth - r.max(0.0)).clamp(0.0, new_depth);
                let mut v = -self.pvs(b, 1, -alpha - 1, -alpha, d, true, false);
                if v > alpha && d < new_depth && !self.aborted {
                    v = -self.pvs(b, 1, -alpha - 1, -alpha, new_depth, false, false);
                }
                if v > alpha && !self.aborted {
                    v = -self.pvs(b, 1, -beta, -alpha, new_depth, false, true);
                }
                v
            };
            b.undo();
            if self.aborted {
                break;
            }
            searched += 1;
            if v < -WIN_BOUND {
                lost.push(m);
            }
            if v > best {
                best = v;
                best_at = n;
                if v > alpha {
                    self.pv_table.update(0, m);
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                    self.sel.root_alpha = alpha;
                }
            }
        }
        if best > -INF {
            moves[..=best_at].rotate_right(1);
        }
        (best, searched, lost)
    }

    /// Wins and losses the threat counts show: a five to make, two fives to stop, a straight
    /// four to make, a four-three whose forced block makes no four, a double three against
    /// an opponent with no four to make. Under the exact-five rules only the first three
    /// (the tables' threes may lean on an overline there).
    fn quick_win(&mut self, b: &mut EngineBoard, ply: usize) -> Option<i32> {
        let p = ply as i32;
        if let Some(v) = self.immediate(b, p) {
            return Some(v);
        }
        let me = b.side();
        let opp = !me;
        if b.count(opp, Threat::Five) > 0 {
            let mut f = std::mem::take(&mut self.scratch);
            fives(b, opp, &mut f);
            let forced = !f.is_empty();
            self.scratch = f;
            if forced {
                return None;
            }
        }
        if !b.rule().wins(me, 6) {
            return None;
        }
        let opp_fours = b.count_at_least(opp, Threat::Four) > 0;
        if b.count(me, Threat::FourThree) > 0 && (!opp_fours || self.four_three_holds(b)) {
            return Some(MATE - p - 5);
        }
        if b.count(me, Threat::DoubleThree) > 0 && !opp_fours {
            return Some(MATE - p - 5);
        }
        None
    }

    /// Whether some four-three of the side to move leaves the opponent's forced block
    /// without a four of its own (then the three becomes a straight four unanswered).
    fn four_three_holds(&mut self, b: &mut EngineBoard) -> bool {
        let me = b.side();
        let mut points = [0usize; 8];
        let mut n = 0;
        for i in b
            .fours(me)
            .filter(|&i| b.threat(i, me) == Threat::FourThree)
        {
            points[n] = i;
            n += 1;
            if n == points.len() {
                break;
            }
        }
        let mut f = std::mem::take(&mut self.scratch);
        let mut holds = false;
        for &i in &points[..n] {
            b.play(i);
            fives(b, me, &mut f);
            holds = f.len() >= 2 || (f.len() == 1 && b.threat(f[0], !me) < Threat::Four);
            b.undo();
            if holds {
                break;
            }
        }
        self.scratch = f;
        holds
    }

    /// The principal variation search of a node at `ply` with `depth` plies left.
    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &mut self,
        b: &mut EngineBoard,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        mut depth: Depth,
        cut: bool,
        pv: bool,
    ) -> i32 {
        if depth <= 0.0 {
            return self.quiescence(b, ply, alpha, beta, 0, pv);
        }
        if let Some(v) = self.enter_node(b, ply, pv).or_else(|| self.settled(b, ply)) {
            return v;
        }
        let p = ply as i32;
        alpha = alpha.max(-(MATE - p));
        beta = beta.min(MATE - p - 1);
        if alpha >= beta {
            return alpha;
        }
        let me = b.side();
        let opp = !me;
        self.frame(ply + 2).stat = 0;
        self.frame(ply + 2).killers = [NONE; 2];
        let skip = self.frame(ply).skip;
        let key = if skip == NONE {
            b.hash()
        } else {
            b.hash() ^ skip_key(skip)
        };
        let hit = self.probe(key, p);
        let (tt_value, tt_eval, tt_bound, mut tt_move, tt_depth, tt_is_pv) =
            hit.unwrap_or((0, i32::MIN, 0, NONE, -128, false));
        let tt_hit = hit.is_some();
        if skip == NONE {
            self.frame(ply).tt_pv = pv || (tt_hit && tt_is_pv);
        }
        self.frame(ply + 1).tt_pv = false;
        if !pv
            && tt_hit
            && tt_depth as f32 >= depth
            && tt_bound != 0
            && (if tt_value >= beta {
                tt_bound == LOWER || tt_bound == EXACT
            } else {
                tt_bound == UPPER || tt_bound == EXACT
            })
        {
            if tt_move != NONE {
                self.tt_move_stats(b, depth, tt_move, tt_value >= beta);
            }
            return tt_value;
        }
        let opp5 = b.count(opp, Threat::Five) > 0;
        let opp4 = opp5 || b.count(opp, Threat::FlexFour) > 0;
        let mut eval = -INF;
        let mut improvement = 0;
        if opp5 {
            let e = -self.before(ply, 1).eval;
            self.frame(ply).eval = e;
        } else {
            let stat = if tt_eval != i32::MIN {
                tt_eval
            } else {
                let v = self.static_value(b);
                if !tt_hit && skip == NONE {
                    self.store(key, 0, v, 0, NONE, -128, pv, p);
                }
                v
            };
            self.frame(ply).eval = stat;
            eval = stat;
            if tt_hit && tt_refines(tt_bound, tt_value, stat) {
                eval = tt_value;
            }
            improvement = stat - self.before(ply, 2).eval;
            if let Some(v) = self.prune_node(
                b,
                ply,
                alpha,
                beta,
                depth,
                cut,
                pv,
                eval,
                tt_hit,
                improvement,
            ) {
                return v;
            }
            if !pv && !opp4 && skip == NONE && eval >= beta && !b.passed() {
                let stat = self.frame(ply).eval;
                if stat >= beta + self.unit(null_margin(depth))
                    && let Some(v) = self.selective_null(b, ply, beta, depth, cut)
                {
                    return v;
                }
            }
        }
        // Internal iterative reductions: a principal-variation node without a table move, or
        // whose table move comes from a much shallower search, is searched shallower.
        if pv && tt_move == NONE {
            depth -= 0.32;
        }
        if pv && depth > 1.0 && tt_move != NONE {
            depth -= ((depth - tt_depth as f32) * 0.28).clamp(0.0, 3.6);
        }
        if depth <= 0.0 {
            return self.quiescence(b, ply, alpha, beta, 0, pv);
        }
        let mut moves = self.pool.pop().unwrap_or_else(|| Vec::with_capacity(64));
        self.sel_moves(b, &mut moves, tt_move);
        if !moves.iter().any(|&(m, _)| m == tt_move) {
            tt_move = NONE;
        }
        let likely_fail_high = !pv
            && cut
            && !opp5
            && eval >= beta + self.unit(-9 + 15 * depth as i32 + 87 * i32::from(opp4));
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NONE;
        let mut count = 0u32;
        let mut attacks = [NONE; 32];
        let mut quiets = [NONE; 64];
        let (mut n_attacks, mut n_quiets) = (0, 0);
        let last_opp = self.before(ply, 1).mv;
        let last_own = self.before(ply, 2).mv;
        moves.sort_unstable_by_key(|&(i, s)| (std::cmp::Reverse(s), i));
        for n in 0..moves.len() {
            let m = moves[n].0;
            if m == skip || !b.is_legal_for(m, me) {
                continue;
            }
            count += 1;
            let shapes = self.shapes(b, m);
            let (own, other) = (shapes[me.index()], shapes[opp.index()]);
            let trivial = own == shape::NONE && other == shape::NONE;
            let dist_opp = distance(b, m, last_opp);
            let dist_own = distance(b, m, last_own);
            let distract = dist_own > 4 && dist_opp > 4;
            let improving = improvement > 0;
            if best > -WIN_BOUND && count >= move_count_limit(depth, improving) {
                break;
            }
            if best > -WIN_BOUND
                && ((trivial && depth < 4.3)
                    || (opp4 && depth < 4.3 && other < shape::BLOCK4 && distract))
            {
                continue;
            }
            let mut ext: f32 = 0.0;
            if opp5 {
                ext = 1.3;
            } else if ply > 0
                && depth >= 6.65
                && m == tt_move
                && skip == NONE
                && tt_value.abs() < WIN_BOUND
                && (tt_bound == LOWER || tt_bound == EXACT)
                && tt_depth as f32 >= depth - 2.03
            {
                let former_pv = !pv && self.frame(ply).tt_pv;
                let fp = f32::from(u8::from(former_pv));
                let sbeta = (tt_value - self.unit(((0.91 + fp) * depth) as i32)).max(-MATE);
                self.frame(ply).skip = m;
                let v = self.pvs(b, ply, sbeta - 1, sbeta, depth * 0.54 - fp, cut, false);
                self.frame(ply).skip = NONE;
                if self.aborted {
                    break;
                }
                if v < sbeta {
                    let double = self.unit(29 - ((depth * 0.6) as i32).min(9));
                    ext = if !pv && v < sbeta - double && self.frame(ply).extra < 10.8 {
                        2.0
                    } else {
                        1.0
                    };
                } else if sbeta >= beta {
                    self.pool.push(moves);
                    return sbeta;
                } else if tt_value >= beta {
                    ext = -1.5;
                }
            } else if m == tt_move {
                ext = if pv { 0.25 } else { 0.08 };
                if own >= shape::BLOCK4 && dist_own <= 6 {
                    ext += if dist_own <= 4 { 0.24 } else { 0.05 };
                }
            }
            if likely_fail_high {
                if own >= shape::BLOCK4 {
                    if self.before(ply, 2).shape[me.index()] >= shape::BLOCK4 {
                        ext += 1.0;
                    }
                } else {
                    ext -= 1.0;
                }
            }
            let mut new_depth = depth - 1.0 + ext;
            let extra = self.before(ply, 1).extra + (ext - 1.0).max(0.0);
            let f = self.frame(ply);
            f.mv = m;
            f.shape = shapes;
            f.extra = extra;
            if pv {
                self.pv_table.clear(ply + 1);
            }
            self.tt.prefetch(b.hash_after(m));
            b.play(m);
            let mut v = -INF;
            if depth >= 2.0 && count > 1 {
                let killer = self.frame(ply).killers.contains(&m);
                let mut r = self.sel.lmr[(depth as usize).min(LMR_SIZE - 1)]
                    * self.sel.lmr[(count as usize).min(LMR_SIZE - 1)];
                if pv {
                    r = (r - (beta - alpha) as f32 / self.sel.root_delta as f32).max(0.0);
                } else if improvement <= 0 && r > 1.0 {
                    r += 1.0;
                }
                if self.frame(ply).tt_pv {
                    r -= 0.97;
                }
                if ply % 2 == 1 && best >= -self.sel.root_alpha {
                    r += 0.98;
                }
                if cut && !(!opp4 && killer && own < shape::FLEX3) {
                    r += 1.8;
                }
                if opp4 && other < shape::BLOCK4 {
                    r += if dist_opp > 4 { 1.93 } else { 0.0 };
                    r += if dist_own > 4 { 0.96 } else { 0.0 };
                }
                if !opp4
                    && self.before(ply, 2).shape[me.index()] >= shape::FLEX3
                    && (own >= shape::FLEX3 || (dist_own <= 4 && own >= shape::FLEX2X2))
                {
                    r -= 0.53;
                }
                let stat = self.stat_score(me, m);
                self.frame(ply).stat = stat;
                let scale = if depth > 5.4 { 16_647.0 } else { 12_267.0 };
                r -= stat as f32 / scale;
                let d = (new_depth - r).min(new_depth + 1.0).max(1.0);
                v = -self.pvs(b, ply + 1, -alpha - 1, -alpha, d, true, false);
                if v > alpha && d < new_depth && !self.aborted {
                    let mut e = self.lmr_extension(new_depth, d, v - alpha, v - best);
                    let f = self.frame(ply);
                    if f.extra >= 5.0 {
                        e = e.min(1.0);
                    } else {
                        f.extra += (e - 1.0).max(0.0);
                    }
                    new_depth += e;
                    if d < new_depth {
                        v = -self.pvs(b, ply + 1, -alpha - 1, -alpha, new_depth, !cut, false);
                    }
                }
            } else if !pv || count > 1 {
                v = -self.pvs(b, ply + 1, -alpha - 1, -alpha, new_depth, !cut, false);
            }
            if pv && !self.aborted && (count == 1 || (v > alpha && v < beta)) {
                v = -self.pvs(b, ply + 1, -beta, -alpha, new_depth, false, true);
            }
            b.undo();
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv {
                        self.pv_table.update(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                    if depth > 2.0 && depth < 12.0 && v.abs() < self.unit(2000) {
                        depth -= 1.0;
                    }
                }
            }
            if m != best_move {
                if own >= shape::FLEX3 && n_attacks < attacks.len() {
                    attacks[n_attacks] = m;
                    n_attacks += 1;
                } else if !opp4 && own < shape::FLEX3 && n_quiets < quiets.len() {
                    quiets[n_quiets] = m;
                    n_quiets += 1;
                }
            }
        }
        self.pool.push(moves);
        if self.aborted {
            return 0;
        }
        if count == 0 {
            // No move to play: every candidate forbidden (renju) or left out by the test.
            best = if skip != NONE { alpha } else { -(MATE - p - 2) };
        } else if best_move != NONE {
            self.best_move_stats(
                b,
                ply,
                depth,
                best_move,
                &attacks[..n_attacks],
                &quiets[..n_quiets],
            );
        }
        let bound = if best >= beta {
            LOWER
        } else if pv && best_move != NONE {
            EXACT
        } else {
            UPPER
        };
        if best <= alpha0 {
            let was = self.before(ply, 1).tt_pv;
            let f = self.frame(ply);
            f.tt_pv = f.tt_pv || (was && depth > 3.0);
        } else if depth > 3.0 {
            let child = self.frame(ply + 1).tt_pv;
            let f = self.frame(ply);
            f.tt_pv = f.tt_pv && child;
        }
        if skip == NONE {
            let stat = if opp5 { i32::MIN } else { self.frame(ply).eval };
            let tt_pv = self.frame(ply).tt_pv;
            self.store(key, best, stat, bound, best_move, depth as i32, tt_pv, p);
        }
        best
    }
}

#[cfg(test)]
mod tests;
