// expect: runs: a comment mentions JSGYM_ACTIONS, but the game declares no table (the default one applies)
// (no JSGYM_ACTIONS here: the default Discrete(8) table)
let score = 0, x = 0;
function setup() { createCanvas(64, 64); }
function resetGame(seed) { score = 0; x = 32; }
function draw() { if (keyIsDown(LEFT_ARROW)) x--; background(0); rect(x, 30, 4, 4); }
function getGameState() { return {score, lives: 1, gameState: 'playing'}; }
