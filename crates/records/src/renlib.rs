//! RenLib `.lib` libraries (Gomoku and Renju on 15×15): one tree of variations.
//!
//! Layout, as RenLib writes it:
//! - a 20-byte header: `FF 'R' 'e' 'n' 'L' 'i' 'b' FF`, the major and minor version
//!   (Boyi writes 3.4), then ten `FF` bytes. Files of the oldest versions have no header
//!   and begin directly with the first move, h8 (`78`).
//! - the nodes in pre-order, two bytes each: the point, then the flags. The point byte is
//!   `16 × (y − 1) + x` with `x` the column from the left and `y` the row from the top, both
//!   1..=15 (`78` is h8); `00` is no point (the root, or a pass). Flags:
//!   `80` the node has a later sibling (a variation of the same move), `40` the node ends
//!   its line (no child), `20` an old-style comment follows, `10` marked, `08` a comment
//!   follows, `04` start mark, `02` not a move, `01` two extension bytes follow (in the
//!   second, `01` means a board text follows).
//! - a node's first child directly follows it; after a node that ends its line, reading
//!   goes back to the most recent node with a later sibling still to come, and the next
//!   node is that sibling.
//! - comments and board texts: the bytes up to a NUL, padded with a second NUL to an even
//!   length; a byte `08` separates the one-line comment from the multi-line one. Old-style
//!   comments are 7-bit characters ending at the first byte with its high bit set.
//!
//! A library becomes records: every line from the root to a leaf is one record (no players,
//! no result), comments kept on their moves. Text is read as UTF-8 if it is valid UTF-8,
//! else as GBK, else as Windows-1252; Boyi writes UTF-8. Marks, start marks and board
//! texts are read and dropped. Writing merges records into one tree: moves, comments only.

use crate::record::{GameRecord, RecordedMove};
use boyi_core::{Point, TextError, text_err};
use boyi_games::GameKind;

/// The first eight bytes of a library with a header.
pub const MAGIC: [u8; 8] = [0xFF, b'R', b'e', b'n', b'L', b'i', b'b', 0xFF];
const HEADER_LEN: usize = 20;
const VERSION: (u8, u8) = (3, 4);
const SIZE: usize = 15;
/// No line is longer than the board has points.
const MAX_DEPTH: usize = SIZE * SIZE;

const SIBLING: u8 = 0x80;
const LEAF: u8 = 0x40;
const OLD_COMMENT: u8 = 0x20;
const COMMENT: u8 = 0x08;
const NO_MOVE: u8 = 0x02;
const EXTENSION: u8 = 0x01;
const BOARD_TEXT: u8 = 0x01;

/// One node of the tree: its move (`None`: a pass, or the root), comment and children.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Node {
    pub point: Option<Point>,
    pub comment: Option<String>,
    pub children: Vec<usize>,
    depth: usize,
}

/// A library: nodes by index, the root first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Library {
    pub version: (u8, u8),
    pub nodes: Vec<Node>,
}

/// Reads the tree of a library file.
pub fn parse(bytes: &[u8]) -> Result<Library, TextError> {
    let (version, body) = header(bytes)?;
    let mut r = Reader { bytes: body, at: 0 };
    let mut lib = Library {
        version,
        nodes: vec![Node::default()],
    };
    let mut current = 0usize;
    // Parents of nodes whose later sibling is still to come.
    let mut open: Vec<usize> = Vec::new();
    let mut first = true;
    let mut ended = false;
    // A line ended while a sibling was promised: the sibling must follow.
    let mut sibling_due = false;
    while r.at < r.bytes.len() {
        let offset = r.at + bytes.len() - body.len();
        if ended {
            return Err(text_err!("offset {offset}: data after the end of the tree"));
        }
        let (pos, flags) = r.pair()?;
        sibling_due = false;
        let extended = if flags & EXTENSION != 0 {
            r.pair()?.1
        } else {
            0
        };
        let here = |e: TextError| e.context(format!("node at offset {offset}"));
        let is_root = first && pos == 0;
        first = false;
        if !is_root {
            if flags & NO_MOVE != 0 {
                return Err(here(text_err!(
                    "a node that is not a move (set-up positions are not read)"
                )));
            }
            let point = point_of(pos).map_err(here)?;
            let depth = lib.nodes[current].depth + 1;
            if depth > MAX_DEPTH {
                return Err(here(text_err!("a line longer than {MAX_DEPTH} moves")));
            }
            lib.nodes.push(Node {
                point,
                comment: None,
                children: Vec::new(),
                depth,
            });
            let id = lib.nodes.len() - 1;
            lib.nodes[current].children.push(id);
            if flags & SIBLING != 0 {
                open.push(current);
            }
            current = id;
        } else if flags & SIBLING != 0 {
            return Err(here(text_err!("the root cannot have a sibling")));
        }
        if flags & (COMMENT | OLD_COMMENT) != 0 {
            let text = if flags & COMMENT != 0 {
                r.text()
            } else {
                r.old_text()
            }
            .map_err(here)?;
            lib.nodes[current].comment = comment_of(&text);
        }
        if extended & BOARD_TEXT != 0 {
            r.text().map_err(here)?;
        }
        if flags & LEAF != 0 {
            match open.pop() {
                Some(parent) => {
                    current = parent;
                    sibling_due = true;
                }
                None => ended = true,
            }
        }
    }
    let missing = open.len() + usize::from(sibling_due);
    if missing > 0 {
        return Err(text_err!(
            "the file ends with {missing} variations still to come (truncated?)"
        ));
    }
    Ok(lib)
}

/// The version and the node bytes of a file.
fn header(bytes: &[u8]) -> Result<((u8, u8), &[u8]), TextError> {
    if bytes.starts_with(&MAGIC) {
        if bytes.len() < HEADER_LEN {
            return Err(text_err!(
                "RenLib header of {} bytes, not {HEADER_LEN}",
                bytes.len()
            ));
        }
        let version = (bytes[8], bytes[9]);
        if version.0 > VERSION.0 {
            return Err(text_err!(
                "RenLib version {}.{} is newer than the versions known (3.x)",
                version.0,
                version.1
            ));
        }
        Ok((version, &bytes[HEADER_LEN..]))
    } else if bytes.first() == Some(&0x78) {
        Ok(((0, 0), bytes))
    } else {
        Err(text_err!(
            "not a RenLib library (no \"\\xFFRenLib\\xFF\" header, and no first move h8)"
        ))
    }
}

/// The point of a node byte; `None` for a pass.
fn point_of(pos: u8) -> Result<Option<Point>, TextError> {
    if pos == 0 {
        return Ok(None);
    }
    let (x, y) = (pos as usize % 16, pos as usize / 16 + 1);
    if !(1..=SIZE).contains(&x) || !(1..=SIZE).contains(&y) {
        return Err(text_err!(
            "byte {pos:#04x} is not a point of the {SIZE}x{SIZE} board"
        ));
    }
    Point::from_gomocup(x - 1, y - 1, SIZE).map(Some)
}

fn byte_of(p: Point) -> u8 {
    let (x, y) = p.to_gomocup(SIZE);
    (16 * y + x + 1) as u8
}

/// One-line and multi-line comments joined by a newline; `None` when empty.
fn comment_of(text: &str) -> Option<String> {
    let joined = match text.split_once('\u{8}') {
        Some(("", multi)) => multi.to_string(),
        Some((one, "")) => one.to_string(),
        Some((one, multi)) => format!("{one}\n{multi}"),
        None => text.to_string(),
    };
    let joined = joined.replace("\r\n", "\n");
    (!joined.trim().is_empty()).then_some(joined)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn pair(&mut self) -> Result<(u8, u8), TextError> {
        match self.bytes.get(self.at..self.at + 2) {
            Some(&[a, b]) => {
                self.at += 2;
                Ok((a, b))
            }
            _ => Err(text_err!("the file ends inside a node")),
        }
    }

    /// A NUL-terminated text in byte pairs.
    fn text(&mut self) -> Result<String, TextError> {
        let mut raw = Vec::new();
        loop {
            let (a, b) = self
                .pair()
                .map_err(|_| text_err!("the file ends inside a comment"))?;
            if a == 0 {
                break;
            }
            raw.push(a);
            if b == 0 {
                break;
            }
            raw.push(b);
        }
        Ok(decode(&raw))
    }

    /// An old-style comment: 7-bit characters, the last with its high bit set.
    fn old_text(&mut self) -> Result<String, TextError> {
        let mut raw = Vec::new();
        'pairs: loop {
            let (a, b) = self
                .pair()
                .map_err(|_| text_err!("the file ends inside a comment"))?;
            for c in [a, b] {
                raw.push(c & 0x7F);
                if c & 0x80 != 0 {
                    break 'pairs;
                }
            }
        }
        Ok(decode(&raw))
    }
}

fn decode(raw: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(raw) {
        return s.to_string();
    }
    let (gbk, _, bad) = encoding_rs::GBK.decode(raw);
    if !bad {
        return gbk.into_owned();
    }
    encoding_rs::WINDOWS_1252.decode(raw).0.into_owned()
}

impl Library {
    /// Every line from the root to a leaf, as a record of `variant`.
    pub fn records(&self, variant: &str) -> Vec<GameRecord> {
        let mut out = Vec::new();
        // Iterative depth-first walk: (node, index of its next child to visit).
        let mut path: Vec<(usize, usize)> = vec![(0, 0)];
        while let Some(top) = path.last_mut() {
            let (node, next) = *top;
            let children = &self.nodes[node].children;
            if next < children.len() {
                top.1 += 1;
                path.push((children[next], 0));
                continue;
            }
            if children.is_empty() && node != 0 {
                out.push(self.line(&path, variant));
            }
            path.pop();
        }
        out
    }

    fn line(&self, path: &[(usize, usize)], variant: &str) -> GameRecord {
        let mut rec = GameRecord::new(GameKind::Gomoku);
        rec.variant = Some(variant.to_string());
        if let Some(c) = &self.nodes[0].comment {
            rec.tags.insert("Comment".into(), c.clone());
        }
        for &(id, _) in &path[1..] {
            let node = &self.nodes[id];
            rec.moves.push(RecordedMove {
                comment: node.comment.clone(),
                ..RecordedMove::new(
                    node.point
                        .map_or_else(|| "pass".to_string(), |p| p.to_string()),
                )
            });
        }
        rec
    }

    /// Merges checked records (Gomoku, 15×15, standard start) into one tree.
    pub fn from_records(records: &[GameRecord]) -> Result<Library, TextError> {
        let mut lib = Library {
            version: VERSION,
            nodes: vec![Node::default()],
        };
        for (i, rec) in records.iter().enumerate() {
            lib.add(rec)
                .map_err(|e| e.context(format!("game {}", i + 1)))?;
        }
        Ok(lib)
    }

    fn add(&mut self, rec: &GameRecord) -> Result<(), TextError> {
        if rec.game != GameKind::Gomoku {
            return Err(text_err!("RenLib holds gomoku games, not {}", rec.game));
        }
        if rec.start.is_some() || rec.size.is_some_and(|s| s != SIZE) {
            return Err(text_err!(
                "RenLib holds games from the empty {SIZE}x{SIZE} board only"
            ));
        }
        if rec.moves.is_empty() {
            return Err(text_err!("RenLib holds lines of moves: this game has none"));
        }
        let mut at = 0;
        for (ply, m) in rec.moves.iter().enumerate() {
            let point = match m.text.as_str() {
                "pass" => None,
                t => {
                    Some(Point::parse(t, SIZE).map_err(|e| e.context(format!("ply {}", ply + 1)))?)
                }
            };
            let found = self.nodes[at]
                .children
                .iter()
                .copied()
                .find(|&c| self.nodes[c].point == point);
            at = match found {
                Some(c) => c,
                None => {
                    let depth = self.nodes[at].depth + 1;
                    self.nodes.push(Node {
                        point,
                        comment: None,
                        children: Vec::new(),
                        depth,
                    });
                    let id = self.nodes.len() - 1;
                    self.nodes[at].children.push(id);
                    id
                }
            };
            let node = &mut self.nodes[at];
            if node.comment.is_none() {
                node.comment = m.comment.clone().filter(|c| !c.is_empty());
            }
        }
        Ok(())
    }

    /// The library's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>, TextError> {
        let mut out = MAGIC.to_vec();
        out.extend([self.version.0, self.version.1]);
        out.extend([0xFF; HEADER_LEN - 10]);
        let root_leaf = if self.nodes[0].children.is_empty() {
            LEAF
        } else {
            0
        };
        out.extend([0, root_leaf]);
        // Pre-order: each node, then its children in order; a sibling follows the subtree.
        let mut stack: Vec<(usize, bool)> = self.nodes[0]
            .children
            .iter()
            .enumerate()
            .rev()
            .map(|(i, &c)| (c, i + 1 < self.nodes[0].children.len()))
            .collect();
        while let Some((id, has_sibling)) = stack.pop() {
            let node = &self.nodes[id];
            let mut flags = 0;
            if has_sibling {
                flags |= SIBLING;
            }
            if node.children.is_empty() {
                flags |= LEAF;
            }
            if node.comment.is_some() {
                flags |= COMMENT;
            }
            out.extend([node.point.map_or(0, byte_of), flags]);
            if let Some(c) = &node.comment {
                write_text(&mut out, c)?;
            }
            let n = node.children.len();
            stack.extend(
                node.children
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(i, &c)| (c, i + 1 < n)),
            );
        }
        Ok(out)
    }
}

/// A comment: first line, `08`, the rest; NUL-terminated and padded to an even length.
fn write_text(out: &mut Vec<u8>, comment: &str) -> Result<(), TextError> {
    if comment.contains('\0') {
        return Err(text_err!("a RenLib comment cannot hold a NUL character"));
    }
    let text = match comment.split_once('\n') {
        Some((one, multi)) => format!("{one}\u{8}{multi}"),
        None => comment.to_string(),
    };
    out.extend(text.as_bytes());
    out.push(0);
    if text.len().is_multiple_of(2) {
        out.push(0);
    }
    Ok(())
}

/// Reads a library's lines as records of `variant`.
pub fn read(bytes: &[u8], variant: &str) -> Result<Vec<GameRecord>, TextError> {
    Ok(parse(bytes)?.records(variant))
}

/// Writes checked records as one library.
pub fn write(records: &[GameRecord]) -> Result<Vec<u8>, TextError> {
    Library::from_records(records)?.to_bytes()
}
