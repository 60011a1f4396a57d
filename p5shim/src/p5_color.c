/* p5 colour setting: fill, stroke, noFill, noStroke, background, clear, and the
 * numeric fast path of p5.Color._parseInputs (gray, gray+alpha, RGB(A)/HSB(A)/HSL(A)
 * in the current colorMode) with p5 1.11's exact formulas. Every other form (CSS
 * strings, arrays, p5.Color objects) goes through prelude.js's colorPacked(), which
 * builds a real p5.Color. colorMode() itself lives in prelude.js because p5.Color
 * objects share the (mutable) maxima table with it; it mirrors the mode and maxima
 * here through the hidden native helpers at the bottom.
 */
#include "p5_internal.h"

static const double p5_default_maxes[3][4] = {
    {255, 255, 255, 255}, /* rgb */
    {360, 100, 100, 1},   /* hsb */
    {360, 100, 100, 1},   /* hsl */
};

void p5_color_defaults(P5Shim *s)
{
    memcpy(s->color_maxes, p5_default_maxes, sizeof p5_default_maxes);
    s->st.color_mode = P5_COLOR_RGB;
}

/* color_conversion._hsbaToRGBA */
static void p5_hsba_to_rgba(double *c)
{
    double hue = c[0] * 6, sat = c[1], val = c[2];
    if (sat == 0) {
        c[0] = c[1] = c[2] = val;
        return;
    }
    double sector = floor(hue);
    double tint1 = val * (1 - sat);
    double tint2 = val * (1 - sat * (hue - sector));
    double tint3 = val * (1 - sat * (1 + sector - hue));
    double r, g, b;
    if (sector == 1) { r = tint2; g = val; b = tint1; }
    else if (sector == 2) { r = tint1; g = val; b = tint3; }
    else if (sector == 3) { r = tint1; g = tint2; b = val; }
    else if (sector == 4) { r = tint3; g = tint1; b = val; }
    else if (sector == 5) { r = val; g = tint1; b = tint2; }
    else { r = val; g = tint3; b = tint1; }
    c[0] = r; c[1] = g; c[2] = b;
}

static double p5_hzv_to_rgb(double hue, double zest, double val)
{
    if (hue < 0) hue += 6;
    else if (hue >= 6) hue -= 6;
    if (hue < 1) return zest + (val - zest) * hue;
    if (hue < 3) return val;
    if (hue < 4) return zest + (val - zest) * (4 - hue);
    return zest;
}

/* color_conversion._hslaToRGBA */
static void p5_hsla_to_rgba(double *c)
{
    double hue = c[0] * 6, sat = c[1], li = c[2];
    if (sat == 0) {
        c[0] = c[1] = c[2] = li;
        return;
    }
    double val = li < 0.5 ? (1 + sat) * li : li + sat - li * sat;
    double zest = 2 * li - val;
    c[0] = p5_hzv_to_rgb(hue + 2, zest, val);
    c[1] = p5_hzv_to_rgb(hue, zest, val);
    c[2] = p5_hzv_to_rgb(hue - 2, zest, val);
}

/* Packs normalized [0,1] RGBA (p5's Color._array) into the RGBA8 levels p5 hands
 * to canvas (Math.round(v * 255), clamped as canvas clamps). Returns -1 when a
 * level is NaN: the CSS string p5 builds is then invalid and canvas keeps its
 * previous style. */
static int p5_pack_unit(const double *c, uint32_t *out)
{
    uint32_t packed = 0;
    for (int i = 0; i < 4; i++) {
        double l = p5_js_round(c[i] * 255);
        if (isnan(l)) return -1;
        if (l < 0) l = 0;
        if (l > 255) l = 255;
        packed |= (uint32_t)l << (8 * i);
    }
    *out = packed;
    return 0;
}

/* Resolves p5 colour arguments to packed RGBA8. Returns 1 when the colour is
 * valid, 0 when canvas would reject it (keep the previous style), -1 on a JS
 * exception. */
/* An int JS value within [0, 255], as most games pass colour levels. */
static int p5_byte_arg(JSValueConst v, uint32_t *level)
{
    if (JS_VALUE_GET_TAG(v) != JS_TAG_INT) return 0;
    int32_t i = JS_VALUE_GET_INT(v);
    if (i < 0 || i > 255) return 0;
    *level = (uint32_t)i;
    return 1;
}

/* fill(v), fill(r, g, b), fill(r, g, b, a) with int levels in RGB mode at the
 * default maxima: the formula below then gives back the levels themselves
 * (round(v / 255 * 255) == v for v in 0..255), so they are packed directly. */
static int p5_resolve_bytes(const P5Shim *s, int argc, JSValueConst *argv, uint32_t *out)
{
    const double *mx = s->color_maxes[P5_COLOR_RGB];
    if (s->st.color_mode != P5_COLOR_RGB || mx[0] != 255 || mx[1] != 255 || mx[2] != 255 ||
        mx[3] != 255)
        return 0;
    uint32_t r, g, b, a = 255;
    if (argc == 1) {
        if (!p5_byte_arg(argv[0], &r)) return 0;
        g = b = r;
    } else if (argc == 3 || argc == 4) {
        if (!p5_byte_arg(argv[0], &r) || !p5_byte_arg(argv[1], &g) || !p5_byte_arg(argv[2], &b))
            return 0;
        if (argc == 4 && !p5_byte_arg(argv[3], &a)) return 0;
    } else {
        return 0;
    }
    *out = r | g << 8 | b << 16 | a << 24;
    return 1;
}

int p5_resolve_color(JSContext *ctx, P5Shim *s, int argc, JSValueConst *argv, uint32_t *out)
{
    double c[4];
    if (p5_resolve_bytes(s, argc, argv, out)) return 1;
    const double *mx = s->color_maxes[s->st.color_mode];
    if (argc >= 1 && JS_IsNumber(argv[0])) {
        if (argc <= 2) {
            /* grayscale: every channel is v / maxes[2] of the current mode, no
             * conversion (p5 1.11 quirk: HSB gray uses the brightness maximum) */
            double v, a = 1;
            if (p5_num(ctx, &v, argv[0])) return -1;
            c[0] = c[1] = c[2] = v / mx[2];
            if (argc == 2 && JS_IsNumber(argv[1])) {
                if (p5_num(ctx, &a, argv[1])) return -1;
                a = a / mx[3];
            }
            c[3] = a;
            for (int i = 0; i < 4; i++) /* Math.max(Math.min(v, 1), 0) keeps NaN */
                if (!isnan(c[i])) c[i] = fmax(fmin(c[i], 1), 0);
        } else {
            for (int i = 0; i < 3; i++) {
                if (p5_num(ctx, &c[i], argv[i])) return -1;
                c[i] /= mx[i];
            }
            c[3] = 1;
            if (argc >= 4 && JS_IsNumber(argv[3])) {
                if (p5_num(ctx, &c[3], argv[3])) return -1;
                c[3] /= mx[3];
            }
            for (int i = 0; i < 4; i++) {
                if (c[i] < 0) c[i] = 0;
                else if (c[i] > 1) c[i] = 1;
            }
            if (s->st.color_mode == P5_COLOR_HSL) p5_hsla_to_rgba(c);
            else if (s->st.color_mode == P5_COLOR_HSB) p5_hsba_to_rgba(c);
        }
        return p5_pack_unit(c, out) == 0 ? 1 : 0;
    }
    /* strings, arrays, p5.Color objects, bad input: the prelude builds a p5.Color
     * (and throws exactly where p5 throws). A lone string is looked up first. */
    const char *text = NULL;
    size_t len = 0;
    if (argc == 1 && JS_IsString(argv[0])) {
        text = JS_ToCStringLen(ctx, &len, argv[0]);
        if (!text) return -1;
        for (int i = 0; i < P5_COLOR_CACHE_SIZE; i++) {
            if (s->color_cache[i].valid && s->color_cache[i].len == len &&
                memcmp(s->color_cache[i].text, text, len) == 0) {
                *out = s->color_cache[i].packed;
                JS_FreeCString(ctx, text);
                return 1;
            }
        }
    }
    JSValue r = JS_Call(ctx, s->js_color_packed, JS_UNDEFINED, argc, argv);
    double d = -1;
    int e = JS_IsException(r) ? -1 : p5_num(ctx, &d, r);
    JS_FreeValue(ctx, r);
    if (!e && d >= 0 && text && len < P5_COLOR_CACHE_TEXT) {
        uint32_t k = s->color_cache_next++ % P5_COLOR_CACHE_SIZE;
        memcpy(s->color_cache[k].text, text, len);
        s->color_cache[k].len = (uint32_t)len;
        s->color_cache[k].packed = (uint32_t)d;
        s->color_cache[k].valid = 1;
    }
    if (text) JS_FreeCString(ctx, text);
    if (e) return -1;
    if (!(d >= 0)) return 0;
    *out = (uint32_t)d;
    return 1;
}

enum { P5_FILL, P5_STROKE, P5_NOFILL, P5_NOSTROKE };

static JSValue js_p5_fill_stroke(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                 int magic)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    switch (magic) {
    case P5_NOFILL: s->st.do_fill = 0; return JS_UNDEFINED;
    case P5_NOSTROKE: s->st.do_stroke = 0; return JS_UNDEFINED;
    }
    uint32_t packed;
    /* p5.prototype.fill sets _fillSet and _doFill before parsing */
    if (magic == P5_FILL) s->st.fill_set = s->st.do_fill = 1;
    else s->st.stroke_set = s->st.do_stroke = 1;
    int ok = p5_resolve_color(ctx, s, argc, argv, &packed);
    if (ok < 0) return JS_EXCEPTION;
    if (ok) {
        if (magic == P5_FILL) s->st.fill = packed;
        else s->st.stroke = packed;
    }
    return JS_UNDEFINED;
}

static JSValue js_p5_background(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                int magic)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    uint32_t packed = 0, *p;
    if (magic == 0) {
        int ok = p5_resolve_color(ctx, s, argc, argv, &packed);
        if (ok < 0) return JS_EXCEPTION;
        /* an invalid colour leaves canvas fillStyle unchanged: p5 then paints the
         * background with the current fill colour */
        if (!ok) packed = s->st.fill;
    }
    if (p5_count_shape(s) < 0) return JS_EXCEPTION;
    p = p5_emit(s, magic == 0 ? JG_OP_BACKGROUND : JG_OP_CLEAR, magic == 0 ? 1 : 0, 0);
    if (!p) return JS_ThrowOutOfMemory(ctx);
    if (magic == 0) p[0] = packed;
    return JS_UNDEFINED;
}

static const JSCFunctionListEntry p5_color_funcs[] = {
    JS_CFUNC_MAGIC_DEF("fill", 4, js_p5_fill_stroke, P5_FILL),
    JS_CFUNC_MAGIC_DEF("stroke", 4, js_p5_fill_stroke, P5_STROKE),
    JS_CFUNC_MAGIC_DEF("noFill", 0, js_p5_fill_stroke, P5_NOFILL),
    JS_CFUNC_MAGIC_DEF("noStroke", 0, js_p5_fill_stroke, P5_NOSTROKE),
    JS_CFUNC_MAGIC_DEF("background", 4, js_p5_background, 0),
    JS_CFUNC_MAGIC_DEF("clear", 0, js_p5_background, 1),
};

int p5_install_color(JSContext *ctx, JSValueConst global)
{
    return JS_SetPropertyFunctionList(ctx, global, p5_color_funcs,
                                      (int)(sizeof p5_color_funcs / sizeof p5_color_funcs[0]));
}

/* ---- hidden helpers for prelude.js ---- */

/* native.colorMode() -> 'rgb' | 'hsb' | 'hsl' (the mode push/pop maintain);
 * native.setColorMode(idx, max0, max1, max2, max3) */
static JSValue js_p5_native_color(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                  int magic)
{
    P5Shim *s = p5_shim(ctx);
    static const char *const names[3] = {"rgb", "hsb", "hsl"};
    if (magic == 0) return JS_NewString(ctx, names[s->st.color_mode]);
    int32_t mode;
    if (argc < 5 || JS_ToInt32(ctx, &mode, argv[0])) return JS_EXCEPTION;
    if (mode < 0 || mode > 2) return JS_ThrowRangeError(ctx, "bad colour mode");
    s->st.color_mode = (uint8_t)mode;
    for (int i = 0; i < 4; i++)
        if (p5_num(ctx, &s->color_maxes[mode][i], argv[1 + i])) return JS_EXCEPTION;
    return JS_UNDEFINED;
}

static const JSCFunctionListEntry p5_color_native[] = {
    JS_CFUNC_MAGIC_DEF("colorMode", 0, js_p5_native_color, 0),
    JS_CFUNC_MAGIC_DEF("setColorMode", 5, js_p5_native_color, 1),
};

int p5_install_color_native(JSContext *ctx, JSValueConst native)
{
    return JS_SetPropertyFunctionList(ctx, native, p5_color_native, 2);
}
