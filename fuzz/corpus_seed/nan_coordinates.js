// expect: runs: NaN in every drawing call, transform and style
// GAME_OPTIONS = {armed: false} turns the misbehaviour off (the tests' reference run).
const ARMED = typeof GAME_OPTIONS !== 'object' || GAME_OPTIONS === null || GAME_OPTIONS.armed !== false;
let score = 0, x = 0, rng = null, bad = false;
function setup() { createCanvas(64, 64); }
function resetGame(seed) {
  bad = ARMED && seed % 2 === 1;
  rng = mulberry32(seed);
  score = 0;
  x = Math.floor(rng() * 56);
}
function draw() {
  background(30);
  x = (x + 3) % 56;
  score += x % 3;
  fill(250, 200, 0);
  rect(x, 28, 8, 8);
  if (bad && frameCount === frameCount) {
    const N = NaN;
    rect(N, N, N, N); ellipse(N, 0, N, N); circle(N, N, N); line(N, N, N, N); point(N, N);
    triangle(N, 0, 1, N, 2, 2); quad(N, 0, 1, N, 2, 2, N, N); arc(N, N, N, N, N, N);
    bezier(N, 0, 1, N, 2, 2, N, N); curve(N, 0, 1, N, 2, 2, N, N); square(N, N, N);
    text('hi', N, N); textSize(N); text('a', 3, 3);
    beginShape(); vertex(N, N); vertex(1, N); bezierVertex(N, N, N, N, N, N); quadraticVertex(N, N, N, N); endShape(CLOSE);
    beginShape(); curveVertex(N, N); curveVertex(N, 1); curveVertex(2, N); curveVertex(3, 3); endShape();
    push(); translate(N, N); rotate(N); scale(N); rect(1, 1, 5, 5); shearX(N); ellipse(4, 4, 4, 4); pop();
    push(); strokeWeight(N); line(0, 0, 9, 9); fill(N); stroke(N, N, N, N); rect(2, 2, 3, 3); pop();
    background(N, N, N);
  }
}
function getGameState() {
  return {score: score, lives: 3, gameState: 'playing'};
}
function mulberry32(a) { return function () { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }
