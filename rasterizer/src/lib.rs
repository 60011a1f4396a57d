//! jsgym rasterizer: turns one frame's p5 draw-command stream into RGB pixels at the
//! observation size, with exact-area-coverage anti-aliasing.
//!
//! The contract is the C header `include/jsgym_raster.h`; [`ffi`] implements it. The
//! crate is std-only and is organised by raster stage, in the order a command flows:
//!
//! | stage | module | output |
//! |---|---|---|
//! | parse | [`command`] | typed [`command::Command`]s borrowed from the `u32` stream |
//! | geometry | [`geometry`] | affine [`geometry::Transform`]s, points, rectangles |
//! | flatten | [`flatten`] | user-space polylines (curves within a device tolerance) |
//! | stroke | [`stroke`] | closed outline contours of a stroked polyline |
//! | coverage | [`coverage`] | per-pixel exact signed-area coverage in device space |
//! | blend | [`blend`] | source-over compositing of straight-alpha RGBA8 onto RGB8 |
//! | font | [`font`] | face tables: glyph outlines, advances, kerning; the installed font set |
//! | damage | [`damage`] | which pixels a frame changes: the diff against the last frame |
//! | seams | `seams` | per-pixel records that keep shapes sharing an edge seam-free |
//! | supersample | `supersample` | the box filter from a supersampled canvas to the observation |
//! | canvas | [`canvas`] | the persistent per-env canvas and per-shape execution |
//! | resume | `canvas::resume` | a frame drawn from the snapshot of the prefix it shares with the last, whole or damage only |
//! | text | `canvas::text` | glyph masks and outline paths of text commands |
//! | deadline | [`deadline`] | the time bound of a draw, checked between commands |
//! | ffi | [`ffi`] | the `extern "C"` functions; panics never cross them |
//!
//! Invariants shared by all stages: geometry is `f64` until it has been clipped to the
//! device canvas rectangle, so huge coordinates never reach the `f32` coverage buffer;
//! no stage allocates per frame once its scratch buffers have grown to the frame's
//! needs; a shape with any non-finite number draws nothing.
#![warn(missing_docs)]

pub mod blend;
pub mod canvas;
pub mod command;
pub mod coverage;
pub mod damage;
pub mod deadline;
mod fasthash;
pub mod ffi;
pub mod flatten;
pub mod font;
pub mod geometry;
mod seams;
mod supersample;
pub mod stroke;

pub use canvas::{Canvas, DrawError, Fit};
pub use command::{CommandWriter, Rgba, Style};
