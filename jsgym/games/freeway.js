// Freeway: a clone of Atari 2600 Freeway (Activision), as in the ALE task.
//
// A chicken crosses a ten-lane freeway: the top five lanes drive left, the
// bottom five right, each at its own speed. Reaching the far sidewalk scores a
// point and puts the chicken back at the bottom; a car that hits the chicken
// knocks it back a lane and stuns it for a moment. The game is a race against
// the clock: as many crossings as possible before time runs out.
//
// Canvas: 400x400.
// Actions (default table):
//   0 NOOP; 3 UP held: walk up (towards the goal); 4 DOWN held: walk down;
//   1 LEFT, 2 RIGHT, 5 SPACE, 6, 7: NOOP (the chicken only moves vertically).
// Scoring: +`laneReward` (1) the first time the chicken enters each lane on a
//   crossing, +`crossingReward` (10) per crossing, so a full crossing is worth 20.
//   No negative rewards (a hit only costs time). laneReward 0 with
//   crossingReward 1 gives the original's scoring (one point per crossing).
// Termination: 'gameover' when the clock (`timeLimit` frames, shown as the bar at
//   the top) runs out; 'won' is never used. lives is always 1 (Freeway has none).
// Note: the lane points are this clone's deviation from the original, whose only
//   reward is the crossing: a uniformly random policy almost never crosses (ALE
//   random score is 0), so it would never see a reward. With lane points it scores
//   within a few dozen steps; holding UP crosses about every 220 frames.
// GAME_OPTIONS keys (defaults):
//   timeLimit: 2400     frames per game
//   laneReward: 1       points for each lane entered for the first time on a crossing
//   crossingReward: 10  points per crossing
//   chickenSpeed: 2.5   px/frame while UP or DOWN is held
//   carsPerLane: 1      cars in every lane
//   speedScale: 1       multiplies all lane speeds
//   knockback: 16       px the chicken is pushed down when hit
//   stun: 8             frames the chicken cannot move after a hit
// Simplifications: no second (idle) chicken, fixed lane speeds (the 2600's game
//   variations with changing traffic are not modelled), cars are plain boxes.

const W = 400;
const H = 400;
const OPT = Object.assign({
  timeLimit: 2400,
  laneReward: 1,
  crossingReward: 10,
  chickenSpeed: 2.5,
  carsPerLane: 1,
  speedScale: 1,
  knockback: 16,
  stun: 8,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const LANES = 10;
const LANE_H = 30;
const ROAD_TOP = 56;                      // top of lane 0
const ROAD_BOTTOM = ROAD_TOP + LANES * LANE_H;
const CHICK_X = 110, CHICK_W = 18, CHICK_H = 20;
const START_Y = ROAD_BOTTOM + 8;          // chicken top edge at the start
const GOAL_Y = ROAD_TOP - CHICK_H - 4;    // reaching above this scores
const CAR_W = 44, CAR_H = 20;
const LANE_SPEED = [-5, -4, -3, -2.5, -2, 2, 2.5, 3, 4, 5];  // top to bottom; negative = leftwards
const CAR_COLORS = [[190, 110, 70], [90, 150, 240], [230, 110, 200], [110, 220, 110], [240, 130, 60],
  [200, 200, 220], [240, 80, 80], [80, 210, 210], [170, 120, 240], [140, 190, 60]];

let rng;
let score, gameState, timeLeft;
let cy, stunTimer;                        // chicken top edge, stun frames left
let bestLane;                             // lanes entered so far on this crossing (0..LANES)
let cars;                                 // cars[lane][k] = x (left edge)

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  gameState = 'playing';
  timeLeft = OPT.timeLimit;
  cy = START_Y;
  stunTimer = 0;
  bestLane = 0;
  cars = [];
  const span = W + CAR_W;                 // cars wrap around over this distance
  for (let l = 0; l < LANES; l++) {
    const row = [];
    const offset = Math.floor(rng() * span);
    for (let k = 0; k < OPT.carsPerLane; k++) {
      row.push((offset + Math.floor(k * span / OPT.carsPerLane)) % span - CAR_W);
    }
    cars.push(row);
  }
}

function getGameState() {
  return { score: score, lives: 1, gameState: gameState };
}

function update() {
  if (gameState !== 'playing') return;
  // traffic
  const span = W + CAR_W;
  for (let l = 0; l < LANES; l++) {
    const v = LANE_SPEED[l] * OPT.speedScale;
    for (let k = 0; k < cars[l].length; k++) {
      let x = cars[l][k] + v;
      if (x > W) x -= span;
      if (x < -CAR_W) x += span;
      cars[l][k] = x;
    }
  }
  // chicken
  if (stunTimer > 0) {
    stunTimer -= 1;
  } else {
    if (keyIsDown(UP_ARROW)) cy -= OPT.chickenSpeed;
    if (keyIsDown(DOWN_ARROW)) cy += OPT.chickenSpeed;
    cy = min(cy, START_Y);
    const lane = constrain(LANES - Math.floor((cy - ROAD_TOP) / LANE_H), 0, LANES);
    if (lane > bestLane) { score += (lane - bestLane) * OPT.laneReward; bestLane = lane; }
    if (cy < GOAL_Y) { score += OPT.crossingReward; cy = START_Y; bestLane = 0; }
    // collisions with the cars of the lanes the chicken overlaps
    for (let l = 0; l < LANES; l++) {
      const ly = ROAD_TOP + l * LANE_H + (LANE_H - CAR_H) / 2;
      if (cy >= ly + CAR_H || cy + CHICK_H <= ly) continue;
      for (let k = 0; k < cars[l].length; k++) {
        const x = cars[l][k];
        if (x < CHICK_X + CHICK_W && x + CAR_W > CHICK_X) {
          cy = min(cy + OPT.knockback, START_Y);
          stunTimer = OPT.stun;
          break;
        }
      }
      if (stunTimer > 0) break;
    }
  }
  timeLeft -= 1;
  if (timeLeft <= 0) { timeLeft = 0; gameState = 'gameover'; }
}

function draw() {
  update();
  background(20, 20, 24);
  noStroke();
  // sidewalks
  fill(150, 150, 150);
  rect(0, ROAD_TOP - 28, W, 28);
  rect(0, ROAD_BOTTOM, W, H - ROAD_BOTTOM);
  // road: dark grey with lane markings and a yellow median
  fill(60, 60, 66);
  rect(0, ROAD_TOP, W, LANES * LANE_H);
  fill(200, 200, 200);
  for (let l = 1; l < LANES; l++) {
    if (l === LANES / 2) continue;
    for (let x = 0; x < W; x += 40) rect(x, ROAD_TOP + l * LANE_H - 1, 20, 2);
  }
  fill(230, 200, 40);
  rect(0, ROAD_TOP + (LANES / 2) * LANE_H - 3, W, 6);
  // cars
  for (let l = 0; l < LANES; l++) {
    const c = CAR_COLORS[l];
    const ly = ROAD_TOP + l * LANE_H + (LANE_H - CAR_H) / 2;
    for (let k = 0; k < cars[l].length; k++) {
      fill(c[0], c[1], c[2]);
      rect(cars[l][k], ly, CAR_W, CAR_H);
      fill(30, 30, 40);                  // windscreen on the front side
      const fx = LANE_SPEED[l] > 0 ? cars[l][k] + CAR_W - 14 : cars[l][k] + 6;
      rect(fx, ly + 4, 8, CAR_H - 8);
    }
  }
  // chicken: yellow body, red comb, flashes while stunned
  if (stunTimer === 0 || stunTimer % 4 < 2) {
    fill(255, 240, 80);
    rect(CHICK_X, cy + 4, CHICK_W, CHICK_H - 4);
    fill(230, 50, 40);
    rect(CHICK_X + 6, cy, 6, 5);
  }
  // clock bar and score
  fill(80, 200, 255);
  rect(60, 6, (W - 120) * timeLeft / OPT.timeLimit, 10);
  fill(255, 240, 80);
  textSize(20);
  textAlign(LEFT, TOP);
  text(score, 10, 2);
}
