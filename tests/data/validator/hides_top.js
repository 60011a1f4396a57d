// Declares const TOP (hiding p5's TOP, so textAlign(CENTER, TOP) aligns to 40) and
// replaces p5's random().
const TOP = 40;
function random() { return 0.5; }
let score = 0, t = 0;
function setup() { createCanvas(100, 100); }
function resetGame(seed) { score = 0; t = 0; }
function draw() { t++; if (t % 10 === 0) score++; background(0); fill(255); textAlign(CENTER, TOP); text(score, 50, 5); rect(t % 90, TOP, 10, 10); }
function getGameState() { return {score, lives: 1, gameState: t > 100 ? 'gameover' : 'playing'}; }
