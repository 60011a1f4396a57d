// expect: GameRuntimeError in the top level: require('fs') (no CommonJS, no file system)
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
const fs = require('fs');
const save = fs.readFileSync('/etc/passwd', 'utf8');
