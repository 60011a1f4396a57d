// Breakout: a clone of Atari 2600 Breakout, as in the ALE "Breakout" task.
//
// Six rows of bricks (from the top: red, orange, yellow, green, aqua, blue worth
// 7, 7, 4, 4, 1, 1 points) sit under a grey top wall. The agent moves a paddle at
// the bottom and launches the ball with SPACE. The ball speeds up after 4 and 12
// brick hits and the first time it breaks an orange and a red brick; the paddle
// shrinks to half width once the ball breaks through and hits the top wall.
// Where the ball lands on the paddle sets its angle.
//
// Canvas: 400x400.
// Actions (default table):
//   0 NOOP; 1 LEFT held / 2 RIGHT held: move the paddle;
//   5 SPACE tapped: launch the ball when it rests on the paddle (else nothing);
//   6 LEFT + SPACE, 7 RIGHT + SPACE: move and launch; 3 UP, 4 DOWN: NOOP.
// Scoring: brick points (7,7,4,4,1,1 by row, top first); no penalty for a lost
//   ball. Two full walls give 2 * 16 * 6 bricks = 768 points max.
// Termination: 'gameover' when the last of `lives` balls is lost; 'won' when
//   `walls` walls have been cleared. lives = balls left (5 at the start).
//   A ball left resting on the paddle launches by itself after `autoLaunch`
//   frames, so an agent that never fires still reaches the end.
// GAME_OPTIONS keys (defaults):
//   lives: 5            balls per game
//   walls: 2            walls to clear to win (a new wall appears after each)
//   cols: 16            bricks per row
//   ballSpeed: 5        vertical ball speed at launch (px/frame)
//   speedStep: 0.75     speed added by each speed-up (5 speed-ups max)
//   paddleSpeed: 8      paddle speed (px/frame)
//   paddleWidth: 56     paddle width (half of it after the break-through)
//   shrinkPaddle: true  halve the paddle after the ball hits the top wall
//   autoLaunch: 180     frames before a resting ball launches by itself (0 = never)
// Simplifications: the ball rests on the paddle and is launched from there (the
//   2600 serves it from below the wall); 16 bricks per row instead of 18; the
//   angle from the paddle is continuous, not the 2600's five zones; speed-ups
//   and the paddle size reset when a ball is lost.

const W = 400;
const H = 400;
const OPT = Object.assign({
  lives: 5,
  walls: 2,
  cols: 16,
  ballSpeed: 5,
  speedStep: 0.75,
  paddleSpeed: 8,
  paddleWidth: 56,
  shrinkPaddle: true,
  autoLaunch: 180,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const WALL = 10;                 // side and top wall thickness
const WALL_TOP = 40;                  // top wall's top edge (HUD above)
const ROWS = 6;
const BRICK_TOP = 96;            // first brick row's top edge
const BRICK_H = 14;
const PADDLE_Y = 364;
const PADDLE_H = 10;
const BALL = 10;
const ROW_COLORS = [[212, 64, 64], [226, 128, 48], [222, 200, 60], [72, 184, 72], [60, 196, 206], [66, 96, 228]];
const ROW_POINTS = [7, 7, 4, 4, 1, 1];

let rng;
let score, lives, gameState;
let bricks;                      // bricks[r * cols + c] = 1 if present
let bricksLeft, wallsCleared;
let paddleX, paddleW;            // paddle centre and width
let bx, by, vx, vy, speed;       // ball top-left, velocity, vertical speed
let resting, restTimer;          // ball waiting on the paddle for a launch
let hits, hitOrange, hitRed, hitTop;
let brickW;

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
  wallsCleared = 0;
  brickW = (W - 2 * WALL) / OPT.cols;
  paddleX = W / 2;
  newWall();
  newBall();
}

function newWall() {
  bricks = [];
  for (let i = 0; i < ROWS * OPT.cols; i++) bricks.push(1);
  bricksLeft = ROWS * OPT.cols;
}

function newBall() {
  resting = true;
  restTimer = 0;
  hits = 0;
  hitOrange = false;
  hitRed = false;
  hitTop = false;
  paddleW = OPT.paddleWidth;
  speed = OPT.ballSpeed;
  vx = 0;
  vy = 0;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32 && resting && gameState === 'playing') launch();
}

function launch() {
  resting = false;
  // a random angle up and to either side
  vx = (rng() < 0.5 ? -1 : 1) * (1 + Math.floor(rng() * 4) * 0.75);
  vy = -speed;
}

function speedUp() {
  const level = (hits >= 4 ? 1 : 0) + (hits >= 12 ? 1 : 0) + (hitOrange ? 1 : 0) + (hitRed ? 1 : 0);
  const s = OPT.ballSpeed + level * OPT.speedStep;
  if (s !== speed) {
    vx = vx * s / speed;
    vy = vy > 0 ? s : -s;
    speed = s;
  }
}

function hitBrick(r, c) {
  bricks[r * OPT.cols + c] = 0;
  bricksLeft -= 1;
  score += ROW_POINTS[r];
  hits += 1;
  if (r === 1) hitOrange = true;
  if (r === 0) hitRed = true;
  speedUp();
  if (bricksLeft === 0) {
    wallsCleared += 1;
    if (wallsCleared >= OPT.walls) { gameState = 'won'; return; }
    newWall();
    newBall();
  }
}

// Math.min/max/abs throughout rather than p5's min/max/abs: the same results for
// numbers, without p5's JS wrappers (min/max copy their arguments into an array)

// find a brick overlapping the ball rectangle, returns index or -1
function brickAt() {
  const r0 = Math.floor((by - BRICK_TOP) / BRICK_H), r1 = Math.floor((by + BALL - 1 - BRICK_TOP) / BRICK_H);
  if (r1 < 0 || r0 > ROWS - 1) return -1;       // the ball is above or below the wall
  const c0 = Math.floor((bx - WALL) / brickW), c1 = Math.floor((bx + BALL - 1 - WALL) / brickW);
  const cols = OPT.cols, rEnd = Math.min(r1, ROWS - 1), cEnd = Math.min(c1, cols - 1);
  for (let r = Math.max(r0, 0); r <= rEnd; r++) {
    for (let c = Math.max(c0, 0); c <= cEnd; c++) {
      if (bricks[r * cols + c]) return r * cols + c;
    }
  }
  return -1;
}

function moveBall() {
  // move in sub-steps of at most 4 px so the ball cannot skip a brick row
  const n = Math.ceil(Math.max(Math.abs(vx), Math.abs(vy)) / 4);
  let brickHit = false;
  for (let i = 0; i < n; i++) {
    const px = bx, py = by;
    bx += vx / n;
    by += vy / n;
    if (bx < WALL) { bx = 2 * WALL - bx; vx = Math.abs(vx); }
    if (bx + BALL > W - WALL) { bx = 2 * (W - WALL - BALL) - bx; vx = -Math.abs(vx); }
    if (by < WALL_TOP + WALL) {
      by = 2 * (WALL_TOP + WALL) - by; vy = Math.abs(vy);
      if (!hitTop) { hitTop = true; if (OPT.shrinkPaddle) paddleW = OPT.paddleWidth / 2; }
    }
    if (!brickHit) {
      const k = brickAt();
      if (k >= 0) {
        brickHit = true;                        // one brick per frame
        const r = Math.floor(k / OPT.cols), c = k % OPT.cols;
        const left = WALL + c * brickW;
        // came in from the side if the previous position did not overlap the brick's columns
        if (px + BALL <= left || px >= left + brickW) vx = -vx;
        else vy = -vy;
        bx = px; by = py;
        hitBrick(r, c);
        if (resting || gameState !== 'playing') return;
      }
    }
    // paddle: only while moving down and crossing the paddle's top edge
    if (vy > 0 && py + BALL <= PADDLE_Y && by + BALL >= PADDLE_Y &&
        bx + BALL > paddleX - paddleW / 2 && bx < paddleX + paddleW / 2) {
      by = PADDLE_Y - BALL;
      const off = (bx + BALL / 2 - paddleX) / (paddleW / 2 + BALL / 2);
      // never straight up: at least a quarter of the vertical speed sideways
      const dir = off > 0 || (off === 0 && vx > 0) ? 1 : -1;
      // plus a little seeded jitter so a ball cannot settle into an endless loop
      vx = dir * Math.max(Math.abs(constrain(off, -1, 1)), 0.2) * speed * 1.25 + (rng() - 0.5) * 0.5;
      vy = -speed;
    }
  }
  if (by > H) {
    lives -= 1;
    if (lives <= 0) { lives = 0; gameState = 'gameover'; }
    else newBall();
  }
}

function update() {
  if (gameState !== 'playing') return;
  if (keyIsDown(LEFT_ARROW)) paddleX -= OPT.paddleSpeed;
  if (keyIsDown(RIGHT_ARROW)) paddleX += OPT.paddleSpeed;
  paddleX = constrain(paddleX, WALL + paddleW / 2, W - WALL - paddleW / 2);
  if (resting) {
    bx = paddleX - BALL / 2;
    by = PADDLE_Y - BALL;
    restTimer += 1;
    if (OPT.autoLaunch > 0 && restTimer >= OPT.autoLaunch) launch();
    return;
  }
  moveBall();
}

function draw() {
  update();
  background(0);
  noStroke();
  // walls
  fill(142, 142, 142);
  rect(0, WALL_TOP, W, WALL);
  rect(0, WALL_TOP, WALL, H - WALL_TOP);
  rect(W - WALL, WALL_TOP, WALL, H - WALL_TOP);
  // bricks
  const cols = OPT.cols;
  for (let r = 0; r < ROWS; r++) {
    const col = ROW_COLORS[r], y = BRICK_TOP + r * BRICK_H;
    fill(col[0], col[1], col[2]);
    // one rect per run of standing bricks (they touch: the row is one colour)
    let c = 0;
    while (c < cols) {
      if (!bricks[r * cols + c]) { c++; continue; }
      let e = c + 1;
      while (e < cols && bricks[r * cols + e]) e++;
      rect(WALL + c * brickW, y, (e - c) * brickW, BRICK_H);
      c = e;
    }
  }
  // paddle and ball
  fill(200, 72, 72);
  rect(paddleX - paddleW / 2, PADDLE_Y, paddleW, PADDLE_H);
  if (gameState === 'playing') {
    fill(236, 236, 236);
    rect(bx, by, BALL, BALL);
  }
  // HUD: score, lives
  fill(142, 142, 142);
  textSize(24);
  textAlign(LEFT, TOP);
  text(score, 16, 8);
  textAlign(RIGHT, TOP);
  text(lives, W - 16, 8);
}
