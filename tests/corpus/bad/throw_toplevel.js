// expect: GameRuntimeError in the top level: the file throws while it is evaluated
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
const LEVELS = loadJSON('levels.json');
