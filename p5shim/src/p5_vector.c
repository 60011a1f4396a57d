/* p5.Vector: createVector() and the hot methods in C, with p5 1.11's exact semantics.
 *
 * The class is prelude.js's, with a native constructor in front of it (p5.Vector:
 * new p5.Vector(x, y, z) made here, the rest by the prelude's), and its objects stay
 * plain objects with own properties (isPInst, _fromRadians, _toRadians, x, y, z from
 * createVector; x, y, z from new p5.Vector), so that games read and write v.x as fast
 * as any field. The
 * methods below replace prelude.js's versions on p5.Vector.prototype; each one runs
 * here when `this` is a direct p5.Vector (prototype p5.Vector.prototype) whose fields
 * and arguments are plain numbers, and otherwise calls the JS version it replaced
 * (subclasses that override a method p5 calls through `this`, string components and
 * other coercions keep p5's behaviour to the letter).
 *
 * Math.sin/cos/atan2/sqrt are looked up on the global Math at each call, as p5's own
 * code does, so the runtime's V8-identical versions (and a game's override) apply.
 */
#include "engine/engine.h"
#include "p5_internal.h"

enum { P5V_SET, P5V_COPY, P5V_ADD, P5V_SUB, P5V_MULT, P5V_DIV, P5V_MAG, P5V_MAGSQ, P5V_DOT,
       P5V_DIST, P5V_NORMALIZE, P5V_LIMIT, P5V_SETMAG, P5V_HEADING, P5V_ROTATE, P5V_LERP,
       P5V_N_METHODS };
enum { P5VS_ADD, P5VS_SUB, P5VS_MULT, P5VS_DIV, P5VS_DIST, P5VS_FROMANGLE, P5VS_N };

static const char *const p5v_method_names[P5V_N_METHODS] = {
    "set", "copy", "add", "sub", "mult", "div", "mag", "magSq", "dot", "dist", "normalize",
    "limit", "setMag", "heading", "rotate", "lerp",
};
static const char *const p5v_static_names[P5VS_N] = {"add", "sub", "mult", "div", "dist", "fromAngle"};

/* What the natives fall back to and call (P5Shim.vector_js): the JS versions they
 * replaced, and the global Math. */
typedef struct P5VectorJS {
    JSValue method[P5V_N_METHODS];
    JSValue statics[P5VS_N];
    JSValue math;           /* the global Math object */
    JSAtom sin, cos, atan2; /* its function names */
} P5VectorJS;

static P5VectorJS *p5v_js(P5Shim *s) { return (P5VectorJS *)s->vector_js; }

void p5_vector_init(P5Shim *s)
{
    s->vector_ctor = s->vector_class = s->vector_proto = JS_UNDEFINED;
    s->vector_from_radians = s->vector_to_radians = JS_UNDEFINED;
    for (int i = 0; i < P5_VECTOR_PROPS; i++) s->vector_stages[i] = JS_UNDEFINED;
    p5_spares_init(&s->vector_spares);
    p5_spares_init(&s->vector_xyz_spares);
    s->vector_xyz_model = JS_UNDEFINED;
    s->vector_js = NULL;
}

void p5_vector_free(P5Shim *s)
{
    JSContext *ctx = s->ctx;
    JSValue *vals[] = {&s->vector_ctor, &s->vector_class, &s->vector_proto, &s->vector_from_radians,
                       &s->vector_to_radians, &s->vector_xyz_model};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        JS_FreeValue(ctx, *vals[i]);
        *vals[i] = JS_UNDEFINED;
    }
    for (int i = 0; i < P5_VECTOR_PROPS; i++) {
        JS_FreeValue(ctx, s->vector_stages[i]);
        s->vector_stages[i] = JS_UNDEFINED;
    }
    p5_spares_free(ctx, &s->vector_spares);
    p5_spares_free(ctx, &s->vector_xyz_spares);
    P5VectorJS *js = p5v_js(s);
    if (js) {
        for (int i = 0; i < P5V_N_METHODS; i++) JS_FreeValue(ctx, js->method[i]);
        for (int i = 0; i < P5VS_N; i++) JS_FreeValue(ctx, js->statics[i]);
        JS_FreeValue(ctx, js->math);
        JS_FreeAtom(ctx, js->sin);
        JS_FreeAtom(ctx, js->cos);
        JS_FreeAtom(ctx, js->atan2);
        p5_realloc(s, js, 0);
        s->vector_js = NULL;
    }
}

/* ------------------------------------------------------------------ helpers */

/* The x, y and z of vector `o` in place, when it has the shape of the vectors
 * createVector() and new p5.Vector() make (which a vector keeps unless a game adds,
 * deletes or redefines a property of it); else NULL: its fields are looked up. `all`
 * (when given) is set to a createVector() vector's six values (isPInst, _fromRadians,
 * _toRadians, x, y, z), else to NULL. */
static JSValue *p5v_fields(P5Shim *s, JSValueConst o, JSValue **all)
{
    JSValue *v = engine_own_values_like(o, s->vector_stages[P5_VECTOR_PROPS - 1]);
    if (all) *all = v;
    if (v) return v + P5_VECTOR_PROPS - 3;
    return engine_own_values_like(o, s->vector_xyz_model);
}

static JSValue *p5v_xyz(P5Shim *s, JSValueConst o) { return p5v_fields(s, o, NULL); }

/* A field of a JS object as a number: 1 if it is a plain number, 0 if not (the caller
 * takes the JS path), -1 on an exception. */
static int p5v_get(JSContext *ctx, JSValueConst o, JSAtom atom, double *out)
{
    JSValue v = JS_GetProperty(ctx, o, atom);
    int tag = JS_VALUE_GET_TAG(v);
    if (tag == JS_TAG_INT) {
        *out = JS_VALUE_GET_INT(v);
        return 1;
    }
    if (tag == JS_TAG_FLOAT64) {
        *out = JS_VALUE_GET_FLOAT64(v);
        return 1;
    }
    if (JS_IsException(v)) return -1;
    JS_FreeValue(ctx, v);
    return 0;
}

static int p5v_get3(JSContext *ctx, P5Shim *s, JSValueConst o, double *v)
{
    const JSValue *f = p5v_xyz(s, o);
    if (f) {
        for (int i = 0; i < 3; i++) {
            int tag = JS_VALUE_GET_TAG(f[i]);
            if (tag == JS_TAG_INT) v[i] = JS_VALUE_GET_INT(f[i]);
            else if (tag == JS_TAG_FLOAT64) v[i] = JS_VALUE_GET_FLOAT64(f[i]);
            else return 0;
        }
        return 1;
    }
    int r;
    if ((r = p5v_get(ctx, o, s->atoms[P5_ATOM_x], &v[0])) <= 0) return r;
    if ((r = p5v_get(ctx, o, s->atoms[P5_ATOM_y], &v[1])) <= 0) return r;
    return p5v_get(ctx, o, s->atoms[P5_ATOM_z], &v[2]);
}

static int p5v_set3(JSContext *ctx, P5Shim *s, JSValueConst o, const double *v)
{
    JSValue *f = p5v_xyz(s, o);
    /* (numbers in place hold nothing to free) */
    if (f && JS_IsNumber(f[0]) && JS_IsNumber(f[1]) && JS_IsNumber(f[2])) {
        for (int i = 0; i < 3; i++) f[i] = p5_new_number(ctx, v[i]);
        return 0;
    }
    for (int i = 0; i < 3; i++)
        if (JS_SetProperty(ctx, o, s->atoms[P5_ATOM_x + i], p5_new_number(ctx, v[i])) < 0) return -1;
    return 0;
}

/* `v || 0` for a number v */
static inline double p5v_or0(double v) { return (v != v || v == 0) ? 0 : v; }

/* `a || 0` for any argument: 1 with *out set when a is a number or falsy-undefined/null,
 * 0 when a is something else (the JS path decides what it coerces to). */
static int p5v_arg_or0(JSValueConst a, double *out)
{
    int tag = JS_VALUE_GET_TAG(a);
    if (tag == JS_TAG_INT) {
        *out = p5v_or0(JS_VALUE_GET_INT(a));
        return 1;
    }
    if (tag == JS_TAG_FLOAT64) {
        *out = p5v_or0(JS_VALUE_GET_FLOAT64(a));
        return 1;
    }
    if (tag == JS_TAG_UNDEFINED || tag == JS_TAG_NULL) {
        *out = 0;
        return 1;
    }
    return 0;
}

static int p5v_is_vector(JSContext *ctx, P5Shim *s, JSValueConst v)
{
    if (!JS_IsObject(v) || !JS_IsObject(s->vector_ctor)) return 0;
    if (p5_has_proto(ctx, v, s->vector_proto)) return 1;
    return JS_IsInstanceOf(ctx, v, s->vector_ctor) > 0;
}

/* The three operands of add/sub/set-style arguments (x instanceof Vector: its fields
 * || 0; an array: [0..2] || 0; else x, y, z || 0). 1 with o[] set, 0: take the JS path. */
static int p5v_operands(JSContext *ctx, P5Shim *s, int argc, JSValueConst *argv, double *o,
                        int arrays)
{
    JSValueConst x = argc > 0 ? argv[0] : JS_UNDEFINED;
    JSValue *el;
    uint32_t n;
    if (arrays && engine_fast_array(ctx, x, &el, &n)) {
        /* Array.isArray(x): x[0] || 0, x[1] || 0, x[2] || 0 (numbers or missing only) */
        for (uint32_t i = 0; i < 3; i++)
            if (!p5v_arg_or0(i < n ? el[i] : JS_UNDEFINED, &o[i])) return 0;
        return 1;
    }
    if (JS_IsObject(x)) {
        /* (a vector's shape says what it is) */
        if (!p5v_xyz(s, x) && !p5v_is_vector(ctx, s, x)) return 0; /* other arrays and the rest: JS */
        double v[3];
        int r = p5v_get3(ctx, s, x, v);
        if (r <= 0) {
            if (r < 0) JS_FreeValue(ctx, JS_GetException(ctx));
            return 0;
        }
        for (int i = 0; i < 3; i++) o[i] = p5v_or0(v[i]);
        return 1;
    }
    for (int i = 0; i < 3; i++)
        if (!p5v_arg_or0(i < argc ? argv[i] : JS_UNDEFINED, &o[i])) return 0;
    return 1;
}

/* Calls Math[name](x) or Math[name](a, b) through the global Math, as p5 does. */
static int p5v_math(JSContext *ctx, P5Shim *s, JSAtom name, int argc, const double *args, double *out)
{
    P5VectorJS *js = p5v_js(s);
    JSValue f = JS_GetProperty(ctx, js->math, name);
    if (JS_IsException(f)) return -1;
    JSValue a[2] = {JS_NewFloat64(ctx, args[0]), argc > 1 ? JS_NewFloat64(ctx, args[1]) : JS_UNDEFINED};
    JSValue r = JS_Call(ctx, f, js->math, argc, a);
    JS_FreeValue(ctx, f);
    if (JS_IsException(r)) return -1;
    int e = p5_num(ctx, out, r);
    JS_FreeValue(ctx, r);
    return e ? -1 : 0;
}

/* A new vector with createVector()'s own properties (isPInst true, the shim's angle
 * converters) or new p5.Vector(x, y, z)'s (x, y, z only); values are used as given. */
static JSValue p5v_new(JSContext *ctx, P5Shim *s, int pinst, JSValueConst fr, JSValueConst tr,
                       JSValue x, JSValue y, JSValue z)
{
    /* (new p5.Vector's leave out the first three: nothing to free there) */
    JSValue vals[P5_VECTOR_PROPS] = {JS_TRUE, pinst ? JS_DupValue(ctx, fr) : JS_UNDEFINED,
                                     pinst ? JS_DupValue(ctx, tr) : JS_UNDEFINED, x, y, z};
    static const int atoms[P5_VECTOR_PROPS] = {P5_ATOM_isPInst, P5_ATOM__fromRadians,
                                               P5_ATOM__toRadians, P5_ATOM_x, P5_ATOM_y, P5_ATOM_z};
    int first = pinst ? 0 : 3;
    /* createVector's made with the shape of the last stage, which has them all; new
     * p5.Vector's with that of the model of x, y, z alone */
    JSValueConst model = pinst ? s->vector_stages[P5_VECTOR_PROPS - 1] : s->vector_xyz_model;
    P5Spares *spares = pinst ? &s->vector_spares : &s->vector_xyz_spares;
    int n = P5_VECTOR_PROPS - first;
    for (int k = 0; k < P5_SPARES; k++)
        if (engine_reuse_object_like(ctx, spares->obj[k], model, vals + first, n))
            return JS_DupValue(ctx, spares->obj[k]);
    JSValue made = engine_new_object_like(ctx, model, vals + first, n);
    if (!JS_IsUndefined(made)) {
        if (JS_IsObject(made)) p5_spares_keep(ctx, spares, made);
        return made;
    }
    JSValue v = JS_NewObjectProto(ctx, s->vector_proto);
    int i = first;
    if (!JS_IsException(v))
        for (; i < P5_VECTOR_PROPS; i++)
            if (JS_DefinePropertyValue(ctx, v, s->atoms[atoms[i]], vals[i], JS_PROP_C_W_E) < 0) {
                i++;
                break;
            }
    if (i < P5_VECTOR_PROPS || JS_IsException(v)) {
        for (; i < P5_VECTOR_PROPS; i++) JS_FreeValue(ctx, vals[i]);
        JS_FreeValue(ctx, v);
        return JS_EXCEPTION;
    }
    return v;
}

/* `v || 0` as a JS value (the constructor stores whatever truthy value it was given). */
static JSValue p5v_value_or0(JSContext *ctx, JSValueConst v)
{
    int t = JS_ToBool(ctx, v);
    return t > 0 ? JS_DupValue(ctx, v) : JS_NewInt32(ctx, 0);
}

/* The copy this.copy() makes, for a direct vector: the same kind, the same fields. */
static JSValue p5v_copy(JSContext *ctx, P5Shim *s, JSValueConst v)
{
    JSValue *all;
    const JSValue *xyz = p5v_fields(s, v, &all);
    if (xyz) {
        /* read in place (nothing here runs JavaScript): isPInst, _fromRadians,
         * _toRadians, then x, y, z */
        int is_pinst = all && JS_ToBool(ctx, all[0]) > 0;
        JSValue f[3];
        for (int i = 0; i < 3; i++) f[i] = p5v_value_or0(ctx, xyz[i]);
        return p5v_new(ctx, s, is_pinst, is_pinst ? all[1] : JS_UNDEFINED,
                       is_pinst ? all[2] : JS_UNDEFINED, f[0], f[1], f[2]);
    }
    JSValue pinst = JS_GetProperty(ctx, v, s->atoms[P5_ATOM_isPInst]);
    if (JS_IsException(pinst)) return pinst;
    int is_pinst = JS_ToBool(ctx, pinst);
    JS_FreeValue(ctx, pinst);
    JSValue f[3], fr = JS_UNDEFINED, tr = JS_UNDEFINED;
    for (int i = 0; i < 3; i++) f[i] = JS_UNDEFINED;
    if (is_pinst) {
        fr = JS_GetProperty(ctx, v, s->atoms[P5_ATOM__fromRadians]);
        tr = JS_GetProperty(ctx, v, s->atoms[P5_ATOM__toRadians]);
    }
    int bad = JS_IsException(fr) || JS_IsException(tr);
    for (int i = 0; i < 3 && !bad; i++) {
        JSValue c = JS_GetProperty(ctx, v, s->atoms[P5_ATOM_x + i]);
        if (JS_IsException(c)) {
            bad = 1;
            break;
        }
        f[i] = p5v_value_or0(ctx, c);
        JS_FreeValue(ctx, c);
    }
    JSValue r = JS_EXCEPTION;
    if (!bad) {
        r = p5v_new(ctx, s, is_pinst, fr, tr, f[0], f[1], f[2]);
    } else {
        for (int i = 0; i < 3; i++) JS_FreeValue(ctx, f[i]);
    }
    JS_FreeValue(ctx, fr);
    JS_FreeValue(ctx, tr);
    return r;
}

/* Converts an angle with the vector's _fromRadians/_toRadians as p5 does: the shim's
 * own converters are applied here, anything else is called. */
static int p5v_convert(JSContext *ctx, P5Shim *s, JSValueConst v, int to_radians, double a, double *out)
{
    JSValue *all;
    if (p5v_fields(s, v, &all)) {
        /* isPInst and the converter read in place */
        JSValueConst mine = to_radians ? s->vector_to_radians : s->vector_from_radians;
        JSValueConst f = all ? all[to_radians ? 2 : 1] : JS_UNDEFINED;
        if (!all || JS_ToBool(ctx, all[0]) <= 0) {
            *out = a;
            return 0;
        }
        if (JS_IsObject(f) && JS_VALUE_GET_PTR(f) == JS_VALUE_GET_PTR(mine)) {
            *out = !s->angle_degrees ? a : to_radians ? a * (M_PI / 180) : a * (180 / M_PI);
            return 0;
        }
    }
    JSValue pinst = JS_GetProperty(ctx, v, s->atoms[P5_ATOM_isPInst]);
    if (JS_IsException(pinst)) return -1;
    int is_pinst = JS_ToBool(ctx, pinst);
    JS_FreeValue(ctx, pinst);
    if (!is_pinst) {
        *out = a;
        return 0;
    }
    JSValue f = JS_GetProperty(ctx, v, s->atoms[to_radians ? P5_ATOM__toRadians : P5_ATOM__fromRadians]);
    if (JS_IsException(f)) return -1;
    JSValueConst mine = to_radians ? s->vector_to_radians : s->vector_from_radians;
    if (JS_IsObject(f) && JS_VALUE_GET_PTR(f) == JS_VALUE_GET_PTR(mine)) {
        JS_FreeValue(ctx, f);
        *out = !s->angle_degrees ? a : to_radians ? a * (M_PI / 180) : a * (180 / M_PI);
        return 0;
    }
    JSValue arg = JS_NewFloat64(ctx, a);
    JSValue r = JS_Call(ctx, f, v, 1, &arg);
    JS_FreeValue(ctx, f);
    if (JS_IsException(r)) return -1;
    int e = p5_num(ctx, out, r);
    JS_FreeValue(ctx, r);
    return e ? -1 : 0;
}

/* The argument list of mult/div when it is one to three finite numbers, or empty
 * (p5 checks args.every(Number.isFinite) && every(typeof number)): the count, or -1
 * when p5 would warn and do nothing, or -2 when the JS path must decide (vectors,
 * arrays). */
static int p5v_scalars(int argc, JSValueConst *argv, double *a)
{
    if (argc > 3) return -2;
    for (int i = 0; i < argc; i++) {
        int tag = JS_VALUE_GET_TAG(argv[i]);
        if (tag == JS_TAG_INT) a[i] = JS_VALUE_GET_INT(argv[i]);
        else if (tag == JS_TAG_FLOAT64) a[i] = JS_VALUE_GET_FLOAT64(argv[i]);
        else if (tag == JS_TAG_OBJECT) return -2;
        else return i == 0 ? -2 : -1; /* a first non-number may be a vector-like: JS */
        if (!isfinite(a[i])) return -1;
    }
    return argc;
}

/* this.x *= / /= with p5's argument counts (1: all three; 2: x and y; 3: each). */
static void p5v_scale(double *t, int n, const double *a, int divide)
{
    if (n == 0) return;
    double f[3] = {a[0], n == 1 ? a[0] : a[1], n == 1 ? a[0] : n == 3 ? a[2] : 1};
    int k = n == 2 ? 2 : 3;
    for (int i = 0; i < k; i++) t[i] = divide ? t[i] / f[i] : t[i] * f[i];
}

/* ------------------------------------------------------------------ methods */

static JSValue p5v_js_call(JSContext *ctx, P5Shim *s, int magic, JSValueConst this_val, int argc,
                           JSValueConst *argv)
{
    return JS_Call(ctx, p5v_js(s)->method[magic], this_val, argc, argv);
}

static JSValue js_p5_vector_method(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                   int magic)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    double t[3], o[3], a[3];
    if (!p5_has_proto(ctx, this_val, s->vector_proto)) goto js;
    switch (magic) {
    case P5V_COPY:
        return p5v_copy(ctx, s, this_val);
    case P5V_SET:
        if (!p5v_operands(ctx, s, argc, argv, o, 1)) goto js;
        if (p5v_set3(ctx, s, this_val, o)) return JS_EXCEPTION;
        return JS_DupValue(ctx, this_val);
    case P5V_ADD:
    case P5V_SUB: {
        int got = p5v_get3(ctx, s, this_val, t);
        if (got < 0) return JS_EXCEPTION;
        if (!got || !p5v_operands(ctx, s, argc, argv, o, 1)) goto js;
        for (int i = 0; i < 3; i++) t[i] = magic == P5V_ADD ? t[i] + o[i] : t[i] - o[i];
        if (p5v_set3(ctx, s, this_val, t)) return JS_EXCEPTION;
        return JS_DupValue(ctx, this_val);
    }
    case P5V_MULT:
    case P5V_DIV: {
        int n = p5v_scalars(argc, argv, a);
        if (n == -2 && argc >= 1 && p5_has_proto(ctx, argv[0], s->vector_proto)) {
            /* x instanceof Vector: componentwise when its x, y, z are finite numbers */
            int got = p5v_get3(ctx, s, argv[0], o);
            if (got < 0) return JS_EXCEPTION;
            if (!got) goto js;
            if (!(isfinite(o[0]) && isfinite(o[1]) && isfinite(o[2]))) return JS_DupValue(ctx, this_val);
            got = p5v_get3(ctx, s, this_val, t);
            if (got < 0) return JS_EXCEPTION;
            if (!got) goto js;
            if (magic == P5V_MULT) {
                for (int i = 0; i < 3; i++) t[i] *= o[i];
            } else {
                int is_2d = o[2] == 0 && t[2] == 0;
                if (o[0] == 0 || o[1] == 0 || (!is_2d && o[2] == 0)) return JS_DupValue(ctx, this_val);
                t[0] /= o[0];
                t[1] /= o[1];
                if (!is_2d) t[2] /= o[2];
            }
            if (p5v_set3(ctx, s, this_val, t)) return JS_EXCEPTION;
            return JS_DupValue(ctx, this_val);
        }
        if (n == -2) goto js;
        if (n == -1) return JS_DupValue(ctx, this_val); /* p5 warns and does nothing */
        if (magic == P5V_DIV)
            for (int i = 0; i < n; i++)
                if (a[i] == 0) return JS_DupValue(ctx, this_val); /* divide by 0: warns */
        int got = p5v_get3(ctx, s, this_val, t);
        if (got < 0) return JS_EXCEPTION;
        if (!got) goto js;
        p5v_scale(t, n, a, magic == P5V_DIV);
        if (n && p5v_set3(ctx, s, this_val, t)) return JS_EXCEPTION;
        return JS_DupValue(ctx, this_val);
    }
    case P5V_MAG:
    case P5V_MAGSQ:
    case P5V_NORMALIZE:
    case P5V_LIMIT:
    case P5V_SETMAG: {
        int got = p5v_get3(ctx, s, this_val, t);
        if (got < 0) return JS_EXCEPTION;
        if (!got) goto js;
        double sq = t[0] * t[0] + t[1] * t[1] + t[2] * t[2];
        if (magic == P5V_MAGSQ) return p5_new_number(ctx, sq);
        double len = sqrt(sq);
        if (magic == P5V_MAG) return p5_new_number(ctx, len);
        if (magic == P5V_LIMIT) {
            if (argc < 1 || !JS_IsNumber(argv[0])) goto js;
            double max;
            p5_num(ctx, &max, argv[0]);
            if (!(sq > max * max)) return JS_DupValue(ctx, this_val);
            /* this.div(Math.sqrt(mSq)).mult(max) */
            if (isfinite(len) && len != 0) p5v_scale(t, 1, &len, 1);
            if (isfinite(max)) p5v_scale(t, 1, &max, 0);
        } else {
            /* normalize: if (len !== 0) this.mult(1 / len) */
            double inv = 1 / len;
            if (len != 0 && isfinite(inv)) p5v_scale(t, 1, &inv, 0);
            if (magic == P5V_SETMAG) { /* .mult(n): one argument, even when undefined */
                int n = argc >= 1 ? p5v_scalars(1, argv, a) : -2;
                if (n == -2) {
                    if (p5v_set3(ctx, s, this_val, t)) return JS_EXCEPTION;
                    JSValue mult = JS_GetPropertyStr(ctx, this_val, "mult");
                    if (JS_IsException(mult)) return mult;
                    JSValue rr = JS_Call(ctx, mult, this_val, argc, argv);
                    JS_FreeValue(ctx, mult);
                    return rr;
                }
                if (n > 0) p5v_scale(t, 1, a, 0);
            }
        }
        if (p5v_set3(ctx, s, this_val, t)) return JS_EXCEPTION;
        return JS_DupValue(ctx, this_val);
    }
    case P5V_DOT: {
        int got = p5v_get3(ctx, s, this_val, t);
        if (got < 0) return JS_EXCEPTION;
        if (!got || !p5v_operands(ctx, s, argc, argv, o, 0)) goto js;
        return p5_new_number(ctx, t[0] * o[0] + t[1] * o[1] + t[2] * o[2]);
    }
    case P5V_DIST: { /* v.copy().sub(this).mag() */
        if (argc < 1 || !p5_has_proto(ctx, argv[0], s->vector_proto)) goto js;
        int got = p5v_get3(ctx, s, this_val, t);
        if (got < 0) return JS_EXCEPTION;
        if (got) got = p5v_get3(ctx, s, argv[0], o);
        if (got < 0) return JS_EXCEPTION;
        if (!got) goto js;
        double d[3];
        for (int i = 0; i < 3; i++) d[i] = p5v_or0(o[i]) - p5v_or0(t[i]);
        return p5_new_number(ctx, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
    }
    case P5V_HEADING:
    case P5V_ROTATE: {
        int got = p5v_get3(ctx, s, this_val, t);
        if (got < 0) return JS_EXCEPTION;
        if (!got) goto js;
        double yx[2] = {t[1], t[0]}, h;
        if (p5v_math(ctx, s, p5v_js(s)->atan2, 2, yx, &h) || p5v_convert(ctx, s, this_val, 0, h, &h))
            return JS_EXCEPTION;
        if (magic == P5V_HEADING) return p5_new_number(ctx, h);
        if (argc < 1 || !JS_IsNumber(argv[0])) goto js;
        p5_num(ctx, &a[0], argv[0]);
        double nh = h + a[0], c, sn;
        if (p5v_convert(ctx, s, this_val, 1, nh, &nh)) return JS_EXCEPTION;
        double m = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        if (p5v_math(ctx, s, p5v_js(s)->cos, 1, &nh, &c) || p5v_math(ctx, s, p5v_js(s)->sin, 1, &nh, &sn))
            return JS_EXCEPTION;
        if (JS_SetProperty(ctx, this_val, s->atoms[P5_ATOM_x], p5_new_number(ctx, c * m)) < 0 ||
            JS_SetProperty(ctx, this_val, s->atoms[P5_ATOM_y], p5_new_number(ctx, sn * m)) < 0)
            return JS_EXCEPTION;
        return JS_DupValue(ctx, this_val);
    }
    case P5V_LERP: { /* lerp(v, amt) or lerp(x, y, z, amt): this.x += (x - this.x) * amt || 0 */
        double amt;
        int got = p5v_get3(ctx, s, this_val, t);
        if (got < 0) return JS_EXCEPTION;
        if (!got) goto js;
        if (argc >= 1 && JS_IsObject(argv[0])) {
            if (!p5v_is_vector(ctx, s, argv[0]) || argc < 2 || !JS_IsNumber(argv[1])) goto js;
            got = p5v_get3(ctx, s, argv[0], o);
            if (got < 0) return JS_EXCEPTION;
            if (!got) goto js;
            p5_num(ctx, &amt, argv[1]);
        } else {
            if (argc < 4 || !JS_IsNumber(argv[3])) goto js;
            for (int i = 0; i < 3; i++) {
                if (!JS_IsNumber(argv[i])) goto js;
                p5_num(ctx, &o[i], argv[i]);
            }
            p5_num(ctx, &amt, argv[3]);
        }
        for (int i = 0; i < 3; i++) t[i] += p5v_or0((o[i] - t[i]) * amt);
        if (p5v_set3(ctx, s, this_val, t)) return JS_EXCEPTION;
        return JS_DupValue(ctx, this_val);
    }
    }
js:
    return p5v_js_call(ctx, s, magic, this_val, argc, argv);
}

/* p5.Vector.add/sub/mult/div(v1, v2, target): target = v1.copy() (or target.set(v1)),
 * target[op](v2); p5.Vector.dist(v1, v2) = v1.dist(v2); p5.Vector.fromAngle(a, len) =
 * new p5.Vector(len * cos(a), len * sin(a), 0). */
static JSValue js_p5_vector_static(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                   int magic)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    P5VectorJS *js = p5v_js(s);
    if (magic == P5VS_FROMANGLE) {
        double angle, len = 1, c, sn;
        if (argc < 1 || !JS_IsNumber(argv[0]) || (argc >= 2 && !JS_IsUndefined(argv[1]) && !JS_IsNumber(argv[1])))
            goto js;
        p5_num(ctx, &angle, argv[0]);
        if (argc >= 2 && !JS_IsUndefined(argv[1])) p5_num(ctx, &len, argv[1]);
        if (p5v_math(ctx, s, js->cos, 1, &angle, &c) || p5v_math(ctx, s, js->sin, 1, &angle, &sn))
            return JS_EXCEPTION;
        JSValue x = p5_new_number(ctx, len * c), y = p5_new_number(ctx, len * sn);
        JSValue fx = p5v_value_or0(ctx, x), fy = p5v_value_or0(ctx, y);
        return p5v_new(ctx, s, 0, JS_UNDEFINED, JS_UNDEFINED, fx, fy, JS_NewInt32(ctx, 0));
    }
    if (argc < 2 || !p5_has_proto(ctx, argv[0], s->vector_proto)) goto js;
    if (magic == P5VS_DIST)
        return js_p5_vector_method(ctx, argv[0], 1, argv + 1, P5V_DIST);
    if (argc >= 3 && JS_ToBool(ctx, argv[2]) != 0) goto js; /* a target: target.set(v1) */
    {
        static const int op[4] = {P5V_ADD, P5V_SUB, P5V_MULT, P5V_DIV};
        JSValue target = p5v_copy(ctx, s, argv[0]);
        if (JS_IsException(target)) return target;
        JSValue r = js_p5_vector_method(ctx, target, 1, argv + 1, op[magic]);
        if (JS_IsException(r)) {
            JS_FreeValue(ctx, target);
            return r;
        }
        JS_FreeValue(ctx, r);
        return target;
    }
js:
    return JS_Call(ctx, js->statics[magic], this_val, argc, argv);
}

/* createVector(x, y, z): new p5.Vector(fromRadians, toRadians, x, y, z) */
static JSValue js_p5_create_vector(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    if (!JS_IsObject(s->vector_proto)) return JS_ThrowInternalError(ctx, "jsgym: p5.Vector is not registered");
    JSValue f[3];
    for (int i = 0; i < 3; i++) f[i] = p5v_value_or0(ctx, i < argc ? argv[i] : JS_UNDEFINED);
    return p5v_new(ctx, s, 1, s->vector_from_radians, s->vector_to_radians, f[0], f[1], f[2]);
}

/* new p5.Vector(x, y, z): the vector made here, as createVector() makes its own; the
 * angle-converter form, subclasses (new.target another class) and a call without
 * `new` go to the prelude's Vector, which does what p5's class does. */
static JSValue js_p5_vector_construct(JSContext *ctx, JSValueConst new_target, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    if (JS_IsUndefined(new_target))
        return JS_ThrowTypeError(ctx, "Cannot call a class as a function");
    if (JS_IsObject(s->vector_class) && JS_VALUE_GET_PTR(new_target) == JS_VALUE_GET_PTR(s->vector_class) &&
        !(argc > 0 && JS_IsFunction(ctx, argv[0]))) {
        JSValue f[3];
        for (int i = 0; i < 3; i++) f[i] = p5v_value_or0(ctx, i < argc ? argv[i] : JS_UNDEFINED);
        return p5v_new(ctx, s, 0, JS_UNDEFINED, JS_UNDEFINED, f[0], f[1], f[2]);
    }
    return JS_CallConstructor2(ctx, s->vector_ctor, new_target, argc, argv);
}

static const JSCFunctionListEntry p5_vector_funcs[] = {
    JS_CFUNC_DEF("createVector", 3, js_p5_create_vector),
};

int p5_install_vector(JSContext *ctx, JSValueConst global)
{
    return JS_SetPropertyFunctionList(ctx, global, p5_vector_funcs,
                                      (int)(sizeof p5_vector_funcs / sizeof p5_vector_funcs[0]));
}

/* native.registerVector(Vector, fromRadians, toRadians): keeps the class, the
 * converters createVector() stores, and the JS methods and statics, then puts the
 * natives in their place; returns the native constructor that becomes p5.Vector. */
static JSValue js_p5_register_vector(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    if (argc < 3 || !JS_IsFunction(ctx, argv[0]) || !JS_IsFunction(ctx, argv[1]) ||
        !JS_IsFunction(ctx, argv[2]))
        return JS_ThrowTypeError(ctx, "jsgym: registerVector(Vector, fromRadians, toRadians)");
    p5_vector_free(s);
    P5VectorJS *js = p5_realloc(s, NULL, sizeof *js);
    if (!js) return JS_ThrowOutOfMemory(ctx);
    for (int i = 0; i < P5V_N_METHODS; i++) js->method[i] = JS_UNDEFINED;
    for (int i = 0; i < P5VS_N; i++) js->statics[i] = JS_UNDEFINED;
    js->math = JS_GetPropertyStr(ctx, s->global, "Math");
    js->sin = JS_NewAtom(ctx, "sin");
    js->cos = JS_NewAtom(ctx, "cos");
    js->atan2 = JS_NewAtom(ctx, "atan2");
    s->vector_js = js;
    s->vector_ctor = JS_DupValue(ctx, argv[0]);
    s->vector_from_radians = JS_DupValue(ctx, argv[1]);
    s->vector_to_radians = JS_DupValue(ctx, argv[2]);
    s->vector_proto = JS_GetPropertyStr(ctx, argv[0], "prototype");
    if (JS_IsException(s->vector_proto) || JS_IsException(js->math)) return JS_EXCEPTION;
    for (int i = 0; i < P5V_N_METHODS; i++) {
        js->method[i] = JS_GetPropertyStr(ctx, s->vector_proto, p5v_method_names[i]);
        if (!JS_IsFunction(ctx, js->method[i]))
            return JS_ThrowInternalError(ctx, "jsgym: p5.Vector.prototype.%s missing", p5v_method_names[i]);
        JSValue f = JS_NewCFunctionMagic(ctx, js_p5_vector_method, p5v_method_names[i], 0,
                                         JS_CFUNC_generic_magic, i);
        if (JS_DefinePropertyValueStr(ctx, s->vector_proto, p5v_method_names[i], f,
                                      JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE) < 0)
            return JS_EXCEPTION;
    }
    for (int i = 0; i < P5VS_N; i++) {
        js->statics[i] = JS_GetPropertyStr(ctx, argv[0], p5v_static_names[i]);
        if (!JS_IsFunction(ctx, js->statics[i]))
            return JS_ThrowInternalError(ctx, "jsgym: p5.Vector.%s missing", p5v_static_names[i]);
        JSValue f = JS_NewCFunctionMagic(ctx, js_p5_vector_static, p5v_static_names[i], 0,
                                         JS_CFUNC_generic_magic, i);
        if (JS_DefinePropertyValueStr(ctx, argv[0], p5v_static_names[i], f,
                                      JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE) < 0)
            return JS_EXCEPTION;
    }
    JSAtom atoms[P5_VECTOR_PROPS] = {s->atoms[P5_ATOM_isPInst], s->atoms[P5_ATOM__fromRadians],
                                     s->atoms[P5_ATOM__toRadians], s->atoms[P5_ATOM_x],
                                     s->atoms[P5_ATOM_y], s->atoms[P5_ATOM_z]};
    if (p5_make_stages(ctx, s->vector_proto, atoms, P5_VECTOR_PROPS, s->vector_stages) < 0)
        return JS_EXCEPTION;
    JSValue xyz[3] = {JS_UNDEFINED, JS_UNDEFINED, JS_UNDEFINED};
    int bad = p5_make_stages(ctx, s->vector_proto, atoms + P5_VECTOR_PROPS - 3, 3, xyz) < 0;
    JS_FreeValue(ctx, xyz[0]);
    JS_FreeValue(ctx, xyz[1]);
    if (bad) {
        JS_FreeValue(ctx, xyz[2]);
        return JS_EXCEPTION;
    }
    JS_FreeValue(ctx, s->vector_xyz_model);
    s->vector_xyz_model = xyz[2];
    /* new p5.Vector(x, y, z) objects start with x: its shapes are separate ones */
    /* the class games see: the same prototype (whose constructor it becomes), the
     * statics copied over by the prelude */
    JSValue cls = JS_NewCFunction2(ctx, js_p5_vector_construct, "Vector", 0,
                                   JS_CFUNC_constructor_or_func, 0);
    if (JS_IsException(cls)) return JS_EXCEPTION;
    if (JS_SetConstructor(ctx, cls, s->vector_proto) < 0) {
        JS_FreeValue(ctx, cls);
        return JS_EXCEPTION;
    }
    s->vector_class = JS_DupValue(ctx, cls);
    return cls;
}

static const JSCFunctionListEntry p5_vector_native[] = {
    JS_CFUNC_DEF("registerVector", 3, js_p5_register_vector),
};

int p5_install_vector_native(JSContext *ctx, JSValueConst native)
{
    return JS_SetPropertyFunctionList(ctx, native, p5_vector_native, 1);
}
