// The last life never ends the episode: lives reach 0, play goes on, and a timer
// then declares 'won'.
let rng, score, lives, t, bx;
function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }
function setup() { createCanvas(100, 100); }
function resetGame(seed) { rng = mulberry32(seed); score = 0; lives = 3; t = 0; bx = 50; }
function draw() {
  t++;
  if (keyIsDown(LEFT_ARROW)) bx -= 2;
  if (keyIsDown(RIGHT_ARROW)) bx += 2;
  if (t % 20 === 0) { if (Math.abs(bx - 50) < 10) score++; else lives = Math.max(0, lives - 1); }
  background(10); fill(250, 200, 0); rect(bx - 5, 80, 10, 10); fill(100); rect(45, 10, 10, 10);
}
function getGameState() { return {score, lives, gameState: t >= 600 ? 'won' : 'playing'}; }
