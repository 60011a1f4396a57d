/* Compiles a game file once to QuickJS bytecode; every env then loads the bytecode
 * with JS_ReadObject instead of parsing the source again (the bytecode cache). */
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

int32_t jg_compile(const char *game_name, const char *source, size_t len, jg_bytecode *out,
                   jg_error *err) {
    int32_t status = JG_ERR_SYSTEM;
    out->data = NULL;
    out->len = 0;
    JSRuntime *rt = JS_NewRuntime();
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
done:
    if (ctx) JS_FreeContext(ctx);
    if (rt) JS_FreeRuntime(rt);
    return status;
}

void jg_bytecode_free(jg_bytecode *bc) {
    free(bc->data);
    bc->data = NULL;
    bc->len = 0;
}
