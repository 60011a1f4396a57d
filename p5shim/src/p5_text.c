/* p5 typography with the real fonts: text(), textWidth(), textAscent()/textDescent()
 * and the text state, as p5 1.11 does them on a Chromium canvas.
 *
 * The fonts are the process's font set (jsgym/fonts.py compiles the very files the
 * browser backend's Chromium draws with; the rasterizer holds them, see
 * rasterizer/include/jsgym_raster.h): textFont() names resolve to faces as Chromium
 * resolves them, each line is shaped (character map, ligatures, kerning) into glyphs
 * and pen advances in font units, and drawn as one JG_OP_TEXT command of glyph
 * origins. The numbers a game can read (textWidth, textAscent, textDescent) follow
 * Chromium's arithmetic to the bit (tests/test_text_reference.py holds the rules
 * against measured values).
 *
 * p5's own logic is reproduced statement by statement: Renderer.text (line breaks,
 * boxes, WORD/CHAR wrapping, leading, the BASELINE-in-a-box hack), _renderText (lines
 * outside the box are skipped; the stroke is drawn under the fill, only after
 * stroke() was called; text is black until fill() was called) and
 * _applyTextProperties (the canvas font string; a string canvas would not parse
 * leaves the canvas font as it was).
 */
#include <stdlib.h>

#include "p5_internal.h"

/* ------------------------------------------------------------------ the canvas font */

/* Whether `name` is a font-family list canvas 2D accepts unquoted: identifiers (no
 * leading digit, no quotes or CSS punctuation) separated by commas. */
static int p5_family_list_valid(const char *name, size_t len)
{
    int start = 1;
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c == ',') {
            if (start) return 0;
            start = 1;
            continue;
        }
        if (c == ' ' && start) continue;
        if (start && c >= '0' && c <= '9') return 0;
        if (c < 0x80 && !(c == '-' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                          (c >= 'A' && c <= 'Z')))
            return 0;
        start = 0;
        k++;
    }
    return k > 0 && !start;
}

/* The face canvas would use for family string `name` with `style`: a name with spaces
 * is quoted by p5 and so is one family; otherwise a list whose first known family
 * wins. -1 when canvas would reject the font string (keep the previous font). */
static int32_t p5_resolve_face(const char *name, size_t len, int style)
{
    int has_space = 0;
    for (size_t i = 0; i < len; i++) has_space |= name[i] == ' ' || name[i] == '\t';
    if (has_space || len == 0) {
        if (len == 0 || memchr(name, '"', len)) return -1;
        return jg_font_resolve((const uint8_t *)name, len, (uint32_t)style);
    }
    if (!p5_family_list_valid(name, len)) return -1;
    size_t a = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && name[i] != ',') continue;
        int32_t f = jg_font_resolve((const uint8_t *)name + a, i - a, (uint32_t)style | JG_FONT_EXACT);
        if (f >= 0) return f;
        a = i + 1;
    }
    return jg_font_resolve((const uint8_t *)"", 0, (uint32_t)style); /* the standard font */
}

/* The face a DOM element with style.fontFamily = name gets (p5 measures textAscent and
 * textDescent so): a CSS family list, each item quoted or not, the first known one;
 * else the page's font, the standard family. */
static int32_t p5_dom_face(const char *name, size_t len)
{
    size_t a = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && name[i] != ',') continue;
        size_t x = a, y = i;
        while (x < y && (name[x] == ' ' || name[x] == '\t')) x++;
        while (y > x && (name[y - 1] == ' ' || name[y - 1] == '\t')) y--;
        if (y - x >= 2 && (name[x] == '"' || name[x] == '\'') && name[y - 1] == name[x]) x++, y--;
        int32_t f = y > x ? jg_font_resolve((const uint8_t *)name + x, y - x, JG_FONT_EXACT) : -2;
        if (f >= 0) return f;
        a = i + 1;
    }
    return jg_font_resolve((const uint8_t *)"", 0, 0);
}

static const int p5_face_style[4] = {0, 2, 1, 3}; /* P5_STYLE_* -> normal bold italic bolditalic */

/* p5's _applyTextProperties: ctx.font = `${style} ${size}px ${family}`; canvas keeps
 * its font when it cannot parse the string (a non-finite or negative size, a family
 * CSS does not accept) or when no fonts are installed. */
void p5_text_apply(P5Shim *s)
{
    P5Style *st = &s->st;
    double size = st->text_size;
    if (!(size >= 0 && size < 1e21)) return;
    const char *name = "sans-serif";
    size_t len = 10;
    const char *owned = NULL;
    int style = p5_face_style[st->text_style & 3];
    if (JS_IsString(st->text_font) && JS_IsString(s->face_memo_font) &&
        JS_VALUE_GET_PTR(st->text_font) == JS_VALUE_GET_PTR(s->face_memo_font) && s->face_memo_style == style) {
        /* (a HUD sets the same font, size and alignment every frame) */
        if (s->face_memo < 0) return;
        st->ctx_face = s->face_memo;
        st->ctx_px = (float)size;
        return;
    }
    if (JS_IsString(st->text_font)) {
        owned = JS_ToCStringLen(s->ctx, &len, st->text_font);
        if (!owned) {
            JS_FreeValue(s->ctx, JS_GetException(s->ctx));
            return;
        }
        name = owned;
    } else if (JS_ToBool(s->ctx, st->text_font)) {
        return; /* a p5.Font object: jsgym loads no fonts (loadFont is refused) */
    } else {
        /* (the fonts are installed before any env starts: the standard face holds) */
        int32_t *memo = &s->default_face[style & 3];
        if (*memo == P5_FACE_UNRESOLVED) *memo = p5_resolve_face(name, len, style);
        if (*memo < 0) return;
        st->ctx_face = *memo;
        st->ctx_px = (float)size;
        return;
    }
    int32_t face = p5_resolve_face(name, len, style);
    if (owned) {
        JS_FreeCString(s->ctx, owned);
        JS_FreeValue(s->ctx, s->face_memo_font);
        s->face_memo_font = JS_DupValue(s->ctx, st->text_font);
        s->face_memo_style = style;
        s->face_memo = face;
    }
    if (face < 0) return;
    st->ctx_face = face;
    st->ctx_px = (float)size; /* canvas holds font sizes as float */
}

void p5_text_reset_canvas(P5Shim *s)
{
    s->st.ctx_face = jg_font_resolve((const uint8_t *)"sans-serif", 10, 0);
    s->st.ctx_px = 12;
}

/* ------------------------------------------------------------------ shaping */

/* Decodes UTF-8 (as QuickJS encodes JS strings: lone surrogates as 3-byte sequences)
 * into code points. */
static size_t p5_utf8_decode(const char *t, size_t n, uint32_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)t[i];
        uint32_t cp;
        int extra;
        if (c < 0x80) { cp = c; extra = 0; }
        else if (c >= 0xF0) { cp = c & 7; extra = 3; }
        else if (c >= 0xE0) { cp = c & 15; extra = 2; }
        else if (c >= 0xC0) { cp = c & 31; extra = 1; }
        else { cp = 0xFFFD; extra = 0; }
        i++;
        for (int e = 0; e < extra && i < n; e++, i++) cp = cp << 6 | ((unsigned char)t[i] & 63);
        out[k++] = cp;
    }
    return k;
}

/* Scratch for one line: code points, glyphs, advances. */
static int p5_line_reserve(P5Shim *s, size_t n)
{
    if (n <= s->line_cap) return 0;
    size_t cap = s->line_cap ? s->line_cap : 64;
    while (cap < n) cap *= 2;
    uint32_t *cps = p5_realloc(s, s->line_cps, cap * sizeof *cps);
    if (!cps) return -1;
    s->line_cps = cps;
    uint32_t *gl = p5_realloc(s, s->line_glyphs, cap * sizeof *gl);
    if (!gl) return -1;
    s->line_glyphs = gl;
    int32_t *adv = p5_realloc(s, s->line_adv, cap * sizeof *adv);
    if (!adv) return -1;
    s->line_adv = adv;
    s->line_cap = cap;
    return 0;
}

/* Shapes code points cps[0..n) with the canvas face into s->line_glyphs/line_adv;
 * returns the glyph count, or -1 with an exception pending. */
static int64_t p5_shape(P5Shim *s, const uint32_t *cps, size_t n)
{
    if (s->st.ctx_face < 0) {
        JS_ThrowTypeError(s->ctx, "jsgym: no fonts are installed, so text cannot be drawn or "
                                  "measured (install the Debian packages fonts-dejavu-core "
                                  "fonts-dejavu-extra fonts-liberation, or set JSGYM_FONT_DIR)");
        return -1;
    }
    if (p5_line_reserve(s, n + 1) < 0) {
        JS_ThrowOutOfMemory(s->ctx);
        return -1;
    }
    int64_t g = jg_font_shape((uint32_t)s->st.ctx_face, cps, n, s->line_glyphs, s->line_adv);
    if (g < 0) JS_ThrowInternalError(s->ctx, "jsgym: text shaping failed (status %d)", (int)g);
    return g;
}

/* measureText(line).width: the pen advances at the canvas size, summed as Chromium
 * sums them (float). */
static double p5_advance_width(const P5Shim *s, const int32_t *adv, size_t n, double upem)
{
    float scale = (float)(s->st.ctx_px / upem), w = 0;
    for (size_t i = 0; i < n; i++) w += (float)adv[i] * scale;
    return w;
}

static double p5_upem(const P5Shim *s)
{
    JgFontMetrics m;
    if (s->st.ctx_face < 0 || jg_font_metrics((uint32_t)s->st.ctx_face, &m) != 0) return 2048;
    return m.units_per_em;
}

/* Width of a line of n code points (no line breaks). */
static int p5_measure(P5Shim *s, const uint32_t *cps, size_t n, double *out)
{
    int64_t g = p5_shape(s, cps, n);
    if (g < 0) return -1;
    *out = p5_advance_width(s, s->line_adv, (size_t)g, p5_upem(s));
    return 0;
}

/* ------------------------------------------------------------------ vertical metrics */

static double p5_round_half_up(double v) { return floor(v + 0.5); }

/* What p5's _updateTextMetrics reads from the DOM: a span of the family at the size
 * on a line whose strut is the page's default font (16 px serif, regular). */
static void p5_dom_metrics(P5Shim *s, double *ascent, double *descent)
{
    P5Style *st = &s->st;
    *ascent = *descent = 0;
    int32_t face = -1;
    if (JS_IsString(st->text_font)) {
        size_t len;
        const char *name = JS_ToCStringLen(s->ctx, &len, st->text_font);
        if (!name) {
            JS_FreeValue(s->ctx, JS_GetException(s->ctx));
            return;
        }
        face = p5_dom_face(name, len);
        JS_FreeCString(s->ctx, name);
    }
    if (face < 0) face = jg_font_resolve((const uint8_t *)"sans-serif", 10, 0);
    int32_t strut = jg_font_resolve((const uint8_t *)"serif", 5, 0);
    JgFontMetrics m, sm;
    if (face < 0 || jg_font_metrics((uint32_t)face, &m) != 0 || strut < 0 ||
        jg_font_metrics((uint32_t)strut, &sm) != 0)
        return;
    /* Blink's font metrics are Skia's hhea ascent, descent and line gap, each rounded
     * to whole pixels. p5 measures a span of the text's font beside an empty inline
     * block in a div of the page's font (16px of the standard family): the ascent is
     * the span's; the descent is the line box's bottom below the baseline, which is
     * the lower of the span's and the strut's, each with the lower half of its line
     * gap (the odd pixel goes below). */
    double px = st->text_size, k = px / m.units_per_em, sk = 16.0 / sm.units_per_em;
    double asc = p5_round_half_up(m.ascent * k), desc = p5_round_half_up(-m.descent * k);
    double gap = p5_round_half_up(m.line_gap * k);
    double sdesc = p5_round_half_up(-sm.descent * sk), sgap = p5_round_half_up(sm.line_gap * sk);
    *ascent = asc;
    *descent = fmax(desc + gap - floor(gap / 2), sdesc + sgap - floor(sgap / 2));
}

/* Where canvas puts the alphabetic baseline below y for the current textBaseline:
 * Blink's em box, the OS/2 typographic ascent and descent scaled to sum to the font
 * size, each in 1/64 px (LayoutUnit); hhea's when the font has no typographic ones. */
static double p5_baseline_shift(P5Shim *s, int baseline)
{
    JgFontMetrics m;
    if (baseline == P5_BASE_BASELINE || s->st.ctx_face < 0 ||
        jg_font_metrics((uint32_t)s->st.ctx_face, &m) != 0)
        return 0;
    float px = (float)s->st.ctx_px;
    float a = (float)m.typo_ascent, h = (float)(m.typo_ascent - m.typo_descent);
    if (h <= 0) {
        a = (float)m.ascent;
        h = (float)(m.ascent - m.descent);
    }
    if (h <= 0) return 0;
    double asc = roundf(a * px / h * 64.0f) / 64.0, desc = roundf(px * 64.0f) / 64.0 - asc;
    switch (baseline) {
    case P5_BASE_TOP: return asc;
    case P5_BASE_BOTTOM: return -desc;
    case P5_BASE_CENTER: return (asc - desc) / 2;
    default: return 0;
    }
}

/* ------------------------------------------------------------------ drawing */

/* Emits the shaped glyphs with the pen starting at x, baseline y: one JG_OP_TEXT per
 * run of glyphs from one face (glyph words are id | face << 16, see jg_font_shape). */
static int p5_emit_glyphs(P5Shim *s, size_t n, double x, double y, double upem)
{
    for (size_t i = 0; i < n; i++)
        if (p5_count_shape(s) < 0) return -1;
    float scale = (float)(s->st.ctx_px / upem), pen = 0;
    for (size_t a = 0; a < n;) {
        uint32_t face = s->line_glyphs[a] >> 16;
        size_t b = a + 1;
        while (b < n && s->line_glyphs[b] >> 16 == face) b++;
        uint32_t *p = p5_emit(s, JG_OP_TEXT, 2 + 3 * (uint32_t)(b - a), 1);
        if (!p) {
            JS_ThrowOutOfMemory(s->ctx);
            return -1;
        }
        p[0] = face;
        p[1] = p5_f32(s->st.ctx_px);
        for (size_t i = a; i < b; i++) {
            uint32_t *g = p + 2 + 3 * (i - a);
            g[0] = s->line_glyphs[i] & 0xFFFFu;
            g[1] = p5_f32(x + pen);
            g[2] = p5_f32(y);
            pen += (float)s->line_adv[i] * scale;
        }
        a = b;
    }
    return 0;
}

/* p5's _renderText for one line of code points at (x, y); minY/maxY bound the box. */
static int p5_render_line(P5Shim *s, const uint32_t *cps, size_t n, double x, double y, double max_y,
                          double min_y, int baseline)
{
    if (y < min_y || y >= max_y) return 0;
    int64_t g = p5_shape(s, cps, n);
    if (g < 0) return -1;
    double upem = p5_upem(s);
    double w = p5_advance_width(s, s->line_adv, (size_t)g, upem);
    if (s->st.text_align == P5_ALIGN_CENTER) x -= w / 2;
    else if (s->st.text_align == P5_ALIGN_RIGHT) x -= w;
    y += p5_baseline_shift(s, baseline);
    P5Style saved = s->st;
    int rc = 0;
    if (saved.do_stroke && saved.stroke_set) {
        s->st.do_fill = 0;
        rc = p5_emit_glyphs(s, (size_t)g, x, y, upem);
        s->st.do_fill = saved.do_fill;
    }
    if (!rc && saved.do_fill) {
        if (!saved.fill_set) s->st.fill = 0xFF000000u; /* _DEFAULT_TEXT_FILL */
        s->st.do_stroke = 0;
        rc = p5_emit_glyphs(s, (size_t)g, x, y, upem);
    }
    s->st.fill = saved.fill;
    s->st.do_fill = saved.do_fill;
    s->st.do_stroke = saved.do_stroke;
    return rc;
}

/* JS String.prototype.trim's white space (ASCII, NBSP, the Zs spaces, line
 * terminators, BOM). */
static int p5_is_js_space(uint32_t c)
{
    return c == 9 || c == 10 || c == 11 || c == 12 || c == 13 || c == 32 || c == 0xA0 ||
           c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

static void p5_trim(const uint32_t **cps, size_t *n)
{
    while (*n && p5_is_js_space((*cps)[0])) (*cps)++, (*n)--;
    while (*n && p5_is_js_space((*cps)[*n - 1])) (*n)--;
}

/* A growable line buffer for wrapped text (code points). */
typedef struct P5Buf {
    uint32_t *v;
    size_t n, cap;
} P5Buf;

static int p5_buf_put(P5Shim *s, P5Buf *b, const uint32_t *src, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n) cap *= 2;
        uint32_t *v = p5_realloc(s, b->v, cap * sizeof *v);
        if (!v) return -1;
        b->v = v;
        b->cap = cap;
    }
    memcpy(b->v + b->n, src, n * sizeof *src);
    b->n += n;
    return 0;
}

typedef struct P5TextCtx {
    P5Shim *s;
    double x, y, max_y, min_y, lead;
    int baseline;
} P5TextCtx;

/* A finished wrapped line: drawn (trimmed) at the running y minus off, which then
 * moves down a line, or only counted. */
static int p5_wrapped_line(P5TextCtx *c, const P5Buf *line, double off, int draw, int *count) {
    if (!draw) {
        (*count)++;
        return 0;
    }
    const uint32_t *t = line->v;
    size_t tn = line->n;
    p5_trim(&t, &tn);
    if (p5_render_line(c->s, t, tn, c->x, c->y - off, c->max_y, c->min_y, c->baseline)) return -1;
    c->y += c->lead;
    return 0;
}

/* Renderer.text's WORD wrapping of one source line, counting lines (count) or drawing. */
static int p5_wrap_words(P5TextCtx *c, const uint32_t *line, size_t n, double max_w, double off,
                         int draw, int *count, P5Buf *cur, P5Buf *test)
{
    P5Shim *s = c->s;
    static const uint32_t space = ' ';
    cur->n = 0;
    size_t a = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && line[i] != ' ') continue;
        /* testLine = line + word + ' ' */
        test->n = 0;
        if (p5_buf_put(s, test, cur->v, cur->n) || p5_buf_put(s, test, line + a, i - a) ||
            p5_buf_put(s, test, &space, 1))
            goto oom;
        double w;
        if (p5_measure(s, test->v, test->n, &w)) return -1;
        if (w > max_w && cur->n > 0) {
            if (p5_wrapped_line(c, cur, off, draw, count)) return -1;
            cur->n = 0;
            if (p5_buf_put(s, cur, line + a, i - a) || p5_buf_put(s, cur, &space, 1)) goto oom;
        } else {
            cur->n = 0;
            if (p5_buf_put(s, cur, test->v, test->n)) goto oom;
        }
        a = i + 1;
    }
    if (p5_wrapped_line(c, cur, off, draw, count)) return -1;
    return 0;
oom:
    JS_ThrowOutOfMemory(s->ctx);
    return -1;
}

/* One pass of p5 1.11's CHAR wrapping over the source lines of cps: a line breaks
 * before the character that would make it wider than max_w; on each break, counts
 * it (render 0) or draws it at the running y minus off (render 1). Each source
 * line starts afresh, so only the last one's tail is left in cur for the caller. */
static int p5_wrap_chars(P5TextCtx *c, const uint32_t *cps, size_t n, double max_w, double off,
                         int render, int *count, P5Buf *cur, P5Buf *test) {
    P5Shim *s = c->s;
    int rc = 0;
    size_t a = 0;
    cur->n = 0;
    for (size_t i = 0; i <= n && !rc; i++) {
        if (i < n && cps[i] != '\n') continue;
        cur->n = 0;
        for (size_t k = a; k < i && !rc; k++) {
            test->n = 0;
            double w;
            if (p5_buf_put(s, test, cur->v, cur->n) || p5_buf_put(s, test, cps + k, 1)) {
                JS_ThrowOutOfMemory(s->ctx);
                return -1;
            }
            if ((rc = p5_measure(s, test->v, test->n, &w))) break;
            if (w <= max_w) {
                rc = p5_buf_put(s, cur, cps + k, 1);
                continue;
            }
            if (cur->n == 0) continue;
            if ((rc = p5_wrapped_line(c, cur, off, render, count))) break;
            cur->n = 0;
            rc = p5_buf_put(s, cur, cps + k, 1);
        }
        a = i + 1;
    }
    return rc;
}

static JSValue js_p5_text(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    P5Style *st = &s->st;
    double x, y, max_w = NAN, max_h = NAN;
    s->calls++;
    if (!st->do_fill && !st->do_stroke) return JS_UNDEFINED;
    if (argc < 1 || JS_IsUndefined(argv[0])) return JS_UNDEFINED;
    if (p5_arg(ctx, &x, argc, argv, 1) || p5_arg(ctx, &y, argc, argv, 2)) return JS_EXCEPTION;
    int boxed = argc > 3 && !JS_IsUndefined(argv[3]);
    if (boxed && p5_num(ctx, &max_w, argv[3])) return JS_EXCEPTION;
    int has_h = boxed && argc > 4 && !JS_IsUndefined(argv[4]);
    if (has_h && p5_num(ctx, &max_h, argv[4])) return JS_EXCEPTION;
    JSValue str = JS_ToString(ctx, argv[0]); /* str.toString() */
    if (JS_IsException(str)) return str;
    size_t len;
    const char *t = JS_ToCStringLen(ctx, &len, str);
    JS_FreeValue(ctx, str);
    if (!t) return JS_EXCEPTION;
    if (len > P5_MAX_TEXT_CHARS) {
        JS_FreeCString(ctx, t);
        return JS_ThrowRangeError(ctx, "jsgym: text() string longer than %d characters", P5_MAX_TEXT_CHARS);
    }
    /* str.replace(/\t/g, '  '): decode with room for every tab doubling */
    uint32_t *cps = p5_realloc(s, NULL, (2 * len + 1) * sizeof *cps);
    if (!cps) {
        JS_FreeCString(ctx, t);
        return JS_ThrowOutOfMemory(ctx);
    }
    size_t n = 0;
    {
        size_t m = p5_utf8_decode(t, len, cps + len);
        for (size_t i = 0; i < m; i++) {
            uint32_t c = cps[len + i];
            if (c == '\t') { cps[n++] = ' '; cps[n++] = ' '; }
            else cps[n++] = c;
        }
    }
    JS_FreeCString(ctx, t);
    /* Renderer2D.text's baselineHacked: BASELINE becomes TOP inside a box */
    int baseline = st->text_baseline;
    if (boxed && baseline == P5_BASE_BASELINE) baseline = P5_BASE_TOP;
    P5TextCtx c = {s, x, y, INFINITY, y, st->text_leading, baseline};
    int rc = 0;
    int n_src = 1;
    for (size_t i = 0; i < n; i++) n_src += cps[i] == '\n';
    P5Buf cur = {0}, test = {0};
    if (boxed) {
        if (st->rect_mode == P5_MODE_CENTER) c.x -= max_w / 2;
        if (st->text_align == P5_ALIGN_CENTER) c.x += max_w / 2;
        else if (st->text_align == P5_ALIGN_RIGHT) c.x += max_w;
        double asc, desc;
        if (has_h) {
            if (st->rect_mode == P5_MODE_CENTER) {
                c.y -= max_h / 2;
                c.min_y -= max_h / 2;
            }
            double original_y = c.y;
            p5_dom_metrics(s, &asc, &desc);
            if (st->text_baseline == P5_BASE_BOTTOM) {
                c.y = fmax(c.y + max_h, c.y);
                c.min_y += asc;
            } else if (st->text_baseline == P5_BASE_CENTER) {
                c.y = fmax(c.y + max_h / 2, c.y);
                c.min_y += asc / 2;
            }
            c.max_y = c.y + max_h - asc;
            if (st->text_baseline == P5_BASE_CENTER) c.max_y = original_y + max_h - asc / 2;
        } else if (st->text_baseline == P5_BASE_BOTTOM || st->text_baseline == P5_BASE_CENTER) {
            double rect_h = st->text_size * st->text_leading;
            c.min_y = c.y - rect_h / 2;
            c.max_y = c.y + rect_h / 2;
        }
        if (!st->text_wrap_char) {
            /* count the wrapped lines, then draw them */
            int count = 0;
            size_t a = 0;
            for (size_t i = 0; i <= n && !rc; i++)
                if (i == n || cps[i] == '\n') {
                    rc = p5_wrap_words(&c, cps + a, i - a, max_w, 0, 0, &count, &cur, &test);
                    a = i + 1;
                }
            double off = 0;
            if (st->text_baseline == P5_BASE_CENTER) off = (count - 1) * st->text_leading / 2;
            else if (st->text_baseline == P5_BASE_BOTTOM) off = (count - 1) * st->text_leading;
            a = 0;
            for (size_t i = 0; i <= n && !rc; i++)
                if (i == n || cps[i] == '\n') {
                    rc = p5_wrap_words(&c, cps + a, i - a, max_w, off, 1, &count, &cur, &test);
                    a = i + 1;
                }
        } else {
            /* CHAR: as p5 1.11, a source line's last part is drawn only for the last
             * source line (and counted once) */
            int count = 0;
            rc = p5_wrap_chars(&c, cps, n, max_w, 0, 0, &count, &cur, &test);
            count++;
            double off = 0;
            if (st->text_baseline == P5_BASE_CENTER) off = (count - 1) * st->text_leading / 2;
            else if (st->text_baseline == P5_BASE_BOTTOM) off = (count - 1) * st->text_leading;
            if (!rc) rc = p5_wrap_chars(&c, cps, n, max_w, off, 1, &count, &cur, &test);
            if (!rc) rc = p5_wrapped_line(&c, &cur, off, 1, &count);
        }
    } else {
        double off = 0;
        if (st->text_baseline == P5_BASE_CENTER) off = (n_src - 1) * st->text_leading / 2;
        else if (st->text_baseline == P5_BASE_BOTTOM) off = (n_src - 1) * st->text_leading;
        size_t a = 0;
        for (size_t i = 0; i <= n && !rc; i++) {
            if (i < n && cps[i] != '\n') continue;
            rc = p5_render_line(s, cps + a, i - a, c.x, c.y - off, c.max_y, c.min_y - off, c.baseline);
            c.y += c.lead;
            a = i + 1;
        }
    }
    p5_realloc(s, cur.v, 0);
    p5_realloc(s, test.v, 0);
    p5_realloc(s, cps, 0);
    return rc ? JS_EXCEPTION : JS_UNDEFINED;
}

/* p5.prototype.textWidth: args[0] += ''; tabs as two spaces; the widest of its lines
 * (split at \r\n, \r and \n). */
static JSValue js_p5_text_width(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    JSValue str = JS_ToString(ctx, argc > 0 ? argv[0] : JS_UNDEFINED);
    if (JS_IsException(str)) return str;
    size_t len;
    const char *t = JS_ToCStringLen(ctx, &len, str);
    JS_FreeValue(ctx, str);
    if (!t) return JS_EXCEPTION;
    if (len == 0) {
        JS_FreeCString(ctx, t);
        return JS_NewInt32(ctx, 0);
    }
    uint32_t *cps = p5_realloc(s, NULL, (2 * len + 1) * sizeof *cps);
    if (!cps) {
        JS_FreeCString(ctx, t);
        return JS_ThrowOutOfMemory(ctx);
    }
    size_t m = p5_utf8_decode(t, len, cps + len), n = 0;
    JS_FreeCString(ctx, t);
    for (size_t i = 0; i < m; i++) {
        uint32_t c = cps[len + i];
        if (c == '\t') { cps[n++] = ' '; cps[n++] = ' '; }
        else cps[n++] = c;
    }
    double best = -INFINITY;
    size_t a = 0;
    int rc = 0;
    for (size_t i = 0; i <= n && !rc; i++) {
        if (i < n && cps[i] != '\n' && cps[i] != '\r') continue;
        double w;
        rc = p5_measure(s, cps + a, i - a, &w);
        if (!rc && w > best) best = w;
        if (i < n && cps[i] == '\r' && i + 1 < n && cps[i + 1] == '\n') i++;
        a = i + 1;
    }
    p5_realloc(s, cps, 0);
    return rc ? JS_EXCEPTION : p5_new_number(ctx, best);
}

enum { P5_T_SIZE, P5_T_LEADING, P5_T_ALIGN, P5_T_STYLE, P5_T_FONT, P5_T_WRAP, P5_T_ASCENT,
       P5_T_DESCENT };

static JSValue js_p5_text_state(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                int magic)
{
    P5Shim *s = p5_shim(ctx);
    P5Style *st = &s->st;
    static const char *const aligns[3] = {"left", "center", "right"};
    static const char *const bases[4] = {"alphabetic", "top", "bottom", "center"};
    static const char *const styles[4] = {"normal", "italic", "bold", "bold italic"};
    double d, asc, desc;
    s->calls++;
    switch (magic) {
    case P5_T_SIZE:
        if (argc < 1 || !JS_IsNumber(argv[0])) return p5_new_number(ctx, st->text_size);
        if (p5_num(ctx, &d, argv[0])) return JS_EXCEPTION;
        st->text_size = d;
        if (!st->leading_set) st->text_leading = d * 1.25;
        p5_text_apply(s);
        return JS_UNDEFINED;
    case P5_T_LEADING:
        if (argc < 1 || !JS_IsNumber(argv[0])) return p5_new_number(ctx, st->text_leading);
        if (p5_num(ctx, &d, argv[0])) return JS_EXCEPTION;
        st->leading_set = 1;
        st->text_leading = d;
        return JS_UNDEFINED;
    case P5_T_ALIGN:
        if (argc < 1 || JS_IsUndefined(argv[0])) {
            JSValue o = JS_NewObject(ctx);
            if (JS_IsException(o)) return o;
            JS_SetPropertyStr(ctx, o, "horizontal", JS_NewString(ctx, aligns[st->text_align]));
            JS_SetPropertyStr(ctx, o, "vertical", JS_NewString(ctx, bases[st->text_baseline]));
            return o;
        }
        for (int i = 0; i < 3; i++)
            if (p5_str_eq(ctx, argv[0], aligns[i])) st->text_align = (uint8_t)i;
        if (argc > 1 && !JS_IsUndefined(argv[1]))
            for (int i = 0; i < 4; i++)
                if (p5_str_eq(ctx, argv[1], bases[i])) st->text_baseline = (uint8_t)i;
        p5_text_apply(s);
        return JS_UNDEFINED;
    case P5_T_STYLE:
        if (argc < 1 || !JS_ToBool(ctx, argv[0])) return JS_NewString(ctx, styles[st->text_style]);
        for (int i = 0; i < 4; i++)
            if (p5_str_eq(ctx, argv[0], styles[i])) st->text_style = (uint8_t)i;
        p5_text_apply(s);
        return JS_UNDEFINED;
    case P5_T_FONT:
        if (argc < 1) return JS_DupValue(ctx, st->text_font);
        if (!JS_ToBool(ctx, argv[0])) return JS_ThrowTypeError(ctx, "null font passed to textFont");
        JS_FreeValue(ctx, st->text_font);
        st->text_font = JS_DupValue(ctx, argv[0]);
        if (argc > 1 && JS_ToBool(ctx, argv[1])) {
            if (p5_num(ctx, &d, argv[1])) return JS_EXCEPTION;
            st->text_size = d;
            if (!st->leading_set) st->text_leading = d * 1.25;
        }
        p5_text_apply(s);
        return JS_UNDEFINED;
    case P5_T_WRAP:
        if (argc > 0) st->text_wrap_char = (uint8_t)p5_str_eq(ctx, argv[0], "CHAR");
        return JS_NewString(ctx, st->text_wrap_char ? "CHAR" : "WORD");
    case P5_T_ASCENT:
        p5_dom_metrics(s, &asc, &desc);
        return p5_new_number(ctx, asc);
    case P5_T_DESCENT:
        p5_dom_metrics(s, &asc, &desc);
        return p5_new_number(ctx, desc);
    }
    return JS_UNDEFINED;
}

static const JSCFunctionListEntry p5_text_funcs[] = {
    JS_CFUNC_DEF("text", 5, js_p5_text),
    JS_CFUNC_DEF("textWidth", 1, js_p5_text_width),
    JS_CFUNC_MAGIC_DEF("textSize", 1, js_p5_text_state, P5_T_SIZE),
    JS_CFUNC_MAGIC_DEF("textLeading", 1, js_p5_text_state, P5_T_LEADING),
    JS_CFUNC_MAGIC_DEF("textAlign", 2, js_p5_text_state, P5_T_ALIGN),
    JS_CFUNC_MAGIC_DEF("textStyle", 1, js_p5_text_state, P5_T_STYLE),
    JS_CFUNC_MAGIC_DEF("textFont", 2, js_p5_text_state, P5_T_FONT),
    JS_CFUNC_MAGIC_DEF("textWrap", 1, js_p5_text_state, P5_T_WRAP),
    JS_CFUNC_MAGIC_DEF("textAscent", 0, js_p5_text_state, P5_T_ASCENT),
    JS_CFUNC_MAGIC_DEF("textDescent", 0, js_p5_text_state, P5_T_DESCENT),
};

int p5_install_text(JSContext *ctx, JSValueConst global)
{
    return JS_SetPropertyFunctionList(ctx, global, p5_text_funcs,
                                      (int)(sizeof p5_text_funcs / sizeof p5_text_funcs[0]));
}

void p5_text_free(P5Shim *s)
{
    JS_FreeValue(s->ctx, s->face_memo_font);
    s->face_memo_font = JS_UNDEFINED;
    p5_realloc(s, s->line_cps, 0);
    p5_realloc(s, s->line_glyphs, 0);
    p5_realloc(s, s->line_adv, 0);
    s->line_cps = s->line_glyphs = NULL;
    s->line_adv = NULL;
    s->line_cap = 0;
}
