// Heist: a clone of OpenAI ProcGen "Heist".
//
// The agent must steal the gem hidden in a maze. The way to the gem is barred by
// up to three coloured locks; each lock opens with the key of the same colour,
// and every key lies somewhere the agent can reach before the lock it opens.
// Every level seed gives a different maze (a perfect maze carved by a seeded
// depth-first search), maze size, number of locks (0-3), key/lock placement,
// gem position and colour theme.
//
// Canvas: 400x400. Walls are whole tiles; the view is zoomed to the maze
// (9 to 15 tiles across), a maze wider than 15 tiles (hard mode) scrolls.
// Keys held are shown in the top-left corner.
// Actions (default table):
//   1 LEFT, 2 RIGHT, 3 UP, 4 DOWN held: move one tile now, then one tile every
//     `moveDelay` frames while held; walking onto a key picks it up, walking
//     into a lock while holding its key opens it (the key is used up);
//   6 LEFT+SPACE, 7 RIGHT+SPACE: as LEFT / RIGHT; 0 NOOP, 5 SPACE: nothing.
// Scoring: +10 for taking the gem (ProcGen gives no reward for keys or locks).
// Termination: 'won' on taking the gem; 'gameover' after `maxSteps` frames
//   (ProcGen's 1000-step timeout). lives is always 1.
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'  'easy': 2..4 x 2..4-cell mazes (5 to 9 tiles across);
//                              'hard': 4..11 cells (9 to 23 tiles)
//   maxSteps: 1000             frame limit
//   moveDelay: 3               frames between moves while an arrow is held
// Simplifications: tile-by-tile movement instead of continuous motion; flat
//   colour themes instead of textures; locks sit in maze corridors on the path
//   to the gem (ProcGen also places them on that path, but draws them as doors
//   in thicker walls). Easy mazes are kept small so that a uniformly random
//   policy takes the gem in about half of the levels (learnability rule).

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  maxSteps: 1000,
  moveDelay: 3,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});
const HARD = OPT.distribution_mode === 'hard';
const MAXVIEW = 15;

const THEMES = [
  // [wall, floor]
  [[96, 100, 112], [206, 210, 200]],
  [[70, 60, 84], [196, 184, 160]],
  [[44, 70, 96], [178, 200, 206]],
  [[104, 82, 64], [222, 206, 178]],
  [[58, 86, 66], [200, 214, 190]],
  [[120, 96, 110], [234, 222, 214]],
];
const KEY_COLORS = [[60, 110, 240], [40, 190, 70], [230, 50, 50]];

let rng;
let score, lives, gameState, frames;
let dim, grid;                   // grid[y*dim+x]: 1 wall, 0 floor, 10+k lock of colour k
let keysOnFloor;                 // [{x, y, c, taken}]
let carried;                      // carried[c] = number of keys of colour c carried
let colorOrder;                  // lock i uses colour colorOrder[i]
let px, py, gx, gy;
let moveCool, facing;
let theme, VIEW, TILE, offX, offY;
// Per-level drawing data, built once in resetGame instead of scanning the grid
// every frame (walls never change; a lock tile only ever turns into floor):
let wallRects;                   // flat [x, y, w, h, ...]: one rect per horizontal run
// The picture changes only at a move (tried or made) or a reset. On the frames
// between, the canvas, which persists as in p5, already shows it, so draw() paints
// nothing then.
let sceneVersion = 0, drawnVersion = -1;
let lockCells;                   // tiles that held a lock at reset, ascending

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function randInt(n) { return Math.floor(rng() * n); }

function resetGame(seed) {
  rng = mulberry32(seed);
  sceneVersion += 1;
  score = 0;
  lives = 1;
  gameState = 'playing';
  frames = 0;
  moveCool = 0;
  facing = 1;
  const cells = HARD ? 4 + randInt(8) : 2 + randInt(3);
  dim = 2 * cells + 1;
  VIEW = constrain(dim, 9, MAXVIEW);
  TILE = W / VIEW;
  const th = THEMES[randInt(THEMES.length)];
  const j = randInt(40) - 20;
  theme = th.map(c => c.map(v => constrain(v + j, 0, 255)));
  carve(cells);
  px = 1; py = dim - 2;
  do { gx = 1 + 2 * randInt(cells); gy = 1 + 2 * randInt(cells); } while (gx + (dim - 1 - gy) < 4);
  placeLocks();
  wallRects = [];
  for (let y = 0; y < dim; y++) {
    let x = 0;
    while (x < dim) {
      if (grid[y * dim + x] !== 1) { x++; continue; }
      let e = x;
      while (e < dim && grid[y * dim + e] === 1) e++;
      wallRects.push(x * TILE - 0.5, y * TILE - 0.5, (e - x) * TILE + 1, TILE + 1);
      x = e;
    }
  }
  lockCells = [];
  for (let i = 0; i < dim * dim; i++) if (grid[i] >= 10) lockCells.push(i);
}

function carve(cells) {
  grid = [];
  for (let i = 0; i < dim * dim; i++) grid.push(1);
  const seen = [];
  for (let i = 0; i < cells * cells; i++) seen.push(0);
  const stack = [randInt(cells * cells)];
  seen[stack[0]] = 1;
  grid[(2 * Math.floor(stack[0] / cells) + 1) * dim + 2 * (stack[0] % cells) + 1] = 0;
  const DX = [1, -1, 0, 0], DY = [0, 0, 1, -1];
  while (stack.length > 0) {
    const c = stack[stack.length - 1];
    const x = c % cells, y = Math.floor(c / cells);
    const opts = [];
    for (let d = 0; d < 4; d++) {
      const nx = x + DX[d], ny = y + DY[d];
      if (nx >= 0 && ny >= 0 && nx < cells && ny < cells && !seen[ny * cells + nx]) opts.push(d);
    }
    if (opts.length === 0) { stack.pop(); continue; }
    const d = opts[randInt(opts.length)];
    const nx = x + DX[d], ny = y + DY[d];
    seen[ny * cells + nx] = 1;
    grid[(2 * y + 1 + DY[d]) * dim + 2 * x + 1 + DX[d]] = 0;
    grid[(2 * ny + 1) * dim + 2 * nx + 1] = 0;
    stack.push(ny * cells + nx);
  }
}

// breadth-first search over floor from the start; blocked tiles (locks) are walls
// (blocked: a Uint8Array over the tiles)
function bfs(blocked) {
  const par = new Int32Array(dim * dim).fill(-2);
  const s = py * dim + px;
  par[s] = -1;
  const q = [s];
  const n4 = [1, -1, dim, -dim];   // neighbour offsets: right, left, down, up
  for (let h = 0; h < q.length; h++) {
    const c = q[h];
    for (let k = 0; k < 4; k++) {
      const n = c + n4[k];
      if (grid[n] !== 0 || par[n] !== -2 || blocked[n]) continue;
      par[n] = c;
      q.push(n);
    }
  }
  return { par: par, order: q };
}

function placeLocks() {
  carried = [0, 0, 0];
  keysOnFloor = [];
  colorOrder = [0, 1, 2];
  for (let i = 2; i > 0; i--) { const k = randInt(i + 1); const t = colorOrder[i]; colorOrder[i] = colorOrder[k]; colorOrder[k] = t; }
  let nLocks = randInt(4);
  const r = bfs(new Uint8Array(dim * dim));
  // corridor tiles on the path from the start to the gem
  const path = [];
  for (let c = r.par[gy * dim + gx]; c >= 0 && r.par[c] >= 0; c = r.par[c]) {
    const x = c % dim, y = Math.floor(c / dim);
    if ((x % 2) + (y % 2) === 1) path.push(c);
  }
  path.reverse();                // from the start towards the gem
  nLocks = Math.min(nLocks, path.length);
  const chosen = [];
  while (chosen.length < nLocks) {
    const i = randInt(path.length);
    if (chosen.indexOf(i) < 0) chosen.push(i);
  }
  chosen.sort((a, b) => a - b);
  const lockTiles = chosen.map(i => path[i]);
  const used = new Uint8Array(dim * dim);
  used[py * dim + px] = 1;
  used[gy * dim + gx] = 1;
  for (let i = 0; i < nLocks; i++) {
    const blocked = new Uint8Array(dim * dim);
    for (let k = i; k < nLocks; k++) blocked[lockTiles[k]] = 1;
    const reach = bfs(blocked).order.filter(c => !used[c] && ((c % dim) % 2) + (Math.floor(c / dim) % 2) === 2);
    let c;
    if (reach.length > 0) c = reach[randInt(reach.length)];
    else { c = bfs(blocked).order.filter(t => !used[t])[0]; }
    used[c] = 1;
    keysOnFloor.push({ x: c % dim, y: Math.floor(c / dim), c: colorOrder[i], taken: false });
    grid[lockTiles[i]] = 10 + colorOrder[i];
  }
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {}

function tryMove(dx, dy) {
  const nx = px + dx, ny = py + dy;
  if (nx < 0 || ny < 0 || nx >= dim || ny >= dim) return;
  const g = grid[ny * dim + nx];
  if (g === 1) return;
  if (g >= 10) {
    if (carried[g - 10] <= 0) return;
    carried[g - 10] -= 1;
    grid[ny * dim + nx] = 0;
  }
  px = nx; py = ny;
  for (const k of keysOnFloor) {
    if (!k.taken && k.x === px && k.y === py) { k.taken = true; carried[k.c] += 1; }
  }
}

function update() {
  frames += 1;
  let dx = 0, dy = 0;
  if (keyIsDown(LEFT_ARROW)) dx = -1;
  else if (keyIsDown(RIGHT_ARROW)) dx = 1;
  else if (keyIsDown(UP_ARROW)) dy = -1;
  else if (keyIsDown(DOWN_ARROW)) dy = 1;
  if (dx === 0 && dy === 0) moveCool = 0;
  else if (moveCool > 0) moveCool -= 1;
  else {
    sceneVersion += 1;
    if (dx !== 0) facing = dx;
    tryMove(dx, dy);
    moveCool = OPT.moveDelay - 1;
  }
  if (px === gx && py === gy) { score += 10; gameState = 'won'; return; }
  if (frames >= OPT.maxSteps) gameState = 'gameover';
}

function draw() {
  if (gameState === 'playing') update();
  if (drawnVersion === sceneVersion) return;
  drawnVersion = sceneVersion;
  if (dim <= VIEW) { offX = (VIEW - dim) / 2; offY = (VIEW - dim) / 2; }
  else {
    offX = -constrain(px + 0.5 - VIEW / 2, 0, dim - VIEW);
    offY = -constrain(py + 0.5 - VIEW / 2, 0, dim - VIEW);
  }
  background(theme[0][0], theme[0][1], theme[0][2]);
  push();
  translate(offX * TILE, offY * TILE);
  noStroke();
  fill(theme[1][0], theme[1][1], theme[1][2]);
  rect(0, 0, dim * TILE, dim * TILE);
  fill(theme[0][0], theme[0][1], theme[0][2]);
  for (let k = 0; k < wallRects.length; k += 4) rect(wallRects[k], wallRects[k + 1], wallRects[k + 2], wallRects[k + 3]);
  for (let n = 0; n < lockCells.length; n++) {
    const i = lockCells[n];
    if (grid[i] >= 10) drawLock((i % dim) * TILE, Math.floor(i / dim) * TILE, KEY_COLORS[grid[i] - 10]);
  }
  for (let n = 0; n < keysOnFloor.length; n++) {
    const k = keysOnFloor[n];
    if (!k.taken) drawKey(k.x * TILE + TILE / 2, k.y * TILE + TILE / 2, TILE, KEY_COLORS[k.c]);
  }
  drawGem(gx * TILE, gy * TILE);
  drawThief(px * TILE, py * TILE);
  pop();
  // keys carried
  let hx = 6;
  for (let c = 0; c < 3; c++) {
    for (let n = 0; n < carried[c]; n++) {
      fill(255, 255, 255);
      rect(hx - 3, 3, 38, 38, 6);
      drawKey(hx + 16, 22, 34, KEY_COLORS[c]);
      hx += 42;
    }
  }
}

function drawLock(x, y, c) {
  const s = TILE;
  fill(c[0] * 0.6, c[1] * 0.6, c[2] * 0.6);
  rect(x, y, s, s);
  fill(c[0], c[1], c[2]);
  rect(x + s * 0.1, y + s * 0.1, s * 0.8, s * 0.8, s * 0.1);
  fill(30, 30, 30);
  ellipse(x + s * 0.5, y + s * 0.42, s * 0.26, s * 0.26);
  triangle(x + s * 0.5, y + s * 0.42, x + s * 0.36, y + s * 0.76, x + s * 0.64, y + s * 0.76);
}

function drawKey(x, y, s, c) {
  fill(c[0], c[1], c[2]);
  ellipse(x - s * 0.2, y, s * 0.5, s * 0.5);
  rect(x - s * 0.05, y - s * 0.12, s * 0.52, s * 0.24);
  rect(x + s * 0.22, y, s * 0.12, s * 0.3);
  rect(x + s * 0.36, y, s * 0.11, s * 0.24);
  fill(theme[1][0], theme[1][1], theme[1][2]);
  ellipse(x - s * 0.2, y, s * 0.18, s * 0.18);
}

function drawGem(x, y) {
  const s = TILE;
  fill(250, 90, 210);
  quad(x + s * 0.5, y + s * 0.08, x + s * 0.9, y + s * 0.4, x + s * 0.5, y + s * 0.92, x + s * 0.1, y + s * 0.4);
  fill(255, 190, 245);
  triangle(x + s * 0.5, y + s * 0.08, x + s * 0.72, y + s * 0.4, x + s * 0.28, y + s * 0.4);
}

function drawThief(x, y) {
  const s = TILE, f = facing;
  push();
  translate(x + s / 2, y + s / 2);
  fill(40, 40, 50);
  rect(-s * 0.3, -s * 0.05, s * 0.6, s * 0.45, s * 0.12);
  fill(240, 200, 160);
  ellipse(0, -s * 0.18, s * 0.5, s * 0.5);
  fill(40, 40, 50);
  rect(-s * 0.26, -s * 0.28, s * 0.52, s * 0.12);
  fill(255);
  ellipse(f * s * 0.1 - s * 0.1, -s * 0.22, s * 0.1, s * 0.08);
  ellipse(f * s * 0.1 + s * 0.1, -s * 0.22, s * 0.1, s * 0.08);
  pop();
}
