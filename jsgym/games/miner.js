// Miner: a clone of OpenAI ProcGen "Miner" (itself a Boulder Dash clone).
//
// The miner digs through dirt to collect every diamond, then leaves through the
// exit. Boulders and diamonds fall when the cell below is empty and roll off
// other boulders/diamonds; one that falls onto the miner kills it. Boulders can
// be pushed sideways into an empty cell. Every level seed gives a different
// layout (random positions of the miner, 3% diamonds, 20% boulders, the exit
// under dirt) and dirt/rock colour theme.
//
// Canvas: 400x400, the whole mine is visible (10x10 cells easy, 20x20 hard).
// The world advances in ticks of `tickFrames` frames: at each tick the miner
// makes one move (the last arrow pressed or held since the previous tick), then
// boulders and diamonds fall one cell, scanning from the bottom row up.
// Actions (default table):
//   1 LEFT, 2 RIGHT, 3 UP, 4 DOWN held: move/dig one cell per tick (LEFT/RIGHT
//     push a boulder if the cell beyond it is empty);
//   6 LEFT+SPACE, 7 RIGHT+SPACE: as LEFT / RIGHT; 0 NOOP, 5 SPACE: wait.
// Scoring: +1 per diamond collected; +10 for reaching the exit after all
//   diamonds are collected (ProcGen's rewards).
// Termination: 'won' on exiting; 'gameover' when crushed by a falling boulder or
//   diamond, or after `maxSteps` frames. lives is always 1.
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'  'easy': 10x10 mine; 'hard': 20x20 mine
//   tickFrames: 3              frames per world tick
//   maxSteps: 3000             frame limit (1000 ticks, ProcGen's timeout)
// Simplifications: flat colour tiles instead of sprites; the exit is drawn as
//   a door that lights up when all diamonds are taken.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  tickFrames: 3,
  maxSteps: 3000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});
const HARD = OPT.distribution_mode === 'hard';
const N = HARD ? 20 : 10;
const TILE = W / N;

const SPACE = 0, DIRT = 1, BOULDER = 2, DIAMOND = 3, MBOULDER = 4, MDIAMOND = 5;
const THEMES = [
  // [dirt, dirt speck, space, boulder]
  [[150, 96, 52], [120, 74, 38], [36, 26, 22], [140, 140, 146]],
  [[176, 140, 84], [146, 112, 62], [40, 34, 28], [120, 110, 100]],
  [[110, 80, 110], [86, 60, 88], [26, 20, 34], [160, 150, 160]],
  [[80, 120, 70], [60, 96, 52], [22, 30, 22], [150, 146, 130]],
  [[170, 90, 70], [140, 68, 52], [40, 22, 20], [130, 128, 140]],
  [[90, 100, 140], [70, 78, 116], [20, 22, 36], [170, 170, 176]],
];

let rng;
let score, lives, gameState, frames;
let grid;                        // grid[y * N + x], y = 0 is the top row
let ax, ay, ex, ey;              // miner and exit cells
let pendX, pendY, facing;
let diamondsLeft;
let theme;
// The picture changes only at a world tick or a reset. On the frames between, the
// canvas, which persists as in p5, already shows it, so draw() paints nothing then.
let sceneVersion = 0, drawnVersion = -1;

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
  pendX = 0; pendY = 0; facing = 1;
  theme = THEMES[randInt(THEMES.length)];
  const area = N * N;
  const nDiamonds = Math.floor(area * 12 / 400);
  const nBoulders = Math.floor(area * 80 / 400);
  // choose distinct cells: a partial Fisher-Yates shuffle
  const idx = [];
  for (let i = 0; i < area; i++) idx.push(i);
  for (let i = 0; i < nDiamonds + nBoulders + 1; i++) {
    const k = i + randInt(area - i);
    const t = idx[i]; idx[i] = idx[k]; idx[k] = t;
  }
  grid = new Uint8Array(area).fill(DIRT);
  ax = idx[0] % N; ay = Math.floor(idx[0] / N);
  for (let i = 0; i < nDiamonds; i++) grid[idx[1 + i]] = DIAMOND;
  for (let i = 0; i < nBoulders; i++) grid[idx[1 + nDiamonds + i]] = BOULDER;
  grid[ay * N + ax] = SPACE;
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
    const x = ax + dx, y = ay + dy;
    if (x >= 0 && y >= 0 && x < N && y < N && grid[y * N + x] === BOULDER) grid[y * N + x] = DIRT;
  }
  const cand = [];
  for (let i = 0; i < area; i++) {
    const x = i % N, y = Math.floor(i / N);
    if (grid[i] === DIRT && (y === 0 || grid[i - N] === DIRT) && !(x === ax && y === ay)) cand.push(i);
  }
  const e = cand[randInt(cand.length)];
  ex = e % N; ey = Math.floor(e / N);
  grid[e] = SPACE;
  diamondsLeft = nDiamonds;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {}

function isFree(x, y) { return x >= 0 && x < N && y >= 0 && y < N && grid[y * N + x] === SPACE && !(x === ax && y === ay); }
function moving(t) { return t === BOULDER ? MBOULDER : (t === DIAMOND ? MDIAMOND : t); }

function tick() {
  sceneVersion += 1;
  const dx = pendX, dy = pendY;
  pendX = 0; pendY = 0;
  if (dx !== 0) facing = dx;
  const nx = ax + dx, ny = ay + dy;
  if ((dx !== 0 || dy !== 0) && nx >= 0 && ny >= 0 && nx < N && ny < N) {
    const t = grid[ny * N + nx];
    if (t === SPACE || t === DIRT || t === DIAMOND || t === MDIAMOND) {
      ax = nx; ay = ny;
    } else if (t === BOULDER && dy === 0 && isFree(nx + dx, ny)) {
      grid[ny * N + nx + dx] = BOULDER;
      grid[ny * N + nx] = SPACE;
      ax = nx; ay = ny;
    }
  }
  const here = grid[ay * N + ax];
  if (here === DIAMOND || here === MDIAMOND) { score += 1; diamondsLeft -= 1; }
  grid[ay * N + ax] = SPACE;
  if (diamondsLeft === 0 && ax === ex && ay === ey) { score += 10; gameState = 'won'; return; }
  // gravity, bottom row first so nothing moves twice
  // (this visits every cell at every tick, so no helper calls: boulders and
  // diamonds, still or moving, are the tiles >= BOULDER, and a moving one's
  // still form is its tile - 2)
  const g = grid;
  for (let y = N - 1; y >= 0; y--) {
    for (let x = 0; x < N; x++) {
      const i = y * N + x, t = g[i];
      if (t < BOULDER) continue;                    // SPACE or DIRT
      const st = t > DIAMOND ? t - 2 : t;           // its still form
      if (y === N - 1) { g[i] = st; continue; }
      const below = g[i + N];
      const agentBelow = ax === x && ay === y + 1;
      if (below === SPACE && !agentBelow) {
        g[i] = SPACE; g[i + N] = moving(t);
      } else if (agentBelow && (t === MBOULDER || t === MDIAMOND)) {
        gameState = 'gameover';
        g[i] = st;
      } else if (below >= BOULDER && isFree(x - 1, y) && isFree(x - 1, y + 1)) {
        g[i] = SPACE; g[i - 1] = st;
      } else if (below >= BOULDER && isFree(x + 1, y) && isFree(x + 1, y + 1)) {
        g[i] = SPACE; g[i + 1] = st;
      } else g[i] = st;
    }
  }
}

function update() {
  frames += 1;
  if (keyIsDown(LEFT_ARROW)) { pendX = -1; pendY = 0; }
  else if (keyIsDown(RIGHT_ARROW)) { pendX = 1; pendY = 0; }
  else if (keyIsDown(UP_ARROW)) { pendX = 0; pendY = -1; }
  else if (keyIsDown(DOWN_ARROW)) { pendX = 0; pendY = 1; }
  if (frames % OPT.tickFrames === 0) tick();
  if (gameState === 'playing' && frames >= OPT.maxSteps) gameState = 'gameover';
}

// Tile geometry, computed once with the same expressions the drawing used
// per tile and frame (px = x * TILE, py = y * TILE): dirt specks per cell,
// boulder ellipse centres and diamond corners per column / row.
const SPECK_X = new Float64Array(N * N), SPECK_Y = new Float64Array(N * N);
const SPECK_W = TILE * 0.2, SPECK_H = TILE * 0.14;
const BOULDER_W1 = TILE * 0.92, BOULDER_H1 = TILE * 0.88, BOULDER_W2 = TILE * 0.7, BOULDER_H2 = TILE * 0.64;
const BOULDER_X1 = new Float64Array(N), BOULDER_Y1 = new Float64Array(N);
const BOULDER_X2 = new Float64Array(N), BOULDER_Y2 = new Float64Array(N);
const GEM_X08 = new Float64Array(N), GEM_X30 = new Float64Array(N), GEM_X50 = new Float64Array(N);
const GEM_X70 = new Float64Array(N), GEM_X92 = new Float64Array(N);
const GEM_Y08 = new Float64Array(N), GEM_Y42 = new Float64Array(N), GEM_Y60 = new Float64Array(N), GEM_Y94 = new Float64Array(N);
const roundCells = new Int32Array(N);     // draw(): a row's boulder and diamond columns
(function() {
  const s = TILE;
  for (let y = 0; y < N; y++) for (let k = 0; k < N; k++) {
    SPECK_X[y * N + k] = k * s + s * (((k * 7 + y * 3) % 5) * 0.14 + 0.1);
    SPECK_Y[y * N + k] = y * s + s * (((k * 3 + y * 5) % 4) * 0.18 + 0.15);
  }
  for (let i = 0; i < N; i++) {
    const p = i * s;
    BOULDER_X1[i] = p + s / 2; BOULDER_Y1[i] = p + s / 2 + s * 0.03;
    BOULDER_X2[i] = p + s * 0.46; BOULDER_Y2[i] = p + s * 0.44;
    GEM_X08[i] = p + s * 0.08; GEM_X30[i] = p + s * 0.3; GEM_X50[i] = p + s * 0.5;
    GEM_X70[i] = p + s * 0.7; GEM_X92[i] = p + s * 0.92;
    GEM_Y08[i] = p + s * 0.08; GEM_Y42[i] = p + s * 0.42; GEM_Y60[i] = p + s * 0.6; GEM_Y94[i] = p + s * 0.94;
  }
})();

function draw() {
  if (gameState === 'playing') update();
  if (drawnVersion === sceneVersion) return;
  drawnVersion = sceneVersion;
  const sp = theme[2], dc = theme[0], ds = theme[1], bc = theme[3];
  background(sp[0], sp[1], sp[2]);
  noStroke();
  const s = TILE;
  // exit door
  const open = diamondsLeft === 0;
  fill(90, 90, 96);
  rect(ex * s + s * 0.08, ey * s + s * 0.04, s * 0.84, s * 0.96, s * 0.3, s * 0.3, 0, 0);
  if (open) fill(120, 240, 120); else fill(60, 40, 30);
  rect(ex * s + s * 0.2, ey * s + s * 0.16, s * 0.6, s * 0.84, s * 0.22, s * 0.22, 0, 0);
  const g = grid;
  const dc0 = dc[0], dc1 = dc[1], dc2 = dc[2], ds0 = ds[0], ds1 = ds[1], ds2 = ds[2];
  const bd0 = bc[0] * 0.7, bd1 = bc[1] * 0.7, bd2 = bc[2] * 0.7;
  for (let y = 0; y < N; y++) {
    // dirt: one rect per horizontal run, plus one speck per cell; the row's
    // boulders and diamonds are noted on the way and drawn after its dirt
    const row = y * N, dy = y * s - 0.5;
    let x = 0, nr = 0;
    while (x < N) {
      const t = g[row + x];
      if (t !== DIRT) {
        if (t >= BOULDER) { roundCells[nr] = x; nr++; }
        x++;
        continue;
      }
      let e = x + 1;
      while (e < N && g[row + e] === DIRT) e++;
      fill(dc0, dc1, dc2);
      rect(x * s - 0.5, dy, (e - x) * s + 1, s + 1);
      fill(ds0, ds1, ds2);
      for (let k = row + x, ke = row + e; k < ke; k++) rect(SPECK_X[k], SPECK_Y[k], SPECK_W, SPECK_H);
      x = e;
    }
    for (let j = 0; j < nr; j++) {
      const cx = roundCells[j], t = g[row + cx];
      if (t === BOULDER || t === MBOULDER) {
        fill(bd0, bd1, bd2);
        ellipse(BOULDER_X1[cx], BOULDER_Y1[y], BOULDER_W1, BOULDER_H1);
        fill(bc[0], bc[1], bc[2]);
        ellipse(BOULDER_X2[cx], BOULDER_Y2[y], BOULDER_W2, BOULDER_H2);
      } else {
        fill(60, 200, 250);
        quad(GEM_X50[cx], GEM_Y08[y], GEM_X92[cx], GEM_Y42[y], GEM_X50[cx], GEM_Y94[y], GEM_X08[cx], GEM_Y42[y]);
        fill(190, 245, 255);
        quad(GEM_X50[cx], GEM_Y08[y], GEM_X70[cx], GEM_Y42[y], GEM_X50[cx], GEM_Y60[y], GEM_X30[cx], GEM_Y42[y]);
      }
    }
  }
  drawMiner(ax * s, ay * s, s);
  // diamonds left, top-right
  for (let i = 0; i < diamondsLeft; i++) {
    const x = W - 20 - i * 22;
    fill(0, 0, 0, 120);
    rect(x - 10, 2, 20, 20);
    fill(60, 200, 250);
    quad(x, 4, x + 8, 12, x, 20, x - 8, 12);
  }
}

function drawMiner(x, y, s) {
  const f = facing;
  push();
  translate(x + s / 2, y + s / 2);
  fill(50, 90, 200);
  rect(-s * 0.28, 0, s * 0.56, s * 0.44, s * 0.08);
  fill(245, 205, 160);
  ellipse(0, -s * 0.12, s * 0.5, s * 0.46);
  fill(250, 210, 40);
  rect(-s * 0.3, -s * 0.44, s * 0.6, s * 0.2, s * 0.1, s * 0.1, 0, 0);
  fill(255, 255, 200);
  ellipse(f * s * 0.12, -s * 0.36, s * 0.14, s * 0.12);
  fill(20);
  ellipse(f * s * 0.12, -s * 0.1, s * 0.08, s * 0.08);
  pop();
}
