//! Chinese notation: `炮二平五`, `马８进７`, `前车进一`.
//!
//! Red's files and distances are Chinese numerals (一…九), black's are full-width digits
//! (１…９); piece names: red 帅 仕 相 马 车 炮 兵, black 将 士 象 马 车 炮 卒. Several like
//! pieces on one file: two: 前/后 before the name (`前车进一`); three pawns: 前/中/后; four
//! or five pawns: 前, 二, 三, (四,) 后; pawns doubled on two files: 前/中/后 then the file in
//! place of the name (`前三平四`, `后７进１`).
//!
//! Input also takes traditional characters (帥 將 馬 車 俥 傌 砲 後 進), either side's piece
//! names, half-width digits and Chinese numerals for either side, and the plain file form of
//! a tandem piece when only one legal move matches it.

use super::super::board::{Board, Kind, Move};
use super::super::movegen::MoveList;
use super::{Description, Direction, describe};
use boyi_core::{Side, TextError, text_err};

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_WIDTH: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// One unit of Chinese move text, spelling-independent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Piece(Kind),
    Number(u8),
    Front,
    Middle,
    Rear,
    Go(Direction),
}

fn token(c: char) -> Option<Token> {
    use Token::*;
    Some(match c {
        '帅' | '帥' | '将' | '將' => Piece(Kind::King),
        '仕' | '士' => Piece(Kind::Advisor),
        '相' | '象' => Piece(Kind::Elephant),
        '马' | '馬' | '傌' => Piece(Kind::Horse),
        '车' | '車' | '俥' => Piece(Kind::Chariot),
        '炮' | '砲' | '包' => Piece(Kind::Cannon),
        '兵' | '卒' => Piece(Kind::Pawn),
        '前' => Front,
        '中' => Middle,
        '后' | '後' => Rear,
        '进' | '進' => Go(Direction::Forward),
        '退' => Go(Direction::Backward),
        '平' => Go(Direction::Sideways),
        '1'..='9' => Number(c as u8 - b'0'),
        _ => {
            let n = NUMERALS
                .iter()
                .position(|&x| x == c)
                .or_else(|| FULL_WIDTH.iter().position(|&x| x == c))?;
            Number(n as u8 + 1)
        }
    })
}

fn name(kind: Kind, side: Side) -> char {
    let red = side == Side::White;
    match kind {
        Kind::King => {
            if red {
                '帅'
            } else {
                '将'
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
        Kind::Horse => '马',
        Kind::Chariot => '车',
        Kind::Cannon => '炮',
        Kind::Pawn => {
            if red {
                '兵'
            } else {
                '卒'
            }
        }
    }
}

fn number(n: u8, side: Side) -> char {
    let table = if side == Side::White {
        &NUMERALS
    } else {
        &FULL_WIDTH
    };
    table[n as usize - 1]
}

/// The Chinese text of a legal move of the side to move.
pub fn format(board: &Board, m: Move) -> String {
    spell(&describe(board, m), true)
}

fn spell(d: &Description, tandem: bool) -> String {
    let piece = name(d.kind, d.side);
    let file = number(d.file, d.side);
    let mut s = String::with_capacity(12);
    match d.tandem.filter(|_| tandem) {
        None => {
            s.push(piece);
            s.push(file);
        }
        Some(t) => {
            let last = t.index + 1 == t.count;
            let place = match (t.index, t.count) {
                (0, _) => '前',
                _ if last => '后',
                (1, 3) => '中',
                (i, _) => NUMERALS[i],
            };
            s.push(place);
            s.push(if t.multi_file { file } else { piece });
        }
    }
    s.push(match d.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    });
    s.push(number(d.target, d.side));
    s
}

fn tokens(text: &str) -> Result<Vec<Token>, TextError> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            token(c).ok_or_else(|| {
                text_err!("Chinese move {text:?}: {c:?} is not part of the notation")
            })
        })
        .collect()
}

/// Parses Chinese text against the legal moves.
pub fn parse(board: &Board, legal: &MoveList, text: &str) -> Result<Move, TextError> {
    let want = tokens(text)?;
    if want.len() != 4 || !matches!(want[2], Token::Go(_)) || !matches!(want[3], Token::Number(_)) {
        return Err(text_err!(
            "Chinese move {text:?} must be four characters like 炮二平五 or 前车进一"
        ));
    }
    let spelled = |d: &Description, tandem| tokens(&spell(d, tandem)).expect("own spelling");
    let descs: Vec<(Move, Description)> = legal.iter().map(|&m| (m, describe(board, m))).collect();
    if let Some((m, _)) = descs.iter().find(|(_, d)| spelled(d, true) == want) {
        return Ok(*m);
    }
    let plain: Vec<Move> = descs
        .iter()
        .filter(|(_, d)| d.tandem.is_some() && spelled(d, false) == want)
        .map(|(m, _)| *m)
        .collect();
    match plain.as_slice() {
        [m] => Ok(*m),
        [] => Err(text_err!("Chinese move {text:?} is not a legal move here")),
        _ => Err(text_err!(
            "Chinese move {text:?} is ambiguous: name the front or rear piece"
        )),
    }
}
