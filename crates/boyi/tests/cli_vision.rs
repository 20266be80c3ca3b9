//! `boyi vision` through the real binary: synthetic photos read back, game checks with exit
//! status 2 for implausible reads, hand-given corners, suggestions, JSON and bad input.

mod common;

use common::{boyi, ok, stderr_of_failure, workdir};
use std::path::PathBuf;

/// Renders a photo; returns its path and the corner list printed by `synth`.
fn synth(dir: &std::path::Path, name: &str, extra: &[&str]) -> (String, String) {
    let photo = dir.join(format!("{name}.jpg")).display().to_string();
    let mut args = vec!["vision", "synth", "-o", &photo];
    args.extend_from_slice(extra);
    let line = ok(&args);
    let corners = line.trim().rsplit(' ').next().unwrap().to_string();
    (photo, corners)
}

fn truth(photo: &str) -> String {
    std::fs::read_to_string(PathBuf::from(photo).with_extension("txt")).unwrap()
}

#[test]
fn grid_rows_match_the_synthetic_truth() {
    let dir = workdir("grid");
    for (seed, size) in [("11", "19"), ("12", "9"), ("13", "13")] {
        let (photo, _) = synth(&dir, seed, &["--seed", seed, "--size", size]);
        assert_eq!(ok(&["vision", &photo]), truth(&photo), "seed {seed}");
    }
}

#[test]
fn jiu_board_reads_as_placement_text() {
    let dir = workdir("jiu");
    // White placed g7 first, black h8, then white a14: black places next.
    let rows = "14/14/14/14/14/14/7x6/6o7/14/14/14/14/14/o13";
    let (photo, _) = synth(&dir, "jiu", &["--seed", "4", "--position", rows]);
    let out = ok(&["vision", &photo, "--game", "jiu"]);
    assert_eq!(out.trim(), format!("{rows} b place 3 0"));
}

#[test]
fn gomoku_text_infers_side_to_move_and_checks_it() {
    let dir = workdir("gomoku");
    let rows = "15/15/15/15/15/15/7x7/6ox7/15/15/15/15/15/15/15";
    let (photo, _) = synth(&dir, "g", &["--seed", "5", "--position", rows]);
    assert_eq!(
        ok(&["vision", &photo, "--game", "gomoku"]).trim(),
        format!("{rows} w")
    );
    let out = boyi(&["vision", &photo, "--game", "gomoku", "--to-move", "b"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("implausible gomoku read") && err.contains("doubtful points"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn impossible_stone_counts_exit_with_status_2() {
    let dir = workdir("counts");
    let rows = "9/9/9/2xxx4/9/9/9/9/9";
    let (photo, _) = synth(&dir, "c", &["--seed", "6", "--position", rows]);
    let out = boyi(&["vision", &photo, "--game", "gomoku"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 black and 0 white"));
    // The same read is fine as a plain grid.
    assert_eq!(ok(&["vision", &photo]), truth(&photo));
}

#[test]
fn hand_given_corners_read_the_board() {
    let dir = workdir("corners");
    let (photo, corners) = synth(&dir, "k", &["--seed", "7", "--size", "15"]);
    let out = ok(&["vision", &photo, "--corners", &corners, "--size", "15"]);
    assert_eq!(out, truth(&photo));
    let out = ok(&["vision", &photo, "--corners", &corners]);
    assert_eq!(out, truth(&photo), "size found from the corners");
}

#[test]
fn suggest_wins_or_blocks_at_once() {
    let dir = workdir("suggest");
    // Black to move with four in a row on the 8th row from the top: e8..h8 → d8 or i8 wins.
    let rows = "15/15/15/15/15/15/15/4xxxx7/15/15/15/2ooo10/15/o14/15";
    let (photo, _) = synth(&dir, "s", &["--seed", "8", "--position", rows]);
    let out = ok(&["vision", &photo, "--game", "gomoku", "--suggest"]);
    let line = out
        .lines()
        .find(|l| l.starts_with("suggest "))
        .expect("suggestion line");
    let mv = line.split(' ').nth(1).unwrap();
    assert!(mv == "d8" || mv == "i8", "{line}");
    assert!(line.contains(" pixels "), "{line}");
}

#[test]
fn json_gives_corners_and_every_point() {
    let dir = workdir("json");
    let (photo, _) = synth(&dir, "j", &["--seed", "9", "--size", "9"]);
    let out = ok(&["vision", &photo, "--json"]);
    assert!(out.starts_with("{\"size\":9,\"corners\":[["));
    assert_eq!(out.matches("\"confidence\":").count(), 81);
    assert!(out.contains("\"point\":\"a9\"") && out.contains("\"point\":\"i1\""));
}

#[test]
fn bad_input_gives_clear_errors() {
    let dir = workdir("bad");
    let missing = dir.join("missing.jpg").display().to_string();
    let out = boyi(&["vision", &missing]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read image"));

    let text = dir.join("not-an-image.jpg");
    std::fs::write(&text, "hello").unwrap();
    let out = boyi(&["vision", &text.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read image"));

    // A plain grey picture has no board.
    let blank = dir.join("blank.png");
    let grey = image::RgbImage::from_pixel(320, 240, image::Rgb([128, 128, 128]));
    grey.save(&blank).unwrap();
    let out = boyi(&["vision", &blank.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no board found"));

    let out = boyi(&["vision", &blank.display().to_string(), "--corners", "1,2,3"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--corners needs 8 numbers"));
    let out = boyi(&[
        "vision",
        &blank.display().to_string(),
        "--game",
        "jiu",
        "--size",
        "15",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("14 lines"));
}

/// A small JPEG whose header claims `width`×`height` pixels: the start-of-frame fields are
/// rewritten, so the file stays a few hundred bytes.
fn jpeg_claiming(width: u16, height: u16) -> Vec<u8> {
    let img = image::RgbImage::from_pixel(16, 16, image::Rgb([200, 170, 120]));
    let mut jpeg = std::io::Cursor::new(Vec::new());
    img.write_to(&mut jpeg, image::ImageFormat::Jpeg).unwrap();
    let mut bytes = jpeg.into_inner();
    let sof = bytes
        .windows(2)
        .position(|w| w == [0xFF, 0xC0])
        .expect("a baseline frame header");
    bytes[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
    bytes[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
    bytes
}

#[test]
fn images_too_large_are_refused_before_decoding() {
    let dir = workdir("large");
    let huge = dir.join("huge.jpg");
    std::fs::write(&huge, jpeg_claiming(20_000, 20_000)).unwrap();
    let err = stderr_of_failure(&["vision", &huge.display().to_string()]);
    assert!(
        err.contains("20000×20000 pixels (400.0 megapixels), more than the 40.0 megapixels"),
        "{err}"
    );
    // The bound is a flag: a 640×480 photo (0.3 megapixels) is over 0.2.
    let (photo, _) = synth(&dir, "p", &["--seed", "3", "--size", "9"]);
    let err = stderr_of_failure(&["vision", &photo, "--max-megapixels", "0.2"]);
    assert!(err.contains("640×480 pixels"), "{err}");
    assert_eq!(
        ok(&["vision", &photo, "--max-megapixels", "0.4"]),
        truth(&photo)
    );
    let err = stderr_of_failure(&["vision", &photo, "--max-megapixels=-1"]);
    assert!(err.contains("--max-megapixels -1 must be"), "{err}");
}

#[test]
fn synth_refuses_numbers_too_large_with_clear_errors() {
    let dir = workdir("synth-bounds");
    let out = dir.join("x.jpg").display().to_string();
    for (args, words) in [
        (
            vec!["--position", "99999999999999999999"],
            "longer than any board",
        ),
        (vec!["--position", &"x/".repeat(40)], "more than 26 rows"),
        (
            vec!["--width", "100000", "--height", "100000"],
            "at most 8192 pixels a side",
        ),
        (vec!["--width", "99999999999"], "--width"),
    ] {
        let mut all = vec!["vision", "synth", "-o", &out];
        all.extend(args.iter().copied());
        let err = stderr_of_failure(&all);
        assert!(err.contains(words), "{args:?}: {err}");
    }
}

#[test]
fn suggest_searches_within_a_limit() {
    // Searched without a limit, a Jiu battle position is never answered; the default
    // --movetime bounds it, and a shorter one is given here.
    let dir = workdir("suggest-jiu");
    // 20 black and 10 white pieces: counts no placing reaches, so a battle position.
    let rows = "14/14/xxxxxxxxxx4/xxxxxxxxxx4/14/14/14/14/14/14/oooooooooo4/14/14/14";
    let (photo, _) = synth(&dir, "j", &["--seed", "4", "--position", rows]);
    let out = ok(&[
        "vision",
        &photo,
        "--game",
        "jiu",
        "--to-move",
        "w",
        "--suggest",
        "--movetime",
        "300",
    ]);
    assert!(
        out.starts_with(&format!("{rows} w battle 196 0\n")),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("suggest ")), "{out}");
    let err = stderr_of_failure(&["vision", &photo, "--game", "jiu", "--player", "boyi:x"]);
    assert!(err.contains("give --suggest too"), "{err}");
}

#[test]
fn an_unsure_read_says_so_and_exits_with_status_2() {
    // A real photo: sunlight falling across a light board leaves points the reader is not
    // sure of.
    let photo = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../vision/tests/real/empty_overhead.jpg"
    );
    let out = boyi(&["vision", photo, "--size", "19"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unsure read:") && err.contains("under confidence 0.7"),
        "{err}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 19);
    ok(&["vision", photo, "--size", "19", "--unsure-below", "0"]);
}
