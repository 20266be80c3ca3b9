//! Accuracy and speed of the board reader on synthetic photos, per difficulty level.
//!
//! `cargo run --release -p boyi-vision --example bench -- [--count N] [--width W]
//! [--height H] [--seed S] [--levels easy,medium,hard] [--dump DIR]`
//!
//! Time per image covers JPEG decoding and reading, not rendering: wall-clock time, and on
//! Linux also the CPU time the reading thread actually ran (from the scheduler), which is
//! what to compare on a machine shared with other work. `--dump` writes every photo read
//! wrongly, with its true position, for inspection.

#[path = "support/cpu.rs"]
mod cpu;

use boyi_vision::synth::{Level, SynthOptions, render};
use boyi_vision::{ReadOptions, read_board};
use cpu::cpu_seconds;
use std::time::Instant;

struct Args {
    count: u64,
    width: u32,
    height: u32,
    seed: u64,
    levels: Vec<Level>,
    dump: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        count: 20,
        width: 640,
        height: 480,
        seed: 1,
        levels: Level::ALL.to_vec(),
        dump: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        let num = |s: String| s.parse::<u64>().map_err(|e| format!("{s}: {e}"));
        match flag.as_str() {
            "--count" => a.count = num(value()?)?,
            "--width" => a.width = num(value()?)? as u32,
            "--height" => a.height = num(value()?)? as u32,
            "--seed" => a.seed = num(value()?)?,
            "--dump" => a.dump = Some(value()?),
            "--levels" => {
                a.levels = value()?
                    .split(',')
                    .map(|s| s.parse::<Level>().map_err(|e| e.to_string()))
                    .collect::<Result<_, _>>()?
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(a)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "{:<7} {:>6} {:>8} {:>7} {:>10} {:>9} {:>8}  ({}x{}, {} photos per level)",
        "level",
        "photos",
        "located",
        "exact",
        "points",
        "ms/photo",
        "cpu ms",
        args.width,
        args.height,
        args.count
    );
    for &level in &args.levels {
        let (mut located, mut exact, mut right, mut total) = (0, 0, 0usize, 0usize);
        let mut seconds = 0.0;
        let mut cpu = Some(0.0);
        for k in 0..args.count {
            let seed = args.seed * 1_000_003 + k;
            let opts = SynthOptions {
                seed,
                level,
                width: args.width,
                height: args.height,
                size: None,
                position: None,
                distortion: None,
            };
            let synth = match render(&opts) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("seed {seed}: cannot render: {e}");
                    continue;
                }
            };
            let start = Instant::now();
            let cpu_start = cpu_seconds();
            let img = image::load_from_memory(&synth.jpeg)
                .expect("own JPEG decodes")
                .into_rgb8();
            let read = read_board(&img, &ReadOptions::default());
            seconds += start.elapsed().as_secs_f64();
            cpu = match (cpu, cpu_start, cpu_seconds()) {
                (Some(total), Some(a), Some(b)) => Some(total + b - a),
                _ => None,
            };
            let n2 = synth.truth.len();
            total += n2;
            let ok = match &read {
                Ok(r) if r.size == synth.size => {
                    located += 1;
                    let good = r
                        .stones()
                        .iter()
                        .zip(&synth.truth)
                        .filter(|(a, b)| a == b)
                        .count();
                    right += good;
                    good == n2
                }
                _ => false,
            };
            if ok {
                exact += 1;
            } else {
                report_miss(&args, level, seed, &synth, &read);
            }
        }
        let c = args.count.max(1) as f64;
        println!(
            "{:<7} {:>6} {:>7.1}% {:>6.1}% {:>9.3}% {:>9.1} {:>8}",
            level.name(),
            args.count,
            100.0 * located as f64 / c,
            100.0 * exact as f64 / c,
            100.0 * right as f64 / total.max(1) as f64,
            1000.0 * seconds / c,
            cpu.map_or("-".to_string(), |s| format!("{:.1}", 1000.0 * s / c))
        );
    }
}

fn report_miss(
    args: &Args,
    level: Level,
    seed: u64,
    synth: &boyi_vision::synth::Synth,
    read: &Result<boyi_vision::BoardRead, boyi_vision::VisionError>,
) {
    let what = match read {
        Ok(r) if r.size != synth.size => format!("read {} lines, truth {}", r.size, synth.size),
        Ok(r) => {
            let wrong: Vec<String> = r
                .stones()
                .iter()
                .zip(&synth.truth)
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(|(k, (a, b))| {
                    let f = r.points[k].features;
                    format!(
                        "({},{}) {}→{} b{:.2} k{:.2} c{:.2} l{:.3} rim{:.2}",
                        k % r.size,
                        k / r.size,
                        b.symbol(),
                        a.symbol(),
                        f.brightness,
                        f.contrast,
                        f.colour,
                        f.lines,
                        f.rim
                    )
                })
                .collect();
            format!("{} wrong: {}", wrong.len(), wrong.join("; "))
        }
        Err(e) => e.to_string(),
    };
    eprintln!("{level} seed {seed} ({} lines): {what}", synth.size);
    if let Some(dir) = &args.dump {
        let base = format!("{dir}/{level}-{seed}");
        let _ = std::fs::write(format!("{base}.jpg"), &synth.jpeg);
        let _ = synth.image.save(format!("{base}.png"));
        let _ = std::fs::write(format!("{base}.txt"), synth.truth_rows().join("\n") + "\n");
    }
}
