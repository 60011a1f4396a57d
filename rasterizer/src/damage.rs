//! Which pixels a frame can change: the damage between two command streams.
//!
//! Most frames of a game redraw the same scene with a few things moved. When a frame
//! starts opaque (its first command covers the canvas), each pixel's value depends only
//! on the commands that touch it, in order. So if this frame's commands are the last
//! frame's with some removed, some added and the rest in the same relative order, a
//! pixel that no removed or added command touches ends the frame exactly as it ended
//! the last one, and only the rest needs drawing.
//!
//! [`Damage::diff`] matches the new stream's commands with the previous stream's
//! (identical words, increasing positions: a common prefix and suffix, and a greedy
//! match by hash in between), marks the tiles of a grid that the unmatched commands'
//! device boxes cover, and returns them as pixel rectangles. A box is conservative:
//! every pixel a command can write lies inside it ([`Bounds`] adds the stroke's reach).
//!
//! Invariants: a command's box is a function of its words and the view alone; the
//! tiles cover the union of the unmatched boxes of both frames; a frame whose view
//! differs from the last one, or that changes the view itself, is never diffed.

use crate::command::{Cap, Command, Commands, Join, Style, Verb, OP_CANVAS};
use crate::geometry::{Point, Rect, Transform};

/// A pixel rectangle `[x0, x1) x [y0, y1)` of the internal buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PixRect {
    /// First column.
    pub x0: u32,
    /// First row.
    pub y0: u32,
    /// One past the last column.
    pub x1: u32,
    /// One past the last row.
    pub y1: u32,
}

impl PixRect {
    /// The bounds of an [`Entry`] not computed yet.
    pub const UNKNOWN: PixRect = PixRect { x0: u32::MAX, y0: u32::MAX, x1: 0, y1: 0 };

    /// True when the rectangle holds no pixel.
    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    /// True when the two rectangles share a pixel.
    pub fn overlaps(&self, o: &PixRect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// As a device rectangle.
    pub fn to_rect(self) -> Rect {
        Rect { x0: self.x0 as f64, y0: self.y0 as f64, x1: self.x1 as f64, y1: self.y1 as f64 }
    }
}

/// The device mapping a box is computed in: canvas point `(x, y)` lands at
/// `(x * sx + tx, y * sy + ty)`, and the buffer is `w x h` pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Horizontal scale.
    pub sx: f64,
    /// Vertical scale.
    pub sy: f64,
    /// Horizontal offset.
    pub tx: f64,
    /// Vertical offset.
    pub ty: f64,
    /// Buffer width.
    pub w: u32,
    /// Buffer height.
    pub h: u32,
}

impl Bounds {
    /// The whole buffer.
    pub fn all(&self) -> PixRect {
        PixRect { x0: 0, y0: 0, x1: self.w, y1: self.h }
    }

    /// The pixels of the buffer inside device box `r` rounded out to whole canvas
    /// pixels, then to whole device pixels. The canvas pixels: an edge's coverage is
    /// that of the canvas pixels it crosses, box-filtered to the device, so it reaches
    /// every device pixel those canvas pixels overlap (a rectangle's left edge at
    /// canvas x 37.64 on a 400-wide canvas at 128 device pixels shades device pixel
    /// 11, though the edge lies at 12.04).
    fn pixels(&self, r: Rect) -> PixRect {
        if !(r.x0.is_finite() && r.y0.is_finite() && r.x1.is_finite() && r.y1.is_finite()) {
            return self.all();
        }
        let r = if self.sx > 0.0 && self.sy > 0.0 {
            let (x0, x1) = out_to_cells(r.x0, r.x1, self.sx, self.tx);
            let (y0, y1) = out_to_cells(r.y0, r.y1, self.sy, self.ty);
            Rect { x0, y0, x1, y1 }
        } else {
            r.outset(self.sx.abs().max(self.sy.abs()))
        };
        // Coverage reaches the pixels floor(x0)..ceil(x1); clamped to the buffer first,
        // truncation is floor, and x1 + 1 is at least ceil(x1) (baseline x86-64 has no
        // rounding instruction, and libm calls per command add up).
        let clamp = |v: f64, n: u32| v.max(0.0).min(n as f64) as u32;
        PixRect {
            x0: clamp(r.x0, self.w),
            y0: clamp(r.y0, self.h),
            x1: clamp(r.x1 + 1.0, self.w),
            y1: clamp(r.y1 + 1.0, self.h),
        }
    }

    /// The device box of user-space box `b` drawn with `style`, grown by the stroke's
    /// reach when `stroked` (miter joins reach 10 half-widths, square caps sqrt 2);
    /// `grow` scales the user box about its centre first (curves drawn as polygons
    /// slightly outside them).
    fn styled(&self, style: &Style, b: Rect, stroked: bool, joins: bool, grow: f64) -> PixRect {
        let m = &style.matrix;
        let Some(t) = Transform::from_row(m[0] as f64, m[1] as f64, m[2] as f64, m[3] as f64, m[4] as f64, m[5] as f64)
        else {
            return self.all();
        };
        let t = t.post_scale_translate(self.sx, self.sy, self.tx, self.ty);
        let (cx, cy) = (0.5 * (b.x0 + b.x1), 0.5 * (b.y0 + b.y1));
        let (hw, hh) = (0.5 * (b.x1 - b.x0) * grow, 0.5 * (b.y1 - b.y0) * grow);
        let b = Rect { x0: cx - hw, y0: cy - hh, x1: cx + hw, y1: cy + hh };
        let mut r = t.map_rect(&b);
        if stroked && style.stroke.a != 0 && style.weight > 0.0 {
            let half = 0.5 * style.weight as f64 * t.max_scale();
            let reach = if joins && style.join == Join::Miter {
                10.0
            } else if style.cap == Cap::Square {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            r = r.outset(half * reach.max(std::f64::consts::SQRT_2));
        } else if stroked && style.stroke.a != 0 && !style.weight.is_finite() {
            return self.all();
        }
        self.pixels(r)
    }

    /// Every pixel `cmd` can write. The box of the geometry (control points bound
    /// curves) through the matrix, grown by the stroke's reach; an ellipse's by a tenth
    /// (the direct fill's polygon lies up to 5% outside the curve).
    pub fn of(&self, cmd: &Command<'_>) -> PixRect {
        let f = |v: f32| v as f64;
        match cmd {
            Command::Canvas { .. } | Command::Background(_) | Command::Clear | Command::Shadow(_) | Command::Blend(_) | Command::Dash { .. } => self.all(),
            Command::Rect { style, xywh, .. } => {
                let [x, y, w, h] = xywh.map(f);
                let b = Rect { x0: x.min(x + w), y0: y.min(y + h), x1: x.max(x + w), y1: y.max(y + h) };
                self.styled(style, b, true, true, 1.0)
            }
            Command::Ellipse { style, c } | Command::Arc { style, c: [c @ .., _, _], .. } => {
                let [cx, cy, rx, ry] = [c[0], c[1], c[2], c[3]].map(f);
                let (rx, ry) = (rx.abs(), ry.abs());
                let b = Rect { x0: cx - rx, y0: cy - ry, x1: cx + rx, y1: cy + ry };
                self.styled(style, b, true, true, 1.1)
            }
            Command::Line { style, p } => {
                let [x1, y1, x2, y2] = p.map(f);
                let b = Rect { x0: x1.min(x2), y0: y1.min(y2), x1: x1.max(x2), y1: y1.max(y2) };
                self.styled(style, b, true, false, 1.0)
            }
            Command::Point { style, p } => {
                let [x, y] = p.map(f);
                let r = 0.5 * style.weight.abs() as f64 * std::f64::consts::SQRT_2;
                let b = Rect { x0: x - r, y0: y - r, x1: x + r, y1: y + r };
                self.styled(style, b, false, false, 1.0)
            }
            Command::Text { style, face, size, glyphs } => {
                let Some(f) = crate::font::fonts().and_then(|s| s.face(*face)) else { return PixRect::default() };
                let s = *size as f64 / f.metrics().units_per_em as f64;
                let mut b: Option<Rect> = None;
                for g in glyphs.chunks_exact(3) {
                    let (x, y) = (f32::from_bits(g[1]) as f64, f32::from_bits(g[2]) as f64);
                    if let Some([x0, y0, x1, y1]) = f.glyph_box(g[0] as u16) {
                        let r = Rect { x0: x + x0 as f64 * s, y0: y - y1 as f64 * s, x1: x + x1 as f64 * s, y1: y - y0 as f64 * s };
                        b = Some(b.map_or(r, |a| Rect { x0: a.x0.min(r.x0), y0: a.y0.min(r.y0), x1: a.x1.max(r.x1), y1: a.y1.max(r.y1) }));
                    }
                }
                // hinting moves outlines by up to a pixel and rounds glyph origins
                let m = &style.matrix;
                let k = ((m[0] * m[3] - m[1] * m[2]) as f64).abs().sqrt();
                match b {
                    Some(b) if s.is_finite() && k > 0.0 => self.styled(style, b.outset(2.0 / k), true, true, 1.0),
                    _ => PixRect::default(),
                }
            }
            Command::Path { style, verbs } => {
                let mut pts = [Point::default(); 3];
                let mut b: Option<Rect> = None;
                for v in verbs.iter() {
                    let n = match v {
                        Verb::Move(x, y) | Verb::Line(x, y) => {
                            pts[0] = Point::new(f(x), f(y));
                            1
                        }
                        Verb::Quad(a, c, d, e) => {
                            pts[0] = Point::new(f(a), f(c));
                            pts[1] = Point::new(f(d), f(e));
                            2
                        }
                        Verb::Cubic(a, c, d, e, g, h) => {
                            pts[0] = Point::new(f(a), f(c));
                            pts[1] = Point::new(f(d), f(e));
                            pts[2] = Point::new(f(g), f(h));
                            3
                        }
                        Verb::Close => 0,
                    };
                    for p in &pts[..n] {
                        let r = b.get_or_insert(Rect { x0: p.x, y0: p.y, x1: p.x, y1: p.y });
                        r.x0 = r.x0.min(p.x);
                        r.x1 = r.x1.max(p.x);
                        r.y0 = r.y0.min(p.y);
                        r.y1 = r.y1.max(p.y);
                    }
                }
                match b {
                    Some(b) => self.styled(style, b, true, true, 1.0),
                    None => PixRect::default(),
                }
            }
        }
    }
}

/// Where drawing may write: everywhere, or the damaged rectangles of a frame (disjoint,
/// each made of whole tile rows) and, per tile row, the column ranges they cover.
#[derive(Debug, Default)]
pub struct Window {
    /// The damaged rectangles; empty: the whole buffer.
    pub rects: Vec<PixRect>,
    /// Column ranges `[x0, x1)` of the rectangles, grouped by tile row, sorted by `x0`.
    ranges: Vec<(u32, u32)>,
    /// `ranges[row_start[t]..row_start[t + 1]]` are tile row `t`'s.
    row_start: Vec<u32>,
    /// Per buffer row: whether any rectangle covers it.
    row_used: Vec<bool>,
    /// Per tile, row-major: whether a rectangle covers it.
    tiles: Vec<bool>,
    tiles_w: u32,
    tiles_h: u32,
}

impl Window {
    /// Every pixel.
    pub fn is_all(&self) -> bool {
        self.rects.is_empty()
    }

    /// Sets the damaged rectangles (`rects` disjoint, tile-aligned rows) of a buffer of
    /// `w x h` pixels.
    pub fn set(&mut self, rects: &[PixRect], w: u32, h: u32) {
        self.tiles_w = w.div_ceil(TILE);
        self.tiles_h = h.div_ceil(TILE);
        self.tiles.clear();
        self.tiles.resize((self.tiles_w * self.tiles_h) as usize, false);
        for r in rects {
            for ty in r.y0 / TILE..r.y1.div_ceil(TILE) {
                let row = (ty * self.tiles_w) as usize;
                self.tiles[row + (r.x0 / TILE) as usize..row + r.x1.div_ceil(TILE) as usize].fill(true);
            }
        }
        self.rects.clear();
        self.rects.extend_from_slice(rects);
        let tiles_h = h.div_ceil(TILE) as usize;
        self.ranges.clear();
        self.row_start.clear();
        for t in 0..tiles_h as u32 {
            self.row_start.push(self.ranges.len() as u32);
            let y = t * TILE;
            let first = self.ranges.len();
            for r in rects.iter().filter(|r| r.y0 <= y && y < r.y1) {
                self.ranges.push((r.x0, r.x1));
            }
            self.ranges[first..].sort_unstable();
        }
        self.row_start.push(self.ranges.len() as u32);
        self.row_used.clear();
        self.row_used.extend((0..h).map(|y| {
            let t = (y / TILE) as usize;
            self.row_start[t + 1] > self.row_start[t]
        }));
    }

    /// Whether `b` meets a damaged rectangle (by tiles: the rectangles are unions of
    /// whole tiles, so this is exact).
    pub fn meets(&self, b: &PixRect) -> bool {
        if self.rects.is_empty() {
            return true;
        }
        if b.is_empty() {
            return false;
        }
        let (tx0, tx1) = ((b.x0 / TILE) as usize, (b.x1.div_ceil(TILE) as usize).min(self.tiles_w as usize));
        let (tw, rows) = (self.tiles_w as usize, self.tiles_h as usize);
        let (ty0, ty1) = ((b.y0 / TILE) as usize, (b.y1.div_ceil(TILE) as usize).min(rows));
        (ty0..ty1).any(|ty| self.tiles[ty * tw + tx0..ty * tw + tx1].iter().any(|&t| t))
    }

    /// Whether pixel `(x, y)` lies in a damaged rectangle (every pixel when there are
    /// none).
    #[inline]
    pub fn covers(&self, x: u32, y: u32) -> bool {
        if self.rects.is_empty() {
            return true;
        }
        let (tx, ty) = (x / TILE, y / TILE);
        tx < self.tiles_w && ty < self.tiles_h && self.tiles[(ty * self.tiles_w + tx) as usize]
    }

    /// Per buffer row, whether drawing may write in it (`None`: every row).
    #[inline]
    pub fn rows(&self) -> Option<&[bool]> {
        (!self.rects.is_empty()).then_some(&self.row_used[..])
    }

    /// Back to every pixel.
    pub fn clear(&mut self) {
        self.rects.clear();
    }

    /// The column ranges of row `y` (`None`: every column).
    #[inline]
    pub fn row(&self, y: usize) -> Option<&[(u32, u32)]> {
        if self.rects.is_empty() {
            return None;
        }
        let t = y / TILE as usize;
        Some(&self.ranges[self.row_start[t] as usize..self.row_start[t + 1] as usize])
    }
}

/// Whether column `x` lies in a row's `ranges` ([`Window::row`]; `None`: every column).
#[inline(always)]
pub(crate) fn in_ranges(ranges: Option<&[(u32, u32)]>, x: usize) -> bool {
    ranges.is_none_or(|rs| rs.iter().any(|&(r0, r1)| r0 as usize <= x && x < r1 as usize))
}

/// One command of a stream: where its words are, their hash and what it can touch.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    /// First word.
    pub start: u32,
    /// One past the last word.
    pub end: u32,
    /// Hash of the words.
    pub hash: u64,
    /// The pixels it can write; [`PixRect::UNKNOWN`] until something needs them (a
    /// command matched with the last frame's never does).
    pub bounds: PixRect,
}

impl Entry {
    /// Its bounds, computed now if they were not yet (`words` is its stream).
    pub fn bounds(&mut self, words: &[u32], b: &Bounds) -> PixRect {
        if self.bounds == PixRect::UNKNOWN {
            self.bounds = match Commands::starting_at(&words[..self.end as usize], self.start as usize).next() {
                Some(Ok(cmd)) => b.of(&cmd),
                _ => b.all(), // the draw reports a malformed command
            };
        }
        self.bounds
    }
}

/// FNV-1a over the words of a command.
pub fn hash_words(w: &[u32]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &x in w {
        h = (h ^ x as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The first slot of hash `h` in an open-addressing table of `cap` (a power of two)
/// slots: the hash's top bits. FNV-1a's low bits depend only on the low bits of the
/// words, and the coordinates of shapes at whole or half pixels are floats whose low
/// mantissa bits are all zero, so the low bits would put most commands of a tile map
/// in one probe chain (a quadratic diff).
#[inline]
fn home_slot(h: u64, cap: usize) -> usize {
    (h >> (64 - cap.trailing_zeros())) as usize
}

/// Side of a damage tile in pixels.
pub const TILE: u32 = 4;

/// A stream that was drawn: its words and its commands.
#[derive(Debug, Default)]
pub struct Stream {
    /// The words.
    pub words: Vec<u32>,
    /// One entry per command, in order.
    pub entries: Vec<Entry>,
}

/// The damage between consecutive streams and the scratch state that finds it.
#[derive(Debug, Default)]
pub struct Damage {
    /// Dirty tiles, row-major, `tiles_w * tiles_h`.
    dirty: Vec<bool>,
    tiles_w: u32,
    tiles_h: u32,
    /// For the greedy match: an open-addressing table from a hash to the first of the
    /// previous stream's middle commands with it (`u32::MAX`: none), and for each such
    /// command the next one with the same hash. Reused frame after frame.
    table: Vec<(u64, u32)>,
    next_same: Vec<u32>,
    starts: Vec<u32>,
    matched: Vec<bool>,
    /// Commands at the start of the last diffed stream that it shares with the one
    /// before it.
    prefix: usize,
    /// Frames left to draw whole without matching, and the last such pause: a game
    /// whose frames keep changing everything (a scrolling view) pays for matching
    /// only now and then.
    skip: u32,
    backoff: u32,
}

/// Device interval `[lo, hi]` rounded out to the edges of the canvas pixels (of
/// `scale` device pixels, the first at `offset`) that it meets. Floors by truncation
/// (no libm call per command) within +-2^40 canvas pixels, where any box is clamped to
/// the buffer anyway.
fn out_to_cells(lo: f64, hi: f64, scale: f64, offset: f64) -> (f64, f64) {
    const FAR: f64 = (1u64 << 40) as f64;
    let floor = |v: f64| {
        let t = v.clamp(-FAR, FAR) as i64 as f64;
        if t > v { t - 1.0 } else { t }
    };
    let (a, b) = ((lo - offset) / scale, (hi - offset) / scale);
    let (fa, fb) = (floor(a), floor(b));
    let cb = if fb < b { fb + 1.0 } else { fb };
    (fa * scale + offset, cb * scale + offset)
}

/// Longest pause, in frames, between two attempts to match a stream that keeps
/// changing almost everything.
const MAX_BACKOFF: u32 = 8;

/// Changed commands past the shared prefix that are always drawn as damage (area
/// allowing), however short the rest of the stream: drawing the rest whole restores
/// the whole canvas and its records from the snapshot first, which costs more than
/// the damage of a few moved sprites (a paddle and a ball after a wall of bricks).
const MIN_CHANGED: usize = 6;

/// What [`Damage::diff`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diff {
    /// Only the returned rectangles differ from the last stream (none: identical).
    Damage,
    /// Draw the whole stream; its entries are complete for the next diff.
    Whole,
    /// Draw the whole stream; it is malformed or changes the view, so the next frame
    /// must not be diffed against it.
    Unindexed,
}

/// Where the commands of `words` start; false when a header is malformed (the draw
/// then reports where) or the stream sets a shadow, a blend mode or dashes
/// (`JG_OP_SHADOW`, `JG_OP_BLEND`, `JG_OP_DASH`: a shape's shadow reaches past its
/// bounds, a blend reads what lay beneath, and a dashed stroke is not the stroke the
/// bounds are of, so such a stream is drawn whole).
fn command_starts(words: &[u32], out: &mut Vec<u32>) -> bool {
    out.clear();
    let mut i = 0usize;
    while i < words.len() {
        // (these and JG_OP_DASH are the last opcodes: one test, and an opcode past
        // them is malformed anyway)
        if words[i] >= crate::command::OP_SHADOW {
            return false;
        }
        let Some(&len) = words.get(i + 1) else { return false };
        let len = len as usize;
        if len < 2 || len > words.len() - i {
            return false;
        }
        out.push(i as u32);
        i += len;
    }
    true
}

impl Damage {
    /// Indexes `words` into `entries` and, when `last` is the stream drawn before it
    /// with the same view, finds what differs: marks the tiles that the commands of
    /// either stream not matched with the other can touch and returns them in `rects`
    /// as pixel rectangles (runs of tiles in a row, merged with the same run in the
    /// rows below). The frame must be drawn whole when there is no `last`, when the
    /// stream changes the view or is malformed, or when more than `max_fraction` of
    /// the buffer is damaged. Commands shared with `last` reuse its entries, so a frame
    /// that changes little costs little to index.
    #[allow(clippy::too_many_arguments)]
    pub fn diff(
        &mut self,
        words: &[u32],
        last: Option<&Stream>,
        bounds: &Bounds,
        logical: (f64, f64),
        max_fraction: f64,
        entries: &mut Vec<Entry>,
        rects: &mut Vec<PixRect>,
    ) -> Diff {
        entries.clear();
        rects.clear();
        self.prefix = 0;
        let mut starts = std::mem::take(&mut self.starts);
        let d = if command_starts(words, &mut starts) {
            self.diff_indexed(words, &starts, last, bounds, logical, max_fraction, entries, rects)
        } else {
            Diff::Unindexed
        };
        self.starts = starts;
        d
    }

    #[allow(clippy::too_many_arguments)]
    fn diff_indexed(
        &mut self,
        words: &[u32],
        starts: &[u32],
        last: Option<&Stream>,
        bounds: &Bounds,
        logical: (f64, f64),
        max_fraction: f64,
        entries: &mut Vec<Entry>,
        rects: &mut Vec<PixRect>,
    ) -> Diff {
        let n = starts.len();
        let span = |k: usize| (starts[k], if k + 1 < n { starts[k + 1] } else { words.len() as u32 });
        let empty = Stream::default();
        let old = last.unwrap_or(&empty);
        let ow = &old.words;
        let same_as_old = |k: usize, e: &Entry| {
            let (a, b) = span(k);
            words[a as usize..b as usize] == ow[e.start as usize..e.end as usize]
        };
        let m = old.entries.len();
        let mut p = 0;
        while p < n && p < m && same_as_old(p, &old.entries[p]) {
            p += 1;
        }
        let mut s = 0;
        while s < n - p && s < m - p && same_as_old(n - 1 - s, &old.entries[m - 1 - s]) {
            s += 1;
        }
        // every command: the shared ones from the old entries, the others parsed
        for k in 0..n {
            let (a, b) = span(k);
            let shared = if k < p {
                Some(old.entries[k])
            } else if k >= n - s {
                Some(old.entries[m - (n - k)])
            } else {
                None
            };
            let e = match shared {
                Some(e) => Entry { start: a, end: b, ..e },
                None => {
                    if words[a as usize] == OP_CANVAS {
                        let Some(Ok(Command::Canvas { w, h })) = Commands::starting_at(&words[..b as usize], a as usize).next()
                        else {
                            return Diff::Unindexed;
                        };
                        // only a first command that keeps the logical size keeps the view
                        if k != 0 || (w as f64, h as f64) != logical {
                            return Diff::Unindexed;
                        }
                    }
                    Entry { start: a, end: b, hash: hash_words(&words[a as usize..b as usize]), bounds: PixRect::UNKNOWN }
                }
            };
            entries.push(e);
        }
        if last.is_none() {
            return Diff::Whole;
        }
        self.prefix = p;
        if self.skip > 0 {
            self.skip -= 1;
            return Diff::Whole;
        }
        let d = self.match_middle(words, entries, old, p, s, bounds, max_fraction, rects);
        if d == Diff::Damage {
            self.backoff = 0;
        } else {
            self.backoff = (2 * self.backoff).clamp(1, MAX_BACKOFF);
            self.skip = self.backoff;
        }
        d
    }

    /// Matches the commands between the shared prefix `p` and suffix `s` and marks the
    /// damage; `Diff::Whole` as soon as too much has changed.
    #[allow(clippy::too_many_arguments)]
    fn match_middle(
        &mut self,
        words: &[u32],
        entries: &mut [Entry],
        old: &Stream,
        p: usize,
        s: usize,
        bounds: &Bounds,
        max_fraction: f64,
        rects: &mut Vec<PixRect>,
    ) -> Diff {
        let (n, m, ow) = (entries.len(), old.entries.len(), &old.words);
        let (w, h) = (bounds.w, bounds.h);
        self.tiles_w = w.div_ceil(TILE);
        self.tiles_h = h.div_ceil(TILE);
        self.dirty.clear();
        self.dirty.resize((self.tiles_w * self.tiles_h) as usize, false);
        let old_mid = &old.entries[p..m - s];
        self.matched.clear();
        self.matched.resize(old_mid.len(), false);
        let limit = (max_fraction * (w as f64) * (h as f64)) as u64;
        let cap = (2 * old_mid.len()).next_power_of_two().max(8);
        self.table.clear();
        self.table.resize(cap, (0, u32::MAX));
        self.next_same.clear();
        self.next_same.resize(old_mid.len(), u32::MAX);
        let slot = |table: &[(u64, u32)], h: u64| {
            let mut i = home_slot(h, cap);
            while table[i].1 != u32::MAX && table[i].0 != h {
                i = (i + 1) & (cap - 1);
            }
            i
        };
        for (j, e) in old_mid.iter().enumerate().rev() {
            let i = slot(&self.table, e.hash);
            self.next_same[j] = self.table[i].1;
            self.table[i] = (e.hash, j as u32);
        }
        let mut next_old = 0u32; // matches must keep increasing positions
        let mut area = 0u64;
        // When many commands past the shared prefix changed (everything moves), most
        // all of them would be drawn anyway: drawing the rest of the stream whole, from
        // the prefix, costs less than culling and windowing them.
        // (at least MIN_CHANGED: past a short prefix, damage for a few moved sprites
        // costs far less than restoring and redrawing the whole canvas)
        let max_changed = ((n - p) / 4).max(MIN_CHANGED);
        let mut changed = 0;
        for k in p..n - s {
            let e = entries[k];
            let mut hit = None;
            let i = slot(&self.table, e.hash);
            // the chain holds the candidates in increasing order; drop the passed ones
            let mut j = self.table[i].1;
            while j != u32::MAX && j < next_old {
                j = self.next_same[j as usize];
            }
            self.table[i].1 = j;
            if j != u32::MAX {
                let o = &old_mid[j as usize];
                if words[e.start as usize..e.end as usize] == ow[o.start as usize..o.end as usize] {
                    self.table[i].1 = self.next_same[j as usize];
                    hit = Some(j);
                }
            }
            match hit {
                Some(j) => {
                    self.matched[j as usize] = true;
                    next_old = j + 1;
                    // the same words in the same view: the same pixels
                    entries[k].bounds = old_mid[j as usize].bounds;
                }
                None => {
                    area += self.mark(entries[k].bounds(words, bounds));
                    changed += 1;
                }
            }
            if area > limit || changed > max_changed {
                return Diff::Whole;
            }
        }
        for k in 0..old_mid.len() {
            if !self.matched[k] {
                area += self.mark(old_mid[k].clone().bounds(ow, bounds));
                if area > limit {
                    return Diff::Whole;
                }
            }
        }
        if area > limit {
            return Diff::Whole;
        }
        self.rects(w, h, rects);
        Diff::Damage
    }

    /// How many commands the stream of the last [`Damage::diff`] shares, at its start,
    /// with the stream it was diffed against (0 when there was none, or it was
    /// malformed).
    pub fn prefix(&self) -> usize {
        self.prefix
    }

    /// Marks the tiles of `r`; returns the pixels of the tiles newly marked.
    fn mark(&mut self, r: PixRect) -> u64 {
        if r.is_empty() {
            return 0;
        }
        let mut added = 0u64;
        for ty in r.y0 / TILE..r.y1.div_ceil(TILE).min(self.tiles_h) {
            for tx in r.x0 / TILE..r.x1.div_ceil(TILE).min(self.tiles_w) {
                let t = &mut self.dirty[(ty * self.tiles_w + tx) as usize];
                if !*t {
                    *t = true;
                    added += (TILE * TILE) as u64;
                }
            }
        }
        added
    }

    /// The dirty tiles as rectangles: runs in a tile row, extended downward while the
    /// next row has exactly the same run.
    fn rects(&mut self, w: u32, h: u32, out: &mut Vec<PixRect>) {
        let tw = self.tiles_w;
        let mut ty = 0;
        while ty < self.tiles_h {
            let mut tx = 0;
            while tx < tw {
                if !self.dirty[(ty * tw + tx) as usize] {
                    tx += 1;
                    continue;
                }
                let start = tx;
                while tx < tw && self.dirty[(ty * tw + tx) as usize] {
                    tx += 1;
                }
                let end = tx;
                // grow downward over rows with the same run, clearing them
                let mut ty2 = ty + 1;
                while ty2 < self.tiles_h {
                    let row = (ty2 * tw) as usize;
                    let run = &self.dirty[row + start as usize..row + end as usize];
                    let bounded = (start == 0 || !self.dirty[row + start as usize - 1])
                        && (end == tw || !self.dirty[row + end as usize]);
                    if !(run.iter().all(|&d| d) && bounded) {
                        break;
                    }
                    for d in &mut self.dirty[row + start as usize..row + end as usize] {
                        *d = false;
                    }
                    ty2 += 1;
                }
                out.push(PixRect {
                    x0: start * TILE,
                    y0: ty * TILE,
                    x1: (end * TILE).min(w),
                    y1: (ty2 * TILE).min(h),
                });
            }
            ty += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{CommandWriter, Rgba, Style};

    fn fill(r: u8) -> Style {
        Style { fill: Rgba::new(r, 0, 0, 255), stroke: Rgba::new(0, 0, 0, 0), ..Style::default() }
    }

    const B: Bounds = Bounds { sx: 1.0, sy: 1.0, tx: 0.0, ty: 0.0, w: 64, h: 64 };

    fn stream(rects: &[(u8, f32, f32)]) -> Stream {
        let mut w = CommandWriter::new();
        w.background(Rgba::new(0, 0, 0, 255));
        for &(c, x, y) in rects {
            w.rect(&fill(c), x, y, 4.0, 4.0);
        }
        let words = w.words().to_vec();
        let (mut d, mut entries, mut out) = (Damage::default(), vec![], vec![]);
        d.diff(&words, None, &B, (64.0, 64.0), 1.0, &mut entries, &mut out);
        Stream { words, entries }
    }

    fn damage(new: &Stream, old: &Stream, max: f64) -> Option<Vec<PixRect>> {
        let (mut d, mut entries, mut out) = (Damage::default(), vec![], vec![]);
        (d.diff(&new.words, Some(old), &B, (64.0, 64.0), max, &mut entries, &mut out) == Diff::Damage).then_some(out)
    }

    /// A HUD drawn last in every frame: a few changed commands are then a small part
    /// of what follows the shared prefix.
    fn hud() -> Vec<(u8, f32, f32)> {
        (0..10).map(|i| (7, 20.0 + 4.0 * i as f32, 58.0)).collect()
    }

    #[test]
    fn a_tile_map_spreads_over_the_match_table() {
        // 32 x 32 tiles at whole-pixel positions, all alike but for their place: their
        // hashes differ in the high bits only, and must still land in distinct slots
        let tiles: Vec<(u8, f32, f32)> = (0..1024).map(|i| (5, (i % 32) as f32 * 2.0, (i / 32) as f32 * 2.0)).collect();
        let s = stream(&tiles);
        let cap = 2048;
        let slots: std::collections::HashSet<usize> = s.entries[1..].iter().map(|e| home_slot(e.hash, cap)).collect();
        // uniform hashing fills about 1 - e^(-1/2) of 2048 slots with 1024 keys: ~806
        assert!(slots.len() > 700, "{} distinct home slots for 1024 commands", slots.len());
    }

    #[test]
    fn only_moved_commands_are_dirty() {
        let old = stream(&[&[(1, 2.0, 2.0), (2, 42.0, 42.0), (3, 58.0, 2.0), (4, 30.0, 2.0)], &hud()[..]].concat());
        let new = stream(&[&[(1, 2.0, 2.0), (9, 18.0, 18.0), (3, 58.0, 2.0), (4, 30.0, 2.0)], &hud()[..]].concat());
        let r = |x0, y0, x1, y1| PixRect { x0, y0, x1, y1 };
        // the moved rect's old and new boxes, as whole tiles
        assert_eq!(damage(&new, &old, 1.0).unwrap(), vec![r(16, 16, 24, 24), r(40, 40, 48, 48)]);
        assert!(damage(&old, &old, 1.0).unwrap().is_empty());
        let mut w = CommandWriter::new();
        w.background(Rgba::new(9, 9, 9, 255));
        let bg = Stream { words: w.words().to_vec(), entries: vec![] };
        // a changed background damages everything: past any limit below 1
        assert!(damage(&bg, &old, 0.5).is_none());
    }

    #[test]
    fn mostly_changed_streams_are_drawn_whole() {
        // more changed commands than MIN_CHANGED and than a quarter of the stream: whole
        let old: Vec<(u8, f32, f32)> = (0..12).map(|i| (1 + i as u8, 2.0 + 4.0 * i as f32, 2.0)).collect();
        let new: Vec<(u8, f32, f32)> = old.iter().enumerate().map(|(i, &(c, x, y))| (c, x + (i < 8) as u8 as f32, y)).collect();
        assert!(damage(&stream(&new), &stream(&old), 1.0).is_none());
        // up to MIN_CHANGED, however short the stream: damage (drawing whole restores
        // the whole canvas first)
        let old = stream(&[(1, 2.0, 2.0), (2, 12.0, 12.0), (3, 22.0, 22.0)]);
        let new = stream(&[(1, 3.0, 2.0), (2, 13.0, 12.0), (3, 22.0, 22.0)]);
        assert!(damage(&new, &old, 1.0).is_some());
    }

    #[test]
    fn runs_merge_downward_only_when_equal() {
        let hud = [hud(), hud()].concat();
        let old = stream(&hud);
        // 4x4 rects at (2, 2) and (10, 2) touch pixels 2..7 and 10..15 of rows 2..7: one
        // run of tiles over two tile rows; the one at (2, 12) rows 12..17, alone
        let new = stream(&[&[(1, 2.0, 2.0), (1, 10.0, 2.0), (2, 2.0, 12.0)], &hud[..]].concat());
        let got = damage(&new, &old, 1.0).unwrap();
        let r = |x0, y0, x1, y1| PixRect { x0, y0, x1, y1 };
        assert_eq!(got, vec![r(0, 0, 16, 8), r(0, 12, 8, 20)]);
    }
}
