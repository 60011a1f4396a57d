/*
 * v8math.h -- make QuickJS's transcendental Math bit-identical to Chromium's V8.
 *
 * See docs/math.md for the measurements behind this file.  Summary, measured
 * against Chromium 156.0.8078.108 (Debian bookworm, glibc 2.36, x86_64):
 *
 *  - Math.sin cos tan asin acos atan atan2 exp expm1 log log1p log2 log10
 *    sinh cosh tanh (and acosh asinh atanh) and Math.pow / `**`: this V8 calls
 *    the host C library (glibc libm, dynamically linked, same ifunc variant
 *    selection as any other process on the host).  QuickJS already calls the
 *    very same libm functions, so they match bit for bit ON THE SAME HOST
 *    (0 mismatches in 20000 samples each).  They must NOT be replaced: an
 *    fdlibm port (what older V8 / Node 20 use) would *introduce* mismatches.
 *    jg_v8_pow below is provided only as the reference semantics for tests;
 *    QuickJS's js_pow / js_math_pow already implement exactly the same
 *    special-casing, so no `-Dpow=...` rename is needed.
 *  - Math.cbrt: V8 returns the correctly rounded cube root; glibc's cbrt does
 *    not (~50% of samples differ).  -> jg_v8_cbrt (correctly rounded, pure
 *    integer/IEEE arithmetic, host independent).
 *  - Math.hypot: V8 uses its own algorithm (normalise by the largest |arg|,
 *    Kahan-compensated sum of squares, sqrt(sum) * max); QuickJS folds libm
 *    hypot() pairwise.  ~27% of 2-argument samples differ.  -> jg_v8_hypot
 *    (2 args) and jg_v8_hypot_n (any number of args).
 *
 * BUILD (the lead wires this):
 *   - compile runtime/v8math.c with  -O2 -ffp-contract=off  and WITHOUT
 *     -ffast-math / -Ofast / -funsafe-math-optimizations / -fassociative-math
 *     (GCC or Clang, 64-bit target: uses unsigned __int128).  Link with -lm.
 *   - quickjs.c (both Bellard 2025-09-13 and quickjs-ng 0.17) may OPTIONALLY
 *     be compiled with  -include runtime/v8math.h -DJG_V8MATH_RENAME_LIBM
 *     (renames cbrt -> jg_v8_cbrt, hypot -> jg_v8_hypot; see the end of this
 *     file for why plain -Dcbrt=jg_v8_cbrt cannot be used); in both engines
 *     the identifiers `cbrt` and `hypot` occur only in the Math function table
 *     / js_math_hypot, so this makes Math.cbrt exact and Math.hypot exact for
 *     0, 1 and 2 arguments.  For 3+ arguments QuickJS's pairwise loop still
 *     differs from V8, so Math.hypot must be overridden at runtime anyway
 *     (see below); the rename is therefore not required if the override is
 *     installed.  Do not rename the other libm functions.
 *   - Do not link QuickJS against a different libm (static musl, a bundled
 *     fdlibm, ...): the match for the libm-backed functions relies on calling
 *     the same glibc as Chromium on the same host.
 *
 * RUNTIME INSTALLATION (after JS_AddIntrinsicBaseObjects, before the game
 * runs):  for every entry e of jg_v8_math_table, create a C function with
 * JS_NewCFunction(ctx, wrapper, e.name, e.length) where the wrapper converts
 * its arguments with JS_ToFloat64 (in order; all of them for hypot) and
 * returns JS_NewFloat64(ctx, e.f1(x)) / e.f2(x, y) / e.fn(args, argc); then
 * define it on the Math object with JS_DefinePropertyValueStr(ctx, math,
 * e.name, fn, JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE) (same attributes as
 * the built-ins, which are non-enumerable).  Use JS_NewCFunctionData or a
 * magic index to reach the entry.  jg_v8_hypot_n must be given argc == 0
 * for Math.hypot() (result +0).
 */
#ifndef JSGYM_V8MATH_H
#define JSGYM_V8MATH_H

#ifdef __cplusplus
extern "C" {
#endif

/* Correctly rounded cube root (what V8's Math.cbrt returns). */
double jg_v8_cbrt(double x);

/* V8's Math.hypot(a, b). */
double jg_v8_hypot(double a, double b);

/* V8's Math.hypot(v[0], ..., v[n-1]) for already-converted numbers, n >= 0:
 * n == 0 -> +0; any +-Infinity -> +Infinity (even with NaN present); else any
 * NaN -> NaN; max |v| == 0 -> +0; else with m = max |v_i|:
 * Kahan-compensated sum over i (in argument order) of (|v_i| / m)^2,
 * result sqrt(sum) * m. */
double jg_v8_hypot_n(const double *v, int n);

/* V8's Math.pow / `**` semantics on top of the host libm pow():
 * y NaN -> NaN; y +-Infinity and |x| == 1 -> NaN; else pow(x, y).
 * Identical to QuickJS's js_pow / js_math_pow; provided for tests. */
double jg_v8_pow(double x, double y);

typedef struct jg_v8_math_entry {
    const char *name;     /* property name on the Math object */
    int length;           /* the function's .length (2 for hypot) */
    int nargs;            /* 1, 2, or -1 = variadic (use fn) */
    double (*f1)(double);
    double (*f2)(double, double);
    double (*fn)(const double *, int);
} jg_v8_math_entry;

/* Math functions that must be installed over the QuickJS built-ins.
 * Terminated by an entry with name == NULL. */
extern const jg_v8_math_entry jg_v8_math_table[];

/* Optional compile-time rename for quickjs.c (see BUILD above).  Plain
 * -Dcbrt=... on the command line does NOT work: glibc's <math.h> builds its
 * declarations by token pasting (__MATHCALL_VEC) and fails to compile.
 * Instead compile quickjs.c with
 *     -include runtime/v8math.h -DJG_V8MATH_RENAME_LIBM
 * (with any feature macros such as -D_GNU_SOURCE on the command line, since
 * <math.h> is now included first).  <math.h> is included here, before the
 * macros, so its include guard makes quickjs.c's own #include <math.h> a
 * no-op and only the uses in quickjs.c are renamed. */
#ifdef JG_V8MATH_RENAME_LIBM
#include <math.h>
#define cbrt jg_v8_cbrt
#define hypot jg_v8_hypot
#endif

#ifdef __cplusplus
}
#endif

#endif /* JSGYM_V8MATH_H */
