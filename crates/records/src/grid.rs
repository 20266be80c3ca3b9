//! Text helpers of the grid games' records: SGF point letters, and stone lists to and from
//! grid position text (positions.md: rows from the top, `x` black, `o` white, digits empty).

use boyi_core::{Point, Side, TextError, text_err};

/// SGF point: column letter then row letter counted from the top (`hh` is h8 on 15×15).
pub fn sgf_point(p: Point, size: usize) -> String {
    let (x, y) = p.to_gomocup(size);
    let mut s = String::with_capacity(2);
    s.push((b'a' + x as u8) as char);
    s.push((b'a' + y as u8) as char);
    s
}

/// Parses an SGF point; `None` for a pass (empty value, or `tt` on boards up to 19).
pub fn parse_sgf_point(text: &str, size: usize) -> Result<Option<Point>, TextError> {
    if text.is_empty() || (text == "tt" && size <= 19) {
        return Ok(None);
    }
    let b = text.as_bytes();
    if b.len() != 2 || !b.iter().all(|c| c.is_ascii_lowercase()) {
        return Err(text_err!(
            "SGF point {text:?} must be two lower-case letters"
        ));
    }
    Point::from_gomocup((b[0] - b'a') as usize, (b[1] - b'a') as usize, size)
        .map(Some)
        .map_err(|e| e.context(format!("SGF point {text:?}")))
}

/// Stones of a grid position read from its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub size: usize,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    pub to_move: Side,
}

/// Reads the rows and side of grid position text (further fields are ignored).
pub fn read_setup(text: &str) -> Result<Setup, TextError> {
    let mut fields = text.split_whitespace();
    let rows: Vec<&str> = fields.next().unwrap_or("").split('/').collect();
    let to_move = fields
        .next()
        .and_then(Side::from_letter)
        .ok_or_else(|| text_err!("position text {text:?} has no side to move"))?;
    let size = rows.len();
    let mut setup = Setup {
        size,
        black: Vec::new(),
        white: Vec::new(),
        to_move,
    };
    for (i, row) in rows.iter().enumerate() {
        let r = (size - 1 - i) as u8;
        let mut col = 0usize;
        let mut digits = String::new();
        for c in row.chars().chain(std::iter::once('|')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                col += digits.parse::<usize>().unwrap_or(usize::MAX / 2);
                digits.clear();
            }
            match c {
                'x' => setup.black.push(Point::new(col as u8, r)),
                'o' => setup.white.push(Point::new(col as u8, r)),
                '|' => break,
                other => return Err(text_err!("row {} has {other:?}", i + 1)),
            }
            col += 1;
        }
        if col != size {
            return Err(text_err!("row {} has {col} points, expected {size}", i + 1));
        }
    }
    Ok(setup)
}

/// The rows and side of grid position text for `setup`.
pub fn write_setup(setup: &Setup) -> String {
    let n = setup.size;
    let mut cells = vec![b'.'; n * n];
    for p in &setup.black {
        cells[p.index(n)] = b'x';
    }
    for p in &setup.white {
        cells[p.index(n)] = b'o';
    }
    let mut rows = Vec::with_capacity(n);
    for r in (0..n).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for c in 0..n {
            match cells[r * n + c] {
                b'.' => empty += 1,
                s => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(s as char);
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {}", rows.join("/"), setup.to_move.letter())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_round_trip() {
        let text = "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w";
        let s = read_setup(text).unwrap();
        assert_eq!(s.black, vec![Point::new(7, 7)]);
        assert_eq!(write_setup(&s), text);
        assert_eq!(sgf_point(Point::new(7, 7), 15), "hh");
        assert_eq!(sgf_point(Point::new(0, 0), 15), "ao");
        assert_eq!(parse_sgf_point("ao", 15).unwrap(), Some(Point::new(0, 0)));
        assert_eq!(parse_sgf_point("", 15).unwrap(), None);
        assert!(parse_sgf_point("zz", 15).is_err());
    }
}
