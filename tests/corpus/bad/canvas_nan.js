// expect: GameRuntimeError in setup(): createCanvas(NaN, Infinity)
function setup() { createCanvas(NaN, Infinity); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
