// expect: GameTimeoutError in setup(): Array.prototype.forEach over an array-like of length 2**53-1 in setup() (a built-in loop that never checks the timeout)
// args: {"wall": 2.0, "make": {"step_timeout": 0.25}}
function setup() { createCanvas(64, 64); Array.prototype.forEach.call({length: 2 ** 53 - 1}, () => 0); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
