// expect: GameContractError in load: JSGYM_ACTIONS is the string 'LEFT', not a list of actions
const JSGYM_ACTIONS = 'LEFT';
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
