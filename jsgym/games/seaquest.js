// Seaquest: a clone of Atari 2600 Seaquest (Activision), as in the ALE task.
//
// The agent's yellow submarine patrols four lanes of sea under the surface.
// Sharks and enemy subs cross the lanes in groups (enemy subs fire back);
// torpedo them for points. Divers swim along too: touch them to pick them up
// (six at most). Oxygen runs down under water: surface to refill it. Surfacing
// with no diver aboard costs a life; with one to five, one diver leaves; with
// all six, they are all cashed in with the oxygen left and the next level (faster
// enemies, more points) begins. Touching an enemy, an enemy torpedo, or running
// out of oxygen costs a life.
//
// Canvas: 400x400.
// Actions (default table):
//   0 NOOP; 1 LEFT, 2 RIGHT, 3 UP, 4 DOWN held: move the sub (LEFT/RIGHT also
//   turn it); 5 SPACE tapped: fire a torpedo the way the sub faces (one at a
//   time); 6 LEFT + fire; 7 RIGHT + fire.
// Scoring: shark or sub 20 + 10 per level (max 90); cashing in six divers:
//   50 x level per diver + 20 per unit of oxygen left. No negative rewards.
// Termination: 'gameover' when the last life is lost; 'won' is never used.
//   lives = subs left (4 at the start).
// GAME_OPTIONS keys (defaults):
//   lives: 4            subs per game
//   subSpeed: 3         px/frame
//   torpedoSpeed: 9     px/frame
//   enemySpeed: 1.2     lane speed in level 1 (+0.3 per level)
//   oxygen: 64          oxygen units when full
//   oxygenFrames: 8     frames per unit used under water
//   enemyFire: 0.008    chance per frame that a visible enemy sub fires
//   diverChance: 0.4    chance that a group brings a diver
// Simplifications: no surface patrol sub, groups are 1-3 of one kind, divers
//   are kept when a sub is lost, no oxygen-refill animation (refill is fast and
//   the sub can dive again at once).

const W = 400;
const H = 400;
const OPT = Object.assign({
  lives: 4,
  subSpeed: 3,
  torpedoSpeed: 9,
  enemySpeed: 1.2,
  oxygen: 64,
  oxygenFrames: 8,
  enemyFire: 0.008,
  diverChance: 0.4,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const SURFACE = 96;                      // sub centre y when surfaced
const BOTTOM = 330;                      // lowest sub centre y
const LANE_Y = [126, 176, 226, 276];     // lane centre lines
const SUB_W = 32, SUB_H = 14, EN_W = 30, EN_H = 18, DIV_W = 20, DIV_H = 12;
const START = { x: 184, y: 118 };

let rng;
let score, lives, gameState, level;
let sx, sy, face, dying, oxygen, oxyTimer, divers, surfaced;
let torp;                                // {x, y, dx} or null
let etorps;                              // enemy torpedoes [{x, y, dx}]
let lanes;                               // [{dir, items: [{x, kind}], timer}]
let fireRequest;

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
  divers = 0;
  respawn();
}

function respawn() {
  sx = START.x; sy = START.y; face = 1;
  dying = 0;
  oxygen = OPT.oxygen;
  oxyTimer = 0;
  surfaced = false;
  torp = null;
  etorps = [];
  fireRequest = false;
  lanes = [];
  for (let i = 0; i < 4; i++) lanes.push({ dir: 1, items: [], timer: 5 + i * 15 + Math.floor(rng() * 20) });
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) fireRequest = true;
}

function laneSpeed() { return OPT.enemySpeed + 0.3 * (level - 1); }
// Math.abs/min rather than p5's abs/min: same results, without p5's JS wrapper
// (a call per item and frame here)
function killPoints() { return Math.min(20 + 10 * (level - 1), 90); }
function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
  return Math.abs(ax - bx) * 2 < aw + bw && Math.abs(ay - by) * 2 < ah + bh;   // centre-based boxes
}

function spawnGroup(l) {
  const lane = lanes[l];
  lane.dir = rng() < 0.5 ? 1 : -1;
  const kind = rng() < 0.5 ? 'shark' : 'sub';
  const n = 1 + Math.floor(rng() * 3);
  const x0 = lane.dir > 0 ? -EN_W : W + EN_W;
  lane.items = [];
  for (let i = 0; i < n; i++) lane.items.push({ x: x0 - lane.dir * i * 56, kind: kind });
  if (rng() < OPT.diverChance) lane.items.push({ x: x0 - lane.dir * n * 56, kind: 'diver' });
}

function die() {
  lives -= 1;
  if (lives <= 0) { lives = 0; gameState = 'gameover'; return; }
  dying = 40;
}

function surfaceRules() {
  // called once when the sub reaches the surface
  if (divers === 0) { die(); return; }
  if (divers >= 6) {
    score += 50 * level * divers + 20 * oxygen;
    divers = 0;
    level += 1;
  } else divers -= 1;
  oxygen = OPT.oxygen;
  for (let l = 0; l < lanes.length; l++) { const lane = lanes[l]; lane.items = []; lane.timer = 20 + Math.floor(rng() * 40); }
  etorps = [];
}

function updateSub() {
  if (keyIsDown(LEFT_ARROW)) { sx -= OPT.subSpeed; face = -1; }
  if (keyIsDown(RIGHT_ARROW)) { sx += OPT.subSpeed; face = 1; }
  if (keyIsDown(UP_ARROW)) sy -= OPT.subSpeed;
  if (keyIsDown(DOWN_ARROW)) sy += OPT.subSpeed;
  sx = constrain(sx, 20, W - 20);
  sy = constrain(sy, SURFACE, BOTTOM);
  if (sy <= SURFACE) {
    if (!surfaced) { surfaced = true; surfaceRules(); }
    if (oxygen < OPT.oxygen) oxygen = Math.min(OPT.oxygen, oxygen + 2);
  } else {
    surfaced = false;
    oxyTimer += 1;
    if (oxyTimer >= OPT.oxygenFrames) {
      oxyTimer = 0;
      oxygen -= 1;
      if (oxygen <= 0) { oxygen = 0; die(); return; }
    }
  }
  if (fireRequest && !torp && !surfaced) torp = { x: sx + face * SUB_W / 2, y: sy, dx: face * OPT.torpedoSpeed };
}

function updateLanes() {
  const v = laneSpeed();
  for (let l = 0; l < 4; l++) {
    const lane = lanes[l];
    if (lane.items.length === 0) {
      if (--lane.timer <= 0) { spawnGroup(l); lane.timer = 15 + Math.floor(rng() * 40); }
      continue;
    }
    for (let i = lane.items.length - 1; i >= 0; i--) {
      const it = lane.items[i];
      it.x += lane.dir * (it.kind === 'diver' ? v * 0.7 : v);
      const gone = lane.dir > 0 ? it.x > W + 200 : it.x < -200;
      if (gone) { lane.items.splice(i, 1); continue; }
      if (it.kind === 'sub' && it.x > 0 && it.x < W && rng() < OPT.enemyFire) {
        etorps.push({ x: it.x, y: LANE_Y[l], dx: lane.dir * (v + 3) });
      }
      const w = it.kind === 'diver' ? DIV_W : EN_W, h = it.kind === 'diver' ? DIV_H : EN_H;
      if (torp && it.kind !== 'diver' && overlap(torp.x, torp.y, 16, 6, it.x, LANE_Y[l], w, h)) {
        lane.items.splice(i, 1);
        torp = null;
        score += killPoints();
        continue;
      }
      if (overlap(sx, sy, SUB_W, SUB_H, it.x, LANE_Y[l], w, h)) {
        if (it.kind === 'diver') { if (divers < 6) { divers += 1; lane.items.splice(i, 1); } }
        else { die(); return; }
      }
    }
  }
}

function update() {
  if (gameState !== 'playing') return;
  if (dying > 0) { dying -= 1; if (dying === 0) respawn(); return; }
  updateSub();
  fireRequest = false;
  if (dying > 0 || gameState !== 'playing') return;
  if (torp) { torp.x += torp.dx; if (torp.x < -20 || torp.x > W + 20) torp = null; }
  for (let i = etorps.length - 1; i >= 0; i--) {
    const t = etorps[i];
    t.x += t.dx;
    if (t.x < -20 || t.x > W + 20) etorps.splice(i, 1);
    else if (overlap(sx, sy, SUB_W, SUB_H, t.x, t.y, 12, 4)) { etorps.splice(i, 1); die(); return; }
  }
  updateLanes();
}

function drawSub(x, y, dir, r, g, b) {
  fill(r, g, b);
  rect(x - SUB_W / 2, y - SUB_H / 2 + 3, SUB_W, SUB_H - 3);
  rect(x - 5 - dir * 4, y - SUB_H / 2 - 3, 10, 7);              // tower
}

function draw() {
  update();
  background(12, 30, 110);                                      // sea
  noStroke();
  fill(30, 50, 160);                                            // sky band above the surface
  rect(0, 0, W, SURFACE - 6);
  fill(90, 140, 230);                                           // waves
  rect(0, SURFACE - 6, W, 4);
  fill(110, 100, 90);                                           // seabed
  rect(0, BOTTOM + 14, W, H - BOTTOM - 14);
  // lanes' contents
  for (let l = 0; l < 4; l++) {
    const y = LANE_Y[l], d = lanes[l].dir, items = lanes[l].items;
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (it.kind === 'shark') {
        fill(90, 220, 110);
        rect(it.x - EN_W / 2, y - EN_H / 2 + 4, EN_W, EN_H - 8);
        triangle(it.x - d * EN_W / 2, y, it.x - d * (EN_W / 2 + 10), y - 9, it.x - d * (EN_W / 2 + 10), y + 9);
        rect(it.x - 4, y - EN_H / 2, 8, 5);
      } else if (it.kind === 'sub') {
        drawSub(it.x, y, d, 170, 170, 180);
      } else {
        fill(80, 220, 230);
        rect(it.x - DIV_W / 2, y - DIV_H / 2, DIV_W, DIV_H / 2 + 2);
        rect(it.x + d * 6 - 3, y - DIV_H / 2 - 4, 6, 6);
      }
    }
  }
  fill(255, 120, 60);
  for (let i = 0; i < etorps.length; i++) rect(etorps[i].x - 6, etorps[i].y - 2, 12, 4);
  if (torp) { fill(255, 255, 255); rect(torp.x - 8, torp.y - 3, 16, 6); }
  // the player's sub (red while sinking)
  if (dying > 0) drawSub(sx, sy, face, 230, 60, 60);
  else drawSub(sx, sy, face, 250, 220, 60);
  // HUD: oxygen bar, rescued divers, score, lives
  fill(40, 40, 60);
  rect(80, H - 30, 240, 12);
  fill(oxygen < 16 ? 240 : 240, oxygen < 16 ? 60 : 240, oxygen < 16 ? 60 : 240);
  rect(80, H - 30, 240 * oxygen / OPT.oxygen, 12);
  fill(80, 220, 230);
  for (let i = 0; i < divers; i++) rect(120 + i * 28, H - 14, 20, 10);
  fill(250, 220, 60);
  textSize(18);
  textAlign(LEFT, TOP);
  text(score, 10, 6);
  for (let i = 0; i < lives; i++) rect(W - 20 - i * 16, 10, 12, 8);
}
