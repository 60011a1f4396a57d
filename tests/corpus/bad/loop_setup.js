// expect: GameTimeoutError in setup(): setup() loops forever on a condition that never changes
// args: {"make": {"step_timeout": 0.25}}
function setup() { createCanvas(64, 64); do { fill(width % 256); } while (width > 0); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
