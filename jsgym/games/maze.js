// Maze: a clone of OpenAI ProcGen "Maze".
//
// A mouse must find the single piece of cheese in a procedurally generated maze.
// Every level seed gives a different maze (a perfect maze carved by a seeded
// depth-first search), a different maze size, cheese position and colour theme.
// The mouse starts in the bottom-left corner of the maze; the cheese lies in a
// random other cell.
//
// Canvas: 400x400. Walls are whole tiles, as in ProcGen. The view is zoomed to
// the maze (7 to 15 tiles across; tiny mazes are centred in wall); a maze wider
// than 15 tiles (hard mode) scrolls with the mouse.
// Actions (default table):
//   1 LEFT, 2 RIGHT, 3 UP, 4 DOWN held: move one tile now, then one tile every
//     `moveDelay` frames while held;
//   6 LEFT+SPACE, 7 RIGHT+SPACE: as LEFT / RIGHT; 0 NOOP, 5 SPACE: nothing.
// Scoring: +10 for reaching the cheese (ProcGen's only reward).
// Termination: 'won' on reaching the cheese; 'gameover' after `maxSteps` frames
//   (ProcGen's 1000-step timeout). lives is always 1.
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'  'easy': mazes of 2..7 x 2..7 cells (grid 5..15);
//                              'hard': 2..12 cells (grid up to 25), scrolling view
//   maxSteps: 1000             frame limit
//   moveDelay: 3               frames between moves while an arrow is held
// Simplifications: movement is tile by tile instead of ProcGen's continuous
//   motion; backgrounds and wall textures are flat-colour themes; the maze is
//   centred instead of anchored in a corner of a fixed-size world.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  maxSteps: 1000,
  moveDelay: 3,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});
const HARD = OPT.distribution_mode === 'hard';
const MAXVIEW = 15;              // at most this many tiles visible along each axis
let VIEW, TILE;

const THEMES = [
  // [wall, wall edge, floor]
  [[70, 110, 60], [50, 84, 44], [214, 196, 150]],
  [[120, 72, 48], [92, 52, 34], [236, 220, 186]],
  [[60, 80, 140], [42, 58, 108], [200, 214, 232]],
  [[110, 110, 118], [82, 82, 90], [232, 228, 214]],
  [[150, 60, 80], [116, 42, 60], [246, 214, 200]],
  [[40, 120, 120], [28, 92, 92], [222, 240, 214]],
  [[96, 70, 130], [72, 50, 104], [240, 226, 244]],
  [[160, 120, 50], [126, 92, 34], [250, 240, 206]],
];

let rng;
let score, lives, gameState, frames;
let dim, grid;                   // Uint8Array: grid[y * dim + x] = 1 wall, 0 floor (y = 0 is the top row)
let px, py, cx, cy;              // mouse and cheese tiles
let moveCool, facing;
let theme, offX, offY;
// Walls never change within a level, so their rects are built once in resetGame
// instead of scanning every grid cell each frame:
let wallRects;                   // flat [x, y, w, h, ...]: one rect per horizontal run
// The picture changes only at a move (tried or made) or a reset. On the frames
// between, the canvas, which persists as in p5, already shows it, so draw() paints
// nothing then.
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
  moveCool = 0;
  facing = 1;
  const cells = 2 + randInt(HARD ? 11 : 6);
  dim = 2 * cells + 1;
  const th = THEMES[randInt(THEMES.length)];
  const j = randInt(40) - 20;    // brightness jitter so each level's palette differs
  theme = th.map(c => c.map(v => constrain(v + j, 0, 255)));
  carve(cells);
  VIEW = constrain(dim, 7, MAXVIEW);
  TILE = W / VIEW;
  px = 1; py = dim - 2;
  do { cx = 1 + 2 * randInt(cells); cy = 1 + 2 * randInt(cells); } while (cx === px && cy === py);
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
}

function carve(cells) {
  grid = new Uint8Array(dim * dim).fill(1);
  const seen = new Uint8Array(cells * cells);
  const stack = [randInt(cells * cells)];
  seen[stack[0]] = 1;
  grid[(2 * Math.floor(stack[0] / cells) + 1) * dim + 2 * (stack[0] % cells) + 1] = 0;
  const DX = [1, -1, 0, 0], DY = [0, 0, 1, -1];
  const opts = [0, 0, 0, 0];     // open directions of the current cell, reused (n of them)
  while (stack.length > 0) {
    const c = stack[stack.length - 1];
    const x = c % cells, y = Math.floor(c / cells);
    let n = 0;
    for (let d = 0; d < 4; d++) {
      const nx = x + DX[d], ny = y + DY[d];
      if (nx >= 0 && ny >= 0 && nx < cells && ny < cells && !seen[ny * cells + nx]) opts[n++] = d;
    }
    if (n === 0) { stack.pop(); continue; }
    const d = opts[randInt(n)];
    const nx = x + DX[d], ny = y + DY[d];
    seen[ny * cells + nx] = 1;
    grid[(2 * y + 1 + DY[d]) * dim + 2 * x + 1 + DX[d]] = 0;
    grid[(2 * ny + 1) * dim + 2 * nx + 1] = 0;
    stack.push(ny * cells + nx);
  }
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {}

function wallAt(x, y) {
  if (x < 0 || y < 0 || x >= dim || y >= dim) return true;
  return grid[y * dim + x] === 1;
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
    if (!wallAt(px + dx, py + dy)) { px += dx; py += dy; }
    moveCool = OPT.moveDelay - 1;
  }
  if (px === cx && py === cy) { score += 10; gameState = 'won'; return; }
  if (frames >= OPT.maxSteps) gameState = 'gameover';
}

function draw() {
  if (gameState === 'playing') update();
  if (drawnVersion === sceneVersion) return;
  drawnVersion = sceneVersion;
  // camera: centre small mazes, follow the mouse in big ones
  if (dim <= VIEW) { offX = (VIEW - dim) / 2; offY = (VIEW - dim) / 2; }
  else {
    offX = -constrain(px + 0.5 - VIEW / 2, 0, dim - VIEW);
    offY = -constrain(py + 0.5 - VIEW / 2, 0, dim - VIEW);
  }
  background(theme[0][0], theme[0][1], theme[0][2]);
  push();
  translate(offX * TILE, offY * TILE);
  noStroke();
  fill(theme[2][0], theme[2][1], theme[2][2]);
  rect(0, 0, dim * TILE, dim * TILE);
  // walls, merged into horizontal runs (one fill: the colour is the same for all)
  fill(theme[0][0], theme[0][1], theme[0][2]);
  for (let k = 0; k < wallRects.length; k += 4) rect(wallRects[k], wallRects[k + 1], wallRects[k + 2], wallRects[k + 3]);
  drawCheese(cx * TILE, cy * TILE);
  drawMouse(px * TILE, py * TILE);
  pop();
}

function drawCheese(x, y) {
  const s = TILE;
  fill(250, 204, 40);
  triangle(x + s * 0.08, y + s * 0.86, x + s * 0.92, y + s * 0.86, x + s * 0.92, y + s * 0.14);
  fill(214, 160, 20);
  ellipse(x + s * 0.68, y + s * 0.64, s * 0.16, s * 0.16);
  ellipse(x + s * 0.80, y + s * 0.40, s * 0.12, s * 0.12);
}

function drawMouse(x, y) {
  const s = TILE, f = facing;
  push();
  translate(x + s / 2, y + s / 2);
  stroke(230, 130, 150);
  strokeWeight(2);
  line(-f * s * 0.3, s * 0.1, -f * s * 0.48, -s * 0.15);
  noStroke();
  fill(150, 150, 160);
  ellipse(-f * s * 0.02, s * 0.08, s * 0.7, s * 0.55);
  ellipse(f * s * 0.22, -s * 0.02, s * 0.42, s * 0.4);
  fill(190, 190, 200);
  ellipse(f * s * 0.12, -s * 0.26, s * 0.28, s * 0.28);
  fill(240, 150, 170);
  ellipse(f * s * 0.12, -s * 0.26, s * 0.15, s * 0.15);
  ellipse(f * s * 0.44, 0, s * 0.1, s * 0.1);
  fill(20);
  ellipse(f * s * 0.28, -s * 0.06, s * 0.08, s * 0.08);
  pop();
}
