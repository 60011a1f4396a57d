/* p5shim internals shared by the per-area files (shape, colour, transform, input,
 * math, text). Nothing here is part of the public API (include/p5shim.h).
 *
 * Invariants:
 *  - All mutable state lives in one P5Shim per JSContext (the context opaque);
 *    no file has mutable globals or statics, so many contexts may run on many
 *    threads at once.
 *  - Drawing functions never allocate JS objects; the command buffer grows
 *    geometrically and is reused frame after frame.
 *  - Style state mirrors what p5 1.11 keeps in Renderer2D + its canvas 2D context;
 *    push()/pop() copy exactly the fields p5 1.11 saves (see P5Style).
 */
#ifndef JSGYM_P5_INTERNAL_H
#define JSGYM_P5_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "jsgym_contract.h"
#include "jsgym_raster.h"
#include "p5shim.h"
#include "quickjs.h"

/* quickjs-ng defines QJS_VERSION_MAJOR in quickjs.h; Bellard's QuickJS does not. */
#ifdef QJS_VERSION_MAJOR
#define P5_IS_ARRAY(ctx, v) JS_IsArray(v)
#define JS_IsStrictEqual_compat(ctx, a, b) JS_IsStrictEqual(ctx, a, b)
#else
#define P5_IS_ARRAY(ctx, v) (JS_IsArray(ctx, v) > 0)
#define JS_IsStrictEqual_compat(ctx, a, b) JS_StrictEq(ctx, a, b)
#endif

#define P5_DEFAULT_MAX_DRAW_CALLS 100000u
#define P5_DEFAULT_MAX_CANVAS_SIDE 16384u
#define P5_MAX_PUSH_DEPTH 4096
#define P5_FACE_UNRESOLVED INT32_MIN /* default_face[] not looked up yet */
#define P5_MAX_VERTICES 1000000
#define P5_MAX_TEXT_CHARS 100000

/* Virtual epoch of Date.now()/new Date() at frame 0 of every episode (the contract's
 * clock). Date.now() = P5_EPOCH_MS + millis(). */
#define P5_EPOCH_MS JG_CLOCK_EPOCH_MS

enum { P5_POINTER_STEP, P5_POINTER_RELEASE_TAPS, P5_POINTER_FRAME_END, P5_POINTER_RESET };
enum { P5_MODE_CORNER, P5_MODE_CORNERS, P5_MODE_CENTER, P5_MODE_RADIUS };
enum { P5_COLOR_RGB, P5_COLOR_HSB, P5_COLOR_HSL };
enum { P5_ALIGN_LEFT, P5_ALIGN_CENTER, P5_ALIGN_RIGHT };
enum { P5_BASE_BASELINE, P5_BASE_TOP, P5_BASE_BOTTOM, P5_BASE_CENTER };
enum { P5_STYLE_NORMAL, P5_STYLE_ITALIC, P5_STYLE_BOLD, P5_STYLE_BOLDITALIC };

/* Everything push() saves and pop() restores in p5 1.11: the canvas 2D context
 * state (fill/stroke style, lineWidth, lineCap, lineJoin, matrix), Renderer fields
 * (_doFill, _fillSet, _doStroke, _strokeSet, _rectMode, _ellipseMode, _textFont,
 * _textSize, _textLeading, _leadingSet, _textAlign, _textBaseline, _textStyle,
 * _textWrap) and p5's _colorMode. NOT saved (as in p5): angleMode, colorMode
 * maxima, curveTightness, noiseDetail, randomSeed. */
typedef struct P5Style {
    uint32_t fill, stroke;  /* packed RGBA8 */
    double stroke_weight;   /* canvas lineWidth */
    uint8_t cap, join;      /* JG_CAP_*, JG_JOIN_* */
    uint8_t do_fill, do_stroke, fill_set, stroke_set;
    uint8_t rect_mode, ellipse_mode, color_mode;
    uint8_t text_align, text_baseline, text_style, leading_set, text_wrap_char;
    double text_size, text_leading;
    JSValue text_font; /* whatever textFont() was given; 'sans-serif' by default */
    int32_t ctx_face;  /* the canvas font (ctx.font): a face of the font set, -1: none */
    double ctx_px;     /* ... and its size */
    double m[6];       /* a b c d e f, canvas setTransform order */
    /* the context's shadowBlur, shadowColor (packed RGBA8), shadowOffsetX/Y, and
     * whether they cast a shadow at all (colour not transparent, blur or offset set) */
    double shadow_blur, shadow_ox, shadow_oy;
    uint32_t shadow_color;
    uint8_t shadow_on;
    uint8_t blend;     /* JG_BLEND_*: the context's globalCompositeOperation (blendMode) */
    uint8_t dash_n;    /* the context's line dash: dash_n lengths (even), and its offset */
    float dash[JG_DASH_MAX];
    double dash_offset;
    double global_alpha; /* the context's globalAlpha: every colour's alpha times it */
} P5Style;

typedef struct P5Vertex {
    double c[6];      /* x y, or bezier c1 c2 p, or quadratic c p */
    uint8_t kind;     /* 0 vertex, 1 bezier, 2 quadratic */
    uint8_t move_to;
    uint32_t fill, stroke; /* colours current when the vertex was given */
} P5Vertex;

enum { P5_ATOM_frameCount, P5_ATOM_width, P5_ATOM_height, P5_ATOM_key, P5_ATOM_keyCode,
       P5_ATOM_keyIsPressed, P5_ATOM_isKeyPressed, P5_ATOM_keyPressed, P5_ATOM_keyReleased,
       P5_ATOM_keyTyped, P5_ATOM_levels, P5_ATOM_x, P5_ATOM_y, P5_ATOM_z, P5_ATOM_length,
       P5_ATOM_deltaTime, P5_ATOM_which, P5_ATOM_type, P5_ATOM_repeat, P5_ATOM_shiftKey,
       P5_ATOM_ctrlKey, P5_ATOM_altKey, P5_ATOM_metaKey, P5_ATOM_mode, P5_ATOM_maxes,
       P5_ATOM__array, P5_ATOM_hsla, P5_ATOM_hsba, P5_ATOM__calculateLevels, P5_ATOM_isPInst,
       P5_ATOM__fromRadians, P5_ATOM__toRadians, P5_ATOM__getRed, P5_ATOM__getGreen,
       P5_ATOM__getBlue, P5_ATOM__getAlpha, P5_ATOM_COUNT };

/* CSS colour strings already parsed, direct-mapped by a hash of the string: fill('#ff8800')
 * or color('orange') in a hot loop costs a lookup. What a string parses to does not depend
 * on colorMode, so the string alone is the key. */
#define P5_COLOR_CACHE_SIZE 64
#define P5_COLOR_CACHE_TEXT 48
/* What fill()/stroke()/background() of a string gave canvas, by the string's identity:
 * a literal in a game's code is one JS string every call, so fill('#ff8800') costs a
 * pointer compare (each entry holds a reference, so that its address stays its own). */
#define P5_COLOR_MEMO_SIZE 32
/* the last strings c.toString() made (p5_color.c) */
#define P5_COLOR_STRINGS 8
/* Properties of a p5.Color in the order p5 1.11 defines them (mode, maxes, _array,
 * levels, hsla, hsba), and of a createVector() vector (isPInst, _fromRadians,
 * _toRadians, x, y, z): objects that hold each intermediate shape are kept alive, so
 * that building one finds every shape in QuickJS's shape hash instead of making it. */
#define P5_COLOR_PROPS 6
#define P5_VECTOR_PROPS 6

/* The coordinate of noise()'s last call along one axis and the cosine weights of its
 * fractional part at each octave. */
typedef struct {
    double key;
    int octaves;
    double weight[64];
} P5NoiseAxis;

/* The same for the coordinates seen lately along an axis, up to P5_NOISE_SLOT_OCTAVES
 * octaves, direct-mapped by the coordinate's bits: a grid sampled row by row
 * (noise(x * s, y * s, t)) meets each column's x again on every row and every frame. */
#define P5_NOISE_SLOTS 64
#define P5_NOISE_SLOT_OCTAVES 8
typedef struct {
    double key;
    int octaves;
    double weight[P5_NOISE_SLOT_OCTAVES];
} P5NoiseSlot;

/* The last few objects of one kind the shim made, each held by one reference: an
 * object nothing else holds any more (a colour or vector made per call in a loop,
 * used and dropped) is made again in its place (engine_reuse_object_like) instead of
 * allocating a new one and freeing the old. */
#define P5_SPARES 4
typedef struct P5Spares {
    JSValue obj[P5_SPARES];
    int next;
} P5Spares;

struct P5Shim {
    JSContext *ctx;
    P5ShimLimits limits;
    JSAtom atoms[P5_ATOM_COUNT];
    JSValue global;
    /* helpers returned by prelude.js */
    JSValue js_color_packed; /* (...args) -> packed RGBA8 of color(...args).levels */
    /* prelude_input.js's helpers: pointerStep, pointerReleaseTaps, pointerFrameEnd,
     * pointerReset (P5_POINTER_*) */
    JSValue js_pointer[4];  /* indexed by P5_POINTER_* */
    int pointer_used;        /* the pointer moved or a button went down this episode */
    /* a feature the game needs that jsgym cannot give (WEBGL): the env fails with a
     * contract error even if the game caught the exception (p5shim_contract_error) */
    char contract_error[256];
    struct {
        uint32_t len;
        char text[P5_COLOR_CACHE_TEXT];
        double unit[4];      /* the p5.Color _array the string gives */
        uint8_t valid;
    } color_cache[P5_COLOR_CACHE_SIZE];
    struct {
        JSValue text;        /* JS_UNDEFINED: empty */
        uint32_t packed;
        int valid;           /* p5_resolve_color's answer for it: 1 packed, 0 not CSS */
    } color_memo[P5_COLOR_MEMO_SIZE];
    struct {
        JSValue text;        /* JS_UNDEFINED: empty */
        uint64_t key[4];     /* the bits of the three levels and the alpha it spells */
    } color_strings[P5_COLOR_STRINGS];
    uint32_t color_strings_next;
    /* p5.Color (p5_color.c); registered by prelude.js through native.registerColor */
    JSValue js_color_ctor;    /* p5.Color */
    JSValue color_proto;      /* p5.Color.prototype */
    JSValue color_maxes_js;   /* the colorMode maxima table all colours share by reference */
    JSValue color_parse;      /* (string) -> _array: p5's CSS parser for the rare forms */
    JSValue color_mode_names[3]; /* 'rgb', 'hsb', 'hsl' */
    JSValue color_calc_levels;   /* the native _calculateLevels, to recognise it */
    JSValue color_to_string_js;  /* the prelude's Color.prototype.toString (other formats) */
    JSValue color_getters[4];    /* the prelude's _getRed.._getAlpha, to recognise them */
    JSValue color_lerp_js;       /* lerpColor in JS, for the HSB/HSL modes */
    JSValue array4;              /* (a, b, c, d) => [a, b, c, d]: see p5_number_array */
    JSValue color_stages[P5_COLOR_PROPS];
    JSValue color_lazy;          /* the last stage with _array and levels lazy: see p5_new_color */
    P5Spares color_spares;       /* the last colours p5_new_color made */
    /* p5.Vector (p5_vector.c); registered by prelude.js through native.registerVector */
    JSValue vector_ctor;      /* the prelude's Vector (JS), which the natives fall back to */
    JSValue vector_class;     /* p5.Vector: the native constructor (js_p5_vector_construct) */
    JSValue vector_proto;     /* p5.Vector.prototype */
    JSValue vector_from_radians, vector_to_radians; /* what createVector() stores */
    JSValue vector_stages[P5_VECTOR_PROPS];
    P5Spares vector_spares;      /* the last createVector()-like vectors p5v_new made */
    P5Spares vector_xyz_spares;  /* and the last new p5.Vector()-like ones */
    JSValue vector_xyz_model; /* the shape of new p5.Vector(x, y, z)'s objects */
    void *vector_js;          /* p5_vector.c's P5VectorJS */
    /* one line of text being laid out (p5_text.c) */
    uint32_t *line_cps, *line_glyphs;
    int32_t *line_adv;
    size_t line_cap;
    /* the canvas face of the last textFont() string and style p5_text_apply resolved
     * (held, so that no other string can take its address while it is the key) */
    JSValue face_memo_font;
    int face_memo_style;
    int32_t face_memo;
    /* the canvas face of the standard font (no textFont() string) per face style, once
     * resolved (P5_FACE_UNRESOLVED before): textSize() and textAlign() apply it */
    int32_t default_face[4];
    JSValue math;             /* the global Math: p5's trigonometry calls its functions */
    JSAtom math_atoms[7];     /* sin cos tan asin acos atan atan2 */
    /* Prototype of the key events passed to keyPressed() etc. (holds preventDefault,
     * as KeyboardEvent.prototype does); made on the first event. */
    JSValue key_event_proto;
    /* Objects holding the first 1..9 fields of a key event: they keep QuickJS's
     * hashed shapes for each stage alive, so an event finds its shapes instead of
     * building (and, once it dies, freeing) them again. */
    JSValue key_event_stages[9];
    /* KeyboardEvent.key of each key code as a JS string, made on first use */
    JSValue key_names[256];

    /* command stream */
    uint32_t *cmd;
    size_t cmd_len, cmd_cap;
    /* the JG_OP_SHADOW words the frame's stream last set (all 0: none, as every
     * stream starts) */
    uint32_t shadow_emitted[4];
    /* the JG_OP_BLEND mode the frame's stream last set */
    uint8_t blend_emitted;
    /* the JG_OP_DASH the frame's stream last set (n 0: solid) */
    uint8_t dash_emitted_n;
    float dash_emitted[JG_DASH_MAX];
    float dash_emitted_offset;
    uint32_t shapes_this_frame;
    uint64_t calls;

    /* frame and clock */
    double frame_count;
    double canvas_w, canvas_h;

    /* style */
    P5Style st;
    P5Style *stack;
    int stack_len, stack_cap;
    /* drawingContext.save(): the styles whose context part restore() takes back */
    P5Style *ctx_stack;
    int ctx_stack_len, ctx_stack_cap;
    double color_maxes[3][4];
    uint8_t angle_degrees;
    double curve_tightness;

    /* shape under construction (beginShape .. endShape) */
    P5Vertex *verts;
    int n_verts, cap_verts;
    P5Vertex *cverts; /* contour vertices */
    int n_cverts, cap_cverts;
    int shape_kind; /* -1 = none (polygon), else P5_KIND_* */
    uint8_t is_curve, is_bezier, is_quadratic, is_contour, is_first_contour;
    /* path being emitted */
    double path_sx, path_sy, path_cx, path_cy;
    uint8_t path_has_current;

    /* keyboard */
    uint8_t down[256];
    double last_key_code_typed;
    uint8_t key_repeated;

    /* randomness */
    uint32_t mulberry_state;  /* Math.random */
    uint32_t lcg_state;       /* randomSeed()/random() */
    uint8_t lcg_seeded;
    uint8_t gaussian_previous;
    double gaussian_y2;
    double perlin[4096];
    double perlin_octaves;
    double perlin_falloff;
    /* Per axis of noise() (a grid of calls shares its y and z): see noise_weights */
    P5NoiseAxis noise_axis[3];
    P5NoiseSlot noise_slots[3][P5_NOISE_SLOTS];
};

enum { P5_KIND_POINTS, P5_KIND_LINES, P5_KIND_TRIANGLES, P5_KIND_TRIANGLE_FAN,
       P5_KIND_TRIANGLE_STRIP, P5_KIND_QUADS, P5_KIND_QUAD_STRIP };

static inline P5Shim *p5_shim(JSContext *ctx) { return (P5Shim *)JS_GetContextOpaque(ctx); }

/* ToNumber with a fast path for the two number tags (no allocation). */
static inline int p5_num(JSContext *ctx, double *out, JSValueConst v)
{
    int tag = JS_VALUE_GET_TAG(v);
    if (tag == JS_TAG_INT) {
        *out = (double)JS_VALUE_GET_INT(v);
        return 0;
    }
    if (tag == JS_TAG_FLOAT64) {
        *out = JS_VALUE_GET_FLOAT64(v);
        return 0;
    }
    return JS_ToFloat64(ctx, out, v);
}

/* argv[i] as a number, NaN when absent (as undefined would convert). */
static inline int p5_arg(JSContext *ctx, double *out, int argc, JSValueConst *argv, int i)
{
    if (i >= argc) {
        *out = NAN;
        return 0;
    }
    return p5_num(ctx, out, argv[i]);
}

/* A JS number, int-tagged when integral (so JSON and === behave as in V8). */
static inline JSValue p5_new_number(JSContext *ctx, double d)
{
    if (d >= -2147483648.0 && d <= 2147483647.0 && d == (double)(int32_t)d && !(d == 0 && signbit(d)))
        return JS_NewInt32(ctx, (int32_t)d);
    return JS_NewFloat64(ctx, d);
}

/* JS Math.round: floor(x + 0.5) without the double-rounding error of x + 0.5. */
static inline double p5_js_round(double x)
{
    /* floor() is a libm call on the baseline x86-64 target; for non-negative x below
     * 2^52 (colour levels, pixel positions) truncation is floor. -0, negatives, NaN
     * and the rest take libm. */
    double r = x < 4503599627370496.0 && !signbit(x) ? (double)(int64_t)x : floor(x);
    if (!isfinite(x)) return x;
    if (x - r >= 0.5) r += 1.0;
    return r;
}

/* JS ToInt32 of a double. */
static inline int32_t p5_to_int32(double d)
{
    if (d >= -2147483648.0 && d <= 2147483647.0) return (int32_t)d; /* truncates, as ToInt32 */
    if (!isfinite(d)) return 0;
    d = trunc(d);
    d = fmod(d, 4294967296.0);
    if (d < 0) d += 4294967296.0;
    return (int32_t)(uint32_t)d;
}

/* String-valued p5 constants: compare a JS value with a C string (no allocation
 * for non-strings; short strings only). Returns 1 on equality. */
int p5_str_eq(JSContext *ctx, JSValueConst v, const char *s);

/* command stream (p5shim.c) */
uint32_t *p5_emit(P5Shim *s, uint32_t op, uint32_t payload_words, int styled);
int p5_count_shape(P5Shim *s);
/* Writes a JG_OP_SHADOW when the style's shadow is not the one the stream last set:
 * before every shape, and a translucent background(). 0, or -1 out of memory. */
int p5_emit_shadow(P5Shim *s);
/* The same for the blend mode (JG_OP_BLEND): before every shape and background(). */
int p5_emit_blend(P5Shim *s);
/* The same for the line dash (JG_OP_DASH): before every shape. */
int p5_emit_dash(P5Shim *s);
/* Colour `c` (packed RGBA8) with its alpha times the context's globalAlpha. */
static inline uint32_t p5_global_alpha(const P5Shim *s, uint32_t c)
{
    double ga = s->st.global_alpha;
    if (ga >= 1) return c;
    uint32_t a = (uint32_t)floor((double)(c >> 24) * ga + 0.5);
    return (c & 0xFFFFFFu) | a << 24;
} /* -1 with a pending RangeError past the limit */
static inline uint32_t p5_f32(double d)
{
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* colour (p5_color.c) */
int p5_resolve_color(JSContext *ctx, P5Shim *s, int argc, JSValueConst *argv, uint32_t *out);
void p5_color_defaults(P5Shim *s);
void p5_color_init(P5Shim *s);  /* before anything can fail: every JSValue undefined */
void p5_color_free(P5Shim *s);

/* vectors (p5_vector.c) */
void p5_spares_init(P5Spares *sp);
void p5_spares_free(JSContext *ctx, P5Spares *sp);
/* Keeps a reference to `obj` (a new object) in place of the oldest one. */
void p5_spares_keep(JSContext *ctx, P5Spares *sp, JSValueConst obj);
void p5_vector_init(P5Shim *s);
void p5_vector_free(P5Shim *s);
int p5_install_vector(JSContext *ctx, JSValueConst global);
int p5_install_vector_native(JSContext *ctx, JSValueConst native);

/* Whether v is an object whose prototype is proto (the fast test before instanceof). */
static inline int p5_has_proto(JSContext *ctx, JSValueConst v, JSValueConst proto)
{
    if (!JS_IsObject(v) || !JS_IsObject(proto)) return 0;
    JSValue p = JS_GetPrototype(ctx, v);
    int same = JS_IsObject(p) && JS_VALUE_GET_PTR(p) == JS_VALUE_GET_PTR(proto);
    JS_FreeValue(ctx, p);
    return same;
}

/* Shapes a fresh object of `proto` would go through when `n` own properties are
 * defined on it in order (atoms), kept alive by stage objects (see P5_COLOR_PROPS).
 * Returns 0, or -1 with an exception pending. */
int p5_make_stages(JSContext *ctx, JSValueConst proto, const JSAtom *atoms, int n, JSValue *stages);

/* transform (p5_transform.c) */
static inline double p5_to_radians(const P5Shim *s, double a)
{
    return s->angle_degrees ? a * (M_PI / 180.0) : a;
}
void p5_style_defaults(P5Shim *s);
void p5_style_clear_stack(P5Shim *s);
/* Room for one more style on a stack of `len` (growing it to `*cap`): 0, or -1 out
 * of memory. */
int p5_style_stack_room(P5Shim *s, P5Style **stack, int *cap, int len);

/* math (p5_math.c) */
double p5_math_random(P5Shim *s);
double p5_random01(P5Shim *s);
void p5_noise_seed(P5Shim *s, uint32_t seed);
double p5_hypot(const double *v, int n);

void p5_math_init(P5Shim *s);
void p5_math_free(P5Shim *s);

/* text (p5_text.c) */
void p5_text_apply(P5Shim *s);        /* p5's _applyTextProperties */
void p5_text_reset_canvas(P5Shim *s); /* a new 2D context: 'normal 12px sans-serif' */
void p5_text_free(P5Shim *s);

/* function tables, one per p5 area */
int p5_install_shape(JSContext *ctx, JSValueConst global);
int p5_install_color(JSContext *ctx, JSValueConst global);
int p5_install_transform(JSContext *ctx, JSValueConst global);
int p5_install_input(JSContext *ctx, JSValueConst global);
int p5_install_math(JSContext *ctx, JSValueConst global);
int p5_install_text(JSContext *ctx, JSValueConst global);
/* hidden helpers handed to prelude.js as its `native` argument */
int p5_install_color_native(JSContext *ctx, JSValueConst native);
int p5_install_transform_native(JSContext *ctx, JSValueConst native);

/* The shim's growing buffers come from the runtime's allocator: they count against
 * the game's memory limit, and that allocator is where the runtime makes sure a hard
 * stop of the env never lands inside libc (runtime/guard.c). n == 0 frees. */
static inline void *p5_realloc(P5Shim *s, void *p, size_t n)
{
    JSRuntime *rt = JS_GetRuntime(s->ctx);
    if (n == 0) {
        js_free_rt(rt, p);
        return NULL;
    }
    return js_realloc_rt(rt, p, n);
}

#endif
