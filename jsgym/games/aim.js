// Aim: click the targets before they fade (a pointer game).
//
// An aim trainer as people write them in p5: the game reads mouseX/mouseY and
// mouseIsPressed to draw a crosshair and shoots in mousePressed(). One target at a
// time appears at a random spot near the centre of one of the cells of a 4 x 4 grid
// and shrinks away; a click inside it scores. The optimal policy clicks each target's
// cell at once, so a perfect agent scores +numTargets.
//
// Canvas: 400x400.
// Actions: the game declares JSGYM_ACTIONS = ['NOOP'] and JSGYM_POINTER = {grid:
//   [4, 4]}, so jsgym's action table is 0 NOOP, then 16 left clicks at the centres
//   of the grid's cells (action 1 + row * 4 + col). Any pointer space works too
//   (make_vec(pointer='continuous') or another grid): the game only reads the mouse.
// Scoring: +1 for each target hit, -1 for each target that fades unhit; clicks that
//   miss cost nothing.
// Termination: gameState 'gameover' once the last target is hit or gone; 'won' is
//   never used. lives = targets still to come (including the one shown).
// GAME_OPTIONS keys (defaults):
//   numTargets: 20      targets per episode
//   lifetime: 45        frames a target stays (it shrinks meanwhile)
//   radius: 40          starting radius of a target in pixels
//   gap: 6              frames between one target and the next
// Simplifications: no moving targets, no combo or accuracy bonus.

const W = 400;
const H = 400;
const CELLS = 4;
const CELL = W / CELLS;
const OPT = Object.assign({
  numTargets: 20,
  lifetime: 45,
  radius: 40,
  gap: 6,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const JSGYM_ACTIONS = ['NOOP'];
const JSGYM_POINTER = { grid: [CELLS, CELLS] };

let rng;
let score, targetsLeft, gameState;
let tx, ty, age, wait;   // the target's centre, frames shown, frames until the next
let shots = [];          // recent shots: {x, y, hit, t}

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  targetsLeft = OPT.numTargets;
  gameState = 'playing';
  shots = [];
  wait = 0;
  spawn();
}

function spawn() {
  const cell = Math.floor(rng() * CELLS * CELLS);
  tx = (cell % CELLS + 0.5) * CELL + (rng() - 0.5) * 20;
  ty = (Math.floor(cell / CELLS) + 0.5) * CELL + (rng() - 0.5) * 20;
  age = 0;
}

function radiusNow() {
  return OPT.radius * (1 - 0.5 * age / OPT.lifetime);
}

function targetDone(points) {
  score += points;
  targetsLeft -= 1;
  tx = ty = -1000;
  if (targetsLeft <= 0) gameState = 'gameover';
  else wait = OPT.gap;
}

function mousePressed() {
  if (gameState !== 'playing') return;
  const hit = wait === 0 && dist(mouseX, mouseY, tx, ty) <= radiusNow();
  shots.push({ x: mouseX, y: mouseY, hit: hit, t: 12 });
  if (hit) targetDone(1);
}

function draw() {
  if (gameState === 'playing') {
    if (wait > 0) {
      wait -= 1;
      if (wait === 0) spawn();
    } else {
      age += 1;
      if (age >= OPT.lifetime) targetDone(-1);
    }
  }

  background(24, 26, 36);
  stroke(44, 48, 64);
  strokeWeight(1);
  for (let i = 1; i < CELLS; i++) {
    line(i * CELL, 0, i * CELL, H);
    line(0, i * CELL, W, i * CELL);
  }
  if (wait === 0 && gameState === 'playing') {
    const r = radiusNow();
    noStroke();
    fill(230, 70, 60);
    circle(tx, ty, 2 * r);
    fill(245, 240, 230);
    circle(tx, ty, 1.3 * r);
    fill(230, 70, 60);
    circle(tx, ty, 0.6 * r);
  }
  for (let i = shots.length - 1; i >= 0; i--) {
    const s = shots[i];
    noFill();
    stroke(s.hit ? color(120, 230, 120) : color(200, 200, 200));
    strokeWeight(2);
    circle(s.x, s.y, 24 - s.t);
    s.t -= 1;
    if (s.t <= 0) shots.splice(i, 1);
  }
  // the crosshair follows the mouse; it is filled while a button is down
  stroke(255, 220, 80);
  strokeWeight(2);
  line(mouseX - 10, mouseY, mouseX + 10, mouseY);
  line(mouseX, mouseY - 10, mouseX, mouseY + 10);
  if (mouseIsPressed) {
    noStroke();
    fill(255, 220, 80);
    circle(mouseX, mouseY, 8);
  }
  noStroke();
  fill(235);
  textSize(20);
  textAlign(LEFT, TOP);
  text('Score ' + score + '   Targets ' + targetsLeft, 10, 10);
}

function getGameState() {
  return { score: score, lives: targetsLeft, gameState: gameState };
}
