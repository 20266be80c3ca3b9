//! The threat terms of the static value: the leaves' VCF budget, the initiative of the side
//! to move, and the weighted balance of both sides' threats.

use super::*;

/// Bonus of a quiet leaf for the side to move's initiative, from the threat classes alone.
/// Moving first, a double three wins unless the opponent has a four to interrupt with (or
/// must be answered: its own three); the opponent's double three only costs a tempo to stop.
/// Black's double threes are forbidden in renju and not counted.
pub(super) fn initiative(b: &EngineBoard, me: Side) -> i32 {
    let opp = !me;
    let counts = |s: Side| {
        let can_33 = !(s == Side::Black && b.rule() == Variant::Renju);
        let d3 = can_33 && b.count(s, Threat::DoubleThree) > 0;
        (d3, b.count_at_least(s, Threat::Four) > 0)
    };
    let (my_d3, my_four) = counts(me);
    let (opp_d3, opp_four) = counts(opp);
    let mut v = 0;
    if my_d3 {
        v += if opp_four { INIT_D3_CONTESTED } else { INIT_D3 };
    }
    if opp_d3 && !my_four {
        v -= INIT_OPP_D3;
    }
    v
}

/// Σ of the line values of the empty points for `s`, without the threat-class bonuses (and
/// without the five value of a point that completes a four on the board): what the threats
/// are worth depends on who moves, which `threat_balance` judges.
pub(super) fn line_sum(b: &EngineBoard, s: Side) -> i32 {
    let bonus: i32 = (Threat::DoubleThree as usize..=Threat::Five as usize)
        .map(|t| i32::from(b.count_class(s, t)) * THREAT_VALUE[t])
        .sum();
    let fives = i32::from(b.count(s, Threat::Five)) * PATTERN_VALUE[Pattern::Five as usize];
    b.sums()[s.index()] - bonus - fives
}

/// The threats on the board judged for the side to move `me` (no five to make, at most one
/// to stop, no open three to make a straight four of unanswered: the search settles those),
/// valued with the hand-set weights.
pub(super) fn threat_balance(b: &mut EngineBoard, me: Side) -> i32 {
    weigh(&threat_terms(b, me), &HAND_THREAT_WEIGHTS)
}

/// Σ of the threat terms times their weights.
pub(super) fn weigh(terms: &[i32; THREAT_TERMS], weights: &[i32; THREAT_TERMS]) -> i32 {
    terms.iter().zip(weights).map(|(t, w)| t * w).sum()
}

/// Terms of the threat balance (`threat_terms`).
pub const THREAT_TERMS: usize = 11;

/// The hand-set weights of the threat terms. Moving first, a four-three or a double three
/// wins unless the opponent can interrupt with fours; the opponent's threats cost a tempo to
/// answer, and two of them one more.
pub const HAND_THREAT_WEIGHTS: [i32; THREAT_TERMS] =
    [-100, 2500, 400, 1200, 200, 30, -300, -150, -150, -500, -30];

/// The threat terms for the side to move `me`, each a count or 0/1: an opponent's five to
/// block (then nothing else counts: the block is forced); an own four-three, uncontested and
/// contested (the opponent has a four to interrupt with); else an own double three, the same
/// two ways; own four points (up to six); an opponent's open three, unanswerable and
/// answerable by an own four; one opponent's four-three or double three, and two or more;
/// the opponent's four points (up to six).
pub fn threat_terms(b: &mut EngineBoard, me: Side) -> [i32; THREAT_TERMS] {
    let mut t = [0; THREAT_TERMS];
    let opp = !me;
    if b.count(opp, Threat::Five) > 0 {
        t[0] = 1;
        return t;
    }
    let renju = b.rule() == Variant::Renju;
    let can_33 = |s: Side| !(s == Side::Black && renju);
    let my_fours = b.count_at_least(me, Threat::Four) > 0;
    let opp_fours = b.count_at_least(opp, Threat::Four) > 0;
    // Black's four-threes and straight fours may be forbidden in renju (`playable`).
    let four_three = Threat::FourThree..=Threat::FourThree;
    if playable(b, me, four_three.clone(), 1) > 0 {
        t[1 + usize::from(opp_fours)] = 1;
    } else if can_33(me) && b.count(me, Threat::DoubleThree) > 0 {
        t[3 + usize::from(opp_fours)] = 1;
    }
    t[5] = i32::from(b.count(me, Threat::Four)).min(6);
    if playable(b, opp, Threat::FlexFour..=Threat::FlexFour, 1) > 0 {
        t[6 + usize::from(my_fours)] = 1;
    }
    let opp_43 = playable(b, opp, four_three, 2);
    let opp_33 = if can_33(opp) {
        b.count(opp, Threat::DoubleThree)
    } else {
        0
    };
    match opp_43 + opp_33 {
        0 => {}
        1 => t[8] = 1,
        _ => t[9] = 1,
    }
    t[10] = i32::from(b.count(opp, Threat::Four)).min(6);
    t
}

/// Leaf bonuses of `initiative`.
pub(super) const INIT_D3: i32 = 600;
pub(super) const INIT_D3_CONTESTED: i32 = 150;
pub(super) const INIT_OPP_D3: i32 = 100;
