//! Canvas 2D shadows (`JG_OP_SHADOW`: p5 games set them through `drawingContext`'s
//! `shadowBlur`, `shadowColor` and `shadowOffsetX/Y`, mostly for glow): each fill and
//! each stroke of a shape first composites its own coverage times its alpha, blurred
//! by a Gaussian of standard deviation `shadowBlur / 2` and moved by the offset (both
//! in canvas pixels, whatever the transform), in the shadow's colour.
//!
//! The coverage is the shape's own on this buffer (a probed draw), so the blur runs on
//! the buffer's pixel means, not on the browser's canvas pixels. Both are linear and
//! averaged down to the observation, so they differ where a pixel's mean hides where
//! in it the shape lies: a thin line's glow spreads evenly to both sides of the pixel
//! where the browser's leans to the side the line lies nearer. Over a trail the
//! shadow is measured and blurred at canvas resolution instead ([`Canvas::trail_shadow`]):
//! there each canvas pixel keeps its own history, which a pixel's mean cannot stand for.

use super::blend_mode::{blend_pixel, canvas_rect, passes};
use super::trail::MAX_SHARE;
use super::{Canvas, DrawError, Fit, Probe};
use crate::blend::Paint;
use crate::command::{BlendOp, Command, Rgba, Shadow, Style};

/// Standard deviations (in pixels) the kernel spans on each side.
const REACH_SIGMAS: f64 = 4.0;

/// Kernel weights below this are dropped: a shadow at full strength moves no pixel
/// by a tenth of a level with them.
const TAIL: f32 = 2e-4;

impl Canvas {
    /// A shape command while a shadow is set: its fill and its stroke drawn apart,
    /// each after its own shadow, in the browser's order (p5 fills before it
    /// strokes; text strokes first).
    #[cold]
    #[inline(never)]
    pub(super) fn exec_shadowed(&mut self, cmd: Command<'_>, style: Style, sh: Shadow) -> Result<(), DrawError> {
        // (the passes draw as plain shapes)
        self.shadow = None;
        let mut result = Ok(());
        for (pass, colour) in passes(cmd, style).into_iter().flatten() {
            result = self.cast_shadow(pass, colour.a, sh).and_then(|()| self.exec(pass));
            if result.is_err() {
                break;
            }
        }
        self.shadow = Some(sh);
        result
    }

    /// `background(c)` while a shadow is set: p5 fills the canvas as a rectangle,
    /// which casts its shadow too (called for a translucent one, or under a blend
    /// mode: an opaque fill drawn over its own shadow hides it).
    #[cold]
    #[inline(never)]
    pub(super) fn background_shadow(&mut self, c: Rgba, sh: Shadow) -> Result<(), DrawError> {
        self.shadow = None;
        let r = self.cast_shadow(canvas_rect(self.logical, c), c.a, sh);
        self.shadow = Some(sh);
        r
    }

    /// Sums the coverage of `pass` into `self.probe_cov` (the buffer's size, zero
    /// outside the box returned) without drawing it; the box of the pixels it
    /// reached, if any. Whoever reads it zeroes that box again
    /// ([`Canvas::clear_probed`]): a buffer's worth of zeros per shape cost more than
    /// the shapes of a particle effect.
    pub(super) fn probe_coverage(&mut self, pass: Command<'_>) -> Result<Option<[usize; 4]>, DrawError> {
        // (a run of bands drawn before writes its rows first)
        self.flush_bands();
        let mut cov = std::mem::take(&mut self.probe_cov);
        if cov.len() != self.w * self.h {
            cov.clear();
            cov.resize(self.w * self.h, 0.0);
        }
        self.probe = Some(Probe::new(cov));
        let result = self.exec(pass);
        let probe = self.probe.take().expect("the probe set above");
        let [x0, y0, x1, y1] = probe.reached;
        self.probe_cov = probe.cov;
        if let Err(e) = result {
            self.probe_cov.iter_mut().for_each(|v| *v = 0.0);
            return Err(e);
        }
        Ok((x0 < x1 && y0 < y1).then_some([x0, y0, x1, y1]))
    }

    /// Zeroes the box `[x0, y0, x1, y1]` of `self.probe_cov` once it has been read.
    pub(super) fn clear_probed(&mut self, [x0, y0, x1, y1]: [usize; 4]) {
        let w = self.w;
        for row in self.probe_cov[y0 * w..y1 * w].chunks_exact_mut(w) {
            row[x0..x1].iter_mut().for_each(|v| *v = 0.0);
        }
    }

    /// Composites the shadow of `pass` (one fill or one stroke, of alpha `alpha`).
    fn cast_shadow(&mut self, pass: Command<'_>, alpha: u8, sh: Shadow) -> Result<(), DrawError> {
        let Some(paint) = Paint::new(sh.color) else { return Ok(()) };
        if let Some(trail) = self.trail.filter(|_| self.full_window() && self.blend == BlendOp::SourceOver) {
            if self.trail_shadow(pass, alpha, sh, trail)? {
                return Ok(());
            }
        }
        let Some(reached) = self.probe_coverage(pass)? else { return Ok(()) };
        self.blur_probed(reached, alpha, sh, paint);
        self.clear_probed(reached);
        Ok(())
    }

    /// Composites the coverage of the probed pass in `reached`, blurred and moved.
    fn blur_probed(&mut self, reached: [usize; 4], alpha: u8, sh: Shadow, paint: Paint) {
        let w = self.w;
        let sigma = 0.5 * sh.blur as f64;
        let (Some(kx), Some(ky)) = (
            self.kernels.get(sigma * self.sx, sh.offset[0] as f64 * self.sx),
            self.kernels.get(sigma * self.sy, sh.offset[1] as f64 * self.sy),
        ) else {
            return;
        };
        // (inside the clip)
        let c = self.clip;
        let limit = [(c.x0.floor() as i64).max(0), (c.y0.floor() as i64).max(0), (c.x1.ceil() as i64).min(w as i64), (c.y1.ceil() as i64).min(self.h as i64)];
        let mut out = std::mem::take(&mut self.shadow_tmp);
        let Some([ox0, oy0, ox1, _]) = blur(&self.probe_cov, w, reached, &kx, &ky, limit, &mut out) else {
            self.shadow_tmp = out;
            return;
        };
        let scale = alpha as f32 / 255.0;
        let (rgb, shadow_alpha, op) = ([sh.color.r, sh.color.g, sh.color.b], sh.color.a as f32 / 255.0, self.blend);
        for (k, row) in out.chunks_exact(ox1 - ox0).enumerate() {
            let y = oy0 + k;
            for (i, &v) in row.iter().enumerate() {
                let cv = (v * scale).min(1.0);
                if cv > 1.0 / 1024.0 {
                    let at = 3 * (y * w + ox0 + i);
                    let px = &mut self.pixels[at..at + 3];
                    match op {
                        BlendOp::SourceOver => paint.blend_cov(px, cv),
                        // (the blur's own alpha: smooth over the canvas pixels)
                        _ => blend_pixel(px, rgb, shadow_alpha * cv, 1.0, op),
                    }
                }
            }
        }
        self.shadow_tmp = out;
    }

    /// Under a trail, the shadow of `pass` blended canvas pixel by canvas pixel into
    /// the trail's canvas (`canvas/trail.rs`), as the browser blends it over each
    /// canvas pixel's own history: blended at observation size, frame after frame, a
    /// translucent glow settles brighter than the browser's mean of its canvas
    /// pixels (a HUD's glow over a trail 40.5 dB against Chromium, 50.5 without the
    /// glow). Whether it could: the canvas of whole pixels, finer than the buffer, and
    /// the shadow on at most an eighth of it.
    fn trail_shadow(&mut self, pass: Command<'_>, alpha: u8, sh: Shadow, trail: Paint) -> Result<bool, DrawError> {
        let (lw, lh) = self.logical;
        if !(lw.fract() == 0.0 && lh.fract() == 0.0 && lw >= 1.0 && lh >= 1.0 && self.sx < 1.0 && self.sy < 1.0) {
            return Ok(false);
        }
        let (cw, ch) = (lw as usize, lh as usize);
        if !self.shadow_canvas.as_ref().is_some_and(|c| (c.w, c.h) == (cw, ch)) {
            self.shadow_canvas = Canvas::new(cw as u32, ch as u32, Fit::Stretch, 1).map(Box::new);
        }
        let Some(mut fine) = self.shadow_canvas.take() else { return Ok(false) };
        let sigma = 0.5 * sh.blur as f64;
        let (kx, ky) = (self.kernels.get(sigma, sh.offset[0] as f64), self.kernels.get(sigma, sh.offset[1] as f64));
        let mut out = std::mem::take(&mut self.shadow_tmp);
        let landed = match (fine.probe_coverage(pass), kx, ky) {
            (Ok(Some(reached)), Some(kx), Some(ky)) => {
                let landed = blur(&fine.probe_cov, cw, reached, &kx, &ky, [0, 0, cw as i64, ch as i64], &mut out);
                fine.clear_probed(reached);
                landed
            }
            (r, _, _) => {
                self.shadow_canvas = Some(fine);
                self.shadow_tmp = out;
                return r.map(|_| true);
            }
        };
        self.shadow_canvas = Some(fine);
        let Some([x0, y0, x1, y1]) = landed else {
            self.shadow_tmp = out;
            return Ok(true);
        };
        let scale = alpha as f32 / 255.0 * sh.color.a as f32 / 255.0;
        let alphas: Vec<f32> = out.iter().map(|&v| { let a = (v * scale).min(1.0); if a > 1.0 / 1024.0 { a } else { 0.0 } }).collect();
        self.shadow_tmp = out;
        let active = alphas.iter().filter(|&&a| a > 0.0).count();
        if active == 0 {
            return Ok(true);
        }
        if MAX_SHARE * active > cw * ch {
            return Ok(false);
        }
        let Some(cells) = self.cells_of_box([x0, y0, x1, y1], &[&alphas], (cw, ch)) else { return Ok(true) };
        self.trail_blend(trail, &cells, &[([sh.color.r, sh.color.g, sh.color.b], &alphas)]);
        Ok(true)
    }
}

/// `cov` (rows of `w` pixels, zero outside `reached`) blurred and moved by `kx` and
/// `ky` into `out`, rows of the box it returns (`[x0, y0, x1, y1]`, where it lands
/// inside `limit`), if any.
fn blur(cov: &[f32], w: usize, [x0, y0, x1, y1]: [usize; 4], kx: &Kernel, ky: &Kernel, limit: [i64; 4], out: &mut Vec<f32>) -> Option<[usize; 4]> {
    let land = |lo: usize, hi: usize, k: &Kernel, l0: i64, l1: i64| {
        let a = (lo as i64 + k.d0).max(l0).max(0);
        let b = (hi as i64 + k.d0 + k.w.len() as i64 - 1).min(l1);
        (a < b).then_some((a as usize, b as usize))
    };
    let ((ox0, ox1), (oy0, oy1)) = (land(x0, x1, kx, limit[0], limit[2])?, land(y0, y1, ky, limit[1], limit[3])?);
    // along x: rows y0..y1 into columns ox0..ox1 ...
    let (cw, rows, out_rows) = (ox1 - ox0, y1 - y0, oy1 - oy0);
    let mut across = vec![0.0f32; cw * rows];
    for (r, row) in across.chunks_exact_mut(cw).enumerate() {
        kx.spread(&cov[(y0 + r) * w + x0..(y0 + r) * w + x1], x0 as i64 - ox0 as i64, row);
    }
    // ... then down: each row added to the rows its kernel reaches, whole rows at a time
    out.clear();
    out.resize(cw * out_rows, 0.0);
    for (r, row) in across.chunks_exact(cw).enumerate() {
        if row.iter().all(|&v| v == 0.0) {
            continue;
        }
        let first = (y0 + r) as i64 + ky.d0 - oy0 as i64;
        for (k, &wk) in ky.w.iter().enumerate() {
            let o = first + k as i64;
            if o < 0 || o >= out_rows as i64 {
                continue;
            }
            let dst = &mut out[o as usize * cw..(o as usize + 1) * cw];
            dst.iter_mut().zip(row).for_each(|(d, &v)| *d += wk * v);
        }
    }
    Some([ox0, oy0, ox1, oy1])
}

/// The last kernels made: a game casts the same few shadows frame after frame.
#[derive(Debug, Default)]
pub(super) struct Kernels {
    recent: Vec<((u64, u64), std::sync::Arc<Kernel>)>,
}

impl Kernels {
    const KEPT: usize = 8;

    fn get(&mut self, sigma: f64, offset: f64) -> Option<std::sync::Arc<Kernel>> {
        let key = (sigma.to_bits(), offset.to_bits());
        if let Some(at) = self.recent.iter().position(|(k, _)| *k == key) {
            return Some(self.recent[at].1.clone());
        }
        let k = std::sync::Arc::new(Kernel::new(sigma, offset)?);
        if self.recent.len() == Self::KEPT {
            self.recent.remove(0);
        }
        self.recent.push((key, k.clone()));
        Some(k)
    }
}

/// One axis of the shadow's blur and offset on the pixel grid: pixel `j`'s coverage
/// lands on pixel `j + d` with weight `w[d - d0]`. Each weight is the Gaussian
/// integrated over both pixels' extents (coverage is a pixel's mean, and so is what
/// the observation shows), so that with no blur a fractional offset spreads a pixel
/// over the two it straddles by area, and the weights sum to 1.
#[derive(Debug)]
pub(super) struct Kernel {
    d0: i64,
    w: Vec<f32>,
}

impl Kernel {
    /// Standard deviation `sigma` and offset `offset`, in pixels; `None` when not finite.
    fn new(sigma: f64, offset: f64) -> Option<Kernel> {
        if !(sigma.is_finite() && offset.is_finite()) || sigma < 0.0 {
            return None;
        }
        let reach = REACH_SIGMAS * sigma + 1.0;
        let d0 = (offset - reach).floor() as i64;
        let d1 = (offset + reach).ceil() as i64;
        // F(u): the integral of the Gaussian's cumulative distribution up to u
        let f = |u: f64| {
            if sigma < 1e-6 {
                u.max(0.0)
            } else {
                let t = u / sigma;
                u * normal_cdf(t) + sigma * (-0.5 * t * t).exp() / (2.0 * std::f64::consts::PI).sqrt()
            }
        };
        let mut w: Vec<f32> = (d0..=d1)
            .map(|d| {
                let u = d as f64 - offset;
                (f(u + 1.0) - 2.0 * f(u) + f(u - 1.0)).max(0.0) as f32
            })
            .collect();
        // (tails too small to move a level, trimmed: they only cost)
        let lead = w.iter().position(|&v| v > TAIL).unwrap_or(0);
        let end = w.iter().rposition(|&v| v > TAIL).map_or(w.len(), |k| k + 1);
        w.truncate(end);
        w.drain(..lead);
        Some(Kernel { d0: d0 + lead as i64, w })
    }

    /// Adds `src` spread by the kernel into `out`, where `src[j]` is pixel `j + shift`
    /// of `out`'s.
    fn spread(&self, src: &[f32], shift: i64, out: &mut [f32]) {
        let n = out.len() as i64;
        for (j, &v) in src.iter().enumerate() {
            if v == 0.0 {
                continue;
            }
            let start = j as i64 + shift + self.d0;
            // the taps that land inside `out`
            let k0 = (-start).max(0);
            let k1 = (n - start).min(self.w.len() as i64);
            if k0 >= k1 {
                continue;
            }
            let taps = &self.w[k0 as usize..k1 as usize];
            let dst = &mut out[(start + k0) as usize..(start + k1) as usize];
            dst.iter_mut().zip(taps).for_each(|(d, &wk)| *d += v * wk);
        }
    }
}

/// The standard normal distribution function, through erfc (Numerical Recipes'
/// Chebyshev fit, relative error below 1.2e-7 everywhere).
fn normal_cdf(t: f64) -> f64 {
    0.5 * erfc(-t / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07 + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
mod tests {
    use super::{normal_cdf, Kernel};

    #[test]
    fn kernel_weights_sum_to_one_and_shift_by_area() {
        for (sigma, offset) in [(0.0, 0.0), (0.0, 0.25), (0.0, -3.5), (1.6, 0.0), (3.2, 1.7), (0.3, 0.5)] {
            let k = Kernel::new(sigma, offset).expect("finite");
            // (within the weights trimmed from the tails, below TAIL each)
            let sum: f32 = k.w.iter().sum();
            assert!((sum - 1.0).abs() < 2e-3, "sigma {sigma} offset {offset}: sum {sum}");
            let mean: f64 = k.w.iter().enumerate().map(|(i, &w)| (k.d0 + i as i64) as f64 * w as f64).sum();
            assert!((mean - offset).abs() < 1e-3, "sigma {sigma} offset {offset}: mean {mean}");
        }
        // no blur, a quarter-pixel offset: three quarters stay, a quarter moves on
        let k = Kernel::new(0.0, 0.25).expect("finite");
        let w: Vec<f32> = k.w.iter().copied().filter(|&w| w > 0.0).collect();
        assert_eq!(w.len(), 2);
        assert!((w[0] - 0.75).abs() < 1e-6 && (w[1] - 0.25).abs() < 1e-6, "{w:?}");
    }

    #[test]
    fn normal_cdf_matches_known_values() {
        for (t, p) in [(0.0, 0.5), (1.0, 0.841_344_746), (-1.0, 0.158_655_254), (2.5, 0.993_790_335), (-3.0, 0.001_349_898)] {
            assert!((normal_cdf(t) - p).abs() < 2e-7, "{t}: {}", normal_cdf(t));
        }
    }
}
