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
