// Space Invaders: a clone of Atari 2600 Space Invaders, as in the ALE task.
//
// A 6x6 formation of invaders marches sideways, steps down at each edge and
// speeds up as it thins out, dropping bombs. The agent's laser cannon moves along
// the ground and fires one shot at a time; three shields soak up shots and bombs
// and erode. A mystery ship crosses the top now and then. Clearing a wave brings
// a new one, starting lower.
//
// Canvas: 400x400.
// Actions (default table):
//   0 NOOP; 1 LEFT held / 2 RIGHT held: move the cannon;
//   5 SPACE tapped: fire (one shot on screen at a time);
//   6 LEFT + fire, 7 RIGHT + fire; 3 UP, 4 DOWN: NOOP.
// Scoring: invaders 5, 10, 15, 20, 25, 30 points by row (bottom row 5, top 30);
//   mystery ship 200. No penalty for a lost life.
// Termination: 'gameover' when the last life is lost or the invaders reach the
//   ground; 'won' if `maxWaves` > 0 waves are cleared. lives = cannons left.
// GAME_OPTIONS keys (defaults):
//   lives: 3            cannons per game
//   cols: 6, rows: 6    invader formation size
//   shotSpeed: 10       cannon shot speed (px/frame)
//   bombSpeed: 4        invader bomb speed (px/frame)
//   bombChance: 0.04    chance per frame that a new bomb is dropped
//   maxBombs: 3         bombs on screen at once
//   playerSpeed: 5      cannon speed (px/frame)
//   marchStep: 4        pixels per invader step
//   maxWaves: 0         waves to clear for 'won' (0 = endless, like the 2600)
// Simplifications: one formation speed rule (step interval proportional to the
//   invaders left), the mystery ship is always worth 200, shields are 6x4 blocks,
//   bombs are aimed at the cannon half of the time, no two-player modes.

const W = 400;
const H = 400;
const OPT = Object.assign({
  lives: 3,
  cols: 6,
  rows: 6,
  shotSpeed: 10,
  bombSpeed: 4,
  bombChance: 0.04,
  maxBombs: 3,
  playerSpeed: 5,
  marchStep: 4,
  maxWaves: 0,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const INV_W = 24, INV_H = 16, SPACE_X = 40, SPACE_Y = 26;
const PLAYER_Y = 356, PLAYER_W = 28, PLAYER_H = 14;
const GROUND = 374;
const START_X = 124;              // cannon start, in the gap between two shields
const SHIELD_Y = 306, CELL = 8, SH_COLS = 6, SH_ROWS = 4;
const SHIELD_X = [52, 176, 300];
const ROW_COLORS = [[230, 90, 200], [230, 90, 200], [90, 200, 230], [90, 200, 230], [200, 210, 80], [200, 210, 80]];

let rng;
let score, lives, gameState;
let alive, aliveCount;            // alive[r * cols + c], row 0 = top
let gridX, gridY, dir, marchTimer, animFrame;
let px, shot;                     // cannon x (left edge); shot {x, y} or null
let bombs;                        // [{x, y}]
let shields;                      // shields[s][r * SH_COLS + c]
let shieldRects;                  // flat [x, y, width, ...]: one rect per run of standing
                                  // shield cells in a row; null when a cell was erased since
                                  // (draw() rebuilds it then, not every frame)
let ufo;                          // {x, dx} or null
let ufoTimer, dying, wave, fireRequest;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = OPT.lives;
  gameState = 'playing';
  wave = 0;
  px = START_X;
  shields = [];
  for (let s = 0; s < SHIELD_X.length; s++) {
    const cells = [];
    for (let i = 0; i < SH_COLS * SH_ROWS; i++) cells.push(1);
    cells[(SH_ROWS - 1) * SH_COLS + 2] = 0;          // the notch under each shield
    cells[(SH_ROWS - 1) * SH_COLS + 3] = 0;
    shields.push(cells);
  }
  shieldRects = null;
  newWave();
}

function newWave() {
  alive = [];
  for (let i = 0; i < OPT.rows * OPT.cols; i++) alive.push(1);
  aliveCount = OPT.rows * OPT.cols;
  gridX = Math.floor((W - ((OPT.cols - 1) * SPACE_X + INV_W)) / 2);
  gridY = 60 + Math.min(wave, 4) * 12;
  dir = 1;
  marchTimer = 0;
  animFrame = 0;
  shot = null;
  bombs = [];
  ufo = null;
  ufoTimer = 300 + Math.floor(rng() * 400);
  dying = 0;
  fireRequest = false;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) fireRequest = true;
}

// Invader (c, r) sits at x = gridX + c * SPACE_X, y = gridY + r * SPACE_Y; the hot
// loops below compute that inline (no per-invader helper calls).
function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
  return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
}

// The standing cells as x, y, width triples: one rect per horizontal run of cells.
function buildShieldRects() {
  shieldRects = [];
  for (let s = 0; s < shields.length; s++) {
    const cells = shields[s];
    for (let r = 0; r < SH_ROWS; r++) {
      let c = 0;
      while (c < SH_COLS) {
        if (!cells[r * SH_COLS + c]) { c++; continue; }
        let e = c + 1;
        while (e < SH_COLS && cells[r * SH_COLS + e]) e++;
        shieldRects.push(SHIELD_X[s] + c * CELL, SHIELD_Y + r * CELL, (e - c) * CELL);
        c = e;
      }
    }
  }
}

// remove one shield cell overlapping the rectangle (the first in cell order);
// true if one was hit. Rows the rectangle misses are skipped whole.
function hitShield(x, y, w, h) {
  if (y >= SHIELD_Y + SH_ROWS * CELL || y + h <= SHIELD_Y) return false;
  for (let s = 0; s < SHIELD_X.length; s++) {
    const sx = SHIELD_X[s];
    if (!overlap(x, y, w, h, sx, SHIELD_Y, SH_COLS * CELL, SH_ROWS * CELL)) continue;
    const cells = shields[s];
    for (let r = 0; r < SH_ROWS; r++) {
      const cy = SHIELD_Y + r * CELL;
      if (!(y < cy + CELL && y + h > cy)) continue;
      for (let c = 0; c < SH_COLS; c++) {
        const cx = sx + c * CELL;
        if (cells[r * SH_COLS + c] && x < cx + CELL && x + w > cx) {
          cells[r * SH_COLS + c] = 0;
          shieldRects = null;
          return true;
        }
      }
    }
  }
  return false;
}

function march() {
  // the fewer invaders, the more often the formation steps
  const interval = 1 + Math.floor(aliveCount * 20 / (OPT.rows * OPT.cols));
  marchTimer += 1;
  if (marchTimer < interval) return;
  marchTimer = 0;
  animFrame = 1 - animFrame;
  const cols = OPT.cols, rows = OPT.rows;
  let minC = cols, maxC = -1, maxR = -1;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (!alive[r * cols + c]) continue;
      if (c < minC) minC = c;
      if (c > maxC) maxC = c;
      maxR = r;
    }
  }
  const left = gridX + minC * SPACE_X + dir * OPT.marchStep, right = gridX + maxC * SPACE_X + INV_W + dir * OPT.marchStep;
  if (left < 8 || right > W - 8) { gridY += 12; dir = -dir; }
  else gridX += dir * OPT.marchStep;
  // invaders crush the shields they pass over, and win when they reach the ground
  for (let r = 0; r < rows; r++) {
    const y = gridY + r * SPACE_Y;
    for (let c = 0; c < cols; c++) {
      if (!alive[r * cols + c]) continue;
      const x = gridX + c * SPACE_X;
      while (hitShield(x, y, INV_W, INV_H)) { /* erase all overlapped cells */ }
    }
  }
  if (gridY + maxR * SPACE_Y + INV_H >= PLAYER_Y) { gameState = 'gameover'; lives = 0; }
}

function dropBomb() {
  if (bombs.length >= OPT.maxBombs || rng() >= OPT.bombChance) return;
  // pick a column: half the time the one nearest the cannon, else a random one
  let col = Math.floor(rng() * OPT.cols);
  if (rng() < 0.5) col = constrain(Math.floor((px + PLAYER_W / 2 - gridX + (SPACE_X - INV_W) / 2) / SPACE_X), 0, OPT.cols - 1);
  for (let r = OPT.rows - 1; r >= 0; r--) {
    if (alive[r * OPT.cols + col]) {
      bombs.push({ x: gridX + col * SPACE_X + INV_W / 2 - 2, y: gridY + r * SPACE_Y + INV_H });
      return;
    }
  }
}

function updateShot() {
  if (!shot) return;
  for (let k = 0; k < 2 && shot; k++) {          // two half-steps: no tunnelling
    shot.y -= OPT.shotSpeed / 2;
    if (shot.y < 30) { shot = null; break; }
    if (hitShield(shot.x, shot.y, 4, 12)) { shot = null; break; }
    if (ufo && overlap(shot.x, shot.y, 4, 12, ufo.x, 36, 36, 14)) { score += 200; ufo = null; shot = null; break; }
    // the first invader hit in index order (row 0 first); rows the shot misses
    // are skipped whole
    const sx = shot.x, sy = shot.y, cols = OPT.cols, rows = OPT.rows;
    for (let r = 0; r < rows && shot; r++) {
      const y = gridY + r * SPACE_Y;
      if (!(sy < y + INV_H && sy + 12 > y)) continue;
      for (let c = 0; c < cols; c++) {
        const x = gridX + c * SPACE_X;
        if (alive[r * cols + c] && sx < x + INV_W && sx + 4 > x) {
          alive[r * cols + c] = 0;
          aliveCount -= 1;
          score += 5 * (rows - r);
          shot = null;
          break;
        }
      }
    }
  }
}

function update() {
  if (gameState !== 'playing') return;
  if (dying > 0) {                // cannon destroyed: short pause, then respawn
    dying -= 1;
    if (dying === 0) { px = START_X; bombs = []; shot = null; }
    fireRequest = false;
    return;
  }
  if (keyIsDown(LEFT_ARROW)) px -= OPT.playerSpeed;
  if (keyIsDown(RIGHT_ARROW)) px += OPT.playerSpeed;
  px = constrain(px, 8, W - 8 - PLAYER_W);
  if (fireRequest && !shot) shot = { x: px + PLAYER_W / 2 - 2, y: PLAYER_Y - 12 };
  fireRequest = false;

  updateShot();
  if (aliveCount === 0) {
    wave += 1;
    if (OPT.maxWaves > 0 && wave >= OPT.maxWaves) { gameState = 'won'; return; }
    newWave();
    return;
  }
  march();
  if (gameState !== 'playing') return;
  dropBomb();
  for (let i = bombs.length - 1; i >= 0; i--) {
    const b = bombs[i];
    b.y += OPT.bombSpeed;
    if (b.y > GROUND || hitShield(b.x, b.y, 4, 10)) { bombs.splice(i, 1); continue; }
    if (shot && overlap(b.x, b.y, 4, 10, shot.x, shot.y, 4, 12)) { bombs.splice(i, 1); shot = null; continue; }
    if (overlap(b.x, b.y, 4, 10, px, PLAYER_Y, PLAYER_W, PLAYER_H)) {
      bombs.splice(i, 1);
      lives -= 1;
      if (lives <= 0) { lives = 0; gameState = 'gameover'; return; }
      dying = 40;
    }
  }
  // mystery ship
  if (ufo) {
    ufo.x += ufo.dx;
    if (ufo.x < -40 || ufo.x > W + 4) ufo = null;
  } else {
    ufoTimer -= 1;
    if (ufoTimer <= 0) {
      ufo = rng() < 0.5 ? { x: -36, dx: 2 } : { x: W, dx: -2 };
      ufoTimer = 500 + Math.floor(rng() * 500);
    }
  }
}

// the formation, row by row (index order), each invader drawn inline
function drawInvaders() {
  const cols = OPT.cols, rows = OPT.rows, w = INV_W, a = animFrame;
  for (let r = 0; r < rows; r++) {
    const y = gridY + r * SPACE_Y;
    const col = ROW_COLORS[r % ROW_COLORS.length], cr = col[0], cg = col[1], cb = col[2];
    for (let c = 0; c < cols; c++) {
      if (!alive[r * cols + c]) continue;
      const x = gridX + c * SPACE_X;
      fill(cr, cg, cb);
      rect(x + 2, y, w - 4, 10);                          // body
      if (a === 0) { rect(x, y + 10, 6, 6); rect(x + w - 6, y + 10, 6, 6); }
      else { rect(x + 5, y + 10, 5, 6); rect(x + w - 10, y + 10, 5, 6); }
      fill(0);
      rect(x + 6, y + 3, 4, 4);                           // eyes
      rect(x + w - 10, y + 3, 4, 4);
    }
  }
}

function draw() {
  update();
  background(0);
  noStroke();
  // ground
  fill(80, 90, 40);
  rect(0, GROUND, W, H - GROUND);
  // invaders
  drawInvaders();
  // shields
  fill(200, 96, 48);
  if (!shieldRects) buildShieldRects();
  const sr = shieldRects;
  for (let k = 0; k < sr.length; k += 3) rect(sr[k], sr[k + 1], sr[k + 2], CELL);
  if (ufo) { fill(230, 60, 60); rect(ufo.x, 40, 36, 10); rect(ufo.x + 10, 34, 16, 6); }
  // cannon (flashes while destroyed)
  if (dying === 0 || (dying % 8) < 4) {
    fill(dying > 0 ? 240 : 60, dying > 0 ? 80 : 220, 60);
    rect(px, PLAYER_Y + 4, PLAYER_W, PLAYER_H - 4);
    rect(px + PLAYER_W / 2 - 3, PLAYER_Y - 2, 6, 6);
  }
  if (shot) { fill(255, 255, 120); rect(shot.x, shot.y, 4, 12); }
  fill(255);
  for (let i = 0; i < bombs.length; i++) rect(bombs[i].x, bombs[i].y, 4, 10);
  // HUD
  fill(200, 210, 80);
  textSize(20);
  textAlign(LEFT, TOP);
  text(score, 10, 6);
  textAlign(RIGHT, TOP);
  text(lives, W - 10, 6);
}
