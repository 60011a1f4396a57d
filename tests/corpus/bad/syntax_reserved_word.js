// expect: GameLoadError in load: a reserved word used as a variable name
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
var class = 'player';
