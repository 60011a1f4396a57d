// VVVVVV: an original gravity-flipping platformer after Terry Cavanagh's VVVVVV.
//
// The cyan crewmate cannot jump: standing on a floor or a ceiling, he flips
// gravity and falls the other way. Each room (one screen, generated from the
// seed) has a floor, a ceiling, floating platforms, rows of white spikes on the
// floor and ceiling, red blocks sliding up and down, nine yellow trinkets and a
// checkpoint. Touching a spike or a red block kills; the crewmate reappears at
// the last checkpoint touched (or where he entered the room). Rooms form an
// endless corridor: leaving through the left or right edge enters the
// neighbouring room (each room is generated from the seed and its index, so
// going back shows the same room with its trinkets still taken).
//
// Canvas: 400x400.
// Actions (default table):
//   1 LEFT held / 2 RIGHT held: run (with a little momentum);
//   5 SPACE tapped / 3 UP held: flip gravity (only when standing on something);
//   6 LEFT + SPACE, 7 RIGHT + SPACE: run and flip; 0 NOOP and 4 DOWN: nothing.
// Scoring: +1 per trinket, +1 for touching a room's checkpoint the first time,
//   +5 for entering a room never visited before. No negative rewards.
// Termination: 'gameover' when the last life is lost or after `timeLimit`
//   frames; 'won' once `rooms` new rooms have been visited. lives = lives left.
// GAME_OPTIONS keys (defaults):
//   lives: 5            lives per game
//   gravity: 0.9        px/frame^2
//   maxFall: 10         px/frame
//   accel: 0.8          run acceleration (px/frame^2) while LEFT/RIGHT is held
//   friction: 0.95      speed kept per frame with no direction held
//   runSpeed: 5         top run speed (px/frame)
//   spikes: 3           spike rows in the start room (+1 per 2 rooms away, max 6)
//   movers: true        red sliding blocks (in every room but the start room)
//   rooms: 10           new rooms to visit to win (0 = endless)
//   timeLimit: 4000     frames before the game ends (0 = no limit)
// Simplifications: single-screen rooms joined left and right only, no
//   conveyors, no wrap-around rooms, finite lives, one checkpoint per room.

const W = 400;
const H = 400;
const OPT = Object.assign({
  lives: 5,
  gravity: 0.9,
  maxFall: 10,
  accel: 0.8,
  friction: 0.95,
  runSpeed: 5,
  spikes: 3,
  movers: true,
  rooms: 10,
  timeLimit: 4000,
}, typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {});

const CEIL_Y = 64;               // bottom edge of the ceiling
const FLOOR_Y = 344;             // top edge of the floor
const PW = 20, PH = 28;          // crewmate size
const SPIKE_W = 20, SPIKE_H = 18;
const TR = 22;                   // trinket size
const MV = 26;                   // mover size
const EDGE = 56;                 // hazard-free zone at each room edge
const PALETTE = [[150, 60, 200], [60, 90, 220], [70, 160, 80], [200, 120, 50], [200, 70, 150]];

let rng, worldSeed;
let score, lives, gameState, frames;
let roomIdx, visited, newRooms;  // current room index; visited[idx] = {taken:[], active}
let solids, spikes, trinkets, movers, checkpoint;
let px, py, vx, vy, gdir, grounded;
let spawn;                       // {x, y, gdir}
let dying, flipReq;

function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }

function setup() {
  createCanvas(W, H);
  resetGame(1);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  worldSeed = Math.floor(rng() * 2147483647);
  score = 0;
  lives = OPT.lives;
  gameState = 'playing';
  frames = 0;
  flipReq = false;
  visited = {};
  newRooms = 0;
  enterRoom(0);
  // start in the middle of the start room, on its (already active) checkpoint
  checkpoint.active = true;
  visited[0].active = true;
  spawn = { x: checkpoint.x - 3, y: FLOOR_Y - PH, gdir: 1 };
  respawn();
}

function getGameState() {
  return { score: score, lives: lives, gameState: gameState };
}

function keyPressed() {
  if (keyCode === 32) flipReq = true;
}

function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
  return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
}

// x ranges already used by spikes / the checkpoint, to keep a safe side everywhere
function freeRange(used, x0, x1) {
  for (const u of used) if (x0 < u[1] + 24 && x1 > u[0] - 24) return false;
  return true;
}

// build room `idx` from the world seed (the same room every time it is entered)
function enterRoom(idx) {
  roomIdx = idx;
  const r = mulberry32((worldSeed ^ Math.imul(idx, 0x9E3779B1)) | 0);
  const dist = abs(idx);
  solids = [{ x: 0, y: 0, w: W, h: CEIL_Y }, { x: 0, y: FLOOR_Y, w: W, h: H - FLOOR_Y }];
  spikes = [];
  trinkets = [];
  movers = [];
  const used = [];
  // checkpoint near the middle, on the floor (always in the start room) or the ceiling
  const cx = idx === 0 ? 193 : 150 + Math.floor(r() * 100);
  const cside = idx === 0 || r() < 0.5 ? 1 : -1;
  checkpoint = { x: cx, side: cside, active: false };
  used.push(idx === 0 ? [cx - 40, cx + 54] : [cx - 8, cx + 22]);
  // floating platforms (not in the start room's middle)
  const np = Math.floor(r() * 3);
  for (let i = 0; i < np; i++) {
    const w = 64 + 16 * Math.floor(r() * 4);
    const x = EDGE + 20 + Math.floor(r() * (W - 2 * EDGE - 40 - w));
    const y = 150 + Math.floor(r() * 90);
    let ok = !(idx === 0 && x < 250 && x + w > 150);
    for (const s of solids) if (s.y > 0 && s.y < FLOOR_Y && overlap(x - 30, y - 50, w + 60, 116, s.x, s.y, s.w, s.h)) ok = false;
    if (ok) solids.push({ x: x, y: y, w: w, h: 16 });
  }
  // spike rows: never floor and ceiling at the same x, none near the edges
  const ns = min(6, OPT.spikes + Math.floor(dist / 2));
  for (let i = 0; i < ns; i++) {
    for (let tries = 0; tries < 20; tries++) {
      const w = SPIKE_W * (2 + Math.floor(r() * 2));
      const x = EDGE + Math.floor(r() * (W - 2 * EDGE - w));
      if (!freeRange(used, x, x + w)) continue;
      used.push([x, x + w]);
      spikes.push({ x: x, w: w, side: r() < 0.5 ? 1 : -1 });
      break;
    }
  }
  // nine trinkets spread across the room; lanes: 0 ceiling, 1 middle, 2 floor
  for (let i = 0; i < 9; i++) {
    const x = 18 + i * 43 + Math.floor(r() * 10) - 5;
    let lane = Math.floor(r() * 3);
    if (idx === 0 && (i === 3 || i === 5)) lane = 1;       // two easy ones beside the start
    if (idx === 0 && i === 4) lane = 0;                    // and one straight above it
    let y = lane === 0 ? CEIL_Y + 10 : lane === 2 ? FLOOR_Y - 10 - TR : 200 - TR / 2;
    for (const s of solids) if (s.y > 0 && s.y < FLOOR_Y && overlap(x, y, TR, TR, s.x, s.y - 8, s.w, s.h + 16)) y = s.y - 34;
    trinkets.push({ x: x, y: y, taken: false });
  }
  // red sliding blocks away from the start room
  if (OPT.movers && idx !== 0) {
    const nm = dist >= 3 ? 2 : 1;
    for (let i = 0; i < nm; i++) {
      const x = EDGE + 30 + Math.floor(r() * (W - 2 * EDGE - 60 - MV));
      const y = CEIL_Y + Math.floor(r() * (FLOOR_Y - CEIL_Y - MV));
      const v = (1.5 + r()) * (r() < 0.5 ? -1 : 1);
      movers.push({ x: x, y: y, v: v });
    }
  }
  // what was already collected here
  if (!visited[idx]) visited[idx] = { taken: [], active: false };
  const v = visited[idx];
  for (const k of v.taken) trinkets[k].taken = true;
  checkpoint.active = v.active;
}

function respawn() {
  px = spawn.x; py = spawn.y; gdir = spawn.gdir;
  vx = 0; vy = 0;
  grounded = true;
  dying = 0;
}

function die() {
  lives -= 1;
  dying = 24;
  if (lives <= 0) { lives = 0; gameState = 'gameover'; }
}

// the checkpoint post is the box (checkpoint.x, checkpointY(), 16, 28)
function checkpointY() {
  return checkpoint.side > 0 ? FLOOR_Y - 28 : CEIL_Y;
}

// walk through the left or right edge into the neighbouring room
function changeRoom(d) {
  const fresh = !visited[roomIdx + d];
  enterRoom(roomIdx + d);
  if (fresh) {
    score += 5;
    newRooms += 1;
    if (OPT.rooms > 0 && newRooms >= OPT.rooms) { gameState = 'won'; return; }
  }
  px = d > 0 ? 0 : W - PW;
  spawn = { x: px, y: gdir > 0 ? FLOOR_Y - PH : CEIL_Y, gdir: gdir };
}

function update() {
  if (gameState !== 'playing') { flipReq = false; return; }
  frames += 1;
  if (OPT.timeLimit > 0 && frames >= OPT.timeLimit) { gameState = 'gameover'; return; }
  // (indexed loops, Math.abs: cheaper in the interpreter than for...of and p5's
  // abs wrapper, same results)
  for (let i = 0; i < movers.length; i++) {
    const m = movers[i];
    m.y += m.v;
    if (m.y < CEIL_Y) { m.y = CEIL_Y; m.v = Math.abs(m.v); }
    if (m.y + MV > FLOOR_Y) { m.y = FLOOR_Y - MV; m.v = -Math.abs(m.v); }
  }
  if (dying > 0) {
    dying -= 1;
    if (dying === 0) respawn();
    flipReq = false;
    return;
  }
  // run
  let dir = 0;
  if (keyIsDown(LEFT_ARROW)) dir -= 1;
  if (keyIsDown(RIGHT_ARROW)) dir += 1;
  if (dir !== 0) vx = constrain(vx + dir * OPT.accel, -OPT.runSpeed, OPT.runSpeed);
  else { vx *= OPT.friction; if (Math.abs(vx) < 0.05) vx = 0; }
  // flip
  if ((flipReq || keyIsDown(UP_ARROW)) && grounded) {
    gdir = -gdir;
    vy = gdir * 2;
    grounded = false;
  }
  flipReq = false;
  vy = constrain(vy + gdir * OPT.gravity, -OPT.maxFall, OPT.maxFall);
  // move x, then y, resolving against solids
  px += vx;
  for (let i = 0; i < solids.length; i++) {
    const s = solids[i];
    if (overlap(px, py, PW, PH, s.x, s.y, s.w, s.h)) {
      if (vx > 0) px = s.x - PW; else px = s.x + s.w;
      vx = 0;
    }
  }
  py += vy;
  grounded = false;
  for (let i = 0; i < solids.length; i++) {
    const s = solids[i];
    if (overlap(px, py, PW, PH, s.x, s.y, s.w, s.h)) {
      if (vy > 0) { py = s.y - PH; if (gdir > 0) grounded = true; }
      else { py = s.y + s.h; if (gdir < 0) grounded = true; }
      vy = 0;
    }
  }
  // neighbouring rooms
  if (px + PW / 2 > W) { changeRoom(1); return; }
  if (px + PW / 2 < 0) { changeRoom(-1); return; }
  // pickups
  for (let k = 0; k < trinkets.length; k++) {
    const t = trinkets[k];
    if (!t.taken && overlap(px, py, PW, PH, t.x, t.y, TR, TR)) { t.taken = true; visited[roomIdx].taken.push(k); score += 1; }
  }
  if (overlap(px, py, PW, PH, checkpoint.x, checkpointY(), 16, 28)) {
    if (!checkpoint.active) { checkpoint.active = true; visited[roomIdx].active = true; score += 1; }
    spawn = { x: checkpoint.x - 2, y: checkpoint.side > 0 ? FLOOR_Y - PH : CEIL_Y, gdir: checkpoint.side };
  }
  // hazards (hitboxes a little smaller than drawn)
  for (let i = 0; i < spikes.length; i++) {
    const s = spikes[i];
    const y = s.side > 0 ? FLOOR_Y - SPIKE_H + 4 : CEIL_Y;
    if (overlap(px + 2, py, PW - 4, PH, s.x + 3, y, s.w - 6, SPIKE_H - 4)) { die(); return; }
  }
  for (let i = 0; i < movers.length; i++) {
    const m = movers[i];
    if (overlap(px + 2, py + 2, PW - 4, PH - 4, m.x, m.y, MV, MV)) { die(); return; }
  }
}

function draw() {
  update();
  background(10, 10, 26);
  noStroke();
  const col = PALETTE[((roomIdx % PALETTE.length) + PALETTE.length) % PALETTE.length];
  // solids
  fill(col[0], col[1], col[2]);
  for (let i = 0; i < solids.length; i++) rect(solids[i].x, solids[i].y, solids[i].w, solids[i].h);
  // spikes: white triangles pointing away from their surface
  fill(235, 235, 245);
  for (let i = 0; i < spikes.length; i++) {
    const s = spikes[i];
    for (let x = s.x; x + SPIKE_W <= s.x + s.w; x += SPIKE_W) {
      if (s.side > 0) triangle(x, FLOOR_Y, x + SPIKE_W, FLOOR_Y, x + SPIKE_W / 2, FLOOR_Y - SPIKE_H);
      else triangle(x, CEIL_Y, x + SPIKE_W, CEIL_Y, x + SPIKE_W / 2, CEIL_Y + SPIKE_H);
    }
  }
  // checkpoint: grey post, white once touched
  const cx = checkpoint.x, cy = checkpointY();
  if (checkpoint.active) fill(250, 250, 250); else fill(110, 110, 130);
  rect(cx, cy, 16, 28);
  fill(10, 10, 26);
  rect(cx + 6, cy + 9, 10, 10);
  // trinkets: yellow diamonds
  fill(250, 220, 40);
  for (let i = 0; i < trinkets.length; i++) {
    const t = trinkets[i];
    if (t.taken) continue;
    quad(t.x + TR / 2, t.y, t.x + TR, t.y + TR / 2, t.x + TR / 2, t.y + TR, t.x, t.y + TR / 2);
  }
  // movers
  for (let i = 0; i < movers.length; i++) {
    const m = movers[i];
    fill(230, 50, 50);
    rect(m.x, m.y, MV, MV);
    fill(120, 20, 20);
    rect(m.x + 7, m.y + 7, MV - 14, MV - 14);
  }
  // crewmate: cyan, eyes on the side facing "up"
  if (dying === 0 || dying % 6 < 3) {
    if (dying > 0) fill(250, 80, 80); else fill(90, 230, 240);
    rect(px, py, PW, PH);
    fill(10, 10, 26);
    const ey = gdir > 0 ? py + 6 : py + PH - 11;
    rect(px + 4, ey, 4, 5);
    rect(px + 12, ey, 4, 5);
  }
  // HUD on the ceiling band: score, lives
  fill(250, 250, 250);
  textSize(20);
  textAlign(LEFT, TOP);
  text(score, 10, 8);
  fill(90, 230, 240);
  for (let i = 0; i < lives; i++) rect(W - 18 - i * 14, 12, 8, 12);
}
