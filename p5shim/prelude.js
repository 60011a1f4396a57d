/* p5shim prelude: the pure-JS part of jsgym's p5.js 1.11 global-mode shim.
 *
 * Evaluated once per context by p5shim_install(): this file is one function
 * expression, called as f(native, global), so it declares no global let/const/class
 * names a game could collide with; everything it provides is assigned as a
 * writable, configurable property of the global object (as p5 does on window).
 * `native` holds hidden C helpers (not globals). It returns the helpers the C side
 * calls (colorPacked).
 *
 * Here: p5.Color and colour parsing/getters (color, red ... lightness, lerpColor,
 * colorMode), p5.Vector and createVector, angleMode and the angle-aware trig
 * helpers, fract and the Math aliases, the virtual clock for Date and
 * performance.now(), and a few harmless globals. Formulas follow p5 1.11.13.
 */
(function (native, global) {
  'use strict';
  var def = function (name, value) {
    Object.defineProperty(global, name, { value: value, writable: true, configurable: true, enumerable: false });
  };
  var RGB = 'rgb', HSB = 'hsb', HSL = 'hsl';
  var DEGREES = 'degrees', RADIANS = 'radians';
  var TWO_PI = Math.PI * 2, DEG_TO_RAD = Math.PI / 180, RAD_TO_DEG = 180 / Math.PI;

  /* ---------------------------------------------------------------- angles */
  var angleMode = RADIANS;
  var toRadians = function (a) { return angleMode === DEGREES ? a * DEG_TO_RAD : a; };
  var fromRadians = function (a) { return angleMode === DEGREES ? a * RAD_TO_DEG : a; };
  def('angleMode', function (mode) {
    if (typeof mode === 'undefined') return angleMode;
    if (mode === DEGREES || mode === RADIANS) {
      angleMode = mode;
      native.setAngleMode(mode === DEGREES);
    }
  });
  // sin, cos, tan, asin, acos, atan and atan2 are native (p5_math.c).
  // p5 binds these four to the Math functions themselves; the runtime never
  // replaces them (they are exact in IEEE arithmetic), so no wrapper is needed.
  def('abs', Math.abs);
  def('ceil', Math.ceil);
  def('floor', Math.floor);
  def('exp', function (n) { return Math.exp(n); });
  def('log', function (n) { return Math.log(n); });
  def('sqrt', Math.sqrt);
  def('pow', function (a, b) { return Math.pow(a, b); });
  def('fract', function (toConvert) {
    var sign = 0;
    var num = Number(toConvert);
    if (isNaN(num) || Math.abs(num) === Infinity) return num;
    if (num < 0) { num = -num; sign = 1; }
    if (String(num).includes('.') && !String(num).includes('e')) {
      var s = String(num);
      s = Number('0' + s.slice(s.indexOf('.')));
      return Math.abs(sign - s);
    } else if (num < 1) {
      return Math.abs(sign - num);
    }
    return 0;
  });

  /* ---------------------------------------------------------------- colour */
  // The colorMode maxima table. p5 shares it by reference with every p5.Color,
  // so colorMode(mode, max...) changes the getters of existing colours too.
  var maxes = { rgb: [255, 255, 255, 255], hsb: [360, 100, 100, 1], hsl: [360, 100, 100, 1] };
  var modeIndex = { rgb: 0, hsb: 1, hsl: 2 };
  def('colorMode', function (mode, max1, max2, max3, maxA) {
    if (mode === RGB || mode === HSB || mode === HSL) {
      var m = maxes[mode];
      if (arguments.length === 2) { m[0] = max1; m[1] = max1; m[2] = max1; m[3] = max1; }
      else if (arguments.length === 4) { m[0] = max1; m[1] = max2; m[2] = max3; }
      else if (arguments.length === 5) { m[0] = max1; m[1] = max2; m[2] = max3; m[3] = maxA; }
      native.setColorMode(modeIndex[mode], m[0], m[1], m[2], m[3]);
    }
  });

  // CSS named colours: the shim's table (p5_color.c), one copy for C and JS.
  var named = native.namedColors();
  var INTEGER = '(\\d{1,3})', DECIMAL = '((?:\\d+(?:\\.\\d+)?)|(?:\\.\\d+))', PERCENT = DECIMAL + '%';
  var pat = function (name, parts) { return new RegExp(['^' + name + '\\('].concat(parts).concat(['\\)$']).join('\\s*'), 'i'); };
  var P = {
    HEX3: /^#([a-f0-9])([a-f0-9])([a-f0-9])$/i,
    HEX4: /^#([a-f0-9])([a-f0-9])([a-f0-9])([a-f0-9])$/i,
    HEX6: /^#([a-f0-9]{2})([a-f0-9]{2})([a-f0-9]{2})$/i,
    HEX8: /^#([a-f0-9]{2})([a-f0-9]{2})([a-f0-9]{2})([a-f0-9]{2})$/i,
    RGB: pat('rgb', [INTEGER, ',', INTEGER, ',', INTEGER]),
    RGB_PERCENT: pat('rgb', [PERCENT, ',', PERCENT, ',', PERCENT]),
    RGBA: pat('rgba', [INTEGER, ',', INTEGER, ',', INTEGER, ',', DECIMAL]),
    RGBA_PERCENT: pat('rgba', [PERCENT, ',', PERCENT, ',', PERCENT, ',', DECIMAL]),
    HSL: pat('hsl', [INTEGER, ',', PERCENT, ',', PERCENT]),
    HSLA: pat('hsla', [INTEGER, ',', PERCENT, ',', PERCENT, ',', DECIMAL]),
    HSB: pat('hsb', [INTEGER, ',', PERCENT, ',', PERCENT]),
    HSBA: pat('hsba', [INTEGER, ',', PERCENT, ',', PERCENT, ',', DECIMAL])
  };

  var conv = {
    hsbaToRGBA: function (hsba) {
      var hue = hsba[0] * 6, sat = hsba[1], val = hsba[2];
      if (sat === 0) return [val, val, val, hsba[3]];
      var sector = Math.floor(hue);
      var tint1 = val * (1 - sat);
      var tint2 = val * (1 - sat * (hue - sector));
      var tint3 = val * (1 - sat * (1 + sector - hue));
      var r, g, b;
      if (sector === 1) { r = tint2; g = val; b = tint1; }
      else if (sector === 2) { r = tint1; g = val; b = tint3; }
      else if (sector === 3) { r = tint1; g = tint2; b = val; }
      else if (sector === 4) { r = tint3; g = tint1; b = val; }
      else if (sector === 5) { r = val; g = tint1; b = tint2; }
      else { r = val; g = tint3; b = tint1; }
      return [r, g, b, hsba[3]];
    },
    hslaToRGBA: function (hsla) {
      var hue = hsla[0] * 6, sat = hsla[1], li = hsla[2];
      if (sat === 0) return [li, li, li, hsla[3]];
      var val = li < 0.5 ? (1 + sat) * li : li + sat - li * sat;
      var zest = 2 * li - val;
      var hzv = function (h) {
        if (h < 0) h += 6; else if (h >= 6) h -= 6;
        if (h < 1) return zest + (val - zest) * h;
        if (h < 3) return val;
        if (h < 4) return zest + (val - zest) * (4 - h);
        return zest;
      };
      return [hzv(hue + 2), hzv(hue), hzv(hue - 2), hsla[3]];
    },
    rgbaToHSBA: function (rgba) {
      var red = rgba[0], green = rgba[1], blue = rgba[2];
      var val = Math.max(red, green, blue);
      var chroma = val - Math.min(red, green, blue);
      var hue, sat;
      if (chroma === 0) { hue = 0; sat = 0; }
      else {
        sat = chroma / val;
        if (red === val) hue = (green - blue) / chroma;
        else if (green === val) hue = 2 + (blue - red) / chroma;
        else if (blue === val) hue = 4 + (red - green) / chroma;
        if (hue < 0) hue += 6; else if (hue >= 6) hue -= 6;
      }
      return [hue / 6, sat, val, rgba[3]];
    },
    rgbaToHSLA: function (rgba) {
      var red = rgba[0], green = rgba[1], blue = rgba[2];
      var val = Math.max(red, green, blue);
      var min = Math.min(red, green, blue);
      var li = val + min;
      var chroma = val - min;
      var hue, sat;
      if (chroma === 0) { hue = 0; sat = 0; }
      else {
        sat = li < 1 ? chroma / li : chroma / (2 - li);
        if (red === val) hue = (green - blue) / chroma;
        else if (green === val) hue = 2 + (blue - red) / chroma;
        else if (blue === val) hue = 4 + (red - green) / chroma;
        if (hue < 0) hue += 6; else if (hue >= 6) hue -= 6;
      }
      return [hue / 6, sat, li / 2, rgba[3]];
    }
  };

  // p5.Color._parseInputs, with `this` the colour under construction.
  var parseInputs = function (color, args) {
    var numArgs = args.length, r = args[0], g = args[1], b = args[2], a = args[3];
    var mode = color.mode, mx = color.maxes[mode], results = [], i;
    if (numArgs >= 3) {
      results[0] = r / mx[0];
      results[1] = g / mx[1];
      results[2] = b / mx[2];
      results[3] = typeof a === 'number' ? a / mx[3] : 1;
      for (i = results.length - 1; i >= 0; --i) {
        if (results[i] < 0) results[i] = 0; else if (results[i] > 1) results[i] = 1;
      }
      if (mode === HSL) return conv.hslaToRGBA(results);
      if (mode === HSB) return conv.hsbaToRGBA(results);
      return results;
    } else if (numArgs === 1 && typeof r === 'string') {
      var str = r.trim().toLowerCase();
      if (named[str]) return parseInputs(color, [named[str]]);
      var m;
      if ((m = P.HEX3.exec(str))) {
        results = m.slice(1).map(function (c) { return parseInt(c + c, 16) / 255; });
        results[3] = 1;
        return results;
      } else if ((m = P.HEX6.exec(str))) {
        results = m.slice(1).map(function (c) { return parseInt(c, 16) / 255; });
        results[3] = 1;
        return results;
      } else if ((m = P.HEX4.exec(str))) {
        return m.slice(1).map(function (c) { return parseInt(c + c, 16) / 255; });
      } else if ((m = P.HEX8.exec(str))) {
        return m.slice(1).map(function (c) { return parseInt(c, 16) / 255; });
      } else if ((m = P.RGB.exec(str))) {
        results = m.slice(1).map(function (c) { return c / 255; });
        results[3] = 1;
        return results;
      } else if ((m = P.RGB_PERCENT.exec(str))) {
        results = m.slice(1).map(function (c) { return parseFloat(c) / 100; });
        results[3] = 1;
        return results;
      } else if ((m = P.RGBA.exec(str))) {
        return m.slice(1).map(function (c, idx) { return idx === 3 ? parseFloat(c) : c / 255; });
      } else if ((m = P.RGBA_PERCENT.exec(str))) {
        return m.slice(1).map(function (c, idx) { return idx === 3 ? parseFloat(c) : parseFloat(c) / 100; });
      }
      if ((m = P.HSL.exec(str))) {
        results = m.slice(1).map(function (c, idx) { return idx === 0 ? parseInt(c, 10) / 360 : parseInt(c, 10) / 100; });
        results[3] = 1;
      } else if ((m = P.HSLA.exec(str))) {
        results = m.slice(1).map(function (c, idx) {
          if (idx === 0) return parseInt(c, 10) / 360;
          if (idx === 3) return parseFloat(c);
          return parseInt(c, 10) / 100;
        });
      }
      results = results.map(function (v) { return Math.max(Math.min(v, 1), 0); });
      if (results.length) return conv.hslaToRGBA(results);
      if ((m = P.HSB.exec(str))) {
        results = m.slice(1).map(function (c, idx) { return idx === 0 ? parseInt(c, 10) / 360 : parseInt(c, 10) / 100; });
        results[3] = 1;
      } else if ((m = P.HSBA.exec(str))) {
        results = m.slice(1).map(function (c, idx) {
          if (idx === 0) return parseInt(c, 10) / 360;
          if (idx === 3) return parseFloat(c);
          return parseInt(c, 10) / 100;
        });
      }
      if (results.length) {
        for (i = results.length - 1; i >= 0; --i) results[i] = Math.max(Math.min(results[i], 1), 0);
        return conv.hsbaToRGBA(results);
      }
      return [1, 1, 1, 1]; // not a CSS colour: white
    } else if ((numArgs === 1 || numArgs === 2) && typeof r === 'number') {
      results[0] = r / mx[2];
      results[1] = r / mx[2];
      results[2] = r / mx[2];
      results[3] = typeof g === 'number' ? g / mx[3] : 1;
      return results.map(function (v) { return Math.max(Math.min(v, 1), 0); });
    }
    throw new Error(String(args) + 'is not a valid color representation.');
  };

  var hex2 = function (v) { return v < 16 ? '0' + v.toString(16) : v.toString(16); };

  function Color(pInst, vals) {
    if (!(this instanceof Color)) throw new TypeError("Class constructor Color cannot be invoked without 'new'");
    this.mode = native.colorMode();
    this.maxes = maxes;
    // the shapes the shim parses (numbers, hex, named, rgb()) come from C; the rest here
    this._array = native.colorUnit(vals) || parseInputs(this, vals);
    this._calculateLevels();
  }
  Color.prototype.toString = function (format) {
    var a = this.levels, f = this._array, alpha = f[3], mx = this.maxes;
    switch (format) {
      case '#rrggbb': return '#' + hex2(a[0]) + hex2(a[1]) + hex2(a[2]);
      case '#rrggbbaa': return '#' + hex2(a[0]) + hex2(a[1]) + hex2(a[2]) + hex2(a[3]);
      case '#rgb': return '#' + [0, 1, 2].map(function (i) { return Math.round(f[i] * 15).toString(16); }).join('');
      case '#rgba': return '#' + [0, 1, 2, 3].map(function (i) { return Math.round(f[i] * 15).toString(16); }).join('');
      case 'rgb': return 'rgb(' + a[0] + ', ' + a[1] + ', ' + a[2] + ')';
      case 'rgb%': return 'rgb(' + (100 * f[0]).toPrecision(3) + '%, ' + (100 * f[1]).toPrecision(3) + '%, ' + (100 * f[2]).toPrecision(3) + '%)';
      case 'rgba%': return 'rgba(' + (100 * f[0]).toPrecision(3) + '%, ' + (100 * f[1]).toPrecision(3) + '%, ' + (100 * f[2]).toPrecision(3) + '%, ' + (100 * f[3]).toPrecision(3) + '%)';
      case 'hsb': case 'hsv':
        if (!this.hsba) this.hsba = conv.rgbaToHSBA(this._array);
        return 'hsb(' + this.hsba[0] * mx[HSB][0] + ', ' + this.hsba[1] * mx[HSB][1] + ', ' + this.hsba[2] * mx[HSB][2] + ')';
      case 'hsba': case 'hsva':
        if (!this.hsba) this.hsba = conv.rgbaToHSBA(this._array);
        return 'hsba(' + this.hsba[0] * mx[HSB][0] + ', ' + this.hsba[1] * mx[HSB][1] + ', ' + this.hsba[2] * mx[HSB][2] + ', ' + alpha + ')';
      case 'hsl':
        if (!this.hsla) this.hsla = conv.rgbaToHSLA(this._array);
        return 'hsl(' + this.hsla[0] * mx[HSL][0] + ', ' + this.hsla[1] * mx[HSL][1] + ', ' + this.hsla[2] * mx[HSL][2] + ')';
      case 'hsla':
        if (!this.hsla) this.hsla = conv.rgbaToHSLA(this._array);
        return 'hsla(' + this.hsla[0] * mx[HSL][0] + ', ' + this.hsla[1] * mx[HSL][1] + ', ' + this.hsla[2] * mx[HSL][2] + ', ' + alpha + ')';
      default: return 'rgba(' + a[0] + ',' + a[1] + ',' + a[2] + ',' + alpha + ')';
    }
  };
  Color.prototype._getAlpha = function () { return this._array[3] * this.maxes[this.mode][3]; };
  Color.prototype._getRed = function () { return this._array[0] * this.maxes[RGB][0]; };
  Color.prototype._getGreen = function () { return this._array[1] * this.maxes[RGB][1]; };
  Color.prototype._getBlue = function () { return this._array[2] * this.maxes[RGB][2]; };
  Color.prototype._getBrightness = function () {
    if (!this.hsba) this.hsba = conv.rgbaToHSBA(this._array);
    return this.hsba[2] * this.maxes[HSB][2];
  };
  Color.prototype._getLightness = function () {
    if (!this.hsla) this.hsla = conv.rgbaToHSLA(this._array);
    return this.hsla[2] * this.maxes[HSL][2];
  };
  Color.prototype._getHue = function () {
    if (this.mode === HSB) {
      if (!this.hsba) this.hsba = conv.rgbaToHSBA(this._array);
      return this.hsba[0] * this.maxes[HSB][0];
    }
    if (!this.hsla) this.hsla = conv.rgbaToHSLA(this._array);
    return this.hsla[0] * this.maxes[HSL][0];
  };
  Color.prototype._getSaturation = function () {
    if (this.mode === HSB) {
      if (!this.hsba) this.hsba = conv.rgbaToHSBA(this._array);
      return this.hsba[1] * this.maxes[HSB][1];
    }
    if (!this.hsla) this.hsla = conv.rgbaToHSLA(this._array);
    return this.hsla[1] * this.maxes[HSL][1];
  };
  Color.prototype._getMode = function () { return this.mode; };
  Color.prototype._getMaxes = function () { return this.maxes; };

  // color() is native (p5_color.c): it builds p5.Color objects with these prototypes
  var color = global.color;
  // red(c) .. alpha(c) are native (p5_color.c) and call these getters but for an
  // untouched colour
  def('hue', function (c) { return color(c)._getHue(); });
  def('saturation', function (c) { return color(c)._getSaturation(); });
  def('brightness', function (c) { return color(c)._getBrightness(); });
  def('lightness', function (c) { return color(c)._getLightness(); });
  // lerpColor() is native in RGB mode; this one serves HSB and HSL (p5_color.c).
  var lerpColorJS = function (c1, c2, amt) {
    if (!(c1 instanceof Color)) c1 = color(c1);
    if (!(c2 instanceof Color)) c2 = color(c2);
    var mode = native.colorMode(), from, to, l0, l1, l2, l3;
    var lerp = function (a, b, t) { return t * (b - a) + a; };
    if (mode === RGB) {
      from = c1.levels.map(function (l) { return l / 255; });
      to = c2.levels.map(function (l) { return l / 255; });
    } else if (mode === HSB) {
      c1._getBrightness(); c2._getBrightness();
      from = c1.hsba; to = c2.hsba;
    } else {
      c1._getLightness(); c2._getLightness();
      from = c1.hsla; to = c2.hsla;
    }
    amt = Math.max(Math.min(amt, 1), 0);
    if (mode === RGB) {
      l0 = lerp(from[0], to[0], amt);
    } else {
      // shortest way round the hue circle (p5 mutates the cached arrays, as here)
      if (Math.abs(from[0] - to[0]) > 0.5) {
        if (from[0] > to[0]) to[0] += 1; else from[0] += 1;
      }
      l0 = lerp(from[0], to[0], amt);
      if (l0 >= 1) l0 -= 1;
    }
    l1 = lerp(from[1], to[1], amt);
    l2 = lerp(from[2], to[2], amt);
    l3 = lerp(from[3], to[3], amt);
    var m = maxes[mode];
    return color(l0 * m[0], l1 * m[1], l2 * m[2], l3 * m[3]);
  };
  native.registerColor(Color, maxes, function (str) { return parseInputs({ mode: RGB, maxes: maxes }, [str]); },
                       lerpColorJS);

  // fill(c) etc.: the RGBA8 canvas gets from color(...args).toString(); -1 when
  // that string is not a valid CSS colour (a NaN level): canvas keeps its style.
  var clampByte = function (v) { return v < 0 ? 0 : v > 255 ? 255 : v; };
  var colorPacked = function () {
    var c = color.apply(null, arguments), l = c.levels;
    var a = Math.round(Math.max(Math.min(c._array[3], 1), 0) * 255);
    if (isNaN(l[0]) || isNaN(l[1]) || isNaN(l[2]) || isNaN(a)) return -1;
    return (clampByte(l[0]) | clampByte(l[1]) << 8 | clampByte(l[2]) << 16) + a * 16777216;
  };

  /* ---------------------------------------------------------------- p5.Vector */
  // (named parameters: an `arguments` object costs more than the rest of the call)
  function Vector(a, b, c, d, e) {
    var x, y, z;
    if (typeof a === 'function') {
      this.isPInst = true;
      this._fromRadians = a;
      this._toRadians = b;
      x = c || 0; y = d || 0; z = e || 0;
    } else {
      x = a || 0; y = b || 0; z = c || 0;
    }
    this.x = x; this.y = y; this.z = z;
  }
  Object.defineProperty(Vector, 'length', { value: 0 }); // p5's class: constructor(...args)
  var V = Vector.prototype;
  var fin = Number.isFinite;
  var isNum = function (e) { return typeof e === 'number'; };
  V.toString = function () { return 'p5.Vector Object : [' + this.x + ', ' + this.y + ', ' + this.z + ']'; };
  V.set = function (x, y, z) {
    if (x instanceof Vector) { this.x = x.x || 0; this.y = x.y || 0; this.z = x.z || 0; return this; }
    if (Array.isArray(x)) { this.x = x[0] || 0; this.y = x[1] || 0; this.z = x[2] || 0; return this; }
    this.x = x || 0; this.y = y || 0; this.z = z || 0;
    return this;
  };
  V.copy = function () {
    return this.isPInst ? new Vector(this._fromRadians, this._toRadians, this.x, this.y, this.z)
                        : new Vector(this.x, this.y, this.z);
  };
  V.add = function (x, y, z) {
    if (x instanceof Vector) { this.x += x.x || 0; this.y += x.y || 0; this.z += x.z || 0; return this; }
    if (Array.isArray(x)) { this.x += x[0] || 0; this.y += x[1] || 0; this.z += x[2] || 0; return this; }
    this.x += x || 0; this.y += y || 0; this.z += z || 0;
    return this;
  };
  V.sub = function (x, y, z) {
    if (x instanceof Vector) { this.x -= x.x || 0; this.y -= x.y || 0; this.z -= x.z || 0; return this; }
    if (Array.isArray(x)) { this.x -= x[0] || 0; this.y -= x[1] || 0; this.z -= x[2] || 0; return this; }
    this.x -= x || 0; this.y -= y || 0; this.z -= z || 0;
    return this;
  };
  var rem2 = function (v, a, b) { if (a !== 0) v.x = v.x % a; if (b !== 0) v.y = v.y % b; return v; };
  var rem3 = function (v, a, b, c) { rem2(v, a, b); if (c !== 0) v.z = v.z % c; return v; };
  V.rem = function () {
    var args = Array.prototype.slice.call(arguments), x = args[0], y = args[1], z = args[2];
    if (x instanceof Vector) {
      if ([x.x, x.y, x.z].every(fin)) return rem3(this, parseFloat(x.x), parseFloat(x.y), parseFloat(x.z));
    } else if (Array.isArray(x)) {
      if (x.every(fin)) {
        if (x.length === 2) return rem2(this, x[0], x[1]);
        if (x.length === 3) return rem3(this, x[0], x[1], x[2]);
      }
    } else if (args.length === 1) {
      if (fin(x) && x !== 0) { this.x = this.x % x; this.y = this.y % x; this.z = this.z % x; return this; }
    } else if (args.length === 2) {
      if (args.every(fin)) return rem2(this, x, y);
    } else if (args.length === 3) {
      if (args.every(fin)) return rem3(this, x, y, z);
    }
  };
  V.mult = function () {
    var args = Array.prototype.slice.call(arguments), x = args[0], y = args[1], z = args[2];
    if (x instanceof Vector) {
      if (fin(x.x) && fin(x.y) && fin(x.z) && isNum(x.x) && isNum(x.y) && isNum(x.z)) {
        this.x *= x.x; this.y *= x.y; this.z *= x.z;
      }
      return this;
    }
    if (Array.isArray(x)) {
      if (x.every(fin) && x.every(isNum)) {
        if (x.length === 1) { this.x *= x[0]; this.y *= x[0]; this.z *= x[0]; }
        else if (x.length === 2) { this.x *= x[0]; this.y *= x[1]; }
        else if (x.length === 3) { this.x *= x[0]; this.y *= x[1]; this.z *= x[2]; }
      }
      return this;
    }
    if (args.every(fin) && args.every(isNum)) {
      if (args.length === 1) { this.x *= x; this.y *= x; this.z *= x; }
      if (args.length === 2) { this.x *= x; this.y *= y; }
      if (args.length === 3) { this.x *= x; this.y *= y; this.z *= z; }
    }
    return this;
  };
  V.div = function () {
    var args = Array.prototype.slice.call(arguments), x = args[0], y = args[1], z = args[2];
    if (x instanceof Vector) {
      if (fin(x.x) && fin(x.y) && fin(x.z) && isNum(x.x) && isNum(x.y) && isNum(x.z)) {
        var is2D = x.z === 0 && this.z === 0;
        if (x.x === 0 || x.y === 0 || (!is2D && x.z === 0)) return this;
        this.x /= x.x; this.y /= x.y;
        if (!is2D) this.z /= x.z;
      }
      return this;
    }
    if (Array.isArray(x)) {
      if (x.every(fin) && x.every(isNum)) {
        if (x.some(function (e) { return e === 0; })) return this;
        if (x.length === 1) { this.x /= x[0]; this.y /= x[0]; this.z /= x[0]; }
        else if (x.length === 2) { this.x /= x[0]; this.y /= x[1]; }
        else if (x.length === 3) { this.x /= x[0]; this.y /= x[1]; this.z /= x[2]; }
      }
      return this;
    }
    if (args.every(fin) && args.every(isNum)) {
      if (args.some(function (e) { return e === 0; })) return this;
      if (args.length === 1) { this.x /= x; this.y /= x; this.z /= x; }
      if (args.length === 2) { this.x /= x; this.y /= y; }
      if (args.length === 3) { this.x /= x; this.y /= y; this.z /= z; }
    }
    return this;
  };
  V.magSq = function () { var x = this.x, y = this.y, z = this.z; return x * x + y * y + z * z; };
  V.mag = function () { return Math.sqrt(this.magSq()); };
  V.dot = function (x, y, z) {
    if (x instanceof Vector) return this.dot(x.x, x.y, x.z);
    return this.x * (x || 0) + this.y * (y || 0) + this.z * (z || 0);
  };
  V.cross = function (v) {
    var x = this.y * v.z - this.z * v.y, y = this.z * v.x - this.x * v.z, z = this.x * v.y - this.y * v.x;
    return this.isPInst ? new Vector(this._fromRadians, this._toRadians, x, y, z) : new Vector(x, y, z);
  };
  V.dist = function (v) { return v.copy().sub(this).mag(); };
  V.normalize = function () { var len = this.mag(); if (len !== 0) this.mult(1 / len); return this; };
  V.limit = function (max) {
    var mSq = this.magSq();
    if (mSq > max * max) this.div(Math.sqrt(mSq)).mult(max);
    return this;
  };
  V.setMag = function (n) { return this.normalize().mult(n); };
  V.heading = function () {
    var h = Math.atan2(this.y, this.x);
    return this.isPInst ? this._fromRadians(h) : h;
  };
  V.setHeading = function (a) {
    if (this.isPInst) a = this._toRadians(a);
    var m = this.mag();
    this.x = m * Math.cos(a);
    this.y = m * Math.sin(a);
    return this;
  };
  V.rotate = function (a) {
    var h = this.heading() + a;
    if (this.isPInst) h = this._toRadians(h);
    var m = this.mag();
    this.x = Math.cos(h) * m;
    this.y = Math.sin(h) * m;
    return this;
  };
  V.angleBetween = function (v) {
    var magSqMult = this.magSq() * v.magSq();
    if (magSqMult === 0) return NaN;
    var u = this.cross(v);
    var angle = Math.atan2(u.mag(), this.dot(v)) * Math.sign(u.z || 1);
    return this.isPInst ? this._fromRadians(angle) : angle;
  };
  V.lerp = function (x, y, z, amt) {
    if (x instanceof Vector) return this.lerp(x.x, x.y, x.z, y);
    this.x += (x - this.x) * amt || 0;
    this.y += (y - this.y) * amt || 0;
    this.z += (z - this.z) * amt || 0;
    return this;
  };
  V.reflect = function (n) {
    var nc = Vector.normalize(n);
    return this.sub(nc.mult(2 * this.dot(nc)));
  };
  V.array = function () { return [this.x || 0, this.y || 0, this.z || 0]; };
  V.equals = function (x, y, z) {
    var a, b, c;
    if (x instanceof Vector) { a = x.x || 0; b = x.y || 0; c = x.z || 0; }
    else if (Array.isArray(x)) { a = x[0] || 0; b = x[1] || 0; c = x[2] || 0; }
    else { a = x || 0; b = y || 0; c = z || 0; }
    return this.x === a && this.y === b && this.z === c;
  };
  Vector.fromAngle = function (angle, length) {
    if (length === undefined) length = 1;
    return new Vector(length * Math.cos(angle), length * Math.sin(angle), 0);
  };
  Vector.random2D = function () { return Vector.fromAngle(Math.random() * TWO_PI); };
  Vector.random3D = function () {
    var angle = Math.random() * TWO_PI, vz = Math.random() * 2 - 1, b = Math.sqrt(1 - vz * vz);
    return new Vector(b * Math.cos(angle), b * Math.sin(angle), vz);
  };
  Vector.copy = function (v) { return v.copy(v); };
  var staticOp = function (name) {
    return function (v1, v2, target) {
      if (!target) target = v1.copy(); else target.set(v1);
      target[name](v2);
      return target;
    };
  };
  Vector.add = staticOp('add');
  Vector.sub = staticOp('sub');
  Vector.mult = staticOp('mult');
  Vector.div = staticOp('div');
  Vector.rem = function (v1, v2) {
    if (v1 instanceof Vector && v2 instanceof Vector) { var t = v1.copy(); t.rem(v2); return t; }
  };
  Vector.rotate = function (v, a, target) {
    if (arguments.length === 2) target = v.copy(); else target.set(v);
    target.rotate(a);
    return target;
  };
  Vector.dot = function (v1, v2) { return v1.dot(v2); };
  Vector.cross = function (v1, v2) { return v1.cross(v2); };
  Vector.dist = function (v1, v2) { return v1.dist(v2); };
  Vector.lerp = function (v1, v2, amt, target) {
    if (!target) target = v1.copy(); else target.set(v1);
    target.lerp(v2, amt);
    return target;
  };
  Vector.mag = function (v) { return v.mag(); };
  Vector.magSq = function (v) { return v.magSq(); };
  Vector.normalize = function (v, target) {
    if (arguments.length < 2) target = v.copy(); else target.set(v);
    return target.normalize();
  };
  Vector.limit = function (v, max, target) {
    if (arguments.length < 3) target = v.copy(); else target.set(v);
    return target.limit(max);
  };
  Vector.setMag = function (v, len, target) {
    if (arguments.length < 3) target = v.copy(); else target.set(v);
    return target.setMag(len);
  };
  Vector.heading = function (v) { return v.heading(); };
  Vector.angleBetween = function (v1, v2) { return v1.angleBetween(v2); };
  Vector.reflect = function (v, n, target) {
    if (arguments.length < 3) target = v.copy(); else target.set(v);
    return target.reflect(n);
  };
  Vector.array = function (v) { return v.array(); };
  Vector.equals = function (v1, v2) {
    var v;
    if (v1 instanceof Vector) v = v1;
    else if (v1 instanceof Array) v = new Vector().set(v1);
    else throw new TypeError('p5.Vector.equals: first argument must be a p5.Vector or an array');
    return v.equals(v2);
  };
  // createVector(), new p5.Vector(x, y, z) and the hot methods above are native
  // (p5_vector.c); the JS versions stay as what they fall back to (subclasses,
  // non-number fields, arrays). p5.Vector is the native constructor, with this
  // prototype and these statics.
  var VectorClass = native.registerVector(Vector, fromRadians, toRadians);
  Object.getOwnPropertyNames(Vector).forEach(function (k) {
    if (k !== 'length' && k !== 'name' && k !== 'prototype') Object.defineProperty(VectorClass, k, Object.getOwnPropertyDescriptor(Vector, k));
  });

  /* ---------------------------------------------------------------- p5 object */
  var p5 = function () {
    throw new TypeError('jsgym: new p5() (instance mode) is not supported; games use global mode');
  };
  p5.Vector = VectorClass;
  p5.Color = Color;
  def('p5', p5);

  /* ---------------------------------------------------------------- clock */
  // Date.now() and new Date() follow the virtual clock (see p5shim.c); every other
  // Date form is the engine's own.
  var RealDate = Date;
  var JsgymDate = function Date() {
    if (!new.target) return new RealDate(native.now()).toString();
    if (arguments.length === 0) return new RealDate(native.now());
    return Reflect.construct(RealDate, arguments);
  };
  JsgymDate.prototype = RealDate.prototype;
  JsgymDate.now = function now() { return native.now(); };
  JsgymDate.UTC = RealDate.UTC;
  JsgymDate.parse = RealDate.parse;
  def('Date', JsgymDate);
  // a fresh object: an engine's own performance.now may be non-configurable
  def('performance', { now: function now() { return native.millis(); } });

  /* ---------------------------------------------------------------- misc */
  if (typeof global.console === 'undefined') {
    var noop = function () {};
    def('console', { log: noop, warn: noop, error: noop, info: noop, debug: noop, trace: noop });
  }
  ['windowWidth', 'windowHeight', 'displayWidth', 'displayHeight'].forEach(function (name) {
    Object.defineProperty(global, name, {
      get: function () { throw new ReferenceError('jsgym: ' + name + ' is not supported (use a fixed canvas size)'); },
      set: function (v) { Object.defineProperty(global, name, { value: v, writable: true, configurable: true }); },
      configurable: true
    });
  });

  return { colorPacked: colorPacked };
})
