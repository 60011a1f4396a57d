/* jsgym glue for matter-js: run right after matter-js itself, in both backends, for
 * games that use the global Matter (jsgym/libraries.py). matter-js has its own random
 * source (Common.random, a linear congruential generator on Common._seed), an id
 * counter (Common._nextId) and a clock (Common.now); so that an episode depends on its
 * seed alone, every episode start (before resetGame(seed)) restarts the first two
 * from the seed and 0, and the clock is the virtual one (performance.now()) in both
 * backends. The hook is not writable: a game cannot replace it. */
(function () {
  'use strict';
  var Common = Matter.Common;
  Common.now = function () { return performance.now(); };
  Object.defineProperty(globalThis, '__jsgymEpisodeStart', {
    value: function (seed) {
      Common._seed = (seed >>> 0) % 233280;
      Common._nextId = 0;
    },
    writable: false, configurable: false, enumerable: false,
  });
})();
