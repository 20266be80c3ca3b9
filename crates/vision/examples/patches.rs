//! Training data for the stone network (`boyi_vision::net`): the patch of every intersection
//! of photos whose truth is known, cut from the grid the reader locates (as when reading).
//!
//! `cargo run --profile dev-opt -p boyi-vision --example patches -- OUT.bin [--synthetic N]
//! [--seed S] [--real DIR --split SPLIT]`
//!
//! Synthetic: N photos of each level (easy, medium, hard, and twice as many of `real`, the
//! variety of physical boards), of 640 to 1600 pixels wide. Real: the photos of `DIR/set.tsv`
//! of split SPLIT (never `test`), labels matched in the best of the eight orientations.
//! A photo whose grid is not found, or found wrongly (its read differs from the truth at
//! more than a tenth of the points), gives nothing. Each record is 1 + CHANNELS·PATCH²
//! little-endian `f32`: the label (0 empty, 1 black, 2 white), then the patch.

use boyi_vision::net::{Patch, patches};
use boyi_vision::synth::{Level, SynthOptions, render};
use boyi_vision::{ReadOptions, Stone, load_image, read_board};
use std::io::Write;
use std::path::Path;

fn label(s: Stone) -> f32 {
    match s {
        Stone::Empty => 0.0,
        Stone::Black => 1.0,
        Stone::White => 2.0,
    }
}

fn write(out: &mut impl Write, truth: &[Option<Stone>], cut: &[Patch]) -> usize {
    let mut k = 0;
    for (t, p) in truth.iter().zip(cut) {
        let Some(t) = t else { continue };
        let mut rec = Vec::with_capacity(4 * (1 + p.len()));
        rec.extend(label(*t).to_le_bytes());
        for v in p {
            rec.extend(v.to_le_bytes());
        }
        out.write_all(&rec).expect("write");
        k += 1;
    }
    k
}

fn synthetic(out: &mut impl Write, count: u64, seed: u64) {
    let sizes = [
        (640, 480),
        (800, 600),
        (1024, 768),
        (1280, 960),
        (1600, 1200),
    ];
    for (li, level) in [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Real,
        Level::Real,
    ]
    .into_iter()
    .enumerate()
    {
        let (mut photos, mut points) = (0, 0);
        for k in 0..count {
            let s = seed + 1_000_000 * li as u64 + k;
            let (width, height) = sizes[(s % sizes.len() as u64) as usize];
            let Ok(photo) = render(&SynthOptions {
                seed: s,
                level,
                width,
                height,
                size: None,
                position: None,
                distortion: None,
            }) else {
                continue;
            };
            let n = photo.size;
            let Ok(read) = read_board(
                &photo.image,
                &ReadOptions {
                    size: Some(n),
                    corners: None,
                },
            ) else {
                continue;
            };
            let agree = read
                .stones()
                .iter()
                .zip(&photo.truth)
                .filter(|(a, b)| a == b)
                .count();
            if agree * 10 < n * n * 9 {
                continue;
            }
            let truth: Vec<Option<Stone>> = photo.truth.iter().map(|&s| Some(s)).collect();
            points += write(out, &truth, &patches(&photo.image, &read.map, n));
            photos += 1;
        }
        eprintln!("{level}: {photos} photos, {points} points");
    }
}

fn real(out: &mut impl Write, dir: &Path, split: &str) -> Result<(), String> {
    if split == "test" {
        return Err("the test split is held out".into());
    }
    let manifest = std::fs::read_to_string(dir.join("set.tsv")).map_err(|e| e.to_string())?;
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 4 || f[2] != split {
            continue;
        }
        let n: usize = f[1].parse().map_err(|e| format!("{e}"))?;
        let text = std::fs::read_to_string(dir.join(format!("{}.txt", f[0])))
            .map_err(|e| e.to_string())?;
        let labels: Vec<Option<Stone>> = text
            .lines()
            .flat_map(|l| l.trim().chars())
            .map(Stone::from_symbol)
            .collect();
        let img = load_image(&dir.join(format!("{}.jpg", f[0]))).map_err(|e| e.to_string())?;
        let Ok(read) = read_board(
            &img,
            &ReadOptions {
                size: Some(n),
                corners: None,
            },
        ) else {
            eprintln!("{}: not located", f[0]);
            continue;
        };
        // The labels in the read's orientation: the best of the eight.
        let m = n - 1;
        let oriented = (0..8)
            .map(|v| {
                let mut t = vec![None; n * n];
                for k in 0..n * n {
                    let (c, r) = (k % n, k / n);
                    let (c, r) = if v & 4 != 0 { (m - c, r) } else { (c, r) };
                    let (c, r) = match v & 3 {
                        0 => (c, r),
                        1 => (m - r, c),
                        2 => (m - c, m - r),
                        _ => (r, m - c),
                    };
                    t[r * n + c] = labels[k];
                }
                t
            })
            .max_by_key(|t| {
                t.iter()
                    .zip(read.stones())
                    .filter(|(a, b)| **a == Some(*b))
                    .count()
            })
            .expect("eight orientations");
        let k = write(out, &oriented, &patches(&img, &read.map, n));
        eprintln!("{}: {k} points", f[0]);
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let Some(path) = args.first() else {
        eprintln!("usage: patches OUT.bin [--synthetic N] [--seed S] [--real DIR --split S]");
        std::process::exit(1);
    };
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("create output"));
    if let Some(n) = flag("--synthetic") {
        let seed = flag("--seed").map_or(70_000_000, |s| s.parse().expect("seed"));
        synthetic(&mut out, n.parse().expect("count"), seed);
    }
    if let Some(dir) = flag("--real")
        && let Err(e) = real(
            &mut out,
            Path::new(&dir),
            &flag("--split").unwrap_or_else(|| "dev".into()),
        )
    {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
