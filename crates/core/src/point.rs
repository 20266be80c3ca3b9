//! Intersections of square grid boards (Gomoku, Connect6, Jiu) and their coordinates in
//! human text and in the engine protocols. All conversions between coordinate systems live
//! here, so that no protocol or record reader does its own arithmetic.

use crate::TextError;
use std::fmt;

/// The largest board side any grid game accepts (columns are the letters `a`..`z`).
pub const MAX_SIZE: usize = 26;

/// An intersection: `col` 0 is column `a` (left), `row` 0 is row `1` (bottom).
///
/// The derived order is the project's point order: column first, then row
/// (`a1 < a2 < … < a14 < b1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub col: u8,
    pub row: u8,
}

impl Point {
    pub const fn new(col: u8, row: u8) -> Point {
        Point { col, row }
    }

    /// Index into a row-major array of a board with `size` columns (row 0 first).
    pub fn index(self, size: usize) -> usize {
        self.row as usize * size + self.col as usize
    }

    pub fn from_index(index: usize, size: usize) -> Point {
        Point::new((index % size) as u8, (index / size) as u8)
    }

    pub fn on_board(self, size: usize) -> bool {
        (self.col as usize) < size && (self.row as usize) < size
    }

    /// Parses `h8` (case-insensitive column letter, row number from 1 without leading zeros)
    /// and checks it lies on a board of `size` lines.
    pub fn parse(text: &str, size: usize) -> Result<Point, TextError> {
        let mut chars = text.chars();
        let Some(c) = chars.next() else {
            return Err(TextError::new("empty point"));
        };
        if !c.is_ascii_alphabetic() {
            return Err(text_err!("point {text:?} must start with a column letter"));
        }
        let col = c.to_ascii_lowercase() as u8 - b'a';
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(text_err!(
                "point {text:?} must be a column letter and a row number"
            ));
        }
        if digits.starts_with('0') || digits.len() > 2 {
            return Err(text_err!("point {text:?} has a malformed row number"));
        }
        let row: usize = digits.parse().expect("one or two ASCII digits");
        if col as usize >= size {
            return Err(text_err!(
                "point {text:?}: column {c} is off the {size}x{size} board"
            ));
        }
        if row > size {
            return Err(text_err!(
                "point {text:?}: row {row} is off the {size}x{size} board"
            ));
        }
        Ok(Point::new(col, (row - 1) as u8))
    }

    /// Gomocup / Piskvork coordinates: `x` from the left, `y` from the top, both from 0.
    pub fn to_gomocup(self, size: usize) -> (usize, usize) {
        (self.col as usize, size - 1 - self.row as usize)
    }

    pub fn from_gomocup(x: usize, y: usize, size: usize) -> Result<Point, TextError> {
        if x >= size || y >= size {
            return Err(text_err!(
                "coordinates {x},{y} are off the {size}x{size} board"
            ));
        }
        Ok(Point::new(x as u8, (size - 1 - y) as u8))
    }

    /// SAU platform coordinates: two capital letters, column from `A`, then row counted from
    /// the top (`h8` on 15×15 is `HH`, `a1` is `AO`).
    pub fn to_sau(self, size: usize) -> String {
        let (x, y) = self.to_gomocup(size);
        let mut s = String::with_capacity(2);
        s.push((b'A' + x as u8) as char);
        s.push((b'A' + y as u8) as char);
        s
    }

    pub fn from_sau(text: &str, size: usize) -> Result<Point, TextError> {
        let b = text.as_bytes();
        if b.len() != 2 || !b.iter().all(|c| c.is_ascii_uppercase()) {
            return Err(text_err!("SAU point {text:?} must be two capital letters"));
        }
        Point::from_gomocup((b[0] - b'A') as usize, (b[1] - b'A') as usize, size)
            .map_err(|e| e.context(format!("SAU point {text}")))
    }

    /// The four orthogonal neighbours that lie on the board.
    pub fn neighbours(self, size: usize) -> impl Iterator<Item = Point> {
        const D: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        D.into_iter()
            .filter_map(move |(dc, dr)| self.offset(dc, dr, size))
    }

    /// The point `dc` columns and `dr` rows away, if it lies on the board.
    pub fn offset(self, dc: i8, dr: i8, size: usize) -> Option<Point> {
        let c = self.col as i32 + dc as i32;
        let r = self.row as i32 + dr as i32;
        (c >= 0 && r >= 0 && (c as usize) < size && (r as usize) < size)
            .then(|| Point::new(c as u8, r as u8))
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row as u32 + 1)
    }
}

/// The column letter of `col` (0 → `a`).
pub fn column_letter(col: usize) -> char {
    (b'a' + col as u8) as char
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn text_and_order() {
        let p = Point::parse("H8", 15).unwrap();
        assert_eq!(p, Point::new(7, 7));
        assert_eq!(p.to_string(), "h8");
        assert!(Point::parse("a14", 14).unwrap() < Point::parse("b1", 14).unwrap());
        assert!(Point::parse("a2", 14).unwrap() < Point::parse("a14", 14).unwrap());
        for bad in [
            "", "h", "8", "h0", "h08", "p1", "a16", "h8x", "é8", "h-1", "h123",
        ] {
            assert!(Point::parse(bad, 15).is_err(), "{bad}");
        }
    }

    #[test]
    fn protocol_coordinates() {
        let h8 = Point::parse("h8", 15).unwrap();
        assert_eq!(h8.to_gomocup(15), (7, 7));
        assert_eq!(Point::parse("a15", 15).unwrap().to_gomocup(15), (0, 0));
        assert_eq!(h8.to_sau(15), "HH");
        assert_eq!(Point::parse("a1", 15).unwrap().to_sau(15), "AO");
        assert_eq!(Point::parse("j10", 19).unwrap().to_sau(19), "JJ");
        assert_eq!(Point::parse("a19", 19).unwrap().to_sau(19), "AA");
        assert_eq!(Point::parse("a1", 19).unwrap().to_sau(19), "AS");
        assert_eq!(Point::parse("g7", 14).unwrap().to_sau(14), "GH");
        assert_eq!(Point::parse("h8", 14).unwrap().to_sau(14), "HG");
        assert_eq!(Point::parse("a1", 14).unwrap().to_sau(14), "AN");
        assert_eq!(Point::from_sau("GH", 14).unwrap().to_string(), "g7");
        assert!(Point::from_sau("ZZ", 14).is_err());
        assert!(Point::from_sau("gh", 14).is_err());
    }

    proptest! {
        #[test]
        fn parse_never_panics(s in "\\PC{0,6}", size in 5usize..=26) {
            let _ = Point::parse(&s, size);
            let _ = Point::from_sau(&s, size);
        }

        #[test]
        fn round_trips(col in 0u8..26, row in 0u8..26) {
            let p = Point::new(col, row);
            prop_assert_eq!(Point::parse(&p.to_string(), 26).unwrap(), p);
            prop_assert_eq!(Point::from_sau(&p.to_sau(26), 26).unwrap(), p);
            let (x, y) = p.to_gomocup(26);
            prop_assert_eq!(Point::from_gomocup(x, y, 26).unwrap(), p);
        }
    }
}
