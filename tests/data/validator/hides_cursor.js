// Declares let cursor (the selected build slot), hiding p5's cursor() function.
let cursor = 0;
let score = 0, t = 0;
function setup() { createCanvas(100, 100); }
function resetGame(seed) { score = 0; t = 0; cursor = 0; }
function draw() { t++; if (keyIsDown(RIGHT_ARROW)) cursor = (cursor + 1) % 4; background(0); fill(255); rect(10 + cursor * 20, 40, 10, 10); }
function getGameState() { return {score, lives: 1, gameState: t > 100 ? 'gameover' : 'playing'}; }
