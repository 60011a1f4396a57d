//! Blend modes (`JG_OP_BLEND`: p5's `blendMode()`, the canvas 2D
//! `globalCompositeOperation`) other than source-over: each fill and each stroke sums
//! its own coverage in a probed draw, then combines its colour with every pixel it
//! reaches by the mode's blend function, by its alpha times that coverage.
//!
//! The browser combines at canvas resolution and the observation averages that down;
//! here the combination runs on the buffer's pixels. Where the mode is linear in the
//! pixel's colour (`lighter` below the clamp, multiply, screen, exclusion) and a pixel
//! lies under one shape's edge, the two agree; elsewhere they differ only in edge
//! pixels whose canvas pixels held different colours.

use super::{Canvas, DrawError};
use crate::command::{BlendOp, Cap, Command, Join, Rgba, Style};

impl Canvas {
    /// A shape command under a blend mode: its fill and its stroke apart, in the
    /// browser's order (p5 fills before it strokes; text strokes first).
    #[cold]
    #[inline(never)]
    pub(super) fn exec_blended(&mut self, cmd: Command<'_>, style: Style) -> Result<(), DrawError> {
        for (pass, colour) in passes(cmd, style).into_iter().flatten() {
            self.cmd_serial += 1;
            let Some(reached) = self.probe_coverage(pass)? else { continue };
            self.composite_probed(reached, colour);
            self.clear_probed(reached);
        }
        Ok(())
    }

    /// `background(c)` under a blend mode: p5 fills the canvas as a rectangle, which
    /// combines with the canvas as any shape does.
    #[cold]
    #[inline(never)]
    pub(super) fn background_blended(&mut self, c: Rgba) -> Result<(), DrawError> {
        let rect = canvas_rect(self.logical, c);
        let style = *rect.style().expect("a rectangle has a style");
        self.exec_blended(rect, style)
    }

    /// Composites the coverage of the last probed draw (`self.probe_cov`), inside the
    /// box `reached`, in colour `colour` (its alpha times the coverage) by the current
    /// blend mode.
    fn composite_probed(&mut self, [x0, y0, x1, y1]: [usize; 4], colour: Rgba) {
        let (w, op) = (self.w, self.blend);
        let rgb = [colour.r, colour.g, colour.b];
        let alpha = colour.a as f32 / 255.0;
        for y in y0..y1 {
            for x in x0..x1 {
                let c = self.probe_cov[y * w + x];
                if c > 0.0 {
                    let at = 3 * (y * w + x);
                    blend_pixel(&mut self.pixels[at..at + 3], rgb, alpha, c.min(1.0), op);
                }
            }
        }
    }
}

/// The fill and the stroke of a shape command, each as a command of its own and with
/// its colour, in the order the browser draws them.
pub(super) fn passes(cmd: Command<'_>, style: Style) -> [Option<(Command<'_>, Rgba)>; 2] {
    let none = Rgba::default();
    let stroke_only = matches!(cmd, Command::Line { .. } | Command::Point { .. });
    let fill = (style.fill.a != 0 && !stroke_only).then(|| (cmd.with_style(Style { stroke: none, ..style }).expect("a shape"), style.fill));
    let stroke = (style.stroke.a != 0).then(|| (cmd.with_style(Style { fill: none, ..style }).expect("a shape"), style.stroke));
    if matches!(cmd, Command::Text { .. }) {
        [stroke, fill]
    } else {
        [fill, stroke]
    }
}

/// The rectangle p5's `background(c)` fills: the logical canvas, untransformed.
pub(super) fn canvas_rect(logical: (f64, f64), c: Rgba) -> Command<'static> {
    let style = Style { fill: c, stroke: Rgba::default(), weight: 0.0, cap: Cap::Round, join: Join::Miter, matrix: [1.0, 0.0, 0.0, 1.0, 0.0, 0.0] };
    Command::Rect { style, xywh: [0.0, 0.0, logical.0 as f32, logical.1 as f32], radii: [0.0; 4] }
}

/// Combines colour `cs` of alpha `alpha` with the pixel `px` by `op` over the share
/// `cov` of the pixel: `cb + cov alpha (B(cb, cs) - cb)`, and for `lighter`
/// `cb + cov (min(1, cb + alpha cs) - cb)` (the canvas pixels it covers add and clamp
/// each, the others keep `cb`), rounded to 8 bits as the canvas keeps them.
pub(super) fn blend_pixel(px: &mut [u8], cs: [u8; 3], alpha: f32, cov: f32, op: BlendOp) {
    let (alpha, cov) = (alpha.min(1.0), cov.min(1.0));
    if alpha <= 0.0 || cov <= 0.0 {
        return;
    }
    for k in 0..3 {
        let (b, s) = (px[k] as f32 / 255.0, cs[k] as f32 / 255.0);
        let v = match op {
            BlendOp::Lighter => b + cov * ((b + alpha * s).min(1.0) - b),
            _ => b + cov * alpha * (blend_function(op, b, s) - b),
        };
        px[k] = (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
    }
}

/// The W3C compositing spec's separable blend function `B(cb, cs)` (channels in
/// `[0, 1]`).
fn blend_function(op: BlendOp, cb: f32, cs: f32) -> f32 {
    let hard_light = |b: f32, s: f32| if s <= 0.5 { b * 2.0 * s } else { let t = 2.0 * s - 1.0; b + t - b * t };
    match op {
        BlendOp::SourceOver | BlendOp::Lighter => cs,
        BlendOp::Darken => cb.min(cs),
        BlendOp::Lighten => cb.max(cs),
        BlendOp::Difference => (cb - cs).abs(),
        BlendOp::Exclusion => cb + cs - 2.0 * cb * cs,
        BlendOp::Multiply => cb * cs,
        BlendOp::Screen => cb + cs - cb * cs,
        BlendOp::Overlay => hard_light(cs, cb),
        BlendOp::HardLight => hard_light(cb, cs),
        BlendOp::SoftLight => {
            if cs <= 0.5 {
                cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb)
            } else {
                let d = if cb <= 0.25 { ((16.0 * cb - 12.0) * cb + 4.0) * cb } else { cb.sqrt() };
                cb + (2.0 * cs - 1.0) * (d - cb)
            }
        }
        BlendOp::ColorDodge => {
            if cb == 0.0 {
                0.0
            } else if cs >= 1.0 {
                1.0
            } else {
                (cb / (1.0 - cs)).min(1.0)
            }
        }
        BlendOp::ColorBurn => {
            if cb >= 1.0 {
                1.0
            } else if cs <= 0.0 {
                0.0
            } else {
                1.0 - ((1.0 - cb) / cs).min(1.0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::blend_pixel;
    use crate::command::BlendOp;

    #[test]
    fn lighter_adds_and_clamps() {
        let mut px = [100, 200, 0];
        blend_pixel(&mut px, [100, 100, 100], 1.0, 1.0, BlendOp::Lighter);
        assert_eq!(px, [200, 255, 100]);
        let mut px = [100, 200, 0];
        blend_pixel(&mut px, [100, 100, 100], 0.5, 1.0, BlendOp::Lighter);
        assert_eq!(px, [150, 250, 50]);
        // half the pixel's area: half of it clamps, half keeps what it held
        let mut px = [100, 200, 0];
        blend_pixel(&mut px, [100, 100, 100], 1.0, 0.5, BlendOp::Lighter);
        assert_eq!(px, [150, 228, 50]);
    }

    #[test]
    fn the_separable_modes_at_full_alpha() {
        let cases = [
            (BlendOp::Darken, [80, 200, 30], [120, 100, 30]),
            (BlendOp::Lighten, [80, 200, 30], [120, 100, 30]),
            (BlendOp::Multiply, [255, 128, 0], [128, 128, 255]),
            (BlendOp::Screen, [255, 128, 0], [128, 128, 255]),
            (BlendOp::Difference, [200, 50, 0], [50, 200, 0]),
        ];
        let want: [[u8; 3]; 5] = [[80, 100, 30], [120, 200, 30], [128, 64, 0], [255, 192, 255], [150, 150, 0]];
        for ((op, cb, cs), want) in cases.into_iter().zip(want) {
            let mut px = cb;
            blend_pixel(&mut px, cs, 1.0, 1.0, op);
            assert_eq!(px, want, "{op:?}");
        }
    }

    #[test]
    fn no_alpha_changes_nothing_and_partial_alpha_interpolates() {
        let mut px = [10, 20, 30];
        blend_pixel(&mut px, [255, 255, 255], 1.0, 0.0, BlendOp::Multiply);
        assert_eq!(px, [10, 20, 30]);
        let mut px = [200, 200, 200];
        blend_pixel(&mut px, [0, 0, 0], 1.0, 0.25, BlendOp::Multiply);
        assert_eq!(px, [150, 150, 150]);
    }
}
