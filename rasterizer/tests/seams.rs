//! Opaque rectangles that share a fractional edge composite exactly (no seam), the
//! way a browser frame rendered at canvas size and averaged down shows them when the
//! edge lies between the canvas's pixels; inside a canvas pixel the browser blends
//! the second over the first's blend with the background, and so does the record.

mod common;

use common::*;
use jsgym_native::{CommandWriter, Rgba, Style};

const GREY: Rgba = Rgba::new(200, 200, 200, 255);
const RED: Rgba = Rgba::new(255, 0, 0, 255);
const BLUE: Rgba = Rgba::new(0, 0, 255, 255);

fn draw(cw: &CommandWriter) -> Vec<u8> {
    let mut c = canvas(16, 16);
    c.draw(cw.words()).unwrap();
    read_rgb(&c)
}

/// A stream on a canvas ten times the observation's size (coordinates in canvas
/// pixels), so that observation-pixel fractions of a tenth are canvas pixel edges.
fn fine() -> CommandWriter {
    let mut cw = CommandWriter::new();
    cw.canvas(160.0, 160.0).background(Rgba::new(0, 0, 0, 255));
    cw
}

#[test]
fn abutting_rects_leave_no_seam() {
    let mut cw = fine();
    cw.rect(&fill(GREY), 20.0, 20.0, 35.0, 80.0).rect(&fill(GREY), 55.0, 20.0, 40.0, 80.0);
    assert_eq!(px(&draw(&cw), 16, 5, 5), [200, 200, 200], "shared edge at x = 5.5");
}

#[test]
fn abutting_rects_of_two_colours_mix_by_area() {
    let mut cw = fine();
    cw.rect(&fill(RED), 20.0, 20.0, 33.0, 80.0).rect(&fill(BLUE), 53.0, 20.0, 40.0, 80.0);
    // three tenths red, seven tenths blue, nothing of the black background
    assert_eq!(px(&draw(&cw), 16, 5, 5), [77, 0, 179]);
}

#[test]
fn an_edge_shared_inside_a_canvas_pixel_shows_the_background_as_the_browser_does() {
    // canvas pixel = observation pixel: column 5 is half grey, then half grey over
    // that blend (the browser's 150 = 200 * (1/2 + 1/2 * 1/2)), not 200
    let mut cw = CommandWriter::new();
    cw.background(Rgba::new(0, 0, 0, 255))
        .rect(&fill(GREY), 2.0, 2.0, 3.5, 8.0)
        .rect(&fill(GREY), 5.5, 2.0, 4.0, 8.0);
    assert_eq!(px(&draw(&cw), 16, 5, 5), [150, 150, 150]);
    // a quarter red, then three quarters blue over it: red keeps 1/4 of its 1/4
    let mut cw = CommandWriter::new();
    cw.background(Rgba::new(0, 0, 0, 255))
        .rect(&fill(RED), 2.0, 2.0, 3.25, 8.0)
        .rect(&fill(BLUE), 5.25, 2.0, 4.0, 8.0);
    assert_eq!(px(&draw(&cw), 16, 5, 5), [16, 0, 191]);
    // at a tenth of the pixel's size the same edge crosses 1 of 10 canvas columns:
    // 10 canvas rows of the observation pixel each lose 1/4 of a 1/10 column
    let mut cw = fine();
    cw.rect(&fill(GREY), 20.0, 20.0, 35.5, 80.0).rect(&fill(GREY), 55.5, 20.0, 40.0, 80.0);
    let want = (200.0 * (1.0 - 0.25 * 0.1) + 0.5) as u8;
    assert_eq!(px(&draw(&cw), 16, 5, 5), [want; 3]);
}

#[test]
fn a_rect_stacked_on_the_same_edge_hides_the_one_below() {
    let mut cw = fine();
    cw.rect(&fill(RED), 25.0, 20.0, 40.0, 80.0).rect(&fill(BLUE), 25.0, 20.0, 40.0, 80.0);
    assert_eq!(px(&draw(&cw), 16, 2, 5), [0, 0, 128], "half blue over black, no red");
    // the same edge inside a canvas pixel: the browser blends blue over the half red
    let mut cw = CommandWriter::new();
    cw.background(Rgba::new(0, 0, 0, 255))
        .rect(&fill(RED), 2.5, 2.0, 4.0, 8.0)
        .rect(&fill(BLUE), 2.5, 2.0, 4.0, 8.0);
    assert_eq!(px(&draw(&cw), 16, 2, 5), [64, 0, 128], "a quarter red shows");
}

#[test]
fn four_tiles_meeting_inside_a_pixel_cover_it() {
    let mut cw = fine();
    for (x, y) in [(0.0, 0.0), (45.0, 0.0), (0.0, 45.0), (45.0, 45.0)] {
        cw.rect(&fill(GREY), x, y, 45.0, 45.0);
    }
    let p = px(&draw(&cw), 16, 4, 4);
    // Exact value 200. Each record remembers one box, so the corner pixel of four
    // tiles is approximated (166); blending by coverage alone gives 137.
    assert!(p.iter().all(|&v| v >= 160), "corner pixel {p:?} should be near 200");
    // the edge pixels between two tiles are exact
    let rgb = draw(&cw);
    assert_eq!(px(&rgb, 16, 4, 1), [200, 200, 200]);
    assert_eq!(px(&rgb, 16, 1, 4), [200, 200, 200]);
}

#[test]
fn other_drawing_on_the_pixel_retires_the_record() {
    let mut cw = CommandWriter::new();
    cw.background(Rgba::new(0, 0, 0, 255))
        .rect(&fill(RED), 2.0, 2.0, 3.5, 8.0)
        .rect(&fill(Rgba::new(0, 255, 0, 128)), 0.0, 0.0, 16.0, 16.0)
        .rect(&fill(BLUE), 5.5, 2.0, 4.0, 8.0);
    let p = px(&draw(&cw), 16, 5, 5);
    // the translucent layer changed the pixel: the blue rect blends by coverage
    // over it, without reusing the stale red record
    let under = [64u8, 128, 0]; // half red over black, then green at alpha 128/255
    let expect: Vec<u8> = under
        .iter()
        .zip([0u8, 0, 255])
        .map(|(&d, c)| (d as f32 + (c as f32 - d as f32) * 0.5 + 0.5) as u8)
        .collect();
    assert!(p.iter().zip(&expect).all(|(a, b)| a.abs_diff(*b) <= 2), "{p:?} vs {expect:?}");
}

fn triangle(cw: &mut CommandWriter, c: Rgba, p: [f32; 6]) {
    use jsgym_native::command::Verb;
    cw.path(&fill(c), &[Verb::Move(p[0], p[1]), Verb::Line(p[2], p[3]), Verb::Line(p[4], p[5]), Verb::Close]);
}

#[test]
fn triangles_sharing_a_diagonal_show_the_browsers_faint_seam() {
    // two halves of the square [2.3, 11.3]^2 split along its diagonal, one canvas
    // pixel per observation pixel: each diagonal pixel is half the first, then half
    // the second over that blend, so a quarter shows the black beneath (the browser's
    // 150 = 200 * 3/4)
    let mut cw = CommandWriter::new();
    cw.background(Rgba::new(0, 0, 0, 255));
    triangle(&mut cw, GREY, [2.3, 2.3, 11.3, 2.3, 11.3, 11.3]);
    triangle(&mut cw, GREY, [2.3, 2.3, 11.3, 11.3, 2.3, 11.3]);
    let rgb = draw(&cw);
    for k in 3..11 {
        assert_eq!(px(&rgb, 16, k, k), [150, 150, 150], "diagonal pixel {k}");
    }
}

#[test]
fn a_diagonal_seam_fades_with_the_canvas_pixels_it_crosses() {
    // the same square on a canvas ten times finer: the diagonal crosses each
    // observation pixel over 10 sqrt(2) canvas pixels, of which the browser shows a
    // sixth of the length (the mean of a (1 - a) over the canvas pixels a line
    // crosses) in black: 200 * (1 - 10 sqrt(2) / 6 / 100) = 195.3
    let mut cw = fine();
    triangle(&mut cw, GREY, [23.0, 23.0, 113.0, 23.0, 113.0, 113.0]);
    triangle(&mut cw, GREY, [23.0, 23.0, 113.0, 113.0, 23.0, 113.0]);
    let rgb = draw(&cw);
    for k in 3..11 {
        assert_eq!(px(&rgb, 16, k, k), [195, 195, 195], "diagonal pixel {k}");
    }
    // an edge shared along a line of the canvas's pixels lets nothing through
    let mut cw = fine();
    triangle(&mut cw, GREY, [55.0, 20.0, 55.0, 100.0, 10.0, 100.0]);
    triangle(&mut cw, GREY, [55.0, 20.0, 100.0, 100.0, 55.0, 100.0]);
    let rgb = draw(&cw);
    for y in 3..9 {
        assert_eq!(px(&rgb, 16, 5, y), [200, 200, 200], "row {y}");
    }
}

#[test]
fn a_seam_drawn_again_from_the_kept_prefix_is_the_same() {
    // frame 1 draws the left triangle and the right one; frame 2 shares the first
    // two commands and moves a third shape: the canvas, resumed from the prefix
    // kept after frame 1, must equal a fresh canvas drawing frame 2 whole
    let frame = |dx: f32| {
        let mut cw = CommandWriter::new();
        cw.background(Rgba::new(0, 0, 0, 255));
        triangle(&mut cw, RED, [2.3, 2.3, 11.3, 2.3, 11.3, 11.3]);
        triangle(&mut cw, BLUE, [2.3, 2.3, 11.3, 11.3, 2.3, 11.3]);
        cw.rect(&fill(GREY), 12.0 + dx, 12.0, 2.0, 2.0);
        cw
    };
    let mut c = canvas(16, 16);
    for k in 0..4 {
        c.draw(frame(k as f32 * 0.5).words()).unwrap();
    }
    let mut fresh = canvas(16, 16);
    fresh.draw(frame(1.5).words()).unwrap();
    assert_eq!(read_rgb(&c), read_rgb(&fresh));
}

#[test]
fn a_rect_abutting_a_triangle_leaves_no_seam() {
    // the triangle's right edge is the line x = 5.5 from y = 2 to 10; the rect
    // continues it to the right: the pixels of column 5 are covered whole
    let mut cw = CommandWriter::new();
    cw.background(Rgba::new(0, 0, 0, 255));
    triangle(&mut cw, GREY, [5.5, 2.0, 5.5, 10.0, 1.0, 10.0]);
    cw.rect(&fill(GREY), 5.5, 2.0, 4.0, 8.0);
    let rgb = draw(&cw);
    for y in 3..9 {
        assert_eq!(px(&rgb, 16, 5, y), [200, 200, 200], "row {y}");
    }
}

#[test]
fn a_rect_over_a_triangle_corner_hides_only_the_samples_it_covers() {
    // pixel (5, 5): the triangle covers its left half; the rect its quarter
    // [5.25, 6] x [5.5, 6], an eighth of the pixel over the triangle: red 0.375,
    // blue 0.375, black 0.25
    let mut cw = CommandWriter::new();
    cw.background(Rgba::new(0, 0, 0, 255));
    triangle(&mut cw, RED, [5.5, 2.0, 5.5, 10.0, 1.0, 10.0]);
    cw.rect(&fill(BLUE), 5.25, 5.5, 4.0, 4.0);
    let p = px(&draw(&cw), 16, 5, 5);
    assert!(p[0].abs_diff(96) <= 1 && p[1] == 0 && p[2].abs_diff(96) <= 1, "{p:?}");
}

#[test]
fn a_stroke_over_its_own_fill_shows_each_by_its_area() {
    // canvas 160 x 160 on 16 x 16: pixel column 2 spans canvas x 20..30; the stroke
    // (width 4 on the edge x = 20.5) covers 18.5..22.5 of it, a quarter; the fill the
    // rest, 22.5..30: nothing of the black background shows
    let mut cw = CommandWriter::new();
    let style = Style { fill: RED, stroke: BLUE, weight: 4.0, ..Style::default() };
    cw.canvas(160.0, 160.0).background(Rgba::new(0, 0, 0, 255)).rect(&style, 20.5, 20.0, 60.0, 60.0);
    let p = px(&draw(&cw), 16, 2, 5);
    assert!(p[0].abs_diff(191) <= 1 && p[1] == 0 && p[2].abs_diff(64) <= 1, "{p:?}");
}

#[test]
fn rows_drawn_over_the_last_frame_converge_to_their_colour() {
    // 50 canvas pixels on 16: rows of height 1 at y = k - 1/2 cover half of two canvas
    // rows each, and the browser shows a quarter of what each row held before the
    // frame. A frame without a background composites over the last one's pixels: a
    // record kept from the first frame would keep its black, frame after frame.
    let mut c = canvas(16, 16);
    let mut first = CommandWriter::new();
    first.canvas(50.0, 50.0).background(Rgba::new(0, 0, 0, 255));
    c.draw(first.words()).unwrap();
    let mut frame = CommandWriter::new();
    for k in 0..=50 {
        frame.rect(&fill(GREY), 0.0, k as f32 - 0.5, 50.0, 1.0);
    }
    for _ in 0..12 {
        c.draw(frame.words()).unwrap();
    }
    let rgb = read_rgb(&c);
    for y in 0..16 {
        let p = px(&rgb, 16, 3, y);
        assert!(p.iter().all(|v| v.abs_diff(200) <= 1), "pixel row {y}: {p:?}");
    }
}

#[test]
fn a_stack_of_rows_sharing_canvas_rows_blends_each_as_the_browser_does() {
    // rows of height 1 at y = k - 1/2 split every canvas row between two of them: the
    // browser shows a quarter of the red background in each (1/2 * 1/2), also where the
    // rows are of one colour and the record keeps them as one region
    for (size, what) in [(160.0, "ten canvas pixels a pixel"), (32.0, "two canvas pixels a pixel")] {
        let mut cw = CommandWriter::new();
        cw.canvas(size, size).background(RED);
        for k in 1..size as i32 - 1 {
            cw.rect(&fill(GREY), 0.0, k as f32 - 0.5, size, 1.0);
        }
        let rgb = draw(&cw);
        for y in 1..15 {
            assert_eq!(px(&rgb, 16, 3, y), [214, 150, 150], "{what}: pixel row {y}");
        }
    }
}

#[test]
fn a_half_disc_on_a_rectangle_leaves_no_seam() {
    // p5's ghost: a pie arc over a rectangle that shares its chord, on a canvas
    // pixel edge (canvas y 71, observation y 7.1): the pixels along the chord are
    // covered whole. The arc's two ends are computed twice (rounding noise): still
    // one convex outline, composited through the records.
    use jsgym_native::command::ArcMode;
    let mut cw = fine();
    cw.arc(&fill(GREY), 80.0, 71.0, 40.0, 40.0, std::f32::consts::PI, 2.0 * std::f32::consts::PI, ArcMode::Default);
    cw.rect(&fill(GREY), 40.0, 71.0, 80.0, 30.0);
    let rgb = draw(&cw);
    for x in 5..11 {
        assert_eq!(px(&rgb, 16, x, 7), [200, 200, 200], "column {x}");
    }
}

/// The outline of the rectangle `[x, y, w, h]` as a path: drawn filled and stroked,
/// it takes the general path of a pair (three rasterized outlines), where `rect()`
/// takes the boxes' per-axis coverages.
fn rect_path(cw: &mut CommandWriter, s: &Style, r: [f32; 4]) {
    use jsgym_native::command::Verb;
    let [x, y, w, h] = r;
    cw.path(s, &[Verb::Move(x, y), Verb::Line(x + w, y), Verb::Line(x + w, y + h), Verb::Line(x, y + h), Verb::Close]);
}

#[test]
fn a_mitred_stroked_rect_is_its_outline_drawn_as_a_pair() {
    // overlapping rectangles at fractional places, strokes from a tenth of an
    // observation pixel to almost as wide as the rectangle, on canvases finer than,
    // as fine as and coarser than the observation; none a hairline (a canvas pixel
    // wide or less), which a rect() draws without caps and a path with them
    let mut seed = 7u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    for size in [160.0f32, 16.0, 9.0] {
        let (mut a, mut b) = (CommandWriter::new(), CommandWriter::new());
        for cw in [&mut a, &mut b] {
            cw.canvas(size, size).background(Rgba::new(20, 30, 40, 255));
        }
        for _ in 0..60 {
            let r = [next() * size, next() * size, 2.5 + 0.3 * next() * size, 2.5 + 0.3 * next() * size];
            // (not as wide as the rectangle: see the test below)
            let weight = (1.05 + 1.2 * next() * size / 16.0).min(0.95 * r[2].min(r[3]));
            let colour = |v: f32| Rgba::new((255.0 * v) as u8, (255.0 * (1.0 - v)) as u8, 90, 255);
            let style = Style { fill: colour(next()), stroke: colour(next()), weight, ..Style::default() };
            a.rect(&style, r[0], r[1], r[2], r[3]);
            rect_path(&mut b, &style, r);
        }
        let (fast, general) = (draw(&a), draw(&b));
        let worst = fast.iter().zip(&general).map(|(p, q)| p.abs_diff(*q)).max().unwrap();
        // the same areas, summed in another order: at most one level apart
        assert!(worst <= 1, "canvas {size}: {worst} levels apart");
    }
}

#[test]
fn a_stroke_wider_than_its_rect_covers_the_outer_box() {
    // canvas 160 x 160 on 16 x 16: the rectangle 30..42 x 70..73 under a stroke of
    // width 10 covers 25..47 x 65..78; pixel row 6 (canvas 60..70) holds half of it,
    // all blue (an outline's inside-out inner loop must not count twice there)
    let mut cw = CommandWriter::new();
    let style = Style { fill: RED, stroke: BLUE, weight: 10.0, ..Style::default() };
    cw.canvas(160.0, 160.0).background(Rgba::new(0, 0, 0, 255)).rect(&style, 30.0, 70.0, 12.0, 3.0);
    let rgb = draw(&cw);
    assert_eq!(px(&rgb, 16, 3, 6), [0, 0, 128]);
    assert_eq!(px(&rgb, 16, 3, 7), [0, 0, 204]);
}

/// A frame of horizontal lines across a black canvas of 160 x 160 on 16 x 16,
/// one every `step` canvas rows from `offset`, of `weight` (1: a hairline).
fn line_sky(weight: f32, step: f32, offset: f32) -> Vec<u8> {
    let mut cw = CommandWriter::new();
    cw.canvas(160.0, 160.0).background(Rgba::new(0, 0, 0, 255));
    let style = Style { stroke: GREY, weight, ..Style::default() };
    let mut y = offset;
    while y < 160.0 {
        cw.line(&style, 0.0, y, 160.0, y);
        y += step;
    }
    draw(&cw)
}

#[test]
fn abutting_lines_cover_their_rows_as_the_browser_does() {
    // lines of width 2 every 2 canvas rows, and hairlines half-way between canvas
    // rows every row, cover every canvas row once: the grey, nothing of the black
    // (blended one by one at observation size, each a tenth of a pixel, they kept
    // 35% of it); hairlines on the rows' boundaries cover each canvas row half twice,
    // which leaves a quarter of the black, as the browser's 150 of 200 (133 blended
    // one by one)
    for (weight, step, offset, want) in [(2.0, 2.0, 0.0, 200), (1.0, 1.0, 0.5, 200), (3.0, 3.0, 0.5, 200), (1.0, 1.0, 0.0, 150)] {
        let rgb = line_sky(weight, step, offset);
        for y in 2..14 {
            let p = px(&rgb, 16, 7, y);
            assert!(p.iter().all(|v| v.abs_diff(want) <= 2), "width {weight} from {offset}: pixel row {y} {p:?}, want {want}");
        }
    }
}

/// A frame over black: a sky of hairlines on whole canvas rows from `change` down in
/// `late` (another grey above), then a white square at `x`.
fn sky_frame(x: f32, change: f32, late: Rgba) -> CommandWriter {
    let mut cw = CommandWriter::new();
    cw.canvas(160.0, 160.0).background(Rgba::new(0, 0, 0, 255));
    for y in 0..160 {
        let c = if (y as f32) < change { GREY } else { late };
        cw.line(&Style { stroke: c, weight: 1.0, ..Style::default() }, 0.0, y as f32, 160.0, y as f32);
    }
    cw.rect(&fill(Rgba::new(255, 255, 255, 255)), x, 120.0, 17.0, 17.0);
    cw
}

#[test]
fn frames_with_a_sky_of_bands_drawn_in_part_equal_whole_draws() {
    // a square moving under a still sky (drawn from a snapshot after the sky), the
    // sky's lower rows changing colour (a run that goes on past the rows the frames
    // share), a frame without the sky, the sky again, and a band that comes and goes
    // between two still squares (met in damaged rectangles)
    let mut frames = Vec::new();
    for k in 0..6 {
        frames.push(sky_frame(10.0 + 7.3 * k as f32, 200.0, GREY));
    }
    for k in 0..4 {
        frames.push(sky_frame(60.0, 90.0 + 11.0 * k as f32, Rgba::new(90, 140, 250, 255)));
    }
    let mut plain = CommandWriter::new();
    plain.canvas(160.0, 160.0).background(Rgba::new(0, 0, 0, 255)).rect(&fill(GREY), 31.0, 120.0, 17.0, 17.0);
    frames.push(plain);
    for k in 0..3 {
        frames.push(sky_frame(80.0 - 9.0 * k as f32, 200.0, GREY));
    }
    let mut kept = canvas(16, 16);
    for (i, cw) in frames.iter().enumerate() {
        kept.draw(cw.words()).unwrap();
        assert_eq!(read_rgb(&kept), draw(cw), "frame {i}");
    }
    // the sky keeps the browser's quarter of the black in every frame
    assert!(px(&draw(&frames[0]), 16, 7, 3).iter().all(|v| v.abs_diff(150) <= 2));
    // bands coming and going between two still squares, from a fresh canvas (a frame
    // drawn whole makes the next ones skip the diff for a while): met in damaged
    // rectangles (frame 5; drawn there, its pixels differ from a whole draw's), the
    // frame is drawn again whole
    let mut kept = canvas(16, 16);
    for k in 0..8 {
        let mut cw = CommandWriter::new();
        cw.canvas(160.0, 160.0).background(Rgba::new(0, 0, 0, 255)).rect(&fill(GREY), 20.0, 20.0, 40.0, 40.0);
        // (as many commands in each frame, so that they are diffed command by command)
        let orange = Style { stroke: Rgba::new(250, 90, 40, 255), weight: 1.0, ..Style::default() };
        for y in [70.0, 71.0, 72.0 + (k % 3) as f32] {
            if k >= 2 && k % 2 == 1 {
                cw.line(&orange, 62.0, y, 90.0, y);
            } else {
                cw.line(&orange, y, 64.0, y, 90.0);
            }
        }
        cw.rect(&fill(Rgba::new(40, 200, 90, 255)), 100.0, 100.0, 30.0, 30.0);
        kept.draw(cw.words()).unwrap();
        assert_eq!(read_rgb(&kept), draw(&cw), "band frame {k}");
    }
}

#[test]
fn a_rect_over_bands_on_canvas_pixel_edges_hides_exactly_what_it_covers() {
    // canvas 500 x 400 on 64 x 64: pixel row 14 spans canvas y 87.5..93.75; bands
    // 84..88, 88..92 and 92..96 (edges on canvas pixels) cover 0.08, 0.64 and 0.28
    // of it, then a rect from y = 90 covers 0.6: the middle band keeps 0.32, the
    // last none, and nothing of the black beneath shows (the samples alone would
    // keep 3/5 of the middle band's 0.64, letting 6% of the black through)
    let mut cw = CommandWriter::new();
    cw.canvas(500.0, 400.0).background(Rgba::new(0, 0, 0, 255));
    let bands = [Rgba::new(200, 200, 200, 255), Rgba::new(0, 200, 0, 255), Rgba::new(0, 0, 200, 255)];
    for (k, c) in bands.iter().enumerate() {
        cw.rect(&fill(*c), 0.0, 84.0 + 4.0 * k as f32, 500.0, 4.0);
    }
    cw.rect(&fill(RED), 100.0, 90.0, 200.0, 50.0);
    let mut c = canvas(64, 64);
    c.draw(cw.words()).unwrap();
    let p = px(&read_rgb(&c), 64, 30, 14);
    let want = [0.08 * 200.0 + 0.6 * 255.0, 0.08 * 200.0 + 0.32 * 200.0, 0.08 * 200.0];
    for ch in 0..3 {
        assert!((p[ch] as f64 - want[ch]).abs() <= 1.0, "pixel {p:?}, want {want:?}");
    }
}
