// Car Dodge - a top-down highway dodging game.
// Weave through traffic on a three-lane road that keeps getting faster; each car you pass scores.
// LEFT/RIGHT steer, UP speeds up, DOWN brakes, SPACE fires a short nitro boost.

let score = 0;
let lives = 3;
let gameState = 'playing';
let rng;

let player;
let traffic = [];
let trees = [];
let sparks = [];
let distance = 0;
let baseSpeed = 4;
let roadOffset = 0;
let spawnTimer = 0;
let nitro = 0;
let nitroCooldown = 0;
let crashTimer = 0;
let framesPlayed = 0;

const ROAD_LEFT = 90;
const ROAD_RIGHT = 310;
const LANES = 3;
const CAR_COLORS = [[220, 50, 50], [40, 110, 220], [60, 180, 90], [240, 240, 240], [150, 70, 190], [30, 30, 30]];
const TREE_COLORS = ['forestgreen', 'darkgreen', 'olivedrab', 'seagreen'];

function mulberry32(a) {
  return function() {
    a |= 0; a = a + 0x6D2B79F5 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}

function laneCenter(i) {
  let laneWidth = (ROAD_RIGHT - ROAD_LEFT) / LANES;
  return ROAD_LEFT + laneWidth * (i + 0.5);
}

class PlayerCar {
  constructor() {
    this.x = laneCenter(1);
    this.y = 330;
    this.vx = 0;
    this.w = 30;
    this.h = 52;
    this.tilt = 0;
  }

  update() {
    let steer = 0;
    if (keyIsDown(LEFT_ARROW)) steer -= 1;
    if (keyIsDown(RIGHT_ARROW)) steer += 1;
    this.vx += steer * 0.8;
    this.vx *= 0.82;
    this.x += this.vx;
    this.x = constrain(this.x, ROAD_LEFT + this.w / 2, ROAD_RIGHT - this.w / 2);
    this.tilt = lerp(this.tilt, steer * 0.25, 0.2);
  }

  hits(car) {
    return abs(this.x - car.x) < (this.w + car.w) / 2 - 4 &&
           abs(this.y - car.y) < (this.h + car.h) / 2 - 4;
  }

  show() {
    if (crashTimer > 0 && frameCount % 6 < 3) return;
    push();
    translate(this.x, this.y);
    rotate(this.tilt);
    noStroke();
    fill('rgba(0, 0, 0, 0.3)');
    rect(-this.w / 2 + 3, -this.h / 2 + 4, this.w, this.h, 8);
    fill('#ffcc00');
    rect(-this.w / 2, -this.h / 2, this.w, this.h, 8);
    fill('rgb(40, 60, 90)');
    rect(-this.w / 2 + 4, -this.h / 2 + 10, this.w - 8, 12, 3);
    rect(-this.w / 2 + 4, this.h / 2 - 16, this.w - 8, 9, 3);
    fill('black');
    stroke('#cc0000');
    strokeWeight(2);
    line(0, -this.h / 2 + 24, 0, this.h / 2 - 18);
    noStroke();
    // nitro flame
    if (nitro > 0) {
      fill(random(['orange', 'yellow', 'orangered']));
      triangle(-6, this.h / 2, 6, this.h / 2, 0, this.h / 2 + random(10, 22));
    }
    pop();
  }
}

class TrafficCar {
  constructor(lane) {
    this.lane = lane;
    this.x = laneCenter(lane) + random(-6, 6);
    this.y = -40;
    this.w = 30;
    this.h = random([48, 52, 60]);
    this.speed = random(1, 2.5);
    this.col = random(CAR_COLORS);
    this.passed = false;
  }

  update(roadSpeed) {
    this.y += roadSpeed - this.speed;
  }

  show() {
    push();
    translate(this.x, this.y);
    noStroke();
    fill([0, 0, 0, 70]);
    rect(-this.w / 2 + 3, -this.h / 2 + 4, this.w, this.h, 6);
    fill(this.col);
    rect(-this.w / 2, -this.h / 2, this.w, this.h, 6);
    fill([70, 90, 120]);
    rect(-this.w / 2 + 4, -this.h / 2 + 8, this.w - 8, 9, 2);
    rect(-this.w / 2 + 4, this.h / 2 - 18, this.w - 8, 12, 2);
    fill([255, 60, 60]);
    rect(-this.w / 2 + 2, this.h / 2 - 4, 6, 3);
    rect(this.w / 2 - 8, this.h / 2 - 4, 6, 3);
    pop();
  }
}

function makeTree(y) {
  let leftSide = random() < 0.5;
  return {
    x: leftSide ? random(10, ROAD_LEFT - 25) : random(ROAD_RIGHT + 25, width - 10),
    y: y,
    r: random(18, 34),
    col: random(TREE_COLORS)
  };
}

function setup() {
  createCanvas(400, 400);
  resetGame(0);
}

function resetGame(seed) {
  rng = mulberry32(seed);
  score = 0;
  lives = 3;
  gameState = 'playing';
  player = new PlayerCar();
  traffic = [];
  sparks = [];
  trees = [];
  for (let i = 0; i < 10; i++) {
    trees.push(makeTree(rng() * height));
  }
  distance = 0;
  baseSpeed = 4;
  roadOffset = 0;
  spawnTimer = 30;
  nitro = 0;
  nitroCooldown = 0;
  crashTimer = 0;
  framesPlayed = 0;
}

function keyPressed() {
  if (key === ' ' && gameState === 'playing' && nitroCooldown === 0) {
    nitro = 45;
    nitroCooldown = 150;
  }
}

function currentSpeed() {
  let s = baseSpeed;
  if (keyIsDown(UP_ARROW)) s += 1.5;
  if (keyIsDown(DOWN_ARROW)) s -= 1.5;
  if (nitro > 0) s += 4;
  if (crashTimer > 60) s *= 0.4;
  return max(s, 2);
}

function updateGame() {
  framesPlayed++;
  baseSpeed = 4 + framesPlayed * 0.004;
  let speed = currentSpeed();
  distance += speed;
  roadOffset = (roadOffset + speed) % 40;

  player.update();

  spawnTimer--;
  if (spawnTimer <= 0) {
    let lane = floor(random(LANES));
    // avoid stacking two cars on top of each other in one lane
    let blocked = traffic.some(c => c.lane === lane && c.y < 40);
    if (!blocked) traffic.push(new TrafficCar(lane));
    spawnTimer = int(random(20, 50) * 4 / baseSpeed);
  }

  traffic.forEach(car => car.update(speed));

  traffic.forEach(car => {
    if (!car.passed && car.y - car.h / 2 > player.y + player.h / 2) {
      car.passed = true;
      score += 10;
    }
  });

  if (crashTimer === 0) {
    let hit = traffic.find(car => player.hits(car));
    if (hit) {
      lives--;
      crashTimer = 90;
      for (let i = 0; i < 20; i++) {
        sparks.push({
          pos: createVector(player.x, player.y - player.h / 2),
          vel: p5.Vector.random2D().mult(random(1, 4)),
          life: 30
        });
      }
      traffic = traffic.filter(car => car !== hit);
    }
  } else {
    crashTimer--;
  }

  traffic = traffic.filter(car => car.y < height + 80 && car.y > -120);

  trees.forEach(t => {
    t.y += speed;
  });
  trees = trees.filter(t => t.y < height + 40);
  while (trees.length < 10) {
    trees.push(makeTree(random(-60, -20)));
  }

  sparks.forEach(s => {
    s.pos.add(s.vel);
    s.vel.mult(0.92);
    s.life--;
  });
  sparks = sparks.filter(s => s.life > 0);

  if (nitro > 0) nitro--;
  if (nitroCooldown > 0) nitroCooldown--;

  if (lives <= 0) gameState = 'gameover';
}

function drawRoad() {
  background('yellowgreen');
  noStroke();
  fill('rgb(70, 70, 75)');
  rect(ROAD_LEFT - 8, 0, ROAD_RIGHT - ROAD_LEFT + 16, height);
  // kerbs
  fill('white');
  rect(ROAD_LEFT - 8, 0, 5, height);
  rect(ROAD_RIGHT + 3, 0, 5, height);
  // lane markings scroll with the road
  stroke(255, 255, 200);
  strokeWeight(4);
  for (let i = 1; i < LANES; i++) {
    let x = ROAD_LEFT + i * (ROAD_RIGHT - ROAD_LEFT) / LANES;
    for (let y = -40 + roadOffset; y < height; y += 40) {
      line(x, y, x, y + 20);
    }
  }
  noStroke();
}

function drawTrees() {
  trees.forEach(t => {
    fill('saddlebrown');
    ellipse(t.x + 3, t.y + 4, t.r * 0.4);
    fill(t.col);
    ellipse(t.x, t.y, t.r);
    fill(255, 255, 255, 40);
    ellipse(t.x - t.r * 0.15, t.y - t.r * 0.15, t.r * 0.4);
  });
}

function drawHud() {
  noStroke();
  fill(0, 0, 0, 150);
  rect(0, 0, width, 26);
  fill(255);
  textSize(14);
  textAlign(LEFT, CENTER);
  text(`Score: ${score}`, 8, 13);
  textAlign(CENTER, CENTER);
  text('Distance: ' + nf(distance / 1000, 1, 2) + ' km', width / 2, 13);
  textAlign(RIGHT, CENTER);
  text(`Lives: ${lives}`, width - 8, 13);

  // speedometer and nitro bar
  let kmh = round(currentSpeed() * 20);
  textAlign(LEFT, BOTTOM);
  fill('white');
  text(kmh + ' km/h', 8, height - 8);
  fill(60);
  rect(width - 78, height - 18, 70, 8);
  fill(nitroCooldown === 0 ? 'deepskyblue' : 'gray');
  rect(width - 78, height - 18, map(150 - nitroCooldown, 0, 150, 0, 70), 8);

  if (gameState === 'gameover') {
    fill(0, 0, 0, 160);
    rect(0, height / 2 - 30, width, 60);
    fill('tomato');
    textSize(30);
    textAlign(CENTER, CENTER);
    text('WRECKED!', width / 2, height / 2);
  }
}

function draw() {
  if (gameState === 'playing') {
    updateGame();
  }
  drawRoad();
  drawTrees();
  traffic.forEach(car => car.show());
  player.show();
  sparks.forEach(s => {
    stroke(255, map(s.life, 0, 30, 80, 220), 0);
    strokeWeight(3);
    point(s.pos.x, s.pos.y);
  });
  noStroke();
  drawHud();
}

function getGameState() {
  return { score, lives, gameState };
}
