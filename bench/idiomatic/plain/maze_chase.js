// Maze Chase - a Pac-Man-style maze game.
// Eat every pellet while four ghosts hunt you; power pellets turn the ghosts blue so you can eat them.
// Arrow keys steer through the maze (SPACE does nothing).

const TILE = 20;
const HUD_H = 30;
const LAYOUT = [
  "###################",
  "#o.......#.......o#",
  "#.##.###.#.###.##.#",
  "#.................#",
  "#.##.#.#####.#.##.#",
  "#....#...#...#....#",
  "####.### # ###.####",
  "   #.#       #.#   ",
  "####.# ##-## #.####",
  "    .  #GGG#  .    ",
  "####.# ##### #.####",
  "   #.#       #.#   ",
  "####.# ##### #.####",
  "#........#........#",
  "#.##.###.#.###.##.#",
  "#o.#.....P.....#.o#",
  "##.#.#.#####.#.#.##",
  "#....#...#...#....#",
  "#.######.#.######.#",
  "#.................#",
  "###################",
];
const COLS = LAYOUT[0].length;
const ROWS = LAYOUT.length;
const GHOST_COLORS = ['red', 'hotpink', 'cyan', 'orange'];

let grid = [];
let pac;
let ghosts = [];
let dirs = [];
let score = 0;
let lives = 3;
let gameState = 'playing';
let rng;
let pelletsLeft = 0;
let frightTimer = 0;
let ghostCombo = 0;
let pauseTimer = 0;
let startTile;
let ghostHome = [];

function mulberry32(a) {
  return function() {
    a |= 0; a = a + 0x6D2B79F5 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}

function wrapCol(c) {
  return (c + COLS) % COLS;
}

function tileAt(col, row) {
  if (row < 0 || row >= ROWS) return '#';
  return grid[row][wrapCol(col)];
}

class Mover {
  constructor(col, row, speed) {
    this.col = col;
    this.row = row;
    this.dir = createVector(0, 0);
    this.t = 0;
    this.speed = speed;
  }

  canMove(d) {
    let ch = tileAt(this.col + d.x, this.row + d.y);
    return ch !== '#' && ch !== '-';
  }

  // turn around on the spot, even between two tiles
  reverse() {
    this.col = wrapCol(this.col + this.dir.x);
    this.row += this.dir.y;
    this.dir.mult(-1);
    this.t = 1 - this.t;
  }

  // move along this.dir; returns true when a new tile centre is reached
  step() {
    if (this.dir.mag() === 0) return false;
    this.t += this.speed / TILE;
    if (this.t >= 1 - 1e-6) {
      this.col = wrapCol(this.col + this.dir.x);
      this.row += this.dir.y;
      this.t = 0;
      return true;
    }
    return false;
  }

  get x() { return (this.col + this.dir.x * this.t + 0.5) * TILE; }
  get y() { return (this.row + this.dir.y * this.t + 0.5) * TILE + HUD_H; }
}

class Pacman extends Mover {
  constructor(col, row) {
    super(col, row, 2.5);
    this.facing = 0;
    this.mouth = 0;
  }

  update() {
    let want = null;
    if (keyIsDown(LEFT_ARROW)) want = dirs[2];
    else if (keyIsDown(RIGHT_ARROW)) want = dirs[3];
    else if (keyIsDown(UP_ARROW)) want = dirs[0];
    else if (keyIsDown(DOWN_ARROW)) want = dirs[1];

    // reversing is allowed at any time, even between tiles
    if (want && this.t > 0 && want.x === -this.dir.x && want.y === -this.dir.y) {
      this.reverse();
    }
    if (this.t === 0) {
      if (want && this.canMove(want)) this.dir = want.copy();
      if (!this.canMove(this.dir)) this.dir = createVector(0, 0);
    }
    if (this.dir.mag() > 0) {
      this.facing = this.dir.heading();
      this.mouth += 0.25;
    }
    if (this.step()) eatAt(this.col, this.row);
  }

  show() {
    let open = abs(sin(this.mouth)) * 0.8 + 0.05;
    fill('gold');
    noStroke();
    push();
    translate(this.x, this.y);
    rotate(this.facing);
    arc(0, 0, TILE - 2, TILE - 2, open, TWO_PI - open, PIE);
    pop();
  }
}

class Ghost extends Mover {
  constructor(col, row, index) {
    super(col, row, 2);
    this.index = index;
    this.home = createVector(col, row);
    this.col0 = GHOST_COLORS[index];
    this.mode = 'waiting';
    this.waitTimer = 40 + index * 80;
    this.chaseChance = [0.9, 0.75, 0.6, 0.45][index];
  }

  sendHome(delay) {
    this.col = this.home.x;
    this.row = this.home.y;
    this.t = 0;
    this.dir = createVector(0, 0);
    this.mode = 'waiting';
    this.waitTimer = delay;
  }

  canMove(d) {
    // the ghost-house door only lets ghosts out
    let ch = tileAt(this.col + d.x, this.row + d.y);
    return ch !== '#' && (ch !== '-' || d.y < 0);
  }

  target() {
    if (this.mode === 'leaving') return createVector(9, 7);
    // the pink ghost aims a few tiles ahead of the player, the others straight at it
    let ahead = this.index === 1 ? 4 : 0;
    return createVector(pac.col + pac.dir.x * ahead, pac.row + pac.dir.y * ahead);
  }

  chooseDir() {
    let options = dirs.filter(d => this.canMove(d) && !(d.x === -this.dir.x && d.y === -this.dir.y));
    if (options.length === 0) options = dirs.filter(d => this.canMove(d));
    if (options.length === 0) return;
    if (this.mode === 'leaving' || (frightTimer === 0 && random() < this.chaseChance)) {
      let goal = this.target();
      let distTo = d => dist(this.col + d.x, this.row + d.y, goal.x, goal.y);
      let best = options.reduce((a, b) => (distTo(b) < distTo(a) ? b : a));
      this.dir = best.copy();
    } else {
      this.dir = random(options).copy();
    }
  }

  update() {
    if (this.mode === 'waiting') {
      this.waitTimer--;
      if (this.waitTimer <= 0) this.mode = 'leaving';
      return;
    }
    this.speed = frightTimer > 0 && this.mode === 'active' ? 1.25 : 2;
    if (this.t === 0) this.chooseDir();
    if (this.step() && this.mode === 'leaving' && this.row <= 7) {
      this.mode = 'active';
    }
  }

  isFrightened() {
    return frightTimer > 0 && this.mode === 'active';
  }

  show() {
    let x = this.x;
    let y = this.y;
    if (this.mode === 'waiting') y += sin(frameCount * 0.2 + this.index) * 2;
    let body = color(this.col0);
    if (this.isFrightened()) {
      // flash between blue and white when the power pellet is wearing off
      let flash = frightTimer < 120 ? (sin(frameCount * 0.4) + 1) / 2 : 0;
      body = lerpColor(color('mediumblue'), color('white'), flash);
    }
    noStroke();
    fill(body);
    arc(x, y - 1, TILE - 4, TILE - 4, PI, TWO_PI);
    rect(x - (TILE - 4) / 2, y - 1, TILE - 4, 7);
    for (let i = 0; i < 3; i++) {
      let sx = x - 8 + i * 16 / 3;
      triangle(sx, y + 6, sx + 16 / 3, y + 6, sx + 8 / 3, y + 9);
    }
    // eyes look where the ghost is heading
    fill(255);
    ellipse(x - 3, y - 2, 5, 6);
    ellipse(x + 3, y - 2, 5, 6);
    fill(this.isFrightened() ? 'white' : 'navy');
    ellipse(x - 3 + this.dir.x * 1.5, y - 2 + this.dir.y * 1.5, 2.5);
    ellipse(x + 3 + this.dir.x * 1.5, y - 2 + this.dir.y * 1.5, 2.5);
  }
}

function setup() {
  createCanvas(COLS * TILE, ROWS * TILE + HUD_H);
  resetGame(0);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  dirs = [createVector(0, -1), createVector(0, 1), createVector(-1, 0), createVector(1, 0)];
  score = 0;
  lives = 3;
  gameState = 'playing';
  frightTimer = 0;
  ghostCombo = 0;
  pauseTimer = 45;
  pelletsLeft = 0;
  ghostHome = [];

  grid = LAYOUT.map(line => line.split(''));
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      let ch = grid[r][c];
      if (ch === '.' || ch === 'o') pelletsLeft++;
      if (ch === 'P') {
        startTile = createVector(c, r);
        grid[r][c] = ' ';
      }
      if (ch === 'G') {
        ghostHome.push(createVector(c, r));
        grid[r][c] = ' ';
      }
    }
  }
  // pick which ghost starts where from the seed
  ghostHome = shuffle(ghostHome);
  pac = new Pacman(startTile.x, startTile.y);
  ghosts = GHOST_COLORS.map((c, i) => {
    let home = ghostHome[i % ghostHome.length];
    return new Ghost(home.x, home.y, i);
  });
}

function eatAt(col, row) {
  let ch = grid[row][col];
  if (ch === '.') {
    score += 10;
  } else if (ch === 'o') {
    score += 50;
    frightTimer = 360;
    ghostCombo = 0;
    ghosts.forEach(g => {
      if (g.mode === 'active' && g.t > 0) g.reverse();
    });
  } else {
    return;
  }
  grid[row][col] = ' ';
  pelletsLeft--;
  if (pelletsLeft === 0) gameState = 'won';
}

function loseLife() {
  lives--;
  if (lives <= 0) {
    gameState = 'gameover';
    return;
  }
  pac = new Pacman(startTile.x, startTile.y);
  ghosts.forEach((g, i) => g.sendHome(40 + i * 80));
  frightTimer = 0;
  pauseTimer = 60;
}

function updateGame() {
  if (pauseTimer > 0) {
    pauseTimer--;
    return;
  }
  pac.update();
  ghosts.forEach(g => g.update());
  if (frightTimer > 0) frightTimer--;

  for (let g of ghosts) {
    if (g.mode === 'waiting') continue;
    if (dist(pac.x, pac.y, g.x, g.y) < TILE * 0.7) {
      if (g.isFrightened()) {
        ghostCombo++;
        score += 100 * pow(2, ghostCombo);
        g.sendHome(90);
      } else {
        loseLife();
        break;
      }
    }
  }
}

function drawMaze() {
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      let ch = grid[r][c];
      let x = c * TILE;
      let y = r * TILE + HUD_H;
      if (ch === '#') {
        fill('#1a1a8c');
        stroke('#4040ff');
        strokeWeight(1);
        rect(x + 1, y + 1, TILE - 2, TILE - 2, 4);
      } else if (ch === '-') {
        stroke('pink');
        strokeWeight(3);
        line(x, y + TILE / 2, x + TILE, y + TILE / 2);
      } else if (ch === '.') {
        noStroke();
        fill('#ffd8b0');
        ellipse(x + TILE / 2, y + TILE / 2, 4);
      } else if (ch === 'o') {
        noStroke();
        fill('#ffd8b0');
        ellipse(x + TILE / 2, y + TILE / 2, 10 + sin(frameCount * 0.2) * 3);
      }
    }
  }
}

function drawHud() {
  noStroke();
  fill('white');
  textSize(16);
  textAlign(LEFT, CENTER);
  text('SCORE ' + score, 8, HUD_H / 2);
  textAlign(CENTER, CENTER);
  text(`PELLETS ${pelletsLeft}`, width / 2, HUD_H / 2);
  // remaining lives as little pac-men
  fill('gold');
  for (let i = 0; i < lives; i++) {
    arc(width - 16 - i * 20, HUD_H / 2, 14, 14, PI + QUARTER_PI, PI - QUARTER_PI, PIE);
  }
  let messages = { won: ['YOU WIN!', 'lime'], gameover: ['GAME OVER', 'red'] };
  if (pauseTimer > 0 && gameState === 'playing') messages.playing = ['READY!', 'yellow'];
  let msg = messages[gameState];
  if (msg) {
    textAlign(CENTER, CENTER);
    fill(msg[1]);
    text(msg[0], width / 2, 11.5 * TILE + HUD_H);
  }
}

function draw() {
  if (gameState === 'playing') {
    updateGame();
  }
  background(0);
  drawMaze();
  ghosts.forEach(g => g.show());
  pac.show();
  drawHud();
}

function getGameState() {
  return { score, lives, gameState };
}
