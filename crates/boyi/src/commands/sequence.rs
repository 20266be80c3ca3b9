//! `boyi vision synth --sequence MOVES --out-dir DIR`: the frames of a game being played in
//! front of a fixed camera, for testing `boyi watch` (see `boyi_vision::sequence`).

use anyhow::{Context, Result, bail};
use boyi_core::{Game, Point, Side};
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::Gomoku;
use boyi_vision::sequence::{self, Placement, Shot};
use boyi_vision::synth::SynthOptions;
use boyi_vision::{Stone, VisionError};
use std::fmt::Write as _;
use std::path::Path;

/// Renders the frames of the `game` (gomoku or connect6) `moves` into `dir`, drawn as
/// `look` says (its size, when not given, the game's own; its position is the game's).
pub fn frames(game: &str, look: SynthOptions, moves: &str, dir: &Path) -> Result<()> {
    let (size, turns) = match game {
        "gomoku" => turns::<Gomoku>(moves, look.size.unwrap_or(15))?,
        "connect6" => turns::<Connect6>(moves, look.size.unwrap_or(19))?,
        g => bail!("--sequence draws gomoku or connect6 games, not {g:?}"),
    };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let opts = SynthOptions {
        size: Some(size),
        position: None,
        ..look
    };
    let mut index = 0;
    let mut listing = String::new();
    sequence::frames(
        &opts,
        &vec![Stone::Empty; size * size],
        &turns,
        |synth, shot| {
            let name = format!("frame-{index:04}.jpg");
            index += 1;
            std::fs::write(dir.join(&name), &synth.jpeg)
                .map_err(|e| VisionError::BadInput(format!("writing {name}: {e}")))?;
            let _ = match shot {
                Shot::Still { turns } => writeln!(listing, "{name} still {turns}"),
                Shot::Hand { turn } => writeln!(listing, "{name} hand {}", turn + 1),
            };
            Ok(())
        },
    )?;
    let list = dir.join("frames.txt");
    std::fs::write(&list, listing).with_context(|| format!("writing {}", list.display()))?;
    outln!(
        "{} frames of {} turns in {}",
        index,
        turns.len(),
        dir.display()
    );
    Ok(())
}

/// The stones each move of `moves` places, in reading coordinates (row from the top).
fn turns<G: Game>(moves: &str, size: usize) -> Result<(usize, Vec<Vec<Placement>>)> {
    let mut pos = G::start(&Default::default(), Some(size))
        .with_context(|| format!("a {size}-line board"))?;
    let mut turns = Vec::new();
    for (i, text) in moves.split(',').map(str::trim).enumerate() {
        let mv = pos
            .parse_move(text)
            .with_context(|| format!("move {} ({text:?})", i + 1))?;
        if !pos.is_legal(&mv) {
            bail!("move {} ({text:?}) is not legal", i + 1);
        }
        let stone = match pos.side_to_move() {
            Side::Black => Stone::Black,
            Side::White => Stone::White,
        };
        let placed = pos
            .format_move(&mv)
            .split_whitespace()
            .map(|p| {
                let p = Point::parse(p, size)?;
                Ok((p.col as usize, size - 1 - p.row as usize, stone))
            })
            .collect::<Result<Vec<_>, boyi_core::TextError>>()?;
        turns.push(placed);
        pos.play(&mv);
    }
    Ok((size, turns))
}
