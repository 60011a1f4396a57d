//! Micro benchmark (ignored by default): nanoseconds per Pong-like frame.
//! Run: `cargo test --release --no-default-features --test bench -- --ignored --nocapture`

mod common;

use std::time::Instant;

use common::*;
use jsgym_native::{Canvas, CommandWriter, Fit, Rgba, Style};

/// Background, two paddles, three net dashes, a ball: the frame of a typical Pong.
fn pong(cw: &mut CommandWriter, t: f32, style: impl Fn(Rgba) -> Style) {
    cw.background(Rgba::new(20, 20, 30, 255));
    cw.rect(&style(WHITE), 20.0, 150.0 + 40.0 * t.sin(), 10.0, 80.0);
    cw.rect(&style(WHITE), 370.0, 170.0 - 30.0 * t.cos(), 10.0, 80.0);
    for k in 0..3 {
        cw.rect(&style(Rgba::new(120, 120, 120, 255)), 198.0, 20.0 + 140.0 * k as f32, 4.0, 80.0);
    }
    cw.ellipse(&style(Rgba::new(255, 220, 60, 255)), 200.0 + 120.0 * t.cos(), 200.0 + 90.0 * t.sin(), 6.0, 6.0);
}

fn bench(name: &str, ss: u32, style: impl Fn(Rgba) -> Style + Copy) -> f64 {
    let mut c = Canvas::new(64, 64, Fit::Stretch, ss).unwrap();
    let mut setup = CommandWriter::new();
    setup.canvas(400.0, 400.0);
    c.draw(setup.words()).unwrap();
    // Pre-build frames so the timing covers rasterization only.
    let frames: Vec<CommandWriter> = (0..64)
        .map(|i| {
            let mut cw = CommandWriter::new();
            pong(&mut cw, i as f32 * 0.1, style);
            cw
        })
        .collect();
    let mut out = vec![0u8; 64 * 64 * 3];
    let mut best = f64::INFINITY;
    for _run in 0..5 {
        let n = 20_000;
        let t = Instant::now();
        for i in 0..n {
            c.draw(frames[i % frames.len()].words()).unwrap();
            c.read_rgb(&mut out);
        }
        best = best.min(t.elapsed().as_nanos() as f64 / n as f64);
    }
    println!("{name:<40} ss={ss}: {best:8.0} ns/frame (draw + read_rgb, best of 5 x 20000)");
    best
}

#[test]
#[ignore]
fn pong_frame_ns() {
    let no_stroke = |c: Rgba| fill(c);
    let p5_default = |c: Rgba| Style { fill: c, ..Style::default() }; // black stroke, weight 1
    bench("pong, noStroke()", 1, no_stroke);
    bench("pong, noStroke()", 2, no_stroke);
    bench("pong, default stroke (black, weight 1)", 1, p5_default);
    bench("pong, default stroke (black, weight 1)", 2, p5_default);
}
