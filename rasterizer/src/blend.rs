//! Source-over compositing of a straight-alpha RGBA8 colour onto opaque RGB8 pixels.
//!
//! The canvas is always opaque (it starts opaque black and source-over onto an opaque
//! destination stays opaque), so a pixel is stored as 3 bytes and the result of one
//! composite is `dst + (src - dst) * alpha * coverage`, rounded to nearest. Rounding
//! after every composite mirrors the 8-bit canvas of a browser, which matters for games
//! that fade trails with a translucent `background()`.
//!
//! Invariants: every function writes only whole pixels of its slice; coverage and
//! alpha products are clamped to `[0, 1]`; coverage at or above [`FULL`] counts as
//! full (the accumulation's float error makes interior pixels 1 - 1e-7, and the error
//! of the snap is below 0.03 of a level).

use crate::command::Rgba;

/// Coverage treated as 1.
pub const FULL: f32 = 1.0 - 1e-4;

/// A colour prepared for blending.
#[derive(Clone, Copy, Debug)]
pub struct Paint {
    rgb: [u8; 3],
    c: [f32; 3],
    alpha: f32,
    /// A whole pixel's blend as the browser's canvas computes it ([`Paint::blend_whole`]):
    /// the colour premultiplied by alpha and the share of the pixel kept, of 256.
    premul: [u16; 3],
    keep: u16,
    /// Coverage correction of glyph masks ([`MaskGamma`]), by coverage level.
    mask_gamma: Option<&'static [f32; 256]>,
}

impl Paint {
    /// Prepares `color`; `None` when it is fully transparent (draws nothing).
    pub fn new(color: Rgba) -> Option<Paint> {
        if color.a == 0 {
            return None;
        }
        Some(Paint {
            rgb: [color.r, color.g, color.b],
            c: [color.r as f32, color.g as f32, color.b as f32],
            alpha: color.a as f32 / 255.0,
            premul: [color.r, color.g, color.b].map(|c| mul_div255_round(c, color.a)),
            keep: 256 - color.a as u16,
            mask_gamma: None,
        })
    }

    /// The same colour drawing glyph masks: coverage goes through the correction
    /// table of the colour's luminance first (see [`MaskGamma`]).
    pub fn with_mask_gamma(mut self) -> Paint {
        self.mask_gamma = Some(MaskGamma::get().table(self.rgb));
        self
    }

    /// True when alpha is 255.
    /// The paint's colour as RGB8.
    #[inline]
    pub fn rgb(&self) -> [u8; 3] {
        self.rgb
    }

    /// Whether coverage blends as it is (no mask-gamma table, as text's has).
    pub fn plain_coverage(&self) -> bool {
        self.mask_gamma.is_none()
    }

    /// The paint's colour, as the blends compute with it.
    #[inline]
    pub fn colour(&self) -> [f32; 3] {
        self.c
    }

    /// The paint's alpha in `[0, 1]`.
    #[inline]
    pub fn alpha(&self) -> f32 {
        self.alpha
    }

    /// Whether the paint covers what is under it completely (alpha 1).
    #[inline]
    pub fn opaque(&self) -> bool {
        self.alpha >= 1.0
    }

    /// Blends one pixel with effective alpha `a` (alpha already times coverage) and
    /// the nudge of [`blended`] (see [`nudge`]).
    #[inline(always)]
    fn blend(&self, px: &mut [u8], a: f32, nudge: f32) {
        for k in 0..3 {
            let d = px[k] as f32;
            px[k] = blended(px[k], (self.c[k] - d) * a, nudge);
        }
    }

    /// Blends one RGB pixel with coverage `cv`.
    #[inline(always)]
    pub fn blend_cov(&self, px: &mut [u8], cv: f32) {
        if cv <= 0.0 {
            return;
        }
        let cv = match self.mask_gamma {
            None => cv,
            Some(t) => t[(cv.min(1.0) * 255.0 + 0.5) as usize],
        };
        if cv >= FULL {
            if self.opaque() {
                px.copy_from_slice(&self.rgb);
            } else {
                self.blend_whole(px);
            }
        } else {
            self.blend(px, self.alpha * cv, nudge(true));
        }
    }

    /// Blends a row of RGB pixels with per-pixel coverage (`dst.len() == 3 * cov.len()`).
    #[inline]
    pub fn blend_row(&self, dst: &mut [u8], cov: &[f32]) {
        for (px, &cv) in dst.chunks_exact_mut(3).zip(cov) {
            self.blend_cov(px, cv);
        }
    }

    /// Blends a row of RGB pixels with one coverage value.
    #[inline]
    pub fn blend_uniform(&self, dst: &mut [u8], cov: f32) {
        if cov <= 0.0 {
            return;
        }
        let cov = match self.mask_gamma {
            None => cov,
            Some(t) => t[(cov.min(1.0) * 255.0 + 0.5) as usize],
        };
        if cov >= FULL && self.opaque() {
            fill_rgb(dst, self.rgb);
            return;
        }
        if cov >= FULL {
            self.blend_whole(dst);
        } else {
            self.blend_run(dst, self.alpha * cov, nudge(true));
        }
    }

    /// Channel `ch` of value `v` after [`Paint::blend_uniform`] at full coverage: the
    /// same arithmetic, one channel at a time.
    #[inline]
    pub fn whole_channel(&self, ch: usize, v: u8) -> u8 {
        if self.mask_gamma.is_some() {
            let mut px = [v; 3];
            self.blend_uniform(&mut px, 1.0);
            return px[ch];
        }
        if self.opaque() {
            return self.rgb[ch];
        }
        self.whole_level(ch, v)
    }

    /// Channel `ch` of value `v` under a translucent paint over the whole pixel
    /// ([`Paint::blend_whole`]'s arithmetic).
    #[inline(always)]
    fn whole_level(&self, ch: usize, v: u8) -> u8 {
        (self.premul[ch] + ((v as u16 * self.keep) >> 8)) as u8
    }

    /// Blends the whole RGB pixels `dst` with the translucent paint as Chromium's
    /// canvas does (Skia's blit of a colour into 8-bit premultiplied pixels):
    /// `premul + (d * (256 - alpha) >> 8)`, which matched it on every channel value
    /// measured there. Rounding to nearest instead stalls a `background(20, 30, 50,
    /// 40)` trail where each blend moves less than half a level (23, 33, 53 from
    /// above), while the browser's truncation carries it on (to 19, 32, 51), and a
    /// `background(0, 20)` trail, which stalled a few levels above black, reaches it.
    #[inline]
    fn blend_whole(&self, dst: &mut [u8]) {
        let (premul, keep) = (self.premul, self.keep);
        if dst.len() == 3 {
            // (one pixel, the common case at shape edges: no pattern to lay out)
            for (ch, v) in dst.iter_mut().enumerate() {
                *v = self.whole_level(ch, *v);
            }
            return;
        }
        let pattern: [u16; 12] = std::array::from_fn(|q| premul[q % 3]);
        let mut chunks = dst.chunks_exact_mut(12);
        for c in &mut chunks {
            for q in 0..12 {
                // (d * keep <= 255 * 255 and the sum <= 255: see mul_div255_round)
                c[q] = (pattern[q] + ((c[q] as u16 * keep) >> 8)) as u8;
            }
        }
        for (q, v) in chunks.into_remainder().iter_mut().enumerate() {
            *v = (pattern[q] + ((*v as u16 * keep) >> 8)) as u8;
        }
    }

    /// [`Paint::blend`] on every pixel of `dst` with one effective alpha `a` in
    /// `[0, 1]`: the same arithmetic per channel, so the same bytes.
    #[inline]
    fn blend_run(&self, dst: &mut [u8], a: f32, nudge: f32) {
        #[cfg(target_arch = "x86_64")]
        let dst = sse2::blend_run(dst, self.c, a, nudge);
        for px in dst.chunks_exact_mut(3) {
            self.blend(px, a, nudge);
        }
    }
}

/// The smallest move of a blend over a partly covered pixel, in 8-bit levels, that
/// changes the pixel: such a blend that rounds back to the pixel moves it one level
/// toward the paint when it would move it this far. Round to nearest alone leaves a
/// pixel where every blend moves it less than half a level: many thin shapes blended
/// over one observation pixel (a sky of one-pixel lines, each covering a sixth of it)
/// stall up to `0.5 / coverage` levels short of their colour, where the browser
/// blends each over its canvas pixels at twice to six times the coverage and stalls a
/// level short at most.
/// A single blend is moved only where its exact result lies this far from the pixel.
/// A whole pixel blended with a translucent paint is not nudged: it blends in the
/// browser's integer arithmetic ([`Paint::blend_whole`]).
pub const NUDGE: f32 = 0.25;

/// The nudge of a blend over a pixel covered partly ([`NUDGE`]) or whole (none).
#[inline(always)]
fn nudge(partial: bool) -> f32 {
    if partial {
        NUDGE
    } else {
        f32::INFINITY
    }
}

/// `c * a / 255` rounded to nearest, as Skia premultiplies (`SkMulDiv255Round`). At
/// most `a`, so that a whole-pixel blend `premul + (d * (256 - a) >> 8)` stays within
/// 255: `d * (256 - a) >> 8 <= 255 - a` for `d <= 255`.
#[inline]
pub(crate) fn mul_div255_round(c: u8, a: u8) -> u16 {
    let t = c as u32 * a as u32 + 128;
    ((t + (t >> 8)) >> 8) as u16
}

/// The scales (of 256) of source and destination with which Skia blits a paint of
/// alpha `alpha` (0-255) into an 8-bit pixel it covers by `cov` (`SkBlendARGB32`: the
/// coverage quantized to 8 bits `aa`, then `aa + 1` and `256 - (alpha * (aa + 1) >>
/// 8)`): the pixel becomes `(premul * src >> 8) + (d * dst >> 8)`.
#[inline]
pub(crate) fn skia_aa_scales(alpha: u32, cov: f64) -> (u32, u32) {
    let aa = round_level(cov.min(1.0) * 255.0);
    (aa + 1, 256 - ((alpha * (aa + 1)) >> 8))
}

/// `(x.round() as u32).min(255)` (half away from zero; negative and NaN give 0)
/// without the libm call `f64::round` is on baseline x86-64: the fraction above the
/// truncated integer is exact for every value below 2^52.
#[inline(always)]
fn round_level(x: f64) -> u32 {
    let x = x.clamp(-1.0, 256.0);
    let i = x as i64;
    let up = x - i as f64 >= 0.5;
    (i + up as i64).clamp(0, 255) as u32
}

/// The 8-bit result of moving the channel `d` by `t` levels (`d + t` within
/// `[0, 255]`): rounded to nearest, or a level toward `t` where that would leave `d`
/// and `|t| >= nudge`.
#[inline(always)]
pub fn blended(d: u8, t: f32, nudge: f32) -> u8 {
    let r = (d as f32 + t + 0.5) as u8;
    if r != d {
        r
    } else if t >= nudge {
        d + 1
    } else if t <= -nudge {
        d - 1
    } else {
        d
    }
}

/// An opaque colour `col` over the RGB pixels `dst` at one coverage `cov`: per
/// channel [`blended`] with `t = (col - d) * cov` and the partial nudge (what a
/// partly covered pixel's blend gives), 16 pixels at a time with SSE2 where it can.
pub(crate) fn blend_opaque_run(dst: &mut [u8], col: [u8; 3], cov: f32) {
    // (the vectors' set-up outweighs a few pixels)
    #[cfg(target_arch = "x86_64")]
    let dst = if dst.len() >= 96 { sse2::blend_run(dst, col.map(|v| v as f32), cov, NUDGE) } else { dst };
    for px in dst.chunks_exact_mut(3) {
        blend_opaque(px, col, cov);
    }
}

/// [`blend_opaque_run`] on one RGB pixel.
#[inline(always)]
pub(crate) fn blend_opaque(px: &mut [u8], col: [u8; 3], cov: f32) {
    for ch in 0..3 {
        let d = px[ch] as f32;
        px[ch] = blended(px[ch], (col[ch] as f32 - d) * cov, NUDGE);
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod sse2 {
    //! [`super::Paint::blend`] on 16 pixels (three vectors of 16 channels) at a time,
    //! with SSE2 (part of every x86-64). Per channel the same f32 operations in the
    //! same order (no fused multiply-add), so the same results; the conversion back to
    //! bytes truncates like `as u8` for every value `a` in `[0, 1]` gives (and maps
    //! NaN to 0 as `as u8` does), and the nudge is [`super::blended`]'s.
    use std::arch::x86_64::*;

    /// Blends the whole 16-pixel blocks of `dst`; returns the rest.
    pub fn blend_run(dst: &mut [u8], c: [f32; 3], a: f32, nudge: f32) -> &mut [u8] {
        let blocks = dst.len() / 48;
        // (most calls blend one edge pixel: no block, so no vectors to set up)
        if blocks == 0 {
            return dst;
        }
        // SAFETY: SSE2 is part of the x86-64 baseline; every load and store stays
        // inside `dst` (48 bytes per block, `blocks` whole blocks).
        unsafe {
            // channel k of the block is colour channel k % 3: the four lanes of
            // vector v start at channel 4 v
            let pat: [__m128; 12] = std::array::from_fn(|v| {
                _mm_setr_ps(c[(4 * v) % 3], c[(4 * v + 1) % 3], c[(4 * v + 2) % 3], c[(4 * v + 3) % 3])
            });
            let (av, half) = (_mm_set1_ps(a), _mm_set1_ps(0.5));
            let (up, down) = (_mm_set1_ps(nudge), _mm_set1_ps(-nudge));
            let p = dst.as_mut_ptr();
            for b in 0..blocks {
                for part in 0..3 {
                    let at = p.add(48 * b + 16 * part) as *mut __m128i;
                    let words = widen(_mm_loadu_si128(at));
                    let out: [__m128i; 4] = std::array::from_fn(|q| {
                        let d = _mm_cvtepi32_ps(words[q]);
                        let t = _mm_mul_ps(_mm_sub_ps(pat[4 * part + q], d), av);
                        let r = _mm_cvttps_epi32(_mm_add_ps(_mm_add_ps(d, t), half));
                        // super::blended's nudge: masks are -1 where set
                        let same = _mm_cmpeq_ps(_mm_cvtepi32_ps(r), d);
                        let raise = _mm_castps_si128(_mm_and_ps(same, _mm_cmpge_ps(t, up)));
                        let lower = _mm_castps_si128(_mm_and_ps(same, _mm_cmple_ps(t, down)));
                        _mm_add_epi32(_mm_sub_epi32(r, raise), lower)
                    });
                    _mm_storeu_si128(at, narrow(out));
                }
            }
        }
        &mut dst[48 * blocks..]
    }

    /// The 16 bytes of `bytes` as four vectors of 32-bit integers, in order.
    #[inline(always)]
    unsafe fn widen(bytes: __m128i) -> [__m128i; 4] {
        let zero = _mm_setzero_si128();
        let (lo, hi) = (_mm_unpacklo_epi8(bytes, zero), _mm_unpackhi_epi8(bytes, zero));
        [_mm_unpacklo_epi16(lo, zero), _mm_unpackhi_epi16(lo, zero), _mm_unpacklo_epi16(hi, zero), _mm_unpackhi_epi16(hi, zero)]
    }

    /// Four vectors of 32-bit integers as 16 bytes, each saturated to `[0, 255]`.
    #[inline(always)]
    unsafe fn narrow(v: [__m128i; 4]) -> __m128i {
        _mm_packus_epi16(_mm_packs_epi32(v[0], v[1]), _mm_packs_epi32(v[2], v[3]))
    }

    /// `dst = a + r * start` per channel, rounded to nearest, on the whole 16-pixel
    /// blocks of `dst` (RGB pixels; `start` as long); returns how many bytes it wrote.
    /// The same f32 operations in the same order as the scalar `(a + 0.5 + r * s) as
    /// u8`, and the same truncation and saturation for every value below `2^31`.
    pub fn rewrite(dst: &mut [u8], start: &[u8], a: [f32; 3], r: f32) -> usize {
        let blocks = dst.len().min(start.len()) / 48;
        if blocks == 0 {
            return 0;
        }
        // SAFETY: SSE2 is part of the x86-64 baseline; every load and store stays
        // inside `dst` and `start` (48 bytes per block, `blocks` whole blocks).
        unsafe {
            let pat: [__m128; 12] = std::array::from_fn(|v| {
                let c = |k: usize| a[k % 3] + 0.5;
                _mm_setr_ps(c(4 * v), c(4 * v + 1), c(4 * v + 2), c(4 * v + 3))
            });
            let rv = _mm_set1_ps(r);
            let (d, s) = (dst.as_mut_ptr(), start.as_ptr());
            for b in 0..blocks {
                for part in 0..3 {
                    let off = 48 * b + 16 * part;
                    let words = widen(_mm_loadu_si128(s.add(off) as *const __m128i));
                    let out: [__m128i; 4] = std::array::from_fn(|q| {
                        let v = _mm_add_ps(pat[4 * part + q], _mm_mul_ps(rv, _mm_cvtepi32_ps(words[q])));
                        _mm_cvttps_epi32(v)
                    });
                    _mm_storeu_si128(d.add(off) as *mut __m128i, narrow(out));
                }
            }
        }
        48 * blocks
    }
}

/// Writes `rgb` into every pixel of `dst` (memset-like: doubles a filled prefix).
pub fn fill_rgb(dst: &mut [u8], rgb: [u8; 3]) {
    let n = dst.len() / 3 * 3;
    let dst = &mut dst[..n];
    if n == 0 {
        return;
    }
    if rgb[0] == rgb[1] && rgb[1] == rgb[2] {
        dst.fill(rgb[0]);
        return;
    }
    if n <= 48 {
        // A few pixels (most shapes at observation size): plain stores beat the
        // memmove calls of the doubling below.
        for px in dst.chunks_exact_mut(3) {
            px.copy_from_slice(&rgb);
        }
        return;
    }
    dst[..3].copy_from_slice(&rgb);
    let mut filled = 3;
    while filled < n {
        let k = filled.min(n - filled);
        dst.copy_within(..k, filled);
        filled += k;
    }
}

/// The coverage correction Chromium's text rendering (Skia on Linux) applies to glyph
/// masks before compositing them: coverage is mapped so that blending in the canvas's
/// non-linear 8-bit space looks as a blend in a space of gamma 1.2 would, with a
/// contrast boost of 0.2 that fades out as the text colour nears white. One table per
/// eighth of the colour's luminance (Rec. 709 weights in 8 bits, top 3 bits), each
/// mapping a coverage level to the corrected coverage, rounded to a level.
pub struct MaskGamma {
    tables: [[f32; 256]; 8],
}

impl MaskGamma {
    const GAMMA: f32 = 1.2;
    const CONTRAST: f32 = 0.2;

    /// The process's tables (built on first use).
    pub fn get() -> &'static MaskGamma {
        static TABLES: std::sync::OnceLock<MaskGamma> = std::sync::OnceLock::new();
        TABLES.get_or_init(|| {
            let mut tables = [[0f32; 256]; 8];
            for (i, t) in tables.iter_mut().enumerate() {
                // the luminance bucket's representative level (3 bits widened to 8)
                let lum = (i << 5) | (i << 2) | (i >> 1);
                Self::build(t, lum as f32 / 255.0);
            }
            MaskGamma { tables }
        })
    }

    /// The table of text colour `rgb`.
    pub fn table(&self, rgb: [u8; 3]) -> &[f32; 256] {
        let lum = (rgb[0] as u32 * 54 + rgb[1] as u32 * 183 + rgb[2] as u32 * 19) >> 8;
        &self.tables[(lum >> 5) as usize]
    }

    fn build(table: &mut [f32; 256], src: f32) {
        let g = Self::GAMMA;
        let lin_src = src.powf(g);
        // the destination is unknown: guess the opposite luminance
        let dst = 1.0 - src;
        let lin_dst = dst.powf(g);
        let contrast = Self::CONTRAST * lin_dst;
        for (i, out) in table.iter_mut().enumerate() {
            let raw = i as f32 / 255.0;
            let a = raw + (1.0 - raw) * contrast * raw;
            let v = if (src - dst).abs() < 1.0 / 256.0 {
                a
            } else {
                let lin_out = lin_src * a + (1.0 - a) * lin_dst;
                // the coverage that blends dst to the wanted output in 8-bit space
                (lin_out.powf(1.0 / g) - dst) / (src - dst)
            };
            *out = ((255.0 * v + 0.5).floor().clamp(0.0, 255.0)) / 255.0;
        }
    }
}

#[cfg(test)]
mod mask_gamma_tests {
    use super::*;

    #[test]
    fn white_text_is_gamma_only_and_ends_are_fixed() {
        let m = MaskGamma::get();
        let white = m.table([255, 255, 255]);
        assert_eq!(white[0], 0.0);
        assert_eq!(white[255], 1.0);
        // white on (guessed) black: coverage^(1/1.2), no contrast
        let want = ((128f32 / 255.0).powf(1.0 / 1.2) * 255.0 + 0.5).floor() / 255.0;
        assert_eq!(white[128], want);
        // every table is monotonic
        for t in &m.tables {
            assert!(t.windows(2).all(|w| w[0] <= w[1]));
        }
        // black on (guessed) white: full contrast, then the inverse gamma blend
        let raw = 128f32 / 255.0;
        let a = raw + (1.0 - raw) * 0.2 * raw;
        let want = ((1.0 - (1.0 - a).powf(1.0 / 1.2)) * 255.0 + 0.5).floor() / 255.0;
        assert_eq!(m.table([0, 0, 0])[128], want);
        // luminance picks the table: pure green is brighter than pure blue
        assert!(m.table([0, 255, 0])[128] > m.table([0, 0, 255])[128]);
    }
}

#[cfg(test)]
mod run_tests {
    use super::*;

    /// xorshift64*: a fixed stream of test values.
    fn next(s: &mut u64) -> u64 {
        *s ^= *s >> 12;
        *s ^= *s << 25;
        *s ^= *s >> 27;
        s.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    #[test]
    fn whole_channel_is_a_whole_pixel_blend_channel_by_channel() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for case in 0..200 {
            let col = Rgba::new(next(&mut s) as u8, next(&mut s) as u8, next(&mut s) as u8, [255, 1, 128, next(&mut s) as u8][case % 4]);
            let Some(paint) = Paint::new(col) else { continue };
            let paint = if case % 3 == 0 { paint.with_mask_gamma() } else { paint };
            for v in 0..=255u8 {
                let mut px = [v, v.wrapping_mul(7), v.wrapping_add(91)];
                let before = px;
                paint.blend_uniform(&mut px, 1.0);
                for ch in 0..3 {
                    assert_eq!(paint.whole_channel(ch, before[ch]), px[ch], "case {case}: {col:?}, channel {ch} at {}", before[ch]);
                }
            }
        }
    }

    #[test]
    fn round_level_is_round_clamped_to_a_level() {
        let want = |x: f64| (x.round() as u32).min(255);
        let mut s = 0x0bad_cafe_f00d_1234u64;
        let specials = [0.0, -0.0, 0.5, 1.5, 254.5, 255.0, 255.49, 255.5, 300.0, -0.5, -0.49, -3.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.49999999999999994, 127.49999999999999];
        for x in specials.into_iter().chain((0..100_000).map(|_| (next(&mut s) % 1_000_000) as f64 / 3_000.0 - 30.0)) {
            assert_eq!(super::round_level(x), want(x), "{x}");
        }
        for k in 0..=2560 {
            let x = k as f64 / 10.0;
            assert_eq!(super::round_level(x), want(x), "{x}");
        }
    }

    #[test]
    fn fill_rgb_writes_every_whole_pixel_and_nothing_else() {
        for rgb in [[10, 20, 30], [7, 7, 7], [255, 0, 128]] {
            for len in 0..200 {
                let mut dst = vec![1u8; len];
                fill_rgb(&mut dst, rgb);
                let whole = len / 3 * 3;
                assert!(dst[..whole].chunks_exact(3).all(|px| px == rgb), "{rgb:?} over {len} bytes");
                assert!(dst[whole..].iter().all(|&v| v == 1), "{rgb:?} over {len} bytes: a partial pixel written");
            }
        }
    }

    #[test]
    fn a_uniform_run_blends_every_pixel_as_one_pixel_blends() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        // every destination level in every channel position, then random rows of every
        // length up to a few vector blocks, at alphas and coverages from 0 to 1
        let every: Vec<u8> = (0..=255u8).cycle().take(3 * 256 * 3).collect();
        for case in 0..600 {
            let col = Rgba::new(next(&mut s) as u8, next(&mut s) as u8, next(&mut s) as u8, [255, 128, 1, next(&mut s) as u8][case % 4]);
            let paint = Paint::new(col).unwrap_or(Paint::new(Rgba::new(1, 2, 3, 255)).unwrap());
            let cov = match case % 5 {
                0 => 1.0,
                1 => 0.5,
                2 => 1e-7,
                _ => (next(&mut s) % 100_000) as f32 / 100_000.0,
            };
            let row: Vec<u8> = if case < 20 { every.clone() } else { (0..3 * (case % 70)).map(|_| next(&mut s) as u8).collect() };
            let mut want = row.clone();
            for px in want.chunks_exact_mut(3) {
                paint.blend_cov(px, cov);
            }
            let mut got = row.clone();
            paint.blend_uniform(&mut got, cov);
            assert_eq!(got, want, "case {case}: colour {col:?}, coverage {cov}");
        }
    }
}
