"""drawingContext.setLineDash() and lineDashOffset: strokes drawn as dashes, as
Chromium's canvas draws them. The context's values themselves are golden cases of
tests/data/p5_cases.json."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import DRAWING_GAME_HEADER as HEADER
from conftest import browser_missing, browser_psnrs
from conftest import run_frames as frames

jsgym = pytest.importorskip("jsgym")

needs_browser = pytest.mark.skipif(bool(browser_missing()), reason=browser_missing() or "")


# A pong court's dashed centre line, a marching-ants selection box, a dashed ring, a
# dashed aiming path with square caps, and a solid line after setLineDash([]).
DASHED = HEADER + """
function draw() {
  t++;
  background(20);
  stroke(220); strokeWeight(4);
  drawingContext.setLineDash([12, 10]);
  line(200, 0, 200, 400);
  push();
  drawingContext.setLineDash([6, 4]);
  drawingContext.lineDashOffset = -t * 0.7;
  noFill(); stroke(255, 200, 0); strokeWeight(2);
  rect(40, 60, 110, 80);
  stroke(0, 200, 255); strokeWeight(3);
  circle(300, 120, 120 + sin(t * 0.1) * 10);
  pop();
  drawingContext.setLineDash([1, 8]);
  strokeCap(SQUARE); stroke(255, 80, 80); strokeWeight(3); noFill();
  beginShape();
  for (let i = 0; i <= 20; i++) vertex(40 + i * 16, 330 - 60 * sin(i * 0.3 + t * 0.05));
  endShape();
  strokeCap(ROUND);
  drawingContext.setLineDash([]);
  stroke(120, 255, 120); strokeWeight(2);
  line(20, 380, 380, 370);
}
"""



LINE = HEADER + "function draw() { background(0); stroke(255); strokeWeight(12.5); strokeCap(SQUARE); %s line(0, 200, 400, 200); }"


def test_a_dashed_line_is_on_and_off_in_turn(game_factory):
    # 37.5 on, 62.5 off, in canvas units (6.25 to an observation pixel at 64 x 64),
    # with p5's SQUARE caps (canvas 'butt': none): dashes over [100 k, 100 k + 37.5],
    # observation pixels [16 k, 16 k + 6); PROJECT caps reach 6.25 (a pixel) further
    runs_of = lambda row: [(int(r[0]), int(r[-1]) + 1) for r in np.split(np.flatnonzero(row > 128), np.flatnonzero(np.diff(np.flatnonzero(row > 128)) > 1) + 1)]
    out = frames(game_factory(LINE % "drawingContext.setLineDash([37.5, 62.5]);", "dashed"), 1)[-1]
    assert runs_of(out[32, :, 0]) == [(0, 6), (16, 22), (32, 38), (48, 54)]
    out = frames(game_factory(LINE.replace("strokeCap(SQUARE)", "strokeCap(PROJECT)") % "drawingContext.setLineDash([37.5, 62.5]);", "projected"), 1)[-1]
    assert runs_of(out[32, :, 0]) == [(0, 7), (15, 23), (31, 39), (47, 55)]


def test_no_dash_and_an_all_zero_pattern_stroke_solid(game_factory):
    solid = frames(game_factory(LINE % "", "solid"), 1)
    for setting in ["drawingContext.setLineDash([0, 0]);", "drawingContext.setLineDash([]);",
                    "push(); drawingContext.setLineDash([5, 5]); pop();"]:
        assert np.array_equal(frames(game_factory(LINE % setting, "other"), 1), solid), setting


def test_the_offset_moves_the_dashes(game_factory):
    a = frames(game_factory(LINE % "drawingContext.setLineDash([25, 25]);", "a"), 1)[-1]
    b = frames(game_factory(LINE % "drawingContext.setLineDash([25, 25]); drawingContext.lineDashOffset = 25;", "b"), 1)[-1]
    # (half a period later: where one is on the other is off, away from the caps)
    ra, rb = a[32, :, 0] > 200, b[32, :, 0] > 200
    assert ra.any() and rb.any() and not (ra & rb).any()


def test_too_long_a_pattern_is_refused_by_name(game_factory):
    game = HEADER + "function draw() { drawingContext.setLineDash(new Array(33).fill(2)); line(0, 0, 10, 10); }"
    with pytest.raises(jsgym.errors.GameError) as e:
        frames(game_factory(game, "long"), 1)
    assert "setLineDash() with more than 32 lengths" in str(e.value)


@needs_browser
@pytest.mark.parametrize("supersample, floor", [(1, 50.0), (2, 51.0)])
def test_dashes_match_the_browser(game_factory, supersample, floor):
    values = browser_psnrs(game_factory(DASHED, "dash_browser"), 20, supersample=supersample)
    assert float(np.median(values)) >= floor, values
