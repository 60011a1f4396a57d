/* p5 math: random (all forms), randomSeed (p5's LCG), randomGaussian (p5's polar
 * Box-Muller with its cached second value), noise/noiseSeed/noiseDetail (p5's
 * Perlin, int32 wrap-around included), constrain, map, lerp, dist, mag, norm, sq,
 * round, degrees, radians. Formulas are p5 1.11's, operation for operation, so
 * results are bit-identical to V8 where the operations are IEEE-exact; dist/mag
 * reimplement V8's Math.hypot (Kahan-compensated, max-normalised). Math.cos in
 * noise() and Math.log in randomGaussian() come from libm here (see the test
 * notes: they agree with V8 on the values we checked).
 * min and max are Math.min/Math.max over the arguments, or over the elements of an
 * array first argument, as p5 1.11 does (natively: p5's version copies its
 * arguments and goes through Function.apply). The trigonometric helpers convert
 * with angleMode as p5's _toRadians/_fromRadians do and call the global Math's
 * functions at each call, as p5 does (the runtime replaces those with V8-identical
 * ones; a game may too). fract lives in prelude.js.
 */
#include "engine/engine.h"
#include "p5_internal.h"

/* JS Math.min / Math.max of two numbers (NaN propagates, -0 < +0). */
static double js_min(double a, double b)
{
    if (isnan(a) || isnan(b)) return NAN;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}

static double js_max(double a, double b)
{
    if (isnan(a) || isnan(b)) return NAN;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}

/* V8's Math.hypot (builtins/math.tq). */
double p5_hypot(const double *v, int n)
{
    double absv[6], max = 0, sum = 0, comp = 0;
    int one_nan = 0;
    for (int i = 0; i < n; i++) {
        if (isnan(v[i])) {
            one_nan = 1;
            absv[i] = 0;
        } else {
            absv[i] = fabs(v[i]);
            if (absv[i] > max) max = absv[i];
        }
    }
    if (max == INFINITY) return INFINITY;
    if (one_nan) return NAN;
    if (max == 0) return 0;
    for (int i = 0; i < n; i++) {
        double x = absv[i] / max;
        double summand = x * x - comp;
        double prelim = sum + summand;
        comp = (prelim - sum) - summand;
        sum = prelim;
    }
    return sqrt(sum) * max;
}

/* p5 _lcg: state = (1664525 * state + 1013904223) % 2^32, exact in doubles. */
static double p5_lcg(uint32_t *state)
{
    *state = (uint32_t)(1664525ull * *state + 1013904223ull);
    return (double)*state / 4294967296.0;
}

double p5_random01(P5Shim *s)
{
    return s->lcg_seeded ? p5_lcg(&s->lcg_state) : p5_math_random(s);
}

void p5_noise_seed(P5Shim *s, uint32_t seed)
{
    uint32_t z = seed;
    for (int i = 0; i < 4096; i++) s->perlin[i] = p5_lcg(&z);
}

/* (val == null ? Math.random() * 2^32 : val) >>> 0 */
static int p5_seed_arg(JSContext *ctx, P5Shim *s, int argc, JSValueConst *argv, uint32_t *out)
{
    double d;
    if (argc < 1 || JS_IsUndefined(argv[0]) || JS_IsNull(argv[0])) d = p5_math_random(s) * 4294967296.0;
    else if (p5_num(ctx, &d, argv[0])) return -1;
    *out = (uint32_t)p5_to_int32(d);
    return 0;
}

static double scaled_cosine(double i) { return 0.5 * (1.0 - cos(i * M_PI)); }

/* scaled_cosine of the fractional part that coordinate `v` (non-negative) has at each
 * of the first `octaves` octaves (it doubles and drops its whole part octave after
 * octave, whatever the integer part does), kept for the next call with the same `v`. */
static void noise_axis_weights(double v, int octaves, double *weight)
{
    double f = v - floor(v);
    for (int o = 0; o < octaves; o++) {
        weight[o] = scaled_cosine(f);
        f *= 2;
        if (f >= 1) f--;
    }
}

static const double *noise_weights(P5Shim *s, int axis, double v, int octaves)
{
    double *key, *weight;
    int *keyed_octaves;
    if (octaves <= P5_NOISE_SLOT_OCTAVES) {
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        uint64_t h = (bits ^ bits >> 32) * 0xD6E8FEB86659FD93ull;
        _Static_assert(P5_NOISE_SLOTS == 64, "the slot is the hash's top 6 bits");
        P5NoiseSlot *c = &s->noise_slots[axis][h >> 58];
        key = &c->key, keyed_octaves = &c->octaves, weight = c->weight;
    } else {
        P5NoiseAxis *c = &s->noise_axis[axis];
        key = &c->key, keyed_octaves = &c->octaves, weight = c->weight;
    }
    if (*key != v || *keyed_octaves != octaves) {
        noise_axis_weights(v, octaves, weight);
        *key = v;
        *keyed_octaves = octaves;
    }
    return weight;
}

/* The lattice cells an octave of p5's noise reads, from its base index: x, x + 1,
 * then one row (16) and one plane (256) further. */
static const int NOISE_CORNERS[8] = {0, 1, 16, 17, 256, 257, 272, 273};

/* One octave of p5's noise from its corners' values, in p5's order of operations:
 * along x on each of the four edges, then y, then z. */
static inline double noise_cell(const double c[8], double rx, double ry, double rz)
{
    double n1 = c[0], n2 = c[2], n3;
    n1 += rx * (c[1] - n1);
    n2 += rx * (c[3] - n2);
    n1 += ry * (n2 - n1);
    n2 = c[4];
    n2 += rx * (c[5] - n2);
    n3 = c[6];
    n3 += rx * (c[7] - n3);
    n2 += ry * (n3 - n2);
    return n1 + rz * (n2 - n1);
}

/* p5_noise's octaves for lattice coordinates that start as int32 values (what noise()
 * is called with but for huge arguments): p5 keeps them in doubles and wraps them
 * through ToInt32 on every shift, which uint32 arithmetic does exactly; an index is
 * the low 12 bits of the integer sum, whatever ToInt32 did to its high bits. */
static double p5_noise_int32(const double *P, uint32_t xi, uint32_t yi, uint32_t zi, double xf,
                             double yf, double zf, const double *wx, const double *wy,
                             const double *wz, int octaves, double falloff)
{
    double r = 0, ampl = 0.5;
    for (int o = 0; o < octaves; o++) {
        int64_t of = (int64_t)(int32_t)xi + (int32_t)(yi << 4) + (int32_t)(zi << 8);
        double c[8];
        for (int k = 0; k < 8; k++) c[k] = P[(uint64_t)(of + NOISE_CORNERS[k]) & 4095];
        r += noise_cell(c, wx[o], wy[o], wz[o]) * ampl;
        ampl *= falloff;
        xi <<= 1;
        xf *= 2;
        yi <<= 1;
        yf *= 2;
        zi <<= 1;
        zf *= 2;
        if (xf >= 1) { xi++; xf--; }
        if (yf >= 1) { yi++; yf--; }
        if (zf >= 1) { zi++; zf--; }
    }
    return r;
}

static double p5_noise(P5Shim *s, double x, double y, double z)
{
    const double *P = s->perlin;
    if (x < 0) x = -x;
    if (y < 0) y = -y;
    if (z < 0) z = -z;
    double xi = floor(x), yi = floor(y), zi = floor(z);
    double xf = x - xi, yf = y - yi, zf = z - zi;
    double r = 0, ampl = 0.5;
    /* p5 loops `o < perlin_octaves`; capped so a huge noiseDetail cannot hang the
     * worker thread outside the interrupt handler's reach */
    int octaves = 0;
    while (octaves < s->perlin_octaves && octaves < 64) octaves++;
    const double *wx = noise_weights(s, 0, x, octaves), *wy = noise_weights(s, 1, y, octaves),
                 *wz = noise_weights(s, 2, z, octaves);
    if (xi < 2147483648.0 && yi < 2147483648.0 && zi < 2147483648.0)
        return p5_noise_int32(P, (uint32_t)xi, (uint32_t)yi, (uint32_t)zi, xf, yf, zf, wx, wy, wz,
                              octaves, s->perlin_falloff);
    for (int o = 0; o < octaves; o++) {
        double of = xi + (double)(int32_t)((uint32_t)p5_to_int32(yi) << 4) +
                    (double)(int32_t)((uint32_t)p5_to_int32(zi) << 8);
        /* p5's own sums, in doubles (beyond 2^53 they round, as p5's do) */
        double of2 = of + 256;
#define PI_(v) P[p5_to_int32(v) & 4095]
        const double c[8] = {PI_(of),  PI_(of + 1),  PI_(of + 16),  PI_(of + 16 + 1),
                             PI_(of2), PI_(of2 + 1), PI_(of2 + 16), PI_(of2 + 16 + 1)};
#undef PI_
        r += noise_cell(c, wx[o], wy[o], wz[o]) * ampl;
        ampl *= s->perlin_falloff;
        xi = (double)(int32_t)((uint32_t)p5_to_int32(xi) << 1);
        xf *= 2;
        yi = (double)(int32_t)((uint32_t)p5_to_int32(yi) << 1);
        yf *= 2;
        zi = (double)(int32_t)((uint32_t)p5_to_int32(zi) << 1);
        zf *= 2;
        if (xf >= 1) { xi++; xf--; }
        if (yf >= 1) { yi++; yf--; }
        if (zf >= 1) { zi++; zf--; }
    }
    return r;
}

enum { P5_M_RANDOM, P5_M_RANDOMSEED, P5_M_GAUSSIAN, P5_M_NOISE, P5_M_NOISESEED, P5_M_NOISEDETAIL,
       P5_M_CONSTRAIN, P5_M_MAP, P5_M_LERP, P5_M_DIST, P5_M_MAG, P5_M_NORM, P5_M_SQ, P5_M_ROUND,
       P5_M_DEGREES, P5_M_RADIANS };

static JSValue js_p5_math(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic)
{
    P5Shim *s = p5_shim(ctx);
    double a[6], r;
    s->calls++;
    switch (magic) {
    case P5_M_RANDOM: {
        double rand = p5_random01(s);
        if (argc < 1 || JS_IsUndefined(argv[0])) return JS_NewFloat64(ctx, rand);
        if (argc < 2 || JS_IsUndefined(argv[1])) {
            JSValue *elems;
            uint32_t n;
            if (engine_fast_array(ctx, argv[0], &elems, &n)) {
                /* arr[Math.floor(rand * arr.length)], read in place */
                double idx = floor(rand * n);
                return idx >= 0 && idx < n ? JS_DupValue(ctx, elems[(uint32_t)idx]) : JS_UNDEFINED;
            }
            if (P5_IS_ARRAY(ctx, argv[0])) {
                JSValue lv = JS_GetProperty(ctx, argv[0], s->atoms[P5_ATOM_length]);
                double len;
                int bad = JS_IsException(lv) || p5_num(ctx, &len, lv);
                JS_FreeValue(ctx, lv);
                if (bad) return JS_EXCEPTION;
                {
                    double idx = floor(rand * len);
                    if (!(idx >= 0 && idx < 4294967295.0)) return JS_UNDEFINED;
                    return JS_GetPropertyUint32(ctx, argv[0], (uint32_t)idx);
                }
            }
            if (p5_num(ctx, &a[0], argv[0])) return JS_EXCEPTION;
            return JS_NewFloat64(ctx, rand * a[0]);
        }
        if (p5_num(ctx, &a[0], argv[0]) || p5_num(ctx, &a[1], argv[1])) return JS_EXCEPTION;
        if (a[0] > a[1]) { double t = a[0]; a[0] = a[1]; a[1] = t; }
        return JS_NewFloat64(ctx, rand * (a[1] - a[0]) + a[0]);
    }
    case P5_M_RANDOMSEED:
        if (p5_seed_arg(ctx, s, argc, argv, &s->lcg_state)) return JS_EXCEPTION;
        s->lcg_seeded = 1;
        s->gaussian_previous = 0;
        return JS_UNDEFINED;
    case P5_M_GAUSSIAN: {
        double sd = 1, mean = 0, y1;
        if (argc > 1 && !JS_IsUndefined(argv[1]) && p5_num(ctx, &sd, argv[1])) return JS_EXCEPTION;
        if (argc > 0) {
            int t = JS_ToBool(ctx, argv[0]); /* mean || 0 */
            if (t < 0) return JS_EXCEPTION;
            if (t && p5_num(ctx, &mean, argv[0])) return JS_EXCEPTION;
        }
        if (s->gaussian_previous) {
            y1 = s->gaussian_y2;
            s->gaussian_previous = 0;
        } else {
            double x1, x2, w;
            do {
                x1 = p5_random01(s) * 2 - 1;
                x2 = p5_random01(s) * 2 - 1;
                w = x1 * x1 + x2 * x2;
            } while (w >= 1);
            w = sqrt(-2 * log(w) / w);
            y1 = x1 * w;
            s->gaussian_y2 = x2 * w;
            s->gaussian_previous = 1;
        }
        return JS_NewFloat64(ctx, y1 * sd + mean);
    }
    case P5_M_NOISE:
        a[1] = a[2] = 0;
        if (p5_arg(ctx, &a[0], argc, argv, 0)) return JS_EXCEPTION;
        for (int i = 1; i < 3; i++)
            if (argc > i && !JS_IsUndefined(argv[i]) && p5_num(ctx, &a[i], argv[i])) return JS_EXCEPTION;
        return JS_NewFloat64(ctx, p5_noise(s, a[0], a[1], a[2]));
    case P5_M_NOISESEED: {
        uint32_t seed;
        if (p5_seed_arg(ctx, s, argc, argv, &seed)) return JS_EXCEPTION;
        p5_noise_seed(s, seed);
        return JS_UNDEFINED;
    }
    case P5_M_NOISEDETAIL:
        if (p5_arg(ctx, &a[0], argc, argv, 0) || p5_arg(ctx, &a[1], argc, argv, 1)) return JS_EXCEPTION;
        if (a[0] > 0) s->perlin_octaves = a[0];
        if (a[1] > 0) s->perlin_falloff = a[1];
        return JS_UNDEFINED;
    case P5_M_CONSTRAIN:
        for (int i = 0; i < 3; i++)
            if (p5_arg(ctx, &a[i], argc, argv, i)) return JS_EXCEPTION;
        return p5_new_number(ctx, js_max(js_min(a[0], a[2]), a[1]));
    case P5_M_MAP:
    case P5_M_NORM: {
        int within = 0;
        int n = magic == P5_M_MAP ? 5 : 3;
        for (int i = 0; i < n; i++)
            if (p5_arg(ctx, &a[i], argc, argv, i)) return JS_EXCEPTION;
        if (magic == P5_M_NORM) { a[3] = 0; a[4] = 1; }
        else if (argc > 5 && (within = JS_ToBool(ctx, argv[5])) < 0) return JS_EXCEPTION;
        r = (a[0] - a[1]) / (a[2] - a[1]) * (a[4] - a[3]) + a[3];
        if (within) {
            if (a[3] < a[4]) r = js_max(js_min(r, a[4]), a[3]);
            else r = js_max(js_min(r, a[3]), a[4]);
        }
        return p5_new_number(ctx, r);
    }
    case P5_M_LERP:
        for (int i = 0; i < 3; i++)
            if (p5_arg(ctx, &a[i], argc, argv, i)) return JS_EXCEPTION;
        return p5_new_number(ctx, a[2] * (a[1] - a[0]) + a[0]);
    case P5_M_DIST: {
        double d[3];
        if (argc != 4 && argc != 6) return JS_UNDEFINED;
        for (int i = 0; i < argc; i++)
            if (p5_num(ctx, &a[i], argv[i])) return JS_EXCEPTION;
        if (argc == 4) { d[0] = a[2] - a[0]; d[1] = a[3] - a[1]; }
        else { d[0] = a[3] - a[0]; d[1] = a[4] - a[1]; d[2] = a[5] - a[2]; }
        return p5_new_number(ctx, p5_hypot(d, argc / 2));
    }
    case P5_M_MAG:
        if (p5_arg(ctx, &a[0], argc, argv, 0) || p5_arg(ctx, &a[1], argc, argv, 1)) return JS_EXCEPTION;
        return p5_new_number(ctx, p5_hypot(a, 2));
    case P5_M_SQ:
        if (p5_arg(ctx, &a[0], argc, argv, 0)) return JS_EXCEPTION;
        return p5_new_number(ctx, a[0] * a[0]);
    case P5_M_ROUND: {
        int has_dec = 0;
        if (p5_arg(ctx, &a[0], argc, argv, 0)) return JS_EXCEPTION;
        if (argc > 1 && (has_dec = JS_ToBool(ctx, argv[1])) < 0) return JS_EXCEPTION;
        if (!has_dec) return p5_new_number(ctx, p5_js_round(a[0]));
        if (p5_num(ctx, &a[1], argv[1])) return JS_EXCEPTION;
        double m = pow(10, a[1]);
        return p5_new_number(ctx, p5_js_round(a[0] * m) / m);
    }
    case P5_M_DEGREES:
    case P5_M_RADIANS:
        if (p5_arg(ctx, &a[0], argc, argv, 0)) return JS_EXCEPTION;
        return p5_new_number(ctx, a[0] * (magic == P5_M_DEGREES ? 180 / M_PI : M_PI / 180));
    }
    return JS_UNDEFINED;
}

/* p5.prototype.max/min: Math.max/Math.min of the arguments, or of the elements of
 * an array first argument. Every value is converted with ToNumber in order (so
 * valueOf side effects and exceptions happen as in Math.max); int arguments stay
 * ints, as in the engine's Math.max. */
static JSValue js_p5_min_max(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                             int is_max)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    if (argc >= 1) {
        if (P5_IS_ARRAY(ctx, argv[0])) {
            uint32_t n;
            JSValue len = JS_GetPropertyStr(ctx, argv[0], "length");
            if (JS_IsException(len) || JS_ToUint32(ctx, &n, len)) {
                JS_FreeValue(ctx, len);
                return JS_EXCEPTION;
            }
            JS_FreeValue(ctx, len);
            double r = is_max ? -INFINITY : INFINITY;
            for (uint32_t i = 0; i < n; i++) {
                double v;
                JSValue e = JS_GetPropertyUint32(ctx, argv[0], i);
                if (JS_IsException(e)) return JS_EXCEPTION;
                int bad = JS_ToFloat64(ctx, &v, e);
                JS_FreeValue(ctx, e);
                if (bad) return JS_EXCEPTION;
                r = is_max ? js_max(r, v) : js_min(r, v);
            }
            return p5_new_number(ctx, r);
        }
    }
    int all_int = 1;
    for (int i = 0; i < argc && all_int; i++) all_int = JS_VALUE_GET_TAG(argv[i]) == JS_TAG_INT;
    if (all_int && argc > 0) {
        int32_t r = JS_VALUE_GET_INT(argv[0]);
        for (int i = 1; i < argc; i++) {
            int32_t v = JS_VALUE_GET_INT(argv[i]);
            if (is_max ? v > r : v < r) r = v;
        }
        return JS_NewInt32(ctx, r);
    }
    double r = is_max ? -INFINITY : INFINITY;
    for (int i = 0; i < argc; i++) {
        double v;
        if (JS_ToFloat64(ctx, &v, argv[i])) return JS_EXCEPTION;
        r = is_max ? js_max(r, v) : js_min(r, v);
    }
    return JS_NewFloat64(ctx, r);
}

static const char *const p5_trig_names[7] = {"sin", "cos", "tan", "asin", "acos", "atan", "atan2"};
enum { P5_TRIG_SIN, P5_TRIG_COS, P5_TRIG_TAN, P5_TRIG_ASIN, P5_TRIG_ACOS, P5_TRIG_ATAN, P5_TRIG_ATAN2 };

void p5_math_init(P5Shim *s)
{
    s->math = JS_UNDEFINED;
    for (int i = 0; i < 7; i++) s->math_atoms[i] = JS_ATOM_NULL;
}

void p5_math_free(P5Shim *s)
{
    JS_FreeValue(s->ctx, s->math);
    s->math = JS_UNDEFINED;
    for (int i = 0; i < 7; i++)
        if (s->math_atoms[i] != JS_ATOM_NULL) JS_FreeAtom(s->ctx, s->math_atoms[i]);
}

/* sin/cos/tan(angle) = Math.f(_toRadians(angle)); asin/acos/atan(ratio) and
 * atan2(y, x) = _fromRadians(Math.f(...)). */
static JSValue js_p5_trig(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic)
{
    P5Shim *s = p5_shim(ctx);
    s->calls++;
    JSValue f = JS_GetProperty(ctx, s->math, s->math_atoms[magic]);
    if (JS_IsException(f)) return f;
    JSValue args[2] = {argc > 0 ? argv[0] : JS_UNDEFINED, argc > 1 ? argv[1] : JS_UNDEFINED};
    int n = magic == P5_TRIG_ATAN2 ? 2 : 1;
    if (magic <= P5_TRIG_TAN && s->angle_degrees) {
        double a;
        if (p5_num(ctx, &a, args[0])) {
            JS_FreeValue(ctx, f);
            return JS_EXCEPTION;
        }
        args[0] = JS_NewFloat64(ctx, a * (M_PI / 180));
    }
    JSValue r = JS_Call(ctx, f, s->math, n, args);
    JS_FreeValue(ctx, f);
    if (magic <= P5_TRIG_TAN || !s->angle_degrees || JS_IsException(r)) return r;
    double d;
    int bad = p5_num(ctx, &d, r); /* angle * RAD_TO_DEG */
    JS_FreeValue(ctx, r);
    return bad ? JS_EXCEPTION : JS_NewFloat64(ctx, d * (180 / M_PI));
}

static const JSCFunctionListEntry p5_math_funcs[] = {
    JS_CFUNC_MAGIC_DEF("sin", 1, js_p5_trig, P5_TRIG_SIN),
    JS_CFUNC_MAGIC_DEF("cos", 1, js_p5_trig, P5_TRIG_COS),
    JS_CFUNC_MAGIC_DEF("tan", 1, js_p5_trig, P5_TRIG_TAN),
    JS_CFUNC_MAGIC_DEF("asin", 1, js_p5_trig, P5_TRIG_ASIN),
    JS_CFUNC_MAGIC_DEF("acos", 1, js_p5_trig, P5_TRIG_ACOS),
    JS_CFUNC_MAGIC_DEF("atan", 1, js_p5_trig, P5_TRIG_ATAN),
    JS_CFUNC_MAGIC_DEF("atan2", 2, js_p5_trig, P5_TRIG_ATAN2),
    JS_CFUNC_MAGIC_DEF("max", 0, js_p5_min_max, 1),
    JS_CFUNC_MAGIC_DEF("min", 0, js_p5_min_max, 0),
    JS_CFUNC_MAGIC_DEF("random", 2, js_p5_math, P5_M_RANDOM),
    JS_CFUNC_MAGIC_DEF("randomSeed", 1, js_p5_math, P5_M_RANDOMSEED),
    JS_CFUNC_MAGIC_DEF("randomGaussian", 2, js_p5_math, P5_M_GAUSSIAN),
    JS_CFUNC_MAGIC_DEF("noise", 3, js_p5_math, P5_M_NOISE),
    JS_CFUNC_MAGIC_DEF("noiseSeed", 1, js_p5_math, P5_M_NOISESEED),
    JS_CFUNC_MAGIC_DEF("noiseDetail", 2, js_p5_math, P5_M_NOISEDETAIL),
    JS_CFUNC_MAGIC_DEF("constrain", 3, js_p5_math, P5_M_CONSTRAIN),
    JS_CFUNC_MAGIC_DEF("map", 6, js_p5_math, P5_M_MAP),
    JS_CFUNC_MAGIC_DEF("lerp", 3, js_p5_math, P5_M_LERP),
    JS_CFUNC_MAGIC_DEF("dist", 4, js_p5_math, P5_M_DIST),
    JS_CFUNC_MAGIC_DEF("mag", 2, js_p5_math, P5_M_MAG),
    JS_CFUNC_MAGIC_DEF("norm", 3, js_p5_math, P5_M_NORM),
    JS_CFUNC_MAGIC_DEF("sq", 1, js_p5_math, P5_M_SQ),
    JS_CFUNC_MAGIC_DEF("round", 2, js_p5_math, P5_M_ROUND),
    JS_CFUNC_MAGIC_DEF("degrees", 1, js_p5_math, P5_M_DEGREES),
    JS_CFUNC_MAGIC_DEF("radians", 1, js_p5_math, P5_M_RADIANS),
};

int p5_install_math(JSContext *ctx, JSValueConst global)
{
    P5Shim *s = p5_shim(ctx);
    s->math = JS_GetPropertyStr(ctx, global, "Math");
    if (JS_IsException(s->math)) return -1;
    for (int i = 0; i < 7; i++)
        if ((s->math_atoms[i] = JS_NewAtom(ctx, p5_trig_names[i])) == JS_ATOM_NULL) return -1;
    return JS_SetPropertyFunctionList(ctx, global, p5_math_funcs,
                                      (int)(sizeof p5_math_funcs / sizeof p5_math_funcs[0]));
}
