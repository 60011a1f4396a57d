/* C tests of the p5 shim: install it in fresh QuickJS contexts, run JS snippets,
 * check the emitted command stream and the JS-visible state. Built with ASan and
 * UBSan (see Makefile); every runtime is freed at the end of its test, so QuickJS's
 * own leak assertion (JS_FreeRuntime) and LeakSanitizer both watch the shim.
 *
 * Also replays tests/data/p5_cases.json (golden values from real p5.js 1.11.13 in
 * Chromium) when given its path as argv[1].
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsgym_contract.h"
#include "jsgym_raster.h"
#include "p5shim.h"
#include "quickjs.h"

static int g_failed, g_checks;

/* The shim lays text out with the rasterizer's fonts, which this test does not link;
 * it gets a fake font set instead, so that the layout arithmetic is checked in
 * isolation: every family resolves to face = style, 1000 units per em, every glyph
 * is its code point with advance 500 except 'i' (250), and the pair "AV" kerns by -50.
 * tests/test_text.py checks text against Chromium with the real fonts. */
int32_t jg_font_resolve(const uint8_t *name, size_t len, uint32_t style)
{
    if ((style & JG_FONT_EXACT) && !(len == 4 && memcmp(name, "fake", 4) == 0)) return -2;
    return (int32_t)(style & 3);
}
int32_t jg_font_metrics(uint32_t face, JgFontMetrics *out)
{
    if (face > 3) return -1;
    *out = (JgFontMetrics){1000, 800, -200, 0, 750, -250, 0, 900, 300, 0};
    return 0;
}
int64_t jg_font_shape(uint32_t face, const uint32_t *text, size_t n, uint32_t *glyphs,
                      int32_t *advances)
{
    if (face > 3) return -1;
    for (size_t i = 0; i < n; i++) {
        glyphs[i] = text[i] | face << 16;
        advances[i] = text[i] == 'i' ? 250 : 500;
        if (text[i] == 'A' && i + 1 < n && text[i + 1] == 'V') advances[i] -= 50;
    }
    return (int64_t)n;
}

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        g_checks++;                                                        \
        if (!(cond)) {                                                     \
            g_failed++;                                                    \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);           \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
        }                                                                  \
    } while (0)

typedef struct {
    JSRuntime *rt;
    JSContext *ctx;
    P5Shim *shim;
} Env;

static Env env_new(void)
{
    Env e;
    e.rt = JS_NewRuntime();
    e.ctx = JS_NewContext(e.rt);
    e.shim = p5shim_install(e.ctx, NULL);
    if (!e.shim) {
        JSValue ex = JS_GetException(e.ctx);
        const char *m = JS_ToCString(e.ctx, ex);
        fprintf(stderr, "p5shim_install failed: %s\n", m ? m : "?");
        exit(1);
    }
    return e;
}

static Env env_new_limits(uint32_t max_draw)
{
    Env e;
    P5ShimLimits lim = {max_draw, 0};
    e.rt = JS_NewRuntime();
    e.ctx = JS_NewContext(e.rt);
    e.shim = p5shim_install(e.ctx, &lim);
    return e;
}

static void env_free(Env *e)
{
    p5shim_free(e->shim);
    JS_FreeContext(e->ctx);
    JS_FreeRuntime(e->rt);
}

/* Evaluates code; returns the JSON of its completion value (malloc'd), or
 * "THROW:<Name>: <message>" if it threw. */
static char *run(Env *e, const char *code)
{
    JSContext *ctx = e->ctx;
    JSValue v = JS_Eval(ctx, code, strlen(code), "<test>", JS_EVAL_TYPE_GLOBAL);
    char *out;
    if (JS_IsException(v)) {
        JSValue ex = JS_GetException(ctx);
        const char *m = JS_ToCString(ctx, ex);
        size_t n = strlen(m ? m : "?") + 8;
        out = (char *)malloc(n);
        snprintf(out, n, "THROW:%s", m ? m : "?");
        if (m) JS_FreeCString(ctx, m);
        JS_FreeValue(ctx, ex);
        return out;
    }
    JSValue j = JS_JSONStringify(ctx, v, JS_UNDEFINED, JS_UNDEFINED);
    const char *s = JS_IsUndefined(j) ? "undefined" : JS_ToCString(ctx, j);
    out = strdup(s ? s : "null");
    if (s && !JS_IsUndefined(j)) JS_FreeCString(ctx, s);
    JS_FreeValue(ctx, j);
    JS_FreeValue(ctx, v);
    return out;
}

static void expect(Env *e, const char *code, const char *want, int line)
{
    char *got = run(e, code);
    g_checks++;
    if (strcmp(got, want) != 0) {
        g_failed++;
        fprintf(stderr, "FAIL line %d: %s\n   got  %s\n   want %s\n", line, code, got, want);
    }
    free(got);
}
#define EXPECT(e, code, want) expect(e, code, want, __LINE__)

static void expect_throw(Env *e, const char *code, const char *prefix, int line)
{
    char *got = run(e, code);
    g_checks++;
    if (strncmp(got, prefix, strlen(prefix)) != 0) {
        g_failed++;
        fprintf(stderr, "FAIL line %d: %s\n   got  %s\n   want prefix %s\n", line, code, got, prefix);
    }
    free(got);
}
#define EXPECT_THROW(e, code, prefix) expect_throw(e, code, prefix, __LINE__)

/* ------------------------------------------------------------------ stream reader */

static float f32(uint32_t w)
{
    float f;
    memcpy(&f, &w, 4);
    return f;
}

/* Returns the index of the k-th command (0-based) in the stream, -1 if none;
 * also checks the stream is well formed. */
static long cmd_at(const uint32_t *w, size_t n, int k)
{
    size_t i = 0;
    int c = 0;
    while (i < n) {
        if (w[i + 1] < 2 || i + w[i + 1] > n) return -2;
        if (c == k) return (long)i;
        i += w[i + 1];
        c++;
    }
    return -1;
}

static int cmd_count(const uint32_t *w, size_t n)
{
    size_t i = 0;
    int c = 0;
    while (i < n) {
        if (w[i + 1] < 2 || i + w[i + 1] > n) return -1;
        i += w[i + 1];
        c++;
    }
    return c;
}

static int near(double a, double b) { return fabs(a - b) <= 1e-4 * (1 + fabs(b)); }

/* ------------------------------------------------------------------ tests */

static void test_rect_modes(void)
{
    Env e = env_new();
    size_t n;
    p5shim_begin_frame(e.shim, 1);
    free(run(&e, "createCanvas(200, 100); rectMode(CENTER); fill(255, 0, 0); rect(50, 40, 20, 10);"
                 "rectMode(CORNERS); rect(30, 40, 10, 20); rectMode(RADIUS); rect(50, 50, 5, 6);"
                 "rectMode(CORNER); rect(10, 10, -4, 6, 100);"));
    const uint32_t *w = p5shim_commands(e.shim, &n);
    CHECK(cmd_count(w, n) == 5, "5 commands, got %d", cmd_count(w, n));
    long i = cmd_at(w, n, 0);
    CHECK(i >= 0 && w[i] == JG_OP_CANVAS && f32(w[i + 2]) == 200 && f32(w[i + 3]) == 100, "canvas");
    i = cmd_at(w, n, 1);
    const uint32_t *p = w + i + 2 + JG_STYLE_WORDS;
    CHECK(w[i] == JG_OP_RECT && w[i + 1] == 2 + JG_STYLE_WORDS + 8, "rect op");
    CHECK(f32(p[0]) == 40 && f32(p[1]) == 35 && f32(p[2]) == 20 && f32(p[3]) == 10,
          "CENTER rect %g %g %g %g", f32(p[0]), f32(p[1]), f32(p[2]), f32(p[3]));
    CHECK(w[i + 2] == 0xFF0000FFu, "fill red packed, got %08x", w[i + 2]);
    CHECK(w[i + 3] == 0xFF000000u, "default stroke black, got %08x", w[i + 3]);
    CHECK(f32(w[i + 4]) == 1 && w[i + 5] == (JG_CAP_ROUND | JG_JOIN_MITER << 8), "stroke weight/cap");
    i = cmd_at(w, n, 2);
    p = w + i + 2 + JG_STYLE_WORDS;
    CHECK(f32(p[0]) == 10 && f32(p[1]) == 20 && f32(p[2]) == 20 && f32(p[3]) == 20, "CORNERS rect");
    i = cmd_at(w, n, 3);
    p = w + i + 2 + JG_STYLE_WORDS;
    CHECK(f32(p[0]) == 45 && f32(p[1]) == 44 && f32(p[2]) == 10 && f32(p[3]) == 12, "RADIUS rect");
    i = cmd_at(w, n, 4);
    p = w + i + 2 + JG_STYLE_WORDS;
    /* negative width: x moves, radius clamped to min(|w|,h)/2 = 2 */
    CHECK(f32(p[0]) == 6 && f32(p[2]) == 4 && f32(p[4]) == 2 && f32(p[5]) == 2, "negative-w rounded rect");
    /* ellipse modes and arcs */
    p5shim_begin_frame(e.shim, 0);
    free(run(&e, "ellipseMode(CORNER); ellipse(10, 20, 30); ellipseMode(RADIUS); circle(5, 5, 4);"
                 "ellipseMode(CENTER); arc(50, 50, 40, 20, 0, HALF_PI, PIE); arc(0,0,10,10,1,1);"
                 "arc(50, 50, 40, 40, 0, TWO_PI);"));
    w = p5shim_commands(e.shim, &n);
    CHECK(cmd_count(w, n) == 4, "ellipses+arc count %d", cmd_count(w, n));
    i = cmd_at(w, n, 0);
    p = w + i + 2 + JG_STYLE_WORDS;
    CHECK(w[i] == JG_OP_ELLIPSE && f32(p[0]) == 25 && f32(p[1]) == 35 && f32(p[2]) == 15 && f32(p[3]) == 15,
          "CORNER ellipse");
    i = cmd_at(w, n, 1);
    p = w + i + 2 + JG_STYLE_WORDS;
    CHECK(f32(p[0]) == 5 && f32(p[2]) == 4, "RADIUS circle");
    i = cmd_at(w, n, 2);
    p = w + i + 2 + JG_STYLE_WORDS;
    CHECK(w[i] == JG_OP_ARC && p[6] == JG_ARC_PIE && f32(p[4]) == 0 && near(f32(p[5]), M_PI / 2),
          "arc angles %g %g", f32(p[4]), f32(p[5]));
    i = cmd_at(w, n, 3);
    CHECK(w[i] == JG_OP_ELLIPSE, "full arc becomes an ellipse");
    env_free(&e);
}

/* p5_new_color makes a new colour in place of one of its last ones that nothing holds
 * any more: a colour that any variable, array, closure or weak reference still holds,
 * or one a game changed, keeps its value and identity. */
static void test_colours_made_again_in_place(void)
{
    Env e = env_new();
    p5shim_begin_frame(e.shim, 1);
    free(run(&e, "createCanvas(100, 100)"));
    EXPECT(&e, "var kept = []; for (let i = 0; i < 40; i++) { let c = color(i, 2 * i, 3 * i); "
               "if (i % 3 == 0) kept.push(c); } kept.map(c => c.levels[0] + c.levels[2])",
           "[0,12,24,36,48,60,72,84,96,108,120,132,144,156]");
    EXPECT(&e, "var a = color(1, 2, 3); var b = color(1, 2, 3); [a === b, a.levels[2], b.levels[2]]",
           "[false,3,3]");
    EXPECT(&e, "var s = color(5, 5, 5); s.setRed(77); for (let i = 0; i < 10; i++) color(i, i, i); s.levels",
           "[77,5,5,255]");
    EXPECT(&e, "var t = color(4, 4, 4); t.tag = 'x'; for (let i = 0; i < 10; i++) color(i, i, i); "
               "[t.levels[0], t.tag]", "[4,\"x\"]");
    EXPECT(&e, "var fns = []; for (let i = 0; i < 8; i++) { let c = lerpColor(color(0, 0, 0), color(80, 80, 80), i / 8); "
               "fns.push(() => c.levels[0]); } fns.map(f => f())", "[0,10,20,30,40,50,60,70]");
    EXPECT(&e, "var w = typeof WeakRef == 'function' ? new WeakRef(color(12, 0, 0)) : {deref: () => color(12, 0, 0)}; "
               "for (let i = 0; i < 10; i++) color(i, i, i); var d = w.deref(); d === undefined ? 12 : d.levels[0]", "12");
    EXPECT(&e, "colorMode(HSB); color(0, 0, 100); colorMode(RGB); var r = color(10, 20, 30); [r.mode, r.levels]",
           "[\"rgb\",[10,20,30,255]]");
    EXPECT(&e, "var fr = Object.freeze(color(6, 6, 6)); for (let i = 0; i < 10; i++) color(i, i, i); fr.levels",
           "[6,6,6,255]");
    /* vectors likewise */
    EXPECT(&e, "var vs = []; for (let i = 0; i < 30; i++) { let v = createVector(i, -i); "
               "let w = p5.Vector.add(v, createVector(100, 0)); if (i % 4 == 0) vs.push(w); } vs.map(v => v.x + v.y)",
           "[100,100,100,100,100,100,100,100]");
    EXPECT(&e, "var va = createVector(1, 2); var vb = createVector(1, 2); [va === vb, va.y, vb.y]", "[false,2,2]");
    EXPECT(&e, "var vm = createVector(5, 5); vm.x = 9; vm.tag = 1; var vk = createVector(3, 3); vk.x = 8; "
               "for (let i = 0; i < 10; i++) createVector(i, i); [vm.x, vm.tag, vk.x, vk.y]", "[9,1,8,3]");
    EXPECT(&e, "var vf = []; for (let i = 0; i < 6; i++) { let v = createVector(i, 0).mult(2); vf.push(() => v.x); } "
               "vf.map(f => f())", "[0,2,4,6,8,10]");
    EXPECT(&e, "var vw = typeof WeakRef == 'function' ? new WeakRef(createVector(12, 0)) : {deref: () => createVector(12, 0)}; "
               "for (let i = 0; i < 10; i++) createVector(i, i); var vd = vw.deref(); vd === undefined ? 12 : vd.x", "12");
    EXPECT(&e, "var fa = []; for (let i = 0; i < 8; i++) { let v = p5.Vector.fromAngle(0, i); if (i % 2 == 0) fa.push(v); } "
               "[fa.map(v => v.x), Object.keys(p5.Vector.fromAngle(0)), fa[1] instanceof p5.Vector]",
           "[[0,2,4,6],[\"x\",\"y\",\"z\"],true]");
    /* a colour drawn with caches what canvas gets (its packed RGBA): made again, it
     * packs its own levels */
    p5shim_begin_frame(e.shim, 0);
    free(run(&e, "for (let i = 0; i < 6; i++) { fill(color(40 * i, 255 - i, 7)); rect(0, 0, 1, 1); }"));
    size_t n;
    const uint32_t *w = p5shim_commands(e.shim, &n);
    for (int i = 0; i < 6; i++) {
        long k = cmd_at(w, n, i);
        uint32_t want = (40u * i) | (255u - i) << 8 | 7u << 16 | 0xFFu << 24;
        CHECK(k >= 0 && w[k + 2] == want, "fill(color()) number %d: %08x, want %08x", i, k >= 0 ? w[k + 2] : 0, want);
    }
    env_free(&e);
}

static void test_push_pop_and_colors(void)
{
    Env e = env_new();
    p5shim_begin_frame(e.shim, 1);
    free(run(&e, "createCanvas(100, 100)"));
    EXPECT(&e, "fill(10, 20, 30); push(); fill(200); rectMode(CENTER); colorMode(HSB); strokeWeight(5);"
               "translate(10, 0); pop(); rect(0,0,1,1); 0", "0");
    size_t n;
    const uint32_t *w = p5shim_commands(e.shim, &n);
    long i = cmd_at(w, n, 1);
    CHECK(w[i] == JG_OP_RECT && w[i + 2] == (10u | 20u << 8 | 30u << 16 | 0xFFu << 24), "pop restores fill %08x",
          w[i + 2]);
    CHECK(f32(w[i + 4]) == 1 && f32(w[i + 10]) == 0, "pop restores weight and matrix");
    CHECK(f32(w[i + 2 + JG_STYLE_WORDS + 2]) == 1, "pop restores rectMode (CORNER)");
    /* colorMode was restored to RGB by pop: fill(255, 0, 0) is red */
    EXPECT(&e, "color(255, 0, 0).levels", "[255,0,0,255]");
    EXPECT(&e, "colorMode(HSB); var c = color(120, 100, 100); colorMode(RGB); c.levels", "[0,255,0,255]");
    EXPECT(&e, "colorMode(HSL, 1); var c = color(0.5, 1, 0.5); colorMode(RGB, 255); c.levels", "[0,255,255,255]");
    EXPECT(&e, "color('#f80').levels", "[255,136,0,255]");
    EXPECT(&e, "color('rgba(10, 20, 30, 0.5)').levels", "[10,20,30,128]");
    EXPECT(&e, "color('hsl(120, 100%, 25%)').levels", "[0,128,0,255]");
    EXPECT(&e, "color('CornflowerBlue').levels", "[100,149,237,255]");
    EXPECT(&e, "color('not a colour').levels", "[255,255,255,255]");
    EXPECT(&e, "color(300, -4, 128.4, 1000).levels", "[255,0,128,255]");
    EXPECT(&e, "red(color(1,2,3)) + green('#0a0b0c') * 1000", "11001");
    /* numeric fill path in HSB equals the JS p5.Color path */
    p5shim_begin_frame(e.shim, 0);
    free(run(&e, "colorMode(HSB); fill(200, 50, 80, 0.5); rect(0,0,1,1); fill(color(200, 50, 80, 0.5));"
                 "rect(0,0,1,1); fill(50); rect(0,0,1,1); colorMode(RGB);"));
    w = p5shim_commands(e.shim, &n);
    long a = cmd_at(w, n, 0), b = cmd_at(w, n, 1), c = cmd_at(w, n, 2);
    CHECK(w[a + 2] == w[b + 2], "native HSB fill %08x == p5.Color fill %08x", w[a + 2], w[b + 2]);
    CHECK(w[a + 2] == (102u | 170u << 8 | 204u << 16 | 128u << 24), "HSB(200,50,80,.5) = %08x", w[a + 2]);
    CHECK(w[c + 2] == (128u | 128u << 8 | 128u << 16 | 255u << 24), "HSB gray 50/100 -> 128, got %08x", w[c + 2]);
    /* noFill/noStroke give alpha-0 style words; background ignores the matrix */
    p5shim_begin_frame(e.shim, 0);
    free(run(&e, "noFill(); stroke(0, 0, 255); ellipse(1,1,1); noStroke(); ellipse(1,1,1); background(7);"));
    w = p5shim_commands(e.shim, &n);
    CHECK(cmd_count(w, n) == 2, "ellipse with no fill and no stroke is skipped (%d)", cmd_count(w, n));
    a = cmd_at(w, n, 0);
    CHECK(w[a + 2] == 0 && w[a + 3] == 0xFFFF0000u, "noFill style");
    b = cmd_at(w, n, 1);
    CHECK(w[b] == JG_OP_BACKGROUND && w[b + 1] == 3 && w[b + 2] == 0xFF070707u, "background");
    EXPECT(&e, "pop(); pop(); 1", "1"); /* unmatched pop is harmless */
    env_free(&e);
}

/* fill() with int levels takes a shortcut in RGB mode at the default maxima; every
 * form must give the words the unit path gives (the same numbers as doubles), and the
 * shortcut must not apply under other maxima. */
static void test_int_levels_fill(void)
{
    Env e = env_new();
    size_t n;
    p5shim_begin_frame(e.shim, 0);
    free(run(&e, "createCanvas(10, 10);"
                 "function f(v) { return (v + 0.25) - 0.25; }" /* the same number as a double */
                 "for (var v = -2; v <= 257; v++) {"
                 "  fill(v, 255 - v, v >> 1); rect(0, 0, 1, 1); fill(f(v), f(255 - v), f(v >> 1)); rect(0, 0, 1, 1);"
                 "  fill(v); rect(0, 0, 1, 1); fill(f(v)); rect(0, 0, 1, 1);"
                 "  fill(v, 255 - v); rect(0, 0, 1, 1); fill(f(v), f(255 - v)); rect(0, 0, 1, 1);"
                 "  fill(3, v, 7, 255 - v); rect(0, 0, 1, 1); fill(f(3), f(v), f(7), f(255 - v)); rect(0, 0, 1, 1);"
                 "}"
                 "colorMode(RGB, 100); fill(50); rect(0, 0, 1, 1); fill(50, 100, 0, 50); rect(0, 0, 1, 1);"
                 "colorMode(RGB, 255);"));
    const uint32_t *w = p5shim_commands(e.shim, &n);
    int cmds = cmd_count(w, n), pairs = 260 * 4;
    CHECK(cmds == 1 + 2 * pairs + 2, "%d commands", cmds); /* the canvas, then the rects */
    int differ = 0;
    for (int k = 0; k < pairs; k++) {
        long a = cmd_at(w, n, 1 + 2 * k), b = cmd_at(w, n, 2 + 2 * k);
        if (w[a + 2] != w[b + 2]) {
            if (!differ) fprintf(stderr, "  pair %d: int %08x, double %08x\n", k, w[a + 2], w[b + 2]);
            differ++;
        }
    }
    CHECK(differ == 0, "%d int fills differ from the same numbers as doubles", differ);
    long k0 = cmd_at(w, n, 1);
    CHECK(w[k0 + 2] == 0xFF00FF00u, "fill(-2, 257, -1) clamps to %08x", w[k0 + 2]);
    long g = cmd_at(w, n, 1 + 2 * pairs), h = cmd_at(w, n, 2 + 2 * pairs);
    CHECK(w[g + 2] == 0xFF808080u, "fill(50) of 100 is 128 gray, got %08x", w[g + 2]);
    CHECK(w[h + 2] == (128u << 24 | 255u << 8 | 128u), "fill(50, 100, 0, 50) of 100, got %08x", w[h + 2]);
    env_free(&e);
}

/* A colour drawn with, then changed through its setters or its arrays, is drawn with
 * its new levels: fill(c) keeps the RGBA8 of an untouched colour, which a change must
 * not outlive. */
static void test_color_changed_after_fill(void)
{
    Env e = env_new();
    size_t n;
    p5shim_begin_frame(e.shim, 0);
    free(run(&e, "createCanvas(10, 10); var c = color(10, 20, 30); fill(c); rect(0, 0, 1, 1);"
                 "fill(c); rect(0, 0, 1, 1); c.setRed(200); fill(c); rect(0, 0, 1, 1);"
                 "var d = color(1, 2, 3); stroke(d); rect(0, 0, 1, 1); d.levels[1] = 99; stroke(d); rect(0, 0, 1, 1);"
                 "var g = lerpColor(color(0), color(255), 0.5); background(g); g.setAlpha(0); fill(g); rect(0, 0, 1, 1);"));
    const uint32_t *w = p5shim_commands(e.shim, &n);
    CHECK(cmd_count(w, n) == 8, "%d commands", cmd_count(w, n));
    long a = cmd_at(w, n, 1), b = cmd_at(w, n, 2), c = cmd_at(w, n, 3);
    CHECK(w[a + 2] == 0xFF1E140Au && w[b + 2] == 0xFF1E140Au, "fill(c) twice: %08x %08x", w[a + 2], w[b + 2]);
    CHECK(w[c + 2] == 0xFF1E14C8u, "after setRed(200): %08x", w[c + 2]);
    long d1 = cmd_at(w, n, 4), d2 = cmd_at(w, n, 5);
    CHECK(w[d1 + 3] == 0xFF030201u && w[d2 + 3] == 0xFF036301u, "stroke(d) before/after levels[1] = 99: %08x %08x",
          w[d1 + 3], w[d2 + 3]);
    long bg = cmd_at(w, n, 6), f = cmd_at(w, n, 7);
    CHECK(w[bg] == JG_OP_BACKGROUND && w[bg + 2] == 0xFF808080u, "background(lerp) %08x", w[bg + 2]);
    CHECK(w[f + 2] == 0, "fill after setAlpha(0) draws no fill: %08x", w[f + 2]);
    env_free(&e);
}

/* fill() of a string remembers what each string gave by the string's identity: strings
 * made afresh every call (whose memory the next one may reuse) and literals drawn again
 * under another colorMode give the colour their text says. */
static void test_string_fills(void)
{
    Env e = env_new();
    size_t n;
    p5shim_begin_frame(e.shim, 0);
    free(run(&e, "createCanvas(10, 10);"
                 "for (var i = 0; i < 300; i++) { fill('rgb(' + (i % 256) + ', ' + (255 - i % 256) + ', 7)'); rect(0, 0, 1, 1); }"
                 "for (var k = 0; k < 2; k++) { fill('#ff8800'); rect(0, 0, 1, 1); stroke('orange'); rect(0, 0, 1, 1);"
                 "  colorMode(HSB); background('#0a141e'); colorMode(RGB, 1); }"
                 "colorMode(RGB, 255);"));
    const uint32_t *w = p5shim_commands(e.shim, &n);
    CHECK(cmd_count(w, n) == 1 + 300 + 6, "%d commands", cmd_count(w, n));
    int wrong = 0;
    for (int i = 0; i < 300; i++) {
        uint32_t want = 0xFF000000u | 7u << 16 | (uint32_t)(255 - i % 256) << 8 | (uint32_t)(i % 256);
        long a = cmd_at(w, n, 1 + i);
        if (w[a + 2] != want) {
            if (!wrong) fprintf(stderr, "  fill %d: %08x, want %08x\n", i, w[a + 2], want);
            wrong++;
        }
    }
    CHECK(wrong == 0, "%d fills of fresh strings wrong", wrong);
    for (int k = 0; k < 2; k++) {
        long f = cmd_at(w, n, 301 + 3 * k), st = cmd_at(w, n, 302 + 3 * k), bg = cmd_at(w, n, 303 + 3 * k);
        CHECK(w[f + 2] == 0xFF0088FFu, "fill('#ff8800') pass %d: %08x", k, w[f + 2]);
        CHECK(w[st + 3] == 0xFF00A5FFu, "stroke('orange') pass %d: %08x", k, w[st + 3]);
        CHECK(w[bg] == JG_OP_BACKGROUND && w[bg + 2] == 0xFF1E140Au, "background('#0a141e') in HSB pass %d: %08x", k,
              w[bg + 2]);
    }
    env_free(&e);
}

static void test_shapes_paths(void)
{
    Env e = env_new();
    size_t n;
    p5shim_begin_frame(e.shim, 1);
    free(run(&e, "createCanvas(100, 100); beginShape(); vertex(0,0); vertex(10,0); vertex(10,10);"
                 "endShape(CLOSE); beginShape(TRIANGLES); fill(255,0,0); vertex(0,0); vertex(1,0);"
                 "vertex(1,1); fill(0,255,0); vertex(2,0); vertex(3,0); vertex(3,1); endShape();"
                 "bezier(0,0, 10,0, 10,10, 0,10); curve(0,0, 10,0, 20,10, 30,0);"
                 "beginShape(); vertex(0,0); vertex(10,0); vertex(10,10); beginContour(); vertex(2,2);"
                 "vertex(4,2); vertex(4,4); endContour(); endShape(CLOSE);"));
    const uint32_t *w = p5shim_commands(e.shim, &n);
    CHECK(cmd_count(w, n) == 7, "path count %d", cmd_count(w, n));
    long i = cmd_at(w, n, 1);
    const uint32_t *p = w + i + 2 + JG_STYLE_WORDS;
    /* MOVE 0 0, LINE 10 0, LINE 10 10, LINE 0 0, CLOSE (the duplicate v0 dropped) */
    CHECK(w[i] == JG_OP_PATH && w[i + 1] == 2 + JG_STYLE_WORDS + 3 * 4 + 1, "closed polygon length %u", w[i + 1]);
    CHECK(p[0] == JG_VERB_MOVE && p[3] == JG_VERB_LINE && p[12] == JG_VERB_CLOSE, "polygon verbs");
    long t1 = cmd_at(w, n, 2), t2 = cmd_at(w, n, 3);
    CHECK(w[t1 + 2] == 0xFF0000FFu && w[t2 + 2] == 0xFF00FF00u, "per-vertex triangle colours %08x %08x",
          w[t1 + 2], w[t2 + 2]);
    i = cmd_at(w, n, 4);
    p = w + i + 2 + JG_STYLE_WORDS;
    CHECK(p[0] == JG_VERB_MOVE && p[3] == JG_VERB_CUBIC && f32(p[4]) == 10 && f32(p[9]) == 10, "bezier");
    i = cmd_at(w, n, 5);
    p = w + i + 2 + JG_STYLE_WORDS;
    /* Catmull-Rom: start at v1, c1 = v1 + (v2 - v0)/6 */
    CHECK(p[0] == JG_VERB_MOVE && f32(p[1]) == 10 && p[3] == JG_VERB_CUBIC && near(f32(p[4]), 10 + 20.0 / 6) &&
              near(f32(p[5]), 10.0 / 6),
          "curve to cubic %g %g", f32(p[4]), f32(p[5]));
    i = cmd_at(w, n, 6);
    int moves = 0;
    for (size_t k = (size_t)i + 2 + JG_STYLE_WORDS; k < (size_t)i + w[i + 1];) {
        uint32_t v = w[k];
        moves += v == JG_VERB_MOVE;
        k += v == JG_VERB_CLOSE ? 1 : v == JG_VERB_CUBIC ? 7 : v == JG_VERB_QUAD ? 5 : 3;
    }
    CHECK(moves == 2, "contour gives two subpaths (%d)", moves);
    /* transforms reach the matrix words */
    p5shim_begin_frame(e.shim, 0);
    free(run(&e, "translate(10, 20); rotate(HALF_PI); scale(2); line(0,0,1,1); angleMode(DEGREES);"
                 "resetMatrix(); rotate(90); point(1, 2); angleMode(RADIANS);"));
    w = p5shim_commands(e.shim, &n);
    i = cmd_at(w, n, 0);
    CHECK(w[i] == JG_OP_LINE && near(f32(w[i + 6]), 0) && near(f32(w[i + 7]), 2) && near(f32(w[i + 8]), -2) &&
              f32(w[i + 10]) == 10 && f32(w[i + 11]) == 20,
          "matrix %g %g %g %g %g %g", f32(w[i + 6]), f32(w[i + 7]), f32(w[i + 8]), f32(w[i + 9]), f32(w[i + 10]),
          f32(w[i + 11]));
    i = cmd_at(w, n, 1);
    CHECK(w[i] == JG_OP_POINT && near(f32(w[i + 7]), 1) && (w[i + 5] & 0xff) == JG_CAP_ROUND, "degrees rotate");
    env_free(&e);
}

static void test_text(void)
{
    Env e = env_new();
    size_t n;
    const uint32_t *w;
    long i;
    /* text: one JG_OP_TEXT of shaped glyphs in the fill colour (black by default),
     * pen positions from the advances and kerning, aligned on the shaped width */
    p5shim_begin_frame(e.shim, 0);
    free(run(&e, "push(); noFill(); text('x', 0, 0); pop(); textSize(20); text('AVi', 100, 50);"
                 "fill(255, 0, 0); textAlign(CENTER); textStyle(BOLD); text('AVi', 100, 50);"
                 "stroke(0, 0, 255); textAlign(RIGHT); text('ii', 10, 5);"));
    w = p5shim_commands(e.shim, &n);
    CHECK(cmd_count(w, n) == 4, "noFill text draws nothing, then 3 texts, one stroked (%d)",
          cmd_count(w, n));
    i = cmd_at(w, n, 0);
    CHECK(i >= 0 && w[i] == JG_OP_TEXT && w[i + 1] == 2 + JG_STYLE_WORDS + 2 + 9, "text command");
    if (i >= 0) {
        const uint32_t *t = w + i + 2 + JG_STYLE_WORDS;
        CHECK(w[i + 2] == 0xFF000000u && (w[i + 3] >> 24) == 0, "default text fill black, no stroke");
        CHECK(t[0] == 0 && f32(t[1]) == 20, "face 0 at 20 px (%u %g)", t[0], f32(t[1]));
        CHECK(t[2] == 'A' && t[5] == 'V' && t[8] == 'i', "glyphs");
        CHECK(near(f32(t[3]), 100) && near(f32(t[6]), 109) && near(f32(t[9]), 119) &&
                  f32(t[4]) == 50 && f32(t[10]) == 50,
              "pens %g %g %g", f32(t[3]), f32(t[6]), f32(t[9]));
    }
    i = cmd_at(w, n, 1);
    if (i >= 0) {
        const uint32_t *t = w + i + 2 + JG_STYLE_WORDS;
        CHECK(w[i + 2] == 0xFF0000FFu && t[0] == 1, "bold face in red");
        CHECK(near(f32(t[3]), 88) && near(f32(t[9]), 107), "centred on width 24 (%g)", f32(t[3]));
    }
    /* stroked text: the stroke pass first (no fill), then the fill pass (no stroke) */
    i = cmd_at(w, n, 2);
    if (i >= 0) {
        const uint32_t *t = w + i + 2 + JG_STYLE_WORDS;
        CHECK((w[i + 2] >> 24) == 0 && w[i + 3] == 0xFFFF0000u, "stroke pass");
        CHECK(near(f32(t[3]), 0) && near(f32(t[6]), 5), "right aligned on width 10 (%g)", f32(t[3]));
    }
    i = cmd_at(w, n, 3);
    CHECK(i >= 0 && w[i + 2] == 0xFF0000FFu && (w[i + 3] >> 24) == 0, "fill pass");
    EXPECT(&e, "textSize(20); textStyle(NORMAL); [textWidth('AVi'), textWidth('ab\\nabcd'),"
               "textWidth('a\\tb'), textWidth(12), textLeading()]",
           "[24,40,40,20,25]");
    env_free(&e);
}

static void test_keys(void)
{
    Env e = env_new();
    free(run(&e, "var log = []; function keyPressed(e) { log.push('P' + keyCode + key + e.key); }"
                 "function keyTyped() { log.push('T' + key); }"
                 "function keyReleased() { log.push('R' + keyCode + keyIsPressed); }"));
    CHECK(p5shim_key_event(e.shim, 37, 1) == 0, "keydown");
    CHECK(p5shim_key_event(e.shim, 37, 1) == 0, "repeat ignored");
    CHECK(p5shim_key_event(e.shim, 32, 1) == 0, "space");
    EXPECT(&e, "[keyIsDown(LEFT_ARROW), keyIsDown(32), keyIsDown(39), keyIsPressed, keyCode, key]",
           "[true,true,false,true,32,\" \"]");
    CHECK(p5shim_key_event(e.shim, 37, 0) == 0, "keyup");
    CHECK(p5shim_key_event(e.shim, 65, 1) == 0, "a");
    EXPECT(&e, "log", "[\"P37ArrowLeftArrowLeft\",\"P32  \",\"T \",\"R32false\",\"P65aa\",\"Ta\"]");
    p5shim_release_all_keys(e.shim);
    EXPECT(&e, "[keyIsDown(32), keyIsDown(65), keyIsPressed, log.length]", "[false,false,false,6]");
    /* the event objects: KeyboardEvent fields, preventDefault inherited and shared */
    free(run(&e, "var evs = []; function keyPressed(ev) { evs.push(ev); ev.preventDefault(); }"
                 "function keyReleased(ev) { evs.push(ev); }"));
    CHECK(p5shim_key_event(e.shim, 38, 1) == 0 && p5shim_key_event(e.shim, 38, 0) == 0, "up arrow");
    EXPECT(&e, "evs.map(v => [v.type, v.key, v.keyCode, v.which, v.repeat, v.shiftKey, v.ctrlKey,"
               " v.altKey, v.metaKey].join())",
           "[\"keydown,ArrowUp,38,38,false,false,false,false,false\","
           "\"keyup,ArrowUp,38,38,false,false,false,false,false\"]");
    EXPECT(&e, "[evs[0] !== evs[1], evs[0].preventDefault === evs[1].preventDefault,"
               " Object.keys(evs[0]).includes('preventDefault'), typeof evs[1].preventDefault]",
           "[true,true,false,\"function\"]");
    /* a throwing callback reports -1 with a pending exception */
    free(run(&e, "function keyPressed() { throw new Error('boom'); }"));
    CHECK(p5shim_key_event(e.shim, 13, 1) == -1, "throwing keyPressed");
    JSValue ex = JS_GetException(e.ctx);
#ifdef QJS_VERSION_MAJOR /* quickjs-ng */
    CHECK(JS_IsError(ex), "pending error");
#else
    CHECK(JS_IsError(e.ctx, ex), "pending error");
#endif
    JS_FreeValue(e.ctx, ex);
    env_free(&e);
}

static double lcg_next(uint32_t *s)
{
    *s = (uint32_t)(1664525ull * *s + 1013904223ull);
    return *s / 4294967296.0;
}

static void test_random_noise(void)
{
    Env e = env_new();
    uint32_t st = 42;
    char want[256], *got;
    double a = lcg_next(&st), b = lcg_next(&st);
    snprintf(want, sizeof want, "[%.17g,%.17g]", a, b);
    got = run(&e, "randomSeed(42); [random(), random()]");
    double ga, gb;
    CHECK(sscanf(got, "[%lf,%lf]", &ga, &gb) == 2 && ga == a && gb == b, "LCG got %s want %s", got, want);
    free(got);
    EXPECT(&e, "randomSeed(1); var r = [random(5), random(3, 1), random(['a','b','c'])]; randomSeed(1);"
               "[random() * 5 === r[0], r[1] >= 1 && r[1] < 3, typeof r[2]]",
           "[true,true,\"string\"]");
    /* Math.random and noise are functions of the episode seed */
    p5shim_reset_episode(e.shim, 7);
    got = run(&e, "[Math.random(), random(), noise(0.5, 1.5), frameCount, millis(), Date.now()]");
    p5shim_reset_episode(e.shim, 7);
    char *again = run(&e, "[Math.random(), random(), noise(0.5, 1.5), frameCount, millis(), Date.now()]");
    CHECK(strcmp(got, again) == 0, "same seed same values %s vs %s", got, again);
    free(again);
    p5shim_reset_episode(e.shim, 8);
    again = run(&e, "[Math.random(), random(), noise(0.5, 1.5), frameCount, millis(), Date.now()]");
    CHECK(strcmp(got, again) != 0, "different seed different values");
    free(again);
    free(got);
    /* mulberry32(7 ^ JG_SEED_RANDOM_MIX) as the game contract defines it */
    char js[1024];
    snprintf(js, sizeof js,
             "function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0;"
             "var t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;"
             "return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }"
             "var m = mulberry32((7 ^ %u) >>> 0); var x = [m(), m()];", JG_SEED_RANDOM_MIX);
    EXPECT(&e, js, "undefined");
    p5shim_reset_episode(e.shim, 7);
    EXPECT(&e, "var y = [Math.random(), Math.random()]; x[0] === y[0] && x[1] === y[1]", "true");
    p5shim_begin_frame(e.shim, 0);
    p5shim_begin_frame(e.shim, 0);
    snprintf(js, sizeof js,
             "[frameCount, millis() === 2 * (1000 / %d), Date.now() === %.0f + Math.floor(millis()),"
             "new Date().getTime() === Date.now(), performance.now() === millis(), deltaTime]",
             JG_CLOCK_FRAME_RATE, JG_CLOCK_EPOCH_MS);
    EXPECT(&e, js, "[2,true,true,true,true,16.666666666666668]");
    /* noise: p5's table for noiseSeed(s) is the LCG stream from s */
    st = 3;
    snprintf(want, sizeof want, "%.17g", lcg_next(&st));
    got = run(&e, "noiseSeed(3); noiseDetail(1, 0.5); noise(0) * 2");
    CHECK(atof(got) == atof(want), "noise(0) = perlin[0]: got %s want %s", got, want);
    free(got);
    env_free(&e);
}

static void test_bad_arguments(void)
{
    Env e = env_new();
    p5shim_begin_frame(e.shim, 1);
    EXPECT_THROW(&e, "createCanvas(NaN, 10)", "THROW:RangeError");
    EXPECT_THROW(&e, "createCanvas(100000, 10)", "THROW:RangeError");
    EXPECT_THROW(&e, "createCanvas(10, 10, WEBGL)", "THROW:TypeError");
    EXPECT_THROW(&e, "loadImage('a.png')", "THROW:TypeError: jsgym: loadImage() is not supported");
    EXPECT_THROW(&e, "createButton('x')", "THROW:TypeError: jsgym: createButton()");
    EXPECT_THROW(&e, "windowWidth", "THROW:ReferenceError: jsgym: windowWidth");
    EXPECT_THROW(&e, "color(true)", "THROW:Error");
    EXPECT_THROW(&e, "fill([])", "THROW:Error");
    EXPECT_THROW(&e, "fill({ valueOf() { throw new Error('v'); } }, 1, 2)", "THROW:Error: v");
    EXPECT_THROW(&e, "rect({ valueOf() { throw new Error('r'); } }, 1, 2, 3)", "THROW:Error: r");
    EXPECT_THROW(&e, "rect(0, 0, 10, 10, -3)", "THROW:RangeError");
    EXPECT_THROW(&e, "beginShape(); beginContour(); endContour()", "THROW:TypeError");
    EXPECT_THROW(&e, "new p5()", "THROW:TypeError");
    EXPECT(&e, "createCanvas(50, 40); [width, height]", "[50,40]");
    /* non-finite and odd arguments never crash */
    EXPECT(&e, "rect(NaN, Infinity, 'a', {}); ellipse(); arc(1,2,3); line(null, undefined); point({});"
               "triangle(); quad(1); text(); text(null, 1, 2); text(12345, 0, 0); fill(NaN); stroke('x');"
               "fill([1, 2, 3]); translate(NaN, 1); rotate(Infinity); scale(); applyMatrix([1,2]);"
               "vertex(); endShape(); bezierVertex(); curveVertex(); beginShape(TRIANGLE_FAN); vertex(1,1);"
               "vertex(2,2); vertex(3,3); vertex(4,4); endShape(CLOSE); strokeWeight(-1); strokeWeight();"
               "noise(); noise(-1e300, NaN, Infinity); random(NaN); randomSeed('x'); map(); constrain();"
               "dist(1); textSize('big'); textAlign(); 'ok'",
           "\"ok\"");
    size_t n;
    const uint32_t *w = p5shim_commands(e.shim, &n);
    CHECK(cmd_count(w, n) > 0, "well-formed stream after odd calls");
    env_free(&e);

    /* draw-call limit */
    e = env_new_limits(100);
    p5shim_begin_frame(e.shim, 0);
    EXPECT_THROW(&e, "for (var i = 0; i < 101; i++) rect(0, 0, 1, 1)",
                 "THROW:RangeError: jsgym: too many draw calls in one frame (limit 100)");
    p5shim_begin_frame(e.shim, 0);
    EXPECT(&e, "for (var i = 0; i < 100; i++) rect(0, 0, 1, 1); 1", "1");
    EXPECT_THROW(&e, "for (var i = 0; i < 5000; i++) push()", "THROW:RangeError");
    p5shim_reset_episode(e.shim, 1); /* empties the push stack */
    EXPECT(&e, "push(); pop(); 2", "2");
    env_free(&e);
}

static void test_globals_shadowable(void)
{
    Env e = env_new();
    /* a game may declare names the shim defines */
    EXPECT(&e, "var width = 5; function rect() { return 'mine'; } let score = 0; rect()", "\"mine\"");
    EXPECT(&e, "let key2 = 1; const PI2 = PI; typeof p5.Vector", "\"function\"");
    env_free(&e);
    e = env_new();
    EXPECT(&e, "let frameCount2 = 0; class Ball {}; let color1 = color(1); typeof Ball", "\"function\"");
    EXPECT(&e, "var v = createVector(3, 4); [v.mag(), v.copy().normalize().x, p5.Vector.add(v, v).x,"
               "v.heading() === Math.atan2(4, 3), v.dist(createVector(0, 0))]",
           "[5,0.6000000000000001,6,true,5]");
    EXPECT(&e, "[constrain(5, 0, 3), map(5, 0, 10, 0, 100), map(20, 0, 10, 0, 100, true), lerp(0, 10, 0.25),"
               "dist(0, 0, 3, 4), mag(3, 4), norm(5, 0, 10), round(2.567, 2), sq(3), min([4, 2, 9]),"
               "max(1, 7, 3), fract(3.7), degrees(PI), abs(-2)]",
           "[3,50,100,2.5,5,5,0.5,2.57,9,2,7,0.7,180,2]");
    env_free(&e);
}

static void test_engine_leaks_many_contexts(void)
{
    for (int k = 0; k < 3; k++) {
        Env e = env_new();
        p5shim_begin_frame(e.shim, 1);
        free(run(&e, "createCanvas(64, 64); for (var i = 0; i < 2000; i++) { fill(i % 255); rect(i, i, 2, 2); }"
                     "textFont('Courier'); push(); textFont('Mono'); 0"));
        env_free(&e);
    }
    CHECK(1, "no leak reports");
}

/* Replays tests/data/p5_cases.json: [{"name", "code", "expected", "rtol"?}, ...]. */
static void test_cases_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "note: %s not found, golden cases skipped\n", path);
        return;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = (char *)malloc((size_t)len + 1);
    if (fread(buf, 1, (size_t)len, f) != (size_t)len) len = 0;
    buf[len] = 0;
    fclose(f);
    Env host = env_new();
    /* compare in JS: exact for strings/integers/booleans, relative tolerance for floats */
    static const char cmp_src[] =
        "(function (got, want, rtol) {"
        "  function eq(a, b) {"
        "    if (typeof b === 'number' && typeof a === 'number') {"
        "      if (Number.isInteger(b) && Math.abs(b) < 2 ** 53 && rtol === 1e-12) return a === b || Math.abs(a - b) <= rtol * Math.abs(b);"
        "      if (a === b) return true;"
        "      return Math.abs(a - b) <= rtol * Math.max(Math.abs(b), 1e-300);"
        "    }"
        "    if (Array.isArray(b)) return Array.isArray(a) && a.length === b.length && b.every(function (x, i) { return eq(a[i], x); });"
        "    if (b && typeof b === 'object') return a && typeof a === 'object' && Object.keys(b).every(function (k) { return eq(a[k], b[k]); }) && Object.keys(a).length === Object.keys(b).length;"
        "    return a === b;"
        "  }"
        "  return eq(got, want);"
        "})";
    JSValue cases = JS_ParseJSON(host.ctx, buf, (size_t)len, path);
    JSValue cmp = JS_Eval(host.ctx, cmp_src, strlen(cmp_src), "<cmp>", JS_EVAL_TYPE_GLOBAL);
    CHECK(!JS_IsException(cases) && !JS_IsException(cmp), "cases file parses");
    JSValue list = JS_GetPropertyStr(host.ctx, cases, "cases");
    JSValue lenv = JS_GetPropertyStr(host.ctx, list, "length");
    int32_t ncases = 0;
    JS_ToInt32(host.ctx, &ncases, lenv);
    int matched = 0, with_expected = 0;
    for (int i = 0; i < ncases; i++) {
        JSValue c = JS_GetPropertyUint32(host.ctx, list, (uint32_t)i);
        JSValue code = JS_GetPropertyStr(host.ctx, c, "code");
        JSValue name = JS_GetPropertyStr(host.ctx, c, "name");
        JSValue want = JS_GetPropertyStr(host.ctx, c, "expected");
        JSValue rtolv = JS_GetPropertyStr(host.ctx, c, "rtol");
        double rtol = 1e-12;
        if (!JS_IsUndefined(rtolv)) JS_ToFloat64(host.ctx, &rtol, rtolv);
        const char *code_s = JS_ToCString(host.ctx, code);
        const char *name_s = JS_ToCString(host.ctx, name);
        if (!JS_IsUndefined(want)) {
            with_expected++;
            Env e = env_new();
            char *got = run(&e, code_s);
            env_free(&e);
            JSValue gotv = strncmp(got, "THROW:", 6) == 0 ? JS_NewString(host.ctx, got)
                           : strcmp(got, "undefined") == 0 ? JS_UNDEFINED
                                                             : JS_ParseJSON(host.ctx, got, strlen(got), "<got>");
            JSValue args[3] = {gotv, want, JS_NewFloat64(host.ctx, rtol)};
            JSValue r = JS_Call(host.ctx, cmp, JS_UNDEFINED, 3, args);
            int ok = JS_ToBool(host.ctx, r) == 1;
            if (ok) matched++;
            else {
                JSValue wj = JS_JSONStringify(host.ctx, want, JS_UNDEFINED, JS_UNDEFINED);
                const char *ws = JS_ToCString(host.ctx, wj);
                fprintf(stderr, "CASE MISMATCH %s\n   got  %.300s\n   want %.300s\n", name_s, got, ws);
                JS_FreeCString(host.ctx, ws);
                JS_FreeValue(host.ctx, wj);
            }
            g_checks++;
            if (!ok) g_failed++;
            JS_FreeValue(host.ctx, r);
            JS_FreeValue(host.ctx, gotv);
            free(got);
        }
        JS_FreeCString(host.ctx, code_s);
        JS_FreeCString(host.ctx, name_s);
        JS_FreeValue(host.ctx, code);
        JS_FreeValue(host.ctx, name);
        JS_FreeValue(host.ctx, want);
        JS_FreeValue(host.ctx, rtolv);
        JS_FreeValue(host.ctx, c);
    }
    printf("golden p5 cases: %d with expected values, %d match (of %d cases)\n", with_expected, matched, ncases);
    JS_FreeValue(host.ctx, lenv);
    JS_FreeValue(host.ctx, list);
    JS_FreeValue(host.ctx, cases);
    JS_FreeValue(host.ctx, cmp);
    env_free(&host);
    free(buf);
}

int main(int argc, char **argv)
{
    test_rect_modes();
    test_push_pop_and_colors();
    test_colours_made_again_in_place();
    test_int_levels_fill();
    test_color_changed_after_fill();
    test_string_fills();
    test_shapes_paths();
    test_text();
    test_keys();
    test_random_noise();
    test_bad_arguments();
    test_globals_shadowable();
    test_engine_leaks_many_contexts();
    if (argc > 1) test_cases_file(argv[1]);
    printf("%d checks, %d failed\n", g_checks, g_failed);
    return g_failed ? 1 : 0;
}
