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
use crate::geometry::{Point, Transform};

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
    pub(super) fn stroke_hairline(&mut self, path: &Polylines, cap: Cap, canvas: &Transform, paint: &Paint) {
        let fine = self.sx >= 1.0 && self.sy >= 1.0;
        let clip = self.clip;
        let (sx, sy, tx, ty) = (self.sx, self.sy, self.tx, self.ty);
        let dev = move |p: Point| Point::new(p.x * sx + tx, p.y * sy + ty);
        if !fine {
            self.raster.begin(clip);
        }
        for c in path.contours.iter().filter(|c| c.has_segment) {
            hairline_bands(&path.pts[c.start..c.end], c.closed, cap, canvas, |quad| {
                if fine {
                    self.raster.begin(clip);
                }
                self.raster.add_polygon(&quad, dev);
                if fine {
                    self.finish_shape(paint);
                }
            });
        }
        if !fine {
            self.finish_shape(paint);
        }
    }
}

/// Calls `band` with the hairline band (canvas pixels) of every segment of the
/// polyline `pts` (user space; `closed`: joined back to its start).
pub(super) fn hairline_bands(pts: &[Point], closed: bool, cap: Cap, canvas: &Transform, mut band: impl FnMut([Point; 4])) {
    let n = pts.len();
    if n == 0 {
        return;
    }
    let mut segment = |a: Point, b: Point| {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        if dx == 0.0 && dy == 0.0 {
            return;
        }
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
                segment(Point::new(p.x - outset, p.y), Point::new(p.x + outset, p.y));
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
    for k in 0..n - 1 {
        segment(ends[k], ends[k + 1]);
    }
    if closed {
        segment(ends[n - 1], ends[0]);
    }
}
