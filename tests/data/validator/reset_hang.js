// resetGame(seed) loops forever for one seed in 50 (seed % 50 == 37).
let rng, score, x, steps;
function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }
function setup() { createCanvas(100, 100); }
function resetGame(seed) {
  rng = mulberry32(seed); score = 0; steps = 0;
  do { x = Math.floor(rng() * 90); } while (seed % 50 === 37 || x < 0);  // a level that never fits
}
function draw() { steps++; x = (x + 1) % 90; if (steps % 20 === 0) score++; background(20); fill(255); rect(x, 45, 10, 10); }
function getGameState() { return {score, lives: 1, gameState: steps > 200 ? 'gameover' : 'playing'}; }
