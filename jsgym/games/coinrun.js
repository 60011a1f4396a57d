// CoinRun: a clone of OpenAI ProcGen's "coinrun".
//
// A side-scrolling platformer: the player starts at the far left of the
// level and must reach the gold coin at the far right. The level is a row of
// 1-5 sections (the count grows with a per-level difficulty of 1-3): each
// section steps the ground up or down, and may hold a pit filled with lava,
// saw blades or walking slimes (sometimes with a small platform over it),
// saw blades and crate piles (crates can be stood on from above); in 'hard'
// mode slimes also patrol the flat sections. Touching lava, a saw or a slime
// ends the episode. World units are tiles; the camera shows 13x13 tiles
// centred on the player.
//
// Canvas: 400x400 (about 31 px per tile), scrolling in both axes.
// Actions (default table):
//   0 NOOP; 1 LEFT, 2 RIGHT held: run (velocity eases toward the held
//   direction; slower control in the air); 3 UP held: jump when standing;
//   4 DOWN held: drop through crates; 5 SPACE tapped: jump;
//   6 LEFT + jump; 7 RIGHT + jump.
// Rewards (as ProcGen): +10 for reaching the coin; nothing else.
// Termination: 'won' on the coin; 'gameover' on death or after `timeLimit`
//   frames. lives = 1.
// Procedural generation from the seed: the whole level (difficulty, section
//   count, widths, heights, pits and their danger type, saws, slimes,
//   crates), the ground theme (6), sky colour, player colour (5) and slime
//   colours.
// distribution_mode: 'easy' has no slimes on flat sections (as ProcGen);
//   'hard' adds them. (In ProcGen's easy mode the visual theme is fixed; here
//   every level draws its own theme in both modes.)
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'   'easy' | 'hard'
//   timeLimit: 1000             frames before the episode ends as 'gameover'
// Simplifications: flat p5 shapes instead of Kenney sprites; tile collisions
//   use sub-stepped axis-separated boxes; saws and slimes kill on a box 80%
//   of their size; no background images; no diagonal actions.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  timeLimit: 1000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const HARD = OPT.distribution_mode === 'hard';
const VIS = 13;
const S = W / VIS;                 // px per tile
const GRAVITY = 0.2, MAX_JUMP = 1.5, AIR_CONTROL = 0.15, MAXSPEED = 0.5, MIXRATE = 0.2;
const RX = 0.5, RY = 0.5787;
// tile types
const EMPTY = 0, WALL_MID = 1, WALL_TOP = 2, LAVA_MID = 3, LAVA_TOP = 4, BARRIER = 5, GOAL = 6;
// what a tile type is for collisions, as bits (boxHits tests a mask of them)
const SOLID = 1, HOT = 2, BAR = 4, COIN = 8;
const TILE_BITS = Uint8Array.of(0, SOLID, SOLID, HOT, HOT, BAR, COIN);
// the kinds of tile runs drawTiles draws (see findRuns), as bits
const R_WALL = 1, R_WALL2 = 2, R_LAVA = 4, R_LAVA2 = 8, R_TOP = 16;
const RUN_BITS = Uint8Array.of(0, R_WALL, R_WALL | R_TOP, R_LAVA, R_LAVA, 0, 0);

const GROUNDS = [
  [[120, 84, 56], [150, 108, 72]],      // dirt
  [[120, 84, 56], [90, 180, 70]],       // grass
  [[110, 110, 130], [170, 120, 200]],   // planet
  [[210, 180, 120], [230, 205, 140]],   // sand
  [[170, 190, 210], [245, 250, 255]],   // snow
  [[120, 120, 120], [160, 160, 160]],   // stone
];
const SKIES = [[150, 200, 240], [190, 220, 250], [250, 210, 170], [200, 190, 240], [170, 230, 220], [120, 160, 210]];
const ALIENS = [[230, 200, 160], [90, 150, 240], [110, 200, 110], [240, 140, 190], [240, 220, 80]];
const SLIMES = [[90, 200, 90], [160, 90, 200], [80, 140, 230], [230, 90, 90]];

let rng, jumpQueued;
let score, lives, gameState, t;
let worldW, worldH, tiles;        // tiles: Uint8Array, tiles[y * worldW + x]
let runs, runFrom, runTo, rowDone, specials;   // per level, see startRuns and findRuns
// The rect() arguments each drawRuns call of drawTiles emitted (4 per rect; counts
// in drawnN) for the window of tiles in drawnWin: while the camera stays within the
// same tiles (most frames), drawTiles draws them again instead of clipping the runs.
const drawn = [[], [], []], drawnN = new Int32Array(3), drawnWin = Int32Array.of(-1, -1, -1, -1);
let ax, ay, avx, avy, hasSupport, onCrate, facing;
let saws, enemies, crates;
let ground, sky, alien, goalX, goalY;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function randn(n) { return Math.floor(rng() * n); }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function getT(x, y) {
  if (x < 0 || y < 0 || x >= worldW || y >= worldH) return WALL_MID;
  return tiles[y * worldW + x];
}
function setT(x, y, v) { if (x >= 0 && y >= 0 && x < worldW && y < worldH) tiles[y * worldW + x] = v; }
// the rectangle's tiles that lie inside the world, a row at a time
function fillT(x, y, dx, dy, v) {
  const xa = Math.max(x, 0), xb = Math.min(x + dx, worldW);
  const yb = Math.min(y + dy, worldH);
  if (xa < xb) for (let j = Math.max(y, 0); j < yb; j++) tiles.fill(v, j * worldW + xa, j * worldW + xb);
}
function fillTop(x, y, dx, dy, mid, top) { fillT(x, y, dx, dy - 1, mid); fillT(x, y + dy - 1, dx, 1, top); }
function isWall(v) { return v === WALL_MID || v === WALL_TOP; }

function generate() {
  worldW = 64; worldH = 40;
  tiles = new Uint8Array(worldW * worldH);   // all EMPTY
  fillT(0, 0, worldW, 1, WALL_TOP);
  fillT(0, 0, 1, worldH, WALL_MID);
  const dif = randn(3) + 1;
  const numSections = randn(dif) + dif;
  let cx = 5, cy = 1;
  const danger = randn(3);
  const maxDy = Math.floor(MAX_JUMP * MAX_JUMP / (2 * GRAVITY) - 0.5);
  const maxDx = Math.floor(MAXSPEED * 2 * MAX_JUMP / GRAVITY - 0.5);
  for (let s = 0; s < numSections; s++) {
    if (cx + 15 >= worldW) break;
    let dy = randn(4) + 1 + Math.floor(dif / 3);
    if (dy > maxDy) dy = maxDy;
    if (cy >= 20) dy = -dy;
    else if (cy >= 5 && randn(2) === 1) dy = -dy;
    const dx = randn(2 * dif) + 3 + Math.floor(dif / 3);
    cy += dy;
    if (cy < 1) cy = 1;
    const usePit = dx > 7 && cy > 3 && randn(20) >= dif;
    if (usePit) {
      const x1 = randn(3) + 1;
      let x2 = randn(3) + 1;
      let pw = dx - x1 - x2;
      if (pw > maxDx) { pw = maxDx; x2 = dx - x1 - pw; }
      fillTop(cx, 0, x1, cy, WALL_MID, WALL_TOP);
      fillTop(cx + dx - x2, 0, x2, cy, WALL_MID, WALL_TOP);
      const lavaH = randn(cy - 3) + 1;
      if (danger === 0) fillTop(cx + x1, 1, pw, lavaH, LAVA_MID, LAVA_TOP);
      else if (danger === 1) for (let e = 0; e < pw; e++) saws.push({ x: cx + x1 + e + 0.5, y: 1.5 });
      else for (let e = 0; e < pw; e++) addEnemy(cx + x1 + e, 1);
      if (pw > 4) {
        let x3, w1;
        if (pw === 5) { x3 = 1 + randn(2); w1 = 1 + randn(2); }
        else if (pw === 6) { x3 = 2 + randn(2); w1 = 1 + randn(2); }
        else { x3 = 2 + randn(2); const x4 = 2 + randn(2); w1 = pw - x3 - x4; }
        fillTop(cx + x1 + x3, cy - 1, w1, 1, WALL_MID, WALL_TOP);
      }
    } else {
      fillTop(cx, 0, dx, cy, WALL_MID, WALL_TOP);
      let ob1 = -1, ob2 = -1;
      if (randn(10) < 2 * dif && dx > 3) {
        ob1 = cx + randn(dx - 2) + 1;
        saws.push({ x: ob1 + 0.5, y: cy + 0.5 });
      }
      if (randn(10) < dif && dx > 3 && maxDx >= 4 && HARD) {
        ob2 = cx + randn(dx - 2) + 1;
        addEnemy(ob2, cy);
      }
      for (let i = 0; i < 2; i++) {
        const crx = cx + randn(dx - 2) + 1;
        if (randn(2) === 1 && ob1 !== crx && ob2 !== crx) {
          const ph = randn(3) + 1;
          for (let j = 0; j < ph; j++) crates.push({ x: crx + 0.5, y: cy + j + 0.5, k: randn(3) });
        }
      }
    }
    if (!isWall(getT(cx - 1, cy))) setT(cx - 1, cy, BARRIER);
    cx += dx;
    setT(cx, cy, BARRIER);
  }
  goalX = cx; goalY = cy;
  setT(cx, cy, GOAL);
  fillTop(cx, 0, 1, cy, WALL_MID, WALL_TOP);
  fillT(cx + 1, 0, worldW - cx - 1, worldH, WALL_MID);
  startRuns();
}

// The tiles never change during a level, so the rects drawTiles draws for them are
// found once per level, as runs [start, end) of columns per row, for five kinds
// (R_* bits): wall tiles, wall tiles under a wall tile, lava, lava under lava, and
// top tiles (grass strips); a row's runs are found when it first comes into view
// (findRuns). runs[k] holds the start and end of the runs of the kind with bit
// 1 << k; those of row y are runs[k][runFrom[k * worldH + y]] ..
// runs[k][runTo[k * worldH + y] - 1]. specials lists the lava tops and the coin as
// [x, y, type] triples in column order (the order drawTiles draws them in).
function startRuns() {
  const h = worldH;
  runs = [[], [], [], [], []];
  runFrom = new Int32Array(5 * h); runTo = new Int32Array(5 * h);
  rowDone = new Uint8Array(h);
  drawnWin[0] = -1;                 // a new level: nothing drawn yet
  const found = [];
  for (const v of [LAVA_TOP, GOAL]) {
    for (let i = tiles.indexOf(v); i >= 0; i = tiles.indexOf(v, i + 1)) {
      found.push((i % worldW) * h + Math.floor(i / worldW));   // x * h + y
    }
  }
  found.sort((a, b) => a - b);
  specials = [];
  for (const key of found) {
    const x = Math.floor(key / h), y = key - x * h;
    specials.push(x, y, tiles[y * worldW + x]);
  }
}

// finds the runs of row y (see startRuns)
function findRuns(y) {
  const w = worldW, h = worldH, tl = tiles, bits = RUN_BITS;
  const row = y * w, above = y + 1 < h ? row + w : -1;
  const start = [0, 0, 0, 0, 0];
  for (let k = 0; k < 5; k++) runFrom[k * h + y] = runs[k].length;
  let prev = 0;
  for (let x = 0; x <= w; x++) {
    let c = 0;
    if (x < w) {
      const v = tl[row + x];
      // a wall (lava) tile under a wall (lava) tile also has the R_WALL2 (R_LAVA2) bit
      if (v !== EMPTY) c = bits[v] | (above >= 0 ? (bits[v] & bits[tl[above + x]] & (R_WALL | R_LAVA)) << 1 : 0);
    }
    if (c === prev) continue;
    for (let k = 0; k < 5; k++) {
      const bit = 1 << k;
      if (!((c ^ prev) & bit)) continue;
      if (c & bit) start[k] = x;
      else runs[k].push(start[k], x);
    }
    prev = c;
  }
  for (let k = 0; k < 5; k++) runTo[k * h + y] = runs[k].length;
  rowDone[y] = 1;
}

function addEnemy(x, y) {
  enemies.push({ x: x + 0.5, y: y + 0.5, vx: 0.15 * (randn(2) * 2 - 1), c: SLIMES[randn(SLIMES.length)] });
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  t = 0;
  ground = GROUNDS[randn(GROUNDS.length)];
  sky = SKIES[randn(SKIES.length)];
  alien = ALIENS[randn(ALIENS.length)];
  saws = []; enemies = []; crates = [];
  generate();
  ax = 1 + RX; ay = 1 + RY;
  avx = 0; avy = 0;
  jumpQueued = false;
  hasSupport = false; onCrate = false; facing = 1;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) jumpQueued = true;
}

// does a box overlap a tile with one of the TILE_BITS in mask? (outside the world
// is WALL_MID, as getT; inlined here, the hottest loop of the game)
function boxHits(x, y, rx, ry, mask) {
  const e = 1e-6;
  const x0 = Math.floor(x - rx + e), x1 = Math.floor(x + rx - e);
  const y0 = Math.floor(y - ry + e), y1 = Math.floor(y + ry - e);
  const w = worldW, h = worldH, tl = tiles, bits = TILE_BITS;
  for (let i = x0; i <= x1; i++) {
    for (let j = y0; j <= y1; j++) {
      const v = i < 0 || j < 0 || i >= w || j >= h ? WALL_MID : tl[j * w + i];
      if (bits[v] & mask) return true;
    }
  }
  return false;
}

function moveAgent(down) {
  const n = Math.ceil(Math.max(Math.abs(avx), Math.abs(avy)) / 0.4) || 1;
  const sx = avx / n, sy = avy / n;
  for (let k = 0; k < n; k++) {
    if (sx !== 0 && avx !== 0) {
      ax += sx;
      if (boxHits(ax, ay, RX, RY, SOLID)) {
        ax = sx > 0 ? Math.floor(ax + RX) - RX : Math.floor(ax - RX) + 1 + RX;
        avx = 0;
      }
    }
    if (sy !== 0 && avy !== 0) {
      const prevBottom = ay - RY;
      ay += sy;
      if (boxHits(ax, ay, RX, RY, SOLID)) {
        ay = sy > 0 ? Math.floor(ay + RY) - RY : Math.floor(ay - RY) + 1 + RY;
        avy = 0;
      } else if (sy < 0 && !down) {
        for (let i = 0; i < crates.length; i++) {
          const c = crates[i], top = c.y + 0.5;
          if (Math.abs(c.x - ax) < 0.5 + RX - 1e-6 && prevBottom >= top - 1e-6 && ay - RY < top) {
            ay = top + RY; avy = 0; onCrate = true; break;
          }
        }
      }
    }
  }
}

function update() {
  if (gameState !== 'playing') { jumpQueued = false; return; }
  t += 1;
  let mx = 0;
  if (keyIsDown(LEFT_ARROW)) mx -= 1;
  if (keyIsDown(RIGHT_ARROW)) mx += 1;
  const down = keyIsDown(DOWN_ARROW);
  const wantJump = keyIsDown(UP_ARROW) || jumpQueued;
  jumpQueued = false;
  if (mx > 0) facing = 1;
  if (mx < 0) facing = -1;
  const b1 = getT(Math.floor(ax - (RX - 0.01)), Math.floor(ay - (RY + 0.01)));
  const b2 = getT(Math.floor(ax + (RX - 0.01)), Math.floor(ay - (RY + 0.01)));
  hasSupport = (onCrate || isWall(b1) || isWall(b2)) && avy === 0;
  onCrate = false;
  const jump = wantJump && hasSupport;
  const mix = hasSupport ? MIXRATE : MIXRATE * AIR_CONTROL;
  avx = (1 - mix) * avx + mix * MAXSPEED * mx;
  if (Math.abs(avx) < mix * MAXSPEED) avx = 0;
  if (jump) avy = MAX_JUMP;
  else if (hasSupport && down) avy -= 0.2;
  if (!jump) {
    avy -= GRAVITY;
    avy = constrain(avy, -MAX_JUMP, MAX_JUMP);
  }
  moveAgent(down);
  // enemies patrol between walls and barriers
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i], nx = e.x + e.vx;
    if (boxHits(nx, e.y, 0.5, 0.45, SOLID | BAR)) e.vx = -e.vx;
    else e.x = nx;
  }
  // dangers and the coin
  if (boxHits(ax, ay, RX, RY, COIN)) { score += 10; gameState = 'won'; return; }
  if (boxHits(ax, ay - 0.1, RX * 0.9, RY * 0.9, HOT)) { gameState = 'gameover'; return; }
  for (let i = 0; i < saws.length; i++) {
    const s = saws[i];
    if (Math.abs(s.x - ax) < 0.4 + RX * 0.8 && Math.abs(s.y - ay) < 0.4 + RY * 0.8) { gameState = 'gameover'; return; }
  }
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    if (Math.abs(e.x - ax) < 0.4 + RX * 0.8 && Math.abs(e.y - ay) < 0.35 + RY * 0.8) { gameState = 'gameover'; return; }
  }
  if (t >= OPT.timeLimit) gameState = 'gameover';
}

// draws the runs of kind a of rows y0..y1 (rects of height ha) and, but for row y1,
// the runs of kind b (a tile high, half a tile up: they cover the seam between
// vertically adjacent tiles, so that none shows anti-aliased at low resolution),
// clipped to columns x0..x1. The order is that of a scan of each row from x0: by
// clipped end column, an a-run before a b-run that ends at the same column.
// The rects' arguments are kept in drawn[d] (see drawnWin).
function drawRuns(d, a, b, ha, x0, x1, y0, y1) {
  const ra = runs[a], rb = b < 0 ? null : runs[b], h = worldH;
  const xe = x1 + 1, s = S, out = drawn[d];
  let n = 0;
  for (let y = y0; y <= y1; y++) {
    if (!rowDone[y]) findRuns(y);
    let i = runFrom[a * h + y];
    const iEnd = runTo[a * h + y];
    while (i < iEnd && ra[i + 1] <= x0) i += 2;     // runs left of the window
    if (i === iEnd || ra[i] > x1) continue;         // none in view (so no b-run either: those lie inside a-runs)
    let j = 0, jEnd = 0;
    if (rb && y < y1) {
      j = runFrom[b * h + y]; jEnd = runTo[b * h + y];
      while (j < jEnd && rb[j + 1] <= x0) j += 2;
    }
    for (;;) {
      // clipped ends of the next runs, -1 for none
      let ea = -1, eb = -1;
      if (i < iEnd && ra[i] <= x1) { ea = ra[i + 1]; if (ea > xe) ea = xe; }
      if (j < jEnd && rb[j] <= x1) { eb = rb[j + 1]; if (eb > xe) eb = xe; }
      if (ea >= 0 && (eb < 0 || ea <= eb)) {
        const run = ra[i] > x0 ? ra[i] : x0;
        out[n] = run * s; out[n + 1] = -(y + 1) * s; out[n + 2] = (ea - run) * s; out[n + 3] = ha;
        i += 2;
      } else if (eb >= 0) {
        const brun = rb[j] > x0 ? rb[j] : x0;
        out[n] = brun * s; out[n + 1] = -(y + 1.5) * s; out[n + 2] = (eb - brun) * s; out[n + 3] = s;
        j += 2;
      } else break;
      rect(out[n], out[n + 1], out[n + 2], out[n + 3]);
      n += 4;
    }
  }
  drawnN[d] = n;
}

// draws the rects drawRuns(d, ...) drew last
function drawAgain(d) {
  const out = drawn[d];
  for (let k = 0, n = drawnN[d]; k < n; k += 4) rect(out[k], out[k + 1], out[k + 2], out[k + 3]);
}

function drawTiles(x0, x1, y0, y1) {
  const again = x0 === drawnWin[0] && x1 === drawnWin[1] && y0 === drawnWin[2] && y1 === drawnWin[3];
  drawnWin[0] = x0; drawnWin[1] = x1; drawnWin[2] = y0; drawnWin[3] = y1;
  fill(ground[0][0], ground[0][1], ground[0][2]);
  if (again) drawAgain(0); else drawRuns(0, 0, 1, S, x0, x1, y0, y1);            // runs of R_WALL, R_WALL2
  fill(230, 90, 20);
  if (again) drawAgain(1); else drawRuns(1, 2, 3, S, x0, x1, y0, y1);            // runs of R_LAVA, R_LAVA2
  // grass/snow strips on top tiles
  fill(ground[1][0], ground[1][1], ground[1][2]);
  if (again) drawAgain(2); else drawRuns(2, 4, -1, S * 0.35, x0, x1, y0, y1);   // runs of R_TOP
  for (let k = 0; k < specials.length; k += 3) {
    const x = specials[k], y = specials[k + 1], v = specials[k + 2];
    if (x < x0 || x > x1 || y < y0 || y > y1) continue;
    const px = x * S, py = -(y + 1) * S;
    if (v === LAVA_TOP) {
      fill(sky[0], sky[1], sky[2]);
      rect(px, py, S, S * 0.3);
      fill(255, 180, 40);
      triangle(px, py + S * 0.3, px + S * 0.5, py + S * 0.1, px + S, py + S * 0.3);
    } else {
      const cx = px + S / 2, cy = py + S / 2;
      fill(200, 150, 20); ellipse(cx, cy, S * 0.9, S * 0.9);
      fill(255, 215, 40); ellipse(cx, cy, S * 0.7, S * 0.7);
      fill(200, 150, 20); rect(cx - S * 0.06, cy - S * 0.22, S * 0.12, S * 0.44);
    }
  }
}

function draw() {
  update();
  background(sky[0], sky[1], sky[2]);
  noStroke();
  const camX = constrain(ax, VIS / 2, worldW - VIS / 2);
  const camY = constrain(ay, VIS / 2, worldH - VIS / 2);
  push();
  translate(W / 2 - camX * S, H / 2 + camY * S);
  const x0 = Math.floor(camX - VIS / 2) - 1, x1 = Math.ceil(camX + VIS / 2) + 1;
  const y0 = Math.floor(camY - VIS / 2) - 1, y1 = Math.ceil(camY + VIS / 2) + 1;
  drawTiles(Math.max(x0, 0), Math.min(x1, worldW - 1), Math.max(y0, 0), Math.min(y1, worldH - 1));
  for (let i = 0; i < crates.length; i++) {
    const c = crates[i];
    if (Math.abs(c.x - camX) > VIS) continue;
    const px = (c.x - 0.5) * S, py = -(c.y + 0.5) * S;
    fill(170, 110, 50); rect(px, py, S, S);
    fill(120, 75, 30);
    rect(px, py, S, S * 0.12); rect(px, py + S * 0.88, S, S * 0.12);
    rect(px, py, S * 0.12, S); rect(px + S * 0.88, py, S * 0.12, S);
    quad(px + S * 0.12, py + S * 0.2, px + S * 0.2, py + S * 0.12, px + S * 0.88, py + S * 0.8, px + S * 0.8, py + S * 0.88);
  }
  for (let i = 0; i < saws.length; i++) {
    const s = saws[i];
    if (Math.abs(s.x - camX) > VIS) continue;
    const cx = s.x * S, cy = -(s.y - 0.5) * S, r = S * 0.5;
    push();
    translate(cx, cy);
    rotate(t * 0.3);
    fill(150, 150, 160);
    for (let k = 0; k < 4; k++) { rotate(PI / 4); quad(-r, -r * 0.2, -r, r * 0.2, r, r * 0.2, r, -r * 0.2); }
    fill(200, 200, 210);
    ellipse(0, 0, r * 1.6, r * 1.6);
    fill(90, 90, 100);
    ellipse(0, 0, r * 0.4, r * 0.4);
    pop();
  }
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    if (Math.abs(e.x - camX) > VIS) continue;
    const cx = e.x * S, cy = -e.y * S, d = e.vx > 0 ? 1 : -1;
    const sq = t % 10 < 5 ? 0.05 : 0;
    fill(e.c[0], e.c[1], e.c[2]);
    ellipse(cx, cy + S * 0.1, S * (0.95 + sq), S * (0.7 - sq));
    rect(cx - S * 0.475, cy + S * 0.1, S * 0.95, S * 0.35);
    fill(255); ellipse(cx + d * S * 0.2, cy, S * 0.25, S * 0.3);
    fill(0); ellipse(cx + d * S * 0.25, cy, S * 0.12, S * 0.16);
  }
  // player (an alien)
  if (gameState !== 'gameover' || t >= OPT.timeLimit) {
    const cx = ax * S, bot = -(ay - RY) * S;
    const ph = S * 1.5;
    fill(alien[0], alien[1], alien[2]);
    const step = hasSupport && avx !== 0 && t % 10 < 5 ? S * 0.08 : 0;
    rect(cx - S * 0.28, bot - S * 0.3, S * 0.18, S * 0.3 - step);
    rect(cx + S * 0.1, bot - S * 0.3, S * 0.18, S * 0.3 - (S * 0.08 - step));
    rect(cx - S * 0.35, bot - ph * 0.62, S * 0.7, ph * 0.45, S * 0.15);
    ellipse(cx, bot - ph * 0.75, S * 0.85, S * 0.75);
    fill(255); ellipse(cx + facing * S * 0.15, bot - ph * 0.77, S * 0.32, S * 0.32);
    fill(30); ellipse(cx + facing * S * 0.2, bot - ph * 0.77, S * 0.14, S * 0.14);
  }
  pop();
}
