// expect: GameRuntimeError in setup(): process.env and process.exit (no process object)
function setup() { createCanvas(64, 64); if (process.env.HOME) process.exit(1); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
