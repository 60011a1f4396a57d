// expect: GameLoadError in load: a Latin-1 byte (0xE9, not UTF-8) in a comment on line 2
// café au lait
function setup() { createCanvas(64, 64); }
function draw() { background(0); }
function resetGame(seed) {}
function getGameState() { return {score: 0, lives: 1, gameState: "playing"}; }
