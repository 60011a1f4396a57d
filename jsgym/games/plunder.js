// Plunder: a clone of OpenAI ProcGen "Plunder".
//
// The player's ship sails along the bottom of the screen and fires cannonballs
// upwards at ships crossing in five lanes. Only ships of the target colour
// (shown in the target in the bottom-left corner) are enemies; the others are
// friendly. A green timer bar (top) drains every frame and by every shot; it
// refills a little for each enemy sunk and loses a chunk for each friendly one.
// A pink bar shows progress towards the quota of 20 enemies. Every level seed
// gives a different water colour, enemy/friendly/player ship colours, lane
// directions and speeds, and (hard mode) wooden panels that block shots.
//
// Canvas: 400x400 (a 20x20-unit world, 20 px per unit, as in ProcGen).
// Actions (default table):
//   1 LEFT, 2 RIGHT held: sail left / right;
//   5 SPACE tapped: fire a cannonball (at most one every 3 frames);
//   6 LEFT+SPACE, 7 RIGHT+SPACE: sail and fire; 0 NOOP, 3 UP, 4 DOWN: nothing.
// Scoring: +1 per enemy ship sunk; +10 on reaching the quota of 20 (ProcGen's
//   rewards). Sinking a friendly ship costs timer, not score.
// Termination: 'won' at 20 enemies sunk; 'gameover' when the timer runs out
//   (or after `maxSteps` frames). lives is always 1.
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'  'easy': big ships, no panels; 'hard': smaller
//                              ships, 0-3 panels in front of the lanes
//   maxSteps: 4000             frame limit (ProcGen's timeout)
// Simplifications: ships drawn as flat hull + sail shapes whose sail colour is
//   the ship type; no explosion animation; ProcGen's random background images
//   are replaced by a seeded water colour.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  maxSteps: 4000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});
const HARD = OPT.distribution_mode === 'hard';
const U = 20;                    // pixels per world unit
const WU = 20;                   // world width and height in units
const SHIP_COLORS = [[230, 50, 50], [250, 210, 40], [60, 200, 80], [160, 70, 220], [250, 250, 250], [40, 40, 40]];
const LEGEND_R = 2;

let rng;
let score, lives, gameState, frames;
let rScale, laneDir, laneVel, targetType, friendType, playerType;
let ships, balls, panels;
let ax, avx, lastFire, juice, hits, firePending;
let waterC, waveC;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function randInt(n) { return Math.floor(rng() * n); }

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  frames = 0;
  juice = 1;
  hits = 0;
  lastFire = -10;
  firePending = false;
  rScale = HARD ? 1 : 1.5;
  const perm = [0, 1, 2, 3, 4, 5];
  for (let i = 5; i > 0; i--) { const k = randInt(i + 1); const t = perm[i]; perm[i] = perm[k]; perm[k] = t; }
  targetType = perm[0];
  friendType = perm[1];
  playerType = perm[2];
  laneDir = []; laneVel = [];
  for (let i = 0; i < 5; i++) { laneDir.push(rng() < 0.5 ? 1 : -1); laneVel.push(0.15 + 0.1 * rng()); }
  const b = 20 + randInt(40);
  waterC = [b, 90 + randInt(70), 150 + randInt(80)];
  waveC = [waterC[0] + 40, waterC[1] + 40, waterC[2] + 30];
  panels = [];
  const np = HARD ? randInt(4) : 0;
  for (let i = 0; i < np; i++) panels.push({ x: 1.2 + rng() * (WU - 2.4), y: WU * 0.25 + rng() * WU * 0.25 });
  ships = []; balls = [];
  ax = 2 * LEGEND_R + rScale + rng() * (WU - 2 * LEGEND_R - 2 * rScale);
  avx = 0;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) firePending = true;
}

// world y (up) to screen y
function sY(y) { return H - y * U; }

function shipHit(s, bx, by) {
  return abs(bx - s.x) < s.rx + 0.25 && abs(by - s.y) < s.ry + 0.25;
}

function update() {
  frames += 1;
  let act = 0;
  if (keyIsDown(LEFT_ARROW)) act -= 1;
  if (keyIsDown(RIGHT_ARROW)) act += 1;
  avx = 0.5 * avx + 0.5 * 0.85 * act;
  ax = constrain(ax + avx, 2 * LEGEND_R + rScale, WU - rScale);
  // spawn
  if (rng() < 0.06) {
    const lane = randInt(5);
    const y = (lane * 0.11 + 0.4) * (WU / 2 - rScale) + WU / 2;
    const dir = laneDir[lane];
    const s = { x: dir > 0 ? -rScale : WU + rScale, y: y, vx: laneVel[lane] * dir, rx: rScale, ry: rScale * 0.6, type: rng() < 0.5 ? targetType : friendType };
    let free = true;
    for (const o of ships) if (abs(o.x - s.x) < o.rx + s.rx && abs(o.y - s.y) < o.ry + s.ry) free = false;
    if (free) ships.push(s);
  }
  juice -= 0.0015;
  if (firePending && frames - lastFire >= 3) {
    balls.push({ x: ax, y: 1 + rScale * 0.6, t: 0 });
    lastFire = frames;
    juice -= 0.02;
  }
  firePending = false;
  let k = 0;
  for (const s of ships) {
    s.x += s.vx;
    if (s.x > -s.rx - 0.5 && s.x < WU + s.rx + 0.5) ships[k++] = s;
  }
  ships.length = k;
  k = 0;
  for (const b of balls) {
    b.y += 1; b.t += 1;
    let alive = b.t < 50 && b.y < WU + 1;
    for (const p of panels) if (alive && abs(b.x - p.x) < 1.2 + 0.25 && abs(b.y - p.y) < 0.5 + 0.25) alive = false;
    for (let i = 0; alive && i < ships.length; i++) {
      if (shipHit(ships[i], b.x, b.y)) {
        if (ships[i].type === targetType) { hits += 1; score += 1; juice += 0.1; }
        else juice -= 0.1;
        ships.splice(i, 1);
        alive = false;
      }
    }
    if (alive) balls[k++] = b;
  }
  balls.length = k;
  if (hits >= 20) { score += 10; gameState = 'won'; return; }
  if (juice <= 0) { juice = 0; gameState = 'gameover'; return; }
  if (juice > 1) juice = 1;
  if (frames >= OPT.maxSteps) gameState = 'gameover';
}

function draw() {
  if (gameState === 'playing') update();
  background(waterC[0], waterC[1], waterC[2]);
  noStroke();
  fill(waveC[0], waveC[1], waveC[2]);
  for (let i = 0; i < 14; i++) {
    const wx = (i * 97 + frames * 0.3) % 440 - 20, wy = 60 + (i * 53) % 300;
    rect(wx, wy, 22, 3);
  }
  for (const p of panels) {
    fill(150, 100, 50);
    rect((p.x - 1.2) * U, sY(p.y + 0.5), 2.4 * U, U);
    fill(110, 70, 30);
    rect((p.x - 1.2) * U, sY(p.y + 0.5) + U * 0.45, 2.4 * U, U * 0.12);
  }
  for (const s of ships) drawShip(s.x * U, sY(s.y), s.rx * U, s.ry * U, s.type, s.vx > 0 ? 1 : -1);
  fill(30, 30, 30);
  for (const b of balls) ellipse(b.x * U, sY(b.y), 10, 10);
  drawPlayer(ax * U, sY(1 + rScale * 0.6));
  // legend: the target colour
  const lx = LEGEND_R * U, ly = sY(LEGEND_R);
  fill(250, 250, 250); ellipse(lx, ly, 4 * U, 4 * U);
  fill(220, 40, 40); ellipse(lx, ly, 3.2 * U, 3.2 * U);
  fill(250, 250, 250); ellipse(lx, ly, 2.4 * U, 2.4 * U);
  drawShip(lx, ly, 1.5 * U, 0.9 * U, targetType, 1);
  // timer and progress bars
  fill(0, 0, 0, 90);
  rect(5, 5, 390, 20);
  fill(66, 245, 135);
  rect(5, 5, 390 * juice, 10);
  fill(245, 66, 144);
  rect(5, 15, 390 * hits / 20, 10);
}

function drawShip(x, y, rx, ry, type, dir) {
  const c = SHIP_COLORS[type];
  fill(120, 70, 30);
  quad(x - rx, y + ry * 0.1, x + rx, y + ry * 0.1, x + rx * 0.7, y + ry, x - rx * 0.7, y + ry);
  fill(90, 50, 20);
  rect(x - rx * 0.04 - 1, y - ry * 1.3, 3, ry * 1.4);
  fill(c[0], c[1], c[2]);
  rect(x - rx * 0.6, y - ry * 1.1, rx * 1.2, ry * 1.05);
  triangle(x + dir * rx * 0.7, y - ry * 0.05, x + dir * rx * 1.05, y - ry * 0.05, x + dir * rx * 0.7, y - ry * 0.8);
}

function drawPlayer(x, y) {
  const c = SHIP_COLORS[playerType], rx = rScale * U, ry = rScale * U * 0.6;
  fill(120, 70, 30);
  ellipse(x, y, rx * 1.3, ry * 2.2);
  triangle(x - rx * 0.55, y - ry * 0.6, x + rx * 0.55, y - ry * 0.6, x, y - ry * 1.5);
  fill(c[0], c[1], c[2]);
  rect(x - rx * 0.8, y - ry * 0.3, rx * 1.6, ry * 0.6);
  fill(40, 40, 40);
  rect(x - 3, y - ry * 1.7, 6, ry * 0.9);
}
