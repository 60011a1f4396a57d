// expect: GameContractError in load: reading JSGYM_ACTIONS[0].held throws
const JSGYM_ACTIONS = [{name: 'X', get held() { throw new Error('no keys today'); }}];
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
