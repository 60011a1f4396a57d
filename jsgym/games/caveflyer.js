// CaveFlyer: a clone of OpenAI ProcGen's "caveflyer".
//
// The player pilots a ship through a procedurally carved cave network to
// reach the exit (a green saucer). The ship handles like Asteroids: LEFT and
// RIGHT rotate it, UP thrusts forward, DOWN thrusts backward at a third of the
// power, and velocity decays slowly. Cave walls block the ship. Red saucers
// (targets) can be shot for a bonus (5 laser hits each); brown meteors
// (stationary) and blue ships (patrolling in a straight line, bouncing off
// walls) are fatal to touch, and so are the targets themselves.
// The cave is 30x30 cells (easy) or 40x40 (hard); the camera follows the
// ship and shows 10x10 cells (easy) or 16x16 (hard).
//
// Canvas: 400x400, scrolling in both axes.
// Actions (default table):
//   0 NOOP; 1 LEFT / 2 RIGHT held: rotate; 3 UP held: thrust forward;
//   4 DOWN held: thrust backward (1/3 power); 5 SPACE tapped: fire a laser
//   forward; 6 rotate left + fire; 7 rotate right + fire.
// Rewards (as ProcGen): +3 per target destroyed, +10 for reaching the exit.
// Termination: 'won' at the exit; 'gameover' on touching a meteor, enemy
//   ship or target, or after `timeLimit` frames. lives = 1.
// Procedural generation from the seed (as ProcGen): random fill + 4 rounds of
//   cellular-automaton smoothing, the largest open region kept, start and
//   exit cells drawn from it, the cave cut down to a band 4 cells around the
//   start-exit path and smoothed again (the path stays open); then meteors,
//   targets and enemy ships (one of each per 80 open cells) off the path.
//   Space and rock colours also come from the seed. To keep a reset cheap
//   under QuickJS the automaton runs on a half-resolution grid (15x15 easy,
//   20x20 hard) that is then doubled and smoothed once at full resolution,
//   so passages are at least two cells wide.
// distribution_mode: 'easy' 30x30 cave, 10-cell view; 'hard' 40x40, 16-cell
//   view (as ProcGen).
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'   'easy' | 'hard'
//   timeLimit: 1000             frames before the episode ends as 'gameover'
// Simplifications: flat p5 shapes instead of sprites; the cellular automaton
//   rule is the classic 5-of-8 neighbours; objects are kept at least 3 cells
//   from the start; collisions are boxes; no diagonal actions (ProcGen can
//   thrust and rotate at once).

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  timeLimit: 1000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const HARD = OPT.distribution_mode === 'hard';
const DIM = HARD ? 40 : 30;
const VIS = HARD ? 16 : 10;
const S = W / VIS;                 // px per cell
const ACCEL = 0.035, DRAG = 0.93, ROT = 0.16;
const SHIP_R = 0.35;
const TARGET_REWARD = 3, GOAL_REWARD = 10;

const GOAL_COL = [60, 200, 80], TARGET_COL = [220, 50, 50], TARGET_HIT_COL = [255, 160, 160];
const SPACES = [[16, 14, 36], [10, 24, 40], [30, 14, 34], [18, 18, 22], [8, 30, 30]];
const ROCKS = [[120, 86, 60], [100, 100, 110], [90, 120, 80], [140, 100, 70], [80, 90, 130], [130, 70, 80]];

let rng;
let score, lives, gameState, t;
let grid;                 // 1 rock, 0 open (padded, see P)
let ax, ay, avx, avy, rot, thrusting;
let goal, objs, bullets;
let stars;                // flat [x0, y0, x1, y1, ...]
let spaceCol, rockCol, fireQueued;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function randn(n) { return Math.floor(rng() * n); }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

// Grids are padded with a one-cell border of rock. The cave is first grown
// on a coarse grid of DIM/2 x DIM/2 cells (cheap enough for a fast reset),
// then scaled 2x to the DIM x DIM play grid and smoothed once more there.
const P = DIM + 2;
const C = DIM / 2, PC = C + 2;

// The finished play grid is also copied into `wg`, padded with M rock cells
// on every side (M covers every cell the camera can show, and the rows above
// and below them), so that cells near the grid are read without bounds checks.
const M = VIS / 2 + 2, BW = DIM + 2 * M;
const wg = new Uint8Array(BW * BW);

// Per-row lists for drawing the rock, made from wg the first time the camera
// shows a row (scanning every cell of the view each frame was the main cost of
// a step): runs of rock cells ("w", [start, end) pairs), runs of cells that are
// rock with rock below ("b"), and the rock cells under open ones (highlights).
// Slot y + 1 holds row y for y = -1..DIM; slot DIM + 2 is any row farther out
// (all rock, no highlights). Runs that reach past the grid end at +-1000.
const RS = DIM + 4, SLOTS = DIM + 3, FAR = 1000;
const wRuns = new Int16Array(RS * SLOTS), bRuns = new Int16Array(RS * SLOTS), hCells = new Int16Array(RS * SLOTS);
const wCount = new Uint8Array(SLOTS), bCount = new Uint8Array(SLOTS), hCount = new Uint8Array(SLOTS);
const rowDone = new Uint8Array(SLOTS);

function rowSlot(y) {
  const k = y < -1 || y > DIM ? DIM + 2 : y + 1;
  if (rowDone[k] === 0) makeRow(k, k === DIM + 2 ? -2 : y);
  return k;
}

// row y (inside the margin of wg: -M <= y - 1, y + 1 < DIM + M) into slot k
function makeRow(k, y) {
  const r = (y + M) * BW + M, o = k * RS;
  let wn = 0, bn = 0, hn = 0, inW = true, inB = true;
  wRuns[o] = -FAR; bRuns[o] = -FAR;
  for (let x = 0; x < DIM; x++) {
    const w = wg[r + x] === 1, b = w && wg[r + BW + x] === 1;
    if (w !== inW) { if (inW) { wRuns[o + wn + 1] = x; wn += 2; } else wRuns[o + wn] = x; inW = w; }
    if (b !== inB) { if (inB) { bRuns[o + bn + 1] = x; bn += 2; } else bRuns[o + bn] = x; inB = b; }
    if (w && wg[r - BW + x] === 0) { hCells[o + hn] = x; hn += 1; }
  }
  // columns DIM and beyond are rock (both rows)
  if (!inW) wRuns[o + wn] = DIM;
  wRuns[o + wn + 1] = FAR; wn += 2;
  if (!inB) bRuns[o + bn] = DIM;
  bRuns[o + bn + 1] = FAR; bn += 2;
  wCount[k] = wn; bCount[k] = bn; hCount[k] = hn;
  rowDone[k] = 1;
}

function wallAt(x, y) { return x < 0 || y < 0 || x >= DIM || y >= DIM || wg[(y + M) * BW + x + M] === 1; }

// one cellular-automaton round on grid g (padded width pw, inner size d):
// rock if >= 5 of the 8 neighbours are rock, open if <= 3, else unchanged;
// cells listed in `keep` stay open
function caSmooth(g, ng, pw, d, keep, lo, hi) {
  // rows and columns lo..hi (1-based, inclusive) are processed; others keep
  // their value (callers pass a box that holds every open cell plus a margin)
  if (lo === undefined) { lo = 1; hi = d; }
  let y, r, a, b, c, i, n, end;
  for (y = lo; y <= hi; y++) {
    r = y * pw;
    a = g[r - pw + lo - 1] + g[r + lo - 1] + g[r + pw + lo - 1];
    b = g[r - pw + lo] + g[r + lo] + g[r + pw + lo];
    end = r + hi;
    for (i = r + lo; i <= end; i++) {
      c = g[i - pw + 1] + g[i + 1] + g[i + pw + 1];
      n = a + b + c - g[i];
      ng[i] = n >= 5 ? 1 : (n <= 3 ? 0 : g[i]);
      a = b; b = c;
    }
  }
  for (y = lo; y <= hi; y++) { r = y * pw; for (i = r + lo; i <= r + hi; i++) g[i] = ng[i]; }
  if (keep) for (i = 0; i < keep.length; i++) g[keep[i]] = 0;
}

// flood fill over open cells of the coarse grid from `start`; marks `mark`
// with `id` (and parents in `par`), returns the cells in BFS order
function flood(g, start, mark, id, par) {
  const cells = [start];
  mark[start] = id;
  if (par) par[start] = start;
  for (let h = 0; h < cells.length; h++) {
    const c = cells[h];
    for (let k = 0; k < 4; k++) {
      const m = k === 0 ? c - 1 : k === 1 ? c + 1 : k === 2 ? c - PC : c + PC;
      if (g[m] === 0 && mark[m] !== id) { mark[m] = id; if (par) par[m] = c; cells.push(m); }
    }
  }
  return cells;
}

function generate() {
  const cg = new Uint8Array(PC * PC), cng = new Uint8Array(PC * PC);
  cg.fill(1);
  for (let y = 1; y <= C; y++) {
    let bits = Math.floor(rng() * 1073741824);          // 30 random bits per row
    for (let x = 1; x <= C; x++) { cg[y * PC + x] = bits & 1; bits >>>= 1; }
  }
  for (let k = 0; k < 4; k++) caSmooth(cg, cng, PC, C, null);
  // keep the largest open region
  const mark = new Int32Array(PC * PC);
  let bestCells = [];
  let id = 0;
  for (let y = 1; y <= C; y++) for (let x = 1; x <= C; x++) {
    const i = y * PC + x;
    if (cg[i] !== 0 || mark[i] !== 0) continue;
    id += 1;
    const cells = flood(cg, i, mark, id, null);
    if (cells.length > bestCells.length) bestCells = cells;
  }
  if (bestCells.length < 2) {               // degenerate fill: open a room
    bestCells = [];
    for (let y = 2; y < C; y++) for (let x = 2; x < 5; x++) bestCells.push(y * PC + x);
  }
  cg.fill(1);
  for (let k = 0; k < bestCells.length; k++) cg[bestCells[k]] = 0;
  const a = randn(bestCells.length);
  let gi = randn(bestCells.length - 1);
  if (gi >= a) gi += 1;
  const startCell = bestCells[a], goalCell = bestCells[gi];
  const par = new Int32Array(PC * PC);
  flood(cg, startCell, new Int32Array(PC * PC), 1, par);
  const path = [];
  for (let c = goalCell; ; c = par[c]) { path.push(c); if (c === startCell) break; }
  // widen the path by 2 coarse cells (4 play cells) through open cells, cut
  // everything else, smooth again keeping the path open
  const dist = new Int8Array(PC * PC);
  dist.fill(-1);
  const q = [];
  for (let k = 0; k < path.length; k++) { dist[path[k]] = 0; q.push(path[k]); }
  for (let h = 0; h < q.length; h++) {
    const c = q[h];
    if (dist[c] >= 2) continue;
    for (let k = 0; k < 4; k++) {
      const m = k === 0 ? c - 1 : k === 1 ? c + 1 : k === 2 ? c - PC : c + PC;
      if (dist[m] < 0 && cg[m] === 0) { dist[m] = dist[c] + 1; q.push(m); }
    }
  }
  for (let y = 1; y <= C; y++) for (let x = 1; x <= C; x++) cg[y * PC + x] = dist[y * PC + x] >= 0 ? 0 : 1;
  for (let k = 0; k < 3; k++) caSmooth(cg, cng, PC, C, path);
  // scale up 2x and round the corners
  grid = new Uint8Array(P * P);
  grid.fill(1);
  const fineKeep = [];
  for (let y = 0; y < C; y++) for (let x = 0; x < C; x++) {
    const v = cg[(y + 1) * PC + x + 1];
    const f = (2 * y + 1) * P + 2 * x + 1;
    grid[f] = v; grid[f + 1] = v; grid[f + P] = v; grid[f + P + 1] = v;
  }
  const onPath = new Uint8Array(P * P);
  for (let k = 0; k < path.length; k++) {
    const cx = path[k] % PC - 1, cy = Math.floor(path[k] / PC) - 1;
    const f = (2 * cy + 1) * P + 2 * cx + 1;
    fineKeep.push(f, f + 1, f + P, f + P + 1);
    onPath[f] = 1; onPath[f + 1] = 1; onPath[f + P] = 1; onPath[f + P + 1] = 1;
  }
  // only cells near open ones can change: smooth the box around them
  let bx0 = C, bx1 = -1, by0 = C, by1 = -1;
  for (let y = 0; y < C; y++) for (let x = 0; x < C; x++) {
    if (cg[(y + 1) * PC + x + 1] === 0) { bx0 = min(bx0, x); bx1 = max(bx1, x); by0 = min(by0, y); by1 = max(by1, y); }
  }
  const lo = max(1, min(2 * bx0, 2 * by0)), hi = min(DIM, max(2 * bx1 + 3, 2 * by1 + 3));
  caSmooth(grid, new Uint8Array(P * P), P, DIM, fineKeep, lo, hi);
  wg.fill(1);
  for (let y = 1; y <= DIM; y++) wg.set(grid.subarray(y * P + 1, y * P + 1 + DIM), (y - 1 + M) * BW + M);
  rowDone.fill(0);
  vx0 = NaN;                                 // a new level: list the view again
  ax = 2 * (startCell % PC - 1) + 1; ay = 2 * (Math.floor(startCell / PC) - 1) + 1;
  goal = { x: 2 * (goalCell % PC - 1) + 1, y: 2 * (Math.floor(goalCell / PC) - 1) + 1 };
  const free = [];
  for (let y = lo - 1; y < hi; y++) for (let x = lo - 1; x < hi; x++) {
    const i = (y + 1) * P + x + 1;
    if (grid[i] === 0 && onPath[i] === 0 && Math.abs(x + 0.5 - ax) + Math.abs(y + 0.5 - ay) >= 3) free.push(y * DIM + x);
  }
  const chunk = Math.floor(free.length / 80);
  objs = [];
  for (let k = 0; k < 3 * chunk && free.length > 0; k++) {
    const j = randn(free.length);
    const c = free[j];
    free[j] = free[free.length - 1]; free.pop();
    const o = { x: c % DIM + 0.5, y: Math.floor(c / DIM) + 0.5, vx: 0, vy: 0, hp: 5, alive: true, kind: 0 };
    if (k < chunk) o.kind = 0;                   // meteor
    else if (k < 2 * chunk) o.kind = 1;          // target
    else {
      o.kind = 2;                                // enemy ship
      const v = (0.1 * rng() + 0.1) * (randn(2) * 2 - 1);
      if (rng() < 0.5) o.vx = v; else o.vy = v;
    }
    objs.push(o);
  }
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  t = 0;
  spaceCol = SPACES[randn(SPACES.length)];
  rockCol = ROCKS[randn(ROCKS.length)];
  stars = new Float64Array(60);
  for (let i = 0; i < 60; i += 2) { stars[i] = rng() * W; stars[i + 1] = rng() * H; }
  generate();
  avx = 0; avy = 0; rot = 0;
  thrusting = false;
  bullets = [];
  fireQueued = false;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) fireQueued = true;
}

function boxWall(x, y, r) {
  const x0 = Math.floor(x - r), x1 = Math.floor(x + r), y0 = Math.floor(y - r), y1 = Math.floor(y + r);
  // (wallAt inlined: this runs for the ship and every enemy ship each frame)
  for (let i = x0; i <= x1; i++) for (let j = y0; j <= y1; j++) {
    if (i < 0 || j < 0 || i >= DIM || j >= DIM || wg[(j + M) * BW + i + M] === 1) return true;
  }
  return false;
}

function update() {
  if (gameState !== 'playing') { fireQueued = false; return; }
  t += 1;
  if (keyIsDown(LEFT_ARROW)) rot -= ROT;
  if (keyIsDown(RIGHT_ARROW)) rot += ROT;
  let acc = 0;
  if (keyIsDown(UP_ARROW)) acc = 1;
  else if (keyIsDown(DOWN_ARROW)) acc = -0.33;
  thrusting = acc > 0;
  const dx = sin(rot), dy = -cos(rot);
  avx = (avx + ACCEL * acc * dx) * DRAG;
  avy = (avy + ACCEL * acc * dy) * DRAG;
  const nx = ax + avx;
  if (boxWall(nx, ay, SHIP_R)) avx = -avx * 0.3; else ax = nx;
  const ny = ay + avy;
  if (boxWall(ax, ny, SHIP_R)) avy = -avy * 0.3; else ay = ny;
  if (fireQueued) bullets.push({ x: ax + dx * 0.4, y: ay + dy * 0.4, vx: dx, vy: dy, life: 10, rot: rot });
  fireQueued = false;
  const no = objs.length;
  for (let k = 0; k < no; k++) {
    const o = objs[k];
    if (!o.alive || o.kind !== 2) continue;
    if (boxWall(o.x + o.vx, o.y + o.vy, 0.45)) { o.vx = -o.vx; o.vy = -o.vy; }
    else { o.x += o.vx; o.y += o.vy; }
  }
  // lasers, in two half steps so they cannot skip a one-cell wall
  for (let i = bullets.length - 1; i >= 0; i--) {
    const b = bullets[i];
    let gone = false;
    for (let h = 0; h < 2 && !gone; h++) {
      b.x += b.vx * 0.5; b.y += b.vy * 0.5;
      if (wallAt(Math.floor(b.x), Math.floor(b.y))) { gone = true; break; }
      for (let k = 0; k < no; k++) {
        const o = objs[k];
        if (o.alive && abs(o.x - b.x) < 0.55 && abs(o.y - b.y) < 0.55) {
          gone = true;
          if (o.kind === 1) {
            o.hp -= 1;
            if (o.hp <= 0) { o.alive = false; score += TARGET_REWARD; }
          }
          break;
        }
      }
      if (!gone && abs(goal.x - b.x) < 0.55 && abs(goal.y - b.y) < 0.55) gone = true;
    }
    b.life -= 1;
    if (gone || b.life <= 0) bullets.splice(i, 1);
  }
  if (abs(goal.x - ax) < 0.5 + SHIP_R && abs(goal.y - ay) < 0.5 + SHIP_R) { score += GOAL_REWARD; gameState = 'won'; return; }
  for (let k = 0; k < no; k++) {
    const o = objs[k];
    if (o.alive && abs(o.x - ax) < 0.4 + SHIP_R && abs(o.y - ay) < 0.4 + SHIP_R) { gameState = 'gameover'; return; }
  }
  if (t >= OPT.timeLimit) gameState = 'gameover';
}

// The rock's rects depend only on the cells in view (x0..x1, y0..y1), which
// change only when the camera crosses a cell boundary: they are listed once
// per view (rock runs as x, y, width; highlights as x, y) and replayed.
const VCELLS = (VIS + 4) * (VIS + 4);
const rockRects = new Float64Array(6 * VCELLS), hiRects = new Float64Array(2 * VCELLS);
let rockN = 0, hiN = 0;
let vx0 = NaN, vy0 = NaN, vx1 = NaN, vy1 = NaN;     // the listed view (NaN: none)

function buildView(x0, y0, x1, y1) {
  vx0 = x0; vy0 = y0; vx1 = x1; vy1 = y1;
  // One rect per horizontal run of rock cells, plus a rect bridging each run
  // of vertically adjacent rock cells (w: rock at (x, y); b: rock at (x, y)
  // and (x, y + 1)), so that no anti-aliased seam shows between rows at low
  // resolution. In each row the runs, clipped to the view, go in order of
  // their right ends, a w run before a b run ending at the same cell (the
  // order of the original cell-by-cell scan). Runs start at column 0 at the
  // earliest: that scan used -1 for "no run", so the rock of the left margin
  // was never drawn.
  const rx0 = x0 > 0 ? x0 : 0, xe = x1 + 1;
  let n = 0;
  for (let y = y0; y <= y1; y++) {
    const k = rowSlot(y), py = y * S, bpy = (y + 0.5) * S;
    let wi = k * RS, bi = wi;
    const wn = wi + wCount[k], bn = y < y1 ? bi + bCount[k] : bi;
    while (wi < wn && wRuns[wi + 1] <= rx0) wi += 2;
    while (bi < bn && bRuns[bi + 1] <= rx0) bi += 2;
    for (;;) {
      const wOk = wi < wn && wRuns[wi] <= x1, bOk = bi < bn && bRuns[bi] <= x1;
      if (!wOk && !bOk) break;
      const we = wOk ? (wRuns[wi + 1] < xe ? wRuns[wi + 1] : xe) : 1e9;
      const be = bOk ? (bRuns[bi + 1] < xe ? bRuns[bi + 1] : xe) : 1e9;
      if (we <= be) {
        const ws = wRuns[wi] > rx0 ? wRuns[wi] : rx0;
        rockRects[n] = ws * S; rockRects[n + 1] = py; rockRects[n + 2] = (we - ws) * S;
        wi += 2;
      } else {
        const bs = bRuns[bi] > rx0 ? bRuns[bi] : rx0;
        rockRects[n] = bs * S; rockRects[n + 1] = bpy; rockRects[n + 2] = (be - bs) * S;
        bi += 2;
      }
      n += 3;
    }
  }
  rockN = n;
  n = 0;
  for (let y = y0; y <= y1; y++) {
    const k = rowSlot(y), py = y * S;
    let hi = k * RS;
    const hn = hi + hCount[k];
    while (hi < hn && hCells[hi] < x0) hi++;
    for (; hi < hn && hCells[hi] <= x1; hi++) { hiRects[n] = hCells[hi] * S; hiRects[n + 1] = py; n += 2; }
  }
  hiN = n;
}

function saucer(cx, cy, r, c) {
  fill(c[0], c[1], c[2]);
  ellipse(cx, cy + r * 0.15, r * 2, r * 0.9);
  fill(200, 230, 255);
  ellipse(cx, cy - r * 0.2, r * 0.9, r * 0.8);
  fill(255, 240, 120);
  ellipse(cx - r * 0.55, cy + r * 0.2, r * 0.25, r * 0.25);
  ellipse(cx + r * 0.55, cy + r * 0.2, r * 0.25, r * 0.25);
}

function draw() {
  update();
  background(spaceCol[0], spaceCol[1], spaceCol[2]);
  noStroke();
  fill(170, 170, 200);
  for (let i = 0; i < 60; i += 2) rect(stars[i], stars[i + 1], 2, 2);
  push();
  translate(W / 2 - ax * S, H / 2 - ay * S);
  // rock (see buildView)
  fill(rockCol[0], rockCol[1], rockCol[2]);
  const x0 = Math.floor(ax - VIS / 2) - 1, x1 = Math.floor(ax + VIS / 2) + 1;
  const y0 = Math.floor(ay - VIS / 2) - 1, y1 = Math.floor(ay + VIS / 2) + 1;
  if (x0 !== vx0 || y0 !== vy0 || x1 !== vx1 || y1 !== vy1) buildView(x0, y0, x1, y1);
  for (let i = 0; i < rockN; i += 3) rect(rockRects[i], rockRects[i + 1], rockRects[i + 2], S);
  // rock edge highlights (top faces of walls under open cells)
  fill(min(255, rockCol[0] + 40), min(255, rockCol[1] + 40), min(255, rockCol[2] + 40));
  const hw = S + 0.5, hh = S * 0.18;
  for (let i = 0; i < hiN; i += 2) rect(hiRects[i], hiRects[i + 1], hw, hh);
  saucer(goal.x * S, goal.y * S, S * 0.5, GOAL_COL);
  const no = objs.length;
  for (let k = 0; k < no; k++) {
    const o = objs[k];
    if (!o.alive || abs(o.x - ax) > VIS || abs(o.y - ay) > VIS) continue;
    const cx = o.x * S, cy = o.y * S, r = S * 0.45;
    if (o.kind === 0) {
      fill(130, 90, 50);
      quad(cx - r, cy - r * 0.2, cx - r * 0.2, cy - r, cx + r, cy - r * 0.4, cx + r * 0.5, cy + r * 0.9);
      triangle(cx - r, cy - r * 0.2, cx + r * 0.5, cy + r * 0.9, cx - r * 0.5, cy + r * 0.8);
      fill(95, 65, 35);
      ellipse(cx - r * 0.2, cy, r * 0.5, r * 0.4);
    } else if (o.kind === 1) {
      saucer(cx, cy, r, o.hp < 5 && t % 4 < 2 ? TARGET_HIT_COL : TARGET_COL);
    } else {
      push();
      translate(cx, cy);
      rotate(o.vx > 0 ? PI / 2 : o.vx < 0 ? -PI / 2 : o.vy > 0 ? PI : 0);
      fill(60, 110, 230);
      triangle(0, -r, -r, r * 0.8, r, r * 0.8);
      fill(30, 60, 150);
      rect(-r * 0.3, 0, r * 0.6, r * 0.8);
      pop();
    }
  }
  fill(120, 200, 255);
  for (let i = 0; i < bullets.length; i++) {
    const b = bullets[i];
    push(); translate(b.x * S, b.y * S); rotate(b.rot); rect(-2.5, -8, 5, 16); pop();
  }
  if (gameState !== 'gameover' || t >= OPT.timeLimit) {
    push();
    translate(ax * S, ay * S);
    rotate(rot);
    const r = S * 0.45;
    if (thrusting) { fill(255, 90, 30); triangle(-r * 0.4, r * 0.7, r * 0.4, r * 0.7, 0, r * 1.5); }
    fill(245, 205, 60);
    triangle(0, -r, -r * 0.85, r * 0.8, r * 0.85, r * 0.8);
    fill(190, 140, 30);
    triangle(-r * 0.85, r * 0.8, -r * 0.3, r * 0.3, -r * 0.3, r * 0.8);
    triangle(r * 0.85, r * 0.8, r * 0.3, r * 0.3, r * 0.3, r * 0.8);
    fill(220, 240, 255);
    ellipse(0, -r * 0.1, r * 0.45, r * 0.6);
    pop();
  }
  pop();
}
