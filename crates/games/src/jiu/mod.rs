//! Tibetan Jiu (久棋) on 14×14 lines, as rules/jiu.md plays it.
//!
//! - [`board`]: point indices (in point order), neighbour and 2×2-block tables, point sets;
//! - [`moves`]: the move type and move generation (placements, steps, jump chains, flying,
//!   square captures) and the legality check of parsed moves;
//! - [`text`]: position text, move text and the text board;
//! - [`dataset`]: the reader of the public Jiu dataset's record text.
//!
//! The position keeps its history: undo, the 100-ply rule and threefold repetition need it.
//! A position read from text starts a fresh history.

pub mod board;
pub mod dataset;
pub mod moves;
pub mod text;

use board::{EMPTY, G7, H8, POINTS, colour};
use boyi_core::{
    Game, NoVariant, Outcome, Reason, RenderOptions, Side, TextError, text_err, zobrist,
};

pub use moves::JiuMove;

/// Consecutive battle plies without capture that draw the game.
pub const QUIET_DRAW: u8 = 100;
/// A side with this many pieces or fewer may fly.
pub const FLY_LIMIT: u8 = 14;
/// A side with fewer pieces than this has lost.
pub const MIN_PIECES: u8 = 4;

/// The two phases of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Placement (布局): the sides fill the board one piece at a time.
    Place,
    /// Battle (行棋): steps, jumps, flying and square captures.
    Battle,
}

/// What [`Game::undo`] needs beyond the move itself.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Undo {
    mv: JiuMove,
    quiet: u8,
    hash: u64,
    /// The contents of `g7` and `h8` removed by the transition to battle (else empty).
    centre: [u8; 2],
}

/// A Jiu position with its history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jiu {
    /// Point contents by index (see [`board`]): [`EMPTY`] or [`colour`] of a side.
    cells: [u8; POINTS],
    /// Pieces on the board, by [`Side::index`].
    count: [u8; 2],
    side: Side,
    phase: Phase,
    /// Placements made so far (196 in battle).
    placements: u8,
    /// Battle plies since the last capture.
    quiet: u8,
    hash: u64,
    history: Vec<Undo>,
}

/// Zobrist keys: one per (colour, point), then white to move, then battle phase.
const KEYS: [u64; 2 * POINTS + 2] = zobrist::keys(0x004A_4955_6A69_7521);
const KEY_WHITE: u64 = KEYS[2 * POINTS];
const KEY_BATTLE: u64 = KEYS[2 * POINTS + 1];

fn piece_key(cell: u8, index: u8) -> u64 {
    KEYS[(cell as usize - 1) * POINTS + index as usize]
}

impl Jiu {
    /// The empty board, white to place.
    pub fn new() -> Jiu {
        let mut pos = Jiu {
            cells: [EMPTY; POINTS],
            count: [0; 2],
            side: Side::White,
            phase: Phase::Place,
            placements: 0,
            quiet: 0,
            hash: 0,
            history: Vec::new(),
        };
        pos.hash = pos.compute_hash();
        pos
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Pieces of `side` on the board.
    pub fn pieces(&self, side: Side) -> u8 {
        self.count[side.index()]
    }

    /// Placements made so far (196 once the battle has begun).
    pub fn placements(&self) -> u8 {
        self.placements
    }

    /// Battle plies since the last capture.
    pub fn moves_without_capture(&self) -> u8 {
        self.quiet
    }

    /// The piece on `p`, if any.
    pub fn piece_at(&self, p: boyi_core::Point) -> Option<Side> {
        if !p.on_board(board::SIZE) {
            return None;
        }
        side_of(self.cells[board::index_of(p) as usize])
    }

    fn put(&mut self, index: u8, cell: u8) {
        debug_assert_eq!(self.cells[index as usize], EMPTY);
        self.cells[index as usize] = cell;
        self.count[cell as usize - 1] += 1;
        self.hash ^= piece_key(cell, index);
    }

    fn take(&mut self, index: u8) -> u8 {
        let cell = self.cells[index as usize];
        debug_assert_ne!(cell, EMPTY);
        self.cells[index as usize] = EMPTY;
        self.count[cell as usize - 1] -= 1;
        self.hash ^= piece_key(cell, index);
        cell
    }

    fn set_side(&mut self, side: Side) {
        if side != self.side {
            self.hash ^= KEY_WHITE;
            self.side = side;
        }
    }

    fn set_phase(&mut self, phase: Phase) {
        if phase != self.phase {
            self.hash ^= KEY_BATTLE;
            self.phase = phase;
        }
    }

    /// The 196th placement: the centre pieces leave and black, who placed last, moves first.
    fn begin_battle(&mut self) -> [u8; 2] {
        let centre = [self.take(G7), self.take(H8)];
        self.set_phase(Phase::Battle);
        self.set_side(Side::Black);
        self.quiet = 0;
        centre
    }

    /// The side that has fewer than [`MIN_PIECES`] pieces in battle (it has lost).
    fn too_few(&self) -> Option<Side> {
        if self.phase != Phase::Battle {
            return None;
        }
        Side::BOTH
            .into_iter()
            .find(|&s| self.count[s.index()] < MIN_PIECES)
    }

    /// The drawing rule that applies now, if any.
    fn draw_reason(&self) -> Option<Reason> {
        if self.phase != Phase::Battle {
            return None;
        }
        if self.quiet >= QUIET_DRAW {
            return Some(Reason::MoveCountRule);
        }
        let reach = (self.quiet as usize).min(self.history.len());
        let seen = (2..=reach)
            .step_by(2)
            .filter(|&d| self.history[self.history.len() - d].hash == self.hash)
            .count();
        (seen >= 2).then_some(Reason::Repetition)
    }

    /// Whether the game ended by a rule other than Reason::NoLegalMove.
    fn ended_by_rule(&self) -> bool {
        self.too_few().is_some() || self.draw_reason().is_some()
    }
}

impl Default for Jiu {
    fn default() -> Self {
        Jiu::new()
    }
}

fn side_of(cell: u8) -> Option<Side> {
    match cell {
        c if c == colour(Side::Black) => Some(Side::Black),
        c if c == colour(Side::White) => Some(Side::White),
        _ => None,
    }
}

impl Game for Jiu {
    type Move = JiuMove;
    type Variant = NoVariant;

    const NAME: &'static str = "jiu";
    const VARIANTS: &'static [&'static str] = &["standard"];

    fn start(_: &NoVariant, size: Option<usize>) -> Result<Self, TextError> {
        match size {
            None | Some(board::SIZE) => Ok(Jiu::new()),
            Some(n) => Err(text_err!("jiu is played on 14x14 lines only, not {n}x{n}")),
        }
    }

    fn from_text(_: &NoVariant, text: &str) -> Result<Self, TextError> {
        text::parse_position(text)
    }

    fn to_text(&self) -> String {
        text::write_position(self)
    }

    fn variant(&self) -> &NoVariant {
        &NoVariant
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, out: &mut Vec<JiuMove>) {
        if !self.ended_by_rule() {
            moves::generate(self, out);
        }
    }

    fn play(&mut self, mv: &JiuMove) {
        let mut undo = Undo {
            mv: *mv,
            quiet: self.quiet,
            hash: self.hash,
            centre: [EMPTY; 2],
        };
        let me = colour(self.side);
        if mv.is_placement() {
            self.put(mv.landing_index(), me);
            self.placements += 1;
            if self.placements as usize == POINTS {
                undo.centre = self.begin_battle();
            } else {
                self.set_side(!self.side);
            }
        } else {
            self.take(mv.origin_index());
            self.put(mv.landing_index(), me);
            for p in mv.jumped_indices().chain(mv.capture_indices()) {
                self.take(p);
            }
            let captured = mv.captures_anything();
            self.quiet = if captured { 0 } else { self.quiet + 1 };
            self.set_side(!self.side);
        }
        self.history.push(undo);
    }

    fn undo(&mut self) -> bool {
        let Some(undo) = self.history.pop() else {
            return false;
        };
        let mv = undo.mv;
        if mv.is_placement() {
            if undo.centre != [EMPTY; 2] {
                self.put(G7, undo.centre[0]);
                self.put(H8, undo.centre[1]);
                self.set_phase(Phase::Place);
            }
            let cell = self.take(mv.landing_index());
            self.set_side(side_of(cell).expect("a placed piece"));
            self.placements -= 1;
        } else {
            let mover = self.side.opponent();
            let enemy = colour(self.side);
            for p in mv.jumped_indices().chain(mv.capture_indices()) {
                self.put(p, enemy);
            }
            self.take(mv.landing_index());
            self.put(mv.origin_index(), colour(mover));
            self.set_side(mover);
        }
        self.quiet = undo.quiet;
        debug_assert_eq!(self.hash, undo.hash);
        true
    }

    fn history_len(&self) -> usize {
        self.history.len()
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(loser) = self.too_few() {
            return Some(Outcome::win(!loser, Reason::TooFewPieces));
        }
        if let Some(reason) = self.draw_reason() {
            return Some(Outcome::draw(reason));
        }
        (!moves::has_move(self)).then(|| Outcome::win(!self.side, Reason::NoLegalMove))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (i, &cell) in self.cells.iter().enumerate() {
            if cell != EMPTY {
                h ^= piece_key(cell, i as u8);
            }
        }
        if self.side == Side::White {
            h ^= KEY_WHITE;
        }
        if self.phase == Phase::Battle {
            h ^= KEY_BATTLE;
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<JiuMove, TextError> {
        text::parse_move(self, text)
    }

    fn format_move(&self, mv: &JiuMove) -> String {
        text::format_move(self, mv)
    }

    fn render(&self, _: &RenderOptions) -> String {
        text::render(self)
    }
}
