/* p5 transform and style state: translate, rotate, scale, shearX, shearY,
 * applyMatrix, resetMatrix, push, pop, strokeWeight, strokeCap, strokeJoin,
 * rectMode, ellipseMode, curveTightness.
 *
 * The matrix follows canvas 2D: x' = a*x + c*y + e, y' = b*x + d*y + f, each call
 * post-multiplies, and a call with any non-finite argument is ignored (the canvas
 * spec says so), so the matrix always stays finite.
 */
#include <stdlib.h>

#include "p5_internal.h"

void p5_style_defaults(P5Shim *s)
{
    P5Style *st = &s->st;
    static const double ident[6] = {1, 0, 0, 1, 0, 0};
    st->fill = 0xFFFFFFFFu;   /* _DEFAULT_FILL   '#FFFFFF' */
    st->stroke = 0xFF000000u; /* _DEFAULT_STROKE '#000000' */
    st->stroke_weight = 1.0;
    st->cap = JG_CAP_ROUND;
    st->join = JG_JOIN_MITER;
    st->global_alpha = 1; /* (the rest of the context's state starts at 0: none) */
    st->do_fill = st->do_stroke = 1;
    st->fill_set = st->stroke_set = 0;
    st->rect_mode = P5_MODE_CORNER;
    st->ellipse_mode = P5_MODE_CENTER;
    st->text_align = P5_ALIGN_LEFT;
    st->text_baseline = P5_BASE_BASELINE;
    st->text_style = P5_STYLE_NORMAL;
    st->leading_set = 0;
    st->text_wrap_char = 0;
    st->text_size = 12;
    st->text_leading = 15;
    memcpy(st->m, ident, sizeof ident);
    p5_text_reset_canvas(s);
}

void p5_style_clear_stack(P5Shim *s)
{
    for (int i = 0; i < s->stack_len; i++) JS_FreeValue(s->ctx, s->stack[i].text_font);
    s->stack_len = 0;
    s->ctx_stack_len = 0; /* (holds no JS values) */
}

/* m = m * [a b c d e f] (canvas transform()) */
static void p5_mat_mul(double *m, double a, double b, double c, double d, double e, double f)
{
    if (!(isfinite(a) && isfinite(b) && isfinite(c) && isfinite(d) && isfinite(e) && isfinite(f)))
        return;
    double r[6];
    r[0] = m[0] * a + m[2] * b;
    r[1] = m[1] * a + m[3] * b;
    r[2] = m[0] * c + m[2] * d;
    r[3] = m[1] * c + m[3] * d;
    r[4] = m[0] * e + m[2] * f + m[4];
    r[5] = m[1] * e + m[3] * f + m[5];
    memcpy(m, r, sizeof r);
}

/* Reads (x, y) from a p5.Vector-like object or an array in argv[0]. */
static int p5_xy_from_object(JSContext *ctx, P5Shim *s, JSValueConst o, double *x, double *y, double *z)
{
    JSValue vx, vy, vz;
    if (P5_IS_ARRAY(ctx, o)) {
        vx = JS_GetPropertyUint32(ctx, o, 0);
        vy = JS_GetPropertyUint32(ctx, o, 1);
        vz = JS_GetPropertyUint32(ctx, o, 2);
    } else {
        vx = JS_GetProperty(ctx, o, s->atoms[P5_ATOM_x]);
        vy = JS_GetProperty(ctx, o, s->atoms[P5_ATOM_y]);
        vz = JS_GetProperty(ctx, o, s->atoms[P5_ATOM_z]);
    }
    int bad = JS_IsException(vx) || JS_IsException(vy) || JS_IsException(vz) ||
              JS_ToFloat64(ctx, x, vx) || JS_ToFloat64(ctx, y, vy) || JS_ToFloat64(ctx, z, vz);
    JS_FreeValue(ctx, vx);
    JS_FreeValue(ctx, vy);
    JS_FreeValue(ctx, vz);
    return bad ? -1 : 0;
}

enum { P5_TR_TRANSLATE, P5_TR_ROTATE, P5_TR_SCALE, P5_TR_SHEARX, P5_TR_SHEARY, P5_TR_APPLY,
       P5_TR_RESET };

static JSValue js_p5_transform(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                               int magic)
{
    P5Shim *s = p5_shim(ctx);
    double *m = s->st.m, x, y, z = NAN;
    s->calls++;
    switch (magic) {
    case P5_TR_TRANSLATE:
        if (argc > 0 && JS_IsObject(argv[0])) {
            if (p5_xy_from_object(ctx, s, argv[0], &x, &y, &z)) return JS_EXCEPTION;
        } else if (p5_arg(ctx, &x, argc, argv, 0) || p5_arg(ctx, &y, argc, argv, 1)) {
            return JS_EXCEPTION;
        }
        p5_mat_mul(m, 1, 0, 0, 1, x, y);
        break;
    case P5_TR_ROTATE:
        if (p5_arg(ctx, &x, argc, argv, 0)) return JS_EXCEPTION;
        x = p5_to_radians(s, x);
        if (isfinite(x)) p5_mat_mul(m, cos(x), sin(x), -sin(x), cos(x), 0, 0);
        break;
    case P5_TR_SCALE:
        if (argc > 0 && JS_IsObject(argv[0])) {
            int arr = P5_IS_ARRAY(ctx, argv[0]);
            if (p5_xy_from_object(ctx, s, argv[0], &x, &y, &z)) return JS_EXCEPTION;
            (void)arr;
        } else if (p5_arg(ctx, &x, argc, argv, 0) || p5_arg(ctx, &y, argc, argv, 1)) {
            return JS_EXCEPTION;
        }
        if (isnan(y)) y = x; /* scale(s) is uniform */
        p5_mat_mul(m, x, 0, 0, y, 0, 0);
        break;
    case P5_TR_SHEARX:
    case P5_TR_SHEARY:
        if (p5_arg(ctx, &x, argc, argv, 0)) return JS_EXCEPTION;
        x = tan(p5_to_radians(s, x));
        if (magic == P5_TR_SHEARX) p5_mat_mul(m, 1, 0, x, 1, 0, 0);
        else p5_mat_mul(m, 1, x, 0, 1, 0, 0);
        break;
    case P5_TR_APPLY: {
        double v[6];
        if (argc > 0 && JS_IsObject(argv[0])) {
            for (int i = 0; i < 6; i++) {
                JSValue e = JS_GetPropertyUint32(ctx, argv[0], (uint32_t)i);
                int bad = JS_IsException(e) || JS_ToFloat64(ctx, &v[i], e);
                JS_FreeValue(ctx, e);
                if (bad) return JS_EXCEPTION;
            }
        } else {
            for (int i = 0; i < 6; i++)
                if (p5_arg(ctx, &v[i], argc, argv, i)) return JS_EXCEPTION;
        }
        p5_mat_mul(m, v[0], v[1], v[2], v[3], v[4], v[5]);
        break;
    }
    case P5_TR_RESET: {
        static const double ident[6] = {1, 0, 0, 1, 0, 0};
        memcpy(m, ident, sizeof ident);
        break;
    }
    }
    return JS_UNDEFINED;
}

int p5_style_stack_room(P5Shim *s, P5Style **stack, int *cap, int len)
{
    if (len < *cap) return 0;
    int n = *cap ? *cap * 2 : 16;
    P5Style *p = (P5Style *)p5_realloc(s, *stack, (size_t)n * sizeof *p);
    if (!p) return -1;
    *stack = p;
    *cap = n;
    return 0;
}

static JSValue js_p5_push_pop(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                              int magic)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    if (magic == 0) {
        if (s->stack_len >= P5_MAX_PUSH_DEPTH)
            return JS_ThrowRangeError(ctx, "jsgym: push() nested deeper than %d without pop()",
                                      P5_MAX_PUSH_DEPTH);
        if (p5_style_stack_room(s, &s->stack, &s->stack_cap, s->stack_len) < 0) return JS_ThrowOutOfMemory(ctx);
        s->stack[s->stack_len] = s->st;
        s->stack[s->stack_len].text_font = JS_DupValue(ctx, s->st.text_font);
        s->stack_len++;
    } else {
        /* p5 only warns on an unmatched pop() */
        if (s->stack_len == 0) return JS_UNDEFINED;
        JS_FreeValue(ctx, s->st.text_font);
        s->st = s->stack[--s->stack_len];
    }
    return JS_UNDEFINED;
}

enum { P5_ST_WEIGHT, P5_ST_CAP, P5_ST_JOIN, P5_ST_RECTMODE, P5_ST_ELLIPSEMODE, P5_ST_TIGHTNESS };

static int p5_shape_mode(JSContext *ctx, JSValueConst v)
{
    if (p5_str_eq(ctx, v, "corner")) return P5_MODE_CORNER;
    if (p5_str_eq(ctx, v, "corners")) return P5_MODE_CORNERS;
    if (p5_str_eq(ctx, v, "center")) return P5_MODE_CENTER;
    if (p5_str_eq(ctx, v, "radius")) return P5_MODE_RADIUS;
    return -1;
}

static JSValue js_p5_style(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic)
{
    P5Shim *s = p5_shim(ctx);
    JSValueConst a = argc > 0 ? argv[0] : JS_UNDEFINED;
    double w;
    int mode;
    s->calls++;
    switch (magic) {
    case P5_ST_WEIGHT:
        /* p5: undefined or exactly 0 becomes lineWidth 0.0001; canvas then ignores
         * non-finite and non-positive widths */
        if (JS_IsUndefined(a)) { s->st.stroke_weight = 0.0001; break; }
        if (p5_num(ctx, &w, a)) return JS_EXCEPTION;
        if (JS_IsNumber(a) && w == 0) w = 0.0001;
        if (isfinite(w) && w > 0) s->st.stroke_weight = w;
        break;
    case P5_ST_CAP:
        if (p5_str_eq(ctx, a, "round")) s->st.cap = JG_CAP_ROUND;
        else if (p5_str_eq(ctx, a, "butt")) s->st.cap = JG_CAP_BUTT;
        else if (p5_str_eq(ctx, a, "square")) s->st.cap = JG_CAP_SQUARE;
        break;
    case P5_ST_JOIN:
        if (p5_str_eq(ctx, a, "round")) s->st.join = JG_JOIN_ROUND;
        else if (p5_str_eq(ctx, a, "bevel")) s->st.join = JG_JOIN_BEVEL;
        else if (p5_str_eq(ctx, a, "miter")) s->st.join = JG_JOIN_MITER;
        break;
    case P5_ST_RECTMODE:
    case P5_ST_ELLIPSEMODE:
        mode = p5_shape_mode(ctx, a);
        if (mode >= 0) {
            if (magic == P5_ST_RECTMODE) s->st.rect_mode = (uint8_t)mode;
            else s->st.ellipse_mode = (uint8_t)mode;
        }
        break;
    case P5_ST_TIGHTNESS:
        if (p5_num(ctx, &w, a)) return JS_EXCEPTION;
        s->curve_tightness = w;
        break;
    }
    return JS_UNDEFINED;
}

static const JSCFunctionListEntry p5_transform_funcs[] = {
    JS_CFUNC_MAGIC_DEF("translate", 2, js_p5_transform, P5_TR_TRANSLATE),
    JS_CFUNC_MAGIC_DEF("rotate", 1, js_p5_transform, P5_TR_ROTATE),
    JS_CFUNC_MAGIC_DEF("scale", 2, js_p5_transform, P5_TR_SCALE),
    JS_CFUNC_MAGIC_DEF("shearX", 1, js_p5_transform, P5_TR_SHEARX),
    JS_CFUNC_MAGIC_DEF("shearY", 1, js_p5_transform, P5_TR_SHEARY),
    JS_CFUNC_MAGIC_DEF("applyMatrix", 6, js_p5_transform, P5_TR_APPLY),
    JS_CFUNC_MAGIC_DEF("resetMatrix", 0, js_p5_transform, P5_TR_RESET),
    JS_CFUNC_MAGIC_DEF("push", 0, js_p5_push_pop, 0),
    JS_CFUNC_MAGIC_DEF("pop", 0, js_p5_push_pop, 1),
    JS_CFUNC_MAGIC_DEF("strokeWeight", 1, js_p5_style, P5_ST_WEIGHT),
    JS_CFUNC_MAGIC_DEF("strokeCap", 1, js_p5_style, P5_ST_CAP),
    JS_CFUNC_MAGIC_DEF("strokeJoin", 1, js_p5_style, P5_ST_JOIN),
    JS_CFUNC_MAGIC_DEF("rectMode", 1, js_p5_style, P5_ST_RECTMODE),
    JS_CFUNC_MAGIC_DEF("ellipseMode", 1, js_p5_style, P5_ST_ELLIPSEMODE),
    JS_CFUNC_MAGIC_DEF("curveTightness", 1, js_p5_style, P5_ST_TIGHTNESS),
};

int p5_install_transform(JSContext *ctx, JSValueConst global)
{
    return JS_SetPropertyFunctionList(ctx, global, p5_transform_funcs,
                                      (int)(sizeof p5_transform_funcs / sizeof p5_transform_funcs[0]));
}

/* native.setAngleMode(isDegrees): angleMode() lives in prelude.js (the trig
 * helpers need it there); rotate/arc/shear read this mirror. */
static JSValue js_p5_native_angle(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    int b = argc > 0 ? JS_ToBool(ctx, argv[0]) : 0;
    if (b < 0) return JS_EXCEPTION;
    s->angle_degrees = (uint8_t)b;
    return JS_UNDEFINED;
}

/* native.debugState() -> {fill, stroke, ...}: used by the C tests only through
 * JS, never by games (it is not a global). */
static JSValue js_p5_native_state(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    JSValue o = JS_NewObject(ctx);
    if (JS_IsException(o)) return o;
    JS_SetPropertyStr(ctx, o, "fill", JS_NewUint32(ctx, s->st.fill));
    JS_SetPropertyStr(ctx, o, "stroke", JS_NewUint32(ctx, s->st.stroke));
    JS_SetPropertyStr(ctx, o, "doFill", JS_NewBool(ctx, s->st.do_fill));
    JS_SetPropertyStr(ctx, o, "doStroke", JS_NewBool(ctx, s->st.do_stroke));
    JS_SetPropertyStr(ctx, o, "strokeWeight", JS_NewFloat64(ctx, s->st.stroke_weight));
    JS_SetPropertyStr(ctx, o, "depth", JS_NewInt32(ctx, s->stack_len));
    return o;
}

static const JSCFunctionListEntry p5_transform_native[] = {
    JS_CFUNC_DEF("setAngleMode", 1, js_p5_native_angle),
    JS_CFUNC_DEF("debugState", 0, js_p5_native_state),
};

int p5_install_transform_native(JSContext *ctx, JSValueConst native)
{
    return JS_SetPropertyFunctionList(ctx, native, p5_transform_native, 2);
}
