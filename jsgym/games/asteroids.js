// Asteroids: a clone of Atari 2600 Asteroids, as in the ALE task.
//
// The agent's ship sits among drifting asteroids on a wrap-around screen. It
// turns in 16 steps, thrusts forward, fires short-lived shots and can jump to
// hyperspace. Shots split large asteroids into two medium ones, medium into two
// small, small ones vanish. Touching an asteroid destroys the ship; a new one
// appears in the centre once the centre is clear. A cleared field brings a new
// wave with one more large asteroid.
//
// Canvas: 400x400.
// Actions (default table):
//   0 NOOP; 1 LEFT held / 2 RIGHT held: rotate; 3 UP held: thrust;
//   4 DOWN pressed: hyperspace (random position; fires once per press);
//   5 SPACE tapped: fire; 6 LEFT + fire; 7 RIGHT + fire.
// Scoring: large asteroid 20, medium 50, small 100. An extra ship every
//   `extraLifeEvery` points. No penalty for a lost ship.
// Termination: 'gameover' when the last ship is lost, or when `timeLimit` frames
//   have passed (0 = no limit); 'won' is never used. lives = ships left.
// GAME_OPTIONS keys (defaults):
//   lives: 4            ships per game
//   startRocks: 4       large asteroids in the first wave (one more each wave, max 8)
//   rockSpeed: 1.2      max asteroid speed (px/frame), grows with smaller size
//   shotSpeed: 8        shot speed (px/frame)
//   shotLife: 32        frames a shot lives
//   maxShots: 4         shots on screen at once
//   thrust: 0.25        acceleration while UP is held
//   maxSpeed: 5         ship speed cap
//   extraLifeEvery: 5000
//   timeLimit: 6000     frames per game
// Simplifications: no UFOs/satellites, no 2600 flicker, asteroids are filled
//   polygons (the 2600 draws blocky filled rocks too), collision uses circles.

const W = 400;
const H = 400;
const OPT = Object.assign({
  lives: 4,
  startRocks: 4,
  rockSpeed: 1.2,
  shotSpeed: 8,
  shotLife: 32,
  maxShots: 4,
  thrust: 0.25,
  maxSpeed: 5,
  extraLifeEvery: 5000,
  timeLimit: 6000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const DIRS = 16;
const SHIP_R = 9;
const ROCK_R = [30, 17, 9];               // large, medium, small
const ROCK_POINTS = [20, 50, 100];
const ROCK_COLORS = [[180, 122, 48], [110, 156, 210], [214, 92, 92]];
const COS = [], SIN = [];
for (let i = 0; i < DIRS; i++) { COS.push(Math.cos(i * 2 * Math.PI / DIRS)); SIN.push(Math.sin(i * 2 * Math.PI / DIRS)); }

let rng;
let score, lives, gameState, frame, nextExtra;
let ship;                                 // {x, y, vx, vy, dir}
let shots;                                // [{x, y, vx, vy, life}]
let rocks;                                // [{x, y, vx, vy, size, shape: [8 radii factors], px, py}]
                                          // px/py: the 8 outline offsets from the centre,
                                          // fixed per rock, so computed once in makeRock
let dead, turnTimer, wave, fireRequest, hyperRequest;

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
  frame = 0;
  nextExtra = OPT.extraLifeEvery;
  wave = 0;
  ship = { x: W / 2, y: H / 2, vx: 0, vy: 0, dir: 12 };   // dir 12 = pointing up
  shots = [];
  dead = 0;
  turnTimer = 0;
  fireRequest = false;
  hyperRequest = false;
  newWave();
}

function makeRock(x, y, size) {
  const a = rng() * 2 * Math.PI;
  const s = OPT.rockSpeed * (0.4 + 0.6 * rng()) * (1 + size * 0.35);
  const shape = [];
  for (let i = 0; i < 8; i++) shape.push(0.75 + 0.25 * rng());
  const rad = ROCK_R[size], px = new Float64Array(8), py = new Float64Array(8);
  for (let i = 0; i < 8; i++) { px[i] = COS[i * 2] * rad * shape[i]; py[i] = SIN[i * 2] * rad * shape[i]; }
  return { x: x, y: y, vx: Math.cos(a) * s, vy: Math.sin(a) * s, size: size, shape: shape, px: px, py: py };
}

function newWave() {
  rocks = [];
  const n = Math.min(OPT.startRocks + wave, 8);
  for (let i = 0; i < n; i++) {
    // along the screen edges, away from the ship in the centre
    const t = rng();
    const x = i % 2 === 0 ? t * W : (i % 4 === 1 ? 20 : W - 20);
    const y = i % 2 === 0 ? (i % 4 === 0 ? 20 : H - 20) : t * H;
    rocks.push(makeRock(x, y, 0));
  }
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) fireRequest = true;
  if (keyCode === DOWN_ARROW) hyperRequest = true;
}

function wrap(o) {
  if (o.x < 0) o.x += W; else if (o.x >= W) o.x -= W;
  if (o.y < 0) o.y += H; else if (o.y >= H) o.y -= H;
}

// squared distance on the torus (Math.abs: p5's abs() is a JS wrapper around it)
function dist2(ax, ay, bx, by) {
  let dx = Math.abs(ax - bx), dy = Math.abs(ay - by);
  if (dx > W / 2) dx = W - dx;
  if (dy > H / 2) dy = H - dy;
  return dx * dx + dy * dy;
}

// dist2(ax, ay, bx, by) < rr * rr (rr >= 0), for the per-frame collision loops; a
// torus x distance of rr or more already decides it (dx * dx >= rr * rr, and adding
// dy * dy cannot make the sum smaller), so most pairs skip the y half
function within(ax, ay, bx, by, rr) {
  let dx = Math.abs(ax - bx);
  if (dx > W / 2) dx = W - dx;
  if (dx >= rr) return false;
  let dy = Math.abs(ay - by);
  if (dy > H / 2) dy = H - dy;
  return dx * dx + dy * dy < rr * rr;
}

function addScore(p) {
  score += p;
  if (OPT.extraLifeEvery > 0 && score >= nextExtra) { lives += 1; nextExtra += OPT.extraLifeEvery; }
}

function breakRock(i) {
  const r = rocks[i];
  rocks.splice(i, 1);
  addScore(ROCK_POINTS[r.size]);
  if (r.size < 2) {
    rocks.push(makeRock(r.x, r.y, r.size + 1));
    rocks.push(makeRock(r.x, r.y, r.size + 1));
  }
}

function updateShip() {
  if (dead > 0) {
    dead -= 1;
    // respawn in the centre once no asteroid is close to it
    if (dead === 0) {
      let clear = true;
      for (let k = 0; k < rocks.length; k++) {
        const r = rocks[k];
        if (dist2(r.x, r.y, W / 2, H / 2) < (ROCK_R[r.size] + 50) * (ROCK_R[r.size] + 50)) clear = false;
      }
      if (clear) ship = { x: W / 2, y: H / 2, vx: 0, vy: 0, dir: 12 };
      else dead = 1;
    }
    return;
  }
  // rotation: one 1/16 turn every 3 frames while held (plus one at once)
  const l = keyIsDown(LEFT_ARROW), r = keyIsDown(RIGHT_ARROW);
  if (l !== r) {
    if (turnTimer === 0) ship.dir = (ship.dir + (l ? DIRS - 1 : 1)) % DIRS;
    turnTimer = (turnTimer + 1) % 3;
  } else turnTimer = 0;
  if (keyIsDown(UP_ARROW)) {
    ship.vx += COS[ship.dir] * OPT.thrust;
    ship.vy += SIN[ship.dir] * OPT.thrust;
    const sp = Math.sqrt(ship.vx * ship.vx + ship.vy * ship.vy);
    if (sp > OPT.maxSpeed) { ship.vx *= OPT.maxSpeed / sp; ship.vy *= OPT.maxSpeed / sp; }
  }
  ship.vx *= 0.985;
  ship.vy *= 0.985;
  ship.x += ship.vx;
  ship.y += ship.vy;
  wrap(ship);
  if (hyperRequest) {
    ship.x = 20 + rng() * (W - 40);
    ship.y = 20 + rng() * (H - 40);
    ship.vx = 0;
    ship.vy = 0;
  }
  if (fireRequest && shots.length < OPT.maxShots) {
    shots.push({ x: ship.x + COS[ship.dir] * SHIP_R, y: ship.y + SIN[ship.dir] * SHIP_R,
      vx: COS[ship.dir] * OPT.shotSpeed + ship.vx, vy: SIN[ship.dir] * OPT.shotSpeed + ship.vy, life: OPT.shotLife });
  }
}

function update() {
  if (gameState !== 'playing') return;
  frame += 1;
  updateShip();
  fireRequest = false;
  hyperRequest = false;
  for (let k = 0; k < rocks.length; k++) { const r = rocks[k]; r.x += r.vx; r.y += r.vy; wrap(r); }
  for (let i = shots.length - 1; i >= 0; i--) {
    const s = shots[i];
    s.x += s.vx; s.y += s.vy; wrap(s);
    s.life -= 1;
    let hit = -1;
    const sx = s.x, sy = s.y;
    for (let k = 0; k < rocks.length && hit < 0; k++) {
      const rk = rocks[k], rr = ROCK_R[rk.size];
      if (within(sx, sy, rk.x, rk.y, rr)) hit = k;
    }
    if (hit >= 0) { breakRock(hit); shots.splice(i, 1); }
    else if (s.life <= 0) shots.splice(i, 1);
  }
  if (dead === 0) {
    for (let k = 0; k < rocks.length; k++) {
      const rr = ROCK_R[rocks[k].size] * 0.85 + SHIP_R;
      if (within(ship.x, ship.y, rocks[k].x, rocks[k].y, rr)) {
        breakRock(k);                    // the rock breaks (and scores) too, as on the 2600
        lives -= 1;
        dead = 60;
        if (lives <= 0) { lives = 0; gameState = 'gameover'; return; }
        break;
      }
    }
  }
  if (rocks.length === 0) { wave += 1; newWave(); }
  if (OPT.timeLimit > 0 && frame >= OPT.timeLimit) gameState = 'gameover';
}

function drawRock(r) {
  const c = ROCK_COLORS[r.size], rad = ROCK_R[r.size];
  const px = r.px, py = r.py;
  fill(c[0], c[1], c[2]);
  // draw the copies needed when the rock overlaps a screen edge
  for (let ox = -W; ox <= W; ox += W) {
    const x = r.x + ox;
    if (x < -rad || x > W + rad) continue;
    for (let oy = -H; oy <= H; oy += H) {
      const y = r.y + oy;
      if (y < -rad || y > H + rad) continue;
      beginShape();
      for (let i = 0; i < 8; i++) vertex(x + px[i], y + py[i]);
      endShape(CLOSE);
    }
  }
}

function draw() {
  update();
  background(0);
  noStroke();
  for (let k = 0; k < rocks.length; k++) drawRock(rocks[k]);
  fill(255, 255, 255);
  for (let k = 0; k < shots.length; k++) rect(shots[k].x - 3, shots[k].y - 3, 6, 6);
  if (dead === 0 && gameState === 'playing') {
    const d = ship.dir, c = COS[d], s = SIN[d];
    fill(240, 128, 240);
    triangle(ship.x + c * 18, ship.y + s * 18,
      ship.x - c * 10 - s * 11, ship.y - s * 10 + c * 11,
      ship.x - c * 10 + s * 11, ship.y - s * 10 - c * 11);
    if (keyIsDown(UP_ARROW)) {
      fill(255, 160, 40);
      rect(ship.x - c * 14 - 4, ship.y - s * 14 - 4, 8, 8);
    }
  }
  fill(180, 122, 48);
  textSize(20);
  textAlign(LEFT, TOP);
  text(score, 10, 6);
  textAlign(RIGHT, TOP);
  text(lives, W - 10, 6);
}
