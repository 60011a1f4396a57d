"""Nanoseconds per p5 call, for every argument shape of the colour, vector, shape,
transform, text and math APIs, so that an idiom (``fill(c)`` with a ``color()``
object or a CSS string, ``p5.Vector`` methods, ``beginShape``/``vertex`` polygons)
can be held to the cost of the cheapest form of the same call. Writes
bench/results/p5_calls.md and p5_calls.csv.

Method: one generated game per form whose draw() runs the form ``--calls`` times in
a loop (``for (let i = 0; i < N; i++) { FORM }``), and an empty twin with the same
loop; the per-call cost is (JS ns per frame of the form - that of the twin) / N,
from the runtime's profile counters (JS time only: rasterizing the drawn shapes is
not counted). Every form and the twin run in alternating rounds on one pinned core
(1 env, 1 thread) and the median over rounds is kept, so that other processes do not
bias a difference. Forms are grouped by the call they are a form of; "x cheapest" is
a form's cost over the cheapest form of its group (the target: at most 2x).

Time at defaults (about 110 forms, 7 rounds of 8 frames of 2,000 calls): about 2 min;
--quick about 40 s.

    python bench/p5_calls.py                 # every form
    python bench/p5_calls.py --quick fill color vector
"""

from __future__ import annotations

import math
import pathlib
import statistics
import sys
import tempfile

import common
from common import log, pinned

# (group, label, setup code, loop body). Setup runs once in setup(); globals it
# assigns (without let/const) are visible in draw(). `i` is the loop index.
S_COL = "c1 = color(200, 100, 50); c2 = color(20, 40, 240);"
S_VEC = "v1 = createVector(3, 4); v2 = createVector(1, -2);"
FORMS: list[tuple[str, str, str, str]] = [
    # -- reference points
    ("reference", "empty loop body", "", ";"),
    ("reference", "a game's own JS function f(a, b, c)", "f3 = function (a, b, c) { return a; };",
     "f3(1, 2, 3);"),
    # -- fill / stroke / background: every argument shape
    ("fill", "fill(r, g, b) ints", "", "fill(200, 100, 50);"),
    ("fill", "fill(r, g, b) floats", "", "fill(200.5, 100.25, 50.75);"),
    ("fill", "fill(gray)", "", "fill(128);"),
    ("fill", "fill(gray, alpha)", "", "fill(128, 100);"),
    ("fill", "fill(r, g, b, a)", "", "fill(200, 100, 50, 128);"),
    ("fill", "fill(c) color() object", S_COL, "fill(c1);"),
    ("fill", "fill(c) after c.setAlpha()", S_COL + "c1.setAlpha(90);", "fill(c1);"),
    ("fill", "fill('#rrggbb')", "", "fill('#ff8800');"),
    ("fill", "fill('#rgb')", "", "fill('#f80');"),
    ("fill", "fill('rgb(r, g, b)')", "", "fill('rgb(255, 136, 0)');"),
    ("fill", "fill('rgba(r, g, b, a)')", "", "fill('rgba(255, 136, 0, 0.5)');"),
    ("fill", "fill('hsl(h, s%, l%)')", "", "fill('hsl(30, 100%, 50%)');"),
    ("fill", "fill('orange') named", "", "fill('orange');"),
    ("fill", "fill([r, g, b]) array literal", "", "fill([255, 136, 0]);"),
    ("fill", "fill(arr) array variable", "a3 = [255, 136, 0];", "fill(a3);"),
    ("fill", "fill(h, s, b) in HSB", "colorMode(HSB);", "fill(30, 80, 90);"),
    ("fill", "fill(`rgb(${i & 255}, 0, 0)`) new string each call", "",
     "fill(`rgb(${i & 255}, 0, 0)`);"),
    ("stroke", "stroke(r, g, b)", "", "stroke(200, 100, 50);"),
    ("stroke", "stroke(c) color() object", S_COL, "stroke(c1);"),
    ("stroke", "stroke('#rrggbb')", "", "stroke('#ff8800');"),
    ("stroke", "stroke('white') named", "", "stroke('white');"),
    ("background", "background(gray)", "", "background(30);"),
    ("background", "background(r, g, b)", "", "background(30, 40, 50);"),
    ("background", "background(c) color() object", S_COL, "background(c1);"),
    ("background", "background('#rrggbb')", "", "background('#102030');"),
    ("noFill", "noFill()", "", "noFill();"),
    # -- colour objects
    ("color", "color(r, g, b)", "", "color(200, 100, 50);"),
    ("color", "color(r, g, b, a)", "", "color(200, 100, 50, 128);"),
    ("color", "color(gray)", "", "color(128);"),
    ("color", "color('#rrggbb')", "", "color('#ff8800');"),
    ("color", "color('orange') named", "", "color('orange');"),
    ("color", "color('rgba(r, g, b, a)')", "", "color('rgba(255, 136, 0, 0.5)');"),
    ("color", "color([r, g, b])", "", "color([255, 136, 0]);"),
    ("color", "color(c) of a color", S_COL, "color(c1);"),
    ("color", "color(h, s, b) in HSB", "colorMode(HSB);", "color(30, 80, 90);"),
    ("color + fill", "fill(color(r, g, b))", "", "fill(color(200, 100, 50));"),
    ("color + fill", "fill(r, g, b)", "", "fill(200, 100, 50);"),
    ("lerpColor", "lerpColor(c1, c2, t)", S_COL, "lerpColor(c1, c2, 0.3);"),
    ("color setters", "c.setAlpha(a)", S_COL, "c1.setAlpha(100);"),
    ("color setters", "c.setRed(v)", S_COL, "c1.setRed(100);"),
    ("color toString", "c.toString()", S_COL, "c1.toString();"),
    ("color toString", "String(c)", S_COL, "String(c1);"),
    ("color getters", "red(c)", S_COL, "red(c1);"),
    ("color getters", "alpha(c)", S_COL, "alpha(c1);"),
    ("color getters", "hue(c)", S_COL, "hue(c1);"),
    ("color getters", "brightness(c)", S_COL, "brightness(c1);"),
    ("color getters", "c.levels[0] read", S_COL, "c1.levels[0];"),
    # -- vectors
    ("createVector", "createVector(x, y)", "", "createVector(3, 4);"),
    ("createVector", "createVector(x, y, z)", "", "createVector(3, 4, 5);"),
    ("createVector", "new p5.Vector(x, y)", "", "new p5.Vector(3, 4);"),
    ("vector add", "v.add(w)", S_VEC, "v1.add(v2);"),
    ("vector add", "v.add(x, y)", S_VEC, "v1.add(1, -2);"),
    ("vector add", "v.add([x, y])", S_VEC, "v1.add([1, -2]);"),
    ("vector sub", "v.sub(w)", S_VEC, "v1.sub(v2);"),
    ("vector sub", "v.sub(x, y)", S_VEC, "v1.sub(1, -2);"),
    ("vector mult", "v.mult(s)", S_VEC, "v1.mult(1);"),
    ("vector mult", "v.mult(x, y)", S_VEC, "v1.mult(1, 1);"),
    ("vector mult", "v.mult(w)", S_VEC + "v3 = createVector(1, 1, 1);", "v1.mult(v3);"),
    ("vector div", "v.div(s)", S_VEC, "v1.div(1);"),
    ("vector mag", "v.mag()", S_VEC, "v1.mag();"),
    ("vector mag", "v.magSq()", S_VEC, "v1.magSq();"),
    ("vector normalize", "v.normalize()", S_VEC, "v1.normalize();"),
    ("vector limit", "v.limit(m)", S_VEC, "v1.limit(2);"),
    ("vector setMag", "v.setMag(m)", S_VEC, "v1.setMag(5);"),
    ("vector heading", "v.heading()", S_VEC, "v1.heading();"),
    ("vector rotate", "v.rotate(a)", S_VEC, "v1.rotate(0.01);"),
    ("vector dist", "v.dist(w)", S_VEC, "v1.dist(v2);"),
    ("vector dist", "p5.Vector.dist(v, w)", S_VEC, "p5.Vector.dist(v1, v2);"),
    ("vector dist", "dist(x1, y1, x2, y2)", S_VEC, "dist(v1.x, v1.y, v2.x, v2.y);"),
    ("vector dot", "v.dot(w)", S_VEC, "v1.dot(v2);"),
    ("vector copy", "v.copy()", S_VEC, "v1.copy();"),
    ("vector set", "v.set(x, y)", S_VEC, "v1.set(3, 4);"),
    ("vector lerp", "v.lerp(w, t)", S_VEC, "v1.lerp(v2, 0.5);"),
    ("vector static", "p5.Vector.add(v, w)", S_VEC, "p5.Vector.add(v1, v2);"),
    ("vector static", "p5.Vector.sub(v, w)", S_VEC, "p5.Vector.sub(v1, v2);"),
    ("vector static", "p5.Vector.mult(v, s)", S_VEC, "p5.Vector.mult(v1, 2);"),
    ("vector static", "v.copy().add(w)", S_VEC, "v1.copy().add(v2);"),
    ("vector fromAngle", "p5.Vector.fromAngle(a)", "", "p5.Vector.fromAngle(0.5);"),
    ("vector fromAngle", "p5.Vector.fromAngle(a, len)", "", "p5.Vector.fromAngle(0.5, 3);"),
    ("vector fields", "v.x + v.y read", S_VEC, "v1.x + v1.y;"),
    # -- shapes (the drawing cost is not counted: JS time only)
    ("rect", "rect(x, y, w, h)", "", "rect(10, 20, 30, 40);"),
    ("rect", "rect(x, y, w, h, r) rounded", "", "rect(10, 20, 30, 40, 5);"),
    ("rect", "square(x, y, s)", "", "square(10, 20, 30);"),
    ("ellipse", "ellipse(x, y, w, h)", "", "ellipse(50, 50, 30, 20);"),
    ("ellipse", "circle(x, y, d)", "", "circle(50, 50, 30);"),
    ("line", "line(x1, y1, x2, y2)", "", "line(10, 20, 30, 40);"),
    ("point", "point(x, y)", "", "point(10, 20);"),
    ("triangle", "triangle(...)", "", "triangle(10, 20, 30, 40, 50, 10);"),
    ("arc", "arc(x, y, w, h, a, b)", "", "arc(50, 50, 30, 30, 0.5, 5.5);"),
    ("arc", "arc(x, y, w, h, a, b, PIE)", "", "arc(50, 50, 30, 30, 0.5, 5.5, PIE);"),
    ("quad (4-gon)", "quad(...)", "", "quad(10, 10, 40, 12, 38, 40, 12, 38);"),
    ("quad (4-gon)", "beginShape(); 4 x vertex(); endShape(CLOSE)", "",
     "beginShape(); vertex(10, 10); vertex(40, 12); vertex(38, 40); vertex(12, 38); "
     "endShape(CLOSE);"),
    ("vertex", "vertex(x, y) in a 100-vertex shape (per vertex)", "",
     "if (i % 100 === 0) beginShape(); vertex(i % 37, i % 53); "
     "if (i % 100 === 99) endShape(CLOSE);"),
    # -- style and transform
    ("strokeWeight", "strokeWeight(w)", "", "strokeWeight(2);"),
    ("push/pop", "push(); pop()", "", "push(); pop();"),
    ("translate", "translate(x, y)", "", "translate(0.5, 0.25);"),
    ("rotate", "rotate(a)", "", "rotate(0.01);"),
    ("scale", "scale(s)", "", "scale(1.0001);"),
    ("transform", "push(); translate(); rotate(); pop()", "",
     "push(); translate(10, 20); rotate(0.3); pop();"),
    # -- text
    ("text", "text('Score: 10', x, y)", "textSize(16);", "text('Score: 10', 10, 20);"),
    ("text", "text(number, x, y)", "textSize(16);", "text(1234, 10, 20);"),
    ("text", "text('Score: ' + i, x, y)", "textSize(16);", "text('Score: ' + i, 10, 20);"),
    ("textSize", "textSize(n)", "", "textSize(16);"),
    ("textAlign", "textAlign(CENTER, CENTER)", "", "textAlign(CENTER, CENTER);"),
    ("textWidth", "textWidth('Score: 10')", "textSize(16);", "textWidth('Score: 10');"),
    # -- math helpers
    ("random", "random()", "", "random();"),
    ("random", "random(a, b)", "", "random(2, 5);"),
    ("random", "random(arr)", "a3 = [1, 2, 3];", "random(a3);"),
    ("noise", "noise(x)", "", "noise(i * 0.01);"),
    ("noise", "noise(x, y)", "", "noise(i * 0.01, 0.5);"),
    ("constrain", "constrain(v, lo, hi)", "", "constrain(i, 10, 20);"),
    ("map", "map(v, a, b, c, d)", "", "map(i, 0, 100, 0, 1);"),
    ("lerp", "lerp(a, b, t)", "", "lerp(0, 10, 0.3);"),
    ("sin", "sin(a)", "", "sin(i * 0.01);"),
    ("sin", "Math.sin(a)", "", "Math.sin(i * 0.01);"),
    ("atan2", "atan2(y, x)", "", "atan2(i, 3);"),
    ("min/max", "min(a, b)", "", "min(i, 3);"),
    ("min/max", "Math.min(a, b)", "", "Math.min(i, 3);"),
    ("abs", "abs(v)", "", "abs(-i);"),
    ("floor", "floor(v)", "", "floor(i * 0.5);"),
    ("sqrt", "sqrt(v)", "", "sqrt(i);"),
]

TEMPLATE = """
let __n = {calls};
function setup() {{ createCanvas(400, 400); {setup} }}
function resetGame(seed) {{}}
function getGameState() {{ return {{score: 0, lives: 1, gameState: 'playing'}}; }}
function mulberry32(a) {{ return function () {{ return 0.5; }}; }}
function draw() {{ for (let i = 0; i < __n; i++) {{ {body} }} }}
"""


def write_forms(tmp: pathlib.Path, forms, calls: int) -> list[pathlib.Path]:
    paths = []
    for k, (_, _, setup, body) in enumerate(forms):
        p = tmp / f"form{k}.js"
        p.write_text(TEMPLATE.format(calls=calls, setup=setup, body=body))
        paths.append(p)
    return paths


def measure(paths, args) -> list[list[float]]:
    """JS ns per frame of each form per round (1 env each, alternating rounds)."""
    import jsgym
    import numpy as np

    noop = np.zeros(1, dtype=np.int64)
    with pinned([args.core]):
        pools = [jsgym.make_vec(str(p), 1, num_threads=1, seed=0, profile=True,
                                max_episode_steps=None, max_draw_calls=100 * args.calls,
                                # a loaded machine must slow a figure, not end the run
                                step_timeout=60.0)
                 for p in paths]
        try:
            for envs in pools:
                envs.reset()
            rounds = []
            for r in range(args.rounds + 1):  # the first round warms up
                per_form = []
                for envs in pools:
                    p0 = envs.profile(0)
                    for _ in range(args.frames):
                        envs.step(noop)
                    p1 = envs.profile(0)
                    per_form.append((p1["js_ns"] - p0["js_ns"]) / (p1["frames"] - p0["frames"]))
                if r:
                    rounds.append(per_form)
        finally:
            for envs in pools:
                envs.close()
    return rounds


def main(argv=None):
    parser = common.parser_from_doc(__doc__)
    parser.add_argument("groups", nargs="*",
                        help="restrict to groups whose name contains one of these words")
    parser.add_argument("--calls", type=int, default=2000, help="calls per frame (2000)")
    parser.add_argument("--frames", type=int, default=8, help="frames per round (8)")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds (7)")
    parser.add_argument("--quick", action="store_true", help="3 rounds of 4 frames")
    common.add_core_and_out_dir(parser)
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.frames = 3, 4
    args.core = common.pinned_core(parser, args.core)
    forms = [f for f in FORMS if f[0] == "reference" or not args.groups
             or any(w in f[0] for w in args.groups)]
    with tempfile.TemporaryDirectory() as d:
        paths = write_forms(pathlib.Path(d), forms, args.calls)
        meter = common.LoadMeter().start()
        rounds = measure(paths, args)
        _, other, near = meter.stop()
    empty = [r[0] for r in rounds]
    ns = []
    for k in range(len(forms)):
        per_call = [(r[k] - e) / args.calls for r, e in zip(rounds, empty)]
        ns.append((statistics.median(per_call), min(per_call), max(per_call)))
    cheapest: dict[str, float] = {}
    for (group, *_), (med, _, _) in zip(forms, ns):
        if group != "reference":
            cheapest[group] = min(cheapest.get(group, math.inf), max(med, 1e-9))
    rows, csv_rows = [], []
    for (group, label, _, body), (med, lo, hi) in zip(forms, ns):
        ratio = med / cheapest[group] if group in cheapest else math.nan
        flag = " **over 2x**" if math.isfinite(ratio) and ratio > 2 else ""
        rows.append([group, f"`{label}`", f"{med:.0f} [{lo:.0f}-{hi:.0f}]",
                     f"{ratio:.2f}x{flag}" if math.isfinite(ratio) else "-"])
        csv_rows.append({"group": group, "form": label, "code": body,
                         "ns_median": round(med, 1), "ns_min": round(lo, 1),
                         "ns_max": round(hi, 1),
                         "x_cheapest": round(ratio, 3) if math.isfinite(ratio) else ""})
    over = [r for r in csv_rows if r["x_cheapest"] != "" and r["x_cheapest"] > 2]
    lines = [
        "# Nanoseconds per p5 call, by argument shape",
        "",
        *common.machine_lines(),
        f"- protocol: one pinned core (CPU {args.core}), 1 env per form, {args.calls} calls "
        f"per frame in a loop, {args.rounds} alternating rounds of {args.frames} frames; "
        "ns per call = (JS time per frame - that of the empty loop) / calls, median "
        "[min-max] over rounds; JS time only (rasterizing is not counted)",
        f"- other load during the run: {other:.2f} cores machine-wide, {near:.2f} on the "
        "benchmark's core (mean)",
        f"- x cheapest: the form's cost over the cheapest form of the same group; "
        f"{len(over)} of {len(cheapest and csv_rows) - 2} forms above 2x",
        "",
    ]
    lines += common.md_table(["group", "form", "ns per call", "x cheapest"], rows) + [""]
    text = "\n".join(lines)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "p5_calls.md").write_text(text)
    common.write_csv(args.out_dir / "p5_calls.csv", csv_rows)
    print(text)
    log(f"wrote {args.out_dir / 'p5_calls.md'}, p5_calls.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
