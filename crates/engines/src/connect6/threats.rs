//! Threat-space search: whether the side to move wins by a sequence of turns that each leave
//! threats two stones must answer (double threats), ending in threats two stones cannot
//! answer. The defender's replies to a double threat are exactly the pairs that hit every
//! threat window, so a win found is a proof (the defender cannot win first: the attacker's
//! turns block every threat window it has, and the attacker's stones never give it one; a
//! turn that must block is a block with a threat-making stone beside it). Single
//! threats (one stone blocks them, the other is free) are tried only with `single_free`
//! free stones for the defender (its best points among those where the attacker could make
//! further threats), which makes a found win likely rather than proven: the engine uses that
//! form only to judge danger.

use super::board::Board6;
use super::gaps::{Gap, Gaps, Pair, gaps_blockable, pair, single_score};
use boyi_core::Side;
use std::time::Instant;

/// Points kept of a win's lines.
const ZONE_MAX: usize = 40;
/// Entries of the table of positions already judged (a power of two).
const MEMO: usize = 1 << 14;
/// Plies (attacker turns and defender blocks) with a remembered winning turn.
const KILLER_PLIES: usize = 16;
/// No point.
const NONE: u16 = u16::MAX;
/// The ordering score of a turn that leaves threats no pair of stones answers.
const WINS: i32 = i32::MAX;

/// A position judged: the attacker (to move) wins within `turns`, or not within `turns`.
#[derive(Clone, Copy, Default)]
struct Memo {
    key: u64,
    turns: u32,
    won: bool,
}

pub struct Tss {
    /// Nodes (attacker turns tried) left in the current search.
    budget: u64,
    pub nodes: u64,
    /// Free stones the defender may try after a single threat (0: double threats only).
    pub single_free: usize,
    /// The attacker's first turn of the last win found.
    pub first: Option<Pair>,
    /// Points of the last win's main line (attacker turns and the blocks between them).
    pub zone: Vec<u16>,
    /// A time after which every search gives up (fails).
    pub until: Option<Instant>,
    cands: Vec<(u16, u16)>,
    /// Per ply, the attacker's turn that last won there.
    killers: [(u16, u16); KILLER_PLIES],
    /// Scratch for the live windows by point.
    live: LiveWindows,
    /// Scratch for the gaps of one turn's threat windows.
    gaps: Gaps,
    /// Positions judged, one table for double threats only and one with single threats.
    memo: [Vec<Memo>; 2],
}

impl Tss {
    pub fn new(single_free: usize) -> Tss {
        Tss {
            budget: 0,
            nodes: 0,
            single_free,
            first: None,
            zone: Vec::new(),
            until: None,
            cands: Vec::with_capacity(256),
            live: LiveWindows::default(),
            gaps: Gaps::empty(),
            killers: [(NONE, NONE); KILLER_PLIES],
            memo: [vec![Memo::default(); MEMO], vec![Memo::default(); MEMO]],
        }
    }

    /// Whether the side to move wins by threats within `turns` own turns, trying at most
    /// `budget` attacker turns. On a win `first` and `zone` describe it.
    pub fn wins(&mut self, b: &mut Board6, turns: u32, budget: u64) -> bool {
        self.budget = budget;
        self.first = None;
        self.zone.clear();
        self.attack(b, turns, 0)
    }

    /// The fewest own turns, up to `turns`, in which the side to move wins by threats, found
    /// by trying 1, 2, … turns with at most `budget` attacker turns in all. A deeper search
    /// alone spends its budget on long lines first and may miss a short win; and a win is
    /// best answered at its shortest line. On a win `first` and `zone` describe it.
    pub fn shortest_win(&mut self, b: &mut Board6, turns: u32, budget: u64) -> Option<u32> {
        let mut left = budget;
        for k in 1..=turns {
            let before = self.nodes;
            if self.wins(b, k, left) {
                return Some(k);
            }
            left = left.saturating_sub(self.nodes - before);
            if left == 0 || self.until.is_some_and(|t| Instant::now() >= t) {
                break;
            }
        }
        None
    }

    /// The points of the last win found: its line (`zone`), then its first turn's stones.
    pub fn line_points(&self) -> impl Iterator<Item = u16> + '_ {
        let first = self.first.iter().flat_map(|f| [f.a, f.b]);
        self.zone.iter().copied().chain(first)
    }

    /// [`Self::wins`] without `first` and `zone`, so a position judged before is answered
    /// from the table.
    pub fn wins_quick(&mut self, b: &mut Board6, turns: u32, budget: u64) -> bool {
        self.budget = budget;
        self.attack(b, turns, 1)
    }

    /// Forgets the positions judged.
    pub fn clear(&mut self) {
        for table in &mut self.memo {
            table.iter_mut().for_each(|e| *e = Memo::default());
        }
        self.killers = [(NONE, NONE); KILLER_PLIES];
    }

    fn attack(&mut self, b: &mut Board6, turns: u32, ply: usize) -> bool {
        let me = b.side();
        if b.threats(me) > 0 {
            return true;
        }
        if turns == 0 || self.budget == 0 {
            return false;
        }
        if self.until.is_some_and(|t| Instant::now() >= t) {
            self.budget = 0;
            return false;
        }
        let key = b.hash();
        let slot = key as usize & (MEMO - 1);
        let table = usize::from(self.single_free > 0);
        let e = self.memo[table][slot];
        if e.key == key && (e.won && e.turns <= turns || !e.won && e.turns >= turns) && ply > 0 {
            return e.won;
        }
        let mut moves = if b.threats(!me) > 0 {
            self.blocking_threat_turns(b, me)
        } else {
            self.threat_turns(b, me)
        };
        // The turn that last won at this ply first: sibling positions (other blocks, other
        // root turns) often lose to the same turn.
        let killer = self.killers.get(ply).copied().unwrap_or((NONE, NONE));
        if let Some(k) = moves.iter().position(|m| (m.a, m.b) == killer) {
            moves[..=k].rotate_right(1);
        }
        // A turn no pair of stones can answer first: it needs no search.
        let mut won = moves.iter().copied().find(|m| m.score == WINS);
        if won.is_none() && turns > 1 {
            let full = self.budget;
            for &m in &moves {
                if self.budget == 0 {
                    break;
                }
                self.budget -= 1;
                self.nodes += 1;
                let (a, c) = (m.a as usize, m.b as usize);
                b.play(a, Some(c));
                let gaps = Gaps::through(b, me, &[a, c]);
                let w = self.defend(b, &gaps, turns, ply);
                b.undo();
                if w {
                    won = Some(m);
                    break;
                }
            }
            // A search cut short by the budget proves nothing.
            if won.is_none() && self.budget == 0 && full > 0 {
                return false;
            }
        }
        self.memo[table][slot] = Memo {
            key,
            turns,
            won: won.is_some(),
        };
        let Some(m) = won else {
            return false;
        };
        if ply == 0 {
            self.first = Some(m);
        }
        if let Some(k) = self.killers.get_mut(ply) {
            *k = (m.a, m.b);
        }
        self.mark(&[m.a, m.b]);
        if m.score == WINS {
            // No defence was searched: the points that spoil the threats it makes are those
            // of their windows.
            b.play(m.a as usize, m.second());
            let stones: Vec<usize> = std::iter::once(m.a as usize).chain(m.second()).collect();
            let gaps = Gaps::through(b, me, &stones);
            b.undo();
            for g in gaps.iter() {
                self.mark(g.cells());
            }
        }
        true
    }

    /// Whether every reply of the defender (to move) to the attacker's threats `gaps` loses.
    fn defend(&mut self, b: &mut Board6, gaps: &Gaps, turns: u32, ply: usize) -> bool {
        let mut replies = Vec::new();
        let single = blocking_replies(gaps, &mut replies);
        if single {
            if self.single_free == 0 {
                return false;
            }
            add_free_stones(b, &mut replies, self.single_free);
        }
        let mark = self.zone.len();
        for &(x, y) in &replies {
            b.play(x as usize, (y != x).then_some(y as usize));
            let won = self.attack(b, turns - 1, ply + 1);
            b.undo();
            if !won {
                self.zone.truncate(mark);
                return false;
            }
        }
        let blocks: Vec<u16> = replies.iter().flat_map(|&(x, y)| [x, y]).take(8).collect();
        self.mark(&blocks);
        true
    }

    /// Adds points to the zone (once each, up to its bound).
    fn mark(&mut self, points: &[u16]) {
        for &p in points {
            if self.zone.len() < ZONE_MAX && !self.zone.contains(&p) {
                self.zone.push(p);
            }
        }
    }

    /// The attacker's threat-making turns (see [`threat_candidates`]); turns no pair of
    /// stones answers first, then those that need both of the defender's stones, then by
    /// threats made.
    fn threat_turns(&mut self, b: &Board6, me: Side) -> Vec<Pair> {
        threat_candidates(b, me, &mut self.cands);
        let cands = std::mem::take(&mut self.cands);
        let out = self.rank_threat_turns(b, me, &cands);
        self.cands = cands;
        out
    }

    /// The attacker's turns when it must first block the defender's threats: the pairs
    /// that block them all and still leave threats of its own (a block by one stone with a
    /// threat-making free stone, mostly). A threat the attacker cannot block ends the line.
    fn blocking_threat_turns(&mut self, b: &Board6, me: Side) -> Vec<Pair> {
        let mut replies = Vec::new();
        blocking_replies(&Gaps::of(b, !me), &mut replies);
        let mut cands = std::mem::take(&mut self.cands);
        cands.clear();
        let mut free: Vec<u16> = Vec::new();
        for &(x, y) in &replies {
            if x != y {
                cands.push((x, y));
                continue;
            }
            if free.is_empty() {
                free = threat_points(b, me);
            }
            cands.extend(
                free.iter()
                    .filter(|&&f| f != x)
                    .map(|&f| (x.min(f), x.max(f))),
            );
        }
        cands.sort_unstable();
        cands.dedup();
        let out = self.rank_threat_turns(b, me, &cands);
        self.cands = cands;
        out
    }

    /// The turns among `cands` that leave threats (only those needing two stones when
    /// single threats are not tried), ranked as [`Self::threat_turns`] says.
    fn rank_threat_turns(&mut self, b: &Board6, me: Side, cands: &[(u16, u16)]) -> Vec<Pair> {
        self.live.fill(b, me);
        let gaps = &mut self.gaps;
        let mut out = Vec::with_capacity(cands.len());
        for &(a, c) in cands {
            self.live.after_pair(a, c, gaps);
            if gaps.is_empty() {
                continue;
            }
            let needs_two = !single_blockable(gaps);
            if !needs_two && self.single_free == 0 {
                continue;
            }
            let score = if !gaps_blockable(gaps) {
                WINS
            } else {
                let made = gaps.iter().count() as i32;
                1000 * i32::from(needs_two) + made
            };
            out.push(pair(a as usize, Some(c as usize), score));
        }
        out.sort_by_key(|p| std::cmp::Reverse(p.score));
        out
    }
}

/// Point pairs that make a threat for `me`: two empty points of an own window with two or
/// three stones (and none of the opponent's), or one empty point in each of two own windows
/// with three stones (two threats at once).
pub fn threat_candidates(b: &Board6, me: Side, cands: &mut Vec<(u16, u16)>) {
    cands.clear();
    let mut threes: Vec<u16> = Vec::new();
    let m = me.index();
    for &w in b.live(me) {
        let c = b.counts(w);
        if c[1 - m] != 0 || !(2..=3).contains(&c[m]) {
            continue;
        }
        let mut empty = [0u16; 6];
        let mut n = 0;
        for &p in b.window_cells(w) {
            if b.is_empty(p as usize) {
                empty[n] = p;
                n += 1;
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                cands.push((empty[i].min(empty[j]), empty[i].max(empty[j])));
            }
        }
        if c[m] == 3 {
            threes.extend_from_slice(&empty[..n]);
        }
    }
    threes.sort_unstable();
    threes.dedup();
    for i in 0..threes.len() {
        for j in i + 1..threes.len() {
            cands.push((threes[i], threes[j]));
        }
    }
    cands.sort_unstable();
    cands.dedup();
}

/// The empty points of `me`'s windows with two or three of its stones and none of the
/// other side's: where a stone (with one more in the same window) makes a threat.
fn threat_points(b: &Board6, me: Side) -> Vec<u16> {
    let m = me.index();
    let mut points: Vec<u16> = Vec::new();
    for &w in b.live(me) {
        let c = b.counts(w);
        if c[1 - m] == 0 && (2..=3).contains(&c[m]) {
            points.extend(
                b.window_cells(w)
                    .iter()
                    .filter(|&&p| b.is_empty(p as usize)),
            );
        }
    }
    points.sort_unstable();
    points.dedup();
    points
}

/// The windows of one side that two more stones can turn into threats (two or more of its
/// stones, none of the other side's), listed by their empty points, each with its empty
/// points: a pair is judged from these lists alone, without reading the board.
#[derive(Default)]
pub(super) struct LiveWindows {
    /// Each live window's empty points (at most four: it holds two stones or more).
    empties: Vec<Empties>,
    /// The windows through each point, point by point, as places in `empties`.
    windows: Vec<u32>,
    /// Where each point's windows start in `windows` (one more entry than points).
    start: Vec<u32>,
}

#[derive(Clone, Copy, Default)]
struct Empties {
    cells: [u16; 4],
    len: u8,
}

impl Empties {
    fn cells(&self) -> &[u16] {
        &self.cells[..self.len as usize]
    }

    /// Stones in the window (all of one side).
    fn stones(&self) -> u8 {
        6 - self.len
    }
}

impl LiveWindows {
    /// Lists the live windows of `s` by point (a counting sort: one pass to count, one to
    /// place), reusing the buffers.
    pub(super) fn fill(&mut self, b: &Board6, s: Side) {
        let m = s.index();
        self.empties.clear();
        for &w in b.live(s) {
            let c = b.counts(w);
            if c[1 - m] != 0 || c[m] < 2 {
                continue;
            }
            let mut e = Empties::default();
            for &p in b.window_cells(w) {
                if b.is_empty(p as usize) {
                    e.cells[e.len as usize] = p;
                    e.len += 1;
                }
            }
            self.empties.push(e);
        }
        self.start.clear();
        self.start.resize(b.points() + 1, 0);
        for e in &self.empties {
            for &p in e.cells() {
                self.start[p as usize + 1] += 1;
            }
        }
        for p in 1..self.start.len() {
            self.start[p] += self.start[p - 1];
        }
        self.windows.clear();
        self.windows
            .resize(*self.start.last().unwrap_or(&0) as usize, 0);
        for (k, e) in self.empties.iter().enumerate() {
            for &p in e.cells() {
                // `start[p]` serves as the next free place while filling.
                self.windows[self.start[p as usize] as usize] = k as u32;
                self.start[p as usize] += 1;
            }
        }
        // Each start now stands where the next point's windows begin.
        self.start.rotate_right(1);
        self.start[0] = 0;
    }

    fn through(&self, p: u16) -> impl Iterator<Item = &Empties> {
        let p = p as usize;
        self.windows[self.start[p] as usize..self.start[p + 1] as usize]
            .iter()
            .map(|&k| &self.empties[k as usize])
    }

    /// The gaps of the threat windows the side would have after playing `a` and `c`,
    /// without playing them, written into `g`.
    pub(super) fn after_pair(&self, a: u16, c: u16, g: &mut Gaps) {
        g.clear();
        for e in self.through(a) {
            let both = e.cells().contains(&c);
            if e.stones() + 1 + u8::from(both) >= 4 {
                g.push(Gap::without(e.cells().iter().copied(), a, c));
            }
        }
        for e in self.through(c) {
            // Windows through both points were seen from `a`.
            if e.stones() == 3 && !e.cells().contains(&a) {
                g.push(Gap::without(e.cells().iter().copied(), a, c));
            }
        }
    }
}

/// Whether one stone hits every window of `gaps`.
pub fn single_blockable(gaps: &Gaps) -> bool {
    let Some(first) = gaps.iter().next() else {
        return true;
    };
    first
        .cells()
        .iter()
        .any(|&a| gaps.iter().all(|w| w.contains(a)))
}

/// The pairs that hit every window of `gaps` (a pair `(x, x)` is one stone that hits them
/// all, whose partner is free). Returns whether one stone suffices.
pub(super) fn blocking_replies(gaps: &Gaps, out: &mut Vec<(u16, u16)>) -> bool {
    out.clear();
    let mut single = false;
    for (n, g) in gaps.iter().enumerate() {
        for &a in g.cells() {
            if gaps.iter().take(n).any(|h| h.contains(a)) {
                continue;
            }
            let Some(rest) = gaps.iter().find(|w| !w.contains(a)) else {
                out.push((a, a));
                single = true;
                continue;
            };
            for &c in rest.cells() {
                if c != a && gaps.iter().all(|w| w.contains(a) || w.contains(c)) {
                    out.push((a.min(c), a.max(c)));
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    single
}

/// Gives each one-stone block (`(x, x)`) the defender's `k` best free stones instead, from
/// the points where the attacker (who just moved) can make further threats.
fn add_free_stones(b: &Board6, replies: &mut Vec<(u16, u16)>, k: usize) {
    let def = b.side();
    let mut ranked: Vec<(u16, i32)> = threat_points(b, !def)
        .into_iter()
        .map(|p| (p, single_score(b, p as usize, def)))
        .collect();
    ranked.sort_unstable_by_key(|&(p, s)| (std::cmp::Reverse(s), p));
    let mut extra = Vec::new();
    for &(x, y) in replies.iter() {
        if x != y {
            extra.push((x, y));
            continue;
        }
        for &(p, _) in ranked.iter().filter(|&&(p, _)| p != x).take(k) {
            extra.push((x.min(p), x.max(p)));
        }
        if ranked.iter().all(|&(p, _)| p == x) {
            // Nothing else to spoil: any stone does.
            extra.push((x, x));
        }
    }
    extra.sort_unstable();
    extra.dedup();
    *replies = extra;
}
