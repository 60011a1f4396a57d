/* p5shim core: installation, the command stream, the frame/episode driver calls of
 * include/p5shim.h, the canvas, the virtual clock, Math.random, p5 constants,
 * harmless no-ops and the functions jsgym refuses (assets, DOM, pixels).
 *
 * Determinism contract (the browser backend reimplements exactly this; the values
 * are contract/contract.json's "seeds" and "clock"):
 *  - Math.random is mulberry32 (the game contract's PRNG) seeded at every episode
 *    start with (seed ^ JG_SEED_RANDOM_MIX) >>> 0, where seed is the episode seed.
 *    Before the first episode (during setup()) it behaves as if seed were 0.
 *  - The noise() table is filled at every episode start exactly as
 *    noiseSeed((seed ^ JG_SEED_NOISE_MIX) >>> 0) would fill it (seed 0 before the
 *    first episode). A game's own noiseSeed() call overrides it until the next episode.
 *  - randomSeed() state is dropped at episode start (random() falls back to
 *    Math.random, as in a fresh p5), and so is randomGaussian's cached value.
 *  - millis() = performance.now() = frameCount * JG_CLOCK_FRAME_MS (computed as a
 *    product, not a running sum); Date.now() and new Date() = JG_CLOCK_EPOCH_MS
 *    + Math.floor(millis()) (integral, like a browser's Date.now()); deltaTime =
 *    JG_CLOCK_FRAME_MS.
 */
#include <float.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/engine.h"
#include "p5_internal.h"
#include "p5shim_prelude.h"

/* ------------------------------------------------------------------ helpers */

int p5_str_eq(JSContext *ctx, JSValueConst v, const char *s)
{
    size_t len;
    const char *str;
    int eq;
    if (!JS_IsString(v)) return 0;
    int in_place = engine_string_equals_ascii(v, s, strlen(s));
    if (in_place >= 0) return in_place;
    str = JS_ToCStringLen(ctx, &len, v);
    if (!str) {
        /* only fails on out-of-memory; treat as "not equal" and drop the error */
        JSValue e = JS_GetException(ctx);
        JS_FreeValue(ctx, e);
        return 0;
    }
    eq = (len == strlen(s) && memcmp(str, s, len) == 0);
    JS_FreeCString(ctx, str);
    return eq;
}

void p5_spares_init(P5Spares *sp)
{
    for (int i = 0; i < P5_SPARES; i++) sp->obj[i] = JS_UNDEFINED;
    sp->next = 0;
}

void p5_spares_free(JSContext *ctx, P5Spares *sp)
{
    for (int i = 0; i < P5_SPARES; i++) {
        JS_FreeValue(ctx, sp->obj[i]);
        sp->obj[i] = JS_UNDEFINED;
    }
}

void p5_spares_keep(JSContext *ctx, P5Spares *sp, JSValueConst obj)
{
    JS_FreeValue(ctx, sp->obj[sp->next]);
    sp->obj[sp->next] = JS_DupValue(ctx, obj);
    sp->next = (sp->next + 1) % P5_SPARES;
}

static int p5_cmd_reserve(P5Shim *s, size_t words)
{
    if (s->cmd_len + words <= s->cmd_cap) return 0;
    size_t cap = s->cmd_cap ? s->cmd_cap : 4096;
    while (cap < s->cmd_len + words) cap *= 2;
    uint32_t *p = (uint32_t *)p5_realloc(s, s->cmd, cap * sizeof(uint32_t));
    if (!p) return -1;
    s->cmd = p;
    s->cmd_cap = cap;
    return 0;
}

/* Appends a command header (and the style block when styled) and returns a
 * pointer to payload_words words to fill in, or NULL on allocation failure. */
int p5_emit_shadow(P5Shim *s)
{
    const P5Style *st = &s->st;
    uint32_t words[4] = {0, 0, 0, 0};
    if (st->shadow_on) {
        words[0] = p5_f32(st->shadow_blur);
        words[1] = p5_global_alpha(s, st->shadow_color);
        words[2] = p5_f32(st->shadow_ox);
        words[3] = p5_f32(st->shadow_oy);
    }
    if (memcmp(words, s->shadow_emitted, sizeof words) == 0) return 0;
    if (p5_cmd_reserve(s, 6) < 0) return -1;
    uint32_t *w = s->cmd + s->cmd_len;
    s->cmd_len += 6;
    w[0] = JG_OP_SHADOW;
    w[1] = 6;
    memcpy(w + 2, words, sizeof words);
    memcpy(s->shadow_emitted, words, sizeof words);
    return 0;
}

int p5_emit_blend(P5Shim *s)
{
    if (s->st.blend == s->blend_emitted) return 0;
    if (p5_cmd_reserve(s, 3) < 0) return -1;
    uint32_t *w = s->cmd + s->cmd_len;
    s->cmd_len += 3;
    w[0] = JG_OP_BLEND;
    w[1] = 3;
    w[2] = s->st.blend;
    s->blend_emitted = s->st.blend;
    return 0;
}

int p5_emit_dash(P5Shim *s)
{
    const P5Style *st = &s->st;
    /* (a pattern whose lengths are all 0 strokes solid: written as none) */
    uint8_t n = st->dash_n;
    int any = 0;
    for (int i = 0; i < n; i++) any |= st->dash[i] != 0;
    if (!any) n = 0;
    float offset = n ? (float)st->dash_offset : 0;
    if (n == s->dash_emitted_n && (n == 0 || (offset == s->dash_emitted_offset &&
                                              memcmp(st->dash, s->dash_emitted, n * sizeof(float)) == 0)))
        return 0;
    if (p5_cmd_reserve(s, 3u + n) < 0) return -1;
    uint32_t *w = s->cmd + s->cmd_len;
    s->cmd_len += 3u + n;
    w[0] = JG_OP_DASH;
    w[1] = 3u + n;
    memcpy(w + 2, &offset, sizeof offset);
    memcpy(w + 3, st->dash, n * sizeof(float));
    s->dash_emitted_n = n;
    s->dash_emitted_offset = offset;
    memcpy(s->dash_emitted, st->dash, n * sizeof(float));
    return 0;
}

uint32_t *p5_emit(P5Shim *s, uint32_t op, uint32_t payload_words, int styled)
{
    if (styled && (s->st.dash_n | s->dash_emitted_n) && p5_emit_dash(s) < 0) return NULL;
    if (styled && (s->st.blend | s->blend_emitted) && p5_emit_blend(s) < 0) return NULL;
    /* (a shadow set in the stream, or one to set: games that never touch
     * drawingContext pay this one test) */
    if (styled && (s->st.shadow_on | s->shadow_emitted[1]) && p5_emit_shadow(s) < 0) return NULL;
    uint32_t total = 2 + (styled ? JG_STYLE_WORDS : 0) + payload_words;
    if (p5_cmd_reserve(s, total) < 0) return NULL;
    uint32_t *w = s->cmd + s->cmd_len;
    s->cmd_len += total;
    w[0] = op;
    w[1] = total;
    if (!styled) return w + 2;
    const P5Style *st = &s->st;
    /* Only what the rasterizer uses is written, the rest is 0 (a fill of alpha 0, a
     * line's fill, the weight and caps of no stroke): a shape drawn the same way then
     * has the same words whatever other style was set, which is what lets the
     * rasterizer find the parts of a frame that are the last frame's. */
    uint32_t fill = st->do_fill && op != JG_OP_LINE && op != JG_OP_POINT ? st->fill : 0;
    uint32_t stroke = st->do_stroke ? st->stroke : 0;
    if (st->global_alpha < 1) {
        fill = p5_global_alpha(s, fill);
        stroke = p5_global_alpha(s, stroke);
    }
    w[2] = fill >> 24 ? fill : 0;
    if (stroke >> 24) {
        w[3] = stroke;
        w[4] = p5_f32(st->stroke_weight);
        w[5] = (uint32_t)st->cap | ((uint32_t)st->join << 8);
    } else {
        w[3] = w[4] = w[5] = 0;
    }
    for (int i = 0; i < 6; i++) w[6 + i] = p5_f32(st->m[i]);
    return w + 2 + JG_STYLE_WORDS;
}

int p5_count_shape(P5Shim *s)
{
    if (++s->shapes_this_frame > s->limits.max_draw_calls) {
        JS_ThrowRangeError(s->ctx, "jsgym: too many draw calls in one frame (limit %u)",
                           (unsigned)s->limits.max_draw_calls);
        return -1;
    }
    return 0;
}

/* Sets a p5 global (frameCount, width, ...) as p5 does, through any setter the game
 * defined on it. Returns -1 with the setter's exception (or interrupt) pending: the
 * runtime checks for a pending exception after each shim entry point. */
static int p5_set_global_num(P5Shim *s, int atom, double v)
{
    return JS_SetProperty(s->ctx, s->global, s->atoms[atom], p5_new_number(s->ctx, v)) < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------ canvas */

static JSValue js_p5_canvas(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                            int magic)
{
    P5Shim *s = p5_shim(ctx);
    const char *name = magic ? "resizeCanvas" : "createCanvas";
    double w, h;
    s->calls++;
    if (p5_arg(ctx, &w, argc, argv, 0) || p5_arg(ctx, &h, argc, argv, 1)) return JS_EXCEPTION;
    if (!magic && argc > 2 && (p5_str_eq(ctx, argv[2], "webgl") || p5_str_eq(ctx, argv[2], "webgl2"))) {
        if (!s->contract_error[0])
            snprintf(s->contract_error, sizeof s->contract_error, "%s%s", JG_MSG_UNMET, JG_MSG_WEBGL);
        return JS_ThrowTypeError(ctx, "jsgym: %s", JG_MSG_WEBGL);
    }
    double lim = (double)s->limits.max_canvas_side;
    /* the command stream carries sides as f32: a side below f32's smallest normal
     * number would reach the rasterizer as 0 or a denormal */
    if (!(w >= FLT_MIN && w <= lim) || !(h >= FLT_MIN && h <= lim))
        return JS_ThrowRangeError(ctx, "jsgym: %s() sides must be finite numbers in [%g, %u], got %g x %g",
                                  name, (double)FLT_MIN, (unsigned)s->limits.max_canvas_side, w, h);
    s->canvas_w = w;
    s->canvas_h = h;
    uint32_t *p = p5_emit(s, JG_OP_CANVAS, 2, 0);
    if (!p) return JS_ThrowOutOfMemory(ctx);
    p[0] = p5_f32(w);
    p[1] = p5_f32(h);
    /* Resizing a canvas element resets its 2D context. createCanvas() then applies
     * p5's defaults (fill white, stroke black, round caps); resizeCanvas() restores
     * every non-object context property it saved, so only the matrix resets. */
    static const double ident[6] = {1, 0, 0, 1, 0, 0};
    memcpy(s->st.m, ident, sizeof ident);
    if (!magic) {
        s->st.fill = 0xFFFFFFFFu;
        s->st.stroke = 0xFF000000u;
        s->st.stroke_weight = 1.0;
        s->st.cap = JG_CAP_ROUND;
        s->st.join = JG_JOIN_MITER;
        s->st.shadow_blur = s->st.shadow_ox = s->st.shadow_oy = 0;
        s->st.shadow_color = 0;
        s->st.shadow_on = 0;
        s->st.blend = JG_BLEND_SOURCE_OVER;
        s->st.dash_n = 0;
        s->st.dash_offset = 0;
        s->st.global_alpha = 1;
        p5_text_reset_canvas(s);
    }
    if (p5_set_global_num(s, P5_ATOM_width, w) || p5_set_global_num(s, P5_ATOM_height, h))
        return JS_EXCEPTION;
    return JS_UNDEFINED;
}

/* ------------------------------------------------------------------ clock, misc */

enum { P5_MISC_MILLIS, P5_MISC_FRAMERATE, P5_MISC_NOOP, P5_MISC_FALSE, P5_MISC_TRUE,
       P5_MISC_DENSITY, P5_MISC_NOW };

static JSValue js_p5_misc(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    switch (magic) {
    case P5_MISC_MILLIS: return p5_new_number(ctx, s->frame_count * P5SHIM_FRAME_MS);
    case P5_MISC_NOW: return p5_new_number(ctx, P5_EPOCH_MS + floor(s->frame_count * P5SHIM_FRAME_MS));
    case P5_MISC_FRAMERATE: return argc > 0 ? JS_UNDEFINED : JS_NewInt32(ctx, JG_CLOCK_FRAME_RATE);
    case P5_MISC_FALSE: return JS_FALSE;
    case P5_MISC_TRUE: return JS_TRUE;
    case P5_MISC_DENSITY: return argc > 0 ? JS_UNDEFINED : JS_NewInt32(ctx, 1);
    default: return JS_UNDEFINED;
    }
}

/* Math.random: mulberry32, state advanced per call. */
double p5_math_random(P5Shim *s)
{
    uint32_t a = s->mulberry_state + 0x6D2B79F5u;
    s->mulberry_state = a;
    uint32_t t = (a ^ (a >> 15)) * (1u | a);
    t = (t + ((t ^ (t >> 7)) * (61u | t))) ^ t;
    return (double)(t ^ (t >> 14)) / 4294967296.0;
}

static JSValue js_p5_math_random(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    return JS_NewFloat64(ctx, p5_math_random(p5_shim(ctx)));
}

/* ------------------------------------------------------------------ refused functions */

typedef struct { const char *name, *why; } P5Refused;
static const P5Refused p5_refused[] = {
#define ASSET "games may not load assets"
#define DOM "games may not use the DOM"
#define PIX "pixel access is not supported by the jsgym shim"
#define IMG "images are not supported by the jsgym shim"
    {"loadImage", ASSET}, {"loadSound", ASSET}, {"loadFont", ASSET}, {"loadJSON", ASSET},
    {"loadStrings", ASSET}, {"loadTable", ASSET}, {"loadXML", ASSET}, {"loadBytes", ASSET},
    {"loadModel", ASSET}, {"loadShader", ASSET}, {"httpGet", ASSET}, {"httpPost", ASSET},
    {"httpDo", ASSET}, {"preload", ASSET}, {"createGraphics", IMG}, {"createImage", IMG},
    {"image", IMG}, {"imageMode", IMG}, {"tint", IMG}, {"noTint", IMG}, {"texture", IMG},
    {"filter", PIX}, {"get", PIX}, {"set", PIX}, {"loadPixels", PIX}, {"updatePixels", PIX},
    {"copy", PIX}, {"blend", PIX}, {"erase", "erase() is not supported by the jsgym shim"},
    {"noErase", "erase() is not supported by the jsgym shim"},
    {"saveCanvas", DOM}, {"save", DOM}, {"saveFrames", DOM}, {"createButton", DOM},
    {"createSlider", DOM}, {"createInput", DOM}, {"createP", DOM}, {"createDiv", DOM},
    {"createSpan", DOM}, {"createSelect", DOM}, {"createCheckbox", DOM}, {"createRadio", DOM},
    {"createElement", DOM}, {"createImg", DOM}, {"createA", DOM}, {"createCapture", DOM},
    {"createVideo", DOM}, {"createAudio", DOM}, {"createFileInput", DOM},
    {"createColorPicker", DOM}, {"select", DOM}, {"selectAll", DOM}, {"removeElements", DOM},
    {"fullscreen", DOM}, {"requestPointerLock", DOM}, {"exitPointerLock", DOM},
    {"beginClip", "clipping is not supported by the jsgym shim"},
    {"endClip", "clipping is not supported by the jsgym shim"},
    {"clip", "clipping is not supported by the jsgym shim"},
    {"setup3D", "WEBGL is not supported"}, {"orbitControl", "WEBGL is not supported"},
#undef ASSET
#undef DOM
#undef PIX
#undef IMG
};
#define P5_N_REFUSED ((int)(sizeof p5_refused / sizeof p5_refused[0]))

static JSValue js_p5_refused(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic)
{
    return JS_ThrowTypeError(ctx, "jsgym: %s() is not supported (%s)", p5_refused[magic].name,
                             p5_refused[magic].why);
}

/* blendMode(mode): p5's constants are the canvas 2D globalCompositeOperation names,
 * in JG_BLEND_* order. */
static const char *const p5_blend_names[] = {
    "source-over", "lighter", "darken", "lighten", "difference", "exclusion", "multiply",
    "screen", "overlay", "hard-light", "soft-light", "color-dodge", "color-burn"};

static JSValue js_p5_blend_mode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    JSValueConst mode = argc > 0 ? argv[0] : JS_UNDEFINED;
    s->calls++;
    for (uint32_t i = 0; i < sizeof p5_blend_names / sizeof p5_blend_names[0]; i++) {
        if (p5_str_eq(ctx, mode, p5_blend_names[i])) {
            s->st.blend = (uint8_t)i;
            return JS_UNDEFINED;
        }
    }
    /* p5 only warns: SUBTRACT is for WEBGL */
    if (p5_str_eq(ctx, mode, "subtract")) return JS_UNDEFINED;
    if (p5_str_eq(ctx, mode, "destination-out") || p5_str_eq(ctx, mode, "copy"))
        return JS_ThrowTypeError(ctx, "jsgym: blendMode(%s) is not supported (it makes canvas pixels "
                                 "transparent, which an observation cannot show as the browser does)",
                                 p5_str_eq(ctx, mode, "copy") ? "REPLACE" : "REMOVE");
    /* p5: throw new Error('Mode ' + mode + ' not recognized.') */
    const char *str = JS_ToCString(ctx, mode);
    if (!str) return JS_EXCEPTION;
    char msg[160];
    snprintf(msg, sizeof msg, "Mode %s not recognized.", str);
    JS_FreeCString(ctx, str);
    JSValue e = JS_NewError(ctx);
    if (JS_IsException(e)) return e;
    JS_DefinePropertyValueStr(ctx, e, "message", JS_NewString(ctx, msg),
                              JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE);
    return JS_Throw(ctx, e);
}

/* ------------------------------------------------------------------ tables */

#define CF JS_PROP_CONFIGURABLE | JS_PROP_WRITABLE
static const JSCFunctionListEntry p5_core_funcs[] = {
    JS_CFUNC_MAGIC_DEF("createCanvas", 2, js_p5_canvas, 0),
    JS_CFUNC_MAGIC_DEF("resizeCanvas", 2, js_p5_canvas, 1),
    JS_CFUNC_MAGIC_DEF("millis", 0, js_p5_misc, P5_MISC_MILLIS),
    JS_CFUNC_MAGIC_DEF("frameRate", 1, js_p5_misc, P5_MISC_FRAMERATE),
    JS_CFUNC_MAGIC_DEF("getTargetFrameRate", 0, js_p5_misc, P5_MISC_FRAMERATE),
    JS_CFUNC_MAGIC_DEF("noLoop", 0, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("loop", 0, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("redraw", 1, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("isLooping", 0, js_p5_misc, P5_MISC_TRUE),
    JS_CFUNC_MAGIC_DEF("pixelDensity", 1, js_p5_misc, P5_MISC_DENSITY),
    JS_CFUNC_MAGIC_DEF("displayDensity", 0, js_p5_misc, P5_MISC_DENSITY),
    JS_CFUNC_MAGIC_DEF("smooth", 0, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("noSmooth", 0, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("cursor", 1, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("noCursor", 0, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("describe", 2, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("describeElement", 3, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("textOutput", 1, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("gridOutput", 1, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("print", 1, js_p5_misc, P5_MISC_NOOP),
    JS_CFUNC_MAGIC_DEF("focused", 0, js_p5_misc, P5_MISC_TRUE),
    JS_CFUNC_DEF("blendMode", 1, js_p5_blend_mode),
    JS_PROP_DOUBLE_DEF("deltaTime", P5SHIM_FRAME_MS, CF),
    JS_PROP_INT32_DEF("frameCount", 0, CF),
    JS_PROP_INT32_DEF("width", 100, CF),
    JS_PROP_INT32_DEF("height", 100, CF),
    JS_PROP_INT32_DEF("mouseX", 0, CF),
    JS_PROP_INT32_DEF("mouseY", 0, CF),
    JS_PROP_INT32_DEF("pmouseX", 0, CF),
    JS_PROP_INT32_DEF("pmouseY", 0, CF),
    JS_PROP_INT32_DEF("winMouseX", 0, CF),
    JS_PROP_INT32_DEF("winMouseY", 0, CF),
    JS_PROP_INT32_DEF("movedX", 0, CF),
    JS_PROP_INT32_DEF("movedY", 0, CF),
    JS_PROP_INT32_DEF("mouseIsPressed", 0, CF), /* replaced by false below */
    JS_PROP_STRING_DEF("mouseButton", "left", CF),
    JS_PROP_STRING_DEF("VERSION", "1.11.13", CF),
    JS_PROP_STRING_DEF("P2D", "p2d", CF),
    JS_PROP_STRING_DEF("WEBGL", "webgl", CF),
    JS_PROP_STRING_DEF("WEBGL2", "webgl2", CF),
    JS_PROP_STRING_DEF("ARROW", "default", CF),
    JS_PROP_STRING_DEF("CROSS", "crosshair", CF),
    JS_PROP_STRING_DEF("HAND", "pointer", CF),
    JS_PROP_STRING_DEF("MOVE", "move", CF),
    JS_PROP_STRING_DEF("TEXT", "text", CF),
    JS_PROP_STRING_DEF("WAIT", "wait", CF),
    JS_PROP_DOUBLE_DEF("HALF_PI", M_PI / 2, CF),
    JS_PROP_DOUBLE_DEF("PI", M_PI, CF),
    JS_PROP_DOUBLE_DEF("QUARTER_PI", M_PI / 4, CF),
    JS_PROP_DOUBLE_DEF("TAU", M_PI * 2, CF),
    JS_PROP_DOUBLE_DEF("TWO_PI", M_PI * 2, CF),
    JS_PROP_DOUBLE_DEF("DEG_TO_RAD", M_PI / 180, CF),
    JS_PROP_DOUBLE_DEF("RAD_TO_DEG", 180 / M_PI, CF),
    JS_PROP_STRING_DEF("DEGREES", "degrees", CF),
    JS_PROP_STRING_DEF("RADIANS", "radians", CF),
    JS_PROP_STRING_DEF("CORNER", "corner", CF),
    JS_PROP_STRING_DEF("CORNERS", "corners", CF),
    JS_PROP_STRING_DEF("RADIUS", "radius", CF),
    JS_PROP_STRING_DEF("RIGHT", "right", CF),
    JS_PROP_STRING_DEF("LEFT", "left", CF),
    JS_PROP_STRING_DEF("CENTER", "center", CF),
    JS_PROP_STRING_DEF("TOP", "top", CF),
    JS_PROP_STRING_DEF("BOTTOM", "bottom", CF),
    JS_PROP_STRING_DEF("BASELINE", "alphabetic", CF),
    JS_PROP_INT32_DEF("POINTS", 0, CF),
    JS_PROP_INT32_DEF("LINES", 1, CF),
    JS_PROP_INT32_DEF("LINE_STRIP", 3, CF),
    JS_PROP_INT32_DEF("LINE_LOOP", 2, CF),
    JS_PROP_INT32_DEF("TRIANGLES", 4, CF),
    JS_PROP_INT32_DEF("TRIANGLE_FAN", 6, CF),
    JS_PROP_INT32_DEF("TRIANGLE_STRIP", 5, CF),
    JS_PROP_STRING_DEF("QUADS", "quads", CF),
    JS_PROP_STRING_DEF("QUAD_STRIP", "quad_strip", CF),
    JS_PROP_STRING_DEF("TESS", "tess", CF),
    JS_PROP_STRING_DEF("CLOSE", "close", CF),
    JS_PROP_STRING_DEF("OPEN", "open", CF),
    JS_PROP_STRING_DEF("CHORD", "chord", CF),
    JS_PROP_STRING_DEF("PIE", "pie", CF),
    JS_PROP_STRING_DEF("PROJECT", "square", CF),
    JS_PROP_STRING_DEF("SQUARE", "butt", CF),
    JS_PROP_STRING_DEF("ROUND", "round", CF),
    JS_PROP_STRING_DEF("BEVEL", "bevel", CF),
    JS_PROP_STRING_DEF("MITER", "miter", CF),
    JS_PROP_STRING_DEF("RGB", "rgb", CF),
    JS_PROP_STRING_DEF("HSB", "hsb", CF),
    JS_PROP_STRING_DEF("HSL", "hsl", CF),
    JS_PROP_STRING_DEF("AUTO", "auto", CF),
    JS_PROP_INT32_DEF("ALT", 18, CF),
    JS_PROP_INT32_DEF("BACKSPACE", 8, CF),
    JS_PROP_INT32_DEF("CONTROL", 17, CF),
    JS_PROP_INT32_DEF("DELETE", 46, CF),
    JS_PROP_INT32_DEF("DOWN_ARROW", 40, CF),
    JS_PROP_INT32_DEF("ENTER", 13, CF),
    JS_PROP_INT32_DEF("ESCAPE", 27, CF),
    JS_PROP_INT32_DEF("LEFT_ARROW", 37, CF),
    JS_PROP_INT32_DEF("OPTION", 18, CF),
    JS_PROP_INT32_DEF("RETURN", 13, CF),
    JS_PROP_INT32_DEF("RIGHT_ARROW", 39, CF),
    JS_PROP_INT32_DEF("SHIFT", 16, CF),
    JS_PROP_INT32_DEF("TAB", 9, CF),
    JS_PROP_INT32_DEF("UP_ARROW", 38, CF),
    JS_PROP_STRING_DEF("BLEND", "source-over", CF),
    JS_PROP_STRING_DEF("REMOVE", "destination-out", CF),
    JS_PROP_STRING_DEF("ADD", "lighter", CF),
    JS_PROP_STRING_DEF("DARKEST", "darken", CF),
    JS_PROP_STRING_DEF("LIGHTEST", "lighten", CF),
    JS_PROP_STRING_DEF("DIFFERENCE", "difference", CF),
    JS_PROP_STRING_DEF("SUBTRACT", "subtract", CF),
    JS_PROP_STRING_DEF("EXCLUSION", "exclusion", CF),
    JS_PROP_STRING_DEF("MULTIPLY", "multiply", CF),
    JS_PROP_STRING_DEF("SCREEN", "screen", CF),
    JS_PROP_STRING_DEF("REPLACE", "copy", CF),
    JS_PROP_STRING_DEF("OVERLAY", "overlay", CF),
    JS_PROP_STRING_DEF("HARD_LIGHT", "hard-light", CF),
    JS_PROP_STRING_DEF("SOFT_LIGHT", "soft-light", CF),
    JS_PROP_STRING_DEF("DODGE", "color-dodge", CF),
    JS_PROP_STRING_DEF("BURN", "color-burn", CF),
    JS_PROP_STRING_DEF("NORMAL", "normal", CF),
    JS_PROP_STRING_DEF("ITALIC", "italic", CF),
    JS_PROP_STRING_DEF("BOLD", "bold", CF),
    JS_PROP_STRING_DEF("BOLDITALIC", "bold italic", CF),
    JS_PROP_STRING_DEF("CHAR", "CHAR", CF),
    JS_PROP_STRING_DEF("WORD", "WORD", CF),
    JS_PROP_STRING_DEF("LINEAR", "linear", CF),
    JS_PROP_STRING_DEF("QUADRATIC", "quadratic", CF),
    JS_PROP_STRING_DEF("BEZIER", "bezier", CF),
    JS_PROP_STRING_DEF("CURVE", "curve", CF),
};

/* ------------------------------------------------------------------ install */

static const char *const p5_atom_names[P5_ATOM_COUNT] = {
    "frameCount", "width", "height", "key", "keyCode", "keyIsPressed", "isKeyPressed",
    "keyPressed", "keyReleased", "keyTyped", "levels", "x", "y", "z", "length", "deltaTime",
    "which", "type", "repeat", "shiftKey", "ctrlKey", "altKey", "metaKey", "mode", "maxes",
    "_array", "hsla", "hsba", "_calculateLevels", "isPInst", "_fromRadians", "_toRadians",
    "_getRed", "_getGreen", "_getBlue", "_getAlpha",
};

static int p5_install_refused(JSContext *ctx, JSValueConst global)
{
    for (int i = 0; i < P5_N_REFUSED; i++) {
        JSValue f = JS_NewCFunctionMagic(ctx, js_p5_refused, p5_refused[i].name, 0,
                                         JS_CFUNC_generic_magic, i);
        if (JS_IsException(f)) return -1;
        if (JS_DefinePropertyValueStr(ctx, global, p5_refused[i].name, f, CF) < 0) return -1;
    }
    return 0;
}

/* The preludes are parsed once per process into bytecode that every context then
 * loads with JS_ReadObject: parsing ~60 KB of JS per env would dominate env creation. */
static pthread_once_t prelude_once = PTHREAD_ONCE_INIT;
static uint8_t *prelude_bytecode[P5SHIM_N_PRELUDES];
static size_t prelude_bytecode_len[P5SHIM_N_PRELUDES];

/* Function source text is left out of the bytecode (line numbers stay, for stack
 * traces): every env would otherwise hold its own copy of all the preludes' text,
 * for Function.prototype.toString only (which real p5's bound globals answer with
 * "[native code]" anyway). */
#ifdef JS_WRITE_OBJ_STRIP_SOURCE
#define P5_PRELUDE_WRITE_FLAGS (JS_WRITE_OBJ_BYTECODE | JS_WRITE_OBJ_STRIP_SOURCE)
#else
#define P5_PRELUDE_WRITE_FLAGS JS_WRITE_OBJ_BYTECODE
#endif

static void p5_compile_prelude(void)
{
    JSRuntime *rt = JS_NewRuntime();
    JSContext *ctx = rt ? JS_NewContext(rt) : NULL;
    if (!ctx) goto done;
#ifdef JS_STRIP_SOURCE
    JS_SetStripInfo(rt, JS_STRIP_SOURCE);
#endif
    for (int i = 0; i < P5SHIM_N_PRELUDES; i++) {
        JSValue fn = JS_Eval(ctx, p5shim_preludes[i].source, p5shim_preludes[i].len,
                             p5shim_preludes[i].name, JS_EVAL_TYPE_GLOBAL | JS_EVAL_FLAG_COMPILE_ONLY);
        if (JS_IsException(fn)) { /* each context then reports the error itself */
            JS_FreeValue(ctx, JS_GetException(ctx));
            continue;
        }
        size_t len = 0;
        uint8_t *buf = JS_WriteObject(ctx, &len, fn, P5_PRELUDE_WRITE_FLAGS);
        JS_FreeValue(ctx, fn);
        if (buf) {
            prelude_bytecode[i] = malloc(len);
            if (prelude_bytecode[i]) {
                memcpy(prelude_bytecode[i], buf, len);
                prelude_bytecode_len[i] = len;
            }
            js_free(ctx, buf);
        }
    }
done:
    if (ctx) JS_FreeContext(ctx);
    if (rt) JS_FreeRuntime(rt);
}

/* Evaluates prelude script i; its completion value is the prelude function. */
static JSValue p5_eval_prelude(JSContext *ctx, int i)
{
    pthread_once(&prelude_once, p5_compile_prelude);
    if (!prelude_bytecode[i])
        return JS_Eval(ctx, p5shim_preludes[i].source, p5shim_preludes[i].len, p5shim_preludes[i].name,
                       JS_EVAL_TYPE_GLOBAL);
    JSValue obj = JS_ReadObject(ctx, prelude_bytecode[i], prelude_bytecode_len[i], JS_READ_OBJ_BYTECODE);
    if (JS_IsException(obj)) return obj;
    return JS_EvalFunction(ctx, obj);
}

/* Runs the preludes in order (prelude.js, then the files that build on its globals;
 * p5shim/embed_prelude.py lists them): each is a function expression called as
 * f(native, global) that returns an object of the helpers the C side needs
 * (colorPacked, from prelude.js), or an empty one. */
static int p5_run_prelude(P5Shim *s)
{
    JSContext *ctx = s->ctx;
    int ret = -1;
    JSValue native = JS_UNDEFINED, fn = JS_UNDEFINED, helpers = JS_UNDEFINED, args[2];
    native = JS_NewObject(ctx);
    if (JS_IsException(native)) goto fail;
    {
        static const JSCFunctionListEntry native_funcs[] = {
            JS_CFUNC_MAGIC_DEF("now", 0, js_p5_misc, P5_MISC_NOW),
            JS_CFUNC_MAGIC_DEF("millis", 0, js_p5_misc, P5_MISC_MILLIS),
        };
        if (JS_SetPropertyFunctionList(ctx, native, native_funcs, 2) < 0) goto fail;
        /* the contract's mouse buttons, for prelude_input.js */
        JSValue buttons = JS_NewArray(ctx);
        if (JS_IsException(buttons) ||
            JS_DefinePropertyValueStr(ctx, native, "buttonEvents", buttons, JS_PROP_C_W_E) < 0 ||
            JS_DefinePropertyValueStr(ctx, native, "doubleClickMs", JS_NewInt32(ctx, JG_DOUBLE_CLICK_MS),
                                      JS_PROP_C_W_E) < 0)
            goto fail;
        uint32_t nb = 0;
#define P5_BUTTON(bit, dom_button, name)                                                 \
        {                                                                              \
            JSValue b = JS_NewArray(ctx);                                              \
            if (JS_IsException(b) || JS_SetPropertyUint32(ctx, buttons, nb++, b) < 0 ||  \
                JS_SetPropertyUint32(ctx, b, 0, JS_NewInt32(ctx, bit)) < 0 ||           \
                JS_SetPropertyUint32(ctx, b, 1, JS_NewInt32(ctx, dom_button)) < 0 ||    \
                JS_SetPropertyUint32(ctx, b, 2, JS_NewString(ctx, name)) < 0)           \
                goto fail;                                                             \
        }
        JG_BUTTON_EVENTS(P5_BUTTON)
#undef P5_BUTTON
        if (p5_install_color_native(ctx, native) < 0 || p5_install_transform_native(ctx, native) < 0 ||
            p5_install_vector_native(ctx, native) < 0)
            goto fail;
    }
    args[0] = native;
    args[1] = s->global;
    for (int i = 0; i < P5SHIM_N_PRELUDES; i++) {
        fn = p5_eval_prelude(ctx, i);
        if (JS_IsException(fn)) goto fail;
        helpers = JS_Call(ctx, fn, JS_UNDEFINED, 2, args);
        if (JS_IsException(helpers)) goto fail;
        if (JS_IsObject(helpers)) {
            static const char *const pointer_names[4] = {"pointerStep", "pointerReleaseTaps",
                                                         "pointerFrameEnd", "pointerReset"};
            for (int k = 0; k < 4; k++) {
                JSValue f = JS_GetPropertyStr(ctx, helpers, pointer_names[k]);
                if (JS_IsException(f)) goto fail;
                if (JS_IsUndefined(f)) continue;
                JS_FreeValue(ctx, s->js_pointer[k]);
                s->js_pointer[k] = f;
            }
            JSValue packed = JS_GetPropertyStr(ctx, helpers, "colorPacked");
            if (JS_IsException(packed)) goto fail;
            if (JS_IsUndefined(packed)) {
                JS_FreeValue(ctx, packed);
            } else {
                JS_FreeValue(ctx, s->js_color_packed);
                s->js_color_packed = packed;
            }
        }
        JS_FreeValue(ctx, fn);
        JS_FreeValue(ctx, helpers);
        fn = helpers = JS_UNDEFINED;
    }
    if (!JS_IsFunction(ctx, s->js_color_packed)) {
        JS_ThrowInternalError(ctx, "jsgym: p5shim prelude did not return colorPacked");
        goto fail;
    }
    for (int k = 0; k < 4; k++)
        if (!JS_IsFunction(ctx, s->js_pointer[k])) {
            JS_ThrowInternalError(ctx, "jsgym: p5shim prelude did not return the pointer helpers");
            goto fail;
        }
    ret = 0;
fail:
    JS_FreeValue(ctx, fn);
    JS_FreeValue(ctx, native);
    JS_FreeValue(ctx, helpers);
    return ret;
}

P5Shim *p5shim_install(JSContext *ctx, const P5ShimLimits *limits)
{
    P5Shim *s = (P5Shim *)calloc(1, sizeof *s);
    if (!s) return NULL;
    s->ctx = ctx;
    s->global = JS_GetGlobalObject(ctx);
    s->js_color_packed = JS_UNDEFINED;
    for (int k = 0; k < 4; k++) s->js_pointer[k] = JS_UNDEFINED;
    p5_color_init(s);
    p5_vector_init(s);
    p5_math_init(s);
    s->key_event_proto = JS_UNDEFINED;
    for (int i = 0; i < 9; i++) s->key_event_stages[i] = JS_UNDEFINED;
    for (int i = 0; i < 256; i++) s->key_names[i] = JS_UNDEFINED;
    s->st.text_font = JS_UNDEFINED;
    s->face_memo_font = JS_UNDEFINED;
    for (int i = 0; i < 4; i++) s->default_face[i] = P5_FACE_UNRESOLVED;
    if (limits) s->limits = *limits;
    if (!s->limits.max_draw_calls) s->limits.max_draw_calls = P5_DEFAULT_MAX_DRAW_CALLS;
    if (!s->limits.max_canvas_side) s->limits.max_canvas_side = P5_DEFAULT_MAX_CANVAS_SIDE;
    for (int i = 0; i < P5_ATOM_COUNT; i++) {
        s->atoms[i] = JS_NewAtom(ctx, p5_atom_names[i]);
        if (s->atoms[i] == JS_ATOM_NULL) goto fail;
    }
    s->canvas_w = s->canvas_h = 100;
    s->st.text_font = JS_NewString(ctx, "sans-serif");
    if (JS_IsException(s->st.text_font)) goto fail;
    p5_style_defaults(s);
    p5_color_defaults(s);
    s->mulberry_state = 0 ^ JG_SEED_RANDOM_MIX;
    p5_noise_seed(s, 0 ^ JG_SEED_NOISE_MIX);
    s->perlin_octaves = 4;
    s->perlin_falloff = 0.5;
    s->is_first_contour = 1;
    s->shape_kind = -1;
    JS_SetContextOpaque(ctx, s);

    if (JS_SetPropertyFunctionList(ctx, s->global, p5_core_funcs,
                                   (int)(sizeof p5_core_funcs / sizeof p5_core_funcs[0])) < 0)
        goto fail;
    if (JS_DefinePropertyValueStr(ctx, s->global, "mouseIsPressed", JS_FALSE, CF) < 0) goto fail;
    if (p5_install_refused(ctx, s->global) < 0 || p5_install_shape(ctx, s->global) < 0 ||
        p5_install_color(ctx, s->global) < 0 || p5_install_transform(ctx, s->global) < 0 ||
        p5_install_input(ctx, s->global) < 0 || p5_install_math(ctx, s->global) < 0 ||
        p5_install_text(ctx, s->global) < 0 || p5_install_vector(ctx, s->global) < 0)
        goto fail;
    {
        JSValue math = JS_GetPropertyStr(ctx, s->global, "Math");
        int r = JS_IsException(math) ? -1
                : JS_DefinePropertyValueStr(ctx, math, "random",
                                            JS_NewCFunction(ctx, js_p5_math_random, "random", 0), CF);
        JS_FreeValue(ctx, math);
        if (r < 0) goto fail;
    }
    if (p5_run_prelude(s) < 0) goto fail;
    return s;
fail:
    if (JS_GetContextOpaque(ctx) == s) JS_SetContextOpaque(ctx, NULL);
    p5shim_free(s);
    return NULL;
}

void p5shim_free(P5Shim *s)
{
    if (!s) return;
    JSContext *ctx = s->ctx;
    p5_style_clear_stack(s);
    JS_FreeValue(ctx, s->st.text_font);
    JS_FreeValue(ctx, s->js_color_packed);
    for (int k = 0; k < 4; k++) JS_FreeValue(ctx, s->js_pointer[k]);
    p5_color_free(s);
    p5_vector_free(s);
    p5_math_free(s);
    p5_text_free(s);
    JS_FreeValue(ctx, s->key_event_proto);
    for (int i = 0; i < 9; i++) JS_FreeValue(ctx, s->key_event_stages[i]);
    for (int i = 0; i < 256; i++) JS_FreeValue(ctx, s->key_names[i]);
    JS_FreeValue(ctx, s->global);
    for (int i = 0; i < P5_ATOM_COUNT; i++)
        if (s->atoms[i] != JS_ATOM_NULL) JS_FreeAtom(ctx, s->atoms[i]);
    if (JS_GetContextOpaque(ctx) == s) JS_SetContextOpaque(ctx, NULL);
    p5_realloc(s, s->stack, 0);
    p5_realloc(s, s->ctx_stack, 0);
    p5_realloc(s, s->verts, 0);
    p5_realloc(s, s->cverts, 0);
    p5_realloc(s, s->cmd, 0);
    free(s);
}

void p5shim_forget(P5Shim *s)
{
    free(s); /* everything else it points to lives in the JS heap */
}

/* ------------------------------------------------------------------ driver API */

void p5shim_reset_episode(P5Shim *s, uint32_t seed)
{
    s->frame_count = 0;
    p5_set_global_num(s, P5_ATOM_frameCount, 0);
    s->mulberry_state = seed ^ JG_SEED_RANDOM_MIX;
    p5_noise_seed(s, seed ^ JG_SEED_NOISE_MIX);
    s->lcg_seeded = 0;
    s->gaussian_previous = 0;
    p5_style_clear_stack(s);
    static const double ident[6] = {1, 0, 0, 1, 0, 0};
    memcpy(s->st.m, ident, sizeof ident);
    s->n_verts = s->n_cverts = 0;
    s->is_curve = s->is_bezier = s->is_quadratic = s->is_contour = 0;
    s->is_first_contour = 1;
}

void p5shim_begin_frame(P5Shim *s, int is_setup)
{
    s->cmd_len = 0;
    memset(s->shadow_emitted, 0, sizeof s->shadow_emitted);
    s->blend_emitted = JG_BLEND_SOURCE_OVER;
    s->dash_emitted_n = 0;
    s->shapes_this_frame = 0;
    s->calls = 0;
    if (is_setup) return;
    static const double ident[6] = {1, 0, 0, 1, 0, 0};
    memcpy(s->st.m, ident, sizeof ident);
    s->frame_count += 1;
    p5_set_global_num(s, P5_ATOM_frameCount, s->frame_count);
}

const uint32_t *p5shim_commands(const P5Shim *s, size_t *n_words)
{
    if (n_words) *n_words = s->cmd_len;
    return s->cmd;
}

void p5shim_canvas_size(const P5Shim *s, double *w, double *h)
{
    if (w) *w = s->canvas_w;
    if (h) *h = s->canvas_h;
}

uint64_t p5shim_call_count(const P5Shim *s) { return s->calls; }

const char *p5shim_contract_error(const P5Shim *s) { return s->contract_error[0] ? s->contract_error : NULL; }
