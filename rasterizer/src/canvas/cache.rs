//! Coverage computed before, for shapes drawn again where they were.
//!
//! A scene redraws its tiles, walls and lane markings at the same device positions
//! frame after frame, and the damaged rectangles of a resumed frame redraw the ones
//! next to whatever moved. A shape's coverage (flattening, stroking, edge setup and
//! accumulation) costs far more than compositing it, and it is a function of the
//! shape's device geometry alone: so it is kept here, keyed by every input it is
//! computed from (the words are compared in full on a hit, never only hashed), and a
//! hit gives exactly the coverage a new computation would, bit for bit.
//!
//! Shapes that move each frame would only pay for storing: a shape is stored the
//! second time a summary of it is seen ([`CoverageCache::seen_before`]), and the first
//! sighting costs that summary's few words and one probe.

use crate::geometry::{Point, Rect, Transform};
use crate::stroke::Pen;

/// Slots of the cache and of the table of summaries seen (direct-mapped by hash).
const SLOTS: usize = 1024;
/// Keys longer than this (words) and coverages larger than this (cells) are not
/// kept: they bound an entry's size, and such shapes are rarely many.
const MAX_KEY: usize = 256;
const MAX_CELLS: usize = 768;

/// A pixel box `(x0, y0, width, height)`.
pub(super) type PixBox = (usize, usize, usize, usize);

/// What a cached shape's composite needs.
#[derive(Debug, Default)]
pub(super) struct Entry {
    /// The hash of the shape's summary.
    pre: u64,
    key: Vec<u64>,
    /// A pair's pixel box (`canvas/pair.rs`).
    pub(super) b: PixBox,
    /// A pair's device bounds and fill box.
    pub(super) bounds: Rect,
    pub(super) fill_box: Option<Rect>,
    /// And where its fill shows as a box (see `Canvas::composite_pair`).
    pub(super) visible_fill: Option<Rect>,
    /// Coverage cells: a pair's three layers over `b`, or the rows of `runs`.
    pub(super) cells: Vec<f32>,
    /// Rows of a plain shape's coverage: `[y, x0, first cell, cell count]`.
    pub(super) runs: Vec<[u32; 4]>,
    /// The sample planes of a convex opaque outline (`Canvas::finish_seams`); empty
    /// for a shape that is blended.
    pub(super) planes: Vec<[f64; 3]>,
    /// Whether `planes` end with the entries of an ellipse's form (`Records::ellipse`).
    pub(super) ellipse: bool,
    /// A pair's `planes` are those of its stroke's outer loop (this many) and then of
    /// its inner one (`canvas/pair.rs`).
    pub(super) outer_planes: usize,
    /// A pair's samples of those loops per cell (`canvas/pair.rs`).
    pub(super) masks: Vec<[u64; 2]>,
}

/// The outcome of [`CoverageCache::lookup`].
pub(super) enum Lookup {
    /// The key's entry is `CoverageCache::entry(i)`.
    Hit(usize),
    /// Seen before but not kept: compute and [`CoverageCache::put`] it in slot `i`.
    Store(usize),
    /// First sighting (or not cacheable): compute, keep nothing.
    Miss,
}

/// The summary words of a shape for [`CoverageCache::seen_before`]: `tag`, the
/// device transform's translation and scale, two words of where the shape is and how
/// large (`first`, `last`) and a count.
pub(super) fn summary_of(tag: u64, m: &Transform, first: u64, last: u64, count: u64) -> [u64; 6] {
    [tag, m.e.to_bits() ^ m.f.to_bits().rotate_left(32), m.a.to_bits() ^ m.d.to_bits().rotate_left(32), first, last, count]
}

/// [`summary_of`] a polyline: its first and last points and their count.
pub(super) fn summary(tag: u64, m: &Transform, pts: &[Point]) -> [u64; 6] {
    let mix = |p: Option<&Point>| p.map_or(0, |p| p.x.to_bits() ^ p.y.to_bits().rotate_left(32));
    summary_of(tag, m, mix(pts.first()), mix(pts.last()), pts.len() as u64)
}

#[derive(Debug, Default)]
pub(super) struct CoverageCache {
    slots: Vec<Option<Box<Entry>>>,
    seen: Vec<u64>,
    /// The key of the shape being drawn.
    key: Vec<u64>,
    /// The slot and the summary's hash of the shape being drawn.
    slot: usize,
    pre: u64,
    /// Lookups that found their entry.
    pub(super) hits: u64,
}

impl CoverageCache {
    /// Starts a key with what every shape's coverage depends on: `tag` names the kind
    /// of shape (and so what the words after these mean), then the buffer's size, the
    /// clip and the device transform.
    pub(super) fn start(&mut self, tag: u64, w: usize, h: usize, clip: Rect, m: &Transform) {
        self.key.clear();
        self.key.extend([tag, w as u64, h as u64]);
        self.rect(clip);
        self.transform(m);
    }

    /// The pen's words.
    pub(super) fn pen(&mut self, p: &Pen) {
        self.key.extend([p.cap as u64, p.join as u64, p.hw.to_bits(), p.round_step.to_bits()]);
    }

    pub(super) fn word(&mut self, w: u64) {
        self.key.push(w);
    }

    pub(super) fn num(&mut self, v: f64) {
        self.key.push(v.to_bits());
    }

    fn rect(&mut self, r: Rect) {
        self.key.extend([r.x0, r.y0, r.x1, r.y1].map(f64::to_bits));
    }

    pub(super) fn points(&mut self, pts: &[Point]) {
        self.key.push(pts.len() as u64);
        for p in pts {
            self.key.extend([p.x.to_bits(), p.y.to_bits()]);
        }
    }

    pub(super) fn transform(&mut self, m: &Transform) {
        self.key.extend([m.a, m.b, m.c, m.d, m.e, m.f].map(f64::to_bits));
    }

    /// Looks up a shape by a few words that tell most shapes apart (`pre`: its kind,
    /// where it starts and ends, how many points): `false` when nothing of that
    /// summary was drawn before, so that a shape that moves each frame costs no more
    /// than this; otherwise the full key is built and [`CoverageCache::lookup`] says.
    pub(super) fn seen_before(&mut self, pre: &[u64]) -> bool {
        let h = pre.iter().fold(0u64, |h, &w| (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95));
        let i = (h >> 40) as usize % SLOTS;
        if self.seen.is_empty() {
            self.seen.resize(SLOTS, 0);
            self.slots.resize_with(SLOTS, || None);
        }
        self.slot = i;
        self.pre = h;
        if self.seen[i] == h || self.slots[i].as_ref().is_some_and(|e| e.pre == h) {
            return true;
        }
        self.seen[i] = h;
        false
    }

    /// Looks the current key up, in the slot [`CoverageCache::seen_before`] chose.
    pub(super) fn lookup(&mut self) -> Lookup {
        let i = self.slot;
        if self.key.len() > MAX_KEY {
            return Lookup::Miss;
        }
        if let Some(e) = &self.slots[i] {
            if e.key == self.key {
                self.hits += 1;
                return Lookup::Hit(i);
            }
        }
        Lookup::Store(i)
    }

    pub(super) fn entry(&self, i: usize) -> &Entry {
        self.slots[i].as_deref().expect("a hit names a filled slot")
    }

    /// Slot `i` emptied for the current key's entry (its buffers kept).
    pub(super) fn put(&mut self, i: usize) -> &mut Entry {
        let e = self.slots[i].get_or_insert_with(Box::default);
        e.pre = self.pre;
        e.key.clone_from(&self.key);
        e.cells.clear();
        e.runs.clear();
        e.planes.clear();
        e.ellipse = false;
        e.outer_planes = 0;
        e.masks.clear();
        e
    }

    /// Empties slot `i` again if its entry is too large to keep.
    pub(super) fn bound(&mut self, i: usize) {
        if self.slots[i].as_ref().is_some_and(|e| e.cells.len() > MAX_CELLS) {
            self.slots[i] = None;
        }
    }
}
