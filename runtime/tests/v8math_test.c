/*
 * v8math_test.c -- compare QuickJS's Math (as it computes it in C) with the
 * stored Chromium/V8 table in tests/data/v8_math/.
 *
 *   v8math_test [--before] [--strict] [--markdown] [DATA_DIR]
 *
 * Inputs are regenerated from DATA_DIR/spec.txt with the algorithm documented
 * in tests/tools/gen_v8_math_table.py (a second, independent implementation;
 * the FNV-1a-64 hash of the regenerated inputs is checked against the spec).
 *
 * Modes:
 *   default   what QuickJS computes once runtime/v8math.c is installed:
 *             host libm for the libm-backed functions, QuickJS's js_pow
 *             semantics (== jg_v8_pow) for pow, jg_v8_cbrt, jg_v8_hypot,
 *             jg_v8_hypot_n for 3-argument hypot.
 *   --before  stock QuickJS: libm for everything, Math.hypot folded
 *             pairwise with libm hypot().
 *
 * The libm-backed functions only match Chromium when the host (libc version,
 * machine, FMA+AVX2 availability, which selects glibc's code variant) is the
 * one the table was recorded on.  On another host those rows are reported as
 * "host" and not counted unless --strict; the host-independent rows (cbrt,
 * hypot, hypot3) are always checked.
 *
 * Exit status: 0 when every checked row has 0 mismatches, 1 otherwise,
 * 2 on a usage/data error.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif
#include <sys/utsname.h>

#include "../v8math.h"

#define MAXCOMP 32
#define MAXGEN 3
#define MAXLIST 16

typedef struct Gen {
    char kind[8];
    double a, b, c;          /* uni: a, b; near: c */
    int sign_plus;           /* mag */
    long long i0, i1, i2, i3;
    int nlist;
    double list[MAXLIST];
    int absof;               /* 1 if wrapped in absof */
} Gen;

typedef struct Comp {
    long count;
    int ngen;
    Gen gen[MAXGEN];
} Comp;

static double specials[128], pair_specials[128];
static int nspecials, npair_specials;

/* ---------------------------------------------------------------- PRNG */
static uint64_t rng_state;
static uint64_t rnext(void)
{
    uint64_t z;
    rng_state += 0x9E3779B97F4A7C15ull;
    z = rng_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double u01(void) { return (double)(rnext() >> 11) * 0x1p-53; }

static uint64_t fnv1a(const unsigned char *p, size_t n, uint64_t h)
{
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001B3ull;
    }
    return h;
}
#define FNV0 0xCBF29CE484222325ull

static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double hexd(const char *s) { return u2d(strtoull(s, NULL, 16)); }

static double gen_mag(int plus, long long e0, long long e1)
{
    uint64_t s = plus ? 0 : rnext() >> 63;
    long long e = e0 + (long long)(rnext() % (uint64_t)(e1 - e0 + 1));
    uint64_t m = rnext() >> 12, bits;
    if (e >= -1022)
        bits = ((uint64_t)(e + 1023) << 52) | m;
    else
        bits = ((1ull << 52) | m) >> (-1022 - e);
    return u2d(bits | (s << 63));
}

static double draw(const Gen *g)
{
    double v;
    if (!strcmp(g->kind, "uni")) {
        double u = u01();
        v = g->a + (g->b - g->a) * u;
    } else if (!strcmp(g->kind, "mag")) {
        v = gen_mag(g->sign_plus, g->i0, g->i1);
    } else if (!strcmp(g->kind, "int")) {
        v = (double)(g->i0 + (long long)(rnext() % (uint64_t)(g->i1 - g->i0 + 1)));
    } else if (!strcmp(g->kind, "near")) {
        v = g->c + gen_mag(0, g->i0, g->i1);
    } else if (!strcmp(g->kind, "kpi2")) {
        long long k = g->i0 + (long long)(rnext() % (uint64_t)(g->i1 - g->i0 + 1));
        double base = (double)k * 1.5707963267948966;
        v = base + gen_mag(0, g->i2, g->i3);
    } else if (!strcmp(g->kind, "list")) {
        v = g->list[rnext() % (uint64_t)g->nlist];
    } else {
        fprintf(stderr, "unknown generator %s\n", g->kind);
        exit(2);
    }
    return g->absof ? fabs(v) : v;
}

static void parse_gen(char *s, Gen *g)
{
    char *tok = strtok(s, " \t\n");
    memset(g, 0, sizeof(*g));
    if (tok && !strcmp(tok, "absof")) {
        g->absof = 1;
        tok = strtok(NULL, " \t\n");
    }
    if (!tok) { fprintf(stderr, "bad generator\n"); exit(2); }
    snprintf(g->kind, sizeof(g->kind), "%s", tok);
#define NEXT() (tok = strtok(NULL, " \t\n"), tok ? tok : (fprintf(stderr, "bad spec\n"), exit(2), ""))
    if (!strcmp(tok, "uni")) {
        g->a = hexd(NEXT()); g->b = hexd(NEXT());
    } else if (!strcmp(tok, "mag")) {
        g->sign_plus = NEXT()[0] == '+';
        g->i0 = atoll(NEXT()); g->i1 = atoll(NEXT());
    } else if (!strcmp(tok, "int")) {
        g->i0 = atoll(NEXT()); g->i1 = atoll(NEXT());
    } else if (!strcmp(tok, "near")) {
        g->c = hexd(NEXT()); g->i0 = atoll(NEXT()); g->i1 = atoll(NEXT());
    } else if (!strcmp(tok, "kpi2")) {
        g->i0 = atoll(NEXT()); g->i1 = atoll(NEXT());
        g->i2 = atoll(NEXT()); g->i3 = atoll(NEXT());
    } else if (!strcmp(tok, "list")) {
        int i;
        g->nlist = atoi(NEXT());
        if (g->nlist < 1 || g->nlist > MAXLIST) { fprintf(stderr, "bad list\n"); exit(2); }
        for (i = 0; i < g->nlist; i++)
            g->list[i] = hexd(NEXT());
    }
#undef NEXT
}

/* ------------------------------------------------------------ evaluation */
static int before_mode;

static double stock_hypot_n(const double *v, int n)
{
    /* QuickJS js_math_hypot: r = argv[0]; argc == 1 -> fabs; else fold hypot */
    double r = 0;
    int i;
    if (n > 0) {
        r = v[0];
        if (n == 1)
            r = fabs(r);
        else
            for (i = 1; i < n; i++)
                r = hypot(r, v[i]);
    }
    return r;
}

static int uses_libm_in_after(const char *name)
{
    return strcmp(name, "cbrt") && strcmp(name, "hypot") && strcmp(name, "hypot3");
}

static double eval(const char *name, const double *a)
{
    /* volatile pointers: the compiler must call the libm symbols, exactly as
       QuickJS does through its function table */
    static double (*volatile p_sin)(double) = sin, (*volatile p_cos)(double) = cos,
        (*volatile p_tan)(double) = tan, (*volatile p_asin)(double) = asin,
        (*volatile p_acos)(double) = acos, (*volatile p_atan)(double) = atan,
        (*volatile p_exp)(double) = exp, (*volatile p_expm1)(double) = expm1,
        (*volatile p_log)(double) = log, (*volatile p_log1p)(double) = log1p,
        (*volatile p_log2)(double) = log2, (*volatile p_log10)(double) = log10,
        (*volatile p_cbrt)(double) = cbrt, (*volatile p_sinh)(double) = sinh,
        (*volatile p_cosh)(double) = cosh, (*volatile p_tanh)(double) = tanh,
        (*volatile p_acosh)(double) = acosh, (*volatile p_asinh)(double) = asinh,
        (*volatile p_atanh)(double) = atanh;
    static double (*volatile p_atan2)(double, double) = atan2;

    if (!strcmp(name, "sin")) return p_sin(a[0]);
    if (!strcmp(name, "cos")) return p_cos(a[0]);
    if (!strcmp(name, "tan")) return p_tan(a[0]);
    if (!strcmp(name, "asin")) return p_asin(a[0]);
    if (!strcmp(name, "acos")) return p_acos(a[0]);
    if (!strcmp(name, "atan")) return p_atan(a[0]);
    if (!strcmp(name, "atan2")) return p_atan2(a[0], a[1]);
    if (!strcmp(name, "exp")) return p_exp(a[0]);
    if (!strcmp(name, "expm1")) return p_expm1(a[0]);
    if (!strcmp(name, "log")) return p_log(a[0]);
    if (!strcmp(name, "log1p")) return p_log1p(a[0]);
    if (!strcmp(name, "log2")) return p_log2(a[0]);
    if (!strcmp(name, "log10")) return p_log10(a[0]);
    if (!strcmp(name, "sinh")) return p_sinh(a[0]);
    if (!strcmp(name, "cosh")) return p_cosh(a[0]);
    if (!strcmp(name, "tanh")) return p_tanh(a[0]);
    if (!strcmp(name, "acosh")) return p_acosh(a[0]);
    if (!strcmp(name, "asinh")) return p_asinh(a[0]);
    if (!strcmp(name, "atanh")) return p_atanh(a[0]);
    if (!strcmp(name, "pow")) return jg_v8_pow(a[0], a[1]);   /* == js_pow */
    if (!strcmp(name, "cbrt")) return before_mode ? p_cbrt(a[0]) : jg_v8_cbrt(a[0]);
    if (!strcmp(name, "hypot"))
        return before_mode ? stock_hypot_n(a, 2) : jg_v8_hypot(a[0], a[1]);
    if (!strcmp(name, "hypot3"))
        return before_mode ? stock_hypot_n(a, 3) : jg_v8_hypot_n(a, 3);
    fprintf(stderr, "unknown function %s\n", name);
    exit(2);
}

static int same(double x, double y)
{
    if (x != x && y != y)
        return 1;               /* JS cannot distinguish NaN payloads */
    return d2u(x) == d2u(y);
}

/* ------------------------------------------------------------------ main */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(buf); return NULL; }
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void host_now(char *libc, size_t nl, char *mach, size_t nm, int *fma)
{
    struct utsname u;
#ifdef __GLIBC__
    snprintf(libc, nl, "glibc-%s", gnu_get_libc_version());
#else
    snprintf(libc, nl, "unknown-unknown");
#endif
    if (uname(&u) == 0) snprintf(mach, nm, "%s", u.machine);
    else snprintf(mach, nm, "unknown");
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    *fma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
#else
    *fma = 0;
#endif
}

int main(int argc, char **argv)
{
    const char *dir = "tests/data/v8_math";
    int strict = 0, markdown = 0, i, failed = 0, host_ok;
    char path[4096], line[8192];
    char h_libc[64] = "", h_mach[64] = "", n_libc[64], n_mach[128];
    int h_fma = -1, n_fma;
    FILE *spec;
    long total_checked = 0, total_bad = 0;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--before")) before_mode = 1;
        else if (!strcmp(argv[i], "--strict")) strict = 1;
        else if (!strcmp(argv[i], "--markdown")) markdown = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--before] [--strict] [--markdown] [DATA_DIR]\n", argv[0]);
            return 2;
        } else dir = argv[i];
    }
    snprintf(path, sizeof(path), "%s/spec.txt", dir);
    spec = fopen(path, "r");
    if (!spec) { fprintf(stderr, "cannot open %s\n", path); return 2; }

    host_now(n_libc, sizeof(n_libc), n_mach, sizeof(n_mach), &n_fma);

    /* pass 1: header lines; functions are processed as they are read */
    if (markdown)
        printf("| function | samples | mismatches (%s) |\n|---|---:|---:|\n",
               before_mode ? "stock QuickJS" : "with v8math");
    else
        printf("%-8s %8s %10s  %s\n", "function", "samples", "mismatch", before_mode ? "(stock QuickJS)" : "(with v8math)");

    while (fgets(line, sizeof(line), spec)) {
        char *p = line;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (!strncmp(p, "version ", 8)) continue;
        if (!strncmp(p, "host ", 5)) {
            sscanf(p + 5, "%63s %63s %d", h_libc, h_mach, &h_fma);
            continue;
        }
        if (!strncmp(p, "specials ", 9) || !strncmp(p, "pairspecials ", 13)) {
            int pair = p[0] == 'p', n, k;
            double *dst = pair ? pair_specials : specials;
            char *tok = strtok(p, " \t\n");
            tok = strtok(NULL, " \t\n");
            n = atoi(tok);
            if (n > 128) { fprintf(stderr, "too many specials\n"); return 2; }
            for (k = 0; k < n; k++) {
                tok = strtok(NULL, " \t\n");
                if (!tok) { fprintf(stderr, "bad specials\n"); return 2; }
                dst[k] = hexd(tok);
            }
            if (pair) npair_specials = n; else nspecials = n;
            continue;
        }
        if (!strncmp(p, "fn ", 3)) {
            char name[32], fnvs[32];
            int nargs, ncomp, c, j, libm_row, skip;
            long n, idx = 0, bad = 0;
            Comp comps[MAXCOMP];
            double *inp, *out;
            size_t olen;
            uint64_t h;
            char *ob;

            if (sscanf(p + 3, "%31s %d %ld %d %31s", name, &nargs, &n, &ncomp, fnvs) != 5
                || ncomp > MAXCOMP || nargs < 1 || nargs > MAXGEN) {
                fprintf(stderr, "bad fn line: %s", line); return 2;
            }
            for (c = 0; c < ncomp; c++) {
                char *q, *parts[MAXGEN + 1];
                int np = 0;
                if (!fgets(line, sizeof(line), spec) || strncmp(line, "comp ", 5)) {
                    fprintf(stderr, "missing comp line for %s\n", name); return 2;
                }
                /* split on '|' */
                q = line + 5;
                parts[np++] = q;
                while ((q = strchr(q, '|')) && np <= MAXGEN) { *q++ = 0; parts[np++] = q; }
                if (np != nargs + 1) { fprintf(stderr, "bad comp arity for %s\n", name); return 2; }
                comps[c].count = atol(parts[0]);
                comps[c].ngen = nargs;
                for (j = 0; j < nargs; j++)
                    parse_gen(parts[j + 1], &comps[c].gen[j]);
            }
            /* regenerate inputs */
            inp = malloc(sizeof(double) * (size_t)n * (size_t)nargs);
            {
                const char *seedtxt = "jsgym-v8math-1:";
                h = fnv1a((const unsigned char *)seedtxt, strlen(seedtxt), FNV0);
                rng_state = fnv1a((const unsigned char *)name, strlen(name), h);
            }
            if (nargs == 1) {
                for (j = 0; j < nspecials; j++) inp[idx++] = specials[j];
            } else if (nargs == 2) {
                int a, b;
                for (a = 0; a < npair_specials; a++)
                    for (b = 0; b < npair_specials; b++) {
                        inp[idx++] = pair_specials[a];
                        inp[idx++] = pair_specials[b];
                    }
            }
            for (c = 0; c < ncomp; c++) {
                long t;
                for (t = 0; t < comps[c].count; t++)
                    for (j = 0; j < nargs; j++)
                        inp[idx++] = draw(&comps[c].gen[j]);
            }
            if (idx != n * nargs) { fprintf(stderr, "%s: generated %ld values, want %ld\n", name, idx, n * nargs); return 2; }
            /* the hash is over the little-endian bytes; this test assumes a
               little-endian host (x86_64 / aarch64) */
            h = fnv1a((const unsigned char *)inp, sizeof(double) * (size_t)idx, FNV0);
            if (h != strtoull(fnvs, NULL, 16)) {
                fprintf(stderr, "%s: regenerated inputs differ from the Python generator "
                        "(fnv %016llx, spec %s)\n", name, (unsigned long long)h, fnvs);
                return 2;
            }
            snprintf(path, sizeof(path), "%s/%s.f64", dir, name);
            ob = read_file(path, &olen);
            if (!ob || olen != (size_t)n * 8) { fprintf(stderr, "cannot read %s\n", path); return 2; }
            out = (double *)ob;
            for (j = 0; j < n; j++) {
                double r = eval(name, inp + (size_t)j * nargs);
                if (!same(r, out[j])) {
                    if (bad < 3 && !markdown)
                        {
                        int q;
                        fprintf(stderr, "  %s(", name);
                        for (q = 0; q < nargs; q++)
                            fprintf(stderr, "%s%a", q ? ", " : "", inp[j * nargs + q]);
                        fprintf(stderr, ") = %a, V8 %a\n", r, out[j]);
                    }
                    bad++;
                }
            }
            host_ok = !strcmp(h_libc, n_libc) && !strcmp(h_mach, n_mach) && h_fma == n_fma;
            libm_row = before_mode || uses_libm_in_after(name);
            skip = libm_row && !host_ok && !strict;
            if (markdown)
                printf("| %s | %ld | %ld%s |\n", name, n, bad, skip ? " (host differs, not counted)" : "");
            else
                printf("%-8s %8ld %10ld  %s\n", name, n, bad,
                       skip ? "host differs: not counted" : (bad ? "FAIL" : "ok"));
            if (!skip) {
                total_checked += n;
                total_bad += bad;
                if (bad) failed = 1;
            }
            free(inp);
            free(ob);
            continue;
        }
        fprintf(stderr, "unknown spec line: %s", line);
        return 2;
    }
    fclose(spec);
    if (!markdown) {
        printf("table host: %s %s fma+avx2=%d; this host: %s %s fma+avx2=%d\n",
               h_libc, h_mach, h_fma, n_libc, n_mach, n_fma);
        printf("%s: %ld mismatches in %ld checked samples\n", failed ? "FAIL" : "PASS",
               total_bad, total_checked);
    }
    return failed ? 1 : 0;
}
