// Nova Barrage - a vertical bullet-hell shooter.
// Survive eight waves of enemy ships that spray rings, spirals and fans of glowing
// bullets; shoot them down for points. Only the small core of your ship can be hit.
// Keys: arrow keys move the ship, SPACE fires a volley.

const TOTAL_WAVES = 8;
const PATTERNS = ['ring', 'spiral', 'aimed', 'fan'];
const FIRE_RATES = { ring: 70, spiral: 9, aimed: 50, fan: 45 };
const BOOM_COLORS = ['orange', 'yellow', '#ff4040', '#ffffff', 'rgb(255, 150, 60)'];

let player;
let shots = [];
let bullets = [];
let enemies = [];
let particles = [];
let stars = [];
let score = 0;
let lives = 3;
let wave = 0;
let waveDelay = 0;
let flash = 0;
let gameState = 'playing';

class Particle {
  constructor(x, y, col) {
    this.pos = createVector(x, y);
    this.vel = p5.Vector.random2D().mult(random(0.5, 4.5));
    this.lifespan = 255;
    this.col = color(col);
    this.size = random(2, 7);
  }

  update() {
    this.vel.mult(0.95);
    this.pos.add(this.vel);
    this.lifespan -= 6;
  }

  isDead() {
    return this.lifespan <= 0;
  }

  show() {
    this.col.setAlpha(this.lifespan);
    noStroke();
    fill(this.col);
    ellipse(this.pos.x, this.pos.y, this.size);
  }
}

class Bullet {
  constructor(pos, vel, curve = 0) {
    this.pos = pos.copy();
    this.vel = vel.copy();
    this.curve = curve;
    this.r = 5;
  }

  update() {
    if (this.curve !== 0) this.vel.rotate(this.curve);
    this.pos.add(this.vel);
  }

  offscreen() {
    return this.pos.x < -20 || this.pos.x > width + 20 || this.pos.y < -20 || this.pos.y > height + 20;
  }

  show() {
    const hue = map(this.vel.heading(), -PI, PI, 0, 360);
    fill(hue, 80, 100, 0.35);
    ellipse(this.pos.x, this.pos.y, this.r * 3);
    fill(hue, 30, 100);
    ellipse(this.pos.x, this.pos.y, this.r * 1.6);
  }
}

class Enemy {
  constructor(x, targetY) {
    this.pos = createVector(x, -30);
    this.target = createVector(x, targetY);
    this.maxHp = 5 + wave * 2;
    this.hp = this.maxHp;
    this.pattern = random(PATTERNS);
    this.fireRate = max(4, FIRE_RATES[this.pattern] - wave * 3);
    this.timer = floor(random(40));
    this.angle = random(TWO_PI);
    this.sides = random([5, 6, 8]);
    this.r = 16;
  }

  update() {
    this.pos.lerp(this.target, 0.03);
    this.target.x = constrain(this.target.x + sin(frameCount * 0.02 + this.angle) * 0.8, 30, width - 30);
    this.timer++;
    if (this.pos.y > 20 && this.timer % this.fireRate === 0) this.fire();
  }

  fire() {
    const speed = 1.8 + wave * 0.15;
    if (this.pattern === 'ring') {
      const n = 10 + wave;
      for (let i = 0; i < n; i++) {
        bullets.push(new Bullet(this.pos, p5.Vector.fromAngle(this.angle + TWO_PI * i / n, speed)));
      }
      this.angle += 0.2;
    } else if (this.pattern === 'spiral') {
      for (let k = 0; k < 3; k++) {
        const v = p5.Vector.fromAngle(this.angle + k * TWO_PI / 3).setMag(speed);
        bullets.push(new Bullet(this.pos, v, 0.004));
      }
      this.angle += 0.27;
    } else if (this.pattern === 'aimed') {
      const dir = p5.Vector.sub(player.pos, this.pos).setMag(speed + 1);
      [-0.3, -0.15, 0, 0.15, 0.3].forEach(a => bullets.push(new Bullet(this.pos, dir.copy().rotate(a))));
    } else {
      const sweep = sin(this.timer * 0.05) * 0.6;
      for (let i = -3; i <= 3; i++) {
        bullets.push(new Bullet(this.pos, p5.Vector.fromAngle(HALF_PI + sweep + i * 0.2, speed)));
      }
    }
  }

  show() {
    push();
    translate(this.pos.x, this.pos.y);
    rotate(frameCount * 0.03 + this.angle);
    stroke(255);
    strokeWeight(2);
    fill(map(this.hp, 0, this.maxHp, 255, 120), map(this.hp, 0, this.maxHp, 60, 200), 220);
    beginShape();
    for (let i = 0; i < this.sides; i++) {
      const v = p5.Vector.fromAngle(TWO_PI * i / this.sides, i % 2 === 0 ? this.r : this.r * 0.7);
      vertex(v.x, v.y);
    }
    endShape(CLOSE);
    noStroke();
    fill(20);
    ellipse(0, 0, 8);
    pop();
  }
}

class Ship {
  constructor() {
    this.pos = createVector(width / 2, height - 50);
    this.speed = 3.5;
    this.hitRadius = 4;
    this.invuln = 90;
  }

  update() {
    const dir = createVector(0, 0);
    if (keyIsDown(LEFT_ARROW)) dir.x -= 1;
    if (keyIsDown(RIGHT_ARROW)) dir.x += 1;
    if (keyIsDown(UP_ARROW)) dir.y -= 1;
    if (keyIsDown(DOWN_ARROW)) dir.y += 1;
    dir.setMag(this.speed);
    this.pos.add(dir);
    this.pos.x = constrain(this.pos.x, 12, width - 12);
    this.pos.y = constrain(this.pos.y, 40, height - 16);
    if (this.invuln > 0) this.invuln--;
  }

  fire() {
    [-0.12, 0, 0.12].forEach(a => {
      shots.push({ pos: this.pos.copy(), vel: p5.Vector.fromAngle(-HALF_PI + a, 8), alive: true });
    });
  }

  show() {
    if (this.invuln > 0 && frameCount % 6 < 3) return;
    push();
    translate(this.pos.x, this.pos.y);
    noStroke();
    fill(255, random(120, 200), 0);
    ellipse(0, 14 + random(2), 6, 10 + random(6));
    fill('steelblue');
    triangle(0, -14, -11, 12, 11, 12);
    fill('lightskyblue');
    triangle(0, -8, -4, 6, 4, 6);
    fill(255);
    ellipse(0, 2, this.hitRadius * 2);
    pop();
  }
}

function setup() {
  createCanvas(400, 400);
  resetGame(0);
}

function resetGame(seed) {
  score = 0;
  lives = 3;
  wave = 0;
  waveDelay = 60;
  flash = 0;
  gameState = 'playing';
  player = new Ship();
  shots = [];
  bullets = [];
  enemies = [];
  particles = [];
  stars = [];
  for (let i = 0; i < 60; i++) {
    stars.push({ x: random(width), y: random(height), speed: random(0.5, 3) });
  }
}

function spawnWave() {
  wave++;
  const count = 2 + floor(wave / 2);
  for (let i = 0; i < count; i++) {
    const x = map(i + 0.5, 0, count, 40, width - 40);
    enemies.push(new Enemy(x, random(60, 150)));
  }
}

function explode(x, y, n) {
  for (let i = 0; i < n; i++) particles.push(new Particle(x, y, random(BOOM_COLORS)));
}

function keyPressed() {
  if (key === ' ' && gameState === 'playing') player.fire();
}

function hitPlayer() {
  lives--;
  flash = 20;
  explode(player.pos.x, player.pos.y, 40);
  // clear the bullets around the ship so the respawn is fair
  bullets = bullets.filter(b => b.pos.dist(player.pos) > 90);
  if (lives <= 0) {
    lives = 0;
    gameState = 'gameover';
  } else {
    player.invuln = 120;
  }
}

function update() {
  player.update();
  enemies.forEach(e => e.update());
  bullets.forEach(b => b.update());
  bullets = bullets.filter(b => !b.offscreen());

  shots.forEach(s => {
    s.pos.add(s.vel);
    enemies.forEach(e => {
      if (s.alive && e.hp > 0 && p5.Vector.dist(s.pos, e.pos) < e.r) {
        s.alive = false;
        e.hp--;
        score += 10;
        particles.push(new Particle(s.pos.x, s.pos.y, 'white'));
        if (e.hp <= 0) {
          score += 100 * wave;
          explode(e.pos.x, e.pos.y, 30);
        }
      }
    });
  });
  shots = shots.filter(s => s.alive && s.pos.y > -10);
  enemies = enemies.filter(e => e.hp > 0);

  if (player.invuln === 0) {
    const hit = bullets.some(b => p5.Vector.dist(b.pos, player.pos) < b.r + player.hitRadius);
    const rammed = enemies.some(e => p5.Vector.dist(e.pos, player.pos) < e.r + 6);
    if (hit || rammed) hitPlayer();
  }

  particles.forEach(p => p.update());
  particles = particles.filter(p => !p.isDead());

  if (enemies.length === 0 && gameState === 'playing') {
    if (wave >= TOTAL_WAVES) {
      gameState = 'won';
    } else if (--waveDelay <= 0) {
      spawnWave();
      waveDelay = 90;
    }
  }
  if (flash > 0) flash--;
}

function drawStars() {
  stars.forEach(s => {
    if (gameState === 'playing') s.y += s.speed;
    if (s.y > height) {
      s.y = 0;
      s.x = random(width);
    }
    stroke(map(s.speed, 0.5, 3, 70, 255));
    strokeWeight(s.speed > 2 ? 2 : 1);
    point(s.x, s.y);
  });
}

function drawHud() {
  const scoreText = 'SCORE ' + nf(score, 7);
  const waveText = `WAVE ${String(wave).padStart(2, '0')}/${TOTAL_WAVES}`;
  noStroke();
  fill(0, 0, 0, 160);
  rect(0, 0, width, 26);
  fill(255);
  textSize(14);
  textAlign(LEFT, CENTER);
  text(scoreText, 10, 13);
  textAlign(CENTER, CENTER);
  text(waveText, width / 2, 13);
  textAlign(RIGHT, CENTER);
  text('LIVES ' + lives, width - 10, 13);

  // total remaining enemy health as a bar
  const hpLeft = enemies.map(e => e.hp).reduce((a, b) => a + b, 0);
  const hpMax = enemies.map(e => e.maxHp).reduce((a, b) => a + b, 0);
  if (hpMax > 0) {
    fill('crimson');
    rect(10, 30, map(hpLeft, 0, hpMax, 0, width - 20), 4);
  }

  textAlign(CENTER, CENTER);
  if (enemies.length === 0 && gameState === 'playing' && wave < TOTAL_WAVES) {
    textSize(24);
    fill(255, 220, 100);
    text('WAVE ' + (wave + 1), width / 2, height / 2);
  }
  if (gameState !== 'playing') {
    textSize(32);
    fill(gameState === 'won' ? 'gold' : 'tomato');
    text(gameState === 'won' ? 'ALL CLEAR!' : 'GAME OVER', width / 2, height / 2 - 10);
    textSize(16);
    fill(255);
    text(scoreText, width / 2, height / 2 + 24);
  }
}

function draw() {
  if (gameState === 'playing') update();

  background(10, 8, 30);
  drawStars();

  noStroke();
  shots.forEach(s => {
    fill('aquamarine');
    rect(s.pos.x - 2, s.pos.y - 6, 4, 12, 2);
  });
  enemies.forEach(e => e.show());
  if (gameState === 'playing') player.show();
  particles.forEach(p => p.show());

  push();
  colorMode(HSB);
  noStroke();
  bullets.forEach(b => b.show());
  pop();

  if (flash > 0) {
    fill(255, 0, 0, map(flash, 0, 20, 0, 120));
    rect(0, 0, width, height);
  }
  drawHud();
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
