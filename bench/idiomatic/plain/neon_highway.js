// Neon Highway - steer through traffic at night, grab spinning coins.
// LEFT/RIGHT steer, UP accelerate, DOWN brake, SPACE nitro.

const W = 420;
const H = 440;
const ROAD_L = 70;
const ROAD_R = 350;

let car;
let speed;
let roadOffset;
let traffic;
let coins;
let sparks;
let trees;
let score;
let lives;
let state;
let timer;
let nitro;
let invuln;
let spawnTraffic;
let spawnCoin;

function setup() {
  createCanvas(W, H);
  resetGame(0);
}

function resetGame(seed) {
  car = { x: W / 2, y: H - 80, tilt: 0 };
  speed = 4;
  roadOffset = 0;
  traffic = [];
  coins = [];
  sparks = [];
  trees = [];
  for (let i = 0; i < 12; i++) {
    let side = i % 2 === 0 ? random(10, ROAD_L - 20) : random(ROAD_R + 20, W - 10);
    trees.push({ x: side, y: random(H), r: random(12, 22), n: random(100) });
  }
  score = 0;
  lives = 3;
  state = 'playing';
  timer = 3000;
  nitro = 100;
  invuln = 0;
  spawnTraffic = 40;
  spawnCoin = 20;
}

function getGameState() {
  return { score: score, lives: lives, gameState: state };
}

function addSparks(x, y, n, r, g, b) {
  for (let i = 0; i < n; i++) {
    sparks.push({
      x: x,
      y: y,
      vx: random(-3, 3),
      vy: random(-3, 3),
      life: random(15, 35),
      r: r,
      g: g,
      b: b
    });
  }
}

function update() {
  // controls
  let steer = 0;
  if (keyIsDown(LEFT_ARROW)) steer -= 1;
  if (keyIsDown(RIGHT_ARROW)) steer += 1;
  car.x += steer * 4;
  car.tilt = lerp(car.tilt, steer * 0.25, 0.2);
  car.x = constrain(car.x, ROAD_L + 16, ROAD_R - 16);

  if (keyIsDown(UP_ARROW)) speed += 0.08;
  if (keyIsDown(DOWN_ARROW)) speed -= 0.15;
  let boosting = false;
  if (keyIsDown(32) && nitro > 0) {
    boosting = true;
    nitro -= 1;
  } else if (nitro < 100) {
    nitro += 0.15;
  }
  speed = constrain(speed, 2, 9);
  let v = boosting ? speed + 4 : speed;

  roadOffset = (roadOffset + v) % 40;
  score += floor(v / 3);

  // exhaust particles
  if (frameCount % 2 === 0 || boosting) {
    sparks.push({
      x: car.x + random(-5, 5),
      y: car.y + 26,
      vx: random(-0.5, 0.5),
      vy: random(1, 3),
      life: 20,
      r: boosting ? 80 : 200,
      g: boosting ? 200 : 200,
      b: 255
    });
  }

  // trees scroll
  for (let t of trees) {
    t.y += v;
    if (t.y > H + 30) {
      t.y = -30;
      t.r = random(12, 22);
    }
  }

  // traffic
  spawnTraffic--;
  if (spawnTraffic <= 0) {
    let lane = floor(random(4));
    traffic.push({
      x: ROAD_L + 35 + lane * 70,
      y: -50,
      vy: random(1, 3),
      col: color(random(120, 255), random(40, 120), random(120, 255))
    });
    spawnTraffic = floor(random(25, 55));
  }
  for (let i = traffic.length - 1; i >= 0; i--) {
    let o = traffic[i];
    o.y += v - o.vy;
    if (o.y > H + 60) {
      traffic.splice(i, 1);
      continue;
    }
    if (invuln === 0 && abs(o.x - car.x) < 28 && abs(o.y - car.y) < 44) {
      lives--;
      invuln = 60;
      speed = 2;
      addSparks(car.x, car.y - 20, 30, 255, 160, 40);
      traffic.splice(i, 1);
      if (lives <= 0) state = 'gameover';
    }
  }

  // coins
  spawnCoin--;
  if (spawnCoin <= 0) {
    coins.push({ x: random(ROAD_L + 20, ROAD_R - 20), y: -20, spin: random(TWO_PI) });
    spawnCoin = floor(random(30, 70));
  }
  for (let i = coins.length - 1; i >= 0; i--) {
    let c = coins[i];
    c.y += v;
    c.spin += 0.12;
    if (c.y > H + 20) {
      coins.splice(i, 1);
      continue;
    }
    if (dist(c.x, c.y, car.x, car.y) < 26) {
      score += 50;
      addSparks(c.x, c.y, 12, 255, 230, 80);
      coins.splice(i, 1);
    }
  }

  for (let i = sparks.length - 1; i >= 0; i--) {
    let p = sparks[i];
    p.x += p.vx;
    p.y += p.vy;
    p.life--;
    if (p.life <= 0) sparks.splice(i, 1);
  }

  if (invuln > 0) invuln--;
  timer--;
  if (timer <= 0 && state === 'playing') state = 'won';
}

function drawBackground() {
  // vertical gradient for the grass / night glow
  let top = color(20, 10, 50);
  let bottom = color(10, 60, 60);
  for (let y = 0; y < H; y += 4) {
    stroke(lerpColor(top, bottom, y / H));
    strokeWeight(4);
    line(0, y, W, y);
  }
}

function drawRoad() {
  noStroke();
  fill(35, 35, 45);
  rect(ROAD_L, 0, ROAD_R - ROAD_L, H);
  // neon edges
  stroke(255, 60, 200);
  strokeWeight(4);
  line(ROAD_L, 0, ROAD_L, H);
  stroke(60, 220, 255);
  line(ROAD_R, 0, ROAD_R, H);
  // dashed lane lines
  stroke(230, 230, 230, 180);
  strokeWeight(3);
  for (let lane = 1; lane < 4; lane++) {
    let x = ROAD_L + lane * 70;
    for (let y = -40 + roadOffset; y < H; y += 40) {
      line(x, y, x, y + 20);
    }
  }
}

function drawTrees() {
  for (let t of trees) {
    noStroke();
    fill(0, 0, 0, 60);
    ellipse(t.x + 4, t.y + 4, t.r * 2, t.r * 2);
    let g = 90 + noise(t.n) * 100;
    fill(20, g, 70);
    ellipse(t.x, t.y, t.r * 2, t.r * 2);
    fill(60, g + 50, 110, 150);
    ellipse(t.x - t.r * 0.3, t.y - t.r * 0.3, t.r, t.r);
  }
}

function drawCar(x, y, tilt, c, isPlayer) {
  push();
  translate(x, y);
  rotate(tilt);
  rectMode(CENTER);
  noStroke();
  fill(0, 0, 0, 80);
  rect(3, 4, 34, 54, 8);
  stroke(255, 255, 255, 120);
  strokeWeight(1);
  fill(c);
  rect(0, 0, 30, 50, 8);
  fill(30, 40, 70);
  rect(0, -8, 22, 12, 3);
  rect(0, 14, 22, 8, 3);
  noStroke();
  if (isPlayer) {
    fill(255, 255, 200, 90);
    triangle(-10, -25, -22, -80, 2, -80);
    triangle(10, -25, -2, -80, 22, -80);
  } else {
    fill(255, 40, 40);
    rect(-10, 24, 6, 3);
    rect(10, 24, 6, 3);
  }
  pop();
}

function drawCoins() {
  for (let c of coins) {
    push();
    translate(c.x, c.y);
    let w = abs(cos(c.spin)) * 18 + 2;
    stroke(180, 120, 0);
    strokeWeight(2);
    fill(255, 210, 40);
    ellipse(0, 0, w, 18);
    pop();
  }
}

function drawSparks() {
  noStroke();
  for (let p of sparks) {
    fill(p.r, p.g, p.b, map(p.life, 0, 35, 0, 255));
    circle(p.x, p.y, 4);
  }
}

function drawHUD() {
  noStroke();
  fill(0, 0, 0, 140);
  rect(8, 8, 140, 74, 6);
  fill(255);
  textSize(14);
  textAlign(LEFT, TOP);
  text('Score ' + score, 16, 14);
  text('Lives ' + lives, 16, 34);
  text('Time ' + ceil(timer / 60), 16, 54);
  // nitro bar
  fill(0, 0, 0, 140);
  rect(W - 118, 10, 108, 18, 4);
  fill(80, 200, 255);
  rect(W - 114, 14, nitro, 10, 3);
  fill(255);
  textAlign(RIGHT, TOP);
  textSize(11);
  text('NITRO', W - 12, 32);
}

function draw() {
  if (state === 'playing') {
    update();
  }
  drawBackground();
  drawTrees();
  drawRoad();
  drawCoins();
  for (let o of traffic) {
    drawCar(o.x, o.y, 0, o.col, false);
  }
  drawSparks();
  if (invuln === 0 || floor(invuln / 5) % 2 === 0) {
    drawCar(car.x, car.y, car.tilt, color(255, 80, 120), true);
  }
  drawHUD();
  if (state !== 'playing') {
    fill(0, 0, 0, 170);
    noStroke();
    rect(0, 0, W, H);
    textAlign(CENTER, CENTER);
    textSize(32);
    fill(state === 'won' ? color(120, 255, 160) : color(255, 90, 90));
    text(state === 'won' ? 'YOU MADE IT!' : 'WRECKED', W / 2, H / 2 - 18);
    textSize(16);
    fill(255);
    text('Score: ' + score, W / 2, H / 2 + 20);
  }
}
