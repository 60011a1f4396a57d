// expect: GameContractError in setup(): asks for a 3D canvas, catches the throw and falls back to 2D
let score = 0;
function setup() {
  try { createCanvas(64, 64, WEBGL); } catch (e) { createCanvas(64, 64); }
}
function resetGame(seed) { score = 0; }
function draw() { background(0); }
function getGameState() { return {score, lives: 1, gameState: 'playing'}; }
