// expect: GameRuntimeError in setup(): setup() reads a property of undefined
let player;
function setup() { createCanvas(64, 64); player.x = 10; }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
