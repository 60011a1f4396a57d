// Lunar Lander: guide the lander down onto one of the flat landing pads, slowly
// and upright. Each landing scores points and a new stretch of moon appears.
// Keys: LEFT/RIGHT rotate, UP fires the main engine (uses fuel). 5 landings win.

const GRAVITY = 0.015;
const THRUST = 0.09;
const MAX_FUEL = 100;
const SAFE_SPEED = 1.8;
const SAFE_ANGLE = 0.5;
const LANDINGS_TO_WIN = 5;

let lander;
let terrain = [];
let pads = [];
let particles = [];
let stars = [];
let score = 0;
let lives = 3;
let landings = 0;
let gameState = 'playing';
let fuel = MAX_FUEL;
let pauseTimer = 0;
let message = '';
let rng;

class Particle {
  constructor(x, y, vel, hue, life) {
    this.pos = createVector(x, y);
    this.vel = vel;
    this.hue = hue;
    this.life = life;
    this.maxLife = life;
  }

  update() {
    this.pos.add(this.vel);
    this.vel.mult(0.96);
    this.vel.y += 0.01;
    this.life--;
  }

  show() {
    const alpha = map(this.life, 0, this.maxLife, 0, 1);
    const size = map(this.life, 0, this.maxLife, 1, 5);
    fill(this.hue, 90, 100, alpha);
    ellipse(this.pos.x, this.pos.y, size);
  }

  isDead() {
    return this.life <= 0;
  }
}

function makeLander() {
  return {
    pos: createVector(random(60, width - 60), 40),
    vel: createVector(random(-1, 1), 0),
    angle: random(-0.3, 0.3),
    thrusting: false,
    crashed: false
  };
}

function makeTerrain() {
  terrain = [];
  pads = [];
  const offset = random(1000);
  for (let x = 0; x <= width; x += 10) {
    terrain.push({ x, y: map(noise(offset + x * 0.012), 0, 1, 230, 390) });
  }
  // flatten a few segments into landing pads, narrower pads pay more
  const padCount = 3;
  const widths = shuffle([5, 7, 9]);
  for (let i = 0; i < padCount; i++) {
    const w = widths[i];
    const zoneStart = floor((i * terrain.length) / padCount) + 1;
    const zoneEnd = floor(((i + 1) * terrain.length) / padCount) - w - 1;
    const start = floor(random(zoneStart, max(zoneStart + 1, zoneEnd)));
    const end = min(start + w, terrain.length - 1);
    const padY = terrain[start].y;
    for (let j = start; j <= end; j++) terrain[j].y = padY;
    pads.push({ x1: terrain[start].x, x2: terrain[end].x, y: padY, bonus: 10 - w });
  }
}

function groundAt(x) {
  const i = constrain(floor(x / 10), 0, terrain.length - 2);
  const a = terrain[i];
  const b = terrain[i + 1];
  return lerp(a.y, b.y, constrain((x - a.x) / 10, 0, 1));
}

function setup() {
  createCanvas(400, 400);
  resetGame(0);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 3;
  landings = 0;
  fuel = MAX_FUEL;
  gameState = 'playing';
  pauseTimer = 0;
  message = '';
  particles = [];
  stars = [];
  for (let i = 0; i < 50; i++) {
    stars.push(createVector(rng() * 400, rng() * 230));
  }
  makeTerrain();
  lander = makeLander();
}

function touchdown() {
  const l = lander;
  const pad = pads.find(p => l.pos.x - 6 >= p.x1 && l.pos.x + 6 <= p.x2);
  const speed = l.vel.mag();
  if (pad && speed < SAFE_SPEED && abs(l.angle) < SAFE_ANGLE) {
    const points = 50 * pad.bonus + floor(fuel / 4);
    score += points;
    landings++;
    fuel = min(MAX_FUEL, fuel + 35);
    message = `Landed! +${points}`;
    l.pos.y = pad.y - 10;
    l.vel.set(0, 0);
    if (landings >= LANDINGS_TO_WIN) gameState = 'won';
  } else {
    lives--;
    l.crashed = true;
    message = pad ? 'Too fast!' : 'Crashed!';
    for (let i = 0; i < 40; i++) {
      const v = p5.Vector.random2D().mult(random(0.5, 3));
      v.y -= 1;
      particles.push(new Particle(l.pos.x, l.pos.y, v, random(0, 50), floor(random(30, 60))));
    }
    if (lives <= 0) gameState = 'gameover';
  }
  pauseTimer = 60;
}

function update() {
  particles.forEach(p => p.update());
  particles = particles.filter(p => !p.isDead());

  if (pauseTimer > 0) {
    pauseTimer--;
    if (pauseTimer === 0) {
      makeTerrain();
      lander = makeLander();
      if (fuel < 30) fuel = 30;
      message = '';
    }
    return;
  }

  const l = lander;
  if (keyIsDown(LEFT_ARROW)) l.angle -= 0.05;
  if (keyIsDown(RIGHT_ARROW)) l.angle += 0.05;
  l.angle = constrain(l.angle, -HALF_PI, HALF_PI);

  l.thrusting = keyIsDown(UP_ARROW) && fuel > 0;
  const gravity = createVector(0, GRAVITY);
  l.vel.add(gravity);
  if (l.thrusting) {
    const force = p5.Vector.fromAngle(l.angle - HALF_PI).mult(THRUST);
    l.vel.add(force);
    fuel = max(0, fuel - 0.4);
    // exhaust comes out of the bottom of the lander
    const nozzle = p5.Vector.fromAngle(l.angle + HALF_PI).mult(10).add(l.pos);
    for (let i = 0; i < 2; i++) {
      const v = p5.Vector.fromAngle(l.angle + HALF_PI + random(-0.4, 0.4)).mult(random(1, 2.5));
      v.add(l.vel);
      particles.push(new Particle(nozzle.x, nozzle.y, v, random(20, 60), floor(random(15, 30))));
    }
  }
  l.vel.limit(6);
  l.pos.add(l.vel);

  if (l.pos.x < 8 || l.pos.x > width - 8) {
    l.pos.x = constrain(l.pos.x, 8, width - 8);
    l.vel.x *= -0.5;
  }
  if (l.pos.y < 10) {
    l.pos.y = 10;
    l.vel.y = max(0, l.vel.y);
  }

  if (l.pos.y + 10 >= groundAt(l.pos.x)) touchdown();
}

function drawSky() {
  colorMode(HSB, 360, 100, 100, 1);
  noStroke();
  for (let y = 0; y < height; y += 10) {
    const h = map(y, 0, height, 240, 280);
    const b = map(y, 0, height, 8, 30);
    fill(h, 70, b);
    rect(0, y, width, 10);
  }
  fill(0, 0, 100);
  for (const s of stars) {
    circle(s.x, s.y, 1.5);
  }
  colorMode(RGB, 255);
}

function drawTerrain() {
  fill('rgb(95, 95, 105)');
  stroke('rgb(200, 200, 210)');
  strokeWeight(1.5);
  beginShape();
  vertex(0, height);
  terrain.forEach(p => vertex(p.x, p.y));
  vertex(width, height);
  endShape(CLOSE);

  for (const p of pads) {
    stroke(lerpColor(color('yellow'), color('red'), (p.bonus - 1) / 4));
    strokeWeight(4);
    line(p.x1, p.y, p.x2, p.y);
    noStroke();
    fill(255);
    textSize(11);
    textAlign(CENTER, TOP);
    text('x' + p.bonus, (p.x1 + p.x2) / 2, p.y + 4);
  }
}

function drawLander() {
  const l = lander;
  if (l.crashed) return;
  push();
  translate(l.pos.x, l.pos.y);
  rotate(l.angle);
  stroke(230);
  strokeWeight(1.5);
  line(-6, 4, -10, 10);
  line(6, 4, 10, 10);
  fill(180, 180, 200);
  rect(-7, -4, 14, 9, 2);
  fill('steelblue');
  arc(0, -4, 12, 12, PI, TWO_PI, CHORD);
  pop();
}

function drawHud() {
  noStroke();
  fill(255);
  textSize(14);
  textAlign(LEFT, TOP);
  text('Score: ' + score, 10, 10);
  text('Lives: ' + lives, 10, 28);
  text('Landed: ' + landings + '/' + LANDINGS_TO_WIN, 10, 46);

  // fuel gauge
  const gaugeW = 120;
  textAlign(RIGHT, TOP);
  text('FUEL', width - gaugeW - 16, 10);
  noFill();
  stroke(255);
  strokeWeight(1);
  rect(width - gaugeW - 10, 10, gaugeW, 12);
  noStroke();
  fill(fuel > 25 ? 'limegreen' : 'orangered');
  rect(width - gaugeW - 10, 10, map(fuel, 0, MAX_FUEL, 0, gaugeW), 12);

  // speed readout, red when it is too fast to land
  const speed = lander.vel.mag();
  fill(speed < SAFE_SPEED ? 'white' : 'tomato');
  text('Speed ' + nf(speed, 1, 2), width - 10, 28);

  if (message !== '') {
    textAlign(CENTER, CENTER);
    textSize(24);
    fill(255);
    text(message, width / 2, 140);
  }
  if (gameState !== 'playing') {
    textAlign(CENTER, CENTER);
    textSize(36);
    fill(gameState === 'won' ? 'gold' : 'red');
    text(gameState === 'won' ? 'MISSION COMPLETE' : 'GAME OVER', width / 2, height / 2 - 20);
  }
}

function draw() {
  if (gameState === 'playing') update();

  background(0);
  drawSky();
  drawTerrain();
  colorMode(HSB, 360, 100, 100, 1);
  noStroke();
  particles.forEach(p => p.show());
  colorMode(RGB, 255);
  drawLander();
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
