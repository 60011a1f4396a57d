/* Which frames of a QuickJS env reach the rasterizer. The only runtime code that reads
 * the command stream (its format is rasterizer/include/jsgym_raster.h's): env.c hands
 * over each frame's commands as the shim recorded them.
 *
 * - The last frame of a step is rasterized, unless it repeats the last rasterized
 *   frame word for word and starts opaque (then the canvas already holds exactly these
 *   pixels), or draws nothing (a game that skips redrawing an unchanged scene: the
 *   canvas, and what the last rasterized frame says of it, stay as they are).
 * - A skipped frame (frameskip > 1) is kept aside: it is dropped if the next frame
 *   starts by covering the whole canvas opaquely (nothing of it can show: an opaque
 *   background(), or opaque tiles or bands that cover the canvas, which the
 *   rasterizer recognises), and rasterized first otherwise (the canvas persists
 *   between frames, as in p5). A dropped frame that resized the canvas still hands
 *   the rasterizer its last size.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int copy_words(uint32_t **dst, size_t *cap, const uint32_t *src, size_t n) {
    if (n > *cap) {
        size_t want = n < 256 ? 256 : n + n / 2;
        jg_guard_hold();
        uint32_t *p = realloc(*dst, want * sizeof *p);
        jg_guard_release();
        if (!p) return -1;
        *dst = p;
        *cap = want;
    }
    if (n) memcpy(*dst, src, n * sizeof *src);
    return 0;
}

/* A frame that starts by covering the whole canvas opaquely makes everything drawn
 * before it irrelevant. */
static int starts_opaque(const uint32_t *cmds, size_t n) {
    if (n < 2) return 0;
    if (cmds[0] == JG_OP_CANVAS || cmds[0] == JG_OP_CLEAR) return 1;
    return cmds[0] == JG_OP_BACKGROUND && n >= 3 && (cmds[2] >> 24) == 255;
}

int32_t jg_frames_raster(jg_env *env, const uint32_t *cmds, size_t n, int32_t *raster_status) {
    int profile = env->game->config.profile;
    uint64_t t0 = profile ? jg_now_ns() : 0;
    int armed = jg_guard_disarm();
    /* the call's deadline: rendering counts against the step timeout like its JS */
    int32_t rc = jg_canvas_draw_until(env->canvas, cmds, n, env->deadline_ns);
    jg_guard_rearm(armed);
    if (profile) env->prof.raster_ns += jg_now_ns() - t0;
    env->prof.frames_rasterized++;
    *raster_status = rc;
    if (rc == JG_RASTER_OK) return JG_OK;
    env->frames.last_valid = 0; /* the canvas holds part of a frame */
    env->frames.failed_len = n;
    return JG_ERR_RUNTIME;
}

static int32_t raster_final(jg_env *env, const uint32_t *cmds, size_t n, int32_t *raster_status) {
    jg_frames *f = &env->frames;
    if (n == 0) return JG_OK;
    int opaque = starts_opaque(cmds, n);
    if (opaque && f->last_valid && f->last_len == n &&
        memcmp(f->last_cmds, cmds, n * sizeof *cmds) == 0)
        return JG_OK;
    int32_t rc = jg_frames_raster(env, cmds, n, raster_status);
    if (rc) return rc;
    f->last_valid = 0;
    if (opaque && copy_words(&f->last_cmds, &f->last_cap, cmds, n) == 0) {
        f->last_len = n;
        f->last_valid = 1;
    }
    return JG_OK;
}

static int32_t flush_pending(jg_env *env, int32_t *raster_status) {
    jg_frames *f = &env->frames;
    if (!f->pending_len) return JG_OK;
    int32_t rc = jg_frames_raster(env, f->pending_cmds, f->pending_len, raster_status);
    f->pending_len = 0;
    f->last_valid = 0;
    return rc;
}

/* The last JG_OP_CANVAS command of a stream (its offset), or -1: walked by the
 * commands' length words, up to the first malformed one. */
static ptrdiff_t last_canvas_command(const uint32_t *cmds, size_t n) {
    ptrdiff_t found = -1;
    for (size_t at = 0; at + 1 < n;) {
        uint32_t len = cmds[at + 1];
        if (len < 2 || len > n - at) break;
        if (cmds[at] == JG_OP_CANVAS && len == 4) found = (ptrdiff_t)at;
        at += len;
    }
    return found;
}

/* Drops the skipped frame kept aside; the canvas size it set (its JG_OP_CANVAS at
 * `resize`, or -1: none) reaches the rasterizer as a stream of that one command: the
 * next frames are drawn at that size. */
static int32_t drop_pending(jg_env *env, ptrdiff_t resize, int32_t *raster_status) {
    jg_frames *f = &env->frames;
    f->pending_len = 0;
    if (resize < 0) return JG_OK;
    uint32_t words[4];
    memcpy(words, f->pending_cmds + resize, sizeof words);
    f->last_valid = 0;
    return jg_frames_raster(env, words, 4, raster_status);
}

/* Whether the rasterizer finds that the frame covers the canvas from its start, at
 * the canvas size it holds now. */
static int covers_canvas(jg_env *env, const uint32_t *cmds, size_t n) {
    int armed = jg_guard_disarm();
    int covered = jg_canvas_starts_covered(env->canvas, cmds, n) == 1;
    jg_guard_rearm(armed);
    return covered;
}

int32_t jg_frames_draw(jg_env *env, const uint32_t *cmds, size_t n, int last,
                       int32_t *raster_status) {
    jg_frames *f = &env->frames;
    int32_t rc;
    if (f->pending_len) {
        /* (the kept-aside frame's stream is walked once; a frame that resized the
         * canvas leaves the rasterizer's size stale for covers_canvas) */
        ptrdiff_t resize = last_canvas_command(f->pending_cmds, f->pending_len);
        if (starts_opaque(cmds, n) || (resize < 0 && covers_canvas(env, cmds, n)))
            rc = drop_pending(env, resize, raster_status);
        else
            rc = flush_pending(env, raster_status);
        if (rc) return rc;
    }
    if (last) return raster_final(env, cmds, n, raster_status);
    if (copy_words(&f->pending_cmds, &f->pending_cap, cmds, n)) return JG_ERR_MEMORY;
    f->pending_len = n;
    return JG_OK;
}

void jg_frames_forget(jg_frames *f) {
    f->pending_len = 0;
    f->last_valid = 0;
}

void jg_frames_free(jg_frames *f) {
    free(f->last_cmds);
    free(f->pending_cmds);
    memset(f, 0, sizeof *f);
}
