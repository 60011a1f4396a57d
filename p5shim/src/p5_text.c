/* p5 typography with a built-in bitmap font (jsgym's own 5x9 design: 5 columns,
 * 7 rows above the baseline, 2 descender rows), emitted as JG_OP_RECT runs in the
 * text colour. p5 draws system fonts we cannot reproduce, so text is approximate by
 * design: one font unit u = textSize / 10, every printable ASCII glyph advances
 * 6u = 0.6 em (close to the average advance of a sans-serif font), capitals are
 * 7u = 0.7 em tall. Vertical metrics follow canvas's em box: ascent 0.8 em,
 * descent 0.2 em (textAscent()/textDescent() return these), so TOP puts the
 * baseline 0.8 em below y, CENTER ('middle') 0.3 em below, BOTTOM 0.2 em above.
 * Characters outside printable ASCII advance without drawing.
 *
 * Text state (textSize, textLeading and its "set" flag, textAlign, textStyle,
 * textFont, textWrap) follows p5 1.11's Renderer and is saved by push().
 * Not implemented: word wrapping inside text(str, x, y, w, h) boxes (the box only
 * shifts x/y as p5 does for alignment), bold/italic rendering, text stroke.
 */
#include <stdlib.h>

#include "p5_internal.h"

#define P5_GLYPH_W 5
#define P5_GLYPH_H 9
#define P5_GLYPH_ABOVE 7
#define P5_ADVANCE_EM 0.6
#define P5_ASCENT_EM 0.8
#define P5_DESCENT_EM 0.2

/* rows top to bottom, bit 4 = leftmost column; ASCII 32..126 */
static const uint8_t p5_font[95][P5_GLYPH_H] = {
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, /* ' ' */
    {0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04, 0x00, 0x00}, /* '!' */
    {0x0a, 0x0a, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, /* '"' */
    {0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a, 0x00, 0x00}, /* '#' */
    {0x04, 0x0f, 0x14, 0x0e, 0x05, 0x1e, 0x04, 0x00, 0x00}, /* '$' */
    {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03, 0x00, 0x00}, /* '%' */
    {0x0c, 0x12, 0x14, 0x08, 0x15, 0x12, 0x0d, 0x00, 0x00}, /* '&' */
    {0x04, 0x04, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, /* ''' */
    {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02, 0x00, 0x00}, /* '(' */
    {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08, 0x00, 0x00}, /* ')' */
    {0x00, 0x04, 0x15, 0x0e, 0x15, 0x04, 0x00, 0x00, 0x00}, /* '*' */
    {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00, 0x00, 0x00}, /* '+' */
    {0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08, 0x00, 0x00}, /* ',' */
    {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00, 0x00, 0x00}, /* '-' */
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c, 0x00, 0x00}, /* '.' */
    {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00, 0x00, 0x00}, /* '/' */
    {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e, 0x00, 0x00}, /* '0' */
    {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e, 0x00, 0x00}, /* '1' */
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f, 0x00, 0x00}, /* '2' */
    {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e, 0x00, 0x00}, /* '3' */
    {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02, 0x00, 0x00}, /* '4' */
    {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e, 0x00, 0x00}, /* '5' */
    {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e, 0x00, 0x00}, /* '6' */
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08, 0x00, 0x00}, /* '7' */
    {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e, 0x00, 0x00}, /* '8' */
    {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c, 0x00, 0x00}, /* '9' */
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00, 0x00, 0x00}, /* ':' */
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x04, 0x08, 0x00, 0x00}, /* ';' */
    {0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02, 0x00, 0x00}, /* '<' */
    {0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00, 0x00, 0x00}, /* '=' */
    {0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08, 0x00, 0x00}, /* '>' */
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04, 0x00, 0x00}, /* '?' */
    {0x0e, 0x11, 0x01, 0x0d, 0x15, 0x15, 0x0e, 0x00, 0x00}, /* '@' */
    {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11, 0x00, 0x00}, /* 'A' */
    {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e, 0x00, 0x00}, /* 'B' */
    {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e, 0x00, 0x00}, /* 'C' */
    {0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c, 0x00, 0x00}, /* 'D' */
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f, 0x00, 0x00}, /* 'E' */
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10, 0x00, 0x00}, /* 'F' */
    {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f, 0x00, 0x00}, /* 'G' */
    {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11, 0x00, 0x00}, /* 'H' */
    {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e, 0x00, 0x00}, /* 'I' */
    {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c, 0x00, 0x00}, /* 'J' */
    {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11, 0x00, 0x00}, /* 'K' */
    {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f, 0x00, 0x00}, /* 'L' */
    {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11, 0x00, 0x00}, /* 'M' */
    {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11, 0x00, 0x00}, /* 'N' */
    {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e, 0x00, 0x00}, /* 'O' */
    {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10, 0x00, 0x00}, /* 'P' */
    {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d, 0x00, 0x00}, /* 'Q' */
    {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11, 0x00, 0x00}, /* 'R' */
    {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e, 0x00, 0x00}, /* 'S' */
    {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x00}, /* 'T' */
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e, 0x00, 0x00}, /* 'U' */
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04, 0x00, 0x00}, /* 'V' */
    {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a, 0x00, 0x00}, /* 'W' */
    {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11, 0x00, 0x00}, /* 'X' */
    {0x11, 0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x00, 0x00}, /* 'Y' */
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f, 0x00, 0x00}, /* 'Z' */
    {0x0e, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0e, 0x00, 0x00}, /* '[' */
    {0x00, 0x10, 0x08, 0x04, 0x02, 0x01, 0x00, 0x00, 0x00}, /* '\' */
    {0x0e, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0e, 0x00, 0x00}, /* ']' */
    {0x04, 0x0a, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, /* '^' */
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f, 0x00, 0x00}, /* '_' */
    {0x08, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, /* '`' */
    {0x00, 0x00, 0x0e, 0x01, 0x0f, 0x11, 0x0f, 0x00, 0x00}, /* 'a' */
    {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1e, 0x00, 0x00}, /* 'b' */
    {0x00, 0x00, 0x0e, 0x10, 0x10, 0x11, 0x0e, 0x00, 0x00}, /* 'c' */
    {0x01, 0x01, 0x0d, 0x13, 0x11, 0x11, 0x0f, 0x00, 0x00}, /* 'd' */
    {0x00, 0x00, 0x0e, 0x11, 0x1f, 0x10, 0x0e, 0x00, 0x00}, /* 'e' */
    {0x06, 0x09, 0x08, 0x1c, 0x08, 0x08, 0x08, 0x00, 0x00}, /* 'f' */
    {0x00, 0x00, 0x0f, 0x11, 0x11, 0x11, 0x0f, 0x01, 0x0e}, /* 'g' */
    {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11, 0x00, 0x00}, /* 'h' */
    {0x04, 0x00, 0x0c, 0x04, 0x04, 0x04, 0x0e, 0x00, 0x00}, /* 'i' */
    {0x02, 0x00, 0x06, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c}, /* 'j' */
    {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12, 0x00, 0x00}, /* 'k' */
    {0x0c, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e, 0x00, 0x00}, /* 'l' */
    {0x00, 0x00, 0x1a, 0x15, 0x15, 0x11, 0x11, 0x00, 0x00}, /* 'm' */
    {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11, 0x00, 0x00}, /* 'n' */
    {0x00, 0x00, 0x0e, 0x11, 0x11, 0x11, 0x0e, 0x00, 0x00}, /* 'o' */
    {0x00, 0x00, 0x1e, 0x11, 0x11, 0x11, 0x1e, 0x10, 0x10}, /* 'p' */
    {0x00, 0x00, 0x0f, 0x11, 0x11, 0x11, 0x0f, 0x01, 0x01}, /* 'q' */
    {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10, 0x00, 0x00}, /* 'r' */
    {0x00, 0x00, 0x0e, 0x10, 0x0e, 0x01, 0x1e, 0x00, 0x00}, /* 's' */
    {0x08, 0x08, 0x1c, 0x08, 0x08, 0x09, 0x06, 0x00, 0x00}, /* 't' */
    {0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0d, 0x00, 0x00}, /* 'u' */
    {0x00, 0x00, 0x11, 0x11, 0x11, 0x0a, 0x04, 0x00, 0x00}, /* 'v' */
    {0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0a, 0x00, 0x00}, /* 'w' */
    {0x00, 0x00, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x00, 0x00}, /* 'x' */
    {0x00, 0x00, 0x11, 0x11, 0x11, 0x11, 0x0f, 0x01, 0x0e}, /* 'y' */
    {0x00, 0x00, 0x1f, 0x02, 0x04, 0x08, 0x1f, 0x00, 0x00}, /* 'z' */
    {0x02, 0x04, 0x04, 0x08, 0x04, 0x04, 0x02, 0x00, 0x00}, /* '{' */
    {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x00}, /* '|' */
    {0x08, 0x04, 0x04, 0x02, 0x04, 0x04, 0x08, 0x00, 0x00}, /* '}' */
    {0x00, 0x00, 0x08, 0x15, 0x02, 0x00, 0x00, 0x00, 0x00}, /* '~' */
};

/* Emits one glyph at (x, top) with unit u: horizontal runs, merged downwards
 * with identical runs of the following rows (fewer rects, no seams inside
 * vertical strokes). */
static int p5_emit_glyph(P5Shim *s, int ch, double x, double top, double u)
{
    const uint8_t *g = p5_font[ch - 32];
    uint8_t used[P5_GLYPH_H] = {0};
    for (int r = 0; r < P5_GLYPH_H; r++) {
        uint8_t bits = g[r] & (uint8_t)~used[r];
        int c = 0;
        while (c < P5_GLYPH_W) {
            int bit = P5_GLYPH_W - 1 - c;
            if (!(bits >> bit & 1)) { c++; continue; }
            int c1 = c;
            while (c1 < P5_GLYPH_W && (bits >> (P5_GLYPH_W - 1 - c1) & 1)) c1++;
            uint8_t mask = (uint8_t)(((1u << (c1 - c)) - 1) << (P5_GLYPH_W - c1));
            /* a run is a maximal run of its row; extend while the next row has it too */
            int r1 = r + 1;
            while (r1 < P5_GLYPH_H && (g[r1] & mask) == mask && !(used[r1] & mask) &&
                   (c == 0 || !(g[r1] >> (P5_GLYPH_W - c) & 1)) &&
                   (c1 == P5_GLYPH_W || !(g[r1] >> (P5_GLYPH_W - 1 - c1) & 1))) {
                used[r1] |= mask;
                r1++;
            }
            if (p5_count_shape(s) < 0) return -1;
            uint32_t *p = p5_emit(s, JG_OP_RECT, 8, 1);
            if (!p) {
                JS_ThrowOutOfMemory(s->ctx);
                return -1;
            }
            p[0] = p5_f32(x + c * u);
            p[1] = p5_f32(top + r * u);
            p[2] = p5_f32((c1 - c) * u);
            p[3] = p5_f32((r1 - r) * u);
            p[4] = p[5] = p[6] = p[7] = 0;
            c = c1;
        }
    }
    return 0;
}

/* Number of characters of a UTF-8 line as JS counts them (UTF-16 units), tabs
 * counting as two (p5 replaces them with two spaces). */
static double p5_line_chars(const char *t, size_t n)
{
    double k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '\t') k += 2;
        else if ((c & 0xC0) != 0x80) k += (c >= 0xF0) ? 2 : 1;
    }
    return k;
}

static int p5_draw_line(P5Shim *s, const char *t, size_t n, double x, double y)
{
    double size = s->st.text_size, u = size / 10, adv = P5_ADVANCE_EM * size;
    double w = p5_line_chars(t, n) * adv;
    if (s->st.text_align == P5_ALIGN_CENTER) x -= w / 2;
    else if (s->st.text_align == P5_ALIGN_RIGHT) x -= w;
    switch (s->st.text_baseline) {
    case P5_BASE_TOP: y += P5_ASCENT_EM * size; break;
    case P5_BASE_CENTER: y += (P5_ASCENT_EM - 0.5) * size; break;
    case P5_BASE_BOTTOM: y -= P5_DESCENT_EM * size; break;
    default: break;
    }
    double top = y - P5_GLYPH_ABOVE * u;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '\t') { x += 2 * adv; continue; }
        if ((c & 0xC0) == 0x80) continue;
        if (c > 32 && c < 127 && p5_emit_glyph(s, c, x, top, u)) return -1;
        x += (c >= 0xF0) ? 2 * adv : adv;
    }
    return 0;
}

static JSValue js_p5_text(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    double x, y, bw = NAN, bh = NAN;
    s->calls++;
    if (!s->st.do_fill && !s->st.do_stroke) return JS_UNDEFINED;
    if (argc < 1 || JS_IsUndefined(argv[0])) return JS_UNDEFINED;
    if (p5_arg(ctx, &x, argc, argv, 1) || p5_arg(ctx, &y, argc, argv, 2)) return JS_EXCEPTION;
    int boxed = argc > 3 && !JS_IsUndefined(argv[3]);
    if (boxed && p5_num(ctx, &bw, argv[3])) return JS_EXCEPTION;
    if (argc > 4 && !JS_IsUndefined(argv[4]) && p5_num(ctx, &bh, argv[4])) return JS_EXCEPTION;
    size_t len;
    const char *t = JS_ToCStringLen(ctx, &len, argv[0]);
    if (!t) return JS_EXCEPTION;
    if (len > P5_MAX_TEXT_CHARS) {
        JS_FreeCString(ctx, t);
        return JS_ThrowRangeError(ctx, "jsgym: text() string longer than %d characters", P5_MAX_TEXT_CHARS);
    }
    /* _renderText: text is filled only (bitmap font: no stroke), in black when
     * fill() was never called */
    P5Style saved = s->st;
    int baseline = s->st.text_baseline;
    if (boxed) {
        /* the x/y shifts p5 applies inside a box (no wrapping here) */
        if (s->st.rect_mode == P5_MODE_CENTER) x -= bw / 2;
        if (s->st.text_align == P5_ALIGN_CENTER) x += bw / 2;
        else if (s->st.text_align == P5_ALIGN_RIGHT) x += bw;
        if (!isnan(bh)) {
            if (s->st.rect_mode == P5_MODE_CENTER) y -= bh / 2;
            if (baseline == P5_BASE_BOTTOM) y = fmax(y + bh, y);
            else if (baseline == P5_BASE_CENTER) y = fmax(y + bh / 2, y);
        }
        if (baseline == P5_BASE_BASELINE) s->st.text_baseline = P5_BASE_TOP; /* p5's baselineHacked */
    }
    int n_lines = 1;
    for (size_t i = 0; i < len; i++) n_lines += t[i] == '\n';
    double lead = s->st.text_leading, off = 0;
    if (s->st.text_baseline == P5_BASE_CENTER) off = (n_lines - 1) * lead / 2;
    else if (s->st.text_baseline == P5_BASE_BOTTOM) off = (n_lines - 1) * lead;
    int err = 0;
    if (s->st.do_fill) {
        s->st.fill = s->st.fill_set ? s->st.fill : 0xFF000000u;
        s->st.do_stroke = 0;
        size_t a = 0;
        for (size_t i = 0; i <= len && !err; i++) {
            if (i == len || t[i] == '\n') {
                err = p5_draw_line(s, t + a, i - a, x, y - off);
                y += lead;
                a = i + 1;
            }
        }
    }
    JS_FreeCString(ctx, t);
    s->st.fill = saved.fill;
    s->st.do_stroke = saved.do_stroke;
    s->st.text_baseline = saved.text_baseline;
    return err ? JS_EXCEPTION : JS_UNDEFINED;
}

static JSValue js_p5_text_width(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    JSValue str = JS_ToString(ctx, argc > 0 ? argv[0] : JS_UNDEFINED); /* args[0] += '' */
    if (JS_IsException(str)) return str;
    size_t len;
    const char *t = JS_ToCStringLen(ctx, &len, str);
    JS_FreeValue(ctx, str);
    if (!t) return JS_EXCEPTION;
    double best = 0;
    size_t a = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || t[i] == '\n' || t[i] == '\r') {
            double w = p5_line_chars(t + a, i - a) * P5_ADVANCE_EM * s->st.text_size;
            if (w > best) best = w;
            if (i < len && t[i] == '\r' && i + 1 < len && t[i + 1] == '\n') i++;
            a = i + 1;
        }
    }
    JS_FreeCString(ctx, t);
    return p5_new_number(ctx, best);
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
    double d;
    s->calls++;
    switch (magic) {
    case P5_T_SIZE:
        if (argc < 1 || !JS_IsNumber(argv[0])) return p5_new_number(ctx, st->text_size);
        if (p5_num(ctx, &d, argv[0])) return JS_EXCEPTION;
        st->text_size = d;
        if (!st->leading_set) st->text_leading = d * 1.25;
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
        return JS_UNDEFINED;
    case P5_T_STYLE:
        if (argc < 1 || !JS_ToBool(ctx, argv[0])) return JS_NewString(ctx, styles[st->text_style]);
        for (int i = 0; i < 4; i++)
            if (p5_str_eq(ctx, argv[0], styles[i])) st->text_style = (uint8_t)i;
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
        return JS_UNDEFINED;
    case P5_T_WRAP:
        if (argc > 0) st->text_wrap_char = (uint8_t)p5_str_eq(ctx, argv[0], "CHAR");
        return JS_NewString(ctx, st->text_wrap_char ? "CHAR" : "WORD");
    case P5_T_ASCENT: return p5_new_number(ctx, P5_ASCENT_EM * st->text_size);
    case P5_T_DESCENT: return p5_new_number(ctx, P5_DESCENT_EM * st->text_size);
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
