/* jsgym page driver: loaded after the game file, on every jsgym page (the browser
 * backend's env.html and the human-play page play.html).
 *
 * It runs one env's game under real p5.js exactly as jsgym's QuickJS game does
 * (runtime/env.c, p5shim); the episode rules around it (reward, termination,
 * autoreset, level seeds) are the native pool's for both backends (runtime/episode.c).
 * Every value it needs is the env contract's (window.__jsgymContract, from
 * contract/contract.json): seeds, clock, key names, phases, states, messages.
 *  - setup() runs once, with Math.random seeded as for seed 0 and
 *    noiseSeed(noiseMix), after pixelDensity(1); noLoop() follows it, and the one
 *    draw() p5 makes by itself after setup is skipped (jsgym draws only in episodes).
 *  - episode start (reset(seed)): release every key without callbacks, seed
 *    Math.random with (seed ^ randomMix) >>> 0, noiseSeed((seed ^ noiseMix) >>> 0),
 *    drop randomSeed() state, frameCount = 0 (virtual clock 0), deltaTime =
 *    1000 / frameRate, resetGame(seed), one redraw().
 *  - step(held, tapped, frameskip, pointer): before the first frame release the keys
 *    no longer held (and tapped keys that are down), press held keys then tapped keys
 *    in table order, then move the pointer and release/press its buttons (the order of
 *    p5shim/prelude_input.js); redraw() frameskip times, each followed by what p5's
 *    draw loop does for the mouse (pmouseX = mouseX, movedX = 0); release tapped keys,
 *    then tapped buttons, right after the first frame.
 *  - keys go down and up as real KeyboardEvents dispatched at document.body (keydown,
 *    then keypress for keys that type a character, keyup), so p5's own listeners set
 *    keyCode/key/keyIsDown and call keyPressed/keyTyped/keyReleased. A key already
 *    down is not pressed again (p5 1.x ignores such a keydown).
 *  - observe(h, w, fit): the canvas area-averaged to h x w in the page (transparent
 *    pixels over black), returned as base64 RGB.
 * A failure is returned as {error: {phase, message, stack, contract}}, phase a
 * contract phase name ('draw', 'key', 'state', ...). A contract function the game
 * replaced with something else fails as in the QuickJS backend ("draw is no longer a
 * function"; p5 itself would skip a draw() of another type).
 */
(function () {
  'use strict';
  var C = window.__jsgymContract;
  var P = window.__jsgymPrelude;
  var MAX_DOWN_KEYS = C.maxDownKeys;
  var gameSetup = window.setup;
  var gameDraw = window.draw;
  // p5 draws once by itself right after setup(); jsgym draws only in episodes, so
  // that one call is swallowed and the game's draw() put back.
  var placeholderDraw = function () { window.draw = gameDraw; };

  var J = window.__jsgym = {
    ready: false,        // setup() ran (or failed: see setupError)
    setupError: null,
    contractError: null,
    hasEpisode: false,
    down: [],            // keys down, in the order they went down
  };

  function errorInfo(e, phase) {
    var message = e && e.message !== undefined ? String(e.message) : String(e);
    var name = e && e.name ? String(e.name) : 'Error';
    return { phase: phase, message: name + ': ' + message,
             stack: e && e.stack ? String(e.stack) : '' };
  }

  // The contract, checked before setup() as the QuickJS backend does. A name is looked
  // up as game code would see it (a Function body is global code: top-level let and
  // const bindings are visible too).
  (function checkContract() {
    var missing = [], M = C.messages;
    var found = { setup: gameSetup, draw: gameDraw };
    C.gameFunctions.forEach(function (name) {
      var v = name in found ? found[name]
        : new Function('return typeof ' + name + " === 'undefined' ? undefined : " + name)();
      if (typeof v !== 'function')
        missing.push(name + '() ' + (v === undefined ? M.missing : M.not_a_function));
    });
    if (missing.length) J.contractError = M.unmet + missing.join(M.separator);
  })();

  function inst() { return window.p5.instance; }

  /** Throws unless the game's `name` (a contract function) is still a function. */
  function requireFunction(v, name) {
    if (typeof v !== 'function') throw new TypeError(name + ' ' + C.messages.no_longer_a_function);
  }

  // What jsgym cannot give (3D) fails as a broken contract, as in the QuickJS backend,
  // even if the game catches the throw: p5 would otherwise draw into a WebGL canvas
  // that no observation can read.
  var unsupported = null;
  var createCanvas2D = window.p5.prototype.createCanvas;
  window.p5.prototype.createCanvas = function (w, h, renderer) {
    if (renderer === 'webgl' || renderer === 'webgl2') {
      unsupported = unsupported || C.messages.unmet + C.messages.webgl;
      throw new TypeError('jsgym: ' + C.messages.webgl);
    }
    return createCanvas2D.apply(this, arguments);
  };
  function checkSupported() {
    if (unsupported) throw { contract: unsupported };
  }

  window.setup = function () {
    var p = inst();
    P.seedRandom(0);
    p.noiseSeed(C.noiseMix);
    p._setProperty('deltaTime', P.FRAME_MS);
    p.pixelDensity(1);
    try {
      if (J.contractError) throw new Error(J.contractError);
      gameSetup();
      checkSupported();
    } catch (e) {
      J.setupError = unsupported
        ? { phase: 'setup', contract: true, message: C.phases.setup + ': ' + unsupported, stack: '' }
        : errorInfo(e, 'setup');
    }
    p.noLoop();
    p._setProperty('deltaTime', P.FRAME_MS);
    J.ready = true;
  };
  window.draw = placeholderDraw;

  /* ------------------------------------------------------------ keys */
  /** [KeyboardEvent.key, keypress char code (0: none), KeyboardEvent.code] of a key
   * code (US layout, no modifiers): the contract's key table. */
  function keyFields(code) { return C.keyEvents[code] || C.unknownKey; }
  // An exception in keyPressed(), keyTyped() or keyReleased() does not leave
  // dispatchEvent (the browser reports it as an error event): it is caught here and
  // rethrown to the step, which fails in the key phase as in the QuickJS backend.
  var dispatching = false, callbackError = null;
  window.addEventListener('error', function (e) {
    if (dispatching && !callbackError) callbackError = { error: e.error !== undefined ? e.error : new Error(e.message) };
  });
  function fire(type, code, key, which, charCode) {
    var e = new KeyboardEvent(type, { key: key, code: keyFields(code)[2], bubbles: true,
                                      cancelable: true, repeat: false });
    // keyCode/which/charCode are legacy read-only getters: set them as a browser does.
    Object.defineProperty(e, 'keyCode', { value: type === 'keypress' ? charCode : code });
    Object.defineProperty(e, 'which', { value: which });
    Object.defineProperty(e, 'charCode', { value: charCode });
    dispatching = true;
    try {
      (document.body || document.documentElement).dispatchEvent(e);
    } finally {
      dispatching = false;
    }
    if (callbackError) {
      var thrown = callbackError.error;
      callbackError = null;
      throw thrown;
    }
  }
  function keyEvent(code, down) {
    var i = J.down.indexOf(code);
    var names = keyFields(code);
    if (down) {
      if (i >= 0 || J.down.length === MAX_DOWN_KEYS) return;
      J.down.push(code);
      fire('keydown', code, names[0], code, 0);
      if (names[1]) fire('keypress', code, names[0], names[1], names[1]);
    } else {
      if (i < 0) return;
      J.down.splice(i, 1);
      fire('keyup', code, names[0], code, 0);
    }
  }
  function releaseAll() {
    var p = inst();
    if (J.down.length) {
      p._onblur();  // p5 forgets every down key, calling nothing
      p._setProperty('isKeyPressed', false);
      p._setProperty('keyIsPressed', false);
    }
    J.down = [];
  }
  function applyKeys(held, tapped) {
    for (var i = J.down.length - 1; i >= 0; i--) {
      var k = J.down[i];
      if (held.indexOf(k) < 0 || tapped.indexOf(k) >= 0) keyEvent(k, false);
    }
    for (i = 0; i < held.length; i++) keyEvent(held[i], true);
    for (i = 0; i < tapped.length; i++) keyEvent(tapped[i], true);
  }
  function releaseTaps(held, tapped) {
    for (var i = 0; i < tapped.length; i++)
      if (held.indexOf(tapped[i]) < 0) keyEvent(tapped[i], false);
  }

  /* ------------------------------------------------------------ pointer */
  // The mouse as the QuickJS backend moves it (p5shim/prelude_input.js has the event
  // order): real MouseEvents dispatched at the canvas, which bubble to the window
  // listeners p5 installs; positions are whole canvas pixels (the pool rounds them),
  // the canvas sits at the page's origin at its own size, so p5's mouseX is x.
  // redraw() alone does not do what p5's draw loop does after a frame
  // (pmouseX = mouseX, movedX = 0): frameEnd() does it.
  var BUTTONS = Object.keys(C.buttonEvents).map(Number).sort(function (a, b) { return a - b; });
  var LEFT_BIT = BUTTONS[0];
  var ptr = { used: false, x: 0, y: 0, down: 0, lastPress: null, clicks: 0 };
  function mouse(type, button) {
    var p = inst();
    var canvas = p.canvas || p._renderer.elt;
    var rect = canvas.getBoundingClientRect();
    var e = new MouseEvent(type, { bubbles: true, cancelable: true, view: window,
                                   clientX: rect.left + ptr.x, clientY: rect.top + ptr.y,
                                   screenX: ptr.x, screenY: ptr.y, button: button,
                                   buttons: ptr.down, detail: type === 'dblclick' ? 2 : ptr.clicks });
    dispatching = true;
    try {
      canvas.dispatchEvent(e);
    } finally {
      dispatching = false;
    }
    if (callbackError) {
      var thrown = callbackError.error;
      callbackError = null;
      throw thrown;
    }
  }
  function press(bit) {
    ptr.down |= bit;
    if (bit === LEFT_BIT) {
      var t = performance.now();
      var lp = ptr.lastPress;
      ptr.clicks = lp && lp.x === ptr.x && lp.y === ptr.y && t - lp.t <= C.doubleClickMs
        ? ptr.clicks + 1 : 1;
      ptr.lastPress = { t: t, x: ptr.x, y: ptr.y };
    }
    mouse('mousedown', C.buttonEvents[bit][0]);
  }
  function release(bit) {
    ptr.down &= ~bit;
    mouse('mouseup', C.buttonEvents[bit][0]);
    if (bit !== LEFT_BIT) return;
    mouse('click', 0);
    if (ptr.clicks === 2) {
      mouse('dblclick', 0);
      ptr.lastPress = null;
    }
  }
  /** Before the first frame: move (pointer.at = [x, y] or null), then buttons. */
  function applyPointer(pointer) {
    if (!pointer) {
      if (!ptr.down) return;
      pointer = { at: null, held: 0, tapped: 0 };
    }
    var at = pointer.at, held = pointer.held, tapped = pointer.tapped, i, bit;
    if (at && (!ptr.used || at[0] !== ptr.x || at[1] !== ptr.y)) {
      ptr.x = at[0]; ptr.y = at[1];
      ptr.used = true;
      mouse('mousemove', 0);
    }
    for (i = 0; i < BUTTONS.length; i++) {
      bit = BUTTONS[i];
      if ((ptr.down & bit) && (!(held & bit) || (tapped & bit))) release(bit);
    }
    for (i = 0; i < BUTTONS.length; i++) {
      bit = BUTTONS[i];
      if ((held & bit) && !(ptr.down & bit)) { ptr.used = true; press(bit); }
    }
    for (i = 0; i < BUTTONS.length; i++) {
      bit = BUTTONS[i];
      if ((tapped & bit) && !(ptr.down & bit)) { ptr.used = true; press(bit); }
    }
  }
  function releasePointerTaps(pointer) {
    if (!pointer) return;
    for (var i = 0; i < BUTTONS.length; i++) {
      var bit = BUTTONS[i];
      if ((pointer.tapped & bit) && !(pointer.held & bit) && (ptr.down & bit)) release(bit);
    }
  }
  function frameEnd() {
    if (!ptr.used) return;
    var p = inst();
    p._updateMouseCoords();
    p._setProperty('movedX', 0);
    p._setProperty('movedY', 0);
  }
  function resetPointer() {
    if (!ptr.used) return;
    var p = inst();
    ['mouseX', 'mouseY', 'pmouseX', 'pmouseY', 'winMouseX', 'winMouseY', 'pwinMouseX',
     'pwinMouseY', 'movedX', 'movedY', 'mouseButton'].forEach(function (n) { p._setProperty(n, 0); });
    p._setProperty('mouseIsPressed', false);
    p._setProperty('_hasMouseInteracted', false);
    ptr = { used: false, x: 0, y: 0, down: 0, lastPress: null, clicks: 0 };
  }

  /* ------------------------------------------------------------ frames */
  function readState() {
    var M = C.messages;
    requireFunction(typeof getGameState === 'undefined' ? undefined : getGameState, // eslint-disable-line no-undef
                    'getGameState');
    var s = getGameState(); // eslint-disable-line no-undef
    if (s === null || typeof s !== 'object') throw { contract: M.state_not_object };
    var g = typeof s.gameState === 'string' ? s.gameState.toLowerCase() : null;
    var code = g !== null && Object.prototype.hasOwnProperty.call(C.stateSpellings, g)
      ? C.stateSpellings[g] : -1;
    if (typeof s.score !== 'number' || !isFinite(s.score)) throw { contract: M.state_score };
    if (typeof s.lives !== 'number' || s.lives !== s.lives) throw { contract: M.state_lives };
    if (code < 0) throw { contract: M.state_game_state };
    return { score: s.score, lives: s.lives, gameState: code };
  }

  var weightCache = {};
  /** Per output index: [first source index, weights...] of the area average of the
   * source interval it covers (scale `s` output px per source px, offset `o`). */
  function axisWeights(n, out, s, o) {
    var key = n + ':' + out + ':' + s + ':' + o;
    if (weightCache[key]) return weightCache[key];
    var rows = [];
    for (var j = 0; j < out; j++) {
      var a = Math.max(0, (j - o) / s), b = Math.min(n, (j + 1 - o) / s);
      var row = { start: 0, w: [] };
      if (b > a) {
        var i0 = Math.floor(a), i1 = Math.ceil(b);
        row.start = i0;
        for (var i = i0; i < i1; i++) row.w.push((Math.min(b, i + 1) - Math.max(a, i)) * s);
      }
      rows.push(row);
    }
    weightCache[key] = rows;
    return rows;
  }

  /** The canvas area-averaged to oh x ow RGB (transparent pixels over black), base64. */
  J.observe = function (oh, ow, fit) {
    var p = inst();
    var canvas = p.canvas || p._renderer.elt;
    var W = canvas.width, H = canvas.height;
    var data = p.drawingContext.getImageData(0, 0, W, H).data;
    var sx = ow / W, sy = oh / H, ox = 0, oy = 0;
    if (fit === 'letterbox') {
      sx = sy = Math.min(ow / W, oh / H);
      ox = (ow - W * sx) / 2;
      oy = (oh - H * sy) / 2;
    }
    var wx = axisWeights(W, ow, sx, ox), wy = axisWeights(H, oh, sy, oy);
    var rowsum = new Float64Array(H * ow * 3);
    for (var y = 0; y < H; y++) {
      var base = y * W * 4, rb = y * ow * 3;
      for (var j = 0; j < ow; j++) {
        var c = wx[j], r = 0, g = 0, bl = 0;
        for (var k = 0; k < c.w.length; k++) {
          var q = base + (c.start + k) * 4, wa = c.w[k] * data[q + 3] / 255;
          r += data[q] * wa; g += data[q + 1] * wa; bl += data[q + 2] * wa;
        }
        rowsum[rb + 3 * j] = r; rowsum[rb + 3 * j + 1] = g; rowsum[rb + 3 * j + 2] = bl;
      }
    }
    var out = new Uint8Array(oh * ow * 3);
    for (var i = 0; i < oh; i++) {
      var cy = wy[i];
      for (j = 0; j < ow * 3; j++) {
        var v = 0;
        for (k = 0; k < cy.w.length; k++) v += rowsum[(cy.start + k) * ow * 3 + j] * cy.w[k];
        v = Math.floor(v + 0.5 + 1e-9);
        out[i * ow * 3 + j] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
    var s = '';
    for (i = 0; i < out.length; i += 8192)
      s += String.fromCharCode.apply(null, out.subarray(i, i + 8192));
    return btoa(s);
  };

  function fail(e, phase) {
    if (unsupported) e = { contract: C.phases[phase] + ': ' + unsupported };
    if (e && e.contract) return { error: { phase: phase, contract: true, message: e.contract, stack: '' } };
    return { error: errorInfo(e, phase) };
  }

  /** Starts an episode; returns {state, obs} or {error}. */
  J.reset = function (seed, oh, ow, fit) {
    var p = inst();
    releaseAll();
    try {
      resetPointer();
    } catch (e) {
      return fail(e, 'reset');
    }
    P.seedRandom(seed);
    p.noiseSeed(((seed >>> 0) ^ C.noiseMix) >>> 0);
    p._lcg_random_state = null;
    p._gaussian_previous = false;
    p._setProperty('frameCount', 0);
    p._millisStart = 0;
    p._setProperty('deltaTime', P.FRAME_MS);
    if (window.draw === placeholderDraw) window.draw = gameDraw;
    try {
      // an optional library's random sources restart from the seed (web/matter-glue.js)
      if (typeof window.__jsgymEpisodeStart === 'function') window.__jsgymEpisodeStart(seed);
      requireFunction(typeof resetGame === 'undefined' ? undefined : resetGame, // eslint-disable-line no-undef
                      'resetGame');
      resetGame(seed); // eslint-disable-line no-undef
    } catch (e) {
      return fail(e, 'reset');
    }
    var r = J.frames([], [], 1, null, oh, ow, fit);
    if (!r.error) J.hasEpisode = true;
    return r;
  };

  /** One step: key and pointer events, frameskip redraws, state, observation (oh = 0:
   * none). pointer: null (stays, buttons unchanged) or {at: [x, y] | null, held, tapped}
   * with button masks. */
  J.frames = function (held, tapped, frameskip, pointer, oh, ow, fit) {
    var phase = 'key';
    try {
      applyKeys(held, tapped);
      phase = 'pointer';
      applyPointer(pointer);
      for (var f = 0; f < frameskip; f++) {
        phase = 'draw';
        requireFunction(window.draw, 'draw');
        p5.instance.redraw();
        checkSupported();
        frameEnd();
        if (f === 0) {
          phase = 'key';
          releaseTaps(held, tapped);
          phase = 'pointer';
          releasePointerTaps(pointer);
        }
      }
      phase = 'state';
      var st = readState();
    } catch (e) {
      return fail(e, phase);
    }
    return { s: st.score, l: st.lives, g: st.gameState, o: oh ? J.observe(oh, ow, fit) : '' };
  };

  J.step = function (held, tapped, frameskip, pointer, oh, ow, fit) {
    return J.frames(held, tapped, frameskip, pointer, oh, ow, fit);
  };
  /** Where the pointer is and which buttons are down (the play page records them). */
  J.pointer = function () { return { used: ptr.used, x: ptr.x, y: ptr.y, down: ptr.down }; };
})();
