// Dodgeball: a clone of OpenAI ProcGen's "dodgeball" (loosely after Berzerk).
//
// A top-down room (20x20 units, 20 px per unit) is divided by randomly placed
// interior walls, each leaving a gap. Touching an interior wall is fatal; the
// outer walls just block. 3-6 enemies wander slowly (changing direction every
// 25-75 frames) and throw a ball along a row or column whenever the player is
// lined up with them (at most once every 50 frames each). The player throws
// balls in the direction it last moved (at most one every 7 frames); a hit
// removes the enemy. Once every enemy is gone the exit (a block on one of the
// outer walls) turns from red to green and touching it completes the level.
//
// Canvas: 400x400, no scrolling.
// Actions (default table):
//   0 NOOP; 1 LEFT, 2 RIGHT, 3 UP, 4 DOWN held: walk (velocity eases toward
//   the held direction) and face that way; 5 SPACE tapped: throw a ball the
//   way the player faces; 6 LEFT + throw; 7 RIGHT + throw.
// Rewards (as ProcGen): +2 per enemy hit, +10 for reaching the open exit.
// Termination: 'won' at the open exit; 'gameover' when the player touches an
//   interior wall or an enemy, is hit by an enemy ball, or after `timeLimit`
//   frames. lives = 1.
// Procedural generation from the seed: the wall layout (2 recursive room
//   splits easy, 4 hard, as ProcGen), the exit's wall and position, player
//   start, enemy count (3-6), positions, colour theme and wandering, floor and
//   wall colours.
// distribution_mode: 'easy' = big sprites (player/enemy radius 1, balls 0.5,
//   ball speed 0.5, player speed 0.75), 2 splits; 'hard' = smaller and slower
//   (0.75, 0.375, 0.375, 0.5), 4 splits, thinner walls (as ProcGen).
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'   'easy' | 'hard'
//   timeLimit: 1000             frames before the episode ends as 'gameover'
// Simplifications: flat p5 shapes instead of sprites; collisions are boxes
//   (balls against a box 80% of the player's size); enemies do not bump into
//   each other; no diagonal moves or throws (ProcGen has 8 directions);
//   enemies spawn at least 4 units from the player.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  timeLimit: 1000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const HARD = OPT.distribution_mode === 'hard';
const U = 20;
const WORLD = 20;
const K = HARD ? 1.5 : 2;                 // ProcGen's easy/hard scale factor
const THICK = 0.3 * K;
const ENEMY_R = 0.5 * K;
const BALL_R = 0.25 * K;
const BALL_V = 0.25 * K;
const MAXSPEED = HARD ? 0.5 : 0.75;
const PLAYER_R = HARD ? 0.75 : 1;
const EXIT_R = HARD ? 0.75 : 1.5;
const ITER = HARD ? 4 : 2;
const ENEMY_VEL = 0.05;
const FIRE_DELAY = 50;
const ENEMY_REWARD = 2, COMPLETION_BONUS = 10;

const FLOORS = [[200, 190, 170], [170, 190, 200], [190, 200, 170], [210, 180, 180], [180, 175, 200], [160, 160, 160]];
const WALLS = [[110, 60, 50], [70, 70, 90], [60, 90, 70], [100, 80, 60]];
const ENEMY_COLS = [[220, 70, 60], [150, 80, 200], [230, 140, 40], [60, 160, 80], [200, 80, 150], [90, 90, 90], [200, 190, 40]];

let rng;
let score, lives, gameState, t;
let walls, rooms, door, enemies, pBalls, eBalls;
let px, py, pvx, pvy, fx, fy, lastFire, fireQueued;
let floorCol, wallCol, enemyCol;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function randn(n) { return Math.floor(rng() * n); }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

const HARD_MIN = 4 * PLAYER_R + 2 * THICK + 0.5;
const MIN_DIM = PLAYER_R * 8 + 0.5;

function addRoom(x, y, w, h) {
  if ((w >= MIN_DIM || h >= MIN_DIM) && w >= HARD_MIN && h >= HARD_MIN) rooms.push([x, y, w, h]);
}

// walls are boxes {x, y, rx, ry} (centre, half sizes)
function splitRoom(r) {
  let splitW = rng() < 0.5;
  const choice2 = rng() < 0.5;
  const x = r[0], y = r[1], w = r[2], h = r[3];
  if (w < MIN_DIM) splitW = false;
  if (h < MIN_DIM) splitW = true;
  const gap = 0.25 * (randn(3) + 1);
  const pct = 1 - gap;
  if (!splitW) {
    const wh = pct * h;
    const wy = choice2 ? y : y + (1 - pct) * h;
    const remy = choice2 ? y + pct * h : y;
    walls.push({ x: x + w / 2, y: wy + wh / 2, rx: THICK, ry: wh / 2 });
    const nw = w / 2 - THICK;
    addRoom(x, wy, nw, wh);
    addRoom(x + w / 2 + THICK, wy, nw, wh);
    addRoom(x, remy, w, h - wh);
  } else {
    const ww = pct * w;
    const wx = choice2 ? x : x + (1 - pct) * w;
    const remx = choice2 ? x + pct * w : x;
    walls.push({ x: wx + ww / 2, y: y + h / 2, rx: ww / 2, ry: THICK });
    const nh = h / 2 - THICK;
    addRoom(wx, y, ww, nh);
    addRoom(wx, y + h / 2 + THICK, ww, nh);
    addRoom(remx, y, w - ww, h);
  }
}

function overlaps(a, b, shrink) {
  return abs(a.x - b.x) < (a.rx + b.rx) * shrink && abs(a.y - b.y) < (a.ry + b.ry) * shrink;
}
function hitsWall(box) {
  for (const w of walls) if (overlaps(box, w, 1)) return true;
  return false;
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  t = 0;
  lastFire = -100;
  fireQueued = false;
  floorCol = FLOORS[randn(FLOORS.length)];
  wallCol = WALLS[randn(WALLS.length)];
  walls = [];
  rooms = [[0, 0, WORLD, WORLD]];
  for (let i = 0; i < ITER && rooms.length > 0; i++) {
    const k = randn(rooms.length);
    const r = rooms[k];
    rooms.splice(k, 1);
    splitRoom(r);
  }
  // exit on one of the outer walls
  const side = randn(4);
  door = { x: 0, y: 0, rx: EXIT_R, ry: EXIT_R, side: side };
  for (let tries = 0; tries < 30; tries++) {
    const along = EXIT_R + rng() * (WORLD - 2 * EXIT_R);
    if (side === 0) { door.x = along; door.y = EXIT_R; }
    else if (side === 1) { door.x = along; door.y = WORLD - EXIT_R; }
    else if (side === 2) { door.x = EXIT_R; door.y = along; }
    else { door.x = WORLD - EXIT_R; door.y = along; }
    if (!hitsWall(door)) break;
  }
  // player start: free of walls and the exit
  const pb = { x: 0, y: 0, rx: PLAYER_R, ry: PLAYER_R };
  for (let tries = 0; tries < 60; tries++) {
    pb.x = PLAYER_R + rng() * (WORLD - 2 * PLAYER_R);
    pb.y = PLAYER_R + rng() * (WORLD - 2 * PLAYER_R);
    if (!hitsWall({ x: pb.x, y: pb.y, rx: PLAYER_R + 0.3, ry: PLAYER_R + 0.3 }) && !overlaps(pb, door, 1)) break;
  }
  px = pb.x; py = pb.y; pvx = 0; pvy = 0; fx = 1; fy = 0;
  const n = randn(4) + 3;
  enemies = [];
  for (let k = 0; k < n; k++) {
    const e = { x: 0, y: 0, rx: ENEMY_R, ry: ENEMY_R, vx: 0, vy: 0, timer: 0, fireTime: 10 };
    let ok = false;
    for (let tries = 0; tries < 40 && !ok; tries++) {
      e.x = ENEMY_R + rng() * (WORLD - 2 * ENEMY_R);
      e.y = ENEMY_R + rng() * (WORLD - 2 * ENEMY_R);
      ok = !hitsWall(e) && !overlaps(e, door, 1) && abs(e.x - px) + abs(e.y - py) >= 4 + ENEMY_R + PLAYER_R;
      for (const o of enemies) if (overlaps(e, o, 1)) ok = false;
    }
    if (!ok) continue;
    chooseVel(e);
    enemies.push(e);
  }
  enemyCol = ENEMY_COLS[randn(ENEMY_COLS.length)];
  pBalls = [];
  eBalls = [];
}

function chooseVel(e) {
  const v = ENEMY_VEL * (randn(2) * 2 - 1);
  if (randn(2) === 0) { e.vx = v; e.vy = 0; } else { e.vx = 0; e.vy = v; }
  e.timer = randn(50) + 25;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) fireQueued = true;
}

function update() {
  if (gameState !== 'playing') { fireQueued = false; return; }
  t += 1;
  let mx = 0, my = 0;
  if (keyIsDown(LEFT_ARROW)) mx -= 1;
  if (keyIsDown(RIGHT_ARROW)) mx += 1;
  if (keyIsDown(UP_ARROW)) my -= 1;
  if (keyIsDown(DOWN_ARROW)) my += 1;
  if (mx !== 0 || my !== 0) { fx = mx; fy = my; }
  pvx = 0.5 * pvx + 0.5 * MAXSPEED * mx;
  pvy = 0.5 * pvy + 0.5 * MAXSPEED * my;
  px = constrain(px + pvx, PLAYER_R, WORLD - PLAYER_R);
  py = constrain(py + pvy, PLAYER_R, WORLD - PLAYER_R);
  if (fireQueued && t - lastFire >= 7) {
    pBalls.push({ x: px, y: py, vx: fx * BALL_V, vy: fy * BALL_V, life: 50 });
    lastFire = t;
  }
  fireQueued = false;
  const me = { x: px, y: py, rx: PLAYER_R, ry: PLAYER_R };
  // enemies wander, bounce off walls and fire when lined up
  for (const e of enemies) {
    if (e.timer <= 0) chooseVel(e); else e.timer -= 1;
    if (t - e.fireTime >= FIRE_DELAY) {
      const bvx = e.x < px ? 1 : -1, bvy = e.y < py ? 1 : -1;
      if (abs(e.x - px) < 1) {
        eBalls.push({ x: e.x, y: e.y, vx: 0, vy: bvy * BALL_V, life: 50 });
        e.fireTime = t + randn(4); e.vx = 0; e.vy = bvy * ENEMY_VEL;
      } else if (abs(e.y - py) < 1) {
        eBalls.push({ x: e.x, y: e.y, vx: bvx * BALL_V, vy: 0, life: 50 });
        e.fireTime = t + randn(4); e.vx = bvx * ENEMY_VEL; e.vy = 0;
      }
    }
    const nb = { x: e.x + e.vx, y: e.y + e.vy, rx: e.rx, ry: e.ry };
    if (hitsWall(nb) || nb.x < e.rx || nb.x > WORLD - e.rx || nb.y < e.ry || nb.y > WORLD - e.ry) { e.vx = -e.vx; e.vy = -e.vy; }
    else { e.x = nb.x; e.y = nb.y; }
  }
  for (let i = pBalls.length - 1; i >= 0; i--) {
    const b = pBalls[i];
    b.x += b.vx; b.y += b.vy; b.life -= 1;
    const bb = { x: b.x, y: b.y, rx: BALL_R, ry: BALL_R };
    let gone = b.life <= 0 || b.x < BALL_R || b.x > WORLD - BALL_R || b.y < BALL_R || b.y > WORLD - BALL_R || hitsWall(bb);
    if (!gone) {
      for (let k = enemies.length - 1; k >= 0; k--) {
        if (overlaps(bb, enemies[k], 1)) { enemies.splice(k, 1); score += ENEMY_REWARD; gone = true; break; }
      }
    }
    if (gone) pBalls.splice(i, 1);
  }
  for (let i = eBalls.length - 1; i >= 0; i--) {
    const b = eBalls[i];
    b.x += b.vx; b.y += b.vy; b.life -= 1;
    const bb = { x: b.x, y: b.y, rx: BALL_R, ry: BALL_R };
    if (b.life <= 0 || b.x < BALL_R || b.x > WORLD - BALL_R || b.y < BALL_R || b.y > WORLD - BALL_R || hitsWall(bb)) { eBalls.splice(i, 1); continue; }
    if (overlaps(bb, me, 0.8)) { gameState = 'gameover'; return; }
  }
  if (hitsWall(me)) { gameState = 'gameover'; return; }
  for (const e of enemies) if (overlaps(e, me, 0.8)) { gameState = 'gameover'; return; }
  if (enemies.length === 0 && overlaps(door, me, 1)) { score += COMPLETION_BONUS; gameState = 'won'; return; }
  if (t >= OPT.timeLimit) gameState = 'gameover';
}

function person(x, y, r, c, dx, dy, isPlayer) {
  const cx = x * U, cy = y * U, s = r * U;
  fill(c[0] * 0.6, c[1] * 0.6, c[2] * 0.6);
  ellipse(cx - s * 0.65, cy + s * 0.1, s * 0.6, s * 0.6);
  ellipse(cx + s * 0.65, cy + s * 0.1, s * 0.6, s * 0.6);
  if (isPlayer) { stroke(255); strokeWeight(3); }
  fill(c[0], c[1], c[2]);
  ellipse(cx, cy, s * 1.8, s * 1.8);
  noStroke();
  fill(240, 210, 170);
  ellipse(cx + dx * s * 0.2, cy + dy * s * 0.2, s * 1.0, s * 1.0);
  fill(30);
  ellipse(cx + dx * s * 0.55, cy + dy * s * 0.55, s * 0.25, s * 0.25);
}

function draw() {
  update();
  background(floorCol[0], floorCol[1], floorCol[2]);
  noStroke();
  // floor tiles
  fill(floorCol[0] - 14, floorCol[1] - 14, floorCol[2] - 14);
  for (let i = 0; i < 10; i++) for (let j = i % 2; j < 10; j += 2) rect(i * 40, j * 40, 40, 40);
  // exit
  const open = enemies.length === 0;
  fill(open ? 60 : 200, open ? 200 : 50, open ? 80 : 50);
  rect((door.x - door.rx) * U, (door.y - door.ry) * U, door.rx * 2 * U, door.ry * 2 * U);
  fill(open ? 150 : 240, open ? 240 : 130, open ? 160 : 130);
  rect((door.x - door.rx * 0.6) * U, (door.y - door.ry * 0.6) * U, door.rx * 1.2 * U, door.ry * 1.2 * U);
  // interior walls
  for (const w of walls) {
    fill(wallCol[0], wallCol[1], wallCol[2]);
    rect((w.x - w.rx) * U, (w.y - w.ry) * U, w.rx * 2 * U, w.ry * 2 * U);
    fill(wallCol[0] + 50, wallCol[1] + 40, wallCol[2] + 30);
    rect((w.x - w.rx) * U + 2, (w.y - w.ry) * U + 2, w.rx * 2 * U - 4, 3);
  }
  for (const e of enemies) person(e.x, e.y, e.rx, enemyCol, e.vx > 0 ? 1 : e.vx < 0 ? -1 : 0, e.vy > 0 ? 1 : e.vy < 0 ? -1 : 0, false);
  if (gameState !== 'gameover' || t >= OPT.timeLimit) person(px, py, PLAYER_R, [40, 90, 230], fx, fy, true);
  for (const b of pBalls) {
    fill(255); ellipse(b.x * U, b.y * U, BALL_R * 2 * U, BALL_R * 2 * U);
    fill(30); ellipse(b.x * U, b.y * U, BALL_R * 0.8 * U, BALL_R * 0.8 * U);
  }
  for (const b of eBalls) {
    fill(250, 120, 20); ellipse(b.x * U, b.y * U, BALL_R * 2 * U, BALL_R * 2 * U);
    fill(120, 40, 0); ellipse(b.x * U, b.y * U, BALL_R * 0.8 * U, BALL_R * 0.8 * U);
  }
  // outer wall rim
  fill(wallCol[0] * 0.7, wallCol[1] * 0.7, wallCol[2] * 0.7);
  rect(0, 0, W, 4); rect(0, H - 4, W, 4); rect(0, 0, 4, H); rect(W - 4, 0, 4, H);
}
