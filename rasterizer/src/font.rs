//! Fonts: the face tables the text of a frame is laid out and drawn with.
//!
//! A face table is compiled from a TrueType file by `jsgym/fonts.py` (fontTools and
//! HarfBuzz do the font parsing; its docstring gives the layout): glyph outlines in
//! font units, advances, the character map, and HarfBuzz's kerning pairs and
//! ligatures for the characters games use. [`Face::parse`] checks a table once and
//! then serves it without copying; [`FontSet`] holds every face and the family names
//! that reach them, and is installed once per process ([`install`]) because the set
//! of fonts is a property of the installation, shared by every env and thread.
//!
//! Invariants: a [`Face`] never reads outside its table (every count and offset is
//! checked by `parse`); glyph ids from [`Face::glyph`] and [`Face::shape`] are below
//! `num_glyphs`; outlines are closed contours of on- and off-curve points as TrueType
//! stores them (quadratic B-splines).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use crate::flatten::{Flattener, Polylines};
use crate::geometry::{Point, Rect};

const MAGIC: &[u8; 4] = b"JGF1";
const HEADER: usize = 44;

fn u16_at(d: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([d[i], d[i + 1]])
}
fn i16_at(d: &[u8], i: usize) -> i16 {
    i16::from_le_bytes([d[i], d[i + 1]])
}
fn u32_at(d: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([d[i], d[i + 1], d[i + 2], d[i + 3]])
}

/// Vertical metrics of a face, in font units (as the font's tables give them).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Metrics {
    /// Units per em.
    pub units_per_em: u16,
    /// hhea ascender (positive up).
    pub ascent: i16,
    /// hhea descender (negative).
    pub descent: i16,
    /// hhea line gap.
    pub line_gap: i16,
    /// OS/2 typographic ascender.
    pub typo_ascent: i16,
    /// OS/2 typographic descender (negative).
    pub typo_descent: i16,
    /// OS/2 typographic line gap.
    pub typo_line_gap: i16,
    /// OS/2 Windows ascent.
    pub win_ascent: u16,
    /// OS/2 Windows descent (positive).
    pub win_descent: u16,
    /// Bit 0: the font asks for its typographic metrics (OS/2 fsSelection bit 7).
    pub flags: u16,
}

/// One face table.
#[derive(Debug)]
pub struct Face {
    data: Vec<u8>,
    metrics: Metrics,
    num_glyphs: usize,
    cmap: (usize, usize),
    advances: usize,
    offsets: usize,
    outlines: (usize, usize),
    kern: (usize, usize),
    ligs: (usize, usize),
    /// The glyph of each Latin-1 character plus one (0: none), read from `cmap` once:
    /// shaping looks every character up several times, and HUD text is mostly these.
    latin1: [u16; 256],
}

/// One glyph of a shaped line: its id and where the pen moves after it (its advance
/// plus the kerning with the next glyph), in font units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shaped {
    /// Glyph id.
    pub glyph: u16,
    /// Pen advance in font units (of the face the text was shaped with).
    pub advance: i32,
    /// The face the glyph is from ([`FontSet::shape`]; `u32::MAX` from [`Face::shape`]).
    pub face: u32,
    /// The first and last character the glyph stands for.
    first: u32,
    last: u32,
}

impl Face {
    /// Checks a face table; `None` when it is not one or any count or offset points
    /// outside it.
    pub fn parse(data: Vec<u8>) -> Option<Face> {
        if data.len() < HEADER || &data[0..4] != MAGIC || u16_at(&data, 4) != 1 {
            return None;
        }
        let d = &data;
        let metrics = Metrics {
            units_per_em: u16_at(d, 6),
            flags: u16_at(d, 10),
            ascent: i16_at(d, 12),
            descent: i16_at(d, 14),
            line_gap: i16_at(d, 16),
            typo_ascent: i16_at(d, 18),
            typo_descent: i16_at(d, 20),
            typo_line_gap: i16_at(d, 22),
            win_ascent: u16_at(d, 24),
            win_descent: u16_at(d, 26),
        };
        let num_glyphs = u16_at(d, 8) as usize;
        let (n_cmap, n_kern, n_lig, n_out) =
            (u32_at(d, 28) as usize, u32_at(d, 32) as usize, u32_at(d, 36) as usize, u32_at(d, 40) as usize);
        if metrics.units_per_em == 0 || num_glyphs == 0 {
            return None;
        }
        let mut at = HEADER;
        let mut take = |bytes: usize| -> Option<(usize, usize)> {
            let start = at;
            at = at.checked_add(bytes)?;
            (at <= d.len()).then_some((start, at))
        };
        let cmap = take(n_cmap.checked_mul(8)?)?;
        let advances = take((2 * num_glyphs).next_multiple_of(4))?.0;
        let offsets = take(4 * (num_glyphs + 1))?.0;
        let outlines = take(n_out)?;
        let kern = take(n_kern.checked_mul(8)?)?;
        let ligs = take(n_lig.checked_mul(8)?)?;
        let mut face = Face { data, metrics, num_glyphs, cmap, advances, offsets, outlines, kern, ligs, latin1: [0; 256] };
        for cp in 0..256u32 {
            face.latin1[cp as usize] = face.search_glyph(cp).map_or(0, |g| g.saturating_add(1));
        }
        // every outline must fit its slot
        for g in 0..num_glyphs {
            let (a, b) = face.glyph_span(g);
            if a > b || b > n_out {
                return None;
            }
            if b > a {
                let o = face.outlines.0 + a;
                if b - a < 12 {
                    return None;
                }
                let (nc, np) = (u16_at(&face.data, o + 8) as usize, u16_at(&face.data, o + 10) as usize);
                if 12 + 2 * nc + 4 * np + np > b - a {
                    return None;
                }
                let mut last = 0usize;
                for c in 0..nc {
                    let end = u16_at(&face.data, o + 12 + 2 * c) as usize;
                    if end >= np || (c > 0 && end < last) {
                        return None;
                    }
                    last = end;
                }
            }
        }
        Some(face)
    }

    fn glyph_span(&self, g: usize) -> (usize, usize) {
        let o = self.offsets + 4 * g;
        (u32_at(&self.data, o) as usize, u32_at(&self.data, o + 4) as usize)
    }

    /// Vertical metrics.
    pub fn metrics(&self) -> Metrics {
        self.metrics
    }

    /// Number of glyphs.
    pub fn num_glyphs(&self) -> usize {
        self.num_glyphs
    }

    /// The glyph of a character (0, the missing glyph, when the face has none).
    pub fn glyph(&self, cp: u32) -> u16 {
        self.find_glyph(cp).unwrap_or(0)
    }

    /// The glyph of a character, `None` when the face has none.
    #[inline]
    pub fn find_glyph(&self, cp: u32) -> Option<u16> {
        match self.latin1.get(cp as usize) {
            // a glyph id of 0xFFFF cannot be kept plus one: searched
            Some(&g) if g != u16::MAX => g.checked_sub(1),
            _ => self.search_glyph(cp),
        }
    }

    /// [`Face::find_glyph`] by binary search of the character map.
    fn search_glyph(&self, cp: u32) -> Option<u16> {
        let (a, b) = self.cmap;
        let n = (b - a) / 8;
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let c = u32_at(&self.data, a + 8 * mid);
            if c == cp {
                return Some(u16_at(&self.data, a + 8 * mid + 4));
            }
            if c < cp {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        None
    }

    /// Advance width of a glyph, font units.
    pub fn advance(&self, g: u16) -> i32 {
        if (g as usize) >= self.num_glyphs {
            return 0;
        }
        u16_at(&self.data, self.advances + 2 * g as usize) as i32
    }

    /// Kerning between two glyphs, font units.
    pub fn kern(&self, left: u16, right: u16) -> i32 {
        let (a, b) = self.kern;
        let key = (left as u32) << 16 | right as u32;
        let (mut lo, mut hi) = (0usize, (b - a) / 8);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let o = a + 8 * mid;
            let k = (u16_at(&self.data, o) as u32) << 16 | u16_at(&self.data, o + 2) as u32;
            if k == key {
                return i16_at(&self.data, o + 4) as i32;
            }
            if k < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        0
    }

    /// The ligature glyph for `first second [third]` (`third` 0xFFFF: a pair).
    pub fn ligature(&self, first: u16, second: u16, third: u16) -> Option<u16> {
        let (a, b) = self.ligs;
        let key = (first as u64) << 32 | (second as u64) << 16 | third as u64;
        let (mut lo, mut hi) = (0usize, (b - a) / 8);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let o = a + 8 * mid;
            let k = (u16_at(&self.data, o) as u64) << 32 | (u16_at(&self.data, o + 2) as u64) << 16
                | u16_at(&self.data, o + 4) as u64;
            if k == key {
                return Some(u16_at(&self.data, o + 6));
            }
            if k < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        None
    }

    /// Lays out one line of characters as HarfBuzz does for the characters the table
    /// was shaped for: glyphs from the character map, ligatures (three characters
    /// before two), then each glyph's advance plus its kerning with the next.
    pub fn shape(&self, text: &[u32], out: &mut Vec<Shaped>) {
        out.clear();
        self.shape_into(text, u32::MAX, out);
    }

    /// [`Face::shape`] appending to `out`, each glyph tagged with `face`. Like
    /// Chromium, which shapes text word by word, it never forms a ligature with or
    /// kerns next to a space (U+0020).
    fn shape_into(&self, text: &[u32], face: u32, out: &mut Vec<Shaped>) {
        const SPACE: u32 = 0x20;
        let start = out.len();
        let mut i = 0;
        while i < text.len() {
            let g0 = self.glyph(text[i]);
            let joins = |k: usize| text.get(i + k).filter(|&&c| c != SPACE && text[i] != SPACE).map(|&c| self.glyph(c));
            let (g, used) = match (joins(1), joins(2)) {
                (Some(b), Some(c)) if self.ligature(g0, b, c).is_some() => (self.ligature(g0, b, c).unwrap(), 3),
                (Some(b), _) if self.ligature(g0, b, 0xFFFF).is_some() => (self.ligature(g0, b, 0xFFFF).unwrap(), 2),
                _ => (g0, 1),
            };
            out.push(Shaped { glyph: g, advance: self.advance(g), face, first: text[i], last: text[i + used - 1] });
            i += used;
        }
        for k in start + 1..out.len() {
            if out[k - 1].last != SPACE && out[k].first != SPACE {
                let kern = self.kern(out[k - 1].glyph, out[k].glyph);
                out[k - 1].advance += kern;
            }
        }
    }

    /// The glyph's box in font units (x0, y0, x1, y1; y up), `None` for an empty glyph.
    pub fn glyph_box(&self, g: u16) -> Option<[i16; 4]> {
        if (g as usize) >= self.num_glyphs {
            return None;
        }
        let (a, b) = self.glyph_span(g as usize);
        if b <= a {
            return None;
        }
        let o = self.outlines.0 + a;
        let d = &self.data;
        (u16_at(d, o + 10) > 0).then(|| [i16_at(d, o), i16_at(d, o + 2), i16_at(d, o + 4), i16_at(d, o + 6)])
    }

    /// Appends the outline of glyph `g` to `out`, each point mapped by `map` from font
    /// units (y up) to the polyline's space, curves flattened by `fl` there. Every
    /// contour is closed.
    pub fn outline(&self, g: u16, fl: &Flattener, map: impl Fn(f64, f64) -> Point, out: &mut Polylines) {
        if (g as usize) >= self.num_glyphs {
            return;
        }
        let (a, b) = self.glyph_span(g as usize);
        if b <= a {
            return;
        }
        let d = &self.data;
        let o = self.outlines.0 + a;
        let (nc, np) = (u16_at(d, o + 8) as usize, u16_at(d, o + 10) as usize);
        let xy = o + 12 + 2 * nc;
        let flags = xy + 4 * np;
        let pt = |i: usize| (i16_at(d, xy + 4 * i) as f64, i16_at(d, xy + 4 * i + 2) as f64, d[flags + i] & 1 != 0);
        let mut start = 0usize;
        for c in 0..nc {
            let end = u16_at(d, o + 12 + 2 * c) as usize;
            let n = end + 1 - start;
            if n >= 2 {
                contour(|k| pt(start + k % n), n, fl, &map, out);
            }
            start = end + 1;
        }
    }
}

/// One TrueType contour of `n` points (`at(k)` gives x, y, on-curve): starts at an
/// on-curve point (or the midpoint of the first two off-curve ones), and every run of
/// off-curve points has implied on-curve midpoints between them.
fn contour(at: impl Fn(usize) -> (f64, f64, bool), n: usize, fl: &Flattener, map: &impl Fn(f64, f64) -> Point, out: &mut Polylines) {
    let first_on = (0..n).find(|&k| at(k).2);
    let (start, first) = match first_on {
        Some(k) => (k, map(at(k).0, at(k).1)),
        None => {
            let (a, b) = (at(0), at(1));
            (0, map(0.5 * (a.0 + b.0), 0.5 * (a.1 + b.1)))
        }
    };
    out.move_to(first);
    let mut ctrl: Option<(f64, f64)> = None;
    for s in 1..=n {
        let (x, y, on) = at(start + s);
        match (on, ctrl) {
            (true, None) => out.line_to(map(x, y)),
            (true, Some((cx, cy))) => {
                out.quad_to(fl, map(cx, cy), map(x, y));
                ctrl = None;
            }
            (false, None) => ctrl = Some((x, y)),
            (false, Some((cx, cy))) => {
                out.quad_to(fl, map(cx, cy), map(0.5 * (cx + x), 0.5 * (cy + y)));
                ctrl = Some((x, y));
            }
        }
    }
    if let Some((cx, cy)) = ctrl {
        out.quad_to(fl, map(cx, cy), first);
    }
    out.close();
}

/// Every face of the installation and the family names that reach them.
#[derive(Debug)]
pub struct FontSet {
    /// The faces.
    pub faces: Vec<Face>,
    /// Lower-case family name -> face of each style (normal, bold, italic, bold italic).
    pub families: Vec<(String, [u32; 4])>,
    /// Index into `families` of the family an unknown name gets.
    pub standard: usize,
    /// Per face, the faces that draw the characters it lacks, in order (`u32::MAX`:
    /// none), as fontconfig's fallback gives Chromium.
    pub fallbacks: Vec<[u32; 2]>,
}

impl FontSet {
    /// The face for a family name (trimmed, case-insensitive, quotes removed) and style
    /// (0 normal, 1 bold, 2 italic, 3 bold italic); unknown names get the standard
    /// family.
    pub fn resolve(&self, name: &str, style: usize) -> u32 {
        self.find(name, style).unwrap_or(self.families[self.standard].1[style.min(3)])
    }

    /// The face for a known family name and style, `None` for an unknown name.
    pub fn find(&self, name: &str, style: usize) -> Option<u32> {
        let key = name.trim().trim_matches(|c| c == '"' || c == '\'').to_lowercase();
        self.families.iter().find(|(n, _)| *n == key).map(|f| f.1[style.min(3)])
    }

    /// A face (None past the end).
    pub fn face(&self, i: u32) -> Option<&Face> {
        self.faces.get(i as usize)
    }

    /// Lays out one line with face `face`, characters it lacks with the first of its
    /// fallbacks that has them (else its own missing-glyph box): runs of one face are
    /// shaped by [`Face::shape`]; every advance is in units of `face` (an advance from
    /// a fallback of another em size is converted and rounded).
    pub fn shape(&self, face: u32, text: &[u32], out: &mut Vec<Shaped>) {
        out.clear();
        let Some(primary) = self.face(face) else { return };
        let fallbacks = self.fallbacks.get(face as usize).copied().unwrap_or([u32::MAX; 2]);
        let face_of = |c: u32| {
            if primary.find_glyph(c).is_some() {
                return face;
            }
            for f in fallbacks {
                if self.face(f).is_some_and(|fb| fb.find_glyph(c).is_some()) {
                    return f;
                }
            }
            face
        };
        let mut i = 0;
        while i < text.len() {
            let f = face_of(text[i]);
            let mut j = i + 1;
            while j < text.len() && face_of(text[j]) == f {
                j += 1;
            }
            let from = out.len();
            let fb = self.face(f).unwrap_or(primary);
            fb.shape_into(&text[i..j], f, out);
            let (u, v) = (primary.metrics().units_per_em as i64, fb.metrics().units_per_em as i64);
            if u != v && v > 0 {
                for s in &mut out[from..] {
                    s.advance = ((s.advance as i64 * u + v / 2).div_euclid(v)) as i32;
                }
            }
            i = j;
        }
    }

    /// The box of a glyph run in font units.
    pub fn run_box(face: &Face, glyphs: impl Iterator<Item = u16>) -> Option<Rect> {
        let mut r: Option<Rect> = None;
        for g in glyphs {
            if let Some([x0, y0, x1, y1]) = face.glyph_box(g) {
                let b = Rect { x0: x0 as f64, y0: y0 as f64, x1: x1 as f64, y1: y1 as f64 };
                r = Some(match r {
                    None => b,
                    Some(a) => Rect { x0: a.x0.min(b.x0), y0: a.y0.min(b.y0), x1: a.x1.max(b.x1), y1: a.y1.max(b.y1) },
                });
            }
        }
        r
    }
}

static FONTS: OnceLock<FontSet> = OnceLock::new();

/// Why [`install`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstallError {
    /// A face table is malformed (its index).
    BadFace(usize),
    /// A family names a face that does not exist, or there is no standard family.
    BadFamily,
    /// Another, different set is installed already.
    Different,
}

/// Installs the process's font set. Installing the same set again is a no-op.
pub fn install(
    faces: Vec<Vec<u8>>,
    families: Vec<(String, [u32; 4])>,
    standard: usize,
    fallbacks: Vec<[u32; 2]>,
) -> Result<(), InstallError> {
    if let Some(cur) = FONTS.get() {
        let same = cur.faces.len() == faces.len()
            && cur.faces.iter().zip(&faces).all(|(a, b)| a.data == *b)
            && cur.families == families
            && cur.standard == standard
            && cur.fallbacks == fallbacks;
        return if same { Ok(()) } else { Err(InstallError::Different) };
    }
    let n = faces.len();
    let mut parsed = Vec::with_capacity(n);
    for (i, f) in faces.into_iter().enumerate() {
        parsed.push(Face::parse(f).ok_or(InstallError::BadFace(i))?);
    }
    if standard >= families.len() || families.iter().any(|(_, ids)| ids.iter().any(|&i| i as usize >= n)) {
        return Err(InstallError::BadFamily);
    }
    if fallbacks.len() != n || fallbacks.iter().flatten().any(|&f| f != u32::MAX && f as usize >= n) {
        return Err(InstallError::BadFamily);
    }
    let set = FontSet { faces: parsed, families, standard, fallbacks };
    let _ = FONTS.set(set); // a racing installer of the same set wins as well
    Ok(())
}

/// The installed font set, if any.
pub fn fonts() -> Option<&'static FontSet> {
    FONTS.get()
}

/// A hinter: the outline of glyph `glyph` of face `face` at `size_26_6` pixels per em
/// (26.6 fixed point) after FreeType's light (vertical-only) hinting, the hinting
/// Chromium's text uses on Linux. It writes up to `cap_points` points (x, y pairs in
/// 26.6 pixels, y up) with their FreeType tags and up to `cap_contours` contour end
/// indices, stores the counts in `counts[0..2]` and returns 0; 1 when the capacity is
/// too small (the counts are then what is needed); negative when it cannot hint the
/// glyph (the unhinted outline is drawn instead). Must be callable from any thread.
pub type HintFn = unsafe extern "C" fn(
    face: u32,
    glyph: u32,
    size_26_6: i32,
    xy: *mut i32,
    tags: *mut u8,
    ends: *mut u16,
    cap_points: u32,
    cap_contours: u32,
    counts: *mut u32,
) -> i32;

static HINTER: AtomicUsize = AtomicUsize::new(0);

/// Registers the process's hinter (`None`: draw unhinted outlines).
pub fn set_hinter(f: Option<HintFn>) {
    HINTER.store(f.map_or(0, |f| f as usize), Ordering::Release);
}

fn hinter() -> Option<HintFn> {
    match HINTER.load(Ordering::Acquire) {
        0 => None,
        // SAFETY: only set_hinter stores non-zero values, each a HintFn.
        p => Some(unsafe { std::mem::transmute::<usize, HintFn>(p) }),
    }
}

/// Whether a hinter is registered.
pub fn can_hint() -> bool {
    hinter().is_some()
}

/// A hinted glyph outline in pixels (y up, origin at the glyph's origin).
#[derive(Debug)]
pub struct Hinted {
    pts: Vec<(f32, f32, bool)>,
    ends: Vec<u16>,
    /// x0 y0 x1 y1 of the points.
    pub bbox: [f32; 4],
}

impl Hinted {
    /// Whether the glyph has no outline (a space).
    pub fn is_empty(&self) -> bool {
        self.pts.is_empty()
    }

    /// Appends the outline to `out` like [`Face::outline`], points mapped by `map`
    /// from pixels (y up).
    pub fn outline(&self, fl: &Flattener, map: impl Fn(f64, f64) -> Point, out: &mut Polylines) {
        let pt = |i: usize| {
            let (x, y, on) = self.pts[i];
            (x as f64, y as f64, on)
        };
        let mut start = 0usize;
        for &end in &self.ends {
            let end = end as usize;
            if end < start || end >= self.pts.len() {
                return;
            }
            let n = end + 1 - start;
            if n >= 2 {
                contour(|k| pt(start + k % n), n, fl, &map, out);
            }
            start = end + 1;
        }
    }
}

/// The hinted glyphs one canvas has drawn, by face, glyph and size. A glyph the
/// hinter refuses is remembered as `None`.
#[derive(Debug, Default)]
pub struct HintCache {
    glyphs: crate::fasthash::FastMap<(u32, u16, i32), Option<Arc<Hinted>>>,
    xy: Vec<i32>,
    tags: Vec<u8>,
    ends: Vec<u16>,
}

impl HintCache {
    /// Bounds the memory of a canvas that draws text at ever new sizes.
    const MAX_GLYPHS: usize = 8192;

    /// The hinted outline of glyph `g` of face `face` at `size_26_6` pixels per em;
    /// `None` without a hinter or when it refuses the glyph.
    pub fn get(&mut self, face: u32, g: u16, size_26_6: i32) -> Option<Arc<Hinted>> {
        if let Some(h) = self.glyphs.get(&(face, g, size_26_6)) {
            return h.clone();
        }
        let h = self.hint(face, g, size_26_6).map(Arc::new);
        if self.glyphs.len() >= Self::MAX_GLYPHS {
            self.glyphs.clear();
        }
        self.glyphs.insert((face, g, size_26_6), h.clone());
        h
    }

    fn hint(&mut self, face: u32, g: u16, size_26_6: i32) -> Option<Hinted> {
        let f = hinter()?;
        if self.tags.is_empty() {
            self.xy.resize(2 * 256, 0);
            self.tags.resize(256, 0);
            self.ends.resize(32, 0);
        }
        let mut counts = [0u32; 2];
        let mut done = false;
        for _ in 0..2 {
            // SAFETY: the buffers hold the capacities passed.
            let rc = unsafe {
                f(face, g as u32, size_26_6, self.xy.as_mut_ptr(), self.tags.as_mut_ptr(), self.ends.as_mut_ptr(),
                  self.tags.len() as u32, self.ends.len() as u32, counts.as_mut_ptr())
            };
            if rc == 0 {
                done = true;
                break;
            }
            let (np, nc) = (counts[0] as usize, counts[1] as usize);
            if rc != 1 || np > 1 << 20 || nc > 1 << 16 {
                return None;
            }
            let np = np.max(self.tags.len());
            self.xy.resize(2 * np, 0);
            self.tags.resize(np, 0);
            self.ends.resize(nc.max(self.ends.len()), 0);
        }
        if !done {
            return None;
        }
        let (np, nc) = (counts[0] as usize, counts[1] as usize);
        if np > self.tags.len() || nc > self.ends.len() {
            return None;
        }
        let mut pts = Vec::with_capacity(np);
        let mut bbox = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
        for i in 0..np {
            let tag = self.tags[i] & 3;
            if tag == 2 {
                return None; // a cubic control point: not a TrueType outline
            }
            let (x, y) = (self.xy[2 * i] as f32 / 64.0, self.xy[2 * i + 1] as f32 / 64.0);
            bbox = [bbox[0].min(x), bbox[1].min(y), bbox[2].max(x), bbox[3].max(y)];
            pts.push((x, y, tag == 1));
        }
        if np == 0 {
            bbox = [0.0; 4];
        }
        Some(Hinted { pts, ends: self.ends[..nc].to_vec(), bbox })
    }
}
