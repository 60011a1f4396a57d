/* The env contract for C: written by contract/generate.py from contract/contract.json
 * (edit that file, then run the generator; do not edit this one). The integer
 * constants of the C ABI are in jsgym.h's generated block. */
#ifndef JSGYM_CONTRACT_H
#define JSGYM_CONTRACT_H

/* sha256 of contract/contract.json: jsgym/_core.py refuses a library built from
 * another contract. */
#define JG_CONTRACT_DIGEST "7231216f47b1488bf7ccb9507859820f1a82974669c0e01851adefa732db8a47"

/* At every episode start Math.random (mulberry32) restarts from state seed ^ random_mix
 * and noise() from noiseSeed(seed ^ noise_mix), both as 32-bit unsigned values; before
 * the first episode (setup()) as for seed 0. Autoreset episodes take their level seeds
 * from a splitmix64 stream (Vigna) per env, started by reset(seed=s) at state s: level
 * = low 32 bits of the next output, then the level split (start_level + level %
 * num_levels). */
#define JG_SEED_RANDOM_MIX 0x9E3779B9u
#define JG_SEED_NOISE_MIX 0x6A09E667u
#define JG_SPLITMIX64_GAMMA 0x9E3779B97F4A7C15ull
#define JG_SPLITMIX64_MIX1 0xBF58476D1CE4E5B9ull
#define JG_SPLITMIX64_MIX2 0x94D049BB133111EBull

/* The virtual clock of every backend: frameCount counts draw() calls of the episode;
 * millis() = performance.now() = frameCount * 1000 / frame_rate; deltaTime = 1000 /
 * frame_rate; Date.now() = new Date() = epoch_ms + floor(millis())
 * (2024-01-01T00:00:00Z at frame 0). */
#define JG_CLOCK_FRAME_RATE 60
#define JG_CLOCK_FRAME_MS (1000.0 / 60)
#define JG_CLOCK_EPOCH_MS 1704067200000.0

/* Keys down at once per env (more key-downs are ignored). */
#define JG_MAX_DOWN_KEYS 16

/* Two left presses within this many ms of the virtual clock, at one position, make a
 * double click. */
#define JG_DOUBLE_CLICK_MS 500

/* X(bit, MouseEvent.button, mouseButton): each mouse button. */
#define JG_BUTTON_EVENTS(X) \
    X(1, 0, "left") \
    X(2, 2, "right") \
    X(4, 1, "center") \

/* Defaults of the pool's configuration (jsgym.make_vec) and the bounds the runtime
 * checks. */
#define JG_LIMIT_OBS_SIDE_MIN 1
#define JG_LIMIT_OBS_SIDE_MAX 4096
#define JG_LIMIT_SUPERSAMPLE_MIN 1
#define JG_LIMIT_SUPERSAMPLE_MAX 4
#define JG_LIMIT_FRAMESKIP_MIN 1
#define JG_LIMIT_MAX_EPISODE_STEPS_MIN 0
#define JG_LIMIT_STEP_TIMEOUT_MAX 86400
#define JG_LIMIT_COMPILE_TIMEOUT_MAX 86400
#define JG_LIMIT_MEMORY_LIMIT_MIN 1048576
#define JG_LIMIT_STACK_LIMIT_MIN 65536

/* X(NAME, text): every phase and the words messages use for it. */
#define JG_PHASES(X) \
    X(NONE, "") \
    X(LOAD, "the top level of the game file") \
    X(SETUP, "setup()") \
    X(RESET, "resetGame()") \
    X(DRAW, "draw()") \
    X(KEY, "a key callback") \
    X(STATE, "getGameState()") \
    X(EVAL, "eval") \
    X(POINTER, "a mouse callback") \
    X(RENDER, "rendering the frame") \
    X(COMPILE, "compiling the game file") \

/* X(name): the functions a game file must define. */
#define JG_GAME_FUNCTIONS(X) \
    X("setup") \
    X("draw") \
    X("resetGame") \
    X("getGameState") \

/* X(spelling, state): accepted gameState strings (compared ignoring case). */
#define JG_STATE_SPELLINGS(X) \
    X("playing", JG_PLAYING) \
    X("gameover", JG_GAMEOVER) \
    X("won", JG_WON) \
    X("win", JG_WON) \

/* Keyboard input. An action holds and taps at most max_per_action keys each; at most
 * max_down keys are down at once. 'names' are the key names action specs may use (A-Z
 * and 0-9 too: their key codes are their ASCII codes). 'events' gives, per key code,
 * what a browser's KeyboardEvent says for it on a US layout without modifiers:
 * [keyCode, key, the keypress char code (0: the key fires no keypress), code]; any
 * other key code is key 'Unidentified', no keypress, code ''. */
#define JG_KEY_EVENTS(X) \
    X(8, "Backspace", 0, "Backspace") \
    X(9, "Tab", 0, "Tab") \
    X(12, "Clear", 0, "") \
    X(13, "Enter", 13, "Enter") \
    X(16, "Shift", 0, "ShiftLeft") \
    X(17, "Control", 0, "ControlLeft") \
    X(18, "Alt", 0, "AltLeft") \
    X(19, "Pause", 0, "") \
    X(20, "CapsLock", 0, "") \
    X(27, "Escape", 0, "Escape") \
    X(32, " ", 32, "Space") \
    X(33, "PageUp", 0, "") \
    X(34, "PageDown", 0, "") \
    X(35, "End", 0, "") \
    X(36, "Home", 0, "") \
    X(37, "ArrowLeft", 0, "ArrowLeft") \
    X(38, "ArrowUp", 0, "ArrowUp") \
    X(39, "ArrowRight", 0, "ArrowRight") \
    X(40, "ArrowDown", 0, "ArrowDown") \
    X(45, "Insert", 0, "") \
    X(46, "Delete", 0, "") \
    X(48, "0", 48, "Digit0") \
    X(49, "1", 49, "Digit1") \
    X(50, "2", 50, "Digit2") \
    X(51, "3", 51, "Digit3") \
    X(52, "4", 52, "Digit4") \
    X(53, "5", 53, "Digit5") \
    X(54, "6", 54, "Digit6") \
    X(55, "7", 55, "Digit7") \
    X(56, "8", 56, "Digit8") \
    X(57, "9", 57, "Digit9") \
    X(65, "a", 97, "KeyA") \
    X(66, "b", 98, "KeyB") \
    X(67, "c", 99, "KeyC") \
    X(68, "d", 100, "KeyD") \
    X(69, "e", 101, "KeyE") \
    X(70, "f", 102, "KeyF") \
    X(71, "g", 103, "KeyG") \
    X(72, "h", 104, "KeyH") \
    X(73, "i", 105, "KeyI") \
    X(74, "j", 106, "KeyJ") \
    X(75, "k", 107, "KeyK") \
    X(76, "l", 108, "KeyL") \
    X(77, "m", 109, "KeyM") \
    X(78, "n", 110, "KeyN") \
    X(79, "o", 111, "KeyO") \
    X(80, "p", 112, "KeyP") \
    X(81, "q", 113, "KeyQ") \
    X(82, "r", 114, "KeyR") \
    X(83, "s", 115, "KeyS") \
    X(84, "t", 116, "KeyT") \
    X(85, "u", 117, "KeyU") \
    X(86, "v", 118, "KeyV") \
    X(87, "w", 119, "KeyW") \
    X(88, "x", 120, "KeyX") \
    X(89, "y", 121, "KeyY") \
    X(90, "z", 122, "KeyZ") \
    X(91, "Meta", 0, "") \
    X(92, "Meta", 0, "") \
    X(93, "ContextMenu", 0, "") \
    X(96, "0", 48, "") \
    X(97, "1", 49, "") \
    X(98, "2", 50, "") \
    X(99, "3", 51, "") \
    X(100, "4", 52, "") \
    X(101, "5", 53, "") \
    X(102, "6", 54, "") \
    X(103, "7", 55, "") \
    X(104, "8", 56, "") \
    X(105, "9", 57, "") \
    X(106, "*", 42, "") \
    X(107, "+", 43, "") \
    X(109, "-", 45, "") \
    X(110, ".", 46, "") \
    X(111, "/", 47, "") \
    X(112, "F1", 0, "") \
    X(113, "F2", 0, "") \
    X(114, "F3", 0, "") \
    X(115, "F4", 0, "") \
    X(116, "F5", 0, "") \
    X(117, "F6", 0, "") \
    X(118, "F7", 0, "") \
    X(119, "F8", 0, "") \
    X(120, "F9", 0, "") \
    X(121, "F10", 0, "") \
    X(122, "F11", 0, "") \
    X(123, "F12", 0, "") \
    X(144, "NumLock", 0, "") \
    X(145, "ScrollLock", 0, "") \
    X(186, ";", 59, "") \
    X(187, "=", 61, "") \
    X(188, ",", 44, "") \
    X(189, "-", 45, "") \
    X(190, ".", 46, "") \
    X(191, "/", 47, "") \
    X(192, "`", 96, "") \
    X(219, "[", 91, "") \
    X(220, "\\", 92, "") \
    X(221, "]", 93, "") \
    X(222, "'", 39, "") \

#define JG_KEY_UNKNOWN "Unidentified"

/* Messages of a broken game contract (every backend). */
#define JG_MSG_UNMET "the game contract is not met: "
#define JG_MSG_SEPARATOR "; "
#define JG_MSG_MISSING "is missing"
#define JG_MSG_NOT_A_FUNCTION "is not a function"
#define JG_MSG_NO_LONGER_A_FUNCTION "is no longer a function"
#define JG_MSG_STATE_NOT_OBJECT "getGameState() must return an object {score, lives, gameState}"
#define JG_MSG_STATE_SCORE "getGameState().score must be a finite number"
#define JG_MSG_STATE_LIVES "getGameState().lives must be a number"
#define JG_MSG_STATE_GAME_STATE "getGameState().gameState must be 'playing', 'gameover' or 'won' (or 'PLAYING', 'GAMEOVER', 'WIN')"
#define JG_MSG_WEBGL "createCanvas(w, h, WEBGL) asks for 3D, which jsgym does not render (2D canvases only)"

#endif /* JSGYM_CONTRACT_H */
