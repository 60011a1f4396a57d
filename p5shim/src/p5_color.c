/* p5 colour: p5.Color objects and every argument shape of color(), fill(), stroke(),
 * background() and lerpColor(), with p5 1.11's exact formulas.
 *
 * p5.Color stays a JS class (prelude.js defines it and its rarely hot methods), but
 * color() builds its objects here, with exactly the own properties p5's constructor
 * gives them (mode, maxes, _array, levels, hsla, hsba, in that order), and the hot
 * methods (setRed .. setAlpha, _calculateLevels) are native. fill(c) reads the
 * colour's current levels and _array, as p5's c.toString() does, so a colour changed
 * through its fields paints as it would in p5.
 *
 * Arguments resolve to p5's normalized _array (RGBA in [0, 1], unclamped for CSS
 * rgb() strings as in p5) in C for numbers, arrays, p5.Color objects, hex strings,
 * named colours and rgb()/rgba() strings; the rare CSS forms (percentages, hsl(),
 * hsb()) and input p5 rejects go to prelude.js's parser, which throws where p5 throws.
 * A parsed string is cached by its text.
 *
 * colorMode() lives in prelude.js because p5.Color objects share the (mutable) maxima
 * table with it; it mirrors the mode and maxima here (native.setColorMode).
 */
#include <stdlib.h>

#include "engine/engine.h"
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

void p5_color_init(P5Shim *s)
{
    s->js_color_ctor = s->color_proto = s->color_maxes_js = s->color_parse = JS_UNDEFINED;
    s->color_calc_levels = s->color_lerp_js = s->array4 = s->color_lazy = JS_UNDEFINED;
    s->color_to_string_js = JS_UNDEFINED;
    for (int i = 0; i < 3; i++) s->color_mode_names[i] = JS_UNDEFINED;
    for (int i = 0; i < P5_COLOR_PROPS; i++) s->color_stages[i] = JS_UNDEFINED;
    for (int i = 0; i < 4; i++) s->color_getters[i] = JS_UNDEFINED;
    for (int i = 0; i < P5_COLOR_MEMO_SIZE; i++) s->color_memo[i].text = JS_UNDEFINED;
    for (int i = 0; i < P5_COLOR_STRINGS; i++) s->color_strings[i].text = JS_UNDEFINED;
    s->color_strings_next = 0;
    p5_spares_init(&s->color_spares);
}

void p5_color_free(P5Shim *s)
{
    JSContext *ctx = s->ctx;
    JSValue *vals[] = {&s->js_color_ctor, &s->color_proto, &s->color_maxes_js, &s->color_parse,
                       &s->color_calc_levels, &s->color_lerp_js, &s->array4, &s->color_lazy,
                       &s->color_to_string_js};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        JS_FreeValue(ctx, *vals[i]);
        *vals[i] = JS_UNDEFINED;
    }
    for (int i = 0; i < 3; i++) {
        JS_FreeValue(ctx, s->color_mode_names[i]);
        s->color_mode_names[i] = JS_UNDEFINED;
    }
    for (int i = 0; i < 4; i++) {
        JS_FreeValue(ctx, s->color_getters[i]);
        s->color_getters[i] = JS_UNDEFINED;
    }
    for (int i = 0; i < P5_COLOR_MEMO_SIZE; i++) {
        JS_FreeValue(ctx, s->color_memo[i].text);
        s->color_memo[i].text = JS_UNDEFINED;
    }
    for (int i = 0; i < P5_COLOR_STRINGS; i++) {
        JS_FreeValue(ctx, s->color_strings[i].text);
        s->color_strings[i].text = JS_UNDEFINED;
    }
    for (int i = 0; i < P5_COLOR_PROPS; i++) {
        JS_FreeValue(ctx, s->color_stages[i]);
        s->color_stages[i] = JS_UNDEFINED;
    }
    p5_spares_free(ctx, &s->color_spares);
}

int p5_make_stages(JSContext *ctx, JSValueConst proto, const JSAtom *atoms, int n, JSValue *stages)
{
    for (int k = 1; k <= n; k++) {
        JSValue o = JS_NewObjectProto(ctx, proto);
        if (JS_IsException(o)) return -1;
        for (int i = 0; i < k; i++)
            if (JS_DefinePropertyValue(ctx, o, atoms[i], JS_UNDEFINED, JS_PROP_C_W_E) < 0) {
                JS_FreeValue(ctx, o);
                return -1;
            }
        JS_FreeValue(ctx, stages[k - 1]);
        stages[k - 1] = o;
    }
    return 0;
}

/* ------------------------------------------------------------------ conversions */

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

/* The RGBA8 a canvas gets from a colour whose levels are Math.round(unit * 255):
 * p5 hands canvas 'rgba(l0,l1,l2,a)', canvas clamps. -1 when a level is NaN (the
 * string is then not a colour and canvas keeps its previous style). */
static inline int p5_pack_unit(const double *c, uint32_t *out)
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

/* ------------------------------------------------------------------ CSS strings */

/* CSS named colours (p5 1.11's namedColors), sorted for bsearch; prelude.js gets the
 * same table through native.namedColors() for its own parser. */
static const struct { const char *name; uint32_t rgb; } p5_named[] = {
    {"aliceblue", 0xf0f8ff}, {"antiquewhite", 0xfaebd7}, {"aqua", 0x00ffff},
    {"aquamarine", 0x7fffd4}, {"azure", 0xf0ffff}, {"beige", 0xf5f5dc}, {"bisque", 0xffe4c4},
    {"black", 0x000000}, {"blanchedalmond", 0xffebcd}, {"blue", 0x0000ff},
    {"blueviolet", 0x8a2be2}, {"brown", 0xa52a2a}, {"burlywood", 0xdeb887},
    {"cadetblue", 0x5f9ea0}, {"chartreuse", 0x7fff00}, {"chocolate", 0xd2691e},
    {"coral", 0xff7f50}, {"cornflowerblue", 0x6495ed}, {"cornsilk", 0xfff8dc},
    {"crimson", 0xdc143c}, {"cyan", 0x00ffff}, {"darkblue", 0x00008b}, {"darkcyan", 0x008b8b},
    {"darkgoldenrod", 0xb8860b}, {"darkgray", 0xa9a9a9}, {"darkgreen", 0x006400},
    {"darkgrey", 0xa9a9a9}, {"darkkhaki", 0xbdb76b}, {"darkmagenta", 0x8b008b},
    {"darkolivegreen", 0x556b2f}, {"darkorange", 0xff8c00}, {"darkorchid", 0x9932cc},
    {"darkred", 0x8b0000}, {"darksalmon", 0xe9967a}, {"darkseagreen", 0x8fbc8f},
    {"darkslateblue", 0x483d8b}, {"darkslategray", 0x2f4f4f}, {"darkslategrey", 0x2f4f4f},
    {"darkturquoise", 0x00ced1}, {"darkviolet", 0x9400d3}, {"deeppink", 0xff1493},
    {"deepskyblue", 0x00bfff}, {"dimgray", 0x696969}, {"dimgrey", 0x696969},
    {"dodgerblue", 0x1e90ff}, {"firebrick", 0xb22222}, {"floralwhite", 0xfffaf0},
    {"forestgreen", 0x228b22}, {"fuchsia", 0xff00ff}, {"gainsboro", 0xdcdcdc},
    {"ghostwhite", 0xf8f8ff}, {"gold", 0xffd700}, {"goldenrod", 0xdaa520}, {"gray", 0x808080},
    {"green", 0x008000}, {"greenyellow", 0xadff2f}, {"grey", 0x808080}, {"honeydew", 0xf0fff0},
    {"hotpink", 0xff69b4}, {"indianred", 0xcd5c5c}, {"indigo", 0x4b0082}, {"ivory", 0xfffff0},
    {"khaki", 0xf0e68c}, {"lavender", 0xe6e6fa}, {"lavenderblush", 0xfff0f5},
    {"lawngreen", 0x7cfc00}, {"lemonchiffon", 0xfffacd}, {"lightblue", 0xadd8e6},
    {"lightcoral", 0xf08080}, {"lightcyan", 0xe0ffff}, {"lightgoldenrodyellow", 0xfafad2},
    {"lightgray", 0xd3d3d3}, {"lightgreen", 0x90ee90}, {"lightgrey", 0xd3d3d3},
    {"lightpink", 0xffb6c1}, {"lightsalmon", 0xffa07a}, {"lightseagreen", 0x20b2aa},
    {"lightskyblue", 0x87cefa}, {"lightslategray", 0x778899}, {"lightslategrey", 0x778899},
    {"lightsteelblue", 0xb0c4de}, {"lightyellow", 0xffffe0}, {"lime", 0x00ff00},
    {"limegreen", 0x32cd32}, {"linen", 0xfaf0e6}, {"magenta", 0xff00ff}, {"maroon", 0x800000},
    {"mediumaquamarine", 0x66cdaa}, {"mediumblue", 0x0000cd}, {"mediumorchid", 0xba55d3},
    {"mediumpurple", 0x9370db}, {"mediumseagreen", 0x3cb371}, {"mediumslateblue", 0x7b68ee},
    {"mediumspringgreen", 0x00fa9a}, {"mediumturquoise", 0x48d1cc},
    {"mediumvioletred", 0xc71585}, {"midnightblue", 0x191970}, {"mintcream", 0xf5fffa},
    {"mistyrose", 0xffe4e1}, {"moccasin", 0xffe4b5}, {"navajowhite", 0xffdead},
    {"navy", 0x000080}, {"oldlace", 0xfdf5e6}, {"olive", 0x808000}, {"olivedrab", 0x6b8e23},
    {"orange", 0xffa500}, {"orangered", 0xff4500}, {"orchid", 0xda70d6},
    {"palegoldenrod", 0xeee8aa}, {"palegreen", 0x98fb98}, {"paleturquoise", 0xafeeee},
    {"palevioletred", 0xdb7093}, {"papayawhip", 0xffefd5}, {"peachpuff", 0xffdab9},
    {"peru", 0xcd853f}, {"pink", 0xffc0cb}, {"plum", 0xdda0dd}, {"powderblue", 0xb0e0e6},
    {"purple", 0x800080}, {"rebeccapurple", 0x663399}, {"red", 0xff0000},
    {"rosybrown", 0xbc8f8f}, {"royalblue", 0x4169e1}, {"saddlebrown", 0x8b4513},
    {"salmon", 0xfa8072}, {"sandybrown", 0xf4a460}, {"seagreen", 0x2e8b57},
    {"seashell", 0xfff5ee}, {"sienna", 0xa0522d}, {"silver", 0xc0c0c0}, {"skyblue", 0x87ceeb},
    {"slateblue", 0x6a5acd}, {"slategray", 0x708090}, {"slategrey", 0x708090},
    {"snow", 0xfffafa}, {"springgreen", 0x00ff7f}, {"steelblue", 0x4682b4}, {"tan", 0xd2b48c},
    {"teal", 0x008080}, {"thistle", 0xd8bfd8}, {"tomato", 0xff6347}, {"turquoise", 0x40e0d0},
    {"violet", 0xee82ee}, {"wheat", 0xf5deb3}, {"white", 0xffffff}, {"whitesmoke", 0xf5f5f5},
    {"yellow", 0xffff00}, {"yellowgreen", 0x9acd32},
};
#define P5_N_NAMED ((int)(sizeof p5_named / sizeof p5_named[0]))

static int p5_named_cmp(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

static int p5_hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

static int p5_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Parses `\d{1,3}` at *p (p5's INTEGER pattern); returns its value or -1. */
static int p5_css_int(const char **p, const char *end)
{
    const char *q = *p;
    int v = 0, n = 0;
    while (q < end && n < 3 && *q >= '0' && *q <= '9') v = v * 10 + (*q++ - '0'), n++;
    if (n == 0 || (q < end && *q >= '0' && *q <= '9')) return -1;
    *p = q;
    return v;
}

/* p5's DECIMAL pattern `\d+(\.\d+)?|\.\d+` at *p, converted as parseFloat does. */
static int p5_css_decimal(const char **p, const char *end, double *out)
{
    const char *q = *p, *start = q;
    int digits = 0;
    while (q < end && *q >= '0' && *q <= '9') q++, digits++;
    if (q < end && *q == '.') {
        const char *f = q + 1;
        int frac = 0;
        while (f < end && *f >= '0' && *f <= '9') f++, frac++;
        if (frac) q = f;
        else if (!digits) return -1;
    }
    if (!digits && q == start) return -1;
    char buf[64];
    size_t n = (size_t)(q - start);
    if (n >= sizeof buf) return -1;
    memcpy(buf, start, n);
    buf[n] = '\0';
    *out = strtod(buf, NULL);
    *p = q;
    return 0;
}

static void p5_skip_spaces(const char **p, const char *end)
{
    while (*p < end && p5_is_space(**p)) (*p)++;
}

/* p5.Color._parseInputs for one string, for the forms it handles here: named colours,
 * #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(i, i, i) and rgba(i, i, i, d). `str` is already
 * trimmed and lower-cased. Returns 1 with unit[] set, 0 for any other form. */
static int p5_parse_css(const char *str, size_t len, double *unit)
{
    if (len > 0 && str[0] == '#') {
        int d[8];
        if (len != 4 && len != 5 && len != 7 && len != 9) return 0;
        for (size_t i = 1; i < len; i++)
            if ((d[i - 1] = p5_hex_digit(str[i])) < 0) return 0;
        if (len == 4 || len == 5) {
            for (size_t i = 0; i + 1 < len; i++) unit[i] = (d[i] * 17) / 255.0;
        } else {
            for (size_t i = 0; 2 * i + 1 < len; i++) unit[i] = (d[2 * i] * 16 + d[2 * i + 1]) / 255.0;
        }
        if (len == 4 || len == 7) unit[3] = 1;
        return 1;
    }
    int rgba = len > 5 && memcmp(str, "rgba(", 5) == 0;
    if (!rgba && !(len > 4 && memcmp(str, "rgb(", 4) == 0)) {
        char name[32];
        if (len >= sizeof name) return 0;
        memcpy(name, str, len);
        name[len] = '\0';
        const char *key = name;
        const void *hit = bsearch(key, p5_named, P5_N_NAMED, sizeof p5_named[0], p5_named_cmp);
        if (!hit) return 0;
        uint32_t rgb = ((const __typeof__(p5_named[0]) *)hit)->rgb;
        unit[0] = ((rgb >> 16) & 255) / 255.0;
        unit[1] = ((rgb >> 8) & 255) / 255.0;
        unit[2] = (rgb & 255) / 255.0;
        unit[3] = 1;
        return 1;
    }
    const char *p = str + (rgba ? 5 : 4), *end = str + len;
    for (int i = 0; i < 3; i++) {
        p5_skip_spaces(&p, end);
        int v = p5_css_int(&p, end);
        if (v < 0) return 0;
        unit[i] = v / 255.0;
        p5_skip_spaces(&p, end);
        if (i < 2 || rgba) {
            if (p >= end || *p != ',') return 0;
            p++;
        }
    }
    if (rgba) {
        p5_skip_spaces(&p, end);
        if (p5_css_decimal(&p, end, &unit[3]) < 0) return 0;
        p5_skip_spaces(&p, end);
    } else {
        unit[3] = 1;
    }
    return p == end - 1 && *p == ')';
}

static uint32_t p5_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* The _array of a colour string: cached, else parsed here or by prelude.js (which
 * throws where p5 does). Returns 0, or -1 with an exception pending. */
static int p5_string_unit(JSContext *ctx, P5Shim *s, JSValueConst v, double *unit)
{
    size_t len;
    const char *text = JS_ToCStringLen(ctx, &len, v);
    if (!text) return -1;
    uint32_t slot = p5_hash(text, len) % P5_COLOR_CACHE_SIZE;
    if (s->color_cache[slot].valid && s->color_cache[slot].len == len &&
        memcmp(s->color_cache[slot].text, text, len) == 0) {
        memcpy(unit, s->color_cache[slot].unit, 4 * sizeof *unit);
        JS_FreeCString(ctx, text);
        return 0;
    }
    /* r.trim().toLowerCase() for ASCII text; anything else goes to the JS parser */
    const char *a = text, *b = text + len;
    int ascii = 1;
    for (size_t i = 0; i < len; i++) ascii &= (uint8_t)text[i] < 0x80;
    int parsed = 0;
    char low[64];
    if (ascii) {
        while (a < b && p5_is_space(*a)) a++;
        while (b > a && p5_is_space(b[-1])) b--;
        size_t n = (size_t)(b - a);
        if (n < sizeof low) {
            for (size_t i = 0; i < n; i++) low[i] = (a[i] >= 'A' && a[i] <= 'Z') ? a[i] + 32 : a[i];
            low[n] = '\0';
            parsed = p5_parse_css(low, n, unit);
        }
    }
    if (!parsed) {
        JSValue arr = JS_Call(ctx, s->color_parse, JS_UNDEFINED, 1, &v);
        int bad = JS_IsException(arr);
        for (uint32_t i = 0; !bad && i < 4; i++) {
            JSValue e = JS_GetPropertyUint32(ctx, arr, i);
            bad = JS_IsException(e) || p5_num(ctx, &unit[i], e);
            JS_FreeValue(ctx, e);
        }
        JS_FreeValue(ctx, arr);
        if (bad) {
            JS_FreeCString(ctx, text);
            return -1;
        }
    }
    if (len < P5_COLOR_CACHE_TEXT) {
        memcpy(s->color_cache[slot].text, text, len);
        s->color_cache[slot].len = (uint32_t)len;
        memcpy(s->color_cache[slot].unit, unit, 4 * sizeof *unit);
        s->color_cache[slot].valid = 1;
    }
    JS_FreeCString(ctx, text);
    return 0;
}

/* ------------------------------------------------------------------ arguments */

static int p5_is_color(JSContext *ctx, P5Shim *s, JSValueConst v)
{
    if (!JS_IsObject(v) || !JS_IsObject(s->js_color_ctor)) return 0;
    /* instanceof is the walk up the prototypes (Color keeps its prototype and has no
     * Symbol.hasInstance); an array that is not a colour (fill([r, g, b])) is told
     * without instanceof's lookups on Color */
    int inherits = engine_inherits(v, s->color_proto);
    JSValue *elems;
    uint32_t n;
    if (inherits > 0) return 1;
    if (inherits == 0 && engine_fast_array(ctx, v, &elems, &n)) return 0;
    if (inherits < 0 && p5_has_proto(ctx, v, s->color_proto)) return 1;
    return JS_IsInstanceOf(ctx, v, s->js_color_ctor);
}

/* Reads element i of a JS array as a number; 1 if it is one (no conversion). */
static int p5_elem_number(JSContext *ctx, JSValueConst arr, uint32_t i, double *out)
{
    JSValue *fast;
    uint32_t n;
    /* a densely stored array's element is read in place (borrowed, nothing to free) */
    int borrowed = engine_fast_array(ctx, arr, &fast, &n) && i < n;
    JSValue e = borrowed ? fast[i] : JS_GetPropertyUint32(ctx, arr, i);
    int tag = JS_VALUE_GET_TAG(e);
    if (tag == JS_TAG_INT) {
        *out = JS_VALUE_GET_INT(e);
        return 1;
    }
    if (tag == JS_TAG_FLOAT64) {
        *out = JS_VALUE_GET_FLOAT64(e);
        return 1;
    }
    if (borrowed) return 0;
    if (JS_IsException(e)) {
        JSValue exc = JS_GetException(ctx); /* the caller falls back to the JS path */
        JS_FreeValue(ctx, exc);
    }
    JS_FreeValue(ctx, e);
    return 0;
}

/* p5.Color._parseInputs of (argc, argv) in the current colorMode, for the numeric
 * forms: 1 with unit[] set, 0 when the arguments are not all numbers as p5's numeric
 * branches need them. */
static inline int p5_numeric_unit(const P5Shim *s, int argc, JSValueConst *argv, double *unit)
{
    const double *mx = s->color_maxes[s->st.color_mode];
    if (argc >= 3) {
        for (int i = 0; i < 3; i++) {
            if (!JS_IsNumber(argv[i])) return 0;
            double v;
            p5_num(NULL, &v, argv[i]);
            unit[i] = v / mx[i];
        }
        unit[3] = 1;
        if (argc >= 4 && JS_IsNumber(argv[3])) {
            p5_num(NULL, &unit[3], argv[3]);
            unit[3] /= mx[3];
        }
        for (int i = 0; i < 4; i++) {
            if (unit[i] < 0) unit[i] = 0;
            else if (unit[i] > 1) unit[i] = 1;
        }
        if (s->st.color_mode == P5_COLOR_HSL) p5_hsla_to_rgba(unit);
        else if (s->st.color_mode == P5_COLOR_HSB) p5_hsba_to_rgba(unit);
        return 1;
    }
    if (argc >= 1 && JS_IsNumber(argv[0])) {
        /* grayscale: every channel is v / maxes[2] of the current mode, no conversion
         * (p5 1.11 quirk: HSB gray uses the brightness maximum) */
        double v, a = 1;
        p5_num(NULL, &v, argv[0]);
        unit[0] = unit[1] = unit[2] = v / mx[2];
        if (argc == 2 && JS_IsNumber(argv[1])) {
            p5_num(NULL, &a, argv[1]);
            a /= mx[3];
        }
        unit[3] = a;
        for (int i = 0; i < 4; i++) /* Math.max(Math.min(v, 1), 0) keeps NaN */
            if (!isnan(unit[i])) unit[i] = fmax(fmin(unit[i], 1), 0);
        return 1;
    }
    return 0;
}

/* The _array color(...args) would compute, for every shape this file handles: numbers,
 * one string, one array of those. Returns 1 with unit[] set, 0 when only the JS
 * constructor can say (p5.Color objects are the caller's business), -1 on an
 * exception. */
static int p5_args_unit(JSContext *ctx, P5Shim *s, int argc, JSValueConst *argv, double *unit)
{
    if (argc == 1 && JS_IsString(argv[0]))
        return p5_string_unit(ctx, s, argv[0], unit) < 0 ? -1 : 1;
    if (argc < 1 || !P5_IS_ARRAY(ctx, argv[0])) return p5_numeric_unit(s, argc, argv, unit);
    /* Color._parseInputs.apply(this, array): the elements are the arguments, read in
     * place when the array is stored densely */
    JSValue el[8], *elems = el;
    uint32_t fast_n;
    int32_t n = 0;
    int owned = 0, ok = 1;
    int fast = engine_fast_array(ctx, argv[0], &elems, &fast_n);
    if (fast) {
        n = fast_n > 8 ? 9 : (int32_t)fast_n;
    } else {
        JSValue lenv = JS_GetProperty(ctx, argv[0], s->atoms[P5_ATOM_length]);
        int bad = JS_IsException(lenv) || JS_ToInt32(ctx, &n, lenv);
        JS_FreeValue(ctx, lenv);
        if (bad) return -1;
    }
    if (n < 1 || n > 8) return 0;
    if (!fast) {
        elems = el;
        for (; owned < n; owned++) {
            el[owned] = JS_GetPropertyUint32(ctx, argv[0], (uint32_t)owned);
            if (JS_IsException(el[owned])) {
                ok = -1;
                break;
            }
        }
    }
    if (ok > 0) {
        if (n == 1 && JS_IsString(elems[0])) ok = p5_string_unit(ctx, s, elems[0], unit) < 0 ? -1 : 1;
        else ok = p5_numeric_unit(s, n, elems, unit);
    }
    for (int i = 0; i < owned; i++) JS_FreeValue(ctx, el[i]);
    return ok;
}

/* The order of a colour's own properties, as new p5.Color makes them */
enum { P5_CP_MODE, P5_CP_MAXES, P5_CP_ARRAY, P5_CP_LEVELS, P5_CP_HSLA, P5_CP_HSBA };

static void p5_unit_levels(const double *unit, double *levels)
{
    for (int i = 0; i < 4; i++) levels[i] = p5_js_round(unit[i] * 255);
}

/* What a lazy colour keeps (p5_new_color): its unit (_array), and once fill(c) or the
 * like has read it, the RGBA8 it gives canvas (-1 until then, else
 * p5_levels_packed's answer): a colour made once and drawn with every frame packs
 * once. */
typedef struct P5LazyColor {
    double unit[4];
    uint32_t packed;
    int32_t valid;
    /* p5_unit_levels(unit) once has_levels (a colour lerped from many times, the two
     * ends of a gradient, rounds its levels once) */
    double levels[4];
    int32_t has_levels;
} P5LazyColor;

/* The levels of lazy colour `lazy` (p5_unit_levels of its unit). */
static const double *p5_lazy_levels(P5LazyColor *lazy)
{
    if (!lazy->has_levels) {
        p5_unit_levels(lazy->unit, lazy->levels);
        lazy->has_levels = 1;
    }
    return lazy->levels;
}

/* The lazy colour `c` whose _array and levels were never touched from JavaScript, or
 * NULL. */
static P5LazyColor *p5_lazy_color(P5Shim *s, JSValueConst c)
{
    void *lazy = engine_lazy_payload(c, P5_CP_ARRAY, s->atoms[P5_ATOM__array]);
    return lazy && engine_lazy_payload(c, P5_CP_LEVELS, s->atoms[P5_ATOM_levels]) == lazy ? lazy : NULL;
}

/* The RGBA8 canvas gets for levels `l` and alpha unit `a`: 1 with *out set, 0 when
 * p5's string for them is not valid CSS (NaN). */
static int p5_levels_packed(const double *l, double a, uint32_t *out)
{
    /* Math.round(Math.max(Math.min(a, 1), 0) * 255), then clampByte(l) | ... */
    a = isnan(a) ? a : p5_js_round(fmax(fmin(a, 1), 0) * 255);
    if (isnan(l[0]) || isnan(l[1]) || isnan(l[2]) || isnan(a)) return 0;
    uint32_t packed = (uint32_t)a << 24;
    for (int i = 0; i < 3; i++) {
        double v = l[i] < 0 ? 0 : l[i] > 255 ? 255 : l[i];
        packed |= ((uint32_t)p5_to_int32(v) & 255u) << (8 * i);
    }
    *out = packed;
    return 1;
}

/* The numbers c.toString() spells of a p5.Color that is not lazy: its levels[0..2]
 * and _array[3] into `parts`. 0 when they are not plain numbers (any exception
 * cleared: the JS path meets it again). */
static int p5_color_parts(JSContext *ctx, P5Shim *s, JSValueConst c, double *parts)
{
    JSValue levels = JS_GetProperty(ctx, c, s->atoms[P5_ATOM_levels]);
    JSValue arr = JS_GetProperty(ctx, c, s->atoms[P5_ATOM__array]);
    int ok = JS_IsObject(levels) && JS_IsObject(arr);
    for (uint32_t i = 0; ok && i < 3; i++) ok = p5_elem_number(ctx, levels, i, &parts[i]);
    if (ok) ok = p5_elem_number(ctx, arr, 3, &parts[3]);
    if (JS_IsException(levels) || JS_IsException(arr)) {
        JSValue exc = JS_GetException(ctx);
        JS_FreeValue(ctx, exc);
        ok = 0;
    }
    JS_FreeValue(ctx, levels);
    JS_FreeValue(ctx, arr);
    return ok;
}

/* The RGBA8 of a p5.Color as fill(c) gives it to canvas: its current levels and
 * _array[3], exactly as c.toString() and the JS fallback read them. 1 with *out set,
 * 0 when the colour is not valid CSS (canvas keeps its style), 2 when its fields are
 * not plain numbers (the caller takes the JS path). */
static int p5_color_object_packed(JSContext *ctx, P5Shim *s, JSValueConst c, uint32_t *out)
{
    P5LazyColor *lazy = p5_lazy_color(s, c);
    if (lazy) {
        if (lazy->valid < 0) lazy->valid = p5_levels_packed(p5_lazy_levels(lazy), lazy->unit[3], &lazy->packed);
        *out = lazy->packed;
        return lazy->valid;
    }
    double parts[4];
    if (!p5_color_parts(ctx, s, c, parts)) return 2;
    return p5_levels_packed(parts, parts[3], out);
}

static inline int p5_int_level(JSValueConst v, uint32_t *out)
{
    if (JS_VALUE_GET_TAG(v) != JS_TAG_INT || (uint32_t)JS_VALUE_GET_INT(v) > 255) return 0;
    *out = (uint32_t)JS_VALUE_GET_INT(v);
    return 1;
}

/* fill(r, g, b[, a]) and fill(gray[, alpha]) with int32 levels 0..255 in RGB mode at
 * the default maxima: Math.round(v / 255 * 255) is v for each of them, so the packed
 * colour is the arguments'. 0 for anything else. */
static inline int p5_int_levels_packed(const P5Shim *s, int argc, JSValueConst *argv, uint32_t *out)
{
    const double *mx = s->color_maxes[P5_COLOR_RGB];
    if (argc < 1 || argc > 4 || s->st.color_mode != P5_COLOR_RGB || mx[0] != 255 || mx[1] != 255 ||
        mx[2] != 255 || mx[3] != 255)
        return 0;
    uint32_t l0, l1, l2, a = 255;
    if (!p5_int_level(argv[0], &l0)) return 0;
    if (argc <= 2) {
        if (argc == 2 && !p5_int_level(argv[1], &a)) return 0;
        *out = l0 * 0x010101u | a << 24;
        return 1;
    }
    if (!p5_int_level(argv[1], &l1) || !p5_int_level(argv[2], &l2)) return 0;
    if (argc == 4 && !p5_int_level(argv[3], &a)) return 0;
    *out = l0 | l1 << 8 | l2 << 16 | a << 24;
    return 1;
}

/* Resolves p5 colour arguments to packed RGBA8, as fill(...args) hands them to
 * canvas. Returns 1 when the colour is valid, 0 when canvas would reject it (keep the
 * previous style), -1 on a JS exception. */
int p5_resolve_color(JSContext *ctx, P5Shim *s, int argc, JSValueConst *argv, uint32_t *out)
{
    double unit[4];
    if (p5_int_levels_packed(s, argc, argv, out)) return 1;
    if (argc >= 1 && JS_IsNumber(argv[0]) && p5_numeric_unit(s, argc, argv, unit))
        return p5_pack_unit(unit, out) == 0;
    if (argc == 1 && JS_VALUE_GET_TAG(argv[0]) == JS_TAG_STRING) {
        /* what a string gives does not depend on colorMode */
        void *text = JS_VALUE_GET_PTR(argv[0]);
        size_t slot = ((uintptr_t)text >> 4) % P5_COLOR_MEMO_SIZE;
        if (JS_VALUE_GET_TAG(s->color_memo[slot].text) == JS_TAG_STRING &&
            JS_VALUE_GET_PTR(s->color_memo[slot].text) == text) {
            *out = s->color_memo[slot].packed;
            return s->color_memo[slot].valid;
        }
        int r = p5_args_unit(ctx, s, argc, argv, unit);
        if (r < 0) return -1;
        if (r > 0) {
            int valid = p5_pack_unit(unit, out) == 0;
            JS_FreeValue(ctx, s->color_memo[slot].text);
            s->color_memo[slot].text = JS_DupValue(ctx, argv[0]);
            s->color_memo[slot].packed = valid ? *out : 0;
            s->color_memo[slot].valid = valid;
            return valid;
        }
    }
    if (argc >= 1 && JS_IsObject(argv[0]) && p5_is_color(ctx, s, argv[0])) {
        int r = p5_color_object_packed(ctx, s, argv[0], out);
        if (r < 2) return r;
    } else {
        int r = p5_args_unit(ctx, s, argc, argv, unit);
        if (r < 0) return -1;
        if (r > 0) return p5_pack_unit(unit, out) == 0 ? 1 : 0;
    }
    /* everything else: a real p5.Color built by the prelude (throws where p5 throws) */
    JSValue r = JS_Call(ctx, s->js_color_packed, JS_UNDEFINED, argc, argv);
    double d = -1;
    int e = JS_IsException(r) ? -1 : p5_num(ctx, &d, r);
    JS_FreeValue(ctx, r);
    if (e) return -1;
    if (!(d >= 0)) return 0;
    *out = (uint32_t)d;
    return 1;
}

/* ------------------------------------------------------------------ p5.Color objects */

/* A new JS array of the given numbers. Four of them (a colour's _array and levels) are
 * allocated once: by the engine's array constructor (engine/engine.h), or where the
 * engine has none (quickjs-ng builds) from a JS array literal; appending them one by one
 * through the API grows (reallocates) the array at every element. */
static JSValue p5_number_array(JSContext *ctx, const double *v, int n)
{
    P5Shim *s = p5_shim(ctx);
    if (n == 4) {
        JSValue vals[4];
        for (int i = 0; i < 4; i++) vals[i] = p5_new_number(ctx, v[i]);
        JSValue a = engine_new_array_from(ctx, vals, 4);
        if (!JS_IsUndefined(a)) return a;
    }
    if (n == 4 && JS_IsFunction(ctx, s->array4)) {
        JSValue args[4];
        for (int i = 0; i < 4; i++) args[i] = p5_new_number(ctx, v[i]);
        return JS_Call(ctx, s->array4, JS_UNDEFINED, 4, (JSValueConst *)args);
    }
    JSValue a = JS_NewArray(ctx);
    if (JS_IsException(a)) return a;
    for (int i = 0; i < n; i++)
        if (JS_SetPropertyUint32(ctx, a, (uint32_t)i, p5_new_number(ctx, v[i])) < 0) {
            JS_FreeValue(ctx, a);
            return JS_EXCEPTION;
        }
    return a;
}

/* A lazy colour's _array or levels, made from its unit (p5_new_color) */
static JSValue p5_lazy_color_value(JSContext *ctx, const void *payload, JSAtom atom)
{
    P5Shim *s = p5_shim(ctx);
    const double *unit = ((const P5LazyColor *)payload)->unit;
    if (atom == s->atoms[P5_ATOM__array]) return p5_number_array(ctx, unit, 4);
    double levels[4];
    p5_unit_levels(unit, levels);
    return p5_number_array(ctx, levels, 4);
}

/* new p5.Color(pInst, vals) once _parseInputs has given `unit`: the same own
 * properties, in the same order, with the same values. Most colours a game makes are
 * only handed to fill() or stroke() (or lerped) and dropped: _array and levels, two
 * arrays, are made only when JavaScript first touches either (engine.h's lazy
 * properties); until then fill(), stroke(), background() and lerpColor() read the
 * unit kept with the object. */
static JSValue p5_new_color(JSContext *ctx, P5Shim *s, const double *unit)
{
    double levels[4];
    JSValue vals[P5_COLOR_PROPS] = {
        JS_DupValue(ctx, s->color_mode_names[s->st.color_mode]), JS_DupValue(ctx, s->color_maxes_js),
        JS_UNDEFINED, JS_UNDEFINED, JS_NULL, JS_NULL,
    };
    P5LazyColor kept = {{unit[0], unit[1], unit[2], unit[3]}, 0, -1, {0, 0, 0, 0}, 0};
    JSValueConst plain = s->color_stages[P5_COLOR_PROPS - 1];
    for (int k = 0; k < P5_SPARES; k++)
        if (engine_reuse_object_lazy(ctx, s->color_spares.obj[k], s->color_lazy, plain, vals, P5_COLOR_PROPS,
                                     p5_lazy_color_value, &kept, sizeof kept))
            return JS_DupValue(ctx, s->color_spares.obj[k]);
    JSValue lazy = engine_new_object_lazy(ctx, s->color_lazy, plain, vals, P5_COLOR_PROPS,
                                          p5_lazy_color_value, &kept, sizeof kept);
    if (JS_IsObject(lazy)) p5_spares_keep(ctx, &s->color_spares, lazy);
    if (!JS_IsUndefined(lazy)) return lazy;
    p5_unit_levels(unit, levels);
    vals[P5_CP_ARRAY] = p5_number_array(ctx, unit, 4);
    vals[P5_CP_LEVELS] = p5_number_array(ctx, levels, 4);
    static const int atoms[P5_COLOR_PROPS] = {P5_ATOM_mode, P5_ATOM_maxes, P5_ATOM__array,
                                              P5_ATOM_levels, P5_ATOM_hsla, P5_ATOM_hsba};
    int arrays_made = !JS_IsException(vals[P5_CP_ARRAY]) && !JS_IsException(vals[P5_CP_LEVELS]);
    if (arrays_made) {
        /* the last stage has every property: the colour is made with its shape */
        JSValue made = engine_new_object_like(ctx, s->color_stages[P5_COLOR_PROPS - 1], vals, P5_COLOR_PROPS);
        if (!JS_IsUndefined(made)) return made;
    }
    JSValue c = JS_NewObjectProto(ctx, s->color_proto);
    int i = 0;
    if (!JS_IsException(c) && arrays_made)
        for (; i < P5_COLOR_PROPS; i++)
            if (JS_DefinePropertyValue(ctx, c, s->atoms[atoms[i]], vals[i], JS_PROP_C_W_E) < 0) {
                i++;
                break;
            }
    if (i < P5_COLOR_PROPS) {
        for (; i < P5_COLOR_PROPS; i++) JS_FreeValue(ctx, vals[i]);
        JS_FreeValue(ctx, c);
        return JS_EXCEPTION;
    }
    return c;
}

/* color(...args) */
static JSValue js_p5_color(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    if (!JS_IsObject(s->color_proto)) return JS_ThrowInternalError(ctx, "jsgym: p5.Color is not registered");
    if (argc >= 1 && p5_is_color(ctx, s, argv[0])) return JS_DupValue(ctx, argv[0]);
    double unit[4];
    int r = p5_args_unit(ctx, s, argc, argv, unit);
    if (r < 0) return JS_EXCEPTION;
    if (r > 0) return p5_new_color(ctx, s, unit);
    /* what only the JS constructor handles, including p5's errors */
    JSValue args[2] = {JS_NULL, JS_UNDEFINED};
    if (argc >= 1 && P5_IS_ARRAY(ctx, argv[0])) {
        args[1] = JS_DupValue(ctx, argv[0]);
    } else {
        args[1] = JS_NewArray(ctx);
        for (int i = 0; i < argc && !JS_IsException(args[1]); i++)
            if (JS_SetPropertyUint32(ctx, args[1], (uint32_t)i, JS_DupValue(ctx, argv[i])) < 0) {
                JS_FreeValue(ctx, args[1]);
                args[1] = JS_EXCEPTION;
            }
    }
    if (JS_IsException(args[1])) return JS_EXCEPTION;
    JSValue c = JS_CallConstructor(ctx, s->js_color_ctor, 2, args);
    JS_FreeValue(ctx, args[1]);
    return c;
}

/* The numbers of a p5.Color's levels (lerpColor in RGB mode reads them): 1 when all
 * four are plain numbers. */
static int p5_color_levels(JSContext *ctx, P5Shim *s, JSValueConst c, double *l)
{
    P5LazyColor *lazy = p5_lazy_color(s, c);
    if (lazy) {
        memcpy(l, p5_lazy_levels(lazy), 4 * sizeof *l);
        return 1;
    }
    JSValue levels = JS_GetProperty(ctx, c, s->atoms[P5_ATOM_levels]);
    int ok = JS_IsObject(levels);
    for (uint32_t i = 0; ok && i < 4; i++) ok = p5_elem_number(ctx, levels, i, &l[i]);
    if (JS_IsException(levels)) {
        JSValue exc = JS_GetException(ctx);
        JS_FreeValue(ctx, exc);
    }
    JS_FreeValue(ctx, levels);
    return ok;
}

/* color_conversion._rgbaToHSBA (hsl = 0) or _rgbaToHSLA (hsl = 1) of `rgba` into `out` */
static void p5_rgba_to_hs(const double *rgba, int hsl, double *out)
{
    double red = rgba[0], green = rgba[1], blue = rgba[2];
    double val = fmax(fmax(red, green), blue), min = fmin(fmin(red, green), blue);
    double li = val + min, chroma = val - min, hue = 0, sat = 0;
    if (chroma != 0) {
        sat = hsl ? (li < 1 ? chroma / li : chroma / (2 - li)) : chroma / val;
        if (red == val) hue = (green - blue) / chroma;
        else if (green == val) hue = 2 + (blue - red) / chroma;
        else if (blue == val) hue = 4 + (red - green) / chroma;
        if (hue < 0) hue += 6;
        else if (hue >= 6) hue -= 6;
    }
    out[0] = hue / 6;
    out[1] = sat;
    out[2] = hsl ? li / 2 : val;
    out[3] = rgba[3];
}

/* The array lerpColor reads of colour `c` in HSB (hsl = 0) or HSL mode, its numbers in
 * `v`: the cached c.hsba / c.hsla, set from c._array first where it is not there yet
 * (_getBrightness() / _getLightness()). JS_UNDEFINED when something is not as p5
 * makes it (NaN-free numbers only: Math.max's NaN rules are the JS path's). */
static JSValue p5_color_hs_array(JSContext *ctx, P5Shim *s, JSValueConst c, int hsl, double *v)
{
    JSAtom atom = s->atoms[hsl ? P5_ATOM_hsla : P5_ATOM_hsba];
    JSValue arr = JS_GetProperty(ctx, c, atom);
    if (JS_IsException(arr)) return arr;
    if (!JS_ToBool(ctx, arr)) {
        JS_FreeValue(ctx, arr);
        JSValue unit = JS_GetProperty(ctx, c, s->atoms[P5_ATOM__array]);
        if (JS_IsException(unit)) return unit;
        double rgba[4];
        int ok = JS_IsObject(unit);
        for (uint32_t i = 0; ok && i < 4; i++) ok = p5_elem_number(ctx, unit, i, &rgba[i]) && !isnan(rgba[i]);
        JS_FreeValue(ctx, unit);
        if (!ok) return JS_UNDEFINED;
        double hs[4];
        p5_rgba_to_hs(rgba, hsl, hs);
        arr = p5_number_array(ctx, hs, 4);
        if (JS_IsException(arr)) return arr;
        if (JS_SetProperty(ctx, c, atom, JS_DupValue(ctx, arr)) < 0) {
            JS_FreeValue(ctx, arr);
            return JS_EXCEPTION;
        }
    }
    int ok = JS_IsObject(arr);
    for (uint32_t i = 0; ok && i < 4; i++) ok = p5_elem_number(ctx, arr, i, &v[i]) && !isnan(v[i]);
    if (!ok) {
        JS_FreeValue(ctx, arr);
        return JS_UNDEFINED;
    }
    return arr;
}

/* lerpColor in HSB or HSL mode (prelude.js's lerpColorJS, which it replaces for
 * p5.Color arguments): the hue goes the short way round, by adding 1 to the cached
 * array of the smaller one, as p5 does to the colour itself. JS_UNDEFINED: the JS
 * path takes over (nothing observable done that it would not do the same). */
static JSValue p5_lerp_color_hs(JSContext *ctx, P5Shim *s, JSValueConst c1, JSValueConst c2, double amt)
{
    int hsl = s->st.color_mode == P5_COLOR_HSL;
    double from[4], to[4], l[4];
    JSValue a = p5_color_hs_array(ctx, s, c1, hsl, from);
    if (JS_IsException(a) || JS_IsUndefined(a)) return a;
    JSValue b = p5_color_hs_array(ctx, s, c2, hsl, to);
    if (JS_IsException(b) || JS_IsUndefined(b) || JS_VALUE_GET_PTR(a) == JS_VALUE_GET_PTR(b)) {
        JS_FreeValue(ctx, a);
        return JS_IsException(b) ? b : (JS_FreeValue(ctx, b), JS_UNDEFINED);
    }
    int err = 0;
    if (fabs(from[0] - to[0]) > 0.5) {
        if (from[0] > to[0]) {
            to[0] += 1;
            err = JS_SetPropertyUint32(ctx, b, 0, JS_NewFloat64(ctx, to[0])) < 0;
        } else {
            from[0] += 1;
            err = JS_SetPropertyUint32(ctx, a, 0, JS_NewFloat64(ctx, from[0])) < 0;
        }
    }
    JS_FreeValue(ctx, a);
    JS_FreeValue(ctx, b);
    if (err) return JS_EXCEPTION;
    for (int i = 0; i < 4; i++) l[i] = amt * (to[i] - from[i]) + from[i];
    if (l[0] >= 1) l[0] -= 1;
    const double *mx = s->color_maxes[s->st.color_mode];
    JSValue args[4];
    for (int i = 0; i < 4; i++) args[i] = JS_NewFloat64(ctx, l[i] * mx[i]);
    double unit[4];
    if (!p5_numeric_unit(s, 4, args, unit)) return JS_UNDEFINED;
    return p5_new_color(ctx, s, unit);
}

/* lerpColor(c1, c2, amt): RGB mode here (p5: from = c1.levels / 255, to likewise,
 * each channel lerped, color(l * maxes)), HSB and HSL modes in p5_lerp_color_hs;
 * odd arguments go to prelude.js's version. */
static JSValue js_p5_lerp_color(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    if (s->st.color_mode != P5_COLOR_RGB && argc >= 3 && JS_IsNumber(argv[2]) &&
        p5_is_color(ctx, s, argv[0]) && p5_is_color(ctx, s, argv[1])) {
        double amt;
        p5_num(ctx, &amt, argv[2]);
        if (!isnan(amt)) {
            JSValue c = p5_lerp_color_hs(ctx, s, argv[0], argv[1], fmax(fmin(amt, 1), 0));
            if (!JS_IsUndefined(c)) return c;
        }
    }
    if (s->st.color_mode == P5_COLOR_RGB && argc >= 3 && JS_IsNumber(argv[2]) &&
        p5_is_color(ctx, s, argv[0]) && p5_is_color(ctx, s, argv[1])) {
        double from[4], to[4], amt, l[4];
        if (p5_color_levels(ctx, s, argv[0], from) && p5_color_levels(ctx, s, argv[1], to)) {
            p5_num(ctx, &amt, argv[2]);
            if (!isnan(amt)) amt = fmax(fmin(amt, 1), 0); /* Math.max(Math.min(amt, 1), 0) */
            const double *mx = s->color_maxes[P5_COLOR_RGB];
            for (int i = 0; i < 4; i++) {
                double a = from[i] / 255, b = to[i] / 255;
                l[i] = (amt * (b - a) + a) * mx[i];
            }
            JSValue args[4];
            for (int i = 0; i < 4; i++) args[i] = JS_NewFloat64(ctx, l[i]);
            double unit[4];
            p5_numeric_unit(s, 4, args, unit);
            return p5_new_color(ctx, s, unit);
        }
    }
    return JS_Call(ctx, s->color_lerp_js, JS_UNDEFINED, argc, argv);
}

/* Color.prototype._calculateLevels: levels = _array.map(v => Math.round(v * 255)),
 * hsla = hsba = null. */
/* What _calculateLevels does besides the levels: this.hsla = this.hsba = null (p5
 * recomputes them from the new _array). 0, or -1 with an exception pending. */
static int p5_color_forget_hs(JSContext *ctx, P5Shim *s, JSValueConst c)
{
    if (JS_SetProperty(ctx, c, s->atoms[P5_ATOM_hsla], JS_NULL) < 0 ||
        JS_SetProperty(ctx, c, s->atoms[P5_ATOM_hsba], JS_NULL) < 0)
        return -1;
    return 0;
}

static JSValue js_p5_color_calc_levels(JSContext *ctx, JSValueConst this_val, int argc,
                                       JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    JSValue arr = JS_GetProperty(ctx, this_val, s->atoms[P5_ATOM__array]);
    if (JS_IsException(arr)) return arr;
    JSValue lenv = JS_GetProperty(ctx, arr, s->atoms[P5_ATOM_length]);
    int64_t n = 0;
    int bad = JS_IsException(lenv) || JS_ToInt64(ctx, &n, lenv);
    JS_FreeValue(ctx, lenv);
    if (bad || n < 0 || n > (1 << 20)) {
        JS_FreeValue(ctx, arr);
        return bad ? JS_EXCEPTION : JS_ThrowRangeError(ctx, "Invalid array length");
    }
    /* the levels read first (p5 loops backwards), then made at once: filled backwards
     * element by element, an array turns into a slow one */
    double small[8], *l = n <= 8 ? small : p5_realloc(s, NULL, (size_t)n * sizeof *l);
    JSValue levels = JS_EXCEPTION;
    if (!l) {
        JS_ThrowOutOfMemory(ctx);
        goto fail;
    }
    for (int64_t i = n - 1; i >= 0; i--) {
        JSValue e = JS_GetPropertyUint32(ctx, arr, (uint32_t)i);
        double v;
        if (JS_IsException(e) || p5_num(ctx, &v, e)) {
            JS_FreeValue(ctx, e);
            goto fail;
        }
        JS_FreeValue(ctx, e);
        l[i] = p5_js_round(v * 255);
    }
    levels = p5_number_array(ctx, l, (int)n);
    if (JS_IsException(levels)) goto fail;
    if (l != small) p5_realloc(s, l, 0);
    JS_FreeValue(ctx, arr);
    if (JS_SetProperty(ctx, this_val, s->atoms[P5_ATOM_levels], levels) < 0 ||
        p5_color_forget_hs(ctx, s, this_val) < 0)
        return JS_EXCEPTION;
    return JS_UNDEFINED;
fail:
    if (l && l != small) p5_realloc(s, l, 0);
    JS_FreeValue(ctx, arr);
    JS_FreeValue(ctx, levels);
    return JS_EXCEPTION;
}

/* (each is its channel's index in _array, levels and a maxes row) */
enum { P5_CHANNEL_RED, P5_CHANNEL_GREEN, P5_CHANNEL_BLUE, P5_CHANNEL_ALPHA };

/* The maximum a getter of colour `c` scales channel `channel` by (this.maxes[RGB][i],
 * or this.maxes[this.mode][3] for alpha), when `c` still shares the colorMode table
 * (whose numbers the shim keeps in color_maxes): 1 with *max set, else 0. */
static int p5_color_channel_max(JSContext *ctx, P5Shim *s, JSValueConst c, int channel, double *max)
{
    JSValue maxes = JS_GetProperty(ctx, c, s->atoms[P5_ATOM_maxes]);
    int shared = JS_IsObject(maxes) && JS_VALUE_GET_PTR(maxes) == JS_VALUE_GET_PTR(s->color_maxes_js);
    JS_FreeValue(ctx, maxes);
    if (!shared) return 0;
    int mode = P5_COLOR_RGB;
    if (channel == P5_CHANNEL_ALPHA) {
        JSValue name = JS_GetProperty(ctx, c, s->atoms[P5_ATOM_mode]);
        for (mode = 0; mode < 3; mode++)
            if (JS_VALUE_GET_TAG(name) == JS_TAG_STRING &&
                JS_VALUE_GET_PTR(name) == JS_VALUE_GET_PTR(s->color_mode_names[mode]))
                break;
        JS_FreeValue(ctx, name);
        if (mode == 3) return 0;
    }
    *max = s->color_maxes[mode][channel];
    return 1;
}

/* setRed/setGreen/setBlue (this._array[i] = v / this.maxes[RGB][i]) and setAlpha
 * (this._array[3] = v / this.maxes[this.mode][3]), then this._calculateLevels(). An
 * untouched colour given a number keeps it in its unit, its arrays still unmade
 * (_calculateLevels' levels are what they give when made). */
static JSValue js_p5_color_set(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                               int magic)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    P5LazyColor *lazy = argc > 0 && JS_IsNumber(argv[0]) ? p5_lazy_color(s, this_val) : NULL;
    if (lazy) {
        JSValue calc = JS_GetProperty(ctx, this_val, s->atoms[P5_ATOM__calculateLevels]);
        if (JS_IsException(calc)) return calc;
        int native_calc = JS_IsObject(calc) && JS_VALUE_GET_PTR(calc) == JS_VALUE_GET_PTR(s->color_calc_levels);
        JS_FreeValue(ctx, calc);
        double max, v;
        if (native_calc && p5_color_channel_max(ctx, s, this_val, magic, &max)) {
            if (p5_num(ctx, &v, argv[0])) return JS_EXCEPTION;
            lazy->unit[magic] = v / max;
            lazy->valid = -1;
            lazy->has_levels = 0;
            return p5_color_forget_hs(ctx, s, this_val) < 0 ? JS_EXCEPTION : JS_UNDEFINED;
        }
    }
    JSValue maxes = JS_GetProperty(ctx, this_val, s->atoms[P5_ATOM_maxes]);
    JSValue key = magic == P5_CHANNEL_ALPHA ? JS_GetProperty(ctx, this_val, s->atoms[P5_ATOM_mode])
                                        : JS_DupValue(ctx, s->color_mode_names[P5_COLOR_RGB]);
    JSValue table = JS_UNDEFINED, max = JS_UNDEFINED, arr = JS_UNDEFINED, fn = JS_UNDEFINED;
    JSValue ret = JS_EXCEPTION;
    double v, m;
    if (JS_IsException(maxes) || JS_IsException(key)) goto done;
    JSAtom k = JS_ValueToAtom(ctx, key);
    if (k == JS_ATOM_NULL) goto done;
    table = JS_GetProperty(ctx, maxes, k);
    JS_FreeAtom(ctx, k);
    if (JS_IsException(table)) goto done;
    max = JS_GetPropertyUint32(ctx, table, (uint32_t)magic); /* the channel's index */
    if (JS_IsException(max)) goto done;
    if (p5_arg(ctx, &v, argc, argv, 0) || p5_num(ctx, &m, max)) goto done;
    arr = JS_GetProperty(ctx, this_val, s->atoms[P5_ATOM__array]);
    if (JS_IsException(arr)) goto done;
    if (JS_SetPropertyUint32(ctx, arr, (uint32_t)magic, p5_new_number(ctx, v / m)) < 0)
        goto done;
    fn = JS_GetProperty(ctx, this_val, s->atoms[P5_ATOM__calculateLevels]);
    if (JS_IsException(fn)) goto done;
    if (JS_IsObject(fn) && JS_VALUE_GET_PTR(fn) == JS_VALUE_GET_PTR(s->color_calc_levels)) {
        ret = js_p5_color_calc_levels(ctx, this_val, 0, NULL);
    } else {
        ret = JS_Call(ctx, fn, this_val, 0, NULL);
        if (!JS_IsException(ret)) {
            JS_FreeValue(ctx, ret);
            ret = JS_UNDEFINED;
        }
    }
done:
    JS_FreeValue(ctx, maxes);
    JS_FreeValue(ctx, key);
    JS_FreeValue(ctx, table);
    JS_FreeValue(ctx, max);
    JS_FreeValue(ctx, arr);
    JS_FreeValue(ctx, fn);
    return ret;
}

/* red(c), green(c), blue(c), alpha(c): color(c)._getRed() and the like, as p5 does.
 * A colour whose _array was never touched from JavaScript (so it is its unit), whose
 * getter is the prelude's and which shares the colorMode table answers from C: a
 * particle's fill(red(c), green(c), blue(c), a) makes no arrays. */
static JSValue js_p5_color_channel(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                   int magic)
{
    P5Shim *s = p5_shim(ctx);
    JSValueConst arg = argc > 0 ? argv[0] : JS_UNDEFINED;
    JSValue c = js_p5_color(ctx, JS_UNDEFINED, 1, &arg);
    if (JS_IsException(c)) return c;
    JSValue getter = JS_GetProperty(ctx, c, s->atoms[P5_ATOM__getRed + magic]);
    JSValue ret;
    const P5LazyColor *lazy;
    double max;
    if (JS_IsException(getter)) {
        ret = JS_EXCEPTION;
    } else if (JS_IsObject(getter) && JS_VALUE_GET_PTR(getter) == JS_VALUE_GET_PTR(s->color_getters[magic]) &&
               (lazy = p5_lazy_color(s, c)) && p5_color_channel_max(ctx, s, c, magic, &max)) {
        ret = p5_new_number(ctx, lazy->unit[magic] * max);
    } else {
        ret = JS_Call(ctx, getter, c, 0, NULL);
    }
    JS_FreeValue(ctx, getter);
    JS_FreeValue(ctx, c);
    return ret;
}

/* ------------------------------------------------------------------ fill, stroke, background */

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
    if (magic == 0) packed = p5_global_alpha(s, packed);
    /* p5 fills the canvas as a rectangle, which casts the shadow (an opaque one
     * hides it, unless a blend mode lets it show; clear() casts none) */
    if (magic == 0 && (packed >> 24 != 255 || s->st.blend) && p5_emit_shadow(s) < 0)
        return JS_ThrowOutOfMemory(ctx);
    /* (the fill takes the blend mode; clear() does not) */
    if (magic == 0 && (s->st.blend | s->blend_emitted) && p5_emit_blend(s) < 0)
        return JS_ThrowOutOfMemory(ctx);
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
    JS_CFUNC_DEF("color", 0, js_p5_color),
    JS_CFUNC_DEF("lerpColor", 3, js_p5_lerp_color),
    JS_CFUNC_MAGIC_DEF("red", 1, js_p5_color_channel, P5_CHANNEL_RED),
    JS_CFUNC_MAGIC_DEF("green", 1, js_p5_color_channel, P5_CHANNEL_GREEN),
    JS_CFUNC_MAGIC_DEF("blue", 1, js_p5_color_channel, P5_CHANNEL_BLUE),
    JS_CFUNC_MAGIC_DEF("alpha", 1, js_p5_color_channel, P5_CHANNEL_ALPHA),
};

int p5_install_color(JSContext *ctx, JSValueConst global)
{
    return JS_SetPropertyFunctionList(ctx, global, p5_color_funcs,
                                      (int)(sizeof p5_color_funcs / sizeof p5_color_funcs[0]));
}

/* Appends String(v) to `out` (at most 32 bytes): the JavaScript number's own text. */
static int p5_append_number(JSContext *ctx, char *out, double v)
{
    /* (integers as JS prints them, -0 as 0; the rest through the engine's dtoa) */
    if (v == 0) {
        out[0] = '0';
        out[1] = 0;
        return 1;
    }
    if (v == v && fabs(v) < 1e15 && v == (double)(int64_t)v) {
        int64_t k = (int64_t)v;
        uint64_t u = k < 0 ? (uint64_t)-k : (uint64_t)k;
        char digits[20];
        int n = 0, len = 0;
        do digits[n++] = (char)('0' + u % 10); while ((u /= 10) != 0);
        if (k < 0) out[len++] = '-';
        while (n > 0) out[len++] = digits[--n];
        out[len] = 0;
        return len;
    }
    JSValue str = JS_ToString(ctx, JS_NewFloat64(ctx, v));
    size_t len = 0;
    const char *t = JS_IsException(str) ? NULL : JS_ToCStringLen(ctx, &len, str);
    JS_FreeValue(ctx, str);
    if (!t) return -1;
    int n = len < 32 ? (int)len : -1;
    if (n >= 0) memcpy(out, t, len + 1);
    JS_FreeCString(ctx, t);
    return n;
}

/* c.toString(): p5's default format, 'rgba(r,g,b,a)' with the levels and _array[3],
 * made here where those are plain numbers; other formats and the rest are the
 * prelude's. */
static JSValue js_p5_color_to_string(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    double parts[4];
    int plain = argc == 0 || JS_IsUndefined(argv[0]);
    P5LazyColor *lazy = plain ? p5_lazy_color(s, this_val) : NULL;
    if (lazy) {
        const double *l = p5_lazy_levels(lazy);
        memcpy(parts, l, 3 * sizeof *parts);
        parts[3] = lazy->unit[3];
    }
    if (lazy || (plain && JS_IsObject(this_val) && p5_color_parts(ctx, s, this_val, parts))) {
        /* (a game that prints its colours each frame prints the same few: their
         * strings are kept, a string being a value without identity) */
        uint64_t key[4];
        memcpy(key, parts, sizeof key);
        for (int i = 0; i < P5_COLOR_STRINGS; i++)
            if (!JS_IsUndefined(s->color_strings[i].text) && !memcmp(s->color_strings[i].key, key, sizeof key))
                return JS_DupValue(ctx, s->color_strings[i].text);
        char buf[5 + 4 * 33 + 2];
        int n = 5;
        memcpy(buf, "rgba(", 5);
        for (int i = 0; i < 4; i++) {
            int k = p5_append_number(ctx, buf + n, parts[i]);
            if (k < 0) goto js;
            n += k;
            buf[n++] = i < 3 ? ',' : ')';
        }
        JSValue text = JS_NewStringLen(ctx, buf, (size_t)n);
        if (!JS_IsException(text)) {
            uint32_t k = s->color_strings_next++ % P5_COLOR_STRINGS;
            JS_FreeValue(ctx, s->color_strings[k].text);
            s->color_strings[k].text = JS_DupValue(ctx, text);
            memcpy(s->color_strings[k].key, key, sizeof key);
        }
        return text;
    }
js:
    return JS_Call(ctx, s->color_to_string_js, this_val, argc, argv);
}

/* ---- hidden helpers for prelude.js ---- */

static const JSCFunctionListEntry p5_color_methods[] = {
    JS_CFUNC_MAGIC_DEF("setRed", 1, js_p5_color_set, P5_CHANNEL_RED),
    JS_CFUNC_MAGIC_DEF("setGreen", 1, js_p5_color_set, P5_CHANNEL_GREEN),
    JS_CFUNC_MAGIC_DEF("setBlue", 1, js_p5_color_set, P5_CHANNEL_BLUE),
    JS_CFUNC_MAGIC_DEF("setAlpha", 1, js_p5_color_set, P5_CHANNEL_ALPHA),
    JS_CFUNC_DEF("_calculateLevels", 0, js_p5_color_calc_levels),
};

enum { P5_NC_MODE, P5_NC_SET_MODE, P5_NC_REGISTER, P5_NC_NAMED, P5_NC_UNIT };

/* native.colorMode() -> 'rgb' | 'hsb' | 'hsl' (the mode push/pop maintain);
 * native.setColorMode(idx, max0, max1, max2, max3);
 * native.registerColor(Color, maxes, parseString, lerpColor): the JS class, the
 *   shared maxima table, p5's CSS parser (str -> _array) for the forms parsed there
 *   and lerpColor for the HSB/HSL modes; installs the native methods on
 *   Color.prototype;
 * native.namedColors() -> {name: '#rrggbb'};
 * native.colorUnit(vals) -> _array of new p5.Color(pInst, vals) for the shapes parsed
 *   here, or null. */
static JSValue js_p5_native_color(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                  int magic)
{
    P5Shim *s = p5_shim(ctx);
    static const char *const names[3] = {"rgb", "hsb", "hsl"};
    switch (magic) {
    case P5_NC_MODE:
        return JS_DupValue(ctx, s->color_mode_names[s->st.color_mode]);
    case P5_NC_SET_MODE: {
        int32_t mode;
        if (argc < 5 || JS_ToInt32(ctx, &mode, argv[0])) return JS_EXCEPTION;
        if (mode < 0 || mode > 2) return JS_ThrowRangeError(ctx, "bad colour mode");
        s->st.color_mode = (uint8_t)mode;
        for (int i = 0; i < 4; i++)
            if (p5_num(ctx, &s->color_maxes[mode][i], argv[1 + i])) return JS_EXCEPTION;
        return JS_UNDEFINED;
    }
    case P5_NC_REGISTER: {
        if (argc < 4 || !JS_IsFunction(ctx, argv[0]) || !JS_IsObject(argv[1]) ||
            !JS_IsFunction(ctx, argv[2]) || !JS_IsFunction(ctx, argv[3]))
            return JS_ThrowTypeError(ctx, "jsgym: registerColor(Color, maxes, parseString, lerpColor)");
        JSValue proto = JS_GetPropertyStr(ctx, argv[0], "prototype");
        if (JS_IsException(proto)) return proto;
        JSValue to_string_js = JS_GetPropertyStr(ctx, proto, "toString");
        if (!JS_IsFunction(ctx, to_string_js)) {
            JS_FreeValue(ctx, proto);
            JS_FreeValue(ctx, to_string_js);
            return JS_ThrowInternalError(ctx, "jsgym: p5.Color.prototype.toString missing");
        }
        JSValue to_string = JS_NewCFunction(ctx, js_p5_color_to_string, "toString", 1);
        if (JS_IsException(to_string) ||
            JS_DefinePropertyValueStr(ctx, proto, "toString", to_string,
                                      JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE) < 0) {
            JS_FreeValue(ctx, proto);
            JS_FreeValue(ctx, to_string_js);
            return JS_EXCEPTION;
        }
        if (JS_SetPropertyFunctionList(ctx, proto, p5_color_methods,
                                       (int)(sizeof p5_color_methods / sizeof p5_color_methods[0])) < 0) {
            JS_FreeValue(ctx, proto);
            return JS_EXCEPTION;
        }
        p5_color_free(s);
        s->color_to_string_js = to_string_js;
        s->color_proto = proto;
        s->js_color_ctor = JS_DupValue(ctx, argv[0]);
        s->color_maxes_js = JS_DupValue(ctx, argv[1]);
        s->color_parse = JS_DupValue(ctx, argv[2]);
        s->color_lerp_js = JS_DupValue(ctx, argv[3]);
        s->color_calc_levels = JS_GetPropertyStr(ctx, proto, "_calculateLevels");
        for (int i = 0; i < 4; i++)
            s->color_getters[i] = JS_GetProperty(ctx, proto, s->atoms[P5_ATOM__getRed + i]);
        static const char array4[] = "(function (a, b, c, d) { return [a, b, c, d]; })";
        s->array4 = JS_Eval(ctx, array4, sizeof array4 - 1, "<jsgym colour>", JS_EVAL_TYPE_GLOBAL);
        if (JS_IsException(s->array4)) return JS_EXCEPTION;
        for (int i = 0; i < 3; i++) {
            s->color_mode_names[i] = JS_NewString(ctx, names[i]);
            if (JS_IsException(s->color_mode_names[i])) return JS_EXCEPTION;
        }
        JSAtom atoms[P5_COLOR_PROPS] = {s->atoms[P5_ATOM_mode], s->atoms[P5_ATOM_maxes],
                                        s->atoms[P5_ATOM__array], s->atoms[P5_ATOM_levels],
                                        s->atoms[P5_ATOM_hsla], s->atoms[P5_ATOM_hsba]};
        if (p5_make_stages(ctx, proto, atoms, P5_COLOR_PROPS, s->color_stages) < 0) return JS_EXCEPTION;
        s->color_lazy = engine_new_lazy_model(ctx, s->color_stages[P5_COLOR_PROPS - 1],
                                              1u << P5_CP_ARRAY | 1u << P5_CP_LEVELS);
        if (JS_IsException(s->color_lazy)) return JS_EXCEPTION;
        return JS_UNDEFINED;
    }
    case P5_NC_NAMED: {
        JSValue o = JS_NewObject(ctx);
        for (int i = 0; i < P5_N_NAMED && !JS_IsException(o); i++) {
            char hex[8];
            snprintf(hex, sizeof hex, "#%06x", (unsigned)p5_named[i].rgb);
            if (JS_DefinePropertyValueStr(ctx, o, p5_named[i].name, JS_NewString(ctx, hex),
                                          JS_PROP_C_W_E) < 0) {
                JS_FreeValue(ctx, o);
                o = JS_EXCEPTION;
            }
        }
        return o;
    }
    case P5_NC_UNIT: {
        double unit[4];
        if (argc < 1 || !P5_IS_ARRAY(ctx, argv[0])) return JS_NULL;
        int r = p5_args_unit(ctx, s, 1, argv, unit);
        if (r < 0) return JS_EXCEPTION;
        return r ? p5_number_array(ctx, unit, 4) : JS_NULL;
    }
    }
    return JS_UNDEFINED;
}

enum { P5_SHADOW_BLUR, P5_SHADOW_COLOR, P5_SHADOW_OX, P5_SHADOW_OY };

/* native.setShadow(kind, value): drawingContext.shadowBlur / shadowColor /
 * shadowOffsetX / shadowOffsetY = value, as canvas 2D takes them: a number (a blur
 * must not be negative) or a CSS colour string (anything else as its string, so a
 * p5.Color by its toString()); a value it cannot take leaves the old one. */
static JSValue js_p5_native_set_shadow(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    P5Style *st = &s->st;
    int32_t kind;
    double v;
    if (argc < 2 || JS_ToInt32(ctx, &kind, argv[0])) return JS_EXCEPTION;
    if (kind == P5_SHADOW_COLOR) {
        JSValue str = JS_ToString(ctx, argv[1]);
        if (JS_IsException(str)) return str;
        uint32_t packed;
        int ok = p5_resolve_color(ctx, s, 1, (JSValueConst *)&str, &packed);
        JS_FreeValue(ctx, str);
        if (ok < 0) return JS_EXCEPTION;
        if (ok) st->shadow_color = packed;
    } else {
        if (JS_ToFloat64(ctx, &v, argv[1])) return JS_EXCEPTION;
        if (isfinite(v)) {
            if (kind == P5_SHADOW_BLUR && v >= 0) st->shadow_blur = v;
            else if (kind == P5_SHADOW_OX) st->shadow_ox = v;
            else if (kind == P5_SHADOW_OY) st->shadow_oy = v;
        }
    }
    st->shadow_on = (st->shadow_color >> 24) != 0 &&
                    (st->shadow_blur != 0 || st->shadow_ox != 0 || st->shadow_oy != 0);
    return JS_UNDEFINED;
}

/* native.shadow(kind): the value set (the colour packed RGBA8). */
static JSValue js_p5_native_shadow(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    int32_t kind;
    if (argc < 1 || JS_ToInt32(ctx, &kind, argv[0])) return JS_EXCEPTION;
    switch (kind) {
    case P5_SHADOW_BLUR: return JS_NewFloat64(ctx, s->st.shadow_blur);
    case P5_SHADOW_COLOR: return JS_NewUint32(ctx, s->st.shadow_color);
    case P5_SHADOW_OX: return JS_NewFloat64(ctx, s->st.shadow_ox);
    default: return JS_NewFloat64(ctx, s->st.shadow_oy);
    }
}

/* native.setLineDash(array): canvas 2D setLineDash: ignored unless every element is a
 * finite number >= 0 (after ToNumber); an odd count is repeated to make it even. */
static JSValue js_p5_native_set_dash(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    double v[JG_DASH_MAX];
    int64_t n = 0;
    if (argc < 1 || !JS_IsObject(argv[0])) return JS_ThrowTypeError(ctx, "setLineDash: the segments must be an array");
    JSValue len = JS_GetPropertyStr(ctx, argv[0], "length");
    if (JS_IsException(len) || JS_ToInt64(ctx, &n, len)) {
        JS_FreeValue(ctx, len);
        return JS_EXCEPTION;
    }
    JS_FreeValue(ctx, len);
    if (n < 0) n = 0;
    if ((n % 2 ? 2 * n : n) > (int64_t)JG_DASH_MAX)
        return JS_ThrowRangeError(ctx, "jsgym: setLineDash() with more than %u lengths (an odd count "
                                  "counts twice) is not supported", (unsigned)JG_DASH_MAX);
    for (int64_t i = 0; i < n; i++) {
        JSValue e = JS_GetPropertyUint32(ctx, argv[0], (uint32_t)i);
        if (JS_IsException(e) || JS_ToFloat64(ctx, &v[i], e)) {
            JS_FreeValue(ctx, e);
            return JS_EXCEPTION;
        }
        JS_FreeValue(ctx, e);
        if (!isfinite(v[i]) || v[i] < 0) return JS_UNDEFINED;
    }
    int m = (int)(n % 2 ? 2 * n : n);
    for (int i = 0; i < m; i++) s->st.dash[i] = (float)v[i % n];
    s->st.dash_n = (uint8_t)m;
    return JS_UNDEFINED;
}

/* native.lineDash() -> the lengths set; native.setDashOffset(v) / native.dashOffset(). */
static JSValue js_p5_native_dash(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                 int magic)
{
    P5Shim *s = p5_shim(ctx);
    double v[JG_DASH_MAX], off;
    switch (magic) {
    case 0:
        for (int i = 0; i < s->st.dash_n; i++) v[i] = s->st.dash[i];
        return p5_number_array(ctx, v, s->st.dash_n);
    case 1:
        if (argc < 1 || JS_ToFloat64(ctx, &off, argv[0])) return JS_EXCEPTION;
        if (isfinite(off)) s->st.dash_offset = off;
        return JS_UNDEFINED;
    default:
        return JS_NewFloat64(ctx, s->st.dash_offset);
    }
}

/* native.setGlobalAlpha(v) (canvas 2D: ignored unless finite and in [0, 1]) and
 * native.globalAlpha(). */
static JSValue js_p5_native_global_alpha(JSContext *ctx, JSValueConst this_val, int argc,
                                         JSValueConst *argv, int magic)
{
    P5Shim *s = p5_shim(ctx);
    double v;
    if (magic == 1) return JS_NewFloat64(ctx, s->st.global_alpha);
    if (argc < 1 || JS_ToFloat64(ctx, &v, argv[0])) return JS_EXCEPTION;
    if (isfinite(v) && v >= 0 && v <= 1) s->st.global_alpha = v;
    return JS_UNDEFINED;
}

/* native.ctxSave() / native.ctxRestore(): drawingContext.save() and restore(). The
 * context's own state (fill and stroke styles, line width, cap and join, the
 * transform, the shadow, the blend mode, the dash, globalAlpha and the font) is saved
 * and restored; p5's own (noFill(), rectMode(), textAlign() ...) is not, as in the
 * browser, where p5 keeps it outside the context. */
static JSValue js_p5_native_ctx_save(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                     int magic)
{
    P5Shim *s = p5_shim(ctx);
    if (magic == 0) {
        if (s->ctx_stack_len >= P5_MAX_PUSH_DEPTH)
            return JS_ThrowRangeError(ctx, "jsgym: drawingContext.save() nested deeper than %d without restore()",
                                      P5_MAX_PUSH_DEPTH);
        if (p5_style_stack_room(s, &s->ctx_stack, &s->ctx_stack_cap, s->ctx_stack_len) < 0)
            return JS_ThrowOutOfMemory(ctx);
        s->ctx_stack[s->ctx_stack_len] = s->st;
        s->ctx_stack[s->ctx_stack_len].text_font = JS_UNDEFINED;
        s->ctx_stack_len++;
        return JS_UNDEFINED;
    }
    /* (an unmatched restore() does nothing) */
    if (s->ctx_stack_len == 0) return JS_UNDEFINED;
    const P5Style *o = &s->ctx_stack[--s->ctx_stack_len];
    P5Style *st = &s->st;
    st->fill = o->fill;
    st->stroke = o->stroke;
    st->stroke_weight = o->stroke_weight;
    st->cap = o->cap;
    st->join = o->join;
    memcpy(st->m, o->m, sizeof st->m);
    st->shadow_blur = o->shadow_blur;
    st->shadow_ox = o->shadow_ox;
    st->shadow_oy = o->shadow_oy;
    st->shadow_color = o->shadow_color;
    st->shadow_on = o->shadow_on;
    st->blend = o->blend;
    st->dash_n = o->dash_n;
    memcpy(st->dash, o->dash, sizeof st->dash);
    st->dash_offset = o->dash_offset;
    st->global_alpha = o->global_alpha;
    st->ctx_face = o->ctx_face;
    st->ctx_px = o->ctx_px;
    return JS_UNDEFINED;
}

static const JSCFunctionListEntry p5_color_native[] = {
    JS_CFUNC_MAGIC_DEF("setGlobalAlpha", 1, js_p5_native_global_alpha, 0),
    JS_CFUNC_MAGIC_DEF("globalAlpha", 0, js_p5_native_global_alpha, 1),
    JS_CFUNC_MAGIC_DEF("ctxSave", 0, js_p5_native_ctx_save, 0),
    JS_CFUNC_MAGIC_DEF("ctxRestore", 0, js_p5_native_ctx_save, 1),
    JS_CFUNC_DEF("setLineDash", 1, js_p5_native_set_dash),
    JS_CFUNC_MAGIC_DEF("lineDash", 0, js_p5_native_dash, 0),
    JS_CFUNC_MAGIC_DEF("setDashOffset", 1, js_p5_native_dash, 1),
    JS_CFUNC_MAGIC_DEF("dashOffset", 0, js_p5_native_dash, 2),
    JS_CFUNC_DEF("setShadow", 2, js_p5_native_set_shadow),
    JS_CFUNC_DEF("shadow", 1, js_p5_native_shadow),
    JS_CFUNC_MAGIC_DEF("colorMode", 0, js_p5_native_color, P5_NC_MODE),
    JS_CFUNC_MAGIC_DEF("setColorMode", 5, js_p5_native_color, P5_NC_SET_MODE),
    JS_CFUNC_MAGIC_DEF("registerColor", 4, js_p5_native_color, P5_NC_REGISTER),
    JS_CFUNC_MAGIC_DEF("namedColors", 0, js_p5_native_color, P5_NC_NAMED),
    JS_CFUNC_MAGIC_DEF("colorUnit", 1, js_p5_native_color, P5_NC_UNIT),
};

int p5_install_color_native(JSContext *ctx, JSValueConst native)
{
    return JS_SetPropertyFunctionList(ctx, native, p5_color_native,
                                      (int)(sizeof p5_color_native / sizeof p5_color_native[0]));
}
