//! Exact-area coverage in device space.
//!
//! Polygons are accumulated font-rs / stb_truetype-v2 style: every edge adds, to the
//! cells it crosses, the signed area it sweeps to its right within each scanline (and
//! the remainder of its vertical extent to the next cell), so a running sum along a
//! row gives the signed winding-weighted area of each pixel.
//!
//! **Nonzero approximation.** The pixel value is `min(|sum|, 1)`. That equals the exact
//! nonzero-rule coverage whenever no pixel contains both an uncovered region and a
//! region of |winding| >= 2 (or regions of opposite winding), i.e. exactly for
//! non-self-overlapping contours; elsewhere (a pixel holding a self-intersection point
//! of a star, overlapping stroke pieces at a pivot join) it over-counts the doubly
//! covered part of that one pixel, and fully covered pixels are still exact.
//!
//! Invariants:
//! - Edges are clipped in `f64` to the clip rectangle before they are stored as `f32`:
//!   parts above/below it are dropped (they sweep no row of the clip), parts left or
//!   right are projected onto its vertical sides (which preserves the winding of every
//!   point inside). Huge coordinates therefore never reach the buffer, and the buffer
//!   never exceeds the clip's pixel box.
//! - `acc` is all zeros between shapes: [`Rasterizer::finish`] zeroes each row after
//!   emitting it, so no per-shape clearing pass is needed.
//! - Each row of a wide box records the range of cells its edges touched (`span`):
//!   left of it the running sum is exactly 0, right of it it is the row's total, 0 up
//!   to float residue for closed contours, so only the touched range is summed,
//!   emitted and cleared. A thin diagonal shape then costs its perimeter, not its
//!   bounding box.
//! - Row stride is box width + 2: an edge at the right border writes at most two cells
//!   past its pixel, and each row's running sum restarts at zero.

use crate::blend::Paint;
use crate::damage::Window;
use crate::geometry::{Point, Rect};

/// Boxes wider than this (pixels) track the cells each row's edges touch.
const SPAN_MIN_WIDTH: usize = 16;

/// Ellipses wider than this (pixels) skip the corners of the pixels they cover whole
/// (a narrower one has few such pixels to skip, and finding them costs each row).
const WHOLE_RUN_MIN_WIDTH: usize = 8;

/// Accumulates polygon edges for one shape and emits coverage rows.
#[derive(Debug, Default)]
pub struct Rasterizer {
    /// Clipped edges `x0 y0 x1 y1` in device pixels.
    segs: Vec<[f32; 4]>,
    /// Clipped vertical edges `x y0 y1 weight` in device pixels (see [`Rasterizer::set_grid`]).
    vsegs: Vec<[f32; 4]>,
    /// Vertical edges `x y0 y1 weight` not yet spread along y (see `settle_pending`).
    vpending: Vec<[f64; 4]>,
    /// The canvas's pixel grid on the device, `[gx, ox, gy, oy]` (canvas column `k`
    /// spans device x `[ox + k gx, ox + (k + 1) gx]`), when vertical edges are spread
    /// over the canvas pixels they cut.
    grid: Option<[f64; 4]>,
    /// Whether the current shape's vertical edges are spread over the grid.
    on_grid: bool,
    /// Whether the polygon being added spreads over canvas rows as well.
    spread_rows: bool,
    acc: Vec<f32>,
    /// Per row of the box: the first and last cell an edge wrote (first > last: none).
    span: Vec<(u32, u32)>,
    clip: Option<Rect>,
    min_x: f32,
    min_y: f32,
    max_x: f32,
    max_y: f32,
    /// The shape's axis-aligned ellipse, whose exact coverage is added to the cells
    /// when they are accumulated (see [`Rasterizer::add_axis_ellipse`]).
    ellipse: Option<AxisEllipse>,
    /// Scratch of the ellipse's cells: per column of corners `t` and `H(t)`.
    ellipse_cols: Vec<f64>,
}

/// An ellipse with axes along x and y, clipped to `clip` (device pixels).
#[derive(Clone, Copy, Debug)]
struct AxisEllipse {
    cx: f64,
    cy: f64,
    ax: f64,
    ay: f64,
    clip: Rect,
}

impl Rasterizer {
    /// Starts a shape, clipped to `clip` (device pixels, inside the pixel buffer).
    pub fn begin(&mut self, clip: Rect) {
        self.on_grid = self.grid.is_some();
        self.segs.clear();
        self.vsegs.clear();
        self.vpending.clear();
        self.clip = Some(clip);
        self.ellipse = None;
        self.min_x = f32::INFINITY;
        self.min_y = f32::INFINITY;
        self.max_x = f32::NEG_INFINITY;
        self.max_y = f32::NEG_INFINITY;
    }

    /// [`Rasterizer::begin`] for a shape whose coordinates are not those of the canvas
    /// (a glyph rasterized at its own origin): edges are never spread over the grid.
    pub fn begin_exact(&mut self, clip: Rect) {
        self.begin(clip);
        self.on_grid = false;
    }

    /// Where the canvas's pixels lie on the device (see the module docs: "Canvas
    /// pixels"); `None` rasterizes every edge exactly in device space.
    pub fn set_grid(&mut self, grid: Option<[f64; 4]>) {
        self.grid = grid.filter(|g| g.iter().all(|v| v.is_finite()) && g[0] > 0.0 && g[2] > 0.0);
    }

    /// The grid [`Rasterizer::set_grid`] set.
    pub fn grid(&self) -> Option<[f64; 4]> {
        self.grid
    }

    /// Adds the closed polygon `pts` (the closing edge is implied), mapped by `map`.
    pub fn add_polygon(&mut self, pts: &[Point], map: impl Fn(Point) -> Point) {
        // A polygon of horizontal and vertical edges only (a rectangle, a hairline's
        // band along an axis) spreads over the canvas rows it ends inside too: its own
        // vertical edges carry all of its extent along y. Any other polygon's edges
        // keep their extent along y, so that what each adds to the right of it still
        // cancels out (see add_vertical_on_grid).
        self.spread_rows = self.on_grid && {
            let mut axis = true;
            polygon_edges(pts, &map, |a, b| axis &= a.x == b.x || a.y == b.y);
            axis
        };
        polygon_edges(pts, map, |a, b| self.add_edge(a, b));
        self.spread_rows = false;
    }

    /// Adds the ellipse of centre `c` and semi-axes `ax` along x, `ay` along y
    /// (device pixels) by its exact area in each pixel, not by edges: a curve drawn
    /// as a polygon is off the curve between its vertices, by as much as the
    /// tolerance allows, in every edge pixel. At most one per shape.
    pub fn add_axis_ellipse(&mut self, c: Point, ax: f64, ay: f64) {
        let Some(clip) = self.clip else { return };
        if !(ax > 0.0 && ay > 0.0 && c.x.is_finite() && c.y.is_finite() && ax.is_finite() && ay.is_finite()) {
            return;
        }
        let b = Rect { x0: (c.x - ax).max(clip.x0), y0: (c.y - ay).max(clip.y0), x1: (c.x + ax).min(clip.x1), y1: (c.y + ay).min(clip.y1) };
        if !(b.x1 > b.x0 && b.y1 > b.y0) {
            return;
        }
        self.ellipse = Some(AxisEllipse { cx: c.x, cy: c.y, ax, ay, clip: b });
        let lo = |a: f32, b: f32| if a < b { a } else { b };
        let hi = |a: f32, b: f32| if a > b { a } else { b };
        self.min_x = lo(self.min_x, b.x0 as f32);
        self.max_x = hi(self.max_x, b.x1 as f32);
        self.min_y = lo(self.min_y, b.y0 as f32);
        self.max_y = hi(self.max_y, b.y1 as f32);
    }

    /// Adds one edge (device pixels).
    pub fn add_edge(&mut self, a: Point, b: Point) {
        let clip = match self.clip {
            Some(c) => c,
            None => return,
        };
        let (mut x0, mut y0, mut x1, mut y1) = (a.x, a.y, b.x, b.y);
        if !(y0 != y1) || !(x0.is_finite() && x1.is_finite() && y0.is_finite() && y1.is_finite()) {
            return; // horizontal edges sweep nothing; non-finite input was rejected earlier
        }
        if x0 == x1 && self.on_grid {
            if let Some(g) = self.grid {
                self.add_vertical_on_grid(x0, y0, y1, g, clip);
                return;
            }
        }
        if (y0 <= clip.y0 && y1 <= clip.y0) || (y0 >= clip.y1 && y1 >= clip.y1) {
            return;
        }
        // Most edges lie inside the clip: nothing to cut or project.
        let inside = |x: f64, y: f64| x >= clip.x0 && x <= clip.x1 && y >= clip.y0 && y <= clip.y1;
        if inside(x0, y0) && inside(x1, y1) {
            self.push(x0 as f32, y0 as f32, x1 as f32, y1 as f32);
            return;
        }
        let dxdy = (x1 - x0) / (y1 - y0);
        let clamp_y = |x: &mut f64, y: &mut f64, yc: f64| {
            *x += (yc - *y) * dxdy;
            *y = yc;
        };
        if y0 < clip.y0 {
            clamp_y(&mut x0, &mut y0, clip.y0);
        } else if y0 > clip.y1 {
            clamp_y(&mut x0, &mut y0, clip.y1);
        }
        if y1 < clip.y0 {
            clamp_y(&mut x1, &mut y1, clip.y0);
        } else if y1 > clip.y1 {
            clamp_y(&mut x1, &mut y1, clip.y1);
        }
        if !(x0.is_finite() && x1.is_finite()) {
            return;
        }
        // Split where the edge crosses the clip's vertical sides, project the outside
        // pieces onto them.
        let mut ts = [0.0f64, 1.0, 1.0, 1.0];
        let mut nt = 1;
        for xc in [clip.x0, clip.x1] {
            if (x0 < xc && x1 > xc) || (x0 > xc && x1 < xc) {
                let t = (xc - x0) / (x1 - x0);
                if t > 0.0 && t < 1.0 {
                    ts[nt] = t;
                    nt += 1;
                }
            }
        }
        ts[nt] = 1.0;
        if nt == 3 && ts[1] > ts[2] {
            ts.swap(1, 2);
        }
        let at = |t: f64| -> (f64, f64) {
            if t == 0.0 {
                (x0, y0)
            } else if t == 1.0 {
                (x1, y1)
            } else {
                (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            }
        };
        for k in 0..nt {
            let (ax, ay) = at(ts[k]);
            let (bx, by) = at(ts[k + 1]);
            let xm = 0.5 * (ax + bx);
            let (ax, bx) = if xm <= clip.x0 {
                (clip.x0, clip.x0)
            } else if xm >= clip.x1 {
                (clip.x1, clip.x1)
            } else {
                (ax.clamp(clip.x0, clip.x1), bx.clamp(clip.x0, clip.x1))
            };
            self.push(ax as f32, ay as f32, bx as f32, by as f32);
        }
    }

    /// A vertical edge as the canvas draws it: Skia covers each canvas pixel an edge
    /// cuts by the share of it that lies inside, uniformly over the pixel, and the
    /// observation averages canvas pixels as such. Across, the edge becomes one edge
    /// on each side of the canvas column it lies in (weights `1 - f` and `f`, `f` its
    /// position in the column): it adds the same as before to the right of that
    /// column, so it mixes with exact edges. Along it (`self.spread_rows`, only for
    /// a polygon whose edges all do the same), the part in each canvas row it ends
    /// inside spreads over that whole row, weighted by the share it covers. An edge
    /// on a grid line stays where it is.
    fn add_vertical_on_grid(&mut self, x: f64, y0: f64, y1: f64, g: [f64; 4], clip: Rect) {
        let [gx, ox, ..] = g;
        let (dir, ya, yb) = if y0 < y1 { (1.0, y0, y1) } else { (-1.0, y1, y0) };
        let (kx, fx) = grid_cell(x, ox, gx);
        let xs: [(f64, f64); 2] = if fx == 0.0 { [(x, 1.0), (0.0, 0.0)] } else { [(ox + kx * gx, 1.0 - fx), (ox + (kx + 1.0) * gx, fx)] };
        for &(xv, wx) in &xs {
            if wx == 0.0 {
                continue;
            }
            let xc = xv.clamp(clip.x0, clip.x1);
            if self.spread_rows {
                self.push_vertical_spread(xc, ya, yb, wx * dir, clip);
            } else {
                // kept whole until the shape turns out to have no slanted edge
                self.bound_vertical(xc as f32, ya.max(clip.y0) as f32, yb.min(clip.y1) as f32);
                self.vpending.push([xc, ya, yb, wx * dir]);
            }
        }
    }

    /// Pushes the vertical edge at `x` from `ya` to `yb` with `weight`, spread over
    /// the canvas rows it ends inside.
    fn push_vertical_spread(&mut self, x: f64, ya: f64, yb: f64, weight: f64, clip: Rect) {
        let Some([_, _, gy, oy]) = self.grid else { return };
        let (ys, n) = grid_pieces(ya, yb, oy, gy);
        for &(t, b, wy) in &ys[..n] {
            let (t, b) = (t.max(clip.y0), b.min(clip.y1));
            let w = weight * wy;
            if b > t && w != 0.0 {
                let (xf, tf, bf) = (x as f32, t as f32, b as f32);
                self.bound_vertical(xf, tf, bf);
                self.vsegs.push([xf, tf, bf, w as f32]);
            }
        }
    }

    fn bound_vertical(&mut self, x: f32, t: f32, b: f32) {
        if !(b > t) {
            return;
        }
        let lo = |a: f32, b: f32| if a < b { a } else { b };
        let hi = |a: f32, b: f32| if a > b { a } else { b };
        self.min_x = lo(self.min_x, x);
        self.max_x = hi(self.max_x, x);
        self.min_y = lo(self.min_y, t);
        self.max_y = hi(self.max_y, b);
    }

    /// Moves the vertical edges kept whole into `vsegs`: spread over canvas rows when
    /// the shape has no slanted edge (all of its extent along y is theirs), else as
    /// they are.
    fn settle_pending(&mut self) {
        if self.vpending.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.vpending);
        let clip = self.clip.unwrap_or(Rect { x0: f64::NEG_INFINITY, y0: f64::NEG_INFINITY, x1: f64::INFINITY, y1: f64::INFINITY });
        let spread = self.segs.is_empty();
        for &[x, ya, yb, w] in &pending {
            if spread {
                self.push_vertical_spread(x, ya, yb, w, clip);
            } else {
                let (t, b) = (ya.max(clip.y0), yb.min(clip.y1));
                if b > t {
                    self.vsegs.push([x as f32, t as f32, b as f32, w as f32]);
                }
            }
        }
        self.vpending = pending;
        self.vpending.clear();
    }

    #[inline]
    fn push(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) {
        if y0 == y1 {
            return;
        }
        // plain comparisons (one instruction each): the coordinates are finite, so
        // f32::min's NaN handling would only cost
        let lo = |a: f32, b: f32| if a < b { a } else { b };
        let hi = |a: f32, b: f32| if a > b { a } else { b };
        self.min_x = lo(self.min_x, lo(x0, x1));
        self.max_x = hi(self.max_x, hi(x0, x1));
        self.min_y = lo(self.min_y, lo(y0, y1));
        self.max_y = hi(self.max_y, hi(y0, y1));
        self.segs.push([x0, y0, x1, y1]);
    }

    /// Accumulates the edges into `acc` over the shape's pixel box (only the rows that
    /// `rows` allows, when given: indexed by buffer row), clears the edges, and returns
    /// the box `(x0, y0, width, height)`; `None` when it has no area.
    fn accumulate(&mut self, width: usize, height: usize, rows: Option<&[bool]>) -> Option<(usize, usize, usize, usize)> {
        self.settle_pending();
        if (self.segs.is_empty() && self.vsegs.is_empty() && self.ellipse.is_none()) || !self.min_x.is_finite() {
            self.segs.clear();
            self.vsegs.clear();
            self.ellipse = None;
            return None;
        }
        let px0 = (self.min_x.floor().max(0.0) as usize).min(width);
        let px1 = (self.max_x.ceil().max(0.0) as usize).min(width);
        let py0 = (self.min_y.floor().max(0.0) as usize).min(height);
        let py1 = (self.max_y.ceil().max(0.0) as usize).min(height);
        if px1 <= px0 || py1 <= py0 {
            // All edges on the box's vertical border: no area.
            self.segs.clear();
            self.vsegs.clear();
            self.ellipse = None;
            return None;
        }
        let bw = px1 - px0;
        let bh = py1 - py0;
        let stride = bw + 2;
        if self.acc.len() < stride * bh {
            self.acc.resize(stride * bh, 0.0);
        }
        self.span.clear();
        // Tracking each row's touched cells pays off for wide boxes only (a thin
        // diagonal line across the canvas); a narrow box is summed whole.
        let track = bw > SPAN_MIN_WIDTH;
        self.span.resize(bh, if track { (u32::MAX, 0) } else { (0, bw as u32 + 1) });
        let (ox, oy) = (px0 as f32, py0 as f32);
        let acc = &mut self.acc[..stride * bh];
        let rows = rows.map(|r| &r[py0..py1]);
        for s in &self.segs {
            draw_line(acc, &mut self.span, track, rows, stride, bw as f32, bh, s[0] - ox, s[1] - oy, s[2] - ox, s[3] - oy);
        }
        self.segs.clear();
        for v in &self.vsegs {
            draw_vertical(acc, &mut self.span, track, rows, stride, bw as f32, bh, v[0] - ox, v[1] - oy, v[2] - oy, v[3]);
        }
        self.vsegs.clear();
        if let Some(e) = self.ellipse.take() {
            axis_ellipse_cells(acc, &mut self.span, track, rows, stride, (px0, py0, bw, bh), &e, &mut self.ellipse_cols);
        }
        Some((px0, py0, bw, bh))
    }

    /// The touched cells of box row `j` that are pixels (`lo..hi`, below the box width)
    /// and the end of the touched cells (`hi..end` lie beyond the box: cleared only).
    #[inline]
    fn row_range(&self, j: usize, bw: usize) -> Option<(usize, usize, usize)> {
        let (lo, last) = self.span[j];
        if lo > last {
            return None;
        }
        let end = last as usize + 1;
        Some((lo as usize, end.min(bw), end))
    }

    /// Rasterizes the accumulated edges into a buffer of `width x height` pixels and
    /// calls `emit(y, x0, coverage)` for every row of the shape's pixel box, with
    /// coverage in `[0, 1]` for pixels `x0 .. x0 + coverage.len()`.
    pub fn finish(&mut self, width: usize, height: usize, mut emit: impl FnMut(usize, usize, &[f32])) {
        let Some((px0, py0, bw, bh)) = self.accumulate(width, height, None) else { return };
        let stride = bw + 2;
        for j in 0..bh {
            let Some((lo, hi, end)) = self.row_range(j, bw) else { continue };
            let row = &mut self.acc[j * stride..][..stride];
            let mut sum = 0.0f32;
            for c in row[lo..hi].iter_mut() {
                sum += *c;
                // |sum| below 1e-6 is float residue of cancelling edges (a hole's
                // interior), not coverage: it could never change an 8-bit level.
                let a = sum.abs();
                *c = if a < 1e-6 { 0.0 } else { a.min(1.0) };
            }
            emit(py0 + j, px0 + lo, &row[lo..hi]);
            row[lo..end].fill(0.0);
        }
    }
}

impl Rasterizer {
    /// [`Rasterizer::finish`] blending straight into `pixels` (RGB, `width` per row)
    /// with `paint`, inside `window` only: one pass per row computes each pixel's
    /// coverage, blends it and clears the cell. The pixels in the window are those of
    /// `finish` with [`Paint::blend_row`]: coverage is computed over the whole shape
    /// (the same arithmetic whatever the window), only the writes are restricted.
    pub fn finish_paint(&mut self, width: usize, height: usize, window: &Window, pixels: &mut [u8], paint: &Paint) {
        let Some((px0, py0, bw, bh)) = self.accumulate(width, height, window.rows()) else { return };
        let stride = bw + 2;
        for j in 0..bh {
            let Some((lo, hi, end)) = self.row_range(j, bw) else { continue };
            let row = &mut self.acc[j * stride..][..stride];
            let y = py0 + j;
            let out = &mut pixels[3 * (y * width + px0)..3 * (y * width + px0 + bw)];
            let mut sum = 0.0f32;
            let mut x = lo;
            let mut blend_to = |x: &mut usize, to: usize, sum: &mut f32, row: &mut [f32], write: bool| {
                for i in *x..to {
                    *sum += row[i];
                    row[i] = 0.0;
                    let a = sum.abs();
                    if write && a >= 1e-6 {
                        paint.blend_cov(&mut out[3 * i..3 * i + 3], a.min(1.0));
                    }
                }
                *x = to;
            };
            let ranges = window.row(y);
            let inside = |rs: &[(u32, u32)]| {
                rs.iter().any(|&(r0, r1)| r0 as usize <= px0 + lo && px0 + hi <= r1 as usize)
            };
            match ranges.filter(|rs| !inside(rs)) {
                None if ranges.is_some_and(|rs| rs.iter().all(|&(r0, r1)| r1 as usize <= px0 + lo || r0 as usize >= px0 + hi)) => {
                    x = lo; // no range meets the row's cells: nothing to write
                }
                None => {
                    // (the common case, as a plain loop)
                    let dst = &mut out[3 * lo..3 * hi];
                    for (c, px) in row[lo..hi].iter_mut().zip(dst.chunks_exact_mut(3)) {
                        sum += *c;
                        *c = 0.0;
                        let a = sum.abs();
                        if a >= 1e-6 {
                            paint.blend_cov(px, a.min(1.0));
                        }
                    }
                    x = hi;
                }
                Some(ranges) => {
                    // cells outside the ranges still count towards the running sum
                    for &(r0, r1) in ranges {
                        let a = (r0 as usize).saturating_sub(px0).clamp(x, hi);
                        let b = (r1 as usize).saturating_sub(px0).clamp(a, hi);
                        blend_to(&mut x, a, &mut sum, row, false);
                        blend_to(&mut x, b, &mut sum, row, true);
                    }
                }
            }
            row[x..end].fill(0.0);
        }
    }
}

/// The canvas cell `k` that `v` (device) lies in on a grid of cells `s` wide from
/// `o`, and where in it (`0..1`); on a grid line within rounding noise, that line
/// (`(k, 0)`).
fn grid_cell(v: f64, o: f64, s: f64) -> (f64, f64) {
    let c = (v - o) / s;
    let k = floor(c);
    let f = c - k;
    if f < 1e-6 {
        (k, 0.0)
    } else if f > 1.0 - 1e-6 {
        (k + 1.0, 0.0)
    } else {
        (k, f)
    }
}

/// `v.floor()` without the library call the baseline x86-64 target makes of it, for
/// the device coordinates here (far inside the range of `i64`).
#[inline]
pub(crate) fn floor(v: f64) -> f64 {
    let t = v as i64 as f64;
    if t > v {
        t - 1.0
    } else {
        t
    }
}

/// `v as usize` for a finite `v` in `[0, 2^31)`, without the saturating conversion.
#[inline]
fn index(v: f64) -> usize {
    debug_assert!((0.0..2147483648.0).contains(&v));
    // SAFETY: v is finite and within the range of i32
    unsafe { v.to_int_unchecked::<i32>() as usize }
}

/// `v.ceil() as usize` for a finite `v` in `[0, 2^31)`.
#[inline]
fn ceil_index(v: f64) -> usize {
    let t = index(v);
    if (t as f64) < v {
        t + 1
    } else {
        t
    }
}

/// The interval `[lo, hi]` (device, `lo < hi`) as the canvas covers it on a grid of
/// cells `s` wide from `o`: the cells it ends inside covered uniformly by its share
/// of them. Up to three pieces `(from, to, weight)`; an end on a grid line stays
/// where it is.
fn grid_pieces(lo: f64, hi: f64, o: f64, s: f64) -> ([(f64, f64, f64); 3], usize) {
    let (ka, fa) = grid_cell(lo, o, s);
    let (kb, fb) = grid_cell(hi, o, s);
    let mut ps = [(0.0f64, 0.0f64, 0.0f64); 3];
    let mut n = 0;
    if ka == kb {
        ps[0] = (o + ka * s, o + (ka + 1.0) * s, fb - fa);
        return (ps, 1);
    }
    let mut top = lo;
    if fa > 0.0 {
        ps[n] = (o + ka * s, o + (ka + 1.0) * s, 1.0 - fa);
        n += 1;
        top = o + (ka + 1.0) * s;
    }
    let bottom = if fb > 0.0 { o + kb * s } else { hi };
    if bottom > top {
        ps[n] = (top, bottom, 1.0);
        n += 1;
    }
    if fb > 0.0 {
        ps[n] = (o + kb * s, o + (kb + 1.0) * s, fb);
        n += 1;
    }
    (ps, n)
}

/// How much of each cell `start + i` (`i < len`) the interval `[lo, hi]` covers as
/// the canvas draws it on the grid `(o, s)` ([`grid_pieces`]), into `out`; the plain
/// overlap without a grid.
pub(crate) fn grid_shares(lo: f64, hi: f64, grid: Option<(f64, f64)>, start: usize, len: usize, out: &mut Vec<f32>) {
    out.clear();
    out.resize(len, 0.0);
    if !(hi > lo) {
        return;
    }
    let (ps, n) = match grid {
        Some((o, s)) => grid_pieces(lo, hi, o, s),
        None => ([(lo, hi, 1.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)], 1),
    };
    for (i, v) in out.iter_mut().enumerate() {
        let (c0, c1) = ((start + i) as f64, (start + i + 1) as f64);
        *v = ps[..n].iter().map(|&(a, b, w)| w * (b.min(c1) - a.max(c0)).max(0.0)).sum::<f64>() as f32;
    }
}

/// Accumulates a vertical edge at `x` from `y0` down to `y1` (relative to the box, as
/// [`draw_line`] takes them) with `weight` (its sign the direction): what
/// [`draw_line`] adds for a vertical edge, scaled.
#[allow(clippy::too_many_arguments)]
fn draw_vertical(acc: &mut [f32], span: &mut [(u32, u32)], track: bool, rows: Option<&[bool]>, stride: usize, w: f32, h: usize, x: f32, y0: f32, y1: f32, weight: f32) {
    let hf = h as f32;
    let (y0c, y1c) = (y0.max(0.0).min(hf), y1.max(0.0).min(hf));
    if !(y1c > y0c) {
        return;
    }
    let xc = x.max(0.0).min(w);
    let xi = xc as usize;
    let xf = xc - xi as f32;
    let ystart = y0c as usize;
    let yend = (y1c.ceil() as usize).min(h);
    for y in ystart..yend {
        if rows.is_some_and(|r| !r[y]) {
            continue;
        }
        let top = y as f32;
        let dy = (top + 1.0).min(y1c) - top.max(y0c);
        if dy <= 0.0 {
            continue;
        }
        let d = dy * weight;
        if track {
            let sp = &mut span[y];
            sp.0 = sp.0.min(xi as u32);
            sp.1 = sp.1.max(xi as u32 + 1);
        }
        let row = y * stride;
        acc[row + xi] += d - d * xf;
        acc[row + xi + 1] += d * xf;
    }
}

/// Adds the exact coverage of ellipse `e` to the cells of the box `(px0, py0, bw, bh)`
/// as the differences whose running sums along each row are the coverages.
///
/// In the ellipse's unit-circle coordinates (`t = (x - cx) / ax`, `s = (y - cy) / ay`)
/// the signed area of the disc over `[0, t] x [0, s]` is, with `H(t)` the integral
/// of `sqrt(1 - t^2)` from 0 and `w = sqrt(1 - s^2)` the half-width of the disc at
/// height `s`: `t |s|` while `|t| <= w`, else `sign(t) (w |s| - H(w)) + H(t)`, times
/// `sign(s)`. A pixel's area is the inclusion-exclusion of its four corners, times
/// `ax ay`: one square root and one arcsine per column and per row of corners.
///
/// The pixels of a row inside its narrower chord (and the clip) are covered whole and
/// need no corners. Rows are visited from the top and from the bottom towards the
/// centre, where each row's whole run holds the previous one's: the corners a row
/// shares with the previous one were computed for every pixel it needs them for.
#[allow(clippy::too_many_arguments)]
fn axis_ellipse_cells(acc: &mut [f32], span: &mut [(u32, u32)], track: bool, rows: Option<&[bool]>, stride: usize, (px0, py0, bw, bh): (usize, usize, usize, usize), e: &AxisEllipse, scratch: &mut Vec<f64>) {
    let h = |t: f64| 0.5 * (t * (1.0 - t * t).max(0.0).sqrt() + t.asin());
    scratch.clear();
    scratch.resize(4 * (bw + 1), 0.0);
    let (cols, corners) = scratch.split_at_mut(2 * (bw + 1));
    for (k, c) in cols.chunks_exact_mut(2).enumerate() {
        let t = ((((px0 + k) as f64).clamp(e.clip.x0, e.clip.x1) - e.cx) / e.ax).clamp(-1.0, 1.0);
        c.copy_from_slice(&[t, h(t)]);
    }
    let cols = &*cols;
    let (mut near, mut far) = corners.split_at_mut(bw + 1);
    // the corners at height y of the columns `ks` (two runs)
    let corner_row = |y: f64, out: &mut [f64], ks: [(usize, usize); 2]| {
        let s = ((y.clamp(e.clip.y0, e.clip.y1) - e.cy) / e.ay).clamp(-1.0, 1.0);
        let (sign, a) = (if s < 0.0 { -1.0 } else { 1.0 }, s.abs());
        let w = (1.0 - a * a).max(0.0).sqrt();
        let hw = h(w);
        for (k0, k1) in ks {
            for (q, tc) in out[k0..k1].iter_mut().zip(cols[2 * k0..2 * k1].chunks_exact(2)) {
                let (t, ht) = (tc[0], tc[1]);
                let g = if t.abs() <= w { t * a } else { (if t < 0.0 { -1.0 } else { 1.0 }) * (w * a - hw) + ht };
                *q = sign * g;
            }
        }
    };
    let chord = |y: f64| {
        let s = ((y - e.cy) / e.ay).clamp(-1.0, 1.0);
        (1.0 - s * s).max(0.0).sqrt()
    };
    let area = e.ax * e.ay;
    // the box's columns whose pixels lie inside the clip whole
    let (in0, in1) = ((e.clip.x0 - px0 as f64).ceil().max(0.0), (e.clip.x1 - px0 as f64).floor().min(bw as f64));
    let whole_runs = bw > WHOLE_RUN_MIN_WIDTH;
    // rows above the centre (their top corners no lower than it) from the top
    let split = if whole_runs { (e.cy.floor() - py0 as f64 + 1.0).clamp(0.0, bh as f64) as usize } else { bh };
    let mut carried = None;
    for j in (0..split).chain((split..bh).rev()) {
        if rows.is_some_and(|r| !r[j]) {
            carried = None;
            continue;
        }
        let y = (py0 + j) as f64;
        // the row's corners at `y_near` come from the previous row
        let downward = j < split;
        let (y_near, y_far) = if downward { (y, y + 1.0) } else { (y + 1.0, y) };
        // pixels [f0, f1) of the box are covered whole
        let (mut f0, mut f1) = (0usize, 0usize);
        if whole_runs && y >= e.clip.y0 && y + 1.0 <= e.clip.y1 {
            let half = e.ax * chord(y).min(chord(y + 1.0));
            let (lo, hi) = ((e.cx - half - px0 as f64).ceil().max(in0), (e.cx + half - px0 as f64).floor().min(in1));
            if hi > lo {
                (f0, f1) = (lo as usize, hi as usize);
            }
        }
        let fringe = if f1 > f0 { [(0, f0 + 1), (f1, bw + 1)] } else { [(0, bw + 1), (0, 0)] };
        if carried != Some(y_near) {
            corner_row(y_near, near, fringe);
        }
        corner_row(y_far, far, fringe);
        let (top, bottom) = if downward { (&*near, &*far) } else { (&*far, &*near) };
        let row = &mut acc[j * stride..][..stride];
        // the running sum as the reader forms it, so that it meets each coverage
        let (mut sum, mut first, mut last) = (0.0f32, usize::MAX, 0usize);
        let mut put = |k: usize, c: f32, sum: &mut f32| {
            let d = c - *sum;
            if d != 0.0 {
                row[k] += d;
                *sum += d;
                first = first.min(k);
                last = k;
            }
        };
        let cover = |k: usize| {
            let c = ((bottom[k + 1] - bottom[k]) - (top[k + 1] - top[k])) * area;
            if c >= 1.0 - 1e-9 { 1.0 } else if c <= 1e-9 { 0.0 } else { c as f32 }
        };
        for k in 0..f0 {
            put(k, cover(k), &mut sum);
        }
        if f1 > f0 {
            put(f0, 1.0, &mut sum);
        }
        for k in f1.max(f0)..bw {
            put(k, cover(k), &mut sum);
        }
        if sum != 0.0 {
            row[bw] -= sum;
            last = bw;
        }
        if track && first <= last {
            let sp = &mut span[j];
            *sp = (sp.0.min(first as u32), sp.1.max(last as u32));
        }
        std::mem::swap(&mut near, &mut far);
        carried = Some(y_far);
    }
}

/// Accumulates one edge (coordinates relative to the box, y within `[0, h]`, x within
/// `[0, w]`) into `acc`. Derived from font-rs's `draw_line`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn draw_line(acc: &mut [f32], span: &mut [(u32, u32)], track: bool, rows: Option<&[bool]>, stride: usize, w: f32, h: usize, ax: f32, ay: f32, bx: f32, by: f32) {
    if ay == by {
        return;
    }
    let (dir, x0, y0, x1, y1) = if ay < by { (1.0f32, ax, ay, bx, by) } else { (-1.0, bx, by, ax, ay) };
    let dxdy = (x1 - x0) / (y1 - y0);
    let mut x = x0;
    let y0c = y0.max(0.0);
    if y0 < 0.0 {
        x -= y0 * dxdy;
    }
    // truncation of a value in [0, limit] (limit far below i32::MAX, NaN excluded by
    // the caller): floor, one instruction
    let floor_in = |v: f32, limit: f32| -> usize {
        debug_assert!((0.0..=limit).contains(&v));
        // SAFETY: v is finite and within [0, limit]
        unsafe { v.to_int_unchecked::<i32>() as usize }
    };
    let hf = h as f32;
    // max before min: NaN becomes 0, not an index
    let ystart = floor_in(y0c.min(hf), hf);
    let y1c = y1.max(0.0).min(hf);
    let y1t = floor_in(y1c, hf);
    let yend = if (y1t as i32 as f32) < y1c { y1t + 1 } else { y1t };
    let clampx = |v: f32| v.max(0.0).min(w);
    let cell = |v: f32| floor_in(v, w);
    // the row's top as f32, counted (converting y costs more than adding)
    let mut top = ystart as f32;
    for y in ystart..yend {
        let row = y * stride;
        let dy = (top + 1.0).min(y1) - top.max(y0);
        top += 1.0;
        let xnext = x + dxdy * dy;
        // A row nothing may be drawn in is stepped over with the same arithmetic, so
        // that the rows that are drawn get the coverage a full draw gives them.
        if let Some(rows) = rows {
            if !rows[y] {
                x = xnext;
                continue;
            }
        }
        let d = dy * dir;
        let (xa, xb) = if x < xnext { (clampx(x), clampx(xnext)) } else { (clampx(xnext), clampx(x)) };
        let xai = cell(xa);
        let xa_floor = xai as i32 as f32;
        let xbt = cell(xb);
        let xbi = if ((xbt as i32) as f32) < xb { xbt + 1 } else { xbt };
        let xb_ceil = xbi as i32 as f32;
        if track {
            let sp = &mut span[y];
            sp.0 = sp.0.min(xai as u32);
            sp.1 = sp.1.max(xbi.max(xai + 1) as u32);
        }
        if xbi <= xai + 1 {
            let xmf = 0.5 * (xa + xb) - xa_floor;
            acc[row + xai] += d - d * xmf;
            acc[row + xai + 1] += d * xmf;
        } else {
            let s = 1.0 / (xb - xa);
            let xaf = xa - xa_floor;
            let a0 = 0.5 * s * (1.0 - xaf) * (1.0 - xaf);
            let xbf = xb - xb_ceil + 1.0;
            let am = 0.5 * s * xbf * xbf;
            acc[row + xai] += d * a0;
            if xbi == xai + 2 {
                acc[row + xai + 1] += d * (1.0 - a0 - am);
            } else {
                let a1 = s * (1.5 - xaf);
                acc[row + xai + 1] += d * (a1 - a0);
                for c in &mut acc[row + xai + 2..row + xbi - 1] {
                    *c += d * s;
                }
                let a2 = a1 + (xbi - xai - 3) as f32 * s;
                acc[row + xbi - 1] += d * (1.0 - a2 - am);
            }
            acc[row + xbi] += d * am;
        }
        x = xnext;
    }
}

/// Coverage of the interval `[lo, hi]` (already clipped) over unit cells: writes the
/// overlap of each cell `i` in the returned range `i0..i1` into `out[i - i0]`, with
/// `i1 <= n`. `None` when the interval is empty.
pub fn axis_coverage(lo: f64, hi: f64, n: usize, out: &mut Vec<f32>) -> Option<(usize, usize)> {
    let lo = lo.max(0.0);
    let hi = hi.min(n as f64);
    if !(hi > lo) {
        return None;
    }
    let i0 = lo.floor() as usize;
    let i1 = (hi.ceil() as usize).min(n);
    out.clear();
    // cell i covers [max(lo, i), min(hi, i + 1)]: only the first and last are partial
    let cell = |a: f64, b: f64| (b - a).max(0.0) as f32;
    if i1 == i0 + 1 {
        out.push(cell(lo, hi));
    } else {
        out.push(cell(lo, (i0 + 1) as f64));
        out.resize(i1 - i0 - 1, 1.0);
        out.push(cell((i1 - 1) as f64, hi));
    }
    Some((i0, i1))
}

/// [`axis_coverage`] of the interval `[lo, hi]` (device, not clipped) as the canvas
/// covers it on the grid `(o, s)` ([`grid_pieces`]), inside `[clo, chi]` and the
/// `n` cells; the plain overlap without a grid.
pub fn grid_axis_coverage(lo: f64, hi: f64, clo: f64, chi: f64, grid: Option<(f64, f64)>, n: usize, out: &mut Vec<f32>) -> Option<(usize, usize)> {
    let Some((o, s)) = grid else { return axis_coverage(lo.max(clo), hi.min(chi), n, out) };
    if !(hi > lo) {
        return None;
    }
    let (ps, k) = grid_pieces(lo, hi, o, s);
    if k == 1 && ps[0].2 == 1.0 {
        // both ends on grid lines: nothing spreads
        return axis_coverage(lo.max(clo), hi.min(chi), n, out);
    }
    let (a, b) = (ps[0].0.max(clo).max(0.0), ps[k - 1].1.min(chi).min(n as f64));
    if !(b > a) {
        return None;
    }
    // a and b lie in [0, n]: truncation is floor
    let i0 = index(a);
    let i1 = ceil_index(b).min(n);
    out.clear();
    out.resize(i1 - i0, 0.0);
    for &(pa, pb, w) in &ps[..k] {
        let (pa, pb) = (pa.max(a), pb.min(b));
        if !(pb > pa) {
            continue;
        }
        let (j0, j1) = (index(pa) - i0, ceil_index(pb).min(i1) - i0);
        let (pa, pb) = (pa - i0 as f64, pb - i0 as f64);
        if j1 == j0 + 1 {
            out[j0] += (w * (pb - pa)) as f32;
            continue;
        }
        // the pieces do not overlap: the cells between a piece's first and last are
        // its own
        out[j0] += (w * ((j0 + 1) as f64 - pa)) as f32;
        out[j0 + 1..j1 - 1].fill(w as f32);
        out[j1 - 1] += (w * (pb - (j1 - 1) as f64)) as f32;
    }
    // cells two pieces meet in: rounding could take their sum past 1
    let last = out.len() - 1;
    for i in [0, 1.min(last), last.saturating_sub(1), last] {
        out[i] = out[i].min(1.0);
    }
    Some((i0, i1))
}

#[cfg(test)]
mod tests {
    use super::{axis_coverage, grid_axis_coverage, Rasterizer};
    use crate::geometry::{Point, Rect};

    /// The area of the ellipse inside pixel `(x, y)` and `clip`, by the midpoint rule
    /// on `n x n` samples along x with the chord's exact extent along y.
    fn sampled_area(c: Point, ax: f64, ay: f64, clip: Rect, x: usize, y: usize, n: usize) -> f64 {
        let (y0, y1) = ((y as f64).max(clip.y0), ((y + 1) as f64).min(clip.y1));
        (0..n)
            .map(|i| {
                let xs = x as f64 + (i as f64 + 0.5) / n as f64;
                if xs < clip.x0 || xs > clip.x1 {
                    return 0.0;
                }
                let t = (xs - c.x) / ax;
                let half = ay * (1.0 - t * t).max(0.0).sqrt();
                ((c.y + half).min(y1) - (c.y - half).max(y0)).max(0.0) / n as f64
            })
            .sum()
    }

    #[test]
    fn axis_ellipses_cover_each_pixel_by_their_exact_area() {
        let full = Rect { x0: 0.0, y0: 0.0, x1: 64.0, y1: 64.0 };
        let cut = Rect { x0: 20.3, y0: 0.0, x1: 64.0, y1: 31.6 };
        // small ones (every row computed whole) and wide ones (rows skip the pixels
        // they cover whole), inside the buffer, clipped, and over its border
        let cases = [
            (Point::new(10.3, 12.7), 2.6, 2.6, full),
            (Point::new(30.5, 30.5), 0.7, 1.9, full),
            (Point::new(32.2, 28.9), 17.3, 11.45, full),
            (Point::new(25.0, 30.0), 14.2, 14.2, cut),
            (Point::new(2.5, 60.25), 9.6, 7.1, full),
            (Point::new(40.0, 40.0), 30.0, 5.0, cut),
        ];
        for (c, ax, ay, clip) in cases {
            let mut r = Rasterizer::default();
            r.begin(clip);
            r.add_axis_ellipse(c, ax, ay);
            let mut got = vec![0.0f64; 64 * 64];
            r.finish(64, 64, |y, x0, cov| {
                for (k, &v) in cov.iter().enumerate() {
                    got[y * 64 + x0 + k] = v as f64;
                }
            });
            let mut total = 0.0;
            for y in 0..64 {
                for x in 0..64 {
                    let want = sampled_area(c, ax, ay, clip, x, y, 4000);
                    let g = got[y * 64 + x];
                    assert!((g - want).abs() < 2e-4, "ellipse {c:?} {ax} x {ay}, pixel ({x}, {y}): {g} against {want}");
                    total += g;
                }
            }
            if clip == full && c.x - ax >= 0.0 && c.y + ay <= 64.0 {
                let area = std::f64::consts::PI * ax * ay;
                assert!((total - area).abs() < 1e-4 * area, "{c:?}: total {total} against {area}");
            }
        }
    }

    #[test]
    fn grid_axis_coverage_spreads_each_end_over_its_canvas_cell() {
        let mut out = Vec::new();
        // canvas cells of 0.4 device pixels from 0.1: [0.3, 1.7] starts half way into
        // cell 0 ([0.1, 0.5]), which counts 1/2 over all of it, and ends on a grid line
        let got = grid_axis_coverage(0.3, 1.7, 0.0, 10.0, Some((0.1, 0.4)), 10, &mut out);
        assert_eq!(got, Some((0, 2)));
        let want = [0.5 * 0.4 + 0.5, 0.7];
        for (g, w) in out.iter().zip(want) {
            assert!((*g as f64 - w).abs() < 1e-6, "{out:?} against {want:?}");
        }
        // the total is the interval's length whatever the grid
        for (lo, hi) in [(0.3, 1.7), (2.05, 2.15), (0.6, 9.2), (3.33, 7.77)] {
            grid_axis_coverage(lo, hi, 0.0, 10.0, Some((0.1, 0.4)), 10, &mut out).unwrap();
            let total: f64 = out.iter().map(|&v| v as f64).sum();
            assert!((total - (hi - lo)).abs() < 1e-5, "[{lo}, {hi}]: {total}");
        }
        // on a grid of whole device pixels it is the plain overlap
        let plain = axis_coverage(2.25, 7.5, 10, &mut out).map(|r| (r, out.clone()));
        let gridded = grid_axis_coverage(2.25, 7.5, 0.0, 10.0, Some((0.0, 1.0)), 10, &mut out).map(|r| (r, out.clone()));
        assert_eq!(plain, gridded);
    }

    #[test]
    fn axis_coverage_is_each_cells_overlap_with_the_interval() {
        let mut out = Vec::new();
        let ends = [0.0, 0.25, 0.999, 1.0, 1.5, 2.0, 2.75, 3.0, 7.3, 9.999, 10.0, 12.5, -1.0];
        for &lo in &ends {
            for &hi in &ends {
                let got = axis_coverage(lo, hi, 10, &mut out).map(|r| (r, out.clone()));
                let (l, h) = (lo.max(0.0), hi.min(10.0));
                let want = (h > l).then(|| {
                    let (i0, i1) = (l.floor() as usize, (h.ceil() as usize).min(10));
                    let cells = (i0..i1).map(|i| (h.min((i + 1) as f64) - l.max(i as f64)).max(0.0) as f32).collect::<Vec<_>>();
                    ((i0, i1), cells)
                });
                assert_eq!(got, want, "[{lo}, {hi}]");
            }
        }
    }
}

/// The edges of the closed polygon `pts` mapped by `map`, in the order
/// [`Rasterizer::add_polygon`] adds them (the closing edge last); none for fewer than
/// two points.
pub(crate) fn polygon_edges(pts: &[Point], map: impl Fn(Point) -> Point, mut edge: impl FnMut(Point, Point)) {
    if pts.len() < 2 {
        return;
    }
    let first = map(pts[0]);
    let mut prev = first;
    for &p in &pts[1..] {
        let q = map(p);
        edge(prev, q);
        prev = q;
    }
    edge(prev, first);
}
