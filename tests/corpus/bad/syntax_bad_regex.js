// expect: GameLoadError in load: an invalid regular expression literal
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
const WORD = /([a-z]+/;
