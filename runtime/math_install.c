/* Installs V8-identical transcendental functions over QuickJS's Math built-ins
 * (see runtime/v8math.h and docs/math.md for which ones differ and why). */
#include <math.h>
#include <stdlib.h>

#include "internal.h"
#include "v8math.h"

static JSValue v8_math_call(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                            int magic) {
    const jg_v8_math_entry *e = &jg_v8_math_table[magic];
    if (e->nargs == 1 || e->nargs == 2) {
        double x[2] = {NAN, NAN};
        for (int i = 0; i < e->nargs; i++) {
            JSValueConst arg = i < argc ? argv[i] : JS_UNDEFINED;
            if (JS_ToFloat64(ctx, &x[i], arg)) return JS_EXCEPTION;
        }
        return JS_NewFloat64(ctx, e->nargs == 1 ? e->f1(x[0]) : e->f2(x[0], x[1]));
    }
    /* variadic: every argument is converted, in order, as the spec requires */
    double small[8];
    double *v = argc <= 8 ? small : js_malloc(ctx, sizeof(double) * (size_t)argc);
    if (!v) return JS_EXCEPTION;
    for (int i = 0; i < argc; i++) {
        if (JS_ToFloat64(ctx, &v[i], argv[i])) {
            if (v != small) js_free(ctx, v);
            return JS_EXCEPTION;
        }
    }
    double r = e->fn(v, argc);
    if (v != small) js_free(ctx, v);
    return JS_NewFloat64(ctx, r);
}

int jg_install_v8_math(JSContext *ctx, JSValueConst math) {
    for (int i = 0; jg_v8_math_table[i].name; i++) {
        const jg_v8_math_entry *e = &jg_v8_math_table[i];
        JSValue fn = JS_NewCFunctionMagic(ctx, v8_math_call, e->name, e->length,
                                          JS_CFUNC_generic_magic, i);
        if (JS_IsException(fn)) return -1;
        if (JS_DefinePropertyValueStr(ctx, math, e->name, fn,
                                      JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE) < 0)
            return -1;
    }
    return 0;
}
