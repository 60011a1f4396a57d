/* p5shim: the p5.js 1.11 global-mode API as native QuickJS functions.
 *
 * One P5Shim per JSContext. p5shim_install() defines every p5 global (functions as
 * writable, configurable properties of the global object, exactly like p5 does on
 * window, so a game may shadow them) and stores the shim as the context opaque. The
 * drawing functions record a command stream for the rasterizer (see
 * rasterizer/include/jsgym_raster.h) instead of drawing.
 *
 * The shim knows nothing of threads, actions or Gymnasium: the runtime drives it
 * with the calls below, one frame at a time:
 *
 *   p5shim_install                      once, before the game script runs
 *   p5shim_begin_frame(setup=1)         then call setup()
 *   per episode:  p5shim_reset_episode(seed), then frames
 *   per frame:    p5shim_key_event(...)* ; p5shim_pointer_step ; p5shim_begin_frame(0) ;
 *                 call draw() ; p5shim_pointer_frame_end ;
 *                 p5shim_commands() -> hand to the rasterizer
 *
 * Determinism: Math.random, p5 random() (before and after randomSeed), noise(),
 * millis(), Date.now(), new Date(), performance.now(), deltaTime and frameCount are
 * all functions of the episode seed and the frame count, never of the host.
 */
#ifndef JSGYM_P5SHIM_H
#define JSGYM_P5SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "jsgym_contract.h"
#include "quickjs.h"

typedef struct P5Shim P5Shim;

typedef struct P5ShimLimits {
    /* Shape commands one frame may record before the drawing call throws a
     * RangeError naming the limit (0 = default 100000). */
    uint32_t max_draw_calls;
    /* Largest accepted createCanvas/resizeCanvas side (0 = default 16384). */
    uint32_t max_canvas_side;
} P5ShimLimits;

/* Milliseconds the virtual clock advances per frame (the contract's clock). */
#define P5SHIM_FRAME_MS JG_CLOCK_FRAME_MS

/* Creates the shim and installs the p5 globals, the JS prelude included, into ctx.
 * Returns NULL and leaves a pending JS exception (or nothing, on allocation failure)
 * if installation fails. */
P5Shim *p5shim_install(JSContext *ctx, const P5ShimLimits *limits);

void p5shim_free(P5Shim *shim);

/* Frees the shim's own record without touching its JS context: for a runtime that
 * was stopped in the middle of QuickJS code and whose JS heap is released whole. */
void p5shim_forget(P5Shim *shim);

/* Start of an episode: frameCount and the virtual clock go to 0, Math.random and
 * the noise table are re-seeded from seed, randomSeed() state is dropped, the
 * transform stack is emptied. Styles persist, as in p5. */
void p5shim_reset_episode(P5Shim *shim, uint32_t seed);

/* Start of a frame: clears the command stream. For a draw frame (is_setup == 0) it
 * also does what p5's redraw() does before draw(): resetMatrix(), frameCount += 1,
 * advance the virtual clock by P5SHIM_FRAME_MS. Setting the p5 globals runs any
 * setter a game defined on them: after this call and after p5shim_reset_episode the
 * caller must check JS_HasException. */
void p5shim_begin_frame(P5Shim *shim, int is_setup);

/* The command stream recorded since the last p5shim_begin_frame. Valid until the
 * next call into the shim or into JS. */
const uint32_t *p5shim_commands(const P5Shim *shim, size_t *n_words);

/* A key goes down (down = 1) or up (down = 0), as a browser keydown/keyup event
 * would: updates keyIsDown/keyIsPressed/keyCode/key, then calls the game's
 * keyPressed() (and keyTyped() for printable keys) or keyReleased() if defined.
 * A keydown for a key already down is ignored, as in p5 1.x.
 * Returns 0, or -1 with a pending JS exception if the callback threw. */
int p5shim_key_event(P5Shim *shim, int32_t key_code, int down);

/* Releases every key that is down, without calling any callback (used on reset). */
void p5shim_release_all_keys(P5Shim *shim);

/* The pointer (prelude_input.js has the event order, p5's): before a step's first
 * frame, move to (x, y) if `at` and press/release the JG_BUTTON_* masks `held` and
 * `tapped`; after its first frame, release the tapped buttons; after every frame,
 * pmouseX/Y and movedX/Y as p5's draw loop sets them; at an episode start, the pointer
 * as before any event (no callback). The game's mouse callbacks run inside: each
 * returns 0, or -1 with a pending JS exception. A game that never gets a pointer
 * action costs no JS call. */
int p5shim_pointer_step(P5Shim *shim, int at, double x, double y, int32_t held, int32_t tapped);
int p5shim_pointer_release_taps(P5Shim *shim, int32_t held, int32_t tapped);
int p5shim_pointer_frame_end(P5Shim *shim);
int p5shim_pointer_reset(P5Shim *shim);

/* Canvas size set by the last createCanvas/resizeCanvas (100 x 100 before any). */
void p5shim_canvas_size(const P5Shim *shim, double *w, double *h);

/* The game asked for something jsgym cannot give (createCanvas(w, h, WEBGL)): the
 * contract message, or NULL. It stays set, so that a game that caught the throw fails
 * too. */
const char *p5shim_contract_error(const P5Shim *shim);

/* Number of p5 native calls made since the last begin_frame (for the profiler). */
uint64_t p5shim_call_count(const P5Shim *shim);

#endif /* JSGYM_P5SHIM_H */
