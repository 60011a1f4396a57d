"""Trails: frames drawn over the last one through a translucent ``background()``.

The browser keeps each canvas pixel's own history under a trail and rounds every
blend of it to 8 bits. An observation pixel at supersample 1 holds one mean of the
many canvas pixels it covers, so a shape moving under the trail leaves a smear that
drifts from the browser's. The canvas therefore draws a trail at twice the
supersampling asked for while that is coarser than the game's canvas
(``Canvas::refine_for_trail`` in rasterizer/src/canvas.rs), and goes back to it at a
frame that starts by covering the canvas (an opaque background, or opaque shapes).
"""

from __future__ import annotations

import numpy as np
import pytest

import jsgym
from conftest import browser_missing, browser_psnrs

needs_browser = pytest.mark.skipif(bool(browser_missing()), reason=browser_missing() or "")

# A ship that moves under a trail, with an inner shape of another colour and a tail
# of translucent circles behind it: what comet- and snake-like games draw. The first
# frame of an episode covers the canvas with a rectangle (or an opaque background
# unless COVER_WITH_RECT), and draws a circle if MARK.
MOVING_UNDER_TRAIL = """
var MARK = false, COVER_WITH_RECT = true;
var x, y, vx, vy, t;
function setup() { createCanvas(400, 400); background(10, 10, 30); }
function resetGame(seed) { x = 80 + seed; y = 120; vx = 3.1; vy = 1.7; t = 0; }
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
function draw() {
  t++;
  noStroke();
  if (t < 2) {
    fill(10, 10, 30);
    if (COVER_WITH_RECT) rect(0, 0, 400, 400); else background(10, 10, 30);
    fill(200, 255, 180);
    if (MARK) ellipse(133.3, 71.7, 31);
    return;
  }
  background(10, 10, 30, 60);
  x += vx; y += vy;
  if (x < 30 || x > 370) vx = -vx;
  if (y < 30 || y > 370) vy = -vy;
  for (var k = 1; k < 5; k++) {
    fill(255, 160, 60, 25);
    ellipse(x - vx * k * 3, y - vy * k * 3, 22 - k * 2);
  }
  fill(90, 200, 255);
  stroke(255);
  strokeWeight(1.5);
  ellipse(x, y, 24, 30);
  noStroke();
  fill(20, 40, 80);
  ellipse(x, y, 8, 12);
  fill(200, 255, 180);
  rect(200 + 60 * Math.sin(t * 0.1), 300, 14, 14);
}
"""

def _frames(path, steps: int, *, episodes: int = 1, **kw) -> list[np.ndarray]:
    env = jsgym.make_vec(str(path), 1, **kw)
    try:
        frames = []
        for episode in range(episodes):
            obs, _ = env.reset(seed=0)
            frames.append(obs[0].copy())
            for _ in range(steps):
                frames.append(env.step(np.zeros(1, dtype=np.int64))[0][0].copy())
        return frames
    finally:
        env.close()


def test_a_trail_draws_as_at_twice_the_supersampling(game_factory):
    # (the reset frame is one colour, so carrying it over to the finer canvas loses
    # nothing: every frame equals the one drawn at twice the supersampling from the
    # start, where that one is not refined again)
    path = game_factory(MOVING_UNDER_TRAIL, "trail")
    # 200 x 200 of a 400 x 400 canvas: 1 is refined to 2, and 2 is as fine as the canvas
    at1 = _frames(path, 30, supersample=1, obs_size=(200, 200))
    at2 = _frames(path, 30, supersample=2, obs_size=(200, 200))
    assert all(np.array_equal(a, b) for a, b in zip(at1, at2))
    # 64 x 64: 2 is refined to 4
    at2 = _frames(path, 30, supersample=2)
    at4 = _frames(path, 30, supersample=4)
    assert all(np.array_equal(a, b) for a, b in zip(at2, at4))


def test_a_trail_is_not_refined_where_the_observation_is_as_fine_as_the_canvas(game_factory):
    path = game_factory(MOVING_UNDER_TRAIL, "trail")
    at1 = _frames(path, 10, supersample=1, obs_size=(400, 400))
    at2 = _frames(path, 10, supersample=2, obs_size=(400, 400))
    assert not all(np.array_equal(a, b) for a, b in zip(at1[1:], at2[1:]))


@pytest.mark.parametrize("cover", ["rect", "background"])
def test_a_frame_that_covers_the_canvas_goes_back_to_the_supersampling_asked_for(game_factory, cover):
    # The frame after a reset starts by covering the whole canvas (opaque shapes, or an
    # opaque background()); drawn at the trail's finer supersampling, its circle's edge
    # would differ from the first episode's. (The canvas is not cleared at a reset, as
    # in the browser.)
    source = MOVING_UNDER_TRAIL.replace("MARK = false", "MARK = true")
    source = source.replace("COVER_WITH_RECT = true", f"COVER_WITH_RECT = {str(cover == 'rect').lower()}")
    at1 = _frames(game_factory(source, "trail"), 30, episodes=2)
    assert all(np.array_equal(a, b) for a, b in zip(at1[:31], at1[31:]))


@needs_browser
def test_shapes_moving_under_a_trail_match_the_browser(game_factory):
    # Median PSNR over 60 frames at supersample 1: 51.2 dB drawn at twice the
    # supersampling, 45.2 at the observation's.
    values = browser_psnrs(game_factory(MOVING_UNDER_TRAIL, "trail_browser"), 60, reset_frame=False)
    assert float(np.median(values)) >= 48.0, f"PSNR per frame: {[round(v, 1) for v in values]}"
