// Lantern Drop - catch the falling paper lanterns in your basket at night.
// LEFT/RIGHT move the basket, SPACE gives a short dash.
// Missing a lantern or catching a falling ember costs a life.

const W = 480;
const H = 420;
const GROUND_Y = 370;
const ROUND_FRAMES = 3600; // one minute at 60 fps

let basket;
let lanterns = [];
let particles = [];
let fireflies = [];
let stars = [];
let score = 0;
let lives = 5;
let gameState = 'playing';
let spawnTimer = 40;
let timeLeft = ROUND_FRAMES;
let dashCooldown = 0;
let combo = 0;
let shake = 0;

function setup() {
  createCanvas(W, H);
  resetGame();
}

function resetGame(seed) {
  basket = { x: W / 2, y: GROUND_Y - 20, w: 70, h: 30, vx: 0 };
  lanterns = [];
  particles = [];
  fireflies = [];
  stars = [];
  score = 0;
  lives = 5;
  gameState = 'playing';
  spawnTimer = 40;
  timeLeft = ROUND_FRAMES;
  dashCooldown = 0;
  combo = 0;
  shake = 0;
  for (let i = 0; i < 60; i++) {
    stars.push({ x: random(W), y: random(0, 220), s: random(1, 3), p: random(TWO_PI) });
  }
  for (let i = 0; i < 12; i++) {
    fireflies.push({ x: random(W), y: random(250, GROUND_Y), p: random(TWO_PI) });
  }
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function draw() {
  if (gameState === 'playing') {
    updateGame();
  }
  updateParticles();

  push();
  if (shake > 0) {
    translate(random(-shake, shake), random(-shake, shake));
  }
  drawSky();
  drawMoon();
  drawHills();
  drawFireflies();
  drawLanterns();
  drawBasket();
  drawParticles();
  pop();
  drawHUD();
}

// ---------------------------------------------------------------- update

function updateGame() {
  timeLeft--;
  if (timeLeft <= 0) {
    timeLeft = 0;
    gameState = lives > 0 ? 'won' : 'gameover';
    return;
  }

  // basket movement with a little inertia
  let accel = 0;
  if (keyIsDown(LEFT_ARROW)) accel -= 1.2;
  if (keyIsDown(RIGHT_ARROW)) accel += 1.2;
  basket.vx += accel;
  if (keyIsDown(32) && dashCooldown <= 0 && accel !== 0) {
    basket.vx += accel * 10;
    dashCooldown = 45;
    for (let i = 0; i < 10; i++) {
      addParticle(basket.x, basket.y + 10, random(-1, 1) - accel, random(-1, 0), color(180, 200, 255), 25);
    }
  }
  if (dashCooldown > 0) dashCooldown--;
  basket.vx *= 0.85;
  basket.vx = constrain(basket.vx, -16, 16);
  basket.x += basket.vx;
  basket.x = constrain(basket.x, basket.w / 2, W - basket.w / 2);

  // spawning gets faster over time
  let progress = 1 - timeLeft / ROUND_FRAMES;
  spawnTimer--;
  if (spawnTimer <= 0) {
    spawnLantern(progress);
    spawnTimer = floor(random(35, 70) * (1 - progress * 0.5));
  }

  for (let i = lanterns.length - 1; i >= 0; i--) {
    let l = lanterns[i];
    l.t += 0.03;
    l.y += l.vy;
    l.x = l.baseX + sin(l.t + l.phase) * l.sway;
    l.angle = cos(l.t + l.phase) * 0.25;

    // glowing sparks trail
    if (l.kind !== 'ember' && frameCount % 8 === 0) {
      addParticle(l.x, l.y + 14, random(-0.3, 0.3), random(0.2, 0.8), color(255, 200, 90), 30);
    }
    if (l.kind === 'ember' && frameCount % 3 === 0) {
      addParticle(l.x, l.y - 6, random(-0.5, 0.5), random(-1.2, -0.4), color(120, 120, 130), 30);
    }

    // caught?
    let top = basket.y - basket.h / 2;
    if (l.y + 12 >= top && l.y < top + 20 && abs(l.x - basket.x) < basket.w / 2) {
      if (l.kind === 'ember') {
        loseLife(l.x, l.y, color(255, 90, 40));
        combo = 0;
      } else {
        combo++;
        let pts = l.kind === 'gold' ? 50 : 10;
        score += pts + min(combo, 10) * 2;
        burst(l.x, top, l.kind === 'gold' ? color(255, 230, 120) : color(255, 150, 90), 18);
      }
      lanterns.splice(i, 1);
      continue;
    }

    // missed?
    if (l.y > GROUND_Y) {
      if (l.kind !== 'ember') {
        loseLife(l.x, GROUND_Y, color(150, 150, 170));
        combo = 0;
      } else {
        burst(l.x, GROUND_Y, color(90, 90, 100), 6);
      }
      lanterns.splice(i, 1);
    }
  }

  // fireflies wander
  for (let f of fireflies) {
    f.p += 0.02;
    f.x += cos(f.p * 1.3) * 0.6;
    f.y += sin(f.p) * 0.4;
    if (f.x < 0) f.x += W;
    if (f.x > W) f.x -= W;
  }

  if (shake > 0) shake *= 0.85;
  if (shake < 0.3) shake = 0;
}

function spawnLantern(progress) {
  let r = random();
  let kind = 'red';
  if (r < 0.1) kind = 'gold';
  else if (r < 0.1 + 0.15 + progress * 0.15) kind = 'ember';
  let x = random(40, W - 40);
  lanterns.push({
    kind: kind,
    baseX: x,
    x: x,
    y: -30,
    vy: random(1.2, 2.0) + progress * 1.8,
    t: 0,
    phase: random(TWO_PI),
    sway: random(10, 30),
    angle: 0
  });
}

function loseLife(x, y, c) {
  lives--;
  shake = 6;
  burst(x, y, c, 14);
  if (lives <= 0) {
    lives = 0;
    gameState = 'gameover';
  }
}

function addParticle(x, y, vx, vy, c, life) {
  particles.push({ x: x, y: y, vx: vx, vy: vy, c: c, life: life, maxLife: life, size: random(2, 5) });
}

function burst(x, y, c, n) {
  for (let i = 0; i < n; i++) {
    let a = random(TWO_PI);
    let s = random(0.5, 4);
    addParticle(x, y, cos(a) * s, sin(a) * s - 1, c, floor(random(20, 45)));
  }
}

function updateParticles() {
  for (let i = particles.length - 1; i >= 0; i--) {
    let p = particles[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vy += 0.04;
    p.vx *= 0.98;
    p.life--;
    if (p.life <= 0) particles.splice(i, 1);
  }
}

// ---------------------------------------------------------------- drawing

function drawSky() {
  let top = color(8, 10, 35);
  let bottom = color(45, 35, 90);
  strokeWeight(1);
  for (let y = 0; y < H; y++) {
    let c = lerpColor(top, bottom, y / H);
    stroke(c);
    line(0, y, W, y);
  }
  noStroke();
  for (let s of stars) {
    let b = 150 + 100 * sin(frameCount * 0.04 + s.p);
    fill(255, 255, 220, b);
    circle(s.x, s.y, s.s);
  }
}

function drawMoon() {
  let mx = 370;
  let my = 80;
  noStroke();
  for (let i = 5; i > 0; i--) {
    fill(220, 230, 255, 18);
    circle(mx, my, 60 + i * 25);
  }
  fill(240, 240, 220);
  stroke(200, 200, 190);
  strokeWeight(2);
  circle(mx, my, 62);
  noStroke();
  fill(210, 210, 195);
  circle(mx - 12, my - 8, 12);
  circle(mx + 10, my + 12, 9);
  circle(mx + 8, my - 14, 6);
}

function drawHills() {
  noStroke();
  fill(30, 30, 70);
  beginShape();
  vertex(0, H);
  for (let x = 0; x <= W; x += 10) {
    vertex(x, 220 + noise(x * 0.008, 3) * 100);
  }
  vertex(W, H);
  endShape(CLOSE);

  fill(18, 22, 48);
  stroke(60, 60, 110);
  strokeWeight(2);
  beginShape();
  vertex(0, H);
  for (let x = 0; x <= W; x += 8) {
    vertex(x, 280 + noise(x * 0.015, 20 + frameCount * 0.001) * 70);
  }
  vertex(W, H);
  endShape(CLOSE);

  // ground
  noStroke();
  fill(12, 16, 30);
  rect(0, GROUND_Y, W, H - GROUND_Y);
  stroke(70, 80, 130);
  strokeWeight(2);
  line(0, GROUND_Y, W, GROUND_Y);
}

function drawFireflies() {
  noStroke();
  for (let f of fireflies) {
    let a = 120 + 120 * sin(frameCount * 0.08 + f.p * 3);
    fill(200, 255, 120, a * 0.3);
    circle(f.x, f.y, 10);
    fill(230, 255, 150, a);
    circle(f.x, f.y, 3);
  }
}

function drawLanterns() {
  for (let l of lanterns) {
    push();
    translate(l.x, l.y);
    rotate(l.angle);
    if (l.kind === 'ember') {
      // dark smouldering ember
      noStroke();
      fill(255, 80, 30, 60);
      circle(0, 0, 34);
      fill(60, 40, 40);
      stroke(255, 110, 40);
      strokeWeight(2);
      beginShape();
      for (let k = 0; k < 8; k++) {
        let a = k * TWO_PI / 8;
        let r = k % 2 === 0 ? 13 : 7;
        vertex(cos(a) * r, sin(a) * r);
      }
      endShape(CLOSE);
    } else {
      let body = l.kind === 'gold' ? color(255, 200, 60) : color(230, 60, 50);
      let glow = l.kind === 'gold' ? color(255, 230, 120, 40) : color(255, 140, 80, 40);
      noStroke();
      fill(glow);
      circle(0, 0, 56);
      circle(0, 0, 40);
      // string
      stroke(40, 30, 30);
      strokeWeight(1);
      line(0, -18, 0, -28);
      // body
      fill(body);
      stroke(90, 30, 20);
      strokeWeight(2);
      ellipse(0, 0, 26, 32);
      // ribs
      noFill();
      stroke(150, 50, 30);
      strokeWeight(1);
      ellipse(0, 0, 12, 32);
      // caps
      fill(60, 40, 30);
      noStroke();
      rect(-7, -18, 14, 4, 1);
      rect(-7, 14, 14, 4, 1);
      // tassel
      stroke(255, 210, 90);
      line(0, 18, 0, 26);
    }
    pop();
  }
}

function drawBasket() {
  let bx = basket.x;
  let by = basket.y;
  let bw = basket.w;
  let bh = basket.h;
  // soft light under the basket
  noStroke();
  fill(255, 200, 120, 30);
  ellipse(bx, GROUND_Y, bw + 30, 14);

  // basket body (trapezoid)
  fill(160, 105, 55);
  stroke(80, 45, 20);
  strokeWeight(3);
  beginShape();
  vertex(bx - bw / 2, by - bh / 2);
  vertex(bx + bw / 2, by - bh / 2);
  vertex(bx + bw / 2 - 10, by + bh / 2);
  vertex(bx - bw / 2 + 10, by + bh / 2);
  endShape(CLOSE);

  // weave lines
  stroke(110, 70, 35);
  strokeWeight(1.5);
  for (let k = 1; k < 3; k++) {
    let yy = by - bh / 2 + k * bh / 3;
    let inset = (k * 10) / 3;
    line(bx - bw / 2 + inset, yy, bx + bw / 2 - inset, yy);
  }
  for (let k = -2; k <= 2; k++) {
    line(bx + k * 12, by - bh / 2, bx + k * 9, by + bh / 2);
  }
  // rim
  stroke(200, 150, 90);
  strokeWeight(4);
  line(bx - bw / 2 - 2, by - bh / 2, bx + bw / 2 + 2, by - bh / 2);
}

function drawParticles() {
  noStroke();
  for (let p of particles) {
    let a = map(p.life, 0, p.maxLife, 0, 255);
    fill(red(p.c), green(p.c), blue(p.c), a);
    circle(p.x, p.y, p.size);
  }
}

function drawHUD() {
  noStroke();
  fill(0, 0, 20, 120);
  rect(0, 0, W, 34);

  textSize(18);
  stroke(0);
  strokeWeight(3);
  fill(255, 230, 160);
  textAlign(LEFT, CENTER);
  text('Score ' + score, 10, 17);

  textAlign(CENTER, CENTER);
  fill(200, 220, 255);
  text(ceil(timeLeft / 60) + 's', W / 2, 17);

  // lives as tiny lanterns
  textAlign(RIGHT, CENTER);
  for (let i = 0; i < 5; i++) {
    let x = W - 18 - i * 20;
    if (i < lives) {
      fill(230, 60, 50);
      stroke(90, 30, 20);
    } else {
      fill(60, 60, 80);
      stroke(30, 30, 40);
    }
    strokeWeight(1.5);
    ellipse(x, 17, 12, 15);
  }

  if (combo >= 3 && gameState === 'playing') {
    textAlign(LEFT, TOP);
    textSize(14);
    fill(255, 210, 90);
    stroke(40, 20, 0);
    strokeWeight(3);
    text('Combo x' + combo, 10, 40);
  }

  // dash meter
  noStroke();
  fill(255, 255, 255, 50);
  rect(W / 2 - 30, 40, 60, 5, 2);
  fill(150, 200, 255);
  rect(W / 2 - 30, 40, 60 * (1 - dashCooldown / 45), 5, 2);

  if (gameState !== 'playing') {
    fill(0, 0, 0, 150);
    noStroke();
    rect(0, 0, W, H);
    textAlign(CENTER, CENTER);
    textSize(40);
    stroke(20, 10, 40);
    strokeWeight(5);
    if (gameState === 'won') {
      fill(255, 220, 120);
      text('NIGHT SURVIVED!', W / 2, H / 2 - 20);
    } else {
      fill(255, 120, 100);
      text('GAME OVER', W / 2, H / 2 - 20);
    }
    textSize(20);
    strokeWeight(3);
    fill(255);
    text('Score: ' + score, W / 2, H / 2 + 24);
  }
}
