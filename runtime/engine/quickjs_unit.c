/* The QuickJS release's quickjs.c, compiled as one unit with two object constructors
 * its public API lacks (quickjs-ng has them as JS_NewObjectFrom / JS_NewArrayFrom).
 * They build an object directly from an existing shape and a fast array directly from
 * values, as the interpreter does for its own regexp results and array literals: the
 * p5 shim makes a p5.Color or a p5.Vector, six own properties and two arrays, several
 * hundred times per frame in plain game code, and defining the properties one by one
 * through JS_DefinePropertyValue re-finds the shape and regrows the property array for
 * each. See engine.h. Built by rasterizer/build.rs in place of quickjs.c. */
#include "quickjs.c"

#include "engine.h"

#ifndef JG_QUICKJS_NG

JSValue engine_new_object_like(JSContext *ctx, JSValueConst model, JSValue *vals, int n)
{
    if (JS_VALUE_GET_TAG(model) != JS_TAG_OBJECT) return JS_UNDEFINED;
    JSObject *m = JS_VALUE_GET_OBJ(model);
    JSShape *sh = m->shape;
    if (m->class_id != JS_CLASS_OBJECT || !sh->is_hashed || sh->prop_count != n) return JS_UNDEFINED;
    JSShapeProperty *prs = get_shape_prop(sh);
    for (int i = 0; i < n; i++)
        if ((prs[i].flags & (JS_PROP_TMASK | JS_PROP_C_W_E)) != JS_PROP_C_W_E) return JS_UNDEFINED;
    JSValue obj = JS_NewObjectFromShape(ctx, js_dup_shape(sh), JS_CLASS_OBJECT, NULL);
    if (JS_IsException(obj)) {
        for (int i = 0; i < n; i++) JS_FreeValue(ctx, vals[i]);
        return obj;
    }
    JSObject *p = JS_VALUE_GET_OBJ(obj);
    for (int i = 0; i < n; i++) p->prop[i].u.value = vals[i];
    return obj;
}

JSValue engine_new_array_from(JSContext *ctx, JSValue *vals, int n)
{
    return js_create_array_free(ctx, n, vals);
}

int engine_fast_array(JSContext *ctx, JSValueConst v, JSValue **vals, uint32_t *n)
{
    return js_get_fast_array(ctx, v, vals, n) ? 1 : 0;
}

#else

JSValue engine_new_object_like(JSContext *ctx, JSValueConst model, JSValue *vals, int n)
{
    return JS_UNDEFINED;
}

JSValue engine_new_array_from(JSContext *ctx, JSValue *vals, int n)
{
    return JS_UNDEFINED;
}

int engine_fast_array(JSContext *ctx, JSValueConst v, JSValue **vals, uint32_t *n)
{
    return 0;
}

#endif
