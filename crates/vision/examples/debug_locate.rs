//! Prints the stages of grid location for one synthetic photo (development aid).
use boyi_vision::synth::{Level, SynthOptions, render};
use boyi_vision::{hough, lattice, locate};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let level: Level = a[1].parse().unwrap();
    let seed: u64 = a[2].parse().unwrap();
    let s = render(&SynthOptions {
        seed,
        level,
        width: 640,
        height: 480,
        size: None,
        position: None,
    })
    .unwrap();
    let t0 = std::time::Instant::now();
    s.image.save("/tmp/dbg.png").unwrap();
    let work = locate::Work::new(&s.image);
    eprintln!("work {:?}", t0.elapsed());
    let t0 = std::time::Instant::now();
    let _ = boyi_vision::read_board(&s.image, &Default::default());
    eprintln!("read {:?}", t0.elapsed());
    let t0 = std::time::Instant::now();
    let _ = locate::locate(&work, None);
    eprintln!("locate {:?}", t0.elapsed());
    let r = &work.response;
    let mut v: Vec<f32> = r.data.clone();
    v.sort_by(f32::total_cmp);
    println!(
        "p90 {} p96 {} p99 {}",
        v[v.len() * 90 / 100],
        v[v.len() * 96 / 100],
        v[v.len() * 99 / 100]
    );
    let thr = v[v.len() * 96 / 100].max(0.035) * 0.6;
    let lines = hough::detect_lines(r, thr, 260);
    println!("{} lines", lines.len());
    let fams = lattice::split_families(&lines).unwrap();
    for f in &fams {
        println!("family {} lines", f.len());
        let mut all: Vec<_> = f
            .iter()
            .map(|l| {
                (
                    (l.theta.to_degrees() * 10.0).round() / 10.0,
                    l.rho,
                    l.votes as i64,
                )
            })
            .collect();
        all.sort_by(|a, b| a.1.total_cmp(&b.1));
        println!("  all {:?}", all);
        let (cx, cy) = (r.w as f64 / 2.0, r.h as f64 / 2.0);
        let fam = lattice::fit_family(f, cx, cy, (cx * cx + cy * cy).sqrt(), 4.0);
        match fam {
            Some(fam) => {
                let mut l: Vec<_> = fam
                    .lines
                    .iter()
                    .map(|(l, i)| {
                        (
                            *i,
                            (l.theta.to_degrees() * 10.0).round() / 10.0,
                            l.rho,
                            l.votes as i64,
                        )
                    })
                    .collect();
                l.sort_by_key(|x| x.0);
                println!("  comb {:?}", l);
            }
            None => println!("  no comb"),
        }
    }
    println!("truth corners {:?}", s.corners);
    match locate::locate(&work, None) {
        Ok(l) => println!(
            "located {} lines, corners {:?}",
            l.size,
            [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
                .map(|(c, rr)| l.h.apply(c * (l.size - 1) as f64, rr * (l.size - 1) as f64))
        ),
        Err(e) => println!("{e}"),
    }
}
