//! XQStudio `.xqf` Xiangqi files (binary). The main line is read; variations are counted in
//! the `Variations` tag. Boyi writes version 10 (plain, not obfuscated): the header, the
//! start position and the moves with their comments. The layout as implemented:
//!
//! | bytes | meaning |
//! |---|---|
//! | 0–1 | `XQ` |
//! | 2 | version (≤ 10 plain; 11 and later obfuscated) |
//! | 3 | key mask |
//! | 8–11 | four key bytes or-ed into the stream key |
//! | 12–15 | key sum, XY key, from key, to key (the four add up to 0 mod 256) |
//! | 16–47 | the 32 pieces' squares: red R N B A K A B N R C C P P P P P, then black alike; a square is file × 10 + rank (rank 0 on red's side), over 89 = not on the board |
//! | 50 | side to move first (0 red, 1 black) |
//! | 51 | result (1 red wins, 2 black wins, 3 draw) |
//! | 0x50, 0xD0, 0x110, 0x120, 0x130, 0x140 | title, event, date, place, red, black: a length byte then GBK text |
//! | 1024– | the move tree, one record per move in preorder: from, to, flags, a spare byte; then, if the record has a comment, its length (4 bytes, little-endian) and GBK text |
//!
//! A record's flags: `0x80` a move follows (its first child is the next record), `0x40` an
//! alternative follows, `0x20` a comment follows. The first record stands for the start
//! position (its comment is the game's). Squares in records are stored plus `0x18` (from)
//! and `0x20` (to).
//!
//! Versions up to 10 always store a comment length, and mark children with any of the high
//! four flag bits and alternatives with any of the low four. From version 11 the file is
//! obfuscated with keys derived from bytes 12–15: `s(k) = ((((k²·3 + 9)·3 + 8)·2 + 1)·3 + 8)`,
//! XY key `= s(b13)·b13`, from key `= s(b14)·XY`, to key `= s(b15)·from` (all mod 256); piece
//! squares are stored plus the XY key, from version 12 also rotated: slot i is stored at byte
//! `16 + (i − 1 − XY) mod 32`; move squares are stored plus the from / to key; comment lengths
//! plus `(b12·256 + b13) mod 32000 + 767`; every byte from 1024 on is stored plus
//! `K[i mod 32]`, where `K[j] = C[j] & k[j mod 4]`, `C` is the text
//! `[(C) Copyright Mr. Dong Shiwei.]` and `k` = (b12, b13, b14, b15), each and-ed with the
//! mask (byte 3) and or-ed with bytes 8–11.

use crate::record::{GameRecord, GameResult, RecordedMove};
use boyi_core::{Reason, Side, TextError, text_err};
use boyi_games::GameKind;

const HEADER: usize = 1024;
const KEY_TEXT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
const SLOTS: &[u8; 16] = b"RNBAKABNRCCPPPPP";
const START_PLACEMENT: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

/// The keys of an obfuscated file (all zero for plain files).
#[derive(Debug, Clone, Copy, Default)]
struct Keys {
    xy: u8,
    from: u8,
    to: u8,
    comment: u32,
    stream: [u8; 32],
}

fn scramble(k: u64) -> u64 {
    ((((k * k) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8
}

fn keys(b: &[u8]) -> Result<Keys, TextError> {
    let version = b[2];
    if version <= 10 {
        return Ok(Keys::default());
    }
    let (sum, rxy, rfrom, rto) = (b[12], b[13], b[14], b[15]);
    if sum.wrapping_add(rxy).wrapping_add(rfrom).wrapping_add(rto) != 0 {
        return Err(text_err!(
            "XQF key bytes do not add up: the file is damaged"
        ));
    }
    let xy = (scramble(rxy as u64) * rxy as u64) as u8;
    let from = (scramble(rfrom as u64) * xy as u64) as u8;
    let to = (scramble(rto as u64) * from as u64) as u8;
    let mask = b[3];
    let k = [sum, rxy, rfrom, rto].map(|x| x & mask);
    let k = [k[0] | b[8], k[1] | b[9], k[2] | b[10], k[3] | b[11]];
    let mut stream = [0u8; 32];
    for (j, s) in stream.iter_mut().enumerate() {
        *s = KEY_TEXT[j] & k[j % 4];
    }
    Ok(Keys {
        xy,
        from,
        to,
        comment: ((sum as u32 * 256 + rxy as u32) % 32000) + 767,
        stream,
    })
}

/// Reads an XQF file: header, start position and main line (moves as ICCS text).
pub fn read(bytes: &[u8]) -> Result<GameRecord, TextError> {
    if bytes.len() < HEADER || &bytes[..2] != b"XQ" {
        return Err(text_err!(
            "not an XQF file (no \"XQ\" header of 1024 bytes)"
        ));
    }
    let k = keys(bytes)?;
    let mut rec = GameRecord::new(GameKind::Xiangqi);
    let fen = start_fen(bytes, &k)?;
    if fen != format!("{START_PLACEMENT} w - - 0 1") {
        rec.start = Some(fen);
    }
    rec.result = match bytes[51] {
        1 => Some(GameResult::win(Side::White, Reason::Unknown)),
        2 => Some(GameResult::win(Side::Black, Reason::Unknown)),
        3 => Some(GameResult::draw(Reason::Unknown)),
        _ => None,
    };
    let title = pascal(bytes, 0x50, 63);
    if !title.is_empty() {
        rec.tags.insert("Title".into(), title);
    }
    rec.event = pascal(bytes, 0xD0, 63);
    let date = pascal(bytes, 0x110, 15);
    match crate::date::Date::parse(&date) {
        Ok(d) => rec.date = Some(d),
        Err(_) if date.is_empty() => {}
        Err(_) => {
            rec.tags.insert("DateText".into(), date);
        }
    }
    rec.site = pascal(bytes, 0x120, 15);
    rec.set_name(Side::White, pascal(bytes, 0x130, 15));
    rec.set_name(Side::Black, pascal(bytes, 0x140, 15));
    let body: Vec<u8> = bytes[HEADER..]
        .iter()
        .enumerate()
        .map(|(i, &b)| b.wrapping_sub(k.stream[i % 32]))
        .collect();
    read_main_line(&mut rec, &body, bytes[2], &k)?;
    Ok(rec)
}

fn pascal(b: &[u8], at: usize, cap: usize) -> String {
    let n = (b[at] as usize).min(cap);
    decode_gbk(&b[at + 1..at + 1 + n])
}

fn decode_gbk(raw: &[u8]) -> String {
    let (text, _, _) = encoding_rs::GB18030.decode(raw);
    text.trim_end_matches('\0').trim().to_string()
}

fn start_fen(b: &[u8], k: &Keys) -> Result<String, TextError> {
    let version = b[2];
    let mut slots = [0xFFu8; 32];
    for i in 0..32 {
        let slot = if version >= 12 {
            (i + 1 + k.xy as usize) % 32
        } else {
            i
        };
        slots[slot] = b[16 + i].wrapping_sub(k.xy);
    }
    let mut board = [[None::<char>; 9]; 10];
    for (i, &sq) in slots.iter().enumerate() {
        if sq > 89 {
            continue;
        }
        let (file, rank) = ((sq / 10) as usize, (sq % 10) as usize);
        if file > 8 {
            continue;
        }
        if board[rank][file].is_some() {
            return Err(text_err!("XQF: two pieces on square {sq}"));
        }
        let c = SLOTS[i % 16] as char;
        board[rank][file] = Some(if i < 16 { c } else { c.to_ascii_lowercase() });
    }
    let rows: Vec<String> = (0..10)
        .rev()
        .map(|r| {
            let mut s = String::new();
            let mut empty = 0;
            for cell in board[r] {
                match cell {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(c);
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    let side = if b[50] == 1 { 'b' } else { 'w' };
    Ok(format!("{} {side} - - 0 1", rows.join("/")))
}

struct Node {
    from: u8,
    to: u8,
    child: bool,
    sibling: bool,
    comment: String,
}

fn read_node(body: &[u8], at: &mut usize, version: u8, k: &Keys) -> Result<Node, TextError> {
    let rec = body
        .get(*at..*at + 4)
        .ok_or_else(|| text_err!("XQF: the move tree ends inside a record"))?;
    let (from, to, tag) = (rec[0], rec[1], rec[2]);
    *at += 4;
    let (child, sibling, has_comment) = if version <= 10 {
        (tag & 0xF0 != 0, tag & 0x0F != 0, true)
    } else {
        (tag & 0x80 != 0, tag & 0x40 != 0, tag & 0x20 != 0)
    };
    let mut comment = String::new();
    if has_comment {
        let len = body
            .get(*at..*at + 4)
            .ok_or_else(|| text_err!("XQF: the move tree ends inside a comment length"))?;
        *at += 4;
        let len =
            u32::from_le_bytes([len[0], len[1], len[2], len[3]]).wrapping_sub(k.comment) as usize;
        let text = body
            .get(*at..at.saturating_add(len))
            .ok_or_else(|| text_err!("XQF: a comment of {len} bytes runs past the end"))?;
        comment = decode_gbk(text);
        *at += len;
    }
    Ok(Node {
        from: from.wrapping_sub(0x18).wrapping_sub(k.from),
        to: to.wrapping_sub(0x20).wrapping_sub(k.to),
        child,
        sibling,
        comment,
    })
}

/// The main line: in preorder, each node's first child is the record right after it.
fn read_main_line(
    rec: &mut GameRecord,
    body: &[u8],
    version: u8,
    k: &Keys,
) -> Result<(), TextError> {
    if body.is_empty() {
        return Ok(());
    }
    let mut at = 0;
    let root = read_node(body, &mut at, version, k)?;
    if !root.comment.is_empty() {
        rec.tags.insert("Comment".into(), root.comment);
    }
    let mut variations = usize::from(root.sibling);
    let mut more = root.child;
    while more {
        let n = read_node(body, &mut at, version, k)
            .map_err(|e| e.context(format!("ply {}", rec.moves.len() + 1)))?;
        rec.moves.push(RecordedMove {
            comment: (!n.comment.is_empty()).then_some(n.comment),
            ..RecordedMove::new(format!("{}{}", square(n.from)?, square(n.to)?))
        });
        variations += usize::from(n.sibling);
        more = n.child;
    }
    if variations > 0 {
        rec.tags.insert("Variations".into(), variations.to_string());
    }
    Ok(())
}

fn square(xy: u8) -> Result<String, TextError> {
    let (file, rank) = (xy / 10, xy % 10);
    if xy > 89 {
        return Err(text_err!("XQF: square {xy} is off the board"));
    }
    Ok(format!("{}{rank}", (b'a' + file) as char))
}

/// The version Boyi writes: the last one without obfuscation.
const WRITE_VERSION: u8 = 10;

/// Writes a checked Xiangqi record as an XQF file. What XQF cannot hold is refused: a start
/// position with moves already counted towards the 60-move rule, more pieces of a kind than
/// the start has, or a header text longer than its field (GB18030 bytes: event 63, title
/// 63, date, site and each player 15).
pub fn write(rec: &GameRecord) -> Result<Vec<u8>, TextError> {
    if rec.game != GameKind::Xiangqi {
        return Err(text_err!("XQF holds xiangqi games, not {}", rec.game));
    }
    let start = rec
        .start
        .clone()
        .unwrap_or_else(|| format!("{START_PLACEMENT} w - - 0 1"));
    let mut out = vec![0u8; HEADER];
    out[0] = b'X';
    out[1] = b'Q';
    out[2] = WRITE_VERSION;
    write_position(&mut out, &start)?;
    out[51] = match rec.result.as_ref().map(GameResult::winner) {
        Some(Some(Side::White)) => 1,
        Some(Some(Side::Black)) => 2,
        Some(None) => 3,
        None => 0,
    };
    let date = rec.date.map(|d| d.pgn()).unwrap_or_default();
    let title = rec.tags.get("Title").map_or("", String::as_str);
    for (at, cap, what, text) in [
        (0x50, 63, "title", title),
        (0xD0, 63, "event", rec.event.as_str()),
        (0x110, 15, "date", date.as_str()),
        (0x120, 15, "site", rec.site.as_str()),
        (0x130, 15, "red player", rec.name(Side::White)),
        (0x140, 15, "black player", rec.name(Side::Black)),
    ] {
        let bytes = encode_gbk(text);
        if bytes.len() > cap {
            return Err(text_err!(
                "XQF holds a {what} of at most {cap} bytes, not {text:?} ({} bytes)",
                bytes.len()
            ));
        }
        out[at] = bytes.len() as u8;
        out[at + 1..at + 1 + bytes.len()].copy_from_slice(&bytes);
    }
    // The root record stands for the start position and carries the game's comment.
    let root_comment = rec.tags.get("Comment").map_or("", String::as_str);
    write_record(&mut out, [0, 0], !rec.moves.is_empty(), root_comment);
    for (i, m) in rec.moves.iter().enumerate() {
        let bad = || text_err!("ply {}: {:?} is not a move in ICCS", i + 1, m.text);
        let b = m.text.as_bytes();
        if b.len() != 4 {
            return Err(bad());
        }
        let sq = |f: u8, r: u8| -> Result<u8, TextError> {
            if !(b'a'..=b'i').contains(&f) || !r.is_ascii_digit() {
                return Err(bad());
            }
            Ok((f - b'a') * 10 + (r - b'0'))
        };
        let from = sq(b[0], b[1])?;
        let to = sq(b[2], b[3])?;
        let more = i + 1 < rec.moves.len();
        let comment = m.comment.as_deref().unwrap_or("");
        write_record(&mut out, [from + 0x18, to + 0x20], more, comment);
    }
    Ok(out)
}

fn encode_gbk(text: &str) -> Vec<u8> {
    encoding_rs::GB18030.encode(text).0.into_owned()
}

/// One move record of version 10: squares, the child flag, a spare byte, then the comment's
/// length and text (always present in this version).
fn write_record(out: &mut Vec<u8>, squares: [u8; 2], child: bool, comment: &str) {
    out.extend([squares[0], squares[1], if child { 0xF0 } else { 0 }, 0]);
    let text = encode_gbk(comment);
    out.extend((text.len() as u32).to_le_bytes());
    out.extend(text);
}

/// The pieces' slots (bytes 16–47) and the side to move (byte 50) of position text.
fn write_position(out: &mut [u8], fen: &str) -> Result<(), TextError> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().unwrap_or("");
    let side = fields.next().unwrap_or("w");
    let clock = fields.nth(2).unwrap_or("0");
    if clock != "0" {
        return Err(text_err!(
            "XQF cannot hold a start position {clock} plies after the last capture (its 60-move count)"
        ));
    }
    out[16..48].fill(0xFF);
    let mut used = [false; 32];
    for (row, text) in placement.split('/').enumerate() {
        let rank = 9 - row as u8;
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as u8;
                continue;
            }
            let base = if c.is_ascii_uppercase() { 0 } else { 16 };
            let slot = (0..16)
                .find(|&i| SLOTS[i] == c.to_ascii_uppercase() as u8 && !used[base + i])
                .ok_or_else(|| {
                    text_err!("XQF holds no more {c:?} pieces than the start position has")
                })?;
            used[base + slot] = true;
            out[16 + base + slot] = file * 10 + rank;
            file += 1;
        }
    }
    out[50] = u8::from(side == "b");
    Ok(())
}
