// expect: GameLoadError in load: draw() is never closed
function setup() { createCanvas(64, 64); }
function draw() {
  background(0);
  if (frameCount > 1) {
    rect(0, 0, 5, 5);
}
