// Flappy Bird: an original take on the 2013 mobile game.
//
// A yellow bird flies right through an endless row of green pipes; each pipe
// pair leaves a gap. Gravity pulls the bird down; every flap stops the fall and
// lifts it a little, and flapping on consecutive frames climbs fast. Touching a
// pipe or the ground ends the game; the sky has a soft ceiling (the bird bumps
// its head but survives). Each pipe passed scores a point.
//
// Canvas: 400x400.
// Actions (default table):
//   5 SPACE tapped: flap once; 3 UP held: flap every frame (climb);
//   6 LEFT + SPACE, 7 RIGHT + SPACE: flap (LEFT/RIGHT do nothing);
//   0 NOOP, 1 LEFT, 2 RIGHT, 4 DOWN: no flap (fall).
// Scoring: +1 each time a pipe's centre passes the bird. No negative rewards.
// Termination: 'gameover' on touching a pipe or the ground (one life);
//   'won' after `winScore` pipes (0 = never). lives = 1 while alive, 0 after.
// GAME_OPTIONS keys (defaults):
//   gravity: 0.5        px/frame^2 downwards
//   flap: 0.72          upward speed a flap adds (a flap first cancels any fall)
//   maxRise: 5          fastest climb (px/frame)
//   maxFall: 7          fastest fall (px/frame)
//   speed: 2.5          pipe scroll speed (px/frame)
//   spacing: 180        horizontal distance between pipes (px)
//   gap: 120            gap height (px)
//   gapShrink: 1        gap gets this much smaller per pipe passed ...
//   minGap: 90          ... down to this
//   maxShift: 80        largest change of gap centre from one pipe to the next
//   winScore: 100       pipes to pass to win (0 = endless)
// Simplifications: flaps are small additive lifts rather than one big hop (so
//   that mashing SPACE hovers and holding UP climbs); no day/night or medals.

const W = 400;
const H = 400;
const OPT = Object.assign({
  gravity: 0.5,
  flap: 0.72,
  maxRise: 5,
  maxFall: 7,
  speed: 2.5,
  spacing: 180,
  gap: 120,
  gapShrink: 1,
  minGap: 90,
  maxShift: 80,
  winScore: 100,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const GROUND_Y = 360;            // top of the ground strip
const BIRD_X = 100;              // bird centre x
const BIRD_W = 24, BIRD_H = 18;  // bird hitbox
const PIPE_W = 52;
const CEIL = 4;                  // soft ceiling

let rng;
let score, lives, gameState;
let by, vy;                      // bird centre y and vertical speed
let pipes;                       // [{x (left edge), gy (gap centre), gap, passed}]
let flapReq, wingT, frames, groundOff;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 1;
  gameState = 'playing';
  by = 200;
  vy = 0;
  flapReq = false;
  wingT = 0;
  frames = 0;
  groundOff = 0;
  pipes = [];
  // the first gap is centred on the bird's start height, close enough to pass soon
  pipes.push({ x: 170, gy: 200, gap: OPT.gap, passed: false });
  while (pipes[pipes.length - 1].x < W + OPT.spacing) addPipe();
}

function currentGap() {
  return max(OPT.minGap, OPT.gap - OPT.gapShrink * score);
}

function addPipe() {
  const last = pipes[pipes.length - 1];
  const gap = currentGap();
  const lo = 40 + gap / 2, hi = GROUND_Y - 30 - gap / 2;
  let gy = last.gy + (rng() * 2 - 1) * OPT.maxShift;
  gy = constrain(gy, lo, hi);
  pipes.push({ x: last.x + OPT.spacing, gy: gy, gap: gap, passed: false });
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) flapReq = true;
}

function crash() {
  lives = 0;
  gameState = 'gameover';
}

function update() {
  if (gameState !== 'playing') { flapReq = false; return; }
  frames += 1;
  // flap: cancel any fall, then add lift
  if (flapReq || keyIsDown(UP_ARROW)) {
    vy = max(min(vy, 0) - OPT.flap, -OPT.maxRise);
    wingT = 6;
  }
  flapReq = false;
  vy = min(vy + OPT.gravity, OPT.maxFall);
  by += vy;
  if (by - BIRD_H / 2 < CEIL) { by = CEIL + BIRD_H / 2; vy = max(vy, 0); }
  if (wingT > 0) wingT -= 1;

  // pipes scroll; score when a pipe's centre passes the bird
  for (const p of pipes) {
    p.x -= OPT.speed;
    if (!p.passed && p.x + PIPE_W / 2 < BIRD_X) {
      p.passed = true;
      score += 1;
      if (OPT.winScore > 0 && score >= OPT.winScore) { gameState = 'won'; return; }
    }
  }
  while (pipes.length && pipes[0].x + PIPE_W < 0) pipes.shift();
  while (pipes[pipes.length - 1].x < W + OPT.spacing) addPipe();
  groundOff = (groundOff + OPT.speed) % 40;

  // collisions
  if (by + BIRD_H / 2 >= GROUND_Y) { by = GROUND_Y - BIRD_H / 2; crash(); return; }
  const l = BIRD_X - BIRD_W / 2, r = BIRD_X + BIRD_W / 2, t = by - BIRD_H / 2, b = by + BIRD_H / 2;
  for (const p of pipes) {
    if (r > p.x && l < p.x + PIPE_W && (t < p.gy - p.gap / 2 || b > p.gy + p.gap / 2)) { crash(); return; }
  }
}

function draw() {
  update();
  background(18, 22, 58);                      // night sky
  noStroke();
  // pipes: green with a lighter lip at the gap
  for (const p of pipes) {
    const top = p.gy - p.gap / 2, bot = p.gy + p.gap / 2;
    fill(60, 180, 70);
    rect(p.x, 0, PIPE_W, top);
    rect(p.x, bot, PIPE_W, GROUND_Y - bot);
    fill(120, 230, 110);
    rect(p.x - 4, top - 16, PIPE_W + 8, 16);
    rect(p.x - 4, bot, PIPE_W + 8, 16);
  }
  // ground: brown with moving stripes
  fill(150, 100, 50);
  rect(0, GROUND_Y, W, H - GROUND_Y);
  fill(110, 200, 70);
  rect(0, GROUND_Y, W, 8);
  fill(120, 80, 40);
  for (let x = -groundOff; x < W; x += 40) rect(x, GROUND_Y + 16, 20, 8);
  // bird: yellow body, white eye, orange beak, wing (up while flapping)
  push();
  translate(BIRD_X, by);
  rotate(constrain(vy * 0.08, -0.5, 0.6));
  fill(250, 210, 40);
  ellipse(0, 0, BIRD_W + 4, BIRD_H + 2);
  fill(250, 250, 250);
  ellipse(6, -4, 9, 9);
  fill(20, 20, 20);
  rect(7, -5, 3, 3);
  fill(250, 120, 30);
  triangle(10, -1, 20, 2, 10, 5);
  fill(230, 170, 20);
  if (wingT > 0) triangle(-10, 0, 2, 0, -6, -12);
  else triangle(-10, 0, 2, 0, -6, 9);
  pop();
  // HUD: score
  fill(250, 250, 250);
  textSize(24);
  textAlign(CENTER, TOP);
  text(score, W / 2, 8);
}
