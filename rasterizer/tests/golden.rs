//! Golden-image tests: one scene per test, compared exactly with
//! `tests/golden/<scene>.png`. Regenerate with `JSGYM_UPDATE_GOLDENS=1 cargo test
//! --release --no-default-features --test golden`; on mismatch the actual image and a
//! diff land in `target/golden-failures/`.

mod common;

use std::f32::consts::PI;

use common::*;
use jsgym_native::command::{ArcMode, Cap, Join, Verb};
use jsgym_native::{Canvas, CommandWriter, Fit, Rgba, Style};

fn render(w: u32, h: u32, fit: Fit, ss: u32, frames: &[CommandWriter]) -> Vec<u8> {
    let mut c = Canvas::new(w, h, fit, ss).unwrap();
    for f in frames {
        c.draw(f.words()).unwrap();
    }
    read_rgb(&c)
}

/// The Pong-like frame also used by the benchmark: background, paddles, net, ball.
pub fn pong_frame(cw: &mut CommandWriter, t: f32) {
    let white = fill(WHITE);
    cw.background(Rgba::new(20, 20, 30, 255));
    cw.rect(&white, 20.0, 150.0 + 40.0 * t.sin(), 10.0, 80.0);
    cw.rect(&white, 370.0, 170.0 - 30.0 * t.cos(), 10.0, 80.0);
    for k in 0..3 {
        cw.rect(&fill(Rgba::new(120, 120, 120, 255)), 198.0, 20.0 + 140.0 * k as f32, 4.0, 80.0);
    }
    cw.ellipse(&fill(Rgba::new(255, 220, 60, 255)), 200.0 + 120.0 * t.cos(), 200.0 + 90.0 * t.sin(), 6.0, 6.0);
}

#[test]
fn golden_pong() {
    let mut cw = CommandWriter::new();
    cw.canvas(400.0, 400.0);
    pong_frame(&mut cw, 0.7);
    check_golden("pong", 64, 64, &render(64, 64, Fit::Stretch, 1, &[cw]));
}

#[test]
fn golden_pong_supersampled() {
    let mut cw = CommandWriter::new();
    cw.canvas(400.0, 400.0);
    pong_frame(&mut cw, 0.7);
    check_golden("pong_ss2", 64, 64, &render(64, 64, Fit::Stretch, 2, &[cw]));
}

#[test]
fn golden_shapes() {
    let mut cw = CommandWriter::new();
    let red = Rgba::new(230, 60, 50, 255);
    let blue = Rgba::new(50, 90, 230, 200);
    let s = |f: Rgba, st: Rgba, w: f32, cap: Cap, join: Join| Style { fill: f, stroke: st, weight: w, cap, join, ..Style::default() };
    cw.canvas(200.0, 200.0).background(Rgba::new(240, 240, 235, 255));
    cw.rect(&with_matrix(s(red, BLACK, 3.0, Cap::Round, Join::Miter), rotation_about(0.4, 50.0, 50.0)), 25.0, 30.0, 50.0, 40.0);
    cw.rounded_rect(&s(blue, BLACK, 2.0, Cap::Round, Join::Round), 110.0, 20.0, 70.0, 50.0, [12.0, 0.0, 20.0, 5.0]);
    cw.ellipse(&s(Rgba::new(60, 180, 90, 255), Rgba::new(20, 60, 20, 255), 4.0, Cap::Round, Join::Miter), 60.0, 140.0, 35.0, 22.0);
    cw.arc(&s(Rgba::new(250, 200, 40, 255), BLACK, 2.0, Cap::Round, Join::Miter), 150.0, 140.0, 35.0, 35.0, 0.3, 1.5 * PI, ArcMode::Pie);
    cw.arc(&s(NONE, Rgba::new(120, 0, 160, 255), 5.0, Cap::Butt, Join::Miter), 150.0, 140.0, 45.0, 45.0, 1.6 * PI, 2.0 * PI, ArcMode::Open);
    cw.line(&stroke(Rgba::new(0, 0, 0, 160), 6.0, Cap::Square, Join::Miter), 10.0, 190.0, 190.0, 100.0);
    cw.path(
        &s(Rgba::new(255, 255, 255, 180), Rgba::new(200, 0, 100, 255), 3.0, Cap::Butt, Join::Bevel),
        &[Verb::Move(90.0, 90.0), Verb::Quad(120.0, 60.0, 140.0, 100.0), Verb::Cubic(150.0, 130.0, 100.0, 140.0, 95.0, 115.0), Verb::Line(80.0, 120.0)],
    );
    cw.point(&stroke(Rgba::new(0, 0, 255, 255), 9.0, Cap::Round, Join::Miter), 20.0, 20.0);
    cw.point(&stroke(Rgba::new(0, 0, 255, 255), 9.0, Cap::Square, Join::Miter), 180.0, 180.0);
    check_golden("shapes", 64, 64, &render(64, 64, Fit::Stretch, 1, &[cw]));
}

#[test]
fn golden_star_and_strokes_at_96x64() {
    let mut cw = CommandWriter::new();
    cw.canvas(300.0, 200.0).background(Rgba::new(10, 10, 10, 255));
    let pt = |k: usize| {
        let a = -PI / 2.0 + k as f32 * 4.0 * PI / 5.0;
        (80.0 + 70.0 * a.cos(), 100.0 + 70.0 * a.sin())
    };
    let mut verbs = vec![Verb::Move(pt(0).0, pt(0).1)];
    verbs.extend((1..5).map(|k| Verb::Line(pt(k).0, pt(k).1)));
    verbs.push(Verb::Close);
    cw.path(&Style { fill: Rgba::new(250, 210, 0, 255), stroke: Rgba::new(255, 80, 0, 255), weight: 4.0, join: Join::Round, ..Style::default() }, &verbs);
    for (i, join) in [Join::Miter, Join::Bevel, Join::Round].into_iter().enumerate() {
        let y = 40.0 + 55.0 * i as f32;
        cw.path(
            &stroke(Rgba::new(100, 200, 255, 255), 10.0, Cap::Butt, join),
            &[Verb::Move(180.0, y + 20.0), Verb::Line(220.0, y - 10.0), Verb::Line(260.0, y + 20.0), Verb::Line(285.0, y)],
        );
    }
    check_golden("star_strokes_96x64", 96, 64, &render(96, 64, Fit::Stretch, 1, &[cw]));
}

#[test]
fn golden_letterbox_trails() {
    // Three frames of a moving ball over a translucent background, letterboxed.
    let frames: Vec<CommandWriter> = (0..3)
        .map(|i| {
            let mut cw = CommandWriter::new();
            if i == 0 {
                cw.canvas(400.0, 300.0);
            }
            cw.background(Rgba::new(0, 0, 40, 60));
            cw.ellipse(&fill(Rgba::new(255, 255, 255, 255)), 100.0 + 90.0 * i as f32, 150.0 - 30.0 * i as f32, 25.0, 25.0);
            cw
        })
        .collect();
    check_golden("letterbox_trails", 64, 64, &render(64, 64, Fit::Letterbox, 1, &frames));
}

#[test]
fn golden_failure_writes_actual_and_diff() {
    // The comparison must be able to fail: a wrong image against the pong golden panics
    // and leaves the actual and diff images behind.
    if std::env::var("JSGYM_UPDATE_GOLDENS").map_or(false, |v| v == "1") {
        return;
    }
    let wrong = vec![0u8; 64 * 64 * 3];
    let r = std::panic::catch_unwind(|| check_golden("pong", 64, 64, &wrong));
    let msg = r.expect_err("a black image must not match the pong golden");
    let msg = msg.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("pong.actual.png") && msg.contains("pong.diff.png"), "message: {msg}");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/golden-failures");
    assert!(dir.join("pong.actual.png").exists() && dir.join("pong.diff.png").exists());
    let (w, h, rgb) = decode_png(&std::fs::read(dir.join("pong.actual.png")).unwrap()).unwrap();
    assert_eq!((w, h), (64, 64));
    assert_eq!(rgb, wrong, "PNG round trip");
    let _ = std::fs::remove_file(dir.join("pong.actual.png"));
    let _ = std::fs::remove_file(dir.join("pong.diff.png"));
}
