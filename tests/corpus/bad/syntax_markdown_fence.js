// expect: GameRuntimeError in the top level: an LLM answer pasted with its markdown fence (```js parses as a tagged template call, so it fails when run, not when parsed)
```javascript
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
```
