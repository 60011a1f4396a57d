// FruitBot: a clone of OpenAI ProcGen's "fruitbot".
//
// A vertical scroller: the robot drifts steadily up a 60-unit-long corridor
// (10 units wide easy, 20 hard) and steers left and right. Horizontal walls
// cross the corridor, each with one gap; touching a wall is fatal. Fruit
// (+1) and junk food (-4) are scattered everywhere; the robot collects what
// it touches. A row of presents at the top ends the level (+10). In 'hard'
// mode some gaps are closed by a locked fence: SPACE throws a key straight
// up, and a key that reaches the fence's lock opens it (touching a locked
// fence is fatal). The view is as wide as the corridor and shows the robot
// near the bottom.
//
// Canvas: 400x400, vertical scrolling.
// Actions (default table):
//   0 NOOP (keep drifting up); 1 LEFT, 2 RIGHT held: steer (velocity eases
//   toward the held direction); 3 UP, 4 DOWN: NOOP; 5 SPACE tapped: throw a
//   key upward (one every 8 frames); 6 LEFT + key; 7 RIGHT + key.
// Rewards (as ProcGen): +1 per fruit, -4 per junk food, +10 at the presents.
// Termination: 'won' at the presents; 'gameover' on hitting a wall or a
//   locked fence, or after `timeLimit` frames. lives = 1.
// Procedural generation from the seed: wall heights (a random partition of
//   the corridor), gap widths and positions, fences (hard), 10-19 fruit and
//   10-19 junk at random places, which fruit/junk kinds appear (2 of 6 each
//   in easy, all 6 in hard, as ProcGen's object groups), and the floor colour.
// distribution_mode: 'easy' 10 wide, 5 walls, gaps 20-40% of the width, no
//   fences; 'hard' 20 wide, 10 walls, gaps 10-30%, fence chance 1/8 (as
//   ProcGen).
// GAME_OPTIONS keys (defaults):
//   distribution_mode: 'easy'   'easy' | 'hard'
//   timeLimit: 1000             frames before the episode ends as 'gameover'
// Simplifications: flat p5 shapes instead of sprites; collisions are boxes
//   (items count when they overlap 80% of the robot's box); items never
//   overlap walls; no diagonal actions.

const W = 400;
const H = 400;
const OPT = Object.assign({
  distribution_mode: 'easy',
  timeLimit: 1000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const HARD = OPT.distribution_mode === 'hard';
const WW = HARD ? 20 : 10;          // corridor width (units) = view width
const WH = 60;                      // corridor length
const S = W / WW;                   // px per unit
const MAXSPEED = 0.85, MIXRATE = 0.5, VY = 0.2;
const RX = 0.5, RY = 0.5;
const WALL_RY = 0.3;
const KEY_DURATION = 8;
const DOOR_ASPECT = 3.25;

const FLOORS = [[120, 170, 90], [200, 180, 130], [150, 150, 160], [110, 150, 170], [170, 140, 110], [190, 190, 170]];

let rng;
let score, lives, gameState, t;
let ax, ay, avx, avy;
let walls, doors, items, keys;
let floorCol, fruitKinds, junkKinds, lastFire, fireQueued;
let wallRects;                      // per wall: rect x, y, w, full h, highlight h (px)

// The presents row is the same in every level: its fill colours and rect
// arguments, computed once (15 numbers per present).
const PRESENTS = [];
for (let x = 0; x < WW; x++) {
  const px = x * S, py = -(WH) * S;
  PRESENTS.push(x % 3 === 0 ? 220 : 60, x % 3 === 1 ? 180 : 60, x % 3 === 2 ? 220 : 80,
    px + 2, py + 2, S - 4, S - 4,
    px + S * 0.42, py + 2, S * 0.16, S - 4,
    px + 2, py + S * 0.42, S - 4, S * 0.16);
}

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function randn(n) { return Math.floor(rng() * n); }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

// boxes: {x, y, rx, ry} centre and half sizes, y up
function overlaps(a, b, k) { return Math.abs(a.x - b.x) < (a.rx + b.rx) * k && Math.abs(a.y - b.y) < (a.ry + b.ry) * k; }

function addWalls(y, useDoor, minPct) {
  let pct = minPct + 0.2 * rng();
  if (useDoor) {
    pct += 0.1;
    const lockW = 2 * 0.25 / WW, doorW = (WALL_RY * 2 * DOOR_ASPECT) / WW;
    const n = Math.ceil((pct - 2 * lockW) / doorW);
    pct = 2 * lockW + doorW * n;
  }
  const gap = pct * WW;
  const w1 = rng() * (WW - gap);
  const w2 = WW - w1 - gap;
  if (w1 > 0) walls.push({ x: w1 / 2, y: y, rx: w1 / 2, ry: WALL_RY });
  if (w2 > 0) walls.push({ x: WW - w2 / 2, y: y, rx: w2 / 2, ry: WALL_RY });
  if (useDoor) {
    const right = randn(2);
    const lockX = w1 + 0.25 + right * (gap - 0.5);
    const doorX = w1 + gap / 2 - (right * 2 - 1) * 0.25;
    doors.push({ x: doorX, y: y, rx: gap / 2 - 0.25, ry: WALL_RY, lock: { x: lockX, y: y - 0.45 + WALL_RY, rx: 0.25, ry: 0.45 }, open: false });
  }
}

// split `total` into `n` non-negative integer parts at random
function partition(total, n) {
  const cuts = [];
  for (let i = 0; i < n - 1; i++) cuts.push(randn(total + 1));
  cuts.sort((a, b) => a - b);
  const parts = [];
  let prev = 0;
  for (const c of cuts) { parts.push(c - prev); prev = c; }
  parts.push(total - prev);
  return parts;
}

// Item placement (up to 20 tries per item, each tested against every wall,
// door, lock and earlier item) is most of a reset's work, so the test is
// overlaps() unrolled over flat arrays, and only against the obstacles in
// nearby 1-unit bands of y: an overlap needs |y - obstacle y| < threshold <= 1,
// so those in the item's band and the two next to it are all that can overlap.
// An obstacle is stored with the thresholds overlaps(it, box, k) computes:
// (ITEM_R + box.rx) * k, with k = 1.1 for walls, doors and locks, 1 for items.
const ITEM_R = 0.45;
const MAX_OBSTACLES = 128;
const bandHead = new Int32Array(WH + 3);            // first obstacle of band floor(y) + 1, or -1
const obstNext = new Int32Array(MAX_OBSTACLES);     // next obstacle in the same band
const obstBox = new Float64Array(4 * MAX_OBSTACLES); // x, y, x threshold, y threshold
let nObst;
// the robot collects an item when their boxes overlap 80%: overlaps(me, it, 0.8)
const ITEM_HIT_X = (RX + ITEM_R) * 0.8, ITEM_HIT_Y = (RY + ITEM_R) * 0.8;

function addObstacle(b, k) {
  const i = nObst++, band = Math.floor(b.y) + 1;
  obstBox[4 * i] = b.x;
  obstBox[4 * i + 1] = b.y;
  obstBox[4 * i + 2] = (ITEM_R + b.rx) * k;
  obstBox[4 * i + 3] = (ITEM_R + b.ry) * k;
  obstNext[i] = bandHead[band];
  bandHead[band] = i;
}

function isClear(x, y) {
  const band = Math.floor(y) + 1, B = obstBox;
  for (let b = band - 1; b <= band + 1; b++) {
    for (let i = bandHead[b]; i >= 0; i = obstNext[i]) {
      if (Math.abs(x - B[4 * i]) < B[4 * i + 2] && Math.abs(y - B[4 * i + 1]) < B[4 * i + 3]) return false;
    }
  }
  return true;
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
  const numWalls = HARD ? 10 : 5, minSep = 4, bufH = 4;
  const doorProb = HARD ? 0.125 : 0, minPct = HARD ? 0.1 : 0.2;
  walls = []; doors = []; items = []; keys = [];
  let h = 0;
  for (const part of partition(WH - minSep * numWalls - bufH, numWalls)) {
    const dy = minSep + part;
    h += dy;
    addWalls(h, dy > 5 && rng() < doorProb, minPct);
  }
  // object kinds available in this level
  const kinds = [0, 1, 2, 3, 4, 5];
  const group = HARD ? 6 : 2;
  for (let i = 5; i > 0; i--) { const j = randn(i + 1); const x = kinds[i]; kinds[i] = kinds[j]; kinds[j] = x; }
  fruitKinds = kinds.slice(0, group);
  for (let i = 5; i > 0; i--) { const j = randn(i + 1); const x = kinds[i]; kinds[i] = kinds[j]; kinds[j] = x; }
  junkKinds = kinds.slice(0, group);
  const numGood = randn(10) + 10, numBad = randn(10) + 10;
  nObst = 0;
  bandHead.fill(-1);
  for (const w of walls) addObstacle(w, 1.1);
  for (const d of doors) { addObstacle(d, 1.1); addObstacle(d.lock, 1.1); }
  for (let k = 0; k < numGood + numBad; k++) {
    const good = k < numGood;
    for (let tries = 0; tries < 20; tries++) {
      const x = 0.5 + rng() * (WW - 1), y = 2 + rng() * (WH - 3.5);
      if (isClear(x, y)) {
        const it = { x: x, y: y, rx: ITEM_R, ry: ITEM_R, good: good };
        it.kind = good ? fruitKinds[randn(group)] : junkKinds[randn(group)];
        items.push(it);
        addObstacle(it, 1);
        break;
      }
    }
  }
  ax = WW / 2 + (rng() - 0.5) * (WW - 2);
  ay = RY;
  avx = 0; avy = 0;
  // walls and doors never move: their pixel rects are computed once per level
  wallRects = [];
  for (const w of walls) {
    wallRects.push((w.x - w.rx) * S, -(w.y + w.ry) * S, w.rx * 2 * S, w.ry * 2 * S, w.ry * 0.6 * S);
  }
  for (const d of doors) {
    d.px = (d.x - d.rx) * S; d.py = -(d.y + d.ry) * S; d.pw = d.rx * 2 * S; d.ph = d.ry * 2 * S;
    d.bars = [];
    for (let x = d.x - d.rx; x < d.x + d.rx; x += 0.5) d.bars.push(x * S);
    const l = d.lock;
    d.lockRect = [(l.x - l.rx) * S, -(l.y + l.ry) * S, l.rx * 2 * S, l.ry * 2 * S];
  }
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
  let mx = 0;
  if (keyIsDown(LEFT_ARROW)) mx -= 1;
  if (keyIsDown(RIGHT_ARROW)) mx += 1;
  avx = (1 - MIXRATE) * avx + MIXRATE * MAXSPEED * mx;
  avy = (1 - MIXRATE) * avy + MIXRATE * MAXSPEED * VY;
  ax = constrain(ax + avx, RX, WW - RX);
  ay += avy;
  if (fireQueued && t - lastFire >= KEY_DURATION) {
    keys.push({ x: ax, y: ay, rx: 0.25, ry: 0.25, life: KEY_DURATION });
    lastFire = t;
  }
  fireQueued = false;
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i];
    k.y += 0.5; k.life -= 1;
    let gone = k.life <= 0;
    for (const w of walls) if (overlaps(k, w, 1)) gone = true;
    for (const d of doors) if (!d.open && overlaps(k, d.lock, 1)) { d.open = true; gone = true; }
    if (gone) keys.splice(i, 1);
  }
  // the robot's box {ax, ay, RX, RY} against everything: overlaps() inlined, as
  // this runs every frame over every wall and item, and the y test first, as
  // it rejects almost everything (the tests have no side effects)
  for (let i = 0; i < walls.length; i++) {
    const w = walls[i];
    if (Math.abs(ay - w.y) < RY + w.ry && Math.abs(ax - w.x) < RX + w.rx) { gameState = 'gameover'; return; }
  }
  for (let i = 0; i < doors.length; i++) {
    const d = doors[i];
    if (!d.open && Math.abs(ay - d.y) < RY + d.ry && Math.abs(ax - d.x) < RX + d.rx) { gameState = 'gameover'; return; }
  }
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (Math.abs(ay - it.y) < ITEM_HIT_Y && Math.abs(ax - it.x) < ITEM_HIT_X) {
      score += it.good ? 1 : -4;
      items.splice(i, 1);
    }
  }
  if (ay + RY >= WH - 1) { score += 10; gameState = 'won'; return; }
  if (t >= OPT.timeLimit) gameState = 'gameover';
}

function drawFruit(cx, cy, r, k) {
  if (k === 0) {                 // apple
    fill(220, 40, 40); ellipse(cx, cy + r * 0.1, r * 1.8, r * 1.7);
    fill(60, 160, 50); ellipse(cx + r * 0.3, cy - r * 0.8, r * 0.6, r * 0.35);
  } else if (k === 1) {          // banana
    fill(250, 220, 50);
    quad(cx - r, cy - r * 0.6, cx - r * 0.5, cy - r * 0.8, cx + r * 0.9, cy + r * 0.3, cx + r * 0.2, cy + r * 0.8);
    triangle(cx - r, cy - r * 0.6, cx + r * 0.2, cy + r * 0.8, cx - r * 0.6, cy + r * 0.1);
  } else if (k === 2) {          // orange
    fill(250, 150, 30); ellipse(cx, cy, r * 1.8, r * 1.8);
    fill(60, 160, 50); ellipse(cx, cy - r * 0.85, r * 0.4, r * 0.3);
  } else if (k === 3) {          // grapes
    fill(140, 60, 170);
    ellipse(cx - r * 0.4, cy - r * 0.4, r * 0.8, r * 0.8); ellipse(cx + r * 0.4, cy - r * 0.4, r * 0.8, r * 0.8);
    ellipse(cx, cy + r * 0.1, r * 0.8, r * 0.8); ellipse(cx - r * 0.4, cy + r * 0.1, r * 0.7, r * 0.7);
    ellipse(cx + r * 0.4, cy + r * 0.1, r * 0.7, r * 0.7); ellipse(cx, cy + r * 0.6, r * 0.7, r * 0.7);
  } else if (k === 4) {          // pear
    fill(170, 210, 60); ellipse(cx, cy + r * 0.3, r * 1.6, r * 1.3); ellipse(cx, cy - r * 0.35, r * 1.0, r * 1.1);
  } else {                       // watermelon slice
    fill(60, 160, 60); triangle(cx - r, cy - r * 0.5, cx + r, cy - r * 0.5, cx, cy + r);
    fill(240, 70, 90); triangle(cx - r * 0.75, cy - r * 0.5, cx + r * 0.75, cy - r * 0.5, cx, cy + r * 0.7);
  }
}

function drawJunk(cx, cy, r, k) {
  if (k === 0) {                 // burger
    fill(200, 140, 60); ellipse(cx, cy - r * 0.35, r * 1.9, r * 1.0);
    fill(90, 50, 30); rect(cx - r * 0.95, cy - r * 0.1, r * 1.9, r * 0.4);
    fill(200, 140, 60); rect(cx - r * 0.9, cy + r * 0.3, r * 1.8, r * 0.45, r * 0.2);
  } else if (k === 1) {          // soda can
    fill(200, 30, 40); rect(cx - r * 0.6, cy - r * 0.9, r * 1.2, r * 1.8, r * 0.2);
    fill(230, 230, 230); rect(cx - r * 0.6, cy - r * 0.2, r * 1.2, r * 0.35);
  } else if (k === 2) {          // cake slice
    fill(250, 240, 230); triangle(cx - r, cy + r * 0.7, cx + r, cy + r * 0.7, cx + r, cy - r * 0.7);
    fill(240, 130, 170); quad(cx - r, cy + r * 0.7, cx + r, cy - r * 0.7, cx + r, cy - r * 0.3, cx - r * 0.5, cy + r * 0.7);
  } else if (k === 3) {          // donut
    fill(220, 120, 170); ellipse(cx, cy, r * 1.9, r * 1.9);
    fill(floorCol[0], floorCol[1], floorCol[2]); ellipse(cx, cy, r * 0.6, r * 0.6);
  } else if (k === 4) {          // fries
    fill(240, 200, 50);
    rect(cx - r * 0.6, cy - r * 0.9, r * 0.3, r * 1.0); rect(cx - r * 0.15, cy - r, r * 0.3, r * 1.0); rect(cx + r * 0.3, cy - r * 0.85, r * 0.3, r * 1.0);
    fill(210, 40, 40); quad(cx - r * 0.8, cy - r * 0.1, cx + r * 0.8, cy - r * 0.1, cx + r * 0.6, cy + r * 0.9, cx - r * 0.6, cy + r * 0.9);
  } else {                       // hot dog
    fill(210, 160, 90); rect(cx - r, cy - r * 0.35, r * 2, r * 0.8, r * 0.3);
    fill(180, 60, 40); rect(cx - r * 1.05, cy - r * 0.15, r * 2.1, r * 0.35, r * 0.15);
  }
}

function draw() {
  update();
  background(floorCol[0], floorCol[1], floorCol[2]);
  noStroke();
  const viewH = H / S;
  const camY = ay + WW / 2 - 2 * RY;     // world y at the view's centre
  push();
  translate(0, H / 2 + camY * S);        // world (x, y) -> screen (x*S, -y*S)
  // floor stripes scrolling with the world
  fill(floorCol[0] - 12, floorCol[1] - 12, floorCol[2] - 12);
  const s0 = Math.floor((camY - viewH / 2) / 2) * 2;
  for (let y = s0; y < camY + viewH / 2 + 2; y += 2) rect(0, -(y + 1) * S, W, S);
  // presents at the top
  const P = PRESENTS;
  for (let i = 0; i < P.length; i += 15) {
    fill(P[i], P[i + 1], P[i + 2]);
    rect(P[i + 3], P[i + 4], P[i + 5], P[i + 6]);
    fill(250, 230, 80);
    rect(P[i + 7], P[i + 8], P[i + 9], P[i + 10]);
    rect(P[i + 11], P[i + 12], P[i + 13], P[i + 14]);
  }
  const R = wallRects;
  for (let i = 0; i < R.length; i += 5) {
    fill(110, 110, 120);
    rect(R[i], R[i + 1], R[i + 2], R[i + 3]);
    fill(150, 150, 160);
    rect(R[i], R[i + 1], R[i + 2], R[i + 4]);
  }
  for (let i = 0; i < doors.length; i++) {
    const d = doors[i];
    if (d.open) continue;
    fill(240, 200, 40);
    rect(d.px, d.py, d.pw, d.ph);
    fill(180, 140, 20);
    for (let b = 0; b < d.bars.length; b++) rect(d.bars[b], d.py, 3, d.ph);
    fill(220, 40, 40);
    rect(d.lockRect[0], d.lockRect[1], d.lockRect[2], d.lockRect[3], 4);
  }
  const itemRange = viewH / 2 + 1;
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (Math.abs(it.y - camY) > itemRange) continue;
    if (it.good) drawFruit(it.x * S, -it.y * S, it.rx * S, it.kind);
    else drawJunk(it.x * S, -it.y * S, it.rx * S, it.kind);
  }
  fill(220, 40, 40);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    ellipse(k.x * S, -(k.y + 0.1) * S, S * 0.3, S * 0.3);
    rect(k.x * S - S * 0.05, -(k.y) * S, S * 0.1, S * 0.35);
  }
  if (gameState !== 'gameover' || t >= OPT.timeLimit) {
    const cx = ax * S, cy = -ay * S, r = RX * S;
    fill(40, 90, 200);
    rect(cx - r, cy - r * 0.7, r * 2, r * 1.6, r * 0.3);
    fill(70, 140, 240);
    rect(cx - r * 0.7, cy - r * 1.1, r * 1.4, r * 0.9, r * 0.3);
    fill(255, 240, 120);
    ellipse(cx - r * 0.3, cy - r * 0.7, r * 0.35, r * 0.35);
    ellipse(cx + r * 0.3, cy - r * 0.7, r * 0.35, r * 0.35);
    fill(30, 30, 40);
    rect(cx - r * 0.9, cy + r * 0.7, r * 0.5, r * 0.3);
    rect(cx + r * 0.4, cy + r * 0.7, r * 0.5, r * 0.3);
  }
  pop();
}
