//! Thin strokes as Chromium draws them. Skia draws an anti-aliased stroke whose width
//! maps to at most one canvas pixel along both axes (p5's default `strokeWeight(1)`
//! among them) not as an outline but as a hairline: every segment of the path, in
//! canvas pixels, covers one pixel across its major axis in each column (or row) it
//! spans, with the colour's alpha scaled by the width; the ends of an open path move
//! out along their tangents by the area of the cap (pi/8 for round, 1/2 for square);
//! a closed path moves its start only, and its closing segment joins its last point
//! to the moved start (but a `rect()` has no caps: Chromium draws it as four lines).
//! So the outer corner pixel of a stroked rectangle stays empty and a diagonal line is
//! lighter than its exact outline. Curves are split into the lines Skia draws them
//! with ([`crate::flatten::Flattener::hairline`]).
//!
//! Here each segment becomes that band (a parallelogram one canvas pixel thick along
//! the minor axis), mapped to device space and filled with exact coverage: the area
//! average of what Skia draws at canvas resolution, which is what the observation of
//! the browser backend is (see [`Canvas::stroke_hairline`] for where bands meet).

use super::Canvas;
use crate::blend::Paint;
use crate::command::{Cap, Rgba, Style};
use crate::flatten::Polylines;
use crate::geometry::{Point, Rect, Transform};
use crate::damage::in_ranges;
use crate::seams::{box_mask, pixel_local};

/// What Skia's `fast_len` gives for a device vector: the longer component plus half
/// the shorter.
fn fast_len(x: f32, y: f32) -> f32 {
    let (x, y) = (x.abs(), y.abs());
    if x < y {
        y + 0.5 * x
    } else {
        x + 0.5 * y
    }
}

/// The coverage (0, 1] that a stroke of `style` is drawn with as a hairline, or
/// `None` when it is stroked as an outline: Skia's `SkDrawTreatAsHairline` for an
/// anti-aliased stroke, in the canvas pixels of the style's transform, in `f32` as
/// Skia computes it.
pub(super) fn hairline_coverage(style: &Style) -> Option<f32> {
    let w = style.weight;
    if !(w > 0.0) || !w.is_finite() {
        return None;
    }
    let [a, b, c, d, _, _] = style.matrix;
    let (l0, l1) = (fast_len(a * w, b * w), fast_len(c * w, d * w));
    (l0 <= 1.0 && l1 <= 1.0).then_some(0.5 * (l0 + l1))
}

/// The stroke colour of a hairline of `coverage`: Skia scales the alpha by
/// `(int)(coverage * 256) / 256`, rounding down.
pub(super) fn hairline_colour(c: Rgba, coverage: f32) -> Rgba {
    if coverage >= 1.0 {
        return c;
    }
    let scale = (coverage * 256.0) as u32;
    Rgba::new(c.r, c.g, c.b, ((c.a as u32 * scale) >> 8) as u8)
}

impl Canvas {
    /// Draws the hairline of the contours of `path` (user space) with `paint`.
    /// `canvas` maps user space to canvas pixels (the style's transform).
    ///
    /// Skia blends every segment on its own, so where two meet a canvas pixel is
    /// blended twice: so are the bands here where a device pixel is no larger than a
    /// canvas pixel. On a coarser grid the bands of the path are accumulated into one
    /// coverage, where they add up: blending them one by one there would also mix
    /// bands that share a device pixel but no canvas pixel.
    ///
    /// A translucent hairline whose bands are all boxes (a `rect()`'s outline, lines
    /// along the axes) goes through the pixels' seam records on a coarser grid (see
    /// [`Canvas::finish_hairline_boxes`]).
    pub(super) fn stroke_hairline(&mut self, path: &Polylines, cap: Cap, canvas: &Transform, paint: &Paint) {
        let fine = self.sx >= 1.0 && self.sy >= 1.0;
        let clip = self.clip;
        let (sx, sy, tx, ty) = (self.sx, self.sy, self.tx, self.ty);
        let dev = move |p: Point| Point::new(p.x * sx + tx, p.y * sy + ty);
        if !fine {
            self.raster.begin(clip);
        }
        let joints = (!fine).then_some(paint.alpha());
        let mut boxes = [Rect::default(); MAX_RECORDED_BANDS];
        let mut n_boxes = 0;
        let mut all_boxes = !fine && !paint.opaque() && paint.plain_coverage() && self.probe.is_none();
        for c in path.contours.iter().filter(|c| c.has_segment) {
            hairline_bands(&path.pts[c.start..c.end], c.closed, cap, canvas, joints, |quad| {
                if fine {
                    self.raster.begin(clip);
                }
                if all_boxes {
                    match super::pair::axis_box(&quad.map(dev)) {
                        Some(b) if n_boxes < MAX_RECORDED_BANDS => {
                            boxes[n_boxes] = b;
                            n_boxes += 1;
                        }
                        _ => all_boxes = false,
                    }
                }
                self.raster.add_polygon(&quad, dev);
                if fine {
                    self.finish_shape(paint);
                }
            });
        }
        if !fine {
            if all_boxes && n_boxes > 0 {
                self.finish_hairline_boxes(&boxes[..n_boxes], paint);
            } else {
                self.finish_shape(paint);
            }
        }
    }

    /// Composites the hairline accumulated in `self.raster`, whose bands are the
    /// device boxes `boxes`, through the pixels' seam records
    /// ([`crate::seams::Records::composite_translucent`]): where a tile's outline
    /// blends over its edge, the next tile drawn over the outer half of it hides that
    /// half by area, as the browser's canvas-resolution drawing does, where a plain
    /// blend would leave the pixel without a record and let what lay beneath the tile
    /// show through the seam.
    fn finish_hairline_boxes(&mut self, boxes: &[Rect], paint: &Paint) {
        let (w, h) = (self.w, self.h);
        self.records.ensure(w, w * h);
        let (win, pixels, records) = (&self.win, &mut self.pixels, &mut self.records);
        self.raster.finish(w, h, |y, x0, cov| {
            if win.rows().is_some_and(|r| !r[y]) {
                return;
            }
            let ranges = win.row(y);
            for (i, &c) in cov.iter().enumerate() {
                let x = x0 + i;
                if c <= 0.0 || !in_ranges(ranges, x) {
                    continue;
                }
                // (a box that misses the pixel holds none of its samples)
                let mask = boxes.iter().fold(0u64, |m, b| m | box_mask(pixel_local([b.x0, b.x1, b.y0, b.y1], x as f64, y as f64)));
                let idx = y * w + x;
                let px = &mut pixels[3 * idx..3 * idx + 3];
                records.composite_translucent(idx, px, mask, c, paint);
            }
        });
    }
}

/// Bands of one hairline recorded as boxes at most (a rect's four, a few lines').
const MAX_RECORDED_BANDS: usize = 16;

/// Calls `band` with the hairline band (canvas pixels) of every segment of the
/// polyline `pts` (user space; `closed`: joined back to its start).
///
/// `joints`: the alpha (0, 1] the bands are blended with when the caller adds them up
/// into one coverage (a device pixel larger than a canvas pixel): Skia blends every
/// segment on its own, so a canvas pixel that two segments of a contour share where
/// they meet holds `1 - (1 - a)(1 - b)` of the paint, less than the sum of their
/// coverages: the bands are shortened there by the ink the second blend lost
/// ([`Joints`]). Over a curve, flattened into short segments, that is several
/// percent of its ink. `None`: the bands are blended one by one.
pub(super) fn hairline_bands(pts: &[Point], closed: bool, cap: Cap, canvas: &Transform, joints: Option<f32>, mut band: impl FnMut([Point; 4])) {
    let n = pts.len();
    if n == 0 {
        return;
    }
    let mut painted = joints.map(Joints::new);
    let mut segment = |a: Point, b: Point, wraps: bool| {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        if dx == 0.0 && dy == 0.0 {
            return;
        }
        // The ink lost where the band blends over the previous ones (and, closing
        // the contour, the first) comes off the band's ends: it lies in the pixel of
        // the joint or next to it, which a device pixel larger than a canvas pixel
        // cannot tell apart, and costs no polygon of its own.
        let cut = painted.as_mut().map_or([0.0; 2], |p| p.segment(a, b, wraps));
        let major = dx.abs().max(dy.abs());
        let t0 = (cut[0] / major).min(1.0);
        let t1 = (cut[1] / major).min(1.0 - t0);
        let (a, b) = (Point::new(a.x + dx * t0, a.y + dy * t0), Point::new(b.x - dx * t1, b.y - dy * t1));
        // one pixel across the major axis, in the orientation that makes every band's
        // signed area positive (bands accumulated together add up)
        let (ox, oy) = if dx.abs() > dy.abs() { (0.0, if dx > 0.0 { 0.5 } else { -0.5 }) } else { (if dy > 0.0 { -0.5 } else { 0.5 }, 0.0) };
        band([
            Point::new(a.x - ox, a.y - oy),
            Point::new(b.x - ox, b.y - oy),
            Point::new(b.x + ox, b.y + oy),
            Point::new(a.x + ox, a.y + oy),
        ]);
    };
    let mut ends: Vec<Point> = pts.iter().map(|&p| canvas.apply(p)).collect();
    if cap != Cap::Butt {
        // The first and last segments move out along their tangents by the cap's
        // area (Skia's extend_pts, for a segment after a move or before the end or
        // the next move). A closed contour's last segment comes before its close, so
        // only its start moves, and the closing segment joins the last point to the
        // moved start: a short segment back over the first one's extension where
        // the contour ends where it began (a rounded rect, an ellipse).
        let outset = if cap == Cap::Square { 0.5 } else { std::f64::consts::PI / 8.0 };
        let out = |from: Point, toward: Point| {
            let (vx, vy) = (from.x - toward.x, from.y - toward.y);
            let len = (vx * vx + vy * vy).sqrt();
            Point::new(from.x + vx / len * outset, from.y + vy / len * outset)
        };
        match ends.iter().position(|&p| p != ends[0]) {
            None => {
                // every point the same: a dot, moved out horizontally both ways
                let p = ends[0];
                segment(Point::new(p.x - outset, p.y), Point::new(p.x + outset, p.y), false);
                return;
            }
            Some(k1) => {
                let k2 = ends.iter().rposition(|&p| p != ends[n - 1]).unwrap_or(0);
                let (start, stop) = (out(ends[0], ends[k1]), out(ends[n - 1], ends[k2]));
                ends[0] = start;
                if !closed {
                    ends[n - 1] = stop;
                }
            }
        }
    }
    // the last segment and the close end where the first segment began
    for k in 0..n - 1 {
        segment(ends[k], ends[k + 1], closed && k + 2 == n);
    }
    if closed {
        segment(ends[n - 1], ends[0], true);
    }
}

/// One canvas pixel that Skia's hairline of a segment covers, by `cov` (a segment
/// covers a pixel once).
#[derive(Clone, Copy)]
struct Cell {
    x: i32,
    y: i32,
    cov: f32,
}

/// The cells of Skia's anti-aliased hairline of the segment `a`-`b` (canvas pixels)
/// in the columns (rows, for a segment that runs more along y) `lo..=hi` of its major
/// axis, as `do_anti_hairline` draws them: a partial first and last column by the
/// share the segment spans, each split between the two pixels the band one pixel high
/// around the line at the column's centre meets.
fn skia_cells(a: Point, b: Point, lo: i64, hi: i64, out: &mut impl FnMut(Cell)) {
    let (xmajor, forward) = axis((a, b));
    let ((u0, v0), (u1, v1)) = if forward { (along(a, xmajor), along(b, xmajor)) } else { (along(b, xmajor), along(a, xmajor)) };
    let (start, stop) = (floor(u0), -floor(-u1));
    if stop <= start {
        return;
    }
    let slope = (v1 - v0) / (u1 - u0);
    for k in start.max(lo)..stop.min(hi + 1) {
        let w = if stop - start == 1 {
            u1 - u0
        } else if k == start {
            (start + 1) as f64 - u0
        } else if k == stop - 1 {
            u1 - k as f64
        } else {
            1.0
        };
        let t = v0 + slope * (k as f64 + 0.5 - u0) + 0.5;
        let row = floor(t);
        let f = t - row as f64;
        for (r, c) in [(row, f * w), (row - 1, (1.0 - f) * w)] {
            if c > 0.0 {
                let (x, y) = if xmajor { (k, r) } else { (r, k) };
                out(Cell { x: x as i32, y: y as i32, cov: c as f32 });
            }
        }
    }
}

/// What Skia, blending the hairline segments of a contour one by one, has painted
/// before each segment where it begins, so that the segment's band can lose the ink
/// that falls on paint already there.
///
/// Along a run of segments that go the same way along the same major axis (a curve
/// between two diagonals), the runs' previous segments have covered the part of the
/// joint's column (row) behind the joint, with the same one-pixel band about the
/// curve: the new segment's share `w` of the column loses `w * c * (f^2 + (1 - f)^2)`
/// of its coverage there, `c` being the part behind the joint and `f` how its band
/// splits between the two pixels (to first order in the paint: several short
/// segments in a column paint a little less than their sum). Where the curve turns
/// from one axis to the other, and where the contour closes, the two segments'
/// cells about the joint are matched pixel by pixel.
struct Joints {
    alpha: f64,
    first: Option<(Point, Point)>,
    last: Option<(Point, Point)>,
    /// Where the current run began along its major axis.
    run_start: f64,
}

/// `x.floor()` as an integer, without a call into libm.
fn floor(x: f64) -> i64 {
    crate::coverage::floor(x) as i64
}

/// Whether the segment runs more along x than along y, and which way along it.
fn axis((a, b): (Point, Point)) -> (bool, bool) {
    let xmajor = (b.x - a.x).abs() > (b.y - a.y).abs();
    (xmajor, if xmajor { b.x > a.x } else { b.y > a.y })
}

/// The (major, minor) coordinates of `p` for a segment along x (`xmajor`) or y.
fn along(p: Point, xmajor: bool) -> (f64, f64) {
    if xmajor {
        (p.x, p.y)
    } else {
        (p.y, p.x)
    }
}

impl Joints {
    fn new(alpha: f32) -> Joints {
        Joints { alpha: alpha.clamp(0.0, 1.0) as f64, first: None, last: None, run_start: 0.0 }
    }

    /// The coverage (canvas pixels) the segment `a`-`b` loses at its start and at its
    /// end (`wraps`: it ends where the contour's first segment began).
    fn segment(&mut self, a: Point, b: Point, wraps: bool) -> [f64; 2] {
        let (xmajor, forward) = axis((a, b));
        let mut cut = [0.0; 2];
        match self.last {
            None => {
                self.first = Some((a, b));
                self.run_start = along(a, xmajor).0;
            }
            Some(last) if axis(last) == (xmajor, forward) => cut[0] = self.alpha * run_loss(a, b, self.run_start, xmajor, forward),
            Some(last) => {
                cut[0] = self.alpha * pair_loss(last, (a, b));
                self.run_start = along(a, xmajor).0;
            }
        }
        if let (true, Some(first)) = (wraps, self.first) {
            cut[1] = self.alpha * pair_loss((a, b), first);
        }
        self.last = Some((a, b));
        cut
    }
}

/// What the segment `a`-`b` loses in the column (row) where it begins to the run of
/// segments before it, which began at `run_start` (see [`Joints`]).
fn run_loss(a: Point, b: Point, run_start: f64, xmajor: bool, forward: bool) -> f64 {
    let ((u0, v0), (u1, v1)) = (along(a, xmajor), along(b, xmajor));
    let m = floor(u0) as f64;
    let (behind, share) = if forward {
        ((u0 - m).min(u0 - run_start), u1.min(m + 1.0) - u0)
    } else {
        ((m + 1.0 - u0).min(run_start - u0), u0 - u1.max(m))
    };
    if !(behind > 0.0 && share > 0.0) {
        return 0.0;
    }
    let t = v0 + (v1 - v0) / (u1 - u0) * (m + 0.5 - u0) + 0.5;
    let f = t - floor(t) as f64;
    share * behind * (f * f + (1.0 - f) * (1.0 - f))
}

/// What the segment `b` loses to `a` (`b` starts where `a` ends) in the pixels about
/// their joint that both cover: the sum of the products of their cells' coverages.
fn pair_loss(a: (Point, Point), b: (Point, Point)) -> f64 {
    let joint = b.0;
    let mut cells = [[Cell { x: 0, y: 0, cov: 0.0 }; 6]; 2];
    let mut counts = [0usize; 2];
    for (k, s) in [a, b].into_iter().enumerate() {
        let m = floor(along(joint, axis(s).0).0);
        skia_cells(s.0, s.1, m - 1, m + 1, &mut |c| {
            cells[k][counts[k]] = c;
            counts[k] += 1;
        });
    }
    let mut loss = 0.0;
    for ca in &cells[0][..counts[0]] {
        for cb in cells[1][..counts[1]].iter().filter(|cb| cb.x == ca.x && cb.y == ca.y) {
            loss += ca.cov as f64 * cb.cov as f64;
        }
    }
    loss
}
