// Prism Breaker - a Breakout-like brick breaker.
// Bounce the ball off your paddle to smash every brick; catch falling power-ups
// (W = wide paddle, S = slow ball, + = extra life). Clear three levels to win.
// Keys: LEFT/RIGHT move the paddle, SPACE launches the ball.

const PALETTE = ['#e63946', '#f4a261', '#e9c46a', '#2a9d8f', '#457b9d', '#8d5bd6', '#ef476f'];
const POWER_TYPES = ['wide', 'slow', 'life'];
const POWER_COLORS = { wide: '#06d6a0', slow: '#118ab2', life: '#ff6b6b' };
const POWER_LABELS = { wide: 'W', slow: 'S', life: '+' };
const MAX_LEVEL = 3;
const COLS = 8;
const BRICK_W = 44;
const BRICK_H = 16;
const GAP = 4;

let paddle;
let ball;
let bricks = [];
let powerUps = [];
let sparks = [];
let score = 0;
let lives = 3;
let level = 1;
let bannerTimer = 0;
let gameState = 'playing';

class Brick {
  constructor(x, y, row, hits) {
    this.x = x;
    this.y = y;
    this.w = BRICK_W;
    this.h = BRICK_H;
    this.row = row;
    this.hits = hits;
    this.col = color(PALETTE[row % PALETTE.length]);
    this.points = (8 - row) * 10;
  }

  show() {
    const c = this.hits > 1 ? lerpColor(this.col, color(255), 0.35) : this.col;
    fill(c);
    stroke(red(this.col) * 0.6, green(this.col) * 0.6, blue(this.col) * 0.6);
    strokeWeight(2);
    rect(this.x, this.y, this.w, this.h, 4);
  }
}

class Paddle {
  constructor() {
    this.baseW = 80;
    this.w = this.baseW;
    this.h = 12;
    this.x = width / 2 - this.w / 2;
    this.y = height - 30;
    this.speed = 7;
    this.wideTimer = 0;
  }

  update() {
    if (keyIsDown(LEFT_ARROW)) this.x -= this.speed;
    if (keyIsDown(RIGHT_ARROW)) this.x += this.speed;
    if (this.wideTimer > 0) this.wideTimer--;
    const targetW = this.wideTimer > 0 ? this.baseW * 1.6 : this.baseW;
    const center = this.x + this.w / 2;
    this.w = lerp(this.w, targetW, 0.2);
    this.x = constrain(center - this.w / 2, 0, width - this.w);
  }

  show() {
    noStroke();
    fill([230, 230, 250]);
    rect(this.x, this.y, this.w, this.h, 6);
    fill(this.wideTimer > 0 ? POWER_COLORS.wide : 'slategray');
    rect(this.x + 6, this.y + 3, this.w - 12, this.h - 6, 3);
  }
}

class Ball {
  constructor() {
    this.r = 7;
    this.pos = createVector(0, 0);
    this.vel = createVector(0, 0);
    this.speed = 4.5 + level * 0.5;
    this.stuck = true;
    this.stuckTimer = 0;
    this.slowTimer = 0;
    this.trail = [];
  }

  launch() {
    if (!this.stuck) return;
    this.stuck = false;
    this.vel = p5.Vector.fromAngle(radians(random(-120, -60)), this.speed);
  }

  currentSpeed() {
    return this.slowTimer > 0 ? this.speed * 0.6 : this.speed;
  }

  update() {
    if (this.stuck) {
      this.pos.set(paddle.x + paddle.w / 2, paddle.y - this.r - 1);
      this.stuckTimer++;
      if (this.stuckTimer > 120) this.launch();
      return;
    }
    if (this.slowTimer > 0) this.slowTimer--;
    this.vel.setMag(this.currentSpeed());
    this.trail.push(this.pos.copy());
    if (this.trail.length > 8) this.trail.shift();
    this.pos.add(this.vel);

    // walls
    if (this.pos.x < this.r || this.pos.x > width - this.r) {
      this.vel.reflect(createVector(1, 0));
      this.pos.x = constrain(this.pos.x, this.r, width - this.r);
    }
    if (this.pos.y < 40 + this.r) {
      this.vel.reflect(createVector(0, 1));
      this.pos.y = 40 + this.r;
    }

    // paddle: the hit position sets the bounce angle
    if (this.vel.y > 0 && this.pos.y + this.r >= paddle.y && this.pos.y < paddle.y + paddle.h &&
        this.pos.x > paddle.x - this.r && this.pos.x < paddle.x + paddle.w + this.r) {
      const offset = constrain((this.pos.x - (paddle.x + paddle.w / 2)) / (paddle.w / 2), -1, 1);
      const angle = map(offset, -1, 1, radians(-150), radians(-30));
      this.vel = p5.Vector.fromAngle(angle, this.currentSpeed());
      this.pos.y = paddle.y - this.r;
    }

    // bricks: find the first one we touch and bounce off its nearest side
    const hit = bricks.find(b => this.touches(b));
    if (hit) {
      const nearest = createVector(constrain(this.pos.x, hit.x, hit.x + hit.w), constrain(this.pos.y, hit.y, hit.y + hit.h));
      const away = p5.Vector.sub(this.pos, nearest);
      const normal = abs(away.x) > abs(away.y) ? createVector(Math.sign(away.x) || 1, 0) : createVector(0, Math.sign(away.y) || 1);
      if (this.vel.dot(normal) < 0) this.vel.reflect(normal);
      this.pos.add(normal.mult(2));
      hitBrick(hit);
      this.speed = min(this.speed + 0.04, 9);
    }
  }

  touches(b) {
    const nx = constrain(this.pos.x, b.x, b.x + b.w);
    const ny = constrain(this.pos.y, b.y, b.y + b.h);
    return dist(this.pos.x, this.pos.y, nx, ny) < this.r;
  }

  show() {
    noStroke();
    this.trail.forEach((p, i) => {
      fill(255, 255, 255, map(i, 0, this.trail.length, 10, 90));
      ellipse(p.x, p.y, this.r * map(i, 0, this.trail.length, 0.6, 1.6));
    });
    fill(this.slowTimer > 0 ? POWER_COLORS.slow : 'white');
    ellipse(this.pos.x, this.pos.y, this.r * 2);
  }
}

function setup() {
  createCanvas(400, 400);
  resetGame(0);
}

function resetGame(seed) {
  score = 0;
  lives = 3;
  level = 1;
  gameState = 'playing';
  paddle = new Paddle();
  powerUps = [];
  sparks = [];
  buildLevel();
}

function buildLevel() {
  bricks = [];
  const rows = 3 + level;
  const left = (width - (COLS * BRICK_W + (COLS - 1) * GAP)) / 2;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < COLS; c++) {
      if (level > 1 && random() < 0.15) continue; // a few holes in later levels
      const hits = level === MAX_LEVEL && r < 2 ? 2 : 1;
      bricks.push(new Brick(left + c * (BRICK_W + GAP), 60 + r * (BRICK_H + GAP), r, hits));
    }
  }
  ball = new Ball();
  powerUps = [];
  bannerTimer = 90;
}

function hitBrick(b) {
  b.hits--;
  for (let i = 0; i < 6; i++) {
    sparks.push({ pos: createVector(b.x + b.w / 2, b.y + b.h / 2), vel: p5.Vector.random2D().mult(random(1, 3)), life: 30, col: b.col });
  }
  if (b.hits > 0) {
    score += 5;
    return;
  }
  score += b.points;
  bricks.splice(bricks.indexOf(b), 1);
  if (random() < 0.18) {
    powerUps.push({ x: b.x + b.w / 2, y: b.y + b.h / 2, type: random(POWER_TYPES) });
  }
}

function applyPowerUp(type) {
  score += 25;
  if (type === 'wide') paddle.wideTimer = 600;
  if (type === 'slow') ball.slowTimer = 400;
  if (type === 'life') lives = min(lives + 1, 5);
}

function keyPressed() {
  if (key === ' ' && gameState === 'playing') ball.launch();
}

function update() {
  paddle.update();
  ball.update();

  // falling power-ups: iterate backwards so splice is safe
  for (let i = powerUps.length - 1; i >= 0; i--) {
    const p = powerUps[i];
    p.y += 2;
    const caught = p.y + 8 > paddle.y && p.y - 8 < paddle.y + paddle.h && p.x > paddle.x && p.x < paddle.x + paddle.w;
    if (caught) {
      applyPowerUp(p.type);
      powerUps.splice(i, 1);
    } else if (p.y > height + 10) {
      powerUps.splice(i, 1);
    }
  }

  sparks.forEach(s => {
    s.pos.add(s.vel);
    s.vel.y += 0.1;
    s.life--;
  });
  sparks = sparks.filter(s => s.life > 0);

  if (ball.pos.y > height + ball.r) {
    lives--;
    if (lives <= 0) {
      lives = 0;
      gameState = 'gameover';
      return;
    }
    ball = new Ball();
    paddle.wideTimer = 0;
  }

  if (bricks.length === 0) {
    score += 200 * level;
    if (level >= MAX_LEVEL) {
      gameState = 'won';
      return;
    }
    level++;
    buildLevel();
  }
  if (bannerTimer > 0) bannerTimer--;
}

function draw() {
  if (gameState === 'playing') update();

  background('#1d1f2f');
  stroke(255, 255, 255, 30);
  strokeWeight(1);
  for (let x = 0; x < width; x += 25) line(x, 40, x, height);

  bricks.forEach(b => b.show());

  noStroke();
  sparks.forEach(s => {
    fill(red(s.col), green(s.col), blue(s.col), map(s.life, 0, 30, 0, 255));
    rect(s.pos.x, s.pos.y, 3, 3);
  });

  powerUps.forEach(p => {
    fill(POWER_COLORS[p.type]);
    stroke(255);
    strokeWeight(1);
    rect(p.x - 14, p.y - 7, 28, 14, 7);
    noStroke();
    fill(255);
    textSize(11);
    textAlign(CENTER, CENTER);
    text(POWER_LABELS[p.type], p.x, p.y);
  });

  paddle.show();
  ball.show();

  // HUD
  noStroke();
  fill(0, 0, 0, 140);
  rect(0, 0, width, 40);
  fill(255);
  textSize(16);
  textAlign(LEFT, CENTER);
  text('Score: ' + score, 12, 20);
  textAlign(CENTER, CENTER);
  text(`Level ${level}`, width / 2, 20);
  textAlign(RIGHT, CENTER);
  text(`Lives: ${lives}`, width - 12, 20);

  textAlign(CENTER, CENTER);
  if (bannerTimer > 0 && gameState === 'playing') {
    textSize(32);
    fill(255, 255, 255, map(bannerTimer, 0, 90, 0, 255));
    text('LEVEL ' + level, width / 2, height / 2 + 30);
  } else if (ball.stuck && gameState === 'playing') {
    textSize(14);
    fill(200);
    text('Press SPACE to launch', width / 2, height / 2 + 60);
  }
  if (gameState !== 'playing') {
    fill(0, 0, 0, 170);
    rect(0, 0, width, height);
    textSize(32);
    fill(gameState === 'won' ? 'gold' : 'tomato');
    text(gameState === 'won' ? 'YOU WIN!' : 'GAME OVER', width / 2, height / 2);
    textSize(16);
    fill(255);
    text('Score: ' + score, width / 2, height / 2 + 36);
  }
}

function getGameState() {
  return { score, lives, gameState };
}

function mulberry32(a) {
  return function() {
    a |= 0; a = a + 0x6D2B79F5 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
