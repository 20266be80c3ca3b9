//! Threat-space search: VCF (victory by continuous fours — every attacking move is a four,
//! so the defence is forced) and VCT (fours and threes; the defender tries every point that
//! stops a three and every counter-four). Both respect renju: black's attacking moves must not
//! be forbidden, and a forced black defence on a forbidden point loses.

use super::board::EngineBoard;
use super::pattern::Threat;
use boyi_core::Side;
use boyi_games::gomoku::Variant;
use std::time::Instant;

/// Failed positions remembered per search (hash and depth), so transpositions of the same
/// threat sequence are not searched again.
const FAIL_SLOTS: usize = 1 << 16;

pub struct ThreatSearch {
    pub nodes: u64,
    budget: u64,
    until: Option<Instant>,
    pub aborted: bool,
    /// Moves of the attack found, attacker and defender alternating (VCF), or the attacker's
    /// first move (VCT).
    pub line: Vec<usize>,
    pool: Vec<Vec<usize>>,
    fails: Vec<u64>,
}

impl Default for ThreatSearch {
    fn default() -> Self {
        ThreatSearch::new(u64::MAX, None)
    }
}

/// Appends the empty points where `s` has a threat of at least `min` (and, for black in
/// renju, that black may play) to `out`.
pub fn collect(b: &mut EngineBoard, s: Side, min: Threat, out: &mut Vec<usize>) {
    threat_points(b, s, min, out);
    out.retain(|&i| b.is_legal_for(i, s));
}

/// Appends the empty points where `s` has a threat of at least `min` to `out`, forbidden or
/// not: the points where the opponent may block it (a point forbidden to black still blocks
/// black's line when white takes it).
pub fn threat_points(b: &EngineBoard, s: Side, min: Threat, out: &mut Vec<usize>) {
    out.clear();
    if b.count_at_least(s, min) == 0 {
        return;
    }
    if min >= Threat::Four {
        out.extend(b.fours(s).filter(|&i| b.threat(i, s) >= min));
    } else if min >= Threat::Three {
        out.extend(b.threes(s).filter(|&i| b.threat(i, s) >= min));
    } else {
        out.extend(
            b.points
                .iter()
                .filter(|&&i| b.is_empty(i) && b.threat(i, s) >= min),
        );
    }
}

/// Whether `s` has a point it may play that makes a straight four or two fours (an open
/// three, or better). In renju a black three whose straight-four point is forbidden is no
/// threat.
pub fn has_open_three(b: &mut EngineBoard, s: Side) -> bool {
    playable(b, s, Threat::FlexFour..=Threat::Five, 1) > 0
}

/// The empty points of `s` with a threat class in `classes` (fours or better: the points are
/// taken from the set of four points) that `s` may play, counted up to `cap`: in renju
/// black's forbidden points are left out, which the threat counts cannot see.
pub fn playable(
    b: &mut EngineBoard,
    s: Side,
    classes: std::ops::RangeInclusive<Threat>,
    cap: u16,
) -> u16 {
    let n: u16 = (*classes.start() as usize..=*classes.end() as usize)
        .map(|t| b.count_class(s, t))
        .sum();
    if n == 0 || !(s == Side::Black && b.rule() == Variant::Renju) {
        return n.min(cap);
    }
    // Judged a few points at a time, so the board is free for the forbidden-point test.
    let (mut from, mut found) = (0, 0);
    loop {
        let mut points = [0usize; 8];
        let mut n = 0;
        for i in b
            .fours(s)
            .filter(|&i| i >= from && classes.contains(&b.threat(i, s)))
        {
            points[n] = i;
            n += 1;
            if n == points.len() {
                break;
            }
        }
        for &i in &points[..n] {
            found += u16::from(b.is_legal_for(i, s));
            if found >= cap {
                return cap;
            }
        }
        if n < points.len() {
            return found;
        }
        from = points[n - 1] + 1;
    }
}

/// The points where `s` would complete a winning line now.
pub fn fives(b: &EngineBoard, s: Side, out: &mut Vec<usize>) {
    out.clear();
    if b.count(s, Threat::Five) == 0 {
        return;
    }
    out.extend(
        b.fours(s)
            .filter(|&i| b.threat(i, s) == Threat::Five && b.is_real_five(i, s)),
    );
}

impl ThreatSearch {
    pub fn new(budget: u64, until: Option<Instant>) -> ThreatSearch {
        ThreatSearch {
            nodes: 0,
            budget,
            until,
            aborted: false,
            line: Vec::new(),
            pool: Vec::new(),
            fails: vec![0; FAIL_SLOTS],
        }
    }

    /// Resets the budget for a new search (keeps the buffers and the failure memory).
    pub fn reset(&mut self, budget: u64, until: Option<Instant>) {
        self.nodes = 0;
        self.budget = budget;
        self.until = until;
        self.aborted = false;
        self.line.clear();
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.budget
            || (self.nodes.is_multiple_of(1024) && self.until.is_some_and(|t| Instant::now() >= t))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn failed(&self, key: u64, depth: u32) -> bool {
        let e = self.fails[(key as usize) & (FAIL_SLOTS - 1)];
        e >> 8 == key >> 8 && (e & 0xff) as u32 >= depth
    }

    fn remember_fail(&mut self, key: u64, depth: u32) {
        if !self.aborted {
            self.fails[(key as usize) & (FAIL_SLOTS - 1)] = (key & !0xff) | depth.min(255) as u64;
        }
    }

    fn buffer(&mut self) -> Vec<usize> {
        self.pool.pop().unwrap_or_else(|| Vec::with_capacity(64))
    }

    /// Whether the side to move wins by continuous fours within `depth` fours. On success
    /// `line` holds the sequence.
    pub fn vcf(&mut self, b: &mut EngineBoard, depth: u32) -> bool {
        self.line.clear();
        self.vcf_node(b, depth)
    }

    fn vcf_node(&mut self, b: &mut EngineBoard, depth: u32) -> bool {
        if self.tick() {
            return false;
        }
        let me = b.side();
        let mut moves = self.buffer();
        fives(b, me, &mut moves);
        if let Some(&w) = moves.first() {
            self.line.push(w);
            self.pool.push(moves);
            return true;
        }
        let key = b.hash() ^ 0x5643_4600;
        if depth == 0 || self.failed(key, depth) {
            self.pool.push(moves);
            return false;
        }
        fives(b, !me, &mut moves);
        match moves.len() {
            0 => collect(b, me, Threat::Four, &mut moves),
            1 => {
                let c = moves[0];
                let ok = b.threat(c, me) >= Threat::Four && b.is_legal_for(c, me);
                moves.clear();
                if ok {
                    moves.push(c);
                }
            }
            _ => moves.clear(),
        }
        // Strongest fours first: a flex four wins at once.
        moves.sort_by_key(|&i| std::cmp::Reverse((b.threat(i, me), b.value(i, me))));
        let mut won = false;
        for &c in &moves {
            let mark = self.line.len();
            self.line.push(c);
            if self.four_then(b, c, depth, Self::vcf_node) {
                won = true;
                break;
            }
            self.line.truncate(mark);
            if self.aborted {
                break;
            }
        }
        self.pool.push(moves);
        if !won {
            self.remember_fail(key, depth);
        }
        won
    }

    /// Plays the attacker's four `c`, the forced answer, and continues with `next`; true if
    /// the attack wins (including when the answer is impossible: two five points, or a
    /// forbidden point for black).
    fn four_then(
        &mut self,
        b: &mut EngineBoard,
        c: usize,
        depth: u32,
        next: fn(&mut Self, &mut EngineBoard, u32) -> bool,
    ) -> bool {
        let me = b.side();
        if b.threat(c, me) == Threat::FlexFour && self.flex_four_wins(b, c) {
            return true;
        }
        b.play(c);
        let mut answers = self.buffer();
        fives(b, me, &mut answers);
        let won = match answers.len() {
            0 => false,
            1 => {
                let d = answers[0];
                if !b.is_legal_for(d, !me) {
                    true
                } else {
                    b.play(d);
                    self.line.push(d);
                    let w = next(self, b, depth - 1);
                    if !w {
                        self.line.pop();
                    }
                    b.undo();
                    w
                }
            }
            _ => true,
        };
        self.pool.push(answers);
        b.undo();
        won
    }

    /// A flex four wins if, once played, the attacker really has two five points (the window
    /// tables may count an overline point as a five point under exact-five rules).
    fn flex_four_wins(&mut self, b: &mut EngineBoard, c: usize) -> bool {
        let me = b.side();
        b.play(c);
        let mut f = self.buffer();
        fives(b, me, &mut f);
        let n = f.len();
        self.pool.push(f);
        b.undo();
        n >= 2
    }

    /// Whether the side to move wins by fours and threes within `depth` attacking moves
    /// (with VCF of up to `vcf_depth` fours tried at every attacking node). On success
    /// `line` starts with the first attacking move.
    /// The depth grows one threat at a time, so a short win is found before the budget
    /// goes into the wide trees of long attacks (failures are remembered between rounds).
    pub fn vct(&mut self, b: &mut EngineBoard, depth: u32, vcf_depth: u32) -> bool {
        for d in 1..=depth {
            self.line.clear();
            if self.vct_attack(b, d, vcf_depth) {
                self.line.truncate(1);
                return true;
            }
            if self.aborted {
                break;
            }
        }
        self.line.clear();
        false
    }

    fn vct_attack(&mut self, b: &mut EngineBoard, depth: u32, vcf_depth: u32) -> bool {
        if self.tick() {
            return false;
        }
        let me = b.side();
        let mut moves = self.buffer();
        fives(b, me, &mut moves);
        if let Some(&w) = moves.first() {
            self.line.push(w);
            self.pool.push(moves);
            return true;
        }
        fives(b, !me, &mut moves);
        if !moves.is_empty() {
            // Block the defender's counter-four; the defender then moves again.
            let c = moves[0];
            let ok = moves.len() == 1 && b.is_legal_for(c, me);
            self.pool.push(moves);
            if !ok {
                return false;
            }
            b.play(c);
            self.line.push(c);
            let w = self.vct_defend(b, depth, vcf_depth);
            if !w {
                self.line.pop();
            }
            b.undo();
            return w;
        }
        let mark = self.line.len();
        if self.vcf_node(b, vcf_depth) {
            self.pool.push(moves);
            return true;
        }
        self.line.truncate(mark);
        let key = b.hash() ^ 0x5643_5400 ^ vcf_depth as u64;
        if depth == 0 || self.aborted || self.failed(key, depth) {
            self.pool.push(moves);
            return false;
        }
        collect(b, me, Threat::Three, &mut moves);
        // A three is too slow while the defender can make a straight four next move, unless
        // it takes the point that straight four needs (a three on the end of the defender's).
        if has_open_three(b, !me) {
            moves.retain(|&c| {
                b.play(c);
                let blocks = !has_open_three(b, !me);
                b.undo();
                blocks
            });
        }
        moves.sort_by_key(|&i| std::cmp::Reverse((b.threat(i, me), b.value(i, me))));
        let mut won = false;
        for &c in &moves {
            b.play(c);
            self.line.push(c);
            won = self.vct_defend(b, depth - 1, vcf_depth);
            b.undo();
            if won {
                break;
            }
            self.line.truncate(mark);
            if self.aborted {
                break;
            }
        }
        self.pool.push(moves);
        if !won {
            self.remember_fail(key, depth);
        }
        won
    }

    /// The defender to move: true if every defence loses.
    fn vct_defend(&mut self, b: &mut EngineBoard, depth: u32, vcf_depth: u32) -> bool {
        if self.tick() {
            return false;
        }
        let me = b.side();
        let attacker = !me;
        let mut moves = self.buffer();
        fives(b, me, &mut moves);
        if !moves.is_empty() {
            self.pool.push(moves);
            return false;
        }
        fives(b, attacker, &mut moves);
        if moves.len() >= 2 {
            self.pool.push(moves);
            return true;
        }
        if moves.is_empty() {
            // Without a point making a straight four (or two fours) the attacker threatens
            // nothing that forces an answer: the defender has a free move, and no list of
            // answers covers that (after a forced block, a four point elsewhere is no threat).
            if !has_open_three(b, attacker) {
                self.pool.push(moves);
                return false;
            }
            // Points that stop the attacker's threes (forbidden to black or not), then the
            // defender's own fours.
            threat_points(b, attacker, Threat::Four, &mut moves);
            let mut counter = self.buffer();
            collect(b, me, Threat::Four, &mut counter);
            for &c in &counter {
                if !moves.contains(&c) {
                    moves.push(c);
                }
            }
            self.pool.push(counter);
            // Likely refutations first: a failed attack (most of the tree) stops at the
            // first defence that holds.
            moves.sort_by_key(|&i| std::cmp::Reverse(b.value(i, me) + b.value(i, attacker)));
        }
        let mark = self.line.len();
        let mut all_lose = true;
        for &d in &moves {
            if !b.is_legal_for(d, me) {
                continue;
            }
            b.play(d);
            let w = self.vct_attack(b, depth, vcf_depth);
            b.undo();
            self.line.truncate(mark);
            if !w {
                all_lose = false;
                break;
            }
        }
        self.pool.push(moves);
        all_lose && !self.aborted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::{Game, Point};
    use boyi_games::gomoku::{Gomoku, Variant};

    #[test]
    fn a_black_three_with_forbidden_ends_is_no_threat_in_renju() {
        // Black's f8-g8-h8 can become a straight four on e8 or i8, but either point also
        // makes a four in its column: two fours, forbidden in renju.
        let moves = "f8,a1,g8,a3,h8,a5,e9,o1,e10,o3,e11,e12,i9,i12,i10,o5,i11";
        let board = |variant: Variant| {
            let mut p = Gomoku::start(&variant, Some(15)).unwrap();
            p.play_list(moves).unwrap();
            EngineBoard::from_game(&p)
        };
        let mut renju = board(Variant::Renju);
        assert!(renju.count_at_least(Side::Black, Threat::FlexFour) > 0);
        assert!(!has_open_three(&mut renju, Side::Black));
        assert!(has_open_three(&mut board(Variant::Freestyle), Side::Black));
        assert!(!has_open_three(&mut renju, Side::White));
    }

    #[test]
    fn white_blocks_a_black_three_on_a_point_forbidden_to_black() {
        // From a renju match against seed 001, white to move. Black's e13 made the three
        // e13-f12-g11; its end h10 would give black two fours, so black may not play it, but
        // white may, and only that block holds.
        let mut p = Gomoku::start(&Variant::Renju, Some(15)).unwrap();
        p.play_list(
            "g10,k7,j5,j6,g11,g9,l8,i5,i7,i9,l6,l7,j9,h11,h4,h7,e9,f10,k10,l11,e11,e12,e7,e8,\
             g5,f6,j10,j8,i11,k9,m10,l10,m11,m8,g13,g12,f12,d10,e13",
        )
        .unwrap();
        let mut b = EngineBoard::from_game(&p);
        let h10 = b.index(Point::parse("h10", 15).unwrap());
        assert!(!b.is_legal_for(h10, Side::Black));
        let mut ts = ThreatSearch::default();
        assert!(!ts.vct_defend(&mut b, 8, 12), "the block on h10 holds");
        assert!(!ts.aborted);
    }
}
