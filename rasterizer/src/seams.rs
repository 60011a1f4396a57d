//! Seam-free shared edges: per-pixel records of the opaque shapes that covered an
//! edge pixel partly ([`MaskRec`]), their 8x8 sample masks, and the store that keeps
//! the records of the current epoch ([`Records`]).

use crate::damage::PixRect;

/// Sub-pixel sample grid of a [`MaskRec`]: `MASK_SIDE x MASK_SIDE` samples, bit
/// `j * MASK_SIDE + i` at pixel-local `((i + 0.5) / MASK_SIDE, (j + 0.5) / MASK_SIDE)`.
pub(crate) const MASK_SIDE: usize = 8;

/// Regions a [`MaskRec`] keeps apart (older ones merge into its base).
const MASK_REGIONS: usize = 3;

/// Polygons with more edges than this are drawn without sample masks.
pub(crate) const MAX_MASK_EDGES: usize = 16;

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
/// (see [`Records`]), so that a frame's pixels never depend on what earlier frames
/// left there.
#[derive(Clone, Copy, Debug, Default)]
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
    regions: [(u64, f32, [u8; 3]); MASK_REGIONS],
}

impl MaskRec {
    /// Composites an opaque region of colour `col`, exact area `cov` and samples
    /// `mask` over the record (resolved: see [`MaskRec::resolve`]); returns the pixel
    /// and updates the record.
    fn add(&mut self, mask: u64, cov: f32, col: [u8; 3]) -> [u8; 3] {
        debug_assert_eq!(self.pending, 0, "the record's samples are computed first");
        // each region keeps the share of its samples the new one leaves; a region too
        // thin to hold a sample is taken to lie where the new one leaves room (where a
        // neighbour's sliver along a shared edge is)
        let n = self.n as usize;
        let mut kept = [0f32; MASK_REGIONS];
        let mut shown = 0f32;
        for r in 0..n {
            let (m, a, _) = self.regions[r];
            if m != 0 {
                kept[r] = a * (m & !mask).count_ones() as f32 / m.count_ones() as f32;
                shown += kept[r];
            }
        }
        for r in 0..n {
            let (m, a, _) = self.regions[r];
            if m == 0 {
                kept[r] = a.min((1.0 - cov - shown).max(0.0));
                shown += kept[r];
            }
        }
        if shown > 1.0 - cov && shown > 0.0 {
            let f = (1.0 - cov).max(0.0) / shown;
            kept.iter_mut().for_each(|a| *a *= f);
            shown = 1.0 - cov;
        }
        let mut acc = [0f32; 3];
        let mut k = 0;
        for r in 0..n {
            let (m, _, c) = self.regions[r];
            let a = kept[r];
            if a <= 1e-5 {
                continue;
            }
            for ch in 0..3 {
                acc[ch] += c[ch] as f32 * a;
            }
            self.regions[k] = (m & !mask, a, c);
            k += 1;
        }
        let rest = (1.0 - cov - shown).max(0.0);
        let mut out = [0u8; 3];
        for ch in 0..3 {
            out[ch] = (acc[ch] + self.base[ch] * rest + col[ch] as f32 * cov + 0.5).min(255.0) as u8;
        }
        if k == MASK_REGIONS {
            // the oldest region joins the base
            let (_, a, c) = self.regions[0];
            if rest + a > 0.0 {
                for ch in 0..3 {
                    self.base[ch] = (self.base[ch] * rest + c[ch] as f32 * a) / (rest + a);
                }
            }
            self.regions.copy_within(1.., 0);
            k -= 1;
        }
        if k > 0 && self.regions[k - 1].2 == col {
            // same-coloured neighbours (a row of tiles) are one region
            let (m, a, _) = self.regions[k - 1];
            self.regions[k - 1] = (m | mask, a + cov, col);
            k -= 1;
        } else {
            self.regions[k] = (mask, cov, col);
        }
        self.n = k as u8 + 1;
        self.result = out;
        out
    }
}

/// The samples of the pixel-local box `[x0, x1] x [y0, y1]`.
pub(crate) fn box_mask(b: [f32; 4]) -> u64 {
    let side = MASK_SIDE as f32;
    let range = |lo: f32, hi: f32| {
        let i0 = ceil_small_f32((lo * side - 0.5).clamp(-1.0, side)).max(0.0) as u32;
        let i1 = (ceil_small_f32((hi * side - 0.5).clamp(-1.0, side)).max(0.0) as u32).min(MASK_SIDE as u32);
        (i0, i1)
    };
    let (i0, i1) = range(b[0], b[1]);
    let (j0, j1) = range(b[2], b[3]);
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
            for j in 0..MASK_SIDE {
                let u = u0 + j as f64 * du;
                let k = ceil_small(u.clamp(-1.0, side)).clamp(0.0, side) as u32;
                let inside = (ROW << k) & ROW;
                pm |= (if a > 0.0 { inside } else { ROW & !inside }) << (j * MASK_SIDE);
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

/// `v.ceil()` for `v` within `[-1, MASK_SIDE]` (or NaN, which gives 0 as `ceil` then
/// `as u32` does): the same value without a libm call, which `f64::ceil` is on
/// baseline x86-64.
#[inline(always)]
fn ceil_small(v: f64) -> f64 {
    let t = v as i32 as f64;
    if t < v { t + 1.0 } else { t }
}

/// [`ceil_small`] in `f32`.
#[inline(always)]
fn ceil_small_f32(v: f32) -> f32 {
    let t = v as i32 as f32;
    if t < v { t + 1.0 } else { t }
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
    recs: Vec<MaskRec>,
    /// Records kept before dead ones (retired, or replaced by a restore) are dropped.
    cap: usize,
    /// Pixels a row.
    width: usize,
    /// The inner half-planes of this epoch's convex polygons whose records may still
    /// have pending masks ([`MaskRec::pending`]).
    planes: Vec<[f64; 3]>,
}

impl Records {
    /// Sizes the slot grid for `pixels` pixels (dropping every record when it changes).
    #[inline]
    pub(crate) fn ensure(&mut self, width: usize, pixels: usize) {
        if self.slot.len() != pixels || self.width != width {
            self.slot = vec![0; pixels];
            self.recs.clear();
            self.planes.clear();
            self.cap = pixels.max(1024);
            self.width = width;
        }
    }

    /// Retires every record (a new epoch).
    pub(crate) fn clear(&mut self) {
        self.recs.clear();
        self.planes.clear();
    }

    /// Keeps the inner half-planes of a convex polygon (at most [`MAX_MASK_EDGES`])
    /// for the pending masks of the records it starts; returns their code for
    /// [`Records::composite_polygon`].
    pub(crate) fn polygon(&mut self, planes: &[[f64; 3]]) -> u32 {
        debug_assert!(planes.len() <= MAX_MASK_EDGES);
        if self.planes.len() + planes.len() > MAX_PENDING_PLANES {
            self.resolve_all();
        }
        let code = (self.planes.len() as u32 + 1) << 5 | planes.len() as u32;
        self.planes.extend_from_slice(planes);
        code
    }

    /// Computes every pending mask and forgets the kept planes.
    fn resolve_all(&mut self) {
        let (planes, width) = (&self.planes, self.width);
        self.recs.iter_mut().for_each(|r| r.resolve(planes, width));
        self.planes.clear();
    }

    #[inline(always)]
    fn index(&self, pixel: usize) -> Option<usize> {
        let k = (*self.slot.get(pixel)? as usize).checked_sub(1)?;
        (self.recs.get(k)?.pixel == pixel as u32).then_some(k)
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
        if self.recs.len() >= self.cap {
            self.compact();
        }
        let pixel = rec.pixel as usize;
        self.recs.push(rec);
        self.slot[pixel] = self.recs.len() as u32;
    }

    /// Drops the records no slot points at.
    fn compact(&mut self) {
        let mut n = 0;
        for k in 0..self.recs.len() {
            let p = self.recs[k].pixel as usize;
            if self.slot[p] as usize == k + 1 {
                self.recs[n] = self.recs[k];
                self.slot[p] = n as u32 + 1;
                n += 1;
            }
        }
        self.recs.truncate(n);
        self.cap = (2 * n).max(self.slot.len()).max(1024);
    }

    /// The live records, in the order they were made, with their masks computed.
    pub(crate) fn live(&self) -> impl Iterator<Item = MaskRec> + '_ {
        self.recs.iter().enumerate().filter(|(k, r)| self.slot[r.pixel as usize] as usize == k + 1).map(|(_, r)| {
            let mut r = *r;
            r.resolve(&self.planes, self.width);
            r
        })
    }

    /// [`Records::composite`] for a convex polygon ([`Records::polygon`]'s `code`):
    /// its samples of the pixel are computed only when the pixel has a record to
    /// composite through.
    #[inline(always)]
    pub(crate) fn composite_polygon(&mut self, (x, y): (usize, usize), px: &mut [u8], code: u32, cov: f32, col: [u8; 3]) {
        let pixel = y * self.width + x;
        let cur = [px[0], px[1], px[2]];
        let k = self.index(pixel);
        if let Some(k) = k {
            let (planes, width) = (&self.planes, self.width);
            let rec = &mut self.recs[k];
            if rec.result == cur {
                rec.resolve(planes, width);
                let mask = polygon_mask(pending_planes(planes, code), x, y);
                let out = rec.add(mask, cov, col);
                px.copy_from_slice(&out);
                return;
            }
        }
        self.start(k, pixel, px, cur, 0, code, cov, col);
    }

    /// Composites an opaque shape of colour `col` covering `cov` of `pixel` (`px`, its
    /// RGB), with samples `mask` there: through the pixel's record when the pixel
    /// still holds what the record made, else as the plain blend, which starts a
    /// record.
    #[inline(always)]
    pub(crate) fn composite(&mut self, pixel: usize, px: &mut [u8], mask: u64, cov: f32, col: [u8; 3]) {
        let cur = [px[0], px[1], px[2]];
        let k = self.index(pixel);
        if let Some(k) = k {
            let (planes, width) = (&self.planes, self.width);
            let rec = &mut self.recs[k];
            if rec.result == cur {
                rec.resolve(planes, width);
                let out = rec.add(mask, cov, col);
                px.copy_from_slice(&out);
                return;
            }
        }
        self.start(k, pixel, px, cur, mask, 0, cov, col);
    }

    /// The plain blend of an opaque shape over a pixel without a usable record (`k`:
    /// its stale one), which starts the pixel's record.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn start(&mut self, k: Option<usize>, pixel: usize, px: &mut [u8], cur: [u8; 3], mask: u64, pending: u32, cov: f32, col: [u8; 3]) {
        let mut out = [0u8; 3];
        for ch in 0..3 {
            let d = cur[ch] as f32;
            out[ch] = (d + (col[ch] as f32 - d) * cov + 0.5) as u8;
        }
        px.copy_from_slice(&out);
        let mut rec = MaskRec { pixel: pixel as u32, result: out, n: 1, base: cur.map(|v| v as f32), pending, ..MaskRec::default() };
        rec.regions[0] = (mask, cov, col);
        match k {
            Some(k) => self.recs[k] = rec,
            None if pixel < self.slot.len() => self.push(rec),
            None => {}
        }
    }
}

/// The planes a pending code of [`Records::polygon`] names.
#[inline(always)]
fn pending_planes(planes: &[[f64; 3]], code: u32) -> &[[f64; 3]] {
    let (start, len) = ((code >> 5) as usize - 1, (code & 31) as usize);
    &planes[start..start + len]
}

impl MaskRec {
    /// Computes the first region's samples if they are pending.
    #[inline(always)]
    fn resolve(&mut self, planes: &[[f64; 3]], width: usize) {
        if self.pending != 0 {
            let (p, y) = (self.pixel as usize, self.pixel as usize / width);
            self.regions[0].0 = polygon_mask(pending_planes(planes, self.pending), p - y * width, y);
            self.pending = 0;
        }
    }

    /// Whether the record's pixel lies in `r` (`w` pixels a row).
    pub(crate) fn within(&self, w: usize, r: PixRect) -> bool {
        let (x, y) = (self.pixel as usize % w, self.pixel as usize / w);
        x >= r.x0 as usize && x < r.x1 as usize && y >= r.y0 as usize && y < r.y1 as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The box mask holds exactly the samples whose centres lie inside the box, the
    /// lower bounds inclusive: `lo <= (i + 0.5) / 8 < hi` on each axis.
    #[test]
    fn box_mask_is_the_samples_inside_the_box() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
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

    /// The sample mask equals each sample's own side test `a x + b y + c > 0`, for
    /// planes at any angle (samples within 1e-9 of a plane are left out: ties follow
    /// the rule of `planes_mask`, which this test does not restate).
    #[test]
    fn planes_mask_is_the_samples_inside_every_plane() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
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
