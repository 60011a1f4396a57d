// expect: GameLoadError in load: a string literal runs to the end of the line
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
let title = 'Space Invaders;
