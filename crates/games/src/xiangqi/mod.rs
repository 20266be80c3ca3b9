//! Xiangqi (Chinese chess), as rules/xiangqi.md: the board and its fast move generator
//! ([`Board`], [`MoveList`]), FEN, the three move notations, and [`Xiangqi`], the
//! [`Game`] with its history rules.
//!
//! Engines build on [`Board`] directly: [`Board::gen_legal`], [`Board::make`] /
//! [`Board::unmake`], [`Board::in_check`], [`Board::is_attacked`] and the incremental
//! [`Board::hash`]. [`Xiangqi`] adds the record (undo, repetition, the 60-move rule) and
//! the text forms.
//!
//! Red is [`Side::White`] (FEN `w`).

pub mod attacks;
pub mod board;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod repetition;
pub mod zobrist;

pub use board::{Board, Kind, Move, Square, square};
pub use movegen::MoveList;
pub use repetition::PlyMark;

use boyi_core::{Game, NoVariant, Outcome, Reason, RenderOptions, Side, TextError, text_err};
use std::fmt;

/// What [`Game::undo`] needs to take a move back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Played {
    mv: Move,
    captured: u8,
    halfmove: u32,
}

/// A Xiangqi game: position, clocks and the record since the position was set up.
#[derive(Clone, PartialEq, Eq)]
pub struct Xiangqi {
    board: Board,
    /// Plies since the last capture (the FEN halfmove clock counts toward it).
    halfmove: u32,
    fullmove: u32,
    /// One mark per position since the position read: `marks[0]` is that position.
    marks: Vec<PlyMark>,
    played: Vec<Played>,
}

impl fmt::Debug for Xiangqi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Xiangqi({})", self.to_text())
    }
}

impl Xiangqi {
    fn from_fen(fen: fen::Fen) -> Xiangqi {
        let mark = PlyMark {
            hash: fen.board.hash(),
            check: fen.board.in_check(),
        };
        Xiangqi {
            board: fen.board,
            halfmove: fen.halfmove,
            fullmove: fen.fullmove,
            marks: vec![mark],
            played: Vec::new(),
        }
    }

    /// The board, for engines and tools.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Plies since the last capture.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The record's marks, one per position since the position read.
    pub fn marks(&self) -> &[PlyMark] {
        &self.marks
    }

    /// The outcome the history rules give now (not looking at legal moves).
    fn history_outcome(&self) -> Option<Outcome> {
        repetition::outcome(&self.marks, self.halfmove, self.board.side_to_move())
    }

    fn legal_list(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.history_outcome().is_none() {
            self.board.gen_legal(&mut list);
        }
        list
    }

    /// The WXF text of a legal move (`C2.5`).
    pub fn format_wxf(&self, mv: &Move) -> String {
        notation::wxf::format(&self.board, *mv)
    }

    /// The Chinese text of a legal move (`炮二平五`).
    pub fn format_chinese(&self, mv: &Move) -> String {
        notation::chinese::format(&self.board, *mv)
    }

    /// Whether the fast perft of [`Board::perft`] gives the game's count: no position within
    /// `depth` plies can reach the 120-ply limit or a third occurrence (which needs at least
    /// eight plies since the oldest position that could repeat).
    fn history_free_within(&self, depth: u32) -> bool {
        let window = (self.halfmove as usize).min(self.marks.len() - 1);
        self.halfmove + depth <= repetition::NO_CAPTURE_LIMIT && window + depth as usize <= 8
    }
}

impl Game for Xiangqi {
    type Move = Move;
    type Variant = NoVariant;
    const NAME: &'static str = "xiangqi";
    const VARIANTS: &'static [&'static str] = &["standard"];

    fn start(_: &NoVariant, size: Option<usize>) -> Result<Self, TextError> {
        match size {
            None | Some(9) => Ok(Xiangqi::from_fen(fen::parse(fen::START)?)),
            Some(n) => Err(text_err!(
                "xiangqi is played on a 9x10 board only, not size {n}"
            )),
        }
    }

    fn from_text(_: &NoVariant, text: &str) -> Result<Self, TextError> {
        Ok(Xiangqi::from_fen(fen::parse(text)?))
    }

    fn to_text(&self) -> String {
        fen::write(&self.board, self.halfmove, self.fullmove)
    }

    fn variant(&self) -> &NoVariant {
        &NoVariant
    }

    fn side_to_move(&self) -> Side {
        self.board.side_to_move()
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::White => "red",
            Side::Black => "black",
        }
    }

    fn generate_moves(&self, out: &mut Vec<Move>) {
        out.extend_from_slice(self.legal_list().as_slice());
    }

    fn is_legal(&self, mv: &Move) -> bool {
        self.legal_list().iter().any(|m| m == mv)
    }

    fn play(&mut self, mv: &Move) {
        let mover = self.board.side_to_move();
        let captured = self.board.make(*mv);
        self.played.push(Played {
            mv: *mv,
            captured,
            halfmove: self.halfmove,
        });
        self.halfmove = if captured == board::EMPTY {
            self.halfmove + 1
        } else {
            0
        };
        if mover == Side::Black {
            self.fullmove += 1;
        }
        self.marks.push(PlyMark {
            hash: self.board.hash(),
            check: self.board.in_check(),
        });
    }

    fn undo(&mut self) -> bool {
        let Some(p) = self.played.pop() else {
            return false;
        };
        self.marks.pop();
        self.board.unmake(p.mv, p.captured);
        self.halfmove = p.halfmove;
        if self.board.side_to_move() == Side::Black {
            self.fullmove -= 1;
        }
        true
    }

    fn history_len(&self) -> usize {
        self.played.len()
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut list = MoveList::new();
        self.board.gen_legal(&mut list);
        if list.is_empty() {
            let winner = !self.board.side_to_move();
            let reason = if self.board.in_check() {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Some(Outcome::win(winner, reason));
        }
        self.history_outcome()
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn compute_hash(&self) -> u64 {
        self.board.compute_hash()
    }

    fn parse_move(&self, text: &str) -> Result<Move, TextError> {
        let text = text.trim();
        let legal = self.legal_list();
        if notation::iccs::looks_like(text) {
            let mv = notation::iccs::parse(text)?;
            return if legal.iter().any(|m| *m == mv) {
                Ok(mv)
            } else {
                Err(text_err!("move {text:?} is not legal here"))
            };
        }
        if text.is_ascii() {
            notation::wxf::parse(&self.board, &legal, text)
        } else {
            notation::chinese::parse(&self.board, &legal, text)
        }
    }

    fn format_move(&self, mv: &Move) -> String {
        notation::iccs::format(*mv)
    }

    fn render(&self, opts: &RenderOptions) -> String {
        render(self, opts.chinese)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        if self.history_free_within(depth) {
            self.board.perft(depth)
        } else {
            boyi_core::perft::perft_generic(self, depth)
        }
    }
}

fn glyph(side: Side, kind: Kind) -> char {
    let red = side == Side::White;
    match kind {
        Kind::King => {
            if red {
                '帥'
            } else {
                '將'
            }
        }
        Kind::Advisor => {
            if red {
                '仕'
            } else {
                '士'
            }
        }
        Kind::Elephant => {
            if red {
                '相'
            } else {
                '象'
            }
        }
        Kind::Horse => {
            if red {
                '傌'
            } else {
                '馬'
            }
        }
        Kind::Chariot => {
            if red {
                '俥'
            } else {
                '車'
            }
        }
        Kind::Cannon => {
            if red {
                '炮'
            } else {
                '砲'
            }
        }
        Kind::Pawn => {
            if red {
                '兵'
            } else {
                '卒'
            }
        }
    }
}

/// The board from red's side, rank 9 on top; Latin letters (upper case red) or Chinese
/// glyphs (full width, so each point takes two columns either way).
fn render(game: &Xiangqi, chinese: bool) -> String {
    let b = &game.board;
    let files = if chinese {
        "   ａ ｂ ｃ ｄ ｅ ｆ ｇ ｈ ｉ"
    } else {
        "   a  b  c  d  e  f  g  h  i"
    };
    let mut out = format!("{files}\n");
    for rank in (0..10).rev() {
        out.push_str(&format!("{rank} "));
        for file in 0..9 {
            let cell = match b.piece_at(square(file, rank)) {
                Some((side, kind)) if chinese => format!("{}", glyph(side, kind)),
                Some((side, kind)) => format!(" {}", kind.letter(side)),
                None if chinese => "＋".to_string(),
                None => " .".to_string(),
            };
            out.push_str(&cell);
            out.push(' ');
        }
        out.push_str(&format!("{rank}\n"));
        if rank == 5 {
            out.push_str(if chinese {
                "  ～～～～～ 楚河  汉界 ～～～～～\n"
            } else {
                "  ~~~~~~~~~~~ river ~~~~~~~~~~~\n"
            });
        }
    }
    out.push_str(&format!("{files}\n"));
    out.push_str(&format!("fen {}\n", game.to_text()));
    match game.outcome() {
        Some(o) => {
            let who = o
                .winner
                .map_or("nobody".to_string(), |s| Xiangqi::side_name(s).to_string());
            out.push_str(
                &format!("game over: {who} wins ({})\n", o.reason).replace("nobody wins", "draw"),
            );
        }
        None => {
            let side = Xiangqi::side_name(game.side_to_move());
            let check = if game.board.in_check() {
                ", in check"
            } else {
                ""
            };
            out.push_str(&format!("{side} to move{check}\n"));
        }
    }
    out
}
