/* jsgym determinism prelude: loaded by every jsgym page after contract.js and before
 * p5.js and the game.
 *
 * It makes the browser run a game exactly as jsgym's QuickJS backend does (the values
 * are the env contract's, window.__jsgymContract: contract/contract.json "seeds" and
 * "clock") and changes nothing else that real p5.js and V8 do:
 *  - Math.random is mulberry32, seeded at each episode start with
 *    (seed ^ randomMix) >>> 0 (as if seed were 0 before the first episode);
 *  - a virtual clock: performance.now() = frameCount * 1000 / frameRate (p5's
 *    frameCount, 0 before p5 starts), so millis() follows it; Date.now() and new
 *    Date() = epochMs + Math.floor(performance.now()); every other Date form is the
 *    engine's own. (deltaTime is pinned to 1000 / frameRate by driver.js.)
 * The page's error events are recorded for the driver (load and syntax errors).
 */
(function () {
  'use strict';
  var C = window.__jsgymContract;
  var FRAME_MS = 1000 / C.frameRate;
  var EPOCH_MS = C.epochMs;
  var state = C.randomMix | 0;

  function random() {
    state = (state + 0x6D2B79F5) | 0;
    var t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  Object.defineProperty(Math, 'random', { value: random, writable: true, configurable: true });

  function frame() {
    var inst = window.p5 && window.p5.instance;
    return inst && typeof inst.frameCount === 'number' ? inst.frameCount : 0;
  }
  function now() { return frame() * FRAME_MS; }
  Object.defineProperty(performance, 'now', { value: function now_() { return now(); },
                                              writable: true, configurable: true });

  var RealDate = Date;
  var wallNow = function () { return EPOCH_MS + Math.floor(now()); };
  var JsgymDate = function Date() {
    if (!new.target) return new RealDate(wallNow()).toString();
    if (arguments.length === 0) return new RealDate(wallNow());
    return Reflect.construct(RealDate, arguments, new.target);
  };
  JsgymDate.prototype = RealDate.prototype;
  JsgymDate.now = function now() { return wallNow(); };
  JsgymDate.UTC = RealDate.UTC;
  JsgymDate.parse = RealDate.parse;
  Object.defineProperty(window, 'Date', { value: JsgymDate, writable: true, configurable: true });

  var errors = [];
  window.addEventListener('error', function (e) {
    errors.push({ message: String(e.message), file: String(e.filename || ''),
                  line: e.lineno || 0, column: e.colno || 0,
                  stack: e.error && e.error.stack ? String(e.error.stack) : '' });
  });

  window.__jsgymPrelude = {
    FRAME_MS: FRAME_MS,
    EPOCH_MS: EPOCH_MS,
    /** Re-seeds Math.random for an episode of seed `seed`. */
    seedRandom: function (seed) { state = ((seed >>> 0) ^ C.randomMix) | 0; },
    errors: errors,
  };
})();
