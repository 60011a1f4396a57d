// expect: GameContractError in load: an entry of JSGYM_ACTIONS holds itself (a cycle)
const a = {name: 'LOOP', held: []};
a.held.push(a);
const JSGYM_ACTIONS = ['NOOP', a];
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
