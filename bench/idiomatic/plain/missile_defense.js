// Missile Defense - a Missile Command-style game.
// Protect your six cities from incoming missiles by detonating counter-missiles in their path.
// Arrow keys move the crosshair, SPACE launches a counter-missile at it.

const GROUND_Y = 370;
const CITY_XS = [45, 95, 145, 255, 305, 355];
const CITY_COLORS = ['deepskyblue', 'mediumseagreen', 'gold', 'orchid', 'coral', 'turquoise'];
const CITY_SHAPE = [[-14, 0], [-14, -8], [-9, -8], [-9, -15], [-3, -15], [-3, -6], [2, -6], [2, -18], [8, -18], [8, -10], [14, -10], [14, 0]];

let score = 0;
let lives = 6;
let gameState = 'playing';
let rng;

let cities = [];
let missiles = [];
let counters = [];
let explosions = [];
let debris = [];
let stars = [];
let crosshair;
let base;
let wave = 1;
let ammo = 0;
let toSpawn = 0;
let spawnTimer = 0;
let waveBreak = 0;

function mulberry32(a) {
  return function() {
    a |= 0; a = a + 0x6D2B79F5 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}

class Missile {
  constructor(start, target, speed) {
    this.start = start.copy();
    this.pos = start.copy();
    this.target = target.copy();
    this.vel = p5.Vector.sub(target, start).normalize().mult(speed);
    this.dead = false;
  }

  update() {
    this.pos.add(this.vel);
    if (this.pos.y >= this.target.y) {
      this.pos = this.target.copy();
      this.dead = true;
      hitGround(this.pos);
    }
  }

  show() {
    stroke('rgba(255, 70, 70, 0.8)');
    strokeWeight(1.5);
    line(this.start.x, this.start.y, this.pos.x, this.pos.y);
    stroke(255);
    strokeWeight(3);
    point(this.pos.x, this.pos.y);
  }
}

class CounterMissile {
  constructor(from, to) {
    this.from = from.copy();
    this.to = to.copy();
    this.pos = from.copy();
    this.progress = 0;
    this.step = 7 / max(1, p5.Vector.dist(from, to));
    this.done = false;
  }

  update() {
    this.progress = min(1, this.progress + this.step);
    this.pos = p5.Vector.lerp(this.from, this.to, this.progress);
    if (this.progress >= 1) {
      this.done = true;
      explosions.push(new Explosion(this.to.x, this.to.y, 32));
    }
  }

  show() {
    stroke('#66ccff');
    strokeWeight(1.5);
    line(this.from.x, this.from.y, this.pos.x, this.pos.y);
    // mark the detonation point with a small X
    stroke('white');
    strokeWeight(1);
    line(this.to.x - 3, this.to.y - 3, this.to.x + 3, this.to.y + 3);
    line(this.to.x - 3, this.to.y + 3, this.to.x + 3, this.to.y - 3);
  }
}

class Explosion {
  constructor(x, y, maxR) {
    this.pos = createVector(x, y);
    this.maxR = maxR;
    this.age = 0;
    this.life = 50;
    this.r = 0;
  }

  update() {
    this.age++;
    // grow, then shrink
    this.r = this.maxR * sin(PI * this.age / this.life);
  }

  isDone() {
    return this.age >= this.life;
  }

  show() {
    let t = this.age / this.life;
    let hot = color(255, 255, 220);
    let cool = color(255, 60, 0);
    let c = lerpColor(hot, cool, t);
    noStroke();
    fill(c);
    ellipse(this.pos.x, this.pos.y, this.r * 2);
    fill(lerpColor(color('white'), color('yellow'), t));
    ellipse(this.pos.x, this.pos.y, this.r);
  }
}

function setup() {
  createCanvas(400, 400);
  resetGame(0);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  gameState = 'playing';
  cities = CITY_XS.map((x, i) => ({ x: x, alive: true, col: CITY_COLORS[i] }));
  lives = cities.length;
  missiles = [];
  counters = [];
  explosions = [];
  debris = [];
  stars = [];
  for (let i = 0; i < 50; i++) {
    stars.push({ x: rng() * 400, y: rng() * 300, b: 100 + rng() * 155 });
  }
  crosshair = createVector(200, 200);
  base = createVector(200, GROUND_Y - 14);
  wave = 1;
  startWave();
}

function startWave() {
  toSpawn = 6 + wave * 2;
  ammo = 12 + wave * 2;
  spawnTimer = 30;
  waveBreak = 0;
}

function launchMissile() {
  let standing = cities.filter(c => c.alive);
  let tx = random() < 0.8 && standing.length > 0 ? random(standing).x : random(20, 380);
  let start = createVector(random(10, 390), 0);
  let target = createVector(tx, GROUND_Y - 4);
  let speed = 0.9 + wave * 0.25 + random(0.3);
  missiles.push(new Missile(start, target, speed));
}

function hitGround(pos) {
  explosions.push(new Explosion(pos.x, pos.y, 18));
  cities.forEach(c => {
    if (c.alive && abs(c.x - pos.x) < 16) {
      c.alive = false;
      for (let i = 0; i < 15; i++) {
        let v = p5.Vector.fromAngle(random(PI, TWO_PI)).mult(random(1, 3));
        debris.push({ pos: createVector(c.x, GROUND_Y - 8), vel: v, life: 40, col: c.col });
      }
    }
  });
}

function keyPressed() {
  if (key === ' ' && gameState === 'playing' && ammo > 0 && counters.length < 3) {
    counters.push(new CounterMissile(base, crosshair));
    ammo--;
  }
}

function updateGame() {
  let speed = 5;
  if (keyIsDown(LEFT_ARROW)) crosshair.x -= speed;
  if (keyIsDown(RIGHT_ARROW)) crosshair.x += speed;
  if (keyIsDown(UP_ARROW)) crosshair.y -= speed;
  if (keyIsDown(DOWN_ARROW)) crosshair.y += speed;
  crosshair.x = constrain(crosshair.x, 5, width - 5);
  crosshair.y = constrain(crosshair.y, 30, GROUND_Y - 30);

  if (toSpawn > 0) {
    spawnTimer--;
    if (spawnTimer <= 0) {
      launchMissile();
      toSpawn--;
      spawnTimer = int(random(20, 60) / (1 + wave * 0.2));
    }
  }

  missiles.forEach(m => m.update());
  counters.forEach(c => c.update());
  explosions.forEach(e => e.update());

  // explosions destroy any missile inside their radius
  missiles.forEach(m => {
    if (m.dead) return;
    let hit = explosions.some(e => dist(m.pos.x, m.pos.y, e.pos.x, e.pos.y) < e.r);
    if (hit) {
      m.dead = true;
      score += 25;
      explosions.push(new Explosion(m.pos.x, m.pos.y, 20));
    }
  });

  missiles = missiles.filter(m => !m.dead);
  counters = counters.filter(c => !c.done);
  explosions = explosions.filter(e => !e.isDone());

  debris.forEach(d => {
    d.pos.add(d.vel);
    d.vel.y += 0.1;
    d.life--;
  });
  debris = debris.filter(d => d.life > 0);

  lives = cities.filter(c => c.alive).length;
  if (lives === 0) {
    gameState = 'gameover';
    return;
  }

  // wave cleared: bonus for every surviving city and unused shell
  if (toSpawn === 0 && missiles.length === 0 && explosions.length === 0) {
    waveBreak++;
    if (waveBreak === 1) {
      score += lives * 100 + ammo * 5;
    }
    if (waveBreak > 60) {
      wave++;
      startWave();
    }
  }
}

function drawCity(c) {
  push();
  translate(c.x, GROUND_Y);
  noStroke();
  if (c.alive) {
    fill(c.col);
    beginShape();
    CITY_SHAPE.forEach(p => vertex(p[0], p[1]));
    endShape(CLOSE);
    // lit windows
    fill(255, 255, 180);
    rect(-7, -12, 2, 2);
    rect(4, -14, 2, 2);
    rect(10, -7, 2, 2);
  } else {
    fill('dimgray');
    beginShape();
    vertex(-14, 0);
    vertex(-10, -4);
    vertex(-4, -2);
    vertex(2, -5);
    vertex(9, -2);
    vertex(14, 0);
    endShape(CLOSE);
  }
  pop();
}

function drawScene() {
  background(10, 10, 30);
  stars.forEach(s => {
    stroke(s.b);
    strokeWeight(1.5);
    point(s.x, s.y);
  });
  // ground and launcher hill
  noStroke();
  fill('#7a5230');
  beginShape();
  vertex(0, height);
  vertex(0, GROUND_Y);
  vertex(170, GROUND_Y);
  vertex(185, GROUND_Y - 12);
  vertex(215, GROUND_Y - 12);
  vertex(230, GROUND_Y);
  vertex(width, GROUND_Y);
  vertex(width, height);
  endShape(CLOSE);
  fill('silver');
  arc(base.x, base.y + 2, 18, 14, PI, TWO_PI);
  cities.forEach(drawCity);
}

function drawCrosshair() {
  stroke('lime');
  strokeWeight(1.5);
  noFill();
  ellipse(crosshair.x, crosshair.y, 14);
  line(crosshair.x - 10, crosshair.y, crosshair.x - 4, crosshair.y);
  line(crosshair.x + 4, crosshair.y, crosshair.x + 10, crosshair.y);
  line(crosshair.x, crosshair.y - 10, crosshair.x, crosshair.y - 4);
  line(crosshair.x, crosshair.y + 4, crosshair.x, crosshair.y + 10);
}

function drawHud() {
  noStroke();
  fill(255);
  textSize(14);
  textAlign(LEFT, TOP);
  text(`SCORE ${score}`, 8, 6);
  textAlign(CENTER, TOP);
  text('WAVE ' + wave, width / 2, 6);
  textAlign(RIGHT, TOP);
  text(`AMMO ${ammo}  CITIES ${lives}`, width - 8, 6);
  textAlign(CENTER, CENTER);
  if (waveBreak > 0 && gameState === 'playing') {
    fill('yellow');
    textSize(20);
    text('WAVE ' + wave + ' CLEARED', width / 2, height / 2);
  }
  if (gameState === 'gameover') {
    fill('red');
    textSize(30);
    text('THE END', width / 2, height / 2);
  }
}

function draw() {
  if (gameState === 'playing') {
    updateGame();
  }
  drawScene();
  missiles.forEach(m => m.show());
  counters.forEach(c => c.show());
  explosions.forEach(e => e.show());
  debris.forEach(d => {
    stroke(d.col);
    strokeWeight(2);
    point(d.pos.x, d.pos.y);
  });
  drawCrosshair();
  drawHud();
}

function getGameState() {
  return { score, lives, gameState };
}
