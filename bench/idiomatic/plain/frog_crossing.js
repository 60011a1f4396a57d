// Frog Crossing: a Frogger-like. Hop the frog across the busy road, then ride
// the logs over the river to the grass on the far bank. Get home 5 times to win.
// Keys: arrow keys hop one square (up, down, left, right). SPACE does nothing.

const TILE = 40;
const HUD_H = 40;
const ROWS = 11;
const HOMES_TO_WIN = 5;
const TIME_LIMIT = 600;
const HOP_FRAMES = 10;
const DEATH_FRAMES = 50;

// row 0 is the far bank, rows 1-4 the river, row 5 the median, rows 6-9 the road,
// row 10 the starting pavement
const LANE_DEFS = [
  { row: 1, kind: 'log', speed: 1.0, length: 3, count: 3 },
  { row: 2, kind: 'log', speed: -1.6, length: 2, count: 3 },
  { row: 3, kind: 'log', speed: 0.8, length: 4, count: 2 },
  { row: 4, kind: 'log', speed: -1.2, length: 3, count: 3 },
  { row: 6, kind: 'car', speed: 1.8, length: 1, count: 3, paint: 'tomato' },
  { row: 7, kind: 'car', speed: -1.0, length: 2, count: 2, paint: 'royalblue' },
  { row: 8, kind: 'car', speed: 2.4, length: 1, count: 2, paint: 'gold' },
  { row: 9, kind: 'car', speed: -1.4, length: 1, count: 3, paint: 'violet' }
];

let frog;
let lanes = [];
let score = 0;
let lives = 3;
let gameState = 'playing';
let homes = 0;
let timeLeft = TIME_LIMIT;
let bestRow = ROWS - 1;
let deathTimer = 0;
let level = 1;
let rng;

class Mover {
  constructor(x, row, length, speed) {
    this.x = x;
    this.row = row;
    this.w = length * TILE;
    this.speed = speed;
  }

  get y() {
    return HUD_H + this.row * TILE;
  }

  update() {
    this.x += this.speed * (1 + (level - 1) * 0.15);
    if (this.speed > 0 && this.x > width) this.x = -this.w;
    if (this.speed < 0 && this.x + this.w < 0) this.x = width;
  }
}

class Car extends Mover {
  constructor(x, row, length, speed, paint) {
    super(x, row, length, speed);
    this.paint = paint;
  }

  show() {
    const body = color(this.paint);
    const shade = lerpColor(body, color(0), 0.35);
    fill(body);
    stroke(shade);
    strokeWeight(2);
    rect(this.x + 2, this.y + 6, this.w - 4, TILE - 12, 6);
    // windscreen at the front
    noStroke();
    fill(color(200, 230, 255));
    const front = this.speed > 0 ? this.x + this.w - 14 : this.x + 6;
    rect(front, this.y + 10, 8, TILE - 20, 2);
    // wheels
    fill(30);
    rect(this.x + 6, this.y + 3, 8, 4);
    rect(this.x + this.w - 14, this.y + 3, 8, 4);
    rect(this.x + 6, this.y + TILE - 7, 8, 4);
    rect(this.x + this.w - 14, this.y + TILE - 7, 8, 4);
  }
}

class Log extends Mover {
  show() {
    noStroke();
    fill(color(120, 72, 40));
    rect(this.x, this.y + 5, this.w, TILE - 10, 12);
    stroke(color(90, 52, 28));
    strokeWeight(2);
    for (let i = 1; i < this.w / TILE; i++) {
      line(this.x + i * TILE, this.y + 10, this.x + i * TILE, this.y + TILE - 10);
    }
  }
}

class Frog {
  constructor() {
    this.col = 4;
    this.row = ROWS - 1;
    this.x = this.col * TILE;
    this.hopTimer = 0; // frames left in the current hop
  }

  get y() {
    return HUD_H + this.row * TILE;
  }

  hop(dx, dy) {
    if (this.hopTimer > 0) return;
    this.x = constrain(this.x + dx * TILE, 0, width - TILE);
    this.row = constrain(this.row + dy, 0, ROWS - 1);
    this.hopTimer = HOP_FRAMES;
  }

  show() {
    const cx = this.x + TILE / 2;
    // a small jump while hopping
    const cy = this.y + TILE / 2 - sin(map(this.hopTimer, HOP_FRAMES, 0, 0, PI)) * 6;
    const s = this.hopTimer > 0 ? 1.15 : 1;
    push();
    translate(cx, cy);
    scale(s);
    translate(-cx, -cy);
    noStroke();
    fill(color(40, 160, 60));
    ellipse(cx - 12, cy + 10, 12, 10);
    ellipse(cx + 12, cy + 10, 12, 10);
    ellipse(cx - 12, cy - 10, 10, 8);
    ellipse(cx + 12, cy - 10, 10, 8);
    fill(color(80, 200, 90));
    ellipse(cx, cy, 26, 28);
    fill(255);
    circle(cx - 6, cy - 9, 8);
    circle(cx + 6, cy - 9, 8);
    fill(0);
    circle(cx - 6, cy - 10, 4);
    circle(cx + 6, cy - 10, 4);
    pop();
  }
}

function makeLane(def) {
  const spacing = width / def.count + def.length * TILE / def.count;
  const offset = random(TILE * 2);
  return {
    ...def,
    items: [...Array(def.count)].map((_, i) => {
      const x = offset + i * spacing;
      return def.kind === 'car'
        ? new Car(x, def.row, def.length, def.speed, def.paint)
        : new Log(x, def.row, def.length, def.speed);
    })
  };
}

function setup() {
  createCanvas(400, HUD_H + ROWS * TILE);
  resetGame(0);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 3;
  homes = 0;
  level = 1;
  gameState = 'playing';
  lanes = LANE_DEFS.map(def => makeLane(def));
  newFrog();
}

function newFrog() {
  frog = new Frog();
  timeLeft = TIME_LIMIT;
  bestRow = ROWS - 1;
  deathTimer = 0;
}

function keyPressed() {
  if (gameState !== 'playing' || deathTimer > 0) return;
  if (keyCode === UP_ARROW) frog.hop(0, -1);
  else if (keyCode === DOWN_ARROW) frog.hop(0, 1);
  else if (keyCode === LEFT_ARROW) frog.hop(-1, 0);
  else if (keyCode === RIGHT_ARROW) frog.hop(1, 0);

  if (frog.row < bestRow) {
    bestRow = frog.row;
    score += 10;
  }
}

function overlaps(ax, aw, bx, bw) {
  return ax < bx + bw && ax + aw > bx;
}

function loseLife() {
  lives--;
  deathTimer = DEATH_FRAMES;
  if (lives <= 0) gameState = 'gameover';
}

function update() {
  lanes.forEach(lane => lane.items.forEach(item => item.update()));

  if (deathTimer > 0) {
    deathTimer--;
    if (deathTimer === 0) newFrog();
    return;
  }

  if (frog.hopTimer > 0) frog.hopTimer--;
  timeLeft--;
  if (timeLeft <= 0) {
    loseLife();
    return;
  }

  const lane = lanes.find(l => l.row === frog.row);
  if (lane && lane.kind === 'car') {
    const hit = lane.items.some(car => overlaps(frog.x + 8, TILE - 16, car.x, car.w));
    if (hit) loseLife();
  } else if (lane && lane.kind === 'log') {
    const centre = frog.x + TILE / 2;
    const log = lane.items.find(l => centre > l.x && centre < l.x + l.w);
    if (log) {
      frog.x += log.speed * (1 + (level - 1) * 0.15);
      if (frog.x < -TILE / 2 || frog.x > width - TILE / 2) loseLife();
    } else {
      loseLife(); // splash
    }
  }

  if (deathTimer === 0 && frog.row === 0) {
    homes++;
    score += 100 + floor(timeLeft / 10);
    if (homes >= HOMES_TO_WIN) {
      gameState = 'won';
    } else {
      level++;
      newFrog();
    }
  }
}

function drawBackground() {
  noStroke();
  for (let r = 0; r < ROWS; r++) {
    const y = HUD_H + r * TILE;
    let c;
    if (r === 0) c = color(60, 140, 60);
    else if (r <= 4) c = color(30, 80 + r * 8, 170 + 10 * sin(frameCount * 0.05 + r));
    else if (r === 5 || r === ROWS - 1) c = color(150, 130, 170);
    else c = color(50, 50, 55);
    fill(c);
    rect(0, y, width, TILE);
  }
  // lane markings on the road
  stroke(230, 230, 200);
  strokeWeight(2);
  for (let r = 7; r <= 9; r++) {
    const y = HUD_H + r * TILE;
    for (let x = 10; x < width; x += 40) {
      line(x, y, x + 20, y);
    }
  }
  // lily pads on the far bank
  noStroke();
  fill('darkgreen');
  for (let i = 0; i < 5; i++) {
    ellipse(40 + i * 80, HUD_H + TILE / 2, 30, 22);
  }
}

function drawHud() {
  noStroke();
  fill(20);
  rect(0, 0, width, HUD_H);
  fill(255);
  textSize(15);
  textAlign(LEFT, TOP);
  text(`Score: ${score}`, 8, 4);
  text(`Lives: ${lives}   Home: ${homes}/${HOMES_TO_WIN}`, 8, 21);
  textAlign(RIGHT, TOP);
  text(`Level ${level}`, width - 8, 4);

  // the timer bar goes from green to red as time runs out
  const frac = timeLeft / TIME_LIMIT;
  const barColor = lerpColor(color('red'), color('lime'), frac);
  fill(60);
  rect(width - 158, 24, 150, 10);
  fill(barColor);
  rect(width - 158, 24, 150 * frac, 10);
}

function draw() {
  if (gameState === 'playing') update();

  background(0);
  drawBackground();
  lanes.forEach(lane => {
    if (lane.kind === 'log') lane.items.forEach(item => item.show());
  });
  if (deathTimer > 0) {
    // a little splat where the frog was
    noStroke();
    fill(color(255, 80, 80, map(deathTimer, 0, DEATH_FRAMES, 0, 255)));
    circle(frog.x + TILE / 2, frog.y + TILE / 2, 30 + (DEATH_FRAMES - deathTimer));
  } else if (gameState === 'playing') {
    frog.show();
  }
  lanes.forEach(lane => {
    if (lane.kind === 'car') lane.items.forEach(item => item.show());
  });
  drawHud();

  if (gameState !== 'playing') {
    noStroke();
    fill(0, 180);
    rect(0, height / 2 - 40, width, 80);
    textAlign(CENTER, CENTER);
    textSize(34);
    fill(gameState === 'won' ? 'lime' : 'orangered');
    text(gameState === 'won' ? 'ALL HOME!' : 'GAME OVER', width / 2, height / 2 - 8);
    textSize(15);
    fill(255);
    text(`Final score: ${score}`, width / 2, height / 2 + 22);
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
