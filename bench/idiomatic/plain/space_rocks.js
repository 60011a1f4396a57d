// Space Rocks: an Asteroids-like. Fly a little ship around a wrap-around field
// and blast the drifting rocks; big rocks split into smaller ones.
// Keys: LEFT/RIGHT rotate, UP thrusts, SPACE fires. Clear 3 waves to win.

let ship;
let rocks = [];
let bullets = [];
let particles = [];
let stars = [];
let score = 0;
let lives = 3;
let gameState = 'playing';
let wave = 1;
let rng;

const MAX_WAVES = 3;
const ROCK_SIZES = [36, 20, 11];
const ROCK_POINTS = [20, 50, 100];

class Ship {
  constructor() {
    this.pos = createVector(width / 2, height / 2);
    this.vel = createVector(0, 0);
    this.dir = createVector(0, -1);
    this.r = 10;
    this.thrusting = false;
    this.invincible = 90;
  }

  turn(amount) {
    this.dir.rotate(amount);
  }

  thrust() {
    const force = p5.Vector.fromAngle(this.dir.heading(), 0.18);
    this.vel.add(force);
    this.vel.limit(5);
    this.thrusting = true;
    // exhaust sparks
    if (random() < 0.6) {
      const back = p5.Vector.fromAngle(this.dir.heading() + PI + random(-0.3, 0.3), random(1, 2.5));
      const tail = p5.Vector.sub(this.pos, p5.Vector.mult(this.dir, this.r));
      particles.push(new Particle(tail, back, color(255, random(120, 200), 0), 20));
    }
  }

  update() {
    this.pos.add(this.vel);
    this.vel.mult(0.99);
    wrap(this.pos, this.r);
    if (this.invincible > 0) this.invincible--;
  }

  show() {
    if (this.invincible > 0 && frameCount % 10 < 5) return;
    push();
    translate(this.pos.x, this.pos.y);
    rotate(this.dir.heading() + HALF_PI);
    stroke(255);
    strokeWeight(2);
    fill(20, 30, 60);
    triangle(-this.r, this.r, this.r, this.r, 0, -this.r * 1.4);
    if (this.thrusting) {
      noStroke();
      fill('orange');
      triangle(-this.r / 2, this.r + 2, this.r / 2, this.r + 2, 0, this.r + random(8, 14));
    }
    pop();
  }
}

class Rock {
  constructor(pos, size) {
    this.pos = pos.copy();
    this.size = size;
    this.r = ROCK_SIZES[size];
    this.vel = p5.Vector.random2D().mult(random(0.7, 1.5) * (1 + size * 0.5));
    this.angle = random(TWO_PI);
    this.spin = random(-0.03, 0.03);
    this.offsets = [];
    const points = floor(random(8, 13));
    const seed = random(1000);
    for (let i = 0; i < points; i++) {
      this.offsets.push(map(noise(seed + i * 1.7), 0, 1, 0.45, 1.45));
    }
  }

  update() {
    this.pos.add(this.vel);
    this.angle += this.spin;
    wrap(this.pos, this.r);
  }

  show() {
    push();
    translate(this.pos.x, this.pos.y);
    rotate(this.angle);
    stroke(200, 190, 170);
    strokeWeight(1.5);
    fill(70, 60, 55);
    beginShape();
    for (let i = 0; i < this.offsets.length; i++) {
      const a = map(i, 0, this.offsets.length, 0, TWO_PI);
      const rr = this.r * this.offsets[i];
      vertex(rr * cos(a), rr * sin(a));
    }
    endShape(CLOSE);
    pop();
  }

  hits(pos, r) {
    return p5.Vector.dist(this.pos, pos) < this.r + r;
  }

  split() {
    if (this.size >= ROCK_SIZES.length - 1) return [];
    return [new Rock(this.pos, this.size + 1), new Rock(this.pos, this.size + 1)];
  }
}

class Bullet {
  constructor(pos, dir) {
    this.pos = pos.copy();
    this.vel = p5.Vector.fromAngle(dir.heading(), 7);
    this.life = 45;
  }

  update() {
    this.pos.add(this.vel);
    wrap(this.pos, 0);
    this.life--;
  }

  show() {
    stroke('yellow');
    strokeWeight(4);
    point(this.pos.x, this.pos.y);
  }
}

class Particle {
  constructor(pos, vel, col, life) {
    this.pos = pos.copy();
    this.vel = vel.copy();
    this.col = col;
    this.life = life;
    this.maxLife = life;
  }

  update() {
    this.pos.add(this.vel);
    this.vel.mult(0.95);
    this.life--;
  }

  show() {
    const c = color(red(this.col), green(this.col), blue(this.col), map(this.life, 0, this.maxLife, 0, 255));
    noStroke();
    fill(c);
    circle(this.pos.x, this.pos.y, 3);
  }
}

function wrap(v, margin) {
  if (v.x < -margin) v.x = width + margin;
  if (v.x > width + margin) v.x = -margin;
  if (v.y < -margin) v.y = height + margin;
  if (v.y > height + margin) v.y = -margin;
}

function explode(pos, n, col) {
  for (let i = 0; i < n; i++) {
    const v = p5.Vector.random2D().mult(random(0.5, 3));
    particles.push(new Particle(pos, v, col, floor(random(20, 40))));
  }
}

function spawnWave() {
  rocks = [];
  for (let i = 0; i < 3 + wave; i++) {
    // keep new rocks away from the ship
    let pos;
    do {
      pos = createVector(random(width), random(height));
    } while (pos.dist(ship.pos) < 120);
    rocks.push(new Rock(pos, 0));
  }
}

function setup() {
  createCanvas(400, 400);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  randomSeed(seed);
  noiseSeed(seed);
  score = 0;
  lives = 3;
  wave = 1;
  gameState = 'playing';
  ship = new Ship();
  bullets = [];
  particles = [];
  stars = [];
  for (let i = 0; i < 60; i++) {
    stars.push({ x: rng() * 400, y: rng() * 400, b: 80 + rng() * 175 });
  }
  spawnWave();
}

function keyPressed() {
  if (key === ' ' && gameState === 'playing' && bullets.length < 5) {
    const nose = p5.Vector.add(ship.pos, p5.Vector.mult(ship.dir, ship.r * 1.4));
    bullets.push(new Bullet(nose, ship.dir));
  }
}

function update() {
  if (keyIsDown(LEFT_ARROW)) ship.turn(-0.08);
  if (keyIsDown(RIGHT_ARROW)) ship.turn(0.08);
  ship.thrusting = false;
  if (keyIsDown(UP_ARROW)) ship.thrust();
  ship.update();

  bullets.forEach(b => b.update());
  rocks.forEach(r => r.update());
  particles.forEach(p => p.update());

  // bullets against rocks
  for (let i = rocks.length - 1; i >= 0; i--) {
    const rock = rocks[i];
    for (let j = bullets.length - 1; j >= 0; j--) {
      if (rock.hits(bullets[j].pos, 2)) {
        score += ROCK_POINTS[rock.size];
        explode(rock.pos, 12, color(200, 180, 150));
        rocks.splice(i, 1, ...rock.split());
        bullets.splice(j, 1);
        break;
      }
    }
  }

  // ship against rocks
  if (ship.invincible === 0 && rocks.some(r => r.hits(ship.pos, ship.r * 0.8))) {
    explode(ship.pos, 30, color(120, 200, 255));
    lives--;
    if (lives <= 0) {
      gameState = 'gameover';
    } else {
      ship = new Ship();
    }
  }

  bullets = bullets.filter(b => b.life > 0);
  particles = particles.filter(p => p.life > 0);

  if (rocks.length === 0) {
    score += 250;
    if (wave >= MAX_WAVES) {
      gameState = 'won';
    } else {
      wave++;
      spawnWave();
    }
  }
}

function draw() {
  if (gameState === 'playing') update();

  background(5, 5, 20);
  noStroke();
  for (const s of stars) {
    fill(s.b);
    rect(s.x, s.y, 1.5, 1.5);
  }

  rocks.forEach(r => r.show());
  bullets.forEach(b => b.show());
  particles.forEach(p => p.show());
  if (gameState === 'playing') ship.show();

  // HUD
  noStroke();
  fill(255);
  textSize(16);
  textAlign(LEFT, TOP);
  text('Score: ' + score, 10, 10);
  textAlign(RIGHT, TOP);
  text('Wave ' + wave + '/' + MAX_WAVES, width - 10, 10);
  for (let i = 0; i < lives; i++) {
    push();
    translate(16 + i * 18, 44);
    stroke(255);
    noFill();
    triangle(-5, 6, 5, 6, 0, -8);
    pop();
  }

  if (gameState !== 'playing') {
    textAlign(CENTER, CENTER);
    textSize(36);
    fill(gameState === 'won' ? 'lime' : 'tomato');
    text(gameState === 'won' ? 'YOU WIN!' : 'GAME OVER', width / 2, height / 2);
    textSize(16);
    fill(255);
    text('Final score: ' + score, width / 2, height / 2 + 36);
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
