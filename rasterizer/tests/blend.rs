//! Compositing arithmetic, canvas mapping (stretch, letterbox, non-square), supersampled
//! read-out and canvas persistence.

mod common;

use common::*;
use jsgym_native::command::{Cap, Join};
use jsgym_native::{Canvas, CommandWriter, Fit, Rgba};

fn blend(d: u8, c: u8, a: f32) -> u8 {
    (d as f32 + (c as f32 - d as f32) * a + 0.5) as u8
}

#[test]
fn source_over_with_alpha_and_coverage() {
    let mut c = canvas(64, 64);
    let mut cw = CommandWriter::new();
    let src = Rgba::new(200, 100, 50, 128);
    cw.background(Rgba::new(10, 20, 30, 255)).rect(&fill(src), 10.5, 10.0, 20.0, 20.0);
    c.draw(cw.words()).unwrap();
    let rgb = read_rgb(&c);
    let full = 128.0 / 255.0;
    let expect_full = [blend(10, 200, full), blend(20, 100, full), blend(30, 50, full)];
    assert_eq!(px(&rgb, 64, 20, 20), expect_full, "interior");
    let half = full * 0.5;
    assert_eq!(px(&rgb, 64, 10, 20), [blend(10, 200, half), blend(20, 100, half), blend(30, 50, half)], "half-covered column");
    assert_eq!(px(&rgb, 64, 5, 5), [10, 20, 30], "untouched background");
    // Hand-computed: 10 + 190 * 128/255 = 105.37 -> 105.
    assert_eq!(expect_full, [105, 60, 40]);
}

#[test]
fn transparent_colours_draw_nothing_and_opaque_replace() {
    let mut c = canvas(8, 8);
    let mut cw = CommandWriter::new();
    cw.background(Rgba::new(1, 2, 3, 255))
        .rect(&fill(Rgba::new(255, 0, 0, 0)), 0.0, 0.0, 8.0, 8.0)
        .background(Rgba::new(9, 9, 9, 0));
    c.draw(cw.words()).unwrap();
    assert!(read_rgb(&c).chunks(3).all(|p| p == [1, 2, 3]));
    let mut cw = CommandWriter::new();
    cw.rect(&fill(Rgba::new(7, 8, 9, 255)), 0.0, 0.0, 8.0, 8.0);
    c.draw(cw.words()).unwrap();
    assert!(read_rgb(&c).chunks(3).all(|p| p == [7, 8, 9]));
}

#[test]
fn translucent_background_accumulates_as_the_browser_s_canvas_does() {
    // Repeated background(0, 20) over white: Chromium's canvas blends a whole pixel
    // as `premul + (d * (256 - alpha) >> 8)`, whose truncation carries the trail down
    // to black (measured there: 0 after 200 frames). Rounding each blend to nearest
    // instead stalls it at 6, where a blend moves it less than half a level.
    let mut c = canvas(4, 4);
    let mut cw = CommandWriter::new();
    cw.background(WHITE);
    c.draw(cw.words()).unwrap();
    let mut cw = CommandWriter::new();
    cw.background(Rgba::new(0, 0, 0, 20));
    let mut v = 255u8;
    for frame in 0..200 {
        c.draw(cw.words()).unwrap();
        v = (v as u32 * 236 >> 8) as u8;
        if frame == 9 {
            assert_eq!(px(&read_rgb(&c), 4, 1, 1), [v, v, v], "frame {frame}");
        }
    }
    assert_eq!(px(&read_rgb(&c), 4, 1, 1), [0, 0, 0]);
    // a coloured trail settles from above where the browser's does, under
    // background(20, 30, 50, 40): 19, 32, 51 (23, 33, 53 when rounded to nearest)
    let mut cw = CommandWriter::new();
    cw.background(WHITE);
    c.draw(cw.words()).unwrap();
    let mut cw = CommandWriter::new();
    cw.background(Rgba::new(20, 30, 50, 40));
    for _ in 0..200 {
        c.draw(cw.words()).unwrap();
    }
    let mut want = [255u32; 3];
    for _ in 0..200 {
        // premultiplied (rounded) colour plus the truncated kept share
        want = std::array::from_fn(|k| ([20, 30, 50][k] * 40 + 127) / 255 + (want[k] * 216 >> 8));
    }
    assert_eq!(want, [19, 32, 51]);
    assert_eq!(px(&read_rgb(&c), 4, 1, 1), want.map(|v| v as u8));
}

#[test]
fn letterbox_centres_the_canvas_and_keeps_bars_black() {
    // 400x200 into 64x64: scale 0.16, a 64x32 picture at y = 16.
    let mut c = Canvas::new(64, 64, Fit::Letterbox, 1).unwrap();
    let mut cw = CommandWriter::new();
    cw.canvas(400.0, 200.0).background(WHITE).ellipse(&fill(Rgba::new(255, 0, 0, 255)), 200.0, 100.0, 300.0, 300.0);
    c.draw(cw.words()).unwrap();
    let rgb = read_rgb(&c);
    for x in 0..64 {
        assert_eq!(px(&rgb, 64, x, 15), [0, 0, 0], "top bar");
        assert_eq!(px(&rgb, 64, x, 48), [0, 0, 0], "bottom bar (the big ellipse is clipped)");
        for y in 16..48 {
            assert_eq!(px(&rgb, 64, x, y), [255, 0, 0], "the red ellipse covers the whole picture");
        }
    }
    // Stretch fills everything.
    let mut s = Canvas::new(64, 64, Fit::Stretch, 1).unwrap();
    s.draw(cw.words()).unwrap();
    assert!(read_rgb(&s).chunks(3).all(|p| p == [255, 0, 0]));
}

#[test]
fn letterbox_with_fractional_bars_covers_partial_rows() {
    // 400x330 into 64x64: scale 0.16, height 52.8, top at 5.6: row 5 is 40% canvas.
    let mut c = Canvas::new(64, 64, Fit::Letterbox, 1).unwrap();
    let mut cw = CommandWriter::new();
    cw.canvas(400.0, 330.0).background(WHITE);
    c.draw(cw.words()).unwrap();
    let rgb = read_rgb(&c);
    assert_eq!(px(&rgb, 64, 10, 4), [0, 0, 0]);
    assert_eq!(px(&rgb, 64, 10, 5), [102, 102, 102], "0.4 * 255 = 102");
    assert_eq!(px(&rgb, 64, 10, 6), [255, 255, 255]);
    assert_eq!(px(&rgb, 64, 10, 58), [102, 102, 102], "bottom edge at 58.4");
    assert_eq!(px(&rgb, 64, 10, 59), [0, 0, 0]);
}

#[test]
fn non_square_observation_stretches_axes_independently() {
    // 400x400 canvas at 96x48: a circle of radius 100 becomes a 24 x 12 ellipse.
    let mut c = Canvas::new(96, 48, Fit::Stretch, 1).unwrap();
    let mut cw = CommandWriter::new();
    cw.canvas(400.0, 400.0).ellipse(&fill(WHITE), 200.0, 200.0, 100.0, 100.0);
    let cov = c.coverage_of(cw.words()).unwrap();
    assert_eq!(cov.len(), 96 * 48);
    // the browser's polygon of a radius-100 canvas circle: 0.16% short
    assert_rel(sum(&cov), std::f64::consts::PI * 24.0 * 12.0, 2e-3, "stretched circle");
    // Letterbox keeps it round: scale 0.12 -> radius 12 circle centred at (48, 24).
    let mut l = Canvas::new(96, 48, Fit::Letterbox, 1).unwrap();
    let cov = l.coverage_of(cw.words()).unwrap();
    assert_rel(sum(&cov), std::f64::consts::PI * 144.0, 2e-3, "letterboxed circle");
    assert_eq!(cov[24 * 96 + 48 + 13], 0.0);
    assert_eq!(cov[24 * 96 + 48 - 14], 0.0);
    assert_eq!(cov[24 * 96 + 48 + 10], 1.0);
}

#[test]
fn supersampled_read_box_filters_and_rounds() {
    // ss = 2: a rect covering the left half of pixel column 3 exactly (1 of 2 subpixels).
    let mut c = Canvas::new(8, 8, Fit::Stretch, 2).unwrap();
    let mut cw = CommandWriter::new();
    cw.rect(&fill(Rgba::new(255, 101, 0, 255)), 3.0, 0.0, 0.5, 8.0);
    c.draw(cw.words()).unwrap();
    let rgb = read_rgb(&c);
    // (255 + 0) / 2 = 127.5 -> 128; (101 + 0) / 2 = 50.5 -> 51 (round half up).
    assert_eq!(px(&rgb, 8, 3, 4), [128, 51, 0]);
    assert_eq!(px(&rgb, 8, 2, 4), [0, 0, 0]);
    assert_eq!(c.pixels().len(), 3 * 16 * 16);
}

#[test]
fn canvas_persists_between_draws_and_resets() {
    let mut c = canvas(16, 16);
    let mut cw = CommandWriter::new();
    cw.rect(&fill(WHITE), 0.0, 0.0, 4.0, 4.0);
    c.draw(cw.words()).unwrap();
    let mut cw = CommandWriter::new();
    cw.rect(&fill(WHITE), 8.0, 8.0, 4.0, 4.0);
    c.draw(cw.words()).unwrap();
    let rgb = read_rgb(&c);
    assert_eq!(px(&rgb, 16, 1, 1), [255; 3], "first frame persists");
    assert_eq!(px(&rgb, 16, 9, 9), [255; 3]);
    c.reset();
    assert!(read_rgb(&c).iter().all(|&v| v == 0));
    // CANVAS resets to black and changes the mapping; CLEAR makes black.
    let mut cw = CommandWriter::new();
    cw.background(WHITE).canvas(32.0, 32.0).rect(&fill(WHITE), 0.0, 0.0, 16.0, 16.0);
    c.draw(cw.words()).unwrap();
    let rgb = read_rgb(&c);
    assert_eq!(px(&rgb, 16, 7, 7), [255; 3]);
    assert_eq!(px(&rgb, 16, 8, 8), [0; 3]);
    assert_eq!(c.logical_size(), (32.0, 32.0));
    let mut cw = CommandWriter::new();
    cw.clear_canvas();
    c.draw(cw.words()).unwrap();
    assert!(read_rgb(&c).iter().all(|&v| v == 0));
}

/// One one-pixel line of `colour` at every whole y of a 400 x 400 canvas.
fn sky_of_lines(cw: &mut CommandWriter, colour: Rgba) {
    let line = stroke(colour, 1.0, Cap::Butt, Join::Miter);
    for y in 0..400 {
        cw.line(&line, 0.0, y as f32, 400.0, y as f32);
    }
}

#[test]
fn thin_lines_over_an_observation_pixel_do_not_stall_short_of_their_colour() {
    // 400 one-pixel lines (a gradient sky) on a 400 x 400 canvas seen at 64 x 64: each
    // covers a sixth of an observation pixel, so over 198 a line of 200 moves it by
    // a third of a level, which rounding to nearest drops every time (the pixel stays
    // at 198). The browser blends each over two canvas rows at half coverage and
    // ends at 199-200.
    let mut c = canvas(64, 64);
    let mut cw = CommandWriter::new();
    cw.canvas(400.0, 400.0).background(Rgba::new(198, 198, 198, 255));
    sky_of_lines(&mut cw, Rgba::new(200, 200, 200, 255));
    c.draw(cw.words()).unwrap();
    let v = px(&read_rgb(&c), 64, 30, 30)[0];
    assert!(v >= 199, "stalled at {v}");
}

#[test]
fn a_sky_of_lines_over_the_last_frame_keeps_a_quarter_of_it_as_the_browser_does() {
    // Without background(), 400 one-pixel lines at whole y on a 400 x 400 canvas: each
    // canvas row is blended twice at half coverage, so it keeps a quarter of what the
    // last frame left there (the browser's canvas); the observation pixel averages its
    // canvas rows: 0.75 * 200 + 0.25 * 0 = 150. Blending each line over the whole
    // observation pixel (a sixth of it) kept a third: 132.
    let mut c = canvas(64, 64);
    let mut cw = CommandWriter::new();
    cw.canvas(400.0, 400.0).background(Rgba::new(0, 0, 0, 255));
    c.draw(cw.words()).unwrap();
    let mut cw = CommandWriter::new();
    sky_of_lines(&mut cw, Rgba::new(200, 200, 200, 255));
    c.draw(cw.words()).unwrap();
    let rgb = read_rgb(&c);
    for (x, y) in [(30, 30), (0, 10), (63, 40)] {
        let v = px(&rgb, 64, x, y)[0];
        assert!((149..=151).contains(&v), "({x}, {y}): {v}");
    }
}

#[test]
fn a_sky_of_thick_translucent_lines_over_the_last_frame_blends_each_canvas_row_once() {
    // Without background(), a line of weight 4 every 4 canvas rows on a 420 x 440
    // canvas: each canvas row up to 436 lies under exactly one line, so the browser
    // blends it once, 200 at alpha 128 over black: 100. Blended at observation size,
    // the two or three lines that share an observation row each took a share of the
    // whole pixel, the later ones a share of the earlier ones' colour too: 86-88.
    let mut c = canvas(64, 64);
    let mut cw = CommandWriter::new();
    cw.canvas(420.0, 440.0).background(Rgba::new(0, 0, 0, 255));
    c.draw(cw.words()).unwrap();
    let mut cw = CommandWriter::new();
    let line = stroke(Rgba::new(200, 200, 200, 128), 4.0, Cap::Round, Join::Miter);
    for y in (0..440).step_by(4) {
        cw.line(&line, 0.0, y as f32, 420.0, y as f32);
    }
    c.draw(cw.words()).unwrap();
    let rgb = read_rgb(&c);
    // (observation row 63 holds canvas rows 438 and 439, which no line covers)
    for y in 0..63 {
        for x in [0, 17, 40, 63] {
            let v = px(&rgb, 64, x, y)[0];
            assert!((99..=101).contains(&v), "({x}, {y}): {v}");
        }
    }
}

#[test]
fn shapes_drawn_again_over_a_trail_match_the_canvas_area_averaged() {
    // A frame over a trail (a translucent background over the last frame): the canvas
    // pixels under still shapes keep what the background leaves of last frame's
    // shapes. The reference is the same frames drawn at canvas resolution, then
    // area-averaged (RMS 1.7, worst 10 levels); blended at observation size, a pixel
    // partly covered kept a share of last frame's shapes over its whole area (RMS
    // 17.6, worst 96).
    let frame = |first: bool| {
        let mut cw = CommandWriter::new();
        if first {
            cw.canvas(128.0, 128.0).background(Rgba::new(0, 0, 0, 255));
        }
        cw.background(Rgba::new(20, 30, 50, 40));
        cw.ellipse(&stroke(Rgba::new(120, 220, 255, 255), 3.0, Cap::Round, Join::Miter), 64.0, 64.0, 37.5, 37.5);
        let mut both = fill(Rgba::new(200, 60, 60, 255));
        both.stroke = Rgba::new(250, 250, 120, 255);
        both.weight = 2.0;
        cw.rect(&both, 10.3, 90.6, 33.5, 21.3);
        cw
    };
    let draw = |side: u32| {
        let mut c = canvas(side, side);
        for k in 0..30 {
            c.draw(frame(k == 0).words()).unwrap();
        }
        read_rgb(&c)
    };
    let (fine, obs) = (draw(128), draw(32));
    let (mut sum, mut worst) = (0f64, 0f64);
    for y in 0..32 {
        for x in 0..32 {
            for ch in 0..3 {
                let mut want = 0f64;
                for j in 0..4 {
                    for i in 0..4 {
                        want += fine[3 * ((4 * y + j) * 128 + 4 * x + i) + ch] as f64 / 16.0;
                    }
                }
                let d = obs[3 * (y * 32 + x) + ch] as f64 - want;
                sum += d * d;
                worst = worst.max(d.abs());
            }
        }
    }
    let rms = (sum / (32.0 * 32.0 * 3.0)).sqrt();
    assert!(rms <= 2.0 && worst <= 16.0, "RMS {rms:.2}, worst {worst:.1} levels");
}

/// The canvas rows of a 400 x 400 canvas after `frames` frames of a sky of one-pixel
/// lines at every whole y (`colour(y)`, opaque) over black, as Chromium's canvas
/// blends them: each line covers half of the row above its y and half of the row
/// below, and Skia blends a half-covered opaque pixel as
/// `(s * 129 >> 8) + (d * 128 >> 8)` (measured there on every pair of 8-bit values).
fn browser_sky_rows(frames: usize, colour: impl Fn(usize) -> [u8; 3]) -> Vec<[u8; 3]> {
    let half = |d: u8, s: u8| ((s as u32 * 129 >> 8) + (d as u32 >> 1)) as u8;
    let mut rows = vec![[0u8; 3]; 400];
    for _ in 0..frames {
        for y in 0..400 {
            let c = colour(y);
            for row in [y.wrapping_sub(1), y] {
                if let Some(r) = rows.get_mut(row) {
                    *r = std::array::from_fn(|ch| half(r[ch], c[ch]));
                }
            }
        }
    }
    rows
}

#[test]
fn a_sky_of_lines_drawn_frame_after_frame_settles_where_the_browser_s_does() {
    // A gradient sky in place of background(), 30 frames. The browser truncates both
    // halves of every blend, twice a frame per canvas row, and what the row keeps of
    // the last frame carries the loss on: its sky settles one to two levels below the
    // exact blend's (which this matched within 2 levels, 1.3 on average in red).
    let colour = |y: usize| {
        let t = y as f32 / 400.0;
        [20.0 + 70.0 * t, 24.0 + 16.0 * t, 60.0 + 50.0 * t].map(|v| v.round() as u8)
    };
    let rows = browser_sky_rows(30, colour);
    let mut c = canvas(64, 64);
    let mut cw = CommandWriter::new();
    cw.canvas(400.0, 400.0).background(Rgba::new(0, 0, 0, 255));
    c.draw(cw.words()).unwrap();
    for _ in 0..30 {
        let mut cw = CommandWriter::new();
        for y in 0..400 {
            let [r, g, b] = colour(y);
            cw.line(&stroke(Rgba::new(r, g, b, 255), 1.0, Cap::Butt, Join::Miter), 0.0, y as f32, 400.0, y as f32);
        }
        c.draw(cw.words()).unwrap();
    }
    let rgb = read_rgb(&c);
    let (mut sum, mut worst) = ([0f64; 3], 0f64);
    for j in 0..64 {
        // the observation row averages the canvas rows it spans (6.25 of them)
        let (top, bottom) = (j as f64 * 6.25, (j + 1) as f64 * 6.25);
        let mut want = [0f64; 3];
        for (k, row) in rows.iter().enumerate() {
            let share = ((k + 1) as f64).min(bottom) - (k as f64).max(top);
            if share > 0.0 {
                (0..3).for_each(|ch| want[ch] += share / 6.25 * row[ch] as f64);
            }
        }
        let got = px(&rgb, 64, 30, j);
        for ch in 0..3 {
            let d = got[ch] as f64 - want[ch];
            sum[ch] += d / 64.0;
            worst = worst.max(d.abs());
        }
    }
    assert!(sum.iter().all(|m| m.abs() <= 0.5), "mean difference per channel {sum:?}");
    assert!(worst <= 1.5, "worst difference {worst}");
}

#[test]
fn what_follows_a_run_of_bands_draws_over_the_run_s_last_rows() {
    // A run writes an observation row once it moves past it (canvas/bands.rs): every
    // other command, a line that starts another run or that is no band, and the end of
    // the stream see the rows as the run left them, and what they draw stays.
    let sky = |cw: &mut CommandWriter| {
        cw.canvas(400.0, 400.0).background(Rgba::new(0, 0, 0, 255));
        for y in 0..200 {
            let c = Rgba::new(200, (y / 2) as u8, 40, 255);
            cw.line(&stroke(c, 1.0, Cap::Butt, Join::Miter), 0.0, y as f32, 400.0, y as f32);
        }
    };
    let draw_at = |cw: &CommandWriter| {
        let mut c = canvas(64, 64);
        c.draw(cw.words()).unwrap();
        read_rgb(&c)
    };
    let mut alone = CommandWriter::new();
    sky(&mut alone);
    let base = draw_at(&alone);
    let red = Rgba::new(255, 0, 0, 255);
    let covering: [(&str, fn(&mut CommandWriter)); 3] = [
        ("opaque rect", |cw| {
            cw.rect(&fill(Rgba::new(255, 0, 0, 255)), 0.0, 150.0, 400.0, 50.0);
        }),
        ("diagonal line", |cw| {
            cw.line(&stroke(Rgba::new(255, 0, 0, 255), 60.0, Cap::Butt, Join::Miter), 0.0, 175.0, 400.0, 176.0);
        }),
        ("thick axis line", |cw| {
            cw.line(&stroke(Rgba::new(255, 0, 0, 255), 50.0, Cap::Butt, Join::Miter), 0.0, 175.0, 400.0, 175.0);
        }),
    ];
    for (name, follow) in covering {
        let mut cw = CommandWriter::new();
        sky(&mut cw);
        follow(&mut cw);
        let rgb = draw_at(&cw);
        // the rows the follower covers whole are red; those above it as the sky alone
        // (row 31 holds the run's last lines)
        for y in [28, 31] {
            assert_eq!(px(&rgb, 64, 30, y), [red.r, red.g, red.b], "{name}: covered row {y}");
        }
        for y in [2, 12, 20] {
            assert_eq!(px(&rgb, 64, 30, y), px(&base, 64, 30, y), "{name}: sky row {y}");
        }
    }
    // another run (translucent: bands, not boxes; a narrower extent) starts from the
    // pixels the first one left, as it does in a frame drawn over the sky's
    let narrower = |cw: &mut CommandWriter| {
        for y in (150..200).rev() {
            cw.line(&stroke(Rgba::new(255, 0, 0, 200), 1.0, Cap::Butt, Join::Miter), 0.0, y as f32, 399.0, y as f32);
        }
    };
    let mut cw = CommandWriter::new();
    sky(&mut cw);
    narrower(&mut cw);
    let mut over = canvas(64, 64);
    over.draw(alone.words()).unwrap();
    let mut second = CommandWriter::new();
    narrower(&mut second);
    over.draw(second.words()).unwrap();
    assert_eq!(draw_at(&cw), read_rgb(&over), "a second run in the stream and over the last frame");
    assert_ne!(read_rgb(&over), base, "the second run drew");
}

#[test]
fn bands_of_a_narrower_run_blend_only_their_own_columns() {
    // A sky of full-width translucent bands, then, in the next frame (drawn over it),
    // one of left-half bands: the right half keeps what the first frame left, the
    // left half changes (each run blends the columns of its own bands).
    let sky = |x1: f32, colour: Rgba| {
        let mut cw = CommandWriter::new();
        for y in 0..400 {
            cw.line(&stroke(colour, 1.0, Cap::Butt, Join::Miter), 0.0, y as f32, x1, y as f32);
        }
        cw
    };
    let mut c = canvas(64, 64);
    let mut first = CommandWriter::new();
    first.canvas(400.0, 400.0).background(Rgba::new(0, 0, 0, 255));
    c.draw(first.words()).unwrap();
    c.draw(sky(400.0, Rgba::new(40, 200, 90, 160)).words()).unwrap();
    let before = read_rgb(&c);
    c.draw(sky(200.0, Rgba::new(250, 20, 20, 160)).words()).unwrap();
    let after = read_rgb(&c);
    for y in [3, 30, 60] {
        for x in [33, 40, 63] {
            assert_eq!(px(&after, 64, x, y), px(&before, 64, x, y), "right half ({x}, {y})");
        }
        assert!(px(&after, 64, 10, y)[0] > px(&before, 64, 10, y)[0] + 50, "left half (10, {y})");
    }
}
