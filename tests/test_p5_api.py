"""The whole p5.js 1.11 global-mode API in the QuickJS backend, against the real p5.

- Coverage: the real p5.js 1.11.13 runs in Chromium through the browser backend and
  its global-mode names are enumerated as a sketch's scope sees them (p5 copies every
  p5.prototype member and the instance's own fields onto window). Each one must exist
  in QuickJS with p5's type (and p5's value, for a primitive variable), unless
  jsgym/p5_coverage.py lists it as not applicable, in which case QuickJS must refuse
  it with its "jsgym: NAME ... is not supported (...)" error (or, for the few names
  p5_coverage.UNDEFINED keeps out of a game's scope, not define it); the list holds
  nothing else, and docs/games.md shows it.
- Behaviour: every case of tests/data/p5_cases.json marked ``live`` (the data, string,
  conversion, curve, dictionary and misc functions) and a probe of the clock-driven
  and seeded functions (day() ... year(), shuffle() with Math.random) at several
  frames run in a QuickJS env and a browser env side by side; the JSON results must
  be identical. (tests/test_p5_semantics.py checks the same cases against golden
  values from a bare p5 page.)
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

import jsgym
from jsgym import p5_coverage
from conftest import browser_missing

REPO = pathlib.Path(__file__).resolve().parent.parent
CASES = json.loads((REPO / "tests" / "data" / "p5_cases.json").read_text())["cases"]
LIVE_CASES = [c for c in CASES if c.get("live")]
_MISSING = browser_missing()
needs_browser = pytest.mark.browser

# Frames per step of the side-by-side envs: odd, so the probes land on different
# seconds; eight steps reach past two minutes of virtual time.
FRAMESKIP = 997
GAME = """
function setup() { createCanvas(100, 100); }
function draw() {}
function resetGame(seed) {}
function getGameState() { return {score: 0, lives: 0, gameState: 'playing'}; }
"""

# p5's global-mode names: every p5.prototype member (inherited ones too) and every
# own field of the instance that p5 put on window; the private ones start with '_'.
ENUMERATE_JS = """(function () {
  var names = {};
  for (var k in p5.prototype) names[k] = true;
  Object.keys(p5.instance).forEach(function (k) { names[k] = true; });
  return Object.keys(names).filter(function (k) { return k[0] !== '_' && k in window; }).sort();
})()"""

# For each name: absent, refused (the "jsgym: NAME ... is not supported (" error of
# a refusing stub, or of a variable's throwing getter), or its type and JSON value.
# With `probe`, every function is called once with no arguments to find the refusing
# stubs: done in a throwaway QuickJS env (jsgym._core.eval_js), never in the browser.
DESCRIBE_JS = """(function (names, probe) {
  var out = {};
  names.forEach(function (k) {
    var d = Object.getOwnPropertyDescriptor(globalThis, k);
    if (!d) { out[k] = {status: 'absent'}; return; }
    var v;
    try { v = globalThis[k]; } catch (e) {
      out[k] = {status: /^jsgym: \\S+ is not supported \\(/.test(String(e && e.message)) ? 'refused' : 'throws',
                message: String(e && e.message)};
      return;
    }
    if (typeof v === 'function' && probe) {
      try { v(); } catch (e) {
        if (/^jsgym: \\S+\\(\\) is not supported \\(/.test(String(e && e.message))) {
          out[k] = {status: 'refused', message: String(e.message)};
          return;
        }
      }
    }
    var r = {status: 'present', type: typeof v};
    if (v === null || typeof v !== 'object' && typeof v !== 'function') r.value = v === undefined ? '<undefined>' : v;
    else if (Array.isArray(v)) r.value = JSON.stringify(v);
    out[k] = r;
  });
  return out;
})"""

RUN_CASES_JS = """(function (codes) {
  return codes.map(function (code) {
    try {
      var v = (0, eval)(code);
      return v === undefined ? '<undefined>' : JSON.stringify(v);
    } catch (e) {
      return 'THROW:' + (e && e.constructor ? e.constructor.name : typeof e);
    }
  });
})"""

# The clock and the seeded Math.random stream at one frame. hour() etc. read the
# virtual Date in the local time zone, in both backends (the host's zone).
CLOCK_PROBE = """[frameCount, millis(), Date.now(), day(), hour(), minute(), second(), month(),
  year(), new Date().getHours(), new Date().getTimezoneOffset(),
  shuffle([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), shuffle(['a', 'b', 'c', 'd', 'e']),
  (function () { var a = [1, 2, 3, 4, 5, 6]; shuffle(a, true); return a; })(),
  random(), Math.random(), int(random(100)), nf(millis() / 1000, 3, 2)]"""


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """A QuickJS env and a browser env of GAME, FRAMESKIP frames per step."""
    if _MISSING:
        pytest.skip(f"needs the browser backend: {_MISSING}")
    path = tmp_path_factory.mktemp("p5api") / "probe.js"
    path.write_text(GAME)
    q = jsgym.make_vec(path, 1, frameskip=FRAMESKIP)
    try:
        b = jsgym.make_vec(path, 1, backend="browser", frameskip=FRAMESKIP)
    except BaseException:
        q.close()
        raise
    yield q, b
    q.close()
    b.close()


@pytest.fixture(scope="module")
def p5_names(pair):
    """Real p5's global names and what each holds in the browser backend's page."""
    _, b = pair
    b.reset(seed=0)
    names = b.call_js(ENUMERATE_JS)
    assert len(names) > 400, names  # p5 1.11.13 has about 480
    return b.call_js(f"{DESCRIBE_JS}({json.dumps(names)}, false)")


@pytest.fixture(scope="module")
def quickjs_names(p5_names):
    """The same names in a fresh QuickJS env, every function probed."""
    from jsgym._core import eval_js

    return eval_js(f"{DESCRIBE_JS}({json.dumps(sorted(p5_names))}, true)")


def test_coverage_list_is_well_formed():
    listed = p5_coverage.not_applicable()  # raises on a name listed twice
    for category, (why, names) in p5_coverage.NOT_APPLICABLE.items():
        assert why and names, category
        assert list(names) == sorted(names), f"{category}: keep the names sorted"
    assert all(re.fullmatch(r"[A-Za-z_$][\w$]*", n) for n in listed)


def test_docs_show_the_coverage_list():
    text = (REPO / "docs" / "games.md").read_text()
    assert p5_coverage.markdown() in text, (
        "docs/games.md's 'p5 API coverage' section must be `python -m jsgym.p5_coverage`'s output")


@needs_browser
def test_every_p5_global_is_implemented_or_listed(p5_names, quickjs_names):
    listed = p5_coverage.not_applicable()
    missing = sorted(n for n in p5_names if n not in listed and quickjs_names[n]["status"] != "present")
    assert not missing, (
        f"p5 global-mode names that QuickJS lacks (or refuses) and jsgym/p5_coverage.py does not "
        f"list: {missing} " + str({n: quickjs_names[n] for n in missing}))


@needs_browser
def test_listed_names_are_p5_globals_that_quickjs_refuses(p5_names, quickjs_names):
    listed = p5_coverage.not_applicable()
    stale = sorted(n for n in listed if n not in p5_names)
    assert not stale, f"listed in jsgym/p5_coverage.py but not a p5 1.11.13 global: {stale}"
    implemented = sorted(n for n in listed if quickjs_names[n]["status"] == "present")
    assert not implemented, f"listed as not applicable but QuickJS implements them: {implemented}"
    want = {n: "absent" if n in p5_coverage.UNDEFINED else "refused" for n in listed}
    wrong = {n: quickjs_names[n] for n in listed if quickjs_names[n]["status"] != want[n]}
    assert not wrong, ("listed names neither refused with 'jsgym: ... is not supported' nor, "
                       f"for those in p5_coverage.UNDEFINED, undefined: {wrong}")
    assert set(p5_coverage.UNDEFINED) <= set(listed)


@needs_browser
def test_implemented_names_have_p5s_types_and_values(p5_names, quickjs_names):
    """Each implemented name has p5's type; a primitive variable (a constant, or an
    input variable at its idle value) and an array variable have p5's value too."""
    listed = p5_coverage.not_applicable()
    wrong = {}
    for name, want in p5_names.items():
        got = quickjs_names[name]
        if name in listed or got["status"] != "present":
            continue
        if got["type"] != want["type"] or got.get("value") != want.get("value"):
            wrong[name] = {"quickjs": got, "p5": want}
    assert not wrong, f"names whose type or value differs from p5's: {wrong}"


def _run_cases(env, codes):
    return env.call_js(f"{RUN_CASES_JS}({json.dumps(codes)})")


@needs_browser
def test_live_cases_identical_in_both_backends(pair):
    q, b = pair
    assert len(LIVE_CASES) > 150
    q.reset(seed=0)
    b.reset(seed=0)
    codes = [c["code"] for c in LIVE_CASES]
    got_q, got_b = _run_cases(q, codes), _run_cases(b, codes)
    diff = {c["name"]: {"code": c["code"], "quickjs": gq, "browser": gb}
            for c, gq, gb in zip(LIVE_CASES, got_q, got_b) if gq != gb}
    assert not diff, f"{len(diff)} cases differ between the backends: {diff}"


@needs_browser
@pytest.mark.parametrize("seed", [0, 12345])
def test_clock_and_seeded_functions_identical_at_each_frame(pair, seed):
    q, b = pair
    q.reset(seed=seed)
    b.reset(seed=seed)
    seen = []
    for step in range(9):
        if step:
            q.step([0])
            b.step([0])
        pq, pb = q.call_js(CLOCK_PROBE), b.call_js(CLOCK_PROBE)
        assert pq == pb, f"seed {seed}, frame {pq[0]}: QuickJS {pq} != browser {pb}"
        seen.append(pq)
    assert seen[0][0] == 1 and seen[-1][0] == 1 + 8 * FRAMESKIP
    if seen[0][10] == 0:  # a UTC host: the virtual epoch itself
        assert seen[0][3:10] == [1, 0, 0, 0, 1, 2024, 0], seen[0]
    assert {p[5] for p in seen} >= {0, 1, 2}, "the probes should cross two minutes"
    assert len({p[6] for p in seen}) >= 5, "the probes should land on different seconds"
    assert len({json.dumps(p[11]) for p in seen}) > 1, "shuffle() should follow the random stream"
