// River Raid - a tiny vertical scrolling shooter in p5.js (global mode)

const W = 320;
const H = 480;
const ROW_H = 8;
const PLANE_Y = H - 70;       // screen y of the plane
const MAX_FUEL = 100;

let rng;
let score, lives, gameState;
let scrollY, speed;
let plane;
let bullets, enemies, depots, explosions;
let fuel;
let nextSpawnRow;
let invuln;
let frameInLife;

function mulberry32(a) {
  return function() {
    a |= 0; a = a + 0x6D2B79F5 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  }
}

function resetGame(seed) {
  rng = mulberry32(seed);
  noiseSeed(seed);
  randomSeed(seed);
  score = 0;
  lives = 3;
  gameState = 'playing';
  scrollY = 0;
  speed = 1.5;
  plane = { x: W / 2, w: 18, h: 20 };
  bullets = [];
  enemies = [];
  depots = [];
  explosions = [];
  fuel = MAX_FUEL;
  nextSpawnRow = 40;
  invuln = 60;
  frameInLife = 0;
}

function getGameState() {
  return { score, lives, gameState };
}

function setup() {
  createCanvas(W, H);
  resetGame(12345);
}

// ---------- river geometry ----------

function riverAt(row) {
  // start with a wide straight river, then let noise take over
  let wiggle = constrain((row - 20) / 40, 0, 1);
  let center = W / 2 + (noise(row * 0.025) - 0.5) * 180 * wiggle;
  let width = lerp(200, 80 + noise(row * 0.015 + 500) * 150, wiggle);
  let left = constrain(center - width / 2, 10, W - 60);
  let right = constrain(center + width / 2, left + 50, W - 10);
  return { left, right };
}

function worldToScreen(wy) {
  return H - (wy - scrollY);
}

function screenToWorld(sy) {
  return scrollY + (H - sy);
}

function riverAtWorldY(wy) {
  return riverAt(floor(wy / ROW_H));
}

// ---------- spawning ----------

function spawnThings() {
  while (nextSpawnRow * ROW_H < scrollY + H + 40) {
    let r = riverAt(nextSpawnRow);
    let wy = nextSpawnRow * ROW_H;
    let roll = rng();
    if (roll < 0.3) {
      depots.push({
        x: r.left + 12 + rng() * max(1, r.right - r.left - 54),
        wy: wy,
        w: 30,
        h: 36
      });
    } else if (roll < 0.7) {
      enemies.push({
        type: 'boat',
        x: r.left + 20 + rng() * max(1, r.right - r.left - 40),
        wy: wy,
        dir: rng() < 0.5 ? -1 : 1,
        vx: 0.5 + rng() * 0.8,
        w: 32, h: 12,
        points: 30
      });
    } else {
      enemies.push({
        type: 'heli',
        x: r.left + 20 + rng() * max(1, r.right - r.left - 40),
        wy: wy,
        dir: rng() < 0.5 ? -1 : 1,
        vx: 0.8 + rng() * 1.2,
        w: 28, h: 14,
        points: 60,
        rotor: 0
      });
    }
    nextSpawnRow += 8 + floor(rng() * 10);
  }
}

// ---------- input ----------

function keyPressed() {
  if (gameState !== 'playing') return;
  if (key === ' ' || keyCode === 32) {
    if (bullets.length < 3) {
      bullets.push({ x: plane.x, wy: screenToWorld(PLANE_Y - 12) });
    }
  }
}

// ---------- update ----------

function loseLife() {
  explosions.push({ x: plane.x, wy: screenToWorld(PLANE_Y), t: 0 });
  lives--;
  if (lives <= 0) {
    lives = 0;
    gameState = 'gameover';
    return;
  }
  // respawn in the middle of the river
  let r = riverAtWorldY(screenToWorld(PLANE_Y));
  plane.x = (r.left + r.right) / 2;
  fuel = MAX_FUEL;
  invuln = 90;
  bullets = [];
  frameInLife = 0;
}

function updateGame() {
  frameInLife++;

  // speed control
  let targetSpeed = 1.5;
  if (keyIsDown(UP_ARROW)) targetSpeed = 2.75;
  if (keyIsDown(DOWN_ARROW)) targetSpeed = 0.75;
  speed = lerp(speed, targetSpeed, 0.08);
  scrollY += speed;

  // steering
  if (keyIsDown(LEFT_ARROW)) plane.x -= 2.6;
  if (keyIsDown(RIGHT_ARROW)) plane.x += 2.6;
  plane.x = constrain(plane.x, 8, W - 8);

  // fuel
  fuel -= 0.09 + speed * 0.03;

  spawnThings();

  // bullets
  for (let i = bullets.length - 1; i >= 0; i--) {
    let b = bullets[i];
    b.wy += 7;
    let sy = worldToScreen(b.wy);
    let r = riverAtWorldY(b.wy);
    if (sy < -10 || b.x < r.left || b.x > r.right) {
      bullets.splice(i, 1);
    }
  }

  // enemies
  for (let e of enemies) {
    let r = riverAtWorldY(e.wy);
    e.x += e.vx * e.dir;
    if (e.x - e.w / 2 < r.left) { e.x = r.left + e.w / 2; e.dir = 1; }
    if (e.x + e.w / 2 > r.right) { e.x = r.right - e.w / 2; e.dir = -1; }
    if (e.type === 'heli') e.rotor += 0.5;
  }

  // bullet hits
  for (let i = bullets.length - 1; i >= 0; i--) {
    let b = bullets[i];
    let hit = false;
    for (let j = enemies.length - 1; j >= 0; j--) {
      let e = enemies[j];
      if (abs(b.x - e.x) < e.w / 2 && abs(b.wy - e.wy) < e.h / 2 + 4) {
        score += e.points;
        explosions.push({ x: e.x, wy: e.wy, t: 0 });
        enemies.splice(j, 1);
        hit = true;
        break;
      }
    }
    if (!hit) {
      for (let j = depots.length - 1; j >= 0; j--) {
        let d = depots[j];
        if (b.x > d.x && b.x < d.x + d.w && b.wy < d.wy + d.h && b.wy > d.wy) {
          score += 80;
          explosions.push({ x: d.x + d.w / 2, wy: d.wy + d.h / 2, t: 0 });
          depots.splice(j, 1);
          hit = true;
          break;
        }
      }
    }
    if (hit) bullets.splice(i, 1);
  }

  // plane vs world
  let planeWY = screenToWorld(PLANE_Y);
  if (invuln > 0) {
    invuln--;
  } else {
    let r = riverAtWorldY(planeWY);
    let rTop = riverAtWorldY(planeWY + 10);
    if (plane.x - plane.w / 2 < max(r.left, rTop.left) ||
        plane.x + plane.w / 2 > min(r.right, rTop.right)) {
      loseLife();
      return;
    }
    for (let e of enemies) {
      if (abs(plane.x - e.x) < (plane.w + e.w) / 2 - 4 &&
          abs(planeWY - e.wy) < (plane.h + e.h) / 2 - 4) {
        loseLife();
        return;
      }
    }
  }

  // refuel over a depot
  for (let d of depots) {
    if (plane.x > d.x - 4 && plane.x < d.x + d.w + 4 &&
        planeWY > d.wy && planeWY < d.wy + d.h + 10) {
      fuel = min(MAX_FUEL, fuel + 0.6);
    }
  }

  if (fuel <= 0) {
    fuel = 0;
    loseLife();
    return;
  }

  // distance points
  if (frameCount % 30 === 0) score += 1;

  // cleanup things that scrolled off the bottom
  enemies = enemies.filter(e => worldToScreen(e.wy) < H + 30);
  depots = depots.filter(d => worldToScreen(d.wy) < H + 40);
}

// ---------- drawing ----------

function drawRiver() {
  background(40, 80, 200);
  noStroke();
  fill(40, 150, 50);

  let firstRow = floor(scrollY / ROW_H) - 1;
  let lastRow = firstRow + ceil(H / ROW_H) + 3;

  // left bank
  beginShape();
  vertex(0, worldToScreen(firstRow * ROW_H));
  for (let row = firstRow; row <= lastRow; row++) {
    let r = riverAt(row);
    vertex(r.left, worldToScreen(row * ROW_H));
  }
  vertex(0, worldToScreen(lastRow * ROW_H));
  endShape(CLOSE);

  // right bank
  beginShape();
  vertex(W, worldToScreen(firstRow * ROW_H));
  for (let row = firstRow; row <= lastRow; row++) {
    let r = riverAt(row);
    vertex(r.right, worldToScreen(row * ROW_H));
  }
  vertex(W, worldToScreen(lastRow * ROW_H));
  endShape(CLOSE);

  // a few darker stripes on the banks for a sense of speed
  stroke(30, 120, 40);
  strokeWeight(2);
  for (let row = firstRow; row <= lastRow; row++) {
    if (row % 12 === 0) {
      let r = riverAt(row);
      let y = worldToScreen(row * ROW_H);
      line(4, y, r.left - 6, y);
      line(r.right + 6, y, W - 4, y);
    }
  }
}

function drawDepot(d) {
  let y = worldToScreen(d.wy + d.h);
  stroke(0);
  strokeWeight(1);
  fill(230, 60, 60);
  rect(d.x, y, d.w, d.h);
  // white stripes like the arcade depots
  fill(255);
  rect(d.x, y + 4, d.w, 3);
  rect(d.x, y + d.h - 7, d.w, 3);
  noStroke();
  fill(255);
  textSize(10);
  textAlign(CENTER, CENTER);
  text('FUEL', d.x + d.w / 2, y + d.h / 2);
}

function drawBoat(e) {
  let y = worldToScreen(e.wy);
  push();
  translate(e.x, y);
  if (e.dir < 0) scale(-1, 1);
  stroke(0);
  strokeWeight(1);
  fill(60);
  ellipse(0, 2, e.w, e.h);
  fill(200);
  rect(-8, -8, 12, 7);
  fill(20, 20, 20);
  triangle(e.w / 2 - 2, 2, e.w / 2 - 10, -3, e.w / 2 - 10, 6);
  pop();
}

function drawHeli(e) {
  let y = worldToScreen(e.wy);
  push();
  translate(e.x, y);
  if (e.dir < 0) scale(-1, 1);
  stroke(0);
  strokeWeight(1);
  fill(240, 200, 40);
  ellipse(4, 0, 16, 12);
  fill(200, 160, 30);
  rect(-14, -2, 12, 4);
  triangle(-14, -2, -18, -7, -16, 2);
  // rotor
  stroke(30);
  strokeWeight(2);
  let rw = 12 * cos(e.rotor);
  line(4 - rw, -8, 4 + rw, -8);
  line(4, -8, 4, -6);
  pop();
}

function drawPlane() {
  if (invuln > 0 && floor(invuln / 5) % 2 === 0) return;
  push();
  translate(plane.x, PLANE_Y);
  stroke(0);
  strokeWeight(1);
  fill(240, 240, 100);
  // wings
  quad(-plane.w / 2, 4, 0, -4, plane.w / 2, 4, 0, 8);
  // fuselage / nose
  fill(250, 250, 180);
  triangle(0, -plane.h / 2, -4, plane.h / 2, 4, plane.h / 2);
  // tail
  fill(200, 200, 80);
  quad(-6, plane.h / 2, 0, plane.h / 2 - 4, 6, plane.h / 2, 0, plane.h / 2 + 2);
  pop();
}

function drawBullets() {
  noStroke();
  fill(255, 255, 120);
  for (let b of bullets) {
    rect(b.x - 1, worldToScreen(b.wy) - 4, 2, 8);
  }
}

function drawExplosions() {
  for (let i = explosions.length - 1; i >= 0; i--) {
    let ex = explosions[i];
    ex.t++;
    let y = worldToScreen(ex.wy);
    noStroke();
    fill(255, 160, 0, 255 - ex.t * 12);
    ellipse(ex.x, y, ex.t * 2.5, ex.t * 2.5);
    fill(255, 255, 200, 255 - ex.t * 14);
    ellipse(ex.x, y, ex.t * 1.2, ex.t * 1.2);
    if (ex.t > 20) explosions.splice(i, 1);
  }
}

function drawFuelGauge() {
  let gx = 90, gy = H - 26, gw = 140, gh = 14;
  fill(0);
  stroke(255);
  strokeWeight(1);
  rect(gx - 2, gy - 2, gw + 4, gh + 4);
  let filled = gw * (fuel / MAX_FUEL);
  for (let i = 0; i < filled; i++) {
    let t = i / gw;
    stroke(lerpColor(color('red'), color('lime'), t));
    line(gx + i, gy, gx + i, gy + gh);
  }
  noStroke();
  fill(255);
  textSize(10);
  textAlign(RIGHT, CENTER);
  text('E', gx - 6, gy + gh / 2);
  textAlign(LEFT, CENTER);
  text('F', gx + gw + 6, gy + gh / 2);
  // needle
  stroke(255);
  strokeWeight(2);
  line(gx + filled, gy - 4, gx + filled, gy + gh + 4);
}

function drawHUD() {
  noStroke();
  fill(0, 0, 0, 150);
  rect(0, 0, W, 24);
  fill(255);
  textSize(16);
  textAlign(LEFT, BASELINE);
  text('SCORE ' + score.toString().padStart(6, '0'), 8, 18);
  textAlign(RIGHT, BASELINE);
  let planes = '';
  for (let i = 0; i < lives; i++) planes += '^';
  text('LIVES ' + planes, W - 8, 18);
  fill(0, 0, 0, 150);
  rect(0, H - 34, W, 34);
  drawFuelGauge();
}

function drawGameOver() {
  fill(0, 0, 0, 120);
  noStroke();
  rect(0, 0, W, H);
  textAlign(CENTER, CENTER);
  textSize(40);
  stroke(0);
  strokeWeight(4);
  fill(255, 220, 0);
  text('GAME OVER', W / 2, H / 2);
  textSize(16);
  strokeWeight(3);
  fill(255);
  text('FINAL SCORE ' + score, W / 2, H / 2 + 40);
}

function draw() {
  if (gameState === 'playing') {
    updateGame();
  }

  drawRiver();
  for (let d of depots) drawDepot(d);
  for (let e of enemies) {
    if (e.type === 'boat') drawBoat(e);
    else drawHeli(e);
  }
  drawBullets();
  if (gameState === 'playing') drawPlane();
  drawExplosions();
  drawHUD();

  if (gameState === 'gameover') {
    drawGameOver();
  }
}
