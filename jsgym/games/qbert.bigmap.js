// Q*bert (big-map variant): games/qbert.js with one change: a larger pyramid,
// 9 rows = 45 cubes instead of 7 rows = 28 (option `rows`). The pyramid is
// drawn smaller to fit the same 400x400 canvas (cubes, characters and hop arcs
// scaled by 7/rows) and the discs may sit on any row from the third to the
// second-from-last (as in the parent); rules, timings and points are unchanged.
//
// Parent description: a clone of Atari 2600 Q*bert (Parker Brothers), as in
// the ALE task.
//
// Q*bert hops diagonally on a pyramid of cubes. Landing on a cube turns its
// top to the target colour; turning every top completes the round. Red balls
// bounce down the pyramid, and Coily (a purple ball that hatches into a snake
// at the bottom) chases Q*bert. Hopping off the pyramid is a fall and costs a
// life, unless a spinning disc waits there: it carries Q*bert back to the top,
// and a chasing Coily leaps after him to its doom.
//
// Canvas: 400x400.
// Actions (default table; as on the 2600 joystick, each direction is a diagonal):
//   3 UP: hop up-right; 2 RIGHT: hop down-right; 1 LEFT: hop up-left;
//   4 DOWN: hop down-left; 6 LEFT+SPACE = up-left; 7 RIGHT+SPACE = down-right;
//   0 NOOP and 5 SPACE: stay. A held direction hops again after each landing.
// Scoring: 25 per cube top changed, 500 for luring Coily off with a disc,
//   round bonus 1000 + 250 per round completed before. No negative rewards.
// Termination: 'gameover' when the last life is lost; never 'won' (rounds repeat,
//   from round 5 on each top needs two landings, via an intermediate colour).
//   lives = lives left (4 at the start).
// GAME_OPTIONS keys (defaults):
//   lives: 4            lives per game
//   hopFrames: 10       frames per hop (Q*bert and enemies)
//   enemyPause: 14      frames an enemy waits between hops
//   coilyPause: 16      frames Coily waits between hops
//   spawnEvery: 150     frames between enemy spawns (red balls; Coily once at a time)
//   maxEnemies: 3
//   rows: 9             pyramid rows (the parent has 7)
// Simplifications: no Ugg/Wrongway/Slick/Sam/green ball, two colour rules
//   (single change, then two-step), fixed spawn timing, discs at random rows.

const W = 400;
const H = 400;
const OPT = Object.assign({
  lives: 4,
  hopFrames: 10,
  enemyPause: 14,
  coilyPause: 16,
  spawnEvery: 150,
  maxEnemies: 3,
  rows: 9,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const ROWS = OPT.rows;
const S = 7 / ROWS;                      // drawing scale relative to the parent's 7-row pyramid
const CW = 48 * S, CH = 36 * S;          // cube offsets: next row is +-CW/2 x, +CH y
const TOP_Y = 76;                        // top-face centre of the apex cube
const PALETTES = [                       // [start, middle, target] top colours per round
  [[60, 80, 200], [60, 80, 200], [230, 210, 60]],
  [[200, 90, 60], [200, 90, 60], [90, 200, 230]],
  [[110, 180, 80], [110, 180, 80], [230, 110, 200]],
  [[150, 150, 160], [150, 150, 160], [240, 150, 40]],
];
const MOVES = { up_right: [-1, 0], up_left: [-1, -1], down_right: [1, 1], down_left: [1, 0] };

let rng;
let score, lives, gameState, round;
let tops;                                // tops[r][c] = colour stage (0 start, 1 middle, 2 target)
let q;                                   // Q*bert: {r, c, fr, fc, t, mode}
let enemies;                             // [{kind: 'red'|'coily', r, c, fr, fc, t, wait, hatched}]
let discs;                               // [{r, side (-1 left / 1 right)}]
let spawnTimer, pause, discRide;

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
  round = 0;
  newRound();
}

function newRound() {
  tops = [];
  for (let r = 0; r < ROWS; r++) { const row = []; for (let c = 0; c <= r; c++) row.push(0); tops.push(row); }
  discs = [{ r: 2 + Math.floor(rng() * (ROWS - 3)), side: -1 }, { r: 2 + Math.floor(rng() * (ROWS - 3)), side: 1 }];
  placeQbert();
  enemies = [];
  spawnTimer = 60;
  pause = 8;
}

function placeQbert() {
  q = { r: 0, c: 0, fr: 0, fc: 0, t: 0, mode: 'idle' };
  discRide = 0;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function onPyramid(r, c) { return r >= 0 && r < ROWS && c >= 0 && c <= r; }
function cellX(r, c) { return W / 2 + (c - r / 2) * CW; }
function cellY(r) { return TOP_Y + r * CH; }
function twoStep() { return round >= 4; }

// screen position of a hopping thing: interpolate with an arc
function posOf(e) {
  const k = OPT.hopFrames;
  const t = min(e.t, k);
  const x0 = cellX(e.fr, e.fc), y0 = cellY(e.fr), x1 = cellX(e.r, e.c), y1 = cellY(e.r);
  const x = x0 + (x1 - x0) * t / k;
  const y = y0 + (y1 - y0) * t / k - 4 * 20 * S * t * (k - t) / (k * k);
  return [x, y];
}

function landQbert() {
  const { r, c } = q;
  if (!onPyramid(r, c)) {
    const side = c < 0 ? -1 : 1;
    const d = discs.findIndex(dd => dd.r === r && dd.side === side);
    if (d >= 0) {                        // ride the disc back to the top
      discs.splice(d, 1);
      q.mode = 'disc';
      discRide = 40;
      for (let i = enemies.length - 1; i >= 0; i--) {
        if (enemies[i].kind === 'coily' && enemies[i].hatched) { enemies.splice(i, 1); score += 500; }
      }
    } else {
      q.mode = 'fall';
      q.t = 0;
    }
    return;
  }
  q.mode = 'idle';
  const stage = tops[r][c];
  const target = 2;
  if (stage < target) {
    tops[r][c] = twoStep() ? stage + 1 : target;
    score += 25;
    if (allDone()) {
      score += 1000 + 250 * round;
      round += 1;
      newRound();
    }
  }
}

function allDone() {
  for (let r = 0; r < ROWS; r++) for (let c = 0; c <= r; c++) if (tops[r][c] !== 2) return false;
  return true;
}

function loseLife() {
  lives -= 1;
  enemies = [];
  spawnTimer = 90;
  pause = 24;
  if (lives <= 0) { lives = 0; gameState = 'gameover'; }
}

function startHop(e, mv) {
  e.fr = e.r; e.fc = e.c;
  e.r += mv[0]; e.c += mv[1];
  e.t = 0;
}

function updateQbert() {
  if (q.mode === 'disc') {
    discRide -= 1;
    if (discRide <= 0) placeQbert();
    return;
  }
  if (q.mode === 'fall') {
    q.t += 1;
    if (q.t > 20) { loseLife(); placeQbert(); }
    return;
  }
  if (q.mode === 'hop') {
    q.t += 1;
    if (q.t >= OPT.hopFrames) landQbert();
    return;
  }
  let mv = null;
  if (keyIsDown(UP_ARROW)) mv = MOVES.up_right;
  else if (keyIsDown(RIGHT_ARROW)) mv = MOVES.down_right;
  else if (keyIsDown(LEFT_ARROW)) mv = MOVES.up_left;
  else if (keyIsDown(DOWN_ARROW)) mv = MOVES.down_left;
  if (mv) { startHop(q, mv); q.mode = 'hop'; }
}

function spawnEnemy() {
  spawnTimer -= 1;
  if (spawnTimer > 0 || enemies.length >= OPT.maxEnemies) return;
  spawnTimer = OPT.spawnEvery;
  const hasCoily = enemies.some(e => e.kind === 'coily');
  const kind = !hasCoily && rng() < 0.5 ? 'coily' : 'red';
  const c = rng() < 0.5 ? 0 : 1;
  enemies.push({ kind: kind, r: 1, c: c, fr: 0, fc: 0, t: 0, wait: OPT.hopFrames + 10, hatched: false });
}

function enemyMove(e) {
  if (e.kind === 'coily' && e.hatched) {
    // chase: the legal hop that lands closest to Q*bert
    const tx = cellX(q.r, q.c), ty = cellY(q.r);
    let best = null, bestD = 1e9;
    for (const k of ['up_right', 'up_left', 'down_right', 'down_left']) {
      const m = MOVES[k];
      if (!onPyramid(e.r + m[0], e.c + m[1])) continue;
      const dx = cellX(e.r + m[0], e.c + m[1]) - tx, dy = cellY(e.r + m[0]) - ty;
      if (dx * dx + dy * dy < bestD) { bestD = dx * dx + dy * dy; best = m; }
    }
    return best;
  }
  if (e.kind === 'coily' && e.r === ROWS - 1) { e.hatched = true; return null; }
  return rng() < 0.5 ? MOVES.down_left : MOVES.down_right;
}

function updateEnemies() {
  for (let i = enemies.length - 1; i >= 0; i--) {
    const e = enemies[i];
    if (e.t < OPT.hopFrames) { e.t += 1; continue; }
    if (!onPyramid(e.r, e.c)) { enemies.splice(i, 1); continue; }  // rolled off the bottom
    e.wait -= 1;
    if (e.wait > 0) continue;
    e.wait = e.kind === 'coily' ? OPT.coilyPause : OPT.enemyPause;
    const mv = enemyMove(e);
    if (mv) startHop(e, mv);
  }
}

function checkHits() {
  if (q.mode === 'fall' || q.mode === 'disc') return;
  const [qx, qy] = posOf(q);
  for (const e of enemies) {
    const [ex, ey] = posOf(e);
    if (abs(ex - qx) < 18 * S && abs(ey - qy) < 18 * S) { loseLife(); return; }
  }
}

function update() {
  if (gameState !== 'playing') return;
  if (pause > 0) { pause -= 1; return; }
  updateQbert();
  if (gameState !== 'playing' || pause > 0) return;
  spawnEnemy();
  updateEnemies();
  checkHits();
}

function drawCube(r, c) {
  const x = cellX(r, c), y = cellY(r);
  const pal = PALETTES[round % PALETTES.length];
  const col = pal[tops[r][c]];
  fill(col[0], col[1], col[2]);
  const a = 24 * S, b = 12 * S;
  quad(x - a, y, x, y - b, x + a, y, x, y + b);
  fill(110, 70, 40);
  quad(x - a, y, x, y + b, x, y + 3 * b, x - a, y + 2 * b);
  fill(60, 40, 30);
  quad(x, y + b, x + a, y, x + a, y + 2 * b, x, y + 3 * b);
}

function draw() {
  update();
  background(0);
  noStroke();
  for (let r = 0; r < ROWS; r++) for (let c = 0; c <= r; c++) drawCube(r, c);
  // discs, beside the pyramid
  fill(230, 230, 255);
  for (const d of discs) {
    const c = d.side < 0 ? -1 : d.r + 1;
    ellipse(cellX(d.r, c), cellY(d.r) + 4 * S, 26 * S, 10 * S);
  }
  // enemies
  for (const e of enemies) {
    const [x, y] = posOf(e);
    if (e.kind === 'red') { fill(230, 40, 40); ellipse(x, y - 6 * S, 16 * S, 16 * S); }
    else if (!e.hatched) { fill(170, 70, 220); ellipse(x, y - 6 * S, 18 * S, 18 * S); }
    else { fill(170, 70, 220); rect(x - 6 * S, y - 28 * S, 12 * S, 28 * S); rect(x - 10 * S, y - 32 * S, 20 * S, 10 * S); }
  }
  // Q*bert: orange body with a snout
  if (gameState === 'playing' || q.mode !== 'fall') {
    let x, y;
    if (q.mode === 'disc') { x = cellX(0, 0); y = cellY(0) - 8 - discRide * 4; }
    else if (q.mode === 'fall') { [x, y] = posOf({ r: q.r, c: q.c, fr: q.fr, fc: q.fc, t: OPT.hopFrames }); y += q.t * 8; }
    else [x, y] = posOf(q);
    fill(250, 130, 20);
    ellipse(x, y - 12 * S, 22 * S, 22 * S);
    rect(x + 4 * S, y - 12 * S, 10 * S, 6 * S);
    rect(x - 8 * S, y - 4 * S, 6 * S, 6 * S);
    rect(x + 2 * S, y - 4 * S, 6 * S, 6 * S);
  }
  // HUD: score and lives as small squares
  fill(250, 130, 20);
  textSize(20);
  textAlign(LEFT, TOP);
  text(score, 10, 6);
  for (let i = 0; i < lives; i++) rect(W - 20 - i * 14, 10, 10, 10);
}
