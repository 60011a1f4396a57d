// Slide Merge - a 2048-style sliding number puzzle with a move limit and a timer (p5.js global mode)

const W = 400;
const H = 450;
const N = 4;
const TILE = 76;
const GAP = 10;
const GRID_X = 23;
const GRID_Y = 94;
const GRID_SIZE = N * TILE + (N + 1) * GAP;

const MAX_MOVES = 120;
const TIME_LIMIT = 60 * 60; // frames (60 seconds at 60 fps)
const SMASH_CHARGES = 3;

const TILE_COLORS = [
  '#cdc1b4', // empty
  '#eee4da', // 2
  '#ede0c8', // 4
  '#f2b179', // 8
  '#f59563', // 16
  '#f67c5f', // 32
  '#f65e3b', // 64
  '#edcf72', // 128
  '#edcc61', // 256
  '#edc850', // 512
  '#edc53f', // 1024
  '#edc22e', // 2048
  '#3c3a32'  // beyond
];

let board;
let popAnim;
let score;
let bestScore = 0;
let movesLeft;
let framesLeft;
let smashes;
let gameState;
let endReason;
let prevKeys;
let particles;
let shake;
let bgA, bgB;

function setup() {
  createCanvas(W, H);
  bgA = color('#faf3e6');
  bgB = color('#e8d9c2');
  resetGame(0);
}

function resetGame(seed) {
  board = [];
  popAnim = [];
  for (let r = 0; r < N; r++) {
    board.push([0, 0, 0, 0]);
    popAnim.push([0, 0, 0, 0]);
  }
  score = 0;
  movesLeft = MAX_MOVES;
  framesLeft = TIME_LIMIT;
  smashes = SMASH_CHARGES;
  gameState = 'playing';
  endReason = '';
  prevKeys = { left: false, right: false, up: false, down: false, space: false };
  particles = [];
  shake = 0;
  addRandomTile();
  addRandomTile();
}

function getGameState() {
  return {
    score: score,
    lives: gameState === 'playing' ? 1 : 0,
    gameState: gameState
  };
}

function addRandomTile() {
  const empty = [];
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      if (board[r][c] === 0) empty.push([r, c]);
    }
  }
  if (empty.length === 0) return;
  const spot = empty[floor(random(empty.length))];
  board[spot[0]][spot[1]] = random() < 0.9 ? 2 : 4;
  popAnim[spot[0]][spot[1]] = 1;
}

// Slide one line toward index 0, returning the new line and merge info
function slideLine(line) {
  const vals = line.filter(v => v !== 0);
  const out = [];
  const merged = [];
  let gained = 0;
  for (let i = 0; i < vals.length; i++) {
    if (i + 1 < vals.length && vals[i] === vals[i + 1]) {
      out.push(vals[i] * 2);
      merged.push(true);
      gained += vals[i] * 2;
      i++;
    } else {
      out.push(vals[i]);
      merged.push(false);
    }
  }
  while (out.length < N) {
    out.push(0);
    merged.push(false);
  }
  return { line: out, merged: merged, gained: gained };
}

function getLine(dir, i) {
  // returns list of [r, c] positions ordered from the side tiles slide toward
  const cells = [];
  for (let k = 0; k < N; k++) {
    if (dir === 'left') cells.push([i, k]);
    if (dir === 'right') cells.push([i, N - 1 - k]);
    if (dir === 'up') cells.push([k, i]);
    if (dir === 'down') cells.push([N - 1 - k, i]);
  }
  return cells;
}

function move(dir) {
  let changed = false;
  for (let i = 0; i < N; i++) {
    const cells = getLine(dir, i);
    const line = cells.map(p => board[p[0]][p[1]]);
    const result = slideLine(line);
    for (let k = 0; k < N; k++) {
      const r = cells[k][0];
      const c = cells[k][1];
      if (board[r][c] !== result.line[k]) changed = true;
      board[r][c] = result.line[k];
      if (result.merged[k]) {
        popAnim[r][c] = 1;
        burst(r, c, result.line[k]);
      }
    }
    score += result.gained;
  }
  if (changed) {
    movesLeft--;
    addRandomTile();
  } else {
    shake = 8;
  }
  return changed;
}

function smashSmallest() {
  if (smashes <= 0) return;
  let best = null;
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      const v = board[r][c];
      if (v > 0 && (best === null || v < board[best[0]][best[1]])) best = [r, c];
    }
  }
  if (best === null) return;
  burst(best[0], best[1], board[best[0]][best[1]]);
  board[best[0]][best[1]] = 0;
  smashes--;
  movesLeft--;
}

function canMove() {
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      if (board[r][c] === 0) return true;
      if (c + 1 < N && board[r][c] === board[r][c + 1]) return true;
      if (r + 1 < N && board[r][c] === board[r + 1][c]) return true;
    }
  }
  return false;
}

function tileX(c) {
  return GRID_X + GAP + c * (TILE + GAP);
}

function tileY(r) {
  return GRID_Y + GAP + r * (TILE + GAP);
}

function burst(r, c, value) {
  const cx = tileX(c) + TILE / 2;
  const cy = tileY(r) + TILE / 2;
  const col = color(tileColor(value));
  for (let i = 0; i < 10; i++) {
    const a = random(TWO_PI);
    const s = random(1, 4);
    particles.push({ x: cx, y: cy, vx: cos(a) * s, vy: sin(a) * s, life: 30, size: random(4, 9), col: col });
  }
}

function tileColor(v) {
  if (v === 0) return TILE_COLORS[0];
  const idx = min(round(log(v) / log(2)), TILE_COLORS.length - 1);
  return TILE_COLORS[idx];
}

function pressedOnce(name, down) {
  const fresh = down && !prevKeys[name];
  prevKeys[name] = down;
  return fresh;
}

function handleInput() {
  const l = pressedOnce('left', keyIsDown(LEFT_ARROW));
  const r = pressedOnce('right', keyIsDown(RIGHT_ARROW));
  const u = pressedOnce('up', keyIsDown(UP_ARROW));
  const d = pressedOnce('down', keyIsDown(DOWN_ARROW));
  const s = pressedOnce('space', keyIsDown(32));
  if (l) move('left');
  else if (r) move('right');
  else if (u) move('up');
  else if (d) move('down');
  else if (s) smashSmallest();
}

function updateGame() {
  handleInput();
  framesLeft--;
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      if (board[r][c] >= 2048 && gameState === 'playing') {
        gameState = 'won';
        endReason = 'YOU MADE 2048!';
      }
    }
  }
  if (gameState !== 'playing') return;
  if (framesLeft <= 0) {
    framesLeft = 0;
    gameState = 'gameover';
    endReason = 'TIME UP';
  } else if (movesLeft <= 0) {
    gameState = 'gameover';
    endReason = 'OUT OF MOVES';
  } else if (!canMove()) {
    gameState = 'gameover';
    endReason = 'BOARD FULL';
  }
}

function draw() {
  if (gameState === 'playing') updateGame();
  bestScore = max(bestScore, score);

  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      if (popAnim[r][c] > 0) popAnim[r][c] = max(0, popAnim[r][c] - 0.1);
    }
  }
  if (shake > 0) shake--;

  drawBackground();
  drawHeader();
  drawGrid();
  drawParticles();
  if (gameState !== 'playing') drawEndPanel();
}

function drawBackground() {
  noStroke();
  for (let y = 0; y < H; y += 5) {
    fill(lerpColor(bgA, bgB, y / H));
    rect(0, y, W, 5);
  }
}

function drawHeader() {
  // title
  noStroke();
  fill('#776e65');
  textStyle(BOLD);
  textAlign(LEFT, TOP);
  textSize(30);
  text('SLIDE', 22, 12);
  fill('#f65e3b');
  textSize(18);
  text('merge', 24, 46);

  // score and best boxes
  const boxes = [['SCORE', score, 176], ['BEST', bestScore, 290]];
  for (const b of boxes) {
    fill('#bbada0');
    noStroke();
    rect(b[2], 10, 100, 50, 8);
    fill('#eee4da');
    textStyle(BOLD);
    textSize(12);
    textAlign(CENTER, TOP);
    text(b[0], b[2] + 50, 16);
    fill(255);
    textSize(22);
    textAlign(CENTER, CENTER);
    text(b[1], b[2] + 50, 44);
  }

  // timer bar with a gradient that shifts from green to red
  const frac = framesLeft / TIME_LIMIT;
  const barX = 176;
  const barY = 68;
  const barW = 214;
  stroke('#8f7a66');
  strokeWeight(2);
  fill(255, 255, 255, 120);
  rect(barX, barY, barW, 14, 7);
  noStroke();
  const good = color(90, 200, 110);
  const bad = color(240, 80, 60);
  const filled = floor(barW * frac);
  for (let x = 0; x < filled; x += 4) {
    fill(lerpColor(bad, good, x / barW));
    rect(barX + x, barY + 2, min(4, filled - x), 10);
  }

  // moves and smash counters
  fill('#776e65');
  textStyle(NORMAL);
  textSize(13);
  textAlign(LEFT, CENTER);
  text('Moves ' + movesLeft, 24, 76);
  textAlign(RIGHT, CENTER);
  fill([143, 122, 102]);
  text('Smash x' + smashes, 160, 76);
}

function drawGrid() {
  push();
  if (shake > 0) translate(sin(shake * 2.5) * shake * 0.6, 0);

  noStroke();
  fill('#bbada0');
  rect(GRID_X, GRID_Y, GRID_SIZE, GRID_SIZE, 12);

  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      const x = tileX(c);
      const y = tileY(r);
      fill(TILE_COLORS[0]);
      noStroke();
      rect(x, y, TILE, TILE, 8);
    }
  }

  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      const v = board[r][c];
      if (v === 0) continue;
      drawTile(tileX(c) + TILE / 2, tileY(r) + TILE / 2, v, popAnim[r][c]);
    }
  }
  pop();
}

function drawTile(cx, cy, v, p) {
  push();
  translate(cx, cy);
  // new or merged tiles briefly pop out larger
  const s = 1 + sin(p * PI) * 0.15;
  scale(s);
  const col = color(tileColor(v));
  const edge = lerpColor(col, color(0), 0.25);
  stroke(edge);
  strokeWeight(v >= 128 ? 3 : 1.5);
  fill(col);
  rectMode(CENTER);
  rect(0, 0, TILE, TILE, 8);
  rectMode(CORNER);

  // numbers: dark for small values, white for larger ones
  const digits = String(v).length;
  let ts = 38;
  if (digits === 3) ts = 32;
  else if (digits === 4) ts = 25;
  else if (digits >= 5) ts = 20;
  noStroke();
  fill(v <= 4 ? '#776e65' : '#f9f6f2');
  textStyle(BOLD);
  textSize(ts);
  textAlign(CENTER, CENTER);
  text(v, 0, 2);
  pop();
}

function drawParticles() {
  noStroke();
  for (let i = particles.length - 1; i >= 0; i--) {
    const p = particles[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vx *= 0.94;
    p.vy *= 0.94;
    p.life--;
    const c = color(red(p.col), green(p.col), blue(p.col), map(p.life, 0, 30, 0, 220));
    fill(c);
    rect(p.x - p.size / 2, p.y - p.size / 2, p.size, p.size, 2);
    if (p.life <= 0) particles.splice(i, 1);
  }
}

function drawEndPanel() {
  noStroke();
  fill(250, 245, 235, 170);
  rect(0, 0, W, H);

  fill(119, 110, 101, 230);
  stroke('#f2b179');
  strokeWeight(4);
  rect(50, 150, W - 100, 160, 16);

  noStroke();
  textAlign(CENTER, CENTER);
  textStyle(BOLD);
  fill(gameState === 'won' ? '#edc22e' : '#ffffff');
  textSize(32);
  text(endReason, W / 2, 192);
  fill('#f9f6f2');
  textSize(20);
  text('Final score: ' + score, W / 2, 240);
  textStyle(NORMAL);
  textSize(14);
  fill(240, 228, 210);
  text('Best ' + bestScore + '   Moves used ' + (MAX_MOVES - movesLeft), W / 2, 276);
}
