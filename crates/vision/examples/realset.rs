//! The labelled real photos: how well they are read, per board kind, and pictures to check
//! labels by eye.
//!
//! `cargo run --profile dev-opt -p boyi-vision --example realset -- eval DIR [--split S]`
//! reads every photo of `DIR/set.tsv` (of split `S`, default all) and prints, per photo, the
//! points right, the points read with a confidence under 0.7 and the CPU time of the read
//! (decoding not counted), and per board kind, photos located, boards exact and points right.
//!
//! `... -- overlay PHOTO OUT.png [--size N] [--corners x1,y1,...] [--labels ROWS.txt]` writes
//! the board as read, rectified (one step = 34 pixels), with a small red square on every
//! point read black, a cyan one on every point read white, and a yellow ring where the read
//! differs from `--labels` (compared in the best of the eight orientations); ticks mark every
//! fifth line. The rows read are printed.
//!
//! `set.tsv`: one photo a line, tab-separated: name (NAME.jpg or NAME.png beside NAME.txt),
//! lines, split (`test` or `dev`), kind (free text, the figures are grouped by it), and
//! optionally the four grid corners `x1,y1,...,x4,y4` for photos the locator misses (their
//! points are then measured on the grid the corners give, and counted apart).

#[path = "support/cpu.rs"]
mod cpu;

use boyi_vision::orient::Orientation;
use boyi_vision::{BoardRead, ReadOptions, Stone, load_image, read_board};
use image::{Rgb, RgbImage};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The eight symmetries of an `n`-line board: `(col, row)` of the labels → of the read.
pub fn orient(v: usize, n: usize, c: usize, r: usize) -> (usize, usize) {
    let (c, r) = Orientation::symmetries(n)[v].map(c, r);
    (c as usize, r as usize)
}

/// Label rows: `.` empty, `x` black, `o` white, `?` not in the photo (not counted).
fn parse_rows(text: &str) -> Result<Vec<Vec<Option<Stone>>>, String> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.trim()
                .chars()
                .map(|c| match c {
                    '?' => Ok(None),
                    c => Stone::from_symbol(c)
                        .map(Some)
                        .ok_or(format!("bad label character {c:?}")),
                })
                .collect()
        })
        .collect()
}

/// Points a label names (not `?`).
fn known(labels: &[Vec<Option<Stone>>]) -> usize {
    labels.iter().flatten().filter(|s| s.is_some()).count()
}

/// Points of `read` that agree with `labels` in the best orientation, and that orientation.
fn best_match(read: &BoardRead, labels: &[Vec<Option<Stone>>]) -> (usize, usize) {
    let n = read.size;
    if labels.len() != n || labels.iter().any(|r| r.len() != n) {
        return (0, 0);
    }
    (0..8)
        .map(|v| {
            let right = (0..n * n)
                .filter(|&k| {
                    let (c, r) = orient(v, n, k % n, k / n);
                    labels[k / n][k % n] == Some(read.at(c, r).stone)
                })
                .count();
            (right, v)
        })
        .max()
        .unwrap()
}

fn parse_corners(s: &str) -> Result<[(f64, f64); 4], String> {
    let v: Vec<f64> = s
        .split(',')
        .map(|x| x.trim().parse::<f64>().map_err(|e| format!("{x}: {e}")))
        .collect::<Result<_, _>>()?;
    if v.len() != 8 {
        return Err("corners need 8 numbers".into());
    }
    Ok(std::array::from_fn(|i| (v[2 * i], v[2 * i + 1])))
}

fn photo_path(dir: &Path, name: &str) -> PathBuf {
    let jpg = dir.join(format!("{name}.jpg"));
    if jpg.exists() {
        jpg
    } else {
        dir.join(format!("{name}.png"))
    }
}

#[derive(Default)]
struct Tally {
    photos: usize,
    located: usize,
    exact: usize,
    right: usize,
    points: usize,
    by_hand: usize,
}

fn eval(dir: &Path, split: Option<&str>) -> Result<(), String> {
    let manifest =
        std::fs::read_to_string(dir.join("set.tsv")).map_err(|e| format!("set.tsv: {e}"))?;
    let mut kinds: BTreeMap<String, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 4 {
            return Err(format!("set.tsv: short line {line:?}"));
        }
        if split.is_some_and(|s| s != f[2]) {
            continue;
        }
        let (name, n) = (f[0], f[1].parse::<usize>().map_err(|e| e.to_string())?);
        let labels = parse_rows(
            &std::fs::read_to_string(dir.join(format!("{name}.txt")))
                .map_err(|e| format!("{name}.txt: {e}"))?,
        )?;
        let img = load_image(&photo_path(dir, name)).map_err(|e| e.to_string())?;
        let cpu0 = cpu::cpu_seconds();
        let read = read_board(
            &img,
            &ReadOptions {
                size: Some(n),
                corners: None,
            },
        );
        let cpu_ms = match (cpu0, cpu::cpu_seconds()) {
            (Some(a), Some(b)) => format!("{:>5.0}", 1000.0 * (b - a)),
            _ => "    -".into(),
        };
        let megapixels = f64::from(img.width()) * f64::from(img.height()) / 1e6;
        let (read, by_hand) = match (read, f.get(4)) {
            (Ok(r), _) => (Some(r), false),
            (Err(_), Some(c)) => (
                read_board(
                    &img,
                    &ReadOptions {
                        size: Some(n),
                        corners: Some(parse_corners(c)?),
                    },
                )
                .ok(),
                true,
            ),
            (Err(_), None) => (None, false),
        };
        let counted = known(&labels);
        let right = read.as_ref().map(|r| best_match(r, &labels).0);
        let unsure = read.as_ref().map_or(0, |r| {
            r.points.iter().filter(|p| p.confidence < 0.7).count()
        });
        println!(
            "{name:<28} {:<44} {:>9} {} unsure {unsure:>3} {cpu_ms} ms CPU ({megapixels:.1} Mpx)",
            f[3],
            match right {
                Some(r) => format!("{r}/{counted}"),
                None => "not found".into(),
            },
            if by_hand { "(corners by hand)" } else { "" },
        );
        for t in [kinds.entry(f[3].to_string()).or_default(), &mut all] {
            t.photos += 1;
            t.points += counted;
            match right {
                Some(r) if !by_hand => {
                    t.located += 1;
                    t.right += r;
                    t.exact += usize::from(r == counted);
                }
                Some(_) => t.by_hand += 1,
                None => {}
            }
        }
    }
    println!(
        "\n| kind | photos | located | exact | points right (of all) |\n|---|---|---|---|---|"
    );
    for (k, t) in kinds.iter().chain([(&"all".to_string(), &all)]) {
        println!(
            "| {k} | {} | {} | {} | {}/{} ({:.2}%) |",
            t.photos,
            t.located,
            t.exact,
            t.right,
            t.points,
            100.0 * t.right as f64 / t.points.max(1) as f64
        );
    }
    if all.by_hand > 0 {
        println!(
            "({} photos located only with corners given by hand, counted as not located)",
            all.by_hand
        );
    }
    Ok(())
}

fn rgb_at(img: &RgbImage, x: f64, y: f64) -> Rgb<u8> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let (xi, yi) = (x.floor() as i64, y.floor() as i64);
    if xi < 0 || yi < 0 || xi + 1 >= w || yi + 1 >= h {
        return Rgb([40, 40, 40]);
    }
    let (fx, fy) = (x - xi as f64, y - yi as f64);
    let px = |dx: i64, dy: i64| img.get_pixel((xi + dx) as u32, (yi + dy) as u32).0;
    let mut out = [0u8; 3];
    for (c, o) in out.iter_mut().enumerate() {
        let v = px(0, 0)[c] as f64 * (1.0 - fx) * (1.0 - fy)
            + px(1, 0)[c] as f64 * fx * (1.0 - fy)
            + px(0, 1)[c] as f64 * (1.0 - fx) * fy
            + px(1, 1)[c] as f64 * fx * fy;
        *o = v.round() as u8;
    }
    Rgb(out)
}

fn overlay(
    photo: &Path,
    out: &Path,
    opts: &ReadOptions,
    labels: Option<&Path>,
) -> Result<(), String> {
    const S: f64 = 34.0;
    let img = load_image(photo).map_err(|e| e.to_string())?;
    let read = read_board(&img, opts).map_err(|e| e.to_string())?;
    let n = read.size;
    let labels = labels
        .map(|p| std::fs::read_to_string(p).map_err(|e| e.to_string()))
        .transpose()?
        .map(|t| parse_rows(&t))
        .transpose()?;
    let side = ((n + 1) as f64 * S) as u32;
    let mut o = RgbImage::new(side, side);
    for v in 0..side {
        for u in 0..side {
            let (c, r) = (u as f64 / S - 1.0, v as f64 / S - 1.0);
            let (x, y) = read.map.apply(c, r);
            o.put_pixel(u, v, rgb_at(&img, x, y));
        }
    }
    let mut fill = |cx: f64, cy: f64, half: i64, colour: [u8; 3], ring: bool| {
        for dy in -half..=half {
            for dx in -half..=half {
                if ring && dx.abs() < half - 1 && dy.abs() < half - 1 {
                    continue;
                }
                let (x, y) = (cx as i64 + dx, cy as i64 + dy);
                if x >= 0 && y >= 0 && (x as u32) < side && (y as u32) < side {
                    o.put_pixel(x as u32, y as u32, Rgb(colour));
                }
            }
        }
    };
    for k in 0..n {
        if k % 5 == 0 || k == n - 1 {
            let t = (k + 1) as f64 * S;
            fill(t, S * 0.25, 2, [255, 0, 255], false);
            fill(S * 0.25, t, 2, [255, 0, 255], false);
        }
    }
    let view = labels.as_ref().map(|l| best_match(&read, l).1);
    for r in 0..n {
        for c in 0..n {
            let (cx, cy) = ((c + 1) as f64 * S, (r + 1) as f64 * S);
            match read.at(c, r).stone {
                Stone::Black => fill(cx, cy, 3, [255, 0, 0], false),
                Stone::White => fill(cx, cy, 3, [0, 255, 255], false),
                Stone::Empty => {}
            }
            if let (Some(l), Some(v)) = (&labels, view) {
                // The label whose read point is (c, r).
                let k = (0..n * n)
                    .find(|&k| orient(v, n, k % n, k / n) == (c, r))
                    .unwrap();
                if l[k / n][k % n].is_some_and(|s| s != read.at(c, r).stone) {
                    fill(cx, cy, 12, [255, 255, 0], true);
                }
            }
        }
    }
    o.save(out).map_err(|e| e.to_string())?;
    // Points off the photo cannot be labelled: `?`.
    let (w, h) = (img.width() as f64, img.height() as f64);
    for r in 0..n {
        let row: String = (0..n)
            .map(|c| {
                let p = read.at(c, r);
                if p.x < 2.0 || p.y < 2.0 || p.x > w - 3.0 || p.y > h - 3.0 {
                    '?'
                } else {
                    p.stone.symbol()
                }
            })
            .collect();
        println!("{row}");
    }
    let unsure: Vec<String> = read
        .points
        .iter()
        .enumerate()
        .filter(|(_, p)| p.confidence < 0.7)
        .map(|(k, p)| format!("({},{}){:?}{:.2}", k % n, k / n, p.stone, p.confidence))
        .collect();
    eprintln!("corners {:?}; unsure: {}", read.corners(), unsure.join(" "));
    Ok(())
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    match args.first().map(String::as_str) {
        Some("eval") => eval(
            Path::new(args.get(1).ok_or("eval DIR")?),
            flag("--split").as_deref(),
        ),
        Some("overlay") => {
            let opts = ReadOptions {
                size: flag("--size").map(|s| s.parse().map_err(|e| format!("{e}"))).transpose()?,
                corners: flag("--corners").map(|c| parse_corners(&c)).transpose()?,
            };
            overlay(
                Path::new(args.get(1).ok_or("overlay PHOTO OUT")?),
                Path::new(args.get(2).ok_or("overlay PHOTO OUT")?),
                &opts,
                flag("--labels").as_deref().map(Path::new),
            )
        }
        _ => Err("usage: realset eval DIR [--split S] | overlay PHOTO OUT.png [--size N] [--corners ...] [--labels ROWS]".into()),
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
