// Comet Dodge - steer your ship through a storm of spinning comets.
// Arrows move the ship, SPACE fires a laser. Survive 45 seconds to win.

const W = 600;
const H = 450;
const WIN_FRAMES = 2700;

let ship;
let comets;
let bullets;
let particles;
let stars;
let score;
let lives;
let state;
let frameCounter;
let spawnTimer;
let fireCooldown;
let invuln;
let shake;
let skyTop, skyBottom, cometHot, cometCold, shipColor;

function setup() {
  createCanvas(W, H);
  skyTop = color(20, 10, 50);
  skyBottom = color(60, 10, 60);
  cometHot = color(255, 240, 180);
  cometCold = color(255, 80, 20);
  shipColor = color(80, 200, 255);
  resetGame(0);
}

function resetGame(seed) {
  ship = { x: W / 2, y: H - 60, vx: 0, vy: 0, tilt: 0 };
  comets = [];
  bullets = [];
  particles = [];
  stars = [];
  for (let i = 0; i < 70; i++) {
    stars.push({ x: random(W), y: random(H), z: random(0.3, 1.5) });
  }
  score = 0;
  lives = 3;
  state = 'playing';
  frameCounter = 0;
  spawnTimer = 30;
  fireCooldown = 0;
  invuln = 60;
  shake = 0;
  background(10, 10, 30);
}

function getGameState() {
  return { score: score, lives: lives, gameState: state };
}

function spawnComet() {
  const r = random(12, 30);
  const pts = [];
  const n = floor(random(7, 11));
  for (let i = 0; i < n; i++) {
    pts.push(r * random(0.7, 1.15));
  }
  const difficulty = 1 + frameCounter / 900;
  comets.push({
    x: random(20, W - 20),
    y: -40,
    vx: random(-1.2, 1.2),
    vy: random(1.5, 3) * difficulty,
    r: r,
    pts: pts,
    angle: random(TWO_PI),
    spin: random(-0.06, 0.06),
    heat: random(0.2, 1)
  });
}

function explode(x, y, c1, c2, n) {
  for (let i = 0; i < n; i++) {
    const a = random(TWO_PI);
    const sp = random(0.5, 5);
    particles.push({
      x: x,
      y: y,
      vx: cos(a) * sp,
      vy: sin(a) * sp,
      life: random(150, 255),
      c: lerpColor(c1, c2, random()),
      size: random(2, 6)
    });
  }
}

function update() {
  frameCounter++;

  // --- ship controls ---
  const accel = 0.6;
  if (keyIsDown(LEFT_ARROW)) ship.vx -= accel;
  if (keyIsDown(RIGHT_ARROW)) ship.vx += accel;
  if (keyIsDown(UP_ARROW)) ship.vy -= accel;
  if (keyIsDown(DOWN_ARROW)) ship.vy += accel;
  ship.vx *= 0.88;
  ship.vy *= 0.88;
  ship.x = constrain(ship.x + ship.vx, 20, W - 20);
  ship.y = constrain(ship.y + ship.vy, 60, H - 25);
  ship.tilt = lerp(ship.tilt, ship.vx * 0.08, 0.2);

  // --- shooting ---
  if (fireCooldown > 0) fireCooldown--;
  if (keyIsDown(32) && fireCooldown === 0) {
    bullets.push({ x: ship.x, y: ship.y - 18 });
    fireCooldown = 12;
  }
  for (let i = bullets.length - 1; i >= 0; i--) {
    bullets[i].y -= 9;
    if (bullets[i].y < -10) bullets.splice(i, 1);
  }

  // --- comets ---
  spawnTimer--;
  if (spawnTimer <= 0) {
    spawnComet();
    spawnTimer = max(10, floor(random(30, 55) - frameCounter / 80));
  }

  for (let i = comets.length - 1; i >= 0; i--) {
    const c = comets[i];
    c.x += c.vx;
    c.y += c.vy;
    c.angle += c.spin;

    // tail sparks
    if (random() < 0.5) {
      particles.push({
        x: c.x + random(-c.r / 2, c.r / 2),
        y: c.y - c.r * 0.5,
        vx: random(-0.3, 0.3),
        vy: random(-1.5, -0.5),
        life: 160,
        c: lerpColor(cometHot, cometCold, random()),
        size: random(2, 5)
      });
    }

    // laser hits
    let destroyed = false;
    for (let j = bullets.length - 1; j >= 0; j--) {
      if (dist(bullets[j].x, bullets[j].y, c.x, c.y) < c.r) {
        bullets.splice(j, 1);
        explode(c.x, c.y, cometHot, cometCold, 20);
        score += 25;
        destroyed = true;
        break;
      }
    }
    if (destroyed) {
      comets.splice(i, 1);
      continue;
    }

    // ship collision
    if (invuln === 0 && dist(ship.x, ship.y, c.x, c.y) < c.r + 12) {
      explode(ship.x, ship.y, shipColor, color(255), 40);
      comets.splice(i, 1);
      lives--;
      invuln = 90;
      shake = 15;
      if (lives <= 0) {
        state = 'gameover';
      }
      continue;
    }

    if (c.y > H + 50 || c.x < -60 || c.x > W + 60) {
      comets.splice(i, 1);
      score += 2; // dodged one
    }
  }

  if (invuln > 0) invuln--;
  if (frameCounter % 30 === 0) score += 1;

  if (state === 'playing' && frameCounter >= WIN_FRAMES) {
    state = 'won';
    score += 100;
    explode(ship.x, ship.y, color(120, 255, 160), shipColor, 60);
  }
}

function draw() {
  // translucent background for motion blur trails
  background(10, 10, 30, 60);

  if (state === 'playing') update();

  push();
  if (shake > 0) {
    translate(random(-shake, shake) * 0.4, random(-shake, shake) * 0.4);
    shake--;
  }
  drawHorizon();
  drawStars();
  drawComets();
  drawBullets();
  if (state !== 'gameover') drawShip();
  drawParticles();
  pop();

  drawHUD();
  if (state !== 'playing') drawEndScreen();
}

function drawHorizon() {
  // gradient glow of a distant planet along the bottom edge
  noFill();
  strokeWeight(2);
  for (let y = H - 40; y < H; y += 2) {
    const t = map(y, H - 40, H, 0, 1);
    const c = lerpColor(skyTop, skyBottom, t);
    stroke(red(c), green(c), blue(c), 40);
    line(0, y, W, y);
  }
}

function drawStars() {
  noStroke();
  for (const s of stars) {
    if (state === 'playing') {
      s.y += s.z * 1.5;
      if (s.y > H) {
        s.y = 0;
        s.x = random(W);
      }
    }
    const b = 120 + 135 * noise(s.x * 0.01, frameCount * 0.02);
    fill(b, b, 255, 200);
    ellipse(s.x, s.y, s.z * 2, s.z * 2);
  }
}

function drawComets() {
  for (const c of comets) {
    const col = lerpColor(cometCold, cometHot, c.heat);
    // glowing tail
    noStroke();
    for (let k = 4; k >= 1; k--) {
      fill(red(col), green(col), blue(col), 25);
      ellipse(c.x - c.vx * k * 3, c.y - c.vy * k * 3, c.r * (2.2 - k * 0.2), c.r * (2.2 - k * 0.2));
    }
    // rocky rotating body
    push();
    translate(c.x, c.y);
    rotate(c.angle);
    fill(90, 70, 80);
    stroke(col);
    strokeWeight(2);
    beginShape();
    for (let i = 0; i < c.pts.length; i++) {
      const a = (TWO_PI * i) / c.pts.length;
      vertex(cos(a) * c.pts[i], sin(a) * c.pts[i]);
    }
    endShape(CLOSE);
    noStroke();
    fill(60, 45, 55);
    ellipse(c.r * 0.25, -c.r * 0.2, c.r * 0.4, c.r * 0.4);
    pop();
  }
}

function drawBullets() {
  strokeWeight(3);
  stroke(120, 255, 200);
  for (const b of bullets) {
    line(b.x, b.y, b.x, b.y + 12);
  }
  strokeWeight(1);
}

function drawShip() {
  if (invuln > 0 && floor(invuln / 5) % 2 === 0) return; // blink
  push();
  translate(ship.x, ship.y);
  rotate(ship.tilt);
  // engine flame
  noStroke();
  const flame = 10 + random(6);
  fill(255, 150, 40, 180);
  triangle(-6, 12, 6, 12, 0, 12 + flame);
  fill(255, 255, 160, 220);
  triangle(-3, 12, 3, 12, 0, 12 + flame * 0.6);
  // hull
  fill(shipColor);
  stroke(255);
  strokeWeight(1.5);
  triangle(0, -18, -14, 14, 14, 14);
  fill(20, 40, 80);
  noStroke();
  ellipse(0, 0, 8, 12);
  pop();
}

function drawParticles() {
  noStroke();
  for (let i = particles.length - 1; i >= 0; i--) {
    const p = particles[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vx *= 0.96;
    p.vy *= 0.96;
    p.life -= 5;
    if (p.life <= 0) {
      particles.splice(i, 1);
      continue;
    }
    fill(red(p.c), green(p.c), blue(p.c), p.life);
    ellipse(p.x, p.y, p.size, p.size);
  }
}

function drawHUD() {
  noStroke();
  fill(0, 0, 0, 140);
  rect(0, 0, W, 30);
  textSize(16);
  textAlign(LEFT, CENTER);
  fill(255, 220, 120);
  text('SCORE: ' + score, 12, 15);

  // time progress bar
  const t = constrain(frameCounter / WIN_FRAMES, 0, 1);
  fill(40, 40, 70);
  rect(W / 2 - 100, 10, 200, 10, 4);
  fill(lerpColor(color(255, 80, 80), color(80, 255, 140), t));
  rect(W / 2 - 100, 10, 200 * t, 10, 4);

  textAlign(RIGHT, CENTER);
  fill(shipColor);
  text('LIVES', W - 70, 15);
  for (let i = 0; i < lives; i++) {
    push();
    translate(W - 55 + i * 18, 15);
    fill(shipColor);
    triangle(0, -7, -6, 6, 6, 6);
    pop();
  }
}

function drawEndScreen() {
  noStroke();
  fill(0, 0, 0, 160);
  rect(0, H / 2 - 55, W, 110);
  textAlign(CENTER, CENTER);
  textSize(40);
  if (state === 'won') {
    fill(120, 255, 160);
    text('YOU SURVIVED!', W / 2, H / 2 - 12);
  } else {
    fill(255, 90, 60);
    text('SHIP DESTROYED', W / 2, H / 2 - 12);
  }
  textSize(16);
  fill(255);
  text('Score: ' + score, W / 2, H / 2 + 28);
}
