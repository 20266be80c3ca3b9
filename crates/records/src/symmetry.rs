//! Board symmetries under which a game's rules do not change, applied to position text and
//! move text (the public text forms, never a game's internals).
//!
//! - gomoku, connect6: the 8 symmetries of the square;
//! - jiu: the 4 that keep the central diagonal `g7`–`h8` on itself (identity, half turn,
//!   reflection in that diagonal and in the other one), since the opening must fill its ends;
//! - xiangqi: identity and the left–right mirror.
//!
//! A symmetry is a number 0..8: 0 identity, 1–3 quarter turns, 4 mirror left–right,
//! 5 mirror top–bottom, 6 reflection in the a1–h8 diagonal, 7 in the other diagonal.

use boyi_core::{TextError, text_err};

/// The symmetries that keep the rules of game `name` (a `Game::NAME`).
pub fn symmetries(name: &str) -> &'static [u8] {
    match name {
        "gomoku" | "connect6" => &[0, 1, 2, 3, 4, 5, 6, 7],
        "jiu" => &[0, 2, 6, 7],
        "xiangqi" => &[0, 4],
        _ => &[0],
    }
}

/// The symmetry that undoes `s`.
pub fn inverse(s: u8) -> u8 {
    match s {
        1 => 3,
        3 => 1,
        s => s,
    }
}

/// Where `(col, row)` of a `w`×`h` board goes under `s` (turns and diagonals need w = h).
pub fn map_point(s: u8, col: usize, row: usize, w: usize, h: usize) -> (usize, usize) {
    let (x, y, mx, my) = (col, row, w - 1, h - 1);
    match s {
        1 => (y, mx - x),
        2 => (mx - x, my - y),
        3 => (my - y, x),
        4 => (mx - x, y),
        5 => (x, my - y),
        6 => (y, x),
        7 => (my - y, mx - x),
        _ => (x, y),
    }
}

/// Applies `s` to position text of game `name`: the placement field is transformed, the other
/// fields are kept.
pub fn transform_position(name: &str, s: u8, text: &str) -> Result<String, TextError> {
    if s == 0 {
        return Ok(text.to_string());
    }
    let (rows, rest) = text.split_once(' ').unwrap_or((text, ""));
    let grid = expand(rows, name == "xiangqi")?;
    let h = grid.len();
    let w = grid[0].len();
    if s != 4 && s != 5 && w != h {
        return Err(text_err!("symmetry {s} needs a square board"));
    }
    let mut out = vec![vec!['.'; w]; h];
    for (i, row) in grid.iter().enumerate() {
        for (col, &c) in row.iter().enumerate() {
            let (nc, nr) = map_point(s, col, h - 1 - i, w, h);
            out[h - 1 - nr][nc] = c;
        }
    }
    let rows: Vec<String> = out.iter().map(|r| compress(r)).collect();
    Ok(format!("{} {rest}", rows.join("/")).trim_end().to_string())
}

/// Cells of the rows of position text, top row first (`.` for empty).
fn expand(rows: &str, fen: bool) -> Result<Vec<Vec<char>>, TextError> {
    let mut grid = Vec::new();
    for row in rows.split('/') {
        let chars: Vec<char> = row.chars().collect();
        let mut cells = Vec::new();
        let mut k = 0;
        while k < chars.len() {
            if !chars[k].is_ascii_digit() {
                cells.push(chars[k]);
                k += 1;
                continue;
            }
            let mut end = k + 1;
            while !fen && end < chars.len() && chars[end].is_ascii_digit() {
                end += 1;
            }
            let n: usize = chars[k..end]
                .iter()
                .collect::<String>()
                .parse()
                .ok()
                .filter(|n| *n <= 26)
                .ok_or_else(|| text_err!("bad count in {row:?}"))?;
            cells.extend(std::iter::repeat_n('.', n));
            k = end;
        }
        grid.push(cells);
    }
    if grid.is_empty() || grid[0].is_empty() || grid.iter().any(|r| r.len() != grid[0].len()) {
        return Err(text_err!("position rows {rows:?} are not a rectangle"));
    }
    Ok(grid)
}

fn compress(row: &[char]) -> String {
    let mut s = String::new();
    let mut empty = 0;
    for &c in row {
        if c == '.' {
            empty += 1;
            continue;
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
            empty = 0;
        }
        s.push(c);
    }
    if empty > 0 {
        s.push_str(&empty.to_string());
    }
    s
}

/// Applies `s` to every point written in move text (`h8`, `j10 k11`, `f5-h5-h3 x e6`,
/// `h2e2`) on a `w`×`h` board. Xiangqi ranks count from 0, the grid games' rows from 1. The
/// result may need re-parsing to be canonical (point order can change).
pub fn transform_move(name: &str, s: u8, text: &str, w: usize, h: usize) -> String {
    let base = if name == "xiangqi" { 0 } else { 1 };
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let starts_point = c.is_ascii_lowercase()
            && (i == 0 || !b[i - 1].is_ascii_alphabetic())
            && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        if !starts_point {
            out.push(c as char);
            i += 1;
            continue;
        }
        let mut j = i + 1;
        let max_digits = if name == "xiangqi" { 1 } else { 2 };
        while j < b.len() && j - i - 1 < max_digits && b[j].is_ascii_digit() {
            j += 1;
        }
        let col = (c - b'a') as usize;
        let row: usize = text[i + 1..j].parse().unwrap_or(0);
        if col >= w || row < base || row - base >= h {
            out.push_str(&text[i..j]);
        } else {
            let (nc, nr) = map_point(s, col, row - base, w, h);
            out.push((b'a' + nc as u8) as char);
            out.push_str(&(nr + base).to_string());
        }
        i = j;
    }
    out
}

/// Width and height of the board of position text.
pub fn board_dims(name: &str, text: &str) -> Result<(usize, usize), TextError> {
    let rows = text.split(' ').next().unwrap_or("");
    let grid = expand(rows, name == "xiangqi")?;
    Ok((grid[0].len(), grid.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_laws() {
        for s in 0..8u8 {
            for (x, y) in [(0, 0), (3, 1), (14, 2)] {
                let (a, b) = map_point(s, x, y, 15, 15);
                assert_eq!(map_point(inverse(s), a, b, 15, 15), (x, y), "sym {s}");
            }
        }
        // Jiu's symmetries keep the central diagonal g7-h8 (0-based (6,6), (7,7)).
        for &s in symmetries("jiu") {
            let a = map_point(s, 6, 6, 14, 14);
            assert!(a == (6, 6) || a == (7, 7), "sym {s}");
        }
    }

    #[test]
    fn text_transforms() {
        let t = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/x14 w";
        assert_eq!(
            transform_position("gomoku", 4, t).unwrap(),
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/14x w"
        );
        assert_eq!(transform_move("gomoku", 4, "a1", 15, 15), "o1");
        assert_eq!(transform_move("connect6", 2, "a1 b2", 19, 19), "s19 r18");
        assert_eq!(
            transform_move("jiu", 6, "f5-h5-h3 x e6", 14, 14),
            "e6-e8-c8 x f5"
        );
        assert_eq!(transform_move("gomoku", 1, "pass", 15, 15), "pass");
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1";
        assert_eq!(
            transform_position("xiangqi", 4, fen).unwrap(),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1"
        );
        assert_eq!(transform_move("xiangqi", 4, "h2e2", 9, 10), "b2e2");
    }
}
