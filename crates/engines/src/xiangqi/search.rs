//! The strong engine's search: iterative deepening over a principal variation search with
//! aspiration windows, a shared transposition table, quiescence on captures and check
//! evasions, check extension, null-move pruning (only with attacking pieces left, verified
//! at high depth), late-move reductions, reverse futility, futility and late-move pruning of
//! quiet moves (razoring was tried and dropped: it lost quiet mating checks), mate-distance
//! pruning, and the history rules of the game (perpetual check loses, other repetitions
//! draw, 120 plies without capture draw; a win or loss by them scores as a mate at the ply
//! where the rules end the game).
//!
//! Lazy SMP: helper threads run the same iterative deepening on their own boards, sharing
//! only the transposition table; the main thread alone reports and decides.

use super::eval::{self, ORDER_VALUE, Weights};
use super::movepick::{Memory, Picker, is_good_capture};
use crate::search::pv::PvTable;
use crate::search::score::{INF, MATE, MATE_BOUND, MAX_PLY};
use crate::search::time::TimeManager;
use crate::search::tt::{Bound, Entry, Table, TtMove};
use boyi_core::Side;
use boyi_games::xiangqi::board::{EMPTY, Kind, index90, kind_of};
use boyi_games::xiangqi::repetition::{NO_CAPTURE_LIMIT, judge_cycle};
use boyi_games::xiangqi::{Board, Move, MoveList, PlyMark};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The transposition table of the strong engine.
pub type Tt = Table<Move>;

impl TtMove for Move {
    #[inline(always)]
    fn to_bits(self) -> u32 {
        self.from as u32 | (self.to as u32) << 8
    }

    #[inline(always)]
    fn from_bits(bits: u32) -> Move {
        Move::new(bits as u8, (bits >> 8) as u8)
    }
}

/// What a search is told about the game before the root.
pub struct Root {
    pub board: Board,
    /// The record since the last capture, the root position last.
    pub marks: Vec<PlyMark>,
    /// Plies without capture at the root.
    pub clock: u32,
    /// The moves the root may play (banned moves left out).
    pub moves: MoveList,
}

/// Strength settings.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub weights: Weights,
    /// Largest random change of the evaluation (0 at full strength).
    pub noise: i32,
    pub seed: u64,
    pub max_depth: u32,
    /// What a draw is worth less than nothing to the side to move at the root: the engine
    /// plays on in level positions rather than repeat.
    pub contempt: i32,
}

/// The result of a completed iteration.
#[derive(Debug, Clone)]
pub struct Report {
    pub depth: u32,
    pub score: i32,
    pub pv: Vec<Move>,
    pub nodes: u64,
}

/// State shared by all threads of one search.
pub struct Shared<'a> {
    pub tt: &'a Tt,
    pub tm: &'a TimeManager,
    /// Raised when the main thread is done: helpers stop.
    pub halt: AtomicBool,
    pub nodes: AtomicU64,
}

struct Frame {
    killers: [Move; 2],
    eval: i32,
    clock: u32,
    /// The move played from this ply on the current line (none for a null move).
    played: Move,
}

pub struct Searcher<'a> {
    board: Board,
    shared: &'a Shared<'a>,
    style: Style,
    main: bool,
    marks: Vec<PlyMark>,
    root_moves: MoveList,
    frames: Vec<Frame>,
    memory: Box<Memory>,
    pv: PvTable<Move>,
    nodes: u64,
    flushed: u64,
    stopped: bool,
    root_best: Option<(Move, i32)>,
    root_side: Side,
    lmr: Box<[[u8; 64]; 64]>,
}

impl<'a> Searcher<'a> {
    pub fn new(
        root: &Root,
        shared: &'a Shared<'a>,
        style: Style,
        main: bool,
        memory: Box<Memory>,
    ) -> Searcher<'a> {
        let mut marks = Vec::with_capacity(root.marks.len() + MAX_PLY + 8);
        marks.extend_from_slice(&root.marks);
        let frames = (0..=MAX_PLY + 2)
            .map(|_| Frame {
                killers: [Move::default(); 2],
                eval: 0,
                clock: root.clock,
                played: Move::default(),
            })
            .collect();
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.2) as u8;
            }
        }
        Searcher {
            board: root.board.clone(),
            shared,
            style,
            main,
            marks,
            root_moves: root.moves.clone(),
            frames,
            memory,
            pv: PvTable::new(MAX_PLY),
            nodes: 0,
            flushed: 0,
            stopped: false,
            root_best: None,
            root_side: root.board.side_to_move(),
            lmr,
        }
    }

    /// What the search learned, for the next move of the game.
    pub fn into_memory(self) -> Box<Memory> {
        self.memory
    }

    /// Iterative deepening; `report` receives each completed iteration (main thread).
    pub fn iterate(&mut self, first_depth: u32, report: &mut dyn FnMut(&Report)) -> Option<Report> {
        let mut last: Option<Report> = None;
        let mut instability = 1.0;
        let max_depth = self
            .shared
            .tm
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .min(self.style.max_depth)
            .clamp(1, MAX_PLY as u32 - 8);
        let mut depth = first_depth.min(max_depth);
        while depth <= max_depth {
            let prev = last.as_ref().map(|r| r.score);
            let score = self.aspiration(depth as i32, prev);
            if self.stopped {
                // A better move found in the unfinished iteration is still a fact.
                if let (Some((m, s)), Some(l)) = (self.root_best, last.as_mut())
                    && m != l.pv[0]
                    && s > l.score
                {
                    l.pv = vec![m];
                    l.score = s;
                }
                break;
            }
            let pv: Vec<Move> = self.pv.root_line().to_vec();
            if pv.is_empty() {
                break;
            }
            if let Some(l) = &last
                && l.pv[0] != pv[0]
            {
                instability += 1.0;
            }
            instability = 1.0 + (instability - 1.0) * 0.6;
            self.flush_nodes();
            let r = Report {
                depth,
                score,
                pv,
                nodes: self.shared.nodes.load(Ordering::Relaxed),
            };
            if self.main {
                report(&r);
            }
            last = Some(r);
            // A mate found with four plies to spare beyond twice its length is very likely
            // the shortest (reductions can hide a shorter one at lower depths).
            if score.abs() >= MATE - (depth as i32 - 4) / 2 && self.shared.tm.depth.is_none() {
                break;
            }
            if self.main && !self.shared.tm.may_continue(instability) {
                break;
            }
            depth += 1;
        }
        self.flush_nodes();
        if last.is_none()
            && let Some((m, s)) = self.root_best
        {
            last = Some(Report {
                depth: 0,
                score: s,
                pv: vec![m],
                nodes: self.shared.nodes.load(Ordering::Relaxed),
            });
        }
        last
    }

    fn aspiration(&mut self, depth: i32, prev: Option<i32>) -> i32 {
        let mut delta = 30;
        let (mut alpha, mut beta) = match prev {
            Some(p) if depth >= 4 && p.abs() < MATE_BOUND => (p - delta, p + delta),
            _ => (-INF, INF),
        };
        loop {
            let v = self.search(alpha, beta, depth, 0, self.board.in_check(), false);
            if self.stopped {
                return v;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INF);
            } else if v >= beta {
                beta = (v + delta).min(INF);
            } else {
                return v;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Counts a node and checks the limits now and then.
    #[inline(always)]
    fn tick(&mut self) {
        self.nodes += 1;
        let tm = self.shared.tm;
        if self.main {
            if tm.nodes.is_some_and(|n| self.nodes >= n) {
                self.stopped = true;
            }
            if self.nodes & 1023 == 0 {
                self.flush_nodes();
                if tm.must_stop(self.nodes) {
                    self.stopped = true;
                }
            }
        } else if self.nodes & 1023 == 0 {
            self.flush_nodes();
            if self.shared.halt.load(Ordering::Relaxed) || tm.stopped() {
                self.stopped = true;
            }
        }
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        let v = eval::evaluate(&self.board, &self.style.weights);
        if self.style.noise == 0 {
            return v;
        }
        let h = (self.board.hash() ^ self.style.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let span = 2 * self.style.noise as u64 + 1;
        v + ((h >> 32) % span) as i32 - self.style.noise
    }

    /// The verdict of the repetition rules if they end the game at the current position, as
    /// the search sees it:
    /// - a third occurrence ends it as in the game: the cycle from the first occurrence is
    ///   judged, at this ply;
    /// - a second occurrence whose first one is on the search's own line (the root or later)
    ///   is taken to go round once more: its cycle is judged, at the ply where the third
    ///   occurrence would come;
    /// - a second occurrence of a position the game had before the root ends nothing: the
    ///   game goes on there.
    ///
    /// A win or loss by the rules scores as a mate at that ply: the game is over either way,
    /// so a side that loses by its own perpetual check holds out as long as any other move
    /// lets it, and a side the opponent checks perpetually steers for the cycle.
    #[inline]
    fn repetition(&self, clock: u32, ply: usize) -> Option<i32> {
        let n = self.marks.len() - 1;
        let oldest = n.saturating_sub(clock as usize);
        let hash = self.marks[n].hash;
        let last = self.occurrence(hash, n.checked_sub(4)?, oldest)?;
        self.repeated(hash, last, oldest, ply)
    }

    /// [`Searcher::repetition`] once the current position (index `n`) is known to occur at
    /// `last` before.
    #[cold]
    #[inline(never)]
    fn repeated(&self, hash: u64, last: usize, oldest: usize, ply: usize) -> Option<i32> {
        let n = self.marks.len() - 1;
        let before = last.checked_sub(2);
        let (first, end) = match before.and_then(|i| self.occurrence(hash, i, oldest)) {
            Some(first) => (first, ply),
            None if last + ply >= n => (last, ply + (n - last)),
            None => return None,
        };
        let verdict = judge_cycle(&self.marks[first..], self.board.side_to_move());
        let end = end.min(MAX_PLY) as i32;
        Some(match verdict.winner {
            None => self.draw_score(),
            Some(w) if w == self.board.side_to_move() => MATE - end,
            Some(_) => -(MATE - end),
        })
    }

    /// The latest position with `hash` at index `from` or earlier, stepping back two plies
    /// at a time (the same side to move), not before `oldest`.
    #[inline]
    fn occurrence(&self, hash: u64, from: usize, oldest: usize) -> Option<usize> {
        let mut i = from;
        while i >= oldest {
            if self.marks[i].hash == hash {
                return Some(i);
            }
            i = i.checked_sub(2)?;
        }
        None
    }

    /// A draw's score for the side to move.
    #[inline]
    fn draw_score(&self) -> i32 {
        if self.board.side_to_move() == self.root_side {
            -self.style.contempt
        } else {
            self.style.contempt
        }
    }

    /// Whether the side to move has pieces that can make threats (null move is then safe
    /// from zugzwang in practice).
    fn has_attackers(&self) -> bool {
        let alive = self.board.alive(self.board.side_to_move().index());
        let big = (alive & Kind::Chariot.mask()).count_ones() * 2
            + (alive & (Kind::Horse.mask() | Kind::Cannon.mask())).count_ones();
        big >= 2
    }

    #[inline]
    fn push(&mut self, check: bool) {
        self.marks.push(PlyMark {
            hash: self.board.hash(),
            check,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        in_check: bool,
        cut_null: bool,
    ) -> i32 {
        self.pv.clear(ply);
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, in_check);
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let clock = self.frames[ply].clock;
        if ply > 0 {
            if let Some(v) = self.repetition(clock, ply) {
                return v;
            }
            if clock >= NO_CAPTURE_LIMIT && !in_check {
                return self.draw_score();
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 2 {
                return self.evaluate();
            }
        }
        if in_check {
            depth += 1;
        }
        let key = self.board.hash();
        let entry = self.shared.tt.probe(key, ply as i32);
        let tt_move = entry.map_or(Move::default(), |e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && ply > 0
            && e.depth >= depth
            && e.bound.cuts(e.score, alpha, beta)
        {
            return e.score;
        }
        let eval = if in_check {
            -INF
        } else {
            let mut v = entry.map_or_else(|| self.evaluate(), |e| e.eval);
            if let Some(e) = entry
                && (e.bound == Bound::Exact
                    || (e.bound == Bound::Lower && e.score > v)
                    || (e.bound == Bound::Upper && e.score < v))
                && e.score.abs() < MATE_BOUND
            {
                v = e.score;
            }
            v
        };
        self.frames[ply].eval = eval;
        let improving = ply >= 2 && !in_check && eval > self.frames[ply - 2].eval;

        if !pv_node
            && !in_check
            && ply > 0
            && let Some(v) = self.prune(beta, depth, ply, eval, improving, cut_null)
        {
            return v;
        }
        if tt_move == Move::default() && depth >= 5 {
            depth -= 1;
        }
        self.moves(alpha, beta, depth, ply, in_check, eval, tt_move, key)
    }

    /// Node-level pruning before any move: reverse futility, null move.
    #[allow(clippy::too_many_arguments)]
    fn prune(
        &mut self,
        beta: i32,
        depth: i32,
        ply: usize,
        eval: i32,
        improving: bool,
        cut_null: bool,
    ) -> Option<i32> {
        if depth <= 6 && eval.abs() < MATE_BOUND {
            let margin = 85 * depth - if improving { 60 } else { 0 };
            if eval - margin >= beta {
                return Some(eval);
            }
        }
        if !cut_null
            && depth >= 3
            && eval >= beta
            && beta.abs() < MATE_BOUND
            && self.has_attackers()
        {
            let r = 3 + depth / 4 + ((eval - beta) / 200).min(2);
            self.board.toggle_side();
            self.push(false);
            self.frames[ply].played = Move::default();
            self.frames[ply + 1].clock = 0;
            let v = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, false, true);
            self.marks.pop();
            self.board.toggle_side();
            if self.stopped {
                return Some(0);
            }
            if v >= beta {
                let v = if v >= MATE_BOUND { beta } else { v };
                if depth < 10 {
                    return Some(v);
                }
                // Verification against zugzwang: the same depth without the null move.
                let check = self.search(beta - 1, beta, depth - r, ply, false, true);
                if check >= beta {
                    return Some(v);
                }
            }
        }
        None
    }

    /// The move loop of a full-width node.
    #[allow(clippy::too_many_arguments)]
    fn moves(
        &mut self,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        in_check: bool,
        eval: i32,
        tt_move: Move,
        key: u64,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let killers = self.frames[ply].killers;
        let counter = self
            .counter_slot(ply)
            .map_or(Move::default(), |(p, t)| self.memory.counters[p][t]);
        let mut picker = Picker::new(
            &mut self.board,
            tt_move,
            [killers[0], killers[1], counter],
            &self.memory.history,
        );
        if picker.is_empty() {
            // Checkmate or stalemate: the side to move loses either way.
            return -MATE + ply as i32;
        }
        let clock = self.frames[ply].clock;
        let mut best = -INF;
        let mut best_move = Move::default();
        let mut searched = 0usize;
        let mut quiets = [Move::default(); 64];
        let mut n_quiets = 0;
        let original_alpha = alpha;
        while let Some((m, order)) = picker.pick() {
            if ply == 0 && !self.root_moves.iter().any(|&r| r == m) {
                continue;
            }
            let capture = self.board.cells()[m.to as usize] != EMPTY;
            let prunable = !pv_node && !in_check && !capture && searched > 0 && best > -MATE_BOUND;
            let is_killer = m == killers[0] || m == killers[1];
            let cap = self.board.make(m);
            let gives_check = self.board.in_check();
            if prunable
                && !gives_check
                && !is_killer
                && self.skip_quiet(depth, eval, alpha, n_quiets)
            {
                self.board.unmake(m, cap);
                if n_quiets < 64 {
                    quiets[n_quiets] = m;
                    n_quiets += 1;
                }
                continue;
            }
            self.push(gives_check);
            self.frames[ply].played = m;
            self.frames[ply + 1].clock = if capture { 0 } else { clock + 1 };
            self.frames[ply + 2].killers = [Move::default(); 2];
            let new_depth = depth - 1;
            let v = if searched == 0 {
                -self.search(-beta, -alpha, new_depth, ply + 1, gives_check, false)
            } else {
                let mut r = 0;
                if depth >= 3 && !capture && !gives_check && !in_check {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if is_killer {
                        r -= 1;
                    }
                    r -= order.clamp(-16000, 16000) / 6000;
                    r = r.clamp(0, new_depth - 1);
                } else if capture
                    && !is_good_capture(order)
                    && depth >= 3
                    && !in_check
                    && !gives_check
                {
                    r = 1;
                }
                let mut v = -self.search(
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    gives_check,
                    false,
                );
                if v > alpha && r > 0 {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, gives_check, false);
                }
                if v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, new_depth, ply + 1, gives_check, false);
                }
                v
            };
            self.marks.pop();
            self.board.unmake(m, cap);
            if self.stopped {
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    self.pv.update(ply, m);
                    if ply == 0 {
                        self.root_best = Some((m, v));
                    }
                    if v >= beta {
                        if !capture {
                            self.reward(ply, depth, m, &quiets[..n_quiets]);
                        }
                        break;
                    }
                    alpha = v;
                }
            }
            if !capture && n_quiets < 64 {
                quiets[n_quiets] = m;
                n_quiets += 1;
            }
        }
        if searched == 0 {
            // Every move was pruned (or banned at the root): fall back to the static view.
            return if ply == 0 { alpha } else { eval.max(alpha) };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if in_check { 0 } else { eval };
        let entry = Entry {
            mv: best_move,
            score: best,
            eval: stored_eval,
            depth,
            bound,
            pv: false,
        };
        self.shared.tt.store(key, ply as i32, entry);
        best
    }

    /// Futility and late-move pruning of a quiet move that gives no check.
    #[inline]
    fn skip_quiet(&self, depth: i32, eval: i32, alpha: i32, quiets_tried: usize) -> bool {
        if depth <= 4 && quiets_tried as i32 >= 3 + depth * depth {
            return true;
        }
        depth <= 3 && eval + 110 + 120 * depth <= alpha
    }

    /// The counter-move table's slot for the move that led to `ply` (by the piece it
    /// moved, now on its target), if a move did.
    fn counter_slot(&self, ply: usize) -> Option<(usize, usize)> {
        let prev = self.frames[ply.checked_sub(1)?].played;
        (prev != Move::default()).then(|| {
            let piece = (self.board.cells()[prev.to as usize] & 31) as usize;
            (piece, index90(prev.to))
        })
    }

    fn reward(&mut self, ply: usize, depth: i32, m: Move, tried: &[Move]) {
        let k = &mut self.frames[ply].killers;
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if let Some((p, t)) = self.counter_slot(ply) {
            self.memory.counters[p][t] = m;
        }
        let bonus = (depth * depth * 16).min(4000);
        self.memory.history.update(&self.board, m, bonus);
        for &q in tried {
            self.memory.history.update(&self.board, q, -bonus);
        }
    }

    /// Quiescence: captures that do not lose material (delta-pruned), or every evasion when
    /// in check.
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
        self.tick();
        self.pv.clear(ply);
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate();
        }
        let key = self.board.hash();
        let entry = self.shared.tt.probe(key, ply as i32);
        if let Some(e) = entry
            && e.bound.cuts(e.score, alpha, beta)
        {
            return e.score;
        }
        let stand = if in_check {
            -MATE + ply as i32
        } else {
            let v = entry.map_or_else(|| self.evaluate(), |e| e.eval);
            if v >= beta {
                return v;
            }
            alpha = alpha.max(v);
            v
        };
        let mut best = stand;
        let mut picker = Picker::captures(&mut self.board, in_check);
        if in_check && picker.is_empty() {
            return -MATE + ply as i32;
        }
        while let Some((m, _)) = picker.pick() {
            let victim = self.board.cells()[m.to as usize];
            if !in_check
                && victim != EMPTY
                && stand + ORDER_VALUE[kind_of(victim) as usize] + 200 <= alpha
            {
                continue;
            }
            let cap = self.board.make(m);
            let gives_check = self.board.in_check();
            let v = -self.qsearch(-beta, -alpha, ply + 1, gives_check);
            self.board.unmake(m, cap);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    self.pv.update(ply, m);
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests;
