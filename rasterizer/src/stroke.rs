//! Stroke outlines: a user-space polyline becomes closed contours whose nonzero fill is
//! the stroked region.
//!
//! Outlines are built in user space (before the transform), so a non-uniform transform
//! scales the pen like canvas 2D does. Layout of the output:
//! - open contour: one closed loop, left side forward, end cap, right side backward,
//!   start cap;
//! - closed contour: two loops, the left side forward and the right side backward, with
//!   a join at every vertex including the start (their windings cancel inside the hole).
//!
//! Invariants: every emitted contour is closed; all loops of one stroke turn the same
//! way around covered area, so overlaps add winding of one sign (the coverage stage's
//! `min(|winding|, 1)` then treats them as covered). Inner joins use the intersection of
//! the two offset edges when both segments are long enough (no overlap, so the
//! coverage approximation stays exact there) and fall back to Skia's pivot through the
//! vertex otherwise. Outer joins: miter up to the fixed limit 10 (else bevel), bevel,
//! or round. Zero-length open contours draw a dot for round caps, an axis-aligned
//! square for square caps, nothing for butt caps (canvas 2D).

use crate::command::{Cap, Join};
use crate::flatten::Polylines;
use crate::geometry::Point;

/// Stroke parameters in user units.
#[derive(Clone, Copy, Debug)]
pub struct Pen {
    /// Half the stroke weight (> 0).
    pub hw: f64,
    /// Cap style.
    pub cap: Cap,
    /// Join style.
    pub join: Join,
    /// Largest angle step (radians) of round joins and caps, from the device tolerance.
    pub round_step: f64,
}

impl Pen {
    /// A pen of weight `weight` whose round pieces stay within `tol_device` of a true
    /// circle after a transform of largest singular value `scale`. `None` unless
    /// weight is finite and positive.
    pub fn new(weight: f64, cap: Cap, join: Join, scale: f64, tol_device: f64) -> Option<Pen> {
        if !(weight.is_finite() && weight > 0.0) {
            return None;
        }
        let hw = 0.5 * weight;
        let r = hw * scale;
        let step = if r > tol_device { 2.0 * (1.0 - tol_device / r).acos() } else { 1.0 };
        let round_step = if step.is_finite() { step.clamp(1e-3, std::f64::consts::FRAC_PI_8) } else { 0.3 };
        Some(Pen { hw, cap, join, round_step })
    }
}

/// Cap on points of one round piece.
const MAX_ROUND_POINTS: usize = 1024;

struct Seg {
    d: Point,
    len: f64,
}

/// Appends the outline of the polyline `pts` (consecutive points distinct) to `out`.
pub fn stroke_polyline(pts: &[Point], closed: bool, has_segment: bool, pen: &Pen, out: &mut Polylines, segs: &mut Vec<(Point, f64)>) {
    let mut n = pts.len();
    if closed && n > 1 && pts[0] == pts[n - 1] {
        n -= 1;
    }
    let pts = &pts[..n];
    if n == 0 {
        return;
    }
    if n == 1 {
        if !closed && has_segment {
            dot(pts[0], pen, out);
        }
        return;
    }
    segs.clear();
    let count = if closed { n } else { n - 1 };
    for i in 0..count {
        let a = pts[i];
        let b = pts[(i + 1) % n];
        let v = b.sub(a);
        let len = v.length();
        let d = if len > 0.0 && len.is_finite() { Point::new(v.x / len, v.y / len) } else { Point::new(1.0, 0.0) };
        segs.push((d, len));
    }
    let seg = |i: usize| Seg { d: segs[i].0, len: segs[i].1 };
    let neg = |s: Seg| Seg { d: Point::new(-s.d.x, -s.d.y), len: s.len };
    let hw = pen.hw;
    if closed {
        // Left loop, forward.
        out.move_to(pts[0].add_scaled(seg(n - 1).d.perp(), hw));
        for i in 0..n {
            join(out, pts[i], &seg((i + n - 1) % n), &seg(i), pen);
        }
        out.close();
        // Right loop, backward.
        out.move_to(pts[0].add_scaled(seg(n - 1).d.perp(), -hw));
        for i in (0..n).rev() {
            join(out, pts[i], &neg(seg(i)), &neg(seg((i + n - 1) % n)), pen);
        }
        out.close();
    } else {
        let last = count - 1;
        out.move_to(pts[0].add_scaled(seg(0).d.perp(), hw));
        for i in 1..n - 1 {
            join(out, pts[i], &seg(i - 1), &seg(i), pen);
        }
        out.line_to(pts[n - 1].add_scaled(seg(last).d.perp(), hw));
        cap(out, pts[n - 1], seg(last).d, pen);
        for i in (1..n - 1).rev() {
            join(out, pts[i], &neg(seg(i)), &neg(seg(i - 1)), pen);
        }
        out.line_to(pts[0].add_scaled(seg(0).d.perp(), -hw));
        let d0 = seg(0).d;
        cap(out, pts[0], Point::new(-d0.x, -d0.y), pen);
        out.close();
    }
}

/// The cap at `p` for a stroke arriving in direction `d`: from `p + hw*perp(d)` (already
/// emitted) to `p - hw*perp(d)` (emitted here).
fn cap(out: &mut Polylines, p: Point, d: Point, pen: &Pen) {
    let hw = pen.hw;
    let n = d.perp();
    match pen.cap {
        Cap::Butt => {}
        Cap::Square => {
            out.line_to(p.add_scaled(n, hw).add_scaled(d, hw));
            out.line_to(p.add_scaled(n, -hw).add_scaled(d, hw));
        }
        Cap::Round => round(out, p, n, -std::f64::consts::PI, pen),
    }
    out.line_to(p.add_scaled(n, -hw));
}

/// Emits the interior points of an arc of radius hw around `p`, from direction `u`
/// turning by `angle` (the end point is left to the caller).
fn round(out: &mut Polylines, p: Point, u: Point, angle: f64, pen: &Pen) {
    let steps = ((angle.abs() / pen.round_step).ceil() as usize).clamp(1, MAX_ROUND_POINTS);
    let da = angle / steps as f64;
    let (s, c) = da.sin_cos();
    // Interior vertices sit at the radius whose chords enclose the true sector area
    // (rho^2 sin(da) = r^2 da), so round caps and joins carry no inscribed-polygon deficit.
    let rho = pen.hw * area_radius_factor(da);
    let mut v = u;
    for _ in 1..steps {
        v = Point::new(v.x * c - v.y * s, v.x * s + v.y * c);
        out.line_to(p.add_scaled(v, rho));
    }
}

/// The join at vertex `p` between segments `a` (arriving) and `b` (leaving), on the
/// `perp` side of the travel direction.
fn join(out: &mut Polylines, p: Point, a: &Seg, b: &Seg, pen: &Pen) {
    let hw = pen.hw;
    let ua = a.d.perp();
    let ub = b.d.perp();
    let cross = a.d.cross(b.d);
    let dot = a.d.dot(b.d);
    if cross.abs() <= 1e-12 && dot > 0.0 {
        out.line_to(p.add_scaled(ua, hw));
        return;
    }
    let miter = |out: &mut Polylines| {
        let k = hw / (1.0 + dot);
        out.line_to(Point::new(p.x + (ua.x + ub.x) * k, p.y + (ua.y + ub.y) * k));
    };
    if cross > 0.0 {
        // Inner side: the offset edges cross. hw * tan(theta / 2) is how far the crossing
        // sits from the vertex along each segment.
        let retract = hw * cross / (1.0 + dot);
        if retract.is_finite() && retract <= 0.5 * a.len.min(b.len) {
            miter(out);
        } else {
            out.line_to(p.add_scaled(ua, hw));
            out.line_to(p);
            out.line_to(p.add_scaled(ub, hw));
        }
        return;
    }
    // Outer side (a U-turn counts as outer, turning clockwise through the old direction).
    // miter length / weight = 1 / cos(theta / 2) <= 10. The miter point lies on both
    // offset edges, so the offset end points around it are redundant.
    if pen.join == Join::Miter && (1.0 + dot) * 0.5 >= 0.01 {
        miter(out);
        return;
    }
    out.line_to(p.add_scaled(ua, hw));
    if pen.join == Join::Round {
        let angle = if cross == 0.0 { -std::f64::consts::PI } else { cross.atan2(dot) };
        round(out, p, ua, angle, pen);
    }
    out.line_to(p.add_scaled(ub, hw));
}

/// A zero-length stroke: dot or square by cap.
fn dot(p: Point, pen: &Pen, out: &mut Polylines) {
    let hw = pen.hw;
    match pen.cap {
        Cap::Butt => {}
        Cap::Square => {
            out.move_to(Point::new(p.x - hw, p.y - hw));
            out.line_to(Point::new(p.x + hw, p.y - hw));
            out.line_to(Point::new(p.x + hw, p.y + hw));
            out.line_to(Point::new(p.x - hw, p.y + hw));
            out.close();
        }
        Cap::Round => {
            let u = Point::new(1.0, 0.0);
            let steps = ((2.0 * std::f64::consts::PI / pen.round_step).ceil()).clamp(1.0, MAX_ROUND_POINTS as f64);
            out.move_to(p.add_scaled(u, hw * area_radius_factor(2.0 * std::f64::consts::PI / steps)));
            round(out, p, u, 2.0 * std::f64::consts::PI, pen);
            out.close();
        }
    }
}

/// `sqrt(da / sin(da))`: scale of a polygon radius whose chords of angle `da` enclose
/// the same area as the circle.
fn area_radius_factor(da: f64) -> f64 {
    let da = da.abs();
    if da < 1e-6 {
        1.0
    } else {
        (da / da.sin()).sqrt()
    }
}
