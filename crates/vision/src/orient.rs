//! Which way up the board is read: the top row is the board edge nearest the top of the photo,
//! and columns run left to right along it, so a rotated photo is read upright.

/// Maps reading coordinates (column from the left, row from the top) to grid indices `(i, j)`:
/// `(i, j) = origin + col·a + row·b`. One of the eight symmetries of the square grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Orientation {
    pub origin: (i32, i32),
    pub a: (i32, i32),
    pub b: (i32, i32),
}

impl Orientation {
    pub fn map(&self, col: usize, row: usize) -> (i32, i32) {
        (
            self.origin.0 + col as i32 * self.a.0 + row as i32 * self.b.0,
            self.origin.1 + col as i32 * self.a.1 + row as i32 * self.b.1,
        )
    }

    /// [`Orientation::map`] at fractional reading coordinates.
    pub fn map_f(&self, col: f64, row: f64) -> (f64, f64) {
        (
            self.origin.0 as f64 + col * self.a.0 as f64 + row * self.b.0 as f64,
            self.origin.1 as f64 + col * self.a.1 as f64 + row * self.b.1 as f64,
        )
    }

    /// The eight symmetries of an `n`-line grid, the identity first: the four turns, then
    /// their mirror images (a board photographed from each side; labels compared with a
    /// read in every orientation).
    pub fn symmetries(n: usize) -> [Orientation; 8] {
        let m = n as i32 - 1;
        let turns = [
            ((0, 0), (1, 0), (0, 1)),
            ((m, 0), (0, 1), (-1, 0)),
            ((m, m), (-1, 0), (0, -1)),
            ((0, m), (0, -1), (1, 0)),
        ];
        std::array::from_fn(|v| {
            let (origin, a, b) = turns[v % 4];
            if v < 4 {
                Orientation { origin, a, b }
            } else {
                Orientation {
                    origin: (m - origin.0, origin.1),
                    a: (-a.0, a.1),
                    b: (-b.0, b.1),
                }
            }
        })
    }

    /// The orientation as a 3×3 affine matrix on homogeneous grid coordinates.
    pub fn matrix(&self) -> nalgebra::Matrix3<f64> {
        nalgebra::Matrix3::new(
            self.a.0 as f64,
            self.b.0 as f64,
            self.origin.0 as f64,
            self.a.1 as f64,
            self.b.1 as f64,
            self.origin.1 as f64,
            0.0,
            0.0,
            1.0,
        )
    }
}

/// The reading orientation of an `n`-line grid whose corner `(i, j)` appears in the photo at
/// `image_of(i, j)`, and the margin in pixels by which the top edge is nearer the top of the
/// photo than the next edge (small margins mean a photo turned by about 45°).
pub fn orientation(n: usize, image_of: impl Fn(f64, f64) -> (f64, f64)) -> (Orientation, f64) {
    let m = n as i32 - 1;
    let corners = [(0, 0), (m, 0), (m, m), (0, m)];
    let pix: Vec<(f64, f64)> = corners
        .iter()
        .map(|&(i, j)| image_of(i as f64, j as f64))
        .collect();
    let mut edges: Vec<(f64, usize)> = (0..4)
        .map(|e| ((pix[e].1 + pix[(e + 1) % 4].1) / 2.0, e))
        .collect();
    edges.sort_by(|a, b| a.0.total_cmp(&b.0));
    let margin = edges[1].0 - edges[0].0;
    let e = edges[0].1;
    let (p, q) = (e, (e + 1) % 4);
    let (tl, tr) = if pix[p].0 <= pix[q].0 { (p, q) } else { (q, p) };
    // The other neighbour of the top-left corner in the cycle of corners.
    let bl = if (tl + 1) % 4 == tr {
        (tl + 3) % 4
    } else {
        (tl + 1) % 4
    };
    let unit = |from: usize, to: usize| {
        let d = (
            corners[to].0 - corners[from].0,
            corners[to].1 - corners[from].1,
        );
        (d.0.signum(), d.1.signum())
    };
    (
        Orientation {
            origin: corners[tl],
            a: unit(tl, tr),
            b: unit(tl, bl),
        },
        margin,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upright_grid_keeps_indices() {
        let (o, _) = orientation(5, |i, j| (10.0 * i, 10.0 * j));
        assert_eq!(o.map(0, 0), (0, 0));
        assert_eq!(o.map(4, 0), (4, 0));
        assert_eq!(o.map(0, 4), (0, 4));
    }

    #[test]
    fn quarter_turn_is_read_upright() {
        // Grid row j runs down the photo's x axis, i up its y axis: turned by 90°.
        let (o, _) = orientation(5, |i, j| (10.0 * j, 100.0 - 10.0 * i));
        // Top of the photo is i = 4; its left end is j = 0.
        assert_eq!(o.map(0, 0), (4, 0));
        assert_eq!(o.map(4, 0), (4, 4));
        assert_eq!(o.map(0, 4), (0, 0));
    }

    #[test]
    fn mirrored_grid_still_reads_left_to_right() {
        let (o, _) = orientation(3, |i, j| (100.0 - 10.0 * i, 10.0 * j));
        assert_eq!(o.map(0, 0), (2, 0));
        assert_eq!(o.map(2, 0), (0, 0));
        assert_eq!(o.map(0, 2), (2, 2));
    }

    #[test]
    fn the_eight_symmetries_are_distinct_and_map_the_grid_onto_itself() {
        let n = 4;
        let all = Orientation::symmetries(n);
        assert_eq!(all[0].map(1, 2), (1, 2));
        assert_eq!(all[1].map(0, 0), (3, 0));
        assert_eq!(all[4].map(0, 0), (3, 0));
        assert_eq!(all[4].map(1, 2), (2, 2));
        let images: Vec<Vec<(i32, i32)>> = all
            .iter()
            .map(|o| (0..n * n).map(|k| o.map(k % n, k / n)).collect())
            .collect();
        for (v, image) in images.iter().enumerate() {
            let mut sorted = image.clone();
            sorted.sort();
            let grid: Vec<(i32, i32)> = (0..4).flat_map(|i| (0..4).map(move |j| (i, j))).collect();
            assert_eq!(sorted, grid, "symmetry {v}");
            assert!(
                images[..v].iter().all(|other| other != image),
                "symmetry {v} repeats"
            );
        }
    }
}
