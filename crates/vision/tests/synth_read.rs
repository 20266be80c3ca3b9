//! The reader against the synthetic photo generator, on fixed seeds: every level's targets
//! (easy and medium: every board located, ≥ 99.9% of points right; hard: ≥ 95% of boards
//! exactly right). A few small photos per level in the fast tier; more in the slow tier.

use boyi_vision::synth::{Level, SynthOptions, render};
use boyi_vision::{ReadOptions, Stone, read_board};

struct Tally {
    photos: usize,
    located: usize,
    exact: usize,
    right: usize,
    points: usize,
}

fn run(level: Level, seeds: std::ops::Range<u64>, width: u32, height: u32) -> Tally {
    let mut t = Tally {
        photos: 0,
        located: 0,
        exact: 0,
        right: 0,
        points: 0,
    };
    for seed in seeds {
        let s = render(&SynthOptions {
            seed,
            level,
            width,
            height,
            size: None,
            position: None,
        })
        .expect("renders");
        t.photos += 1;
        t.points += s.truth.len();
        let Ok(read) = read_board(&s.image, &ReadOptions::default()) else {
            eprintln!("{level} seed {seed}: not located");
            continue;
        };
        if read.size != s.size {
            eprintln!(
                "{level} seed {seed}: read {} lines, truth {}",
                read.size, s.size
            );
            continue;
        }
        t.located += 1;
        let right = read
            .stones()
            .iter()
            .zip(&s.truth)
            .filter(|(a, b)| a == b)
            .count();
        t.right += right;
        if right == s.truth.len() {
            t.exact += 1;
        } else {
            eprintln!(
                "{level} seed {seed}: {} points wrong",
                s.truth.len() - right
            );
        }
    }
    t
}

fn check_targets(level: Level, t: &Tally) {
    let accuracy = t.right as f64 / t.points as f64;
    match level {
        Level::Easy | Level::Medium => {
            assert_eq!(t.located, t.photos, "{level}: every board located");
            assert!(accuracy >= 0.999, "{level}: point accuracy {accuracy}");
        }
        Level::Hard => {
            assert!(
                t.exact as f64 >= 0.95 * t.photos as f64,
                "{level}: {} of {} boards exact",
                t.exact,
                t.photos
            );
        }
    }
}

#[test]
fn easy_photos_meet_targets() {
    check_targets(Level::Easy, &run(Level::Easy, 100..104, 640, 480));
}

#[test]
fn medium_photos_meet_targets() {
    check_targets(Level::Medium, &run(Level::Medium, 200..204, 640, 480));
}

#[test]
fn hard_photos_meet_targets() {
    check_targets(Level::Hard, &run(Level::Hard, 300..304, 640, 480));
}

#[test]
#[ignore = "slow tier"]
fn many_photos_meet_targets() {
    for level in Level::ALL {
        check_targets(level, &run(level, 1000..1040, 640, 480));
    }
}

#[test]
#[ignore = "slow tier"]
fn phone_sized_photos_meet_targets() {
    for level in Level::ALL {
        check_targets(level, &run(level, 2000..2008, 2048, 1536));
    }
}

#[test]
fn given_position_and_size_come_back() {
    let n = 14;
    let mut pos = vec![Stone::Empty; n * n];
    for (k, p) in pos.iter_mut().enumerate() {
        *p = match k % 7 {
            0 => Stone::Black,
            3 => Stone::White,
            _ => Stone::Empty,
        };
    }
    let s = render(&SynthOptions {
        seed: 42,
        level: Level::Easy,
        width: 640,
        height: 480,
        size: Some(n),
        position: Some(pos.clone()),
    })
    .unwrap();
    assert_eq!(s.truth, pos);
    let read = read_board(
        &s.image,
        &ReadOptions {
            size: Some(n),
            corners: None,
        },
    )
    .unwrap();
    assert_eq!(read.stones(), pos);
}

#[test]
fn rendering_is_deterministic() {
    let opts = SynthOptions {
        seed: 9,
        level: Level::Hard,
        width: 160,
        height: 120,
        size: Some(9),
        position: None,
    };
    assert_eq!(render(&opts).unwrap().jpeg, render(&opts).unwrap().jpeg);
}

#[test]
fn blank_and_tiny_images_are_errors_not_panics() {
    let grey = image::RgbImage::from_pixel(300, 200, image::Rgb([90, 90, 90]));
    assert!(read_board(&grey, &ReadOptions::default()).is_err());
    let tiny = image::RgbImage::new(10, 10);
    assert!(read_board(&tiny, &ReadOptions::default()).is_err());
    let mut noise = image::RgbImage::new(200, 150);
    let mut x = 12345u32;
    for p in noise.pixels_mut() {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        *p = image::Rgb([(x >> 24) as u8, (x >> 16) as u8, (x >> 8) as u8]);
    }
    let _ = read_board(&noise, &ReadOptions::default());
    let bad_size = ReadOptions {
        size: Some(40),
        corners: None,
    };
    assert!(read_board(&grey, &bad_size).is_err());
}
