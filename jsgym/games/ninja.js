// Ninja: a clone of OpenAI ProcGen "Ninja".
//
// A ninja runs and jumps rightwards across ledges of a scrolling level to reach
// a mushroom. Bombs sit on some ledges (touching one is fatal; a thrown star
// destroys it) and a lava floor below kills a ninja who falls. Jumps are
// charged while UP is held on the ground and happen when UP is released (in
// easy mode one frame gives a full charge). Every level seed gives a different
// level, built as in ProcGen: a difficulty 1-3, then 1-5 sections of one or two
// ledges each at random heights, widths and gaps, a ceiling over each section,
// bombs (more at higher difficulty), the mushroom at the end, and a brick and
// sky colour theme.
//
// Canvas: 400x400; the camera follows the ninja showing 10x10 tiles (easy) or
// 16x16 (hard) of a 64x64-tile world.
// Actions (default table):
//   1 LEFT, 2 RIGHT held: run (little control in the air);
//   3 UP held: charge a jump on the ground; releasing UP jumps (easy: full
//     jump after one frame; hard: up to 4 frames of charge, shown by a bar);
//   5 SPACE tapped: throw a star forwards (at most one every 3 frames);
//   6 LEFT+SPACE, 7 RIGHT+SPACE: run and throw; 0 NOOP, 4 DOWN: nothing.
// Scoring: +10 for reaching the mushroom (ProcGen's only reward).
// Termination: 'won' at the mushroom; 'gameover' on touching a bomb or the
//   lava, or after `maxSteps` frames. lives is always 1.
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'  'easy': instant full jumps (1.25), platforms
//                              3+ wide, small gaps, view 10; 'hard': charged
//                              jumps (up to 1.5), narrower ledges, bigger gaps,
//                              view 16
//   maxSteps: 1000             frame limit (ProcGen's timeout)
// Simplifications: one frame = one ProcGen step with ProcGen's speeds; stars
//   fly only horizontally (ProcGen also throws diagonally/up); flat-colour
//   bricks, bombs and mushroom.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  maxSteps: 1000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});
const HARD = OPT.distribution_mode === 'hard';
const N = 64;
const VIEW = HARD ? 16 : 10;
const T = W / VIEW;
const GRAV = 0.2, SPEED = 0.5, AIR = 0.15;
const MAX_JUMP = HARD ? 1.5 : 1.25;
const CHARGE_INC = HARD ? 0.25 : 1;
const EMPTY = 0, WALL = 1, BOMB = 2, FIRE = 3;
const BRICKS = [[[120, 120, 130], [90, 90, 100]], [[110, 130, 80], [80, 100, 60]], [[170, 80, 60], [130, 56, 44]]];
const SKIES = [[150, 200, 240], [250, 200, 150], [200, 170, 230], [170, 220, 200], [240, 230, 180]];

let rng;
let score, lives, gameState, frames;
let grid;                        // Uint8Array, grid[y * N + x]; y = 0 is the BOTTOM row (as in ProcGen)
let segs, segRow;                // per level, from buildSegments
let ax, ay, avx, avy, support, charge, facing, lastThrow, throwPending;
let stars;
let gx, gy;
let brick, sky;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function randInt(n) { return Math.floor(rng() * n); }
function gridAt(x, y) { return (x < 0 || y < 0 || x >= N || y >= N) ? WALL : grid[y * N + x]; }
function setAt(x, y, v) { if (x >= 0 && y >= 0 && x < N && y < N) grid[y * N + x] = v; }
// the rectangle's cells that lie inside the grid, a row at a time
function fillElem(x, y, dx, dy, v) {
  const xa = Math.max(x, 0), xb = Math.min(x + dx, N), yb = Math.min(y + dy, N);
  if (xa < xb) for (let j = Math.max(y, 0); j < yb; j++) grid.fill(v, j * N + xa, j * N + xb);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  frames = 0;
  brick = BRICKS[randInt(BRICKS.length)];
  sky = SKIES[randInt(SKIES.length)];
  grid = new Uint8Array(N * N);   // all EMPTY
  fillElem(0, 0, N, 1, WALL); fillElem(0, 0, 1, N, WALL);
  fillElem(N - 1, 0, 1, N, WALL); fillElem(0, N - 1, N, 1, WALL);
  generate(randInt(3) + 1);
  buildSegments();
  ax = 1.5; ay = N / 2 + 0.5;
  avx = 0; avy = 0; support = false; charge = 0; facing = 1; lastThrow = -10; throwPending = false;
  stars = [];
}

function generate(difficulty) {
  let minGap = difficulty - 1, minPlatW = 1, incDy = 4;
  if (!HARD) { minGap = max(0, minGap - 1); minPlatW = 3; incDy = 2; }
  const bombProb = 0.25 * (difficulty - 1);
  const maxGapInc = difficulty === 1 ? 1 : 2;
  const sections = randInt(difficulty) + difficulty;
  const startX = 5;
  let cx = startX, cy = N / 2, minY = cy;
  const maxDy = Math.floor(MAX_JUMP * MAX_JUMP / (2 * GRAV) - 0.5);
  fillElem(0, 0, startX, cy, WALL);
  fillElem(0, cy + 8, startX, N - cy - 8, WALL);
  for (let i = 0; i < sections; i++) {
    const px = cx, py = cy;
    const edges = randInt(2) + 1;
    let maxY = -1, lastEdgeY = -1;
    for (let j = 0; j < edges; j++) {
      cx = px + j;
      if (cx + 15 >= N) break;
      cy = py;
      let dy = randInt(incDy) + 1 + Math.floor(difficulty / 3);
      if (dy > maxDy) dy = maxDy;
      if (cy >= N - 15) dy = -dy;
      else if (cy >= 5 && rng() < 0.4) dy = -dy;
      cy += dy;
      if (cy < 3) cy = 3;
      if (abs(cy - lastEdgeY) <= 1) cy = lastEdgeY + 2;
      const dx = minPlatW + randInt(3);
      fillElem(cx, cy - 1, dx, 1, WALL);
      cx += dx + minGap + randInt(maxGapInc + 1);
      if (cy > maxY) maxY = cy;
      if (cy < minY) minY = cy;
      lastEdgeY = cy;
    }
    if (rng() < bombProb) setAt(randInt(cx - px + 1) + px, maxY + 2, BOMB);
    const ceil = maxY - 1 + 11;
    fillElem(px, ceil, cx - px, N - ceil, WALL);
  }
  gx = cx + 0.5; gy = cy + 0.5;
  setAt(cx, cy - 1, WALL);
  fillElem(cx, cy + 6, 1, N - cy - 6, WALL);
  const fireY = max(1, minY - 2);
  fillElem(startX, 0, N - startX, fireY, WALL);
  fillElem(startX, fireY, N - startX, 1, FIRE);
  fillElem(cx + 1, 0, N - cx - 1, N, WALL);
}

// Walls never change during a level (a star only clears a bomb), so what draw()
// scans each row of the view for is found once per level: per row, in column
// order, each run [start, end) of WALL cells as the pair (start, end), and each
// FIRE or BOMB cell as (x, -1) (draw() looks the cell up again: its bomb may be
// gone). Those of row y are segs[segRow[y]] .. segs[segRow[y + 1] - 1].
function buildSegments() {
  segs = [];
  segRow = new Int32Array(N + 1);
  for (let y = 0; y < N; y++) {
    segRow[y] = segs.length;
    const row = y * N;
    let run = -1;
    for (let x = 0; x < N; x++) {
      const g = grid[row + x];
      if (g === WALL) { if (run < 0) run = x; continue; }
      if (run >= 0) { segs.push(run, x); run = -1; }
      if (g !== EMPTY) segs.push(x, -1);
    }
    if (run >= 0) segs.push(run, N);
  }
  segRow[N] = segs.length;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) throwPending = true;
}

// box of half-size 0.5 centred at (x, y): the worst tile it overlaps
function boxTouch(x, y) {
  const x0 = Math.floor(x - 0.5), x1 = Math.floor(x + 0.5 - 1e-6);
  const y0 = Math.floor(y - 0.5), y1 = Math.floor(y + 0.5 - 1e-6);
  const gr = grid;
  let hit = EMPTY;
  for (let yy = y0; yy <= y1; yy++) for (let xx = x0; xx <= x1; xx++) {
    const g = xx < 0 || yy < 0 || xx >= N || yy >= N ? WALL : gr[yy * N + xx];   // gridAt, inlined
    if (g === WALL) return WALL;
    if (g !== EMPTY) hit = g;
  }
  return hit;
}

function update() {
  frames += 1;
  let act = 0;
  if (keyIsDown(LEFT_ARROW)) act -= 1;
  if (keyIsDown(RIGHT_ARROW)) act += 1;
  if (act !== 0) facing = act;
  const up = keyIsDown(UP_ARROW);
  support = gridAt(Math.floor(ax - 0.49), Math.floor(ay - 0.51)) === WALL || gridAt(Math.floor(ax + 0.49), Math.floor(ay - 0.51)) === WALL;
  let charging = false;
  if (support && up) { charging = true; charge = Math.min(1, charge + CHARGE_INC); }
  if (!support) charge = 0;
  const mix = support ? 0.5 : 0.5 * AIR;
  avx = (1 - mix) * avx + mix * SPEED * act;
  if (!charging && charge > 0) { avy = charge * MAX_JUMP; charge = 0; }
  if (!support && avy > -2) avy -= GRAV;
  // move in sub-steps, x then y; walls block, bombs and lava kill
  const n = Math.ceil(Math.max(Math.abs(avx), Math.abs(avy)) / 0.2) || 1;
  for (let i = 0; i < n; i++) {
    const nx = ax + avx / n;
    let t = boxTouch(nx, ay);
    if (t === WALL) {
      ax = avx > 0 ? Math.floor(ax + 0.5 + avx / n) - 0.5 - 0.0001 : Math.floor(ax - 0.5 + avx / n) + 1.5 + 0.0001;
      if (boxTouch(ax, ay) === WALL) ax = nx - avx / n;
      avx = 0;
    } else ax = nx;
    const ny = ay + avy / n;
    t = boxTouch(ax, ny);
    if (t === WALL) {
      ay = avy > 0 ? Math.floor(ay + 0.5 + avy / n) - 0.5 - 0.0001 : Math.floor(ay - 0.5 + avy / n) + 1.5 + 0.0001;
      if (boxTouch(ax, ay) === WALL) ay = ny - avy / n;
      avy = 0;
    } else ay = ny;
    const here = boxTouch(ax, ay);
    if (here === BOMB || here === FIRE) { gameState = 'gameover'; return; }
  }
  // throwing stars
  if (throwPending && frames - lastThrow >= 3) {
    stars.push({ x: ax, y: ay, vx: facing, t: 0 });
    lastThrow = frames;
  }
  throwPending = false;
  let k = 0;
  for (let i = 0; i < stars.length; i++) {
    const s = stars[i];
    s.x += s.vx; s.t += 1;
    const tx = Math.floor(s.x), ty = Math.floor(s.y);
    const g = gridAt(tx, ty);
    if (g === BOMB) { setAt(tx, ty, EMPTY); continue; }
    if (g === WALL || s.t > 15) continue;
    stars[k++] = s;
  }
  stars.length = k;
  if (Math.abs(ax - gx) < 1 && Math.abs(ay - gy) < 1) { score += 10; gameState = 'won'; return; }
  if (frames >= OPT.maxSteps) gameState = 'gameover';
}

function sy(y) { return (N - y) * T; }  // world y (up) to screen y (down), tile top edge for y + 1

function draw() {
  if (gameState === 'playing') update();
  const camX = constrain(ax - VIEW / 2, 0, N - VIEW), camY = constrain(ay - VIEW / 2, 0, N - VIEW);
  background(sky[0], sky[1], sky[2]);
  noStroke();
  push();
  translate(-camX * T, -(N - VIEW - camY) * T);
  const x0 = Math.max(0, Math.floor(camX)), x1 = Math.min(N - 1, Math.floor(camX + VIEW));
  const y0 = Math.max(0, Math.floor(camY)), y1 = Math.min(N - 1, Math.floor(camY + VIEW));
  // each row's walls (one rect per run, clipped to the view, with its bricks), fire
  // and bombs, left to right (see buildSegments)
  const body = brick[0], mortar = brick[1], bw = T * 0.08, bh = T * 0.46;
  for (let y = y0; y <= y1; y++) {
    const top = sy(y + 1), shift = (y % 2) ? T * 0.5 : 0;   // bricks alternate by row
    for (let k = segRow[y], end = segRow[y + 1]; k < end; k += 2) {
      const x = segs[k] > x0 ? segs[k] : x0;
      if (x > x1) break;
      if (segs[k + 1] < 0) {
        if (segs[k] < x0) continue;
        const g = grid[y * N + x];
        if (g === FIRE) {
          fill(240, 90, 30); rect(x * T - 0.5, top + T * 0.3, T + 1, T * 0.7 + 0.5);
          fill(250, 200, 50); triangle(x * T, top + T * 0.3, x * T + T, top + T * 0.3, x * T + T * 0.5, top - T * 0.1);
        } else if (g === BOMB) drawBomb(x * T + T / 2, top + T / 2);
        continue;
      }
      const e = segs[k + 1] <= x1 ? segs[k + 1] : x1 + 1;
      if (e <= x) continue;
      fill(body[0], body[1], body[2]);
      rect(x * T - 0.5, top - 0.5, (e - x) * T + 1, T + 1);
      fill(mortar[0], mortar[1], mortar[2]);
      rect(x * T, top + T * 0.46, (e - x) * T, T * 0.08);
      for (let b = x; b < e; b++) rect(b * T + shift, top, bw, bh);
    }
  }
  drawMushroom(gx * T, sy(gy));
  fill(200, 200, 220);
  for (let i = 0; i < stars.length; i++) {
    const s = stars[i], x = s.x * T, y = sy(s.y);
    quad(x, y - T * 0.25, x + T * 0.08, y, x, y + T * 0.25, x - T * 0.08, y);
    quad(x - T * 0.25, y, x, y - T * 0.08, x + T * 0.25, y, x, y + T * 0.08);
  }
  drawNinja(ax * T, sy(ay));
  pop();
  if (charge > 0 && HARD) {
    fill(66, 245, 135);
    rect(10, H - 10 - 120 * charge, 14, 120 * charge);
  }
}

function drawBomb(x, y) {
  fill(30, 30, 36);
  ellipse(x, y + T * 0.06, T * 0.7, T * 0.7);
  fill(90, 90, 100);
  rect(x - T * 0.08, y - T * 0.38, T * 0.16, T * 0.12);
  fill(250, 170, 40);
  ellipse(x + T * 0.06, y - T * 0.44, T * 0.16, T * 0.16);
  fill(255, 255, 255);
  ellipse(x - T * 0.14, y - T * 0.06, T * 0.12, T * 0.12);
}

function drawMushroom(x, y) {
  fill(240, 230, 210);
  rect(x - T * 0.16, y - T * 0.1, T * 0.32, T * 0.6);
  fill(220, 40, 50);
  ellipse(x, y - T * 0.12, T * 0.96, T * 0.7);
  fill(220, 40, 50);
  rect(x - T * 0.48, y - T * 0.12, T * 0.96, T * 0.12);
  fill(255);
  ellipse(x - T * 0.22, y - T * 0.26, T * 0.18, T * 0.16);
  ellipse(x + T * 0.16, y - T * 0.32, T * 0.16, T * 0.14);
  ellipse(x + T * 0.3, y - T * 0.12, T * 0.12, T * 0.1);
}

function drawNinja(x, y) {
  const f = facing, s = T;
  fill(30, 30, 40);
  rect(x - s * 0.3, y - s * 0.08, s * 0.6, s * 0.46, s * 0.08);
  rect(x - s * 0.26, y + s * 0.3, s * 0.18, s * 0.2);
  rect(x + s * 0.08, y + s * 0.3, s * 0.18, s * 0.2);
  ellipse(x, y - s * 0.22, s * 0.6, s * 0.56);
  fill(240, 200, 160);
  rect(x + f * s * 0.06 - s * 0.16, y - s * 0.3, s * 0.32, s * 0.14);
  fill(20);
  ellipse(x + f * s * 0.12, y - s * 0.23, s * 0.07, s * 0.07);
  fill(220, 40, 40);
  rect(x - s * 0.3, y - s * 0.42, s * 0.6, s * 0.09);
  triangle(x - f * s * 0.28, y - s * 0.4, x - f * s * 0.52, y - s * 0.5, x - f * s * 0.5, y - s * 0.3);
}
