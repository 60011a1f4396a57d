"""Shared fixtures: small inline games written to temporary files."""

from __future__ import annotations

import pathlib
import textwrap

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
GAMES = sorted((REPO / "games").glob("*.js"))

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
