// Pong: a clone of Atari 2600 Pong (Video Olympics), as in the ALE "Pong" task.
//
// The agent controls the green paddle on the right; the CPU controls the orange
// paddle on the left and tracks the ball with a limited speed, so steep, fast
// shots (hit the ball with the paddle's edge) get past it. Each paddle hit speeds
// the ball up; where the ball meets the paddle sets its vertical speed (spin).
//
// Canvas: 400x400.
// Actions (default table):
//   0 NOOP; 3 UP held: paddle moves up; 4 DOWN held: paddle moves down;
//   1 LEFT, 2 RIGHT, 5 SPACE, 6, 7: no effect (same as NOOP).
// Scoring: +1 when the ball gets past the CPU paddle, -1 when it gets past the
//   agent's paddle (score = agent points - CPU points, as the ALE reward sums).
// Termination: first side to `winPoints` (21) ends the game: gameState 'won' if
//   the agent got there, else 'gameover'. lives = winPoints - CPU points.
// GAME_OPTIONS keys (defaults):
//   winPoints: 21       points that end the game
//   ballSpeed: 5        horizontal ball speed at each serve (px/frame)
//   maxBallSpeed: 10    horizontal speed cap after paddle hits
//   speedUp: 0.35       horizontal speed added per paddle hit
//   spin: 6             max vertical speed given by a hit at the paddle's edge
//   paddleSpeed: 6      agent paddle speed (px/frame)
//   cpuSpeed: 3         CPU paddle max speed (px/frame)
//   paddleHeight: 48    both paddles' height
//   serveDelay: 8       frames the ball waits in the centre before a serve
// CPU: follows the ball only once it heads its way through the CPU's 60% of the
//   court, aiming at a point up to 16 px off the ball's centre (re-drawn at each
//   hit), and drifts back to the middle otherwise.
// Simplifications: no paddle "wobble" or the 2600's discrete angle zones
//   (spin is continuous), the ball is always served from the centre towards the
//   side that just lost the point, score digits are plain text.

const W = 400;
const H = 400;
const OPT = Object.assign({
  winPoints: 21,
  ballSpeed: 5,
  maxBallSpeed: 10,
  speedUp: 0.35,
  spin: 6,
  paddleSpeed: 6,
  cpuSpeed: 3,
  paddleHeight: 48,
  serveDelay: 8,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const FIELD_TOP = 40;            // playfield top (below the wall)
const FIELD_BOTTOM = H - 16;     // playfield bottom (above the wall)
const BALL = 12;
const PADDLE_W = 12;
const AGENT_X = W - 40;    // left edge of the agent's paddle
const CPU_X = 30;          // left edge of the CPU's paddle

let rng;
let agentPts, cpuPts, gameState;
let agentY, cpuY;          // paddle top edges
let bx, by, vx, vy;        // ball top-left and velocity
let serveTimer, serveDir;
let cpuAim;                // CPU's aiming error, re-drawn at every hit and serve

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  agentPts = 0;
  cpuPts = 0;
  gameState = 'playing';
  const mid = (FIELD_TOP + FIELD_BOTTOM - OPT.paddleHeight) / 2;
  agentY = mid;
  cpuY = mid;
  serveDir = 1;            // first serve goes towards the agent
  newServe();
}

function newServe() {
  bx = (W - BALL) / 2;
  by = FIELD_TOP + Math.floor(rng() * (FIELD_BOTTOM - FIELD_TOP - 80)) + 40 - BALL / 2;
  vx = 0;
  vy = 0;
  serveTimer = OPT.serveDelay;
  cpuAim = 0;
}

function launch() {
  vx = serveDir * OPT.ballSpeed;
  let s = Math.floor(rng() * 5) + 1;       // 1..5
  vy = (rng() < 0.5 ? -1 : 1) * s * 0.6;   // +-0.6 .. +-3.0
}

function getGameState() {
  return { score: agentPts - cpuPts, lives: OPT.winPoints - cpuPts, gameState: gameState };
}

function hitPaddle(py) {
  // spin from the hit position: -1 at the top edge .. +1 at the bottom edge
  const off = (by + BALL / 2 - (py + OPT.paddleHeight / 2)) / (OPT.paddleHeight / 2 + BALL / 2);
  vy = constrain(off, -1, 1) * OPT.spin;
  const speed = min(abs(vx) + OPT.speedUp, OPT.maxBallSpeed);
  cpuAim = Math.floor(rng() * 33) - 16;
  vx = vx > 0 ? -speed : speed;
}

function moveCpu() {
  const centre = cpuY + OPT.paddleHeight / 2;
  // follow the ball once it comes towards the CPU through the CPU's half (aiming
  // at a point off the ball's centre that changes every hit), else drift back
  // to the middle
  const target = vx < 0 && bx < W * 0.6 ? by + BALL / 2 + cpuAim : (FIELD_TOP + FIELD_BOTTOM) / 2;
  const d = target - centre;
  if (abs(d) > 4) cpuY += constrain(d, -OPT.cpuSpeed, OPT.cpuSpeed);
  cpuY = constrain(cpuY, FIELD_TOP, FIELD_BOTTOM - OPT.paddleHeight);
}

function pointScored(agentScored) {
  if (agentScored) agentPts += 1; else cpuPts += 1;
  if (agentPts >= OPT.winPoints) gameState = 'won';
  else if (cpuPts >= OPT.winPoints) gameState = 'gameover';
  serveDir = agentScored ? -1 : 1;         // serve towards the side that lost the point
  newServe();
}

function update() {
  if (gameState !== 'playing') return;
  if (keyIsDown(UP_ARROW)) agentY -= OPT.paddleSpeed;
  if (keyIsDown(DOWN_ARROW)) agentY += OPT.paddleSpeed;
  agentY = constrain(agentY, FIELD_TOP, FIELD_BOTTOM - OPT.paddleHeight);
  moveCpu();

  if (serveTimer > 0) {
    serveTimer -= 1;
    if (serveTimer === 0) launch();
    return;
  }
  const px = bx;
  bx += vx;
  by += vy;
  if (by < FIELD_TOP) { by = FIELD_TOP + (FIELD_TOP - by); vy = -vy; }
  if (by + BALL > FIELD_BOTTOM) { by = 2 * (FIELD_BOTTOM - BALL) - by; vy = -vy; }

  // swept test against each paddle's front face
  if (vx > 0 && px + BALL <= AGENT_X && bx + BALL >= AGENT_X &&
      by + BALL > agentY && by < agentY + OPT.paddleHeight) {
    bx = AGENT_X - BALL;
    hitPaddle(agentY);
  } else if (vx < 0 && px >= CPU_X + PADDLE_W && bx <= CPU_X + PADDLE_W &&
      by + BALL > cpuY && by < cpuY + OPT.paddleHeight) {
    bx = CPU_X + PADDLE_W;
    hitPaddle(cpuY);
  }

  if (bx > W) pointScored(false);
  else if (bx + BALL < 0) pointScored(true);
}

function draw() {
  update();
  background(144, 72, 17);
  noStroke();
  // walls
  fill(236, 236, 236);
  rect(0, FIELD_TOP - 8, W, 8);
  rect(0, FIELD_BOTTOM, W, 8);
  // paddles
  fill(213, 130, 74);
  rect(CPU_X, cpuY, PADDLE_W, OPT.paddleHeight);
  fill(92, 186, 92);
  rect(AGENT_X, agentY, PADDLE_W, OPT.paddleHeight);
  // ball (hidden while waiting to serve, as on the 2600)
  if (serveTimer === 0 && gameState === 'playing') {
    fill(236, 236, 236);
    rect(bx, by, BALL, BALL);
  }
  // score digits in each side's colour
  textSize(24);
  textAlign(CENTER, TOP);
  fill(213, 130, 74);
  text(cpuPts, W / 4, 4);
  fill(92, 186, 92);
  text(agentPts, 3 * W / 4, 4);
}
