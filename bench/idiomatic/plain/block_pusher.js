// Block Pusher - a small Sokoban-like puzzle in p5.js (global mode)
// Arrows move, SPACE undoes the last move. Each level has a time limit.

const W = 480;
const H = 440;
const HUD_H = 70;
const MOVE_DELAY = 7;        // frames between repeated moves while a key is held
const LEVEL_TIME = 900;      // frames per level before you lose a life

const LEVELS = [
  {
    title: "First Steps",
    map: [
      "#######",
      "#     #",
      "# $ . #",
      "#  @  #",
      "# $ . #",
      "#     #",
      "#######"
    ]
  },
  {
    title: "The Pillar",
    map: [
      "########",
      "#   #  #",
      "# $  . #",
      "#  ##  #",
      "#@ $ . #",
      "#      #",
      "########"
    ]
  },
  {
    title: "Crossroads",
    map: [
      " ####### ",
      "##  .  ##",
      "#  $#$  #",
      "# . @ . #",
      "#   $   #",
      "##     ##",
      " ####### "
    ]
  },
  {
    title: "Warehouse",
    map: [
      "#########",
      "#   #   #",
      "# $ # . #",
      "#  $  . #",
      "##  @ ###",
      "#  $  . #",
      "#       #",
      "#########"
    ]
  }
];

let levelIndex = 0;
let walls = [];
let goals = [];
let boxes = [];
let player = { x: 0, y: 0, dir: 0, bump: 0 };
let cols = 0;
let rows = 0;
let tile = 40;
let offX = 0;
let offY = 0;

let moves = 0;
let bestMoves = [];
let score = 0;
let lives = 3;
let gameState = 'playing';
let moveCooldown = 0;
let levelTimer = 0;
let levelDoneTimer = 0;
let particles = [];
let mood = 0;
let history = [];
let flash = 0;
let palette = {};
let frameCounter = 0;

function setup() {
  createCanvas(W, H);
  resetGame(0);
}

function resetGame(seed) {
  levelIndex = 0;
  score = 0;
  lives = 3;
  gameState = 'playing';
  particles = [];
  bestMoves = [];
  frameCounter = 0;
  for (let i = 0; i < LEVELS.length; i++) {
    bestMoves.push(floor(random(12, 30)));
  }
  // a slightly different colour mood every game
  mood = random(0, 1);
  palette.top = lerpColor(color(30, 34, 60), color(50, 28, 52), mood);
  palette.bottom = lerpColor(color(12, 14, 26), color(22, 10, 24), mood);
  palette.box = lerpColor(color(200, 140, 70), color(190, 110, 90), mood);
  loadLevel(0);
}

function loadLevel(index) {
  levelIndex = index;
  const lvl = LEVELS[index];
  rows = lvl.map.length;
  cols = 0;
  for (const line of lvl.map) cols = max(cols, line.length);
  walls = [];
  goals = [];
  boxes = [];
  for (let y = 0; y < rows; y++) {
    walls.push([]);
    for (let x = 0; x < cols; x++) {
      const c = lvl.map[y][x] || ' ';
      walls[y].push(c === '#');
      if (c === '.' || c === '*' || c === '+') goals.push({ x: x, y: y });
      if (c === '$' || c === '*') boxes.push({ x: x, y: y, dx: 0, dy: 0 });
      if (c === '@' || c === '+') {
        player.x = x;
        player.y = y;
      }
    }
  }
  player.dir = 0;
  player.bump = 0;
  tile = floor(min((W - 40) / cols, (H - HUD_H - 30) / rows));
  offX = floor((W - cols * tile) / 2);
  offY = HUD_H + floor((H - HUD_H - rows * tile) / 2);
  moves = 0;
  history = [];
  moveCooldown = 0;
  levelTimer = LEVEL_TIME;
  levelDoneTimer = 0;
}

function isWall(x, y) {
  if (x < 0 || y < 0 || x >= cols || y >= rows) return true;
  return walls[y][x];
}

function boxAt(x, y) {
  for (const b of boxes) {
    if (b.x === x && b.y === y) return b;
  }
  return null;
}

function isGoal(x, y) {
  for (const g of goals) {
    if (g.x === x && g.y === y) return true;
  }
  return false;
}

function boxesOnGoals() {
  let n = 0;
  for (const b of boxes) if (isGoal(b.x, b.y)) n++;
  return n;
}

function tryMove(dx, dy) {
  player.dir = atan2(dy, dx);
  const nx = player.x + dx;
  const ny = player.y + dy;
  if (isWall(nx, ny)) {
    player.bump = 6;
    return;
  }
  const b = boxAt(nx, ny);
  const snap = snapshot();
  if (b) {
    const bx = nx + dx;
    const by = ny + dy;
    if (isWall(bx, by) || boxAt(bx, by)) {
      player.bump = 6;
      return;
    }
    const wasOnGoal = isGoal(b.x, b.y);
    b.x = bx;
    b.y = by;
    b.dx = -dx * tile;
    b.dy = -dy * tile;
    score += 1; // a point for every push
    if (isGoal(bx, by) && !wasOnGoal) {
      spawnBurst(offX + (bx + 0.5) * tile, offY + (by + 0.5) * tile, color(255, 220, 90), 18);
      score += 10;
    } else if (wasOnGoal && !isGoal(bx, by)) {
      score = max(0, score - 10);
    }
  }
  history.push(snap);
  if (history.length > 50) history.shift();
  player.x = nx;
  player.y = ny;
  moves++;
  spawnBurst(offX + (player.x + 0.5 - dx * 0.4) * tile, offY + (player.y + 0.5 - dy * 0.4) * tile, color(180, 180, 200), 3);
}

function spawnBurst(x, y, c, n) {
  for (let i = 0; i < n; i++) {
    const a = random(TWO_PI);
    const s = random(0.5, 3);
    particles.push({
      x: x, y: y,
      vx: cos(a) * s, vy: sin(a) * s,
      life: random(25, 45), maxLife: 45,
      size: random(2, 6),
      c: c
    });
  }
}

function loseLife() {
  lives--;
  flash = 20;
  if (lives <= 0) {
    lives = 0;
    gameState = 'gameover';
  } else {
    loadLevel(levelIndex);
  }
}

function keyPressed() {
  if (key === ' ' && gameState === 'playing' && levelDoneTimer === 0) {
    undoMove();
  }
}

function snapshot() {
  const bs = [];
  for (const b of boxes) bs.push({ x: b.x, y: b.y });
  return { px: player.x, py: player.y, boxes: bs, score: score };
}

function undoMove() {
  if (history.length === 0) return;
  const s = history.pop();
  player.x = s.px;
  player.y = s.py;
  for (let i = 0; i < boxes.length; i++) {
    boxes[i].x = s.boxes[i].x;
    boxes[i].y = s.boxes[i].y;
    boxes[i].dx = 0;
    boxes[i].dy = 0;
  }
  score = s.score;
  moves++; // undo still counts as a move
  spawnBurst(offX + (player.x + 0.5) * tile, offY + (player.y + 0.5) * tile, color(160, 200, 255), 6);
}

function update() {
  frameCounter++;
  if (flash > 0) flash--;
  if (player.bump > 0) player.bump--;

  for (const b of boxes) {
    b.dx *= 0.6;
    b.dy *= 0.6;
    if (abs(b.dx) < 0.5) b.dx = 0;
    if (abs(b.dy) < 0.5) b.dy = 0;
  }

  for (let i = particles.length - 1; i >= 0; i--) {
    const p = particles[i];
    p.x += p.vx;
    p.y += p.vy;
    p.vy += 0.05;
    p.vx *= 0.96;
    p.life--;
    if (p.life <= 0) particles.splice(i, 1);
  }

  if (gameState !== 'playing') return;

  if (levelDoneTimer > 0) {
    levelDoneTimer--;
    if (levelDoneTimer === 0) {
      if (levelIndex + 1 < LEVELS.length) {
        loadLevel(levelIndex + 1);
      } else {
        gameState = 'won';
      }
    }
    return;
  }

  levelTimer--;
  if (levelTimer <= 0) {
    loseLife();
    return;
  }

  if (moveCooldown > 0) moveCooldown--;
  if (moveCooldown === 0) {
    let dx = 0;
    let dy = 0;
    if (keyIsDown(LEFT_ARROW)) dx = -1;
    else if (keyIsDown(RIGHT_ARROW)) dx = 1;
    else if (keyIsDown(UP_ARROW)) dy = -1;
    else if (keyIsDown(DOWN_ARROW)) dy = 1;
    if (dx !== 0 || dy !== 0) {
      tryMove(dx, dy);
      moveCooldown = MOVE_DELAY;
    }
  }

  if (boxesOnGoals() === boxes.length) {
    levelDoneTimer = 60;
    const bonus = max(0, 100 - moves) + floor(levelTimer / 10);
    score += 100 + bonus;
    if (moves < bestMoves[levelIndex]) bestMoves[levelIndex] = moves;
    for (const b of boxes) {
      spawnBurst(offX + (b.x + 0.5) * tile, offY + (b.y + 0.5) * tile, color(120, 255, 160), 12);
    }
  }
}

function draw() {
  update();
  drawBackground();
  drawBoard();
  drawParticles();
  drawHUD();
  drawOverlay();
}

function drawBackground() {
  noStroke();
  for (let y = 0; y < H; y += 8) {
    const c = lerpColor(palette.top, palette.bottom, y / H);
    fill(c);
    rect(0, y, W, 8);
  }
  // faint diagonal stripes
  stroke(255, 255, 255, 10);
  strokeWeight(6);
  for (let i = -H; i < W; i += 40) {
    line(i, H, i + H, 0);
  }
}

function drawBoard() {
  // drop shadow under the board
  noStroke();
  fill(0, 0, 0, 90);
  rect(offX + 6, offY + 8, cols * tile, rows * tile, 10);

  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const px = offX + x * tile;
      const py = offY + y * tile;
      const ch = LEVELS[levelIndex].map[y][x] || ' ';
      if (walls[y][x]) {
        drawWall(px, py);
      } else if (ch !== ' ' || insideLevel(x, y)) {
        // checkered floor with thin outlines
        const even = (x + y) % 2 === 0;
        fill(even ? color(62, 66, 84) : color(56, 60, 78));
        stroke(40, 42, 56);
        strokeWeight(1);
        rect(px, py, tile, tile);
      }
    }
  }

  // goals
  const pulse = sin(frameCounter * 0.1) * 0.5 + 0.5;
  for (const g of goals) {
    const cx = offX + (g.x + 0.5) * tile;
    const cy = offY + (g.y + 0.5) * tile;
    noFill();
    stroke(255, 210, 80, 120 + pulse * 120);
    strokeWeight(2 + pulse * 2);
    ellipse(cx, cy, tile * 0.55, tile * 0.55);
    noStroke();
    fill(255, 210, 80, 80);
    ellipse(cx, cy, tile * 0.25, tile * 0.25);
    // rotating arc marker
    push();
    translate(cx, cy);
    rotate(frameCounter * 0.05);
    stroke(255, 240, 160, 200);
    strokeWeight(2);
    noFill();
    arc(0, 0, tile * 0.8, tile * 0.8, 0, HALF_PI);
    arc(0, 0, tile * 0.8, tile * 0.8, PI, PI + HALF_PI);
    pop();
  }

  // boxes
  for (const b of boxes) {
    drawBox(offX + b.x * tile + b.dx, offY + b.y * tile + b.dy, isGoal(b.x, b.y));
  }

  drawPlayer();
}

function insideLevel(x, y) {
  // a blank cell counts as floor if there is a wall on both sides of it in its row
  const line = LEVELS[levelIndex].map[y];
  const left = line.indexOf('#');
  const right = line.lastIndexOf('#');
  return x > left && x < right;
}

function drawWall(px, py) {
  noStroke();
  fill(88, 78, 110);
  rect(px, py, tile, tile);
  fill(112, 102, 138);
  rect(px, py, tile, tile * 0.22);
  fill(66, 58, 84);
  rect(px, py + tile * 0.8, tile, tile * 0.2);
  // brick lines
  stroke(60, 52, 78);
  strokeWeight(1.5);
  line(px, py + tile * 0.5, px + tile, py + tile * 0.5);
  line(px + tile * 0.5, py + tile * 0.22, px + tile * 0.5, py + tile * 0.5);
  line(px + tile * 0.25, py + tile * 0.5, px + tile * 0.25, py + tile * 0.8);
  line(px + tile * 0.75, py + tile * 0.5, px + tile * 0.75, py + tile * 0.8);
}

function drawBox(px, py, onGoal) {
  const m = tile * 0.1;
  const s = tile - m * 2;
  noStroke();
  fill(0, 0, 0, 70);
  rect(px + m + 3, py + m + 4, s, s, 6);
  const base = onGoal ? color(110, 210, 120) : palette.box;
  const dark = lerpColor(base, color(0), 0.35);
  fill(base);
  stroke(dark);
  strokeWeight(3);
  rect(px + m, py + m, s, s, 6);
  // cross planks
  strokeWeight(2.5);
  line(px + m + 5, py + m + 5, px + m + s - 5, py + m + s - 5);
  line(px + m + s - 5, py + m + 5, px + m + 5, py + m + s - 5);
  noFill();
  strokeWeight(1);
  stroke(255, 255, 255, 90);
  rect(px + m + 4, py + m + 4, s - 8, s - 8, 3);
  if (onGoal) {
    noStroke();
    fill(255, 255, 255, 160);
    ellipse(px + tile / 2, py + tile / 2, tile * 0.18, tile * 0.18);
  }
}

function drawPlayer() {
  const cx = offX + (player.x + 0.5) * tile;
  const cy = offY + (player.y + 0.5) * tile;
  const wobble = player.bump > 0 ? sin(player.bump * 2) * 2 : 0;
  const r = tile * 0.7;
  noStroke();
  fill(0, 0, 0, 80);
  ellipse(cx + 2, cy + r * 0.45, r * 0.9, r * 0.3);

  push();
  translate(cx + wobble, cy + sin(frameCounter * 0.15) * 1.5);
  rotate(player.dir);
  // body
  fill(80, 170, 250);
  stroke(30, 80, 150);
  strokeWeight(2);
  ellipse(0, 0, r, r);
  // visor facing the move direction
  noStroke();
  fill(230, 245, 255);
  arc(r * 0.12, 0, r * 0.6, r * 0.6, -QUARTER_PI, QUARTER_PI, PIE);
  fill(20, 30, 50);
  ellipse(r * 0.28, -r * 0.1, r * 0.1, r * 0.1);
  ellipse(r * 0.28, r * 0.1, r * 0.1, r * 0.1);
  pop();
}

function drawParticles() {
  noStroke();
  for (const p of particles) {
    const a = map(p.life, 0, p.maxLife, 0, 255);
    fill(red(p.c), green(p.c), blue(p.c), a);
    ellipse(p.x, p.y, p.size, p.size);
  }
}

function drawHUD() {
  // translucent top panel
  noStroke();
  fill(10, 12, 24, 190);
  rect(8, 8, W - 16, HUD_H - 14, 12);
  stroke(255, 255, 255, 40);
  strokeWeight(1);
  noFill();
  rect(8, 8, W - 16, HUD_H - 14, 12);

  // level title
  noStroke();
  textAlign(LEFT, TOP);
  textStyle(BOLD);
  textSize(20);
  fill(255, 220, 120);
  text(LEVELS[levelIndex].title, 20, 14);
  textStyle(NORMAL);
  textSize(12);
  fill(190, 195, 220);
  text("Level " + (levelIndex + 1) + " of " + LEVELS.length, 20, 40);

  // moves / best panel
  const bx = W - 170;
  fill(255, 255, 255, 25);
  rect(bx, 14, 150, 42, 8);
  textAlign(CENTER, TOP);
  textSize(10);
  fill(170, 175, 200);
  text("MOVES", bx + 38, 18);
  text("BEST", bx + 112, 18);
  textStyle(BOLD);
  textSize(18);
  fill(255);
  text(moves, bx + 38, 31);
  fill(140, 230, 160);
  text(bestMoves[levelIndex], bx + 112, 31);
  stroke(255, 255, 255, 60);
  strokeWeight(1);
  line(bx + 75, 20, bx + 75, 50);

  // score and lives in the middle
  noStroke();
  textStyle(BOLD);
  textSize(14);
  fill(255);
  textAlign(CENTER, TOP);
  text("SCORE " + score, W / 2 - 10, 16);
  for (let i = 0; i < 3; i++) {
    fill(i < lives ? color(255, 90, 110) : color(80, 60, 70));
    ellipse(W / 2 - 30 + i * 20, 44, 12, 12);
  }

  // time bar along the bottom
  const t = levelTimer / LEVEL_TIME;
  noStroke();
  fill(0, 0, 0, 120);
  rect(20, H - 16, W - 40, 8, 4);
  fill(lerpColor(color(240, 80, 80), color(90, 220, 140), t));
  rect(20, H - 16, (W - 40) * t, 8, 4);
  textStyle(NORMAL);
}

function drawOverlay() {
  if (flash > 0) {
    noStroke();
    fill(255, 60, 60, flash * 6);
    rect(0, 0, W, H);
  }

  if (levelDoneTimer > 0 && gameState === 'playing') {
    noStroke();
    fill(0, 0, 0, 120);
    rect(0, H / 2 - 30, W, 60);
    textAlign(CENTER, CENTER);
    textStyle(BOLD);
    textSize(28);
    fill(140, 255, 170);
    text("LEVEL CLEAR!", W / 2, H / 2);
    textStyle(NORMAL);
  }

  if (gameState === 'gameover' || gameState === 'won') {
    noStroke();
    fill(0, 0, 0, 170);
    rect(0, 0, W, H);
    fill(30, 34, 60, 220);
    stroke(255, 255, 255, 80);
    strokeWeight(2);
    rect(W / 2 - 150, H / 2 - 70, 300, 140, 16);
    noStroke();
    textAlign(CENTER, CENTER);
    textStyle(BOLD);
    textSize(32);
    fill(gameState === 'won' ? color(140, 255, 170) : color(255, 100, 110));
    text(gameState === 'won' ? "ALL CLEAR" : "GAME OVER", W / 2, H / 2 - 25);
    textStyle(NORMAL);
    textSize(16);
    fill(230);
    text("Final score: " + score, W / 2, H / 2 + 15);
    textSize(11);
    fill(170);
    text("thanks for playing", W / 2, H / 2 + 42);
  }
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}
