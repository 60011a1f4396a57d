/* One environment: a JSRuntime + JSContext running one game, its p5 shim and its
 * canvas. Everything here runs on the env's owner thread; nothing here knows about
 * other envs, threads or Gymnasium step semantics (pool.c owns those). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "internal.h"

uint64_t jg_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static const char *phase_name(jg_phase phase) {
    switch (phase) {
    case JG_PHASE_LOAD: return "the top level of the game file";
    case JG_PHASE_SETUP: return "setup()";
    case JG_PHASE_RESET: return "resetGame()";
    case JG_PHASE_DRAW: return "draw()";
    case JG_PHASE_KEY: return "a key callback";
    case JG_PHASE_STATE: return "getGameState()";
    case JG_PHASE_EVAL: return "eval";
    }
    return "?";
}

static void env_fail(jg_env *env, int32_t kind, const char *fmt, ...) {
    va_list ap;
    int n = snprintf(env->error, sizeof env->error, "game '%s' env %u step %lld: ",
                     env->pool->game_name, env->id, (long long)env->elapsed);
    if (n < 0 || (size_t)n >= sizeof env->error) n = 0;
    va_start(ap, fmt);
    vsnprintf(env->error + n, sizeof env->error - (size_t)n, fmt, ap);
    va_end(ap);
    env->error_kind = kind;
}

/* Whether the last failure came from the memory limit. QuickJS reports it as an
 * InternalError "out of memory", or, when even that object cannot be allocated, as
 * a null exception; with Bellard's engine our allocator also records the refusal. */
static int hit_memory_limit(jg_env *env, JSValueConst exc, const char *text) {
    if (env->heap.refused) return 1;
    return strstr(text, "out of memory") != NULL || (!JG_ENGINE_NG ? 0 : JS_IsNull(exc));
}

/* Turns the pending JS exception into an env error and returns its kind. */
static int32_t env_fail_from_exception(jg_env *env, jg_phase phase) {
    JSContext *ctx = env->ctx;
    JSValue exc = JS_GetException(ctx);
    const char *msg = JS_ToCString(ctx, exc);
    const char *stack = NULL;
    JSValue stack_v = JS_UNDEFINED;
    if (JS_IsObject(exc)) {
        stack_v = JS_GetPropertyStr(ctx, exc, "stack");
        if (JS_IsString(stack_v)) stack = JS_ToCString(ctx, stack_v);
    }
    int32_t kind = JG_ERR_RUNTIME;
    const char *text = msg ? msg : "(exception with no message)";
    if (env->timed_out) {
        kind = JG_ERR_TIMEOUT;
        env_fail(env, kind, "%s ran longer than the step timeout of %.3g s (infinite loop?)",
                 phase_name(phase), env->pool->config.step_timeout);
    } else if (hit_memory_limit(env, exc, text)) {
        kind = JG_ERR_MEMORY;
        env_fail(env, kind, "%s exceeded the memory limit of %llu bytes", phase_name(phase),
                 (unsigned long long)env->pool->config.memory_limit);
    } else {
        env_fail(env, kind, "%s threw %s%s%s", phase_name(phase), text, stack ? "\n" : "",
                 stack ? stack : "");
    }
    if (stack) JS_FreeCString(ctx, stack);
    if (msg) JS_FreeCString(ctx, msg);
    JS_FreeValue(ctx, stack_v);
    JS_FreeValue(ctx, exc);
    return kind;
}

#if !JG_ENGINE_NG
/* Bellard's QuickJS allocates from the env's own heap (heap.c), which also enforces
 * the memory limit. malloc_size is what QuickJS schedules its GC by. */
static void *env_malloc(JSMallocState *s, size_t size) {
    jg_env *env = s->opaque;
    void *p = jg_heap_malloc(&env->heap, size);
    if (p) s->malloc_count++;
    s->malloc_size = env->heap.live;
    return p;
}

static void env_free(JSMallocState *s, void *ptr) {
    if (!ptr) return;
    jg_env *env = s->opaque;
    jg_heap_free(&env->heap, ptr);
    s->malloc_count--;
    s->malloc_size = env->heap.live;
}

static void *env_realloc(JSMallocState *s, void *ptr, size_t size) {
    jg_env *env = s->opaque;
    if (!ptr) return size ? env_malloc(s, size) : NULL;
    if (size == 0) {
        env_free(s, ptr);
        return NULL;
    }
    void *p = jg_heap_realloc(&env->heap, ptr, size);
    s->malloc_size = env->heap.live;
    return p;
}

static const JSMallocFunctions env_malloc_functions = {env_malloc, env_free, env_realloc,
                                                       jg_heap_usable_size};
#endif

static JSRuntime *new_runtime(jg_env *env) {
#if JG_ENGINE_NG
    (void)env;
    return JS_NewRuntime();
#else
    return JS_NewRuntime2(&env_malloc_functions, env);
#endif
}

static int interrupt_handler(JSRuntime *rt, void *opaque) {
    (void)rt;
    jg_env *env = opaque;
    if (jg_now_ns() > env->deadline_ns) {
        env->timed_out = 1;
        return 1;
    }
    return 0;
}

static void arm_deadline(jg_env *env) {
    env->timed_out = 0;
    env->heap.refused = 0;
    env->deadline_ns = jg_now_ns() + (uint64_t)(env->pool->config.step_timeout * 1e9);
    if (jg_tl_guard)
        jg_guard_begin_op(jg_tl_guard, env->deadline_ns, env->pool->config.step_timeout);
}

/* A runtime stopped from outside is never touched again: its structures may be in
 * the middle of an update. All its memory is in the env's heap (heap.c), whose own
 * lists a stop always finds whole, so the heap is released without walking the
 * runtime, and the shim's record (libc) is freed without touching JS. */
void jg_env_abandon(jg_env *env) {
    jg_heap_release(&env->heap);
    p5shim_forget(env->shim);
    env->rt = NULL;
    env->ctx = NULL;
    env->shim = NULL;
    env->pending_len = 0;
    env->last_valid = 0;
    env_fail(env, JG_ERR_TIMEOUT,
             "%s ran longer than the step timeout of %.3g s and did not stop at the deadline "
             "(a built-in that never checks it, such as Array.prototype.indexOf over a huge "
             "array-like, or operations too slow to reach the check); the env was stopped "
             "from outside and its JS heap was released whole",
             phase_name(env->phase), env->pool->config.step_timeout);
}

/* Calls global function `name`. Returns its result or JS_EXCEPTION. */
static JSValue call_global(jg_env *env, JSAtom name, int argc, JSValueConst *argv) {
    JSValue global = JS_GetGlobalObject(env->ctx);
    JSValue fn = JS_GetProperty(env->ctx, global, name);
    JSValue ret;
    if (JS_IsFunction(env->ctx, fn)) {
        ret = JS_Call(env->ctx, fn, global, argc, argv);
    } else {
        const char *s = JS_AtomToCString(env->ctx, name);
        ret = JS_ThrowTypeError(env->ctx, "%s is no longer a function", s ? s : "?");
        if (s) JS_FreeCString(env->ctx, s);
    }
    JS_FreeValue(env->ctx, fn);
    JS_FreeValue(env->ctx, global);
    return ret;
}

static int install_v8_math(jg_env *env) {
    JSContext *ctx = env->ctx;
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue math = JS_GetPropertyStr(ctx, global, "Math");
    int rc = jg_install_v8_math(ctx, math);
    JS_FreeValue(ctx, math);
    JS_FreeValue(ctx, global);
    return rc;
}

/* Names every missing or non-function contract member; 0 if all are there. */
static int check_contract(jg_env *env) {
    static const char *required[] = {"setup", "draw", "resetGame", "getGameState"};
    char missing[256] = "";
    JSValue global = JS_GetGlobalObject(env->ctx);
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        JSValue v = JS_GetPropertyStr(env->ctx, global, required[i]);
        if (!JS_IsFunction(env->ctx, v)) {
            const char *what = JS_IsUndefined(v) ? "missing" : "not a function";
            size_t used = strlen(missing);
            snprintf(missing + used, sizeof missing - used, "%s%s() is %s", used ? "; " : "",
                     required[i], what);
        }
        JS_FreeValue(env->ctx, v);
    }
    JS_FreeValue(env->ctx, global);
    if (missing[0]) {
        env_fail(env, JG_ERR_CONTRACT, "the game contract is not met: %s", missing);
        return JG_ERR_CONTRACT;
    }
    return JG_OK;
}

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

static int raster(jg_env *env, const uint32_t *cmds, size_t n) {
    uint64_t t0 = env->pool->profile ? jg_now_ns() : 0;
    int armed = jg_guard_disarm();
    int32_t rc = jg_canvas_draw(env->canvas, cmds, n);
    jg_guard_rearm(armed);
    if (env->pool->profile) env->prof.raster_ns += jg_now_ns() - t0;
    env->prof.frames_rasterized++;
    if (rc != JG_RASTER_OK) {
        env_fail(env, JG_ERR_RUNTIME, "the rasterizer rejected the frame's draw commands (status %d)",
                 rc);
        return JG_ERR_RUNTIME;
    }
    return JG_OK;
}

/* Rasterizes the last frame of a step, unless it repeats the last rasterized frame
 * and starts opaque (then the canvas already holds exactly these pixels), or draws
 * nothing (a game that skips redrawing an unchanged scene: the canvas, and so what the
 * last rasterized frame says of it, stays as it is). */
static int raster_final(jg_env *env, const uint32_t *cmds, size_t n) {
    if (n == 0) return JG_OK;
    int opaque = starts_opaque(cmds, n);
    if (opaque && env->last_valid && env->last_len == n &&
        memcmp(env->last_cmds, cmds, n * sizeof *cmds) == 0)
        return JG_OK;
    int rc = raster(env, cmds, n);
    if (rc) return rc;
    env->last_valid = 0;
    if (opaque && copy_words(&env->last_cmds, &env->last_cap, cmds, n) == 0) {
        env->last_len = n;
        env->last_valid = 1;
    }
    return JG_OK;
}

static int flush_pending(jg_env *env) {
    if (!env->pending_len) return JG_OK;
    int rc = raster(env, env->pending_cmds, env->pending_len);
    env->pending_len = 0;
    env->last_valid = 0;
    return rc;
}

/* Runs one draw() and rasterizes what must be rasterized. With last == 0 the
 * frame's commands are kept aside and dropped if the next frame starts opaque. */
static int run_frame(jg_env *env, int last) {
    uint64_t t0 = env->pool->profile ? jg_now_ns() : 0;
    env->phase = JG_PHASE_DRAW;
    p5shim_begin_frame(env->shim, 0);
    if (JS_HasException(env->ctx)) return env_fail_from_exception(env, JG_PHASE_DRAW);
    JSValue r = call_global(env, env->atom_draw, 0, NULL);
    if (env->pool->profile) env->prof.js_ns += jg_now_ns() - t0;
    env->prof.frames++;
    env->prof.p5_calls += p5shim_call_count(env->shim);
    if (JS_IsException(r)) return env_fail_from_exception(env, JG_PHASE_DRAW);
    JS_FreeValue(env->ctx, r);
    size_t n = 0;
    const uint32_t *cmds = p5shim_commands(env->shim, &n);
    int rc = JG_OK;
    if (env->pending_len) {
        if (starts_opaque(cmds, n))
            env->pending_len = 0;
        else if ((rc = flush_pending(env)))
            return rc;
    }
    if (last) return raster_final(env, cmds, n);
    if (copy_words(&env->pending_cmds, &env->pending_cap, cmds, n)) {
        env_fail(env, JG_ERR_MEMORY, "out of memory keeping a skipped frame");
        return JG_ERR_MEMORY;
    }
    env->pending_len = n;
    return JG_OK;
}

static int32_t parse_game_state(JSContext *ctx, JSValueConst v) {
    const char *s = JS_IsString(v) ? JS_ToCString(ctx, v) : NULL;
    int32_t state = -1;
    if (s) {
        if (!strcasecmp(s, "playing")) state = JG_PLAYING;
        else if (!strcasecmp(s, "gameover")) state = JG_GAMEOVER;
        else if (!strcasecmp(s, "won") || !strcasecmp(s, "win")) state = JG_WON;
        JS_FreeCString(ctx, s);
    }
    return state;
}

/* Reads getGameState() into env->score/lives/game_state. */
static int read_state(jg_env *env) {
    JSContext *ctx = env->ctx;
    env->phase = JG_PHASE_STATE;
    JSValue st = call_global(env, env->atom_state, 0, NULL);
    if (JS_IsException(st)) return env_fail_from_exception(env, JG_PHASE_STATE);
    if (!JS_IsObject(st)) {
        JS_FreeValue(ctx, st);
        env_fail(env, JG_ERR_CONTRACT,
                 "getGameState() must return an object {score, lives, gameState}");
        return JG_ERR_CONTRACT;
    }
    JSValue score = JS_GetProperty(ctx, st, env->atom_score);
    JSValue lives = JS_GetProperty(ctx, st, env->atom_lives);
    JSValue gs = JS_GetProperty(ctx, st, env->atom_game_state);
    int rc = JG_OK;
    double s = NAN, l = NAN;
    if (JS_IsException(score) || JS_IsException(lives) || JS_IsException(gs)) {
        rc = env_fail_from_exception(env, JG_PHASE_STATE);
        goto done;
    }
    if (!JS_IsNumber(score) || JS_ToFloat64(ctx, &s, score) || !isfinite(s)) {
        env_fail(env, JG_ERR_CONTRACT, "getGameState().score must be a finite number");
        rc = JG_ERR_CONTRACT;
        goto done;
    }
    if (!JS_IsNumber(lives) || JS_ToFloat64(ctx, &l, lives) || isnan(l)) {
        env_fail(env, JG_ERR_CONTRACT, "getGameState().lives must be a number");
        rc = JG_ERR_CONTRACT;
        goto done;
    }
    int32_t state = parse_game_state(ctx, gs);
    if (state < 0) {
        env_fail(env, JG_ERR_CONTRACT,
                 "getGameState().gameState must be 'playing', 'gameover' or 'won' "
                 "(or 'PLAYING', 'GAMEOVER', 'WIN')");
        rc = JG_ERR_CONTRACT;
        goto done;
    }
    env->score = s;
    env->lives = l;
    env->game_state = state;
done:
    JS_FreeValue(ctx, score);
    JS_FreeValue(ctx, lives);
    JS_FreeValue(ctx, gs);
    JS_FreeValue(ctx, st);
    return rc;
}

static int set_game_options(jg_env *env) {
    const char *json = env->pool->options_json;
    if (!json || !json[0]) return JG_OK;
    JSValue v = JS_ParseJSON(env->ctx, json, strlen(json), "GAME_OPTIONS");
    if (JS_IsException(v)) return env_fail_from_exception(env, JG_PHASE_LOAD);
    JSValue global = JS_GetGlobalObject(env->ctx);
    JS_DefinePropertyValueStr(env->ctx, global, "GAME_OPTIONS", v,
                              JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE);
    JS_FreeValue(env->ctx, global);
    return JG_OK;
}

int jg_env_create(jg_env *env) {
    jg_pool *pool = env->pool;
    const jg_config *cfg = &pool->config;
    env->error_kind = JG_OK;
    env->error[0] = '\0';
    env->elapsed = 0;
    env->heap.refused = 0;
    env->heap.limit = cfg->memory_limit;
    env->rt = new_runtime(env);
    if (!env->rt) goto oom;
    JS_SetMemoryLimit(env->rt, cfg->memory_limit);
    JS_SetMaxStackSize(env->rt, cfg->stack_limit);
    JS_SetInterruptHandler(env->rt, interrupt_handler, env);
    env->ctx = JS_NewContextRaw(env->rt);
    if (!env->ctx) goto oom;
    if (JS_AddIntrinsicBaseObjects(env->ctx) || JS_AddIntrinsicDate(env->ctx) ||
        JS_AddIntrinsicEval(env->ctx) || JS_AddIntrinsicRegExp(env->ctx) ||
        JS_AddIntrinsicJSON(env->ctx) || JS_AddIntrinsicProxy(env->ctx) ||
        JS_AddIntrinsicMapSet(env->ctx) || JS_AddIntrinsicTypedArrays(env->ctx) ||
        JS_AddIntrinsicPromise(env->ctx) || JS_AddIntrinsicWeakRef(env->ctx))
        goto oom;
#if JG_ENGINE_NG
    if (JS_AddIntrinsicBigInt(env->ctx)) goto oom;
#endif
    env->atom_score = JS_NewAtom(env->ctx, "score");
    env->atom_lives = JS_NewAtom(env->ctx, "lives");
    env->atom_game_state = JS_NewAtom(env->ctx, "gameState");
    env->atom_draw = JS_NewAtom(env->ctx, "draw");
    env->atom_reset = JS_NewAtom(env->ctx, "resetGame");
    env->atom_state = JS_NewAtom(env->ctx, "getGameState");
    int armed = jg_guard_disarm();
    env->canvas = jg_canvas_new(cfg->obs_width, cfg->obs_height, cfg->fit, cfg->supersample);
    jg_guard_rearm(armed);
    if (!env->canvas) goto oom;

    env->phase = JG_PHASE_LOAD;
    arm_deadline(env);
    P5ShimLimits limits = {.max_draw_calls = cfg->max_draw_calls, .max_canvas_side = 0};
    env->shim = p5shim_install(env->ctx, &limits);
    if (!env->shim) {
        if (JS_HasException(env->ctx)) return env_fail_from_exception(env, JG_PHASE_LOAD);
        goto oom;
    }
    if (install_v8_math(env)) return env_fail_from_exception(env, JG_PHASE_LOAD);
    int rc = set_game_options(env);
    if (rc) return rc;

    JSValue fn = JS_ReadObject(env->ctx, pool->bytecode.data, pool->bytecode.len,
                               JS_READ_OBJ_BYTECODE);
    if (JS_IsException(fn)) return env_fail_from_exception(env, JG_PHASE_LOAD);
    JSValue r = JS_EvalFunction(env->ctx, fn);
    if (JS_IsException(r)) return env_fail_from_exception(env, JG_PHASE_LOAD);
    JS_FreeValue(env->ctx, r);
    if ((rc = check_contract(env))) return rc;

    env->phase = JG_PHASE_SETUP;
    p5shim_reset_episode(env->shim, 0);
    p5shim_begin_frame(env->shim, 1);
    if (JS_HasException(env->ctx)) return env_fail_from_exception(env, JG_PHASE_SETUP);
    arm_deadline(env);
    JSAtom setup_atom = JS_NewAtom(env->ctx, "setup");
    r = call_global(env, setup_atom, 0, NULL);
    JS_FreeAtom(env->ctx, setup_atom);
    if (JS_IsException(r)) return env_fail_from_exception(env, JG_PHASE_SETUP);
    JS_FreeValue(env->ctx, r);
    size_t n = 0;
    const uint32_t *cmds = p5shim_commands(env->shim, &n);
    return raster(env, cmds, n);
oom:
    env_fail(env, JG_ERR_MEMORY, "could not allocate the environment (memory limit %llu bytes)",
             (unsigned long long)cfg->memory_limit);
    return JG_ERR_MEMORY;
}

void jg_env_destroy(jg_env *env) {
    jg_guard_hold(); /* frees with libc; a stop meanwhile happens once all is freed */
    if (env->rt) JS_UpdateStackTop(env->rt); /* freeing may run on another thread than the last step */
    if (env->shim) p5shim_free(env->shim);
    env->shim = NULL;
    if (env->ctx) {
        JSAtom atoms[] = {env->atom_score, env->atom_lives, env->atom_game_state,
                          env->atom_draw, env->atom_reset, env->atom_state};
        for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; i++)
            if (atoms[i]) JS_FreeAtom(env->ctx, atoms[i]);
        JS_FreeContext(env->ctx);
    }
    env->ctx = NULL;
    if (env->rt) JS_FreeRuntime(env->rt);
    env->rt = NULL;
    jg_heap_release(&env->heap);
    if (env->canvas) {
        int armed = jg_guard_disarm();
        jg_canvas_free(env->canvas);
        jg_guard_rearm(armed);
    }
    env->canvas = NULL;
    free(env->last_cmds);
    free(env->pending_cmds);
    free(env->eval_result);
    env->last_cmds = env->pending_cmds = NULL;
    env->eval_result = NULL;
    env->last_cap = env->pending_cap = env->last_len = env->pending_len = 0;
    env->last_valid = 0;
    env->n_down = 0;
    env->has_episode = 0;
    jg_guard_release();
}

static void copy_obs(jg_env *env, uint8_t *obs) {
    uint64_t t0 = env->pool->profile ? jg_now_ns() : 0;
    int armed = jg_guard_disarm();
    jg_canvas_read_rgb(env->canvas, obs);
    jg_guard_rearm(armed);
    if (env->pool->profile) env->prof.copy_ns += jg_now_ns() - t0;
}

int jg_env_reset(jg_env *env, uint32_t level_seed, uint8_t *obs) {
    env->error_kind = JG_OK;
    env->elapsed = 0;
    env->level_seed = level_seed;
    arm_deadline(env);
    env->phase = JG_PHASE_RESET;
    p5shim_release_all_keys(env->shim);
    env->n_down = 0;
    p5shim_reset_episode(env->shim, level_seed);
    if (JS_HasException(env->ctx)) return env_fail_from_exception(env, JG_PHASE_RESET);
    /* seeds above 2^31 stay positive numbers in JS, as in the browser backend */
    JSValue seed = JS_NewFloat64(env->ctx, (double)level_seed);
    uint64_t t0 = env->pool->profile ? jg_now_ns() : 0;
    JSValue r = call_global(env, env->atom_reset, 1, &seed);
    if (env->pool->profile) env->prof.js_ns += jg_now_ns() - t0;
    if (JS_IsException(r)) return env_fail_from_exception(env, JG_PHASE_RESET);
    JS_FreeValue(env->ctx, r);
    env->pending_len = 0;
    int rc = run_frame(env, 1);
    if (rc) return rc;
    if ((rc = read_state(env))) return rc;
    env->has_episode = 1;
    copy_obs(env, obs);
    return JG_OK;
}

static int key_is_down(const jg_env *env, int32_t key) {
    for (int i = 0; i < env->n_down; i++)
        if (env->down_keys[i] == key) return 1;
    return 0;
}

static int key_in(const int32_t *keys, int32_t key) {
    for (int i = 0; i < JG_MAX_KEYS_PER_ACTION; i++)
        if (keys[i] == key) return 1;
    return 0;
}

static int key_event(jg_env *env, int32_t key, int down) {
    if (down) {
        if (key_is_down(env, key) || env->n_down == JG_MAX_DOWN_KEYS) return JG_OK;
        env->down_keys[env->n_down++] = key;
    } else {
        int i = 0;
        while (i < env->n_down && env->down_keys[i] != key) i++;
        if (i == env->n_down) return JG_OK;
        memmove(&env->down_keys[i], &env->down_keys[i + 1],
                (size_t)(env->n_down - i - 1) * sizeof env->down_keys[0]);
        env->n_down--;
    }
    env->phase = JG_PHASE_KEY;
    if (p5shim_key_event(env->shim, key, down)) return env_fail_from_exception(env, JG_PHASE_KEY);
    return JG_OK;
}

/* Key events before the step's first frame: release what is no longer held (and
 * tapped keys that are down, so that they go down again), then press held keys and
 * tapped keys in table order. */
static int apply_action_keys(jg_env *env, const jg_action *a) {
    int rc;
    for (int i = env->n_down - 1; i >= 0; i--) {
        int32_t k = env->down_keys[i];
        if (!key_in(a->held, k) || key_in(a->tapped, k))
            if ((rc = key_event(env, k, 0))) return rc;
    }
    for (int i = 0; i < JG_MAX_KEYS_PER_ACTION; i++)
        if (a->held[i] && (rc = key_event(env, a->held[i], 1))) return rc;
    for (int i = 0; i < JG_MAX_KEYS_PER_ACTION; i++)
        if (a->tapped[i] && (rc = key_event(env, a->tapped[i], 1))) return rc;
    return JG_OK;
}

static int release_taps(jg_env *env, const jg_action *a) {
    int rc;
    for (int i = 0; i < JG_MAX_KEYS_PER_ACTION; i++)
        if (a->tapped[i] && !key_in(a->held, a->tapped[i]) &&
            (rc = key_event(env, a->tapped[i], 0)))
            return rc;
    return JG_OK;
}

int jg_env_step(jg_env *env, int32_t action, uint8_t *obs) {
    const jg_config *cfg = &env->pool->config;
    const jg_action *a = &env->pool->actions[action];
    env->error_kind = JG_OK;
    arm_deadline(env);
    uint64_t t0 = env->pool->profile ? jg_now_ns() : 0;
    int rc = apply_action_keys(env, a);
    if (env->pool->profile) env->prof.js_ns += jg_now_ns() - t0;
    if (rc) return rc;
    for (uint32_t f = 0; f < cfg->frameskip; f++) {
        if ((rc = run_frame(env, f + 1 == cfg->frameskip))) return rc;
        if (f == 0 && (rc = release_taps(env, a))) return rc;
    }
    env->elapsed++;
    t0 = env->pool->profile ? jg_now_ns() : 0;
    rc = read_state(env);
    if (env->pool->profile) env->prof.js_ns += jg_now_ns() - t0;
    if (rc) return rc;
    copy_obs(env, obs);
    return JG_OK;
}

const char *jg_env_eval(jg_env *env, const char *code, size_t len) {
    JSContext *ctx = env->ctx;
    env->error_kind = JG_OK;
    env->error[0] = '\0';
    free(env->eval_result);
    env->eval_result = NULL;
    if (!ctx) {
        env_fail(env, JG_ERR_STATE, "the env has no live context");
        return NULL;
    }
    jg_guard_hold();
    char *text = malloc(len + 1);
    jg_guard_release();
    if (!text) return NULL;
    memcpy(text, code, len);
    text[len] = '\0';
    arm_deadline(env);
    env->phase = JG_PHASE_EVAL;
    JSValue v = JS_Eval(ctx, text, len, "<eval>", JS_EVAL_TYPE_GLOBAL);
    jg_guard_hold();
    free(text);
    jg_guard_release();
    if (JS_IsException(v)) {
        env_fail_from_exception(env, JG_PHASE_EVAL);
        return NULL;
    }
    JSValue json = JS_JSONStringify(ctx, v, JS_UNDEFINED, JS_UNDEFINED);
    JS_FreeValue(ctx, v);
    if (JS_IsException(json)) {
        env_fail_from_exception(env, JG_PHASE_EVAL);
        return NULL;
    }
    const char *s = JS_IsUndefined(json) ? "null" : JS_ToCString(ctx, json);
    jg_guard_hold();
    if (s) env->eval_result = strdup(s);
    jg_guard_release();
    if (s && !JS_IsUndefined(json)) JS_FreeCString(ctx, s);
    JS_FreeValue(ctx, json);
    return env->eval_result;
}
