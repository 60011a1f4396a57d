// Jumper: a clone of OpenAI ProcGen "Jumper".
//
// A bunny explores an open cave to find a carrot, using a double jump to climb
// between ledges; spiky creatures standing on the ground kill it. A compass in
// the top-right corner points at the carrot (the bar under it shows the
// distance). Every level seed gives a different cave, built as in ProcGen: a
// maze without dead ends, scaled x3, randomised tile by tile, smoothed by a
// cellular automaton; the largest open region is kept, the bunny starts on the
// ground, the carrot goes in a random cell, and only a wide corridor (4 tiles
// around the path between them) is left open. Spikes appear on flat ground, and
// the cave colours differ per level.
//
// Canvas: 400x400; the camera follows the bunny and shows 12x12 tiles of a
// 20x20 world (easy) or 16x16 tiles of a 40x40 world (hard).
// Actions (default table):
//   1 LEFT, 2 RIGHT held: run;
//   3 UP held: jump (a second jump is allowed in the air; holding UP repeats
//     after a short cooldown);
//   5 SPACE tapped: jump; 6 LEFT+SPACE, 7 RIGHT+SPACE: run and jump;
//   0 NOOP, 4 DOWN: nothing.
// Scoring: +10 for reaching the carrot (ProcGen's only reward).
// Termination: 'won' at the carrot; 'gameover' when touching a spike or after
//   `maxSteps` frames. lives is always 1.
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'  'easy': 20x20 world, 12-tile view;
//                              'hard': 40x40 world, 16-tile view
//   maxSteps: 1000             frame limit (ProcGen's timeout)
// Simplifications: one frame = one ProcGen step with ProcGen's speeds
//   (run 0.5, jump 1.0, gravity 0.15 tiles per frame); the camera is clamped to
//   the world; flat-colour tiles; spikes next to the start are not placed.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  maxSteps: 1000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});
const HARD = OPT.distribution_mode === 'hard';
const N = HARD ? 40 : 20;
const VIEW = HARD ? 16 : 12;
const T = W / VIEW;
const RX = 0.254, RY = 0.4;
const GRAV = 0.15, JUMP = 1.0, SPEED = 0.5;

const THEMES = [
  // [wall, wall top]
  [[50, 90, 170], [130, 190, 250]],
  [[60, 130, 60], [150, 220, 100]],
  [[190, 150, 40], [250, 220, 110]],
  [[120, 80, 50], [190, 150, 100]],
];
const SKIES = [[110, 160, 210], [90, 80, 140], [220, 150, 110], [90, 150, 140], [70, 70, 100], [160, 110, 150]];

let rng;
let score, lives, gameState, frames;
let grid;                        // grid[y * N + x] = 1 wall, 0 open; y = 0 is the top
let spikes;                      // [{x, y}] tile coordinates
let ax, ay, avx, avy, jumps, lastJump, support, facing, jumpPending;
let gx, gy;
let theme, sky;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function randInt(n) { return Math.floor(rng() * n); }
function wall(x, y) { return x < 0 || y < 0 || x >= N || y >= N || grid[y * N + x] === 1; }

function mazeBlocks(m) {
  // block maze of size m (odd): 1 = wall; carved by DFS, then dead ends opened
  const k = (m - 1) / 2;
  const g = [];
  for (let i = 0; i < m * m; i++) g.push(1);
  const seen = [];
  for (let i = 0; i < k * k; i++) seen.push(0);
  const stack = [randInt(k * k)];
  seen[stack[0]] = 1;
  g[(2 * Math.floor(stack[0] / k) + 1) * m + 2 * (stack[0] % k) + 1] = 0;
  const DX = [1, -1, 0, 0], DY = [0, 0, 1, -1];
  while (stack.length > 0) {
    const c = stack[stack.length - 1], x = c % k, y = Math.floor(c / k);
    const o = [];
    for (let d = 0; d < 4; d++) {
      const nx = x + DX[d], ny = y + DY[d];
      if (nx >= 0 && ny >= 0 && nx < k && ny < k && !seen[ny * k + nx]) o.push(d);
    }
    if (o.length === 0) { stack.pop(); continue; }
    const d = o[randInt(o.length)], nx = x + DX[d], ny = y + DY[d];
    seen[ny * k + nx] = 1;
    g[(2 * y + 1 + DY[d]) * m + 2 * x + 1 + DX[d]] = 0;
    g[(2 * ny + 1) * m + 2 * nx + 1] = 0;
    stack.push(ny * k + nx);
  }
  for (let y = 0; y < k; y++) for (let x = 0; x < k; x++) {
    const cx = 2 * x + 1, cy = 2 * y + 1;
    const walls = [];
    for (let d = 0; d < 4; d++) {
      const nx = x + DX[d], ny = y + DY[d];
      if (nx >= 0 && ny >= 0 && nx < k && ny < k && g[(cy + DY[d]) * m + cx + DX[d]] === 1) walls.push(d);
    }
    if (walls.length === 3 || (walls.length === 2 && x * y === 0 && walls.length >= 2 && rng() < 0)) {
      const d = walls[randInt(walls.length)];
      g[(cy + DY[d]) * m + cx + DX[d]] = 0;
    }
  }
  return g;
}

// typed arrays and no per-cell allocations: level generation runs on every reset
const NB_DX = [1, -1, 0, 0], NB_DY = [0, 0, 1, -1];
// open tiles reachable from `start` (no predicate callback: this visits every
// open tile of the level)
function regionFrom(start) {
  const seen = new Uint8Array(N * N);
  seen[start] = 1;
  const q = [start];
  for (let h = 0; h < q.length; h++) {
    const c = q[h], x = c % N, y = Math.floor(c / N);
    for (let d = 0; d < 4; d++) {
      const nx = x + NB_DX[d], ny = y + NB_DY[d];
      if (nx < 0 || ny < 0 || nx >= N || ny >= N) continue;
      const n = ny * N + nx;
      if (seen[n] || grid[n] !== 0) continue;
      seen[n] = 1;
      q.push(n);
    }
  }
  return q;
}

// ground[y * N + x] = 1 where a tile is ground to stand on: it and the tile
// above are open, the tile below is a wall inside the level
function groundMap() {
  const ground = new Uint8Array(N * N);
  for (let y = 1; y < N - 1; y++) {
    for (let i = y * N, e = i + N; i < e; i++) ground[i] = grid[i] === 0 && grid[i - N] === 0 && grid[i + N] === 1 ? 1 : 0;
  }
  return ground;
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  frames = 0;
  const th = THEMES[randInt(THEMES.length)];
  theme = th;
  const j = randInt(50) - 25;
  let sk;
  do { sk = SKIES[randInt(SKIES.length)]; } while (abs(sk[0] - th[0][0]) + abs(sk[1] - th[0][1]) + abs(sk[2] - th[0][2]) < 150);
  sky = sk.map(v => constrain(v + j, 0, 255));
  // 1. maze, scaled x3, randomised
  const md = Math.floor(N / 3);
  const m = md % 2 === 1 ? md : md + 1;
  const mz = mazeBlocks(m);
  grid = [];
  for (let i = 0; i < N * N; i++) {
    const b = mz[Math.floor(Math.floor(i / N) / 3) * m + Math.floor((i % N) / 3)];
    grid.push(rng() < (b === 1 ? 0.8 : 0.2) ? 1 : 0);
  }
  // 2. cellular automaton smoothing
  // (walls among the 3x3 neighbours, outside counting as wall, via row sums of 3)
  const rowSum = new Int32Array(N * N);
  for (let it = 0; it < 2; it++) {
    for (let y = 0; y < N; y++) {
      for (let x = 0; x < N; x++) {
        const i = y * N + x;
        rowSum[i] = (x === 0 ? 1 : grid[i - 1]) + grid[i] + (x === N - 1 ? 1 : grid[i + 1]);
      }
    }
    const ng = [];
    for (let i = 0; i < N * N; i++) {
      const c = (i < N ? 3 : rowSum[i - N]) + rowSum[i] + (i >= N * N - N ? 3 : rowSum[i + N]);
      ng.push(c >= 5 ? 1 : 0);
    }
    grid = ng;
  }
  for (let i = 0; i < N; i++) { grid[i] = 1; grid[(N - 1) * N + i] = 1; grid[i * N] = 1; grid[i * N + N - 1] = 1; }
  // 3. keep the largest open region
  const done = new Uint8Array(N * N);
  let best = [];
  for (let i = 0; i < N * N; i++) {
    if (grid[i] === 1 || done[i]) continue;
    const r = regionFrom(i);
    for (let k = 0; k < r.length; k++) done[r[k]] = 1;
    if (r.length > best.length) best = r;
  }
  for (let i = 0; i < N * N; i++) grid[i] = 1;
  for (let k = 0; k < best.length; k++) grid[best[k]] = 0;
  if (best.length < 8) {         // degenerate cave (practically never): open a box
    for (let y = N - 6; y < N - 1; y++) for (let x = 1; x < N - 1; x++) grid[y * N + x] = 0;
    best = regionFrom((N - 2) * N + 1);
  }
  // 4. goal and start, then keep only a wide corridor between them
  const goal = best[randInt(best.length)];
  const cand = [];
  let ground = groundMap();
  for (let i = 0; i < N * N; i++) if (ground[i] === 1 && i !== goal) cand.push(i);
  if (cand.length === 0) { const b = (N - 2) * N + 1; grid[b] = 0; grid[b - N] = 0; cand.push(b); }
  const start = cand[randInt(cand.length)];
  const STEP = [1, -1, N, -N];
  const par = new Int32Array(N * N).fill(-2);   // -2: not reached
  par[start] = -1;
  const q = [start];
  for (let h = 0; h < q.length && par[goal] === -2; h++) {
    const c = q[h];
    for (let d = 0; d < 4; d++) {
      const n = c + STEP[d];
      if (n < 0 || n >= N * N || grid[n] === 1 || par[n] !== -2) continue;
      par[n] = c;
      q.push(n);
    }
  }
  const dist = new Int8Array(N * N).fill(-1);   // -1: off the corridor
  const wq = [];
  for (let c = goal; c >= 0; c = par[c]) { dist[c] = 0; wq.push(c); }
  for (let h = 0; h < wq.length; h++) {
    const c = wq[h];
    if (dist[c] >= 4) continue;
    for (let d = 0; d < 4; d++) {
      const n = c + STEP[d];
      if (n < 0 || n >= N * N || grid[n] === 1 || dist[n] !== -1) continue;
      if (abs((n % N) - (c % N)) > 1) continue;
      dist[n] = dist[c] + 1;
      wq.push(n);
    }
  }
  for (let i = 0; i < N * N; i++) grid[i] = dist[i] === -1 ? 1 : 0;
  // 5. spikes on flat ground (not near the start)
  spikes = [];
  const sx = start % N, sy = Math.floor(start / N);
  ground = groundMap();
  for (let i = 0; i < N * N; i++) {
    const x = i % N, y = Math.floor(i / N);
    if (ground[i] === 1 && x > 0 && ground[i - 1] === 1 && x < N - 1 && ground[i + 1] === 1 && i !== goal && !(y === sy && abs(x - sx) <= 2)) {
      if (rng() < 0.2) spikes.push({ x: x, y: y });
    }
  }
  // 6. break up tall vertical walls
  for (let i = 0; i < N * N; i++) {
    const x = i % N, y = Math.floor(i / N);
    if (y < 1 || y + 3 > N - 1 || x < 1 || x > N - 2) continue;
    if (grid[i] !== 1 || grid[i + N] !== 1 || grid[i + 2 * N] !== 1) continue;
    // a wall column three tiles tall with open floor all along its left or right side
    const openRight = grid[i + 1] === 0 && grid[i + N + 1] === 0 && grid[i + 2 * N + 1] === 0;
    const openLeft = grid[i - 1] === 0 && grid[i + N - 1] === 0 && grid[i + 2 * N - 1] === 0;
    if (openRight || openLeft) grid[(y + randInt(3)) * N + x] = 0;
  }
  gx = goal % N + 0.5; gy = Math.floor(goal / N) + 0.5;
  ax = sx + 0.5; ay = sy + 1 - RY - 0.001;
  avx = 0; avy = 0; jumps = 2; lastJump = -10; support = true; facing = 1; jumpPending = false;
  vx0 = NaN;                     // a new level: list the view again
  rowDone.fill(0);
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) jumpPending = true;
}

function boxHits(x, y) {
  const x0 = Math.floor(x - RX), x1 = Math.floor(x + RX - 1e-6);
  const y0 = Math.floor(y - RY), y1 = Math.floor(y + RY - 1e-6);
  // (wall() inlined: this runs twice per movement sub-step)
  for (let yy = y0; yy <= y1; yy++) for (let xx = x0; xx <= x1; xx++) {
    if (xx < 0 || yy < 0 || xx >= N || yy >= N || grid[yy * N + xx] === 1) return true;
  }
  return false;
}

function update() {
  frames += 1;
  let act = 0;
  if (keyIsDown(LEFT_ARROW)) act -= 1;
  if (keyIsDown(RIGHT_ARROW)) act += 1;
  if (act !== 0) facing = act;
  support = wall(Math.floor(ax - RX + 0.01), Math.floor(ay + RY + 0.01)) || wall(Math.floor(ax + RX - 0.01), Math.floor(ay + RY + 0.01));
  if (support) jumps = 2;
  const wantJump = keyIsDown(UP_ARROW) || jumpPending;
  jumpPending = false;
  avx = 0.5 * avx + 0.5 * SPEED * act;
  if (wantJump && jumps > 0 && frames - lastJump > 3) { jumps -= 1; lastJump = frames; avy = -JUMP; }
  // move in small sub-steps, x then y
  const n = Math.ceil(max(abs(avx), abs(avy)) / 0.2) || 1;
  for (let i = 0; i < n; i++) {
    const nx = ax + avx / n;
    if (boxHits(nx, ay)) {
      ax = avx > 0 ? Math.floor(ax + RX + avx / n) - RX - 0.0001 : Math.floor(ax - RX + avx / n) + 1 + RX + 0.0001;
      if (boxHits(ax, ay)) ax = nx - avx / n;
      avx = 0;
    } else ax = nx;
    const ny = ay + avy / n;
    if (boxHits(ax, ny)) {
      ay = avy > 0 ? Math.floor(ay + RY + avy / n) - RY - 0.0001 : Math.floor(ay - RY + avy / n) + 1 + RY + 0.0001;
      if (boxHits(ax, ay)) ay = ny - avy / n;
      avy = 0;
    } else ay = ny;
  }
  if (avy < 2) avy += GRAV;
  for (let i = 0; i < spikes.length; i++) {
    const s = spikes[i];
    if (abs(ax - (s.x + 0.5)) < RX + 0.23 && abs(ay - (s.y + 0.6)) < RY + 0.4) { gameState = 'gameover'; return; }
  }
  if (abs(ax - gx) < RX + 0.4 && abs(ay - gy) < RY + 0.4) { score += 10; gameState = 'won'; return; }
  if (frames >= OPT.maxSteps) gameState = 'gameover';
}

function draw() {
  if (gameState === 'playing') update();
  const camX = constrain(ax - VIEW / 2, 0, N - VIEW), camY = constrain(ay - VIEW / 2, 0, N - VIEW);
  background(sky[0], sky[1], sky[2]);
  noStroke();
  push();
  translate(-camX * T, -camY * T);
  const x0 = max(0, Math.floor(camX)), x1 = min(N - 1, Math.floor(camX + VIEW));
  const y0 = max(0, Math.floor(camY)), y1 = min(N - 1, Math.floor(camY + VIEW));
  const wc = theme[0], tc = theme[1];
  const wc0 = wc[0], wc1 = wc[1], wc2 = wc[2], tc0 = tc[0], tc1 = tc[1], tc2 = tc[2];
  // walls: per row, one rect per horizontal run of wall tiles, then the
  // light tops of wall tiles under open ones (see buildView)
  if (x0 !== vx0 || y0 !== vy0 || x1 !== vx1 || y1 !== vy1) buildView(x0, y0, x1, y1);
  let w = 0, h = 0;
  for (let r = 0; r <= y1 - y0; r++) {
    for (const we = rowWallEnd[r]; w < we; w += 3) {
      fill(wc0, wc1, wc2);
      rect(wallRects[w], wallRects[w + 1], wallRects[w + 2], WALL_H);
    }
    fill(tc0, tc1, tc2);
    for (const he = rowTopEnd[r]; h < he; h += 2) rect(topRects[h], topRects[h + 1], TOP_W, TOP_H);
  }
  for (let i = 0; i < spikes.length; i++) drawSpike((spikes[i].x + 0.5) * T, (spikes[i].y + 1) * T);
  drawCarrot(gx * T, gy * T);
  drawBunny(ax * T, (ay + RY) * T);
  pop();
  drawCompass();
}

// The walls' rects depend only on the tiles in view (x0..x1, y0..y1), which
// change only when the camera crosses a tile boundary (the level does not
// change during an episode): they are listed once per view and replayed.
const VT = VIEW + 2;
const wallRects = new Float64Array(3 * VT * VT), topRects = new Float64Array(2 * VT * VT);
const rowWallEnd = new Int32Array(VT), rowTopEnd = new Int32Array(VT);   // ends per row of the view
const WALL_H = T + 1, TOP_W = T + 1, TOP_H = T * 0.25;
let vx0 = NaN, vy0 = NaN, vx1 = NaN, vy1 = NaN;     // the listed view (NaN: none)

// Listing a view clips per-row lists made from the grid the first time a row
// is in view (rather than scanning every tile of the view): the row's runs
// of wall tiles as [start, end) pairs, and its wall tiles under open ones.
const RS = N + 2;
const runs = new Int16Array(RS * N), tops = new Int16Array(RS * N);
const runCount = new Uint8Array(N), topCount = new Uint8Array(N), rowDone = new Uint8Array(N);

function makeRow(y) {
  const row = y * N, o = y * RS;
  let nr = 0, nt = 0, inWall = false;
  for (let x = 0; x < N; x++) {
    const w = grid[row + x] === 1;
    if (w !== inWall) { runs[o + nr] = x; nr++; inWall = w; }
    if (w && y > 0 && grid[row - N + x] === 0) { tops[o + nt] = x; nt++; }
  }
  if (inWall) { runs[o + nr] = N; nr++; }
  runCount[y] = nr; topCount[y] = nt; rowDone[y] = 1;
}

function buildView(x0, y0, x1, y1) {
  vx0 = x0; vy0 = y0; vx1 = x1; vy1 = y1;
  const xe = x1 + 1;
  let nw = 0, nt = 0;
  for (let y = y0; y <= y1; y++) {
    if (rowDone[y] === 0) makeRow(y);
    const py = y * T - 0.5;
    let i = y * RS;
    const ri = i + runCount[y];
    while (i < ri && runs[i + 1] <= x0) i += 2;
    for (; i < ri && runs[i] <= x1; i += 2) {
      const x = runs[i] > x0 ? runs[i] : x0, e = runs[i + 1] < xe ? runs[i + 1] : xe;
      wallRects[nw] = x * T - 0.5; wallRects[nw + 1] = py; wallRects[nw + 2] = (e - x) * T + 1;
      nw += 3;
    }
    rowWallEnd[y - y0] = nw;
    const ty = y * T;
    let j = y * RS;
    const tj = j + topCount[y];
    while (j < tj && tops[j] < x0) j++;
    for (; j < tj && tops[j] <= x1; j++) { topRects[nt] = tops[j] * T - 0.5; topRects[nt + 1] = ty; nt += 2; }
    rowTopEnd[y - y0] = nt;
  }
}

function drawSpike(x, y) {
  fill(60, 60, 70);
  for (let i = -1; i <= 1; i++) triangle(x + i * T * 0.2 - T * 0.14, y - T * 0.35, x + i * T * 0.2 + T * 0.14, y - T * 0.35, x + i * T * 0.2, y - T * 0.8);
  fill(200, 60, 60);
  ellipse(x, y - T * 0.22, T * 0.5, T * 0.44);
  fill(255);
  ellipse(x - T * 0.08, y - T * 0.26, T * 0.1, T * 0.1);
  ellipse(x + T * 0.08, y - T * 0.26, T * 0.1, T * 0.1);
}

function drawCarrot(x, y) {
  fill(70, 200, 60);
  triangle(x, y - T * 0.25, x - T * 0.34, y - T * 0.7, x + T * 0.04, y - T * 0.6);
  triangle(x, y - T * 0.25, x + T * 0.34, y - T * 0.7, x - T * 0.04, y - T * 0.6);
  fill(250, 120, 20);
  triangle(x - T * 0.3, y - T * 0.32, x + T * 0.3, y - T * 0.32, x, y + T * 0.6);
}

function drawBunny(x, y) {
  const s = T, f = facing;
  stroke(40, 40, 50);
  strokeWeight(2);
  fill(245, 245, 245);
  ellipse(x - s * 0.1, y - s * 1.02, s * 0.14, s * 0.42);
  ellipse(x + s * 0.08, y - s * 1.02, s * 0.14, s * 0.42);
  ellipse(x, y - s * 0.36, s * 0.5, s * 0.62);
  ellipse(x + f * s * 0.04, y - s * 0.72, s * 0.4, s * 0.36);
  noStroke();
  fill(250, 170, 190);
  ellipse(x - s * 0.1, y - s * 1.0, s * 0.06, s * 0.26);
  ellipse(x + s * 0.08, y - s * 1.0, s * 0.06, s * 0.26);
  fill(20);
  ellipse(x + f * s * 0.13, y - s * 0.75, s * 0.07, s * 0.08);
  fill(200, 200, 210);
  ellipse(x - f * s * 0.24, y - s * 0.3, s * 0.16, s * 0.16);
}

function drawCompass() {
  const r = 34, cx = W - r - 8, cy = r + 8;
  fill(168, 166, 158);
  ellipse(cx, cy, 2 * r, 2 * r);
  const dx = gx - ax, dy = gy - ay, d = Math.sqrt(dx * dx + dy * dy) || 1;
  stroke(252, 186, 3);
  strokeWeight(6);
  line(cx, cy, cx + dx / d * r * 0.9, cy + dy / d * r * 0.9);
  noStroke();
  fill(252, 186, 3);
  rect(cx - r, cy + r + 4, 2 * r * min(1, d / (N * 1.4142)), 8);
}
