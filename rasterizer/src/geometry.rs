//! Points, rectangles and affine transforms in `f64`.
//!
//! Invariants: a [`Transform`] built with [`Transform::from_row`] is finite in every
//! entry; [`Rect`] is half-open-agnostic (`x0 <= x1`, `y0 <= y1` for non-empty
//! rectangles) and may be infinite only when explicitly built with
//! [`Rect::EVERYTHING`]. All geometry stays in `f64` until the coverage stage clips it.

/// A point (or vector) in user, canvas or device space.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Point {
    /// Horizontal coordinate, growing to the right.
    pub x: f64,
    /// Vertical coordinate, growing downwards.
    pub y: f64,
}

impl Point {
    /// A point from its coordinates.
    #[inline]
    pub const fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }
    /// `self + v * s`.
    #[inline]
    pub fn add_scaled(self, v: Point, s: f64) -> Point {
        Point::new(self.x + v.x * s, self.y + v.y * s)
    }
    /// Component-wise difference `self - o`.
    #[inline]
    pub fn sub(self, o: Point) -> Point {
        Point::new(self.x - o.x, self.y - o.y)
    }
    /// Euclidean length of the vector.
    #[inline]
    pub fn length(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
    /// The vector rotated by +90 degrees (x, y) -> (-y, x).
    #[inline]
    pub fn perp(self) -> Point {
        Point::new(-self.y, self.x)
    }
    /// Dot product.
    #[inline]
    pub fn dot(self, o: Point) -> f64 {
        self.x * o.x + self.y * o.y
    }
    /// 2D cross product (z of the 3D cross product).
    #[inline]
    pub fn cross(self, o: Point) -> f64 {
        self.x * o.y - self.y * o.x
    }
    /// The vector rotated by `angle` radians (counter-clockwise in x-right/y-up terms).
    #[inline]
    pub fn rotate(self, angle: f64) -> Point {
        let (s, c) = angle.sin_cos();
        Point::new(self.x * c - self.y * s, self.x * s + self.y * c)
    }
    /// True when both coordinates are finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

/// An axis-aligned rectangle `[x0, x1] x [y0, y1]`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Rect {
    /// Left edge.
    pub x0: f64,
    /// Top edge.
    pub y0: f64,
    /// Right edge.
    pub x1: f64,
    /// Bottom edge.
    pub y1: f64,
}

impl Rect {
    /// The whole plane: used as a cull box when no finite bound is known.
    pub const EVERYTHING: Rect = Rect {
        x0: f64::NEG_INFINITY,
        y0: f64::NEG_INFINITY,
        x1: f64::INFINITY,
        y1: f64::INFINITY,
    };

    /// A rectangle from its edges; `None` if an edge is NaN or the rectangle inverted.
    pub fn from_ltrb(x0: f64, y0: f64, x1: f64, y1: f64) -> Option<Rect> {
        if x0.is_nan() || y0.is_nan() || x1.is_nan() || y1.is_nan() || x0 > x1 || y0 > y1 {
            return None;
        }
        Some(Rect { x0, y0, x1, y1 })
    }

    /// The bounding box of some points; `None` when there are none.
    pub fn bounding(points: &[Point]) -> Option<Rect> {
        let first = points.first()?;
        let mut r = Rect { x0: first.x, y0: first.y, x1: first.x, y1: first.y };
        for p in &points[1..] {
            r.x0 = r.x0.min(p.x);
            r.x1 = r.x1.max(p.x);
            r.y0 = r.y0.min(p.y);
            r.y1 = r.y1.max(p.y);
        }
        Some(r)
    }

    /// True when the two closed rectangles overlap.
    #[inline]
    pub fn intersects(&self, o: &Rect) -> bool {
        self.x0 <= o.x1 && o.x0 <= self.x1 && self.y0 <= o.y1 && o.y0 <= self.y1
    }

    /// The rectangle grown by `m` on every side.
    #[inline]
    pub fn outset(&self, m: f64) -> Rect {
        Rect { x0: self.x0 - m, y0: self.y0 - m, x1: self.x1 + m, y1: self.y1 + m }
    }

    /// Width.
    #[inline]
    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    /// Height.
    #[inline]
    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }
}

/// An affine transform in canvas 2D `setTransform(a, b, c, d, e, f)` order:
/// `x' = a*x + c*y + e`, `y' = b*x + d*y + f`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// x scale / x-from-x.
    pub a: f64,
    /// y-from-x (skew).
    pub b: f64,
    /// x-from-y (skew).
    pub c: f64,
    /// y scale / y-from-y.
    pub d: f64,
    /// x translation.
    pub e: f64,
    /// y translation.
    pub f: f64,
}

impl Transform {
    /// The identity transform.
    pub const IDENTITY: Transform = Transform { a: 1.0, b: 0.0, c: 0.0, d: 1.0, e: 0.0, f: 0.0 };

    /// A transform from its six entries; `None` if any is not finite.
    pub fn from_row(a: f64, b: f64, c: f64, d: f64, e: f64, f: f64) -> Option<Transform> {
        let t = Transform { a, b, c, d, e, f };
        if [a, b, c, d, e, f].iter().all(|v| v.is_finite()) {
            Some(t)
        } else {
            None
        }
    }

    /// `self` followed by a per-axis scale and a translation (`S * self`).
    pub fn post_scale_translate(&self, sx: f64, sy: f64, tx: f64, ty: f64) -> Transform {
        Transform {
            a: self.a * sx,
            b: self.b * sy,
            c: self.c * sx,
            d: self.d * sy,
            e: self.e * sx + tx,
            f: self.f * sy + ty,
        }
    }

    /// Maps a point.
    #[inline]
    pub fn apply(&self, p: Point) -> Point {
        Point::new(self.a * p.x + self.c * p.y + self.e, self.b * p.x + self.d * p.y + self.f)
    }

    /// Determinant of the linear part.
    #[inline]
    pub fn det(&self) -> f64 {
        self.a * self.d - self.b * self.c
    }

    /// True when the transform maps axis-aligned rectangles to axis-aligned rectangles
    /// without swapping axes (`b == c == 0`).
    #[inline]
    pub fn is_axis_aligned(&self) -> bool {
        self.b == 0.0 && self.c == 0.0
    }

    /// The largest singular value of the linear part: the most a unit vector can grow.
    pub fn max_scale(&self) -> f64 {
        // Singular values of [[a c] [b d]]: sqrt of the eigenvalues of M^T M.
        let p = self.a * self.a + self.b * self.b;
        let q = self.c * self.c + self.d * self.d;
        let r = self.a * self.c + self.b * self.d;
        let mean = 0.5 * (p + q);
        let dev = (0.25 * (p - q) * (p - q) + r * r).sqrt();
        (mean + dev).max(0.0).sqrt()
    }

    /// The inverse transform; `None` when singular or not finite.
    pub fn invert(&self) -> Option<Transform> {
        let det = self.det();
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        let inv = 1.0 / det;
        let a = self.d * inv;
        let b = -self.b * inv;
        let c = -self.c * inv;
        let d = self.a * inv;
        let e = -(a * self.e + c * self.f);
        let f = -(b * self.e + d * self.f);
        Transform::from_row(a, b, c, d, e, f)
    }

    /// The bounding box of the image of `r` (all four corners mapped).
    pub fn map_rect(&self, r: &Rect) -> Rect {
        let pts = [
            self.apply(Point::new(r.x0, r.y0)),
            self.apply(Point::new(r.x1, r.y0)),
            self.apply(Point::new(r.x0, r.y1)),
            self.apply(Point::new(r.x1, r.y1)),
        ];
        // Corners are finite for finite inputs; bounding() only fails on empty input.
        Rect::bounding(&pts).unwrap_or(Rect::EVERYTHING)
    }
}
