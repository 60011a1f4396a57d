"""Writes the QuickJS release's quickjs.c with number fast paths for mixed operands and
a host kind of lazy properties.

    python runtime/engine/patch_quickjs.py SRC/quickjs.c OUT/quickjs.c

The release's interpreter does `+ - *` inline only when both operands are int32 or both
are doubles, `/` only for two int32s and `< <= > >= == != === !==` only for two int32s;
anything else (`x * 0.5` with an int32 `x`, `w / 2`, `y < 12.5`) leaves the loop for a
generic slow call that converts both operands and comes back, about 130 instructions
where the inline path takes a few. Game code mixes the two representations everywhere:
positions and speeds are doubles, tile sizes and counters int32s. Each patch below adds
one branch, taken after the release's own fast paths failed and only when both operands
are numbers, computing exactly what the slow call computes for numbers: the IEEE
double operation on the operands converted to double (exact for int32), and the result
made as the slow call makes it (`__JS_NewFloat64`, or `JS_NewBool`), so values, their
representation and every other path are unchanged.

The last three patches give QuickJS's autoinit properties (own data properties made on
first access, which it uses for the global object's constructors) a fourth kind, whose
value the host makes (runtime/engine/quickjs_unit.c, engine.h's lazy properties): its
data is freed with the property, its shapes are marked by the collector through it, and
the first access makes all of the object's lazy properties at once. quickjs-ng is left
as it is.

Each anchor must occur exactly once: a QuickJS release whose source differs fails the
build here, naming the anchor, instead of compiling half-patched. build.rs and
p5shim/tests/Makefile both compile the result through runtime/engine/quickjs_unit.c.
"""

from __future__ import annotations

import pathlib
import sys

HELPERS = """
/* jsgym: both operands numbers (int32 or double), and a number as a double */
#define JG_BOTH_NUMBERS(v1, v2) \\
    ((JS_VALUE_GET_TAG(v1) == JS_TAG_INT || JS_TAG_IS_FLOAT64(JS_VALUE_GET_TAG(v1))) && \\
     (JS_VALUE_GET_TAG(v2) == JS_TAG_INT || JS_TAG_IS_FLOAT64(JS_VALUE_GET_TAG(v2))))
#define JG_NUMBER(v) (JS_VALUE_GET_TAG(v) == JS_TAG_INT ? (double)JS_VALUE_GET_INT(v) \\
                                                        : JS_VALUE_GET_FLOAT64(v))
/* jsgym: own data properties a host object makes on first access (quickjs_unit.c) */
#define JG_AUTOINIT_ID_HOST 3
struct JSObject;
static void jg_lazy_release(JSRuntime *rt, void *opaque);
static void jg_lazy_mark(JSRuntime *rt, void *opaque, JS_MarkFunc *mark_func);
static int jg_lazy_materialize(JSContext *ctx, struct JSObject *p);
"""

# (name, anchor, replacement): the anchor is replaced by the replacement once.
PATCHES = [
    ("helpers", '#include "quickjs.h"\n', '#include "quickjs.h"\n' + HELPERS),
    ("OP_add",
     """                    sp[-2] = __JS_NewFloat64(ctx, JS_VALUE_GET_FLOAT64(op1) +
                                             JS_VALUE_GET_FLOAT64(op2));
                    sp--;
                } else if (JS_IsString(op1) && JS_IsString(op2)) {""",
     """                    sp[-2] = __JS_NewFloat64(ctx, JS_VALUE_GET_FLOAT64(op1) +
                                             JS_VALUE_GET_FLOAT64(op2));
                    sp--;
                } else if (JG_BOTH_NUMBERS(op1, op2)) {
                    sp[-2] = __JS_NewFloat64(ctx, JG_NUMBER(op1) + JG_NUMBER(op2));
                    sp--;
                } else if (JS_IsString(op1) && JS_IsString(op2)) {"""),
    ("OP_add_loc",
     """                    *pv = __JS_NewFloat64(ctx, JS_VALUE_GET_FLOAT64(*pv) +
                                               JS_VALUE_GET_FLOAT64(op2));
                    sp--;
                } else if""",
     """                    *pv = __JS_NewFloat64(ctx, JS_VALUE_GET_FLOAT64(*pv) +
                                               JS_VALUE_GET_FLOAT64(op2));
                    sp--;
                } else if (JG_BOTH_NUMBERS(*pv, op2)) {
                    *pv = __JS_NewFloat64(ctx, JG_NUMBER(*pv) + JG_NUMBER(op2));
                    sp--;
                } else if"""),
    ("OP_sub",
     """                    sp[-2] = __JS_NewFloat64(ctx, JS_VALUE_GET_FLOAT64(op1) -
                                             JS_VALUE_GET_FLOAT64(op2));
                    sp--;
                } else {""",
     """                    sp[-2] = __JS_NewFloat64(ctx, JS_VALUE_GET_FLOAT64(op1) -
                                             JS_VALUE_GET_FLOAT64(op2));
                    sp--;
                } else if (JG_BOTH_NUMBERS(op1, op2)) {
                    sp[-2] = __JS_NewFloat64(ctx, JG_NUMBER(op1) - JG_NUMBER(op2));
                    sp--;
                } else {"""),
    ("OP_mul",
     """                    d = JS_VALUE_GET_FLOAT64(op1) * JS_VALUE_GET_FLOAT64(op2);
                mul_fp_res:
                    sp[-2] = __JS_NewFloat64(ctx, d);
                    sp--;
                } else {""",
     """                    d = JS_VALUE_GET_FLOAT64(op1) * JS_VALUE_GET_FLOAT64(op2);
                mul_fp_res:
                    sp[-2] = __JS_NewFloat64(ctx, d);
                    sp--;
                } else if (JG_BOTH_NUMBERS(op1, op2)) {
                    d = JG_NUMBER(op1) * JG_NUMBER(op2);
                    goto mul_fp_res;
                } else {"""),
    ("OP_div",
     """                    sp[-2] = JS_NewFloat64(ctx, (double)v1 / (double)v2);
                    sp--;
                } else {""",
     """                    sp[-2] = JS_NewFloat64(ctx, (double)v1 / (double)v2);
                    sp--;
                } else if (JG_BOTH_NUMBERS(op1, op2)) {
                    sp[-2] = __JS_NewFloat64(ctx, JG_NUMBER(op1) / JG_NUMBER(op2));
                    sp--;
                } else {"""),
    ("OP_CMP",
     """                    sp[-2] = JS_NewBool(ctx, JS_VALUE_GET_INT(op1) binary_op JS_VALUE_GET_INT(op2)); \\
                    sp--;                                               \\
                } else {                                                \\""",
     """                    sp[-2] = JS_NewBool(ctx, JS_VALUE_GET_INT(op1) binary_op JS_VALUE_GET_INT(op2)); \\
                    sp--;                                               \\
                } else if (JG_BOTH_NUMBERS(op1, op2)) {                 \\
                    sp[-2] = JS_NewBool(ctx, JG_NUMBER(op1) binary_op JG_NUMBER(op2)); \\
                    sp--;                                               \\
                } else {                                                \\"""),
    # The release's autoinit properties (made on first access: the global object's
    # constructors) have three kinds, in two bits; the fourth is jsgym's lazy host
    # properties, which engine.h's lazy objects make all at once and whose data the
    # host frees.
    ("autoinit free",
     """static void js_autoinit_free(JSRuntime *rt, JSProperty *pr)
{
    JS_FreeContext(js_autoinit_get_realm(pr));""",
     """static void js_autoinit_free(JSRuntime *rt, JSProperty *pr)
{
    if (js_autoinit_get_id(pr) == JG_AUTOINIT_ID_HOST)
        jg_lazy_release(rt, pr->u.init.opaque);
    JS_FreeContext(js_autoinit_get_realm(pr));"""),
    ("autoinit mark",
     """static void js_autoinit_mark(JSRuntime *rt, JSProperty *pr,
                             JS_MarkFunc *mark_func)
{
""",
     """static void js_autoinit_mark(JSRuntime *rt, JSProperty *pr,
                             JS_MarkFunc *mark_func)
{
    if (js_autoinit_get_id(pr) == JG_AUTOINIT_ID_HOST)
        jg_lazy_mark(rt, pr->u.init.opaque, mark_func);
"""),
    ("autoinit make",
     """    if (js_shape_prepare_update(ctx, p, &prs))
        return -1;

    realm = js_autoinit_get_realm(pr);""",
     """    if (js_autoinit_get_id(pr) == JG_AUTOINIT_ID_HOST)
        return jg_lazy_materialize(ctx, p);
    if (js_shape_prepare_update(ctx, p, &prs))
        return -1;

    realm = js_autoinit_get_realm(pr);"""),
]


def patch(source: str) -> str:
    for name, anchor, replacement in PATCHES:
        found = source.count(anchor)
        if found != 1:
            raise SystemExit(f"patch_quickjs.py: the anchor of {name} occurs {found} times in "
                             "quickjs.c (expected once): this QuickJS release differs from the "
                             "one the patches were written for")
        source = source.replace(anchor, replacement)
    return source


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        raise SystemExit(__doc__.split("\n\n")[1])
    src, dst = map(pathlib.Path, argv)
    text = patch(src.read_text(encoding="utf-8"))
    dst.parent.mkdir(parents=True, exist_ok=True)
    if not dst.exists() or dst.read_text(encoding="utf-8") != text:
        dst.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
