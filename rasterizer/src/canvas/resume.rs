//! The resume cache: a frame that starts opaque is diffed against the last one and
//! drawn from the snapshot of the prefix they share, whole or damaged rectangle by
//! rectangle (see [`Canvas::draw`]).

use super::{Canvas, DrawError};
use crate::command::Commands;
use crate::damage::{Bounds, Diff, Stream};
use crate::geometry::Rect;
use crate::seams::MaskRec;

/// Above this share of the buffer damaged, a frame is drawn whole: redrawing every
/// command per damaged rectangle then costs more than one pass.
const MAX_DAMAGE: f64 = 0.35;

/// Commands past its end for which a snapshot moves forward at once (see
/// [`Canvas::draw`]); fewer wait for a third frame with them. A snapshot copies the
/// canvas and its records, about as much work as drawing a handful of shapes.
const SNAPSHOT_STEP: usize = 8;

/// The canvas as it was after the first `cmds` commands of a stream (a prefix that
/// consecutive frames share: background, walls, a grid): its pixels and the valid
/// partial-coverage records, kept sparse. A frame with that prefix starts from it,
/// whole or rectangle by rectangle, instead of drawing the prefix again.
#[derive(Debug, Default)]
pub(super) struct Snapshot {
    /// 0: none.
    pub(super) cmds: usize,
    pub(super) pixels: Vec<u8>,
    pub(super) masks: Vec<MaskRec>,
    /// `masks` by row, made when a damaged frame first restores from the snapshot:
    /// row `y`'s records are `masks[by_row[row_start[y]..row_start[y + 1]]]`.
    by_row: Vec<u32>,
    row_start: Vec<u32>,
    rows_indexed: bool,
    /// The shapes of the records' pending masks (`Records::pending_shapes`).
    pub(super) shapes: Vec<[f64; 3]>,
    pub(super) view: View,
    /// Snapshots taken since the canvas was made.
    pub(super) taken: u64,
    /// The stream ([`Canvas::frame_serial`]) it was taken in, and whether the last
    /// one was given up within two frames of it.
    taken_in: u64,
    churned: bool,
}

impl Snapshot {
    /// Indexes `masks` by row (a counting sort; the records of a canvas `w` x `h`),
    /// once per snapshot.
    fn index_rows(&mut self, w: usize, h: usize) {
        if self.rows_indexed {
            return;
        }
        self.rows_indexed = true;
        self.row_start.clear();
        self.row_start.resize(h + 2, 0);
        for rec in &self.masks {
            self.row_start[rec.pixel_index() / w + 2] += 1;
        }
        for y in 2..h + 2 {
            self.row_start[y] += self.row_start[y - 1];
        }
        self.by_row.clear();
        self.by_row.resize(self.masks.len(), 0);
        for (k, rec) in self.masks.iter().enumerate() {
            let slot = &mut self.row_start[rec.pixel_index() / w + 1];
            self.by_row[*slot as usize] = k as u32;
            *slot += 1;
        }
        self.row_start.truncate(h + 1);
    }
}

/// The last frame drawn in full or in part, which the next one is diffed against (see
/// [`Canvas::draw`]): its stream and the view it started with.
#[derive(Debug, Default)]
pub(super) struct LastFrame {
    pub(super) stream: Stream,
    pub(super) view: View,
    pub(super) ok: bool,
    /// The commands it shared at its start with the frame before it.
    pub(super) prefix: usize,
    /// The same of the two frames before it, newest first.
    pub(super) earlier_prefixes: [usize; 2],
}

/// The canvas-to-device mapping that a `JG_OP_CANVAS` sets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct View {
    pub(super) logical: (f64, f64),
    pub(super) sx: f64,
    pub(super) sy: f64,
    pub(super) tx: f64,
    pub(super) ty: f64,
    pub(super) clip: Option<Rect>,
}

/// How a stream starts, where its first commands paint every pixel opaquely so that
/// what it draws does not depend on what the canvas held before.
#[derive(Clone, Copy, PartialEq)]
enum Start {
    /// Not so: drawn over the canvas as it is.
    OverLast,
    /// With `createCanvas()`, `clear()` or an opaque `background()`.
    Opaque,
    /// With opaque rectangles that together cover the logical canvas (a gradient of
    /// full-width bands, or a tile map, drawn in place of `background()`).
    Bands,
}

fn start_of(words: &[u32], (w, h): (f64, f64), cover: &mut Vec<u64>) -> Start {
    if starts_opaque(words) {
        Start::Opaque
    } else if starts_with_covering_rects(words, w, h, cover, false) {
        Start::Bands
    } else {
        Start::OverLast
    }
}

/// Whether the stream starts with a new canvas, `clear()` or an opaque `background()`.
fn starts_opaque(words: &[u32]) -> bool {
    use crate::command::{OP_BACKGROUND, OP_CANVAS, OP_CLEAR};
    match words.first() {
        Some(&OP_CANVAS) | Some(&OP_CLEAR) => words.len() >= 2,
        Some(&OP_BACKGROUND) => words.len() >= 3 && words[2] >> 24 == 255,
        _ => false,
    }
}

/// Leading commands looked at by [`starts_with_covering_rects`].
const MAX_LEADING_RECTS: usize = 4096;

/// Whether the stream's leading opaque, axis-aligned, square-cornered rectangles,
/// each with its edges on canvas pixel edges (or beyond the canvas), cover the
/// canvas `[0, w] x [0, h]` (logical pixels) before any other command: full-width
/// bands of a gradient, or the tiles of a floor or a board. Every canvas pixel then
/// ends under an opaque fill that covers it whole, whatever lay beneath. `unstroked`:
/// only rectangles that stroke nothing.
fn starts_with_covering_rects(words: &[u32], w: f64, h: f64, covered: &mut Vec<u64>, unstroked: bool) -> bool {
    use crate::command::{AT_FILL, AT_GEOMETRY, AT_MATRIX, AT_STROKE, OP_RECT, RECT_WORDS};
    if !(w > 0.0 && h > 0.0 && w * h <= (1u64 << 26) as f64) {
        return false;
    }
    let (cw, ch) = (w.ceil() as usize, h.ceil() as usize);
    // the canvas pixels covered so far, a bit each (cleared at the first rectangle)
    let stride = cw.div_ceil(64);
    let mut started = false;
    // (read from the words as the stream lays a rectangle out: the first commands of
    // every frame pass here, thousands of tiles, where decoding each as a `Command`
    // cost more than the check)
    let mut at = 0;
    for _ in 0..MAX_LEADING_RECTS {
        let Some(cmd) = words.get(at..at + RECT_WORDS).filter(|c| c[0] == OP_RECT && c[1] as usize == RECT_WORDS) else { break };
        at += RECT_WORDS;
        let v = |k: usize| f32::from_bits(cmd[k]) as f64;
        let [a, b, c, d, e, f] = std::array::from_fn(|k| v(AT_MATRIX + k));
        let [x, y] = [v(AT_GEOMETRY), v(AT_GEOMETRY + 1)];
        // (the far edges as the rectangle's own f32 sums give them)
        let far = |k: usize| (f32::from_bits(cmd[k]) + f32::from_bits(cmd[k + 2])) as f64;
        let (xe, ye) = (far(AT_GEOMETRY), far(AT_GEOMETRY + 1));
        let radii = AT_GEOMETRY + 4..RECT_WORDS;
        if cmd[AT_FILL] >> 24 != 255 || radii.into_iter().any(|k| v(k) != 0.0) || b != 0.0 || c != 0.0 {
            break;
        }
        // (the stroke weight follows the stroke colour in the style block)
        if unstroked && cmd[AT_STROKE] >> 24 != 0 && v(AT_STROKE + 1) > 0.0 {
            break;
        }
        let (x0, x1) = ((a * x + e).min(a * xe + e), (a * x + e).max(a * xe + e));
        let (y0, y1) = ((d * y + f).min(d * ye + f), (d * y + f).max(d * ye + f));
        if !(x1 > x0 && y1 > y0) {
            break;
        }
        // (an edge inside a canvas pixel lets the browser's canvas keep some of what
        // lay beneath there: such rectangles do not start a frame afresh)
        let on_edge = |v: f64| v as i64 as f64 == v;
        let whole = |lo: f64, hi: f64, n: f64| (lo <= 0.0 || on_edge(lo)) && (hi >= n || on_edge(hi));
        if !whole(x0, x1, w) || !whole(y0, y1, h) {
            break;
        }
        let span = |lo: f64, hi: f64, n: f64, cells: usize| {
            let k0 = if lo <= 0.0 { 0 } else { (lo as usize).min(cells) };
            let k1 = if hi >= n { cells } else { (hi as usize).min(cells) };
            (k0, k1)
        };
        let ((i0, i1), (j0, j1)) = (span(x0, x1, w, cw), span(y0, y1, h, ch));
        if i0 >= i1 || j0 >= j1 {
            continue;
        }
        if !started {
            started = true;
            covered.clear();
            covered.resize(stride * ch, 0);
        }
        for row in covered[j0 * stride..j1 * stride].chunks_exact_mut(stride) {
            set_bits(row, i0, i1);
        }
    }
    if !started {
        return false;
    }
    let tail = cw % 64;
    covered.chunks_exact(stride).all(|row| {
        let (last, full) = row.split_last().expect("a row holds a word");
        full.iter().all(|&v| v == !0) && *last == if tail == 0 { !0 } else { (1u64 << tail) - 1 }
    })
}

/// Sets bits `i0..i1` of the bit row `row` (bit `i % 64` of word `i / 64`).
fn set_bits(row: &mut [u64], i0: usize, i1: usize) {
    let (w0, w1) = (i0 / 64, (i1 - 1) / 64);
    let lo = !0u64 << (i0 % 64);
    let hi = !0u64 >> (63 - (i1 - 1) % 64);
    if w0 == w1 {
        row[w0] |= lo & hi;
        return;
    }
    row[w0] |= lo;
    row[w0 + 1..w1].iter_mut().for_each(|v| *v = !0);
    row[w1] |= hi;
}

impl Canvas {
    /// Composites one command stream. On error, commands before the bad one have drawn.
    ///
    /// Frames of a game mostly redraw the last frame's scene with a few things moved.
    /// When a stream starts opaque and the view is the last frame's:
    /// - only the pixels that its commands and the last frame's do not have in common
    ///   are drawn: the commands that differ (see [`crate::damage`]) mark tiles, and
    ///   every command that touches a marked rectangle is drawn into those rectangles;
    /// - the canvas after the commands that consecutive frames share at their start is
    ///   kept (`Snapshot`), and drawing starts from it (the whole canvas, or each
    ///   damaged rectangle) with the rest of the stream.
    ///
    /// Each pixel's value depends only on the commands that touch it, in order, so the
    /// result is the same as drawing the whole stream, to the bit.
    pub fn draw(&mut self, words: &[u32]) -> Result<(), DrawError> {
        let result = self.draw_stream(words);
        self.flush_bands();
        result
    }

    fn draw_stream(&mut self, words: &[u32]) -> Result<(), DrawError> {
        if words.is_empty() {
            // A frame that draws nothing (a game that skips redrawing an unchanged
            // scene) leaves the canvas, and so what the next frame is diffed against.
            return Ok(());
        }
        self.redrawn = None;
        self.shadow = None;
        self.blend = crate::command::BlendOp::SourceOver;
        self.dash = None;
        (self.bands.allowed, self.bands.over_last, self.bands.used, self.bands.missed) = (false, false, false, false);
        // (a run of bands does not continue from the last stream: a gap in the count)
        self.cmd_serial += 1;
        let start = if self.probe.is_some() { Start::OverLast } else { start_of(words, self.logical, &mut self.start_cover) };
        // a trail: a translucent background() over the last frame (never while probing)
        let trail = match words {
            &[crate::command::OP_BACKGROUND, _, colour, ..] if start == Start::OverLast && self.probe.is_none() => {
                crate::blend::Paint::new(crate::command::Rgba::from_word(colour))
            }
            _ => None,
        };
        // (before anything else: resampling starts the canvas's state afresh)
        if trail.is_some() {
            self.refine_for_trail();
        } else if matches!(start, Start::Opaque | Start::Bands) {
            self.end_refined_trail();
        }
        self.trail = trail;
        self.frame_serial += 1;
        if start == Start::OverLast {
            // (drawn whole from its start, always: runs of bands apply)
            self.bands.allowed = true;
            self.bands.over_last = true;
            self.last.ok = false;
            self.snap.cmds = 0;
            // drawn over the last frame's pixels as they are: a record kept from that
            // frame would composite over the pixel it started from (what the browser's
            // canvas pixel held before that frame), not over what it holds now
            self.next_epoch();
            if self.trail.is_none() {
                return Commands::new(words).try_for_each(|cmd| self.exec_timed(cmd?));
            }
            self.trail_forget();
            let mut cmds = Commands::new(words);
            // (the stream starts with the trail's background)
            self.trail_end();
            if let Some(cmd) = cmds.next() {
                self.exec_timed(cmd?)?;
            }
            self.trail_begin();
            loop {
                let at = cmds.position();
                let Some(cmd) = cmds.next() else { return Ok(()) };
                let cmd = cmd?;
                self.exec_over_trail(cmd, &words[at..cmds.position()])?;
            }
        }
        if start == Start::Bands {
            // (bands, unlike background(), do not start an epoch: the last frame's
            // records would composite what lay beneath as it was then)
            self.next_epoch();
        }
        let start_view = self.view();
        let bounds = Bounds { sx: self.sx, sy: self.sy, tx: self.tx, ty: self.ty, w: self.w as u32, h: self.h as u32 };
        let last = (self.last.ok && self.last.view == start_view).then_some(&self.last.stream);
        let diff = self.damage.diff(words, last, &bounds, self.logical, MAX_DAMAGE, &mut self.entries, &mut self.dirty);
        // the snapshot applies while the frames keep sharing the prefix it was taken after
        let p = self.damage.prefix();
        if diff == Diff::Unindexed || p < self.snap.cmds || self.snap.view != start_view {
            if self.snap.cmds > 0 {
                self.snap.churned = self.frame_serial <= self.snap.taken_in + 2;
            }
            self.snap.cmds = 0;
        }
        let result = match diff {
            // (after a frame with runs of bands, damage would meet them again)
            Diff::Damage if (self.snap.cmds > 0 || p == 0) && !self.bands.used_last => {
                self.redrawn = Some(self.dirty.iter().map(|r| ((r.x1 - r.x0) * (r.y1 - r.y0)) as u64).sum());
                self.redraw_damage(words)
            }
            Diff::Unindexed => {
                self.bands.allowed = true;
                Commands::new(words).try_for_each(|cmd| self.exec_timed(cmd?))
            }
            // Whole, or damage with a shared prefix but no snapshot of it yet. Without
            // a snapshot one is taken at once. A snapshot moves forward a few commands
            // only to a prefix that three frames in a row share: a prefix that
            // flickers between two lengths (a paddle drawn after the bricks, still in
            // one frame and moving in the next) would otherwise take a snapshot every
            // other frame to save drawing a command or two. Past many commands (a
            // scrolling map that stops) it moves at once, unless the last snapshot was
            // given up within two frames: a prefix that wanders among lengths (a board
            // redrawn with different tiles moving) took a snapshot nearly every frame,
            // each copying the canvas and its records; it then moves only to a prefix
            // that the last five frames all share.
            _ => {
                let at = if self.snap.cmds == 0 {
                    p
                } else if self.snap.churned {
                    let shared = self.last.earlier_prefixes.iter().fold(p.min(self.last.prefix), |m, &q| m.min(q));
                    shared.max(self.snap.cmds)
                } else if p >= self.snap.cmds + SNAPSHOT_STEP || self.last.prefix >= p {
                    p
                } else {
                    self.snap.cmds
                };
                self.bands.allowed = true;
                self.draw_whole(words, at, start_view)
            }
        };
        // a band met in damaged rectangles, where a run cannot be drawn: the frame
        // again, whole from its start (it starts opaque: nothing of the first try stays)
        let result = if result.is_ok() && self.bands.missed {
            (self.redrawn, self.snap.cmds, self.bands.allowed, self.bands.missed) = (None, 0, true, false);
            self.draw_whole(words, 0, start_view)
        } else {
            result
        };
        self.bands.allowed = false;
        self.bands.used_last = self.bands.used;
        if result.is_err() || diff == Diff::Unindexed {
            self.last.ok = false;
            self.snap.cmds = 0;
            return result;
        }
        self.last.stream.words.clear();
        self.last.stream.words.extend_from_slice(words);
        std::mem::swap(&mut self.last.stream.entries, &mut self.entries);
        self.last.view = start_view;
        self.last.ok = true;
        self.last.earlier_prefixes = [self.last.prefix, self.last.earlier_prefixes[0]];
        self.last.prefix = p;
        Ok(())
    }

    /// Draws the whole indexed stream: from the snapshot when there is one, and takes
    /// a snapshot after its first `snap_at` commands (at most the ones the last frame
    /// shared) when that moves it forward.
    fn draw_whole(&mut self, words: &[u32], snap_at: usize, view: View) -> Result<(), DrawError> {
        let mut first = 0;
        if self.snap.cmds > 0 {
            self.restore_all();
            first = self.snap.cmds;
        }
        for k in first..self.entries.len() {
            // (the run of bands the command before the snapshot extended, if any)
            let mut run_at_snapshot = None;
            if k == snap_at && snap_at > self.snap.cmds {
                self.take_snapshot(snap_at, view);
                run_at_snapshot = self.bands.extended_by(self.cmd_serial);
            }
            let e = self.entries[k];
            let mut cmds = Commands::starting_at(&words[..e.end as usize], e.start as usize);
            if let Some(cmd) = cmds.next() {
                cmd.map_err(DrawError::from).and_then(|c| self.exec_timed(c))?;
            }
            if run_at_snapshot.is_some() && self.bands.extended_by(self.cmd_serial) == run_at_snapshot {
                // a run went on past the snapshot: a draw from it could not continue it
                self.snap.cmds = 0;
            }
        }
        // (the same stream again; not in a run of bands, which more bands could extend)
        if snap_at == self.entries.len() && snap_at > self.snap.cmds && self.bands.extended_by(self.cmd_serial).is_none() {
            self.take_snapshot(snap_at, view);
        }
        Ok(())
    }

    fn take_snapshot(&mut self, cmds: usize, view: View) {
        self.flush_bands();
        let s = &mut self.snap;
        s.taken += 1;
        s.taken_in = self.frame_serial;
        s.cmds = cmds;
        s.view = view;
        s.pixels.clear();
        s.pixels.extend_from_slice(&self.pixels);
        s.masks.clear();
        s.masks.extend(self.records.live());
        s.rows_indexed = false;
        s.shapes.clear();
        s.shapes.extend_from_slice(self.records.pending_shapes());
        self.records.set_base(&s.masks);
    }

    /// The whole canvas back to the snapshot: its pixels, and of the records only its
    /// own (a new epoch retires every other one).
    fn restore_all(&mut self) {
        self.pixels.copy_from_slice(&self.snap.pixels);
        self.next_epoch();
        // the records' pending masks name the snapshot's shapes, kept in place
        self.records.set_pending_shapes(&self.snap.shapes);
        if !self.records.restore_base(self.snap.masks.len()) {
            for r in &self.snap.masks {
                self.records.put(*r);
            }
        }
    }

    /// The pixels and records of the damaged rectangles (set in `self.win`) back to
    /// the snapshot.
    fn restore_damage(&mut self) {
        let w = self.w;
        for k in 0..self.dirty.len() {
            let r = self.dirty[k];
            for y in r.y0 as usize..r.y1 as usize {
                let (a, b) = (3 * (y * w + r.x0 as usize), 3 * (y * w + r.x1 as usize));
                self.pixels[a..b].copy_from_slice(&self.snap.pixels[a..b]);
            }
            self.forget_records(r);
        }
        // the snapshot's records in each row of each rectangle (the rectangles are
        // disjoint), by the rows' index instead of a pass over every record
        self.snap.index_rows(w, self.h);
        let s = &self.snap;
        for r in &self.dirty {
            for y in r.y0 as usize..r.y1 as usize {
                let (lo, hi) = (y * w + r.x0 as usize, y * w + r.x1 as usize);
                for &k in &s.by_row[s.row_start[y] as usize..s.row_start[y + 1] as usize] {
                    let rec = &s.masks[k as usize];
                    if (lo..hi).contains(&rec.pixel_index()) {
                        // the epoch's pending shapes are not the snapshot's
                        self.records.put(rec.resolved(&s.shapes, w));
                    }
                }
            }
        }
    }

    /// Whether `words` starts by covering the whole canvas opaquely (`background()`,
    /// `clear()`, a new canvas, or unstroked opaque rectangles on canvas pixel edges
    /// that together cover it): then nothing drawn before it shows in its frame, at
    /// the canvas's present size, here as in the browser. (Stroked ones start a frame
    /// afresh too, but a stroke that straddles a tile's edge blends over what lay
    /// there before the next tile covers it, which leaves a trace of it in an edge
    /// pixel here: up to 4 levels.)
    pub fn starts_covered(&mut self, words: &[u32]) -> bool {
        starts_opaque(words)
            || starts_with_covering_rects(words, self.logical.0, self.logical.1, &mut self.start_cover, true)
    }

    /// How many pixels the last [`Canvas::draw`] redrew when it drew only what differs
    /// from the frame before (`None`: it drew the whole stream).
    pub fn redrawn_last(&self) -> Option<u64> {
        self.redrawn
    }

    /// How many times [`Canvas::draw`] has kept the canvas after a shared prefix (a
    /// copy of the canvas and its records each).
    pub fn snapshots_taken(&self) -> u64 {
        self.snap.taken
    }

    /// Draws the damaged rectangles found by [`Damage::diff`]: every command that
    /// touches one, once, writing only inside them.
    fn redraw_damage(&mut self, words: &[u32]) -> Result<(), DrawError> {
        if self.dirty.is_empty() {
            return Ok(()); // the same stream again: the canvas already holds it
        }
        self.win.set(&self.dirty, self.w as u32, self.h as u32);
        let first = self.snap.cmds;
        if first > 0 {
            self.restore_damage();
        }
        let mut result = Ok(());
        let bounds = Bounds { sx: self.sx, sy: self.sy, tx: self.tx, ty: self.ty, w: self.w as u32, h: self.h as u32 };
        for k in first..self.entries.len() {
            let b = self.entries[k].bounds(words, &bounds);
            let e = self.entries[k];
            if !self.win.meets(&b) {
                continue;
            }
            let mut cmds = Commands::starting_at(&words[..e.end as usize], e.start as usize);
            if let Some(cmd) = cmds.next() {
                if let Err(err) = cmd.map_err(DrawError::from).and_then(|c| self.exec_timed(c)) {
                    result = Err(err);
                    break;
                }
            }
        }
        self.win.clear();
        result
    }
}
