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
    if canvas.is_null() || (words.is_null() && n_words != 0) {
        return JG_RASTER_BAD_ARGUMENT;
    }
    guard(|| {
        let c = &mut *canvas;
        let w: &[u32] = if n_words == 0 { &[] } else { std::slice::from_raw_parts(words, n_words) };
        match c.draw(w) {
            Ok(()) => JG_RASTER_OK,
            Err(DrawError::Malformed(_)) | Err(DrawError::BadCanvasSize) => JG_RASTER_MALFORMED_STREAM,
        }
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
