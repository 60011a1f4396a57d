/* p5 shapes: rect, square, ellipse, circle, arc, line, point, triangle, quad,
 * beginShape/vertex/bezierVertex/quadraticVertex/curveVertex/beginContour/
 * endContour/endShape, bezier, curve.
 *
 * Every p5 mode is resolved here exactly as p5 1.11 does before it calls canvas 2D
 * (helpers.modeAdjust, _normalizeArcAngles, Renderer2D.rect's radius clamping,
 * Renderer2D.endShape's per-kind paths, Catmull-Rom to cubic conversion), so the
 * rasterizer only sees canvas-2D geometry in user units plus the current matrix.
 * The shape under construction is shim state, like p5's module-level `vertices`.
 */
#include <stdlib.h>

#include "p5_internal.h"

/* ------------------------------------------------------------------ path writer */

/* The writer appends to the open PATH command that starts at path_start. */
typedef struct {
    size_t start;
    int nverbs;
    int segs;
    uint8_t has_current, need_move;
    double sx, sy, cx, cy;
} P5Path;

static int p5_put(P5Shim *s, P5Path *pp, uint32_t verb, int n, const double *c)
{
    if (s->cmd_len + 1 + (size_t)n > s->cmd_cap) {
        size_t cap = s->cmd_cap ? s->cmd_cap : 4096;
        while (cap < s->cmd_len + 1 + (size_t)n) cap *= 2;
        uint32_t *np = (uint32_t *)p5_realloc(s, s->cmd, cap * sizeof(uint32_t));
        if (!np) return -1;
        s->cmd = np;
        s->cmd_cap = cap;
    }
    uint32_t *w = s->cmd + s->cmd_len;
    w[0] = verb;
    for (int i = 0; i < n; i++) w[1 + i] = p5_f32(c[i]);
    s->cmd_len += 1 + (size_t)n;
    pp->nverbs++;
    return 0;
}

static int p5_path_begin(P5Shim *s, P5Path *pp)
{
    if (p5_count_shape(s) < 0) return -1;
    if (!p5_emit(s, JG_OP_PATH, 0, 1)) {
        JS_ThrowOutOfMemory(s->ctx);
        return -1;
    }
    memset(pp, 0, sizeof *pp);
    pp->start = s->cmd_len - (2 + JG_STYLE_WORDS);
    return 0;
}

static int p5_path_end(P5Shim *s, P5Path *pp)
{
    if (pp->nverbs == 0) s->cmd_len = pp->start; /* nothing to draw */
    else s->cmd[pp->start + 1] = (uint32_t)(s->cmd_len - pp->start);
    return 0;
}

static int p5_moveto(P5Shim *s, P5Path *pp, double x, double y)
{
    double c[2] = {x, y};
    pp->has_current = 1;
    pp->need_move = 0;
    pp->segs = 0;
    pp->sx = pp->cx = x;
    pp->sy = pp->cy = y;
    return p5_put(s, pp, JG_VERB_MOVE, 2, c);
}

/* canvas: a segment after closePath() starts a new subpath at the closed one's start */
static int p5_ensure_subpath(P5Shim *s, P5Path *pp, double x, double y)
{
    if (!pp->has_current) return p5_moveto(s, pp, x, y);
    if (pp->need_move) return p5_moveto(s, pp, pp->sx, pp->sy);
    return 0;
}

static int p5_lineto(P5Shim *s, P5Path *pp, double x, double y)
{
    if (!pp->has_current) return p5_moveto(s, pp, x, y); /* lineTo on an empty path */
    if (p5_ensure_subpath(s, pp, x, y)) return -1;
    /* a repeated point adds nothing once the subpath has a segment (p5 repeats the
     * first vertex twice for endShape(CLOSE)) */
    if (pp->segs > 0 && x == pp->cx && y == pp->cy) return 0;
    double c[2] = {x, y};
    pp->cx = x;
    pp->cy = y;
    pp->segs++;
    return p5_put(s, pp, JG_VERB_LINE, 2, c);
}

static int p5_cubicto(P5Shim *s, P5Path *pp, const double *c)
{
    if (p5_ensure_subpath(s, pp, c[0], c[1])) return -1;
    pp->cx = c[4];
    pp->cy = c[5];
    pp->segs++;
    return p5_put(s, pp, JG_VERB_CUBIC, 6, c);
}

static int p5_quadto(P5Shim *s, P5Path *pp, const double *c)
{
    if (p5_ensure_subpath(s, pp, c[0], c[1])) return -1;
    pp->cx = c[2];
    pp->cy = c[3];
    pp->segs++;
    return p5_put(s, pp, JG_VERB_QUAD, 4, c);
}

static int p5_closepath(P5Shim *s, P5Path *pp)
{
    if (!pp->has_current || pp->need_move) return 0;
    pp->need_move = 1;
    pp->cx = pp->sx;
    pp->cy = pp->sy;
    return p5_put(s, pp, JG_VERB_CLOSE, 0, NULL);
}

/* ------------------------------------------------------------------ modes */

/* helpers.modeAdjust */
static void p5_mode_adjust(int mode, double a, double b, double c, double d, double *o)
{
    switch (mode) {
    case P5_MODE_CORNERS:
        o[0] = fmin(a, c); o[1] = fmin(b, d); o[2] = fabs(c - a); o[3] = fabs(d - b);
        if (isnan(a) || isnan(c)) o[0] = NAN; /* Math.min propagates NaN */
        if (isnan(b) || isnan(d)) o[1] = NAN;
        break;
    case P5_MODE_RADIUS:
        c = fabs(c); d = fabs(d);
        o[0] = a - c; o[1] = b - d; o[2] = 2 * c; o[3] = 2 * d;
        break;
    case P5_MODE_CENTER:
        c = fabs(c); d = fabs(d);
        o[0] = a - c * 0.5; o[1] = b - d * 0.5; o[2] = c; o[3] = d;
        break;
    default: /* CORNER */
        o[0] = a; o[1] = b; o[2] = fabs(c); o[3] = fabs(d);
        break;
    }
}

static int p5_read_args(JSContext *ctx, int argc, JSValueConst *argv, int n, double *out)
{
    for (int i = 0; i < n; i++)
        if (p5_arg(ctx, &out[i], argc, argv, i)) return -1;
    return 0;
}

/* ------------------------------------------------------------------ primitives */

static JSValue p5_emit_rect(JSContext *ctx, P5Shim *s, double x, double y, double w, double h,
                            int rounded, double *r)
{
    if (p5_count_shape(s) < 0) return JS_EXCEPTION;
    double tl = 0, tr = 0, br = 0, bl = 0;
    if (rounded) {
        tl = r[0]; tr = r[1]; br = r[2]; bl = r[3];
        double absW = fabs(w), absH = fabs(h), hw = absW / 2, hh = absH / 2;
        if (absW < 2 * tl) tl = hw;
        if (absH < 2 * tl) tl = hh;
        if (absW < 2 * tr) tr = hw;
        if (absH < 2 * tr) tr = hh;
        if (absW < 2 * br) br = hw;
        if (absH < 2 * br) br = hh;
        if (absW < 2 * bl) bl = hw;
        if (absH < 2 * bl) bl = hh;
        if (tl < 0 || tr < 0 || br < 0 || bl < 0)
            return JS_ThrowRangeError(ctx, "Failed to execute 'roundRect': a corner radius is negative");
        /* canvas roundRect mirrors the radii for negative sizes */
        if (w < 0) { double t = tl; tl = tr; tr = t; t = bl; bl = br; br = t; }
        if (h < 0) { double t = tl; tl = bl; bl = t; t = tr; tr = br; br = t; }
    }
    if (w < 0) { x += w; w = -w; }
    if (h < 0) { y += h; h = -h; }
    uint32_t *p = p5_emit(s, JG_OP_RECT, 8, 1);
    if (!p) return JS_ThrowOutOfMemory(ctx);
    p[0] = p5_f32(x); p[1] = p5_f32(y); p[2] = p5_f32(w); p[3] = p5_f32(h);
    p[4] = p5_f32(tl); p[5] = p5_f32(tr); p[6] = p5_f32(br); p[7] = p5_f32(bl);
    return JS_UNDEFINED;
}

/* p5.prototype._renderRect; magic 1 = square(x, y, s, tl, tr, br, bl) */
static JSValue js_p5_rect(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic)
{
    P5Shim *s = p5_shim(ctx);
    double a[4], o[4], r[4];
    JSValueConst rad[4];
    int nrad;
    s->calls++;
    if (!s->st.do_fill && !s->st.do_stroke) return JS_UNDEFINED;
    if (magic) {
        if (p5_read_args(ctx, argc, argv, 3, a)) return JS_EXCEPTION;
        a[3] = a[2];
        nrad = argc - 3;
        for (int i = 0; i < 4; i++) rad[i] = 3 + i < argc ? argv[3 + i] : JS_UNDEFINED;
    } else {
        if (p5_read_args(ctx, argc, argv, 4, a)) return JS_EXCEPTION;
        if (argc == 3) a[3] = a[2];
        nrad = argc - 4;
        for (int i = 0; i < 4; i++) rad[i] = 4 + i < argc ? argv[4 + i] : JS_UNDEFINED;
    }
    p5_mode_adjust(s->st.rect_mode, a[0], a[1], a[2], a[3], o);
    if (s->st.rect_mode == P5_MODE_CORNER) { o[2] = a[2]; o[3] = a[3]; }
    int rounded = nrad > 0 && !JS_IsUndefined(rad[0]);
    if (rounded) {
        for (int i = 0; i < 4; i++) {
            if (JS_IsUndefined(rad[i])) r[i] = r[i - 1]; /* tr = tl, br = tr, bl = br */
            else if (p5_num(ctx, &r[i], rad[i])) return JS_EXCEPTION;
        }
    }
    return p5_emit_rect(ctx, s, o[0], o[1], o[2], o[3], rounded, r);
}

static JSValue p5_emit_ellipse(JSContext *ctx, P5Shim *s, const double *o)
{
    if (p5_count_shape(s) < 0) return JS_EXCEPTION;
    uint32_t *p = p5_emit(s, JG_OP_ELLIPSE, 4, 1);
    if (!p) return JS_ThrowOutOfMemory(ctx);
    p[0] = p5_f32(o[0] + o[2] / 2);
    p[1] = p5_f32(o[1] + o[3] / 2);
    p[2] = p5_f32(o[2] / 2);
    p[3] = p5_f32(o[3] / 2);
    return JS_UNDEFINED;
}

/* ellipse(x, y, w, [h]); magic 1 = circle(x, y, d) */
static JSValue js_p5_ellipse(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                             int magic)
{
    P5Shim *s = p5_shim(ctx);
    double a[4], o[4];
    s->calls++;
    if (!s->st.do_fill && !s->st.do_stroke) return JS_UNDEFINED;
    if (p5_read_args(ctx, argc, argv, magic ? 3 : 4, a)) return JS_EXCEPTION;
    if (magic || argc < 4 || JS_IsUndefined(argv[3])) a[3] = a[2];
    p5_mode_adjust(s->st.ellipse_mode, a[0], a[1], a[2], a[3], o);
    return p5_emit_ellipse(ctx, s, o);
}

/* arc(x, y, w, h, start, stop, [mode]) */
static JSValue js_p5_arc(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    double a[6], o[4];
    s->calls++;
    if (!s->st.do_fill && !s->st.do_stroke) return JS_UNDEFINED;
    if (p5_read_args(ctx, argc, argv, 6, a)) return JS_EXCEPTION;
    if (argc > 5 && JS_IsStrictEqual_compat(ctx, argv[4], argv[5])) return JS_UNDEFINED;
    double start = p5_to_radians(s, a[4]), stop = p5_to_radians(s, a[5]);
    p5_mode_adjust(s->st.ellipse_mode, a[0], a[1], a[2], a[3], o);
    /* p5.prototype._normalizeArcAngles(start, stop, w, h, true) */
    const double TWO_PI = 2 * M_PI, HALF_PI = M_PI / 2;
    start = start - TWO_PI * floor(start / TWO_PI);
    stop = stop - TWO_PI * floor(stop / TWO_PI);
    double sep = fmin(fabs(start - stop), TWO_PI - fabs(start - stop));
    double ratio = o[2] / o[3];
    if (start <= HALF_PI) start = atan(ratio * tan(start));
    else if (start > HALF_PI && start <= 3 * HALF_PI) start = atan(ratio * tan(start)) + M_PI;
    else start = atan(ratio * tan(start)) + TWO_PI;
    if (stop <= HALF_PI) stop = atan(ratio * tan(stop));
    else if (stop > HALF_PI && stop <= 3 * HALF_PI) stop = atan(ratio * tan(stop)) + M_PI;
    else stop = atan(ratio * tan(stop)) + TWO_PI;
    if (start > stop) stop += TWO_PI;
    if (sep < 0.00001) return p5_emit_ellipse(ctx, s, o); /* correspondToSamePoint */
    uint32_t mode = JG_ARC_DEFAULT;
    if (argc > 6) {
        if (p5_str_eq(ctx, argv[6], "open")) mode = JG_ARC_OPEN;
        else if (p5_str_eq(ctx, argv[6], "chord")) mode = JG_ARC_CHORD;
        else if (p5_str_eq(ctx, argv[6], "pie")) mode = JG_ARC_PIE;
    }
    if (p5_count_shape(s) < 0) return JS_EXCEPTION;
    uint32_t *p = p5_emit(s, JG_OP_ARC, 7, 1);
    if (!p) return JS_ThrowOutOfMemory(ctx);
    p[0] = p5_f32(o[0] + o[2] / 2);
    p[1] = p5_f32(o[1] + o[3] / 2);
    p[2] = p5_f32(o[2] / 2);
    p[3] = p5_f32(o[3] / 2);
    p[4] = p5_f32(start);
    p[5] = p5_f32(stop);
    p[6] = mode;
    return JS_UNDEFINED;
}

static JSValue p5_emit_line(JSContext *ctx, P5Shim *s, double x1, double y1, double x2, double y2)
{
    if (p5_count_shape(s) < 0) return JS_EXCEPTION;
    uint32_t *p = p5_emit(s, JG_OP_LINE, 4, 1);
    if (!p) return JS_ThrowOutOfMemory(ctx);
    p[0] = p5_f32(x1); p[1] = p5_f32(y1); p[2] = p5_f32(x2); p[3] = p5_f32(y2);
    return JS_UNDEFINED;
}

static JSValue js_p5_line(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    double a[4];
    s->calls++;
    if (!s->st.do_stroke) return JS_UNDEFINED;
    if (p5_read_args(ctx, argc, argv, 4, a)) return JS_EXCEPTION;
    return p5_emit_line(ctx, s, a[0], a[1], a[2], a[3]);
}

static JSValue p5_emit_point(JSContext *ctx, P5Shim *s, double x, double y)
{
    if (p5_count_shape(s) < 0) return JS_EXCEPTION;
    /* p5 1.11 draws every point as a filled circle of diameter lineWidth, whatever
     * strokeCap says: force the round cap */
    uint8_t cap = s->st.cap;
    s->st.cap = JG_CAP_ROUND;
    uint32_t *p = p5_emit(s, JG_OP_POINT, 2, 1);
    s->st.cap = cap;
    if (!p) return JS_ThrowOutOfMemory(ctx);
    p[0] = p5_f32(x); p[1] = p5_f32(y);
    return JS_UNDEFINED;
}

static JSValue js_p5_point(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    double x, y;
    s->calls++;
    if (!s->st.do_stroke) return JS_UNDEFINED;
    if (argc == 1 && JS_IsObject(argv[0])) {
        JSValue vx = JS_GetProperty(ctx, argv[0], s->atoms[P5_ATOM_x]);
        JSValue vy = JS_GetProperty(ctx, argv[0], s->atoms[P5_ATOM_y]);
        int bad = JS_IsException(vx) || JS_IsException(vy) || JS_ToFloat64(ctx, &x, vx) ||
                  JS_ToFloat64(ctx, &y, vy);
        JS_FreeValue(ctx, vx);
        JS_FreeValue(ctx, vy);
        if (bad) return JS_EXCEPTION;
    } else if (p5_arg(ctx, &x, argc, argv, 0) || p5_arg(ctx, &y, argc, argv, 1)) {
        return JS_EXCEPTION;
    }
    return p5_emit_point(ctx, s, x, y);
}

/* triangle (magic 3) and quad (magic 4): a closed polygon path */
static JSValue js_p5_polygon(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                             int magic)
{
    P5Shim *s = p5_shim(ctx);
    double a[8];
    P5Path pp;
    s->calls++;
    if (!s->st.do_fill && !s->st.do_stroke) return JS_UNDEFINED;
    if (p5_read_args(ctx, argc, argv, 2 * magic, a)) return JS_EXCEPTION;
    if (p5_path_begin(s, &pp)) return JS_EXCEPTION;
    int bad = p5_moveto(s, &pp, a[0], a[1]);
    for (int i = 1; i < magic && !bad; i++) bad = p5_lineto(s, &pp, a[2 * i], a[2 * i + 1]);
    if (!bad) bad = p5_closepath(s, &pp);
    if (bad) return JS_ThrowOutOfMemory(ctx);
    p5_path_end(s, &pp);
    return JS_UNDEFINED;
}

/* ------------------------------------------------------------------ vertex shapes */

static int p5_push_vertex(P5Shim *s, P5Vertex **arr, int *n, int *cap, const P5Vertex *v)
{
    if (*n >= P5_MAX_VERTICES) {
        JS_ThrowRangeError(s->ctx, "jsgym: more than %d vertices in one shape", P5_MAX_VERTICES);
        return -1;
    }
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 64;
        P5Vertex *p = (P5Vertex *)p5_realloc(s, *arr, (size_t)nc * sizeof *p);
        if (!p) {
            JS_ThrowOutOfMemory(s->ctx);
            return -1;
        }
        *arr = p;
        *cap = nc;
    }
    (*arr)[(*n)++] = *v;
    return 0;
}

static int p5_add_vertex(P5Shim *s, const P5Vertex *v)
{
    if (s->is_contour) return p5_push_vertex(s, &s->cverts, &s->n_cverts, &s->cap_cverts, v);
    return p5_push_vertex(s, &s->verts, &s->n_verts, &s->cap_verts, v);
}

static void p5_begin_shape(P5Shim *s, int kind)
{
    s->shape_kind = kind;
    s->n_verts = 0;
    s->n_cverts = 0;
}

static JSValue js_p5_begin_shape(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    int kind = -1;
    s->calls++;
    if (argc > 0) {
        JSValueConst k = argv[0];
        if (JS_IsNumber(k)) {
            double d;
            if (p5_num(ctx, &d, k)) return JS_EXCEPTION;
            if (d == 0) kind = P5_KIND_POINTS;
            else if (d == 1) kind = P5_KIND_LINES;
            else if (d == 4) kind = P5_KIND_TRIANGLES;
            else if (d == 6) kind = P5_KIND_TRIANGLE_FAN;
            else if (d == 5) kind = P5_KIND_TRIANGLE_STRIP;
        } else if (p5_str_eq(ctx, k, "quads")) {
            kind = P5_KIND_QUADS;
        } else if (p5_str_eq(ctx, k, "quad_strip")) {
            kind = P5_KIND_QUAD_STRIP;
        }
    }
    p5_begin_shape(s, kind);
    return JS_UNDEFINED;
}

static int p5_vertex(P5Shim *s, double x, double y, int move_to)
{
    P5Vertex v;
    memset(&v, 0, sizeof v);
    v.c[0] = x;
    v.c[1] = y;
    v.fill = s->st.fill;
    v.stroke = s->st.stroke;
    v.move_to = (uint8_t)move_to;
    if (s->is_contour && s->n_cverts == 0) v.move_to = 1;
    return p5_add_vertex(s, &v);
}

/* vertex(x, y, [moveTo]); magic 1 = curveVertex(x, y) */
static JSValue js_p5_vertex(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic)
{
    P5Shim *s = p5_shim(ctx);
    double x, y;
    int move_to = 0;
    s->calls++;
    if (p5_arg(ctx, &x, argc, argv, 0) || p5_arg(ctx, &y, argc, argv, 1)) return JS_EXCEPTION;
    if (magic) s->is_curve = 1;
    else if (argc > 2 && (move_to = JS_ToBool(ctx, argv[2])) < 0) return JS_EXCEPTION;
    if (p5_vertex(s, x, y, move_to)) return JS_EXCEPTION;
    return JS_UNDEFINED;
}

/* bezierVertex (magic 6) and quadraticVertex (magic 4) */
static JSValue js_p5_curve_vertex(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                                  int magic)
{
    P5Shim *s = p5_shim(ctx);
    P5Vertex v;
    s->calls++;
    /* p5 only prints a friendly error when no vertex() came first */
    if (s->n_verts == 0) return JS_UNDEFINED;
    memset(&v, 0, sizeof v);
    if (p5_read_args(ctx, argc, argv, magic, v.c)) return JS_EXCEPTION;
    v.kind = magic == 6 ? 1 : 2;
    v.fill = s->st.fill;
    v.stroke = s->st.stroke;
    if (magic == 6) s->is_bezier = 1;
    else s->is_quadratic = 1;
    if (p5_add_vertex(s, &v)) return JS_EXCEPTION;
    return JS_UNDEFINED;
}

static JSValue js_p5_contour(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    if (magic == 0) { /* beginContour */
        s->n_cverts = 0;
        s->is_contour = 1;
        return JS_UNDEFINED;
    }
    if (s->n_cverts == 0)
        return JS_ThrowTypeError(ctx, "endContour(): the contour has no vertices "
                                      "(p5: Cannot read properties of undefined (reading 'slice'))");
    P5Vertex first = s->cverts[0];
    first.move_to = 0;
    if (p5_push_vertex(s, &s->cverts, &s->n_cverts, &s->cap_cverts, &first)) return JS_EXCEPTION;
    if (s->is_first_contour) {
        if (s->n_verts > 0) {
            P5Vertex v0 = s->verts[0];
            if (p5_push_vertex(s, &s->verts, &s->n_verts, &s->cap_verts, &v0)) return JS_EXCEPTION;
        }
        s->is_first_contour = 0;
    }
    for (int i = 0; i < s->n_cverts; i++) {
        P5Vertex v = s->cverts[i];
        if (p5_push_vertex(s, &s->verts, &s->n_verts, &s->cap_verts, &v)) return JS_EXCEPTION;
    }
    return JS_UNDEFINED;
}

/* Sets the current fill/stroke the way Renderer2D.endShape calls p5.fill(v[5]) /
 * p5.stroke(v[6]) for per-vertex colours (these calls persist, as in p5). */
static void p5_vertex_fill(P5Shim *s, const P5Vertex *v)
{
    s->st.fill = v->fill;
    s->st.fill_set = s->st.do_fill = 1;
}

static void p5_vertex_stroke(P5Shim *s, const P5Vertex *v)
{
    s->st.stroke = v->stroke;
    s->st.stroke_set = s->st.do_stroke = 1;
}

#define TRY(e) do { if ((e) < 0) goto oom; } while (0)

/* Renderer2D.endShape for 2D, over vertices V[0..n) (already holding the extra
 * copies of V[0] that p5 appends for CLOSE). */
static int p5_render_shape(P5Shim *s, P5Vertex *V, int n, int close)
{
    P5Path pp;
    int i, j;
    if (s->is_curve && s->shape_kind < 0) {
        if (n > 3) {
            double t = 1 - s->curve_tightness;
            if (p5_path_begin(s, &pp)) return -1;
            TRY(p5_moveto(s, &pp, V[1].c[0], V[1].c[1]));
            for (i = 1; i + 2 < n; i++) {
                double b[6];
                b[0] = V[i].c[0] + (t * V[i + 1].c[0] - t * V[i - 1].c[0]) / 6;
                b[1] = V[i].c[1] + (t * V[i + 1].c[1] - t * V[i - 1].c[1]) / 6;
                b[2] = V[i + 1].c[0] + (t * V[i].c[0] - t * V[i + 2].c[0]) / 6;
                b[3] = V[i + 1].c[1] + (t * V[i].c[1] - t * V[i + 2].c[1]) / 6;
                b[4] = V[i + 1].c[0];
                b[5] = V[i + 1].c[1];
                TRY(p5_cubicto(s, &pp, b));
            }
            if (close) TRY(p5_lineto(s, &pp, V[i + 1].c[0], V[i + 1].c[1]));
            if (close) TRY(p5_closepath(s, &pp));
            p5_path_end(s, &pp);
        }
    } else if ((s->is_bezier || s->is_quadratic) && s->shape_kind < 0) {
        int bez = s->is_bezier;
        if (p5_path_begin(s, &pp)) return -1;
        for (i = 0; i < n; i++) {
            if (V[i].kind == 0) {
                if (V[i].move_to) TRY(p5_moveto(s, &pp, V[i].c[0], V[i].c[1]));
                else TRY(p5_lineto(s, &pp, V[i].c[0], V[i].c[1]));
            } else if (bez) {
                /* bezierCurveTo with quadratic data: canvas drops calls with
                 * missing (NaN) arguments */
                if (V[i].kind == 1) TRY(p5_cubicto(s, &pp, V[i].c));
            } else if (V[i].kind == 2) {
                TRY(p5_quadto(s, &pp, V[i].c));
            }
        }
        if (close) TRY(p5_closepath(s, &pp));
        p5_path_end(s, &pp);
    } else if (s->shape_kind == P5_KIND_POINTS) {
        for (i = 0; i < n; i++) {
            if (s->st.do_stroke) p5_vertex_stroke(s, &V[i]);
            if (s->st.do_stroke && JS_IsException(p5_emit_point(s->ctx, s, V[i].c[0], V[i].c[1])))
                return -1;
        }
    } else if (s->shape_kind == P5_KIND_LINES) {
        for (i = 0; i + 1 < n; i += 2) {
            if (s->st.do_stroke) p5_vertex_stroke(s, &V[i + 1]);
            if (s->st.do_stroke &&
                JS_IsException(p5_emit_line(s->ctx, s, V[i].c[0], V[i].c[1], V[i + 1].c[0], V[i + 1].c[1])))
                return -1;
        }
    } else if (s->shape_kind == P5_KIND_TRIANGLES) {
        for (i = 0; i + 2 < n; i += 3) {
            if (s->st.do_fill) p5_vertex_fill(s, &V[i + 2]);
            if (s->st.do_stroke) p5_vertex_stroke(s, &V[i + 2]);
            if (p5_path_begin(s, &pp)) return -1;
            TRY(p5_moveto(s, &pp, V[i].c[0], V[i].c[1]));
            TRY(p5_lineto(s, &pp, V[i + 1].c[0], V[i + 1].c[1]));
            TRY(p5_lineto(s, &pp, V[i + 2].c[0], V[i + 2].c[1]));
            TRY(p5_closepath(s, &pp));
            p5_path_end(s, &pp);
        }
    } else if (s->shape_kind == P5_KIND_TRIANGLE_STRIP) {
        for (i = 0; i + 1 < n; i++) {
            const P5Vertex *cv = i + 2 < n ? &V[i + 2] : &V[i + 1];
            if (s->st.do_stroke) p5_vertex_stroke(s, cv);
            if (s->st.do_fill) p5_vertex_fill(s, cv);
            if (p5_path_begin(s, &pp)) return -1;
            TRY(p5_moveto(s, &pp, V[i + 1].c[0], V[i + 1].c[1]));
            TRY(p5_lineto(s, &pp, V[i].c[0], V[i].c[1]));
            if (i + 2 < n) TRY(p5_lineto(s, &pp, V[i + 2].c[0], V[i + 2].c[1]));
            if (close) TRY(p5_closepath(s, &pp));
            p5_path_end(s, &pp);
        }
    } else if (s->shape_kind == P5_KIND_TRIANGLE_FAN) {
        if (n > 2) {
            /* p5 batches consecutive triangles of one colour into one path */
            int open = 0;
            for (i = 2; i < n; i++) {
                if (!open) {
                    if (p5_path_begin(s, &pp)) return -1;
                    open = 1;
                }
                TRY(p5_moveto(s, &pp, V[0].c[0], V[0].c[1]));
                TRY(p5_lineto(s, &pp, V[i - 1].c[0], V[i - 1].c[1]));
                TRY(p5_lineto(s, &pp, V[i].c[0], V[i].c[1]));
                TRY(p5_lineto(s, &pp, V[0].c[0], V[0].c[1]));
                if (i < n - 1 && ((s->st.do_fill && V[i].fill != V[i + 1].fill) ||
                                  (s->st.do_stroke && V[i].stroke != V[i + 1].stroke))) {
                    /* the batch is drawn in V[i]'s colours, then the next colour is set */
                    uint32_t *st = s->cmd + pp.start + 2;
                    if (s->st.do_fill) st[0] = V[i].fill;
                    if (s->st.do_stroke) st[1] = V[i].stroke;
                    p5_path_end(s, &pp);
                    open = 0;
                    if (s->st.do_fill) p5_vertex_fill(s, &V[i + 1]);
                    if (s->st.do_stroke) p5_vertex_stroke(s, &V[i + 1]);
                }
            }
            if (open) {
                if (close) TRY(p5_closepath(s, &pp));
                p5_path_end(s, &pp);
            }
        }
    } else if (s->shape_kind == P5_KIND_QUADS) {
        for (i = 0; i + 3 < n; i += 4) {
            if (s->st.do_fill) p5_vertex_fill(s, &V[i + 3]);
            if (s->st.do_stroke) p5_vertex_stroke(s, &V[i + 3]);
            if (p5_path_begin(s, &pp)) return -1;
            TRY(p5_moveto(s, &pp, V[i].c[0], V[i].c[1]));
            for (j = 1; j < 4; j++) TRY(p5_lineto(s, &pp, V[i + j].c[0], V[i + j].c[1]));
            TRY(p5_lineto(s, &pp, V[i].c[0], V[i].c[1]));
            if (close) TRY(p5_closepath(s, &pp));
            p5_path_end(s, &pp);
        }
    } else if (s->shape_kind == P5_KIND_QUAD_STRIP) {
        if (n > 3) {
            for (i = 0; i + 1 < n; i += 2) {
                if (i + 3 < n) {
                    if (s->st.do_fill) p5_vertex_fill(s, &V[i + 3]);
                    if (s->st.do_stroke) p5_vertex_stroke(s, &V[i + 3]);
                }
                if (p5_path_begin(s, &pp)) return -1;
                if (i + 3 < n) {
                    TRY(p5_moveto(s, &pp, V[i + 2].c[0], V[i + 2].c[1]));
                    TRY(p5_lineto(s, &pp, V[i].c[0], V[i].c[1]));
                    TRY(p5_lineto(s, &pp, V[i + 1].c[0], V[i + 1].c[1]));
                    TRY(p5_lineto(s, &pp, V[i + 3].c[0], V[i + 3].c[1]));
                } else {
                    TRY(p5_moveto(s, &pp, V[i].c[0], V[i].c[1]));
                    TRY(p5_lineto(s, &pp, V[i + 1].c[0], V[i + 1].c[1]));
                }
                if (close) TRY(p5_closepath(s, &pp));
                p5_path_end(s, &pp);
            }
        }
    } else {
        if (p5_path_begin(s, &pp)) return -1;
        TRY(p5_moveto(s, &pp, V[0].c[0], V[0].c[1]));
        for (i = 1; i < n; i++) {
            if (V[i].kind != 0) continue;
            if (V[i].move_to) {
                if (close) TRY(p5_closepath(s, &pp));
                TRY(p5_moveto(s, &pp, V[i].c[0], V[i].c[1]));
            } else {
                TRY(p5_lineto(s, &pp, V[i].c[0], V[i].c[1]));
            }
        }
        if (close) TRY(p5_closepath(s, &pp));
        p5_path_end(s, &pp);
    }
    return 0;
oom:
    JS_ThrowOutOfMemory(s->ctx);
    return -1;
}

/* p5.prototype.endShape (2D) */
static int p5_end_shape(P5Shim *s, int close)
{
    if (s->n_verts == 0) return 0;
    if (!s->st.do_stroke && !s->st.do_fill) return 0;
    int n = s->n_verts;
    if (close && !s->is_contour) {
        /* p5.endShape and Renderer2D.endShape each append vertices[0] */
        P5Vertex v0 = s->verts[0];
        if (p5_push_vertex(s, &s->verts, &s->n_verts, &s->cap_verts, &v0)) return -1;
        if (p5_push_vertex(s, &s->verts, &s->n_verts, &s->cap_verts, &v0)) return -1;
    }
    int r = p5_render_shape(s, s->verts, s->n_verts, close);
    s->n_verts = n; /* both copies are popped again */
    s->is_curve = s->is_bezier = s->is_quadratic = s->is_contour = 0;
    s->is_first_contour = 1;
    return r;
}

static JSValue js_p5_end_shape(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    int close = argc > 0 && p5_str_eq(ctx, argv[0], "close");
    if (p5_end_shape(s, close)) return JS_EXCEPTION;
    return JS_UNDEFINED;
}

/* bezier(x1, y1, x2, y2, x3, y3, x4, y4) and curve(...) (magic 1) */
static JSValue js_p5_bezier(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic)
{
    P5Shim *s = p5_shim(ctx);
    double a[8];
    s->calls++;
    if (p5_read_args(ctx, argc, argv, 8, a)) return JS_EXCEPTION;
    p5_begin_shape(s, -1);
    if (magic == 0) {
        P5Vertex v;
        if (p5_vertex(s, a[0], a[1], 0)) return JS_EXCEPTION;
        memset(&v, 0, sizeof v);
        memcpy(v.c, a + 2, 6 * sizeof(double));
        v.kind = 1;
        v.fill = s->st.fill;
        v.stroke = s->st.stroke;
        s->is_bezier = 1;
        if (p5_add_vertex(s, &v)) return JS_EXCEPTION;
    } else {
        s->is_curve = 1;
        for (int i = 0; i < 4; i++)
            if (p5_vertex(s, a[2 * i], a[2 * i + 1], 0)) return JS_EXCEPTION;
    }
    if (p5_end_shape(s, 0)) return JS_EXCEPTION;
    return JS_UNDEFINED;
}

static const JSCFunctionListEntry p5_shape_funcs[] = {
    JS_CFUNC_MAGIC_DEF("rect", 4, js_p5_rect, 0),
    JS_CFUNC_MAGIC_DEF("square", 3, js_p5_rect, 1),
    JS_CFUNC_MAGIC_DEF("ellipse", 4, js_p5_ellipse, 0),
    JS_CFUNC_MAGIC_DEF("circle", 3, js_p5_ellipse, 1),
    JS_CFUNC_DEF("arc", 6, js_p5_arc),
    JS_CFUNC_DEF("line", 4, js_p5_line),
    JS_CFUNC_DEF("point", 2, js_p5_point),
    JS_CFUNC_MAGIC_DEF("triangle", 6, js_p5_polygon, 3),
    JS_CFUNC_MAGIC_DEF("quad", 8, js_p5_polygon, 4),
    JS_CFUNC_DEF("beginShape", 1, js_p5_begin_shape),
    JS_CFUNC_MAGIC_DEF("vertex", 2, js_p5_vertex, 0),
    JS_CFUNC_MAGIC_DEF("curveVertex", 2, js_p5_vertex, 1),
    JS_CFUNC_MAGIC_DEF("bezierVertex", 6, js_p5_curve_vertex, 6),
    JS_CFUNC_MAGIC_DEF("quadraticVertex", 4, js_p5_curve_vertex, 4),
    JS_CFUNC_MAGIC_DEF("beginContour", 0, js_p5_contour, 0),
    JS_CFUNC_MAGIC_DEF("endContour", 0, js_p5_contour, 1),
    JS_CFUNC_DEF("endShape", 1, js_p5_end_shape),
    JS_CFUNC_MAGIC_DEF("bezier", 8, js_p5_bezier, 0),
    JS_CFUNC_MAGIC_DEF("curve", 8, js_p5_bezier, 1),
};

int p5_install_shape(JSContext *ctx, JSValueConst global)
{
    return JS_SetPropertyFunctionList(ctx, global, p5_shape_funcs,
                                      (int)(sizeof p5_shape_funcs / sizeof p5_shape_funcs[0]));
}
