//! Dashed strokes (`JG_OP_DASH`: `drawingContext.setLineDash()` and
//! `lineDashOffset`): the stroke's centreline, in user space as the browser dashes
//! it, cut into its dashes, each stroked as an open contour with the line's caps (a
//! dash of no length is a dot or a square, as canvas 2D draws it).

use super::{Canvas, DrawError};
use crate::command::{Command, CommandWriter, Commands, Rgba, Style, Verb};
use crate::flatten::{self, Flattener, Polylines};
use crate::geometry::{Point, Rect};

/// Dashes one stroke may be cut into; beyond, it is drawn solid (a pattern far finer
/// than the pixels looks like a fainter solid line, and would cost without bound).
const MAX_DASHES: f64 = 20_000.0;

/// The dash pattern set (lengths in user units, on and off in turn, even in number)
/// and where along it each contour starts.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Dash {
    pub(super) offset: f32,
    pub(super) lens: Vec<f32>,
}

impl Canvas {
    /// A stroked rectangle, ellipse, line or path while a dash pattern is set: its fill
    /// as it is, then its stroke as the dashes of its centreline.
    pub(super) fn exec_dashed(&mut self, cmd: Command<'_>, style: Style, dash: &Dash) -> Result<(), DrawError> {
        let Some(m) = self.device_matrix(&style) else { return Ok(()) };
        let mut line = Polylines::default();
        // (curves within a twentieth of a device pixel)
        let tol = 0.05 / m.det().abs().sqrt().max(1e-12);
        let fl = Flattener::within(tol, Rect { x0: f64::MIN, y0: f64::MIN, x1: f64::MAX, y1: f64::MAX });
        let f = |v: f32| v as f64;
        let fill = (style.fill.a != 0).then(|| cmd.with_style(Style { stroke: Rgba::default(), ..style })).flatten();
        match cmd {
            Command::Rect { xywh, radii, .. } => {
                let [x, y, w, h] = super::normalized_rect(xywh);
                flatten::rounded_rect(&mut line, &fl, x, y, w, h, radii.map(|r| f(r).max(0.0)));
            }
            // (canvas 2D's ellipse(): from the rightmost point, clockwise on screen)
            Command::Ellipse { c, .. } => {
                let [cx, cy, rx, ry] = c.map(f);
                let (rx, ry) = (rx.abs(), ry.abs());
                let n = ((rx.max(ry) / tol).sqrt().ceil() as usize * 4).clamp(8, 4096);
                line.move_to(Point::new(cx + rx, cy));
                for k in 1..n {
                    let t = std::f64::consts::TAU * k as f64 / n as f64;
                    line.line_to(Point::new(cx + rx * t.cos(), cy + ry * t.sin()));
                }
                line.close();
            }
            Command::Line { p, .. } => {
                line.move_to(Point::new(f(p[0]), f(p[1])));
                line.line_to(Point::new(f(p[2]), f(p[3])));
            }
            Command::Path { verbs, .. } => {
                let p = |x: f32, y: f32| Point::new(f(x), f(y));
                for v in verbs.iter() {
                    match v {
                        Verb::Move(x, y) => line.move_to(p(x, y)),
                        Verb::Line(x, y) => line.line_to(p(x, y)),
                        Verb::Quad(a, b, x, y) => line.quad_to(&fl, p(a, b), p(x, y)),
                        Verb::Cubic(a, b, c, d, x, y) => line.cubic_to(&fl, p(a, b), p(c, d), p(x, y)),
                        Verb::Close => line.close(),
                    }
                }
            }
            _ => return self.exec(cmd),
        }
        if let Some(fill) = fill.filter(|_| !matches!(cmd, Command::Line { .. })) {
            self.exec(fill)?;
        }
        if line.pts.iter().any(|p| !p.is_finite()) {
            return Ok(());
        }
        let verbs = dashes(&line, dash);
        if verbs.is_empty() {
            return Ok(());
        }
        let mut words = CommandWriter::new();
        words.path(&Style { fill: Rgba::default(), ..style }, &verbs);
        let Some(Ok(stroke)) = Commands::new(words.words()).next() else { return Ok(()) };
        // (its dashes are the stroke: drawn as they are)
        let saved = self.dash.take();
        let r = self.exec(stroke);
        self.dash = saved;
        r
    }
}

/// The dashes of `line`'s contours as path verbs: each contour starts at the
/// pattern's offset. A pattern of no length, or one that would cut a contour into
/// more than [`MAX_DASHES`], leaves the contour whole.
fn dashes(line: &Polylines, dash: &Dash) -> Vec<Verb> {
    let lens: Vec<f64> = dash.lens.iter().map(|&v| v as f64).collect();
    let total: f64 = lens.iter().sum();
    let mut out = Vec::new();
    let p32 = |p: Point| (p.x as f32, p.y as f32);
    for c in &line.contours {
        let mut pts: Vec<Point> = line.contour_points(c).to_vec();
        if c.closed {
            pts.push(pts[0]);
        }
        if pts.len() < 2 {
            continue;
        }
        let length: f64 = pts.windows(2).map(|s| dist(s[0], s[1])).sum();
        if !(total > 0.0) || !total.is_finite() || length / total * lens.len() as f64 > MAX_DASHES {
            let (x, y) = p32(pts[0]);
            out.push(Verb::Move(x, y));
            for &p in &pts[1..] {
                let (x, y) = p32(p);
                out.push(Verb::Line(x, y));
            }
            if c.closed {
                out.push(Verb::Close);
            }
            continue;
        }
        // where the contour starts in the pattern
        let mut pos = (dash.offset as f64).rem_euclid(total);
        let mut i = 0;
        // (a dash of no length right at the start is a dot there)
        while pos >= lens[i] && !(pos == 0.0 && lens[i] == 0.0) {
            pos -= lens[i];
            i = (i + 1) % lens.len();
        }
        let mut left = lens[i] - pos;
        let mut on = i % 2 == 0;
        if on {
            let (x, y) = p32(pts[0]);
            out.push(Verb::Move(x, y));
        }
        for s in pts.windows(2) {
            let (a, b) = (s[0], s[1]);
            let seg = dist(a, b);
            let mut t = 0.0;
            while seg - t > left {
                t += left;
                let (x, y) = p32(Point::new(a.x + (b.x - a.x) * t / seg, a.y + (b.y - a.y) * t / seg));
                out.push(if on { Verb::Line(x, y) } else { Verb::Move(x, y) });
                on = !on;
                i = (i + 1) % lens.len();
                left = lens[i];
            }
            left -= seg - t;
            if on {
                let (x, y) = p32(b);
                out.push(Verb::Line(x, y));
            }
        }
    }
    out
}

fn dist(a: Point, b: Point) -> f64 {
    (b.x - a.x).hypot(b.y - a.y)
}

#[cfg(test)]
mod tests {
    use super::{dashes, Dash};
    use crate::command::Verb;
    use crate::flatten::Polylines;
    use crate::geometry::Point;

    fn line(len: f64) -> Polylines {
        let mut l = Polylines::default();
        l.move_to(Point::new(0.0, 0.0));
        l.line_to(Point::new(len, 0.0));
        l
    }

    #[test]
    fn a_line_is_cut_on_and_off_from_the_offset() {
        let v = dashes(&line(25.0), &Dash { offset: 0.0, lens: vec![10.0, 5.0] });
        assert_eq!(v, vec![Verb::Move(0.0, 0.0), Verb::Line(10.0, 0.0), Verb::Move(15.0, 0.0), Verb::Line(25.0, 0.0)]);
        // an offset moves the pattern back along the line
        let v = dashes(&line(20.0), &Dash { offset: 12.0, lens: vec![10.0, 5.0] });
        assert_eq!(v, vec![Verb::Move(3.0, 0.0), Verb::Line(13.0, 0.0), Verb::Move(18.0, 0.0), Verb::Line(20.0, 0.0)]);
        // (a negative one forward: the line starts 2 before the pattern's end)
        let v = dashes(&line(10.0), &Dash { offset: -2.0, lens: vec![4.0, 4.0] });
        assert_eq!(v, vec![Verb::Move(2.0, 0.0), Verb::Line(6.0, 0.0)]);
    }

    #[test]
    fn a_dash_of_no_length_is_a_dot_and_no_pattern_leaves_the_line_whole() {
        let v = dashes(&line(10.0), &Dash { offset: 0.0, lens: vec![0.0, 5.0] });
        assert_eq!(v, vec![Verb::Move(0.0, 0.0), Verb::Line(0.0, 0.0), Verb::Move(5.0, 0.0), Verb::Line(5.0, 0.0)]);
        let v = dashes(&line(10.0), &Dash { offset: 0.0, lens: vec![0.0, 0.0] });
        assert_eq!(v, vec![Verb::Move(0.0, 0.0), Verb::Line(10.0, 0.0)]);
    }

    #[test]
    fn a_closed_contour_is_dashed_around_its_closing_side() {
        let mut sq = Polylines::default();
        sq.move_to(Point::new(0.0, 0.0));
        for p in [(10.0, 0.0), (10.0, 10.0), (0.0, 10.0)] {
            sq.line_to(Point::new(p.0, p.1));
        }
        sq.close();
        let v = dashes(&sq, &Dash { offset: 0.0, lens: vec![15.0, 10.0] });
        // 40 long: on 0-15, off 15-25, on 25-40 (up the closing side to the start)
        assert_eq!(v, vec![Verb::Move(0.0, 0.0), Verb::Line(10.0, 0.0), Verb::Line(10.0, 5.0), Verb::Move(5.0, 10.0), Verb::Line(0.0, 10.0), Verb::Line(0.0, 0.0)]);
    }
}
