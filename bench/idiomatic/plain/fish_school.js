// Fish School - a BigFish-style game.
// You are the golden fish with the white outline: eat fish smaller than you to grow, avoid the bigger ones.
// Reach full size to win. Arrow keys swim, SPACE gives a short dash.

let player;
let fishes = [];
let bubbles = [];
let score = 0;
let lives = 3;
let gameState = 'playing';
let rng;
let spawnTimer = 0;
let hurtTimer = 0;
let seaweed = [];

const WIN_SIZE = 80;
const START_SIZE = 20;

function mulberry32(a) {
  return function() {
    a |= 0; a = a + 0x6D2B79F5 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}

class Fish {
  constructor(x, y, size, vel, hue) {
    this.pos = createVector(x, y);
    this.vel = vel;
    this.size = size;
    this.hue = hue;
    this.noiseOffset = random(1000);
    this.wiggle = random(TWO_PI);
  }

  update() {
    // wander: noise gently turns the fish left and right
    let n = noise(this.noiseOffset + frameCount * 0.01);
    this.vel.rotate(map(n, 0, 1, -0.05, 0.05));
    this.pos.add(this.vel);
    this.wiggle += 0.15 + this.vel.mag() * 0.1;
  }

  isOffscreen() {
    let m = this.size * 2;
    return this.pos.x < -m || this.pos.x > width + m || this.pos.y < -m || this.pos.y > height + m;
  }

  show(angle = this.vel.heading()) {
    let s = this.size;
    push();
    translate(this.pos.x, this.pos.y);
    rotate(angle);
    if (this.outline) {
      stroke(0, 0, 100);
      strokeWeight(2);
    } else {
      noStroke();
    }
    // tail
    let tailSwing = sin(this.wiggle) * s * 0.15;
    fill(color(this.hue, 80, 70));
    triangle(-s * 0.35, 0, -s * 0.85, -s * 0.35 + tailSwing, -s * 0.85, s * 0.35 + tailSwing);
    // body
    fill(color(this.hue, 65, 95));
    ellipse(0, 0, s, s * 0.6);
    // fin
    fill(color(this.hue, 80, 75));
    triangle(-s * 0.1, -s * 0.15, s * 0.1, -s * 0.15, -s * 0.15, -s * 0.4);
    // eye
    noStroke();
    fill(0, 0, 100);
    ellipse(s * 0.25, -s * 0.08, s * 0.18);
    fill(0, 0, 0);
    ellipse(s * 0.28, -s * 0.08, s * 0.08);
    pop();
  }
}

class PlayerFish extends Fish {
  constructor(x, y) {
    super(x, y, START_SIZE, createVector(1, 0), 45);
    this.outline = true;
    this.facing = 0;
    this.dashCooldown = 0;
  }

  update() {
    let acc = createVector(0, 0);
    if (keyIsDown(LEFT_ARROW)) acc.x -= 1;
    if (keyIsDown(RIGHT_ARROW)) acc.x += 1;
    if (keyIsDown(UP_ARROW)) acc.y -= 1;
    if (keyIsDown(DOWN_ARROW)) acc.y += 1;
    acc.setMag(0.35);
    this.vel.add(acc);
    this.vel.mult(0.94);
    this.vel.limit(this.dashCooldown > 40 ? 7 : 3.5);
    this.pos.add(this.vel);
    this.pos.x = constrain(this.pos.x, 10, width - 10);
    this.pos.y = constrain(this.pos.y, 30, height - 20);
    if (this.vel.mag() > 0.3) this.facing = this.vel.heading();
    this.wiggle += 0.2 + this.vel.mag() * 0.15;
    if (this.dashCooldown > 0) this.dashCooldown--;
  }

  dash() {
    if (this.dashCooldown > 0) return;
    let boost = p5.Vector.fromAngle(this.facing);
    boost.mult(6);
    this.vel.add(boost);
    this.dashCooldown = 60;
    for (let i = 0; i < 5; i++) {
      bubbles.push(new Bubble(this.pos.x, this.pos.y, random(2, 5)));
    }
  }

  show() {
    // blink while hurt; keep facing the last direction even when stopped
    if (hurtTimer > 0 && floor(hurtTimer / 5) % 2 === 0) return;
    super.show(this.facing);
  }
}

class Bubble {
  constructor(x, y, r) {
    this.pos = createVector(x, y);
    this.vel = createVector(random(-0.3, 0.3), random(-1.5, -0.5));
    this.r = r;
    this.life = 255;
  }

  update() {
    this.vel.x += random(-0.05, 0.05);
    this.pos.add(this.vel);
    this.life -= 3;
  }

  isDead() {
    return this.life <= 0 || this.pos.y < -10;
  }

  show() {
    stroke(190, 30, 100, this.life / 255);
    strokeWeight(1);
    noFill();
    ellipse(this.pos.x, this.pos.y, this.r * 2);
  }
}

function setup() {
  createCanvas(400, 400);
  colorMode(HSB, 360, 100, 100, 1);
  resetGame(0);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 3;
  gameState = 'playing';
  spawnTimer = 0;
  hurtTimer = 0;
  player = new PlayerFish(width / 2, height / 2);
  fishes = [];
  bubbles = [];
  seaweed = [];
  for (let i = 0; i < 7; i++) {
    seaweed.push({ x: rng() * width, h: 40 + rng() * 60, phase: rng() * TWO_PI });
  }
  for (let i = 0; i < 5; i++) {
    spawnSchool(true);
  }
}

function spawnSchool(anywhere) {
  let side = random([-1, 1]);
  let x = side < 0 ? -30 : width + 30;
  let y = random(50, height - 40);
  if (anywhere) {
    x = random(width);
    // don't spawn right on top of the player
    if (abs(x - player.pos.x) < 80) x = (x + width / 2) % width;
  }
  // a small school: fish of about the same size swimming together
  let count = random([1, 1, 2, 3, 4]);
  let size = player.size * random(0.35, 1.4);
  let vel = createVector(-side * random(0.8, 2.2), random(-0.3, 0.3));
  for (let i = 0; i < count; i++) {
    let offset = p5.Vector.random2D().mult(random(5, 30));
    let f = new Fish(x + offset.x, y + offset.y, size * random(0.85, 1.15), vel.copy(), random(360));
    fishes.push(f);
  }
}

function keyPressed() {
  if (keyCode === 32 && gameState === 'playing') {
    player.dash();
  }
}

function updateGame() {
  player.update();
  fishes.forEach(f => f.update());

  spawnTimer--;
  if (spawnTimer <= 0) {
    spawnSchool(false);
    spawnTimer = int(random(30, 60));
  }

  for (let i = fishes.length - 1; i >= 0; i--) {
    let f = fishes[i];
    let d = p5.Vector.dist(player.pos, f.pos);
    if (d < (player.size + f.size) * 0.4) {
      if (f.size < player.size) {
        score += 1 + floor(f.size / 8);
        player.size = min(WIN_SIZE, player.size + f.size * 0.06);
        for (let k = 0; k < 6; k++) {
          bubbles.push(new Bubble(f.pos.x, f.pos.y, random(2, 6)));
        }
        fishes.splice(i, 1);
      } else if (hurtTimer === 0) {
        lives--;
        hurtTimer = 90;
        player.size = max(START_SIZE, player.size * 0.9);
      }
    }
  }
  fishes = fishes.filter(f => !f.isOffscreen());

  if (hurtTimer > 0) hurtTimer--;

  if (random() < 0.08) {
    bubbles.push(new Bubble(random(width), height - 15, random(1, 4)));
  }
  bubbles.forEach(b => b.update());
  bubbles = bubbles.filter(b => !b.isDead());

  if (lives <= 0) {
    gameState = 'gameover';
  } else if (player.size >= WIN_SIZE) {
    gameState = 'won';
  }
}

function drawBackground() {
  background(205, 70, 35);
  noStroke();
  // light bands near the surface
  for (let i = 0; i < 4; i++) {
    fill(200, 50, 60, 0.08);
    rect(0, i * 25, width, 25);
  }
  // seaweed swaying with sin
  stroke(120, 70, 55);
  strokeWeight(4);
  noFill();
  seaweed.forEach(w => {
    beginShape();
    for (let y = 0; y <= w.h; y += 10) {
      let sway = sin(frameCount * 0.03 + w.phase + y * 0.05) * y * 0.15;
      vertex(w.x + sway, height - 12 - y);
    }
    endShape();
  });
  // sand
  noStroke();
  fill(45, 40, 75);
  rect(0, height - 15, width, 15);
}

function drawHud() {
  noStroke();
  fill(0, 0, 0, 0.35);
  rect(0, 0, width, 24);
  fill(0, 0, 100);
  textSize(15);
  textAlign(LEFT, CENTER);
  text('Score: ' + score, 8, 12);
  textAlign(CENTER, CENTER);
  text(`Size: ${nf(player.size, 2, 1)} / ${WIN_SIZE}`, width / 2, 12);
  textAlign(RIGHT, CENTER);
  text('Lives: ' + '♥'.repeat(lives), width - 8, 12);

  if (gameState !== 'playing') {
    textAlign(CENTER, CENTER);
    textSize(32);
    fill(50, 90, 100);
    text(gameState === 'won' ? 'KING OF THE SEA!' : 'EATEN!', width / 2, height / 2);
  }
}

function draw() {
  if (gameState === 'playing') {
    updateGame();
  }
  drawBackground();
  fishes.forEach(f => f.show());
  player.show();
  bubbles.forEach(b => b.show());
  drawHud();
}

function getGameState() {
  return { score, lives, gameState };
}
