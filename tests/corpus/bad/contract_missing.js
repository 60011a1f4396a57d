// expect: GameContractError in load: only setup() and draw() are defined
function setup() { createCanvas(64, 64); }
function draw() { background(0); }
