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
        })
    }

    /// True when alpha is 255.
    /// The paint's colour as RGB8.
    #[inline]
    pub fn rgb(&self) -> [u8; 3] {
        self.rgb
    }

    /// Whether the paint covers what is under it completely (alpha 1).
    #[inline]
    pub fn opaque(&self) -> bool {
        self.alpha >= 1.0
    }

    /// Blends one pixel with effective alpha `a` (alpha already times coverage).
    #[inline(always)]
    fn blend(&self, px: &mut [u8], a: f32) {
        for k in 0..3 {
            let d = px[k] as f32;
            px[k] = (d + (self.c[k] - d) * a + 0.5) as u8;
        }
    }

    /// Blends one RGB pixel with coverage `cv`.
    #[inline(always)]
    pub fn blend_cov(&self, px: &mut [u8], cv: f32) {
        if cv <= 0.0 {
            return;
        }
        if cv >= FULL {
            if self.opaque() {
                px.copy_from_slice(&self.rgb);
            } else {
                self.blend(px, self.alpha);
            }
        } else {
            self.blend(px, self.alpha * cv);
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
        if cov >= FULL && self.opaque() {
            fill_rgb(dst, self.rgb);
            return;
        }
        let a = if cov >= FULL { self.alpha } else { self.alpha * cov };
        for px in dst.chunks_exact_mut(3) {
            self.blend(px, a);
        }
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
