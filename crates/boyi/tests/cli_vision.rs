//! `boyi vision` through the real binary: synthetic photos read back, game checks with exit
//! status 2 for implausible reads, hand-given corners, suggestions, JSON and bad input.

mod common;

use common::{boyi, ok, workdir};
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
