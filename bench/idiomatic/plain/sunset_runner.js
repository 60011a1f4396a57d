// Sunset Runner - an endless runner at dusk.
// Jump (UP or SPACE) over rocks and cacti; duck (DOWN) under birds.

const W = 560;
const H = 400;
const GROUND_Y = 320;
const GRAVITY = 0.7;
const JUMP_V = -12.5;

let player;
let obstacles = [];
let particles = [];
let score = 0;
let lives = 3;
let gameState = 'playing';
let speed = 5;
let spawnTimer = 60;
let frameCounter = 0;
let invincible = 0;
let hillOffset1 = 0;
let hillOffset2 = 0;
let groundOffset = 0;
let stars = [];

function setup() {
  createCanvas(W, H);
  resetGame();
}

function resetGame(seed) {
  player = {
    x: 90,
    y: GROUND_Y,
    vy: 0,
    w: 26,
    h: 40,
    onGround: true,
    ducking: false,
    legPhase: 0
  };
  obstacles = [];
  particles = [];
  score = 0;
  lives = 3;
  gameState = 'playing';
  speed = 5;
  spawnTimer = 60;
  frameCounter = 0;
  invincible = 0;
  hillOffset1 = 0;
  hillOffset2 = 0;
  groundOffset = 0;
  stars = [];
  for (let i = 0; i < 25; i++) {
    stars.push({ x: random(W), y: random(0, 120), s: random(1, 2.5) });
  }
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function draw() {
  if (gameState === 'playing') {
    updateGame();
  } else {
    updateParticles();
  }
  drawSky();
  drawSun();
  drawHills();
  drawGround();
  drawObstacles();
  drawPlayer();
  drawParticles();
  drawHUD();
}

// ---------------------------------------------------------------- update

function updateGame() {
  frameCounter++;
  speed = 5 + frameCounter * 0.002;
  if (speed > 11) speed = 11;

  hillOffset1 += speed * 0.15;
  hillOffset2 += speed * 0.4;
  groundOffset = (groundOffset + speed) % 40;

  // controls
  let wantJump = keyIsDown(UP_ARROW) || keyIsDown(32);
  player.ducking = keyIsDown(DOWN_ARROW) && player.onGround;
  if (keyIsDown(LEFT_ARROW)) player.x -= 3;
  if (keyIsDown(RIGHT_ARROW)) player.x += 3;
  player.x = constrain(player.x, 30, W / 2);

  if (wantJump && player.onGround) {
    player.vy = JUMP_V;
    player.onGround = false;
    spawnDust(player.x, GROUND_Y, 8);
  }

  player.vy += GRAVITY;
  player.y += player.vy;
  if (player.y >= GROUND_Y) {
    if (!player.onGround) spawnDust(player.x, GROUND_Y, 5);
    player.y = GROUND_Y;
    player.vy = 0;
    player.onGround = true;
  }
  player.h = player.ducking ? 24 : 40;
  player.legPhase += speed * 0.05;

  // running dust
  if (player.onGround && frameCounter % 6 === 0) {
    spawnDust(player.x - 10, GROUND_Y, 1);
  }

  // spawn obstacles
  spawnTimer--;
  if (spawnTimer <= 0) {
    spawnObstacle();
    spawnTimer = floor(random(55, 110) - speed * 2);
  }

  // move obstacles
  for (let i = obstacles.length - 1; i >= 0; i--) {
    let o = obstacles[i];
    o.x -= speed;
    if (o.type === 'bird') {
      o.flap += 0.2;
    }
    if (!o.passed && o.x + o.w < player.x - player.w / 2) {
      o.passed = true;
      score += 10;
    }
    if (o.x + o.w < -20) {
      obstacles.splice(i, 1);
      continue;
    }
    if (invincible <= 0 && hitsPlayer(o)) {
      lives--;
      invincible = 90;
      spawnBurst(player.x, player.y - player.h / 2, 20);
      if (lives <= 0) {
        gameState = 'gameover';
      }
    }
  }

  if (invincible > 0) invincible--;

  // distance score
  if (frameCounter % 10 === 0) score += 1;

  updateParticles();
}

function spawnObstacle() {
  let r = random();
  if (r < 0.45) {
    obstacles.push({ type: 'rock', x: W + 20, y: GROUND_Y, w: random(24, 38), h: random(18, 30), passed: false, flap: 0 });
  } else if (r < 0.8) {
    obstacles.push({ type: 'cactus', x: W + 20, y: GROUND_Y, w: 18, h: random(36, 52), passed: false, flap: 0 });
  } else {
    obstacles.push({ type: 'bird', x: W + 20, y: GROUND_Y - random([34, 50]), w: 30, h: 16, passed: false, flap: 0 });
  }
}

function hitsPlayer(o) {
  let px1 = player.x - player.w / 2 + 4;
  let px2 = player.x + player.w / 2 - 4;
  let py1 = player.y - player.h;
  let py2 = player.y;
  let ox1 = o.x + 3;
  let ox2 = o.x + o.w - 3;
  let oy1 = o.y - o.h;
  let oy2 = o.y;
  if (o.type === 'bird') {
    oy1 = o.y - o.h / 2;
    oy2 = o.y + o.h / 2;
  }
  return px1 < ox2 && px2 > ox1 && py1 < oy2 && py2 > oy1;
}

function spawnDust(x, y, n) {
  for (let i = 0; i < n; i++) {
    particles.push({
      x: x + random(-6, 6),
      y: y - random(2),
      vx: random(-2, 0),
      vy: random(-1.5, -0.2),
      life: random(20, 35),
      maxLife: 35,
      size: random(3, 7),
      col: color(200, 150, 110)
    });
  }
}

function spawnBurst(x, y, n) {
  for (let i = 0; i < n; i++) {
    let a = random(TWO_PI);
    let s = random(1, 5);
    particles.push({
      x: x,
      y: y,
      vx: cos(a) * s,
      vy: sin(a) * s,
      life: random(25, 45),
      maxLife: 45,
      size: random(3, 6),
      col: color(255, random(120, 220), 60)
    });
  }
}

function updateParticles() {
  for (let i = particles.length - 1; i >= 0; i--) {
    let p = particles[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vy += 0.05;
    p.life--;
    if (p.life <= 0) particles.splice(i, 1);
  }
}

// ---------------------------------------------------------------- drawing

function drawSky() {
  let top = color(40, 30, 90);
  let mid = color(220, 90, 110);
  let bottom = color(255, 190, 100);
  strokeWeight(1);
  for (let y = 0; y < GROUND_Y; y++) {
    let t = y / GROUND_Y;
    let c;
    if (t < 0.5) {
      c = lerpColor(top, mid, t * 2);
    } else {
      c = lerpColor(mid, bottom, (t - 0.5) * 2);
    }
    stroke(c);
    line(0, y, width, y);
  }

  // faint stars in the upper sky
  noStroke();
  for (let s of stars) {
    let tw = 120 + 80 * sin(frameCount * 0.05 + s.x);
    fill(255, 255, 230, tw);
    circle(s.x, s.y, s.s);
  }
}

function drawSun() {
  let sx = W * 0.7;
  let sy = 230;
  noStroke();
  for (let i = 6; i > 0; i--) {
    fill(255, 200, 90, 25);
    circle(sx, sy, 70 + i * 22);
  }
  fill(255, 225, 130);
  stroke(255, 160, 70);
  strokeWeight(3);
  circle(sx, sy, 80);
}

function drawHills() {
  // far hills
  noStroke();
  fill(120, 60, 110);
  beginShape();
  vertex(0, GROUND_Y);
  for (let x = 0; x <= W; x += 10) {
    let n = noise((x + hillOffset1) * 0.006, 10);
    vertex(x, 170 + n * 110);
  }
  vertex(W, GROUND_Y);
  endShape(CLOSE);

  // near hills
  fill(80, 35, 80);
  stroke(55, 20, 60);
  strokeWeight(2);
  beginShape();
  vertex(0, GROUND_Y);
  for (let x = 0; x <= W; x += 8) {
    let n = noise((x + hillOffset2) * 0.01, 50);
    vertex(x, 230 + n * 80);
  }
  vertex(W, GROUND_Y);
  endShape(CLOSE);
}

function drawGround() {
  noStroke();
  fill(60, 30, 45);
  rect(0, GROUND_Y, W, H - GROUND_Y);
  stroke(255, 170, 90);
  strokeWeight(3);
  line(0, GROUND_Y, W, GROUND_Y);

  // moving stripes
  stroke(90, 50, 65);
  strokeWeight(2);
  for (let x = -groundOffset; x < W; x += 40) {
    line(x, GROUND_Y + 18, x + 18, GROUND_Y + 18);
    line(x + 20, GROUND_Y + 42, x + 34, GROUND_Y + 42);
  }
}

function drawObstacles() {
  for (let o of obstacles) {
    if (o.type === 'rock') {
      fill(90, 70, 80);
      stroke(30, 15, 30);
      strokeWeight(2);
      beginShape();
      vertex(o.x, o.y);
      vertex(o.x + o.w * 0.15, o.y - o.h * 0.7);
      vertex(o.x + o.w * 0.5, o.y - o.h);
      vertex(o.x + o.w * 0.85, o.y - o.h * 0.6);
      vertex(o.x + o.w, o.y);
      endShape(CLOSE);
    } else if (o.type === 'cactus') {
      fill(40, 90, 60);
      stroke(20, 40, 30);
      strokeWeight(2);
      rect(o.x, o.y - o.h, o.w, o.h, 6);
      rect(o.x - 10, o.y - o.h * 0.7, 10, 6, 3);
      rect(o.x - 10, o.y - o.h * 0.7 - 14, 6, 16, 3);
      rect(o.x + o.w, o.y - o.h * 0.5, 10, 6, 3);
      rect(o.x + o.w + 4, o.y - o.h * 0.5 - 12, 6, 14, 3);
    } else {
      // bird
      push();
      translate(o.x + o.w / 2, o.y);
      stroke(30, 15, 30);
      strokeWeight(3);
      noFill();
      let wing = sin(o.flap) * 10;
      line(-15, -wing, 0, 0);
      line(0, 0, 15, -wing);
      fill(30, 15, 30);
      noStroke();
      ellipse(0, 2, 10, 6);
      pop();
    }
  }
}

function drawPlayer() {
  if (invincible > 0 && floor(invincible / 5) % 2 === 0) return;
  push();
  translate(player.x, player.y);
  let h = player.h;
  let tilt = player.onGround ? 0 : constrain(player.vy * 0.03, -0.3, 0.3);
  rotate(tilt);

  // legs
  stroke(30, 20, 40);
  strokeWeight(4);
  let swing = player.onGround ? sin(player.legPhase) * 8 : 5;
  line(-4, -10, -4 + swing, 0);
  line(4, -10, 4 - swing, 0);

  // body
  fill(70, 160, 200);
  stroke(20, 40, 60);
  strokeWeight(2);
  rect(-player.w / 2, -h, player.w, h - 8, 6);

  // head band / eye
  fill(255, 240, 200);
  noStroke();
  circle(6, -h + 10, 8);
  fill(20);
  circle(8, -h + 10, 3);
  stroke(230, 70, 70);
  strokeWeight(3);
  line(-player.w / 2, -h + 4, player.w / 2, -h + 4);
  line(-player.w / 2, -h + 4, -player.w / 2 - 8, -h + 8 + sin(frameCount * 0.3) * 3);
  pop();
}

function drawParticles() {
  noStroke();
  for (let p of particles) {
    let a = map(p.life, 0, p.maxLife, 0, 255);
    fill(red(p.col), green(p.col), blue(p.col), a);
    circle(p.x, p.y, p.size);
  }
}

function drawHUD() {
  // panel
  fill(0, 0, 0, 90);
  noStroke();
  rect(8, 8, 150, 52, 8);

  fill(255);
  stroke(0);
  strokeWeight(3);
  textSize(18);
  textAlign(LEFT, TOP);
  text('Score: ' + score, 16, 14);

  // lives as hearts
  textSize(14);
  text('Lives:', 16, 38);
  noStroke();
  for (let i = 0; i < lives; i++) {
    fill(255, 80, 100);
    let hx = 70 + i * 20;
    let hy = 45;
    circle(hx - 3, hy, 8);
    circle(hx + 3, hy, 8);
    triangle(hx - 7, hy + 1, hx + 7, hy + 1, hx, hy + 9);
  }

  textAlign(RIGHT, TOP);
  fill(255, 240, 200);
  stroke(60, 20, 40);
  strokeWeight(3);
  textSize(14);
  text('Speed ' + nf(speed, 1, 1), W - 12, 14);

  if (gameState === 'gameover') {
    fill(0, 0, 0, 150);
    noStroke();
    rect(0, 0, W, H);
    textAlign(CENTER, CENTER);
    fill(255, 200, 120);
    stroke(80, 20, 40);
    strokeWeight(5);
    textSize(42);
    text('GAME OVER', W / 2, H / 2 - 20);
    textSize(20);
    strokeWeight(3);
    fill(255);
    text('Final score: ' + score, W / 2, H / 2 + 24);
  }
}

function keyPressed() {
  if (gameState === 'gameover' && key === 'r') {
    resetGame();
  }
}
