//! The time bound of one draw: a game may stay within every count limit (shapes per
//! frame, vertices) and still ask for seconds of rasterizing, e.g. 100,000 stroked
//! ellipses a frame. The caller gives each draw the deadline of the call into the game
//! it belongs to; the draw loop checks it between commands and stops with
//! [`crate::DrawError::Timeout`] once it has passed.
//!
//! Invariants: the clock is read once per [`CHECK_EVERY`] executed commands and never
//! inside a command, so a frame of fewer commands never reads it and the per-pixel
//! work is untouched; a stop leaves the canvas as a failed draw does (what the
//! commands before it drew, the next frame drawn whole). The clock is the C runtime's
//! (`CLOCK_MONOTONIC`), so a deadline is an absolute time in nanoseconds on the same
//! clock as the runtime's step deadline.

/// Commands executed between two reads of the clock on a canvas of at most
/// [`SMALL_CANVAS`] pixels. A command at 64 x 64 costs 0.1-50 us (a stroked ellipse
/// is the dearest), so a stop comes at most ~3 ms past the deadline; a read costs
/// about as much as drawing a small rect, so reading it more often would show in
/// the instructions per step of a game with a few dozen shapes.
pub const CHECK_EVERY: u32 = 64;

/// Internal pixels (64 x 64) up to which a draw checks every [`CHECK_EVERY`]
/// commands; a larger canvas checks proportionally more often (every command from
/// 512 x 512 on), since one shape can cover that many more pixels.
pub const SMALL_CANVAS: usize = 64 * 64;

/// A draw's deadline: `at_ns == 0` means none.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    at_ns: u64,
    left: u32,
    every: u32,
}

impl Deadline {
    /// No deadline yet, for a canvas of `pixels` internal pixels.
    pub fn for_pixels(pixels: usize) -> Deadline {
        let every = (CHECK_EVERY as usize * SMALL_CANVAS / pixels.max(1)).clamp(1, CHECK_EVERY as usize);
        Deadline { at_ns: 0, left: every as u32, every: every as u32 }
    }

    /// Sets the deadline of the next draw (`0`: none) and restarts the count.
    pub fn set(&mut self, at_ns: u64) {
        self.at_ns = at_ns;
        self.left = self.every;
    }

    /// The deadline set last (`0`: none).
    pub fn at_ns(&self) -> u64 {
        self.at_ns
    }

    /// Counts one command; true when the deadline has passed (checked every
    /// `every` commands).
    #[inline]
    pub fn passed(&mut self) -> bool {
        // (the count runs without a deadline too: one branch per command, not two)
        self.left -= 1;
        if self.left != 0 {
            return false;
        }
        self.left = self.every;
        self.at_ns != 0 && now_ns() >= self.at_ns
    }
}

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

#[cfg(any(target_os = "macos", target_os = "ios"))]
const CLOCK_MONOTONIC: i32 = 6;
#[cfg(target_os = "freebsd")]
const CLOCK_MONOTONIC: i32 = 4;
#[cfg(not(any(target_os = "macos", target_os = "ios", target_os = "freebsd")))]
const CLOCK_MONOTONIC: i32 = 1;

/// `CLOCK_MONOTONIC` in nanoseconds, as the runtime's `jg_now_ns()` reads it.
pub fn now_ns() -> u64 {
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: ts is a valid, writable timespec; the call only writes it.
    unsafe { clock_gettime(CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}
