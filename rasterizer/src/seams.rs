//! Seam-free shared edges: per-pixel records of the opaque shapes that covered an
//! edge pixel partly ([`MaskRec`]), their 8x8 sample masks, and the store that keeps
//! the records of the current epoch ([`Records`]).

use crate::blend::Paint;
use crate::damage::PixRect;

/// Sub-pixel sample grid of a [`MaskRec`]: `MASK_SIDE x MASK_SIDE` samples, bit
/// `j * MASK_SIDE + i` at pixel-local `((i + 0.5) / MASK_SIDE, (j + 0.5) / MASK_SIDE)`.
pub(crate) const MASK_SIDE: usize = 8;

/// Regions a [`MaskRec`] keeps apart (older ones merge into its base). Four: where
/// four outlined tiles meet in a pixel, each keeps its fill and its outline apart,
/// and with three the oldest fills merged into the base, whose share the next tile
/// then hid (a tile map under p5's default stroke 37.7 -> 39.4 dB against Chromium,
/// for 2% more instructions per step on tile maps).
const MASK_REGIONS: usize = 4;

/// Polygons with more edges than this are drawn without sample masks.
pub(crate) const MAX_MASK_EDGES: usize = 64;

/// What the last opaque shapes (rectangles, convex polygons) drew into a pixel they
/// covered partly: for each (newest last) its colour, the exact area it still shows
/// and the samples of the pixel it covers; the rest of the pixel shows `base`.
///
/// Blending shapes one after another at observation size darkens a pixel where two
/// shapes share a fractional edge (each sees the other's coverage as a mix with the
/// background: "conflation"), which shows as seams between tiles that the browser,
/// rendering at canvas size, does not have. With the record, a new opaque shape hides,
/// of each region, the share of its samples that it covers, so neighbours that share
/// an edge (disjoint sample sets) keep their exact areas and nothing shows through the
/// seam, while every area stays the exact coverage. A record is trusted only while the
/// pixel still holds `result` (any other drawing on the pixel changes it and so
/// retires the record) and was made since the last opaque `background()` / `clear()`
/// or the start of the frame (see [`Records`]), so that a frame's pixels never depend
/// on what earlier frames left there but through the pixels themselves.
///
/// A region's fields lie together ([`Region`]) and the record starts a cache line:
/// most records hold one region, and then they are one line to write and to read.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(crate) struct MaskRec {
    /// The pixel (row-major index) the record is of.
    pixel: u32,
    result: [u8; 3],
    n: u8,
    base: [f32; 3],
    /// The polygon whose samples the first region holds when they are not computed
    /// yet ([`Records::polygon`]'s code; 0: computed). Most edge pixels are drawn
    /// once per epoch, so their samples are computed only when a second opaque shape
    /// composites over them.
    pending: u32,
    regions: [Region; MASK_REGIONS],
}

/// One region of a [`MaskRec`].
#[derive(Clone, Copy, Debug, Default)]
struct Region {
    /// The samples of the pixel it covers.
    mask: u64,
    /// The exact area it still shows.
    area: f32,
    col: [u8; 3],
    /// The area it has lost to [`canvas_conflation`] with the rectangles drawn next
    /// to it or over its edge: its box still shows whole when its area and this make
    /// up the box's, so a stack of same-coloured rows (one region) keeps blending as
    /// the browser's does, and so does a tile whose corner pixel the bands of two
    /// later tiles cross.
    conflated: f32,
    /// Its device box when it is one axis-aligned rectangle (or a row of them), for
    /// [`canvas_conflation`]; empty (`x0 >= x1`) otherwise.
    bx: [f32; 4],
}

// (a record of one region is one cache line)
const _: () = assert!(std::mem::offset_of!(MaskRec, regions) + std::mem::size_of::<Region>() <= 64);

impl Region {
    fn new(mask: u64, area: f32, col: [u8; 3], bx: [f32; 4]) -> Region {
        Region { mask, area, col, conflated: 0.0, bx }
    }
}

/// Where what the earlier regions of a pixel lose to a new region of boxes at canvas
/// resolution ([`canvas_conflation`]) goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loss {
    /// The background beneath them (abutting shapes each anti-aliased over it: a
    /// faint seam), and where the new boxes lie over a region's fractional edge, the
    /// region regains what the browser's blend lets show through.
    ToBase,
    /// The new region's colour: a hairline's band drawn over the band and fill of
    /// the tile before it, which the browser blends over the same canvas pixels
    /// twice. (The canvas pixel the band halves also holds the earlier band, of the
    /// same colour as a grid's strokes are, and the earlier tile's own fill cleared
    /// what lay beneath it.)
    ToNew,
    /// None: the boxes only hide exactly what they cover (a hairline pair's fill
    /// inside its band, whose band drew over the canvas pixels the fill shares).
    Nothing,
}

/// The device boxes (`[x0, x1, y0, y1]`, apart from each other) a new opaque region
/// is the union of in pixel `at`, for the exact areas it hides of earlier boxes and
/// for [`canvas_conflation`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct NewBoxes<'a> {
    pub(crate) grid: &'a CanvasGrid,
    pub(crate) boxes: &'a [[f32; 4]],
    pub(crate) at: (f32, f32),
    pub(crate) loss: Loss,
}

impl<'a> NewBoxes<'a> {
    fn one(grid: &'a CanvasGrid, b: &'a [f32; 4], at: (f32, f32)) -> NewBoxes<'a> {
        NewBoxes { grid, boxes: std::slice::from_ref(b), at, loss: Loss::ToBase }
    }
}

/// The union of two device boxes when it is a box itself (neighbours in a row or a
/// column of tiles), else the empty box.
fn box_union(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    const EPS: f32 = 1e-4;
    let same = |p: f32, q: f32| (p - q).abs() <= EPS;
    if !(a[0] < a[1] && b[0] < b[1]) {
        return [0.0; 4];
    }
    let rows = same(a[2], b[2]) && same(a[3], b[3]) && a[0] <= b[1] + EPS && b[0] <= a[1] + EPS;
    let cols = same(a[0], b[0]) && same(a[1], b[1]) && a[2] <= b[3] + EPS && b[2] <= a[3] + EPS;
    if rows || cols {
        [a[0].min(b[0]), a[1].max(b[1]), a[2].min(b[2]), a[3].max(b[3])]
    } else {
        [0.0; 4]
    }
}

/// Where the canvas's own pixels lie on the device: canvas column `k` spans device x
/// `[ox + k gx, ox + (k + 1) gx]`, and likewise rows. Keeps the last per-axis sums of
/// [`canvas_conflation`]: along a rectangle's vertical edge the horizontal ones repeat
/// from pixel to pixel, and along a horizontal edge the vertical ones.
#[derive(Clone, Debug, Default)]
pub(crate) struct CanvasGrid {
    pub(crate) gx: f32,
    ox: f32,
    gy: f32,
    oy: f32,
    inv_gx: f32,
    inv_gy: f32,
    last_x: std::cell::Cell<([f32; 5], (f32, f32))>,
    last_y: std::cell::Cell<([f32; 5], (f32, f32))>,
}

impl CanvasGrid {
    /// Canvas pixels of `gx x gy` device pixels, the first at `(ox, oy)`.
    pub(crate) fn new(gx: f32, ox: f32, gy: f32, oy: f32) -> CanvasGrid {
        let none = std::cell::Cell::new(([f32::NAN; 5], (0.0, 0.0)));
        CanvasGrid { gx, ox, gy, oy, inv_gx: 1.0 / gx, inv_gy: 1.0 / gy, last_x: none.clone(), last_y: none }
    }

    /// What the browser's canvas shows of what lay beneath along the edges of the
    /// convex polygon of unit `planes` (device space) in device pixel `(x, y)`, where
    /// an opaque shape drawn before meets the polygon on them: in each canvas pixel an
    /// edge crosses, the first covers `a` and the polygon `1 - a` of it on top, which
    /// leaves `a (1 - a)` to what lay beneath. Over the canvas pixels a slanted edge
    /// crosses that sums to a sixth of its length in canvas pixels whatever the slope;
    /// along an axis, at `f` into its canvas pixels, to `f (1 - f)` of it. In device
    /// area; `None` when a device pixel is no smaller than a canvas pixel (the two
    /// shapes' own coverages give it).
    pub(crate) fn seam_loss(&self, planes: &[[f64; 3]], x: f64, y: f64) -> Option<f64> {
        let (gx, gy) = (self.gx as f64, self.gy as f64);
        if gx >= 1.0 && gy >= 1.0 {
            return None;
        }
        let (cx, cy) = (x + 0.5, y + 0.5);
        let frac = |v: f64, o: f32, g: f64| {
            let k = (v - o as f64) / g;
            k - k.floor()
        };
        let mut loss = 0.0;
        for (i, p) in planes.iter().enumerate() {
            let d = p[0] * cx + p[1] * cy + p[2];
            if d.abs() >= std::f64::consts::FRAC_1_SQRT_2 {
                continue;
            }
            // the part of the plane's line inside the pixel and on the polygon's
            // side of every other plane: the edge itself
            let (fx, fy) = (cx - d * p[0], cy - d * p[1]);
            let (dx, dy) = (-p[1], p[0]);
            let (mut t0, mut t1) = (f64::NEG_INFINITY, f64::INFINITY);
            let mut inside = true;
            for (f, dv, lo) in [(fx, dx, x), (fy, dy, y)] {
                if dv.abs() > 1e-12 {
                    let (a, b) = ((lo - f) / dv, (lo + 1.0 - f) / dv);
                    t0 = t0.max(a.min(b));
                    t1 = t1.min(a.max(b));
                } else if f < lo || f > lo + 1.0 {
                    inside = false;
                }
            }
            for (k, q) in planes.iter().enumerate() {
                if k == i || !inside || !(t1 > t0) {
                    continue;
                }
                // q . (f + t d) >= 0
                let (q0, q1) = (q[0] * fx + q[1] * fy + q[2], q[0] * dx + q[1] * dy);
                if q1.abs() > 1e-12 {
                    let t = -q0 / q1;
                    if q1 > 0.0 {
                        t0 = t0.max(t);
                    } else {
                        t1 = t1.min(t);
                    }
                } else if q0 < -1e-9 {
                    inside = false;
                }
            }
            if !inside || !(t1 > t0) {
                continue;
            }
            let len = (t1 - t0) * ((dx / gx).powi(2) + (dy / gy).powi(2)).sqrt();
            let per_length = if dy.abs() < 1e-9 {
                let f = frac(fy, self.oy, gy);
                f * (1.0 - f)
            } else if dx.abs() < 1e-9 {
                let f = frac(fx, self.ox, gx);
                f * (1.0 - f)
            } else {
                1.0 / 6.0
            };
            loss += per_length * len * gx * gy;
        }
        Some(loss)
    }

    /// The area of device box `b` (`[x0, x1, y0, y1]`) in device pixel `(px, py)` as
    /// the canvas spreads it: a canvas pixel the box covers in part shows it evenly
    /// over its whole area, on both sides of the device pixel's edge where that edge
    /// cuts it.
    pub(crate) fn spread_area(&self, b: [f32; 4], px: f32, py: f32) -> f32 {
        self.spread_across(b[0], b[1], px) * self.spread_down(b[2], b[3], py)
    }

    /// The length of `[lo, hi]` in column `p` as the canvas spreads it.
    #[inline(always)]
    pub(crate) fn spread_across(&self, lo: f32, hi: f32, p: f32) -> f32 {
        spread_len(lo, hi, self.ox, self.gx, self.inv_gx, p)
    }

    /// The length of `[lo, hi]` in row `p` as the canvas spreads it.
    #[inline(always)]
    pub(crate) fn spread_down(&self, lo: f32, hi: f32, p: f32) -> f32 {
        spread_len(lo, hi, self.oy, self.gy, self.inv_gy, p)
    }

    /// Whether an edge of device box `b` (`[x0, x1, y0, y1]`) lies inside a canvas
    /// pixel. A box whose edges all lie on the canvas's pixel edges covers each canvas
    /// pixel whole or not at all, so nothing blends inside one: its
    /// [`canvas_conflation`] with any box is 0.
    pub(crate) fn splits_cells(&self, b: [f64; 4]) -> bool {
        let off = |v: f64, o: f32, inv: f32| {
            // the distance to the nearest whole cell, without libm's round
            let k = (v - o as f64) * inv as f64;
            let f = (k - k as i64 as f64).abs();
            f.min(1.0 - f) > 1e-3
        };
        off(b[0], self.ox, self.inv_gx) || off(b[1], self.ox, self.inv_gx) || off(b[2], self.oy, self.inv_gy) || off(b[3], self.oy, self.inv_gy)
    }
}

/// The length of `[lo, hi]` inside device pixel `[p, p + 1]` of an axis whose canvas
/// cells of size `g` start at `o`, as the canvas spreads it ([`CanvasGrid::spread_area`]).
#[inline(always)]
fn spread_len(lo: f32, hi: f32, o: f32, g: f32, inv_g: f32, p: f32) -> f32 {
    if !(hi > lo) {
        return 0.0;
    }
    // (the canvas pixels of the two ends lie wholly inside or outside the device
    // pixel unless an end is within a canvas pixel of one of its edges)
    let near = |e: f32| (e - p).abs() < g || (e - p - 1.0).abs() < g;
    if !near(lo) && !near(hi) {
        return (hi.min(p + 1.0) - lo.max(p)).max(0.0);
    }
    let floor = |v: f32| {
        let t = v as i32;
        t - ((t as f32) > v) as i32
    };
    let (ka, kb) = (floor((lo - o) * inv_g), floor((hi - o) * inv_g));
    let cell = |k: i32| (o + k as f32 * g, o + (k + 1) as f32 * g);
    let inside = |a: f32, b: f32| (b.min(p + 1.0) - a.max(p)).max(0.0);
    let (a0, a1) = cell(ka);
    if ka == kb {
        return inside(a0, a1) * (hi - lo) * inv_g;
    }
    let (b0, b1) = cell(kb);
    inside(a0, a1) * (a1 - lo) * inv_g + inside(a1, b0) + inside(b0, b1) * (hi - b0) * inv_g
}

/// Along one axis, over the canvas cells that meet device pixel `[p, p + 1]`, each
/// weighted by its width inside the pixel: `(sum w a n, sum w o)`, where `a` and `n`
/// are the shares of the cell that intervals `r` and `n` cover and `o` the share both
/// do. Only the first and last of the cells that meet both intervals can be partly
/// covered; those between lie inside both (`a = n = o = 1`) and add their width.
#[inline(always)]
fn cell_products(r: [f32; 2], n: [f32; 2], p: f32, g: f32, inv_g: f32, o: f32) -> (f32, f32) {
    let (lo, hi) = (r[0].max(n[0]), r[1].min(n[1]));
    if lo <= p - g && hi >= p + 1.0 + g {
        // every cell that meets the pixel lies inside both (the common case along an
        // edge of the other axis)
        return (1.0, 1.0);
    }
    // the cells k with o + k g < hi and o + (k + 1) g > lo; floor without libm (the
    // values are device pixels over a cell size, far inside i32)
    let floor = |v: f32| {
        let t = v as i32;
        t - ((t as f32) > v) as i32
    };
    let k0 = floor((lo - o) * inv_g);
    let k1 = -floor((o - hi) * inv_g) - 1;
    if k1 < k0 {
        return (0.0, 0.0);
    }
    let span = |c0: f32, c1: f32, a: f32, b: f32| (c1.min(b) - c0.max(a)).max(0.0);
    let cell = |k: i32| {
        let c0 = o + k as f32 * g;
        let c1 = c0 + g;
        let w = span(c0, c1, p, p + 1.0) * inv_g;
        let (a, b) = (span(c0, c1, r[0], r[1]), span(c0, c1, n[0], n[1]));
        (w * a * b * inv_g, w * span(c0, c1, lo, hi))
    };
    let (mut s, mut so) = cell(k0);
    if k1 > k0 {
        let (s1, o1) = cell(k1);
        let inner = span(o + (k0 + 1) as f32 * g, o + k1 as f32 * g, p, p + 1.0);
        s += s1 + inner;
        so += o1 + inner;
    }
    (s, so)
}

/// How much of the first shape's area the browser shows as background in device pixel
/// `(px, py)`, beyond the exact union of an opaque rectangle `r` drawn first and `n`
/// drawn over it: the browser anti-aliases each shape at canvas resolution, so in a
/// canvas pixel that both cover partly (coverages `a`, `n`, overlap `o`) the second
/// blends over the first's blend with the background, which shows `r`'s colour on
/// `a - o - (a - a n)` less of the pixel and the background on as much more: `a n - o`
/// (a faint seam along an edge they share inside a canvas pixel; negative where they
/// overlap there, as a rectangle drawn again over the same fractional edge lets the
/// one below show). Summed over the pixel's canvas cells, as the area average down to
/// the observation sums them; separable for rectangles. Device boxes are
/// `[x0, x1, y0, y1]`.
pub(crate) fn canvas_conflation(g: &CanvasGrid, r: [f32; 4], n: [f32; 4], px: f32, py: f32) -> f32 {
    canvas_blend(g, r, n, px, py).0
}

/// [`canvas_conflation`] and the area of the overlap of `r` and `n` in the pixel as
/// the canvas spreads it ([`CanvasGrid::spread_area`] of their intersection), which
/// its sums give on the way.
pub(crate) fn canvas_blend(g: &CanvasGrid, r: [f32; 4], n: [f32; 4], px: f32, py: f32) -> (f32, f32) {
    if !(g.gx > 0.0 && g.gy > 0.0 && g.inv_gx.is_finite() && g.inv_gy.is_finite()) {
        return (0.0, 0.0);
    }
    #[inline(always)]
    fn axis(last: &std::cell::Cell<([f32; 5], (f32, f32))>, key: [f32; 5], gap: f32, inv: f32, o: f32) -> (f32, f32) {
        let (k, v) = last.get();
        if k == key {
            return v;
        }
        let v = cell_products([key[0], key[1]], [key[2], key[3]], key[4], gap, inv, o);
        last.set((key, v));
        v
    }
    let (sx, ox) = axis(&g.last_x, [r[0], r[1], n[0], n[1], px], g.gx, g.inv_gx, g.ox);
    if sx == 0.0 && ox == 0.0 {
        return (0.0, 0.0);
    }
    let (sy, oy) = axis(&g.last_y, [r[2], r[3], n[2], n[3], py], g.gy, g.inv_gy, g.oy);
    (sx * sy - ox * oy, ox * oy)
}

impl MaskRec {
    /// A translucent shape of colour `col` and effective alpha `a` (its alpha times
    /// its coverage) blended over the whole pixel, which now holds `result`: every
    /// region and the base take the same share of it.
    fn tint(&mut self, col: [f32; 3], a: f32, result: [u8; 3]) {
        let a = a.clamp(0.0, 1.0);
        for r in &mut self.regions[..self.n as usize] {
            r.col = [0, 1, 2].map(|ch| {
                let c = r.col[ch] as f32;
                (c + (col[ch] - c) * a + 0.5).clamp(0.0, 255.0) as u8
            });
        }
        for ch in 0..3 {
            self.base[ch] += (col[ch] - self.base[ch]) * a;
        }
        self.result = result;
    }

    /// Whether regions apart from a new shape's samples `mask` fill the pixel with it
    /// (but for a sample or two): they meet it along its edges.
    #[inline(always)]
    fn meets_apart(&self, mask: u64) -> bool {
        let regions = &self.regions[..self.n as usize];
        // (a region the new shape covers only partly lies on both sides of its edge
        // there: the edge crosses that region's inside, not a seam)
        if regions.iter().any(|r| r.mask & mask != 0 && r.mask & !mask != 0) {
            return false;
        }
        let apart = regions.iter().filter(|r| r.mask != 0 && r.mask & mask == 0).fold(0u64, |a, r| a | r.mask);
        apart != 0 && (apart | mask).count_ones() as usize + 2 >= MASK_SIDE * MASK_SIDE
    }

    /// Composites an opaque region of colour `col`, exact area `cov` and samples
    /// `mask` over the record (resolved: see [`MaskRec::resolve`]); returns the pixel
    /// and updates the record. `density`: the share of each of its samples the region
    /// covers (1 where the samples are the shape's; less where they are its box's and
    /// the shape covers `cov` of the box's area, as a rounded corner does).
    ///
    /// `rect`: the new region's device box and the canvas grid when it is an axis-aligned
    /// rectangle; what the browser's canvas-resolution blending lets through between it
    /// and the earlier rectangles ([`canvas_conflation`]) then shows the base.
    ///
    /// `seam`: given where the new region is a polygon that regions apart from it fill
    /// the pixel with ([`MaskRec::meets_apart`]): they meet it along its edges and lose
    /// what the browser's canvas lets through there (`Some(area)`:
    /// [`CanvasGrid::seam_loss`]; `None`: the pixel lies in one canvas pixel, where
    /// they lose their area times its coverage).
    #[allow(clippy::too_many_arguments)]
    fn add(&mut self, mask: u64, density: f32, cov: f32, col: [u8; 3], rect: Option<NewBoxes>, seam: Option<Option<f32>>) -> [u8; 3] {
        debug_assert_eq!(self.pending, 0, "the record's samples are computed first");
        // (the region count as a constant unrolls the loops over the regions)
        match self.n {
            1 => self.add_over::<1>(mask, density, cov, col, rect, seam),
            2 => self.add_over::<2>(mask, density, cov, col, rect, seam),
            3 => self.add_over::<3>(mask, density, cov, col, rect, seam),
            4 => self.add_over::<4>(mask, density, cov, col, rect, seam),
            _ => self.add_over::<0>(mask, density, cov, col, rect, seam),
        }
    }

    /// [`MaskRec::add`] over a record of `N` regions.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn add_over<const N: usize>(&mut self, mask: u64, density: f32, cov: f32, col: [u8; 3], rect: Option<NewBoxes>, seam: Option<Option<f32>>) -> [u8; 3] {
        // each region keeps the share of its samples the new one leaves; a region too
        // thin to hold a sample is taken to lie where the new one leaves room (where a
        // neighbour's sliver along a shared edge is)
        let n = N;
        let mut kept = [0f32; MASK_REGIONS];
        let mut lost = [0f32; MASK_REGIONS];
        // regions whose hidden share is exact (their boxes), not the samples' estimate
        let mut exact = [false; MASK_REGIONS];
        let mut shown = 0f32;
        // what the base showed before, and what the seams below let through of the
        // regions: the base shows no more than that after the new shape
        let base_before = (1.0 - (0..n).map(|r| self.regions[r].area).sum::<f32>()).max(0.0);
        let mut let_through = 0f32;
        for r in 0..n {
            let Region { mask: m, area: a, .. } = self.regions[r];
            if m != 0 {
                kept[r] = a * (1.0 - density * (m & mask).count_ones() as f32 / m.count_ones() as f32);
                shown += kept[r];
            }
        }
        for r in 0..n {
            let Region { mask: m, area: a, .. } = self.regions[r];
            if m == 0 {
                kept[r] = a.min((1.0 - cov - shown).max(0.0));
                shown += kept[r];
            }
        }
        if let Some(loss) = seam {
            let total: f32 = (0..n).filter(|&r| self.regions[r].mask != 0 && self.regions[r].mask & mask == 0).map(|r| kept[r]).sum();
            if total > 0.0 {
                let loss = loss.unwrap_or(total * cov).min(total);
                for r in 0..n {
                    let m = self.regions[r].mask;
                    if m != 0 && m & mask == 0 {
                        let l = loss * kept[r] / total;
                        kept[r] -= l;
                        shown -= l;
                        let_through += l;
                    }
                }
            }
        }
        if let Some(NewBoxes { grid, boxes, at: (px, py), loss }) = rect {
            for r in 0..n {
                let rb = self.regions[r].bx;
                if rb[0] < rb[1] {
                    let a = self.regions[r].area;
                    let inside = |b: [f32; 4]| [b[0].max(px), b[1].min(px + 1.0), b[2].max(py), b[3].min(py + 1.0)];
                    let area = |b: [f32; 4]| (b[1] - b[0]).max(0.0) * (b[3] - b[2]).max(0.0);
                    let rp = inside(rb);
                    // (a band's boxes and the fill inside it come with their areas as
                    // the canvas spreads them over the pixel: so are the boxes' here)
                    let spread = loss != Loss::ToBase;
                    // (the box's plain area where that already makes it whole: the two
                    // differ only where a canvas pixel it covers in part is cut by the
                    // pixel's edge)
                    let plain = area(rp);
                    let ar = if spread && (a + self.regions[r].conflated - plain).abs() > 1e-3 { grid.spread_area(rb, px, py) } else { plain };
                    // only a region that still shows its whole box (but for what it
                    // lost to conflation): one partly hidden by a later shape no longer
                    // blends as its box says
                    let lost_before = self.regions[r].conflated;
                    if ar > 0.0 && (a + lost_before - ar).abs() <= 1e-3 {
                        exact[r] = true;
                        // boxes: the share of the region's box that the new ones (apart
                        // from each other) hide is exact, where the samples only
                        // approximate it
                        let (conflation, hidden) = match loss {
                            Loss::Nothing => {
                                // (only what they hide: the spread area of the overlap)
                                let overlap = |nb: &[f32; 4]| grid.spread_area([rb[0].max(nb[0]), rb[1].min(nb[1]), rb[2].max(nb[2]), rb[3].min(nb[3])], px, py);
                                (0.0, boxes.iter().map(overlap).sum())
                            }
                            Loss::ToNew => {
                                // (boxes that share no canvas pixel neither overlap nor blend)
                                let near = |nb: &&[f32; 4]| rb[0] < nb[1] + grid.gx && nb[0] < rb[1] + grid.gx && rb[2] < nb[3] + grid.gy && nb[2] < rb[3] + grid.gy;
                                boxes.iter().filter(near).fold((0.0, 0.0), |(c, h), nb| {
                                    let (c1, h1) = canvas_blend(grid, rb, *nb, px, py);
                                    (c + c1, h + h1)
                                })
                            }
                            Loss::ToBase => {
                                let hidden = boxes.iter().map(|nb| area([rp[0].max(nb[0]), rp[1].min(nb[1]), rp[2].max(nb[2]), rp[3].min(nb[3])])).sum();
                                (boxes.iter().map(|nb| canvas_conflation(grid, rb, *nb, px, py)).sum(), hidden)
                            }
                        };
                        let k = (a - hidden).max(0.0);
                        shown += k - kept[r];
                        kept[r] = k;
                        if loss == Loss::Nothing {
                            continue;
                        }
                        // (a region the new boxes lie over regains nothing where they
                        // show their own colour: see `Loss::ToNew`)
                        let gain = if loss == Loss::ToNew { 0.0 } else { kept[r] - a };
                        // within what the region covered before and what the pixel holds
                        let b = conflation.clamp(gain, kept[r]);
                        kept[r] -= b;
                        shown -= b;
                        lost[r] = b;
                        let_through += b;
                    }
                }
            }
        }
        // the samples only approximate what the new shape hides of each region: where
        // they took too much, the base would show through a pixel the regions filled
        let open = (1.0 - cov - base_before - let_through.max(0.0)).max(0.0);
        // The regions kept by the samples' estimate take up a shortfall, or give up
        // an excess, first: the boxes' areas are exact. True when they could.
        let estimated_first = |kept: &mut [f32; MASK_REGIONS], total: &dyn Fn(f32) -> f32| {
            let estimated: f32 = (0..n).filter(|&r| !exact[r]).map(|r| kept[r]).sum();
            let t = total(estimated);
            if !(estimated > 0.0 && t > 0.0 && exact.iter().any(|&e| e)) {
                return false;
            }
            (0..n).filter(|&r| !exact[r]).for_each(|r| kept[r] *= t / estimated);
            true
        };
        if shown < open {
            if estimated_first(&mut kept, &|e| e + open - shown) {
                // (taken up by the estimated regions)
            } else if shown > 0.0 {
                let f = open / shown;
                kept.iter_mut().for_each(|a| *a *= f);
            } else {
                // (the new shape holds every sample but not the whole area: what it
                // leaves is the regions', as they covered the pixel)
                let total: f32 = (0..n).map(|r| self.regions[r].area).sum();
                if total > 0.0 {
                    (0..n).for_each(|r| kept[r] = open * self.regions[r].area / total);
                }
            }
            shown = kept.iter().sum();
        }
        if shown > 1.0 - cov && shown > 0.0 {
            let excess = shown - (1.0 - cov).max(0.0);
            if !estimated_first(&mut kept, &|e| e - excess) {
                let f = (1.0 - cov).max(0.0) / shown;
                kept.iter_mut().for_each(|a| *a *= f);
            }
            shown = 1.0 - cov;
        }
        let mut acc = [0f32; 3];
        let mut k = 0;
        for r in 0..n {
            let Region { mask: m, col: c, .. } = self.regions[r];
            let a = kept[r];
            if a <= 1e-5 {
                continue;
            }
            for ch in 0..3 {
                acc[ch] += c[ch] as f32 * a;
            }
            // (a region partly hidden where the new one's samples only bound it still
            // shows in them)
            self.regions[k] = Region { mask: if density >= 1.0 { m & !mask } else { m }, area: a, col: c, conflated: self.regions[r].conflated + lost[r], bx: self.regions[r].bx };
            k += 1;
        }
        let mut cov = cov;
        if rect.is_some_and(|r| r.loss == Loss::ToNew) {
            // what the regions lost to the new boxes shows the new colour
            cov = (cov + let_through.max(0.0)).min((1.0 - shown).max(cov));
        }
        let rest = (1.0 - cov - shown).max(0.0);
        let mut out = [0u8; 3];
        for ch in 0..3 {
            out[ch] = (acc[ch] + self.base[ch] * rest + col[ch] as f32 * cov + 0.5).min(255.0) as u8;
        }
        if k == MASK_REGIONS {
            // the oldest region joins the base
            let Region { area: a, col: c, .. } = self.regions[0];
            if rest + a > 0.0 {
                for ch in 0..3 {
                    self.base[ch] = (self.base[ch] * rest + c[ch] as f32 * a) / (rest + a);
                }
            }
            self.regions.copy_within(1.., 0);
            k -= 1;
        }
        // (the record keeps one box per region: a region of several has none)
        let new_box = match rect {
            Some(NewBoxes { boxes: [b], .. }) => *b,
            _ => [0.0; 4],
        };
        if k > 0 && self.regions[k - 1].col == col {
            // same-coloured neighbours (a row of tiles) are one region
            let r = &mut self.regions[k - 1];
            r.mask |= mask;
            r.area += cov;
            r.bx = box_union(r.bx, new_box);
            k -= 1;
        } else {
            self.regions[k] = Region::new(mask, cov, col, new_box);
        }
        self.n = k as u8 + 1;
        self.result = out;
        out
    }
}

/// The part of the device box `[x0, x1, y0, y1]` inside pixel `(x, y)`, pixel-local
/// (empty, `x0 >= x1` or `y0 >= y1`, where it misses the pixel).
#[inline(always)]
pub(crate) fn pixel_local(b: [f64; 4], x: f64, y: f64) -> [f32; 4] {
    [(b[0] - x).max(0.0), (b[1] - x).min(1.0), (b[2] - y).max(0.0), (b[3] - y).min(1.0)].map(|v| v as f32)
}

/// The samples of the pixel-local box `[x0, x1] x [y0, y1]`.
pub(crate) fn box_mask(b: [f32; 4]) -> u64 {
    spans_mask(sample_span(b[0], b[1]), sample_span(b[2], b[3]))
}

/// The samples `i0..i1` along one axis that the pixel-local interval `[lo, hi]` holds
/// (a rectangle's columns or rows repeat a few of these: see [`spans_mask`]).
#[inline(always)]
pub(crate) fn sample_span(lo: f32, hi: f32) -> (u32, u32) {
    let side = MASK_SIDE as f32;
    (ceil_index_f32(lo * side - 0.5), ceil_index_f32(hi * side - 0.5))
}

/// [`box_mask`] of the box whose columns and rows of samples are `(i0, i1)` and
/// `(j0, j1)` ([`sample_span`]).
#[inline(always)]
pub(crate) fn spans_mask((i0, i1): (u32, u32), (j0, j1): (u32, u32)) -> u64 {
    if i1 <= i0 || j1 <= j0 {
        return 0;
    }
    let row = ((1u64 << (i1 - i0)) - 1) << i0;
    // bit 8j of `rows` for each row j in j0..j1: times `row` (below 256), the row
    // repeated on those rows without carries
    let rows = (SAMPLE_ROWS >> (MASK_SIDE * (MASK_SIDE - (j1 - j0) as usize))) << (MASK_SIDE * j0 as usize);
    row * rows
}

/// Bit `8j` for each of the 8 sample rows `j`.
const SAMPLE_ROWS: u64 = 0x0101_0101_0101_0101;
const _: () = assert!(MASK_SIDE == 8, "SAMPLE_ROWS and the u64 masks assume 8 x 8 samples");

/// The samples of pixel `(px, py)` inside every plane (`a x + b y + c > 0` in device
/// coordinates; a sample exactly on a plane belongs to the side its normal points to
/// first along x, then y, so that two polygons sharing an edge split its samples).
pub(crate) fn planes_mask(planes: &[[f64; 3]], px: f64, py: f64) -> u64 {
    const ROW: u64 = (1u64 << MASK_SIDE) - 1;
    let side = MASK_SIDE as f64;
    let mut m = !0u64;
    for &[a, b, c] in planes {
        let mut pm = 0u64;
        if a == 0.0 {
            for j in 0..MASK_SIDE {
                let row = b * (py + (j as f64 + 0.5) / side) + c;
                if row > 0.0 || (row == 0.0 && b > 0.0) {
                    pm |= ROW << (j * MASK_SIDE);
                }
            }
        } else {
            // the first sample index inside the plane on row j, u_j = u_0 + j * du (one
            // division per plane, not per row): the samples x = px + (i + 0.5) / side
            // with a x + b y_j + c > 0 are i >= ceil(u_j) when a > 0, i < ceil(u_j) else
            let inv = 1.0 / a;
            let u0 = (-(b * (py + 0.5 / side) + c) * inv - px) * side - 0.5;
            let du = -b * inv;
            // (the samples outside the plane where a < 0: inside ^ ROW is ROW & !inside)
            let flip = if a > 0.0 { 0 } else { ROW };
            let row_at = |j: usize| ((ROW << ceil_index(u0 + j as f64 * du)) & ROW) ^ flip;
            // u_j is monotonic in j (so is its rounding), and so is its ceiling: where
            // the first and last rows agree, every row does (an edge along y, or one
            // that misses the samples' columns)
            let (first, last) = (row_at(0), row_at(MASK_SIDE - 1));
            if first == last {
                pm = first * (u64::MAX / ROW);
            } else {
                for j in 0..MASK_SIDE {
                    pm |= row_at(j) << (j * MASK_SIDE);
                }
            }
        }
        m &= pm;
    }
    m
}

/// The samples of pixel `(x, y)` inside the convex polygon of `planes` (its inner
/// half-planes, at most [`MAX_MASK_EDGES`]): only the planes that can cross the pixel
/// (its centre within half a diagonal) are tested.
pub(crate) fn polygon_mask(planes: &[[f64; 3]], x: usize, y: usize) -> u64 {
    let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
    let mut m = !0u64;
    for p in planes {
        // a plane farther than that from the centre holds the whole pixel
        if p[0] * cx + p[1] * cy + p[2] < std::f64::consts::FRAC_1_SQRT_2 {
            m &= planes_mask(std::slice::from_ref(p), x as f64, y as f64);
        }
    }
    m
}

/// Planes [`Records`] keeps for pending masks before it computes them all and starts over.
const MAX_PENDING_PLANES: usize = 1 << 14;

/// `v.ceil()` clamped to `[0, MASK_SIDE]` (NaN gives 0): a sample index without a
/// libm call, which `f64::ceil` is on baseline x86-64, and without the checks of a
/// saturating conversion.
#[inline(always)]
fn ceil_index(v: f64) -> u32 {
    // max before min: NaN becomes -1
    let v = v.max(-1.0).min(MASK_SIDE as f64);
    // SAFETY: v is finite and within [-1, MASK_SIDE]
    let t = unsafe { v.to_int_unchecked::<i32>() };
    (if (t as f64) < v { t + 1 } else { t }).max(0) as u32
}

/// [`ceil_index`] of an `f32`.
#[inline(always)]
fn ceil_index_f32(v: f32) -> u32 {
    let v = v.max(-1.0).min(MASK_SIDE as f32);
    // SAFETY: as in ceil_index
    let t = unsafe { v.to_int_unchecked::<i32>() };
    (if (t as f32) < v { t + 1 } else { t }).max(0) as u32
}

/// The records of the current epoch (since the last opaque `background()` /
/// `clear()`), kept apart from the pixel grid: a grid of 4-byte slots says which
/// record, if any, is a pixel's, and the records themselves lie in the order they
/// were made. A frame touches few edge pixels, so its records stay in cache where a
/// full grid of records (72 bytes a pixel, 300 KB for 64x64) would not; a new epoch
/// is `clear()`, and a snapshot copies only the live records.
///
/// A slot is trusted only when it points at a record made for its own pixel, so slots
/// left over from earlier epochs need no clearing.
#[derive(Debug, Default)]
pub(crate) struct Records {
    slot: Vec<u32>,
    /// The records are `recs[..len]`; the rest is storage kept for reuse, so that a
    /// new record writes only the fields it uses (a record reads regions `..n` only).
    recs: Vec<MaskRec>,
    len: usize,
    /// Records kept before dead ones (retired, or replaced by a restore) are dropped.
    cap: usize,
    /// Pixels a row.
    width: usize,
    /// The inner half-planes of this epoch's convex polygons whose records may still
    /// have pending masks ([`MaskRec::pending`]).
    planes: Vec<[f64; 3]>,
    /// The canvas's pixels on the device, for [`canvas_conflation`].
    grid: CanvasGrid,
    /// The last rectangle composited through a record where the pixel's column did
    /// not matter ([`RectAdd`]).
    last_add: Option<RectAdd>,
    /// The last plain blend ([`Records::start`]): the pixel, the coverage's bits and
    /// the colour, and the result.
    last_blend: (([u8; 3], u32, [u8; 3]), [u8; 3]),
    /// This epoch's [`Run`]s (a slot `RUN | (k + 1)` names `runs[k]`).
    runs: Vec<Run>,
    run_store: RunStore,
    /// The records of the last snapshot ([`Records::set_base`]), their masks computed,
    /// each named by its pixel's slot as `BASE | (k + 1)` for `base[k]`: an epoch
    /// restored from the snapshot ([`Records::restore_base`]) writes those slots only,
    /// and a record is copied in when its pixel is first looked up, as a run's is.
    base: Vec<MaskRec>,
    /// The pixels of `base`'s records, in order: naming them again each frame reads
    /// these words, not a cache line of each record.
    base_pixels: Vec<u32>,
    /// The slots may name base records (this epoch was restored from the base).
    base_live: bool,
}

impl Run {
    /// The record the blend of `pixel` (one of the run's) made; `store`: the epoch's,
    /// `w` pixels a row.
    #[inline(always)]
    fn record(&self, store: &RunStore, pixel: usize, w: usize) -> MaskRec {
        match self.kind {
            RunKind::Shared(k) => MaskRec { pixel: pixel as u32, ..store.shared[k as usize] },
            RunKind::Plain { mask, cov, col, rect, base } => {
                let b = base as usize + 3 * (pixel % w - self.x0 as usize);
                let cur = [store.bases[b], store.bases[b + 1], store.bases[b + 2]];
                let mut rec = MaskRec { pixel: pixel as u32, result: self.result(store, pixel, w), n: 1, base: cur.map(|v| v as f32), ..MaskRec::default() };
                rec.regions[0] = Region::new(mask, cov, col, rect);
                rec
            }
        }
    }

    /// What the run made of `pixel` (one of its).
    #[inline(always)]
    fn result(&self, store: &RunStore, pixel: usize, w: usize) -> [u8; 3] {
        match self.kind {
            RunKind::Shared(k) => store.shared[k as usize].result,
            RunKind::Plain { base, .. } => {
                let b = base as usize + 3 * (pixel % w - self.x0 as usize);
                [store.results[b], store.results[b + 1], store.results[b + 2]]
            }
        }
    }
}

/// What this epoch's [`Run`]s keep beyond themselves.
#[derive(Debug, Default)]
struct RunStore {
    /// What the pixels of plain runs held before them and what they made of them.
    bases: Vec<u8>,
    results: Vec<u8>,
    /// The records of shared runs.
    shared: Vec<MaskRec>,
}

impl RunStore {
    fn clear(&mut self) {
        self.bases.clear();
        self.results.clear();
        self.shared.clear();
    }
}

/// Tags a slot that names a [`Run`] rather than a record.
const RUN: u32 = 1 << 31;

/// Tags a slot that names a base record ([`Records::set_base`]) not copied in yet.
const BASE: u32 = 1 << 30;

/// Pixels of one row whose records an opaque rectangle made alike, kept as one entry
/// instead of a record each (most are never composited over again; a pixel's record
/// is made from it when it is looked up, [`Records::index_holding`]): the columns a
/// rectangle covers whole in a row it covers partly, blended plainly (none holding a
/// usable record) or composited through records that were the same but for their
/// pixel.
#[derive(Clone, Copy, Debug)]
struct Run {
    y: u32,
    x0: u32,
    x1: u32,
    kind: RunKind,
}

#[derive(Clone, Copy, Debug)]
enum RunKind {
    /// Every pixel's record is `RunStore::shared[k]` but for its pixel.
    Shared(u32),
    /// Blended plainly over pixels of different values: each pixel's record has the
    /// rectangle's samples, area, colour and box, and the pixel's values before and
    /// after from `RunStore::bases` and `results` (RGB, `x0..x1`, from `base`).
    Plain { mask: u64, cov: f32, col: [u8; 3], rect: [f32; 4], base: u32 },
}

/// A record a rectangle was composited through, the record it became and the
/// rectangle's line, samples, area, colour and device box. Along a row of an opaque
/// rectangle the edge pixels' records are often the same (made by the same shapes
/// before) but for their pixel; where every box involved spans the pixel's column
/// and a canvas cell either side, [`MaskRec::add`] does not depend on the column
/// ([`MaskRec::spans_cells`]), so such a pixel takes the last result instead. Down a
/// rectangle's left or right edge the same holds of rows.
#[derive(Clone, Copy, Debug)]
struct RectAdd {
    line: Line,
    mask: u64,
    cov: f32,
    col: [u8; 3],
    rect: [f32; 4],
    before: MaskRec,
    after: MaskRec,
}

/// The row, or the column, along which a [`RectAdd`]'s result holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    Row(usize),
    Column(usize),
}

impl Records {
    /// Sizes the slot grid for `pixels` pixels (dropping every record when it changes).
    #[inline]
    pub(crate) fn ensure(&mut self, width: usize, pixels: usize) {
        if self.slot.len() != pixels || self.width != width {
            self.slot = vec![0; pixels];
            self.len = 0;
            self.planes.clear();
            self.runs.clear();
            self.run_store.clear();
            self.cap = pixels.max(1024);
            self.width = width;
            self.base.clear();
            self.base_pixels.clear();
            self.base_live = false;
        }
    }

    /// Retires every record (a new epoch).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.planes.clear();
        self.runs.clear();
        self.run_store.clear();
        self.base_live = false;
    }

    /// Where the canvas's pixels lie on the device.
    pub(crate) fn set_grid(&mut self, grid: CanvasGrid) {
        self.grid = grid;
        self.last_add = None;
    }

    pub(crate) fn grid(&self) -> &CanvasGrid {
        &self.grid
    }

    /// Keeps the inner half-planes of a convex polygon (at most [`MAX_MASK_EDGES`])
    /// for the pending masks of the records it starts; returns their code for
    /// [`Records::composite_polygon`].
    pub(crate) fn polygon(&mut self, planes: &[[f64; 3]]) -> u32 {
        debug_assert!(planes.len() <= MAX_MASK_EDGES);
        if self.planes.len() + planes.len() > MAX_PENDING_PLANES {
            self.resolve_all();
        }
        let code = (self.planes.len() as u32 + 1) << 7 | planes.len() as u32;
        self.planes.extend_from_slice(planes);
        code
    }

    /// [`Records::polygon`] for the polygon (`planes`) of an ellipse (`form`): its
    /// samples are computed from the form, a row of samples at a time, where each of
    /// its many planes would be tested; the planes still give
    /// [`CanvasGrid::seam_loss`].
    pub(crate) fn ellipse(&mut self, planes: &[[f64; 3]], form: &EllipseForm) -> u32 {
        debug_assert!(planes.len() <= MAX_MASK_EDGES);
        if self.planes.len() + planes.len() + FORM_ENTRIES > MAX_PENDING_PLANES {
            self.resolve_all();
        }
        let code = ELLIPSE | (self.planes.len() as u32 + 1) << 7 | planes.len() as u32;
        self.planes.extend_from_slice(planes);
        self.planes.extend_from_slice(&form.entries());
        code
    }

    /// Computes every pending mask and forgets the kept planes.
    fn resolve_all(&mut self) {
        let (planes, width) = (&self.planes, self.width);
        self.recs[..self.len].iter_mut().for_each(|r| r.resolve(planes, width));
        self.planes.clear();
    }

    /// The record of `pixel` (not one of a [`Run`]'s).
    #[inline(always)]
    fn index(&self, pixel: usize) -> Option<usize> {
        let k = (*self.slot.get(pixel)? as usize).checked_sub(1)?;
        (self.recs[..self.len].get(k)?.pixel == pixel as u32).then_some(k)
    }

    /// The record of `pixel`, which holds `cur`: made from its [`Run`] when the run
    /// made `cur` (else the pixel has none to composite through).
    #[inline(always)]
    fn index_holding(&mut self, pixel: usize, cur: [u8; 3]) -> Option<usize> {
        let s = *self.slot.get(pixel)?;
        if s & RUN != 0 {
            let rec = self.run_record(s, pixel).filter(|r| r.result == cur)?;
            self.push_with(pixel, |r| *r = rec);
            return Some(self.len - 1);
        }
        if s & BASE != 0 {
            let rec = *self.base_record(s, pixel).filter(|r| r.result == cur)?;
            self.push_with(pixel, |r| *r = rec);
            return Some(self.len - 1);
        }
        self.index(pixel)
    }

    /// Whether `pixel`, which holds `cur`, has a record (or lies in a [`Run`]) that
    /// made `cur`.
    #[inline(always)]
    fn holds_record(&self, pixel: usize, cur: &[u8]) -> bool {
        let s = self.slot[pixel];
        if s & RUN != 0 {
            return self.run_of(s, pixel).is_some_and(|run| run.result(&self.run_store, pixel, self.width) == cur);
        }
        if s & BASE != 0 {
            return self.base_record(s, pixel).is_some_and(|r| r.result == cur);
        }
        self.index(pixel).is_some_and(|k| self.recs[k].result == cur)
    }

    /// The base record the base slot `s` names when it is `pixel`'s and the epoch was
    /// restored from the base.
    #[inline(always)]
    fn base_record(&self, s: u32, pixel: usize) -> Option<&MaskRec> {
        let rec = self.base.get(((s & !BASE) as usize).checked_sub(1)?)?;
        (self.base_live && rec.pixel as usize == pixel).then_some(rec)
    }

    /// Makes the live records (those of [`Records::live`], whose pending masks name this
    /// epoch's shapes) the base, and this epoch's records the base's.
    pub(crate) fn set_base(&mut self, recs: &[MaskRec]) {
        let (planes, width) = (&self.planes, self.width);
        self.base.clear();
        self.base.extend(recs.iter().filter(|r| (r.pixel as usize) < self.slot.len()).map(|r| r.resolved(planes, width)));
        self.base_pixels.clear();
        self.base_pixels.extend(self.base.iter().map(|r| r.pixel));
        // (the same records, now all in the base; no slot names an older base's)
        self.len = 0;
        self.runs.clear();
        self.run_store.clear();
        self.slot.fill(0);
        self.name_base();
    }

    /// Makes the base's records (`n` of them) those of the epoch that has none yet
    /// (just cleared): their pixels' slots name them. A slot that names a base record
    /// of its own pixel names what the base holds for it, so the others need no
    /// clearing. False (nothing done) when the base is not one of `n` records.
    pub(crate) fn restore_base(&mut self, n: usize) -> bool {
        if self.len != 0 || self.base.len() != n {
            return false;
        }
        self.name_base();
        true
    }

    fn name_base(&mut self) {
        for (k, &p) in self.base_pixels.iter().enumerate() {
            self.slot[p as usize] = BASE | (k as u32 + 1);
        }
        self.base_live = true;
    }

    /// The [`Run`] the run slot `s` names when it holds `pixel`.
    #[inline(always)]
    fn run_of(&self, s: u32, pixel: usize) -> Option<&Run> {
        let run = self.runs.get(((s & !RUN) as usize).checked_sub(1)?)?;
        let (x, y) = (pixel % self.width, pixel / self.width);
        (run.y as usize == y && (run.x0 as usize..run.x1 as usize).contains(&x)).then_some(run)
    }

    /// The record the plain blend of `pixel` in its [`Run`] (run slot `s`) made.
    fn run_record(&self, s: u32, pixel: usize) -> Option<MaskRec> {
        Some(self.run_of(s, pixel)?.record(&self.run_store, pixel, self.width))
    }

    /// Composites an opaque rectangle over pixels `x0..` of row `y` (`row`: their
    /// RGB) where it has samples `mask` and area `cov` in each: pixels in a shared
    /// [`Run`] whose result does not depend on the column once for all, those with
    /// another record through it ([`Records::composite`]), the others blended plainly;
    /// each stretch of them kept as a [`Run`]. `rect`: its device box (for the exact
    /// areas it hides and [`canvas_conflation`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn composite_row(&mut self, (x0, y): (usize, usize), row: &mut [u8], mask: u64, cov: f32, col: [u8; 3], rect: Option<[f32; 4]>) {
        let (w, n) = (self.width, row.len() / 3);
        if cov <= 0.0 || y * w + x0 + n > self.slot.len() {
            return;
        }
        let at = y * w + x0;
        let mut i = 0;
        while i < n {
            if let Some(j) = self.shared_stretch((x0, y), row, i, rect) {
                let mut rec = self.run_record(self.slot[at + i], at + i).expect("a shared run's pixel");
                let px = (x0 + i) as f32;
                let out = rec.add(mask, 1.0, cov, col, rect.as_ref().map(|b| NewBoxes::one(&self.grid, b, (px, y as f32))), None);
                crate::blend::fill_rgb(&mut row[3 * i..3 * j], out);
                self.shared_run((x0 + i, x0 + j, y), rec);
                i = j;
                continue;
            }
            if self.holds_record(at + i, &row[3 * i..3 * i + 3]) {
                self.composite(at + i, &mut row[3 * i..3 * i + 3], mask, 1.0, cov, col, rect);
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < n && !self.holds_record(at + j, &row[3 * j..3 * j + 3]) {
                j += 1;
            }
            self.plain_run((x0 + i, x0 + j, y), &mut row[3 * i..3 * j], mask, cov, col, rect);
            i = j;
        }
    }

    /// The end of the stretch of `row` (pixels from `x0` of row `y`) from pixel `i`
    /// on that lie in one shared [`Run`] and hold its result, when it is more than one
    /// pixel and adding the rectangle `rect` to its record does not depend on the
    /// column there ([`MaskRec::spans_cells`] at both ends).
    fn shared_stretch(&self, (x0, y): (usize, usize), row: &[u8], i: usize, rect: Option<[f32; 4]>) -> Option<usize> {
        let at = y * self.width + x0;
        let s = self.slot[at + i];
        if s & RUN == 0 {
            return None;
        }
        let run = self.run_of(s, at + i)?;
        let RunKind::Shared(k) = run.kind else { return None };
        let rec = &self.run_store.shared[k as usize];
        let n = (row.len() / 3).min(run.x1 as usize - x0);
        let mut j = i;
        while j < n && self.slot[at + j] == s && row[3 * j..3 * j + 3] == rec.result {
            j += 1;
        }
        let free = |x: usize| rect.map_or(true, |nb| rec.spans_cells(nb, 0, x as f32, self.grid.gx));
        (j > i + 1 && free(x0 + i) && free(x0 + j - 1)).then_some(j)
    }

    /// Keeps pixels `x0..x1` of row `y` as a [`Run`] whose records are `rec` but for
    /// their pixel.
    fn shared_run(&mut self, (x0, x1, y): (usize, usize, usize), rec: MaskRec) {
        self.keep_room();
        self.run_store.shared.push(rec);
        let k = self.run_store.shared.len() as u32 - 1;
        self.push_run(Run { y: y as u32, x0: x0 as u32, x1: x1 as u32, kind: RunKind::Shared(k) });
    }

    /// Blends pixels `x0..x1` of row `y` (`px`) plainly and keeps them as a [`Run`].
    #[allow(clippy::too_many_arguments)]
    fn plain_run(&mut self, (x0, x1, y): (usize, usize, usize), px: &mut [u8], mask: u64, cov: f32, col: [u8; 3], rect: Option<[f32; 4]>) {
        let rect = rect.unwrap_or([0.0; 4]);
        let first = [px[0], px[1], px[2]];
        if px.chunks_exact(3).all(|p| p == first) {
            let mut result = first;
            crate::blend::blend_opaque(&mut result, col, cov);
            crate::blend::fill_rgb(px, result);
            let mut rec = MaskRec { result, n: 1, base: first.map(|v| v as f32), ..MaskRec::default() };
            rec.regions[0] = Region::new(mask, cov, col, rect);
            self.shared_run((x0, x1, y), rec);
            return;
        }
        self.keep_room();
        let store = &mut self.run_store;
        let base = store.bases.len() as u32;
        store.bases.extend_from_slice(px);
        crate::blend::blend_opaque_run(px, col, cov);
        store.results.extend_from_slice(px);
        self.push_run(Run { y: y as u32, x0: x0 as u32, x1: x1 as u32, kind: RunKind::Plain { mask, cov, col, rect, base } });
    }

    /// Makes `run` the [`Run`] of its pixels.
    fn push_run(&mut self, run: Run) {
        self.runs.push(run);
        let tag = RUN | self.runs.len() as u32;
        let at = run.y as usize * self.width;
        self.slot[at + run.x0 as usize..at + run.x1 as usize].fill(tag);
    }

    /// Bounds what [`Run`]s keep: an epoch drawn over for long, without
    /// `background()`, turns the pixels still in runs into records and drops the runs.
    fn keep_room(&mut self) {
        if self.runs.len() >= self.slot.len() || self.run_store.bases.len() >= 3 * self.slot.len() {
            self.runs_to_records();
        }
    }

    /// Makes the records of the pixels still in [`Run`]s and drops the runs.
    fn runs_to_records(&mut self) {
        let (mut runs, mut store) = (std::mem::take(&mut self.runs), std::mem::take(&mut self.run_store));
        for (k, run) in runs.iter().enumerate() {
            let tag = RUN | (k as u32 + 1);
            for x in run.x0 as usize..run.x1 as usize {
                let pixel = run.y as usize * self.width + x;
                if self.slot[pixel] == tag {
                    let rec = run.record(&store, pixel, self.width);
                    self.push_with(pixel, |r| *r = rec);
                }
            }
        }
        runs.clear();
        store.clear();
        (self.runs, self.run_store) = (runs, store);
    }

    /// Retires the record of `pixel`.
    #[inline(always)]
    pub(crate) fn forget(&mut self, pixel: usize) {
        if let Some(s) = self.slot.get_mut(pixel) {
            *s = 0;
        }
    }

    /// Retires the records of the pixels of `r` (`w` pixels a row).
    pub(crate) fn forget_rect(&mut self, w: usize, r: PixRect) {
        if self.slot.is_empty() {
            return;
        }
        for y in r.y0 as usize..r.y1 as usize {
            self.slot[y * w + r.x0 as usize..y * w + r.x1 as usize].fill(0);
        }
    }

    /// Makes `rec` its pixel's record.
    #[inline]
    pub(crate) fn put(&mut self, rec: MaskRec) {
        let pixel = rec.pixel as usize;
        if pixel >= self.slot.len() {
            return;
        }
        match self.index(pixel) {
            Some(k) => self.recs[k] = rec,
            None => self.push(rec),
        }
    }

    /// Appends `rec`, a record of a pixel that has none.
    #[inline]
    fn push(&mut self, rec: MaskRec) {
        self.push_with(rec.pixel as usize, |r| *r = rec);
    }

    /// Appends a record for `pixel` (which has none), written by `fill` over storage
    /// that may hold an old record.
    #[inline(always)]
    fn push_with(&mut self, pixel: usize, fill: impl FnOnce(&mut MaskRec)) {
        if self.len >= self.cap {
            self.compact();
        }
        if self.len == self.recs.len() {
            self.recs.push(MaskRec::default());
        }
        fill(&mut self.recs[self.len]);
        self.len += 1;
        self.slot[pixel] = self.len as u32;
    }

    /// Drops the records no slot points at.
    fn compact(&mut self) {
        let mut n = 0;
        for k in 0..self.len {
            let p = self.recs[k].pixel as usize;
            if self.slot[p] as usize == k + 1 {
                self.recs[n] = self.recs[k];
                self.slot[p] = n as u32 + 1;
                n += 1;
            }
        }
        self.len = n;
        self.cap = (2 * n).max(self.slot.len()).max(1024);
    }

    /// The live records (those of [`Run`]s after the others), their masks pending where they
    /// are (computed from [`Records::pending_shapes`]).
    pub(crate) fn live(&self) -> impl Iterator<Item = MaskRec> + '_ {
        let recs = self.recs[..self.len].iter().enumerate().filter(|(k, r)| self.slot[r.pixel as usize] as usize == k + 1).map(|(_, r)| *r);
        let runs = self.runs.iter().enumerate().flat_map(move |(k, run)| {
            let tag = RUN | (k as u32 + 1);
            let row = run.y as usize * self.width;
            (row + run.x0 as usize..row + run.x1 as usize).filter(move |&p| self.slot[p] == tag).map(move |p| run.record(&self.run_store, p, self.width))
        });
        let base = self.base.iter().enumerate().filter(move |(k, r)| self.base_live && self.slot[r.pixel as usize] == BASE | (*k as u32 + 1)).map(|(_, r)| *r);
        recs.chain(runs).chain(base)
    }

    /// The shapes the pending masks of this epoch's records name.
    pub(crate) fn pending_shapes(&self) -> &[[f64; 3]] {
        &self.planes
    }

    /// Makes `shapes` the pending shapes of the epoch (a fresh one, whose records are
    /// put back from a snapshot that kept them).
    pub(crate) fn set_pending_shapes(&mut self, shapes: &[[f64; 3]]) {
        self.planes.clear();
        self.planes.extend_from_slice(shapes);
    }

    /// [`Records::composite`] for a convex polygon ([`Records::polygon`]'s `code`):
    /// its samples of the pixel are computed only when the pixel has a record to
    /// composite through.
    #[inline(always)]
    pub(crate) fn composite_polygon(&mut self, (x, y): (usize, usize), px: &mut [u8], code: u32, cov: f32, col: [u8; 3]) {
        let pixel = y * self.width + x;
        let cur = [px[0], px[1], px[2]];
        match self.usable(pixel, cur) {
            Ok(k) => {
                let (planes, rec) = (&self.planes, &mut self.recs[k]);
                let own = pending_planes(planes, code);
                let mask = pending_mask(planes, code, x, y);
                let (xf, yf) = (x as f64, y as f64);
                // (only where it applies: the edges' loss costs a pass over the planes)
                let seam = rec.meets_apart(mask).then(|| self.grid.seam_loss(own, xf, yf).map(|v| v as f32));
                let out = rec.add(mask, 1.0, cov, col, None, seam);
                px.copy_from_slice(&out);
            }
            Err(k) => self.start(k, pixel, px, cur, 0, code, cov, col, None),
        }
    }

    /// A translucent shape covering `cov` of `pixel` (`px`, its RGB) with samples
    /// `mask`; `over` gives the shape's colour over a colour beneath it, `plain`
    /// blends it into the pixel by its coverage. Where the pixel's record holds
    /// regions only apart from those samples, the shape lies over the record's base
    /// alone there and composites as an opaque shape of its colour over the base, so
    /// that translucent neighbours sharing an edge (tiles with alpha) keep their
    /// areas. Elsewhere (over a region, or a sliver holding no sample) it blends
    /// plainly and tints the record's regions and base alike, which keeps the record:
    /// a translucent outline along a tile's edge then leaves the next tile drawn over
    /// its outer half a record to hide what it covers by area. A pixel without a
    /// record starts one whose region is the shape over what the pixel held.
    pub(crate) fn composite_translucent(&mut self, pixel: usize, px: &mut [u8], mask: u64, cov: f32, paint: &Paint) {
        let over = |beneath: [u8; 3]| {
            let mut p = beneath;
            paint.blend_cov(&mut p, 1.0);
            p
        };
        let cur = [px[0], px[1], px[2]];
        match self.usable(pixel, cur) {
            Ok(k) => {
                let rec = &mut self.recs[k];
                if mask != 0 && rec.regions[..rec.n as usize].iter().all(|r| r.mask & mask == 0) {
                    let base = rec.base.map(|v| (v + 0.5).min(255.0) as u8);
                    let out = rec.add(mask, 1.0, cov, over(base), None, None);
                    px.copy_from_slice(&out);
                } else {
                    paint.blend_cov(px, cov);
                    rec.tint(paint.colour(), paint.alpha() * cov, [px[0], px[1], px[2]]);
                }
            }
            Err(k) => {
                paint.blend_cov(px, cov);
                self.begin(k, pixel, cur, [px[0], px[1], px[2]], mask, 0, cov, over(cur), None);
            }
        }
    }

    /// The samples of a translucent shape (`mask`) over `pixel` (`px`, its RGB) with
    /// which [`Records::composite_translucent`] keeps its area in the record exactly:
    /// those apart from the record's regions, when the shape lies over the record's
    /// base (but for a sample or two, where its edge and a region's meet on one line
    /// computed twice) or the pixel has no record to keep; `None` where it lies over
    /// a region, which the record can only tint with the whole pixel.
    pub(crate) fn translucent_apart(&mut self, pixel: usize, px: &[u8], mask: u64) -> Option<u64> {
        match self.usable(pixel, [px[0], px[1], px[2]]) {
            Ok(k) => {
                let rec = &self.recs[k];
                let taken = rec.regions[..rec.n as usize].iter().fold(0u64, |a, r| a | r.mask);
                let apart = mask & !taken;
                ((mask & taken).count_ones() <= 2).then_some(apart)
            }
            Err(_) => Some(mask),
        }
    }

    /// Composites an opaque shape of colour `col` covering `cov` of `pixel` (`px`, its
    /// RGB), with samples `mask` there (covering `density` of each: see
    /// [`MaskRec::add`]): through the pixel's record when the pixel still holds what
    /// the record made, else as the plain blend, which starts a record. `rect`: the
    /// shape's device box when it is an axis-aligned rectangle.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn composite(&mut self, pixel: usize, px: &mut [u8], mask: u64, density: f32, cov: f32, col: [u8; 3], rect: Option<[f32; 4]>) {
        let cur = [px[0], px[1], px[2]];
        let k = match self.usable(pixel, cur) {
            Ok(k) => k,
            Err(k) => return self.start(k, pixel, px, cur, mask, 0, cov, col, rect),
        };
        let rec = &mut self.recs[k];
        let (x, y) = (pixel % self.width, pixel / self.width);
        let Some(nb) = rect.filter(|_| density >= 1.0) else {
            let out = rec.add(mask, density, cov, col, rect.as_ref().map(|b| NewBoxes::one(&self.grid, b, (x as f32, y as f32))), None);
            px.copy_from_slice(&out);
            return;
        };
        let line = if rec.spans_cells(nb, 0, x as f32, self.grid.gx) {
            Some(Line::Row(y))
        } else if rec.spans_cells(nb, 1, y as f32, self.grid.gy) {
            Some(Line::Column(x))
        } else {
            None
        };
        if let Some(last) = self.last_add.as_ref().filter(|l| Some(l.line) == line && l.mask == mask && l.cov.to_bits() == cov.to_bits() && l.col == col && l.rect.map(f32::to_bits) == nb.map(f32::to_bits) && l.before.same_as(rec)) {
            *rec = MaskRec { pixel: pixel as u32, ..last.after };
            px.copy_from_slice(&rec.result);
            return;
        }
        let Some(line) = line else {
            let out = rec.add(mask, 1.0, cov, col, Some(NewBoxes::one(&self.grid, &nb, (x as f32, y as f32))), None);
            px.copy_from_slice(&out);
            self.last_add = None;
            return;
        };
        let before = *rec;
        let out = rec.add(mask, 1.0, cov, col, Some(NewBoxes::one(&self.grid, &nb, (x as f32, y as f32))), None);
        px.copy_from_slice(&out);
        self.last_add = Some(RectAdd { line, mask, cov, col, rect: nb, before, after: *rec });
    }

    /// [`Records::composite`] of an opaque region that is the union of the device
    /// `boxes` (apart from each other), whose canvas-resolution blend with the earlier
    /// boxes of the pixel's record goes where `loss` says.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn composite_boxes(&mut self, pixel: usize, px: &mut [u8], mask: u64, cov: f32, col: [u8; 3], boxes: &[[f32; 4]], loss: Loss) {
        let cur = [px[0], px[1], px[2]];
        let k = match self.usable(pixel, cur) {
            Ok(k) => k,
            Err(k) => return self.start(k, pixel, px, cur, mask, 0, cov, col, if let [b] = boxes { Some(*b) } else { None }),
        };
        let at = ((pixel % self.width) as f32, (pixel / self.width) as f32);
        let out = self.recs[k].add(mask, 1.0, cov, col, Some(NewBoxes { grid: &self.grid, boxes, at, loss }), None);
        px.copy_from_slice(&out);
        self.last_add = None;
    }

    /// The record of `pixel` that made what the pixel holds (`cur`), its samples
    /// computed; else the pixel's stale record, if it has one, to start over.
    #[inline(always)]
    fn usable(&mut self, pixel: usize, cur: [u8; 3]) -> Result<usize, Option<usize>> {
        match self.index_holding(pixel, cur) {
            Some(k) if self.recs[k].result == cur => {
                let (planes, width) = (&self.planes, self.width);
                self.recs[k].resolve(planes, width);
                Ok(k)
            }
            k => Err(k),
        }
    }

    /// The plain blend of an opaque shape over a pixel without a usable record (`k`:
    /// its stale one), which starts the pixel's record.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn start(&mut self, k: Option<usize>, pixel: usize, px: &mut [u8], cur: [u8; 3], mask: u64, pending: u32, cov: f32, col: [u8; 3], rect: Option<[f32; 4]>) {
        // (along an edge the pixels beneath are mostly of one colour)
        let key = (cur, cov.to_bits(), col);
        let out = if self.last_blend.0 == key {
            self.last_blend.1
        } else {
            let mut out = cur;
            crate::blend::blend_opaque(&mut out, col, cov);
            self.last_blend = (key, out);
            out
        };
        px.copy_from_slice(&out);
        self.begin(k, pixel, cur, out, mask, pending, cov, col, rect);
    }

    /// Starts the record of `pixel` (`k`: its stale one) for a shape of colour `col`,
    /// area `cov` and samples `mask` (or pending code `pending`) that made `out` of
    /// `cur`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn begin(&mut self, k: Option<usize>, pixel: usize, cur: [u8; 3], out: [u8; 3], mask: u64, pending: u32, cov: f32, col: [u8; 3], rect: Option<[f32; 4]>) {
        let fill = |r: &mut MaskRec| {
            r.pixel = pixel as u32;
            r.result = out;
            r.n = 1;
            r.base = cur.map(|v| v as f32);
            r.pending = pending;
            r.regions[0] = Region::new(mask, cov, col, rect.unwrap_or([0.0; 4]));
        };
        match k {
            Some(k) => fill(&mut self.recs[k]),
            None if pixel < self.slot.len() => self.push_with(pixel, fill),
            None => {}
        }
    }
}

/// The planes a pending code of [`Records::polygon`] (or [`Records::ellipse`]) names.
#[inline(always)]
fn pending_planes(planes: &[[f64; 3]], code: u32) -> &[[f64; 3]] {
    let (start, len) = (((code & !ELLIPSE) >> 7) as usize - 1, (code & 127) as usize);
    &planes[start..start + len]
}

/// The samples of pixel `(x, y)` inside the shape a pending code names.
#[inline(always)]
fn pending_mask(planes: &[[f64; 3]], code: u32, x: usize, y: usize) -> u64 {
    let own = pending_planes(planes, code);
    if code & ELLIPSE != 0 {
        let start = ((code & !ELLIPSE) >> 7) as usize - 1 + own.len();
        return EllipseForm::from_entries(&planes[start..start + FORM_ENTRIES]).mask(x, y);
    }
    polygon_mask(own, x, y)
}

/// Tags a pending code of [`Records::ellipse`].
const ELLIPSE: u32 = 1 << 31;

/// Entries of `[f64; 3]` an [`EllipseForm`] takes after its polygon's planes.
pub(crate) const FORM_ENTRIES: usize = 2;

/// The ellipse `a X^2 + 2 b X Y + c Y^2 <= 1` (`X = x - cx`, `Y = y - cy`, device
/// pixels) of the same area as the polygon drawn for it, whose samples stand for the
/// polygon's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EllipseForm {
    pub(crate) cx: f64,
    pub(crate) cy: f64,
    pub(crate) a: f64,
    pub(crate) b: f64,
    pub(crate) c: f64,
}

impl EllipseForm {
    /// The ellipse of centre `d` and conjugate semi-axes `u`, `v` scaled by `s`.
    pub(crate) fn new(d: (f64, f64), u: (f64, f64), v: (f64, f64), s: f64) -> EllipseForm {
        let det = (u.0 * v.1 - u.1 * v.0) * s * s;
        let q = 1.0 / (det * det);
        let (u, v) = ((u.0 * s, u.1 * s), (v.0 * s, v.1 * s));
        EllipseForm { cx: d.0, cy: d.1, a: (v.1 * v.1 + u.1 * u.1) * q, b: -(v.1 * v.0 + u.1 * u.0) * q, c: (v.0 * v.0 + u.0 * u.0) * q }
    }

    pub(crate) fn entries(&self) -> [[f64; 3]; FORM_ENTRIES] {
        [[self.cx, self.cy, self.a], [self.b, self.c, 0.0]]
    }

    pub(crate) fn from_entries(e: &[[f64; 3]]) -> EllipseForm {
        EllipseForm { cx: e[0][0], cy: e[0][1], a: e[0][2], b: e[1][0], c: e[1][1] }
    }

    /// The samples of pixel `(x, y)` inside: on each row of samples the ellipse is
    /// one span, between the roots of its quadratic in `X` (its discriminant over 4
    /// is `(b^2 - a c) Y^2 + a`).
    pub(crate) fn mask(&self, x: usize, y: usize) -> u64 {
        let side = MASK_SIDE as f64;
        if !(self.a > 0.0) {
            return 0;
        }
        let k2 = self.b * self.b - self.a * self.c;
        let scale = side / self.a;
        let (slope, base) = (-self.b * scale, (self.cx - x as f64) * side - 0.5);
        let y0 = y as f64 + 0.5 / side - self.cy;
        let mut m = 0u64;
        for j in 0..MASK_SIDE {
            let yy = y0 + j as f64 / side;
            let disc = k2 * yy * yy + self.a;
            if !(disc > 0.0) {
                continue;
            }
            // samples i at x + (i + 0.5) / side within cx + (-b Y -+ sqrt(disc)) / a
            let (mid, half) = (base + slope * yy, disc.sqrt() * scale);
            let (lo, hi) = (ceil_index(mid - half), ceil_index(mid + half));
            if hi > lo {
                m |= (((1u64 << (hi - lo)) - 1) << lo) << (j * MASK_SIDE);
            }
        }
        m
    }
}

impl MaskRec {
    /// Whether the record, but for its pixel, is `other`'s (resolved both).
    #[inline(always)]
    fn same_as(&self, other: &MaskRec) -> bool {
        let n = self.n as usize;
        let bits = |b: &[f32]| -> [u32; 4] { std::array::from_fn(|i| b.get(i).map_or(0, |v| v.to_bits())) };
        self.result == other.result
            && self.n == other.n
            && self.pending == 0
            && other.pending == 0
            && bits(&self.base) == bits(&other.base)
            && (0..n).all(|r| {
                let (a, b) = (self.regions[r], other.regions[r]);
                a.mask == b.mask && a.area.to_bits() == b.area.to_bits() && a.col == b.col && bits(&a.bx) == bits(&b.bx) && a.conflated.to_bits() == b.conflated.to_bits()
            })
    }

    /// Whether adding a rectangle of device box `nb` to the record at pixel `p` along
    /// axis `a` (0: `p` is the pixel's column; 1: its row) gives what it gives at any
    /// other `p` where this holds: the new box and every region's box span the pixel
    /// and the canvas cell (`g` device pixels) either side along that axis, so that
    /// each clips to the whole pixel there and [`canvas_conflation`] finds every cell
    /// across covered by both.
    #[inline(always)]
    fn spans_cells(&self, nb: [f32; 4], a: usize, p: f32, g: f32) -> bool {
        let spans = |b: &[f32; 4]| b[2 * a] <= p - g && b[2 * a + 1] >= p + 1.0 + g;
        spans(&nb) && self.regions[..self.n as usize].iter().all(|r| !(r.bx[0] < r.bx[1]) || spans(&r.bx))
    }

    /// Computes the first region's samples if they are pending.
    #[inline(always)]
    fn resolve(&mut self, planes: &[[f64; 3]], width: usize) {
        if self.pending != 0 {
            let (p, y) = (self.pixel as usize, self.pixel as usize / width);
            self.regions[0].mask = pending_mask(planes, self.pending, p - y * width, y);
            self.pending = 0;
        }
    }

    /// The record with its mask computed (`shapes`: those of its epoch).
    pub(crate) fn resolved(mut self, shapes: &[[f64; 3]], width: usize) -> MaskRec {
        self.resolve(shapes, width);
        self
    }

    /// The record's pixel (row-major index).
    #[inline(always)]
    pub(crate) fn pixel_index(&self) -> usize {
        self.pixel as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift generator seeded with `seed`.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Floats in `[0, 1)` from [`xorshift`]`(seed)`.
    fn unit_floats(seed: u64) -> impl FnMut() -> f32 {
        let mut next = xorshift(seed);
        move || (next() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform numbers in [0, 1) from [`xorshift`]`(seed)`.
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut next = xorshift(seed);
        move || (next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An ellipse's samples are those whose points its quadratic form holds, row
    /// spans and all, for ellipses of any rotation and pixels on their boundary; the
    /// form of conjugate semi-axes `u`, `v` holds `d + u` and `d + v` on its edge.
    #[test]
    fn ellipse_masks_are_the_samples_the_form_holds() {
        let mut next = unit_floats(0x0bad_cafe_1234_5678u64);
        let mut boundary_pixels = 0;
        for _ in 0..300 {
            let d = (10.0 + 20.0 * next() as f64, 10.0 + 20.0 * next() as f64);
            let t = std::f64::consts::TAU * next() as f64;
            let (ra, rb) = (0.5 + 6.0 * next() as f64, 0.5 + 6.0 * next() as f64);
            let (u, v) = ((ra * t.cos(), ra * t.sin()), (-rb * t.sin(), rb * t.cos()));
            let f = EllipseForm::new(d, u, v, 1.0);
            let q = |x: f64, y: f64| {
                let (xx, yy) = (x - f.cx, y - f.cy);
                f.a * xx * xx + 2.0 * f.b * xx * yy + f.c * yy * yy
            };
            assert!((q(d.0 + u.0, d.1 + u.1) - 1.0).abs() < 1e-9 && (q(d.0 + v.0, d.1 + v.1) - 1.0).abs() < 1e-9);
            let (x0, y0) = ((d.0 - 8.0) as usize, (d.1 - 8.0) as usize);
            for y in y0..y0 + 16 {
                for x in x0..x0 + 16 {
                    let m = f.mask(x, y);
                    for j in 0..MASK_SIDE {
                        for i in 0..MASK_SIDE {
                            let (sx, sy) = (x as f64 + (i as f64 + 0.5) / 8.0, y as f64 + (j as f64 + 0.5) / 8.0);
                            let v = q(sx, sy);
                            if (v - 1.0).abs() < 1e-9 {
                                continue; // on the edge: either side
                            }
                            assert_eq!(m >> (j * MASK_SIDE + i) & 1 == 1, v < 1.0, "pixel ({x}, {y}) sample ({i}, {j}): form {v}");
                        }
                    }
                    boundary_pixels += (m != 0 && m != !0u64) as usize;
                }
            }
        }
        assert!(boundary_pixels > 1000, "{boundary_pixels}");
    }

    /// canvas_conflation equals the sum over the canvas cells meeting the pixel of
    /// (cell area inside the pixel) x (a n - o), each cell's shares computed directly.
    #[test]
    fn canvas_conflation_is_the_sum_over_canvas_cells() {
        let mut next = unit_floats(0x1234_5678_9abc_def1u64);
        let span = |a0: f32, a1: f32, b0: f32, b1: f32| (a1.min(b1) - a0.max(b0)).max(0.0);
        for _ in 0..5_000 {
            let g = CanvasGrid::new(0.05 + next(), next(), 0.05 + next(), next());
            let (px, py) = (3.0f32, 4.0f32);
            // an interval of [at, at + 3] (the pixel lies at its middle)
            let mut span_at = |at: f32| {
                let (a, b) = (at + 3.0 * next(), at + 3.0 * next());
                [a.min(b), a.max(b)]
            };
            let ([r0, r1], [n0, n1]) = (span_at(2.0), span_at(2.0));
            let ([r2, r3], [n2, n3]) = (span_at(3.0), span_at(3.0));
            let (r, n) = ([r0, r1, r2, r3], [n0, n1, n2, n3]);
            let mut want = 0f64;
            for i in -10..200 {
                let (c0, c1) = (g.ox + i as f32 * g.gx, g.ox + (i + 1) as f32 * g.gx);
                let wx = span(c0, c1, px, px + 1.0);
                if wx <= 0.0 {
                    continue;
                }
                for j in -10..200 {
                    let (d0, d1) = (g.oy + j as f32 * g.gy, g.oy + (j + 1) as f32 * g.gy);
                    let wy = span(d0, d1, py, py + 1.0);
                    if wy <= 0.0 {
                        continue;
                    }
                    let cell = g.gx * g.gy;
                    let a = span(c0, c1, r[0], r[1]) * span(d0, d1, r[2], r[3]) / cell;
                    let b = span(c0, c1, n[0], n[1]) * span(d0, d1, n[2], n[3]) / cell;
                    let o = span(c0, c1, r[0].max(n[0]), r[1].min(n[1])) * span(d0, d1, r[2].max(n[2]), r[3].min(n[3])) / cell;
                    want += (wx * wy * (a * b - o)) as f64;
                }
            }
            let got = canvas_conflation(&g, r, n, px, py) as f64;
            assert!((got - want).abs() < 1e-4, "{g:?} {r:?} {n:?}: {got} vs {want}");
        }
    }

    /// Rectangles composited along rows (or down columns) of records give, pixel by
    /// pixel, what each gives computed afresh (without taking an earlier pixel's
    /// result): the pixels whose result is taken are those where it does not depend
    /// on the column (or the row).
    #[test]
    fn rectangles_along_a_row_composite_as_computed_afresh() {
        for down in [false, true] {
            rectangles_along_a_line(down);
        }
    }

    fn rectangles_along_a_line(down: bool) {
        let mut next = unit_floats(0x2545_f491_4f6c_dd1du64);
        let (w, h) = if down { (6usize, 24usize) } else { (24usize, 6usize) };
        let mut taken = 0;
        for _ in 0..300 {
            let grid = CanvasGrid::new(0.1 + 0.5 * next(), next(), 0.1 + 0.5 * next(), next());
            let mut stores = [Records::default(), Records::default()];
            let mut pixels = [vec![90u8; 3 * w * h], vec![90u8; 3 * w * h]];
            for (r, _) in stores.iter_mut().zip(0..) {
                r.ensure(w, w * h);
                r.set_grid(grid.clone());
            }
            // tiles in rows and columns with fractional edges, some sharing them,
            // in three colours
            for t in 0..12 {
                let (x0, y0) = ((next() * 10.0 * 4.0).floor() / 4.0 + next() * 0.5, (next() * 4.0).floor() + next());
                let b = [x0, x0 + 2.0 + 12.0 * next(), y0, y0 + 0.5 + 2.0 * next()];
                // (down columns: the same tiles, transposed)
                let b = if down { [b[2], b[3], b[0], b[1]] } else { b };
                let col = [[200, 40, 40], [40, 200, 40], [40, 40, 200]][t % 3];
                let (xs, ys) = ((b[0].floor() as usize)..(b[1].ceil() as usize).min(w), (b[2].floor() as usize)..(b[3].ceil() as usize).min(h));
                let order: Vec<(usize, usize)> = if down {
                    xs.flat_map(|x| ys.clone().map(move |y| (x, y))).collect()
                } else {
                    ys.flat_map(|y| xs.clone().map(move |x| (x, y))).collect()
                };
                for (x, y) in order {
                    let local = [b[0] - x as f32, b[1] - x as f32, b[2] - y as f32, b[3] - y as f32].map(|v| v.clamp(0.0, 1.0));
                    let cov = (local[1] - local[0]) * (local[3] - local[2]);
                    if cov <= 0.0 || cov >= 1.0 {
                        continue;
                    }
                    let pixel = y * w + x;
                    for (k, (store, px)) in stores.iter_mut().zip(pixels.iter_mut()).enumerate() {
                        if k == 1 {
                            store.last_add = None;
                        } else if store.last_add.is_some_and(|l| l.line == if down { Line::Column(x) } else { Line::Row(y) }) {
                            taken += 1;
                        }
                        store.composite(pixel, &mut px[3 * pixel..3 * pixel + 3], box_mask(local), 1.0, cov, col, Some(b));
                    }
                }
                assert_eq!(pixels[0], pixels[1], "{grid:?}, tile {t}");
            }
        }
        assert!(taken > 1000, "results taken from an earlier pixel of the line (down: {down}): {taken}");
    }

    /// Rows of pixels composited at once (kept as runs) give what compositing each
    /// pixel gives, over layers of rectangles, through records put back from the live
    /// ones (a snapshot), and past the point where runs are turned into records.
    #[test]
    fn rows_composited_at_once_match_pixel_by_pixel() {
        let mut next = unit_floats(0x7f4a_7c15_2545_f491u64);
        let (w, h) = (20usize, 5usize);
        let (mut shared, mut runs_kept) = (0, 0);
        for case in 0..300 {
            let grid = CanvasGrid::new(0.1 + 0.5 * next(), next(), 0.1 + 0.5 * next(), next());
            let mut stores = [Records::default(), Records::default()];
            // a background of one colour, or of stripes
            let striped = case % 3 == 0;
            let mut pixels = [vec![0u8; 3 * w * h], vec![0u8; 3 * w * h]];
            for px in pixels.iter_mut() {
                for (k, v) in px.iter_mut().enumerate() {
                    *v = if striped { ((k / 3) % 7 * 30) as u8 } else { 90 };
                }
            }
            for r in stores.iter_mut() {
                r.ensure(w, w * h);
                r.set_grid(grid.clone());
            }
            for t in 0..40 {
                if t == 30 {
                    runs_kept += stores[0].runs.len();
                    stores[0].runs_to_records();
                }
                if t == 20 {
                    // a snapshot taken and put back into a fresh epoch
                    for r in stores.iter_mut() {
                        let live: Vec<MaskRec> = r.live().collect();
                        r.clear();
                        live.into_iter().for_each(|m| r.put(m));
                    }
                }
                let (x0, y0) = ((next() * 8.0).floor() + next() * 0.5, (next() * 4.0).floor() + [0.25, 0.5, next()][t % 3]);
                let b = [x0, x0 + 3.0 + 10.0 * next(), y0, y0 + 0.5 + 2.0 * next()];
                let col = [[200, 40, 40], [40, 200, 40], [40, 40, 200]][(t / 2) % 3];
                let rect = (t % 5 != 4).then_some(b);
                let (i0, i1) = (b[0].floor() as usize + 1, (b[1].ceil() as usize - 1).min(w));
                for y in (b[2].floor() as usize)..(b[3].ceil() as usize).min(h) {
                    let (ly0, ly1) = ((b[2] - y as f32).max(0.0), (b[3] - y as f32).min(1.0));
                    if i1 <= i0 || ly1 - ly0 >= 1.0 {
                        continue;
                    }
                    let (mask, cov) = (box_mask([0.0, 1.0, ly0, ly1]), ly1 - ly0);
                    let (a, z) = (3 * (y * w + i0), 3 * (y * w + i1));
                    stores[0].composite_row((i0, y), &mut pixels[0][a..z], mask, cov, col, rect);
                    for x in i0..i1 {
                        let p = y * w + x;
                        stores[1].composite(p, &mut pixels[1][3 * p..3 * p + 3], mask, 1.0, cov, col, rect);
                    }
                }
                assert_eq!(pixels[0], pixels[1], "case {case}, rectangle {t}");
                shared += stores[0].runs.iter().filter(|r| matches!(r.kind, RunKind::Shared(_))).count();
            }
        }
        assert!(shared > 1000 && runs_kept > 100, "shared runs {shared}, runs {runs_kept}");
    }

    /// The box mask holds exactly the samples whose centres lie inside the box, the
    /// lower bounds inclusive: `lo <= (i + 0.5) / 8 < hi` on each axis.
    #[test]
    fn box_mask_is_the_samples_inside_the_box() {
        let mut next = unit_floats(0x9e37_79b9_7f4a_7c15u64);
        let side = MASK_SIDE as f32;
        for n in 0..50_000 {
            // quantised bounds half of the time, so that centres on an edge are met
            let mut v = [next(), next(), next(), next()];
            if n % 2 == 0 {
                v = v.map(|x| (x * 16.0).floor() / 16.0);
            }
            let b = [v[0].min(v[1]), v[0].max(v[1]), v[2].min(v[3]), v[2].max(v[3])];
            let got = box_mask(b);
            for j in 0..MASK_SIDE {
                for i in 0..MASK_SIDE {
                    let (x, y) = ((i as f32 + 0.5) / side, (j as f32 + 0.5) / side);
                    let want = b[0] <= x && x < b[1] && b[2] <= y && y < b[3];
                    assert_eq!(got >> (j * MASK_SIDE + i) & 1 == 1, want, "{b:?} sample {i},{j}");
                }
            }
        }
    }

    /// The shortcut for planes whose rows all start at the same sample gives the
    /// masks the row-by-row computation gives, bit for bit (edges along y, nearly
    /// along y, missing the pixel's samples, and non-finite slopes).
    #[test]
    fn planes_mask_rows_shortcut_is_the_row_by_row_mask() {
        fn row_by_row(p: [f64; 3], px: f64, py: f64) -> u64 {
            const ROW: u64 = (1u64 << MASK_SIDE) - 1;
            let side = MASK_SIDE as f64;
            let [a, b, c] = p;
            let inv = 1.0 / a;
            let u0 = (-(b * (py + 0.5 / side) + c) * inv - px) * side - 0.5;
            let du = -b * inv;
            let mut pm = 0u64;
            for j in 0..MASK_SIDE {
                let inside = (ROW << ceil_index(u0 + j as f64 * du)) & ROW;
                pm |= (if a > 0.0 { inside } else { ROW & !inside }) << (j * MASK_SIDE);
            }
            pm
        }
        let mut next = uniform(0x9e37_79b9_7f4a_7c15);
        let mut shortcut = 0;
        for k in 0..200_000 {
            let (px, py) = ((next() * 60.0).floor(), (next() * 60.0).floor());
            let (x, y) = (px + next() * 1.6 - 0.3, py + next() * 1.6 - 0.3);
            let a = if next() < 0.5 { 1.0 } else { -1.0 } * (0.05 + next());
            let b = match k % 5 {
                0 => 0.0,
                1 => -0.0,
                2 => (next() - 0.5) * 1e-3,
                _ => (next() - 0.5) * 4.0,
            };
            let p = [a, b, -(a * x + b * y)];
            let want = row_by_row(p, px, py);
            shortcut += (want == (want & 0xff) * 0x0101_0101_0101_0101) as usize;
            assert_eq!(planes_mask(&[p], px, py), want, "{p:?} at {px},{py}");
        }
        assert!(shortcut > 50_000, "the rows agree in {shortcut} cases only");
        for p in [[1e-320, 1.0, -3.0], [-1e-320, 1.0, -3.0], [1e-320, -1.0, 3.0], [f64::MIN_POSITIVE, 1.0, 0.0], [1.0, f64::NAN, 0.0], [1.0, 1.0, f64::INFINITY]] {
            assert_eq!(planes_mask(&[p], 3.0, 3.0), row_by_row(p, 3.0, 3.0), "{p:?}");
        }
    }

    /// The sample mask equals each sample's own side test `a x + b y + c > 0`, for
    /// planes at any angle (samples within 1e-9 of a plane are left out: ties follow
    /// the rule of `planes_mask`, which this test does not restate).
    #[test]
    fn planes_mask_is_the_samples_inside_every_plane() {
        let mut next = uniform(0x2545_f491_4f6c_dd1d);
        let side = MASK_SIDE as f64;
        for _ in 0..20_000 {
            let (px, py) = ((next() * 60.0).floor(), (next() * 60.0).floor());
            let n = 1 + (next() * 3.0) as usize;
            let planes: Vec<[f64; 3]> = (0..n)
                .map(|_| {
                    let t = next() * std::f64::consts::TAU;
                    let (a, b) = if next() < 0.1 { (0.0, t.cos().signum()) } else { (t.cos(), t.sin()) };
                    // through a point of the pixel
                    let (x, y) = (px + next(), py + next());
                    [a, b, -(a * x + b * y)]
                })
                .collect();
            let got = planes_mask(&planes, px, py);
            for j in 0..MASK_SIDE {
                for i in 0..MASK_SIDE {
                    let (x, y) = (px + (i as f64 + 0.5) / side, py + (j as f64 + 0.5) / side);
                    let d: Vec<f64> = planes.iter().map(|p| p[0] * x + p[1] * y + p[2]).collect();
                    if d.iter().any(|v| v.abs() < 1e-9) {
                        continue;
                    }
                    let want = d.iter().all(|&v| v > 0.0);
                    assert_eq!(got >> (j * MASK_SIDE + i) & 1 == 1, want, "{planes:?} at {px},{py} sample {i},{j}");
                }
            }
        }
    }
}
