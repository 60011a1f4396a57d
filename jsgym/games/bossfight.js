// BossFight: a clone of OpenAI ProcGen's "bossfight".
//
// The player flies a small starship near the bottom of a 20x20-unit arena
// (20 px per unit) and fires lasers straight up at a big boss ship that roams
// the upper part of the screen. While its shield (a cyan ring) is up the boss
// attacks with one of four bullet patterns (fan, rotating cross, ring, random
// spray) and player lasers bounce off the shield. After a short timeout the
// shield drops and the boss only fires occasional stray bullets: each laser
// hit then costs it one health point. When a round's worth of damage
// (`round_health` hits) is done, the player earns +1, the boss flashes for a
// moment and re-raises its shield with the next round's attack pattern. The
// last round destroys the boss (+1 +10). Meteors near the bottom absorb
// bullets from both sides (cover) and block the player's ship; boss bullets
// and the boss itself kill the player.
//
// Canvas: 400x400, no scrolling.
// Actions (default table):
//   0 NOOP; 1 LEFT, 2 RIGHT, 3 UP, 4 DOWN held: fly (velocity eases toward the
//   held direction); 5 SPACE tapped: fire a laser upward (at most one every 3
//   frames); 6 LEFT + fire; 7 RIGHT + fire.
// Rewards (as ProcGen): +1 per completed damage round, +10 more when the boss
//   is destroyed.
// Termination: 'won' when the boss is destroyed; 'gameover' when the player
//   is hit by a boss bullet or touches the boss, or after `timeLimit` frames.
//   lives = 1.
// Procedural generation from the seed: space colour and star field, boss and
//   player ship colours, laser colours, round health (1-9 hits), number of
//   rounds (1-5), the attack pattern of each round, shield-up time, meteor
//   count and positions, player start x, boss movement and random bullets.
// distribution_mode: 'hard' has faster boss bullets (0.75 vs 0.5 units/frame)
//   and longer shield-up phases, as in ProcGen.
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'   'easy' | 'hard'
//   timeLimit: 1000             frames before the episode ends as 'gameover'
// Simplifications: ships, shield, meteors and bullets are flat p5 shapes;
//   boss bullets are drawn with radius 0.4 unit but hit with 0.25 against
//   60% x 80% of the ship's box (forgiving); reflected lasers just vanish;
//   meteors are indestructible and solid (in ProcGen touching one is fatal:
//   made solid so random play survives long enough to see a shield drop);
//   no laser trails or explosion sprites (the boss flashes and shows orange
//   bursts instead);
//   ProcGen's 4000-step timeout is 1000 frames here; no diagonal actions.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  timeLimit: 1000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const HARD = OPT.distribution_mode === 'hard';
const U = 20;
const WORLD = 20;
const BOSS_RX = 3, BOSS_RY = 2.1;
const BOTTOM_MARGIN = 6;
const BOSS_VEL_TIMEOUT = 20;
const BOSS_DAMAGED_TIMEOUT = 40;
const BULLET_R = 0.4;                // drawn radius
const HIT_R = 0.25;                  // collision radius (forgiving)
const PLAYER_RX = 0.75, PLAYER_RY = 0.6;
const MAXSPEED = 0.85, MIXRATE = 0.5;

const SPACE_COLS = [[14, 10, 40], [30, 16, 50], [8, 24, 44], [20, 20, 28], [40, 14, 36], [10, 30, 34]];
const BOSS_COLS = [[70, 70, 80], [60, 110, 210], [70, 170, 80], [200, 60, 60]];
const SHIP_COLS = [[70, 140, 240], [80, 210, 90], [240, 150, 50], [230, 70, 70]];
const LASER_COLS = [[90, 255, 90], [255, 80, 80], [90, 170, 255]];

let rng;
let score, lives, gameState, t;
let px, py, pvx, pvy;
let bx, by, bvx, bvy, health, roundHealth, numRounds, roundNum;
let attackModes, attackMode, shieldsUp, timeToSwap, invulnDur, currVelTimeout, damagedUntil;
let lastFire, fireQueued;
let pBullets, eBullets, barriers;
// The star field as typed arrays (x, y, size), read by index every frame:
const NSTARS = 40;
const starX = new Float64Array(NSTARS), starY = new Float64Array(NSTARS), starS = new Float64Array(NSTARS);
const WHITE = [255, 255, 255];        // the boss's colour while it flashes
let spaceCol, bossCol, shipCol, pLaser, bLaser, bossShape;
let randPct, randFirePct;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function randn(n) { return Math.floor(rng() * n); }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  t = 0;
  lastFire = -100;
  fireQueued = false;
  damagedUntil = -1;
  spaceCol = SPACE_COLS[randn(SPACE_COLS.length)];
  for (let i = 0; i < NSTARS; i++) { starX[i] = rng() * W; starY[i] = rng() * H; starS[i] = 1 + randn(3); }
  bossCol = BOSS_COLS[randn(BOSS_COLS.length)];
  bossShape = randn(3);
  shipCol = SHIP_COLS[randn(SHIP_COLS.length)];
  pLaser = LASER_COLS[randn(3)];
  bLaser = LASER_COLS[randn(3)];
  roundHealth = randn(9) + 1;
  numRounds = 1 + randn(5);
  invulnDur = 2 + randn((HARD ? 3 : 1) + 1);
  health = roundHealth * numRounds;
  attackModes = [];
  for (let i = 0; i < numRounds; i++) attackModes.push(randn(4));
  bx = WORLD / 2; by = WORLD / 2;
  roundNum = 0;
  prepareBoss();
  px = PLAYER_RX + rng() * (WORLD - 2 * PLAYER_RX);
  py = WORLD - PLAYER_RY;
  pvx = 0; pvy = 0;
  pBullets = [];
  eBullets = [];
  barriers = [];
  const nb = randn(3) + 1;
  for (let i = 0; i < nb; i++) {
    const r = 0.6;
    const minY = 2 * PLAYER_RY + r + 0.5;
    const yUp = rng() * (BOTTOM_MARGIN - minY - r) + minY;
    const x = rng() * (WORLD - 2 * r) + r;
    const b = { x: x, y: WORLD - yUp, r: r * 1.3, shape: randn(3) };
    let ok = Math.abs(b.x - px) > 2;
    for (let k = 0; k < barriers.length; k++) {
      const o = barriers[k];
      if (Math.abs(o.x - b.x) < 2.5 && Math.abs(o.y - b.y) < 2.5) ok = false;
    }
    if (ok) barriers.push(b);
  }
  randPct = 0; randFirePct = 1;
}

function prepareBoss() {
  shieldsUp = true;
  currVelTimeout = BOSS_VEL_TIMEOUT;
  timeToSwap = invulnDur;
  attackMode = attackModes[roundNum % attackModes.length];
  bvx = 0; bvy = 0;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) fireQueued = true;
}

// angle theta as in ProcGen (y up): screen velocity (cos, -sin)
// (Math.cos/Math.sin: what p5's cos/sin call in the default RADIANS angle mode)
function bossFire(vel, theta) {
  eBullets.push({ x: bx, y: by, vx: vel * Math.cos(theta), vy: -vel * Math.sin(theta), life: 50 });
}

function bossAttack() {
  const v = HARD ? 0.75 : 0.5;
  if (damagedUntil >= t) return;
  if (!shieldsUp) {
    if (randFirePct < 0.1) bossFire(v, PI * (1 + randPct));
    return;
  }
  if (attackMode === 0) {
    if (t % 8 === 0) for (let i = 0; i < 5; i++) bossFire(v, PI * 1.5 + (i - 2) * PI / 8);
  } else if (attackMode === 1) {
    if (t % 5 === 0) {
      const k = Math.abs(8 - (Math.floor(t / 5) % 16));
      for (let i = 0; i < 4; i++) bossFire(v, PI * (1.25 + 0.5 * k / 8) + i * PI / 2);
    }
  } else if (attackMode === 2) {
    if (t % 10 === 0) {
      const off = randPct * 2 * PI;
      for (let i = 0; i < 8; i++) bossFire(v, 2 * PI / 8 * i + off);
    }
  } else {
    if (t % 4 === 0) bossFire(v, PI * (1 + randPct));
  }
}

function hitsMeteor(x, y) {
  for (let i = 0; i < barriers.length; i++) {
    const m = barriers[i];
    if (Math.abs(x - m.x) < m.r + PLAYER_RX * 0.8 && Math.abs(y - m.y) < m.r + PLAYER_RY) return true;
  }
  return false;
}

function update() {
  if (gameState !== 'playing') { fireQueued = false; return; }
  t += 1;
  randPct = rng();
  randFirePct = rng();
  const rpx = rng(), rpy = rng();
  // player
  let ax = 0, ay = 0;
  if (keyIsDown(LEFT_ARROW)) ax -= 1;
  if (keyIsDown(RIGHT_ARROW)) ax += 1;
  if (keyIsDown(UP_ARROW)) ay -= 1;
  if (keyIsDown(DOWN_ARROW)) ay += 1;
  pvx = (1 - MIXRATE) * pvx + MIXRATE * MAXSPEED * ax;
  pvy = (1 - MIXRATE) * pvy + MIXRATE * MAXSPEED * ay;
  const ox = px, oy = py;
  px = constrain(px + pvx, PLAYER_RX, WORLD - PLAYER_RX);
  if (hitsMeteor(px, oy)) { px = ox; pvx = 0; }
  py = constrain(py + pvy, PLAYER_RY, WORLD - PLAYER_RY);
  if (hitsMeteor(px, py)) { py = oy; pvy = 0; }
  if (fireQueued && t - lastFire >= 3) {
    pBullets.push({ x: px, y: py - PLAYER_RY, life: 25 });
    lastFire = t;
  }
  fireQueued = false;
  // boss movement and shield cycle
  if (currVelTimeout <= 0) {
    const dx = rpx * (WORLD - 2 * BOSS_RX) + BOSS_RX;
    const dy = rpy * (WORLD - 2 * BOSS_RX - BOTTOM_MARGIN) + BOSS_RX;
    bvx = (dx - bx) / BOSS_VEL_TIMEOUT;
    bvy = (dy - by) / BOSS_VEL_TIMEOUT;
    currVelTimeout = BOSS_VEL_TIMEOUT;
    if (timeToSwap > 0) timeToSwap -= 1;
    else if (shieldsUp) { shieldsUp = false; timeToSwap = 500; }
    else { shieldsUp = true; timeToSwap = invulnDur; }
  } else {
    currVelTimeout -= 1;
  }
  bx += bvx; by += bvy;
  bossAttack();
  // player bullets
  for (let i = pBullets.length - 1; i >= 0; i--) {
    const b = pBullets[i];
    b.y -= 1;
    b.life -= 1;
    let gone = b.life <= 0 || b.y < -1;
    for (let k = 0; k < barriers.length; k++) {
      const m = barriers[k];
      if (Math.abs(b.x - m.x) < m.r + 0.1 && Math.abs(b.y - m.y) < m.r + 0.25) gone = true;
    }
    if (!gone && shieldsUp) {
      const dx = (b.x - bx) / (BOSS_RX * 1.2), dy = (b.y - by) / (BOSS_RY * 1.3);
      if (dx * dx + dy * dy < 1) gone = true;        // bounces off the shield
    } else if (!gone && Math.abs(b.x - bx) < BOSS_RX * 0.9 && Math.abs(b.y - by) < BOSS_RY) {
      gone = true;
      health -= 1;
      if (health % roundHealth === 0) {
        score += 1;
        if (health <= 0) { score += 10; gameState = 'won'; return; }
        roundNum += 1;
        prepareBoss();
        currVelTimeout = BOSS_DAMAGED_TIMEOUT;
        damagedUntil = t + BOSS_DAMAGED_TIMEOUT;
      }
    }
    if (gone) pBullets.splice(i, 1);
  }
  // boss bullets
  for (let i = eBullets.length - 1; i >= 0; i--) {
    const b = eBullets[i];
    b.x += b.vx; b.y += b.vy;
    b.life -= 1;
    let gone = b.life <= 0 || b.x < -1 || b.x > WORLD + 1 || b.y < -1 || b.y > WORLD + 1;
    for (let k = 0; k < barriers.length; k++) {
      const m = barriers[k];
      if (Math.abs(b.x - m.x) < m.r + BULLET_R && Math.abs(b.y - m.y) < m.r + BULLET_R) gone = true;
    }
    if (gone) { eBullets.splice(i, 1); continue; }
    if (Math.abs(b.x - px) < PLAYER_RX * 0.6 + HIT_R && Math.abs(b.y - py) < PLAYER_RY * 0.8 + HIT_R) { gameState = 'gameover'; return; }
  }
  if (Math.abs(px - bx) < BOSS_RX * 0.8 + PLAYER_RX * 0.8 && Math.abs(py - by) < BOSS_RY * 0.8 + PLAYER_RY) { gameState = 'gameover'; return; }
  if (t >= OPT.timeLimit) gameState = 'gameover';
}

function drawBoss() {
  const cx = bx * U, cy = by * U, rx = BOSS_RX * U, ry = BOSS_RY * U;
  const flash = damagedUntil >= t && t % 4 < 2;
  const c = flash ? WHITE : bossCol;
  fill(c[0] * 0.7, c[1] * 0.7, c[2] * 0.7);
  // wings
  if (bossShape === 0) {
    triangle(cx - rx, cy - ry * 0.6, cx + rx, cy - ry * 0.6, cx, cy + ry);
  } else if (bossShape === 1) {
    quad(cx - rx, cy - ry * 0.2, cx - rx * 0.4, cy - ry, cx - rx * 0.4, cy + ry * 0.6, cx - rx * 0.8, cy + ry);
    quad(cx + rx, cy - ry * 0.2, cx + rx * 0.4, cy - ry, cx + rx * 0.4, cy + ry * 0.6, cx + rx * 0.8, cy + ry);
  } else {
    quad(cx - rx, cy - ry, cx + rx, cy - ry, cx + rx * 0.6, cy + ry * 0.3, cx - rx * 0.6, cy + ry * 0.3);
  }
  fill(c[0], c[1], c[2]);
  ellipse(cx, cy, rx * 1.1, ry * 2);
  quad(cx - rx * 0.3, cy + ry * 0.3, cx + rx * 0.3, cy + ry * 0.3, cx + rx * 0.15, cy + ry, cx - rx * 0.15, cy + ry);
  fill(255, 230, 120);
  ellipse(cx, cy - ry * 0.1, rx * 0.35, ry * 0.5);
  if (damagedUntil >= t) {
    fill(255, 150, 40);
    const k = t % 7;
    ellipse(cx + (k - 3) * rx * 0.25, cy + ((t * 3) % 5 - 2) * ry * 0.3, 22, 22);
  }
  if (shieldsUp && damagedUntil < t) {
    noFill();
    stroke(90, 230, 255);
    strokeWeight(5);
    ellipse(cx, cy, rx * 2.4, ry * 2.6);
    noStroke();
  }
}

function draw() {
  update();
  background(spaceCol[0], spaceCol[1], spaceCol[2]);
  noStroke();
  fill(200, 200, 220);              // once: every star has this colour
  for (let i = 0; i < NSTARS; i++) rect(starX[i], starY[i], starS[i], starS[i]);
  // meteors
  for (let i = 0; i < barriers.length; i++) {
    const m = barriers[i];
    const cx = m.x * U, cy = m.y * U, r = m.r * U;
    fill(120, 100, 80);
    if (m.shape === 0) ellipse(cx, cy, r * 2, r * 1.8);
    else quad(cx - r, cy, cx - r * 0.2, cy - r, cx + r, cy - r * 0.3, cx + r * 0.4, cy + r);
    fill(90, 74, 60);
    ellipse(cx - r * 0.3, cy - r * 0.1, r * 0.6, r * 0.5);
  }
  drawBoss();
  // lasers
  fill(pLaser[0], pLaser[1], pLaser[2]);
  for (let i = 0; i < pBullets.length; i++) { const b = pBullets[i]; rect(b.x * U - 3, b.y * U - 9, 6, 18); }
  fill(bLaser[0], bLaser[1], bLaser[2]);
  const d = BULLET_R * 2 * U, d2 = BULLET_R * U;
  for (let i = 0; i < eBullets.length; i++) { const b = eBullets[i]; ellipse(b.x * U, b.y * U, d, d); }
  fill(255);
  for (let i = 0; i < eBullets.length; i++) { const b = eBullets[i]; ellipse(b.x * U, b.y * U, d2, d2); }
  // player ship
  if (gameState !== 'gameover' || t >= OPT.timeLimit) {
    const cx = px * U, cy = py * U, rx = PLAYER_RX * U, ry = PLAYER_RY * U;
    fill(shipCol[0], shipCol[1], shipCol[2]);
    triangle(cx, cy - ry * 1.3, cx - rx, cy + ry, cx + rx, cy + ry);
    fill(shipCol[0] * 0.6, shipCol[1] * 0.6, shipCol[2] * 0.6);
    rect(cx - rx * 0.3, cy + ry * 0.2, rx * 0.6, ry * 0.9);
    fill(230, 240, 255);
    ellipse(cx, cy, rx * 0.5, ry * 0.8);
  }
}
