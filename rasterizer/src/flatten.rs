//! Building shapes as user-space polylines: lines kept, Bezier curves flattened.
//!
//! Invariants:
//! - Flattening happens in user space with a tolerance already divided by the
//!   transform's largest singular value, so the device-space chord error stays below
//!   the device tolerance (0.1 px by default) under any affine transform.
//! - Work is bounded for any finite input: a curve whose control hull misses the cull
//!   box is replaced by its chord (exact inside the box: the region between a curve and
//!   its chord lies inside the hull), a hull much larger than the cull box is split
//!   before it is sampled, the segment count per curve is capped, and the total number
//!   of points per shape is capped at [`MAX_POINTS`].
//! - Consecutive duplicate points are dropped, so stroke directions are well defined.
//!
//! Shapes follow p5.js 1.11's 2D renderer: ellipses are four cubic Beziers with
//! kappa = 0.5522847498 starting at the leftmost point, arcs are split into cubic
//! pieces of at most 90 degrees (`_acuteArcToBezier`), rounded rectangles are edges
//! joined by corner arcs.

use crate::geometry::{Point, Rect, Transform};

/// Hard cap on flattened points per shape, bounding memory for hostile input.
pub const MAX_POINTS: usize = 1 << 20;
/// Cap on segments produced for one curve piece.
const MAX_SEGMENTS_PER_CURVE: usize = 4096;
/// Subdivision depth limit for hulls much larger than the cull box.
const MAX_DEPTH: u32 = 48;
/// p5's Bezier circle constant.
pub const KAPPA: f64 = 0.5522847498;

/// One contour of a [`Polylines`] set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contour {
    /// Index of the first point.
    pub start: usize,
    /// One past the last point.
    pub end: usize,
    /// Ended by a CLOSE verb (the stroke joins back to the start).
    pub closed: bool,
    /// At least one segment was added (even a zero-length one): a lone MOVE has none
    /// and draws no caps.
    pub has_segment: bool,
}

/// Flattening parameters.
#[derive(Clone, Copy, Debug)]
pub struct Flattener {
    /// Maximum chord error, user units.
    pub tol: f64,
    /// Curves whose hull misses this box become chords.
    pub cull: Rect,
    /// Curves for a hairline (see `canvas/hairline.rs`), given the map from user space
    /// to canvas pixels: split into the lines Skia draws a hairline curve with, and
    /// circles and rounded corners built of conics as the browser's canvas builds
    /// them, instead of within `tol`.
    pub hairline: Option<Transform>,
    /// Curves of a fill, given the map from user space to canvas pixels: circles and
    /// rounded corners built of conics as the browser's canvas builds them, each
    /// quadratic split into the lines Skia's scan converter fills it with (uniform
    /// steps, their number from the curve's bulge in canvas pixels). Chromium's circles
    /// are those polygons, up to 4% larger or smaller than the true circle by radius.
    pub fill_curves: Option<Transform>,
}

impl Flattener {
    /// Curves within `tol` (user units) only, culled outside `cull`.
    pub fn within(tol: f64, cull: Rect) -> Flattener {
        Flattener { tol, cull, hairline: None, fill_curves: None }
    }

    /// The map to canvas pixels when curves follow the browser's construction.
    fn canvas(&self) -> Option<Transform> {
        self.hairline.or(self.fill_curves)
    }
}

/// Skia's fill subdivision limit: at most 2^6 lines per quadratic.
const MAX_FILL_SHIFT: u32 = 6;

/// The number of lines Skia's anti-aliased scan converter fills a quadratic with
/// (`SkQuadraticEdge` at the anti-aliasing shift 2: points in 1/256 canvas pixel,
/// the bulge to 1/8 pixel, a quarter of the error per halving, at least 2 lines).
fn fill_quad_lines(q: &[Point; 3]) -> usize {
    let fixed = |v: f64| ((v as f32) * 256.0) as i64;
    let bulge = |a: f64, b: f64, c: f64| (((fixed(b) << 1) - fixed(a) - fixed(c)) >> 2).abs();
    let (dx, dy) = (bulge(q[0].x, q[1].x, q[2].x), bulge(q[0].y, q[1].y, q[2].y));
    let dist = if dx > dy { dx + (dy >> 1) } else { dy + (dx >> 1) };
    let dist = ((dist + 16) >> 5).clamp(0, u32::MAX as i64) as u32;
    let shift = ((32 - dist.leading_zeros()) >> 1).clamp(1, MAX_FILL_SHIFT);
    1 << shift
}

/// Skia's hairline subdivision limits: at most 2^5 lines per quadratic, 2^9 per cubic.
const MAX_QUAD_LEVEL: u32 = 5;
const MAX_CUBIC_LEVEL: u32 = 9;
/// How close the quadratics Skia replaces a hairline conic with stay to it (canvas px).
const CONIC_TO_QUAD_TOL: f32 = 0.25;
/// `sqrt(2) / 2`: the weight of a quarter-circle conic.
const QUARTER_WEIGHT: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// The number of lines Skia draws a hairline cubic with (`compute_cubic_segs`), from
/// its canvas-pixel control points, in `f32` as Skia computes it.
fn hair_cubic_lines(q: &[Point; 4]) -> usize {
    let f = |p: Point| [p.x as f32, p.y as f32];
    let [p0, p1, p2, p3] = q.map(f);
    let mut diff = 0f32;
    for k in 0..2 {
        let p13 = p3[k] / 3.0 + p0[k] * (2.0 / 3.0);
        let p23 = p0[k] / 3.0 + p3[k] * (2.0 / 3.0);
        diff = diff.max((p1[k] - p13).abs()).max((p2[k] - p23).abs());
    }
    let mut tol = 1.0f32 / 8.0;
    for i in 0..MAX_CUBIC_LEVEL {
        if diff < tol {
            return 1 << i;
        }
        tol *= 4.0;
    }
    1 << MAX_CUBIC_LEVEL
}

/// The number of lines Skia draws a hairline quadratic with (`compute_quad_level`).
fn hair_quad_lines(q: &[Point; 3]) -> usize {
    let dx = ((0.5 * (q[0].x as f32 + q[2].x as f32)) - q[1].x as f32).abs();
    let dy = ((0.5 * (q[0].y as f32 + q[2].y as f32)) - q[1].y as f32).abs();
    let (ix, iy) = (dx.ceil() as u32, dy.ceil() as u32);
    let d = if ix > iy { ix + (iy >> 1) } else { iy + (ix >> 1) };
    let level = ((33 - d.leading_zeros()) >> 1).min(MAX_QUAD_LEVEL);
    1 << level
}

/// How many times Skia halves a conic to replace it with quadratics within
/// [`CONIC_TO_QUAD_TOL`] (`SkConic::computeQuadPOW2`), from canvas-pixel points.
fn conic_quad_pow2(q: &[Point; 3], w: f64) -> u32 {
    let a = w as f32 - 1.0;
    let k = a / (4.0 * (2.0 + a));
    let x = k * (q[0].x as f32 - 2.0 * q[1].x as f32 + q[2].x as f32);
    let y = k * (q[0].y as f32 - 2.0 * q[1].y as f32 + q[2].y as f32);
    let mut error = (x * x + y * y).sqrt();
    let mut pow2 = 0;
    while pow2 < 4 && error > CONIC_TO_QUAD_TOL {
        error *= 0.25;
        pow2 += 1;
    }
    pow2
}

/// The area of the polygon the browser fills for an ellipse of radii `rx`, `ry`
/// (four quarter conics split as [`Flattener::fill_curves`] splits them), relative to
/// the ellipse's area, given the map from user space to canvas pixels. Computed on one
/// quarter (the others mirror it), without the translation, whose only effect on the
/// split is Skia's rounding to 1/256 pixel.
pub fn browser_ellipse_area_factor(canvas: &Transform, rx: f64, ry: f64) -> f64 {
    let linear = Transform { e: 0.0, f: 0.0, ..*canvas };
    let q = [Point::new(rx, 0.0), Point::new(rx, ry), Point::new(0.0, ry)];
    let pow2 = conic_quad_pow2(&q.map(|v| linear.apply(v)), QUARTER_WEIGHT);
    // twice the area of the fan from the centre over the quarter's lines
    fn fan(q: [Point; 3], w: f64, pow2: u32, canvas: &Transform) -> f64 {
        if pow2 > 0 {
            let (a, b, w2) = chop_conic(&q, w);
            return fan(a, w2, pow2 - 1, canvas) + fan(b, w2, pow2 - 1, canvas);
        }
        let n = fill_quad_lines(&q.map(|v| canvas.apply(v)));
        let mut prev = q[0];
        let mut twice = 0.0;
        for i in 1..=n {
            let p = eval_quad(&q, i as f64 / n as f64);
            twice += prev.x * p.y - prev.y * p.x;
            prev = p;
        }
        twice
    }
    let quarter = 0.25 * std::f64::consts::PI * rx * ry;
    let factor = 0.5 * fan(q, QUARTER_WEIGHT, pow2, &linear) / quarter;
    if factor.is_finite() && factor > 0.0 { factor } else { 1.0 }
}

/// The two halves of a conic (`SkConic::chop` at t = 1/2), with their weight.
fn chop_conic(q: &[Point; 3], w: f64) -> ([Point; 3], [Point; 3], f64) {
    let scale = 1.0 / (1.0 + w);
    let wp1 = Point::new(w * q[1].x, w * q[1].y);
    let m = Point::new((q[0].x + 2.0 * wp1.x + q[2].x) * scale * 0.5, (q[0].y + 2.0 * wp1.y + q[2].y) * scale * 0.5);
    let a = Point::new((q[0].x + wp1.x) * scale, (q[0].y + wp1.y) * scale);
    let b = Point::new((wp1.x + q[2].x) * scale, (wp1.y + q[2].y) * scale);
    ([q[0], a, m], [m, b, q[2]], (0.5 + 0.5 * w).sqrt())
}

/// A set of polylines (contours) in one coordinate space.
#[derive(Clone, Debug, Default)]
pub struct Polylines {
    /// All points, contour after contour.
    pub pts: Vec<Point>,
    /// The contours.
    pub contours: Vec<Contour>,
    /// Where a verb without a current contour starts (canvas 2D: after CLOSE the
    /// current point is the closed contour's start).
    pending: Option<Point>,
}

impl Polylines {
    /// Empties the set, keeping allocations.
    pub fn clear(&mut self) {
        self.pts.clear();
        self.contours.clear();
        self.pending = None;
    }

    /// Points of one contour.
    pub fn contour_points(&self, c: &Contour) -> &[Point] {
        &self.pts[c.start..c.end]
    }

    fn open(&self) -> bool {
        matches!(self.contours.last(), Some(c) if !c.closed)
    }

    /// Starts a new contour at `p`.
    pub fn move_to(&mut self, p: Point) {
        if self.pts.len() >= MAX_POINTS {
            return;
        }
        self.pending = None;
        let start = self.pts.len();
        self.pts.push(p);
        self.contours.push(Contour { start, end: start + 1, closed: false, has_segment: false });
    }

    fn ensure_contour(&mut self, p: Point) {
        if !self.open() {
            let at = self.pending.take().unwrap_or(p);
            self.move_to(at);
        }
    }

    /// Adds a straight segment to `p` (starting a contour at `p` if none is open).
    pub fn line_to(&mut self, p: Point) {
        self.ensure_contour(p);
        self.push_point(p);
    }

    #[inline]
    fn push_point(&mut self, p: Point) {
        if let Some(c) = self.contours.last_mut() {
            c.has_segment = true;
            if self.pts.len() >= MAX_POINTS {
                return;
            }
            if self.pts.last() != Some(&p) {
                self.pts.push(p);
                c.end = self.pts.len();
            }
        }
    }

    fn current(&self) -> Point {
        self.pts.last().copied().unwrap_or_default()
    }

    /// Closes the current contour.
    pub fn close(&mut self) {
        if self.open() {
            if let Some(c) = self.contours.last_mut() {
                c.closed = true;
                self.pending = Some(self.pts[c.start]);
            }
        }
    }

    /// Adds a quadratic Bezier (as the equivalent cubic).
    pub fn quad_to(&mut self, fl: &Flattener, c: Point, p: Point) {
        self.ensure_contour(c);
        let p0 = self.current();
        if let Some(m) = fl.hairline {
            self.hair_quad([p0, c, p], &m);
            return;
        }
        let c1 = Point::new(p0.x + 2.0 / 3.0 * (c.x - p0.x), p0.y + 2.0 / 3.0 * (c.y - p0.y));
        let c2 = Point::new(p.x + 2.0 / 3.0 * (c.x - p.x), p.y + 2.0 / 3.0 * (c.y - p.y));
        self.cubic_to(fl, c1, c2, p);
    }

    /// Adds a cubic Bezier from the current point.
    pub fn cubic_to(&mut self, fl: &Flattener, c1: Point, c2: Point, p: Point) {
        self.ensure_contour(c1);
        let p0 = self.current();
        if let Some(m) = fl.hairline {
            let q = [p0, c1, c2, p];
            let n = hair_cubic_lines(&q.map(|v| m.apply(v)));
            for i in 1..n {
                self.push_point(eval_cubic(&q, i as f64 / n as f64));
            }
            self.push_point(p);
            return;
        }
        self.cubic_rec(fl, [p0, c1, c2, p], 0);
    }

    /// Adds a conic (a rational quadratic of weight `w`: circular arcs are conics) as a
    /// hairline draws it: halved into quadratics within a quarter canvas pixel, each
    /// split into lines ([`Flattener::hairline`]). Without a hairline map, as the
    /// same quadratics flattened within the tolerance.
    pub fn conic_to(&mut self, fl: &Flattener, c: Point, p: Point, w: f64) {
        self.ensure_contour(c);
        let p0 = self.current();
        let canvas = fl.canvas().unwrap_or(Transform { a: 1.0, b: 0.0, c: 0.0, d: 1.0, e: 0.0, f: 0.0 });
        let q = [p0, c, p];
        let pow2 = conic_quad_pow2(&q.map(|v| canvas.apply(v)), w);
        self.conic_pieces(fl, q, w, pow2);
    }

    fn conic_pieces(&mut self, fl: &Flattener, q: [Point; 3], w: f64, pow2: u32) {
        if pow2 == 0 {
            match (fl.hairline, fl.fill_curves) {
                (Some(m), _) => self.hair_quad(q, &m),
                (None, Some(m)) => self.fill_quad(q, &m),
                (None, None) => self.quad_to(fl, q[1], q[2]),
            }
            return;
        }
        let (a, b, w2) = chop_conic(&q, w);
        self.conic_pieces(fl, a, w2, pow2 - 1);
        self.conic_pieces(fl, b, w2, pow2 - 1);
    }

    /// The lines Skia fills a quadratic with (`canvas`: user space to canvas pixels).
    fn fill_quad(&mut self, q: [Point; 3], canvas: &Transform) {
        self.quad_lines(&q, fill_quad_lines(&q.map(|v| canvas.apply(v))));
    }

    /// A quadratic as `n` lines at uniform parameter steps.
    fn quad_lines(&mut self, q: &[Point; 3], n: usize) {
        for i in 1..n {
            self.push_point(eval_quad(q, i as f64 / n as f64));
        }
        self.push_point(q[2]);
    }

    /// The lines of a hairline quadratic (`canvas`: user space to canvas pixels).
    fn hair_quad(&mut self, q: [Point; 3], canvas: &Transform) {
        self.quad_lines(&q, hair_quad_lines(&q.map(|v| canvas.apply(v))));
    }

    fn cubic_rec(&mut self, fl: &Flattener, q: [Point; 4], depth: u32) {
        let hull = match Rect::bounding(&q) {
            Some(h) => h,
            None => return,
        };
        if !hull.intersects(&fl.cull) {
            self.push_point(q[3]);
            return;
        }
        let cw = fl.cull.width().max(fl.cull.height());
        let hw = hull.width().max(hull.height());
        if depth < MAX_DEPTH && cw.is_finite() && hw > 8.0 * cw + 64.0 * fl.tol {
            let (a, b) = split_cubic(&q);
            self.cubic_rec(fl, a, depth + 1);
            self.cubic_rec(fl, b, depth + 1);
            return;
        }
        // Uniform parameter steps: chord error <= max|B''| / (8 n^2) and
        // max|B''| <= 6 * max(|P0 - 2P1 + P2|, |P1 - 2P2 + P3|).
        let d1 = q[0].sub(q[1]).sub(q[1].sub(q[2])).length();
        let d2 = q[1].sub(q[2]).sub(q[2].sub(q[3])).length();
        let l = d1.max(d2);
        let n = (0.75 * l / fl.tol).sqrt().ceil();
        let n = if n.is_finite() { (n as usize).clamp(1, MAX_SEGMENTS_PER_CURVE) } else { 1 };
        let inv = 1.0 / n as f64;
        // Interior vertices move outward by 2/3 of the local sagitta (B'' h^2 / 12): the
        // chords then cross the curve instead of cutting inside it, which removes the
        // systematic area deficit of an inscribed polyline (it would shrink a radius-5
        // ball by 1.6% of its area at 0.1 px tolerance) everywhere except the first and
        // last half-chord of each curve.
        let dd0 = q[2].sub(q[1]).sub(q[1].sub(q[0]));
        let dd1 = q[3].sub(q[2]).sub(q[2].sub(q[1]));
        let k = 6.0 * inv * inv / 12.0;
        for i in 1..n {
            let t = i as f64 * inv;
            let p = eval_cubic(&q, t);
            let ddx = (1.0 - t) * dd0.x + t * dd1.x;
            let ddy = (1.0 - t) * dd0.y + t * dd1.y;
            self.push_point(Point::new(p.x - k * ddx, p.y - k * ddy));
        }
        self.push_point(q[3]);
    }
}

/// Point of a quadratic at `t`.
#[inline]
fn eval_quad(q: &[Point; 3], t: f64) -> Point {
    let mt = 1.0 - t;
    let (a, b, c) = (mt * mt, 2.0 * mt * t, t * t);
    Point::new(a * q[0].x + b * q[1].x + c * q[2].x, a * q[0].y + b * q[1].y + c * q[2].y)
}

/// Point of a cubic at `t`.
#[inline]
pub fn eval_cubic(q: &[Point; 4], t: f64) -> Point {
    let mt = 1.0 - t;
    let a = mt * mt * mt;
    let b = 3.0 * mt * mt * t;
    let c = 3.0 * mt * t * t;
    let d = t * t * t;
    Point::new(
        a * q[0].x + b * q[1].x + c * q[2].x + d * q[3].x,
        a * q[0].y + b * q[1].y + c * q[2].y + d * q[3].y,
    )
}

fn mid(a: Point, b: Point) -> Point {
    Point::new(0.5 * (a.x + b.x), 0.5 * (a.y + b.y))
}

/// De Casteljau split at t = 1/2.
pub fn split_cubic(q: &[Point; 4]) -> ([Point; 4], [Point; 4]) {
    let ab = mid(q[0], q[1]);
    let bc = mid(q[1], q[2]);
    let cd = mid(q[2], q[3]);
    let abc = mid(ab, bc);
    let bcd = mid(bc, cd);
    let m = mid(abc, bcd);
    ([q[0], ab, abc, m], [m, bcd, cd, q[3]])
}

/// Control points of p5's `_acuteArcToBezier(start, size)` on the unit circle
/// (`size` <= pi/2), returned as (b, c, d); a is (cos start, sin start).
pub fn acute_arc(start: f64, size: f64) -> (Point, Point, Point) {
    let alpha = size / 2.0;
    let (sin_a, cos_a) = alpha.sin_cos();
    let cot_a = 1.0 / alpha.tan();
    let phi = start + alpha;
    let (sin_p, cos_p) = phi.sin_cos();
    let lambda = (4.0 - cos_a) / 3.0;
    let mu = sin_a + (cos_a - lambda) * cot_a;
    (
        Point::new(lambda * cos_p + mu * sin_p, lambda * sin_p - mu * cos_p),
        Point::new(lambda * cos_p - mu * sin_p, lambda * sin_p + mu * cos_p),
        Point::new((start + size).cos(), (start + size).sin()),
    )
}

/// p5's ellipse: four kappa cubics from the leftmost point, closed.
pub fn ellipse(out: &mut Polylines, fl: &Flattener, cx: f64, cy: f64, rx: f64, ry: f64) {
    if fl.canvas().is_some() {
        // the browser's canvas: ctx.ellipse(cx, cy, rx, ry, 0, 0, 2 pi), four quarter
        // conics from the rightmost point, clockwise on screen
        arc_conics(out, fl, cx, cy, rx, ry, 0.0, std::f64::consts::TAU, false);
        out.close();
        return;
    }
    let (ox, oy) = (rx * KAPPA, ry * KAPPA);
    let (x, y, xe, ye) = (cx - rx, cy - ry, cx + rx, cy + ry);
    let p = Point::new;
    out.move_to(p(x, cy));
    out.cubic_to(fl, p(x, cy - oy), p(cx - ox, y), p(cx, y));
    out.cubic_to(fl, p(cx + ox, y), p(xe, cy - oy), p(xe, cy));
    out.cubic_to(fl, p(xe, cy + oy), p(cx + ox, ye), p(cx, ye));
    out.cubic_to(fl, p(cx - ox, ye), p(x, cy + oy), p(x, cy));
    out.close();
}

/// p5's arc curve from `start` to `stop` (radians, `start <= stop`), as cubic pieces
/// of at most pi/2; starts a contour unless `continue_contour`. Returns false when the
/// arc is shorter than p5's epsilon (1e-5) and nothing was added.
#[allow(clippy::too_many_arguments)]
pub fn arc_curve(
    out: &mut Polylines,
    fl: &Flattener,
    cx: f64,
    cy: f64,
    rx: f64,
    ry: f64,
    mut start: f64,
    stop: f64,
    continue_contour: bool,
) -> bool {
    const EPS: f64 = 0.00001;
    if fl.canvas().is_some() {
        return stop - start >= EPS && arc_conics(out, fl, cx, cy, rx, ry, start, stop, continue_contour);
    }
    let map = |u: Point| Point::new(cx + u.x * rx, cy + u.y * ry);
    let mut first = true;
    let mut pieces = 0;
    while stop - start >= EPS && pieces < 8 {
        let size = (stop - start).min(std::f64::consts::FRAC_PI_2);
        let a = Point::new(start.cos(), start.sin());
        let (b, c, d) = acute_arc(start, size);
        if first {
            if continue_contour {
                out.line_to(map(a));
            } else {
                out.move_to(map(a));
            }
            first = false;
        }
        out.cubic_to(fl, map(b), map(c), map(d));
        start += size;
        pieces += 1;
    }
    !first
}

/// The arc from `start` to `stop` (radians, `start < stop`) of the ellipse as the
/// browser's canvas builds it for `ctx.ellipse` (Skia's `SkConic::BuildUnitArc`): a
/// quarter conic per whole quadrant from `start`, then one conic for the rest.
#[allow(clippy::too_many_arguments)]
fn arc_conics(out: &mut Polylines, fl: &Flattener, cx: f64, cy: f64, rx: f64, ry: f64, start: f64, stop: f64, continue_contour: bool) -> bool {
    let map = |a: f64, r: f64| Point::new(cx + r * a.cos() * rx, cy + r * a.sin() * ry);
    let first = map(start, 1.0);
    if continue_contour {
        out.line_to(first);
    } else {
        out.move_to(first);
    }
    let sweep = (stop - start).min(std::f64::consts::TAU);
    let mut at = start;
    let mut left = sweep;
    let quarter = std::f64::consts::FRAC_PI_2;
    for _ in 0..4 {
        if left < 1e-9 {
            break;
        }
        let size = left.min(quarter);
        // the control point lies on the bisector, 1 / cos(size / 2) out
        let half = 0.5 * size;
        out.conic_to(fl, map(at + half, 1.0 / half.cos()), map(at + size, 1.0), half.cos());
        at += size;
        left -= size;
    }
    true
}

/// A rectangle with corner radii (tl tr br bl), as p5's `arcTo` chain; radii of 0 make
/// square corners. Closed.
#[allow(clippy::too_many_arguments)]
pub fn rounded_rect(out: &mut Polylines, fl: &Flattener, x: f64, y: f64, w: f64, h: f64, r: [f64; 4]) {
    use std::f64::consts::{FRAC_PI_2, PI};
    let [tl, tr, br, bl] = r;
    if fl.canvas().is_some() {
        // the browser's arcTo: a line to each corner's arc, the arc a quarter conic
        // whose control point is the corner
        let p = Point::new;
        out.move_to(p(x + tl, y));
        let corner = |out: &mut Polylines, rad: f64, c: Point, from: Point, to: Point| {
            out.line_to(from);
            if rad > 0.0 {
                out.conic_to(fl, c, to, QUARTER_WEIGHT);
            }
        };
        corner(out, tr, p(x + w, y), p(x + w - tr, y), p(x + w, y + tr));
        corner(out, br, p(x + w, y + h), p(x + w, y + h - br), p(x + w - br, y + h));
        corner(out, bl, p(x, y + h), p(x + bl, y + h), p(x, y + h - bl));
        corner(out, tl, p(x, y), p(x, y + tl), p(x + tl, y));
        out.close();
        return;
    }
    let corner = |out: &mut Polylines, cx: f64, cy: f64, rad: f64, start: f64, px: f64, py: f64| {
        if rad > 0.0 {
            arc_curve(out, fl, cx, cy, rad, rad, start, start + FRAC_PI_2, true);
        } else {
            out.line_to(Point::new(px, py));
        }
    };
    out.move_to(Point::new(x + tl, y));
    corner(out, x + w - tr, y + tr, tr, -FRAC_PI_2, x + w, y);
    corner(out, x + w - br, y + h - br, br, 0.0, x + w, y + h);
    corner(out, x + bl, y + h - bl, bl, FRAC_PI_2, x, y + h);
    corner(out, x + tl, y + tl, tl, PI, x, y);
    out.close();
}
