// expect: GameRuntimeError in setup(): createCanvas(1e6, 1e6)
function setup() { createCanvas(1e6, 1e6); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
