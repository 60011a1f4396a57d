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
// Per-level data built once in resetGame (lanes never change within a level):
let trafficRows;                 // rows with traffic (road/water), bottom to top
let spawnP;                      // spawnP[row]: spawn probability of that lane
let laneCode;                    // laneCode[row]: GRASS, ROAD, WATER or FINISH (no string compares in draw)
let roadMarks;                   // roadMarks[row]: a road lane with another road lane above
const ROW_Y = [];                // ROW_Y[row] = sy(row)
for (let r = 0; r < N; r++) ROW_Y.push((N - 1 - r) * TILE);

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
  trafficRows = [];
  spawnP = [];
  for (let r = 0; r < N; r++) {
    const L = lanes[r];
    spawnP.push(L.kind === 'road' ? Math.abs(L.v) / 6 : Math.abs(L.v) / 2);
    if (L.kind === 'road' || L.kind === 'water') trafficRows.push(r);
  }
  laneCode = [];
  roadMarks = [];
  for (let r = 0; r < N; r++) {
    const k = lanes[r].kind;
    laneCode.push(k === 'road' ? ROAD : k === 'water' ? WATER : k === 'finish' ? FINISH : GRASS);
    roadMarks.push(k === 'road' && r + 1 < N && lanes[r + 1].kind === 'road');
  }
  prefillTraffic(200);
  fx = randInt(N); fy = 0;
  hopT = 0; hopDX = 0; hopDY = 0; facing = 0;
}

function overlapsAny(x, row, r) {
  for (let i = 0; i < ents.length; i++) {
    const e = ents[i];
    if (e.row === row && Math.abs(e.x - x) < r + (e.kind === 'car' ? CAR_R : LOG_R)) return true;
  }
  return false;
}

// The initial traffic: the same as running `frames` times { spawn(); moveEnts(); }
// from an empty road (same random draws, same positions), without moving every
// entity every frame. In a lane all entities start at the same x and move by the
// same v, so an entity that has moved k times is at xs[k] (xs[0] = start,
// xs[k] = xs[k - 1] + v, the sums moveEnts makes). Positions only move away
// from the start, so of a lane's entities the youngest is the one nearest the
// spawn point, the only one overlapsAny() can find there (one that left the
// screen is too far away); and an entity is still on screen at the end iff it
// never left it.
function prefillTraffic(frames) {
  const xs = [], youngest = [];      // per row: positions by moves made; spawn frame of the newest
  for (let row = 0; row < N; row++) {
    const L = lanes[row];
    const x0 = L.kind === 'road' ? (L.v > 0 ? -CAR_R : N + CAR_R) : (L.v > 0 ? -LOG_R : N + LOG_R);
    const seq = [x0];
    if (L.kind === 'road' || L.kind === 'water') for (let k = 1; k <= frames; k++) seq.push(seq[k - 1] + L.v);
    xs.push(seq);
    youngest.push(-1);
  }
  // per traffic row, hoisted out of the frame loop: road?, spawn probability
  const isRoad = trafficRows.map((row) => lanes[row].kind === 'road');
  const p = trafficRows.map((row) => spawnP[row]);
  const born = [];                   // [row, frame, car colour] in spawn order
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < trafficRows.length; i++) {
      if (rng() >= p[i]) continue;
      const row = trafficRows[i], road = isRoad[i];
      const c = road ? randInt(CAR_COLORS.length) : 0;
      const R = road ? CAR_R : LOG_R;
      const y = youngest[row];
      if (y >= 0 && Math.abs(xs[row][f - y] - xs[row][0]) < R + R) continue;
      born.push(row, f, c);
      youngest[row] = f;
    }
  }
  ents = [];
  for (let i = 0; i < born.length; i += 3) {
    const row = born[i], L = lanes[row];
    const x = xs[row][frames - born[i + 1]];
    if (x > -1.5 && x < N + 1.5) ents.push({ x: x, row: row, v: L.v, kind: L.kind === 'road' ? 'car' : 'log', c: born[i + 2] });
  }
}

function spawn() {
  // only road and water lanes draw random numbers, bottom to top
  for (let i = 0; i < trafficRows.length; i++) {
    const row = trafficRows[i];
    const L = lanes[row];
    if (L.kind === 'road') {
      if (rng() >= spawnP[row]) continue;
      const x = L.v > 0 ? -CAR_R : N + CAR_R;
      const c = randInt(CAR_COLORS.length);
      if (!overlapsAny(x, row, CAR_R)) ents.push({ x: x, row: row, v: L.v, kind: 'car', c: c });
    } else if (rng() < spawnP[row]) {
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
  for (let i = 0; i < ents.length; i++) {
    const e = ents[i];
    if (e.row !== row) continue;
    if (e.kind === 'car' && Math.abs(fy - row) < 0.3 && Math.abs(e.x - cx) < CAR_R + 0.3) { gameState = 'gameover'; return; }
    if (e.kind === 'log' && Math.abs(e.x - cx) < LOG_R + 0.05) onLog = e;
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

// Lane background geometry, the same for every level: the products draw()
// used to compute for every tile of every frame.
const GRASS = 0, ROAD = 1, WATER = 2, FINISH = 3;
const MARK_X = [], MARK_W = TILE * 0.6;              // road markings
const RIPPLE_X = [[], []];                           // water ripples, by row parity
const RIPPLE_DY = TILE * 0.45, RIPPLE_W = TILE * 0.35, RIPPLE_H = TILE * 0.08;
for (let x = 0; x < N; x++) {
  MARK_X.push(x * TILE + TILE * 0.2);
  for (let p = 0; p < 2; p++) RIPPLE_X[p].push(x * TILE + TILE * (p * 0.4 + 0.1));
}
const FIN_X = [], FIN_DY = 1 * TILE / 2, FIN_S = TILE / 2 + 0.5;   // finish-line squares
for (let x = 0; x < 2 * N; x++) FIN_X.push(x * TILE / 2);

// entity sizes in pixels (constant products hoisted out of the per-entity loop)
const T_01 = TILE * 0.1, T_012 = TILE * 0.12, T_016 = TILE * 0.16, T_02 = TILE * 0.2;
const T_024 = TILE * 0.24, T_03 = TILE * 0.3, T_04 = TILE * 0.4, T_052 = TILE * 0.52;
const T_058 = TILE * 0.58, T_068 = TILE * 0.68, T_08 = TILE * 0.8;
const LOG_W = LOG_R * 2 * TILE, LOG_IN = LOG_R * 2 * TILE - TILE * 0.24;
const CAR_W = CAR_R * 2 * TILE;
const CAR_W014 = CAR_W * 0.14, CAR_W066 = CAR_W * 0.66, CAR_W02 = CAR_W * 0.2;
const CAR_W058 = CAR_W * 0.58, CAR_W022 = CAR_W * 0.22;

function draw() {
  if (gameState === 'playing') update();
  background(grass[0], grass[1], grass[2]);
  noStroke();
  const T = TILE;
  for (let r = 0; r < N; r++) {
    const k = laneCode[r], y = ROW_Y[r];
    if (k === ROAD) {
      fill(road[0], road[1], road[2]);
      rect(0, y - 0.5, W, T + 1);
      fill(230, 230, 220);
      if (roadMarks[r]) for (let x = 0; x < N; x++) rect(MARK_X[x], y - 2, MARK_W, 4);
    } else if (k === WATER) {
      fill(water[0], water[1], water[2]);
      rect(0, y - 0.5, W, T + 1);
      fill(water[0] + 30, water[1] + 30, water[2] + 20);
      const xs = RIPPLE_X[r % 2], ry = y + RIPPLE_DY;
      for (let x = 0; x < N; x++) rect(xs[x], ry, RIPPLE_W, RIPPLE_H);
    } else if (k === FINISH) {
      // a checkerboard of two rows of half tiles: the dark squares' union, then the
      // light squares as much of them as shows (each square overlaps its right and
      // lower neighbours by 0.5 px, and the later square is on top)
      const y1 = y + FIN_DY, last = 2 * N - 1;
      fill(30);
      rect(0, y, FIN_X[last] + FIN_S, y1 + FIN_S - y);
      fill(245);
      for (let x = 0; x < last; x += 2) rect(FIN_X[x], y, FIN_X[x + 1] - FIN_X[x], y1 - y);
      for (let x = 1; x < last; x += 2) rect(FIN_X[x], y1, FIN_X[x + 1] - FIN_X[x], FIN_S);
      rect(FIN_X[last], y1, FIN_S, FIN_S);
    } else if (r % 2 === 1) {
      fill(grass2[0], grass2[1], grass2[2]);
      rect(0, y, W, T);
    }
  }
  for (let i = 0; i < ents.length; i++) {
    const e = ents[i];
    const y = ROW_Y[e.row];
    if (e.kind === 'log') {
      const x = (e.x - LOG_R) * T;
      fill(120, 76, 40);
      rect(x, y + T_01, LOG_W, T_08, T_02);
      fill(160, 108, 60);
      rect(x + T_012, y + T_03, LOG_IN, T_012);
      rect(x + T_012, y + T_058, LOG_IN, T_012);
    } else {
      const c = CAR_COLORS[e.c], x = (e.x - CAR_R) * T, w = CAR_W;
      fill(20);
      rect(x + CAR_W014, y + T_016, CAR_W02, T_068);
      rect(x + CAR_W066, y + T_016, CAR_W02, T_068);
      fill(c[0], c[1], c[2]);
      rect(x, y + T_024, w, T_052, T_012);
      fill(170, 220, 250);
      const wx = e.v > 0 ? x + CAR_W058 : x + CAR_W02;
      rect(wx, y + T_03, CAR_W022, T_04);
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
