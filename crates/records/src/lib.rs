//! Game records of Boyi: one record model ([`GameRecord`]) for files, the arena, the server,
//! the game database and the command line; readers and writers of the record formats of each game ([`Format`]); replay of
//! every record through the rules ([`check`]); opening books built from records ([`book`],
//! [`seqbook`]).

pub mod arena_text;
pub mod book;
pub mod boyi_text;
pub mod c6;
pub mod date;
pub mod format;
pub mod grid;
pub mod jiu_dataset;
pub mod pgn;
pub mod psq;
pub mod record;
pub mod renlib;
pub mod replay;
pub mod seqbook;
pub mod sgf;
pub mod symmetry;
pub mod xqf;

pub use date::Date;
pub use format::{Format, ReadOptions, read, read_file, read_raw, write};
pub use record::{GameRecord, GameResult, Player, RecordedMove, parse_winner, winner_word};
pub use replay::{Checked, Replay, check, header_for, replay, start_position};
