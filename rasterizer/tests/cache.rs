//! Shapes drawn again where they were take their coverage from the coverage cache; a
//! frame drawn with hits must be the frame a fresh canvas draws, to the bit.

mod common;

use common::*;
use jsgym_native::command::{Cap, Join};
use jsgym_native::command::Verb;
use jsgym_native::{Canvas, CommandWriter, Fit, Rgba, Style};

const TILE: Rgba = Rgba::new(30, 40, 160, 255);
const EDGE: Rgba = Rgba::new(90, 110, 255, 255);
const GOLD: Rgba = Rgba::new(250, 200, 60, 255);
const GLASS: Rgba = Rgba::new(200, 230, 255, 140);

fn both(f: Rgba, s: Rgba, weight: f32) -> Style {
    Style { fill: f, stroke: s, weight, cap: Cap::Round, join: Join::Miter, ..Style::default() }
}

fn moved(s: Style, dx: f32, dy: f32) -> Style {
    with_matrix(s, [1.0, 0.0, 0.0, 1.0, dx, dy])
}

/// A static scene covering every cached path, the same words each frame, drawn after
/// a background of `shade` and a sprite at `sprite`.
fn frame(shade: u8, sprite: f32) -> CommandWriter {
    let mut cw = CommandWriter::new();
    cw.canvas(400.0, 400.0).background(Rgba::new(shade, shade, shade, 255));
    for r in 0..6 {
        for c in 0..6 {
            let (x, y) = (15.0 + 61.7 * c as f32, 12.0 + 59.3 * r as f32);
            match (r + c) % 4 {
                // rounded tile with a hairline edge: fill and hairline as one
                0 => cw.rounded_rect(&both(TILE, EDGE, 1.0), x, y, 50.0, 48.0, [8.0; 4]),
                // rounded tile with a thick edge: fill and stroke outline as one
                1 => cw.rounded_rect(&both(TILE, EDGE, 6.0), x, y, 50.0, 48.0, [6.0; 4]),
                // a large opaque rounded tile: the sample-plane (seam) path
                2 => cw.rounded_rect(&fill(GOLD), x, y, 52.0, 50.0, [10.0, 4.0, 10.0, 4.0]),
                // translucent: fill and stroke drawn one after the other
                _ => cw.rounded_rect(&both(GLASS, EDGE, 3.0), x, y, 40.0, 30.0, [5.0; 4]),
            };
        }
    }
    // the same words under two translations: different coverage
    for dx in [0.0, 3.3] {
        let s = moved(both(GOLD, EDGE, 2.0), dx, 0.35 * dx);
        cw.rounded_rect(&s, 300.0, 370.0, 12.0, 9.0, [3.0; 4]);
    }
    // small filled shapes (plain path) and round-capped strokes
    for k in 0..8 {
        let x = 20.0 + 45.3 * k as f32;
        cw.rounded_rect(&fill(GOLD), x, 385.0, 9.0, 7.0, [2.0; 4]);
        cw.line(&stroke(EDGE, 3.0, Cap::Round, Join::Round), x, 375.0, x + 17.5, 381.0);
    }
    // filled ellipses, and straight polygons: opaque convex quads (the sample-plane
    // path), translucent triangles
    for k in 0..6 {
        let x = 30.0 + 61.3 * k as f32;
        cw.ellipse(&fill(GOLD), x, 362.0, 4.5, 3.75);
        let q = [Verb::Move(x, 340.0), Verb::Line(x + 21.3, 341.7), Verb::Line(x + 19.9, 352.2), Verb::Line(x - 1.4, 350.6), Verb::Close];
        cw.path(&fill(TILE), &q);
        let t = [Verb::Move(x + 5.0, 330.0), Verb::Line(x + 30.5, 338.0), Verb::Line(x + 8.2, 347.5), Verb::Close];
        cw.path(&fill(GLASS), &t);
    }
    cw.rounded_rect(&both(Rgba::new(250, 60, 60, 255), WHITE, 2.0), sprite, 200.0, 30.0, 30.0, [9.0; 4]);
    cw
}

fn fresh(cw: &CommandWriter) -> Vec<u8> {
    let mut c = Canvas::new(64, 64, Fit::Stretch, 1).unwrap();
    c.draw(cw.words()).unwrap();
    read_rgb(&c)
}

#[test]
fn frames_drawn_from_the_cache_are_the_frames_drawn_fresh() {
    let mut c = Canvas::new(64, 64, Fit::Stretch, 1).unwrap();
    // backgrounds that change redraw every shape; the same background with the
    // sprite moved redraws only the damaged rectangles, through the cache
    let frames = [(0, 40.0), (0, 47.5), (20, 55.0), (20, 61.25), (20, 70.0), (35, 70.0), (35, 250.0)];
    for (k, &(shade, sprite)) in frames.iter().enumerate() {
        let cw = frame(shade, sprite);
        c.draw(cw.words()).unwrap();
        assert!(read_rgb(&c) == fresh(&cw), "frame {k} (background {shade}, sprite at {sprite}) differs from a fresh canvas's");
    }
    assert!(c.coverage_cache_hits() > 100, "the scene's shapes were not drawn from the cache ({} hits)", c.coverage_cache_hits());
}

#[test]
fn the_cache_keys_the_canvas_size() {
    // the same shape words on canvases of other sizes map to other device positions
    let mut c = Canvas::new(64, 64, Fit::Stretch, 1).unwrap();
    for (k, size) in [(400.0, 400.0), (360.0, 420.0), (400.0, 400.0), (360.0, 420.0), (400.0, 400.0)].into_iter().enumerate() {
        // the stream's first command is the canvas size: replaced
        let mut all = CommandWriter::new();
        all.canvas(size.0, size.1);
        let head = all.words().len();
        let mut all = all.words().to_vec();
        all.extend_from_slice(&frame(0, 100.0).words()[head..]);
        c.draw(&all).unwrap();
        let mut f = Canvas::new(64, 64, Fit::Stretch, 1).unwrap();
        f.draw(&all).unwrap();
        assert!(read_rgb(&c) == read_rgb(&f), "frame {k}, canvas {size:?}");
    }
    assert!(c.coverage_cache_hits() > 0);
}
