"""Shared fixtures: small inline games written to temporary files, and the backends.

A test marked ``browser`` (or parametrised with :data:`BACKENDS`) runs on the browser
backend too; it is skipped where Chromium or the pinned p5.js is missing, except in
CI, where that is an error.
"""

from __future__ import annotations

import functools
import os
import pathlib
import textwrap

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
GAMES = sorted((REPO / "jsgym" / "games").glob("*.js"))
#: Both backends, for tests of the contract every backend must meet.
BACKENDS = ["quickjs", pytest.param("browser", marks=pytest.mark.browser)]


@functools.lru_cache(maxsize=1)
def browser_missing() -> str | None:
    """Why the browser backend cannot run here, or None."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (bash scripts/setup_browser.sh)"
    from jsgym.browser import chromium_path, p5_path

    try:
        p5_path()
    except FileNotFoundError as exc:
        return str(exc)
    if chromium_path() is None and not os.environ.get("PLAYWRIGHT_BROWSERS_PATH"):
        if not os.path.isdir(os.path.expanduser("~/.cache/ms-playwright")):
            return "no Chromium (bash scripts/setup_browser.sh)"
    return None


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    """Each backend in turn: a test taking it states the contract of both."""
    return request.param


def pytest_collection_modifyitems(config, items):
    browser_items = [item for item in items if item.get_closest_marker("browser")]
    if not browser_items or not browser_missing():
        return
    if os.environ.get("CI"):
        raise RuntimeError(f"browser tests cannot run in CI: {browser_missing()}")
    skip = pytest.mark.skip(reason=browser_missing())
    for item in browser_items:
        item.add_marker(skip)

# A game whose state exposes what the runtime did: frames drawn, key events seen.
PROBE_GAME = """
let log = [];
let score = 0, state = 'playing', seedSeen = -1, limit = 1e9;
function setup() { createCanvas(40, 40); }
function resetGame(seed) {
  seedSeen = seed; score = 0; state = 'playing'; log = [];
  limit = (typeof GAME_OPTIONS === 'object' && GAME_OPTIONS.limit) || 1e9;
}
function draw() {
  background(0);
  log.push(['frame', frameCount, keyIsDown(LEFT_ARROW), keyIsDown(32)]);
  if (keyIsDown(RIGHT_ARROW)) score += 1;
  fill(255, 0, 0);
  rect((seedSeen * 7 + frameCount * 3) % 40, 10, 8, 8);
  if (frameCount >= limit) state = 'gameover';
}
function keyPressed() { log.push(['down', keyCode]); }
function keyReleased() { log.push(['up', keyCode]); }
function getGameState() { return {score: score, lives: 3, gameState: state}; }
"""


def browser_psnrs(path, steps: int, *, reset_frame: bool = True, **make_kw) -> list[float]:
    """Frame PSNR of the browser and QuickJS backends on one env of the game at
    ``path``, stepped ``steps`` times with action 0 from seed 0 (the reset frame first
    when ``reset_frame``)."""
    import numpy as np

    import jsgym
    from jsgym.validate import psnr

    browser = jsgym.make_vec(str(path), 1, backend="browser", **make_kw)
    native = jsgym.make_vec(str(path), 1, **make_kw)
    try:
        a, _ = browser.reset(seed=0)
        b, _ = native.reset(seed=0)
        values = [psnr(a[0], b[0])] if reset_frame else []
        for _ in range(steps):
            act = np.zeros(1, dtype=np.int64)
            values.append(psnr(browser.step(act)[0][0], native.step(act)[0][0]))
    finally:
        browser.close()
        native.close()
    return values


#: The contract around a drawing test's `draw()`: a frame counter `t` as the score.
DRAWING_GAME_HEADER = """
function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }
let t = 0;
function resetGame(seed) { t = 0; }
function getGameState() { return { score: t, lives: 1, gameState: 'playing' }; }
function setup() { createCanvas(400, 400); }
"""


def run_frames(path, steps: int = 2, **make_kw):
    """The QuickJS backend's frames of one env of the game at ``path``: the reset
    frame, then ``steps`` steps of action 0, stacked."""
    import numpy as np

    import jsgym

    envs = jsgym.make_vec(str(path), 1, **make_kw)
    try:
        out = [envs.reset(seed=0)[0][0].copy()]
        for _ in range(steps):
            out.append(envs.step(np.zeros(1, dtype=np.int64))[0][0].copy())
    finally:
        envs.close()
    return np.stack(out)


def write_game(directory: pathlib.Path, source: str, name: str = "game") -> pathlib.Path:
    path = directory / f"{name}.js"
    path.write_text(textwrap.dedent(source))
    return path


@pytest.fixture
def probe_game(tmp_path) -> pathlib.Path:
    return write_game(tmp_path, PROBE_GAME, "probe")


@pytest.fixture
def game_factory(tmp_path):
    def make(source: str, name: str = "game") -> pathlib.Path:
        return write_game(tmp_path, source, name)
    return make
