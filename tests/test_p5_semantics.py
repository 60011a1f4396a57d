"""p5 semantics of the QuickJS shim against golden values from real p5.js 1.11.13.

Every case of tests/data/p5_cases.json (filled by tests/tools/gen_p5_expected.py in
headless Chromium) is evaluated in a fresh QuickJS env context with the shim
installed, and its JSON value is compared with real p5's: exactly for integers,
strings and booleans, within a relative 1e-12 for other numbers unless the case
states its own ``rtol`` together with a ``reason``.
"""

from __future__ import annotations

import json
import math
import pathlib

import pytest

CASES_FILE = pathlib.Path(__file__).parent / "data" / "p5_cases.json"
CASES = json.loads(CASES_FILE.read_text())["cases"]
DEFAULT_RTOL = 1e-12  # float results may differ in the last bits only


def _close(got, want, rtol, path="value"):
    if isinstance(want, bool) or want is None or isinstance(want, str):
        assert got == want, f"{path}: got {got!r}, want {want!r}"
    elif isinstance(want, int):
        assert not isinstance(got, bool) and got == want, f"{path}: got {got!r}, want {want!r}"
    elif isinstance(want, float):
        assert isinstance(got, (int, float)) and not isinstance(got, bool), f"{path}: got {got!r}, want {want!r}"
        assert math.isclose(got, want, rel_tol=rtol, abs_tol=0.0), f"{path}: got {got!r}, want {want!r}"
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: got {got!r}, want {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, rtol, f"{path}[{i}]")
    elif isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), f"{path}: got {got!r}, want {want!r}"
        for k in want:
            _close(got[k], want[k], rtol, f"{path}.{k}")
    else:  # pragma: no cover - the cases file only holds JSON
        raise TypeError(f"unexpected expected value {want!r}")


def test_every_case_has_a_golden_value():
    missing = [c["name"] for c in CASES if "expected" not in c and not c.get("expected_undefined")]
    assert not missing, f"run tests/tools/gen_p5_expected.py: no expected value for {missing}"
    unexplained = [c["name"] for c in CASES if "rtol" in c and not c.get("reason")]
    assert not unexplained, f"tolerances without a written reason: {unexplained}"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case_matches_real_p5(case):
    core = pytest.importorskip("jsgym._core", reason="jsgym native module not built", exc_type=ImportError)
    if not hasattr(core, "eval_js"):
        pytest.skip("jsgym._core.eval_js not available yet")
    got = core.eval_js(case["code"])
    if case.get("expected_undefined"):
        assert got is None
        return
    _close(got, case["expected"], case.get("rtol", DEFAULT_RTOL))


def test_int_colour_levels_pack_like_the_general_path(tmp_path):
    """fill() with int levels in RGB mode takes a shortcut that packs the levels
    directly; it must give exactly what the general formula gives for the same
    values passed as doubles (v + 0.5 - 0.5 is a float64, not an int, in QuickJS)."""
    import numpy as np

    jsgym = pytest.importorskip("jsgym")
    game = tmp_path / "levels.js"
    game.write_text("""
function setup() { createCanvas(64, 64); noStroke(); }
function resetGame(seed) {}
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
function mulberry32(a) { return function() { return 0; }; }
function f(v) { return v + 0.5 - 0.5; }
function draw() {
  background(0);
  for (let v = 0; v < 256; v++) {
    const x = v % 64, y = Math.floor(v / 64);
    fill(v); rect(x, y, 1, 1);
    fill(f(v)); rect(x, 4 + y, 1, 1);
    fill(v, 255 - v, (v * 7) % 256); rect(x, 8 + y, 1, 1);
    fill(f(v), f(255 - v), f((v * 7) % 256)); rect(x, 12 + y, 1, 1);
    fill(255 - v, v, 3, v); rect(x, 16 + y, 1, 1);
    fill(f(255 - v), f(v), f(3), f(v)); rect(x, 20 + y, 1, 1);
  }
}
""")
    env = jsgym.make_vec(game, num_envs=1, num_threads=1)
    obs, _ = env.reset(seed=0)
    env.close()
    frame = obs[0].astype(int)
    for fast in (0, 8, 16):
        assert np.array_equal(frame[fast:fast + 4], frame[fast + 4:fast + 8]), fast
    levels = np.arange(256).reshape(4, 64)
    assert np.array_equal(frame[0:4, :, 0], levels)        # gray levels come through as given
    assert np.array_equal(frame[8:12, :, 1], 255 - levels)
