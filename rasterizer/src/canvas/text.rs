//! Text: glyph outlines filled like paths, or hinted glyph masks as Chromium draws
//! small unrotated text (see [`Canvas::hinted_text`]).

use super::trail::CanvasCells;
use super::Canvas;
use crate::blend::Paint;
use crate::command::Style;
use crate::damage::in_ranges;
use crate::flatten::Flattener;
use crate::fasthash::hash_words;
use crate::geometry::{Point, Rect};

/// Chromium draws text of more pixels per em than this as paths, not glyph masks.
const MAX_MASK_PPEM: f64 = 256.0;

/// The observation-pixel coverage of one glyph run drawn by
/// [`Canvas::fine_glyph_fill`], kept for the next frame that draws the same run at
/// the same place and view.
#[derive(Debug)]
pub(super) struct FineMask {
    key: Vec<u64>,
    /// Keep the hinted glyphs of the key alive (the key holds their addresses).
    #[allow(dead_code)]
    glyphs: Vec<std::sync::Arc<crate::font::Hinted>>,
    x0: usize,
    y0: usize,
    w: usize,
    h: usize,
    cov: Vec<f32>,
    /// Where a run of whole canvas pixels lay, for [`FineMask::shared_columns`].
    place: Option<FinePlace>,
    /// [`hash_words`] of `key`, and of what [`FineMask::shared_columns`] needs equal
    /// (the key's head and the place; 0 without a place): compared first.
    key_hash: u64,
    place_hash: u64,
    /// When it was last drawn ([`Canvas::fine_glyph_fill`]'s count): the least
    /// recently drawn mask makes room for a new one.
    used: u64,
    /// Its canvas pixels, for a frame over a trail.
    trail: Option<Box<TrailText>>,
}

/// A glyph run's canvas box of [`Canvas::fine_coverage`] when it is summed from
/// glyph coverages on whole canvas pixels: its corner, rows, the clip's right edge
/// (box columns), the buffer box's corner and rows, and the first box column each
/// glyph reaches (`i64::MAX`: none).
#[derive(Debug, PartialEq)]
struct FinePlace {
    corner: [u64; 2],
    rows: usize,
    clip_x1: i64,
    buffer: [usize; 3],
    starts: Vec<i64>,
}

/// Words of a [`FineMask`] key before its glyphs: the view, the clip, the tolerance
/// and the correction table.
const FINE_KEY_HEAD: usize = 10;

impl FinePlace {
    /// [`hash_words`] of what two runs must share for [`FineMask::shared_columns`]:
    /// the key's head, the box's corner and rows, the buffer box.
    fn hash(&self, key: &[u64]) -> u64 {
        let [b0, b1, b2] = self.buffer;
        hash_words(key[..FINE_KEY_HEAD].iter().copied().chain(self.corner).chain([self.rows as u64, b0 as u64, b1 as u64, b2 as u64]))
    }
}

/// A text run's canvas pixels over a trail (see `canvas/trail.rs`) and its
/// (corrected) coverage there.
#[derive(Debug)]
pub(super) struct TrailText {
    cells: CanvasCells,
    cov: Vec<f32>,
}

impl FineMask {
    /// How many of its box's first columns a run at `place` with `key` shares with
    /// this mask's: those that only glyphs of the runs' common first glyphs reach
    /// (glyphs on whole canvas pixels add into the box, so such columns are summed
    /// alike); 0 when the runs lie elsewhere or differ in view.
    fn shared_columns(&self, key: &[u64], place: &FinePlace) -> usize {
        let Some(old) = &self.place else { return 0 };
        if self.key[..FINE_KEY_HEAD] != key[..FINE_KEY_HEAD] || (old.corner, old.rows, old.buffer) != (place.corner, place.rows, place.buffer) {
            return 0;
        }
        let common = self.key[FINE_KEY_HEAD..].chunks_exact(3).zip(key[FINE_KEY_HEAD..].chunks_exact(3)).take_while(|(a, b)| a == b).count();
        let first_other = old.starts[common..].iter().chain(&place.starts[common..]).copied().min().unwrap_or(i64::MAX);
        first_other.min(old.clip_x1).min(place.clip_x1).max(0) as usize
    }
}

/// The buffer columns (rows) a canvas column (row) of [`Canvas::fine_coverage`]
/// meets: `k` by `first` of its width, and `k + 1` by `second` when it meets two.
#[derive(Clone, Debug)]
pub(super) struct CellShares {
    k: usize,
    first: f32,
    second: Option<f32>,
    meets: bool,
}

impl CellShares {
    /// The shares of canvas cell `i` (device `[i s + t, (i + 1) s + t]`, `s < 1`) in
    /// the `n` buffer cells from `o0`: the overlap with each, in order, where it is
    /// above 0.
    #[inline]
    pub(super) fn of(i: usize, s: f64, t: f64, o0: usize, n: usize) -> CellShares {
        let (a, b) = (i as f64 * s + t, (i + 1) as f64 * s + t);
        let mut c = CellShares { k: 0, first: 0.0, second: None, meets: false };
        let mut k = a.floor().max(o0 as f64) as usize;
        while k < o0 + n && (k as f64) < b {
            let len = (b.min(k as f64 + 1.0) - a.max(k as f64)) as f32;
            if len > 0.0 {
                if !c.meets {
                    (c.k, c.first, c.meets) = (k - o0, len, true);
                } else {
                    debug_assert!(c.second.is_none() && k == c.k + o0 + 1, "s < 1: a canvas cell meets at most two neighbouring buffer cells");
                    c.second = Some(len);
                }
            }
            k += 1;
        }
        c
    }

    /// The buffer cell (from the first of [`CellShares::of`]) it covers most, if it
    /// meets any.
    pub(super) fn home(&self) -> Option<usize> {
        self.meets.then(|| if self.second.is_some_and(|l| l > self.first) { self.k + 1 } else { self.k })
    }

    /// The buffer cells it meets and its overlap with each, in order.
    pub(super) fn pieces(&self) -> impl Iterator<Item = (usize, f32)> {
        let first = self.meets.then_some((self.k, self.first));
        first.into_iter().chain(self.second.map(|l| (self.k + 1, l)))
    }
}

/// Glyph runs a canvas keeps the coverage of (a board of numbered tiles redrawn
/// whole, a HUD).
const MAX_FINE_MASKS: usize = 64;

/// Glyph runs of one place (see [`FinePlace`]) a canvas keeps.
const MAX_FINE_MASKS_PER_PLACE: usize = 4;

/// Raw (uncorrected) canvas-resolution coverage of hinted glyphs, per glyph and
/// quarter-pixel phase of its origin: a HUD whose text changes every frame (a score,
/// a timer) draws the same few glyphs at the same phases, so
/// [`Canvas::fine_glyph_fill`] rasterizes each of them once instead of per frame.
#[derive(Debug, Default)]
pub(super) struct GlyphCoverage {
    entries: crate::fasthash::FastMap<(usize, u8), GlyphCov>,
    tol: f64,
}

/// One glyph's coverage: `w x h` canvas pixels from `(x0, y0)` relative to its origin
/// `(floor(ox), oy)`.
#[derive(Debug)]
struct GlyphCov {
    /// Keeps the key's glyph alive (the key holds its address).
    #[allow(dead_code)]
    glyph: std::sync::Arc<crate::font::Hinted>,
    x0: i64,
    y0: i64,
    w: usize,
    h: usize,
    cov: Vec<f32>,
}

/// Glyph coverages a canvas keeps before it starts over.
const MAX_GLYPH_COVERAGES: usize = 1024;

impl GlyphCoverage {
    /// The coverage of glyph `h` with its origin `phase` (0, 0.25, 0.5 or 0.75) right
    /// of a pixel boundary and on one, rasterized at tolerance `tol` on first use.
    fn get(&mut self, h: &std::sync::Arc<crate::font::Hinted>, phase: f64, tol: f64, raster: &mut crate::coverage::Rasterizer, path: &mut crate::flatten::Polylines) -> &GlyphCov {
        if tol != self.tol || self.entries.len() >= MAX_GLYPH_COVERAGES {
            self.entries.clear();
            self.tol = tol;
        }
        let key = (std::sync::Arc::as_ptr(h) as usize, (phase * 4.0) as u8);
        self.entries.entry(key).or_insert_with(|| {
            let [bx0, by0, bx1, by1] = h.bbox.map(|v| v as f64);
            let (x0, y0) = ((phase + bx0).floor() - 1.0, (-by1).floor() - 1.0);
            let (x1, y1) = ((phase + bx1).ceil() + 1.0, (-by0).ceil() + 1.0);
            let (w, hgt) = if h.is_empty() || !(x1 > x0 && y1 > y0) { (0, 0) } else { ((x1 - x0) as usize, (y1 - y0) as usize) };
            let mut cov = vec![0f32; w * hgt];
            if w > 0 {
                let clip = Rect { x0: 0.0, y0: 0.0, x1: w as f64, y1: hgt as f64 };
                let fl = Flattener::within(tol, clip.outset(tol));
                path.clear();
                h.outline(&fl, |px, py| Point::new(phase + px - x0, -py - y0), path);
                raster.begin_exact(clip);
                for c in &path.contours {
                    raster.add_polygon(&path.pts[c.start..c.end], |p| p);
                }
                raster.finish(w, hgt, |y, xs, row| cov[y * w + xs..][..row.len()].copy_from_slice(row));
            }
            GlyphCov { glyph: h.clone(), x0: x0 as i64, y0: y0 as i64, w, h: hgt, cov }
        })
    }
}

impl Canvas {
    /// Glyph outlines of the installed face `face` at `size` (user units per em), each
    /// at its origin, filled (nonzero, as one shape) and stroked like a path. Nothing
    /// is drawn without fonts, for an unknown face or a non-finite size or origin.
    pub(super) fn text(&mut self, style: &Style, face: u32, size: f32, glyphs: &[u32]) {
        let Some(f) = crate::font::fonts().and_then(|s| s.face(face)) else { return };
        let s = size as f64 / f.metrics().units_per_em as f64;
        if !s.is_finite() || s <= 0.0 {
            return;
        }
        let run = || glyphs.chunks_exact(3).map(|g| (g[0] as u16, f32::from_bits(g[1]) as f64, f32::from_bits(g[2]) as f64));
        if run().any(|(_, x, y)| !(x.is_finite() && y.is_finite())) {
            return;
        }
        if self.hinted_text(style, face, size as f64, glyphs) {
            return;
        }
        let mut bounds: Option<Rect> = None;
        for (g, x, y) in run() {
            if let Some([x0, y0, x1, y1]) = f.glyph_box(g) {
                let b = Rect { x0: x + x0 as f64 * s, y0: y - y1 as f64 * s, x1: x + x1 as f64 * s, y1: y - y0 as f64 * s };
                bounds = Some(bounds.map_or(b, |a| Rect { x0: a.x0.min(b.x0), y0: a.y0.min(b.y0), x1: a.x1.max(b.x1), y1: a.y1.max(b.y1) }));
            }
        }
        let Some(bounds) = bounds else { return };
        self.shape(style, true, true, bounds, false, &|p, fl, _| {
            for (g, x, y) in run() {
                f.outline(g, fl, |px, py| Point::new(x + px * s, y - py * s), p);
            }
        });
    }

    /// Text as Chromium draws it on Linux when the transform is an unrotated uniform
    /// scale and the size at most [`MAX_MASK_PPEM`] canvas pixels: glyph masks, each
    /// glyph hinted (light, vertical only) at its size in canvas pixels, its origin
    /// rounded to a quarter pixel across and a whole pixel down, the coverage of the
    /// fill corrected by [`crate::blend::MaskGamma`]. Larger or transformed text is a
    /// plain path there too. Returns false (nothing drawn) where this does not
    /// apply, or without a hinter.
    fn hinted_text(&mut self, style: &Style, face: u32, size: f64, glyphs: &[u32]) -> bool {
        let m = style.matrix.map(|v| v as f64);
        let scale = m[0];
        if !crate::font::can_hint() || m[1] != 0.0 || m[2] != 0.0 || !(scale > 0.0) || (m[3] - scale).abs() > 1e-6 * scale {
            return false;
        }
        let ppem = size * scale;
        if !(1.0 / 64.0..=MAX_MASK_PPEM).contains(&ppem) {
            return false;
        }
        let size_26_6 = (ppem * 64.0) as i32;
        let mut run = Vec::with_capacity(glyphs.len() / 3);
        let mut bounds: Option<Rect> = None;
        for g in glyphs.chunks_exact(3) {
            let Some(h) = self.hints.get(face, g[0] as u16, size_26_6) else { return false };
            let (x, y) = (f32::from_bits(g[1]) as f64, f32::from_bits(g[2]) as f64);
            let ox = ((scale * x + m[4]) * 4.0 + 0.5).floor() / 4.0;
            let oy = (m[3] * y + m[5] + 0.5).floor();
            if !(ox.is_finite() && oy.is_finite()) {
                return false;
            }
            if !h.is_empty() {
                let [x0, y0, x1, y1] = h.bbox.map(|v| v as f64);
                let b = Rect { x0: ox + x0, y0: oy - y1, x1: ox + x1, y1: oy - y0 };
                bounds = Some(bounds.map_or(b, |a| Rect { x0: a.x0.min(b.x0), y0: a.y0.min(b.y0), x1: a.x1.max(b.x1), y1: a.y1.max(b.y1) }));
            }
            run.push((h, ox, oy));
        }
        let Some(bounds) = bounds else { return true };
        // the glyphs are placed in canvas pixels: draw with the identity, the stroke
        // weight scaled as the matrix would have
        let canvas_px = Style { matrix: [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], weight: style.weight * scale as f32, ..*style };
        let mut can_fill = true;
        if self.sx < 1.0 && self.sy < 1.0 {
            if let Some(paint) = Paint::new(style.fill) {
                self.fine_glyph_fill(&paint, bounds, &run);
            }
            can_fill = false;
        }
        self.glyph_masks = true;
        self.shape(&canvas_px, can_fill, true, bounds, false, &|p, fl, _| {
            for (h, ox, oy) in &run {
                h.outline(fl, |px, py| Point::new(ox + px, oy - py), p);
            }
        });
        self.glyph_masks = false;
        true
    }

    /// The fill of a glyph run when an observation pixel spans several canvas pixels.
    /// Chromium corrects each canvas pixel's glyph coverage (the mask gamma) and the
    /// observation is the area average of those pixels; the correction of an averaged
    /// coverage is not the average of the corrections (at 400 -> 64 most canvas pixels
    /// of a stem are fully covered and need none). So the run's coverage is computed at
    /// canvas resolution, corrected there, and area-averaged to the buffer's pixels,
    /// which are then blended without further correction.
    fn fine_glyph_fill(&mut self, paint: &Paint, bounds: Rect, run: &[(std::sync::Arc<crate::font::Hinted>, f64, f64)]) {
        let lut = crate::blend::MaskGamma::get().table(paint.rgb());
        // a HUD draws the same text frame after frame: its coverage is kept
        let mut key = Vec::with_capacity(3 * run.len() + 10);
        key.extend([self.sx, self.sy, self.tx, self.ty, self.clip.x0, self.clip.y0, self.clip.x1, self.clip.y1, self.tol].map(f64::to_bits));
        key.push(lut.as_ptr() as u64);
        for (h, ox, oy) in run {
            key.extend([std::sync::Arc::as_ptr(h) as u64, ox.to_bits(), oy.to_bits()]);
        }
        let key_hash = hash_words(key.iter().copied());
        // (under a trail, a mask made without its canvas pixels is made again)
        let trail = self.trail.is_some();
        let hit = self.fine_masks.iter().position(|m| m.key_hash == key_hash && m.key == key && (!trail || m.trail.is_some()));
        let at = match hit {
            Some(i) => i,
            None => {
                let Some(m) = self.fine_coverage(bounds, run, lut, key, key_hash) else { return };
                // (a score or a timer drawn at one place makes a run each time it
                // changes: those of one place make room for each other, not for the
                // other texts of the frame)
                let same_place = |f: &FineMask| m.place.is_some() && f.place_hash == m.place_hash;
                let lru = |pick: &dyn Fn(&FineMask) -> bool| (0..self.fine_masks.len()).filter(|&i| pick(&self.fine_masks[i])).min_by_key(|&i| self.fine_masks[i].used);
                let evict = if self.fine_masks.iter().filter(|f| same_place(f)).count() >= MAX_FINE_MASKS_PER_PLACE {
                    lru(&same_place)
                } else if self.fine_masks.len() >= MAX_FINE_MASKS {
                    lru(&|_| true)
                } else {
                    None
                };
                if let Some(i) = evict {
                    self.fine_masks[i] = m;
                    i
                } else {
                    self.fine_masks.push(m);
                    self.fine_masks.len() - 1
                }
            }
        };
        self.fine_tick += 1;
        self.fine_masks[at].used = self.fine_tick;
        let mut masks = std::mem::take(&mut self.fine_masks);
        let rgb = paint.rgb();
        let m = &mut masks[at];
        if let Some(trail) = self.trail.filter(|_| self.probe.is_none() && paint.opaque() && self.full_window() && m.trail.is_some()) {
            self.trail_text(m, trail, rgb);
            self.fine_masks = masks;
            return;
        }
        let (w, (ox0, oy0, ow, oh)) = (self.w, (m.x0, m.y0, m.w, m.h));
        for k in 0..oh {
            let y = oy0 + k;
            if self.win.rows().is_some_and(|r| !r[y]) {
                continue;
            }
            let ranges = self.win.row(y);
            for i in 0..ow {
                let x = ox0 + i;
                let c = m.cov[k * ow + i].min(1.0);
                if c < 1e-6 || !in_ranges(ranges, x) {
                    continue;
                }
                match &mut self.probe {
                    Some(p) => p.add(y * w + x, x, y, c),
                    None => paint.blend_cov(&mut self.pixels[3 * (y * w + x)..3 * (y * w + x) + 3], c),
                }
            }
        }
        self.fine_masks = masks;
    }

    /// Blends the run `m` (opaque `rgb`) under the translucent background `trail`
    /// canvas pixel by canvas pixel (see `canvas/trail.rs`).
    fn trail_text(&mut self, m: &FineMask, trail: Paint, rgb: [u8; 3]) {
        let t = m.trail.as_ref().expect("a trail mask");
        self.trail_blend(trail, &t.cells, &[(rgb, &t.cov)]);
    }

    /// The coverage of [`Canvas::fine_glyph_fill`]: the run rasterized at canvas
    /// resolution, corrected by `lut`, area-averaged to the buffer's pixels.
    fn fine_coverage(&mut self, bounds: Rect, run: &[(std::sync::Arc<crate::font::Hinted>, f64, f64)], lut: &[f32; 256], key: Vec<u64>, key_hash: u64) -> Option<FineMask> {
        let (sx, sy, tx, ty) = (self.sx, self.sy, self.tx, self.ty);
        let clip = Rect { x0: (self.clip.x0 - tx) / sx, y0: (self.clip.y0 - ty) / sy, x1: (self.clip.x1 - tx) / sx, y1: (self.clip.y1 - ty) / sy };
        let (x0, y0) = (bounds.x0.max(clip.x0).floor() - 1.0, bounds.y0.max(clip.y0).floor() - 1.0);
        let (x1, y1) = (bounds.x1.min(clip.x1).ceil() + 1.0, bounds.y1.min(clip.y1).ceil() + 1.0);
        if !(x1 > x0 && y1 > y0) || (x1 - x0) * (y1 - y0) > 1.0e8 {
            return None;
        }
        let (bw, bh) = ((x1 - x0) as usize, (y1 - y0) as usize);
        let local_clip = Rect { x0: (clip.x0 - x0).max(0.0), y0: (clip.y0 - y0).max(0.0), x1: (clip.x1 - x0).min(bw as f64), y1: (clip.y1 - y0).min(bh as f64) };
        // the buffer pixels the box reaches, and each canvas pixel's share of them
        let (w, h) = (self.w, self.h);
        let ox0 = ((x0 * sx + tx).floor().max(0.0) as usize).min(w);
        let ox1 = ((x1 * sx + tx).ceil().max(0.0) as usize).min(w);
        let oy0 = ((y0 * sy + ty).floor().max(0.0) as usize).min(h);
        let oy1 = ((y1 * sy + ty).ceil().max(0.0) as usize).min(h);
        if ox1 <= ox0 || oy1 <= oy0 {
            return None;
        }
        let (ow, oh) = (ox1 - ox0, oy1 - oy0);
        // each column's shares once (a canvas pixel narrower than a buffer pixel meets
        // one or two of them), then the canvas rows in order: every sum below still
        // adds its terms in column order, so the result is the same to the bit
        let mut cols = std::mem::take(&mut self.fine_cols);
        cols.clear();
        cols.extend((0..bw).map(|i| CellShares::of(i, sx, tx + x0 * sx, ox0, ow)));
        let whole_pixels = [local_clip.x0, local_clip.y0, local_clip.x1, local_clip.y1].iter().all(|v| v.fract() == 0.0);
        let [cx0, cy0, cx1, cy1] = [local_clip.x0, local_clip.y0, local_clip.x1, local_clip.y1].map(|v| v as i64);
        // where each glyph lies in the box: (columns, rows) after the clip, and its origin
        let mut placed = Vec::with_capacity(if whole_pixels { run.len() } else { 0 });
        if whole_pixels {
            for (h, ox, oy) in run {
                let g = self.glyph_coverage.get(h, *ox - ox.floor(), self.tol, &mut self.raster, &mut self.path);
                let gx = ox.floor() as i64 + g.x0 - x0 as i64;
                let gy = *oy as i64 + g.y0 - y0 as i64;
                let (ya, yb) = (gy.max(cy0), (gy + g.h as i64).min(cy1));
                let (xa, xb) = (gx.max(cx0), (gx + g.w as i64).min(cx1));
                placed.push(((xa, xb), (ya, yb), (gx, gy)));
            }
        }
        let place = whole_pixels.then(|| FinePlace {
            corner: [x0.to_bits(), y0.to_bits()],
            rows: bh,
            clip_x1: cx1,
            buffer: [ox0, oy0, oh],
            starts: placed.iter().map(|&((xa, xb), (ya, yb), _)| if xa < xb && ya < yb { xa } else { i64::MAX }).collect(),
        });
        // the buffer columns that only canvas columns the last frames' runs summed
        // alike reach are kept from their mask (a HUD whose score or timer changes
        // redraws the changed digits' columns)
        let place_hash = place.as_ref().map_or(0, |p| p.hash(&key));
        let (reused, shared) = match &place {
            Some(p) => {
                let shared = self.fine_masks.iter().filter(|m| m.place_hash == place_hash).map(|m| (m, m.shared_columns(&key, p)));
                shared.max_by_key(|&(m, n)| (n, m.used)).map_or((None, 0), |(m, n)| (Some(m), n))
            }
            None => (None, 0),
        };
        // (under a trail every column is summed: the canvas pixels are kept whole)
        let from = match reused {
            Some(m) if shared > 0 && self.trail.is_none() => cols[shared.min(bw)..].iter().find(|c| c.meets).map_or(ow, |c| c.k).min(m.w).min(ow),
            _ => 0,
        };
        // the first canvas column that reaches a buffer column from `from` on
        let first_col = cols.iter().position(|c| c.meets && (c.k >= from || (c.second.is_some() && c.k + 1 >= from))).unwrap_or(bw);
        // (only the columns from `first_col` on are summed below)
        let mut mask = std::mem::take(&mut self.row);
        if first_col == 0 {
            mask.clear();
            mask.resize(bw * bh, 0.0);
        } else {
            mask.resize(bw * bh, 0.0);
            for row in mask.chunks_exact_mut(bw) {
                row[first_col..].fill(0.0);
            }
        }
        // summed glyph coverages are corrected by `lut` where they are area-averaged
        // below; the rasterized run is corrected as it is emitted
        if whole_pixels {
            // the run's coverage is the sum of its glyphs' (they do not overlap), each
            // rasterized once per glyph and quarter-pixel phase (`GlyphCoverage`)
            for ((h, ox, _), &((xa, xb), (ya, yb), (gx, gy))) in run.iter().zip(&placed) {
                let xa = xa.max(first_col as i64);
                if xa >= xb {
                    continue;
                }
                let g = self.glyph_coverage.get(h, *ox - ox.floor(), self.tol, &mut self.raster, &mut self.path);
                for y in ya..yb {
                    let src = &g.cov[(y - gy) as usize * g.w + (xa - gx) as usize..][..(xb - xa) as usize];
                    let dst = &mut mask[y as usize * bw + xa as usize..][..(xb - xa) as usize];
                    for (d, &c) in dst.iter_mut().zip(src) {
                        *d += c;
                    }
                }
            }
        } else {
            let fl = Flattener::within(self.tol, local_clip.outset(self.tol));
            self.path.clear();
            for (h, ox, oy) in run {
                h.outline(&fl, |px, py| Point::new(ox + px - x0, oy - py - y0), &mut self.path);
            }
            self.raster.begin_exact(local_clip);
            for c in &self.path.contours {
                self.raster.add_polygon(&self.path.pts[c.start..c.end], |p| p);
            }
            self.raster.finish(bw, bh, |y, xs, cov| {
                for (d, &c) in mask[y * bw + xs..][..cov.len()].iter_mut().zip(cov) {
                    *d = lut[(c * 255.0 + 0.5) as usize];
                }
            });
        }
        let mut across = vec![0f32; bh * ow];
        let spread = |acc: &mut [f32], c: &CellShares, v: f32| {
            if c.meets {
                acc[c.k] += v * c.first;
                if let Some(l) = c.second {
                    acc[c.k + 1] += v * l;
                }
            }
        };
        for (row, acc) in mask.chunks_exact(bw).zip(across.chunks_exact_mut(ow)) {
            let (row, cols) = (&row[first_col..], &cols[first_col..]);
            if whole_pixels {
                for (&m, c) in row.iter().zip(cols) {
                    if m != 0.0 {
                        // SAFETY: within [0, 255.5] (NaN: min makes it 1), where truncation
                        // is what `as usize` does
                        let at = unsafe { (m.min(1.0) * 255.0 + 0.5).max(0.0).to_int_unchecked::<u32>() };
                        spread(acc, c, lut[at as usize]);
                    }
                }
            } else {
                for (&m, c) in row.iter().zip(cols) {
                    if m != 0.0 {
                        spread(acc, c, m);
                    }
                }
            }
        }
        let mut cov = vec![0f32; oh * ow];
        if let Some(m) = reused.filter(|_| from > 0) {
            for (new, old) in cov.chunks_exact_mut(ow).zip(m.cov.chunks_exact(m.w)) {
                new[..from].copy_from_slice(&old[..from]);
            }
        }
        for j in 0..bh {
            for (k, len) in CellShares::of(j, sy, ty + y0 * sy, oy0, oh).pieces() {
                for (d, &a) in cov[k * ow + from..][..ow - from].iter_mut().zip(&across[j * ow + from..][..ow - from]) {
                    *d += a * len;
                }
            }
        }
        // (under a trail: the canvas pixels too, when every column was summed)
        let trail = (self.trail.is_some() && first_col == 0).then(|| {
            let cov = if whole_pixels { mask.iter().map(|&m| if m != 0.0 { lut[(m.min(1.0) * 255.0 + 0.5) as usize] } else { 0.0 }).collect() } else { mask.clone() };
            let rows: Vec<CellShares> = (0..bh).map(|j| CellShares::of(j, sy, ty + y0 * sy, oy0, oh)).collect();
            let (lw, lh) = self.logical;
            let size = (lw.max(0.0).ceil() as usize, lh.max(0.0).ceil() as usize);
            let cells = CanvasCells::new((ox0, oy0, ow, oh), (x0 as i64, y0 as i64), bw, &cols, &rows, &[&cov], size);
            Box::new(TrailText { cells, cov })
        });
        self.row = mask;
        self.fine_cols = cols;
        Some(FineMask { glyphs: run.iter().map(|g| g.0.clone()).collect(), x0: ox0, y0: oy0, w: ow, h: oh, cov, place_hash, place, key, key_hash, used: 0, trail })
    }
}

