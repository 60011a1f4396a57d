// Plinko: drop balls through a field of pegs into scoring slots (a matter-js game).
//
// The physics is matter-js (the global Matter, which jsgym loads for games that use
// it): pegs and walls are static bodies, each ball a circle that bounces down into
// one of seven slots. The dropper moves along the top; the slots pay 1-2-5-10-5-2-1
// from left to right, so aiming for the middle pays, and the pegs make aiming a
// matter of where, on average, a ball lands from each dropper position.
//
// Canvas: 400x400.
// Actions (default table): 1 LEFT / 2 RIGHT held move the dropper; 5 SPACE tapped
//   drops a ball (one at a time: the next once the last has landed); 6, 7: move and
//   drop; 0, 3, 4: nothing.
// Scoring: the slot's value for every ball that lands; a ball that has not landed
//   within 600 frames scores 0.
// Termination: gameState 'gameover' once the last ball has landed; 'won' is never
//   used. lives = balls still to drop (including one in flight).
// GAME_OPTIONS keys (defaults):
//   numBalls: 10        balls per episode
//   pegRows: 7          rows of pegs
// Randomness: the peg field's jitter comes from mulberry32(seed); matter-js's own
//   random source (Matter.Common.random, here a ball's spin) restarts from the seed
//   at every episode start in both backends.

const W = 400;
const H = 400;
const OPT = Object.assign({
  numBalls: 10,
  pegRows: 7,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const { Engine, Bodies, Composite, Body } = Matter;
const SLOT_VALUES = [1, 2, 5, 10, 5, 2, 1];
const SLOT_W = W / SLOT_VALUES.length;
const SLOT_TOP = H - 60;
const BALL_R = 9;
const PEG_R = 5;

let rng, engine;
let score, ballsLeft, gameState;
let dropX, ball, ballAge, walls, pegs, pegHome, lastSlot, flash;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  // The static bodies are made once (a matter-js body takes a while to build in an
  // interpreter); every episode moves the pegs to its own layout and puts them into a
  // fresh engine, so an episode depends on its seed alone.
  walls = [
    Bodies.rectangle(-10, H / 2, 20, H * 2, { isStatic: true }),
    Bodies.rectangle(W + 10, H / 2, 20, H * 2, { isStatic: true }),
    Bodies.rectangle(W / 2, H + 10, W, 20, { isStatic: true }),
  ];
  for (let i = 1; i < SLOT_VALUES.length; i++)
    walls.push(Bodies.rectangle(i * SLOT_W, SLOT_TOP + 30, 4, 60, { isStatic: true }));
  pegs = [];
  pegHome = [];
  for (let r = 0; r < OPT.pegRows; r++) {
    const n = r % 2 ? 8 : 9;
    for (let c = 0; c < n; c++) {
      const x = (c + (r % 2 ? 1 : 0.5)) * (W / 9), y = 90 + r * 32;
      pegHome.push({ x: x, y: y });
      pegs.push(Bodies.circle(x, y, PEG_R, { isStatic: true, restitution: 0.5 }));
    }
  }
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  engine = Engine.create();
  engine.gravity.y = 1;
  for (let i = 0; i < pegs.length; i++)
    Body.setPosition(pegs[i], { x: pegHome[i].x + (rng() - 0.5) * 10, y: pegHome[i].y });
  Composite.add(engine.world, walls.concat(pegs));
  score = 0;
  ballsLeft = OPT.numBalls;
  gameState = 'playing';
  dropX = W / 2;
  ball = null;
  ballAge = 0;
  lastSlot = -1;
  flash = 0;
}

function keyPressed() {
  if (keyCode === 32 && !ball && gameState === 'playing') {
    ball = Bodies.circle(dropX, 40, BALL_R, { restitution: 0.4, friction: 0.02 });
    Body.setAngularVelocity(ball, (Matter.Common.random() - 0.5) * 0.2);
    Composite.add(engine.world, ball);
    ballAge = 0;
  }
}

function land(points, slot) {
  score += points;
  ballsLeft -= 1;
  lastSlot = slot;
  flash = 20;
  Composite.remove(engine.world, ball);
  ball = null;
  if (ballsLeft <= 0) gameState = 'gameover';
}

function draw() {
  if (gameState === 'playing') {
    if (keyIsDown(LEFT_ARROW)) dropX -= 4;
    if (keyIsDown(RIGHT_ARROW)) dropX += 4;
    dropX = constrain(dropX, BALL_R + 2, W - BALL_R - 2);
    Engine.update(engine, 1000 / 60);
    if (ball) {
      ballAge += 1;
      const p = ball.position;
      if (p.y > SLOT_TOP + 20 && Math.abs(ball.velocity.y) < 0.5) {
        const slot = constrain(Math.floor(p.x / SLOT_W), 0, SLOT_VALUES.length - 1);
        land(SLOT_VALUES[slot], slot);
      } else if (ballAge > 600) {
        land(0, -1);
      }
    }
  }
  if (flash > 0) flash -= 1;

  background(18, 22, 40);
  noStroke();
  for (let i = 0; i < SLOT_VALUES.length; i++) {
    const v = SLOT_VALUES[i];
    fill(i === lastSlot && flash > 0 ? color(250, 220, 90) : color(40 + v * 14, 60, 110 - v * 4));
    rect(i * SLOT_W + 2, SLOT_TOP, SLOT_W - 4, H - SLOT_TOP);
    fill(240);
    textAlign(CENTER, CENTER);
    textSize(16);
    text(v, i * SLOT_W + SLOT_W / 2, H - 20);
  }
  fill(160, 170, 200);
  for (const peg of pegs) circle(peg.position.x, peg.position.y, PEG_R * 2);
  fill(90, 220, 140);
  triangle(dropX - 10, 16, dropX + 10, 16, dropX, 30);
  if (ball) {
    push();
    translate(ball.position.x, ball.position.y);
    rotate(ball.angle);
    fill(250, 110, 80);
    circle(0, 0, BALL_R * 2);
    stroke(255);
    strokeWeight(2);
    line(0, 0, BALL_R - 2, 0);
    pop();
  }
  noStroke();
  fill(235);
  textAlign(LEFT, TOP);
  textSize(16);
  text('Score ' + score + '   Balls ' + ballsLeft, 10, 50);
}

function getGameState() {
  return { score: score, lives: ballsLeft, gameState: gameState };
}
