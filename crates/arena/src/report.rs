//! Running a match for a person: a progress bar with the running score (on a terminal),
//! one line per finished game, the records written to a directory, and the summary: each
//! player's time and depth per move, the machine's load average, and last
//! `W <wins> D <draws> L <losses> score <%> elo <diff> ci95 <margin>`.

use crate::machine::LoadWatch;
use crate::runner::{GameResult, MatchConfig, Thinking, run_match};
use crate::stats::{Verdict, Wdl};
use boyi_core::TextError;
use boyi_records::Format;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::Path;

/// Where the records of a match's games go: one file a game, `game-0001.<extension>`.
#[derive(Debug, Clone, Copy)]
pub struct RecordsOut<'a> {
    pub dir: &'a Path,
    pub format: Format,
}

/// Runs the match, writing records to `out` and the report to `w`.
pub fn run_and_report<G: boyi_engines::GamePlayers>(
    cfg: &MatchConfig<G>,
    out: Option<RecordsOut<'_>>,
    w: &mut impl Write,
) -> Result<Wdl, TextError> {
    run_and_report_with(cfg, out, w, |_| Ok(()))
}

/// As [`run_and_report`], also handing every finished game to `keep` (e.g. a database);
/// the first error of `keep` fails the match once it is over.
pub fn run_and_report_with<G: boyi_engines::GamePlayers>(
    cfg: &MatchConfig<G>,
    out: Option<RecordsOut<'_>>,
    w: &mut impl Write,
    mut keep: impl FnMut(&GameResult) -> Result<(), TextError>,
) -> Result<Wdl, TextError> {
    if let Some(o) = out {
        let kind: boyi_games::GameKind = G::NAME.parse()?;
        if !Format::for_game(kind).contains(&o.format) {
            return Err(text_err!(
                "--format {}: {} records are written as {}",
                o.format.name(),
                G::NAME,
                Format::for_game(kind)
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        std::fs::create_dir_all(o.dir).map_err(|e| text_err!("--out {}: {e}", o.dir.display()))?;
    }
    let bar = ProgressBar::new(cfg.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .expect("a valid template"),
    );
    let io = |e: std::io::Error| text_err!("writing the report: {e}");
    writeln!(
        w,
        "match {}: A {} vs B {}, {} games",
        G::NAME,
        cfg.players[0],
        cfg.players[1],
        cfg.games
    )
    .map_err(io)?;
    let mut write_error = None;
    let mut thinking = [Thinking::default(); 2];
    let mut load = LoadWatch::begin();
    let result = run_match(cfg, |game, wdl| {
        bar.inc(1);
        load.sample();
        thinking[0].add(game.thinking[0]);
        thinking[1].add(game.thinking[1]);
        bar.set_message(format!(
            "A +{} ={} -{} score {:.1}%",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            wdl.score() * 100.0
        ));
        let line = game_line::<G>(game);
        bar.suspend(|| {
            let _ = writeln!(w, "{line}");
        });
        if write_error.is_none()
            && let Err(e) = keep(game)
        {
            write_error = Some(e);
        }
        if let Some(o) = out {
            let path = o.dir.join(format!(
                "game-{:04}.{}",
                game.index + 1,
                o.format.extension()
            ));
            let written = boyi_records::write(std::slice::from_ref(&game.record), o.format)
                .map_err(|e| text_err!("writing {}: {e}", path.display()))
                .and_then(|bytes| {
                    std::fs::write(&path, bytes)
                        .map_err(|e| text_err!("writing {}: {e}", path.display()))
                });
            if let Err(e) = written {
                write_error.get_or_insert(e);
            }
        }
    });
    bar.finish_and_clear();
    load.finish();
    let (wdl, decision) = result?;
    if let Some(e) = write_error {
        return Err(e);
    }
    if let (Some(sprt), Some(d)) = (&cfg.sprt, decision) {
        let (lo, hi) = sprt.bounds();
        let said = match d.verdict {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Continue => "no decision yet",
        };
        // Games in progress when the test stopped finish and count in the totals; say
        // where the verdict was reached when they moved the ratio since.
        let late = wdl.games() - d.at.games();
        let when = if late > 0 {
            format!(
                " after {} games (llr {:.2}); {late} game(s) then in progress count in the totals",
                d.at.games(),
                sprt.llr(&d.at)
            )
        } else {
            String::new()
        };
        writeln!(
            w,
            "sprt elo0 {} elo1 {} llr {:.2} bounds ({:.2}, {:.2}): {said}{when}",
            sprt.elo0,
            sprt.elo1,
            sprt.llr(&wdl),
            lo,
            hi
        )
        .map_err(io)?;
    }
    writeln!(
        w,
        "time per move: A {:.0} ms, B {:.0} ms",
        thinking[0].average_ms(),
        thinking[1].average_ms()
    )
    .map_err(io)?;
    let depth = |t: &Thinking| match (t.average_depth(), t.median_depth()) {
        (Some(mean), Some(median)) => format!("{mean:.1} (median {median})"),
        _ => "-".to_string(),
    };
    writeln!(
        w,
        "depth per move: A {}, B {}",
        depth(&thinking[0]),
        depth(&thinking[1])
    )
    .map_err(io)?;
    writeln!(w, "{}", load.line()).map_err(io)?;
    writeln!(w, "{}", wdl.summary()).map_err(io)?;
    Ok(wdl)
}

fn game_line<G: boyi_engines::GamePlayers>(g: &GameResult) -> String {
    let r = &g.record;
    let (winner, reason) = r
        .result
        .as_ref()
        .map_or((None, String::new()), |res| (res.winner(), res.text()));
    let result = match winner {
        Some(s) => format!("{} wins", G::side_name(s)),
        None => "draw".to_string(),
    };
    let (a, b) = (g.a_side, g.a_side.opponent());
    format!(
        "game {}: A {} ({}) vs B {} ({}): {result} ({reason}) after {} moves",
        g.index + 1,
        r.name(a),
        G::side_name(a),
        r.name(b),
        G::side_name(b),
        r.moves.len()
    )
}
