"""Canvas 2D shadows through `drawingContext` (shadowBlur, shadowColor,
shadowOffsetX/Y): p5 games set them for glow and drop shadows; and the context's
globalAlpha and save()/restore() that games wrap them in. The context's values
themselves (defaults, parsing, push/pop, save/restore, createCanvas) are golden cases
of tests/data/p5_cases.json; here, what they draw."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import DRAWING_GAME_HEADER as HEADER
from conftest import browser_missing, browser_psnrs
from conftest import run_frames as frames

jsgym = pytest.importorskip("jsgym")

needs_browser = pytest.mark.skipif(bool(browser_missing()), reason=browser_missing() or "")


# A neon scene as games write it: a glowing ring (stroke only, inside push/pop), a
# glowing translucent box, a drop shadow under a HUD, a glowing line, all moving.
GLOW = HEADER + """
function draw() {
  t++;
  background(10, 10, 30);
  push();
  drawingContext.shadowBlur = 20;
  drawingContext.shadowColor = color(0, 255, 255);
  noFill(); stroke(0, 255, 255); strokeWeight(4);
  ellipse(200 + 40 * sin(t * 0.1), 200, 80, 80);
  pop();
  drawingContext.shadowBlur = 12;
  drawingContext.shadowColor = 'rgba(255, 0, 200, 0.8)';
  fill(255, 0, 200); noStroke();
  rect(60 + (t % 100) * 1.3, 300, 50, 30);
  drawingContext.shadowBlur = 0;
  drawingContext.shadowOffsetX = 6;
  drawingContext.shadowOffsetY = 6;
  drawingContext.shadowColor = 'black';
  fill(250, 220, 60);
  textSize(28);
  text('SCORE ' + t, 20, 40);
  drawingContext.shadowOffsetX = 0;
  drawingContext.shadowOffsetY = 0;
  stroke(255, 120, 0); strokeWeight(3);
  drawingContext.shadowBlur = 8;
  drawingContext.shadowColor = '#ff7800';
  line(50, 150, 350, 120 + (t % 40));
}
"""



BOX = HEADER + """
function draw() {
  background(0);
  %s
  noStroke(); fill(255, 0, 0);
  rect(150, 150, 100, 100);
}
"""


def test_a_glow_spreads_around_the_shape_in_the_shadow_colour(game_factory):
    plain = frames(game_factory(BOX % "", "plain"), 1)[-1].astype(int)
    glow = frames(game_factory(BOX % "drawingContext.shadowBlur = 40; drawingContext.shadowColor = 'rgb(0, 255, 0)';", "glow"), 1)[-1].astype(int)
    inside = (plain[..., 0] > 0)
    # the box itself is unchanged: its fill is drawn over its shadow
    assert np.array_equal(glow[inside], plain[inside])
    # around it, green that fades with the distance (sigma 20 canvas px = 3.2 px)
    row = glow[32, :, 1]
    assert row[23] > row[21] > row[19] > row[17] > 0, row
    assert row[5] == 0 and glow[5, 5].sum() == 0
    assert (glow[~inside][:, [0, 2]] == 0).all()


@pytest.mark.parametrize("setting", [
    "drawingContext.shadowBlur = 30;",                                         # transparent colour
    "drawingContext.shadowColor = 'red';",                                     # no blur, no offset
    "drawingContext.shadowBlur = 30; drawingContext.shadowColor = 'rgba(0, 255, 0, 0)';",
    "push(); drawingContext.shadowBlur = 30; drawingContext.shadowColor = 'lime'; pop();",
])
def test_a_shadow_that_cannot_show_draws_nothing(game_factory, setting):
    plain = frames(game_factory(BOX % "", "plain"), 3)
    other = frames(game_factory(BOX % setting, "other"), 3)
    assert np.array_equal(plain, other)


def test_a_drop_shadow_without_blur_is_the_shape_moved(game_factory):
    # an offset of whole observation pixels (400 / 64 = 6.25 canvas px each)
    shifted = frames(game_factory(BOX % "drawingContext.shadowOffsetX = 12.5; drawingContext.shadowOffsetY = 25; drawingContext.shadowColor = 'blue';", "drop"), 1)[-1].astype(int)
    plain = frames(game_factory(BOX % "", "plain"), 1)[-1].astype(int)
    shadow = (shifted[..., 2] > 0)
    moved = np.zeros_like(shadow)
    moved[4:, 2:] = plain[:-4, :-2, 0] > 0
    moved &= ~(plain[..., 0] > 0)
    assert np.array_equal(shadow, moved)
    assert (shifted[shadow][:, 2] == 255).all()


def test_the_shadow_set_in_one_frame_casts_in_the_next(game_factory):
    # canvas state persists from frame to frame as in p5: a game that sets the shadow
    # once in setup() has it on every frame
    once = HEADER.replace("createCanvas(400, 400); }", "createCanvas(400, 400); drawingContext.shadowBlur = 40; drawingContext.shadowColor = 'lime'; }") + """
function draw() { background(0); noStroke(); fill(255, 0, 0); rect(150 + frameCount, 150, 100, 100); }
"""
    out = frames(game_factory(once, "once"), 3)
    assert all((f[32, :20, 1] > 0).any() for f in out)


@pytest.mark.parametrize("code, name", [
    ("drawingContext.filter = 'blur(2px)';", "filter"),
    ("drawingContext.fillStyle = 'red';", "fillStyle"),
    ("let g = drawingContext.createLinearGradient(0, 0, 10, 0);", "createLinearGradient"),
])
def test_other_members_of_the_context_are_refused_by_name(game_factory, code, name):
    path = game_factory(BOX % code, "refused")
    with pytest.raises(jsgym.errors.GameError) as e:
        frames(path, 1)
    message = str(e.value)
    assert f"drawingContext.{name} is not supported" in message and "refused" in message


def test_shadowed_frames_are_deterministic(game_factory):
    path = game_factory(GLOW, "glow")
    assert np.array_equal(frames(path, 20), frames(path, 20))


@needs_browser
@pytest.mark.parametrize("supersample, floor", [(1, 46.0), (2, 50.0)])
def test_glow_matches_the_browser(game_factory, supersample, floor):
    values = browser_psnrs(game_factory(GLOW, "glow_browser"), 30, supersample=supersample)
    assert float(np.median(values)) >= floor, values


# A glowing HUD and a glowing ship over a trail, with additive sparks.
OVER_TRAIL = HEADER + """
let sparks = [];
function draw() {
  t++;
  background(0, 0, 20, 60);
  if (t % 2) sparks.push({ x: 200, y: 150, vx: cos(t) * 2, vy: sin(t * 1.7) * 2, life: 40 });
  sparks = sparks.filter(s => s.life > 0);
  blendMode(ADD);
  noStroke();
  for (const s of sparks) { s.x += s.vx; s.y += s.vy; s.life--; fill(255, 150, 50, s.life * 4); circle(s.x, s.y, 8); }
  blendMode(BLEND);
  push();
  translate(200, 150); rotate(t * 0.05);
  drawingContext.shadowBlur = 15; drawingContext.shadowColor = '#00ffff';
  stroke(0, 255, 255); strokeWeight(2); noFill();
  triangle(-12, 10, 12, 10, 0, -16);
  pop();
  drawingContext.shadowBlur = 6; drawingContext.shadowColor = 'rgba(255, 255, 255, 0.7)';
  fill(255); noStroke(); textSize(16); textAlign(LEFT, TOP);
  text('SCORE ' + t, 10, 10);
  drawingContext.shadowBlur = 0;
}
"""


@needs_browser
def test_a_glow_over_a_trail_matches_the_browser(game_factory):
    # (the shadow blends into the trail's canvas pixels, each with its own history:
    # blended at observation size the HUD's glow settled brighter, 40.5 dB)
    values = browser_psnrs(game_factory(OVER_TRAIL, "trail_glow"), 40, reset_frame=False)
    assert float(np.median(values)) >= 48.0, values


def test_global_alpha_fades_every_colour(game_factory):
    game = HEADER + """
function draw() { background(200, 100, 0); drawingContext.globalAlpha = 0.5; noStroke();
  fill(0, 100, 200); rect(0, 0, 400, 200); background(0, 0, 0, 255); }
"""
    # the rect at half its alpha over the background; then background(0) at half too
    # (in the first frame: globalAlpha stays set, as the canvas keeps it, so the next
    # frame's background() is at half alpha too)
    out = frames(game_factory(game, "faded"), 1)[0].astype(int)
    assert tuple(out[5, 5]) == (50, 50, 50) and tuple(out[50, 5]) == (100, 50, 0), (out[5, 5], out[50, 5])


def test_restore_takes_back_what_save_kept(game_factory):
    saved = HEADER + """
function draw() { background(0); noStroke(); fill(255, 0, 0);
  drawingContext.save(); drawingContext.shadowBlur = 30; drawingContext.shadowColor = 'lime';
  drawingContext.globalAlpha = 0.3; fill(0, 0, 255); translate(50, 0); drawingContext.restore();
  rect(150, 150, 100, 100); }
"""
    plain = HEADER + "function draw() { background(0); noStroke(); fill(255, 0, 0); rect(150, 150, 100, 100); }"
    assert np.array_equal(frames(game_factory(saved, "saved"), 2), frames(game_factory(plain, "plain"), 2))


# Games fade things in and out with globalAlpha, and wrap their glow in save/restore.
FADES = HEADER + """
function draw() {
  t++;
  background(15, 20, 40);
  noStroke();
  for (let i = 0; i < 6; i++) {
    drawingContext.globalAlpha = 0.15 + 0.14 * i;
    fill(255, 180 - i * 20, 60);
    rect(30 + i * 60, 80 + 20 * sin(t * 0.1 + i), 45, 45);
  }
  drawingContext.globalAlpha = 1;
  drawingContext.save();
  drawingContext.shadowBlur = 18;
  drawingContext.shadowColor = 'magenta';
  drawingContext.globalAlpha = 0.8;
  fill(255, 80, 255);
  circle(200 + 100 * cos(t * 0.05), 280, 50);
  drawingContext.restore();
  fill(240); textSize(22); text('LEVEL ' + (1 + floor(t / 10)), 20, 380);
}
"""


@needs_browser
def test_fades_and_saved_glow_match_the_browser(game_factory):
    values = browser_psnrs(game_factory(FADES, "fades"), 30)
    assert float(np.median(values)) >= 46.0, values
