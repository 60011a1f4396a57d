// expect: GameContractError in load: JSGYM_ACTIONS nests lists 100000 deep
let deep = [];
for (let i = 0; i < 100000; i++) deep = [deep];
const JSGYM_ACTIONS = [{name: 'DEEP', held: deep}];
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
