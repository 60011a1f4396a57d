"""Arithmetic and comparisons on mixed int32/double operands in QuickJS give the IEEE
double results JavaScript specifies (runtime/engine/patch_quickjs.py computes them in
the interpreter loop instead of the release's generic slow call): every operator on
every pair of an int32 and a double (zero, negative zero, extremes, NaN, infinities),
both orders, compared bit for bit with numpy's float64."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from jsgym import _core

# int32 literals stay int32 in QuickJS; the doubles include -0, NaN and infinities
INTS = ["0", "1", "-1", "7", "2147483647", "-2147483648"]
DOUBLES = ["0.5", "-0", "-2.25", "1e308", "NaN", "Infinity", "-Infinity", "4.9e-324"]
ARITH = ["+", "-", "*", "/"]
COMPARE = ["<", "<=", ">", ">=", "==", "!=", "===", "!=="]


def js_value(text: str) -> float:
    return float(text.replace("Infinity", "inf").replace("NaN", "nan"))


def bits(x: float) -> str:
    return struct.pack("<d", x).hex()


def expected(op: str, a: float, b: float):
    x, y = np.float64(a), np.float64(b)
    with np.errstate(all="ignore"):
        if op in ARITH:
            r = {"+": x + y, "-": x - y, "*": x * y, "/": x / y}[op]
            return "nan" if np.isnan(r) else bits(float(r))
        return bool({"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y, "==": x == y,
                     "!=": x != y, "===": x == y, "!==": x != y}[op])


def program(pairs: list[tuple[str, str]]) -> str:
    """One function per operator so that the operands reach the operator's bytecode
    from locals (as in game code), not as constants folded at compile time; `+=` on a
    local is its own opcode."""
    body = ["var f64 = new Float64Array(1), u8 = new Uint8Array(f64.buffer), out = [];",
            "function hex(v) { if (v !== v) return 'nan'; f64[0] = v; var s = '';"
            " for (var i = 0; i < 8; i++) s += (u8[i] < 16 ? '0' : '') + u8[i].toString(16);"
            " return s; }"]
    for op in ARITH + COMPARE:
        body.append(f"function op_{len(body)}(a, b) {{ return a {op} b; }}")
    body.append("function add_loc(a, b) { var x = a; x += b; return x; }")
    names = [f"op_{i + 2}" for i in range(len(ARITH + COMPARE))]
    for a, b in pairs:
        for op, name in zip(ARITH + COMPARE, names):
            conv = "hex" if op in ARITH else ""
            body.append(f"out.push({conv}({name}({a}, {b})));")
        body.append(f"out.push(hex(add_loc({a}, {b})));")
    body.append("JSON.stringify(out)")
    return "\n".join(body)


@pytest.mark.parametrize("int_first", [True, False], ids=["int_op_double", "double_op_int"])
def test_mixed_operands_give_ieee_results(int_first):
    pairs = [(i, d) if int_first else (d, i) for i in INTS for d in DOUBLES]
    got = _core.eval_js(program(pairs))
    got = json.loads(got) if isinstance(got, str) else got
    want = []
    for a, b in pairs:
        x, y = js_value(a), js_value(b)
        want += [expected(op, x, y) for op in ARITH + COMPARE] + [expected("+", x, y)]
    labels = [f"{a} {op} {b}" for a, b in pairs for op in ARITH + COMPARE + ["+="]]
    wrong = [(l, g, w) for l, g, w in zip(labels, got, want) if g != w]
    assert len(got) == len(want) and not wrong, wrong[:10]
