// Frostbite: a clone of Atari 2600 Frostbite (Activision), as in the ALE task.
//
// Frostbite Bailey builds an igloo on the shore by jumping up and down across
// four rows of drifting ice floes. Landing on a row of white floes turns the
// row blue, scores, and adds a block to the igloo; when all four rows are blue
// they turn white again. With the igloo complete (16 blocks) Bailey walks into
// it for a bonus for every degree left on the falling thermometer and moves on
// to a faster level. Falling in the water or freezing (temperature 0) costs a
// life; snow geese drifting over the floes shove Bailey sideways.
//
// Canvas: 400x400.
// Actions (default table):
//   0 NOOP; 1 LEFT held / 2 RIGHT held: walk; 3 UP: jump up a row (to the shore
//   from the top row); 4 DOWN: jump down a row; 5 SPACE tapped: reverse the
//   floes under Bailey (costs one igloo block, needs one); 6 LEFT + SPACE;
//   7 RIGHT + SPACE. A held UP/DOWN jumps again after each landing.
// Scoring: 10 x level per row turned blue; on entering the finished igloo,
//   15 x level per degree left. No negative rewards.
// Termination: 'gameover' when the last life is lost; 'won' is never used.
//   lives = lives left (4 at the start).
// GAME_OPTIONS keys (defaults):
//   lives: 4            lives per game
//   floeSpeed: 1        floe speed in level 1 (px/frame); +25% per level
//   startTemp: 45       degrees at the start of each life / level
//   tempFrames: 40      frames per degree
//   blocks: 16          igloo blocks needed
//   walkSpeed: 3        px/frame walking
//   geese: true         snow geese over the floes
// Simplifications: no fish, crabs, clams or polar bear, floes do not "breathe"
//   (split apart) on higher levels, one goose at a time.

const W = 400;
const H = 400;
const OPT = Object.assign({
  lives: 4,
  floeSpeed: 1,
  startTemp: 45,
  tempFrames: 40,
  blocks: 16,
  walkSpeed: 3,
  geese: true,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const SHORE_Y = 120;                 // Bailey's feet on the shore
const ROW_Y = [180, 230, 280, 330];  // floe top surfaces
const FLOE_W = 96, FLOE_H = 14, FLOES = 4, SPAN = W + 112;
const P_W = 16, P_H = 28;
const JUMP = 10;                     // frames per jump
const IGLOO_X = 300;                 // igloo left edge (door around its middle)
const START_X = 120;

let rng;
let score, lives, gameState, level;
let row;                             // -1 = shore, 0..3 = floe rows (during a jump: target)
let fromRow, jumpT, px;
let floes;                           // floes[r] = {x0, dir, blue}
let blocks, temp, tempTimer, dying, goose, gooseTimer;
let reverseRequest;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = OPT.lives;
  gameState = 'playing';
  level = 1;
  blocks = 0;
  newLevel();
}

function newLevel() {
  floes = [];
  for (let r = 0; r < 4; r++) floes.push({ x0: Math.floor(rng() * SPAN), dir: r % 2 === 0 ? 1 : -1, blue: false });
  blocks = 0;
  respawn();
}

function respawn() {
  row = -1; fromRow = -1; jumpT = 0;
  px = START_X;
  temp = OPT.startTemp;
  tempTimer = 0;
  dying = 0;
  goose = null;
  gooseTimer = 120;
  reverseRequest = false;
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) reverseRequest = true;
}

function speed() { return OPT.floeSpeed * (1 + 0.25 * (level - 1)); }
function rowY(r) { return r < 0 ? SHORE_Y : ROW_Y[r]; }

// left edge of floe k of row r, wrapped into [-FLOE_W, SPAN - FLOE_W)
function floeX(r, k) {
  let x = (floes[r].x0 + k * SPAN / FLOES) % SPAN;
  if (x < 0) x += SPAN;
  return x - FLOE_W;
}

function onFloe(r, x) {
  const cx = x + P_W / 2;
  for (let k = 0; k < FLOES; k++) {
    const fx = floeX(r, k);
    if (cx >= fx && cx <= fx + FLOE_W) return true;
  }
  return false;
}

function die() {
  lives -= 1;
  if (lives <= 0) { lives = 0; gameState = 'gameover'; return; }
  dying = 30;
}

function land() {
  if (row < 0) return;                         // back on the shore
  if (!onFloe(row, px)) { die(); return; }     // splash
  const f = floes[row];
  if (!f.blue) {
    f.blue = true;
    score += 10 * level;
    if (blocks < OPT.blocks) blocks += 1;
    if (floes.every(ff => ff.blue)) for (const ff of floes) ff.blue = false;
  }
}

function update() {
  if (gameState !== 'playing') return;
  if (dying > 0) { dying -= 1; if (dying === 0) respawn(); return; }
  const v = speed();
  for (const f of floes) f.x0 = (f.x0 + f.dir * v + SPAN) % SPAN;

  if (jumpT > 0) {
    jumpT -= 1;
    if (jumpT === 0) land();
  } else {
    // carried by the floe, walking, jumping
    if (row >= 0) px += floes[row].dir * v;
    if (keyIsDown(LEFT_ARROW)) px -= OPT.walkSpeed;
    if (keyIsDown(RIGHT_ARROW)) px += OPT.walkSpeed;
    px = constrain(px, 0, W - P_W);
    if (row >= 0 && reverseRequest && blocks > 0) { floes[row].dir = -floes[row].dir; blocks -= 1; }
    if (row >= 0 && !onFloe(row, px)) { die(); return; }     // pushed off the end
    if (keyIsDown(UP_ARROW) && row >= 0) { fromRow = row; row -= 1; jumpT = JUMP; }
    else if (keyIsDown(DOWN_ARROW) && row < 3) { fromRow = row; row += 1; jumpT = JUMP; }
    // the finished igloo: walk in through the door
    if (row === -1 && jumpT === 0 && blocks >= OPT.blocks && px + P_W / 2 > IGLOO_X + 24 && px + P_W / 2 < IGLOO_X + 56) {
      score += 15 * level * temp;
      level += 1;
      newLevel();
      return;
    }
  }
  reverseRequest = false;

  // snow goose: flies along one floe row and shoves Bailey
  if (OPT.geese) {
    if (goose) {
      goose.x += goose.dx;
      if (goose.x < -40 || goose.x > W + 40) goose = null;
      else if (jumpT === 0 && row === goose.row && abs(goose.x - (px + P_W / 2)) < 20) px += goose.dx * 2;
    } else if (--gooseTimer <= 0) {
      const r = Math.floor(rng() * 4);
      const dx = (rng() < 0.5 ? -1 : 1) * (1 + 0.5 * v);
      goose = { row: r, x: dx > 0 ? -30 : W + 30, dx: dx };
      gooseTimer = 90 + Math.floor(rng() * 120);
    }
  }

  // the thermometer
  tempTimer += 1;
  if (tempTimer >= OPT.tempFrames) {
    tempTimer = 0;
    temp -= 1;
    if (temp <= 0) { temp = 0; die(); }
  }
}

function playerY() {
  if (jumpT === 0) return rowY(row);
  const t = JUMP - jumpT;                      // 0..JUMP
  const y0 = rowY(fromRow), y1 = rowY(row);
  return y0 + (y1 - y0) * t / JUMP - 4 * 24 * t * (JUMP - t) / (JUMP * JUMP);
}

function draw() {
  update();
  background(16, 24, 96);                      // water
  noStroke();
  // shore
  fill(200, 200, 215);
  rect(0, 40, W, SHORE_Y - 40 + 10);
  // igloo: blocks in 4 rows of 4, the dome drawn as shrinking rows, door when finished
  for (let i = 0; i < blocks && i < 16; i++) {
    const r = Math.floor(i / 4), c = i % 4;
    const inset = r * 6;
    fill(i % 2 === 0 ? 120 : 90, i % 2 === 0 ? 160 : 130, 230);
    rect(IGLOO_X + inset + c * (80 - 2 * inset) / 4, SHORE_Y - 10 - r * 12, (80 - 2 * inset) / 4, 12);
  }
  if (blocks >= OPT.blocks) { fill(20, 20, 30); rect(IGLOO_X + 30, SHORE_Y - 22, 20, 22); }
  // floes
  for (let r = 0; r < 4; r++) {
    if (floes[r].blue) fill(90, 150, 240); else fill(240, 240, 245);
    for (let k = 0; k < FLOES; k++) rect(floeX(r, k), ROW_Y[r], FLOE_W, FLOE_H);
  }
  // goose
  if (goose) {
    fill(240, 90, 200);
    const gy = ROW_Y[goose.row] - 30;
    rect(goose.x - 14, gy, 28, 12);
    rect(goose.x + (goose.dx > 0 ? 8 : -14), gy - 6, 6, 8);
  }
  // Bailey (orange parka; blue while freezing to death or drowning)
  const y = playerY();
  fill(dying > 0 ? 80 : 240, dying > 0 ? 200 : 130, dying > 0 ? 255 : 40);
  rect(px, y - P_H, P_W, P_H);
  fill(250, 210, 170);
  rect(px + 3, y - P_H + 3, P_W - 6, 7);
  // HUD: thermometer bar (temperature), score, lives
  fill(240, 80, 60);
  rect(10, 10, temp * 4, 10);
  fill(250, 250, 250);
  textSize(18);
  textAlign(RIGHT, TOP);
  text(score, W - 60, 6);
  for (let i = 0; i < lives; i++) rect(W - 14 - i * 12, 10, 8, 10);
}
