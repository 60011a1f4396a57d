// Chaser: a clone of OpenAI ProcGen's "chaser" (inspired by Ms. Pac-Man).
//
// A maze (Kruskal's algorithm on a grid of rooms, then walls knocked out
// until no dead ends remain) is filled with small green orbs. The player
// collects all orbs while three enemies chase it. Enemies start as eggs that
// hatch after 50 frames. Each quadrant holds one large yellow crystal; eating
// one makes the enemies vulnerable (pale blue, half speed) for 75 frames, and
// touching a vulnerable enemy eats it (no reward): a new egg then appears in
// a random cell, so the number of enemies stays constant. Touching an enemy that
// is not vulnerable kills the player. At a junction an enemy moves toward the
// player on half of its decisions (away from it while vulnerable) and picks
// a random direction otherwise; it never turns back.
//
// Canvas: 400x400; the whole maze is visible (11x11 cells easy, 13x13 hard).
// Actions (default table):
//   0 NOOP: keep moving in the current direction (as ProcGen, the player keeps
//   its velocity); 1 LEFT, 2 RIGHT, 3 UP, 4 DOWN held: turn at the next cell
//   centre where that way is open (reversing is immediate);
//   5 SPACE: nothing; 6 LEFT + SPACE = LEFT; 7 RIGHT + SPACE = RIGHT.
// Rewards: `orbReward` per orb or crystal collected (default 1; ProcGen's own
//   value is 0.04, set orbReward: 0.04 to match it exactly), +10 when every
//   orb has been collected.
// Termination: 'won' when all orbs are eaten; 'gameover' when an enemy
//   catches the player or after `timeLimit` frames. lives = 1.
// Procedural generation from the seed: the maze, floor and wall colours,
//   crystal positions (one per quadrant), player start, egg positions and
//   every enemy decision.
// distribution_mode: 'easy' 11x11 maze, 'hard' 13x13 with one quadrant
//   holding no crystal (as ProcGen).
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'   'easy' | 'hard'
//   timeLimit: 1000             frames before the episode ends as 'gameover'
//   orbReward: 1                reward per orb (ProcGen: 0.04)
// Simplifications: movement is on the grid (half a cell per frame for the
//   player and enemies, a quarter for vulnerable enemies) rather than
//   ProcGen's box physics; a perpendicular turn waits for the cell centre;
//   the first eggs are placed at least 4 cells (Manhattan) from the player;
//   sprites are flat p5 shapes; no diagonal actions.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  timeLimit: 1000,
  orbReward: 1,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const HARD = OPT.distribution_mode === 'hard';
const DIM = HARD ? 13 : 11;
const CELL = W / DIM;
const EAT_TIMEOUT = 75;
const EGG_TIMEOUT = 50;
const NUM_ENEMIES = 3;
const DIRS = [[-1, 0], [1, 0], [0, -1], [0, 1]];   // left, right, up, down

const FLOORS = [[30, 30, 44], [40, 28, 24], [20, 36, 40], [44, 40, 52], [26, 26, 26], [36, 24, 44]];
const WALLS = [[90, 110, 190], [160, 90, 60], [70, 140, 120], [140, 140, 150], [150, 70, 130], [190, 160, 70]];
const ENEMY_COLS = [[230, 60, 60], [240, 120, 40], [220, 60, 180]];
const VULN_COL = [120, 160, 255], BLINK_COL = [240, 240, 240];
const NO_DIR = [0, 0];

let rng;
let score, lives, gameState, t;
let grid;                       // Uint8Array: 1 wall, 0 floor
let orbs;                       // Uint8Array: 1 orb, 2 crystal, 0 empty
let orbsLeft;
let player;                     // {cx, cy, tx, ty, p, dir}
let enemies, eggs;
let eatTime;
let floorCol, wallCol;
// Per-level drawing data, built once in resetGame (the maze never changes
// within a level, so draw() only replays these instead of scanning the grid):
let wallRects, shadeRects;      // flat [x, y, w, h, ...] in draw order
let shadeCol;                   // wall edge shading colour
let orbCells;                   // cells holding an orb or crystal at reset, row-major
// an orb's rect in each cell (the same for every level): x, y, and its size
const ORB_X = [], ORB_Y = [], ORB_SIZE = CELL * 0.28;
for (let i = 0; i < DIM * DIM; i++) {
  const x = i % DIM, y = Math.floor(i / DIM);
  ORB_X.push(x * CELL + CELL * 0.36);
  ORB_Y.push(y * CELL + CELL * 0.36);
}

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function randn(n) { return Math.floor(rng() * n); }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function isOpen(x, y) { return x >= 0 && y >= 0 && x < DIM && y < DIM && grid[y * DIM + x] === 0; }

function makeMaze() {
  grid = new Uint8Array(DIM * DIM).fill(1);
  const parent = new Int32Array(DIM * DIM);
  for (let i = 0; i < DIM * DIM; i++) parent[i] = i;
  const find = (a) => { while (parent[a] !== a) { parent[a] = parent[parent[a]]; a = parent[a]; } return a; };
  // an edge joins room cell c to the room 2 cells right (c * 2) or down (c * 2 + 1)
  const edges = [];
  for (let y = 0; y < DIM; y += 2) {
    for (let x = 0; x < DIM; x += 2) {
      grid[y * DIM + x] = 0;
      if (x + 2 < DIM) edges.push((y * DIM + x) * 2);
      if (y + 2 < DIM) edges.push((y * DIM + x) * 2 + 1);
    }
  }
  for (let i = edges.length - 1; i > 0; i--) {
    const j = randn(i + 1);
    const e = edges[i]; edges[i] = edges[j]; edges[j] = e;
  }
  for (let i = 0; i < edges.length; i++) {
    const c = edges[i] >> 1, step = (edges[i] & 1) ? DIM : 1;
    const a = find(c), b = find(c + 2 * step);
    if (a !== b) {
      parent[a] = b;
      grid[c + step] = 0;
    }
  }
  // knock out walls until no dead ends remain
  for (let y = 0; y < DIM; y += 2) {
    for (let x = 0; x < DIM; x += 2) {
      let n = 0;
      for (let k = 0; k < 4; k++) if (isOpen(x + DIRS[k][0], y + DIRS[k][1])) n++;
      if (n <= 1) {
        const opts = [];
        for (let k = 0; k < 4; k++) {
          const d = DIRS[k];
          const wx = x + d[0], wy = y + d[1];
          if (x + 2 * d[0] >= 0 && x + 2 * d[0] < DIM && y + 2 * d[1] >= 0 && y + 2 * d[1] < DIM && !isOpen(wx, wy)) opts.push(wy * DIM + wx);
        }
        if (opts.length > 0) grid[opts[randn(opts.length)]] = 0;
      }
    }
  }
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  t = 0;
  eatTime = -EAT_TIMEOUT;
  const th = randn(FLOORS.length);
  floorCol = FLOORS[th];
  wallCol = WALLS[(th + 1 + randn(WALLS.length - 1)) % WALLS.length];
  makeMaze();
  orbs = new Uint8Array(DIM * DIM);
  const free = [];
  const quads = [[], [], [], []];
  for (let i = 0; i < DIM * DIM; i++) {
    orbs[i] = grid[i] === 0 ? 1 : 0;
    if (grid[i] === 0) {
      free.push(i);
      const x = i % DIM, y = Math.floor(i / DIM);
      quads[(x >= DIM / 2 ? 1 : 0) * 2 + (y >= DIM / 2 ? 1 : 0)].push(i);
    }
  }
  const skipQuad = HARD ? randn(4) : -1;
  for (let q = 0; q < 4; q++) if (q !== skipQuad) orbs[quads[q][randn(quads[q].length)]] = 2;
  let start;
  do { start = free[randn(free.length)]; } while (orbs[start] === 2);
  player = { cx: start % DIM, cy: Math.floor(start / DIM), tx: start % DIM, ty: Math.floor(start / DIM), p: 0, dir: -1 };
  enemies = [];
  eggs = [];
  for (let k = 0; k < NUM_ENEMIES; k++) {
    let c, tries = 0;
    do { c = free[randn(free.length)]; tries++; }
    while (tries < 50 && (Math.abs(c % DIM - player.cx) + Math.abs(Math.floor(c / DIM) - player.cy) < 4 || orbs[c] === 2));
    eggs.push({ x: c % DIM, y: Math.floor(c / DIM), timer: EGG_TIMEOUT, col: k });
    orbs[c] = 0;                         // egg cells hold no orb (as ProcGen's markers)
  }
  orbsLeft = 0;
  for (let i = 0; i < orbs.length; i++) if (orbs[i] > 0) orbsLeft++;
  prepareDrawing();
}

// The wall and edge-shading rects depend only on the level: computed here with
// the same expressions draw() used to evaluate every frame.
function prepareDrawing() {
  // walls: one rect per horizontal run, plus one per run of vertically
  // adjacent wall cells, so no anti-aliased seams show at low resolution;
  // shading: one rect per run of wall cells above a floor cell
  wallRects = [];
  shadeRects = [];
  shadeCol = [wallCol[0] * 0.7, wallCol[1] * 0.7, wallCol[2] * 0.7];
  for (let y = 0; y < DIM; y++) {
    const row = y * DIM, below = row + DIM, hasBelow = y < DIM - 1;
    let run = -1, brun = -1, srun = -1;
    for (let x = 0; x <= DIM; x++) {
      const a = x < DIM && grid[row + x] === 1;
      const b = a && hasBelow && grid[below + x] === 1;
      const sh = a && hasBelow && grid[below + x] === 0;
      if (a && run < 0) run = x;
      if (!a && run >= 0) { wallRects.push(run * CELL, y * CELL, (x - run) * CELL, CELL); run = -1; }
      if (b && brun < 0) brun = x;
      if (!b && brun >= 0) { wallRects.push(brun * CELL, (y + 0.5) * CELL, (x - brun) * CELL, CELL); brun = -1; }
      if (sh && srun < 0) srun = x;
      if (!sh && srun >= 0) { shadeRects.push(srun * CELL, (y + 1) * CELL - CELL * 0.15, (x - srun) * CELL, CELL * 0.15); srun = -1; }
    }
  }
  // orbs only ever disappear, so the cells holding one now are all draw() visits
  orbCells = [];
  for (let i = 0; i < DIM * DIM; i++) if (orbs[i] > 0) orbCells.push(i);
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function canEat() { return t - eatTime < EAT_TIMEOUT; }

// position of a mover between its cell and its target (no array: called per frame)
function posX(m) { return m.cx + (m.tx - m.cx) * m.p; }
function posY(m) { return m.cy + (m.ty - m.cy) * m.p; }

function collect() {
  const i = player.cy * DIM + player.cx;
  if (orbs[i] > 0) {
    if (orbs[i] === 2) eatTime = t;
    orbs[i] = 0;
    orbsLeft -= 1;
    score += OPT.orbReward;
  }
}

function movePlayer() {
  let want = -1;
  if (keyIsDown(LEFT_ARROW)) want = 0;
  else if (keyIsDown(RIGHT_ARROW)) want = 1;
  else if (keyIsDown(UP_ARROW)) want = 2;
  else if (keyIsDown(DOWN_ARROW)) want = 3;
  const m = player;
  if (m.p === 0) {
    if (want >= 0 && isOpen(m.cx + DIRS[want][0], m.cy + DIRS[want][1])) m.dir = want;
    if (m.dir >= 0 && isOpen(m.cx + DIRS[m.dir][0], m.cy + DIRS[m.dir][1])) {
      m.tx = m.cx + DIRS[m.dir][0];
      m.ty = m.cy + DIRS[m.dir][1];
    } else return;
  } else if (want >= 0 && want !== m.dir && DIRS[want][0] === -DIRS[m.dir][0] && DIRS[want][1] === -DIRS[m.dir][1]) {
    const cx = m.cx, cy = m.cy;
    m.cx = m.tx; m.cy = m.ty; m.tx = cx; m.ty = cy;
    m.p = 1 - m.p;
    m.dir = want;
  }
  m.p += 0.5;
  if (m.p >= 1) {
    m.cx = m.tx; m.cy = m.ty; m.p = 0;
    collect();
  }
}

const best = [0, 0, 0, 0];          // moveEnemy's candidate directions (reused)

function moveEnemy(e, vuln) {
  if (e.p === 0) {
    const aggressive = rng() < 0.5;
    let nBest = 0;
    let bestD = 1e9;
    for (let k = 0; k < 4; k++) {
      const nx = e.cx + DIRS[k][0], ny = e.cy + DIRS[k][1];
      if (!isOpen(nx, ny) || (nx === e.px && ny === e.py)) continue;
      if (aggressive) {
        const d = (Math.abs(nx - player.cx) + Math.abs(ny - player.cy)) * (vuln ? -1 : 1);
        if (d < bestD) { bestD = d; best[0] = k; nBest = 1; } else if (d === bestD) best[nBest++] = k;
      } else best[nBest++] = k;
    }
    if (nBest === 0) {                     // only the way back is open
      e.tx = e.px; e.ty = e.py;
    } else {
      const k = best[randn(nBest)];
      e.tx = e.cx + DIRS[k][0]; e.ty = e.cy + DIRS[k][1];
    }
  }
  e.p += vuln ? 0.25 : 0.5;
  if (e.p >= 1) {
    e.px = e.cx; e.py = e.cy;
    e.cx = e.tx; e.cy = e.ty; e.p = 0;
  }
}

function update() {
  if (gameState !== 'playing') return;
  t += 1;
  movePlayer();
  if (player.p === 0) collect();
  if (orbsLeft === 0) { score += 10; gameState = 'won'; return; }
  for (let i = eggs.length - 1; i >= 0; i--) {
    const g = eggs[i];
    g.timer -= 1;
    if (g.timer <= 0) {
      eggs.splice(i, 1);
      enemies.push({ cx: g.x, cy: g.y, tx: g.x, ty: g.y, px: -1, py: -1, p: 0, col: g.col });
    }
  }
  const vuln = canEat();                 // t and eatTime do not change below
  for (let i = 0; i < enemies.length; i++) moveEnemy(enemies[i], vuln);
  const ppx = posX(player), ppy = posY(player);
  for (let i = enemies.length - 1; i >= 0; i--) {
    const e = enemies[i];
    if (Math.abs(posX(e) - ppx) < 0.75 && Math.abs(posY(e) - ppy) < 0.75) {
      if (vuln) {
        const col = enemies[i].col;
        enemies.splice(i, 1);
        let c;
        do { c = randn(DIM * DIM); } while (grid[c] !== 0);
        eggs.push({ x: c % DIM, y: Math.floor(c / DIM), timer: EGG_TIMEOUT, col: col });
      } else { gameState = 'gameover'; return; }
    }
  }
  if (t >= OPT.timeLimit) gameState = 'gameover';
}

function draw() {
  update();
  background(floorCol[0], floorCol[1], floorCol[2]);
  noStroke();
  fill(wallCol[0], wallCol[1], wallCol[2]);
  for (let k = 0; k < wallRects.length; k += 4) rect(wallRects[k], wallRects[k + 1], wallRects[k + 2], wallRects[k + 3]);
  let green = false;   // the fill is already the small orbs' green: no fill() per orb
  for (let n = 0; n < orbCells.length; n++) {
    const i = orbCells[n];
    if (orbs[i] === 1) {
      if (!green) { fill(0, 255, 0); green = true; }
      rect(ORB_X[i], ORB_Y[i], ORB_SIZE, ORB_SIZE);
    } else if (orbs[i] === 2) {
      const x = i % DIM, y = Math.floor(i / DIM);
      const cx = (x + 0.5) * CELL, cy = (y + 0.5) * CELL, r = CELL * 0.42;
      fill(255, 220, 40);
      quad(cx, cy - r, cx + r * 0.7, cy, cx, cy + r, cx - r * 0.7, cy);
      fill(255, 250, 180);
      quad(cx, cy - r * 0.5, cx + r * 0.3, cy, cx, cy + r * 0.2, cx - r * 0.3, cy);
      green = false;
    }
  }
  // wall edge shading
  fill(shadeCol[0], shadeCol[1], shadeCol[2]);
  for (let k = 0; k < shadeRects.length; k += 4) rect(shadeRects[k], shadeRects[k + 1], shadeRects[k + 2], shadeRects[k + 3]);
  // eggs
  for (let i = 0; i < eggs.length; i++) {
    const g = eggs[i];
    const cx = (g.x + 0.5) * CELL, cy = (g.y + 0.5) * CELL, r = CELL * 0.3;
    fill(200, 200, 190);
    ellipse(cx, cy, r * 1.6, r * 2);
    fill(120, 120, 110);
    triangle(cx - r * 0.8, cy, cx - r * 0.3, cy - r * 0.3, cx - r * 0.3, cy + r * 0.3);
    triangle(cx + r * 0.8, cy, cx + r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3);
  }
  // enemies
  const vuln = canEat();
  const blink = vuln && EAT_TIMEOUT - (t - eatTime) < 20 && t % 6 < 3;
  const wing = (t % 4 < 2) ? 0.4 : 0.1;
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    const cx = (posX(e) + 0.5) * CELL, cy = (posY(e) + 0.5) * CELL, r = CELL * 0.42;
    const c = vuln ? (blink ? BLINK_COL : VULN_COL) : ENEMY_COLS[e.col];
    fill(c[0], c[1], c[2]);
    ellipse(cx, cy - r * 0.2, r * 2, r * 1.6);
    rect(cx - r, cy - r * 0.2, r * 2, r * 0.9);
    triangle(cx - r, cy, cx - r * 1.2, cy - r * (0.4 + wing), cx - r * 0.6, cy - r * 0.3);
    triangle(cx + r, cy, cx + r * 1.2, cy - r * (0.4 + wing), cx + r * 0.6, cy - r * 0.3);
    fill(255);
    ellipse(cx - r * 0.4, cy - r * 0.3, r * 0.6, r * 0.7);
    ellipse(cx + r * 0.4, cy - r * 0.3, r * 0.6, r * 0.7);
    fill(20);
    ellipse(cx - r * 0.35, cy - r * 0.25, r * 0.3, r * 0.35);
    ellipse(cx + r * 0.45, cy - r * 0.25, r * 0.3, r * 0.35);
  }
  // player
  if (gameState !== 'gameover' || t >= OPT.timeLimit) {
    const cx = (posX(player) + 0.5) * CELL, cy = (posY(player) + 0.5) * CELL, r = CELL * 0.42;
    fill(255, 255, 255);
    ellipse(cx, cy, r * 2, r * 2);
    fill(255, 150, 210);
    ellipse(cx, cy, r * 1.5, r * 1.5);
    fill(20);
    const d = player.dir >= 0 ? DIRS[player.dir] : NO_DIR;
    ellipse(cx + d[0] * r * 0.35 - r * 0.25, cy + d[1] * r * 0.35 - r * 0.1, r * 0.35, r * 0.45);
    ellipse(cx + d[0] * r * 0.35 + r * 0.25, cy + d[1] * r * 0.35 - r * 0.1, r * 0.35, r * 0.45);
  }
}
