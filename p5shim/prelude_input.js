/* p5shim prelude: pointer (mouse) input, replaying p5.js 1.11.13's mouse handlers.
 *
 * Evaluated after prelude.js, as f(native, global); it returns the helpers the C
 * side calls (p5shim_pointer_*), which stay hidden from the game. The runtime turns
 * an action's pointer into the events a browser would fire, in this order, before
 * the step's first frame (web/driver.js fires the same ones as real MouseEvents):
 *   move to (x, y) if the pointer moved (or never was anywhere): mousemove;
 *   release buttons no longer held, and tapped buttons that are down: mouseup, then
 *     click for the left button (and dblclick when it completes a double click);
 *   press held buttons that are up, then tapped ones: mousedown;
 * and after the first frame it releases the tapped buttons that are not held.
 * p5's handlers then do what they do in the browser:
 *   mousemove: mouseX/Y (winMouseX/Y), movedX/Y = mouseX/Y - pmouseX/Y, then
 *              mouseDragged(e) (touchMoved if it is not defined) while a button is
 *              down, else mouseMoved(e); the first event ever sets pmouseX/Y too;
 *   mousedown: mouseIsPressed = true, mouseButton, the coordinates again, then
 *              mousePressed(e) (or touchStarted);
 *   mouseup:   mouseIsPressed = false (even with another button still down), then
 *              mouseReleased(e) (or touchEnded);
 *   click, dblclick: mouseClicked(e), doubleClicked(e);
 * and after every frame pmouseX/Y = mouseX/Y, movedX/Y = 0 (p5's _draw).
 * p5 keeps its own copy of the coordinates (the instance's) beside the globals it
 * writes; so does this file, so a game that assigns mouseX changes what it reads, not
 * what p5 computes. Pointer values are whole canvas pixels (the pool rounds them).
 */
(function (native, global) {
  'use strict';
  var BUTTONS = native.buttonEvents;       // [[bit, MouseEvent.button, mouseButton], ...]
  var DOUBLE_CLICK_MS = native.doubleClickMs;
  var LEFT_BIT = BUTTONS[0][0];
  var x = 0, y = 0, px = 0, py = 0, movedX = 0, movedY = 0;
  var interacted = false, down = 0, lastPress = null;  // lastPress: {t, x, y} of a left press
  var clickCount = 0;

  var noop = function () {};
  function event(type, button) {
    return { type: type, button: button, buttons: down, clientX: x, clientY: y, x: x, y: y,
             pageX: x, pageY: y, offsetX: x, offsetY: y, screenX: x, screenY: y,
             movementX: movedX, movementY: movedY, detail: type === 'dblclick' ? 2 : clickCount,
             altKey: false, ctrlKey: false, shiftKey: false, metaKey: false,
             preventDefault: noop, stopPropagation: noop };
  }
  // p5 calls the first of these callbacks that is a function
  function call(names, e) {
    for (var i = 0; i < names.length; i++) {
      var f = global[names[i]];
      if (typeof f === 'function') { f(e); return; }
    }
  }
  function set(name, v) { global[name] = v; }
  function updateCoords() {
    px = x; py = y;
    set('pmouseX', x); set('pmouseY', y); set('pwinMouseX', x); set('pwinMouseY', y);
  }
  function updateNext(nx, ny) {
    x = nx; y = ny;
    set('mouseX', x); set('mouseY', y); set('winMouseX', x); set('winMouseY', y);
    movedX = x - px; movedY = y - py;
    set('movedX', movedX); set('movedY', movedY);
    if (!interacted) { updateCoords(); interacted = true; }
  }
  function button(bit) {
    for (var i = 0; i < BUTTONS.length; i++) if (BUTTONS[i][0] === bit) return BUTTONS[i];
    return BUTTONS[0];
  }
  var pressed = false;  // p5's mouseIsPressed (the instance's)
  function move(nx, ny) {
    updateNext(nx, ny);
    var e = event('mousemove', 0);
    if (!pressed) call(['mouseMoved'], e);
    else call(['mouseDragged', 'touchMoved'], e);
  }
  function press(bit) {
    var b = button(bit);
    down |= bit;
    if (bit === LEFT_BIT) {
      var t = native.millis();
      clickCount = lastPress && lastPress.x === x && lastPress.y === y &&
        t - lastPress.t <= DOUBLE_CLICK_MS ? clickCount + 1 : 1;
      lastPress = { t: t, x: x, y: y };
    }
    pressed = true;
    set('mouseIsPressed', true);
    set('mouseButton', b[2]);
    updateNext(x, y);
    call(['mousePressed', 'touchStarted'], event('mousedown', b[1]));
  }
  function release(bit) {
    var b = button(bit);
    down &= ~bit;
    pressed = false;
    set('mouseIsPressed', false);
    call(['mouseReleased', 'touchEnded'], event('mouseup', b[1]));
    if (bit !== LEFT_BIT) return;
    call(['mouseClicked'], event('click', 0));
    if (clickCount === 2) {
      call(['doubleClicked'], event('dblclick', 0));
      lastPress = null;  // a third click starts a new pair, as a browser counts them
    }
  }

  return {
    /** Before a step's first frame: at (1: move to nx, ny), held and tapped masks.
     * Returns whether the pointer has been used in this episode. */
    pointerStep: function (at, nx, ny, held, tapped) {
      if (at && (!interacted || nx !== x || ny !== y)) move(nx, ny);
      var i, bit;
      for (i = 0; i < BUTTONS.length; i++) {
        bit = BUTTONS[i][0];
        if ((down & bit) && (!(held & bit) || (tapped & bit))) release(bit);
      }
      for (i = 0; i < BUTTONS.length; i++) {
        bit = BUTTONS[i][0];
        if ((held & bit) && !(down & bit)) press(bit);
      }
      for (i = 0; i < BUTTONS.length; i++) {
        bit = BUTTONS[i][0];
        if ((tapped & bit) && !(down & bit)) press(bit);
      }
      return interacted || down !== 0;
    },
    /** After the step's first frame: tapped buttons not held go up. */
    pointerReleaseTaps: function (held, tapped) {
      for (var i = 0; i < BUTTONS.length; i++) {
        var bit = BUTTONS[i][0];
        if ((tapped & bit) && !(held & bit) && (down & bit)) release(bit);
      }
    },
    /** After every frame once the pointer was used: what p5's _draw does. */
    pointerFrameEnd: function () {
      updateCoords();
      movedX = movedY = 0;
      set('movedX', 0); set('movedY', 0);
    },
    /** Episode start: the pointer as before any mouse event, no callback. */
    pointerReset: function () {
      x = y = px = py = movedX = movedY = 0;
      interacted = pressed = false;
      down = clickCount = 0;
      lastPress = null;
      ['mouseX', 'mouseY', 'pmouseX', 'pmouseY', 'winMouseX', 'winMouseY', 'pwinMouseX',
       'pwinMouseY', 'movedX', 'movedY', 'mouseButton'].forEach(function (n) { set(n, 0); });
      set('mouseIsPressed', false);
    },
  };
})
