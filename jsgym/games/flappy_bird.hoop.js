// Flappy Bird (hoop variant): games/flappy_bird.js with one change: the bird
// scores by flying THROUGH hoops instead of passing pipes. Each pipe pair is
// replaced by an orange hoop standing on a post: the hoop's opening is where
// the pipe gap was, its rims and the post below are solid, and the open sky
// above a hoop is safe (flying over it scores nothing). Physics, spacing and
// gap sizes are the parent's.
//
// Parent description: a yellow bird flies right; gravity pulls it down; every
// flap stops the fall and lifts it a little, and flapping on consecutive frames
// climbs fast. Touching a solid part or the ground ends the game; the sky has a
// soft ceiling (the bird bumps its head but survives).
//
// Canvas: 400x400.
// Actions (default table):
//   5 SPACE tapped: flap once; 3 UP held: flap every frame (climb);
//   6 LEFT + SPACE, 7 RIGHT + SPACE: flap (LEFT/RIGHT do nothing);
//   0 NOOP, 1 LEFT, 2 RIGHT, 4 DOWN: no flap (fall).
// Scoring: +1 for each hoop flown through (the bird's centre is inside the
//   opening when the hoop's centre passes it). No negative rewards.
// Termination: 'gameover' on touching a rim, a post or the ground (one life);
//   'won' after `winScore` hoops (0 = never). lives = 1 while alive, 0 after.
// GAME_OPTIONS keys (defaults):
//   gravity: 0.5        px/frame^2 downwards
//   flap: 0.72          upward speed a flap adds (a flap first cancels any fall)
//   maxRise: 5          fastest climb (px/frame)
//   maxFall: 7          fastest fall (px/frame)
//   speed: 2.5          pipe scroll speed (px/frame)
//   spacing: 180        horizontal distance between hoops (px)
//   gap: 120            hoop opening height (px)
//   gapShrink: 1        opening gets this much smaller per hoop scored ...
//   minGap: 90          ... down to this
//   maxShift: 80        largest change of opening centre from one hoop to the next
//   winScore: 100       hoops to fly through to win (0 = endless)
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
const PIPE_W = 52;               // hoop slot width (one hoop per slot, centred)
const HOOP_W = 36;               // drawn hoop width
const RIM = 14;                  // rim thickness above and below the opening
const POST_W = 10;
const CEIL = 4;                  // soft ceiling

let rng;
let score, lives, gameState;
let by, vy;                      // bird centre y and vertical speed
let pipes;                       // hoops: [{x (slot left edge), gy (opening centre), gap, passed, hit}]
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
  pipes.push({ x: 170, gy: 200, gap: OPT.gap, passed: false, hit: false });
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
  pipes.push({ x: last.x + OPT.spacing, gy: gy, gap: gap, passed: false, hit: false });
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

  // hoops scroll; score when a hoop's centre passes the bird inside the opening
  for (const p of pipes) {
    p.x -= OPT.speed;
    if (!p.passed && p.x + PIPE_W / 2 < BIRD_X) {
      p.passed = true;
      if (abs(by - p.gy) < p.gap / 2) {
        p.hit = true;
        score += 1;
        if (OPT.winScore > 0 && score >= OPT.winScore) { gameState = 'won'; return; }
      }
    }
  }
  while (pipes.length && pipes[0].x + PIPE_W < 0) pipes.shift();
  while (pipes[pipes.length - 1].x < W + OPT.spacing) addPipe();
  groundOff = (groundOff + OPT.speed) % 40;

  // collisions
  if (by + BIRD_H / 2 >= GROUND_Y) { by = GROUND_Y - BIRD_H / 2; crash(); return; }
  const l = BIRD_X - BIRD_W / 2, r = BIRD_X + BIRD_W / 2, t = by - BIRD_H / 2, b = by + BIRD_H / 2;
  for (const p of pipes) {
    const cx = p.x + PIPE_W / 2, top = p.gy - p.gap / 2, bot = p.gy + p.gap / 2;
    // top rim, bottom rim and the post down to the ground
    if (r > cx - HOOP_W / 2 && l < cx + HOOP_W / 2 && ((b > top - RIM && t < top) || (b > bot && t < bot + RIM))) { crash(); return; }
    if (r > cx - POST_W / 2 && l < cx + POST_W / 2 && b > bot) { crash(); return; }
  }
}

function draw() {
  update();
  background(18, 22, 58);                      // night sky
  noStroke();
  // hoops: grey post, orange ring (green once flown through), solid rims
  for (const p of pipes) {
    const cx = p.x + PIPE_W / 2, top = p.gy - p.gap / 2, bot = p.gy + p.gap / 2;
    fill(120, 120, 140);
    rect(cx - POST_W / 2, bot, POST_W, GROUND_Y - bot);
    if (p.hit) fill(90, 220, 90); else fill(245, 140, 40);
    ellipse(cx, p.gy, HOOP_W, p.gap + 2 * RIM);
    fill(18, 22, 58);
    ellipse(cx, p.gy, HOOP_W - 18, p.gap);
    if (p.hit) fill(90, 220, 90); else fill(245, 140, 40);
    rect(cx - HOOP_W / 2, top - RIM, HOOP_W, RIM);
    rect(cx - HOOP_W / 2, bot, HOOP_W, RIM);
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
