// expect: GameContractError in load: the table comes from GAME_OPTIONS (read with the caller's options) and names an unknown field
const OPT = typeof GAME_OPTIONS === 'object' && GAME_OPTIONS ? GAME_OPTIONS : {};
const JSGYM_ACTIONS = OPT.armed === false ? ['NOOP', 'LEFT'] : ['NOOP', {name: 'L', hold: ['LEFT']}];
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
