//! Real photos of physical boards, labelled point by point (tests/real/SOURCES.md and
//! set.tsv): how many points are read right. The figures guard against regressions;
//! docs/vision.md reports them (`examples/realset.rs eval` prints them per board kind).

use boyi_vision::orient::Orientation;
use boyi_vision::{ReadOptions, Stone, load_image, read_board};
use std::path::Path;

/// Points read right in the best of the eight orientations (the labels are in the board's
/// own orientation; photos are taken from every side). `?` labels (off the photo) are not
/// counted. `None`: not located.
fn read(name: &str, n: usize) -> Option<usize> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/real");
    let truth = std::fs::read_to_string(dir.join(format!("{name}.txt"))).unwrap();
    let truth: Vec<Vec<char>> = truth.lines().map(|l| l.chars().collect()).collect();
    assert_eq!(truth.len(), n, "{name}: label rows");
    let img = load_image(&dir.join(format!("{name}.jpg"))).unwrap();
    let board = read_board(
        &img,
        &ReadOptions {
            size: Some(n),
            corners: None,
        },
    )
    .ok()?;
    Orientation::symmetries(n)
        .iter()
        .map(|o| {
            (0..n * n)
                .filter(|&k| {
                    let (c, r) = o.map(k % n, k / n);
                    let (c, r) = (c as usize, r as usize);
                    Stone::from_symbol(truth[k / n][k % n]) == Some(board.at(c, r).stone)
                })
                .count()
        })
        .max()
}

#[test]
fn real_photos_are_read() {
    // (photo, lines, points read right at least; None: not located)
    let want = [
        ("kifucam_01", 19, Some(360)),
        ("kifucam_02", 19, Some(351)),
        ("kifucam_03", 19, Some(361)),
        ("kifucam_04", 19, Some(361)),
        ("kifucam_05", 19, Some(360)),
        ("kifucam_06", 19, Some(359)),
        ("kifucam_07", 19, Some(361)),
        ("kifucam_08", 19, Some(361)),
        ("kifucam_09", 19, Some(361)),
        ("kifucam_10", 19, Some(361)),
        ("kifucam_11", 19, Some(361)),
        ("kifucam_12", 19, Some(361)),
        ("kifucam_13", 19, Some(361)),
        ("kifucam_14", 19, Some(361)),
        ("kifucam_full", 19, Some(361)),
        ("kifucam_full_1", 19, Some(361)),
        ("stones_overhead", 19, Some(361)),
        ("few_stones_glare", 19, Some(361)),
        ("few_stones_overhead", 19, Some(360)),
        ("empty_overhead", 19, Some(359)),
        ("laser_empty_board_2", 19, Some(361)),
        ("rf_9_sheet_1", 9, Some(81)),
        ("rf_13_yellow_1", 13, Some(167)),
        ("rf_13_plain_1", 13, Some(169)),
        ("rf_13_vinyl_1", 13, None),
        ("rf_13_kids_1", 13, Some(159)),
        ("rf_darkwood_1", 19, Some(359)),
        ("rf_white_1", 19, None),
        ("g2s_basic", 19, Some(360)),
        ("g2s_cornersnumbered", 19, Some(361)),
        ("rf_darkwood_2", 19, Some(361)),
        ("rf_13_darkwood_1", 13, Some(162)),
        ("rf_13_darkwood_2", 13, Some(166)),
        ("rf_cloth_1", 19, Some(313)),
        ("rf_vinyl_1", 19, Some(306)),
    ];
    let mut worse = Vec::new();
    for (name, lines, right) in want {
        let got = read(name, lines);
        if got < right {
            worse.push(format!("{name}: {got:?} points right, was {right:?}"));
        }
    }
    assert!(worse.is_empty(), "{}", worse.join("\n"));
}
