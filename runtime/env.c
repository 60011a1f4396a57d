/* The QuickJS game: one env is a JSRuntime + JSContext running the game file, its p5
 * shim and its canvas; jg_qjs_game_new() offers the envs to the pool through the game
 * interface (jg_game, include/jsgym.h): create, destroy, alive, reset, step, eval.
 * Each call runs on whichever pool thread has the env, one at a time; nothing here
 * knows about other envs, threads or the episode rules (episode.c owns those). A
 * failure is written into the record the pool hands to each call.
 *
 * Every call that runs JS is bounded three ways: the interrupt handler (the step
 * timeout, checked by QuickJS on backward jumps and calls), the env's own JS heap
 * (heap.c, the memory limit) and, for JS that never reaches the interrupt check, the
 * hard stop (guard.c): the call sets its jump point here, and a stopped env's runtime
 * is abandoned whole. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "error.h"
#include "internal.h"
#include "pool.h"

uint64_t jg_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Records a failure of the JS running now (env->phase); returns kind. */
static int32_t env_fail(jg_env *env, int32_t kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int32_t env_fail(jg_env *env, int32_t kind, const char *fmt, ...) {
    char text[JG_ERROR_TEXT_CAP];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return jg_error_set(env->err, kind, env->phase, "%s", text);
}

/* Whether the last failure came from the memory limit. QuickJS reports it as an
 * InternalError "out of memory", or, when even that object cannot be allocated, as
 * a null exception; with Bellard's engine our allocator also records the refusal. */
static int hit_memory_limit(jg_env *env, JSValueConst exc, const char *text) {
    if (env->heap.refused) return 1;
    return strstr(text, "out of memory") != NULL || (!JG_ENGINE_NG ? 0 : JS_IsNull(exc));
}

/* Words for a thrown value that has no string form (a Symbol, an object whose
 * toString throws or returns an object), and clears the exception that trying left. */
static const char *describe_unprintable(JSContext *ctx, JSValueConst exc, char *buf, size_t cap) {
    JS_FreeValue(ctx, JS_GetException(ctx));
    if (JS_IsSymbol(exc)) {
        JSAtom atom = JS_ValueToAtom(ctx, exc);
        const char *desc = atom != JS_ATOM_NULL ? JS_AtomToCString(ctx, atom) : NULL;
        snprintf(buf, cap, "a Symbol(%s) (not an Error: throw new Error(...) to give a message)",
                 desc ? desc : "");
        if (desc) JS_FreeCString(ctx, desc);
        if (atom != JS_ATOM_NULL) JS_FreeAtom(ctx, atom);
        JS_FreeValue(ctx, JS_GetException(ctx));
        return buf;
    }
    snprintf(buf, cap, "a value that cannot be converted to a string (%s, whose toString() fails)",
             JS_IsObject(exc) ? "an object" : "a primitive");
    return buf;
}

/* Turns the pending JS exception into the env's failure and returns its kind. */
static int32_t env_fail_from_exception(jg_env *env, int32_t phase) {
    JSContext *ctx = env->ctx;
    const jg_config *cfg = &env->game->config;
    env->phase = phase;
    JSValue exc = JS_GetException(ctx);
    const char *msg = JS_ToCString(ctx, exc);
    const char *stack = NULL;
    JSValue stack_v = JS_UNDEFINED;
    if (JS_IsObject(exc)) {
        stack_v = JS_GetPropertyStr(ctx, exc, "stack");
        if (JS_IsString(stack_v)) stack = JS_ToCString(ctx, stack_v);
    }
    int32_t kind = JG_ERR_RUNTIME;
    char described[256];
    const char *text = msg ? msg : describe_unprintable(ctx, exc, described, sizeof described);
    const char *unsupported = env->shim ? p5shim_contract_error(env->shim) : NULL;
    if (env->heap.libc_failed) {
        kind = env_fail(env, JG_ERR_MEMORY,
                        "%s: the process ran out of memory (the system refused an allocation while "
                        "the env was below its memory limit of %llu bytes)",
                        jg_phase_text(phase), (unsigned long long)cfg->memory_limit);
    } else if (unsupported && !env->timed_out) {
        kind = env_fail(env, JG_ERR_CONTRACT, "%s: %s", jg_phase_text(phase), unsupported);
    } else if (env->timed_out) {
        kind = env_fail(env, JG_ERR_TIMEOUT, "%s ran longer than the step timeout of %.3g s (infinite loop?)",
                        jg_phase_text(phase), cfg->step_timeout);
    } else if (hit_memory_limit(env, exc, text)) {
        kind = env_fail(env, JG_ERR_MEMORY, "%s exceeded the memory limit of %llu bytes",
                        jg_phase_text(phase), (unsigned long long)cfg->memory_limit);
    } else {
        env_fail(env, kind, "%s threw %s", jg_phase_text(phase), text);
        if (stack) JG_ERROR_COPY(env->err->stack, stack);
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
    double timeout = env->game->config.step_timeout;
    env->timed_out = 0;
    env->heap.refused = 0;
    env->heap.libc_failed = 0;
    env->deadline_ns = jg_now_ns() + (uint64_t)(timeout * 1e9);
    if (jg_tl_guard) jg_guard_begin_op(jg_tl_guard, env->deadline_ns, timeout);
}

/* A runtime stopped from outside is never touched again: its structures may be in
 * the middle of an update. All its memory is in the env's heap (heap.c), whose own
 * lists a stop always finds whole, so the heap is released without walking the
 * runtime, and the shim's record (libc) is freed without touching JS. */
static int32_t abandon(jg_env *env) {
    jg_heap_release(&env->heap);
    p5shim_forget(env->shim);
    env->rt = NULL;
    env->ctx = NULL;
    env->shim = NULL;
    jg_frames_forget(&env->frames);
    return env_fail(env, JG_ERR_TIMEOUT,
                    "%s ran longer than the step timeout of %.3g s and did not stop at the deadline "
                    "(a built-in that never checks it, such as Array.prototype.indexOf over a huge "
                    "array-like, or operations too slow to reach the check); the env was stopped "
                    "from outside and its JS heap was released whole",
                    jg_phase_text(env->phase), env->game->config.step_timeout);
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
        ret = JS_ThrowTypeError(env->ctx, "%s " JG_MSG_NO_LONGER_A_FUNCTION, s ? s : "?");
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
#define JG_FUNCTION_NAME(name) name,
    static const char *required[] = {JG_GAME_FUNCTIONS(JG_FUNCTION_NAME)};
#undef JG_FUNCTION_NAME
    char missing[512] = "";
    JSValue global = JS_GetGlobalObject(env->ctx);
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        JSValue v = JS_GetPropertyStr(env->ctx, global, required[i]);
        if (!JS_IsFunction(env->ctx, v)) {
            const char *what = JS_IsUndefined(v) ? JG_MSG_MISSING : JG_MSG_NOT_A_FUNCTION;
            size_t used = strlen(missing);
            snprintf(missing + used, sizeof missing - used, "%s%s() %s", used ? JG_MSG_SEPARATOR : "",
                     required[i], what);
        }
        JS_FreeValue(env->ctx, v);
    }
    JS_FreeValue(env->ctx, global);
    if (missing[0]) return env_fail(env, JG_ERR_CONTRACT, JG_MSG_UNMET "%s", missing);
    return JG_OK;
}

/* A frame the rasterizer did not finish: out of time (the step timeout covers the
 * rendering of the call's frames as well as their JS), or a stream it refused, which
 * the shim never writes (a bug of jsgym's, not of the game). */
static int32_t raster_failed(jg_env *env, int32_t raster_status) {
    env->phase = JG_PHASE_RENDER;
    if (raster_status == JG_RASTER_TIMEOUT)
        return env_fail(env, JG_ERR_TIMEOUT,
                        "%s (a command stream of %zu words) took the call past the step timeout "
                        "of %.3g s: the game draws more per frame than can be rendered in time "
                        "(fewer or smaller shapes, or a larger step_timeout)",
                        jg_phase_text(JG_PHASE_RENDER), env->frames.failed_len,
                        env->game->config.step_timeout);
    return env_fail(env, JG_ERR_RUNTIME,
                    "%s failed: the rasterizer %s (status %d; a jsgym bug, please report it with "
                    "the game file)",
                    jg_phase_text(JG_PHASE_RENDER),
                    raster_status == JG_RASTER_MALFORMED_STREAM ? "rejected the command stream"
                    : raster_status == JG_RASTER_PANIC          ? "panicked"
                                                                : "got a bad argument",
                    raster_status);
}

/* Runs one draw() and rasterizes what must be rasterized. With last == 0 the
 * frame's commands are kept aside and dropped if the next frame starts opaque. */
static int run_frame(jg_env *env, int last) {
    int profile = env->game->config.profile;
    uint64_t t0 = profile ? jg_now_ns() : 0;
    env->phase = JG_PHASE_DRAW;
    p5shim_begin_frame(env->shim, 0);
    if (JS_HasException(env->ctx)) return env_fail_from_exception(env, JG_PHASE_DRAW);
    JSValue r = call_global(env, env->atom_draw, 0, NULL);
    if (profile) env->prof.js_ns += jg_now_ns() - t0;
    env->prof.frames++;
    env->prof.p5_calls += p5shim_call_count(env->shim);
    if (JS_IsException(r)) return env_fail_from_exception(env, JG_PHASE_DRAW);
    JS_FreeValue(env->ctx, r);
    if (p5shim_contract_error(env->shim))
        return env_fail(env, JG_ERR_CONTRACT, "%s: %s", jg_phase_text(JG_PHASE_DRAW),
                        p5shim_contract_error(env->shim));
    if (p5shim_pointer_frame_end(env->shim)) return env_fail_from_exception(env, JG_PHASE_DRAW);
    size_t n = 0;
    const uint32_t *cmds = p5shim_commands(env->shim, &n);
    int32_t raster_status = JG_RASTER_OK;
    int32_t rc = jg_frames_draw(env, cmds, n, last, &raster_status);
    if (rc == JG_ERR_MEMORY) return env_fail(env, rc, "out of memory keeping a skipped frame");
    if (rc) return raster_failed(env, raster_status);
    return JG_OK;
}

static int32_t parse_game_state(JSContext *ctx, JSValueConst v) {
    const char *s = JS_IsString(v) ? JS_ToCString(ctx, v) : NULL;
    int32_t state = -1;
    if (s) {
#define JG_SPELLING(text, value) if (state < 0 && !strcasecmp(s, text)) state = value;
        JG_STATE_SPELLINGS(JG_SPELLING)
#undef JG_SPELLING
        JS_FreeCString(ctx, s);
    }
    return state;
}

/* Reads getGameState() into *out. */
static int read_state(jg_env *env, jg_state *out) {
    JSContext *ctx = env->ctx;
    env->phase = JG_PHASE_STATE;
    JSValue st = call_global(env, env->atom_state, 0, NULL);
    if (JS_IsException(st)) return env_fail_from_exception(env, JG_PHASE_STATE);
    if (!JS_IsObject(st)) {
        JS_FreeValue(ctx, st);
        return env_fail(env, JG_ERR_CONTRACT, JG_MSG_STATE_NOT_OBJECT);
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
        rc = env_fail(env, JG_ERR_CONTRACT, JG_MSG_STATE_SCORE);
        goto done;
    }
    if (!JS_IsNumber(lives) || JS_ToFloat64(ctx, &l, lives) || isnan(l)) {
        rc = env_fail(env, JG_ERR_CONTRACT, JG_MSG_STATE_LIVES);
        goto done;
    }
    int32_t state = parse_game_state(ctx, gs);
    if (state < 0) {
        rc = env_fail(env, JG_ERR_CONTRACT, JG_MSG_STATE_GAME_STATE);
        goto done;
    }
    out->score = s;
    out->lives = l;
    out->game_state = state;
done:
    JS_FreeValue(ctx, score);
    JS_FreeValue(ctx, lives);
    JS_FreeValue(ctx, gs);
    JS_FreeValue(ctx, st);
    return rc;
}

static int set_game_options(jg_env *env) {
    const char *json = env->game->config.options_json;
    if (!json || !json[0]) return JG_OK;
    JSValue v = JS_ParseJSON(env->ctx, json, strlen(json), "GAME_OPTIONS");
    if (JS_IsException(v)) {
        if (env->heap.refused || env->heap.libc_failed) return env_fail_from_exception(env, JG_PHASE_LOAD);
        JS_FreeValue(env->ctx, JS_GetException(env->ctx));
        env->phase = JG_PHASE_NONE;
        return env_fail(env, JG_ERR_ARGUMENT, "game_options is not valid JSON (NaN or Infinity?): %.200s",
                        json);
    }
    JSValue global = JS_GetGlobalObject(env->ctx);
    JS_DefinePropertyValueStr(env->ctx, global, "GAME_OPTIONS", v,
                              JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE);
    JS_FreeValue(env->ctx, global);
    return JG_OK;
}

static int32_t env_create(jg_env *env) {
    const jg_config *cfg = &env->game->config;
    env->phase = JG_PHASE_LOAD;
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
    env->atom_episode_start = JS_NewAtom(env->ctx, "__jsgymEpisodeStart");
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

    if (env->game->library.len) { /* the optional globals the game uses, before it */
        JSValue lib = JS_ReadObject(env->ctx, env->game->library.data, env->game->library.len,
                                    JS_READ_OBJ_BYTECODE);
        if (JS_IsException(lib)) return env_fail_from_exception(env, JG_PHASE_LOAD);
        JSValue lr = JS_EvalFunction(env->ctx, lib);
        if (JS_IsException(lr)) return env_fail_from_exception(env, JG_PHASE_LOAD);
        JS_FreeValue(env->ctx, lr);
    }
    JSValue fn = JS_ReadObject(env->ctx, env->game->bytecode.data, env->game->bytecode.len,
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
    if (p5shim_contract_error(env->shim)) /* thrown, and caught by the game */
        return env_fail(env, JG_ERR_CONTRACT, "%s: %s", jg_phase_text(JG_PHASE_SETUP),
                        p5shim_contract_error(env->shim));
    size_t n = 0;
    const uint32_t *cmds = p5shim_commands(env->shim, &n);
    int32_t raster_status = JG_RASTER_OK;
    if (jg_frames_raster(env, cmds, n, &raster_status))
        return raster_failed(env, raster_status);
    return JG_OK;
oom:
    return env_fail(env, JG_ERR_MEMORY, "could not allocate the environment (memory limit %llu bytes)",
                    (unsigned long long)cfg->memory_limit);
}

static void env_destroy(jg_env *env) {
    jg_guard_hold(); /* frees with libc; a stop meanwhile happens once all is freed */
    if (env->rt) JS_UpdateStackTop(env->rt); /* freeing may run on another thread than the last step */
    if (env->shim) p5shim_free(env->shim);
    env->shim = NULL;
    if (env->ctx) {
        JSAtom atoms[] = {env->atom_score, env->atom_lives, env->atom_game_state,
                          env->atom_draw, env->atom_reset, env->atom_state,
                          env->atom_episode_start};
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
    jg_frames_free(&env->frames);
    free(env->eval_result);
    env->eval_result = NULL;
    env->n_down = 0;
    jg_guard_release();
}

static void copy_obs(jg_env *env, uint8_t *obs) {
    int profile = env->game->config.profile;
    uint64_t t0 = profile ? jg_now_ns() : 0;
    int armed = jg_guard_disarm();
    jg_canvas_read_rgb(env->canvas, obs);
    jg_guard_rearm(armed);
    if (profile) env->prof.copy_ns += jg_now_ns() - t0;
}

static int32_t env_reset(jg_env *env, uint32_t level_seed, uint8_t *obs, jg_state *st) {
    int profile = env->game->config.profile;
    arm_deadline(env);
    env->phase = JG_PHASE_RESET;
    p5shim_release_all_keys(env->shim);
    env->n_down = 0;
    if (p5shim_pointer_reset(env->shim)) return env_fail_from_exception(env, JG_PHASE_RESET);
    p5shim_reset_episode(env->shim, level_seed);
    if (JS_HasException(env->ctx)) return env_fail_from_exception(env, JG_PHASE_RESET);
    /* seeds above 2^31 stay positive numbers in JS, as in the browser backend */
    JSValue seed = JS_NewFloat64(env->ctx, (double)level_seed);
    if (env->game->library.len) { /* a library's random sources restart from the seed */
        JSValue r0 = call_global(env, env->atom_episode_start, 1, &seed);
        if (JS_IsException(r0)) return env_fail_from_exception(env, JG_PHASE_RESET);
        JS_FreeValue(env->ctx, r0);
    }
    uint64_t t0 = profile ? jg_now_ns() : 0;
    JSValue r = call_global(env, env->atom_reset, 1, &seed);
    if (profile) env->prof.js_ns += jg_now_ns() - t0;
    if (JS_IsException(r)) return env_fail_from_exception(env, JG_PHASE_RESET);
    JS_FreeValue(env->ctx, r);
    env->frames.pending_len = 0;
    int rc = run_frame(env, 1);
    if (rc) return rc;
    if ((rc = read_state(env, st))) return rc;
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

/* Then the pointer (moved, buttons released and pressed: p5shim_pointer_step). */
static int apply_action_pointer(jg_env *env, const jg_action *a) {
    env->phase = JG_PHASE_POINTER;
    if (p5shim_pointer_step(env->shim, a->pointer == JG_POINTER_AT, a->x, a->y, a->buttons_held,
                            a->buttons_tapped))
        return env_fail_from_exception(env, JG_PHASE_POINTER);
    return JG_OK;
}

/* After the step's first frame: tapped keys, then tapped buttons, go up. */
static int release_taps(jg_env *env, const jg_action *a) {
    int rc;
    for (int i = 0; i < JG_MAX_KEYS_PER_ACTION; i++)
        if (a->tapped[i] && !key_in(a->held, a->tapped[i]) &&
            (rc = key_event(env, a->tapped[i], 0)))
            return rc;
    env->phase = JG_PHASE_POINTER;
    if (p5shim_pointer_release_taps(env->shim, a->buttons_held, a->buttons_tapped))
        return env_fail_from_exception(env, JG_PHASE_POINTER);
    return JG_OK;
}

static int32_t env_step(jg_env *env, const jg_action *a, uint8_t *obs, jg_state *st) {
    const jg_config *cfg = &env->game->config;
    int profile = cfg->profile;
    arm_deadline(env);
    uint64_t t0 = profile ? jg_now_ns() : 0;
    int rc = apply_action_keys(env, a);
    if (!rc) rc = apply_action_pointer(env, a);
    if (profile) env->prof.js_ns += jg_now_ns() - t0;
    if (rc) return rc;
    for (uint32_t f = 0; f < cfg->frameskip; f++) {
        if ((rc = run_frame(env, f + 1 == cfg->frameskip))) return rc;
        if (f == 0 && (rc = release_taps(env, a))) return rc;
    }
    t0 = profile ? jg_now_ns() : 0;
    rc = read_state(env, st);
    if (profile) env->prof.js_ns += jg_now_ns() - t0;
    if (rc) return rc;
    copy_obs(env, obs);
    return JG_OK;
}

static int32_t env_eval(jg_env *env, const char *code, size_t len, const char **result) {
    JSContext *ctx = env->ctx;
    free(env->eval_result);
    env->eval_result = NULL;
    jg_guard_hold();
    char *text = malloc(len + 1);
    jg_guard_release();
    if (!text) return env_fail(env, JG_ERR_MEMORY, "out of memory copying the code to evaluate");
    memcpy(text, code, len);
    text[len] = '\0';
    arm_deadline(env);
    env->phase = JG_PHASE_EVAL;
    JSValue v = JS_Eval(ctx, text, len, "<eval>", JS_EVAL_TYPE_GLOBAL);
    jg_guard_hold();
    free(text);
    jg_guard_release();
    if (JS_IsException(v)) return env_fail_from_exception(env, JG_PHASE_EVAL);
    JSValue json = JS_JSONStringify(ctx, v, JS_UNDEFINED, JS_UNDEFINED);
    JS_FreeValue(ctx, v);
    if (JS_IsException(json)) return env_fail_from_exception(env, JG_PHASE_EVAL);
    const char *s = JS_IsUndefined(json) ? "null" : JS_ToCString(ctx, json);
    jg_guard_hold();
    if (s) env->eval_result = strdup(s);
    jg_guard_release();
    if (s && !JS_IsUndefined(json)) JS_FreeCString(ctx, s);
    JS_FreeValue(ctx, json);
    if (!env->eval_result) return env_fail(env, JG_ERR_MEMORY, "out of memory keeping eval's result");
    *result = env->eval_result;
    return JG_OK;
}

/* ------------------------------------------------------------------ the game interface */

/* The guard of this thread's shard, armed for one call into the env, or NULL (no
 * watchdog: quickjs-ng). The caller has set its jump point with sigsetjmp. */
#define GUARDED_CALL(env, call)                                   \
    do {                                                          \
        jg_guard *g_ = jg_tl_guard;                               \
        if (!g_) return (call);                                   \
        if (sigsetjmp(g_->jmp, 0)) return stopped(env, g_);       \
        g_->armed = 1;                                            \
        int32_t rc_ = (call);                                     \
        jg_guard_end_op(g_);                                      \
        return rc_;                                               \
    } while (0)

/* The watchdog stopped the call from outside (guard.c): the runtime is given up
 * (never touched again; its heap is released whole) and the call fails with a
 * timeout like any other. */
static int32_t stopped(jg_env *env, jg_guard *g) {
    jg_guard_end_op(g);
    g->no_jump = 0;
    return abandon(env);
}

static jg_env *env_of(void *user, uint32_t i, jg_error *err) {
    jg_env *env = &((jg_qjs *)user)->envs[i];
    env->err = err;
    /* the env may have run on another thread, at another stack depth, last time */
    if (env->rt) JS_UpdateStackTop(env->rt);
    return env;
}

/* A call into an env whose runtime was abandoned by a hard stop in eval (a stop in
 * any other call leaves the env broken, and the pool creates it again before using
 * it): it fails with that timeout until the pool does. */
static int32_t dead(jg_env *env) {
    env->phase = JG_PHASE_NONE;
    return env_fail(env, JG_ERR_TIMEOUT,
                    "the env was stopped from outside in an earlier call (eval) and has no live "
                    "context: reset it");
}

static int32_t qjs_create(void *user, uint32_t i, jg_error *err) {
    jg_env *env = env_of(user, i, err);
    GUARDED_CALL(env, env_create(env));
}

static void qjs_destroy(void *user, uint32_t i) {
    jg_env *env = &((jg_qjs *)user)->envs[i];
    jg_guard *g = jg_tl_guard;
    int armed = g ? g->armed : 0;
    if (g) g->armed = 0; /* freeing runs no JS: nothing to stop */
    env_destroy(env);
    if (g) g->armed = armed;
}

static int32_t qjs_alive(void *user, uint32_t i) {
    return ((jg_qjs *)user)->envs[i].ctx != NULL;
}

static int32_t qjs_reset(void *user, uint32_t i, uint32_t seed, uint8_t *obs, jg_state *st,
                         jg_error *err) {
    jg_env *env = env_of(user, i, err);
    if (!env->ctx) return dead(env);
    GUARDED_CALL(env, env_reset(env, seed, obs, st));
}

static int32_t qjs_step(void *user, uint32_t i, const jg_action *a, uint8_t *obs, jg_state *st,
                        jg_error *err) {
    jg_env *env = env_of(user, i, err);
    if (!env->ctx) return dead(env);
    GUARDED_CALL(env, env_step(env, a, obs, st));
}

static int32_t qjs_eval(void *user, uint32_t i, const char *code, size_t len, const char **result,
                        jg_error *err) {
    jg_env *env = env_of(user, i, err);
    if (!env->ctx) return dead(env);
    GUARDED_CALL(env, env_eval(env, code, len, result));
}

int32_t jg_qjs_game_new(const jg_config *config, jg_game *game, jg_error *err) {
    jg_qjs *q = calloc(1, sizeof *q);
    if (!q) return jg_error_set(err, JG_ERR_MEMORY, JG_PHASE_NONE, "out of memory creating the pool");
    q->config = *config;
    int32_t rc = jg_compile(config->game_name, config->source, config->source_len,
                            config->compile_timeout, &q->bytecode, err);
    if (rc) {
        free(q);
        return rc;
    }
    q->config.source = NULL;
    if (config->library && config->library_len) {
        rc = jg_compile("<library>", config->library, config->library_len, config->compile_timeout,
                        &q->library, err);
        if (rc) {
            jg_qjs_game_free(q);
            return rc;
        }
    }
    q->config.library = NULL;
    q->envs = calloc(config->num_envs, sizeof *q->envs);
    if (!q->envs) {
        jg_qjs_game_free(q);
        return jg_error_set(err, JG_ERR_MEMORY, JG_PHASE_NONE, "out of memory creating the pool");
    }
    for (uint32_t i = 0; i < config->num_envs; i++) {
        q->envs[i].id = i;
        q->envs[i].game = q;
    }
    *game = (jg_game){.user = q, .create = qjs_create, .destroy = qjs_destroy, .alive = qjs_alive,
                      .reset = qjs_reset, .step = qjs_step, .eval = qjs_eval};
    return JG_OK;
}

void jg_qjs_game_free(void *user) {
    jg_qjs *q = user;
    if (!q) return;
    free(q->envs);
    jg_bytecode_free(&q->bytecode);
    jg_bytecode_free(&q->library);
    free(q);
}

int32_t jg_qjs_profile(void *user, uint32_t i, jg_profile *out) {
    *out = ((jg_qjs *)user)->envs[i].prof;
    return JG_OK;
}
