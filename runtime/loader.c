/* Compiles a game file once to QuickJS bytecode; every env then loads the bytecode
 * with JS_ReadObject instead of parsing the source again (the bytecode cache). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Copies "file:line:col" out of a QuickJS stack trace ("    at file:line:col\n"). */
static void location_from_stack(const char *stack, char *out, size_t outlen) {
    out[0] = '\0';
    if (!stack) return;
    const char *at = strstr(stack, "at ");
    if (!at) return;
    at += 3;
    size_t n = strcspn(at, "\n");
    if (n >= outlen) n = outlen - 1;
    memcpy(out, at, n);
    out[n] = '\0';
}

int jg_compile(const char *game_name, const char *source, size_t len, jg_bytecode *out,
               char *err, size_t errlen) {
    int status = JG_ERR_SYSTEM;
    out->data = NULL;
    out->len = 0;
    JSRuntime *rt = JS_NewRuntime();
    JSContext *ctx = rt ? JS_NewContext(rt) : NULL;
    if (!ctx) {
        snprintf(err, errlen, "game '%s': could not create a QuickJS context to compile it", game_name);
        goto done;
    }
    /* QuickJS parses from a NUL-terminated buffer. */
    char *text = malloc(len + 1);
    if (!text) {
        snprintf(err, errlen, "game '%s': out of memory reading the source", game_name);
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
        char where[512];
        location_from_stack(stack_s, where, sizeof where);
        snprintf(err, errlen, "%s: %s", where[0] ? where : game_name, msg ? msg : "syntax error");
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
        snprintf(err, errlen, "game '%s': could not serialise its bytecode", game_name);
        goto done;
    }
    out->data = malloc(size);
    if (!out->data) {
        js_free(ctx, buf);
        snprintf(err, errlen, "game '%s': out of memory copying bytecode", game_name);
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
