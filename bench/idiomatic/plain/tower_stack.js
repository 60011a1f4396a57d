// Tower Stack - slide, drop, stack as high as you can.
// SPACE drops the moving block. Overhang is sliced off.

const W = 400;
const H = 400;
const BLOCK_H = 20;
const GROUND_Y = 360;
const START_W = 180;
const WIN_LEVEL = 60;

let rng;
let stack;
let current;
let chunks;
let particles;
let popups;
let score;
let lives;
let gameState;
let cameraY;
let combo;
let hueOffset;
let shake;
let bestCombo;

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
  colorMode(HSB);
  rectMode(CENTER);
  textFont('sans-serif');
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  hueOffset = floor(rng() * 360);
  stack = [];
  stack.push({ x: W / 2, w: START_W, level: 0 });
  chunks = [];
  particles = [];
  popups = [];
  score = 0;
  lives = 3;
  gameState = 'playing';
  cameraY = 0;
  combo = 0;
  bestCombo = 0;
  shake = 0;
  spawnBlock(START_W);
}

function getGameState() {
  return { score, lives, gameState };
}

function levelHue(level) {
  return (hueOffset + level * 12) % 360;
}

function blockY(level) {
  return GROUND_Y - level * BLOCK_H;
}

function spawnBlock(w) {
  const level = stack.length;
  const fromLeft = rng() < 0.5;
  current = {
    x: fromLeft ? w / 2 : W - w / 2,
    w: w,
    level: level,
    dir: fromLeft ? 1 : -1,
    speed: min(2 + level * 0.15, 7),
    cooldown: 15
  };
}

function topBlock() {
  return stack[stack.length - 1];
}

function dropBlock() {
  const top = topBlock();
  const left = max(current.x - current.w / 2, top.x - top.w / 2);
  const right = min(current.x + current.w / 2, top.x + top.w / 2);
  const overlap = right - left;

  if (overlap <= 0) {
    // complete miss: the whole block tumbles away
    chunks.push({
      x: current.x, y: blockY(current.level), w: current.w,
      vx: current.dir * 1.5, vy: 0, rot: 0, vr: current.dir * 0.05,
      hue: levelHue(current.level)
    });
    lives--;
    combo = 0;
    shake = 10;
    popups.push({ text: 'MISS', x: current.x, y: blockY(current.level) - 20, alpha: 1, hue: 0 });
    if (lives <= 0) {
      gameState = 'gameover';
      burst(current.x, blockY(current.level), 30, 0);
    } else {
      spawnBlock(current.w);
    }
    return;
  }

  const diff = current.x - top.x;
  let placed;
  if (abs(diff) < 4) {
    // perfect drop, snap and reward
    combo++;
    bestCombo = max(bestCombo, combo);
    const grow = combo >= 3 ? 6 : 0;
    placed = { x: top.x, w: min(top.w + grow, START_W), level: current.level };
    score += 2 + combo;
    popups.push({ text: 'PERFECT!', x: W / 2, y: blockY(current.level) - 30, alpha: 1, hue: 50 });
    burst(placed.x - placed.w / 2, blockY(current.level), 10, levelHue(current.level));
    burst(placed.x + placed.w / 2, blockY(current.level), 10, levelHue(current.level));
  } else {
    combo = 0;
    placed = { x: (left + right) / 2, w: overlap, level: current.level };
    // sliced off piece
    const cutW = current.w - overlap;
    const cutX = diff > 0 ? right + cutW / 2 : left - cutW / 2;
    chunks.push({
      x: cutX, y: blockY(current.level), w: cutW,
      vx: diff > 0 ? 1 : -1, vy: 0, rot: 0, vr: (diff > 0 ? 1 : -1) * 0.04,
      hue: levelHue(current.level)
    });
    score += 1;
    burst(diff > 0 ? right : left, blockY(current.level), 6, levelHue(current.level));
  }

  stack.push(placed);

  if (stack.length - 1 >= WIN_LEVEL) {
    gameState = 'won';
    burst(W / 2, blockY(placed.level), 40, 120);
    return;
  }
  spawnBlock(placed.w);
}

function burst(x, y, n, hue) {
  for (let i = 0; i < n; i++) {
    const a = rng() * TWO_PI;
    const s = 1 + rng() * 3;
    particles.push({
      x: x, y: y,
      vx: cos(a) * s, vy: sin(a) * s - 1,
      life: 30 + floor(rng() * 30),
      maxLife: 60,
      size: 3 + rng() * 4,
      hue: hue
    });
  }
}

function keyPressed() {
  if (key === ' ' || keyCode === 32) {
    if (gameState === 'playing' && current.cooldown <= 0) {
      dropBlock();
    }
  }
}

function update() {
  if (gameState === 'playing') {
    if (current.cooldown > 0) current.cooldown--;
    current.x += current.dir * current.speed;
    if (current.x + current.w / 2 > W) {
      current.x = W - current.w / 2;
      current.dir = -1;
    } else if (current.x - current.w / 2 < 0) {
      current.x = current.w / 2;
      current.dir = 1;
    }
  }

  // camera follows the tower top
  const target = max(0, (stack.length - 9) * BLOCK_H);
  cameraY = lerp(cameraY, target, 0.1);

  for (const c of chunks) {
    c.vy += 0.4;
    c.x += c.vx;
    c.y += c.vy;
    c.rot += c.vr;
  }
  chunks = chunks.filter(c => c.y + cameraY < H + 100);

  for (const p of particles) {
    p.vy += 0.12;
    p.x += p.vx;
    p.y += p.vy;
    p.life--;
  }
  particles = particles.filter(p => p.life > 0);

  for (const pop of popups) {
    pop.y -= 0.7;
    pop.alpha -= 0.02;
  }
  popups = popups.filter(pop => pop.alpha > 0);

  if (shake > 0) shake *= 0.85;
  if (shake < 0.3) shake = 0;
}

function drawSky() {
  const h = stack.length;
  const topCol = color((210 + h * 3) % 360, 60, 25 + min(h, 30));
  const botCol = color((260 + h * 4) % 360, 35, 95);
  strokeWeight(2);
  for (let y = 0; y < H; y += 2) {
    const c = lerpColor(topCol, botCol, y / H);
    stroke(c);
    line(0, y, W, y);
  }
  // a few stars when the tower gets high
  if (h > 15) {
    noStroke();
    fill(0, 0, 100, min(1, (h - 15) / 15));
    for (let i = 0; i < 25; i++) {
      const sx = (i * 97) % W;
      const sy = (i * 53 + cameraY * 0.2) % (H * 0.6);
      circle(sx, sy, 2);
    }
  }
}

function drawBlock(x, y, w, hue) {
  stroke(hue, 70, 45);
  strokeWeight(2);
  fill(hue, 65, 92);
  rect(x, y, w, BLOCK_H);
  // highlight strip
  noStroke();
  fill(hue, 40, 100, 0.6);
  rect(x, y - BLOCK_H / 2 + 3, max(0, w - 6), 3);
}

function drawWorld() {
  push();
  const sx = shake > 0 ? (rng() - 0.5) * shake : 0;
  translate(sx, cameraY);

  // ground
  noStroke();
  fill(120, 40, 35);
  rect(W / 2, GROUND_Y + BLOCK_H / 2 + 20, W, 40);

  for (const b of stack) {
    drawBlock(b.x, blockY(b.level), b.w, levelHue(b.level));
  }

  if (gameState === 'playing') {
    drawBlock(current.x, blockY(current.level), current.w, levelHue(current.level));
  }

  for (const c of chunks) {
    push();
    translate(c.x, c.y);
    rotate(c.rot);
    drawBlock(0, 0, c.w, c.hue);
    pop();
  }

  noStroke();
  for (const p of particles) {
    fill(p.hue, 60, 100, p.life / p.maxLife);
    circle(p.x, p.y, p.size);
  }

  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  for (const pop of popups) {
    textSize(pop.text === 'PERFECT!' ? 28 : 22);
    fill(0, 0, 0, pop.alpha * 0.5);
    text(pop.text, pop.x + 2, pop.y + 2);
    fill(pop.hue, 80, 100, pop.alpha);
    text(pop.text, pop.x, pop.y);
  }
  pop();
}

function drawHUD() {
  noStroke();
  fill(0, 0, 0, 0.35);
  rect(W / 2, 24, W, 48);

  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  textSize(28);
  fill(0, 0, 100);
  text(nf(score, 3), W / 2, 22);

  textStyle(NORMAL);
  textSize(14);
  textAlign(LEFT, CENTER);
  text('HEIGHT ' + nf(stack.length - 1, 2), 12, 22);

  textAlign(RIGHT, CENTER);
  let hearts = '';
  for (let i = 0; i < lives; i++) hearts += '\u2665 ';
  fill(350, 80, 100);
  text(hearts.trim(), W - 12, 22);

  if (combo >= 2 && gameState === 'playing') {
    textAlign(CENTER, CENTER);
    textSize(14);
    fill(50, 90, 100, 0.7 + 0.3 * sin(frameCount * 0.2));
    text('COMBO x' + combo, W / 2, 60);
  }
}

function drawEndPanel() {
  fill(0, 0, 0, 0.4);
  noStroke();
  rect(W / 2, H / 2, W, H);

  const won = gameState === 'won';
  stroke(0, 0, 100);
  strokeWeight(3);
  fill(won ? 130 : 350, 60, 40, 0.9);
  rect(W / 2, H / 2, 260, 160, 18);

  noStroke();
  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  textSize(30);
  fill(0, 0, 100);
  text(won ? 'YOU WIN!' : 'GAME OVER', W / 2, H / 2 - 45);

  textStyle(NORMAL);
  textSize(18);
  text('Score: ' + nf(score, 4), W / 2, H / 2 - 5);
  text('Height: ' + (stack.length - 1) + '   Best combo: ' + bestCombo, W / 2, H / 2 + 22);

  // button
  fill(50, 80, 100);
  rect(W / 2, H / 2 + 58, 140, 28, 14);
  fill(0, 0, 15);
  textSize(13);
  textStyle(BOLD);
  text(won ? 'SKY HIGH' : 'TOWER TOPPLED', W / 2, H / 2 + 58);
}

function draw() {
  update();
  background(0);
  drawSky();
  drawWorld();
  drawHUD();
  if (gameState !== 'playing') {
    drawEndPanel();
  }
}
