//! Resuming a frame from the previous frame's common prefix (`Canvas::draw`) must give
//! exactly what drawing the whole stream on a fresh canvas gives, whatever came before.

mod common;

use common::*;
use jsgym_native::command::Verb;
use jsgym_native::{Canvas, CommandWriter, Fit, Rgba};

/// A tiny deterministic generator (xorshift), so that the sequences are reproducible.
struct Rng(u64);

impl Rng {
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
        lo + (hi - lo) * (self.below(1 << 20) as f32 / (1 << 20) as f32)
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
            w.rect(&fill(col), c as f32 * tile, 20.0 + r as f32 * 14.3, tile, 14.3);
        }
    }
    if rng.below(8) == 0 {
        w.background(Rgba::new(200, 10, 10, 255));
    }
    let x = (t as f32 * 7.3) % 380.0;
    w.rect(&fill(Rgba::new(250, 250, 250, 255)), x, 30.0 + rng.f(0.0, 60.0), 23.7, 9.1);
    w.rect(&fill(Rgba::new(0, 200, 0, 140)), rng.f(0.0, 380.0), rng.f(0.0, 280.0), 17.2, 11.9);
    w.ellipse(&fill(Rgba::new(255, 220, 60, 255)), rng.f(0.0, 400.0), rng.f(0.0, 300.0), 7.0, 5.0);
    let (px, py) = (rng.f(20.0, 380.0), rng.f(20.0, 280.0));
    w.path(&fill(Rgba::new(90, 90, 250, 255)), &[Verb::Move(px, py), Verb::Line(px + 15.0, py + 4.0), Verb::Line(px + 2.0, py + 13.0), Verb::Close]);
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
    let mut c = Canvas::new(64, 48, fit, 1).unwrap();
    let mut setup = CommandWriter::new();
    setup.canvas(size.0, size.1);
    c.draw(setup.words()).unwrap();
    for words in chain {
        c.draw(words).unwrap();
    }
    c.pixels().to_vec()
}

fn same(got: &[u8], want: &[u8], what: &str) {
    if let Some(i) = got.iter().zip(want).position(|(a, b)| a != b) {
        let n = got.iter().zip(want).filter(|(a, b)| a != b).count();
        panic!("{what} differs from a full draw: {n} bytes, first at pixel {} ({} vs {})", i / 3, got[i], want[i]);
    }
}

/// Draws 400 frames on one canvas and checks each against a new canvas that draws
/// the frames since the last opaque one. Returns how many frames were opaque.
fn run(fit: Fit, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut canvas = Canvas::new(64, 48, fit, 1).unwrap();
    let mut size = (400.0, 300.0);
    let mut setup = CommandWriter::new();
    setup.canvas(size.0, size.1);
    canvas.draw(setup.words()).unwrap();
    // What a new canvas must draw to hold what `canvas` holds: the frames since the
    // last one that started opaque, from the logical size before that one.
    let mut chain: Vec<Vec<u32>> = Vec::new();
    let mut chain_size = size;
    let mut level = 0;
    let mut opaque_frames = 0;
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
        let w = frame(&mut rng, t, level, &mut size);
        let words = w.words().to_vec();
        // Now and then the same stream twice.
        let repeat = rng.below(7) == 0;
        for _ in 0..(1 + repeat as usize) {
            canvas.draw(&words).unwrap();
            opaque_frames += extend(&mut chain, &mut chain_size, &words, size_before) as usize;
            same(canvas.pixels(), &fresh(fit, &chain, chain_size), &format!("frame {t} (seed {seed})"));
        }
        if rng.below(6) == 0 {
            // A frame that draws nothing changes nothing, and the next frame may
            // still resume from the snapshot taken before it.
            canvas.draw(&[]).unwrap();
            same(canvas.pixels(), &fresh(fit, &chain, chain_size), &format!("frame {t}: an empty frame after it"));
        }
        if rng.below(30) == 0 {
            // A stream with a broken tail: the commands before the bad one draw.
            let mut bad = words.clone();
            bad.extend_from_slice(&[4, 99]); // a rect header with a wrong length
            assert!(canvas.draw(&bad).is_err());
            extend(&mut chain, &mut chain_size, &words, size);
            same(canvas.pixels(), &fresh(fit, &chain, chain_size), &format!("frame {t}: the good part of a broken stream"));
        }
    }
    opaque_frames
}

#[test]
fn incremental_frames_equal_full_draws_stretch() {
    for seed in 1..4 {
        assert!(run(Fit::Stretch, seed * 7919) > 300);
    }
}

#[test]
fn incremental_frames_equal_full_draws_letterbox() {
    assert!(run(Fit::Letterbox, 104729) > 300);
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
