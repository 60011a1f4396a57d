// Stack Fall - a small Tetris-like falling blocks game in p5.js (global mode)

const W = 480;
const H = 450;
const COLS = 10;
const ROWS = 20;
const CELL = 20;
const BOARD_X = 24;
const BOARD_Y = 25;
const PANEL_X = BOARD_X + COLS * CELL + 24;

const SHAPES = {
  I: [[0, 1], [1, 1], [2, 1], [3, 1]],
  O: [[1, 0], [2, 0], [1, 1], [2, 1]],
  T: [[1, 0], [0, 1], [1, 1], [2, 1]],
  S: [[1, 0], [2, 0], [0, 1], [1, 1]],
  Z: [[0, 0], [1, 0], [1, 1], [2, 1]],
  J: [[0, 0], [0, 1], [1, 1], [2, 1]],
  L: [[2, 0], [0, 1], [1, 1], [2, 1]]
};

const PIECE_COLORS = {
  I: '#35d0e8',
  O: '#f2d23c',
  T: '#a45ee5',
  S: '#4cd964',
  Z: '#ef4b4b',
  J: '#3a6fe8',
  L: '#f39a2b'
};

let grid;
let current;
let nextType;
let score;
let level;
let lines;
let gameState;
let dropTimer;
let moveTimer;
let prevUp;
let prevSpace;
let particles;
let flashRows;
let flashTimer;
let bgTop, bgBottom;

function setup() {
  createCanvas(W, H);
  bgTop = color(20, 24, 48);
  bgBottom = color(60, 20, 70);
  resetGame(0);
}

function resetGame(seed) {
  grid = [];
  for (let r = 0; r < ROWS; r++) {
    grid.push(new Array(COLS).fill(null));
  }
  score = 0;
  level = 1;
  lines = 0;
  gameState = 'playing';
  dropTimer = 0;
  moveTimer = 0;
  prevUp = false;
  prevSpace = false;
  particles = [];
  flashRows = [];
  flashTimer = 0;
  nextType = randomType();
  spawnPiece();
}

function getGameState() {
  return {
    score: score,
    lives: gameState === 'playing' ? 1 : 0,
    gameState: gameState
  };
}

function randomType() {
  const types = Object.keys(SHAPES);
  return types[floor(random(types.length))];
}

function spawnPiece() {
  const type = nextType;
  nextType = randomType();
  current = {
    type: type,
    cells: SHAPES[type].map(c => [c[0], c[1]]),
    x: 3,
    y: 0
  };
  if (!fits(current.cells, current.x, current.y)) {
    gameState = 'gameover';
  }
}

function fits(cells, px, py) {
  for (const c of cells) {
    const gx = px + c[0];
    const gy = py + c[1];
    if (gx < 0 || gx >= COLS || gy >= ROWS) return false;
    if (gy >= 0 && grid[gy][gx] !== null) return false;
  }
  return true;
}

function rotateCells(cells, type) {
  if (type === 'O') return cells.map(c => [c[0], c[1]]);
  const size = type === 'I' ? 4 : 3;
  return cells.map(c => [size - 1 - c[1], c[0]]);
}

function tryRotate() {
  const rotated = rotateCells(current.cells, current.type);
  const kicks = [0, -1, 1, -2, 2];
  for (const k of kicks) {
    if (fits(rotated, current.x + k, current.y)) {
      current.cells = rotated;
      current.x += k;
      return;
    }
  }
}

function lockPiece() {
  for (const c of current.cells) {
    const gx = current.x + c[0];
    const gy = current.y + c[1];
    if (gy >= 0) grid[gy][gx] = current.type;
  }
  clearLines();
  spawnPiece();
}

function clearLines() {
  let cleared = 0;
  for (let r = ROWS - 1; r >= 0; r--) {
    if (grid[r].every(v => v !== null)) {
      for (let c = 0; c < COLS; c++) {
        spawnParticles(BOARD_X + c * CELL + CELL / 2, BOARD_Y + r * CELL + CELL / 2, PIECE_COLORS[grid[r][c]]);
      }
      flashRows.push(r);
      grid.splice(r, 1);
      grid.unshift(new Array(COLS).fill(null));
      cleared++;
      r++;
    }
  }
  if (cleared > 0) {
    const points = [0, 100, 300, 500, 800];
    score += points[cleared] * level;
    lines += cleared;
    level = 1 + floor(lines / 10);
    flashTimer = 12;
  }
}

function spawnParticles(x, y, col) {
  for (let i = 0; i < 4; i++) {
    particles.push({
      x: x,
      y: y,
      vx: random(-2, 2),
      vy: random(-3, 0.5),
      life: 40,
      col: color(col)
    });
  }
}

function hardDrop() {
  let dist = 0;
  while (fits(current.cells, current.x, current.y + 1)) {
    current.y++;
    dist++;
  }
  score += dist * 2;
  lockPiece();
}

function ghostY() {
  let gy = current.y;
  while (fits(current.cells, current.x, gy + 1)) gy++;
  return gy;
}

function updateGame() {
  // horizontal movement with a small repeat delay
  if (moveTimer > 0) moveTimer--;
  if (moveTimer === 0) {
    if (keyIsDown(LEFT_ARROW) && fits(current.cells, current.x - 1, current.y)) {
      current.x--;
      moveTimer = 6;
    } else if (keyIsDown(RIGHT_ARROW) && fits(current.cells, current.x + 1, current.y)) {
      current.x++;
      moveTimer = 6;
    }
  }

  const upNow = keyIsDown(UP_ARROW);
  if (upNow && !prevUp) tryRotate();
  prevUp = upNow;

  const spaceNow = keyIsDown(32);
  if (spaceNow && !prevSpace) {
    prevSpace = spaceNow;
    hardDrop();
    return;
  }
  prevSpace = spaceNow;

  const interval = max(4, 32 - (level - 1) * 3);
  dropTimer++;
  if (keyIsDown(DOWN_ARROW)) dropTimer += 6;
  if (dropTimer >= interval) {
    dropTimer = 0;
    if (fits(current.cells, current.x, current.y + 1)) {
      current.y++;
      if (keyIsDown(DOWN_ARROW)) score += 1;
    } else {
      lockPiece();
    }
  }
}

function updateParticles() {
  for (let i = particles.length - 1; i >= 0; i--) {
    const p = particles[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vy += 0.15;
    p.life--;
    if (p.life <= 0) particles.splice(i, 1);
  }
}

function draw() {
  if (gameState === 'playing') updateGame();
  updateParticles();
  if (flashTimer > 0) flashTimer--;

  drawBackground();
  drawBoard();
  drawPanel();
  drawParticles();
  if (gameState === 'gameover') drawGameOver();
}

function drawBackground() {
  noStroke();
  for (let y = 0; y < H; y += 6) {
    fill(lerpColor(bgTop, bgBottom, y / H));
    rect(0, y, W, 6);
  }
}

function drawBlock(x, y, hex, alpha) {
  const base = color(hex);
  const light = lerpColor(base, color(255), 0.45);
  const dark = lerpColor(base, color(0), 0.45);
  base.setAlpha(alpha);
  light.setAlpha(alpha);
  dark.setAlpha(alpha);
  noStroke();
  // bevel: light top-left, dark bottom-right
  fill(light);
  rect(x, y, CELL, CELL);
  fill(dark);
  triangle(x + CELL, y, x + CELL, y + CELL, x, y + CELL);
  fill(base);
  rect(x + 3, y + 3, CELL - 6, CELL - 6);
  stroke(0, 0, 0, alpha * 0.6);
  strokeWeight(1);
  noFill();
  rect(x, y, CELL, CELL);
}

function drawBoard() {
  // board frame
  stroke('#c9c4ff');
  strokeWeight(3);
  fill(10, 12, 26, 220);
  rect(BOARD_X - 4, BOARD_Y - 4, COLS * CELL + 8, ROWS * CELL + 8, 6);

  // grid lines
  stroke(255, 255, 255, 18);
  strokeWeight(1);
  for (let c = 1; c < COLS; c++) {
    line(BOARD_X + c * CELL, BOARD_Y, BOARD_X + c * CELL, BOARD_Y + ROWS * CELL);
  }
  for (let r = 1; r < ROWS; r++) {
    line(BOARD_X, BOARD_Y + r * CELL, BOARD_X + COLS * CELL, BOARD_Y + r * CELL);
  }

  // locked cells
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      if (grid[r][c] !== null) {
        drawBlock(BOARD_X + c * CELL, BOARD_Y + r * CELL, PIECE_COLORS[grid[r][c]], 255);
      }
    }
  }

  if (gameState === 'playing') {
    // ghost piece
    const gy = ghostY();
    stroke(PIECE_COLORS[current.type]);
    strokeWeight(2);
    noFill();
    for (const c of current.cells) {
      const y = gy + c[1];
      if (y >= 0) {
        rect(BOARD_X + (current.x + c[0]) * CELL + 2, BOARD_Y + y * CELL + 2, CELL - 4, CELL - 4, 3);
      }
    }
    // active piece
    for (const c of current.cells) {
      const y = current.y + c[1];
      if (y >= 0) {
        drawBlock(BOARD_X + (current.x + c[0]) * CELL, BOARD_Y + y * CELL, PIECE_COLORS[current.type], 255);
      }
    }
  }

  // line clear flash
  if (flashTimer > 0) {
    noStroke();
    fill(255, 255, 255, flashTimer * 12);
    rect(BOARD_X, BOARD_Y, COLS * CELL, ROWS * CELL);
  }
}

function drawPanel() {
  const px = PANEL_X;
  const pw = W - px - 20;

  // title
  noStroke();
  fill('#ffe66d');
  textAlign(LEFT, TOP);
  textStyle(BOLD);
  textSize(26);
  text('STACK', px, 24);
  fill('#ff6b9a');
  text('FALL', px + 92, 24);

  // stats boxes
  const stats = [
    ['SCORE', score],
    ['LEVEL', level],
    ['LINES', lines]
  ];
  for (let i = 0; i < stats.length; i++) {
    const y = 66 + i * 62;
    stroke(255, 255, 255, 90);
    strokeWeight(2);
    fill(0, 0, 0, 110);
    rect(px, y, pw, 52, 8);
    noStroke();
    fill(170, 180, 230);
    textStyle(NORMAL);
    textSize(12);
    textAlign(LEFT, TOP);
    text(stats[i][0], px + 10, y + 7);
    fill(255);
    textStyle(BOLD);
    textSize(22);
    textAlign(RIGHT, TOP);
    text(stats[i][1], px + pw - 10, y + 22);
  }

  // next piece preview
  const ny = 262;
  stroke(255, 255, 255, 90);
  strokeWeight(2);
  fill(0, 0, 0, 110);
  rect(px, ny, pw, 110, 8);
  noStroke();
  fill(170, 180, 230);
  textStyle(NORMAL);
  textSize(12);
  textAlign(LEFT, TOP);
  text('NEXT', px + 10, ny + 7);

  const cells = SHAPES[nextType];
  let minX = 9, maxX = -9, minY = 9, maxY = -9;
  for (const c of cells) {
    minX = min(minX, c[0]);
    maxX = max(maxX, c[0]);
    minY = min(minY, c[1]);
    maxY = max(maxY, c[1]);
  }
  const pieceW = (maxX - minX + 1) * CELL;
  const pieceH = (maxY - minY + 1) * CELL;
  const ox = px + (pw - pieceW) / 2;
  const oy = ny + 26 + (76 - pieceH) / 2;
  for (const c of cells) {
    drawBlock(ox + (c[0] - minX) * CELL, oy + (c[1] - minY) * CELL, PIECE_COLORS[nextType], 255);
  }

  // controls hint
  fill(200, 200, 230, 160);
  textStyle(NORMAL);
  textSize(11);
  textAlign(LEFT, TOP);
  text('L/R move   UP rotate', px, 388);
  text('DOWN soft   SPACE drop', px, 404);
}

function drawParticles() {
  noStroke();
  for (const p of particles) {
    const c = color(red(p.col), green(p.col), blue(p.col), map(p.life, 0, 40, 0, 255));
    fill(c);
    circle(p.x, p.y, 5);
  }
}

function drawGameOver() {
  noStroke();
  fill(0, 0, 0, 160);
  rect(0, 0, W, H);

  stroke('#ff6b9a');
  strokeWeight(4);
  fill(30, 20, 50, 220);
  rectMode(CENTER);
  rect(W / 2, H / 2, 300, 150, 14);
  rectMode(CORNER);

  noStroke();
  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  fill('#ffe66d');
  textSize(38);
  text('GAME OVER', W / 2, H / 2 - 30);
  fill(255);
  textSize(18);
  text('Score: ' + score, W / 2, H / 2 + 14);
  textStyle(NORMAL);
  textSize(13);
  fill(200, 200, 230);
  text('Lines ' + lines + '  -  Level ' + level, W / 2, H / 2 + 42);
}
