//! What a driven Gomocup engine's `MESSAGE` lines say about its search.

use crate::codec::from_gomocup;
use boyi_core::Score;
use boyi_engines::Info;

/// The thinking a driven engine's `MESSAGE` line carries: read into depth, score, nodes, nps
/// and line when it is written as Boyi writes it (`depth D score S nodes N nps X pv x,y …`)
/// or as Rapfi does (`Depth D-S | Eval V | Time T | H8I9…`), else kept as text (other
/// engines write their own).
pub(super) fn message_info(text: &str, size: usize) -> Info {
    if let Some(info) = rapfi_info(text, size) {
        return info;
    }
    let as_text = || Info {
        text: Some(text.to_string()),
        ..Info::default()
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut info = Info::default();
    let mut i = 0;
    while i < words.len() {
        let next = words.get(i + 1).copied().unwrap_or("");
        match words[i] {
            "depth" => info.depth = next.parse().ok(),
            "nodes" => info.nodes = next.parse().ok(),
            "nps" => info.nps = next.parse().ok(),
            "score" if next == "mate" => {
                let n = words.get(i + 2).copied().unwrap_or("");
                info.score = format!("mate {n}").parse().ok();
                i += 1;
            }
            "score" => info.score = next.parse().ok(),
            "pv" => {
                let pv: Result<Vec<String>, _> = words[i + 1..]
                    .iter()
                    .map(|w| from_gomocup(w, size))
                    .collect();
                match pv {
                    Ok(pv) => info.pv = pv,
                    Err(_) => return as_text(),
                }
                break;
            }
            _ => return as_text(),
        }
        i += 2;
    }
    if info.depth.is_none() || info.score.is_none() {
        return as_text();
    }
    info
}

/// A Rapfi thinking line: `|`-separated fields `Depth D-S`, `Eval V` (a number, or `+M9` /
/// `-M8`: a win or loss in that many plies), `Node N`, `Speed X`, `Time T`, and the line as
/// points written `<column letter><row from the top, from 1>` run together (`H8I9J10`).
/// `None` unless it has both a depth and an evaluation.
fn rapfi_info(text: &str, size: usize) -> Option<Info> {
    if !text.contains('|') {
        return None;
    }
    let mut info = Info::default();
    for field in text.split('|').map(str::trim) {
        let (key, value) = field.split_once(' ').unwrap_or((field, ""));
        match key {
            "Depth" => info.depth = value.split('-').next()?.trim().parse().ok(),
            "Eval" => info.score = Some(rapfi_score(value.trim())?),
            "Node" | "Speed" | "Time" => {}
            _ => {
                if let Some(pv) = rapfi_line(field, size) {
                    info.pv = pv;
                }
            }
        }
    }
    (info.depth.is_some() && info.score.is_some()).then_some(info)
}

/// How far a win or loss from Rapfi's database (`+M*`, `-M*`: proven, length not given) is
/// reported, in moves: far enough not to pass for a short mate.
const DATABASE_MATE: i32 = 99;

/// Rapfi's value: a number, or a win (`+M9`) or loss (`-M8`) in plies, as moves of the mover.
fn rapfi_score(text: &str) -> Option<Score> {
    let moves = |plies: &str| match plies {
        "*" => Some(DATABASE_MATE),
        _ => plies.parse::<i32>().ok().map(|p| (p + 1) / 2),
    };
    if let Some(plies) = text.strip_prefix("+M") {
        moves(plies).map(Score::Mate)
    } else if let Some(plies) = text.strip_prefix("-M") {
        moves(plies).map(|m| Score::Mate(-m))
    } else {
        text.parse().ok().map(Score::Units)
    }
}

/// Points run together, each a column letter and a row number from the top (`H8I9`).
fn rapfi_line(text: &str, size: usize) -> Option<Vec<String>> {
    let mut pv = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let letter = rest.chars().next().filter(char::is_ascii_uppercase)?;
        let digits = rest[1..].chars().take_while(char::is_ascii_digit).count();
        let row: usize = rest[1..1 + digits].parse().ok()?;
        let x = (letter as u8 - b'A') as usize;
        pv.push(from_gomocup(&format!("{x},{}", row.checked_sub(1)?), size).ok()?);
        rest = &rest[1 + digits..];
    }
    (!pv.is_empty()).then_some(pv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rapfi_messages_are_read_as_thinking() {
        let i = message_info("Depth 9-14 | Eval 38 | Time 12ms | H8I9J10", 15);
        assert_eq!((i.depth, i.score), (Some(9), Some(Score::Units(38))));
        // Rapfi's H8 is column 7, row 7 from the top: Boyi's h8 on 15x15.
        assert_eq!(i.pv, ["h8", "i7", "j6"]);
        assert_eq!(i.text, None);
        let i = message_info(
            "Speed 1.2M | Depth 12-20 | Eval +M9 | Node 2.5M | Time 99ms",
            15,
        );
        assert_eq!((i.depth, i.score), (Some(12), Some(Score::Mate(5))));
        let i = message_info("Depth 5-9 | Eval -M* | Time 3ms | H8", 15);
        assert_eq!(i.score, Some(Score::Mate(-DATABASE_MATE)));
        let i = message_info("Depth 3-3 | Eval -M8 | Time 0ms | A1", 15);
        assert_eq!(i.score, Some(Score::Mate(-4)));
        assert_eq!(i.pv, ["a15"]);
        kept_as_text(&[
            "Depth x | Eval 3",
            "Depth 3 | Eval M",
            "(1) 38 (W 50.00) | V 1k",
        ]);
    }

    /// Each line is passed on as text, with no depth or score read from it.
    fn kept_as_text(lines: &[&str]) {
        for &other in lines {
            let i = message_info(other, 15);
            assert_eq!(i.text.as_deref(), Some(other), "{other:?}");
            assert_eq!((i.depth, i.score), (None, None), "{other:?}");
        }
    }

    #[test]
    fn boyi_messages_are_read_as_thinking_and_others_kept_as_text() {
        let i = message_info("depth 9 score 147 nodes 1372 nps 28847 pv 7,7 7,6", 15);
        assert_eq!((i.depth, i.score), (Some(9), Some(Score::Units(147))));
        assert_eq!((i.nodes, i.nps), (Some(1372), Some(28847)));
        assert_eq!(i.pv, ["h8", "h9"]);
        assert_eq!(i.text, None);
        let i = message_info("depth 4 score mate -2 pv 0,14", 15);
        assert_eq!(i.score, Some(Score::Mate(-2)));
        assert_eq!(i.pv, ["a1"]);
        kept_as_text(&[
            "depth 9-12 | eval 147 | time 30",
            "depth 9 score 147 pv 7,7 99,99",
            "nodes 12",
            "",
        ]);
    }
}
