// expect: GameTimeoutError in rendering the frame: 99,990 stroked ellipses on frame 4 with frameskip=4 (the skipped frame is rendered when the next does not cover it)
// args: {"make": {"step_timeout": 1.0, "frameskip": 4, "supersample": 4}, "steps": 3}
// GAME_OPTIONS = {armed: false} turns the misbehaviour off (the tests' reference run).
const ARMED = typeof GAME_OPTIONS !== 'object' || GAME_OPTIONS === null || GAME_OPTIONS.armed !== false;
let score = 0, x = 0, rng = null, bad = false;
function setup() { createCanvas(64, 64); }
function resetGame(seed) {
  bad = ARMED && seed % 2 === 1;
  rng = mulberry32(seed);
  score = 0;
  x = Math.floor(rng() * 56);
}
function draw() {
  if (frameCount % 4 === 2) background(30); // the first frame of each step: frame 4 (skipped) shows through frame 5
  x = (x + 3) % 56;
  score += x % 3;
  fill(250, 200, 0);
  rect(x, 28, 8, 8);
  if (bad && frameCount === 4) {
    // within every count limit (max_draw_calls is 100,000), but ~5 s of rasterizing
    stroke(255, 0, 0);
    strokeWeight(3);
    noFill();
    for (let i = 0; i < 99990; i++) ellipse(32, 32, 60 - (i % 50), 40);
  }
}
function getGameState() {
  return {score: score, lives: 3, gameState: 'playing'};
}
function mulberry32(a) { return function () { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }
