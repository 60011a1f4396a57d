// Downwell: an original falling shooter after Moppin's Downwell.
//
// A white figure with red gunboots falls down a deep well. Brown blocks jut out
// from the walls and float in the shaft; the gunboots shoot straight down while
// airborne, breaking blocks and killing enemies, and each shot slows the fall a
// little. Ammo is limited and refills on landing (on a block or on an enemy's
// head). Purple bats patrol the open shaft (turning towards the player when
// he is near) and can be stomped or shot; red spiky walkers patrol the blocks
// and can only be shot. Touching an enemy any other way costs a hit point.
// Green gems float in the shaft. The well has a grey stone floor: landing on
// it completes the level, and the next well holds more enemies.
//
// Canvas: 400x400 (the camera follows the player down the well).
// Actions (default table):
//   1 LEFT held / 2 RIGHT held: move; 5 SPACE tapped: jump when standing,
//   shoot downwards when airborne (uses one of `ammo` shots);
//   6 LEFT + SPACE, 7 RIGHT + SPACE: move and jump/shoot;
//   0 NOOP, 3 UP, 4 DOWN: nothing (fall).
// Scoring: +1 per gem; +1 per 5 rows (160 px) of new depth; +2 per enemy shot,
//   +3 per enemy stomped; +10 per level completed. No negative rewards.
// Termination: 'gameover' when hit points run out or after `timeLimit`
//   frames; 'won' after `levels` wells. lives = hit points left.
// GAME_OPTIONS keys (defaults):
//   lives: 4            hit points
//   ammo: 8             shots per landing
//   depth: 90           rows (32 px each) per well
//   levels: 5           wells to finish to win
//   gravity: 0.45       px/frame^2
//   maxFall: 7          px/frame
//   jump: 8             jump speed (px/frame)
//   moveSpeed: 3.5      px/frame
//   enemies: 1          enemy density multiplier
//   timeLimit: 4800     frames before the game ends (0 = no limit)
// Simplifications: no shops, upgrades, combos, time-void rooms, or health
//   from gems; one gun; bats only steer sideways towards the player.

const W = 400;
const H = 400;
const OPT = Object.assign({
  lives: 4,
  ammo: 8,
  depth: 90,
  levels: 5,
  gravity: 0.45,
  maxFall: 7,
  jump: 8,
  moveSpeed: 3.5,
  enemies: 1,
  timeLimit: 4800,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const T = 32;                    // tile size
const COLS = 10;                 // shaft width in tiles
const WELL_X = 40;               // shaft's left edge (walls either side)
const PW = 20, PH = 26;          // player size
const SCREEN_Y = 130;            // player's height on the screen
const EW = 26, EH = 22;          // enemy size
const GEM = 20;

let rng;
let score, lives, gameState, frames;
let level, rows, tiles;          // tiles[r * COLS + c]: 0 empty, 1 block, 2 stone floor
let px, py, vx, vy, grounded, ammo, invuln, spaceReq;
let bullets, enemies, gems, depthScored, camY, flash;
let rowFirst, rowLast;           // columns rowFirst[r]..rowLast[r] hold every solid tile
                                 // of row r (first > last: none); drawing visits only those

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
  frames = 0;
  level = 0;
  spaceReq = false;
  newWell();
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) spaceReq = true;
}

function newWell() {
  rows = OPT.depth;
  tiles = new Uint8Array(rows * COLS);
  rowFirst = new Int8Array(rows).fill(COLS);
  rowLast = new Int8Array(rows).fill(-1);
  enemies = [];
  gems = [];
  bullets = [];
  const dens = OPT.enemies * (1 + 0.5 * level);
  let prevLedge = false;
  for (let r = 4; r < rows - 1; r++) {
    if (!prevLedge && rng() < 0.4) {
      // a ledge: attached to a wall or floating, 2-5 blocks, never the full width
      const len = 2 + Math.floor(rng() * 4);
      const k = rng();
      const c0 = k < 0.35 ? 0 : k < 0.7 ? COLS - len : 1 + Math.floor(rng() * (COLS - len - 1));
      for (let c = c0; c < c0 + len; c++) tiles[r * COLS + c] = 1;
      rowFirst[r] = c0;
      rowLast[r] = c0 + len - 1;
      if (rng() < 0.3 * dens) enemies.push({ kind: 'spiky', x: WELL_X + (c0 + len / 2) * T - EW / 2, y: r * T - EH, vx: rng() < 0.5 ? -0.8 : 0.8, vy: 0, phase: 0 });
      prevLedge = true;
    } else {
      prevLedge = false;
      if (rng() < 0.12 * dens) {
        enemies.push({ kind: 'bat', x: WELL_X + Math.floor(rng() * (COLS * T - EW)), y: r * T + 4, vx: (rng() < 0.5 ? -1 : 1) * (0.8 + rng() * 0.6), vy: 0, phase: Math.floor(rng() * 60) });
      } else if (rng() < 0.35) {
        const n = 1 + Math.floor(rng() * 3);
        const c = Math.floor(rng() * (COLS - n + 1));
        for (let i = 0; i < n; i++) gems.push({ x: WELL_X + (c + i) * T + (T - GEM) / 2, y: r * T + 8 });
      }
    }
  }
  for (let c = 0; c < COLS; c++) tiles[(rows - 1) * COLS + c] = 2;
  rowFirst[rows - 1] = 0;
  rowLast[rows - 1] = COLS - 1;
  px = WELL_X + COLS * T / 2 - PW / 2;
  py = T;
  vx = 0; vy = 0;
  grounded = false;
  ammo = OPT.ammo;
  invuln = 0;
  flash = 0;
  depthScored = 0;
  camY = py - SCREEN_Y;
}

function tileAt(c, r) {
  if (c < 0 || c >= COLS) return 2;             // the well's walls
  if (r < 0) return 0;
  if (r >= rows) return 2;
  return tiles[r * COLS + c];
}

// solid tile overlapping the box? true if so, with the first one's column and row
// left in hitC, hitR (no array allocated per query: walkers ask every frame).
// tileAt inlined: walls and below the well are solid, above it is open.
let hitC = 0, hitR = 0;
function hitTile(x, y, w, h) {
  const c0 = Math.floor((x - WELL_X) / T), c1 = Math.floor((x + w - 0.01 - WELL_X) / T);
  const r0 = Math.floor(y / T), r1 = Math.floor((y + h - 0.01) / T);
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      if (c < 0 || c >= COLS || r >= rows || (r >= 0 && tiles[r * COLS + c] !== 0)) { hitC = c; hitR = r; return true; }
    }
  }
  return false;
}

// index of the first gem with y >= gy (gems.length if none). Gems are made row by
// row and only ever removed, so they stay sorted by y: the ones near a height are
// found by binary search instead of scanning them all.
function firstGemFrom(gy) {
  let lo = 0, hi = gems.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (gems[mid].y < gy) lo = mid + 1; else hi = mid;
  }
  return lo;
}

function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
  return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
}

function hurt() {
  if (invuln > 0) return;
  lives -= 1;
  invuln = 60;
  vy = -5;
  if (lives <= 0) { lives = 0; gameState = 'gameover'; }
}

function movePlayer() {
  let dir = 0;
  if (keyIsDown(LEFT_ARROW)) dir -= 1;
  if (keyIsDown(RIGHT_ARROW)) dir += 1;
  vx = dir * OPT.moveSpeed;
  if (spaceReq) {
    if (grounded) { vy = -OPT.jump; grounded = false; }
    else if (ammo > 0) {
      ammo -= 1;
      bullets.push({ x: px + PW / 2 - 4, y: py + PH, t: 0 });
      vy = Math.max(Math.min(vy, 0) - 1.5, -4);    // recoil slows the fall
      flash = 3;
    }
  }
  spaceReq = false;
  vy = Math.min(vy + OPT.gravity, OPT.maxFall);
  // x
  px += vx;
  if (hitTile(px, py, PW, PH)) px = vx > 0 ? WELL_X + hitC * T - PW : WELL_X + (hitC + 1) * T;
  // y
  py += vy;
  grounded = false;
  if (hitTile(px, py, PW, PH)) {
    if (vy > 0) {
      py = hitR * T - PH;
      grounded = true;
      ammo = OPT.ammo;
      if (hitR === rows - 1) { levelDone(); return; }
    } else py = (hitR + 1) * T;
    vy = 0;
  }
  // depth progress
  const d = Math.floor(Math.floor((py + PH) / T) / 5);
  if (d > depthScored) { score += d - depthScored; depthScored = d; }
}

function levelDone() {
  score += 10;
  level += 1;
  if (level >= OPT.levels) { gameState = 'won'; return; }
  newWell();
}

function updateBullets() {
  for (let i = bullets.length - 1; i >= 0; i--) {
    const b = bullets[i];
    b.y += 11;
    b.t += 1;
    let gone = b.t > 30;
    if (hitTile(b.x, b.y, 8, 14)) {
      if (tileAt(hitC, hitR) === 1) tiles[hitR * COLS + hitC] = 0;   // blocks break
      gone = true;
    }
    // overlap(b.x, b.y, 8, 14, e.x, e.y, EW, EH) inlined, y first (most enemies are
    // far above or below): this runs for every bullet and enemy each frame
    const bx = b.x, by = b.y;
    for (let j = enemies.length - 1; j >= 0 && !gone; j--) {
      const e = enemies[j], ey = e.y;
      if (by < ey + EH && by + 14 > ey && bx < e.x + EW && bx + 8 > e.x) { enemies.splice(j, 1); score += 2; gone = true; }
    }
    if (gone) bullets.splice(i, 1);
  }
}

// (Math.abs/min/sin rather than p5's abs/min/sin: those are JS wrappers around
// the same Math functions, and cost a call more; the game stays in RADIANS)
function updateEnemies() {
  for (let j = enemies.length - 1; j >= 0; j--) {
    const e = enemies[j];
    if (Math.abs(e.y - py) > 500) continue;     // asleep off-screen
    if (e.kind === 'bat') {
      e.phase += 1;
      // patrols; turns towards the player when he is close above or below
      if (Math.abs(e.y - py) < 120 && (px - e.x) * e.vx < 0 && Math.abs(px - e.x) > 40) e.vx = -e.vx;
      e.x += e.vx;
      if (e.x < WELL_X) { e.x = WELL_X; e.vx = Math.abs(e.vx); }
      if (e.x + EW > WELL_X + COLS * T) { e.x = WELL_X + COLS * T - EW; e.vx = -Math.abs(e.vx); }
    } else {
      // walker: along the block tops, turning at edges; falls if its block is shot away
      const below = hitTile(e.x + 2, e.y + EH, EW - 4, 2);
      if (!below) {
        e.vy = Math.min(e.vy + 0.4, 6);
        e.y += e.vy;
        if (hitTile(e.x, e.y, EW, EH)) { e.y = hitR * T - EH; e.vy = 0; }
        if (e.y > rows * T) { enemies.splice(j, 1); continue; }
      } else {
        const nx = e.x + e.vx;
        const edge = e.vx > 0 ? nx + EW : nx;
        const c = Math.floor((edge - WELL_X) / T), r = Math.floor((e.y + EH + 2) / T);
        if (tileAt(c, r) === 0 || hitTile(nx, e.y, EW, EH)) e.vx = -e.vx;
        else e.x = nx;
      }
    }
    // contact with the player: a stomp on a bat, otherwise a hit
    const ey = e.kind === 'bat' ? e.y + 5 * Math.sin(e.phase * 0.1) : e.y;
    if (overlap(px, py, PW, PH, e.x, ey, EW, EH)) {
      if (e.kind === 'bat' && vy > 0 && py + PH - vy <= ey + 8) {
        enemies.splice(j, 1);
        score += 3;
        vy = -6;
        ammo = OPT.ammo;
      } else hurt();
    }
  }
}

function update() {
  if (gameState !== 'playing') { spaceReq = false; return; }
  frames += 1;
  if (OPT.timeLimit > 0 && frames >= OPT.timeLimit) { gameState = 'gameover'; return; }
  if (invuln > 0) invuln -= 1;
  if (flash > 0) flash -= 1;
  movePlayer();
  if (gameState !== 'playing') return;
  updateBullets();
  updateEnemies();
  // only gems within a gem's height of the player can touch him (the bounds have
  // a pixel to spare; overlap() decides)
  const g0 = firstGemFrom(py - GEM - 1);
  let g1 = g0;
  while (g1 < gems.length && gems[g1].y < py + PH + 1) g1++;
  for (let i = g1 - 1; i >= g0; i--) {
    if (overlap(px, py, PW, PH, gems[i].x, gems[i].y, GEM, GEM)) { gems.splice(i, 1); score += 1; }
  }
  camY = py - SCREEN_Y;
}

function draw() {
  update();
  background(8, 8, 14);
  noStroke();
  // well walls
  fill(52, 52, 74);
  rect(0, 0, WELL_X, H);
  rect(WELL_X + COLS * T, 0, W - WELL_X - COLS * T, H);
  push();
  translate(0, -camY);
  // tiles on screen
  const r0 = Math.max(0, Math.floor(camY / T)), r1 = Math.min(rows - 1, Math.floor((camY + H) / T));
  for (let r = r0; r <= r1; r++) {
    for (let c = rowFirst[r], cEnd = rowLast[r]; c <= cEnd; c++) {
      const k = tiles[r * COLS + c];
      if (k === 0) continue;
      if (k === 1) { fill(160, 96, 48); rect(WELL_X + c * T, r * T, T, T); fill(110, 62, 30); rect(WELL_X + c * T + 6, r * T + 6, T - 12, T - 12); }
      else { fill(130, 130, 140); rect(WELL_X + c * T, r * T, T, T); }
    }
  }
  // gems
  fill(60, 235, 150);
  for (let i = firstGemFrom(camY - 20); i < gems.length; i++) {
    const g = gems[i];
    if (g.y > camY + H) break;
    quad(g.x + GEM / 2, g.y, g.x + GEM, g.y + GEM / 2, g.x + GEM / 2, g.y + GEM, g.x, g.y + GEM / 2);
  }
  // enemies
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    if (e.y < camY - 40 || e.y > camY + H) continue;
    if (e.kind === 'bat') {
      const ey = e.y + 5 * Math.sin(e.phase * 0.1);
      fill(170, 80, 230);
      ellipse(e.x + EW / 2, ey + EH / 2, EW, EH);
      triangle(e.x - 6, ey + 4, e.x + 6, ey + 8, e.x + 4, ey + 16);
      triangle(e.x + EW + 6, ey + 4, e.x + EW - 6, ey + 8, e.x + EW - 4, ey + 16);
    } else {
      fill(235, 40, 40);
      rect(e.x, e.y + 6, EW, EH - 6);
      triangle(e.x, e.y + 6, e.x + 6, e.y - 4, e.x + 12, e.y + 6);
      triangle(e.x + 14, e.y + 6, e.x + 20, e.y - 4, e.x + 26, e.y + 6);
    }
  }
  // bullets
  fill(255, 240, 120);
  for (let i = 0; i < bullets.length; i++) rect(bullets[i].x, bullets[i].y, 8, 14);
  // player: white body, red gunboots (blinks while invulnerable)
  if (invuln === 0 || invuln % 8 < 5) {
    fill(245, 245, 245);
    rect(px, py, PW, PH - 8);
    fill(230, 40, 40);
    rect(px - 2, py + PH - 8, PW + 4, 8);
    if (flash > 0) { fill(255, 240, 120); rect(px + 4, py + PH, PW - 8, 8); }
  }
  pop();
  // HUD on the walls: hit points (left), ammo (right), score
  fill(230, 40, 40);
  for (let i = 0; i < lives; i++) rect(10, 40 + i * 22, 20, 16);
  fill(255, 240, 120);
  for (let i = 0; i < ammo; i++) rect(W - 30, 40 + i * 14, 20, 10);
  fill(250, 250, 250);
  textSize(18);
  textAlign(CENTER, TOP);
  text(score, W / 2, 6);
}
