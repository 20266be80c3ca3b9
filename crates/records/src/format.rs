//! Record file formats: detection by extension and content, reading (always followed by a
//! replay through the rules) and writing.

use crate::pgn::Notation;
use crate::record::GameRecord;
use crate::replay::{Checked, check, start_position};
use crate::{arena_text, boyi_text, c6, grid, jiu_dataset, pgn, psq, renlib, sgf, xqf};
use boyi_core::{Game, Side, TextError, text_err};
use boyi_games::{GameKind, with_game};
use std::path::Path;

/// A record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Boyi's own text (`.boyi`), every game.
    Boyi,
    /// SGF for Gomoku (`GM[4]`) and Connect6 (`GM[C6]`).
    Sgf,
    /// Gomocup / Piskvork `.psq` (Gomoku).
    Psq,
    /// The Connect6 championship text (`.c6`).
    C6,
    /// Xiangqi PGN, moves written in ICCS (reads every notation).
    Pgn,
    /// Xiangqi PGN, moves written in WXF.
    PgnWxf,
    /// Xiangqi PGN, moves written in Chinese.
    PgnChinese,
    /// XQStudio `.xqf` (Xiangqi), one game a file.
    Xqf,
    /// The public Jiu dataset's `Stage[1]:…;Stage[2]:…` text with an SGF-like header (`.jiu`).
    Jiu,
    /// RenLib's tree of variations (`.lib`, Gomoku 15×15): one record per line.
    RenLib,
    /// The game files `boyi match --out` wrote before (`# boyi game record`; read only).
    Arena,
}

impl Format {
    pub const ALL: [Format; 11] = [
        Format::Boyi,
        Format::Sgf,
        Format::Psq,
        Format::C6,
        Format::Pgn,
        Format::PgnWxf,
        Format::PgnChinese,
        Format::Xqf,
        Format::Jiu,
        Format::RenLib,
        Format::Arena,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Boyi => "boyi",
            Format::Sgf => "sgf",
            Format::Psq => "psq",
            Format::C6 => "c6",
            Format::Pgn => "pgn",
            Format::PgnWxf => "pgn-wxf",
            Format::PgnChinese => "pgn-chinese",
            Format::Xqf => "xqf",
            Format::Jiu => "jiu",
            Format::RenLib => "renlib",
            Format::Arena => "arena",
        }
    }

    /// The file extension of the format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::RenLib => "lib",
            Format::PgnWxf | Format::PgnChinese => "pgn",
            Format::Arena => "txt",
            f => f.name(),
        }
    }

    /// The format a file extension (or a format name) names, case-insensitive, if any
    /// (`.txt` names none: the arena's old files are known by their content).
    pub fn from_extension(ext: &str) -> Option<Format> {
        let ext = ext.to_ascii_lowercase();
        Format::ALL
            .into_iter()
            .find(|f| f.name() == ext || (f.extension() == ext && *f != Format::Arena))
    }

    /// Whether files of the format are binary (else UTF-8 text).
    pub fn is_binary(self) -> bool {
        matches!(self, Format::Xqf | Format::RenLib)
    }

    /// Whether Boyi writes the format.
    pub fn is_written(self) -> bool {
        self != Format::Arena
    }

    /// The formats Boyi writes games of `game` in, Boyi's own first.
    pub fn for_game(game: GameKind) -> &'static [Format] {
        match game {
            GameKind::Gomoku => &[Format::Boyi, Format::Sgf, Format::Psq, Format::RenLib],
            GameKind::Connect6 => &[Format::Boyi, Format::Sgf, Format::C6],
            GameKind::Jiu => &[Format::Boyi, Format::Jiu],
            GameKind::Xiangqi => &[
                Format::Boyi,
                Format::Pgn,
                Format::PgnWxf,
                Format::PgnChinese,
                Format::Xqf,
            ],
        }
    }

    /// How many games one file of the format holds at most (`None`: any number).
    pub fn games_per_file(self) -> Option<usize> {
        matches!(self, Format::Psq | Format::Xqf | Format::Arena).then_some(1)
    }

    pub fn parse(name: &str) -> Result<Format, TextError> {
        Format::from_extension(name).ok_or_else(|| {
            let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
            text_err!(
                "unknown record format {name:?} (known: {})",
                names.join(", ")
            )
        })
    }

    /// The format the content looks like.
    pub fn sniff(bytes: &[u8]) -> Option<Format> {
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
        let mut t = text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with(arena_text::HEADER) {
            return Some(Format::Arena);
        }
        while t.starts_with('#') {
            t = t.split_once('\n').map_or("", |(_, rest)| rest).trim_start();
        }
        if bytes.starts_with(&renlib::MAGIC) {
            Some(Format::RenLib)
        } else if bytes.starts_with(b"XQ") && bytes.len() >= 1024 {
            Some(Format::Xqf)
        } else if is_boyi_text(t) {
            Some(Format::Boyi)
        } else if is_jiu_dataset(t) {
            Some(Format::Jiu)
        } else if t.starts_with('[') {
            Some(Format::Pgn)
        } else if t.starts_with('(') && t[1..].trim_start().starts_with(';') {
            Some(Format::Sgf)
        } else if t.starts_with("Piskvorky") {
            Some(Format::Psq)
        } else if t.starts_with("{[") {
            Some(Format::C6)
        } else {
            None
        }
    }

    /// The format of a file: its extension if known, else its content.
    pub fn detect(path: &Path, bytes: &[u8]) -> Result<Format, TextError> {
        path.extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
            .or_else(|| Format::sniff(bytes))
            .ok_or_else(|| text_err!("{}: unknown record format", path.display()))
    }
}

/// Boyi text begins with `[Game "<a Boyi game>"]`; PGN may begin with `[Game "Chinese Chess"]`.
fn is_boyi_text(t: &str) -> bool {
    t.strip_prefix("[Game \"")
        .and_then(|r| r.split_once('"'))
        .is_some_and(|(name, _)| name.parse::<GameKind>().is_ok())
}

/// Jiu dataset text begins with `Stage[1]:`, or with an SGF-like header directly followed by
/// it.
fn is_jiu_dataset(t: &str) -> bool {
    t.starts_with("Stage[1]:")
        || (t.starts_with('(')
            && t.split_once("Stage[1]:")
                .is_some_and(|(header, _)| header.trim_end().ends_with(')')))
}

/// What a caller knows that a file may not say.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The variant of games whose file names none (e.g. `.psq`).
    pub variant: Option<String>,
}

/// Reads the records of a file's bytes in `format`, without checking them.
pub fn read_raw(
    bytes: &[u8],
    format: Format,
    opts: &ReadOptions,
) -> Result<Vec<GameRecord>, TextError> {
    let text = || {
        std::str::from_utf8(bytes)
            .map(|t| t.trim_start_matches('\u{feff}'))
            .map_err(|e| text_err!("not UTF-8 text: {e}"))
    };
    let mut records = match format {
        Format::Boyi => boyi_text::read(text()?)?,
        Format::Sgf => sgf::read(text()?)?,
        Format::Psq => vec![psq::read(text()?)?],
        Format::C6 => c6::read(text()?)?,
        Format::Pgn | Format::PgnWxf | Format::PgnChinese => pgn::read(text()?)?,
        Format::Xqf => vec![xqf::read(bytes)?],
        Format::Jiu => jiu_dataset::read(text()?)?,
        // A Renju tool's library: its lines follow the Renju rules unless told otherwise.
        Format::RenLib => renlib::read(bytes, opts.variant.as_deref().unwrap_or("renju"))?,
        Format::Arena => vec![arena_text::read(text()?)?],
    };
    if let Some(v) = &opts.variant {
        for r in records.iter_mut().filter(|r| r.variant.is_none()) {
            r.variant = Some(v.clone());
        }
    }
    Ok(records)
}

/// Reads and replays every record of a file's bytes; errors name the game and ply.
pub fn read(bytes: &[u8], format: Format, opts: &ReadOptions) -> Result<Vec<Checked>, TextError> {
    let records = read_raw(bytes, format, opts)?;
    let many = records.len() > 1;
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            check(r).map_err(|e| {
                if many {
                    e.context(format!("game {}", i + 1))
                } else {
                    e
                }
            })
        })
        .collect()
}

/// Reads and replays a record file, detecting its format.
pub fn read_file(path: &Path, opts: &ReadOptions) -> Result<Vec<Checked>, TextError> {
    let bytes = std::fs::read(path).map_err(|e| text_err!("{}: {e}", path.display()))?;
    let format = Format::detect(path, &bytes)?;
    read(&bytes, format, opts).map_err(|e| e.context(path.display()))
}

/// Writes records in `format` (each is checked first, so the output is canonical).
pub fn write(records: &[GameRecord], format: Format) -> Result<Vec<u8>, TextError> {
    let checked: Vec<GameRecord> = records
        .iter()
        .map(|r| check(r).map(|c| c.record))
        .collect::<Result<_, _>>()?;
    let text = match format {
        Format::Boyi => boyi_text::write(&checked),
        Format::Sgf => {
            let starts = checked
                .iter()
                .map(grid_start)
                .collect::<Result<Vec<_>, _>>()?;
            sgf::write(&checked, &starts)?
        }
        Format::Psq => {
            let [rec] = &checked[..] else {
                return Err(text_err!(
                    ".psq holds exactly one game, not {}",
                    checked.len()
                ));
            };
            psq::write(rec, grid_start(rec)?.0)?
        }
        Format::C6 => c6::write(&checked)?,
        Format::Pgn => pgn::write(&checked, Notation::Iccs)?,
        Format::PgnWxf => pgn::write(&checked, Notation::Wxf)?,
        Format::PgnChinese => pgn::write(&checked, Notation::Chinese)?,
        Format::Xqf => {
            let [rec] = &checked[..] else {
                return Err(text_err!(
                    "an .xqf file holds exactly one game, not {}",
                    checked.len()
                ));
            };
            return xqf::write(rec);
        }
        Format::Jiu => jiu_dataset::write(&checked)?,
        Format::RenLib => return renlib::write(&checked),
        Format::Arena => {
            return Err(text_err!(
                "the arena's old game files are read, not written (write boyi)"
            ));
        }
    };
    Ok(text.into_bytes())
}

/// The board size and first mover of a grid game's record.
pub fn grid_start(rec: &GameRecord) -> Result<(usize, Side), TextError> {
    if !matches!(
        rec.game,
        GameKind::Gomoku | GameKind::Connect6 | GameKind::Jiu
    ) {
        return Err(text_err!("{} is not played on a square grid", rec.game));
    }
    let text = with_game!(rec.game, G => start_position::<G>(rec).map(|p| (p.to_text(), p.side_to_move())))??;
    Ok((grid::read_setup(&text.0)?.size, text.1))
}
