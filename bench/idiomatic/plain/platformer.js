// Sky Hopper - a side-scrolling platformer.
// Run across grassy islands, collect coins, stomp the hopping slimes and reach the flag
// before the timer runs out. Three levels; falling in a pit or touching a slime costs a life.
// Keys: LEFT/RIGHT run, UP or SPACE jump.

const MAX_LEVEL = 3;
const LEVEL_TIME = 780; // frames per attempt (13 seconds)
const GROUND_Y = 340;

const SKIES = [
  ['#3a7bd5', '#ffe0b2'],
  ['#ff7e5f', '#feb47b'],
  ['#0f2027', '#5c6bc0'],
];

let gravity, player, flag;
let platforms = [], enemies = [], coins = [], popups = [];
let levelWidth = 2000, camX = 0;
let score = 0, lives = 3, level = 1;
let timeLeft = LEVEL_TIME, bannerTimer = 0;
let gameState = 'playing';

class Platform {
  constructor(x, y, w, h, solid) {
    Object.assign(this, { x, y, w, h, solid }); // solid ground also blocks from the side
  }

  show() {
    noStroke();
    if (this.solid) {
      fill('saddlebrown');
      rect(this.x, this.y, this.w, this.h);
      fill('forestgreen');
      rect(this.x, this.y, this.w, 10);
    } else {
      fill('peru');
      rect(this.x, this.y, this.w, this.h, 5);
      fill('yellowgreen');
      rect(this.x, this.y, this.w, 5, 5, 5, 0, 0);
    }
  }
}

class Player {
  constructor(x, y) {
    this.pos = createVector(x, y);
    this.vel = createVector(0, 0);
    this.w = 20;
    this.h = 28;
    this.onGround = false;
    this.facing = 1;
    this.invincible = 60;
  }

  jump() {
    if (this.onGround) {
      this.vel.y = -10.5;
      this.onGround = false;
    }
  }

  update() {
    let move = 0;
    if (keyIsDown(LEFT_ARROW)) move -= 1;
    if (keyIsDown(RIGHT_ARROW)) move += 1;
    if (keyIsDown(UP_ARROW)) this.jump();
    if (move !== 0) this.facing = move;

    this.vel.x = lerp(this.vel.x, move * 4, 0.25);
    this.vel.add(gravity);
    this.vel.y = min(this.vel.y, 12);

    const prevBottom = this.pos.y + this.h;
    this.pos.add(this.vel);
    this.pos.x = constrain(this.pos.x, 0, levelWidth - this.w);

    // land on top of platforms (they are one-way from below)
    this.onGround = false;
    if (this.vel.y >= 0) {
      for (const p of platforms) {
        const overX = this.pos.x + this.w > p.x && this.pos.x < p.x + p.w;
        if (overX && prevBottom <= p.y + 0.5 && this.pos.y + this.h >= p.y) {
          this.pos.y = p.y - this.h;
          this.vel.y = 0;
          this.onGround = true;
          break;
        }
      }
    }

    // ground blocks are walls from the side
    platforms.filter(p => p.solid).forEach(p => {
      if (this.overlaps(p.x, p.y, p.w, p.h)) {
        if (this.pos.x + this.w / 2 < p.x + p.w / 2) this.pos.x = p.x - this.w;
        else this.pos.x = p.x + p.w;
        this.vel.x = 0;
      }
    });

    if (this.invincible > 0) this.invincible--;
  }

  overlaps(x, y, w, h) {
    return this.pos.x < x + w && this.pos.x + this.w > x && this.pos.y < y + h && this.pos.y + this.h > y;
  }

  center() {
    return createVector(this.pos.x + this.w / 2, this.pos.y + this.h / 2);
  }

  show() {
    if (this.invincible > 0 && floor(frameCount / 4) % 2 === 0) return;
    push();
    translate(this.pos.x + this.w / 2, this.pos.y);
    scale(this.facing, 1);
    noStroke();
    fill('tomato');
    rect(-this.w / 2, 6, this.w, this.h - 6, 4);
    fill(255, 224, 189);
    ellipse(0, 8, 18, 16);
    fill('white');
    ellipse(4, 7, 7, 8);
    fill(20);
    ellipse(5, 7, 3, 4);
    fill('navy');
    rect(-this.w / 2, this.h - 6, this.w, 6, 2);
    pop();
  }
}

class Enemy {
  constructor(plat) {
    this.plat = plat;
    this.w = 24;
    this.h = 18;
    this.pos = createVector(random(plat.x + 10, plat.x + plat.w - 34), plat.y - this.h);
    this.vel = createVector(random([-1, 1]) * random(0.8, 1.2 + level * 0.3), 0);
    this.hue = random(['mediumpurple', 'orchid', 'limegreen']);
  }

  update() {
    this.vel.add(gravity);
    this.pos.add(this.vel);
    if (this.pos.y + this.h >= this.plat.y) {
      this.pos.y = this.plat.y - this.h;
      this.vel.y = 0;
      if (random() < 0.01) this.vel.y = -6; // slimes hop now and then
    }
    if (this.pos.x < this.plat.x || this.pos.x + this.w > this.plat.x + this.plat.w) {
      this.vel.x *= -1;
      this.pos.x = constrain(this.pos.x, this.plat.x, this.plat.x + this.plat.w - this.w);
    }
  }

  show() {
    const squish = sin(frameCount * 0.2 + this.pos.x) * 2;
    noStroke();
    fill(this.hue);
    arc(this.pos.x + this.w / 2, this.pos.y + this.h, this.w + squish, (this.h - squish) * 2, PI, TWO_PI, CHORD);
    fill(255);
    ellipse(this.pos.x + 8, this.pos.y + 9, 6, 6);
    ellipse(this.pos.x + 16, this.pos.y + 9, 6, 6);
    fill(0);
    ellipse(this.pos.x + 8 + this.vel.x, this.pos.y + 9, 3, 3);
    ellipse(this.pos.x + 16 + this.vel.x, this.pos.y + 9, 3, 3);
  }
}

class Coin {
  constructor(x, y) {
    this.pos = createVector(x, y);
    this.phase = random(TWO_PI);
  }

  show() {
    const w = abs(sin(frameCount * 0.08 + this.phase)) * 14 + 2;
    stroke('darkgoldenrod');
    strokeWeight(2);
    fill('gold');
    ellipse(this.pos.x, this.pos.y, w, 16);
  }
}

function setup() {
  createCanvas(400, 400);
  resetGame(0);
}

function resetGame(seed) {
  score = 0;
  lives = 3;
  level = 1;
  gameState = 'playing';
  gravity = createVector(0, 0.5);
  popups = [];
  buildLevel();
}

function buildLevel() {
  platforms = [];
  enemies = [];
  coins = [];
  const targetWidth = 1400 + level * 400;

  // the ground: segments with pits in between
  let x = 0;
  while (x < targetWidth - 300) {
    const w = x === 0 ? 320 : random(140, 320);
    const ground = new Platform(x, GROUND_Y, w, height - GROUND_Y, true);
    platforms.push(ground);
    for (let cx = x + 40; cx < x + w - 20; cx += 60) coins.push(new Coin(cx, GROUND_Y - 30));
    if (x > 0 && random() < 0.5 + level * 0.1) enemies.push(new Enemy(ground));
    x += w + random(60, 90 + level * 10);
  }
  platforms.push(new Platform(x, GROUND_Y, 300, height - GROUND_Y, true));
  levelWidth = x + 300;
  flag = createVector(x + 200, GROUND_Y);

  // floating ledges with rows of coins
  for (let i = 0; i < 6 + level * 2; i++) {
    const px = random(300, levelWidth - 400);
    const py = random(200, 270);
    const pw = random(70, 140);
    const ledge = new Platform(px, py, pw, 16, false);
    platforms.push(ledge);
    for (let k = 0; k < floor(pw / 30); k++) coins.push(new Coin(px + 15 + k * 30, py - 20));
    if (random() < 0.25 * level) enemies.push(new Enemy(ledge));
  }

  spawnPlayer();
  bannerTimer = 90;
}

function spawnPlayer() {
  player = new Player(40, GROUND_Y - 60);
  camX = 0;
  timeLeft = LEVEL_TIME;
}

function keyPressed() {
  if (key === ' ' && gameState === 'playing') player.jump();
}

function loseLife() {
  lives--;
  if (lives <= 0) {
    lives = 0;
    gameState = 'gameover';
  } else {
    spawnPlayer();
  }
}

function addPopup(label, pos) {
  popups.push({ label, pos: pos.copy(), life: 40 });
}

function update() {
  player.update();
  enemies.forEach(e => e.update());

  // coins: keep the ones we did not touch
  const playerCenter = player.center();
  coins = coins.filter(c => {
    if (p5.Vector.dist(c.pos, playerCenter) < 20) {
      score += 10;
      addPopup('+10', c.pos);
      return false;
    }
    return true;
  });

  // enemies: stomp from above, otherwise get hurt
  enemies = enemies.filter(e => {
    if (!player.overlaps(e.pos.x, e.pos.y, e.w, e.h)) return true;
    if (player.vel.y > 0 && player.pos.y + player.h - e.pos.y < 12) {
      player.vel.y = -7;
      score += 50;
      addPopup('+50', e.pos);
      return false;
    }
    if (player.invincible === 0) loseLife();
    return true;
  });
  if (gameState !== 'playing') return;

  if (player.pos.y > height + 40) {
    loseLife();
    return;
  }

  timeLeft--;
  if (timeLeft <= 0) {
    loseLife();
    return;
  }

  if (player.pos.x + player.w > flag.x) {
    const bonus = 100 + floor(timeLeft / 10);
    score += bonus;
    level++;
    if (level > MAX_LEVEL) {
      level = MAX_LEVEL;
      gameState = 'won';
    } else {
      buildLevel();
    }
    return;
  }

  const targetCam = constrain(player.pos.x - width / 3, 0, levelWidth - width);
  camX = lerp(camX, targetCam, 0.15);

  popups.forEach(p => {
    p.life--;
    p.pos.y -= 1;
  });
  popups = popups.filter(p => p.life > 0);
  if (bannerTimer > 0) bannerTimer--;
}

function drawSky() {
  const colors = SKIES[(level - 1) % SKIES.length];
  const top = color(colors[0]);
  const bottom = color(colors[1]);
  strokeWeight(1);
  for (let y = 0; y < height; y++) {
    stroke(lerpColor(top, bottom, y / height));
    line(0, y, width, y);
  }
}

function drawHills() {
  noStroke();
  fill(70, 140, 100, 110);
  beginShape();
  vertex(0, height);
  for (let x = 0; x <= width; x += 20) {
    const n = noise((x + camX * 0.3) * 0.006, level * 10);
    vertex(x, 320 - n * 120);
  }
  vertex(width, height);
  endShape(CLOSE);
}

function drawFlag() {
  stroke(80);
  strokeWeight(3);
  line(flag.x, flag.y, flag.x, flag.y - 90);
  noStroke();
  fill('crimson');
  const wave = sin(frameCount * 0.15) * 4;
  triangle(flag.x, flag.y - 90, flag.x + 36, flag.y - 78 + wave, flag.x, flag.y - 66);
}

function drawHud() {
  noStroke();
  fill(0, 0, 0, 120);
  rect(0, 0, width, 28);
  fill(255);
  textSize(14);
  textAlign(LEFT, CENTER);
  text(`Score: ${score}`, 10, 14);
  text('Lives: ' + lives, 120, 14);
  text(`Level ${level}/${MAX_LEVEL}`, 210, 14);
  textAlign(RIGHT, CENTER);
  text('Time ' + ceil(timeLeft / 60), width - 10, 14);

  textAlign(CENTER, CENTER);
  if (bannerTimer > 0 && gameState === 'playing') {
    textSize(28);
    fill(255, 255, 255, map(bannerTimer, 0, 90, 0, 255));
    text('LEVEL ' + level, width / 2, height / 2 - 60);
  }
  if (gameState !== 'playing') {
    fill(0, 0, 0, 150);
    rect(0, 0, width, height);
    fill(gameState === 'won' ? 'gold' : 'white');
    textSize(32);
    text(gameState === 'won' ? 'YOU WIN!' : 'GAME OVER', width / 2, height / 2);
    textSize(16);
    text('Final score: ' + score, width / 2, height / 2 + 36);
  }
}

function draw() {
  if (gameState === 'playing') update();

  drawSky();
  drawHills();

  push();
  translate(-camX, 0);
  platforms.forEach(p => p.show());
  coins.forEach(c => c.show());
  drawFlag();
  enemies.forEach(e => e.show());
  player.show();
  textAlign(CENTER, CENTER);
  textSize(14);
  noStroke();
  popups.forEach(p => {
    fill(255, 240, 120, map(p.life, 0, 40, 0, 255));
    text(p.label, p.pos.x, p.pos.y);
  });
  pop();

  drawHud();
}

function getGameState() {
  return { score, lives, gameState };
}

function mulberry32(a) {
  return function() {
    a |= 0; a = a + 0x6D2B79F5 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
