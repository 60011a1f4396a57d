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
// Interior walls as flat arrays (centre x, y, half sizes rx, ry), tested every
// frame without an iterator, a call per wall or a box object per test:
const MAX_WALLS = ITER;                   // splitRoom adds one wall per split
const wallX = new Float64Array(MAX_WALLS), wallY = new Float64Array(MAX_WALLS);
const wallRX = new Float64Array(MAX_WALLS), wallRY = new Float64Array(MAX_WALLS);
let nWalls;
let wallRects;                            // per level: flat [x, y, w, h, x2, y2, w2] per wall, as drawn
const PLAYER_COL = [40, 90, 230];
const BALL_D = BALL_R * 2 * U, BALL_CORE = BALL_R * 0.8 * U;   // drawn ball sizes
// overlaps(..., 0.8) of a ball or an enemy with the player: the summed half
// sizes are the same every frame
const EBALL_HIT = (BALL_R + PLAYER_R) * 0.8;
const ENEMY_HIT = (ENEMY_R + PLAYER_R) * 0.8;

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
  return Math.abs(a.x - b.x) < (a.rx + b.rx) * shrink && Math.abs(a.y - b.y) < (a.ry + b.ry) * shrink;
}
// overlaps(box, wall, 1) for any interior wall, box given by centre and half sizes
// (the factor 1 left out: x * 1 === x)
function hitsWall(x, y, rx, ry) {
  for (let i = 0; i < nWalls; i++) {
    if (Math.abs(x - wallX[i]) < rx + wallRX[i] && Math.abs(y - wallY[i]) < ry + wallRY[i]) return true;
  }
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
  nWalls = walls.length;
  wallRects = [];
  for (let i = 0; i < nWalls; i++) {
    const w = walls[i];
    wallX[i] = w.x; wallY[i] = w.y; wallRX[i] = w.rx; wallRY[i] = w.ry;
    wallRects.push((w.x - w.rx) * U, (w.y - w.ry) * U, w.rx * 2 * U, w.ry * 2 * U,
                   (w.x - w.rx) * U + 2, (w.y - w.ry) * U + 2, w.rx * 2 * U - 4);
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
    if (!hitsWall(door.x, door.y, door.rx, door.ry)) break;
  }
  // player start: free of walls and the exit
  const pb = { x: 0, y: 0, rx: PLAYER_R, ry: PLAYER_R };
  for (let tries = 0; tries < 60; tries++) {
    pb.x = PLAYER_R + rng() * (WORLD - 2 * PLAYER_R);
    pb.y = PLAYER_R + rng() * (WORLD - 2 * PLAYER_R);
    if (!hitsWall(pb.x, pb.y, PLAYER_R + 0.3, PLAYER_R + 0.3) && !overlaps(pb, door, 1)) break;
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
      ok = !hitsWall(e.x, e.y, e.rx, e.ry) && !overlaps(e, door, 1) && Math.abs(e.x - px) + Math.abs(e.y - py) >= 4 + ENEMY_R + PLAYER_R;
      for (let i = 0; i < enemies.length; i++) if (overlaps(e, enemies[i], 1)) ok = false;
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
  // (the player box {px, py, PLAYER_R} and the moved boxes are tested as plain
  // numbers; same comparisons as overlaps())
  // enemies wander, bounce off walls and fire when lined up
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    if (e.timer <= 0) chooseVel(e); else e.timer -= 1;
    if (t - e.fireTime >= FIRE_DELAY) {
      const bvx = e.x < px ? 1 : -1, bvy = e.y < py ? 1 : -1;
      if (Math.abs(e.x - px) < 1) {
        eBalls.push({ x: e.x, y: e.y, vx: 0, vy: bvy * BALL_V, life: 50 });
        e.fireTime = t + randn(4); e.vx = 0; e.vy = bvy * ENEMY_VEL;
      } else if (Math.abs(e.y - py) < 1) {
        eBalls.push({ x: e.x, y: e.y, vx: bvx * BALL_V, vy: 0, life: 50 });
        e.fireTime = t + randn(4); e.vx = bvx * ENEMY_VEL; e.vy = 0;
      }
    }
    const nx = e.x + e.vx, ny = e.y + e.vy;
    if (hitsWall(nx, ny, e.rx, e.ry) || nx < e.rx || nx > WORLD - e.rx || ny < e.ry || ny > WORLD - e.ry) { e.vx = -e.vx; e.vy = -e.vy; }
    else { e.x = nx; e.y = ny; }
  }
  for (let i = pBalls.length - 1; i >= 0; i--) {
    const b = pBalls[i];
    b.x += b.vx; b.y += b.vy; b.life -= 1;
    const x = b.x, y = b.y;
    let gone = b.life <= 0 || x < BALL_R || x > WORLD - BALL_R || y < BALL_R || y > WORLD - BALL_R || hitsWall(x, y, BALL_R, BALL_R);
    if (!gone) {
      for (let k = enemies.length - 1; k >= 0; k--) {
        const e = enemies[k];
        if (Math.abs(x - e.x) < BALL_R + e.rx && Math.abs(y - e.y) < BALL_R + e.ry) { enemies.splice(k, 1); score += ENEMY_REWARD; gone = true; break; }
      }
    }
    if (gone) pBalls.splice(i, 1);
  }
  for (let i = eBalls.length - 1; i >= 0; i--) {
    const b = eBalls[i];
    b.x += b.vx; b.y += b.vy; b.life -= 1;
    const x = b.x, y = b.y;
    if (b.life <= 0 || x < BALL_R || x > WORLD - BALL_R || y < BALL_R || y > WORLD - BALL_R || hitsWall(x, y, BALL_R, BALL_R)) { eBalls.splice(i, 1); continue; }
    if (Math.abs(x - px) < EBALL_HIT && Math.abs(y - py) < EBALL_HIT) { gameState = 'gameover'; return; }
  }
  if (hitsWall(px, py, PLAYER_R, PLAYER_R)) { gameState = 'gameover'; return; }
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    if (Math.abs(e.x - px) < ENEMY_HIT && Math.abs(e.y - py) < ENEMY_HIT) { gameState = 'gameover'; return; }
  }
  if (enemies.length === 0 && Math.abs(door.x - px) < door.rx + PLAYER_R && Math.abs(door.y - py) < door.ry + PLAYER_R) { score += COMPLETION_BONUS; gameState = 'won'; return; }
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
  for (let k = 0; k < wallRects.length; k += 7) {
    fill(wallCol[0], wallCol[1], wallCol[2]);
    rect(wallRects[k], wallRects[k + 1], wallRects[k + 2], wallRects[k + 3]);
    fill(wallCol[0] + 50, wallCol[1] + 40, wallCol[2] + 30);
    rect(wallRects[k + 4], wallRects[k + 5], wallRects[k + 6], 3);
  }
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    person(e.x, e.y, e.rx, enemyCol, e.vx > 0 ? 1 : e.vx < 0 ? -1 : 0, e.vy > 0 ? 1 : e.vy < 0 ? -1 : 0, false);
  }
  if (gameState !== 'gameover' || t >= OPT.timeLimit) person(px, py, PLAYER_R, PLAYER_COL, fx, fy, true);
  for (let i = 0; i < pBalls.length; i++) {
    const x = pBalls[i].x * U, y = pBalls[i].y * U;
    fill(255); ellipse(x, y, BALL_D, BALL_D);
    fill(30); ellipse(x, y, BALL_CORE, BALL_CORE);
  }
  for (let i = 0; i < eBalls.length; i++) {
    const x = eBalls[i].x * U, y = eBalls[i].y * U;
    fill(250, 120, 20); ellipse(x, y, BALL_D, BALL_D);
    fill(120, 40, 0); ellipse(x, y, BALL_CORE, BALL_CORE);
  }
  // outer wall rim
  fill(wallCol[0] * 0.7, wallCol[1] * 0.7, wallCol[2] * 0.7);
  rect(0, 0, W, 4); rect(0, H - 4, W, 4); rect(0, 0, 4, H); rect(W - 4, 0, 4, H);
}
