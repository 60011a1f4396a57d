// Orbit Defender - rotate the turret, blast incoming asteroids.
// LEFT/RIGHT rotate, UP thrusts the shield charge, SPACE fires.

const W = 480;
const H = 480;

let turretAngle;
let bullets;
let rocks;
let particles;
let stars;
let score;
let lives;
let state;
let timer;
let cooldown;
let spawnTimer;
let shieldFlash;

function setup() {
  createCanvas(W, H);
  resetGame(0);
}

function resetGame(seed) {
  turretAngle = -HALF_PI;
  bullets = [];
  rocks = [];
  particles = [];
  stars = [];
  for (let i = 0; i < 70; i++) {
    stars.push({ x: random(W), y: random(H), s: random(1, 3), tw: random(TWO_PI) });
  }
  score = 0;
  lives = 3;
  state = 'playing';
  timer = 2400;
  cooldown = 0;
  spawnTimer = 30;
  shieldFlash = 0;
}

function getGameState() {
  return { score: score, lives: lives, gameState: state };
}

function spawnRock() {
  let a = random(TWO_PI);
  let r = 300;
  let speed = random(0.8, 1.6) + (2400 - timer) / 2400;
  let size = random(14, 30);
  let pts = [];
  let n = floor(random(7, 11));
  for (let i = 0; i < n; i++) {
    pts.push(random(0.7, 1.15));
  }
  rocks.push({
    x: W / 2 + cos(a) * r,
    y: H / 2 + sin(a) * r,
    vx: -cos(a) * speed,
    vy: -sin(a) * speed,
    size: size,
    rot: random(TWO_PI),
    spin: random(-0.05, 0.05),
    pts: pts,
    hue: random(20, 45)
  });
}

function explode(x, y, count, c) {
  for (let i = 0; i < count; i++) {
    let a = random(TWO_PI);
    let s = random(0.5, 4);
    particles.push({ x: x, y: y, vx: cos(a) * s, vy: sin(a) * s, life: random(20, 45), c: c });
  }
}

function update() {
  if (keyIsDown(LEFT_ARROW)) turretAngle -= 0.07;
  if (keyIsDown(RIGHT_ARROW)) turretAngle += 0.07;

  if (cooldown > 0) cooldown--;
  let rapid = keyIsDown(UP_ARROW);
  if (keyIsDown(32) && cooldown === 0) {
    let bx = W / 2 + cos(turretAngle) * 30;
    let by = H / 2 + sin(turretAngle) * 30;
    bullets.push({ x: bx, y: by, vx: cos(turretAngle) * 7, vy: sin(turretAngle) * 7, life: 60 });
    cooldown = rapid ? 5 : 10;
  }

  spawnTimer--;
  if (spawnTimer <= 0) {
    spawnRock();
    spawnTimer = max(18, 60 - floor((2400 - timer) / 60));
  }

  for (let i = bullets.length - 1; i >= 0; i--) {
    let b = bullets[i];
    b.x += b.vx;
    b.y += b.vy;
    b.life--;
    if (b.life <= 0) bullets.splice(i, 1);
  }

  for (let i = rocks.length - 1; i >= 0; i--) {
    let r = rocks[i];
    r.x += r.vx;
    r.y += r.vy;
    r.rot += r.spin;

    let hit = false;
    for (let j = bullets.length - 1; j >= 0; j--) {
      let b = bullets[j];
      if (dist(b.x, b.y, r.x, r.y) < r.size) {
        bullets.splice(j, 1);
        hit = true;
        break;
      }
    }
    if (hit) {
      explode(r.x, r.y, 14, color(255, 180, 60));
      score += floor(40 - r.size);
      rocks.splice(i, 1);
      continue;
    }

    if (dist(r.x, r.y, W / 2, H / 2) < r.size + 24) {
      explode(r.x, r.y, 25, color(120, 200, 255));
      lives--;
      shieldFlash = 20;
      rocks.splice(i, 1);
      if (lives <= 0) {
        state = 'gameover';
      }
    }
  }

  for (let i = particles.length - 1; i >= 0; i--) {
    let p = particles[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vx *= 0.96;
    p.vy *= 0.96;
    p.life--;
    if (p.life <= 0) particles.splice(i, 1);
  }

  if (shieldFlash > 0) shieldFlash--;
  timer--;
  if (timer <= 0 && state === 'playing') {
    state = 'won';
  }
}

function drawStars() {
  noStroke();
  for (let s of stars) {
    let b = 150 + 100 * sin(s.tw + timer * 0.05);
    fill(b, b, 255, 200);
    circle(s.x, s.y, s.s);
  }
}

function drawPlanet() {
  // radial gradient glow around the base
  noStroke();
  for (let r = 90; r > 0; r -= 6) {
    let t = r / 90;
    let c = lerpColor(color(60, 140, 255, 140), color(10, 20, 60, 0), t);
    fill(c);
    circle(W / 2, H / 2, r * 2);
  }
  // shield ring
  noFill();
  strokeWeight(2);
  if (shieldFlash > 0) {
    stroke(255, 90, 90, 200);
  } else {
    stroke(120, 200, 255, 120);
  }
  circle(W / 2, H / 2, 48 + sin(timer * 0.1) * 3);
}

function drawTurret() {
  push();
  translate(W / 2, H / 2);
  rotate(turretAngle);
  stroke(200, 230, 255);
  strokeWeight(2);
  fill(40, 80, 140);
  rectMode(CENTER);
  rect(16, 0, 28, 8, 3);
  fill(70, 130, 200);
  ellipse(0, 0, 26, 26);
  pop();
}

function drawRocks() {
  for (let r of rocks) {
    push();
    translate(r.x, r.y);
    rotate(r.rot);
    stroke(255, 200, 140);
    strokeWeight(1.5);
    fill(r.hue * 3, r.hue * 2, r.hue);
    beginShape();
    for (let i = 0; i < r.pts.length; i++) {
      let a = (TWO_PI * i) / r.pts.length;
      vertex(cos(a) * r.size * r.pts[i], sin(a) * r.size * r.pts[i]);
    }
    endShape(CLOSE);
    pop();
  }
}

function drawBullets() {
  stroke(255, 255, 150);
  strokeWeight(3);
  for (let b of bullets) {
    line(b.x, b.y, b.x - b.vx * 1.5, b.y - b.vy * 1.5);
  }
}

function drawParticles() {
  noStroke();
  for (let p of particles) {
    let c = p.c;
    fill(red(c), green(c), blue(c), map(p.life, 0, 45, 0, 255));
    circle(p.x, p.y, map(p.life, 0, 45, 1, 6));
  }
}

function drawHUD() {
  noStroke();
  fill(0, 0, 0, 150);
  rect(0, 0, W, 30);
  fill(255);
  textSize(16);
  textAlign(LEFT, CENTER);
  text('Score: ' + score, 10, 15);
  textAlign(CENTER, CENTER);
  text('Time: ' + ceil(timer / 60), W / 2, 15);
  textAlign(RIGHT, CENTER);
  fill(255, 110, 110);
  text('Lives: ' + lives, W - 10, 15);
}

function drawEnd() {
  fill(0, 0, 0, 160);
  noStroke();
  rect(0, 0, W, H);
  textAlign(CENTER, CENTER);
  textSize(36);
  if (state === 'won') {
    fill(140, 255, 160);
    text('PLANET SAVED', W / 2, H / 2 - 20);
  } else {
    fill(255, 100, 100);
    text('GAME OVER', W / 2, H / 2 - 20);
  }
  fill(255);
  textSize(18);
  text('Final score: ' + score, W / 2, H / 2 + 20);
}

function draw() {
  if (state === 'playing') {
    update();
  }
  // translucent background leaves motion trails
  background(8, 10, 30, 90);
  drawStars();
  drawPlanet();
  drawParticles();
  drawRocks();
  drawBullets();
  drawTurret();
  drawHUD();
  if (state !== 'playing') {
    drawEnd();
  }
}
