/* Compiles a game file once to QuickJS bytecode; every env then loads the bytecode
 * with JS_ReadObject instead of parsing the source again (the bytecode cache).
 *
 * Compiling is bounded in time (compile_timeout): QuickJS's parser never polls the
 * interrupt handler, and some sources cost it quadratic time (100,000 variables in
 * one scope: every declaration scans the ones before), so a few megabytes would hold
 * make_vec for minutes. The parser allocates as it goes, so
 * the compile's runtime allocates through compile_malloc, which reads the clock every
 * CLOCK_EVERY allocations and, past the deadline, refuses every allocation: the parser
 * fails with "out of memory" at its next allocation and unwinds cleanly, and the
 * failure is reported as the timeout it is. Bellard's engine only (quickjs-ng's
 * allocator hooks differ; there compiling is unbounded, docs/security.md). */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "internal.h"

/* The location of a syntax error: QuickJS writes it only into the error's stack, as
 * "    at file:line:col\n" (the file being the name the source was compiled under). */
static void location_from_stack(const char *stack, jg_error *err) {
    const char *at = stack ? strstr(stack, "at ") : NULL;
    if (!at) return;
    at += 3;
    size_t n = strcspn(at, "\n");
    char where[JG_ERROR_FILE_CAP + 32];
    if (n >= sizeof where) return;
    memcpy(where, at, n);
    where[n] = '\0';
    char *col = strrchr(where, ':');
    if (!col) return;
    *col = '\0';
    char *line = strrchr(where, ':');
    if (!line) return;
    *line = '\0';
    JG_ERROR_COPY(err->file, where);
    err->line = atoi(line + 1);
    err->column = atoi(col + 1);
}

#if !JG_ENGINE_NG
typedef struct {
    uint64_t deadline_ns;
    uint32_t until_clock;
    int timed_out;
} compile_clock;

enum { CLOCK_EVERY = 64 };

static int past_deadline(compile_clock *c) {
    if (c->timed_out) return 1;
    if (--c->until_clock) return 0;
    c->until_clock = CLOCK_EVERY;
    c->timed_out = jg_now_ns() >= c->deadline_ns;
    return c->timed_out;
}

static void *compile_malloc(JSMallocState *s, size_t size) {
    if (past_deadline(s->opaque)) return NULL;
    void *p = malloc(size);
    if (p) {
        s->malloc_count++;
        s->malloc_size += malloc_usable_size(p);
    }
    return p;
}

static void compile_free(JSMallocState *s, void *ptr) {
    if (!ptr) return;
    s->malloc_count--;
    s->malloc_size -= malloc_usable_size(ptr);
    free(ptr);
}

static void *compile_realloc(JSMallocState *s, void *ptr, size_t size) {
    if (!ptr) return size ? compile_malloc(s, size) : NULL;
    if (size == 0) {
        compile_free(s, ptr);
        return NULL;
    }
    if (past_deadline(s->opaque)) return NULL;
    size_t old = malloc_usable_size(ptr);
    void *p = realloc(ptr, size);
    if (p) s->malloc_size += malloc_usable_size(p) - old;
    return p;
}

static size_t compile_usable_size(const void *ptr) { return malloc_usable_size((void *)ptr); }

static const JSMallocFunctions compile_malloc_functions = {compile_malloc, compile_free,
                                                           compile_realloc, compile_usable_size};
#endif

int32_t jg_compile(const char *game_name, const char *source, size_t len, double timeout,
                   jg_bytecode *out, jg_error *err) {
    int32_t status = JG_ERR_SYSTEM;
    out->data = NULL;
    out->len = 0;
#if JG_ENGINE_NG
    (void)timeout;
    JSRuntime *rt = JS_NewRuntime();
    const int timed_out = 0;
#else
    compile_clock clock = {.deadline_ns = jg_now_ns() + (uint64_t)(timeout * 1e9),
                           .until_clock = CLOCK_EVERY};
    JSRuntime *rt = JS_NewRuntime2(&compile_malloc_functions, &clock);
#define timed_out clock.timed_out
#endif
    JSContext *ctx = rt ? JS_NewContext(rt) : NULL;
    if (!ctx) {
        jg_error_set(err, JG_ERR_SYSTEM, JG_PHASE_NONE,
                     "game '%s': could not create a QuickJS context to compile it", game_name);
        goto done;
    }
    /* QuickJS parses from a NUL-terminated buffer. */
    char *text = malloc(len + 1);
    if (!text) {
        jg_error_set(err, JG_ERR_MEMORY, JG_PHASE_NONE, "game '%s': out of memory reading the source",
                     game_name);
        status = JG_ERR_MEMORY;
        goto done;
    }
    memcpy(text, source, len);
    text[len] = '\0';
    JSValue fn = JS_Eval(ctx, text, len, game_name, JS_EVAL_TYPE_GLOBAL | JS_EVAL_FLAG_COMPILE_ONLY);
    free(text);
    if (JS_IsException(fn) && timed_out) {
        JS_FreeValue(ctx, JS_GetException(ctx));
        goto too_slow;
    }
    if (JS_IsException(fn)) {
        JSValue exc = JS_GetException(ctx);
        const char *msg = JS_ToCString(ctx, exc);
        JSValue stack = JS_GetPropertyStr(ctx, exc, "stack");
        const char *stack_s = JS_IsUndefined(stack) ? NULL : JS_ToCString(ctx, stack);
        jg_error_set(err, JG_ERR_LOAD, JG_PHASE_LOAD, "%s", msg ? msg : "syntax error");
        location_from_stack(stack_s, err);
        if (stack_s) JS_FreeCString(ctx, stack_s);
        if (msg) JS_FreeCString(ctx, msg);
        JS_FreeValue(ctx, stack);
        JS_FreeValue(ctx, exc);
        status = JG_ERR_LOAD;
        goto done;
    }
    size_t size = 0;
    uint8_t *buf = JS_WriteObject(ctx, &size, fn, JS_WRITE_OBJ_BYTECODE);
    JS_FreeValue(ctx, fn);
    if (!buf && timed_out) goto too_slow;
    if (!buf) {
        jg_error_set(err, JG_ERR_SYSTEM, JG_PHASE_NONE, "game '%s': could not serialise its bytecode",
                     game_name);
        goto done;
    }
    out->data = malloc(size);
    if (!out->data) {
        js_free(ctx, buf);
        jg_error_set(err, JG_ERR_MEMORY, JG_PHASE_NONE, "game '%s': out of memory copying bytecode",
                     game_name);
        status = JG_ERR_MEMORY;
        goto done;
    }
    memcpy(out->data, buf, size);
    out->len = size;
    js_free(ctx, buf);
    status = JG_OK;
    goto done;
too_slow:
    jg_error_set(err, JG_ERR_TIMEOUT, JG_PHASE_COMPILE,
                 "%s (%zu bytes) took longer than the compile timeout of %.3g s (a parser "
                 "worst case, such as tens of thousands of variables in one scope?)",
                 jg_phase_text(JG_PHASE_COMPILE), len, timeout);
    status = JG_ERR_TIMEOUT;
done:
    if (ctx) JS_FreeContext(ctx);
    if (rt) JS_FreeRuntime(rt);
    return status;
#undef timed_out
}

void jg_bytecode_free(jg_bytecode *bc) {
    free(bc->data);
    bc->data = NULL;
    bc->len = 0;
}
