//! The history rules: repetition (perpetual check loses, other threefold repetition draws)
//! and the 60-move rule (120 plies without capture draw).
//!
//! The game keeps one [`PlyMark`] per position of its record: the position's hash and what
//! the move that led to it did. A position that occurs for the third time ends the game; the
//! verdict looks at the moves played since its first occurrence, in [`judge_cycle`]. The
//! Asian chase rules fit in the same frame: they add what each move chased to [`PlyMark`]
//! and refine [`judge_cycle`], which sees the whole cycle with every move's marks.

use boyi_core::{Outcome, Reason, Side};

/// Plies without capture after which the game is drawn.
pub const NO_CAPTURE_LIMIT: u32 = 120;

/// One position of the game record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlyMark {
    /// Zobrist hash (placement and side to move).
    pub hash: u64,
    /// The side to move is in check: the move that led here gave check.
    pub check: bool,
}

/// The outcome the history rules give the last position of `marks` (the game record from
/// the position read, one mark per position), `clock` plies after the last capture; `None`
/// if they do not end the game. Legal moves are not looked at: mate takes precedence and is
/// the caller's business.
pub fn outcome(marks: &[PlyMark], clock: u32, to_move: Side) -> Option<Outcome> {
    repetition(marks, clock, to_move)
        .or_else(|| (clock >= NO_CAPTURE_LIMIT).then(|| Outcome::draw(Reason::MoveCountRule)))
}

/// The repetition verdict when the last position occurs for the third time.
fn repetition(marks: &[PlyMark], clock: u32, to_move: Side) -> Option<Outcome> {
    let n = marks.len().checked_sub(1)?;
    // Positions before the last capture have other material and cannot repeat.
    let oldest = n.saturating_sub(clock as usize);
    let hash = marks[n].hash;
    let mut earlier = (oldest..n.saturating_sub(3))
        .rev()
        .filter(|i| (n - i).is_multiple_of(2) && marks[*i].hash == hash);
    earlier.next()?;
    let first = earlier.next()?;
    Some(judge_cycle(&marks[first..], to_move))
}

/// The verdict on a cycle: `cycle[0]` is the first occurrence of the repeated position, the
/// last entry its third occurrence, with `to_move` to move there. If every move of one side
/// gave check and not every move of the other, the checking side loses; otherwise draw.
pub fn judge_cycle(cycle: &[PlyMark], to_move: Side) -> Outcome {
    let n = cycle.len() - 1;
    let mut always_checked = [true; 2];
    for (j, mark) in cycle.iter().enumerate().skip(1) {
        // The move into position j was made by the side not to move at j.
        let mover = if (n - j).is_multiple_of(2) {
            !to_move
        } else {
            to_move
        };
        always_checked[mover.index()] &= mark.check;
    }
    let [black, red] = always_checked;
    match (red, black) {
        (true, false) => Outcome::win(Side::Black, Reason::PerpetualCheck),
        (false, true) => Outcome::win(Side::White, Reason::PerpetualCheck),
        _ => Outcome::draw(Reason::Repetition),
    }
}
