//! Rasterizer-only timing on synthetic scenes shaped like the bundled games' frames
//! (400x400 canvas drawn at 64x64): nanoseconds per frame and a checksum of the
//! pixels, so that a change to a raster stage can be timed without the interpreter
//! and checked to draw the same pixels.
//!
//!     cargo run --release --no-default-features --example raster_scenes [seconds]
//!     raster_scenes --reps 200 [scene]   # fixed work, for `perf stat -e instructions`

use jsgym_native::command::{CommandWriter, Rgba, Style};
use jsgym_native::{Canvas, Fit};
use std::time::Instant;

fn style(r: u8, g: u8, b: u8) -> Style {
    Style { fill: Rgba::new(r, g, b, 255), stroke: Rgba::new(0, 0, 0, 0), ..Style::default() }
}

/// Breakout: walls, 6 rows of 14 bricks, paddle, ball.
fn bricks(w: &mut CommandWriter, frame: u32) {
    w.background(Rgba::new(0, 0, 0, 255));
    let grey = style(142, 142, 142);
    w.rect(&grey, 0.0, 40.0, 400.0, 10.0).rect(&grey, 0.0, 40.0, 10.0, 360.0).rect(&grey, 390.0, 40.0, 10.0, 360.0);
    let bw = 380.0 / 14.0;
    for r in 0..6 {
        let s = style(200 - 20 * r as u8, 60 + 25 * r as u8, 64);
        for c in 0..14 {
            w.rect(&s, 10.0 + c as f32 * bw, 96.0 + r as f32 * 14.0, bw, 14.0);
        }
    }
    let f = frame as f32;
    w.rect(&style(200, 72, 72), 150.0 + (f * 3.7) % 200.0, 364.0, 48.0, 10.0);
    w.rect(&style(255, 255, 255), 37.0 + (f * 5.3) % 300.0, 200.0 + (f * 2.1) % 150.0, 10.0, 10.0);
}

/// A scrolling tile map: runs of 1-4 tiles of 400/13 px, at a fractional offset.
fn tiles(w: &mut CommandWriter, frame: u32) {
    w.background(Rgba::new(150, 200, 240, 255));
    let s = 400.0 / 13.0;
    let off = -((frame as f32 * 0.37) % s);
    let wall = style(120, 84, 56);
    let top = style(90, 180, 70);
    for y in 0..15u32 {
        let mut x = 0u32;
        while x < 15 {
            let run = 1 + (x * 7 + y * 3) % 4;
            if (x + y) % 3 != 0 {
                w.rect(&wall, off + x as f32 * s, y as f32 * s - 10.0, run as f32 * s, s);
                w.rect(&top, off + x as f32 * s, y as f32 * s - 10.0, run as f32 * s, s * 0.35);
            }
            x += run + 1;
        }
    }
}

/// Bigfish: 30 fish bodies (ellipses) and tails (triangles as paths).
fn ellipses(w: &mut CommandWriter, frame: u32) {
    use jsgym_native::command::Verb;
    w.background(Rgba::new(20, 40, 90, 255));
    for k in 0..30u32 {
        let x = ((k * 97 + frame * 3) % 400) as f32 + 0.3;
        let y = ((k * 53) % 400) as f32 + 0.7;
        let r = 6.0 + (k % 7) as f32 * 3.0;
        let s = style(100 + (k * 5) as u8, 150, 80);
        w.ellipse(&s, x, y, r, r * 0.6);
        w.path(&s, &[Verb::Move(x - r, y), Verb::Line(x - r * 1.6, y - r * 0.5), Verb::Line(x - r * 1.6, y + r * 0.5), Verb::Close]);
    }
}

/// Q*bert: a pyramid of 28 cubes, three quads each.
fn quads(w: &mut CommandWriter, frame: u32) {
    use jsgym_native::command::Verb;
    w.background(Rgba::new(0, 0, 0, 255));
    let q = |w: &mut CommandWriter, s: &Style, p: [f32; 8]| {
        w.path(s, &[Verb::Move(p[0], p[1]), Verb::Line(p[2], p[3]), Verb::Line(p[4], p[5]), Verb::Line(p[6], p[7]), Verb::Close]);
    };
    let (cw, ch) = (40.0f32, 30.0f32);
    for row in 0..7 {
        for i in 0..=row {
            let cx = 200.0 + (i as f32 - row as f32 / 2.0) * cw;
            let cy = 60.0 + row as f32 * ch * 1.5;
            let top = if (row + i + frame as usize / 8) % 2 == 0 { style(220, 200, 60) } else { style(60, 90, 200) };
            q(w, &top, [cx, cy, cx + cw / 2.0, cy + ch / 2.0, cx, cy + ch, cx - cw / 2.0, cy + ch / 2.0]);
            q(w, &style(120, 120, 160), [cx - cw / 2.0, cy + ch / 2.0, cx, cy + ch, cx, cy + 2.0 * ch, cx - cw / 2.0, cy + 1.5 * ch]);
            q(w, &style(70, 70, 100), [cx, cy + ch, cx + cw / 2.0, cy + ch / 2.0, cx + cw / 2.0, cy + 1.5 * ch, cx, cy + 2.0 * ch]);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fixed_reps: Option<u64> = (args.first().map(String::as_str) == Some("--reps"))
        .then(|| args.get(1).and_then(|s| s.parse().ok()).expect("--reps N"));
    let only = if fixed_reps.is_some() { args.get(2).cloned() } else { None };
    let seconds: f64 = if fixed_reps.is_some() { 0.0 } else { args.first().and_then(|s| s.parse().ok()).unwrap_or(0.5) };
    let scenes: [(&str, fn(&mut CommandWriter, u32)); 4] =
        [("bricks", bricks), ("tiles", tiles), ("ellipses", ellipses), ("quads", quads)];
    println!("| scene | ns per frame | checksum |");
    println!("|---|---|---|");
    for (name, build) in scenes {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        // 64 distinct frames, built once: only drawing is timed.
        let frames: Vec<Vec<u32>> = (0..64)
            .map(|f| {
                let mut w = CommandWriter::new();
                w.canvas(400.0, 400.0);
                build(&mut w, f);
                w.words().to_vec()
            })
            .collect();
        let mut canvas = Canvas::new(64, 64, Fit::Stretch, 1).expect("canvas");
        let mut sum = 0u64;
        for f in &frames {
            canvas.draw(f).expect("draw");
            sum = canvas.pixels().iter().fold(sum, |a, &p| a.wrapping_mul(31).wrapping_add(p as u64));
        }
        if let Some(reps) = fixed_reps {
            let t0 = Instant::now();
            for _ in 0..reps {
                for f in &frames {
                    canvas.draw(f).expect("draw");
                }
            }
            let ns = t0.elapsed().as_secs_f64() * 1e9 / (reps * frames.len() as u64) as f64;
            println!("| {name} | {ns:.0} | {sum:016x} |");
            continue;
        }
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            let (mut n, t0) = (0u64, Instant::now());
            while t0.elapsed().as_secs_f64() < seconds / 5.0 {
                for f in &frames {
                    canvas.draw(f).expect("draw");
                }
                n += frames.len() as u64;
            }
            best = best.min(t0.elapsed().as_secs_f64() * 1e9 / n as f64);
        }
        println!("| {name} | {best:.0} | {sum:016x} |");
    }
}
