//! Stream robustness and the C ABI: malformed streams, non-finite shapes, huge
//! coordinates, null pointers.

mod common;

use std::time::Instant;

use common::*;
use jsgym_native::command::{Cap, Join, Verb, OP_ELLIPSE, OP_PATH, OP_RECT, STYLE_WORDS, VERB_LINE, VERB_MOVE};
use jsgym_native::ffi::*;
use jsgym_native::{CommandWriter, DrawError, Rgba, Style};

fn draws_nothing(cw: &CommandWriter) {
    let mut c = canvas(32, 32);
    c.draw(cw.words()).expect("well-formed stream");
    assert!(read_rgb(&c).iter().all(|&v| v == 0), "the shape must draw nothing");
}

fn malformed(words: &[u32]) {
    let mut c = canvas(16, 16);
    let mut cw = CommandWriter::new();
    cw.background(WHITE).raw(words).background(Rgba::new(255, 0, 0, 255));
    assert!(matches!(c.draw(cw.words()), Err(DrawError::Malformed(_))), "expected malformed: {words:?}");
    assert!(read_rgb(&c).chunks(3).all(|p| p == [255, 255, 255]), "commands before the bad one drew, none after");
    // Same through the C ABI.
    let h = jg_canvas_new(16, 16, 0, 1);
    assert_eq!(unsafe { jg_canvas_draw(h, cw.words().as_ptr(), cw.words().len()) }, JG_RASTER_MALFORMED_STREAM);
    unsafe { jg_canvas_free(h) };
}

#[test]
fn malformed_streams_are_errors() {
    malformed(&[99, 2]); // unknown opcode
    malformed(&[0, 2]); // opcode 0
    malformed(&[OP_RECT, 0]); // length below the header
    malformed(&[OP_RECT, 1]);
    malformed(&[OP_RECT, 500, 0, 0]); // overruns
    malformed(&[OP_RECT]); // truncated header
    malformed(&[OP_ELLIPSE, 2 + STYLE_WORDS as u32]); // too short for its payload
    let mut s = vec![OP_PATH, 0];
    s.extend([0u32; STYLE_WORDS]);
    s.extend([VERB_MOVE, 0, 0, 77]); // unknown verb
    s[1] = s.len() as u32;
    malformed(&s);
    let mut s = vec![OP_PATH, 0];
    s.extend([0u32; STYLE_WORDS]);
    s.extend([VERB_MOVE, 0, 0, VERB_LINE, 0]); // truncated verb
    s[1] = s.len() as u32;
    malformed(&s);
    let mut cw = CommandWriter::new();
    cw.rect(&fill(WHITE), 0.0, 0.0, 1.0, 1.0);
    let mut bad_cap = cw.words().to_vec();
    bad_cap[2 + 3] = 7; // cap 7
    malformed(&bad_cap);
}

#[test]
fn bad_canvas_size_is_malformed() {
    let mut c = canvas(8, 8);
    let mut cw = CommandWriter::new();
    cw.canvas(f32::NAN, 10.0);
    assert_eq!(c.draw(cw.words()), Err(DrawError::BadCanvasSize));
    let mut cw = CommandWriter::new();
    cw.canvas(0.0, 10.0);
    assert_eq!(c.draw(cw.words()), Err(DrawError::BadCanvasSize));
}

#[test]
fn non_finite_shapes_draw_nothing() {
    let nan = f32::NAN;
    let inf = f32::INFINITY;
    let s = Style { fill: WHITE, stroke: WHITE, ..Style::default() };
    let mut cw = CommandWriter::new();
    cw.rect(&s, nan, 0.0, 10.0, 10.0)
        .rect(&s, 0.0, 0.0, inf, 10.0)
        .rounded_rect(&s, 0.0, 0.0, 10.0, 10.0, [nan, 0.0, 0.0, 0.0])
        .ellipse(&s, 16.0, 16.0, nan, 5.0)
        .ellipse(&s, 16.0, 16.0, inf, 5.0)
        .arc(&s, 16.0, 16.0, 5.0, 5.0, 0.0, nan, jsgym_native::command::ArcMode::Pie)
        .line(&s, 0.0, 0.0, inf, 3.0)
        .point(&s, nan, 3.0)
        .path(&s, &[Verb::Move(1.0, 1.0), Verb::Line(20.0, 1.0), Verb::Line(nan, 20.0)])
        .path(&s, &[Verb::Move(1.0, 1.0), Verb::Cubic(20.0, 1.0, 20.0, inf, 5.0, 5.0)])
        .rect(&with_matrix(s, [1.0, 0.0, 0.0, nan, 0.0, 0.0]), 0.0, 0.0, 10.0, 10.0)
        .rect(&with_matrix(s, [inf, 0.0, 0.0, 1.0, 0.0, 0.0]), 0.0, 0.0, 10.0, 10.0)
        .rect(&Style { weight: nan, ..s }, 2.0, 2.0, 10.0, 10.0)
        .ellipse(&Style { weight: inf, ..s }, 16.0, 16.0, 5.0, 5.0);
    draws_nothing(&cw);
}

#[test]
fn degenerate_shapes_draw_nothing() {
    let s = fill(WHITE);
    let mut cw = CommandWriter::new();
    cw.rect(&s, 5.0, 5.0, 0.0, 10.0)
        .ellipse(&s, 16.0, 16.0, 0.0, 0.0)
        .rect(&with_matrix(s, [1.0, 2.0, 0.5, 1.0, 0.0, 0.0]), 0.0, 0.0, 10.0, 10.0) // singular
        .line(&stroke(WHITE, 0.0, Cap::Round, Join::Miter), 1.0, 1.0, 20.0, 20.0)
        .rect(&s, 100.0, 100.0, 10.0, 10.0) // entirely outside
        .ellipse(&s, -50.0, 16.0, 10.0, 10.0);
    draws_nothing(&cw);
}

#[test]
fn huge_coordinates_finish_quickly_and_clip() {
    let t = Instant::now();
    let big = 1e30f32;
    let mut c = canvas(64, 64);
    let mut cw = CommandWriter::new();
    cw.rect(&fill(WHITE), -big, -big, 2.0 * big, 2.0 * big);
    c.draw(cw.words()).unwrap();
    assert!(read_rgb(&c).iter().all(|&v| v == 255), "a huge rect covers everything");
    let s = Style { fill: Rgba::new(255, 0, 0, 255), stroke: Rgba::new(0, 255, 0, 255), weight: 3.0, ..Style::default() };
    let mut cw = CommandWriter::new();
    cw.ellipse(&s, 0.0, 0.0, big, big)
        .ellipse(&s, 32.0, 32.0 + big, 1e30, big)
        .ellipse(&with_matrix(s, rotation_about(0.3, 0.0, 0.0)), 32.0, 32.0, big, 3.0)
        .arc(&s, 32.0, 32.0, big, big, 0.1, 5.0, jsgym_native::command::ArcMode::Chord)
        .line(&s, -big, 10.0, big, 50.0)
        .path(&s, &[Verb::Move(-big, -big), Verb::Quad(big, 0.0, 10.0, big), Verb::Cubic(big, big, -big, big, 30.0, 30.0)])
        .rounded_rect(&s, -big, -big, 2.0 * big, 2.0 * big, [big, big, big, big])
        .rect(&with_matrix(s, [big, 0.0, 0.0, big, 0.0, 0.0]), 0.0, 0.0, 1.0, 1.0)
        .rect(&with_matrix(s, [1e-30, 1e-30, -1e-30, 1e-30, 32.0, 32.0]), 0.0, 0.0, big, big);
    c.draw(cw.words()).unwrap();
    assert!(t.elapsed().as_secs_f64() < 2.0, "took {:?}", t.elapsed());
}

#[test]
fn c_abi_checks_arguments() {
    assert!(jg_canvas_new(0, 64, 0, 1).is_null());
    assert!(jg_canvas_new(64, 5000, 0, 1).is_null());
    assert!(jg_canvas_new(64, 64, 2, 1).is_null());
    assert!(jg_canvas_new(64, 64, 0, 0).is_null());
    assert!(jg_canvas_new(64, 64, 0, 5).is_null());
    let mut buf = vec![7u8; 64 * 48 * 3];
    unsafe {
        assert_eq!(jg_canvas_draw(std::ptr::null_mut(), [0u32].as_ptr(), 1), JG_RASTER_BAD_ARGUMENT);
        assert_eq!(jg_canvas_read_rgb(std::ptr::null(), buf.as_mut_ptr()), JG_RASTER_BAD_ARGUMENT);
        assert_eq!(jg_canvas_reset(std::ptr::null_mut()), JG_RASTER_BAD_ARGUMENT);
        jg_canvas_free(std::ptr::null_mut());
        let h = jg_canvas_new(64, 48, 1, 2);
        assert!(!h.is_null());
        assert_eq!(jg_canvas_draw(h, std::ptr::null(), 3), JG_RASTER_BAD_ARGUMENT);
        assert_eq!(jg_canvas_draw(h, std::ptr::null(), 0), JG_RASTER_OK);
        assert_eq!(jg_canvas_read_rgb(h, std::ptr::null_mut()), JG_RASTER_BAD_ARGUMENT);
        let mut cw = CommandWriter::new();
        cw.canvas(400.0, 300.0).background(Rgba::new(1, 2, 3, 255));
        assert_eq!(jg_canvas_draw(h, cw.words().as_ptr(), cw.words().len()), JG_RASTER_OK);
        assert_eq!(jg_canvas_read_rgb(h, buf.as_mut_ptr()), JG_RASTER_OK);
        assert_eq!(&buf[3 * (24 * 64 + 32)..][..3], &[1, 2, 3]);
        assert_eq!(jg_canvas_reset(h), JG_RASTER_OK);
        assert_eq!(jg_canvas_read_rgb(h, buf.as_mut_ptr()), JG_RASTER_OK);
        assert!(buf.iter().all(|&v| v == 0));
        jg_canvas_free(h);
    }
}

#[test]
fn a_passed_deadline_stops_the_draw_between_commands() {
    use jsgym_native::deadline::{now_ns, CHECK_EVERY};
    let mut cw = CommandWriter::new();
    cw.background(WHITE);
    for i in 0..4 * CHECK_EVERY {
        cw.rect(&fill(Rgba::new(255, 0, 0, 255)), (i % 8) as f32, 0.0, 1.0, 1.0);
    }
    let words = cw.words();
    let past = now_ns() - 1;
    // a deadline that has passed: the first check, CHECK_EVERY commands in, stops it,
    // and the commands before it have drawn
    let mut c = canvas(8, 8);
    c.set_deadline(past);
    assert_eq!(c.draw(words), Err(DrawError::Timeout));
    assert!(read_rgb(&c).chunks(3).any(|p| p == [255, 0, 0]), "the first commands drew");
    // the next draw without a deadline draws the whole stream (the failed one left no
    // state that makes it skip anything)
    c.set_deadline(0);
    c.draw(words).expect("no deadline");
    let mut whole = canvas(8, 8);
    whole.draw(words).unwrap();
    assert_eq!(read_rgb(&c), read_rgb(&whole));
    // a deadline in the future never stops it
    let mut c = canvas(8, 8);
    c.set_deadline(now_ns() + 60_000_000_000);
    c.draw(words).expect("within the deadline");
    // a frame of fewer commands than CHECK_EVERY never reads the clock
    let mut short = CommandWriter::new();
    short.background(WHITE).rect(&fill(WHITE), 0.0, 0.0, 1.0, 1.0);
    let mut c = canvas(8, 8);
    c.set_deadline(past);
    c.draw(short.words()).expect("too few commands to check");
    // ... but on a canvas of 512 x 512 pixels every command is checked
    let mut c = canvas(512, 512);
    c.set_deadline(past);
    assert_eq!(c.draw(short.words()), Err(DrawError::Timeout));
    // through the C ABI
    let h = jg_canvas_new(8, 8, 0, 1);
    assert_eq!(unsafe { jg_canvas_draw_until(h, words.as_ptr(), words.len(), past) }, JG_RASTER_TIMEOUT);
    assert_eq!(unsafe { jg_canvas_draw_until(h, words.as_ptr(), words.len(), 0) }, JG_RASTER_OK);
    assert_eq!(unsafe { jg_canvas_draw(h, words.as_ptr(), words.len()) }, JG_RASTER_OK);
    unsafe { jg_canvas_free(h) };
}
