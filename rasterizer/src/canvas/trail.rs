//! Opaque shapes and text drawn again, in place, over a trail: a frame that starts
//! with a translucent `background()` over the last one.
//!
//! The browser's canvas pixels keep what the background leaves of the last frame, so
//! what a game draws again every frame (a HUD, a turret, a ship at rest) blends over
//! its own last copy: a canvas pixel it covers by `c` settles at `B + (s - B) c / (1 -
//! k (1 - c))` (`B` the trail's colour, `s` the shape's, `k` the share the background
//! keeps). Blended at observation size, a pixel partly covered keeps a share of last
//! frame's shape over its whole area instead, not only where the shape lies: a HUD
//! under `background(20, 30, 50, 40)` came out twice as bright as the browser's around
//! its glyphs, and a ship's edges half again as bright.
//!
//! So such shapes and text runs blend the canvas pixels they cover as the browser
//! does, in one canvas-resolution buffer that they share ([`TrailCanvas`]): each
//! canvas pixel carries on from what they left there last frame where its observation
//! pixel holds what the frame's translucent blends and their own blends made of it
//! ([`Held`]; nothing else drew there), else starts from the observation pixel; the
//! observation pixels take the area average of what they changed.

use super::text::CellShares;
use super::{Canvas, Fit};
use crate::blend::{skia_aa_scales, Paint};
use crate::command::{Command, AT_FILL, AT_GEOMETRY, AT_MATRIX, AT_STROKE, OP_CANVAS};
use crate::fasthash::{hash_words, FastMap};

/// The canvas pixels of a box that something covers, and the observation pixels
/// (`x0, y0, w, h`, a box of the buffer) they meet.
#[derive(Debug)]
pub(super) struct CanvasCells {
    pub(super) obs: (usize, usize, usize, usize),
    /// Only the covered canvas pixels change the observation pixels.
    active: Vec<Cell>,
}

/// A covered canvas pixel: its index in the box (`j * bw + i`), its canvas column
/// and row, the observation pixel it covers most (index in the box) and its share of
/// each it meets.
#[derive(Clone, Copy, Debug)]
struct Cell {
    k: u32,
    at: (u32, u32),
    home: u32,
    pieces: [(u32, f32); 4],
    n: u8,
}

impl CanvasCells {
    /// The cells of the `bw x bh` box at canvas pixel `corner` whose columns and rows
    /// meet the observation pixels `obs` as `cols` and `rows` say, for layers of
    /// coverage `covs`, on a canvas `size` canvas pixels wide and high (pixels off it
    /// are left out).
    pub(super) fn new(obs: (usize, usize, usize, usize), corner: (i64, i64), bw: usize, cols: &[CellShares], rows: &[CellShares], covs: &[&[f32]], size: (usize, usize)) -> CanvasCells {
        let ow = obs.2;
        let mut active = Vec::new();
        for (j, r) in rows.iter().enumerate() {
            let gy = corner.1 + j as i64;
            let Some(hr) = r.home().filter(|_| (0..size.1 as i64).contains(&gy)) else { continue };
            for (i, c) in cols.iter().enumerate() {
                let (gx, k) = (corner.0 + i as i64, j * bw + i);
                let Some(hc) = c.home().filter(|_| (0..size.0 as i64).contains(&gx)) else { continue };
                if !covs.iter().any(|cov| cov[k] > 0.0) {
                    continue;
                }
                let mut cell = Cell { k: k as u32, at: (gx as u32, gy as u32), home: (hr * ow + hc) as u32, pieces: [(0, 0.0); 4], n: 0 };
                for (q, lk) in r.pieces() {
                    for (p, lq) in c.pieces() {
                        cell.pieces[cell.n as usize] = ((q * ow + p) as u32, lk * lq);
                        cell.n += 1;
                    }
                }
                active.push(cell);
            }
        }
        CanvasCells { obs, active }
    }
}

/// The canvas pixels that shapes and text over a trail blended, at canvas resolution,
/// and what the buffer's pixels hold as far as the frame's trail and those blends go.
#[derive(Debug, Default)]
pub(super) struct TrailCanvas {
    size: (usize, usize),
    rgb: Vec<u8>,
    /// The stream ([`Canvas::frame_serial`]) that last blended each canvas pixel.
    stamp: Vec<u64>,
    /// Scratch of [`Canvas::trail_blend`]: how each observation pixel of the box came
    /// on, and what the layers changed of it.
    held: Vec<(Held, bool)>,
    compared: Vec<Compared>,
    change: Vec<f32>,
    covered: Vec<bool>,
    /// The buffer as the trail's background left it, with the blends here since, in
    /// stream `frame`.
    expected: Vec<u8>,
    frame: u64,
    /// The last stream's `expected` and the buffer at its end (when `last_ok`: that
    /// stream was the one before this): a pixel where the two agree still held what
    /// the blends left (nothing else drew there after them). Compared only for the
    /// pixels a blend asks about.
    last_expected: Vec<u8>,
    last_end: Vec<u8>,
    last_ok: bool,
}

/// An observation pixel as it is now and as the trail's background and the blends
/// over it left it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Compared {
    now: [u8; 3],
    was: [u8; 3],
}

impl Compared {
    /// Whether the map `x -> a + k x` takes the pixel from what was left there to what
    /// it holds now within `tolerance` levels on every channel.
    fn fits(&self, map: [(f32, f32); 3], tolerance: f32) -> bool {
        (0..3).all(|ch| (map[ch].0 + map[ch].1 * self.was[ch] as f32 - self.now[ch] as f32).abs() <= tolerance)
    }
}

/// How an observation pixel of a box came from what was left there last frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Held {
    /// Drawn over since: its canvas pixels start from it.
    Not,
    /// Through the trail's background alone.
    Background,
    /// Through translucent blends over it whole: per channel `x -> a + k x`.
    Map([(f32, f32); 3]),
}

impl Canvas {
    /// After the trail's background: what the buffer holds so far (see
    /// [`TrailCanvas`]); the canvas pixels are sized to the canvas.
    pub(super) fn trail_begin(&mut self) {
        let t = &mut self.trail_canvas;
        t.expected.clone_from(&self.pixels);
        t.frame = self.frame_serial;
        let (lw, lh) = self.logical;
        let size = (lw.max(0.0).ceil() as usize, lh.max(0.0).ceil() as usize);
        if t.size != size {
            t.size = size;
            t.rgb = vec![0; 3 * size.0 * size.1];
            t.stamp = vec![0; size.0 * size.1];
        }
    }

    /// Before the trail's background: keeps the last stream's `expected` and the
    /// buffer as that stream left it, for [`Canvas::trail_held`] to tell which pixels
    /// still hold what its trail and blends here made of them.
    pub(super) fn trail_end(&mut self) {
        let t = &mut self.trail_canvas;
        t.last_ok = t.frame == self.frame_serial.wrapping_sub(1) && t.expected.len() == self.pixels.len();
        if t.last_ok {
            // (trail_begin fills `expected` again after the background)
            std::mem::swap(&mut t.expected, &mut t.last_expected);
            t.last_end.clone_from(&self.pixels);
        }
    }

    /// How each observation pixel of `obs` came on since the blends here: as the
    /// trail's background and those blends made it (it holds what [`TrailCanvas`]
    /// expects), or through a map that the pixels that differ have in common (a
    /// translucent HUD bar drawn over the place); and whether nothing else drew on it
    /// after those blends last frame.
    fn trail_held(&self, obs: (usize, usize, usize, usize), held: &mut Vec<(Held, bool)>, compared: &mut Vec<Compared>) {
        let (ox0, oy0, ow, oh) = obs;
        let t = &self.trail_canvas;
        held.clear();
        compared.clear();
        for y in oy0..oy0 + oh {
            for o in y * self.w + ox0..y * self.w + ox0 + ow {
                let (now, was) = (&self.pixels[3 * o..3 * o + 3], &t.expected[3 * o..3 * o + 3]);
                let valid = t.last_ok && t.last_expected.get(3 * o..3 * o + 3) == t.last_end.get(3 * o..3 * o + 3);
                held.push((if now == was { Held::Background } else { Held::Not }, valid));
                compared.push(Compared { now: [now[0], now[1], now[2]], was: [was[0], was[1], was[2]] });
            }
        }
        let rest: Vec<usize> = (0..ow * oh).filter(|&o| held[o].0 == Held::Not).collect();
        if let Some(map) = common_map(&rest, compared) {
            for &o in &rest {
                if compared[o].fits(map, 1.0) {
                    held[o].0 = Held::Map(map);
                }
            }
        }
    }

    /// Blends the opaque `layers` (colour and canvas-pixel coverage, in drawing order)
    /// over the canvas pixels of `cells` in [`TrailCanvas`], each brought on from
    /// last frame through the background `trail` as `held` says (or taken from its
    /// observation pixel), and adds to the observation pixels the area average of
    /// what the layers changed.
    pub(super) fn trail_blend(&mut self, trail: Paint, cells: &CanvasCells, layers: &[([u8; 3], &[f32])]) {
        let (mut held, mut compared) = (std::mem::take(&mut self.trail_canvas.held), std::mem::take(&mut self.trail_canvas.compared));
        self.trail_held(cells.obs, &mut held, &mut compared);
        self.trail_canvas.compared = compared;
        let (w, (ox0, oy0, ow, oh)) = (self.w, cells.obs);
        let (now, last) = (self.frame_serial, self.frame_serial.wrapping_sub(1));
        let cw = self.trail_canvas.size.0;
        let t = &mut self.trail_canvas;
        // (the rest of an observation pixel, beyond the box or beneath no layer, shows
        // what the frame made of it so far)
        let (mut change, mut covered) = (std::mem::take(&mut t.change), std::mem::take(&mut t.covered));
        change.clear();
        change.resize(3 * ow * oh, 0.0);
        covered.clear();
        covered.resize(ow * oh, false);
        // (the trail's blend and the map are the same for every cell of the call: each
        // channel value is computed once)
        let (mut through_trail, mut through_trail_map, mut through_map_only) = (Levels::new(), Levels::new(), Levels::new());
        for cell in &cells.active {
            let g = cell.at.1 as usize * cw + cell.at.0 as usize;
            if cell.at.0 as usize >= cw || g >= t.stamp.len() {
                // (made for a canvas of another size)
                continue;
            }
            let px = &mut t.rgb[3 * g..3 * g + 3];
            let home = cell.home as usize;
            // (blended here earlier in this frame: as it is, unless something else drew
            // over it since; last frame: unless something else drew over it after)
            let (how, valid) = held[home];
            let (this_frame, last_frame) = (t.stamp[g] == now, t.stamp[g] == last && valid);
            match how {
                Held::Background if this_frame => {}
                Held::Background if last_frame => through_trail.apply(px, |ch, v| trail.whole_channel(ch, v)),
                Held::Map(map) if last_frame => through_trail_map.apply(px, |ch, v| through_map(map, ch, trail.whole_channel(ch, v))),
                Held::Map(map) if this_frame => through_map_only.apply(px, |ch, v| through_map(map, ch, v)),
                // (a canvas pixel starts from the observation pixel it covers most)
                _ => px.copy_from_slice(&self.pixels[3 * ((oy0 + home / ow) * w + ox0 + home % ow)..][..3]),
            }
            t.stamp[g] = now;
            let under = [px[0], px[1], px[2]];
            for &(rgb, cov) in layers {
                let cv = cov[cell.k as usize];
                if cv > 0.0 {
                    skia_coverage_blend(px, rgb, cv);
                }
            }
            let diff = [0, 1, 2].map(|ch| px[ch] as f32 - under[ch] as f32);
            for &(o, share) in &cell.pieces[..cell.n as usize] {
                let o = o as usize;
                covered[o] = true;
                for ch in 0..3 {
                    change[3 * o + ch] += share * diff[ch];
                }
            }
        }
        for o in 0..ow * oh {
            if !covered[o] {
                continue;
            }
            let at = 3 * ((oy0 + o / ow) * w + ox0 + o % ow);
            for ch in 0..3 {
                let v = self.pixels[at + ch] as f32 + change[3 * o + ch];
                self.pixels[at + ch] = (v + 0.5).clamp(0.0, 255.0) as u8;
            }
            // (what the pixel holds now is as this buffer has it)
            self.trail_canvas.expected[at..at + 3].copy_from_slice(&self.pixels[at..at + 3]);
        }
        let t = &mut self.trail_canvas;
        (t.held, t.change, t.covered) = (held, change, covered);
    }
}

/// A channel value after a translucent blend over it whole (`x -> a + k x`, rounded).
fn through_map(map: [(f32, f32); 3], ch: usize, v: u8) -> u8 {
    (map[ch].0 + map[ch].1 * v as f32 + 0.5).clamp(0.0, 255.0) as u8
}

/// A function of each channel's value, computed at the first value that asks for it
/// and looked up after that.
struct Levels([[u16; 256]; 3]);

impl Levels {
    const UNSET: u16 = u16::MAX;

    fn new() -> Levels {
        Levels([[Self::UNSET; 256]; 3])
    }

    #[inline(always)]
    fn apply(&mut self, px: &mut [u8], f: impl Fn(usize, u8) -> u8) {
        for ch in 0..3 {
            let slot = &mut self.0[ch][px[ch] as usize];
            if *slot == Self::UNSET {
                *slot = f(ch, px[ch]) as u16;
            }
            px[ch] = *slot as u8;
        }
    }
}

/// Opaque shapes seen in the frames of a trail, by their command's words and the view
/// ([`Canvas::exec_over_trail`]).
#[derive(Debug, Default)]
pub(super) struct TrailShapes {
    seen: FastMap<u64, Seen>,
    /// The canvas at canvas resolution that a shape's coverage is measured on.
    scratch: Option<Box<Canvas>>,
}

#[derive(Debug)]
struct Seen {
    /// The stream ([`Canvas::frame_serial`]) that drew it last.
    drawn: u64,
    /// Whether it was measured at canvas resolution, and what that gave (`None`: it
    /// is drawn as it is).
    measured: bool,
    shape: Option<Box<TrailShape>>,
}

/// A shape's canvas pixels and its fill and stroke coverage there.
#[derive(Debug)]
struct TrailShape {
    cells: CanvasCells,
    layers: Vec<([u8; 3], Vec<f32>)>,
}

/// The translation of a shape command's matrix (`e`, then `f`).
const MATRIX_E: usize = AT_MATRIX + 4;

/// A shape is kept at canvas resolution while the canvas pixels it covers are at
/// most this share of the canvas (a larger one is drawn at observation size): each
/// frame blends them one by one.
pub(super) const MAX_SHARE: usize = 8;

impl Canvas {
    /// Draws `cmd` (whose words are `words`) in a frame over a trail: an opaque shape
    /// that the last frame drew with the same words is blended at canvas resolution
    /// (see the module); any other command as it is, remembered for the next frame.
    pub(super) fn exec_over_trail(&mut self, cmd: Command<'_>, words: &[u32]) -> Result<(), super::DrawError> {
        // (a shape that casts a shadow, blends by a mode or strokes dashes is drawn as
        // it is: its passes draw their text over the trail as any text does)
        let plain = self.shadow.is_none() && self.blend == crate::command::BlendOp::SourceOver && self.dash.is_none();
        let Some(trail) = self.trail.filter(|_| plain && self.probe.is_none() && self.full_window()) else {
            return self.exec_timed(cmd);
        };
        let Some(key) = self.trail_key(&cmd, words) else { return self.exec_timed(cmd) };
        let (now, last) = (self.frame_serial, self.frame_serial.wrapping_sub(1));
        let mut seen = self.trail_shapes.seen.remove(&key).unwrap_or(Seen { drawn: 0, measured: false, shape: None });
        if seen.drawn == last {
            if !seen.measured {
                seen.measured = true;
                seen.shape = self.trail_shape(words).map(Box::new);
            }
            if let Some(s) = seen.shape.as_ref() {
                if self.deadline.passed() {
                    return Err(super::DrawError::Timeout);
                }
                self.cmd_serial += 1;
                self.flush_bands();
                // (a fill and a stroke at most)
                let [a, b] = [0, 1].map(|k| s.layers.get(k).map_or(([0; 3], &[][..]), |(rgb, cov)| (*rgb, cov.as_slice())));
                self.trail_blend(trail, &s.cells, &[a, b][..s.layers.len()]);
                seen.drawn = now;
                self.trail_shapes.seen.insert(key, seen);
                return Ok(());
            }
        }
        self.exec_timed(cmd)?;
        seen.drawn = now;
        self.trail_shapes.seen.insert(key, seen);
        Ok(())
    }

    /// Forgets the shapes that the last frame did not draw (at the start of a frame).
    pub(super) fn trail_forget(&mut self) {
        let last = self.frame_serial.wrapping_sub(1);
        self.trail_shapes.seen.retain(|_, s| s.drawn == last);
    }

    /// The key of an opaque shape command (its words and the view), or `None` for
    /// commands drawn as they are: text (kept by its own masks), translucent paint,
    /// and horizontal lines (the bands of a sky run as they are).
    fn trail_key(&self, cmd: &Command<'_>, words: &[u32]) -> Option<u64> {
        let style = match cmd {
            Command::Rect { style, .. } | Command::Ellipse { style, .. } | Command::Arc { style, .. } | Command::Point { style, .. } | Command::Path { style, .. } => style,
            Command::Line { style, p } if p[1] != p[3] => style,
            _ => return None,
        };
        let opaque_or_none = |a: u8| a == 0 || a == 255;
        if !(opaque_or_none(style.fill.a) && opaque_or_none(style.stroke.a)) || (style.fill.a == 0 && style.stroke.a == 0) {
            return None;
        }
        let view = [self.sx, self.sy, self.tx, self.ty, self.logical.0, self.logical.1].map(|v| v.to_bits());
        Some(hash_words(words.iter().map(|&w| w as u64).chain(view)))
    }

    /// The canvas pixels, coverage and observation box of the shape `words` (its fill
    /// and its stroke measured apart on a canvas at canvas resolution), if it covers
    /// any and its box is small enough.
    fn trail_shape(&mut self, words: &[u32]) -> Option<TrailShape> {
        let (lw, lh) = self.logical;
        if !(lw.fract() == 0.0 && lh.fract() == 0.0 && lw >= 1.0 && lh >= 1.0) || words.len() < AT_GEOMETRY || !(self.sx < 1.0 && self.sy < 1.0) {
            return None;
        }
        let (cw, ch) = (lw as usize, lh as usize);
        // where it lies: measured at the buffer's size, on a canvas with this view
        let (w, h) = (self.w, self.h);
        let fits = self.trail_shapes.scratch.as_ref().is_some_and(|s| (s.w, s.h, s.fit) == (w, h, self.fit));
        if !fits {
            self.trail_shapes.scratch = Canvas::new(w as u32, h as u32, self.fit, 1).map(Box::new);
        }
        let mut stream = vec![OP_CANVAS, 4, (lw as f32).to_bits(), (lh as f32).to_bits()];
        stream.extend_from_slice(words);
        let [ox0, oy0, ox1, oy1] = self.trail_shapes.scratch.as_mut()?.reached_by(&stream).ok()??;
        // its canvas pixels (a pixel more each side), measured apart for the fill and
        // the stroke on a canvas of the box's size, the shape moved to its corner
        let canvas_x = |o: usize, round: fn(f64) -> f64| round((o as f64 - self.tx) / self.sx) as i64;
        let canvas_y = |o: usize, round: fn(f64) -> f64| round((o as f64 - self.ty) / self.sy) as i64;
        let x0 = (canvas_x(ox0, f64::floor) - 1).max(0) as usize;
        let y0 = (canvas_y(oy0, f64::floor) - 1).max(0) as usize;
        let x1 = ((canvas_x(ox1, f64::ceil) + 1).max(0) as usize).min(cw);
        let y1 = ((canvas_y(oy1, f64::ceil) + 1).max(0) as usize).min(ch);
        if x1 <= x0 || y1 <= y0 {
            return None;
        }
        let (bw, bh) = (x1 - x0, y1 - y0);
        let mut fine = Canvas::new(bw as u32, bh as u32, Fit::Stretch, 1)?;
        let mut stream = vec![OP_CANVAS, 4, (bw as f32).to_bits(), (bh as f32).to_bits()];
        let at = stream.len();
        stream.extend_from_slice(words);
        let shift = |word: u32, by: usize| (f32::from_bits(word) - by as f32).to_bits();
        stream[at + MATRIX_E] = shift(words[MATRIX_E], x0);
        stream[at + MATRIX_E + 1] = shift(words[MATRIX_E + 1], y0);
        let mut layers = Vec::with_capacity(2);
        for (keep, clear) in [(AT_FILL, AT_STROKE), (AT_STROKE, AT_FILL)] {
            let colour = crate::command::Rgba::from_word(words[keep]);
            if colour.a == 0 {
                continue;
            }
            stream[at + keep] = words[keep];
            stream[at + clear] = 0;
            layers.push(([colour.r, colour.g, colour.b], fine.coverage_of(&stream).ok()?));
        }
        let covs: Vec<&[f32]> = layers.iter().map(|(_, c): &([u8; 3], Vec<f32>)| c.as_slice()).collect();
        let active = (0..bw * bh).filter(|&k| covs.iter().any(|c| c[k] > 0.0)).count();
        if active == 0 || MAX_SHARE * active > cw * ch {
            return None;
        }
        let cells = self.cells_of_box([x0, y0, x1, y1], &covs, (cw, ch))?;
        Some(TrailShape { cells, layers })
    }

    /// The cells of the canvas box `[x0, y0, x1, y1]` (canvas pixels, on a canvas of
    /// `size`) for layers of coverage `covs` (rows of the box's width), with the
    /// buffer pixels the box meets; `None` when it meets none.
    pub(super) fn cells_of_box(&self, [x0, y0, x1, y1]: [usize; 4], covs: &[&[f32]], size: (usize, usize)) -> Option<CanvasCells> {
        let (w, h, bw, bh) = (self.w, self.h, x1 - x0, y1 - y0);
        let ox0 = ((x0 as f64 * self.sx + self.tx).floor().max(0.0) as usize).min(w);
        let ox1 = ((x1 as f64 * self.sx + self.tx).ceil().max(0.0) as usize).min(w);
        let oy0 = ((y0 as f64 * self.sy + self.ty).floor().max(0.0) as usize).min(h);
        let oy1 = ((y1 as f64 * self.sy + self.ty).ceil().max(0.0) as usize).min(h);
        if ox1 <= ox0 || oy1 <= oy0 {
            return None;
        }
        let (ow, oh) = (ox1 - ox0, oy1 - oy0);
        let cols: Vec<CellShares> = (0..bw).map(|i| CellShares::of(i, self.sx, self.tx + x0 as f64 * self.sx, ox0, ow)).collect();
        let rows: Vec<CellShares> = (0..bh).map(|j| CellShares::of(j, self.sy, self.ty + y0 as f64 * self.sy, oy0, oh)).collect();
        Some(CanvasCells::new((ox0, oy0, ow, oh), (x0 as i64, y0 as i64), bw, &cols, &rows, covs, size))
    }
}

/// The per-channel map `x -> a + k x` (`0 < k <= 1`, one `k` for all channels, as
/// translucent blends keep the same share of each) that takes `compared[o].was` to
/// `compared[o].now` within a level on most of the pixels `os` (at least 4, with `was`
/// values apart), if any: fitted by least squares, then again on the pixels the first
/// fit holds for. (A frame has one such map per box: [`Canvas::trail_blend`] keeps
/// one table of it per call.)
fn common_map(os: &[usize], compared: &[Compared]) -> Option<[(f32, f32); 3]> {
    const MIN_PIXELS: usize = 4;
    let fit = |pick: &dyn Fn(&Compared) -> bool| -> Option<[(f32, f32); 3]> {
        let picked: Vec<&Compared> = os.iter().map(|&o| &compared[o]).filter(|s| pick(s)).collect();
        if picked.len() < MIN_PIXELS {
            return None;
        }
        let n = picked.len() as f32;
        // (each channel summed in the pixels' order)
        let (mut sl, mut sn) = ([0f32; 3], [0f32; 3]);
        for s in &picked {
            for ch in 0..3 {
                sl[ch] += s.was[ch] as f32;
                sn[ch] += s.now[ch] as f32;
            }
        }
        let (ml, mn) = (sl.map(|v| v / n), sn.map(|v| v / n));
        let (mut sxx, mut sxy) = (0f32, 0f32);
        for s in &picked {
            for ch in 0..3 {
                let dx = s.was[ch] as f32 - ml[ch];
                sxx += dx * dx;
                sxy += dx * (s.now[ch] as f32 - mn[ch]);
            }
        }
        // (left values must spread for the slope to mean anything)
        if sxx < 100.0 * n {
            return None;
        }
        let k = sxy / sxx;
        (k > 0.0 && k <= 1.0).then(|| std::array::from_fn(|ch| (mn[ch] - k * ml[ch], k)))
    };
    let first = fit(&|_| true)?;
    fit(&|s| s.fits(first, 1.5))
}

/// An opaque `rgb` over the 8-bit pixel `px` at coverage `cov`, as Skia blits an
/// anti-aliased mask into Chromium's canvas ([`skia_aa_scales`]).
fn skia_coverage_blend(px: &mut [u8], rgb: [u8; 3], cov: f32) {
    let (src, dst) = skia_aa_scales(255, cov as f64);
    for ch in 0..3 {
        px[ch] = (((rgb[ch] as u32 * src) >> 8) + ((px[ch] as u32 * dst) >> 8)) as u8;
    }
}
