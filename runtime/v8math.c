/*
 * v8math.c -- V8-identical replacements for the Math functions where QuickJS
 * (calling the host libm) and Chromium's V8 disagree.  See v8math.h and
 * docs/math.md.
 *
 * Build: -O2 -ffp-contract=off, no fast-math flags.  The code only uses
 * IEEE-754 binary64 +, -, *, /, sqrt (all correctly rounded, hence identical
 * on every conforming platform) plus integer arithmetic, in a fixed order.
 *
 * Written for jsgym from the published algorithm descriptions (correct
 * rounding by exact residual test; Kahan compensated summation).
 */
#include "v8math.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__FAST_MATH__)
#error "v8math.c must not be compiled with -ffast-math (breaks bit-exactness)"
#endif

static inline uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

#define SIGN_MASK 0x8000000000000000ull
#define FRAC_MASK 0x000fffffffffffffull
#define HIDDEN    0x0010000000000000ull

/* ------------------------------------------------------------------ cbrt
 *
 * Correctly rounded cube root.
 *   |x| = M * 2^(E-52), M in [2^52, 2^53) (subnormals normalised first)
 *   E = 3k + r, r in {0,1,2}  ->  cbrt|x| = cbrt(x') * 2^k,
 *   x' = M * 2^(r-52) in [1, 8),  cbrt(x') in [1, 2).
 * 1. a double approximation t of cbrt(x') by Newton's iteration
 *    t <- (2t + x'/t^2) / 3 from a linear first guess (only a starting point,
 *    its exact value does not influence the result);
 * 2. Y = t * 2^52 (integer in [2^52, 2^53)); the correctly rounded result is
 *    the Y for which the two neighbouring midpoints (2Y-1)/2^53 and
 *    (2Y+1)/2^53 bracket cbrt(x'), i.e.
 *        (2Y-1)^3  <  Xi * 2^107  <  (2Y+1)^3,   Xi = M << r = x' * 2^52,
 *    checked exactly with 192-bit integers and fixed by stepping Y.
 *    (Equality is impossible: an odd 54-bit number cubed is not a multiple of
 *    2^107 times a 55-bit integer, so there are no ties.)  Y may round up to
 *    2^53 (e.g. x = 1 - 2^-53 gives exactly 1.0): the carry goes into the
 *    exponent field.
 * The result 2^k * Y / 2^52 is always a normal number (k in [-358, 341]).
 */

typedef unsigned __int128 u128;

/* compare a^3 (a < 2^55) with xi * 2^107 (xi < 2^55): returns -1, 0, 1 */
static int cube_cmp(uint64_t a, uint64_t xi)
{
    u128 sq = (u128)a * a;                         /* < 2^110 */
    u128 lo = (u128)(uint64_t)sq * a;              /* low 64 bits of sq times a */
    u128 hi = (u128)(uint64_t)(sq >> 64) * a;      /* high part times a */
    uint64_t c0 = (uint64_t)lo;                    /* cube bits 0..63 */
    u128 c1 = hi + (lo >> 64);                     /* cube bits 64.. */
    u128 r1 = (u128)xi << 43;                      /* (xi << 107) >> 64 */
    if (c1 != r1)
        return c1 < r1 ? -1 : 1;
    return c0 != 0 ? 1 : 0;
}

double jg_v8_cbrt(double x)
{
    uint64_t b = d2u(x);
    uint64_t sign = b & SIGN_MASK;
    uint64_t a = b & ~SIGN_MASK;
    uint64_t M, Xi, Y;
    int E, k, r, i;
    double xr, t;

    if (a >= 0x7ff0000000000000ull)     /* +-Infinity -> itself, NaN -> NaN */
        return x + x;
    if (a == 0)                         /* +-0 -> itself */
        return x;
    if (a < HIDDEN) {                   /* subnormal: normalise */
        int sh = __builtin_clzll(a) - 11;
        M = a << sh;
        E = -1022 - sh;
    } else {
        M = (a & FRAC_MASK) | HIDDEN;
        E = (int)(a >> 52) - 1023;
    }
    k = E >= 0 ? E / 3 : -((-E + 2) / 3);   /* floor(E / 3) */
    r = E - 3 * k;
    Xi = M << r;                            /* x' * 2^52, < 2^55 */
    xr = u2d(((uint64_t)(1023 + r) << 52) | (M & FRAC_MASK));   /* x', exact */

    /* step 1: approximation (cbrt(1) = 1, cbrt(8) = 2) */
    t = 1.0 + (xr - 1.0) * (1.0 / 7.0);
    for (i = 0; i < 6; i++) {
        double t2 = t * t;
        double q = xr / t2;
        t = (t + t + q) / 3.0;
    }
    if (!(t >= 1.0)) t = 1.0;
    if (t >= 2.0) t = u2d(0x3fffffffffffffffull);   /* largest double < 2 */
    Y = (d2u(t) & FRAC_MASK) | HIDDEN;             /* t * 2^52 */

    /* step 2: exact correction to the correctly rounded Y */
    while (Y < (HIDDEN << 1) && cube_cmp(2 * Y + 1, Xi) < 0)
        Y++;
    while (Y > HIDDEN && cube_cmp(2 * Y - 1, Xi) > 0)
        Y--;

    /* Y == 2^53 (x' just below 8 rounds up to 2.0) carries into the exponent */
    return u2d(sign | (((uint64_t)(k + 1023) << 52) + (Y - HIDDEN)));
}

/* ----------------------------------------------------------------- hypot
 *
 * V8 (builtins-math / Torque MathHypot): take |v_i|; if any is +Infinity the
 * result is +Infinity, else if any argument is NaN the result is NaN, else if
 * the largest magnitude m is 0 the result is +0.  Otherwise sum the squares
 * of v_i / m in argument order with Kahan compensation:
 *     s = (|v_i| / m)^2 - c;  p = sum + s;  c = (p - sum) - s;  sum = p
 * and return sqrt(sum) * m.
 */
double jg_v8_hypot_n(const double *v, int n)
{
    double m = 0.0, sum = 0.0, comp = 0.0;
    int i, has_nan = 0;

    if (n <= 0)
        return 0.0;
    for (i = 0; i < n; i++) {
        double a = v[i];
        if (a != a) {
            has_nan = 1;
        } else {
            a = fabs(a);
            if (a > m)
                m = a;
        }
    }
    if (m == INFINITY)
        return INFINITY;
    if (has_nan)
        return NAN;
    if (m == 0.0)
        return 0.0;
    for (i = 0; i < n; i++) {
        double q = fabs(v[i]) / m;
        double sq = q * q;
        double s = sq - comp;
        double p = sum + s;
        comp = (p - sum) - s;
        sum = p;
    }
    return sqrt(sum) * m;
}

double jg_v8_hypot(double a, double b)
{
    double v[2];
    v[0] = a;
    v[1] = b;
    return jg_v8_hypot_n(v, 2);
}

/* ------------------------------------------------------------------- pow */
double jg_v8_pow(double x, double y)
{
    if (y != y)
        return NAN;
    if ((y == INFINITY || y == -INFINITY) && (x == 1.0 || x == -1.0))
        return NAN;
    return pow(x, y);
}

/* ----------------------------------------------------------------- table */
const jg_v8_math_entry jg_v8_math_table[] = {
    { "cbrt",  1,  1, jg_v8_cbrt, 0, 0 },
    { "hypot", 2, -1, 0, 0, jg_v8_hypot_n },
    { 0, 0, 0, 0, 0, 0 },
};
