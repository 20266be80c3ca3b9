//! Opening books keyed by position: built from records, transpositions merged (the key is the
//! position's Zobrist hash, not the move path) and board symmetries folded (the key is the
//! smallest hash over the symmetries that keep the rules, and moves are stored as seen in
//! that orientation). Each move carries how many games played it and their results from the
//! mover's side.
//!
//! File (text, one entry per line after a short header; fields separated by tabs):
//! ```text
//! boyi-book 1
//! game gomoku
//! variant freestyle
//! 00c0ffee00c0ffee<TAB>h8<TAB>12<TAB>7<TAB>1<TAB>4
//! ```
//! An entry is the key (16 hex digits), the move in the canonical orientation, games, wins,
//! draws and losses of the side that played it.

use crate::replay::{Checked, replay};
use crate::symmetry::{board_dims, inverse, symmetries, transform_move, transform_position};
use boyi_core::{Game, Side, TextError, text_err};
use boyi_games::with_game;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Counts of one move in one position.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MoveStats {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl MoveStats {
    /// The mover's average score over games with a known result (0.5 when none).
    pub fn score(&self) -> f64 {
        let n = self.wins + self.draws + self.losses;
        if n == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
        }
    }
}

/// A book move of a probed position, in that position's own orientation.
#[derive(Debug, Clone)]
pub struct BookMove<M> {
    pub mv: M,
    pub text: String,
    pub stats: MoveStats,
}

/// An opening book of one game and variant.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Book {
    pub game: String,
    pub variant: String,
    entries: HashMap<u64, Vec<(String, MoveStats)>>,
}

/// A position in the orientation the book keys it by.
struct Canonical<G> {
    key: u64,
    /// Symmetries that take the position to its keyed orientation.
    syms: Vec<u8>,
    /// The position in each of `syms`' orientations.
    images: Vec<G>,
    dims: (usize, usize),
}

fn canonical<G: Game>(pos: &G) -> Result<Canonical<G>, TextError> {
    let text = pos.to_text();
    let dims = board_dims(G::NAME, &text)?;
    let mut best: Option<Canonical<G>> = None;
    for &s in symmetries(G::NAME) {
        let image = if s == 0 {
            pos.clone()
        } else {
            G::from_text(pos.variant(), &transform_position(G::NAME, s, &text)?)?
        };
        let h = image.hash();
        match &mut best {
            Some(b) if h > b.key => {}
            Some(b) if h == b.key => {
                b.syms.push(s);
                b.images.push(image);
            }
            _ => {
                best = Some(Canonical {
                    key: h,
                    syms: vec![s],
                    images: vec![image],
                    dims,
                })
            }
        }
    }
    best.ok_or_else(|| text_err!("no symmetry"))
}

/// `mv`'s text moved into the orientation of `image` (the position under symmetry `s`).
fn move_into<G: Game>(
    s: u8,
    image: &G,
    text: &str,
    (w, h): (usize, usize),
) -> Result<(G::Move, String), TextError> {
    let moved = transform_move(G::NAME, s, text, w, h);
    let mv = image.parse_move(&moved)?;
    let canon = image.format_move(&mv);
    Ok((mv, canon))
}

impl Book {
    pub fn new(game: &str, variant: &str) -> Book {
        Book {
            game: game.to_string(),
            variant: variant.to_string(),
            entries: HashMap::new(),
        }
    }

    /// Builds a book of the first `max_ply` moves of checked records (all of one game).
    pub fn build(records: &[Checked], max_ply: usize) -> Result<Book, TextError> {
        let first = records
            .first()
            .ok_or_else(|| text_err!("no records to build a book from"))?;
        let game = first.record.game;
        let mut book = Book::new(game.name(), first.record.variant.as_deref().unwrap_or(""));
        for (i, c) in records.iter().enumerate() {
            let r = &c.record;
            if r.game != game || r.variant.as_deref().unwrap_or("") != book.variant {
                return Err(text_err!(
                    "record {}: a {} {} game in a {} {} book",
                    i + 1,
                    r.game,
                    r.variant.as_deref().unwrap_or(""),
                    book.game,
                    book.variant
                ));
            }
            with_game!(game, G => book.add_record::<G>(c, max_ply))?
                .map_err(|e| e.context(format!("record {}", i + 1)))?;
        }
        Ok(book)
    }

    fn add_record<G: Game>(&mut self, c: &Checked, max_ply: usize) -> Result<(), TextError> {
        let rp = replay::<G>(&c.record)?;
        let mut pos = rp.start;
        for mv in rp.moves.iter().take(max_ply) {
            let mover = pos.side_to_move();
            let text = pos.format_move(mv);
            self.add::<G>(
                &pos,
                &text,
                mover,
                c.record.result.as_ref().map(|r| r.winner()),
            )?;
            pos.play(mv);
        }
        Ok(())
    }

    /// Counts move `text` played by `mover` in `pos`, in a game that ended with `result`
    /// (`Some(winner)`, `None` when unknown).
    pub fn add<G: Game>(
        &mut self,
        pos: &G,
        text: &str,
        mover: Side,
        result: Option<Option<Side>>,
    ) -> Result<(), TextError> {
        let c = canonical(pos)?;
        let mut best: Option<String> = None;
        for (&s, image) in c.syms.iter().zip(&c.images) {
            let (_, t) = move_into(s, image, text, c.dims)?;
            if best.as_ref().is_none_or(|b| t < *b) {
                best = Some(t);
            }
        }
        let best = best.expect("at least one symmetry");
        let list = self.entries.entry(c.key).or_default();
        let idx = match list.iter().position(|(m, _)| *m == best) {
            Some(i) => i,
            None => {
                list.push((best, MoveStats::default()));
                list.len() - 1
            }
        };
        let st = &mut list[idx].1;
        st.games += 1;
        match result {
            Some(Some(w)) if w == mover => st.wins += 1,
            Some(Some(_)) => st.losses += 1,
            Some(None) => st.draws += 1,
            None => {}
        }
        Ok(())
    }

    /// The book moves of `pos`, most played first (ties: better score, then move text).
    /// Empty when the position is not in the book or the book is of another game.
    pub fn probe<G: Game>(&self, pos: &G) -> Result<Vec<BookMove<G::Move>>, TextError> {
        if self.game != G::NAME {
            return Ok(Vec::new());
        }
        let c = canonical(pos)?;
        let Some(list) = self.entries.get(&c.key) else {
            return Ok(Vec::new());
        };
        let back = inverse(c.syms[0]);
        let mut out = Vec::with_capacity(list.len());
        for (text, stats) in list {
            let (mv, text) = move_into(back, pos, text, c.dims)
                .map_err(|e| e.context(format!("book move {text:?}")))?;
            out.push(BookMove {
                mv,
                text,
                stats: stats.clone(),
            });
        }
        out.sort_by(|a, b| {
            b.stats
                .games
                .cmp(&a.stats.games)
                .then(b.stats.score().total_cmp(&a.stats.score()))
                .then(a.text.cmp(&b.text))
        });
        Ok(out)
    }

    /// The book's choice in `pos`: the most played move (see [`Book::probe`]).
    pub fn choose<G: Game>(&self, pos: &G) -> Option<G::Move> {
        self.probe(pos).ok()?.into_iter().next().map(|b| b.mv)
    }

    /// Number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book as text (entries sorted, so equal books give equal files).
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "boyi-book 1\ngame {}\nvariant {}\n",
            self.game, self.variant
        );
        let mut keys: Vec<&u64> = self.entries.keys().collect();
        keys.sort();
        for k in keys {
            let mut list = self.entries[k].clone();
            list.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(&b.0)));
            for (m, s) in list {
                let _ = writeln!(
                    out,
                    "{k:016x}\t{m}\t{}\t{}\t{}\t{}",
                    s.games, s.wins, s.draws, s.losses
                );
            }
        }
        out
    }

    /// Reads book text.
    pub fn from_text(text: &str) -> Result<Book, TextError> {
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some("boyi-book 1") {
            return Err(text_err!(
                "not a Boyi book (first line must be \"boyi-book 1\")"
            ));
        }
        let mut header = |name: &str| -> Result<String, TextError> {
            lines
                .next()
                .and_then(|l| l.strip_prefix(name))
                .filter(|rest| rest.is_empty() || rest.starts_with(' '))
                .map(|v| v.trim().to_string())
                .ok_or_else(|| text_err!("book header line \"{name} ...\" missing"))
        };
        let mut book = Book::new(&header("game")?, &header("variant")?);
        for (i, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let (key, mv, stats) =
                parse_entry(line).map_err(|e| e.context(format!("book line {}", i + 4)))?;
            book.entries.entry(key).or_default().push((mv, stats));
        }
        Ok(book)
    }
}

fn parse_entry(line: &str) -> Result<(u64, String, MoveStats), TextError> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() != 6 {
        return Err(text_err!(
            "expected 6 tab-separated fields, found {}",
            f.len()
        ));
    }
    let key = u64::from_str_radix(f[0], 16).map_err(|_| text_err!("bad key {:?}", f[0]))?;
    let n = |s: &str| s.parse::<u32>().map_err(|_| text_err!("bad count {s:?}"));
    let stats = MoveStats {
        games: n(f[2])?,
        wins: n(f[3])?,
        draws: n(f[4])?,
        losses: n(f[5])?,
    };
    if f[1].trim().is_empty() {
        return Err(text_err!("empty move"));
    }
    Ok((key, f[1].to_string(), stats))
}
