//! Real photos of physical boards, labelled point by point (tests/real/SOURCES.md): how many
//! are located and how many points are read right. The figures guard against regressions;
//! docs/vision.md reports them.

use boyi_vision::{ReadOptions, load_image, read_board};
use std::path::Path;

fn read(name: &str) -> Option<usize> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/real");
    let truth = std::fs::read_to_string(dir.join(format!("{name}.txt"))).unwrap();
    let truth: Vec<&str> = truth.lines().collect();
    let img = load_image(&dir.join(format!("{name}.jpg"))).unwrap();
    let board = read_board(
        &img,
        &ReadOptions {
            size: Some(19),
            corners: None,
        },
    )
    .ok()?;
    let rows = board.rows();
    // The labels' orientation is the board's own: compare in the best of the eight.
    let right = |t: &dyn Fn(usize, usize) -> (usize, usize)| {
        (0..19 * 19)
            .filter(|&k| {
                let (c, r) = t(k % 19, k / 19);
                rows[r].as_bytes()[c] == truth[k / 19].as_bytes()[k % 19]
            })
            .count()
    };
    let m = 18;
    let views: [&dyn Fn(usize, usize) -> (usize, usize); 8] = [
        &|c, r| (c, r),
        &|c, r| (m - r, c),
        &|c, r| (m - c, m - r),
        &|c, r| (r, m - c),
        &|c, r| (m - c, r),
        &|c, r| (r, c),
        &|c, r| (c, m - r),
        &|c, r| (m - r, m - c),
    ];
    views.iter().map(|v| right(*v)).max()
}

#[test]
fn real_photos_are_read() {
    // (photo, points read right; None: not located)
    let want = [
        ("stones_overhead", Some(361)),
        ("few_stones_glare", Some(361)),
        ("few_stones_overhead", Some(360)),
        ("empty_overhead", Some(359)),
        ("laser_empty_board_2", Some(361)),
    ];
    for (name, right) in want {
        let got = read(name);
        assert!(got >= right, "{name}: {got:?} points right, was {right:?}");
    }
}
