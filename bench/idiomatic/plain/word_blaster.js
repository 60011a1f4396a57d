// Word Blaster - pop the falling word bubbles before they hit the ground.
// Controls: LEFT/RIGHT aim the turret, SPACE fires.

const W = 480;
const H = 440;

const WORDS = [
  'cat', 'moon', 'star', 'p5js', 'pixel', 'laser', 'rocket', 'comet',
  'zap', 'boom', 'orbit', 'nova', 'bubble', 'glow', 'robot', 'quark',
  'alien', 'warp', 'flux', 'byte', 'code', 'loop', 'draw', 'arc'
];

let turretAngle;
let bullets = [];
let bubbles = [];
let particles = [];
let popups = [];
let stars = [];
let score = 0;
let lives = 5;
let gameState = 'playing';
let level = 1;
let spawnTimer = 0;
let reload = 0;
let frames = 0;
let popped = 0;
let bannerTimer = 0;
let shake = 0;

function setup() {
  createCanvas(W, H);
  resetGame(0);
}

function resetGame(seed) {
  turretAngle = -HALF_PI;
  bullets = [];
  bubbles = [];
  particles = [];
  popups = [];
  score = 0;
  lives = 5;
  gameState = 'playing';
  level = 1;
  spawnTimer = 30;
  reload = 0;
  frames = 0;
  popped = 0;
  bannerTimer = 90;
  shake = 0;
  stars = [];
  for (let i = 0; i < 50; i++) {
    stars.push({ x: random(W), y: random(H - 60), s: random(1, 3), tw: random(TWO_PI) });
  }
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function draw() {
  if (gameState === 'playing') update();

  push();
  if (shake > 0) translate(random(-shake, shake), random(-shake, shake));
  drawBackground();
  drawGround();
  for (let b of bubbles) drawBubble(b);
  for (let p of particles) drawParticle(p);
  for (let b of bullets) drawBullet(b);
  drawTurret();
  drawPopups();
  pop();

  drawHUD();
  if (bannerTimer > 0 && gameState === 'playing') drawBanner();
  if (gameState !== 'playing') drawOverlay();
}

// ---------- update ----------

function update() {
  frames++;
  if (bannerTimer > 0) bannerTimer--;
  if (shake > 0) shake *= 0.85;
  if (shake < 0.3) shake = 0;

  if (keyIsDown(LEFT_ARROW)) turretAngle -= 0.04;
  if (keyIsDown(RIGHT_ARROW)) turretAngle += 0.04;
  turretAngle = constrain(turretAngle, -PI + 0.2, -0.2);

  if (reload > 0) reload--;
  if (keyIsDown(32) && reload <= 0) fire();

  spawnTimer--;
  if (spawnTimer <= 0) {
    spawnBubble();
    spawnTimer = max(35, floor(110 - level * 12 + random(-15, 15)));
  }

  updateBullets();
  updateBubbles();
  updateParticles();

  for (let i = popups.length - 1; i >= 0; i--) {
    popups[i].y -= 0.8;
    popups[i].life--;
    if (popups[i].life <= 0) popups.splice(i, 1);
  }

  let newLevel = 1 + floor(popped / 8);
  if (newLevel > level) {
    level = newLevel;
    bannerTimer = 90;
    if (level > 6) gameState = 'won';
  }
  // hard time limit: one minute and a half
  if (frames > 60 * 90 && gameState === 'playing') gameState = 'gameover';
}

function fire() {
  let gx = W / 2 + cos(turretAngle) * 34;
  let gy = H - 40 + sin(turretAngle) * 34;
  bullets.push({ x: gx, y: gy, vx: cos(turretAngle) * 7, vy: sin(turretAngle) * 7 });
  reload = 12;
  for (let i = 0; i < 4; i++) {
    particles.push(makeParticle(gx, gy, color(255, 240, 150), 1.5, 12));
  }
}

function spawnBubble() {
  let word = random(WORDS);
  textSize(16);
  textStyle(BOLD);
  let tw = textWidth(word);
  let w = tw + 28;
  let h = 34;
  let hue = floor(random(6));
  let palette = [
    color(255, 110, 130), color(110, 190, 255), color(140, 230, 130),
    color(255, 200, 90), color(200, 140, 255), color(90, 230, 220)
  ];
  bubbles.push({
    word: word,
    x: random(w / 2 + 10, W - w / 2 - 10),
    y: -h,
    w: w,
    h: h,
    vy: random(0.4, 0.7) + level * 0.12,
    wobble: random(TWO_PI),
    col: palette[hue],
    hp: word.length > 4 ? 2 : 1,
    hit: 0
  });
}

function updateBullets() {
  for (let i = bullets.length - 1; i >= 0; i--) {
    let b = bullets[i];
    b.x += b.vx;
    b.y += b.vy;
    if (b.x < -10 || b.x > W + 10 || b.y < -10) {
      bullets.splice(i, 1);
      continue;
    }
    for (let j = bubbles.length - 1; j >= 0; j--) {
      let bb = bubbles[j];
      let dx = (b.x - bb.x) / (bb.w / 2);
      let dy = (b.y - bb.y) / (bb.h / 2);
      if (dx * dx + dy * dy < 1) {
        bb.hp--;
        bb.hit = 8;
        bullets.splice(i, 1);
        if (bb.hp <= 0) {
          popBubble(bb);
          bubbles.splice(j, 1);
        } else {
          for (let k = 0; k < 5; k++) particles.push(makeParticle(b.x, b.y, bb.col, 2, 18));
        }
        break;
      }
    }
  }
}

function popBubble(bb) {
  let pts = bb.word.length * 10 * level;
  score += pts;
  popped++;
  popups.push({ x: bb.x, y: bb.y, txt: '+' + pts, life: 40 });
  for (let k = 0; k < 24; k++) particles.push(makeParticle(bb.x, bb.y, bb.col, 4, 40));
}

function updateBubbles() {
  for (let i = bubbles.length - 1; i >= 0; i--) {
    let b = bubbles[i];
    b.y += b.vy;
    b.wobble += 0.05;
    b.x += sin(b.wobble) * 0.4;
    if (b.hit > 0) b.hit--;
    if (b.y + b.h / 2 > H - 60) {
      lives--;
      shake = 8;
      for (let k = 0; k < 16; k++) particles.push(makeParticle(b.x, H - 60, color(255, 80, 60), 3, 30));
      bubbles.splice(i, 1);
      if (lives <= 0) {
        lives = 0;
        gameState = 'gameover';
      }
    }
  }
}

function makeParticle(x, y, c, spd, life) {
  let a = random(TWO_PI);
  let s = random(0.3, spd);
  return {
    x: x, y: y, vx: cos(a) * s, vy: sin(a) * s,
    life: life, maxLife: life, size: random(2, 6), col: c
  };
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

// ---------- drawing ----------

function drawBackground() {
  // vertical gradient night sky
  let top = color(15, 10, 45);
  let bottom = color(70, 30, 90);
  strokeWeight(1);
  for (let y = 0; y < H; y += 4) {
    stroke(lerpColor(top, bottom, y / H));
    line(0, y, W, y);
    line(0, y + 1, W, y + 1);
    line(0, y + 2, W, y + 2);
    line(0, y + 3, W, y + 3);
  }
  // twinkling stars
  noStroke();
  for (let s of stars) {
    let b = 150 + 100 * sin(s.tw + frames * 0.05);
    fill(255, 255, 255, b);
    ellipse(s.x, s.y, s.s, s.s);
  }
  // moon
  fill(255, 245, 210, 60);
  ellipse(W - 70, 70, 70, 70);
  fill(255, 245, 210);
  ellipse(W - 70, 70, 46, 46);
  fill(230, 220, 185);
  ellipse(W - 78, 64, 10, 10);
  ellipse(W - 62, 80, 7, 7);
}

function drawGround() {
  noStroke();
  fill(40, 25, 55);
  rect(0, H - 60, W, 60);
  // tiled ground blocks
  stroke(25, 15, 35);
  strokeWeight(2);
  for (let x = 0; x < W; x += 32) {
    fill((x / 32) % 2 === 0 ? color(60, 40, 80) : color(52, 34, 70));
    rect(x, H - 60, 32, 16);
  }
  // danger line
  stroke(255, 80, 80, 120 + 60 * sin(frames * 0.1));
  strokeWeight(2);
  line(0, H - 61, W, H - 61);
}

function drawBubble(b) {
  push();
  translate(b.x, b.y);
  let squash = b.hit > 0 ? 1 + b.hit * 0.02 : 1;
  // glow
  noStroke();
  fill(red(b.col), green(b.col), blue(b.col), 50);
  ellipse(0, 0, b.w * 1.2 * squash, b.h * 1.4);
  // body
  stroke(255);
  strokeWeight(2);
  if (b.hit > 0) fill(255);
  else fill(red(b.col), green(b.col), blue(b.col), 200);
  ellipse(0, 0, b.w * squash, b.h / squash);
  // highlight arc
  noFill();
  stroke(255, 255, 255, 180);
  strokeWeight(3);
  arc(0, 0, b.w * 0.75, b.h * 0.6, PI + 0.4, PI + 1.4);
  // armour ring for tough bubbles
  if (b.hp > 1) {
    stroke(255, 230, 90);
    strokeWeight(2);
    arc(0, 0, b.w + 8, b.h + 8, 0, PI);
  }
  // the word
  noStroke();
  fill(20, 10, 40);
  textAlign(CENTER, CENTER);
  textSize(16);
  textStyle(BOLD);
  text(b.word, 0, 1);
  pop();
}

function drawBullet(b) {
  noStroke();
  fill(255, 240, 120, 90);
  ellipse(b.x, b.y, 12, 12);
  fill(255, 255, 200);
  ellipse(b.x, b.y, 6, 6);
}

function drawParticle(p) {
  noStroke();
  let a = map(p.life, 0, p.maxLife, 0, 255);
  fill(red(p.col), green(p.col), blue(p.col), a);
  rect(p.x - p.size / 2, p.y - p.size / 2, p.size, p.size);
}

function drawTurret() {
  let bx = W / 2;
  let by = H - 40;
  // aim guide
  stroke(255, 255, 255, 40);
  strokeWeight(1);
  for (let i = 1; i < 8; i++) {
    let d = 40 + i * 22;
    point(bx + cos(turretAngle) * d, by + sin(turretAngle) * d);
  }
  // range arc
  noFill();
  stroke(120, 200, 255, 90);
  strokeWeight(2);
  arc(bx, by, 90, 90, PI + 0.2, TWO_PI - 0.2);

  // barrel
  push();
  translate(bx, by);
  rotate(turretAngle);
  rectMode(CENTER);
  stroke(20);
  strokeWeight(2);
  fill(170, 180, 200);
  rect(18, 0, 36, 10, 3);
  fill(reload > 0 ? color(255, 150, 80) : color(120, 230, 255));
  rect(34, 0, 6, 12, 2);
  pop();

  // base dome
  stroke(20);
  strokeWeight(2);
  fill(90, 100, 130);
  arc(bx, by + 4, 56, 48, PI, TWO_PI, CHORD);
  fill(60, 70, 95);
  rectMode(CENTER);
  rect(bx, by + 10, 70, 14, 4);
  rectMode(CORNER);
}

function drawPopups() {
  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  textSize(15);
  noStroke();
  for (let p of popups) {
    fill(255, 255, 150, map(p.life, 0, 40, 0, 255));
    text(p.txt, p.x, p.y);
  }
}

function drawHUD() {
  noStroke();
  fill(0, 0, 0, 120);
  rect(8, 8, W - 16, 34, 10);

  textStyle(BOLD);
  textSize(16);
  textAlign(LEFT, CENTER);
  fill(255);
  text('SCORE: ' + score, 20, 25);

  textAlign(CENTER, CENTER);
  fill(180, 220, 255);
  text('LVL ' + level, W / 2, 25);

  // lives as hearts made of ellipses and a triangle
  for (let i = 0; i < 5; i++) {
    let hx = W - 110 + i * 20;
    let hy = 23;
    if (i < lives) fill(255, 80, 110);
    else fill(90, 60, 80);
    ellipse(hx - 3, hy - 2, 8, 8);
    ellipse(hx + 3, hy - 2, 8, 8);
    triangle(hx - 7, hy, hx + 7, hy, hx, hy + 8);
  }

  // level progress bar (bottom)
  let prog = (popped % 8) / 8;
  fill(0, 0, 0, 140);
  rect(W / 2 - 100, H - 18, 200, 10, 5);
  fill(120, 230, 255);
  rect(W / 2 - 100, H - 18, 200 * prog, 10, 5);

  // time left
  let secs = max(0, 90 - floor(frames / 60));
  textSize(12);
  textAlign(LEFT, CENTER);
  fill(220);
  text('TIME ' + secs, 14, H - 13);
  textStyle(NORMAL);
}

function drawBanner() {
  let a = min(255, bannerTimer * 6);
  noStroke();
  fill(0, 0, 0, a * 0.5);
  rect(0, H / 2 - 30, W, 60);
  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  textSize(30);
  fill(255, 230, 120, a);
  text('LEVEL ' + level, W / 2, H / 2);
  textStyle(NORMAL);
}

function drawOverlay() {
  noStroke();
  fill(10, 0, 30, 180);
  rect(0, 0, W, H);

  stroke(255, 255, 255, 150);
  strokeWeight(3);
  fill(40, 20, 70, 230);
  rectMode(CENTER);
  rect(W / 2, H / 2, 300, 160, 16);
  rectMode(CORNER);

  noStroke();
  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  textSize(32);
  if (gameState === 'won') {
    fill(140, 255, 170);
    text('YOU WIN!', W / 2, H / 2 - 40);
  } else {
    fill(255, 100, 120);
    text('GAME OVER', W / 2, H / 2 - 40);
  }
  textSize(20);
  fill(255);
  text('Score: ' + score, W / 2, H / 2 + 5);
  textStyle(ITALIC);
  textSize(14);
  fill(200, 190, 230);
  text('Bubbles popped: ' + popped, W / 2, H / 2 + 40);
  textStyle(NORMAL);
}
