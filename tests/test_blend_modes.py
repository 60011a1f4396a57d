"""p5's blendMode() (the canvas 2D globalCompositeOperation): each fill and stroke
combines with the canvas by the mode's blend function, as Chromium's canvas does;
background() takes the mode too (a classic: under ADD it no longer clears), and
push()/pop() save and restore it."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import DRAWING_GAME_HEADER as HEADER
from conftest import browser_missing, browser_psnrs
from conftest import run_frames as frames

jsgym = pytest.importorskip("jsgym")

needs_browser = pytest.mark.skipif(bool(browser_missing()), reason=browser_missing() or "")


# Additive particles as games draw them: translucent discs that brighten where they
# overlap, moving, over a background drawn in BLEND.
PARTICLES = HEADER + """
function draw() {
  t++;
  background(5, 5, 20);
  blendMode(ADD);
  noStroke();
  for (let i = 0; i < 40; i++) {
    const a = i * 0.7 + t * 0.03;
    fill(255 * (i % 3 === 0), 120, 255 * (i % 3 === 2), 90);
    circle(200 + cos(a) * (60 + i * 3), 200 + sin(a * 1.3) * (50 + i * 2), 30 + (i % 5) * 8);
  }
  blendMode(BLEND);
  fill(255); textSize(20); text('glow ' + t, 10, 30);
}
"""

# Every mode over a backdrop of colour bars: a row of discs and a row of stroked
# rectangles per mode.
MODES = ["BLEND", "ADD", "DARKEST", "LIGHTEST", "DIFFERENCE", "EXCLUSION", "MULTIPLY",
         "SCREEN", "OVERLAY", "HARD_LIGHT", "SOFT_LIGHT", "DODGE", "BURN"]
BOARD = HEADER + """
function draw() {
  // (p5's constants exist once p5 has started, not at the file's top level)
  const MODES = [%s];
  t++;
  background(40);
  noStroke();
  for (let i = 0; i < 8; i++) { fill(i * 36, 255 - i * 30, (i * 90) %% 256); rect(i * 50, 0, 50, 400); }
  for (let k = 0; k < MODES.length; k++) {
    push();
    blendMode(MODES[k]);
    fill(230, 120, 40, 200); stroke(40, 160, 230); strokeWeight(3);
    ellipse(30 + (k %% 7) * 55 + (t %% 10), 40 + floor(k / 7) * 180, 44, 44);
    rect(10 + (k %% 7) * 55, 100 + floor(k / 7) * 180, 40, 50);
    pop();
  }
}
""" % ", ".join(MODES)



def solid(colour_call: str, mode: str, over: str) -> str:
    return HEADER + f"""
function draw() {{ background({over}); blendMode({mode}); noStroke(); fill({colour_call}); rect(0, 0, 400, 400); blendMode(BLEND); }}
"""


@pytest.mark.parametrize("mode, over, colour, want", [
    ("ADD", "100, 50, 200", "100, 100, 100", (200, 150, 255)),
    ("ADD", "100, 50, 200", "100, 100, 100, 128", (150, 100, 250)),
    ("MULTIPLY", "200, 100, 50", "255, 128, 0", (200, 50, 0)),
    ("SCREEN", "200, 100, 50", "255, 128, 0", (255, 178, 50)),
    ("DARKEST", "200, 100, 50", "100, 150, 50", (100, 100, 50)),
    ("LIGHTEST", "200, 100, 50", "100, 150, 50", (200, 150, 50)),
    ("DIFFERENCE", "200, 100, 50", "100, 150, 50", (100, 50, 0)),
])
def test_each_mode_combines_a_covering_fill_with_the_canvas(game_factory, mode, over, colour, want):
    out = frames(game_factory(solid(colour, mode, over), "solid"), 1)
    assert (out[-1].reshape(-1, 3) == np.array(want)).all(), out[-1][0, 0]


def test_background_takes_the_blend_mode(game_factory):
    # under ADD, background() adds: the canvas brightens frame after frame
    game = HEADER + "function draw() { blendMode(ADD); background(20); }"
    out = frames(game_factory(game, "add_bg"), 3)
    assert [int(f[0, 0, 0]) for f in out] == [20, 40, 60, 80]


def test_pop_restores_the_blend_mode(game_factory):
    inside = HEADER + "function draw() { background(100); push(); blendMode(ADD); pop(); noStroke(); fill(50); rect(0, 0, 400, 400); }"
    assert (frames(game_factory(inside, "popped"), 1)[-1] == 50).all()


def test_create_canvas_resets_the_blend_mode(game_factory):
    game = HEADER.replace("createCanvas(400, 400); }", "blendMode(ADD); createCanvas(400, 400); }") + "function draw() { background(100); noStroke(); fill(50); rect(0, 0, 400, 400); }"
    assert (frames(game_factory(game, "reset"), 1)[-1] == 50).all()


@pytest.mark.parametrize("mode", ["REMOVE", "REPLACE"])
def test_modes_that_make_pixels_transparent_are_refused(game_factory, mode):
    game = HEADER + f"function draw() {{ background(0); blendMode({mode}); rect(0, 0, 10, 10); }}"
    with pytest.raises(jsgym.errors.GameError) as e:
        frames(game_factory(game, "refused"), 1)
    assert f"blendMode({mode}) is not supported" in str(e.value)


def test_blended_frames_are_deterministic(game_factory):
    path = game_factory(PARTICLES, "particles")
    assert np.array_equal(frames(path, 10), frames(path, 10))


@needs_browser
@pytest.mark.parametrize("source, floor", [(PARTICLES, 54.0), (BOARD, 43.0)], ids=["particles", "modes"])
def test_blend_modes_match_the_browser(game_factory, source, floor):
    values = browser_psnrs(game_factory(source, "blend_browser"), 20)
    assert float(np.median(values)) >= floor, values
