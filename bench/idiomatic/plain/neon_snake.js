// Neon Snake - a glowing snake on a dark grid.
// Arrows steer, hold SPACE to boost (double speed, double points).

const W = 480;
const H = 480;
const CELL = 20;
const COLS = W / CELL;
const ROWS = H / CELL;
const MAX_FRAMES = 3600; // one minute at 60 fps, then the round ends

let snake;
let dir;
let nextDir;
let food;
let particles;
let score;
let lives;
let state;
let moveTimer;
let frameCounter;
let flash;
let headColor, tailColor, foodColor;

function setup() {
  createCanvas(W, H);
  headColor = color(0, 255, 220);
  tailColor = color(255, 0, 200);
  foodColor = color(255, 230, 60);
  resetGame(0);
}

function resetGame(seed) {
  score = 0;
  lives = 3;
  state = 'playing';
  frameCounter = 0;
  particles = [];
  flash = 0;
  background(10, 10, 30);
  spawnSnake();
  placeFood();
}

function getGameState() {
  return { score: score, lives: lives, gameState: state };
}

function spawnSnake() {
  const cx = floor(COLS / 2);
  const cy = floor(ROWS / 2);
  snake = [];
  for (let i = 0; i < 4; i++) {
    snake.push(createVector(cx - i, cy));
  }
  dir = createVector(1, 0);
  nextDir = createVector(1, 0);
  moveTimer = 0;
}

function placeFood() {
  let tries = 0;
  while (true) {
    const fx = floor(random(1, COLS - 1));
    const fy = floor(random(1, ROWS - 1));
    let onSnake = false;
    for (const s of snake) {
      if (s.x === fx && s.y === fy) {
        onSnake = true;
        break;
      }
    }
    tries++;
    if (!onSnake || tries > 100) {
      food = { x: fx, y: fy, angle: random(TWO_PI) };
      return;
    }
  }
}

function readInput() {
  if (keyIsDown(LEFT_ARROW) && dir.x !== 1) nextDir.set(-1, 0);
  else if (keyIsDown(RIGHT_ARROW) && dir.x !== -1) nextDir.set(1, 0);
  else if (keyIsDown(UP_ARROW) && dir.y !== 1) nextDir.set(0, -1);
  else if (keyIsDown(DOWN_ARROW) && dir.y !== -1) nextDir.set(0, 1);
}

function burst(x, y, c, n) {
  for (let i = 0; i < n; i++) {
    const a = random(TWO_PI);
    const sp = random(1, 4);
    particles.push({
      x: x,
      y: y,
      vx: cos(a) * sp,
      vy: sin(a) * sp,
      life: 255,
      c: c,
      size: random(3, 7)
    });
  }
}

function stepSnake() {
  dir.set(nextDir.x, nextDir.y);
  const head = snake[0];
  const nx = head.x + dir.x;
  const ny = head.y + dir.y;

  let hit = nx < 0 || ny < 0 || nx >= COLS || ny >= ROWS;
  for (let i = 0; i < snake.length - 1 && !hit; i++) {
    if (snake[i].x === nx && snake[i].y === ny) hit = true;
  }

  if (hit) {
    burst(head.x * CELL + CELL / 2, head.y * CELL + CELL / 2, color(255, 60, 90), 40);
    lives--;
    flash = 20;
    if (lives <= 0) {
      state = 'gameover';
    } else {
      spawnSnake();
    }
    return;
  }

  snake.unshift(createVector(nx, ny));
  if (nx === food.x && ny === food.y) {
    const boosting = keyIsDown(32);
    score += boosting ? 20 : 10;
    burst(food.x * CELL + CELL / 2, food.y * CELL + CELL / 2, foodColor, 25);
    placeFood();
  } else {
    snake.pop();
  }
}

function draw() {
  // translucent background -> motion-blur glow trails
  background(10, 10, 30, 60);
  drawGrid();

  if (state === 'playing') {
    readInput();
    frameCounter++;
    const interval = keyIsDown(32) ? 3 : 6;
    moveTimer++;
    if (moveTimer >= interval) {
      moveTimer = 0;
      stepSnake();
    }
    if (frameCounter >= MAX_FRAMES && state === 'playing') {
      state = score >= 100 ? 'won' : 'gameover';
    }
  }

  drawFood();
  drawSnake();
  updateParticles();
  drawHUD();

  if (flash > 0) {
    noStroke();
    fill(255, 40, 80, flash * 4);
    rect(0, 0, W, H);
    flash--;
  }

  if (state !== 'playing') {
    drawEndScreen();
  }
}

function drawGrid() {
  stroke(40, 40, 90, 60);
  strokeWeight(1);
  for (let x = 0; x <= W; x += CELL * 2) line(x, 0, x, H);
  for (let y = 0; y <= H; y += CELL * 2) line(0, y, W, y);
}

function drawSnake() {
  const n = snake.length;
  for (let i = n - 1; i >= 0; i--) {
    const s = snake[i];
    const t = n > 1 ? i / (n - 1) : 0;
    const c = lerpColor(headColor, tailColor, t);
    const px = s.x * CELL + CELL / 2;
    const py = s.y * CELL + CELL / 2;
    // outer glow
    noStroke();
    fill(red(c), green(c), blue(c), 50);
    ellipse(px, py, CELL * 1.6, CELL * 1.6);
    // body
    fill(c);
    stroke(255, 255, 255, 120);
    strokeWeight(1);
    rect(px - CELL / 2 + 2, py - CELL / 2 + 2, CELL - 4, CELL - 4, 5);
  }
  // eyes on the head
  const h = snake[0];
  const hx = h.x * CELL + CELL / 2;
  const hy = h.y * CELL + CELL / 2;
  push();
  translate(hx, hy);
  rotate(atan2(dir.y, dir.x));
  noStroke();
  fill(10, 10, 30);
  ellipse(4, -4, 4, 4);
  ellipse(4, 4, 4, 4);
  pop();
}

function drawFood() {
  food.angle += 0.05;
  const px = food.x * CELL + CELL / 2;
  const py = food.y * CELL + CELL / 2;
  const pulse = 1 + 0.2 * sin(frameCount * 0.15);
  push();
  translate(px, py);
  rotate(food.angle);
  noStroke();
  fill(255, 230, 60, 60);
  ellipse(0, 0, CELL * 1.8 * pulse, CELL * 1.8 * pulse);
  fill(foodColor);
  stroke(255);
  strokeWeight(1.5);
  rectMode(CENTER);
  rect(0, 0, CELL * 0.6 * pulse, CELL * 0.6 * pulse);
  rectMode(CORNER);
  pop();
}

function updateParticles() {
  noStroke();
  for (let i = particles.length - 1; i >= 0; i--) {
    const p = particles[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vx *= 0.95;
    p.vy *= 0.95;
    p.life -= 6;
    fill(red(p.c), green(p.c), blue(p.c), p.life);
    ellipse(p.x, p.y, p.size, p.size);
    if (p.life <= 0) particles.splice(i, 1);
  }
}

function drawHUD() {
  noStroke();
  fill(0, 0, 0, 120);
  rect(0, 0, W, 28);
  textSize(16);
  textAlign(LEFT, CENTER);
  fill(headColor);
  text('SCORE ' + score, 10, 14);
  textAlign(CENTER, CENTER);
  fill(200, 200, 255);
  const secs = max(0, ceil((MAX_FRAMES - frameCounter) / 60));
  text('TIME ' + secs, W / 2, 14);
  textAlign(RIGHT, CENTER);
  fill(tailColor);
  text('LIVES ' + lives, W - 10, 14);
  // little hearts for lives
  for (let i = 0; i < lives; i++) {
    fill(255, 0, 200);
    ellipse(W - 110 - i * 14, 14, 8, 8);
  }
}

function drawEndScreen() {
  noStroke();
  fill(0, 0, 0, 150);
  rect(0, H / 2 - 50, W, 100);
  textAlign(CENTER, CENTER);
  textSize(36);
  if (state === 'won') {
    fill(0, 255, 160);
    text('YOU WIN!', W / 2, H / 2 - 12);
  } else {
    fill(255, 60, 120);
    text('GAME OVER', W / 2, H / 2 - 12);
  }
  textSize(16);
  fill(255);
  text('Final score: ' + score, W / 2, H / 2 + 24);
}
