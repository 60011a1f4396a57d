// expect: GameTimeoutError in the top level: an endless loop while the file is evaluated
// args: {"make": {"step_timeout": 0.25}}
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
let ready = false;
while (!ready) { ready = Math.random() > 2; }
