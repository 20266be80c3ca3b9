//! Plane homographies between board grid coordinates and image pixels, and their least-squares
//! fit from points known to lie on grid lines.

use nalgebra::{DMatrix, Matrix3, SymmetricEigen, Vector3};

/// A point and the point it should map to.
pub type PointPair = ((f64, f64), (f64, f64));

/// A projective map of the plane, `p' ~ M p` in homogeneous coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Homography(pub Matrix3<f64>);

impl Homography {
    pub fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        let v = self.0 * Vector3::new(x, y, 1.0);
        (v.x / v.z, v.y / v.z)
    }

    /// The homogeneous third coordinate of the image of `(x, y)` (its sign tells the side of
    /// the horizon line).
    pub fn depth(&self, x: f64, y: f64) -> f64 {
        (self.0 * Vector3::new(x, y, 1.0)).z
    }

    pub fn inverse(&self) -> Option<Homography> {
        self.0.try_inverse().map(Homography)
    }

    pub fn then(&self, next: &Homography) -> Homography {
        Homography(next.0 * self.0)
    }

    /// How far from square the grid's cells are, for the most favourable camera: a pinhole
    /// camera looking through the image point `centre` with a focal length from a quarter of
    /// `diag` to eight times it. For each focal length the two grid steps are taken back into
    /// camera space, where a square cell has steps of equal length at a right angle; the
    /// result is the smallest over focal lengths of the larger of |ln(length ratio)| and
    /// |cos(angle)|. A square board seen by any such camera scores about 0; a grid whose step
    /// one way is twice the other (every other line taken for a line) scores about ln 2.
    pub fn cell_skew(&self, centre: (f64, f64), diag: f64) -> f64 {
        let m = &self.0;
        let col = |c: usize| {
            let z = m[(2, c)];
            (m[(0, c)] - centre.0 * z, m[(1, c)] - centre.1 * z, z)
        };
        let (a, b) = (col(0), col(1));
        (0..=60)
            .map(|k| {
                let f = diag * 0.25 * 32f64.powf(k as f64 / 60.0);
                let u = Vector3::new(a.0 / f, a.1 / f, a.2);
                let v = Vector3::new(b.0 / f, b.1 / f, b.2);
                let (nu, nv) = (u.norm(), v.norm());
                let ratio = (nu / nv).ln().abs();
                let cos = (u.dot(&v) / (nu * nv)).abs();
                if ratio.is_finite() && cos.is_finite() {
                    ratio.max(cos)
                } else {
                    f64::INFINITY
                }
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// The map taking the four `from` points to the four `to` points (`None` if degenerate).
    pub fn from_four(from: &[(f64, f64); 4], to: &[(f64, f64); 4]) -> Option<Homography> {
        let mut rows = Vec::with_capacity(8);
        for (&(x, y), &(u, v)) in from.iter().zip(to) {
            rows.push([x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, -u]);
            rows.push([0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y, -v]);
        }
        let h = null_vector(rows.into_iter().map(|r| (r, 1.0)))?;
        let m = Matrix3::from_row_slice(&h);
        m.try_inverse()?;
        Some(Homography(m))
    }

    /// The least-squares map taking each pair's first point to its second (Hartley-normalised
    /// direct linear transform over all pairs; `None` if degenerate).
    pub fn fit_points(pairs: &[PointPair]) -> Option<Homography> {
        if pairs.len() < 4 {
            return None;
        }
        let tf = normaliser(pairs.iter().map(|p| p.0));
        let tt = normaliser(pairs.iter().map(|p| p.1));
        let mut rows = Vec::with_capacity(2 * pairs.len());
        for &(a, b) in pairs {
            let p = tf * Vector3::new(a.0, a.1, 1.0);
            let q = tt * Vector3::new(b.0, b.1, 1.0);
            let (x, y, u, v) = (p.x, p.y, q.x, q.y);
            rows.push([x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, -u]);
            rows.push([0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y, -v]);
        }
        let h = null_vector(rows.into_iter().map(|r| (r, 1.0)))?;
        let m = tt.try_inverse()? * Matrix3::from_row_slice(&h) * tf;
        m.try_inverse()?;
        Some(Homography(m))
    }

    /// The least-squares affine map taking each pair's first point to its second.
    pub fn fit_affine(pairs: &[PointPair]) -> Option<Homography> {
        let mut ata = Matrix3::<f64>::zeros();
        let (mut bu, mut bv) = (Vector3::zeros(), Vector3::zeros());
        for &((x, y), (u, v)) in pairs {
            let a = Vector3::new(x, y, 1.0);
            ata += a * a.transpose();
            bu += a * u;
            bv += a * v;
        }
        let inv = ata.try_inverse()?;
        let (ru, rv) = (inv * bu, inv * bv);
        let m = Matrix3::new(ru.x, ru.y, ru.z, rv.x, rv.y, rv.z, 0.0, 0.0, 1.0);
        m.try_inverse()?;
        Some(Homography(m))
    }
}

/// Similarity that moves `points` to mean 0 and mean distance √2 (Hartley normalisation).
pub fn normaliser(points: impl Iterator<Item = (f64, f64)> + Clone) -> Matrix3<f64> {
    let n = points.clone().count().max(1) as f64;
    let (sx, sy) = points
        .clone()
        .fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
    let (mx, my) = (sx / n, sy / n);
    let d = points.map(|p| (p.0 - mx).hypot(p.1 - my)).sum::<f64>() / n;
    let s = if d > 1e-12 {
        std::f64::consts::SQRT_2 / d
    } else {
        1.0
    };
    Matrix3::new(s, 0.0, -s * mx, 0.0, s, -s * my, 0.0, 0.0, 1.0)
}

/// The unit vector `g` minimising Σ wᵢ (rowᵢ·g)² over weighted rows: the eigenvector of the
/// smallest eigenvalue of the weighted normal matrix.
pub fn null_vector<const N: usize>(
    rows: impl Iterator<Item = ([f64; N], f64)>,
) -> Option<[f64; N]> {
    let mut ata = DMatrix::<f64>::zeros(N, N);
    for (r, w) in rows {
        for i in 0..N {
            for j in i..N {
                ata[(i, j)] += w * r[i] * r[j];
            }
        }
    }
    for i in 0..N {
        for j in 0..i {
            ata[(i, j)] = ata[(j, i)];
        }
    }
    let eig = SymmetricEigen::new(ata);
    let (imin, _) = eig
        .eigenvalues
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.total_cmp(b.1))?;
    let v = eig.eigenvectors.column(imin);
    if v.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let mut out = [0.0; N];
    out.copy_from_slice(v.as_slice());
    Some(out)
}

/// An image point observed on a grid line: `family` 0 lines are `x = index`, family 1 lines
/// are `y = index` in grid coordinates.
#[derive(Debug, Clone, Copy)]
pub struct LinePoint {
    pub x: f64,
    pub y: f64,
    pub family: usize,
    pub index: f64,
    pub weight: f64,
}

/// Fits the grid→image homography to points observed on grid lines, by least squares over all
/// of them: each point gives one linear equation on the image→grid map G,
/// `(G p)_family − index · (G p)_w = 0`.
pub fn fit_from_line_points(points: &[LinePoint]) -> Option<Homography> {
    let counts = [0, 1].map(|f| points.iter().filter(|p| p.family == f).count());
    if counts.iter().any(|&c| c < 3) {
        return None;
    }
    let t = normaliser(points.iter().map(|p| (p.x, p.y)));
    let (imin, imax) = points.iter().fold((f64::MAX, f64::MIN), |a, p| {
        (a.0.min(p.index), a.1.max(p.index))
    });
    let gm = (imin + imax) / 2.0;
    let gs = 2.0 / (imax - imin).max(1.0);
    let mut rows = Vec::with_capacity(points.len());
    let mut weights = Vec::with_capacity(points.len());
    for p in points {
        let q = t * Vector3::new(p.x, p.y, 1.0);
        let k = (p.index - gm) * gs;
        let mut row = [0.0; 9];
        let base = 3 * p.family;
        row[base] = q.x;
        row[base + 1] = q.y;
        row[base + 2] = q.z;
        row[6] = -k * q.x;
        row[7] = -k * q.y;
        row[8] = -k * q.z;
        rows.push(row);
        weights.push(p.weight);
    }
    let g = null_vector(rows.into_iter().zip(weights))?;
    let g_norm = Matrix3::from_row_slice(&g);
    // Grid coordinates were normalised as k' = (k − gm)·gs on both axes.
    let n_grid = Matrix3::new(gs, 0.0, -gs * gm, 0.0, gs, -gs * gm, 0.0, 0.0, 1.0);
    let g_full = n_grid.try_inverse()? * g_norm * t;
    let h = g_full.try_inverse()?;
    Some(Homography(h))
}

/// Distance in pixels from an image point to the image of its grid line under `h` (given as
/// the image→grid map `g`).
pub fn line_residual(g: &Homography, p: &LinePoint) -> f64 {
    let e = if p.family == 0 {
        Vector3::new(1.0, 0.0, -p.index)
    } else {
        Vector3::new(0.0, 1.0, -p.index)
    };
    let l = g.0.transpose() * e;
    (l.x * p.x + l.y * p.y + l.z).abs() / l.x.hypot(l.y).max(1e-12)
}

/// Radial lens distortion about the photo centre, one term: a photographed point `p` is seen
/// where the ideal (pinhole) camera would put `c + (p − c)(1 + k1 r²)`, with `r` the distance
/// from the centre `c` over `scale` (half the photo diagonal). `k1 > 0` is barrel distortion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lens {
    pub k1: f64,
    pub cx: f64,
    pub cy: f64,
    pub scale: f64,
}

impl Lens {
    /// No distortion, centred on a `w`×`h` image.
    pub fn none(w: f64, h: f64) -> Lens {
        Lens {
            k1: 0.0,
            cx: w / 2.0,
            cy: h / 2.0,
            scale: (w * w + h * h).sqrt() / 2.0,
        }
    }

    /// Photographed pixel → ideal pixel.
    pub fn undistort(&self, x: f64, y: f64) -> (f64, f64) {
        let (dx, dy) = (x - self.cx, y - self.cy);
        let s = 1.0 + self.k1 * (dx * dx + dy * dy) / (self.scale * self.scale);
        (self.cx + dx * s, self.cy + dy * s)
    }

    /// Ideal pixel → photographed pixel (fixed-point inverse of [`Lens::undistort`]).
    pub fn distort(&self, x: f64, y: f64) -> (f64, f64) {
        if self.k1 == 0.0 {
            return (x, y);
        }
        let (mut px, mut py) = (x, y);
        for _ in 0..6 {
            let (dx, dy) = (px - self.cx, py - self.cy);
            let s = 1.0 + self.k1 * (dx * dx + dy * dy) / (self.scale * self.scale);
            px = self.cx + (x - self.cx) / s;
            py = self.cy + (y - self.cy) / s;
        }
        (px, py)
    }

    /// The same lens in coordinates scaled by `by` (a similarity `p ↦ by p + offset` that
    /// maps this image onto the other).
    pub fn scaled(&self, by: &Homography) -> Lens {
        let (cx, cy) = by.apply(self.cx, self.cy);
        Lens {
            k1: self.k1,
            cx,
            cy,
            scale: self.scale * by.0[(0, 0)],
        }
    }
}

/// Grid coordinates → photo pixels: a plane homography seen through a lens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridMap {
    pub h: Homography,
    pub lens: Lens,
}

impl GridMap {
    pub fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        let (u, v) = self.h.apply(x, y);
        self.lens.distort(u, v)
    }

    /// The same grid with its indices moved: index `(0, 0)` of the result is `(dc, dr)`
    /// of this one.
    pub fn shifted(&self, dc: f64, dr: f64) -> GridMap {
        self.after(&nalgebra::Matrix3::new(
            1.0, 0.0, dc, 0.0, 1.0, dr, 0.0, 0.0, 1.0,
        ))
    }

    /// The same grid after a change of grid coordinates `m` (applied first).
    pub fn after(&self, m: &nalgebra::Matrix3<f64>) -> GridMap {
        GridMap {
            h: Homography(self.h.0 * m),
            lens: self.lens,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid with steps `(sx, sy)` seen by a pinhole camera of focal length `f` tilted by
    /// `tilt` radians about an axis in the board, centred on a 640×480 photo.
    fn view(sx: f64, sy: f64, f: f64, tilt: f64) -> Homography {
        let r = nalgebra::Rotation3::from_axis_angle(
            &nalgebra::Unit::new_normalize(Vector3::new(1.0, 0.6, 0.0)),
            tilt,
        );
        let (r1, r2) = (
            r * Vector3::new(sx, 0.0, 0.0),
            r * Vector3::new(0.0, sy, 0.0),
        );
        let t = Vector3::new(-4.0, -3.0, 40.0);
        let k = Matrix3::new(f, 0.0, 320.0, 0.0, f, 240.0, 0.0, 0.0, 1.0);
        let m = Matrix3::from_columns(&[r1, r2, t]);
        Homography(k * m)
    }

    #[test]
    fn square_cells_have_no_skew_and_a_doubled_step_has() {
        for (f, tilt) in [(500.0, 0.0), (700.0, 0.4), (550.0, 0.6)] {
            let square = view(1.0, 1.0, f, tilt).cell_skew((320.0, 240.0), 800.0);
            assert!(square < 0.05, "f {f} tilt {tilt}: {square}");
            let doubled = view(1.0, 2.0, f, tilt).cell_skew((320.0, 240.0), 800.0);
            assert!(doubled > 0.5, "f {f} tilt {tilt}: {doubled}");
        }
    }

    #[test]
    fn lens_round_trip_and_barrel_direction() {
        let lens = Lens {
            k1: 0.05,
            ..Lens::none(640.0, 480.0)
        };
        let (x, y) = lens.distort(600.0, 450.0);
        // Barrel: the photographed corner point is nearer the centre than the ideal one.
        assert!(x < 600.0 && y < 450.0);
        let (u, v) = lens.undistort(x, y);
        assert!((u - 600.0).abs() < 1e-3 && (v - 450.0).abs() < 1e-3);
        assert_eq!(lens.distort(320.0, 240.0), (320.0, 240.0));
    }
}
