//! The persistent per-env canvas and the draw loop that runs a command stream on it.
//!
//! Storage: `u8` RGB at observation resolution times `supersample` in each axis.
//! Why `u8` and not `f32`: the browser canvas we mirror stores 8 bits per channel and
//! rounds after every composite, so accumulating effects (fading trails from a
//! translucent `background()`) converge to the same levels only with the same
//! quantisation; `u8` is also 4x smaller (12 KiB at 64x64, in L1) and makes
//! `read_rgb` a `memcpy` without supersampling. Alpha is not stored: the canvas is
//! always opaque (see [`crate::blend`]).
//!
//! Device space: pixel `(i, j)` of the internal buffer covers `[i, i+1) x [j, j+1)`.
//! Canvas point `(x, y)` maps to `(x * sx + tx, y * sy + ty)`; shapes additionally
//! go through their style matrix first. The clip rectangle is the logical canvas in
//! device space (the whole buffer for stretch, the centred box for letterbox); nothing
//! draws outside it, including `background()`. While a frame is drawn as damage only
//! ([`Canvas::draw`]), writes are further restricted to the damaged rectangles: whole
//! pixels, so the coverage of every pixel inside is the same as in a full draw.
//!
//! Invariants: `pixels.len() == 3 * w * h` always; scratch buffers (`path`, `outline`,
//! `raster`, coverage rows, the damage tables) only grow, so steady-state frames do
//! not allocate; every shape is checked for non-finite numbers before any geometry is
//! built; a frame's pixels depend only on its own commands and the canvas it started
//! from, never on how much of it was redrawn.

use crate::blend::{fill_rgb, Paint, FULL};
use crate::command::{ArcMode, Cap, Command, Join, Rgba, StreamError, Style, Verb, Verbs};
use crate::coverage::{grid_axis_coverage, polygon_edges, Rasterizer};
use crate::damage::{in_ranges, Damage, Entry, PixRect, Window};
use crate::flatten::{self, Flattener, Polylines};
use crate::geometry::{Point, Rect, Transform};
use crate::supersample::box_filter;
use crate::seams::{sample_span, spans_mask, CanvasGrid, EllipseForm, Records, FORM_ENTRIES, MAX_MASK_EDGES};
use crate::stroke::{stroke_polyline, Pen};

mod bands;
mod blend_mode;
mod cache;
mod dash;
mod hairline;
mod pair;
mod resume;
mod shadow;
mod text;
mod trail;

use cache::{summary, summary_of, CoverageCache, Lookup};
use hairline::{hairline_colour, hairline_coverage};
use pair::{BoxShares, PairScratch};
use resume::{LastFrame, Snapshot, View};
use text::{FineMask, GlyphCoverage};

/// Largest observation side accepted by [`Canvas::new`].
pub const MAX_SIDE: u32 = 4096;
/// Largest supersampling factor.
pub const MAX_SUPERSAMPLE: u32 = 4;
/// Device-space flattening tolerance in (internal) pixels, for the curves that do not
/// follow the browser's own subdivision (Bezier curves, thick strokes; circles and
/// rounded corners of fills and hairlines do): 0.1 px keeps small curved shapes within
/// 0.1-0.8% of their ideal area and left the PSNR against the browser within 0.4 dB of
/// 0.02 px (bigfish, dodgeball, chaser, plunder) with about half the segments.
pub const DEFAULT_TOLERANCE: f64 = 0.1;

/// Largest device semi-axis drawn by [`Canvas::fill_ellipse`]; larger ellipses take the
/// general path, which culls the curve outside the clip before flattening it.
const MAX_DIRECT_ELLIPSE: f64 = 1024.0;

/// Slots of the canvas's memo of [`flatten::browser_ellipse_area_factor`].
const ELLIPSE_FACTOR_SLOTS: usize = 64;

/// Every sample along an axis ([`sample_span`] of `[0, 1]`).
const FULL_SAMPLES: (u32, u32) = (0, crate::seams::MASK_SIDE as u32);

/// Shapes whose device box is smaller than this (pixels) on its larger side are not
/// looked up in the coverage cache: they (bullets, particles, eyes) cost less to
/// draw than a lookup's share of them.
const MIN_CACHED_SIDE: f64 = 2.5;

/// Polygon edges shorter than this (device pixels) are rounding noise (the end of an
/// arc computed twice): their direction says nothing of the outline's.
const DEGENERATE_EDGE: f64 = 1e-6;

/// Curved outlines smaller than this (device pixels) on a side are drawn without
/// sample masks (see [`Canvas::shape`]).
const SEAM_MIN_SIDE: f64 = 2.0;

/// Vertex count `n` (a multiple of 4, so the polygon is symmetric about both axes)
/// of the regular polygon whose chords stay within `tol` of a circle of radius
/// `semi`, with the sine and cosine of its angle step and the radius factor that
/// gives it the circle's area. Counts up to 4 * 64 come from a table (no libm call
/// per ellipse).
fn ellipse_steps(semi: f64, tol: f64) -> (usize, f64, f64, f64) {
    use std::f64::consts::{FRAC_PI_4, TAU};
    use std::sync::OnceLock;
    /// One row of the table: n, sin and cos of the step, area factor, sagitta.
    #[derive(Clone, Copy)]
    struct Steps(usize, f64, f64, f64, f64);
    const QUARTERS: usize = 64;
    let steps = |q: usize| {
        let n = 4 * q;
        let (sin_s, cos_s) = (TAU / n as f64).sin_cos();
        // The chord error of the polygon is the sagitta 1 - cos(step / 2).
        let sagitta = 1.0 - (FRAC_PI_4 / q as f64).cos();
        Steps(n, sin_s, cos_s, (TAU / (n as f64 * sin_s)).sqrt(), sagitta)
    };
    static TABLE: OnceLock<Vec<Steps>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (1..=QUARTERS).map(steps).collect());
    // Smallest q with semi * sagitta(q) <= tol; acos(1 - x) >= sqrt(2x) makes the
    // estimate an upper bound, and it is rarely more than one too many.
    let x = (tol / semi).min(1.0);
    let mut q = (FRAC_PI_4 / (2.0 * x).sqrt()).ceil().max(1.0) as usize;
    if q > QUARTERS {
        let exact = (FRAC_PI_4 / (1.0 - x).acos()).ceil().max(1.0) as usize;
        if exact > QUARTERS {
            let Steps(n, s, c, k, _) = steps(exact);
            return (n, s, c, k);
        }
        q = QUARTERS;
    }
    while q > 1 && semi * table[q - 2].4 <= tol {
        q -= 1;
    }
    let Steps(n, s, c, k, _) = table[q - 1];
    (n, s, c, k)
}

/// How the logical canvas maps onto the observation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Scale each axis independently to fill the observation.
    Stretch,
    /// Scale uniformly, centre, leave black bars.
    Letterbox,
}

/// Why a draw failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawError {
    /// The stream is malformed at the given place.
    Malformed(StreamError),
    /// A `JG_OP_CANVAS` with a non-finite or non-positive size.
    BadCanvasSize,
    /// The deadline of [`Canvas::set_deadline`] passed before the stream was drawn.
    Timeout,
}

impl From<StreamError> for DrawError {
    fn from(e: StreamError) -> Self {
        DrawError::Malformed(e)
    }
}

/// A persistent RGB canvas plus the scratch state of the raster pipeline.
#[derive(Debug)]
pub struct Canvas {
    obs_w: usize,
    obs_h: usize,
    ss: usize,
    /// The supersampling asked for; `ss` is twice it while a trail is drawn finer
    /// (see [`Canvas::refine_for_trail`]).
    base_ss: usize,
    w: usize,
    h: usize,
    fit: Fit,
    logical: (f64, f64),
    sx: f64,
    sy: f64,
    tx: f64,
    ty: f64,
    clip: Rect,
    tol: f64,
    pixels: Vec<u8>,
    raster: Rasterizer,
    path: Polylines,
    outline: Polylines,
    segs: Vec<(Point, f64)>,
    cx: Vec<f32>,
    cy: Vec<f32>,
    cx2: Vec<f32>,
    cy2: Vec<f32>,
    row: Vec<f32>,
    probe: Option<Probe>,
    /// Hinted glyph outlines drawn so far.
    hints: crate::font::HintCache,
    /// Coverage of the glyph runs drawn lately (see [`FineMask`]).
    fine_masks: Vec<FineMask>,
    /// Glyph runs [`Canvas::fine_glyph_fill`] has drawn (the masks' `used` stamps).
    fine_tick: u64,
    /// Scratch of [`Canvas::fine_glyph_fill`]: the canvas columns' shares of the buffer's.
    fine_cols: Vec<text::CellShares>,
    /// Canvas-resolution coverage of the glyphs those runs are made of.
    glyph_coverage: GlyphCoverage,
    /// The fill being drawn is glyph masks (see [`crate::blend::MaskGamma`]).
    glyph_masks: bool,
    /// Recent [`flatten::browser_ellipse_area_factor`]s and their inputs (the canvas
    /// map's linear part, the radii), by a hash of the inputs: a scene's stars and
    /// particles repeat a few sizes, and a creature draws its body, eyes and pupils in
    /// turn every frame.
    ellipse_factors: Box<[([f64; 6], f64); ELLIPSE_FACTOR_SLOTS]>,
    /// What opaque rectangles and convex polygons drew into the edge pixels of the
    /// current epoch.
    records: Records,
    /// The device-space edges of the polygon being drawn, and its contours.
    seam_edges: Vec<(Point, Point)>,
    /// A stroke's loop in device space (`canvas/pair.rs`).
    corners: Vec<Point>,
    seam_contours: u32,
    /// The outer edge of the stroke of the ellipse being drawn, whose samples a
    /// fill-and-stroke pair's edge pixels take (see `composite_pair`).
    pair_form: Option<EllipseForm>,
    /// The device centre and semi-axes (along x and y, scaled to the area of the
    /// browser's polygon) of the fill of the ellipse being drawn with a stroke, whose
    /// exact area a fill-and-stroke pair takes for its fill (see
    /// [`Rasterizer::add_axis_ellipse`](crate::coverage::Rasterizer::add_axis_ellipse)).
    pair_ellipse: Option<(Point, f64, f64)>,
    /// The pixels drawing may write: the whole buffer, or while a frame is redrawn
    /// only where it differs from the last, its damaged rectangles.
    win: Window,
    /// The rectangle axis-aligned drawing works in now (the whole buffer, or one
    /// damaged rectangle at a time).
    window: PixRect,
    last: LastFrame,
    damage: Damage,
    entries: Vec<Entry>,
    dirty: Vec<PixRect>,
    /// Pixels the last `draw` redrew when it drew only the damage (`None`: whole).
    redrawn: Option<u64>,
    snap: Snapshot,
    deadline: crate::deadline::Deadline,
    /// Scratch coverage of a shape filled and stroked as one (`canvas/pair.rs`).
    pair: PairScratch,
    /// Scratch box shares of a pair's composite (`canvas/pair.rs`).
    box_shares: BoxShares,
    /// Coverage of shapes drawn before (`canvas/cache.rs`).
    cache: CoverageCache,
    /// Thin horizontal bands blended canvas row by canvas row (`canvas/bands.rs`).
    bands: bands::Bands,
    /// Commands executed so far (a run of bands is consecutive commands).
    cmd_serial: u64,
    /// Streams drawn so far, and the translucent `background()` the current one
    /// starts with when it is drawn over the last frame (a trail): see
    /// `canvas/trail.rs`.
    frame_serial: u64,
    trail: Option<Paint>,
    /// Opaque shapes seen in the frames of a trail, and the canvas pixels they and
    /// text blended there (`canvas/trail.rs`).
    trail_shapes: trail::TrailShapes,
    trail_canvas: trail::TrailCanvas,
    /// Scratch of the check whether a frame starts with rectangles that cover the
    /// canvas (`canvas/resume.rs`): a bit per canvas pixel.
    start_cover: Vec<u64>,
    /// The shadow the stream has set (`JG_OP_SHADOW`; none at each stream's start),
    /// and the scratch of its blur (`canvas/shadow.rs`).
    shadow: Option<crate::command::Shadow>,
    shadow_tmp: Vec<f32>,
    kernels: shadow::Kernels,
    /// The dash pattern the stream has set (`JG_OP_DASH`; none at each stream's
    /// start: `canvas/dash.rs`).
    dash: Option<dash::Dash>,
    /// A canvas at canvas resolution that a shadow's coverage is measured on under a
    /// trail (`canvas/shadow.rs`).
    shadow_canvas: Option<Box<Canvas>>,
    /// The blend mode the stream has set (`JG_OP_BLEND`; source-over at each
    /// stream's start: `canvas/blend_mode.rs`).
    blend: crate::command::BlendOp,
    /// Coverage summed by a probed draw of a shape whose shadow or blend mode the
    /// canvas composites itself.
    probe_cov: Vec<f32>,
}

/// An interval `[lo, hi]` (already clipped) over unit cells `i0..i1`: only the first
/// and the last cell can be partly covered. `first`/`last` are the covered part of
/// those two cells in cell-local units, `cov_*` its length; both as
/// [`axis_coverage`](crate::coverage::axis_coverage) computes them, so the two paths agree to the bit.
#[derive(Clone, Copy, Debug)]
struct Span {
    i0: usize,
    i1: usize,
    first: [f32; 2],
    last: [f32; 2],
    cov_first: f32,
    cov_last: f32,
}

impl Span {
    #[inline]
    fn new(lo: f64, hi: f64, n: usize) -> Option<Span> {
        let (lc, hc) = (lo.max(0.0), hi.min(n as f64));
        if !(hc > lc) {
            return None;
        }
        let i0 = lc.floor() as usize;
        let i1 = (hc.ceil() as usize).min(n);
        let local = |i: usize| {
            let i = i as f64;
            [(lo - i).max(0.0) as f32, (hi - i).min(1.0) as f32]
        };
        let cov = |i: usize| (hc.min((i + 1) as f64) - lc.max(i as f64)).max(0.0) as f32;
        Some(Span { i0, i1, first: local(i0), last: local(i1 - 1), cov_first: cov(i0), cov_last: cov(i1 - 1) })
    }

    /// The covered part of cell `i` (cell-local units).
    #[inline(always)]
    fn at(&self, i: usize) -> [f32; 2] {
        if i == self.i0 {
            self.first
        } else if i + 1 == self.i1 {
            self.last
        } else {
            [0.0, 1.0]
        }
    }

    /// The coverage of cell `i`.
    #[inline(always)]
    fn cov(&self, i: usize) -> f32 {
        if i == self.i0 {
            self.cov_first
        } else if i + 1 == self.i1 {
            self.cov_last
        } else {
            1.0
        }
    }
}

/// The coverage of a probed draw summed per internal pixel (row-major `w * h`; or
/// not kept, when empty), and the box of the pixels it reached (`[x0, y0, x1, y1]`;
/// none while `x0 >= x1`).
#[derive(Debug)]
struct Probe {
    cov: Vec<f32>,
    reached: [usize; 4],
}

impl Probe {
    fn new(cov: Vec<f32>) -> Probe {
        Probe { cov, reached: [usize::MAX, usize::MAX, 0, 0] }
    }

    /// Adds coverage `c` to pixel `k` of row `y`, column `x`.
    #[inline(always)]
    fn add(&mut self, k: usize, x: usize, y: usize, c: f32) {
        if !self.cov.is_empty() {
            self.cov[k] += c;
        }
        if c > 0.0 {
            let r = &mut self.reached;
            *r = [r[0].min(x), r[1].min(y), r[2].max(x + 1), r[3].max(y + 1)];
        }
    }
}

/// A rectangle's `x y w h` as canvas 2D's `rect()` takes them: a negative side
/// spans back from its corner.
fn normalized_rect(xywh: [f32; 4]) -> [f64; 4] {
    let [mut x, mut y, mut w, mut h] = xywh.map(|v| v as f64);
    if w < 0.0 {
        x += w;
        w = -w;
    }
    if h < 0.0 {
        y += h;
        h = -h;
    }
    [x, y, w, h]
}

/// `dst` (RGB rows of `dst_w` pixels) as `src` (rows of `src_w`) with each pixel
/// repeated over the `k x k` pixels it covers.
fn repeat_pixels(src: &[u8], src_w: usize, k: usize, dst: &mut [u8], dst_w: usize) {
    for (y, row) in dst.chunks_exact_mut(3 * dst_w).enumerate() {
        let from = &src[(y / k) * 3 * src_w..][..3 * src_w];
        for (x, px) in row.chunks_exact_mut(3).enumerate() {
            px.copy_from_slice(&from[3 * (x / k)..3 * (x / k) + 3]);
        }
    }
}

/// Where coverage goes: into pixels through a paint, or summed into a probe buffer.
fn emit(pixels: &mut [u8], probe: &mut Option<Probe>, w: usize, paint: &Paint, y: usize, x0: usize, cov: &[f32]) {
    let start = y * w + x0;
    if let Some(p) = probe {
        for (i, &c) in cov.iter().enumerate() {
            p.add(start + i, x0 + i, y, c);
        }
        return;
    }
    paint.blend_row(&mut pixels[3 * start..3 * (start + cov.len())], cov);
}

/// Composites one row of a convex opaque shape's coverage (`cov`, pixels `x0..`)
/// whose samples are pending in the records under `code`, inside the window.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn seam_row(win: &Window, pixels: &mut [u8], records: &mut Records, w: usize, code: u32, col: [u8; 3], y: usize, x0: usize, cov: &[f32]) {
    if win.rows().is_some_and(|r| !r[y]) {
        return;
    }
    let ranges = win.row(y);
    let row = &mut pixels[3 * (y * w + x0)..3 * (y * w + x0 + cov.len())];
    for (i, (&c, px)) in cov.iter().zip(row.chunks_exact_mut(3)).enumerate() {
        let x = x0 + i;
        if c < 1e-6 || !in_ranges(ranges, x) {
            continue;
        }
        if c >= FULL {
            px.copy_from_slice(&col);
            records.forget(y * w + x);
        } else {
            records.composite_polygon((x, y), px, code, c, col);
        }
    }
}

/// Whether the edges `e` (at most [`MAX_MASK_EDGES`], one closed contour) turn one
/// way only.
pub(super) fn edges_convex(e: &[(Point, Point)]) -> bool {
    if e.len() < 3 || e.len() > MAX_MASK_EDGES {
        return false;
    }
    if (0..e.len()).any(|k| e[k].1 != e[(k + 1) % e.len()].0) {
        return false;
    }
    // the turns from each edge to the next, leaving out edges of rounding noise
    // (an arc's end computed twice), whose direction is noise too, and turns
    // within rounding of none
    let dir = |(a, b): (Point, Point)| (b.x - a.x, b.y - a.y);
    // (squared lengths: libm's hypot took 3% of a step of games drawing many quads)
    let long = |&(a, b): &(Point, Point)| {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        dx * dx + dy * dy > DEGENERATE_EDGE * DEGENERATE_EDGE
    };
    let mut sign = 0.0;
    let Some(&first) = e.iter().find(|&p| long(p)) else { return false };
    let mut prev = first;
    for &cur in e.iter().filter(|&p| long(p)).skip(1).chain(std::iter::once(&first)) {
        let ((ux, uy), (vx, vy)) = (dir(prev), dir(cur));
        let z = ux * vy - uy * vx;
        // collinear within rounding (a pie's two radii through the centre)
        if z * z > 1e-12 * (ux * ux + uy * uy) * (vx * vx + vy * vy) {
            if sign != 0.0 && z.signum() != sign {
                return false;
            }
            sign = z.signum();
        }
        prev = cur;
    }
    sign != 0.0
}

/// The inner half-planes `a x + b y + c > 0` (unit normals) of the convex polygon of
/// `edges` (at most [`MAX_MASK_EDGES`]), leaving out degenerate edges, and their count.
pub(super) fn edge_planes(edges: &[(Point, Point)]) -> ([[f64; 3]; MAX_MASK_EDGES], usize) {
    // the inside of each edge: the side of the polygon's orientation
    let twice_area: f64 = edges.iter().map(|(a, b)| a.x * b.y - b.x * a.y).sum();
    let mut planes = [[0f64; 3]; MAX_MASK_EDGES];
    let mut n = 0;
    for &(a, b) in edges.iter().take(MAX_MASK_EDGES) {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len = (dx * dx + dy * dy).sqrt();
        if !(len > DEGENERATE_EDGE) {
            continue;
        }
        let s = twice_area.signum() / len;
        // inside: s * cross(b - a, p - a) > 0
        planes[n] = [-dy * s, dx * s, (dy * a.x - dx * a.y) * s];
        n += 1;
    }
    (planes, n)
}

fn finite(v: &[f32]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// The `n` edges of the polygon [`Canvas::fill_ellipse`] draws for the device ellipse
/// `d + u cos t + v sin t`, in p5's order: from the leftmost point through the top,
/// `(-cos t, -sin t)`, in steps of sine and cosine `step`, the closing edge last.
#[inline(always)]
fn ellipse_polygon(d: Point, u: Point, v: Point, n: usize, (sin_s, cos_s): (f64, f64), mut edge: impl FnMut(Point, Point)) {
    let at = |c: f64, s: f64| Point::new(d.x - u.x * c - v.x * s, d.y - u.y * c - v.y * s);
    let first = at(1.0, 0.0);
    let (mut c, mut s) = (1.0f64, 0.0f64);
    let mut prev = first;
    for _ in 1..n {
        (c, s) = (c * cos_s - s * sin_s, s * cos_s + c * sin_s);
        let p = at(c, s);
        edge(prev, p);
        prev = p;
    }
    edge(prev, first);
}

/// The semi-axes along x and y of the device ellipse `d + u cos t + v sin t` when its
/// axes lie there (no rotation or shear), else `None`.
fn device_axes(u: Point, v: Point) -> Option<(f64, f64)> {
    if u.y == 0.0 && v.x == 0.0 {
        Some((u.x.abs(), v.y.abs()))
    } else if u.x == 0.0 && v.y == 0.0 {
        Some((v.x.abs(), u.y.abs()))
    } else {
        None
    }
}

/// The style's map from user space to canvas pixels (what the browser's canvas
/// transform is), before the fit to the observation.
fn canvas_matrix(style: &Style) -> Transform {
    let [a, b, c, d, e, f] = style.matrix.map(|v| v as f64);
    Transform { a, b, c, d, e, f }
}

impl Canvas {
    /// A black canvas of `obs_w x obs_h` observation pixels; `None` for sizes of 0 or
    /// above [`MAX_SIDE`], or `supersample` outside `1..=4`.
    pub fn new(obs_w: u32, obs_h: u32, fit: Fit, supersample: u32) -> Option<Canvas> {
        if obs_w == 0 || obs_h == 0 || obs_w > MAX_SIDE || obs_h > MAX_SIDE {
            return None;
        }
        if !(1..=MAX_SUPERSAMPLE).contains(&supersample) {
            return None;
        }
        let ss = supersample as usize;
        let (w, h) = (obs_w as usize * ss, obs_h as usize * ss);
        let mut c = Canvas {
            obs_w: obs_w as usize,
            obs_h: obs_h as usize,
            ss,
            base_ss: ss,
            w,
            h,
            fit,
            logical: (obs_w as f64, obs_h as f64),
            sx: 1.0,
            sy: 1.0,
            tx: 0.0,
            ty: 0.0,
            clip: Rect { x0: 0.0, y0: 0.0, x1: w as f64, y1: h as f64 },
            tol: DEFAULT_TOLERANCE,
            pixels: vec![0; 3 * w * h],
            raster: Rasterizer::default(),
            path: Polylines::default(),
            outline: Polylines::default(),
            segs: Vec::new(),
            cx: Vec::new(),
            cy: Vec::new(),
            cx2: Vec::new(),
            cy2: Vec::new(),
            row: Vec::new(),
            probe: None,
            hints: Default::default(),
            fine_masks: Vec::new(),
            fine_tick: 0,
            fine_cols: Vec::new(),
            glyph_coverage: GlyphCoverage::default(),
            glyph_masks: false,
            ellipse_factors: Box::new([([f64::NAN; 6], 1.0); ELLIPSE_FACTOR_SLOTS]),
            records: Records::default(),
            seam_edges: Vec::new(),
            corners: Vec::new(),
            seam_contours: 0,
            pair_form: None,
            pair_ellipse: None,
            win: Window::default(),
            window: PixRect { x0: 0, y0: 0, x1: w as u32, y1: h as u32 },
            last: LastFrame::default(),
            damage: Damage::default(),
            entries: Vec::new(),
            dirty: Vec::new(),
            redrawn: None,
            snap: Snapshot::default(),
            deadline: crate::deadline::Deadline::for_pixels(w * h),
            pair: PairScratch::default(),
            box_shares: BoxShares::default(),
            cache: CoverageCache::default(),
            bands: bands::Bands::default(),
            cmd_serial: 0,
            frame_serial: 0,
            trail: None,
            trail_shapes: trail::TrailShapes::default(),
            trail_canvas: trail::TrailCanvas::default(),
            start_cover: Vec::new(),
            shadow: None,
            shadow_tmp: Vec::new(),
            kernels: shadow::Kernels::default(),
            shadow_canvas: None,
            dash: None,
            blend: crate::command::BlendOp::SourceOver,
            probe_cov: Vec::new(),
        };
        c.set_logical(obs_w as f64, obs_h as f64);
        Some(c)
    }

    /// How many shapes took their coverage from the coverage cache so far
    /// (`canvas/cache.rs`).
    pub fn coverage_cache_hits(&self) -> u64 {
        self.cache.hits
    }

    /// Observation width in pixels.
    pub fn obs_width(&self) -> usize {
        self.obs_w
    }

    /// Observation height in pixels.
    pub fn obs_height(&self) -> usize {
        self.obs_h
    }

    /// The logical canvas size.
    pub fn logical_size(&self) -> (f64, f64) {
        self.logical
    }

    /// Sets the device-space flattening tolerance (pixels of the internal buffer);
    /// ignored unless finite and positive.
    pub fn set_tolerance(&mut self, tol: f64) {
        if tol.is_finite() && tol > 0.0 {
            self.tol = tol;
            self.last.ok = false;
            self.snap.cmds = 0;
        }
    }

    fn set_logical(&mut self, lw: f64, lh: f64) {
        self.logical = (lw, lh);
        let (w, h) = (self.w as f64, self.h as f64);
        match self.fit {
            Fit::Stretch => {
                self.sx = w / lw;
                self.sy = h / lh;
                self.tx = 0.0;
                self.ty = 0.0;
                self.clip = Rect { x0: 0.0, y0: 0.0, x1: w, y1: h };
            }
            Fit::Letterbox => {
                let s = (w / lw).min(h / lh);
                let (cw, ch) = (lw * s, lh * s);
                self.sx = s;
                self.sy = s;
                self.tx = 0.5 * (w - cw);
                self.ty = 0.5 * (h - ch);
                self.clip = Rect { x0: self.tx, y0: self.ty, x1: self.tx + cw, y1: self.ty + ch };
            }
        }
        self.records.set_grid(CanvasGrid::new(self.sx as f32, self.tx as f32, self.sy as f32, self.ty as f32));
        // canvas pixels that are device pixels: spreading an edge over them changes nothing
        let identity = self.sx == 1.0 && self.sy == 1.0 && self.tx.fract() == 0.0 && self.ty.fract() == 0.0;
        self.raster.set_grid((!identity).then_some([self.sx, self.tx, self.sy, self.ty]));
    }

    /// Back to opaque black, keeping the logical size (and at the supersampling asked
    /// for: every episode draws its frames alike).
    pub fn reset(&mut self) {
        if self.ss != self.base_ss {
            self.resample(self.base_ss);
        }
        self.pixels.fill(0);
        self.next_epoch();
        self.last.ok = false;
        self.snap.cmds = 0;
    }

    /// An opaque `background()` / `clear()` over the whole canvas: what was drawn
    /// before no longer shows anywhere, so no record of it applies.
    fn next_epoch(&mut self) {
        self.records.clear();
    }

    /// Before the first frame of a trail (a stream that starts with a translucent
    /// `background()` over the last frame): draws it, and the frames after it, at twice
    /// the supersampling asked for while that stays coarser than the canvas itself (at
    /// most [`MAX_SUPERSAMPLE`]). The browser keeps each canvas pixel's own history
    /// under a trail, and rounds every blend of it to 8 bits; an observation pixel holds
    /// one mean of many such histories, so a shape moving under the trail leaves a
    /// smear that drifts from the browser's frame after frame (unseen trail games: 40.7
    /// to 43.3 dB at supersample 1, 47.2 to 47.5 when drawn at 2). The canvas carries
    /// on from its pixels, each repeated over the finer ones it covers.
    pub(super) fn refine_for_trail(&mut self) {
        let finer = 2 * self.base_ss;
        let coarser = (self.obs_w * self.base_ss) as f64 + 0.5 < self.logical.0 || (self.obs_h * self.base_ss) as f64 + 0.5 < self.logical.1;
        if self.ss == self.base_ss && finer <= MAX_SUPERSAMPLE as usize && coarser {
            self.resample(finer);
        }
    }

    /// Before a stream that covers the canvas from its start (an opaque background or
    /// rectangles): back to the supersampling asked for, which the trail no longer needs
    /// (nothing drawn before shows).
    pub(super) fn end_refined_trail(&mut self) {
        if self.ss != self.base_ss {
            self.resample(self.base_ss);
        }
    }

    /// The canvas at supersampling `ss`, its pixels carried over (each repeated over the
    /// finer pixels it covers, or the mean of the coarser's); every cache and record
    /// starts afresh.
    fn resample(&mut self, ss: usize) {
        let Some(mut c) = Canvas::new(self.obs_w as u32, self.obs_h as u32, self.fit, ss as u32) else { return };
        c.base_ss = self.base_ss;
        c.tol = self.tol;
        c.set_logical(self.logical.0, self.logical.1);
        if ss > self.ss {
            repeat_pixels(&self.pixels, self.w, ss / self.ss, &mut c.pixels, c.w);
        } else {
            let mut obs = vec![0u8; 3 * self.obs_w * self.obs_h];
            self.read_rgb(&mut obs);
            repeat_pixels(&obs, self.obs_w, ss, &mut c.pixels, c.w);
        }
        c.deadline.set(self.deadline.at_ns());
        c.cmd_serial = self.cmd_serial;
        c.frame_serial = self.frame_serial;
        *self = c;
    }

    /// The internal RGB buffer (`3 * obs_w * ss * obs_h * ss` bytes, row-major).
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// Copies the canvas into `dst` (`3 * obs_w * obs_h` bytes), box-filtering the
    /// supersampled grid and rounding to nearest. Returns false if `dst` is too short.
    pub fn read_rgb(&self, dst: &mut [u8]) -> bool {
        let n = 3 * self.obs_w * self.obs_h;
        if dst.len() < n {
            return false;
        }
        if self.ss == 1 {
            dst[..n].copy_from_slice(&self.pixels);
            return true;
        }
        let (src, w, ow, oh) = (&self.pixels[..], self.w, self.obs_w, self.obs_h);
        match self.ss {
            2 => box_filter::<2>(src, w, ow, oh, dst),
            3 => box_filter::<3>(src, w, ow, oh, dst),
            _ => box_filter::<4>(src, w, ow, oh, dst),
        }
        true
    }

    /// Runs `f` once per rectangle drawing may write in (the whole buffer, or each
    /// damaged rectangle that `dev` reaches), with `self.window` set to it.
    fn each_window(&mut self, dev: Rect, mut f: impl FnMut(&mut Self)) {
        if self.win.is_all() {
            f(self);
            return;
        }
        let full = self.window;
        for k in 0..self.win.rects.len() {
            let r = self.win.rects[k];
            if !r.to_rect().intersects(&dev) {
                continue;
            }
            self.window = r;
            f(self);
        }
        self.window = full;
    }

    fn view(&self) -> View {
        View { logical: self.logical, sx: self.sx, sy: self.sy, tx: self.tx, ty: self.ty, clip: Some(self.clip) }
    }

    /// The device clip of axis-aligned drawing: the view's clip within the window
    /// (pixel boundaries, so every pixel inside keeps its exact coverage).
    fn axis_clip(&self) -> Rect {
        let w = self.window.to_rect();
        let c = self.clip;
        Rect { x0: c.x0.max(w.x0), y0: c.y0.max(w.y0), x1: c.x1.min(w.x1), y1: c.y1.min(w.y1) }
    }

    fn full_window(&self) -> bool {
        self.win.is_all()
    }

    /// Runs `words` without touching the pixels and returns the summed coverage of
    /// every painted shape per internal pixel (row-major `w * h`): the analytic-area
    /// test hook.
    pub fn coverage_of(&mut self, words: &[u32]) -> Result<Vec<f32>, DrawError> {
        self.probe = Some(Probe::new(vec![0.0; self.w * self.h]));
        let r = self.draw(words);
        let p = self.probe.take().map(|p| p.cov).unwrap_or_default();
        r.map(|_| p)
    }

    /// Runs `words` as [`Canvas::coverage_of`] does and returns the box of the
    /// internal pixels their shapes cover (`[x0, y0, x1, y1]`), if any, without a
    /// buffer of the canvas's size to fill and scan.
    pub fn reached_by(&mut self, words: &[u32]) -> Result<Option<[usize; 4]>, DrawError> {
        self.probe = Some(Probe::new(Vec::new()));
        let r = self.draw(words);
        let reached = self.probe.take().map(|p| p.reached).filter(|[x0, y0, x1, y1]| x0 < x1 && y0 < y1);
        r.map(|_| reached)
    }

    /// The deadline of the next draws, in `CLOCK_MONOTONIC` nanoseconds (`0`: none):
    /// see [`crate::deadline`].
    pub fn set_deadline(&mut self, at_ns: u64) {
        self.deadline.set(at_ns);
    }

    /// [`Canvas::exec`] unless the deadline has passed (checked here, outside `exec`,
    /// so that `exec` compiles as it would without it).
    #[inline(always)]
    fn exec_timed(&mut self, cmd: Command<'_>) -> Result<(), DrawError> {
        if self.deadline.passed() {
            return Err(DrawError::Timeout);
        }
        self.exec(cmd)
    }

    fn exec(&mut self, cmd: Command<'_>) -> Result<(), DrawError> {
        // (dashes are the stroke's geometry: probed draws too)
        if let Some(d) = &self.dash {
            let dashable = matches!(cmd, Command::Rect { .. } | Command::Ellipse { .. } | Command::Line { .. } | Command::Path { .. });
            if let Some(&style) = cmd.style().filter(|s| dashable && s.stroke.a != 0 && s.weight > 0.0) {
                let d = d.clone();
                return self.exec_dashed(cmd, style, &d);
            }
        }
        // (a probed draw measures the shapes themselves)
        if self.probe.is_none() && (self.shadow.is_some() || self.blend != crate::command::BlendOp::SourceOver) {
            let blended = self.blend != crate::command::BlendOp::SourceOver;
            if let Some(sh) = self.shadow {
                if let Some(&style) = cmd.style() {
                    return self.exec_shadowed(cmd, style, sh);
                }
                if let Command::Background(c) = cmd {
                    if c.a != 255 || blended {
                        self.background_shadow(c, sh)?;
                    }
                }
            }
            if blended {
                if let Some(&style) = cmd.style() {
                    return self.exec_blended(cmd, style);
                }
                if let Command::Background(c) = cmd {
                    return self.background_blended(c);
                }
            }
        }
        self.cmd_serial += 1;
        // (a line that continues a run of bands writes the rows itself: canvas/bands.rs)
        if !matches!(cmd, Command::Line { .. }) {
            self.flush_bands();
        }
        match cmd {
            Command::Canvas { w, h } => {
                let (w, h) = (w as f64, h as f64);
                if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0) {
                    return Err(DrawError::BadCanvasSize);
                }
                if !self.full_window() {
                    // (a damaged rectangle of a frame that starts with its own size)
                    self.clear_window();
                    return Ok(());
                }
                self.set_logical(w, h);
                // (a probed draw sums coverage and never reads the pixels)
                if self.probe.is_none() {
                    self.pixels.fill(0);
                }
                self.next_epoch();
            }
            Command::Background(c) => self.background(c),
            Command::Shadow(sh) => self.shadow = sh.casts().then_some(sh),
            Command::Blend(op) => self.blend = op,
            Command::Dash { offset, lens } => {
                self.dash = (!lens.is_empty()).then(|| dash::Dash { offset, lens: lens.iter().map(|&w| f32::from_bits(w)).collect() });
            }
            Command::Clear => {
                if !self.full_window() {
                    self.clear_window();
                    return Ok(());
                }
                self.pixels.fill(0);
                self.next_epoch();
            }
            Command::Rect { style, xywh, radii } => self.rect(&style, xywh, radii),
            Command::Ellipse { style, c } => {
                if !finite(&c) {
                    return Ok(());
                }
                let [cx, cy, rx, ry] = c.map(|v| v as f64);
                let (rx, ry) = (rx.abs(), ry.abs());
                if !Self::stroke_on(&style) && self.fill_ellipse(&style, cx, cy, rx, ry) {
                    return Ok(());
                }
                let bounds = Rect { x0: cx - rx, y0: cy - ry, x1: cx + rx, y1: cy + ry };
                // the stroke's outer edge: the ellipse grown by half the weight
                let hw = 0.5 * style.weight as f64;
                self.pair_form = self.device_matrix(&style).filter(|_| Self::stroke_on(&style) && hw.is_finite()).map(|m| {
                    let d = m.apply(Point::new(cx, cy));
                    let (a, b) = (rx + hw, ry + hw);
                    EllipseForm::new((d.x, d.y), (m.a * a, m.b * a), (m.c * b, m.d * b), 1.0)
                });
                // (only an opaque fill makes a pair)
                let pair_fill = Self::stroke_on(&style) && style.fill.a == 255;
                self.pair_ellipse = self.device_matrix(&style).filter(|_| pair_fill).and_then(|m| {
                    let (ax, ay) = device_axes(Point::new(m.a * rx, m.b * rx), Point::new(m.c * ry, m.d * ry))?;
                    let f = self.browser_ellipse_area_factor(&style, rx, ry).sqrt();
                    Some((m.apply(Point::new(cx, cy)), ax * f, ay * f))
                });
                self.shape(&style, true, true, bounds, false, &|p, fl, _| {
                    flatten::ellipse(p, fl, cx, cy, rx, ry);
                });
                self.pair_form = None;
                self.pair_ellipse = None;
            }
            Command::Arc { style, c, mode } => self.arc(&style, c, mode),
            Command::Line { style, p } => {
                if !finite(&p) {
                    return Ok(());
                }
                let [x1, y1, x2, y2] = p.map(|v| v as f64);
                if self.axis_line(&style, x1, y1, x2, y2) {
                    return Ok(());
                }
                self.flush_bands();
                let bounds = Rect { x0: x1.min(x2), y0: y1.min(y2), x1: x1.max(x2), y1: y1.max(y2) };
                self.shape(&style, false, true, bounds, false, &|p, _, _| {
                    p.move_to(Point::new(x1, y1));
                    p.line_to(Point::new(x2, y2));
                });
            }
            Command::Point { style, p } => self.point(&style, p),
            Command::Path { style, verbs } => self.path(&style, verbs),
            Command::Text { style, face, size, glyphs } => self.text(&style, face, size, glyphs),
        }
        Ok(())
    }

    fn background(&mut self, c: Rgba) {
        let paint = match Paint::new(c) {
            Some(p) => p,
            None => return,
        };
        let whole = self.full_window();
        if paint.opaque() && self.probe.is_none() {
            if whole {
                self.next_epoch();
            } else {
                for k in 0..self.win.rects.len() {
                    self.forget_records(self.win.rects[k]);
                }
            }
        }
        let full = whole && self.clip == Rect { x0: 0.0, y0: 0.0, x1: self.w as f64, y1: self.h as f64 };
        if full && self.probe.is_none() {
            if paint.opaque() {
                fill_rgb(&mut self.pixels, [c.r, c.g, c.b]);
            } else {
                paint.blend_uniform(&mut self.pixels, 1.0);
            }
            return;
        }
        let clip = self.clip;
        self.fill_axis_rect(clip, &paint);
    }

    /// `clear()` (and a same-size `JG_OP_CANVAS`) inside the window: black pixels,
    /// retired records.
    fn clear_window(&mut self) {
        for k in 0..self.win.rects.len() {
            let r = self.win.rects[k];
            for y in r.y0 as usize..r.y1 as usize {
                self.pixels[3 * (y * self.w + r.x0 as usize)..3 * (y * self.w + r.x1 as usize)].fill(0);
            }
            self.forget_records(r);
        }
    }

    /// Retires the partial-coverage records of the pixels of `r` (an opaque
    /// background drawn into a damaged rectangle: the rest keep theirs).
    fn forget_records(&mut self, r: PixRect) {
        self.records.forget_rect(self.w, r);
    }

    /// Device transform of a style matrix; `None` when non-finite or singular (a
    /// singular transform flattens every shape to zero area).
    fn device_matrix(&self, style: &Style) -> Option<Transform> {
        let m = style.matrix;
        if !finite(&m) {
            return None;
        }
        let t = Transform::from_row(m[0] as f64, m[1] as f64, m[2] as f64, m[3] as f64, m[4] as f64, m[5] as f64)?
            .post_scale_translate(self.sx, self.sy, self.tx, self.ty);
        let det = t.det();
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        Some(t)
    }

    fn stroke_on(style: &Style) -> bool {
        style.stroke.a != 0
    }

    fn rect(&mut self, style: &Style, xywh: [f32; 4], radii: [f32; 4]) {
        let stroke = Self::stroke_on(style);
        if !finite(&xywh) || !finite(&radii) || (stroke && !style.weight.is_finite()) {
            return;
        }
        let [x, y, w, h] = normalized_rect(xywh);
        let r = radii.map(|v| (v as f64).max(0.0));
        let square = r.iter().all(|&v| v == 0.0);
        let m = match self.device_matrix(style) {
            Some(m) => m,
            None => return,
        };
        // Wholly outside the clip, the rect shows nothing: tiles and sprites scrolled off
        // the canvas are common, and everything below costs more than this test. The
        // margin covers miters (10 half-widths, as shape()'s), a hairline's canvas pixel
        // and rounding.
        let reach = if stroke { 5.0 * style.weight as f64 } else { 0.0 };
        let reached = m.map_rect(&Rect { x0: x, y0: y, x1: x + w, y1: y + h }.outset(reach));
        if !reached.outset(self.sx.max(self.sy) + 1.0).intersects(&self.clip) {
            return;
        }
        // an opaque fill under an opaque stroke is composited as one (canvas/pair.rs)
        let pair = w > 0.0 && h > 0.0 && self.probe.is_none() && Paint::new(style.fill).is_some_and(|p| p.opaque()) && {
            let colour = hairline_coverage(style).map_or(style.stroke, |cv| hairline_colour(style.stroke, cv));
            style.weight > 0.0 && Paint::new(colour).is_some_and(|p| p.opaque())
        };
        let dev = |x0: f64, y0: f64, x1: f64, y1: f64| {
            let (a0, a1) = (m.a * x0 + m.e, m.a * x1 + m.e);
            let (b0, b1) = (m.d * y0 + m.f, m.d * y1 + m.f);
            Rect { x0: a0.min(a1), y0: b0.min(b1), x1: a0.max(a1), y1: b0.max(b1) }
        };
        // a mitred outline of a box is a box: the pair's three areas are boxes
        if square && m.is_axis_aligned() && pair && style.join == Join::Miter && hairline_coverage(style).is_none() {
            if let (Some(fp), Some(sp)) = (Paint::new(style.fill), Paint::new(style.stroke)) {
                let hw = 0.5 * style.weight as f64;
                let outer = dev(x - hw, y - hw, x + w + hw, y + h + hw);
                let inner = (w > 2.0 * hw && h > 2.0 * hw).then(|| dev(x + hw, y + hw, x + w - hw, y + h - hw));
                self.fill_and_stroke_axis_rect(&fp, &sp, dev(x, y, x + w, y + h), outer, inner);
                return;
            }
        }
        if square && m.is_axis_aligned() && !pair {
            if let Some(p) = Paint::new(style.fill) {
                if w > 0.0 && h > 0.0 {
                    self.fill_axis_rect(dev(x, y, x + w, y + h), &p);
                }
            }
            if let (Some(p), true) = (Paint::new(style.stroke), style.weight > 0.0) {
                if style.join == Join::Miter && w > 0.0 && h > 0.0 && hairline_coverage(style).is_none() {
                    let hw = 0.5 * style.weight as f64;
                    let outer = dev(x - hw, y - hw, x + w + hw, y + h + hw);
                    let inner = if w > 2.0 * hw && h > 2.0 * hw {
                        Some(dev(x + hw, y + hw, x + w - hw, y + h - hw))
                    } else {
                        None
                    };
                    self.stroke_axis_rect(outer, inner, &p);
                    return;
                }
                // a hairline rect has no caps: the browser draws it as four lines
                let cap = if hairline_coverage(style).is_some() { Cap::Butt } else { style.cap };
                let s = Style { fill: Rgba::default(), cap, ..*style };
                let bounds = Rect { x0: x, y0: y, x1: x + w, y1: y + h };
                self.shape(&s, false, true, bounds, false, &|p, fl, _| {
                    flatten::rounded_rect(p, fl, x, y, w, h, [0.0; 4]);
                });
            }
            return;
        }
        let bounds = Rect { x0: x, y0: y, x1: x + w, y1: y + h };
        // a hairline rect() has no caps (the browser draws it as four lines)
        let cap = if square && hairline_coverage(style).is_some() { Cap::Butt } else { style.cap };
        self.shape(&Style { cap, ..*style }, w > 0.0 && h > 0.0, true, bounds, false, &|p, fl, _| {
            flatten::rounded_rect(p, fl, x, y, w, h, r);
        });
    }

    /// A horizontal or vertical `line()` under an axis-aligned transform whose stroke
    /// shows as a rectangle: butt or projecting caps, or round caps that lie wholly
    /// outside the clip (grid lines and gradient rows drawn across the whole canvas).
    /// Drawn as the axis-aligned rectangle it is, with exact coverage and blended as
    /// strokes are (`axis_line_rect`), instead of as a stroked outline. Returns false, having drawn nothing, where that does not apply.
    fn axis_line(&mut self, style: &Style, x1: f64, y1: f64, x2: f64, y2: f64) -> bool {
        let horizontal = y1 == y2 && x1 != x2;
        if !(horizontal || (x1 == x2 && y1 != y2)) || !(style.weight.is_finite() && style.weight > 0.0) {
            return false;
        }
        let Some(m) = self.device_matrix(style) else { return false };
        if !m.is_axis_aligned() {
            return false;
        }
        if let Some(coverage) = hairline_coverage(style) {
            let Some(paint) = Paint::new(hairline_colour(style.stroke, coverage)) else { return true };
            // the hairline's band in canvas pixels: half a pixel either side, the ends
            // moved out by the cap's area (see canvas/hairline.rs)
            let (a, b) = (m.apply(Point::new(x1, y1)), m.apply(Point::new(x2, y2)));
            let ext = match style.cap {
                Cap::Butt => 0.0,
                Cap::Square => 0.5,
                Cap::Round => std::f64::consts::PI / 8.0,
            };
            let (px, py, ex, ey) = (0.5 * self.sx, 0.5 * self.sy, ext * self.sx, ext * self.sy);
            let r = if horizontal {
                Rect { x0: a.x.min(b.x) - ex, x1: a.x.max(b.x) + ex, y0: a.y - py, y1: a.y + py }
            } else {
                Rect { x0: a.x - px, x1: a.x + px, y0: a.y.min(b.y) - ey, y1: a.y.max(b.y) + ey }
            };
            self.axis_line_rect(r, &paint, coverage >= 1.0);
            return true;
        }
        let Some(paint) = Paint::new(style.stroke) else { return false };
        let hw = 0.5 * style.weight as f64;
        let (lo, hi) = if horizontal { (x1.min(x2), x1.max(x2)) } else { (y1.min(y2), y1.max(y2)) };
        let at = if horizontal { y1 } else { x1 };
        // user-space rectangle from `a` to `b` along the line, `hw` either side of it
        let dev = |a: f64, b: f64| {
            let (ux0, uy0, ux1, uy1) = if horizontal { (a, at - hw, b, at + hw) } else { (at - hw, a, at + hw, b) };
            let (p0, p1) = (m.apply(Point::new(ux0, uy0)), m.apply(Point::new(ux1, uy1)));
            Rect { x0: p0.x.min(p1.x), y0: p0.y.min(p1.y), x1: p0.x.max(p1.x), y1: p0.y.max(p1.y) }
        };
        let clip = self.clip;
        let outside = |r: Rect| r.x1 <= clip.x0 || r.x0 >= clip.x1 || r.y1 <= clip.y0 || r.y0 >= clip.y1;
        let (lo, hi) = match style.cap {
            Cap::Butt => (lo, hi),
            Cap::Square => (lo - hw, hi + hw),
            Cap::Round if outside(dev(lo - hw, lo)) && outside(dev(hi, hi + hw)) => (lo, hi),
            Cap::Round => return false,
        };
        self.axis_line_rect(dev(lo, hi), &paint, true);
        true
    }

    /// The rectangle `r` an axis line's stroke shows as. A thin horizontal band joins
    /// the run of bands it continues (`canvas/bands.rs`; a line command draws nothing
    /// else, which a run needs). An opaque stroke that covers canvas pixels as a box
    /// does (`as_box`: an outline filled, or a hairline of full coverage) and whose
    /// edges lie on the canvas's pixel edges is the opaque rectangle it is, drawn
    /// through the partial-coverage records, so that lines that abut (a sky of one
    /// line per one or two canvas rows) leave no seam where the browser's canvas
    /// shows none. Otherwise each pixel's coverage is blended as the canvas spreads an
    /// edge inside its pixel (which the records' exact areas do not).
    fn axis_line_rect(&mut self, r: Rect, paint: &Paint, as_box: bool) {
        self.each_window(r, |c| {
            let a = c.axis_clip();
            // (edges beyond the clip draw nothing: the clip's edge is the box's there)
            let k = c.clip;
            let on_cells = !c.records.grid().splits_cells([r.x0.max(k.x0), r.x1.min(k.x1), r.y0.max(k.y0), r.y1.min(k.y1)]);
            let boxed = as_box && paint.opaque() && c.probe.is_none() && on_cells;
            // over the last frame's pixels records start afresh: runs first there
            if !(boxed && !c.bands.over_last) && c.blend_band(r, a, paint) {
                return;
            }
            c.flush_bands();
            if boxed {
                c.fill_axis_rect_in(r, paint);
            } else {
                c.blend_axis_rect_in(r, a, paint);
            }
        });
    }

    fn arc(&mut self, style: &Style, c: [f32; 6], mode: ArcMode) {
        if !finite(&c) {
            return;
        }
        let [cx, cy, rx, ry, start, stop] = c.map(|v| v as f64);
        let (rx, ry) = (rx.abs(), ry.abs());
        if stop < start {
            return;
        }
        let stop = stop.min(start + 2.0 * std::f64::consts::PI);
        let bounds = Rect { x0: cx - rx, y0: cy - ry, x1: cx + rx, y1: cy + ry };
        self.shape(style, true, true, bounds, true, &|p, fl, for_stroke| {
            let drawn = flatten::arc_curve(p, fl, cx, cy, rx, ry, start, stop, false);
            if !drawn {
                return;
            }
            let pie = if for_stroke { mode == ArcMode::Pie } else { matches!(mode, ArcMode::Pie | ArcMode::Default) };
            if pie {
                p.line_to(Point::new(cx, cy));
            }
            if !for_stroke || matches!(mode, ArcMode::Pie | ArcMode::Chord) {
                p.close();
            }
        });
    }

    fn point(&mut self, style: &Style, p: [f32; 2]) {
        if !finite(&p) || !style.weight.is_finite() || style.weight <= 0.0 || style.stroke.a == 0 {
            return;
        }
        let [x, y] = p.map(|v| v as f64);
        let r = 0.5 * style.weight as f64;
        // A filled dot in the stroke colour.
        let s = Style { fill: style.stroke, stroke: Rgba::default(), ..*style };
        let bounds = Rect { x0: x - r, y0: y - r, x1: x + r, y1: y + r };
        if style.cap == Cap::Round {
            // (a star, a particle: the filled-ellipse shortcut, as a filled circle takes)
            if self.fill_ellipse(&s, x, y, r, r) {
                return;
            }
            self.shape(&s, true, false, bounds, false, &|p, fl, _| flatten::ellipse(p, fl, x, y, r, r));
        } else {
            self.rect(&s, [(x - r) as f32, (y - r) as f32, (2.0 * r) as f32, (2.0 * r) as f32], [0.0; 4]);
        }
    }

    fn path(&mut self, style: &Style, verbs: Verbs<'_>) {
        let mut pts = [Point::default(); 3];
        let mut bounds: Option<Rect> = None;
        let mut curved = false;
        for v in verbs.iter() {
            let n = match v {
                Verb::Move(x, y) | Verb::Line(x, y) => {
                    pts[0] = Point::new(x as f64, y as f64);
                    1
                }
                Verb::Quad(a, b, c, d) => {
                    curved = true;
                    pts[0] = Point::new(a as f64, b as f64);
                    pts[1] = Point::new(c as f64, d as f64);
                    2
                }
                Verb::Cubic(a, b, c, d, e, f) => {
                    curved = true;
                    pts[0] = Point::new(a as f64, b as f64);
                    pts[1] = Point::new(c as f64, d as f64);
                    pts[2] = Point::new(e as f64, f as f64);
                    3
                }
                Verb::Close => 0,
            };
            for p in &pts[..n] {
                if !p.is_finite() {
                    return; // a non-finite coordinate anywhere: the path draws nothing
                }
                let r = bounds.get_or_insert(Rect { x0: p.x, y0: p.y, x1: p.x, y1: p.y });
                r.x0 = r.x0.min(p.x);
                r.x1 = r.x1.max(p.x);
                r.y0 = r.y0.min(p.y);
                r.y1 = r.y1.max(p.y);
            }
        }
        let bounds = match bounds {
            Some(b) => b,
            None => return,
        };
        if !curved && !Self::stroke_on(style) {
            self.fill_polygons(style, verbs, bounds);
            return;
        }
        self.shape(style, true, true, bounds, false, &|p, fl, _| {
            for v in verbs.iter() {
                let pt = |x: f32, y: f32| Point::new(x as f64, y as f64);
                match v {
                    Verb::Move(x, y) => p.move_to(pt(x, y)),
                    Verb::Line(x, y) => p.line_to(pt(x, y)),
                    Verb::Quad(a, b, c, d) => p.quad_to(fl, pt(a, b), pt(c, d)),
                    Verb::Cubic(a, b, c, d, e, f) => p.cubic_to(fl, pt(a, b), pt(c, d), pt(e, f)),
                    Verb::Close => p.close(),
                }
            }
        });
    }

    /// The general pipeline: build user-space polylines, fill them, stroke them.
    /// `bounds` is a user-space box containing the geometry (control points included);
    /// `differs` says the stroke path is not the fill path (arcs).
    #[allow(clippy::too_many_arguments)]
    fn shape(
        &mut self,
        style: &Style,
        can_fill: bool,
        can_stroke: bool,
        bounds: Rect,
        differs: bool,
        build: &dyn Fn(&mut Polylines, &Flattener, bool),
    ) {
        let fill = if can_fill { Paint::new(style.fill) } else { None };
        let fill = if self.glyph_masks { fill.map(Paint::with_mask_gamma) } else { fill };
        let mut stroke = if can_stroke { Paint::new(style.stroke) } else { None };
        if stroke.is_some() && !style.weight.is_finite() {
            return; // a NaN weight is a non-finite size: the shape draws nothing
        }
        if fill.is_none() && stroke.is_none() {
            return;
        }
        let m = match self.device_matrix(style) {
            Some(m) => m,
            None => return,
        };
        let scale = m.max_scale();
        let tol = self.tol / scale;
        let pen = match stroke {
            Some(_) => Pen::new(style.weight as f64, style.cap, style.join, scale, self.tol),
            None => None,
        };
        if pen.is_none() {
            stroke = None;
            if fill.is_none() {
                return;
            }
        }
        // Miter joins reach at most 10 half-widths out; square caps sqrt(2).
        let margin = pen.map_or(0.0, |p| 10.0 * p.hw) + tol;
        let clip = self.clip;
        if !m.map_rect(&bounds.outset(margin)).intersects(&clip) {
            return;
        }
        let inv = match m.invert() {
            Some(i) => i,
            None => return,
        };
        let user_clip = inv.map_rect(&clip);
        let map = |p: Point| m.apply(p);
        let stroke_fl = Flattener::within(tol, user_clip.outset(margin));
        let canvas = canvas_matrix(style);
        // the fill's curves as the browser's scan converter splits them (a thick
        // stroke's centreline keeps the tolerance: it shares the fill's path below)
        let fill_fl = Flattener { fill_curves: Some(canvas), ..Flattener::within(tol, user_clip.outset(tol)) };
        let hairline = stroke.is_some().then(|| hairline_coverage(style)).flatten();
        let device_box = m.map_rect(&bounds);
        let cached = (device_box.x1 - device_box.x0).max(device_box.y1 - device_box.y0) >= MIN_CACHED_SIDE;
        if let (Some(fp), Some(sp), Some(pen)) = (fill, stroke, pen) {
            // a fill under an opaque stroke of the same closed outline (an outline or
            // a hairline): one composite (`canvas/pair.rs`)
            let hair_paint = hairline.and_then(|cv| Paint::new(hairline_colour(style.stroke, cv)));
            if !differs && self.probe.is_none() && hair_paint.as_ref().map_or(sp.opaque(), |p| p.opaque()) {
                self.path.clear();
                build(&mut self.path, if hair_paint.is_some() { &fill_fl } else { &stroke_fl }, false);
                let done = match hair_paint {
                    None => self.fill_and_stroke(&fp, &sp, &pen, &m),
                    Some(hp) => {
                        let mut hair = std::mem::take(&mut self.outline);
                        hair.clear();
                        build(&mut hair, &Flattener { hairline: Some(canvas), ..stroke_fl }, true);
                        let done = self.fill_and_hairline(&fp, &hp, &hair, style.cap, &canvas, &m);
                        self.outline = hair;
                        done
                    }
                };
                if done {
                    return;
                }
            }
        }
        if let Some(paint) = fill {
            self.path.clear();
            let fl = if stroke.is_some() && !differs && hairline.is_none() { &stroke_fl } else { &fill_fl };
            build(&mut self.path, fl, false);
            // One opaque convex outline (a rounded rect, a curved polygon) keeps shared
            // edges seam-free as straight polygons do (fill_polygons). Not below
            // SEAM_MIN_SIDE device pixels on its larger side, nor half that on the
            // other: a curved outline costs a plane per edge, which small shapes
            // (bullets, particles) pay on every draw, while the shapes that share edges
            // are larger on one side at least (tiles; a half disc on a rectangle).
            let seams = paint.opaque() && self.probe.is_none() && self.path.contours.len() == 1 && {
                let (bw, bh) = (device_box.x1 - device_box.x0, device_box.y1 - device_box.y0);
                bw.max(bh) >= SEAM_MIN_SIDE && bw.min(bh) >= 0.5 * SEAM_MIN_SIDE
            };
            let lookup = if cached { self.lookup_path(if seams { 5 } else { 3 }, &m, None) } else { Lookup::Miss };
            if let Lookup::Hit(i) = lookup {
                self.composite_cached(i, &paint);
            } else {
                let path = std::mem::take(&mut self.path);
                self.composite_contours(&path, map, seams, &paint, lookup);
                self.path = path;
            }
        }
        if let (Some(paint), Some(pen)) = (stroke, pen) {
            if let Some(coverage) = hairline {
                let Some(paint) = Paint::new(hairline_colour(style.stroke, coverage)) else { return };
                let mut hair = std::mem::take(&mut self.outline);
                hair.clear();
                build(&mut hair, &Flattener { hairline: Some(canvas), ..stroke_fl }, true);
                self.stroke_hairline(&hair, style.cap, &canvas, &paint);
                self.outline = hair;
                return;
            }
            if fill.is_none() || differs {
                self.path.clear();
                build(&mut self.path, &stroke_fl, true);
            }
            // An opaque stroke of one segment (a line()) is one convex outline (a
            // capsule, a box): it keeps the records of the pixels it covers partly, as
            // a convex fill does, so that segments drawn end to end (a wall of short
            // round-capped lines) cover their union where they overlap, as the
            // browser's canvas does, not each its share of the pixel again.
            let segment = self.path.contours.len() == 1 && {
                let c = self.path.contours[0];
                !c.closed && c.end - c.start == 2 && self.path.pts[c.start] != self.path.pts[c.start + 1]
            };
            let seams = segment && paint.opaque() && self.probe.is_none();
            let lookup = if cached { self.lookup_path(if seams { 9 } else { 4 }, &m, Some(&pen)) } else { Lookup::Miss };
            if let Lookup::Hit(i) = lookup {
                self.composite_cached(i, &paint);
                return;
            }
            self.outline.clear();
            for c in &self.path.contours {
                let pts = &self.path.pts[c.start..c.end];
                stroke_polyline(pts, c.closed, c.has_segment, &pen, &mut self.outline, &mut self.segs);
            }
            let seams = seams && self.outline.contours.len() == 1;
            let outline = std::mem::take(&mut self.outline);
            self.composite_contours(&outline, map, seams, &paint, lookup);
            self.outline = outline;
        }
    }

    /// Rasterizes the closed contours of `path` (user space, mapped by `map`) and
    /// composites them with `paint`: with `seams`, one convex outline goes through the
    /// pixels' records ([`Canvas::finish_seams`]), anything else is blended by its
    /// coverage.
    fn composite_contours(&mut self, path: &Polylines, map: impl Fn(Point) -> Point + Copy, seams: bool, paint: &Paint, lookup: Lookup) {
        self.raster.begin(self.clip);
        self.seam_edges.clear();
        for c in &path.contours {
            let pts = &path.pts[c.start..c.end];
            if seams {
                // the edges add_polygon adds, each kept for the masks
                polygon_edges(pts, map, |a, b| self.add_polygon_edge(a, b));
            } else {
                self.raster.add_polygon(pts, map);
            }
        }
        if seams && self.convex() {
            self.finish_seams(paint, lookup, None);
        } else {
            self.finish_shape_keeping(paint, lookup);
        }
    }

    /// Looks up the coverage of `self.path` (user space) mapped by `m`, filled or
    /// (`pen`) stroked, in the coverage cache (`canvas/cache.rs`); never while probing.
    fn lookup_path(&mut self, tag: u64, m: &Transform, pen: Option<&Pen>) -> Lookup {
        if self.probe.is_some() {
            return Lookup::Miss;
        }
        let first = self.path.contours.first().map_or(&[][..], |c| &self.path.pts[c.start..c.end]);
        let mut pre = summary(tag, m, first);
        pre[5] ^= (self.path.pts.len() as u64) << 32;
        if !self.cache.seen_before(&pre) {
            return Lookup::Miss;
        }
        let cache = &mut self.cache;
        cache.start(tag, self.w, self.h, self.clip, m);
        if let Some(p) = pen {
            cache.pen(p);
        }
        for c in &self.path.contours {
            cache.word((c.closed as u64) << 1 | c.has_segment as u64);
            cache.points(&self.path.pts[c.start..c.end]);
        }
        cache.lookup()
    }

    /// Looks up a shape given by numbers (`nums`, ending with its position and size)
    /// or verb words (`words`), drawn with `m`, in the coverage cache; `extra`: one
    /// more word of what the coverage depends on. Never while probing.
    fn lookup_words(&mut self, tag: u64, m: &Transform, extra: u64, nums: &[f64], words: &[u32]) -> Lookup {
        if self.probe.is_some() {
            return Lookup::Miss;
        }
        let (first, last) = match (nums.len(), words.len()) {
            (0, n) if n >= 3 => (words[1] as u64 | (words[2] as u64) << 32, words[n - 2] as u64 | (words[n - 1] as u64) << 32),
            // the last four numbers: where the shape is and its size
            (n, _) if n >= 4 => (nums[n - 4].to_bits() ^ nums[n - 3].to_bits().rotate_left(32), nums[n - 2].to_bits() ^ nums[n - 1].to_bits().rotate_left(32)),
            _ => (0, 0),
        };
        if !self.cache.seen_before(&summary_of(tag, m, first, last, (nums.len() + words.len()) as u64)) {
            return Lookup::Miss;
        }
        let cache = &mut self.cache;
        cache.start(tag, self.w, self.h, self.clip, m);
        cache.word(extra);
        for &v in nums {
            cache.num(v);
        }
        for pair in words.chunks(2) {
            cache.word(pair[0] as u64 | (pair.get(1).map_or(u64::MAX, |&w| w as u64)) << 32);
        }
        cache.lookup()
    }

    /// [`Canvas::finish_shape`], keeping the shape's coverage in the cache when the
    /// lookup said to store it.
    fn finish_shape_keeping(&mut self, paint: &Paint, lookup: Lookup) {
        let Lookup::Store(i) = lookup else { return self.finish_shape(paint) };
        let (w, h) = (self.w, self.h);
        let e = self.cache.put(i);
        self.raster.finish(w, h, |y, x0, cov| {
            e.runs.push([y as u32, x0 as u32, e.cells.len() as u32, cov.len() as u32]);
            e.cells.extend_from_slice(cov);
        });
        self.blend_cached(i, paint);
        self.cache.bound(i);
    }

    /// Composites the shape kept in cache slot `i` with `paint`: through the records
    /// with its sample planes (a convex opaque outline, see [`Canvas::finish_seams`]),
    /// or blended.
    fn composite_cached(&mut self, i: usize, paint: &Paint) {
        let e = self.cache.entry(i);
        if e.planes.is_empty() {
            return self.blend_cached(i, paint);
        }
        let (w, h) = (self.w, self.h);
        self.records.ensure(w, w * h);
        let code = match e.planes.len().checked_sub(FORM_ENTRIES).filter(|_| e.ellipse) {
            Some(n) => self.records.ellipse(&e.planes[..n], &EllipseForm::from_entries(&e.planes[n..])),
            None => self.records.polygon(&e.planes),
        };
        let col = paint.rgb();
        let (win, pixels, records) = (&self.win, &mut self.pixels, &mut self.records);
        for &[y, x0, at, n] in &e.runs {
            seam_row(win, pixels, records, w, code, col, y as usize, x0 as usize, &e.cells[at as usize..][..n as usize]);
        }
    }

    /// Blends the coverage kept in cache slot `i` with `paint`, where
    /// [`Rasterizer::finish_paint`](crate::coverage::Rasterizer::finish_paint) would.
    fn blend_cached(&mut self, i: usize, paint: &Paint) {
        let w = self.w;
        let (win, pixels, e) = (&self.win, &mut self.pixels, self.cache.entry(i));
        for &[y, x0, at, n] in &e.runs {
            let (y, x0) = (y as usize, x0 as usize);
            if win.rows().is_some_and(|r| !r[y]) {
                continue;
            }
            let cov = &e.cells[at as usize..][..n as usize];
            let ranges = win.row(y);
            for (k, &c) in cov.iter().enumerate() {
                let x = x0 + k;
                if c == 0.0 || !in_ranges(ranges, x) {
                    continue;
                }
                paint.blend_cov(&mut pixels[3 * (y * w + x)..][..3], c);
            }
        }
    }

    /// A filled ellipse without stroke, straight to device space: the polygon of `n`
    /// vertices at equal parameter steps of the device ellipse `d + u cos t + v sin t`
    /// (any affine image of an ellipse is one), scaled about the centre so that its
    /// area equals that of the polygon the browser fills for it
    /// ([`flatten::browser_ellipse_area_factor`]: up to 4% off the ellipse's), with
    /// vertices only as many as the device tolerance needs. Skips the Bezier
    /// flattening, the user-space polyline
    /// and the per-point transform of the general path. Returns false, having drawn
    /// nothing, for ellipses large enough that clipping the curve before flattening
    /// matters (the general path culls curve pieces outside the clip).
    fn fill_ellipse(&mut self, style: &Style, cx: f64, cy: f64, rx: f64, ry: f64) -> bool {
        let Some(paint) = Paint::new(style.fill) else { return true };
        let Some(m) = self.device_matrix(style) else { return true };
        let d = m.apply(Point::new(cx, cy));
        let u = Point::new(m.a * rx, m.b * rx);
        let v = Point::new(m.c * ry, m.d * ry);
        // Largest semi-axis of the device ellipse: the largest singular value of [u v].
        let semi = Transform { a: u.x, b: u.y, c: v.x, d: v.y, e: 0.0, f: 0.0 }.max_scale();
        if !(semi > 0.0) || semi > MAX_DIRECT_ELLIPSE {
            return semi == 0.0; // a zero-size ellipse draws nothing; NaN or huge: general path
        }
        let canvas = canvas_matrix(style);
        let (n, sin_s, cos_s, k) = ellipse_steps(semi, self.tol);
        // an opaque ellipse keeps the edges it shares with its neighbours (touching
        // coins, a row of bubbles, a disc on a tile) seam-free as curved outlines do
        // (see Canvas::shape)
        let seams = paint.opaque() && self.probe.is_none() && n <= MAX_MASK_EDGES && {
            let (bw, bh) = (2.0 * (u.x * u.x + v.x * v.x).sqrt(), 2.0 * (u.y * u.y + v.y * v.y).sqrt());
            bw.max(bh) >= SEAM_MIN_SIDE && bw.min(bh) >= 0.5 * SEAM_MIN_SIDE
        };
        let lookup = if 2.0 * semi < MIN_CACHED_SIDE {
            Lookup::Miss
        } else {
            self.lookup_words(if seams { 8 } else { 6 }, &m, self.tol.to_bits(), &[canvas.a, canvas.b, canvas.c, canvas.d, canvas.e, canvas.f, cx, cy, rx, ry], &[])
        };
        if let Lookup::Hit(i) = lookup {
            self.composite_cached(i, &paint);
            return true;
        }
        let area_scale = self.browser_ellipse_area_factor(style, rx, ry).sqrt();
        let axes = device_axes(u, v).map(|(ax, ay)| (ax * area_scale, ay * area_scale));
        let k = k * area_scale;
        let (u, v) = (Point::new(u.x * k, u.y * k), Point::new(v.x * k, v.y * k));
        // The box of the polygon (of the scaled ellipse, which holds its vertices).
        let (ex, ey) = ((u.x * u.x + v.x * v.x).sqrt(), (u.y * u.y + v.y * v.y).sqrt());
        let clip = self.clip;
        let dot = Rect { x0: d.x - ex, y0: d.y - ey, x1: d.x + ex, y1: d.y + ey };
        if !dot.intersects(&clip) {
            return true;
        }
        if self.probe.is_none() && self.dot_in_one_pixel(&dot, &paint, 0.5 * n as f64 * sin_s * (u.x * v.y - u.y * v.x)) {
            return true;
        }
        if let Some((ax, ay)) = axes {
            self.fill_axis_ellipse(&paint, lookup, seams, d, (ax, ay), (u, v, n, sin_s, cos_s));
            return true;
        }
        self.raster.begin(clip);
        self.seam_edges.clear();
        ellipse_polygon(d, u, v, n, (sin_s, cos_s), |a, b| {
            if seams {
                self.add_polygon_edge(a, b);
            } else {
                self.raster.add_edge(a, b);
            }
        });
        if seams {
            // the ellipse of the polygon's area: n sin(2 pi / n) / (2 pi) of its own
            let s = (n as f64 * sin_s / std::f64::consts::TAU).sqrt();
            let form = EllipseForm::new((d.x, d.y), (u.x, u.y), (v.x, v.y), s);
            self.finish_seams(&paint, lookup, Some(form));
        } else {
            self.finish_shape_keeping(&paint, lookup);
        }
        true
    }

    /// [`Canvas::fill_ellipse`] for a device ellipse of centre `d` with semi-axes
    /// `(ax, ay)` along x and y: its exact area in each pixel. The polygon
    /// (`u`, `v`, `n` steps of sine and cosine `sin_s`, `cos_s`) only places the
    /// canvas's seams with what lies beneath ([`Canvas::finish_seams`]).
    #[inline(never)]
    fn fill_axis_ellipse(&mut self, paint: &Paint, lookup: Lookup, seams: bool, d: Point, (ax, ay): (f64, f64), (u, v, n, sin_s, cos_s): (Point, Point, usize, f64, f64)) {
        self.raster.begin(self.clip);
        self.raster.add_axis_ellipse(d, ax, ay);
        if !seams {
            return self.finish_shape_keeping(paint, lookup);
        }
        self.seam_edges.clear();
        let edges = &mut self.seam_edges;
        ellipse_polygon(d, u, v, n, (sin_s, cos_s), |a, b| edges.push((a, b)));
        let form = EllipseForm::new((d.x, d.y), (ax, 0.0), (0.0, ay), 1.0);
        self.finish_seams(paint, lookup, Some(form));
    }

    /// [`flatten::browser_ellipse_area_factor`] of an ellipse of radii `rx`, `ry`
    /// under the style's canvas transform, kept for the next ellipse of the same.
    fn browser_ellipse_area_factor(&mut self, style: &Style, rx: f64, ry: f64) -> f64 {
        let canvas = canvas_matrix(style);
        let key = [canvas.a, canvas.b, canvas.c, canvas.d, rx, ry];
        let hash = key.iter().fold(0u64, |h, v| (h ^ v.to_bits()).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let slot = &mut self.ellipse_factors[(hash >> 58) as usize % ELLIPSE_FACTOR_SLOTS];
        if slot.0 != key {
            *slot = (key, flatten::browser_ellipse_area_factor(&canvas, rx, ry));
        }
        slot.1
    }

    /// A polygon of signed area `area` whose box `dot` lies inside one device pixel and
    /// inside the clip (a star, a particle, a bullet far away): its coverage of that
    /// pixel is its area, blended as the rasterizer would blend it, without
    /// rasterizing. Returns false, having drawn nothing, for any other box.
    fn dot_in_one_pixel(&mut self, dot: &Rect, paint: &Paint, area: f64) -> bool {
        let (x, y) = (dot.x0.floor(), dot.y0.floor());
        let c = &self.clip;
        if !(dot.x1 < x + 1.0 && dot.y1 < y + 1.0 && dot.x0 >= c.x0 && dot.x1 <= c.x1 && dot.y0 >= c.y0 && dot.y1 <= c.y1) {
            return false;
        }
        if !(x >= 0.0 && y >= 0.0 && x < self.w as f64 && y < self.h as f64) {
            return false;
        }
        let (x, y) = (x as usize, y as usize);
        if self.win.rows().is_some_and(|r| !r[y]) || self.win.row(y).is_some_and(|rs| !rs.iter().any(|&(r0, r1)| r0 as usize <= x && x < r1 as usize)) {
            return true; // outside the damaged rectangles being drawn
        }
        let cov = (area as f32).abs();
        if cov >= 1e-6 {
            paint.blend_cov(&mut self.pixels[3 * (y * self.w + x)..][..3], cov.min(1.0));
        }
        true
    }

    /// A filled path of straight segments without stroke (triangle, quad, vertex
    /// polygons): each point is mapped to device space once and each edge goes straight
    /// to the rasterizer, in the order the general path would add them (contours as
    /// [`Polylines`] forms them, each closed by the fill), so the pixels are the same to
    /// the bit without building the polyline.
    fn fill_polygons(&mut self, style: &Style, verbs: Verbs<'_>, bounds: Rect) {
        let Some(paint) = Paint::new(style.fill) else { return };
        let Some(m) = self.device_matrix(style) else { return };
        let clip = self.clip;
        if !m.map_rect(&bounds.outset(self.tol / m.max_scale())).intersects(&clip) {
            return;
        }
        let lookup = self.lookup_words(7, &m, paint.opaque() as u64, &[], verbs.words());
        if let Lookup::Hit(i) = lookup {
            return self.composite_cached(i, &paint);
        }
        self.raster.begin(clip);
        self.seam_edges.clear();
        self.seam_contours = 0;
        // (first point, last point) of the open contour; where a segment after a
        // close starts (canvas 2D: the closed contour's start).
        let mut open: Option<(Point, Point)> = None;
        let mut pending: Option<Point> = None;
        for v in verbs.iter() {
            match v {
                Verb::Move(x, y) => {
                    if let Some((first, last)) = open.take() {
                        self.add_polygon_edge(last, first);
                    }
                    pending = None;
                    let p = m.apply(Point::new(x as f64, y as f64));
                    open = Some((p, p));
                    self.seam_contours += 1;
                }
                Verb::Line(x, y) => {
                    let p = m.apply(Point::new(x as f64, y as f64));
                    let (first, last) = match open {
                        Some(c) => c,
                        None => {
                            self.seam_contours += 1;
                            let start = pending.take().unwrap_or(p);
                            (start, start)
                        }
                    };
                    self.add_polygon_edge(last, p);
                    open = Some((first, p));
                }
                Verb::Close => {
                    if let Some((first, last)) = open.take() {
                        self.add_polygon_edge(last, first);
                        pending = Some(first);
                    }
                }
                Verb::Quad(..) | Verb::Cubic(..) => {}
            }
        }
        if let Some((first, last)) = open {
            self.add_polygon_edge(last, first);
        }
        if paint.opaque() && self.probe.is_none() && self.seam_contours == 1 && self.convex() {
            self.finish_seams(&paint, lookup, None);
        } else {
            self.finish_shape_keeping(&paint, lookup);
        }
    }

    #[inline]
    fn add_polygon_edge(&mut self, a: Point, b: Point) {
        self.raster.add_edge(a, b);
        if self.seam_edges.len() <= MAX_MASK_EDGES {
            self.seam_edges.push((a, b));
        }
    }

    /// Whether `seam_edges` (at most [`MAX_MASK_EDGES`], one closed contour) turn
    /// one way only.
    fn convex(&self) -> bool {
        edges_convex(&self.seam_edges)
    }

    /// [`Canvas::finish_shape`] for an opaque convex polygon (`edges`, one closed
    /// contour), without conflation: every pixel it covers partly composites through
    /// its [`MaskRec`] with the polygon's samples there (see [`MaskRec`]). The pixels
    /// no earlier polygon or rectangle recorded are those of [`Canvas::finish_shape`]
    /// to the bit.
    /// With `lookup` [`Lookup::Store`], the coverage and the planes are kept in the
    /// cache.
    /// `form`: the ellipse the polygon is drawn for, whose samples stand for its own.
    fn finish_seams(&mut self, paint: &Paint, lookup: Lookup, form: Option<EllipseForm>) {
        let (w, h) = (self.w, self.h);
        let (planes, n) = edge_planes(&self.seam_edges);
        if let (Lookup::Store(i), true) = (lookup, n > 0) {
            let e = self.cache.put(i);
            e.planes.extend_from_slice(&planes[..n]);
            if let Some(f) = form {
                e.planes.extend_from_slice(&f.entries());
                e.ellipse = true;
            }
            self.raster.finish(w, h, |y, x0, cov| {
                e.runs.push([y as u32, x0 as u32, e.cells.len() as u32, cov.len() as u32]);
                e.cells.extend_from_slice(cov);
            });
            self.composite_cached(i, paint);
            self.cache.bound(i);
            return;
        }
        self.records.ensure(w, w * h);
        let code = match form {
            Some(f) => self.records.ellipse(&planes[..n], &f),
            None => self.records.polygon(&planes[..n]),
        };
        self.finish_seams_code(code, paint);
    }

    /// [`Canvas::finish_seams`] once the shape's samples are pending under `code`.
    fn finish_seams_code(&mut self, code: u32, paint: &Paint) {
        let (w, h) = (self.w, self.h);
        let (win, pixels, records) = (&self.win, &mut self.pixels, &mut self.records);
        let col = paint.rgb();
        self.raster.finish(w, h, |y, x0, cov| seam_row(win, pixels, records, w, code, col, y, x0, cov));
    }

    /// Composites the shape accumulated in `self.raster` with `paint` (or sums its
    /// coverage into the probe).
    fn finish_shape(&mut self, paint: &Paint) {
        let (w, h) = (self.w, self.h);
        match &mut self.probe {
            None => self.raster.finish_paint(w, h, &self.win, &mut self.pixels, paint),
            probe => {
                let pixels = &mut self.pixels;
                self.raster.finish(w, h, |y, x0, cov| emit(pixels, probe, w, paint, y, x0, cov));
            }
        }
    }

    /// The canvas's pixel grid along x and along y, `(origin, pitch)` each, where
    /// edges spread over canvas pixels (see `Rasterizer::set_grid`).
    fn grid_axes(&self) -> (Option<(f64, f64)>, Option<(f64, f64)>) {
        match self.raster.grid() {
            Some([gx, ox, gy, oy]) => (Some((ox, gx)), Some((oy, gy))),
            None => (None, None),
        }
    }

    /// Axis-aligned rectangle in device space, analytic coverage per row and column.
    fn fill_axis_rect(&mut self, r: Rect, paint: &Paint) {
        self.each_window(r, |c| c.fill_axis_rect_in(r, paint));
    }

    /// [`Canvas::fill_axis_rect`] inside `self.window`.
    fn fill_axis_rect_in(&mut self, r: Rect, paint: &Paint) {
        let c = self.axis_clip();
        let (x0, x1) = (r.x0.max(c.x0), r.x1.min(c.x1));
        let (y0, y1) = (r.y0.max(c.y0), r.y1.min(c.y1));
        if self.probe.is_none() && paint.opaque() {
            let Some(sx) = Span::new(x0, x1, self.w) else { return };
            let Some(sy) = Span::new(y0, y1, self.h) else { return };
            let rb = [r.x0.max(self.clip.x0), r.x1.min(self.clip.x1), r.y0.max(self.clip.y0), r.y1.min(self.clip.y1)];
            // (kept for the records whether or not an edge splits a canvas pixel: a
            // later rect that overlaps this one inside a pixel hides the exact area
            // of their boxes, where the sample masks alone are off by up to an
            // eighth of the pixel per axis and let what lay beneath show)
            let rb = Some(rb.map(|v| v as f32));
            self.fill_opaque_axis_rect(sx, sy, paint, rb);
            return;
        }
        self.blend_axis_rect_in(r, c, paint);
    }

    /// The device rectangle `r` blended inside the clip `c` with its coverage as the
    /// canvas draws it (or summed into the probe).
    fn blend_axis_rect_in(&mut self, r: Rect, c: Rect, paint: &Paint) {
        let (gx, gy) = self.grid_axes();
        let Some((i0, i1)) = grid_axis_coverage(r.x0, r.x1, c.x0, c.x1, gx, self.w, &mut self.cx) else { return };
        let Some((j0, j1)) = grid_axis_coverage(r.y0, r.y1, c.y0, c.y1, gy, self.h, &mut self.cy) else { return };
        let w = self.w;
        // Columns with full horizontal coverage form one run [f0, f1) (partial ones
        // lie at either end).
        let n = i1 - i0;
        let f0 = self.cx.iter().position(|&v| v >= FULL).unwrap_or(n);
        let f1 = self.cx.iter().rposition(|&v| v >= FULL).map_or(f0, |k| k + 1);
        // The columns of exactly 1: their coverage in a partial row is the row's own,
        // bit for bit.
        let e0 = self.cx.iter().position(|&v| v == 1.0).unwrap_or(n);
        let e1 = self.cx.iter().rposition(|&v| v == 1.0).map_or(e0, |k| k + 1);
        // a translucent fill's partly covered pixels go through the seam records (see
        // Records::composite_translucent): the box's samples stand for its own
        // (not for thin ones, stripes and particles, whose every pixel would: a tile's
        // edges are what abut)
        let records = paint.alpha() > 0.0 && !paint.opaque() && paint.plain_coverage() && r.x1 - r.x0 >= SEAM_MIN_SIDE && r.y1 - r.y0 >= SEAM_MIN_SIDE;
        if records {
            self.records.ensure(w, w * self.h);
        }
        let (bx0, bx1, by0, by1) = (r.x0.max(c.x0), r.x1.min(c.x1), r.y0.max(c.y0), r.y1.min(c.y1));
        for j in j0..j1 {
            let cyv = self.cy[j - j0];
            if self.probe.is_none() {
                let row = 3 * (j * w + i0);
                if records && cyv < FULL {
                    for k in 0..n {
                        self.translucent_edge_pixel(j * w + i0 + k, [bx0, bx1, by0, by1], self.cx[k] * cyv, paint);
                    }
                    continue;
                }
                let (g0, g1, cv) = if cyv >= FULL { (f0, f1, 1.0) } else { (e0, e1, cyv) };
                if g1 > g0 {
                    paint.blend_uniform(&mut self.pixels[row + 3 * g0..row + 3 * g1], cv);
                }
                for k in (0..g0).chain(g1.max(g0)..n) {
                    let c = if cyv >= FULL { self.cx[k] } else { self.cx[k] * cyv };
                    if records {
                        self.translucent_edge_pixel(j * w + i0 + k, [bx0, bx1, by0, by1], c, paint);
                    } else {
                        paint.blend_uniform(&mut self.pixels[row + 3 * k..row + 3 * k + 3], c);
                    }
                }
                continue;
            }
            self.row.clear();
            self.row.extend(self.cx.iter().map(|&v| v * cyv));
            emit(&mut self.pixels, &mut self.probe, w, paint, j, i0, &self.row);
        }
    }

    /// Pixel `idx` of a translucent rectangle of device box `b` (clipped), which
    /// covers `cov` of it, through its record ([`Records::composite_translucent`]).
    fn translucent_edge_pixel(&mut self, idx: usize, b: [f64; 4], cov: f32, paint: &Paint) {
        if cov <= 0.0 {
            return;
        }
        let (x, y) = ((idx % self.w) as f64, (idx / self.w) as f64);
        let mask = crate::seams::box_mask(crate::seams::pixel_local(b, x, y));
        let px = &mut self.pixels[3 * idx..3 * idx + 3];
        self.records.composite_translucent(idx, px, mask, cov, paint);
    }

    /// An opaque axis rectangle: rows fully covered vertically fill their run of fully
    /// covered columns uniformly; every other pixel is an edge pixel, composited
    /// through its partial-coverage record.
    /// `rb`: the rectangle's device box (beyond the window), for the records.
    fn fill_opaque_axis_rect(&mut self, sx: Span, sy: Span, paint: &Paint, rb: Option<[f32; 4]>) {
        self.records.ensure(self.w, self.w * self.h);
        let w = self.w;
        let (i0, i1) = (sx.i0, sx.i1);
        let f0 = if sx.cov_first >= FULL { i0 } else { i0 + 1 };
        let f1 = if i1 > f0 && sx.cov_last < FULL { i1 - 1 } else { i1 };
        let rgb = paint.rgb();
        // the samples of the first and last columns (those between hold all of theirs)
        let (xs_first, xs_last) = (sample_span(sx.first[0], sx.first[1]), sample_span(sx.last[0], sx.last[1]));
        for j in sy.i0..sy.i1 {
            let [ly0, ly1] = sy.at(j);
            let ys = sample_span(ly0, ly1);
            let row = j * w;
            if sy.cov(j) >= FULL {
                if f1 > f0 {
                    fill_rgb(&mut self.pixels[3 * (row + f0)..3 * (row + f1)], rgb);
                }
                if f0 > i0 {
                    let [lx0, lx1] = sx.first;
                    self.edge_pixel(row + i0, [lx0, lx1, ly0, ly1], spans_mask(xs_first, ys), paint, rb);
                }
            } else {
                // the columns between the first and the last are covered whole: one
                // mask and area for all of them (1 * h is h exactly)
                let [lx0, lx1] = sx.at(i0);
                self.edge_pixel(row + i0, [lx0, lx1, ly0, ly1], spans_mask(xs_first, ys), paint, rb);
                if i1 > i0 + 2 {
                    let (mid_mask, mid_area) = (spans_mask(FULL_SAMPLES, ys), (ly1 - ly0).max(0.0));
                    let px = &mut self.pixels[3 * (row + i0 + 1)..3 * (row + i1 - 1)];
                    self.records.composite_row((i0 + 1, j), px, mid_mask, mid_area, rgb, rb);
                }
                if i1 > i0 + 1 {
                    let [lx0, lx1] = sx.at(i1 - 1);
                    self.edge_pixel(row + i1 - 1, [lx0, lx1, ly0, ly1], spans_mask(xs_last, ys), paint, rb);
                }
            }
        }
        // the right edge after the left one, so that the records' per-axis sums along
        // each edge repeat from one pixel to the next
        if f1 < i1 {
            let [lx0, lx1] = sx.last;
            for j in sy.i0..sy.i1 {
                if sy.cov(j) >= FULL {
                    let [ly0, ly1] = sy.at(j);
                    self.edge_pixel(j * w + i1 - 1, [lx0, lx1, ly0, ly1], spans_mask(xs_last, sample_span(ly0, ly1)), paint, rb);
                }
            }
        }
    }

    /// An opaque rectangle covering the box `[x0, x1] x [y0, y1]` (pixel-local) of pixel
    /// `idx`, whose samples there are `mask`: composites through the pixel's record
    /// when it still holds what the record says, else blends by coverage (and records
    /// it).
    #[inline(always)]
    fn edge_pixel(&mut self, idx: usize, b: [f32; 4], mask: u64, paint: &Paint, rb: Option<[f32; 4]>) {
        let [x0, x1, y0, y1] = b;
        let a = (x1 - x0).max(0.0) * (y1 - y0).max(0.0);
        if a <= 0.0 {
            return;
        }
        let Some(px) = self.pixels.get_mut(3 * idx..3 * idx + 3) else {
            return;
        };
        self.records.composite(idx, px, mask, 1.0, a, paint.rgb(), rb);
    }

    /// A miter-joined axis-aligned rectangle stroke: the outer rectangle minus the inner.
    fn stroke_axis_rect(&mut self, outer: Rect, inner: Option<Rect>, paint: &Paint) {
        self.each_window(outer, |c| c.stroke_axis_rect_in(outer, inner, paint));
    }

    /// [`Canvas::stroke_axis_rect`] inside `self.window`.
    fn stroke_axis_rect_in(&mut self, outer: Rect, inner: Option<Rect>, paint: &Paint) {
        let c = self.axis_clip();
        let (gx, gy) = self.grid_axes();
        let Some((i0, i1)) = grid_axis_coverage(outer.x0, outer.x1, c.x0, c.x1, gx, self.w, &mut self.cx) else { return };
        let Some((j0, j1)) = grid_axis_coverage(outer.y0, outer.y1, c.y0, c.y1, gy, self.h, &mut self.cy) else { return };
        let mut inner_range = None;
        if let Some(r) = inner {
            let xi = grid_axis_coverage(r.x0, r.x1, c.x0, c.x1, gx, self.w, &mut self.cx2);
            let yi = grid_axis_coverage(r.y0, r.y1, c.y0, c.y1, gy, self.h, &mut self.cy2);
            if let (Some(a), Some(b)) = (xi, yi) {
                inner_range = Some((a, b));
            }
        }
        let w = self.w;
        for j in j0..j1 {
            let cyv = self.cy[j - j0];
            self.row.clear();
            self.row.extend(self.cx.iter().map(|&v| v * cyv));
            if let Some(((ii0, ii1), (jj0, jj1))) = inner_range {
                if j >= jj0 && j < jj1 {
                    let cyi = self.cy2[j - jj0];
                    for i in ii0.max(i0)..ii1.min(i1) {
                        let v = &mut self.row[i - i0];
                        *v = (*v - self.cx2[i - ii0] * cyi).max(0.0);
                    }
                }
            }
            emit(&mut self.pixels, &mut self.probe, w, paint, j, i0, &self.row);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ellipse_steps;

    #[test]
    fn ellipse_steps_is_the_smallest_polygon_within_tolerance() {
        use std::f64::consts::{FRAC_PI_4, TAU};
        for tol in [0.02, 0.1, 0.5] {
            for i in 1..4000 {
                let semi = i as f64 * 0.37;
                let (n, sin_s, cos_s, k) = ellipse_steps(semi, tol);
                let x = (tol / semi).min(1.0);
                let exact = 4 * (FRAC_PI_4 / (1.0 - x).acos()).ceil().max(1.0) as usize;
                assert_eq!(n, exact, "semi {semi} tol {tol}");
                assert!((sin_s - (TAU / n as f64).sin()).abs() < 1e-15 && (cos_s - (TAU / n as f64).cos()).abs() < 1e-15);
                // Area of the scaled n-gon equals the circle's.
                let area = 0.5 * n as f64 * (k * semi).powi(2) * sin_s;
                assert!((area / (std::f64::consts::PI * semi * semi) - 1.0).abs() < 1e-12);
            }
        }
    }
}
