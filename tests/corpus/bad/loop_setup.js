// expect: GameTimeoutError in setup(): setup() waits forever for a canvas that never grows
// args: {"make": {"step_timeout": 0.25}}
function setup() { createCanvas(64, 64); do { resizeCanvas(64, 64); } while (width > 0); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
