// Leaper: a clone of OpenAI ProcGen "Leaper" (itself a Frogger clone).
//
// The frog starts on the bottom row and must reach the finish line. On the way
// it crosses lanes of road, where cars kill it, then lanes of river, where it
// must hop onto drifting logs (falling into the water kills it; a log carrying
// the frog off the screen kills it too). Every level seed gives a different
// difficulty (0-3 road lanes and as many river lanes in easy mode), lane
// speeds and directions, traffic, start column and colour theme.
//
// Canvas: 400x400, the whole world is visible (9x9 tiles easy, 15x15 hard).
// Actions (default table):
//   1 LEFT, 2 RIGHT, 3 UP, 4 DOWN held: hop one tile that way (a hop takes 4
//     frames; holding keeps hopping);
//   6 LEFT+SPACE, 7 RIGHT+SPACE: as LEFT / RIGHT; 0 NOOP, 5 SPACE: nothing.
// Scoring: +10 for landing on the finish line (ProcGen's only reward).
// Termination: 'won' on the finish line; 'gameover' when hit by a car, landing
//   in the water, carried off screen, or after `maxSteps` frames.
//   lives is always 1.
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'  'easy': 9x9 world, 0-3 lanes of each kind, slower
//                              traffic; 'hard': 15x15, up to 5 lanes, faster,
//                              extra gaps between sections
//   maxSteps: 1000             frame limit (ProcGen uses 500 steps)
// Simplifications: flat-colour cars, logs and frog; the initial traffic is made
//   by simulating 200 frames of spawning at reset.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  maxSteps: 1000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});
const HARD = OPT.distribution_mode === 'hard';
const N = HARD ? 15 : 9;
const TILE = W / N;
const HOP = [0.4, 0.3, 0.2, 0.1];   // distance covered in each frame of a hop
const CAR_R = 0.5, LOG_R = 0.45;

const CAR_COLORS = [[240, 200, 40], [50, 50, 60], [50, 110, 230], [60, 180, 80], [220, 60, 50], [240, 140, 40]];

let rng;
let score, lives, gameState, frames;
let lanes;                       // lanes[row] = {kind: 'road'|'water'|'grass'|'finish', v}
let ents;                        // [{x, row, v, kind, c}]
let fx, fy, hopDX, hopDY, hopT, facing;
let grass, grass2, water, road;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function randInt(n) { return Math.floor(rng() * n); }
function randRange(a, b) { return a + (b - a) * rng(); }
function randSign() { return rng() < 0.5 ? 1 : -1; }

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  frames = 0;
  const gv = randInt(40);
  grass = [70 + gv, 150 + randInt(40), 60 + randInt(30)];
  grass2 = [grass[0] - 14, grass[1] - 18, grass[2] - 10];
  water = [40 + randInt(30), 100 + randInt(50), 190 + randInt(50)];
  const rg = 70 + randInt(40);
  road = [rg, rg, rg + randInt(16)];
  const minCar = HARD ? 0.05 : 0.03, maxCar = HARD ? 0.2 : 0.12;
  const minLog = HARD ? 0.05 : 0.025, maxLog = HARD ? 0.1 : 0.075;
  const extra = () => (HARD ? randInt(2) : 0);
  lanes = [];
  for (let r = 0; r < N; r++) lanes.push({ kind: 'grass', v: 0 });
  const bottomRoad = extra() + 1;
  const diff = randInt((HARD ? 4 : 3) + 1);
  const extraLane = HARD ? randInt(4) : 0;
  const nRoad = diff + (extraLane === 2 ? 1 : 0);
  for (let i = 0; i < nRoad; i++) lanes[bottomRoad + i] = { kind: 'road', v: randSign() * randRange(minCar, maxCar) };
  const bottomWater = bottomRoad + nRoad + extra() + 1;
  const nWater = diff + (extraLane === 3 ? 1 : 0);
  let sgn = randSign();
  for (let i = 0; i < nWater; i++) { lanes[bottomWater + i] = { kind: 'water', v: sgn * randRange(minLog, maxLog) }; sgn = -sgn; }
  lanes[bottomWater + nWater] = { kind: 'finish', v: 0 };
  ents = [];
  for (let i = 0; i < 200; i++) { spawn(); moveEnts(); }
  fx = randInt(N); fy = 0;
  hopT = 0; hopDX = 0; hopDY = 0; facing = 0;
}

function overlapsAny(x, row, r) {
  for (const e of ents) {
    if (e.row === row && abs(e.x - x) < r + (e.kind === 'car' ? CAR_R : LOG_R)) return true;
  }
  return false;
}

function spawn() {
  for (let row = 0; row < N; row++) {
    const L = lanes[row];
    if (L.kind === 'road' && rng() < abs(L.v) / 6) {
      const x = L.v > 0 ? -CAR_R : N + CAR_R;
      const c = randInt(CAR_COLORS.length);
      if (!overlapsAny(x, row, CAR_R)) ents.push({ x: x, row: row, v: L.v, kind: 'car', c: c });
    } else if (L.kind === 'water' && rng() < abs(L.v) / 2) {
      const x = L.v > 0 ? -LOG_R : N + LOG_R;
      if (!overlapsAny(x, row, LOG_R)) ents.push({ x: x, row: row, v: L.v, kind: 'log', c: 0 });
    }
  }
}

function moveEnts() {
  let k = 0;
  for (let i = 0; i < ents.length; i++) {
    const e = ents[i];
    e.x += e.v;
    if (e.x > -1.5 && e.x < N + 1.5) ents[k++] = e;
  }
  ents.length = k;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {}

function update() {
  frames += 1;
  if (hopT === 0) {
    let dx = 0, dy = 0;
    if (keyIsDown(LEFT_ARROW)) dx = -1;
    else if (keyIsDown(RIGHT_ARROW)) dx = 1;
    else if (keyIsDown(UP_ARROW)) dy = 1;
    else if (keyIsDown(DOWN_ARROW)) dy = -1;
    if (fx + 0.5 + dx < 0.5 || fx + 0.5 + dx > N - 0.5) dx = 0;
    if (fy + dy < 0 || fy + dy > N - 1) dy = 0;
    if (dx !== 0 || dy !== 0) {
      hopDX = dx; hopDY = dy; hopT = HOP.length;
      facing = dx < 0 ? 3 : dx > 0 ? 1 : dy > 0 ? 0 : 2;
    }
  }
  if (hopT > 0) {
    const d = HOP[HOP.length - hopT];
    fx += hopDX * d;
    fy += hopDY * d;
    hopT -= 1;
    if (hopT === 0) fy = Math.round(fy);
  }
  spawn();
  moveEnts();
  const row = Math.round(fy);
  const cx = fx + 0.5;           // frog centre
  let onLog = null;
  for (const e of ents) {
    if (e.row !== row) continue;
    if (e.kind === 'car' && abs(fy - row) < 0.3 && abs(e.x - cx) < CAR_R + 0.3) { gameState = 'gameover'; return; }
    if (e.kind === 'log' && abs(e.x - cx) < LOG_R + 0.05) onLog = e;
  }
  if (hopT === 0) {
    const kind = lanes[row].kind;
    if (kind === 'water' && !onLog) { gameState = 'gameover'; return; }
    if (kind === 'finish') { score += 10; gameState = 'won'; return; }
  }
  if (onLog) fx += onLog.v;
  if (fx < -0.5 || fx > N - 0.5) { gameState = 'gameover'; return; }
  if (frames >= OPT.maxSteps) gameState = 'gameover';
}

function sy(row) { return (N - 1 - row) * TILE; }

function draw() {
  if (gameState === 'playing') update();
  background(grass[0], grass[1], grass[2]);
  noStroke();
  const T = TILE;
  for (let r = 0; r < N; r++) {
    const k = lanes[r].kind, y = sy(r);
    if (k === 'road') {
      fill(road[0], road[1], road[2]);
      rect(0, y - 0.5, W, T + 1);
      fill(230, 230, 220);
      if (r + 1 < N && lanes[r + 1].kind === 'road') for (let x = 0; x < N; x++) rect(x * T + T * 0.2, y - 2, T * 0.6, 4);
    } else if (k === 'water') {
      fill(water[0], water[1], water[2]);
      rect(0, y - 0.5, W, T + 1);
      fill(water[0] + 30, water[1] + 30, water[2] + 20);
      for (let x = 0; x < N; x++) rect(x * T + T * ((r % 2) * 0.4 + 0.1), y + T * 0.45, T * 0.35, T * 0.08);
    } else if (k === 'finish') {
      for (let x = 0; x < 2 * N; x++) for (let h = 0; h < 2; h++) {
        if ((x + h) % 2 === 0) fill(245); else fill(30);
        rect(x * T / 2, y + h * T / 2, T / 2 + 0.5, T / 2 + 0.5);
      }
    } else if (r % 2 === 1) {
      fill(grass2[0], grass2[1], grass2[2]);
      rect(0, y, W, T);
    }
  }
  for (const e of ents) {
    const y = sy(e.row);
    if (e.kind === 'log') {
      const x = (e.x - LOG_R) * T;
      fill(120, 76, 40);
      rect(x, y + T * 0.1, LOG_R * 2 * T, T * 0.8, T * 0.2);
      fill(160, 108, 60);
      rect(x + T * 0.12, y + T * 0.3, LOG_R * 2 * T - T * 0.24, T * 0.12);
      rect(x + T * 0.12, y + T * 0.58, LOG_R * 2 * T - T * 0.24, T * 0.12);
    } else {
      const c = CAR_COLORS[e.c], x = (e.x - CAR_R) * T, w = CAR_R * 2 * T;
      fill(20);
      rect(x + w * 0.14, y + T * 0.16, w * 0.2, T * 0.68);
      rect(x + w * 0.66, y + T * 0.16, w * 0.2, T * 0.68);
      fill(c[0], c[1], c[2]);
      rect(x, y + T * 0.24, w, T * 0.52, T * 0.12);
      fill(170, 220, 250);
      const wx = e.v > 0 ? x + w * 0.58 : x + w * 0.2;
      rect(wx, y + T * 0.3, w * 0.22, T * 0.4);
    }
  }
  drawFrog((fx + 0.5) * T, sy(fy) + T / 2, T);
}

function drawFrog(x, y, s) {
  push();
  translate(x, y);
  rotate(facing * HALF_PI);
  fill(40, 140, 40);
  ellipse(-s * 0.3, s * 0.22, s * 0.3, s * 0.4);
  ellipse(s * 0.3, s * 0.22, s * 0.3, s * 0.4);
  ellipse(-s * 0.3, -s * 0.18, s * 0.22, s * 0.3);
  ellipse(s * 0.3, -s * 0.18, s * 0.22, s * 0.3);
  fill(90, 210, 70);
  ellipse(0, 0, s * 0.6, s * 0.7);
  fill(255);
  ellipse(-s * 0.15, -s * 0.26, s * 0.2, s * 0.2);
  ellipse(s * 0.15, -s * 0.26, s * 0.2, s * 0.2);
  fill(10);
  ellipse(-s * 0.15, -s * 0.28, s * 0.09, s * 0.09);
  ellipse(s * 0.15, -s * 0.28, s * 0.09, s * 0.09);
  pop();
}
