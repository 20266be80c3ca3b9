//! Move text in the protocols' coordinates, converted to and from the canonical move text of
//! positions.md. Protocol code handles moves only through these conversions and the game's
//! `parse_move`/`format_move`, never through a game's move type; point arithmetic is
//! [`Point`]'s own (`to_gomocup`, `to_sau`, ...).

use boyi_core::{Game, Point, TextError};
use boyi_engines::eval::{TextBoard, grid_size};

/// The board size of a grid game position (its number of rows).
pub fn board_size<G: Game>(pos: &G) -> usize {
    grid_size(pos)
}

/// Parses protocol move text, converted to canonical text, as a legal move of `pos`.
pub fn legal_move<G: Game>(pos: &G, canonical: &str) -> Result<G::Move, TextError> {
    pos.parse_move(canonical)
}

// ---------------------------------------------------------------- Gomocup: `x,y`

/// `h8` → `7,7` (on 15×15). Only one-point moves exist in Gomocup.
pub fn to_gomocup(canonical: &str, size: usize) -> Result<String, TextError> {
    let p = Point::parse(canonical, size)
        .map_err(|e| e.context(format!("move {canonical:?} has no Gomocup form")))?;
    let (x, y) = p.to_gomocup(size);
    Ok(format!("{x},{y}"))
}

/// `7,7` → `h8` (on 15×15).
pub fn from_gomocup(text: &str, size: usize) -> Result<String, TextError> {
    let p = gomocup_point(text, size)?;
    Ok(p.to_string())
}

/// Reads `x,y` (spaces around the numbers allowed).
pub fn gomocup_point(text: &str, size: usize) -> Result<Point, TextError> {
    let mut parts = text.split(',');
    let (Some(x), Some(y), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(text_err!("{text:?} is not x,y"));
    };
    let num = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| text_err!("{text:?}: {s:?} is not a coordinate"))
    };
    Point::from_gomocup(num(x)?, num(y)?, size)
}

// ---------------------------------------------------------------- SAU

/// Canonical move text → SAU text for game `name`: Connect6 `j10 k11` → `JJKI`, one stone
/// `j10` → `JJ@@`; Jiu `g7` → `GH`, `f5-h5-h3` → `FJHJHL`, `c3*k9` → `CLZZKF`,
/// `g6-g8 x e6` → `GIGGXXEI`; other games one point `h8` → `HH`.
pub fn to_sau(name: &str, canonical: &str, size: usize) -> Result<String, TextError> {
    let pt = |t: &str| {
        Point::parse(t, size)
            .map(|p| p.to_sau(size))
            .map_err(|e| e.context(format!("move {canonical:?} has no SAU form")))
    };
    match name {
        "connect6" => {
            let pts: Vec<&str> = canonical.split_whitespace().collect();
            match pts[..] {
                [a] => Ok(format!("{}@@", pt(a)?)),
                [a, b] => Ok(format!("{}{}", pt(a)?, pt(b)?)),
                _ => Err(text_err!(
                    "connect6 move {canonical:?} must have one or two points"
                )),
            }
        }
        "jiu" => {
            let mut parts = canonical.split(" x ");
            let main = parts.next().unwrap_or("");
            let mut out = String::new();
            if let Some((from, to)) = main.split_once('*') {
                out += &pt(from)?;
                out += "ZZ";
                out += &pt(to)?;
            } else {
                for p in main.split('-') {
                    out += &pt(p)?;
                }
            }
            let captures: Vec<&str> = parts.collect();
            if !captures.is_empty() {
                out += "XX";
                for c in captures {
                    out += &pt(c)?;
                }
            }
            Ok(out)
        }
        _ => pt(canonical),
    }
}

/// SAU text → canonical move text for game `name` (the inverse of [`to_sau`]; Connect6 pairs
/// and Jiu captures come out in point order).
pub fn from_sau(name: &str, text: &str, size: usize) -> Result<String, TextError> {
    let b = text.as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(2) || !text.is_ascii() {
        return Err(text_err!(
            "SAU move {text:?} must be pairs of capital letters"
        ));
    }
    let chunks: Vec<&str> = (0..b.len() / 2).map(|i| &text[2 * i..2 * i + 2]).collect();
    let pt = |c: &str| Point::from_sau(c, size);
    match name {
        "connect6" => match chunks[..] {
            [a] | [a, "@@"] => Ok(pt(a)?.to_string()),
            [a, b] => {
                let mut pts = [pt(a)?, pt(b)?];
                pts.sort();
                Ok(format!("{} {}", pts[0], pts[1]))
            }
            _ => Err(text_err!(
                "connect6 SAU move {text:?} must be one or two points"
            )),
        },
        "jiu" => {
            let (path, captures) = match chunks.iter().position(|c| *c == "XX") {
                Some(i) => (&chunks[..i], &chunks[i + 1..]),
                None => (&chunks[..], &[][..]),
            };
            let mut out = match path {
                [] => return Err(text_err!("SAU move {text:?} has no path")),
                [a, "ZZ", b] => format!("{}*{}", pt(a)?, pt(b)?),
                _ => {
                    let pts = path.iter().map(|c| pt(c).map(|p| p.to_string()));
                    pts.collect::<Result<Vec<_>, _>>()?.join("-")
                }
            };
            if path.len() == 1 && !captures.is_empty() {
                return Err(text_err!("SAU move {text:?}: a placement captures nothing"));
            }
            if chunks.len() > path.len() && captures.is_empty() {
                return Err(text_err!("SAU move {text:?} has XX without captures"));
            }
            let mut caps = captures
                .iter()
                .map(|c| pt(c))
                .collect::<Result<Vec<_>, _>>()?;
            caps.sort();
            for c in caps {
                out += &format!(" x {c}");
            }
            Ok(out)
        }
        _ => match chunks[..] {
            [a] => Ok(pt(a)?.to_string()),
            _ => Err(text_err!("SAU move {text:?} must be one point")),
        },
    }
}

// ---------------------------------------------------------------- UCI ranks

/// Shifts the ranks of a coordinate move (`h2e2` → `h3e3` with `by` = 1): the
/// Fairy-Stockfish dialect counts Xiangqi ranks from 1, Pikafish and ICCS from 0.
pub fn shift_ranks(text: &str, by: i32) -> Result<String, TextError> {
    let mut out = String::new();
    let mut squares = 0;
    let mut rest = text;
    while let Some(file) = rest.chars().next() {
        if !file.is_ascii_lowercase() {
            return Err(text_err!("move {text:?}: {file:?} is not a file letter"));
        }
        let digits: String = rest[1..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let rank: i32 = digits
            .parse()
            .map_err(|_| text_err!("move {text:?}: file {file} has no rank"))?;
        let shifted = rank + by;
        if !(0..=99).contains(&shifted) || digits.len() > 2 {
            return Err(text_err!("move {text:?}: rank {rank} is out of range"));
        }
        out.push(file);
        out += &shifted.to_string();
        rest = &rest[1 + digits.len()..];
        squares += 1;
    }
    if squares != 2 {
        return Err(text_err!("move {text:?} must be two squares"));
    }
    Ok(out)
}

/// The stones of a grid position text with their colour letters (`x`, `o`), any order.
pub fn grid_stones(text: &str) -> Vec<(Point, u8)> {
    let Some(b) = TextBoard::parse(text) else {
        return Vec::new();
    };
    b.cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| (Point::from_index(i, b.width), c)))
        .collect()
}

/// The grid position text (positions.md) of a `size`×`size` board holding `stones` (point and
/// colour letter `x` or `o`) with `side` to move.
pub fn grid_text(size: usize, stones: &[(Point, u8)], side: boyi_core::Side) -> String {
    let mut cells = vec![None; size * size];
    for &(p, c) in stones {
        if p.on_board(size) {
            cells[p.index(size)] = Some(c);
        }
    }
    let rows: Vec<String> = (0..size)
        .rev()
        .map(|r| {
            let mut row = String::new();
            let mut empty = 0;
            for c in 0..size {
                match cells[r * size + c] {
                    None => empty += 1,
                    Some(letter) => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        row.push(char::from(letter));
                    }
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            row
        })
        .collect();
    format!("{} {}", rows.join("/"), side.letter())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_texts_are_positions_md_rows() {
        use boyi_core::Side;
        let h8 = Point::parse("h8", 15).unwrap();
        let a1 = Point::parse("a1", 15).unwrap();
        assert_eq!(
            grid_text(15, &[(h8, b'x')], Side::White),
            "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w"
        );
        let text = grid_text(15, &[(h8, b'x'), (a1, b'o')], Side::Black);
        let mut back = grid_stones(&text);
        back.sort();
        assert_eq!(back, vec![(a1, b'o'), (h8, b'x')]);
    }

    #[test]
    fn gomocup_round_trip() {
        assert_eq!(to_gomocup("h8", 15).unwrap(), "7,7");
        assert_eq!(to_gomocup("a15", 15).unwrap(), "0,0");
        assert_eq!(from_gomocup("0,14", 15).unwrap(), "a1");
        assert_eq!(from_gomocup(" 7 , 7 ", 15).unwrap(), "h8");
        for bad in ["7", "7,7,7", "a,1", "15,0", "-1,2", ""] {
            assert!(from_gomocup(bad, 15).is_err(), "{bad}");
        }
        assert!(to_gomocup("pass", 15).is_err());
    }

    #[test]
    fn sau_connect6() {
        assert_eq!(to_sau("connect6", "j10", 19).unwrap(), "JJ@@");
        assert_eq!(to_sau("connect6", "j10 k11", 19).unwrap(), "JJKI");
        assert_eq!(from_sau("connect6", "JJ@@", 19).unwrap(), "j10");
        assert_eq!(from_sau("connect6", "KIJJ", 19).unwrap(), "j10 k11");
        for bad in ["JJ@", "JJKIAA", "@@JJ", "jjki", "J", "ZZAA"] {
            assert!(from_sau("connect6", bad, 19).is_err(), "{bad}");
        }
    }

    #[test]
    fn sau_jiu_examples_of_the_rules() {
        let cases = [
            ("g7", "GH"),
            ("f5-h5-h3", "FJHJHL"),
            ("c3*k9", "CLZZKF"),
            ("g6-g8 x e6", "GIGGXXEI"),
            ("g6-g7 x a1 x e6", "GIGHXXANEI"),
        ];
        for (text, sau) in cases {
            assert_eq!(to_sau("jiu", text, 14).unwrap(), sau);
            assert_eq!(from_sau("jiu", sau, 14).unwrap(), text);
        }
        assert_eq!(
            from_sau("jiu", "GIGHXXEIAN", 14).unwrap(),
            "g6-g7 x a1 x e6"
        );
        for bad in ["GHXXAN", "XXAN", "GIGGXX", "ZZGH", "GIZZ", "GIGGXXZZ"] {
            assert!(from_sau("jiu", bad, 14).is_err(), "{bad}");
        }
    }

    #[test]
    fn sau_gomoku() {
        assert_eq!(to_sau("gomoku", "h8", 15).unwrap(), "HH");
        assert_eq!(from_sau("gomoku", "AO", 15).unwrap(), "a1");
        assert!(from_sau("gomoku", "HHII", 15).is_err());
    }

    #[test]
    fn fsf_ranks() {
        assert_eq!(shift_ranks("h2e2", 1).unwrap(), "h3e3");
        assert_eq!(shift_ranks("a9a10", -1).unwrap(), "a8a9");
        assert_eq!(shift_ranks("a9a8", 1).unwrap(), "a10a9");
        for bad in ["h2", "h2e2e3", "H2e2", "h-2e2", "h2e", "", "h2e222"] {
            assert!(shift_ranks(bad, 1).is_err(), "{bad}");
        }
    }
}
