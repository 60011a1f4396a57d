//! A closed shape filled and stroked with opaque paints, composited as one.
//!
//! The browser draws the fill and then the stroke at canvas resolution, where the
//! stroke's inner half hides the fill's edge; averaged down to an observation pixel
//! that holds both, the pixel shows the stroke over its area `s`, the fill over the
//! rest of the shape `u - s` (`u`: the area of fill and stroke together) and what was
//! there before over `1 - u`. Blending the fill and then the stroke by their own
//! coverages at observation size instead assumes the two overlap as if at random in
//! the pixel, which lets the background show through along every outline (and the
//! fill through the stroke). So the three areas are computed exactly, each as a
//! coverage: the fill, the stroke's outline, and the outer loop of that outline
//! (which bounds fill and stroke together), and the pixel is composited once. A
//! hairline (`canvas/hairline.rs`) straddles the outline, so half of its area is
//! taken to lie outside the fill.
//! Where the stroke's outline is two convex loops (a polygon under a mitred pen),
//! the pixels along them keep fill and stroke in their records as two regions, each
//! of its own samples (the fill's inside the inner loop, the stroke's between the
//! two): shapes that share an edge (a grid of hexagons) draw the same band of stroke
//! twice, and the second band then hides the first where one region of their mixed
//! colours let part of it show through (every shared edge a third darker).
//! The three coverages of a pair drawn again where it was come from the coverage
//! cache (`canvas/cache.rs`), with those samples.

use super::cache::{summary, CoverageCache, Entry, Lookup, PixBox};
use super::{edge_planes, edges_convex, Canvas};
use crate::blend::{Paint, FULL};
use crate::command::{Cap, Join};
use crate::flatten::{Contour, Polylines};
use crate::coverage::{grid_axis_coverage, grid_shares, polygon_edges};
use crate::geometry::{Point, Rect, Transform};
use crate::damage::in_ranges;
use crate::seams::{box_mask, pixel_local, polygon_mask, Loss};
use crate::stroke::{stroke_polyline, Pen};

/// Per column and per row of a pair's pixel box, the part of the pixel the outline's
/// box (`outline`) and a hairline pair's fill box (`fill`) cover as the canvas draws
/// them (`[columns, rows]`): a box's area in a pixel is its column's times its row's.
#[derive(Debug, Default)]
pub(super) struct BoxShares {
    outline: [Vec<f32>; 2],
    fill: [Vec<f32>; 2],
    /// A hairline pair's band and fill boxes: per column and per row, each span's
    /// length in the pixel as the canvas spreads it.
    ring_x: Vec<[f32; 3]>,
    ring_y: Vec<[f32; 4]>,
}

/// Per-pixel coverages of the three areas over the shape's box.
#[derive(Debug, Default)]
pub(super) struct PairScratch {
    fill: Vec<f32>,
    stroke: Vec<f32>,
    union: Vec<f32>,
    axes: AxisScratch,
    /// A hairline pair's bands (device space).
    bands: Vec<[Point; 4]>,
    /// The inner half-planes of the stroke's outer and inner loops when both are
    /// convex (see [`Coverages::outer`]); empty otherwise.
    outer: Vec<[f64; 3]>,
    inner: Vec<[f64; 3]>,
    /// Per cell, the samples of the outer and the inner loop, for a pair kept in the
    /// cache (see [`Coverages::masks`]).
    masks: Vec<[u64; 2]>,
}

/// Per-axis coverages of a box over a pixel box ([`Canvas::add_box_coverage`]).
#[derive(Debug, Default)]
pub(super) struct AxisScratch {
    across: Vec<f32>,
    down: Vec<f32>,
    /// Coverage of one axis over the cells it reaches ([`grid_axis_coverage`]).
    cells: Vec<f32>,
}

/// The three coverages over a pair's box (`union` unused for a hairline's pair).
#[derive(Clone, Copy)]
struct Coverages<'a> {
    fill: &'a [f32],
    stroke: &'a [f32],
    union: &'a [f32],
    /// Where the stroke's outline is two convex loops (a polygon's under a mitred
    /// pen), their planes: the stroke's samples in a pixel lie inside the outer loop
    /// and outside the inner one, the fill's inside the inner one. Empty otherwise.
    outer: &'a [[f64; 3]],
    inner: &'a [[f64; 3]],
    /// The samples of the two loops per cell where they were computed ahead (a pair
    /// drawn again: they cost more than compositing it); empty otherwise.
    masks: &'a [[u64; 2]],
}

impl PairScratch {
    /// Forgets the loops' planes of the last pair.
    fn no_loops(&mut self) {
        self.outer.clear();
        self.inner.clear();
        self.masks.clear();
    }

    /// Computes [`Coverages::masks`] over the pixel box `b` (where a pixel needs
    /// them: see [`Canvas::composite_pair`]).
    fn compute_masks(&mut self, b: PixBox, hairline: bool) {
        let (bx0, by0, bw, bh) = b;
        self.masks.clear();
        self.masks.resize(bw * bh, [0; 2]);
        for j in 0..bh {
            for i in 0..bw {
                let k = j * bw + i;
                let (f, s) = (self.fill[k], self.stroke[k]);
                let u = pair_area(f, s, self.union.get(k).copied(), hairline);
                if u >= 1e-6 && s < FULL && (u < FULL || s > 1e-6) {
                    let (x, y) = (bx0 + i, by0 + j);
                    self.masks[k] = [polygon_mask(&self.outer, x, y), polygon_mask(&self.inner, x, y)];
                }
            }
        }
    }

    fn coverages(&self) -> Coverages<'_> {
        Coverages { fill: &self.fill, stroke: &self.stroke, union: &self.union, outer: &self.outer, inner: &self.inner, masks: &self.masks }
    }
}

impl Entry {
    fn coverages(&self) -> Coverages<'_> {
        let n = self.b.2 * self.b.3;
        let (fill, rest) = self.cells.split_at(n);
        let (stroke, union) = rest.split_at(n);
        let (outer, inner) = self.planes.split_at(self.outer_planes);
        Coverages { fill, stroke, union, outer, inner, masks: &self.masks }
    }
}

impl PairScratch {
    /// Keeps the coverages just computed in the cache's slot `i`.
    fn keep(&self, cache: &mut CoverageCache, i: usize, b: PixBox, bounds: Rect, fill_box: Option<Rect>, visible_fill: Option<Rect>) {
        let union: &[f32] = if fill_box.is_none() { &self.union } else { &[] };
        let e = cache.put(i);
        (e.b, e.bounds, e.fill_box, e.visible_fill) = (b, bounds, fill_box, visible_fill);
        e.cells.extend_from_slice(&self.fill);
        e.cells.extend_from_slice(&self.stroke);
        e.cells.extend_from_slice(union);
        e.cells.resize(3 * b.2 * b.3, 0.0);
        e.planes.extend_from_slice(&self.outer);
        e.planes.extend_from_slice(&self.inner);
        e.outer_planes = self.outer.len();
        e.masks.extend_from_slice(&self.masks);
        cache.bound(i);
    }
}

/// The inner half-planes (device space) of the closed polygon `pts` (user space,
/// mapped by `m`) into `out`: empty unless it is convex. `corners` and `edges` are
/// scratch.
fn loop_planes(pts: &[Point], m: &Transform, corners: &mut Vec<Point>, edges: &mut Vec<(Point, Point)>, out: &mut Vec<[f64; 3]>) {
    out.clear();
    corners.clear();
    corners.extend(pts.iter().map(|&p| m.apply(p)));
    drop_straight_corners(corners);
    edges.clear();
    polygon_edges(corners, |p| p, |a, b| edges.push((a, b)));
    if edges_convex(edges) {
        let (planes, n) = edge_planes(edges);
        out.extend_from_slice(&planes[..n]);
    }
    edges.clear();
}

/// Removes the corners of the closed polygon `pts` where it goes straight on or turns
/// back along the same line (a stroke's loop starts at the offset of the path's first
/// point, which can lie on the next edge or beyond the join: a spike without area),
/// so that what remains of a convex loop turns one way only.
fn drop_straight_corners(pts: &mut Vec<Point>) {
    let mut k = 0;
    while pts.len() >= 3 && k < pts.len() {
        let n = pts.len();
        let (a, b, c) = (pts[(k + n - 1) % n], pts[k], pts[(k + 1) % n]);
        let (ux, uy, vx, vy) = (b.x - a.x, b.y - a.y, c.x - b.x, c.y - b.y);
        let z = ux * vy - uy * vx;
        if z * z <= 1e-12 * (ux * ux + uy * uy) * (vx * vx + vy * vy) {
            pts.remove(k);
            // (the corner before may go straight on now)
            k = k.saturating_sub(1);
        } else {
            k += 1;
        }
    }
}

/// The part of a pixel a pair covers, fill and stroke together, from the fill's and
/// the stroke's coverages there and the outline's (`union`); a hairline's pair has
/// none: its band straddles the outline, half of it outside the fill (where the pixel
/// holds none of the fill, all of the stroke in it lies outside the fill).
#[inline(always)]
fn pair_area(f: f32, s: f32, union: Option<f32>, hairline: bool) -> f32 {
    if !hairline {
        union.unwrap_or(0.0).max(f).max(s)
    } else if f > 1e-6 {
        f + 0.5 * s
    } else {
        s
    }
}

/// The samples of a pair's outer and inner loop in pixel `(x, y)`, cell `k` of its
/// box: kept ones where the pair has them.
#[inline(always)]
fn loop_masks(cov: &Coverages, k: usize, x: usize, y: usize) -> [u64; 2] {
    match cov.masks.get(k) {
        Some(&m) => m,
        None => [polygon_mask(cov.outer, x, y), polygon_mask(cov.inner, x, y)],
    }
}

/// Signed area of a closed polygon.
fn area(pts: &[Point]) -> f64 {
    let n = pts.len();
    (0..n).map(|i| pts[i].x * pts[(i + 1) % n].y - pts[(i + 1) % n].x * pts[i].y).sum::<f64>() * 0.5
}

/// How closely a pixel's coverage must match the part of it the shape's box covers
/// for the box to stand for the shape's samples there.
const BOX_MATCH: f32 = 0.02;

/// The bounding rectangle of points.
fn rect_of(pts: impl Iterator<Item = Point>) -> Rect {
    let mut r = Rect { x0: f64::INFINITY, y0: f64::INFINITY, x1: f64::NEG_INFINITY, y1: f64::NEG_INFINITY };
    for p in pts {
        r.x0 = r.x0.min(p.x);
        r.y0 = r.y0.min(p.y);
        r.x1 = r.x1.max(p.x);
        r.y1 = r.y1.max(p.y);
    }
    r
}

/// The pixel box `(x0, y0, w, h)` of device points, inside a `w x h` buffer, grown
/// by `margin` pixels; `None` when empty.
fn pixel_box(pts: impl Iterator<Item = Point>, margin: f64, w: usize, h: usize) -> Option<(usize, usize, usize, usize)> {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for d in pts {
        x0 = x0.min(d.x);
        y0 = y0.min(d.y);
        x1 = x1.max(d.x);
        y1 = y1.max(d.y);
    }
    if !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
        return None;
    }
    let bx0 = ((x0 - margin).floor().max(0.0) as usize).min(w);
    let by0 = ((y0 - margin).floor().max(0.0) as usize).min(h);
    let bx1 = ((x1 + margin).ceil().max(0.0) as usize).min(w);
    let by1 = ((y1 + margin).ceil().max(0.0) as usize).min(h);
    (bx1 > bx0 && by1 > by0).then_some((bx0, by0, bx1 - bx0, by1 - by0))
}

/// The box a quad is, if it is an axis-aligned one.
pub(super) fn axis_box(q: &[Point; 4]) -> Option<Rect> {
    let along_x = q[0].y == q[1].y && q[2].y == q[3].y && q[0].x == q[3].x && q[1].x == q[2].x;
    let along_y = q[0].x == q[1].x && q[2].x == q[3].x && q[0].y == q[3].y && q[1].y == q[2].y;
    (along_x || along_y).then(|| rect_of(q.iter().copied()))
}

/// Whether the closed polygon of `pts` is its bounding box `r`: every point a corner
/// of it, and the area the box's.
fn is_box(pts: impl Iterator<Item = Point> + Clone, r: Rect) -> bool {
    if !pts.clone().all(|p| (p.x == r.x0 || p.x == r.x1) && (p.y == r.y0 || p.y == r.y1)) {
        return false;
    }
    let mut it = pts.clone();
    let Some(first) = it.next() else { return false };
    let (mut prev, mut twice) = (first, 0.0);
    for p in it.chain(std::iter::once(first)) {
        twice += prev.x * p.y - p.x * prev.y;
        prev = p;
    }
    let box_area = (r.x1 - r.x0) * (r.y1 - r.y0);
    box_area > 0.0 && (0.5 * twice.abs() - box_area).abs() <= 1e-9 * box_area
}

/// The coverage of the device interval `[lo, hi]` along one axis as the canvas
/// covers it (inside `[clo, chi]` and `n` cells), for cells `start .. start + len`
/// (into `out`); `cells` is scratch.
#[allow(clippy::too_many_arguments)]
fn axis_over(lo: f64, hi: f64, clo: f64, chi: f64, grid: Option<(f64, f64)>, n: usize, start: usize, len: usize, cells: &mut Vec<f32>, out: &mut Vec<f32>) {
    out.clear();
    out.resize(len, 0.0);
    if let Some((i0, i1)) = grid_axis_coverage(lo, hi, clo, chi, grid, n, cells) {
        for i in i0.max(start)..i1.min(start + len) {
            out[i - start] = cells[i - i0];
        }
    }
}

impl Canvas {
    /// The coverage of the polygons `add` puts into the rasterizer, over the pixel box
    /// `b` (see [`pixel_box`]), into `out`.
    fn box_coverage(&mut self, b: (usize, usize, usize, usize), out: &mut Vec<f32>, add: impl FnOnce(&mut Canvas)) {
        let (bx0, by0, bw, bh) = b;
        let (w, h) = (self.w, self.h);
        out.clear();
        out.resize(bw * bh, 0.0);
        self.raster.begin(self.clip);
        add(self);
        self.raster.finish(w, h, |y, x, cov| {
            if y < by0 || y >= by0 + bh {
                return;
            }
            for (i, &c) in cov.iter().enumerate() {
                let xi = x + i;
                if xi >= bx0 && xi < bx0 + bw {
                    out[(y - by0) * bw + xi - bx0] = c;
                }
            }
        });
    }

    /// Composites fill and stroke over the box `b` from the coverages in `scratch`:
    /// the stroke over `s`, the fill over `u - s`, the old pixel over `1 - u`, where
    /// `u` is `cov.union`, or (`fill_box`: a hairline's pair, the fill's device
    /// box) the fill plus the half of the stroke outside it.
    ///
    /// `visible_fill`: where the fill shows inside the outline when that is a box (an
    /// axis-aligned `rect()` under a mitred stroke: the stroke's inner box, empty where
    /// the stroke covers the fill). Edge pixels then keep fill and stroke in their
    /// records as two regions, so that a neighbour whose stroke lies over this one's
    /// (tiles of a grid, each stroked) hides the stroke it covers and not a share of a
    /// fill-and-stroke mix. So do the pixels along a convex outline's loops
    /// (`cov.outer`, `cov.inner`; a translucent fill's where it lies over no earlier
    /// region of the record: see [`crate::seams::Records::translucent_apart`]).
    #[allow(clippy::too_many_arguments)]
    fn composite_pair(&mut self, fill: &Paint, stroke: &Paint, b: (usize, usize, usize, usize), cov: Coverages, fill_box: Option<Rect>, bounds: Rect, visible_fill: Option<Rect>) {
        let (bx0, by0, bw, bh) = b;
        let (w, h) = (self.w, self.h);
        let (fc, sc) = (fill.rgb(), stroke.rgb());
        let grid = self.raster.grid();
        let (gx, gy) = (grid.map(|g| (g[1], g[0])), grid.map(|g| (g[3], g[2])));
        let mut shares = std::mem::take(&mut self.box_shares);
        {
            let [ox, oy] = &mut shares.outline;
            grid_shares(bounds.x0, bounds.x1, gx, bx0, bw, ox);
            grid_shares(bounds.y0, bounds.y1, gy, by0, bh, oy);
            let [fx, fy] = &mut shares.fill;
            let fb = fill_box.unwrap_or(Rect::default());
            grid_shares(fb.x0, fb.x1, gx, bx0, bw, fx);
            grid_shares(fb.y0, fb.y1, gy, by0, bh, fy);
        }
        self.records.ensure(w, w * h);
        // a hairline pair's band as four boxes apart (the sides, the left and right
        // ones whole), where its fill shows inside it as a box
        let visible = visible_fill.map_or([0.0; 4], |v| [v.x0, v.x1, v.y0, v.y1].map(|c| c as f32));
        let ring = visible_fill.filter(|v| fill_box.is_some() && v.x0 < v.x1 && v.y0 < v.y1).map(|v| {
            let o = bounds;
            [[o.x0, v.x0, o.y0, o.y1], [v.x1, o.x1, o.y0, o.y1], [v.x0, v.x1, o.y0, v.y0], [v.x0, v.x1, v.y1, o.y1]].map(|b| b.map(|c| c as f32))
        });
        // The areas of the band's and the fill's boxes in each pixel as the canvas
        // spreads them (a canvas pixel a box covers in part, cut by the pixel's edge,
        // shows it evenly on both sides): per column, the lengths of their three spans
        // across (the left and right sides, the middle), per row of their four down
        // (the whole height, the top and bottom sides, the middle).
        let (ring_x, ring_y) = (&mut shares.ring_x, &mut shares.ring_y);
        ring_x.clear();
        ring_y.clear();
        if let Some(r) = ring.as_ref() {
            let (xs, ys) = ([[r[0][0], r[0][1]], [r[1][0], r[1][1]], [r[2][0], r[2][1]]], [[r[0][2], r[0][3]], [r[2][2], r[2][3]], [r[3][2], r[3][3]], [visible[2], visible[3]]]);
            let g = self.records.grid();
            ring_x.extend((0..bw).map(|i| xs.map(|s| g.spread_across(s[0], s[1], (bx0 + i) as f32))));
            ring_y.extend((0..bh).map(|j| ys.map(|s| g.spread_down(s[0], s[1], (by0 + j) as f32))));
        }
        let pair_form = self.pair_form;
        let (win, pixels, records) = (&self.win, &mut self.pixels, &mut self.records);
        for j in 0..bh {
            let y = by0 + j;
            if win.rows().is_some_and(|r| !r[y]) {
                continue;
            }
            let ranges = win.row(y);
            for i in 0..bw {
                let k = j * bw + i;
                let (f, s) = (cov.fill[k], cov.stroke[k]);
                let u = pair_area(f, s, cov.union.get(k).copied(), fill_box.is_some());
                if u < 1e-6 {
                    continue;
                }
                let x = bx0 + i;
                if !in_ranges(ranges, x) {
                    continue;
                }
                let px = &mut pixels[3 * (y * w + x)..3 * (y * w + x) + 3];
                if s >= FULL {
                    px.copy_from_slice(&sc);
                    continue;
                }
                let mut u = u.min(1.0);
                let loops = !cov.outer.is_empty() && pair_form.is_none() && visible_fill.is_none();
                if !fill.opaque() {
                    let f = (u - s).max(0.0);
                    if !cov.outer.is_empty() && (u < FULL || s > 1e-6) {
                        // under an opaque stroke whose loops are convex: the fill inside
                        // the inner loop, then the stroke between the two, each with its
                        // samples, where the fill lies over no earlier region
                        let [outer, inner] = loop_masks(&cov, k, x, y);
                        let pixel = y * w + x;
                        let apart = if f > 1e-6 { records.translucent_apart(pixel, px, inner) } else { Some(0) };
                        if let Some(fill_mask) = apart {
                            if f > 1e-6 {
                                records.composite_translucent(pixel, px, fill_mask, f, fill);
                            }
                            if s > 1e-6 {
                                records.composite(pixel, px, outer & !inner, 1.0, s, sc, None);
                            }
                            continue;
                        }
                    }
                    // else its part of the pixel shows it blended over what was there,
                    // the stroke's the stroke (no record)
                    let mut over = [px[0], px[1], px[2]];
                    fill.blend_cov(&mut over, 1.0);
                    for ch in 0..3 {
                        let v = px[ch] as f32 * (1.0 - u) + over[ch] as f32 * f + sc[ch] as f32 * s;
                        px[ch] = (v + 0.5).min(255.0) as u8;
                    }
                    continue;
                }
                // Where the shape's box covers as much of the pixel as the shape (an
                // edge pixel along a straight side), the box's samples are the shape's:
                // composited through the pixel's record, so that a neighbour sharing
                // the pixel hides only what it covers.
                let mut samples = None;
                let mut fill_samples = None;
                // (a hairline's pair whose fill does not cover the pixel: the half rule
                // above can overshoot a pixel its box does not fill)
                // (a pixel the pair covers whole, fill and stroke in part: the two
                // regions its neighbour's stroke over this one must tell apart)
                if u < FULL || (fill_box.is_some() && f < FULL) || ((visible_fill.is_some() || loops) && s > 1e-6) {
                    let local = |r: Rect| pixel_local([r.x0, r.x1, r.y0, r.y1], x as f64, y as f64);
                    let lb = local(bounds);
                    let box_area = shares.outline[0][i] * shares.outline[1][j];
                    // A hairline's band straddles the outline: where the pixel cuts the
                    // band, the half of it outside the fill is not half of `s`. Where
                    // the fill covers exactly its own box's part of the pixel (a straight
                    // side), fill and band together cover the outline's box.
                    if fill_box.is_some() {
                        let fill_area = shares.fill[0][i] * shares.fill[1][j];
                        if f > 1e-6 && (fill_area - f).abs() < BOX_MATCH * 0.25 && (box_area - u).abs() < 0.5 * s + BOX_MATCH {
                            u = box_area.max(s).min(1.0);
                        }
                    }
                    if let Some(form) = pair_form.filter(|_| u < FULL) {
                        // an ellipse's pair: the samples of its stroke's outer edge
                        samples = Some((form.mask(x, y), 1.0));
                    } else if loops {
                        // a convex outline's fill and stroke as two regions of their
                        // own samples, as a box's are below
                        let [outer, inner] = loop_masks(&cov, k, x, y);
                        samples = Some((outer, 1.0));
                        fill_samples = Some(inner);
                    } else if (u < FULL || visible_fill.is_some()) && (box_area - u).abs() < BOX_MATCH {
                        samples = Some((box_mask(lb), 1.0));
                        fill_samples = visible_fill.map(|v| if v.x0 < v.x1 && v.y0 < v.y1 { box_mask(local(v)) } else { 0 });
                    } else if u < box_area && box_area > 0.0 {
                        // a rounded corner: the shape lies in its box, covering
                        // `u / box_area` of it, so neighbours apart from the box keep
                        // their areas (four tiles' corners meeting in a pixel)
                        samples = Some((box_mask(lb), u / box_area));
                    }
                }
                let f = (u - s).max(0.0);
                if let (Some((mask, _)), Some(fill_mask)) = (samples, fill_samples) {
                    let fill_mask = fill_mask & mask;
                    let pixel = y * w + x;
                    if let Some(ring) = ring.as_ref() {
                        // A hairline's band, then the fill inside it, as boxes: the band
                        // straddles the canvas pixels along the outline, which the
                        // browser blends it over after the fill, and the neighbour's band
                        // again over them (see `Loss::ToNew`)
                        // (their areas in the pixel are the boxes' as the canvas spreads
                        // them, so that each box the records keep shows whole)
                        let (cx, cy) = (&ring_x[i], &ring_y[j]);
                        // left, right, top, bottom
                        let areas = [cx[0] * cy[0], cx[1] * cy[0], cx[2] * cy[1], cx[2] * cy[2]];
                        let mut here = [[0f32; 4]; 4];
                        let (mut n, mut s) = (0, 0.0);
                        for (b, &a) in ring.iter().zip(&areas) {
                            if a > 0.0 {
                                here[n] = *b;
                                n += 1;
                                s += a;
                            }
                        }
                        let f = cx[2] * cy[3];
                        if s > 1e-6 {
                            records.composite_boxes(pixel, px, mask & !fill_mask, s, sc, &here[..n], Loss::ToNew);
                        }
                        if f > 1e-6 {
                            records.composite_boxes(pixel, px, fill_mask, f, fc, &[visible], Loss::Nothing);
                        }
                        continue;
                    }
                    if f > 1e-6 {
                        records.composite(pixel, px, fill_mask, 1.0, f, fc, None);
                    }
                    if s > 1e-6 {
                        records.composite(pixel, px, mask & !fill_mask, 1.0, s, sc, None);
                    }
                    continue;
                }
                if let Some((mask, density)) = samples {
                    let mix = [0, 1, 2].map(|ch| ((fc[ch] as f32 * f + sc[ch] as f32 * s) / u + 0.5).min(255.0) as u8);
                    records.composite(y * w + x, px, mask, density, u, mix, None);
                    continue;
                }
                for ch in 0..3 {
                    let v = px[ch] as f32 * (1.0 - u) + fc[ch] as f32 * f + sc[ch] as f32 * s;
                    px[ch] = (v + 0.5).min(255.0) as u8;
                }
            }
        }
        self.box_shares = shares;
    }

    /// [`Canvas::fill_and_stroke`] of an axis-aligned rectangle under a mitred stroke,
    /// from device boxes: the `fill`, the stroke's `outer` edge and its `inner` one
    /// (`None` where the stroke covers the fill). All three areas are boxes (the
    /// stroke's is the outer less the inner, as [`Canvas::stroke_axis_rect`] draws a
    /// stroke alone), so each coverage is the product of its per-axis coverages as
    /// the canvas covers a box, where the general path rasterizes three outlines.
    pub(super) fn fill_and_stroke_axis_rect(&mut self, fill: &Paint, stroke: &Paint, fill_box: Rect, outer: Rect, inner: Option<Rect>) {
        let (w, h) = (self.w, self.h);
        let Some(b) = pixel_box([Point::new(outer.x0, outer.y0), Point::new(outer.x1, outer.y1)].into_iter(), 0.0, w, h) else { return };
        let mut s = std::mem::take(&mut self.pair);
        s.no_loops();
        for v in [&mut s.fill, &mut s.stroke, &mut s.union] {
            v.clear();
            v.resize(b.2 * b.3, 0.0);
        }
        self.add_box_coverage(b, fill_box, &mut s.axes, &mut s.fill);
        self.add_box_coverage(b, outer, &mut s.axes, &mut s.union);
        // the inner box first, then the stroke as the outer less it
        if let Some(inner) = inner {
            self.add_box_coverage(b, inner, &mut s.axes, &mut s.stroke);
        }
        for (st, &u) in s.stroke.iter_mut().zip(&s.union) {
            *st = (u - *st).max(0.0);
        }
        let visible_fill = inner.unwrap_or(Rect::default());
        self.composite_pair(fill, stroke, b, s.coverages(), None, outer, Some(visible_fill));
        self.pair = s;
    }

    /// Adds the coverage of the device box `q`, as the canvas covers a box (see
    /// [`grid_axis_coverage`]) and inside the clip, to `out`, the cells of the pixel
    /// box `b`: the product of its coverages along each axis, which is what the
    /// rasterizer gives the box up to rounding.
    fn add_box_coverage(&self, b: PixBox, q: Rect, s: &mut AxisScratch, out: &mut [f32]) {
        let (bx0, by0, bw, bh) = b;
        let (gx, gy) = self.grid_axes();
        let c = self.clip;
        axis_over(q.x0, q.x1, c.x0, c.x1, gx, self.w, bx0, bw, &mut s.cells, &mut s.across);
        axis_over(q.y0, q.y1, c.y0, c.y1, gy, self.h, by0, bh, &mut s.cells, &mut s.down);
        for (row, &dy) in out.chunks_exact_mut(bw).zip(&s.down) {
            if dy != 0.0 {
                for (o, &dx) in row.iter_mut().zip(&s.across) {
                    *o += dx * dy;
                }
            }
        }
    }

    /// Looks up the pair whose key `cache` holds: `None` when it was there (and is
    /// composited from its kept coverages), else the slot to keep it in, if any.
    fn composite_cached_pair(&mut self, cache: &mut CoverageCache, fill: &Paint, stroke: &Paint) -> Option<Option<usize>> {
        match cache.lookup() {
            Lookup::Hit(i) => {
                let e = cache.entry(i);
                self.composite_pair(fill, stroke, e.b, e.coverages(), e.fill_box, e.bounds, e.visible_fill);
                None
            }
            Lookup::Store(i) => Some(Some(i)),
            Lookup::Miss => Some(None),
        }
    }

    /// Fills and strokes `self.path` (one closed contour, user space, mapped by `m`)
    /// as one composite (see the module); false, having drawn nothing, when the
    /// path or its outline is not of that shape.
    pub(super) fn fill_and_stroke(&mut self, fill: &Paint, stroke: &Paint, pen: &Pen, m: &Transform) -> bool {
        if self.path.contours.len() != 1 || !self.path.contours[0].closed {
            return false;
        }
        let c = self.path.contours[0];
        let loops = self.pair_loops(fill);
        let seen = self.cache.seen_before(&summary(1, m, &self.path.pts[c.start..c.end]));
        let mut cache = std::mem::take(&mut self.cache);
        let slot = if seen {
            cache.start(1, self.w, self.h, self.clip, m);
            cache.pen(pen);
            cache.word(c.has_segment as u64 | (loops as u64) << 1);
            cache.points(&self.path.pts[c.start..c.end]);
            let Some(slot) = self.composite_cached_pair(&mut cache, fill, stroke) else {
                self.cache = cache;
                return true;
            };
            slot
        } else {
            None
        };
        let mut scratch = std::mem::take(&mut self.pair);
        scratch.no_loops();
        let done = match self.fill_and_stroke_coverages(&c, pen, m, loops, &mut scratch) {
            None => false,
            Some(None) => true,
            Some(Some((b, bounds))) => {
                let visible_fill = self.mitred_box_fill(&c, pen, m);
                if let Some(i) = slot {
                    if !scratch.outer.is_empty() {
                        scratch.compute_masks(b, false);
                    }
                    scratch.keep(&mut cache, i, b, bounds, None, visible_fill);
                }
                self.composite_pair(fill, stroke, b, scratch.coverages(), None, bounds, visible_fill);
                true
            }
        };
        self.pair = scratch;
        self.cache = cache;
        done
    }

    /// Where the fill of contour `c` (user space, mapped by `m`) shows under the mitred
    /// `pen` when that is a box (a rectangle on the device axes: its stroke's inner
    /// box, empty where the stroke covers it), as [`Canvas::fill_and_stroke_axis_rect`]
    /// gives it to [`Canvas::composite_pair`]; `None` for any other outline.
    fn mitred_box_fill(&self, c: &Contour, pen: &Pen, m: &Transform) -> Option<Rect> {
        let pts = &self.path.pts[c.start..c.end];
        let r = rect_of(pts.iter().copied());
        if pen.join != Join::Miter || !m.is_axis_aligned() || !is_box(pts.iter().copied(), r) {
            return None;
        }
        let hw = pen.hw;
        if !(r.x1 - r.x0 > 2.0 * hw && r.y1 - r.y0 > 2.0 * hw) {
            return Some(Rect::default());
        }
        let (a, b) = (m.apply(Point::new(r.x0 + hw, r.y0 + hw)), m.apply(Point::new(r.x1 - hw, r.y1 - hw)));
        Some(Rect { x0: a.x.min(b.x), y0: a.y.min(b.y), x1: a.x.max(b.x), y1: a.y.max(b.y) })
    }

    /// Whether a pair with `fill` keeps its loops' samples ([`Coverages::outer`]): an
    /// opaque ellipse's pair takes its stroke's samples from its form instead.
    fn pair_loops(&self, fill: &Paint) -> bool {
        self.pair_form.is_none() || !fill.opaque()
    }

    /// The loops of a hairline's bands around contour `c` of `self.path` (user space,
    /// mapped by `m`) into `scratch` when the contour is convex: its edges moved out
    /// and in by half a canvas pixel, as the bands straddle them.
    fn hairline_loops(&mut self, c: Contour, m: &Transform, scratch: &mut PairScratch) {
        loop_planes(&self.path.pts[c.start..c.end], m, &mut self.corners, &mut self.seam_edges, &mut scratch.outer);
        scratch.inner.clear();
        let (sx, sy) = (self.sx, self.sy);
        for p in scratch.outer.iter_mut() {
            // (unit normals: half a canvas pixel across the edge, in device pixels)
            let hw = 0.5 * ((p[0] * sx).powi(2) + (p[1] * sy).powi(2)).sqrt();
            scratch.inner.push([p[0], p[1], p[2] - hw]);
            p[2] += hw;
        }
    }

    /// The coverages of [`Canvas::fill_and_stroke`] into `scratch`, with the pixel box
    /// and the outline's device bounds: `None` when the outline is not of that shape,
    /// `Some(None)` when it covers no pixel.
    fn fill_and_stroke_coverages(&mut self, c: &Contour, pen: &Pen, m: &Transform, want_loops: bool, scratch: &mut PairScratch) -> Option<Option<(PixBox, Rect)>> {
        self.outline.clear();
        stroke_polyline(&self.path.pts[c.start..c.end], true, c.has_segment, pen, &mut self.outline, &mut self.segs);
        if self.outline.contours.len() != 2 {
            return None;
        }
        let loops = [self.outline.contours[0], self.outline.contours[1]];
        let [a0, a1] = loops.map(|l| area(&self.outline.pts[l.start..l.end]).abs());
        let outer = if a0 >= a1 { loops[0] } else { loops[1] };
        let pts = self.outline.pts[outer.start..outer.end].iter().map(|p| m.apply(*p));
        let Some(b) = pixel_box(pts, 0.0, self.w, self.h) else { return Some(None) };
        let path = std::mem::take(&mut self.path);
        let outline = std::mem::take(&mut self.outline);
        let map = |p: Point| m.apply(p);
        self.box_coverage(b, &mut scratch.fill, |cv| match cv.pair_ellipse {
            Some((d, ax, ay)) => cv.raster.add_axis_ellipse(d, ax, ay),
            None => cv.raster.add_polygon(&path.pts[c.start..c.end], map),
        });
        self.box_coverage(b, &mut scratch.stroke, |cv| {
            for l in &loops {
                cv.raster.add_polygon(&outline.pts[l.start..l.end], map);
            }
        });
        self.box_coverage(b, &mut scratch.union, |cv| cv.raster.add_polygon(&outline.pts[outer.start..outer.end], map));
        self.path = path;
        self.outline = outline;
        let bounds = rect_of(self.outline.pts[outer.start..outer.end].iter().map(|p| m.apply(*p)));
        if want_loops {
            let inner = if outer.start == loops[0].start { loops[1] } else { loops[0] };
            for (l, out) in [(outer, &mut scratch.outer), (inner, &mut scratch.inner)] {
                loop_planes(&self.outline.pts[l.start..l.end], m, &mut self.corners, &mut self.seam_edges, out);
            }
            if scratch.outer.is_empty() || scratch.inner.is_empty() {
                scratch.no_loops();
            }
        }
        Some(Some((b, bounds)))
    }

    /// [`Canvas::fill_and_stroke`] for a hairline stroke (`hair`: the path as the
    /// hairline is drawn, see `canvas/hairline.rs`): the hairline's bands straddle the
    /// outline, so half of their area lies outside the fill. False, having drawn
    /// nothing, unless `self.path` is one closed contour.
    pub(super) fn fill_and_hairline(&mut self, fill: &Paint, stroke: &Paint, hair: &Polylines, cap: Cap, canvas: &Transform, m: &Transform) -> bool {
        if self.path.contours.len() != 1 || !self.path.contours[0].closed || self.sx >= 1.0 || self.sy >= 1.0 {
            return false;
        }
        let c = self.path.contours[0];
        let loops = self.pair_loops(fill);
        let seen = self.cache.seen_before(&summary(2, m, &self.path.pts[c.start..c.end]));
        let mut cache = std::mem::take(&mut self.cache);
        let slot = if seen {
            cache.start(2, self.w, self.h, self.clip, m);
            cache.word(cap as u64 | (loops as u64) << 8);
            for v in [self.sx, self.sy, self.tx, self.ty] {
                cache.num(v);
            }
            cache.transform(canvas);
            cache.points(&self.path.pts[c.start..c.end]);
            for h in hair.contours.iter().filter(|h| h.has_segment) {
                cache.word(h.closed as u64);
                cache.points(&hair.pts[h.start..h.end]);
            }
            let Some(slot) = self.composite_cached_pair(&mut cache, fill, stroke) else {
                self.cache = cache;
                return true;
            };
            slot
        } else {
            None
        };
        let margin = self.sx.max(self.sy);
        let pts = self.path.pts[c.start..c.end].iter().map(|p| m.apply(*p));
        let Some(b) = pixel_box(pts, margin, self.w, self.h) else {
            self.cache = cache;
            return true;
        };
        let mut scratch = std::mem::take(&mut self.pair);
        scratch.no_loops();
        let (sx, sy, tx, ty) = (self.sx, self.sy, self.tx, self.ty);
        scratch.bands.clear();
        for h in hair.contours.iter().filter(|h| h.has_segment) {
            super::hairline::hairline_bands(&hair.pts[h.start..h.end], h.closed, cap, canvas, Some(stroke.alpha()), |quad| {
                scratch.bands.push(quad.map(|p| Point::new(p.x * sx + tx, p.y * sy + ty)));
            });
        }
        let r = rect_of(self.path.pts[c.start..c.end].iter().map(|p| m.apply(*p)));
        let fill_pts = &self.path.pts[c.start..c.end];
        let mut visible_fill = None;
        if m.is_axis_aligned() && is_box(fill_pts.iter().map(|p| m.apply(*p)), r) && scratch.bands.iter().all(|q| axis_box(q).is_some()) {
            // the bands straddle the outline: the fill shows inside the inner halves
            // (half a canvas pixel in from each side), kept apart from the stroke in
            // the records so that the next tile hides the stroke it covers
            let (hx, hy) = (0.5 * self.sx, 0.5 * self.sy);
            visible_fill = Some(Rect { x0: r.x0 + hx, y0: r.y0 + hy, x1: r.x1 - hx, y1: r.y1 - hy });
            // a rect(): its fill and every band are boxes
            for v in [&mut scratch.fill, &mut scratch.stroke] {
                v.clear();
                v.resize(b.2 * b.3, 0.0);
            }
            self.add_box_coverage(b, r, &mut scratch.axes, &mut scratch.fill);
            for q in scratch.bands.iter().filter_map(axis_box) {
                self.add_box_coverage(b, q, &mut scratch.axes, &mut scratch.stroke);
            }
            // the bands' coverages add up, as the rasterizer sums them
            for v in scratch.stroke.iter_mut() {
                *v = if *v < 1e-6 { 0.0 } else { v.min(1.0) };
            }
        } else {
            let path = std::mem::take(&mut self.path);
            let map = |p: Point| m.apply(p);
            self.box_coverage(b, &mut scratch.fill, |cv| match cv.pair_ellipse {
                Some((d, ax, ay)) => cv.raster.add_axis_ellipse(d, ax, ay),
                None => cv.raster.add_polygon(&path.pts[c.start..c.end], map),
            });
            let bands = std::mem::take(&mut scratch.bands);
            self.box_coverage(b, &mut scratch.stroke, |cv| {
                for q in &bands {
                    cv.raster.add_polygon(q, |p| p);
                }
            });
            scratch.bands = bands;
            self.path = path;
            if loops {
                self.hairline_loops(c, m, &mut scratch);
            }
        }
        let half = Point::new(0.5 * self.sx, 0.5 * self.sy);
        let bounds = Rect { x0: r.x0 - half.x, y0: r.y0 - half.y, x1: r.x1 + half.x, y1: r.y1 + half.y };
        if let Some(i) = slot {
            if !scratch.outer.is_empty() {
                scratch.compute_masks(b, true);
            }
            scratch.keep(&mut cache, i, b, bounds, Some(r), visible_fill);
        }
        self.composite_pair(fill, stroke, b, scratch.coverages(), Some(r), bounds, visible_fill);
        self.pair = scratch;
        self.cache = cache;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CommandWriter, Fit, Rgba};

    /// The boxes of the fast pairs get, to rounding, the coverage the rasterizer gives
    /// the same rectangle: on canvases finer than, as fine as and coarser than the
    /// observation, where the canvas's pixel grid spreads their edges or not.
    #[test]
    fn box_products_are_the_rasterized_boxes() {
        let mut seed = 11u32;
        let mut next = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f64 / (1u32 << 24) as f64
        };
        for size in [400.0f32, 64.0, 37.0] {
            let mut c = Canvas::new(64, 64, Fit::Stretch, 1).unwrap();
            let mut cw = CommandWriter::new();
            cw.canvas(size, size).background(Rgba::new(0, 0, 0, 255));
            c.draw(cw.words()).unwrap();
            let mut spread = 0;
            for _ in 0..300 {
                let (x, y) = (next() * 74.0 - 5.0, next() * 74.0 - 5.0);
                let q = Rect { x0: x, y0: y, x1: x + 0.05 + 20.0 * next() * next(), y1: y + 0.05 + 20.0 * next() * next() };
                let corners = [Point::new(q.x0, q.y0), Point::new(q.x1, q.y0), Point::new(q.x1, q.y1), Point::new(q.x0, q.y1)];
                let Some(b) = pixel_box(corners.into_iter(), 0.0, 64, 64) else { continue };
                let mut want = Vec::new();
                c.box_coverage(b, &mut want, |cv| cv.raster.add_polygon(&corners, |p| p));
                let mut got = vec![0.0; b.2 * b.3];
                c.add_box_coverage(b, q, &mut AxisScratch::default(), &mut got);
                // (the rasterizer's running sums along a row round in f32: a few 1e-6)
                for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!((g - w).abs() <= 1e-5, "canvas {size}, box {q:?}, cell {k}: {g} against {w}");
                }
                // (a box whose coverage is not that of its device area: spread over the grid)
                let device = want.iter().sum::<f32>() as f64;
                let clipped = (q.x1.min(64.0) - q.x0.max(0.0)).max(0.0) * (q.y1.min(64.0) - q.y0.max(0.0)).max(0.0);
                spread += ((device - clipped).abs() > 1e-3) as usize;
            }
            if size != 64.0 {
                assert!(spread > 20, "canvas {size}: only {spread} boxes spread over the canvas's pixels");
            }
        }
    }

    #[test]
    fn only_a_box_drawn_around_is_a_box() {
        let r = Rect { x0: 1.0, y0: 2.0, x1: 4.0, y1: 6.0 };
        let p = |x, y| Point::new(x, y);
        assert!(is_box([p(1.0, 2.0), p(4.0, 2.0), p(4.0, 6.0), p(1.0, 6.0)].into_iter(), r));
        assert!(is_box([p(1.0, 6.0), p(4.0, 6.0), p(4.0, 2.0), p(1.0, 2.0), p(1.0, 6.0)].into_iter(), r));
        // a bow tie of its corners, a corner short, a point inside
        assert!(!is_box([p(1.0, 2.0), p(4.0, 6.0), p(4.0, 2.0), p(1.0, 6.0)].into_iter(), r));
        assert!(!is_box([p(1.0, 2.0), p(4.0, 2.0), p(4.0, 6.0)].into_iter(), r));
        assert!(!is_box([p(1.0, 2.0), p(4.0, 2.0), p(3.0, 5.0), p(4.0, 6.0), p(1.0, 6.0)].into_iter(), r));
        assert_eq!(axis_box(&[p(1.0, 2.0), p(4.0, 2.0), p(4.0, 3.0), p(1.0, 3.0)]), Some(Rect { x0: 1.0, y0: 2.0, x1: 4.0, y1: 3.0 }));
        assert_eq!(axis_box(&[p(1.0, 2.0), p(1.0, 5.0), p(2.0, 5.0), p(2.0, 2.0)]), Some(Rect { x0: 1.0, y0: 2.0, x1: 2.0, y1: 5.0 }));
        assert_eq!(axis_box(&[p(1.0, 2.0), p(4.0, 2.5), p(4.0, 3.5), p(1.0, 3.0)]), None);
    }
}
