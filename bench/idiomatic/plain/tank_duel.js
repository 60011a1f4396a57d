// Tank Duel - top-down tank battle against AI tanks in a walled arena.
// Controls: LEFT/RIGHT rotate hull, UP/DOWN drive, SPACE fire.

const W = 560;
const H = 420;
const TILE = 28;

let player;
let enemies = [];
let bullets = [];
let particles = [];
let walls = [];
let score = 0;
let lives = 3;
let gameState = 'playing';
let wave = 1;
let frameTimer = 0;
let timeLeft = 0;
let respawnTimer = 0;
let flashTimer = 0;

function setup() {
  createCanvas(W, H);
  resetGame(0);
}

function resetGame(seed) {
  score = 0;
  lives = 3;
  gameState = 'playing';
  wave = 1;
  frameTimer = 0;
  timeLeft = 60 * 45; // 45 seconds of battle
  respawnTimer = 0;
  flashTimer = 0;
  bullets = [];
  particles = [];
  buildWalls();
  player = makeTank(70, H / 2, 0, color(70, 160, 90), true);
  spawnWave();
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function buildWalls() {
  walls = [];
  // border walls
  walls.push({ x: 0, y: 0, w: W, h: 14 });
  walls.push({ x: 0, y: H - 14, w: W, h: 14 });
  walls.push({ x: 0, y: 0, w: 14, h: H });
  walls.push({ x: W - 14, y: 0, w: 14, h: H });
  // interior blocks
  walls.push({ x: 150, y: 80, w: 28, h: 110 });
  walls.push({ x: 150, y: 250, w: 28, h: 90 });
  walls.push({ x: 250, y: 180, w: 80, h: 28 });
  walls.push({ x: 380, y: 70, w: 28, h: 90 });
  walls.push({ x: 380, y: 270, w: 28, h: 90 });
  // a couple of random crates
  for (let i = 0; i < 3; i++) {
    let cx = floor(random(230, 480));
    let cy = floor(random(40, H - 80));
    let crate = { x: cx, y: cy, w: 30, h: 30, crate: true };
    if (!rectHitsWalls(crate.x - 10, crate.y - 10, crate.w + 20, crate.h + 20)) {
      walls.push(crate);
    }
  }
}

function rectHitsWalls(x, y, w, h) {
  for (let wl of walls) {
    if (x < wl.x + wl.w && x + w > wl.x && y < wl.y + wl.h && y + h > wl.y) {
      return true;
    }
  }
  return false;
}

function circleHitsWalls(x, y, r) {
  for (let wl of walls) {
    let nx = constrain(x, wl.x, wl.x + wl.w);
    let ny = constrain(y, wl.y, wl.y + wl.h);
    if (dist(x, y, nx, ny) < r) return true;
  }
  return false;
}

function makeTank(x, y, angle, col, isPlayer) {
  return {
    x: x,
    y: y,
    angle: angle,
    turret: angle,
    col: col,
    isPlayer: isPlayer,
    hp: isPlayer ? 100 : 60,
    maxHp: isPlayer ? 100 : 60,
    reload: 0,
    speed: isPlayer ? 1.8 : 1.0,
    r: 14,
    aiTimer: 0,
    aiTurn: 0,
    treads: 0
  };
}

function spawnWave() {
  enemies = [];
  let count = min(1 + wave, 5);
  for (let i = 0; i < count; i++) {
    let tries = 0;
    let ex, ey;
    do {
      ex = random(300, W - 40);
      ey = random(40, H - 40);
      tries++;
    } while (circleHitsWalls(ex, ey, 20) && tries < 50);
    let c = color(190 + random(-20, 20), 70 + random(-20, 20), 60);
    let e = makeTank(ex, ey, PI, c, false);
    e.speed = 0.8 + wave * 0.15;
    enemies.push(e);
  }
}

function draw() {
  if (gameState === 'playing') {
    updateGame();
  }
  drawFloor();
  drawWalls();
  for (let p of particles) drawParticle(p);
  for (let e of enemies) drawTank(e);
  if (respawnTimer <= 0) drawTank(player);
  for (let b of bullets) drawBullet(b);
  drawHUD();
  if (flashTimer > 0) {
    noStroke();
    fill(255, 60, 40, flashTimer * 8);
    rect(0, 0, W, H);
  }
  if (gameState !== 'playing') drawOverlay();
}

function updateGame() {
  frameTimer++;
  timeLeft--;
  if (flashTimer > 0) flashTimer--;

  if (respawnTimer > 0) {
    respawnTimer--;
    if (respawnTimer === 0) {
      player.x = 70;
      player.y = H / 2;
      player.angle = 0;
      player.turret = 0;
      player.hp = player.maxHp;
    }
  } else {
    updatePlayer();
  }

  for (let e of enemies) updateEnemy(e);
  updateBullets();
  updateParticles();

  // remove dead enemies
  for (let i = enemies.length - 1; i >= 0; i--) {
    if (enemies[i].hp <= 0) {
      explode(enemies[i].x, enemies[i].y, enemies[i].col, 30);
      enemies.splice(i, 1);
      score += 100;
    }
  }

  if (enemies.length === 0) {
    score += 50 * wave;
    wave++;
    if (wave > 4) {
      gameState = 'won';
      return;
    }
    spawnWave();
  }

  if (timeLeft <= 0) {
    gameState = 'gameover';
  }
}

function updatePlayer() {
  if (keyIsDown(LEFT_ARROW)) player.angle -= 0.05;
  if (keyIsDown(RIGHT_ARROW)) player.angle += 0.05;
  let move = 0;
  if (keyIsDown(UP_ARROW)) move = player.speed;
  if (keyIsDown(DOWN_ARROW)) move = -player.speed * 0.6;
  if (move !== 0) {
    moveTank(player, move);
    player.treads += move;
  }
  // turret smoothly follows hull direction
  player.turret = lerpAngle(player.turret, player.angle, 0.15);
  if (player.reload > 0) player.reload--;
  if (keyIsDown(32) && player.reload <= 0) {
    fireBullet(player);
    player.reload = 22;
  }
}

function moveTank(t, amount) {
  let nx = t.x + cos(t.angle) * amount;
  let ny = t.y + sin(t.angle) * amount;
  if (!circleHitsWalls(nx, t.y, t.r)) t.x = nx;
  if (!circleHitsWalls(t.x, ny, t.r)) t.y = ny;
}

function lerpAngle(a, b, amt) {
  let diff = b - a;
  while (diff > PI) diff -= TWO_PI;
  while (diff < -PI) diff += TWO_PI;
  return a + diff * amt;
}

function updateEnemy(e) {
  e.aiTimer--;
  if (e.aiTimer <= 0) {
    e.aiTimer = floor(random(40, 100));
    e.aiTurn = random([-0.03, 0, 0.03]);
  }
  e.angle += e.aiTurn;
  let ox = e.x;
  let oy = e.y;
  moveTank(e, e.speed);
  e.treads += e.speed;
  if (ox === e.x && oy === e.y) {
    e.angle += HALF_PI + random(-0.5, 0.5);
  }
  // aim at player
  let target = atan2(player.y - e.y, player.x - e.x);
  e.turret = lerpAngle(e.turret, target, 0.05);
  if (e.reload > 0) e.reload--;
  let d = dist(e.x, e.y, player.x, player.y);
  if (e.reload <= 0 && d < 320 && respawnTimer <= 0) {
    fireBullet(e);
    e.reload = floor(random(70, 130));
  }
}

function fireBullet(t) {
  let bx = t.x + cos(t.turret) * 24;
  let by = t.y + sin(t.turret) * 24;
  bullets.push({
    x: bx,
    y: by,
    vx: cos(t.turret) * 5,
    vy: sin(t.turret) * 5,
    fromPlayer: t.isPlayer,
    life: 120
  });
  // muzzle flash
  for (let i = 0; i < 5; i++) {
    particles.push({
      x: bx,
      y: by,
      vx: cos(t.turret) * random(1, 3) + random(-0.5, 0.5),
      vy: sin(t.turret) * random(1, 3) + random(-0.5, 0.5),
      life: 15,
      maxLife: 15,
      size: random(3, 6),
      col: color(255, 220, 100)
    });
  }
}

function updateBullets() {
  for (let i = bullets.length - 1; i >= 0; i--) {
    let b = bullets[i];
    b.x += b.vx;
    b.y += b.vy;
    b.life--;
    let dead = b.life <= 0;
    if (!dead && circleHitsWalls(b.x, b.y, 3)) {
      dead = true;
      explode(b.x, b.y, color(200, 200, 180), 6);
    }
    if (!dead && b.fromPlayer) {
      for (let e of enemies) {
        if (dist(b.x, b.y, e.x, e.y) < e.r + 3) {
          e.hp -= 20;
          dead = true;
          explode(b.x, b.y, color(255, 160, 60), 8);
          score += 10;
          break;
        }
      }
    }
    if (!dead && !b.fromPlayer && respawnTimer <= 0) {
      if (dist(b.x, b.y, player.x, player.y) < player.r + 3) {
        player.hp -= 25;
        dead = true;
        flashTimer = 10;
        explode(b.x, b.y, color(255, 100, 60), 8);
        if (player.hp <= 0) {
          lives--;
          explode(player.x, player.y, player.col, 40);
          if (lives <= 0) {
            gameState = 'gameover';
          } else {
            respawnTimer = 60;
          }
        }
      }
    }
    if (dead) bullets.splice(i, 1);
  }
}

function explode(x, y, c, n) {
  for (let i = 0; i < n; i++) {
    let a = random(TWO_PI);
    let s = random(0.5, 3.5);
    let l = floor(random(20, 45));
    particles.push({
      x: x,
      y: y,
      vx: cos(a) * s,
      vy: sin(a) * s,
      life: l,
      maxLife: l,
      size: random(3, 8),
      col: c
    });
  }
}

function updateParticles() {
  for (let i = particles.length - 1; i >= 0; i--) {
    let p = particles[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vx *= 0.94;
    p.vy *= 0.94;
    p.life--;
    if (p.life <= 0) particles.splice(i, 1);
  }
}

// ---------- drawing ----------

function drawFloor() {
  noStroke();
  for (let y = 0; y < H; y += TILE) {
    for (let x = 0; x < W; x += TILE) {
      let checker = ((x / TILE) + (y / TILE)) % 2 === 0;
      if (checker) fill(92, 86, 70);
      else fill(100, 94, 77);
      rect(x, y, TILE, TILE);
    }
  }
  // faint grid lines
  stroke(80, 74, 60);
  strokeWeight(1);
  for (let x = 0; x <= W; x += TILE * 4) line(x, 0, x, H);
  for (let y = 0; y <= H; y += TILE * 4) line(0, y, W, y);
}

function drawWalls() {
  for (let wl of walls) {
    if (wl.crate) {
      stroke(70, 45, 20);
      strokeWeight(2);
      fill(160, 110, 55);
      rect(wl.x, wl.y, wl.w, wl.h, 3);
      line(wl.x, wl.y, wl.x + wl.w, wl.y + wl.h);
      line(wl.x + wl.w, wl.y, wl.x, wl.y + wl.h);
    } else {
      stroke(40);
      strokeWeight(2);
      fill(120, 120, 130);
      rect(wl.x, wl.y, wl.w, wl.h);
      noStroke();
      fill(150, 150, 160);
      rect(wl.x + 3, wl.y + 3, wl.w - 6, 4);
    }
  }
}

function drawTank(t) {
  push();
  translate(t.x, t.y);
  // shadow
  noStroke();
  fill(0, 0, 0, 60);
  ellipse(3, 4, 34, 30);

  rotate(t.angle);
  rectMode(CENTER);
  // treads
  stroke(20);
  strokeWeight(1);
  fill(45);
  rect(0, -12, 30, 7, 2);
  rect(0, 12, 30, 7, 2);
  // tread marks
  stroke(90);
  let off = (t.treads * 2) % 6;
  for (let i = -15 + off; i < 15; i += 6) {
    line(i, -15, i, -9);
    line(i, 9, i, 15);
  }
  // hull
  stroke(20);
  strokeWeight(2);
  fill(t.col);
  rect(0, 0, 26, 18, 3);
  pop();

  // turret
  push();
  translate(t.x, t.y);
  rotate(t.turret);
  rectMode(CENTER);
  stroke(20);
  strokeWeight(2);
  fill(lerpColor(t.col, color(0), 0.25));
  rect(12, 0, 20, 5, 1);
  fill(lerpColor(t.col, color(255), 0.15));
  ellipse(0, 0, 14, 14);
  pop();

  // health bar
  let bw = 30;
  let pct = constrain(t.hp / t.maxHp, 0, 1);
  noStroke();
  fill(0, 0, 0, 150);
  rect(t.x - bw / 2 - 1, t.y - 26, bw + 2, 6, 3);
  if (pct > 0.5) fill(80, 220, 90);
  else if (pct > 0.25) fill(240, 200, 60);
  else fill(230, 60, 50);
  rect(t.x - bw / 2, t.y - 25, bw * pct, 4, 2);
}

function drawBullet(b) {
  noStroke();
  if (b.fromPlayer) fill(255, 240, 120);
  else fill(255, 120, 90);
  ellipse(b.x, b.y, 7, 7);
  fill(255, 255, 255, 180);
  ellipse(b.x, b.y, 3, 3);
}

function drawParticle(p) {
  let a = map(p.life, 0, p.maxLife, 0, 255);
  noStroke();
  fill(red(p.col), green(p.col), blue(p.col), a);
  let s = p.size * (p.life / p.maxLife);
  ellipse(p.x, p.y, s, s);
}

function drawHUD() {
  // top bar
  noStroke();
  fill(0, 0, 0, 140);
  rect(20, 18, W - 40, 30, 8);

  textStyle(BOLD);
  textSize(15);
  textAlign(LEFT, CENTER);
  fill(255);
  text('SCORE ' + score, 32, 33);

  textAlign(CENTER, CENTER);
  fill(255, 220, 120);
  text('WAVE ' + wave, W / 2 - 40, 33);

  // timer arc
  let frac = constrain(timeLeft / (60 * 45), 0, 1);
  stroke(255, 255, 255, 60);
  strokeWeight(4);
  noFill();
  ellipse(W / 2 + 40, 33, 20, 20);
  stroke(120, 200, 255);
  arc(W / 2 + 40, 33, 20, 20, -HALF_PI, -HALF_PI + TWO_PI * frac);
  noStroke();
  fill(255);
  textSize(13);
  textAlign(LEFT, CENTER);
  text(ceil(timeLeft / 60) + 's', W / 2 + 56, 33);

  // lives as little tank icons
  textAlign(RIGHT, CENTER);
  textSize(15);
  text('LIVES', W - 100, 33);
  for (let i = 0; i < lives; i++) {
    push();
    translate(W - 85 + i * 20, 33);
    rectMode(CENTER);
    stroke(20);
    strokeWeight(1);
    fill(player.col);
    rect(0, 0, 14, 10, 2);
    rect(6, 0, 8, 3);
    pop();
  }
  textStyle(NORMAL);

  if (respawnTimer > 0 && gameState === 'playing') {
    textAlign(CENTER, CENTER);
    textSize(22);
    textStyle(BOLD);
    fill(255, 255, 255, 200);
    text('RESPAWNING...', W / 2, H / 2);
    textStyle(NORMAL);
  }
}

function drawOverlay() {
  noStroke();
  fill(0, 0, 0, 170);
  rect(0, 0, W, H);
  rectMode(CENTER);
  fill(30, 30, 40, 220);
  stroke(255, 255, 255, 120);
  strokeWeight(2);
  rect(W / 2, H / 2, 300, 150, 14);
  rectMode(CORNER);
  noStroke();
  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  textSize(34);
  if (gameState === 'won') {
    fill(120, 255, 140);
    text('VICTORY!', W / 2, H / 2 - 30);
  } else {
    fill(255, 90, 80);
    text('GAME OVER', W / 2, H / 2 - 30);
  }
  textStyle(NORMAL);
  textSize(18);
  fill(255);
  text('Final score: ' + score, W / 2, H / 2 + 15);
  textSize(13);
  fill(200);
  text('Waves cleared: ' + (wave - 1), W / 2, H / 2 + 42);
}
