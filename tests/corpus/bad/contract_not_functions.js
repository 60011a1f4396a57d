// expect: GameContractError in load: resetGame is a string and getGameState an object
function setup() { createCanvas(64, 64); }
function draw() { background(0); }
var resetGame = 'coming soon';
const getGameState = {score: 0, lives: 3, gameState: 'playing'};
