/* jsgym human play: the page loop of play.html.
 *
 * Real key events never reach p5 directly. They are collected, and once per frame
 * (60 fps, the same virtual clock per frame as the backends) they become one
 * backend step with frameskip 1: keys held now are "held", keys pressed since the
 * last frame that are already up again (or that were released and pressed again)
 * are "tapped". driver.js then fires the key events exactly as it does for an agent,
 * so `jsgym replay` can replay the recording in the QuickJS backend frame by frame.
 * Mouse input is recorded the same way (see framePointer()).
 */
(function () {
  'use strict';
  var C = window.__jsgymPlayConfig || { game: 'game', seed: 0, actions: [], record: false };
  var K = window.__jsgymContract;
  var J = window.__jsgym;
  var FRAME = 1000 / K.frameRate;
  var MAX_KEYS = K.maxKeysPerAction;
  var STATES = K.gameStates;

  var physical = [];        // keys down on the keyboard now, in press order
  var pressedSince = [];    // keys with a (non-repeat) keydown since the last frame
  var running = false, stopped = false;
  var recording = { game: C.game, source_sha256: C.sourceSha256 || null,
                    game_options: C.gameOptions === undefined ? null : C.gameOptions,
                    episodes: [] };
  var episode = null;
  var $ = function (id) { return document.getElementById(id); };

  function keyOf(e) { return e.keyCode || e.which || 0; }
  function onKey(e) {
    if (!e.isTrusted) return;  // driver.js's own events go through to p5
    var t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'BUTTON') && e.type !== 'keyup') {
      if (e.type === 'keydown' && e.keyCode === 13 && t.id === 'seed') restart();
      e.stopImmediatePropagation();
      return;
    }
    e.stopImmediatePropagation();
    var k = keyOf(e);
    if (!(k > 0 && k < 256)) return;
    if ([32, 37, 38, 39, 40, 9].indexOf(k) >= 0) e.preventDefault();
    if (e.type === 'keydown') {
      if (k === 13 && stopped) { restart(); return; }
      if (e.repeat) return;
      if (physical.indexOf(k) < 0) physical.push(k);
      if (pressedSince.indexOf(k) < 0) pressedSince.push(k);
    } else if (e.type === 'keyup') {
      var i = physical.indexOf(k);
      if (i >= 0) physical.splice(i, 1);
    }
  }
  ['keydown', 'keyup', 'keypress'].forEach(function (type) {
    window.addEventListener(type, onKey, true);
  });
  window.addEventListener('blur', function (e) {
    if (e.isTrusted && e.target === window) {
      e.stopImmediatePropagation();
      physical = [];  // keys are released at the next frame, as any release is
    }
  }, true);

  // The mouse, the same way: trusted mouse events on the canvas are collected (in
  // canvas pixels) and never reach p5; once per frame they become the step's pointer
  // (the position if it moved, buttons held now, buttons pressed since the last frame
  // that are already up again), and driver.js fires the events as for an agent.
  var BIT_OF_BUTTON = {};
  Object.keys(K.buttonEvents).forEach(function (bit) { BIT_OF_BUTTON[K.buttonEvents[bit][0]] = +bit; });
  var mouseAt = null, buttonsDown = 0, buttonsSince = 0;
  function canvasPoint(e) {
    var canvas = window.p5.instance.canvas;
    var r = canvas.getBoundingClientRect();
    return [Math.round((e.clientX - r.left) * canvas.width / r.width),
            Math.round((e.clientY - r.top) * canvas.height / r.height)];
  }
  function onMouse(e) {
    if (!e.isTrusted) return;  // driver.js's own events go through to p5
    var canvas = window.p5 && window.p5.instance && window.p5.instance.canvas;
    if (!canvas || e.target !== canvas) return;
    e.stopImmediatePropagation();
    if (e.type === 'contextmenu') { e.preventDefault(); return; }
    var bit = BIT_OF_BUTTON[e.button] || 0;
    if (e.type === 'mousemove' || e.type === 'mousedown' || e.type === 'mouseup') mouseAt = canvasPoint(e);
    if (e.type === 'mousedown' && bit) { buttonsDown |= bit; buttonsSince |= bit; }
    if (e.type === 'mouseup' && bit) buttonsDown &= ~bit;
  }
  ['mousemove', 'mousedown', 'mouseup', 'click', 'dblclick', 'contextmenu', 'wheel',
   'dragend', 'dragover'].forEach(function (type) {
    window.addEventListener(type, onMouse, true);
    // events elsewhere (the page's buttons) must not reach p5's window listeners either
    document.addEventListener(type, function (e) { if (e.isTrusted) e.stopPropagation(); });
  });
  window.addEventListener('mouseup', function (e) {  // a release outside the canvas
    if (e.isTrusted && BIT_OF_BUTTON[e.button]) buttonsDown &= ~BIT_OF_BUTTON[e.button];
  }, true);

  function framePointer() {
    var cur = J.pointer();
    var at = mouseAt && (!cur.used || mouseAt[0] !== cur.x || mouseAt[1] !== cur.y) ? mouseAt : null;
    var held = buttonsDown, tapped = 0;
    for (var bit in K.buttonEvents) {
      bit = +bit;
      if ((buttonsSince & bit) && (!(held & bit) || (cur.down & bit))) tapped |= bit;
    }
    buttonsSince = 0;
    if (!at && !held && !tapped && !cur.down) return null;
    return { at: at, held: held, tapped: tapped };
  }

  function frameKeys() {
    var held = physical.slice(0, MAX_KEYS);
    var tapped = [];
    for (var i = 0; i < pressedSince.length && tapped.length < MAX_KEYS; i++) {
      var k = pressedSince[i];
      if (held.indexOf(k) < 0 || J.down.indexOf(k) >= 0) tapped.push(k);
    }
    pressedSince = [];
    return [held, tapped];
  }

  function show(st) {
    $('score').textContent = st.s;
    $('lives').textContent = st.l;
    $('state').textContent = STATES[st.g] || '?';
    $('frame').textContent = episode ? episode.frames.length : 0;
  }

  // Saves go one after another, each serialized when it is sent, so a later save never
  // holds fewer frames than an earlier one and an older save cannot land last.
  var saving = Promise.resolve(true);
  function upload() {
    if (!C.record) return Promise.resolve(false);
    saving = saving.then(function () {
      return fetch('record', { method: 'POST', body: JSON.stringify(recording),
                               headers: { 'content-type': 'application/json' } });
    }).then(function (r) { $('rec').textContent = 'recording saved (' + recording.episodes.length +
                                                 ' episode(s))'; return r.ok; })
      .catch(function () { $('rec').textContent = 'could not save the recording'; return false; });
    return saving;
  }

  function start(seed) {
    seed = Math.max(0, Math.floor(Number(seed) || 0)) >>> 0;
    physical = []; pressedSince = [];
    buttonsSince = 0;
    var r = J.reset(seed, 0, 0, 'stretch');
    if (r.error) { $('banner').textContent = K.phases[r.error.phase] + ' threw ' + r.error.message; stopped = true; return; }
    episode = { seed: seed, start: { score: r.s, lives: r.l, gameState: STATES[r.g] },
                frames: [], final_score: r.s };
    recording.episodes.push(episode);
    $('seed').value = seed;
    $('banner').textContent = '';
    stopped = r.g !== 0;
    show(r);
    fitCanvas();
  }
  function restart() { upload(); start($('seed').value); }

  function frame() {
    var keys = frameKeys();
    var pointer = framePointer();
    var r = J.step(keys[0], keys[1], 1, pointer, 0, 0, 'stretch');
    if (r.error) {
      $('banner').textContent = K.phases[r.error.phase] + ' threw ' + r.error.message;
      stopped = true;
      upload();
      return;
    }
    var rec = { held: keys[0], pressed: keys[1], score: r.s, lives: r.l, gameState: STATES[r.g] };
    if (pointer) rec.pointer = pointer;
    episode.frames.push(rec);
    episode.final_score = r.s;
    show(r);
    if (r.g !== 0) {
      stopped = true;
      $('banner').textContent = (r.g === 2 ? 'You won!' : 'Game over') + ' (score ' + r.s +
                                ') - Enter or Restart to play again';
      upload();
    }
  }

  var last = null, acc = 0, fpsFrames = 0, fpsStart = 0, lastUpload = 0;
  function tick(ts) {
    requestAnimationFrame(tick);
    if (last === null) { last = ts; fpsStart = ts; return; }
    acc += Math.min(ts - last, 100);
    last = ts;
    var n = 0;
    while (acc >= FRAME && n < 4) {
      acc -= FRAME;
      n++;
      if (!stopped) { frame(); fpsFrames++; }
    }
    if (ts - fpsStart >= 1000) {
      $('fps').textContent = '(' + Math.round(fpsFrames * 1000 / (ts - fpsStart)) + ' fps)';
      fpsFrames = 0; fpsStart = ts;
    }
    if (C.record && !stopped && ts - lastUpload > 2000) { lastUpload = ts; upload(); }
  }

  function fitCanvas() {
    var canvas = window.p5.instance.canvas;
    if (!canvas) return;
    if (canvas.parentNode !== $('stage')) $('stage').appendChild(canvas);
    var w = canvas.width, h = canvas.height;
    var scale = Math.max(1, Math.min((window.innerWidth - 320) / w, (window.innerHeight - 32) / h));
    canvas.style.width = Math.floor(w * scale) + 'px';
    canvas.style.height = Math.floor(h * scale) + 'px';
  }

  function esc(text) {  // the effects are the game file's words: text, not markup
    return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  function keyTable() {
    var names = C.keyNames || {};
    var rows = C.actions.map(function (a) {
      var keys = a.held.map(function (k) { return (names[k] || k) + ' (hold)'; })
        .concat(a.tapped.map(function (k) { return (names[k] || k) + ' (tap)'; }));
      return '<tr><td>' + esc(keys.join(' + ') || '-') + '</td><td>' + esc(a.effect || a.name) +
        '</td></tr>';
    });
    $('keys').innerHTML = rows.join('');
  }

  function boot() {
    if (!J.ready) { setTimeout(boot, 10); return; }
    $('title').textContent = C.game;
    if (J.contractError || J.setupError) {
      $('banner').textContent = J.contractError || (K.phases.setup + ' threw ' + J.setupError.message);
      return;
    }
    keyTable();
    $('restart').addEventListener('click', function () { restart(); $('restart').blur(); });
    window.addEventListener('resize', fitCanvas);
    window.addEventListener('pagehide', function () {
      if (C.record && navigator.sendBeacon) navigator.sendBeacon('record', JSON.stringify(recording));
    });
    start(C.seed);
    $('rec').textContent = C.record ? 'recording' : '';
    requestAnimationFrame(tick);
  }
  window.__jsgymPlay = { upload: upload, restart: function (seed) { upload(); start(seed); },
                         recording: function () { return recording; } };
  boot();
})();
