// Gem Match - a tiny Columns-style falling gem game.
// LEFT/RIGHT move, UP or SPACE cycles the gems, DOWN drops faster.
// Line up 3 or more of the same gem horizontally, vertically or diagonally.

const W = 360;
const H = 480;
const COLS = 6;
const ROWS = 12;
const CELL = 36;
const BOARD_X = 12;
const BOARD_Y = 36;
const SIDE_X = BOARD_X + COLS * CELL + 12;
const SIDE_W = W - SIDE_X - 10;
const CLEAR_FRAMES = 24;

const GEM_COLORS = ['#e74c3c', 'dodgerblue', '#2ecc71', 'gold', '#9b59b6', 'orange'];
const GEM_NAMES = ['ruby', 'sapphire', 'emerald', 'topaz', 'amethyst', 'amber'];

let rng;
let board;
let piece;
let nextPiece;
let score;
let lives;
let level;
let gemsCleared;
let gameState;
let chain;
let chainPopup;
let fallTimer;
let moveTimer;
let rotateTimer;
let sparks;
let phase; // 'falling' | 'clearing' | 'settling'
let phaseTimer;
let gemColors;

function mulberry32(a) {
  return function() {
    a |= 0; a = a + 0x6D2B79F5 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  }
}

class Piece {
  constructor(gems) {
    this.gems = gems; // top to bottom
    this.col = floor(COLS / 2);
    this.row = -2; // row of the top gem
  }

  static random() {
    const gems = [0, 1, 2].map(() => floor(rng() * GEM_COLORS.length));
    return new Piece(gems);
  }

  cells() {
    return this.gems.map((g, i) => ({ col: this.col, row: this.row + i, gem: g }));
  }

  cycle() {
    // bottom gem moves to the top
    this.gems.unshift(this.gems.pop());
  }

  fits(b, dc, dr) {
    return this.cells().every(c => b.isFree(c.col + dc, c.row + dr));
  }

  draw(b) {
    this.cells().forEach(c => {
      if (c.row >= 0) {
        drawGem(b.cellX(c.col), b.cellY(c.row), c.gem, 1);
      }
    });
  }
}

class Board {
  constructor() {
    this.grid = [];
    for (let r = 0; r < ROWS; r++) {
      this.grid.push(new Array(COLS).fill(-1));
    }
    this.marked = [];
  }

  inside(col, row) {
    return col >= 0 && col < COLS && row < ROWS;
  }

  isFree(col, row) {
    if (col < 0 || col >= COLS || row >= ROWS) return false;
    if (row < 0) return true;
    return this.grid[row][col] === -1;
  }

  cellX(col) {
    return BOARD_X + col * CELL + CELL / 2;
  }

  cellY(row) {
    return BOARD_Y + row * CELL + CELL / 2;
  }

  lock(p) {
    let overflow = false;
    p.cells().forEach(c => {
      if (c.row < 0) {
        overflow = true;
      } else {
        this.grid[c.row][c.col] = c.gem;
      }
    });
    return overflow;
  }

  findMatches() {
    const dirs = [[1, 0], [0, 1], [1, 1], [1, -1]];
    const hits = new Set();
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        const g = this.grid[r][c];
        if (g < 0) continue;
        dirs.forEach(([dc, dr]) => {
          const run = [[c, r]];
          let cc = c + dc;
          let rr = r + dr;
          while (cc >= 0 && cc < COLS && rr >= 0 && rr < ROWS && this.grid[rr][cc] === g) {
            run.push([cc, rr]);
            cc += dc;
            rr += dr;
          }
          if (run.length >= 3) {
            run.forEach(([x, y]) => hits.add(y * COLS + x));
          }
        });
      }
    }
    this.marked = [...hits].map(k => ({ col: k % COLS, row: floor(k / COLS) }));
    return this.marked.length;
  }

  removeMarked() {
    this.marked.forEach(m => {
      const g = this.grid[m.row][m.col];
      spawnSparks(this.cellX(m.col), this.cellY(m.row), g);
      this.grid[m.row][m.col] = -1;
    });
    const n = this.marked.length;
    this.marked = [];
    return n;
  }

  applyGravity() {
    let moved = false;
    for (let c = 0; c < COLS; c++) {
      const column = [];
      for (let r = ROWS - 1; r >= 0; r--) {
        if (this.grid[r][c] !== -1) column.push(this.grid[r][c]);
      }
      for (let r = ROWS - 1, i = 0; r >= 0; r--, i++) {
        const v = i < column.length ? column[i] : -1;
        if (this.grid[r][c] !== v) moved = true;
        this.grid[r][c] = v;
      }
    }
    return moved;
  }

  isMarked(col, row) {
    return this.marked.some(m => m.col === col && m.row === row);
  }

  height() {
    let h = 0;
    for (let c = 0; c < COLS; c++) {
      for (let r = 0; r < ROWS; r++) {
        if (this.grid[r][c] !== -1) {
          h = max(h, ROWS - r);
          break;
        }
      }
    }
    return h;
  }

  draw() {
    // well
    stroke(80, 90, 140);
    strokeWeight(2);
    fill(10, 12, 30, 220);
    rect(BOARD_X - 2, BOARD_Y - 2, COLS * CELL + 4, ROWS * CELL + 4, 6);

    noStroke();
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        if ((r + c) % 2 === 0) {
          fill(255, 255, 255, 8);
          rect(BOARD_X + c * CELL, BOARD_Y + r * CELL, CELL, CELL);
        }
      }
    }

    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        const g = this.grid[r][c];
        if (g < 0) continue;
        if (phase === 'clearing' && this.isMarked(c, r)) {
          const a = 127 + 128 * sin(frameCount * 0.9);
          drawGem(this.cellX(c), this.cellY(r), g, a / 255, true);
        } else {
          drawGem(this.cellX(c), this.cellY(r), g, 1);
        }
      }
    }
  }
}

function setup() {
  createCanvas(W, H);
  textFont('monospace');
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  noiseSeed(seed);
  gemColors = GEM_COLORS.map(c => color(c));
  board = new Board();
  piece = Piece.random();
  nextPiece = Piece.random();
  score = 0;
  lives = 3;
  level = 1;
  gemsCleared = 0;
  gameState = 'playing';
  chain = 0;
  chainPopup = null;
  fallTimer = 0;
  moveTimer = 0;
  rotateTimer = 0;
  sparks = [];
  phase = 'falling';
  phaseTimer = 0;
}

function getGameState() {
  return { score, lives, gameState };
}

function fallInterval() {
  return max(4, 16 - (level - 1) * 2);
}

function spawnSparks(x, y, g) {
  for (let i = 0; i < 6; i++) {
    const a = rng() * TWO_PI;
    const s = 1 + rng() * 2.5;
    sparks.push({ x, y, vx: cos(a) * s, vy: sin(a) * s, life: 25, gem: g });
  }
}

function keyPressed() {
  if (gameState !== 'playing' || phase !== 'falling') return;
  if (key === ' ' || keyCode === 32) {
    piece.cycle();
  }
}

function handleInput() {
  if (moveTimer > 0) moveTimer--;
  if (rotateTimer > 0) rotateTimer--;

  if (moveTimer === 0) {
    if (keyIsDown(LEFT_ARROW) && piece.fits(board, -1, 0)) {
      piece.col--;
      moveTimer = 6;
    } else if (keyIsDown(RIGHT_ARROW) && piece.fits(board, 1, 0)) {
      piece.col++;
      moveTimer = 6;
    }
  }

  if (keyIsDown(UP_ARROW) && rotateTimer === 0) {
    piece.cycle();
    rotateTimer = 10;
  }
}

function lockPiece() {
  const overflow = board.lock(piece);
  if (overflow) {
    loseLife();
    return;
  }
  chain = 0;
  startResolve();
}

function startResolve() {
  const n = board.findMatches();
  if (n > 0) {
    chain++;
    phase = 'clearing';
    phaseTimer = CLEAR_FRAMES;
    if (chain >= 2) {
      chainPopup = { text: 'CHAIN x' + chain, life: 60 };
    }
  } else {
    nextTurn();
  }
}

function nextTurn() {
  phase = 'falling';
  piece = nextPiece;
  nextPiece = Piece.random();
  fallTimer = 0;
  if (!piece.fits(board, 0, 0) || !board.isFree(piece.col, 0)) {
    loseLife();
  }
}

function loseLife() {
  lives--;
  // top rows burst in a shower of sparks
  for (let r = 0; r < ROWS / 2; r++) {
    for (let c = 0; c < COLS; c++) {
      if (board.grid[r][c] !== -1 && rng() < 0.3) {
        spawnSparks(board.cellX(c), board.cellY(r), board.grid[r][c]);
      }
    }
  }
  if (lives <= 0) {
    gameState = 'gameover';
    return;
  }
  // keep the bottom half of the well, clear the rest
  for (let r = 0; r < ROWS / 2; r++) {
    board.grid[r].fill(-1);
  }
  board.marked = [];
  phase = 'falling';
  piece = Piece.random();
  nextPiece = Piece.random();
  fallTimer = 0;
  chain = 0;
}

function update() {
  sparks.forEach(s => {
    s.x += s.vx;
    s.y += s.vy;
    s.vy += 0.1;
    s.life--;
  });
  sparks = sparks.filter(s => s.life > 0);

  if (chainPopup) {
    chainPopup.life--;
    if (chainPopup.life <= 0) chainPopup = null;
  }

  if (gameState !== 'playing') return;

  if (phase === 'falling') {
    handleInput();
    const interval = keyIsDown(DOWN_ARROW) ? 2 : fallInterval();
    fallTimer++;
    if (fallTimer >= interval) {
      fallTimer = 0;
      if (piece.fits(board, 0, 1)) {
        piece.row++;
        if (keyIsDown(DOWN_ARROW)) score += 1;
      } else {
        lockPiece();
      }
    }
  } else if (phase === 'clearing') {
    phaseTimer--;
    if (phaseTimer <= 0) {
      const n = board.removeMarked();
      gemsCleared += n;
      score += n * 10 * chain * level;
      level = 1 + floor(gemsCleared / 24);
      board.applyGravity();
      phase = 'settling';
      phaseTimer = 8;
    }
  } else if (phase === 'settling') {
    phaseTimer--;
    if (phaseTimer <= 0) {
      startResolve();
    }
  }
}

// ---------- drawing ----------

function drawBackground() {
  noStroke();
  const step = 20;
  for (let y = 0; y < H; y += step) {
    for (let x = 0; x < W; x += step) {
      const n = noise(x * 0.01, y * 0.01, frameCount * 0.005);
      fill(18 + n * 30, 14 + n * 18, 40 + n * 50);
      rect(x, y, step, step);
    }
  }
}

function drawStar(x, y, r1, r2, points) {
  beginShape();
  for (let i = 0; i < points * 2; i++) {
    const a = (i * PI) / points - HALF_PI;
    const r = i % 2 === 0 ? r1 : r2;
    vertex(x + cos(a) * r, y + sin(a) * r);
  }
  endShape(CLOSE);
}

function drawGem(x, y, g, alpha, flashing) {
  const base = gemColors[g];
  const c = color(red(base), green(base), blue(base));
  c.setAlpha(alpha * 255);
  const s = CELL * 0.4;

  push();
  translate(x, y);
  if (flashing) {
    scale(1 + 0.15 * sin(frameCount * 0.5));
  }
  stroke(255, 255, 255, alpha * 160);
  strokeWeight(1.5);
  fill(c);

  switch (g) {
    case 0: // ruby: circle
      circle(0, 0, s * 2);
      break;
    case 1: // sapphire: diamond
      beginShape();
      vertex(0, -s);
      vertex(s * 0.8, 0);
      vertex(0, s);
      vertex(-s * 0.8, 0);
      endShape(CLOSE);
      break;
    case 2: // emerald: hexagon
      beginShape();
      for (let i = 0; i < 6; i++) {
        const a = TWO_PI * i / 6 + PI / 6;
        vertex(cos(a) * s, sin(a) * s);
      }
      endShape(CLOSE);
      break;
    case 3: // topaz: rotating star
      rotate(frameCount * 0.03);
      drawStar(0, 0, s, s * 0.45, 5);
      break;
    case 4: // amethyst: triangle
      triangle(0, -s, s * 0.9, s * 0.75, -s * 0.9, s * 0.75);
      break;
    default: // amber: rounded square
      rectMode(CENTER);
      square(0, 0, s * 1.6, 5);
      rectMode(CORNER);
      break;
  }

  // sparkle highlight
  noStroke();
  fill(255, 255, 255, alpha * 150);
  ellipse(-s * 0.3, -s * 0.35, s * 0.35, s * 0.22);
  pop();
}

function drawLabel(label, cx, y) {
  textSize(14);
  textStyle(BOLD);
  const tw = textWidth(label);
  noStroke();
  fill(255, 255, 255, 30);
  rect(cx - tw / 2 - 8, y - 11, tw + 16, 22, 4);
  fill(220, 220, 255);
  textAlign(LEFT, CENTER);
  text(label, cx - tw / 2, y);
}

function drawSidebar() {
  const cx = SIDE_X + SIDE_W / 2;

  drawLabel('NEXT', cx, BOARD_Y + 12);
  stroke(80, 90, 140);
  strokeWeight(2);
  fill(10, 12, 30, 200);
  rect(cx - CELL / 2 - 8, BOARD_Y + 30, CELL + 16, CELL * 3 + 12, 6);
  nextPiece.gems.forEach((g, i) => {
    drawGem(cx, BOARD_Y + 36 + CELL / 2 + i * CELL, g, 1);
  });

  drawLabel('SCORE', cx, 220);
  textAlign(CENTER, CENTER);
  textStyle(NORMAL);
  textSize(20);
  fill(255);
  noStroke();
  text(nf(score, 6), cx, 248);

  drawLabel('LEVEL', cx, 290);
  textAlign(CENTER, CENTER);
  textSize(20);
  fill(255);
  text(level, cx, 318);

  drawLabel('LIVES', cx, 360);
  for (let i = 0; i < 3; i++) {
    const on = i < lives;
    fill(on ? color('#ff5577') : color(80, 80, 100));
    circle(cx - 24 + i * 24, 388, 14);
  }

  if (chainPopup) {
    const pulse = 1 + 0.2 * sin(frameCount * 0.1 * 4);
    push();
    translate(cx, 430);
    scale(pulse);
    textAlign(CENTER, CENTER);
    textStyle(BOLD);
    textSize(18);
    fill(255, 220, 80, map(chainPopup.life, 0, 60, 0, 255));
    text(chainPopup.text, 0, 0);
    pop();
  }
}

function drawSparks() {
  noStroke();
  sparks.forEach(s => {
    const c = color(GEM_COLORS[s.gem]);
    c.setAlpha(map(s.life, 0, 25, 0, 255));
    fill(c);
    circle(s.x, s.y, 4);
  });
}

function drawTitle() {
  textAlign(LEFT, CENTER);
  textStyle(BOLD);
  textSize(18);
  const glow = 200 + 55 * sin(frameCount * 0.1);
  fill(glow, glow, 255);
  noStroke();
  text('GEM MATCH', BOARD_X, 18);
  textSize(11);
  textStyle(NORMAL);
  fill(180);
  textAlign(RIGHT, CENTER);
  text('gems ' + gemsCleared, W - 10, 18);
}

function drawGameOver() {
  fill(0, 0, 0, 160);
  noStroke();
  rect(0, 0, W, H);
  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  textSize(32);
  fill(255, 90, 110);
  text('GAME OVER', W / 2, H / 2 - 20);
  textSize(16);
  fill(255);
  text('score ' + score, W / 2, H / 2 + 16);
}

function draw() {
  update();

  drawBackground();
  drawTitle();
  board.draw();

  if (gameState === 'playing' && phase === 'falling') {
    piece.draw(board);
    // ghost guide on the column
    noFill();
    stroke(255, 255, 255, 40 + 30 * sin(frameCount * 0.1));
    strokeWeight(1);
    rect(BOARD_X + piece.col * CELL + 1, BOARD_Y, CELL - 2, ROWS * CELL);
  }

  drawSparks();
  drawSidebar();

  if (gameState === 'gameover') {
    drawGameOver();
  }
}
