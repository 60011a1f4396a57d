//! Thin horizontal bands blended canvas row by canvas row.
//!
//! A game that paints a sky as one `line()` per canvas row (a gradient from
//! `lerpColor`) blends, in the browser, each canvas row twice at half coverage: a
//! one-pixel line at whole `y` covers half of the row above and half of the row below.
//! Every canvas row then keeps a quarter of what it held before, and the observation
//! pixel averages its canvas rows. Blended one after another at observation size, where
//! each band covers a sixth of the pixel, the pixel keeps about `(1 - 1/6)^6 = 0.33`
//! of what it held instead: a game without `background()`, whose last frame shows
//! through, and its translucent overlays (a HUD bar, hills) settle on darker colours
//! than the browser's.
//!
//! Thicker lines (a sky of `strokeWeight(4)` lines every four rows) blend each canvas
//! row they cover whole once, which the same pieces hold exactly, and a run of them
//! costs a few pieces per line where the partial-coverage records composited every
//! pixel of the row: so bands up to an observation pixel tall run too.
//!
//! So consecutive `line()` commands whose strokes are such bands, with the same
//! horizontal extent, form a run: for every canvas row piece inside an observation row the run keeps what the
//! browser's canvas row holds as `A + R * P`, `P` being the observation pixel when the
//! run started (taken as the value of each of its canvas rows), and rewrites the
//! row's pixels from it after each band. Any other command ends the run.
//!
//! A row's rewrite replaces all its pixels between the run's partly covered ends, so
//! only its last one shows: a row is written when the run moves past it, before any
//! other command draws and before the canvas is read ([`Canvas::flush_bands`]), and
//! the five or six lines of a gradient that share an observation row write it once.
//!
//! The run depends on the commands before it, not only on those that touch a pixel,
//! which the redraw of damaged rectangles needs: so runs are drawn only where the
//! stream is drawn over the whole canvas, from its start or from a snapshot taken
//! where no run went on ([`Canvas::draw`]). A frame whose damaged rectangles meet a
//! band is drawn again, whole; the frame after one with runs is not drawn as damage.

use super::Canvas;
use crate::blend::{mul_div255_round, skia_aa_scales, Paint, FULL};
use crate::geometry::Rect;

/// Bands at most this many canvas pixels tall, or no taller than an observation
/// pixel, run canvas row by canvas row.
const MAX_BAND_ROWS: f64 = 2.0;

/// Observation row `j`'s bytes `cols` (from the row's start) that the run has yet to
/// write: `a + r * P`.
#[derive(Clone, Copy, Debug)]
struct PendingRow {
    j: usize,
    cols: (usize, usize),
    a: [f32; 3],
    r: f32,
}

/// One piece of a canvas row inside an observation row: the browser's canvas row
/// there holds `a + r * P` (`P`: the observation pixel when the run started).
#[derive(Clone, Copy, Debug, Default)]
struct Piece {
    a: [f32; 3],
    r: f32,
    stamp: u32,
}

#[derive(Debug, Default)]
pub(super) struct Bands {
    /// The run's number; pieces and rows of other runs are stale.
    run: u32,
    /// What a band must share with the run's to join it: its horizontal extent, the
    /// clip and the canvas grid (as bits).
    key: [u64; 6],
    /// The command (see [`Canvas::cmd_serial`]) that extended the run last.
    last_cmd: u64,
    /// Per canvas row (from `k0`), the pieces in the observation row holding its top
    /// and in the next one.
    pieces: Vec<[Piece; 2]>,
    k0: i64,
    /// The pixels of each observation row when the run first touched it (`row_run`).
    start: Vec<u8>,
    /// The rows of the run's last band, not written yet.
    pending: Vec<PendingRow>,
    row_run: Vec<u32>,
    /// Runs may be drawn now: the stream is drawn from its start or from a snapshot
    /// taken where no run went on, over the whole canvas (not in damaged rectangles).
    pub(super) allowed: bool,
    /// The stream drawn now does not start opaque: it is drawn over the last frame,
    /// always whole from its start.
    pub(super) over_last: bool,
    /// This frame drew a run / a band could not join one (it was being redrawn in
    /// damaged rectangles): see [`Canvas::draw`].
    pub(super) used: bool,
    pub(super) missed: bool,
    /// The last frame drew a run.
    pub(super) used_last: bool,
    /// The columns of the last band blended: its horizontal extent, the clip, the
    /// canvas grid and the buffer width (as bits), its columns `i0..i1`, the fully
    /// covered ones among them `f0..f1` (from `i0`) and each column's coverage (the
    /// bands of a sky share them all).
    cols_key: [u64; 7],
    cols: (usize, usize, usize, usize),
    cx: Vec<f32>,
    /// Per observation row `j`, the pieces that make it up, as [`Bands::piece_at`]
    /// gives them for the canvas rows from its top to its bottom (`row_pieces[
    /// row_start[j]..row_start[j + 1]]`): the same for every band of every run on the
    /// grid `row_key` (its canvas rows' height and offset, and the buffer's rows; `k0`
    /// and the pieces kept follow from them).
    row_key: [u64; 3],
    row_start: Vec<u32>,
    row_pieces: Vec<(u32, u8, f32)>,
}

impl Bands {
    /// The run that command `serial` (see [`Canvas::cmd_serial`]) extended, if it was
    /// the last to extend one.
    pub(super) fn extended_by(&self, serial: u64) -> Option<u32> {
        (self.run != 0 && self.last_cmd == serial).then_some(self.run)
    }
}

impl Canvas {
    /// Writes the rows a run of bands has left pending (see the module): before
    /// anything else draws or reads the canvas.
    #[inline]
    pub(super) fn flush_bands(&mut self) {
        if !self.bands.pending.is_empty() {
            self.flush_band_rows(|_| true);
        }
    }

    /// Writes the pending rows that `flush` picks.
    fn flush_band_rows(&mut self, flush: impl Fn(&PendingRow) -> bool) {
        let mut pending = std::mem::take(&mut self.bands.pending);
        let stride = 3 * self.w;
        pending.retain(|p| {
            if !flush(p) {
                return true;
            }
            let (s0, s1) = (p.j * stride + p.cols.0, p.j * stride + p.cols.1);
            rewrite(&mut self.pixels[s0..s1], &self.bands.start[s0..s1], p.a, p.r);
            false
        });
        self.bands.pending = pending;
    }

    /// Blends the thin band `r` (device, opaque or translucent `paint`) inside the clip
    /// `c` canvas row by canvas row as part of a run (see the module); false, having
    /// drawn nothing, when it is not such a band or runs are not allowed now.
    pub(super) fn blend_band(&mut self, r: Rect, c: Rect, paint: &Paint) -> bool {
        let Some([gx, ox, gy, oy]) = self.raster.grid() else { return false };
        if self.probe.is_some() || !(gy < 1.0) || (r.y1 - r.y0) > (MAX_BAND_ROWS * gy).max(1.0) || !(r.y1 > r.y0) {
            return false;
        }
        if !self.bands.allowed || !self.full_window() {
            // (the frame is drawn again, whole, with runs: Canvas::draw)
            self.bands.missed = true;
            return false;
        }
        self.bands.used = true;
        let (w, h) = (self.w, self.h);
        // the columns: fully covered ones take the run, partial ones at either end blend
        let cols_key = [r.x0, r.x1, c.x0, c.x1, ox, gx, w as f64].map(f64::to_bits);
        if self.bands.cols_key != cols_key || self.bands.cx.is_empty() {
            let b = &mut self.bands;
            let Some((i0, i1)) = crate::coverage::grid_axis_coverage(r.x0, r.x1, c.x0, c.x1, Some((ox, gx)), w, &mut b.cx) else {
                b.cx.clear();
                return true;
            };
            let n = i1 - i0;
            let f0 = b.cx.iter().position(|&v| v >= FULL).unwrap_or(n);
            let f1 = b.cx.iter().rposition(|&v| v >= FULL).map_or(f0, |k| k + 1);
            (b.cols_key, b.cols) = (cols_key, (i0, i1, f0, f1));
        }
        let (i0, i1, f0, f1) = self.bands.cols;
        let Some((j0, j1)) = crate::coverage::grid_axis_coverage(r.y0, r.y1, c.y0, c.y1, Some((oy, gy)), h, &mut self.cy) else { return true };
        let n = i1 - i0;

        let key = [r.x0, r.x1, c.x0, c.x1, gy, oy].map(f64::to_bits);
        // (a line is one command drawn in one call: the whole window)
        let follows = self.bands.last_cmd + 1 == self.cmd_serial;
        let joins = follows && self.bands.key == key && self.bands.row_run.len() == h && self.bands.start.len() == 3 * w * h;
        // rows this band does not rewrite are written now (a new run's first: the
        // starts of its rows are taken from the pixels)
        let cols = (3 * (i0 + f0), 3 * (i0 + f1.max(f0)));
        self.flush_band_rows(|p| !joins || !(j0..j1).contains(&p.j) || p.cols != cols);
        let b = &mut self.bands;
        if !joins {
            b.run = b.run.wrapping_add(1).max(1);
            b.key = key;
            if b.row_run.len() != h || b.start.len() != 3 * w * h {
                b.row_run = vec![0; h];
                b.start = vec![0; 3 * w * h];
            }
            // canvas rows from above the device's top to below its bottom
            b.k0 = ((-oy) / gy).floor() as i64 - 1;
            let rows = ((h as f64 - oy) / gy).ceil() as i64 + 2 - b.k0;
            b.pieces.clear();
            b.pieces.resize(rows.max(0) as usize, [Piece::default(); 2]);
            b.index_rows(h, gy, oy);
        }
        b.last_cmd = self.cmd_serial;
        let run = b.run;

        // the canvas rows the band covers, and how much of each
        let (kl, kh) = ((r.y0 - oy) / gy, (r.y1 - oy) / gy);
        let (ka, kb) = (kl.floor() as i64, kh.ceil() as i64);
        let rgb = paint.rgb();
        let alpha = (paint.alpha() * 255.0).round() as u32;
        for j in j0..j1 {
            if b.row_run[j] != run {
                b.row_run[j] = run;
                b.start[3 * j * w..3 * (j + 1) * w].copy_from_slice(&self.pixels[3 * j * w..3 * (j + 1) * w]);
            }
            for k in ka..kb {
                let f = (kh.min((k + 1) as f64) - kl.max(k as f64)).max(0.0);
                let Some((idx, slot, _)) = b.piece_at(k, j, gy, oy) else { continue };
                if f <= 0.0 {
                    continue;
                }
                let p = &mut b.pieces[idx][slot];
                if p.stamp != run {
                    *p = Piece { a: [0.0; 3], r: 1.0, stamp: run };
                }
                let blend = SkiaBlend::new(rgb, alpha, f);
                for ch in 0..3 {
                    p.a[ch] = blend.src[ch] + blend.keep * p.a[ch] - blend.loss;
                }
                p.r *= blend.keep;
            }
            // the observation row: its canvas row pieces weighted by their share of it
            let (mut a_sum, mut r_sum) = ([0f32; 3], 0f32);
            for &(idx, slot, inside) in &b.row_pieces[b.row_start[j] as usize..b.row_start[j + 1] as usize] {
                let p = Some(b.pieces[idx as usize][slot as usize]).filter(|p| p.stamp == run);
                let (pa, pr) = p.map_or(([0.0; 3], 1.0), |p| (p.a, p.r));
                for ch in 0..3 {
                    a_sum[ch] += inside * pa[ch];
                }
                r_sum += inside * pr;
            }
            let row = 3 * (j * w + i0);
            if f1 > f0 {
                match b.pending.iter_mut().find(|p| p.j == j) {
                    Some(p) => (p.a, p.r) = (a_sum, r_sum),
                    None => b.pending.push(PendingRow { j, cols, a: a_sum, r: r_sum }),
                }
            }
            let cyv = self.cy[j - j0];
            for k in (0..f0).chain(f1.max(f0)..n) {
                paint.blend_uniform(&mut self.pixels[row + 3 * k..row + 3 * k + 3], b.cx[k] * cyv);
            }
        }
        true
    }
}

/// One band's blend over one canvas row as the browser's canvas (Skia's anti-aliased
/// blit into an opaque 8-bit premultiplied pixel, `SkBlendARGB32`) computes it, as an
/// affine map `x -> src + keep * x - loss` of the row's value: the source term is
/// exact (integer arithmetic on the paint and the coverage as Skia quantizes it), the
/// kept share of what lay beneath is truncated, which drops `loss` on average.
///
/// A sky of one-pixel lines blends every canvas row twice a frame at half coverage,
/// `x' = (s * 129 >> 8) + (x >> 1)`, so the truncations pile up frame after frame: a
/// gradient settles one to two levels darker than the exact blend (a grey 100 settles
/// on 99), over the whole sky.
#[derive(Clone, Copy, Debug)]
struct SkiaBlend {
    src: [f32; 3],
    keep: f32,
    loss: f32,
}

impl SkiaBlend {
    /// The blend of `rgb` at alpha `alpha` (0-255) covering `f` of the canvas row.
    fn new(rgb: [u8; 3], alpha: u32, f: f64) -> SkiaBlend {
        let (src_scale, dst_scale) = skia_aa_scales(alpha, f);
        let src = rgb.map(|c| ((mul_div255_round(c, alpha as u8) as u32 * src_scale) >> 8) as f32);
        if dst_scale <= 1 {
            // (x * 1) >> 8 is 0 for every 8-bit x
            return SkiaBlend { src, keep: 0.0, loss: 0.0 };
        }
        // x * dst_scale / 256 falls on multiples of gcd(dst_scale, 256) / 256
        let step = (1u32 << dst_scale.trailing_zeros().min(8)) as f32 / 256.0;
        SkiaBlend { src, keep: dst_scale as f32 / 256.0, loss: (1.0 - step) / 2.0 }
    }
}

impl Bands {
    /// Makes `row_start` and `row_pieces` for `h` observation rows on the grid of
    /// canvas rows `gy` high from `oy`, unless they are those already.
    fn index_rows(&mut self, h: usize, gy: f64, oy: f64) {
        let key = [gy.to_bits(), oy.to_bits(), h as u64];
        if self.row_key == key && self.row_start.len() == h + 1 {
            return;
        }
        self.row_key = key;
        self.row_start.clear();
        self.row_pieces.clear();
        for j in 0..h {
            self.row_start.push(self.row_pieces.len() as u32);
            let (kt, kbot) = (((j as f64 - oy) / gy).floor() as i64, (((j + 1) as f64 - oy) / gy).ceil() as i64);
            for k in kt..kbot {
                if let Some((idx, slot, inside)) = self.piece_at(k, j, gy, oy) {
                    self.row_pieces.push((idx as u32, slot as u8, inside));
                }
            }
        }
        self.row_start.push(self.row_pieces.len() as u32);
    }

    /// Where the piece of canvas row `k` inside observation row `j` is kept
    /// (`pieces[idx][slot]`), and its share of the observation row; `None` where the
    /// canvas row does not reach into `j` or lies beyond the kept rows.
    fn piece_at(&self, k: i64, j: usize, gy: f64, oy: f64) -> Option<(usize, usize, f32)> {
        let top = oy + gy * k as f64;
        let inside = (top + gy).min((j + 1) as f64) - top.max(j as f64);
        let idx = usize::try_from(k - self.k0).ok().filter(|&i| i < self.pieces.len())?;
        (inside > 0.0).then(|| (idx, usize::from(top.floor() as i64 != j as i64), inside as f32))
    }
}

/// `dst = a + r * start` per channel (RGB pixels), rounded to nearest (`as u8`
/// saturates at 0 and 255): with SSE2 16 pixels at a time on x86-64 (the compiler
/// does not vectorize the saturating conversion), the rest four pixels at a time.
fn rewrite(dst: &mut [u8], start: &[u8], a: [f32; 3], r: f32) {
    #[cfg(target_arch = "x86_64")]
    let (dst, start) = {
        let done = crate::blend::sse2::rewrite(dst, start, a, r);
        (&mut dst[done..], &start[done..])
    };
    let pattern: [f32; 12] = std::array::from_fn(|q| a[q % 3] + 0.5);
    let mut d = dst.chunks_exact_mut(12);
    let mut s = start.chunks_exact(12);
    for (dq, sq) in (&mut d).zip(&mut s) {
        for q in 0..12 {
            dq[q] = (pattern[q] + r * sq[q] as f32) as u8;
        }
    }
    for (q, (dv, &sv)) in d.into_remainder().iter_mut().zip(s.remainder()).enumerate() {
        *dv = (pattern[q] + r * sv as f32) as u8;
    }
}

#[cfg(test)]
mod tests {
    /// The vectorized rewrite writes what the per-channel formula does, for any
    /// length (whole 16-pixel blocks and the rest) and any run state.
    #[test]
    fn rewrite_is_the_per_channel_formula() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for len in [0usize, 3, 45, 48, 51, 96, 189, 192, 387] {
            for _ in 0..200 {
                let start: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                let r = (next() % 1001) as f32 / 1000.0;
                let a = [0, 1, 2].map(|_| (1.0 - r) * (next() % 25600) as f32 / 100.0);
                let mut dst = vec![0u8; len];
                super::rewrite(&mut dst, &start, a, r);
                let want: Vec<u8> = start.iter().enumerate().map(|(q, &s)| (a[q % 3] + 0.5 + r * s as f32) as u8).collect();
                assert_eq!(dst, want, "len {len} a {a:?} r {r}");
            }
        }
    }
}
