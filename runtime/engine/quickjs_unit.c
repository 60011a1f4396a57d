/* The QuickJS release's quickjs.c, compiled as one unit with two object constructors
 * its public API lacks (quickjs-ng has them as JS_NewObjectFrom / JS_NewArrayFrom).
 * They build an object directly from an existing shape and a fast array directly from
 * values, as the interpreter does for its own regexp results and array literals: the
 * p5 shim makes a p5.Color or a p5.Vector, six own properties and two arrays, several
 * hundred times per frame in plain game code, and defining the properties one by one
 * through JS_DefinePropertyValue re-finds the shape and regrows the property array for
 * each. It also holds the host side of the lazy properties patch_quickjs.py adds (a
 * colour's arrays made on first access). See engine.h. Built by rasterizer/build.rs in
 * place of quickjs.c. */
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

/* The object the host alone holds (no JavaScript can tell it from a new one) whose
 * shape is still `sh`; else NULL. */
static JSObject *only_held(JSValueConst obj, JSShape *sh, int n)
{
    if (JS_VALUE_GET_TAG(obj) != JS_TAG_OBJECT) return NULL;
    JSObject *p = JS_VALUE_GET_OBJ(obj);
    /* (a property added, deleted or redefined, or a new prototype, moves the object
     * off the shape it was made with) */
    if (p->header.ref_count != 1 || p->weakref_count || !p->extensible || p->class_id != JS_CLASS_OBJECT ||
        p->shape != sh || sh->prop_count != n)
        return NULL;
    return p;
}

int engine_reuse_object_like(JSContext *ctx, JSValueConst obj, JSValueConst model, JSValue *vals, int n)
{
    if (JS_VALUE_GET_TAG(model) != JS_TAG_OBJECT) return 0;
    JSObject *p = only_held(obj, JS_VALUE_GET_OBJ(model)->shape, n);
    if (!p) return 0;
    for (int i = 0; i < n; i++) {
        JSValue old = p->prop[i].u.value;
        p->prop[i].u.value = vals[i];
        JS_FreeValue(ctx, old);
    }
    return 1;
}

int engine_fast_array(JSContext *ctx, JSValueConst v, JSValue **vals, uint32_t *n)
{
    return js_get_fast_array(ctx, v, vals, n) ? 1 : 0;
}

int engine_string_equals_ascii(JSValueConst v, const char *s, size_t n)
{
    if (JS_VALUE_GET_TAG(v) != JS_TAG_STRING) return -1;
    JSString *p = JS_VALUE_GET_STRING(v);
    if (p->len != n) return 0;
    if (!p->is_wide_char) return memcmp(p->u.str8, s, n) == 0;
    for (size_t i = 0; i < n; i++)
        if (p->u.str16[i] != (uint8_t)s[i]) return 0;
    return 1;
}

JSValue *engine_own_values_like(JSValueConst obj, JSValueConst model)
{
    _Static_assert(sizeof(JSProperty) == sizeof(JSValue), "a data property holds just its value");
    if (JS_VALUE_GET_TAG(obj) != JS_TAG_OBJECT || JS_VALUE_GET_TAG(model) != JS_TAG_OBJECT) return NULL;
    JSObject *p = JS_VALUE_GET_OBJ(obj);
    /* (a hashed shape is never changed in place: an object whose properties change
     * moves to another shape) */
    if (p->shape != JS_VALUE_GET_OBJ(model)->shape || p->class_id != JS_CLASS_OBJECT) return NULL;
    return &p->prop[0].u.value;
}

int engine_inherits(JSValueConst v, JSValueConst proto)
{
    if (JS_VALUE_GET_TAG(v) != JS_TAG_OBJECT || JS_VALUE_GET_TAG(proto) != JS_TAG_OBJECT) return -1;
    JSObject *target = JS_VALUE_GET_OBJ(proto);
    for (JSObject *p = JS_VALUE_GET_OBJ(v);;) {
        if (p->class_id == JS_CLASS_PROXY) return -1;
        p = p->shape->proto;
        if (!p) return 0;
        if (p == target) return 1;
    }
}

/* ------------------------------------------------------------------ lazy properties */

/* What an object's lazy properties point to: one block per object, shared by them.
 * Each lazy property holds one reference to each shape, which the collector sees
 * through the property (jg_lazy_mark). */
typedef struct EngineLazy {
    int refs;               /* lazy properties still pointing here */
    JSShape *lazy_shape;    /* the shape the object was made with */
    JSShape *plain_shape;   /* the same properties, all plain data: the shape once made */
    EngineLazyValue *value; /* makes a property's value from the payload */
    size_t size;            /* of the payload */
    double payload[];       /* the host's bytes, 8-byte aligned */
} EngineLazy;

static inline EngineLazy *lazy_of(JSProperty *pr)
{
    return (EngineLazy *)pr->u.init.opaque;
}

static inline int is_host_lazy(JSShapeProperty *prs, JSProperty *pr)
{
    return (prs->flags & JS_PROP_TMASK) == JS_PROP_AUTOINIT &&
           js_autoinit_get_id(pr) == JG_AUTOINIT_ID_HOST;
}

static void jg_lazy_release(JSRuntime *rt, void *opaque)
{
    EngineLazy *lz = opaque;
    if (!lz) return;
    js_free_shape(rt, lz->lazy_shape);
    js_free_shape(rt, lz->plain_shape);
    if (--lz->refs == 0) js_free_rt(rt, lz);
}

static void jg_lazy_mark(JSRuntime *rt, void *opaque, JS_MarkFunc *mark_func)
{
    EngineLazy *lz = opaque;
    if (!lz) return;
    mark_func(rt, &lz->lazy_shape->header);
    mark_func(rt, &lz->plain_shape->header);
}

/* The value of lazy property `i` of `p` (undefined for a model's) */
static JSValue lazy_value(JSContext *ctx, JSObject *p, JSShapeProperty *prs, int i)
{
    EngineLazy *lz = lazy_of(&p->prop[i]);
    return lz ? lz->value(ctx, lz->payload, prs[i].atom) : JS_UNDEFINED;
}

/* A lazy property is about to be read, written, redefined or deleted: every lazy
 * property of `p` is made now. When `p` still has the shape it was made with, it takes
 * the plain shape (shared by every object made from the same models); else (a property
 * was added or deleted since) its own shape is unshared and changed in place. Values
 * that fail to be made leave the properties lazy: -1 with the exception pending. */
static int jg_lazy_materialize(JSContext *ctx, JSObject *p)
{
    JSRuntime *rt = ctx->rt;
    JSShape *sh = p->shape;
    JSShapeProperty *prs = get_shape_prop(sh);
    int n = sh->prop_count;
    EngineLazy *first = NULL;
    for (int i = 0; i < n && !first; i++)
        if (is_host_lazy(&prs[i], &p->prop[i])) first = lazy_of(&p->prop[i]);
    /* sh == lazy_shape: n is the lazy model's count, at most ENGINE_LAZY_MAX_PROPS */
    if (first && sh == first->lazy_shape && first->plain_shape->prop_count == n &&
        first->plain_shape->prop_size <= sh->prop_size) {
        JSValue vals[ENGINE_LAZY_MAX_PROPS];
        for (int i = 0; i < n; i++) {
            if (!is_host_lazy(&prs[i], &p->prop[i])) continue;
            vals[i] = lazy_value(ctx, p, prs, i);
            if (JS_IsException(vals[i])) {
                while (--i >= 0)
                    if (is_host_lazy(&prs[i], &p->prop[i])) JS_FreeValue(ctx, vals[i]);
                return -1;
            }
        }
        JSShape *plain = js_dup_shape(first->plain_shape);
        for (int i = 0; i < n; i++) {
            JSProperty *pr = &p->prop[i];
            if (!is_host_lazy(&prs[i], pr)) continue;
            js_autoinit_free(rt, pr);
            pr->u.value = vals[i];
        }
        p->shape = plain;
        js_free_shape(rt, sh);
        return 0;
    }
    if (js_shape_prepare_update(ctx, p, NULL)) return -1;
    sh = p->shape;
    prs = get_shape_prop(sh);
    for (int i = 0; i < sh->prop_count; i++) {
        JSProperty *pr = &p->prop[i];
        if (!is_host_lazy(&prs[i], pr)) continue;
        JSValue v = lazy_value(ctx, p, prs, i);
        if (JS_IsException(v)) return -1;
        js_autoinit_free(rt, pr);
        prs[i].flags &= ~JS_PROP_TMASK;
        pr->u.value = v;
    }
    return 0;
}

JSValue engine_new_lazy_model(JSContext *ctx, JSValueConst plain, uint32_t lazy_mask)
{
    if (JS_VALUE_GET_TAG(plain) != JS_TAG_OBJECT) return JS_UNDEFINED;
    JSObject *m = JS_VALUE_GET_OBJ(plain);
    JSShape *sh = m->shape;
    int n = sh->prop_count;
    if (m->class_id != JS_CLASS_OBJECT || !sh->is_hashed || n > ENGINE_LAZY_MAX_PROPS) return JS_UNDEFINED;
    JSShapeProperty *prs = get_shape_prop(sh);
    for (int i = 0; i < n; i++)
        if ((prs[i].flags & (JS_PROP_TMASK | JS_PROP_C_W_E)) != JS_PROP_C_W_E) return JS_UNDEFINED;
    JSValue proto = sh->proto ? JS_MKPTR(JS_TAG_OBJECT, sh->proto) : JS_NULL;
    JSValue o = JS_NewObjectProto(ctx, proto);
    for (int i = 0; i < n && !JS_IsException(o); i++) {
        int r = lazy_mask >> i & 1
                    ? JS_DefineAutoInitProperty(ctx, o, prs[i].atom, JG_AUTOINIT_ID_HOST, NULL, JS_PROP_C_W_E)
                    : JS_DefinePropertyValue(ctx, o, prs[i].atom, JS_UNDEFINED, JS_PROP_C_W_E);
        if (r < 0) {
            JS_FreeValue(ctx, o);
            o = JS_EXCEPTION;
        }
    }
    if (!JS_IsException(o) && !JS_VALUE_GET_OBJ(o)->shape->is_hashed) {
        JS_FreeValue(ctx, o);
        return JS_UNDEFINED;
    }
    return o;
}

JSValue engine_new_object_lazy(JSContext *ctx, JSValueConst lazy_model, JSValueConst plain_model,
                               JSValue *vals, int n, EngineLazyValue *value, const void *payload,
                               size_t size)
{
    if (JS_VALUE_GET_TAG(lazy_model) != JS_TAG_OBJECT || JS_VALUE_GET_TAG(plain_model) != JS_TAG_OBJECT)
        return JS_UNDEFINED;
    JSShape *sh = JS_VALUE_GET_OBJ(lazy_model)->shape;
    JSShape *plain = JS_VALUE_GET_OBJ(plain_model)->shape;
    if (sh->prop_count != n || plain->prop_count != n) return JS_UNDEFINED;
    JSShapeProperty *prs = get_shape_prop(sh);
    int lazy = 0;
    for (int i = 0; i < n; i++) lazy += (prs[i].flags & JS_PROP_TMASK) == JS_PROP_AUTOINIT;
    if (!lazy) return JS_UNDEFINED;
    EngineLazy *lz = js_malloc(ctx, sizeof *lz + size);
    if (!lz) goto fail;
    lz->refs = lazy;
    lz->lazy_shape = sh;
    lz->plain_shape = plain;
    lz->value = value;
    lz->size = size;
    memcpy(lz->payload, payload, size);
    JSValue obj = JS_NewObjectFromShape(ctx, js_dup_shape(sh), JS_CLASS_OBJECT, NULL);
    if (JS_IsException(obj)) {
        js_free(ctx, lz);
        goto fail;
    }
    JSObject *p = JS_VALUE_GET_OBJ(obj);
    for (int i = 0; i < n; i++) {
        if ((prs[i].flags & JS_PROP_TMASK) == JS_PROP_AUTOINIT) {
            JS_FreeValue(ctx, vals[i]);
            js_dup_shape(sh);
            js_dup_shape(plain);
            p->prop[i].u.init.realm_and_id = (uintptr_t)JS_DupContext(ctx) | JG_AUTOINIT_ID_HOST;
            p->prop[i].u.init.opaque = lz;
        } else {
            p->prop[i].u.value = vals[i];
        }
    }
    return obj;
fail:
    for (int i = 0; i < n; i++) JS_FreeValue(ctx, vals[i]);
    return JS_EXCEPTION;
}

int engine_reuse_object_lazy(JSContext *ctx, JSValueConst obj, JSValueConst lazy_model,
                             JSValueConst plain_model, JSValue *vals, int n, EngineLazyValue *value,
                             const void *payload, size_t size)
{
    if (JS_VALUE_GET_TAG(lazy_model) != JS_TAG_OBJECT || JS_VALUE_GET_TAG(plain_model) != JS_TAG_OBJECT)
        return 0;
    /* (reading, writing or redefining a lazy property moves the object off the lazy
     * model's shape too) */
    JSObject *p = only_held(obj, JS_VALUE_GET_OBJ(lazy_model)->shape, n);
    if (!p) return 0;
    JSShape *sh = p->shape;
    JSShapeProperty *prs = get_shape_prop(sh);
    EngineLazy *lz = NULL;
    int lazy = 0;
    for (int i = 0; i < n; i++) {
        if ((prs[i].flags & JS_PROP_TMASK) != JS_PROP_AUTOINIT) continue;
        if (!is_host_lazy(&prs[i], &p->prop[i]) || !lazy_of(&p->prop[i])) return 0;
        if (lz && lazy_of(&p->prop[i]) != lz) return 0;
        lz = lazy_of(&p->prop[i]);
        lazy++;
    }
    if (!lz || lz->refs != lazy || lz->value != value || lz->size != size ||
        lz->plain_shape != JS_VALUE_GET_OBJ(plain_model)->shape)
        return 0;
    memcpy(lz->payload, payload, size);
    for (int i = 0; i < n; i++) {
        if ((prs[i].flags & JS_PROP_TMASK) == JS_PROP_AUTOINIT) {
            JS_FreeValue(ctx, vals[i]);
        } else {
            JSValue old = p->prop[i].u.value;
            p->prop[i].u.value = vals[i];
            JS_FreeValue(ctx, old);
        }
    }
    return 1;
}

void *engine_lazy_payload(JSValueConst obj, int index, JSAtom atom)
{
    if (JS_VALUE_GET_TAG(obj) != JS_TAG_OBJECT) return NULL;
    JSObject *p = JS_VALUE_GET_OBJ(obj);
    JSShape *sh = p->shape;
    if (index < 0 || index >= (int)sh->prop_count) return NULL;
    JSShapeProperty *prs = &get_shape_prop(sh)[index];
    JSProperty *pr = &p->prop[index];
    if (prs->atom != atom || !is_host_lazy(prs, pr) || !pr->u.init.opaque) return NULL;
    return lazy_of(pr)->payload;
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

int engine_reuse_object_like(JSContext *ctx, JSValueConst obj, JSValueConst model, JSValue *vals, int n)
{
    return 0;
}

int engine_fast_array(JSContext *ctx, JSValueConst v, JSValue **vals, uint32_t *n)
{
    return 0;
}

JSValue *engine_own_values_like(JSValueConst obj, JSValueConst model)
{
    return NULL;
}

int engine_inherits(JSValueConst v, JSValueConst proto)
{
    return -1;
}

int engine_string_equals_ascii(JSValueConst v, const char *s, size_t n)
{
    return -1;
}

JSValue engine_new_lazy_model(JSContext *ctx, JSValueConst plain, uint32_t lazy_mask)
{
    return JS_UNDEFINED;
}

JSValue engine_new_object_lazy(JSContext *ctx, JSValueConst lazy_model, JSValueConst plain_model,
                               JSValue *vals, int n, EngineLazyValue *value, const void *payload,
                               size_t size)
{
    return JS_UNDEFINED;
}

int engine_reuse_object_lazy(JSContext *ctx, JSValueConst obj, JSValueConst lazy_model,
                             JSValueConst plain_model, JSValue *vals, int n, EngineLazyValue *value,
                             const void *payload, size_t size)
{
    return 0;
}

void *engine_lazy_payload(JSValueConst obj, int index, JSAtom atom)
{
    return NULL;
}

#endif
