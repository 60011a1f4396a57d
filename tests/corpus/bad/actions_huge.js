// expect: GameContractError in load: JSGYM_ACTIONS has a million entries
const JSGYM_ACTIONS = new Array(1000000).fill('NOOP');
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
