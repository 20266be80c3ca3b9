//! Weights of the fitted Connect6 evaluation (`learned.rs`), in hundredths, printed by
//! `examples/connect6_tune.rs` (lambda 0.0001, 2000 steps).

/// One weight a feature of `learned::features` (learned.rs checks the count).
pub const WEIGHTS: [i32; 47] = [
    0, -2569, -1678, 536, -6, -3758, 2134, 829, 52, 0, 363, 81, 9, 0, 0, 5, 0, 0, 0, 0, 408, 736,
    5567, 0, -868, -1069, -614, -72, -1758, -151, -18, 43, 0, -96, 39, 22, 0, 0, 4, 0, 0, 0, 0,
    -102, 2037, 771, 1108,
];
