"""Fuzzes the jsgym runtime with atheris (libFuzzer for Python): random JavaScript
game sources and random p5 drawing calls with hostile arguments, each run as a real
env (load, setup, reset, a few steps). Any GameError is an expected outcome; a crash,
a hang (libFuzzer -timeout), or any other exception is a finding.

    pip install atheris
    python fuzz/fuzz_runtime.py -max_total_time=600 -timeout=20 .cache/fuzz tests/corpus/bad/
    JSGYM_NATIVE_LIB=.cache/asan/release/libjsgym_native.so LD_PRELOAD=... python fuzz/fuzz_runtime.py ...

See fuzz/README.md.
"""

from __future__ import annotations

import pathlib
import sys
import tempfile

import atheris

with atheris.instrument_imports():
    import numpy as np
    import jsgym

ROOT = pathlib.Path(__file__).resolve().parent.parent
TMP = pathlib.Path(tempfile.mkdtemp(prefix="jsgym-fuzz-"))
LIMITS = dict(step_timeout=0.05, memory_limit=8 << 20, max_draw_calls=2000, on_error="raise",
              num_threads=1)

VALUES = ["NaN", "Infinity", "-Infinity", "0", "-0", "1e308", "-1e308", "5e-324", "2**31",
          "-(2**53)", "undefined", "null", "''", "'10'", "'#ff00zz'", "'rgba(1,2,3,4)'", "[]",
          "[1,2]", "{}", "{valueOf(){return 3}}", "{valueOf(){throw 1}}", "true", "10n",
          "Symbol()", "new Proxy({}, {})", "'x'.repeat(1000)", "frameCount", "-1", "255", "3.5",
          "() => 1", "new Float64Array(4)", "CLOSE", "CENTER", "PI", "'red'", "ADD", "MULTIPLY",
          "DODGE", "[3, 0, 1e9]", "[0, 0]", "'rgba(0, 255, 255, 0.5)'", "1e6"]
CALLS = ["rect", "ellipse", "circle", "line", "point", "triangle", "quad", "arc", "bezier",
         "curve", "square", "text", "textSize", "textAlign", "fill", "stroke", "noFill",
         "noStroke", "strokeWeight", "strokeCap", "strokeJoin", "background", "clear",
         "colorMode", "color", "lerpColor", "translate", "rotate", "scale", "shearX", "shearY",
         "push", "pop", "resetMatrix", "applyMatrix", "beginShape", "vertex", "bezierVertex",
         "quadraticVertex", "curveVertex", "beginContour", "endContour", "endShape",
         "rectMode", "ellipseMode", "angleMode", "resizeCanvas", "random", "noise",
         "randomSeed", "noiseSeed", "map", "constrain", "dist", "lerp", "createVector",
         "keyIsDown", "millis", "blendMode", "erase", "noErase", "textWidth", "textStyle",
         "drawingContext.setLineDash", "shadow", "dashOffset"]
TEMPLATE = """
function shadow(b, c, x, y) { drawingContext.shadowBlur = b; drawingContext.shadowColor = c;
  drawingContext.shadowOffsetX = x; drawingContext.shadowOffsetY = y; }
function dashOffset(v) { drawingContext.lineDashOffset = v; }
function setup() { createCanvas(%s, %s); }
function resetGame(seed) { }
function draw() { background(0);
%s
}
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
"""
HEALTHY_TAIL = """
function setup() { if (typeof createCanvas === 'function') createCanvas(64, 64); }
function resetGame(seed) {}
function draw() {}
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
"""


def draw_calls_source(fdp: atheris.FuzzedDataProvider) -> str:
    """A game whose draw() makes a random sequence of p5 calls with hostile arguments."""
    lines = []
    for _ in range(fdp.ConsumeIntInRange(1, 40)):
        fn = CALLS[fdp.ConsumeIntInRange(0, len(CALLS) - 1)]
        args = ", ".join(VALUES[fdp.ConsumeIntInRange(0, len(VALUES) - 1)]
                         for _ in range(fdp.ConsumeIntInRange(0, 9)))
        wrap = fdp.ConsumeIntInRange(0, 3)
        call = f"{fn}({args});"
        lines.append(f"try {{ {call} }} catch (e) {{}}" if wrap == 0 else call)
    w = VALUES[fdp.ConsumeIntInRange(0, len(VALUES) - 1)] if fdp.ConsumeBool() else "64"
    return TEMPLATE % (w, "64", "\n".join(lines))


def js_source(fdp: atheris.FuzzedDataProvider) -> str:
    """Random bytes as JavaScript, optionally followed by a valid game contract so that
    the runtime gets past loading more often."""
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 4096))
    return text + (HEALTHY_TAIL if fdp.ConsumeBool() else "")


def TestOneInput(data: bytes):
    fdp = atheris.FuzzedDataProvider(data)
    source = draw_calls_source(fdp) if fdp.ConsumeBool() else js_source(fdp)
    steps = fdp.ConsumeIntInRange(0, 4)
    path = TMP / "fuzz.js"
    path.write_text(source, encoding="utf-8", errors="surrogatepass")
    try:
        envs = jsgym.make_vec(path, 1, **LIMITS)
    except (jsgym.GameError, UnicodeError):
        return
    try:
        envs.reset(seed=fdp.ConsumeIntInRange(0, 2**32 - 1))
        for _ in range(steps):
            envs.step(np.array([fdp.ConsumeIntInRange(0, 7)]))
    except jsgym.GameError:
        pass
    finally:
        envs.close()


def main():
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
