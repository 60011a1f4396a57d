#!/usr/bin/env python3
"""Generate the stored V8 (Chromium) reference table for transcendental Math.

Usage:
    python tests/tools/gen_v8_math_table.py            # regenerate tests/data/v8_math/
    python tests/tools/gen_v8_math_table.py --check    # re-run Chromium, compare with stored

The inputs are NOT stored: they are regenerated bit-exactly from a small spec
(tests/data/v8_math/spec.txt, written by this script) by a documented
algorithm implemented twice, here (Python) and in runtime/tests/v8math_test.c
(C).  Only the V8 outputs are stored, one file per function:

    tests/data/v8_math/<name>.f64   N little-endian IEEE-754 binary64 values

manifest.json records N, the FNV-1a-64 hash of the input bytes (so both
generator implementations are verified against each other) and of the output
bytes, plus the Chromium/V8 version that produced them.

Input-generation algorithm (version "jsgym-v8math-1")
-----------------------------------------------------
PRNG: splitmix64.  state := FNV-1a-64 of the ASCII bytes "jsgym-v8math-1:" +
function name.  next(): state += 0x9E3779B97F4A7C15 (mod 2^64); z := state;
z := (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z := (z ^ (z >> 27)) *
0x94D049BB133111EB; return z ^ (z >> 31)  (all mod 2^64).

u01() := (next() >> 11) * 2^-53 (exact).

An input *tuple* has nargs doubles.  For every function the tuples are, in
order:
  1. the "special" tuples: for nargs == 1 every value of the special list, for
     nargs == 2 the full cross product (a, b) over the pair-special list
     (a outer, b inner), for nargs == 3 none;
  2. for each component line of the spec, in order, `count` tuples; each
     tuple draws its arguments left to right, each argument from the
     argument's own generator (gen1 for arg 0, gen2 for arg 1, ...).

Generators (all double arithmetic is plain IEEE binary64, round-to-nearest,
no FMA contraction, evaluated exactly in the written order):
  uni A B     : A + (B - A) * u01()
  mag S E0 E1 : sign s := next() >> 63 unless S == '+' (then 0);
                e := E0 + next() % (E1 - E0 + 1);  m := next() >> 12;
                if e >= -1022: bits := (e + 1023) << 52 | m
                else:          bits := ((1 << 52) | m) >> (-1022 - e)
                value := bits with the sign bit s   (E0 >= -1074, E1 <= 1023)
  int A B     : A + (next() % (B - A + 1)) for integers A <= B (as a double)
  near C E0 E1: C + mag(+/-, E0, E1)        (C a double, the sum is rounded)
  kpi2 K0 K1 E0 E1 : k := K0 + next() % (K1 - K0 + 1); v := k * PIO2;
                     v + mag(+/-, E0, E1)   where PIO2 = 1.5707963267948966
  absof G...  : |G| for the generator G that follows
  list V...   : one of the listed values, index next() % len
The C port parses spec.txt; doubles in the spec are written as 16 hex digits
of their bit pattern.  spec.txt lines: "version V", "host LIBC MACHINE FMA",
"specials N hex...", "pairspecials N hex...", then per function
"fn NAME NARGS N NCOMP FNV_OF_INPUT_BYTES" followed by NCOMP lines
"comp COUNT | GEN_ARG0 | GEN_ARG1 ...".

Host dependence: this Chromium takes every function except cbrt and hypot
from the host glibc, whose code variant depends on the CPU (FMA/AVX2), so the
table is tied to the host recorded in manifest.json / spec.txt (docs/math.md).
"""
from __future__ import annotations

import argparse
import base64
import json
import math
import os
import struct
import sys

VERSION = "jsgym-v8math-1"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
DATA_DIR = os.path.join(ROOT, "tests", "data", "v8_math")
MASK = (1 << 64) - 1
PIO2 = 1.5707963267948966

# --------------------------------------------------------------------- PRNG

def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & MASK
    return h


class SplitMix64:
    def __init__(self, seed: int):
        self.s = seed & MASK

    def next(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def u01(self) -> float:
        return (self.next() >> 11) * (2.0 ** -53)


def b2d(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits & MASK))[0]


def d2b(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def hx(x: float) -> str:
    return "%016x" % d2b(x)

# ----------------------------------------------------------------- the spec
PI = math.pi
TAU = 2 * math.pi
INF = float("inf")
NAN = float("nan")
MIN_SUB = b2d(1)
MIN_NORM = b2d(0x0010000000000000)
MAX = b2d(0x7FEFFFFFFFFFFFFF)

SPECIALS = [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
            PI, -PI, PI / 2, -PI / 2, PI / 4, -PI / 4, 3 * PI / 2, TAU, -TAU,
            math.e, math.log(2), 10.0, 100.0, 1e-300, -1e-300, 1e300, -1e300,
            MIN_SUB, -MIN_SUB, MIN_NORM, MAX, -MAX, 1e-8, 1e-16, 0.1, 0.7,
            0.9999999999999999, 1.0000000000000002, 709.782712893384,
            -745.1332191019411, 710.4758600739439, 1e22, 2.0 ** 53, 3.0, 0.25,
            5.0, -3.0, 0.75, 1e-5, 1048576.0, 1.5, 2.5]
PAIR_SPECIALS = [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
                 3.0, -3.0, 0.25, 10.0, 1e-300, 1e300, MIN_SUB, MAX, 1.5,
                 -1.5, 100.5]

# A generator is a tuple; see the module docstring.
def U(a, b): return ("uni", float(a), float(b))
def M(e0, e1, sign="+-"): return ("mag", sign, e0, e1)
def I(a, b): return ("int", a, b)
def NEAR(c, e0, e1): return ("near", float(c), e0, e1)
def KPI2(k0, k1, e0, e1): return ("kpi2", k0, k1, e0, e1)
def ABS(g): return ("absof", g)
def L(*v): return ("list",) + tuple(float(x) for x in v)

N_MAIN = 20000
N_EXTRA = 3000

# Typical game ranges + hard cases.  Counts are per component; the last
# component of each function absorbs the remainder up to N.
GENERIC = [
    (3000, [U(-10, 10)]), (2500, [U(-1000, 1000)]), (3500, [U(-TAU, TAU)]),
    (1500, [U(-1, 1)]), (1500, [U(0, 100)]), (1000, [M(-1074, -30)]),
    (2000, [M(-30, 30)]), (1000, [M(30, 1023)]),
    (1500, [KPI2(-64, 64, -60, -20)]), (1000, [KPI2(-100000, 100000, -40, -10)]),
    (0, [U(-1e6, 1e6)]),
]
TABLE = {
    # trig: angles, game coordinates, huge arguments, near multiples of pi/2
    "sin": GENERIC, "cos": GENERIC, "tan": GENERIC,
    "atan": GENERIC, "cbrt": GENERIC,
    "asin": [(6000, [U(-1, 1)]), (3000, [U(-0.5, 0.5)]), (2000, [NEAR(1, -53, -2)]),
             (2000, [NEAR(-1, -53, -2)]), (2000, [M(-1074, -1)]),
             (1500, [U(0.9, 1)]), (1500, [U(-1, -0.9)]), (0, [U(-2, 2)])],
    "exp": [(4000, [U(-10, 10)]), (3000, [U(-1, 1)]), (3000, [U(-745, 710)]),
            (2000, [M(-1074, -1)]), (2000, [U(-50, 50)]), (2000, [M(-5, 10)]),
            (1000, [NEAR(0.6931471805599453, -50, -3)]), (0, [M(-30, 1023)])],
    "expm1": [(4000, [U(-10, 10)]), (3000, [U(-1, 1)]), (3000, [U(-745, 710)]),
              (3000, [M(-1074, -1)]), (2000, [U(-50, 50)]), (2000, [M(-60, 10)]),
              (0, [M(-30, 1023)])],
    "sinh": [(4000, [U(-10, 10)]), (3000, [U(-1, 1)]), (3000, [U(-711, 711)]),
             (2000, [M(-1074, -1)]), (2000, [U(-50, 50)]), (2000, [M(-30, 10)]),
             (0, [M(-30, 1023)])],
    "cosh": [(4000, [U(-10, 10)]), (3000, [U(-1, 1)]), (3000, [U(-711, 711)]),
             (2000, [M(-1074, -1)]), (2000, [U(-50, 50)]), (2000, [M(-30, 10)]),
             (0, [M(-30, 1023)])],
    "tanh": [(5000, [U(-10, 10)]), (4000, [U(-1, 1)]), (3000, [U(-25, 25)]),
             (2000, [M(-1074, -1)]), (2000, [M(-30, 6)]), (0, [U(-1000, 1000)])],
    "log": [(4000, [U(0, 10)]), (3000, [U(0, 1000)]), (3000, [NEAR(1, -53, -2)]),
            (3000, [M(-1074, 1023, "+")]), (3000, [U(0.5, 2)]), (1000, [M(-1074, 1023)]),
            (0, [ABS(U(0, 1e6))])],
    "log2": "log", "log10": "log",
    "log1p": [(4000, [U(-1, 10)]), (3000, [U(-0.5, 0.5)]), (3000, [M(-1074, -1)]),
              (2000, [NEAR(-1, -53, -2)]), (3000, [M(-60, 1023, "+")]),
              (2000, [U(0, 1000)]), (0, [U(-2, 2)])],
    "atan2": [(5000, [U(-10, 10), U(-10, 10)]), (4000, [U(-1000, 1000), U(-1000, 1000)]),
              (3000, [U(-1, 1), U(-1, 1)]), (2000, [M(-1074, 1023), M(-1074, 1023)]),
              (2000, [M(-30, 30), M(-30, 30)]), (1500, [U(-600, 600), I(-600, 600)]),
              (0, [I(-10, 10), U(-10, 10)])],
    "hypot": [(5000, [U(-10, 10), U(-10, 10)]), (4000, [U(-1000, 1000), U(-1000, 1000)]),
              (3000, [U(-1, 1), U(-1, 1)]), (2000, [M(-1074, 1023), M(-1074, 1023)]),
              (2000, [M(-30, 30), M(-30, 30)]), (1500, [I(-1000, 1000), I(-1000, 1000)]),
              (0, [M(-600, 600), M(-600, 600)])],
    "pow": [(3000, [U(0, 10), U(-10, 10)]), (2000, [U(-10, 10), I(-20, 20)]),
            (2000, [U(0, 1000), U(-5, 5)]), (1500, [NEAR(1, -53, -5), U(-1e6, 1e6)]),
            (1500, [U(0, 2), L(0.5, 2, 3, -1, -2, 1 / 3, 1.5, -0.5)]),
            (1500, [M(-1074, 1023, "+"), U(-2, 2)]), (1500, [U(0, 1), U(0, 100)]),
            (1000, [I(-100, 100), I(-30, 30)]), (1500, [M(-30, 30), M(-30, 10)]),
            (1000, [L(2, 10, math.e, 0.5, 1.1, 0.9), U(-1100, 1100)]),
            (0, [U(0.9, 1.1), U(-1000, 1000)])],
    # extras (not in the list, same QuickJS-vs-V8 problem)
    "acosh": [(1000, [U(1, 10)]), (800, [NEAR(1, -53, -2)]), (600, [M(0, 1023, "+")]),
              (0, [U(-2, 1000)])],
    "asinh": [(1200, [U(-10, 10)]), (800, [M(-1074, 1023)]), (0, [U(-1, 1)])],
    "atanh": [(1200, [U(-1, 1)]), (600, [NEAR(1, -53, -2)]), (600, [M(-1074, -1)]),
              (0, [U(-0.5, 0.5)])],
    "hypot3": [(1500, [U(-1000, 1000), U(-1000, 1000), U(-1000, 1000)]),
               (800, [U(-10, 10), U(-10, 10), U(-10, 10)]),
               (0, [M(-600, 600), M(-600, 600), M(-600, 600)])],
}
NARGS = {"atan2": 2, "hypot": 2, "pow": 2, "hypot3": 3}
EXTRA = ("acosh", "asinh", "atanh", "hypot3")
ORDER = ["sin", "cos", "tan", "asin", "acos", "atan", "atan2", "exp", "expm1",
         "log", "log1p", "log2", "log10", "pow", "hypot", "cbrt", "sinh",
         "cosh", "tanh", "acosh", "asinh", "atanh", "hypot3"]
TABLE["acos"] = TABLE["asin"]
# JS expression evaluated in the page for arguments a, b, c
JS_EXPR = {n: "Math.%s(a)" % n for n in ORDER}
JS_EXPR.update({"atan2": "Math.atan2(a, b)", "hypot": "Math.hypot(a, b)",
                "pow": "Math.pow(a, b)", "hypot3": "Math.hypot(a, b, c)"})


def components(name):
    comps = TABLE[name]
    if isinstance(comps, str):
        comps = TABLE[comps]
    return comps


def n_for(name):
    return N_EXTRA if name in EXTRA else N_MAIN


def nargs(name):
    return NARGS.get(name, 1)


def specials_for(name):
    k = nargs(name)
    if k == 1:
        return [(x,) for x in SPECIALS]
    if k == 2:
        return [(a, b) for a in PAIR_SPECIALS for b in PAIR_SPECIALS]
    return []


def counts_for(name):
    comps = components(name)
    left = n_for(name) - len(specials_for(name))
    out = []
    for i, (cnt, gens) in enumerate(comps):
        c = left if i == len(comps) - 1 else cnt
        assert 0 <= c <= left, (name, i)
        left -= c
        out.append((c, gens))
    return out


def draw(r: SplitMix64, g) -> float:
    k = g[0]
    if k == "uni":
        a, b = g[1], g[2]
        return a + (b - a) * r.u01()
    if k == "mag":
        sign, e0, e1 = g[1], g[2], g[3]
        s = 0 if sign == "+" else r.next() >> 63
        e = e0 + r.next() % (e1 - e0 + 1)
        m = r.next() >> 12
        if e >= -1022:
            bits = ((e + 1023) << 52) | m
        else:
            bits = ((1 << 52) | m) >> (-1022 - e)
        return b2d(bits | (s << 63))
    if k == "int":
        a, b = g[1], g[2]
        return float(a + r.next() % (b - a + 1))
    if k == "near":
        return g[1] + draw(r, ("mag", "+-", g[2], g[3]))
    if k == "kpi2":
        k0, k1, e0, e1 = g[1:]
        kk = k0 + r.next() % (k1 - k0 + 1)
        v = float(kk) * PIO2
        return v + draw(r, ("mag", "+-", e0, e1))
    if k == "absof":
        return abs(draw(r, g[1]))
    if k == "list":
        vals = g[1:]
        return vals[r.next() % len(vals)]
    raise ValueError(k)


def gen_inputs(name):
    """Return the list of input tuples for `name` (deterministic)."""
    r = SplitMix64(fnv1a64((VERSION + ":" + name).encode()))
    out = list(specials_for(name))
    for cnt, gens in counts_for(name):
        for _ in range(cnt):
            out.append(tuple(draw(r, g) for g in gens))
    assert len(out) == n_for(name)
    return out


def pack_inputs(tuples):
    """Inputs as bytes: tuple-major, little-endian float64."""
    return b"".join(struct.pack("<%dd" % len(t), *t) for t in tuples)


def gen_spec_text(g) -> str:
    def enc(g):
        k = g[0]
        if k == "uni":
            return "uni %s %s" % (hx(g[1]), hx(g[2]))
        if k == "mag":
            return "mag %s %d %d" % ("+" if g[1] == "+" else "s", g[2], g[3])
        if k == "int":
            return "int %d %d" % (g[1], g[2])
        if k == "near":
            return "near %s %d %d" % (hx(g[1]), g[2], g[3])
        if k == "kpi2":
            return "kpi2 %d %d %d %d" % g[1:]
        if k == "absof":
            return "absof " + enc(g[1])
        if k == "list":
            return "list %d %s" % (len(g) - 1, " ".join(hx(v) for v in g[1:]))
        raise ValueError(k)
    return enc(g)


def host_fingerprint():
    """The properties of the host that decide which glibc code V8 (and
    QuickJS) run for the libm-backed functions."""
    import platform
    libc, ver = platform.libc_ver()
    flags = set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    return {"libc": (libc or "unknown") + "-" + (ver or "unknown"),
            "machine": platform.machine(),
            "fma_avx2": int("fma" in flags and "avx2" in flags)}


def write_spec(path):
    h = host_fingerprint()
    lines = ["# generated by tests/tools/gen_v8_math_table.py -- see its docstring",
             "version " + VERSION,
             "host %s %s %d" % (h["libc"], h["machine"], h["fma_avx2"]),
             "specials %d %s" % (len(SPECIALS), " ".join(hx(v) for v in SPECIALS)),
             "pairspecials %d %s" % (len(PAIR_SPECIALS), " ".join(hx(v) for v in PAIR_SPECIALS))]
    for name in ORDER:
        cs = counts_for(name)
        fnv = fnv1a64(pack_inputs(gen_inputs(name)))
        lines.append("fn %s %d %d %d %016x" % (name, nargs(name), n_for(name), len(cs), fnv))
        for cnt, gens in cs:
            lines.append("comp %d | %s" % (cnt, " | ".join(gen_spec_text(g) for g in gens)))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")

# ----------------------------------------------------------------- Chromium

CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu',
                 '--disable-background-networking', '--disable-component-update',
                 '--disable-sync', '--no-first-run']

PAGE_JS = r"""
([b64, nargs, expr]) => {
  const bin = atob(b64);
  const u8 = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
  const inp = new Float64Array(u8.buffer);
  const n = inp.length / nargs;
  const f = new Function('a', 'b', 'c', 'return ' + expr + ';');
  const out = new Float64Array(n);
  const out2 = new Float64Array(n);
  // run twice (second pass is after tier-up) and make sure they agree
  for (let i = 0; i < n; i++) out[i] = f(inp[i*nargs], inp[i*nargs+1], inp[i*nargs+2]);
  for (let i = 0; i < n; i++) out2[i] = f(inp[i*nargs], inp[i*nargs+1], inp[i*nargs+2]);
  let extra = 0;
  if (expr.startsWith('Math.pow')) {   // ** must agree with Math.pow
    for (let i = 0; i < n; i++) {
      const v = inp[2*i] ** inp[2*i+1];
      if (!Object.is(v, out[i])) extra++;
    }
  }
  let unstable = 0;
  for (let i = 0; i < n; i++) if (!Object.is(out[i], out2[i])) unstable++;
  const ob = new Uint8Array(out.buffer);
  let s = '';
  for (let i = 0; i < ob.length; i += 8192)
    s += String.fromCharCode.apply(null, ob.subarray(i, i + 8192));
  return [btoa(s), unstable, extra];
}
"""


def run_chromium(names):
    from playwright.sync_api import sync_playwright
    results = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get(
            "JSGYM_CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_content("<html><body></body></html>")
        ver = browser.version
        v8ver = page.evaluate("() => navigator.userAgent")
        for name in names:
            inp = gen_inputs(name)
            b = pack_inputs(inp)
            out_b64, unstable, extra = page.evaluate(
                PAGE_JS, [base64.b64encode(b).decode(), nargs(name), JS_EXPR[name]])
            if unstable or extra:
                raise RuntimeError("%s: V8 unstable=%d pow-vs-**=%d" % (name, unstable, extra))
            results[name] = (b, base64.b64decode(out_b64))
        browser.close()
    return ver, v8ver, results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true",
                    help="recompute in Chromium and compare with the stored table")
    ap.add_argument("--out", default=DATA_DIR)
    args = ap.parse_args()
    ver, ua, res = run_chromium(ORDER)
    if args.check:
        bad = 0
        for name in ORDER:
            with open(os.path.join(args.out, name + ".f64"), "rb") as f:
                stored = f.read()
            if stored != res[name][1]:
                print("DIFF", name)
                bad += 1
        print("chromium", ver, "bad", bad)
        sys.exit(1 if bad else 0)
    os.makedirs(args.out, exist_ok=True)
    write_spec(os.path.join(args.out, "spec.txt"))
    man = {"version": VERSION, "chromium": ver, "user_agent": ua,
           "host": host_fingerprint(),
           "format": "<name>.f64 = N little-endian float64 V8 results; inputs are "
                     "regenerated from spec.txt (see gen_v8_math_table.py)",
           "functions": {}}
    for name in ORDER:
        b, o = res[name]
        with open(os.path.join(args.out, name + ".f64"), "wb") as f:
            f.write(o)
        man["functions"][name] = {"nargs": nargs(name), "n": n_for(name),
                                  "js": JS_EXPR[name],
                                  "fnv_inputs": "%016x" % fnv1a64(b),
                                  "fnv_outputs": "%016x" % fnv1a64(o)}
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(man, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", args.out, "chromium", ver)


if __name__ == "__main__":
    main()
