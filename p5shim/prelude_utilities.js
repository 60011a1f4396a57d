/* p5shim prelude_utilities: the rest of p5.js 1.11's global-mode API that is plain
 * JavaScript: data (append ... subset, createStringDict/createNumberDict), string
 * and conversion functions (nf, str, int, split, ...), the time functions,
 * bezierPoint/curvePoint and friends, paletteLerp, p5's remaining constants and
 * the device-input variables, and a refusing stub for every name jsgym cannot
 * provide (jsgym/p5_coverage.py lists them with reasons; tests/test_p5_api.py
 * checks both against the real p5's global names).
 *
 * Runs after prelude.js (p5shim.c runs the preludes in order) and has its shape:
 * one function expression called as f(native, global), no global let/const/class
 * names, every global a writable, configurable, non-enumerable property of the
 * global object. Bodies follow p5 1.11.13's source statement for statement, so
 * edge cases (arguments objects, NaN, strings where numbers are expected) come out
 * as in p5; p5's parameter validation is left out, as in p5.min.js.
 */
(function (native, global) {
  'use strict';
  // One descriptor for every global: a fresh literal per name costs as much again
  // at each env's creation.
  var desc = { value: undefined, writable: true, configurable: true, enumerable: false };
  var def = function (name, value) {
    desc.value = value;
    Object.defineProperty(global, name, desc);
  };
  // p5 methods call each other through the p5 instance, not through the globals a
  // game may redefine: capture the shim's own versions once.
  var p5random = global.random;
  var p5frameRate = global.frameRate;
  var p5color = global.color;
  var p5lerpColor = global.lerpColor;
  var p5curveTightness = global.curveTightness;

  /* ---------------------------------------------------------------- arrays */
  def('append', function (array, value) {
    array.push(value);
    return array;
  });
  def('arrayCopy', function (src, srcPosition, dst, dstPosition, length) {
    var start, end;
    if (typeof length !== 'undefined') {
      end = Math.min(length, src.length);
      start = dstPosition;
      src = src.slice(srcPosition, end + srcPosition);
    } else {
      if (typeof dst !== 'undefined') {
        end = dst; // arrayCopy(src, dst, length)
        end = Math.min(end, src.length);
      } else {
        end = src.length; // arrayCopy(src, dst)
      }
      start = 0;
      dst = srcPosition;
      src = src.slice(0, end);
    }
    Array.prototype.splice.apply(dst, [start, end].concat(src));
  });
  def('concat', function (list0, list1) { return list0.concat(list1); });
  def('reverse', function (list) { return list.reverse(); });
  def('shorten', function (list) {
    list.pop();
    return list;
  });
  // p5's random(0, 1): the randomSeed() stream when seeded, else Math.random, which
  // both backends seed per episode, so one seed gives one order in both.
  def('shuffle', function (arr, bool) {
    var isView = ArrayBuffer && ArrayBuffer.isView && ArrayBuffer.isView(arr);
    arr = bool || isView ? arr : arr.slice();
    var rnd, tmp, idx = arr.length;
    while (idx > 1) {
      rnd = p5random(0, 1) * idx | 0;
      tmp = arr[--idx];
      arr[idx] = arr[rnd];
      arr[rnd] = tmp;
    }
    return arr;
  });
  def('sort', function (list, count) {
    var arr = count ? list.slice(0, Math.min(count, list.length)) : list;
    var rest = count ? list.slice(Math.min(count, list.length)) : [];
    if (typeof arr[0] === 'string') arr = arr.sort();
    else arr = arr.sort(function (a, b) { return a - b; });
    return arr.concat(rest);
  });
  def('splice', function (list, value, index) {
    Array.prototype.splice.apply(list, [index, 0].concat(value));
    return list;
  });
  def('subset', function (list, start, count) {
    if (typeof count !== 'undefined') return list.slice(start, start + count);
    return list.slice(start, list.length);
  });

  /* ---------------------------------------------------------------- conversion */
  def('float', function (str) {
    if (str instanceof Array) return str.map(parseFloat);
    return parseFloat(str);
  });
  var toInt = function (n) {
    var radix = arguments.length > 1 && arguments[1] !== undefined ? arguments[1] : 10;
    if (n === Infinity || n === 'Infinity') return Infinity;
    else if (n === -Infinity || n === '-Infinity') return -Infinity;
    else if (typeof n === 'string') return parseInt(n, radix);
    else if (typeof n === 'number') return n | 0;
    else if (typeof n === 'boolean') return n ? 1 : 0;
    else if (n instanceof Array) return n.map(function (n) { return toInt(n, radix); });
  };
  def('int', toInt);
  var toStr = function (n) {
    if (n instanceof Array) return n.map(toStr);
    return String(n);
  };
  def('str', toStr);
  var toBoolean = function (n) {
    if (typeof n === 'number') return n !== 0;
    else if (typeof n === 'string') return n.toLowerCase() === 'true';
    else if (typeof n === 'boolean') return n;
    else if (n instanceof Array) return n.map(toBoolean);
  };
  def('boolean', toBoolean);
  var toByte = function (n) {
    var nn = toInt(n, 10);
    if (typeof nn === 'number') return (nn + 128) % 256 - 128;
    else if (nn instanceof Array) return nn.map(toByte);
  };
  def('byte', toByte);
  var toChar = function (n) {
    if (typeof n === 'number' && !isNaN(n)) return String.fromCharCode(n);
    else if (n instanceof Array) return n.map(toChar);
    else if (typeof n === 'string') return toChar(parseInt(n, 10));
  };
  def('char', toChar);
  var unchar = function (n) {
    if (typeof n === 'string' && n.length === 1) return n.charCodeAt(0);
    else if (n instanceof Array) return n.map(unchar);
  };
  def('unchar', unchar);
  var hex = function (n, digits) {
    digits = digits === undefined || digits === null ? 8 : digits;
    if (n instanceof Array) {
      return n.map(function (n) { return hex(n, digits); });
    } else if (n === Infinity || n === -Infinity) {
      return (n === Infinity ? 'F' : '0').repeat(digits);
    } else if (typeof n === 'number') {
      if (n < 0) n = 4294967295 + n + 1;
      var h = Number(n).toString(16).toUpperCase();
      while (h.length < digits) h = '0'.concat(h);
      if (h.length >= digits) h = h.substring(h.length - digits, h.length);
      return h;
    }
  };
  def('hex', hex);
  var unhex = function (n) {
    if (n instanceof Array) return n.map(unhex);
    return parseInt('0x'.concat(n), 16);
  };
  def('unhex', unhex);

  /* ---------------------------------------------------------------- strings */
  def('join', function (list, separator) { return list.join(separator); });
  def('match', function (str, reg) { return str.match(reg); });
  def('matchAll', function (str, reg) {
    var re = new RegExp(reg, 'g');
    var m = re.exec(str);
    var matches = [];
    while (m !== null) {
      matches.push(m);
      m = re.exec(str);
    }
    return matches;
  });
  var doNf = function (num, left, right) {
    var isNegative = num < 0;
    num = Math.abs(num);
    var parts = num.toString().split('.'), leftPart = parts[0], rightPart = parts[1], result;
    if (typeof right === 'undefined') {
      leftPart = leftPart.padStart(left, '0');
      result = rightPart ? leftPart + '.' + rightPart : leftPart;
      return isNegative ? '-' + result : result;
    }
    parts = num.toFixed(right).toString().split('.');
    leftPart = parts[0].padStart(left, '0');
    rightPart = parts[1];
    result = typeof rightPart === 'undefined' ? leftPart : leftPart + '.' + rightPart;
    return isNegative ? '-' + result : result;
  };
  var nf = function (nums, left, right) {
    if (nums instanceof Array) return nums.map(function (x) { return doNf(x, left, right); });
    if (Object.prototype.toString.call(nums) === '[object Arguments]') {
      if (nums.length === 3) return nf(nums[0], nums[1], nums[2]);
      if (nums.length === 2) return nf(nums[0], nums[1]);
      return nf(nums[0]);
    }
    return doNf(nums, left, right);
  };
  def('nf', nf);
  var doNfc = function (num, right) {
    num = num.toString();
    var dec = num.indexOf('.');
    var rem = dec !== -1 ? num.substring(dec) : '';
    var n = dec !== -1 ? num.substring(0, dec) : num;
    n = n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    if (right === 0) {
      rem = '';
    } else if (typeof right !== 'undefined') {
      if (right > rem.length) {
        rem += dec === -1 ? '.' : '';
        var len = right - rem.length + 1;
        for (var i = 0; i < len; i++) rem += '0';
      } else {
        rem = rem.substring(0, right + 1);
      }
    }
    return n + rem;
  };
  def('nfc', function (num, right) {
    if (num instanceof Array) return num.map(function (x) { return doNfc(x, right); });
    return doNfc(num, right);
  });
  var addNfp = function (num) { return parseFloat(num) > 0 ? '+'.concat(num.toString()) : num.toString(); };
  var addNfs = function (num) { return parseFloat(num) >= 0 ? ' '.concat(num.toString()) : num.toString(); };
  def('nfp', function () {
    var r = nf.apply(this, arguments);
    return r instanceof Array ? r.map(addNfp) : addNfp(r);
  });
  def('nfs', function () {
    var r = nf.apply(this, arguments);
    return r instanceof Array ? r.map(addNfs) : addNfs(r);
  });
  def('split', function (str, delim) { return str.split(delim); });
  def('splitTokens', function (value, delims) {
    var d;
    if (typeof delims !== 'undefined') {
      var str = delims;
      var sqc = /\]/g.exec(str);
      var sqo = /\[/g.exec(str);
      if (sqo && sqc) {
        str = str.slice(0, sqc.index) + str.slice(sqc.index + 1);
        sqo = /\[/g.exec(str);
        str = str.slice(0, sqo.index) + str.slice(sqo.index + 1);
        d = new RegExp('[\\['.concat(str, '\\]]'), 'g');
      } else if (sqc) {
        str = str.slice(0, sqc.index) + str.slice(sqc.index + 1);
        d = new RegExp('['.concat(str, '\\]]'), 'g');
      } else if (sqo) {
        str = str.slice(0, sqo.index) + str.slice(sqo.index + 1);
        d = new RegExp('['.concat(str, '\\[]'), 'g');
      } else {
        d = new RegExp('['.concat(str, ']'), 'g');
      }
    } else {
      d = /\s/g;
    }
    return value.split(d).filter(function (n) { return n; });
  });
  // p5 maps this.trim with no `this`: one level of array only, deeper ones throw.
  var trimOne = function (str) {
    if (str instanceof Array) throw new TypeError("Cannot read properties of undefined (reading 'trim')");
    return str.trim();
  };
  def('trim', function (str) {
    if (str instanceof Array) return str.map(trimOne);
    return str.trim();
  });

  /* ---------------------------------------------------------------- time */
  // new Date() is the virtual clock (prelude.js), looked up at each call as p5 does.
  // Local time, as p5 reads it: the browser backend's Chromium and QuickJS both use
  // the host's time zone (UTC unless TZ or /etc/localtime says otherwise).
  def('day', function () { return new Date().getDate(); });
  def('hour', function () { return new Date().getHours(); });
  def('minute', function () { return new Date().getMinutes(); });
  def('month', function () { return new Date().getMonth() + 1; });
  def('second', function () { return new Date().getSeconds(); });
  def('year', function () { return new Date().getFullYear(); });

  /* ---------------------------------------------------------------- environment */
  def('getFrameRate', function () { return p5frameRate(); });
  def('setFrameRate', function (fps) { return p5frameRate(fps); });
  def('webglVersion', 'p2d');
  // p5 1.11 has these as variables; the shim's C table makes focused a function and
  // mouseButton 'left' (no mouse event ever happens: p5's initial values hold).
  def('focused', true);
  def('mouseButton', 0);
  def('pushStyle', function () { throw new Error('pushStyle() not used, see push()'); });
  def('popStyle', function () { throw new Error('popStyle() not used, see pop()'); });
  def('popMatrix', function () { throw new Error('popMatrix() not used, see pop()'); });
  def('pushMatrix', function () { throw new Error('pushMatrix() not used, see push()'); });

  /* ---------------------------------------------------------------- curves */
  // WEBGL-only settings in p5 1.11: stored there, unused by the 2D renderer.
  def('bezierDetail', function (d) {});
  def('curveDetail', function (d) {});
  def('bezierPoint', function (a, b, c, d, t) {
    var adjustedT = 1 - t;
    return Math.pow(adjustedT, 3) * a + 3 * Math.pow(adjustedT, 2) * t * b +
      3 * adjustedT * Math.pow(t, 2) * c + Math.pow(t, 3) * d;
  });
  def('bezierTangent', function (a, b, c, d, t) {
    var adjustedT = 1 - t;
    return 3 * d * Math.pow(t, 2) - 3 * c * Math.pow(t, 2) + 6 * c * adjustedT * t -
      6 * b * adjustedT * t + 3 * b * Math.pow(adjustedT, 2) - 3 * a * Math.pow(adjustedT, 2);
  });
  // curvePoint/curveTangent read the renderer's tightness, which lives in C: follow
  // it through curveTightness() (the C side converts with ToNumber, as here).
  var tightness = 0;
  if (typeof p5curveTightness === 'function') {
    def('curveTightness', function curveTightness(t) {
      var r = p5curveTightness.apply(undefined, arguments);
      tightness = Number(t);
      return r;
    });
  }
  def('curvePoint', function (a, b, c, d, t) {
    var s = tightness, t3 = t * t * t, t2 = t * t;
    var f1 = (s - 1) / 2 * t3 + (1 - s) * t2 + (s - 1) / 2 * t;
    var f2 = (s + 3) / 2 * t3 + (-5 - s) / 2 * t2 + 1;
    var f3 = (-3 - s) / 2 * t3 + (s + 2) * t2 + (1 - s) / 2 * t;
    var f4 = (1 - s) / 2 * t3 + (s - 1) / 2 * t2;
    return a * f1 + b * f2 + c * f3 + d * f4;
  });
  def('curveTangent', function (a, b, c, d, t) {
    var s = tightness, tt3 = t * t * 3, t2 = t * 2;
    var f1 = (s - 1) / 2 * tt3 + (1 - s) * t2 + (s - 1) / 2;
    var f2 = (s + 3) / 2 * tt3 + (-5 - s) / 2 * t2;
    var f3 = (-3 - s) / 2 * tt3 + (s + 2) * t2 + (1 - s) / 2;
    var f4 = (1 - s) / 2 * tt3 + (s - 1) / 2 * t2;
    return a * f1 + b * f2 + c * f3 + d * f4;
  });

  /* ---------------------------------------------------------------- colour */
  def('paletteLerp', function (color_stops, amt) {
    var first = color_stops[0];
    if (amt < first[1]) return p5color(first[0]);
    for (var i = 1; i < color_stops.length; i++) {
      var stop = color_stops[i];
      if (amt < stop[1]) {
        var prev = color_stops[i - 1];
        return p5lerpColor(p5color(prev[0]), p5color(stop[0]), (amt - prev[1]) / (stop[1] - prev[1]));
      }
    }
    return p5color(color_stops[color_stops.length - 1][0]);
  });

  /* ---------------------------------------------------------------- dictionaries */
  // p5.TypedDict and its two subclasses: ES classes in p5 (methods non-enumerable,
  // constructors refuse a call without new).
  var method = function (proto, name, fn) {
    Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  };
  var classCheck = function (self, C) {
    if (!(self instanceof C)) throw new TypeError('Cannot call a class as a function');
  };
  function TypedDict(key, value) {
    classCheck(this, TypedDict);
    if (key instanceof Object) {
      this.data = key;
    } else {
      this.data = {};
      this.data[key] = value;
    }
    return this;
  }
  var TD = TypedDict.prototype;
  method(TD, 'size', function () { return Object.keys(this.data).length; });
  method(TD, 'hasKey', function (key) { return this.data.hasOwnProperty(key); });
  method(TD, 'get', function (key) {
    if (this.data.hasOwnProperty(key)) return this.data[key];
    console.log(''.concat(key, ' does not exist in this Dictionary'));
  });
  method(TD, 'set', function (key, value) {
    if (this._validate(value)) this.data[key] = value;
    else console.log('Those values dont work for this dictionary type.');
  });
  method(TD, '_addObj', function (obj) {
    for (var key in obj) this.set(key, obj[key]);
  });
  method(TD, 'create', function (key, value) {
    if (key instanceof Object && typeof value === 'undefined') this._addObj(key);
    else if (typeof key !== 'undefined') this.set(key, value);
    else console.log('In order to create a new Dictionary entry you must pass ' + 'an object or a key, value pair');
  });
  method(TD, 'clear', function () { this.data = {}; });
  method(TD, 'remove', function (key) {
    if (this.data.hasOwnProperty(key)) delete this.data[key];
    else throw new Error(''.concat(key, ' does not exist in this Dictionary'));
  });
  method(TD, 'print', function () {
    for (var item in this.data) console.log('key:'.concat(item, ' value:').concat(this.data[item]));
  });
  method(TD, 'saveTable', function () { throw new TypeError('jsgym: saveTable() is not supported (games may not write files)'); });
  method(TD, 'saveJSON', function () { throw new TypeError('jsgym: saveJSON() is not supported (games may not write files)'); });
  method(TD, '_validate', function (value) { return true; });

  var subclass = function (Sub, validate) {
    Sub.prototype = Object.create(TD, { constructor: { value: Sub, writable: true, configurable: true } });
    Object.setPrototypeOf(Sub, TypedDict);
    method(Sub.prototype, '_validate', validate);
    return Sub.prototype;
  };
  function StringDict(key, value) {
    classCheck(this, StringDict);
    return TypedDict.call(this, key, value);
  }
  subclass(StringDict, function (value) { return typeof value === 'string'; });
  function NumberDict(key, value) {
    classCheck(this, NumberDict);
    return TypedDict.call(this, key, value);
  }
  var ND = subclass(NumberDict, function (value) { return typeof value === 'number'; });
  method(ND, 'add', function (key, amount) {
    if (this.data.hasOwnProperty(key)) this.data[key] += amount;
    else console.log('The key - '.concat(key, ' does not exist in this dictionary.'));
  });
  method(ND, 'sub', function (key, amount) { this.add(key, -amount); });
  method(ND, 'mult', function (key, amount) {
    if (this.data.hasOwnProperty(key)) this.data[key] *= amount;
    else console.log('The key - '.concat(key, ' does not exist in this dictionary.'));
  });
  method(ND, 'div', function (key, amount) {
    if (this.data.hasOwnProperty(key)) this.data[key] /= amount;
    else console.log('The key - '.concat(key, ' does not exist in this dictionary.'));
  });
  method(ND, '_valueTest', function (flip) {
    var keys = Object.keys(this.data);
    if (keys.length === 0) throw new Error('Unable to search for a minimum or maximum value on an empty NumberDict');
    if (keys.length === 1) return this.data[keys[0]];
    var result = this.data[keys[0]];
    for (var key in this.data) if (this.data[key] * flip < result * flip) result = this.data[key];
    return result;
  });
  method(ND, 'minValue', function () { return this._valueTest(1); });
  method(ND, 'maxValue', function () { return this._valueTest(-1); });
  method(ND, '_keyTest', function (flip) {
    if (Object.keys(this.data).length === 0) throw new Error('Unable to use minValue on an empty NumberDict');
    if (Object.keys(this.data).length === 1) return Object.keys(this.data)[0];
    var result = Object.keys(this.data)[0];
    for (var i = 1; i < Object.keys(this.data).length; i++) {
      if (Object.keys(this.data)[i] * flip < result * flip) result = Object.keys(this.data)[i];
    }
    return result;
  });
  method(ND, 'minKey', function () { return this._keyTest(1); });
  method(ND, 'maxKey', function () { return this._keyTest(-1); });
  def('createStringDict', function (key, value) { return new StringDict(key, value); });
  def('createNumberDict', function (key, value) { return new NumberDict(key, value); });
  if (typeof global.p5 === 'function') {
    global.p5.TypedDict = TypedDict;
    global.p5.StringDict = StringDict;
    global.p5.NumberDict = NumberDict;
  }

  /* ---------------------------------------------------------------- constants */
  var constants = {
    AUDIO: 'audio', AXES: 'axes', BLUR: 'blur', CLAMP: 'clamp', CONTAIN: 'contain', COVER: 'cover',
    DILATE: 'dilate', ERODE: 'erode', FALLBACK: 'fallback', FILL: 'fill', FLAT: 'flat', FLOAT: 'float',
    GRAY: 'gray', GRID: 'grid', HALF_FLOAT: 'half-float', IMAGE: 'image', IMMEDIATE: 'immediate',
    INVERT: 'invert', LABEL: 'label', LANDSCAPE: 'landscape', MIRROR: 'mirror', NEAREST: 'nearest',
    OPAQUE: 'opaque', PORTRAIT: 'portrait', POSTERIZE: 'posterize', REPEAT: 'repeat', RGBA: 'rgba',
    SMOOTH: 'smooth', STROKE: 'stroke', TEXTURE: 'texture', THRESHOLD: 'threshold',
    UNSIGNED_BYTE: 'unsigned-byte', UNSIGNED_INT: 'unsigned-int', VIDEO: 'video'
  };
  Object.keys(constants).forEach(function (name) { def(name, constants[name]); });

  /* ---------------------------------------------------------------- device input */
  // Input is the keyboard only: touch and motion sensors keep p5's initial values.
  ['accelerationX', 'accelerationY', 'accelerationZ', 'pAccelerationX', 'pAccelerationY',
   'pAccelerationZ', 'rotationX', 'rotationY', 'rotationZ', 'pRotationX', 'pRotationY',
   'pRotationZ', 'pwinMouseX', 'pwinMouseY'].forEach(function (name) { def(name, 0); });
  ['pRotateDirectionX', 'pRotateDirectionY', 'pRotateDirectionZ', 'turnAxis'].forEach(function (name) {
    def(name, undefined);
  });
  def('touches', []);
  def('touchstart', false);
  def('touchend', false);
  def('setMoveThreshold', function (val) {});
  def('setShakeThreshold', function (val) {});

  /* ---------------------------------------------------------------- refused */
  // What cannot apply to a game (jsgym/p5_coverage.py has the list with reasons):
  // a clear error instead of "X is not defined". The shim's C table refuses the
  // older names (loadImage, get, createButton, ...) the same way.
  var refuse = function (why, names) {
    names.split(' ').forEach(function (name) {
      def(name, function () { throw new TypeError('jsgym: ' + name + '() is not supported (' + why + ')'); });
    });
  };
  // A variable that cannot apply: reading it throws; assigning it (a game's own
  // variable of that name) makes it a plain variable, as for windowWidth.
  var refuseVariable = function (why, names) {
    names.split(' ').forEach(function (name) {
      Object.defineProperty(global, name, {
        get: function () { throw new ReferenceError('jsgym: ' + name + ' is not supported (' + why + ')'); },
        set: function (v) { Object.defineProperty(global, name, { value: v, writable: true, configurable: true }); },
        configurable: true
      });
    });
  };
  refuse('WEBGL: jsgym renders 2D canvases only',
    'ambientLight ambientMaterial baseColorShader baseMaterialShader baseNormalShader ' +
    'baseStrokeShader beginGeometry box buildGeometry camera clearDepth cone createCamera ' +
    'createFilterShader createFramebuffer createModel createShader cylinder debugMode ' +
    'directionalLight ellipsoid emissiveMaterial endGeometry freeGeometry frustum imageLight ' +
    'lightFalloff lights linePerspective metalness model noDebugMode noLights normal ' +
    'normalMaterial ortho panorama perspective plane pointLight resetShader rotateX rotateY ' +
    'rotateZ setAttributes setCamera shader shininess specularColor specularMaterial sphere ' +
    'spotLight textureMode textureWrap torus');
  refuse('games may not load assets', 'registerPromisePreload');
  refuse('games may not write files',
    'createWriter downloadFile encodeAndDownloadGif saveGif saveJSON saveJSONArray ' +
    'saveJSONObject saveStrings saveTable');
  // writeFile stays undefined: no host file API name may exist in a game's scope
  // (docs/security.md).
  refuse('browser storage would carry state across episodes and envs',
    'clearStorage getItem removeItem storeItem');
  refuse('games may not use the DOM', 'getURL getURLParams getURLPath noCanvas remove');
  refuse('pixel access is not supported by the jsgym shim', 'getFilterGraphicsLayer');
  refuse('jsgym loads no p5 add-ons', 'callRegisteredHooksFor');
  refuseVariable('games may not use the DOM', 'canvas');

  /* ---------------------------------------------------------------- drawingContext */
  // Of the canvas 2D context: its shadow (games set it for glow and drop shadows), its
  // line dash, globalAlpha, and save() and restore() of its own state. They are part
  // of the style (p5's push() and pop() save and restore the context with them;
  // createCanvas() resets them); anything else on the context is refused by name.
  var shadowKinds = { shadowBlur: 0, shadowColor: 1, shadowOffsetX: 2, shadowOffsetY: 3 };
  var isShadow = function (name) {
    return typeof name === 'string' && Object.prototype.hasOwnProperty.call(shadowKinds, name);
  };
  // its line dash, a part of the style too
  var setLineDash = function (segments) { native.setLineDash(segments); };
  var getLineDash = function () { return native.lineDash(); };
  var save = function () { native.ctxSave(); };
  var restore = function () { native.ctxRestore(); };
  var methods = { setLineDash: setLineDash, getLineDash: getLineDash, save: save, restore: restore };
  var hasOwn = function (o, name) { return typeof name === 'string' && Object.prototype.hasOwnProperty.call(o, name); };
  var refuseContext = function (name) {
    throw new TypeError('jsgym: drawingContext.' + String(name) + ' is not supported (jsgym ' +
      'draws the canvas itself; of the 2D context it has shadowBlur, shadowColor, ' +
      'shadowOffsetX, shadowOffsetY, setLineDash, getLineDash, lineDashOffset, ' +
      'globalAlpha, save and restore)');
  };
  // as canvas 2D serializes a colour: #rrggbb when opaque, else rgba() with the
  // shortest alpha that maps back to the same 8-bit level
  var hex2 = function (v) { return (v < 16 ? '0' : '') + v.toString(16); };
  var serializeColor = function (packed) {
    var r = packed & 255, g = (packed >>> 8) & 255, b = (packed >>> 16) & 255, a = packed >>> 24;
    if (a === 255) return '#' + hex2(r) + hex2(g) + hex2(b);
    var alpha = String(a / 255);
    for (var digits = 1; digits <= 6; digits++) {
      var shorter = Number((a / 255).toFixed(digits));
      if (Math.round(shorter * 255) === a) { alpha = String(shorter); break; }
    }
    return 'rgba(' + r + ', ' + g + ', ' + b + ', ' + alpha + ')';
  };
  var namedColors = null;
  // (games set the same few strings every frame)
  var cssSeen = Object.create(null), cssSeenCount = 0;
  var cssColor = function (value) {
    var str = String(value);
    if (str in cssSeen) return cssSeen[str];
    var key = str;
    str = str.trim().toLowerCase();
    if (str === 'transparent') {
      str = 'rgba(0, 0, 0, 0)';
    } else {
      if (namedColors === null) namedColors = native.namedColors();
      if (!(Object.prototype.hasOwnProperty.call(namedColors, str) ||
            /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.test(str) ||
            /^(rgba?|hsla?)\(.*\)$/.test(str))) str = null;
    }
    if (++cssSeenCount > 256) { cssSeen = Object.create(null); cssSeenCount = 1; }
    cssSeen[key] = str;
    return str;
  };
  def('drawingContext', new Proxy({}, {
    get: function (target, name) {
      if (typeof name === 'symbol') return undefined;
      if (hasOwn(methods, name)) return methods[name];
      if (name === 'lineDashOffset') return native.dashOffset();
      if (name === 'globalAlpha') return native.globalAlpha();
      if (!isShadow(name)) refuseContext(name);
      var v = native.shadow(shadowKinds[name]);
      return name === 'shadowColor' ? serializeColor(v) : v;
    },
    set: function (target, name, value) {
      if (name === 'lineDashOffset') {
        native.setDashOffset(value);
        return true;
      }
      if (name === 'globalAlpha') {
        native.setGlobalAlpha(value);
        return true;
      }
      if (!isShadow(name)) refuseContext(name);
      if (name === 'shadowColor') {
        // canvas parses the string itself: one that is no CSS colour leaves the old
        // (p5's own parser, which reads the rest, would make it white)
        value = cssColor(value);
        if (value === null) return true;
      }
      native.setShadow(shadowKinds[name], value);
      return true;
    },
    has: function (target, name) {
      return isShadow(name) || hasOwn(methods, name) || name === 'lineDashOffset' || name === 'globalAlpha';
    },
    defineProperty: function (target, name) { refuseContext(name); },
    deleteProperty: function (target, name) { refuseContext(name); }
  }));
  refuseVariable('pixel access is not supported by the jsgym shim', 'pixels');
  refuseVariable('use a fixed canvas size', 'deviceOrientation');

  return {};
})
