// Dungeon Dash - a top-down dungeon crawler in p5.js (global mode)
// Arrows move, SPACE swings your sword. Grab gems, avoid slimes, beat the torch timer.

const W = 560;
const H = 420;
const TILE = 28;
const MAP_W = 44;
const MAP_H = 34;
const TIME_LIMIT = 3000;   // frames until the torch burns out
const MAX_HP = 100;

let grid = [];          // 1 = wall, 0 = floor
let rooms = [];
let player;
let enemies = [];
let gems = [];
let particles = [];
let floatTexts = [];
let camX = 0;
let camY = 0;
let score = 0;
let lives = 3;
let gameState = 'playing';
let timeLeft = TIME_LIMIT;
let frameCounter = 0;
let hurtFlash = 0;
let spaceWasDown = false;
let exitTile = null;
let visited = [];      // tiles the player has stepped on (+1 score each)
let revealed = [];     // tiles shown on the minimap
let tilesExplored = 0;

function setup() {
  createCanvas(W, H);
  resetGame(0);
}

function resetGame(seed) {
  score = 0;
  lives = 3;
  gameState = 'playing';
  timeLeft = TIME_LIMIT;
  frameCounter = 0;
  hurtFlash = 0;
  particles = [];
  floatTexts = [];
  spaceWasDown = false;
  generateDungeon();
  const r0 = rooms[0];
  player = {
    x: (r0.cx + 0.5) * TILE,
    y: (r0.cy + 0.5) * TILE,
    r: 9,
    hp: MAX_HP,
    facing: 0,
    swing: 0,
    cooldown: 0,
    invuln: 60,
    walk: 0
  };
  camX = player.x - W / 2;
  camY = player.y - H / 2;
  tilesExplored = 0;
  visitTile();
}

function visitTile() {
  const tx = floor(player.x / TILE);
  const ty = floor(player.y / TILE);
  if (visited[ty][tx]) return;
  visited[ty][tx] = true;
  if (tilesExplored > 0) score += 1;   // exploring pays a little
  tilesExplored++;
  for (let y = max(0, ty - 4); y <= min(MAP_H - 1, ty + 4); y++) {
    for (let x = max(0, tx - 5); x <= min(MAP_W - 1, tx + 5); x++) revealed[y][x] = true;
  }
}

// ---------- dungeon generation ----------

function generateDungeon() {
  grid = [];
  visited = [];
  revealed = [];
  for (let y = 0; y < MAP_H; y++) {
    const row = [];
    const v = [];
    const r = [];
    for (let x = 0; x < MAP_W; x++) {
      row.push(1);
      v.push(false);
      r.push(false);
    }
    grid.push(row);
    visited.push(v);
    revealed.push(r);
  }
  rooms = [];
  let tries = 0;
  while (rooms.length < 9 && tries < 300) {
    tries++;
    const w = floor(random(5, 10));
    const h = floor(random(4, 8));
    const x = floor(random(1, MAP_W - w - 1));
    const y = floor(random(1, MAP_H - h - 1));
    let overlap = false;
    for (const r of rooms) {
      if (x < r.x + r.w + 1 && x + w + 1 > r.x && y < r.y + r.h + 1 && y + h + 1 > r.y) {
        overlap = true;
        break;
      }
    }
    if (overlap) continue;
    const room = { x: x, y: y, w: w, h: h, cx: floor(x + w / 2), cy: floor(y + h / 2) };
    carveRoom(room);
    if (rooms.length > 0) {
      const prev = rooms[rooms.length - 1];
      if (random() < 0.5) {
        carveH(prev.cx, room.cx, prev.cy);
        carveV(prev.cy, room.cy, room.cx);
      } else {
        carveV(prev.cy, room.cy, prev.cx);
        carveH(prev.cx, room.cx, room.cy);
      }
    }
    rooms.push(room);
  }

  // gems: a few in every room (the start room gets two, away from the spawn point)
  gems = [];
  for (let i = 0; i < rooms.length; i++) {
    const r = rooms[i];
    const n = i === 0 ? 2 : floor(random(2, 4));
    for (let k = 0; k < n; k++) {
      let gx = floor(random(r.x, r.x + r.w));
      let gy = floor(random(r.y, r.y + r.h));
      if (gx === r.cx && gy === r.cy) gx = gx > r.x ? gx - 1 : gx + 1;
      gems.push({
        x: (gx + 0.5) * TILE,
        y: (gy + 0.5) * TILE,
        kind: random() < 0.2 ? 1 : 0,
        phase: random(TWO_PI)
      });
    }
  }

  // slimes
  enemies = [];
  for (let i = 1; i < rooms.length; i++) {
    const r = rooms[i];
    const n = floor(random(1, 3));
    for (let k = 0; k < n; k++) {
      spawnEnemy((floor(random(r.x, r.x + r.w)) + 0.5) * TILE, (floor(random(r.y, r.y + r.h)) + 0.5) * TILE);
    }
  }

  const last = rooms[rooms.length - 1];
  exitTile = { x: last.cx, y: last.cy };
}

function spawnEnemy(x, y) {
  enemies.push({
    x: x, y: y, r: 10,
    hp: 2,
    vx: 0, vy: 0,
    wander: random(TWO_PI),
    hit: 0,
    hue: random(),
    bob: random(TWO_PI)
  });
}

function carveRoom(r) {
  for (let y = r.y; y < r.y + r.h; y++) {
    for (let x = r.x; x < r.x + r.w; x++) grid[y][x] = 0;
  }
}

function carveH(x1, x2, y) {
  for (let x = min(x1, x2); x <= max(x1, x2); x++) grid[y][x] = 0;
}

function carveV(y1, y2, x) {
  for (let y = min(y1, y2); y <= max(y1, y2); y++) grid[y][x] = 0;
}

function solidAt(px, py) {
  const tx = floor(px / TILE);
  const ty = floor(py / TILE);
  if (tx < 0 || ty < 0 || tx >= MAP_W || ty >= MAP_H) return true;
  return grid[ty][tx] === 1;
}

function hitsWall(x, y, r) {
  return solidAt(x - r, y - r) || solidAt(x + r, y - r) ||
         solidAt(x - r, y + r) || solidAt(x + r, y + r);
}

function moveBody(b, dx, dy) {
  if (!hitsWall(b.x + dx, b.y, b.r)) b.x += dx;
  if (!hitsWall(b.x, b.y + dy, b.r)) b.y += dy;
}

// ---------- update ----------

function update() {
  frameCounter++;
  if (hurtFlash > 0) hurtFlash--;
  updateParticles();
  if (gameState !== 'playing') return;

  timeLeft--;
  if (timeLeft <= 0) {
    timeLeft = 0;
    gameState = 'gameover';
    return;
  }

  // movement
  let dx = 0;
  let dy = 0;
  if (keyIsDown(LEFT_ARROW)) dx -= 1;
  if (keyIsDown(RIGHT_ARROW)) dx += 1;
  if (keyIsDown(UP_ARROW)) dy -= 1;
  if (keyIsDown(DOWN_ARROW)) dy += 1;
  if (dx !== 0 || dy !== 0) {
    const len = sqrt(dx * dx + dy * dy);
    const speed = 2.4;
    moveBody(player, (dx / len) * speed, (dy / len) * speed);
    player.facing = atan2(dy, dx);
    player.walk += 0.3;
    visitTile();
  }

  // sword
  const spaceDown = keyIsDown(32);
  if (spaceDown && !spaceWasDown && player.cooldown === 0) {
    player.swing = 14;
    player.cooldown = 22;
  }
  spaceWasDown = spaceDown;
  if (player.cooldown > 0) player.cooldown--;
  if (player.invuln > 0) player.invuln--;
  if (player.swing > 0) {
    player.swing--;
    swordHits();
  }

  updateEnemies();
  collectGems();

  // exit stairs: only open once most gems are collected
  if (gems.length === 0) {
    const ex = (exitTile.x + 0.5) * TILE;
    const ey = (exitTile.y + 0.5) * TILE;
    if (dist(player.x, player.y, ex, ey) < 16) {
      score += floor(timeLeft / 10);
      gameState = 'won';
    }
  }

  // camera follows the player smoothly
  const tx = constrain(player.x - W / 2, 0, MAP_W * TILE - W);
  const ty = constrain(player.y - H / 2, 0, MAP_H * TILE - H);
  camX = lerp(camX, tx, 0.15);
  camY = lerp(camY, ty, 0.15);
}

function swordHits() {
  const reach = 30;
  for (const e of enemies) {
    if (e.hit > 0) continue;
    const d = dist(player.x, player.y, e.x, e.y);
    if (d > reach + e.r) continue;
    let ang = atan2(e.y - player.y, e.x - player.x) - player.facing;
    while (ang > PI) ang -= TWO_PI;
    while (ang < -PI) ang += TWO_PI;
    if (abs(ang) < 1.3) {
      e.hp--;
      e.hit = 15;
      e.vx = cos(player.facing) * 4;
      e.vy = sin(player.facing) * 4;
      burst(e.x, e.y, color(120, 255, 140), 8);
    }
  }
  for (let i = enemies.length - 1; i >= 0; i--) {
    if (enemies[i].hp <= 0) {
      const e = enemies[i];
      burst(e.x, e.y, color(90, 230, 120), 20);
      addFloatText(e.x, e.y, "+25", color(140, 255, 160));
      score += 25;
      enemies.splice(i, 1);
    }
  }
}

function updateEnemies() {
  for (const e of enemies) {
    e.bob += 0.12;
    if (e.hit > 0) e.hit--;
    const d = dist(player.x, player.y, e.x, e.y);
    let mx = 0;
    let my = 0;
    if (d < 150) {
      const a = atan2(player.y - e.y, player.x - e.x);
      mx = cos(a) * 1.1;
      my = sin(a) * 1.1;
    } else {
      e.wander += random(-0.3, 0.3);
      mx = cos(e.wander) * 0.6;
      my = sin(e.wander) * 0.6;
    }
    e.vx *= 0.85;
    e.vy *= 0.85;
    const ox = e.x;
    const oy = e.y;
    moveBody(e, mx + e.vx, my + e.vy);
    if (e.x === ox && e.y === oy) e.wander += PI / 2;

    if (d < player.r + e.r && player.invuln === 0) {
      player.hp -= 20;
      player.invuln = 45;
      hurtFlash = 12;
      burst(player.x, player.y, color(255, 80, 80), 12);
      if (player.hp <= 0) loseLife();
    }
  }
}

function loseLife() {
  lives--;
  addFloatText(player.x, player.y - 10, "-1 LIFE", color(255, 100, 100));
  if (lives <= 0) {
    lives = 0;
    player.hp = 0;
    gameState = 'gameover';
    return;
  }
  player.hp = MAX_HP;
  player.invuln = 90;
  const r0 = rooms[0];
  player.x = (r0.cx + 0.5) * TILE;
  player.y = (r0.cy + 0.5) * TILE;
}

function collectGems() {
  for (let i = gems.length - 1; i >= 0; i--) {
    const g = gems[i];
    if (dist(player.x, player.y, g.x, g.y) < 16) {
      const value = g.kind === 1 ? 50 : 10;
      score += value;
      burst(g.x, g.y, g.kind === 1 ? color(255, 120, 220) : color(90, 220, 255), 14);
      addFloatText(g.x, g.y, "+" + value, color(255, 240, 150));
      gems.splice(i, 1);
    }
  }
}

function burst(x, y, c, n) {
  for (let i = 0; i < n; i++) {
    const a = random(TWO_PI);
    const s = random(0.6, 3.2);
    particles.push({ x: x, y: y, vx: cos(a) * s, vy: sin(a) * s, life: random(20, 40), size: random(2, 5), c: c });
  }
}

function addFloatText(x, y, s, c) {
  floatTexts.push({ x: x, y: y, s: s, c: c, life: 45 });
}

function updateParticles() {
  for (let i = particles.length - 1; i >= 0; i--) {
    const p = particles[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vx *= 0.92;
    p.vy *= 0.92;
    p.life--;
    if (p.life <= 0) particles.splice(i, 1);
  }
  for (let i = floatTexts.length - 1; i >= 0; i--) {
    const f = floatTexts[i];
    f.y -= 0.7;
    f.life--;
    if (f.life <= 0) floatTexts.splice(i, 1);
  }
}

// ---------- drawing ----------

function draw() {
  update();
  background(14, 12, 20);

  push();
  translate(-round(camX), -round(camY));
  drawTiles();
  drawExit();
  drawGems();
  drawEnemies();
  drawPlayer();
  drawParticles();
  drawFloatTexts();
  pop();

  drawDarkness();
  drawHUD();
  drawMinimap();
  drawOverlay();
}

function drawTiles() {
  const x0 = max(0, floor(camX / TILE));
  const y0 = max(0, floor(camY / TILE));
  const x1 = min(MAP_W - 1, floor((camX + W) / TILE));
  const y1 = min(MAP_H - 1, floor((camY + H) / TILE));
  for (let ty = y0; ty <= y1; ty++) {
    for (let tx = x0; tx <= x1; tx++) {
      const px = tx * TILE;
      const py = ty * TILE;
      if (grid[ty][tx] === 1) {
        // walls: solid blocks, with a lighter lip where they face the floor
        noStroke();
        fill(46, 40, 58);
        rect(px, py, TILE, TILE);
        if (ty + 1 < MAP_H && grid[ty + 1][tx] === 0) {
          fill(78, 68, 92);
          rect(px, py + TILE - 8, TILE, 8);
          fill(98, 86, 112);
          rect(px, py + TILE - 8, TILE, 2);
        }
      } else {
        // floor: stone tiles with outlines and a little noise in the shade
        const n = noise(tx * 0.3, ty * 0.3);
        const c = lerpColor(color(52, 48, 60), color(74, 66, 70), n);
        fill(c);
        stroke(36, 32, 44);
        strokeWeight(1);
        rect(px, py, TILE, TILE);
        if ((tx * 7 + ty * 13) % 11 === 0) {
          // a crack
          stroke(34, 30, 40);
          strokeWeight(1.5);
          line(px + 6, py + 8, px + 14, py + 14);
          line(px + 14, py + 14, px + 12, py + 22);
        }
      }
    }
  }
}

function drawExit() {
  const cx = (exitTile.x + 0.5) * TILE;
  const cy = (exitTile.y + 0.5) * TILE;
  const open = gems.length === 0;
  noStroke();
  fill(20, 16, 26);
  rect(cx - 12, cy - 12, 24, 24, 4);
  for (let i = 0; i < 4; i++) {
    fill(open ? color(120 + i * 30, 200 + i * 10, 255) : color(70 + i * 12, 64 + i * 12, 80 + i * 12));
    rect(cx - 10 + i * 2, cy - 10 + i * 5, 20 - i * 4, 4, 1);
  }
  if (open) {
    push();
    translate(cx, cy);
    rotate(frameCounter * 0.04);
    noFill();
    stroke(140, 220, 255, 180);
    strokeWeight(2);
    arc(0, 0, 38, 38, 0, PI * 0.7);
    arc(0, 0, 38, 38, PI, PI * 1.7);
    pop();
  }
}

function drawGems() {
  for (const g of gems) {
    const bob = sin(frameCounter * 0.08 + g.phase) * 3;
    noStroke();
    fill(0, 0, 0, 70);
    ellipse(g.x, g.y + 9, 12, 4);
    push();
    translate(g.x, g.y + bob);
    rotate(frameCounter * 0.03 + g.phase);
    const c = g.kind === 1 ? color(255, 110, 220) : color(80, 210, 255);
    // glow
    fill(red(c), green(c), blue(c), 50);
    ellipse(0, 0, 22, 22);
    fill(c);
    stroke(255, 255, 255, 180);
    strokeWeight(1);
    quad(0, -8, 6, 0, 0, 8, -6, 0);
    noStroke();
    fill(255, 255, 255, 200);
    triangle(0, -8, 3, -2, -2, -2);
    pop();
  }
}

function drawEnemies() {
  for (const e of enemies) {
    const squash = sin(e.bob) * 0.12;
    const w = e.r * 2 * (1 + squash);
    const h = e.r * 2 * (1 - squash);
    noStroke();
    fill(0, 0, 0, 80);
    ellipse(e.x, e.y + e.r - 1, w, 6);
    const base = lerpColor(color(90, 200, 90), color(150, 210, 60), e.hue);
    const c = e.hit > 0 && e.hit % 4 < 2 ? color(255) : base;
    fill(c);
    stroke(lerpColor(base, color(0), 0.5));
    strokeWeight(2);
    arc(e.x, e.y + e.r - h / 2, w, h * 1.6, PI, TWO_PI, CHORD);
    // eyes looking at the player
    const a = atan2(player.y - e.y, player.x - e.x);
    noStroke();
    fill(255);
    ellipse(e.x - 4, e.y - 2, 6, 6);
    ellipse(e.x + 4, e.y - 2, 6, 6);
    fill(20);
    ellipse(e.x - 4 + cos(a) * 1.5, e.y - 2 + sin(a) * 1.5, 3, 3);
    ellipse(e.x + 4 + cos(a) * 1.5, e.y - 2 + sin(a) * 1.5, 3, 3);
  }
}

function drawPlayer() {
  const blink = player.invuln > 0 && floor(player.invuln / 4) % 2 === 0;
  noStroke();
  fill(0, 0, 0, 90);
  ellipse(player.x, player.y + 9, 18, 6);
  if (blink) return;

  // sword swing
  if (player.swing > 0) {
    const t = 1 - player.swing / 14;
    push();
    translate(player.x, player.y);
    rotate(player.facing - 1.2 + t * 2.4);
    // motion trail
    noStroke();
    fill(255, 255, 220, 70);
    arc(0, 0, 64, 64, -1.2 - t * 0.6, 0, PIE);
    // blade
    stroke(220, 230, 240);
    strokeWeight(3);
    line(8, 0, 30, 0);
    stroke(160, 120, 60);
    strokeWeight(5);
    line(6, -4, 6, 4);
    pop();
  }

  push();
  translate(player.x, player.y);
  rotate(player.facing);
  // cloak
  fill(60, 110, 200);
  stroke(25, 45, 100);
  strokeWeight(2);
  ellipse(0, 0, 20, 20);
  // feet moving while walking
  noStroke();
  fill(40, 30, 30);
  const step = sin(player.walk) * 3;
  ellipse(-2 + step, -6, 5, 4);
  ellipse(-2 - step, 6, 5, 4);
  // head
  fill(240, 200, 160);
  stroke(120, 80, 50);
  strokeWeight(1);
  ellipse(2, 0, 11, 11);
  pop();
}

function drawParticles() {
  noStroke();
  for (const p of particles) {
    fill(red(p.c), green(p.c), blue(p.c), map(p.life, 0, 40, 0, 255));
    rect(p.x - p.size / 2, p.y - p.size / 2, p.size, p.size);
  }
}

function drawFloatTexts() {
  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  textSize(13);
  noStroke();
  for (const f of floatTexts) {
    fill(red(f.c), green(f.c), blue(f.c), map(f.life, 0, 45, 0, 255));
    text(f.s, f.x, f.y);
  }
  textStyle(NORMAL);
}

function drawDarkness() {
  // a ring of translucent dark bands around the player: torch light that shrinks with time
  const sx = player.x - camX;
  const sy = player.y - camY;
  const radius = map(timeLeft, 0, TIME_LIMIT, 120, 260);
  noFill();
  for (let i = 0; i < 6; i++) {
    stroke(8, 6, 14, 30 + i * 30);
    strokeWeight(40);
    ellipse(sx, sy, radius * 2 + i * 80, radius * 2 + i * 80);
  }
  // warm flicker at the centre
  noStroke();
  const fl = noise(frameCounter * 0.05) * 20;
  fill(255, 170, 80, 18);
  ellipse(sx, sy, radius + fl, radius + fl);
}

function drawHUD() {
  // panel
  noStroke();
  fill(10, 8, 18, 180);
  rect(8, 8, 230, 64, 10);

  // health bar with gradient fill
  textAlign(LEFT, TOP);
  textStyle(BOLD);
  textSize(12);
  fill(230);
  text("HP", 18, 16);
  const bw = 170;
  const frac = constrain(player.hp / MAX_HP, 0, 1);
  fill(40, 20, 30);
  rect(44, 16, bw, 14, 7);
  const segs = 20;
  for (let i = 0; i < segs * frac; i++) {
    const c = lerpColor(color(230, 60, 60), color(250, 210, 80), i / segs);
    fill(c);
    rect(44 + (i * bw) / segs, 17, bw / segs + 0.5, 12);
  }
  noFill();
  stroke(255, 255, 255, 120);
  strokeWeight(1.5);
  rect(44, 16, bw, 14, 7);

  // score and lives
  noStroke();
  fill(255, 220, 120);
  textSize(18);
  text("SCORE " + score, 18, 38);
  textStyle(NORMAL);
  textSize(11);
  for (let i = 0; i < 3; i++) {
    const x = 180 + i * 16;
    fill(i < lives ? color(255, 90, 110) : color(70, 50, 60));
    push();
    translate(x, 50);
    rotate(QUARTER_PI);
    rect(-4, -4, 8, 8, 2);
    pop();
  }

  // torch timer and gems left, bottom left
  const secs = ceil(timeLeft / 60);
  fill(10, 8, 18, 170);
  rect(8, H - 34, 170, 26, 8);
  fill(255, 180, 90);
  textSize(12);
  textAlign(LEFT, CENTER);
  text("TORCH " + secs + "s", 18, H - 21);
  fill(120, 210, 255);
  text("GEMS " + gems.length, 108, H - 21);
}

function drawMinimap() {
  const s = 3;
  const mw = MAP_W * s;
  const mh = MAP_H * s;
  const mx = W - mw - 10;
  const my = 10;
  noStroke();
  fill(0, 0, 0, 170);
  rect(mx - 4, my - 4, mw + 8, mh + 8, 6);
  for (let y = 0; y < MAP_H; y++) {
    for (let x = 0; x < MAP_W; x++) {
      if (grid[y][x] === 0 && revealed[y][x]) {
        if (visited[y][x]) fill(170, 150, 120, 220);
        else fill(110, 100, 130, 200);
        rect(mx + x * s, my + y * s, s, s);
      }
    }
  }
  // gems and exit
  fill(80, 210, 255);
  for (const g of gems) if (revealed[floor(g.y / TILE)][floor(g.x / TILE)]) rect(mx + (g.x / TILE) * s - 1, my + (g.y / TILE) * s - 1, 2, 2);
  fill(gems.length === 0 ? color(140, 255, 200) : color(200, 200, 200));
  rect(mx + exitTile.x * s, my + exitTile.y * s, s, s);
  // enemies
  fill(120, 255, 120);
  for (const e of enemies) ellipse(mx + (e.x / TILE) * s, my + (e.y / TILE) * s, 3, 3);
  // player
  fill(255, 230, 80);
  ellipse(mx + (player.x / TILE) * s, my + (player.y / TILE) * s, 5, 5);
  // view rectangle
  noFill();
  stroke(255, 255, 255, 140);
  strokeWeight(1);
  rect(mx + (camX / TILE) * s, my + (camY / TILE) * s, (W / TILE) * s, (H / TILE) * s);
}

function drawOverlay() {
  if (hurtFlash > 0) {
    noStroke();
    fill(255, 40, 40, hurtFlash * 8);
    rect(0, 0, W, H);
  }
  if (gameState === 'playing') return;
  noStroke();
  fill(0, 0, 0, 160);
  rect(0, 0, W, H);
  fill(24, 20, 36, 220);
  stroke(255, 210, 120, 150);
  strokeWeight(3);
  rect(W / 2 - 160, H / 2 - 75, 320, 150, 18);
  noStroke();
  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  textSize(34);
  fill(gameState === 'won' ? color(140, 255, 180) : color(255, 90, 100));
  text(gameState === 'won' ? "ESCAPED!" : "GAME OVER", W / 2, H / 2 - 28);
  textStyle(NORMAL);
  textSize(18);
  fill(240);
  text("Score: " + score, W / 2, H / 2 + 12);
  textSize(12);
  fill(180);
  text(timeLeft <= 0 ? "your torch burned out" : "the dungeon remembers you", W / 2, H / 2 + 44);
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}
