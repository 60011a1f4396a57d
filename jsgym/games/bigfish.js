// BigFish: a clone of OpenAI ProcGen's "bigfish".
//
// The player is a small fish in a 20x20-unit aquarium (20 px per unit). Other
// fish swim straight across from the left or right edge; the agent eats fish
// that are smaller than itself (or equal) and dies on touching a bigger one.
// Every fish eaten makes the player grow, so more fish become edible. Eating
// `quota` fish (30) completes the level.
//
// Canvas: 400x400, no scrolling.
// Actions (default table):
//   0 NOOP; 1 LEFT, 2 RIGHT, 3 UP, 4 DOWN held: swim (velocity eases toward the
//   held direction, as ProcGen's mixrate);
//   5 SPACE: nothing (NOOP); 6 LEFT + SPACE = LEFT; 7 RIGHT + SPACE = RIGHT.
// Rewards (as ProcGen): +1 per fish eaten, +10 on eating the quota (episode won).
// Termination: 'gameover' when a bigger fish is touched or after `timeLimit`
//   frames; 'won' when `quota` fish have been eaten. lives = 1.
// Procedural generation from the seed: water palette, seabed shape, seaweed
//   and rocks, the player's start x, the three fish already swimming at the
//   start, and every later fish (size, height, direction, speed, colour).
// distribution_mode: 'easy' starts the player at radius 1 unit, 'hard' at 0.5
//   (so far fewer fish are edible at first), as in ProcGen.
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'   'easy' | 'hard'
//   timeLimit: 1000             frames before the episode ends as 'gameover'
//   quota: 30                   fish to eat to win
// Simplifications: fish are drawn with ellipses and triangles, not sprites;
//   collisions use a box 90% of the fish body (1.8r x 1.08r); three fish
//   are pre-spawned so the first frames show the mechanic (ProcGen starts
//   empty); ProcGen's episode timeout of 6000 steps is 1000 frames here;
//   no diagonal actions (ProcGen has 15 actions).

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  timeLimit: 1000,
  quota: 30,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const HARD = OPT.distribution_mode === 'hard';
const U = 20;                     // px per world unit
const WORLD = 20;                 // world is 20x20 units
const FISH_MIN_R = 0.25;
const FISH_MAX_R = 2;
const START_R = HARD ? 0.5 : 1;
const MAXSPEED = 0.5;             // units per frame
const MIXRATE = 0.5;
const BODY_H = 0.6;               // body half-height / half-width

const WATER = [[38, 112, 168], [30, 88, 140], [52, 140, 170], [24, 70, 110], [40, 120, 130], [60, 96, 160], [28, 100, 120], [48, 80, 130]];
const SAND = [[214, 190, 120], [190, 170, 110], [160, 150, 130], [200, 160, 100], [150, 140, 110]];
const FISH_COLS = [[222, 70, 70], [90, 200, 90], [170, 90, 210], [240, 130, 180], [80, 200, 220], [150, 150, 160], [110, 110, 230]];

let rng;
let score, lives, gameState, t;
let px, py, pvx, pvy, pr, facing, eaten, rInc;
let fish;
let water, sand, seabed, weeds, rocks, pcol;
// The scenery never moves, so its colours and vertices are computed once per
// level in resetGame (same expressions as drawn before) instead of every frame:
let weedShapes;                   // per weed: [r, g, b, then 7 vertices as x, y pairs]
let seabedVerts;                  // flat x, y pairs of the seabed polygon

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  t = 0;
  eaten = 0;
  rInc = (FISH_MAX_R - START_R) / OPT.quota;
  water = WATER[Math.floor(rng() * WATER.length)];
  sand = SAND[Math.floor(rng() * SAND.length)];
  seabed = [];
  const base = 1 + rng() * 1.2;
  const ph = rng() * 6.28, fr = 0.3 + rng() * 0.5;
  for (let i = 0; i <= 10; i++) seabed.push(base + 0.6 * sin(ph + i * fr * 2) + rng() * 0.3);
  weeds = [];
  const nw = 3 + Math.floor(rng() * 6);
  for (let i = 0; i < nw; i++) weeds.push({ x: rng() * WORLD, h: 2 + rng() * 5, c: Math.floor(rng() * 3) });
  rocks = [];
  const nr = 1 + Math.floor(rng() * 4);
  for (let i = 0; i < nr; i++) rocks.push({ x: rng() * WORLD, r: 0.6 + rng() * 1.2 });
  weedShapes = [];
  for (let i = 0; i < weeds.length; i++) {
    const wd = weeds[i];
    const bx = wd.x * U, top = H - wd.h * U;
    weedShapes.push([40 + wd.c * 20, 140 + wd.c * 20, 70,
      bx - 6, H,
      bx - 10, top + (H - top) * 0.6,
      bx - 2, top + (H - top) * 0.3,
      bx, top,
      bx + 6, top + (H - top) * 0.3,
      bx - 2, top + (H - top) * 0.6,
      bx + 6, H]);
  }
  seabedVerts = [0, H];
  for (let i = 0; i <= 10; i++) seabedVerts.push(i * 40, H - seabed[i] * U);
  seabedVerts.push(W, H);
  pcol = rng() < 0.5 ? [250, 200, 40] : [250, 160, 30];
  pr = START_R;
  px = 2 + rng() * (WORLD - 4);
  py = WORLD - 1 - pr;
  pvx = 0; pvy = 0;
  facing = 1;
  fish = [];
  for (let i = 0; i < 3; i++) {
    spawnFish();
    const f = fish[fish.length - 1];
    f.x = 1 + rng() * (WORLD - 2);
    f.y = rng() * (WORLD - 8) + 1 + f.r * BODY_H;   // keep away from the player's start row
  }
}

function spawnFish() {
  const r = (FISH_MAX_R - FISH_MIN_R) * Math.pow(rng(), 1.4) + FISH_MIN_R;
  const y = r * BODY_H + rng() * (WORLD - 2 * r * BODY_H);
  const right = rng() < 0.5;
  const vx = (0.15 + rng() * 0.25) * (right ? 1 : -1);
  fish.push({ x: right ? -r : WORLD + r, y: y, vx: vx, r: r, c: FISH_COLS[Math.floor(rng() * FISH_COLS.length)] });
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function update() {
  if (gameState !== 'playing') return;
  t += 1;
  let ax = 0, ay = 0;
  if (keyIsDown(LEFT_ARROW)) ax -= 1;
  if (keyIsDown(RIGHT_ARROW)) ax += 1;
  if (keyIsDown(UP_ARROW)) ay -= 1;
  if (keyIsDown(DOWN_ARROW)) ay += 1;
  if (ax > 0) facing = 1;
  if (ax < 0) facing = -1;
  pvx = (1 - MIXRATE) * pvx + MIXRATE * MAXSPEED * ax;
  pvy = (1 - MIXRATE) * pvy + MIXRATE * MAXSPEED * ay;
  px = constrain(px + pvx, pr, WORLD - pr);
  py = constrain(py + pvy, pr * BODY_H, WORLD - pr * BODY_H);
  for (let i = fish.length - 1; i >= 0; i--) {
    const f = fish[i];
    f.x += f.vx;
    if (f.x < -f.r - 1 || f.x > WORLD + f.r + 1) fish.splice(i, 1);
  }
  if (Math.floor(rng() * 10) === 1) spawnFish();
  for (let i = fish.length - 1; i >= 0; i--) {
    const f = fish[i];
    if (Math.abs(f.x - px) < (f.r + pr) * 0.9 && Math.abs(f.y - py) < (f.r + pr) * BODY_H * 0.9) {
      if (f.r > pr) { gameState = 'gameover'; return; }
      fish.splice(i, 1);
      score += 1;
      eaten += 1;
      pr += rInc;
    }
  }
  if (eaten >= OPT.quota) { score += 10; gameState = 'won'; return; }
  if (t >= OPT.timeLimit) gameState = 'gameover';
}

function drawFish(x, y, r, dir, c, isPlayer) {
  const cx = x * U, cy = y * U, rx = r * U, ry = r * U * BODY_H;
  fill(c[0] * 0.75, c[1] * 0.75, c[2] * 0.75);
  triangle(cx - dir * rx * 0.6, cy, cx - dir * rx * 1.1, cy - ry * 0.95, cx - dir * rx * 1.1, cy + ry * 0.95);
  triangle(cx - dir * rx * 0.3, cy - ry * 0.6, cx + dir * rx * 0.2, cy - ry * 0.6, cx - dir * rx * 0.2, cy - ry * 1.25);
  if (isPlayer) { stroke(255); strokeWeight(2); }
  fill(c[0], c[1], c[2]);
  ellipse(cx + dir * rx * 0.1, cy, rx * 1.8, ry * 2);
  noStroke();
  fill(255);
  ellipse(cx + dir * rx * 0.5, cy - ry * 0.2, ry * 0.7, ry * 0.7);
  fill(20);
  ellipse(cx + dir * rx * 0.55, cy - ry * 0.2, ry * 0.35, ry * 0.35);
}

function draw() {
  update();
  background(water[0], water[1], water[2]);
  noStroke();
  // light rays
  fill(water[0] + 14, water[1] + 14, water[2] + 14);
  quad(60, 0, 130, 0, 60, H, -40, H);
  quad(250, 0, 300, 0, 260, H, 170, H);
  // seaweed
  for (let i = 0; i < weedShapes.length; i++) {
    const ws = weedShapes[i];
    fill(ws[0], ws[1], ws[2]);
    beginShape();
    for (let k = 3; k < 17; k += 2) vertex(ws[k], ws[k + 1]);
    endShape(CLOSE);
  }
  // seabed
  fill(sand[0], sand[1], sand[2]);
  beginShape();
  for (let k = 0; k < seabedVerts.length; k += 2) vertex(seabedVerts[k], seabedVerts[k + 1]);
  endShape(CLOSE);
  fill(sand[0] * 0.6, sand[1] * 0.6, sand[2] * 0.6);
  for (let i = 0; i < rocks.length; i++) { const rk = rocks[i]; ellipse(rk.x * U, H - 8, rk.r * 2 * U, rk.r * 1.2 * U); }
  for (let i = 0; i < fish.length; i++) { const f = fish[i]; drawFish(f.x, f.y, f.r, f.vx > 0 ? 1 : -1, f.c, false); }
  if (gameState !== 'gameover' || t < OPT.timeLimit) drawFish(px, py, pr, facing, pcol, true);
}
