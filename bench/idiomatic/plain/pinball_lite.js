// Pinball Lite - a small pinball / breakout hybrid in p5.js (global mode)
// LEFT / RIGHT: flippers, SPACE: launch the ball from the plunger lane

const W = 400;
const H = 600;
const BALL_R = 8;
const GRAVITY = 0.22;
const SUBSTEPS = 4;
const MAX_SPEED = 18;
const FLIPPER_LEN = 44;
const FLIPPER_R = 7;
const FLIPPER_SPEED = 0.28;
const TOTAL_BALLS = 3;

let rng;
let score, lives, gameState;
let ball;
let trail;
let walls;
let bumpers;
let bricks;
let leftFlipper, rightFlipper;
let inLane, laneTimer;
let stuckTimer;
let messages;

function mulberry32(a) {
  return function() {
    a |= 0; a = a + 0x6D2B79F5 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  }
}

function setup() {
  createCanvas(W, H);
  resetGame(7);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = TOTAL_BALLS;
  gameState = 'playing';
  trail = [];
  messages = [];

  walls = [
    // outer frame
    [20, 70, 20, 450],
    [20, 70, 70, 20],
    [70, 20, 330, 20],
    [330, 20, 380, 70],
    [380, 70, 380, 590],
    // plunger lane inner wall
    [355, 160, 355, 590],
    // plunger floor
    [355, 575, 380, 575],
    // inlanes leading to the flippers
    [20, 450, 125, 520],
    [355, 450, 250, 520],
    // little guides above the slings
    [60, 380, 60, 440],
    [315, 380, 315, 440]
  ];

  bumpers = [
    makeBumper(120, 215, 22, color(220, 40, 90)),
    makeBumper(255, 215, 22, color(40, 120, 230)),
    makeBumper(187, 310, 24, color(250, 160, 20)),
    makeBumper(90, 320, 14, color(120, 200, 60)),
    makeBumper(285, 320, 14, color(120, 200, 60))
  ];

  bricks = [];
  let colors = ['#ff5f5f', '#ffb347', '#fdfd96', '#77dd77', '#84b6f4', '#c39bd3', '#ff9ad5'];
  for (let row = 0; row < 2; row++) {
    for (let i = 0; i < 7; i++) {
      bricks.push({
        x: 44 + i * 40,
        y: 80 + row * 20,
        w: 36,
        h: 14,
        col: color(colors[(i + row) % colors.length]),
        alive: true
      });
    }
  }

  leftFlipper = {
    pivot: createVector(125, 520),
    restAngle: PI / 6,
    upAngle: -PI / 6,
    angle: PI / 6,
    omega: 0,
    side: 1
  };
  rightFlipper = {
    pivot: createVector(250, 520),
    restAngle: PI - PI / 6,
    upAngle: PI + PI / 6,
    angle: PI - PI / 6,
    omega: 0,
    side: -1
  };

  newBall();
}

function makeBumper(x, y, r, c) {
  return { pos: createVector(x, y), r: r, base: c, flash: 0 };
}

function newBall() {
  ball = {
    pos: createVector(367.5, 575 - BALL_R - 1),
    vel: createVector(0, 0)
  };
  inLane = true;
  laneTimer = 0;
  stuckTimer = 0;
  trail = [];
}

function getGameState() {
  return { score, lives, gameState };
}

function keyPressed() {
  if (gameState !== 'playing') return;
  if (key === ' ' && inLane) {
    launch();
  }
}

function launch() {
  let power = 15.5 + rng() * 2.5;
  ball.vel = createVector(0, -power);
  inLane = false;
}

// ---------- physics helpers ----------

function closestPointOnSegment(p, a, b) {
  let ab = p5.Vector.sub(b, a);
  let t = p5.Vector.dot(p5.Vector.sub(p, a), ab) / ab.magSq();
  t = constrain(t, 0, 1);
  return p5.Vector.add(a, p5.Vector.mult(ab, t));
}

function reflectVelocity(vel, normal, restitution) {
  let vn = p5.Vector.dot(vel, normal);
  if (vn < 0) {
    vel.sub(p5.Vector.mult(normal, (1 + restitution) * vn));
  }
}

function collideSegment(ax, ay, bx, by, radius, restitution) {
  let a = createVector(ax, ay);
  let b = createVector(bx, by);
  let c = closestPointOnSegment(ball.pos, a, b);
  let d = p5.Vector.sub(ball.pos, c);
  let dist = d.mag();
  let minDist = BALL_R + radius;
  if (dist < minDist && dist > 0.0001) {
    let n = d.copy().normalize();
    ball.pos.add(p5.Vector.mult(n, minDist - dist));
    reflectVelocity(ball.vel, n, restitution);
    return true;
  }
  return false;
}

function flipperTip(f) {
  return p5.Vector.add(f.pivot, p5.Vector.fromAngle(f.angle, FLIPPER_LEN));
}

function collideFlipper(f) {
  let tip = flipperTip(f);
  let c = closestPointOnSegment(ball.pos, f.pivot, tip);
  let d = p5.Vector.sub(ball.pos, c);
  let dist = d.mag();
  let minDist = BALL_R + FLIPPER_R;
  if (dist < minDist && dist > 0.0001) {
    let n = d.copy().normalize();
    ball.pos.add(p5.Vector.mult(n, minDist - dist));
    // velocity of the flipper surface at the contact point (omega x r)
    let r = p5.Vector.sub(c, f.pivot);
    let surfaceVel = createVector(-r.y * f.omega, r.x * f.omega);
    let rel = p5.Vector.sub(ball.vel, surfaceVel);
    let vn = p5.Vector.dot(rel, n);
    if (vn < 0) {
      rel.sub(p5.Vector.mult(n, 1.4 * vn));
      ball.vel = p5.Vector.add(rel, surfaceVel);
    }
  }
}

function collideBumper(b) {
  let d = p5.Vector.sub(ball.pos, b.pos);
  let dist = d.mag();
  let minDist = BALL_R + b.r;
  if (dist < minDist) {
    let n = dist > 0.0001 ? d.copy().normalize() : createVector(0, -1);
    ball.pos = p5.Vector.add(b.pos, p5.Vector.mult(n, minDist + 0.5));
    reflectVelocity(ball.vel, n, 1.0);
    // bumpers kick the ball away
    let kick = max(ball.vel.mag(), 7);
    ball.vel.setMag(kick);
    if (p5.Vector.dot(ball.vel, n) < 0) ball.vel = p5.Vector.mult(n, kick);
    if (b.flash < 0.5) {
      score += 100;
      addMessage('+100', b.pos.x, b.pos.y - b.r - 6);
    }
    b.flash = 1;
  }
}

function collideBrick(br) {
  let cx = constrain(ball.pos.x, br.x, br.x + br.w);
  let cy = constrain(ball.pos.y, br.y, br.y + br.h);
  let d = createVector(ball.pos.x - cx, ball.pos.y - cy);
  let dist = d.mag();
  if (dist < BALL_R) {
    let n;
    if (dist > 0.0001) {
      n = d.copy().normalize();
    } else {
      n = createVector(0, ball.vel.y > 0 ? -1 : 1);
    }
    ball.pos.add(p5.Vector.mult(n, BALL_R - dist));
    reflectVelocity(ball.vel, n, 0.9);
    br.alive = false;
    score += 50;
    addMessage('+50', br.x + br.w / 2, br.y);
    return true;
  }
  return false;
}

function addMessage(txt, x, y) {
  messages.push({ txt, x, y, life: 40 });
}

function updateFlipper(f, held, dt) {
  let target = held ? f.upAngle : f.restAngle;
  let step = FLIPPER_SPEED * dt;
  let before = f.angle;
  if (f.angle < target) f.angle = min(f.angle + step, target);
  else if (f.angle > target) f.angle = max(f.angle - step, target);
  // omega in radians per frame
  f.omega = (f.angle - before) / dt;
}

// ---------- game update ----------

function loseBall() {
  lives--;
  if (lives <= 0) {
    lives = 0;
    gameState = 'gameover';
    return;
  }
  newBall();
}

function updateGame() {
  let leftHeld = keyIsDown(LEFT_ARROW);
  let rightHeld = keyIsDown(RIGHT_ARROW);

  if (inLane) {
    updateFlipper(leftFlipper, leftHeld, 1);
    updateFlipper(rightFlipper, rightHeld, 1);
    laneTimer++;
    // the plunger fires by itself if the player waits too long
    if (laneTimer > 150) launch();
    return;
  }

  let dt = 1 / SUBSTEPS;
  for (let s = 0; s < SUBSTEPS; s++) {
    updateFlipper(leftFlipper, leftHeld, dt);
    updateFlipper(rightFlipper, rightHeld, dt);

    ball.vel.y += GRAVITY * dt;
    if (ball.vel.mag() > MAX_SPEED) ball.vel.setMag(MAX_SPEED);
    ball.pos.add(p5.Vector.mult(ball.vel, dt));

    for (let w of walls) {
      collideSegment(w[0], w[1], w[2], w[3], 3, 0.6);
    }
    for (let b of bumpers) collideBumper(b);
    for (let br of bricks) {
      if (br.alive && collideBrick(br)) break;
    }
    collideFlipper(leftFlipper);
    collideFlipper(rightFlipper);
  }

  // ball came back down the plunger lane: put it on the plunger again
  if (ball.pos.x > 355 && ball.pos.y > 560 && ball.vel.mag() < 1.5) {
    ball.pos.set(367.5, 575 - BALL_R - 1);
    ball.vel.set(0, 0);
    inLane = true;
    laneTimer = 0;
  }

  // nudge the ball if it is stuck somewhere
  if (ball.vel.mag() < 0.3) {
    stuckTimer++;
    if (stuckTimer > 120) {
      ball.vel = p5.Vector.fromAngle(-HALF_PI + (rng() - 0.5), 5);
      stuckTimer = 0;
    }
  } else {
    stuckTimer = 0;
  }

  // trail
  trail.push(ball.pos.copy());
  if (trail.length > 10) trail.shift();

  // bumper flash fades
  for (let b of bumpers) {
    b.flash = max(0, b.flash - 0.06);
  }

  // every brick gone: the board is cleared
  if (bricks.every(br => !br.alive)) {
    score += 1000;
    gameState = 'won';
    return;
  }

  if (ball.pos.y > H + BALL_R * 2) {
    loseBall();
  }
}

// ---------- drawing ----------

function drawWalls() {
  stroke(200, 210, 230);
  strokeWeight(6);
  strokeCap(ROUND);
  for (let w of walls) {
    line(w[0], w[1], w[2], w[3]);
  }
}

function drawBumpers() {
  ellipseMode(RADIUS);
  let white = color(255, 255, 255);
  for (let b of bumpers) {
    let c = lerpColor(b.base, white, b.flash);
    stroke(30);
    strokeWeight(3);
    fill(c);
    ellipse(b.pos.x, b.pos.y, b.r, b.r);
    noStroke();
    fill(255, 255, 255, 90 + 160 * b.flash);
    ellipse(b.pos.x, b.pos.y, b.r * 0.45, b.r * 0.45);
  }
}

function drawBricks() {
  stroke(20);
  strokeWeight(1);
  for (let br of bricks) {
    if (!br.alive) continue;
    fill(br.col);
    rect(br.x, br.y, br.w, br.h, 3);
  }
}

function drawFlipper(f) {
  push();
  translate(f.pivot.x, f.pivot.y);
  rotate(f.angle);
  stroke(40);
  strokeWeight(2);
  fill(240, 70, 60);
  rect(-FLIPPER_R, -FLIPPER_R, FLIPPER_LEN + FLIPPER_R * 2, FLIPPER_R * 2, FLIPPER_R);
  fill(250, 230, 90);
  noStroke();
  circle(0, 0, 6);
  pop();
}

function drawBall() {
  ellipseMode(RADIUS);
  noStroke();
  for (let i = 0; i < trail.length; i++) {
    let a = map(i, 0, trail.length, 20, 160);
    let r = map(i, 0, trail.length, BALL_R * 0.4, BALL_R * 0.9);
    fill(180, 200, 255, a);
    ellipse(trail[i].x, trail[i].y, r, r);
  }
  stroke(60);
  strokeWeight(1);
  fill(230, 230, 240);
  ellipse(ball.pos.x, ball.pos.y, BALL_R, BALL_R);
  // little highlight pointing along the direction of travel
  if (ball.vel.mag() > 0.5) {
    let h = p5.Vector.fromAngle(ball.vel.heading() + PI, BALL_R * 0.4);
    noStroke();
    fill(255);
    ellipse(ball.pos.x + h.x, ball.pos.y + h.y, 2, 2);
  }
}

function drawPlunger() {
  noStroke();
  fill(90);
  rect(358, 578, 19, 20);
  if (inLane) {
    let pull = (laneTimer % 30) / 30 * 6;
    fill(200, 60, 60);
    rect(361, 578 + pull, 13, 4);
  }
}

function drawMessages() {
  textAlign(CENTER, CENTER);
  textSize(12);
  noStroke();
  for (let i = messages.length - 1; i >= 0; i--) {
    let m = messages[i];
    fill(255, 255, 150, map(m.life, 0, 40, 0, 255));
    text(m.txt, m.x, m.y);
    m.y -= 0.6;
    m.life--;
    if (m.life <= 0) messages.splice(i, 1);
  }
}

function drawHUD() {
  // score box
  stroke(255);
  strokeWeight(2);
  fill(10, 10, 40, 220);
  rect(100, 30, 200, 38, 6);
  noStroke();
  fill(255, 230, 120);
  textSize(18);
  textAlign(LEFT, CENTER);
  text('SCORE ' + score, 110, 49);
  textAlign(RIGHT, CENTER);
  textSize(12);
  fill(200, 220, 255);
  let balls = 'BALLS: ' + '●'.repeat(lives) + '○'.repeat(TOTAL_BALLS - lives);
  text(balls, 292, 49);

  if (inLane && gameState === 'playing') {
    textAlign(CENTER, CENTER);
    textSize(14);
    fill(255, 255, 255, 150 + 100 * sin(frameCount * 0.2));
    text('SPACE TO LAUNCH', 187, 420);
  }
}

function drawEndScreen() {
  fill(0, 0, 0, 160);
  noStroke();
  rect(0, 0, W, H);
  textAlign(CENTER, CENTER);
  textSize(36);
  fill(gameState === 'won' ? color(120, 255, 120) : color(255, 90, 90));
  text(gameState === 'won' ? 'BOARD CLEARED!' : 'GAME OVER', W / 2, H / 2 - 20);
  textSize(18);
  fill(255);
  text('Final score: ' + score, W / 2, H / 2 + 20);
}

function draw() {
  if (gameState === 'playing') {
    updateGame();
  }

  background(18, 22, 48);

  // playfield decoration
  noStroke();
  fill(30, 36, 80);
  rect(20, 20, 335, 580);
  fill(40, 48, 100);
  triangle(187, 470, 150, 540, 225, 540);

  drawBricks();
  drawBumpers();
  drawWalls();
  drawPlunger();
  drawFlipper(leftFlipper);
  drawFlipper(rightFlipper);
  drawBall();
  drawMessages();
  drawHUD();

  if (gameState !== 'playing') {
    drawEndScreen();
  }
}
