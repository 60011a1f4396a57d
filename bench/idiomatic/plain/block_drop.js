// Block Drop - a Tetris-like falling-block puzzle.
// Steer and rotate the falling pieces to fill complete rows, which then clear for points.
// The game ends when the stack reaches the top. Every 5 lines the level and speed go up.
// Keys: LEFT/RIGHT move, SPACE rotates, DOWN soft-drops.

const COLS = 10;
const ROWS = 20;
const CELL = 18;
const BOARD_X = 20;
const BOARD_Y = 20;

const SHAPES = {
  I: [[0, 0, 0, 0], [1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]],
  O: [[1, 1], [1, 1]],
  T: [[0, 1, 0], [1, 1, 1], [0, 0, 0]],
  S: [[0, 1, 1], [1, 1, 0], [0, 0, 0]],
  Z: [[1, 1, 0], [0, 1, 1], [0, 0, 0]],
  J: [[1, 0, 0], [1, 1, 1], [0, 0, 0]],
  L: [[0, 0, 1], [1, 1, 1], [0, 0, 0]],
};
const PIECE_COLORS = {
  I: 'cyan',
  O: 'gold',
  T: 'mediumorchid',
  S: '#2ecc71',
  Z: '#e74c3c',
  J: 'royalblue',
  L: 'darkorange',
};
const LINE_POINTS = [0, 100, 300, 500, 800];

let board;
let piece;
let nextPiece;
let bag = [];
let score = 0;
let lines = 0;
let level = 1;
let lives = 1;
let dropTimer = 0;
let moveTimer = 0;
let softTimer = 0;
let message = '';
let messageTimer = 0;
let gameState = 'playing';

// clockwise rotation: the columns of the old matrix become the rows of the new one
function rotateMatrix(m) {
  return m[0].map((_, i) => m.map(row => row[i]).reverse());
}

function emptyBoard() {
  return Array.from({ length: ROWS }, () => Array(COLS).fill(null));
}

function takeFromBag() {
  if (bag.length === 0) bag = shuffle(Object.keys(SHAPES));
  const name = bag.pop();
  return { name, shape: SHAPES[name].map(row => row.slice()), color: PIECE_COLORS[name], x: 0, y: 0 };
}

function collides(shape, px, py) {
  for (let r = 0; r < shape.length; r++) {
    for (let c = 0; c < shape[r].length; c++) {
      if (!shape[r][c]) continue;
      const x = px + c;
      const y = py + r;
      if (x < 0 || x >= COLS || y >= ROWS) return true;
      if (y >= 0 && board[y][x] !== null) return true;
    }
  }
  return false;
}

function spawnPiece() {
  piece = nextPiece;
  nextPiece = takeFromBag();
  piece.x = floor((COLS - piece.shape[0].length) / 2);
  piece.y = piece.name === 'I' ? -1 : 0;
  dropTimer = 0;
  if (collides(piece.shape, piece.x, piece.y)) {
    gameState = 'gameover';
    lives = 0;
  }
}

function tryMove(dx, dy) {
  if (!collides(piece.shape, piece.x + dx, piece.y + dy)) {
    piece.x += dx;
    piece.y += dy;
    return true;
  }
  return false;
}

function tryRotate() {
  const rotated = rotateMatrix(piece.shape);
  // simple wall kicks: try the spot itself, then nudge sideways
  for (const kick of [0, -1, 1, -2, 2]) {
    if (!collides(rotated, piece.x + kick, piece.y)) {
      piece.shape = rotated;
      piece.x += kick;
      return;
    }
  }
}

function lockPiece() {
  piece.shape.forEach((row, r) => {
    row.forEach((filled, c) => {
      if (filled && piece.y + r >= 0) board[piece.y + r][piece.x + c] = piece.color;
    });
  });
  clearLines();
  spawnPiece();
}

function clearLines() {
  let cleared = 0;
  for (let r = ROWS - 1; r >= 0; r--) {
    if (board[r].every(cell => cell !== null)) {
      board.splice(r, 1);
      board.unshift(Array(COLS).fill(null));
      cleared++;
      r++; // look at the same row again, it now holds the row from above
    }
  }
  if (cleared > 0) {
    score += LINE_POINTS[cleared] * level;
    lines += cleared;
    level = 1 + floor(lines / 5);
    message = ['', 'SINGLE', 'DOUBLE', 'TRIPLE', 'TETRIS!'][cleared];
    messageTimer = 60;
  }
}

function dropInterval() {
  return max(2, 9 - (level - 1) * 2);
}

function setup() {
  createCanvas(400, 400);
  resetGame(0);
}

function resetGame(seed) {
  board = emptyBoard();
  bag = [];
  score = 0;
  lines = 0;
  level = 1;
  lives = 1;
  message = '';
  messageTimer = 0;
  moveTimer = 0;
  softTimer = 0;
  gameState = 'playing';
  nextPiece = takeFromBag();
  spawnPiece();
}

function keyPressed() {
  if (gameState !== 'playing') return;
  if (key === ' ') tryRotate();
  if (keyCode === LEFT_ARROW) tryMove(-1, 0);
  if (keyCode === RIGHT_ARROW) tryMove(1, 0);
  moveTimer = 0;
}

function update() {
  // holding LEFT/RIGHT repeats the move after a short delay
  if (keyIsDown(LEFT_ARROW) || keyIsDown(RIGHT_ARROW)) {
    moveTimer++;
    if (moveTimer > 10 && moveTimer % 3 === 0) tryMove(keyIsDown(LEFT_ARROW) ? -1 : 1, 0);
  }

  if (keyIsDown(DOWN_ARROW)) {
    softTimer++;
    if (softTimer % 2 === 0) {
      if (tryMove(0, 1)) score += 1;
      else lockPiece();
      dropTimer = 0;
    }
  } else {
    softTimer = 0;
  }

  dropTimer++;
  if (dropTimer >= dropInterval()) {
    dropTimer = 0;
    if (!tryMove(0, 1)) lockPiece();
  }
  if (messageTimer > 0) messageTimer--;
}

function drawCell(x, y, size, col) {
  fill(col);
  stroke(0, 0, 0, 120);
  strokeWeight(1);
  rect(x, y, size, size, 2);
  noStroke();
  fill(255, 255, 255, 70);
  rect(x + 2, y + 2, size - 4, 3);
}

function ghostY() {
  let gy = piece.y;
  while (!collides(piece.shape, piece.x, gy + 1)) gy++;
  return gy;
}

function drawBoard() {
  noStroke();
  fill('rgb(20, 22, 35)');
  rect(BOARD_X, BOARD_Y, COLS * CELL, ROWS * CELL);
  stroke(255, 255, 255, 18);
  for (let c = 1; c < COLS; c++) line(BOARD_X + c * CELL, BOARD_Y, BOARD_X + c * CELL, BOARD_Y + ROWS * CELL);
  for (let r = 1; r < ROWS; r++) line(BOARD_X, BOARD_Y + r * CELL, BOARD_X + COLS * CELL, BOARD_Y + r * CELL);

  board.forEach((row, r) => {
    row.forEach((col, c) => {
      if (col) drawCell(BOARD_X + c * CELL, BOARD_Y + r * CELL, CELL, col);
    });
  });

  if (gameState === 'playing') {
    const gy = ghostY();
    const ghost = color(piece.color);
    ghost.setAlpha(60);
    piece.shape.forEach((row, r) => row.forEach((filled, c) => {
      if (filled && gy + r >= 0) {
        noFill();
        stroke(ghost);
        strokeWeight(2);
        rect(BOARD_X + (piece.x + c) * CELL + 1, BOARD_Y + (gy + r) * CELL + 1, CELL - 2, CELL - 2);
      }
    }));
    piece.shape.forEach((row, r) => row.forEach((filled, c) => {
      if (filled && piece.y + r >= 0) drawCell(BOARD_X + (piece.x + c) * CELL, BOARD_Y + (piece.y + r) * CELL, CELL, piece.color);
    }));
  }

  noFill();
  stroke('slategray');
  strokeWeight(3);
  rect(BOARD_X - 2, BOARD_Y - 2, COLS * CELL + 4, ROWS * CELL + 4);
}

function drawSidePanel() {
  const px = BOARD_X + COLS * CELL + 30;
  noStroke();
  fill(230);
  textAlign(LEFT, TOP);
  textSize(16);
  text('NEXT', px, BOARD_Y);

  fill(30, 34, 52);
  rect(px, BOARD_Y + 24, 90, 70, 6);
  const shape = nextPiece.shape.filter(row => row.some(v => v));
  const w = shape[0].length * 16;
  const h = shape.length * 16;
  shape.forEach((row, r) => row.forEach((filled, c) => {
    if (filled) drawCell(px + 45 - w / 2 + c * 16, BOARD_Y + 59 - h / 2 + r * 16, 16, nextPiece.color);
  }));

  fill(230);
  textSize(16);
  const hud = [`Score: ${score}`, 'Lines: ' + lines, `Level: ${level}`, 'Speed: ' + nf(60 / dropInterval(), 1, 1) + ' rows/s'];
  hud.forEach((label, i) => text(label, px, BOARD_Y + 120 + i * 28));

  if (messageTimer > 0) {
    textSize(22);
    fill(255, 230, 90, map(messageTimer, 0, 60, 0, 255));
    text(message, px, BOARD_Y + 250);
  }
  textSize(11);
  fill(150);
  text('SPACE rotate\nLEFT/RIGHT move\nDOWN soft drop', px, BOARD_Y + 300);
}

function draw() {
  if (gameState === 'playing') update();

  background(12, 12, 20);
  drawBoard();
  drawSidePanel();

  if (gameState === 'gameover') {
    noStroke();
    fill(0, 0, 0, 170);
    rect(BOARD_X, BOARD_Y + ROWS * CELL / 2 - 40, COLS * CELL, 80);
    fill('tomato');
    textAlign(CENTER, CENTER);
    textSize(26);
    text('GAME OVER', BOARD_X + COLS * CELL / 2, BOARD_Y + ROWS * CELL / 2 - 10);
    textSize(14);
    fill(255);
    text('Score ' + score, BOARD_X + COLS * CELL / 2, BOARD_Y + ROWS * CELL / 2 + 18);
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
