// expect: GameLoadError in load: a static import of QuickJS's std module (scripts cannot import)
import * as std from 'std';
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
std.open('/etc/passwd', 'r');
