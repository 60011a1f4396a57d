// expect: GameMemoryError in the top level: a 400 MB Float64Array
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
const grid = new Float64Array(5e7);
