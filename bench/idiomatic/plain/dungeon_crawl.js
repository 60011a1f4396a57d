// Dungeon Crawl - a small top-down dungeon game in p5.js
// Arrow keys move, SPACE swings your sword.
// Collect all the coins to win; slimes chase you and take a heart on contact.

const W = 400;
const H = 400;
const TILE = 20;
const COLS = 20;
const ROWS = 20;
const HUD_H = 26;

let rng;
let grid = [];
let player;
let slimes = [];
let coins = [];
let torches = [];
let particles = [];
let camX = 0;
let camY = 0;
let score = 0;
let lives = 3;
let coinsCollected = 0;
let gameState = 'playing';
let frame = 0;
let swingTimer = 0;
let hurtTimer = 0;
let spawnTimer = 0;
let swingCooldown = 0;
let flow = [];
let flowC = -1;
let flowR = -1;

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
  resetGame(1);
}

function rand(a, b) {
  return a + rng() * (b - a);
}

function randInt(a, b) {
  return floor(rand(a, b));
}

function resetGame(seed) {
  rng = mulberry32(seed);
  noiseSeed(seed);
  score = 0;
  lives = 3;
  coinsCollected = 0;
  gameState = 'playing';
  frame = 0;
  swingTimer = 0;
  hurtTimer = 0;
  spawnTimer = 0;
  swingCooldown = 0;
  flow = [];
  flowC = -1;
  flowR = -1;
  slimes = [];
  coins = [];
  torches = [];
  particles = [];

  // build the grid: 1 = wall, 0 = floor
  grid = [];
  for (let r = 0; r < ROWS; r++) {
    let row = [];
    for (let c = 0; c < COLS; c++) {
      if (r === 0 || c === 0 || r === ROWS - 1 || c === COLS - 1) {
        row.push(1);
      } else if (rng() < 0.14) {
        row.push(1);
      } else {
        row.push(0);
      }
    }
    grid.push(row);
  }
  // a few pillars in a pattern
  for (let r = 4; r < ROWS - 2; r += 5) {
    for (let c = 4; c < COLS - 2; c += 5) {
      grid[r][c] = 1;
    }
  }
  // clear start room
  for (let r = 8; r <= 11; r++) {
    for (let c = 8; c <= 11; c++) {
      grid[r][c] = 0;
    }
  }

  player = {
    pos: createVector(10 * TILE, 10 * TILE),
    vel: createVector(0, 0),
    r: 7,
    facing: 0
  };
  camX = player.pos.x - W / 2;
  camY = player.pos.y - H / 2;

  // coins on random floor tiles
  let tries = 0;
  while (coins.length < 12 && tries < 1000) {
    tries++;
    let c = randInt(1, COLS - 1);
    let r = randInt(1, ROWS - 1);
    if (grid[r][c] !== 0) continue;
    if (abs(c - 10) < 2 && abs(r - 10) < 2) continue;
    let taken = coins.some(k => k.c === c && k.r === r);
    if (taken) continue;
    coins.push({ c: c, r: r, x: c * TILE + TILE / 2, y: r * TILE + TILE / 2, phase: rng() * TWO_PI });
  }

  // torches on walls next to floor
  tries = 0;
  while (torches.length < 5 && tries < 1000) {
    tries++;
    let c = randInt(1, COLS - 1);
    let r = randInt(1, ROWS - 1);
    if (grid[r][c] === 1 && r + 1 < ROWS && grid[r + 1][c] === 0) {
      torches.push({ x: c * TILE + TILE / 2, y: r * TILE + TILE / 2, off: rng() * 1000 });
    }
  }

  for (let i = 0; i < 3; i++) {
    spawnSlime();
  }
}

function spawnSlime() {
  for (let tries = 0; tries < 200; tries++) {
    let c = randInt(1, COLS - 1);
    let r = randInt(1, ROWS - 1);
    if (grid[r][c] !== 0) continue;
    let p = createVector(c * TILE + TILE / 2, r * TILE + TILE / 2);
    if (p.dist(player.pos) < 120) continue;
    slimes.push({
      pos: p,
      vel: createVector(0, 0),
      r: 8,
      hp: 3,
      speed: rand(0.6, 1.0),
      wobble: rng() * TWO_PI,
      flash: 0
    });
    return;
  }
}

// breadth-first search from the player's tile; recomputed when the player changes tile
function updateFlow() {
  let pc = floor(player.pos.x / TILE);
  let pr = floor(player.pos.y / TILE);
  if (pc === flowC && pr === flowR) return;
  flowC = pc;
  flowR = pr;
  flow = [];
  for (let r = 0; r < ROWS; r++) {
    flow.push(new Array(COLS).fill(Infinity));
  }
  let queue = [[pc, pr]];
  flow[pr][pc] = 0;
  let head = 0;
  while (head < queue.length) {
    let [c, r] = queue[head++];
    for (let [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      let nc = c + dc;
      let nr = r + dr;
      if (nc < 0 || nr < 0 || nc >= COLS || nr >= ROWS) continue;
      if (grid[nr][nc] === 1 || flow[nr][nc] !== Infinity) continue;
      flow[nr][nc] = flow[r][c] + 1;
      queue.push([nc, nr]);
    }
  }
}

function nextStep(pos) {
  let c = floor(pos.x / TILE);
  let r = floor(pos.y / TILE);
  if (flow[r][c] <= 1) return player.pos.copy();
  let best = createVector(c * TILE + TILE / 2, r * TILE + TILE / 2);
  let bestD = flow[r][c];
  for (let [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    let nc = c + dc;
    let nr = r + dr;
    if (nc < 0 || nr < 0 || nc >= COLS || nr >= ROWS) continue;
    if (flow[nr][nc] < bestD) {
      bestD = flow[nr][nc];
      best = createVector(nc * TILE + TILE / 2, nr * TILE + TILE / 2);
    }
  }
  return best;
}

function isWall(x, y) {
  let c = floor(x / TILE);
  let r = floor(y / TILE);
  if (c < 0 || r < 0 || c >= COLS || r >= ROWS) return true;
  return grid[r][c] === 1;
}

function collides(x, y, rad) {
  return isWall(x - rad, y - rad) || isWall(x + rad, y - rad) ||
         isWall(x - rad, y + rad) || isWall(x + rad, y + rad);
}

function moveEntity(e, v) {
  if (!collides(e.pos.x + v.x, e.pos.y, e.r)) {
    e.pos.x += v.x;
  }
  if (!collides(e.pos.x, e.pos.y + v.y, e.r)) {
    e.pos.y += v.y;
  }
}

function keyPressed() {
  if (key === ' ' || keyCode === 32) {
    if (gameState === 'playing' && swingTimer <= 0 && swingCooldown <= 0) {
      swingTimer = 14;
      swingCooldown = 30;
    }
  }
}

function update() {
  frame++;

  // player movement
  let input = createVector(0, 0);
  if (keyIsDown(LEFT_ARROW)) input.x -= 1;
  if (keyIsDown(RIGHT_ARROW)) input.x += 1;
  if (keyIsDown(UP_ARROW)) input.y -= 1;
  if (keyIsDown(DOWN_ARROW)) input.y += 1;
  if (input.mag() > 0) {
    input.normalize();
    player.facing = input.heading();
  }
  input.mult(1.8);
  player.vel.lerp(input, 0.35);
  moveEntity(player, player.vel);

  // camera follows player smoothly (fractional)
  camX = lerp(camX, player.pos.x - W / 2, 0.1);
  camY = lerp(camY, player.pos.y - (H + HUD_H) / 2, 0.1);

  // sword
  if (swingTimer > 0) {
    swingTimer--;
    let swingAngle = player.facing + map(swingTimer, 14, 0, -PI / 2, PI / 2);
    let tip = p5.Vector.fromAngle(swingAngle).mult(22).add(player.pos);
    for (let i = slimes.length - 1; i >= 0; i--) {
      let s = slimes[i];
      let d = dist(tip.x, tip.y, s.pos.x, s.pos.y);
      if (d < s.r + 4 && s.flash <= 0) {
        s.hp--;
        s.flash = 10;
        let push = p5.Vector.sub(s.pos, player.pos);
        push.setMag(4);
        s.vel.add(push);
        if (s.hp <= 0) {
          score += 25;
          burst(s.pos.x, s.pos.y, color(90, 220, 110));
          slimes.splice(i, 1);
        }
      }
    }
  }

  // coins
  for (let i = coins.length - 1; i >= 0; i--) {
    let k = coins[i];
    if (dist(player.pos.x, player.pos.y, k.x, k.y) < player.r + 6) {
      coins.splice(i, 1);
      coinsCollected++;
      score += 10;
      burst(k.x, k.y, color(255, 215, 0));
    }
  }

  if (swingCooldown > 0) swingCooldown--;

  // slimes chase the player, following a BFS distance map around walls
  updateFlow();
  for (let s of slimes) {
    let target = nextStep(s.pos);
    let desired = p5.Vector.sub(target, s.pos);
    desired.normalize();
    desired.mult(s.speed);
    s.vel.add(desired.mult(0.15));
    s.vel.limit(s.speed + (s.flash > 0 ? 3 : 0));
    moveEntity(s, s.vel);
    s.vel.mult(0.95);
    if (s.flash > 0) s.flash--;
    s.wobble += 0.15;

    if (hurtTimer <= 0 && s.pos.dist(player.pos) < s.r + player.r) {
      lives--;
      hurtTimer = 60;
      let knock = p5.Vector.sub(player.pos, s.pos).normalize().mult(5);
      player.vel.add(knock);
    }
  }
  if (hurtTimer > 0) hurtTimer--;

  // more slimes over time
  spawnTimer++;
  if (spawnTimer > 150) {
    spawnTimer = 0;
    if (slimes.length < 10) spawnSlime();
  }

  // particles
  for (let i = particles.length - 1; i >= 0; i--) {
    let p = particles[i];
    p.pos.add(p.vel);
    p.vel.mult(0.9);
    p.life--;
    if (p.life <= 0) particles.splice(i, 1);
  }

  if (lives <= 0) {
    lives = 0;
    gameState = 'gameover';
  } else if (coins.length === 0) {
    score += 100;
    gameState = 'won';
  }
}

function burst(x, y, col) {
  for (let i = 0; i < 10; i++) {
    let a = rng() * TWO_PI;
    particles.push({
      pos: createVector(x, y),
      vel: p5.Vector.fromAngle(a).mult(rand(0.5, 2.5)),
      life: 20,
      col: col
    });
  }
}

function draw() {
  if (gameState === 'playing') {
    update();
  }

  background(18, 14, 22);

  push();
  translate(-camX, -camY);
  drawMap();
  drawTorches();
  drawCoins();
  drawSlimes();
  drawPlayer();
  drawParticles();
  pop();

  drawHUD();
  drawMinimap();

  if (gameState !== 'playing') {
    fill(0, 0, 0, 150);
    noStroke();
    rect(0, 0, W, H);
    fill(255);
    textAlign(CENTER, CENTER);
    textSize(32);
    textFont('Georgia');
    text(gameState === 'won' ? 'You escaped!' : 'You died', W / 2, H / 2 - 10);
    textSize(16);
    text('Score: ' + score, W / 2, H / 2 + 24);
  }
}

function drawMap() {
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      let x = c * TILE;
      let y = r * TILE;
      if (grid[r][c] === 1) {
        fill(88, 80, 100);
        stroke(50, 44, 60);
        strokeWeight(2);
        rect(x, y, TILE, TILE);
      } else {
        noStroke();
        if ((r + c) % 2 === 0) {
          fill(54, 48, 58);
        } else {
          fill(62, 56, 66);
        }
        rect(x, y, TILE, TILE);
      }
    }
  }
}

function drawTorches() {
  for (let t of torches) {
    let flick = noise(t.off + frame * 0.08);
    noStroke();
    fill(255, 160, 40, 40 + flick * 60);
    ellipse(t.x, t.y + 6, 60 + flick * 16, 60 + flick * 16);
    fill(255, 190, 70, 70 + flick * 80);
    ellipse(t.x, t.y + 4, 26 + flick * 8);
    fill(255, 230, 120);
    ellipse(t.x, t.y, 6, 9);
    stroke(90, 60, 30);
    strokeWeight(2);
    line(t.x, t.y + 3, t.x, t.y + 9);
  }
}

function drawCoins() {
  for (let k of coins) {
    let bob = sin(frame * 0.1 + k.phase) * 2;
    stroke(170, 120, 0);
    strokeWeight(1.5);
    fill(255, 210, 40);
    circle(k.x, k.y + bob, 10);
    noStroke();
    fill(255, 250, 180);
    circle(k.x - 2, k.y + bob - 2, 3);
  }
}

function drawSlimes() {
  for (let s of slimes) {
    let squish = sin(s.wobble) * 2;
    noStroke();
    fill(0, 0, 0, 60);
    ellipse(s.pos.x, s.pos.y + s.r - 1, s.r * 2, 5);
    if (s.flash > 0) {
      fill(255);
    } else {
      fill(80, 200, 100, 220);
    }
    stroke(30, 110, 50);
    strokeWeight(1);
    ellipse(s.pos.x, s.pos.y, s.r * 2 + squish, s.r * 2 - squish);
    noStroke();
    fill(20);
    let look = p5.Vector.sub(player.pos, s.pos).setMag(1.5);
    circle(s.pos.x - 3 + look.x, s.pos.y - 2 + look.y, 3);
    circle(s.pos.x + 3 + look.x, s.pos.y - 2 + look.y, 3);
  }
}

function drawPlayer() {
  let p = player.pos;
  // sword
  if (swingTimer > 0) {
    let swingAngle = player.facing + map(swingTimer, 14, 0, -PI / 2, PI / 2);
    push();
    translate(p.x, p.y);
    noFill();
    stroke(255, 255, 255, 90);
    strokeWeight(3);
    arc(0, 0, 44, 44, player.facing - PI / 2, swingAngle);
    rotate(swingAngle);
    stroke(210, 220, 235);
    strokeWeight(3);
    line(6, 0, 22, 0);
    stroke(120, 80, 40);
    strokeWeight(4);
    line(3, 0, 7, 0);
    pop();
  }

  let blink = hurtTimer > 0 && floor(hurtTimer / 5) % 2 === 0;
  if (!blink) {
    stroke(20, 30, 60);
    strokeWeight(1.5);
    fill(70, 130, 230);
    circle(p.x, p.y, player.r * 2);
    // facing indicator
    noStroke();
    fill(240, 220, 190);
    let f = p5.Vector.fromAngle(player.facing).mult(4);
    circle(p.x + f.x, p.y + f.y, 6);
  }
}

function drawParticles() {
  noStroke();
  for (let p of particles) {
    let c = p.col;
    fill(red(c), green(c), blue(c), map(p.life, 0, 20, 0, 255));
    circle(p.pos.x, p.pos.y, 3);
  }
}

function drawHeart(x, y, s, filled) {
  push();
  translate(x, y);
  scale(s);
  if (filled) {
    fill(220, 40, 60);
  } else {
    fill(60, 40, 50);
  }
  stroke(40, 0, 10);
  strokeWeight(1 / s);
  beginShape();
  vertex(0, 3);
  bezierVertex(0, -1, -6, -1, -6, 3);
  bezierVertex(-6, 6, -2, 8, 0, 11);
  bezierVertex(2, 8, 6, 6, 6, 3);
  bezierVertex(6, -1, 0, -1, 0, 3);
  endShape(CLOSE);
  pop();
}

function drawHUD() {
  noStroke();
  fill(10, 8, 16, 230);
  rect(0, 0, W, HUD_H);
  stroke(120, 100, 60);
  strokeWeight(1);
  line(0, HUD_H, W, HUD_H);

  for (let i = 0; i < 3; i++) {
    drawHeart(16 + i * 18, 6, 1.2, i < lives);
  }

  noStroke();
  fill(255, 220, 120);
  textFont('Georgia');
  textSize(14);
  textAlign(LEFT, CENTER);
  text('Coins: ' + coinsCollected, 80, HUD_H / 2);
  fill(230);
  text('Score: ' + score, 170, HUD_H / 2);
}

function drawMinimap() {
  let s = 3;
  let mx = W - COLS * s - 6;
  let my = HUD_H + 6;
  noStroke();
  fill(0, 0, 0, 150);
  rect(mx - 2, my - 2, COLS * s + 4, ROWS * s + 4);
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      if (grid[r][c] === 1) {
        fill(150, 140, 160);
      } else {
        fill(40, 36, 46);
      }
      rect(mx + c * s, my + r * s, s, s);
    }
  }
  fill(255, 210, 40);
  for (let k of coins) {
    rect(mx + k.c * s, my + k.r * s, s, s);
  }
  fill(90, 220, 110);
  for (let sl of slimes) {
    rect(mx + floor(sl.pos.x / TILE) * s, my + floor(sl.pos.y / TILE) * s, s, s);
  }
  fill(80, 150, 255);
  rect(mx + floor(player.pos.x / TILE) * s, my + floor(player.pos.y / TILE) * s, s, s);
}

function getGameState() {
  return { score, lives, gameState };
}
