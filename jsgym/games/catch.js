// Catch: a trivial test game with a known optimal policy.
//
// Not an Atari original: the classic "catch" toy task used to test RL trainers.
// One ball at a time falls straight down from a random column; a paddle at the
// bottom catches it. The optimal policy is "move under the ball": the paddle is
// fast enough to reach any column from any position before the ball lands, so a
// perfect agent scores +numBalls.
//
// Canvas: 400x400.
// Actions (default table):
//   0 NOOP; 1 LEFT held: paddle moves left; 2 RIGHT held: paddle moves right;
//   3 UP, 4 DOWN, 5 SPACE: no effect (same as NOOP);
//   6 LEFT + SPACE = LEFT; 7 RIGHT + SPACE = RIGHT.
// Scoring: +1 for each caught ball, -1 for each missed ball (score can be negative).
// Termination: gameState 'gameover' once the last ball has landed (caught or
//   missed); 'won' is never used. lives = balls still to come (including the one
//   falling), so it counts down to 0.
// GAME_OPTIONS keys (defaults):
//   numBalls: 10        balls per episode
//   ballSpeed: 12       pixels per frame the ball falls
//   paddleSpeed: 16     pixels per frame the paddle moves while a key is held
//   paddleWidth: 80     paddle width in pixels
//   columns: 10         number of columns a ball can drop from
// Simplifications: none to speak of; the ball falls vertically, no physics.

const W = 400;
const H = 400;
const OPT = Object.assign({
  numBalls: 10,
  ballSpeed: 12,
  paddleSpeed: 16,
  paddleWidth: 80,
  columns: 10,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const BALL = 24;          // ball side (square)
const PADDLE_H = 16;
const PADDLE_Y = H - 40;  // top of the paddle

let rng;
let score, ballsLeft, gameState;
let paddleX;              // centre of the paddle
let ballX, ballY;         // centre x, top y of the ball
let flash, flashColor;    // frames of feedback after a catch or miss

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  ballsLeft = OPT.numBalls;
  gameState = 'playing';
  paddleX = W / 2;
  flash = 0;
  flashColor = 0;
  spawnBall();
}

function spawnBall() {
  const colW = W / OPT.columns;
  const col = Math.floor(rng() * OPT.columns);
  ballX = Math.floor(col * colW + colW / 2);
  ballY = 0;
}

function getGameState() {
  return { score: score, lives: ballsLeft, gameState: gameState };
}

function update() {
  if (gameState !== 'playing') return;
  if (keyIsDown(LEFT_ARROW)) paddleX -= OPT.paddleSpeed;
  if (keyIsDown(RIGHT_ARROW)) paddleX += OPT.paddleSpeed;
  const half = OPT.paddleWidth / 2;
  paddleX = constrain(paddleX, half, W - half);

  ballY += OPT.ballSpeed;
  if (ballY + BALL >= PADDLE_Y) {
    // the ball has reached the paddle's height: caught or missed
    const caught = abs(ballX - paddleX) <= half + BALL / 2;
    score += caught ? 1 : -1;
    flash = 6;
    flashColor = caught ? 1 : 2;
    ballsLeft -= 1;
    if (ballsLeft <= 0) gameState = 'gameover';
    else spawnBall();
  }
  if (flash > 0) flash -= 1;
}

function draw() {
  update();
  background(10, 10, 30);
  noStroke();
  // floor strip shows the outcome of the last ball (green caught, red missed)
  if (flash > 0 && flashColor === 1) fill(40, 200, 80);
  else if (flash > 0 && flashColor === 2) fill(220, 40, 40);
  else fill(50, 50, 80);
  rect(0, H - 16, W, 16);
  // ball
  if (gameState === 'playing') {
    fill(255, 220, 40);
    rect(ballX - BALL / 2, ballY, BALL, BALL);
  }
  // paddle
  fill(60, 200, 255);
  rect(paddleX - OPT.paddleWidth / 2, PADDLE_Y, OPT.paddleWidth, PADDLE_H);
  // HUD: balls remaining as small pips (top-left), score as text (top-right)
  fill(120, 120, 160);
  for (let i = 0; i < ballsLeft; i++) rect(8 + i * 12, 8, 8, 8);
  fill(230);
  textSize(16);
  textAlign(RIGHT, TOP);
  text(score, W - 8, 6);
}
