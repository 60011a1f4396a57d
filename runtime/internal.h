/* Private declarations of the QuickJS game: env.c (one env: a JSRuntime + JSContext,
 * its p5 shim and canvas, and the game interface over them), frames.c (which frames
 * reach the rasterizer), heap.c (the env's JS heap), guard.c (the hard stop),
 * loader.c (the bytecode cache) and math_install.c. Nothing here knows the pool's
 * threads or episode rules (pool.h). */
#ifndef JSGYM_INTERNAL_H
#define JSGYM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "guard.h"
#include "jsgym.h"
#include "jsgym_contract.h"
#include "jsgym_raster.h"
#include "p5shim.h"
#include "quickjs.h"

#ifdef QJS_VERSION_MAJOR
#define JG_ENGINE_NG 1
#define JG_STR2(x) #x
#define JG_STR(x) JG_STR2(x)
#define JS_VERSION_STR_JG JG_STR(QJS_VERSION_MAJOR) "." JG_STR(QJS_VERSION_MINOR) "." JG_STR(QJS_VERSION_PATCH)
#define JG_IS_ERROR(ctx, v) JS_IsError(v)
#else
#define JG_ENGINE_NG 0
#define JG_IS_ERROR(ctx, v) JS_IsError(ctx, v)
#endif

uint64_t jg_now_ns(void);

typedef struct jg_bytecode {
    uint8_t *data;
    size_t len;
} jg_bytecode;

/* An env's JS heap (heap.c): size-class free lists in chunks only this env uses. */
#define JG_HEAP_SMALL_MAX 4096
#define JG_HEAP_CLASSES 46
typedef struct jg_heap {
    void *free_lists[JG_HEAP_CLASSES];
    char *bump, *bump_end; /* the unused end of the newest chunk */
    void *chunks;          /* every chunk, newest first */
    void *large;           /* every large block (a doubly linked list) */
    size_t live;           /* bytes of blocks in use, headers included */
    size_t reserved;       /* bytes held from libc: chunks and large blocks */
    size_t limit;          /* the env's memory limit, on reserved */
    int refused;           /* refused a request since the call began */
    int libc_failed;       /* libc had no memory for it since the call began */
} jg_heap;

void *jg_heap_malloc(jg_heap *h, size_t n);
void jg_heap_free(jg_heap *h, void *p);
void *jg_heap_realloc(jg_heap *h, void *p, size_t n);
size_t jg_heap_usable_size(const void *p);
void jg_heap_release(jg_heap *h);

/* Which of a step's frames reach the rasterizer (frames.c): the last frame of a step
 * unless it repeats the last rasterized one, and a skipped frame only if the next
 * one does not cover it. */
typedef struct jg_frames {
    uint32_t *last_cmds;    /* the last rasterized frame, when it started opaque */
    size_t last_len, last_cap;
    int last_valid;
    uint32_t *pending_cmds; /* a skipped frame that may still be needed */
    size_t pending_len, pending_cap;
    size_t failed_len;      /* words of the frame the rasterizer did not finish */
} jg_frames;

/* frames.c. Each returns JG_OK, JG_ERR_RUNTIME (the rasterizer rejected a frame or ran
 * past the call's deadline; *raster_status says how) or JG_ERR_MEMORY (no room to keep a skipped frame). */
struct jg_env;
int32_t jg_frames_draw(struct jg_env *env, const uint32_t *cmds, size_t n, int last,
                       int32_t *raster_status);
int32_t jg_frames_raster(struct jg_env *env, const uint32_t *cmds, size_t n,
                         int32_t *raster_status);
void jg_frames_forget(jg_frames *f);  /* the canvas changed behind the frames' back */
void jg_frames_free(jg_frames *f);

typedef struct jg_qjs jg_qjs;

/* One QuickJS env. Used by one thread at a time (the pool's scheduler guarantees it). */
typedef struct jg_env {
    uint32_t id;
    const jg_qjs *game;    /* the game's shared, read-only part (configuration, bytecode) */
    jg_error *err;         /* where the running call's failure goes */
    JSRuntime *rt;
    JSContext *ctx;
    P5Shim *shim;
    JgCanvas *canvas;
    JSAtom atom_score, atom_lives, atom_game_state;
    JSAtom atom_draw, atom_reset, atom_state;
    JSAtom atom_episode_start; /* __jsgymEpisodeStart: a library's episode hook */

    /* sandbox */
    uint64_t deadline_ns;
    int32_t phase;         /* JG_PHASE_* of the JS running now, for a hard stop's message */
    int timed_out;
    jg_heap heap;

    /* input: keys currently down, in the order they went down */
    int32_t down_keys[JG_MAX_DOWN_KEYS];
    int n_down;

    jg_frames frames;
    char *eval_result;
    jg_profile prof;
} jg_env;

/* The QuickJS game: what every env shares. */
struct jg_qjs {
    jg_config config;      /* the pool's (strings owned by the pool) */
    jg_bytecode bytecode;
    jg_bytecode library;   /* config.library compiled (len 0: none) */
    jg_env *envs;
};

/* loader.c: compiles the source once, within timeout seconds; a syntax error fills
 * err's file, line, column. */
int32_t jg_compile(const char *game_name, const char *source, size_t len, double timeout,
                   jg_bytecode *out, jg_error *err);
void jg_bytecode_free(jg_bytecode *bc);

/* math_install.c: replaces the Math functions whose libm results differ from V8's. */
int jg_install_v8_math(JSContext *ctx, JSValueConst math);

#endif /* JSGYM_INTERNAL_H */
