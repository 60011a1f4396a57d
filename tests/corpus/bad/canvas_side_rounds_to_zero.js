// expect: GameRuntimeError in setup(): createCanvas(1e-50, 1e-50): positive sides that round to 0 as 32-bit floats
function setup() { createCanvas(1e-50, 1e-50); }
function draw() { background(0); }
function resetGame(seed) {}
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
