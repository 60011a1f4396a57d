//! The C ABI of `include/jsgym_raster.h`.
//!
//! Invariants: no panic crosses these functions (each body runs under
//! `catch_unwind` and a panic becomes `JG_RASTER_PANIC`, or NULL from
//! [`jg_canvas_new`]); null pointers give `JG_RASTER_BAD_ARGUMENT`; the handle is a
//! `Box<Canvas>` owned by the caller between `jg_canvas_new` and `jg_canvas_free`.
//! The functions are not synchronised: one canvas must not be used from two threads
//! at once (jsgym gives each env, and so each canvas, to one worker thread).

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::canvas::{Canvas, DrawError, Fit};

/// `JG_RASTER_OK`.
pub const JG_RASTER_OK: i32 = 0;
/// `JG_RASTER_BAD_ARGUMENT`.
pub const JG_RASTER_BAD_ARGUMENT: i32 = -1;
/// `JG_RASTER_MALFORMED_STREAM`.
pub const JG_RASTER_MALFORMED_STREAM: i32 = -2;
/// `JG_RASTER_PANIC`.
pub const JG_RASTER_PANIC: i32 = -3;
/// `JG_RASTER_TIMEOUT`.
pub const JG_RASTER_TIMEOUT: i32 = -4;

/// The opaque handle of the header (`typedef struct JgCanvas JgCanvas`).
pub type JgCanvas = Canvas;

fn guard(f: impl FnOnce() -> i32) -> i32 {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(JG_RASTER_PANIC)
}

/// Creates a canvas; NULL on bad arguments. See the header.
#[no_mangle]
pub extern "C" fn jg_canvas_new(obs_w: u32, obs_h: u32, fit: u32, supersample: u32) -> *mut JgCanvas {
    let r = catch_unwind(|| {
        let fit = match fit {
            0 => Fit::Stretch,
            1 => Fit::Letterbox,
            _ => return None,
        };
        Canvas::new(obs_w, obs_h, fit, supersample).map(Box::new)
    });
    match r {
        Ok(Some(b)) => Box::into_raw(b),
        _ => std::ptr::null_mut(),
    }
}

/// Frees a canvas from [`jg_canvas_new`]; NULL is a no-op.
///
/// # Safety
/// `canvas` is NULL or a pointer returned by [`jg_canvas_new`] not yet freed.
#[no_mangle]
pub unsafe extern "C" fn jg_canvas_free(canvas: *mut JgCanvas) {
    if canvas.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(canvas))));
}

/// Composites a command stream. See the header.
///
/// # Safety
/// `canvas` is a live canvas; `words` points to `n_words` readable `u32`s (or is NULL
/// with `n_words == 0`).
#[no_mangle]
pub unsafe extern "C" fn jg_canvas_draw(canvas: *mut JgCanvas, words: *const u32, n_words: usize) -> i32 {
    jg_canvas_draw_until(canvas, words, n_words, 0)
}

/// Composites a command stream, stopping at `deadline_ns` (`CLOCK_MONOTONIC`, 0:
/// none). See the header.
///
/// # Safety
/// As [`jg_canvas_draw`].
#[no_mangle]
pub unsafe extern "C" fn jg_canvas_draw_until(canvas: *mut JgCanvas, words: *const u32, n_words: usize, deadline_ns: u64) -> i32 {
    if canvas.is_null() || (words.is_null() && n_words != 0) {
        return JG_RASTER_BAD_ARGUMENT;
    }
    guard(|| {
        let c = &mut *canvas;
        let w: &[u32] = if n_words == 0 { &[] } else { std::slice::from_raw_parts(words, n_words) };
        c.set_deadline(deadline_ns);
        let r = c.draw(w);
        c.set_deadline(0);
        match r {
            Ok(()) => JG_RASTER_OK,
            Err(DrawError::Malformed(_)) | Err(DrawError::BadCanvasSize) => JG_RASTER_MALFORMED_STREAM,
            Err(DrawError::Timeout) => JG_RASTER_TIMEOUT,
        }
    })
}

/// 1 when a stream starts by covering the whole canvas opaquely, else 0 (or an
/// error). See the header.
///
/// # Safety
/// As [`jg_canvas_draw`].
#[no_mangle]
pub unsafe extern "C" fn jg_canvas_starts_covered(canvas: *mut JgCanvas, words: *const u32, n_words: usize) -> i32 {
    if canvas.is_null() || (words.is_null() && n_words != 0) {
        return JG_RASTER_BAD_ARGUMENT;
    }
    guard(|| {
        let w: &[u32] = if n_words == 0 { &[] } else { std::slice::from_raw_parts(words, n_words) };
        (*canvas).starts_covered(w) as i32
    })
}

/// Copies the canvas out as packed RGB. See the header.
///
/// # Safety
/// `canvas` is a live canvas; `dst` points to `obs_h * obs_w * 3` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn jg_canvas_read_rgb(canvas: *const JgCanvas, dst: *mut u8) -> i32 {
    if canvas.is_null() || dst.is_null() {
        return JG_RASTER_BAD_ARGUMENT;
    }
    guard(|| {
        let c = &*canvas;
        let n = 3 * c.obs_width() * c.obs_height();
        let out = std::slice::from_raw_parts_mut(dst, n);
        if c.read_rgb(out) {
            JG_RASTER_OK
        } else {
            JG_RASTER_BAD_ARGUMENT
        }
    })
}

/// Resets to opaque black. See the header.
///
/// # Safety
/// `canvas` is a live canvas.
#[no_mangle]
pub unsafe extern "C" fn jg_canvas_reset(canvas: *mut JgCanvas) -> i32 {
    if canvas.is_null() {
        return JG_RASTER_BAD_ARGUMENT;
    }
    guard(|| {
        (*canvas).reset();
        JG_RASTER_OK
    })
}

// ------------------------------------------------------------------ fonts

/// Installs the process's font set. See the header.
///
/// # Safety
/// `data[i]` points to `lens[i]` readable bytes for `i < n`; `names[k]` is a
/// NUL-terminated UTF-8 string and `faces` holds `4 * n_families` indices.
#[no_mangle]
pub unsafe extern "C" fn jg_raster_install_fonts(
    data: *const *const u8,
    lens: *const usize,
    n: u32,
    names: *const *const std::ffi::c_char,
    faces: *const u32,
    n_families: u32,
    standard: u32,
    fallbacks: *const u32,
) -> i32 {
    if (n > 0 && (data.is_null() || lens.is_null() || fallbacks.is_null()))
        || (n_families > 0 && (names.is_null() || faces.is_null()))
    {
        return JG_RASTER_BAD_ARGUMENT;
    }
    guard(|| {
        let mut tables = Vec::with_capacity(n as usize);
        for i in 0..n as usize {
            let (p, len) = (*data.add(i), *lens.add(i));
            if p.is_null() && len > 0 {
                return JG_RASTER_BAD_ARGUMENT;
            }
            tables.push(if len == 0 { Vec::new() } else { std::slice::from_raw_parts(p, len).to_vec() });
        }
        let mut families = Vec::with_capacity(n_families as usize);
        for k in 0..n_families as usize {
            let name = *names.add(k);
            if name.is_null() {
                return JG_RASTER_BAD_ARGUMENT;
            }
            let Ok(name) = std::ffi::CStr::from_ptr(name).to_str() else { return JG_RASTER_BAD_ARGUMENT };
            let f = std::slice::from_raw_parts(faces.add(4 * k), 4);
            families.push((name.to_lowercase(), [f[0], f[1], f[2], f[3]]));
        }
        let fb = (0..n as usize).map(|i| [*fallbacks.add(2 * i), *fallbacks.add(2 * i + 1)]).collect();
        match crate::font::install(tables, families, standard as usize, fb) {
            Ok(()) => JG_RASTER_OK,
            Err(_) => JG_RASTER_BAD_ARGUMENT,
        }
    })
}

/// Registers the glyph hinter text is drawn with (NULL: unhinted outlines). See the
/// header.
#[no_mangle]
pub extern "C" fn jg_raster_set_hinter(hinter: Option<crate::font::HintFn>) {
    crate::font::set_hinter(hinter);
}

/// The face of a family name and style; -1 when no fonts are installed. See the header.
///
/// # Safety
/// `name` points to `len` readable bytes (UTF-8; invalid sequences are replaced).
#[no_mangle]
pub unsafe extern "C" fn jg_font_resolve(name: *const u8, len: usize, style: u32) -> i32 {
    if name.is_null() && len > 0 {
        return -1;
    }
    let r = catch_unwind(AssertUnwindSafe(|| {
        let set = crate::font::fonts()?;
        let bytes = if len == 0 { &[][..] } else { std::slice::from_raw_parts(name, len) };
        let name = String::from_utf8_lossy(bytes);
        let st = (style & 3) as usize;
        if style & 0x100 != 0 {
            return Some(set.find(&name, st).map_or(-2, |f| f as i32));
        }
        Some(set.resolve(&name, st) as i32)
    }));
    r.ok().flatten().unwrap_or(-1)
}

/// Metrics of an installed face (`JgFontMetrics` of the header, field for field).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct JgFontMetrics {
    /// Units per em.
    pub units_per_em: i32,
    /// hhea ascender.
    pub ascent: i32,
    /// hhea descender (negative).
    pub descent: i32,
    /// hhea line gap.
    pub line_gap: i32,
    /// OS/2 typographic ascender.
    pub typo_ascent: i32,
    /// OS/2 typographic descender (negative).
    pub typo_descent: i32,
    /// OS/2 typographic line gap.
    pub typo_line_gap: i32,
    /// OS/2 Windows ascent.
    pub win_ascent: i32,
    /// OS/2 Windows descent.
    pub win_descent: i32,
    /// Bit 0: use the typographic metrics.
    pub flags: i32,
}

/// Writes the metrics of face `face`. See the header.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn jg_font_metrics(face: u32, out: *mut JgFontMetrics) -> i32 {
    if out.is_null() {
        return JG_RASTER_BAD_ARGUMENT;
    }
    guard(|| {
        let Some(f) = crate::font::fonts().and_then(|s| s.face(face)) else { return JG_RASTER_BAD_ARGUMENT };
        let m = f.metrics();
        *out = JgFontMetrics {
            units_per_em: m.units_per_em as i32,
            ascent: m.ascent as i32,
            descent: m.descent as i32,
            line_gap: m.line_gap as i32,
            typo_ascent: m.typo_ascent as i32,
            typo_descent: m.typo_descent as i32,
            typo_line_gap: m.typo_line_gap as i32,
            win_ascent: m.win_ascent as i32,
            win_descent: m.win_descent as i32,
            flags: m.flags as i32,
        };
        JG_RASTER_OK
    })
}

/// Shaped runs of [`jg_font_shape`], per thread: keyed by `[face, text...]`, each the
/// glyph words and advances it returns.
#[derive(Default)]
struct ShapedRuns {
    runs: crate::fasthash::FastMap<Vec<u32>, Vec<(u32, i32)>>,
    key: Vec<u32>,
    scratch: Vec<crate::font::Shaped>,
}

/// Shaped runs a thread keeps before it starts over.
const MAX_SHAPED_RUNS: usize = 512;

thread_local! {
    static SHAPED: std::cell::RefCell<ShapedRuns> = std::cell::RefCell::new(ShapedRuns::default());
}

/// Shapes `n` characters into glyphs and pen advances (font units). See the header.
///
/// # Safety
/// `text` points to `n` readable `u32`s; `glyphs` and `advances` to `n` writable ones.
#[no_mangle]
pub unsafe extern "C" fn jg_font_shape(face: u32, text: *const u32, n: usize, glyphs: *mut u32, advances: *mut i32) -> i64 {
    if n > 0 && (text.is_null() || glyphs.is_null() || advances.is_null()) {
        return JG_RASTER_BAD_ARGUMENT as i64;
    }
    let r = catch_unwind(AssertUnwindSafe(|| {
        let set = crate::font::fonts()?;
        set.face(face)?;
        let t = if n == 0 { &[][..] } else { std::slice::from_raw_parts(text, n) };
        SHAPED.with(|cell| {
            let cache = &mut *cell.borrow_mut();
            // a HUD shapes the same strings frame after frame: shaped runs are kept per
            // thread, keyed by the face and the text (the font set never changes)
            let ShapedRuns { runs, key, scratch } = cache;
            key.clear();
            key.push(face);
            key.extend_from_slice(t);
            let run = match runs.get(key.as_slice()) {
                Some(run) => run,
                None => {
                    set.shape(face, t, scratch);
                    if runs.len() >= MAX_SHAPED_RUNS {
                        runs.clear();
                    }
                    let run = scratch.iter().map(|s| (s.glyph as u32 | s.face << 16, s.advance)).collect();
                    runs.entry(key.clone()).or_insert(run)
                }
            };
            for (k, &(g, a)) in run.iter().enumerate() {
                *glyphs.add(k) = g;
                *advances.add(k) = a;
            }
            Some(run.len() as i64)
        })
    }));
    r.ok().flatten().unwrap_or(JG_RASTER_BAD_ARGUMENT as i64)
}
