// StarPilot: a clone of OpenAI ProcGen "StarPilot".
//
// A side-scrolling space shooter. The player's ship flies freely on the left
// and fires to the right. Waves of enemy ships enter from the right (in hard
// mode sometimes from the left); each fires one shot aimed straight at the
// player. After 500 frames a finish gate scrolls in from the right: touching it
// completes the level. Touching any enemy, enemy shot, turret or meteor is
// fatal. Every level seed gives a different wave schedule (enemy counts,
// positions, angles, fire times, ship colours), star field and nebula colour.
// Hard mode adds fast flyers (1 hit), turrets (5 hits, fire repeatedly),
// indestructible meteors and clouds that hide things, and faster enemy shots.
//
// Canvas: 400x400 (a 16x16-unit world, 25 px per unit, as in ProcGen).
// Actions (default table):
//   1 LEFT, 2 RIGHT, 3 UP, 4 DOWN held: fly (with some inertia);
//   5 SPACE tapped: fire one shot to the right (every tap fires);
//   6 LEFT+SPACE, 7 RIGHT+SPACE: fly and fire; 0 NOOP: drift to a stop.
// Scoring: +1 per enemy destroyed (flyers take 2 hits); +10 for reaching the
//   finish gate (ProcGen's rewards).
// Termination: 'won' at the gate; 'gameover' when hit, or after `maxSteps`
//   frames. lives is always 1.
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'  'easy': slow flyers only, right side only;
//                              'hard': all enemy kinds, faster shots
//   maxSteps: 1000             frame limit (ProcGen's timeout)
// Simplifications: flat-colour ships, no explosion animation, enemies that
//   leave the screen are dropped; one shot per SPACE tap.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  maxSteps: 1000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});
const HARD = OPT.distribution_mode === 'hard';
const U = 25;
const WU = 16;
const VS = 2 / 5;                // ProcGen's V_SCALE
const WIN_TIME = 500;
const FLYER = 0, METEOR = 1, CLOUD = 2, TURRET = 3, FAST = 4;
const SHIP_THEMES = [[230, 70, 60], [240, 160, 40], [90, 200, 90], [200, 80, 220], [80, 200, 220], [230, 230, 230], [240, 120, 170]];

let rng;
let score, lives, gameState, frames;
let spawners, foes, shots, zaps;  // pending spawns, live enemies, enemy shots, player shots
let ax, ay, avx, avy, firePending;
let finish;
let nebula, blobs;
// The star field as typed arrays (x, y, speed s, drawn size s + 1), read by
// index every frame instead of through 40 objects:
const NSTARS = 40;
const starX = new Float64Array(NSTARS), starY = new Float64Array(NSTARS);
const starS = new Float64Array(NSTARS), starSize = new Float64Array(NSTARS);

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function randInt(n) { return Math.floor(rng() * n); }
function randRange(a, b) { return a + randInt(b - a); }   // integer in [a, b)

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  frames = 0;
  firePending = false;
  foes = []; shots = []; zaps = [];
  finish = null;
  for (let i = 0; i < NSTARS; i++) {
    starX[i] = rng() * W * 2; starY[i] = rng() * H; starS[i] = 1 + randInt(3);
    starSize[i] = starS[i] + 1;
  }
  nebula = [20 + randInt(60), 10 + randInt(40), 40 + randInt(70)];
  blobs = [];
  for (let i = 0; i < 3; i++) blobs.push({ x: rng() * W, y: rng() * H, w: 120 + rng() * 160, h: 90 + rng() * 120 });
  ax = 2; ay = 1 + rng() * (WU - 2); avx = 0; avy = 0;
  makeSpawners();
}

function makeSpawners() {
  // ProcGen's weights over {flyer, meteor, cloud, turret, fast flyer}
  const wts = HARD ? [3, 1, 1, 1, 1] : [3, 0, 0, 0, 0];
  let total = 0;
  for (let i = 0; i < 5; i++) total += wts[i];
  spawners = [];
  let t = 1 + randRange(10, 30);
  while (t <= WIN_TIME) {
    let cw = rng() * total, type = 0;
    for (type = 0; type < 5; type++) { cw -= wts[type]; if (cw <= 0) break; }
    if (type > 4) type = 4;
    const r = (type === FLYER || type === FAST) ? 0.5 : 2;
    let group = 1, theme = 0;
    if (type === FLYER || type === FAST) { group = randRange(0, 5) + 1; theme = randInt(SHIP_THEMES.length); }
    const y = r + rng() * (WU - 2 * r);
    for (let j = 0; j < group; j++) {
      let fire = randRange(10, 100);
      let theta = (rng() - 0.5) * Math.PI / 2;
      let v = type === FAST ? 1.5 : (HARD ? 1 : 0.75);
      if (randRange(0, 2) === 1) theta = 0;
      let hp = type === TURRET ? 5 : type === FLYER ? 2 : type === FAST ? 1 : 500;
      if (type === METEOR || type === CLOUD) { theta = 0; v = 0.5; fire = -1; }
      else if (type === TURRET) { theta = 0; v = 0.5; fire = randRange(20, 30); }
      v *= VS;
      let vx = -Math.cos(theta) * v;
      const vy = Math.sin(theta) * v;
      let x = WU + r;
      if ((type === FLYER || type === FAST) && rng() > 0.9 && HARD) { x = -r; vx = -vx; }
      spawners.push({ t: t + j * 5, x: x, y: y, vx: vx, vy: vy, r: r, type: type, hp: hp, fire: fire, theme: theme, born: t + j * 5, look: randInt(1000) });
    }
    t += randRange(10, 30);
  }
  spawners.sort((a, b) => a.t - b.t);
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) firePending = true;
}

function update() {
  frames += 1;
  const t = frames;
  let mx = 0, my = 0;
  if (keyIsDown(LEFT_ARROW)) mx -= 1;
  if (keyIsDown(RIGHT_ARROW)) mx += 1;
  if (keyIsDown(UP_ARROW)) my -= 1;
  if (keyIsDown(DOWN_ARROW)) my += 1;
  avx = 0.5 * avx + 0.5 * 0.75 * mx;
  avy = 0.5 * avy + 0.5 * 0.75 * my;
  ax = constrain(ax + avx, 0.5, WU - 0.5);
  ay = constrain(ay + avy, 0.5, WU - 0.5);
  while (spawners.length > 0 && spawners[0].t <= t) foes.push(spawners.shift());
  if (firePending) zaps.push({ x: ax + 0.5, y: ay });
  firePending = false;
  if (t === WIN_TIME) finish = { x: WU + 1, vx: -0.5 * VS };
  // enemies fire at the player
  // (indexed loops and the near()/onScreen() tests written out: no iterator or
  // call per object; the arithmetic is the same)
  for (let i = 0; i < foes.length; i++) {
    const f = foes[i];
    if (f.fire <= 0) continue;
    const age = t - f.born;
    if ((f.type === TURRET && age > 0 && age % f.fire === 0) || (f.type !== TURRET && age === f.fire)) {
      const dx = ax - f.x, dy = ay - f.y, d = Math.sqrt(dx * dx + dy * dy) || 1;
      const sp = (f.type === TURRET ? 2 : (HARD ? 2 : 1.25)) * VS;
      shots.push({ x: f.x, y: f.y, vx: dx / d * sp, vy: dy / d * sp });
    }
  }
  // move everything
  for (let i = 0; i < foes.length; i++) { const f = foes[i]; f.x += f.vx; f.y += f.vy; }
  for (let i = 0; i < shots.length; i++) { const s = shots[i]; s.x += s.vx; s.y += s.vy; }
  for (let i = 0; i < zaps.length; i++) zaps[i].x += 2 * VS;
  if (finish) finish.x += finish.vx;
  // player shots hit destructible things (clouds let them through); a shot
  // stops at the first thing it hits
  let k = 0;
  for (let i = 0; i < zaps.length; i++) {
    const z = zaps[i], zx = z.x, zy = z.y;
    let alive = zx > -1 && zx < WU + 1 && zy > -1 && zy < WU + 1;
    for (let j = 0; alive && j < foes.length; j++) {
      const f = foes[j];
      if (f.type === CLOUD || f.hp <= 0) continue;
      const dx = zx - f.x, dy = zy - f.y, r = f.r + 0.4;
      if (dx * dx + dy * dy < r * r) { f.hp -= 1; alive = false; }
    }
    if (alive) zaps[k++] = z;
  }
  zaps.length = k;
  k = 0;
  for (let i = 0; i < foes.length; i++) {
    const f = foes[i];
    if (f.hp <= 0) { score += 1; continue; }
    const m = f.r + 1.5;
    if (f.x > -m && f.x < WU + m && f.y > -m && f.y < WU + m) foes[k++] = f;
  }
  foes.length = k;
  k = 0;
  for (let i = 0; i < shots.length; i++) {
    const s = shots[i];
    if (s.x > -1 && s.x < WU + 1 && s.y > -1 && s.y < WU + 1) shots[k++] = s;
  }
  shots.length = k;
  // collisions with the player
  if (finish && ax + 0.5 > finish.x - 1) { score += 10; gameState = 'won'; return; }
  for (let i = 0; i < foes.length; i++) {
    const f = foes[i];
    if (f.type === CLOUD) continue;
    const dx = ax - f.x, dy = ay - f.y, r = f.r + 0.4;
    if (dx * dx + dy * dy < r * r) { gameState = 'gameover'; return; }
  }
  const R = 0.4 + 0.4;
  for (let i = 0; i < shots.length; i++) {
    const s = shots[i], dx = ax - s.x, dy = ay - s.y;
    if (dx * dx + dy * dy < R * R) { gameState = 'gameover'; return; }
  }
  if (frames >= OPT.maxSteps) gameState = 'gameover';
}

function draw() {
  if (gameState === 'playing') update();
  background(nebula[0] * 0.3, nebula[1] * 0.3, nebula[2] * 0.3);
  noStroke();
  fill(nebula[0], nebula[1], nebula[2]);
  for (let i = 0; i < blobs.length; i++) { const b = blobs[i]; ellipse(b.x, b.y, b.w, b.h); }
  fill(220, 220, 255);
  const f05 = frames * 0.5, W2 = W * 2;   // loop invariants (float ops are not free)
  for (let i = 0; i < NSTARS; i++) {
    const x = ((starX[i] - f05 * starS[i]) % W2 + W2) % W2;
    if (x < W) rect(x, starY[i], starSize[i], starSize[i]);
  }
  if (finish) {
    const x = (finish.x - 1) * U;
    for (let i = 0; i < 16; i++) {
      if (i % 2 === 0) fill(250, 250, 250); else fill(250, 60, 60);
      rect(x, i * 25, 2 * U, 25);
    }
  }
  for (let i = 0; i < foes.length; i++) if (foes[i].type !== CLOUD) drawFoe(foes[i]);
  fill(80, 240, 255);
  for (let i = 0; i < zaps.length; i++) { const z = zaps[i]; rect(z.x * U - 8, z.y * U - 3, 16, 6, 3); }
  for (let i = 0; i < shots.length; i++) {
    const sx = shots[i].x * U, sy = shots[i].y * U;
    fill(255, 120, 40); ellipse(sx, sy, 18, 18);
    fill(255, 230, 120); ellipse(sx, sy, 8, 8);
  }
  drawPlayer(ax * U, ay * U);
  for (let i = 0; i < foes.length; i++) {
    const f = foes[i];
    if (f.type !== CLOUD) continue;
    const fx = f.x * U, fy = f.y * U;
    fill(150, 120, 200);
    ellipse(fx, fy, 4 * U, 3 * U);
    ellipse(fx - U, fy + 12, 2.6 * U, 2 * U);
    ellipse(fx + U, fy - 10, 2.6 * U, 2 * U);
  }
}

function drawPlayer(x, y) {
  fill(60, 120, 240);
  triangle(x - 14, y - 14, x - 14, y + 14, x + 16, y);
  fill(40, 80, 190);
  rect(x - 18, y - 16, 12, 6);
  rect(x - 18, y + 10, 12, 6);
  fill(180, 230, 255);
  ellipse(x - 2, y, 10, 8);
}

function drawFoe(f) {
  const x = f.x * U, y = f.y * U, d = f.vx > 0 ? -1 : 1;
  if (f.type === FLYER || f.type === FAST) {
    const c = SHIP_THEMES[f.theme];
    fill(c[0], c[1], c[2]);
    triangle(x + d * 14, y - 13, x + d * 14, y + 13, x - d * 15, y);
    fill(c[0] * 0.6, c[1] * 0.6, c[2] * 0.6);
    rect(x + d * 8 - 4, y - 15, 8, 30);
    fill(30, 30, 40);
    ellipse(x - d * 2, y, 8, 8);
  } else if (f.type === TURRET) {
    fill(150, 150, 170);
    rect(x - 40, y - 40, 80, 80, 10);
    fill(100, 100, 120);
    ellipse(x, y, 50, 50);
    fill(240, 60, 60);
    ellipse(x, y, 18 + f.hp * 3, 18 + f.hp * 3);
  } else if (f.type === METEOR) {
    fill(120, 100, 90);
    ellipse(x, y, 96, 90);
    fill(90, 74, 66);
    ellipse(x - 14, y - 10, 26, 22);
    ellipse(x + 18, y + 16, 20, 18);
  }
}
