// Climber: a clone of OpenAI ProcGen's "climber".
//
// A vertical platformer: the player climbs a chain of solid platforms (each
// 3-5 tiles above the last, starting from a tile of the one below), picking
// up stars. About half of the platforms carry a star and the top one always
// does. Collecting every star completes the level. Flying monsters patrol
// horizontally (4 tiles either side of their spawn point) between
// platforms; touching one is fatal. A level has 1-10 platforms (a
// per-level difficulty of 0-2 picks the range). World units are tiles; the
// view is the level's full width (16 tiles easy, 20 hard) and scrolls
// vertically with the player, who stays near the bottom of the view.
//
// Canvas: 400x400, vertical scrolling.
// Actions (default table):
//   0 NOOP; 1 LEFT, 2 RIGHT held: run (slower control in the air);
//   3 UP held: jump when standing; 4 DOWN: nothing; 5 SPACE tapped: jump;
//   6 LEFT + jump; 7 RIGHT + jump.
// Rewards (as ProcGen): +1 per star, +10 when the last star is collected.
// Termination: 'won' when all stars are collected; 'gameover' on touching a
//   monster or after `timeLimit` frames. lives = 1.
// Procedural generation from the seed: difficulty, platform count, positions
//   and lengths, which platforms hold stars, monsters (position, direction),
//   tile theme (4), player colour (4) and sky colour.
// distribution_mode: 'easy' 16 tiles wide, monster chance 0.2 per platform;
//   'hard' 20 wide, monster chance 0.5 (as ProcGen).
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'   'easy' | 'hard'
//   timeLimit: 1000             frames before the episode ends as 'gameover'
// Simplifications: flat p5 shapes instead of sprites; the level is only as
//   tall as its platforms need (ProcGen: 64 tiles); monsters kill on a box
//   80% of their size; no diagonal actions.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  timeLimit: 1000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const HARD = OPT.distribution_mode === 'hard';
const WW = HARD ? 20 : 16;           // world width in tiles (= view width)
const S = W / WW;                    // px per tile
const GRAVITY = 0.2, MAX_JUMP = 1.5, AIR_CONTROL = 0.15, MAXSPEED = 0.5, MIXRATE = 0.5;
const RX = 0.5, RY = 0.5;
const PATROL = 4;
const EMPTY = 0, WALL_MID = 1, WALL_TOP = 2;

const THEMES = [
  [[60, 110, 200], [110, 170, 240]],
  [[60, 150, 70], [120, 210, 110]],
  [[200, 160, 40], [245, 215, 90]],
  [[130, 90, 60], [180, 135, 95]],
];
const SKIES = [[170, 215, 245], [200, 230, 250], [245, 215, 190], [205, 200, 245], [180, 235, 220], [230, 230, 235]];
const PLAYERS = [[70, 120, 230], [80, 190, 90], [150, 150, 160], [220, 70, 70]];
// the star's outline around its centre: 10 points alternately on radii r and 0.45 r
// (p5's cos and sin are Math's in the default RADIANS mode; p5's PI is Math.PI)
const STAR_DX = new Float64Array(10), STAR_DY = new Float64Array(10);
for (let k = 0; k < 10; k++) {
  const r = S * 0.42, a = -Math.PI / 2 + k * Math.PI / 5, rr = k % 2 === 0 ? r : r * 0.45;
  STAR_DX[k] = Math.cos(a) * rr; STAR_DY[k] = Math.sin(a) * rr;
}

let rng, jumpQueued;
let score, lives, gameState, t;
let worldH, tiles;                  // tiles: Uint8Array, tiles[y * WW + x]
let tileRects, tileRow, topRects, topRow, cloudArgs;   // per level, from buildRects
let ax, ay, avx, avy, hasSupport, facing;
let stars, quota, collected, enemies;
let theme, sky, pcol, clouds;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function randn(n) { return Math.floor(rng() * n); }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function getT(x, y) {
  if (x < 0 || y < 0 || x >= WW || y >= worldH) return WALL_MID;
  return tiles[y * WW + x];
}
function setT(x, y, v) { if (x >= 0 && y >= 0 && x < WW && y < worldH) tiles[y * WW + x] = v; }
function isWall(v) { return v === WALL_MID || v === WALL_TOP; }

function generate() {
  const difficulty = randn(3);
  const minP = difficulty * difficulty + 1, maxP = (difficulty + 1) * (difficulty + 1) + 1;
  const num = randn(maxP - minP + 1) + minP;
  const maxDy = Math.floor(MAX_JUMP * MAX_JUMP / (2 * GRAVITY)), minDy = 3;
  // lay the platforms out first (worst case height known once done)
  const plats = [];
  let cx = randn(WW - 4) + 2, cy = 0;
  const margin = 3;
  const enemyProb = HARD ? 0.5 : 0.2;
  stars = []; enemies = []; quota = 0; collected = 0;
  for (let i = 0; i < num; i++) {
    const dy = randn(maxDy - minDy + 1) + minDy;
    const canEnemy = cx >= margin && cx <= WW - margin;
    if (canEnemy && rng() < enemyProb) {
      enemies.push({ x: cx + 0.5, y: cy + randn(2) + 2 + 0.5, vx: 0.15 * (randn(2) * 2 - 1), sx: cx + 0.5 });
    }
    cy += dy;
    const len = 2 + randn(10);
    let vx = randn(2) * 2 - 1;
    if (cx < margin) vx = 1;
    if (cx > WW - margin) vx = -1;
    const cand = [];
    for (let j = 0; j < len; j++) {
      const nx = cx + (j + 1) * vx;
      if (nx <= 0 || nx >= WW - 1) break;
      cand.push(nx);
      plats.push([nx, cy]);
    }
    if (rng() < 0.5 || i === num - 1) {
      stars.push({ x: cand[randn(cand.length)] + 0.5, y: cy + 1.5, alive: true });
      quota += 1;
    }
    cx = cand[randn(cand.length)];
  }
  worldH = max(cy + 12, WW + 1);
  tiles = new Uint8Array(WW * worldH);   // all EMPTY
  tiles.fill(WALL_TOP, 0, WW);                        // floor
  tiles.fill(WALL_MID, (worldH - 1) * WW, worldH * WW);  // ceiling
  for (let y = 0; y < worldH; y++) { tiles[y * WW] = WALL_MID; tiles[y * WW + WW - 1] = WALL_MID; }
  for (const p of plats) setT(p[0], p[1], WALL_TOP);
}

// The tiles and clouds never change during a level, and the view is the level's
// full width, so the tile rects draw() draws are found once per level, as rect()
// arguments, row by row: per row, one rect per horizontal run of tiles and, after
// the run in which it ends (in column order), one per run of tiles under a tile,
// half a tile higher (so that no anti-aliased seam shows between vertically
// adjacent tiles at low resolution; draw() skips these in the view's top row).
// tileRects holds [under, x, y, w, h] per rect (under = 1 for the second kind), those
// of row y from tileRow[y] to tileRow[y + 1]; topRects and topRow likewise hold the
// light strips on top tiles as [x, y, w, h]. cloudArgs: the two ellipses per cloud.
function buildRects() {
  const tl = tiles;
  tileRects = []; topRects = [];
  tileRow = new Int32Array(worldH + 1); topRow = new Int32Array(worldH + 1);
  for (let y = 0; y < worldH; y++) {
    tileRow[y] = tileRects.length; topRow[y] = topRects.length;
    const row = y * WW, up = y + 1 < worldH ? row + WW : -1;
    // c: bit 1 a tile, bit 2 a tile under a tile, bit 4 a top tile; a run starts or
    // ends where a bit changes
    let prev = 0, run = 0, brun = 0, trun = 0;
    for (let x = 0; x <= WW; x++) {
      let c = 0;
      if (x < WW) {
        const v = tl[row + x];
        if (v !== EMPTY) c = (v === WALL_TOP ? 5 : 1) | (up >= 0 && tl[up + x] !== EMPTY ? 2 : 0);
      }
      if (c === prev) continue;
      const on = c & ~prev, off = prev & ~c;
      if (on & 1) run = x;
      if (on & 2) brun = x;
      if (on & 4) trun = x;
      if (off & 1) tileRects.push(0, run * S, -(y + 1) * S, (x - run) * S, S);
      if (off & 2) tileRects.push(1, brun * S, -(y + 1.5) * S, (x - brun) * S, S);
      if (off & 4) topRects.push(trun * S, -(y + 1) * S, (x - trun) * S, S * 0.4);
      prev = c;
    }
  }
  tileRow[worldH] = tileRects.length; topRow[worldH] = topRects.length;
  cloudArgs = [];
  for (const c of clouds) {
    cloudArgs.push(c[0] * S, -c[1] * S, c[2] * S, c[2] * S * 0.5,
      (c[0] + c[2] * 0.35) * S, -(c[1] + 0.2) * S, c[2] * S * 0.6, c[2] * S * 0.45);
  }
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  t = 0;
  pcol = PLAYERS[randn(PLAYERS.length)];
  theme = THEMES[randn(THEMES.length)];
  sky = SKIES[randn(SKIES.length)];
  generate();
  clouds = [];
  for (let i = 0; i < Math.floor(worldH / 6); i++) clouds.push([1 + rng() * (WW - 2), rng() * worldH, 1.5 + rng() * 2]);
  buildRects();
  ax = 1 + RX; ay = 1 + RY;
  avx = 0; avy = 0;
  jumpQueued = false;
  hasSupport = false; facing = 1;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) jumpQueued = true;
}

// does a box overlap a wall tile? (getT and isWall inlined: outside the world is WALL_MID)
function boxHits(x, y, rx, ry) {
  const e = 1e-6;
  const x0 = Math.floor(x - rx + e), x1 = Math.floor(x + rx - e);
  const y0 = Math.floor(y - ry + e), y1 = Math.floor(y + ry - e);
  const h = worldH, tl = tiles;
  for (let i = x0; i <= x1; i++) {
    for (let j = y0; j <= y1; j++) {
      if (i < 0 || j < 0 || i >= WW || j >= h) return true;
      const v = tl[j * WW + i];
      if (v === WALL_MID || v === WALL_TOP) return true;
    }
  }
  return false;
}

function moveAgent() {
  const n = Math.ceil(Math.max(Math.abs(avx), Math.abs(avy)) / 0.4) || 1;
  const sx = avx / n, sy = avy / n;
  for (let k = 0; k < n; k++) {
    if (avx !== 0) {
      ax += sx;
      if (boxHits(ax, ay, RX, RY)) { ax = sx > 0 ? Math.floor(ax + RX) - RX : Math.floor(ax - RX) + 1 + RX; avx = 0; }
    }
    if (avy !== 0) {
      ay += sy;
      if (boxHits(ax, ay, RX, RY)) { ay = sy > 0 ? Math.floor(ay + RY) - RY : Math.floor(ay - RY) + 1 + RY; avy = 0; }
    }
  }
}

function update() {
  if (gameState !== 'playing') { jumpQueued = false; return; }
  t += 1;
  let mx = 0;
  if (keyIsDown(LEFT_ARROW)) mx -= 1;
  if (keyIsDown(RIGHT_ARROW)) mx += 1;
  const wantJump = keyIsDown(UP_ARROW) || jumpQueued;
  jumpQueued = false;
  if (mx > 0) facing = 1;
  if (mx < 0) facing = -1;
  const b1 = getT(Math.floor(ax - (RX - 0.01)), Math.floor(ay - (RY + 0.01)));
  const b2 = getT(Math.floor(ax + (RX - 0.01)), Math.floor(ay - (RY + 0.01)));
  hasSupport = isWall(b1) || isWall(b2);
  const mix = hasSupport ? MIXRATE : MIXRATE * AIR_CONTROL;
  avx = (1 - mix) * avx + mix * MAXSPEED * mx;
  if (hasSupport && wantJump) avy = MAX_JUMP;
  if (!hasSupport && avy > -2) avy -= GRAVITY;
  moveAgent();
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    if (e.x > e.sx + PATROL) e.vx = -Math.abs(e.vx);
    else if (e.x < e.sx - PATROL) e.vx = Math.abs(e.vx);
    const nx = e.x + e.vx;
    if (boxHits(nx, e.y, 0.5, 0.4)) e.vx = -e.vx; else e.x = nx;
  }
  for (let i = 0; i < stars.length; i++) {
    const s = stars[i];
    if (s.alive && Math.abs(s.x - ax) < 0.3 + RX && Math.abs(s.y - ay) < 0.3 + RY) {
      s.alive = false; collected += 1; score += 1;
    }
  }
  if (collected === quota) { score += 10; gameState = 'won'; return; }
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    if (Math.abs(e.x - ax) < 0.4 + RX * 0.8 && Math.abs(e.y - ay) < 0.4 + RY * 0.8) { gameState = 'gameover'; return; }
  }
  if (t >= OPT.timeLimit) gameState = 'gameover';
}

function draw() {
  update();
  background(sky[0], sky[1], sky[2]);
  noStroke();
  const viewH = H / S;
  const camY = constrain(ay + WW / 2 - 5 * RY, viewH / 2, Math.max(viewH / 2, worldH - viewH / 2));
  push();
  translate(0, H / 2 + camY * S);
  fill(Math.min(255, sky[0] + 30), Math.min(255, sky[1] + 25), Math.min(255, sky[2] + 15));
  for (let k = 0; k < cloudArgs.length; k += 8) {
    const c = cloudArgs;
    ellipse(c[k], c[k + 1], c[k + 2], c[k + 3]);
    ellipse(c[k + 4], c[k + 5], c[k + 6], c[k + 7]);
  }
  const y0 = Math.max(0, Math.floor(camY - viewH / 2) - 1), y1 = Math.min(worldH - 1, Math.ceil(camY + viewH / 2) + 1);
  // tiles (see buildRects), then the light top strips
  fill(theme[0][0], theme[0][1], theme[0][2]);
  const tr = tileRects;
  for (let k = tileRow[y0], end = tileRow[y1 + 1], last = tileRow[y1]; k < end; k += 5) {
    if (tr[k] === 1 && k >= last) continue;     // no seam rects in the top row
    rect(tr[k + 1], tr[k + 2], tr[k + 3], tr[k + 4]);
  }
  fill(theme[1][0], theme[1][1], theme[1][2]);
  for (let k = topRow[y0], end = topRow[y1 + 1]; k < end; k += 4) {
    rect(topRects[k], topRects[k + 1], topRects[k + 2], topRects[k + 3]);
  }
  for (let i = 0; i < stars.length; i++) {
    const s = stars[i];
    if (!s.alive) continue;
    const cx = s.x * S, cy = -s.y * S;
    fill(255, 210, 30);
    beginShape();
    for (let k = 0; k < 10; k++) vertex(cx + STAR_DX[k], cy + STAR_DY[k]);
    endShape(CLOSE);
  }
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    const cx = e.x * S, cy = -e.y * S, d = e.vx > 0 ? 1 : -1, r = S * 0.5;
    const flap = t % 10 < 5 ? 0.5 : 0.1;
    fill(150, 60, 170);
    triangle(cx - r * 0.2, cy, cx + r * 0.4, cy, cx + r * 0.1 * d, cy - r * (0.6 + flap));
    fill(200, 60, 90);
    ellipse(cx, cy, r * 1.9, r * 1.3);
    triangle(cx - d * r * 0.8, cy, cx - d * r * 1.3, cy - r * 0.5, cx - d * r * 1.3, cy + r * 0.5);
    fill(255); ellipse(cx + d * r * 0.45, cy - r * 0.15, r * 0.5, r * 0.5);
    fill(0); ellipse(cx + d * r * 0.55, cy - r * 0.15, r * 0.22, r * 0.22);
  }
  if (gameState !== 'gameover' || t >= OPT.timeLimit) {
    const cx = ax * S, bot = -(ay - RY) * S, h = S * 1.15;
    fill(pcol[0], pcol[1], pcol[2]);
    rect(cx - S * 0.3, bot - h * 0.25, S * 0.2, h * 0.25);
    rect(cx + S * 0.1, bot - h * 0.25, S * 0.2, h * 0.25);
    rect(cx - S * 0.4, bot - h * 0.75, S * 0.8, h * 0.55, S * 0.12);
    ellipse(cx, bot - h * 0.8, S * 0.7, S * 0.6);
    fill(255); ellipse(cx + facing * S * 0.14, bot - h * 0.82, S * 0.28, S * 0.28);
    fill(20); ellipse(cx + facing * S * 0.2, bot - h * 0.82, S * 0.12, S * 0.12);
  }
  pop();
}
