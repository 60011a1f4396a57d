"""The hostile-game corpus (tests/corpus/bad/): every broken or malicious game file
raises exactly the jsgym.GameError subclass its header names, at the place it names,
and nothing else in the process notices.

Each corpus file starts with

    // expect: <GameXxxError> in <place>: <what the file does>
    // expect: runs: <what the file does>          (legal JS misbehaving within limits)
    // args: {"make": {...make_vec kwargs}, "steps": N, "action": A, "wall": S, "xfail": "why", "slow": true, "hard_stop": true}

``<place>`` is ``load`` (a syntax error: file, line and column; a missing contract
function) or the words of a contract phase (contract/contract.json "phases"; the load
phase is ``the top level``), e.g. ``setup()`` or ``draw()``.
Failures after load are seed-dependent: only episodes with an odd seed misbehave, and
``GAME_OPTIONS = {armed: false}`` disarms them, so that a 4-env vector env with seeds
10..13 can be compared env by env with the same vector env disarmed. ``wall`` runs the
raise check in a child process that must finish within that many seconds (hangs).
``xfail`` marks a known bug in the runtime (the reason says where; ``xfail_continue``
for the on_error="reset" check only); the test flips to XPASS, and so fails, once it
is fixed. ``hard_stop`` marks a file that only the runtime's hard stop ends (a loop
inside a built-in): skipped on engines without it.

Every file also runs on the browser backend (real p5.js in Chromium), except those
that test the QuickJS backend's sandbox (:data:`QUICKJS_ONLY` says why for each kind):
the error classes, places, envs and steps of the rest are the contract of both.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
import time

import numpy as np
import pytest

from jsgym import contract
from jsgym._core import engine_name

REPO = pathlib.Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "corpus" / "bad"
FILES = sorted(CORPUS.glob("*.js"))

HEADER = re.compile(r"^// expect: (?P<outcome>runs|Game[A-Za-z]+Error)(?: in (?P<place>[^:]+))?: (?P<what>.+)$")
# The place of a header, to the contract phase the error record must name.
PLACES = {"load": contract.PHASE["load"],
          **{p.text.replace(" of the game file", ""): p for p in contract.PHASES if p.text}}
AT_CREATION = {"load", "the top level", "setup()"}
RENDER = contract.PHASE["render"].text
ENGINE = engine_name()
SEEDS = 10  # envs 0..3 get seeds 10..13: envs 1 and 3 (odd seeds) misbehave
HEALTHY, FAILING = [0, 2], [1, 3]
SLOW = {"asan": 6.0, "tsan": 10.0}.get(os.environ.get("JSGYM_SANITIZER", ""), 1.0)


class Case:
    """One corpus file's header, parsed."""

    def __init__(self, path: pathlib.Path):
        self.path = path
        self.name = path.stem
        # (bytes: a file that is not UTF-8 is a case of its own)
        lines = path.read_bytes().decode("utf-8", errors="replace").splitlines()
        m = HEADER.match(lines[0])
        if not m:
            raise ValueError(f"{path.name}: first line must be '// expect: ...', got {lines[0]!r}")
        self.outcome = m["outcome"]
        self.place = m["place"]
        self.what = m["what"]
        args = {}
        if len(lines) > 1 and lines[1].startswith("// args: "):
            args = json.loads(lines[1][len("// args: "):])
        self.make = dict(args.get("make", {}))
        self.hard_stop = bool(args.get("hard_stop"))  # hangs without the hard stop
        if SLOW > 1 and self.outcome != "GameTimeoutError":
            # under a sanitizer everything is 2-15x slower: only the loops may time out
            self.make["step_timeout"] = self.make.get("step_timeout", 1.0) * SLOW
        elif SLOW > 1 and self.place == RENDER:
            # the render bombs' JS (0.02 s at full speed) must fit the limit, their
            # rendering must not: the rasterizer (Rust) is not instrumented, so it takes
            # its 6.5 s (supersample 4) under a sanitizer too, while the JS took over
            # 1 s under TSan
            self.make["step_timeout"] = 3.0
        self.steps = args.get("steps", 6)
        self.action = args.get("action", 0)
        self.wall = args.get("wall")
        self.slow = args.get("slow", False)  # e.g. a known hang that costs its whole wall limit
        self.xfail = args.get("xfail")
        self.xfail_continue = args.get("xfail_continue")  # known bug in the on_error="reset" check only
        if self.outcome != "runs" and self.place not in PLACES:
            raise ValueError(f"{path.name}: unknown place {self.place!r}")

    @property
    def error(self):
        import jsgym
        return None if self.outcome == "runs" else getattr(jsgym, self.outcome)

    @property
    def at_creation(self) -> bool:
        return self.place in AT_CREATION


CASES = [Case(p) for p in FILES]

# What only the QuickJS backend promises: its sandbox (docs/security.md). The browser
# runs the real p5.js in a Chromium page, whose limits are the browser's own.
QUICKJS_ONLY = {
    "GameTimeoutError": "the browser's step timeout is a page-call timeout of at least "
                        "jsgym.browser.TIMEOUT_FLOOR s, after which the page is lost",
    "GameMemoryError": "the browser has no per-env memory limit",
    "alloc_": "the browser has no per-env memory limit",
    "canvas_": "jsgym's canvas-size limit (a browser canvas has the browser's)",
    "draw_": "jsgym's draw-call, vertex and text limits (max_draw_calls)",
    "render_": "jsgym's bound on rendering time (the browser renders on its own time)",
    "throw_unprintable": "jsgym/web/driver.js turns a thrown value into text with String(), which "
                         "throws for this one: the page call fails as a host error (OSError)",
    "host_": "a browser page has the browser's host APIs (fetch, XMLHttpRequest, ...)",
    "loop_": "the browser's step timeout is a page-call timeout",
    "recursion_": "native recursion depth is the engine's (V8's differs from QuickJS's)",
    "syntax_deep_nesting": "the parser's nesting depth is the engine's (V8 parses it)",
    "push_unbalanced": "jsgym's style-stack limit (p5's stack is unbounded)",
    "builtin_prototype_pollution": "a `then` on Object.prototype makes Playwright's own "
                                   "page.evaluate results thenable: the page call fails",
    "late_change_10k": "10,000 frames per env take minutes in the browser",
}


def quickjs_only(case: Case) -> str | None:
    """Why ``case`` runs on the QuickJS backend only, or None."""
    for key, reason in QUICKJS_ONLY.items():
        if case.outcome == key or case.name.startswith(key):
            return reason
    if case.wall:
        return "a wall-clock limit of the QuickJS backend's hard stop"
    return None


def params(cases, *, reset_check=False):
    """(case, backend) pairs: every case on QuickJS, and on the browser unless
    quickjs_only() says why not."""
    out = []
    for c in cases:
        out.append(_param(c, "quickjs", reset_check))
        if not quickjs_only(c):
            out.append(_param(c, "browser", reset_check))
    return out


def _param(c: Case, backend: str, reset_check: bool):
    if backend == "browser":
        return pytest.param(c, backend, id=f"{c.name}-browser", marks=[pytest.mark.browser])
    reason = c.xfail or (c.xfail_continue if reset_check else None)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    if c.hard_stop and ENGINE.startswith("quickjs-ng"):
        marks.append(pytest.mark.skip(reason="needs the hard stop, which the quickjs-ng "
                                             "build does not have (docs/security.md)"))
    if c.hard_stop and os.environ.get("JSGYM_SANITIZER") == "tsan":
        # ThreadSanitizer defers asynchronous signals to its own safe points and does
        # not deliver the watchdog's signal to a thread looping inside QuickJS
        marks.append(pytest.mark.skip(reason="the hard stop's signal is not delivered "
                                             "under ThreadSanitizer"))
    if c.slow:
        marks.append(pytest.mark.slow)
    return pytest.param(c, backend, id=c.name, marks=marks)


def check_raises(case: Case, backend: str = "quickjs"):
    """on_error="raise": the named error, naming the game, env 1 and the place."""
    import jsgym

    if case.outcome == "runs":
        envs = jsgym.make_vec(case.path, 4, on_error="raise", backend=backend, **case.make)
        envs.reset(seed=SEEDS)
        for _ in range(case.steps):
            _, _, _, _, infos = envs.step(np.full(4, case.action))
            assert "_error" not in infos
        envs.close()
        return
    if case.at_creation:
        with pytest.raises(jsgym.GameError) as err:
            jsgym.make_vec(case.path, 2, on_error="reset", backend=backend, **case.make)
    else:
        envs = jsgym.make_vec(case.path, 2, on_error="raise", backend=backend, **case.make)
        with pytest.raises(jsgym.GameError) as err:
            envs.reset(seed=[SEEDS, SEEDS + 1])
            for _ in range(case.steps):
                envs.step(np.full(2, case.action))
        envs.close()
    e = err.value
    assert type(e) is case.error, f"{case.name}: expected {case.outcome}, got {type(e).__name__}: {e}"
    assert e.game == case.name and case.name in str(e)
    if case.place == "load":  # a syntax error has a location, a missing contract a list
        if case.error.__name__ == "GameLoadError":
            assert e.line is not None and e.column is not None and e.file, str(e)
        else:
            assert "contract" in str(e), str(e)
        return
    phase = PLACES[case.place]
    assert e.phase == phase.name and phase.text in str(e), f"{case.name}: {phase} vs {e.phase}: {e}"
    if not case.at_creation:
        assert e.env_index == 1 and e.step is not None, str(e)


def run_in_child(case: Case):
    """check_raises in a child process, which must finish it within ``case.wall``
    seconds (not counting the interpreter's start); a hang is killed."""
    limit = case.make.get("step_timeout", 1.0)
    try:
        proc = subprocess.run([sys.executable, __file__, str(case.path)], capture_output=True,
                              text=True, timeout=case.wall + 20, cwd=REPO)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{case.name}: hung: still running {case.wall + 20} s later although "
                    f"step_timeout is {limit} s")
    assert proc.returncode == 0, f"{case.name}: {proc.stdout[-2000:]}{proc.stderr[-2000:]}"
    took = float(re.search(r"ok in ([\d.]+) s", proc.stdout)[1])
    assert took <= case.wall, (f"{case.name}: the error came after {took:.2f} s, more than "
                               f"{case.wall} s for step_timeout {limit} s")


@pytest.fixture(scope="module")
def bystander():
    """A healthy bundled game stepped between corpus cases in the same process: its
    trajectory must equal an undisturbed run's."""
    import jsgym

    ref = jsgym.make_vec("catch", 2, num_threads=1)
    ref.reset(seed=7)
    n = 64
    actions = np.random.default_rng(0).integers(0, 8, size=(n, 2))
    expected = [ref.step(a)[0].copy() for a in actions]
    ref.close()
    live = jsgym.make_vec("catch", 2, num_threads=1)
    live.reset(seed=7)
    state = {"i": 0}

    def advance(k=3):
        for _ in range(k):
            if state["i"] == n:  # wrap around: a new episode from the same seed
                live.reset(seed=7)
                state["i"] = 0
            i = state["i"]
            obs = live.step(actions[i])[0]
            assert np.array_equal(obs, expected[i]), f"bystander env diverged at step {i}"
            state["i"] += 1

    yield advance
    live.close()


def test_corpus_is_complete():
    assert len(CASES) >= 30
    outcomes = {c.outcome for c in CASES}
    assert outcomes == {"runs", "GameLoadError", "GameContractError", "GameRuntimeError",
                        "GameTimeoutError", "GameMemoryError"}
    # an infinite loop and a throw in every callback, and a frame too costly to render
    # (a compile too slow is generated by tests/test_limits.py: megabytes of source)
    callbacks = set(PLACES) - {"load", "eval", RENDER, contract.PHASE["compile"].text}
    for outcome in ("GameRuntimeError", "GameTimeoutError"):
        places = {c.place for c in CASES if c.outcome == outcome}
        assert callbacks <= places, (outcome, places)
    assert RENDER in {c.place for c in CASES if c.outcome == "GameTimeoutError"}


@pytest.mark.parametrize("case, backend", params(CASES))
def test_corpus_game_raises_its_error(case, backend, bystander):
    bystander()
    if case.wall:
        if os.environ.get("JSGYM_SANITIZER"):
            pytest.skip("wall-clock limits are not meaningful under a sanitizer")
        run_in_child(case)
    else:
        check_raises(case, backend)
    bystander()


SEEDED = [c for c in CASES if not c.at_creation and not c.wall]


@pytest.mark.parametrize("case, backend", params(SEEDED, reset_check=True))
def test_corpus_other_envs_continue(case, backend, bystander):
    """on_error="reset": envs 1 and 3 (odd seeds) fail and are restarted, reported in
    their info; envs 0 and 2 give exactly the frames and rewards of a vector env in
    which no env fails."""
    import jsgym

    kw = dict(on_error="reset", num_threads=2, backend=backend, **case.make)
    armed = jsgym.make_vec(case.path, 4, **kw)
    calm = jsgym.make_vec(case.path, 4, game_options={"armed": False}, **kw)
    errors = np.zeros(4, dtype=bool)
    messages = {}

    def note(infos):
        if "_error" in infos:
            for k in np.flatnonzero(infos["_error"]):
                errors[k] = True
                messages.setdefault(int(k), infos["error"][k])

    obs_a, info_a = armed.reset(seed=SEEDS)
    obs_c, info_c = calm.reset(seed=SEEDS)
    note(info_a)
    if case.place == "resetGame()":  # reset() itself must say which envs failed
        assert info_a.get("_error", np.zeros(4, bool))[FAILING].all(), (
            "reset() did not report the failed resetGame() in its infos")
    assert "_error" not in info_c
    assert np.array_equal(obs_a[HEALTHY], obs_c[HEALTHY])
    actions = np.full(4, case.action)
    for step in range(case.steps):
        oa, ra, ta, ua, ia = armed.step(actions)
        oc, rc, tc, uc, ic = calm.step(actions)
        note(ia)
        assert "_error" not in ic, ic.get("error")
        for name, a, c in (("obs", oa, oc), ("reward", ra, rc), ("terminated", ta, tc),
                           ("truncated", ua, uc)):
            assert np.array_equal(a[HEALTHY], c[HEALTHY]), f"step {step}: healthy envs' {name} differ"
    bystander(1)
    armed.close()
    calm.close()
    if case.outcome == "runs":
        assert not errors.any(), messages
        return
    assert not errors[HEALTHY].any(), messages
    assert errors[FAILING].all(), f"odd-seeded envs did not report their failure: {messages}"
    for k in FAILING:
        assert f"env {k}" in messages[k] and case.name in messages[k], messages[k]
        assert PLACES[case.place].text in messages[k], messages[k]


if __name__ == "__main__":  # the child process of run_in_child
    case = Case(pathlib.Path(sys.argv[1]))
    sys.path.insert(0, str(REPO))
    t0 = time.perf_counter()
    check_raises(case)
    print(f"{case.name}: ok in {time.perf_counter() - t0:.2f} s")
