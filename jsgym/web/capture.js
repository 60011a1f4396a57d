/* jsgym L2 call-stream capture: the same file runs in both backends (evaluated with
 * call_js in QuickJS, and in the browser page), so the two logs are comparable.
 *
 * install() wraps the p5 globals below: each call made by the game is logged as
 * [frameCount, name, ...evaluated arguments] (colours as their RGBA levels in the
 * colour mode then in force; numbers as numbers; strings as strings), and every
 * shape call appends the style it is drawn with: [fill RGBA or null, stroke RGBA or
 * null, strokeWeight], as push() and pop() save and restore it. Functions whose
 * value matters also log it (random, noise, textWidth, keyIsDown, millis). Games
 * look p5 functions up as globals at call time. Only calls made while the game's
 * own code runs (draw, resetGame and the key callbacks, wrapped too) are logged, so
 * p5's internal calls (redraw's resetMatrix) are not.
 * take() returns the log so far and empties it.
 */
(function (g) {
  'use strict';
  if (g.__jsgymCapture) return;
  var STYLE = ['fill', 'noFill', 'stroke', 'noStroke', 'strokeWeight', 'strokeCap',
               'strokeJoin', 'colorMode', 'rectMode', 'ellipseMode', 'angleMode',
               'textSize', 'textAlign', 'textStyle', 'textLeading', 'textFont', 'blendMode'];
  var TRANSFORM = ['push', 'pop', 'translate', 'rotate', 'scale', 'shearX', 'shearY',
                   'resetMatrix', 'applyMatrix'];
  var SHAPES = ['background', 'clear', 'rect', 'square', 'ellipse', 'circle', 'arc', 'line',
                'point', 'triangle', 'quad', 'bezier', 'curve', 'text', 'beginShape', 'vertex',
                'curveVertex', 'bezierVertex', 'quadraticVertex', 'endShape', 'beginContour',
                'endContour'];
  var VALUED = ['random', 'randomGaussian', 'noise', 'textWidth', 'keyIsDown', 'millis',
                'randomSeed', 'noiseSeed', 'noiseDetail'];
  var COLOUR_ARGS = { fill: 1, stroke: 1, background: 1 };
  var STYLED = {};
  SHAPES.forEach(function (n) { if (n !== 'background' && n !== 'clear') STYLED[n] = 1; });

  var log = [];
  var originals = {};
  var style = { fill: [255, 255, 255, 255], stroke: [0, 0, 0, 255], weight: 1 };
  // the styles push() saved, which pop() restores, as p5 does
  var styles = [];
  var depth = 0;
  var active = 0;
  var GAME = ['draw', 'resetGame', 'keyPressed', 'keyReleased', 'keyTyped'];

  function levels(args) {
    try {
      var c = originals.color ? originals.color.apply(null, args) : g.color.apply(null, args);
      return c && c.levels ? Array.prototype.slice.call(c.levels) : null;
    } catch (e) {
      return null;
    }
  }
  function value(v) {
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
    if (v === undefined) return null;
    if (v && v.levels) return ['color'].concat(Array.prototype.slice.call(v.levels));
    if (v && typeof v.x === 'number' && typeof v.y === 'number') return ['vector', v.x, v.y, v.z || 0];
    if (Array.isArray(v)) return v.map(value);
    return typeof v;
  }
  function wrap(name) {
    var f = g[name];
    if (typeof f !== 'function') return;
    originals[name] = f;
    g[name] = function () {
      var args = Array.prototype.slice.call(arguments);
      if (depth > 0 || active === 0) return f.apply(this, args);
      depth++;
      try {
        var entry = [g.frameCount, name];
        if (COLOUR_ARGS[name] && args.length) {
          var lv = levels(args);
          entry.push(lv ? ['rgba'].concat(lv) : args.map(value));
        } else {
          for (var i = 0; i < args.length; i++) entry.push(value(args[i]));
        }
        var r = f.apply(this, args);
        if (name === 'fill') style.fill = levels(args);
        else if (name === 'noFill') style.fill = null;
        else if (name === 'stroke') style.stroke = levels(args);
        else if (name === 'noStroke') style.stroke = null;
        else if (name === 'strokeWeight') style.weight = args[0];
        else if (name === 'push') styles.push({ fill: style.fill, stroke: style.stroke, weight: style.weight });
        else if (name === 'pop' && styles.length) style = styles.pop();
        if (STYLED[name]) entry.push(['style', style.fill, style.stroke, style.weight]);
        if (VALUED.indexOf(name) >= 0) entry.push(['=', value(r)]);
        log.push(entry);
        return r;
      } finally {
        depth--;
      }
    };
  }

  function wrapGame(name) {
    var f = g[name];
    if (typeof f !== 'function') return;
    g[name] = function () {
      active++;
      try { return f.apply(this, arguments); } finally { active--; }
    };
  }

  g.__jsgymCapture = {
    install: function () {
      if (originals.fill) return true;
      originals.color = g.color;
      STYLE.concat(TRANSFORM, SHAPES, VALUED).forEach(wrap);
      GAME.forEach(wrapGame);
      return true;
    },
    take: function () { var out = log; log = []; return out; },
  };
})(typeof globalThis !== 'undefined' ? globalThis : this);
