// expect: GameContractError in setup(): asks for a 3D canvas (createCanvas(w, h, WEBGL))
let score = 0;
function setup() { createCanvas(64, 64, WEBGL); }
function resetGame(seed) { score = 0; }
function draw() { background(0); box(10); }
function getGameState() { return {score, lives: 1, gameState: 'playing'}; }
