// Orbit Defense
// Your turret circles the home planet. LEFT / RIGHT rotate it around the orbit,
// SPACE fires. Asteroids drift in from the edges of space and split when shot.
// Survive 5 waves to win. If the shield runs dry the planet loses a life.

const W = 400;
const H = 400;
const PLANET_R = 38;
const ORBIT_R = 62;
const SHIELD_R = 50;
const MAX_WAVE = 5;

let rng;
let stars = [];
let bullets = [];
let asteroids = [];
let popups = [];
let debris = [];
let score = 0;
let lives = 3;
let gameState = 'playing';
let wave = 1;
let toSpawn = 0;
let spawnTimer = 0;
let waveTimer = 0;
let shield = 100;
let shieldFlash = 0;
let turretAngle = -90;
let targetAngle = -90;
let fireCooldown = 0;
let frameNo = 0;

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
  angleMode(DEGREES);
  resetGame(1);
}

function rnd(a, b) {
  return a + rng() * (b - a);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 3;
  gameState = 'playing';
  wave = 1;
  shield = 100;
  shieldFlash = 0;
  turretAngle = -90;
  targetAngle = -90;
  fireCooldown = 0;
  frameNo = 0;
  bullets = [];
  asteroids = [];
  popups = [];
  debris = [];

  stars = [];
  for (let i = 0; i < 150; i++) {
    stars.push({
      x: rnd(0, W),
      y: rnd(0, H),
      size: rnd(0.5, 3),
      bright: rnd(120, 255),
      twinkle: rnd(0, 360)
    });
  }

  startWave();
}

function startWave() {
  toSpawn = 3 + wave * 2;
  spawnTimer = 30;
  waveTimer = 90;
}

function makeAsteroid(x, y, size, vx, vy) {
  let r = size * 9 + 4;
  let n = floor(rnd(7, 11));
  let radii = [];
  for (let i = 0; i < n; i++) {
    radii.push(r * rnd(0.7, 1.2));
  }
  return {
    x: x,
    y: y,
    vx: vx,
    vy: vy,
    size: size,
    r: r,
    radii: radii,
    rot: rnd(0, 360),
    spin: rnd(-2, 2),
    shade: rnd(100, 160)
  };
}

function spawnAsteroid() {
  // pick a point on the edge of the screen
  let side = floor(rnd(0, 4));
  let x, y;
  if (side === 0) { x = rnd(0, W); y = -30; }
  else if (side === 1) { x = W + 30; y = rnd(0, H); }
  else if (side === 2) { x = rnd(0, W); y = H + 30; }
  else { x = -30; y = rnd(0, H); }

  // aim roughly at the planet
  let a = atan2(H / 2 - y, W / 2 - x) + rnd(-12, 12);
  let speed = rnd(0.5, 0.9) + wave * 0.12;
  asteroids.push(makeAsteroid(x, y, 3, cos(a) * speed, sin(a) * speed));
}

function keyPressed() {
  if (key === ' ' || keyCode === 32) {
    if (gameState === 'playing' && fireCooldown <= 0) {
      fire();
    }
  }
}

function fire() {
  let tx = W / 2 + cos(turretAngle) * ORBIT_R;
  let ty = H / 2 + sin(turretAngle) * ORBIT_R;
  let speed = 6;
  bullets.push({
    x: tx + cos(turretAngle) * 10,
    y: ty + sin(turretAngle) * 10,
    vx: cos(turretAngle) * speed,
    vy: sin(turretAngle) * speed,
    life: 80
  });
  fireCooldown = 8;
}

function addPopup(x, y, txt, col) {
  popups.push({ x: x, y: y, txt: txt, life: 45, col: col });
}

function explode(x, y, count) {
  for (let i = 0; i < count; i++) {
    let a = rnd(0, 360);
    let s = rnd(0.5, 3);
    debris.push({ x: x, y: y, vx: cos(a) * s, vy: sin(a) * s, life: floor(rnd(15, 30)) });
  }
}

function update() {
  frameNo++;

  // turret control: target angle moves, actual angle eases toward it
  if (keyIsDown(LEFT_ARROW)) targetAngle -= 4;
  if (keyIsDown(RIGHT_ARROW)) targetAngle += 4;
  turretAngle = lerp(turretAngle, targetAngle, 0.2);
  if (fireCooldown > 0) fireCooldown--;

  // spawning
  if (waveTimer > 0) {
    waveTimer--;
  } else if (toSpawn > 0) {
    spawnTimer--;
    if (spawnTimer <= 0) {
      spawnAsteroid();
      toSpawn--;
      spawnTimer = floor(rnd(50, 110)) - wave * 6;
    }
  } else if (asteroids.length === 0) {
    if (wave >= MAX_WAVE) {
      gameState = 'won';
      score += 500;
      return;
    }
    wave++;
    score += 100;
    addPopup(W / 2, H / 2 - 70, 'WAVE CLEAR +100', color(120, 255, 160));
    startWave();
  }

  // bullets (backwards loop so splice is safe)
  for (let i = bullets.length - 1; i >= 0; i--) {
    let b = bullets[i];
    b.x += b.vx;
    b.y += b.vy;
    b.life--;
    if (b.life <= 0 || b.x < -10 || b.x > W + 10 || b.y < -10 || b.y > H + 10) {
      bullets.splice(i, 1);
      continue;
    }
    for (let j = asteroids.length - 1; j >= 0; j--) {
      let a = asteroids[j];
      if (dist(b.x, b.y, a.x, a.y) < a.r) {
        bullets.splice(i, 1);
        hitAsteroid(j);
        break;
      }
    }
  }

  // asteroids
  for (let i = asteroids.length - 1; i >= 0; i--) {
    let a = asteroids[i];
    a.x += a.vx;
    a.y += a.vy;
    a.rot += a.spin;

    // gentle pull toward the planet
    let d = dist(a.x, a.y, W / 2, H / 2);
    let pull = 0.004;
    a.vx += (W / 2 - a.x) / d * pull;
    a.vy += (H / 2 - a.y) / d * pull;

    if (d < SHIELD_R + a.r * 0.6) {
      let dmg = a.size * 15;
      shield -= dmg;
      shieldFlash = 20;
      explode(a.x, a.y, 8);
      addPopup(a.x, a.y, '-' + dmg, color(255, 90, 90));
      asteroids.splice(i, 1);
      if (shield <= 0) {
        lives--;
        if (lives <= 0) {
          lives = 0;
          gameState = 'gameover';
        } else {
          shield = 100;
        }
      }
      continue;
    }

    // lost in space
    if (a.x < -80 || a.x > W + 80 || a.y < -80 || a.y > H + 80) {
      asteroids.splice(i, 1);
    }
  }

  // popups float up and fade
  for (let i = popups.length - 1; i >= 0; i--) {
    popups[i].y -= 0.8;
    popups[i].life--;
    if (popups[i].life <= 0) popups.splice(i, 1);
  }

  for (let i = debris.length - 1; i >= 0; i--) {
    let p = debris[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vx *= 0.96;
    p.vy *= 0.96;
    p.life--;
    if (p.life <= 0) debris.splice(i, 1);
  }

  if (shieldFlash > 0) shieldFlash--;
}

function hitAsteroid(j) {
  let a = asteroids[j];
  let points = [0, 100, 50, 20][a.size];
  score += points;
  addPopup(a.x, a.y, '+' + points, color(255, 230, 120));
  explode(a.x, a.y, 6);
  asteroids.splice(j, 1);
  if (a.size > 1) {
    let heading = atan2(a.vy, a.vx);
    let sp = sqrt(a.vx * a.vx + a.vy * a.vy) * 1.2;
    for (let k = -1; k <= 1; k += 2) {
      let h = heading + k * rnd(25, 50);
      asteroids.push(makeAsteroid(a.x, a.y, a.size - 1, cos(h) * sp, sin(h) * sp));
    }
  }
}

function draw() {
  if (gameState === 'playing') {
    update();
  }

  background(6, 8, 20);
  drawStars();
  drawPlanet();
  drawShield();
  drawTurret();
  drawBullets();
  drawAsteroids();
  drawDebris();
  drawPopups();
  drawHUD();

  if (gameState !== 'playing') {
    noStroke();
    fill(0, 0, 0, 160);
    rect(0, 0, W, H);
    textAlign(CENTER, CENTER);
    textSize(34);
    fill(gameState === 'won' ? color(120, 255, 160) : color(255, 100, 100));
    text(gameState === 'won' ? 'PLANET SAVED' : 'PLANET LOST', W / 2, H / 2 - 16);
    textSize(16);
    fill(255);
    text('Final score: ' + score, W / 2, H / 2 + 20);
  }
}

function drawStars() {
  for (let s of stars) {
    let b = s.bright * (0.7 + 0.3 * sin(s.twinkle + frameNo * 3));
    stroke(b, b, 255);
    strokeWeight(s.size);
    point(s.x, s.y);
  }
}

function drawPlanet() {
  push();
  translate(W / 2, H / 2);
  noStroke();
  // atmosphere
  fill(60, 120, 255, 40);
  circle(0, 0, PLANET_R * 2 + 14);
  fill(40, 90, 180);
  circle(0, 0, PLANET_R * 2);
  // continents rotate slowly
  rotate(frameNo * 0.2);
  fill(70, 160, 90);
  ellipse(-10, -8, 30, 20);
  ellipse(14, 12, 22, 16);
  ellipse(6, -22, 12, 8);
  pop();
  // shading
  noStroke();
  fill(0, 0, 0, 70);
  arc(W / 2, H / 2, PLANET_R * 2, PLANET_R * 2, 90, 270, CHORD);
}

function drawShield() {
  push();
  translate(W / 2, H / 2);
  // filled pie showing the shield's energy when it's hit
  if (shieldFlash > 0) {
    noStroke();
    fill(120, 200, 255, shieldFlash * 4);
    arc(0, 0, SHIELD_R * 2, SHIELD_R * 2, -90, -90 + 360 * max(shield, 0) / 100, PIE);
  }
  // shield ring: an open arc whose length is the remaining energy
  noFill();
  stroke(120, 200, 255, 180);
  strokeWeight(3);
  if (shield >= 100) {
    circle(0, 0, SHIELD_R * 2);
  } else if (shield > 0) {
    arc(0, 0, SHIELD_R * 2, SHIELD_R * 2, -90, -90 + 360 * shield / 100, OPEN);
  }
  pop();
}

function drawTurret() {
  let tx = W / 2 + cos(turretAngle) * ORBIT_R;
  let ty = H / 2 + sin(turretAngle) * ORBIT_R;

  // orbit path
  noFill();
  stroke(255, 255, 255, 30);
  strokeWeight(1);
  circle(W / 2, H / 2, ORBIT_R * 2);

  push();
  translate(tx, ty);
  rotate(turretAngle);
  stroke(200);
  strokeWeight(4);
  line(0, 0, 14, 0);
  noStroke();
  fill(230, 230, 250);
  rectMode(CENTER);
  rect(0, 0, 14, 12, 3);
  rectMode(CORNER);
  // reload indicator
  fill(255, 200, 60);
  arc(0, 0, 10, 10, 0, 360 * (1 - fireCooldown / 8), PIE);
  pop();
}

function drawBullets() {
  stroke(255, 240, 120);
  strokeWeight(2);
  for (let b of bullets) {
    line(b.x, b.y, b.x - b.vx, b.y - b.vy);
  }
}

function drawAsteroids() {
  for (let a of asteroids) {
    push();
    translate(a.x, a.y);
    rotate(a.rot);
    fill(a.shade, a.shade - 10, a.shade - 25);
    stroke(220, 210, 190);
    strokeWeight(1.5);
    let n = a.radii.length;
    beginShape();
    for (let i = 0; i < n + 3; i++) {
      let idx = i % n;
      let ang = idx * 360 / n;
      curveVertex(cos(ang) * a.radii[idx], sin(ang) * a.radii[idx]);
    }
    endShape();
    pop();
  }
}

function drawDebris() {
  noStroke();
  for (let p of debris) {
    fill(255, 180, 80, p.life * 8);
    circle(p.x, p.y, 2.5);
  }
}

function drawPopups() {
  textAlign(CENTER, CENTER);
  textSize(14);
  noStroke();
  for (let p of popups) {
    let c = p.col;
    let alpha = map(p.life, 0, 45, 0, 255);
    fill(red(c), green(c), blue(c), alpha);
    text(p.txt, p.x, p.y);
  }
}

function drawHUD() {
  noStroke();
  fill(255);
  textSize(16);
  textAlign(LEFT, TOP);
  text('Score: ' + score, 10, 10);
  text('Lives: ' + lives, 10, 30);

  textAlign(RIGHT, TOP);
  textSize(18);
  text('Wave ' + wave, W - 10, 10);
  textSize(12);
  fill(180);
  text('Left: ' + (toSpawn + asteroids.length), W - 10, 32);

  // shield health bar
  let bx = 10;
  let by = H - 24;
  let bw = 120;
  let bh = 12;
  noStroke();
  fill(60, 160, 255);
  rect(bx, by, bw * constrain(shield, 0, 100) / 100, bh);
  noFill();
  stroke(255);
  strokeWeight(1);
  rect(bx, by, bw, bh);
  noStroke();
  fill(200);
  textAlign(LEFT, BOTTOM);
  textSize(11);
  text('SHIELD', bx, by - 2);
}

function getGameState() {
  return { score, lives, gameState };
}
