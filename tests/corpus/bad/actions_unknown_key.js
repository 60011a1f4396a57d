// expect: GameContractError in load: an action holds the unknown key 'JUMP'
const JSGYM_ACTIONS = ['NOOP', {name: 'JUMP', held: ['JUMP']}];
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
