// expect: GameRuntimeError in setup(): unbounded recursion overflows the JS stack
function grow(n) { return grow(n + 1) + 1; }
function setup() { createCanvas(64, 64); grow(0); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
