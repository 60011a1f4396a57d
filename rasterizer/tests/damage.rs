//! Drawing only the pixels a frame changes since the last one (`Canvas::draw` and
//! `damage`) must give exactly what drawing the whole stream on a fresh canvas gives,
//! whatever came before.

mod common;

use common::*;
use jsgym_native::command::{ArcMode, Cap, Join, Verb};
use jsgym_native::{Canvas, CommandWriter, Fit, Rgba, Style};

/// A tiny deterministic generator (xorshift), so that the sequences are reproducible.
/// `f` hands out the positions of the moving shapes: each keeps last frame's value
/// nine times in ten, so that most frames differ from the last in a few places.
struct Rng(u64, Vec<f32>, usize);

impl Rng {
    fn start_frame(&mut self) {
        self.2 = 0;
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        let k = self.2;
        self.2 += 1;
        if k >= self.1.len() {
            self.1.resize(k + 1, -1.0);
        }
        if self.1[k] < 0.0 || self.below(10) == 0 {
            self.1[k] = self.below(1 << 20) as f32 / (1 << 20) as f32;
        }
        lo + (hi - lo) * self.1[k]
    }
}

/// A frame: opaque or translucent background, a static tile wall whose last rows
/// change now and then, then moving shapes (rects over tile edges, an ellipse, a
/// triangle), and sometimes a second opaque background halfway.
fn frame(rng: &mut Rng, t: u32, level: u32, size: &mut (f32, f32)) -> CommandWriter {
    let mut w = CommandWriter::new();
    if rng.below(6) == 0 {
        if rng.below(5) == 0 {
            *size = if size.0 == 400.0 { (300.0, 300.0) } else { (400.0, 300.0) };
        }
        w.canvas(size.0, size.1);
    }
    let alpha = if rng.below(10) == 0 { 90 } else { 255 };
    w.background(Rgba::new(30, 40, 50, alpha));
    let tile = 400.0 / 13.0;
    for r in 0..6u32 {
        for c in 0..13u32 {
            if (r * 7 + c * 3 + level) % 4 == 0 {
                continue;
            }
            let col = Rgba::new(100 + (r * 20) as u8, 80, (level * 40 % 256) as u8, 255);
            // some tiles outlined by a hairline, translucent or opaque (their edge
            // pixels' records are tinted, or keep fill and outline apart)
            let style = match (r + c) % 3 {
                0 => Style { fill: col, ..stroke(Rgba::new(0, 0, 0, 40), 1.0, Cap::Round, Join::Miter) },
                1 => Style { fill: col, ..stroke(Rgba::new(0, 0, 0, 255), 1.0, Cap::Round, Join::Miter) },
                _ => fill(col),
            };
            w.rect(&style, c as f32 * tile, 20.0 + r as f32 * 14.3, tile, 14.3);
        }
    }
    if rng.below(8) == 0 {
        w.background(Rgba::new(200, 10, 10, 255));
    }
    let x = (t as f32 * 7.3) % 380.0;
    w.rect(&fill(Rgba::new(250, 250, 250, 255)), x, 30.0 + rng.f(0.0, 60.0), 23.7, 9.1);
    w.rect(&fill(Rgba::new(0, 200, 0, 140)), rng.f(0.0, 380.0), rng.f(0.0, 280.0), 17.2, 11.9);
    let outlined = Style { fill: Rgba::new(200, 40, 40, 255), ..stroke(Rgba::new(255, 255, 255, 60), 1.0, Cap::Round, Join::Miter) };
    w.rect(&outlined, rng.f(0.0, 380.0), rng.f(20.0, 100.0), 21.3, 13.9);
    w.ellipse(&fill(Rgba::new(255, 220, 60, 255)), rng.f(0.0, 400.0), rng.f(0.0, 300.0), 7.0, 5.0);
    let (px, py) = (rng.f(20.0, 380.0), rng.f(20.0, 280.0));
    w.path(&fill(Rgba::new(90, 90, 250, 255)), &[Verb::Move(px, py), Verb::Line(px + 15.0, py + 4.0), Verb::Line(px + 2.0, py + 13.0), Verb::Close]);
    // Shapes that stay put between moving ones, of every kind the damage boxes must
    // bound: strokes with each cap and join, arcs, points, a rotated translucent
    // ellipse, a thick diagonal line.
    let still = (level % 3) as f32 * 31.0;
    let mut s = stroke(Rgba::new(240, 120, 20, 255), 6.0, Cap::Square, Join::Miter);
    s.fill = Rgba::new(20, 60, 200, 255);
    w.rect(&with_matrix(s, rotation_about(0.4, 120.0, 150.0)), 100.0 + still, 130.0, 40.0, 30.0);
    w.line(&stroke(WHITE, 3.0, Cap::Round, Join::Miter), 10.0, 290.0 - still, 390.0, 200.0);
    w.arc(&stroke(Rgba::new(0, 255, 255, 255), 4.0, Cap::Butt, Join::Round), 300.0, 80.0 + still, 40.0, 30.0, 0.3, 4.0, ArcMode::Pie);
    let (mx, my) = (rng.f(0.0, 400.0), rng.f(0.0, 300.0));
    w.line(&stroke(Rgba::new(255, 0, 255, 200), 9.0, Cap::Square, Join::Miter), mx, my, 400.0 - mx, 300.0 - my);
    w.point(&stroke(Rgba::new(255, 255, 0, 255), 7.0, Cap::Round, Join::Miter), rng.f(0.0, 400.0), rng.f(0.0, 300.0));
    w.ellipse(&with_matrix(fill(Rgba::new(255, 255, 255, 100)), rotation_about(1.1, 200.0, 150.0)), 200.0, 150.0 + still, 60.0, 20.0);
    let mut poly = stroke(Rgba::new(10, 250, 10, 255), 5.0, Cap::Butt, Join::Miter);
    poly.fill = Rgba::new(0, 0, 0, 0);
    let (qx, qy) = (rng.f(20.0, 380.0), 250.0);
    w.path(&poly, &[Verb::Move(qx, qy), Verb::Line(qx + 30.0, qy - 2.0), Verb::Line(qx + 1.0, qy + 8.0)]);
    if rng.below(40) == 0 {
        // A canvas resize late in the stream: the next frame starts with another view.
        *size = if size.0 == 400.0 { (300.0, 300.0) } else { (400.0, 300.0) };
        w.canvas(size.0, size.1);
        w.rect(&fill(Rgba::new(9, 9, 9, 255)), 3.3, 3.3, 40.0, 40.0);
    }
    w
}

/// The frames `chain` drawn on a new canvas that starts with the logical size `size`.
fn fresh(fit: Fit, chain: &[Vec<u32>], size: (f32, f32)) -> Vec<u8> {
    fresh_at(fit, 1, chain, size)
}

/// [`fresh`] at `supersample` device pixels per observation pixel.
fn fresh_at(fit: Fit, supersample: u32, chain: &[Vec<u32>], size: (f32, f32)) -> Vec<u8> {
    let mut c = canvas_at(fit, supersample, size);
    for words in chain {
        c.draw(words).unwrap();
    }
    c.pixels().to_vec()
}

/// A canvas of 64 x 48 observation pixels whose logical size is `size`.
fn canvas_at(fit: Fit, supersample: u32, size: (f32, f32)) -> Canvas {
    let mut c = Canvas::new(64, 48, fit, supersample).unwrap();
    let mut setup = CommandWriter::new();
    setup.canvas(size.0, size.1);
    c.draw(setup.words()).unwrap();
    c
}

/// 48 tiles of a 400 x 300 canvas at fractional positions, three rows of 16.
fn tile_wall(w: &mut CommandWriter) {
    for k in 0..48u32 {
        let col = Rgba::new(60 + (k * 13 % 190) as u8, 90, 140, 255);
        w.rect(&fill(col), (k % 16) as f32 * 25.3 + 0.4, 10.0 + (k / 16) as f32 * 13.7, 25.3, 13.7);
    }
}

fn same(got: &[u8], want: &[u8], what: &str) {
    if let Some(i) = got.iter().zip(want).position(|(a, b)| a != b) {
        let n = got.iter().zip(want).filter(|(a, b)| a != b).count();
        panic!("{what} differs from a full draw: {n} bytes, first at pixel {} ({} vs {})", i / 3, got[i], want[i]);
    }
}

/// Draws 400 frames on one canvas and checks each against a new canvas that draws
/// the frames since the last opaque one. Returns how many frames were opaque and how
/// many of those were drawn as damage only.
fn run(fit: Fit, seed: u64, supersample: u32) -> (usize, usize) {
    let mut rng = Rng(seed, Vec::new(), 0);
    let mut size = (400.0, 300.0);
    let mut canvas = canvas_at(fit, supersample, size);
    // What a new canvas must draw to hold what `canvas` holds: the frames since the
    // last one that started opaque, from the logical size before that one.
    let mut chain: Vec<Vec<u32>> = Vec::new();
    let mut chain_size = size;
    let mut level = 0;
    let mut opaque_frames = 0;
    let mut partial_frames = 0;
    let extend = |chain: &mut Vec<Vec<u32>>, chain_size: &mut (f32, f32), words: &[u32], before: (f32, f32)| {
        let opaque = words[0] != 2 || words[2] >> 24 == 255;
        if opaque {
            chain.clear();
            *chain_size = before;
        }
        chain.push(words.to_vec());
        opaque
    };
    for t in 0..400u32 {
        if rng.below(25) == 0 {
            level += 1;
        }
        let size_before = size;
        rng.start_frame();
        let w = frame(&mut rng, t, level, &mut size);
        let words = w.words().to_vec();
        // Now and then the same stream twice.
        let repeat = rng.below(7) == 0;
        for _ in 0..(1 + repeat as usize) {
            canvas.draw(&words).unwrap();
            partial_frames += canvas.redrawn_last().is_some() as usize;
            opaque_frames += extend(&mut chain, &mut chain_size, &words, size_before) as usize;
            same(canvas.pixels(), &fresh_at(fit, supersample, &chain, chain_size), &format!("frame {t} (seed {seed})"));
        }
        if rng.below(6) == 0 {
            // A frame that draws nothing changes nothing, and the next frame may
            // still resume from the snapshot taken before it.
            canvas.draw(&[]).unwrap();
            same(canvas.pixels(), &fresh_at(fit, supersample, &chain, chain_size), &format!("frame {t}: an empty frame after it"));
        }
        if rng.below(30) == 0 {
            // A stream with a broken tail: the commands before the bad one draw.
            let mut bad = words.clone();
            bad.extend_from_slice(&[4, 99]); // a rect header with a wrong length
            assert!(canvas.draw(&bad).is_err());
            extend(&mut chain, &mut chain_size, &words, size);
            same(canvas.pixels(), &fresh_at(fit, supersample, &chain, chain_size), &format!("frame {t}: the good part of a broken stream"));
        }
    }
    (opaque_frames, partial_frames)
}

/// [`run`], which must have drawn most frames opaque and enough of them as damage.
fn check_run(fit: Fit, seed: u64, supersample: u32) {
    let (opaque, partial) = run(fit, seed, supersample);
    assert!(opaque > 300 && partial > 30, "opaque {opaque}, drawn as damage {partial} (seed {seed})");
}

#[test]
fn incremental_frames_equal_full_draws_stretch() {
    for seed in 1..4 {
        check_run(Fit::Stretch, seed * 7919, 1);
    }
}

#[test]
fn incremental_frames_equal_full_draws_letterbox() {
    check_run(Fit::Letterbox, 104729, 1);
}

/// At two device pixels per observation pixel a canvas pixel straddles device pixels
/// on more edges, and an edge's coverage reaches every device pixel its canvas pixel
/// overlaps: the damage must include them.
#[test]
fn incremental_frames_equal_full_draws_supersampled() {
    for seed in 1..3 {
        check_run(Fit::Stretch, seed * 6271, 2);
    }
}

/// A prefix that flickers between two lengths (a paddle drawn after a wall of tiles,
/// still in one frame and moving in the next) keeps one snapshot instead of taking a
/// new one every other frame, and the frames stay those of full draws; a prefix that
/// grows by many commands (a scrolling map that stops) moves the snapshot at once.
#[test]
fn a_flickering_prefix_keeps_its_snapshot() {
    let mut canvas = canvas_at(Fit::Stretch, 1, (400.0, 300.0));
    for t in 0..40u32 {
        let mut w = CommandWriter::new();
        w.background(Rgba::new(10, 10, 10, 255));
        tile_wall(&mut w);
        // the paddle moves every other frame, seven balls every frame: more changed
        // commands than damage is drawn for, so that every frame is drawn whole and
        // may take a snapshot
        w.rect(&fill(Rgba::new(200, 72, 72, 255)), 30.0 + (t / 2) as f32 * 7.1, 260.0, 60.0, 9.3);
        for j in 0..7 {
            w.rect(&fill(WHITE), 50.0 + j as f32 * 40.0 + t as f32 * 5.3, 200.0 - t as f32 * 2.9, 7.7, 7.7);
        }
        canvas.draw(w.words()).unwrap();
        same(canvas.pixels(), &fresh(Fit::Stretch, &[w.words().to_vec()], (400.0, 300.0)), &format!("frame {t}"));
    }
    let flickering = canvas.snapshots_taken();
    assert!(flickering <= 2, "{flickering} snapshots over 40 frames");
    // the same scene scrolling every frame (nothing shared past the background), then
    // still: the first still frames share the whole map at once
    for t in 0..6u32 {
        let mut w = CommandWriter::new();
        w.background(Rgba::new(10, 10, 10, 255));
        w.rect(&fill(WHITE), 5.0 + t.min(3) as f32 * 11.3, 40.0, 300.0, 200.0);
        tile_wall(&mut w);
        canvas.draw(w.words()).unwrap();
        same(canvas.pixels(), &fresh(Fit::Stretch, &[w.words().to_vec()], (400.0, 300.0)), &format!("still frame {t}"));
        // the first frame drops the snapshot past the background and takes one at it;
        // frames 3, 4 and 5 are one stream: 4 shares it whole with 3 and moves the
        // snapshot past the map at once
        let want = match t { 0..=3 => 1, _ => 2 };
        assert_eq!(canvas.snapshots_taken() - flickering, want, "snapshots after still frame {t}");
    }
}

/// A few sprites moving after a wall of tiles (the stream's last commands all
/// changing) are drawn as damage, not by restoring the whole canvas and drawing the
/// rest of the stream, and the frames stay those of full draws.
#[test]
fn a_few_moved_sprites_after_a_wall_are_drawn_as_damage() {
    let mut canvas = canvas_at(Fit::Stretch, 1, (400.0, 300.0));
    let mut partial = 0;
    for t in 0..30u32 {
        let mut w = CommandWriter::new();
        w.background(Rgba::new(10, 10, 10, 255));
        tile_wall(&mut w);
        // four sprites, every one moving every frame
        for j in 0..4u32 {
            let (x, y) = (20.0 + j as f32 * 90.0 + t as f32 * 3.7, 120.0 + j as f32 * 30.0 - t as f32 * 1.3);
            w.rect(&fill(Rgba::new(200, 70 + 40 * j as u8, 72, 255)), x, y, 9.3, 7.9);
        }
        canvas.draw(w.words()).unwrap();
        partial += canvas.redrawn_last().is_some() as usize;
        same(canvas.pixels(), &fresh(Fit::Stretch, &[w.words().to_vec()], (400.0, 300.0)), &format!("frame {t}"));
    }
    assert!(partial >= 25, "{partial} of 30 frames drawn as damage");
}

/// The history-dependence the epochs remove: a record left by an earlier frame whose
/// result happens to equal the new background must not be trusted.
#[test]
fn records_do_not_survive_an_opaque_background() {
    let grey = {
        // Half of pixel column 0 covered with black over white gives level 128.
        let mut c = Canvas::new(4, 4, Fit::Stretch, 1).unwrap();
        let mut w = CommandWriter::new();
        w.canvas(4.0, 4.0).background(WHITE).rect(&fill(BLACK), 0.0, 0.0, 0.5, 4.0);
        c.draw(w.words()).unwrap();
        c.pixels()[0]
    };
    let mut first = CommandWriter::new();
    first.canvas(4.0, 4.0).background(WHITE).rect(&fill(BLACK), 0.0, 0.0, 0.5, 4.0);
    let mut second = CommandWriter::new();
    second.background(Rgba::new(grey, grey, grey, 255)).rect(&fill(Rgba::new(255, 0, 0, 255)), 0.5, 0.0, 0.5, 4.0);
    let mut c = Canvas::new(4, 4, Fit::Stretch, 1).unwrap();
    c.draw(first.words()).unwrap();
    c.draw(second.words()).unwrap();
    let mut reference = Canvas::new(4, 4, Fit::Stretch, 1).unwrap();
    reference.draw(second.words()).unwrap();
    assert_eq!(c.pixels(), reference.pixels());
}

/// Draws `frame(0)`, `frame(1)`, ... in turn on one 64 x 64 canvas of logical `size`,
/// and each also on a fresh canvas; `check(t, drawn, fresh)` gets both observations.
/// Returns the canvas the frames were drawn on in turn.
fn against_fresh_draws(size: (f32, f32), frames: usize, frame: impl Fn(usize) -> CommandWriter, mut check: impl FnMut(usize, &[u8], &[u8])) -> Canvas {
    let new_canvas = || {
        let mut c = Canvas::new(64, 64, Fit::Stretch, 1).unwrap();
        let mut cw = CommandWriter::new();
        cw.canvas(size.0, size.1);
        c.draw(cw.words()).unwrap();
        c
    };
    let mut c = new_canvas();
    for t in 0..frames {
        c.draw(frame(t).words()).unwrap();
        let mut fresh = new_canvas();
        fresh.draw(frame(t).words()).unwrap();
        check(t, &read_rgb(&c), &read_rgb(&fresh));
    }
    c
}

/// A frame that starts with opaque full-width bands covering the canvas (a gradient
/// drawn in place of `background()`) does not depend on what the canvas held: it is
/// drawn from the snapshot of the bands the frames share, and gives what the same
/// frame gives on a fresh canvas (within a level: each pixel row two bands share
/// keeps `1 - a - b` of what lay beneath, zero but for rounding).
#[test]
fn frames_starting_with_covering_bands_resume_and_match_a_fresh_draw() {
    let frame = |t: usize| {
        let mut cw = CommandWriter::new();
        for k in 0..100 {
            let v = (40 + k) as u8;
            cw.rect(&fill(Rgba::new(v, 2 * v / 3, 255 - v, 255)), 0.0, 4.0 * k as f32, 500.0, 4.0);
        }
        cw.ellipse(&fill(WHITE), 60.0 + 7.3 * t as f32, 150.0 + 3.1 * t as f32, 12.0, 12.0);
        cw.rect(&fill(Rgba::new(250, 60, 40, 255)), 300.0 - 5.7 * t as f32, 90.0, 33.3, 21.7);
        cw
    };
    let c = against_fresh_draws((500.0, 400.0), 12, frame, |t, got, want| {
        let worst = got.iter().zip(want).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
        assert!(worst <= 1, "frame {t}: {worst} levels from a fresh draw");
    });
    assert!(c.snapshots_taken() > 0, "no frame was drawn from a snapshot of the bands");
}

/// So does a frame that starts with a tile map covering the canvas (a checkerboard
/// floor of 20 x 20 tiles drawn in place of `background()`, its tiles' edges on
/// canvas pixel edges but inside observation pixels).
#[test]
fn frames_starting_with_a_covering_tile_map_resume_and_match_a_fresh_draw() {
    let frame = |t: usize| {
        let mut cw = CommandWriter::new();
        for row in 0..20 {
            for col in 0..25 {
                let v = if (row + col) % 2 == 0 { 92 } else { 100 };
                cw.rect(&fill(Rgba::new(v, v - 6, v - 22, 255)), 20.0 * col as f32, 20.0 * row as f32, 20.0, 20.0);
            }
        }
        cw.ellipse(&fill(WHITE), 60.0 + 7.3 * t as f32, 150.0 + 3.1 * t as f32, 12.0, 12.0);
        cw.rect(&fill(Rgba::new(250, 60, 40, 255)), 300.0 - 5.7 * t as f32, 90.0, 33.3, 21.7);
        cw
    };
    let c = against_fresh_draws((500.0, 400.0), 12, frame, |t, got, want| {
        let worst = got.iter().zip(want).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
        assert!(worst <= 1, "frame {t}: {worst} levels from a fresh draw");
    });
    assert!(c.snapshots_taken() > 0, "no frame was drawn from a snapshot of the tiles");
}

/// Tiles whose edges split canvas pixels, or that leave a canvas pixel uncovered, do
/// not start a frame afresh: the browser's canvas keeps some of what lay beneath.
#[test]
fn frames_starting_with_tiles_that_leave_the_last_frame_showing_are_drawn_over_it() {
    for (tile, cols) in [(20.5f32, 25), (20.0, 24)] {
        let frame = |_t: usize| {
            let mut cw = CommandWriter::new();
            for row in 0..20 {
                for col in 0..cols {
                    cw.rect(&fill(Rgba::new(92, 86, 70, 255)), tile * col as f32, tile * row as f32, tile, tile);
                }
            }
            cw
        };
        let mut c = Canvas::new(64, 64, Fit::Stretch, 1).unwrap();
        let mut first = CommandWriter::new();
        first.canvas(500.0, 400.0);
        c.draw(first.words()).unwrap();
        for t in 0..4 {
            c.draw(frame(t).words()).unwrap();
        }
        assert_eq!(c.snapshots_taken(), 0, "tiles of {tile}, {cols} columns");
    }
}

/// A prefix that wanders among lengths (a board redrawn each frame with the tiles
/// from the 20th, 120th or 90th of 200 on changed, in turn) would move the snapshot
/// forward and give it up again nearly every frame, each copying the canvas and its
/// records; once a snapshot is given up within two frames, it moves forward only to
/// a prefix that five frames in a row share. The frames still match fresh draws.
#[test]
fn a_wandering_prefix_does_not_take_a_snapshot_every_frame() {
    let frame = |t: usize| {
        let mut cw = CommandWriter::new();
        cw.background(Rgba::new(20, 30, 40, 255));
        let changed = [20, 120, 90][t % 3];
        for k in 0..200 {
            let v = if k >= changed { (t % 7) as u8 * 30 } else { 200 };
            cw.rect(&fill(Rgba::new(v, 100, 50, 255)), 25.0 * (k % 20) as f32 + 0.5, 40.0 * (k / 20) as f32, 25.0, 40.0);
        }
        cw
    };
    let c = against_fresh_draws((500.0, 400.0), 30, frame, |t, got, want| {
        let worst = got.iter().zip(want).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
        assert!(worst <= 1, "frame {t}: {worst} levels from a fresh draw");
    });
    // (3 here; 20 when every wandering frame moved the snapshot on)
    assert!(c.snapshots_taken() <= 6, "{} snapshots in 30 frames", c.snapshots_taken());
}

/// A snapshot taken while a frame is drawn from an earlier one (the shared prefix
/// grew: more tiles stay put) keeps the earlier snapshot's partial-coverage records:
/// opaque shapes drawn later over the tiles' fractional edges composite through them
/// as on a fresh canvas, frame after frame.
#[test]
fn a_snapshot_taken_over_a_restored_one_keeps_its_records() {
    let frame = |t: usize| {
        let mut cw = CommandWriter::new();
        cw.background(Rgba::new(20, 30, 40, 255));
        let tile = 400.0 / 13.0;
        // tiles at fractional edges, still in every frame; a second block of them
        // from frame 4 on (the prefix the frames share grows by 26 commands)
        for (r, rows) in [(0u32, 0..3u32), (1, 3..6)] {
            if r == 1 && t < 4 {
                continue;
            }
            for row in rows {
                for c in 0..13u32 {
                    let col = Rgba::new(90 + (row * 25) as u8, (c * 17) as u8, 120, 255);
                    cw.rect(&fill(col), c as f32 * tile, 10.3 + row as f32 * 17.1, tile, 17.1);
                }
            }
        }
        // a wide opaque bar that moves over the tiles' edges (most of the canvas is
        // damaged: each frame is drawn whole from the snapshot)
        let y = 5.0 + 11.3 * (t % 3) as f32;
        cw.rect(&fill(Rgba::new(240, 230, 200, 255)), 3.3 + 1.7 * t as f32, y, 390.0, 120.7);
        cw
    };
    let c = against_fresh_draws((400.0, 300.0), 10, frame, |t, got, want| {
        let differ = got.iter().zip(want).filter(|(a, b)| a != b).count();
        assert_eq!(differ, 0, "frame {t}: {differ} channels differ from a fresh draw");
    });
    assert!(c.snapshots_taken() >= 2, "the snapshot did not move forward: {}", c.snapshots_taken());
}
