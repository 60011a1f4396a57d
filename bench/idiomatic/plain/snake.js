// Snake: steer a growing snake around a walled grid and eat the apples.
// Hitting a wall or your own tail costs a life; reach length 25 to win.
// Keys: arrow keys turn the snake, SPACE gives a short speed boost.

const CELL = 20;
const COLS = 20;
const ROWS = 19; // the top row of the canvas is the HUD bar
const HUD_H = 20;
const WIN_LENGTH = 25;

let snake = [];
let dir = { x: 1, y: 0 };
let nextDir = { x: 1, y: 0 };
let apples = [];
let score = 0;
let lives = 3;
let gameState = 'playing';
let moveEvery = 7;
let moveTimer = 0;
let boost = 0;
let deadTimer = 0;
let rng;

const palette = {
  bg: '#1b2430',
  grid: '#222d3b',
  head: '#f4d35e',
  tail: '#0d7c66',
  apple: 'crimson',
  gold: 'gold',
  wall: '#5c677d'
};

function setup() {
  createCanvas(400, 400);
  resetGame(0);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 3;
  gameState = 'playing';
  moveEvery = 7;
  apples = [];
  newSnake();
  for (let i = 0; i < 3; i++) {
    placeApple();
  }
}

function newSnake() {
  const startX = floor(COLS / 2);
  const startY = floor(ROWS / 2);
  snake = [
    { x: startX, y: startY },
    { x: startX - 1, y: startY },
    { x: startX - 2, y: startY }
  ];
  dir = { x: 1, y: 0 };
  nextDir = { x: 1, y: 0 };
  moveTimer = 0;
  boost = 0;
}

function isOnSnake(x, y) {
  return snake.some(part => part.x === x && part.y === y);
}

function placeApple() {
  let x, y;
  do {
    x = floor(random(COLS));
    y = floor(random(ROWS));
  } while (isOnSnake(x, y) || apples.some(a => a.x === x && a.y === y));
  const golden = random() < 0.15;
  apples.push({ x, y, golden, age: 0 });
}

function keyPressed() {
  if (keyCode === LEFT_ARROW && dir.x !== 1) nextDir = { x: -1, y: 0 };
  else if (keyCode === RIGHT_ARROW && dir.x !== -1) nextDir = { x: 1, y: 0 };
  else if (keyCode === UP_ARROW && dir.y !== 1) nextDir = { x: 0, y: -1 };
  else if (keyCode === DOWN_ARROW && dir.y !== -1) nextDir = { x: 0, y: 1 };
  else if (key === ' ' && boost === 0) boost = 30;
}

function step() {
  dir = nextDir;
  const head = snake[0];
  const newHead = { x: head.x + dir.x, y: head.y + dir.y };

  const hitWall = newHead.x < 0 || newHead.x >= COLS || newHead.y < 0 || newHead.y >= ROWS;
  // the last segment moves out of the way, so it does not count
  const hitSelf = snake.slice(0, -1).some(p => p.x === newHead.x && p.y === newHead.y);
  if (hitWall || hitSelf) {
    lives--;
    deadTimer = 40;
    if (lives <= 0) gameState = 'gameover';
    return;
  }

  snake.unshift(newHead);
  const eaten = apples.findIndex(a => a.x === newHead.x && a.y === newHead.y);
  if (eaten >= 0) {
    const apple = apples[eaten];
    score += apple.golden ? 50 : 10;
    apples.splice(eaten, 1);
    placeApple();
    moveEvery = max(3, 7 - floor(snake.length / 6));
    if (snake.length >= WIN_LENGTH) gameState = 'won';
  } else {
    snake.pop();
  }
}

function update() {
  if (deadTimer > 0) {
    deadTimer--;
    if (deadTimer === 0) newSnake();
    return;
  }
  apples.forEach(a => a.age++);
  // golden apples rot after a while and turn into normal ones
  apples.forEach(a => {
    if (a.golden && a.age > 300) a.golden = false;
  });

  if (boost > 0) boost--;
  moveTimer++;
  const interval = boost > 0 ? max(2, floor(moveEvery / 2)) : moveEvery;
  if (moveTimer >= interval) {
    moveTimer = 0;
    step();
  }
}

function drawGrid() {
  stroke(palette.grid);
  strokeWeight(1);
  for (let x = 0; x <= COLS; x++) {
    line(x * CELL, HUD_H, x * CELL, HUD_H + ROWS * CELL);
  }
  for (let y = 0; y <= ROWS; y++) {
    line(0, HUD_H + y * CELL, COLS * CELL, HUD_H + y * CELL);
  }
}

function drawApples() {
  noStroke();
  for (const a of apples) {
    const cx = a.x * CELL + CELL / 2;
    const cy = HUD_H + a.y * CELL + CELL / 2;
    const pulse = sin(frameCount * 0.15 + a.x) * 2;
    fill(a.golden ? palette.gold : palette.apple);
    ellipse(cx, cy, CELL - 4 + pulse, CELL - 4 + pulse);
    fill('forestgreen');
    ellipse(cx + 3, cy - CELL / 2 + 3, 6, 4);
  }
}

function drawSnake() {
  const headColor = color(palette.head);
  const tailColor = color(palette.tail);
  const dying = deadTimer > 0;
  noStroke();
  for (let i = snake.length - 1; i >= 0; i--) {
    const part = snake[i];
    const t = snake.length > 1 ? i / (snake.length - 1) : 0;
    let c = lerpColor(headColor, tailColor, t);
    if (dying && frameCount % 8 < 4) c = color('white');
    fill(c);
    rect(part.x * CELL + 1, HUD_H + part.y * CELL + 1, CELL - 2, CELL - 2, 5);
  }
  // eyes on the head
  const head = snake[0];
  const hx = head.x * CELL + CELL / 2;
  const hy = HUD_H + head.y * CELL + CELL / 2;
  fill('black');
  const ex = dir.y !== 0 ? 4 : 0;
  const ey = dir.x !== 0 ? 4 : 0;
  circle(hx + dir.x * 4 + ex, hy + dir.y * 4 + ey, 4);
  circle(hx + dir.x * 4 - ex, hy + dir.y * 4 - ey, 4);
}

function drawHud() {
  noStroke();
  fill(palette.wall);
  rect(0, 0, width, HUD_H);
  fill('white');
  textSize(14);
  textAlign(LEFT, TOP);
  text('Score: ' + score, 6, 3);
  textAlign(CENTER, TOP);
  text('Length ' + snake.length + ' / ' + WIN_LENGTH, width / 2, 3);
  textAlign(RIGHT, TOP);
  fill(lives > 1 ? 'white' : 'salmon');
  text('Lives: ' + lives, width - 6, 3);
  if (boost > 0) {
    fill('orange');
    rect(0, HUD_H - 3, map(boost, 0, 30, 0, width), 3);
  }
}

function drawBanner() {
  fill(0, 0, 0, 170);
  rect(0, height / 2 - 50, width, 100);
  textAlign(CENTER, CENTER);
  textSize(40);
  fill(gameState === 'won' ? '#7cfc00' : '#ff5a5f');
  text(gameState === 'won' ? 'YOU WIN' : 'GAME OVER', width / 2, height / 2 - 10);
  textSize(16);
  fill('white');
  text('Score ' + score, width / 2, height / 2 + 28);
}

function draw() {
  if (gameState === 'playing') update();

  background(palette.bg);
  drawGrid();
  drawApples();
  drawSnake();
  drawHud();
  if (gameState !== 'playing') drawBanner();
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
